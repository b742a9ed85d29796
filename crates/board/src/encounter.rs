//! Encountering the Adventure card where a move ends (Adventure Cards, Opportunities,
//! Creatures, Rules of Combat, Special Battles): battles of Strength and of Wills, Creatures with
//! three lives, Creatures' special rules, Opportunities, the effects' vocabulary with the
//! player's choices, and death.
//!
//! - Which battle: a Creature with Strength only allows a Battle of Strength, Willpower only a
//!   Battle of Wills; Strength first allows a Battle of Strength, or a Battle of Wills started
//!   by paying [`OPTIONAL_WILLS_MAGIC`] Magic first (paid once, before the first roll, which
//!   also weakens her Willpower for the battle); Willpower first is fought as a Battle of Wills
//!   unless its special rule says otherwise.
//! - Special rules ([`SpecialKind`], one per card, written as data with the card's words for
//!   the page). Mandatory ones (an exclamation mark) apply by themselves in `Fight`:
//!   `only_wills` (only a Battle of Wills, nothing to pay), `only_strength` (only a Battle of
//!   Strength), `wills_then_strength` (a Battle of Wills, then, if she wins it, a Battle of
//!   Strength in the same command; only winning both defeats it; three lives count in each),
//!   `drain_before` (she loses Magic before the first roll, as much as she has, which weakens
//!   her Willpower; paid before any optional Battle of Wills' two Magic), `draw_is_loss` (a
//!   roll that draws ends the battle as a loss), `rises_again` (defeated, its Experience and
//!   treasure taken, it is put back on another empty space of its terrain drawn with the
//!   battle's seed, or stays discarded if there is none). A battle a rule forbids is refused
//!   with [`Refusal::SpecialBattle`] naming the rule. Optional ones (a question mark) are used
//!   instead of fighting with `UseSpecialRule`: `pay_to_pass` (she pays the Gold and the
//!   Creature stays face-up) and `let_go` (it is discarded and she gains nothing); either ends
//!   the encounter like a battle.
//! - Her value: Strength is her red cubes on the right, Willpower her blue cubes on the right,
//!   plus the Strength (or Willpower) bonuses of the Items she names in `Fight` (Weapons and
//!   Items): carried, undamaged, each once; at most one weapon; two hands (a two-handed
//!   weapon takes both, a one-handed weapon, a shield and a hand Item one each, so a shield
//!   and a wand may go together without a weapon); at most one headwear; any number of others.
//! - Throwing is her choice (`throw` in `Fight`; the rules' "Some weapons may be thrown to add
//!   a bonus to a single die roll"). Held, a weapon that may be thrown is like any other: its
//!   bonus on every roll, and not damaged. Thrown in a Battle of Strength, its thrown bonus
//!   (`thrown` in the content, bigger than the held one) counts on the first roll only, and it
//!   is damaged after the battle, whatever the outcome. Against `wills_then_strength` the same
//!   Items serve in both battles, each with its own bonus: a weapon thrown is held in the Battle
//!   of Wills and thrown in the Battle of Strength, and damaged only if that one is fought.
//!   Asking to throw with no such weapon among the Items, or in a Battle of Wills with no
//!   Battle of Strength after it, is refused ([`Refusal::CannotThrow`]).
//! - Her choices: [`Effect::MoveOneSpace`] moves her one space the way `clockwise` says in
//!   the command that plays the card (`Fight`, `UseOpportunity`; absent: clockwise). It is not
//!   her move: she does not meet the Adventure card there this turn, may use the new space's
//!   Possibilities after moving, but not a Possibility instead of movement.
//!   [`Effect::LoseItem`] takes the carried Item named by `lose_item` (absent: her most
//!   recently obtained; nothing if she has none). A choice for an effect the card does not
//!   have is refused ([`Refusal::ChoiceNotOffered`]), as is an Item she does not carry; a
//!   Creature's choices are given before the dice, and count only if the outcome plays that
//!   effect. [`Effect::MissTurn`] skips her next turn.
//! - Death: losing a Health with no red cube on the right kills her; the effects after it are
//!   not applied. The basic rules say the player who dies has lost; the engine reads that for
//!   more than two players as: she is out and her turns are skipped, and when only one
//!   adventurer is alive, that one wins at once (the last survivor). When none is alive the
//!   game ends without a winner. A death during her own turn passes the turn.

use crate::command::{BattleKind, Choices, MoveKind};
use crate::content::{
    AdventureCard, CreatureStats, Effect, Hands, Slot, SpaceKind, SpecialKind, Terrain,
};
use crate::event::Event;
use crate::ids::{AdventureId, ItemId, PlayerId, SpaceId};
use crate::model::{Adventurer, DeckKind, Experience, Gold, Phase, Step};
use crate::refusal::{NoThrow, Refusal};
use crate::state::State;
use crate::turn::{
    LazyRng, OneEvent, Out, below, current, destination, fight_first, pass_turn, ranking, standings,
};
use dice::exact::Probability;
use dice::opposed::{BattleOdds, BattleOutcome, opposed_odds, sample, three_lives_odds};
use dice::{DiceRng, Seed};
use std::sync::Arc;

/// Magic paid to start a Battle of Wills against a Creature with Strength first.
pub const OPTIONAL_WILLS_MAGIC: u32 = 2;

/// Rolls to defeat a Creature with three lives.
pub const THREE_LIVES: u32 = 3;

/// A battle as it would be fought now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Battle {
    /// The Creature.
    pub card: AdventureId,
    /// Strength or Wills (the first battle against `wills_then_strength`).
    pub kind: BattleKind,
    /// Her value, after losing any Magic, with her Items' bonuses (but a thrown weapon's).
    pub yours: i32,
    /// A thrown weapon's thrown bonus, on the first roll only.
    pub first_roll_bonus: i32,
    /// The weapon she throws (in a Battle of Strength), damaged after the battle.
    pub thrown: Option<ItemId>,
    /// The Creature's value.
    pub theirs: i32,
    /// Magic paid before the first roll.
    pub magic_cost: u32,
    /// Magic lost to the Creature's `drain_before` rule before the first roll (and before any
    /// Magic paid), as much as she has.
    pub drained: u32,
    /// Rolls she must win: 1, or 3 for a Creature with three lives (in each battle).
    pub lives: u32,
    /// A roll that draws ends the battle as a loss (`draw_is_loss`).
    pub draw_is_loss: bool,
    /// The Battle of Strength fought after a Battle of Wills won (`wills_then_strength`).
    pub then: Option<Stage>,
}

/// The second battle against a Creature with `wills_then_strength`: a Battle of Strength.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stage {
    /// Her Strength with her Items' bonuses (but a thrown weapon's).
    pub yours: i32,
    /// A thrown weapon's thrown bonus, on the first roll of this battle only.
    pub first_roll_bonus: i32,
    /// The thrown weapon, damaged after the battle if this battle was fought.
    pub thrown: Option<ItemId>,
    /// The Creature's Strength.
    pub theirs: i32,
}

fn value(n: u32) -> i32 {
    i32::try_from(n).unwrap_or(i32::MAX)
}

/// The bonuses of `items` in a battle of `kind` (every roll, first roll only) and the thrown
/// weapon, or why she cannot use them together. With `throw`, a weapon that may be thrown is
/// thrown in a Battle of Strength (and held in a Battle of Wills); whether there is one to
/// throw is for the caller to check.
pub fn item_bonuses(
    state: &State,
    player: PlayerId,
    kind: BattleKind,
    items: &[ItemId],
    throw: bool,
) -> Result<(i32, i32, Option<ItemId>), Refusal> {
    let Some(adventurer) = state.adventurer(player) else {
        return Err(Refusal::NotAPlayer);
    };
    let (mut weapons, mut hands, mut headwear) = (0, 0, 0);
    let (mut bonus, mut first, mut thrown) = (0i32, 0i32, None);
    for (at, &id) in items.iter().enumerate() {
        let Some(item) = state
            .content
            .items
            .get(id.index())
            .filter(|_| adventurer.items.contains(&id) && !items[..at].contains(&id))
        else {
            return Err(Refusal::ItemNotCarried);
        };
        if adventurer.damaged.contains(&id) {
            return Err(Refusal::DamagedItem);
        }
        let mut throws = None;
        match item.slot {
            Slot::Weapon { hands: h, thrown } => {
                weapons += 1;
                hands += match h {
                    Hands::One => 1,
                    Hands::Two => 2,
                };
                throws = thrown.filter(|_| throw && kind == BattleKind::Strength);
            }
            Slot::Shield | Slot::HandItem => hands += 1,
            Slot::Headwear => headwear += 1,
            Slot::Other => {}
        }
        if weapons > 1 {
            return Err(Refusal::OneWeapon);
        }
        if hands > 2 {
            return Err(Refusal::TooManyHands);
        }
        if headwear > 1 {
            return Err(Refusal::OneHeadwear);
        }
        let b = match kind {
            BattleKind::Strength => item.strength_bonus,
            BattleKind::Wills => item.willpower_bonus,
        };
        if let Some(b) = throws {
            first = first.saturating_add(b);
            thrown = Some(id);
        } else {
            bonus = bonus.saturating_add(b);
        }
    }
    Ok((bonus, first, thrown))
}

/// The battle `player` would fight in `kind` against the Creature where she stands with
/// `items`, throwing her weapon or not (`throw`), or why it is not possible (whatever the
/// turn: [`decide`](mod@crate::decide) checks the turn).
pub fn battle(
    state: &State,
    player: PlayerId,
    kind: BattleKind,
    items: &[ItemId],
    throw: bool,
) -> Result<Battle, Refusal> {
    let Some(adventurer) = state.adventurer(player) else {
        return Err(Refusal::NotAPlayer);
    };
    if !adventurer.alive {
        return Err(Refusal::Dead);
    }
    let Some((card, creature)) = state.creature_on(adventurer.space) else {
        return Err(Refusal::NoCreature);
    };
    let special = creature.special.as_ref().map(|r| r.rule);
    let wrong = || Refusal::WrongBattle { asked: kind };
    let (theirs, magic_cost) = match (special, kind) {
        (Some(rule @ SpecialKind::OnlyStrength), BattleKind::Wills)
        | (
            Some(rule @ (SpecialKind::OnlyWills | SpecialKind::WillsThenStrength)),
            BattleKind::Strength,
        ) => {
            return Err(Refusal::SpecialBattle {
                creature: creature.name.clone(),
                rule: rule.name(),
                asked: kind,
            });
        }
        (Some(SpecialKind::OnlyStrength), BattleKind::Strength) => {
            (creature.stats.strength().ok_or_else(wrong)?, 0)
        }
        (Some(SpecialKind::OnlyWills | SpecialKind::WillsThenStrength), BattleKind::Wills) => {
            (creature.stats.willpower().ok_or_else(wrong)?, 0)
        }
        (_, BattleKind::Strength) => match creature.stats {
            CreatureStats::Strength(s)
            | CreatureStats::StrengthThenWillpower { strength: s, .. } => (s, 0),
            CreatureStats::Willpower(_) | CreatureStats::WillpowerThenStrength { .. } => {
                return Err(wrong());
            }
        },
        (_, BattleKind::Wills) => match creature.stats {
            CreatureStats::Willpower(w)
            | CreatureStats::WillpowerThenStrength { willpower: w, .. } => (w, 0),
            CreatureStats::StrengthThenWillpower { willpower: w, .. } => (w, OPTIONAL_WILLS_MAGIC),
            CreatureStats::Strength(_) => return Err(wrong()),
        },
    };
    let drained = match special {
        Some(SpecialKind::DrainBefore { magic }) => magic.min(adventurer.magic.right),
        _ => 0,
    };
    let magic_left = adventurer.magic.right - drained;
    let yours = match kind {
        BattleKind::Strength => value(adventurer.health.right),
        BattleKind::Wills => {
            if magic_left < magic_cost {
                return Err(Refusal::NotEnoughMagic {
                    cost: magic_cost,
                    has: magic_left,
                });
            }
            value(magic_left - magic_cost)
        }
    };
    let (bonus, first_roll_bonus, thrown) = item_bonuses(state, player, kind, items, throw)?;
    let then = match (special, creature.stats.strength()) {
        (Some(SpecialKind::WillsThenStrength), Some(theirs)) => {
            let (bonus, first_roll_bonus, thrown) =
                item_bonuses(state, player, BattleKind::Strength, items, throw)?;
            Some(Stage {
                yours: value(adventurer.health.right).saturating_add(bonus),
                first_roll_bonus,
                thrown,
                theirs,
            })
        }
        _ => None,
    };
    if throw {
        if kind == BattleKind::Wills && then.is_none() {
            return Err(Refusal::CannotThrow {
                why: NoThrow::BattleOfWills,
            });
        }
        if thrown.or(then.and_then(|t| t.thrown)).is_none() {
            return Err(Refusal::CannotThrow {
                why: NoThrow::NothingThrowable,
            });
        }
    }
    Ok(Battle {
        card,
        kind,
        yours: yours.saturating_add(bonus),
        first_roll_bonus,
        thrown,
        theirs,
        magic_cost,
        drained,
        lives: if creature.three_lives { THREE_LIVES } else { 1 },
        draw_is_loss: special == Some(SpecialKind::DrawIsLoss),
        then,
    })
}

/// The exact chances of one battle of `lives` rolls, a thrown weapon's bonus on the first.
fn stage_odds(yours: i32, first_roll_bonus: i32, theirs: i32, lives: u32) -> BattleOdds {
    let first = opposed_odds(yours.saturating_add(first_roll_bonus), theirs);
    if lives < THREE_LIVES {
        return first;
    }
    if first_roll_bonus == 0 {
        return three_lives_odds(yours, theirs);
    }
    // The first roll differs: win it, then two more with the same value.
    let rest = opposed_odds(yours, theirs);
    let after_first = &first.win;
    let after_second = &first.win * &rest.win;
    let reaches_later = after_first + &after_second;
    BattleOdds {
        win: &after_second * &rest.win,
        draw: &first.draw + &(&rest.draw * &reaches_later),
        loss: &first.loss + &(&rest.loss * &reaches_later),
    }
}

/// The exact chances of a battle as [`battle`] gives it: three lives, a thrown weapon's first
/// roll, the Battle of Strength after a Battle of Wills won, and a draw counted as a loss.
pub fn odds(battle: &Battle) -> BattleOdds {
    let mut odds = stage_odds(
        battle.yours,
        battle.first_roll_bonus,
        battle.theirs,
        battle.lives,
    );
    if let Some(then) = battle.then {
        let second = stage_odds(then.yours, then.first_roll_bonus, then.theirs, battle.lives);
        odds = BattleOdds {
            draw: &odds.draw + &(&odds.win * &second.draw),
            loss: &odds.loss + &(&odds.win * &second.loss),
            win: &odds.win * &second.win,
        };
    }
    if battle.draw_is_loss {
        odds = BattleOdds {
            loss: &odds.loss + &odds.draw,
            draw: Probability::zero(),
            win: odds.win,
        };
    }
    odds
}

/// Rolls one battle of `lives` rolls, stopping at the first that is not a win.
fn roll(
    yours: i32,
    first_roll_bonus: i32,
    theirs: i32,
    battle: &Battle,
    rng: &mut DiceRng,
) -> (Vec<(u8, u8)>, BattleOutcome) {
    let mut rolls = Vec::new();
    for n in 0..battle.lives {
        let first = if n == 0 { first_roll_bonus } else { 0 };
        let roll = sample(yours.saturating_add(first), theirs, rng);
        rolls.push((roll.your_die, roll.their_die));
        match roll.outcome {
            BattleOutcome::Win => {}
            BattleOutcome::Draw if battle.draw_is_loss => return (rolls, BattleOutcome::Loss),
            outcome => return (rolls, outcome),
        }
    }
    (rolls, BattleOutcome::Win)
}

/// Checks her choices against the effects the card may play: each must be asked for by one of
/// them, and the Item lost must be hers.
fn check_choices<'e>(
    state: &State,
    by: PlayerId,
    effects: impl IntoIterator<Item = &'e Effect> + Clone,
    choices: Choices,
) -> Result<(), Refusal> {
    let offers = |wanted: Effect| effects.clone().into_iter().any(|&e| e == wanted);
    if choices.clockwise.is_some() && !offers(Effect::MoveOneSpace) {
        return Err(Refusal::ChoiceNotOffered {
            choice: "clockwise",
        });
    }
    if let Some(item) = choices.lose_item {
        if !offers(Effect::LoseItem) {
            return Err(Refusal::ChoiceNotOffered {
                choice: "lose_item",
            });
        }
        if !state
            .adventurer(by)
            .is_some_and(|a| a.items.contains(&item))
        {
            return Err(Refusal::LostItemNotCarried { item });
        }
    }
    Ok(())
}

/// `Fight`: the battle (or two, against `wills_then_strength`), then its consequences.
pub(crate) fn fight(
    state: &State,
    by: PlayerId,
    kind: BattleKind,
    items: Vec<ItemId>,
    throw: bool,
    choices: Choices,
    seed: Seed,
) -> Result<impl FnOnce(&mut Out) + use<>, Refusal> {
    let (turn, adventurer) = current(state, by)?;
    let space = adventurer.space;
    match turn.step {
        Step::DrawChance => return Err(Refusal::DrawChanceFirst),
        Step::Move => return Err(Refusal::EncounterAfterMoving),
        Step::Moved if turn.moved_by_card => return Err(Refusal::MovedByCard),
        Step::Moved => {
            battle(state, by, kind, &items, throw)?;
            return Err(Refusal::AlreadyFought);
        }
        Step::Battle => {}
    }
    let battle = battle(state, by, kind, &items, throw)?;
    // Its own handle on the content: the act below outlives the borrow of `state`.
    let content = Arc::clone(&state.content);
    let Some(AdventureCard::Creature(creature)) = content.adventures.get(battle.card.index())
    else {
        return Err(Refusal::NoCreature);
    };
    check_choices(
        state,
        by,
        creature.treasure.iter().chain(creature.loss_effects()),
        choices,
    )?;
    Ok(move |out: &mut Out| {
        let Some(AdventureCard::Creature(creature)) = content.adventures.get(battle.card.index())
        else {
            return; // Checked above.
        };
        let mut items = items;
        let mut rng = LazyRng::new(seed);
        let (rolls, mut outcome) = roll(
            battle.yours,
            battle.first_roll_bonus,
            battle.theirs,
            &battle,
            rng.get(),
        );
        let mut thrown = battle.thrown;
        let then = match (outcome, battle.then) {
            (BattleOutcome::Win, Some(then)) => Some(then),
            _ => None,
        };
        out.emit(Event::BattleFought {
            player: by,
            card: battle.card,
            kind,
            magic_paid: battle.magic_cost,
            drained: battle.drained,
            rolls,
            outcome,
            // Copied only if the second battle's event names them too.
            items: if then.is_some() {
                items.clone()
            } else {
                std::mem::take(&mut items)
            },
            thrown: battle.thrown,
        });
        if let Some(then) = then {
            let (rolls, second) = roll(
                then.yours,
                then.first_roll_bonus,
                then.theirs,
                &battle,
                rng.get(),
            );
            outcome = second;
            thrown = thrown.or(then.thrown);
            out.emit(Event::BattleFought {
                player: by,
                card: battle.card,
                kind: BattleKind::Strength,
                magic_paid: 0,
                drained: 0,
                rolls,
                outcome,
                items,
                thrown: then.thrown,
            });
        }
        if let Some(item) = thrown {
            out.emit(Event::ItemDamaged { player: by, item });
        }
        match outcome {
            BattleOutcome::Win => {
                out.emit(Event::CreatureDefeated {
                    player: by,
                    card: battle.card,
                    space,
                    experience: Experience(creature.experience),
                });
                if let Some(SpecialKind::RisesAgain { terrain }) =
                    creature.special.as_ref().map(|r| r.rule)
                {
                    rise(out, battle.card, space, terrain, &mut rng);
                }
                apply_effects(out, by, &creature.treasure, choices, &mut rng);
            }
            BattleOutcome::Draw => {}
            BattleOutcome::Loss => {
                apply_effects(out, by, creature.loss_effects(), choices, &mut rng);
            }
        }
    })
}

/// `rises_again`: the defeated Creature goes back on another empty space of `terrain`.
fn rise(out: &mut Out, card: AdventureId, from: SpaceId, terrain: Terrain, rng: &mut LazyRng) {
    let board = &out.state.content.board;
    let empty: Vec<SpaceId> = (0..board.spaces.len())
        .filter(|&i| {
            i != from.index()
                && board.spaces[i].kind == SpaceKind::Terrain(terrain)
                && out
                    .state
                    .spaces
                    .get(i)
                    .is_some_and(|s| s.adventure.is_none())
        })
        .map(SpaceId::of)
        .collect();
    if empty.is_empty() {
        return;
    }
    let to = empty[below(rng.get(), empty.len())];
    out.emit(Event::CreatureRose { card, from, to });
}

/// `UseSpecialRule`: the optional special rule of the Creature she met, instead of fighting.
pub(crate) fn use_special_rule(state: &State, by: PlayerId) -> OneEvent {
    let (turn, adventurer) = current(state, by)?;
    let space = adventurer.space;
    let met = state.creature_on(space);
    match turn.step {
        Step::DrawChance => return Err(Refusal::DrawChanceFirst),
        Step::Move => return Err(Refusal::EncounterAfterMoving),
        Step::Moved if met.is_some() && turn.moved_by_card => return Err(Refusal::MovedByCard),
        Step::Moved if met.is_some() => return Err(Refusal::AlreadyFought),
        Step::Moved => return Err(Refusal::NoCreature),
        Step::Battle => {}
    }
    let Some((card, creature)) = met else {
        return Err(Refusal::NoCreature);
    };
    let Some(special) = &creature.special else {
        return Err(Refusal::NoSpecialRule {
            creature: creature.name.clone(),
        });
    };
    match special.rule {
        SpecialKind::PayToPass { gold } => {
            let cost = Gold(gold);
            if adventurer.gold < cost {
                return Err(Refusal::PassGold {
                    cost,
                    has: adventurer.gold,
                });
            }
            Ok(Event::CreaturePassed {
                player: by,
                card,
                paid: cost,
            })
        }
        SpecialKind::LetGo => Ok(Event::CreatureLetGo {
            player: by,
            card,
            space,
        }),
        rule => Err(Refusal::MandatoryRule {
            creature: creature.name.clone(),
            rule: rule.name(),
        }),
    }
}

/// `UseOpportunity`: discard it and follow its effects.
pub(crate) fn use_opportunity(
    state: &State,
    by: PlayerId,
    choices: Choices,
    seed: Seed,
) -> Result<impl FnOnce(&mut Out) + use<>, Refusal> {
    let (turn, adventurer) = current(state, by)?;
    match turn.step {
        Step::DrawChance => return Err(Refusal::DrawChanceFirst),
        Step::Move => return Err(Refusal::EncounterAfterMoving),
        Step::Battle => return Err(fight_first(state, by)),
        Step::Moved => {}
    }
    let space = adventurer.space;
    let Some(card) = state.space(space).and_then(|s| s.adventure) else {
        return Err(Refusal::NoOpportunity);
    };
    if turn.moved_by_card {
        return Err(Refusal::MovedByCard);
    }
    // Its own handle on the content: the act below outlives the borrow of `state`.
    let content = Arc::clone(&state.content);
    let Some(AdventureCard::Opportunity(opportunity)) = content.adventures.get(card.index()) else {
        return Err(Refusal::NoOpportunity);
    };
    check_choices(state, by, &opportunity.effects, choices)?;
    price_paid_in_full(adventurer, &opportunity.effects)?;
    Ok(move |out: &mut Out| {
        let Some(AdventureCard::Opportunity(opportunity)) = content.adventures.get(card.index())
        else {
            return; // Checked above.
        };
        out.emit(Event::OpportunityUsed {
            player: by,
            card,
            space,
        });
        apply_effects(
            out,
            by,
            &opportunity.effects,
            choices,
            &mut LazyRng::new(seed),
        );
    })
}

/// An Opportunity's losses are its price: she pays all of it, in the card's order (a card may
/// give Gold before it takes some), or she does not use the card. Magic is paid from the
/// right, so with none there she "cannot use anything that requires the payment of Magic";
/// Health too, and she may pay her last one (a loss kills only when she has none).
pub(crate) fn price_paid_in_full(
    adventurer: &Adventurer,
    effects: &[Effect],
) -> Result<(), Refusal> {
    let mut gold = adventurer.gold.0;
    let mut experience = adventurer.experience.0;
    let mut health = adventurer.health;
    let mut magic = adventurer.magic;
    let mut items = adventurer.items.len();
    let pay = |what: &'static str, has: &mut u32, cost: u32| {
        *has = has.checked_sub(cost).ok_or(Refusal::PriceUnpaid {
            what,
            cost,
            has: *has,
        })?;
        Ok(())
    };
    for &effect in effects {
        match effect {
            Effect::GainGold(n) => gold = gold.saturating_add(n),
            Effect::GainExperience(n) => experience = experience.saturating_add(n),
            Effect::Heal(n) => {
                health.restore(n);
            }
            Effect::Recharge(n) => {
                magic.restore(n);
            }
            Effect::LoseGold(n) => pay("Gold", &mut gold, n)?,
            Effect::LoseExperience(n) => pay("Experience", &mut experience, n)?,
            Effect::LoseHealth(n) => pay("Health", &mut health.right, n)?,
            Effect::LoseMagic(n) => pay("Magic", &mut magic.right, n)?,
            Effect::LoseItem => {
                items = items.checked_sub(1).ok_or(Refusal::PriceUnpaid {
                    what: "Item",
                    cost: 1,
                    has: 0,
                })?;
            }
            Effect::GainStrength(_)
            | Effect::GainWillpower(_)
            | Effect::MissTurn
            | Effect::DrawCommonItem
            | Effect::DrawRareItem
            | Effect::MoveOneSpace => {}
        }
    }
    Ok(())
}

/// Applies effects in order to `by`, with her choices; stops if she dies (and settles her
/// death).
fn apply_effects(
    out: &mut Out,
    by: PlayerId,
    effects: &[Effect],
    choices: Choices,
    rng: &mut LazyRng,
) {
    for &effect in effects {
        let Some(a) = out.state.adventurer(by) else {
            return;
        };
        if !a.alive {
            return;
        }
        let applied = match effect {
            Effect::GainGold(n)
            | Effect::GainExperience(n)
            | Effect::GainStrength(n)
            | Effect::GainWillpower(n) => n,
            Effect::LoseGold(n) => n.min(a.gold.0),
            Effect::LoseExperience(n) => n.min(a.experience.0),
            Effect::Heal(n) => n.min(a.health.left),
            Effect::Recharge(n) => n.min(a.magic.left),
            Effect::LoseMagic(n) => n.min(a.magic.right),
            Effect::MissTurn => 1,
            Effect::LoseHealth(n) => {
                let right = a.health.right;
                let moved = n.min(right);
                if moved > 0 {
                    out.emit(Event::EffectApplied {
                        player: by,
                        effect,
                        applied: moved,
                    });
                }
                if n > right {
                    out.emit(Event::AdventurerDied { player: by });
                    settle_death(out, by);
                    return;
                }
                continue;
            }
            Effect::DrawCommonItem | Effect::DrawRareItem => {
                let deck = if effect == Effect::DrawCommonItem {
                    DeckKind::CommonItems
                } else {
                    DeckKind::RareItems
                };
                out.draw(deck, 1, rng, |cards, _| Event::ItemDrawn {
                    player: by,
                    deck,
                    item: ItemId(cards.first().copied().unwrap_or_default()),
                });
                continue;
            }
            Effect::LoseItem => {
                let chosen = choices.lose_item.filter(|i| a.items.contains(i));
                if let Some(item) = chosen.or_else(|| a.items.last().copied()) {
                    out.emit(Event::ItemLost { player: by, item });
                }
                continue;
            }
            Effect::MoveOneSpace => {
                let clockwise = choices.clockwise.unwrap_or(true);
                if let Ok(to) = destination(out.state, a.space, MoveKind::Walk { clockwise }) {
                    out.emit(Event::MovedOneSpace {
                        player: by,
                        clockwise,
                        to,
                    });
                }
                continue;
            }
        };
        if applied > 0 {
            out.emit(Event::EffectApplied {
                player: by,
                effect,
                applied,
            });
        }
    }
}

/// After `by` died: the last survivor wins, nobody alive ends the game, otherwise the turn
/// passes if it was hers.
fn settle_death(out: &mut Out, by: PlayerId) {
    let alive: Vec<PlayerId> = out
        .state
        .adventurers
        .iter()
        .filter(|a| a.alive)
        .map(|a| a.player)
        .collect();
    match alive.as_slice() {
        [] => {
            let ranking = standings(out.state);
            out.emit(Event::GameEndedWithoutWinner { ranking });
        }
        [winner] => {
            let ranking = ranking(out.state, *winner);
            out.emit(Event::GameWon {
                winner: *winner,
                ranking,
            });
        }
        _ => {
            if out.state.turn().is_some_and(|t| t.player == by) {
                pass_turn(out, by);
            }
        }
    }
}

impl State {
    /// The exact chances of `player`'s battle of `kind` against the Creature where she stands,
    /// using `items` and throwing her weapon or not (`throw`) (three lives aware, after the Magic its special rule drains and the Magic
    /// an optional Battle of Wills costs, with the Items' bonuses and a thrown weapon's on the
    /// first roll only, the Battle of Strength after a Battle of Wills won against
    /// `wills_then_strength`, a draw counted as a loss against `draw_is_loss`); `None` when
    /// there is no Creature there, that battle is not possible or the Items cannot be used
    /// together (see this module).
    pub fn battle_odds(
        &self,
        player: PlayerId,
        kind: BattleKind,
        items: &[ItemId],
        throw: bool,
    ) -> Option<BattleOdds> {
        let battle = battle(self, player, kind, items, throw).ok()?;
        Some(odds(&battle))
    }
}

/// The encounter's events applied to the state (`State::apply` sends each here).
impl State {
    /// [`Event::BattleFought`]: the Magic drained and paid to start it are lost, and the
    /// encounter is over.
    pub(crate) fn end_battle(&mut self, player: PlayerId, magic_paid: u32, drained: u32) {
        // Most battles cost no Magic: then the adventurers are left alone, which spares
        // `decide` copying them (they are shared with the state it decides from).
        let lost = drained.saturating_add(magic_paid);
        if lost > 0
            && let Some(a) = self.adventurer_mut(player)
        {
            a.magic.lose(lost);
        }
        self.set_step(Step::Moved);
    }

    /// [`Event::CreatureRose`]: `rises_again` takes the Creature from the discards back onto
    /// an empty space.
    pub(crate) fn raise_creature(&mut self, card: AdventureId, to: SpaceId) {
        let discard = &mut self.decks.adventure.discard;
        if let Some(contents) = self.spaces.get_mut(to.index())
            && contents.adventure.is_none()
            && let Some(at) = discard.iter().rposition(|c| *c == card)
        {
            discard.remove(at);
            contents.adventure = Some(card);
        }
    }

    /// [`Event::CreaturePassed`]: `pay_to_pass` paid; the Creature stays and the encounter is
    /// over.
    pub(crate) fn pass_creature(&mut self, player: PlayerId, paid: Gold) {
        if let Some(a) = self.adventurer_mut(player) {
            a.gold.0 = a.gold.0.saturating_sub(paid.0);
        }
        self.set_step(Step::Moved);
    }

    /// [`Event::CreatureLetGo`]: `let_go` discards the Creature and ends the encounter.
    pub(crate) fn let_creature_go(&mut self, card: AdventureId, space: SpaceId) {
        self.discard_adventure(space, card);
        self.set_step(Step::Moved);
    }

    /// [`Event::MovedOneSpace`]: a card's move, which is not her move.
    pub(crate) fn move_one_space(&mut self, player: PlayerId, to: SpaceId) {
        if let Some(a) = self.adventurer_mut(player) {
            a.space = to;
        }
        // A Possibility instead of movement is for a turn she stays where she started, and
        // the card where she lands is not met this turn.
        if let Phase::Playing(turn) = &mut self.phase {
            turn.stayed = false;
            turn.moved_by_card = true;
        }
    }

    /// [`Event::CreatureDefeated`]: the Creature is discarded and its Experience is hers.
    pub(crate) fn defeat_creature(
        &mut self,
        player: PlayerId,
        card: AdventureId,
        space: SpaceId,
        experience: Experience,
    ) {
        self.discard_adventure(space, card);
        if let Some(a) = self.adventurer_mut(player) {
            a.experience.0 = a.experience.0.saturating_add(experience.0);
        }
    }

    /// [`Event::EffectApplied`]: one effect of a card, by the amount it had.
    pub(crate) fn take_effect(&mut self, player: PlayerId, effect: &Effect, applied: u32) {
        let Some(a) = self.adventurer_mut(player) else {
            return;
        };
        let n = applied;
        match effect {
            Effect::GainGold(_) => a.gold.0 = a.gold.0.saturating_add(n),
            Effect::LoseGold(_) => a.gold.0 = a.gold.0.saturating_sub(n),
            Effect::GainExperience(_) => {
                a.experience.0 = a.experience.0.saturating_add(n);
            }
            Effect::LoseExperience(_) => {
                a.experience.0 = a.experience.0.saturating_sub(n);
            }
            Effect::Heal(_) => {
                a.health.restore(n);
            }
            Effect::LoseHealth(_) => {
                a.health.lose(n);
            }
            Effect::Recharge(_) => {
                a.magic.restore(n);
            }
            Effect::LoseMagic(_) => {
                a.magic.lose(n);
            }
            Effect::GainStrength(_) => a.health.right = a.health.right.saturating_add(n),
            Effect::GainWillpower(_) => a.magic.right = a.magic.right.saturating_add(n),
            Effect::MissTurn => a.miss_turn = true,
            // These have their own events.
            Effect::DrawCommonItem
            | Effect::DrawRareItem
            | Effect::LoseItem
            | Effect::MoveOneSpace => {}
        }
    }

    /// [`Event::ItemDrawn`]: a treasure or a card's Item, from its deck to her.
    pub(crate) fn draw_item(&mut self, player: PlayerId, item: ItemId) {
        if let Some(deck) = self.item_deck(item) {
            deck.take(&item);
        }
        if let Some(a) = self.adventurer_mut(player) {
            a.items.push(item);
        }
    }

    /// [`Event::ItemDamaged`]: a thrown weapon turned face-down after its battle.
    pub(crate) fn damage_item(&mut self, player: PlayerId, item: ItemId) {
        if let Some(a) = self.adventurer_mut(player)
            && a.items.contains(&item)
            && !a.damaged.contains(&item)
        {
            a.damaged.push(item);
        }
    }

    /// [`Event::AdventurerDied`]: she is out; her turns are skipped from now on.
    pub(crate) fn die(&mut self, player: PlayerId) {
        if let Some(a) = self.adventurer_mut(player) {
            a.alive = false;
        }
    }

    /// Takes an Adventure card off a space (if it lies there) into the discards.
    pub(crate) fn discard_adventure(&mut self, space: SpaceId, card: AdventureId) {
        if let Some(contents) = self.spaces.get_mut(space.index())
            && contents.adventure == Some(card)
        {
            contents.adventure = None;
            self.decks.adventure.discard.push(card);
        }
    }
}
