// The outline as a tree diagram: the Finale on top, precursors below. Only the layout is
// computed here; every fact shown (status, difficulty, odds, outcomes) comes from the view.

import { h } from '../common/dom.js';

/**
 * @typedef {import('../common/page-types').Seen<import('./page-types').PageView>} View
 * @typedef {import('./view-types').Scene} Scene
 */

const W = 196; // node width
const H = 118; // node height
const GAP_X = 18;
const GAP_Y = 46;
const PAD = 14;
const TEXT_WIDTH = W - 20; // the objective's room inside a node, in px
const FONT_PX = 13; // the objective's font size (story.css: .node-objective)
const LINES = 3;

/** @type {CanvasRenderingContext2D | null | false} */
let measureCtx = null;

/**
 * Width of `text` in px at the objective's font; a character estimate without a canvas.
 * @param {string} text
 */
function textWidth(text) {
  if (measureCtx === null) {
    try {
      // Without a 2D context the line below throws, and the estimate is used.
      const c = /** @type {CanvasRenderingContext2D} */ (document.createElement('canvas').getContext('2d'));
      const family = getComputedStyle(document.body).fontFamily || 'sans-serif';
      c.font = `${FONT_PX}px ${family}`;
      measureCtx = c;
    } catch {
      measureCtx = false;
    }
  }
  return measureCtx ? measureCtx.measureText(text).width : text.length * FONT_PX * 0.56;
}

/**
 * Word-wraps `text` into at most `max` lines that fit `width` px (the last ends with … if cut).
 * @param {string} text
 * @param {number} [width]
 * @param {number} [max]
 */
export function wrap(text, width = TEXT_WIDTH, max = LINES) {
  const fits = (/** @type {string} */ t) => textWidth(t) <= width;
  const words = String(text).replace(/\s+/g, ' ').trim().split(' ');
  const lines = [];
  let line = '';
  for (let word of words) {
    // A word too long for a line is cut with a hyphen.
    while (!fits(word)) {
      if (line) {
        lines.push(line);
        line = '';
      }
      let n = word.length - 1;
      while (n > 1 && !fits(word.slice(0, n) + '-')) n--;
      lines.push(word.slice(0, n) + '-');
      word = word.slice(n);
    }
    if (!line) line = word;
    else if (fits(line + ' ' + word)) line += ' ' + word;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line) lines.push(line);
  if (lines.length > max) {
    const kept = lines.slice(0, max);
    let last = kept[max - 1];
    while (last.length > 1 && !fits(last + '…')) last = last.slice(0, -1);
    kept[max - 1] = last.replace(/[\s,.;:-]+$/, '') + '…';
    return kept;
  }
  return lines;
}

/**
 * Positions: x of each node's left edge and y of its top, by scene id.
 * @param {Scene[]} scenes
 */
export function layout(scenes) {
  const byId = new Map(scenes.map((s) => [s.id, s]));
  const roots = scenes.filter((s) => s.parent === null || s.parent === undefined || !byId.has(s.parent));
  /** @type {Map<number, {x: number, y: number, depth: number}>} */
  const pos = new Map();
  let slot = 0;
  let maxDepth = 0;
  /**
   * @param {Scene} s
   * @param {number} depth
   * @param {Set<number>} seen
   * @returns {number | null}
   */
  const place = (s, depth, seen) => {
    if (seen.has(s.id)) return null;
    seen.add(s.id);
    maxDepth = Math.max(maxDepth, depth);
    const kids = /** @type {Scene[]} */ ((s.precursors || []).map((id) => byId.get(id)).filter(Boolean));
    let x;
    const xs = /** @type {number[]} */ (kids.map((k) => place(k, depth + 1, seen)).filter((v) => v !== null));
    if (!xs.length) {
      x = slot * (W + GAP_X);
      slot++;
    } else {
      x = (xs[0] + xs[xs.length - 1]) / 2;
    }
    pos.set(s.id, { x: x + PAD, y: depth * (H + GAP_Y) + PAD, depth });
    return x;
  };
  /** @type {Set<number>} */
  const seen = new Set();
  for (const r of roots) place(r, 0, seen);
  const width = Math.max(slot, 1) * (W + GAP_X) - GAP_X + 2 * PAD;
  const height = (maxDepth + 1) * (H + GAP_Y) - GAP_Y + 2 * PAD;
  return { pos, width, height };
}

const STATUS = {
  sketched: 'sketched',
  available: 'available',
  in_progress: 'in progress',
  performed: 'performed',
};

/**
 * What a node says about its status (the outcome once performed).
 * @param {Scene} s
 */
export function statusText(s) {
  if (s.status === 'performed') {
    const o = s.check && s.check.outcome;
    return o === 'success' ? 'success' : o === 'failure' ? 'failure' : 'performed';
  }
  return STATUS[s.status] || s.status;
}

/**
 * @param {View} view
 * @param {Scene} s
 */
function odds(view, s) {
  const p = view.outline_odds && view.outline_odds[String(s.id)];
  return p === undefined || p === null ? null : p;
}

/**
 * The whole tree, or an empty placeholder.
 * @param {View} view
 * @param {import('./page-types').StoryUi} ui
 * @param {(id: number) => void} onSelect
 */
export function outlineTree(view, ui, onSelect) {
  const scenes = view.scenes || [];
  const temporal = !!(view.ruleset && view.ruleset.temporal);
  if (!scenes.length) {
    return h('div', { class: 'outline-empty paper' }, h('p', null, temporal ? 'The story tree is empty: sketch the climactic scene first.' : 'The outline is empty: sketch the Finale first.'));
  }
  const { pos, width, height } = layout(scenes);
  const byId = new Map(scenes.map((s) => [s.id, s]));
  const edges = [];
  for (const s of scenes) {
    const a = pos.get(s.id);
    const p = s.parent !== null ? byId.get(s.parent) : undefined;
    if (!a || !p) continue;
    const b = pos.get(p.id);
    if (!b) continue;
    const x1 = a.x + W / 2;
    const y1 = a.y;
    const x2 = b.x + W / 2;
    const y2 = b.y + H;
    const my = (y1 + y2) / 2;
    const won = s.status === 'performed' && s.check && s.check.outcome === 'success';
    edges.push(
      h('svg:path', {
        d: `M${x1},${y1} C${x1},${my} ${x2},${my} ${x2},${y2}`,
        class: ['edge', won ? 'edge-reward' : null],
        'data-key': 'e' + s.id,
      }),
    );
  }
  const nodes = scenes
    .filter((s) => pos.has(s.id))
    .map((s) => node(view, ui, s, /** @type {{x: number, y: number}} */ (pos.get(s.id)), byId, onSelect));
  const label = temporal
    ? `The story tree: ${scenes.length} ${scenes.length === 1 ? 'scene' : 'scenes'}, the climactic scene on top. Select a scene to see it and act on it.`
    : `The outline: ${scenes.length} ${scenes.length === 1 ? 'scene' : 'scenes'}, the Finale on top. Select a scene to see it and act on it.`;
  // A phone shows part of a wide outline: the hint under it (shown by main.js when the tree
  // overflows its box) says there is more sideways.
  const hint = h('p', { class: 'scroll-hint small muted', testid: 'outline-scroll-hint', 'data-key': 'outline-hint', 'aria-hidden': 'true' }, '← Swipe sideways to see the whole outline →');
  return h('div', { class: 'outline-wrap', 'data-key': 'outline-wrap' }, h(
    'div',
    { class: 'outline-scroll paper', testid: 'outline', 'data-key': 'outline-tree' },
    h(
      'svg:svg',
      {
        class: 'outline-svg',
        width,
        height,
        viewBox: `0 0 ${width} ${height}`,
        role: 'group',
        'aria-label': label,
      },
      h('svg:g', { class: 'edges', 'aria-hidden': 'true' }, edges),
      h('svg:g', { class: 'nodes' }, nodes),
    ),
  ), hint);
}

/**
 * "PRIMARY · DIFFICULTY 3", shortened to leave room for the reward dice at the band's right end
 * ("QUATERNARY · DIFF. 1", then "DIFF. 1"): at 11px bold capitals a letter takes about 8px.
 * @param {string} level
 * @param {number} difficulty
 * @param {number} [rewards]
 */
function bandLabel(level, difficulty, rewards = 0) {
  const name = level === 'Finale' ? 'FINALE' : level.replace(/ scene$/i, '').toUpperCase();
  const room = rewards ? Math.floor((W - 24 - 17 * (rewards - 1) - 10) / 8) : 24;
  const options = [`${name} · DIFFICULTY ${difficulty}`, `${name} · DIFF. ${difficulty}`, `DIFF. ${difficulty}`];
  return options.find((o) => o.length <= room) || options[options.length - 1];
}

/**
 * @param {View} view
 * @param {import('./page-types').StoryUi} ui
 * @param {Scene} s
 * @param {{x: number, y: number}} p
 * @param {Map<number, Scene>} byId
 * @param {(id: number) => void} onSelect
 */
function node(view, ui, s, p, byId, onSelect) {
  const selected = ui.selected === s.id;
  const flaggedObjective = s.objective_flagged || s.objective === null;
  const text = flaggedObjective ? 'flagged — hidden until replaced' : s.objective;
  const lines = wrap(text ?? '');
  const st = statusText(s);
  const o = s.status === 'performed' ? null : odds(view, s);
  // A reward die sits on this scene for each precursor resolved successfully.
  const rewards = /** @type {Scene[]} */ ((s.precursors || [])
    .map((id) => byId.get(id))
    .filter((k) => k && k.status === 'performed' && k.check && k.check.outcome === 'success'));
  const level = s.level || (s.parent ? 'Scene' : view.ruleset && view.ruleset.temporal ? 'Climactic scene' : 'Finale');
  const aria = [
    `${level}, difficulty ${s.difficulty}`,
    st,
    o !== null ? `${percent(o)} chance of success` : null,
    rewards.length ? `${rewards.length} reward ${rewards.length === 1 ? 'die' : 'dice'}` : null,
    flaggedObjective ? 'objective flagged, hidden until replaced' : s.objective,
  ]
    .filter(Boolean)
    .join('. ');
  const outcome = s.status === 'performed' && s.check ? s.check.outcome : null;
  const activate = () => onSelect(s.id);
  // The card is the button; its words and dice are drawn over it as a picture that takes no
  // clicks (they reach the card) and is no part of the button, whose name says it all: a
  // button holding text must have that text in its name (WCAG 2.5.3).
  return h(
    'svg:g',
    {
      class: ['node', 'status-' + s.status, outcome ? 'outcome-' + outcome : null, selected ? 'selected' : null, s.parent == null ? 'finale' : null],
      transform: `translate(${p.x},${p.y})`,
      testid: 'outline-node',
      'data-scene-id': s.id,
      'data-status': s.status,
      'data-key': 'n' + s.id,
    },
    h(
      'svg:g',
      {
        class: 'node-button',
        role: 'button',
        tabindex: 0,
        'aria-pressed': selected ? 'true' : 'false',
        'aria-label': aria,
        'data-key': 'button',
        onclick: activate,
        onkeydown: (e) => {
          if (e.key === 'Enter' || e.key === ' ') {
            e.preventDefault();
            activate();
          }
        },
      },
      h('svg:title', null, flaggedObjective ? 'Objective flagged — hidden until replaced' : s.objective),
      h('svg:rect', { class: 'node-card', width: W, height: H, rx: 5 }),
      h('svg:rect', { class: 'node-band', width: W, height: 24, rx: 5 }),
      h('svg:rect', { class: 'node-band', y: 12, width: W, height: 12 }),
    ),
    h(
      'svg:g',
      { class: 'node-face', 'aria-hidden': 'true', 'data-key': 'face' },
      h('svg:text', { class: 'node-level', x: 10, y: 16 }, bandLabel(level, s.difficulty, rewards.length)),
      rewards.map((k, i) =>
        h(
          'svg:g',
          { class: 'reward-die', transform: `translate(${W - 20 - i * 17},5)`, testid: 'reward-die', 'data-precursor': k.id, 'data-key': 'r' + k.id },
          h('svg:rect', { width: 14, height: 14, rx: 3 }),
          h('svg:circle', { cx: 7, cy: 7, r: 2 }),
        ),
      ),
      h(
        'svg:text',
        { class: ['node-objective', flaggedObjective ? 'is-flagged' : null], x: 10, y: 44 },
        lines.map((l, i) => h('svg:tspan', { x: 10, dy: i === 0 ? 0 : 17 }, l)),
      ),
      h('svg:text', { class: 'node-status', x: 10, y: H - 11 }, st),
      o !== null ? h('svg:text', { class: 'node-odds', x: W - 10, y: H - 11, 'text-anchor': 'end' }, percent(o)) : null,
    ),
  );
}

/**
 * A chance as the outline and the scenes show it: a percentage, never 0% or 100% unless certain.
 * @param {number} p
 */
export function percent(p) {
  if (p === null || p === undefined || Number.isNaN(p)) return '–';
  if (p <= 0) return '0%';
  if (p >= 1) return '100%';
  const v = p * 100;
  if (v < 0.1) return '<0.1%';
  if (v > 99.9) return '>99.9%';
  return (v < 10 || v > 90 ? v.toFixed(1) : v.toFixed(0)) + '%';
}
