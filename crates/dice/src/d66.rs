//! d66: two six-sided dice read as tens and units, 11 to 66 (36 equally likely values).

use crate::rng::{DiceRng, Seed};
use serde::{Deserialize, Serialize};
use std::fmt;

/// A d66 result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct D66 {
    /// The first die, read as tens.
    pub tens: u8,
    /// The second die, read as units.
    pub units: u8,
}

impl D66 {
    /// The value 11–66.
    pub fn value(self) -> u8 {
        self.tens * 10 + self.units
    }

    /// The two dice for a value 11–66 whose digits are both 1–6.
    pub fn from_value(value: u8) -> Option<D66> {
        let (tens, units) = (value / 10, value % 10);
        ((1..=6).contains(&tens) && (1..=6).contains(&units)).then_some(D66 { tens, units })
    }

    /// All 36 values in order, 11, 12, …, 16, 21, …, 66.
    pub fn all() -> impl Iterator<Item = D66> {
        (1..=6).flat_map(|tens| (1..=6).map(move |units| D66 { tens, units }))
    }
}

impl fmt::Display for D66 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.tens, self.units)
    }
}

/// Two dice from the generator, tens first: the sampler.
pub fn sample(rng: &mut DiceRng) -> D66 {
    let tens = rng.d6();
    let units = rng.d6();
    D66 { tens, units }
}

/// A d66 rolled from `seed`.
pub fn roll(seed: Seed) -> D66 {
    sample(&mut DiceRng::new(seed))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_round_trip_and_cover_the_table() {
        let all: Vec<u8> = D66::all().map(D66::value).collect();
        assert_eq!(all.len(), 36);
        assert_eq!((all[0], all[5], all[6], all[35]), (11, 16, 21, 66));
        for v in all {
            assert_eq!(D66::from_value(v).unwrap().value(), v);
        }
        assert_eq!(D66::from_value(17), None);
        assert_eq!(D66::from_value(70), None);
    }

    #[test]
    fn every_value_turns_up() {
        let mut seen = std::collections::HashSet::new();
        let mut rng = DiceRng::new(Seed(66));
        for _ in 0..2_000 {
            seen.insert(sample(&mut rng).value());
        }
        assert_eq!(seen.len(), 36);
    }
}
