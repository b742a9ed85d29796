// Requests a game page sends, and the answers: each action is sent for a place on the page (a
// key), and its refusal or error is shown at that place (`ui.msgs`) until the next success;
// messages without a place become toasts. One module for every game's page.

const NOT_CONNECTED = 'Not connected: wait until the connection is back, then try again.';
const DROPPED = 'The connection dropped before the answer came: check whether it went through once reconnected.';

/** @typedef {import('./page-types').ActOptions} ActOptions */

/**
 * @param {{ui: import('./page-types').SharedUi, root: Element, render: () => void, send: (action: import('./page-types').Action) => number | null}} page
 *   ui (pending: Map, msgs: Map, toasts: []), root (the page's element), render(), and
 *   send(action) which returns the request's number or `null` when not connected.
 */
export function requests(page) {
  const { ui, render } = page;
  /** @type {Map<number, {key: string, opts: ActOptions}>} */
  const reqs = new Map();
  let toastId = 0;

  /** @param {number} id */
  function dismissToast(id) {
    ui.toasts = ui.toasts.filter((t) => t.id !== id);
    render();
  }

  /**
   * @param {string} kind
   * @param {string} text
   * @param {string} [rule]
   */
  function toast(kind, text, rule) {
    const id = ++toastId;
    ui.toasts.push({ id, kind, text, rule });
    if (ui.toasts.length > 4) ui.toasts.shift();
    setTimeout(() => {
      if (ui.toasts.some((t) => t.id === id)) dismissToast(id);
    }, 10000);
    render();
  }

  /**
   * Sends `action` for the place `key` (where its refusal will show). opts: onDone() and
   * onRefused(msg) run on the answer; reset (the place's form) and resetFields (names of its
   * fields) are set back to their defaults on success.
   * @param {string} key
   * @param {import('./page-types').Action} action
   * @param {ActOptions} [opts]
   */
  function act(key, action, opts = {}) {
    ui.msgs.delete(key);
    const req = page.send(action);
    if (req === null) {
      ui.msgs.set(key, { kind: 'error', text: NOT_CONNECTED, at: Date.now() });
      render();
      return;
    }
    ui.pending.set(key, req);
    reqs.set(req, { key, opts });
    render();
  }

  /** @param {import('./messages').AnswerMessage} msg */
  function answered(msg) {
    // An error without req answers no action: a toast.
    const r = typeof msg.req === 'number' ? reqs.get(msg.req) : undefined;
    if (typeof msg.req === 'number') reqs.delete(msg.req);
    if (r === undefined) {
      if (msg.type !== 'done') toast(msg.type, msg.message || 'Something went wrong.', msg.type === 'refused' ? msg.rule : undefined);
      return;
    }
    const { key, opts } = r;
    if (ui.pending.get(key) === msg.req) ui.pending.delete(key);
    const active = document.activeElement;
    const hadFocus = !!active && page.root.contains(active) && active !== document.body;
    if (msg.type === 'done') {
      // A success clears the refusals shown so far: they were about an earlier moment.
      ui.msgs.clear();
      resetForm(page.root, key, opts);
      if (opts.onDone) opts.onDone();
    } else if (msg.type === 'refused') {
      ui.msgs.set(key, { kind: 'refused', rule: msg.rule, text: msg.message, at: Date.now() });
      if (opts.onRefused) opts.onRefused(msg);
    } else {
      ui.msgs.set(key, { kind: 'error', text: msg.message || 'The server could not read that request.', at: Date.now() });
    }
    render();
    // The button was disabled while pending, which drops focus: give it back to the place.
    if (!hadFocus || document.activeElement === document.body) refocus(page.root, key, msg.type === 'done');
    if (msg.type !== 'done') showMessage(page.root, key);
  }

  /** @param {number[]} list */
  function lost(list) {
    for (const req of list) {
      const r = reqs.get(req);
      reqs.delete(req);
      if (r === undefined) continue;
      if (ui.pending.get(r.key) === req) ui.pending.delete(r.key);
      ui.msgs.set(r.key, { kind: 'error', text: DROPPED, at: Date.now() });
    }
    render();
  }

  return { act, answered, lost, toast, dismissToast };
}

/**
 * After a success, the form of the place `key` as `opts` asks: reset, or some fields reset.
 * @param {Element} root
 * @param {string} key
 * @param {ActOptions} opts
 */
function resetForm(root, key, opts) {
  const form = root.querySelector(`form[data-form="${CSS.escape(key)}"]`);
  if (!(form instanceof HTMLFormElement)) return;
  if (opts.reset) form.reset();
  for (const name of opts.resetFields || []) {
    const el = form.elements.namedItem(name);
    if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) el.value = el.defaultValue;
  }
}

/**
 * Focus back at the place `key` after its answer, without scrolling the page: a form's submit
 * button after a refusal (to try again), its first field after a success, or the place's
 * button.
 * @param {Element} root
 * @param {string} key
 * @param {boolean} done
 */
function refocus(root, key, done) {
  const form = root.querySelector(`form[data-form="${CSS.escape(key)}"]`);
  /** @type {HTMLElement | null} */
  let target = null;
  if (form && !done) target = form.querySelector('button[type=submit]');
  else if (form) target = form.querySelector('input:not([type=hidden]), textarea');
  else {
    const button = root.querySelector(`[data-key="btn:${CSS.escape(key)}"]`);
    if (button instanceof HTMLButtonElement && !button.disabled) target = button;
  }
  if (target) target.focus({ preventScroll: true });
}

/**
 * The refusal or error at the place `key` brought into view by the least scroll that shows it
 * whole (the page's scroll padding keeps it clear of the banners and a phone's bar of views):
 * the player acted there a moment ago, and the message may have come below the fold. Not while
 * they type in another form.
 * @param {Element} root
 * @param {string} key
 */
function showMessage(root, key) {
  const el = root.querySelector(`.message[data-for="${CSS.escape(key)}"]`);
  if (!el) return;
  const form = el.closest('form');
  const active = document.activeElement;
  if (active && active.matches('input, textarea, select') && !(form && form.contains(active))) return;
  el.scrollIntoView({ block: 'nearest' });
}

/**
 * Adds the log entries not seen yet (by seq) to `state.log`, in seq order: none twice, none
 * lost. `state.lastLogSeq` is the newest seen.
 * @param {{log: import('./messages').LogEntry[], logSeqs: Set<number>, lastLogSeq: number}} state
 * @param {import('./messages').LogEntry[] | undefined} entries
 */
export function applyLog(state, entries) {
  let added = false;
  for (const e of entries || []) {
    if (typeof e.seq !== 'number' || state.logSeqs.has(e.seq)) continue;
    state.logSeqs.add(e.seq);
    state.log.push(e);
    added = true;
    if (e.seq > (state.lastLogSeq || 0)) state.lastLogSeq = e.seq;
  }
  if (added) state.log.sort((a, b) => a.seq - b.seq);
}
