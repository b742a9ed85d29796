// The dice: a check's roll, die by die (the pool, then each wave of explosions, each die with
// its cause), the d66 of a catastrophe table, and real dice (the table's dice setting, and the
// faces typed in for a check). The animation is presentation only: the faces come from the
// view; the timeline below says when each die lands, and the page reveals the result when the
// last one has.

import { h } from '../common/dom.js';
import { pips, form, submit, msg, input, labelled, pending, fieldValue } from '../common/controls.js';
import { aspectById, aspectText, sceneById, objective, isModerator } from './lookups.js';
import { openProposal } from './proposals.js';

/**
 * @typedef {import('./page-types').StoryContext} Ctx
 * @typedef {import('../common/page-types').Seen<import('./page-types').PageView>} View
 * @typedef {import('./view-types').Scene} Scene
 * @typedef {import('./view-types').Die} Die
 * @typedef {import('../common/page-types').Child} Child
 */

/**
 * A die's cause, {kind, pair|precursor|index}; a die without one is a plain die.
 * @param {Die['cause'] | null | undefined} c
 * @returns {Die['cause']}
 */
export function normCause(c) {
  return c || { kind: 'die' };
}

/**
 * The wave of every die: 0 for the pool, n + 1 for a die added by a six of wave n.
 * @param {Die[]} dice
 */
export function waves(dice) {
  /** @type {number[]} */
  const w = [];
  dice.forEach((d, i) => {
    const c = normCause(d.cause);
    w[i] = c.kind === 'exploded_from' && c.index < i ? w[c.index] + 1 : 0;
  });
  return w;
}

/** The whole reveal, however many dice and waves of explosions: the result shows by then. */
export const REVEAL_MS = 1200;

/**
 * When each die lands and when the result shows, in ms from the start. The waves share the
 * reveal's time: the dice of a wave are thrown together, tumble, then land one after the
 * other within the first two thirds of the wave's share; the next wave is thrown after.
 * @param {Die[]} dice
 */
export function timeline(dice) {
  const w = waves(dice);
  /** @type {number[]} */
  const land = [];
  /** @type {number[]} */
  const throwAt = [];
  if (!dice.length) return { throwAt, land, result: 400 };
  const start = 100;
  const count = Math.max(...w) + 1;
  const share = (REVEAL_MS - 150 - start) / count;
  for (let wave = 0; wave < count; wave++) {
    const at = start + wave * share;
    const inWave = dice.map((_, i) => i).filter((i) => w[i] === wave);
    const step = inWave.length > 1 ? (share * 0.3) / (inWave.length - 1) : 0;
    inWave.forEach((i, k) => {
      throwAt[i] = at;
      land[i] = at + share * 0.4 + k * step;
    });
  }
  return { throwAt, land, result: REVEAL_MS };
}

/**
 * @param {View} view
 * @param {Scene} scene
 * @param {Die['cause']} cause
 */
function causeText(view, scene, cause) {
  const c = normCause(cause);
  if (c.kind === 'matching_pair') {
    const pair = (scene.pairs || []).find((p) => p.id === c.pair);
    if (!pair) return 'a matching pair';
    const ca = aspectById(view, pair.character_aspect);
    const ea = aspectById(view, pair.environment_aspect);
    return `pair: ${ca ? aspectText(ca.aspect) : '?'} + ${ea ? aspectText(ea.aspect) : '?'}`;
  }
  if (c.kind === 'reward_die') {
    const precursor = sceneById(view, c.precursor);
    return `reward die: ${precursor ? objective(precursor) : '?'}`;
  }
  if (c.kind === 'exploded_from') return `exploded from die #${c.index + 1}`;
  return 'a die';
}

/**
 * One die: `state` is hidden (not thrown yet), rolling, or landed.
 * @param {number | null} face
 * @param {boolean} hit
 * @param {string} state
 * @param {Child} label
 * @param {{class?: string, testid?: string}} [extra]
 */
export function die(face, hit, state, label, extra = {}) {
  const landed = state === 'landed';
  return h(
    'span',
    {
      class: ['die', landed ? (hit ? 'hit' : 'miss') : state, landed && face === 6 ? 'six' : null, extra.class],
      testid: extra.testid || 'die',
      'data-face': landed ? face : null,
      'data-hit': landed ? String(hit) : null,
      'data-state': state,
      role: 'img',
      'aria-label': landed ? label : 'a die, rolling',
      'aria-hidden': state === 'hidden' ? 'true' : null,
    },
    landed ? pips(face ?? 0) : h('span', { class: 'die-q', 'aria-hidden': 'true' }, '?'),
  );
}

/**
 * A d66: two dice read as tens and units.
 * @param {number | {tens: number, units: number}} roll
 * @param {boolean} fresh
 */
export function d66(roll, fresh) {
  let tens;
  let units;
  if (typeof roll === 'number') {
    tens = Math.floor(roll / 10);
    units = roll % 10;
  } else if (roll && typeof roll === 'object') {
    tens = roll.tens;
    units = roll.units;
  } else if (typeof roll === 'string' && /^\d\d$/.test(roll)) {
    tens = Number(roll[0]);
    units = Number(roll[1]);
  }
  if (!tens || !units) return null;
  return h(
    'span',
    { class: ['d66', fresh ? 'fresh' : null], testid: 'd66-roll', 'data-tens': tens, 'data-units': units, 'data-key': 'd66' },
    die(tens, false, 'landed', `tens die: ${tens}`, { class: 'plain', testid: 'd66-tens' }),
    die(units, false, 'landed', `units die: ${units}`, { class: 'plain', testid: 'd66-units' }),
    h('span', { class: 'd66-value' }, `= ${tens}${units}`),
  );
}

/**
 * The roll of a scene's check. `anim` is null (show everything) or {elapsed, times} while the
 * animation runs; `onSkip` ends it.
 * @param {View} view
 * @param {Scene} scene
 * @param {{elapsed: number, times: import('./page-types').Timeline} | null} anim
 * @param {(() => void) | null} onSkip
 */
export function rollView(view, scene, anim, onSkip) {
  const check = scene.check;
  if (!check) return null;
  const dice = check.dice || [];
  const w = waves(dice);
  const running = !!anim && anim.elapsed < anim.times.result;
  const stateOf = (/** @type {number} */ i) => {
    if (!running) return 'landed';
    if (anim.elapsed < anim.times.throwAt[i]) return 'hidden';
    if (anim.elapsed < anim.times.land[i]) return 'rolling';
    return 'landed';
  };
  const maxWave = dice.length ? Math.max(...w) : -1;
  const groups = [];
  for (let wave = 0; wave <= maxWave; wave++) {
    /** @type {import('../common/page-types').Child[]} */
    const items = [];
    dice.forEach((d, i) => {
      if (w[i] !== wave) return;
      const st = stateOf(i);
      if (st === 'hidden') return;
      const hit = d.hit !== undefined ? d.hit : d.face >= 4;
      const cause = causeText(view, scene, d.cause);
      const label = `Die #${i + 1}: ${d.face}, ${hit ? 'hit' : 'miss'}${d.face === 6 ? ', explodes' : ''} (${cause})`;
      items.push(
        h(
          'li',
          { class: 'die-item', 'data-key': 'd' + i, 'data-index': i },
          die(d.face, hit, st, label),
          h(
            'span',
            { class: 'die-caption', 'aria-hidden': 'true' },
            h('span', { class: 'die-no' }, '#' + (i + 1)),
            st === 'landed' ? h('span', { class: 'die-hit' }, hit ? (d.face === 6 ? 'hit · explodes' : 'hit') : 'miss') : null,
            h('span', { class: 'die-cause' }, cause),
          ),
        ),
      );
    });
    if (!items.length) continue;
    groups.push(
      h(
        'div',
        { class: 'wave', 'data-key': 'w' + wave },
        h('h4', null, wave === 0 ? 'The pool' : `Explosions, wave ${wave}`),
        h('ol', { class: 'dice' }, items),
      ),
    );
  }
  const hits = check.hits !== undefined ? check.hits : dice.filter((d) => d.face >= 4).length;
  const success = check.outcome === 'success';
  return h(
    'div',
    { class: ['roll', running ? 'running' : 'settled', check.physical ? 'physical' : null], testid: 'roll', 'data-scene-id': scene.id, 'data-physical': String(!!check.physical), 'data-reveal-ms': anim ? String(Math.round(anim.times.result)) : null, 'data-key': 'roll' + scene.id },
    check.physical && dice.length ? h('p', { class: 'small muted roll-source', testid: 'roll-source' }, 'Rolled with real dice at the table; the faces were typed in.') : null,
    dice.length ? groups : h('p', { class: 'muted' }, 'No dice were rolled: the players accepted an empty pool.'),
    running
      ? h(
          'div',
          { class: 'roll-status', 'data-key': 'status' },
          h('span', { class: 'rolling-label', role: 'status' }, 'Rolling…'),
          h('button', { type: 'button', class: 'btn secondary small', testid: 'skip-animation', onclick: onSkip }, 'Skip'),
        )
      : h(
          'p',
          {
            class: ['check-result', success ? 'success' : 'failure'],
            testid: 'check-result',
            'data-outcome': check.outcome,
            'data-hits': hits,
            'data-physical': String(!!check.physical),
            'data-key': 'result',
            role: 'status',
          },
          h('span', { class: 'result-hits' }, `${hits} ${hits === 1 ? 'hit' : 'hits'} against difficulty ${check.difficulty}${check.physical && dice.length ? ', real dice' : ''}`),
          h('span', { class: 'visually-hidden' }, ': '),
          h('span', { class: 'result-outcome' }, success ? 'Success' : 'Failure'),
        ),
  );
}

// ---------------------------------------------------------------- real dice

/**
 * The table's dice: the server rolls, or the players roll real dice and type the faces.
 * Switching is the table's choice: the other setting is proposed, and everyone agrees.
 * @param {Ctx} ctx
 */
export function diceSetting(ctx) {
  const { view } = ctx;
  const physical = !!view.physical_dice;
  const key = 'choose-dice';
  const proposed = openProposal(view, 'choose_dice');
  const blocked = !!view.proposal;
  const choose = (/** @type {boolean} */ value, /** @type {string} */ label, /** @type {string} */ testid) =>
    h(
      'button',
      {
        type: 'button',
        class: ['btn', 'small', physical === value ? 'primary' : 'secondary'],
        testid,
        'aria-pressed': String(physical === value),
        disabled: pending(ctx, key) || (physical !== value && blocked),
        title: physical === value ? 'The table’s dice now' : blocked ? 'Another proposal is open: settle it first.' : 'Propose it: everyone agrees first',
        'data-key': testid,
        onclick: () => {
          if (physical !== value) ctx.act(key, { action: 'propose', motion: { motion: 'choose_dice', physical: value } });
        },
      },
      label,
    );
  return h(
    'div',
    { class: 'dice-setting', testid: 'dice-setting', 'data-physical': String(physical), 'data-key': 'dice-setting' },
    h('span', { class: 'label', id: 'dice-setting-label' }, 'Dice: '),
    h(
      'span',
      { class: 'row', role: 'group', 'aria-labelledby': 'dice-setting-label' },
      choose(false, 'the server rolls', 'dice-server'),
      choose(true, 'real dice at the table', 'dice-physical'),
    ),
    h(
      'p',
      { class: 'small muted', testid: 'dice-note' },
      proposed ? 'The table is deciding on the dice: see the proposal at the top.' : 'Tap the other choice to propose it; it changes once everyone agrees.',
    ),
    msg(ctx, key),
  );
}

/**
 * How many dice a typed list of faces asks for: the pool, then one more for each six, wave by
 * wave (the same order as the server's). `needed` is the count once the faces typed so far are
 * read; `bad` lists what is not a face.
 * @param {number} pool
 * @param {number[]} faces
 */
export function facesNeeded(pool, faces) {
  let needed = pool;
  for (let i = 0; i < faces.length && i < needed; i++) if (faces[i] === 6) needed++;
  return needed;
}

/**
 * @param {string} text
 */
export function parseFaces(text) {
  const digits = String(text || '').match(/\d/g) || [];
  return digits.map(Number);
}

/**
 * The form for the faces of real dice, once the table agreed to the check.
 * @param {Ctx} ctx
 * @param {Scene} s
 */
export function facesForm(ctx, s) {
  const { view, ui } = ctx;
  const key = `faces:${s.id}`;
  const pool = (s.pool || []).length;
  if (isModerator(view)) return h('p', { class: 'muted', testid: 'faces-wait' }, `The players roll ${pool} real ${pool === 1 ? 'die' : 'dice'} and type in the faces.`);
  const typed = ui.faces.get(s.id) || '';
  const faces = parseFaces(typed);
  const needed = facesNeeded(pool, faces);
  const bad = faces.filter((f) => f < 1 || f > 6);
  let hint;
  if (bad.length) hint = `A die shows 1 to 6: ${bad.join(', ')} is not a face.`;
  else if (faces.length < needed) {
    const more = needed - faces.length;
    hint = `${faces.length} typed; ${more} more ${more === 1 ? 'die' : 'dice'} expected (${needed} so far${needed > pool ? `, with ${needed - pool} for sixes` : ''}).`;
  } else if (faces.length === needed) hint = `All ${needed} ${needed === 1 ? 'die' : 'dice'} typed${needed > pool ? ` (${needed - pool} for sixes)` : ''}: enter them.`;
  else hint = `${faces.length - needed} too many: ${needed} ${needed === 1 ? 'die' : 'dice'} expected.`;
  return form(
    ctx,
    key,
    {
      class: 'faces-form',
      testid: 'faces-form',
      onsubmit: (f) =>
        ctx.act(key, { action: 'enter_faces', scene: s.id, faces: parseFaces(fieldValue(f, 'faces')) }, {
          onDone: () => ui.faces.delete(s.id),
        }),
    },
    h(
      'p',
      { class: 'faces-instructions', testid: 'faces-instructions' },
      h('strong', null, `Roll ${pool} ${pool === 1 ? 'die' : 'dice'}`),
      ' and type the faces in the order rolled, then one more die for each 6 (and again for a 6 on those).',
    ),
    labelled(`faces-${s.id}`, 'The faces, in order', input(`faces-${s.id}`, 'faces', {
      testid: 'faces-input',
      inputmode: 'numeric',
      placeholder: 'e.g. 3 6 5 1 6 2 6 4',
      'aria-describedby': `faces-hint-${s.id}`,
      oninput: (e, el) => {
        ui.faces.set(s.id, el.value);
        ctx.rerender();
      },
    })),
    h('p', { class: ['faces-hint', 'small', faces.length === needed && !bad.length ? 'ready' : null], id: `faces-hint-${s.id}`, testid: 'faces-hint', 'aria-live': 'polite', 'data-needed': needed, 'data-typed': faces.length }, hint),
    submit(ctx, key, 'Enter the faces', 'enter-faces'),
  );
}
