//! Buying and selling Items in the City and the Village, and repairing damaged Items in any
//! civilization space.
//!
//! Readings of the rules: all three come after the move (or the choice to stay) and after the
//! Creature met there has been fought, as many times as she can pay for. An Item sells for half
//! its cost rounded up, to the bank, and goes to its deck's discards; a damaged Item cannot be
//! sold until repaired (Weapons and Items).

use crate::content::{Item, SpaceKind};
use crate::event::Event;
use crate::ids::{ItemId, PlayerId, SpaceId};
use crate::model::Gold;
use crate::refusal::Refusal;
use crate::state::State;
use crate::turn::{OneEvent, after_moving};

/// What repairing one Item costs.
pub const REPAIR_COST: Gold = Gold(1);

/// What an Item sells for: half its cost, rounded up.
pub fn sale_price(item: &Item) -> Gold {
    Gold(item.cost.div_ceil(2))
}

fn is_market(kind: Option<SpaceKind>) -> bool {
    matches!(kind, Some(SpaceKind::City | SpaceKind::Village))
}

pub(crate) fn buy(state: &State, by: PlayerId, item: ItemId) -> OneEvent {
    let (_, adventurer, kind) = after_moving(state, by, Refusal::MoveFirst)?;
    if !is_market(kind) {
        return Err(Refusal::NotAMarket);
    }
    let lying = state
        .space(adventurer.space)
        .is_some_and(|s| s.items.contains(&item));
    let Some(card) = state.content.items.get(item.index()).filter(|_| lying) else {
        return Err(Refusal::NotForSale);
    };
    let cost = Gold(card.cost);
    if adventurer.gold < cost {
        return Err(Refusal::ItemGold {
            cost,
            has: adventurer.gold,
        });
    }
    Ok(Event::ItemBought {
        player: by,
        space: adventurer.space,
        item,
        paid: cost,
    })
}

pub(crate) fn sell(state: &State, by: PlayerId, item: ItemId) -> OneEvent {
    let (_, adventurer, kind) = after_moving(state, by, Refusal::MoveFirst)?;
    if !is_market(kind) {
        return Err(Refusal::NotAMarket);
    }
    let Some(card) = state
        .content
        .items
        .get(item.index())
        .filter(|_| adventurer.items.contains(&item))
    else {
        return Err(Refusal::NotCarried);
    };
    if adventurer.damaged.contains(&item) {
        return Err(Refusal::ItemDamaged);
    }
    Ok(Event::ItemSold {
        player: by,
        item,
        gold: sale_price(card),
    })
}

pub(crate) fn repair(state: &State, by: PlayerId, item: ItemId) -> OneEvent {
    let (_, adventurer, kind) = after_moving(state, by, Refusal::MoveFirst)?;
    if !kind.is_some_and(SpaceKind::is_civilization) {
        return Err(Refusal::NotCivilization);
    }
    if !adventurer.items.contains(&item) {
        return Err(Refusal::NotCarried);
    }
    if !adventurer.damaged.contains(&item) {
        return Err(Refusal::NotDamaged);
    }
    if adventurer.gold < REPAIR_COST {
        return Err(Refusal::RepairGold {
            cost: REPAIR_COST,
            has: adventurer.gold,
        });
    }
    Ok(Event::ItemRepaired {
        player: by,
        item,
        paid: REPAIR_COST,
    })
}

/// The market's events applied to the state (`State::apply` sends each here).
impl State {
    /// [`Event::ItemBought`]: the Item, if it still lies there, is hers for its price.
    pub(crate) fn buy_item(&mut self, player: PlayerId, space: SpaceId, item: ItemId, paid: Gold) {
        let lay = self
            .spaces
            .get_mut(space.index())
            .and_then(|c| c.items.iter().position(|i| *i == item).map(|at| (c, at)));
        if let Some((contents, at)) = lay {
            contents.items.remove(at);
            if let Some(a) = self.adventurer_mut(player) {
                a.items.push(item);
                a.gold.0 = a.gold.0.saturating_sub(paid.0);
            }
        }
    }

    /// [`Event::ItemSold`]: the Item goes to its deck's discards, its price to her.
    pub(crate) fn sell_item(&mut self, player: PlayerId, item: ItemId, gold: Gold) {
        if self.remove_item(player, item)
            && let Some(a) = self.adventurer_mut(player)
        {
            a.gold.0 = a.gold.0.saturating_add(gold.0);
        }
    }

    /// [`Event::ItemRepaired`]: the Item is face-up again, for the repair's price.
    pub(crate) fn repair_item(&mut self, player: PlayerId, item: ItemId, paid: Gold) {
        if let Some(a) = self.adventurer_mut(player)
            && let Some(at) = a.damaged.iter().position(|i| *i == item)
        {
            a.damaged.remove(at);
            a.gold.0 = a.gold.0.saturating_sub(paid.0);
        }
    }
}
