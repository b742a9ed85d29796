//! The easy bot: the choices a beginner makes, not random ones.
//!
//! - **Moving:** she heads for the nearest guild whose Certificate she can buy; failing that, for
//!   healing when she has lost half her Health or more; failing that, for the nearest Adventure card of any
//!   kind, without weighing what it holds. She walks or rides a horse, and never takes a boat
//!   or a Magic Gate.
//! - **Battles:** she fights whenever she may, never paying a Creature to pass or letting it
//!   go, in the battle her character is better at (Strength or Willpower, as the Creature
//!   allows), with every Item she can carry into it in the order she got them, never weighing
//!   their odds, and never throws a weapon.
//! - **After moving:** she buys the Certificate where she can, uses any Opportunity she can pay
//!   for, heals all she can where she stands when hurt (as much as the space allows and her
//!   Gold pays for), and ends her turn: she never trades, buys, sells or repairs Items.

use super::map::*;
use crate::command::{Action, BattleKind, Command, MoveKind};
use crate::content::{AdventureCard, Guild, SpaceKind};
use crate::decide::{CERTIFICATE_EXPERIENCE, CERTIFICATE_GOLD};
use crate::ids::ItemId;
use crate::model::{Adventurer, Step, Turn};
use crate::state::State;
use dice::Seed;

/// The easy bot's action for `me` in `turn` (her turn, she is alive).
pub(super) fn choose(map: &Map, state: &State, me: &Adventurer, turn: Turn, seed: Seed) -> Action {
    match turn.step {
        Step::DrawChance => Action::DrawChance { seed },
        Step::Move => movement(map, state, me),
        Step::Battle => battle(state, me, seed),
        Step::Moved => after_moving(state, me, turn, seed),
    }
}

/// Whether she could buy the Certificate of `guild` now.
fn can_certify(state: &State, me: &Adventurer, guild: Guild) -> bool {
    let own = (state.content.characters.get(me.character.index()))
        .is_some_and(|c| c.guilds.contains(&guild));
    !me.has_certificate(guild)
        && me.experience >= CERTIFICATE_EXPERIENCE
        && (own || me.gold >= CERTIFICATE_GOLD)
}

fn movement(map: &Map, state: &State, me: &Adventurer) -> Action {
    let here = me.space.index();
    let gold = me.gold.0;
    let sets = &map.sets;
    let guilds = Guild::ALL.iter().fold(0, |set, &g| {
        set | if can_certify(state, me, g) {
            sets.guild[g as usize]
        } else {
            0
        }
    });
    let cards = spaces_of(sets.all).fold(0, |set, s| {
        let card = state.spaces.get(s).is_some_and(|c| c.adventure.is_some());
        set | if card && s != here { bit(s) } else { 0 }
    });
    let goals = if guilds != 0 {
        guilds
    } else if me.health.left > 0 && me.health.right <= me.health.left {
        sets.monastery | if gold >= 1 { sets.camp_and_village } else { 0 }
    } else {
        cards
    };
    let mut moves = vec![MoveKind::Stay];
    for clockwise in [true, false] {
        moves.push(MoveKind::Walk { clockwise });
        if gold >= 1 {
            moves.push(MoveKind::Horse { clockwise });
        }
    }
    let n = state.content.board.spaces.len();
    let to = |how: MoveKind| match how {
        MoveKind::Walk { clockwise: true } => (here + 1) % n,
        MoveKind::Walk { clockwise: false } => (here + n - 1) % n,
        MoveKind::Horse { clockwise: true } => (here + 2) % n,
        MoveKind::Horse { clockwise: false } => (here + n - 2) % n,
        _ => here,
    };
    // The move that leaves her fewest turns from a goal (on a tie, the first listed); she
    // stays only where a goal is, or where a Creature holds her.
    let stay = goals & bit(here) != 0 || state.creature_on(me.space).is_some();
    let best = (moves.into_iter())
        .filter(|&how| how != MoveKind::Stay || stay)
        .filter(|&how| crate::decide(state, Command::new(me.player, Action::Move(how))).is_ok())
        .min_by_key(|&how| map.turns_to(gold.saturating_sub(how.cost().0), to(how), goals));
    best.map_or(Action::EndTurn, Action::Move)
}

fn battle(state: &State, me: &Adventurer, seed: Seed) -> Action {
    let character = state.content.characters.get(me.character.index());
    let wills_first = character.is_some_and(|c| c.willpower > c.strength);
    let kinds = if wills_first {
        [BattleKind::Wills, BattleKind::Strength]
    } else {
        [BattleKind::Strength, BattleKind::Wills]
    };
    let player = me.player;
    let kind = (kinds.into_iter())
        .find(|&kind| crate::encounter::battle(state, player, kind, &[], false).is_ok())
        .unwrap_or(kinds[0]);
    // Every Item she can carry into it, in the order she got them.
    let mut items: Vec<ItemId> = Vec::new();
    for &item in &me.items {
        items.push(item);
        if crate::encounter::battle(state, player, kind, &items, false).is_err() {
            items.pop();
        }
    }
    Action::Fight {
        kind,
        seed,
        items,
        throw: false,
        clockwise: None,
        lose_item: None,
    }
}

fn after_moving(state: &State, me: &Adventurer, turn: Turn, seed: Seed) -> Action {
    let here = me.space.index();
    let kind = state.content.board.spaces.get(here).map(|s| s.kind);
    if let Some(SpaceKind::Guild(guild)) = kind
        && can_certify(state, me, guild)
    {
        return Action::BuyCertificate;
    }
    if !turn.moved_by_card
        && let Some(card) = state.spaces.get(here).and_then(|s| s.adventure)
        && let Some(AdventureCard::Opportunity(o)) = state.content.adventures.get(card.index())
        && crate::encounter::price_paid_in_full(me, &o.effects).is_ok()
    {
        return Action::UseOpportunity {
            seed,
            clockwise: None,
            lose_item: None,
        };
    }
    // Health only: she leaves Magic to recharge by itself.
    let heals = matches!(
        kind,
        Some(SpaceKind::Guild(Guild::Monastery | Guild::ForestCamp) | SpaceKind::Village)
    );
    let most = (1..=me.health.left)
        .rev()
        .find(|&n| crate::possibility::recovery(state, me.player, n).is_ok());
    match most {
        Some(amount) if heals => Action::Recover { amount },
        _ => Action::EndTurn,
    }
}
