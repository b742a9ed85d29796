// The board's icons: the symbols of the sprite in the board's page (`table.html`, written by
// `e2e/tools/icons.mjs` from game-icons.net's set, CC BY 3.0; credits in `ICONS-LICENSE.md`).
// Every icon is decorative: the words beside it say the same, so it is hidden from screen
// readers. It is drawn in the colour of the text around it (`currentColor`).

import { h } from '../common/dom.js';

/** The sprite's symbols (`#i-NAME`); a test checks that each is in the page. */
export const ICONS = /** @type {const} */ ([
  'fortress', 'thieves-guild', 'magic-tower', 'forest-camp', 'monastery', 'city', 'village',
  'mountains', 'forest', 'plains', 'enchanted-wilderness', 'port', 'magic-gate',
  'creature', 'opportunity', 'chance',
  'weapon', 'two-handed-weapon', 'shield', 'headwear', 'hand-item', 'item',
  'gold', 'health', 'magic', 'experience',
]);

/** @typedef {typeof ICONS[number]} IconName */

/**
 * An icon in the page's text, 1em square unless its class says otherwise.
 * @param {IconName} name
 * @param {string} [cls]
 */
export function icon(name, cls) {
  return h('svg:svg', { class: ['board-icon', cls], 'aria-hidden': 'true', focusable: 'false', 'data-icon': name }, h('svg:use', { href: '#i-' + name }));
}

/**
 * An icon inside the board's own SVG, `size` units square with its top left at `x`, `y`.
 * @param {IconName} name
 * @param {number} x
 * @param {number} y
 * @param {number} size
 * @param {string} [cls]
 */
export function mapIcon(name, x, y, size, cls) {
  return h('svg:use', { href: '#i-' + name, x, y, width: size, height: size, class: cls, 'data-icon': name });
}

/** @type {Record<string, IconName>} */
const SLOT_ICONS = { weapon: 'weapon', 'two-handed weapon': 'two-handed-weapon', shield: 'shield', headwear: 'headwear', 'hand item': 'hand-item' };

/**
 * The icon of an Item, by the slot it takes (a generic bag for the others).
 * @param {{slot?: string}} item
 * @returns {IconName}
 */
export function itemIconName(item) {
  return (item.slot && SLOT_ICONS[item.slot]) || 'item';
}

/**
 * An Item's name with its slot's icon.
 * @param {{slot?: string, name: string}} item
 */
export function itemLabel(item) {
  return [icon(itemIconName(item), 'item-icon'), item.name];
}
