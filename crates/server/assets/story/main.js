// The story game's table page (Prophecy and Temporal Mechanics): the table page every game
// shares (common/table-page.js: joining, the socket, requests) with the story's view
// (table-view.js), the worlds and modules (GET /games/story/content.json), and what the page
// keeps of its own: the selection, open editors, the dice animation, the timer's ticking.
//
// data-testid hooks (for end-to-end tests; repeated ones are scoped by their card or panel):
//   home:      create-form create-name ruleset-1.0 ruleset-1.1 ruleset-temporal create-table
//              create-error rulings-home (index.html)
//   join:      join-form join-name join-submit join-error removed table-gone
//   header:    table-title ruleset phase (data-phase) act invite-link copy-link show-qr qr
//              export-md export-print export-game
//   banners:   reconnecting-banner paused-banner (data-x-card) x-card-paused resume
//              propose-resume warnings
//   proposal:  proposal (data-proposal-id, data-motion) proposal-text proposal-agreed
//              proposal-waiting proposal-agree proposal-stop
//   strip:     timer (data-timed, data-state counting|stopped, data-held, data-deadline while
//              counting) timer-text timer-paused timer-hold timer-release timer-extend
//              timer-reset x-card
//   players:   player (data-player-id, data-online) moderator-tag remove-player
//              confirm-remove-player moderator-select choose-moderator (proposes) moderator
//              moderator-proposed dice-setting (data-physical) dice-server dice-physical
//              (propose) dice-note
//   moderator: moderator-panel question-select ask-question question-text ask-own-question
//              question question-shown
//   safety:    lines line (data-line-id, data-own) line-text add-line remove-line (own lines
//              only) rulings-safety
//              flag (data-flag="prophecy" | "object_name:5" | "aspect:6" | "objective:9" |
//              "setting:9" | "narration:9" | "justification:14" | "flashback" |
//              "long_term_effects" | "question") flagged (data-flag) replace (data-flag)
//   prophecy:  world-select world-summary roll-d66 module-select module-summary module-text
//              pick-module prophecy-input write-prophecy prophecy-text prophecy-source
//              (data-kind) d66-roll (data-tens, data-units) d66-tens d66-units edit-prophecy
//              prophecy-edit save-prophecy no-prophecy advance (data-to; proposes)
//   cards:     character-name create-character object-card (data-object-id, data-kind,
//              data-yours) object-name-text rename rename-text save-rename aspect-note
//              (data-aspect-id) aspect-text-display aspect-text aspect-category
//              aspect-relationship-with attach-aspect edit-aspect aspect-edit-text save-aspect
//              remove-aspect missing object-name object-kind create-object remove-object
//              confirm-remove-object
//   outline:   outline outline-node (data-scene-id, data-status) reward-die (data-precursor)
//              finale-objective sketch-finale scene-detail (data-scene-id) scene-status
//              scene-objective edit-objective objective-text save-objective outline-odds
//              sketch-objective sketch-scene remove-scene confirm-remove-scene keep-scene
//              edit-setting setting-time setting-place set-setting setting-text
//              place-object-select place-object scene-object-chip (data-object-id)
//              withdraw-object start-scene available-scene propose-return tree-too-small
//              flashback-first flashback-section flashback narrate-flashback flashback-text
//              edit-flashback
//   scene:     scene-panel (data-scene-id, data-rolling) cancel-scene scene-object
//              (data-object-id) scene-aspect (data-aspect-id) scene-aspect-text
//              scene-attach-aspect scene-object-name scene-object-kind scene-object-submit
//              pairs pair (data-pair-id, data-counts, data-objections) pair-state justification
//              justification-edit save-justification withdraw-pair accept-pair object-pair
//              propose-withdraw-pair pair-character-aspect pair-environment-aspect
//              pair-justification propose-pair pool pool-die (data-kind) pool-left-out
//              scene-odds (data-p) make-check (proposes) check-blocked check-proposed
//              real-dice-note accept-empty-pool cancel-empty-pool
//              faces-form faces-instructions faces-input faces-hint (data-needed, data-typed)
//              enter-faces roll (data-scene-id, data-physical) roll-source die (data-state;
//              data-face and data-hit once landed) skip-animation check-result (data-outcome,
//              data-hits, data-physical) narration narrate narration-text edit-narration
//              finish-scene
//   the end:   finale-outcome long-term-effects-section long-term-effects
//              narrate-long-term-effects long-term-effects-text edit-long-term-effects end-game
//              (proposes) the-end share publish-story (proposes) publish-proposed share-link
//              open-shared withdraw-story confirm-withdraw-story
//   messages:  refusal (a `refused` answer, role=alert, data-for=its place) request-error
//              (an `error` answer) notice toast
//   log:       log log-entry (data-seq)
//   footer:    rulings-link
// Debug hook (common/table-page.js): window.prophecy = { seq(), view(), online(), connected(), me(),
// content(), own() }.

import { typing as isTyping } from '../common/dom.js';
import { openTable } from '../common/table-page.js';
import { wide, reducedMotion } from '../common/shell.js';
import { renderTable, tableTitle } from './table-view.js';
import { timeline } from './dice.js';
import { sceneById } from './lookups.js';
import { timerText } from './banners.js';

/**
 * @typedef {import('../common/page-types').Seen<import('./page-types').PageView>} View
 * @typedef {import('./page-types').StoryContext} Ctx
 */


// The page's own presentation state (common/table-page.js adds the shared fields).
const ui = /** @type {import('./page-types').StoryUi} */ ({
  selected: null,
  selectFinale: false,
  editing: new Set(),
  confirmEmpty: null,
  cat: new Map(),
  world: null,
  module: null,
  anim: null,
  seenChecks: new Set(),
  holdLogFrom: null,
  freshRoll: false,
  focusNext: null,
  scrollToDetail: false,
  placeAfterCreate: null,
  centerOutline: true, // scroll a wide outline to the selected scene (or the Finale) once
  faces: new Map(), // scene id → the faces typed so far (real dice)
  question: '', // the moderator's chosen question
  drafts: new Map(), // form key → text typed and not saved (narrations)
  tab: 'now', // the view a phone shows (table-view.js: tabsOf)
  attention: new Set(), // views with something new since the player last looked
  scrollTo: null, // after the next render: 'scene' (the scene being played), 'top', 'finale' or 'long-term'
});

/** @type {ReturnType<typeof setTimeout> | undefined} */
let animTimer;

/** @type {import('../common/page-types').TablePage<import('./page-types').PageView, import('./view-types').StoryContent, import('./view-types').StoryOwn, import('./page-types').StoryUi, Ctx>} */
const page = openTable({
  name: 'story',
  content: true, // the worlds and modules
  intro: 'You were invited to tell a story together: a prophecy of catastrophe, a handful of heroes, and dice that explode on a six.',
  state: { own: { lines: [], paused: false } }, // what only this player may know (the `own` message)
  ui,
  ctx: {
    skipAnimation: () => endAnimation(),
    goToFlag: (f) => goToFlag(f),
    /**
     * A phone switches to view `tab`, from its top.
     * @param {string} tab
     */
    showTab: (tab) => {
      ui.tab = tab;
      ui.attention.delete(tab);
      ui.scrollTo = 'top';
      page.render();
    },
    /** The scene being played comes into view (on a phone, its view first). */
    showScene: () => {
      ui.tab = 'now';
      ui.attention.delete('now');
      ui.scrollTo = 'scene';
      page.render();
    },
  },
  view: renderTable,
  title: (ctx) => ctx.name || tableTitle(ctx.view),
  logTab: 'table',
  // Pass the phone: a proposal waits for everyone's agreement.
  waitingOn: (view) => (view.proposal ? { players: view.proposal.waiting, what: 'agreement', id: view.proposal.id } : null),
  anonymity: 'the X-card and flags',
  viewed: personalize,
  personalize,
  synced,
  updated,
  own: (msg) => {
    setOwn(msg.own);
    if (page.state.screen === 'table') page.render();
  },
  beforeRender: () => keyPath(document.activeElement),
  afterRender,
});
const { root } = page;

// ---------------------------------------------------------------- rendering

/** The table's view: there once the first sync came, before anything below runs. */
function viewNow() {
  return /** @type {View} */ (page.state.view);
}

/**
 * The data-key values from the root down to `el`, if `el` is in the page.
 * @param {Element | null} el
 * @returns {string[] | null}
 */
function keyPath(el) {
  if (!el || el === document.body || !root.contains(el)) return null;
  const path = [];
  for (let n = /** @type {Element | null} */ (el); n && n !== root; n = n.parentElement) {
    const k = n.getAttribute('data-key');
    if (k !== null) path.unshift(k);
  }
  return path;
}

/**
 * The focused control went away in a re-render (a closed editor, a finished request): focus the
 * nearest surviving place instead of dropping the keyboard user at the top of the page. Never a
 * flag button: a stray Enter there would hide someone's text.
 * @param {string[]} path
 */
function refocus(path) {
  /** @type {Element} */
  let el = root;
  for (const k of path) {
    const next = Array.from(el.querySelectorAll('[data-key]')).find((n) => n.getAttribute('data-key') === k);
    if (!next) break;
    el = next;
  }
  if (el === root) return;
  const focusable = 'button:not([disabled]):not(.flag), input:not([type=hidden]), select, textarea, a[href], [tabindex]';
  const target = el.matches(focusable) ? el : el.querySelector(focusable);
  if (target instanceof HTMLElement || target instanceof SVGElement) target.focus({ preventScroll: true });
}

/**
 * @param {string[] | null} focusPath
 */
function afterRender(focusPath) {
  if (focusPath && (!document.activeElement || document.activeElement === document.body)) refocus(focusPath);
  if (ui.focusNext) {
    const f = root.querySelector(`form[data-form="${CSS.escape(ui.focusNext)}"]`);
    ui.focusNext = null;
    const field = f && f.querySelector('input:not([type=hidden]), textarea, select');
    if (field instanceof HTMLElement) field.focus();
  }
  // The hint under a tree wider than its box (a phone).
  for (const box of root.querySelectorAll('.outline-scroll')) {
    const overflows = String(box.scrollWidth > box.clientWidth + 2);
    if (box.getAttribute('data-overflows') !== overflows) box.setAttribute('data-overflows', overflows);
  }
  if (ui.centerOutline) {
    const box = root.querySelector('.outline-scroll');
    // Only a tree wider than its box needs it (a phone); wait until then.
    if (box && box.scrollWidth > box.clientWidth) {
      ui.centerOutline = false;
      const v = viewNow();
      const id = ui.selected !== null ? ui.selected : v.finale;
      const node = id !== null && id !== undefined ? box.querySelector(`[data-testid="outline-node"][data-scene-id="${id}"]`) : null;
      if (node) {
        const n = node.getBoundingClientRect();
        const b = box.getBoundingClientRect();
        box.scrollLeft += n.left + n.width / 2 - (b.left + b.width / 2);
      }
    }
  }
  if (ui.scrollTo === 'top') {
    ui.scrollTo = null;
    window.scrollTo({ top: 0, behavior: 'auto' });
  } else if (ui.scrollTo === 'check' && !ui.anim) {
    // A check's outcome, once its dice landed, where the scene's dice are (not while typing).
    const result = root.querySelector('[data-testid="scene-panel"] [data-testid="check-result"]');
    const typing = isTyping();
    ui.scrollTo = null;
    // Centred, not at the screen's edge: what the update still changes above it moves it less.
    if (result instanceof HTMLElement && result.offsetParent !== null && !typing) {
      result.scrollIntoView({ block: 'center', behavior: reducedMotion.matches ? 'auto' : 'smooth' });
    }
  } else if ((ui.scrollTo === 'finale' || ui.scrollTo === 'long-term') && !ui.anim) {
    // What the table just reached (the Finale's outcome once its dice landed, the form that
    // follows it) comes into sight: where it is drawn, it was above or below the reader.
    const el = root.querySelector(ui.scrollTo === 'finale' ? '[data-testid="finale-moment"]' : '[data-testid="long-term-section"]');
    ui.scrollTo = null;
    if (el) el.scrollIntoView({ block: 'start', behavior: reducedMotion.matches ? 'auto' : 'smooth' });
  } else if (ui.scrollTo === 'scene') {
    // The panel comes with the update, which may follow the answer: wait for it.
    const panel = root.querySelector('[data-testid="scene-panel"]');
    if (panel) {
      ui.scrollTo = null;
      panel.scrollIntoView({ block: 'start', behavior: reducedMotion.matches ? 'auto' : 'smooth' });
    }
  }
  if (ui.scrollToDetail) {
    ui.scrollToDetail = false;
    const d = document.getElementById('scene-detail');
    if (d) d.scrollIntoView({ block: 'nearest', behavior: reducedMotion.matches ? 'auto' : 'smooth' });
  }
}

// ---------------------------------------------------------------- messages

/**
 * What follows from which player this page is: their character, what they may edit.
 * @param {View} view
 */
function personalize(view) {
  for (const o of view.objects || []) {
    o.yours = o.kind === 'character' && o.player === view.you;
    o.editable = o.kind !== 'character' || o.player === null || o.player === view.you;
  }
}

/**
 * @param {import('../common/messages').SyncMessage<import('./page-types').PageView, import('./view-types').StoryOwn>} msg
 * @param {boolean} arriving
 */
function synced(msg, arriving) {
  setOwn(msg.own);
  // Results that are already there are shown at once, never replayed.
  for (const s of viewNow().scenes || []) if (s.check) ui.seenChecks.add(s.id);
  if (arriving && ui.selected === null) ui.selected = defaultSelection();
  afterView();
}

/**
 * @param {import('../common/messages').TakenUpdate<import('./page-types').PageView>} msg
 * @param {View | null} prev
 * @param {number} firstNew
 */
function updated(msg, prev, firstNew) {
  const view = viewNow();
  for (const s of view.scenes || []) {
    if (s.check && !ui.seenChecks.has(s.id)) {
      ui.seenChecks.add(s.id);
      ui.scrollTo = 'check';
      if (!reducedMotion.matches) startAnimation(s.id, Number.isFinite(firstNew) ? firstNew : null);
    }
  }
  const src = view.prophecy && view.prophecy.source;
  const prevSrc = prev && prev.prophecy && prev.prophecy.source;
  if (src && src.kind === 'catastrophe' && JSON.stringify(src) !== JSON.stringify(prevSrc) && !reducedMotion.matches) {
    ui.freshRoll = true;
    setTimeout(() => {
      ui.freshRoll = false;
      page.render();
    }, 1200);
  }
  // A refusal answered the table as it was: once the table has changed (after a moment to
  // read it), it may no longer hold, and an old one must not stay beside a control that works.
  for (const [key, m] of Array.from(ui.msgs)) if (m.kind === 'refused' && Date.now() - m.at > 2000) ui.msgs.delete(key);
  const typing = isTyping();
  const finale = view.finale !== null && view.finale !== undefined ? sceneById(view, view.finale) : null;
  const finaleBefore = prev && finale ? sceneById(prev, finale.id) : null;
  if (finale && !typing) {
    // The Finale's outcome, then what follows it (the long-term effects, the flashforward).
    if (finale.check && !(finaleBefore && finaleBefore.check)) ui.scrollTo = 'finale';
    const timed = (/** @type {View | null} */ v) => !!(v && v.timer && v.timer.timed === 'flashforward');
    const performed = finale.status === 'performed' && !(finaleBefore && finaleBefore.status === 'performed');
    if (performed || (timed(view) && !timed(prev))) ui.scrollTo = 'long-term';
  }
  // Answers about the last phase no longer apply, and a phone goes to the new phase's work, a
  // laptop to its top (the page that was there is gone).
  if (prev && prev.phase && view.phase && prev.phase.id !== view.phase.id) {
    ui.msgs.clear();
    if (ui.tab !== 'now') page.ctx.showTab('now');
    else if (!typing) ui.scrollTo = 'top';
  } else if (prev && prev.in_progress !== view.in_progress && ui.tab !== 'now') {
    // A scene began or ended while this player looked elsewhere.
    ui.attention.add('now');
  }
  afterView();
}

/**
 * What only this player may know: the lines they drew, whether the X-card is theirs.
 * @param {import('./view-types').StoryOwn | null | undefined} own
 */
function setOwn(own) {
  page.state.own = {
    lines: own && Array.isArray(own.lines) ? own.lines : [],
    paused: !!(own && own.paused),
  };
}

/** Page-side follow-ups of a new view: selection, a new object to place in the scene. */
function afterView() {
  const v = viewNow();
  if (ui.selectFinale && v.finale !== null && v.finale !== undefined) {
    ui.selected = v.finale;
    ui.selectFinale = false;
  }
  if (ui.selected !== null && !sceneById(v, ui.selected)) ui.selected = null;
  const p = ui.placeAfterCreate;
  if (p) {
    const o = (v.objects || []).find((x) => !p.known.has(x.id) && x.name === p.name);
    if (o) {
      ui.placeAfterCreate = null;
      const s = sceneById(v, p.scene);
      if (s && !(s.objects || []).includes(o.id)) page.act(`create-object-here:${p.scene}`, { action: 'place_object', scene: p.scene, object: o.id });
    }
  }
}

function defaultSelection() {
  const v = viewNow();
  if (v.phase && v.phase.id === 'outline' && v.finale !== null && v.finale !== undefined) return v.finale;
  return null;
}

// ---------------------------------------------------------------- the dice animation

/**
 * @param {number} sceneId
 * @param {number | null} holdFrom
 */
function startAnimation(sceneId, holdFrom) {
  const s = sceneById(viewNow(), sceneId);
  if (!s || !s.check) return;
  clearTimeout(animTimer);
  ui.anim = { scene: sceneId, start: performance.now(), elapsed: 0, times: timeline(s.check.dice || []) };
  ui.holdLogFrom = holdFrom;
  scheduleTick();
}

function scheduleTick() {
  const a = ui.anim;
  if (!a) return;
  const points = [...a.times.throwAt, ...a.times.land, a.times.result].filter((t) => t > a.elapsed);
  if (!points.length) {
    endAnimation();
    return;
  }
  const next = Math.min(...points);
  animTimer = setTimeout(() => {
    if (!ui.anim) return;
    ui.anim.elapsed = performance.now() - ui.anim.start;
    if (ui.anim.elapsed >= ui.anim.times.result) {
      endAnimation();
      return;
    }
    page.render();
    scheduleTick();
  }, Math.max(0, next - a.elapsed) + 5);
}

function endAnimation() {
  clearTimeout(animTimer);
  const wasFocused = document.activeElement && document.activeElement.getAttribute('data-testid') === 'skip-animation';
  ui.anim = null;
  ui.holdLogFrom = null;
  page.render();
  if (wasFocused) {
    const r = root.querySelector('[data-testid="check-result"]');
    if (r instanceof HTMLElement) {
      r.setAttribute('tabindex', '-1');
      r.focus();
    }
  }
}

// ---------------------------------------------------------------- small page actions

/**
 * @param {import('./page-types').FlaggedText} f
 */
function goToFlag(f) {
  if (f.scene !== undefined) {
    ui.selected = f.scene;
    ui.centerOutline = true;
  }
  page.render();
  const id = 'flagged-' + f.key.replace(':', '-');
  let el = document.getElementById(id);
  // On a phone the flagged text may be in another view: show that one.
  const box = el && el.closest('[data-tabs]');
  const tabs = box ? (box.getAttribute('data-tabs') || '').split(' ') : [];
  if (tabs.length && !tabs.includes(ui.tab) && !wide.matches) {
    ui.tab = tabs[0];
    page.render();
    el = document.getElementById(id);
  }
  if (el) {
    el.scrollIntoView({ block: 'center', behavior: reducedMotion.matches ? 'auto' : 'smooth' });
    const b = el.querySelector('button');
    if (b) b.focus({ preventScroll: true });
  }
}

const MESSAGE_MS = 20000; // a refusal or error stays this long beside the control (or until dismissed)

setInterval(() => {
  let stale = false;
  for (const [key, m] of Array.from(ui.msgs)) {
    if (m.at && Date.now() - m.at > MESSAGE_MS && !root.querySelector(`[data-for="${CSS.escape(key)}"]:focus-within`)) {
      ui.msgs.delete(key);
      stale = true;
    }
  }
  if (stale && page.state.screen === 'table') page.render();
  for (const el of root.querySelectorAll('[data-deadline]')) {
    const t = timerText(Number(el.getAttribute('data-deadline')), page.ctx.serverNow());
    const text = el.querySelector('.timer-text');
    if (text && text.textContent !== t.text) text.textContent = t.text;
    el.classList.toggle('overtime', t.over);
  }
}, 1000);
