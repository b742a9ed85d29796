//! The things on the table: adventurers with their cubes, tokens and Certificates, the decks,
//! what lies on each space, and where the turn is.

use crate::content::Guild;
use crate::ids::{AdventureId, ChanceId, CharacterId, ItemId, PlayerId, SpaceId};
use serde::{Deserialize, Serialize};

/// Gold tokens. Unsigned: a payment is checked first, so Gold is never negative.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct Gold(pub u32);

/// Experience tokens. Unsigned, like [`Gold`].
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct Experience(pub u32);

/// Gold and Experience each player takes at the start.
pub const STARTING_GOLD: Gold = Gold(3);
/// See [`STARTING_GOLD`].
pub const STARTING_EXPERIENCE: Experience = Experience(3);

/// Cubes of one colour on a character card: red for Health (and Strength), blue for Magic (and
/// Willpower). The ones on the right count; the left holds what was lost until healed or
/// recharged.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Cubes {
    /// On the right side: the current Strength or Willpower.
    pub right: u32,
    /// On the left side: lost Health or spent Magic.
    pub left: u32,
}

impl Cubes {
    /// A fresh card: `n` cubes on the right, none on the left.
    pub fn full(n: u32) -> Cubes {
        Cubes { right: n, left: 0 }
    }

    /// The most she can have on the right.
    pub fn maximum(self) -> u32 {
        self.right.saturating_add(self.left)
    }

    /// Moves up to `n` cubes from the left to the right; how many moved.
    pub fn restore(&mut self, n: u32) -> u32 {
        let moved = n.min(self.left);
        self.left -= moved;
        self.right = self.right.saturating_add(moved);
        moved
    }

    /// Moves up to `n` cubes from the right to the left; how many moved.
    pub fn lose(&mut self, n: u32) -> u32 {
        let moved = n.min(self.right);
        self.right -= moved;
        self.left = self.left.saturating_add(moved);
        moved
    }
}

/// A guild's Certificate, held face-down (its text is not used in the basic version).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Certificate(pub Guild);

/// Certificates that win the game: one from each guild.
pub const CERTIFICATES_TO_WIN: usize = 5;

/// A player's adventurer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Adventurer {
    /// Whose.
    pub player: PlayerId,
    /// The player's name.
    pub name: String,
    /// The character card dealt.
    pub character: CharacterId,
    /// Where the playing piece stands.
    pub space: SpaceId,
    /// Gold tokens.
    pub gold: Gold,
    /// Experience tokens.
    pub experience: Experience,
    /// Red cubes: Health, and Strength while on the right.
    pub health: Cubes,
    /// Blue cubes: Magic, and Willpower while on the right.
    pub magic: Cubes,
    /// Certificates, in the order obtained.
    pub certificates: Vec<Certificate>,
    /// Items carried, in the order obtained (found as treasure or on Opportunities, or
    /// bought); named in a `Fight` to use them.
    pub items: Vec<ItemId>,
    /// Her damaged Items (face-down): carried, but neither used nor sold until repaired.
    pub damaged: Vec<ItemId>,
    /// Whether she is alive: she dies losing Health with no red cube on the right, and her
    /// player is out (her turns are skipped).
    pub alive: bool,
    /// An Opportunity made her miss her next turn.
    pub miss_turn: bool,
}

impl Adventurer {
    /// Whether she holds that guild's Certificate.
    pub fn has_certificate(&self, guild: Guild) -> bool {
        self.certificates.contains(&Certificate(guild))
    }
}

/// A face-down deck and its face-up discards. The draw pile is listed top first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Deck<T> {
    /// Face-down, top card first.
    pub draw: Vec<T>,
    /// Face-up discards, oldest first.
    pub discard: Vec<T>,
}

impl<T> Default for Deck<T> {
    fn default() -> Deck<T> {
        Deck {
            draw: Vec::new(),
            discard: Vec::new(),
        }
    }
}

impl<T: PartialEq> Deck<T> {
    /// A deck in this order, no discards.
    pub fn new(draw: Vec<T>) -> Deck<T> {
        Deck {
            draw,
            discard: Vec::new(),
        }
    }

    /// Takes `card` out of the draw pile (the top one, when the log is sound); false if absent.
    pub fn take(&mut self, card: &T) -> bool {
        match self.draw.iter().position(|c| c == card) {
            Some(at) => {
                self.draw.remove(at);
                true
            }
            None => false,
        }
    }
}

/// Which deck.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DeckKind {
    /// Yellow Adventure cards.
    Adventure,
    /// Green Chance cards.
    Chance,
    /// Brown Common Items.
    CommonItems,
    /// Gold Rare Items.
    RareItems,
}

/// All the decks of the basic version (Ability cards, Artifacts and Guardians are not used).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Decks {
    /// Adventure cards.
    pub adventure: Deck<AdventureId>,
    /// Chance cards.
    pub chance: Deck<ChanceId>,
    /// Common Items.
    pub common_items: Deck<ItemId>,
    /// Rare Items.
    pub rare_items: Deck<ItemId>,
}

/// What lies on one space.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SpaceContents {
    /// A face-up Adventure card (a Creature left after a draw or loss, or an unused
    /// Opportunity). The basic version allows one per space.
    pub adventure: Option<AdventureId>,
    /// Items for sale, face-up (only the City and the Village get any).
    pub items: Vec<ItemId>,
}

/// Where the current player is in her turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Step {
    /// She must first draw a Chance card.
    DrawChance,
    /// She may move (once), or end her turn where she stands.
    Move,
    /// She has moved (or stayed) onto a Creature: she must fight it before anything else.
    Battle,
    /// She has moved (or stayed): Opportunities, Possibilities and Certificates come now (and
    /// the Creature she met has been fought).
    Moved,
}

/// The turn being played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Turn {
    /// Whose turn.
    pub player: PlayerId,
    /// Where she is in it.
    pub step: Step,
    /// This is the extra turn of Peaceful Times (no Chance card).
    pub extra: bool,
    /// Peaceful Times was drawn: an extra turn follows this one.
    pub extra_pending: bool,
    /// The turn's move was `Stay` (Possibilities instead of movement need it).
    #[serde(default)]
    pub stayed: bool,
    /// A once-per-turn Possibility of the space has been used this turn.
    #[serde(default)]
    pub possibility_used: bool,
    /// A card moved her one space this turn: not her move, so she does not meet the Adventure
    /// card where it left her (the project's ruling).
    #[serde(default)]
    pub moved_by_card: bool,
}

/// One die per player for who begins; ties among the highest roll again.
pub type RollRound = Vec<(PlayerId, u8)>;

/// The finish: the winner first, then the others by Certificates (ties in seating order).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ranking(pub Vec<(PlayerId, u32)>);

/// Where the game is.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Phase {
    /// Waiting for [`crate::command::Action::SetUp`].
    #[default]
    NotSetUp,
    /// Being played.
    Playing(Turn),
    /// Over: someone got her fifth Certificate, or is the last adventurer alive.
    Won {
        /// Who.
        winner: PlayerId,
        /// Everyone's place.
        ranking: Ranking,
    },
    /// Over without a winner: every adventurer is dead.
    Ended {
        /// Everyone, by Certificates.
        ranking: Ranking,
    },
}
