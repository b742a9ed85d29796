//! The player's choices in the commands that play a card: the direction of `move_one_space`
//! (`clockwise`) and the Item `lose_item` takes (`lose_item`), their defaults, and the refusal
//! of a choice that is not hers to make.

use crate::encounters::{card, fight, me, outcome_seed, strength, terrain};
use crate::*;
use board::content::ChanceKind;
use board::model::{Cubes, Gold, Step};
use board::{BattleKind, MoveKind};
use dice::opposed::BattleOutcome;

/// A game of three, winds as Chance cards, player 1's Chance card drawn, `name` lying on space
/// `at` and player 1 standing there, having stayed (so she meets it).
fn standing_on(name: &str, at: usize) -> State {
    let wind = chance(&content(), |k| matches!(k, ChanceKind::Wind { .. }));
    let mut state = run(game(vec![wind; 30]), P1, draw(0));
    let id = card(name);
    state.decks.adventure.take(&id);
    state.spaces[at].adventure = Some(id);
    state.adventurers[0].space = SpaceId::of(at);
    run(state, P1, Action::Move(MoveKind::Stay))
}

/// Gives player 1 the first `n` Common Items (taken from the deck), in that order.
fn give_items(state: &mut State, n: usize) -> Vec<ItemId> {
    let items: Vec<ItemId> = state.decks.common_items.draw.drain(..n).collect();
    state.adventurers[0].items.extend(&items);
    items
}

fn opportunity(clockwise: Option<bool>, lose_item: Option<ItemId>) -> Action {
    Action::UseOpportunity {
        seed: Seed(0),
        clockwise,
        lose_item,
    }
}

fn fight_choosing(seed: u64, clockwise: Option<bool>, lose_item: Option<ItemId>) -> Action {
    Action::Fight {
        kind: BattleKind::Strength,
        seed: Seed(seed),
        items: vec![],
        throw: false,
        clockwise,
        lose_item,
    }
}

fn moved(events: &[Event]) -> Option<(bool, usize)> {
    events.iter().find_map(|e| match e {
        Event::MovedOneSpace { clockwise, to, .. } => Some((*clockwise, to.index())),
        _ => None,
    })
}

#[test]
fn move_one_space_goes_the_way_she_chooses_clockwise_by_default() {
    let at = 13; // Windswept Steppe, between the Magic Tower and Larkwood.
    let state = standing_on("Traveller's Shortcut", at);
    let (after, events) = play(state.clone(), P1, opportunity(Some(false), None));
    assert_eq!(moved(&events), Some((false, at - 1)));
    assert_eq!(me(&after).space, SpaceId::of(at - 1));
    let (after, events) = play(state.clone(), P1, opportunity(None, None));
    assert_eq!(moved(&events), Some((true, at + 1)));
    assert_eq!(me(&after).space, SpaceId::of(at + 1));
    assert_eq!(
        after.spaces[at].adventure, None,
        "the Opportunity is discarded"
    );

    // She does not meet the card where the effect puts her: her encounter this turn is over.
    let mut guarded = state;
    let wolf = card("Hill Wolf");
    guarded.decks.adventure.take(&wolf);
    guarded.spaces[at + 1].adventure = Some(wolf);
    let (after, _) = play(guarded, P1, opportunity(Some(true), None));
    assert_eq!(after.turn().unwrap().step, Step::Moved);
    assert_eq!(
        refused(&after, P1, fight(BattleKind::Strength, 0)),
        Refusal::MovedByCard
    );
    run(after, P1, Action::EndTurn);
}

#[test]
fn moved_by_an_effect_she_has_not_stayed() {
    // Gull Meadows (4) is next to the City (3): 2 Gold for 1 Magic only after staying there.
    let state = standing_on("Traveller's Shortcut", 4);
    let after = run(state, P1, opportunity(Some(false), None));
    assert_eq!(me(&after).space, SpaceId::of(3));
    assert_eq!(refused(&after, P1, Action::Trade), Refusal::StayFirst);
}

#[test]
fn a_creature_drags_her_the_way_she_chooses_when_it_wins() {
    // Lake Serpent: Strength 6; losing costs a Health and drags her one space.
    let at = terrain();
    let state = standing_on("Lake Serpent", at);
    let s = strength(&state);
    let loss = outcome_seed(s, 6, BattleOutcome::Loss);
    let (after, events) = play(state.clone(), P1, fight_choosing(loss, Some(false), None));
    assert_eq!(moved(&events), Some((false, at - 1)));
    assert_eq!(me(&after).health.right, me(&state).health.right - 1);
    assert_eq!(after.spaces[at].adventure, Some(card("Lake Serpent")));
    // The choice counts only if the effect is played.
    let win = outcome_seed(s, 6, BattleOutcome::Win);
    let (after, events) = play(state, P1, fight_choosing(win, Some(false), None));
    assert_eq!(moved(&events), None);
    assert_eq!(me(&after).space, SpaceId::of(at));
}

#[test]
fn lose_item_takes_the_item_she_names_or_her_most_recent() {
    // Curio Dealer: lose an Item, take 3 Gold.
    let mut state = standing_on("Curio Dealer", terrain());
    let items = give_items(&mut state, 3);
    let (after, events) = play(state.clone(), P1, opportunity(None, Some(items[0])));
    assert!(events.contains(&Event::ItemLost {
        player: P1,
        item: items[0]
    }));
    assert_eq!(me(&after).items, items[1..].to_vec());
    assert_eq!(me(&after).gold, Gold(me(&state).gold.0 + 3));
    assert_eq!(after.decks.common_items.discard, vec![items[0]]);

    // Absent: the most recently obtained.
    let (after, _) = play(state.clone(), P1, opportunity(None, None));
    assert_eq!(me(&after).items, items[..2].to_vec());

    // A damaged Item may be chosen; it leaves the damaged ones too.
    let mut damaged = state.clone();
    damaged.adventurers[0].damaged.push(items[1]);
    let (after, _) = play(damaged, P1, opportunity(None, Some(items[1])));
    assert!(me(&after).damaged.is_empty());

    // Not hers.
    let other = state.decks.common_items.draw[0];
    let refusal = refused(&state, P1, opportunity(None, Some(other)));
    assert_eq!(refusal, Refusal::LostItemNotCarried { item: other });
    assert_eq!(
        (refusal.code(), refusal.rule()),
        ("lost_item_not_carried", "What Evil May Befall a Character")
    );

    // With nothing to sell, she cannot use the card: its price is paid in full.
    let state = standing_on("Curio Dealer", terrain());
    let refusal = refused(&state, P1, opportunity(None, None));
    assert_eq!(
        refusal,
        Refusal::PriceUnpaid {
            what: "Item",
            cost: 1,
            has: 0
        }
    );
    assert_eq!(
        (refusal.code(), refusal.rule()),
        ("price_unpaid", "Opportunities")
    );
}

#[test]
fn a_creature_takes_the_item_she_names_when_it_wins() {
    // Goblin Raiders: Strength 2, three lives; losing costs an Item and 1 Gold.
    let mut state = standing_on("Goblin Raiders", terrain());
    let items = give_items(&mut state, 2);
    let seed = (0..10_000u64)
        .find(|&seed| {
            decide(
                &state,
                Command::new(P1, fight_choosing(seed, None, Some(items[0]))),
            )
            .is_ok_and(|events| {
                events.iter().any(|e| {
                    matches!(
                        e,
                        Event::BattleFought {
                            outcome: BattleOutcome::Loss,
                            ..
                        }
                    )
                })
            })
        })
        .expect("a loss");
    let (after, events) = play(
        state.clone(),
        P1,
        fight_choosing(seed, None, Some(items[0])),
    );
    assert!(events.contains(&Event::ItemLost {
        player: P1,
        item: items[0]
    }));
    assert_eq!(me(&after).items, vec![items[1]]);
}

#[test]
fn a_choice_the_card_does_not_ask_for_is_refused() {
    let state = standing_on("Abandoned Camp", terrain());
    for (action, choice) in [
        (opportunity(Some(true), None), "clockwise"),
        (opportunity(None, Some(ItemId(0))), "lose_item"),
    ] {
        let refusal = refused(&state, P1, action);
        assert_eq!(refusal, Refusal::ChoiceNotOffered { choice });
        assert_eq!(
            (refusal.code(), refusal.rule()),
            ("choice_not_offered", "Adventure Cards")
        );
    }
    assert_eq!(
        refused(&state, P1, opportunity(Some(true), None)).to_string(),
        "This card asks for no choice of direction."
    );
    // Hill Wolf: neither its treasure nor its loss asks for a choice.
    let state = standing_on("Hill Wolf", terrain());
    assert_eq!(
        refused(&state, P1, fight_choosing(0, Some(false), None)),
        Refusal::ChoiceNotOffered {
            choice: "clockwise"
        }
    );
    // Lake Serpent drags but takes no Item.
    let state = standing_on("Lake Serpent", terrain());
    assert_eq!(
        refused(&state, P1, fight_choosing(0, None, Some(ItemId(0)))),
        Refusal::ChoiceNotOffered {
            choice: "lose_item"
        }
    );
}

#[test]
fn choices_are_optional_fields_in_json() {
    let action: Action = serde_json::from_str(r#"{"action":"use_opportunity","seed":3}"#).unwrap();
    assert_eq!(
        action,
        Action::UseOpportunity {
            seed: Seed(3),
            clockwise: None,
            lose_item: None
        }
    );
    let action: Action = serde_json::from_str(
        r#"{"action":"fight","kind":"strength","seed":1,"items":[],"clockwise":false,"lose_item":4}"#,
    )
    .unwrap();
    assert_eq!(action, fight_choosing(1, Some(false), Some(ItemId(4))));
    assert_eq!(
        serde_json::to_string(&fight_choosing(1, None, None)).unwrap(),
        r#"{"action":"fight","kind":"strength","seed":1,"items":[]}"#
    );
    assert_eq!(
        serde_json::to_string(&Action::UseSpecialRule).unwrap(),
        r#"{"action":"use_special_rule"}"#
    );
}

/// An Opportunity's price is paid in full or the card is not used: Gold, Magic (none on the
/// right, she "cannot use anything that requires the payment of Magic"), Health (the last one
/// may be paid), and what the card gives before it takes counts toward the price.
#[test]
fn an_opportunitys_price_is_paid_in_full_or_not_at_all() {
    let short = |name: &str, set: fn(&mut State)| {
        let mut state = standing_on(name, terrain());
        set(&mut state);
        refused(&state, P1, opportunity(None, None))
    };
    // Old Soldier's Lessons: 3 Gold for a Strength.
    let refusal = short("Old Soldier's Lessons", |s| s.adventurers[0].gold = Gold(2));
    assert_eq!(
        refusal,
        Refusal::PriceUnpaid {
            what: "Gold",
            cost: 3,
            has: 2
        }
    );
    assert_eq!(
        refusal.to_string(),
        "This card costs 3 Gold and you have 2: its price is paid in full or not at all."
    );
    // Gambling Den: 4 Gold, then a Magic she must have on the right.
    let den = short("Gambling Den", |s| {
        s.adventurers[0].magic = Cubes { right: 0, left: 3 };
    });
    assert_eq!(
        den,
        Refusal::PriceUnpaid {
            what: "Magic",
            cost: 1,
            has: 0
        }
    );
    // Hermit's Riddles: a Health for a Willpower; none left, no riddles.
    let hermit = short("Hermit's Riddles", |s| {
        s.adventurers[0].health = Cubes { right: 0, left: 5 };
    });
    assert_eq!(
        hermit,
        Refusal::PriceUnpaid {
            what: "Health",
            cost: 1,
            has: 0
        }
    );
    // The last Health may be paid: she lives, at 0.
    let mut state = standing_on("Hermit's Riddles", terrain());
    state.adventurers[0].health = Cubes { right: 1, left: 4 };
    let after = run(state, P1, opportunity(None, None));
    assert_eq!((me(&after).health.right, me(&after).alive), (0, true));
    // Paid in full: 3 Gold exactly.
    let mut state = standing_on("Old Soldier's Lessons", terrain());
    state.adventurers[0].gold = Gold(3);
    let after = run(state, P1, opportunity(None, None));
    assert_eq!(me(&after).gold, Gold(0));
}

/// A card's move of one space is not her move: she does not meet the card where it leaves her
/// this turn, and the refusal says so (not "already fought").
#[test]
fn a_card_that_moves_her_does_not_make_her_meet_the_next_card() {
    let at = terrain();
    for (there, action) in [
        ("Hill Wolf", fight(BattleKind::Strength, 0)),
        ("Healing Spring", opportunity(None, None)),
    ] {
        let mut state = standing_on("Traveller's Shortcut", at);
        let id = card(there);
        state.decks.adventure.take(&id);
        state.spaces[at + 1].adventure = Some(id);
        let after = run(state, P1, opportunity(Some(true), None));
        assert_eq!(me(&after).space, SpaceId::of(at + 1));
        let refusal = refused(&after, P1, action);
        assert_eq!(refusal, Refusal::MovedByCard, "{there}");
        assert_eq!(
            refusal.to_string(),
            "A card moved you here, which is not your move: you do not meet the card on this space this turn."
        );
        run(after, P1, Action::EndTurn);
    }
}
