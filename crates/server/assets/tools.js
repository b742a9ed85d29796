// The table's own tools, beside the story: proposals the table settles (consent), the pause
// (X-card) and flag banners, the timer, the moderator's questions, and the dice setting. The
// server decides everything; these only show the view and send what a player asks.

import { h } from './dom.js';
import {
  form, submit, msg, input, select, labelled, flagButton, flagged, button, actionButton,
  playerById, sceneById, aspectById, aspectText, objectName, objective, pending,
} from './ui.js';

// ---------------------------------------------------------------- who may do what

/** Whether this page's player votes on proposals (present, not the moderator). */
export function isVoter(view) {
  return (view.voters || []).includes(view.you);
}

/** Whether this page's player is the moderator (edition 1.1). */
export function isModerator(view) {
  return view.moderator !== null && view.moderator !== undefined && view.moderator === view.you;
}

/** Whoever keeps time: the moderator when there is one, else everyone. */
export function keepsTime(view) {
  return view.moderator === null || view.moderator === undefined || view.moderator === view.you;
}

export function isTemporal(view) {
  return !!(view.ruleset && view.ruleset.temporal);
}

/** The open proposal, if it is of `motion` (and, for a check, of `scene`). */
export function openProposal(view, motion, scene) {
  const p = view.proposal;
  if (!p) return null;
  if (motion && p.motion !== motion) return null;
  if (scene !== undefined && p.scene !== scene) return null;
  return p;
}

function names(view, ids) {
  const list = (ids || []).map((id) => (id === view.you ? 'you' : (playerById(view, id) || { name: 'a player who left' }).name));
  if (list.length <= 1) return list.join('');
  return `${list.slice(0, -1).join(', ')} and ${list[list.length - 1]}`;
}

function nameOf(view, id) {
  if (id === view.you) return 'You';
  const p = playerById(view, id);
  return p ? p.name : 'A player who left';
}

// ---------------------------------------------------------------- proposals

function pairWords(view, pairId) {
  for (const s of view.scenes || []) {
    const p = (s.pairs || []).find((x) => x.id === pairId);
    if (p) {
      const ca = aspectById(view, p.character_aspect);
      const ea = aspectById(view, p.environment_aspect);
      const c = ca ? `${objectName(ca.object)}: ${aspectText(ca.aspect)}` : 'a removed aspect';
      const e = ea ? `${objectName(ea.object)}: ${aspectText(ea.aspect)}` : 'a removed aspect';
      return `${c} ⇄ ${e}`;
    }
  }
  return 'a pair';
}

/** What the proposal asks, in words (the server's label, with the scene or pair it names). */
export function proposalWords(view, p) {
  switch (p.motion) {
    case 'make_check': {
      const s = sceneById(view, p.scene);
      return s ? `make the check of “${objective(s)}”` : p.label;
    }
    case 'withdraw_pair':
      return `withdraw the pair ${pairWords(view, p.pair)}`;
    case 'choose_moderator':
      // Whoever is named is asked too: say what they would take on.
      return p.player === view.you ? 'make you the moderator (you would ask questions and keep time, and play no character)' : p.label;
    default:
      return p.label || p.motion.replace(/_/g, ' ');
  }
}

/**
 * The open proposal, where every player looks: who asks what, who agreed, who we wait for;
 * Agree and Not yet for the players who vote.
 */
export function proposalBar(ctx) {
  const { view } = ctx;
  const p = view.proposal;
  if (!p) return null;
  const voter = isVoter(view);
  const mine = p.by === view.you;
  const agreed = (p.agreed || []).includes(view.you);
  const waiting = p.waiting || [];
  const agreeKey = `agree:${p.id}`;
  const stopKey = `stop:${p.id}`;
  const agreeLabel = waiting.length ? 'Agree' : 'Agree: carry it';
  return h(
    'section',
    {
      class: 'banner proposal',
      role: 'region',
      'aria-label': 'A proposal to the table',
      testid: 'proposal',
      'data-key': 'proposal' + p.id,
      'data-proposal-id': p.id,
      'data-motion': p.motion,
    },
    h(
      'p',
      { class: 'proposal-what', testid: 'proposal-text' },
      h('strong', null, `${nameOf(view, p.by)} ${mine ? 'propose' : 'proposes'} to ${proposalWords(view, p)}.`),
      ' ',
      h('span', { class: 'proposal-rule' }, 'It carries when everyone playing agrees.'),
    ),
    h(
      'p',
      { class: 'proposal-votes' },
      h('span', { testid: 'proposal-agreed' }, `Agreed: ${names(view, p.agreed) || 'nobody yet'}.`),
      ' ',
      waiting.length
        ? h('span', { testid: 'proposal-waiting' }, `Waiting for ${names(view, waiting)}.`)
        : h('span', { testid: 'proposal-waiting' }, 'Everyone still at the table has agreed: one more Agree carries it.'),
    ),
    voter
      ? h(
          'div',
          { class: 'row proposal-actions' },
          !agreed || !waiting.length
            ? actionButton(ctx, agreeKey, agreeLabel, { action: 'agree', proposal: p.id }, { class: 'primary small', testid: 'proposal-agree' })
            : h('span', { class: 'small' }, 'You agreed.'),
          !agreed
            ? actionButton(ctx, stopKey, 'Not yet', { action: 'stop', proposal: p.id }, { class: 'ghost small on-dark', testid: 'proposal-stop' })
            : actionButton(ctx, stopKey, mine ? 'Withdraw it' : 'Not yet after all', { action: 'stop', proposal: p.id }, { class: 'ghost small on-dark', testid: 'proposal-stop' }),
        )
      : h('p', { class: 'small' }, isModerator(view) ? 'The players decide; the moderator does not vote.' : ''),
  );
}

/**
 * A button that proposes `motion` to the table. Disabled while another proposal is open (the
 * bar above shows it); the answer (a refusal) shows beside it.
 */
export function proposeButton(ctx, key, label, motion, props = {}) {
  const { view } = ctx;
  const busy = pending(ctx, key);
  const open = view.proposal;
  const { class: cls, testid, onRefused, note, ...rest } = props;
  return [
    h(
      'button',
      {
        type: 'button',
        class: ['btn', cls || 'secondary'],
        testid,
        disabled: busy || !!open,
        title: open ? 'Another proposal is open: settle it first.' : null,
        'data-key': 'btn:' + key,
        ...rest,
        onclick: () => ctx.act(key, { action: 'propose', motion }, { onRefused }),
      },
      busy ? label + '…' : label,
    ),
    open && note !== false ? h('span', { class: 'small muted proposal-open-note' }, 'A proposal is open: settle it first.') : null,
    msg(ctx, key),
  ];
}

// ---------------------------------------------------------------- the pause (X-card) and flags

/** The banner while play is paused: by the X-card, by flagged texts, or both. */
export function pausedBanner(ctx, flaggedList) {
  const { view } = ctx;
  if (!view.paused) return null;
  const xCard = !!view.x_card;
  const mine = !!(ctx.own && ctx.own.paused);
  const resumeOpen = openProposal(view, 'resume');
  return h(
    'div',
    { class: 'banner paused', role: 'alert', testid: 'paused-banner', 'data-key': 'paused', 'data-x-card': String(xCard) },
    h('strong', null, 'Play is paused. '),
    xCard
      ? h(
          'span',
          { class: 'x-card-text', testid: 'x-card-paused' },
          'Someone used the X-card: leave out what was just said or shown. No one explains why. ',
          mine
            ? actionButton(ctx, 'resume', 'Resume play', { action: 'resume' }, { class: 'secondary small', testid: 'resume' })
            : resumeOpen
              ? h('span', { class: 'small' }, 'The table is deciding whether to resume.')
              : proposeButton(ctx, 'propose-resume', 'Propose resuming', { motion: 'resume' }, { class: 'secondary small', testid: 'propose-resume', note: false }),
        )
      : null,
    flaggedList.length
      ? h(
          'span',
          { class: 'flag-list' },
          'A text was flagged and is hidden until someone replaces it. Flagged: ',
          flaggedList.map((f, i) => [
            i ? ', ' : null,
            h('button', { type: 'button', class: 'linkish', 'data-key': 'f' + i, onclick: () => ctx.goToFlag(f) }, f.label),
          ]),
          '.',
        )
      : null,
  );
}

// ---------------------------------------------------------------- the timer

/** "7:59 left", or "Time’s up · 0:12 over". */
export function timerText(deadline, now) {
  return remainingText(deadline - now);
}

function fmt(v) {
  const s = Math.floor(Math.abs(v) / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

export function remainingText(ms) {
  if (ms > 0) return { text: `${fmt(ms + 999)} left`, over: false };
  return { text: `Time’s up · ${fmt(-ms)} over`, over: true };
}

const TIMED = { scene: 'Scene', flashback: 'Flashback', flashforward: 'Flashforward' };

/** The advisory timer (never blocks): counting down, or stopped while paused or held. */
export function timerView(ctx) {
  const { view } = ctx;
  const t = view.timer;
  if (!t) return null;
  const counting = t.counting && t.deadline !== null && t.deadline !== undefined;
  const left = counting ? timerText(t.deadline, ctx.serverNow()) : remainingText(t.remaining_ms || 0);
  const what = TIMED[t.timed] || 'Timer';
  return h(
    'div',
    {
      class: ['timer', left.over ? 'overtime' : null, counting ? 'counting' : 'stopped'],
      testid: 'timer',
      role: 'timer',
      'data-timed': t.timed,
      'data-state': counting ? 'counting' : 'stopped',
      'data-held': String(!!t.held),
      'data-deadline': counting ? t.deadline : null,
      'data-key': 'timer',
      'aria-label': `${what} timer (advisory, ${t.minutes} minutes)`,
    },
    h('span', { class: 'timer-icon', 'aria-hidden': 'true' }),
    h('span', { class: 'timer-what' }, `${what}: `),
    counting ? null : h('span', { class: 'timer-stopped', testid: 'timer-paused' }, t.held ? 'held · ' : 'paused · '),
    h('span', { class: 'timer-text', testid: 'timer-text' }, left.text),
  );
}

/** Hold, more time, reset: for whoever keeps time. */
function timerControls(ctx) {
  const { view } = ctx;
  const t = view.timer;
  if (!t || !keepsTime(view)) return null;
  // Each button's name starts with the words it shows (WCAG 2.5.3: speech users say them).
  return h(
    'span',
    { class: 'timer-controls', role: 'group', 'aria-label': 'Timer controls', 'data-key': 'timer-controls' },
    t.held
      ? actionButton(ctx, 'timer-release', 'Let go', { action: 'release_timer' }, { class: 'ghost small', testid: 'timer-release', aria: 'Let go: the timer counts again' })
      : actionButton(ctx, 'timer-hold', 'Hold', { action: 'hold_timer' }, { class: 'ghost small', testid: 'timer-hold', aria: 'Hold the timer' }),
    actionButton(ctx, 'timer-extend', '+2 min', { action: 'extend_timer', minutes: 2 }, { class: 'ghost small', testid: 'timer-extend', aria: '+2 min: two more minutes' }),
    actionButton(ctx, 'timer-reset', 'Reset', { action: 'reset_timer' }, { class: 'ghost small', testid: 'timer-reset', aria: 'Reset: start the time again from now' }),
  );
}

/** The strip that stays on screen: the timer, and the X-card for anyone, at any time. */
export function tableStrip(ctx) {
  const { view } = ctx;
  const key = 'x-card';
  if (view.x_card && !view.timer) return null;
  return h(
    'div',
    { class: 'table-strip', 'data-key': 'strip' },
    timerView(ctx),
    timerControls(ctx),
    view.x_card
      ? null
      : h(
          'span',
          { class: 'x-card-wrap' },
          actionButton(ctx, key, 'Pause (X-card)', { action: 'pause' }, {
            class: 'x-card small',
            testid: 'x-card',
            title: 'Pause play for anything said or shown, anonymously; no reason needed',
          }),
        ),
  );
}

// ---------------------------------------------------------------- the moderator's questions

/** Questions the moderator may put to the players (the page's own wording). */
export const QUESTIONS = [
  'What does your character fear will happen if this scene fails?',
  'What does your character notice here that the others have missed?',
  'Who in this scene is not what they seem, and how can you tell?',
  'What does your character want from this place that has nothing to do with the plan?',
  'Which old promise weighs on your character right now?',
  'What sound, smell or texture tells you that time is running out?',
  'What would your character refuse to do, even to stop the catastrophe?',
  'How has the danger already touched someone your character cares about?',
  'What small kindness does your character show in the middle of all this?',
  'What does your character say aloud that they have never admitted before?',
  'What goes wrong first, and who is closest when it does?',
  'If this scene succeeds, who pays for it, and how?',
  'What does this place remember that its people have forgotten?',
];

/** The moderator's panel: a list of questions, or one of their own, asked to the table. */
export function moderatorPanel(ctx) {
  const { view, ui } = ctx;
  if (!isModerator(view)) return null;
  const listKey = 'ask-question';
  const ownKey = 'ask-own-question';
  const chosen = ui.question && QUESTIONS.includes(ui.question) ? ui.question : QUESTIONS[0];
  return h(
    'section',
    { class: 'panel moderator-panel', testid: 'moderator-panel', 'aria-labelledby': 'moderator-h', 'data-key': 'moderator-panel' },
    h('h2', { id: 'moderator-h' }, 'You are the moderator'),
    h('p', { class: 'small muted' }, 'You ask questions and keep time; the players sketch, match aspects, roll and narrate. Put a question to the table when a scene needs a push.'),
    form(
      ctx,
      listKey,
      { class: 'inline-form question-form', onsubmit: (f) => ctx.act(listKey, { action: 'ask_question', text: f.elements.question.value }) },
      labelled('question-select', 'A question', select('question-select', 'question', QUESTIONS.map((q) => ({ value: q, label: q })), chosen, {
        testid: 'question-select',
        onchange: (e) => {
          ui.question = e.target.value;
        },
      })),
      submit(ctx, listKey, 'Ask the table', 'ask-question', { class: 'primary small' }),
    ),
    form(
      ctx,
      ownKey,
      { class: 'inline-form question-form', onsubmit: (f) => ctx.act(ownKey, { action: 'ask_question', text: f.elements.text.value }, { reset: true }) },
      labelled('question-text', 'Or your own question', input('question-text', 'text', { testid: 'question-text', maxlength: 300, placeholder: 'e.g. What is the river hiding?' })),
      submit(ctx, ownKey, 'Ask', 'ask-own-question', { class: 'secondary small' }),
    ),
  );
}

/** The moderator's question, for the whole table (flaggable like any text). */
export function questionCard(ctx) {
  const { view } = ctx;
  const isFlagged = !!view.question_flagged;
  if (!view.question && !isFlagged) return null;
  const target = { text: 'question' };
  const mod = view.moderator !== null && view.moderator !== undefined ? playerById(view, view.moderator) : null;
  return h(
    'section',
    { class: 'panel question-card', testid: 'question', 'aria-labelledby': 'question-h', 'data-key': 'question' },
    h('h2', { id: 'question-h' }, mod ? `${mod.name}, the moderator, asks` : 'The moderator asks'),
    isFlagged
      ? [
          flagged(ctx, target, null),
          isModerator(view) ? h('p', { class: 'small muted' }, 'Ask another question below to replace it.') : null,
        ]
      : h('p', { class: 'question-text read-aloud', testid: 'question-shown' }, view.question, flagButton(ctx, target, 'the question')),
  );
}

// ---------------------------------------------------------------- the dice

/**
 * The table's dice: the server rolls, or the players roll real dice and type the faces.
 * Switching is the table's choice: the other setting is proposed, and everyone agrees.
 */
export function diceSetting(ctx) {
  const { view } = ctx;
  const physical = !!view.physical_dice;
  const key = 'choose-dice';
  const proposed = openProposal(view, 'choose_dice');
  const blocked = !!view.proposal;
  const choose = (value, label, testid) =>
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
 */
export function facesNeeded(pool, faces) {
  let needed = pool;
  for (let i = 0; i < faces.length && i < needed; i++) if (faces[i] === 6) needed++;
  return needed;
}

export function parseFaces(text) {
  const digits = String(text || '').match(/\d/g) || [];
  return digits.map(Number);
}

/** The form for the faces of real dice, once the table agreed to the check. */
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
        ctx.act(key, { action: 'enter_faces', scene: s.id, faces: parseFaces(f.elements.faces.value) }, {
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
      oninput: (e) => {
        ui.faces.set(s.id, e.target.value);
        ctx.rerender();
      },
    })),
    h('p', { class: ['faces-hint', 'small', faces.length === needed && !bad.length ? 'ready' : null], id: `faces-hint-${s.id}`, testid: 'faces-hint', 'aria-live': 'polite', 'data-needed': needed, 'data-typed': faces.length }, hint),
    submit(ctx, key, 'Enter the faces', 'enter-faces'),
  );
}
