// The table beside the story: the players (online or not, the host, the moderator, removing a
// player, the dice setting) and the safety tools (lines, flags, the X-card).

import { h } from '../common/dom.js';
import { form, submit, msg, input, labelled, actionButton, button, fieldValue } from '../common/controls.js';
import { objectById, objectName } from './lookups.js';
import { moderatorControls } from './moderator.js';
import { diceSetting } from './dice.js';

/**
 * @typedef {import('./page-types').StoryContext} Ctx
 */

/**
 * @param {Ctx} ctx
 */
export function playersSection(ctx) {
  const { view, online } = ctx;
  const players = view.players || [];
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
 * @param {Ctx} ctx
 */
export function safetySection(ctx) {
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
    ctx.watching
      ? h('p', { class: 'small muted', testid: 'lines-kept' }, 'The table’s lines are its own: watchers do not see them.')
      : lines.length
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
      { class: 'inline-form', onsubmit: (f) => ctx.act(key, { action: 'add_line', text: fieldValue(f, 'text') }, { reset: true }) },
      labelled('line-text', 'Add a line', input('line-text', 'text', { testid: 'line-text', maxlength: 200, placeholder: 'e.g. spiders' })),
      submit(ctx, key, 'Add', 'add-line', { class: 'secondary small' }),
    ),
    h('p', { class: 'small' }, h('a', { href: '/rulings', target: '_blank', rel: 'noopener', testid: 'rulings-safety' }, 'Rulings'), ': how the table settles what the rules leave open.'),
  );
}
