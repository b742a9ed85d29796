//! Exact odds that each scene of a planned outline succeeds, counting reward dice.
//!
//! A scene's pool is one die per planned matching pair plus one reward die per precursor that
//! succeeds. Precursors succeed or fail independently of each other given the plan, so a scene's
//! number of hits is the hits of its `pairs` dice plus, for each precursor `i`, with probability
//! `p_i`, the hits of one more die. Only whether hits reach the difficulty `d` matters, so the
//! distribution is kept for `0 … d − 1` hits (the first `d` terms of a convolution of
//! non-negative variables are exact whatever is cut off): the pool's `d` terms in closed form,
//! then each precursor mixed in with `O(d)` operations, so the whole outline costs
//! `O(scenes × d²)` arithmetic operations at most, with no enumeration of outcome combinations.
//! Scenes are visited children before parents, iteratively.
//!
//! The exact path counts in sixths (`n / 6^e`: every probability of these dice is one) and
//! reduces each scene's result to a [`Probability`] once; the `f64` path runs the same code.
//! The exact fractions grow with the outline (the Finale's denominator has about 0.8 digits per
//! pair and scene below it), which is why plans bound the pairs.
//!
//! A scene whose outcome is known has probability 1 or 0, whatever its precursors. The odds of a
//! scene are its odds as planned: they are not conditioned on outcomes recorded above it (a plan
//! may record a parent's outcome before a precursor's).

use dice::Probability;
use dice::check::Outcome;
use num_bigint::{BigInt, Sign};
use std::borrow::Cow;
use std::fmt;

use crate::Ruleset;

/// Most matching pairs a scene may plan: far beyond any table (a scene usually has a handful), and
/// it keeps the exact fractions to a few thousand digits per scene.
pub const MAX_PAIRS: u32 = 1000;

/// The most pairs per scene [`pairs_for_even_finale`] tries.
pub const EVEN_FINALE_SEARCH: u32 = 100;

/// One scene of a planned outline, in the rules' words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlannedScene {
    /// The index of the scene this one is a precursor of; `None` for the Finale.
    pub parent: Option<usize>,
    /// Matching pairs the players expect to find (0 to [`MAX_PAIRS`]).
    pub pairs: u32,
    /// The outcome, once the scene has been performed.
    pub outcome: Option<Outcome>,
}

/// The exact odds of one scene.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SceneOdds {
    /// Edges between the scene and the Finale (the Finale is 0).
    pub depth: u32,
    /// The scene's difficulty rating.
    pub difficulty: u32,
    /// P(the scene succeeds): 1 or 0 once performed.
    pub p_success: Probability,
}

/// Why a list of planned scenes is not an outline. Scenes are named by their index in the list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OutlineError {
    /// No scene is without a parent (or there are no scenes at all).
    NoFinale,
    /// Two scenes have no parent; only the Finale may be without one.
    SeveralFinales {
        /// The first scene without a parent.
        first: usize,
        /// The second.
        second: usize,
    },
    /// A scene names a parent index that is not in the list.
    UnknownParent {
        /// The scene.
        scene: usize,
        /// The index it names.
        parent: usize,
    },
    /// Following parents from these scenes comes back to where it started instead of reaching
    /// the Finale (a scene that is its own parent is a cycle of one).
    Cycle {
        /// The scenes of the cycle, in parent order, starting with the lowest index.
        scenes: Vec<usize>,
    },
    /// A scene is so far below the Finale that its difficulty would be zero or less.
    TooDeep {
        /// The scene.
        scene: usize,
        /// Its depth.
        depth: u32,
        /// The deepest a scene may be under the ruleset.
        max: u32,
    },
    /// A scene plans more than [`MAX_PAIRS`] pairs.
    TooManyPairs {
        /// The scene.
        scene: usize,
        /// The pairs it plans.
        pairs: u32,
    },
}

impl fmt::Display for OutlineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OutlineError::NoFinale => {
                f.write_str("no Finale: exactly one scene must have no parent")
            }
            OutlineError::SeveralFinales { first, second } => write!(
                f,
                "scenes {first} and {second} both have no parent, but only the Finale may be without one"
            ),
            OutlineError::UnknownParent { scene, parent } => write!(
                f,
                "scene {scene} names scene {parent} as its parent, but there is no such scene"
            ),
            OutlineError::Cycle { scenes } => {
                let names: Vec<String> = scenes.iter().map(usize::to_string).collect();
                write!(
                    f,
                    "the parents of scenes {} form a cycle instead of leading to the Finale",
                    names.join(", ")
                )
            }
            OutlineError::TooDeep { scene, depth, max } => write!(
                f,
                "scene {scene} is {depth} levels below the Finale; a scene may be at most {max} levels below it"
            ),
            OutlineError::TooManyPairs { scene, pairs } => write!(
                f,
                "scene {scene} plans {pairs} matching pairs; at most {MAX_PAIRS} are allowed"
            ),
        }
    }
}

impl std::error::Error for OutlineError {}

/// A checked outline: one Finale, every scene reachable from it within the ruleset's depth, and
/// the order to visit scenes in.
#[derive(Debug, Clone)]
pub struct OutlineShape {
    finale: usize,
    depth: Vec<u32>,
    /// Breadth-first from the Finale: parents before children.
    order: Vec<usize>,
    /// Precursors of scene `s` are `children[child_start[s]..child_start[s + 1]]`, in index
    /// order (one allocation instead of a `Vec` per scene, for 100,000-scene trees).
    child_start: Vec<usize>,
    children: Vec<usize>,
}

impl OutlineShape {
    /// Checks that `scenes` form an outline under `ruleset`.
    pub fn new(ruleset: Ruleset, scenes: &[PlannedScene]) -> Result<OutlineShape, OutlineError> {
        let n = scenes.len();
        let mut finale = None;
        let mut child_start = vec![0usize; n + 1];
        for (i, scene) in scenes.iter().enumerate() {
            if scene.pairs > MAX_PAIRS {
                return Err(OutlineError::TooManyPairs {
                    scene: i,
                    pairs: scene.pairs,
                });
            }
            match scene.parent {
                None => match finale {
                    None => finale = Some(i),
                    Some(first) => return Err(OutlineError::SeveralFinales { first, second: i }),
                },
                Some(parent) if parent >= n => {
                    return Err(OutlineError::UnknownParent { scene: i, parent });
                }
                Some(parent) => child_start[parent + 1] += 1,
            }
        }
        let finale = finale.ok_or(OutlineError::NoFinale)?;
        for i in 0..n {
            child_start[i + 1] += child_start[i];
        }
        let mut children = vec![0usize; n - 1];
        let mut next = child_start.clone();
        for (i, scene) in scenes.iter().enumerate() {
            if let Some(parent) = scene.parent {
                children[next[parent]] = i;
                next[parent] += 1;
            }
        }

        let max = ruleset.max_depth();
        let mut depth = vec![0u32; n];
        let mut reached = vec![false; n];
        let mut order = Vec::with_capacity(n);
        order.push(finale);
        reached[finale] = true;
        let mut head = 0;
        while let Some(&scene) = order.get(head) {
            head += 1;
            for &child in &children[child_start[scene]..child_start[scene + 1]] {
                let d = depth[scene] + 1;
                if d > max {
                    return Err(OutlineError::TooDeep {
                        scene: child,
                        depth: d,
                        max,
                    });
                }
                depth[child] = d;
                reached[child] = true;
                order.push(child);
            }
        }
        if order.len() < n {
            return Err(cycle(scenes, &reached));
        }
        Ok(OutlineShape {
            finale,
            depth,
            order,
            child_start,
            children,
        })
    }

    /// The index of the Finale.
    pub fn finale(&self) -> usize {
        self.finale
    }

    /// Edges between `scene` and the Finale.
    pub fn depth(&self, scene: usize) -> u32 {
        self.depth[scene]
    }

    /// The precursors of `scene`, in index order.
    pub fn precursors(&self, scene: usize) -> &[usize] {
        &self.children[self.child_start[scene]..self.child_start[scene + 1]]
    }

    /// Every scene, parents before their precursors (breadth-first from the Finale).
    pub fn top_down(&self) -> &[usize] {
        &self.order
    }
}

/// A cycle among the scenes the Finale does not reach. Every such scene has a parent that is not
/// reached either (a reached scene's precursors are reached), so walking up from one must loop.
fn cycle(scenes: &[PlannedScene], reached: &[bool]) -> OutlineError {
    let start = reached.iter().position(|&r| !r).unwrap_or(0);
    let mut seen = vec![false; scenes.len()];
    let mut at = start;
    while !seen[at] {
        seen[at] = true;
        match scenes[at].parent {
            Some(parent) => at = parent,
            None => break, // unreachable for a checked list; stop rather than loop
        }
    }
    let mut members = vec![at];
    let mut next = scenes[at].parent;
    while let Some(parent) = next.filter(|&p| p != at) {
        members.push(parent);
        next = scenes[parent].parent;
    }
    let lowest = (0..members.len()).min_by_key(|&i| members[i]).unwrap_or(0);
    members.rotate_left(lowest);
    OutlineError::Cycle { scenes: members }
}

/// The arithmetic the solver needs, in exact fractions and in `f64`.
trait Odds: Clone {
    fn zero() -> Self;
    fn one() -> Self;
    fn plus(&self, other: &Self) -> Self;
    fn minus(&self, other: &Self) -> Self;
    fn times(&self, other: &Self) -> Self;
    fn is_zero(&self) -> bool;
    /// `self · n / 6^sixths`.
    fn scaled(&self, n: u32, sixths: u32) -> Self;
    /// P(a pool of `dice` scores k hits) for k < `terms`, into `out`.
    fn pool(dice: u32, terms: u32, out: &mut Vec<Self>);
}

/// An exact probability as `numerator / 6^exponent`. Every probability of these dice has such a
/// denominator, so sums and products need no greatest common divisor, which is most of the cost
/// of reduced fractions; each scene's result is reduced once, at the end.
#[derive(Debug, Clone)]
struct Sixths {
    numerator: BigInt,
    exponent: u32,
}

impl Sixths {
    fn new(numerator: BigInt, exponent: u32) -> Sixths {
        Sixths {
            numerator,
            exponent,
        }
    }

    /// `(a, b, exponent)`: both numerators over the larger of the two denominators.
    fn aligned<'a>(&'a self, other: &'a Sixths) -> (Cow<'a, BigInt>, Cow<'a, BigInt>, u32) {
        use std::cmp::Ordering::*;
        let (a, b) = (&self.numerator, &other.numerator);
        match self.exponent.cmp(&other.exponent) {
            Equal => (Cow::Borrowed(a), Cow::Borrowed(b), self.exponent),
            Less => {
                let a = times_power_of_six(a, other.exponent - self.exponent);
                (Cow::Owned(a), Cow::Borrowed(b), other.exponent)
            }
            Greater => {
                let b = times_power_of_six(b, self.exponent - other.exponent);
                (Cow::Borrowed(a), Cow::Owned(b), self.exponent)
            }
        }
    }

    fn to_probability(&self) -> Probability {
        Probability::new(self.numerator.clone(), power_of_six(self.exponent))
    }

    /// `self ≥ 1/2`.
    fn at_least_half(&self) -> bool {
        &self.numerator * 2u32 >= power_of_six(self.exponent)
    }
}

/// `6^m`, without big-integer arithmetic while it fits in a `u128` (6^49 < 2^127).
fn power_of_six(m: u32) -> BigInt {
    if m <= 49 {
        BigInt::from(6u128.pow(m))
    } else {
        BigInt::from(6u32).pow(m)
    }
}

/// `n · 6^m`, by a machine-word factor when it fits (6^24 < 2^64), as it nearly always does.
fn times_power_of_six(n: &BigInt, m: u32) -> BigInt {
    if n.sign() == Sign::NoSign {
        BigInt::ZERO
    } else if m <= 24 {
        n * 6u64.pow(m)
    } else {
        n * power_of_six(m)
    }
}

impl Odds for Sixths {
    fn zero() -> Self {
        Sixths::new(BigInt::ZERO, 0)
    }
    fn one() -> Self {
        Sixths::new(BigInt::from(1u32), 0)
    }
    fn plus(&self, other: &Self) -> Self {
        let (a, b, exponent) = self.aligned(other);
        Sixths::new(a.as_ref() + b.as_ref(), exponent)
    }
    fn minus(&self, other: &Self) -> Self {
        let (a, b, exponent) = self.aligned(other);
        Sixths::new(a.as_ref() - b.as_ref(), exponent)
    }
    fn times(&self, other: &Self) -> Self {
        Sixths::new(
            &self.numerator * &other.numerator,
            self.exponent + other.exponent,
        )
    }
    fn is_zero(&self) -> bool {
        self.numerator.sign() == Sign::NoSign
    }
    fn scaled(&self, n: u32, sixths: u32) -> Self {
        Sixths::new(&self.numerator * n, self.exponent + sixths)
    }
    fn pool(dice: u32, terms: u32, out: &mut Vec<Self>) {
        // The closed form of the f64 path over the common denominator: since 2^(−n) = 3^n / 6^n,
        // P(k) = 3^n · Σ_j C(n, j)·C(k−1, j−1)·5^j / 6^(n+k), and P(0) = 3^n / 6^n.
        out.clear();
        let three_n = BigInt::from(3u32).pow(dice);
        out.push(Sixths::new(three_n.clone(), dice));
        for k in 1..terms {
            let sum =
                scoring_ways_small(dice, k).map_or_else(|| scoring_ways(dice, k), BigInt::from);
            out.push(Sixths::new(sum * &three_n, dice + k));
        }
    }
}

/// `Σ_j C(n, j)·C(k−1, j−1)·5^j` for `j = 1 ..= min(n, k)`: the ways, in sixths, that `n` dice
/// score exactly `k ≥ 1` hits, apart from the factor `3^n`.
fn scoring_ways(n: u32, k: u32) -> BigInt {
    let mut sum = BigInt::ZERO;
    let mut n_choose_j = BigInt::from(1u32);
    let mut k1_choose_j1 = BigInt::from(1u32);
    let mut five_j = BigInt::from(1u32);
    for j in 1..=k.min(n) {
        n_choose_j = n_choose_j * (n - j + 1) / j;
        if j > 1 {
            k1_choose_j1 = k1_choose_j1 * (k - j + 1) / (j - 1);
        }
        five_j *= 5u32;
        sum += &n_choose_j * &k1_choose_j1 * &five_j;
    }
    sum
}

/// [`scoring_ways`] in `u128` while it fits, as it does for every difficulty of the rules (it
/// halves the cost of a small exact outline).
fn scoring_ways_small(n: u32, k: u32) -> Option<u128> {
    let (mut sum, mut n_choose_j, mut k1_choose_j1, mut five_j) = (0u128, 1u128, 1u128, 1u128);
    for j in 1..=k.min(n) {
        n_choose_j = n_choose_j.checked_mul(u128::from(n - j + 1))? / u128::from(j);
        if j > 1 {
            k1_choose_j1 = k1_choose_j1.checked_mul(u128::from(k - j + 1))? / u128::from(j - 1);
        }
        five_j = five_j.checked_mul(5)?;
        let term = n_choose_j.checked_mul(k1_choose_j1)?.checked_mul(five_j)?;
        sum = sum.checked_add(term)?;
    }
    Some(sum)
}

impl Odds for f64 {
    fn zero() -> Self {
        0.0
    }
    fn one() -> Self {
        1.0
    }
    fn plus(&self, other: &Self) -> Self {
        self + other
    }
    fn minus(&self, other: &Self) -> Self {
        self - other
    }
    fn times(&self, other: &Self) -> Self {
        self * other
    }
    fn is_zero(&self) -> bool {
        *self == 0.0
    }
    fn scaled(&self, n: u32, sixths: u32) -> Self {
        self * f64::from(n) / 6f64.powi(sixths as i32)
    }
    fn pool(dice: u32, terms: u32, out: &mut Vec<Self>) {
        // Closed form, O(terms²) whatever the pool: j of the n dice score (each with
        // probability 1/2), and j dice that score share k hits as a negative binomial,
        // C(k−1, j−1)·(5/6)^j·(1/6)^(k−j). So P(k) = 2^(−n)·Σ_j C(n, j)·C(k−1, j−1)·(5/6)^j·(1/6)^(k−j).
        out.clear();
        let n = f64::from(dice);
        let half_n = 0.5f64.powi(dice.min(i32::MAX as u32) as i32);
        out.push(half_n);
        for k in 1..terms {
            let mut sum = 0.0;
            let mut n_choose_j = 1.0; // C(n, j)
            let mut k1_choose_j1 = 1.0; // C(k − 1, j − 1)
            for j in 1..=k.min(dice) {
                let jf = f64::from(j);
                n_choose_j *= (n - jf + 1.0) / jf;
                if j > 1 {
                    k1_choose_j1 *= f64::from(k - j + 1) / f64::from(j - 1);
                }
                sum += n_choose_j
                    * k1_choose_j1
                    * (5.0f64 / 6.0).powi(j as i32)
                    * (1.0f64 / 6.0).powi((k - j) as i32);
            }
            out.push(half_n * sum);
        }
    }
}

/// P(success) of every scene, visiting children before parents. `pairs` gives each scene's
/// planned pairs (so that [`pairs_for_even_finale`] can try other plans on the same shape).
fn solve<T: Odds>(
    ruleset: Ruleset,
    shape: &OutlineShape,
    scenes: &[PlannedScene],
    pairs: impl Fn(usize) -> u32,
) -> Vec<T> {
    let mut p = vec![T::zero(); scenes.len()];
    let mut hits: Vec<T> = Vec::with_capacity(ruleset.finale_difficulty() as usize);
    for &scene in shape.order.iter().rev() {
        p[scene] = match scenes[scene].outcome {
            Some(Outcome::Success) => T::one(),
            Some(Outcome::Failure) => T::zero(),
            None => {
                let d = ruleset.difficulty_at_depth(shape.depth[scene]).unwrap_or(1);
                T::pool(pairs(scene), d, &mut hits);
                for &child in shape.precursors(scene) {
                    add_reward_die(&mut hits, &p[child]);
                }
                let below = hits.iter().fold(T::zero(), |sum, h| sum.plus(h));
                T::one().minus(&below)
            }
        };
    }
    p
}

/// Mixes into `hits` (P(k hits) for k < d) one more die present with probability `q`:
/// `new[k] = (1 − q)·hits[k] + q·reward[k]`, where `reward` = `hits` convolved with one die.
///
/// One die scores 0 with probability 3/6 and `m ≥ 1` with 15/6^(m+1), so
/// `reward[k] = (3/6)·hits[k] + (15/6)·below[k]` with `below[k] = Σ_{j<k} hits[j]/6^(k−j)`, which
/// satisfies `below[k+1] = (below[k] + hits[k])/6`: O(d) per precursor rather than O(d²), in
/// place, lowest `k` first.
fn add_reward_die<T: Odds>(hits: &mut [T], q: &T) {
    if q.is_zero() {
        return;
    }
    let mut below = T::zero();
    for h in hits.iter_mut() {
        let reward = h.scaled(3, 1).plus(&below.scaled(15, 1));
        below = below.plus(h).scaled(1, 1);
        *h = h.plus(&q.times(&reward.minus(h)));
    }
}

/// Exact P(success) of every scene of an outline, in the order given, with its depth and
/// difficulty.
pub fn outline_odds(
    ruleset: Ruleset,
    scenes: &[PlannedScene],
) -> Result<Vec<SceneOdds>, OutlineError> {
    let shape = OutlineShape::new(ruleset, scenes)?;
    let p = solve::<Sixths>(ruleset, &shape, scenes, |s| scenes[s].pairs);
    Ok(p.iter()
        .enumerate()
        .map(|(scene, p)| {
            let depth = shape.depth[scene];
            SceneOdds {
                depth,
                difficulty: ruleset.difficulty_at_depth(depth).unwrap_or(1),
                p_success: p.to_probability(),
            }
        })
        .collect())
}

/// P(success) of every scene in `f64`, fast (the same computation as [`outline_odds`]; they
/// agree to about 1e-15).
pub fn outline_odds_f64(
    ruleset: Ruleset,
    scenes: &[PlannedScene],
) -> Result<Vec<f64>, OutlineError> {
    let shape = OutlineShape::new(ruleset, scenes)?;
    Ok(solve::<f64>(ruleset, &shape, scenes, |s| scenes[s].pairs))
}

/// [`outline_odds_f64`], and the Finale's P(success) in `f64` if a scene succeeded and if it
/// failed, `[success, failure]`, for each scene of `asked` (an index into `scenes`; a recorded
/// outcome is set aside): a table's view shows both after every change of the odds.
///
/// The what-if is the same arithmetic as [`outline_odds_f64`] on each changed plan, to the
/// last bit, but the outline is solved once: a scene's outcome changes only the scenes between
/// it and the Finale, so only those are worked out again (a few per question instead of the
/// whole outline twice).
pub fn outline_odds_and_finale_if_f64(
    ruleset: Ruleset,
    scenes: &[PlannedScene],
    asked: &[usize],
) -> Result<(Vec<f64>, Vec<[f64; 2]>), OutlineError> {
    let shape = OutlineShape::new(ruleset, scenes)?;
    let p = solve::<f64>(ruleset, &shape, scenes, |s| scenes[s].pairs);
    let mut hits = Vec::with_capacity(ruleset.finale_difficulty() as usize);
    let mut finale_if = |scene: usize, chance: f64| {
        let (mut at, mut chance) = (scene, chance);
        while let Some(parent) = scenes[at].parent {
            if scenes[parent].outcome.is_some() {
                // Its outcome holds whatever its precursors did, and so does everything above.
                return p[shape.finale];
            }
            let d = ruleset
                .difficulty_at_depth(shape.depth[parent])
                .unwrap_or(1);
            <f64 as Odds>::pool(scenes[parent].pairs, d, &mut hits);
            for &child in shape.precursors(parent) {
                add_reward_die(&mut hits, if child == at { &chance } else { &p[child] });
            }
            let below = hits.iter().fold(0.0, |sum, h| sum.plus(h));
            (at, chance) = (parent, 1.0.minus(&below));
        }
        chance
    };
    let answers = asked
        .iter()
        .map(|&scene| [finale_if(scene, 1.0), finale_if(scene, 0.0)])
        .collect();
    Ok((p, answers))
}

/// How many pairs per scene the Finale needs for an even chance.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EvenFinale {
    /// The Finale has been performed: its outcome is known.
    Performed(Outcome),
    /// The fewest pairs which, planned in every scene not yet performed, give the Finale
    /// P(success) ≥ 1/2.
    Pairs(u32),
    /// Not even [`EVEN_FINALE_SEARCH`] pairs per scene do. (Under the three rulesets they always
    /// do: the Finale's own pairs suffice.)
    Beyond(u32),
}

/// The smallest `k` such that giving every scene not yet performed `k` matching pairs gives the
/// Finale P(success) ≥ 1/2 (performed scenes keep their outcomes).
///
/// More pairs never lower any scene's chance, so the first `k` that reaches 1/2 is the least.
/// Each `k` is tried in `f64`, and exactly when the `f64` value is within 1e-9 of one half
/// (a Finale can have exactly 1/2).
pub fn pairs_for_even_finale(
    ruleset: Ruleset,
    scenes: &[PlannedScene],
) -> Result<EvenFinale, OutlineError> {
    let shape = OutlineShape::new(ruleset, scenes)?;
    let finale = shape.finale;
    if let Some(outcome) = scenes[finale].outcome {
        return Ok(EvenFinale::Performed(outcome));
    }
    for k in 0..=EVEN_FINALE_SEARCH {
        let p = solve::<f64>(ruleset, &shape, scenes, |_| k)[finale];
        let even = if (p - 0.5).abs() > 1e-9 {
            p > 0.5
        } else {
            solve::<Sixths>(ruleset, &shape, scenes, |_| k)[finale].at_least_half()
        };
        if even {
            return Ok(EvenFinale::Pairs(k));
        }
    }
    Ok(EvenFinale::Beyond(EVEN_FINALE_SEARCH))
}

#[cfg(test)]
mod tests {
    use super::*;
    use dice::check_odds::hit_distribution;

    fn scene(parent: Option<usize>, pairs: u32) -> PlannedScene {
        PlannedScene {
            parent,
            pairs,
            outcome: None,
        }
    }

    #[test]
    fn a_lone_finale_is_a_plain_check() {
        let odds = outline_odds(Ruleset::Edition10, &[scene(None, 5)]).unwrap();
        assert_eq!(odds[0].p_success.to_string(), "2371/6912");
        assert_eq!(odds[0].difficulty, 4);
    }

    #[test]
    fn closed_form_pools_match_the_dice_crate() {
        for dice in (0..=40u32).chain([999, 1000]) {
            let expected = hit_distribution(dice, 6).exact;
            let mut exact = Vec::new();
            Sixths::pool(dice, 6, &mut exact);
            let mut float = Vec::new();
            <f64 as Odds>::pool(dice, 6, &mut float);
            for k in 0..6 {
                assert_eq!(
                    exact[k].to_probability(),
                    expected[k],
                    "{dice} dice, {k} hits"
                );
                let error = (expected[k].to_f64() - float[k]).abs();
                assert!(
                    error <= 1e-13 * expected[k].to_f64(),
                    "{dice} dice, {k} hits"
                );
            }
        }
    }

    #[test]
    fn scoring_ways_in_u128_and_big_integers_agree() {
        for n in [0, 1, 2, 5, 40, 1000] {
            for k in 1..=8 {
                let small = scoring_ways_small(n, k).unwrap();
                assert_eq!(
                    BigInt::from(small),
                    scoring_ways(n, k),
                    "{n} dice, {k} hits"
                );
            }
        }
        // Far beyond u128: only the big-integer path can answer, and the pool still matches.
        assert_eq!(scoring_ways_small(1000, 40), None);
        let mut exact = Vec::new();
        Sixths::pool(60, 41, &mut exact);
        let expected = hit_distribution(60, 41).exact;
        assert_eq!(exact[40].to_probability(), expected[40]);
    }

    #[test]
    fn what_if_answers_are_those_of_the_changed_plans() {
        // Outlines of every shape the rules allow, some scenes performed, some pairs planned:
        // each answer is the Finale's odds of the whole plan solved again.
        let mut seed = 7u64;
        let mut next = |n: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % n
        };
        for ruleset in [Ruleset::Edition10, Ruleset::Edition11, Ruleset::Temporal] {
            for _ in 0..200 {
                let n = 1 + next(14) as usize;
                let mut scenes = vec![scene(None, next(4) as u32)];
                for i in 1..n {
                    // A parent above the deepest level a scene may have.
                    let candidates: Vec<usize> = (0..i)
                        .filter(|&j| depth_of(&scenes, j) < ruleset.max_depth())
                        .collect();
                    let parent = candidates[next(candidates.len() as u64) as usize];
                    scenes.push(scene(Some(parent), next(4) as u32));
                }
                for planned in scenes.iter_mut() {
                    planned.outcome = match next(4) {
                        0 => Some(Outcome::Success),
                        1 => Some(Outcome::Failure),
                        _ => None,
                    };
                }
                let asked: Vec<usize> = (0..n).collect();
                let (odds, answers) =
                    outline_odds_and_finale_if_f64(ruleset, &scenes, &asked).unwrap();
                let plain = outline_odds_f64(ruleset, &scenes).unwrap();
                assert_eq!(
                    odds.iter().map(|p| p.to_bits()).collect::<Vec<_>>(),
                    plain.iter().map(|p| p.to_bits()).collect::<Vec<_>>()
                );
                let finale = 0;
                for (&i, answer) in asked.iter().zip(&answers) {
                    for (k, outcome) in [Outcome::Success, Outcome::Failure].into_iter().enumerate()
                    {
                        let mut what_if = scenes.clone();
                        what_if[i].outcome = Some(outcome);
                        let expected = outline_odds_f64(ruleset, &what_if).unwrap()[finale];
                        assert_eq!(
                            answer[k].to_bits(),
                            expected.to_bits(),
                            "{ruleset:?} {scenes:?} scene {i}"
                        );
                    }
                }
            }
        }
    }

    fn depth_of(scenes: &[PlannedScene], mut at: usize) -> u32 {
        let mut depth = 0;
        while let Some(parent) = scenes[at].parent {
            (at, depth) = (parent, depth + 1);
        }
        depth
    }

    #[test]
    fn sixths_arithmetic() {
        let third = Sixths::new(BigInt::from(2u32), 1);
        let half = Sixths::new(BigInt::from(18u32), 2);
        assert_eq!(third.plus(&half).to_probability(), Probability::new(5, 6));
        assert_eq!(half.minus(&third).to_probability(), Probability::new(1, 6));
        assert_eq!(third.times(&half).to_probability(), Probability::new(1, 6));
        assert!(half.at_least_half() && !third.at_least_half());
        assert!(Sixths::zero().is_zero() && !third.is_zero());
    }
}
