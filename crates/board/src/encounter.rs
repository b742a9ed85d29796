//! Encountering the Adventure card where a move ends (Adventure Cards, Opportunities,
//! Creatures, Rules of Combat): battles of Strength and of Wills, Creatures with three lives,
//! Opportunities, the effects' vocabulary, and death.
//!
//! - Which battle: a Creature with Strength only allows a Battle of Strength, Willpower only a
//!   Battle of Wills; Strength first allows a Battle of Strength, or a Battle of Wills started
//!   by paying [`OPTIONAL_WILLS_MAGIC`] Magic first (paid once, before the first roll, which
//!   also weakens her Willpower for the battle); Willpower first is fought as a Battle of Wills.
//! - Special rules: the engine does **not** interpret a Creature's special rule yet. Its text
//!   stays free text for the page to show, and the battle follows the Creature's values as
//!   above (a Willpower-first Creature with a special rule is a plain Battle of Wills).
//! - Her value: Strength is her red cubes on the right, Willpower her blue cubes on the right,
//!   plus the Strength (or Willpower) bonuses of the Items she names in `Fight` (Weapons and
//!   Items): carried, undamaged, each once; at most one weapon; two hands (a two-handed
//!   weapon takes both, a one-handed weapon, a shield and a hand Item one each, so a shield
//!   and a wand may go together without a weapon); at most one headwear; any number of others.
//!   A thrown weapon in a Battle of Strength is thrown: its bonus counts on the first roll only
//!   and it is damaged after the battle, whatever the outcome. In a Battle of Wills it is
//!   simply held (its Willpower bonus, if any, on every roll, and not damaged).
//! - Effects not played yet: [`Effect::MoveOneSpace`] needs her choice of direction, which no
//!   command carries yet. An Opportunity with it is refused
//!   ([`Refusal::EffectNotSupported`]) and may only be left; a Creature with it in its
//!   treasure or loss effects is not met at all (the engine never forces a battle it cannot
//!   finish). [`Effect::LoseItem`] takes her most recently obtained Item (the choice comes with
//!   the Items slice), nothing if she has none. [`Effect::MissTurn`] skips her next turn.
//! - Death: losing a Health with no red cube on the right kills her; the effects after it are
//!   not applied. The basic rules say the player who dies has lost; the engine reads that for
//!   more than two players as: she is out and her turns are skipped, and when only one
//!   adventurer is alive, that one wins at once (the last survivor). When none is alive the
//!   game ends without a winner. A death during her own turn passes the turn.

use crate::command::BattleKind;
use crate::content::{AdventureCard, Creature, CreatureStats, Effect, Hands, Slot};
use crate::decide::{Out, current, pass_turn, ranking, standings};
use crate::event::Event;
use crate::ids::{AdventureId, ItemId, PlayerId};
use crate::model::{DeckKind, Experience, Step};
use crate::refusal::Refusal;
use crate::state::State;
use dice::opposed::{BattleOutcome, sample};
use dice::{DiceRng, Seed};

type Decision = Result<Vec<Event>, Refusal>;

/// Magic paid to start a Battle of Wills against a Creature with Strength first.
pub const OPTIONAL_WILLS_MAGIC: u32 = 2;

/// Rolls to defeat a Creature with three lives.
pub const THREE_LIVES: u32 = 3;

/// Whether the engine plays this effect (see the module's documentation).
pub fn supported(effect: Effect) -> bool {
    !matches!(effect, Effect::MoveOneSpace)
}

/// Whether the engine can play every effect of this Creature, so that it is met.
pub fn playable(creature: &Creature) -> bool {
    creature
        .treasure
        .iter()
        .chain(creature.on_loss.iter().flatten())
        .all(|&e| supported(e))
}

/// A battle as it would be fought now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Battle {
    /// The Creature.
    pub card: AdventureId,
    /// Strength or Wills.
    pub kind: BattleKind,
    /// Her value, after paying any Magic, with her Items' bonuses (but a thrown weapon's).
    pub yours: i32,
    /// A thrown weapon's bonus, on the first roll only.
    pub first_roll_bonus: i32,
    /// The thrown weapon, damaged after the battle.
    pub thrown: Option<ItemId>,
    /// The Creature's value.
    pub theirs: i32,
    /// Magic paid before the first roll.
    pub magic_cost: u32,
    /// Rolls she must win: 1, or 3 for a Creature with three lives.
    pub lives: u32,
}

fn value(n: u32) -> i32 {
    i32::try_from(n).unwrap_or(i32::MAX)
}

/// The bonuses of `items` in a battle of `kind` (every roll, first roll only) and the thrown
/// weapon, or why she cannot use them together.
pub fn item_bonuses(
    state: &State,
    player: PlayerId,
    kind: BattleKind,
    items: &[ItemId],
) -> Result<(i32, i32, Option<ItemId>), Refusal> {
    let adventurer = state.adventurer(player).ok_or(Refusal::NotAPlayer)?;
    let (mut weapons, mut hands, mut headwear) = (0, 0, 0);
    let (mut bonus, mut first, mut thrown) = (0i32, 0i32, None);
    for (at, &id) in items.iter().enumerate() {
        let item = state
            .content
            .items
            .get(id.index())
            .filter(|_| adventurer.items.contains(&id) && !items[..at].contains(&id))
            .ok_or(Refusal::ItemNotCarried)?;
        if adventurer.damaged.contains(&id) {
            return Err(Refusal::DamagedItem);
        }
        let mut throws = false;
        match item.slot {
            Slot::Weapon { hands: h, thrown } => {
                weapons += 1;
                hands += match h {
                    Hands::One => 1,
                    Hands::Two => 2,
                };
                throws = thrown && kind == BattleKind::Strength;
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
        if throws {
            first = first.saturating_add(b);
            thrown = Some(id);
        } else {
            bonus = bonus.saturating_add(b);
        }
    }
    Ok((bonus, first, thrown))
}

/// The battle `player` would fight in `kind` against the Creature where she stands with
/// `items`, or why it is not possible (whatever the turn: [`decide`](mod@crate::decide) checks
/// the turn).
pub fn battle(
    state: &State,
    player: PlayerId,
    kind: BattleKind,
    items: &[ItemId],
) -> Result<Battle, Refusal> {
    let adventurer = state.adventurer(player).ok_or(Refusal::NotAPlayer)?;
    if !adventurer.alive {
        return Err(Refusal::Dead);
    }
    let (card, creature) = state
        .creature_on(adventurer.space)
        .ok_or(Refusal::NoCreature)?;
    if let Some(&effect) = creature
        .treasure
        .iter()
        .chain(creature.on_loss.iter().flatten())
        .find(|&&e| !supported(e))
    {
        return Err(Refusal::EffectNotSupported { effect });
    }
    let wrong = Err(Refusal::WrongBattle { asked: kind });
    let (theirs, magic_cost) = match (creature.stats, kind) {
        (CreatureStats::Strength(s), BattleKind::Strength)
        | (CreatureStats::StrengthThenWillpower { strength: s, .. }, BattleKind::Strength) => {
            (s, 0)
        }
        (CreatureStats::Willpower(w), BattleKind::Wills)
        | (CreatureStats::WillpowerThenStrength { willpower: w, .. }, BattleKind::Wills) => (w, 0),
        (CreatureStats::StrengthThenWillpower { willpower: w, .. }, BattleKind::Wills) => {
            (w, OPTIONAL_WILLS_MAGIC)
        }
        (CreatureStats::Willpower(_), BattleKind::Strength)
        | (CreatureStats::WillpowerThenStrength { .. }, BattleKind::Strength)
        | (CreatureStats::Strength(_), BattleKind::Wills) => return wrong,
    };
    let yours = match kind {
        BattleKind::Strength => value(adventurer.health.right),
        BattleKind::Wills => {
            if adventurer.magic.right < magic_cost {
                return Err(Refusal::NotEnoughMagic {
                    cost: magic_cost,
                    has: adventurer.magic.right,
                });
            }
            value(adventurer.magic.right - magic_cost)
        }
    };
    let (bonus, first_roll_bonus, thrown) = item_bonuses(state, player, kind, items)?;
    Ok(Battle {
        card,
        kind,
        yours: yours.saturating_add(bonus),
        first_roll_bonus,
        thrown,
        theirs,
        magic_cost,
        lives: if creature.three_lives { THREE_LIVES } else { 1 },
    })
}

/// `Fight`: the battle, then its consequences.
pub(crate) fn fight(
    state: &State,
    by: PlayerId,
    kind: BattleKind,
    items: &[ItemId],
    seed: Seed,
) -> Decision {
    let (turn, adventurer) = current(state, by)?;
    let space = adventurer.space;
    match turn.step {
        Step::DrawChance => return Err(Refusal::DrawChanceFirst),
        Step::Move => return Err(Refusal::EncounterAfterMoving),
        Step::Moved => {
            battle(state, by, kind, items)?;
            return Err(Refusal::AlreadyFought);
        }
        Step::Battle => {}
    }
    let battle = battle(state, by, kind, items)?;
    let Some(AdventureCard::Creature(creature)) = state.content.adventures.get(battle.card.index())
    else {
        return Err(Refusal::NoCreature);
    };
    let mut rng = DiceRng::new(seed);
    let mut rolls = Vec::new();
    let mut outcome = BattleOutcome::Win;
    for n in 0..battle.lives {
        let first = if n == 0 { battle.first_roll_bonus } else { 0 };
        let roll = sample(battle.yours.saturating_add(first), battle.theirs, &mut rng);
        rolls.push((roll.your_die, roll.their_die));
        if roll.outcome != BattleOutcome::Win {
            outcome = roll.outcome;
            break;
        }
    }
    let mut out = Out::new(state);
    out.emit(Event::BattleFought {
        player: by,
        card: battle.card,
        kind,
        magic_paid: battle.magic_cost,
        rolls,
        outcome,
        items: items.to_vec(),
    });
    if let Some(item) = battle.thrown {
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
            apply_effects(&mut out, by, &creature.treasure, &mut rng);
        }
        BattleOutcome::Draw => {}
        BattleOutcome::Loss => apply_effects(&mut out, by, &creature.loss_effects(), &mut rng),
    }
    Ok(out.events)
}

/// `UseOpportunity`: discard it and follow its effects.
pub(crate) fn use_opportunity(state: &State, by: PlayerId, seed: Seed) -> Decision {
    let (turn, adventurer) = current(state, by)?;
    match turn.step {
        Step::DrawChance => return Err(Refusal::DrawChanceFirst),
        Step::Move => return Err(Refusal::EncounterAfterMoving),
        Step::Battle => return Err(fight_first(state, by)),
        Step::Moved => {}
    }
    let space = adventurer.space;
    let card = state
        .space(space)
        .and_then(|s| s.adventure)
        .ok_or(Refusal::NoOpportunity)?;
    let Some(AdventureCard::Opportunity(opportunity)) = state.content.adventures.get(card.index())
    else {
        return Err(Refusal::NoOpportunity);
    };
    if let Some(&effect) = opportunity.effects.iter().find(|&&e| !supported(e)) {
        return Err(Refusal::EffectNotSupported { effect });
    }
    let mut out = Out::new(state);
    out.emit(Event::OpportunityUsed {
        player: by,
        card,
        space,
    });
    apply_effects(&mut out, by, &opportunity.effects, &mut DiceRng::new(seed));
    Ok(out.events)
}

/// The refusal while a Creature waits to be fought.
pub(crate) fn fight_first(state: &State, by: PlayerId) -> Refusal {
    let creature = state
        .adventurer(by)
        .and_then(|a| state.creature_on(a.space))
        .map_or_else(|| "Creature".to_owned(), |(_, c)| c.name.clone());
    Refusal::FightFirst { creature }
}

/// Applies effects in order to `by`; stops if she dies (and settles her death).
fn apply_effects(out: &mut Out, by: PlayerId, effects: &[Effect], rng: &mut DiceRng) {
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
                if let Some(&item) = a.items.last() {
                    out.emit(Event::ItemLost { player: by, item });
                }
                continue;
            }
            // Refused before any event (see `supported`).
            Effect::MoveOneSpace => continue,
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
            let ranking = standings(&out.state);
            out.emit(Event::GameEndedWithoutWinner { ranking });
        }
        [winner] => {
            let ranking = ranking(&out.state, *winner);
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
