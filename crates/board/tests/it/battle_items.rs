//! Items in battle (Weapons and Items): which may be used together, their bonuses, thrown
//! weapons, and the exact odds with them.

use crate::encounters::{meet, strength, willpower};
use crate::*;
use board::BattleKind;
use dice::Probability;
use dice::opposed::{BattleOdds, opposed_odds};

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
        state.battle_odds(P1, BattleKind::Strength, &ids(&used)),
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
        state.battle_odds(P1, BattleKind::Wills, &ids(&used)),
        Some(opposed_odds(w + 2, 2))
    );
    let used = ["Hawthorn Wand", "Oak Round Shield"];
    assert_eq!(
        state.battle_odds(P1, BattleKind::Wills, &ids(&used)),
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
            state.battle_odds(P1, BattleKind::Strength, &ids(names)),
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

#[test]
fn a_thrown_weapon_counts_on_the_first_roll_and_is_damaged() {
    let state = armed("Hill Wolf", &["Hunting Knife"]);
    let s = strength(&state);
    let knife = ids(&["Hunting Knife"]);
    assert_eq!(
        state.battle_odds(P1, BattleKind::Strength, &knife),
        Some(opposed_odds(s + 1, 3))
    );
    let (after, events) = play(
        state,
        P1,
        fight_with(BattleKind::Strength, &["Hunting Knife"]),
    );
    assert_eq!(
        events[1],
        Event::ItemDamaged {
            player: P1,
            item: knife[0]
        }
    );
    assert_eq!(after.adventurer(P1).unwrap().damaged, knife);
}

#[test]
fn three_lives_odds_with_a_thrown_weapon() {
    let state = armed("Deserter Band", &["Storm Javelin"]);
    let s = strength(&state);
    let javelin = ids(&["Storm Javelin"]);
    let odds = state
        .battle_odds(P1, BattleKind::Strength, &javelin)
        .unwrap();
    let first = opposed_odds(s + 3, 5);
    let rest = opposed_odds(s, 5);
    assert_eq!(odds.win, &(&first.win * &rest.win) * &rest.win);
    let BattleOdds { win, draw, loss } = odds;
    assert_eq!(&(&win + &draw) + &loss, Probability::one());
}

#[test]
fn against_wills_then_strength_the_items_serve_in_both_battles() {
    // Drowned Priest: Willpower 5, then Strength 3. A Quarterstaff: +1 in each; a Boar Spear is
    // held in the Battle of Wills and thrown in the Battle of Strength.
    let state = armed("Drowned Priest", &["Quarterstaff", "Boar Spear"]);
    let (w, s) = (willpower(&state), strength(&state));
    let staff = ids(&["Quarterstaff"]);
    let (first, second) = (opposed_odds(w + 1, 5), opposed_odds(s + 1, 3));
    assert_eq!(
        state.battle_odds(P1, BattleKind::Wills, &staff),
        Some(BattleOdds {
            win: &first.win * &second.win,
            draw: &first.draw + &(&first.win * &second.draw),
            loss: &first.loss + &(&first.win * &second.loss),
        })
    );
    let spear = ids(&["Boar Spear"]);
    let fought = |seed: u64| {
        let action = fight_using(BattleKind::Wills, seed, spear.clone());
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
    let outcomes: Vec<(usize, bool)> = (0..200).map(fought).collect();
    assert!(
        outcomes.contains(&(1, false)),
        "lost the Battle of Wills: held"
    );
    assert!(outcomes.contains(&(2, true)), "fought both: thrown");
    assert!(outcomes.iter().all(|&(n, d)| (n == 2) == d));
}
