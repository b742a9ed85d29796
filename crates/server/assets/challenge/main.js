// The table page of the Challenge rules (a GM-led d4/d6/d8 rules set): the table page every
// game shares (common/table-page.js: joining, the socket, requests) with the Challenge rules'
// view (table-view.js). The server is authoritative: it says who the game master is, what each
// sheet holds, and the exact chance of every band for every improvement a player may choose.
// The page keeps only what is being typed or chosen (drafts).
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
// Debug hook (common/table-page.js): window.prophecy = { seq(), view(), online(), connected(), me(),
// content(), own() }.

import { typing as isTyping } from '../common/dom.js';
import { openTable } from '../common/table-page.js';
import { reducedMotion } from '../common/shell.js';
import { renderChallengeTable } from './table-view.js';

/**
 * @typedef {import('./page-types').ChallengeContext} Ctx
 * @typedef {import('../common/page-types').Seen<import('./view-types').ChallengeView>} View
 * @typedef {import('./view-types').Challenge} Challenge
 * @typedef {import('./view-types').Character} Character
 * @typedef {import('./view-types').ChoiceOdds} ChoiceOdds
 * @typedef {import('../common/page-types').Child} Child
 */


// A player's choices for an open roll outlive a reload of the page (a phone's, say), in this tab.
const CHOICES_KEY = 'challenge-choices:' + location.pathname;
let savedJson = '';

// openTable adds the fields every game shares.
const ui = /** @type {import('./page-types').ChallengeUi} */ ({
  narrations: {}, // challenge id → the narration being written
  draft: null, // the sheet being made or edited
  call: null, // the GM's challenge being called
  fight: null, // the GM's fight being written down
  rest: '', // whom the GM says rested ('' for everyone)
  choices: new Map(savedChoices()), // challenge id → {specialty: index or -1, spend: boolean}
  gens: { call: 0, fight: 0, sheet: 0 }, // bumped to give a form fresh fields
  focusNext: null, // an element id to focus after the next render
  announce: '',
  tab: 'challenges', // the view a phone shows (table-view.js)
});

openTable({
  name: 'challenge',
  content: false,
  intro: 'You were invited to play the Challenge rules with a game master: make a character sheet, and roll when the game master calls a Challenge.',
  ui,
  ctx: {
    focus: (/** @type {string} */ id) => {
      ui.focusNext = id;
    },
  },
  view: renderChallengeTable,
  // Pass the phone: each open challenge waits for its character's player to roll.
  waitingOn: (view) => {
    const open = view.challenges.filter((c) => c.status === 'open');
    const owners = open.map((c) => view.characters.find((ch) => ch.id === c.character)).map((ch) => (ch ? ch.owner : 0));
    return open.length ? { players: owners, what: 'roll', id: open.map((c) => c.id).join(',') } : null;
  },
  title: (ctx) => {
    const name = ctx.title || 'The Challenge rules';
    return ctx.view && ctx.view.gm === ctx.you ? `${name} (you are the GM)` : name;
  },
  logTab: 'table',
  viewed,
  afterRender: () => {
    saveChoices();
    revealChallenge();
    if (!ui.focusNext) return;
    const target = document.getElementById(ui.focusNext);
    ui.focusNext = null;
    if (target) target.focus({ preventScroll: false });
  },
});

/** @returns {Array<[number, {specialty: number, spend: boolean}]>} */
function savedChoices() {
  try {
    savedJson = sessionStorage.getItem(CHOICES_KEY) || '';
    const list = JSON.parse(savedJson || '[]');
    return Array.isArray(list)
      ? list.filter((e) => Array.isArray(e) && Number.isInteger(e[0]) && e[1] && Number.isInteger(e[1].specialty) && typeof e[1].spend === 'boolean')
      : [];
  } catch {
    return []; // no storage (a private window) or a damaged entry: start afresh
  }
}

function saveChoices() {
  const json = JSON.stringify(Array.from(ui.choices));
  if (json === savedJson) return;
  savedJson = json;
  try {
    sessionStorage.setItem(CHOICES_KEY, json);
  } catch {
    // No storage: the choices last as long as the page.
  }
}

/** After the next render: a challenge of this player's character that was called or rolled. */
let reveal = /** @type {number | null} */ (null);

/**
 * A challenge called on this player's character, and then its result, come into sight where
 * they are drawn (not while the player types; a phone on another view has its tab marked).
 * @param {View} view
 * @param {View | null} before
 */
function noteMine(view, before) {
  if (!before) return;
  const mine = new Set((view.characters || []).filter((c) => c.owner === view.you).map((c) => c.id));
  for (const c of view.challenges || []) {
    if (!mine.has(c.character)) continue;
    const was = (before.challenges || []).find((x) => x.id === c.id);
    if ((!was && c.status === 'open') || (was && was.status === 'open' && c.status === 'rolled')) reveal = c.id;
  }
}

function revealChallenge() {
  if (reveal === null) return;
  const el = document.getElementById('challenge-' + reveal);
  reveal = null;
  const typing = isTyping();
  if (!el || el.offsetParent === null || typing) return;
  // Its head at least: an open challenge with its choices may be taller than the screen.
  const r = el.getBoundingClientRect();
  const block = r.height > innerHeight ? 'start' : 'nearest';
  el.scrollIntoView({ block, behavior: reducedMotion.matches ? 'auto' : 'smooth' });
}

/**
 * @param {View | null} view
 */
function rolledIds(view) {
  return new Set((view ? view.challenges || [] : []).filter((c) => c.status === 'rolled').map((c) => c.id));
}

/**
 * @param {View} view
 * @param {View | null} before
 */
function viewed(view, before) {
  noteMine(view, before);
  // Choices belong to an open challenge: forget those of challenges rolled or cancelled.
  const open = new Set((view.challenges || []).filter((c) => c.status === 'open').map((c) => c.id));
  for (const id of Array.from(ui.choices.keys())) if (!open.has(id)) ui.choices.delete(id);
  // A new result is said aloud once (not the old ones found at a sync).
  if (before) {
    const rolled = rolledIds(before);
    const fresh = (view.challenges || []).filter((c) => c.status === 'rolled' && !rolled.has(c.id));
    if (fresh.length) {
      const c = fresh[fresh.length - 1];
      const outcome = /** @type {NonNullable<typeof c.outcome>} */ (c.outcome); // a rolled challenge has one
      const who = (view.characters || []).find((x) => x.id === c.character);
      ui.announce = `${who ? who.sheet.name : 'A character'} rolled ${outcome.faces.join(', ')}: ${outcome.result}, ${outcome.label}.`;
    }
  }
}
