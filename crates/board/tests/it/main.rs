//! The board game's engine, through its public interface: one integration-test binary.

mod battle_items;
mod bots;
mod certificates;
mod chance;
mod choices;
mod encounters;
mod market;
mod moves;
mod possibilities;
mod property;
mod replay;
mod setup;
mod special_rules;
mod table;

use board::content::{ChanceKind, Content};
use board::event::{Event, Seat, SetUp};
use board::ids::{AdventureId, ChanceId, CharacterId, ItemId, PlayerId, SpaceId};
use board::{Action, Command, Refusal, State, decide, evolve};
use dice::Seed;
use std::sync::Arc;

/// The built-in content.
pub fn content() -> Arc<Content> {
    Arc::new(Content::builtin())
}

/// The players of the hand-built games.
pub const P1: PlayerId = PlayerId(1);
/// See [`P1`].
pub const P2: PlayerId = PlayerId(2);
/// See [`P1`].
pub const P3: PlayerId = PlayerId(3);

/// The first Chance card (its id) of a kind.
pub fn chance(content: &Content, matches: fn(ChanceKind) -> bool) -> ChanceId {
    ChanceId::of(content.chance.iter().position(|c| matches(c.kind)).unwrap())
}

/// A `GameSetUp` built by hand: players 1..=n with these characters, player 1 first, the
/// Adventure and Item decks in content order, the Chance deck as given.
pub fn set_up_event(content: &Content, characters: &[usize], chance_deck: Vec<ChanceId>) -> Event {
    let items = |rarity| {
        (0..content.items.len())
            .filter(|&i| content.items[i].rarity == rarity)
            .map(ItemId::of)
            .collect()
    };
    Event::GameSetUp(Box::new(SetUp {
        seats: characters
            .iter()
            .enumerate()
            .map(|(i, &c)| Seat {
                player: PlayerId(i as u32 + 1),
                name: format!("Player {}", i + 1),
                character: CharacterId::of(c),
            })
            .collect(),
        adventure_deck: (0..content.adventures.len()).map(AdventureId::of).collect(),
        chance_deck,
        common_items: items(board::content::Rarity::Common),
        rare_items: items(board::content::Rarity::Rare),
        rolls: vec![vec![(P1, 6), (P2, 1)]],
        first_player: P1,
    }))
}

/// A game of three (characters 0, 1, 2) with this Chance deck.
pub fn game(chance_deck: Vec<ChanceId>) -> State {
    let content = content();
    let event = set_up_event(&content, &[0, 1, 2], chance_deck);
    evolve(State::new(content), &event)
}

/// Decides and applies; panics on a refusal.
pub fn play(state: State, by: PlayerId, action: Action) -> (State, Vec<Event>) {
    let events = decide(&state, Command::new(by, action.clone()))
        .unwrap_or_else(|r| panic!("{action:?} by {by} refused: {r}"));
    let state = events.iter().fold(state, evolve);
    (state, events)
}

/// Plays and keeps only the state.
pub fn run(state: State, by: PlayerId, action: Action) -> State {
    play(state, by, action).0
}

/// The refusal of a command.
pub fn refused(state: &State, by: PlayerId, action: Action) -> Refusal {
    decide(state, Command::new(by, action)).expect_err("refused")
}

/// Use the Opportunity where she stands, with this seed and no choices.
pub fn use_opportunity(seed: u64) -> Action {
    Action::UseOpportunity {
        seed: Seed(seed),
        clockwise: None,
        lose_item: None,
    }
}

/// Fight in `kind` with this seed and these Items, no choices.
pub fn fight_using(kind: board::BattleKind, seed: u64, items: Vec<ItemId>) -> Action {
    Action::Fight {
        kind,
        seed: Seed(seed),
        items,
        throw: false,
        clockwise: None,
        lose_item: None,
    }
}

/// Fight a battle of `kind` with this seed and these Items, throwing the weapon among them.
pub fn fight_throwing(kind: board::BattleKind, seed: u64, items: Vec<ItemId>) -> Action {
    Action::Fight {
        kind,
        seed: Seed(seed),
        items,
        throw: true,
        clockwise: None,
        lose_item: None,
    }
}

/// Draw the Chance card with this reshuffle seed.
pub fn draw(seed: u64) -> Action {
    Action::DrawChance { seed: Seed(seed) }
}
