//! Snapshots of each game's log lines (and the Challenge rules' export): a whole game is played
//! through the [`Game`] trait with fixed seeds, and every line it logs is compared with the
//! file in `tests/log-lines/`. A line that changes on purpose is written again with
//! `UPDATE_LOG_LINES=1 cargo test -p server log_lines`; the diff is then read in review.

use super::board::BoardGame;
use super::challenge::ChallengeGame;
use super::story::StoryGame;
use crate::game::{Context, Extras as _, Game};
use serde_json::{Value, json};
use std::fmt::Write as _;
use std::path::PathBuf;
use story::Event;
use story::ids::{AspectId, ObjectId, PlayerId, SceneId};
use story::model::TextRef;

/// What a page shows for a thing a line names (`"scene"`, 12): its text, or `None` (the
/// line's words stand in) when flagged or gone.
type Resolve<'a> = &'a dyn Fn(&str, u64) -> Option<String>;

/// Replays `events`, writing each event's line as a page shows it: each thing it names by
/// `resolve`, quoted, else by its words in brackets.
fn lines<G: Game>(state: G::State, events: &[G::Event], out: &mut String) -> G::State {
    resolved_lines::<G>(state, events, &|_, _| None, out)
}

fn resolved_lines<G: Game>(
    mut state: G::State,
    events: &[G::Event],
    resolve: Resolve,
    out: &mut String,
) -> G::State {
    for event in events {
        let line = match G::Extras::describe_parts(&state, event) {
            Some(parts) => parts
                .iter()
                .map(|p| match p {
                    Value::String(text) => text.clone(),
                    Value::Object(thing) => {
                        let (kind, id) = (thing.iter())
                            .find(|(k, _)| *k != "text")
                            .map(|(k, v)| (k.clone(), v.as_u64().unwrap_or(0)))
                            .unwrap_or_default();
                        match resolve(&kind, id) {
                            Some(name) if kind == "object" => name,
                            Some(text) => format!("\u{201c}{text}\u{201d}"),
                            None => format!("[{}]", thing["text"].as_str().unwrap_or("")),
                        }
                    }
                    other => other.to_string(),
                })
                .collect(),
            None => G::describe(&state, event),
        };
        writeln!(out, "{line}").unwrap();
        state = G::evolve(state, event);
    }
    state
}

/// Compares `actual` with `tests/log-lines/{name}`, or writes it there when asked to.
fn assert_snapshot(name: &str, actual: &str) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/log-lines")
        .join(name);
    if std::env::var_os("UPDATE_LOG_LINES").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    if expected != actual {
        let (n, (want, got)) = (expected.lines().zip(actual.lines()))
            .enumerate()
            .find(|(_, (a, b))| a != b)
            .unwrap_or((
                expected.lines().count().min(actual.lines().count()),
                ("", ""),
            ));
        panic!(
            "{} differs from what the game logs now, first at line {}:\n  kept: {want}\n  now:  {got}\n\
             (UPDATE_LOG_LINES=1 writes it again)",
            path.display(),
            n + 1
        );
    }
}

/// Applies an action's events to the state and the log.
fn take<G: Game>(
    state: G::State,
    events: Result<Vec<G::Event>, crate::game::Rejection>,
    out: &mut String,
) -> G::State {
    let events = events.unwrap_or_else(|r| panic!("refused: {r:?}"));
    lines::<G>(state, &events, out)
}

fn context(n: u64) -> Context {
    Context {
        now: 1_790_000_000_000 + i64::try_from(n).unwrap() * 60_000,
        seed: 0x5eed_0000 + n,
    }
}

#[test]
fn the_story_game_s_log_names_what_it_is_about() {
    let stored = include_str!("../../../story/tests/data/game-v1.jsonl");
    let events: Vec<Event> = (stored.lines())
        .map(|line| {
            serde_json::from_str::<story::StoredEvent>(line)
                .unwrap()
                .into_event()
        })
        .collect();
    let mut ignored = String::new();
    let mut events = events;
    let played = lines::<StoryGame>(story::State::default(), &events, &mut ignored);
    // What the stored game does not do: pairs judged and withdrawn, texts changed and removed,
    // a flag (the flagged aspect shows by its words in every line that names it).
    let pair = *played.pairs.keys().next().unwrap();
    let (player, object, aspect) = (PlayerId(2), ObjectId(24), AspectId(3));
    events.extend([
        Event::PairAccepted { pair, by: player },
        Event::PairObjected {
            pair,
            by: PlayerId(3),
        },
        Event::JustificationEdited {
            pair,
            justification: "she knows the guard".into(),
        },
        Event::PairWithdrawn { pair },
        Event::AspectEdited {
            aspect,
            text: "Wren's old trade".into(),
        },
        Event::Flagged {
            target: TextRef::Aspect(AspectId(2)),
        },
        Event::ObjectRenamed {
            object,
            name: "The drowned vault".into(),
        },
        Event::AspectRemoved {
            aspect: AspectId(4),
        },
        Event::ObjectRemoved {
            object: ObjectId(46),
        },
        Event::TimerExtended { minutes: 1 },
        Event::TimerExtended { minutes: 5 },
    ]);
    let end = lines::<StoryGame>(story::State::default(), &events, &mut ignored);
    // As the page has it at the end: objects by name, aspects and objectives by their text.
    let resolve = |kind: &str, id: u64| {
        let id = u32::try_from(id).ok()?;
        let (text, target) = match kind {
            "object" => (
                end.objects.get(&ObjectId(id))?.name.clone(),
                TextRef::ObjectName(ObjectId(id)),
            ),
            "aspect" => (
                end.aspects.get(&AspectId(id))?.text.clone(),
                TextRef::Aspect(AspectId(id)),
            ),
            _ => (
                end.scenes.get(&SceneId(id))?.objective.clone(),
                TextRef::Objective(SceneId(id)),
            ),
        };
        (!end.is_flagged(target)).then_some(text)
    };
    let mut out = String::new();
    resolved_lines::<StoryGame>(story::State::default(), &events, &resolve, &mut out);
    assert_snapshot("story.txt", &out);
}

#[test]
fn the_board_game_s_log_names_cards_items_and_amounts() {
    let mut out = String::new();
    let mut table = super::board::Table::default();
    table = take::<BoardGame>(
        table.clone(),
        BoardGame::join(&table, 1, "Juniper"),
        &mut out,
    );
    for _ in 0..2 {
        let add = BoardGame::act(&table, 1, &json!({"action": "add_bot"}), &context(0));
        table = take::<BoardGame>(table.clone(), add, &mut out);
    }
    let start = BoardGame::act(&table, 1, &json!({"action": "start"}), &context(1));
    table = take::<BoardGame>(table.clone(), start, &mut out);
    // Everyone, Ash too, plays as the bots do, until someone wins or 600 actions pass.
    for n in 2..600 {
        let Some(turn) = table.game.turn() else {
            break;
        };
        let acted = BoardGame::bot_act(&table, turn.player.0, &context(n));
        table = take::<BoardGame>(table.clone(), acted, &mut out);
    }
    assert_snapshot("board.txt", &out);
}

#[test]
fn the_challenge_rules_log_and_export_name_challenges_and_costs() {
    let mut out = String::new();
    let mut state = challenge::State::default();
    let mut n = 0;
    let mut act = |state: challenge::State, player: u32, action: Value, out: &mut String| {
        n += 1;
        let events = ChallengeGame::act(&state, player, &action, &context(n));
        take::<ChallengeGame>(state, events, out)
    };
    for (player, name) in [(1, "Gwen"), (2, "Bo"), (3, "Ana")] {
        state = take::<ChallengeGame>(
            state.clone(),
            ChallengeGame::join(&state, player, name),
            &mut out,
        );
    }
    let sheet = |name: &str| {
        json!({
            "name": name, "concept": "a river pilot",
            "aptitudes": {"knowledge": 1, "awareness": 2, "charisma": 0, "physicality": 1},
            "skills": ["surroundings"], "specialties": [{"skill": "might", "name": "rowing"}],
            "abilities": ""
        })
    };
    state = act(
        state,
        2,
        json!({"action": "create_sheet", "sheet": sheet("Mira")}),
        &mut out,
    );
    state = act(
        state,
        3,
        json!({"action": "create_sheet", "sheet": sheet("Corwin")}),
        &mut out,
    );
    let characters: Vec<u32> = state.characters.iter().map(|c| c.id.0).collect();
    let calls = [
        (
            characters[0],
            "Row across the flood",
            "difficult",
            json!({"aptitude_points": 1}),
        ),
        (
            characters[1],
            "Read the old map",
            "average",
            json!({"aptitude_points": 0}),
        ),
    ];
    for (character, description, situation, choice) in calls {
        let call = json!({
            "action": "call_challenge", "character": character, "description": description,
            "situation": situation, "aptitude": "physicality", "skills": ["might"]
        });
        state = act(state, 1, call, &mut out);
        let challenge = state.challenges.last().unwrap().id;
        let player = if character == characters[0] { 2 } else { 3 };
        let roll = json!({"action": "roll", "challenge": challenge.0, "choice": choice});
        state = act(state, player, roll, &mut out);
    }
    state = act(state, 1, json!({"action": "rest"}), &mut out);
    let fight = json!({
        "action": "record_fight", "description": "Bandits at the ford",
        "cost": "Mira's hammer is lost in the river", "suggested_by": 2
    });
    state = act(state, 1, fight, &mut out);
    state = act(state, 1, json!({"action": "hand_gm", "to": 2}), &mut out);
    state = act(
        state,
        1,
        json!({"action": "remove_player", "player": 3}),
        &mut out,
    );
    assert_snapshot("challenge.txt", &out);
    let (title, markdown) = ChallengeGame::markdown(&state);
    assert_snapshot("challenge-export.md", &format!("{title}\n\n{markdown}"));
}
