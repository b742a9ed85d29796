//! Drawing a Chance Card: every kind, from a deck whose order the test chooses.

use crate::*;
use board::MoveKind;
use board::content::{ChanceKind, Market, SpaceKind, Terrain};
use board::model::{Cubes, DeckKind, Gold, Step};

fn terrain_spaces(state: &State, terrain: Terrain) -> Vec<usize> {
    let spaces = &state.content.board.spaces;
    (0..spaces.len())
        .filter(|&i| spaces[i].kind == SpaceKind::Terrain(terrain))
        .collect()
}

fn is_mountains(k: ChanceKind) -> bool {
    k == ChanceKind::Terrain(Terrain::Mountains)
}

#[test]
fn terrain_cards_fill_every_empty_space_of_the_terrain() {
    let mountains = chance(&content(), is_mountains);
    let mut state = game(vec![mountains; 3]);
    let spaces = terrain_spaces(&state, Terrain::Mountains);
    // A Creature left from a battle: that space is not empty.
    state.spaces[spaces[1]].adventure = Some(AdventureId(40));
    state.decks.adventure.take(&AdventureId(40));
    let (state, events) = play(state, P1, draw(0));
    assert_eq!(
        events[0],
        Event::ChanceDrawn {
            player: P1,
            card: mountains
        }
    );
    let expected: Vec<_> = spaces
        .iter()
        .filter(|&&s| s != spaces[1])
        .enumerate()
        .map(|(i, &s)| (SpaceId::of(s), AdventureId::of(i)))
        .collect();
    assert_eq!(
        events[1],
        Event::AdventuresPlaced {
            placed: expected.clone()
        }
    );
    assert_eq!(state.spaces[spaces[1]].adventure, Some(AdventureId(40)));
    for (space, card) in expected {
        assert_eq!(state.spaces[space.index()].adventure, Some(card));
    }
    assert_eq!(state.decks.chance.discard, vec![mountains]);
    assert_eq!(state.turn().unwrap().step, Step::Move);
    // Full: the next Mountains card places nothing.
    let state = run(run(state, P1, Action::EndTurn), P2, draw(0));
    assert!(spaces.iter().all(|&s| state.spaces[s].adventure.is_some()));
    assert_eq!(
        state.decks.adventure.draw.len(),
        content().adventures.len() - spaces.len()
    );
}

#[test]
fn an_empty_adventure_deck_is_reshuffled_from_its_discards() {
    let mountains = chance(&content(), is_mountains);
    let mut state = game(vec![mountains]);
    let spaces = terrain_spaces(&state, Terrain::Mountains);
    assert!(spaces.len() >= 3);
    state.decks.adventure.draw = vec![AdventureId(7)];
    state.decks.adventure.discard = (10..20).map(AdventureId).collect();
    let (state, events) = play(state, P1, draw(99));
    let Event::DeckReshuffled {
        deck: DeckKind::Adventure,
        order,
    } = &events[2]
    else {
        panic!("{events:?}")
    };
    let mut sorted = order.clone();
    sorted.sort();
    assert_eq!(sorted, (10..20).collect::<Vec<_>>());
    assert_eq!(
        events[1],
        Event::AdventuresPlaced {
            placed: vec![(SpaceId::of(spaces[0]), AdventureId(7))]
        }
    );
    let Event::AdventuresPlaced { placed } = &events[3] else {
        panic!()
    };
    assert_eq!(placed.len(), spaces.len() - 1);
    assert_eq!(placed[0], (SpaceId::of(spaces[1]), AdventureId(order[0])));
    assert!(state.decks.adventure.discard.is_empty());
    assert_eq!(state.decks.adventure.draw.len(), 10 - (spaces.len() - 1));
    // Replaying the events gives the same state without the seed.
    assert_eq!(state.decks.adventure.draw, {
        let mut s = game(vec![mountains]);
        s.decks.adventure.draw = vec![AdventureId(7)];
        s.decks.adventure.discard = (10..20).map(AdventureId).collect();
        events.iter().fold(s, evolve).decks.adventure.draw.clone()
    });
}

#[test]
fn merchants_discard_and_lay_out_items() {
    let content = content();
    let merchant = chance(&content, |k| {
        matches!(
            k,
            ChanceKind::Restock {
                space: Market::City,
                deck: board::content::Rarity::Common,
                ..
            }
        )
    });
    let ChanceKind::Restock { count, .. } = content.chance[merchant.index()].kind else {
        panic!()
    };
    let mut state = game(vec![merchant, merchant]);
    let city = content
        .board
        .spaces
        .iter()
        .position(|s| s.kind == SpaceKind::City)
        .unwrap();
    let old = state.decks.common_items.draw.remove(0);
    state.spaces[city].items = vec![old];
    let top: Vec<ItemId> = state.decks.common_items.draw[..count as usize].to_vec();
    let (state, events) = play(state, P1, draw(0));
    assert_eq!(
        events[1..],
        [
            Event::ItemsDiscarded {
                space: SpaceId::of(city),
                items: vec![old]
            },
            Event::ItemsLaidOut {
                space: SpaceId::of(city),
                deck: DeckKind::CommonItems,
                items: top.clone()
            },
        ]
    );
    assert_eq!(state.spaces[city].items, top);
    assert_eq!(state.decks.common_items.discard, vec![old]);

    // The deck runs out mid-way: the discards are shuffled back in.
    let mut state = run(state, P1, Action::EndTurn);
    let rest: Vec<ItemId> = state.decks.common_items.draw.drain(1..).collect();
    state.decks.common_items.discard.extend(rest);
    let (state, events) = play(state, P2, draw(5));
    assert_eq!(events.len(), 5, "{events:?}");
    assert!(matches!(
        events[3],
        Event::DeckReshuffled {
            deck: DeckKind::CommonItems,
            ..
        }
    ));
    assert_eq!(state.spaces[city].items.len(), count as usize);
    // The three just discarded may come back: every Common Item is somewhere, once.
    let mut all: Vec<ItemId> = state.decks.common_items.draw.clone();
    all.extend(&state.decks.common_items.discard);
    all.extend(&state.spaces[city].items);
    all.sort();
    all.dedup();
    assert_eq!(
        all.len(),
        content.items_of(board::content::Rarity::Common).count()
    );
}

#[test]
fn winds_heal_and_recharge_up_to_the_maximum() {
    let content = content();
    let kindly = chance(&content, |k| {
        matches!(
            k,
            ChanceKind::Wind {
                heal: 1,
                recharge: 1
            }
        )
    });
    let mut state = game(vec![kindly]);
    state.adventurers[0].health = Cubes { right: 1, left: 3 };
    state.adventurers[0].magic = Cubes { right: 2, left: 0 };
    state.adventurers[1].magic = Cubes { right: 0, left: 2 };
    let (state, events) = play(state, P1, draw(0));
    assert_eq!(events.len(), 2, "player 3 lost nothing and gets nothing");
    assert_eq!(state.adventurers[0].health, Cubes { right: 2, left: 2 });
    assert_eq!(state.adventurers[0].magic, Cubes { right: 2, left: 0 });
    assert_eq!(state.adventurers[1].magic, Cubes { right: 1, left: 1 });
    assert_eq!(state.adventurers[2], game(vec![kindly]).adventurers[2]);
}

#[test]
fn good_times_give_everyone_gold() {
    let content = content();
    let good = chance(&content, |k| matches!(k, ChanceKind::GoodTimes { .. }));
    let ChanceKind::GoodTimes { gold } = content.chance[good.index()].kind else {
        panic!()
    };
    let state = run(game(vec![good]), P1, draw(0));
    assert!(state.adventurers.iter().all(|a| a.gold == Gold(3 + gold)));
}

/// Charity combines the winds and Good Times "but only to the player that has the least": each
/// gift goes to whoever has the least of what it gives, everyone tied sharing it.
#[test]
fn charity_gives_each_gift_to_the_least_of_it() {
    let content = content();
    let charity = chance(&content, |k| matches!(k, ChanceKind::Charity { .. }));
    let ChanceKind::Charity {
        heal,
        recharge,
        gold,
    } = content.chance[charity.index()].kind
    else {
        panic!()
    };
    let mut state = game(vec![charity]);
    // Gold: P2 and P3 tied for the least. Health: P1 the fewest. Magic: P3 the fewest.
    state.adventurers[0].gold = Gold(5);
    state.adventurers[1].gold = Gold(1);
    state.adventurers[2].gold = Gold(1);
    state.adventurers[0].health = Cubes { right: 1, left: 3 };
    state.adventurers[1].health = Cubes { right: 2, left: 2 };
    state.adventurers[2].health = Cubes { right: 3, left: 1 };
    state.adventurers[0].magic = Cubes { right: 3, left: 1 };
    state.adventurers[1].magic = Cubes { right: 3, left: 1 };
    state.adventurers[2].magic = Cubes { right: 1, left: 3 };
    let state = run(state, P1, draw(0));
    let got: Vec<_> = (state.adventurers.iter())
        .map(|a| (a.gold.0, a.health.right, a.magic.right))
        .collect();
    assert_eq!(
        got,
        [
            (5, 1 + heal, 3),
            (1 + gold, 2, 3),
            (1 + gold, 3, 1 + recharge)
        ]
    );
}

#[test]
fn peaceful_times_give_an_extra_turn_without_a_chance_card() {
    let peaceful = chance(&content(), |k| k == ChanceKind::PeacefulTimes);
    let state = game(vec![peaceful, ChanceId(0), ChanceId(0)]);
    let (state, events) = play(state, P1, draw(0));
    assert_eq!(events[1], Event::ExtraTurnGranted { player: P1 });
    let state = run(state, P1, Action::Move(MoveKind::Walk { clockwise: true }));
    let (state, events) = play(state, P1, Action::EndTurn);
    assert_eq!(
        events,
        vec![Event::TurnEnded {
            player: P1,
            next: P1,
            extra: true
        }]
    );
    let turn = state.turn().unwrap();
    assert_eq!((turn.player, turn.step, turn.extra), (P1, Step::Move, true));
    let refusal = refused(&state, P1, draw(0));
    assert_eq!(refusal, Refusal::NoChanceInExtraTurn);
    assert_eq!(refusal.rule(), "Drawing a Chance Card");
    let state = run(state, P1, Action::Move(MoveKind::Walk { clockwise: true }));
    let state = run(state, P1, Action::EndTurn);
    let turn = state.turn().unwrap();
    assert_eq!(
        (turn.player, turn.step, turn.extra),
        (P2, Step::DrawChance, false)
    );
    assert_eq!(
        refused(&state, P2, Action::EndTurn),
        Refusal::DrawChanceFirst
    );
    let state = run(state, P2, draw(0));
    assert_eq!(refused(&state, P2, draw(0)), Refusal::ChanceAlreadyDrawn);
}

#[test]
fn an_empty_chance_deck_is_reshuffled_with_the_commands_seed() {
    let content = content();
    let mut state = game(vec![]);
    state.decks.chance.discard = (0..content.chance.len()).map(ChanceId::of).collect();
    let (state, events) = play(state, P1, draw(3));
    let Event::DeckReshuffled {
        deck: DeckKind::Chance,
        order,
    } = &events[0]
    else {
        panic!("{events:?}")
    };
    assert_eq!(
        events[1],
        Event::ChanceDrawn {
            player: P1,
            card: ChanceId(order[0])
        }
    );
    assert_eq!(state.decks.chance.draw.len(), content.chance.len() - 1);
    assert_eq!(state.decks.chance.discard, vec![ChanceId(order[0])]);
}
