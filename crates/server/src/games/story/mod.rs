//! Prophecy, the story game, at the web table: requests from the page become engine commands
//! (with the server's seeds and times), events become log lines, and the state becomes each
//! player's view (see PROTOCOL.md).

use crate::game::{Context, Extras, Game, Link, Rejection, Sharing};
use dice::Seed;
use serde::Deserialize;
use serde_json::{Value, json};
use std::sync::LazyLock;
use story::command::{Action, Command};
use story::content::Library;
use story::ids::{PlayerId, ProposalId, Timestamp};
use story::model::{Motion, Phase, ProphecySource};
use story::{Event, Refusal, Ruleset, State, StoredEvent};

mod log;
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

/// The story game's additions to the common table: anonymous safety tools and lines, log
/// lines naming what players wrote, publishing by proposal, the outline as a picture.
pub struct StoryExtras;

impl Extras<State, Event> for StoryExtras {
    /// An unnamed story is exported under its prophecy's title.
    const EXPORT_KEEPS_ITS_TITLE: bool = true;

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
                | Event::WatchClosed
        )
    }

    fn kept_from_watchers(event: &Event) -> bool {
        // The table's lines name what the group keeps out of its story: not for an audience.
        matches!(event, Event::LineAdded { .. } | Event::LineRemoved { .. })
    }

    fn describe_parts(before: &State, event: &Event) -> Option<Vec<Value>> {
        log::line_parts(&log::describe(before, event))
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

    fn published_markdown(state: &State) -> Option<(String, String)> {
        let (title, _) = StoryGame::markdown(state);
        Some((title, story::export::to_published_markdown(state)))
    }

    /// Publishing and letting watchers in are the table's choice (a proposal); withdrawing and
    /// closing are anyone's, at once.
    fn share(state: &State, link: Link, _player: u32, _creator: u32, open: bool) -> Sharing {
        let (motion, close, is_open) = match link {
            Link::Story => ("publish", "withdraw_story", state.published),
            Link::Watch => ("watch", "close_watch", state.watched),
        };
        if open {
            Sharing::Act(json!({"action": "propose", "motion": {"motion": motion}}))
        } else if is_open {
            Sharing::Act(json!({"action": close}))
        } else {
            // Nothing the table opened (a link from before opening was a proposal, or none):
            // the table layer takes any link away, and the log gains nothing.
            Sharing::Now
        }
    }

    fn publishes(event: &Event) -> Option<(Link, bool)> {
        match event {
            Event::StoryPublished => Some((Link::Story, true)),
            Event::StoryWithdrawn => Some((Link::Story, false)),
            Event::WatchOpened => Some((Link::Watch, true)),
            Event::WatchClosed => Some((Link::Watch, false)),
            _ => None,
        }
    }

    fn outline_svg(state: &State) -> Option<String> {
        story::export::outline_svg(state)
    }
}

impl Game for StoryGame {
    const KIND: &'static str = "story";
    const NAME: &'static str = "Prophecy, the story game";
    const PAGE: &'static str = "story/table.html";
    type State = State;
    type Event = Event;
    type View = StoryView;
    type Extras = StoryExtras;

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
            Request::RollCatastrophe { world } => {
                let world = LIBRARY
                    .world(&world)
                    .ok_or_else(|| Rejection::Malformed(format!("no world '{world}'")))?;
                same_ruleset(state, world.temporal, &world.name)?;
                Action::RollCatastrophe {
                    world: world.clone(),
                    seed: Seed(context.seed),
                }
            }
            Request::PickModule { module } => {
                let module = LIBRARY
                    .module(&module)
                    .ok_or_else(|| Rejection::Malformed(format!("no module '{module}'")))?;
                same_ruleset(state, module.temporal, &module.title)?;
                Action::PickModule {
                    module: module.clone(),
                }
            }
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

    fn describe(before: &State, event: &Event) -> String {
        log::plain_line(&log::describe(before, event))
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

    fn watched(view: &StoryView) -> Option<StoryView> {
        Some(view::watched(view))
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

    /// Beyond replaying: every reference exists, the outline is a tree… (the integrity check).
    fn check_log(log: &[Event]) -> Result<(), String> {
        State::replay_checked(log).map(drop).map_err(|broken| {
            let n = broken.position + 1;
            format!("event {n} could not have happened: {}", broken.problem)
        })
    }

    fn title(state: &State, creator: u32, _created_at: i64) -> String {
        title(state, creator)
    }

    fn stage(state: &State) -> Option<String> {
        Some(state.phase.name_in(state.ruleset).to_owned())
    }

    fn over(state: &State) -> bool {
        state.phase == Phase::Ended
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

/// A world or module is written for Temporal Mechanics or for Prophecy: a table draws only
/// from its own ruleset's (a Temporal catastrophe has already happened; a prophecy's has not).
fn same_ruleset(state: &State, temporal: bool, name: &str) -> Result<(), Rejection> {
    if temporal == state.ruleset.is_temporal() {
        return Ok(());
    }
    let (written_for, here) = if temporal {
        ("Temporal Mechanics", "Prophecy")
    } else {
        ("Prophecy", "Temporal Mechanics")
    };
    Err(Rejection::Refused {
        code: "other_ruleset".into(),
        rule: "The prophecy".into(),
        message: format!("{name} is written for {written_for}; this table plays {here}."),
    })
}

/// The table's name: its module's title, else its world's, else whose table it is.
fn title(state: &State, creator: u32) -> String {
    match state.prophecy.as_ref().map(|p| &p.source) {
        Some(ProphecySource::Module { title }) => title.clone(),
        Some(ProphecySource::Catastrophe { world, .. }) if state.ruleset.is_temporal() => {
            format!("A timeline of {world}")
        }
        Some(ProphecySource::Catastrophe { world, .. }) => format!("A prophecy of {world}"),
        _ => format!(
            "{}\u{2019}s table",
            log::player_name(state, PlayerId(creator))
        ),
    }
}

#[cfg(test)]
mod rulesets {
    use super::*;

    /// A 1.0 table cannot draw a Temporal Mechanics world or scenario, nor the reverse.
    #[test]
    fn a_table_draws_only_from_its_own_ruleset_s_library() {
        let context = Context { now: 0, seed: 1 };
        for (ruleset, temporal) in [("1.0", false), ("temporal", true)] {
            let mut state = State::default();
            let opening = StoryGame::open(&json!({ "ruleset": ruleset })).unwrap();
            for event in &opening {
                state = story::evolve(state, event);
            }
            let joined = StoryGame::join(&state, 1, "Ada").unwrap();
            for event in &joined {
                state = story::evolve(state, event);
            }
            if temporal {
                // Temporal Mechanics' warning is prepared in the Setup, once the flashback is told.
                state.phase = story::model::Phase::Outline;
                state.flashback = Some("The dam broke at noon.".into());
            }
            let other = LIBRARY
                .worlds
                .iter()
                .find(|w| w.temporal != temporal)
                .unwrap();
            let own = LIBRARY
                .worlds
                .iter()
                .find(|w| w.temporal == temporal)
                .unwrap();
            let roll = |slug: &str| json!({"action": "roll_catastrophe", "world": slug});
            match StoryGame::act(&state, 1, &roll(&other.slug), &context) {
                Err(Rejection::Refused { code, message, .. }) => {
                    assert_eq!(code, "other_ruleset");
                    assert!(message.starts_with(&other.name), "{message}");
                }
                other => panic!("{ruleset}: {other:?}"),
            }
            assert!(StoryGame::act(&state, 1, &roll(&own.slug), &context).is_ok());
            let module = LIBRARY
                .modules
                .iter()
                .find(|m| m.temporal != temporal)
                .unwrap();
            let pick = json!({"action": "pick_module", "module": module.slug});
            assert!(matches!(
                StoryGame::act(&state, 1, &pick, &context),
                Err(Rejection::Refused { .. })
            ));
        }
    }
}

#[cfg(test)]
mod own_messages {
    use super::*;
    use story::ids::LineId;

    /// After a whole stored game and the safety tools used by several players, no event
    /// changes what `own` gives a player unless [`StoryExtras::own_may_change`] says it may.
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
            let before: Vec<Value> = (1..=4).map(|p| StoryExtras::own(&state, p)).collect();
            state = story::evolve(state, event);
            let after: Vec<Value> = (1..=4).map(|p| StoryExtras::own(&state, p)).collect();
            if before != after {
                changes += 1;
                assert!(
                    StoryExtras::own_may_change(std::slice::from_ref(event)),
                    "{event:?} changed a player's own"
                );
            }
        }
        assert!(changes >= 4, "{changes} changes of own seen");
    }
}
