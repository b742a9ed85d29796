// Proposals the table settles by consent: the open proposal where every player looks (who asks
// what, who agreed, who we wait for), and the buttons that propose. The server decides
// everything; these only show the view and send what a player asks.

import { h } from '../common/dom.js';
import { msg, actionButton, pending } from '../common/controls.js';
import {
  playerById, sceneById, aspectById, aspectText, objectName, objective, isVoter, isModerator,
} from './lookups.js';

/**
 * @typedef {import('./page-types').StoryContext} Ctx
 * @typedef {import('../common/page-types').Seen<import('./page-types').PageView>} View
 * @typedef {import('./view-types').Proposal} Proposal
 * @typedef {import('../common/page-types').Child} Child
 */

/**
 * The open proposal, if it is of `motion` (and, for a check, of `scene`).
 * @param {View} view
 * @param {import('./view-types').Motion | null} motion
 * @param {number} [scene]
 */
export function openProposal(view, motion, scene) {
  const p = view.proposal;
  if (!p) return null;
  if (motion && p.motion !== motion) return null;
  if (scene !== undefined && p.scene !== scene) return null;
  return p;
}

/**
 * @param {View} view
 * @param {number[]} ids
 */
function names(view, ids) {
  const list = (ids || []).map((id) => (id === view.you ? 'you' : (playerById(view, id) || { name: 'a player who left' }).name));
  if (list.length <= 1) return list.join('');
  return `${list.slice(0, -1).join(', ')} and ${list[list.length - 1]}`;
}

/**
 * @param {View} view
 * @param {number} id
 */
function nameOf(view, id) {
  if (id === view.you) return 'You';
  const p = playerById(view, id);
  return p ? p.name : 'A player who left';
}

// ---------------------------------------------------------------- proposals

/**
 * @param {View} view
 * @param {number | null} pairId
 */
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

/**
 * What the proposal asks, in words (the server's label, with the scene or pair it names).
 * @param {View} view
 * @param {Proposal} p
 */
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
 * @param {Ctx} ctx
 */
export function proposalBar(ctx) {
  const { view } = ctx;
  const p = view.proposal;
  if (!p) return null;
  const voter = isVoter(view);
  const mine = p.by === view.you;
  const agreed = view.you !== null && (p.agreed || []).includes(view.you);
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
 * @param {Ctx} ctx
 * @param {string} key
 * @param {Child} label
 * @param {{motion: import('./view-types').Motion, [field: string]: unknown}} motion
 * @param {{class?: string, testid?: string, onRefused?: (msg: import('../common/messages').RefusedMessage) => void, note?: Child, [attribute: string]: unknown}} [props]
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

// ---------------------------------------------------------------- the timer

// ---------------------------------------------------------------- the moderator's questions

// ---------------------------------------------------------------- the dice
