// What every table page shares, whatever its game: the table's token and invitation code from
// the address, finding out who we are, the WebSocket, and with them the join form (join.js)
// and the table's links (links.js). Each game's page keeps its own state object and
// rendering; this module reads and writes the fields named below on that object.
//
// state fields: screen (loading | join | table | removed | gone), me, watching, view, seq,
// online, watchers, connected, everTried, removedMessage, goneMessage, joinRefusal, joinAbout.
// A watcher's page (`/w/CODE`) has no seat: it connects to the watch link's socket, and its
// `sync` names no player. A browser that holds several seats (pass the phone, device.js) speaks
// for the one this tab chose: its socket names it.

import { joinForm, takeSeat } from './join.js';
import { tableLinks } from './links.js';
import { Connection, reachError } from './net.js';
import { applyLog } from './requests.js';
import { rememberTable } from './your-tables.js';
import { chosenSeat, chooseSeat, seatHeaders } from './device.js';

const match = location.pathname.match(/^\/t\/([0-9a-fA-F]+)\/?$/);
/** The table's token, from the address (`null` when the address is not a table's). */
export const token = match ? match[1] : null;
const watchMatch = location.pathname.match(/^\/w\/([0-9a-fA-F]+)\/?$/);
/** A watcher's page: the watch link's code, from the address (`/w/CODE`), or `null`. */
export const watchCode = watchMatch ? watchMatch[1] : null;
/** A newcomer's link carries the table's invitation code: /t/{token}?join=CODE. */
export const joinCode = new URLSearchParams(location.search).get('join');

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
 *   device: () => void,
 * }} page
 */
export function seat(page) {
  const { state, render, toast } = page;
  /** @type {Connection | null} */
  let conn = null;
  // Only a table's address opens a seat (`boot`): the token is there.
  const at = { ...page, token: /** @type {string} */ (token), joinCode };
  const joinScreen = joinForm(at, () => connect());
  const links = tableLinks(at);

  function connect() {
    if (conn) conn.stop();
    const chosen = chosenSeat(token);
    conn = new Connection(
      watchCode ? `/w/${watchCode}/ws` : `/t/${token}/ws${chosen === null ? '' : `?seat=${chosen}`}`,
      {
        sync: (m) => {
          state.watching = !!watchCode;
          state.watchers = m.watchers || 0;
          // Connected at once (`boot`): the first sync says who we are.
          if (!state.me && typeof m.you === 'number') {
            state.me = { player: m.you };
            rememberTable(at.token);
          }
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
          state.watchers = m.watchers || 0;
          render();
        },
        removed: (m) => {
          state.screen = 'removed';
          state.removedMessage = m.message;
          render();
        },
        invite: links.loadInvite,
        device: (m) => {
          state.device = m.seats || [];
          page.device();
        },
        own: page.own || (() => {}),
        status: (c) => {
          state.connected = c;
          if (!c) state.everTried = true;
          render();
        },
        lost: page.lost,
        unauthorized: (status) => {
          if (watchCode) {
            state.screen = 'gone';
            state.goneMessage = 'There is no table to watch at this link: it was closed, or the link is wrong.';
            render();
            return;
          }
          // The seat this tab chose is gone (removed): the browser's first speaks instead.
          if (status === 401 && chosenSeat(token) !== null) {
            chooseSeat(at.token, null);
            state.me = null;
            connect();
            return;
          }
          // Connected at once and refused: the seat is not known here yet; ask who we are.
          if (!state.me) {
            if (conn) conn.stop();
            whoAmI(page, connect);
            return;
          }
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

  /**
   * Opens the table. A returning player (no invitation code in the address) connects at once:
   * the socket knows the seat by its cookie, and its `sync` says which player this page is,
   * so a slow network pays one round trip less. A newcomer's link, or a socket refused for
   * want of a seat, asks `/me` first (`whoAmI`).
   */
  function boot() {
    if (watchCode) {
      render();
      connect();
      return;
    }
    if (!token) {
      state.screen = 'gone';
      render();
      return;
    }
    render();
    if (joinCode) whoAmI(page, connect);
    else connect();
  }

  return {
    joinScreen,
    boot,
    ...links,
    /** Asks for the log lines older than the oldest the page holds. */
    olderLines: () => {
      const first = state.log.length ? state.log[0].seq : state.seq + 1;
      if (conn && conn.olderLines(first)) {
        state.logAsking = true;
        render();
      }
    },
    /**
     * Speaks for another seat this browser holds: the page starts again from its `sync`.
     * @param {number} player
     */
    switchTo: (player) => {
      chooseSeat(at.token, player);
      state.me = { player };
      connect();
    },
    /**
     * Seats a player named `name` on this device (the table's invitation must be open);
     * whether it did. The socket opens again, so the table sees them here.
     * @param {string} name
     */
    addHere: async (name) => {
      const { ui } = page;
      const code = state.invite && state.invite.link ? new URL(state.invite.link).searchParams.get('join') : null;
      if (!name.trim()) {
        ui.addHereError = 'Type their name first.';
        render();
        return false;
      }
      ui.addHerePending = true;
      ui.addHereError = '';
      render();
      try {
        await takeSeat(at.token, { name: name.trim(), join: code, also: true }, seatHeaders(token));
        toast('info', `${name.trim()} plays on this device: the page asks to pass it when the table waits for them.`);
        ui.addingHere = false;
        // The socket again: its `device` names the new seat, and the table sees them here.
        connect();
        return true;
      } catch (e) {
        ui.addHereError = reachError(e);
        return false;
      } finally {
        ui.addHerePending = false;
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

/**
 * Who we are, asked of `/me`: `connect()` with a seat, or the join form (or why the link
 * cannot seat us).
 * @param {{state: import('./page-types').SharedState<unknown, unknown, unknown>, render: () => void}} page
 * @param {() => void} connect
 */
async function whoAmI(page, connect) {
  const { state, render } = page;
  for (let attempt = 0; ; attempt++) {
    try {
      const query = joinCode ? `?join=${encodeURIComponent(joinCode)}` : '';
      const r = await fetch(`/t/${token}/me${query}`, { headers: { Accept: 'application/json', ...seatHeaders(token) }, credentials: 'same-origin' });
      if (r.ok) {
        const me = await r.json();
        // A server may also say "no seat" with 200 and no player (no 401 in the console).
        if (me && me.player !== null && me.player !== undefined) {
          state.me = me;
          state.device = me.seats || [];
          // The seat this tab chose may be gone: /me answers with the one that speaks now.
          if (chosenSeat(token) !== null && chosenSeat(token) !== me.player) chooseSeat(/** @type {string} */ (token), me.player);
          rememberTable(/** @type {string} */ (token));
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
