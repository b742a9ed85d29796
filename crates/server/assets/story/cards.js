// Characters and objects as index cards; their aspects as sticky notes.

import { h } from '../common/dom.js';
import { form, submit, msg, input, select, labelled, button, actionButton, pending, fieldValue } from '../common/controls.js';
import { flagButton, flagged } from './flags.js';
import { toggleEditor, editing } from './editors.js';
import { objectName, objectById, playerById } from './lookups.js';

/**
 * @typedef {import('./page-types').StoryContext} Ctx
 * @typedef {import('../common/page-types').Seen<import('./page-types').PageView>} View
 * @typedef {import('./page-types').PageObject} StoryObject
 * @typedef {import('./view-types').Aspect} Aspect
 * @typedef {import('../common/page-types').Child} Child
 * @typedef {import('./page-types').FlagTarget} FlagTarget
 */

const KIND_LABEL = { character: 'character', person: 'person', place: 'place', thing: 'thing', npc: 'NPC' };

/**
 * @param {StoryObject} o
 */
function isCharacter(o) {
  return o.kind === 'character';
}

/**
 * Words that differ in Temporal Mechanics: PCs, and their aspects called traits (`o`, when
 * given, is the object the words are about: only a PC's aspects are traits).
 * @param {View} view
 * @param {StoryObject | null} [o]
 */
export function terms(view, o) {
  const t = view.ruleset && view.ruleset.temporal;
  const traits = t && (!o || o.kind === 'character');
  return {
    characters: t ? 'Player characters' : 'Characters',
    character: t ? 'PC' : 'character',
    aspects: traits ? 'traits' : 'aspects',
    aspect: traits ? 'trait' : 'aspect',
  };
}

const canChangeWorld = (/** @type {View} */ view) => view.phase && view.phase.id !== 'prophecy' && view.phase.id !== 'ended';

/** The moderator (edition 1.1) asks and keeps time: no objects, no aspects. */
const moderating = (/** @type {View} */ view) => view.moderator !== null && view.moderator !== undefined && view.moderator === view.you;

/**
 * The characters section.
 * @param {Ctx} ctx
 */
export function charactersSection(ctx) {
  const { view } = ctx;
  const t = terms(view);
  const chars = (view.objects || []).filter(isCharacter);
  const me = playerById(view, view.you);
  const mine = chars.find((c) => c.yours);
  const isModerator = view.moderator === view.you || (me && me.moderator);
  const open = canChangeWorld(view);
  return h(
    'section',
    { class: 'panel characters', id: 'characters', 'aria-labelledby': 'characters-h', 'data-key': 'characters' },
    h('h2', { id: 'characters-h' }, t.characters),
    !mine && open && !isModerator ? createCharacterForm(ctx, t) : null,
    !mine && isModerator ? h('p', { class: 'muted' }, 'You are the moderator: you ask questions and keep time, and play no character.') : null,
    chars.length
      ? h('div', { class: 'cards' }, chars.map((c) => card(ctx, c)))
      : h('p', { class: 'muted' }, `No ${t.characters.toLowerCase()} yet. Each player creates one, with one ${t.aspect} in each of the five categories.`),
  );
}

/**
 * @param {Ctx} ctx
 * @param {ReturnType<typeof terms>} t
 */
function createCharacterForm(ctx, t) {
  const key = 'create-character';
  return form(
    ctx,
    key,
    {
      class: 'inline-form create-character',
      onsubmit: (f) => ctx.act(key, { action: 'create_character', name: fieldValue(f, 'name') }, { reset: true }),
    },
    labelled('character-name', `Your ${t.character}'s name`, input('character-name', 'name', { testid: 'character-name', maxlength: 80, required: true })),
    submit(ctx, key, `Create your ${t.character}`, 'create-character'),
  );
}

/**
 * The section of the environment's objects.
 * @param {Ctx} ctx
 */
export function objectsSection(ctx) {
  const { view } = ctx;
  const objs = (view.objects || []).filter((o) => !isCharacter(o));
  const temporal = view.ruleset && view.ruleset.temporal;
  return h(
    'section',
    { class: 'panel objects', id: 'objects', 'aria-labelledby': 'objects-h', 'data-key': 'objects' },
    h('h2', { id: 'objects-h' }, temporal ? 'NPCs, people, places and things' : 'People, places and things'),
    canChangeWorld(view) && !moderating(view) ? createObjectForm(ctx, 'create-object') : null,
    objs.length
      ? h('div', { class: 'cards' }, objs.map((o) => card(ctx, o)))
      : h('p', { class: 'muted' }, 'No objects yet. Anyone can add a person, place or thing to the story, and anyone can give it aspects.'),
  );
}

/**
 * Form to create an object; `opts.onSubmit(name)` runs as it is sent (to place it in a scene).
 * @param {Ctx} ctx
 * @param {string} key
 * @param {{onSubmit?: (name: string) => void, onRefused?: (msg: import('../common/messages').RefusedMessage) => void,
 *   label?: string, prefix?: string, button?: string}} [opts]
 */
export function createObjectForm(ctx, key, opts = {}) {
  const { view } = ctx;
  const kinds = [
    { value: 'person', label: 'Person' },
    { value: 'place', label: 'Place' },
    { value: 'thing', label: 'Thing' },
  ];
  if (view.ruleset && view.ruleset.temporal) kinds.push({ value: 'npc', label: 'NPC' });
  const id = key;
  return form(
    ctx,
    key,
    {
      class: 'inline-form create-object',
      onsubmit: (f) => {
        const name = fieldValue(f, 'name');
        if (opts.onSubmit) opts.onSubmit(name.trim());
        ctx.act(key, { action: 'create_object', name, kind: fieldValue(f, 'kind') }, { reset: true, onRefused: opts.onRefused });
      },
    },
    labelled(id + '-name', opts.label || 'New object', input(id + '-name', 'name', { testid: opts.prefix ? opts.prefix + '-name' : 'object-name', maxlength: 80 })),
    labelled(id + '-kind', 'Kind', select(id + '-kind', 'kind', kinds, 'person', { testid: opts.prefix ? opts.prefix + '-kind' : 'object-kind' })),
    submit(ctx, key, opts.button || 'Add', opts.prefix ? opts.prefix + '-submit' : 'create-object'),
  );
}

/**
 * @param {View} view
 * @param {StoryObject} o
 */
function kindLine(view, o) {
  if (isCharacter(o)) {
    const p = o.player !== null && o.player !== undefined ? playerById(view, o.player) : null;
    const t = terms(view);
    if (o.yours) return `Your ${t.character}`;
    return p ? `${t.character === 'PC' ? 'PC' : 'Character'} of ${p.name}` : `${t.character === 'PC' ? 'PC' : 'Character'} (player gone)`;
  }
  return KIND_LABEL[o.kind] || o.kind;
}

/**
 * One index card. `compact` shows fewer controls (inside the scene panel); `extra` goes at the
 * bottom (e.g. a "withdraw from the scene" button).
 * @param {Ctx} ctx
 * @param {StoryObject} o
 * @param {{where?: string, compact?: boolean, extra?: Child, [option: string]: unknown}} [opts]
 */
export function card(ctx, o, opts = {}) {
  const { view } = ctx;
  const t = terms(view, o);
  const where = opts.where || 'cards';
  const nameKey = `rename:${o.id}:${where}`;
  const nameFlagged = o.name_flagged || o.name === null;
  const target = /** @type {FlagTarget} */ ({ text: 'object_name', id: o.id });
  const ended = view.phase && view.phase.id === 'ended';
  const mod = moderating(view);
  const editable = o.editable && !mod;
  // A flagged name can be replaced by anyone (the moderator too), or an absent owner would keep
  // the table paused.
  const nameNode = editing(ctx, nameKey)
    ? renameForm(ctx, o, nameKey)
    : h(
        'div',
        { class: 'card-title' },
        nameFlagged
          ? flagged(ctx, target, !ended ? { onclick: () => toggleEditor(ctx, nameKey, true), label: 'Replace the name' } : null)
          : h('h3', { class: 'card-name', testid: 'object-name-text' }, o.name),
        !nameFlagged ? flagButton(ctx, target, `the name "${o.name}"`) : null,
        editable && !nameFlagged && !ended
          ? button('Rename', () => toggleEditor(ctx, nameKey, true), { class: 'small ghost', testid: 'rename', aria: `Rename ${o.name}` })
          : null,
      );
  const aspects = o.aspects || [];
  return h(
    'article',
    {
      class: ['card', isCharacter(o) ? 'character' : 'object', 'kind-' + o.kind, o.yours ? 'yours' : null],
      testid: where === 'cards' ? 'object-card' : 'scene-object',
      'data-object-id': o.id,
      'data-kind': o.kind,
      'data-yours': o.yours ? 'true' : null,
      'data-key': 'card' + o.id,
      'aria-label': `${kindLine(view, o)}: ${objectName(o)}`,
    },
    h('p', { class: 'card-kind' }, kindLine(view, o)),
    nameNode,
    aspects.length
      ? h('ul', { class: 'notes', 'aria-label': `${t.aspects} of ${objectName(o)}` }, aspects.map((a) => note(ctx, o, a, where)))
      : h('p', { class: 'muted small' }, `No ${t.aspects} yet.`),
    isCharacter(o) && o.missing && o.missing.length
      ? h('p', { class: 'missing', testid: 'missing' }, h('strong', null, 'Still needed: '), o.missing.join(', '))
      : null,
    editable && !ended ? attachForm(ctx, o, where) : null,
    !isCharacter(o) && editable && !ended && !opts.compact ? removeObject(ctx, o) : null,
    opts.extra || null,
  );
}

/**
 * @param {Ctx} ctx
 * @param {StoryObject} o
 * @param {string} key
 */
function renameForm(ctx, o, key) {
  const id = key.replace(/:/g, '-');
  return form(
    ctx,
    key,
    {
      class: 'inline-form rename-form',
      onsubmit: (f) => ctx.act(key, { action: 'rename', object: o.id, name: fieldValue(f, 'name') }, { onDone: () => toggleEditor(ctx, key, false) }),
    },
    labelled(id, 'New name', input(id, 'name', { value: o.name || '', testid: 'rename-text', maxlength: 80 })),
    submit(ctx, key, 'Save', 'save-rename'),
    button('Cancel', () => toggleEditor(ctx, key, false), { class: 'ghost' }),
  );
}

/**
 * @param {View} view
 * @param {Aspect} a
 */
function relationshipName(view, a) {
  if (!a.with && a.with !== 0) return null;
  const other = objectById(view, a.with);
  return other ? objectName(other) : null;
}

/**
 * @param {Ctx} ctx
 * @param {StoryObject} o
 * @param {Aspect} a
 * @param {string} where
 */
function note(ctx, o, a, where) {
  const { view } = ctx;
  const t = terms(view, o);
  const key = `edit-aspect:${a.id}:${where}`;
  const target = /** @type {FlagTarget} */ ({ text: 'aspect', id: a.id });
  const isFlagged = a.flagged || a.text === null;
  const ended = view.phase && view.phase.id === 'ended';
  const canEdit = o.editable && !moderating(view);
  const rel = relationshipName(view, a);
  const cat = a.category_name ? a.category_name + (rel ? ` with ${rel}` : '') : null;
  let body;
  if (editing(ctx, key)) {
    const id = key.replace(/:/g, '-');
    body = form(
      ctx,
      key,
      {
        class: 'edit-aspect-form',
        onsubmit: (f) => ctx.act(key, { action: 'edit_aspect', aspect: a.id, text: fieldValue(f, 'text') }, { onDone: () => toggleEditor(ctx, key, false) }),
      },
      labelled(id, `Change this ${t.aspect}`, input(id, 'text', { value: a.text || '', testid: 'aspect-edit-text', maxlength: 120 })),
      h('div', { class: 'row' }, submit(ctx, key, 'Save', 'save-aspect', { class: 'primary small' }), button('Cancel', () => toggleEditor(ctx, key, false), { class: 'ghost small' })),
    );
  } else {
    const rmKey = `remove-aspect:${a.id}:${where}`;
    body = [
      isFlagged
        ? flagged(ctx, target, !ended ? { onclick: () => toggleEditor(ctx, key, true) } : null)
        : h('span', { class: 'note-text', testid: 'aspect-text-display' }, a.text),
      h(
        'span',
        { class: 'note-tools' },
        !isFlagged ? flagButton(ctx, target, `the ${t.aspect} "${a.text}"`) : null,
        canEdit && !isFlagged && !ended
          ? h('button', { type: 'button', class: 'icon', testid: 'edit-aspect', 'aria-label': `Edit the ${t.aspect} "${a.text}"`, title: 'Edit', onclick: () => toggleEditor(ctx, key, true) }, h('span', { 'aria-hidden': 'true' }, '✎'))
          : null,
        canEdit && !ended
          ? h(
              'button',
              {
                type: 'button',
                class: 'icon',
                testid: 'remove-aspect',
                'aria-label': `Remove the ${t.aspect} ${isFlagged ? '(flagged)' : `"${a.text}"`}`,
                title: 'Remove',
                disabled: pending(ctx, rmKey),
                onclick: () => ctx.act(rmKey, { action: 'remove_aspect', aspect: a.id }),
              },
              h('span', { 'aria-hidden': 'true' }, '×'),
            )
          : null,
      ),
      msg(ctx, rmKey),
    ];
  }
  return h(
    'li',
    {
      class: ['note', a.category ? 'cat-' + catId(a.category) : 'cat-none', a.in_pair ? 'in-pair' : null, isFlagged ? 'is-flagged' : null],
      testid: where === 'cards' ? 'aspect-note' : 'scene-aspect',
      'data-aspect-id': a.id,
      'data-key': 'a' + a.id,
    },
    cat ? h('span', { class: 'note-cat' }, cat) : null,
    a.in_pair ? h('span', { class: 'note-pair', title: 'Part of a proposed matching pair' }, 'in a pair') : null,
    body,
  );
}

/**
 * @param {unknown} c
 */
function catId(c) {
  if (typeof c === 'string') return c;
  if (c && typeof c === 'object') return Object.keys(c)[0] || 'none';
  return 'none';
}

/**
 * @param {Ctx} ctx
 * @param {StoryObject} o
 * @param {string} where
 */
function attachForm(ctx, o, where) {
  const { view, ui } = ctx;
  const t = terms(view, o);
  const key = `attach:${o.id}:${where}`;
  const id = key.replace(/:/g, '-');
  const character = isCharacter(o);
  const cats = view.categories || [];
  const chosen = ui.cat.get(key) || (character && o.missing && o.missing.length ? firstMissing(cats, o.missing) : '');
  // Temporal Mechanics has two kinds of characters: a PC's relationship may be with an NPC.
  const temporal = Boolean(view.ruleset && view.ruleset.temporal);
  const others = (view.objects || []).filter((x) => (isCharacter(x) || (temporal && x.kind === 'npc')) && x.id !== o.id);
  const tid = (/** @type {string} */ x) => (where === 'cards' ? x : 'scene-' + x);
  const catOptions = [{ value: '', label: character ? 'No category' : '—' }].concat(cats.map((c) => ({ value: c.id, label: c.name })));
  return form(
    ctx,
    key,
    {
      class: 'attach-form',
      onsubmit: (f) => {
        let category = null;
        if (character) {
          const c = fieldValue(f, 'category');
          if (c === 'relationship') {
            const w = f.elements.namedItem('with') ? fieldValue(f, 'with') : '';
            category = { relationship: { with: w === '' ? null : Number(w) } };
          } else if (c) category = c;
        }
        ctx.act(key, { action: 'attach_aspect', object: o.id, text: fieldValue(f, 'text'), category }, {
          reset: true,
          onDone: () => {
            ui.cat.delete(key);
          },
        });
      },
    },
    labelled(id + '-text', `New ${t.aspect}`, input(id + '-text', 'text', { testid: tid('aspect-text'), maxlength: 120, placeholder: character ? 'e.g. Smuggler' : 'e.g. Rusty gate' })),
    character
      ? labelled(
          id + '-cat',
          'Category',
          select(id + '-cat', 'category', catOptions, chosen, {
            testid: tid('aspect-category'),
            onchange: (e, el) => {
              ui.cat.set(key, el.value);
              ctx.rerender();
            },
          }),
        )
      : null,
    character && chosen === 'relationship'
      ? labelled(
          id + '-with',
          'With',
          others.length
            ? select(id + '-with', 'with', others.map((x) => ({ value: x.id, label: objectName(x) })), others[0].id, { testid: tid('aspect-relationship-with') })
            : h('span', { class: 'muted small', testid: tid('aspect-relationship-with') }, temporal ? 'No other PC or NPC yet: add an NPC below' : 'No other character yet'),
        )
      : null,
    submit(ctx, key, `Add ${t.aspect}`, tid('attach-aspect'), { class: 'primary small' }),
  );
}

/**
 * @param {Array<{id: string, name: string}>} cats
 * @param {string[]} missing
 */
function firstMissing(cats, missing) {
  const c = cats.find((c) => missing.includes(c.name));
  return c ? c.id : '';
}

/**
 * @param {Ctx} ctx
 * @param {StoryObject} o
 */
function removeObject(ctx, o) {
  const key = `remove-object:${o.id}`;
  if (ctx.ui.confirm === key) {
    return h(
      'div',
      { class: 'confirm', role: 'group', 'aria-label': 'Confirm removal' },
      h('span', null, `Remove ${objectName(o)} and its aspects?`),
      actionButton(ctx, key, 'Remove', { action: 'remove_object', object: o.id }, { class: 'danger small', testid: 'confirm-remove-object', onDone: () => { ctx.ui.confirm = null; } }),
      button('Keep', () => { ctx.ui.confirm = null; ctx.rerender(); }, { class: 'ghost small' }),
    );
  }
  return h(
    'div',
    { class: 'card-foot' },
    button('Remove', () => { ctx.ui.confirm = key; ctx.rerender(); }, { class: 'ghost small', testid: 'remove-object', aria: `Remove ${objectName(o)}` }),
    msg(ctx, key),
  );
}
