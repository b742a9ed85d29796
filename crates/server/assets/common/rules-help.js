// Rules at hand: a short explanation in our own words, one tap away (a <details> that stays
// open or closed as the player left it), for a phase of the story game (story/phase-help.js)
// or a step of a board game turn (board/step-help.js). The seeds' full rules are for reading
// before play; these are for the table.

import { h } from './dom.js';

/**
 * A "How this works" box: `points` are sentences; it remembers whether it is open.
 * @param {import('./page-types').AnyContext} ctx
 * @param {string} key
 * @param {string} title
 * @param {string[] | null | undefined} points
 */
export function rulesHelp(ctx, key, title, points) {
  if (!points) return null;
  const open = ctx.ui.open.has('help:' + key);
  return h(
    'details',
    { class: 'rules-help', testid: 'rules-help', 'data-help': key, open, ontoggle: (e, el) => ctx.toggled('help:' + key, el.open), 'data-key': 'help:' + key },
    h('summary', null, title),
    h('ul', null, points.map((p, i) => h('li', { 'data-key': 'h' + i }, p))),
  );
}
