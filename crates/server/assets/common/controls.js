// Building blocks every game's view uses: forms that know their pending request and show the
// answer beside them, buttons and fields, and a die face drawn with pips.

import { h } from './dom.js';

/** @typedef {import('./page-types').AnyContext} Ctx */
/** @typedef {import('./page-types').Child} Child */
/** @typedef {import('./page-types').Action} Action */

/**
 * The context every render function receives:
 *   view   the server's view (never changed by the page)
 *   ui     the page's own state (selection, open editors, pending requests, messages)
 *   act(key, action, opts)  sends an action; `key` names the place where the player acted
 *   rerender()              renders again after a change to `ui`
 */

/**
 * Message area for the place `key`: the refusal or error of its last request.
 * @param {Ctx} ctx
 * @param {string} key
 */
export function msg(ctx, key) {
  const m = ctx.ui.msgs.get(key);
  if (!m) return null;
  const refused = m.kind === 'refused';
  return h(
    'p',
    {
      class: ['message', refused ? 'refused' : m.kind === 'error' ? 'error' : 'info'],
      role: 'alert',
      testid: refused ? 'refusal' : m.kind === 'error' ? 'request-error' : 'notice',
      'data-for': key,
      'data-key': 'msg',
    },
    m.rule ? h('strong', null, m.rule + ': ') : null,
    m.text,
    h(
      'button',
      {
        type: 'button',
        class: 'icon dismiss',
        'aria-label': 'Dismiss this message',
        onclick: () => {
          ctx.ui.msgs.delete(key);
          ctx.rerender();
        },
      },
    ),
  );
}

/**
 * @param {Ctx} ctx
 * @param {string} key
 */
export function pending(ctx, key) {
  return ctx.ui.pending.has(key);
}

/**
 * A form for the place `key`; `onsubmit(form)` sends its action.
 * @param {Ctx} ctx
 * @param {string} key
 * @param {import('./page-types').FormProps} props
 * @param {...Child} children
 */
export function form(ctx, key, props, ...children) {
  const { onsubmit, class: cls, ...rest } = props || {};
  return h(
    'form',
    {
      ...rest,
      class: ['form', cls],
      'data-form': key,
      'data-key': 'form:' + key,
      'aria-busy': pending(ctx, key) ? 'true' : null,
      novalidate: true,
      onsubmit: (e, el) => onsubmit(el),
    },
    children,
    msg(ctx, key),
  );
}

/**
 * The submit button of the form `key`, disabled while its request is pending (or while
 * `props.disabled`, with `props.title` saying why).
 * @param {Ctx} ctx
 * @param {string} key
 * @param {string} label
 * @param {string} testid
 * @param {{class?: string, disabled?: boolean, title?: string | null, aria?: string}} [props]
 */
export function submit(ctx, key, label, testid, props) {
  const busy = pending(ctx, key);
  return h(
    'button',
    {
      type: 'submit',
      class: ['btn', (props && props.class) || 'primary'],
      testid,
      disabled: busy || !!(props && props.disabled),
      title: (props && props.title) || null,
      'data-key': 'submit',
      ...(props && props.aria ? { 'aria-label': props.aria } : {}),
    },
    busy ? label + '…' : label,
  );
}

/**
 * A button that sends one action, with its message right after it.
 * @param {Ctx} ctx
 * @param {string} key
 * @param {Child} label
 * @param {Action | (() => Action)} action
 * @param {{class?: string, testid?: string, aria?: string, onDone?: () => void, [attribute: string]: unknown}} [props]
 */
export function actionButton(ctx, key, label, action, props = {}) {
  const busy = pending(ctx, key);
  const { class: cls, testid, aria, onDone, ...rest } = props;
  return [
    h(
      'button',
      {
        type: 'button',
        class: ['btn', cls || 'secondary'],
        testid,
        disabled: busy,
        'aria-label': aria,
        'data-key': 'btn:' + key,
        ...rest,
        onclick: () => ctx.act(key, typeof action === 'function' ? action() : action, { onDone }),
      },
      label,
    ),
    msg(ctx, key),
  ];
}

/**
 * A plain button that runs `fn`.
 * @param {Child} label
 * @param {() => void} fn
 * @param {{class?: string, testid?: string, aria?: string, [attribute: string]: unknown}} [props]
 */
export function button(label, fn, props = {}) {
  const { class: cls, testid, aria, ...rest } = props;
  return h(
    'button',
    { type: 'button', class: ['btn', cls || 'secondary'], testid, 'aria-label': aria, ...rest, onclick: fn },
    label,
  );
}

/**
 * @param {string} id
 * @param {Child} label
 * @param {Child} control
 * @param {{class?: string}} [props]
 */
export function labelled(id, label, control, props = {}) {
  return h('div', { class: ['field', props.class] }, h('label', { for: id }, label), control);
}

/**
 * @param {string} id
 * @param {string} name
 * @param {import('./page-types').Props<HTMLInputElement> & {value?: string | number | null}} [props]
 */
export function input(id, name, props = {}) {
  const { testid, value, ...rest } = props;
  return h('input', { id, name, type: 'text', autocomplete: 'off', testid, value, 'data-key': id, ...rest });
}

/**
 * @param {string} id
 * @param {string} name
 * @param {string | null | undefined} value
 * @param {import('./page-types').Props<HTMLTextAreaElement>} [props]
 */
export function textarea(id, name, value, props = {}) {
  const { testid, ...rest } = props;
  return h('textarea', { id, name, testid, rows: 4, 'data-key': id, ...rest }, value || '');
}

/**
 * @typedef {{value: string | number, label: string, disabled?: boolean}} Option
 * @typedef {Option | {group: string, options: Option[]}} OptionOrGroup
 */

/**
 * @param {string} id
 * @param {string} name
 * @param {OptionOrGroup[]} options
 * @param {string | number | null | undefined} selected
 * @param {import('./page-types').Props<HTMLSelectElement>} [props]
 */
export function select(id, name, options, selected, props = {}) {
  const { testid, ...rest } = props;
  return h(
    'select',
    { id, name, testid, 'data-key': id, ...rest },
    options.map((o) =>
      'options' in o
        ? h(
            'optgroup',
            { label: o.group, 'data-key': 'g:' + o.group },
            o.options.map((p) => option(p, selected)),
          )
        : option(o, selected),
    ),
  );
}

/**
 * @param {Option} o
 * @param {string | number | null | undefined} selected
 */
function option(o, selected) {
  return h(
    'option',
    { value: o.value, selected: String(o.value) === String(selected), disabled: o.disabled, 'data-key': 'o:' + o.value },
    o.label,
  );
}

/**
 * The value of the field `name` of `form`: an input, a select or a textarea, which all have one.
 * @param {HTMLFormElement} form
 * @param {string} name
 */
export function fieldValue(form, name) {
  return /** @type {HTMLInputElement} */ (form.elements.namedItem(name)).value;
}

/**
 * A die face drawn with pips (CSS).
 * @param {number} face
 */
export function pips(face) {
  /** @type {Record<number, number[]>} */
  const layouts = {
    1: [5],
    2: [1, 9],
    3: [1, 5, 9],
    4: [1, 3, 7, 9],
    5: [1, 3, 5, 7, 9],
    6: [1, 3, 4, 6, 7, 9],
  };
  const layout = layouts[face] || [];
  return layout.map((p) => h('span', { class: 'pip p' + p, 'aria-hidden': 'true' }));
}
