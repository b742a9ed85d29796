//! Each sampler agrees with its exact distribution for a fixed seed (so these are
//! deterministic, not flaky): Pearson's test must not reject at the 0.1% level.

use dice::challenge::{self, ChallengeOdds, Pool, Situation};
use dice::check::sample_hits;
use dice::check_odds::hit_distribution;
use dice::stats::goodness_of_fit;
use dice::{DiceRng, Seed, d66, opposed};

#[test]
fn check_sampler_fits_the_exact_distribution() {
    let trials = 400_000u64;
    let mut rng = DiceRng::new(Seed(2024));
    let bins = 12usize;
    let mut observed = vec![0u64; bins];
    for _ in 0..trials {
        let hits = sample_hits(5, &mut rng) as usize;
        observed[hits.min(bins - 1)] += 1;
    }
    let dist = hit_distribution(5, bins as u32 - 1);
    let mut expected: Vec<f64> = dist.exact.iter().map(|p| p.to_f64()).collect();
    expected.push(dist.tail.to_f64());
    let fit = goodness_of_fit(&observed, &expected);
    assert!(fit.p_value > 0.001, "{fit:?}");
    assert!(fit.largest_deviation < 0.003, "{fit:?}");

    // The same test must reject a sampler of the wrong pool size.
    let mut wrong = vec![0u64; bins];
    for _ in 0..trials {
        wrong[(sample_hits(6, &mut rng) as usize).min(bins - 1)] += 1;
    }
    assert!(goodness_of_fit(&wrong, &expected).p_value < 1e-6);
}

#[test]
fn challenge_sampler_fits() {
    for (situation, steps) in [
        (Situation::Average, 0),
        (Situation::Favourable, 2),
        (Situation::Difficult, 3),
    ] {
        let odds = ChallengeOdds::new(situation, steps);
        let mut rng = DiceRng::new(Seed(u64::from(steps) + 5));
        let mut observed = vec![0u64; 8];
        for _ in 0..100_000 {
            let r = challenge::sample(situation, Pool::for_steps(steps), &mut rng);
            observed[usize::from(r) - 1] += 1;
        }
        let expected: Vec<f64> = odds.results.iter().map(|p| p.to_f64()).collect();
        let fit = goodness_of_fit(&observed, &expected);
        assert!(fit.p_value > 0.001, "{situation} {steps}: {fit:?}");
    }
}

#[test]
fn opposed_sampler_fits() {
    let odds = opposed::opposed_odds(3, 2);
    let mut rng = DiceRng::new(Seed(3));
    let mut observed = [0u64; 3];
    for _ in 0..100_000 {
        let i = match opposed::sample(3, 2, &mut rng).outcome {
            opposed::BattleOutcome::Win => 0,
            opposed::BattleOutcome::Draw => 1,
            opposed::BattleOutcome::Loss => 2,
        };
        observed[i] += 1;
    }
    let expected = [odds.win.to_f64(), odds.draw.to_f64(), odds.loss.to_f64()];
    assert!(goodness_of_fit(&observed, &expected).p_value > 0.001);
}

#[test]
fn d66_sampler_is_uniform() {
    let mut rng = DiceRng::new(Seed(66));
    let mut observed = vec![0u64; 36];
    for _ in 0..72_000 {
        let r = d66::sample(&mut rng);
        observed[usize::from(r.tens - 1) * 6 + usize::from(r.units - 1)] += 1;
    }
    assert!(goodness_of_fit(&observed, &[1.0 / 36.0; 36]).p_value > 0.001);
}
