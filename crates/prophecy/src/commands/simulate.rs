use super::{JsonSeed, count, json, percent, seed_or_fresh};
use crate::Failure;
use crate::cli::SimulateArgs;
use dice::check::sample_hits;
use dice::check_odds::{hit_distribution, success_probability, success_probability_f64};
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
    seed: JsonSeed,
    histogram: Vec<Bin>,
    largest_deviation: f64,
    /// `None` without a verdict.
    chi_squared: Option<f64>,
    degrees_of_freedom: u32,
    /// `None` without a verdict.
    p_value: Option<f64>,
    verdict: Verdict,
    /// With `Verdict::TooFewTrials`: about how many trials give one.
    trials_needed: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    success: Option<SuccessRate>,
}

/// Whether Pearson's test says anything. It needs every bin to expect at least 5 checks (bins
/// are pooled until they do) and at least two bins; with fewer its p-value means nothing.
#[derive(Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
enum Verdict {
    /// The p-value is the test's verdict.
    Tested,
    /// Too few trials to fill two bins.
    TooFewTrials,
    /// An empty pool always scores zero hits: there is nothing to test.
    NoVariation,
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
    let tested = fit.degrees_of_freedom > 0;
    let needed = if tested {
        None
    } else {
        trials_for_verdict(args.dice)
    };
    let verdict = match (tested, needed) {
        (true, _) => Verdict::Tested,
        (false, Some(_)) => Verdict::TooFewTrials,
        (false, None) => Verdict::NoVariation,
    };
    // Bins stop at the most hits seen, so a rare run that saw a single value has no verdict
    // even with enough trials on average: then ask for more than were run.
    let needed = needed.map(|n| n.max(args.trials.saturating_mul(2)));
    let report = Report {
        dice: args.dice,
        trials: args.trials,
        seed: JsonSeed(seed),
        histogram,
        largest_deviation: fit.largest_deviation,
        chi_squared: tested.then_some(fit.chi_squared),
        degrees_of_freedom: fit.degrees_of_freedom,
        p_value: tested.then_some(fit.p_value),
        verdict,
        trials_needed: needed,
        success,
    };
    Ok(if args.json {
        json(&report)
    } else {
        text(&report)
    })
}

/// About how many trials Pearson's test needs to say anything: two bins that each expect at
/// least 5 checks exist once 5 / trials is at most the smaller side of the best split of the
/// hits into "fewer than k" and "k or more" (found where P(hits ≥ k) crosses one half). `None`
/// for an empty pool, whose hits never vary.
fn trials_for_verdict(dice: u32) -> Option<u64> {
    if dice == 0 {
        return None;
    }
    let at_least = |k: u32| success_probability_f64(dice, k);
    // P(hits ≥ 1) ≥ 1/2 for one die or more; P(hits ≥ 2·dice + 2) is far below 1/2.
    let (mut low, mut high) = (1, 2 * dice + 2);
    while high - low > 1 {
        let middle = low + (high - low) / 2;
        if at_least(middle) >= 0.5 {
            low = middle;
        } else {
            high = middle;
        }
    }
    let smaller_side = |p: f64| p.min(1.0 - p);
    let share = smaller_side(at_least(low)).max(smaller_side(at_least(high)));
    Some((5.0 / share).ceil() as u64)
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
        "{} of {} (seed {})\n hits    observed   sampled     exact\n",
        count(r.trials, "check", "checks"),
        count(r.dice, "die", "dice"),
        r.seed.0
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
    match (r.chi_squared, r.p_value, r.trials_needed) {
        (Some(chi_squared), Some(p_value), _) => writeln!(
            out,
            "Goodness of fit: chi-squared {chi_squared:.2} on {}, p-value {p_value:.4}",
            count(
                r.degrees_of_freedom,
                "degree of freedom",
                "degrees of freedom"
            ),
        ),
        (_, _, Some(needed)) => writeln!(
            out,
            "Goodness of fit: too few trials for a verdict: need about {needed} (the test needs \
             two groups of results that each expect at least 5 checks)"
        ),
        _ => writeln!(
            out,
            "Goodness of fit: no verdict: an empty pool always scores zero hits"
        ),
    }
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
