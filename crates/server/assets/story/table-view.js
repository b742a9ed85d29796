// The table page: header, banners, players, safety, the prophecy, and the sections of each
// phase. Renders the server's view as it is; nothing here decides what the rules allow.

import { h, paragraphs } from '../common/dom.js';
import { tagged, showOnly, tabBar, toasts, topbar, banners, pageFooter, logPanel } from '../common/shell.js';
import { form, submit, msg, input, textarea, select, labelled, button, actionButton } from '../common/controls.js';
import { rulesHelp } from '../common/rules-help.js';
import { STORY_HELP, TEMPORAL_HELP } from './phase-help.js';
import { flagButton, flagged, flagKey } from './flags.js';
import { toggleEditor, editing } from './editors.js';
import { objectName, objectById, sceneById, playerById, objective } from './lookups.js';
import { d66 } from './dice.js';
import { charactersSection, objectsSection } from './cards.js';
import { outlineSection, scenePanel, flashbackSection, longTermSection } from './scenes.js';
import {
  proposalBar, proposeButton, openProposal, pausedBanner, tableStrip, moderatorPanel, questionCard,
  diceSetting, isTemporal,
} from './tools.js';

const phaseId = (view) => view.phase && view.phase.id;

/** A title for the table: the view has none of its own, so the source of its prophecy. */
export function tableTitle(view) {
  if (view.title) return view.title;
  const src = view.prophecy && view.prophecy.source;
  if (src && src.kind === 'module' && src.title) return src.title;
  if (src && src.kind === 'catastrophe' && src.world) return src.world;
  const creator = playerById(view, view.creator);
  return creator ? `${creator.name}’s table` : 'A Prophecy table';
}

export function renderTable(ctx) {
  const { view } = ctx;
  const phase = phaseId(view);
  const tab = currentTab(ctx);
  return [
    header(ctx, tab),
    storyBanners(ctx),
    showOnly(
      h(
        'div',
        { class: 'layout', 'data-key': 'layout', testid: 'layout' },
        h('main', { id: 'main', class: 'main-col', tabindex: -1, 'data-key': 'main' }, tagged([warnings(view), questionCard(ctx), moderatorPanel(ctx)], 'now'), phaseContent(ctx, phase)),
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
 * On a narrow screen (common/shell.js) the story game's views: what the table does now (the phase's
 * work: the scene being played in the story), the outline, the characters, and the table
 * itself (players, safety, log, the prophecy).
 */
const NOW_LABELS = { prophecy: 'Prophecy', characters: 'Characters', outline: 'Outline', story: 'Scene', ended: 'The end' };

/** The views this phase has: the phase's own work is "now", so no other view repeats it. */
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

function currentTab(ctx) {
  const tabs = tabsOf(ctx.view);
  return tabs.some((t) => t.id === ctx.ui.tab) ? ctx.ui.tab : 'now';
}

function storyTabBar(ctx, tab) {
  const { ui } = ctx;
  const marks = { table: (ctx.log || []).filter((e) => e.seq > (ui.seenLogSeq || 0)).length };
  for (const id of ui.attention) marks[id] = true;
  return tabBar(tabsOf(ctx.view), tab, marks, (id) => ctx.showTab(id));
}

function header(ctx, tab) {
  const { view } = ctx;
  const r = view.ruleset || {};
  const p = view.phase || {};
  // On a phone the invitation and the exports wait in the Table view, except while the table
  // receives its prophecy (when the others are still being invited).
  return topbar(ctx, {
    title: tableTitle(view),
    meta: [
      h('span', { class: 'badge ruleset', testid: 'ruleset' }, r.name || r.id || ''),
      h('span', { class: 'badge phase', testid: 'phase', 'data-phase': p.id }, p.name || p.id || ''),
      r.temporal && p.act ? h('span', { class: 'badge act', testid: 'act' }, `Act: ${p.act}`) : null,
    ],
    compact: tab !== 'table' && p.id !== 'prophecy',
    exportsLabel: 'Export the story',
    gameFile: {
      download: 'prophecy-game.jsonl',
      title: 'The whole game, one event per line (flagged text left out): `prophecy export prophecy-game.jsonl` turns it into Markdown, a tree or a diagram.',
    },
  });
}

function storyBanners(ctx) {
  const { view } = ctx;
  return banners(ctx, pausedBanner(ctx, flaggedTexts(view)), proposalBar(ctx), view.phase && view.phase.id !== 'ended' ? tableStrip(ctx) : null);
}

function footer() {
  return pageFooter(
    h('a', { href: '/rulings', target: '_blank', rel: 'noopener', testid: 'rulings-link' }, 'Rulings'),
    ' · ',
    h('span', null, 'Safety tools at every table: lines, a flag on every text, and the X-card.'),
  );
}

/** Advice from the rules (player count, outline length): shown, never enforced. */
function warnings(view) {
  return (view.warnings || []).length
    ? h('ul', { class: 'warnings', testid: 'warnings', 'data-key': 'warnings', 'aria-label': 'Advice' }, view.warnings.map((w, i) => h('li', { 'data-key': 'w' + i }, w)))
    : null;
}

/** Every flagged text in the view, to list under the paused banner. */
function flaggedTexts(view) {
  const out = [];
  if (view.prophecy && view.prophecy.flagged) out.push({ target: { text: 'prophecy' }, label: isTemporal(view) ? 'the warning' : 'the prophecy' });
  if (view.question_flagged) out.push({ target: { text: 'question' }, label: 'the moderator’s question' });
  for (const o of view.objects || []) {
    if (o.name_flagged) out.push({ target: { text: 'object_name', id: o.id }, label: `a ${o.kind === 'character' ? 'character' : 'object'}’s name` });
    for (const a of o.aspects || []) {
      if (a.flagged) out.push({ target: { text: 'aspect', id: a.id }, label: `an aspect of ${objectName(o)}` });
    }
  }
  for (const s of view.scenes || []) {
    if (s.objective_flagged) out.push({ target: { text: 'objective', id: s.id }, label: 'a scene’s objective', scene: s.id });
    if (s.setting_flagged) out.push({ target: { text: 'setting', id: s.id }, label: 'a scene’s setting', scene: s.id });
    if (s.narration_flagged) out.push({ target: { text: 'narration', id: s.id }, label: 'a scene’s narration', scene: s.id });
    for (const p of s.pairs || []) {
      if (p.justification_flagged) out.push({ target: { text: 'justification', id: p.id }, label: 'a pair’s justification', scene: s.id });
    }
  }
  if (view.flashback_flagged) out.push({ target: { text: 'flashback' }, label: 'the flashback' });
  if (view.long_term_effects_flagged) out.push({ target: { text: 'long_term_effects' }, label: isTemporal(view) ? 'the flashforward' : 'the long-term effects' });
  return out.map((f) => ({ ...f, key: flagKey(f.target) }));
}

function phaseContent(ctx, phase) {
  const { view } = ctx;
  const temporal = isTemporal(view);
  const inProgress = view.in_progress !== null && view.in_progress !== undefined ? sceneById(view, view.in_progress) : null;
  const finale = view.finale !== null && view.finale !== undefined ? sceneById(view, view.finale) : null;
  const finaleDone = finale && finale.status === 'performed';
  // Temporal Mechanics needs no warning: once past Choose a World, a table without one shows none.
  const warning = temporal && !view.prophecy ? null : tagged(prophecySection(ctx), 'table');
  const now = (...nodes) => tagged(nodes, 'now');
  const cast = (tabs) => tagged([charactersSection(ctx), objectsSection(ctx)], tabs);
  switch (phase) {
    case 'prophecy':
      return [now(phaseIntro(view, ctx), prophecySection(ctx), advanceBar(ctx))];
    case 'characters':
      return [now(phaseIntro(view, ctx)), cast('now'), now(advanceBar(ctx)), warning];
    case 'outline':
      return [now(phaseIntro(view, ctx), temporal ? flashbackSection(ctx) : null, outlineSection(ctx), advanceBar(ctx)), cast('characters'), warning];
    case 'story':
      return [
        // What to do now comes first (the scene being played, or the next to choose): nothing
        // to scroll past to reach it; the phase's explanation follows.
        now(finaleMoment(ctx), inProgress ? scenePanel(ctx, inProgress) : nextSceneHint(ctx), phaseIntro(view, ctx), finaleDone ? longTermSection(ctx) : null),
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

const INTROS = {
  prophecy: 'Receive the prophecy: roll on a world’s catastrophe table, pick a module, or write your own. Then propose moving on; every player agrees.',
  characters: 'Each player creates a character and gives it one aspect in each of the five categories. Anyone can add people, places and things.',
  outline: 'Sketch the Finale, then precursors: scenes that make their parent easier. Keep it to about eight scenes.',
  story: 'Perform the scenes, precursors before their parents, the Finale last. Each scene: investigate, match aspects, propose the check, then tell what happened.',
};

const TEMPORAL_INTROS = {
  prophecy: 'Choose a World is optional: roll on a world’s table or pick a scenario for a warning from the future, as inspiration — or skip it and create the PCs.',
  characters: 'Each player creates a PC with one trait in each of the five categories. NPCs, people, places and things belong to everyone.',
  outline: 'Setup, in the future: first the flashback (timed), the catastrophe as it happened; then the story tree, from the climactic scene down.',
  story: 'Confrontation, in the present: play the story scenes — investigate, influence (the check), interpret — the climactic scene last; then the flashforward.',
};

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

/** Moving on is a proposal: every player agrees. */
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

/** Until the first check, the table may go back to the outline (a proposal). */
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

function prophecySection(ctx) {
  const { view } = ctx;
  const phase = phaseId(view);
  const p = view.prophecy;
  const choosing = phase === 'prophecy';
  const temporal = isTemporal(view);
  const title = temporal ? (choosing ? 'Choose a World (optional)' : 'The warning') : 'The Prophecy';
  return h(
    'section',
    { class: ['panel', 'prophecy', choosing ? 'choosing' : 'settled'], id: 'prophecy', 'aria-labelledby': 'prophecy-h', 'data-key': 'prophecy' },
    h('h2', { id: 'prophecy-h' }, title),
    p
      ? prophecyCard(ctx, p)
      : h('p', { class: 'muted', testid: 'no-prophecy' }, temporal
          ? 'No warning yet. Roll on a world’s table or pick a scenario for a warning from the future — or skip it: it is only inspiration.'
          : 'No prophecy yet. Roll on a world’s catastrophe table, pick a module, or write your own.'),
    choosing ? prophecyChoices(ctx, !!p) : null,
  );
}

function sourceLine(ctx, src) {
  if (!src) return null;
  if (src.kind === 'catastrophe') {
    return h(
      'p',
      { class: 'source', testid: 'prophecy-source', 'data-kind': 'catastrophe' },
      h('span', null, `Rolled d66 on the catastrophe table of ${src.world}: `),
      d66(src.roll, ctx.ui.freshRoll),
    );
  }
  if (src.kind === 'module') return h('p', { class: 'source', testid: 'prophecy-source', 'data-kind': 'module' }, `From the ${isTemporal(ctx.view) ? 'scenario' : 'module'} “${src.title}” — read it aloud:`);
  return h('p', { class: 'source', testid: 'prophecy-source', 'data-kind': 'written' }, 'Written by the table.');
}

function prophecyCard(ctx, p) {
  const word = isTemporal(ctx.view) ? 'warning' : 'prophecy';
  const key = 'edit-prophecy';
  const target = { text: 'prophecy' };
  const isFlagged = p.flagged || p.text === null;
  // A flagged prophecy can be replaced in any phase (or play would stay paused for good).
  const canWrite = p.editable || (isFlagged && phaseId(ctx.view) !== 'ended');
  const editor = editing(ctx, key) && canWrite;
  return h(
    'div',
    { class: 'prophecy-card' },
    sourceLine(ctx, p.source),
    editor
      ? form(
          ctx,
          key,
          {
            class: 'prophecy-form',
            onsubmit: (f) => ctx.act(key, { action: 'write_prophecy', text: f.elements.text.value }, { onDone: () => toggleEditor(ctx, key, false) }),
          },
          labelled('prophecy-edit', `The ${word}`, textarea('prophecy-edit', 'text', p.text || '', { testid: 'prophecy-edit', rows: 8, maxlength: 4000 })),
          h('div', { class: 'row' }, submit(ctx, key, `Save the ${word}`, 'save-prophecy'), button('Cancel', () => toggleEditor(ctx, key, false), { class: 'ghost' })),
        )
      : isFlagged
        ? flagged(ctx, target, canWrite ? { onclick: () => toggleEditor(ctx, key, true) } : null)
        : h('blockquote', { class: 'read-aloud', testid: 'prophecy-text' }, paragraphs(p.text)),
    !editor
      ? h(
          'div',
          { class: 'row tools' },
          !isFlagged ? flagButton(ctx, target, `the ${word}`) : null,
          p.editable && !isFlagged ? button(`Edit the ${word}`, () => toggleEditor(ctx, key, true), { class: 'ghost small', testid: 'edit-prophecy' }) : null,
          isFlagged && !canWrite ? h('span', { class: 'small muted' }, `The ${word} can no longer be changed.`) : null,
        )
      : null,
  );
}

function prophecyChoices(ctx, have) {
  const { view, ui } = ctx;
  const temporal = view.ruleset && view.ruleset.temporal;
  const sortFor = (list) => [...list].sort((a, b) => (temporal ? Number(b.temporal) - Number(a.temporal) : Number(a.temporal) - Number(b.temporal)));
  const worlds = sortFor((ctx.content && ctx.content.worlds) || []);
  const modules = sortFor((ctx.content && ctx.content.modules) || []);
  const world = worlds.find((w) => w.slug === ui.world) || worlds[0];
  const mod = modules.find((m) => m.slug === ui.module) || modules[0];
  const rollKey = 'roll-d66';
  const modKey = 'pick-module';
  const writeKey = 'write-prophecy';
  const tmLabel = (x) => (x.temporal ? ' — Temporal Mechanics' : '');
  const word = temporal ? 'warning' : 'prophecy';
  return h(
    'div',
    { class: 'choices', 'data-key': 'choices' },
    have ? h('p', { class: 'small muted' }, 'Not this one? Choose again below, or edit it, then propose moving on.') : null,
    h(
      'div',
      { class: 'choice-grid' },
      form(
        ctx,
        rollKey,
        { class: 'choice', onsubmit: (f) => ctx.act(rollKey, { action: 'roll_catastrophe', world: f.elements.world.value }) },
        h('h3', null, 'Roll on a world’s table'),
        worlds.length
          ? [
              labelled('world-select', 'World', select('world-select', 'world', worlds.map((w) => ({ value: w.slug, label: `${w.name} (${w.genre})${tmLabel(w)}` })), world && world.slug, {
                testid: 'world-select',
                onchange: (e) => {
                  ui.world = e.target.value;
                  ctx.rerender();
                },
              })),
              world ? h('p', { class: 'summary', testid: 'world-summary' }, world.summary) : null,
              submit(ctx, rollKey, 'Roll d66', 'roll-d66'),
              h(
                'details',
                { class: 'all-worlds', open: ui.open.has('all-worlds'), 'data-open-key': 'all-worlds', ontoggle: (e) => ctx.toggled('all-worlds', e.target.open) },
                h('summary', null, 'All worlds'),
                h('dl', null, worlds.map((w) => [h('dt', { 'data-key': 't' + w.slug }, `${w.name} (${w.genre})${tmLabel(w)}`), h('dd', { 'data-key': 'd' + w.slug }, w.summary)])),
              ),
            ]
          : h('p', { class: 'muted' }, ctx.content ? 'No worlds.' : 'Loading the worlds…'),
      ),
      form(
        ctx,
        modKey,
        { class: 'choice', onsubmit: (f) => ctx.act(modKey, { action: 'pick_module', module: f.elements.module.value }) },
        h('h3', null, temporal ? 'Pick a scenario' : 'Pick a module'),
        modules.length
          ? [
              labelled('module-select', temporal ? 'Scenario' : 'Module', select('module-select', 'module', modules.map((m) => ({ value: m.slug, label: `${m.title}${tmLabel(m)}` })), mod && mod.slug, {
                testid: 'module-select',
                onchange: (e) => {
                  ui.module = e.target.value;
                  ctx.rerender();
                },
              })),
              mod ? h('p', { class: 'summary', testid: 'module-summary' }, mod.summary) : null,
              mod && mod.prophecy
                ? h(
                    'details',
                    { class: 'all-worlds', open: ui.open.has('module-text'), ontoggle: (e) => ctx.toggled('module-text', e.target.open) },
                    h('summary', null, `Read the ${word}`),
                    h('div', { class: 'module-text', testid: 'module-text' }, paragraphs(mod.prophecy)),
                  )
                : null,
              submit(ctx, modKey, `Use this ${word}`, 'pick-module'),
            ]
          : h('p', { class: 'muted' }, ctx.content ? 'No modules.' : 'Loading the modules…'),
      ),
      form(
        ctx,
        writeKey,
        { class: 'choice', onsubmit: (f) => ctx.act(writeKey, { action: 'write_prophecy', text: f.elements.text.value }, { reset: true }) },
        h('h3', null, 'Write your own'),
        labelled('prophecy-input', temporal ? 'The warning sent back from the future' : 'The catastrophe, and the sign that it is coming', textarea('prophecy-input', 'text', '', { testid: 'prophecy-input', rows: 5, maxlength: 4000 })),
        submit(ctx, writeKey, `Use this ${word}`, 'write-prophecy'),
      ),
    ),
  );
}

// ---------------------------------------------------------------- players, safety, log

function playersSection(ctx) {
  const { view, online } = ctx;
  const players = (view.players || []).filter((p) => !p.removed);
  const creator = view.creator === view.you;
  const r = view.ruleset || {};
  return h(
    'section',
    { class: ['panel', 'players', ctx.connected ? null : 'stale'], id: 'players', 'aria-labelledby': 'players-h', 'data-key': 'players' },
    h('h2', { id: 'players-h' }, 'Players'),
    ctx.connected ? null : h('p', { class: 'small muted' }, 'Who is online is unknown until the connection is back.'),
    h(
      'ul',
      { class: 'player-list' },
      players.map((p) => {
        const on = online.has(p.id);
        const character = p.character !== null && p.character !== undefined ? objectById(view, p.character) : null;
        const isMod = p.moderator || view.moderator === p.id;
        const rmKey = `remove-player:${p.id}`;
        return h(
          'li',
          { class: ['player', on ? 'online' : 'offline'], testid: 'player', 'data-player-id': p.id, 'data-online': String(on), 'data-key': 'p' + p.id },
          h('span', { class: 'dot', role: 'img', 'aria-label': on ? 'online' : 'offline', title: on ? 'online' : 'offline' }),
          h('span', { class: 'player-name' }, p.name),
          p.id === view.you ? h('span', { class: 'tag' }, 'you') : null,
          p.id === view.creator ? h('span', { class: 'tag' }, 'host') : null,
          isMod ? h('span', { class: 'tag moderator', testid: 'moderator-tag' }, 'moderator') : null,
          creator && p.id !== view.you
            ? ctx.ui.confirm === rmKey
              ? h(
                  'span',
                  { class: 'confirm', role: 'group', 'aria-label': `Confirm removing ${p.name}` },
                  actionButton(ctx, rmKey, `Remove ${p.name}`, { action: 'remove_player', player: p.id }, { class: 'danger small', testid: 'confirm-remove-player', onDone: () => { ctx.ui.confirm = null; } }),
                  button('Keep', () => { ctx.ui.confirm = null; ctx.rerender(); }, { class: 'ghost small' }),
                )
              : h('button', { type: 'button', class: 'icon remove', testid: 'remove-player', 'aria-label': `Remove ${p.name} from the table`, title: 'Remove from the table', onclick: () => { ctx.ui.confirm = rmKey; ctx.rerender(); } }, h('span', { 'aria-hidden': 'true' }, '×'))
            : null,
          character ? h('span', { class: 'player-character small muted' }, objectName(character)) : null,
        );
      }),
    ),
    r.moderator_allowed ? moderatorControls(ctx, players) : null,
    view.phase && view.phase.id !== 'ended' ? diceSetting(ctx) : null,
  );
}

/**
 * Edition 1.1's moderator is the table's choice: anyone proposes someone (or no moderator),
 * and everyone agrees, whoever is named included (they give up their vote and play no
 * character).
 */
function moderatorControls(ctx, players) {
  const { view } = ctx;
  const mod = view.moderator !== null && view.moderator !== undefined ? playerById(view, view.moderator) : null;
  const key = 'choose-moderator';
  const open = openProposal(view, 'choose_moderator');
  const options = [{ value: '', label: 'No moderator' }].concat(players.map((p) => ({ value: p.id, label: p.name + (p.character !== null && p.character !== undefined ? ' (has a character)' : '') })));
  return h(
    'div',
    { class: 'moderator-choice', 'data-key': 'moderator-choice' },
    h('p', { class: 'small muted', testid: 'moderator' }, mod ? `Moderator: ${mod.name} (asks questions, keeps time, never narrates).` : 'No moderator. A moderator (optional) asks questions and keeps time, and plays no character.'),
    open
      ? h('p', { class: 'small', testid: 'moderator-proposed' }, 'The table is deciding on the moderator: see the proposal at the top.')
      : form(
          ctx,
          key,
          {
            class: 'inline-form moderator-form',
            onsubmit: (f) => {
              const v = f.elements.player.value;
              ctx.act(key, { action: 'propose', motion: { motion: 'choose_moderator', player: v === '' ? null : Number(v) } });
            },
          },
          labelled('moderator-select', mod ? 'Propose another moderator, or none' : 'Propose a moderator', select('moderator-select', 'player', options, '', { testid: 'moderator-select' })),
          submit(ctx, key, 'Propose', 'choose-moderator', { class: 'secondary small', disabled: !!view.proposal, title: view.proposal ? 'Another proposal is open: settle it first.' : null }),
          h('p', { class: 'small muted' }, 'Everyone agrees first, whoever is named too.'),
        ),
  );
}

function safetySection(ctx) {
  const { view } = ctx;
  const key = 'add-line';
  const lines = view.lines || [];
  const mine = new Set((ctx.own && ctx.own.lines) || []);
  return h(
    'section',
    { class: 'panel safety', id: 'safety', 'aria-labelledby': 'safety-h', 'data-key': 'safety' },
    h('h2', { id: 'safety-h' }, 'Safety'),
    h(
      'p',
      { class: 'small muted' },
      'Lines: content the table leaves out (anonymous; only whoever drew a line can lift it). Anyone can flag a text with ',
      h('span', { 'aria-hidden': 'true' }, '⚑'),
      ' (no reason needed): it is hidden and play pauses until someone replaces it. For anything spoken or shown, use ',
      h('strong', null, 'Pause (X-card)'),
      ' at the top: play stops, no one asks why.',
    ),
    lines.length
      ? h(
          'ul',
          { class: 'lines', testid: 'lines' },
          lines.map((l) => {
            const rk = `remove-line:${l.id}`;
            const own = mine.has(l.id);
            return h(
              'li',
              { class: ['line', own ? 'own' : null], testid: 'line', 'data-line-id': l.id, 'data-own': String(own), 'data-key': 'l' + l.id },
              h('span', { class: 'line-text' }, l.text),
              own ? h('span', { class: 'tag' }, 'yours') : null,
              own
                ? h('button', { type: 'button', class: 'btn ghost small', testid: 'remove-line', 'aria-label': `Lift your line “${l.text}”`, title: 'Lift this line (only you can)', disabled: ctx.ui.pending.has(rk), onclick: () => ctx.act(rk, { action: 'remove_line', line: l.id }) }, 'Lift')
                : null,
              msg(ctx, rk),
            );
          }),
        )
      : h('p', { class: 'small muted' }, 'No lines yet.'),
    form(
      ctx,
      key,
      { class: 'inline-form', onsubmit: (f) => ctx.act(key, { action: 'add_line', text: f.elements.text.value }, { reset: true }) },
      labelled('line-text', 'Add a line', input('line-text', 'text', { testid: 'line-text', maxlength: 200, placeholder: 'e.g. spiders' })),
      submit(ctx, key, 'Add', 'add-line', { class: 'secondary small' }),
    ),
    h('p', { class: 'small' }, h('a', { href: '/rulings', target: '_blank', rel: 'noopener', testid: 'rulings-safety' }, 'Rulings'), ': how the table settles what the rules leave open.'),
  );
}

function logSection(ctx) {
  const { ui } = ctx;
  const entries = ctx.log.filter((e) => ui.holdLogFrom === null || e.seq < ui.holdLogFrom);
  return logPanel(ctx, entries, (e) => logText(ctx.view, e));
}

/**
 * A log line as it reads now: a scene it names shows by its objective as the view has it
 * (quoted), so a later flag hides it in the log too; a flagged or removed scene by its level.
 */
function logText(view, e) {
  if (!Array.isArray(e.parts)) return e.text;
  return e.parts.map((p) => {
    if (typeof p === 'string') return p;
    const scene = p && p.scene !== undefined ? sceneById(view, p.scene) : null;
    const shown = scene && !scene.objective_flagged && scene.objective;
    return shown ? h('q', { class: 'log-ref', 'data-scene-id': p.scene }, shown) : (p && p.text) || 'a scene';
  });
}

// ---------------------------------------------------------------- the end

function theEnd(ctx) {
  return h(
    'section',
    { class: 'panel the-end', 'data-key': 'the-end', testid: 'the-end' },
    h('h2', null, 'The story is told'),
    h('p', null, 'Read it back below, or keep it: ', h('a', { href: `/t/${ctx.token}/export.md`, download: true }, 'download it as Markdown'), ' or open the ', h('a', { href: `/t/${ctx.token}/print`, target: '_blank', rel: 'noopener' }, 'printable page'), '.'),
    shareBlock(ctx),
  );
}

/**
 * Publishing the story: a read-only page at a link of its own, for people who were not at the
 * table. It gives no seat and no way to act. Publishing is the table's choice (a proposal);
 * any player withdraws it at once, and nobody is told who.
 */
function shareBlock(ctx) {
  const invite = ctx.invite;
  if (!invite) return null;
  const link = invite.share;
  if (!link) {
    const deciding = openProposal(ctx.view, 'publish');
    return h(
      'div',
      { class: 'share', testid: 'share', 'data-key': 'share' },
      h('p', { class: 'small' }, 'Share the story with people who were not here: a page of its own, read-only, at a link nobody can guess. The table agrees first. The lines and flagged texts stay out, and any player can withdraw the page later.'),
      deciding
        ? h('p', { class: 'small', testid: 'publish-proposed' }, 'The table is deciding whether to publish: see the proposal at the top.')
        : proposeButton(ctx, 'publish', 'Propose publishing a read-only page', { motion: 'publish' }, { class: 'secondary', testid: 'publish-story' }),
    );
  }
  const confirming = ctx.ui.confirm === 'withdraw-share';
  return h(
    'div',
    { class: 'share', testid: 'share', 'data-key': 'share' },
    h('label', { for: 'share-link' }, 'The story’s page'),
    h(
      'div',
      { class: 'row' },
      h('input', { id: 'share-link', type: 'text', readonly: true, value: link, testid: 'share-link', 'data-key': 'share-link', onfocus: (e) => e.target.select() }),
      h('a', { class: 'btn secondary', href: link, target: '_blank', rel: 'noopener', testid: 'open-shared' }, 'Open'),
    ),
    confirming
      ? h(
          'span',
          { class: 'confirm', role: 'group', 'aria-label': 'Confirm withdrawing the page' },
          button('Withdraw the page', () => ctx.changeShare('withdraw'), { class: 'danger small', testid: 'confirm-withdraw-story' }),
          button('Keep it', () => { ctx.ui.confirm = null; ctx.rerender(); }, { class: 'ghost small' }),
        )
      : button('Withdraw the page', () => { ctx.ui.confirm = 'withdraw-share'; ctx.rerender(); }, { class: 'ghost small', testid: 'withdraw-story' }),
  );
}

/**
 * The moment the Finale is decided: its outcome in large type, what it means, and a recap of
 * the scenes that led there (shown from the Finale's check to the end of the game).
 */
function finaleMoment(ctx) {
  const { view } = ctx;
  const finale = view.finale !== null && view.finale !== undefined ? sceneById(view, view.finale) : null;
  if (!finale || !finale.check) return null;
  const won = finale.check.outcome === 'success';
  const temporal = isTemporal(view);
  const performed = (view.scenes || []).filter((s) => s.status === 'performed' && s.check && s.id !== finale.id);
  performed.sort((a, b) => (b.depth ?? 0) - (a.depth ?? 0) || a.id - b.id);
  const succeeded = performed.filter((s) => s.check.outcome === 'success').length;
  const hits = finale.check.hits;
  return h(
    'section',
    { class: ['panel', 'finale-moment', won ? 'success' : 'failure'], testid: 'finale-moment', 'data-outcome': finale.check.outcome, 'data-key': 'finale-moment', 'aria-labelledby': 'finale-moment-h' },
    h('p', { class: 'eyebrow' }, temporal ? 'The climactic scene' : 'The Finale'),
    h('h2', { id: 'finale-moment-h' }, won ? (temporal ? 'The future is saved' : 'The heroes defy the prophecy') : temporal ? 'The future is lost' : 'The prophecy comes to pass'),
    h('p', { class: 'finale-objective' }, objective(finale)),
    h('p', { class: 'finale-roll' }, `${hits} ${hits === 1 ? 'hit' : 'hits'} against difficulty ${finale.check.difficulty}: ${won ? 'success' : 'failure'}.`),
    performed.length
      ? h(
          'div',
          { class: 'recap', testid: 'recap' },
          h('h3', null, `The road here: ${succeeded} of ${performed.length} ${performed.length === 1 ? 'scene' : 'scenes'} succeeded`),
          h(
            'ol',
            null,
            performed.map((s) => h('li', { class: s.check.outcome, 'data-key': 'r' + s.id }, h('span', { class: 'recap-mark', 'aria-hidden': 'true' }, s.check.outcome === 'success' ? '✓' : '✗'), ` ${objective(s)} — ${s.check.outcome}`)),
          ),
        )
      : null,
  );
}

function storySoFar(ctx) {
  const { view } = ctx;
  const performed = (view.scenes || []).filter((s) => s.status === 'performed');
  // Order: precursors before parents (the order they could be played), deepest first.
  performed.sort((a, b) => (b.depth ?? 0) - (a.depth ?? 0) || a.id - b.id);
  return h(
    'section',
    { class: 'panel story', 'data-key': 'story', 'aria-labelledby': 'story-h' },
    h('h2', { id: 'story-h' }, 'The scenes'),
    performed.length
      ? h(
          'ol',
          { class: 'scene-list' },
          performed.map((s) =>
            h(
              'li',
              { 'data-key': 's' + s.id },
              h('h3', null, `${s.level || 'Scene'}: `, s.objective_flagged ? '(flagged objective)' : s.objective),
              s.check ? h('p', { class: ['outcome', s.check.outcome] }, `${s.check.hits} ${s.check.hits === 1 ? 'hit' : 'hits'} against difficulty ${s.check.difficulty}: ${s.check.outcome}`) : null,
              s.narration ? h('blockquote', null, paragraphs(s.narration)) : s.narration_flagged ? h('p', { class: 'flagged' }, 'flagged — hidden until replaced') : null,
            ),
          ),
        )
      : h('p', { class: 'muted' }, 'No scene was performed.'),
  );
}
