//! Benchmarks of the dice crate: `cargo bench -p dice`.
//!
//! Aims (issue 2): the whole f64 odds table for N ≤ 100 × D ≤ 5 in under 1 ms; at least 50
//! million sampled 5-dice checks per second on one core.

use dice::check::sample_hits;
use dice::check_odds::{success_probability, success_table, success_table_f64};
use dice::{DiceRng, Seed};
use divan::counter::ItemsCount;
use divan::{Bencher, black_box};

fn main() {
    divan::main();
}

/// P(success) for every pool 0..=100 against every difficulty 1..=5, as f64.
#[divan::bench]
fn table_100x5_f64() -> Vec<Vec<f64>> {
    success_table_f64(black_box(100), black_box(5))
}

/// The same table as exact fractions.
#[divan::bench]
fn table_100x5_exact() -> usize {
    success_table(black_box(100), black_box(5)).len()
}

/// One exact value at the far end of the required range.
#[divan::bench]
fn exact_1000_dice_difficulty_20() -> String {
    success_probability(black_box(1000), black_box(20)).to_string()
}

const CHECKS: usize = 100_000;

/// Sampled 5-dice checks on one core (the throughput line reads checks per second).
#[divan::bench]
fn sample_5_dice_checks(bencher: Bencher) {
    let mut rng = DiceRng::new(Seed(1));
    bencher.counter(ItemsCount::new(CHECKS)).bench_local(|| {
        let mut successes = 0u32;
        for _ in 0..CHECKS {
            successes += u32::from(sample_hits(black_box(5), &mut rng) >= 3);
        }
        successes
    });
}

/// The floor under sampling: the generator's bytes alone (6.5 bytes per 5-dice check).
#[divan::bench]
fn stream_bytes_650k(bencher: Bencher) {
    let mut rng = DiceRng::new(Seed(1));
    bencher
        .counter(ItemsCount::new(650_000usize))
        .bench_local(|| {
            let mut sum = 0u32;
            for _ in 0..650_000 {
                sum = sum.wrapping_add(u32::from(rng.next_byte()));
            }
            sum
        });
}
