//! Opposed rolls of the Prophecy board game: your 1d6 + Strength (or Willpower) against the
//! creature's 1d6 + its value; higher total wins, equal totals draw. Creatures with three lives
//! must be beaten three rolls in a row.

use crate::exact::Probability;
use crate::rng::{DiceRng, Seed};
use serde::{Deserialize, Serialize};
use std::fmt;

/// The result of one roll, or of a whole battle, from your side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BattleOutcome {
    /// Your total was higher.
    Win,
    /// Equal totals.
    Draw,
    /// The opponent's total was higher.
    Loss,
}

impl fmt::Display for BattleOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            BattleOutcome::Win => "win",
            BattleOutcome::Draw => "draw",
            BattleOutcome::Loss => "loss",
        })
    }
}

/// Exact chances of each outcome.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BattleOdds {
    /// P(win).
    pub win: Probability,
    /// P(draw).
    pub draw: Probability,
    /// P(loss).
    pub loss: Probability,
}

/// One opposed roll: your d6 + `yours` against their d6 + `theirs`.
pub fn opposed_odds(yours: i32, theirs: i32) -> BattleOdds {
    let (mut win, mut draw, mut loss) = (0u32, 0u32, 0u32);
    for mine in 1..=6 {
        for other in 1..=6 {
            match (mine + yours).cmp(&(other + theirs)) {
                std::cmp::Ordering::Greater => win += 1,
                std::cmp::Ordering::Equal => draw += 1,
                std::cmp::Ordering::Less => loss += 1,
            }
        }
    }
    BattleOdds {
        win: Probability::new(win, 36),
        draw: Probability::new(draw, 36),
        loss: Probability::new(loss, 36),
    }
}

/// A battle against a creature with three lives: roll until you have won three times or a roll
/// is not a win; that roll's draw or loss is the battle's.
pub fn three_lives_odds(yours: i32, theirs: i32) -> BattleOdds {
    let one = opposed_odds(yours, theirs);
    // The battle reaches roll i+1 only after i wins: 1 + w + w².
    let reaches = Probability::one();
    let reaches = &reaches + &one.win;
    let reaches = &reaches + &(&one.win * &one.win);
    BattleOdds {
        win: &(&one.win * &one.win) * &one.win,
        draw: &one.draw * &reaches,
        loss: &one.loss * &reaches,
    }
}

/// One rolled opposed roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpposedRoll {
    /// Your die (rolled first: the lighter die).
    pub your_die: u8,
    /// Their die.
    pub their_die: u8,
    /// Your total minus theirs decides.
    pub outcome: BattleOutcome,
}

/// A rolled battle: one roll, or up to three against a creature with three lives.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BattleRoll {
    /// The seed of the faces.
    pub seed: Seed,
    /// Every roll made, in order.
    pub rolls: Vec<OpposedRoll>,
    /// The battle's outcome.
    pub outcome: BattleOutcome,
}

/// One opposed roll from the generator (your die first).
pub fn sample(yours: i32, theirs: i32, rng: &mut DiceRng) -> OpposedRoll {
    let your_die = rng.d6();
    let their_die = rng.d6();
    let outcome = match (i32::from(your_die) + yours).cmp(&(i32::from(their_die) + theirs)) {
        std::cmp::Ordering::Greater => BattleOutcome::Win,
        std::cmp::Ordering::Equal => BattleOutcome::Draw,
        std::cmp::Ordering::Less => BattleOutcome::Loss,
    };
    OpposedRoll {
        your_die,
        their_die,
        outcome,
    }
}

/// Roll a battle; `lives` is 1 for an ordinary creature and 3 for one with three lives.
pub fn roll_battle(yours: i32, theirs: i32, lives: u32, seed: Seed) -> BattleRoll {
    let mut rng = DiceRng::new(seed);
    let mut rolls = Vec::new();
    let mut outcome = BattleOutcome::Win;
    for _ in 0..lives.max(1) {
        let roll = sample(yours, theirs, &mut rng);
        rolls.push(roll);
        if roll.outcome != BattleOutcome::Win {
            outcome = roll.outcome;
            break;
        }
    }
    BattleRoll {
        seed,
        rolls,
        outcome,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn even_battle() {
        let odds = opposed_odds(2, 2);
        assert_eq!(odds.win.to_string(), "5/12");
        assert_eq!(odds.draw.to_string(), "1/6");
        assert_eq!(odds.loss.to_string(), "5/12");
    }

    #[test]
    fn hopeless_and_certain() {
        assert_eq!(opposed_odds(0, 6).win, Probability::zero());
        assert_eq!(opposed_odds(6, 0).win, Probability::one());
    }

    #[test]
    fn three_lives_sum_to_one_and_need_three_wins() {
        for (a, b) in [(0, 0), (3, 1), (1, 4), (5, 0)] {
            let odds = three_lives_odds(a, b);
            let total = &(&odds.win + &odds.draw) + &odds.loss;
            assert_eq!(total, Probability::one());
            let w = opposed_odds(a, b).win;
            assert_eq!(odds.win, &(&w * &w) * &w);
        }
        // Even battle: (5/12)^3 = 125/1728.
        assert_eq!(three_lives_odds(0, 0).win.to_string(), "125/1728");
    }

    #[test]
    fn a_three_lives_battle_stops_at_the_first_roll_not_won() {
        for seed in 0..300 {
            let b = roll_battle(1, 1, 3, Seed(seed));
            let wins = b
                .rolls
                .iter()
                .filter(|r| r.outcome == BattleOutcome::Win)
                .count();
            match b.outcome {
                BattleOutcome::Win => assert_eq!((wins, b.rolls.len()), (3, 3)),
                other => {
                    assert_eq!(wins, b.rolls.len() - 1);
                    assert_eq!(b.rolls.last().unwrap().outcome, other);
                }
            }
        }
    }
}
