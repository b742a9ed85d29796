//! How long the strong bot takes to decide: `cargo bench -p board --bench strong`.
//!
//! Plays whole four-player games, the strong bot in the first seat against three standard
//! ones, on one thread, and times every decision of the strong bot after her Chance card (the
//! ones she plays out). Prints the median, the 90th and 99th percentiles and the slowest. Aim: the 99th percentile under
//! 50 ms on one core, so that a table never waits for her.

use board::bot::{Level, Map, Scratch, choose_at};
use board::content::Content;
use board::ids::PlayerId;
use board::model::Step;
use board::{Action, Command, State, decide, evolve};
use dice::{DiceRng, Seed};
use std::sync::Arc;
use std::time::{Duration, Instant};

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Games played (about a hundred timed decisions each).
const GAMES: u64 = 30;

fn main() {
    let content = Arc::new(Content::builtin());
    let map = Map::new(&content);
    let mut scratch = Scratch::new();
    let mut times = Vec::new();
    for game in 0..GAMES {
        let mut rng = DiceRng::new(Seed(game));
        let seats = (1..=4u32)
            .map(|i| (PlayerId(i), format!("Bot {i}")))
            .collect();
        let set_up = Action::SetUp {
            seats,
            seed: Seed(rng.next_u64()),
        };
        let mut state = State::new(Arc::clone(&content));
        for event in decide(&state, Command::new(PlayerId(1), set_up)).expect("set up") {
            state = evolve(state, &event);
        }
        while let Some(turn) = state.turn() {
            let level = if turn.player == PlayerId(1) {
                Level::Strong
            } else {
                Level::Standard
            };
            let seed = Seed(rng.next_u64());
            let started = Instant::now();
            let action = choose_at(level, Some(&map), &mut scratch, &state, turn.player, seed)
                .expect("her turn");
            if level == Level::Strong && turn.step != Step::DrawChance {
                times.push(started.elapsed());
            }
            let events = decide(&state, Command::new(turn.player, action))
                .or_else(|_| decide(&state, Command::new(turn.player, Action::EndTurn)))
                .expect("a bot's action or the end of its turn");
            for event in events {
                state = evolve(state, &event);
            }
        }
    }
    times.sort();
    let at = |q: f64| times[((times.len() as f64 * q).ceil() as usize).clamp(1, times.len()) - 1];
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "strong bot, {} decisions in {GAMES} games: median {:.1} ms, p90 {:.1} ms, p99 {:.1} ms, slowest {:.1} ms",
        times.len(),
        ms(at(0.5)),
        ms(at(0.9)),
        ms(at(0.99)),
        ms(at(1.0)),
    );
}
