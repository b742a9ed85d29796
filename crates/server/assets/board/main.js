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

import { typing as isTyping } from '../common/dom.js';
import { openTable } from '../common/table-page.js';
import { reducedMotion } from '../common/shell.js';
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
  battle: { key: null, kind: null, items: new Set(), throw: false },
  botLevel: 'standard',
  // The player's choices a card asks for (the direction of a one-space move, the Item lost).
  choice: { clockwise: true, lose_item: null },
  tab: 'turn', // the view a phone shows (table-view.js: boardTabs)
  fresh: { chance: false, battle: false }, // a card drawn, a battle fought just now (table-view.js)
  turnFromSeq: null, // the log line before this turn's first (table-view.js: "This turn")
  walks: new Map(), // pieces walking along the ring to where they moved (map.js)
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
  // Pass the phone: the player who may act now (in a battle or a trade, not always the one
  // whose turn it is).
  waitingOn: (view) => (view.turn && view.phase === 'playing' ? { players: [view.options ? view.options.player : view.turn.player], what: 'turn', id: view.turn.number } : null),
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
  const name = ctx.title || 'The board game';
  if (!v) return name;
  if (v.phase === 'lobby') return `${name}: the lobby`;
  if (v.phase === 'won' || v.phase === 'ended') return `${name}: the end`;
  return v.turn ? `${name}: turn ${v.turn.number}` : name;
}

/** A step of a walking piece, in ms. */
const STEP_MS = 220;
/** @type {ReturnType<typeof setInterval> | undefined} */
let walkTimer;

/**
 * Pieces that moved walk there along the ring, a space at a time (a walk, a horse's two
 * spaces, a move of one space), or hop (a boat, a Magic Gate); not under reduced motion.
 * Only the picture waits: the view already has them where they are.
 * @param {View} view
 * @param {View} before
 */
function walk(view, before) {
  if (reducedMotion.matches) return;
  const n = (page.state.content && page.state.content.board.length) || 0;
  if (!n) return;
  for (const a of view.adventurers || []) {
    const was = (before.adventurers || []).find((b) => b.player === a.player);
    if (!was || was.space === a.space || !a.alive) continue;
    const ahead = (a.space - was.space + n) % n;
    const path = [was.space];
    if (ahead <= 2) for (let i = 1; i <= ahead; i++) path.push((was.space + i) % n);
    else if (n - ahead <= 2) for (let i = 1; i <= n - ahead; i++) path.push((was.space - i + n) % n);
    else path.push(a.space);
    ui.walks.set(a.player, { path, at: 0 });
  }
  if (ui.walks.size && walkTimer === undefined) {
    walkTimer = setInterval(() => {
      for (const [player, w] of Array.from(ui.walks)) {
        w.at++;
        if (w.at >= w.path.length - 1) ui.walks.delete(player);
      }
      if (!ui.walks.size) {
        clearInterval(walkTimer);
        walkTimer = undefined;
      }
      page.render();
    }, STEP_MS);
  }
}

/** @type {ReturnType<typeof setTimeout> | undefined} */
let freshTimer;
/** After the next render, bring what the player's own action brought into view. */
let revealFresh = false;
/** After the next render, bring the turn's panel into view: the player's turn came round. */
let revealTurn = false;
/** After the next render, bring "This turn" into view: the player just moved. */
let revealMove = false;
/** After the next render, bring the battle's odds and its Fight button into view. */
let revealBattle = false;

/**
 * The battle's choices belong to one battle: forget them when another begins. A Chance card
 * or battle that changed since the last view is fresh for a moment: it turns over, its dice
 * roll (not at a page's first view: nothing happened then).
 * @param {View} view
 * @param {View | null} before
 */
function viewed(view, before) {
  if (before) walk(view, before);
  // A new turn: its lines are those after the log as it stands (this update's come after).
  // A page that arrives mid-turn finds where it began in the log (table-view.js).
  if (!before) ui.turnFromSeq = null;
  else if (view.turn && (!before.turn || before.turn.number !== view.turn.number)) ui.turnFromSeq = page.state.lastLogSeq;
  // The player's turn came round: what the others did since their last action, and the turn's
  // panel brought into sight (it is someone else's turn until now: nothing of theirs is moved).
  if (before && view.turn && view.turn.player === view.you && (!before.turn || before.turn.player !== view.you)) {
    page.showAway();
    revealTurn = true;
  }
  if (before) {
    const chance = JSON.stringify(view.last_chance) !== JSON.stringify(before.last_chance) && !!view.last_chance;
    const battle = JSON.stringify(view.last_battle) !== JSON.stringify(before.last_battle) && !!view.last_battle;
    if (chance || battle) {
      ui.fresh = { chance, battle };

      clearTimeout(freshTimer);
      // Then plain again, so that the next card turns over too.
      freshTimer = setTimeout(() => {
        ui.fresh = { chance: false, battle: false };
        page.render();
      }, 1500);
    }
  }
  // The player's own step, told by the turn's step moving on (a card drawn twice, a battle
  // rolled alike, look the same): its result shows where the button was, or the page brings
  // it into view (the battle's odds and the map were taller than what they left).
  const own = before && before.turn && view.turn && before.turn.player === view.you && view.turn.number === before.turn.number ? before.turn.step : null;
  if (own && view.turn && view.turn.step !== own) {
    // A move onto a Creature opens its battle: the choice to make now, below the move's line.
    if (own === 'move' && view.turn.step === 'battle') revealBattle = true;
    else if (own === 'move') revealMove = true;
    else revealFresh = true;
  }
  const t = view.turn;
  const battleKey = t && t.step === 'battle' ? `${t.number}:${t.player}:${JSON.stringify(view.last_battle)}` : null;
  if (battleKey !== ui.battle.key) ui.battle = { key: battleKey, kind: null, items: new Set(), throw: false };
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
  // What the player did where they stand (a Certificate, an Item bought) is told in "This turn".
  const you = after ? after.you : null;
  if (after && after.turn && after.turn.player === you && after.turn.step === 'moved' && (msg.log || []).some((e) => e.by === you)) revealMove = true;
}

/**
 * The move's line in "This turn" and the whole battle below it when both fit the window (less
 * what the scroll padding keeps for the phone's tab bar); else the whole battle; else its foot:
 * the odds and the Fight button, with as much above as fits. Scrolls only as far as needed.
 * @param {HTMLElement} battle
 * @param {Element | null} moved the move's line, if shown
 * @param {ScrollBehavior} behavior
 */
function showBattle(battle, moved, behavior) {
  const style = getComputedStyle(document.documentElement);
  const margin = parseFloat(getComputedStyle(battle).scrollMarginTop) || 0;
  const padTop = parseFloat(style.scrollPaddingTop) || 0;
  const padBottom = parseFloat(style.scrollPaddingBottom) || 0;
  const room = innerHeight - padTop - padBottom - 2 * margin;
  const box = battle.getBoundingClientRect();
  const from = moved ? Math.min(moved.getBoundingClientRect().top, box.top) : box.top;
  if (box.bottom - from <= room) {
    // Down until the battle's foot shows, or up until the move's line does.
    const down = Math.max(0, box.bottom + margin - (innerHeight - padBottom));
    const up = Math.min(0, from - margin - padTop);
    const by = down > 0 ? down : up;
    if (by !== 0) scrollBy({ top: by, behavior });
    return;
  }
  battle.scrollIntoView({ block: box.height <= room ? 'nearest' : 'end', behavior });
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
  const typing = isTyping();
  const behavior = reducedMotion.matches ? 'auto' : 'smooth';
  if (revealTurn) {
    revealTurn = false;
    const turn = page.root.querySelector('[data-testid="turn"]');
    // Only where it shows (a phone on another view keeps it; its tab is marked).
    const top = turn instanceof HTMLElement ? turn.getBoundingClientRect().top : 0;
    if (turn instanceof HTMLElement && turn.offsetParent !== null && !typing && (top < 0 || top > innerHeight * 0.3)) {
      turn.scrollIntoView({ block: 'start', behavior });
    }
  }
  if (revealMove) {
    revealMove = false;
    const told = page.root.querySelector('[data-testid="this-turn"]');
    if (told && !typing) told.scrollIntoView({ block: 'nearest', behavior });
  }
  if (revealBattle) {
    revealBattle = false;
    const battle = page.root.querySelector('[data-testid="battle-group"]');
    const lines = page.root.querySelectorAll('[data-testid="this-turn-line"]');
    if (battle instanceof HTMLElement && !typing) showBattle(battle, lines.length ? lines[lines.length - 1] : null, behavior);
  }
  if (revealFresh) {
    revealFresh = false;
    // At the top of the window: what her step brought, then the choices it leaves below it
    // (a phone's screen shows both only when the card does not sit low).
    const just = page.root.querySelector('[data-testid="just-now"]');
    if (just && !typing) just.scrollIntoView({ block: 'start', behavior });
  }
  if (inTurn && (!document.activeElement || document.activeElement === document.body)) {
    const next = page.root.querySelector('[data-testid="turn"] button:not([disabled]), [data-testid="turn"] [tabindex="-1"]');
    if (next instanceof HTMLElement) next.focus({ preventScroll: true });
  }
}
