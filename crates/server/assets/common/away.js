// "While you were away": what the others did since this player's last action, in the log's
// words, where the player looks (fixed above the page's foot, like the toasts). It opens when
// the player comes back to a page that was hidden, when the page arrives (a reload, a phone
// reopened), and when a game says the player's turn came round; it closes on the player's own
// next action or when dismissed.

import { h } from './dom.js';

/**
 * @typedef {import('./messages').LogEntry} LogEntry
 * @typedef {import('./page-types').AnyContext} Ctx
 * @typedef {import('./page-types').Child} Child
 */

/** At most this many lines show; the rest are in the log. */
const SHOWN = 8;

/**
 * The seq of this player's last action in the log the page holds (0: none there).
 * @param {LogEntry[]} log
 * @param {number | null} you
 */
export function lastOwnSeq(log, you) {
  let seq = 0;
  for (const e of log) if (e.by === you && you !== null && e.seq > seq) seq = e.seq;
  return seq;
}

/**
 * What happened after `from` that this player did not do.
 * @param {LogEntry[]} log
 * @param {number | null} you
 * @param {number} from
 */
export function othersSince(log, you, from) {
  return log.filter((e) => e.seq > from && (e.by !== you || you === null));
}

/**
 * The account since the player's last action, or nothing when there is none to give.
 * @param {Ctx} ctx
 * @param {(e: LogEntry) => Child} [text] a line as the game shows it in its log
 */
export function awayCard(ctx, text = (e) => e.text) {
  const away = ctx.ui.away;
  if (!away) return null;
  const lines = othersSince(ctx.log, ctx.you, away.from);
  if (!lines.length) return null;
  const shown = lines.slice(-SHOWN);
  const earlier = lines.length - shown.length;
  return h(
    'section',
    { class: 'away', testid: 'while-away', role: 'status', 'aria-labelledby': 'away-h', 'data-key': 'away' },
    h('h2', { id: 'away-h' }, 'While you were away'),
    earlier ? h('p', { class: 'small muted' }, `${earlier} earlier ${earlier === 1 ? 'line is' : 'lines are'} in the log.`) : null,
    h(
      'ul',
      null,
      shown.map((e) => h('li', { testid: 'away-line', 'data-seq': e.seq, 'data-key': 'a' + e.seq }, text(e))),
    ),
    h('button', { type: 'button', class: 'btn secondary small', testid: 'away-dismiss', onclick: () => ctx.dismissAway() }, 'Got it'),
  );
}
