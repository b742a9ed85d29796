// The end of the story: the Finale's moment (its outcome and the road there), the scenes as
// they were played, and keeping the story (the exports, publishing a read-only page).

import { h, paragraphs } from '../common/dom.js';
import { button } from '../common/controls.js';
import { proposeButton, openProposal } from './proposals.js';
import { sceneById, isTemporal, objective } from './lookups.js';

/**
 * @typedef {import('./page-types').StoryContext} Ctx
 * @typedef {import('./view-types').Scene} Scene
 */

/**
 * @param {Ctx} ctx
 */
export function theEnd(ctx) {
  return h(
    'section',
    { class: 'panel the-end', 'data-key': 'the-end', testid: 'the-end' },
    h('h2', null, 'The story is told'),
    h('p', null, 'Read it back below, or keep it: ', h('a', { href: `/t/${ctx.token}/export.md`, download: true }, 'download it as Markdown'), ' or open the ', h('a', { href: `/t/${ctx.token}/print`, target: '_blank', rel: 'noopener' }, 'printable page'), '.'),
    shareBlock(ctx),
  );
}

/**
 * Publishing the story: a read-only page at a link of its own, for people who were not at the
 * table. It gives no seat and no way to act. Publishing is the table's choice (a proposal);
 * any player withdraws it at once, and nobody is told who.
 * @param {Ctx} ctx
 */
function shareBlock(ctx) {
  const invite = ctx.invite;
  if (!invite) return null;
  const link = invite.share;
  if (!link) {
    const deciding = openProposal(ctx.view, 'publish');
    return h(
      'div',
      { class: 'share', testid: 'share', 'data-key': 'share' },
      h('p', { class: 'small' }, 'Share the story with people who were not here: a page of its own, read-only, at a link nobody can guess. The table agrees first. The lines and flagged texts stay out, and any player can withdraw the page later.'),
      deciding
        ? h('p', { class: 'small', testid: 'publish-proposed' }, 'The table is deciding whether to publish: see the proposal at the top.')
        : proposeButton(ctx, 'publish', 'Propose publishing a read-only page', { motion: 'publish' }, { class: 'secondary', testid: 'publish-story' }),
    );
  }
  const confirming = ctx.ui.confirm === 'withdraw-share';
  return h(
    'div',
    { class: 'share', testid: 'share', 'data-key': 'share' },
    h('label', { for: 'share-link' }, 'The story’s page'),
    h(
      'div',
      { class: 'row' },
      h('input', { id: 'share-link', type: 'text', readonly: true, value: link, testid: 'share-link', 'data-key': 'share-link', onfocus: (e, el) => el.select() }),
      h('a', { class: 'btn secondary', href: link, target: '_blank', rel: 'noopener', testid: 'open-shared' }, 'Open'),
    ),
    confirming
      ? h(
          'span',
          { class: 'confirm', role: 'group', 'aria-label': 'Confirm withdrawing the page' },
          button('Withdraw the page', () => ctx.changeShare('withdraw'), { class: 'danger small', testid: 'confirm-withdraw-story' }),
          button('Keep it', () => { ctx.ui.confirm = null; ctx.rerender(); }, { class: 'ghost small' }),
        )
      : button('Withdraw the page', () => { ctx.ui.confirm = 'withdraw-share'; ctx.rerender(); }, { class: 'ghost small', testid: 'withdraw-story' }),
  );
}

/**
 * The moment the Finale is decided: its outcome in large type, what it means, and a recap of
 * the scenes that led there (shown from the Finale's check to the end of the game).
 * @param {Ctx} ctx
 */
export function finaleMoment(ctx) {
  const { view } = ctx;
  const finale = view.finale !== null && view.finale !== undefined ? sceneById(view, view.finale) : null;
  if (!finale || !finale.check) return null;
  const won = finale.check.outcome === 'success';
  const temporal = isTemporal(view);
  // The scenes performed, each with its check.
  const performed = /** @type {Array<Scene & {check: import('./view-types').Check}>} */ ((view.scenes || []).filter((s) => s.status === 'performed' && s.check && s.id !== finale.id));
  performed.sort((a, b) => (b.depth ?? 0) - (a.depth ?? 0) || a.id - b.id);
  const succeeded = performed.filter((s) => s.check.outcome === 'success').length;
  const hits = finale.check.hits;
  return h(
    'section',
    { class: ['panel', 'finale-moment', won ? 'success' : 'failure'], testid: 'finale-moment', 'data-outcome': finale.check.outcome, 'data-key': 'finale-moment', 'aria-labelledby': 'finale-moment-h' },
    h('p', { class: 'eyebrow' }, temporal ? 'The climactic scene' : 'The Finale'),
    h('h2', { id: 'finale-moment-h' }, won ? (temporal ? 'The future is saved' : 'The heroes defy the prophecy') : temporal ? 'The future is lost' : 'The prophecy comes to pass'),
    h('p', { class: 'finale-objective' }, objective(finale)),
    h('p', { class: 'finale-roll' }, `${hits} ${hits === 1 ? 'hit' : 'hits'} against difficulty ${finale.check.difficulty}: ${won ? 'success' : 'failure'}.`),
    performed.length
      ? h(
          'div',
          { class: 'recap', testid: 'recap' },
          h('h3', null, `The road here: ${succeeded} of ${performed.length} ${performed.length === 1 ? 'scene' : 'scenes'} succeeded`),
          h(
            'ol',
            null,
            performed.map((s) => h('li', { class: s.check.outcome, 'data-key': 'r' + s.id }, h('span', { class: 'recap-mark', 'aria-hidden': 'true' }, s.check.outcome === 'success' ? '✓' : '✗'), ` ${objective(s)} — ${s.check.outcome}`)),
          ),
        )
      : null,
  );
}

/**
 * @param {Ctx} ctx
 */
export function storySoFar(ctx) {
  const { view } = ctx;
  const performed = (view.scenes || []).filter((s) => s.status === 'performed');
  // Order: precursors before parents (the order they could be played), deepest first.
  performed.sort((a, b) => (b.depth ?? 0) - (a.depth ?? 0) || a.id - b.id);
  return h(
    'section',
    { class: 'panel story', 'data-key': 'story', 'aria-labelledby': 'story-h' },
    h('h2', { id: 'story-h' }, 'The scenes'),
    performed.length
      ? h(
          'ol',
          { class: 'scene-list' },
          performed.map((s) =>
            h(
              'li',
              { 'data-key': 's' + s.id },
              h('h3', null, `${s.level || 'Scene'}: `, s.objective_flagged ? '(flagged objective)' : s.objective),
              s.check ? h('p', { class: ['outcome', s.check.outcome] }, `${s.check.hits} ${s.check.hits === 1 ? 'hit' : 'hits'} against difficulty ${s.check.difficulty}: ${s.check.outcome}`) : null,
              s.narration ? h('blockquote', null, paragraphs(s.narration)) : s.narration_flagged ? h('p', { class: 'flagged' }, 'flagged — hidden until replaced') : null,
            ),
          ),
        )
      : h('p', { class: 'muted' }, 'No scene was performed.'),
  );
}
