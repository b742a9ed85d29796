//! Events: what happened. They are the game's only record; [`crate::evolve`] folds them into
//! the state and never fails. Every shuffle and roll is stored in them, so replay never
//! re-rolls or re-shuffles.

use crate::command::{BattleKind, MoveKind};
use crate::content::{Effect, Guild};
use crate::ids::{AdventureId, ChanceId, CharacterId, ItemId, PlayerId, SpaceId};
use crate::model::{DeckKind, Experience, Gold, Ranking, RollRound};
use dice::opposed::BattleOutcome;
use serde::{Deserialize, Serialize};

/// A player and the character dealt to her.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seat {
    /// Who.
    pub player: PlayerId,
    /// Her name.
    pub name: String,
    /// The character card dealt.
    pub character: CharacterId,
}

/// What one adventurer got from a wind, Good Times or Charity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Refreshment {
    /// Who.
    pub player: PlayerId,
    /// Red cubes moved back to the right.
    pub healed: u32,
    /// Blue cubes moved back to the right.
    pub recharged: u32,
    /// Gold taken from the bank.
    pub gold: Gold,
}

/// What [`Event::GameSetUp`] holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SetUp {
    /// In seating order, with the characters dealt.
    pub seats: Vec<Seat>,
    /// The Adventure deck, top first.
    pub adventure_deck: Vec<AdventureId>,
    /// The Chance deck, top first (a card's copies repeat its id).
    pub chance_deck: Vec<ChanceId>,
    /// The Common Item deck, top first.
    pub common_items: Vec<ItemId>,
    /// The Rare Item deck, top first.
    pub rare_items: Vec<ItemId>,
    /// The rolls for who begins: everyone, then those tied for the highest, until one is.
    pub rolls: Vec<RollRound>,
    /// Who begins.
    pub first_player: PlayerId,
}

/// Something that happened in a game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// The game is prepared: 3 Gold and 3 Experience each, full cubes, each adventurer in her
    /// character's first guild. Boxed, as it is far larger than any other event (which are
    /// moved around by the thousand in a simulation); its fields are written beside `type`.
    GameSetUp(Box<SetUp>),
    /// A deck ran out: its discards, shuffled, are its new draw pile (top first).
    DeckReshuffled {
        /// Which.
        deck: DeckKind,
        /// The new order.
        order: Vec<u32>,
    },
    /// The turn's Chance card is revealed (then discarded).
    ChanceDrawn {
        /// Who drew it.
        player: PlayerId,
        /// Which.
        card: ChanceId,
    },
    /// A terrain card: the top Adventure cards placed face-up, one on each empty space.
    AdventuresPlaced {
        /// Where, and which card, in the order drawn.
        placed: Vec<(SpaceId, AdventureId)>,
    },
    /// A merchant: the Items lying in the space are discarded.
    ItemsDiscarded {
        /// The City or the Village.
        space: SpaceId,
        /// What lay there.
        items: Vec<ItemId>,
    },
    /// A merchant: new Items laid out face-up.
    ItemsLaidOut {
        /// The City or the Village.
        space: SpaceId,
        /// Which deck they came from.
        deck: DeckKind,
        /// In the order drawn.
        items: Vec<ItemId>,
    },
    /// A wind, Good Times or Charity.
    AdventurersRefreshed {
        /// Only those who got something.
        refreshed: Vec<Refreshment>,
    },
    /// Peaceful Times: another turn, without a Chance card, after this one.
    ExtraTurnGranted {
        /// Who.
        player: PlayerId,
    },
    /// An adventurer moved (or stayed).
    Moved {
        /// Who.
        player: PlayerId,
        /// How.
        how: MoveKind,
        /// Where to.
        to: SpaceId,
        /// Paid to the bank.
        paid: Gold,
    },
    /// A Certificate bought.
    CertificateBought {
        /// Who.
        player: PlayerId,
        /// Which guild's.
        guild: Guild,
        /// Experience paid.
        experience: Experience,
        /// Gold paid (none in her own guilds).
        gold: Gold,
    },
    /// She recovered lost Health or Magic where she stands (a Possibility after moving).
    Recovered {
        /// Who.
        player: PlayerId,
        /// Where.
        space: SpaceId,
        /// Red cubes moved back to the right.
        healed: u32,
        /// Blue cubes moved back to the right.
        recharged: u32,
        /// Paid to the bank.
        paid: Gold,
    },
    /// She used the Possibility instead of movement of the space where she stayed.
    Traded {
        /// Who.
        player: PlayerId,
        /// Where.
        space: SpaceId,
        /// Red cubes moved to the left.
        health: u32,
        /// Blue cubes moved to the left.
        magic: u32,
        /// Gold taken from the bank.
        gold: Gold,
        /// Experience taken from the bank.
        experience: Experience,
    },
    /// She bought an Item lying in the City or the Village.
    ItemBought {
        /// Who.
        player: PlayerId,
        /// Where it lay.
        space: SpaceId,
        /// The Item.
        item: ItemId,
        /// Paid to the bank.
        paid: Gold,
    },
    /// She sold an Item to the bank (it goes to its deck's discards).
    ItemSold {
        /// Who.
        player: PlayerId,
        /// The Item.
        item: ItemId,
        /// Gold taken from the bank.
        gold: Gold,
    },
    /// She had a damaged Item repaired (turned face-up).
    ItemRepaired {
        /// Who.
        player: PlayerId,
        /// The Item.
        item: ItemId,
        /// Paid to the bank.
        paid: Gold,
    },
    /// The fifth Certificate: the game ends at once.
    GameWon {
        /// Who won.
        winner: PlayerId,
        /// The winner first, then the others by Certificates.
        ranking: Ranking,
    },
    /// A battle against the Creature where she stands. Any Magic drained by its special rule
    /// and paid to start a Battle of Wills moves from the right to the left first. Against a
    /// Creature whose special rule is `wills_then_strength`, a Battle of Wills won is followed
    /// by a second `BattleFought`, the Battle of Strength, in the same command.
    BattleFought {
        /// Who fought.
        player: PlayerId,
        /// The Creature.
        card: AdventureId,
        /// Strength or Wills.
        kind: BattleKind,
        /// Magic paid to start an optional Battle of Wills (2), else 0.
        magic_paid: u32,
        /// Magic lost before the first roll to the Creature's `drain_before` rule (as much as
        /// she had), else 0.
        #[serde(default)]
        drained: u32,
        /// Every roll, (her die, the Creature's die), in order: one, or up to three against a
        /// Creature with three lives (stopping at the first that is not a win).
        rolls: Vec<(u8, u8)>,
        /// The battle's outcome, from her side, after the Creature's special rule (with
        /// `draw_is_loss`, rolls showing a draw end in a loss).
        outcome: BattleOutcome,
        /// The Items she used.
        #[serde(default)]
        items: Vec<ItemId>,
        /// The weapon among them she threw in this Battle of Strength (its thrown bonus on the
        /// first roll only; an [`Event::ItemDamaged`] follows the battle), if any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        thrown: Option<ItemId>,
    },
    /// An Item became damaged (turned face-down): a thrown weapon after its battle.
    ItemDamaged {
        /// Who carries it.
        player: PlayerId,
        /// The Item.
        item: ItemId,
    },
    /// She won: the Creature is discarded and she takes its Experience (its treasure follows
    /// as further events).
    CreatureDefeated {
        /// Who.
        player: PlayerId,
        /// The Creature.
        card: AdventureId,
        /// Where it lay.
        space: SpaceId,
        /// Experience taken.
        experience: Experience,
    },
    /// A defeated Creature with the `rises_again` rule is put back face-up on another empty
    /// space of its terrain (after `CreatureDefeated` discarded it).
    CreatureRose {
        /// The Creature.
        card: AdventureId,
        /// Where it was defeated.
        from: SpaceId,
        /// Where it rises, drawn with the battle's seed.
        to: SpaceId,
    },
    /// She used a Creature's `pay_to_pass` rule instead of fighting: she paid and it stays.
    CreaturePassed {
        /// Who.
        player: PlayerId,
        /// The Creature.
        card: AdventureId,
        /// Paid to the bank.
        paid: Gold,
    },
    /// She used a Creature's `let_go` rule instead of fighting: it is discarded, for nothing.
    CreatureLetGo {
        /// Who.
        player: PlayerId,
        /// The Creature.
        card: AdventureId,
        /// Where it lay.
        space: SpaceId,
    },
    /// A card's `move_one_space` effect moved her, the way she chose. It is not her move: she
    /// does not meet the Adventure card there this turn.
    MovedOneSpace {
        /// Who.
        player: PlayerId,
        /// Which way.
        clockwise: bool,
        /// Where to.
        to: SpaceId,
    },
    /// An Opportunity used and discarded (its effects follow as further events).
    OpportunityUsed {
        /// Who.
        player: PlayerId,
        /// The card.
        card: AdventureId,
        /// Where it lay.
        space: SpaceId,
    },
    /// One effect of a card, with the amount that really happened (Gold and Experience never
    /// below 0, healing and recharging up to what lies on the left, losses up to what lies on
    /// the right). Item effects have their own events.
    EffectApplied {
        /// Who.
        player: PlayerId,
        /// As printed.
        effect: Effect,
        /// How much of it happened (1 for a missed turn).
        applied: u32,
    },
    /// She takes the top card of an Item deck.
    ItemDrawn {
        /// Who.
        player: PlayerId,
        /// Which deck.
        deck: DeckKind,
        /// The Item.
        item: ItemId,
    },
    /// She loses an Item (to its deck's discards).
    ItemLost {
        /// Who.
        player: PlayerId,
        /// The Item.
        item: ItemId,
    },
    /// She lost Health with no red cube on the right: she is dead and her player is out.
    AdventurerDied {
        /// Who.
        player: PlayerId,
    },
    /// Every adventurer is dead: the game ends without a winner.
    GameEndedWithoutWinner {
        /// Everyone, by Certificates.
        ranking: Ranking,
    },
    /// Her turn is skipped (an Opportunity made her miss it).
    TurnMissed {
        /// Who.
        player: PlayerId,
    },
    /// The turn passes.
    TurnEnded {
        /// Whose turn ended.
        player: PlayerId,
        /// Whose begins.
        next: PlayerId,
        /// It is the extra turn of Peaceful Times (no Chance card).
        extra: bool,
    },
}
