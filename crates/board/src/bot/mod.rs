//! Bots: [`choose`] picks the next action of the adventurer a bot plays, from the state alone.
//!
//! A bot is a handful of priorities and a small valuation, not a search: it draws the Chance
//! card; buys a Certificate where it can; fights the Creature it met in the battle and with the
//! Items that give the best expected outcome (exact 1d6 against 1d6 odds in integers, three
//! lives and thrown weapons counted); uses Opportunities worth more than they cost; heals,
//! recharges and trades where that pays; repairs its Items and buys better ones when rich; and
//! moves toward the nearest guild whose Certificate it can pay for, toward healing when weak,
//! or toward Creatures it can beat and Opportunities otherwise, scoring each move by what
//! waits where it ends (a Creature with poor odds scores badly) and how many turns it leaves to
//! the goal.
//!
//! It only ever proposes what the engine accepts (the tests play many thousands of games and
//! check every command), is deterministic for a state, a player and a seed, allocates little
//! and never clones the state: it runs in the simulator's hot loop ([`crate::simulate`]).
//!
//! That is the [`Level::Standard`] bot. [`Level::Easy`] makes a beginner's choices (listed in
//! its module, `easy`), and [`Level::Strong`] makes each choice by playing the game out many
//! times from it (module `strong`); [`choose_at`] asks a bot of any level.

use crate::command::Action;
use crate::ids::PlayerId;
use crate::model::Step;
use crate::state::State;
use dice::Seed;
use serde::{Deserialize, Serialize};

mod battle;
mod cards;
mod easy;
mod gear;
mod map;
mod memory;
mod moves;
mod odds;
mod player;
mod strong;
mod worth;

pub use map::Map;
pub use memory::Scratch;
use player::Bot;
pub use strong::PLAYOUTS;

/// Commands in one turn after which a game played by bots alone (the simulator's, the strong
/// bot's playouts) makes the bot end it; bots end theirs long before.
pub const MAX_COMMANDS_PER_TURN: u32 = 64;

/// How well a bot plays.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Level {
    /// A beginner's choices: see the module `easy`.
    Easy,
    /// Priorities and a small valuation, battles by the exact odds.
    #[default]
    Standard,
    /// Each move chosen by playing the game out from it: see the module `strong`.
    Strong,
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 3] = [Level::Easy, Level::Standard, Level::Strong];

    /// Its name: `easy`, `standard` or `strong`.
    pub fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Standard => "standard",
            Level::Strong => "strong",
        }
    }
}

impl std::fmt::Display for Level {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Level {
    type Err = String;

    fn from_str(s: &str) -> Result<Level, String> {
        (Level::ALL.into_iter())
            .find(|l| l.name() == s)
            .ok_or_else(|| format!("no bot level {s:?}: easy, standard or strong"))
    }
}

/// The next action of the bot playing `player`, or `None` when `player` has nothing to do now
/// (the game is not being played, it is not her turn, or she is dead). Any action that takes
/// a seed gets `seed`.
pub fn choose(state: &State, player: PlayerId, seed: Seed) -> Option<Action> {
    decide_for(None, &mut Scratch::default(), state, player, seed)
}

/// [`choose`] with a [`Map`] of the board worked out beforehand (the simulator shares one
/// between all its games). A map is used only with the very content it was made from (the same
/// `Arc`, which the map holds); with any other it is worked out again for every move.
pub fn choose_with(map: &Map, state: &State, player: PlayerId, seed: Seed) -> Option<Action> {
    decide_for(Some(map), &mut Scratch::default(), state, player, seed)
}

/// [`choose_with`] working in `scratch`'s buffers, kept for the next decisions (the simulator
/// keeps one for all its games): the same action, without allocating for it each move.
#[inline]
pub fn choose_in(
    map: &Map,
    scratch: &mut Scratch,
    state: &State,
    player: PlayerId,
    seed: Seed,
) -> Option<Action> {
    decide_for(Some(map), scratch, state, player, seed)
}

/// The next action of a bot of `level` playing `player`, as [`choose_in`] (the map, if given,
/// is used only with the content it was made from).
pub fn choose_at(
    level: Level,
    map: Option<&Map>,
    scratch: &mut Scratch,
    state: &State,
    player: PlayerId,
    seed: Seed,
) -> Option<Action> {
    if level == Level::Standard {
        return decide_for(map, scratch, state, player, seed);
    }
    let owned;
    let map = match map {
        Some(map) if map.fits(&state.content) => map,
        _ => {
            owned = Map::new(&state.content);
            &owned
        }
    };
    match level {
        Level::Strong => strong::choose(map, scratch, state, player, seed),
        _ => {
            let turn = state.turn().filter(|t| t.player == player)?;
            let me = state.adventurer(player).filter(|me| me.alive)?;
            Some(easy::choose(map, state, me, turn, seed))
        }
    }
}

// Inlined into the simulator's loop: it only picks the step's decision.
#[inline(always)]
fn decide_for(
    map: Option<&Map>,
    scratch: &mut Scratch,
    state: &State,
    player: PlayerId,
    seed: Seed,
) -> Option<Action> {
    let turn = state.turn()?;
    if turn.player != player {
        return None;
    }
    let me = state.adventurer(player)?;
    if !me.alive {
        return None;
    }
    // Nothing to weigh: spares working out her view (`Bot::new`) once a turn.
    if turn.step == Step::DrawChance {
        return Some(Action::DrawChance { seed });
    }
    let bot = Bot::new(map, state, me, turn, seed);
    Some(match turn.step {
        Step::DrawChance => Action::DrawChance { seed },
        Step::Move => bot.movement(scratch),
        Step::Battle => bot.battle(),
        Step::Moved => bot.after_moving(),
    })
}

#[cfg(test)]
mod tests {
    use super::odds::stage_odds;
    use super::worth::{Values, Vitals, effects_worth, situational, treasure_worth};
    use crate::content::{AdventureCard, Content};

    /// A treasure worked out once per content is worth, to the bit, what it is worth worked
    /// out with any counters: none of the effects it is worked out for reads them.
    #[test]
    fn treasures_known_beforehand_are_worth_the_same_with_any_counters() {
        let content = Content::builtin();
        let mut known = 0;
        for card in &content.adventures {
            let AdventureCard::Creature(c) = card else {
                continue;
            };
            let Some(worth) = treasure_worth(&c.treasure) else {
                continue;
            };
            known += 1;
            for (rate, mage, n) in (0..3).flat_map(|r| [(r, false, 0), (r, true, 1), (r, true, 7)])
            {
                let mut v = Vitals {
                    gold: n,
                    experience: n + 1,
                    health: n % 3,
                    hurt: 2,
                    magic: n % 2,
                    drained: 1,
                    items: n as usize,
                };
                let now = effects_worth(&Values::new(rate, mage), &mut v, &c.treasure);
                assert_eq!(
                    now.to_bits(),
                    worth[rate][usize::from(mage)].to_bits(),
                    "{}",
                    c.name
                );
            }
        }
        assert!(known > 20, "only {known} treasures known beforehand");
    }

    /// What losing to a situational Creature costs, or what a situational Opportunity gives,
    /// reads only her Health and Magic: with them fixed, any other counters give the same worth
    /// to the bit. The cards that read more are not situational.
    #[test]
    fn situational_cards_read_only_health_and_magic() {
        let content = Content::builtin();
        let (mut creatures, mut opportunities, mut not) = (0, 0, 0);
        for card in &content.adventures {
            if !situational(card) {
                not += 1;
                continue;
            }
            let effects = match card {
                AdventureCard::Creature(c) => {
                    creatures += 1;
                    c.loss_effects()
                }
                AdventureCard::Opportunity(o) => {
                    opportunities += 1;
                    &o.effects[..]
                }
            };
            for (rate, mage) in (0..3).flat_map(|r| [(r, false), (r, true)]) {
                for (health, magic) in [(0, 0), (1, 2), (3, 1), (6, 5)] {
                    let worth = |n: u32| {
                        let mut v = Vitals {
                            gold: n,
                            experience: n * 2,
                            health,
                            hurt: n % 4,
                            magic,
                            drained: n % 3,
                            items: n as usize,
                        };
                        effects_worth(&Values::new(rate, mage), &mut v, effects)
                    };
                    for n in 1..8 {
                        assert_eq!(worth(n).to_bits(), worth(0).to_bits(), "{card:?}");
                    }
                }
            }
        }
        assert!(
            creatures > 20 && opportunities > 3 && not > 5,
            "{creatures}, {opportunities} and {not}"
        );
    }

    #[test]
    fn one_roll_odds_match_the_dice_crate() {
        for diff in -7..=7 {
            let exact = dice::opposed::opposed_odds(diff, 0);
            let (win, loss) = stage_odds(diff, 0, 0, 1, false);
            assert!((win as f64 - exact.win.to_f64()).abs() < 1e-6, "{diff}");
            assert!((loss as f64 - exact.loss.to_f64()).abs() < 1e-6, "{diff}");
            let three = dice::opposed::three_lives_odds(diff, 0);
            let (win, loss) = stage_odds(diff, 0, 0, 3, false);
            assert!((win as f64 - three.win.to_f64()).abs() < 1e-6, "{diff}");
            assert!((loss as f64 - three.loss.to_f64()).abs() < 1e-6, "{diff}");
        }
    }
}
