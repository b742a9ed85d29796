// The join form: a newcomer's name, sent with the invitation code from the address, seats
// them; or why their link cannot seat them. state fields: me, screen, joinAbout,
// joinRefusal, joinError, joinPending.

import { h } from './dom.js';
import { reachError } from './net.js';
import { rememberTable } from './your-tables.js';

/**
 * The games by their name in views and summaries.
 * @type {Record<string, string>}
 */

/**
 * The join screen of one page, and what seats the newcomer; `seated()` runs once they are.
 * @param {{
 *   state: import('./page-types').SharedState<unknown, unknown, unknown>,
 *   render: () => void,
 *   intro: string,
 *   token: string,
 *   joinCode: string | null,
 * }} page
 * @param {() => void} seated
 */
export function joinForm(page, seated) {
  const { state, render, token, joinCode } = page;

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
            h('strong', null, about.game_name || about.game),
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
      const body = await takeSeat(token, { name, join: joinCode });
      state.me = { player: body.player, name };
      state.joinPending = false;
      rememberTable(token);
      // The seat is in the cookie now: the invitation code need not stay in the address bar.
      history.replaceState(null, '', `/t/${token}`);
      state.screen = 'loading';
      render();
      seated();
    } catch (e) {
      state.joinPending = false;
      state.joinError = reachError(e);
      render();
      const input = document.getElementById('join-name');
      if (input) input.focus();
    }
  }

  return joinScreen;
}

/**
 * `POST /t/{token}/join`: the answer (`{player}`), or throws with the server's reason.
 * @param {string} token
 * @param {{name: string, join: string | null, also?: boolean}} request
 * @param {Record<string, string>} [headers] the seat the page speaks for, adding one on its device
 * @returns {Promise<{player: number}>}
 */
export async function takeSeat(token, request, headers = {}) {
  const r = await fetch(`/t/${token}/join`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...headers },
    body: JSON.stringify(request),
    credentials: 'same-origin',
  });
  const body = await r.json().catch(() => ({}));
  if (!r.ok) throw new Error(body.error || `The server answered ${r.status}.`);
  return body;
}
