// Replay: the table's game step by step from its first event, each step drawn by the game's own
// view as the table looked then (`GET /t/{token}/replay`, or a watcher's `/w/{code}/replay` once
// the game is over). The page holds the steps it fetched (200 at a time, each a patch of the
// one before) and draws the one at `at`; the bar steps back and forward, jumps to a phase or a
// turn, and plays at a chosen speed. Live updates go on underneath: closing shows the table now.

import { h } from './dom.js';
import { applyPatch, reachError } from './net.js';
import { seatHeaders } from './device.js';
import { token } from './seat.js';

/** Speeds the bar offers: steps a second. */
const SPEEDS = [0.5, 1, 2, 4];

/**
 * @typedef {{seq: number, label: string}} Mark
 * @typedef {{
 *   total: number, over: boolean, marks: Mark[],
 *   views: unknown[], logs: (import('./messages').LogEntry | null)[],
 *   at: number, playing: boolean, speed: number, loading: boolean,
 *   timer?: ReturnType<typeof setInterval>,
 * }} Replaying
 */

/**
 * The replay of one page's table.
 * @param {{
 *   path: string,
 *   ui: import('./page-types').SharedUi & {replay?: Replaying | null},
 *   render: () => void,
 *   toast: (kind: string, text: string) => void,
 * }} page `path`: the replay's address
 */
export function replayer(page) {
  const { ui, render, toast } = page;

  /**
   * Fetches the steps from `from` on (up to the server's page of steps) into `r`.
   * @param {Replaying} r
   * @param {number} from
   */
  async function fetchFrom(r, from) {
    const res = await fetch(`${page.path}?from=${from}`, { headers: { Accept: 'application/json', ...seatHeaders(token) }, credentials: 'same-origin' });
    const body = await res.json().catch(() => ({}));
    if (!res.ok) throw new Error(body.error || `The server answered ${res.status}.`);
    /** @type {{view: unknown}} */
    const holder = { view: from > 0 ? structuredClone(r.views[from - 1]) : null };
    for (const step of body.steps) {
      if (step.view !== undefined) holder.view = step.view;
      else if (!applyPatch(holder, step.patch)) throw new Error('A step of the replay did not fit the one before: close it and try again.');
      r.views[step.seq] = structuredClone(holder.view);
      r.logs[step.seq] = step.log;
    }
    r.total = body.total;
    r.over = body.over;
    r.marks = body.marks;
  }

  /**
   * Shows step `seq`, fetching the steps up to it first.
   * @param {number} seq
   */
  async function show(seq) {
    const r = ui.replay;
    if (!r) return;
    const want = Math.max(0, Math.min(seq, r.total));
    try {
      while (r.views.length <= want) {
        r.loading = true;
        render();
        await fetchFrom(r, r.views.length);
      }
    } catch (e) {
      stopPlaying(r);
      toast('error', reachError(e));
    }
    r.loading = false;
    r.at = Math.min(want, r.views.length - 1);
    if (r.at >= r.total) stopPlaying(r);
    render();
  }

  /** @param {Replaying} r */
  function stopPlaying(r) {
    r.playing = false;
    clearInterval(r.timer);
  }

  /** @param {Replaying} r */
  function startPlaying(r) {
    clearInterval(r.timer);
    r.playing = true;
    if (r.at >= r.total) r.at = 0;
    r.timer = setInterval(() => {
      if (!r.loading) show(r.at + 1);
    }, 1000 / r.speed);
  }

  return {
    /** Opens the replay at the first event. */
    async open() {
      /** @type {Replaying} */
      const r = { total: 0, over: false, marks: [], views: [], logs: [], at: 0, playing: false, speed: 1, loading: true };
      try {
        await fetchFrom(r, 0);
      } catch (e) {
        toast('error', reachError(e));
        return;
      }
      // A watcher's replay has no step until the game is over.
      if (!r.views.length) {
        toast('info', 'This game is still being played: watchers can replay it once it is over.');
        return;
      }
      r.loading = false;
      ui.replay = r;
      render();
    },
    close() {
      if (ui.replay) stopPlaying(ui.replay);
      ui.replay = null;
      render();
    },
    /** @param {number} by */
    step(by) {
      if (!ui.replay) return;
      stopPlaying(ui.replay);
      show(ui.replay.at + by);
    },
    /** @param {number} seq */
    jump(seq) {
      if (!ui.replay) return;
      stopPlaying(ui.replay);
      show(seq);
    },
    toggle() {
      const r = ui.replay;
      if (!r) return;
      if (r.playing) stopPlaying(r);
      else startPlaying(r);
      render();
    },
    /** @param {number} speed */
    setSpeed(speed) {
      const r = ui.replay;
      if (!r) return;
      r.speed = speed;
      if (r.playing) startPlaying(r);
      render();
    },
  };
}

/**
 * The replay's bar, above the table it draws: where it is, step back and forward, play or
 * pause at a speed, jump to a phase or turn, close.
 * @param {Replaying} r
 * @param {ReturnType<typeof replayer>} control
 */
export function replayBar(r, control) {
  const mark = r.marks.filter((m) => m.seq <= r.at).pop();
  return h(
    'div',
    { class: 'replay-bar', role: 'toolbar', 'aria-label': 'Replay', testid: 'replay-bar', 'data-key': 'replay-bar' },
    h('p', { class: 'replay-where', role: 'status', testid: 'replay-where' }, `Replay: step ${r.at} of ${r.total}`, mark ? ` · ${mark.label}` : ''),
    h(
      'div',
      { class: 'row' },
      h('button', { type: 'button', class: 'btn ghost small', testid: 'replay-back', disabled: r.at <= 0, 'aria-label': 'Step back', onclick: () => control.step(-1) }, '◀ Back'),
      h('button', { type: 'button', class: 'btn secondary small', testid: 'replay-play', onclick: () => control.toggle() }, r.playing ? 'Pause' : 'Play'),
      h('button', { type: 'button', class: 'btn ghost small', testid: 'replay-forward', disabled: r.at >= r.total, 'aria-label': 'Step forward', onclick: () => control.step(1) }, 'Forward ▶'),
      h(
        'select',
        { testid: 'replay-speed', 'aria-label': 'Speed', onchange: (e, el) => control.setSpeed(Number(/** @type {HTMLSelectElement} */ (el).value)) },
        SPEEDS.map((s) => h('option', { value: String(s), selected: s === r.speed }, `${s}×`)),
      ),
      r.marks.length
        ? h(
            'select',
            // A new element when the step's phase or turn changes: a field keeps what was chosen
            // in it (common/dom.js), and the jump shows where the replay is now.
            { testid: 'replay-jump', 'aria-label': 'Jump to', 'data-key': `jump-${mark ? mark.seq : 0}`, onchange: (e, el) => control.jump(Number(/** @type {HTMLSelectElement} */ (el).value)) },
            r.marks.map((m) => h('option', { value: String(m.seq), selected: m === mark }, m.label)),
          )
        : null,
      h('button', { type: 'button', class: 'btn ghost small', testid: 'replay-close', onclick: () => control.close() }, 'Back to the table'),
    ),
  );
}
