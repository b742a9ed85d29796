//! Outline plans as TOML files, for `prophecy outline`: the scenes the players mean to play, the
//! matching pairs they expect in each, and the outcomes of the scenes already performed.
//!
//! ```toml
//! [[scene]]
//! id = "finale"
//! objective = "Destroy the Death Star"
//! pairs = 3
//!
//! [[scene]]
//! id = "weakness"
//! parent = "finale"            # the scene this one is a precursor of; absent for the Finale
//! objective = "Find a critical weakness"
//! pairs = 2                    # 0 to 1000
//! outcome = "success"          # optional: "success" or "failure", once performed
//! ```
//!
//! [`OutlinePlan::from_toml`] checks everything and names the first problem with its line.
//! Outcomes may be recorded in any order: a scene may have an outcome while a precursor has none
//! (players sometimes write down results out of order); the odds then take the recorded outcome
//! as given.

use dice::check::Outcome;
use std::collections::HashMap;
use std::fmt;
use toml::Spanned;
use toml::de::{DeTable, DeValue};

use crate::Ruleset;
use crate::outline_odds::{MAX_PAIRS, OutlineError, OutlineShape, PlannedScene};
use crate::views::{ViewScene, one_line};

/// The largest plan file read, in bytes. A plan of eight scenes is well under a kilobyte.
pub const MAX_PLAN_BYTES: usize = 1 << 20;

/// The most scenes a plan may have. The rules advise at most eight; this bound keeps the exact
/// fractions (which grow with every scene below the Finale) quick to compute.
pub const MAX_PLAN_SCENES: usize = 1000;

/// The most matching pairs a plan may have in all. The exact fractions grow with every pair
/// (a 10,000-pair plan has a Finale of some 10,000 digits, computed in about 20 ms); the
/// rules' outlines have a few dozen.
pub const MAX_PLAN_PAIRS: u32 = 10_000;

/// The most scenes the rules advise (warned past, never forbidden).
pub const ADVISED_SCENES: usize = 8;

/// The keys of a `[[scene]]` table.
const SCENE_KEYS: [&str; 5] = ["id", "parent", "objective", "pairs", "outcome"];

/// One checked scene of a plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanScene {
    /// The scene's id, unique in the plan.
    pub id: String,
    /// What the characters try to accomplish.
    pub objective: String,
    /// The index (in [`OutlinePlan::scenes`]) of the scene this one is a precursor of; `None`
    /// for the Finale.
    pub parent: Option<usize>,
    /// Matching pairs planned (0 to [`MAX_PAIRS`]).
    pub pairs: u32,
    /// The outcome, if the scene has been performed.
    pub outcome: Option<Outcome>,
    /// Edges between the scene and the Finale.
    pub depth: u32,
    /// The scene's difficulty rating under the plan's ruleset.
    pub difficulty: u32,
    /// The line of the scene's `[[scene]]` header, from 1.
    pub line: usize,
}

/// A checked outline plan: scenes in file order, exactly one Finale, a tree within the ruleset's
/// depth.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutlinePlan {
    scenes: Vec<PlanScene>,
    finale: usize,
    ruleset: Ruleset,
}

/// Why a plan file cannot be used: the line (from 1) when one is to blame, and the problem in
/// plain words, on one line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanError {
    /// The line of the offending table or key, when there is one.
    pub line: Option<usize>,
    /// What is wrong and, where it helps, what to write instead.
    pub message: String,
}

impl fmt::Display for PlanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "line {line}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for PlanError {}

/// A scene's keys as written, with where they were written.
struct RawScene {
    line: usize,
    id: String,
    /// The parent's id and the line it is on.
    parent: Option<(String, usize)>,
    objective: String,
    pairs: u32,
    pairs_line: usize,
    outcome: Option<Outcome>,
}

impl OutlinePlan {
    /// Reads and checks a plan under `ruleset` (which sets each scene's difficulty and how deep
    /// scenes may go).
    pub fn from_toml(text: &str, ruleset: Ruleset) -> Result<OutlinePlan, PlanError> {
        if text.len() > MAX_PLAN_BYTES {
            return Err(PlanError::too_large());
        }
        let lines = Lines::new(text);
        let document = DeTable::parse(text).map_err(|e| PlanError {
            line: e.span().map(|s| lines.at(s.start)),
            message: format!("not valid TOML: {}", one_line(e.message())),
        })?;
        let document = document.get_ref();

        let mut top: Vec<_> = document.iter().collect();
        top.sort_by_key(|(key, _)| key.span().start);
        let mut tables: &[Spanned<DeValue<'_>>] = &[];
        for (key, value) in top {
            let line = lines.at(key.span().start);
            if key.get_ref() != "scene" {
                let message = match key.get_ref().as_ref() {
                    "edition" | "ruleset" | "rules" => format!(
                        "'{}' is not part of a plan: choose the rules with --edition",
                        short(key.get_ref())
                    ),
                    other => format!(
                        "unknown key '{}': a plan has only [[scene]] tables",
                        short(other)
                    ),
                };
                return Err(PlanError::at(line, message));
            }
            match value.get_ref() {
                DeValue::Array(items) => tables = items,
                _ => {
                    return Err(PlanError::at(
                        line,
                        "'scene' must be a list of tables: write each scene as a [[scene]] table",
                    ));
                }
            }
        }
        if tables.is_empty() {
            return Err(PlanError {
                line: None,
                message:
                    "no scenes: write one [[scene]] table per scene, the Finale without a parent"
                        .into(),
            });
        }
        if tables.len() > MAX_PLAN_SCENES {
            return Err(PlanError {
                line: None,
                message: format!(
                    "{} scenes: a plan may have at most {MAX_PLAN_SCENES} (the rules advise at most {ADVISED_SCENES})",
                    tables.len()
                ),
            });
        }

        let raw: Vec<RawScene> = tables
            .iter()
            .map(|item| raw_scene(item, &lines))
            .collect::<Result<_, _>>()?;

        let mut total: u32 = 0;
        for scene in &raw {
            total += scene.pairs;
            if total > MAX_PLAN_PAIRS {
                return Err(PlanError::at(
                    scene.pairs_line,
                    format!(
                        "scene '{}' brings the plan to {total} pairs; a plan may have at most {MAX_PLAN_PAIRS} in all",
                        short(&scene.id)
                    ),
                ));
            }
        }

        let mut index: HashMap<&str, usize> = HashMap::with_capacity(raw.len());
        for (i, scene) in raw.iter().enumerate() {
            if let Some(&first) = index.get(scene.id.as_str()) {
                return Err(PlanError::at(
                    scene.line,
                    format!(
                        "the id '{}' is already used by the scene on line {}; ids must be unique",
                        short(&scene.id),
                        raw[first].line
                    ),
                ));
            }
            index.insert(&scene.id, i);
        }

        let mut planned = Vec::with_capacity(raw.len());
        for scene in &raw {
            let parent = match &scene.parent {
                None => None,
                Some((parent, line)) if *parent == scene.id => {
                    return Err(PlanError::at(
                        *line,
                        format!("scene '{}' names itself as its parent", short(&scene.id)),
                    ));
                }
                Some((parent, line)) => match index.get(parent.as_str()) {
                    Some(&p) => Some(p),
                    None => {
                        return Err(PlanError::at(
                            *line,
                            format!(
                                "scene '{}' names '{}' as its parent, but no scene has that id",
                                short(&scene.id),
                                short(parent)
                            ),
                        ));
                    }
                },
            };
            planned.push(PlannedScene {
                parent,
                pairs: scene.pairs,
                outcome: scene.outcome,
            });
        }

        let shape =
            OutlineShape::new(ruleset, &planned).map_err(|e| shape_error(e, &raw, ruleset))?;
        let scenes = raw
            .into_iter()
            .zip(&planned)
            .enumerate()
            .map(|(i, (scene, plan))| {
                let depth = shape.depth(i);
                PlanScene {
                    id: scene.id,
                    objective: scene.objective,
                    parent: plan.parent,
                    pairs: scene.pairs,
                    outcome: scene.outcome,
                    depth,
                    difficulty: ruleset.difficulty_at_depth(depth).unwrap_or(1),
                    line: scene.line,
                }
            })
            .collect();
        Ok(OutlinePlan {
            scenes,
            finale: shape.finale(),
            ruleset,
        })
    }

    /// The scenes, in file order.
    pub fn scenes(&self) -> &[PlanScene] {
        &self.scenes
    }

    /// The index of the Finale.
    pub fn finale(&self) -> usize {
        self.finale
    }

    /// The ruleset the plan was checked under.
    pub fn ruleset(&self) -> Ruleset {
        self.ruleset
    }

    /// The plan as [`crate::outline_odds`] takes it (same order, same indices).
    pub fn planned_scenes(&self) -> Vec<PlannedScene> {
        self.scenes
            .iter()
            .map(|s| PlannedScene {
                parent: s.parent,
                pairs: s.pairs,
                outcome: s.outcome,
            })
            .collect()
    }

    /// The plan as [`crate::views`] draws it: objectives, difficulties, and known outcomes as
    /// notes.
    pub fn view_scenes(&self) -> Vec<ViewScene> {
        self.scenes
            .iter()
            .map(|s| ViewScene {
                label: s.objective.clone(),
                difficulty: s.difficulty,
                parent: s.parent,
                note: s.outcome.map(|o| o.to_string()),
            })
            .collect()
    }

    /// The rules' advice the plan does not follow, if any (more than eight scenes).
    pub fn advice(&self) -> Option<String> {
        (self.scenes.len() > ADVISED_SCENES).then(|| {
            format!(
                "{} scenes: the rules advise at most {ADVISED_SCENES}, so that the story fits one session",
                self.scenes.len()
            )
        })
    }
}

impl PlanError {
    /// The error for a file over [`MAX_PLAN_BYTES`], for readers that stop reading there.
    pub fn too_large() -> PlanError {
        PlanError {
            line: None,
            message: format!(
                "the file is larger than {} MiB; a plan is a few [[scene]] tables",
                MAX_PLAN_BYTES >> 20
            ),
        }
    }

    fn at(line: usize, message: impl Into<String>) -> PlanError {
        PlanError {
            line: Some(line),
            message: message.into(),
        }
    }
}

/// Byte offsets to 1-based line numbers.
struct Lines {
    starts: Vec<usize>,
}

impl Lines {
    fn new(text: &str) -> Lines {
        let starts = std::iter::once(0)
            .chain(
                text.bytes()
                    .enumerate()
                    .filter(|&(_, b)| b == b'\n')
                    .map(|(i, _)| i + 1),
            )
            .collect();
        Lines { starts }
    }

    fn at(&self, offset: usize) -> usize {
        self.starts.partition_point(|&start| start <= offset).max(1)
    }
}

/// At most 60 characters of user text, on one line, for messages.
fn short(text: &str) -> String {
    let text = one_line(text);
    if text.chars().count() <= 60 {
        text
    } else {
        let mut cut: String = text.chars().take(59).collect();
        cut.push('…');
        cut
    }
}

/// A TOML type in the words of someone writing a plan.
fn kind(value: &DeValue<'_>) -> &'static str {
    match value {
        DeValue::String(_) => "text",
        DeValue::Integer(_) => "a whole number",
        DeValue::Float(_) => "a decimal number",
        DeValue::Boolean(_) => "true or false",
        DeValue::Datetime(_) => "a date",
        DeValue::Array(_) => "a list",
        DeValue::Table(_) => "a table",
    }
}

/// The known key a misspelt one probably meant (at most two edits away).
fn suggestion(key: &str) -> Option<&'static str> {
    fn distance(a: &str, b: &str) -> usize {
        let b: Vec<char> = b.chars().collect();
        let mut row: Vec<usize> = (0..=b.len()).collect();
        for (i, ca) in a.chars().enumerate() {
            let mut diagonal = row[0];
            row[0] = i + 1;
            for (j, &cb) in b.iter().enumerate() {
                let above = row[j + 1];
                row[j + 1] = (above + 1)
                    .min(row[j] + 1)
                    .min(diagonal + usize::from(ca != cb));
                diagonal = above;
            }
        }
        row[b.len()]
    }
    let key = key.to_lowercase();
    SCENE_KEYS
        .iter()
        .map(|&known| (distance(&key, known), known))
        .filter(|&(d, _)| d <= 2)
        .min()
        .map(|(_, known)| known)
}

/// One `[[scene]]` table, every key checked.
fn raw_scene(item: &Spanned<DeValue<'_>>, lines: &Lines) -> Result<RawScene, PlanError> {
    let line = lines.at(item.span().start);
    let DeValue::Table(table) = item.get_ref() else {
        return Err(PlanError::at(
            line,
            "'scene' must be a list of tables: write each scene as a [[scene]] table",
        ));
    };
    let mut keys: Vec<_> = table.iter().collect();
    keys.sort_by_key(|(key, _)| key.span().start);
    for (key, _) in &keys {
        let name = key.get_ref().as_ref();
        if !SCENE_KEYS.contains(&name) {
            let hint = match suggestion(name) {
                Some(known) => format!(" (did you mean '{known}'?)"),
                None => String::new(),
            };
            return Err(PlanError::at(
                lines.at(key.span().start),
                format!(
                    "unknown key '{}' in a scene{hint}; the keys are id, parent, objective, pairs and outcome",
                    short(name)
                ),
            ));
        }
    }
    let get = |name: &str| {
        table
            .get(name)
            .map(|v| (v.get_ref(), lines.at(v.span().start)))
    };

    let id = match get("id") {
        None => return Err(PlanError::at(line, "a scene has no id (id = \"…\")")),
        Some((DeValue::String(s), at)) if s.trim().is_empty() => {
            return Err(PlanError::at(at, "a scene's id is empty"));
        }
        Some((DeValue::String(s), _)) => s.to_string(),
        Some((other, at)) => {
            return Err(PlanError::at(
                at,
                format!("a scene's id must be text in quotes, not {}", kind(other)),
            ));
        }
    };
    let name = short(&id);

    let objective = match get("objective") {
        None => {
            return Err(PlanError::at(
                line,
                format!("scene '{name}' has no objective (objective = \"…\")"),
            ));
        }
        Some((DeValue::String(s), at)) if s.trim().is_empty() => {
            return Err(PlanError::at(
                at,
                format!("the objective of scene '{name}' is empty"),
            ));
        }
        Some((DeValue::String(s), _)) => s.to_string(),
        Some((other, at)) => {
            return Err(PlanError::at(
                at,
                format!(
                    "the objective of scene '{name}' must be text in quotes, not {}",
                    kind(other)
                ),
            ));
        }
    };

    let (pairs, pairs_line) = scene_pairs(get("pairs"), line, &name)?;

    let parent = match get("parent") {
        None => None,
        Some((DeValue::String(s), at)) => Some((s.to_string(), at)),
        Some((other, at)) => {
            return Err(PlanError::at(
                at,
                format!(
                    "the parent of scene '{name}' must be the id of another scene in quotes, not {}",
                    kind(other)
                ),
            ));
        }
    };

    let outcome = match get("outcome") {
        None => None,
        Some((DeValue::String(s), _)) if s.as_ref() == "success" => Some(Outcome::Success),
        Some((DeValue::String(s), _)) if s.as_ref() == "failure" => Some(Outcome::Failure),
        Some((value, at)) => {
            let written = match value {
                DeValue::String(s) => format!("'{}'", short(s)),
                other => kind(other).to_owned(),
            };
            return Err(PlanError::at(
                at,
                format!(
                    "the outcome of scene '{name}' must be \"success\" or \"failure\", not {written}"
                ),
            ));
        }
    };

    Ok(RawScene {
        line,
        id,
        parent,
        objective,
        pairs,
        pairs_line,
        outcome,
    })
}

/// A scene's `pairs`: the matching pairs planned, a whole number from 0 to [`MAX_PAIRS`],
/// with the line it is on.
fn scene_pairs(
    value: Option<(&DeValue<'_>, usize)>,
    line: usize,
    name: &str,
) -> Result<(u32, usize), PlanError> {
    match value {
        None => Err(PlanError::at(
            line,
            format!("scene '{name}' has no pairs (the matching pairs planned, 0 to {MAX_PAIRS})"),
        )),
        Some((DeValue::Integer(n), at)) => {
            let value = i64::from_str_radix(n.as_str(), n.radix()).ok();
            match value {
                Some(v) if (0..=i64::from(MAX_PAIRS)).contains(&v) => Ok((v as u32, at)),
                Some(v) if v < 0 => Err(PlanError::at(
                    at,
                    format!("the pairs of scene '{name}' cannot be negative (0 to {MAX_PAIRS})"),
                )),
                _ if n.as_str().starts_with('-') => Err(PlanError::at(
                    at,
                    format!("the pairs of scene '{name}' cannot be negative (0 to {MAX_PAIRS})"),
                )),
                _ => Err(PlanError::at(
                    at,
                    format!("the pairs of scene '{name}' must be from 0 to {MAX_PAIRS}"),
                )),
            }
        }
        Some((other, at)) => Err(PlanError::at(
            at,
            format!(
                "the pairs of scene '{name}' must be a whole number from 0 to {MAX_PAIRS}, not {}",
                kind(other)
            ),
        )),
    }
}

/// An outline error, with the plan's ids and lines.
fn shape_error(error: OutlineError, raw: &[RawScene], ruleset: Ruleset) -> PlanError {
    let id = |i: usize| short(&raw[i].id);
    let parent_line = |i: usize| raw[i].parent.as_ref().map_or(raw[i].line, |(_, at)| *at);
    match error {
        OutlineError::NoFinale => PlanError {
            line: None,
            message: "no Finale: every scene has a parent; the Finale, the scene the story ends with, has none"
                .into(),
        },
        OutlineError::SeveralFinales { first, second } => PlanError::at(
            raw[second].line,
            format!(
                "scene '{}' has no parent, but scene '{}' (line {}) is already the Finale; every other scene needs a parent",
                id(second),
                id(first),
                raw[first].line
            ),
        ),
        OutlineError::Cycle { scenes } => {
            let names: Vec<String> = scenes.iter().map(|&i| format!("'{}'", id(i))).collect();
            PlanError::at(
                parent_line(scenes[0]),
                format!(
                    "the parents of scenes {} form a cycle: following them never reaches the Finale",
                    names.join(", ")
                ),
            )
        }
        OutlineError::TooDeep { scene, depth, max } => PlanError::at(
            parent_line(scene),
            format!(
                "scene '{}' would have difficulty {}: a scene must be at most {max} levels below the Finale under {ruleset}",
                id(scene),
                i64::from(ruleset.finale_difficulty()) - i64::from(depth)
            ),
        ),
        // Parents and pairs were checked above with lines of their own; keep a plain message
        // rather than panic should the two checks ever drift apart.
        other @ (OutlineError::UnknownParent { .. } | OutlineError::TooManyPairs { .. }) => {
            PlanError {
                line: None,
                message: other.to_string(),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(text: &str) -> String {
        OutlinePlan::from_toml(text, Ruleset::Edition10)
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn reads_scenes_in_file_order_with_difficulties() {
        let text = "[[scene]]\r\nid = \"b\"\r\nparent = \"f\"\r\nobjective = \"Step\"\r\npairs = 0x2\r\noutcome = \"failure\"\r\n\r\n[[scene]]\r\nid = \"f\"\r\nobjective = \"Win\"\r\npairs = 1_0\r\n";
        let plan = OutlinePlan::from_toml(text, Ruleset::Edition11).unwrap();
        assert_eq!(plan.finale(), 1);
        assert_eq!(plan.ruleset(), Ruleset::Edition11);
        let b = &plan.scenes()[0];
        assert_eq!(
            (b.parent, b.pairs, b.outcome, b.depth, b.difficulty, b.line),
            (Some(1), 2, Some(Outcome::Failure), 1, 4, 1)
        );
        let f = &plan.scenes()[1];
        assert_eq!((f.pairs, f.difficulty, f.line), (10, 5, 8));
        assert_eq!(
            plan.planned_scenes()[0],
            PlannedScene {
                parent: Some(1),
                pairs: 2,
                outcome: Some(Outcome::Failure)
            }
        );
        let views = plan.view_scenes();
        assert_eq!(views[0].note.as_deref(), Some("failure"));
        assert_eq!(views[1].label, "Win");
        assert_eq!(plan.advice(), None);
    }

    #[test]
    fn inline_tables_are_scenes_too() {
        let text = "scene = [\n  { id = \"f\", objective = \"Win\", pairs = 1 },\n  { id = \"a\", objective = \"Go\", pairs = -1 },\n]\n";
        assert_eq!(
            error(text),
            "line 3: the pairs of scene 'a' cannot be negative (0 to 1000)"
        );
    }

    #[test]
    fn lines_count_from_one() {
        let lines = Lines::new("a\nb\n\nc");
        let at: Vec<usize> = [0, 1, 2, 4, 5, 99].map(|o| lines.at(o)).to_vec();
        assert_eq!(at, [1, 1, 2, 3, 4, 4]);
    }

    #[test]
    fn user_text_in_messages_stays_short_and_on_one_line() {
        let long = "x".repeat(100);
        let text = format!(
            "[[scene]]\nid = \"f\"\nobjective = \"Win\"\npairs = 1\n\n[[scene]]\nid = \"a\\nb\"\nparent = \"{long}\"\nobjective = \"Go\"\npairs = 1\n"
        );
        let message = error(&text);
        assert_eq!(message.lines().count(), 1);
        assert_eq!(
            message,
            format!(
                "line 8: scene 'a b' names '{}…' as its parent, but no scene has that id",
                "x".repeat(59)
            )
        );
    }

    #[test]
    fn blank_ids_and_objectives() {
        assert_eq!(
            error("[[scene]]\nid = \" \"\nobjective = \"Win\"\npairs = 1\n"),
            "line 2: a scene's id is empty"
        );
        assert_eq!(
            error("[[scene]]\nid = \"f\"\nobjective = \"\"\npairs = 1\n"),
            "line 3: the objective of scene 'f' is empty"
        );
        assert_eq!(
            error("[[scene]]\nid = 7\nobjective = \"Win\"\npairs = 1\n"),
            "line 2: a scene's id must be text in quotes, not a whole number"
        );
        assert_eq!(
            error("[[scene]]\nid = \"f\"\nobjective = \"Win\"\npairs = 1.5\n"),
            "line 4: the pairs of scene 'f' must be a whole number from 0 to 1000, not a decimal number"
        );
        assert_eq!(
            error("[[scene]]\nid = \"f\"\nparent = false\nobjective = \"Win\"\npairs = 1\n"),
            "line 3: the parent of scene 'f' must be the id of another scene in quotes, not true or false"
        );
    }

    #[test]
    fn too_large_before_parsing() {
        let text = format!("# {}", "-".repeat(MAX_PLAN_BYTES));
        assert_eq!(
            error(&text),
            "the file is larger than 1 MiB; a plan is a few [[scene]] tables"
        );
    }
}
