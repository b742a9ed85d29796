//! The spaces' Possibilities: recovering lost Health and Magic after moving (the Monastery,
//! the Forest Camp, the Enchanted Wilderness, the Magic Tower, the Village's tavern), and the
//! Possibilities instead of movement (the City, the Thieves' Guild, the Fortress).
//!
//! Readings of the rules:
//! - Recovering comes after the move (or the choice to stay) and after the Creature met there
//!   has been fought; the free ones and the tavern once per turn, the paid ones (Forest Camp,
//!   Magic Tower) any number of times. Recovering nothing (nothing lost, or an amount of 0) is
//!   refused rather than paid for.
//! - A Possibility instead of movement needs the turn's move to have been `Stay` (she started
//!   there and did not move), once per turn. She may spend her last Health and live at 0 (the
//!   rules kill only a loss of Health she does not have); with none left the trade is refused,
//!   as a card's price would be.

use crate::content::{Guild, SpaceKind};
use crate::event::Event;
use crate::ids::PlayerId;
use crate::model::{Experience, Gold, Phase};
use crate::refusal::Refusal;
use crate::state::State;
use crate::turn::{OneEvent, after_moving};

/// Most Magic the Enchanted Wilderness recharges for free (once per turn).
pub const WILDERNESS_RECHARGE: u32 = 3;

/// What recovering `amount` would do where she stands: (healed, recharged, Gold paid), or
/// why not.
pub fn recovery(state: &State, by: PlayerId, amount: u32) -> Result<(u32, u32, Gold), Refusal> {
    let (turn, adventurer, kind) = after_moving(state, by, Refusal::MoveFirst)?;
    let Some(kind) = kind else {
        return Err(Refusal::NoRecoveryHere);
    };
    let (health, magic) = (adventurer.health.left, adventurer.magic.left);
    let check = |most: u32| {
        if amount == 0 || amount > most {
            Err(Refusal::RecoveryAmount { most })
        } else {
            Ok(())
        }
    };
    let once = || {
        if turn.possibility_used {
            Err(Refusal::RecoveredThisTurn)
        } else {
            Ok(())
        }
    };
    let (healed, recharged, cost) = match kind {
        SpaceKind::Guild(Guild::Monastery) => {
            once()?;
            check(health.min(1))?;
            (amount, 0, 0)
        }
        SpaceKind::Guild(Guild::ForestCamp) => {
            check(health)?;
            (amount, 0, amount)
        }
        SpaceKind::EnchantedWilderness => {
            once()?;
            check(magic.min(WILDERNESS_RECHARGE))?;
            (0, amount, 0)
        }
        SpaceKind::Guild(Guild::MagicTower) => {
            check(magic)?;
            (0, amount, amount.div_ceil(2))
        }
        SpaceKind::Village => {
            once()?;
            if health == 0 && magic == 0 {
                return Err(Refusal::RecoveryAmount { most: 0 });
            }
            if amount != 1 {
                return Err(Refusal::RecoveryAmount { most: 1 });
            }
            (health.min(1), magic.min(1), 1)
        }
        _ => return Err(Refusal::NoRecoveryHere),
    };
    let cost = Gold(cost);
    if adventurer.gold < cost {
        return Err(Refusal::RecoveryGold {
            cost,
            has: adventurer.gold,
        });
    }
    Ok((healed, recharged, cost))
}

pub(crate) fn recover(state: &State, by: PlayerId, amount: u32) -> OneEvent {
    let (healed, recharged, paid) = recovery(state, by, amount)?;
    let Some(space) = state.adventurer(by).map(|a| a.space) else {
        return Err(Refusal::NotAPlayer);
    };
    Ok(Event::Recovered {
        player: by,
        space,
        healed,
        recharged,
        paid,
    })
}

pub(crate) fn trade(state: &State, by: PlayerId) -> OneEvent {
    let (turn, adventurer, kind) = after_moving(state, by, Refusal::StayFirst)?;
    let Some(kind) = kind else {
        return Err(Refusal::NoPossibilityHere);
    };
    let (health, magic, gold, experience) = match kind {
        SpaceKind::City => (0, 1, 2, 0),
        SpaceKind::Guild(Guild::ThievesGuild) => (1, 0, 3, 0),
        SpaceKind::Guild(Guild::Fortress) => (1, 0, 0, 2),
        _ => return Err(Refusal::NoPossibilityHere),
    };
    if !turn.stayed {
        return Err(Refusal::StayFirst);
    }
    if turn.possibility_used {
        return Err(Refusal::PossibilityUsed);
    }
    if health > adventurer.health.right {
        return Err(Refusal::NoHealthToSpend);
    }
    if magic > adventurer.magic.right {
        return Err(Refusal::NoMagicToSpend);
    }
    Ok(Event::Traded {
        player: by,
        space: adventurer.space,
        health,
        magic,
        gold: Gold(gold),
        experience: Experience(experience),
    })
}

/// The Possibilities' events applied to the state (`State::apply` sends each here).
impl State {
    /// [`Event::Recovered`]: cubes back to the right, paid for, and this turn's Possibility
    /// used.
    pub(crate) fn recover_lost(
        &mut self,
        player: PlayerId,
        healed: u32,
        recharged: u32,
        paid: Gold,
    ) {
        if let Some(a) = self.adventurer_mut(player) {
            a.health.restore(healed);
            a.magic.restore(recharged);
            a.gold.0 = a.gold.0.saturating_sub(paid.0);
        }
        self.use_possibility();
    }

    /// [`Event::Traded`]: cubes to the left for Gold and Experience, and this turn's
    /// Possibility used.
    pub(crate) fn trade_cubes(
        &mut self,
        player: PlayerId,
        health: u32,
        magic: u32,
        gold: Gold,
        experience: Experience,
    ) {
        if let Some(a) = self.adventurer_mut(player) {
            a.health.lose(health);
            a.magic.lose(magic);
            a.gold.0 = a.gold.0.saturating_add(gold.0);
            a.experience.0 = a.experience.0.saturating_add(experience.0);
        }
        self.use_possibility();
    }

    /// Marks the turn's Possibility used, for the ones allowed once per turn.
    fn use_possibility(&mut self) {
        if let Phase::Playing(turn) = &mut self.phase {
            turn.possibility_used = true;
        }
    }
}
