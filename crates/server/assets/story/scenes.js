// Scenes: the outline section (tree, the selected scene and what can be done with it), the
// scene being performed (setting, pairs and their acceptance, pool, odds, the check proposal,
// real dice, narration), the flashback and the long-term effects (the flashforward).

import { h, paragraphs } from '../common/dom.js';
import {
  form, submit, msg, input, textarea, select, labelled, button, actionButton, pending, fieldValue,
} from '../common/controls.js';
import { flagButton, flagged } from './flags.js';
import { toggleEditor, editing } from './editors.js';
import { percent, outlineTree, statusText } from './outline.js';
import {
  objectById, sceneById, aspectById, aspectText, objectName, objective, playerById, isTemporal,
  phaseId,
} from './lookups.js';
import { rollView, facesForm } from './dice.js';
import { card, createObjectForm, terms } from './cards.js';
import { proposeButton, openProposal } from './proposals.js';

/**
 * @typedef {import('./page-types').StoryContext} Ctx
 * @typedef {import('../common/page-types').Seen<import('./page-types').PageView>} View
 * @typedef {import('./view-types').Scene} Scene
 * @typedef {import('./page-types').PageObject} StoryObject
 * @typedef {import('./view-types').Pair} Pair
 * @typedef {import('./page-types').FlagTarget} FlagTarget
 * @typedef {import('../common/page-types').Action} Action
 */

/**
 * A flagged text can be replaced in any phase but the end (the server allows it).
 * @param {View} view
 */
function canReplace(view) {
  return phaseId(view) !== 'ended';
}

/**
 * @param {View} view
 */
function moderatorIsMe(view) {
  return view.moderator !== null && view.moderator !== undefined && view.moderator === view.you;
}

/**
 * The outline: the tree, sketching the Finale, the selected scene.
 * @param {Ctx} ctx
 */
export function outlineSection(ctx) {
  const { view, ui } = ctx;
  const phase = phaseId(view);
  const scenes = view.scenes || [];
  const selected = ui.selected !== null ? sceneById(view, ui.selected) : null;
  return h(
    'section',
    { class: 'panel outline', id: 'outline', 'aria-labelledby': 'outline-h', 'data-key': 'outline' },
    h('h2', { id: 'outline-h' }, isTemporal(view) ? 'The story tree' : 'The outline'),
    phase === 'outline' && (view.finale === null || view.finale === undefined) ? sketchFinaleForm(ctx) : null,
    phase === 'outline' && isTemporal(view) && view.finale !== null && view.finale !== undefined && scenes.length < 2
      ? h('p', { class: 'small muted', testid: 'tree-too-small' }, 'A story tree is the climactic scene and at least one other scene below it.')
      : null,
    outlineTree(view, ui, (id) => {
      ui.selected = ui.selected === id ? null : id;
      ui.scrollToDetail = ui.selected !== null;
      ctx.rerender();
    }),
    scenes.length
      ? h(
          'p',
          { class: 'legend small' },
          'Select a scene (click, or Tab then Enter) to see it. ',
          h('span', { class: 'legend-die', 'aria-hidden': 'true' }),
          isTemporal(view)
            ? ' a reward die from a successful scene below; the percentage is the chance of success with the pairs proposed so far.'
            : ' a reward die from a successful precursor; the percentage is the chance of success with the pairs proposed so far.',
        )
      : null,
    selected && !(selected.status === 'in_progress' && phase === 'story') ? sceneDetail(ctx, selected) : null,
    selected && selected.status === 'in_progress' && phase === 'story'
      ? h('p', { class: 'muted' }, 'This scene is being played now. ', button('Go to the scene', () => ctx.showScene(), { class: 'ghost small', testid: 'go-to-scene' }))
      : null,
  );
}

/**
 * @param {Ctx} ctx
 */
function sketchFinaleForm(ctx) {
  const key = 'sketch-finale';
  const { view } = ctx;
  const d = view.ruleset ? view.ruleset.finale_difficulty : null;
  const temporal = isTemporal(view);
  if (moderatorIsMe(view)) return h('p', { class: 'muted' }, `The players sketch ${temporal ? 'the story tree' : 'the outline'}; you ask questions.`);
  // Temporal Mechanics: the flashback comes first, then the story tree.
  if (temporal && !view.flashback && !view.flashback_flagged) {
    return h('p', { class: 'muted', testid: 'flashback-first' }, 'Narrate the flashback first (above); then sketch the climactic scene.');
  }
  return form(
    ctx,
    key,
    {
      class: 'sketch-finale',
      onsubmit: (f) => {
        // Selected as soon as it shows up in a view (which may come before the `done`).
        ctx.ui.selectFinale = true;
        ctx.act(key, { action: 'sketch_finale', objective: fieldValue(f, 'objective') }, {
          reset: true,
          onRefused: () => {
            ctx.ui.selectFinale = false;
          },
        });
      },
    },
    temporal
      ? h('p', null, `Start with the climactic scene${d ? ` (difficulty ${d})` : ''}: how will the PCs change what happened?`)
      : h('p', null, `Start with the Finale${d ? ` (difficulty ${d})` : ''}: how will the characters prevent the catastrophe?`),
    labelled('finale-objective', temporal ? 'The climactic scene’s objective' : 'The Finale’s objective', textarea('finale-objective', 'objective', '', { testid: 'finale-objective', rows: 2, maxlength: 300 })),
    submit(ctx, key, temporal ? 'Sketch the climactic scene' : 'Sketch the Finale', 'sketch-finale'),
  );
}

/**
 * Objective with its flag and editor.
 * @param {Ctx} ctx
 * @param {Scene} s
 * @param {boolean} canEdit
 */
function objectiveBlock(ctx, s, canEdit) {
  const key = `objective:${s.id}`;
  const target = /** @type {FlagTarget} */ ({ text: 'objective', id: s.id });
  const isFlagged = s.objective_flagged || s.objective === null;
  if (moderatorIsMe(ctx.view)) canEdit = false;
  if (isFlagged && canReplace(ctx.view)) canEdit = true;
  if (editing(ctx, key)) {
    return form(
      ctx,
      key,
      {
        class: 'objective-form',
        onsubmit: (f) => ctx.act(key, { action: 'edit_objective', scene: s.id, objective: fieldValue(f, 'objective') }, { onDone: () => toggleEditor(ctx, key, false) }),
      },
      labelled(`objective-${s.id}`, 'Objective', textarea(`objective-${s.id}`, 'objective', s.objective || '', { testid: 'objective-text', rows: 2, maxlength: 300 })),
      h('div', { class: 'row' }, submit(ctx, key, 'Save', 'save-objective'), button('Cancel', () => toggleEditor(ctx, key, false), { class: 'ghost' })),
    );
  }
  return h(
    'div',
    { class: 'objective' },
    isFlagged
      ? flagged(ctx, target, canEdit ? { onclick: () => toggleEditor(ctx, key, true) } : null)
      : h('p', { class: 'objective-text', testid: 'scene-objective' }, s.objective),
    !isFlagged ? flagButton(ctx, target, 'this objective') : null,
    canEdit && !isFlagged ? button('Edit', () => toggleEditor(ctx, key, true), { class: 'small ghost', testid: 'edit-objective' }) : null,
  );
}

/**
 * Time and place, with the flag and editor.
 * @param {Ctx} ctx
 * @param {Scene} s
 * @param {boolean} canEdit
 */
function settingBlock(ctx, s, canEdit) {
  const key = `setting:${s.id}`;
  const target = /** @type {FlagTarget} */ ({ text: 'setting', id: s.id });
  const isFlagged = s.setting_flagged || s.time === null || s.place === null;
  if (moderatorIsMe(ctx.view)) canEdit = false;
  if (isFlagged && canReplace(ctx.view)) canEdit = true;
  if (editing(ctx, key)) {
    return form(
      ctx,
      key,
      {
        class: 'setting-form',
        onsubmit: (f) => ctx.act(key, { action: 'set_setting', scene: s.id, time: fieldValue(f, 'time'), place: fieldValue(f, 'place') }, { onDone: () => toggleEditor(ctx, key, false) }),
      },
      h(
        'div',
        { class: 'row wrap' },
        labelled(`time-${s.id}`, 'Time', input(`time-${s.id}`, 'time', { value: s.time || '', testid: 'setting-time', maxlength: 120, placeholder: 'e.g. 2 a.m., the night of the storm' })),
        labelled(`place-${s.id}`, 'Place', input(`place-${s.id}`, 'place', { value: s.place || '', testid: 'setting-place', maxlength: 120, placeholder: 'e.g. the control room' })),
      ),
      h('div', { class: 'row' }, submit(ctx, key, 'Save', 'set-setting'), button('Cancel', () => toggleEditor(ctx, key, false), { class: 'ghost' })),
    );
  }
  const empty = !isFlagged && !s.time && !s.place;
  return h(
    'div',
    { class: 'setting' },
    h('span', { class: 'label' }, 'Setting: '),
    isFlagged
      ? flagged(ctx, target, canEdit ? { onclick: () => toggleEditor(ctx, key, true) } : null)
      : empty
        ? h('span', { class: 'muted' }, 'no time or place yet')
        : h(
            'span',
            { class: 'setting-text', testid: 'setting-text' },
            s.time ? h('span', { class: 'time' }, s.time) : null,
            s.time && s.place ? ' · ' : null,
            s.place ? h('span', { class: 'place' }, s.place) : null,
          ),
    !isFlagged && !empty ? flagButton(ctx, target, 'this setting') : null,
    canEdit && !isFlagged ? button(empty ? 'Set time and place' : 'Edit', () => toggleEditor(ctx, key, true), { class: 'small ghost', testid: 'edit-setting' }) : null,
  );
}

/**
 * Objects present, as chips; with a select to place another.
 * @param {Ctx} ctx
 * @param {Scene} s
 * @param {boolean} canEdit
 */
function objectsPresent(ctx, s, canEdit) {
  const { view } = ctx;
  if (moderatorIsMe(view)) canEdit = false;
  const ids = s.objects || [];
  const placeKey = `place:${s.id}`;
  const candidates = (view.objects || []).filter((o) => !ids.includes(o.id));
  const chips = ids.map((id) => {
    const o = objectById(view, id);
    const wKey = `withdraw:${s.id}:${id}`;
    return h(
      'li',
      { class: 'chip', 'data-key': 'o' + id, testid: 'scene-object-chip', 'data-object-id': id },
      h('span', null, objectName(o)),
      canEdit
        ? h(
            'button',
            {
              type: 'button',
              class: 'icon',
              testid: 'withdraw-object',
              'aria-label': `Take ${objectName(o)} out of this scene`,
              title: 'Take out of the scene',
              disabled: pending(ctx, wKey),
              onclick: () => ctx.act(wKey, { action: 'withdraw_object', scene: s.id, object: id }),
            },
            h('span', { 'aria-hidden': 'true' }, '×'),
          )
        : null,
      msg(ctx, wKey),
    );
  });
  return h(
    'div',
    { class: 'present' },
    h('span', { class: 'label' }, 'Present: '),
    ids.length ? h('ul', { class: 'chips' }, chips) : h('span', { class: 'muted' }, 'nobody and nothing yet'),
    canEdit && candidates.length
      ? form(
          ctx,
          placeKey,
          {
            class: 'inline-form place-form',
            onsubmit: (f) => ctx.act(placeKey, { action: 'place_object', scene: s.id, object: Number(fieldValue(f, 'object')) }),
          },
          labelled(
            `place-${s.id}-select`,
            'Place in this scene',
            select(
              `place-${s.id}-select`,
              'object',
              groupObjects(view, candidates),
              candidates.find((o) => o.kind !== 'character')?.id ?? candidates[0].id,
              { testid: 'place-object-select' },
            ),
          ),
          submit(ctx, placeKey, 'Place', 'place-object', { class: 'secondary' }),
        )
      : null,
  );
}

/**
 * @param {View} view
 * @param {StoryObject[]} objs
 */
function groupObjects(view, objs) {
  const env = objs.filter((o) => o.kind !== 'character');
  const chars = objs.filter((o) => o.kind === 'character');
  const t = terms(view);
  const out = [];
  if (env.length) out.push({ group: 'People, places and things', options: env.map((o) => ({ value: o.id, label: `${objectName(o)} (${o.kind === 'npc' ? 'NPC' : o.kind})` })) });
  if (chars.length) out.push({ group: t.characters, options: chars.map((o) => ({ value: o.id, label: objectName(o) })) });
  return out;
}

/**
 * @param {View} view
 * @param {Scene} s
 */
function oddsLine(view, s) {
  if (s.odds) {
    const o = s.odds;
    return h(
      'div',
      { class: 'odds-block' },
      h(
        'p',
        { class: 'odds', testid: 'scene-odds', 'data-p': o.p_success },
        h('strong', null, percent(o.p_success)),
        ` chance of success: ${o.dice} ${o.dice === 1 ? 'die' : 'dice'} against difficulty ${s.difficulty}`,
        o.exact ? h('span', { class: 'exact' }, ` (exactly ${o.exact})`) : null,
      ),
      o.p_next !== undefined
        ? h('p', { class: 'odds-next small', testid: 'odds-next', 'data-p': o.p_next }, 'One more matching pair: ', h('strong', null, percent(o.p_next)), o.exact_next ? h('span', { class: 'exact' }, ` (exactly ${o.exact_next})`) : null)
        : null,
      Array.isArray(o.curve) ? chanceChart(o.curve, o.dice, s.difficulty) : null,
      whatIf(view, s),
    );
  }
  const p = view.outline_odds && view.outline_odds[String(s.id)];
  if (p !== undefined && p !== null && s.status !== 'performed') {
    return h('div', { class: 'odds-block' }, h('p', { class: 'odds', testid: 'outline-odds' }, h('strong', null, percent(p)), ' chance of success with the pairs proposed so far (a plan, not a promise)'), whatIf(view, s));
  }
  return null;
}

/**
 * What this scene's outcome would make of the Finale's chance (as planned).
 * @param {View} view
 * @param {Scene} s
 */
function whatIf(view, s) {
  const w = view.finale_if && view.finale_if[String(s.id)];
  const now = view.outline_odds && view.finale !== null && view.finale !== undefined ? view.outline_odds[String(view.finale)] : undefined;
  if (!w || now === undefined) return null;
  return h(
    'p',
    { class: 'what-if small', testid: 'what-if', 'data-success': w[0], 'data-failure': w[1] },
    'The Finale’s chance, now ',
    h('strong', null, percent(now)),
    ': ',
    h('strong', { class: 'up' }, percent(w[0])),
    ' if this scene succeeds, ',
    h('strong', { class: 'down' }, percent(w[1])),
    ' if it fails.',
  );
}

/**
 * The chance of success against the number of dice, at this scene's difficulty: a bar per pool
 * size, this pool's marked. An SVG picture; the same numbers are in its table for screen readers.
 * @param {number[]} curve
 * @param {number} dice
 * @param {number} difficulty
 */
function chanceChart(curve, dice, difficulty) {
  const W = 300;
  const H = 120;
  const left = 30;
  const bottom = 20;
  const top = 6;
  const n = curve.length;
  const step = (W - left - 4) / n;
  const y = (/** @type {number} */ p) => top + (H - top - bottom) * (1 - p);
  const bars = curve.map((p, k) =>
    h('svg:rect', {
      x: (left + k * step + step * 0.15).toFixed(1),
      y: y(p).toFixed(1),
      width: (step * 0.7).toFixed(1),
      height: Math.max(0, H - bottom - y(p)).toFixed(1),
      class: k === dice ? 'bar current' : 'bar',
      'data-dice': k,
    }),
  );
  const labels = curve
    .map((_, k) => k)
    .filter((k) => k === dice || k % Math.max(1, Math.ceil(n / 8)) === 0)
    .map((k) => h('svg:text', { x: (left + k * step + step / 2).toFixed(1), y: H - 6, class: k === dice ? 'tick current' : 'tick', 'text-anchor': 'middle' }, String(k)));
  const grid = [0, 0.5, 1].map((p) =>
    [
      h('svg:line', { x1: left, x2: W - 4, y1: y(p).toFixed(1), y2: y(p).toFixed(1), class: 'grid' }),
      h('svg:text', { x: left - 4, y: (y(p) + 4).toFixed(1), 'text-anchor': 'end', class: 'tick' }, `${p * 100}%`),
    ],
  );
  return h(
    'figure',
    { class: 'chance-chart', testid: 'chance-chart' },
    h(
      'svg:svg',
      { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': `Chance of success by number of dice against difficulty ${difficulty}; this scene has ${dice}.` },
      grid,
      bars,
      labels,
    ),
    h('figcaption', { class: 'small muted' }, `Chance of success by number of dice, against difficulty ${difficulty}. This scene: ${dice}.`),
    h(
      'table',
      { class: 'visually-hidden' },
      h('tr', null, h('th', null, 'Dice'), h('th', null, 'Chance')),
      curve.map((p, k) => h('tr', null, h('td', null, String(k)), h('td', null, percent(p)))),
    ),
  );
}

/**
 * The selected scene: everything about it, and the actions of the current phase.
 * @param {Ctx} ctx
 * @param {Scene} s
 */
export function sceneDetail(ctx, s) {
  const { view } = ctx;
  const phase = phaseId(view);
  const temporal = isTemporal(view);
  const mod = moderatorIsMe(view);
  const unperformed = s.status !== 'performed';
  const canEdit = (phase === 'outline' || phase === 'story') && unperformed;
  const precursors = /** @type {Scene[]} */ ((s.precursors || []).map((id) => sceneById(view, id)).filter(Boolean));
  const parent = s.parent !== null && s.parent !== undefined ? sceneById(view, s.parent) : null;
  const minDifficulty = 1;
  const sketchKey = `sketch:${s.id}`;
  const removeKey = `remove-scene:${s.id}`;
  const startKey = `start:${s.id}`;
  return h(
    'article',
    { class: 'scene-detail card-like', testid: 'scene-detail', 'data-scene-id': s.id, id: 'scene-detail', 'data-key': 'detail' + s.id, tabindex: -1, 'aria-labelledby': 'scene-detail-h' },
    h(
      'header',
      { class: 'scene-head' },
      h('h3', { id: 'scene-detail-h' }, `${s.level || 'Scene'} · difficulty ${s.difficulty}`),
      h('span', { class: ['status-pill', 'status-' + s.status, s.check ? 'outcome-' + s.check.outcome : null], testid: 'scene-status' }, statusText(s)),
      button('Close', () => { ctx.ui.selected = null; ctx.rerender(); }, { class: 'ghost small', aria: 'Close the scene' }),
    ),
    objectiveBlock(ctx, s, canEdit),
    parent ? h('p', { class: 'small muted' }, temporal ? 'Below, and making easier: ' : 'A precursor of: ', objective(parent)) : null,
    oddsLine(view, s),
    settingBlock(ctx, s, canEdit),
    objectsPresent(ctx, s, canEdit),
    precursors.length
      ? h(
          'div',
          { class: 'precursors' },
          h('span', { class: 'label' }, temporal ? 'Scenes below it: ' : 'Precursors: '),
          h('ul', null, precursors.map((p) => h('li', { 'data-key': 'p' + p.id }, objective(p), ' — ', statusText(p)))),
        )
      : null,
    phase === 'outline' && s.difficulty > minDifficulty && !mod
      ? form(
          ctx,
          sketchKey,
          {
            class: 'sketch-scene',
            onsubmit: (f) => ctx.act(sketchKey, { action: 'sketch_scene', parent: s.id, objective: fieldValue(f, 'objective') }, { reset: true }),
          },
          labelled(
            `sketch-${s.id}`,
            temporal
              ? `Add a scene below it (depth ${(s.depth ?? 0) + 1}, difficulty ${s.difficulty - 1}): a scene that makes this one easier`
              : `Add a precursor (difficulty ${s.difficulty - 1}): a scene that makes this one easier`,
            textarea(`sketch-${s.id}`, 'objective', '', { testid: 'sketch-objective', rows: 2, maxlength: 300 }),
          ),
          submit(ctx, sketchKey, temporal ? 'Add a scene below' : 'Add precursor', 'sketch-scene'),
        )
      : null,
    phase === 'outline' && s.difficulty <= minDifficulty
      ? h('p', { class: 'small muted' }, `This scene is as deep as the ${temporal ? 'story tree' : 'outline'} goes: its difficulty is 1.`)
      : null,
    phase === 'outline' && !precursors.length && !mod ? removeSceneControl(ctx, s, removeKey) : null,
    phase === 'story' && s.status === 'available'
      ? h('div', { class: 'row' }, actionButton(ctx, startKey, 'Start scene', { action: 'start_scene', scene: s.id }, { class: 'primary', testid: 'start-scene', onDone: () => ctx.showScene() }))
      : null,
    phase === 'story' && s.status === 'sketched'
      ? h('p', { class: 'small muted' }, temporal ? 'Perform the scenes below it first.' : 'Perform its precursors first.')
      : null,
    s.status === 'performed' && s.check ? h('div', { class: 'performed' }, (s.pairs || []).length ? pairsList(ctx, s, false) : null, rollView(view, s, null, null), narrationBlock(ctx, s, false)) : null,
  );
}

/**
 * Removing a scene asks once, in place.
 * @param {Ctx} ctx
 * @param {Scene} s
 * @param {string} key
 */
function removeSceneControl(ctx, s, key) {
  const { ui } = ctx;
  if (ui.confirm === key) {
    return h(
      'div',
      { class: 'confirm', role: 'group', 'aria-label': 'Confirm removing the scene' },
      h('span', null, `Remove “${objective(s)}” from the ${isTemporal(ctx.view) ? 'story tree' : 'outline'}?`),
      actionButton(ctx, key, 'Remove the scene', { action: 'remove_scene', scene: s.id }, {
        class: 'danger small',
        testid: 'confirm-remove-scene',
        onDone: () => {
          ui.confirm = null;
          ui.selected = null;
        },
      }),
      button('Keep it', () => { ui.confirm = null; ctx.rerender(); }, { class: 'ghost small', testid: 'keep-scene' }),
    );
  }
  return h(
    'div',
    { class: 'row' },
    button('Remove this scene', () => { ui.confirm = key; ctx.rerender(); }, { class: 'ghost danger', testid: 'remove-scene' }),
    msg(ctx, key),
  );
}

/**
 * The scene being performed.
 * @param {Ctx} ctx
 * @param {Scene} s
 */
export function scenePanel(ctx, s) {
  const { view, ui } = ctx;
  const checked = !!s.check;
  const mod = moderatorIsMe(view);
  const anim = ui.anim && ui.anim.scene === s.id ? ui.anim : null;
  const animating = !!anim && anim.elapsed < anim.times.result;
  const objs = /** @type {StoryObject[]} */ ((s.objects || []).map((id) => objectById(view, id)).filter(Boolean));
  const env = objs.filter((o) => o.kind !== 'character');
  const open = !checked && !s.rolling;
  return h(
    'section',
    { class: 'panel scene-panel', id: 'scene-panel', testid: 'scene-panel', 'data-scene-id': s.id, 'data-rolling': String(!!s.rolling), 'aria-labelledby': 'scene-panel-h', 'data-key': 'scene-panel' + s.id },
    h(
      'header',
      { class: 'scene-head' },
      h('h2', { id: 'scene-panel-h' }, `Now playing: ${s.level || 'scene'} · difficulty ${s.difficulty}`),
      !checked && !s.rolling ? cancelSceneControl(ctx, s) : null,
    ),
    objectiveBlock(ctx, s, !checked),
    settingBlock(ctx, s, true),
    h(
      'div',
      { class: 'investigate' },
      h('h3', null, '1. Investigate'),
      h('p', { class: 'small muted' }, mod ? 'Who and what is here? The players add objects and aspects; ask them questions.' : 'Who and what is here? Add objects to the scene and give them aspects.'),
      objectsPresent(ctx, s, true),
      env.length
        ? h('div', { class: 'cards compact' }, env.map((o) => card(ctx, o, { compact: true, where: 'scene' })))
        : null,
      mod
        ? null
        : createObjectForm(ctx, `create-object-here:${s.id}`, {
            label: 'New object in this scene',
            button: 'Add to scene',
            prefix: 'scene-object',
            // Placed in the scene as soon as the new object shows up in a view.
            onSubmit: (name) => {
              ui.placeAfterCreate = { scene: s.id, name, known: new Set((view.objects || []).map((o) => o.id)) };
            },
            onRefused: () => {
              ui.placeAfterCreate = null;
            },
          }),
    ),
    h(
      'div',
      { class: 'pairs-block' },
      h('h3', null, '2. Match aspects'),
      pairsList(ctx, s, open),
      // While the table decides on the check, the pool stays as it is (objecting stops it).
      open && !mod && !openProposal(view, 'make_check', s.id)
        ? proposeForm(ctx, s, env)
        : open && !mod
          ? h('p', { class: 'small muted' }, 'The check is proposed: new pairs wait until it is settled. Objecting to a pair stops the proposal.')
          : null,
    ),
    h(
      'div',
      { class: 'check-block' },
      h('h3', null, '3. The check'),
      poolList(ctx, s),
      !checked ? oddsLine(view, s) : null,
      !checked ? checkControls(ctx, s) : rollView(view, s, anim, () => ctx.skipAnimation()),
    ),
    checked && !animating
      ? h(
          'div',
          { class: 'interpret' },
          h('h3', null, '4. Interpret'),
          narrationBlock(ctx, s, true),
          h('div', { class: 'row' }, actionButton(ctx, `finish:${s.id}`, 'Finish scene', { action: 'finish_scene', scene: s.id }, { class: 'primary', testid: 'finish-scene', onDone: () => ctx.showTab('now') })),
        )
      : null,
  );
}

/**
 * A started scene can be set aside until its check (and started again later).
 * @param {Ctx} ctx
 * @param {Scene} s
 */
function cancelSceneControl(ctx, s) {
  const key = `cancel-scene:${s.id}`;
  return h(
    'span',
    { class: 'cancel-scene' },
    actionButton(ctx, key, 'Set this scene aside', { action: 'cancel_scene', scene: s.id }, {
      class: 'ghost small',
      testid: 'cancel-scene',
      title: 'Stop performing it for now: its pairs stay, and it can be started again',
    }),
  );
}

/**
 * @param {View} view
 * @param {Pair} pair
 */
function pairLabel(view, pair) {
  const ca = aspectById(view, pair.character_aspect);
  const ea = aspectById(view, pair.environment_aspect);
  return {
    char: ca ? `${objectName(ca.object)}: ${aspectText(ca.aspect)}` : 'a removed aspect',
    env: ea ? `${objectName(ea.object)}: ${aspectText(ea.aspect)}` : 'a removed aspect',
  };
}

/**
 * @param {View} view
 * @param {number[]} ids
 */
function namesOf(view, ids) {
  const list = (ids || []).map((id) => (id === view.you ? 'you' : (playerById(view, id) || { name: 'a player who left' }).name));
  if (list.length <= 1) return list.join('');
  return `${list.slice(0, -1).join(', ')} and ${list[list.length - 1]}`;
}

/**
 * Whether a pair counts in the pool (the server says; older views have no objections).
 * @param {Pair} p
 */
function pairCounts(p) {
  return p.counts !== undefined ? !!p.counts : !(p.objections || []).length;
}

/**
 * Who accepted a pair and who objects: an objected pair does not count.
 * @param {View} view
 * @param {Pair} p
 */
function pairState(view, p) {
  const objections = p.objections || [];
  const accepted = (p.accepted_by || []).filter((id) => !objections.includes(id));
  return h(
    'span',
    { class: ['pair-state', 'small', objections.length ? 'objected' : null], testid: 'pair-state' },
    objections.length
      ? h('strong', { class: 'pair-not-counted' }, `Not counted: ${namesOf(view, objections)} ${objections.length === 1 && objections[0] !== view.you ? 'objects' : 'object'}.`)
      : null,
    objections.length && accepted.length ? ' ' : null,
    accepted.length ? h('span', { class: 'pair-accepted' }, `Accepted by ${namesOf(view, accepted)}.`) : null,
    !objections.length && !accepted.length ? h('span', { class: 'muted' }, 'No one has objected.') : null,
  );
}

/**
 * @param {Ctx} ctx
 * @param {Scene} s
 * @param {boolean} open
 */
function pairsList(ctx, s, open) {
  const { view } = ctx;
  const pairs = s.pairs || [];
  const mod = moderatorIsMe(view);
  if (!pairs.length) return h('p', { class: 'muted small' }, 'No pairs proposed yet.');
  const checkOpen = !!openProposal(view, 'make_check', s.id);
  return h(
    'ul',
    { class: 'pairs', testid: 'pairs' },
    pairs.map((p) => {
      const l = pairLabel(view, p);
      const by = playerById(view, p.proposed_by);
      const jFlagged = p.justification_flagged || p.justification === null;
      const key = `withdraw-pair:${p.id}`;
      const jKey = `justification:${p.id}`;
      const target = /** @type {FlagTarget} */ ({ text: 'justification', id: p.id });
      const counts = pairCounts(p);
      const mine = p.proposed_by === view.you;
      const objected = view.you !== null && (p.objections || []).includes(view.you);
      const accepted = view.you !== null && (p.accepted_by || []).includes(view.you) && !objected;
      const withdrawOpen = openProposal(view, 'withdraw_pair');
      const judge = open && !mod && !mine;
      return h(
        'li',
        {
          class: ['pair', counts ? null : 'not-counted'],
          testid: 'pair',
          'data-pair-id': p.id,
          'data-counts': String(counts),
          'data-objections': (p.objections || []).length,
          'data-key': 'pair' + p.id,
        },
        h('span', { class: 'pair-aspects' }, h('span', { class: 'pair-char' }, l.char), h('span', { class: 'pair-link', 'aria-hidden': 'true' }, ' ⇄ '), h('span', { class: 'visually-hidden' }, ' matched with '), h('span', { class: 'pair-env' }, l.env)),
        editing(ctx, jKey)
          ? form(
              ctx,
              jKey,
              { class: 'inline-form justification-form', onsubmit: (f) => ctx.act(jKey, { action: 'edit_justification', pair: p.id, justification: fieldValue(f, 'justification') }, { onDone: () => toggleEditor(ctx, jKey, false) }) },
              labelled(`justification-${p.id}`, 'Why they match', input(`justification-${p.id}`, 'justification', { value: p.justification || '', testid: 'justification-edit', maxlength: 300 })),
              submit(ctx, jKey, 'Save', 'save-justification', { class: 'primary small' }),
              button('Cancel', () => toggleEditor(ctx, jKey, false), { class: 'ghost small' }),
            )
          : jFlagged
            ? h('span', { class: 'pair-just' }, flagged(ctx, target, canReplace(view) ? { onclick: () => toggleEditor(ctx, jKey, true) } : null))
            : p.justification
              ? h('span', { class: 'pair-just' }, h('q', { testid: 'justification' }, p.justification), flagButton(ctx, target, 'this justification'))
              : null,
        by ? h('span', { class: 'pair-by small muted' }, `proposed by ${by.id === view.you ? 'you' : by.name}`) : null,
        pairState(view, p),
        open
          ? h(
              'span',
              { class: 'row pair-actions' },
              judge && !accepted
                ? actionButton(ctx, `accept-pair:${p.id}`, objected ? 'Accept after all' : 'Accept', { action: 'accept_pair', pair: p.id }, { class: 'secondary small', testid: 'accept-pair' })
                : null,
              judge && !objected
                ? actionButton(ctx, `object-pair:${p.id}`, 'Object', { action: 'object_to_pair', pair: p.id }, {
                    class: 'ghost small',
                    testid: 'object-pair',
                    title: checkOpen ? 'Objecting stops the open check proposal' : 'It does not count, and the check waits, until you accept it or it is withdrawn',
                  })
                : null,
              mine && !mod && !checkOpen ? actionButton(ctx, key, 'Withdraw', { action: 'withdraw_pair', pair: p.id }, { class: 'ghost small', testid: 'withdraw-pair' }) : null,
              !mine && !mod && !checkOpen
                ? withdrawOpen && withdrawOpen.pair === p.id
                  ? h('span', { class: 'small muted' }, 'Withdrawing it is proposed.')
                  : proposeButton(ctx, `propose-withdraw:${p.id}`, 'Propose withdrawing', { motion: 'withdraw_pair', pair: p.id }, { class: 'ghost small', testid: 'propose-withdraw-pair', note: false })
                : null,
            )
          : null,
      );
    }),
  );
}

/**
 * @param {Ctx} ctx
 * @param {Scene} s
 * @param {StoryObject[]} env
 */
function proposeForm(ctx, s, env) {
  const { view } = ctx;
  const key = `propose:${s.id}`;
  const chars = (view.objects || []).filter((o) => o.kind === 'character');
  const charOptions = chars
    .map((c) => ({
      group: objectName(c) + (c.yours ? ' (yours)' : ''),
      options: (c.aspects || []).filter((a) => !a.flagged && a.text !== null).map((a) => ({ value: a.id, label: a.text ?? '' })),
    }))
    .filter((g) => g.options.length);
  const envOptions = env
    .map((o) => ({ group: objectName(o), options: (o.aspects || []).filter((a) => !a.flagged && a.text !== null).map((a) => ({ value: a.id, label: a.text ?? '' })) }))
    .filter((g) => g.options.length);
  const mine = chars.find((c) => c.yours);
  const firstOwn = mine && (mine.aspects || []).find((a) => !a.flagged);
  const firstChar = firstOwn ? firstOwn.id : charOptions[0]?.options[0]?.value;
  const ready = charOptions.length && envOptions.length;
  return form(
    ctx,
    key,
    {
      class: 'propose-form',
      onsubmit: (f) => {
        const ca = f.elements.namedItem('character_aspect') ? fieldValue(f, 'character_aspect') : '';
        const ea = f.elements.namedItem('environment_aspect') ? fieldValue(f, 'environment_aspect') : '';
        ctx.act(key, {
          action: 'propose_pair',
          scene: s.id,
          character_aspect: ca === '' ? null : Number(ca),
          environment_aspect: ea === '' ? null : Number(ea),
          justification: fieldValue(f, 'justification'),
        }, { resetFields: ['justification'] });
      },
    },
    h('p', { class: 'small muted' }, 'A pair is one character aspect and one aspect of an object in the scene that together work the scene to the characters’ advantage. The table decides whether it matches: anyone may accept it or object, and an objected pair does not count.'),
    h(
      'div',
      { class: 'row wrap' },
      labelled(`pair-char-${s.id}`, 'Character aspect', charOptions.length
        ? select(`pair-char-${s.id}`, 'character_aspect', charOptions, firstChar, { testid: 'pair-character-aspect' })
        : h('span', { class: 'muted small', testid: 'pair-character-aspect' }, 'No character aspects')),
      labelled(`pair-env-${s.id}`, 'Environment aspect (in this scene)', envOptions.length
        ? select(`pair-env-${s.id}`, 'environment_aspect', envOptions, envOptions[0].options[0].value, { testid: 'pair-environment-aspect' })
        : h('span', { class: 'muted small', testid: 'pair-environment-aspect' }, 'Place an object with aspects in the scene first')),
    ),
    labelled(`pair-just-${s.id}`, 'Why they match (optional)', input(`pair-just-${s.id}`, 'justification', { testid: 'pair-justification', maxlength: 300 })),
    submit(ctx, key, 'Propose pair', 'propose-pair', { class: ready ? 'primary' : 'secondary' }),
  );
}

/**
 * @param {Ctx} ctx
 * @param {Scene} s
 */
function poolList(ctx, s) {
  const { view } = ctx;
  const pool = s.pool || [];
  const left = (s.pairs || []).filter((p) => !pairCounts(p)).length;
  const leftOut = left && !s.check
    ? h('p', { class: 'pool-left-out small', testid: 'pool-left-out' }, `${left} ${left === 1 ? 'pair is' : 'pairs are'} under objection and not counted.`)
    : null;
  if (!pool.length) {
    return [
      h('p', { class: 'pool-empty', testid: 'pool' }, s.check ? 'The pool was empty.' : 'The pool is empty: no pairs counted, no reward dice. A check with no dice is zero hits, a failure.'),
      leftOut,
    ];
  }
  return [
    h(
      'ol',
      { class: 'pool', testid: 'pool', 'aria-label': `The pool: ${pool.length} ${pool.length === 1 ? 'die' : 'dice'}` },
      pool.map((e, i) => {
        let text;
        if (e.kind === 'matching_pair') {
          const p = (s.pairs || []).find((x) => x.id === e.pair);
          if (p) {
            const l = pairLabel(view, p);
            text = `pair: ${l.char} ⇄ ${l.env}`;
          } else text = 'a matching pair';
        } else if (e.kind === 'reward_die') {
          text = `reward die: “${objective(sceneById(view, e.precursor))}” succeeded`;
        } else text = 'a die';
        return h(
          'li',
          { class: ['pool-die', e.kind], testid: 'pool-die', 'data-kind': e.kind, 'data-key': 'pd' + i },
          h('span', { class: 'mini-die', 'aria-hidden': 'true' }),
          h('span', null, text),
        );
      }),
    ),
    leftOut,
  ];
}

/**
 * The check is a proposal: the table agrees, then the server rolls (or the players do).
 * @param {Ctx} ctx
 * @param {Scene} s
 */
function checkControls(ctx, s) {
  const { view, ui } = ctx;
  const key = `check:${s.id}`;
  const emptyKey = `${key}:empty`;
  if (moderatorIsMe(view)) {
    return h('p', { class: 'muted small', testid: 'check-moderator' }, s.rolling ? 'The players roll the dice.' : 'The players propose the check when they are ready.');
  }
  if (s.rolling) return h('div', { class: 'check-controls rolling' }, facesForm(ctx, s));
  const proposed = openProposal(view, 'make_check', s.id);
  if (proposed) {
    return h('p', { class: 'check-proposed', testid: 'check-proposed' }, 'The check is proposed: each player agrees in the bar at the top (or says not yet).');
  }
  const objected = (s.pairs || []).filter((p) => !pairCounts(p)).length;
  const confirmEmpty = ui.confirmEmpty === s.id;
  return h(
    'div',
    { class: 'check-controls' },
    view.physical_dice ? h('p', { class: 'small muted', testid: 'real-dice-note' }, 'Real dice: once everyone agrees, roll them at the table and type in the faces.') : null,
    objected
      ? h('p', { class: 'message info', testid: 'check-blocked' }, `The check waits: ${objected === 1 ? 'a pair is' : `${objected} pairs are`} under objection. The objector accepts it, or its proposer withdraws it (or the table agrees to).`)
      : null,
    proposeButton(ctx, key, 'Propose the check', { motion: 'make_check', scene: s.id, accept_empty_pool: false }, {
      class: 'primary big',
      testid: 'make-check',
      onRefused: (m) => {
        // The server refuses an empty pool until the players accept the failure.
        if (m.code === 'empty_pool') ui.confirmEmpty = s.id;
      },
    }),
    confirmEmpty
      ? h(
          'div',
          { class: 'confirm', role: 'group', 'aria-label': 'Accept an empty pool' },
          h('span', null, 'Propose rolling no dice, and accepting the failure?'),
          actionButton(ctx, emptyKey, 'Yes, propose accepting the failure', { action: 'propose', motion: { motion: 'make_check', scene: s.id, accept_empty_pool: true } }, { class: 'danger small', testid: 'accept-empty-pool', onDone: () => { ui.confirmEmpty = null; ctx.ui.msgs.delete(key); } }),
          button('No, find a pair', () => { ui.confirmEmpty = null; ctx.ui.msgs.delete(key); ctx.rerender(); }, { class: 'ghost small', testid: 'cancel-empty-pool' }),
        )
      : null,
  );
}

/**
 * A scene's narration; with its editor when `open`.
 * @param {Ctx} ctx
 * @param {Scene} s
 * @param {boolean} open
 */
function narrationBlock(ctx, s, open) {
  const { view } = ctx;
  const key = `narrate:${s.id}`;
  const target = /** @type {FlagTarget} */ ({ text: 'narration', id: s.id });
  const isFlagged = !!s.narration_flagged;
  const has = s.narration !== null && s.narration !== undefined;
  const mod = moderatorIsMe(view);
  const canWrite = (open || (isFlagged && canReplace(view))) && !mod;
  const show = has
    ? h('blockquote', { class: 'narration-text', testid: 'narration-text' }, paragraphs(s.narration ?? ''), flagButton(ctx, target, 'this narration'))
    : isFlagged
      ? flagged(ctx, target, canWrite && !editing(ctx, key) ? { onclick: () => toggleEditor(ctx, key, true) } : null)
      : null;
  if (!open && !(canWrite && editing(ctx, key))) return show ? h('div', { class: 'narration' }, h('h4', null, 'What happened'), show) : null;
  if (mod) return h('div', { class: 'narration' }, show, h('p', { class: 'muted small' }, 'The players narrate; the moderator asks questions.'));
  // What this player has typed and not saved: several players may write at once, and one
  // recording theirs must not close the box on another's draft.
  const draft = ctx.ui.drafts.get(key);
  const drafting = !!draft && !!draft.trim() && draft !== (s.narration || '');
  const forget = () => ctx.ui.drafts.delete(key);
  // Nothing told yet: the box is open. Told (or flagged): open on request, or while a draft waits.
  const editorOpen = (!has && !isFlagged) || editing(ctx, key) || drafting;
  const meanwhile = drafting && has && !editing(ctx, key);
  return h(
    'div',
    { class: 'narration' },
    editorOpen && !isFlagged && !meanwhile ? null : show,
    meanwhile ? h('p', { class: 'message info', role: 'status', testid: 'narration-meanwhile' }, 'Another player recorded the narration above while you wrote yours. Your draft is kept below: save it to replace theirs, or discard it.') : null,
    editorOpen
      ? form(
          ctx,
          key,
          {
            class: 'narrate-form',
            onsubmit: (f) =>
              ctx.act(key, { action: 'narrate', scene: s.id, text: fieldValue(f, 'text') }, {
                onDone: () => {
                  forget();
                  toggleEditor(ctx, key, false);
                },
              }),
          },
          labelled(
            `narration-${s.id}`,
            s.check && s.check.outcome === 'success' ? 'Tell how the characters succeed' : 'Tell how the characters fail',
            textarea(`narration-${s.id}`, 'text', drafting ? draft : s.narration || '', { testid: 'narration', rows: 5, maxlength: 4000, oninput: (e, el) => ctx.ui.drafts.set(key, el.value) }),
          ),
          h(
            'div',
            { class: 'row' },
            submit(ctx, key, has || isFlagged ? 'Save narration' : 'Record narration', 'narrate'),
            has || isFlagged
              ? button(meanwhile ? 'Discard my draft' : 'Cancel', () => {
                  forget();
                  toggleEditor(ctx, key, false);
                }, { class: 'ghost', testid: 'discard-narration' })
              : null,
          ),
        )
      : has
        ? button('Edit the narration', () => toggleEditor(ctx, key, true), { class: 'ghost small', testid: 'edit-narration' })
        : null,
  );
}

/**
 * Temporal Mechanics' flashback: the catastrophe as it happened (Setup, timed).
 * @param {Ctx} ctx
 */
export function flashbackSection(ctx) {
  const { view } = ctx;
  const phase = phaseId(view);
  const open = phase === 'outline' && !moderatorIsMe(view);
  const timer = view.timer;
  const timed = timer && timer.timed === 'flashback';
  return longText(ctx, {
    id: 'flashback',
    title: 'The flashback',
    intro: `Setup, in the future: narrate the catastrophe as it happened, before anything else${timed ? ` (${timer.minutes} minutes on the timer at the top)` : ''}. Then build the story tree.`,
    text: view.flashback,
    isFlagged: view.flashback_flagged,
    target: { text: 'flashback' },
    action: (text) => ({ action: 'narrate_flashback', text }),
    open,
    replace: canReplace(view) && !moderatorIsMe(view),
    testid: 'flashback',
  });
}

/**
 * After the Finale: its long-term effects, optional (Temporal Mechanics: the flashforward, the
 * Resolution, timed and needed before the end); then ending the game, a proposal.
 * @param {Ctx} ctx
 */
export function longTermSection(ctx) {
  const { view } = ctx;
  const temporal = isTemporal(view);
  const phase = phaseId(view);
  const open = phase === 'story' && !moderatorIsMe(view);
  const has = view.long_term_effects !== null && view.long_term_effects !== undefined;
  const timer = view.timer;
  const timed = timer && timer.timed === 'flashforward';
  return h(
    'div',
    { 'data-key': 'lte-wrap', testid: 'long-term-section' },
    finaleOutcome(view),
    longText(ctx, {
      id: 'long-term-effects',
      title: temporal ? 'The flashforward' : 'Long-term effects',
      heading: temporal ? 'Resolution: the flashforward' : 'Long-term effects (optional)',
      intro: temporal
        ? `Back in the future: narrate how the timeline has changed${timed ? ` (${timer.minutes} minutes on the timer at the top)` : ''}. The game ends after it.`
        : 'The Finale is performed. If the table likes, tell its long-term effects: what became of the world and the characters. It is optional.',
      text: view.long_term_effects,
      isFlagged: view.long_term_effects_flagged,
      target: { text: 'long_term_effects' },
      action: (text) => ({ action: 'narrate_long_term_effects', text }),
      open,
      replace: canReplace(view) && !moderatorIsMe(view),
      testid: 'long-term-effects',
    }),
    phase === 'story'
      ? h(
          'div',
          { class: 'panel end-game' },
          h(
            'p',
            null,
            temporal && !has
              ? 'Once the flashforward is told, the table can end the game.'
              : 'When the table is done, propose ending the game; it ends when everyone agrees. The story stays here to read and export.',
          ),
          proposeButton(ctx, 'end-game', 'Propose ending the game', { motion: 'end_game' }, { class: temporal && !has ? 'secondary' : 'primary', testid: 'end-game' }),
        )
      : null,
  );
}

/**
 * @param {View} view
 */
function finaleOutcome(view) {
  const f = view.finale !== null && view.finale !== undefined ? sceneById(view, view.finale) : null;
  if (!f || !f.check) return null;
  const ok = f.check.outcome === 'success';
  const text = isTemporal(view)
    ? ok
      ? 'The climactic scene succeeded: the PCs changed what happened.'
      : 'The climactic scene failed: the catastrophe happens as it did.'
    : ok
      ? 'The Finale succeeded: the characters defied the prophecy.'
      : 'The Finale failed: the prophecy comes true.';
  return h('p', { class: ['finale-outcome', ok ? 'success' : 'failure'], testid: 'finale-outcome', 'data-key': 'finale-outcome' }, text);
}

/**
 * A long text of the whole table (the flashback, the long-term effects): its key and words,
 * the text (`null`: not told, or flagged), how to send a new one, and who may write it.
 * @typedef {object} LongText
 * @property {string} id
 * @property {string} title
 * @property {string} [heading]
 * @property {string} intro
 * @property {string | null} text
 * @property {boolean} isFlagged
 * @property {FlagTarget} target
 * @property {(text: string) => Action} action
 * @property {boolean} open
 * @property {boolean} replace
 * @property {string} testid
 */

/**
 * @param {Ctx} ctx
 * @param {LongText} o
 */
function longText(ctx, o) {
  const key = o.id;
  const has = o.text !== null && o.text !== undefined;
  const editorOpen = o.open && (!has || editing(ctx, key)) && !o.isFlagged;
  const submitForm = (/** @type {HTMLFormElement} */ f) => ctx.act(key, o.action(fieldValue(f, 'text')), { onDone: () => toggleEditor(ctx, key, false) });
  return h(
    'section',
    { class: 'panel long-text', id: o.id, 'aria-labelledby': o.id + '-h', testid: o.testid + '-section', 'data-key': o.id },
    h('h2', { id: o.id + '-h' }, o.heading || o.title),
    o.intro && (o.open || has) ? h('p', { class: 'muted small' }, o.intro) : null,
    has && !editorOpen
      ? h('blockquote', { class: 'read-aloud', testid: o.testid + '-text' }, paragraphs(o.text ?? ''), flagButton(ctx, o.target, `the ${o.title.toLowerCase()}`))
      : null,
    o.isFlagged && !editing(ctx, key) ? flagged(ctx, o.target, o.open || o.replace ? { onclick: () => toggleEditor(ctx, key, true) } : null) : null,
    editorOpen || (o.isFlagged && editing(ctx, key))
      ? form(
          ctx,
          key,
          { class: 'long-form', onsubmit: submitForm },
          labelled(o.id + '-input', o.title, textarea(o.id + '-input', 'text', o.text || '', { testid: o.testid, rows: 5, maxlength: 4000 })),
          h('div', { class: 'row' }, submit(ctx, key, has ? 'Save' : 'Record', 'narrate-' + o.id), has || o.isFlagged ? button('Cancel', () => toggleEditor(ctx, key, false), { class: 'ghost' }) : null),
        )
      : null,
    has && o.open && !editorOpen ? button('Edit', () => toggleEditor(ctx, key, true), { class: 'ghost small', testid: 'edit-' + o.id }) : null,
    !has && !o.isFlagged && !o.open ? h('p', { class: 'muted' }, 'Not told.') : null,
  );
}
