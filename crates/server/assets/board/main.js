// The board game's table page (Prophecy, the board game). Reads the token from the address,
// asks who we are (GET /t/{token}/me), shows the join form or connects, fetches the game's
// static content once (GET /games/board/content.json) and renders every view the server sends.
// The server is authoritative: the page keeps only its presentation state (the space shown,
// the battle and Items chosen, requests in flight). The rendering is in table-view.js.
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
// Debug hook: window.prophecy = { seq(), view(), online(), connected(), content(), me() }.

import { h, patch, delegate } from '../common/dom.js';
import { loadContent } from '../common/net.js';
import { seat, token } from '../common/seat.js';
import { requests, applyLog } from '../common/requests.js';
import { wide } from '../common/shell.js';
import { renderBoardTable } from './table-view.js';

const root = document.getElementById('app');
const narrow = window.matchMedia ? window.matchMedia('(max-width: 640px)') : { matches: false };

const state = {
  screen: 'loading', // loading | join | table | removed | gone
  me: null,
  view: null,
  content: null,
  seq: 0,
  log: [],
  logSeqs: new Set(),
  online: new Set(),
  connected: false,
  everTried: false,
  removedMessage: '',
  goneMessage: '',
  joinError: '',
  joinPending: false,
  joinRefusal: '',
  invite: null,
};

const ui = {
  pending: new Map(), // place key → req
  msgs: new Map(), // place key → {kind, rule, text}
  open: new Set(),
  confirm: null,
  copied: false,
  space: null, // the space whose details are shown
  focusSpace: null, // the space that holds the board's tab stop
  battle: { key: null, kind: null, items: new Set() },
  // The player's choices a card asks for (the direction of a one-space move, the Item lost).
  choice: { clockwise: true, lose_item: null },
  toasts: [],
  tab: 'turn', // the view a phone shows (table-view.js: boardTabs)
  seenLogSeq: 0, // the last log entry shown to the player
};


// Actions sent and their answers (refusals shown where the action was made).
const sent = requests({ ui, root, render: () => render(), send: (action) => table.act(action) });
const { act, toast } = sent;

window.prophecy = {
  seq: () => state.seq,
  view: () => state.view,
  online: () => Array.from(state.online),
  connected: () => state.connected,
  content: () => state.content,
  me: () => state.me,
};

delegate(root, ['click', 'submit', 'change', 'keydown', 'toggle']);

const ctx = {
  get view() {
    return state.view;
  },
  get content() {
    return state.content;
  },
  get online() {
    return state.online;
  },
  get connected() {
    return state.connected;
  },
  get log() {
    return state.log;
  },
  get invite() {
    return state.invite;
  },
  get narrow() {
    return narrow.matches;
  },
  get you() {
    return state.me ? state.me.player : null;
  },
  ui,
  token,
  act,
  rerender: render,
  copyLink: (url) => table.copyLink(url),
  changeInvite: (action) => table.changeInvite(action),
  olderLines: () => table.olderLines(),
  get logOlder() {
    return state.logOlder;
  },
  get logAsking() {
    return state.logAsking;
  },
  changeShare: (action) => table.changeShare(action),
  toggled: (key, open) => {
    const was = ui.open.has(key);
    if (open) ui.open.add(key);
    else ui.open.delete(key);
    if (was !== open) render();
  },
  dismissToast: (id) => sent.dismissToast(id),
  /** A phone switches to view `tab`, from its top. */
  showTab: (tab) => {
    ui.tab = tab;
    render();
    window.scrollTo({ top: 0, behavior: 'auto' });
  },
};

if (narrow.addEventListener) narrow.addEventListener('change', () => render());

// ---------------------------------------------------------------- rendering

function screen(title, ...body) {
  return h('main', { class: 'center-screen', id: 'main' }, h('p', { class: 'brand' }, 'Prophecy'), title ? h('h1', null, title) : null, body);
}

function render() {
  switch (state.screen) {
    case 'loading':
      patch(
        root,
        screen(
          null,
          h('p', { role: 'status' }, state.everTried && !state.connected ? 'Connecting… (retrying)' : 'Connecting…'),
          state.everTried && !state.connected ? h('div', { class: 'banner reconnecting', role: 'status', testid: 'reconnecting-banner' }, 'Reconnecting…') : null,
        ),
      );
      return;
    case 'join':
      patch(root, table.joinScreen());
      return;
    case 'removed':
      patch(root, screen('You left this table', h('p', { role: 'alert', testid: 'removed' }, state.removedMessage || 'You were removed from this table.'), h('p', null, h('a', { href: '/' }, 'Start a new table'))));
      return;
    case 'gone':
      patch(root, screen('No such table', h('p', { role: 'alert', testid: 'table-gone' }, state.goneMessage || 'This link does not lead to a table. Check the link, or start a new table.'), h('p', null, h('a', { href: '/' }, 'Start a new table'))));
      return;
    default:
      break;
  }
  if (!state.content) {
    patch(root, screen(null, h('p', { role: 'status' }, 'Loading the board…')));
    return;
  }
  const logEl = document.getElementById('log');
  const atBottom = !logEl || logEl.scrollHeight - logEl.scrollTop - logEl.clientHeight < 40;
  const active = document.activeElement;
  const inTurn = active && active !== document.body && active.closest && active.closest('[data-testid="turn"]');
  // The log is in sight on a wide screen, and in the Log view on a phone.
  if (wide.matches || ui.tab === 'log') ui.seenLogSeq = state.log.length ? state.log[state.log.length - 1].seq : 0;
  patch(root, renderBoardTable(ctx));
  document.title = `${titleOf()} — Prophecy`;
  const el = document.getElementById('log');
  if (el && atBottom) el.scrollTop = el.scrollHeight;
  // The control used may be gone after the step it took (a move, a fight): keep keyboard users
  // in the turn's panel rather than at the top of the page.
  if (inTurn && (!document.activeElement || document.activeElement === document.body)) {
    const next = root.querySelector('[data-testid="turn"] button:not([disabled]), [data-testid="turn"] [tabindex="-1"]');
    if (next) next.focus({ preventScroll: true });
  }
  // A message whose place is gone becomes a toast.
  for (const [key, m] of Array.from(ui.msgs)) {
    if (!root.querySelector(`[data-for="${CSS.escape(key)}"]`)) {
      ui.msgs.delete(key);
      toast(m.kind, m.text, m.rule);
    }
  }
}

function titleOf() {
  const v = state.view;
  if (!v) return 'The board game';
  if (v.phase === 'lobby') return 'The board game: the lobby';
  if (v.phase === 'won' || v.phase === 'ended') return 'The board game: the end';
  return v.turn ? `The board game: turn ${v.turn.number}` : 'The board game';
}


// ---------------------------------------------------------------- requests




// ---------------------------------------------------------------- messages


function setView(view, you) {
  view.you = you;
  state.view = view;
  // The battle's choices belong to one battle: forget them when another begins.
  const t = view.turn;
  const battleKey = t && t.step === 'battle' ? `${t.number}:${t.player}:${JSON.stringify(view.last_battle)}` : null;
  if (battleKey !== ui.battle.key) ui.battle = { key: battleKey, kind: null, items: new Set() };
}

function onSync(msg) {
  table.loadInvite();
  if (typeof msg.you === 'number' && state.me) state.me.player = msg.you;
  setView(msg.view, state.me && state.me.player);
  applyLog(state, msg.log);
  // Arriving at the table, nothing in the log is "new" yet.
  if (!ui.seenLogSeq && state.log.length) ui.seenLogSeq = state.log[state.log.length - 1].seq;
  state.seq = Math.max(state.seq, msg.seq || 0);
  if (Array.isArray(msg.online)) state.online = new Set(msg.online);
  state.screen = 'table';
  render();
}

function onUpdate(msg) {
  if (typeof msg.seq === 'number' && msg.seq <= state.seq) return; // already applied
  const before = state.view;
  setView(msg.view, state.me && state.me.player);
  applyLog(state, msg.log);
  state.seq = msg.seq;
  // Answers about another player's turn no longer apply.
  if (before && before.turn && state.view.turn && before.turn.number !== state.view.turn.number) {
    for (const [key, m] of Array.from(ui.msgs)) if (m.kind === 'refused') ui.msgs.delete(key);
  }
  render();
}

// ---------------------------------------------------------------- the seat and the connection

const table = seat({
  state,
  ui,
  render,
  toast,
  intro: 'You were invited to play Prophecy, the board game: travel the land, fight creatures, and be the first adventurer to hold a Certificate from each of the five guilds.',
  sync: onSync,
  update: onUpdate,
  answer: (msg) => sent.answered(msg),
  lost: (list) => sent.lost(list),
});

loadContent('board').then((content) => {
  state.content = content;
  render();
});
table.boot();
