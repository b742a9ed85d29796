// The X-card on a text: the flag button beside every text a player typed, and what a flagged
// text shows in its place until someone replaces it.

import { h } from '../common/dom.js';
import { msg, pending } from '../common/controls.js';

/**
 * @typedef {import('./page-types').StoryContext} Ctx
 * @typedef {import('./page-types').FlagTarget} FlagTarget
 * @typedef {import('../common/page-types').Child} Child
 */

/**
 * The wire form of a flag target, and a string naming it.
 * @param {FlagTarget} target
 */
export function flagKey(target) {
  return target.id === undefined ? target.text : `${target.text}:${target.id}`;
}

/**
 * The X-card: anyone may flag a text, anonymously, without a reason.
 * @param {Ctx} ctx
 * @param {FlagTarget} target
 * @param {string} what
 */
export function flagButton(ctx, target, what) {
  const key = 'flag:' + flagKey(target);
  return [
    h(
      'button',
      {
        type: 'button',
        class: 'icon flag',
        testid: 'flag',
        'data-flag': flagKey(target),
        'aria-label': `Flag ${what}: hide it until it is replaced (no reason needed)`,
        title: `Flag ${what} (X-card)`,
        disabled: pending(ctx, key),
        'data-key': key,
        onclick: () => ctx.act(key, { action: 'flag', target }),
      },
      h('span', { 'aria-hidden': 'true' }, '⚑'),
    ),
    msg(ctx, key),
  ];
}

/**
 * What a flagged text shows instead of itself, with the way to replace it (if there is one).
 * @param {Ctx} ctx
 * @param {FlagTarget} target
 * @param {{onclick: () => void, label?: string} | null | undefined | false} replace
 */
export function flagged(ctx, target, replace) {
  return h(
    'span',
    { class: 'flagged', testid: 'flagged', 'data-flag': flagKey(target), id: 'flagged-' + flagKey(target).replace(':', '-') },
    h('span', { class: 'flagged-label' }, 'flagged — hidden until replaced'),
    replace
      ? h(
          'button',
          {
            type: 'button',
            class: 'btn small secondary',
            testid: 'replace',
            'data-flag': flagKey(target),
            onclick: replace.onclick,
          },
          replace.label || 'Replace',
        )
      : null,
  );
}
