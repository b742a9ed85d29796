//! Prophecy, the story game, at the web table: requests from the page become engine commands
//! (with the server's seeds and times), events become log lines, and the state becomes each
//! player's view (see PROTOCOL.md).

use crate::game::{Context, Game, Rejection};
use dice::Seed;
use dice::check::{Cause, Outcome, PoolEntry};
use serde::Deserialize;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::LazyLock;
use story::command::{Action, Command};
use story::content::Library;
use story::ids::{ObjectId, PlayerId, ProposalId, SceneId, Timestamp};
use story::model::{
    AspectCategory, CATEGORY_NAMES, Motion, ObjectKind, Phase, ProphecySource, TextRef, Timed,
};
use story::outline_odds::{PlannedScene, outline_odds_f64};
use story::{Event, Refusal, Ruleset, State, StoredEvent};

/// The worlds and modules offered at every table.
static LIBRARY: LazyLock<Library> = LazyLock::new(Library::builtin);

/// The story game.
pub struct StoryGame;

/// Requests whose engine command needs something the server supplies; everything else is an
/// engine [`Action`] as it is.
#[derive(Deserialize)]
#[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
enum Request {
    RollCatastrophe {
        world: String,
    },
    PickModule {
        module: String,
    },
    Propose {
        motion: Motion,
    },
    Agree {
        proposal: ProposalId,
    },
    #[serde(untagged)]
    Engine(Action),
}

/// Why a page's action cannot be read, in its own words: the untagged `Request` would only say
/// that no variant matched, so the engine's tagged `Action` is asked for the precise reason.
fn malformed(action: &Value) -> Rejection {
    let name = action.get("action").and_then(Value::as_str);
    let reason = match name {
        None => "an action needs its name in \"action\"".to_owned(),
        // Their engine form holds what the server supplies (seeds, the world's table), so the
        // engine's reason would name a field the page must not send.
        Some(name @ ("roll_catastrophe" | "pick_module" | "propose" | "agree")) => {
            format!("the action '{name}' cannot be read: a field is missing or has the wrong form")
        }
        Some(name) => match crate::game::read_action::<Action>(action.clone()) {
            Err(Rejection::Malformed(reason)) => reason,
            _ => format!("the action '{name}' cannot be read"),
        },
    };
    Rejection::Malformed(reason)
}

fn refused(refusal: Refusal, ruleset: Ruleset) -> Rejection {
    Rejection::Refused {
        code: refusal.code().to_owned(),
        rule: refusal.rule_in(ruleset).to_owned(),
        message: refusal.explain(ruleset),
    }
}

fn decide(state: &State, player: u32, action: Action, now: i64) -> Result<Vec<Event>, Rejection> {
    story::decide(
        state,
        Command {
            by: PlayerId(player),
            at: Timestamp(now),
            action,
        },
    )
    .map_err(|refusal| refused(refusal, state.ruleset))
}

impl Game for StoryGame {
    const KIND: &'static str = "story";
    type State = State;
    type Event = Event;

    fn open(settings: &Value) -> Result<Vec<Event>, Rejection> {
        let ruleset = match settings.get("ruleset").and_then(Value::as_str) {
            None => Ruleset::default(),
            Some(text) => text
                .parse::<Ruleset>()
                .map_err(|e| Rejection::Malformed(e.to_string()))?,
        };
        decide(&State::default(), 0, Action::Open { ruleset }, 0)
    }

    fn join(state: &State, player: u32, name: &str) -> Result<Vec<Event>, Rejection> {
        decide(
            state,
            player,
            Action::Join {
                name: name.to_owned(),
            },
            0,
        )
    }

    fn remove(state: &State, player: u32) -> Result<Vec<Event>, Rejection> {
        let creator = state.players.keys().next().map_or(0, |p| p.0);
        decide(
            state,
            creator,
            Action::RemovePlayer {
                player: PlayerId(player),
            },
            0,
        )
    }

    fn act(
        state: &State,
        player: u32,
        action: &Value,
        context: &Context,
    ) -> Result<Vec<Event>, Rejection> {
        let request = Request::deserialize(action).map_err(|_| malformed(action))?;
        let action = match request {
            Request::RollCatastrophe { world } => Action::RollCatastrophe {
                world: LIBRARY
                    .world(&world)
                    .cloned()
                    .ok_or_else(|| Rejection::Malformed(format!("no world '{world}'")))?,
                seed: Seed(context.seed),
            },
            Request::PickModule { module } => Action::PickModule {
                module: LIBRARY
                    .module(&module)
                    .cloned()
                    .ok_or_else(|| Rejection::Malformed(format!("no module '{module}'")))?,
            },
            Request::Propose { motion } => Action::Propose {
                motion,
                seed: Seed(context.seed),
            },
            Request::Agree { proposal } => Action::Agree {
                proposal,
                seed: Seed(context.seed),
            },
            // Seats are the table's business, and the seed- or time-bearing actions are above.
            Request::Engine(
                Action::Open { .. }
                | Action::Join { .. }
                | Action::RemovePlayer { .. }
                | Action::RollCatastrophe { .. }
                | Action::PickModule { .. }
                | Action::Propose { .. }
                | Action::Agree { .. },
            ) => {
                return Err(Rejection::Malformed(
                    "that action is not available here".into(),
                ));
            }
            Request::Engine(action) => action,
        };
        decide(state, player, action, context.now)
    }

    fn evolve(state: State, event: &Event) -> State {
        story::evolve(state, event)
    }

    fn encode(event: &Event) -> String {
        serde_json::to_string(&StoredEvent::from(event.clone())).expect("events always serialize")
    }

    fn decode(body: &str) -> Result<Event, String> {
        serde_json::from_str::<StoredEvent>(body)
            .map(StoredEvent::into_event)
            .map_err(|e| e.to_string())
    }

    fn anonymous(event: &Event) -> bool {
        // The safety tools never say who used them; resuming would tell who paused.
        matches!(
            event,
            Event::Flagged { .. }
                | Event::LineAdded { .. }
                | Event::LineRemoved { .. }
                | Event::TablePaused { .. }
                | Event::TableResumed
        )
    }

    fn describe(before: &State, event: &Event) -> String {
        plain_line(&describe(before, event))
    }

    fn describe_parts(before: &State, event: &Event) -> Option<Vec<Value>> {
        line_parts(&describe(before, event))
    }

    /// The worlds and modules a table may draw its prophecy from: the same at every table and
    /// every change, so served once (`/games/story/content.json`), never in a view.
    fn content() -> Option<Value> {
        Some(json!({
            "worlds": LIBRARY
                .worlds
                .iter()
                .map(|w| json!({"slug": w.slug, "name": w.name, "genre": w.genre, "summary": w.summary, "temporal": w.temporal}))
                .collect::<Vec<_>>(),
            "modules": LIBRARY
                .modules
                .iter()
                .map(|m| json!({"slug": m.slug, "title": m.title, "summary": m.summary, "world": m.world, "temporal": m.temporal, "prophecy": m.prophecy}))
                .collect::<Vec<_>>(),
        }))
    }

    fn view(state: &State, creator: u32) -> Value {
        view(state, creator)
    }

    fn own(state: &State, player: u32) -> Value {
        let me = PlayerId(player);
        json!({
            "lines": state
                .line_authors
                .iter()
                .filter(|(_, by)| **by == me)
                .map(|(line, _)| line.0)
                .collect::<Vec<_>>(),
            "paused": state.x_card.is_some_and(|x| x.by == Some(me)),
        })
    }

    fn markdown(state: &State) -> (String, String) {
        let markdown = story::export::to_markdown(state);
        let title = markdown
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("# "))
            .unwrap_or("A prophecy")
            .to_owned();
        (title, markdown)
    }

    fn for_players(log: Vec<Event>) -> Vec<Event> {
        story::redact::for_players(&log)
    }

    fn title(state: &State, creator: u32) -> String {
        title(state, creator)
    }

    fn outline_svg(state: &State) -> Option<String> {
        story::export::outline_svg(state)
    }

    fn progress(state: &State) -> String {
        let phase = state.phase.name_in(state.ruleset);
        let mut line = match state.phase {
            Phase::Story => {
                let played = state.scenes.values().filter(|s| s.performed).count();
                let total = state.scenes.len();
                if state.in_progress.is_some() {
                    format!("{phase}: a scene is being played ({played} of {total} played)")
                } else {
                    format!("{phase}: {played} of {total} scenes played")
                }
            }
            _ => phase.to_owned(),
        };
        if !state.flags.is_empty() || state.x_card.is_some() {
            line.push_str(" (paused)");
        }
        line
    }
}

/// A text, or `None` when it is flagged (flagged text never leaves the server).
fn shown(state: &State, target: TextRef, text: &str) -> Value {
    if state.is_flagged(target) {
        Value::Null
    } else {
        Value::String(text.to_owned())
    }
}

fn player_name(state: &State, player: PlayerId) -> String {
    state
        .players
        .get(&player)
        .map_or_else(|| format!("Player {}", player.0), |p| p.name.clone())
}

// Log lines name players, kinds and levels but never quote text players typed: any such text
// may be flagged later, and a flagged text must disappear everywhere, the log included.

/// A kind of object with its article: "a place", "an NPC" (the article goes by the sound).
fn a_kind(kind: ObjectKind) -> String {
    match kind {
        ObjectKind::Npc => "an NPC".to_owned(),
        kind => format!("a {}", kind.label()),
    }
}

fn object_name(state: &State, object: ObjectId) -> String {
    match state.objects.get(&object).map(|o| o.kind) {
        Some(ObjectKind::Character { player: Some(p) }) => {
            format!("{}\u{2019}s character", player_name(state, p))
        }
        Some(kind) => a_kind(kind),
        None => "an object".to_owned(),
    }
}

/// A scene named in a log line: by its level and difficulty ("the primary scene (3)") in the
/// text, marked `\0SCENE\0NAME\0` so that the page can show its objective instead, as it reads
/// now (a flag hides it there too). NUL never occurs in names, the only player text in a line.
fn objective(state: &State, scene: SceneId) -> String {
    match state.scenes.get(&scene) {
        Some(s) => format!(
            "\0{}\0the {} ({})\0",
            scene.0,
            state.level(scene).to_lowercase(),
            s.difficulty
        ),
        None => "a scene".to_owned(),
    }
}

/// A scene named at the start of a sentence ("The primary scene (3) began").
fn objective_first(state: &State, scene: SceneId) -> String {
    let named = objective(state, scene);
    match named
        .strip_prefix('\0')
        .and_then(|rest| rest.split_once('\0'))
    {
        Some((id, name)) => format!("\0{id}\0{}", capitalized(name)),
        None => capitalized(&named),
    }
}

/// A marked line as plain text: each scene by its level.
fn plain_line(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    for (i, part) in line.split('\0').enumerate() {
        // Parts alternate: text, scene id, its name, text, …
        if i % 3 != 1 {
            out.push_str(part);
        }
    }
    out
}

/// A marked line as the page's parts: text, and `{"scene": id, "text": name}` for each scene.
fn line_parts(line: &str) -> Option<Vec<Value>> {
    if !line.contains('\0') {
        return None;
    }
    let pieces: Vec<&str> = line.split('\0').collect();
    let mut parts = Vec::new();
    let mut i = 0;
    while i < pieces.len() {
        if !pieces[i].is_empty() {
            parts.push(json!(pieces[i]));
        }
        if let (Some(id), Some(name)) = (pieces.get(i + 1), pieces.get(i + 2)) {
            parts.push(json!({"scene": id.parse::<u32>().unwrap_or(0), "text": name}));
        }
        i += 3;
    }
    Some(parts)
}

/// Temporal Mechanics has no prophecy: a world's or module's text is the warning sent back.
fn prophecy_word(state: &State) -> &'static str {
    if state.ruleset.is_temporal() {
        "warning"
    } else {
        "prophecy"
    }
}

fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

fn describe(before: &State, event: &Event) -> String {
    let s = before;
    match event {
        Event::GameOpened { ruleset } => format!("The table opened under {ruleset}."),
        Event::PlayerJoined { name, .. } => format!("{name} joined the table."),
        Event::PlayerRemoved { player } => format!("{} left the table.", player_name(s, *player)),
        Event::ModeratorChosen { player: Some(p) } => {
            format!("{} is the moderator.", player_name(s, *p))
        }
        Event::ModeratorChosen { player: None } => "The table has no moderator now.".into(),
        Event::LineAdded { .. } => "A line was drawn.".into(),
        Event::LineRemoved { .. } => "A line was lifted.".into(),
        Event::Flagged { .. } => "A text was flagged; play pauses until it is replaced.".into(),
        Event::TablePaused { .. } => "Someone used the X-card: play pauses. Leave out what was just said or shown; no one explains why.".into(),
        Event::TableResumed => "Play resumes.".into(),
        Event::ProposalMade { motion, by, .. } => {
            let what = match motion {
                Motion::MakeCheck { scene, .. } => format!("make the check of {}", objective(s, *scene)),
                Motion::Advance { to } => format!("move on to {}", to.name_in(s.ruleset)),
                other => other.to_string(),
            };
            format!("{} proposes to {what}; it carries when everyone agrees.", player_name(s, *by))
        }
        Event::ProposalAgreed { by, .. } => format!("{} agrees.", player_name(s, *by)),
        Event::ProposalStopped { by, .. } => {
            format!("{} said not yet: the proposal is dropped.", player_name(s, *by))
        }
        Event::ProposalCarried { .. } => "Everyone agreed.".into(),
        Event::DiceChosen { physical: true } => {
            "From now on the table rolls real dice and types in the faces.".into()
        }
        Event::DiceChosen { physical: false } => "From now on the server rolls the dice.".into(),
        Event::TimerStarted { timed: Timed::Flashback, .. } => format!(
            "The flashback begins: {} minutes on the timer.",
            s.ruleset.scene_minutes()
        ),
        Event::TimerStarted { .. } => format!(
            "The climactic scene is played: the flashforward begins, {} minutes on the timer.",
            s.ruleset.scene_minutes()
        ),
        Event::TimerStopped { .. } => "The timer stops.".into(),
        Event::TimerCounting { .. } => "The timer runs again.".into(),
        Event::TimerHeld => "The timer is held.".into(),
        Event::TimerReleased => "The timer is let go.".into(),
        Event::TimerExtended { minutes } => format!(
            "The scene gets {minutes} more {}.",
            if *minutes == 1 { "minute" } else { "minutes" }
        ),
        Event::TimerReset { .. } => "The timer starts again from the beginning.".into(),
        Event::QuestionAsked { .. } => "The moderator asks the players a question.".into(),
        Event::SceneCancelled { scene } => format!(
            "{} was set aside before its check; it can be started again.",
            objective_first(s, *scene)
        ),
        Event::PairAccepted { by, .. } => format!("{} accepts a pair.", player_name(s, *by)),
        Event::PairObjected { by, .. } => format!(
            "{} objects to a pair: it does not count until that is settled.",
            player_name(s, *by)
        ),
        Event::DiceCalledFor { scene } => format!(
            "The table agreed to the check of {}: roll {} real dice and type in the faces.",
            objective(s, *scene),
            s.pool(*scene).len()
        ),
        Event::ProphecyReceived {
            source: ProphecySource::Catastrophe { world, roll, .. },
            ..
        } => {
            format!(
                "The dice gave {roll} on the catastrophe table of {world}: the {} is received.",
                prophecy_word(s)
            )
        }
        Event::ProphecyReceived {
            source: ProphecySource::Module { title },
            ..
        } => {
            format!("The {} of {title} is received.", prophecy_word(s))
        }
        Event::ProphecyReceived { .. } => format!("The players wrote the {}.", prophecy_word(s)),
        Event::ProphecyEdited { .. } => format!("The {} was changed.", prophecy_word(s)),
        Event::PhaseBegan { phase: Phase::Outline } if s.phase == Phase::Story => {
            "Back to the outline: scenes can be sketched and changed again.".into()
        }
        Event::PhaseBegan { phase } => format!("{} begins.", phase.name_in(s.ruleset)),
        Event::CharacterCreated { player, .. } => {
            format!("{} created a character.", player_name(s, *player))
        }
        Event::ObjectCreated { kind, .. } => {
            format!("{} entered the story.", capitalized(&a_kind(*kind)))
        }
        Event::ObjectRenamed { object, .. } => {
            format!("{} was renamed.", capitalized(&object_name(s, *object)))
        }
        Event::ObjectRemoved { object } => {
            format!("{} left the story.", capitalized(&object_name(s, *object)))
        }
        Event::AspectAttached { object, .. } => {
            format!("{} gained an aspect.", capitalized(&object_name(s, *object)))
        }
        Event::AspectEdited { aspect, .. } => {
            let object = s
                .aspects
                .get(aspect)
                .map(|a| object_name(s, a.object))
                .unwrap_or_default();
            format!("An aspect of {object} changed.")
        }
        Event::AspectRemoved { aspect } => {
            let object = s
                .aspects
                .get(aspect)
                .map(|a| object_name(s, a.object))
                .unwrap_or_default();
            format!("An aspect of {object} was removed.")
        }
        Event::FlashbackNarrated { .. } => "The flashback was told.".into(),
        Event::SceneSketched { parent: None, .. } if s.ruleset.is_temporal() => {
            "The climactic scene was sketched.".into()
        }
        Event::SceneSketched { parent: None, .. } => "The Finale was sketched.".into(),
        Event::SceneSketched {
            parent: Some(p),
            difficulty,
            ..
        } if s.ruleset.is_temporal() => format!(
            "A scene upstream of {} was sketched (difficulty {difficulty}).",
            objective(s, *p)
        ),
        Event::SceneSketched {
            parent: Some(p),
            difficulty,
            ..
        } => format!(
            "A precursor of {} was sketched (difficulty {difficulty}).",
            objective(s, *p)
        ),
        Event::ObjectiveEdited { scene, .. } => {
            format!("The objective of {} changed.", objective(s, *scene))
        }
        Event::SceneRemoved { scene } => {
            format!("{} was removed from the outline.", objective_first(s, *scene))
        }
        Event::SettingChanged { scene, .. } => {
            format!("The setting of {} changed.", objective(s, *scene))
        }
        Event::ObjectPlaced { scene, object } => format!(
            "{} is in {}.",
            capitalized(&object_name(s, *object)),
            objective(s, *scene)
        ),
        Event::ObjectWithdrawn { scene, object } => format!(
            "{} left {}.",
            capitalized(&object_name(s, *object)),
            objective(s, *scene)
        ),
        Event::SceneStarted { scene, .. } => {
            format!("{} began; the timer runs.", objective_first(s, *scene))
        }
        Event::PairProposed { by, .. } => format!(
            "{} proposed a pair of matching aspects.",
            player_name(s, *by)
        ),
        Event::PairWithdrawn { .. } => "A pair was withdrawn.".into(),
        Event::JustificationEdited { .. } => "A pair's justification changed.".into(),
        Event::CheckMade { scene, check } => {
            let dice = check.roll.dice.len();
            let hits = check.roll.hits();
            format!(
                "The check of {}: {dice} {}{} rolled, {hits} {} against {}: {}.",
                objective(s, *scene),
                if check.physical { "real " } else { "" },
                if dice == 1 { "die" } else { "dice" },
                if hits == 1 { "hit" } else { "hits" },
                check.difficulty,
                check.outcome
            )
        }
        Event::Narrated { scene, .. } => format!(
            "The players told what happened in {}.",
            objective(s, *scene)
        ),
        Event::SceneFinished { scene } => {
            format!("{} is performed.", objective_first(s, *scene))
        }
        Event::LongTermEffectsNarrated { .. } if s.ruleset.is_temporal() => {
            "The flashforward was told.".into()
        }
        Event::LongTermEffectsNarrated { .. } => "The Finale's long-term effects were told.".into(),
        Event::GameEnded => "The story is told.".into(),
    }
}

/// The table's name: its module's title, else its world's, else whose table it is.
fn title(state: &State, creator: u32) -> String {
    match state.prophecy.as_ref().map(|p| &p.source) {
        Some(ProphecySource::Module { title }) => title.clone(),
        Some(ProphecySource::Catastrophe { world, .. }) if state.ruleset.is_temporal() => {
            format!("A timeline of {world}")
        }
        Some(ProphecySource::Catastrophe { world, .. }) => format!("A prophecy of {world}"),
        _ => format!("{}\u{2019}s table", player_name(state, PlayerId(creator))),
    }
}

fn category_id(category: AspectCategory) -> &'static str {
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

fn cause(cause: Cause) -> Value {
    match cause {
        Cause::Pool(PoolEntry::MatchingPair { pair }) => {
            json!({"kind": "matching_pair", "pair": pair})
        }
        Cause::Pool(PoolEntry::RewardDie { precursor }) => {
            json!({"kind": "reward_die", "precursor": precursor})
        }
        Cause::Pool(PoolEntry::Die) => json!({"kind": "die"}),
        Cause::ExplodedFrom(index) => json!({"kind": "exploded_from", "index": index}),
    }
}

/// Pools up to this many dice are charted beside a scene's chance (at least three past its own).
const CURVE_DICE: u32 = 10;
/// The longest chart: a huge pool is charted around itself no further.
const CURVE_MAX: u32 = 40;

/// A scene's exact chance with its pool now; for the scene being played (`playing`) also with
/// one more matching pair, and the chance of every pool size from none up, for the page's
/// chart (only there: views are built at every change, and every byte goes to every page).
fn scene_odds(dice: u32, difficulty: u32, playing: bool) -> Value {
    let p = dice::check_odds::success_probability(dice, difficulty);
    if !playing {
        return json!({"dice": dice, "p_success": p.to_f64(), "exact": p.to_string()});
    }
    let next = dice::check_odds::success_probability(dice + 1, difficulty);
    let top = CURVE_DICE.max(dice + 3).min(CURVE_MAX.max(dice + 1));
    let curve: Vec<f64> = (0..=top)
        .map(|n| dice::check_odds::success_probability_f64(n, difficulty))
        .collect();
    json!({
        "dice": dice,
        "p_success": p.to_f64(),
        "exact": p.to_string(),
        "p_next": next.to_f64(),
        "exact_next": next.to_string(),
        "curve": curve,
    })
}

/// Outlines with more scenes to choose from than this get no "what if" (each one solves the
/// outline twice more).
const WHAT_IF_SCENES: usize = 60;

/// The outlines whose "what if" was worked out lately, by what it depends on: most changes at
/// a table (an agreement, a narration, the timer) leave the outline, its pairs and outcomes as
/// they were, and solving it again for each showed in profiles under load. Emptied when full.
type WhatIfKey = (
    Ruleset,
    Vec<(Option<usize>, u32, Option<Outcome>)>,
    Vec<(usize, u32)>,
);
static WHAT_IF: LazyLock<std::sync::Mutex<HashMap<WhatIfKey, Value>>> =
    LazyLock::new(Default::default);
/// Outlines [`WHAT_IF`] keeps at most.
const WHAT_IF_KEPT: usize = 4096;

/// The outline as the odds solver plans it: the scenes' ids, and each scene with its parent
/// (by index), the pairs proposed so far and its outcome once performed.
fn planned(state: &State) -> (Vec<SceneId>, Vec<PlannedScene>) {
    let ids: Vec<SceneId> = state.scenes.keys().copied().collect();
    let index: HashMap<SceneId, usize> = ids.iter().enumerate().map(|(i, id)| (*id, i)).collect();
    let planned = ids
        .iter()
        .map(|id| {
            let scene = &state.scenes[id];
            PlannedScene {
                parent: scene.parent.and_then(|p| index.get(&p).copied()),
                pairs: scene.pairs.len() as u32,
                outcome: scene.outcome(),
            }
        })
        .collect();
    (ids, planned)
}

/// Each unperformed scene's chance with the pairs proposed so far, as a plan.
fn outline_odds(state: &State) -> Value {
    let (ids, planned) = planned(state);
    match outline_odds_f64(state.ruleset, &planned) {
        Ok(odds) => ids
            .iter()
            .zip(odds)
            .filter(|(id, _)| state.scenes[id].outcome().is_none())
            .map(|(id, p)| (id.0.to_string(), json!(p)))
            .collect::<serde_json::Map<_, _>>()
            .into(),
        Err(_) => json!({}),
    }
}

/// For each scene but the Finale that can be played now (or is being played): the Finale's
/// chance (as a plan, with the pairs proposed so far) if that scene succeeds, and if it fails:
/// `{"7": [0.61, 0.38]}`. Empty past [`WHAT_IF_SCENES`] such scenes or without a Finale.
fn finale_if(state: &State) -> Value {
    let Some(finale) = state.finale else {
        return json!({});
    };
    let (ids, planned) = planned(state);
    let choices: std::collections::HashSet<SceneId> = state
        .available_scenes()
        .into_iter()
        .chain(state.in_progress)
        .collect();
    let open: Vec<usize> = (0..ids.len())
        .filter(|&i| ids[i] != finale && planned[i].outcome.is_none() && choices.contains(&ids[i]))
        .collect();
    if open.len() > WHAT_IF_SCENES {
        return json!({});
    }
    let Some(at) = ids.iter().position(|id| *id == finale) else {
        return json!({});
    };
    let key: WhatIfKey = (
        state.ruleset,
        planned
            .iter()
            .map(|p| (p.parent, p.pairs, p.outcome))
            .collect(),
        open.iter().map(|&i| (i, ids[i].0)).collect(),
    );
    if let Some(known) = WHAT_IF.lock().ok().and_then(|m| m.get(&key).cloned()) {
        return known;
    }
    let mut out = serde_json::Map::new();
    for i in open {
        let chance = |outcome| {
            let mut what_if = planned.clone();
            what_if[i].outcome = Some(outcome);
            outline_odds_f64(state.ruleset, &what_if)
                .ok()
                .and_then(|odds| odds.get(at).copied())
        };
        if let (Some(won), Some(lost)) = (chance(Outcome::Success), chance(Outcome::Failure)) {
            out.insert(ids[i].0.to_string(), json!([won, lost]));
        }
    }
    let out = Value::from(out);
    if let Ok(mut known) = WHAT_IF.lock() {
        if known.len() >= WHAT_IF_KEPT {
            known.clear();
        }
        known.insert(key, out.clone());
    }
    out
}

fn view(state: &State, creator: u32) -> Value {
    let s = state;
    let available = s.available_scenes();
    let in_pair: std::collections::HashSet<_> = s
        .pairs
        .values()
        .flat_map(|p| [p.character_aspect, p.environment_aspect])
        .collect();
    let players: Vec<Value> = s
        .present_players()
        .map(|(id, p)| {
            json!({
                "id": id.0,
                "name": p.name,
                "character": s.character_of(id).map(|c| c.0),
                "moderator": s.moderator == Some(id),
            })
        })
        .collect();
    let objects: Vec<Value> = s
        .objects
        .iter()
        .map(|(id, o)| {
            let (kind, player) = match o.kind {
                ObjectKind::Character { player } => ("character", player),
                ObjectKind::Npc => ("npc", None),
                ObjectKind::Person => ("person", None),
                ObjectKind::Place => ("place", None),
                ObjectKind::Thing => ("thing", None),
            };
            let aspects: Vec<Value> = s
                .aspects_of(*id)
                .map(|(aid, a)| {
                    json!({
                        "id": aid.0,
                        "text": shown(s, TextRef::Aspect(aid), &a.text),
                        "flagged": s.is_flagged(TextRef::Aspect(aid)),
                        "category": a.category.map(category_id),
                        "category_name": a.category.map(|c| c.name()),
                        "with": match a.category { Some(AspectCategory::Relationship { with }) => Some(with.0), _ => None },
                        "in_pair": in_pair.contains(&aid),
                    })
                })
                .collect();
            json!({
                "id": id.0,
                "name": shown(s, TextRef::ObjectName(*id), &o.name),
                "name_flagged": s.is_flagged(TextRef::ObjectName(*id)),
                "kind": kind,
                "player": player.map(|p| p.0),
                "missing": if o.kind.is_character() { s.missing_categories(*id) } else { Vec::new() },
                "aspects": aspects,
            })
        })
        .collect();
    let scenes: Vec<Value> = s
        .scenes
        .iter()
        .map(|(id, scene)| {
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
            let pool_json: Vec<Value> = pool.iter().map(|e| cause(Cause::Pool(*e))).collect();
            let odds = (matches!(status, "in_progress" | "available") && scene.check.is_none())
                .then(|| scene_odds(pool.len() as u32, scene.difficulty, status == "in_progress"));
            let pairs: Vec<Value> = scene
                .pairs
                .iter()
                .map(|pid| {
                    let p = &s.pairs[pid];
                    json!({
                        "id": pid.0,
                        "character_aspect": p.character_aspect.0,
                        "environment_aspect": p.environment_aspect.0,
                        "justification": shown(s, TextRef::Justification(*pid), &p.justification),
                        "justification_flagged": s.is_flagged(TextRef::Justification(*pid)),
                        "proposed_by": p.proposed_by.0,
                        "accepted_by": p.accepted_by.iter().map(|x| x.0).collect::<Vec<_>>(),
                        "objections": p.objections.iter().map(|x| x.0).collect::<Vec<_>>(),
                        "counts": s.counts(p),
                    })
                })
                .collect();
            let check = scene.check.as_ref().map(|c| {
                json!({
                    "physical": c.physical,
                    "difficulty": c.difficulty,
                    "outcome": match c.outcome { Outcome::Success => "success", Outcome::Failure => "failure" },
                    "hits": c.roll.hits(),
                    "dice": c.roll.dice.iter().map(|d| json!({"face": d.face, "hit": d.is_hit(), "cause": cause(d.cause)})).collect::<Vec<_>>(),
                })
            });
            let setting_flagged = s.is_flagged(TextRef::Setting(*id));
            json!({
                "id": id.0,
                "parent": scene.parent.map(|p| p.0),
                "objective": shown(s, TextRef::Objective(*id), &scene.objective),
                "objective_flagged": s.is_flagged(TextRef::Objective(*id)),
                "difficulty": scene.difficulty,
                "level": s.level(*id),
                "depth": s.depth(*id),
                "precursors": scene.precursors.iter().map(|p| p.0).collect::<Vec<_>>(),
                "time": if setting_flagged { Value::Null } else { json!(scene.setting.time) },
                "place": if setting_flagged { Value::Null } else { json!(scene.setting.place) },
                "setting_flagged": setting_flagged,
                "objects": scene.setting.objects.iter().map(|o| o.0).collect::<Vec<_>>(),
                "status": status,
                "started_at": scene.started_at.map(|t| t.0),
                "rolling": scene.rolling,
                "pairs": pairs,
                "pool": pool_json,
                "odds": odds,
                "check": check,
                "narration": scene.narration.as_deref().map(|n| shown(s, TextRef::Narration(*id), n)),
                "narration_flagged": s.is_flagged(TextRef::Narration(*id)),
            })
        })
        .collect();
    let prophecy = s.prophecy.as_ref().map(|p| {
        let source = match &p.source {
            ProphecySource::Catastrophe { world, roll, .. } => json!({"kind": "catastrophe", "world": world, "roll": roll.value(), "tens": roll.tens, "units": roll.units}),
            ProphecySource::Module { title } => json!({"kind": "module", "title": title}),
            ProphecySource::Written => json!({"kind": "written"}),
        };
        json!({
            "text": shown(s, TextRef::Prophecy, &p.text),
            "flagged": s.is_flagged(TextRef::Prophecy),
            "editable": matches!(s.phase, Phase::Prophecy | Phase::Characters),
            "source": source,
        })
    });
    let next = s
        .phase
        .next()
        .map(|p| json!({"id": phase_id(p), "name": p.name_in(s.ruleset)}));
    let categories: Vec<Value> = [
        "occupation",
        "physical_or_mental",
        "psychological",
        "relationship",
        "affiliation",
    ]
    .iter()
    .zip(CATEGORY_NAMES)
    .map(|(id, name)| json!({"id": id, "name": name}))
    .collect();
    let voters: Vec<u32> = s.voters().iter().map(|p| p.0).collect();
    let proposal = s.proposal.as_ref().map(|p| {
        let (kind, scene, pair, to) = match p.motion {
            Motion::Advance { to } => ("advance", None, None, Some(phase_id(to))),
            Motion::ReturnToOutline => ("return_to_outline", None, None, None),
            Motion::MakeCheck { scene, .. } => ("make_check", Some(scene.0), None, None),
            Motion::WithdrawPair { pair } => ("withdraw_pair", None, Some(pair.0), None),
            Motion::Resume => ("resume", None, None, None),
            Motion::EndGame => ("end_game", None, None, None),
        };
        let label = match p.motion {
            Motion::Advance { to } => format!("move on to {}", to.name_in(s.ruleset)),
            other => other.to_string(),
        };
        json!({
            "id": p.id.0,
            "motion": kind,
            "scene": scene,
            "pair": pair,
            "to": to,
            "label": label,
            "by": p.by.0,
            "agreed": p.agreed.iter().map(|x| x.0).collect::<Vec<_>>(),
            "waiting": s.voters().iter().filter(|v| !p.agreed.contains(v)).map(|x| x.0).collect::<Vec<_>>(),
        })
    });
    let timer = s.timer.map(|t| {
        let (timed, scene) = match t.timed {
            Timed::Scene(id) => ("scene", Some(id.0)),
            Timed::Flashback => ("flashback", None),
            Timed::Flashforward => ("flashforward", None),
        };
        let minutes = s.ruleset.scene_minutes();
        json!({
            "timed": timed,
            "scene": scene,
            "minutes": minutes,
            "counting": t.stopped_since.is_none(),
            "deadline": s.timer_deadline().map(|d| d.0),
            // While stopped the time left is fixed; a page shows it as it is.
            "remaining_ms": t.stopped_since.map(|_| t.remaining_ms(minutes, Timestamp(0))),
            "held": t.held,
        })
    });
    json!({
        "game": StoryGame::KIND,
        "title": title(s, creator),
        "creator": creator,
        "ruleset": {
            "id": ruleset_id(s.ruleset),
            "name": s.ruleset.name(),
            "finale_difficulty": s.ruleset.finale_difficulty(),
            "scene_minutes": s.ruleset.scene_minutes(),
            "temporal": s.ruleset.is_temporal(),
            "moderator_allowed": s.ruleset.allows_moderator(),
        },
        "phase": {"id": phase_id(s.phase), "name": s.phase.name_in(s.ruleset), "act": if s.ruleset.is_temporal() { s.act() } else { None }, "next": next},
        "paused": s.paused(),
        "x_card": s.x_card.is_some(),
        "proposal": proposal,
        "voters": voters,
        "physical_dice": s.physical_dice,
        "timer": timer,
        "question": s.question.as_deref().map(|t| shown(s, TextRef::Question, t)),
        "question_flagged": s.is_flagged(TextRef::Question),
        "checked_any": s.scenes.values().any(|x| x.check.is_some() || x.rolling),
        "players": players,
        "moderator": s.moderator.map(|m| m.0),
        "lines": s.lines.iter().map(|(id, t)| json!({"id": id.0, "text": t})).collect::<Vec<_>>(),
        "prophecy": prophecy,
        "objects": objects,
        "categories": categories,
        "finale": s.finale.map(|f| f.0),
        "in_progress": s.in_progress.map(|f| f.0),
        "scenes": scenes,
        "flashback": s.flashback.as_deref().map(|t| shown(s, TextRef::Flashback, t)),
        "flashback_flagged": s.is_flagged(TextRef::Flashback),
        "long_term_effects": s.long_term_effects.as_deref().map(|t| shown(s, TextRef::LongTermEffects, t)),
        "long_term_effects_flagged": s.is_flagged(TextRef::LongTermEffects),
        "warnings": s.warnings().iter().map(ToString::to_string).collect::<Vec<_>>(),
        "outline_odds": outline_odds(s),
        "finale_if": finale_if(s),
    })
}

#[cfg(test)]
mod log_lines {
    use super::*;

    #[test]
    fn a_marked_line_reads_plain_or_in_parts() {
        let line = "The check of \u{0}12\u{0}the primary scene (3)\u{0}: 2 dice rolled.";
        assert_eq!(
            plain_line(line),
            "The check of the primary scene (3): 2 dice rolled."
        );
        assert_eq!(
            line_parts(line).unwrap(),
            vec![
                json!("The check of "),
                json!({"scene": 12, "text": "the primary scene (3)"}),
                json!(": 2 dice rolled."),
            ]
        );
        let first = "\u{0}7\u{0}The Finale (4)\u{0} began; the timer runs.";
        assert_eq!(plain_line(first), "The Finale (4) began; the timer runs.");
        assert_eq!(
            line_parts(first).unwrap()[0],
            json!({"scene": 7, "text": "The Finale (4)"})
        );
        assert_eq!(line_parts("Ada joined the table."), None);
    }
}
