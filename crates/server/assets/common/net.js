// The WebSocket to the table: hello with the last seq seen, reconnection with backoff, and
// requests numbered with `req` so that each answer finds the place where the player acted.

const BACKOFF_START_MS = 500;
const BACKOFF_MAX_MS = 5000;
// A quiet socket is pinged; one that stays silent this long after is presumed dead (a laptop
// that slept, a phone that changed networks) and reopened.
const PING_EVERY_MS = 25000;
const SILENCE_MS = 60000;
// A hello refused (the seat's budget of messages is spent, as after quick reloads) is sent
// again this much later: the page has nothing to show until a sync answers it.
const HELLO_AGAIN_MS = 1000;

/**
 * @typedef {import('./messages').ServerMessage<unknown, unknown>} Message
 * @typedef {import('./messages').SyncMessage<unknown, unknown>} SyncMessage
 * @typedef {import('./messages').UpdateMessage<unknown>} UpdateMessage
 * @typedef {import('./messages').AnswerMessage} AnswerMessage
 * @typedef {object} Handlers what a connection tells the page
 * @property {(msg: SyncMessage) => void} sync
 * @property {(msg: import('./messages').TakenUpdate<unknown>) => void} update with the view, patched
 * @property {(msg: AnswerMessage) => void} answer done, refused or error
 * @property {(msg: import('./messages').PresenceMessage) => void} presence
 * @property {(msg: import('./messages').RemovedMessage | import('./messages').ClosedMessage) => void} removed
 * @property {(msg: import('./messages').InviteMessage) => void} [invite]
 * @property {(msg: import('./messages').OwnMessage<unknown>) => void} [own]
 * @property {(connected: boolean) => void} status
 * @property {(reqs: number[]) => void} lost
 * @property {(status: number) => void} unauthorized
 * @property {(msg: import('./messages').LogMessage | import('./messages').ErrorMessage) => void} [log]
 * @property {(msg: import('./messages').DeviceMessage) => void} [device] the seats this browser holds
 */

/**
 * The socket that early-socket.js opened for this page, taken once: when it is for `url` and
 * not closing.
 * @param {string} url
 * @returns {WebSocket | null}
 */
function earlySocket(url) {
  const ws = window.prophecyEarlySocket;
  window.prophecyEarlySocket = undefined;
  return ws && ws.url === url && ws.readyState <= WebSocket.OPEN ? ws : null;
}

export class Connection {
  /**
   * @param {string} path the socket's path: a player's `/t/{token}/ws`, a watcher's `/w/{code}/ws`
   * @param {Handlers} on callbacks: sync(msg), update(msg), answer(msg) for done/refused/error,
   *   presence(msg), removed(msg) (a watcher's link closed too), invite() when the invitation changed, own(msg) with what only
   *   this player may know (the lines they drew, whether the pause is theirs),
   *   status(connected: boolean), lost(pendingReqs),
   *   unauthorized() when the seat is gone, log(msg) with older log lines (or the error that
   *   refused them)
   * @param {() => number} since the last seq the page has applied
   */
  constructor(path, on, since) {
    this.path = path;
    this.on = on;
    this.since = since;
    /** @type {WebSocket | null} */
    this.ws = null;
    this.nextReq = 1;
    /** @type {Map<number, unknown>} req → action, until answered */
    this.pending = new Map();
    this.backoff = BACKOFF_START_MS;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.timer = undefined;
    /** @type {ReturnType<typeof setInterval> | undefined} */
    this.pinger = undefined;
    this.stopped = false;
    this.connected = false;
    this.synced = false;
    /** When the socket was last heard from. */
    this.heard = 0;
    /** @type {((e: Event) => void) | null} */
    this.onNetwork = null;
    /** The server's view, which the next update may patch, and its seq. */
    /** @type {unknown} */
    this.view = null;
    this.viewSeq = 0;
    /** @type {number | null} the request for older log lines, until answered */
    this.logReq = null;
  }

  url() {
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    return `${scheme}//${location.host}${this.path}`;
  }

  start() {
    this.stopped = false;
    // A browser that goes offline keeps its sockets "open" for minutes (Chrome does not close
    // them): drop ours at once, so the page says so, and try again as soon as it is back online.
    if (!this.onNetwork) {
      this.onNetwork = (e) => (e.type === 'offline' ? this.dropNow() : this.retryNow());
      window.addEventListener('offline', this.onNetwork);
      window.addEventListener('online', this.onNetwork);
    }
    this.open();
  }

  stop() {
    this.stopped = true;
    if (this.onNetwork) {
      window.removeEventListener('offline', this.onNetwork);
      window.removeEventListener('online', this.onNetwork);
      this.onNetwork = null;
    }
    clearTimeout(this.timer);
    clearInterval(this.pinger);
    if (this.ws) {
      const ws = this.ws;
      this.ws = null;
      ws.onclose = null;
      ws.close();
    }
  }

  open() {
    let ws = earlySocket(this.url());
    try {
      ws ||= new WebSocket(this.url());
    } catch {
      this.retry();
      return;
    }
    this.ws = ws;
    // Until this socket's first sync, updates are dropped: the room may broadcast a change
    // before it has read our hello, and that sync carries everything since our last seq anyway.
    this.synced = false;
    const opened = () => {
      ws.send(JSON.stringify({ type: 'hello', since: this.since() }));
      this.heard = Date.now();
      clearInterval(this.pinger);
      this.pinger = setInterval(() => this.heartbeat(ws), PING_EVERY_MS);
    };
    ws.onopen = opened;
    ws.onmessage = (e) => {
      this.heard = Date.now();
      /** @type {Message} */
      let msg;
      try {
        msg = JSON.parse(e.data);
      } catch {
        return;
      }
      this.handle(msg);
    };
    ws.onclose = () => {
      clearInterval(this.pinger);
      if (this.ws !== ws) return;
      this.ws = null;
      this.setConnected(false);
      this.failPending();
      if (!this.stopped) this.retry();
    };
    ws.onerror = () => {
      // onclose follows; nothing else to do.
    };
    // The early socket may have opened before it was taken over.
    if (ws.readyState === WebSocket.OPEN) opened();
  }

  /** Gives up on the current socket now (its close may take long on a dead network). */
  dropNow() {
    const ws = this.ws;
    if (!ws || this.stopped) return;
    ws.close();
    if (ws.onclose) ws.onclose(new CloseEvent('close'));
  }

  /** The network is back: reconnect after the first step of the backoff, not the last. */
  retryNow() {
    if (this.stopped || this.ws) return;
    this.backoff = BACKOFF_START_MS;
    this.retry();
  }

  /** @param {WebSocket} ws */
  heartbeat(ws) {
    if (this.ws !== ws || ws.readyState !== WebSocket.OPEN) return;
    if (Date.now() - this.heard > SILENCE_MS) {
      this.dropNow();
      return;
    }
    ws.send(JSON.stringify({ type: 'ping' }));
  }

  /** @param {boolean} c */
  setConnected(c) {
    if (this.connected !== c) {
      this.connected = c;
      this.on.status(c);
    }
  }

  failPending() {
    if (this.pending.size) {
      const reqs = Array.from(this.pending.keys());
      this.pending.clear();
      this.on.lost(reqs);
    }
  }

  async retry() {
    clearTimeout(this.timer);
    const wait = this.backoff;
    this.backoff = Math.min(this.backoff * 2, BACKOFF_MAX_MS);
    this.timer = setTimeout(async () => {
      if (this.stopped) return;
      // A closed socket may mean the seat is gone (removed, or cookie lost), or a watcher's
      // link closed: ask before retrying.
      try {
        const watching = this.path.startsWith('/w/');
        const [path, query] = this.path.split('?');
        const page = path.replace(/\/ws$/, '');
        // The seat this socket speaks for, among those its browser holds (device.js).
        const seat = new URLSearchParams(query || '').get('seat');
        const r = await fetch(watching ? page : `${page}/me`, { headers: { Accept: 'application/json', ...(seat ? { 'Prophecy-Seat': seat } : {}) } });
        // The server also says "no seat" with 200 and `{"player": null}` (see seat.js: boot);
        // a socket's seat gone from its browser, by naming another.
        const me = !watching && r.ok ? await r.json().catch(() => ({})) : null;
        const seatless = !!me && (me.player == null || (seat !== null && String(me.player) !== seat));
        if (seatless || r.status === 401 || r.status === 403 || r.status === 404) {
          this.stopped = true;
          this.on.unauthorized(seatless ? 401 : r.status);
          return;
        }
      } catch {
        // The server is unreachable: keep trying.
      }
      // Not when another attempt (the network coming back) has opened one meanwhile.
      if (!this.stopped && !this.ws) this.open();
    }, wait);
  }

  /**
   * Keeps the server's view (pages change the copy they are given) and its seq: the next
   * update may be a patch against it.
   */
  /** @param {SyncMessage | UpdateMessage} msg */
  keep(msg) {
    this.view = msg.view;
    this.viewSeq = msg.seq;
    msg.view = structuredClone(this.view);
  }

  /** Says hello again on `ws` after a while, unless it has been answered or closed meanwhile. */
  /** @param {WebSocket | null} ws */
  helloAgain(ws) {
    setTimeout(() => {
      if (ws && this.ws === ws && ws.readyState === WebSocket.OPEN && !this.synced) ws.send(JSON.stringify({ type: 'hello', since: this.since() }));
    }, HELLO_AGAIN_MS);
  }

  /**
   * An update: the whole view, or a patch (RFC 6902) against the view at `base`.
   * @param {UpdateMessage} msg
   */
  onUpdate(msg) {
    if (msg.patch) {
      if (msg.base !== this.viewSeq || !applyPatch(this, msg.patch)) {
        // Out of step (this should not happen): ask for the whole table again.
        this.synced = false;
        if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify({ type: 'hello', since: this.since() }));
        return;
      }
      this.viewSeq = msg.seq;
      this.on.update({ ...msg, view: structuredClone(this.view) });
    } else {
      this.keep(msg);
      this.on.update(msg);
    }
  }

  /** @param {Message} msg */
  handle(msg) {
    switch (msg.type) {
      case 'sync':
        this.synced = true;
        this.backoff = BACKOFF_START_MS;
        this.setConnected(true);
        this.keep(msg);
        this.on.sync(msg);
        break;
      case 'update':
        if (this.synced) this.onUpdate(msg);
        break;
      case 'log':
        this.logReq = null;
        if (this.on.log) this.on.log(msg);
        break;
      case 'error':
        // Before its sync, an error without req can only answer the hello: ask again.
        if (!this.synced && (msg.req === undefined || msg.req === null)) {
          this.helloAgain(this.ws);
          break;
        }
        if (msg.req !== undefined && msg.req !== null && msg.req === this.logReq) {
          this.logReq = null;
          if (this.on.log) this.on.log(msg);
          break;
        }
      // falls through: any other error answers an action
      case 'done':
      case 'refused':
        if (msg.req !== undefined && msg.req !== null) this.pending.delete(msg.req);
        this.on.answer(msg);
        break;
      case 'presence':
        this.on.presence(msg);
        break;
      case 'removed':
      case 'closed':
        this.stopped = true;
        this.on.removed(msg);
        break;
      case 'invite':
        if (this.on.invite) this.on.invite(msg);
        break;
      case 'own':
        if (this.synced && this.on.own) this.on.own(msg);
        break;
      case 'device':
        if (this.on.device) this.on.device(msg);
        break;
      default:
        break;
    }
  }

  /**
   * Asks for the log lines before event `before` (a sync carries only the newest); the answer
   * comes to on.log. False when not connected or already asking.
   * @param {number} before
   */
  olderLines(before) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN || !this.connected || this.logReq) return false;
    this.logReq = this.nextReq++;
    this.ws.send(JSON.stringify({ type: 'log', req: this.logReq, before }));
    return true;
  }

  /**
   * Sends an action; returns its req, or null when not connected.
   * @param {import('./page-types').Action} action
   */
  act(action) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN || !this.connected) return null;
    const req = this.nextReq++;
    this.pending.set(req, action);
    this.ws.send(JSON.stringify({ type: 'act', req, action }));
    return req;
  }
}

/**
 * Applies a JSON Patch (RFC 6902: add, remove, replace, as the server sends) to `holder.view`,
 * in place. Returns false (the view then is not to be trusted) when an operation does not fit.
 * @param {{view: unknown}} holder
 * @param {import('./messages').PatchOp[]} patch
 */
export function applyPatch(holder, patch) {
  try {
    for (const op of patch) {
      if (op.path === '') {
        if (op.op === 'remove') return false;
        holder.view = op.value;
        continue;
      }
      const keys = op.path.split('/').slice(1).map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'));
      const last = /** @type {string} */ (keys.pop());
      let parent = holder.view;
      for (const k of keys) {
        // A parent that is not an object throws (and the patch does not fit).
        parent = Array.isArray(parent) ? parent[Number(k)] : /** @type {Record<string, unknown>} */ (parent)[k];
        if (parent === null || typeof parent !== 'object') return false;
      }
      if (Array.isArray(parent)) {
        const i = last === '-' ? parent.length : Number(last);
        if (!Number.isInteger(i) || i < 0 || i > parent.length) return false;
        if (op.op === 'add') parent.splice(i, 0, op.value);
        else if (op.op === 'remove' && i < parent.length) parent.splice(i, 1);
        else if (op.op === 'replace' && i < parent.length) parent[i] = op.value;
        else return false;
      } else if (op.op === 'add' || op.op === 'replace') {
        const object = /** @type {Record<string, unknown>} */ (parent);
        if (op.op === 'replace' && !Object.hasOwn(object, last)) return false;
        object[last] = op.value;
      } else if (op.op === 'remove' && Object.hasOwn(/** @type {object} */ (parent), last)) {
        delete (/** @type {Record<string, unknown>} */ (parent))[last];
      } else {
        return false;
      }
    }
    return true;
  } catch {
    return false;
  }
}

/**
 * A network error for people: the server's message, or that it could not be reached.
 * @param {unknown} e
 */
export function reachError(e) {
  return e instanceof Error && e.message && e.message !== 'Failed to fetch' ? e.message : 'Could not reach the server. Try again.';
}

/**
 * A game's static content (`/games/{game}/content.json`, cached by the browser), fetched until it comes.
 * @param {string} game
 * @returns {Promise<unknown>}
 */
export async function loadContent(game) {
  for (let attempt = 0; ; attempt++) {
    try {
      const r = await fetch(`/games/${game}/content.json`, { headers: { Accept: 'application/json' } });
      if (r.ok) return await r.json();
    } catch {
      // Unreachable for now: try again below.
    }
    await new Promise((res) => setTimeout(res, Math.min(500 * 2 ** attempt, 5000)));
  }
}
