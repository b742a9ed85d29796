// The prophecy (in Temporal Mechanics, the warning): the card that shows it, and while the
// table receives it, the three ways to get one: a world's catastrophe table (d66), a module, or
// the table's own words.

import { h, paragraphs } from '../common/dom.js';
import { form, submit, textarea, select, labelled, button, fieldValue } from '../common/controls.js';
import { flagButton, flagged } from './flags.js';
import { toggleEditor, editing } from './editors.js';
import { isTemporal, phaseId } from './lookups.js';
import { d66 } from './dice.js';

/**
 * @typedef {import('./page-types').StoryContext} Ctx
 * @typedef {import('../common/page-types').Seen<import('./page-types').PageView>} View
 * @typedef {import('./page-types').FlagTarget} FlagTarget
 */

/**
 * @param {Ctx} ctx
 */
export function prophecySection(ctx) {
  const { view } = ctx;
  const phase = phaseId(view);
  const p = view.prophecy;
  const temporal = isTemporal(view);
  // Temporal Mechanics' warning is prepared in the Setup, once the flashback is told.
  const choosing = temporal ? phase === 'outline' && !!(view.flashback || view.flashback_flagged) : phase === 'prophecy';
  const title = temporal ? (choosing ? 'The warning (optional)' : 'The warning') : 'The Prophecy';
  return h(
    'section',
    { class: ['panel', 'prophecy', choosing ? 'choosing' : 'settled'], id: 'prophecy', 'aria-labelledby': 'prophecy-h', 'data-key': 'prophecy' },
    h('h2', { id: 'prophecy-h' }, title),
    p
      ? prophecyCard(ctx, p)
      : h('p', { class: 'muted', testid: 'no-prophecy' }, temporal
          ? 'No warning yet: what your PCs send back to their past selves. Roll on a world’s table, pick a scenario or write it — or skip it: it is optional.'
          : 'No prophecy yet. Roll on a world’s catastrophe table, pick a module, or write your own.'),
    choosing ? prophecyChoices(ctx, !!p) : null,
  );
}

/**
 * @param {Ctx} ctx
 * @param {import('./view-types').ProphecySource | null | undefined} src
 */
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

/**
 * @param {Ctx} ctx
 * @param {NonNullable<View['prophecy']>} p
 */
function prophecyCard(ctx, p) {
  const word = isTemporal(ctx.view) ? 'warning' : 'prophecy';
  const key = 'edit-prophecy';
  const target = /** @type {FlagTarget} */ ({ text: 'prophecy' });
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
            onsubmit: (f) => ctx.act(key, { action: 'write_prophecy', text: fieldValue(f, 'text') }, { onDone: () => toggleEditor(ctx, key, false) }),
          },
          labelled('prophecy-edit', `The ${word}`, textarea('prophecy-edit', 'text', p.text || '', { testid: 'prophecy-edit', rows: 8, maxlength: 4000 })),
          h('div', { class: 'row' }, submit(ctx, key, `Save the ${word}`, 'save-prophecy'), button('Cancel', () => toggleEditor(ctx, key, false), { class: 'ghost' })),
        )
      : isFlagged
        ? flagged(ctx, target, canWrite ? { onclick: () => toggleEditor(ctx, key, true) } : null)
        : h('blockquote', { class: 'read-aloud', testid: 'prophecy-text' }, paragraphs(p.text || '')),
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

/**
 * @param {Ctx} ctx
 * @param {boolean} have
 */
function prophecyChoices(ctx, have) {
  const { view, ui } = ctx;
  const temporal = view.ruleset && view.ruleset.temporal;
  // Only this ruleset's: Temporal Mechanics' worlds tell a catastrophe that already happened.
  /**
   * @template {{temporal: boolean}} T
   * @param {T[]} list
   */
  const ours = (list) => list.filter((x) => Boolean(x.temporal) === Boolean(temporal));
  const worlds = ours((ctx.content && ctx.content.worlds) || []);
  const modules = ours((ctx.content && ctx.content.modules) || []);
  const world = worlds.find((w) => w.slug === ui.world) || worlds[0];
  const mod = modules.find((m) => m.slug === ui.module) || modules[0];
  const rollKey = 'roll-d66';
  const modKey = 'pick-module';
  const writeKey = 'write-prophecy';
  const word = temporal ? 'warning' : 'prophecy';
  return h(
    'div',
    { class: 'choices', 'data-key': 'choices' },
    have ? h('p', { class: 'small muted' }, temporal ? 'Not this one? Choose again below, or edit it.' : 'Not this one? Choose again below, or edit it, then propose moving on.') : null,
    h(
      'div',
      { class: 'choice-grid' },
      form(
        ctx,
        rollKey,
        { class: 'choice', onsubmit: (f) => ctx.act(rollKey, { action: 'roll_catastrophe', world: fieldValue(f, 'world') }) },
        h('h3', null, 'Roll on a world’s table'),
        worlds.length
          ? [
              labelled('world-select', 'World', select('world-select', 'world', worlds.map((w) => ({ value: w.slug, label: `${w.name} (${w.genre})` })), world && world.slug, {
                testid: 'world-select',
                onchange: (e, el) => {
                  ui.world = el.value;
                  ctx.rerender();
                },
              })),
              world ? h('p', { class: 'summary', testid: 'world-summary' }, world.summary) : null,
              submit(ctx, rollKey, 'Roll d66', 'roll-d66'),
              h(
                'details',
                { class: 'all-worlds', open: ui.open.has('all-worlds'), 'data-open-key': 'all-worlds', ontoggle: (e, el) => ctx.toggled('all-worlds', el.open) },
                h('summary', null, 'All worlds'),
                h('dl', null, worlds.map((w) => [h('dt', { 'data-key': 't' + w.slug }, `${w.name} (${w.genre})`), h('dd', { 'data-key': 'd' + w.slug }, w.summary)])),
              ),
            ]
          : h('p', { class: 'muted' }, ctx.content ? 'No worlds.' : 'Loading the worlds…'),
      ),
      form(
        ctx,
        modKey,
        { class: 'choice', onsubmit: (f) => ctx.act(modKey, { action: 'pick_module', module: fieldValue(f, 'module') }) },
        h('h3', null, temporal ? 'Pick a scenario' : 'Pick a module'),
        modules.length
          ? [
              labelled('module-select', temporal ? 'Scenario' : 'Module', select('module-select', 'module', modules.map((m) => ({ value: m.slug, label: `${m.title}` })), mod && mod.slug, {
                testid: 'module-select',
                onchange: (e, el) => {
                  ui.module = el.value;
                  ctx.rerender();
                },
              })),
              mod ? h('p', { class: 'summary', testid: 'module-summary' }, mod.summary) : null,
              mod && mod.prophecy
                ? h(
                    'details',
                    { class: 'all-worlds', open: ui.open.has('module-text'), ontoggle: (e, el) => ctx.toggled('module-text', el.open) },
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
        { class: 'choice', onsubmit: (f) => ctx.act(writeKey, { action: 'write_prophecy', text: fieldValue(f, 'text') }, { reset: true }) },
        h('h3', null, 'Write your own'),
        labelled('prophecy-input', temporal ? 'The warning sent back from the future' : 'The catastrophe, and the sign that it is coming', textarea('prophecy-input', 'text', '', { testid: 'prophecy-input', rows: 5, maxlength: 4000 })),
        submit(ctx, writeKey, `Use this ${word}`, 'write-prophecy'),
      ),
    ),
  );
}
