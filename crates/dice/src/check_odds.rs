//! Exact odds of the Prophecy check, with no truncation and no simulation.
//!
//! One die gives 0 hits with probability 1/2, 1 hit and stops with 1/3, and 1 hit plus another
//! die with 1/6, so its generating function is `g(x) = (3 + 2x) / (6 − x)` and a pool of `n`
//! dice has `g(x)^n`. Writing `P_n(k) = Q_n(k) / 6^(n+k)`, the numerators are integers with
//!
//! ```text
//! Q_0(0) = 1,  Q_0(k) = 0 for k > 0
//! Q_n(k) = 3·Q_(n−1)(k) + 15·(Q_(n−1)(0) + … + Q_(n−1)(k−1))
//! ```
//!
//! (because `P(one die = 0) = 3/6` and `P(one die = m) = 15/6^(m+1)` for `m ≥ 1`). The
//! probability of `k` hits depends only on the first `k + 1` coefficients, so P(hits < d) is
//! exact after `d` of them, however long the explosion chains: the tail is exactly
//! `1 − (P(0) + … + P(d−1))`.

use crate::exact::Probability;
use num_bigint::BigInt;
use num_traits::{One, Pow, Zero};
use serde::Serialize;

/// The exact distribution of hits of a pool, as far as the caller asked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HitDistribution {
    /// The size of the pool.
    pub dice: u32,
    /// `exact[k]` = P(hits = k).
    pub exact: Vec<Probability>,
    /// P(hits ≥ exact.len()): everything beyond the listed values.
    pub tail: Probability,
}

/// The integer numerators `Q_n(0..terms)` for pool sizes `0..=max_dice`, row by row.
fn numerator_rows(max_dice: u32, terms: usize) -> impl Iterator<Item = Vec<BigInt>> {
    let mut row: Vec<BigInt> = (0..terms)
        .map(|k| {
            if k == 0 {
                BigInt::one()
            } else {
                BigInt::zero()
            }
        })
        .collect();
    let mut first = true;
    (0..=max_dice).map(move |_| {
        if first {
            first = false;
        } else {
            let mut prefix = BigInt::zero();
            for q in row.iter_mut() {
                let previous = std::mem::replace(q, BigInt::zero());
                *q = &previous * 3u32 + &prefix * 15u32;
                prefix += previous;
            }
        }
        row.clone()
    })
}

/// P(hits = k) for k < `terms`, and the rest as one tail.
pub fn hit_distribution(dice: u32, terms: u32) -> HitDistribution {
    let numerators = numerator_rows(dice, terms as usize)
        .last()
        .expect("rows 0..=dice are never empty");
    let six = BigInt::from(6u32);
    let exact: Vec<Probability> = numerators
        .into_iter()
        .enumerate()
        .map(|(k, q)| Probability::new(q, six.clone().pow(dice as usize + k)))
        .collect();
    let below: Probability = exact.iter().cloned().sum();
    HitDistribution {
        dice,
        exact,
        tail: below.complement(),
    }
}

/// P(success) as an exact fraction from the numerators of P(0..difficulty).
fn success_from_numerators(dice: u32, numerators: &[BigInt]) -> Probability {
    let Some(last) = numerators.len().checked_sub(1) else {
        return Probability::one();
    };
    // Σ_k Q(k)/6^(n+k) over the common denominator 6^(n+last).
    let six = BigInt::from(6u32);
    let mut below = BigInt::zero();
    for q in numerators {
        below = below * 6u32 + q;
    }
    let denominator = six.pow(dice as usize + last);
    Probability::new(&denominator - below, denominator)
}

/// P(hits ≥ difficulty) for a pool of `dice` dice, exactly. Difficulty 0 is certain.
pub fn success_probability(dice: u32, difficulty: u32) -> Probability {
    let numerators = numerator_rows(dice, difficulty as usize)
        .last()
        .expect("rows 0..=dice are never empty");
    success_from_numerators(dice, &numerators)
}

/// `table[n][d − 1]` = P(success) for `n` dice (0..=max_dice) against difficulty d
/// (1..=max_difficulty), exactly: one pass over the pool sizes.
pub fn success_table(max_dice: u32, max_difficulty: u32) -> Vec<Vec<Probability>> {
    numerator_rows(max_dice, max_difficulty as usize)
        .enumerate()
        .map(|(n, row)| {
            (1..=row.len())
                .map(|d| success_from_numerators(n as u32, &row[..d]))
                .collect()
        })
        .collect()
}

/// The same recurrence in `f64` on `R_n(k) = Σ_{i≤k} P_n(i)·6^(i−k)`, which keeps every term
/// positive (no cancellation) and in range: `P_n(k) = P_(n−1)(k)/2 + (5/12)·R_(n−1)(k−1)`.
#[derive(Debug, Clone)]
struct FloatRow {
    p: Vec<f64>,
    r: Vec<f64>,
}

impl FloatRow {
    fn new(terms: usize) -> FloatRow {
        // No dice: P_0(0) = 1, so R_0(k) = 6^(−k).
        let p = (0..terms).map(|k| if k == 0 { 1.0 } else { 0.0 }).collect();
        let r = (0..terms).map(|k| 6f64.powi(-(k as i32))).collect();
        FloatRow { p, r }
    }

    fn add_die(&mut self) {
        let mut r_previous_row = 0.0; // R_(n−1)(k−1)
        let mut r_this_row = 0.0; // R_n(k−1)
        for k in 0..self.p.len() {
            let p = self.p[k] * 0.5 + r_previous_row * (5.0 / 12.0);
            r_previous_row = self.r[k];
            r_this_row = p + r_this_row / 6.0;
            self.p[k] = p;
            self.r[k] = r_this_row;
        }
    }

    fn success(&self, difficulty: usize) -> f64 {
        let below: f64 = self.p[..difficulty].iter().sum();
        (1.0 - below).max(0.0)
    }
}

/// P(hits ≥ difficulty) in `f64`, fast (O(dice × difficulty) float operations). Agrees with
/// [`success_probability`] to about 1e-15.
pub fn success_probability_f64(dice: u32, difficulty: u32) -> f64 {
    let mut row = FloatRow::new(difficulty as usize);
    for _ in 0..dice {
        row.add_die();
    }
    row.success(difficulty as usize)
}

/// `table[n][d − 1]` = P(success) in `f64` for `n` dice (0..=max_dice) against difficulty d
/// (1..=max_difficulty): one pass over the pool sizes.
pub fn success_table_f64(max_dice: u32, max_difficulty: u32) -> Vec<Vec<f64>> {
    let terms = max_difficulty as usize;
    let mut row = FloatRow::new(terms);
    let mut table = Vec::with_capacity(max_dice as usize + 1);
    for n in 0..=max_dice {
        if n > 0 {
            row.add_die();
        }
        table.push((1..=terms).map(|d| row.success(d)).collect());
    }
    table
}

/// The smallest pool whose P(success) against `difficulty` reaches `target` (a probability in
/// `0..=1`), searching pools up to `max_dice`; `None` if none does.
pub fn dice_needed(difficulty: u32, target: f64, max_dice: u32) -> Option<u32> {
    let mut row = FloatRow::new(difficulty as usize);
    for n in 0..=max_dice {
        if n > 0 {
            row.add_die();
        }
        if row.success(difficulty as usize) >= target {
            return Some(n);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_values_from_the_issue() {
        assert_eq!(success_probability(5, 3).to_string(), "691/1152");
        assert_eq!(success_probability(5, 4).to_string(), "2371/6912");
    }

    #[test]
    fn one_die() {
        let d = hit_distribution(1, 3);
        let shown: Vec<String> = d.exact.iter().map(|p| p.to_string()).collect();
        assert_eq!(shown, ["1/2", "5/12", "5/72"]);
        assert_eq!(d.tail.to_string(), "1/72");
    }

    #[test]
    fn zero_dice_never_hit() {
        assert_eq!(success_probability(0, 1), Probability::zero());
        assert_eq!(success_probability(0, 0), Probability::one());
        assert_eq!(hit_distribution(0, 2).exact[0], Probability::one());
    }

    #[test]
    fn tables_agree_with_single_values() {
        let exact = success_table(30, 6);
        let float = success_table_f64(30, 6);
        for n in 0..=30u32 {
            for d in 1..=6u32 {
                let p = &exact[n as usize][d as usize - 1];
                assert_eq!(*p, success_probability(n, d));
                let f = float[n as usize][d as usize - 1];
                assert!((f - p.to_f64()).abs() < 1e-14, "n={n} d={d}: {f} vs {p}");
                assert_eq!(f, success_probability_f64(n, d));
            }
        }
    }

    #[test]
    fn dice_needed_for_even_odds() {
        // P(5 dice ≥ 3) = 691/1152 ≈ 0.60 and four dice fall below half.
        assert_eq!(dice_needed(3, 0.5, 100), Some(5));
        assert!(success_probability_f64(4, 3) < 0.5);
        assert_eq!(dice_needed(0, 0.5, 10), Some(0));
    }
}
