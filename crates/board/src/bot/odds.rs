//! Battles as a bot foresees them: exact 1d6 against 1d6 chances, and each Creature as a foe.

use crate::command::BattleKind;
use crate::content::{Creature, CreatureStats, SpecialKind};
use crate::encounter::{Battle, OPTIONAL_WILLS_MAGIC, Stage, THREE_LIVES};
use crate::ids::AdventureId;
use crate::model::Adventurer;

/// Of the 36 pairs of faces, how many a roll wins where her value minus theirs is `diff`.
pub(super) const fn wins_of_36(diff: i32) -> u32 {
    let mut n = 0;
    let mut a = 1;
    while a <= 6 {
        let mut b = 1;
        while b <= 6 {
            if a + diff > b {
                n += 1;
            }
            b += 1;
        }
        a += 1;
    }
    n
}

/// P(win) of one roll by `diff` + 6 (the difference clamped to -6..=6), worked out once: a
/// division per roll showed in profiles.
pub(super) const WIN_CHANCE: [f32; 13] = {
    let mut table = [0.0; 13];
    let mut i = 0;
    while i < 13 {
        table[i] = wins_of_36(i as i32 - 6) as f32 / 36.0;
        i += 1;
    }
    table
};

/// P(win) of one roll with `diff` = hers − theirs.
pub(super) fn win_chance(diff: i32) -> f32 {
    WIN_CHANCE[(diff.clamp(-6, 6) + 6) as usize]
}

/// P(win) and P(loss) of a battle: `lives` rolls to win in a row, `first` added to the first;
/// with `draw_is_loss`, a drawn roll loses.
pub(super) fn stage_odds(
    yours: i32,
    first: i32,
    theirs: i32,
    lives: u32,
    draw_is_loss: bool,
) -> (f32, f32) {
    let diff = yours.saturating_sub(theirs);
    let first_diff = diff.saturating_add(first);
    let roll = |diff: i32| {
        let win = win_chance(diff);
        (
            win,
            if draw_is_loss {
                1.0 - win
            } else {
                win_chance(-diff)
            },
        )
    };
    let (w1, l1) = roll(first_diff);
    let (w, l) = roll(diff);
    let (mut reach, mut loss) = (w1, l1);
    for _ in 1..lives.max(1) {
        loss += reach * l;
        reach *= w;
    }
    (reach, loss)
}

/// A second battle fought only after winning the first: both must be won.
pub(super) fn then_odds(first: (f32, f32), second: (f32, f32)) -> (f32, f32) {
    (first.0 * second.0, first.1 + first.0 * second.1)
}

/// A Creature as the bots foresee a battle with it before moving: the battles its card allows
/// (mirroring [`crate::encounter::battle`], which decides the real one), worked out once per
/// content in the [`Map`](super::Map).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Foe {
    /// Rolls to win in a row.
    pub(super) lives: u32,
    /// Its Strength, if a Battle of Strength is allowed.
    pub(super) strength: Option<i32>,
    /// A Battle of Wills, if allowed.
    pub(super) wills: Option<Wills>,
    /// Magic it drains before the first roll.
    pub(super) drain: u32,
    /// A drawn roll loses.
    pub(super) draw_is_loss: bool,
}

/// A Battle of Wills against a [`Foe`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Wills {
    /// Its Willpower.
    pub(super) theirs: i32,
    /// Magic she pays to start it (the optional Battle of Wills).
    pub(super) pay: u32,
    /// Its Strength, to beat in a Battle of Strength after winning this one.
    pub(super) then: Option<i32>,
}

impl Foe {
    /// The battle of `kind` she would fight against it now without Items, as
    /// [`crate::encounter::battle`] works it out (checked against it when debug assertions are
    /// on); `None` where that refuses it. Cheaper than asking the engine: a bot weighs both
    /// kinds before every fight.
    pub(super) fn bare_battle(
        &self,
        card: AdventureId,
        kind: BattleKind,
        me: &Adventurer,
    ) -> Option<Battle> {
        let value = |n: u32| i32::try_from(n).unwrap_or(i32::MAX);
        let drained = self.drain.min(me.magic.right);
        let (yours, theirs, magic_cost, then) = match kind {
            BattleKind::Strength => (value(me.health.right), self.strength?, 0, None),
            BattleKind::Wills => {
                let wills = self.wills?;
                let magic = me.magic.right - drained;
                if magic < wills.pay {
                    return None;
                }
                let then = wills.then.map(|theirs| Stage {
                    yours: value(me.health.right),
                    first_roll_bonus: 0,
                    thrown: None,
                    theirs,
                });
                (value(magic - wills.pay), wills.theirs, wills.pay, then)
            }
        };
        Some(Battle {
            card,
            kind,
            yours,
            first_roll_bonus: 0,
            thrown: None,
            theirs,
            magic_cost,
            drained,
            lives: self.lives,
            draw_is_loss: self.draw_is_loss,
            then,
        })
    }

    pub(super) fn of(creature: &Creature) -> Foe {
        let special = creature.special.as_ref().map(|r| r.rule);
        let stats = creature.stats;
        let strength = match (special, stats) {
            (Some(SpecialKind::OnlyWills | SpecialKind::WillsThenStrength), _) => None,
            (
                _,
                CreatureStats::Strength(s)
                | CreatureStats::StrengthThenWillpower { strength: s, .. },
            ) => Some(s),
            _ => None,
        };
        let battle = |theirs, pay, then| Wills { theirs, pay, then };
        let wills = match (special, stats) {
            (Some(SpecialKind::OnlyStrength), _) => None,
            (Some(rule @ (SpecialKind::OnlyWills | SpecialKind::WillsThenStrength)), _) => {
                let then = if rule == SpecialKind::WillsThenStrength {
                    stats.strength()
                } else {
                    None
                };
                stats.willpower().map(|w| battle(w, 0, then))
            }
            (
                _,
                CreatureStats::Willpower(w)
                | CreatureStats::WillpowerThenStrength { willpower: w, .. },
            ) => Some(battle(w, 0, None)),
            (_, CreatureStats::StrengthThenWillpower { willpower: w, .. }) => {
                Some(battle(w, OPTIONAL_WILLS_MAGIC, None))
            }
            (_, CreatureStats::Strength(_)) => None,
        };
        Foe {
            lives: if creature.three_lives { THREE_LIVES } else { 1 },
            strength,
            wills,
            drain: match special {
                Some(SpecialKind::DrainBefore { magic }) => magic,
                _ => 0,
            },
            draw_is_loss: special == Some(SpecialKind::DrawIsLoss),
        }
    }
}
