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

use crate::command::{Action, BattleKind, MoveKind};
use crate::content::{
    AdventureCard, Content, Creature, CreatureStats, Effect, Guild, Hands, Slot, SpaceKind,
    SpecialKind,
};
use crate::decide::{CERTIFICATE_EXPERIENCE, CERTIFICATE_GOLD};
use crate::encounter::{Battle, OPTIONAL_WILLS_MAGIC, Stage, THREE_LIVES};
use crate::ids::{AdventureId, ItemId, PlayerId, SpaceId};
use crate::model::{Adventurer, Step, Turn};
use crate::state::State;
use dice::Seed;
use std::cell::Cell;
use std::sync::Arc;

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

/// Buffers a bot's decisions work in, kept between them by [`choose_in`]: allocating them
/// afresh for every move showed in profiles of the simulator. What they hold between
/// decisions changes no decision. (The default, which [`choose`] uses for one decision,
/// remembers no worths: its table would be allocated for nothing.)
#[derive(Default)]
pub struct Scratch {
    /// What the Adventure card on each space is worth to her (NaN: not worked out yet).
    worth: Vec<f32>,
    /// Her Items for each kind of battle (Strength, Wills).
    gear: [Gear; 2],
    /// Each bot's best bonuses, with what they were worked out from: her Items change seldom.
    bonuses: Vec<KnownBonuses>,
    /// What situational cards were worth in the situations met so far.
    remembered: Remembered,
}

/// What Adventure cards were worth to bots, remembered from decision to decision and game to
/// game: a row of worths (one per card) for each situation met ([`Bot::situation`]), in a slot
/// picked by its hash (a newer situation takes an older one's slot). Most of a bot's move went
/// into working out what each card near her is worth, and the same situations come back all
/// the time: in 2,000 simulated games, 82% of the worths asked for that depend only on the
/// situation were found here (2,048 slots, 360 KiB; twice as many were no faster).
#[derive(Default)]
struct Remembered {
    /// Whether it remembers at all ([`Scratch::new`]'s does).
    on: bool,
    /// The content whose cards the rows hold (none yet: nothing remembered).
    content: Option<Arc<Content>>,
    /// The content's Adventure cards: a row's length.
    cards: usize,
    /// Each slot's situation; 0 for an empty slot.
    situations: Vec<u128>,
    /// Each slot's row: what each card is worth (NaN: not worked out yet).
    worths: Vec<f32>,
}

impl std::fmt::Debug for Scratch {
    /// How much it holds, not its 90,000 numbers (nor the content its bonuses were worked
    /// out with).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let remembered = &self.remembered;
        let situations = remembered.situations.iter().filter(|&&s| s != 0).count();
        let worths = remembered.worths.iter().filter(|w| !w.is_nan()).count();
        f.debug_struct("Scratch")
            .field("bots", &self.bonuses.len())
            .field("remembering", &remembered.on)
            .field("situations", &situations)
            .field("worths", &worths)
            .finish()
    }
}

/// Bits of a [`Remembered`] slot's index.
const REMEMBERED_BITS: u32 = 11;

impl Remembered {
    /// The row of `situation` with `content`'s cards, emptied first if its slot held another
    /// situation or the rows another content; empty if the situation could not be packed.
    fn row(&mut self, content: &Arc<Content>, situation: Option<u128>) -> &mut [f32] {
        let Some(situation) = situation.filter(|_| self.on) else {
            return &mut [];
        };
        if !self
            .content
            .as_ref()
            .is_some_and(|c| Arc::ptr_eq(c, content))
        {
            self.content = Some(Arc::clone(content));
            self.cards = content.adventures.len();
            self.situations.clear();
            self.situations.resize(1 << REMEMBERED_BITS, 0);
            self.worths.clear();
            self.worths.resize(self.cards << REMEMBERED_BITS, f32::NAN);
        }
        let folded = (situation as u64) ^ ((situation >> 64) as u64).rotate_left(32);
        let slot = (folded.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - REMEMBERED_BITS)) as usize;
        let row = &mut self.worths[slot * self.cards..(slot + 1) * self.cards];
        if self.situations[slot] != situation {
            self.situations[slot] = situation;
            row.fill(f32::NAN);
        }
        row
    }
}

/// A bot's best bonuses ([`Bot::bonuses`]) as worked out from her Items with a content.
#[derive(Debug)]
struct KnownBonuses {
    content: Arc<Content>,
    player: PlayerId,
    items: Vec<ItemId>,
    damaged: Vec<ItemId>,
    bonuses: Bonuses,
}

impl Scratch {
    /// Empty buffers, and a table of worths to remember (filled as bots weigh cards).
    pub fn new() -> Scratch {
        let mut scratch = Scratch::default();
        scratch.remembered.on = true;
        scratch
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

/// What a sure death is worth: worse than anything else.
const DEATH: f32 = -1000.0;
/// Events after which a game is long: bots fear only death (a game where every bot waits for
/// better odds would not end).
const LATE: u64 = 12_000;
/// A Certificate bought now.
const CERTIFICATE: f32 = 20.0;

/// Of the 36 pairs of faces, how many a roll wins where her value minus theirs is `diff`.
const fn wins_of_36(diff: i32) -> u32 {
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
const WIN_CHANCE: [f32; 13] = {
    let mut table = [0.0; 13];
    let mut i = 0;
    while i < 13 {
        table[i] = wins_of_36(i as i32 - 6) as f32 / 36.0;
        i += 1;
    }
    table
};

/// P(win) of one roll with `diff` = hers − theirs.
fn win_chance(diff: i32) -> f32 {
    WIN_CHANCE[(diff.clamp(-6, 6) + 6) as usize]
}

/// P(win) and P(loss) of a battle: `lives` rolls to win in a row, `first` added to the first;
/// with `draw_is_loss`, a drawn roll loses.
fn stage_odds(yours: i32, first: i32, theirs: i32, lives: u32, draw_is_loss: bool) -> (f32, f32) {
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
fn then_odds(first: (f32, f32), second: (f32, f32)) -> (f32, f32) {
    (first.0 * second.0, first.1 + first.0 * second.1)
}

/// A Creature as the bots foresee a battle with it before moving: the battles its card allows
/// (mirroring [`crate::encounter::battle`], which decides the real one), worked out once per
/// content in the [`Map`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Foe {
    /// Rolls to win in a row.
    lives: u32,
    /// Its Strength, if a Battle of Strength is allowed.
    strength: Option<i32>,
    /// A Battle of Wills, if allowed.
    wills: Option<Wills>,
    /// Magic it drains before the first roll.
    drain: u32,
    /// A drawn roll loses.
    draw_is_loss: bool,
}

/// A Battle of Wills against a [`Foe`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Wills {
    /// Its Willpower.
    theirs: i32,
    /// Magic she pays to start it (the optional Battle of Wills).
    pay: u32,
    /// Its Strength, to beat in a Battle of Strength after winning this one.
    then: Option<i32>,
}

impl Foe {
    /// The battle of `kind` she would fight against it now without Items, as
    /// [`crate::encounter::battle`] works it out (checked against it when debug assertions are
    /// on); `None` where that refuses it. Cheaper than asking the engine: a bot weighs both
    /// kinds before every fight.
    fn bare_battle(&self, card: AdventureId, kind: BattleKind, me: &Adventurer) -> Option<Battle> {
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

    fn of(creature: &Creature) -> Foe {
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

/// Whether what meeting `card` is worth depends on nothing of hers but her situation
/// ([`Bot::situation`]): a Creature whose treasure reads none of her counters
/// ([`treasure_worth`]), whose loss reads only her Health and Magic, and that cannot be paid to
/// pass (which reads her Gold); an Opportunity whose effects read only her Health and Magic.
fn situational(card: &AdventureCard) -> bool {
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
struct Vitals {
    gold: u32,
    experience: u32,
    health: u32,
    hurt: u32,
    magic: u32,
    drained: u32,
    items: usize,
}

/// What one Gold is worth to her, in Experience: short of Gold for a Certificate she has the
/// Experience for, rich, or otherwise (see [`Bot::new`]).
const GOLD_RATES: [f32; 3] = [1.2, 0.4, 0.8];

/// How much each thing is worth to her now, in Experience.
struct Values {
    /// Which of [`GOLD_RATES`] one Gold is worth.
    gold_rate: usize,
    gold: f32,
    experience: f32,
    magic: f32,
    /// Willpower counts for more than Strength for her.
    mage: bool,
}

impl Values {
    fn new(gold_rate: usize, mage: bool) -> Values {
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
fn health_cube(health: u32, mage: bool) -> f32 {
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
fn effects_worth(values: &Values, v: &mut Vitals, effects: &[Effect]) -> f32 {
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
type Treasure = [[f32; 2]; 3];

/// What `effects` are worth by [`GOLD_RATES`] and mage or not, if that is all they depend on
/// (none reads her counters): worked out once per content, in the [`Map`].
fn treasure_worth(effects: &[Effect]) -> Option<Treasure> {
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

/// Bonuses (every roll, first roll only) by battle kind, then by one life or three.
type Bonuses = [[(i32, i32); 2]; 2];

struct Bot<'a> {
    /// The map of the board, if one was given for this very content.
    map: Option<&'a Map>,
    state: &'a State,
    content: &'a Content,
    me: &'a Adventurer,
    turn: Turn,
    seed: Seed,
    values: Values,
    /// Guilds whose Certificate she lacks, as bits ([`guild_bit`]).
    missing: u8,
    /// Her character's own two guilds, as bits.
    own: u8,
}

/// A guild's bit in a set of guilds.
fn guild_bit(guild: Guild) -> u8 {
    1 << guild as u8
}

impl<'a> Bot<'a> {
    fn new(
        map: Option<&'a Map>,
        state: &'a State,
        me: &'a Adventurer,
        turn: Turn,
        seed: Seed,
    ) -> Bot<'a> {
        let content = &*state.content;
        let character = content.characters.get(me.character.index());
        // Guilds as bits: one pass over her Certificates and one over her character's guilds.
        let all = Guild::ALL.iter().fold(0, |m, &g| m | guild_bit(g));
        let held = me.certificates.iter().fold(0, |m, c| m | guild_bit(c.0));
        let missing = all & !held;
        let own = character.map_or(0, |c| c.guilds.iter().fold(0, |m, &g| m | guild_bit(g)));
        let mage = character.is_some_and(|c| c.willpower > c.strength);
        let enough_experience = me.experience >= CERTIFICATE_EXPERIENCE;
        let needs_gold = missing & !own != 0;
        let gold_rate = if enough_experience && needs_gold && me.gold < CERTIFICATE_GOLD {
            0
        } else if me.gold.0 >= 12 {
            1
        } else {
            2
        };
        Bot {
            map: map.filter(|m| m.fits(content)),
            state,
            content,
            me,
            turn,
            seed,
            values: Values::new(gold_rate, mage),
            missing,
            own,
        }
    }

    fn vitals(&self) -> Vitals {
        let me = self.me;
        Vitals {
            gold: me.gold.0,
            experience: me.experience.0,
            health: me.health.right,
            hurt: me.health.left,
            magic: me.magic.right,
            drained: me.magic.left,
            items: me.items.len(),
        }
    }

    /// The Gold her Certificate of `guild` costs, if she lacks it.
    fn certificate_gold(&self, guild: Guild) -> Option<u32> {
        let bit = guild_bit(guild);
        (self.missing & bit != 0).then_some(if self.own & bit != 0 {
            0
        } else {
            CERTIFICATE_GOLD.0
        })
    }

    /// Whether she could buy the Certificate of `guild` with `gold`.
    fn can_certify(&self, guild: Guild, gold: u32) -> bool {
        self.me.experience >= CERTIFICATE_EXPERIENCE
            && self
                .certificate_gold(guild)
                .is_some_and(|cost| gold >= cost)
    }

    fn kind_of(&self, space: usize) -> Option<SpaceKind> {
        match self.map {
            // The map's kinds lie closer together than the content's spaces.
            Some(map) => map.kinds.get(space).copied(),
            None => self.content.board.spaces.get(space).map(|s| s.kind),
        }
    }

    // -----------------------------------------------------------------------------------------
    // Valuation
    // -----------------------------------------------------------------------------------------

    /// What following `effects` in order is worth, from `v` (changed as they apply).
    fn effects_value(&self, v: &mut Vitals, effects: &[Effect]) -> f32 {
        effects_worth(&self.values, v, effects)
    }

    /// Winning and losing against `creature`: what each is worth. `treasure` is what its
    /// treasure is worth by [`GOLD_RATES`] and mage or not, when the map knows it.
    // Inlined into each Creature's valuation: a call per card showed in profiles.
    #[inline(always)]
    fn stakes(&self, creature: &Creature, treasure: Option<&Treasure>) -> (f32, f32) {
        let treasure = match treasure {
            Some(worth) => worth[self.values.gold_rate][usize::from(self.values.mage)],
            None => self.effects_value(&mut self.vitals(), &creature.treasure),
        };
        let win = creature.experience as f32 * self.values.experience + treasure;
        let loss = match &creature.on_loss {
            Some(effects) => self.effects_value(&mut self.vitals(), effects),
            // The default loss, one Health, as `effects_value` would count it.
            None if self.me.health.right == 0 => DEATH,
            None => -health_cube(self.me.health.right, self.values.mage),
        };
        (win, loss)
    }

    /// What she can do instead of fighting `creature` (its optional special rule), and what
    /// that is worth.
    fn instead(&self, creature: &Creature) -> Option<f32> {
        match creature.special.as_ref().map(|r| r.rule) {
            Some(SpecialKind::PayToPass { gold }) if self.me.gold.0 >= gold => {
                Some(-(gold as f32) * self.values.gold)
            }
            Some(SpecialKind::LetGo) => Some(0.0),
            _ => None,
        }
    }

    /// Her best Items' bonuses (every roll, first roll only): by battle kind (Strength,
    /// Wills), then against one life or three.
    /// `gear` is where to sort her Items (its buffers reused: see [`Scratch`]).
    fn bonuses(&self, gear: &mut [Gear; 2]) -> Bonuses {
        let [strength, wills] = gear;
        strength.sort(self.content, BattleKind::Strength, self.usable());
        wills.sort(self.content, BattleKind::Wills, self.usable());
        [
            [strength.best(1), strength.best(THREE_LIVES)],
            [wills.best(1), wills.best(THREE_LIVES)],
        ]
    }

    /// [`Bot::bonuses`], worked out again only when her Items changed since the last time
    /// (kept in `scratch`).
    fn known_bonuses(&self, scratch: &mut Scratch) -> Bonuses {
        let me = self.me;
        let known = scratch.bonuses.iter().position(|k| {
            k.player == me.player && std::ptr::eq(Arc::as_ptr(&k.content), self.content)
        });
        if let Some(k) = known.map(|at| &scratch.bonuses[at])
            && k.items == me.items
            && k.damaged == me.damaged
        {
            return k.bonuses;
        }
        let bonuses = self.bonuses(&mut scratch.gear);
        let k = KnownBonuses {
            content: Arc::clone(&self.state.content),
            player: me.player,
            items: me.items.clone(),
            damaged: me.damaged.clone(),
            bonuses,
        };
        match known {
            Some(at) => scratch.bonuses[at] = k,
            None => scratch.bonuses.push(k),
        }
        bonuses
    }

    /// The game is long: bots fear only death.
    fn late(&self) -> bool {
        self.state.version > LATE
    }

    /// A bold turn (one in four, by the seed): losses that do not kill count for less.
    fn bold(&self) -> bool {
        self.seed.0 % 4 == 3
    }

    /// All that the worth of a [`situational`] card depends on besides the card itself: her
    /// values, a bold turn, a late game, her Health and Magic, and her best Items' `bonuses`,
    /// packed into bits (never 0); `None` if a number is too large to pack.
    fn situation(&self, bonuses: &Bonuses) -> Option<u128> {
        let me = self.me;
        let six_bits = |n: u32| (n < 1 << 6).then_some(u128::from(n));
        let mut situation = 1 << 127
            | (self.values.gold_rate as u128) << 64
            | u128::from(self.values.mage) << 66
            | u128::from(self.bold()) << 67
            | u128::from(self.late()) << 68
            | six_bits(me.health.right)? << 69
            | six_bits(me.magic.right)? << 75;
        // Eight bonuses, a byte each; whether all fit is checked once, at the end.
        let mut fit = true;
        for (i, n) in bonuses
            .iter()
            .flatten()
            .flat_map(|&(e, f)| [e, f])
            .enumerate()
        {
            let byte = n as i8;
            fit &= i32::from(byte) == n;
            situation |= u128::from(byte.cast_unsigned()) << (8 * i);
        }
        fit.then_some(situation)
    }

    /// What meeting `creature` (`foe`) is worth, fought the best way she can with her best
    /// Items (or passed by its optional rule).
    fn creature_value(
        &self,
        creature: &Creature,
        foe: &Foe,
        treasure: Option<&Treasure>,
        bonuses: &Bonuses,
    ) -> f32 {
        let (win, mut loss) = self.stakes(creature, treasure);
        // A bold turn (one in four, by the seed) shrugs off losses that do not kill: a bot
        // walled in by Creatures it fears would otherwise wait forever.
        if loss > DEATH / 2.0 {
            if self.late() {
                loss /= 10.0;
            } else if self.bold() {
                loss /= 4.0;
            }
        }
        let lives = foe.lives;
        let [strength_bonus, wills_bonus] = bonuses.map(|b| b[usize::from(lives > 1)]);
        let health = self.me.health.right as i32;
        let drained = foe.drain.min(self.me.magic.right);
        let magic = self.me.magic.right - drained;
        let value = |(win_odds, loss_odds): (f32, f32), paid: u32| {
            win_odds * win + loss_odds * loss - (paid + drained) as f32 * self.values.magic
        };
        let mut best = self.instead(creature).unwrap_or(f32::MIN);
        if let Some(theirs) = foe.strength {
            let (every, first) = strength_bonus;
            let odds = stage_odds(health + every, first, theirs, lives, foe.draw_is_loss);
            best = best.max(value(odds, 0));
        }
        if let Some(wills) = foe.wills
            && magic >= wills.pay
        {
            let (every, first) = wills_bonus;
            let yours = (magic - wills.pay) as i32 + every;
            let mut odds = stage_odds(yours, first, wills.theirs, lives, foe.draw_is_loss);
            if let Some(theirs) = wills.then {
                let (every, first) = strength_bonus;
                odds = then_odds(
                    odds,
                    stage_odds(health + every, first, theirs, lives, false),
                );
            }
            best = best.max(value(odds, wills.pay));
        }
        if best == f32::MIN { 0.0 } else { best }
    }

    /// What the Adventure card on `space` is worth meeting there (with her counters now).
    /// A card's worth is looked up in `remembered` (her situation's row) first, and kept there,
    /// when it depends only on her situation.
    // Inlined where asked: most cards asked about are remembered, or no card lies there.
    #[inline(always)]
    fn adventure_value(
        &self,
        map: &Map,
        space: usize,
        bonuses: &Bonuses,
        remembered: &[Cell<f32>],
    ) -> f32 {
        let Some(card) = self.state.spaces.get(space).and_then(|s| s.adventure) else {
            return 0.0;
        };
        // Only situational cards' worths are kept: a number found is one of theirs.
        let remembered = remembered.get(card.index());
        match remembered.map(Cell::get) {
            Some(worth) if !worth.is_nan() => worth,
            _ => self.card_value(map, card, bonuses, remembered),
        }
    }

    /// What Adventure `card` is worth meeting, worked out (and kept in `remembered` if it
    /// depends only on her situation).
    #[inline(never)]
    fn card_value(
        &self,
        map: &Map,
        card: AdventureId,
        bonuses: &Bonuses,
        remembered: Option<&Cell<f32>>,
    ) -> f32 {
        let worth = match self.content.adventures.get(card.index()) {
            Some(AdventureCard::Creature(c)) => match map.foes.get(card.index()) {
                Some(Some((foe, treasure))) => {
                    self.creature_value(c, foe, treasure.as_ref(), bonuses)
                }
                _ => self.creature_value(c, &Foe::of(c), None, bonuses),
            },
            Some(AdventureCard::Opportunity(o)) => {
                self.effects_value(&mut self.vitals(), &o.effects).max(0.0)
            }
            None => 0.0,
        };
        if let Some(cell) = remembered.filter(|_| map.situational.get(card.index()) == Some(&true))
        {
            cell.set(worth);
        }
        worth
    }

    /// The Item to lose if `effects` take one: her least useful (damaged first, then the
    /// cheapest); `None` if none does or she has none.
    fn item_to_lose<'e>(&self, effects: impl IntoIterator<Item = &'e Effect>) -> Option<ItemId> {
        if !effects.into_iter().any(|&e| e == Effect::LoseItem) {
            return None;
        }
        let me = self.me;
        me.items.iter().copied().min_by_key(|i| {
            let cost = self
                .content
                .items
                .get(i.index())
                .map_or(0, |item| item.cost);
            (!me.damaged.contains(i), cost)
        })
    }

    /// Her usable Items: carried and not damaged.
    fn usable(&self) -> impl Iterator<Item = ItemId> + Clone + '_ {
        self.me
            .items
            .iter()
            .copied()
            .filter(|i| !self.me.damaged.contains(i))
    }

    /// Her usable Items for a battle of `kind`, perhaps with one more.
    fn gear(&self, kind: BattleKind, extra: Option<ItemId>) -> Gear {
        Gear::of(self.content, kind, self.usable().chain(extra))
    }

    // -----------------------------------------------------------------------------------------
    // The battle
    // -----------------------------------------------------------------------------------------

    fn battle(&self) -> Action {
        let state = self.state;
        let player = self.me.player;
        let Some((card, creature)) = state.creature_on(self.me.space) else {
            // Nothing to fight (the engine says otherwise): let it refuse the plainest battle.
            return Action::Fight {
                kind: BattleKind::Strength,
                seed: self.seed,
                items: Vec::new(),
                clockwise: None,
                lose_item: None,
            };
        };
        let known = (self.map.and_then(|m| m.foes.get(card.index()))).and_then(Option::as_ref);
        let (win, loss) = self.stakes(creature, known.and_then(|(_, t)| t.as_ref()));
        let mut best: Option<(f32, BattleKind, Vec<ItemId>)> = None;
        for kind in [BattleKind::Strength, BattleKind::Wills] {
            // Without Items, from the map's foe (the engine's rules mirrored); a kind of battle
            // refused without Items is refused with any.
            let engine = || crate::encounter::battle(state, player, kind, &[]).ok();
            let bare = match known {
                Some((foe, _)) => {
                    let bare = foe.bare_battle(card, kind, self.me);
                    debug_assert_eq!(bare, engine(), "{}", creature.name);
                    bare
                }
                None => engine(),
            };
            let Some(bare) = bare else {
                continue;
            };
            self.gear(kind, None).each_loadout(|items| {
                let b = if items.is_empty() {
                    bare
                } else {
                    match crate::encounter::battle(state, player, kind, items) {
                        Ok(b) => b,
                        Err(_) => return,
                    }
                };
                let mut odds = stage_odds(
                    b.yours,
                    b.first_roll_bonus,
                    b.theirs,
                    b.lives,
                    b.draw_is_loss,
                );
                let mut thrown = b.thrown.is_some();
                if let Some(then) = b.then {
                    let second = stage_odds(
                        then.yours,
                        then.first_roll_bonus,
                        then.theirs,
                        b.lives,
                        b.draw_is_loss,
                    );
                    odds = then_odds(odds, second);
                    thrown |= then.thrown.is_some();
                }
                let value = odds.0 * win + odds.1 * loss
                    - (b.magic_cost + b.drained) as f32 * self.values.magic
                    - if thrown { 0.6 } else { 0.0 };
                if best.as_ref().is_none_or(|(v, _, _)| value > *v) {
                    best = Some((value, kind, items.to_vec()));
                }
            });
        }
        if let Some(instead) = self.instead(creature)
            && best.as_ref().is_none_or(|(v, _, _)| instead > *v)
        {
            return Action::UseSpecialRule;
        }
        let (kind, items) = match best {
            Some((_, kind, items)) => (kind, items),
            // No battle the engine allows that the bot knows of: the one the values name.
            None => match creature.stats {
                CreatureStats::Willpower(_) | CreatureStats::WillpowerThenStrength { .. } => {
                    (BattleKind::Wills, Vec::new())
                }
                _ => (BattleKind::Strength, Vec::new()),
            },
        };
        let effects = creature
            .treasure
            .iter()
            .chain(creature.on_loss.iter().flatten());
        Action::Fight {
            kind,
            seed: self.seed,
            items,
            clockwise: None,
            lose_item: self.item_to_lose(effects),
        }
    }

    // -----------------------------------------------------------------------------------------
    // After moving
    // -----------------------------------------------------------------------------------------

    fn after_moving(&self) -> Action {
        let me = self.me;
        let here = me.space.index();
        let kind = self.kind_of(here);
        if let Some(SpaceKind::Guild(guild)) = kind
            && self.can_certify(guild, me.gold.0)
        {
            return Action::BuyCertificate;
        }
        if let Some(card) = self.state.spaces.get(here).and_then(|s| s.adventure)
            && let Some(AdventureCard::Opportunity(o)) = self.content.adventures.get(card.index())
            && self.effects_value(&mut self.vitals(), &o.effects) > 0.0
        {
            return Action::UseOpportunity {
                seed: self.seed,
                clockwise: None,
                lose_item: self.item_to_lose(&o.effects),
            };
        }
        if self.turn.stayed
            && !self.turn.possibility_used
            && kind.is_some_and(|k| self.trade_value(k) > 0.0)
            && crate::possibility::trade(self.state, me.player).is_ok()
        {
            return Action::Trade;
        }
        if let Some(amount) = kind.and_then(|k| self.recovery(k))
            && crate::possibility::recovery(self.state, me.player, amount).is_ok()
        {
            return Action::Recover { amount };
        }
        if kind.is_some_and(SpaceKind::is_civilization)
            && let Some(&item) = me.damaged.first()
            && me.gold.0 > self.reserve()
        {
            return Action::RepairItem { item };
        }
        if matches!(kind, Some(SpaceKind::City | SpaceKind::Village))
            && let Some(item) = self.purchase(here)
        {
            return Action::BuyItem { item };
        }
        Action::EndTurn
    }

    /// Gold she keeps for Certificates.
    fn reserve(&self) -> u32 {
        let needs_gold = self.missing & !self.own != 0;
        if needs_gold { CERTIFICATE_GOLD.0 } else { 1 }
    }

    /// What the Possibility instead of movement of a space of `kind` is worth to her.
    fn trade_value(&self, kind: SpaceKind) -> f32 {
        let me = self.me;
        let values = &self.values;
        match kind {
            SpaceKind::City if me.magic.right >= 1 => 2.0 * values.gold - values.magic,
            SpaceKind::Guild(Guild::ThievesGuild) if me.health.right >= 2 => {
                3.0 * values.gold - health_cube(me.health.right, self.values.mage)
            }
            SpaceKind::Guild(Guild::Fortress) if me.health.right >= 2 => {
                2.0 * values.experience - health_cube(me.health.right, self.values.mage)
            }
            _ => 0.0,
        }
    }

    /// How much to recover where she stands, if it pays.
    fn recovery(&self, kind: SpaceKind) -> Option<u32> {
        let me = self.me;
        let (health, hurt) = (me.health.right, me.health.left);
        let drained = me.magic.left;
        let gold = me.gold.0;
        let values = &self.values;
        let spare = gold.saturating_sub(if health <= 2 { 0 } else { self.reserve() });
        let once = !self.turn.possibility_used;
        let amount = match kind {
            SpaceKind::Guild(Guild::Monastery) if once && hurt > 0 => 1,
            SpaceKind::Guild(Guild::ForestCamp) => {
                let mut n = 0;
                while n < hurt.min(spare)
                    && health_cube(health + n + 1, self.values.mage) > values.gold
                {
                    n += 1;
                }
                n
            }
            SpaceKind::EnchantedWilderness if once => {
                drained.min(crate::possibility::WILDERNESS_RECHARGE)
            }
            SpaceKind::Guild(Guild::MagicTower) if values.mage || me.magic.right < 2 => {
                drained.min(spare.saturating_mul(2))
            }
            SpaceKind::Village if once && gold >= 1 && (hurt > 0 || drained > 0) => {
                let worth = if hurt > 0 {
                    health_cube(health + 1, self.values.mage)
                } else {
                    0.0
                } + if drained > 0 { values.magic } else { 0.0 };
                u32::from(worth > values.gold)
            }
            _ => 0,
        };
        (amount > 0).then_some(amount)
    }

    /// An Item lying on `space` worth buying: she is rich, and it makes her stronger.
    fn purchase(&self, space: usize) -> Option<ItemId> {
        let lying = &self.state.spaces.get(space)?.items;
        if lying.is_empty() {
            return None;
        }
        let kind = if self.values.mage {
            BattleKind::Wills
        } else {
            BattleKind::Strength
        };
        let now = self.gear(kind, None).best(1).0;
        let budget = self.me.gold.0.saturating_sub(self.reserve() + 2);
        lying
            .iter()
            .copied()
            .filter(|i| {
                self.content
                    .items
                    .get(i.index())
                    .is_some_and(|item| item.cost <= budget)
            })
            .map(|i| (self.gear(kind, Some(i)).best(1).0 - now, i))
            .filter(|&(gain, _)| gain > 0)
            .max_by_key(|&(gain, i)| (gain, std::cmp::Reverse(i)))
            .map(|(_, i)| i)
    }

    // -----------------------------------------------------------------------------------------
    // Movement
    // -----------------------------------------------------------------------------------------

    fn movement(&self, scratch: &mut Scratch) -> Action {
        let owned;
        let map = match self.map {
            Some(map) if map.fits(self.content) => map,
            _ => {
                owned = Map::new(&self.state.content);
                &owned
            }
        };
        let me = self.me;
        let board = &self.content.board;
        let n = board.spaces.len();
        let here = me.space.index();
        let gold = me.gold.0;
        let bonuses = self.known_bonuses(scratch);
        let situation = self.situation(&bonuses);
        let remembered = scratch.remembered.row(&map.content, situation);
        let remembered = Cell::from_mut(remembered).as_slice_of_cells();
        // What the Adventure cards are worth, worked out only where asked (NaN: not yet).
        scratch.worth.clear();
        scratch.worth.resize(n, f32::NAN);
        let worth = Cell::from_mut(&mut scratch.worth[..]).as_slice_of_cells();
        let worth_at = |space: usize| -> f32 {
            match worth.get(space) {
                Some(w) if w.get().is_nan() => {
                    let value = self.adventure_value(map, space, &bonuses, remembered);
                    w.set(value);
                    value
                }
                Some(w) => w.get(),
                None => 0.0,
            }
        };
        let (goals, weight) = self.goals(map, worth_at);
        // Moves are symmetric: the turns from `space` to the nearest goal.
        let to_goal = |space: usize| f32::from(map.turns_to(gold, space, goals));
        // The best move so far (`None`: ending the turn where she stands).
        let mut best: (f32, Option<MoveKind>) = (-weight * to_goal(here), None);
        let mut consider = |how: MoveKind, to: usize| {
            let score = self.arrival_value(to, how, worth_at(to)) - weight * to_goal(to);
            if score > best.0 {
                best = (score, Some(how));
            }
        };
        consider(MoveKind::Stay, here);
        // Which way first (ties keep the first): the seed's lowest bit.
        let ways = if self.seed.0 & 1 == 0 {
            [true, false]
        } else {
            [false, true]
        };
        // One or two spaces along a ring of at least twelve, without dividing.
        let step = |by: usize, clockwise: bool| match (clockwise, here + by >= n, here >= by) {
            (true, false, _) => here + by,
            (true, true, _) => here + by - n,
            (false, _, true) => here - by,
            (false, _, false) => here + n - by,
        };
        for clockwise in ways {
            consider(MoveKind::Walk { clockwise }, step(1, clockwise));
        }
        if gold >= 1 {
            for clockwise in ways {
                consider(MoveKind::Horse { clockwise }, step(2, clockwise));
            }
            if board.spaces.get(here).is_some_and(|s| s.port) {
                for clockwise in ways {
                    if let Some(to) = next_port(self.content, here, clockwise) {
                        consider(MoveKind::Boat { clockwise }, to);
                    }
                }
            }
        }
        if gold >= 2 && board.spaces.get(here).is_some_and(|s| s.magic_gate) {
            for (to, s) in board.spaces.iter().enumerate() {
                if s.magic_gate && to != here {
                    consider(
                        MoveKind::MagicGate {
                            to: SpaceId::of(to),
                        },
                        to,
                    );
                }
            }
        }
        best.1.map_or(Action::EndTurn, Action::Move)
    }

    /// The spaces she heads for (as bits: see [`SpaceSet`]), and what a turn closer is worth.
    ///
    /// Sets of spaces, not loops over them: this runs once per move of every bot, and the
    /// loops showed in profiles.
    fn goals(&self, map: &Map, worth_at: impl Fn(usize) -> f32) -> (SpaceSet, f32) {
        let me = self.me;
        let sets = &map.sets;
        let gold = me.gold.0;
        let when = |yes: bool, set: SpaceSet| if yes { set } else { 0 };
        // The spaces of `among` whose Adventure card is worth more than `least`. (Sets are
        // built by shifting each test's bit in, not by branching on it: which spaces pass
        // follows no pattern, and mispredicted branches showed in profiles.)
        let worth_more = |among: SpaceSet, least: f32| {
            spaces_of(among).fold(0, |goals, s| goals | u64::from(worth_at(s) > least) << s)
        };
        if me.experience >= CERTIFICATE_EXPERIENCE {
            let goals = Guild::ALL.iter().fold(0, |goals, &g| {
                goals | when(self.can_certify(g, gold), sets.guild[g as usize])
            });
            if goals != 0 {
                return (goals, 3.0);
            }
        }
        let (health, hurt) = (me.health.right, me.health.left);
        if hurt > 0 && health * 2 <= health + hurt {
            return (sets.monastery | when(gold >= 1, sets.camp_and_village), 2.0);
        }
        let needs_experience = me.experience < CERTIFICATE_EXPERIENCE;
        let sturdy = if self.values.mage { 3 } else { 4 };
        let useful = when(needs_experience && health >= sturdy, sets.fortress)
            | when(!needs_experience && health >= sturdy, sets.thieves_guild)
            | when(!needs_experience && me.magic.right >= 2, sets.city)
            | when(self.values.mage && me.magic.left >= 2, sets.wilderness);
        // Adventures further than a few turns away will have changed on arrival: near ones
        // first, then any.
        // The spaces of `among` with an Adventure card.
        let cards_in = |among: SpaceSet| {
            spaces_of(among).fold(0, |set, s| {
                let card = self
                    .state
                    .spaces
                    .get(s)
                    .is_some_and(|c| c.adventure.is_some());
                set | u64::from(card) << s
            })
        };
        let goals = useful | worth_more(cards_in(map.horizon(gold, me.space.index())), 0.5);
        if goals != 0 {
            return (goals, 1.0);
        }
        // No space is useful (it would have been a goal): only Adventures, far ones too.
        let cards = cards_in(sets.all);
        for least in [0.5, 0.0] {
            let goals = worth_more(cards, least);
            if goals != 0 {
                return (goals, 1.0);
            }
        }
        // Nothing worth going to: heal, or trade Health for Experience, while waiting, or roam
        // the empty terrain where the Chance cards bring Adventures.
        let waits = when(hurt > 0, sets.monastery)
            | when(needs_experience && health >= 2, sets.fortress)
            | (sets.terrain & !cards & !bit(me.space.index()));
        (waits, 0.3)
    }

    /// What ending a move `how` on `to` is worth, besides getting closer to her goal; `worth`
    /// is the value of the Adventure card there.
    fn arrival_value(&self, to: usize, how: MoveKind, worth: f32) -> f32 {
        let cost = how.cost().0;
        let gold = self.me.gold.0.saturating_sub(cost);
        let mut value = worth - cost as f32 * self.values.gold;
        let kind = self.kind_of(to);
        if let Some(SpaceKind::Guild(guild)) = kind
            && self.can_certify(guild, gold)
        {
            value += CERTIFICATE;
        }
        if let Some(kind) = kind {
            if how == MoveKind::Stay {
                value += self.trade_value(kind).max(0.0);
            }
            value += match kind {
                SpaceKind::Guild(Guild::Monastery) if self.me.health.left > 0 => {
                    health_cube(self.me.health.right + 1, self.values.mage)
                }
                SpaceKind::Guild(Guild::ForestCamp) | SpaceKind::Village
                    if self.me.health.left > 0 && gold >= 1 =>
                {
                    health_cube(self.me.health.right + 1, self.values.mage) - self.values.gold
                }
                SpaceKind::EnchantedWilderness if self.me.magic.left > 0 => {
                    self.me.magic.left.min(3) as f32 * self.values.magic
                }
                _ => 0.0,
            }
            .max(0.0);
        }
        value
    }
}

/// Spaces as bits: space `s` is bit `s`. A board has at most
/// [`MAX_SPACES`](crate::content::MAX_SPACES) spaces (its file is refused otherwise); bots on a
/// larger one built by hand know only its first 64.
type SpaceSet = u64;

/// The set of space `s` alone (empty beyond 64).
fn bit(s: usize) -> SpaceSet {
    u32::try_from(s)
        .ok()
        .and_then(|s| 1u64.checked_shl(s))
        .unwrap_or(0)
}

/// The spaces of `set`, in order.
fn spaces_of(mut set: SpaceSet) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        let s = set.trailing_zeros() as usize;
        set &= set.wrapping_sub(1);
        (s < 64).then_some(s)
    })
}

/// The spaces of each kind bots head for, as sets (worked out once per content, in the
/// [`Map`]).
#[derive(Debug, Clone, PartialEq)]
struct SpaceSets {
    /// Every space.
    all: SpaceSet,
    /// Each guild's, by [`Guild`] as a number.
    guild: [SpaceSet; 5],
    monastery: SpaceSet,
    /// Where Health is healed for Gold.
    camp_and_village: SpaceSet,
    fortress: SpaceSet,
    thieves_guild: SpaceSet,
    city: SpaceSet,
    wilderness: SpaceSet,
    terrain: SpaceSet,
}

/// Turns within which Adventure cards draw her.
const ADVENTURE_HORIZON: u8 = 2;

/// The next Port from `from` that way.
fn next_port(content: &Content, from: usize, clockwise: bool) -> Option<usize> {
    let spaces = &content.board.spaces;
    let n = spaces.len();
    (1..n)
        .map(|k| {
            if clockwise {
                (from + k) % n
            } else {
                (from + n - k) % n
            }
        })
        .find(|&s| spaces[s].port)
}

/// What bots know of a board: which spaces lie within so many turns of each, moving as one
/// can afford (on foot with no Gold; with a horse and a boat from 1 Gold; with the Magic Gates
/// too from 2), the spaces' kinds and the battles each Creature allows. Worked out once per
/// content: share one between many games with [`choose_with`].
#[derive(Debug, Clone, PartialEq)]
pub struct Map {
    /// The content it is the map of.
    content: Arc<Content>,
    /// Each space's kind, by index.
    kinds: Vec<SpaceKind>,
    /// The spaces of each kind bots head for.
    sets: SpaceSets,
    /// By Gold (0, 1, 2 or more), from and turns `t` (0 to `reach` − 1): the spaces within `t`
    /// turns, `reach` sets for each space.
    within: [Vec<SpaceSet>; 3],
    /// One more than the most turns between two spaces.
    reach: usize,
    /// Each Adventure card's Creature and what its treasure is worth if that depends on
    /// nothing but her values ([`treasure_worth`]), by id (`None` for an Opportunity).
    foes: Vec<Option<(Foe, Option<Treasure>)>>,
    /// Whether each Adventure card is [`situational`], by id.
    situational: Vec<bool>,
}

impl Map {
    /// The map of `content`'s board.
    pub fn new(content: &Arc<Content>) -> Map {
        let spaces = &content.board.spaces;
        let n = spaces.len();
        let gates: Vec<usize> = (0..n).filter(|&s| spaces[s].magic_gate).collect();
        // The fewest turns between two spaces, by Gold (0, 1, 2 or more): from × spaces + to.
        let turns = [0u32, 1, 2].map(|gold| {
            let neighbours: Vec<Vec<usize>> = (0..n)
                .map(|s| {
                    let mut next = vec![(s + 1) % n, (s + n - 1) % n];
                    if gold >= 1 {
                        next.extend([(s + 2) % n, (s + n - 2) % n]);
                        if spaces[s].port {
                            next.extend(
                                [true, false]
                                    .into_iter()
                                    .filter_map(|cw| next_port(content, s, cw)),
                            );
                        }
                    }
                    if gold >= 2 && spaces[s].magic_gate {
                        next.extend(gates.iter().copied().filter(|&t| t != s));
                    }
                    next
                })
                .collect();
            let mut table = vec![u8::MAX; n * n];
            let mut queue = Vec::with_capacity(n);
            for from in 0..n {
                let row = &mut table[from * n..(from + 1) * n];
                row[from] = 0;
                queue.clear();
                queue.push(from);
                let mut head = 0;
                while head < queue.len() {
                    let s = queue[head];
                    head += 1;
                    for &t in &neighbours[s] {
                        if row[t] == u8::MAX {
                            row[t] = row[s].saturating_add(1);
                            queue.push(t);
                        }
                    }
                }
            }
            table
        });
        let set_of = |is: &dyn Fn(SpaceKind) -> bool| {
            (spaces.iter().enumerate()).fold(0, |set, (s, space)| {
                set | if is(space.kind) { bit(s) } else { 0 }
            })
        };
        let guild = |g: Guild| move |kind| kind == SpaceKind::Guild(g);
        let sets = SpaceSets {
            all: set_of(&|_| true),
            guild: Guild::ALL.map(|g| set_of(&guild(g))),
            monastery: set_of(&guild(Guild::Monastery)),
            camp_and_village: set_of(&|k| guild(Guild::ForestCamp)(k) || k == SpaceKind::Village),
            fortress: set_of(&guild(Guild::Fortress)),
            thieves_guild: set_of(&guild(Guild::ThievesGuild)),
            city: set_of(&|k| k == SpaceKind::City),
            wilderness: set_of(&|k| k == SpaceKind::EnchantedWilderness),
            terrain: set_of(&|k| matches!(k, SpaceKind::Terrain(_))),
        };
        let reach = (turns.iter().flatten())
            .filter(|&&t| t < u8::MAX)
            .max()
            .map_or(1, |&t| usize::from(t) + 1);
        let within = turns.each_ref().map(|table| {
            let mut within = vec![0; n * reach];
            for (row, sets) in table.chunks(n.max(1)).zip(within.chunks_mut(reach)) {
                // Each space in the set of its turns, then each set holding the nearer ones.
                for (s, &t) in row.iter().enumerate() {
                    if let Some(set) = sets.get_mut(usize::from(t)) {
                        *set |= bit(s);
                    }
                }
                for t in 1..reach {
                    sets[t] |= sets[t - 1];
                }
            }
            within
        });
        Map {
            content: Arc::clone(content),
            kinds: spaces.iter().map(|s| s.kind).collect(),
            sets,
            within,
            reach,
            foes: (content.adventures.iter())
                .map(|card| match card {
                    AdventureCard::Creature(c) => Some((Foe::of(c), treasure_worth(&c.treasure))),
                    AdventureCard::Opportunity(_) => None,
                })
                .collect(),
            situational: content.adventures.iter().map(situational).collect(),
        }
    }

    /// Whether this is the map of `content`: the very content it was made from (which it
    /// holds, so no other can take its place in memory).
    fn fits(&self, content: &Content) -> bool {
        std::ptr::eq(Arc::as_ptr(&self.content), content)
    }

    /// The sets of spaces within 0, 1, 2… turns of `from` with `gold` (empty if `from` is off
    /// the board).
    fn within(&self, gold: u32, from: usize) -> &[SpaceSet] {
        let reach = self.reach;
        self.within[gold.min(2) as usize]
            .get(from * reach..(from + 1) * reach)
            .unwrap_or(&[])
    }

    /// The spaces within [`ADVENTURE_HORIZON`] turns of `from` with `gold`.
    fn horizon(&self, gold: u32, from: usize) -> SpaceSet {
        let within = self.within(gold, from);
        let most = usize::from(ADVENTURE_HORIZON).min(within.len().saturating_sub(1));
        within.get(most).copied().unwrap_or(0)
    }

    /// The fewest turns from `from` to any of `goals` with `gold`: 0 if there are none (or
    /// `from` is off the board), 255 if none can be reached.
    fn turns_to(&self, gold: u32, from: usize, goals: SpaceSet) -> u8 {
        if goals == 0 {
            return 0;
        }
        let within = self.within(gold, from);
        if within.is_empty() {
            return 0;
        }
        (within.iter().position(|&set| set & goals != 0))
            .map_or(u8::MAX, |t| u8::try_from(t).unwrap_or(u8::MAX))
    }
}

/// Her usable Items for one kind of battle, sorted into what the rules' limits allow together:
/// one weapon, two hands, one headwear, any number of others.
#[derive(Debug, Default)]
struct Gear {
    /// Weapons worth using: (id, bonus, hands, thrown in this battle).
    weapons: Vec<(ItemId, i32, u32, bool)>,
    /// The two best shields or hand Items.
    hands: [Option<(ItemId, i32)>; 2],
    /// The best headwear.
    head: Option<(ItemId, i32)>,
    /// Every other Item with a bonus.
    others: Vec<(ItemId, i32)>,
}

impl Gear {
    fn of(content: &Content, kind: BattleKind, items: impl Iterator<Item = ItemId>) -> Gear {
        let mut gear = Gear::default();
        gear.sort(content, kind, items);
        gear
    }

    /// Becomes the gear of `items` (keeping its buffers).
    fn sort(&mut self, content: &Content, kind: BattleKind, items: impl Iterator<Item = ItemId>) {
        self.weapons.clear();
        self.hands = [None, None];
        self.head = None;
        self.others.clear();
        let gear = self;
        for id in items {
            let Some(item) = content.items.get(id.index()) else {
                continue;
            };
            let bonus = match kind {
                BattleKind::Strength => item.strength_bonus,
                BattleKind::Wills => item.willpower_bonus,
            };
            if bonus <= 0 {
                continue;
            }
            match item.slot {
                Slot::Weapon { hands, thrown } => {
                    let hands = match hands {
                        Hands::One => 1,
                        Hands::Two => 2,
                    };
                    gear.weapons
                        .push((id, bonus, hands, thrown && kind == BattleKind::Strength));
                }
                Slot::Shield | Slot::HandItem => {
                    let entry = Some((id, bonus));
                    if gear.hands[0].is_none_or(|(_, b)| bonus > b) {
                        gear.hands[1] = gear.hands[0];
                        gear.hands[0] = entry;
                    } else if gear.hands[1].is_none_or(|(_, b)| bonus > b) {
                        gear.hands[1] = entry;
                    }
                }
                Slot::Headwear => {
                    if gear.head.is_none_or(|(_, b)| bonus > b) {
                        gear.head = Some((id, bonus));
                    }
                }
                Slot::Other => gear.others.push((id, bonus)),
            }
        }
    }

    /// The bonus of the hands left free and the rest, beside a weapon taking `used` hands.
    fn fill(&self, used: u32) -> i32 {
        let hand = |i: usize| self.hands[i].map_or(0, |(_, b)| b);
        let hands = match used {
            0 => hand(0) + hand(1),
            1 => hand(0),
            _ => 0,
        };
        hands + self.head.map_or(0, |(_, b)| b) + self.others.iter().map(|&(_, b)| b).sum::<i32>()
    }

    /// The best bonuses (every roll, first roll only) against `lives` lives.
    fn best(&self, lives: u32) -> (i32, i32) {
        let mut best = (self.fill(0), 0);
        let worth = |(every, first): (i32, i32)| {
            every as f32 + first as f32 / if lives > 1 { 3.0 } else { 1.0 }
        };
        for &(_, bonus, hands, thrown) in &self.weapons {
            let rest = self.fill(hands);
            let option = if thrown {
                (rest, bonus)
            } else {
                (rest + bonus, 0)
            };
            if worth(option) > worth(best) {
                best = option;
            }
        }
        best
    }

    /// Calls `each` with each sensible set of Items: no weapon, or one of hers, with the best
    /// of the rest (in one buffer: nothing is allocated for a bot without Items).
    fn each_loadout(&self, mut each: impl FnMut(&[ItemId])) {
        let mut set = Vec::new();
        let rest = |set: &mut Vec<ItemId>, used: u32| {
            let hands = match used {
                0 => 2,
                1 => 1,
                _ => 0,
            };
            set.extend(
                (self.hands.iter().take(hands).flatten().map(|&(id, _)| id))
                    .chain(self.head.map(|(id, _)| id))
                    .chain(self.others.iter().map(|&(id, _)| id)),
            );
        };
        rest(&mut set, 0);
        each(&set);
        for &(id, _, hands, _) in &self.weapons {
            set.clear();
            set.push(id);
            rest(&mut set, hands);
            each(&set);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
