// The table page, whatever its game: reads the token from the address, asks who we are
// (common/seat.js), shows the join form or connects, keeps the view the server sends and the
// log, sends the player's actions (common/requests.js) and renders the page: the join,
// loading and farewell screens here, the table by the game's own view. The server is
// authoritative: the page keeps only its presentation state. Each game's main.js opens its
// page with `openTable`, giving its parts.

import { h, patch, delegate } from './dom.js';
import { loadContent } from './net.js';
import { seat, token, watchCode } from './seat.js';
import { requests, applyLog } from './requests.js';
import { wide } from './shell.js';
import { lastOwnSeq, othersSince } from './away.js';
import { replayer, replayBar } from './replay.js';
import { checkPass, deviceBar, passScreen } from './device.js';

/**
 * The page of any game, as the parts below use it: they read only what every game shares.
 * @typedef {import('./page-types').SharedUi} SharedUi
 * @typedef {import('./page-types').TableContext<unknown, unknown, unknown, SharedUi>} AnyContext
 * @typedef {import('./page-types').TableGame<unknown, unknown, unknown, SharedUi, AnyContext>} AnyGame
 * @typedef {import('./page-types').TablePage<unknown, unknown, unknown, SharedUi, AnyContext>
 *   & {seat: ReturnType<typeof seat>, measure: () => void, replay: ReturnType<typeof replayer>}} Page
 * @typedef {import('./page-types').SharedState<unknown, unknown, unknown>} State
 * @typedef {import('./page-types').Child} Child
 */

/**
 * Opens the table page of a game and boots it (the loading screen shows at once; the game's
 * parts are called once the table's first sync has come). `game`:
 *   name         the game's name: its static content is /games/{name}/content.json
 *   content      whether the page fetches that content (`ctx.content`, `state.content`)
 *   intro        one sentence about the game, for the join form
 *   state, ui    the game's own fields of the page's state and presentation state (the
 *                shared ones, below, are added to these objects)
 *   ctx          the game's own members of the context its view receives (getters kept); a
 *                member named as a shared one replaces it
 *   view(ctx)    the table's nodes, built from the view
 *   title(ctx)   the document's title, before " — Prophecy": the table's name
 *                (`ctx.name`) when its creator gave one, else the game's own
 *   logTab       the phone's view that shows the log
 *   waiting(ctx) optional: what to say instead of the table while the page waits (for its
 *                content)
 *   viewed(view, before)             optional: the game's follow-ups of a new view
 *   synced(msg, arriving)            optional: after a sync was taken in (`arriving`: the
 *                                    first since the page showed another screen)
 *   updated(msg, before, firstNew)   optional: after an update was taken in (`firstNew`: the
 *                                    seq of its first new log line, or Infinity)
 *   own(msg)                         optional: the `own` message (what only this player knows)
 *   beforeRender() → memo, afterRender(memo)   optional: around each render of the table
 * Returns the page: state, ui, ctx, root, render(), act(key, action, opts), toast(kind, text).
 * @template View, Content, Own
 * @template {SharedUi} Ui
 * @template {import('./page-types').TableContext<View, Content, Own, Ui>} Ctx
 * @param {import('./page-types').TableGame<View, Content, Own, Ui, Ctx>} gameOf
 * @returns {import('./page-types').TablePage<View, Content, Own, Ui, Ctx>}
 */
export function openTable(gameOf) {
  // The page is the game's: its view, content and own are what the server sends this game's
  // page (their types are checked against real ones: e2e/tools/check-views.mjs). The parts
  // below read only what every game shares.
  const game = /** @type {AnyGame} */ (/** @type {unknown} */ (gameOf));
  // Every table page has this element.
  const root = /** @type {HTMLElement} */ (document.getElementById('app'));
  // The rest of the page is set below.
  const page = /** @type {Page} */ ({
    game,
    root,
    state: /** @type {State} */ (withDefaults(game.state || {}, sharedState())),
    ui: /** @type {SharedUi} */ (withDefaults(game.ui || {}, sharedUi())),
  });
  page.render = () => render(page);
  page.showAway = () => showAway(page);
  page.measure = stickySizes(root);
  // A phone turned sideways (or a window made wider) may cross the breakpoint: what the
  // header holds depends on it (common/shell.js: topbar).
  if ('addEventListener' in wide) wide.addEventListener('change', () => page.render());
  const sent = requests({ ui: page.ui, root, render: page.render, send: (action) => page.seat.act(action) });
  page.act = sent.act;
  page.toast = sent.toast;
  page.replay = replayer({ path: watchCode ? `/w/${watchCode}/replay` : `/t/${token}/replay`, ui: page.ui, render: page.render, toast: sent.toast });
  page.ctx = context(page, sent);
  page.seat = seat({
    state: page.state,
    ui: page.ui,
    render: page.render,
    toast: sent.toast,
    intro: game.intro,
    sync: (msg) => onSync(page, msg),
    update: (msg) => onUpdate(page, msg),
    answer: sent.answered,
    own: game.own,
    lost: sent.lost,
    device: () => {
      checkPass(page);
      page.render();
    },
  });
  const { state } = page;
  window.prophecy = {
    seq: () => state.seq,
    view: () => state.view,
    online: () => Array.from(state.online),
    connected: () => state.connected,
    me: () => state.me,
    content: () => state.content,
    own: () => state.own,
    device: () => state.device,
  };
  delegate(root, ['click', 'submit', 'change', 'input', 'keydown', 'toggle', 'focus']);
  watchVisibility(page);
  page.seat.boot();
  // The game's static content: fetched once, never in a view.
  if (game.content) {
    loadContent(game.name).then((content) => {
      state.content = content;
      page.render();
    });
  }
  return /** @type {import('./page-types').TablePage<View, Content, Own, Ui, Ctx>} */ (/** @type {unknown} */ (page));
}

/**
 * Sets on `target` each field of `defaults` it does not have.
 * @template {object} T
 * @template {object} D
 * @param {T} target
 * @param {D} defaults
 * @returns {T & D}
 */
function withDefaults(target, defaults) {
  const fields = /** @type {Record<string, unknown>} */ (target);
  for (const [k, v] of Object.entries(defaults)) if (!(k in target)) fields[k] = v;
  return /** @type {T & D} */ (target);
}

/** @returns {State} */
function sharedState() {
  return {
    screen: 'loading', // loading | join | table | removed | gone
    me: null,
    view: null,
    content: null,
    seq: 0,
    log: [],
    logSeqs: new Set(),
    lastLogSeq: 0,
    logOlder: false, // the table has older lines than the page holds
    logAsking: false,
    online: new Set(),
    watching: false, // a watcher's page (/w/CODE): no seat
    watchers: 0,
    connected: false,
    everTried: false,
    offset: 0, // server clock − local clock
    removedMessage: '',
    goneMessage: '',
    joinError: '',
    joinPending: false,
    joinRefusal: '', // why this link cannot seat a newcomer (closed, renewed), from /me
    invite: null, // {open, link, creator, share} from GET /t/{token}/invite
    joinAbout: null,
    name: null, // the name the creator gave the table, from the sync
    title: null, // the table's title (its name, or the game's for it), from the sync
    device: [], // the seats this browser holds at the table (pass the phone)
  };
}

/** @returns {SharedUi} */
function sharedUi() {
  return {
    pending: new Map(), // place key → req
    msgs: new Map(), // place key → {kind, rule, text, at}
    open: new Set(), // the <details> left open
    confirm: null,
    copied: false,
    toasts: [],
    seenLogSeq: 0, // the last log entry shown to the player
    away: null, // {from: seq}: "While you were away" shows what others did after `from`
    hiddenSeq: null, // the last log entry when the page was hidden
    passTo: null, // the "Pass to" screen (common/device.js)
    passStayed: null,
    addingHere: false,
    addHerePending: false,
    addHereError: '',
  };
}

/**
 * Opens "While you were away" (common/away.js) when others did something since this player's
 * last action.
 * @param {Page} page
 */
function showAway(page) {
  const { state, ui } = page;
  // A watcher was never at the table: nothing happened "while they were away".
  if (state.watching) return;
  const you = state.me ? state.me.player : null;
  const from = lastOwnSeq(state.log, you);
  if (othersSince(state.log, you, from).length) ui.away = { from };
}

/**
 * A page hidden (another tab, a phone put away) notes where the log was; shown again, it opens
 * "While you were away" if others acted meanwhile.
 * @param {Page} page
 */
function watchVisibility(page) {
  const { state, ui } = page;
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') {
      if (ui.hiddenSeq === null) ui.hiddenSeq = state.lastLogSeq;
      return;
    }
    const hidden = ui.hiddenSeq;
    ui.hiddenSeq = null;
    const you = state.me ? state.me.player : null;
    if (hidden !== null && state.screen === 'table' && othersSince(state.log, you, hidden).length) {
      showAway(page);
      page.render();
    }
  });
}

/**
 * The context every render function receives: the view and the page's ways to act.
 * @param {Page} page
 * @param {ReturnType<typeof requests>} sent
 * @returns {AnyContext}
 */
function context(page, sent) {
  const { state, ui } = page;
  /** @type {AnyContext} */
  const ctx = {
    get view() {
      // A replay draws its step; else the table is drawn only once a sync brought the view.
      if (ui.replay) return replayView(page, ui.replay);
      return /** @type {import('./page-types').Seen<unknown>} */ (state.view);
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
      const r = ui.replay;
      if (!r) return state.log;
      return /** @type {import('./messages').LogEntry[]} */ (r.logs.slice(1, r.at + 1).filter(Boolean));
    },
    get logOlder() {
      return state.logOlder;
    },
    get logAsking() {
      return state.logAsking;
    },
    get invite() {
      return state.invite;
    },
    get name() {
      return state.name;
    },
    get title() {
      return state.title;
    },
    get own() {
      return state.own;
    },
    get you() {
      return state.me ? state.me.player : null;
    },
    get watching() {
      return state.watching;
    },
    get watchers() {
      return state.watchers;
    },
    get stream() {
      return state.watching && STREAM;
    },
    ui,
    token,
    act: sent.act,
    rerender: page.render,
    serverNow: () => Date.now() + state.offset,
    copyLink: (url) => page.seat.copyLink(url),
    changeInvite: (action) => page.seat.changeInvite(action),
    changeShare: (action) => page.seat.changeShare(action),
    changeWatch: (action) => page.seat.changeWatch(action),
    openReplay: () => page.replay.open(),
    get device() {
      return state.device;
    },
    get anonymity() {
      return page.game.anonymity || null;
    },
    addHere: (name) => page.seat.addHere(name),
    passTo: (player) => {
      const to = state.device.find((s) => s.player === player);
      if (!to) return;
      ui.passTo = { player, name: to.name, what: null };
      page.render();
    },
    olderLines: () => page.seat.olderLines(),
    toggled: (key, open) => {
      const was = ui.open.has(key);
      if (open) ui.open.add(key);
      else ui.open.delete(key);
      if (was !== open) page.render();
    },
    dismissToast: (id) => sent.dismissToast(id),
    dismissAway: () => {
      ui.away = null;
      page.render();
    },
    /** A phone switches to view `tab`, from its top. */
    showTab: (tab) => {
      ui.tab = tab;
      page.render();
      window.scrollTo({ top: 0, behavior: 'auto' });
    },
  };
  return Object.defineProperties(ctx, Object.getOwnPropertyDescriptors(page.game.ctx || {}));
}

// ---------------------------------------------------------------- rendering

/**
 * What the stylesheet needs to know of the sticky parts, as custom properties on the root: the
 * banners' height (`--banners-h`: the side column and what is scrolled to stay below them) and
 * the side column's (`--side-h`: one taller than the screen sticks by its foot). Measured after
 * each render and whenever they change size between renders (a font arriving, a wrap). Returns
 * the function that measures.
 * @param {HTMLElement} root
 */
function stickySizes(root) {
  /** @type {Record<string, number>} */
  const set = {};
  /** @type {Element[]} */
  let watched = [];
  const measure = () => {
    for (const [name, selector] of [['--banners-h', '.banners'], ['--side-h', '.side-col']]) {
      const el = root.querySelector(selector);
      const px = el instanceof HTMLElement ? el.offsetHeight : 0;
      if (set[name] !== px) {
        set[name] = px;
        document.documentElement.style.setProperty(name, px + 'px');
      }
    }
  };
  const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(measure) : null;
  return () => {
    measure();
    if (!observer) return;
    const now = Array.from(root.querySelectorAll('.banners, .side-col'));
    if (now.length === watched.length && now.every((el, i) => el === watched[i])) return;
    observer.disconnect();
    for (const el of now) observer.observe(el);
    watched = now;
  };
}

/**
 * @param {string | null} title
 * @param {...Child} body
 */
function screen(title, ...body) {
  return h('main', { class: 'center-screen', id: 'main' }, h('p', { class: 'brand' }, 'Prophecy'), title ? h('h1', null, title) : null, body);
}

/**
 * The page when it shows no table: loading, the join form, removed, or no such table.
 * @param {Page} page
 */
function otherScreen(page) {
  const { state } = page;
  const home = h('p', null, h('a', { href: '/' }, 'Start a new table'));
  switch (state.screen) {
    case 'join':
      return page.seat.joinScreen();
    case 'removed':
      return screen(state.watching ? 'No longer watching' : 'You left this table', h('p', { role: 'alert', testid: 'removed' }, state.removedMessage || 'You were removed from this table.'), home);
    case 'gone':
      return screen('No such table', h('p', { role: 'alert', testid: 'table-gone' }, state.goneMessage || 'This link does not lead to a table. Check the link, or start a new table.'), home);
    default: {
      const retrying = state.everTried && !state.connected;
      return screen(
        null,
        h('p', { role: 'status' }, retrying ? 'Connecting… (retrying)' : 'Connecting…'),
        retrying ? h('div', { class: 'banner reconnecting', role: 'status', testid: 'reconnecting-banner' }, 'Reconnecting…') : null,
      );
    }
  }
}

/** @param {Page} page */
function render(page) {
  const { state, ui, game, root, ctx } = page;
  watchingBanner(page);
  if (state.screen !== 'table') {
    patch(root, otherScreen(page));
    return;
  }
  if (ui.passTo && !ui.replay) {
    passing(page);
    return;
  }
  const waiting = game.waiting ? game.waiting(ctx) : null;
  if (waiting) {
    patch(root, screen(null, h('p', { role: 'status' }, waiting)));
    return;
  }
  const logEl = document.getElementById('log');
  const atBottom = !logEl || logEl.scrollHeight - logEl.scrollTop - logEl.clientHeight < 40;
  const memo = game.beforeRender ? game.beforeRender() : null;
  // The log is in sight on a wide screen, and in its own view on a phone.
  if (wide.matches || ui.tab === game.logTab) ui.seenLogSeq = state.lastLogSeq || 0;
  const r = ui.replay;
  document.body.classList.toggle('replaying', !!r);
  patch(root, r ? [replayBar(r, page.replay), game.view(ctx)] : [deviceBar(ctx), game.view(ctx)]);
  document.title = `${state.watching ? 'Watching: ' : ''}${game.title(ctx)} — Prophecy`;
  page.measure();
  if (game.afterRender) game.afterRender(memo);
  const log = document.getElementById('log');
  if (log && atBottom) log.scrollTop = log.scrollHeight;
  // A message whose place is gone becomes a toast.
  for (const [key, m] of Array.from(ui.msgs)) {
    if (!root.querySelector(`[data-for="${CSS.escape(key)}"]`)) {
      ui.msgs.delete(key);
      page.toast(m.kind, m.text, m.rule);
    }
  }
}

/**
 * The "Pass to" screen in place of the table (common/device.js): taking it, the page speaks
 * for that seat and starts again from its sync; staying, it stays.
 * @param {Page} page
 */
function passing(page) {
  const { state, ui, root } = page;
  const pass = /** @type {import('./page-types').PassTo} */ (ui.passTo);
  const arriving = !root.querySelector('[data-testid="pass-screen"]');
  const take = (/** @type {number} */ player) => {
    // Nothing of the last player's page is kept: their own, their place in the log.
    Object.assign(state, { view: null, own: null, seq: 0, log: [], logSeqs: new Set(), lastLogSeq: 0, logOlder: false, screen: 'loading' });
    Object.assign(ui, { passTo: null, passStayed: null, away: null, seenLogSeq: 0, confirm: null, addingHere: false, toasts: [] });
    ui.pending.clear();
    ui.msgs.clear();
    page.seat.switchTo(player);
    page.render();
  };
  const stay = () => {
    ui.passStayed = pass.key || null;
    ui.passTo = null;
    page.render();
  };
  patch(root, passScreen(page, take, stay));
  document.title = `Pass to ${pass.name} — Prophecy`;
  // Where the eyes are: the top of the screen, the button that hands over.
  if (arriving) {
    window.scrollTo({ top: 0, behavior: 'auto' });
    const heading = root.querySelector('[data-testid="pass-title"]');
    if (heading instanceof HTMLElement) heading.focus();
  }
}

const shown = new URLSearchParams(location.search);
/** A watcher's page in the stream layout (`?layout=stream`), for a streaming program. */
const STREAM = shown.get('layout') === 'stream';
/** The stream layout on a transparent background (`&background=transparent`). */
const TRANSPARENT = shown.get('background') === 'transparent';

/**
 * The view of the replay's step, as this page sees it (its player, and what the game works out
 * from that: `personalize`).
 * @param {Page} page
 * @param {import('./replay.js').Replaying} r
 */
function replayView(page, r) {
  const view = /** @type {import('./page-types').Seen<unknown>} */ (r.views[r.at]);
  if (view && view.you === undefined) {
    view.you = page.state.me ? page.state.me.player : null;
    if (page.game.personalize) page.game.personalize(view);
  }
  return view;
}

/**
 * A watcher's page says so above the table, and hides what acts on it (base.css, `.watching`).
 * @param {Page} page
 */
function watchingBanner(page) {
  const { state, root } = page;
  document.body.classList.toggle('watching', state.watching);
  document.body.classList.toggle('stream', state.watching && STREAM);
  document.body.classList.toggle('transparent', state.watching && STREAM && TRANSPARENT);
  let banner = document.getElementById('watching-banner');
  // A stream's audience needs no banner: the stream says what it shows.
  if (!state.watching || state.screen !== 'table' || STREAM) {
    if (banner) banner.remove();
    return;
  }
  if (!banner) {
    banner = document.createElement('p');
    banner.id = 'watching-banner';
    banner.className = 'banner watching-banner';
    banner.setAttribute('role', 'status');
    banner.dataset.testid = 'watching-banner';
    root.before(banner);
  }
  const others = state.watchers > 1 ? ` with ${state.watchers - 1} other${state.watchers > 2 ? 's' : ''}` : '';
  const text = `You are watching this table live${others}: you see what every player sees, and can change nothing.`;
  if (banner.firstChild && banner.firstChild.textContent === text) return;
  const replay = document.createElement('button');
  replay.type = 'button';
  replay.className = 'btn ghost small';
  replay.dataset.testid = 'open-replay';
  replay.textContent = 'Replay the game';
  replay.title = 'Step through the game from its start, once it is over';
  replay.addEventListener('click', () => page.replay.open());
  banner.replaceChildren(document.createElement('span'), replay);
  /** @type {HTMLElement} */ (banner.firstChild).textContent = text;
}

// ---------------------------------------------------------------- messages

/**
 * @param {State} state
 * @param {{now?: number}} msg
 */
function clock(state, msg) {
  if (typeof msg.now === 'number') state.offset = msg.now - Date.now();
}

// The server sends one view for everyone; which player this page is comes from `/me` (and
// `you` in each `sync`): the game works out what follows from it (`viewed`).
/**
 * @param {Page} page
 * @param {unknown} view
 * @param {number | null} you
 */
function setView(page, view, you) {
  const before = page.state.view;
  const seen = /** @type {import('./page-types').Seen<unknown>} */ (view);
  seen.you = you;
  page.state.view = seen;
  if (page.game.viewed) page.game.viewed(seen, before);
}

/**
 * @param {Page} page
 * @param {import('./messages').SyncMessage<unknown, unknown>} msg
 */
function onSync(page, msg) {
  const { state, ui, game } = page;
  clock(state, msg);
  // After a reconnection the invitation may have changed meanwhile (a watcher has none).
  if (!state.watching) page.seat.loadInvite();
  if (typeof msg.you === 'number' && state.me) state.me.player = msg.you;
  setView(page, msg.view, typeof msg.you === 'number' ? msg.you : state.me && state.me.player);
  applyLog(state, msg.log);
  // Arriving at the table, nothing in the log is "new" yet.
  if (!ui.seenLogSeq) ui.seenLogSeq = state.lastLogSeq || 0;
  // Arriving (a reload, a phone reopened, a reconnection): what the others did meanwhile.
  if (!ui.away) showAway(page);
  state.seq = Math.max(state.seq, msg.seq || 0);
  if (Array.isArray(msg.online)) state.online = new Set(msg.online);
  state.name = typeof msg.name === 'string' && msg.name ? msg.name : null;
  state.title = typeof msg.title === 'string' && msg.title ? msg.title : null;
  const arriving = state.screen !== 'table';
  state.screen = 'table';
  if (game.synced) game.synced(msg, arriving);
  checkPass(page);
  render(page);
}

/**
 * @param {Page} page
 * @param {import('./messages').TakenUpdate<unknown>} msg
 */
function onUpdate(page, msg) {
  const { state, game } = page;
  if (typeof msg.seq === 'number' && msg.seq <= state.seq) return; // already applied
  clock(state, msg);
  const before = state.view;
  setView(page, msg.view, state.me && state.me.player);
  const firstNew = (msg.log || []).reduce((m, e) => (e.seq > state.lastLogSeq ? Math.min(m, e.seq) : m), Infinity);
  applyLog(state, msg.log);
  // The player's own action closes "While you were away": they are back.
  const you = state.me ? state.me.player : null;
  if ((msg.log || []).some((e) => e.by === you && you !== null)) page.ui.away = null;
  state.seq = msg.seq;
  if (game.updated) game.updated(msg, before, firstNew);
  checkPass(page);
  render(page);
}
