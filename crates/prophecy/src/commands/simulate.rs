use super::{json, percent, seed_or_fresh};

use crate::Failure;
use crate::cli::SimulateArgs;
use dice::check::sample_hits;
use dice::check_odds::{hit_distribution, success_probability};
use dice::stats::goodness_of_fit;
use dice::{DiceRng, Seed};
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;
use std::fmt::Write;
use std::io::IsTerminal;

/// Runs shorter than this finish in well under a second: no progress bar.
const PROGRESS_FROM_TRIALS: u64 = 20_000_000;
/// Trials between progress updates.
const CHUNK: u64 = 1 << 20;
const PROGRESS_TEMPLATE: &str = "{bar:40} {percent:>3}% {human_pos}/{human_len} checks, {eta} left";

#[derive(Serialize)]
struct Bin {
    /// Hits, or the least hits of the last bin, which holds everything from there up.
    hits: u32,
    and_more: bool,
    observed: u64,
    sampled: f64,
    exact: f64,
    exact_fraction: String,
}

#[derive(Serialize)]
struct Report {
    dice: u32,
    trials: u64,
    seed: u64,
    histogram: Vec<Bin>,
    largest_deviation: f64,
    chi_squared: f64,
    degrees_of_freedom: u32,
    p_value: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    success: Option<SuccessRate>,
}

#[derive(Serialize)]
struct SuccessRate {
    difficulty: u32,
    sampled: f64,
    exact: f64,
}

pub fn run(args: SimulateArgs) -> Result<String, Failure> {
    let seed = seed_or_fresh(args.seed)?;
    let counts = sample(args.dice, args.trials, seed);
    // Bins 0..last−1 one value each, then "last or more", which also takes the exact tail.
    let last = counts.len() as u32 - 1;
    let dist = hit_distribution(args.dice, last);
    let mut exact: Vec<dice::Probability> = dist.exact;
    exact.push(dist.tail);
    let expected: Vec<f64> = exact.iter().map(|p| p.to_f64()).collect();
    let fit = goodness_of_fit(&counts, &expected);
    let trials = args.trials as f64;
    let histogram: Vec<Bin> = counts
        .iter()
        .zip(&exact)
        .enumerate()
        .map(|(k, (&observed, p))| Bin {
            hits: k as u32,
            and_more: k as u32 == last && args.dice > 0,
            observed,
            sampled: observed as f64 / trials,
            exact: p.to_f64(),
            exact_fraction: p.to_string(),
        })
        .collect();
    let success = args.difficulty.map(|d| SuccessRate {
        difficulty: d,
        sampled: counts.iter().skip(d as usize).sum::<u64>() as f64 / trials,
        exact: success_probability(args.dice, d).to_f64(),
    });
    let report = Report {
        dice: args.dice,
        trials: args.trials,
        seed: seed.0,
        histogram,
        largest_deviation: fit.largest_deviation,
        chi_squared: fit.chi_squared,
        degrees_of_freedom: fit.degrees_of_freedom,
        p_value: fit.p_value,
        success,
    };
    Ok(if args.json {
        json(&report)
    } else {
        text(&report)
    })
}

/// Counts of hits 0..=max seen; a progress bar on a terminal for long runs.
fn sample(dice: u32, trials: u64, seed: Seed) -> Vec<u64> {
    let mut rng = DiceRng::new(seed);
    let mut counts = vec![0u64; 1];
    let bar = (trials >= PROGRESS_FROM_TRIALS && std::io::stderr().is_terminal()).then(|| {
        let bar = ProgressBar::new(trials);
        bar.set_style(
            ProgressStyle::with_template(PROGRESS_TEMPLATE).expect("the template is valid"),
        );
        bar
    });
    let mut done = 0;
    while done < trials {
        let chunk = CHUNK.min(trials - done);
        for _ in 0..chunk {
            let hits = sample_hits(dice, &mut rng) as usize;
            if hits >= counts.len() {
                counts.resize(hits + 1, 0);
            }
            counts[hits] += 1;
        }
        done += chunk;
        if let Some(bar) = &bar {
            bar.set_position(done);
        }
    }
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    counts
}

fn text(r: &Report) -> String {
    let mut out = format!(
        "{} checks of {} dice (seed {})\n hits    observed   sampled     exact\n",
        r.trials, r.dice, r.seed
    );
    for bin in &r.histogram {
        let label = format!("{}{}", bin.hits, if bin.and_more { "+" } else { "" });
        writeln!(
            out,
            "{label:>5}  {:>10}  {:>8}  {:>8}",
            bin.observed,
            fine_percent(bin.sampled),
            fine_percent(bin.exact)
        )
        .unwrap();
    }
    writeln!(
        out,
        "Largest deviation: {:.4} percentage points",
        r.largest_deviation * 100.0
    )
    .unwrap();
    writeln!(
        out,
        "Goodness of fit: chi-squared {:.2} on {} degrees of freedom, p-value {:.4}",
        r.chi_squared, r.degrees_of_freedom, r.p_value
    )
    .unwrap();
    if let Some(s) = &r.success {
        writeln!(
            out,
            "Success against difficulty {}: sampled {}, exact {}",
            s.difficulty,
            percent(s.sampled),
            percent(s.exact)
        )
        .unwrap();
    }
    out
}

/// Finer than `percent`: a simulation is about small differences.
fn fine_percent(p: f64) -> String {
    format!("{:.3}%", p * 100.0)
}
