// Editors that open in place (the prophecy, a name, an objective, a narration): which are
// open (`ui.editing`), and opening or closing one, with the focus going to it.

/**
 * @typedef {import('./page-types').StoryContext} Ctx
 */

/**
 * Opens or closes the editor `key`.
 * @param {Ctx} ctx
 * @param {string} key
 * @param {boolean} [open] (left out: the other way)
 */
export function toggleEditor(ctx, key, open) {
  if (open === undefined) open = !ctx.ui.editing.has(key);
  if (open) ctx.ui.editing.add(key);
  else ctx.ui.editing.delete(key);
  ctx.ui.msgs.delete(key);
  ctx.ui.focusNext = open ? key : null;
  ctx.rerender();
}

/**
 * @param {Ctx} ctx
 * @param {string} key
 */
export function editing(ctx, key) {
  return ctx.ui.editing.has(key);
}
