//! What things are worth to a bot: Gold, Health and Magic, effects, treasure.

use crate::content::{AdventureCard, Effect, SpecialKind};

/// What a sure death is worth: worse than anything else.
pub(super) const DEATH: f32 = -1000.0;
/// Events after which a game is long: bots fear only death (a game where every bot waits for
/// better odds would not end).
pub(super) const LATE: u64 = 2_000;
/// A Certificate bought now.
pub(super) const CERTIFICATE: f32 = 20.0;

/// Whether what meeting `card` is worth depends on nothing of hers but her situation
/// ([`Bot::situation`](super::player::Bot::situation)): a Creature whose treasure reads none of her counters
/// ([`treasure_worth`]), whose loss reads only her Health and Magic, and that cannot be paid to
/// pass (which reads her Gold); an Opportunity whose effects read only her Health and Magic.
pub(super) fn situational(card: &AdventureCard) -> bool {
    let only_health_and_magic = |effects: &[Effect]| {
        (effects.iter()).all(|&e| {
            !matches!(
                e,
                Effect::LoseGold(_)
                    | Effect::LoseExperience(_)
                    | Effect::Heal(_)
                    | Effect::Recharge(_)
                    | Effect::LoseItem
            )
        })
    };
    match card {
        AdventureCard::Creature(c) => {
            treasure_worth(&c.treasure).is_some()
                && only_health_and_magic(c.loss_effects())
                && !matches!(
                    c.special.as_ref().map(|r| r.rule),
                    Some(SpecialKind::PayToPass { .. })
                )
        }
        AdventureCard::Opportunity(o) => only_health_and_magic(&o.effects),
    }
}

/// Her counters, as effects change them one after the other.
#[derive(Clone, Copy, Default)]
pub(super) struct Vitals {
    pub(super) gold: u32,
    pub(super) experience: u32,
    pub(super) health: u32,
    pub(super) hurt: u32,
    pub(super) magic: u32,
    pub(super) drained: u32,
    pub(super) items: usize,
}

/// What one Gold is worth to her, in Experience: short of Gold for a Certificate she has the
/// Experience for, rich, or otherwise (see [`Bot::new`](super::player::Bot::new)).
pub(super) const GOLD_RATES: [f32; 3] = [1.2, 0.4, 0.8];

/// How much each thing is worth to her now, in Experience.
pub(super) struct Values {
    /// Which of [`GOLD_RATES`] one Gold is worth.
    pub(super) gold_rate: usize,
    pub(super) gold: f32,
    pub(super) experience: f32,
    pub(super) magic: f32,
    /// Willpower counts for more than Strength for her.
    pub(super) mage: bool,
}

impl Values {
    pub(super) fn new(gold_rate: usize, mage: bool) -> Values {
        Values {
            gold_rate,
            gold: GOLD_RATES[gold_rate],
            experience: 1.2,
            magic: if mage { 1.2 } else { 0.6 },
            mage,
        }
    }
}

/// What one Health on the right is worth when she has `health` of them (the last ones most);
/// less to a mage, who fights with Willpower.
pub(super) fn health_cube(health: u32, mage: bool) -> f32 {
    match (health, mage) {
        (0 | 1, false) => 8.0,
        (0 | 1, true) => 6.0,
        (2, false) => 4.0,
        (2, true) => 2.2,
        (3, false) => 2.5,
        _ => 1.6,
    }
}

/// What following `effects` in order is worth with `values`, from `v` (changed as they apply).
pub(super) fn effects_worth(values: &Values, v: &mut Vitals, effects: &[Effect]) -> f32 {
    let mut total = 0.0;
    for &effect in effects {
        total += match effect {
            Effect::GainGold(n) => {
                v.gold = v.gold.saturating_add(n);
                n as f32 * values.gold
            }
            Effect::LoseGold(n) => {
                let n = n.min(v.gold);
                v.gold -= n;
                -(n as f32) * values.gold
            }
            Effect::GainExperience(n) => {
                v.experience = v.experience.saturating_add(n);
                n as f32 * values.experience
            }
            Effect::LoseExperience(n) => {
                let n = n.min(v.experience);
                v.experience -= n;
                -(n as f32) * values.experience
            }
            Effect::Heal(n) => {
                let mut worth = 0.0;
                for _ in 0..n.min(v.hurt) {
                    v.health += 1;
                    v.hurt -= 1;
                    worth += health_cube(v.health, values.mage);
                }
                worth
            }
            Effect::LoseHealth(n) => {
                if n > v.health {
                    return DEATH;
                }
                let mut worth = 0.0;
                for _ in 0..n {
                    worth -= health_cube(v.health, values.mage);
                    v.health -= 1;
                    v.hurt += 1;
                }
                worth
            }
            Effect::Recharge(n) => {
                let n = n.min(v.drained);
                v.magic += n;
                v.drained -= n;
                n as f32 * values.magic
            }
            Effect::LoseMagic(n) => {
                let n = n.min(v.magic);
                v.magic -= n;
                v.drained += n;
                -(n as f32) * values.magic
            }
            Effect::GainStrength(n) => {
                v.health = v.health.saturating_add(n);
                n as f32 * if values.mage { 2.0 } else { 3.5 }
            }
            Effect::GainWillpower(n) => {
                v.magic = v.magic.saturating_add(n);
                n as f32 * if values.mage { 3.5 } else { 1.5 }
            }
            Effect::DrawCommonItem => {
                v.items += 1;
                1.5
            }
            Effect::DrawRareItem => {
                v.items += 1;
                3.0
            }
            Effect::LoseItem => {
                if v.items > 0 {
                    v.items -= 1;
                    -1.5
                } else {
                    0.0
                }
            }
            Effect::MoveOneSpace => 0.0,
            Effect::MissTurn => -2.5,
        };
    }
    total
}

/// What a Creature's treasure is worth, by [`GOLD_RATES`] and then mage or not.
pub(super) type Treasure = [[f32; 2]; 3];

/// What `effects` are worth by [`GOLD_RATES`] and mage or not, if that is all they depend on
/// (none reads her counters): worked out once per content, in the [`Map`](super::Map).
pub(super) fn treasure_worth(effects: &[Effect]) -> Option<Treasure> {
    let free = effects.iter().all(|e| {
        matches!(
            e,
            Effect::GainGold(_)
                | Effect::GainExperience(_)
                | Effect::GainStrength(_)
                | Effect::GainWillpower(_)
                | Effect::DrawCommonItem
                | Effect::DrawRareItem
                | Effect::MoveOneSpace
                | Effect::MissTurn
        )
    });
    free.then(|| {
        [0, 1, 2].map(|rate| {
            [false, true].map(|mage| {
                effects_worth(&Values::new(rate, mage), &mut Vitals::default(), effects)
            })
        })
    })
}
