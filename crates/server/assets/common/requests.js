// Requests a game page sends, and the answers: each action is sent for a place on the page (a
// key), and its refusal or error is shown at that place (`ui.msgs`) until the next success;
// messages without a place become toasts. Shared by the board game's and the Challenge rules'
// pages.

/**
 * @param {object} page ui (pending: Map, msgs: Map, toasts: []), render(), and send(action)
 *   which returns the request's number or `null` when not connected.
 */
export function requests(page) {
  const { ui, render } = page;
  const reqs = new Map(); // req → {key, onDone}
  let toastId = 0;

  function dismissToast(id) {
    ui.toasts = ui.toasts.filter((t) => t.id !== id);
    render();
  }

  function toast(kind, text, rule) {
    const id = ++toastId;
    ui.toasts.push({ id, kind, text, rule });
    if (ui.toasts.length > 4) ui.toasts.shift();
    setTimeout(() => {
      if (ui.toasts.some((t) => t.id === id)) dismissToast(id);
    }, 10000);
    render();
  }

  /** Sends `action` for the place `key` (where its refusal will show); `onDone` runs on success. */
  function act(key, action, opts = {}) {
    ui.msgs.delete(key);
    const req = page.send(action);
    if (req === null) {
      ui.msgs.set(key, { kind: 'error', text: 'Not connected: wait until the connection is back, then try again.' });
      render();
      return;
    }
    ui.pending.set(key, req);
    reqs.set(req, { key, onDone: opts.onDone });
    render();
  }

  function answered(msg) {
    const r = reqs.get(msg.req);
    reqs.delete(msg.req);
    if (r === undefined) {
      if (msg.type !== 'done') toast(msg.type, msg.message || 'Something went wrong.', msg.rule);
      return;
    }
    const { key, onDone } = r;
    if (ui.pending.get(key) === msg.req) ui.pending.delete(key);
    if (msg.type === 'done') {
      // A success clears the refusals shown so far: they were about an earlier moment.
      ui.msgs.clear();
      if (onDone) onDone();
    } else if (msg.type === 'refused') {
      ui.msgs.set(key, { kind: 'refused', rule: msg.rule, text: msg.message });
    } else {
      ui.msgs.set(key, { kind: 'error', text: msg.message || 'The server could not read that request.' });
    }
    render();
  }

  function lost(list) {
    for (const req of list) {
      const r = reqs.get(req);
      reqs.delete(req);
      if (r === undefined) continue;
      if (ui.pending.get(r.key) === req) ui.pending.delete(r.key);
      ui.msgs.set(r.key, { kind: 'error', text: 'The connection dropped before the answer came: check whether it went through once reconnected.' });
    }
    render();
  }

  return { act, answered, lost, toast, dismissToast };
}

/** Adds the log entries not seen yet (by seq) to `state.log`, in seq order: none twice, none lost. */
export function applyLog(state, entries) {
  let added = false;
  for (const e of entries || []) {
    if (typeof e.seq !== 'number' || state.logSeqs.has(e.seq)) continue;
    state.logSeqs.add(e.seq);
    state.log.push(e);
    added = true;
  }
  if (added) state.log.sort((a, b) => a.seq - b.seq);
}
