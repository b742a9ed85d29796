// The board: the ring of spaces as an SVG track around the inland sea (clockwise from the top
// left, in the board's order), coloured by kind, with the adventurers' pieces, the face-up
// Adventure cards and the Items for sale; and the panel telling what lies on the space chosen.
// On a phone the track is a tall loop three spaces wide, so that every name stays readable.

import { h } from '../common/dom.js';
import { adventureOf, itemOf, itemText, bonusText, nameOf, seatIndex, initials, plural, statsText } from './words.js';
import { icon, mapIcon, itemIconName } from './icons.js';

/**
 * @typedef {import('./page-types').BoardContext} Ctx
 * @typedef {import('./view-types').Move} Move
 * @typedef {import('./view-types').Adventurer} Adventurer
 */

/**
 * Each kind of space: its name, its icon, and what may be done there (the basic rules).
 * @type {Record<import('./view-types').SpaceKind, {label: string, icon: import('./icons.js').IconName, does: string}>}
 */
export const KINDS = {
  fortress: { label: 'Fortress (a guild)', icon: 'fortress', does: 'Buy the Fortress’s Certificate; repair Items (1 Gold). Instead of moving: 2 Experience for 1 Health.' },
  'thieves-guild': { label: 'Thieves’ Guild (a guild)', icon: 'thieves-guild', does: 'Buy the Thieves’ Guild’s Certificate; repair Items (1 Gold). Instead of moving: 3 Gold for 1 Health.' },
  'magic-tower': { label: 'Magic Tower (a guild)', icon: 'magic-tower', does: 'Buy the Magic Tower’s Certificate; repair Items (1 Gold); recharge Magic, 1 Gold for every 2.' },
  'forest-camp': { label: 'Forest Camp (a guild)', icon: 'forest-camp', does: 'Buy the Forest Camp’s Certificate; repair Items (1 Gold); heal Health, 1 Gold each.' },
  monastery: { label: 'Monastery (a guild)', icon: 'monastery', does: 'Buy the Monastery’s Certificate; repair Items (1 Gold); heal 1 Health for free once a turn.' },
  city: { label: 'City', icon: 'city', does: 'Buy the Items lying here and sell yours (half their cost); repair Items (1 Gold). Instead of moving: 2 Gold for 1 Magic.' },
  village: { label: 'Village', icon: 'village', does: 'Buy the Items lying here and sell yours (half their cost); repair Items (1 Gold); the tavern: 1 Gold heals 1 Health and recharges 1 Magic, once a turn.' },
  mountains: { label: 'Mountains', icon: 'mountains', does: 'Adventure cards appear here: Creatures to fight, Opportunities to use.' },
  forest: { label: 'Forest', icon: 'forest', does: 'Adventure cards appear here: Creatures to fight, Opportunities to use.' },
  plains: { label: 'Plains', icon: 'plains', does: 'Adventure cards appear here: Creatures to fight, Opportunities to use.' },
  'enchanted-wilderness': { label: 'Enchanted Wilderness', icon: 'enchanted-wilderness', does: 'Recharge up to 3 Magic for free, once a turn.' },
};

/** What a Port and a Magic Gate add to a space. */
const PORT_DOES = 'A boat sails to the next Port either way for 1 Gold.';
const GATE_DOES = 'The Magic Gate leads to any other Magic Gate for 2 Gold.';

/**
 * @param {import('./view-types').SpaceKind} kind
 */
export function kindInfo(kind) {
  return KINDS[kind] || { label: kind, icon: null, does: '' };
}

/**
 * @param {Ctx} ctx
 * @param {number} id
 */
export function spaceName(ctx, id) {
  const s = (ctx.content.board || [])[id];
  return s ? s.name : `space ${id}`;
}

/**
 * A move in words, from the `how` the server gives.
 * @param {Ctx} ctx
 * @param {Move} m
 */
export function moveLabel(ctx, m) {
  const to = m.to_name || spaceName(ctx, m.to);
  if (typeof m.how === 'string') return m.how === 'stay' ? `Stay in ${to}` : `${m.how} to ${to}`;
  const [k, v] = Object.entries(m.how || {})[0] || ['?', {}];
  const dir = v && v.clockwise ? 'clockwise' : 'anticlockwise';
  switch (k) {
    case 'walk':
      return `Walk ${dir} to ${to}`;
    case 'horse':
      return `Ride a horse ${dir} to ${to}`;
    case 'boat':
      return `Sail ${dir} to ${to}`;
    case 'magic_gate':
      return `Magic Gate to ${to}`;
    default:
      return `${k} to ${to}`;
  }
}

// ---------------------------------------------------------------- the layout

/**
 * The cells of a rectangular track for `n` spaces: `cols` along the top and the bottom, the
 * rest down the right side and up the left, clockwise from the top left.
 * @param {number} n
 * @param {boolean} narrow
 */
function track(n, narrow) {
  const cols = Math.max(2, Math.min(narrow ? 3 : 8, Math.floor(n / 2) - 1));
  const side = n - 2 * cols;
  const right = Math.ceil(side / 2);
  const left = side - right;
  const W = narrow ? 118 : 110;
  const H = narrow ? 64 : 82;
  const cells = [];
  for (let c = 0; c < cols; c++) cells.push([c, 0]);
  for (let r = 1; r <= right; r++) cells.push([cols - 1, r]);
  for (let c = cols - 1; c >= 0; c--) cells.push([c, right + 1]);
  for (let r = right; r > right - left; r--) cells.push([0, r]);
  return { cols, rows: right + 2, W, H, cells };
}

// ---------------------------------------------------------------- the board

/**
 * @param {Ctx} ctx
 */
export function boardSection(ctx) {
  const { view, content, ui } = ctx;
  const board = content.board || [];
  const n = board.length;
  if (!n) return null;
  const t = track(n, ctx.narrow);
  const { W, H } = t;
  const o = view.options && view.options.player === ctx.you ? view.options : null;
  const dests = new Map();
  for (const m of (o && o.moves) || []) if (!dests.has(m.to)) dests.set(m.to, m);
  const alive = (view.adventurers || []).filter((a) => a.alive);
  const focus = ui.focusSpace !== null && ui.focusSpace < n ? ui.focusSpace : defaultSpace(ctx);
  const turnPlayer = view.turn ? view.turn.player : null;
  const centre = (/** @type {number} */ id) => {
    const [c, r] = t.cells[id];
    return [c * W + W / 2, r * H + H / 2];
  };
  const ports = board.filter((s) => s.port).map((s) => s.id);
  const route = ports.length > 1 ? ports.concat([ports[0]]).map((id) => centre(id).join(',')).join(' ') : null;
  const sea = { x: W + 8, y: H + 8, w: (t.cols - 2) * W - 16, h: (t.rows - 2) * H - 16 };
  return h(
    'section',
    { class: 'panel board-panel', 'aria-labelledby': 'board-h', 'data-key': 'board-panel' },
    h('h2', { id: 'board-h', class: 'visually-hidden' }, 'The board'),
    legend(ctx),
    h(
      'svg:svg',
      {
        class: ['board-svg', ctx.narrow ? 'narrow' : 'wide'],
        viewBox: `0 0 ${t.cols * W} ${t.rows * H}`,
        role: 'group',
        'aria-label': `The board: ${n} spaces in a ring, clockwise from the top left. Use the arrow keys to go from space to space; Enter shows what lies there.`,
        testid: 'board',
        'data-layout': ctx.narrow ? 'narrow' : 'wide',
        'data-key': 'board-' + (ctx.narrow ? 'narrow' : 'wide'),
      },
      h('svg:rect', { class: 'sea', x: sea.x, y: sea.y, width: sea.w, height: sea.h, rx: 18 }),
      route ? h('svg:polyline', { class: 'boat-route', points: route }) : null,
      h('svg:text', { class: 'sea-name', x: sea.x + sea.w / 2, y: sea.y + sea.h / 2, 'text-anchor': 'middle', transform: ctx.narrow ? `rotate(-90 ${sea.x + sea.w / 2} ${sea.y + sea.h / 2})` : null, 'aria-hidden': 'true' }, 'The Glasswater'),
      ctx.narrow ? null : seaHint(sea.x + sea.w / 2, sea.y + sea.h / 2 + 14),
      board.map((s) => tile(ctx, s, t, { dests, alive, focus, turnPlayer })),
    ),
    o && dests.size ? h('p', { class: 'small muted board-note' }, 'Dashed outlines: where your move can take you.') : null,
  );
}

/**
 * Under the sea's name on a wide board: what the marks of Ports and Magic Gates are.
 * @param {number} cx
 * @param {number} y
 */
function seaHint(cx, y) {
  const row = (/** @type {'port' | 'magic-gate'} */ name, /** @type {string} */ words, /** @type {number} */ dy) => [
    mapIcon(name, cx - 78, y + dy - 12, 16, 'sea-icon'),
    h('svg:text', { class: 'sea-hint', x: cx - 56, y: y + dy }, words),
  ];
  return h('svg:g', { 'aria-hidden': 'true' }, row('port', 'Ports (boats, dashed)', 6), row('magic-gate', 'Magic Gates', 26));
}

/**
 * @param {Ctx} ctx
 */
function defaultSpace(ctx) {
  const me = (ctx.view.adventurers || []).find((a) => a.player === ctx.you);
  return me ? me.space : 0;
}

/**
 * Splits a name into at most two lines, as even as the words allow.
 * @param {string} name
 */
function lines(name) {
  const words = String(name).split(/\s+/).filter(Boolean);
  if (words.length < 2) return words;
  /** @type {{split: string[], worst: number} | null} */
  let best = null;
  for (let i = 1; i < words.length; i++) {
    const split = [words.slice(0, i).join(' '), words.slice(i).join(' ')];
    const worst = Math.max(split[0].length, split[1].length);
    if (!best || worst < best.worst) best = { split, worst };
  }
  // A short name stays on one line.
  return name.length <= 11 || !best ? [name] : best.split;
}

/**
 * @param {Ctx} ctx
 * @param {import('./view-types').BoardContent['board'][number]} s
 * @param {ReturnType<typeof track>} t
 * @param {{dests: Map<number, import('./view-types').Move>, alive: import('./view-types').Adventurer[], focus: number, turnPlayer: number | null}} around
 */
function tile(ctx, s, t, { dests, alive, focus, turnPlayer }) {
  const { view, ui } = ctx;
  const { W, H } = t;
  const [c, r] = t.cells[s.id];
  const info = kindInfo(s.kind);
  const here = (view.spaces || [])[s.id] || { adventure: null, items: [] };
  const card = here.adventure !== null && here.adventure !== undefined ? adventureOf(ctx, here.adventure) : null;
  // A piece walking to where it moved is drawn on its way (main.js: walk).
  const shownAt = (/** @type {import('./view-types').Adventurer} */ a) => {
    const w = ui.walks.get(a.player);
    return w ? w.path[w.at] : a.space;
  };
  const pieces = alive.filter((a) => shownAt(a) === s.id);
  const dest = dests.get(s.id);
  const selected = ui.space === s.id;
  const nameLines = lines(s.name);
  const tight = nameLines.some((l) => l.length > (ctx.narrow ? 15 : 13));
  const pr = ctx.narrow ? 8 : 9;
  const label = [
    s.name,
    info.label,
    s.port ? 'a Port' : null,
    s.magic_gate ? 'a Magic Gate' : null,
    card ? `${card.kind === 'creature' ? 'a Creature' : 'an Opportunity'}: ${card.name}` : null,
    here.items.length ? `${plural(here.items.length, 'Item')} for sale` : null,
    pieces.length ? `here: ${pieces.map((a) => a.name).join(', ')}` : null,
    dest ? 'your move can take you here' : null,
  ]
    .filter(Boolean)
    .join('; ');
  const go = (/** @type {number} */ id) => {
    const n = (ctx.content.board || []).length;
    const next = ((id % n) + n) % n;
    ui.space = next;
    ui.focusSpace = next;
    ctx.rerender();
    const el = document.querySelector(`[data-testid="space"][data-space-id="${next}"]`);
    if (el instanceof SVGElement) el.focus();
  };
  const nameTop = ctx.narrow ? 29 : 33;
  const iconSize = ctx.narrow ? 17 : 20;
  /** @type {Array<'port' | 'magic-gate'>} */
  const marks = [];
  if (s.port) marks.push('port');
  if (s.magic_gate) marks.push('magic-gate');
  const lineH = ctx.narrow ? 12 : 13;
  // The tile is the button; its icons, name, marks and pieces are drawn over it as a picture
  // that takes no clicks (they reach the tile) and is no part of the button, whose name says it
  // all: a button holding text must have that text in its name (WCAG 2.5.3), and pieces inside
  // it would be targets within a target.
  return h(
    'svg:g',
    { class: 'cell', transform: `translate(${c * W} ${r * H})`, 'data-key': 'sp' + s.id },
    h(
      'svg:g',
      {
        class: ['space', 'k-' + s.kind, dest ? 'dest' : null, selected ? 'selected' : null],
        role: 'button',
        tabindex: focus === s.id ? 0 : -1,
        'aria-label': label,
        'aria-pressed': selected ? 'true' : 'false',
        testid: 'space',
        'data-space-id': s.id,
        'data-kind': s.kind,
        'data-dest': dest ? 'true' : null,
        'data-adventure': card ? here.adventure : null,
        'data-key': 'button',
        onclick: () => go(s.id),
        onkeydown: (e) => {
          const k = e.key;
          if (k === 'Enter' || k === ' ') {
            e.preventDefault();
            go(s.id);
          } else if (k === 'ArrowRight' || k === 'ArrowDown') {
            e.preventDefault();
            go(s.id + 1);
          } else if (k === 'ArrowLeft' || k === 'ArrowUp') {
            e.preventDefault();
            go(s.id - 1);
          } else if (k === 'Home') {
            e.preventDefault();
            go(0);
          } else if (k === 'End') {
            e.preventDefault();
            go(-1);
          }
        },
      },
      h('svg:title', null, label),
      h('svg:rect', { class: 'tile', x: 2, y: 2, width: W - 4, height: H - 4, rx: 7 }),
    ),
    h(
      'svg:g',
      { class: 'space-face', 'aria-hidden': 'true', 'data-key': 'face' },
      info.icon ? mapIcon(info.icon, W - H * 0.62 - 4, H * 0.38 - 4, H * 0.62, 'kind-mark') : null,
      info.icon ? mapIcon(info.icon, 5, 4, iconSize, 'kind-icon') : null,
      marks.map((m, i) => mapIcon(m, 8 + iconSize + i * 15, 6, 13, 'mark-icon')),
      h('svg:text', { class: 'space-no', x: W - 8, y: 15, 'text-anchor': 'end' }, here.items.length ? `${here.items.length} for sale` : ''),
      card
        ? h(
            'svg:g',
            { class: ['adv-marker', card.kind] },
            h('svg:circle', { cx: W - 14, cy: 14, r: 10.5 }),
            mapIcon(card.kind === 'creature' ? 'creature' : 'opportunity', W - 21.5, 6.5, 15),
          )
        : null,
      nameLines.map((l, i) => h('svg:text', { class: ['space-name', tight ? 'tight' : null], x: W / 2, y: nameTop + i * lineH, 'text-anchor': 'middle', 'data-key': 'n' + i }, l)),
      pieces.map((a, i) => {
        const x = W / 2 - ((pieces.length - 1) * (pr * 2 + 2)) / 2 + i * (pr * 2 + 2);
        const y = H - pr - 5;
        return h(
          'svg:g',
          {
            class: ['piece', 'seat-' + seatIndex(view, a.player), a.player === turnPlayer ? 'active' : null, ui.walks.has(a.player) ? 'walking' : null],
            testid: 'piece',
            'data-player-id': a.player,
            'data-space-id': s.id,
            'data-walking': ui.walks.has(a.player) ? 'true' : null,
            'data-key': 'p' + a.player,
          },
          h('svg:circle', { cx: x, cy: y, r: pr }),
          h('svg:text', { x, y: y + 3.5, 'text-anchor': 'middle' }, initials(a.name)),
        );
      }),
    ),
  );
}

// ---------------------------------------------------------------- what lies on a space

/**
 * @param {Ctx} ctx
 */
export function spaceDetail(ctx) {
  const { view, content, ui } = ctx;
  const board = content.board || [];
  const id = ui.space !== null && ui.space < board.length ? ui.space : defaultSpace(ctx);
  const s = board[id];
  if (!s) return null;
  const info = kindInfo(s.kind);
  const here = (view.spaces || [])[id] || { adventure: null, items: [] };
  const card = here.adventure !== null && here.adventure !== undefined ? adventureOf(ctx, here.adventure) : null;
  const people = (view.adventurers || []).filter((a) => a.space === id && a.alive);
  const prev = board[(id - 1 + board.length) % board.length];
  const next = board[(id + 1) % board.length];
  return h(
    'section',
    { class: ['panel', 'space-detail', 'k-' + s.kind], testid: 'space-detail', 'data-space-id': id, 'aria-labelledby': 'space-h', 'aria-live': 'polite', 'data-key': 'space-detail' },
    h('h2', { id: 'space-h' }, info.icon ? icon(info.icon, 'detail-icon') : null, ' ', s.name),
    h(
      'p',
      { class: 'meta' },
      h('span', { class: 'badge' }, info.label),
      s.port ? h('span', { class: 'badge' }, icon('port'), ' Port') : null,
      s.magic_gate ? h('span', { class: 'badge' }, icon('magic-gate'), ' Magic Gate') : null,
    ),
    h('p', { class: 'small' }, info.does, s.port ? ' ' + PORT_DOES : '', s.magic_gate ? ' ' + GATE_DOES : ''),
    card ? adventureCard(card) : null,
    here.items.length
      ? h(
          'div',
          { class: 'for-sale' },
          h('h3', null, 'For sale here'),
          h(
            'ul',
            { class: 'item-cards' },
            here.items.map((i) => {
              const item = itemOf(ctx, i);
              const bonus = bonusText(item);
              return h(
                'li',
                { class: 'item-card', testid: 'space-item', 'data-item-id': i, title: itemText(item), 'data-key': 'i' + i },
                icon(itemIconName(item), 'item-icon'),
                h('span', { class: 'item-card-text' }, h('strong', null, item.name), ' ', h('span', { class: 'small muted' }, [item.slot, bonus, item.cost != null ? plural(item.cost, 'Gold') : null].filter(Boolean).join(' · '))),
              );
            }),
          ),
        )
      : null,
    people.length ? h('p', { class: 'small' }, 'Here: ', people.map((a) => nameOf(view, a.player)).join(', '), '.') : null,
    goHere(ctx, id),
    h('p', { class: 'small muted' }, `Next to ${prev.name} (anticlockwise) and ${next.name} (clockwise).`),
  );
}

/**
 * On your move, the ways to this space, as buttons (the same as the turn's).
 * @param {Ctx} ctx
 * @param {number} id
 */
function goHere(ctx, id) {
  const o = ctx.view.options;
  if (!o || o.player !== ctx.you || !ctx.view.turn || ctx.view.turn.step !== 'move') return null;
  const ways = (o.moves || []).filter((m) => m.to === id);
  if (!ways.length) return null;
  return h(
    'div',
    { class: 'row go-here' },
    ways.map((m, i) =>
      h(
        'button',
        {
          type: 'button',
          class: 'btn primary small',
          testid: 'move-here',
          'data-to': m.to,
          'data-cost': m.cost,
          disabled: ctx.ui.pending.has('move'),
          'data-key': 'go' + i,
          onclick: () => ctx.act('move', { action: 'move', how: m.how }),
        },
        `${moveLabel(ctx, m)} (${m.cost ? plural(m.cost, 'Gold') : 'free'})`,
      ),
    ),
  );
}

/**
 * A card as a card: a frame, its icon, what kind it is, its title, then its text.
 * @param {import('./icons.js').IconName} name
 * @param {import('../common/page-types').Child} kicker
 * @param {import('../common/page-types').Child} title
 * @param {import('../common/page-types').Props} props
 * @param {...import('../common/page-types').Child} body
 */
export function gameCard(name, kicker, title, props, ...body) {
  const { class: cls, ...rest } = props;
  return h(
    'div',
    { class: ['game-card', ...(Array.isArray(cls) ? cls : [cls])], ...rest },
    h('div', { class: 'card-head' }, icon(name, 'card-icon'), h('div', { class: 'card-heading' }, h('p', { class: 'card-kicker' }, kicker), h('p', { class: 'card-name' }, title))),
    h('div', { class: 'card-body' }, body),
  );
}

/**
 * @param {import('./view-types').Creature | import('./view-types').Opportunity} card
 */
function adventureCard(card) {
  if (card.kind === 'creature') {
    return gameCard(
      'creature',
      'Creature',
      [card.name, h('span', { class: 'xp' }, ` · ${plural(card.experience || 0, 'Experience')}`)],
      { class: ['adventure', 'creature'], testid: 'space-adventure', 'data-kind': 'creature' },
      h('p', { class: 'small card-rule' }, 'It lies here: whoever ends a move here must fight it.'),
      h('p', { class: 'small' }, statsText(card.stats), card.three_lives ? '; three lives (win three rolls in a row)' : ''),
      (card.treasure || []).length ? h('p', { class: 'small' }, h('strong', null, 'Treasure: '), card.treasure.join(', '), '.') : null,
      (card.on_loss || []).length ? h('p', { class: 'small' }, h('strong', null, 'If she loses, she '), card.on_loss.join(', '), '.') : null,
      card.special ? h('p', { class: 'small' }, h('strong', null, card.special.mandatory ? 'Special rule (!): ' : 'Special rule (?): '), card.special.text) : null,
    );
  }
  return gameCard(
    'opportunity',
    'Opportunity',
    card.name,
    { class: ['adventure', 'opportunity'], testid: 'space-adventure', 'data-kind': 'opportunity' },
    h('p', { class: 'small card-rule' }, 'It lies here: whoever ends a move here may use it.'),
    card.text ? h('p', { class: 'small' }, card.text) : null,
    (card.effects || []).length ? h('p', { class: 'small muted' }, `She ${card.effects.join(', ')}.`) : null,
  );
}

// ---------------------------------------------------------------- the legend

/** @type {Set<import('./icons.js').IconName>} */
const ITEM_ICONS = new Set(['weapon', 'two-handed-weapon', 'shield', 'headwear', 'hand-item', 'item']);

/**
 * What each icon means, one tap away above the board: the spaces and what may be done there,
 * the marks, the cards, the Items; and the icons' credit.
 * @param {Ctx} ctx
 */
function legend(ctx) {
  const open = ctx.ui.open.has('board-legend');
  /** @type {Array<[import('./icons.js').IconName, string, string, string]>} */
  const rows = [
    ...Object.entries(KINDS).map(([kind, k]) => /** @type {[import('./icons.js').IconName, string, string, string]} */ ([k.icon, kind, k.label, k.does])),
    ['port', 'port', 'Port', PORT_DOES],
    ['magic-gate', 'magic-gate', 'Magic Gate', GATE_DOES],
    ['creature', 'creature', 'Creature', 'An Adventure card: whoever ends a move on its space must fight it.'],
    ['opportunity', 'opportunity', 'Opportunity', 'An Adventure card: whoever ends a move on its space may use it.'],
    ['chance', 'chance', 'Chance card', 'Drawn at the start of every turn.'],
    ['weapon', 'weapon', 'Weapon', 'An Item for one hand; one weapon in a battle (some may be thrown instead: a bigger bonus on the first roll only, then the weapon is damaged).'],
    ['two-handed-weapon', 'two-handed-weapon', 'Two-handed weapon', 'A weapon that takes both hands.'],
    ['shield', 'shield', 'Shield', 'An Item for one hand.'],
    ['headwear', 'headwear', 'Headwear', 'One in a battle.'],
    ['hand-item', 'hand-item', 'Hand item', 'An Item for one hand.'],
    ['item', 'item', 'Other Item', 'Worn or carried: it takes no hand.'],
  ];
  return h(
    'details',
    { class: 'legend', testid: 'legend', open, ontoggle: (e, el) => ctx.toggled('board-legend', el.open), 'data-key': 'legend' },
    h('summary', { testid: 'legend-toggle' }, 'Legend: what the icons mean'),
    h(
      'ul',
      { class: 'legend-list' },
      rows.map(([name, key, label, does]) =>
        h('li', { class: ['legend-entry', 'k-' + key, ITEM_ICONS.has(name) ? 'item' : null], testid: 'legend-entry', 'data-entry': key, 'data-key': key }, icon(name, 'legend-icon'), h('span', null, h('strong', null, label), does ? ': ' + does : '')),
      ),
    ),
    h(
      'p',
      { class: 'small muted icon-credit', testid: 'icon-credit' },
      'Icons: ',
      h('a', { href: 'https://game-icons.net/', rel: 'noopener' }, 'game-icons.net'),
      ' (Lorc, Delapouite and others), ',
      h('a', { href: 'https://creativecommons.org/licenses/by/3.0/', rel: 'license noopener' }, 'CC BY 3.0'),
      '.',
    ),
  );
}
