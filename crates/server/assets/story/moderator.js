// Edition 1.1's moderator: choosing one (a proposal everyone agrees to), the moderator's panel
// of questions, and the question asked, for the whole table.

import { h } from '../common/dom.js';
import { form, submit, input, select, labelled, fieldValue } from '../common/controls.js';
import { flagButton, flagged } from './flags.js';
import { playerById, isModerator } from './lookups.js';
import { openProposal } from './proposals.js';

/**
 * @typedef {import('./page-types').StoryContext} Ctx
 * @typedef {import('../common/page-types').Seen<import('./page-types').PageView>} View
 * @typedef {import('./page-types').FlagTarget} FlagTarget
 */

/**
 * Edition 1.1's moderator is the table's choice: anyone proposes someone (or no moderator),
 * and everyone agrees, whoever is named included (they give up their vote and play no
 * character).
 * @param {Ctx} ctx
 * @param {View['players']} players
 */
export function moderatorControls(ctx, players) {
  const { view } = ctx;
  const mod = view.moderator !== null && view.moderator !== undefined ? playerById(view, view.moderator) : null;
  const key = 'choose-moderator';
  const open = openProposal(view, 'choose_moderator');
  const options = /** @type {Array<{value: string | number, label: string}>} */ ([{ value: '', label: 'No moderator' }]).concat(players.map((p) => ({ value: p.id, label: p.name + (p.character !== null && p.character !== undefined ? ' (has a character)' : '') })));
  return h(
    'div',
    { class: 'moderator-choice', 'data-key': 'moderator-choice' },
    h('p', { class: 'small muted', testid: 'moderator' }, mod ? `Moderator: ${mod.name} (asks questions, keeps time, never narrates).` : 'No moderator. A moderator (optional) asks questions and keeps time, and plays no character.'),
    open
      ? h('p', { class: 'small', testid: 'moderator-proposed' }, 'The table is deciding on the moderator: see the proposal at the top.')
      : form(
          ctx,
          key,
          {
            class: 'inline-form moderator-form',
            onsubmit: (f) => {
              const v = fieldValue(f, 'player');
              ctx.act(key, { action: 'propose', motion: { motion: 'choose_moderator', player: v === '' ? null : Number(v) } });
            },
          },
          labelled('moderator-select', mod ? 'Propose another moderator, or none' : 'Propose a moderator', select('moderator-select', 'player', options, '', { testid: 'moderator-select' })),
          submit(ctx, key, 'Propose', 'choose-moderator', { class: 'secondary small', disabled: !!view.proposal, title: view.proposal ? 'Another proposal is open: settle it first.' : null }),
          h('p', { class: 'small muted' }, 'Everyone agrees first, whoever is named too.'),
        ),
  );
}

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

/**
 * The moderator's panel: a list of questions, or one of their own, asked to the table.
 * @param {Ctx} ctx
 */
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
      { class: 'inline-form question-form', onsubmit: (f) => ctx.act(listKey, { action: 'ask_question', text: fieldValue(f, 'question') }) },
      labelled('question-select', 'A question', select('question-select', 'question', QUESTIONS.map((q) => ({ value: q, label: q })), chosen, {
        testid: 'question-select',
        onchange: (e, el) => {
          ui.question = el.value;
        },
      })),
      submit(ctx, listKey, 'Ask the table', 'ask-question', { class: 'primary small' }),
    ),
    form(
      ctx,
      ownKey,
      { class: 'inline-form question-form', onsubmit: (f) => ctx.act(ownKey, { action: 'ask_question', text: fieldValue(f, 'text') }, { reset: true }) },
      labelled('question-text', 'Or your own question', input('question-text', 'text', { testid: 'question-text', maxlength: 300, placeholder: 'e.g. What is the river hiding?' })),
      submit(ctx, ownKey, 'Ask', 'ask-own-question', { class: 'secondary small' }),
    ),
  );
}

/**
 * The moderator's question, for the whole table (flaggable like any text).
 * @param {Ctx} ctx
 */
export function questionCard(ctx) {
  const { view } = ctx;
  const isFlagged = !!view.question_flagged;
  if (!view.question && !isFlagged) return null;
  const target = /** @type {FlagTarget} */ ({ text: 'question' });
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
