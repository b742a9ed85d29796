//! Items in battle (Weapons and Items): which may be used together, their bonuses, thrown
//! weapons, and the exact odds with them.

use crate::encounters::{meet, strength, willpower};
use crate::*;
use board::BattleKind;
use board::refusal::NoThrow;
use dice::Probability;
use dice::opposed::{BattleOdds, BattleOutcome, opposed_odds, three_lives_odds};

fn item(name: &str) -> ItemId {
    ItemId::of(
        content()
            .items
            .iter()
            .position(|i| i.name == name)
            .unwrap_or_else(|| panic!("no Item {name}")),
    )
}

/// [`meet`] the Creature, player 1 carrying these Items.
fn armed(creature: &str, names: &[&str]) -> State {
    let mut state = meet(creature);
    for name in names {
        let id = item(name);
        state.decks.common_items.take(&id);
        state.decks.rare_items.take(&id);
        state.adventurers[0].items.push(id);
    }
    state
}

fn ids(names: &[&str]) -> Vec<ItemId> {
    names.iter().map(|n| item(n)).collect()
}

fn fight_with(kind: BattleKind, names: &[&str]) -> Action {
    fight_using(kind, 7, ids(names))
}

const ALL: [&str; 9] = [
    "Iron Shortsword",
    "Woodsman's Axe",
    "Quarterstaff",
    "Oak Round Shield",
    "Hawthorn Wand",
    "Leather Cap",
    "Pilgrim's Hood",
    "Padded Jerkin",
    "Chainmail Shirt",
];

#[test]
fn strength_bonuses_add_up_and_the_odds_show_them() {
    let state = armed("Hill Wolf", &ALL);
    let s = strength(&state);
    let used = [
        "Iron Shortsword",
        "Oak Round Shield",
        "Leather Cap",
        "Padded Jerkin",
        "Chainmail Shirt",
    ];
    assert_eq!(
        state.battle_odds(P1, BattleKind::Strength, &ids(&used), false),
        Some(opposed_odds(s + 6, 3))
    );
    let (_, events) = play(state, P1, fight_with(BattleKind::Strength, &used));
    let Some(Event::BattleFought {
        rolls,
        outcome,
        items,
        ..
    }) = events.first()
    else {
        panic!("{events:?}")
    };
    assert_eq!(items, &ids(&used));
    let (mine, theirs) = rolls[0];
    let expected = (i32::from(mine) + s + 6).cmp(&(i32::from(theirs) + 3));
    assert_eq!(
        *outcome,
        match expected {
            std::cmp::Ordering::Greater => dice::opposed::BattleOutcome::Win,
            std::cmp::Ordering::Equal => dice::opposed::BattleOutcome::Draw,
            std::cmp::Ordering::Less => dice::opposed::BattleOutcome::Loss,
        }
    );
}

#[test]
fn willpower_bonuses_count_in_a_battle_of_wills() {
    let state = armed("Wisp of the Fen", &ALL);
    let w = willpower(&state);
    let used = ["Quarterstaff", "Pilgrim's Hood", "Chainmail Shirt"];
    assert_eq!(
        state.battle_odds(P1, BattleKind::Wills, &ids(&used), false),
        Some(opposed_odds(w + 2, 2))
    );
    let used = ["Hawthorn Wand", "Oak Round Shield"];
    assert_eq!(
        state.battle_odds(P1, BattleKind::Wills, &ids(&used), false),
        Some(opposed_odds(w + 1, 2))
    );
}

#[test]
fn the_rules_limit_the_items_used_together() {
    let state = armed("Hill Wolf", &ALL);
    let cases: [(&[&str], Refusal); 6] = [
        (&["Iron Shortsword", "Woodsman's Axe"], Refusal::OneWeapon),
        (&["Quarterstaff", "Oak Round Shield"], Refusal::TooManyHands),
        (
            &["Iron Shortsword", "Oak Round Shield", "Hawthorn Wand"],
            Refusal::TooManyHands,
        ),
        (&["Leather Cap", "Pilgrim's Hood"], Refusal::OneHeadwear),
        (
            &["Iron Shortsword", "Iron Shortsword"],
            Refusal::ItemNotCarried,
        ),
        (&["Storm Javelin"], Refusal::ItemNotCarried),
    ];
    for (names, refusal) in cases {
        let got = refused(&state, P1, fight_with(BattleKind::Strength, names));
        assert_eq!(got, refusal, "{names:?}");
        assert_eq!(got.rule(), "Weapons and Items");
        assert_eq!(
            state.battle_odds(P1, BattleKind::Strength, &ids(names), false),
            None
        );
    }
    let mut damaged = state.clone();
    damaged.adventurers[0].damaged.push(item("Padded Jerkin"));
    assert_eq!(
        refused(
            &damaged,
            P1,
            fight_with(BattleKind::Strength, &["Padded Jerkin"])
        ),
        Refusal::DamagedItem
    );
    // Any number of others, and a shield with a wand without a weapon.
    run(
        state,
        P1,
        fight_with(
            BattleKind::Strength,
            &[
                "Oak Round Shield",
                "Hawthorn Wand",
                "Padded Jerkin",
                "Chainmail Shirt",
            ],
        ),
    );
}

/// Each roll of a battle of `Event::BattleFought` agrees with her value `yours` (and `first`
/// more on the first roll) against `theirs`: every roll but the last won, the last the
/// outcome. Over many seeds, a wrong bonus on any roll shows.
fn rolls_agree(events: &[Event], yours: i32, first: i32, theirs: i32) {
    let Some(Event::BattleFought { rolls, outcome, .. }) = events.first() else {
        panic!("{events:?}")
    };
    for (n, &(mine, its)) in rolls.iter().enumerate() {
        let bonus = if n == 0 { first } else { 0 };
        let roll = match (i32::from(mine) + yours + bonus).cmp(&(i32::from(its) + theirs)) {
            std::cmp::Ordering::Greater => BattleOutcome::Win,
            std::cmp::Ordering::Equal => BattleOutcome::Draw,
            std::cmp::Ordering::Less => BattleOutcome::Loss,
        };
        if n + 1 < rolls.len() {
            assert_eq!(roll, BattleOutcome::Win, "roll {n} of {rolls:?}");
        } else {
            assert_eq!(roll, *outcome, "the last of {rolls:?}");
        }
    }
}

/// The events of a command that must be accepted.
fn events_of(state: &State, action: Action) -> Vec<Event> {
    decide(state, Command::new(P1, action.clone()))
        .unwrap_or_else(|r| panic!("{action:?} refused: {r}"))
}

#[test]
fn a_held_throwable_weapon_counts_on_every_roll_and_is_not_damaged() {
    // Deserter Band: Strength 5, three lives. The Storm Javelin: +3 held, +5 thrown.
    let state = armed("Deserter Band", &["Storm Javelin"]);
    let s = strength(&state);
    let javelin = ids(&["Storm Javelin"]);
    assert_eq!(
        state.battle_odds(P1, BattleKind::Strength, &javelin, false),
        Some(three_lives_odds(s + 3, 5))
    );
    let battle = board::encounter::battle(&state, P1, BattleKind::Strength, &javelin, false);
    let battle = battle.unwrap();
    assert_eq!((battle.yours, battle.first_roll_bonus), (s + 3, 0));
    assert_eq!(battle.thrown, None);
    let mut rolled_again = false;
    for seed in 0..100 {
        let events = events_of(
            &state,
            fight_using(BattleKind::Strength, seed, javelin.clone()),
        );
        rolls_agree(&events, s + 3, 0, 5);
        assert!(
            !events
                .iter()
                .any(|e| matches!(e, Event::ItemDamaged { .. })),
            "held, not damaged: {events:?}"
        );
        assert!(matches!(
            events[0],
            Event::BattleFought { thrown: None, .. }
        ));
        rolled_again |= matches!(&events[0], Event::BattleFought { rolls, .. } if rolls.len() > 1);
    }
    assert!(rolled_again, "some battles go past the first roll");
    let (after, _) = play(
        state,
        P1,
        fight_using(BattleKind::Strength, 7, javelin.clone()),
    );
    assert!(after.adventurer(P1).unwrap().damaged.is_empty());
    assert_eq!(after.adventurer(P1).unwrap().items, javelin);
}

#[test]
fn a_thrown_weapon_gives_its_thrown_bonus_on_the_first_roll_only_and_is_damaged() {
    let state = armed("Deserter Band", &["Storm Javelin"]);
    let s = strength(&state);
    let javelin = ids(&["Storm Javelin"]);
    let odds = state
        .battle_odds(P1, BattleKind::Strength, &javelin, true)
        .unwrap();
    let first = opposed_odds(s + 5, 5);
    let rest = opposed_odds(s, 5);
    assert_eq!(odds.win, &(&first.win * &rest.win) * &rest.win);
    let BattleOdds { win, draw, loss } = odds;
    assert_eq!(&(&win + &draw) + &loss, Probability::one());
    let mut rolled_again = false;
    for seed in 0..100 {
        let events = events_of(
            &state,
            fight_throwing(BattleKind::Strength, seed, javelin.clone()),
        );
        rolls_agree(&events, s, 5, 5);
        assert!(matches!(
            events[0],
            Event::BattleFought { thrown: Some(t), .. } if t == javelin[0]
        ));
        assert_eq!(
            events[1],
            Event::ItemDamaged {
                player: P1,
                item: javelin[0]
            },
            "damaged whatever the outcome"
        );
        rolled_again |= matches!(&events[0], Event::BattleFought { rolls, .. } if rolls.len() > 1);
    }
    assert!(rolled_again, "some battles go past the first roll");

    // One life: the thrown bonus on the only roll. The Hunting Knife: +1 held, +2 thrown.
    let state = armed("Hill Wolf", &["Hunting Knife"]);
    let s = strength(&state);
    let knife = ids(&["Hunting Knife"]);
    assert_eq!(
        state.battle_odds(P1, BattleKind::Strength, &knife, true),
        Some(opposed_odds(s + 2, 3))
    );
    assert_eq!(
        state.battle_odds(P1, BattleKind::Strength, &knife, false),
        Some(opposed_odds(s + 1, 3))
    );
    let (after, _) = play(
        state,
        P1,
        fight_throwing(BattleKind::Strength, 7, knife.clone()),
    );
    assert_eq!(after.adventurer(P1).unwrap().damaged, knife);
}

#[test]
fn throwing_without_a_throwable_weapon_or_in_a_battle_of_wills_is_refused() {
    let nothing = Refusal::CannotThrow {
        why: NoThrow::NothingThrowable,
    };
    let state = armed(
        "Hill Wolf",
        &["Iron Shortsword", "Hunting Knife", "Leather Cap"],
    );
    for names in [
        &[][..],
        &["Iron Shortsword"],
        &["Iron Shortsword", "Leather Cap"],
    ] {
        let action = fight_throwing(BattleKind::Strength, 7, ids(names));
        assert_eq!(refused(&state, P1, action), nothing, "{names:?}");
        assert_eq!(
            state.battle_odds(P1, BattleKind::Strength, &ids(names), true),
            None
        );
    }
    let words = nothing.to_string();
    assert!(words.contains("can be thrown"), "{words}");
    // Wisp of the Fen: Willpower only. Bone Magus: Willpower first, a Battle of Wills only.
    for creature in ["Wisp of the Fen", "Bone Magus"] {
        let state = armed(creature, &["Hunting Knife"]);
        let action = fight_throwing(BattleKind::Wills, 7, ids(&["Hunting Knife"]));
        let refusal = refused(&state, P1, action);
        assert_eq!(
            refusal,
            Refusal::CannotThrow {
                why: NoThrow::BattleOfWills
            },
            "{creature}"
        );
        assert_eq!(refusal.code(), "cannot_throw");
        assert_eq!(refusal.rule(), "Weapons and Items");
        assert!(
            refusal.to_string().contains("Battle of Strength"),
            "{refusal}"
        );
        // Held, the same Items are fine.
        let held = fight_using(BattleKind::Wills, 7, ids(&["Hunting Knife"]));
        events_of(&state, held);
    }
}

#[test]
fn against_wills_then_strength_the_items_serve_in_both_battles() {
    // Drowned Priest: Willpower 5, then Strength 3. A Quarterstaff: +1 in each; a Boar Spear
    // thrown is held in the Battle of Wills and thrown in the Battle of Strength.
    let state = armed("Drowned Priest", &["Quarterstaff", "Boar Spear"]);
    let (w, s) = (willpower(&state), strength(&state));
    let staff = ids(&["Quarterstaff"]);
    let (first, second) = (opposed_odds(w + 1, 5), opposed_odds(s + 1, 3));
    assert_eq!(
        state.battle_odds(P1, BattleKind::Wills, &staff, false),
        Some(BattleOdds {
            win: &first.win * &second.win,
            draw: &first.draw + &(&first.win * &second.draw),
            loss: &first.loss + &(&first.win * &second.loss),
        })
    );
    let spear = ids(&["Boar Spear"]);
    let battle = board::encounter::battle(&state, P1, BattleKind::Wills, &spear, true).unwrap();
    let then = battle.then.unwrap();
    assert_eq!(
        (battle.yours, battle.first_roll_bonus, battle.thrown),
        (w, 0, None)
    );
    assert_eq!(
        (then.yours, then.first_roll_bonus, then.thrown),
        (s, 4, Some(spear[0]))
    );
    let held = board::encounter::battle(&state, P1, BattleKind::Wills, &spear, false).unwrap();
    let then = held.then.unwrap();
    assert_eq!(
        (then.yours, then.first_roll_bonus, then.thrown),
        (s + 2, 0, None)
    );
    let fought = |seed: u64, throw: bool| {
        let action = if throw {
            fight_throwing(BattleKind::Wills, seed, spear.clone())
        } else {
            fight_using(BattleKind::Wills, seed, spear.clone())
        };
        let events = decide(&state, Command::new(P1, action)).unwrap();
        let battles = events
            .iter()
            .filter(|e| matches!(e, Event::BattleFought { .. }))
            .count();
        let damaged = events
            .iter()
            .any(|e| matches!(e, Event::ItemDamaged { .. }));
        (battles, damaged)
    };
    let outcomes: Vec<(usize, bool)> = (0..200).map(|seed| fought(seed, true)).collect();
    assert!(
        outcomes.contains(&(1, false)),
        "lost the Battle of Wills: held"
    );
    assert!(outcomes.contains(&(2, true)), "fought both: thrown");
    assert!(outcomes.iter().all(|&(n, d)| (n == 2) == d));
    // Held in both battles: never damaged.
    let outcomes: Vec<(usize, bool)> = (0..200).map(|seed| fought(seed, false)).collect();
    assert!(outcomes.contains(&(2, false)), "fought both, held");
    assert!(outcomes.iter().all(|&(_, d)| !d));
}
