//! Set-up: the deal, the decks, the tokens, the places, the first player.

use crate::*;
use board::content::{Rarity, SpaceKind};
use board::model::{Cubes, Experience, Gold, Phase, Step};

fn seats(n: u32) -> Vec<(PlayerId, String)> {
    (1..=n)
        .map(|i| (PlayerId(i), format!("Player {i}")))
        .collect()
}

fn sorted<T: Ord + Clone>(v: &[T]) -> Vec<T> {
    let mut v = v.to_vec();
    v.sort();
    v
}

#[test]
fn scripted_set_up_deals_places_and_shuffles() {
    let content = content();
    let state = State::new(content.clone());
    let (state, events) = play(
        state,
        P1,
        Action::SetUp {
            seats: seats(4),
            seed: Seed(2024),
        },
    );
    assert_eq!(events.len(), 1);
    let Event::GameSetUp(set_up) = &events[0] else {
        panic!("GameSetUp")
    };
    let SetUp {
        seats: dealt,
        adventure_deck,
        chance_deck,
        common_items,
        rare_items,
        rolls,
        first_player,
    } = &**set_up;
    // Distinct characters, one each.
    let characters: Vec<_> = dealt.iter().map(|s| s.character).collect();
    assert_eq!(
        sorted(&characters)
            .windows(2)
            .filter(|w| w[0] == w[1])
            .count(),
        0
    );
    assert_eq!(state.adventurers.len(), 4);
    for a in &state.adventurers {
        let character = &content.characters[a.character.index()];
        assert_eq!((a.gold, a.experience), (Gold(3), Experience(3)));
        assert_eq!(
            a.health,
            Cubes {
                right: character.strength,
                left: 0
            }
        );
        assert_eq!(
            a.magic,
            Cubes {
                right: character.willpower,
                left: 0
            }
        );
        assert_eq!(
            content.board.spaces[a.space.index()].kind,
            SpaceKind::Guild(character.guilds[0])
        );
        assert!(a.certificates.is_empty() && a.alive);
    }
    // Decks are permutations of the content.
    let all_adventures: Vec<_> = (0..content.adventures.len()).map(AdventureId::of).collect();
    assert_eq!(sorted(adventure_deck), all_adventures);
    assert_ne!(adventure_deck, &all_adventures, "shuffled");
    let mut all_chance: Vec<ChanceId> = Vec::new();
    for (i, card) in content.chance.iter().enumerate() {
        all_chance.extend(std::iter::repeat_n(ChanceId::of(i), card.copies as usize));
    }
    assert_eq!(sorted(chance_deck), all_chance);
    for (deck, rarity) in [(common_items, Rarity::Common), (rare_items, Rarity::Rare)] {
        let all: Vec<_> = (0..content.items.len())
            .filter(|&i| content.items[i].rarity == rarity)
            .map(ItemId::of)
            .collect();
        assert_eq!(sorted(deck), all);
    }
    assert_eq!(&state.decks.chance.draw, chance_deck);
    // Rolls: everyone first, then the tied highest, until one is highest.
    assert_eq!(rolls[0].len(), 4);
    for pair in rolls.windows(2) {
        let high = pair[0].iter().map(|r| r.1).max().unwrap();
        let tied: Vec<_> = pair[0]
            .iter()
            .filter(|r| r.1 == high)
            .map(|r| r.0)
            .collect();
        assert_eq!(pair[1].iter().map(|r| r.0).collect::<Vec<_>>(), tied);
    }
    let last = rolls.last().unwrap();
    let high = last.iter().map(|r| r.1).max().unwrap();
    assert_eq!(last.iter().filter(|r| r.1 == high).count(), 1);
    assert!(last.iter().any(|r| r == &(*first_player, high)));
    let turn = state.turn().unwrap();
    assert_eq!((turn.player, turn.step), (*first_player, Step::DrawChance));
    // The same seed deals the same game.
    let again = decide(
        &State::new(content),
        Command::new(
            P1,
            Action::SetUp {
                seats: seats(4),
                seed: Seed(2024),
            },
        ),
    );
    assert_eq!(again.unwrap(), events);
}

#[test]
fn ties_for_the_first_player_roll_again() {
    let content = content();
    let tied = (0..200u64)
        .map(|seed| {
            decide(
                &State::new(content.clone()),
                Command::new(
                    P1,
                    Action::SetUp {
                        seats: seats(5),
                        seed: Seed(seed),
                    },
                ),
            )
            .unwrap()
        })
        .find_map(|events| match &events[0] {
            Event::GameSetUp(set_up) if set_up.rolls.len() > 1 => Some(set_up.rolls.clone()),
            _ => None,
        })
        .expect("some seed ties");
    assert!(tied[1].len() >= 2);
}

#[test]
fn set_up_refusals() {
    let state = State::new(content());
    let set_up = |seats| Action::SetUp {
        seats,
        seed: Seed(1),
    };
    for (seats, code) in [
        (seats(1), "player_count"),
        (seats(6), "player_count"),
        (vec![(P1, "A".into()), (P1, "B".into())], "seated_twice"),
        (vec![(P1, "A".into()), (P2, "  ".into())], "empty_name"),
    ] {
        let refusal = refused(&state, P1, set_up(seats));
        assert_eq!(refusal.code(), code);
        assert_eq!(refusal.rule(), "Character Preparation");
    }
    assert_eq!(refusal_text(&state), "The game has not been set up yet.");
    assert_eq!(refused(&state, P1, Action::EndTurn), Refusal::NotSetUp);
    let state = run(state, P1, set_up(seats(2)));
    assert_eq!(refused(&state, P1, set_up(seats(2))), Refusal::AlreadySetUp);
    assert!(matches!(state.phase, Phase::Playing(_)));
}

fn refusal_text(state: &State) -> String {
    refused(state, P1, draw(1)).to_string()
}
