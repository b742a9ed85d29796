// Words and look-ups shared by the board game's views: the static content by id, names,
// initials, and what cards and Items do, in words.

/**
 * @typedef {import('./page-types').BoardContext} Ctx
 * @typedef {import('../common/page-types').Seen<import('./view-types').BoardView>} View
 * @typedef {import('./view-types').Battle} Battle
 */

/**
 * @param {Ctx} ctx
 * @param {number} id
 */
export function itemOf(ctx, id) {
  return (ctx.content.items || [])[id] || { id, name: `Item ${id}`, cost: 0 };
}

/**
 * @param {Ctx} ctx
 * @param {number} id
 */
export function adventureOf(ctx, id) {
  return (ctx.content.adventures || [])[id] || { id, kind: 'creature', name: `Card ${id}` };
}

/**
 * @param {Ctx} ctx
 * @param {number} id
 */
export function characterOf(ctx, id) {
  return (ctx.content.characters || [])[id] || { id, name: `Character ${id}`, guilds: [] };
}

/**
 * @param {Ctx} ctx
 * @param {import('./view-types').Guild} guild
 */
export function guildName(ctx, guild) {
  const g = (ctx.content.guilds || []).find((x) => x.guild === guild);
  return g ? g.name : guild;
}

/**
 * @param {View} view
 * @param {number} player
 */
export function seatIndex(view, player) {
  const i = (view.seats || []).findIndex((s) => s.player === player);
  return i < 0 ? 0 : i;
}

/**
 * @param {View} view
 * @param {number} player
 */
export function nameOf(view, player) {
  const s = (view.seats || []).find((x) => x.player === player);
  if (s) return s.name;
  const a = (view.adventurers || []).find((x) => x.player === player);
  return a ? a.name : `Player ${player}`;
}

/**
 * One or two letters for a piece.
 * @param {string} name
 */
export function initials(name) {
  const words = String(name).replace(/\(bot\)/i, '').trim().split(/\s+/).filter(Boolean);
  if (!words.length) return '?';
  if (words.length === 1) return words[0].slice(0, 2);
  return (words[0][0] + words[1][0]).toUpperCase();
}

/**
 * @param {number} n
 * @param {string} one
 * @param {string} [many]
 */
export function plural(n, one, many = one) {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * A creature's fighting numbers in words.
 * @param {import('./view-types').Creature['stats'] | null | undefined} stats
 */
export function statsText(stats) {
  if (!stats) return '';
  const s = stats.strength;
  const w = stats.willpower;
  if (s != null && w != null) {
    return stats.first === 'willpower'
      ? `Willpower ${w}, then Strength ${s} (special rules)`
      : `Strength ${s}, or Willpower ${w} (a Battle of Wills for 2 Magic is yours to choose)`;
  }
  if (s != null) return `Strength ${s}`;
  if (w != null) return `Willpower ${w}`;
  return '';
}

/**
 * What a Chance card does, from its kind.
 * @param {import('./view-types').ChanceKind} kind
 */
export function chanceText(kind) {
  if (!kind) return '';
  if (typeof kind === 'string') return kind === 'peaceful_times' ? 'Peaceful times: whoever drew it takes an extra turn.' : String(kind).replace(/_/g, ' ');
  const [k, v] = Object.entries(kind)[0] || [];
  switch (k) {
    case 'terrain':
      return `An Adventure card appears on every empty ${v} space.`;
    case 'restock':
      return `New ${v.deck} Items for sale in the ${v.space}: ${v.count}.`;
    case 'wind': {
      const parts = [];
      if (v.heal) parts.push(`heals ${plural(v.heal, 'Health')}`);
      if (v.recharge) parts.push(`recharges ${plural(v.recharge, 'Magic')}`);
      return `Every adventurer ${parts.join(' and ')}.`;
    }
    case 'good_times':
      return `Every adventurer takes ${plural(v.gold, 'Gold')}.`;
    case 'charity': {
      const parts = [];
      if (v.heal) parts.push(`${plural(v.heal, 'Health')} healed`);
      if (v.recharge) parts.push(`${plural(v.recharge, 'Magic')} recharged`);
      if (v.gold) parts.push(`${plural(v.gold, 'Gold')}`);
      return `Charity for whoever has the least: ${parts.join(', ')}.`;
    }
    default:
      return '';
  }
}

/**
 * @param {import('./view-types').Item} item
 */
export function bonusText(item) {
  const parts = [];
  if (item.strength_bonus) parts.push(`+${item.strength_bonus} Strength`);
  if (item.willpower_bonus) parts.push(`+${item.willpower_bonus} Willpower`);
  if (item.thrown_bonus) parts.push(`+${item.thrown_bonus} Strength if thrown (first roll only, then damaged)`);
  return parts.join(', ');
}

/**
 * @param {import('./view-types').Item} item
 */
export function itemText(item) {
  const b = bonusText(item);
  return `${item.name} (${[item.slot, b].filter(Boolean).join('; ')}${item.cost != null ? `; costs ${item.cost} Gold` : ''})`;
}

