//! A game is its events: replaying them (also after a trip through JSON) gives the live state.

use crate::*;
use board::model::Step;
use board::{BattleKind, MoveKind};

/// A scripted game of three: a few rounds of drawing, moving and ending turns.
pub fn scripted(seed: u64) -> (State, Vec<Event>) {
    let mut state = State::new(content());
    let mut log = Vec::new();
    let seats = vec![
        (P1, "Ada".to_owned()),
        (P2, "Bo".to_owned()),
        (P3, "Cy".to_owned()),
    ];
    let mut step = |state: State, by: PlayerId, action: Action| {
        let (state, events) = play(state, by, action);
        log.extend(events);
        state
    };
    state = step(
        state,
        P1,
        Action::SetUp {
            seats,
            seed: Seed(seed),
        },
    );
    for round in 0..40u64 {
        let Some(turn) = state.turn() else {
            break;
        };
        let by = turn.player;
        if !turn.extra {
            state = step(state, by, draw(seed ^ round));
        }
        let how = match round % 3 {
            0 => MoveKind::Walk { clockwise: true },
            1 => MoveKind::Horse { clockwise: false },
            _ => MoveKind::Stay,
        };
        let how = if decide(&state, Command::new(by, Action::Move(how))).is_ok() {
            how
        } else {
            MoveKind::Stay
        };
        state = step(state, by, Action::Move(how));
        if state.turn().unwrap().step == Step::Battle {
            let seed = Seed(seed ^ round ^ 0xB);
            let fight = |kind| fight_using(kind, seed.0, vec![]);
            let kind = if decide(&state, Command::new(by, fight(BattleKind::Strength))).is_ok() {
                BattleKind::Strength
            } else {
                BattleKind::Wills
            };
            state = step(state, by, fight(kind));
        } else if round % 2 == 0 {
            let use_it = use_opportunity(round);
            if decide(&state, Command::new(by, use_it.clone())).is_ok() {
                state = step(state, by, use_it);
            }
        }
        match state.turn() {
            Some(turn) if turn.player == by => state = step(state, by, Action::EndTurn),
            Some(_) => {}
            None => break,
        }
    }
    (state, log)
}

#[test]
fn replay_gives_the_live_state() {
    let (live, log) = scripted(7);
    assert!(log.len() > 100);
    assert!(
        log.iter().any(|e| matches!(e, Event::BattleFought { .. })),
        "the scripted game has battles"
    );
    assert_eq!(State::replay(content(), &log), live);
    let json = serde_json::to_string(&log).unwrap();
    // The set-up's fields are written beside its type, as every other event's.
    let set_up = serde_json::to_value(&log[0]).unwrap();
    assert_eq!(set_up["type"], "game_set_up");
    assert!(
        set_up["adventure_deck"]
            .as_array()
            .is_some_and(|d| !d.is_empty())
    );
    let back: Vec<Event> = serde_json::from_str(&json).unwrap();
    assert_eq!(back, log);
    assert_eq!(State::replay(content(), &back), live);
    assert_eq!(live.version, log.len() as u64);
}

#[test]
fn the_same_seeds_give_the_same_game() {
    assert_eq!(scripted(11).1, scripted(11).1);
    assert_ne!(scripted(11).1, scripted(12).1);
}
