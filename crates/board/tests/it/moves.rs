//! Moving Your Character: every kind and its refusals; and passing the turn.

use crate::*;
use board::MoveKind;
use board::content::ChanceKind;
use board::model::{Gold, Step};

/// Player 1 at `space` with `gold`, her Chance card (Plains) drawn.
fn ready(space: usize, gold: u32) -> State {
    let plains = chance(&content(), |k| matches!(k, ChanceKind::Terrain(_)));
    let mut state = game(vec![plains; 10]);
    state.adventurers[0].space = SpaceId::of(space);
    state.adventurers[0].gold = Gold(gold);
    run(state, P1, draw(0))
}

fn moved(space: usize, gold: u32, how: MoveKind) -> (SpaceId, Gold) {
    let state = run(ready(space, gold), P1, Action::Move(how));
    let a = state.adventurer(P1).unwrap();
    // A Creature where the move ends must be fought next (see `encounters`).
    assert!(matches!(
        state.turn().unwrap().step,
        Step::Moved | Step::Battle
    ));
    (a.space, a.gold)
}

fn refuse(space: usize, gold: u32, how: MoveKind) -> Refusal {
    let refusal = refused(&ready(space, gold), P1, Action::Move(how));
    assert_eq!(refusal.rule(), "Moving Your Character");
    refusal
}

#[test]
fn stay_walk_and_horse() {
    let n = content().board.spaces.len();
    assert_eq!(moved(4, 3, MoveKind::Stay), (SpaceId(4), Gold(3)));
    assert_eq!(
        moved(4, 0, MoveKind::Walk { clockwise: true }),
        (SpaceId(5), Gold(0))
    );
    assert_eq!(
        moved(4, 0, MoveKind::Walk { clockwise: false }),
        (SpaceId(3), Gold(0))
    );
    assert_eq!(
        moved(0, 0, MoveKind::Walk { clockwise: false }),
        (SpaceId::of(n - 1), Gold(0))
    );
    assert_eq!(
        moved(4, 3, MoveKind::Horse { clockwise: true }),
        (SpaceId(6), Gold(2))
    );
    assert_eq!(
        moved(1, 1, MoveKind::Horse { clockwise: false }),
        (SpaceId::of(n - 1), Gold(0))
    );
    assert_eq!(
        refuse(4, 0, MoveKind::Horse { clockwise: true }),
        Refusal::NotEnoughGold {
            cost: Gold(1),
            has: Gold(0)
        }
    );
}

#[test]
fn boats_sail_between_ports() {
    let ports = content().board.ports();
    let (first, second, last) = (ports[0], ports[1], *ports.last().unwrap());
    assert_eq!(
        moved(first, 2, MoveKind::Boat { clockwise: true }),
        (SpaceId::of(second), Gold(1))
    );
    assert_eq!(
        moved(first, 1, MoveKind::Boat { clockwise: false }),
        (SpaceId::of(last), Gold(0))
    );
    assert_eq!(
        moved(last, 1, MoveKind::Boat { clockwise: true }),
        (SpaceId::of(first), Gold(0))
    );
    let inland = (0..).find(|i| !ports.contains(i)).unwrap();
    assert_eq!(
        refuse(inland, 3, MoveKind::Boat { clockwise: true }),
        Refusal::NotAPort
    );
    assert_eq!(
        refuse(first, 0, MoveKind::Boat { clockwise: true }),
        Refusal::NotEnoughGold {
            cost: Gold(1),
            has: Gold(0)
        }
    );
}

#[test]
fn magic_gates_lead_to_any_other_gate() {
    let gates = content().board.magic_gates();
    let (a, b) = (gates[0], gates[gates.len() - 1]);
    let to = |i| MoveKind::MagicGate { to: SpaceId::of(i) };
    assert_eq!(moved(a, 3, to(b)), (SpaceId::of(b), Gold(1)));
    assert_eq!(moved(b, 2, to(a)), (SpaceId::of(a), Gold(0)));
    let plain = (0..).find(|i| !gates.contains(i)).unwrap();
    assert_eq!(refuse(plain, 3, to(a)), Refusal::NotAMagicGate);
    assert_eq!(refuse(a, 3, to(a)), Refusal::NotAnotherMagicGate);
    assert_eq!(refuse(a, 3, to(plain)), Refusal::NotAnotherMagicGate);
    assert_eq!(
        refuse(a, 1, to(b)),
        Refusal::NotEnoughGold {
            cost: Gold(2),
            has: Gold(1)
        }
    );
}

#[test]
fn one_move_per_turn_after_the_chance_card() {
    let walk = Action::Move(MoveKind::Walk { clockwise: true });
    let fresh = game(vec![ChanceId(0); 5]);
    assert_eq!(refused(&fresh, P1, walk.clone()), Refusal::DrawChanceFirst);
    assert_eq!(refused(&fresh, P2, draw(0)), Refusal::NotYourTurn);
    assert_eq!(refused(&fresh, PlayerId(9), draw(0)), Refusal::NotAPlayer);
    let state = run(ready(4, 3), P1, walk.clone());
    let refusal = refused(&state, P1, walk);
    assert_eq!(refusal, Refusal::AlreadyMoved);
    assert_eq!(refusal.rule(), "Moving Your Character");
    assert_eq!(refusal.to_string(), "You may move only once per turn.");
}

#[test]
fn the_turn_passes_to_the_left_and_around() {
    let state = game(vec![ChanceId(0); 10]);
    assert_eq!(
        refused(&state, P1, Action::EndTurn),
        Refusal::DrawChanceFirst
    );
    let state = run(state, P1, draw(0));
    // Ending without moving is staying.
    let (state, events) = play(state, P1, Action::EndTurn);
    assert_eq!(
        events,
        vec![Event::TurnEnded {
            player: P1,
            next: P2,
            extra: false
        }]
    );
    let state = run(run(state, P2, draw(0)), P2, Action::EndTurn);
    assert_eq!(state.turn().unwrap().player, P3);
    let state = run(run(state, P3, draw(0)), P3, Action::EndTurn);
    let turn = state.turn().unwrap();
    assert_eq!((turn.player, turn.step), (P1, Step::DrawChance));
}
