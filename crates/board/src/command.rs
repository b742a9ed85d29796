//! Commands: what a player asks for. Each names the acting player; anything random comes in as
//! a [`Seed`] inside the command, and its outcome is stored in the events.

use crate::ids::{ItemId, PlayerId, SpaceId};
use dice::Seed;
use serde::{Deserialize, Serialize};

/// A request by one player.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Command {
    /// Who acts.
    pub by: PlayerId,
    /// What they ask for.
    pub action: Action,
}

impl Command {
    /// `by` asks for `action`.
    pub fn new(by: PlayerId, action: Action) -> Command {
        Command { by, action }
    }
}

/// How to move (one option per turn). Clockwise is the board's order: from each space to the
/// next one in `Board::spaces`, the last to the first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MoveKind {
    /// Stay in the current space.
    Stay,
    /// On foot: one space.
    Walk {
        /// Which way.
        clockwise: bool,
    },
    /// A rented horse: two spaces, 1 Gold.
    Horse {
        /// Which way.
        clockwise: bool,
    },
    /// A boat: from a Port to the next Port that way, 1 Gold.
    Boat {
        /// Which way.
        clockwise: bool,
    },
    /// A Magic Gate: to any other Magic Gate, 2 Gold.
    MagicGate {
        /// Where.
        to: SpaceId,
    },
}

impl MoveKind {
    /// What it costs.
    pub fn cost(self) -> crate::model::Gold {
        crate::model::Gold(match self {
            MoveKind::Stay | MoveKind::Walk { .. } => 0,
            MoveKind::Horse { .. } | MoveKind::Boat { .. } => 1,
            MoveKind::MagicGate { .. } => 2,
        })
    }
}

/// Which battle to fight against the Creature where she stands (Rules of Combat).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BattleKind {
    /// A Battle of Strength: her red cubes on the right against the Creature's Strength.
    Strength,
    /// A Battle of Wills: her blue cubes on the right against the Creature's Willpower.
    Wills,
}

/// The choices a card's effects may ask of her, given with the command that plays the card
/// (`Fight`, `UseOpportunity`); absent ones take their defaults.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Choices {
    /// Which way [`Effect::MoveOneSpace`](crate::content::Effect::MoveOneSpace) moves her.
    pub clockwise: Option<bool>,
    /// Which Item [`Effect::LoseItem`](crate::content::Effect::LoseItem) takes.
    pub lose_item: Option<ItemId>,
}

/// Everything a player can ask of the game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "action")]
pub enum Action {
    /// Prepare the game for 2–5 players, seated in this order (the next player is the one after,
    /// "on the left"): deal characters, shuffle the decks, roll for the first player.
    SetUp {
        /// Each player's id and name.
        seats: Vec<(PlayerId, String)>,
        /// For the deal, the shuffles and the rolls.
        seed: Seed,
    },
    /// Draw the turn's Chance card and follow it. The seed shuffles a deck's discards back in
    /// if one runs out.
    DrawChance {
        /// For any reshuffle.
        seed: Seed,
    },
    /// Move the adventurer (once, after the Chance card).
    Move(MoveKind),
    /// Fight the Creature where her move ended (mandatory before anything else that turn).
    /// The seed rolls the dice and shuffles an Item deck's discards back in if a treasure
    /// draws from an empty deck.
    Fight {
        /// Battle of Strength or of Wills.
        kind: BattleKind,
        /// For the rolls and any reshuffle.
        seed: Seed,
        /// The Items she uses (Weapons and Items): carried, undamaged, at most one weapon,
        /// two hands' worth of weapon, shield and hand Items, one headwear, any number of
        /// others. A weapon among them is held: its bonus counts on every roll.
        #[serde(default)]
        items: Vec<ItemId>,
        /// She throws her weapon (one that may be thrown, among `items`) in the Battle of
        /// Strength: its thrown bonus counts on the first roll only, and it is damaged after
        /// the battle. Against `wills_then_strength` it is held in the Battle of Wills and
        /// thrown in the Battle of Strength that follows. Refused with no such weapon among
        /// `items`, or when no Battle of Strength is fought (absent: held).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        throw: bool,
        /// Her choice of direction if the Creature's treasure or loss effects move her one
        /// space (absent: clockwise). Refused if neither has that effect.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        clockwise: Option<bool>,
        /// Her choice of the Item lost if its treasure or loss effects take one (absent: the
        /// most recently obtained). Refused if neither has that effect, or if she does not
        /// carry it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        lose_item: Option<ItemId>,
    },
    /// Use the optional special rule (a question mark) of the Creature where her move ended,
    /// instead of fighting it: pay to pass it (it stays face-up) or let it go (discarded, for
    /// nothing). Mandatory rules apply by themselves in `Fight`.
    UseSpecialRule,
    /// Use the Opportunity where her move ended: follow its effects, then discard it. Not
    /// using it leaves it face-up in the space.
    UseOpportunity {
        /// For any reshuffle of an Item deck.
        seed: Seed,
        /// Her choice of direction if it moves her one space (absent: clockwise). Refused if
        /// it does not.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        clockwise: Option<bool>,
        /// Her choice of the Item lost if it takes one (absent: the most recently obtained).
        /// Refused if it does not, or if she does not carry it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        lose_item: Option<ItemId>,
    },
    /// Recover lost Health or Magic where she stands, after moving (Recovering Lost Health
    /// and Magic): `amount` is the Health healed in the Monastery (1) or the Forest Camp (1
    /// Gold each), the Magic recharged in the Enchanted Wilderness (up to 3) or the Magic
    /// Tower (1 Gold per 2, rounded up); 1 for the Village's tavern (1 Gold: one Health and one
    /// Magic, whichever she lacks).
    Recover {
        /// How much.
        amount: u32,
    },
    /// Use the Possibility instead of movement of the space where she stayed (City: 1 Magic
    /// for 2 Gold; Thieves' Guild: 1 Health for 3 Gold; Fortress: 1 Health for 2 Experience).
    Trade,
    /// Buy an Item lying in the City or the Village where she stands, for its cost.
    BuyItem {
        /// Which.
        item: ItemId,
    },
    /// Sell a carried, undamaged Item in the City or the Village, for half its cost rounded
    /// up; it is discarded.
    SellItem {
        /// Which.
        item: ItemId,
    },
    /// Repair a carried, damaged Item in a civilization space, for 1 Gold.
    RepairItem {
        /// Which.
        item: ItemId,
    },
    /// Buy the Certificate of the guild she stands in (after moving).
    BuyCertificate,
    /// End the turn.
    EndTurn,
}
