//! What every page of a story table is shown: [`StoryView`], a typed view (see
//! [`crate::patch`]). It is built at every change of the table and compared with the one
//! before; built as a [`Value`] tree, it was half of the server's time under load (a key and a
//! map node allocated for every field, and the tree copied again into its parent). The scenes
//! and objects a change cannot have touched, and the outline's odds when it touched no scene,
//! are taken over from the view before ([`view_after`]).

use crate::patch::{self, Kept, View};
use dice::check::{Cause, Outcome, PoolEntry};
use serde::Serialize;
use std::cell::LazyCell;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::{LazyLock, Mutex};
use story::ids::{AspectId, ObjectId, PairId, SceneId, Timestamp};
use story::model::{
    AspectCategory, CATEGORY_NAMES, Motion, ObjectKind, Phase, ProphecySource, TextRef, Timed,
};
use story::outline_odds::{PlannedScene, outline_odds_and_finale_if_f64};
use story::{Event, Ruleset, State};

/// The view of a story table. Its JSON is what the page reads (PROTOCOL.md); the members are
/// in the page's order of reading, not sorted.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StoryView {
    game: &'static str,
    title: String,
    creator: u32,
    ruleset: RulesetView,
    phase: PhaseView,
    paused: bool,
    x_card: bool,
    proposal: Option<ProposalView>,
    voters: Vec<u32>,
    physical_dice: bool,
    timer: Option<TimerView>,
    question: Option<String>,
    question_flagged: bool,
    checked_any: bool,
    players: Vec<PlayerView>,
    moderator: Option<u32>,
    lines: Vec<LineView>,
    prophecy: Option<ProphecyView>,
    /// Kept from the view before for the objects a change left as they were.
    objects: Vec<Kept<ObjectView>>,
    categories: [CategoryView; 5],
    finale: Option<u32>,
    in_progress: Option<u32>,
    /// Kept from the view before for the scenes a change left as they were ([`view_after`]).
    scenes: Vec<Kept<SceneView>>,
    flashback: Option<String>,
    flashback_flagged: bool,
    long_term_effects: Option<String>,
    long_term_effects_flagged: bool,
    warnings: Vec<String>,
    /// Each unperformed scene's chance, by scene id (kept while no scene changes).
    outline_odds: Kept<BTreeMap<u32, f64>>,
    /// The Finale's chance if a scene succeeds and if it fails, by scene id (likewise).
    finale_if: Kept<BTreeMap<u32, [f64; 2]>>,
}

/// The view as watchers see it: without the table's lines, which name what the group keeps out
/// of its story.
pub fn watched(view: &StoryView) -> StoryView {
    StoryView {
        lines: Vec::new(),
        ..view.clone()
    }
}

impl View for StoryView {
    fn diff(&self, new: &StoryView, path: &mut String, ops: &mut Vec<patch::Op>) {
        patch::diff_members!(self, new, path, ops;
            game, title, creator, ruleset, phase, paused, x_card, voters,
            physical_dice, question, question_flagged, checked_any, moderator, prophecy,
            categories, finale, in_progress, flashback, flashback_flagged, long_term_effects,
            long_term_effects_flagged, warnings;
            list: players, lines, objects, scenes;
            view: proposal, timer, outline_odds, finale_if);
    }
}

/// The proposal and the timer member by member: an agreement changes only who agreed and who
/// is awaited, a tick of the timer only its time (turning both into JSON whole at every change
/// showed in the benchmark of a scene, `benches/publish.rs`).
impl View for ProposalView {
    fn diff(&self, new: &ProposalView, path: &mut String, ops: &mut Vec<patch::Op>) {
        patch::diff_members!(self, new, path, ops;
            id, motion, scene, pair, to, player, physical, label, by, agreed, waiting);
    }
}

impl View for TimerView {
    fn diff(&self, new: &TimerView, path: &mut String, ops: &mut Vec<patch::Op>) {
        patch::diff_members!(self, new, path, ops;
            timed, scene, minutes, counting, deadline, remaining_ms, held);
    }
}

/// Parts of the view patched through their JSON when they change ([`patch::by_value`]).
macro_rules! views_by_value {
    ($($part:ty),*) => {$(
        impl View for $part {
            fn diff(&self, new: &$part, path: &mut String, ops: &mut Vec<patch::Op>) {
                patch::by_value(self, new, path, ops);
            }
        }
    )*};
}
views_by_value!(PlayerView, LineView, ObjectView);

/// A scene member by member: the scene being played changes at almost every action, mostly
/// in one or two members.
impl View for SceneView {
    fn diff(&self, new: &SceneView, path: &mut String, ops: &mut Vec<patch::Op>) {
        patch::diff_members!(self, new, path, ops;
            id, parent, objective, objective_flagged, difficulty, level, depth, precursors,
            time, place, setting_flagged, objects, status, started_at, rolling, pairs, pool,
            odds, check, narration, narration_flagged);
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
struct RulesetView {
    id: &'static str,
    name: &'static str,
    finale_difficulty: u32,
    scene_minutes: u32,
    temporal: bool,
    moderator_allowed: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
struct PhaseView {
    id: &'static str,
    name: &'static str,
    act: Option<&'static str>,
    next: Option<NextPhase>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
struct NextPhase {
    id: &'static str,
    name: &'static str,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
struct ProposalView {
    id: u32,
    motion: &'static str,
    scene: Option<u32>,
    pair: Option<u32>,
    to: Option<&'static str>,
    /// `choose_moderator`: who (`null`: no moderator).
    player: Option<u32>,
    /// `choose_dice`: real dice or the server's.
    physical: Option<bool>,
    label: String,
    by: u32,
    agreed: Vec<u32>,
    waiting: Vec<u32>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
struct TimerView {
    timed: &'static str,
    scene: Option<u32>,
    minutes: u32,
    counting: bool,
    deadline: Option<i64>,
    /// While stopped the time left is fixed; a page shows it as it is.
    remaining_ms: Option<i64>,
    held: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
struct PlayerView {
    id: u32,
    name: String,
    character: Option<u32>,
    moderator: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
struct LineView {
    id: u32,
    text: String,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
struct ProphecyView {
    text: Option<String>,
    flagged: bool,
    editable: bool,
    source: SourceView,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum SourceView {
    Catastrophe {
        world: String,
        roll: u8,
        tens: u8,
        units: u8,
    },
    Module {
        title: String,
    },
    Written,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
struct ObjectView {
    id: u32,
    name: Option<String>,
    name_flagged: bool,
    kind: &'static str,
    player: Option<u32>,
    missing: Vec<&'static str>,
    aspects: Vec<AspectView>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
struct AspectView {
    id: u32,
    text: Option<String>,
    flagged: bool,
    category: Option<&'static str>,
    category_name: Option<&'static str>,
    with: Option<u32>,
    in_pair: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
struct CategoryView {
    id: &'static str,
    name: &'static str,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
struct SceneView {
    id: u32,
    parent: Option<u32>,
    objective: Option<String>,
    objective_flagged: bool,
    difficulty: u32,
    level: &'static str,
    depth: u32,
    precursors: Vec<u32>,
    time: Option<String>,
    place: Option<String>,
    setting_flagged: bool,
    objects: Vec<u32>,
    status: &'static str,
    started_at: Option<i64>,
    rolling: bool,
    pairs: Vec<PairView>,
    /// Serialized as `{"kind": "matching_pair", "pair": 3}` and the like.
    pool: Vec<PoolEntry>,
    odds: Option<OddsView>,
    check: Option<CheckView>,
    narration: Option<String>,
    narration_flagged: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
struct PairView {
    id: u32,
    character_aspect: u32,
    environment_aspect: u32,
    justification: Option<String>,
    justification_flagged: bool,
    proposed_by: u32,
    accepted_by: Vec<u32>,
    objections: Vec<u32>,
    counts: bool,
}

/// A scene's exact chance with its pool now; for the scene being played also with one more
/// matching pair, and the chance of every pool size from none up, for the page's chart.
#[derive(Debug, Clone, PartialEq, Serialize)]
struct OddsView {
    dice: u32,
    p_success: f64,
    exact: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    p_next: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    exact_next: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    curve: Option<Vec<f64>>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
struct CheckView {
    physical: bool,
    difficulty: u32,
    outcome: &'static str,
    hits: u32,
    dice: Vec<DieView>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
struct DieView {
    face: u8,
    hit: bool,
    cause: CauseView,
}

/// Why a die was rolled: the pool entry it stands for, or the 6 it exploded from.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
enum CauseView {
    Pool(PoolEntry),
    ExplodedFrom { kind: &'static str, index: usize },
}

impl From<Cause> for CauseView {
    fn from(cause: Cause) -> CauseView {
        match cause {
            Cause::Pool(entry) => CauseView::Pool(entry),
            Cause::ExplodedFrom(index) => CauseView::ExplodedFrom {
                kind: "exploded_from",
                index,
            },
        }
    }
}

/// A text, or `None` when it is flagged (flagged text never leaves the server).
fn shown(state: &State, target: TextRef, text: &str) -> Option<String> {
    (!state.is_flagged(target)).then(|| text.to_owned())
}

pub(super) fn category_id(category: AspectCategory) -> &'static str {
    match category {
        AspectCategory::Occupation => "occupation",
        AspectCategory::PhysicalOrMental => "physical_or_mental",
        AspectCategory::Psychological => "psychological",
        AspectCategory::Relationship { .. } => "relationship",
        AspectCategory::Affiliation => "affiliation",
    }
}

fn phase_id(phase: Phase) -> &'static str {
    match phase {
        Phase::Prophecy => "prophecy",
        Phase::Characters => "characters",
        Phase::Outline => "outline",
        Phase::Story => "story",
        Phase::Ended => "ended",
    }
}

fn ruleset_id(ruleset: Ruleset) -> &'static str {
    match ruleset {
        Ruleset::Edition10 => "1.0",
        Ruleset::Edition11 => "1.1",
        Ruleset::Temporal => "temporal",
    }
}

/// Pools up to this many dice are charted beside a scene's chance (at least three past its own).
const CURVE_DICE: u32 = 10;
/// The longest chart: a huge pool is charted around itself no further.
const CURVE_MAX: u32 = 40;

/// A scene's odds; the chart and the chance with one more pair only for the scene being
/// played (`playing`): views are built at every change, and every byte goes to every page.
fn scene_odds(dice: u32, difficulty: u32, playing: bool) -> OddsView {
    kept(
        &SCENE_ODDS,
        SCENE_ODDS_KEPT,
        (dice, difficulty, playing),
        || work_out_scene_odds(dice, difficulty, playing),
    )
}

/// What `work` gives for `key`, worked out once and kept in `known` (emptied when it holds
/// `most`).
fn kept<K: Eq + std::hash::Hash, V: Clone>(
    known: &Mutex<HashMap<K, V>>,
    most: usize,
    key: K,
    work: impl FnOnce() -> V,
) -> V {
    if let Some(value) = known.lock().ok().and_then(|m| m.get(&key).cloned()) {
        return value;
    }
    let value = work();
    if let Ok(mut known) = known.lock() {
        if known.len() >= most {
            known.clear();
        }
        known.insert(key, value.clone());
    }
    value
}

/// [`scene_odds`] already worked out, by pool, difficulty and whether the scene is being
/// played: every view has them for every open scene, and the exact fractions showed in
/// profiles under load. Emptied when full.
static SCENE_ODDS: LazyLock<Mutex<HashMap<OddsKey, OddsView>>> = LazyLock::new(Default::default);
/// A scene's pool, its difficulty, and whether it is being played.
type OddsKey = (u32, u32, bool);
/// Odds [`SCENE_ODDS`] keeps at most.
const SCENE_ODDS_KEPT: usize = 4096;

fn work_out_scene_odds(dice: u32, difficulty: u32, playing: bool) -> OddsView {
    let p = dice::check_odds::success_probability(dice, difficulty);
    let mut odds = OddsView {
        dice,
        p_success: p.to_f64(),
        exact: p.to_string(),
        p_next: None,
        exact_next: None,
        curve: None,
    };
    if playing {
        let next = dice::check_odds::success_probability(dice + 1, difficulty);
        let top = CURVE_DICE.max(dice + 3).min(CURVE_MAX.max(dice + 1));
        odds.p_next = Some(next.to_f64());
        odds.exact_next = Some(next.to_string());
        odds.curve = Some(
            (0..=top)
                .map(|n| dice::check_odds::success_probability_f64(n, difficulty))
                .collect(),
        );
    }
    odds
}

/// Outlines with more scenes to choose from than this get no "what if" (each one is a pair of
/// entries in every view, and works out the scenes above it twice more).
const WHAT_IF_SCENES: usize = 60;

type WhatIf = BTreeMap<u32, [f64; 2]>;

/// The outline as the odds solver plans it: the scenes' ids, and each scene with its parent
/// (by index), the pairs proposed so far and its outcome once performed.
fn planned(state: &State) -> (Vec<SceneId>, Vec<PlannedScene>) {
    let ids: Vec<SceneId> = state.scenes.keys().copied().collect();
    // The ids are in order (a map's keys): a parent's index is found by halving.
    let planned = state
        .scenes
        .values()
        .map(|scene| PlannedScene {
            parent: scene.parent.and_then(|p| ids.binary_search(&p).ok()),
            pairs: scene.pairs.len() as u32,
            outcome: scene.outcome(),
        })
        .collect();
    (ids, planned)
}

/// The outline's odds, planned and solved once for both: each unperformed scene's chance with
/// the pairs proposed so far (as a plan), and the Finale's what-if: for each scene but the
/// Finale that can be played now (or is being played), the Finale's chance (as a plan) if that
/// scene succeeds, and if it fails: `{"7": [0.61, 0.38]}`. No what-if past [`WHAT_IF_SCENES`]
/// such scenes or without a Finale. `available`: the scenes that may be performed now.
fn odds(state: &State, available: &[SceneId]) -> (BTreeMap<u32, f64>, WhatIf) {
    let (ids, planned) = planned(state);
    let open: Vec<usize> = match state.finale {
        Some(finale) => (0..ids.len())
            .filter(|&i| {
                let id = ids[i];
                id != finale
                    && planned[i].outcome.is_none()
                    // `available` is in id order, as the state keeps its scenes.
                    && (available.binary_search(&id).is_ok() || state.in_progress == Some(id))
            })
            .collect(),
        None => Vec::new(),
    };
    let asked = if open.len() > WHAT_IF_SCENES {
        &[][..]
    } else {
        &open[..]
    };
    // Only the scenes above each choice are worked out again for the what-if: cheap enough to
    // need no cache, and worked out only after the events that change odds (`Touched::odds`).
    let Ok((odds, answers)) = outline_odds_and_finale_if_f64(state.ruleset, &planned, asked) else {
        return (BTreeMap::new(), WhatIf::new());
    };
    let outline_odds = (ids.iter().zip(odds).zip(&planned))
        .filter(|(_, scene)| scene.outcome.is_none())
        .map(|((id, p), _)| (id.0, p))
        .collect();
    let what_if = asked
        .iter()
        .zip(answers)
        .map(|(&i, answer)| (ids[i].0, answer))
        .collect();
    (outline_odds, what_if)
}

/// The view of `state` (a table `creator` made).
/// The view of scene `id` (`scene`); `available`: the scenes that may be performed now.
fn scene_view(
    s: &State,
    id: &SceneId,
    scene: &story::model::Scene,
    available: &[SceneId],
) -> SceneView {
    let status = if scene.performed {
        "performed"
    } else if s.in_progress == Some(*id) {
        "in_progress"
    } else if available.contains(id) {
        "available"
    } else {
        "sketched"
    };
    let pool = s.pool(*id);
    let odds = (matches!(status, "in_progress" | "available") && scene.check.is_none())
        .then(|| scene_odds(pool.len() as u32, scene.difficulty, status == "in_progress"));
    let pairs = scene
        .pairs
        .iter()
        .map(|pid| {
            let p = &s.pairs[pid];
            PairView {
                id: pid.0,
                character_aspect: p.character_aspect.0,
                environment_aspect: p.environment_aspect.0,
                justification: shown(s, TextRef::Justification(*pid), &p.justification),
                justification_flagged: s.is_flagged(TextRef::Justification(*pid)),
                proposed_by: p.proposed_by.0,
                accepted_by: p.accepted_by.iter().map(|x| x.0).collect(),
                objections: p.objections.iter().map(|x| x.0).collect(),
                counts: s.counts(p),
            }
        })
        .collect();
    let check = scene.check.as_ref().map(|c| CheckView {
        physical: c.physical,
        difficulty: c.difficulty,
        outcome: match c.outcome {
            Outcome::Success => "success",
            Outcome::Failure => "failure",
        },
        hits: c.roll.hits(),
        dice: c
            .roll
            .dice
            .iter()
            .map(|d| DieView {
                face: d.face,
                hit: d.is_hit(),
                cause: d.cause.into(),
            })
            .collect(),
    });
    let setting_flagged = s.is_flagged(TextRef::Setting(*id));
    let setting = |text: &String| (!setting_flagged).then(|| text.clone());
    SceneView {
        id: id.0,
        parent: scene.parent.map(|p| p.0),
        objective: shown(s, TextRef::Objective(*id), &scene.objective),
        objective_flagged: s.is_flagged(TextRef::Objective(*id)),
        difficulty: scene.difficulty,
        level: s.level(*id),
        depth: s.depth(*id),
        precursors: scene.precursors.iter().map(|p| p.0).collect(),
        time: setting(&scene.setting.time),
        place: setting(&scene.setting.place),
        setting_flagged,
        objects: scene.setting.objects.iter().map(|o| o.0).collect(),
        status,
        started_at: scene.started_at.map(|t| t.0),
        rolling: scene.rolling,
        pairs,
        pool,
        odds,
        check,
        narration: (scene.narration.as_deref()).and_then(|n| shown(s, TextRef::Narration(*id), n)),
        narration_flagged: s.is_flagged(TextRef::Narration(*id)),
    }
}

pub(super) fn view(state: &State, creator: u32) -> StoryView {
    built(state, creator, None)
}

/// The view after `events`, `previous` being the one before them: the scenes the events left
/// as they were are taken over from `previous` (a scene's view was most of the cost of
/// building and comparing views under load), and the outline's odds when they left every
/// scene as it was. What [`view`] gives, cheaper.
pub(super) fn view_after(
    state: &State,
    creator: u32,
    previous: &StoryView,
    events: &[Event],
) -> StoryView {
    let Some(touched) = touched(previous, events) else {
        return view(state, creator);
    };
    let view = built(state, creator, Some((previous, &touched)));
    // Every test and browser test builds debug binaries: there, the view taken over is checked
    // against the one built afresh at every change.
    debug_assert!(
        view == self::view(state, creator),
        "a part of the view was taken over wrongly after {events:?}"
    );
    view
}

/// A walk through the parts of the view before, in id order like the state's maps: each part
/// is looked at once, not searched for again for every id (the parts live behind pointers, and
/// a search per scene showed in profiles under load).
#[derive(Default)]
struct InOrder {
    at: usize,
}

impl InOrder {
    /// The part of `before` with id `id`, if any; ids must be asked for in increasing order.
    fn next<'a, T>(
        &mut self,
        before: &'a [Kept<T>],
        id: u32,
        id_of: impl Fn(&T) -> u32,
    ) -> Option<&'a Kept<T>> {
        while let Some(part) = before.get(self.at) {
            let at = id_of(part);
            if at > id {
                return None;
            }
            self.at += 1;
            if at == id {
                return Some(part);
            }
        }
        None
    }
}

/// The scenes and objects whose views some events may change.
#[derive(Debug, Default)]
struct Touched {
    scenes: Vec<SceneId>,
    objects: Vec<ObjectId>,
    /// Whether the outline's odds may change: they depend only on each scene's parent, number
    /// of pairs and outcome, and on which scenes can be played now.
    odds: bool,
}

/// The scenes and objects whose views `events` may change, and whether the outline's odds may,
/// when that is only some: `None` when it may be any of them (most events, and every one that
/// adds or removes a scene or an object, or changes a phase, a flag or a player).
fn touched(previous: &StoryView, events: &[Event]) -> Option<Touched> {
    // The scene whose pairs hold `pair`, and the object that holds `aspect`, in the view before.
    let holding_pair = |pair: PairId| {
        (previous.scenes.iter())
            .find(|v| v.pairs.iter().any(|p| p.id == pair.0))
            .map(|v| SceneId(v.id))
    };
    let holding_aspect = |aspect: AspectId| {
        (previous.objects.iter())
            .find(|v| v.aspects.iter().any(|a| a.id == aspect.0))
            .map(|v| ObjectId(v.id))
    };
    let mut touched = Touched::default();
    for event in events {
        match event {
            // The scene itself only: its setting, narration (and its flag) or dice.
            Event::ObjectPlaced { scene, .. }
            | Event::ObjectWithdrawn { scene, .. }
            | Event::Narrated { scene, .. }
            | Event::DiceCalledFor { scene } => touched.scenes.push(*scene),
            // A new pair: its scene's pairs and pool (a pair id used before elsewhere would
            // change that scene too), and whether its two aspects are in a pair.
            Event::PairProposed {
                pair,
                scene,
                character_aspect,
                environment_aspect,
                ..
            } => {
                if holding_pair(*pair).is_some_and(|s| s != *scene) {
                    return None;
                }
                touched.scenes.push(*scene);
                touched.odds = true;
                touched.objects.push(holding_aspect(*character_aspect)?);
                touched.objects.push(holding_aspect(*environment_aspect)?);
            }
            // A pair's agreements and objections: its scene's pairs and pool.
            Event::PairAccepted { pair, .. } | Event::PairObjected { pair, .. } => {
                touched.scenes.push(holding_pair(*pair)?);
            }
            // An aspect: its object only (a scene shows aspects by id only). One that was
            // another object's would change that object too.
            Event::AspectAttached { aspect, object, .. } => {
                if holding_aspect(*aspect).is_some_and(|o| o != *object) {
                    return None;
                }
                touched.objects.push(*object);
            }
            Event::AspectEdited { aspect, .. } => touched.objects.push(holding_aspect(*aspect)?),
            // A scene started, checked or finished: the scene, and the scenes it is a precursor
            // of (whether they are available, and their reward dice). Nothing else a scene
            // shows depends on it: the scene in progress and the timer are the view's own.
            Event::SceneStarted { scene, .. }
            | Event::CheckMade { scene, .. }
            | Event::SceneFinished { scene } => {
                touched.scenes.push(*scene);
                touched.odds = true;
                touched.scenes.extend(
                    (previous.scenes.iter())
                        .filter(|v| v.precursors.contains(&scene.0))
                        .map(|v| SceneId(v.id)),
                );
            }
            // Nothing a scene or an object shows.
            Event::ProposalMade { .. }
            | Event::ProposalAgreed { .. }
            | Event::ProposalStopped { .. }
            | Event::ProposalCarried { .. }
            | Event::StoryPublished
            | Event::StoryWithdrawn
            | Event::WatchOpened
            | Event::WatchClosed
            | Event::TimerStarted { .. }
            | Event::TimerStopped { .. }
            | Event::TimerCounting { .. }
            | Event::TimerHeld
            | Event::TimerReleased
            | Event::TimerExtended { .. }
            | Event::TimerReset { .. } => {}
            _ => return None,
        }
    }
    Some(touched)
}

/// The view; with `Some((previous, touched))`, the scenes and objects of `previous` but those
/// `touched` are taken over as they are, and the outline's odds too unless `touched.odds`.
/// The open proposal as the page shows it: what it asks, who agreed, who it waits for.
fn proposal_view(
    s: &State,
    p: &story::model::Proposal,
    voters: &std::collections::BTreeSet<story::ids::PlayerId>,
) -> ProposalView {
    let (motion, scene, pair, to) = match p.motion {
        Motion::Advance { to } => ("advance", None, None, Some(phase_id(to))),
        Motion::ReturnToOutline => ("return_to_outline", None, None, None),
        Motion::MakeCheck { scene, .. } => ("make_check", Some(scene.0), None, None),
        Motion::WithdrawPair { pair } => ("withdraw_pair", None, Some(pair.0), None),
        Motion::Resume => ("resume", None, None, None),
        Motion::EndGame => ("end_game", None, None, None),
        Motion::ChooseModerator { .. } => ("choose_moderator", None, None, None),
        Motion::ChooseDice { .. } => ("choose_dice", None, None, None),
        Motion::Publish => ("publish", None, None, None),
        Motion::Watch => ("watch", None, None, None),
    };
    let (player, physical) = match p.motion {
        Motion::ChooseModerator { player } => (player.map(|p| p.0), None),
        Motion::ChooseDice { physical } => (None, Some(physical)),
        _ => (None, None),
    };
    let label = super::log::motion_words(s, p.motion);
    ProposalView {
        id: p.id.0,
        motion,
        scene,
        pair,
        to,
        player,
        physical,
        label,
        by: p.by.0,
        agreed: p.agreed.iter().map(|x| x.0).collect(),
        waiting: (voters.iter())
            .filter(|v| !p.agreed.contains(v))
            .map(|x| x.0)
            .collect(),
    }
}

/// An object (a character, a place…) with its aspects, as every page sees it.
fn object_view(
    s: &State,
    id: ObjectId,
    o: &story::model::Object,
    in_pair: &HashSet<AspectId>,
) -> ObjectView {
    let (kind, player) = match o.kind {
        ObjectKind::Character { player } => ("character", player),
        ObjectKind::Npc => ("npc", None),
        ObjectKind::Person => ("person", None),
        ObjectKind::Place => ("place", None),
        ObjectKind::Thing => ("thing", None),
    };
    let aspects = s
        .aspects_of(id)
        .map(|(aid, a)| AspectView {
            id: aid.0,
            text: shown(s, TextRef::Aspect(aid), &a.text),
            flagged: s.is_flagged(TextRef::Aspect(aid)),
            category: a.category.map(category_id),
            category_name: a.category.map(|c| c.name()),
            with: match a.category {
                Some(AspectCategory::Relationship { with }) => Some(with.0),
                _ => None,
            },
            in_pair: in_pair.contains(&aid),
        })
        .collect();
    ObjectView {
        id: id.0,
        name: shown(s, TextRef::ObjectName(id), &o.name),
        name_flagged: s.is_flagged(TextRef::ObjectName(id)),
        kind,
        player: player.map(|p| p.0),
        missing: if o.kind.is_character() {
            s.missing_categories(id)
        } else {
            Vec::new()
        },
        aspects,
    }
}

/// The prophecy, and where it came from.
fn prophecy_view(s: &State, p: &story::model::Prophecy) -> ProphecyView {
    ProphecyView {
        text: shown(s, TextRef::Prophecy, &p.text),
        flagged: s.is_flagged(TextRef::Prophecy),
        editable: s.prophecy_open(),
        source: match &p.source {
            ProphecySource::Catastrophe { world, roll, .. } => SourceView::Catastrophe {
                world: world.clone(),
                roll: roll.value(),
                tens: roll.tens,
                units: roll.units,
            },
            ProphecySource::Module { title } => SourceView::Module {
                title: title.clone(),
            },
            ProphecySource::Written => SourceView::Written,
        },
    }
}

/// The timer of a scene, the flashback or the flashforward.
fn timer_view(s: &State, t: story::model::Timer) -> TimerView {
    let (timed, scene) = match t.timed {
        Timed::Scene(id) => ("scene", Some(id.0)),
        Timed::Flashback => ("flashback", None),
        Timed::Flashforward => ("flashforward", None),
    };
    let minutes = s.ruleset.scene_minutes();
    TimerView {
        timed,
        scene,
        minutes,
        counting: t.stopped_since.is_none(),
        deadline: s.timer_deadline().map(|d| d.0),
        remaining_ms: t
            .stopped_since
            .map(|_| t.remaining_ms(minutes, Timestamp(0))),
        held: t.held,
    }
}

fn built(state: &State, creator: u32, previous: Option<(&StoryView, &Touched)>) -> StoryView {
    let s = state;
    // Worked out only if a scene or an object is built, not taken over.
    let available = LazyCell::new(|| s.available_scenes());
    let in_pair = LazyCell::new(|| {
        (s.pairs.values())
            .flat_map(|p| [p.character_aspect, p.environment_aspect])
            .collect::<HashSet<_>>()
    });
    let players = s
        .present_players()
        .map(|(id, p)| PlayerView {
            id: id.0,
            name: p.name.clone(),
            character: s.character_of(id).map(|c| c.0),
            moderator: s.moderator == Some(id),
        })
        .collect();
    let (mut objects_before, mut scenes_before) = (InOrder::default(), InOrder::default());
    let objects = s
        .objects
        .iter()
        .map(|(id, o)| {
            let kept = previous.and_then(|(view, touched)| {
                let part = objects_before.next(&view.objects, id.0, |v| v.id);
                part.filter(|_| !touched.objects.contains(id))
            });
            if let Some(view) = kept {
                return view.clone();
            }
            Kept::new(object_view(s, *id, o, &in_pair))
        })
        .collect();
    let scenes = s
        .scenes
        .iter()
        .map(|(id, scene)| {
            let kept = previous.and_then(|(view, touched)| {
                let part = scenes_before.next(&view.scenes, id.0, |v| v.id);
                part.filter(|_| !touched.scenes.contains(id))
            });
            match kept {
                Some(view) => view.clone(),
                None => Kept::new(scene_view(s, id, scene, &available)),
            }
        })
        .collect();
    let prophecy = s.prophecy.as_ref().map(|p| prophecy_view(s, p));
    const CATEGORY_IDS: [&str; 5] = [
        "occupation",
        "physical_or_mental",
        "psychological",
        "relationship",
        "affiliation",
    ];
    let categories = std::array::from_fn(|i| CategoryView {
        id: CATEGORY_IDS[i],
        name: CATEGORY_NAMES[i],
    });
    let voters = s.voters();
    let proposal = s.proposal.as_ref().map(|p| proposal_view(s, p, &voters));
    let timer = s.timer.map(|t| timer_view(s, t));
    // The odds depend only on the scenes (their outline, pools and outcomes) and the rules.
    let (outline_odds, finale_if) = match previous {
        Some((view, touched)) if !touched.odds => {
            (view.outline_odds.clone(), view.finale_if.clone())
        }
        _ => {
            let (outline_odds, finale_if) = odds(s, &available);
            (Kept::new(outline_odds), Kept::new(finale_if))
        }
    };
    StoryView {
        game: <super::StoryGame as crate::game::Game>::KIND,
        title: super::title(s, creator),
        creator,
        ruleset: RulesetView {
            id: ruleset_id(s.ruleset),
            name: s.ruleset.name(),
            finale_difficulty: s.ruleset.finale_difficulty(),
            scene_minutes: s.ruleset.scene_minutes(),
            temporal: s.ruleset.is_temporal(),
            moderator_allowed: s.ruleset.allows_moderator(),
        },
        phase: PhaseView {
            id: phase_id(s.phase),
            name: s.phase.name_in(s.ruleset),
            act: if s.ruleset.is_temporal() {
                s.act()
            } else {
                None
            },
            next: (s.phase.next()).map(|p| NextPhase {
                id: phase_id(p),
                name: p.name_in(s.ruleset),
            }),
        },
        paused: s.paused(),
        x_card: s.x_card.is_some(),
        proposal,
        voters: voters.iter().map(|p| p.0).collect(),
        physical_dice: s.physical_dice,
        timer,
        question: (s.question.as_deref()).and_then(|t| shown(s, TextRef::Question, t)),
        question_flagged: s.is_flagged(TextRef::Question),
        checked_any: s.scenes.values().any(|x| x.check.is_some() || x.rolling),
        players,
        moderator: s.moderator.map(|m| m.0),
        lines: (s.lines.iter())
            .map(|(id, t)| LineView {
                id: id.0,
                text: t.clone(),
            })
            .collect(),
        prophecy,
        objects,
        categories,
        finale: s.finale.map(|f| f.0),
        in_progress: s.in_progress.map(|f| f.0),
        scenes,
        flashback: (s.flashback.as_deref()).and_then(|t| shown(s, TextRef::Flashback, t)),
        flashback_flagged: s.is_flagged(TextRef::Flashback),
        long_term_effects: (s.long_term_effects.as_deref())
            .and_then(|t| shown(s, TextRef::LongTermEffects, t)),
        long_term_effects_flagged: s.is_flagged(TextRef::LongTermEffects),
        warnings: s.warnings().iter().map(ToString::to_string).collect(),
        outline_odds,
        finale_if,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The events of a whole game stored by the first version (the story crate's test data).
    fn stored_game() -> Vec<Event> {
        let stored = include_str!("../../../../story/tests/data/game-v1.jsonl");
        (stored.lines())
            .map(|line| {
                serde_json::from_str::<story::StoredEvent>(line)
                    .unwrap()
                    .into_event()
            })
            .collect()
    }

    /// Every member of the view is in its patch: the patches between the views after each
    /// event of a whole stored game turn each view's JSON into the next one's.
    #[test]
    fn patches_turn_each_view_into_the_next() {
        let mut state = State::default();
        let mut before: Option<StoryView> = None;
        let mut ops_seen = 0;
        for event in stored_game() {
            state = story::evolve(state, &event);
            let now = view(&state, 1);
            if let Some(before) = before {
                let mut ops = Vec::new();
                before.diff(&now, &mut String::new(), &mut ops);
                ops_seen += ops.len();
                let patch: json_patch::Patch =
                    serde_json::from_value(serde_json::to_value(&ops).unwrap()).unwrap();
                let mut json = serde_json::to_value(&before).unwrap();
                json_patch::patch(&mut json, &patch).unwrap();
                assert_eq!(json, serde_json::to_value(&now).unwrap(), "after {event:?}");
            }
            before = Some(now);
        }
        assert!(ops_seen > 300, "{ops_seen} operations");
    }

    /// The view built from the one before gives what building it afresh gives, after every
    /// event of a whole stored game, alone and in pairs (several events can come of one
    /// action); and many scenes and objects are taken over, not built again.
    #[test]
    fn views_built_from_the_one_before_are_the_views() {
        let events = stored_game();
        for step in [1, 2] {
            let mut state = State::default();
            let mut before = view(&state, 1);
            let (mut taken_over, mut scenes) = (0, 0);
            let (mut objects_taken_over, mut objects) = (0, 0);
            for chunk in events.chunks(step) {
                for event in chunk {
                    state = story::evolve(state, event);
                }
                let after = view_after(&state, 1, &before, chunk);
                assert_eq!(after, view(&state, 1), "after {chunk:?}");
                taken_over += (after.scenes.iter())
                    .filter(|s| before.scenes.iter().any(|b| b.same(s)))
                    .count();
                scenes += after.scenes.len();
                objects_taken_over += (after.objects.iter())
                    .filter(|o| before.objects.iter().any(|b| b.same(o)))
                    .count();
                objects += after.objects.len();
                before = after;
            }
            // This game's log is mostly the outline being written (every scene built again);
            // the scenes being played take over most of the others.
            assert!(
                taken_over * 5 > scenes,
                "{taken_over} of {scenes} scene views taken over"
            );
            assert!(
                objects_taken_over * 5 > objects,
                "{objects_taken_over} of {objects} object views taken over"
            );
        }
    }
}
