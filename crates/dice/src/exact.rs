//! Exact probabilities: fractions of arbitrary-precision integers, always in lowest terms.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, ToPrimitive, Zero};
use serde::{Serialize, Serializer};
use std::fmt;
use std::ops::{Add, Mul, Sub};

/// An exact probability, e.g. `691/1152`. Displays as `numerator/denominator` in lowest terms
/// (`0/1` and `1/1` for the certainties).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Probability(BigRational);

impl Probability {
    /// `numerator / denominator`, reduced. Panics if `denominator` is zero (a programming error:
    /// every denominator in this crate is a power of the number of faces).
    pub fn new(numerator: impl Into<BigInt>, denominator: impl Into<BigInt>) -> Probability {
        Probability(BigRational::new(numerator.into(), denominator.into()))
    }

    /// Certainty.
    pub fn one() -> Probability {
        Probability(BigRational::one())
    }

    /// Impossibility.
    pub fn zero() -> Probability {
        Probability(BigRational::zero())
    }

    /// The numerator in lowest terms.
    pub fn numerator(&self) -> &BigInt {
        self.0.numer()
    }

    /// The denominator in lowest terms.
    pub fn denominator(&self) -> &BigInt {
        self.0.denom()
    }

    /// The nearest `f64` (correct even when numerator and denominator are far beyond `f64`).
    pub fn to_f64(&self) -> f64 {
        // `Ratio::to_f64` scales both sides before dividing, so it neither overflows nor loses
        // the tiny probabilities of large pools.
        self.0.to_f64().unwrap_or(f64::NAN)
    }

    /// `1 − self`.
    pub fn complement(&self) -> Probability {
        Probability(BigRational::one() - &self.0)
    }
}

impl fmt::Display for Probability {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.0.numer(), self.0.denom())
    }
}

/// Serialized as its text form, `"n/d"`, since JSON numbers cannot hold it exactly.
impl Serialize for Probability {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl Add for &Probability {
    type Output = Probability;
    fn add(self, rhs: &Probability) -> Probability {
        Probability(&self.0 + &rhs.0)
    }
}

impl Sub for &Probability {
    type Output = Probability;
    fn sub(self, rhs: &Probability) -> Probability {
        Probability(&self.0 - &rhs.0)
    }
}

impl Mul for &Probability {
    type Output = Probability;
    fn mul(self, rhs: &Probability) -> Probability {
        Probability(&self.0 * &rhs.0)
    }
}

impl std::iter::Sum for Probability {
    fn sum<I: Iterator<Item = Probability>>(iter: I) -> Probability {
        Probability(iter.map(|p| p.0).sum())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_traits::Pow;

    #[test]
    fn reduces_and_displays() {
        assert_eq!(Probability::new(2, 4).to_string(), "1/2");
        assert_eq!(Probability::zero().to_string(), "0/1");
        assert_eq!(Probability::new(3, 4).complement().to_string(), "1/4");
    }

    #[test]
    fn f64_of_huge_fractions() {
        // 1 / 6^1000 underflows to 0 honestly; 5^1000 / 6^1000 is about 1.9e-80.
        let six = BigInt::from(6);
        let p = Probability::new(BigInt::from(5).pow(1000u32), six.pow(1000u32));
        let expected = (1000.0 * (5.0f64 / 6.0).ln()).exp();
        assert!(
            (p.to_f64() / expected - 1.0).abs() < 1e-12,
            "{}",
            p.to_f64()
        );
    }
}
