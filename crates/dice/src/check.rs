//! The Prophecy check: a pool of six-sided exploding dice, 4–6 a hit, success iff hits ≥ difficulty.

use crate::rng::{DiceRng, FaceSource, GivenFaces, Seed};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::ops::Range;

/// Why a die is in the pool the caller assembled. The ids belong to the caller (the story engine
/// numbers its matching pairs and scenes); the dice engine only carries them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PoolEntry {
    /// A die with no recorded reason, as in the command line's `roll N`.
    Die,
    /// The die of a pair of matching aspects.
    MatchingPair {
        /// The caller's id of the pair.
        pair: u32,
    },
    /// The reward die of a precursor that was resolved successfully.
    RewardDie {
        /// The caller's id of the precursor scene.
        precursor: u32,
    },
}

/// Why a rolled die is there: it was in the pool, or a die showing 6 added it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Cause {
    /// One of the pool's entries.
    Pool(PoolEntry),
    /// Added because the die at this index (in [`CheckRoll::dice`]) showed a 6.
    ExplodedFrom(usize),
}

/// One rolled die of a check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RolledDie {
    /// The face shown, 1–6.
    pub face: u8,
    /// Why the die is in the pool.
    pub cause: Cause,
}

impl RolledDie {
    /// 4, 5 and 6 are hits; 1, 2 and 3 are misses.
    pub fn is_hit(&self) -> bool {
        self.face >= 4
    }

    /// A 6 adds one more die to the pool.
    pub fn explodes(&self) -> bool {
        self.face == 6
    }

    /// The index of the die whose 6 added this one, if any.
    pub fn exploded_from(&self) -> Option<usize> {
        match self.cause {
            Cause::ExplodedFrom(from) => Some(from),
            Cause::Pool(_) => None,
        }
    }
}

/// Success or failure of a check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// The result met or exceeded the difficulty rating.
    Success,
    /// The result fell short of the difficulty rating.
    Failure,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Outcome::Success => "success",
            Outcome::Failure => "failure",
        })
    }
}

/// Every die of a rolled pool, in the order rolled: the pool first, then each wave of
/// explosions (the dice added by the previous wave's sixes, in the order of those sixes).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckRoll {
    /// The seed the faces came from; `None` when the faces were supplied.
    pub seed: Option<Seed>,
    /// All dice, pool first, then explosions wave by wave.
    pub dice: Vec<RolledDie>,
}

impl CheckRoll {
    /// The result: the number of hits.
    pub fn hits(&self) -> u32 {
        self.dice.iter().filter(|d| d.is_hit()).count() as u32
    }

    /// Success iff hits ≥ difficulty. An empty pool has zero hits, so it fails any difficulty ≥ 1.
    pub fn outcome(&self, difficulty: u32) -> Outcome {
        if self.hits() >= difficulty {
            Outcome::Success
        } else {
            Outcome::Failure
        }
    }

    /// The faces in the order rolled.
    pub fn faces(&self) -> Vec<u8> {
        self.dice.iter().map(|d| d.face).collect()
    }

    /// The index ranges of the waves: the pool, then the dice each round of sixes added.
    pub fn waves(&self) -> Vec<Range<usize>> {
        let mut waves = Vec::new();
        let pool = self
            .dice
            .iter()
            .take_while(|d| matches!(d.cause, Cause::Pool(_)))
            .count();
        let mut wave = 0..pool;
        while !wave.is_empty() {
            let added = self.dice[wave.clone()]
                .iter()
                .filter(|d| d.explodes())
                .count();
            let next = wave.end..wave.end + added;
            waves.push(wave);
            wave = next;
        }
        waves
    }

    /// The pool entries this roll started from.
    pub fn pool(&self) -> Vec<PoolEntry> {
        self.dice
            .iter()
            .filter_map(|d| match d.cause {
                Cause::Pool(entry) => Some(entry),
                Cause::ExplodedFrom(_) => None,
            })
            .collect()
    }

    /// True iff the recorded seed reproduces exactly these dice (always false for supplied faces).
    pub fn verify(&self) -> bool {
        match self.seed {
            Some(seed) => roll(&self.pool(), seed) == *self,
            None => false,
        }
    }
}

/// Why supplied faces cannot be the roll of a pool.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FacesError {
    /// A face that a six-sided die cannot show.
    NotAFace {
        /// Its position in the list, from 0.
        index: usize,
        /// The value given.
        face: u8,
    },
    /// The pool and its explosions need more dice than were given.
    TooFew {
        /// How many were given.
        given: usize,
    },
    /// More faces than the pool and its explosions use.
    TooMany {
        /// How many the roll used.
        used: usize,
        /// How many were given.
        given: usize,
    },
}

impl fmt::Display for FacesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FacesError::NotAFace { index, face } => {
                write!(
                    f,
                    "face {face} (number {}) is not a face of a d6 (1–6)",
                    index + 1
                )
            }
            FacesError::TooFew { given: 1 } => {
                f.write_str("1 face is not enough: the pool and its explosions need more dice")
            }
            FacesError::TooFew { given } => write!(
                f,
                "{given} faces are not enough: the pool and its explosions need more dice"
            ),
            FacesError::TooMany { used, given } => {
                let faces = if *given == 1 { "face" } else { "faces" };
                match used {
                    0 => write!(f, "{given} {faces} given but an empty pool uses none"),
                    used => write!(
                        f,
                        "{given} {faces} given but the pool and its explosions use only {used}"
                    ),
                }
            }
        }
    }
}

impl std::error::Error for FacesError {}

/// Roll `pool` with the seeded generator.
pub fn roll(pool: &[PoolEntry], seed: Seed) -> CheckRoll {
    let mut rng = DiceRng::new(seed);
    let dice = roll_from(pool, &mut rng).expect("the seeded generator never runs out");
    CheckRoll {
        seed: Some(seed),
        dice,
    }
}

/// Roll `pool` with faces the caller supplies, in the order they would be rolled: the pool,
/// then each wave of explosions. Every face must be used.
///
/// ```
/// use dice::check::{roll_given_faces, Outcome, PoolEntry};
/// // The seeds' worked example: three pairs and two reward dice against difficulty 3.
/// let pool = [
///     PoolEntry::MatchingPair { pair: 1 },
///     PoolEntry::MatchingPair { pair: 2 },
///     PoolEntry::MatchingPair { pair: 3 },
///     PoolEntry::RewardDie { precursor: 7 },
///     PoolEntry::RewardDie { precursor: 8 },
/// ];
/// let roll = roll_given_faces(&pool, &[3, 6, 5, 1, 6, 2, 6, 4]).unwrap();
/// assert_eq!(roll.hits(), 5);
/// assert_eq!(roll.outcome(3), Outcome::Success);
/// ```
pub fn roll_given_faces(pool: &[PoolEntry], faces: &[u8]) -> Result<CheckRoll, FacesError> {
    if let Some(index) = faces.iter().position(|&f| !(1..=6).contains(&f)) {
        return Err(FacesError::NotAFace {
            index,
            face: faces[index],
        });
    }
    let mut given = GivenFaces::new(faces);
    let dice = roll_from(pool, &mut given).ok_or(FacesError::TooFew { given: faces.len() })?;
    if given.unused() > 0 {
        return Err(FacesError::TooMany {
            used: dice.len(),
            given: faces.len(),
        });
    }
    Ok(CheckRoll { seed: None, dice })
}

/// The dice in rolling order; faces are drawn in the same order as the dice are listed, so the
/// list is also the order of the face stream.
fn roll_from(pool: &[PoolEntry], source: &mut impl FaceSource) -> Option<Vec<RolledDie>> {
    let mut dice = Vec::with_capacity(pool.len() + pool.len() / 5 + 1);
    for &entry in pool {
        dice.push(RolledDie {
            face: source.next_face(6)?,
            cause: Cause::Pool(entry),
        });
    }
    // A queue walk: each six appends one die at the end, so the list grows wave by wave. It ends
    // with probability 1; the expected number of added dice is a fifth of the pool.
    let mut next = 0;
    while next < dice.len() {
        if dice[next].explodes() {
            dice.push(RolledDie {
                face: source.next_face(6)?,
                cause: Cause::ExplodedFrom(next),
            });
        }
        next += 1;
    }
    Some(dice)
}

/// Per byte of the stream: 0 skipped (252–255), 1 a miss, 2 a hit, 3 a six (a hit and one more
/// die). The same reading of bytes as [`DiceRng::face`], so sampling a seed counts the same hits
/// as rolling it.
const D6_BYTE_CLASS: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 252 {
        let face = b % 6 + 1;
        table[b] = if face == 6 {
            3
        } else if face >= 4 {
            2
        } else {
            1
        };
        b += 1;
    }
    table
};

/// The number of hits of a pool of `dice` exploding dice, without recording the dice: the
/// sampler for simulations. For the same generator state it counts the same hits as [`roll`].
#[inline]
pub fn sample_hits(dice: u32, rng: &mut DiceRng) -> u32 {
    let mut hits = 0u32;
    // Read the stream in batches: every byte of a batch is needed (the pool cannot be done
    // before its last pending die), and each skipped byte or six asks for one more byte in the
    // next batch. This consumes exactly the bytes that `roll` does, with a predictable inner loop.
    let mut batch = dice;
    while batch > 0 {
        let mut more = 0u32;
        rng.read_bytes(batch, |byte| {
            let class = D6_BYTE_CLASS[usize::from(byte)];
            hits += u32::from(class >= 2);
            more += u32::from(class == 0) + u32::from(class == 3);
        });
        batch = more;
    }
    hits
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(n: usize) -> Vec<PoolEntry> {
        vec![PoolEntry::Die; n]
    }

    #[test]
    fn worked_example_waves_and_causes() {
        let roll = roll_given_faces(&plain(5), &[3, 6, 5, 1, 6, 2, 6, 4]).unwrap();
        assert_eq!(roll.waves(), vec![0..5, 5..7, 7..8]);
        let from: Vec<_> = roll.dice.iter().map(|d| d.exploded_from()).collect();
        assert_eq!(
            from,
            [None, None, None, None, None, Some(1), Some(4), Some(6)]
        );
    }

    #[test]
    fn supplied_faces_must_fit_the_pool_exactly() {
        assert_eq!(
            roll_given_faces(&plain(2), &[6, 3]),
            Err(FacesError::TooFew { given: 2 })
        );
        assert_eq!(
            roll_given_faces(&plain(2), &[1, 2, 3]),
            Err(FacesError::TooMany { used: 2, given: 3 })
        );
        assert_eq!(
            roll_given_faces(&plain(1), &[7]),
            Err(FacesError::NotAFace { index: 0, face: 7 })
        );
    }

    #[test]
    fn empty_pool_is_zero_hits_and_fails() {
        let roll = roll(&[], Seed(1));
        assert!(roll.dice.is_empty());
        assert_eq!(roll.outcome(1), Outcome::Failure);
        assert!(roll.waves().is_empty());
    }

    #[test]
    fn sampler_counts_the_same_hits_as_rolling() {
        for seed in 0..2_000 {
            for n in [1, 5, 12] {
                let mut rng = DiceRng::new(Seed(seed));
                assert_eq!(
                    sample_hits(n, &mut rng),
                    roll(&plain(n as usize), Seed(seed)).hits()
                );
            }
        }
    }

    #[test]
    fn seeded_rolls_verify_and_tampered_ones_do_not() {
        let mut r = roll(&plain(6), Seed(99));
        assert!(r.verify());
        r.dice[0].face = if r.dice[0].face == 1 { 2 } else { 1 };
        assert!(!r.verify());
    }
}
