//! Buying and selling Items in the City and the Village, and repairing damaged Items.

use crate::*;
use board::MoveKind;
use board::content::{Guild, Rarity, SpaceKind};
use board::model::{DeckKind, Gold};

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

/// The first two Common Items.
fn commons(state: &State) -> (ItemId, ItemId) {
    let ids: Vec<ItemId> = (0..state.content.items.len())
        .filter(|&i| state.content.items[i].rarity == Rarity::Common)
        .map(ItemId::of)
        .take(2)
        .collect();
    (ids[0], ids[1])
}

/// Player 1 having stayed in a space of `kind` with `gold` Gold; the first Common Item lies in
/// the City and the second one is carried by her.
fn at(kind: SpaceKind, gold: u32) -> State {
    let content = content();
    let terrain = chance(&content, |k| matches!(k, ChanceKind::Terrain(_)));
    let mut state = game(vec![terrain; 10]);
    let (lying, carried) = commons(&state);
    let city = space_of(&state, SpaceKind::City);
    state = evolve(
        state,
        &Event::ItemsLaidOut {
            space: city,
            deck: DeckKind::CommonItems,
            items: vec![lying],
        },
    );
    state = evolve(
        state,
        &Event::ItemDrawn {
            player: P1,
            deck: DeckKind::CommonItems,
            item: carried,
        },
    );
    state.adventurers[0].space = space_of(&state, kind);
    state.adventurers[0].gold = Gold(gold);
    let state = run(state, P1, draw(0));
    run(state, P1, Action::Move(MoveKind::Stay))
}

fn gold(state: &State) -> u32 {
    state.adventurer(P1).unwrap().gold.0
}

#[test]
fn buying_an_item_lying_in_the_city_for_its_cost() {
    let state = at(SpaceKind::City, 50);
    let (lying, carried) = commons(&state);
    let cost = state.content.items[lying.index()].cost;
    assert_eq!(
        refused(&state, P1, Action::BuyItem { item: carried }),
        Refusal::NotForSale
    );
    let state = run(state, P1, Action::BuyItem { item: lying });
    assert_eq!(gold(&state), 50 - cost);
    assert_eq!(state.adventurer(P1).unwrap().items, vec![carried, lying]);
    let city = space_of(&state, SpaceKind::City);
    assert!(state.space(city).unwrap().items.is_empty());
    let poor = at(SpaceKind::City, 0);
    if cost > 0 {
        let refusal = refused(&poor, P1, Action::BuyItem { item: lying });
        assert_eq!(
            refusal,
            Refusal::ItemGold {
                cost: Gold(cost),
                has: Gold(0)
            }
        );
        assert_eq!(refusal.rule(), "Buying and Selling Items");
    }
}

#[test]
fn selling_gives_half_rounded_up_and_discards() {
    let state = at(SpaceKind::Village, 0);
    let (_, carried) = commons(&state);
    let cost = state.content.items[carried.index()].cost;
    let (state, events) = play(state, P1, Action::SellItem { item: carried });
    assert_eq!(
        events,
        vec![Event::ItemSold {
            player: P1,
            item: carried,
            gold: Gold(cost.div_ceil(2))
        }]
    );
    assert_eq!(gold(&state), cost.div_ceil(2));
    assert!(state.adventurer(P1).unwrap().items.is_empty());
    assert_eq!(state.decks.common_items.discard, vec![carried]);
    assert_eq!(
        refused(&state, P1, Action::SellItem { item: carried }),
        Refusal::NotCarried
    );
}

#[test]
fn markets_only_and_never_damaged_items() {
    let state = at(SpaceKind::Guild(Guild::Fortress), 50);
    let (lying, carried) = commons(&state);
    assert_eq!(
        refused(&state, P1, Action::SellItem { item: carried }),
        Refusal::NotAMarket
    );
    assert_eq!(
        refused(&state, P1, Action::BuyItem { item: lying }),
        Refusal::NotAMarket
    );
    let mut state = at(SpaceKind::City, 0);
    state.adventurers[0].damaged.push(carried);
    assert_eq!(
        refused(&state, P1, Action::SellItem { item: carried }),
        Refusal::ItemDamaged
    );
}

#[test]
fn repairing_costs_one_gold_in_civilization() {
    let mut state = at(SpaceKind::Guild(Guild::Monastery), 1);
    let (lying, carried) = commons(&state);
    assert_eq!(
        refused(&state, P1, Action::RepairItem { item: carried }),
        Refusal::NotDamaged
    );
    assert_eq!(
        refused(&state, P1, Action::RepairItem { item: lying }),
        Refusal::NotCarried
    );
    state.adventurers[0].damaged.push(carried);
    let state = run(state, P1, Action::RepairItem { item: carried });
    assert_eq!(gold(&state), 0);
    assert!(state.adventurer(P1).unwrap().damaged.is_empty());

    let mut poor = at(SpaceKind::Village, 0);
    poor.adventurers[0].damaged.push(carried);
    assert_eq!(
        refused(&poor, P1, Action::RepairItem { item: carried }),
        Refusal::RepairGold {
            cost: Gold(1),
            has: Gold(0)
        }
    );
    let mut wild = at(SpaceKind::EnchantedWilderness, 5);
    wild.adventurers[0].damaged.push(carried);
    let refusal = refused(&wild, P1, Action::RepairItem { item: carried });
    assert_eq!(refusal, Refusal::NotCivilization);
    assert_eq!(refusal.rule(), "Repairing Items");
}
