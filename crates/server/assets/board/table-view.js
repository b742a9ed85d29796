// The board game's table, rendered from the server's view and the game's static content:
// the header, the lobby, whose turn it is and what they may do (only what `view.options`
// offers: nothing here decides what the rules allow), the board, the adventurers' cards, the
// last Chance card and battle, the decks, the end and the log.

import { h } from '../common/dom.js';
import { awayCard } from '../common/away.js';
import {
  tagged, showOnly, tabBar, inviteBlock, publishLinks, toasts, topbar, tableLinks, banners, pageFooter,
  logPanel, streamLayout,
} from '../common/shell.js';
import { rulesHelp } from '../common/rules-help.js';
import { msg, pips } from '../common/controls.js';
import { BOARD_HELP } from './step-help.js';
import { boardSection, spaceDetail, moveLabel, gameCard, KINDS } from './map.js';
import { icon, itemIconName } from './icons.js';
import {
  itemOf, adventureOf, characterOf, guildName, seatIndex, nameOf, initials, plural, statsText,
  chanceText, bonusText, itemText,
} from './words.js';

/**
 * @typedef {import('./page-types').BoardContext} Ctx
 * @typedef {import('../common/page-types').Seen<import('./view-types').BoardView>} View
 * @typedef {import('./view-types').Options} Options
 * @typedef {import('./view-types').Battle} Battle
 * @typedef {import('./view-types').Move} Move
 * @typedef {import('./view-types').Adventurer} Adventurer
 * @typedef {import('../common/page-types').Child} Child
 * @typedef {import('./view-types').BotLevel} BotLevel
 */

const STEP_WORDS = {
  draw_chance: 'draws a Chance card',
  move: 'moves',
  battle: 'must fight',
  moved: 'uses the space or ends the turn',
};

// ---------------------------------------------------------------- the page

/**
 * @param {Ctx} ctx
 */
export function renderBoardTable(ctx) {
  const { view } = ctx;
  const over = view.phase === 'won' || view.phase === 'ended';
  const lobby = view.phase === 'lobby';
  // A stream shows the turn (its dice as they fall), the lobby before it, the end after it.
  if (ctx.stream) return streamLayout(ctx, ctx.title || 'The board game', over ? theEnd(ctx) : lobby ? lobbySection(ctx) : turnSection(ctx));
  // On a phone (common/shell.js), once the game runs: the turn, the board, the adventurers, the log.
  const tabs = lobby ? null : boardTabs(ctx, over);
  const tab = tabs && tabs.some((t) => t.id === ctx.ui.tab) ? ctx.ui.tab : 'turn';
  const top = headerParts(ctx);
  const layout = h(
    'div',
    { class: 'layout board-layout', 'data-key': 'layout', testid: 'layout' },
    h(
      'main',
      { id: 'main', class: 'main-col', tabindex: -1, 'data-key': 'main' },
      over ? tagged([theEnd(ctx), lastCards(ctx)], 'turn') : null,
      lobby ? lobbySection(ctx) : null,
      !lobby && !over ? tagged(turnSection(ctx), 'turn') : null,
      // Choosing a move, the map (where each move takes you) is part of the turn.
      !lobby ? tagged(boardSection(ctx), movingNow(ctx) ? 'turn board' : 'board') : null,
      !lobby ? tagged(spaceDetail(ctx), 'turn board') : null,
    ),
    h(
      'aside',
      { class: 'side-col', 'aria-label': 'The adventurers and the table', 'data-key': 'side' },
      !lobby ? tagged(adventurersSection(ctx), 'adventurers') : null,
      !lobby ? tagged(decksSection(ctx), 'adventurers') : null,
      !lobby ? tagged(tableLinks(ctx, { ...top, invite: null }), 'adventurers') : null,
      tagged(logSection(ctx), 'log'),
    ),
  );
  return [
    topbar(ctx, top),
    banners(ctx),
    tabs ? showOnly(layout, tab) : layout,
    pageFooter(h('a', { href: '/' }, 'Start another table')),
    tabs ? tabBar(tabs, tab, boardMarks(ctx), (id) => ctx.showTab(id)) : null,
    toasts(ctx),
  ];
}

/**
 * @param {Ctx} ctx
 */
function movingNow(ctx) {
  const t = ctx.view.turn;
  return !!t && t.step === 'move' && t.player === ctx.you;
}

/**
 * @param {Ctx} ctx
 * @param {boolean} over
 */
function boardTabs(ctx, over) {
  const t = ctx.view.turn;
  const mine = t && t.player === ctx.you;
  return [
    { id: 'turn', label: over ? 'The end' : mine ? 'Your turn' : 'Turn' },
    { id: 'board', label: 'Board' },
    { id: 'adventurers', label: 'Adventurers' },
    { id: 'log', label: 'Log' },
  ];
}

/**
 * What waits in the views not shown: the player's turn, new log lines.
 * @param {Ctx} ctx
 */
function boardMarks(ctx) {
  const { view, ui } = ctx;
  /** @type {Record<string, number | boolean>} */
  const marks = { log: (ctx.log || []).filter((e) => e.seq > (ui.seenLogSeq || 0)).length };
  if (view.turn && view.turn.player === ctx.you && view.options && view.options.player === ctx.you) marks.turn = true;
  return marks;
}

/**
 * The header's parts (common/shell.js: topbar, tableLinks). Nobody new takes a seat once the
 * game has started (the server refuses): the invitation is the lobby's only. On a phone, once
 * the game runs, the exports wait in the Adventurers view.
 * @param {Ctx} ctx
 * @returns {import('../common/shell.js').HeaderParts}
 */
function headerParts(ctx) {
  const { view } = ctx;
  const phaseName = { lobby: 'Lobby', playing: 'Playing', won: 'Won', ended: 'Ended' }[view.phase] || view.phase;
  return {
    title: ctx.title || 'The board game',
    meta: [
      h('span', { class: 'badge phase', testid: 'phase', 'data-phase': view.phase }, phaseName),
      view.turn ? h('span', { class: 'badge', testid: 'turn-number' }, `Turn ${view.turn.number}`) : null,
    ],
    invite: view.phase === 'lobby' ? inviteBlock(ctx) : h('div', { class: 'invite-placeholder', 'aria-hidden': 'true' }),
    exportsLabel: 'Export the game',
    gameFile: { download: 'prophecy-board.jsonl', title: 'The whole game, one event per line (the decks’ order is left out until the game is over).' },
    publish: publishLinks(ctx, ctx.invite && ctx.invite.creator),
    inPlay: view.phase !== 'lobby',
  };
}

/**
 * A button that sends one action; its refusal shows right after it.
 * @param {Ctx} ctx
 * @param {string} key
 * @param {Child} label
 * @param {import('../common/page-types').Action} action
 * @param {{class?: string, disabled?: boolean, 'data-key-extra'?: string, [attribute: string]: unknown}} [props]
 */
function actBtn(ctx, key, label, action, props = {}) {
  const busy = ctx.ui.pending.has(key);
  const { class: cls, ...rest } = props;
  return h(
    'button',
    {
      type: 'button',
      class: ['btn', cls || 'secondary'],
      disabled: busy || props.disabled,
      'data-key': 'btn:' + key + (props['data-key-extra'] || ''),
      ...rest,
      onclick: () => ctx.act(key, action),
    },
    label,
  );
}

// ---------------------------------------------------------------- the lobby

/** @type {Record<BotLevel, string>} */
const BOT_LEVEL_HELP = {
  easy: 'makes a beginner’s choices',
  standard: 'weighs every battle’s odds',
  strong: 'plays each choice out many times before making it',
};

/**
 * A bot's tag: "bot", with its level unless standard.
 * @param {BotLevel | null} level
 */
function botTag(level) {
  const words = level && level !== 'standard' ? `${level} bot` : 'bot';
  return h('span', { class: 'tag bot', testid: 'bot-level', 'data-level': level || 'standard', title: level ? `A ${level} bot: it ${BOT_LEVEL_HELP[level]}.` : null }, words);
}

/**
 * The level of the next bot the creator seats.
 * @param {Ctx} ctx
 */
function botLevelPicker(ctx) {
  const option = (/** @type {BotLevel} */ level) => h('option', { value: level, selected: ctx.ui.botLevel === level }, `${level[0].toUpperCase()}${level.slice(1)}: ${BOT_LEVEL_HELP[level]}`);
  return h(
    'label',
    { class: 'bot-level', 'data-key': 'bot-level' },
    h('span', { class: 'small' }, 'Next bot'),
    h(
      'select',
      {
        testid: 'bot-level-select',
        onchange: (/** @type {Event} */ e, /** @type {HTMLSelectElement} */ el) => {
          ctx.ui.botLevel = /** @type {BotLevel} */ (el.value);
          ctx.rerender();
        },
      },
      option('easy'),
      option('standard'),
      option('strong'),
    ),
  );
}

/**
 * @param {Ctx} ctx
 */
function lobbySection(ctx) {
  const { view } = ctx;
  const you = ctx.you;
  const creator = view.creator === you;
  const seats = view.seats || [];
  const min = view.players || 2;
  const max = view.max_players || 5;
  const canStart = seats.length >= min && seats.length <= max;
  return h(
    'section',
    { class: 'panel lobby', testid: 'lobby', 'aria-labelledby': 'lobby-h', 'data-key': 'lobby' },
    h('h2', { id: 'lobby-h' }, 'The lobby'),
    h('p', null, `Prophecy, the board game, for ${min} to ${max} adventurers: be the first to hold a Certificate from each of the five guilds. Share the invite link above, or seat bots.`),
    h(
      'ol',
      { class: 'seats' },
      seats.map((s, i) =>
        h(
          'li',
          { class: 'seat', testid: 'seat', 'data-player-id': s.player, 'data-bot': String(!!s.bot), 'data-key': 's' + s.player },
          h('span', { class: ['swatch', 'seat-' + i], 'aria-hidden': 'true' }, initials(s.name)),
          h('span', { class: 'seat-name' }, s.name),
          s.bot ? botTag(s.level) : null,
          s.player === you ? h('span', { class: 'tag' }, 'you') : null,
          s.player === view.creator ? h('span', { class: 'tag' }, 'host') : null,
          !s.bot && s.player !== you ? h('span', { class: ['dot', ctx.online.has(s.player) ? 'on' : 'off'], role: 'img', 'aria-label': ctx.online.has(s.player) ? 'online' : 'offline' }) : null,
          creator && s.bot
            ? actBtn(ctx, 'lobby', 'Remove', { action: 'remove_bot', player: s.player }, { class: 'ghost small', testid: 'remove-bot', 'data-player-id': s.player, 'aria-label': `Remove the bot ${s.name}`, 'data-key-extra': ':' + s.player })
            : null,
        ),
      ),
    ),
    creator
      ? h(
          'div',
          { class: 'row lobby-actions' },
          botLevelPicker(ctx),
          actBtn(ctx, 'lobby', 'Add a bot', { action: 'add_bot', level: ctx.ui.botLevel }, { testid: 'add-bot', disabled: seats.length >= max }),
          actBtn(ctx, 'lobby', 'Start the game', { action: 'start' }, { class: 'primary', testid: 'start-game', disabled: !canStart, 'data-key-extra': ':start' }),
        )
      : h('p', { class: 'muted', testid: 'waiting-for-start', role: 'status' }, `Waiting for ${nameOf(view, view.creator)} (who made the table) to start the game…`),
    creator && !canStart ? h('p', { class: 'small muted' }, seats.length < min ? `The game needs at least ${min} seats: add a bot or invite someone.` : `At most ${max} adventurers play.`) : null,
    msg(ctx, 'lobby'),
  );
}

// ---------------------------------------------------------------- the turn

/**
 * @param {Ctx} ctx
 */
function turnSection(ctx) {
  const { view } = ctx;
  const t = view.turn;
  if (!t) return null;
  const o = view.options || null;
  const mine = t.player === ctx.you && o && o.player === ctx.you;
  const who = nameOf(view, t.player);
  const adv = (view.adventurers || []).find((a) => a.player === t.player);
  const bot = adv ? adv.bot : false;
  return h(
    'section',
    { class: ['panel', 'turn', mine ? 'mine' : null], testid: 'turn', 'data-player-id': t.player, 'data-step': t.step, 'data-mine': String(!!mine), 'aria-labelledby': 'turn-h', 'data-key': 'turn' },
    h(
      'h2',
      { id: 'turn-h', tabindex: -1 },
      h('span', { class: ['swatch', 'seat-' + seatIndex(view, t.player)], 'aria-hidden': 'true' }, initials(who)),
      mine ? `Turn ${t.number}: your turn` : `Turn ${t.number}: ${who}’s turn`,
      t.extra ? h('span', { class: 'tag' }, 'extra turn') : null,
    ),
    h('p', { class: 'turn-status', role: 'status', 'aria-live': 'polite' }, mine ? yourStepText(t.step, o) : null),
    // What just happened shows where the player's eyes are: where the Draw or Fight button was;
    // and what the others did since the player's last action.
    awayCard(ctx),
    lastCards(ctx),
    thisTurn(ctx),
    rulesHelp(ctx, 'step-' + (BOARD_HELP[t.step] ? t.step : 'moved'), 'How this step works', BOARD_HELP[t.step] || BOARD_HELP.moved),
    mine
      ? turnOptions(ctx, o, t)
      : h('p', { class: 'muted', testid: 'choosing' }, bot ? `${who} (a bot) ${STEP_WORDS[t.step] || 'is playing'}…` : `${who} is choosing… (${STEP_WORDS[t.step] || 'playing'})`),
    handToBotOwn(ctx),
  );
}

/**
 * @param {import('./view-types').Step} step
 * @param {import('./view-types').Options | null} o
 */
function yourStepText(step, o) {
  switch (step) {
    case 'draw_chance':
      return 'Draw a Chance card to begin your turn.';
    case 'move':
      // Not moving at all means meeting the card where she stands (the rules' Adventure cards).
      return o && (o.moves || []).some((m) => m.how === 'stay' && m.creature !== null)
        ? 'A Creature shares your space: move away, or stay and fight it.'
        : 'Move your adventurer (one option), or stay.';
    case 'battle':
      return 'A Creature lies here: you must fight it.';
    default:
      return 'Use what the space offers, then end your turn.';
  }
}

/**
 * @param {Ctx} ctx
 */
function handToBotOwn(ctx) {
  const { view } = ctx;
  const me = (view.adventurers || []).find((a) => a.player === ctx.you);
  if (!me || !me.alive || view.phase !== 'playing') return null;
  if (me.bot) {
    return h(
      'div',
      { class: 'row' },
      h('p', { class: 'small' }, 'A bot is playing your adventurer.'),
      actBtn(ctx, 'take-back', 'Take my seat back', { action: 'take_back' }, { class: 'primary small', testid: 'take-back' }),
      msg(ctx, 'take-back'),
    );
  }
  const key = 'hand:' + me.player;
  return h(
    'details',
    { class: 'hand-own', open: ctx.ui.open.has('hand-own'), ontoggle: (e, el) => ctx.toggled('hand-own', el.open) },
    h('summary', null, 'Leaving?'),
    h('p', { class: 'small' }, 'A bot can play your adventurer from now on; you can take your seat back whenever you return.'),
    actBtn(ctx, key, 'Let a bot play for me', { action: 'hand_to_bot', player: me.player }, { class: 'ghost small', testid: 'hand-to-bot', 'data-player-id': me.player }),
    msg(ctx, key),
  );
}

/**
 * @param {Ctx} ctx
 * @param {Options} o
 * @param {NonNullable<View['turn']>} t
 */
function turnOptions(ctx, o, t) {
  const { view } = ctx;
  const parts = [];
  if (o.draw_chance) {
    parts.push(h('div', { class: 'option-group', 'data-key': 'draw' }, actBtn(ctx, 'draw', 'Draw a Chance card', { action: 'draw_chance' }, { class: 'primary', testid: 'draw-chance' }), msg(ctx, 'draw')));
  }
  if ((o.moves || []).length) parts.push(movesGroup(ctx, o.moves));
  if (t.step === 'battle') parts.push(battleGroup(ctx, o));
  if (o.opportunity_unusable) {
    // An Opportunity she may not use says why where its button would be.
    const card = adventureOf(ctx, o.opportunity_unusable.card);
    parts.push(
      h(
        'div',
        { class: 'option-group', 'data-key': 'opportunity' },
        h('h3', null, icon('opportunity', 'h3-icon opportunity'), ` Opportunity: ${card.name}`),
        card.kind === 'opportunity' && card.effects.length ? h('p', { class: 'small muted' }, `It ${card.effects.join(', ')}.`) : null,
        h('p', { class: 'small', testid: 'opportunity-unusable' }, o.opportunity_unusable.why),
      ),
    );
  }
  if (o.opportunity !== null && o.opportunity !== undefined) {
    const card = adventureOf(ctx, o.opportunity);
    // `opportunity` is the id of an Opportunity card (the server offers no other).
    const text = card.kind === 'opportunity' ? card.text : '';
    const effects = card.kind === 'opportunity' ? card.effects : [];
    parts.push(
      h(
        'div',
        { class: 'option-group', 'data-key': 'opportunity' },
        h('h3', null, icon('opportunity', 'h3-icon opportunity'), ` Opportunity: ${card.name}`),
        text ? h('p', { class: 'small' }, text) : null,
        effects.length ? h('p', { class: 'small muted' }, `It ${effects.join(', ')}.`) : null,
        choiceFields(ctx, o),
        actBtn(ctx, 'opportunity', `Use ${card.name}`, withChoices(ctx, o, { action: 'use_opportunity' }), { class: 'primary', testid: 'use-opportunity' }),
        h('p', { class: 'small muted' }, 'Or leave it lying here: do something else or end your turn.'),
        msg(ctx, 'opportunity'),
      ),
    );
  }
  const here = [];
  for (const r of o.recover || []) {
    const got = [r.healed ? `heal ${plural(r.healed, 'Health')}` : null, r.recharged ? `recharge ${plural(r.recharged, 'Magic')}` : null].filter(Boolean).join(' and ') || `recover ${r.amount}`;
    here.push(actBtn(ctx, 'recover', `${cap(got)} (${r.cost ? plural(r.cost, 'Gold') : 'free'})`, { action: 'recover', amount: r.amount }, { testid: 'recover', 'data-amount': r.amount, 'data-key-extra': ':' + r.amount }));
  }
  if (o.trade) {
    const tr = o.trade;
    const gave = [tr.health ? plural(tr.health, 'Health') : null, tr.magic ? plural(tr.magic, 'Magic') : null].filter(Boolean).join(' and ');
    const got = [tr.gold ? plural(tr.gold, 'Gold') : null, tr.experience ? plural(tr.experience, 'Experience') : null].filter(Boolean).join(' and ');
    here.push(actBtn(ctx, 'trade', `Give ${gave} for ${got} (instead of moving)`, { action: 'trade' }, { testid: 'trade' }));
  }
  if (o.certificate) {
    const c = o.certificate;
    here.push(
      actBtn(ctx, 'certificate', `Buy the Certificate of ${guildName(ctx, c.guild)} (${plural(c.experience, 'Experience')}${c.gold ? `, ${plural(c.gold, 'Gold')}` : ''})`, { action: 'buy_certificate' }, { class: 'primary', testid: 'buy-certificate' }),
    );
  }
  for (const b of o.buy || []) {
    const item = itemOf(ctx, b.item);
    here.push(actBtn(ctx, 'buy', [icon(itemIconName(item), 'item-icon'), `Buy ${item.name} (${plural(b.cost, 'Gold')})`, itemEffect(item)], { action: 'buy_item', item: b.item }, { testid: 'buy-item', 'data-item-id': b.item, disabled: !b.allowed, title: b.allowed ? itemText(item) : 'You cannot buy it now (not enough Gold?)', 'data-key-extra': ':' + b.item }));
  }
  for (const s of o.sell || []) {
    const item = itemOf(ctx, s.item);
    here.push(actBtn(ctx, 'sell', [icon(itemIconName(item), 'item-icon'), `Sell ${item.name} (${plural(s.price, 'Gold')})`, itemEffect(item)], { action: 'sell_item', item: s.item }, { testid: 'sell-item', 'data-item-id': s.item, 'data-key-extra': ':' + s.item }));
  }
  for (const id of o.repair || []) {
    const item = itemOf(ctx, id);
    here.push(actBtn(ctx, 'repair', `Repair ${item.name} (1 Gold)`, { action: 'repair_item', item: id }, { testid: 'repair-item', 'data-item-id': id, 'data-key-extra': ':' + id }));
  }
  if (here.length) {
    const me = (view.adventurers || []).find((a) => a.player === ctx.you);
    const space = me ? (ctx.content.board || [])[me.space] : null;
    parts.push(
      h(
        'div',
        { class: 'option-group', 'data-key': 'here' },
        h('h3', null, space ? `Here in ${space.name}` : 'Here'),
        h('div', { class: 'option-buttons' }, here),
        ['recover', 'trade', 'certificate', 'buy', 'sell', 'repair'].map((k) => msg(ctx, k)),
      ),
    );
  }
  if (o.end_turn) {
    parts.push(h('div', { class: 'option-group end-group', 'data-key': 'end' }, actBtn(ctx, 'end-turn', 'End the turn', { action: 'end_turn' }, { class: parts.length ? 'secondary' : 'primary', testid: 'end-turn' }), msg(ctx, 'end-turn')));
  }
  if (!parts.length) parts.push(h('p', { class: 'muted' }, 'Nothing to do right now.'));
  return h('div', { class: 'options', 'data-key': 'options' }, parts);
}

/**
 * What an Item does, on its shop button's second line: "Weapon: +1 Strength", or only the bonus
 * for an Item of no particular slot (a slot named "Other" tells a buyer nothing).
 * @param {import('./view-types').Item} item
 */
function itemEffect(item) {
  const bonus = bonusText(item);
  const text = item.slot === 'other' ? bonus || 'No bonus' : `${cap(item.slot)}${bonus ? `: ${bonus}` : ''}`;
  return h('span', { class: 'btn-detail', testid: 'item-effect' }, text);
}

/**
 * @param {string} s
 */
function cap(s) {
  return s ? s[0].toUpperCase() + s.slice(1) : s;
}

/**
 * @param {Ctx} ctx
 * @param {Move[]} moves
 */
function movesGroup(ctx, moves) {
  return h(
    'div',
    { class: 'option-group', 'data-key': 'moves' },
    h('h3', null, 'Move'),
    h(
      'ul',
      { class: 'moves' },
      moves.map((m, i) => {
        const label = moveLabel(ctx, m);
        const creature = m.creature !== null && m.creature !== undefined ? adventureOf(ctx, m.creature) : null;
        // The best battle there, so the odds are known before committing to the move.
        const win = m.battle ? fracPct(m.battle.odds.win) : NaN;
        const fight = creature ? `${creature.name}: a fight${m.battle ? `, ${pct(win)} to win at best` : ''}` : null;
        const cost = m.cost ? plural(m.cost, 'Gold') : 'free';
        return h(
          'li',
          { 'data-key': 'm' + i + ':' + JSON.stringify(m.how) },
          // The parts are flex items, so the spaces between them show nowhere; they keep the
          // words apart in the text that the name must contain (WCAG 2.5.3: what is shown).
          actBtn(ctx, 'move', [h('span', { class: 'move-what' }, label), ' ', h('span', { class: 'move-cost' }, cost), fight ? [' ', h('span', { class: 'move-warn', testid: 'move-odds', 'data-win': m.battle ? m.battle.odds.win : '' }, `⚠ ${fight}`)] : null], { action: 'move', how: m.how }, {
            class: creature ? 'secondary move warn' : 'secondary move',
            testid: 'move',
            'data-to': m.to,
            'data-cost': m.cost,
            'data-how': howKey(m.how),
            'aria-label': `${label}, ${cost}${fight ? `. ${fight}; you must fight it` : ''}`,
          }),
        );
      }),
    ),
    msg(ctx, 'move'),
  );
}

/**
 * @param {import('./view-types').MoveHow} how
 */
export function howKey(how) {
  if (typeof how === 'string') return how;
  const [k, v] = Object.entries(how || {})[0] || ['?', {}];
  if (k === 'magic_gate') return `magic_gate:${v.to}`;
  return `${k}:${v && v.clockwise ? 'cw' : 'ccw'}`;
}

// ---------------------------------------------------------------- the battle

/**
 * @param {number[]} a
 * @param {number[]} b
 */
function sameSet(a, b) {
  if (a.length !== b.length) return false;
  const s = new Set(a);
  return b.every((x) => s.has(x));
}

/**
 * The choices the card here asks for: which way a one-space move goes, which Item is lost.
 * @param {Ctx} ctx
 * @param {Options} o
 */
function choiceFields(ctx, o) {
  const asks = o.choices || [];
  if (!asks.length) return null;
  const { ui, view } = ctx;
  const me = (view.adventurers || []).find((a) => a.player === ctx.you);
  const fields = [];
  if (asks.includes('clockwise')) {
    fields.push(
      h(
        'fieldset',
        { class: 'choice', 'data-key': 'cw' },
        h('legend', null, 'If the card moves you one space'),
        [true, false].map((cw) =>
          h(
            'label',
            { class: 'check', 'data-key': cw ? 'cw1' : 'cw0' },
            h('input', { type: 'radio', name: 'choice-clockwise', checked: ui.choice.clockwise === cw, testid: 'choice-clockwise', 'data-clockwise': String(cw), onchange: () => { ui.choice.clockwise = cw; ctx.rerender(); } }),
            h('span', null, cw ? 'clockwise' : 'counter-clockwise'),
          ),
        ),
      ),
    );
  }
  if (asks.includes('lose_item') && me && me.items.length) {
    const lose = ui.choice.lose_item;
    const chosen = lose !== null && me.items.includes(lose) ? lose : me.items[me.items.length - 1];
    fields.push(
      h(
        'label',
        { class: 'field choice', 'data-key': 'lose' },
        h('span', null, 'If the card takes an Item, lose'),
        h(
          'select',
          { testid: 'choice-lose-item', onchange: (e, el) => { ui.choice.lose_item = Number(el.value); ctx.rerender(); } },
          me.items.map((id) => h('option', { value: id, selected: id === chosen }, itemOf(ctx, id).name)),
        ),
      ),
    );
  }
  return h('div', { class: 'choices' }, fields);
}

/**
 * An action with the choices the card here asks for.
 * @param {Ctx} ctx
 * @param {Options} o
 * @param {import('../common/page-types').Action} action
 */
function withChoices(ctx, o, action) {
  const asks = o.choices || [];
  const { ui, view } = ctx;
  const me = (view.adventurers || []).find((a) => a.player === ctx.you);
  /** @type {import('../common/page-types').Action} */
  const out = { ...action };
  if (asks.includes('clockwise')) out.clockwise = ui.choice.clockwise;
  if (asks.includes('lose_item') && me && me.items.length) {
    const lose = ui.choice.lose_item;
    out.lose_item = lose !== null && me.items.includes(lose) ? lose : me.items[me.items.length - 1];
  }
  return out;
}

/**
 * @param {Ctx} ctx
 * @param {Options} o
 */
function battleGroup(ctx, o) {
  const { ui, view } = ctx;
  const battles = o.battles || [];
  const me = (view.adventurers || []).find((a) => a.player === ctx.you);
  const cardId = me ? (view.spaces[me.space] || {}).adventure : null;
  const found = cardId !== null && cardId !== undefined ? adventureOf(ctx, cardId) : null;
  // A battle is fought against a Creature.
  const card = found && found.kind === 'creature' ? found : null;
  // The engine says whether the card's optional rule may be used now (and what it costs).
  const special = o.special_rule || null;
  const specialLabel = special ? (special.rule === 'pay_to_pass' ? `Pay ${plural(special.cost, 'Gold')} to pass it` : special.rule === 'let_go' ? 'Let it go (discard it, for nothing)' : 'Use its special rule instead') : '';
  const head = [
    h('h3', null, icon('creature', 'h3-icon creature'), card ? ` Battle: ${card.name}` : ' Battle'),
    card ? h('p', { class: 'small' }, statsText(card.stats), card.three_lives ? ' · three lives: win three rolls in a row to defeat it' : '', ` · defeating it gives ${plural(card.experience || 0, 'Experience')}`) : null,
    card && (card.treasure || []).length ? h('p', { class: 'small' }, 'Treasure: ', card.treasure.join(', '), '.') : null,
    card && (card.on_loss || []).length ? h('p', { class: 'small' }, 'If she loses, she ', card.on_loss.join(', '), '.') : null,
    card && card.special ? h('p', { class: 'small' }, h('strong', null, card.special.mandatory ? 'Special rule (!): ' : 'Special rule (?): '), card.special.text) : null,
  ];
  if (!battles.length) {
    return h(
      'div',
      { class: 'option-group battle', 'data-key': 'battle', testid: 'battle-group' },
      head,
      h('p', { class: 'muted' }, 'No battle is open to you.'),
      special ? actBtn(ctx, 'special', specialLabel, { action: 'use_special_rule' }, { testid: 'use-special-rule', 'data-rule': special.rule }) : null,
      msg(ctx, 'special'),
      msg(ctx, 'fight'),
    );
  }
  const kinds = Array.from(new Set(battles.map((b) => b.kind)));
  const kind = ui.battle.kind !== null && kinds.includes(ui.battle.kind) ? ui.battle.kind : kinds[0];
  const ofKind = battles.filter((b) => b.kind === kind);
  const usable = Array.from(new Set(ofKind.flatMap((b) => b.items))).sort((a, b) => a - b);
  const chosen = usable.filter((i) => ui.battle.items.has(i));
  // A weapon that may be thrown is listed twice, held and thrown: the "Throw it" box shows only
  // when the chosen Items have a thrown entry (a Battle of Strength, or one after this one).
  const thrownEntry = findBattle(ofKind, chosen, true);
  const throwing = ui.battle.throw && thrownEntry !== null;
  const entry = throwing ? thrownEntry : findBattle(ofKind, chosen, false);
  /**
   * @param {import('./view-types').BattleKind} k
   * @param {Set<number>} [items]
   */
  const set = (k, items) => {
    ui.battle.kind = k;
    if (items) ui.battle.items = items;
    ctx.rerender();
  };
  return h(
    'div',
    { class: 'option-group battle', 'data-key': 'battle', testid: 'battle-group' },
    head,
    kinds.length > 1
      ? h(
          'fieldset',
          { class: 'battle-kinds' },
          h('legend', null, 'Which battle'),
          kinds.map((k) => {
            const any = battles.find((b) => b.kind === k);
            return h(
              'label',
              { class: 'radio-card', 'data-key': 'k' + k },
              h('input', { type: 'radio', name: 'battle-kind', value: k, checked: k === kind, testid: 'battle-kind', 'data-kind': k, onchange: () => set(k) }),
              h('span', null, k === 'wills' ? 'Battle of Wills' : 'Battle of Strength', any && any.magic ? ` (costs ${plural(any.magic, 'Magic')} first)` : ''),
            );
          }),
        )
      : h('p', { class: 'small' }, kind === 'wills' ? 'A Battle of Wills' : 'A Battle of Strength', ofKind[0] && ofKind[0].then ? ', then one of Strength' : '', ofKind[0] && ofKind[0].magic ? ` (costs ${plural(ofKind[0].magic, 'Magic')} first)` : '', '.'),
    usable.length
      ? h(
          'fieldset',
          { class: 'battle-items' },
          h('legend', null, 'Items to use'),
          usable.map((id) => {
            const item = itemOf(ctx, id);
            return h(
              'label',
              { class: 'check', 'data-key': 'i' + id },
              h('input', {
                type: 'checkbox',
                checked: chosen.includes(id),
                testid: 'battle-item',
                'data-item-id': id,
                onchange: (e, el) => {
                  const next = new Set(chosen);
                  if (el.checked) next.add(id);
                  else next.delete(id);
                  set(kind, next);
                },
              }),
              h('span', null, icon(itemIconName(item), 'item-icon'), item.name, bonusText(item) ? h('span', { class: 'small muted' }, ` (${bonusText(item)})`) : null, itemOdds(ofKind, chosen, id, throwing)),
            );
          }),
          thrownEntry ? throwBox(ctx, ofKind, chosen, thrownEntry, throwing) : null,
        )
      : null,
    entry
      ? oddsBlock(entry)
      : h('p', { class: 'message refused', role: 'status', testid: 'battle-not-allowed' }, 'These Items cannot be used together (one weapon, two hands, one headwear).'),
    choiceFields(ctx, o),
    h(
      'div',
      { class: 'row' },
      actBtn(ctx, 'fight', kind === 'wills' ? `Fight a Battle of Wills${entry && entry.then ? ', then of Strength' : ''}` : 'Fight a Battle of Strength', withChoices(ctx, o, { action: 'fight', kind, items: chosen, throw: throwing }), { class: 'primary', testid: 'fight', 'data-kind': kind, disabled: !entry }),
      special ? actBtn(ctx, 'special', specialLabel, { action: 'use_special_rule' }, { testid: 'use-special-rule', 'data-rule': special.rule }) : null,
    ),
    msg(ctx, 'fight'),
    msg(ctx, 'special'),
  );
}

/**
 * The battle with exactly these Items, its weapon thrown or held; null if the rules allow
 * none.
 * @param {Battle[]} battles
 * @param {number[]} items
 * @param {boolean} thrown
 */
function findBattle(battles, items, thrown) {
  return battles.find((b) => Boolean(b.throw) === thrown && sameSet(b.items, items)) || null;
}

/**
 * "Throw it": shown when the chosen Items hold a weapon that may be thrown in a Battle of
 * Strength, with the exact chance of winning held and thrown.
 * @param {Ctx} ctx
 * @param {Battle[]} battles
 * @param {number[]} chosen
 * @param {Battle} thrown
 * @param {boolean} throwing
 */
function throwBox(ctx, battles, chosen, thrown, throwing) {
  const weapon = thrown.thrown !== null ? itemOf(ctx, thrown.thrown) : null;
  const held = findBattle(battles, chosen, false);
  const bonus = thrown.then ? thrown.then.first_roll_bonus : thrown.first_roll_bonus;
  const win = (/** @type {Battle | null} */ b) => (b ? pct(fracPct(b.odds.win)) : '–');
  return h(
    'label',
    { class: 'check throw', 'data-key': 'throw' },
    h('input', {
      type: 'checkbox',
      checked: throwing,
      testid: 'battle-throw',
      'data-item-id': thrown.thrown,
      onchange: (e, el) => {
        ctx.ui.battle.throw = el.checked;
        ctx.rerender();
      },
    }),
    h(
      'span',
      null,
      `Throw it${weapon ? `: the ${weapon.name}` : ''}`,
      h('span', { class: 'small muted' }, ` (+${bonus} on the first roll${thrown.then ? ' of the Battle of Strength' : ''} only, then it is damaged)`),
      h(
        'span',
        // The exact chances (fractions) for tests and tools; the text rounds them.
        { class: 'item-odds small', testid: 'throw-odds', 'data-thrown': String(thrown.odds.win), 'data-held': held ? String(held.odds.win) : null },
        ` — wins ${win(thrown)} thrown, ${win(held)} held`,
      ),
    ),
  );
}

/**
 * What one usable Item does to the chance of winning, beside the others chosen: the exact
 * chance with it and without it (or that it cannot go with them). A weapon is thrown in both
 * when she throws it and it may be.
 * @param {Battle[]} battles
 * @param {number[]} chosen
 * @param {number} id
 * @param {boolean} throwing
 */
function itemOdds(battles, chosen, id, throwing) {
  const others = chosen.filter((i) => i !== id);
  /** @param {number[]} items */
  const find = (items) => (throwing && findBattle(battles, items, true)) || findBattle(battles, items, false);
  const withIt = find([...others, id].sort((a, b) => a - b));
  const without = find(others);
  const win = (/** @type {Battle | null} */ b) => (b ? fracPct(b.odds.win) : NaN);
  return h(
    'span',
    // The exact chances (fractions) for tests and tools; the text rounds them.
    { class: 'item-odds small', testid: 'item-odds', 'data-item-id': id, 'data-with': withIt ? String(withIt.odds.win) : null, 'data-without': without ? String(without.odds.win) : null },
    withIt
      ? ` — wins ${pct(win(withIt))} with it, ${without ? pct(win(without)) : '–'} without`
      : ' — cannot be used with the other Items chosen',
  );
}

/**
 * @param {number} p
 */
function pct(p) {
  if (typeof p !== 'number' || Number.isNaN(p)) return '–';
  if (p <= 0) return '0%';
  if (p >= 100) return '100%';
  if (p < 0.1) return '<0.1%';
  if (p > 99.9) return '>99.9%';
  return (p < 10 || p > 90 ? p.toFixed(1) : p.toFixed(0)) + '%';
}

/**
 * An exact fraction ("13/18", "0", "1") as a percentage.
 * @param {string} s
 */
function fracPct(s) {
  const m = /^\s*(\d+)\s*(?:\/\s*(\d+))?\s*$/.exec(String(s));
  if (!m) return NaN;
  const d = m[2] === undefined ? 1 : Number(m[2]);
  return d ? (Number(m[1]) / d) * 100 : NaN;
}

/**
 * @param {Battle} b
 */
function oddsBlock(b) {
  const o = b.odds;
  // Percentages from the exact fractions.
  const pcts = { win: fracPct(o.win), draw: fracPct(o.draw), loss: fracPct(o.loss) };
  const bonus = b.first_roll_bonus ? ` (+${b.first_roll_bonus} thrown, on the first roll only)` : '';
  return h(
    'div',
    {
      class: 'odds',
      testid: 'battle-odds',
      'data-win': o.win,
      'data-draw': o.draw,
      'data-loss': o.loss,
      'data-kind': b.kind,
      'data-items': b.items.join(','),
      'data-throw': String(Boolean(b.throw)),
      role: 'status',
      'aria-live': 'polite',
      'aria-atomic': 'true',
    },
    h(
      'p',
      { class: 'small', testid: 'battle-values' },
      b.then ? 'First a Battle of Wills: ' : '',
      `You: ${b.yours}${bonus} + your die, against ${b.theirs} + its die.`,
      b.then ? ` If you win it, a Battle of Strength: ${b.then.yours}${b.then.first_roll_bonus ? ` (+${b.then.first_roll_bonus} thrown, on the first roll only)` : ''} + your die, against ${b.then.theirs} + its die. The chances below are of winning both.` : '',
      b.lives > 1 ? ` Three lives: you must win ${b.lives} rolls in a row${b.then ? ' in each battle' : ''}.` : '',
      b.magic ? ` Costs ${plural(b.magic, 'Magic')} before the first roll.` : '',
    ),
    h(
      'dl',
      { class: 'odds-grid' },
      /** @type {Array<[string, string, string, number]>} */ ([
        ['win', 'Win', o.win, pcts.win],
        ['draw', 'Draw', o.draw, pcts.draw],
        ['loss', 'Lose', o.loss, pcts.loss],
      ]).map(([k, label, frac, p]) =>
        h('div', { class: ['odd', k], 'data-key': k }, h('dt', null, label), h('dd', null, h('strong', null, pct(p)), ' ', h('span', { class: 'frac' }, `(${frac})`))),
      ),
    ),
    h('div', { class: 'odds-bar', 'aria-hidden': 'true' }, /** @type {Array<'win' | 'draw' | 'loss'>} */ (['win', 'draw', 'loss']).map((k) => h('span', { class: ['bar', k, 'w' + Math.round((pcts[k] || 0) / 5) * 5] }))),
  );
}

// ---------------------------------------------------------------- the adventurers

/**
 * @param {string} kind
 * @param {string} label
 * @param {number} right
 * @param {number} left
 * @param {string} testid
 */
function cubes(kind, label, right, left, testid) {
  const lost = Array.from({ length: left }, (_, i) => h('span', { class: ['cube', kind, 'lost'], 'data-key': 'l' + i }));
  const have = Array.from({ length: right }, (_, i) => h('span', { class: ['cube', kind], 'data-key': 'r' + i }));
  return h(
    'div',
    { class: ['cubes', kind], testid, 'data-right': right, 'data-left': left },
    h('span', { class: 'cubes-label' }, icon(kind === 'health' ? 'health' : 'magic', 'cubes-icon'), label),
    h('span', { class: 'cube-row', role: 'img', 'aria-label': `${label}: ${right}${left ? `, ${left} lost` : ''}` }, h('span', { class: 'cube-side left' }, lost), h('span', { class: 'cube-divider' }), h('span', { class: 'cube-side right' }, have)),
    h('span', { class: 'cubes-num', 'aria-hidden': 'true' }, left ? `${right} (${left} lost)` : String(right)),
  );
}

/**
 * @param {Ctx} ctx
 */
function adventurersSection(ctx) {
  const { view } = ctx;
  // Your own adventurer first: the Gold, Health and Items you play with, above the fold.
  const list = [...(view.adventurers || [])].sort((a, b) => Number(b.player === ctx.you) - Number(a.player === ctx.you));
  return h(
    'section',
    { class: 'panel adventurers', 'aria-labelledby': 'adv-h', 'data-key': 'adventurers' },
    h('h2', { id: 'adv-h' }, 'Adventurers'),
    h('div', { class: 'adv-cards' }, list.map((a) => adventurerCard(ctx, a))),
  );
}

/**
 * @param {Ctx} ctx
 * @param {Adventurer} a
 */
function adventurerCard(ctx, a) {
  const { view } = ctx;
  const ch = characterOf(ctx, a.character);
  const idx = seatIndex(view, a.player);
  const turn = view.turn && view.turn.player === a.player;
  const space = (ctx.content.board || [])[a.space];
  const creator = view.creator === ctx.you;
  const offline = !a.bot && !ctx.online.has(a.player);
  const handKey = 'hand:' + a.player;
  const guilds = ctx.content.guilds || [];
  return h(
    'article',
    {
      class: ['adv-card', turn ? 'turn' : null, a.alive ? null : 'dead', a.player === ctx.you ? 'yours' : null],
      testid: 'adventurer-card',
      'data-player-id': a.player,
      'data-alive': String(!!a.alive),
      'data-bot': String(!!a.bot),
      'data-turn': String(!!turn),
      'aria-label': `${a.name}${a.player === ctx.you ? ' (you)' : ''}: ${ch.name}`,
      'data-key': 'a' + a.player,
    },
    h(
      'header',
      { class: 'adv-head' },
      h('span', { class: ['swatch', 'seat-' + idx], 'aria-hidden': 'true' }, initials(a.name)),
      h('div', { class: 'adv-names' }, h('h3', null, a.name), h('p', { class: 'small muted' }, `${ch.name} · Strength ${ch.strength}, Willpower ${ch.willpower}`)),
      h(
        'div',
        { class: 'adv-tags' },
        a.player === ctx.you ? h('span', { class: 'tag' }, 'you') : null,
        a.bot ? botTag(a.level) : null,
        turn ? h('span', { class: 'tag turn-tag' }, 'turn') : null,
        a.alive ? null : h('span', { class: 'tag dead-tag' }, 'dead'),
        a.miss_turn ? h('span', { class: 'tag' }, 'misses a turn') : null,
        !a.bot ? h('span', { class: ['dot', ctx.online.has(a.player) ? 'on' : 'off'], role: 'img', 'aria-label': ctx.online.has(a.player) ? 'online' : 'offline' }) : null,
      ),
    ),
    h('p', { class: 'small adv-where' }, a.alive ? `In ${space ? space.name : `space ${a.space}`}` : 'Out of the game'),
    cubes('health', 'Health', a.health.right, a.health.left, 'health'),
    cubes('magic', 'Magic', a.magic.right, a.magic.left, 'magic'),
    h(
      'p',
      { class: 'adv-purse' },
      h('span', { class: 'coin gold', testid: 'gold', 'data-value': a.gold }, icon('gold', 'token'), `${a.gold} Gold`),
      h('span', { class: 'coin xp', testid: 'experience', 'data-value': a.experience }, icon('experience', 'token'), `${a.experience} Experience`),
    ),
    h(
      'div',
      { class: 'certs' },
      h('span', { class: 'small muted' }, `Certificates ${a.certificates.length}/${guilds.length || 5}`),
      h(
        'ul',
        { class: 'cert-slots' },
        guilds.map((g) => {
          const owned = a.certificates.includes(g.guild);
          const own = (ch.guilds || []).includes(g.guild);
          return h(
            'li',
            {
              class: ['cert', owned ? 'owned' : null, own ? 'own-guild' : null, 'g-' + g.guild],
              testid: 'certificate',
              'data-guild': g.guild,
              'data-owned': String(owned),
              'data-own-guild': String(own),
              title: `${g.name}${owned ? ': Certificate held' : ''}${own ? ' (her guild: no Gold to pay)' : ''}`,
              'data-key': g.guild,
            },
            h('span', { class: 'cert-mark', 'aria-hidden': 'true' }, owned ? '✔' : own ? '★' : ''),
            KINDS[g.guild] ? icon(KINDS[g.guild].icon, 'cert-icon') : null,
            h('span', { class: 'cert-name' }, GUILD_SHORT[g.guild] || g.name),
            h('span', { class: 'visually-hidden' }, ` (${g.name}): `, owned ? 'held' : 'not yet', own ? ', her own guild' : ''),
          );
        }),
      ),
    ),
    a.items.length
      ? h(
          'ul',
          { class: 'adv-items', 'aria-label': 'Items' },
          a.items.map((id) => {
            const item = itemOf(ctx, id);
            const damaged = (a.damaged || []).includes(id);
            return h(
              'li',
              { class: ['card-item', damaged ? 'damaged' : null], testid: 'card-item', 'data-item-id': id, 'data-damaged': String(damaged), title: itemText(item), 'data-key': 'i' + id },
              icon(itemIconName(item), 'item-icon'),
              h('span', { class: 'item-name' }, item.name),
              damaged ? h('span', { class: 'tag damaged-tag' }, 'damaged') : null,
            );
          }),
        )
      : h('p', { class: 'small muted' }, 'No Items.'),
    creator && a.player !== ctx.you && !a.bot && a.alive && offline && view.phase === 'playing'
      ? h('div', { class: 'row' }, actBtn(ctx, handKey, 'Hand to a bot', { action: 'hand_to_bot', player: a.player }, { class: 'ghost small', testid: 'hand-to-bot', 'data-player-id': a.player, 'aria-label': `Hand to a bot: ${a.name} left, a bot plays their adventurer` }), msg(ctx, handKey))
      : null,
  );
}

// ---------------------------------------------------------------- the last cards, the decks

/**
 * The turn so far, in the log's words: the moves, purchases and Certificates the cards above
 * do not show.
 * @param {Ctx} ctx
 */
function thisTurn(ctx) {
  const from = ctx.ui.turnFromSeq ?? turnStart(ctx.log);
  if (from === null) return null;
  const lines = ctx.log.filter((e) => e.seq > from);
  if (!lines.length) return null;
  return h(
    'div',
    { class: 'this-turn', 'data-key': 'this-turn' },
    h('h3', null, 'This turn'),
    h('ol', { testid: 'this-turn' }, lines.map((e) => h('li', { testid: 'this-turn-line', 'data-seq': e.seq, 'data-key': 'l' + e.seq }, e.text))),
  );
}

/**
 * The seq before the current turn's first line, for a page that arrived mid-turn: the line
 * that says whose turn it is (the server's words, games/board/words.rs), or none in the
 * page's log.
 * @param {import('../common/messages').LogEntry[]} log
 */
function turnStart(log) {
  for (let i = log.length - 1; i >= 0; i--) {
    if (/^(It is .+'s turn\.|.+ takes the extra turn\.|The game begins: )/.test(log[i].text)) return log[i].seq - 1;
  }
  return null;
}

/**
 * @param {Ctx} ctx
 */
function lastCards(ctx) {
  const { view } = ctx;
  const lc = view.last_chance;
  const lb = view.last_battle;
  if (!lc && !lb) return null;
  return h(
    'section',
    { class: 'last-cards', testid: 'just-now', 'aria-labelledby': 'last-h', 'data-key': 'last' },
    h('h3', { id: 'last-h' }, 'Just now'),
    lc ? lastChance(ctx, lc) : null,
    lb ? lastBattle(ctx, lb) : null,
  );
}

/**
 * @param {Ctx} ctx
 * @param {NonNullable<View['last_chance']>} lc
 */
function lastChance(ctx, lc) {
  const card = (ctx.content.chance || [])[lc.card] || { name: `Card ${lc.card}` };
  return gameCard(
    'chance',
    `Chance card drawn by ${nameOf(ctx.view, lc.player)}`,
    card.name,
    { class: ['chance-card', ctx.ui.fresh.chance ? 'fresh' : null], testid: 'last-chance', 'data-card': lc.card, 'data-key': 'chance' },
    h('p', { class: 'small' }, chanceText(card.kind)),
  );
}

/** The guilds' kinds, short enough for a Certificate's slot (the full name is its title). */
const GUILD_SHORT = { fortress: 'Fortress', 'thieves-guild': 'Thieves', 'magic-tower': 'Tower', 'forest-camp': 'Camp', monastery: 'Monastery' };

const OUTCOME = { win: 'won', draw: 'drew', loss: 'lost' };

/**
 * @param {Ctx} ctx
 * @param {NonNullable<View['last_battle']>} lb
 */
function lastBattle(ctx, lb) {
  const card = adventureOf(ctx, lb.card);
  const who = nameOf(ctx.view, lb.player);
  const items = (lb.items || []).map((i) => itemOf(ctx, i).name + (lb.thrown === i ? ' (thrown)' : ''));
  return gameCard(
    'creature',
    [lb.kind === 'wills' ? 'A Battle of Wills' : 'A Battle of Strength', lb.magic_paid ? ` (paid ${plural(lb.magic_paid, 'Magic')})` : ''],
    `${who} against ${card.name}`,
    { class: ['battle-card', lb.outcome, ctx.ui.fresh.battle ? 'fresh' : null], testid: 'last-battle', 'data-outcome': lb.outcome, 'data-kind': lb.kind, 'data-key': 'battle' },
    items.length ? h('p', { class: 'small' }, `With ${items.join(', ')}.`) : null,
    h(
      'ol',
      { class: 'rolls' },
      (lb.rolls || []).map(([mine, theirs], i) =>
        h(
          'li',
          { class: 'battle-roll', testid: 'battle-roll', 'data-key': 'r' + i, 'aria-label': `Roll ${i + 1}: ${who} rolled ${mine}, ${card.name} rolled ${theirs}` },
          h('span', { class: 'die plain', testid: 'die', 'data-face': mine, 'aria-hidden': 'true' }, pips(mine)),
          h('span', { class: 'vs', 'aria-hidden': 'true' }, 'vs'),
          h('span', { class: 'die dark', testid: 'die', 'data-face': theirs, 'aria-hidden': 'true' }, pips(theirs)),
        ),
      ),
    ),
    h('p', { class: ['outcome', lb.outcome] }, `${who} ${OUTCOME[lb.outcome] || lb.outcome}.`),
  );
}

/**
 * @param {Ctx} ctx
 */
function decksSection(ctx) {
  const d = ctx.view.decks;
  if (!d) return null;
  /** @type {Array<[keyof View['decks'], string]>} */
  const names = [
    ['adventure', 'Adventure'],
    ['chance', 'Chance'],
    ['common_items', 'Common Items'],
    ['rare_items', 'Rare Items'],
  ];
  return h(
    'section',
    { class: 'panel decks', testid: 'decks', 'aria-labelledby': 'decks-h', 'data-key': 'decks' },
    h('h2', { id: 'decks-h' }, 'Decks'),
    h(
      'table',
      { class: 'deck-table' },
      h('thead', null, h('tr', null, h('th', { scope: 'col' }, 'Deck'), h('th', { scope: 'col' }, 'To draw'), h('th', { scope: 'col' }, 'Discarded'))),
      h(
        'tbody',
        null,
        names.map(([k, label]) => {
          const x = d[k] || { draw: 0, discard: 0 };
          return h('tr', { testid: 'deck', 'data-deck': k, 'data-draw': x.draw, 'data-discard': x.discard, 'data-key': k }, h('th', { scope: 'row' }, h('span', { class: ['deck-swatch', 'd-' + k], 'aria-hidden': 'true' }), label), h('td', null, String(x.draw)), h('td', null, String(x.discard)));
        }),
      ),
    ),
  );
}

// ---------------------------------------------------------------- the end

/**
 * How an adventurer ended: alive or not, Gold, Experience, Items.
 * @param {View} view
 * @param {number} player
 */
function recapOf(view, player) {
  const a = (view.adventurers || []).find((x) => x.player === player);
  if (!a) return null;
  const parts = [a.alive ? null : 'died', plural(a.gold, 'Gold'), plural(a.experience, 'Experience'), plural((a.items || []).length, 'Item', 'Items')].filter(Boolean);
  return h('span', { class: 'rank-recap small muted', testid: 'rank-recap' }, parts.join(' · '));
}

/**
 * @param {Ctx} ctx
 */
function theEnd(ctx) {
  const { view } = ctx;
  const winner = view.winner;
  const won = view.phase === 'won' && winner !== null && winner !== undefined;
  const ranking = view.ranking || [];
  return h(
    'section',
    { class: ['panel', 'the-end', 'board-end'], 'aria-labelledby': 'end-h', 'data-key': 'the-end' },
    h(
      'h2',
      { id: 'end-h', testid: 'result', 'data-winner': won ? view.winner : '', role: 'status', 'aria-live': 'polite' },
      won ? (view.winner === ctx.you ? 'You win! Five Certificates: the expedition is yours.' : `${nameOf(view, winner)} wins with five Certificates!`) : 'The game is over: every adventurer died, nobody wins.',
    ),
    h(
      'ol',
      { class: 'ranking', testid: 'ranking', 'aria-label': 'Ranking' },
      ranking.map((r, i) =>
        h(
          'li',
          { testid: 'ranking-entry', 'data-player-id': r.player, 'data-certificates': r.certificates, class: r.player === view.winner ? 'winner' : null, 'data-key': 'r' + r.player },
          h('span', { class: ['swatch', 'seat-' + seatIndex(view, r.player)], 'aria-hidden': 'true' }, initials(nameOf(view, r.player))),
          h('span', { class: 'rank-name' }, `${i + 1}. ${nameOf(view, r.player)}`),
          h('span', { class: 'rank-certs' }, plural(r.certificates, 'Certificate', 'Certificates')),
          recapOf(view, r.player),
        ),
      ),
    ),
    view.turns_played ? h('p', { class: 'small', testid: 'recap' }, `After ${plural(view.turns_played, 'turn', 'turns')}.`) : null,
    h('p', null, 'Keep the game: ', h('a', { href: `/t/${ctx.token}/export.md`, download: true }, 'download it as Markdown'), ', or ', h('a', { href: '/' }, 'start another table'), '.'),
  );
}

// ---------------------------------------------------------------- the log, toasts

/**
 * @param {Ctx} ctx
 */
function logSection(ctx) {
  return logPanel(ctx, ctx.log, undefined, (e) => (e.by !== null && e.by !== undefined ? 'seat-line seat-' + seatIndex(ctx.view, e.by) : null));
}

