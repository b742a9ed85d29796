// What stays above the story's table: the banner while play is paused (by the X-card or by
// flagged texts, with the way to each flagged text), the open proposal, and the strip with the
// advisory timer and the X-card.

import { h } from '../common/dom.js';
import { actionButton } from '../common/controls.js';
import { banners, wide } from '../common/shell.js';
import { proposeButton, openProposal, proposalBar } from './proposals.js';
import { isTemporal, objectName, keepsTime } from './lookups.js';
import { flagKey } from './flags.js';

/**
 * @typedef {import('./page-types').StoryContext} Ctx
 * @typedef {import('../common/page-types').Seen<import('./page-types').PageView>} View
 * @typedef {import('./view-types').Scene} Scene
 */

/**
 * @param {Ctx} ctx
 */
export function storyBanners(ctx) {
  const { view } = ctx;
  return banners(ctx, pausedBanner(ctx, flaggedTexts(view)), proposalBar(ctx), view.phase && view.phase.id !== 'ended' ? tableStrip(ctx) : null);
}

/**
 * Every flagged text in the view, to list under the paused banner.
 * @param {View} view
 */
function flaggedTexts(view) {
  /** @type {Array<Omit<import('./page-types').FlaggedText, 'key'>>} */
  const out = [];
  if (view.prophecy && view.prophecy.flagged) out.push({ target: { text: 'prophecy' }, label: isTemporal(view) ? 'the warning' : 'the prophecy' });
  if (view.question_flagged) out.push({ target: { text: 'question' }, label: 'the moderator’s question' });
  for (const o of view.objects || []) {
    if (o.name_flagged) out.push({ target: { text: 'object_name', id: o.id }, label: `a ${o.kind === 'character' ? 'character' : 'object'}’s name` });
    for (const a of o.aspects || []) {
      if (a.flagged) out.push({ target: { text: 'aspect', id: a.id }, label: `an aspect of ${objectName(o)}` });
    }
  }
  for (const s of view.scenes || []) {
    if (s.objective_flagged) out.push({ target: { text: 'objective', id: s.id }, label: 'a scene’s objective', scene: s.id });
    if (s.setting_flagged) out.push({ target: { text: 'setting', id: s.id }, label: 'a scene’s setting', scene: s.id });
    if (s.narration_flagged) out.push({ target: { text: 'narration', id: s.id }, label: 'a scene’s narration', scene: s.id });
    for (const p of s.pairs || []) {
      if (p.justification_flagged) out.push({ target: { text: 'justification', id: p.id }, label: 'a pair’s justification', scene: s.id });
    }
  }
  if (view.flashback_flagged) out.push({ target: { text: 'flashback' }, label: 'the flashback' });
  if (view.long_term_effects_flagged) out.push({ target: { text: 'long_term_effects' }, label: isTemporal(view) ? 'the flashforward' : 'the long-term effects' });
  return out.map((f) => ({ ...f, key: flagKey(f.target) }));
}

/**
 * The banner while play is paused: by the X-card, by flagged texts, or both. On a phone, one
 * line (what paused play, and resuming); what to do and the flagged texts are a tap away.
 * @param {Ctx} ctx
 * @param {import('./page-types').FlaggedText[]} flaggedList
 */
export function pausedBanner(ctx, flaggedList) {
  const { view } = ctx;
  if (!view.paused) return null;
  const xCard = !!view.x_card;
  const mine = !!(ctx.own && ctx.own.paused);
  const resumeOpen = !!openProposal(view, 'resume');
  if (!wide.matches) return pausedLine(ctx, flaggedList, xCard, mine, resumeOpen);
  return h(
    'div',
    { class: 'banner paused', role: 'alert', testid: 'paused-banner', 'data-key': 'paused', 'data-x-card': String(xCard) },
    h('strong', null, 'Play is paused. '),
    xCard
      ? h(
          'span',
          { class: 'x-card-text', testid: 'x-card-paused' },
          'Someone used the X-card: leave out what was just said or shown. No one explains why. ',
          resumeControl(ctx, mine, resumeOpen),
        )
      : null,
    flaggedList.length
      ? h(
          'span',
          { class: 'flag-list' },
          'A text was flagged and is hidden until someone replaces it. Flagged: ',
          flagLinks(ctx, flaggedList),
          '.',
        )
      : null,
  );
}

/**
 * The paused banner on a phone: one line, its words behind a tap (`<details>`).
 * @param {Ctx} ctx
 * @param {import('./page-types').FlaggedText[]} flaggedList
 * @param {boolean} xCard
 * @param {boolean} mine
 * @param {boolean} resumeOpen
 */
function pausedLine(ctx, flaggedList, xCard, mine, resumeOpen) {
  const { ui } = ctx;
  const flagged = flaggedList.length;
  return h(
    'div',
    { class: 'banner paused one-line', role: 'alert', testid: 'paused-banner', 'data-key': 'paused-line', 'data-x-card': String(xCard) },
    h(
      'details',
      { class: 'banner-more', open: ui.open.has('paused-more'), ontoggle: (e, el) => ctx.toggled('paused-more', el.open) },
      h(
        'summary',
        null,
        h('strong', null, 'Paused'),
        xCard ? h('span', { class: 'x-card-text', testid: 'x-card-paused' }, ': X-card') : null,
        flagged ? h('span', { class: 'flag-count' }, `${xCard ? ',' : ':'} ${flagged === 1 ? 'a flagged text' : `${flagged} flagged texts`}`) : null,
      ),
      h(
        'div',
        { class: 'banner-more-text' },
        xCard ? h('p', null, 'Someone used the X-card: leave out what was just said or shown. No one explains why.') : null,
        xCard && resumeOpen && !mine ? h('p', null, 'The table is deciding whether to resume.') : null,
        flagged ? h('p', { class: 'flag-list' }, 'Hidden until someone replaces it. Flagged: ', flagLinks(ctx, flaggedList), '.') : null,
      ),
    ),
    xCard ? resumeControl(ctx, mine, resumeOpen, true) : null,
  );
}

/**
 * Resuming after the X-card: whoever used it resumes; the others propose it.
 * @param {Ctx} ctx
 * @param {boolean} mine
 * @param {boolean} resumeOpen
 * @param {boolean} [short] a phone's line: nothing while the table decides (the proposal's bar says so)
 */
function resumeControl(ctx, mine, resumeOpen, short = false) {
  if (mine) return actionButton(ctx, 'resume', 'Resume play', { action: 'resume' }, { class: 'secondary small', testid: 'resume' });
  if (resumeOpen) return short ? null : h('span', { class: 'small' }, 'The table is deciding whether to resume.');
  return proposeButton(ctx, 'propose-resume', 'Propose resuming', { motion: 'resume' }, { class: 'secondary small', testid: 'propose-resume', note: false });
}

/**
 * The way to each flagged text.
 * @param {Ctx} ctx
 * @param {import('./page-types').FlaggedText[]} flaggedList
 */
function flagLinks(ctx, flaggedList) {
  return flaggedList.map((f, i) => [
    i ? ', ' : null,
    h('button', { type: 'button', class: 'linkish', 'data-key': 'f' + i, onclick: () => ctx.goToFlag(f) }, f.label),
  ]);
}

/**
 * "7:59 left", or "Time’s up · 0:12 over".
 * @param {number} deadline
 * @param {number} now
 */
export function timerText(deadline, now) {
  return remainingText(deadline - now);
}

/**
 * @param {number} v
 */
function fmt(v) {
  const s = Math.floor(Math.abs(v) / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/**
 * @param {number} ms
 */
export function remainingText(ms) {
  if (ms > 0) return { text: `${fmt(ms + 999)} left`, over: false };
  return { text: `Time’s up · ${fmt(-ms)} over`, over: true };
}

const TIMED = { scene: 'Scene', flashback: 'Flashback', flashforward: 'Flashforward' };

/**
 * The advisory timer (never blocks): counting down, or stopped while paused or held.
 * @param {Ctx} ctx
 */
export function timerView(ctx) {
  const { view } = ctx;
  const t = view.timer;
  if (!t) return null;
  const deadline = t.deadline;
  const counting = t.counting && deadline !== null && deadline !== undefined;
  const left = counting ? timerText(deadline, ctx.serverNow()) : remainingText(t.remaining_ms || 0);
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

/**
 * Hold, more time, reset: for whoever keeps time.
 * @param {Ctx} ctx
 */
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

/**
 * The strip that stays on screen: the timer, and the X-card for anyone, at any time. While the
 * X-card holds play there is no X-card to offer: the strip is the stopped timer, which a phone
 * leaves out while a proposal waits too (three banners would stack on its small screen; the
 * paused banner and the proposal are what matters then).
 * @param {Ctx} ctx
 */
export function tableStrip(ctx) {
  const { view } = ctx;
  const key = 'x-card';
  if (view.x_card && (!view.timer || (!wide.matches && view.proposal))) return null;
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
