// The table page of the Challenge rules (a GM-led d4/d6/d8 rules set). Reads the token from the
// address, asks who we are and connects (seat.js), and renders every view the server sends
// (table-view.js). The server is authoritative: it says who the game master is, what each
// sheet holds, and the exact chance of every band for every improvement a player may choose.
// The page keeps only what is being typed or chosen (drafts) and the requests in flight.
//
// data-testid hooks (for end-to-end tests):
//   join:        join-form join-name join-submit join-error join-refusal removed table-gone
//   header:      table-title gm-name invite-link copy-link show-qr qr export-md export-print
//                export-game publish-story (the GM's) open-shared withdraw-story
//                reconnecting-banner
//   players:     player (data-player-id, data-gm) gm-tag hand-gm (data-player-id)
//                confirm-hand-gm
//   sheets:      sheet-card (data-character-id, data-owner, data-retired) aptitude
//                (data-aptitude, data-current, data-maximum) create-sheet sheet-form sheet-owner
//                sheet-name sheet-concept aptitude-input (data-aptitude) skill-check
//                (data-skill) specialty-skill specialty-name add-specialty remove-specialty
//                sheet-abilities save-sheet cancel-sheet edit-sheet retire-sheet confirm-retire
//   GM's panel:  gm-panel challenge-character challenge-description challenge-situation
//                challenge-aptitude challenge-skill (data-skill) allow-steps custom-bands
//                band-from band-to band-label add-band remove-band call-challenge
//                rest-character rest open-fight fight-description fight-cost fight-suggested
//                record-fight
//   challenges:  challenge (data-challenge-id, data-status) open-challenge (data-challenge-id,
//                data-character-id, data-mine) choice-specialty spend-point choice-pool
//                band-odds (data-from, data-to, data-p: the chosen improvement's exact chance
//                "n/d", data-p-without, data-p-with: without and with the Aptitude point)
//                choice-refused (data-code) roll-challenge waiting-roll cancel-challenge
//                challenge-result (data-result, data-band) die (data-face, data-kept)
//                custom-bands-note narration-text narration-input narrate
//   fights:      fight
//   messages:    refusal (a `refused` answer, role=alert, data-for=its place) request-error
//                toast announce (the latest roll, for screen readers)
//   log:         log log-entry (data-seq)
// Debug hook: window.prophecy = { seq(), view(), online(), connected(), me() }.

import { delegate, patch, h } from '../common/dom.js';
import { seat, token } from '../common/seat.js';
import { requests, applyLog } from '../common/requests.js';
import { wide } from '../common/shell.js';
import { renderChallengeTable } from './table-view.js';

const root = document.getElementById('app');

const state = {
  screen: 'loading', // loading | join | table | removed | gone
  me: null,
  view: null,
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
  narrations: {}, // challenge id → the narration being written
  pending: new Map(), // place key → req
  msgs: new Map(), // place key → {kind, rule, text}
  open: new Set(),
  confirm: null,
  copied: false,
  toasts: [],
  draft: null, // the sheet being made or edited
  call: null, // the GM's challenge being called
  fight: null, // the GM's fight being written down
  rest: '', // whom the GM says rested ('' for everyone)
  choices: new Map(), // challenge id → {specialty: index or -1, spend: boolean}
  gens: { call: 0, fight: 0, sheet: 0 }, // bumped to give a form fresh fields
  focusNext: null, // an element id to focus after the next render
  announce: '',
  tab: 'challenges', // the view a phone shows (table-view.js)
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
  me: () => state.me,
};

delegate(root, ['click', 'submit', 'change', 'input', 'keydown', 'toggle']);

const ctx = {
  get view() {
    return state.view;
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
  get you() {
    return state.me ? state.me.player : null;
  },
  ui,
  token,
  act,
  rerender: render,
  focus: (id) => {
    ui.focusNext = id;
  },
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
  const logEl = document.getElementById('log');
  const atBottom = !logEl || logEl.scrollHeight - logEl.scrollTop - logEl.clientHeight < 40;
  // The log is in sight on a wide screen, and in the Table view on a phone.
  if (wide.matches || ui.tab === 'table') ui.seenLogSeq = state.log.length ? state.log[state.log.length - 1].seq : 0;
  patch(root, renderChallengeTable(ctx));
  document.title = state.view && state.view.gm === ctx.you ? 'The Challenge rules (you are the GM) — Prophecy' : 'The Challenge rules — Prophecy';
  const el = document.getElementById('log');
  if (el && atBottom) el.scrollTop = el.scrollHeight;
  if (ui.focusNext) {
    const target = document.getElementById(ui.focusNext);
    ui.focusNext = null;
    if (target) target.focus({ preventScroll: false });
  }
  // A message whose place is gone becomes a toast.
  for (const [key, m] of Array.from(ui.msgs)) {
    if (!root.querySelector(`[data-for="${CSS.escape(key)}"]`)) {
      ui.msgs.delete(key);
      toast(m.kind, m.text, m.rule);
    }
  }
}


// ---------------------------------------------------------------- requests




// ---------------------------------------------------------------- messages


function rolledIds(view) {
  return new Set((view ? view.challenges || [] : []).filter((c) => c.status === 'rolled').map((c) => c.id));
}

function setView(view, you) {
  const before = rolledIds(state.view);
  view.you = you;
  const hadView = !!state.view;
  state.view = view;
  // Choices belong to an open challenge: forget those of challenges rolled or cancelled.
  const open = new Set((view.challenges || []).filter((c) => c.status === 'open').map((c) => c.id));
  for (const id of Array.from(ui.choices.keys())) if (!open.has(id)) ui.choices.delete(id);
  // A new result is said aloud once (not the old ones found at a sync).
  if (hadView) {
    const fresh = (view.challenges || []).filter((c) => c.status === 'rolled' && !before.has(c.id));
    if (fresh.length) {
      const c = fresh[fresh.length - 1];
      const who = (view.characters || []).find((x) => x.id === c.character);
      ui.announce = `${who ? who.sheet.name : 'A character'} rolled ${c.outcome.faces.join(', ')}: ${c.outcome.result}, ${c.outcome.label}.`;
    }
  }
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
  setView(msg.view, state.me && state.me.player);
  applyLog(state, msg.log);
  state.seq = msg.seq;
  render();
}

// ---------------------------------------------------------------- the seat and the connection

const table = seat({
  state,
  ui,
  render,
  toast,
  intro: 'You were invited to play the Challenge rules with a game master: make a character sheet, and roll when the game master calls a Challenge.',
  sync: onSync,
  update: onUpdate,
  answer: (msg) => sent.answered(msg),
  lost: (list) => sent.lost(list),
});

table.boot();
