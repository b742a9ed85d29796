// The story game's table, rendered from the server's view: the header, a phone's views, what
// each phase shows (its parts are in their own files: prophecy.js, cards.js, scenes.js,
// the-end.js…), the side column and the log. Renders the view as it is; nothing here decides
// what the rules allow.

import { h } from '../common/dom.js';
import { tagged, showOnly, tabBar, toasts, topbar, tableLinks, pageFooter, logPanel, streamLayout } from '../common/shell.js';
import { rulesHelp } from '../common/rules-help.js';
import { awayCard } from '../common/away.js';
import { STORY_HELP, TEMPORAL_HELP } from './phase-help.js';
import { sceneById, objectById, aspectById, playerById, isTemporal, phaseId } from './lookups.js';
import { charactersSection, objectsSection } from './cards.js';
import { outlineSection, scenePanel, flashbackSection, longTermSection } from './scenes.js';
import { proposeButton } from './proposals.js';
import { moderatorPanel, questionCard } from './moderator.js';
import { storyBanners } from './banners.js';
import { prophecySection } from './prophecy.js';
import { playersSection, safetySection } from './players.js';
import { theEnd, finaleMoment, storySoFar } from './the-end.js';

/**
 * @typedef {import('./page-types').StoryContext} Ctx
 * @typedef {import('../common/page-types').Seen<import('./page-types').PageView>} View
 * @typedef {import('./view-types').Scene} Scene
 */

/**
 * A title for the table: the view has none of its own, so the source of its prophecy.
 * @param {View} view
 */
export function tableTitle(view) {
  if (view.title) return view.title;
  const src = view.prophecy && view.prophecy.source;
  if (src && src.kind === 'module' && src.title) return src.title;
  if (src && src.kind === 'catastrophe' && src.world) return src.world;
  const creator = playerById(view, view.creator);
  return creator ? `${creator.name}’s table` : 'A Prophecy table';
}

/**
 * @param {Ctx} ctx
 */
export function renderTable(ctx) {
  const { view } = ctx;
  const phase = phaseId(view);
  if (ctx.stream) return streamLayout(ctx, ctx.name || tableTitle(view), streamPlay(ctx, phase), (e) => logText(view, e));
  const tab = currentTab(ctx);
  const top = headerParts(ctx);
  return [
    topbar(ctx, top),
    storyBanners(ctx),
    showOnly(
      h(
        'div',
        { class: 'layout', 'data-key': 'layout', testid: 'layout' },
        h(
          'main',
          { id: 'main', class: 'main-col', tabindex: -1, 'data-key': 'main' },
          // Above every view a phone may show: it is what the player looks for first.
          tagged(awayCard(ctx, (e) => logText(view, e)), tabsOf(view).map((t) => t.id).join(' ')),
          tagged(tableLinks(ctx, top), 'table'),
          tagged([warnings(view), questionCard(ctx), moderatorPanel(ctx)], 'now'),
          phaseContent(ctx, phase),
        ),
        h('aside', { class: 'side-col', 'aria-label': 'The table', 'data-key': 'side' }, tagged([playersSection(ctx), safetySection(ctx), logSection(ctx)], 'table')),
      ),
      tab,
    ),
    footer(),
    storyTabBar(ctx, tab),
    toasts(ctx),
  ];
}

// ---------------------------------------------------------------- views on a phone

/**
 * On a narrow screen (common/shell.js) the story game's views: what the table does now (the
 * phase's work: the scene being played in the story), the outline, the characters, and the
 * table itself (players, safety, log, the prophecy).
 */
const NOW_LABELS = { prophecy: 'Prophecy', characters: 'Characters', outline: 'Outline', story: 'Scene', ended: 'The end' };

/**
 * The views this phase has: the phase's own work is "now", so no other view repeats it.
 * @param {View} view
 */
export function tabsOf(view) {
  const phase = phaseId(view);
  const outlineWord = isTemporal(view) ? 'Story tree' : 'Outline';
  const now = { id: 'now', label: phase === 'outline' ? outlineWord : NOW_LABELS[phase] || 'Now' };
  switch (phase) {
    case 'prophecy':
    case 'characters':
      return [now, { id: 'table', label: 'Table' }];
    case 'outline':
      return [now, { id: 'characters', label: 'Characters' }, { id: 'table', label: 'Table' }];
    default:
      return [now, { id: 'outline', label: outlineWord }, { id: 'characters', label: 'Characters' }, { id: 'table', label: 'Table' }];
  }
}

/**
 * @param {Ctx} ctx
 */
function currentTab(ctx) {
  const tabs = tabsOf(ctx.view);
  return tabs.some((t) => t.id === ctx.ui.tab) ? ctx.ui.tab : 'now';
}

/**
 * @param {Ctx} ctx
 * @param {string} tab
 */
function storyTabBar(ctx, tab) {
  const { ui } = ctx;
  /** @type {Record<string, number | boolean>} */
  const marks = { table: (ctx.log || []).filter((e) => e.seq > (ui.seenLogSeq || 0)).length };
  for (const id of ui.attention) marks[id] = true;
  return tabBar(tabsOf(ctx.view), tab, marks, (id) => ctx.showTab(id));
}

/**
 * The header's parts (common/shell.js: topbar, tableLinks).
 * @param {Ctx} ctx
 * @returns {import('../common/shell.js').HeaderParts}
 */
function headerParts(ctx) {
  const { view } = ctx;
  const r = view.ruleset || {};
  const p = view.phase || {};
  // On a phone the invitation and the exports wait in the Table view, except while the table
  // receives its prophecy (when the others are still being invited).
  return {
    title: ctx.name || tableTitle(view),
    meta: [
      h('span', { class: 'badge ruleset', testid: 'ruleset' }, r.name || r.id || ''),
      h('span', { class: 'badge phase', testid: 'phase', 'data-phase': p.id }, p.name || p.id || ''),
      r.temporal && p.act ? h('span', { class: 'badge act', testid: 'act' }, `Act: ${p.act}`) : null,
    ],
    inPlay: p.id !== 'prophecy',
    // Letting people watch is the table's choice: anyone proposes it.
    mayWatch: true,
    exportsLabel: 'Export the story',
    gameFile: {
      download: 'prophecy-game.jsonl',
      title: 'The whole game, one event per line (flagged text left out): `prophecy export prophecy-game.jsonl` turns it into Markdown, a tree or a diagram.',
    },
  };
}

function footer() {
  return pageFooter(
    h('a', { href: '/rulings', target: '_blank', rel: 'noopener', testid: 'rulings-link' }, 'Rulings'),
    ' · ',
    h('span', null, 'Safety tools at every table: lines, a flag on every text, and the X-card.'),
  );
}

/**
 * Advice from the rules (player count, outline length): shown, never enforced.
 * @param {View} view
 */
function warnings(view) {
  return (view.warnings || []).length
    ? h('ul', { class: 'warnings', testid: 'warnings', 'data-key': 'warnings', 'aria-label': 'Advice' }, view.warnings.map((w, i) => h('li', { 'data-key': 'w' + i }, w)))
    : null;
}

/**
 * @param {Ctx} ctx
 * @param {string} phase
 */
function phaseContent(ctx, phase) {
  const { view } = ctx;
  const temporal = isTemporal(view);
  const inProgress = view.in_progress !== null && view.in_progress !== undefined ? sceneById(view, view.in_progress) : null;
  const finale = view.finale !== null && view.finale !== undefined ? sceneById(view, view.finale) : null;
  const finaleDone = finale && finale.status === 'performed';
  // Temporal Mechanics needs no warning: outside the Setup, a table without one shows none.
  const warning = temporal && !view.prophecy ? null : tagged(prophecySection(ctx), 'table');
  // Temporal Mechanics prepares its warning in the Setup, once the flashback is told.
  const preparing = temporal && (view.flashback || view.flashback_flagged) ? prophecySection(ctx) : null;
  const now = (/** @type {import('../common/page-types').Child[]} */ ...nodes) => tagged(nodes, 'now');
  const cast = (/** @type {string} */ tabs) => tagged([charactersSection(ctx), objectsSection(ctx)], tabs);
  switch (phase) {
    case 'prophecy':
      return [now(phaseIntro(view, ctx), temporal ? null : prophecySection(ctx), advanceBar(ctx))];
    case 'characters':
      return [now(phaseIntro(view, ctx)), cast('now'), now(advanceBar(ctx)), warning];
    case 'outline':
      return temporal
        ? [now(phaseIntro(view, ctx), flashbackSection(ctx), preparing, outlineSection(ctx), advanceBar(ctx)), cast('characters')]
        : [now(phaseIntro(view, ctx), outlineSection(ctx), advanceBar(ctx)), cast('characters'), warning];
    case 'story':
      return [
        // What to do now comes first (the scene being played, or the next to choose): nothing
        // to scroll past to reach it; the phase's explanation follows.
        // The Finale's moment waits for its dice to land: it would tell the outcome first.
        now(ctx.ui.anim && ctx.ui.anim.scene === view.finale ? null : finaleMoment(ctx), inProgress ? scenePanel(ctx, inProgress) : nextSceneHint(ctx), phaseIntro(view, ctx), finaleDone ? longTermSection(ctx) : null),
        tagged(outlineSection(ctx), 'outline'),
        tagged(returnBar(ctx), 'now outline'),
        cast('characters'),
        warning,
        temporal ? tagged(flashbackSection(ctx), 'table') : null,
      ];
    case 'ended':
      return [
        now(finaleMoment(ctx), theEnd(ctx)),
        warning,
        temporal ? tagged(flashbackSection(ctx), 'now') : null,
        tagged(outlineSection(ctx), 'outline'),
        now(storySoFar(ctx), longTermSection(ctx)),
        cast('characters'),
      ];
    default:
      return [warning];
  }
}

/** @type {Record<string, string>} */
const INTROS = {
  prophecy: 'Receive the prophecy: roll on a world’s catastrophe table, pick a module, or write your own. Then propose moving on; every player agrees.',
  characters: 'Each player creates a character and gives it one aspect in each of the five categories. Anyone can add people, places and things.',
  outline: 'Sketch the Finale, then precursors: scenes that make their parent easier. Keep it to about eight scenes.',
  story: 'Perform the scenes, precursors before their parents, the Finale last. Each scene: investigate, match aspects, propose the check, then tell what happened.',
};

/** @type {Record<string, string>} */
const TEMPORAL_INTROS = {
  prophecy: 'Gather the players: everyone joins by the table’s link, then propose moving on to create the PCs. The warning from the future comes later, in the Setup.',
  characters: 'Each player creates a PC with one trait in each of the five categories. NPCs, people, places and things belong to everyone.',
  outline: 'Setup, in the future: first the flashback (timed), the catastrophe as it happened; then the warning to send back (optional) and the story tree, from the climactic scene down.',
  story: 'Confrontation, in the present: play the story scenes — investigate, influence (the check), interpret — the climactic scene last; then the flashforward.',
};

/**
 * @param {View} view
 * @param {Ctx} ctx
 */
function phaseIntro(view, ctx) {
  const t = isTemporal(view) ? TEMPORAL_INTROS : INTROS;
  const resolution = isTemporal(view) && phaseId(view) === 'story' && view.phase.act === 'Resolution';
  const text = resolution
    ? 'Resolution, back in the future: narrate the flashforward — how the timeline has changed — then propose ending the game.'
    : t[phaseId(view)];
  const help = (isTemporal(view) ? TEMPORAL_HELP : STORY_HELP)[phaseId(view)];
  return text
    ? h(
        'div',
        { class: 'phase-intro', 'data-key': 'intro' },
        h('p', null, text, ' ', h('a', { class: 'rulings', href: '/rulings', target: '_blank', rel: 'noopener', testid: 'rulings-help' }, 'Rulings')),
        ctx ? rulesHelp(ctx, 'phase-' + phaseId(view), 'How this phase works', help) : null,
      )
    : null;
}

/**
 * What a stream shows in play: the scene being played (its check's dice as they fall), the
 * end once the story is told, or what the table is doing now.
 * @param {Ctx} ctx
 * @param {string} phase
 */
function streamPlay(ctx, phase) {
  const { view } = ctx;
  const scene = view.in_progress !== null && view.in_progress !== undefined ? sceneById(view, view.in_progress) : null;
  if (scene) return scenePanel(ctx, scene);
  if (phase === 'ended') return [finaleMoment(ctx), theEnd(ctx)];
  return [finaleMoment(ctx), phaseIntro(view, ctx)];
}

/**
 * @param {Ctx} ctx
 */
function nextSceneHint(ctx) {
  const { view, ui } = ctx;
  const available = (view.scenes || []).filter((s) => s.status === 'available');
  const finale = view.finale !== null && view.finale !== undefined ? sceneById(view, view.finale) : null;
  if (finale && finale.status === 'performed') return null;
  return h(
    'section',
    { class: 'panel next-scene', 'data-key': 'next-scene', 'aria-labelledby': 'next-h' },
    h('h2', { id: 'next-h' }, 'Choose the next scene'),
    available.length
      ? h(
          'ul',
          { class: 'available' },
          available.map((s) =>
            h(
              'li',
              { 'data-key': 's' + s.id },
              h(
                'button',
                {
                  type: 'button',
                  class: ['linkish', ui.selected === s.id ? 'current' : null],
                  testid: 'available-scene',
                  'data-scene-id': s.id,
                  onclick: () => {
                    ui.selected = s.id;
                    ui.scrollToDetail = true;
                    ui.centerOutline = true;
                    // On a phone the scene's detail (and its Start button) is in the outline.
                    ui.tab = 'outline';
                    ctx.rerender();
                  },
                },
                `${s.level || 'Scene'} (difficulty ${s.difficulty}): `,
                s.objective_flagged ? '(flagged objective)' : s.objective,
              ),
            ),
          ),
        )
      : h('p', { class: 'muted' }, 'No scene is available right now.'),
    h('p', { class: 'small muted' }, `Select a scene here or in the ${isTemporal(view) ? 'story tree' : 'outline'}, then start it.`),
  );
}

/**
 * Moving on is a proposal: every player agrees.
 * @param {Ctx} ctx
 */
function advanceBar(ctx) {
  const { view } = ctx;
  const next = view.phase && view.phase.next;
  if (!next || phaseId(view) === 'story') return null;
  const skip = isTemporal(view) && phaseId(view) === 'prophecy' && !view.prophecy;
  return h(
    'div',
    { class: 'advance-bar', 'data-key': 'advance-bar' },
    skip ? h('p', { class: 'small muted' }, 'No world chosen: that is fine, the warning is only inspiration.') : null,
    proposeButton(ctx, 'advance', `${skip ? 'Skip: propose' : 'Propose'} moving on to ${next.name}`, { motion: 'advance', to: next.id }, { class: 'primary', testid: 'advance', 'data-to': next.id }),
  );
}

/**
 * Until the first check, the table may go back to the outline (a proposal).
 * @param {Ctx} ctx
 */
function returnBar(ctx) {
  const { view } = ctx;
  if (view.checked_any) return null;
  return h(
    'div',
    { class: 'advance-bar return-bar', 'data-key': 'return-bar' },
    h('p', { class: 'small muted' }, `No check made yet: the table can still go back to ${isTemporal(view) ? 'the story tree' : 'the outline'} and change it.`),
    proposeButton(ctx, 'return-to-outline', isTemporal(view) ? 'Propose going back to the story tree' : 'Propose going back to the outline', { motion: 'return_to_outline' }, { class: 'ghost', testid: 'propose-return' }),
  );
}

// ---------------------------------------------------------------- the prophecy

// ---------------------------------------------------------------- players, safety, log

/**
 * @param {Ctx} ctx
 */
function logSection(ctx) {
  const { ui } = ctx;
  const entries = ctx.log.filter((e) => ui.holdLogFrom === null || e.seq < ui.holdLogFrom);
  return logPanel(ctx, entries, (e) => logText(ctx.view, e));
}

/**
 * A log line as it reads now: a scene, object or aspect it names shows by its current text as
 * the view has it (a scene's objective and an aspect quoted), so a later flag hides it in the
 * log too; a flagged or removed one by the words the server gave (its level, its kind).
 * @param {View} view
 * @param {import('../common/messages').LogEntry} e
 */
function logText(view, e) {
  if (!Array.isArray(e.parts)) return e.text;
  return e.parts.map((p) => {
    if (typeof p === 'string') return p;
    if ('scene' in p) {
      const scene = sceneById(view, p.scene);
      const shown = scene && !scene.objective_flagged && scene.objective;
      return shown ? h('q', { class: 'log-ref', 'data-scene-id': p.scene }, shown) : p.text;
    }
    if ('aspect' in p) {
      const found = aspectById(view, p.aspect);
      const shown = found && !found.aspect.flagged && found.aspect.text;
      return shown ? h('q', { class: 'log-ref' }, shown) : p.text;
    }
    const object = objectById(view, p.object);
    const shown = object && !object.name_flagged && object.name;
    return shown ? h('strong', { class: 'log-ref' }, shown) : p.text;
  });
}

// ---------------------------------------------------------------- the end
