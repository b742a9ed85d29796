// The board game's table page (Prophecy, the board game): the table page every game shares
// (common/table-page.js: joining, the socket, requests), with the board game's static content
// (GET /games/board/content.json), its view (table-view.js) and what the page keeps of its own:
// the space shown, the battle and Items chosen.
//
// data-testid hooks (for end-to-end tests):
//   join:      join-form join-name join-submit join-error join-refusal removed table-gone
//   header:    table-title phase (data-phase) turn-number invite-link copy-link show-qr qr
//              export-md export-print export-game publish-story (the creator's) open-shared
//              withdraw-story reconnecting-banner
//   lobby:     lobby seat (data-player-id, data-bot) add-bot remove-bot (data-player-id)
//              start-game waiting-for-start
//   board:     board space (data-space-id, data-kind, data-dest, data-adventure) piece
//              (data-player-id, data-space-id) space-detail (data-space-id) space-adventure
//              (data-kind) space-item (data-item-id)
//   cards:     adventurer-card (data-player-id, data-alive, data-bot, data-turn) health
//              (data-right, data-left) magic (data-right, data-left) gold experience
//              certificate (data-guild, data-owned, data-own-guild) card-item (data-item-id,
//              data-damaged) hand-to-bot (data-player-id)
//   turn:      turn (data-player-id, data-step, data-mine) choosing draw-chance move (data-to,
//              data-cost, data-how) fight (data-kind) battle-kind (data-kind) battle-item
//              (data-item-id) battle-odds (data-win, data-draw, data-loss: exact fractions;
//              data-kind, data-items) battle-not-allowed use-special-rule use-opportunity
//              recover (data-amount) trade buy-item (data-item-id) sell-item (data-item-id)
//              repair-item (data-item-id) buy-certificate end-turn
//   results:   last-chance (data-card) last-battle (data-outcome, data-kind) battle-roll die
//              (data-face) decks deck (data-deck, data-draw, data-discard)
//   the end:   result (data-winner) ranking ranking-entry (data-player-id, data-certificates)
//   messages:  refusal (a `refused` answer, role=alert, data-for=its place) request-error
//              toast
//   log:       log log-entry (data-seq)
// Debug hook (common/table-page.js): window.prophecy = { seq(), view(), online(), connected(), me(),
// content(), own() }.

import { openTable } from '../common/table-page.js';
import { renderBoardTable } from './table-view.js';

/**
 * @typedef {import('./page-types').BoardContext} Ctx
 * @typedef {import('../common/page-types').Seen<import('./view-types').BoardView>} View
 */

/** @type {{matches: boolean, addEventListener?: MediaQueryList['addEventListener']}} */
const narrow = window.matchMedia ? window.matchMedia('(max-width: 640px)') : { matches: false };

// openTable adds the fields every game shares.
const ui = /** @type {import('./page-types').BoardUi} */ ({
  space: null, // the space whose details are shown
  focusSpace: null, // the space that holds the board's tab stop
  battle: { key: null, kind: null, items: new Set() },
  // The player's choices a card asks for (the direction of a one-space move, the Item lost).
  choice: { clockwise: true, lose_item: null },
  tab: 'turn', // the view a phone shows (table-view.js: boardTabs)
});

const page = openTable({
  name: 'board',
  content: true,
  intro: 'You were invited to play Prophecy, the board game: travel the land, fight creatures, and be the first adventurer to hold a Certificate from each of the five guilds.',
  ui,
  ctx: {
    get narrow() {
      return narrow.matches;
    },
  },
  view: renderBoardTable,
  title: titleOf,
  logTab: 'log',
  waiting: (ctx) => (ctx.content ? null : 'Loading the board…'),
  viewed,
  updated,
  beforeRender,
  afterRender,
});

if (narrow.addEventListener) narrow.addEventListener('change', () => page.render());

/**
 * @param {Ctx} ctx
 */
function titleOf(ctx) {
  const v = ctx.view;
  const name = ctx.name || 'The board game';
  if (!v) return name;
  if (v.phase === 'lobby') return `${name}: the lobby`;
  if (v.phase === 'won' || v.phase === 'ended') return `${name}: the end`;
  return v.turn ? `${name}: turn ${v.turn.number}` : name;
}

/**
 * The battle's choices belong to one battle: forget them when another begins.
 * @param {View} view
 */
function viewed(view) {
  const t = view.turn;
  const battleKey = t && t.step === 'battle' ? `${t.number}:${t.player}:${JSON.stringify(view.last_battle)}` : null;
  if (battleKey !== ui.battle.key) ui.battle = { key: battleKey, kind: null, items: new Set() };
}

/**
 * Answers about another player's turn no longer apply.
 * @param {import('../common/messages').TakenUpdate<import('./view-types').BoardView>} msg
 * @param {View | null} before
 */
function updated(msg, before) {
  const after = page.state.view;
  if (before && before.turn && after && after.turn && before.turn.number !== after.turn.number) {
    for (const [key, m] of Array.from(ui.msgs)) if (m.kind === 'refused') ui.msgs.delete(key);
  }
}

function beforeRender() {
  const active = document.activeElement;
  return !!(active && active !== document.body && active.closest && active.closest('[data-testid="turn"]'));
}

// The control used may be gone after the step it took (a move, a fight): keep keyboard users
// in the turn's panel rather than at the top of the page.
/**
 * @param {unknown} inTurn
 */
function afterRender(inTurn) {
  if (inTurn && (!document.activeElement || document.activeElement === document.body)) {
    const next = page.root.querySelector('[data-testid="turn"] button:not([disabled]), [data-testid="turn"] [tabindex="-1"]');
    if (next instanceof HTMLElement) next.focus({ preventScroll: true });
  }
}
