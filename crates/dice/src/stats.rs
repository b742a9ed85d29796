//! Comparing samples with exact distributions: Pearson's chi-squared goodness of fit.

use serde::Serialize;

/// How well observed counts fit expected probabilities.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct GoodnessOfFit {
    /// Pearson's statistic over the (merged) bins.
    pub chi_squared: f64,
    /// Bins after merging, minus one.
    pub degrees_of_freedom: u32,
    /// P(a statistic at least this large | the expected distribution is right).
    pub p_value: f64,
    /// The largest |observed share − expected probability| over the original bins.
    pub largest_deviation: f64,
}

/// Pearson's test of `observed[i]` against probabilities `expected[i]`; the last bin should hold
/// the whole tail so that `expected` sums to 1. Adjacent bins are merged, from the rare end,
/// until each expects at least 5 observations, the usual condition for the chi-squared
/// approximation.
pub fn goodness_of_fit(observed: &[u64], expected: &[f64]) -> GoodnessOfFit {
    assert_eq!(observed.len(), expected.len(), "one probability per bin");
    let total: u64 = observed.iter().sum();
    let n = total as f64;
    let largest_deviation = observed
        .iter()
        .zip(expected)
        .map(|(&o, &e)| (o as f64 / n.max(1.0) - e).abs())
        .fold(0.0, f64::max);

    // Merge bins (observed, expected count) until each expects ≥ 5, walking from both ends
    // toward the mode so that rare bins on either side join their neighbours.
    let mut bins: Vec<(f64, f64)> = observed
        .iter()
        .zip(expected)
        .map(|(&o, &e)| (o as f64, e * n))
        .collect();
    let mut i = bins.len();
    while i > 1 {
        i -= 1;
        if bins[i].1 < 5.0 {
            let (o, e) = bins.remove(i);
            bins[i - 1].0 += o;
            bins[i - 1].1 += e;
        }
    }
    while bins.len() > 1 && bins[0].1 < 5.0 {
        let (o, e) = bins.remove(0);
        bins[0].0 += o;
        bins[0].1 += e;
    }
    let chi_squared: f64 = bins
        .iter()
        .filter(|(_, e)| *e > 0.0)
        .map(|(o, e)| (o - e) * (o - e) / e)
        .sum();
    let degrees_of_freedom = bins.len().saturating_sub(1) as u32;
    let p_value = if degrees_of_freedom == 0 {
        1.0
    } else {
        puruspe::gammq(f64::from(degrees_of_freedom) / 2.0, chi_squared / 2.0)
    };
    GoodnessOfFit {
        chi_squared,
        degrees_of_freedom,
        p_value,
        largest_deviation,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perfect_fit_and_a_bad_one() {
        let fit = goodness_of_fit(&[500, 500], &[0.5, 0.5]);
        assert_eq!(fit.chi_squared, 0.0);
        assert_eq!(fit.p_value, 1.0);
        let bad = goodness_of_fit(&[600, 400], &[0.5, 0.5]);
        // χ² = 40 on one degree of freedom: p ≈ 2.5e-10.
        assert!((bad.chi_squared - 40.0).abs() < 1e-9);
        assert!(bad.p_value < 1e-9 && bad.p_value > 1e-11, "{}", bad.p_value);
        assert!((bad.largest_deviation - 0.1).abs() < 1e-12);
    }

    #[test]
    fn known_quantile() {
        // The 95% point of chi-squared with 3 degrees of freedom is 7.8147.
        let expected = [0.25; 4];
        let fit = goodness_of_fit(&[100, 100, 100, 100], &expected);
        assert_eq!(fit.degrees_of_freedom, 3);
        let p = puruspe::gammq(1.5, 7.8147 / 2.0);
        assert!((p - 0.05).abs() < 1e-4, "{p}");
    }
}
