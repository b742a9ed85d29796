// The page shell every table page shares, whatever its game: the header (title, badges, the
// invitation, the exports), the banners (the reconnecting one first), a phone's views and their
// bar, the log, the toasts and the footer with the theme menu. A game's view builds its own
// parts and puts them in these.

import { h } from './dom.js';
import { button } from './controls.js';
import { addHere } from './device.js';

/** @typedef {import('./page-types').AnyContext} Ctx */
/** @typedef {import('./page-types').Child} Child */

/**
 * Wide enough to show every view at once (the stylesheet's breakpoint: narrower is a phone,
 * with its views and their bar, below).
 */
export const wide = window.matchMedia ? window.matchMedia('(min-width: 760px)') : { matches: true };

/** The player asked for less motion: pages move nothing but at once. */
export const reducedMotion = window.matchMedia ? window.matchMedia('(prefers-reduced-motion: reduce)') : { matches: true };

// ---------------------------------------------------------------- the header

/**
 * @typedef {{title: Child, meta: Child, invite?: Child, inPlay?: boolean, exportsLabel: string,
 *   gameFile: {download: string, title: string}, publish?: Child, mayWatch?: boolean}} HeaderParts
 */

/**
 * Whether the header is one line, the invitation and the exports waiting in the view that
 * lists the table's people (`tableLinks`): on a phone, once the table is in play (`inPlay`:
 * the first screen, while the others are still being invited, keeps them in the header).
 * @param {HeaderParts} parts
 */
function oneLine(parts) {
  return !!parts.inPlay && !wide.matches;
}

/**
 * The header: `title` (the table's name) with its `meta` badges, the invitation (or what the
 * game shows in its place: `invite`), and the exports: the Markdown, the printable page, the
 * game file (`gameFile`: its download name and a title saying what it holds), `publish`
 * (the published page's links, for the games whose header has them) and the watch link
 * (`mayWatch`: whether this player may open one; by default the table's creator). On a phone once the
 * table is in play (`inPlay`), only the title and the badges, on one line: the rest is in
 * `tableLinks`.
 * @param {Ctx} ctx
 * @param {HeaderParts} parts
 */
export function topbar(ctx, parts) {
  const { title, meta, invite = inviteBlock(ctx) } = parts;
  const short = oneLine(parts);
  return h(
    'header',
    { class: ['topbar', short ? 'one-line' : null], 'data-key': 'topbar', testid: 'topbar' },
    h('a', { class: 'skip-link', href: '#main' }, 'Skip to the game'),
    h('div', { class: 'title-block' }, h('p', { class: 'brand' }, 'Prophecy'), h('h1', { class: 'table-title', testid: 'table-title' }, title), h('p', { class: 'meta' }, meta)),
    short ? null : invite,
    short ? null : exportLinks(ctx, parts),
  );
}

/**
 * On a phone once the table is in play, what the header leaves out (the invitation, the
 * exports), for the view that lists the table's people; null elsewhere (they are in the header).
 * @param {Ctx} ctx
 * @param {HeaderParts} parts
 */
export function tableLinks(ctx, parts) {
  if (!oneLine(parts)) return null;
  const { invite = inviteBlock(ctx) } = parts;
  return h(
    'section',
    { class: 'panel table-links', 'aria-labelledby': 'table-links-h', testid: 'table-links', 'data-key': 'table-links' },
    h('h2', { id: 'table-links-h' }, invite ? 'Invite and export' : 'Export'),
    invite,
    exportLinks(ctx, parts),
  );
}

/**
 * @param {Ctx} ctx
 * @param {HeaderParts} parts
 */
function exportLinks(ctx, { exportsLabel, gameFile, publish = null, mayWatch }) {
  return h(
    'nav',
    { class: 'exports', 'aria-label': exportsLabel, 'data-key': 'exports' },
    h('a', { href: `/t/${ctx.token}/export.md`, download: true, testid: 'export-md' }, 'Markdown'),
    h('a', { href: `/t/${ctx.token}/print`, target: '_blank', rel: 'noopener', testid: 'export-print' }, 'Printable page'),
    h('a', { href: `/t/${ctx.token}/game.jsonl`, download: gameFile.download, testid: 'export-game', title: gameFile.title }, 'Game file'),
    publish,
    watchLinks(ctx, mayWatch === undefined ? !!(ctx.invite && ctx.invite.creator) : mayWatch),
    button('Replay', () => ctx.openReplay(), { class: 'ghost small', testid: 'open-replay', title: 'Step through the game from its first event' }),
  );
}

/**
 * The watch link, for people who follow the table without playing: while it is open, the
 * link, how many watch and Close for everyone; else Let people watch for whoever may open it
 * (`mayWatch`; at a story table it is a proposal to the table).
 * @param {Ctx} ctx
 * @param {boolean} mayWatch
 */
function watchLinks(ctx, mayWatch) {
  const invite = ctx.invite;
  if (!invite) return null;
  if (invite.watch) {
    const watching = ctx.watchers === 1 ? '1 watching' : `${ctx.watchers} watching`;
    return h(
      'span',
      { class: 'watch-links', testid: 'watch-links' },
      h('a', { href: invite.watch, target: '_blank', rel: 'noopener', testid: 'open-watch', title: 'The table live, for anyone with this link: they see what every player sees' }, 'Watch link'),
      h('span', { class: 'meta', testid: 'watchers' }, watching),
      button('Close it', () => ctx.changeWatch('close'), { class: 'ghost small', testid: 'close-watch', title: 'Send every watcher away and close the link (any player may)' }),
    );
  }
  if (!mayWatch) return null;
  return button('Let people watch', () => ctx.changeWatch('open'), { class: 'ghost small', testid: 'open-watch-link', title: 'A link for people to follow the table live, seeing what every player sees' });
}

const INVITE_CONFIRM = {
  renew: 'The current link will stop seating new players; everyone seated stays.',
  close: 'Nobody new can take a seat until you open joining again (with a new link).',
};

/**
 * The creator's controls; renewing and closing ask once, in place (nothing is undone later).
 * @param {Ctx} ctx
 * @param {import('./messages').Invite} invite
 */
function inviteControls(ctx, invite) {
  const { ui } = ctx;
  const asking = ui.confirm === 'invite-renew' ? 'renew' : ui.confirm === 'invite-close' ? 'close' : null;
  if (asking) {
    return h(
      'div',
      { class: 'invite-controls', role: 'group', 'aria-label': 'Confirm' },
      h('p', { class: 'meta' }, INVITE_CONFIRM[asking]),
      h(
        'div',
        { class: 'row' },
        h('button', { type: 'button', class: 'btn danger small', testid: `confirm-${asking}-invite`, onclick: () => ctx.changeInvite(asking) }, asking === 'renew' ? 'Make a new link' : 'Close joining'),
        h('button', { type: 'button', class: 'btn ghost small', onclick: () => { ui.confirm = null; ctx.rerender(); } }, 'Keep it'),
      ),
    );
  }
  const ask = (/** @type {string} */ what) => () => {
    ui.confirm = `invite-${what}`;
    ctx.rerender();
  };
  return h(
    'div',
    { class: 'row invite-controls' },
    invite.open ? h('button', { type: 'button', class: 'btn ghost small', testid: 'renew-invite', onclick: ask('renew') }, 'New link') : null,
    invite.open
      ? h('button', { type: 'button', class: 'btn ghost small', testid: 'close-joining', onclick: ask('close') }, 'Close joining')
      : h('button', { type: 'button', class: 'btn secondary small', testid: 'open-joining', onclick: () => ctx.changeInvite('open') }, 'Open joining'),
  );
}

/**
 * The invitation: its link (with the table's current code) and QR code for everyone seated;
 * for the creator, a new link (the old one stops seating newcomers) and closing joining.
 * @param {Ctx} ctx
 */
export function inviteBlock(ctx) {
  const { ui } = ctx;
  const invite = ctx.invite;
  const creatorControls = invite && invite.creator ? inviteControls(ctx, invite) : null;
  if (invite && !invite.open) {
    return h(
      'div',
      { class: 'invite', 'data-key': 'invite' },
      h('p', { class: 'meta', testid: 'joining-closed' }, 'Joining is closed: nobody new can take a seat.'),
      creatorControls,
    );
  }
  const url = (invite && invite.link) || '';
  return h(
    'div',
    { class: 'invite', 'data-key': 'invite' },
    h('label', { for: 'invite-link' }, 'Invite link'),
    h(
      'div',
      { class: 'row' },
      h('input', { id: 'invite-link', type: 'text', readonly: true, value: url, placeholder: invite ? '' : 'Loading…', testid: 'invite-link', 'data-key': 'invite-link', onfocus: (e, el) => el.select() }),
      h('button', { type: 'button', class: 'btn secondary', testid: 'copy-link', disabled: !url, onclick: () => ctx.copyLink(url) }, ui.copied ? 'Copied' : 'Copy link'),
    ),
    h('span', { class: 'visually-hidden', role: 'status' }, ui.copied ? 'Link copied to the clipboard' : ''),
    h(
      'details',
      { class: 'qr', open: ui.open.has('qr'), ontoggle: (e, el) => ctx.toggled('qr', el.open) },
      h('summary', { testid: 'show-qr' }, 'QR code for phones'),
      // The link in the query makes the browser fetch a new picture when the link is renewed.
      ui.open.has('qr') && url ? h('img', { src: `/t/${ctx.token}/qr.svg?for=${encodeURIComponent(url.slice(-8))}`, alt: 'QR code of the invite link', width: 200, height: 200, testid: 'qr' }) : null,
    ),
    // One device passed around the table: with several seats here, the bar above the table
    // adds them (common/device.js).
    ctx.device.length < 2 ? addHere(ctx) : null,
    creatorControls,
  );
}

/**
 * A board or Challenge table's published page, in its header: the link and Withdraw for
 * everyone, Publish for whoever may (`mayPublish`: the table's creator, the game master; the
 * server refuses anyone else).
 * @param {Ctx} ctx
 * @param {boolean | null} mayPublish
 */
export function publishLinks(ctx, mayPublish) {
  const invite = ctx.invite;
  if (!invite) return null;
  if (invite.share) {
    return [
      h('a', { href: invite.share, target: '_blank', rel: 'noopener', testid: 'open-shared', title: 'The story’s read-only page, for anyone with its link' }, 'Published page'),
      button('Withdraw it', () => ctx.changeShare('withdraw'), { class: 'ghost small', testid: 'withdraw-story', title: 'Take the published page down (any player may)' }),
    ];
  }
  if (!mayPublish) return null;
  return button('Publish a read-only page', () => ctx.changeShare('publish'), { class: 'ghost small', testid: 'publish-story', title: 'The story on a page of its own, at a link nobody can guess' });
}

// ---------------------------------------------------------------- the stream layout

/**
 * A watcher's page in the stream layout (`/w/CODE?layout=stream`, `ctx.stream`), for a
 * streaming program's browser source: the table's `title`, what is in play now (`play`: the
 * scene or the turn, with its dice as they fall) and the newest lines of the log (`text`: a
 * line as the game words it), in large type.
 * @param {Ctx} ctx
 * @param {Child} title
 * @param {Child} play
 * @param {(e: import('./messages').LogEntry) => Child} [text]
 */
export function streamLayout(ctx, title, play, text = (e) => e.text) {
  const newest = ctx.log.slice(-STREAM_LINES);
  return h(
    'div',
    { class: 'stream-layout', testid: 'stream', 'data-key': 'stream' },
    h('h1', { class: 'stream-title', testid: 'stream-title' }, title),
    h('div', { class: 'stream-play', testid: 'stream-play', 'data-key': 'stream-play' }, play),
    h('ol', { class: 'stream-log', testid: 'stream-log', 'aria-label': 'What just happened', 'data-key': 'stream-log' }, newest.map((e) => h('li', { 'data-key': 'e' + e.seq }, text(e)))),
  );
}

/** Log lines the stream layout shows. */
const STREAM_LINES = 4;

// ---------------------------------------------------------------- banners

/**
 * While the socket is down: the page says so, above everything, in every game.
 * @param {Ctx} ctx
 */
export function reconnectBanner(ctx) {
  return ctx.connected ? null : h('div', { class: 'banner reconnecting', role: 'status', testid: 'reconnecting-banner', 'data-key': 'reconnecting' }, h('span', { class: 'spinner', 'aria-hidden': 'true' }), 'Connection lost: reconnecting…');
}

/**
 * The banners above the table: the reconnecting one, then the game's own (`more`).
 * @param {Ctx} ctx
 * @param {...Child} more
 */
export function banners(ctx, ...more) {
  return h('div', { class: 'banners', 'data-key': 'banners' }, reconnectBanner(ctx), more);
}

// ---------------------------------------------------------------- views on a phone

// On a narrow screen the table is a few views a thumb switches between from a bar at the
// bottom; on a wide one everything shows at once. A page tags each section with the views it
// belongs to (`tagged`), builds its layout, and calls `showOnly` with the view chosen:
// sections of other views get the class `off-tab`, which the stylesheet hides on a narrow
// screen only. `tabBar` is the bar, with a mark on a view where something new waits (a
// number: how many new log lines).


/**
 * Marks `nodes` (a node, or a list with nulls) as belonging to the views `tabs` ("a b").
 * @template {Child} T
 * @param {T} nodes
 * @param {string} tabs
 * @returns {T}
 */
export function tagged(nodes, tabs) {
  for (const n of /** @type {unknown[]} */ ([nodes]).flat(Infinity)) if (n instanceof Element) n.setAttribute('data-tabs', tabs);
  return nodes;
}

/**
 * Shows view `tab` of `layout` (a built tree): the others' sections are marked off.
 * @template {Element} T
 * @param {T} layout
 * @param {string} tab
 * @returns {T}
 */
export function showOnly(layout, tab) {
  layout.setAttribute('data-tab', tab);
  for (const el of layout.querySelectorAll('[data-tabs]')) {
    if (!(el.getAttribute('data-tabs') || '').split(' ').includes(tab)) el.classList.add('off-tab');
  }
  return layout;
}

/**
 * The bar of views. `tabs`: [{id, label}]; `marks`: view id → true (something new) or a number
 * (new log lines); `onShow(id)` switches.
 * @param {Array<{id: string, label: string}>} tabs
 * @param {string} current
 * @param {Record<string, boolean | number | undefined>} marks
 * @param {(id: string) => void} onShow
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

// ---------------------------------------------------------------- the log

/**
 * The log: `entries` (the lines the page holds), newest last, each at its time; `text(e)` is a
 * line's text (a string or nodes) and `lineClass(e)` its class.
 * @template {import('./messages').LogEntry} E
 * @param {Ctx} ctx
 * @param {E[]} entries
 * @param {(e: E) => Child} [text]
 * @param {(e: E) => string | null} [lineClass]
 */
export function logPanel(ctx, entries, text = (e) => e.text, lineClass = () => null) {
  return h(
    'section',
    { class: 'panel log-panel', id: 'log-panel', 'aria-labelledby': 'log-h', 'data-key': 'log-panel' },
    h('h2', { id: 'log-h' }, 'Log'),
    olderLines(ctx),
    h(
      'ol',
      { class: 'log', id: 'log', testid: 'log', 'aria-live': 'polite', 'aria-relevant': 'additions', tabindex: 0, 'aria-label': 'What happened at the table, newest last' },
      entries.map((e) =>
        h(
          'li',
          { 'data-key': 's' + e.seq, 'data-seq': e.seq, testid: 'log-entry', class: lineClass(e) },
          h('time', { datetime: new Date(e.at).toISOString() }, formatTime(e.at)),
          ' ',
          h('span', { class: 'log-text' }, text(e)),
        ),
      ),
    ),
  );
}

/**
 * Above the log when the table has older lines than the page holds (a sync carries only the
 * newest): a button that asks for the next page of them.
 * @param {Ctx} ctx
 */
export function olderLines(ctx) {
  if (!ctx.logOlder) return null;
  return h(
    'p',
    { class: 'log-older', 'data-key': 'log-older' },
    h(
      'button',
      { type: 'button', class: 'btn ghost small', testid: 'log-older', disabled: ctx.logAsking || !ctx.connected, onclick: () => ctx.olderLines() },
      ctx.logAsking ? 'Bringing earlier lines…' : 'Show earlier lines',
    ),
  );
}

// One formatter for every time shown, made when the page's script runs: `toLocaleTimeString`
// with options makes a new one on each call, and a render formats every line of the log. The
// first one costs a tenth of a second on a slow phone; made here, it is made while the page
// waits for its socket, not when the table is drawn.
const clockTime = new Intl.DateTimeFormat([], { hour: '2-digit', minute: '2-digit' });

/** @param {number} ms */
export function formatTime(ms) {
  try {
    return clockTime.format(ms);
  } catch {
    return '';
  }
}

// ---------------------------------------------------------------- toasts and the footer

/** @param {Ctx} ctx */
export function toasts(ctx) {
  return h(
    'div',
    { class: 'toasts', 'aria-live': 'polite', 'data-key': 'toasts' },
    ctx.ui.toasts.map((t) =>
      h(
        'div',
        { class: ['toast', t.kind], role: t.kind === 'info' ? 'status' : 'alert', testid: t.kind === 'refused' ? 'refusal' : 'toast', 'data-key': 't' + t.id },
        t.rule ? h('strong', null, t.rule + ': ') : null,
        t.text,
        h('button', { type: 'button', class: 'icon dismiss', 'aria-label': 'Dismiss', onclick: () => ctx.dismissToast(t.id) }),
      ),
    ),
  );
}

/**
 * The footer: the game's links and words (`parts`), then the theme menu.
 * @param {...Child} parts
 */
export function pageFooter(...parts) {
  return h('footer', { class: 'page-footer', 'data-key': 'footer' }, parts, ' · ', themeMenu());
}

/** The theme menu (common/theme.js applies and keeps the choice): the system's, light or dark. */
export function themeMenu() {
  const chosen = window.prophecyTheme ? window.prophecyTheme.chosen() : 'system';
  const option = (/** @type {string} */ value, /** @type {string} */ label) => h('option', { value, selected: chosen === value }, label);
  return h(
    'label',
    { class: 'theme-menu' },
    'Theme ',
    h('select', { 'data-theme-select': true, testid: 'theme-select', 'data-key': 'theme-select' }, option('system', 'as the device'), option('light', 'light'), option('dark', 'dark')),
  );
}
