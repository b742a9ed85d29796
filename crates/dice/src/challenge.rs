//! The Challenge rules roll (seed 002): d4/d6/d8 by situation, keep-lowest or keep-highest by
//! steps of improvement, a result from 1 to 8 and its band.

use crate::exact::Probability;
use crate::rng::{DiceRng, Seed};
use num_bigint::BigInt;
use num_traits::Pow;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// The situation the GM sets, which decides the size of the dice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Situation {
    /// Roll d4s: at best a partial success.
    Difficult,
    /// Roll d6s: at best a success.
    Average,
    /// Roll d8s: a chance of a success with a long-term benefit.
    Favourable,
}

impl Situation {
    /// The number of sides of the dice rolled.
    pub fn sides(self) -> u8 {
        match self {
            Situation::Difficult => 4,
            Situation::Average => 6,
            Situation::Favourable => 8,
        }
    }

    /// The situation whose dice have `sides` sides (4, 6 or 8).
    pub fn from_sides(sides: u8) -> Option<Situation> {
        match sides {
            4 => Some(Situation::Difficult),
            6 => Some(Situation::Average),
            8 => Some(Situation::Favourable),
            _ => None,
        }
    }
}

impl fmt::Display for Situation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "d{}", self.sides())
    }
}

/// Why a text is not a challenge die.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotAChallengeDie(pub String);

impl fmt::Display for NotAChallengeDie {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}' is not a challenge die: use d4, d6 or d8", self.0)
    }
}

impl std::error::Error for NotAChallengeDie {}

/// Parses `d4`, `d6`, `d8` (and the situations' names).
impl FromStr for Situation {
    type Err = NotAChallengeDie;
    fn from_str(s: &str) -> Result<Situation, NotAChallengeDie> {
        match s.to_ascii_lowercase().as_str() {
            "d4" | "difficult" => Ok(Situation::Difficult),
            "d6" | "average" => Ok(Situation::Average),
            "d8" | "favourable" | "favorable" => Ok(Situation::Favourable),
            _ => Err(NotAChallengeDie(s.to_owned())),
        }
    }
}

/// What a character brings to a roll; each counts as steps of improvement.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Improvements {
    /// How many times a held skill applies (one step each).
    pub skills_applicable: u32,
    /// A specialty applies. It counts only when no relevant skill is held.
    pub specialty: bool,
    /// One aptitude point of the governing aptitude is spent (at most one per roll).
    pub aptitude_point: bool,
}

impl Improvements {
    /// The steps of improvement these give. The rules cap ordinary rolls at two steps; more
    /// need a special rule, which is the table's call, so the count is not capped here.
    pub fn steps(self) -> u32 {
        let specialty = self.specialty && self.skills_applicable == 0;
        self.skills_applicable + u32::from(specialty) + u32::from(self.aptitude_point)
    }
}

/// Which die of the roll counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Keep {
    /// The lowest (no improvement: roll two, keep the lower).
    Lowest,
    /// The highest (one die, or two or more with improvement).
    Highest,
}

/// How many dice to roll and which to keep for a number of steps of improvement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Pool {
    /// Dice rolled.
    pub dice: u32,
    /// Which of them is the result.
    pub keep: Keep,
}

impl Pool {
    /// 0 steps: two dice, keep the lower; 1 step: one die; 2 steps: two dice, keep the higher;
    /// each step beyond: one more die, keep the highest.
    pub fn for_steps(steps: u32) -> Pool {
        match steps {
            0 => Pool {
                dice: 2,
                keep: Keep::Lowest,
            },
            1 => Pool {
                dice: 1,
                keep: Keep::Highest,
            },
            k => Pool {
                dice: k,
                keep: Keep::Highest,
            },
        }
    }
}

impl fmt::Display for Pool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.dice, self.keep) {
            (1, _) => f.write_str("roll 1"),
            (n, Keep::Lowest) => write!(f, "roll {n} take lowest"),
            (n, Keep::Highest) => write!(f, "roll {n} take highest"),
        }
    }
}

/// The band a result from 1 to 8 falls in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Band {
    /// 1: a failure, with a further consequence.
    FailureWithConsequence,
    /// 2: a failure with no consequence beyond the failure.
    Failure,
    /// 3–4: a partial success.
    PartialSuccess,
    /// 5–6: a success.
    Success,
    /// 7–8: a success with a long-term benefit beyond the success.
    SuccessWithBenefit,
}

impl Band {
    /// All bands, worst first.
    pub const ALL: [Band; 5] = [
        Band::FailureWithConsequence,
        Band::Failure,
        Band::PartialSuccess,
        Band::Success,
        Band::SuccessWithBenefit,
    ];

    /// The band of a result 1–8.
    pub fn of(result: u8) -> Band {
        match result {
            0 | 1 => Band::FailureWithConsequence,
            2 => Band::Failure,
            3 | 4 => Band::PartialSuccess,
            5 | 6 => Band::Success,
            _ => Band::SuccessWithBenefit,
        }
    }

    /// The column of the seed's *Math* tables this band is counted in.
    pub fn column(self) -> Column {
        match self {
            Band::FailureWithConsequence | Band::Failure => Column::Failure,
            Band::PartialSuccess => Column::PartialSuccess,
            Band::Success => Column::Success,
            Band::SuccessWithBenefit => Column::GreatSuccess,
        }
    }
}

impl fmt::Display for Band {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Band::FailureWithConsequence => "failure with a further consequence",
            Band::Failure => "failure",
            Band::PartialSuccess => "partial success",
            Band::Success => "success",
            Band::SuccessWithBenefit => "success with a long-term benefit",
        })
    }
}

/// The four columns of the seed's *Math* tables (results 1–2, 3–4, 5–6, 7–8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Column {
    /// Results 1–2.
    Failure,
    /// Results 3–4.
    PartialSuccess,
    /// Results 5–6.
    Success,
    /// Results 7–8.
    GreatSuccess,
}

impl Column {
    /// All columns in the tables' order.
    pub const ALL: [Column; 4] = [
        Column::Failure,
        Column::PartialSuccess,
        Column::Success,
        Column::GreatSuccess,
    ];
}

impl fmt::Display for Column {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Column::Failure => "Failure",
            Column::PartialSuccess => "Partial success",
            Column::Success => "Success",
            Column::GreatSuccess => "Great success",
        })
    }
}

/// The exact odds of one kind of challenge roll.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ChallengeOdds {
    /// The dice's size.
    pub situation: Situation,
    /// Dice rolled and which is kept.
    pub pool: Pool,
    /// `results[r − 1]` = P(result = r) for r in 1..=8.
    pub results: Vec<Probability>,
}

impl ChallengeOdds {
    /// The exact distribution of the result.
    pub fn new(situation: Situation, steps: u32) -> ChallengeOdds {
        let pool = Pool::for_steps(steps);
        let sides = BigInt::from(situation.sides());
        let all = sides.clone().pow(pool.dice);
        // P(result ≤ r): for keep-highest every die is ≤ r; for keep-lowest not every die is > r.
        let at_most = |r: u8| -> Probability {
            let r = BigInt::from(r.min(situation.sides()));
            match pool.keep {
                Keep::Highest => Probability::new(r.pow(pool.dice), all.clone()),
                Keep::Lowest => {
                    Probability::new((&sides - r).pow(pool.dice), all.clone()).complement()
                }
            }
        };
        let results = (1..=8u8).map(|r| &at_most(r) - &at_most(r - 1)).collect();
        ChallengeOdds {
            situation,
            pool,
            results,
        }
    }

    /// P(the result falls in `band`).
    pub fn band(&self, band: Band) -> Probability {
        self.sum_where(|r| Band::of(r) == band)
    }

    /// P(the result is counted in `column` of the seed's *Math* tables).
    pub fn column(&self, column: Column) -> Probability {
        self.sum_where(|r| Band::of(r).column() == column)
    }

    fn sum_where(&self, keep: impl Fn(u8) -> bool) -> Probability {
        (1..=8u8)
            .filter(|&r| keep(r))
            .map(|r| self.results[usize::from(r) - 1].clone())
            .sum()
    }
}

/// A rolled challenge.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChallengeRoll {
    /// The seed of the faces.
    pub seed: Seed,
    /// The dice's size.
    pub situation: Situation,
    /// Steps of improvement.
    pub steps: u32,
    /// Every die's face, in the order rolled.
    pub faces: Vec<u8>,
    /// The kept face.
    pub result: u8,
    /// Its band.
    pub band: Band,
}

/// Roll a challenge with the seeded generator.
pub fn roll(situation: Situation, steps: u32, seed: Seed) -> ChallengeRoll {
    let pool = Pool::for_steps(steps);
    let mut rng = DiceRng::new(seed);
    let faces: Vec<u8> = (0..pool.dice)
        .map(|_| rng.face(situation.sides()))
        .collect();
    let result = keep(pool.keep, faces.iter().copied());
    ChallengeRoll {
        seed,
        situation,
        steps,
        faces,
        result,
        band: Band::of(result),
    }
}

fn keep(keep: Keep, faces: impl Iterator<Item = u8>) -> u8 {
    match keep {
        Keep::Lowest => faces.min(),
        Keep::Highest => faces.max(),
    }
    .expect("every pool has at least one die")
}

/// The result of a challenge without recording the dice: the sampler for simulations.
pub fn sample(situation: Situation, pool: Pool, rng: &mut DiceRng) -> u8 {
    keep(
        pool.keep,
        (0..pool.dice).map(|_| rng.face(situation.sides())),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_from_improvements() {
        let skill = Improvements {
            skills_applicable: 1,
            specialty: true,
            aptitude_point: true,
        };
        assert_eq!(
            skill.steps(),
            2,
            "the specialty does not add to a held skill"
        );
        let specialty = Improvements {
            specialty: true,
            ..Improvements::default()
        };
        assert_eq!(specialty.steps(), 1);
    }

    #[test]
    fn rolls_keep_the_right_die() {
        for seed in 0..200 {
            let r = roll(Situation::Favourable, 0, Seed(seed));
            assert_eq!(r.faces.len(), 2);
            assert_eq!(r.result, *r.faces.iter().min().unwrap());
            let r = roll(Situation::Difficult, 3, Seed(seed));
            assert_eq!(r.faces.len(), 3);
            assert_eq!(r.result, *r.faces.iter().max().unwrap());
            assert!(r.result <= 4);
        }
    }

    #[test]
    fn distributions_sum_to_one() {
        for situation in [
            Situation::Difficult,
            Situation::Average,
            Situation::Favourable,
        ] {
            for steps in 0..6 {
                let odds = ChallengeOdds::new(situation, steps);
                let total: Probability = odds.results.iter().cloned().sum();
                assert_eq!(total, Probability::one());
            }
        }
    }

    #[test]
    fn parses_dice() {
        assert_eq!("D8".parse(), Ok(Situation::Favourable));
        assert_eq!(
            "d7".parse::<Situation>().unwrap_err().to_string(),
            "'d7' is not a challenge die: use d4, d6 or d8"
        );
    }
}
