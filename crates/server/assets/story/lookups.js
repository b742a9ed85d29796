// Look-ups in the story game's view: the phase, the rules (Temporal Mechanics or not), objects,
// scenes, aspects and players by id, their texts as the table shows them (a placeholder for a
// flagged text), and what this page's player is (a voter, the moderator, who keeps time).

/**
 * @typedef {import('../common/page-types').Seen<import('./page-types').PageView>} View
 * @typedef {import('./view-types').Scene} Scene
 * @typedef {import('./page-types').PageObject} StoryObject
 * @typedef {import('./view-types').Aspect} Aspect
 */

/**
 * An object of the view by id.
 * @param {View} view
 * @param {number | null | undefined} id
 */
export function objectById(view, id) {
  return (view.objects || []).find((o) => o.id === id) || null;
}

/**
 * @param {View} view
 * @param {number | null | undefined} id
 */
export function sceneById(view, id) {
  return (view.scenes || []).find((s) => s.id === id) || null;
}

/**
 * @param {View} view
 * @param {number | null | undefined} id
 */
export function aspectById(view, id) {
  for (const o of view.objects || []) {
    for (const a of o.aspects || []) if (a.id === id) return { aspect: a, object: o };
  }
  return null;
}

/**
 * @param {View} view
 * @param {number | null | undefined} id
 */
export function playerById(view, id) {
  return (view.players || []).find((p) => p.id === id) || null;
}

/**
 * A player's typed name, or a placeholder when hidden.
 * @param {StoryObject | import('./view-types').StoryObject | null | undefined} o
 */
export function objectName(o) {
  if (!o) return 'an object that is gone';
  return o.name_flagged || o.name === null ? '(flagged name)' : o.name;
}

/**
 * @param {Aspect} a
 */
export function aspectText(a) {
  return a.flagged || a.text === null ? '(flagged aspect)' : a.text;
}

/**
 * @param {Scene | null | undefined} s
 */
export function objective(s) {
  if (!s) return 'a scene that is gone';
  return s.objective_flagged || s.objective === null ? '(flagged objective)' : s.objective;
}

/** The phase the table is in (its id). */
export const phaseId = (/** @type {View} */ view) => view.phase && view.phase.id;

/**
 * Whether this page's player votes on proposals (present, not the moderator).
 * @param {View} view
 */
export function isVoter(view) {
  return view.you !== null && (view.voters || []).includes(view.you);
}

/**
 * Whether this page's player is the moderator (edition 1.1).
 * @param {View} view
 */
export function isModerator(view) {
  return view.moderator !== null && view.moderator !== undefined && view.moderator === view.you;
}

/**
 * Whoever keeps time: the moderator when there is one, else everyone.
 * @param {View} view
 */
export function keepsTime(view) {
  return view.moderator === null || view.moderator === undefined || view.moderator === view.you;
}

/**
 * @param {View} view
 */
export function isTemporal(view) {
  return !!(view.ruleset && view.ruleset.temporal);
}
