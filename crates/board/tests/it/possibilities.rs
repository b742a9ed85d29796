//! The spaces' Possibilities: recovering lost Health and Magic after moving, and the
//! Possibilities instead of movement.

use crate::*;
use board::MoveKind;
use board::content::{Guild, SpaceKind};
use board::model::{Cubes, Experience, Gold};

fn space_of(state: &State, kind: SpaceKind) -> SpaceId {
    SpaceId::of(
        state
            .content
            .board
            .spaces
            .iter()
            .position(|s| s.kind == kind)
            .unwrap(),
    )
}

/// Player 1 at a space of `kind` with 3 Health and 3 Magic, 2 of each lost, and `gold` Gold, the Chance
/// card (a terrain card) drawn, having walked there from the space before it (or stayed).
fn at(kind: SpaceKind, gold: u32, stay: bool) -> State {
    let content = content();
    let terrain = chance(&content, |k| matches!(k, ChanceKind::Terrain(_)));
    let mut state = game(vec![terrain; 10]);
    let target = space_of(&state, kind);
    let n = state.content.board.spaces.len();
    state.adventurers[0].space = if stay {
        target
    } else {
        SpaceId::of((target.index() + n - 1) % n)
    };
    let a = &mut state.adventurers[0];
    a.gold = Gold(gold);
    a.health = Cubes { right: 3, left: 2 };
    a.magic = Cubes { right: 3, left: 2 };
    let state = run(state, P1, draw(0));
    let how = if stay {
        MoveKind::Stay
    } else {
        MoveKind::Walk { clockwise: true }
    };
    let state = run(state, P1, Action::Move(how));
    assert_eq!(state.adventurer(P1).unwrap().space, target);
    state
}

fn recover(amount: u32) -> Action {
    Action::Recover { amount }
}

fn cubes(state: &State) -> (u32, u32, u32) {
    let a = state.adventurer(P1).unwrap();
    (a.health.left, a.magic.left, a.gold.0)
}

#[test]
fn monastery_heals_one_health_free_once_per_turn() {
    let state = at(SpaceKind::Guild(Guild::Monastery), 0, false);
    assert_eq!(
        refused(&state, P1, recover(2)),
        Refusal::RecoveryAmount { most: 1 }
    );
    let (state, events) = play(state, P1, recover(1));
    assert!(matches!(
        events[..],
        [Event::Recovered {
            healed: 1,
            recharged: 0,
            paid: Gold(0),
            ..
        }]
    ));
    assert_eq!(cubes(&state), (1, 2, 0));
    let refusal = refused(&state, P1, recover(1));
    assert_eq!(refusal, Refusal::RecoveredThisTurn);
    assert_eq!(refusal.rule(), "Recovering Lost Health and Magic");
}

#[test]
fn forest_camp_heals_any_number_for_gold() {
    let state = at(SpaceKind::Guild(Guild::ForestCamp), 1, false);
    assert_eq!(
        refused(&state, P1, recover(2)),
        Refusal::RecoveryGold {
            cost: Gold(2),
            has: Gold(1)
        }
    );
    assert_eq!(
        refused(&state, P1, recover(3)),
        Refusal::RecoveryAmount { most: 2 }
    );
    let state = run(state, P1, recover(1));
    assert_eq!(cubes(&state), (1, 2, 0));
    let state = at(SpaceKind::Guild(Guild::ForestCamp), 5, false);
    let state = run(state, P1, recover(1));
    let state = run(state, P1, recover(1));
    assert_eq!(cubes(&state), (0, 2, 3));
    assert_eq!(
        refused(&state, P1, recover(1)),
        Refusal::RecoveryAmount { most: 0 }
    );
}

#[test]
fn enchanted_wilderness_recharges_up_to_three_free_once() {
    let state = at(SpaceKind::EnchantedWilderness, 0, false);
    assert_eq!(
        refused(&state, P1, recover(3)),
        Refusal::RecoveryAmount { most: 2 }
    );
    let state = run(state, P1, recover(2));
    assert_eq!(cubes(&state), (2, 0, 0));
    assert_eq!(refused(&state, P1, recover(1)), Refusal::RecoveredThisTurn);
}

#[test]
fn magic_tower_recharges_for_a_gold_per_two_rounded_up() {
    let state = at(SpaceKind::Guild(Guild::MagicTower), 3, false);
    let state2 = run(state.clone(), P1, recover(2));
    assert_eq!(cubes(&state2), (2, 0, 2));
    let state1 = run(state, P1, recover(1));
    assert_eq!(cubes(&state1), (2, 1, 2));
    let state0 = at(SpaceKind::Guild(Guild::MagicTower), 0, false);
    assert_eq!(
        refused(&state0, P1, recover(1)),
        Refusal::RecoveryGold {
            cost: Gold(1),
            has: Gold(0)
        }
    );
}

#[test]
fn village_tavern_heals_and_recharges_one_for_a_gold_once() {
    let state = at(SpaceKind::Village, 2, false);
    let state = run(state, P1, recover(1));
    assert_eq!(cubes(&state), (1, 1, 1));
    assert_eq!(refused(&state, P1, recover(1)), Refusal::RecoveredThisTurn);
}

#[test]
fn recovering_needs_the_right_space_and_a_move() {
    let state = at(SpaceKind::City, 5, false);
    assert_eq!(refused(&state, P1, recover(1)), Refusal::NoRecoveryHere);
    let content = content();
    let terrain = chance(&content, |k| matches!(k, ChanceKind::Terrain(_)));
    let mut state = game(vec![terrain; 10]);
    state.adventurers[0].space = space_of(&state, SpaceKind::Guild(Guild::Monastery));
    let state = run(state, P1, draw(0));
    assert_eq!(refused(&state, P1, recover(1)), Refusal::MoveFirst);
}

#[test]
fn city_trades_one_magic_for_two_gold_when_staying() {
    let state = at(SpaceKind::City, 0, true);
    let (state, events) = play(state, P1, Action::Trade);
    assert!(matches!(
        events[..],
        [Event::Traded {
            health: 0,
            magic: 1,
            gold: Gold(2),
            experience: Experience(0),
            ..
        }]
    ));
    assert_eq!(cubes(&state), (2, 3, 2));
    let refusal = refused(&state, P1, Action::Trade);
    assert_eq!(refusal, Refusal::PossibilityUsed);
    assert_eq!(refusal.rule(), "Possibilities Instead of Movement");
}

#[test]
fn possibilities_instead_of_movement_need_staying() {
    let state = at(SpaceKind::City, 0, false);
    assert_eq!(refused(&state, P1, Action::Trade), Refusal::StayFirst);
    let state = at(SpaceKind::Village, 0, true);
    assert_eq!(
        refused(&state, P1, Action::Trade),
        Refusal::NoPossibilityHere
    );
}

/// The rules kill a character only when she must lose Health and has none: a trade may spend
/// the last one, and with none left it is refused, as a card's price would be.
#[test]
fn thieves_guild_and_fortress_spend_health_down_to_the_last() {
    let state = run(
        at(SpaceKind::Guild(Guild::ThievesGuild), 0, true),
        P1,
        Action::Trade,
    );
    assert_eq!(cubes(&state), (3, 2, 3));
    let state = run(
        at(SpaceKind::Guild(Guild::Fortress), 0, true),
        P1,
        Action::Trade,
    );
    assert_eq!(cubes(&state), (3, 2, 0));
    assert_eq!(state.adventurer(P1).unwrap().experience, Experience(5));
    let mut last = at(SpaceKind::Guild(Guild::Fortress), 0, true);
    last.adventurers[0].health = Cubes { right: 1, left: 4 };
    let after = run(last.clone(), P1, Action::Trade);
    let her = after.adventurer(P1).unwrap();
    assert_eq!((her.health, her.alive), (Cubes { right: 0, left: 5 }, true));
    assert_eq!(her.experience, Experience(5));
    let mut none = last;
    none.adventurers[0].health = Cubes { right: 0, left: 5 };
    let refusal = refused(&none, P1, Action::Trade);
    assert_eq!(refusal, Refusal::NoHealthToSpend);
    assert_eq!(refusal.to_string(), "You have no Health to spend.");
}
