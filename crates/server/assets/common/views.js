// Views on a phone, for every game's page: on a narrow screen the table is a few views a thumb
// switches between from a bar at the bottom; on a wide one everything shows at once. A page
// tags each section with the views it belongs to (`tagged`), builds its layout, and calls
// `showOnly` with the view chosen: sections of other views get the class `off-tab`, which the
// stylesheet hides on a narrow screen only. `tabBar` is the bar, with a mark on a view where
// something new waits (a number: how many new log lines).

import { h } from './dom.js';

/** Wide enough to show every view at once (the stylesheet's breakpoint). */
export const wide = window.matchMedia ? window.matchMedia('(min-width: 760px)') : { matches: true };

/** Marks `nodes` (a node, or a list with nulls) as belonging to the views `tabs` ("a b"). */
export function tagged(nodes, tabs) {
  for (const n of [nodes].flat(Infinity)) if (n && n.setAttribute) n.setAttribute('data-tabs', tabs);
  return nodes;
}

/** Shows view `tab` of `layout` (a built tree): the others' sections are marked off. */
export function showOnly(layout, tab) {
  layout.setAttribute('data-tab', tab);
  for (const el of layout.querySelectorAll('[data-tabs]')) {
    if (!el.getAttribute('data-tabs').split(' ').includes(tab)) el.classList.add('off-tab');
  }
  return layout;
}

/**
 * The bar of views. `tabs`: [{id, label}]; `marks`: view id → true (something new) or a number
 * (new log lines); `onShow(id)` switches.
 */
export function tabBar(tabs, current, marks, onShow) {
  return h(
    'nav',
    { class: 'tabbar', 'aria-label': 'Views of the table', testid: 'tabbar', 'data-key': 'tabbar' },
    tabs.map((t) => {
      const mark = t.id !== current ? marks[t.id] : null;
      const count = typeof mark === 'number' && mark > 0 ? mark : 0;
      const attention = !!count || mark === true;
      return h(
        'button',
        {
          type: 'button',
          class: ['tab', t.id === current ? 'current' : null],
          'aria-pressed': String(t.id === current),
          testid: 'tab-' + t.id,
          'data-attention': attention ? 'true' : null,
          'data-key': 'tab:' + t.id,
          onclick: () => onShow(t.id),
        },
        h('span', { class: 'tab-label' }, t.label),
        attention ? h('span', { class: 'tab-dot', role: 'img', 'aria-label': count ? `${count} new in the log` : 'something new' }, count ? String(Math.min(count, 99)) : '') : null,
      );
    }),
  );
}
