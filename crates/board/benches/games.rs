//! Benchmarks of the board crate: `cargo bench -p board`.
//!
//! Aim: whole 4-player games between bots, on one core, as many per second as the simulator
//! can play (`prophecy board simulate`). Divan's "items/s" for `hundred_four_player_games` is
//! games per second.

use board::bot::{Map, choose_with};
use board::content::Content;
use board::simulate::{play_game, simulate};
use board::{Action, Command, State, decide, evolve};
use dice::Seed;
use divan::{Bencher, black_box};
use std::sync::Arc;

/// The allocator `prophecy board simulate` runs with, so that the figures are the shipped
/// simulator's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    divan::main();
}

/// A hundred games of four bots, one seed after the other (the bots' map shared, as the
/// simulator does).
#[divan::bench(sample_count = 20)]
fn hundred_four_player_games(bencher: Bencher) {
    let content = Arc::new(Content::builtin());
    let mut seed = 0u64;
    bencher
        .counter(divan::counter::ItemsCount::new(100usize))
        .bench_local(|| {
            seed += 1;
            simulate(Arc::clone(&content), 100, 4, black_box(seed), |_| {})
        });
}

/// One game of four bots with [`play_game`] (which works out the bots' map each time).
#[divan::bench(sample_count = 100)]
fn one_four_player_game(bencher: Bencher) {
    let content = Arc::new(Content::builtin());
    let mut seed = 0u64;
    bencher.bench_local(|| {
        seed += 1;
        play_game(Arc::clone(&content), 4, black_box(seed))
    });
}

/// The bots' view of the board, worked out once per run.
#[divan::bench]
fn map_of_the_board(bencher: Bencher) {
    let content = Arc::new(Content::builtin());
    bencher.bench_local(|| Map::new(black_box(&content)));
}

/// The states of one played game with `content`, for the per-decision benchmarks.
fn states(content: &Arc<Content>) -> Vec<State> {
    let map = Map::new(content);
    let mut state = State::new(Arc::clone(content));
    let seats = (1..=4u32)
        .map(|i| (board::ids::PlayerId(i), format!("Bot {i}")))
        .collect();
    let set_up = Command::new(
        board::ids::PlayerId(1),
        Action::SetUp {
            seats,
            seed: Seed(1),
        },
    );
    for event in decide(&state, set_up).expect("set up") {
        state = evolve(state, &event);
    }
    let mut states = Vec::new();
    let mut n = 0u64;
    while let Some(turn) = state.turn() {
        n += 1;
        states.push(state.clone());
        let action = choose_with(&map, &state, turn.player, Seed(n)).expect("her turn");
        for event in decide(&state, Command::new(turn.player, action)).expect("legal") {
            state = evolve(state, &event);
        }
    }
    states
}

/// One bot decision, averaged over every state of a game.
#[divan::bench(sample_count = 20)]
fn bot_decisions_of_a_game(bencher: Bencher) {
    let content = Arc::new(Content::builtin());
    let map = Map::new(&content);
    let states = states(&content);
    bencher
        .counter(divan::counter::ItemsCount::new(states.len()))
        .bench_local(|| {
            for (n, state) in states.iter().enumerate() {
                if let Some(turn) = state.turn() {
                    black_box(choose_with(&map, state, turn.player, Seed(n as u64)));
                }
            }
        });
}

/// The engine alone: deciding the bots' commands of a game (applying the events is cheaper).
#[divan::bench(sample_count = 20)]
fn engine_commands_of_a_game(bencher: Bencher) {
    let content = Arc::new(Content::builtin());
    let map = Map::new(&content);
    let states = states(&content);
    let commands: Vec<(State, Command)> = states
        .iter()
        .enumerate()
        .filter_map(|(n, state)| {
            let player = state.turn()?.player;
            let action = choose_with(&map, state, player, Seed(n as u64))?;
            Some((state.clone(), Command::new(player, action)))
        })
        .collect();
    bencher
        .counter(divan::counter::ItemsCount::new(commands.len()))
        .bench_local(|| {
            for (state, command) in &commands {
                black_box(decide(state, command.clone()).expect("legal"));
            }
        });
}
