//! Bots and the simulator: bots only ever propose what the engine accepts, from the usual
//! states and from odd ones (random legal moves mixed in), games between them end, and the
//! same seed gives the same report.

use crate::*;
use board::bot::{Level, Map, Scratch, choose, choose_at, choose_in, choose_with};
use board::model::Phase;
use board::simulate::{MAX_TURNS, play_game, play_game_at, simulate};
use board::{BattleKind, MoveKind};
use dice::DiceRng;

fn seated(content: &std::sync::Arc<Content>, players: u32, seed: u64) -> State {
    let seats = (1..=players)
        .map(|i| (PlayerId(i), format!("P{i}")))
        .collect();
    run(
        State::new(content.clone()),
        P1,
        Action::SetUp {
            seats,
            seed: Seed(seed),
        },
    )
}

#[test]
fn bot_games_end_and_every_bot_action_is_accepted() {
    let content = content();
    let (mut certified, mut battles) = (0, 0);
    for seed in 0..200u64 {
        let players = 2 + (seed % 4) as usize;
        let game = play_game(content.clone(), players, seed);
        assert!(game.finished, "seed {seed}: {game:?}");
        assert_eq!(game.refusals, 0, "seed {seed}");
        assert!(game.turns > 0 && game.turns < MAX_TURNS, "seed {seed}");
        assert_eq!(game.characters.len(), players);
        if game.winner.is_some_and(|w| w.by_certificates) {
            certified += 1;
        }
        battles += game.battles.fought;
    }
    assert!(
        certified > 150,
        "most games end with five Certificates: {certified}"
    );
    assert!(battles > 1000, "{battles}");
}

/// A random command that may or may not be legal.
fn random_action(state: &State, by: PlayerId, rng: &mut DiceRng) -> Action {
    let seed = Seed(u64::from(rng.next_byte()));
    let a = state.adventurer(by).expect("seated");
    let clockwise = rng.next_byte().is_multiple_of(2);
    let item = |list: &[ItemId], rng: &mut DiceRng| {
        list.get(board::turn::below(rng, list.len().max(1)))
            .copied()
    };
    match rng.face(14) {
        1 => Action::Move(MoveKind::Walk { clockwise }),
        2 => Action::Move(MoveKind::Horse { clockwise }),
        3 => Action::Move(MoveKind::Boat { clockwise }),
        4 => Action::Move(MoveKind::Stay),
        5 => Action::Fight {
            kind: if clockwise {
                BattleKind::Strength
            } else {
                BattleKind::Wills
            },
            seed,
            items: a.items.clone(),
            throw: seed.0.is_multiple_of(3),
            clockwise: None,
            lose_item: None,
        },
        6 => Action::UseSpecialRule,
        7 => Action::UseOpportunity {
            seed,
            clockwise: None,
            lose_item: None,
        },
        8 => Action::Trade,
        9 => Action::Recover {
            amount: u32::from(rng.face(3)),
        },
        10 => match item(&state.spaces[a.space.index()].items, rng) {
            Some(item) => Action::BuyItem { item },
            None => Action::EndTurn,
        },
        11 => match item(&a.items, rng) {
            Some(item) => Action::SellItem { item },
            None => Action::EndTurn,
        },
        12 => Action::BuyCertificate,
        13 => Action::DrawChance { seed },
        _ => Action::EndTurn,
    }
}

/// The state after `bot`'s action, or, one time in `one_in`, after a random command when the
/// engine takes it (so that bots meet odd states too). The bot's action must be accepted.
fn bot_or_random(
    state: State,
    by: PlayerId,
    bot: Action,
    one_in: u8,
    rng: &mut DiceRng,
    seed: u64,
) -> State {
    let events = if rng.face(one_in) == 1
        && let Ok(events) = decide(&state, Command::new(by, random_action(&state, by, rng)))
    {
        events
    } else {
        decide(&state, Command::new(by, bot.clone()))
            .unwrap_or_else(|r| panic!("seed {seed}: the bot's {bot:?} refused: {r}"))
    };
    events.iter().fold(state, evolve)
}

#[test]
fn bots_act_legally_from_odd_states_too() {
    let content = content();
    let map = Map::new(&content);
    let mut finished = 0;
    for seed in 0..300u64 {
        let mut rng = DiceRng::new(Seed(seed));
        let players = 2 + u32::from(rng.face(4)) - 1;
        let mut state = seated(&content, players, seed);
        for step in 0..6_000u64 {
            let Phase::Playing(turn) = state.phase else {
                break;
            };
            // Nobody but the current player has anything to do.
            for a in &state.adventurers {
                if a.player != turn.player {
                    assert_eq!(choose(&state, a.player, Seed(step)), None);
                }
            }
            let by = turn.player;
            let bot = choose_with(&map, &state, by, Seed(seed ^ step)).expect("her turn");
            // A third of the time, a random command instead.
            state = bot_or_random(state, by, bot, 3, &mut rng, seed);
        }
        if !matches!(state.phase, Phase::Playing(_)) {
            finished += 1;
        }
    }
    assert!(finished > 250, "{finished} of 300 games ended");
}

/// Bots keep what they worked out (their Items' bonuses, what Creatures were worth in the
/// situations met) from move to move and game to game: a bot that keeps it all, over many
/// games and odd states, chooses exactly what a bot that starts afresh each move chooses.
#[test]
fn bots_that_remember_choose_as_bots_that_start_afresh() {
    let content = content();
    let map = Map::new(&content);
    let mut scratch = Scratch::new();
    let mut moves = 0;
    for seed in 0..40u64 {
        let mut rng = DiceRng::new(Seed(seed));
        let mut state = seated(&content, 2 + (seed % 4) as u32, seed);
        for step in 0..3_000u64 {
            let Phase::Playing(turn) = state.phase else {
                break;
            };
            let by = turn.player;
            let kept = choose_in(&map, &mut scratch, &state, by, Seed(seed ^ step));
            let afresh = choose(&state, by, Seed(seed ^ step));
            assert_eq!(kept, afresh, "seed {seed}, step {step}");
            if matches!(kept, Some(Action::Move(_))) {
                moves += 1;
            }
            // A tenth of the time, a random command instead.
            state = bot_or_random(state, by, kept.expect("her turn"), 10, &mut rng, seed);
        }
    }
    assert!(moves > 2_000, "{moves}");
    // What it keeps is summed up when printed, not listed.
    let printed = format!("{scratch:?}");
    assert!(printed.len() < 2_000, "{printed}");
    assert!(printed.contains("situations"), "{printed}");
}

#[test]
fn no_action_outside_a_game() {
    let content = content();
    assert_eq!(choose(&State::new(content.clone()), P1, Seed(1)), None);
    let state = seated(&content, 3, 5);
    let first = state.turn().unwrap().player;
    assert_eq!(
        choose(&state, first, Seed(9)),
        Some(Action::DrawChance { seed: Seed(9) })
    );
    assert_eq!(choose(&state, PlayerId(99), Seed(9)), None);
}

#[test]
fn the_same_seed_gives_the_same_report() {
    let content = content();
    let mut seen = Vec::new();
    let report = simulate(content.clone(), 40, 4, 11, |done| seen.push(done));
    assert_eq!(seen, (1..=40).collect::<Vec<u64>>());
    assert_eq!(report, simulate(content.clone(), 40, 4, 11, |_| {}));
    assert_ne!(report, simulate(content.clone(), 40, 4, 12, |_| {}));
    assert_eq!(report.games, 40);
    assert_eq!(report.finished + report.unfinished, 40);
    assert_eq!(report.wins_by_seat.len(), 4);
    let wins: u64 = report.wins_by_seat.iter().sum();
    assert_eq!(wins + report.no_winner + report.unfinished, 40);
    assert_eq!(report.wins_by_character.values().sum::<u64>(), wins);
    assert_eq!(report.games_by_character.values().sum::<u64>(), 160);
    assert_eq!(report.wins_by_character.len(), content.characters.len());
    assert_eq!(report.adventures_met.len(), content.adventures.len());
    assert!(report.adventures_met.values().sum::<u64>() > 0);
    assert!(report.chance_drawn.values().sum::<u64>() > 0);
    assert!(report.turns.median <= report.turns.p90);
    assert_eq!(report.refusals, 0);
}

/// Two-player games in which both bots once waited on a guild with their goal out of reach
/// until the turn cap, each ending every turn where it stood.
#[test]
fn bots_never_wait_for_each_other_forever() {
    let content = content();
    for seed in [
        4_651_043_274_573_208_102,
        16_803_968_378_090_981_543,
        13_423_925_474_918_919_682,
    ] {
        let game = play_game(content.clone(), 2, seed);
        assert!(game.finished, "seed {seed}: {} turns", game.turns);
    }
}

/// States of standard bots' games along the way, every `every`-th command, with whose turn.
fn states_along(content: &std::sync::Arc<Content>, seed: u64, every: u64) -> Vec<State> {
    let map = Map::new(content);
    let mut state = seated(content, 2 + (seed % 4) as u32, seed);
    let mut states = Vec::new();
    for step in 0..4_000u64 {
        let Phase::Playing(turn) = state.phase else {
            break;
        };
        if step % every == 0 {
            states.push(state.clone());
        }
        let action = choose_with(&map, &state, turn.player, Seed(seed ^ step)).expect("her turn");
        state = run(state, turn.player, action);
    }
    states
}

/// Easy bots play whole games against standard ones, every action accepted, and win far less
/// often; a few games of each seat count.
#[test]
fn easy_bots_play_legal_games_and_lose_more() {
    let content = content();
    let mut easy_wins = 0;
    for seed in 0..60u64 {
        let levels = [Level::Easy, Level::Standard, Level::Standard];
        let game = play_game_at(content.clone(), &levels, seed);
        assert!(game.finished, "seed {seed}");
        assert_eq!(game.refusals, 0, "seed {seed}");
        if game.winner.is_some_and(|w| w.level == Level::Easy) {
            easy_wins += 1;
        }
    }
    assert!(
        easy_wins < 15,
        "easy won {easy_wins} of 60 three-player games"
    );
}

/// The strong bot's choices, from states of many games at every step, are accepted by the
/// engine; its actions roll with the seed it was given; and it never reads the order of a
/// face-down deck: with every draw pile reordered, it chooses the same.
#[test]
fn strong_bots_choose_legally_and_never_read_the_decks() {
    let content = content();
    let map = Map::new(&content);
    let mut scratch = Scratch::new();
    let mut played_out = 0;
    for seed in 0..4u64 {
        for state in states_along(&content, seed, 37) {
            let by = state.turn().expect("in play").player;
            let strong = choose_at(
                Level::Strong,
                Some(&map),
                &mut scratch,
                &state,
                by,
                Seed(seed),
            );
            let strong = strong.expect("her turn");
            decide(&state, Command::new(by, strong.clone()))
                .unwrap_or_else(|r| panic!("seed {seed}: {strong:?} refused: {r}"));
            if let Action::Fight { seed: s, .. } | Action::UseOpportunity { seed: s, .. } = &strong
            {
                assert_eq!(*s, Seed(seed));
            }
            let mut reordered = state.clone();
            let decks = &mut reordered.decks;
            decks.adventure.draw.reverse();
            decks.chance.draw.reverse();
            decks.common_items.draw.reverse();
            decks.rare_items.draw.reverse();
            let again = choose_at(
                Level::Strong,
                Some(&map),
                &mut scratch,
                &reordered,
                by,
                Seed(seed),
            );
            assert_eq!(again.as_ref(), Some(&strong), "seed {seed}");
            if state
                .turn()
                .is_some_and(|t| t.step != board::model::Step::DrawChance)
            {
                played_out += 1;
            }
        }
    }
    assert!(played_out > 8, "{played_out}");
}
