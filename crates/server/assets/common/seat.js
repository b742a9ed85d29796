// What every table page shares, whatever its game: the table's token and invitation code from
// the address, finding out who we are (GET /t/{token}/me), the join form, the WebSocket, and
// the invitation link (load, copy, renew or close). Each game's page keeps its own state
// object and rendering; this module reads and writes the fields named below on that object.
//
// state fields: screen (loading | join | table | removed | gone), me, view, seq, online,
// connected, everTried, removedMessage, goneMessage, joinError, joinPending, joinRefusal, joinAbout,
// invite. ui fields: copied, confirm.

import { h } from './dom.js';
import { Connection } from './net.js';
import { applyLog } from './requests.js';
import { rememberTable } from './your-tables.js';

const match = location.pathname.match(/^\/t\/([0-9a-fA-F]+)\/?$/);
/** The table's token, from the address (`null` when the address is not a table's). */
export const token = match ? match[1] : null;
/** A newcomer's link carries the table's invitation code: /t/{token}?join=CODE. */
export const joinCode = new URLSearchParams(location.search).get('join');

/**
 * The games by their name in views and summaries.
 * @type {Record<string, string>}
 */
const GAMES = { story: 'Prophecy, the story game', board: 'Prophecy, the board game', challenge: 'The Challenge rules' };

/**
 * A network error for people: the server's message, or that it could not be reached.
 * @param {unknown} e
 */
export function reachError(e) {
  return e instanceof Error && e.message && e.message !== 'Failed to fetch' ? e.message : 'Could not reach the server. Try again.';
}

/**
 * The seat and the connection of one page.
 * `page`: state, ui (see above), render(), toast(kind, text), the join form's `intro` (one
 * sentence about the game), and the game's message handlers: sync, update, answer, own, lost
 * (see net.js).
 * @param {{
 *   state: import('./page-types').SharedState<unknown, unknown, unknown>,
 *   ui: import('./page-types').SharedUi,
 *   render: () => void,
 *   toast: (kind: string, text: string) => void,
 *   intro: string,
 *   sync: (msg: import('./messages').SyncMessage<unknown, unknown>) => void,
 *   update: (msg: import('./messages').TakenUpdate<unknown>) => void,
 *   answer: (msg: import('./messages').AnswerMessage) => void,
 *   own?: (msg: import('./messages').OwnMessage<unknown>) => void,
 *   lost: (reqs: number[]) => void,
 * }} page
 */
export function seat(page) {
  const { state, ui, render, toast } = page;
  /** @type {Connection | null} */
  let conn = null;

  function joinScreen() {
    const about = state.joinAbout;
    return h(
      'main',
      { class: 'center-screen join', id: 'main' },
      h('p', { class: 'brand' }, 'Prophecy'),
      h('h1', { testid: 'join-title' }, state.joinRefusal ? 'This link cannot seat you' : about ? `Join “${about.title}”` : 'Join this table'),
      state.joinRefusal ? h('p', { class: 'message error', role: 'alert', testid: 'join-refusal' }, state.joinRefusal) : null,
      state.joinRefusal ? h('p', null, h('a', { href: '/' }, 'Start a new table')) : null,
      about && !state.joinRefusal
        ? h(
            'p',
            { class: 'join-about', testid: 'join-about' },
            h('strong', null, GAMES[about.game] || about.game),
            about.players && about.players.length ? ` · at the table: ${about.players.join(', ')}` : ' · nobody is seated yet',
          )
        : null,
      state.joinRefusal ? null : h('p', null, page.intro),
      state.joinRefusal
        ? null
        : h(
            'form',
            {
              class: 'form join-form',
              testid: 'join-form',
              method: 'post',
              action: `/t/${token}/join`,
              'aria-busy': state.joinPending ? 'true' : null,
              novalidate: true,
              onsubmit: (e, f) => join(f),
            },
            h('div', { class: 'field' }, h('label', { for: 'join-name' }, 'Your name'), h('input', { id: 'join-name', name: 'name', type: 'text', required: true, maxlength: 80, autocomplete: 'nickname', testid: 'join-name', 'data-key': 'join-name' })),
            h('button', { type: 'submit', class: 'btn primary', testid: 'join-submit', disabled: state.joinPending }, state.joinPending ? 'Joining…' : 'Join the table'),
            state.joinError ? h('p', { class: 'message error', role: 'alert', testid: 'join-error' }, state.joinError) : null,
          ),
    );
  }

  /** @param {HTMLFormElement} f */
  async function join(f) {
    const field = /** @type {HTMLInputElement} */ (f.elements.namedItem('name'));
    const name = field.value.trim();
    if (!name) {
      state.joinError = 'Type your name first.';
      render();
      field.focus();
      return;
    }
    state.joinPending = true;
    state.joinError = '';
    render();
    try {
      const r = await fetch(`/t/${token}/join`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify({ name, join: joinCode }),
        credentials: 'same-origin',
      });
      const body = await r.json().catch(() => ({}));
      if (!r.ok) throw new Error(body.error || `The server answered ${r.status}.`);
      state.me = { player: body.player, name };
      state.joinPending = false;
      // Only a table's address shows the join form (`boot`): the token is there.
      rememberTable(/** @type {string} */ (token));
      // The seat is in the cookie now: the invitation code need not stay in the address bar.
      history.replaceState(null, '', `/t/${token}`);
      state.screen = 'loading';
      render();
      connect();
    } catch (e) {
      state.joinPending = false;
      state.joinError = reachError(e);
      render();
      const input = document.getElementById('join-name');
      if (input) input.focus();
    }
  }

  function connect() {
    if (conn) conn.stop();
    conn = new Connection(
      /** @type {string} */ (token),
      {
        sync: (m) => {
          // A sync carries the newest lines only: when it left some out, the page's older
          // lines may not join them, so it starts again from these.
          if (m.older) {
            state.log = [];
            state.logSeqs = new Set();
            state.logOlder = true;
          }
          page.sync(m);
        },
        log: (m) => {
          state.logAsking = false;
          if (m.type === 'log') {
            applyLog(state, m.log);
            state.logOlder = !!m.older;
          } else {
            toast('error', m.message);
          }
          render();
        },
        update: page.update,
        answer: page.answer,
        presence: (m) => {
          state.online = new Set(m.online || []);
          render();
        },
        removed: (m) => {
          state.screen = 'removed';
          state.removedMessage = m.message;
          render();
        },
        invite: loadInvite,
        own: page.own || (() => {}),
        status: (c) => {
          state.connected = c;
          if (!c) state.everTried = true;
          render();
        },
        lost: page.lost,
        unauthorized: (status) => {
          if (status === 404) {
            state.screen = 'gone';
          } else {
            state.screen = 'join';
            state.view = null;
          }
          render();
        },
      },
      () => state.seq,
    );
    state.everTried = false;
    conn.start();
    // If the first connection does not come up, show that we are retrying.
    setTimeout(() => {
      if (!state.connected) {
        state.everTried = true;
        render();
      }
    }, 1500);
  }

  /** Who we are: connects with a seat, or shows the join form (or why the link cannot seat). */
  async function boot() {
    if (!token) {
      state.screen = 'gone';
      render();
      return;
    }
    render();
    for (let attempt = 0; ; attempt++) {
      try {
        const query = joinCode ? `?join=${encodeURIComponent(joinCode)}` : '';
        const r = await fetch(`/t/${token}/me${query}`, { headers: { Accept: 'application/json' }, credentials: 'same-origin' });
        if (r.ok) {
          const me = await r.json();
          // A server may also say "no seat" with 200 and no player (no 401 in the console).
          if (me && me.player !== null && me.player !== undefined) {
            state.me = me;
            rememberTable(token);
            connect();
          } else {
            state.joinRefusal = (me && me.message) || '';
            state.joinAbout = (me && me.table) || null;
            state.screen = 'join';
            render();
          }
          return;
        }
        if (r.status === 401 || r.status === 403) {
          state.screen = 'join';
          render();
          return;
        }
        if (r.status === 404) {
          const body = await r.json().catch(() => ({}));
          state.screen = 'gone';
          state.goneMessage = body.error;
          render();
          return;
        }
      } catch {
        // unreachable: retry below
      }
      state.everTried = true;
      render();
      await new Promise((res) => setTimeout(res, Math.min(500 * 2 ** attempt, 5000)));
    }
  }

  /** @param {string} url */
  async function copyLink(url) {
    let ok = false;
    try {
      if (navigator.clipboard && window.isSecureContext) {
        await navigator.clipboard.writeText(url);
        ok = true;
      }
    } catch {
      ok = false;
    }
    if (!ok) {
      const el = document.getElementById('invite-link');
      if (el instanceof HTMLInputElement) {
        el.focus();
        el.select();
        try {
          ok = document.execCommand('copy');
        } catch {
          ok = false;
        }
      }
    }
    ui.copied = ok;
    if (!ok) toast('info', 'Select the link and copy it by hand.');
    render();
    setTimeout(() => {
      ui.copied = false;
      render();
    }, 2500);
  }

  async function loadInvite() {
    try {
      const r = await fetch(`/t/${token}/invite`, { headers: { Accept: 'application/json' }, credentials: 'same-origin' });
      if (!r.ok) return;
      const before = state.invite;
      /** @type {import('./messages').Invite} */
      const invite = await r.json();
      state.invite = invite;
      // Everyone hears of a published (or withdrawn) story, not only whoever did it.
      if (before && (before.share || null) !== (invite.share || null)) {
        toast('info', invite.share ? 'The story is published as a read-only page: its link is with the story. Any player can withdraw it.' : 'The story’s read-only page was withdrawn.');
      }
      if (state.screen === 'table') render();
    } catch {
      // Offline: the next sync asks again.
    }
  }

  /**
   * Changes one of the table's links (`path`: invite or share) and shows the answer.
   * @param {string} path
   * @param {string} action
   * @param {string} done
   */
  async function changeLinks(path, action, done) {
    ui.confirm = null;
    try {
      const r = await fetch(`/t/${token}/${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify({ action }),
        credentials: 'same-origin',
      });
      const body = await r.json().catch(() => ({}));
      if (!r.ok) throw new Error(body.error || `The server answered ${r.status}.`);
      state.invite = body;
      toast('info', done);
      render();
    } catch (e) {
      toast('error', reachError(e));
    }
  }

  /**
   * The creator renews, closes or opens the invitation.
   * @param {string} action
   */
  function changeInvite(action) {
    return changeLinks('invite', action, action === 'close' ? 'Joining is closed.' : 'A new invitation link is ready.');
  }

  /**
   * Publishes the story as a read-only page (whoever the game lets: the creator, the game
   * master), or withdraws it (any seated player).
   * @param {string} action
   */
  function changeShare(action) {
    return changeLinks('share', action, action === 'publish' ? 'The story has a page of its own: share its link.' : 'The story’s page is withdrawn: its link leads nowhere now.');
  }

  return {
    joinScreen,
    boot,
    copyLink,
    loadInvite,
    changeInvite,
    changeShare,
    /** Asks for the log lines older than the oldest the page holds. */
    olderLines: () => {
      const first = state.log.length ? state.log[0].seq : state.seq + 1;
      if (conn && conn.olderLines(first)) {
        state.logAsking = true;
        render();
      }
    },
    /**
     * Sends an action; its req, or `null` when not connected.
     * @param {import('./page-types').Action} action
     */
    act: (action) => (conn ? conn.act(action) : null),
  };
}
