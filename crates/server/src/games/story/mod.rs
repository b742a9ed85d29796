//! Prophecy, the story game, at the web table: requests from the page become engine commands
//! (with the server's seeds and times), events become log lines, and the state becomes each
//! player's view (see PROTOCOL.md).

use crate::game::{Context, Game, Rejection, Sharing};
use dice::Seed;
use serde::Deserialize;
use serde_json::{Value, json};
use std::sync::LazyLock;
use story::command::{Action, Command};
use story::content::Library;
use story::ids::{ObjectId, PlayerId, ProposalId, SceneId, Timestamp};
use story::model::{Motion, ObjectKind, Phase, ProphecySource, Timed};
use story::{Event, Refusal, Ruleset, State, StoredEvent};

mod view;

pub use view::StoryView;

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
    type View = StoryView;

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
        // Most actions are the engine's as they are: read as such at once (through `Request`,
        // its untagged variant copies the whole action twice before reading it).
        let name = action.get("action").and_then(Value::as_str);
        let request = match name {
            Some("roll_catastrophe" | "pick_module" | "propose" | "agree") | None => {
                Request::deserialize(action)
            }
            Some(_) => Action::deserialize(action).map(Request::Engine),
        };
        let action = match request.map_err(|_| malformed(action))? {
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
                | Event::StoryWithdrawn
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

    fn view(state: &State, creator: u32) -> StoryView {
        view::view(state, creator)
    }

    fn view_after(
        state: &State,
        creator: u32,
        previous: &StoryView,
        events: &[Event],
    ) -> StoryView {
        view::view_after(state, creator, previous, events)
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

    fn own_may_change(events: &[Event]) -> bool {
        // `own` reads only the lines' authors and who used the X-card.
        events.iter().any(|e| {
            matches!(
                e,
                Event::LineAdded { .. }
                    | Event::LineRemoved { .. }
                    | Event::TablePaused { .. }
                    | Event::TableResumed
            )
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

    fn published_markdown(state: &State) -> (String, String) {
        let (title, _) = Self::markdown(state);
        (title, story::export::to_published_markdown(state))
    }

    /// Publishing is the table's choice (a proposal); withdrawing is anyone's, at once.
    fn share(state: &State, _player: u32, _creator: u32, publish: bool) -> Sharing {
        if publish {
            Sharing::Act(json!({"action": "propose", "motion": {"motion": "publish"}}))
        } else if state.published {
            Sharing::Act(json!({"action": "withdraw_story"}))
        } else {
            // Nothing the table published (a link from before publishing was a proposal, or
            // none): the table layer takes any link away, and the log gains nothing.
            Sharing::Now
        }
    }

    fn publishes(event: &Event) -> Option<bool> {
        match event {
            Event::StoryPublished => Some(true),
            Event::StoryWithdrawn => Some(false),
            _ => None,
        }
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

/// What a motion asks, as a verb phrase naming the phase or the player it is about.
fn motion_words(state: &State, motion: Motion) -> String {
    match motion {
        Motion::Advance { to } => format!("move on to {}", to.name_in(state.ruleset)),
        Motion::ChooseModerator { player: Some(p) } => {
            format!("make {} the moderator", player_name(state, p))
        }
        other => other.to_string(),
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
                other => motion_words(s, *other),
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
        Event::StoryPublished => {
            "The story is published as a read-only page: its link is with the story.".into()
        }
        Event::StoryWithdrawn => "The story's read-only page was withdrawn.".into(),
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

#[cfg(test)]
mod own_messages {
    use super::*;
    use story::ids::LineId;

    /// After a whole stored game and the safety tools used by several players, no event
    /// changes what `own` gives a player unless [`StoryGame::own_may_change`] says it may.
    #[test]
    fn every_event_that_changes_a_player_s_own_says_so() {
        let stored = include_str!("../../../../story/tests/data/game-v1.jsonl");
        let mut events: Vec<Event> = (stored.lines())
            .map(|line| {
                serde_json::from_str::<story::StoredEvent>(line)
                    .unwrap()
                    .into_event()
            })
            .collect();
        let by = |p| Some(PlayerId(p));
        events.extend([
            Event::LineAdded {
                line: LineId(7),
                text: "spiders".into(),
                by: by(2),
            },
            Event::TablePaused { by: by(3) },
            Event::TableResumed,
            Event::TablePaused { by: None },
            Event::TableResumed,
            Event::LineRemoved { line: LineId(7) },
            Event::LineAdded {
                line: LineId(8),
                text: "drowning".into(),
                by: None,
            },
        ]);
        let mut state = State::default();
        let mut changes = 0;
        for event in &events {
            let before: Vec<Value> = (1..=4).map(|p| StoryGame::own(&state, p)).collect();
            state = story::evolve(state, event);
            let after: Vec<Value> = (1..=4).map(|p| StoryGame::own(&state, p)).collect();
            if before != after {
                changes += 1;
                assert!(
                    StoryGame::own_may_change(std::slice::from_ref(event)),
                    "{event:?} changed a player's own"
                );
            }
        }
        assert!(changes >= 4, "{changes} changes of own seen");
    }
}
