// Look-ups in the story game's view: objects, scenes, aspects and players by id, and their
// texts as the table shows them (a placeholder for a flagged text).

/** An object of the view by id. */
export function objectById(view, id) {
  return (view.objects || []).find((o) => o.id === id) || null;
}

export function sceneById(view, id) {
  return (view.scenes || []).find((s) => s.id === id) || null;
}

export function aspectById(view, id) {
  for (const o of view.objects || []) {
    for (const a of o.aspects || []) if (a.id === id) return { aspect: a, object: o };
  }
  return null;
}

export function playerById(view, id) {
  return (view.players || []).find((p) => p.id === id) || null;
}

/** A player's typed name, or a placeholder when hidden. */
export function objectName(o) {
  if (!o) return 'an object that is gone';
  return o.name_flagged || o.name === null ? '(flagged name)' : o.name;
}

export function aspectText(a) {
  return a.flagged || a.text === null ? '(flagged aspect)' : a.text;
}

export function objective(s) {
  if (!s) return 'a scene that is gone';
  return s.objective_flagged || s.objective === null ? '(flagged objective)' : s.objective;
}
