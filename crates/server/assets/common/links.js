// The table's links, as every table page shows them: the invitation (load it, copy it; the
// creator renews, closes or opens it) and the published story's page (publish, withdraw).
// state fields: invite. ui fields: copied, confirm.

import { reachError } from './net.js';
import { seatHeaders } from './device.js';

/**
 * @typedef {{
 *   state: import('./page-types').SharedState<unknown, unknown, unknown>,
 *   ui: import('./page-types').SharedUi,
 *   render: () => void,
 *   toast: (kind: string, text: string) => void,
 *   token: string,
 * }} LinksPage
 */

/**
 * The links of one page's table.
 * @param {LinksPage} page
 */
export function tableLinks(page) {
  const { state, ui, render, toast, token } = page;

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
      const r = await fetch(`/t/${token}/invite`, { headers: { Accept: 'application/json', ...seatHeaders(token) }, credentials: 'same-origin' });
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
      state.invite = await post(path, action);
      toast('info', done);
      render();
    } catch (e) {
      toast('error', reachError(e));
    }
  }

  /**
   * Asks `POST /t/{token}/{path}` for `action`; its answer, or throws with the server's reason.
   * @param {string} path
   * @param {string} action
   */
  async function post(path, action) {
    const r = await fetch(`/t/${token}/${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...seatHeaders(token) },
      body: JSON.stringify({ action }),
      credentials: 'same-origin',
    });
    const body = await r.json().catch(() => ({}));
    if (!r.ok) throw new Error(body.error || `The server answered ${r.status}.`);
    return body;
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

  /**
   * Opens the watch link (whoever the game lets: the creator, the game master; at a story
   * table it is a proposal) or closes it (any seated player). The answer holds the watch link
   * alone: the table's links are fetched again.
   * @param {string} action
   */
  async function changeWatch(action) {
    ui.confirm = null;
    try {
      const body = await post('watch', action);
      const done = action === 'close' ? 'The watch link is closed: nobody watches any more.' : body.link ? 'The watch link is open: share it with whoever may watch.' : 'You asked the table: the watch link opens once everyone agrees.';
      toast('info', done);
      await loadInvite();
    } catch (e) {
      toast('error', reachError(e));
    }
  }

  return { copyLink, loadInvite, changeInvite, changeShare, changeWatch };
}
