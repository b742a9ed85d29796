//! Refusals: why the rules forbid a command, in words a player understands.

use crate::command::BattleKind;
use crate::content::Guild;
use crate::ids::ItemId;
use crate::model::{Experience, Gold};
use std::fmt;

/// Why no weapon can be thrown ([`Refusal::CannotThrow`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoThrow {
    /// Weapons are thrown in a Battle of Strength, and the battle asked for is a Battle of
    /// Wills with none after it.
    BattleOfWills,
    /// None of the Items she uses is a weapon that may be thrown.
    NothingThrowable,
}

/// Why a command was refused. [`Refusal::rule`] names the section of the rules; `Display`
/// explains.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// Nothing can happen before the game is set up.
    NotSetUp,
    /// A game is set up once.
    AlreadySetUp,
    /// The basic version is for 2–5 players.
    PlayerCount {
        /// How many were seated.
        count: usize,
    },
    /// A player sits once.
    SeatedTwice,
    /// Every player needs a name.
    EmptyName,
    /// The content has too few characters to deal one to each player.
    NotEnoughCharacters {
        /// How many there are.
        available: usize,
    },
    /// The game is over.
    GameOver,
    /// The acting player is not in the game.
    NotAPlayer,
    /// It is someone else's turn.
    NotYourTurn,
    /// The Chance card is drawn once, at the start of the turn.
    ChanceAlreadyDrawn,
    /// Peaceful Times' extra turn has no Chance card.
    NoChanceInExtraTurn,
    /// The turn begins with a Chance card.
    DrawChanceFirst,
    /// One move per turn.
    AlreadyMoved,
    /// Not enough Gold for the horse, boat or gate.
    NotEnoughGold {
        /// What it costs.
        cost: Gold,
        /// What she has.
        has: Gold,
    },
    /// A boat sails from a Port.
    NotAPort,
    /// A Magic Gate is used from a Magic Gate.
    NotAMagicGate,
    /// A Magic Gate leads to another Magic Gate.
    NotAnotherMagicGate,
    /// Certificates come after moving.
    MoveFirst,
    /// Certificates are bought in a guild's space.
    NotAGuild,
    /// One Certificate per guild.
    AlreadyCertified {
        /// The guild.
        guild: Guild,
    },
    /// Not enough Experience for a Certificate.
    NotEnoughExperience {
        /// What it costs.
        cost: Experience,
        /// What she has.
        has: Experience,
    },
    /// Not enough Gold for a Certificate of a guild not her own.
    CertificateGold {
        /// What it costs.
        cost: Gold,
        /// What she has.
        has: Gold,
    },
    /// Her adventurer is dead: her player is out.
    Dead,
    /// A Creature where her move ended must be fought before anything else.
    FightFirst {
        /// The Creature's name.
        creature: String,
    },
    /// A card moved her here: not her move, so the card here is not met this turn.
    MovedByCard,
    /// Ending the turn without moving is staying: a Creature on her space must be fought.
    MoveOrFight {
        /// The Creature's name.
        creature: String,
    },
    /// Adventure cards are met where a move ends, so after moving (or staying).
    EncounterAfterMoving,
    /// There is no Creature to fight where she stands.
    NoCreature,
    /// The Creature has been fought this turn.
    AlreadyFought,
    /// This Creature cannot be fought in that kind of battle.
    WrongBattle {
        /// The battle asked for.
        asked: BattleKind,
    },
    /// Starting a Battle of Wills costs two Magic.
    NotEnoughMagic {
        /// What it costs.
        cost: u32,
        /// Blue cubes on the right.
        has: u32,
    },
    /// There is no Opportunity where she stands.
    NoOpportunity,
    /// Nothing lost can be recovered in this space.
    NoRecoveryHere,
    /// This space's free recovery (or the tavern) is used once per turn.
    RecoveredThisTurn,
    /// She can recover at least 1 and at most `most` here (0: nothing to recover).
    RecoveryAmount {
        /// The most she can recover here now.
        most: u32,
    },
    /// Not enough Gold to pay for recovering.
    RecoveryGold {
        /// What it costs.
        cost: Gold,
        /// What she has.
        has: Gold,
    },
    /// This space has no Possibility instead of movement.
    NoPossibilityHere,
    /// A Possibility instead of movement needs her to have stayed where she started.
    StayFirst,
    /// A Possibility instead of movement is used once per turn.
    PossibilityUsed,
    /// She has no Health on the right to spend (the last one may be spent: she lives at 0).
    NoHealthToSpend,
    /// No Magic on the right to spend.
    NoMagicToSpend,
    /// Items are bought and sold in the City and the Village.
    NotAMarket,
    /// That Item is not lying here for sale.
    NotForSale,
    /// Not enough Gold for the Item.
    ItemGold {
        /// What it costs.
        cost: Gold,
        /// What she has.
        has: Gold,
    },
    /// She does not carry that Item.
    NotCarried,
    /// A damaged Item cannot be sold (or used) until repaired.
    ItemDamaged,
    /// Items are repaired in civilization spaces: the guilds, the City and the Village.
    NotCivilization,
    /// That Item is not damaged.
    NotDamaged,
    /// Not enough Gold for a repair.
    RepairGold {
        /// What it costs.
        cost: Gold,
        /// What she has.
        has: Gold,
    },
    /// An Item named for a battle is not carried, or named twice.
    ItemNotCarried,
    /// A damaged Item cannot be used until repaired.
    DamagedItem,
    /// Only one weapon in a battle.
    OneWeapon,
    /// Two hands: a two-handed weapon alone, or a one-handed weapon with one shield or hand
    /// Item (or two of those without a weapon).
    TooManyHands,
    /// Only one piece of headwear.
    OneHeadwear,
    /// She asked to throw a weapon where none can be thrown.
    CannotThrow {
        /// Why not.
        why: NoThrow,
    },
    /// The Creature's special rule forbids that battle (`only_wills`, `only_strength`, or
    /// `wills_then_strength`, which starts with a Battle of Wills).
    SpecialBattle {
        /// The Creature's name.
        creature: String,
        /// The rule's name in the vocabulary.
        rule: &'static str,
        /// The battle asked for.
        asked: BattleKind,
    },
    /// The Creature where she stands has no special rule.
    NoSpecialRule {
        /// The Creature's name.
        creature: String,
    },
    /// The Creature's special rule is mandatory: it applies by itself when she fights.
    MandatoryRule {
        /// The Creature's name.
        creature: String,
        /// The rule's name in the vocabulary.
        rule: &'static str,
    },
    /// Not enough Gold to pay to pass the Creature (`pay_to_pass`).
    PassGold {
        /// What it costs.
        cost: Gold,
        /// What she has.
        has: Gold,
    },
    /// The command names a choice the card does not ask for: `clockwise` without a
    /// `move_one_space` effect, `lose_item` without a `lose_item` effect.
    ChoiceNotOffered {
        /// The command's field.
        choice: &'static str,
    },
    /// The Item named to lose is not one she carries.
    LostItemNotCarried {
        /// The Item.
        item: ItemId,
    },
    /// An Opportunity's price is paid in full or the card is not used.
    PriceUnpaid {
        /// What the card takes: "Gold", "Magic", "Experience", "Health" or "Item".
        what: &'static str,
        /// How much of it.
        cost: u32,
        /// How much she has of it when it is due.
        has: u32,
    },
}

impl Refusal {
    /// A stable machine-readable name.
    pub fn code(&self) -> &'static str {
        use Refusal::*;
        match self {
            NotSetUp => "not_set_up",
            AlreadySetUp => "already_set_up",
            PlayerCount { .. } => "player_count",
            SeatedTwice => "seated_twice",
            EmptyName => "empty_name",
            NotEnoughCharacters { .. } => "not_enough_characters",
            GameOver => "game_over",
            NotAPlayer => "not_a_player",
            NotYourTurn => "not_your_turn",
            ChanceAlreadyDrawn => "chance_already_drawn",
            NoChanceInExtraTurn => "no_chance_in_extra_turn",
            DrawChanceFirst => "draw_chance_first",
            AlreadyMoved => "already_moved",
            NotEnoughGold { .. } => "not_enough_gold",
            NotAPort => "not_a_port",
            NotAMagicGate => "not_a_magic_gate",
            NotAnotherMagicGate => "not_another_magic_gate",
            MoveFirst => "move_first",
            NotAGuild => "not_a_guild",
            AlreadyCertified { .. } => "already_certified",
            NotEnoughExperience { .. } => "not_enough_experience",
            CertificateGold { .. } => "certificate_gold",
            Dead => "dead",
            FightFirst { .. } => "fight_first",
            MoveOrFight { .. } => "move_or_fight",
            MovedByCard => "moved_by_card",
            EncounterAfterMoving => "encounter_after_moving",
            NoCreature => "no_creature",
            AlreadyFought => "already_fought",
            WrongBattle { .. } => "wrong_battle",
            NotEnoughMagic { .. } => "not_enough_magic",
            NoOpportunity => "no_opportunity",
            SpecialBattle { .. } => "special_battle",
            NoSpecialRule { .. } => "no_special_rule",
            MandatoryRule { .. } => "mandatory_rule",
            PassGold { .. } => "pass_gold",
            ChoiceNotOffered { .. } => "choice_not_offered",
            LostItemNotCarried { .. } => "lost_item_not_carried",
            PriceUnpaid { .. } => "price_unpaid",
            NoRecoveryHere => "no_recovery_here",
            RecoveredThisTurn => "recovered_this_turn",
            RecoveryAmount { .. } => "recovery_amount",
            RecoveryGold { .. } => "recovery_gold",
            NoPossibilityHere => "no_possibility_here",
            StayFirst => "stay_first",
            PossibilityUsed => "possibility_used",
            NoHealthToSpend => "no_health_to_spend",
            NoMagicToSpend => "no_magic_to_spend",
            NotAMarket => "not_a_market",
            ItemNotCarried => "item_not_carried",
            DamagedItem => "damaged_item",
            OneWeapon => "one_weapon",
            TooManyHands => "too_many_hands",
            OneHeadwear => "one_headwear",
            CannotThrow { .. } => "cannot_throw",
            NotForSale => "not_for_sale",
            ItemGold { .. } => "item_gold",
            NotCarried => "not_carried",
            ItemDamaged => "item_damaged",
            NotCivilization => "not_civilization",
            NotDamaged => "not_damaged",
            RepairGold { .. } => "repair_gold",
        }
    }

    /// The section of the rules (the basic version's rulebook) that forbids it.
    pub fn rule(&self) -> &'static str {
        use Refusal::*;
        match self {
            NotSetUp
            | AlreadySetUp
            | PlayerCount { .. }
            | SeatedTwice
            | EmptyName
            | NotEnoughCharacters { .. } => "Character Preparation",
            GameOver => "End of the Game",
            NotAPlayer | NotYourTurn => "One Round of the Game",
            ChanceAlreadyDrawn | NoChanceInExtraTurn | DrawChanceFirst => "Drawing a Chance Card",
            AlreadyMoved
            | NotEnoughGold { .. }
            | NotAPort
            | NotAMagicGate
            | NotAnotherMagicGate => "Moving Your Character",
            MoveFirst
            | NotAGuild
            | AlreadyCertified { .. }
            | NotEnoughExperience { .. }
            | CertificateGold { .. } => "Acquiring a Certificate",
            Dead => "What Evil May Befall a Character",
            FightFirst { .. } | NoCreature | AlreadyFought => "Creatures",
            EncounterAfterMoving | MoveOrFight { .. } | MovedByCard => "Adventure Cards",
            WrongBattle { .. } => "Rules of Combat",
            NotEnoughMagic { .. } => "Optional Battles",
            NoOpportunity | PriceUnpaid { .. } => "Opportunities",
            SpecialBattle { .. }
            | NoSpecialRule { .. }
            | MandatoryRule { .. }
            | PassGold { .. } => "Special Battles",
            ChoiceNotOffered { .. } => "Adventure Cards",
            LostItemNotCarried { .. } => "What Evil May Befall a Character",
            NoRecoveryHere | RecoveredThisTurn | RecoveryAmount { .. } | RecoveryGold { .. } => {
                "Recovering Lost Health and Magic"
            }
            NotAMarket | NotForSale | ItemGold { .. } | NotCarried | ItemDamaged => {
                "Buying and Selling Items"
            }
            NotCivilization | NotDamaged | RepairGold { .. } => "Repairing Items",
            ItemNotCarried
            | DamagedItem
            | OneWeapon
            | TooManyHands
            | OneHeadwear
            | CannotThrow { .. } => "Weapons and Items",
            NoPossibilityHere | StayFirst | PossibilityUsed | NoHealthToSpend | NoMagicToSpend => {
                "Possibilities Instead of Movement"
            }
        }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Refusal::*;
        // By area, one function each, so no one list of words grows too long to read.
        match self {
            NotSetUp
            | AlreadySetUp
            | PlayerCount { .. }
            | SeatedTwice
            | EmptyName
            | NotEnoughCharacters { .. }
            | GameOver
            | NotAPlayer
            | NotYourTurn
            | ChanceAlreadyDrawn
            | NoChanceInExtraTurn
            | DrawChanceFirst
            | AlreadyMoved
            | NotEnoughGold { .. }
            | NotAPort
            | NotAMagicGate
            | NotAnotherMagicGate
            | MoveFirst
            | NotAGuild
            | AlreadyCertified { .. }
            | NotEnoughExperience { .. }
            | CertificateGold { .. }
            | Dead => self.turn_words(f),
            FightFirst { .. }
            | MoveOrFight { .. }
            | MovedByCard
            | EncounterAfterMoving
            | NoCreature
            | AlreadyFought
            | WrongBattle { .. }
            | NotEnoughMagic { .. }
            | NoOpportunity
            | PriceUnpaid { .. }
            | ItemNotCarried
            | DamagedItem
            | OneWeapon
            | TooManyHands
            | OneHeadwear
            | CannotThrow { .. }
            | SpecialBattle { .. }
            | NoSpecialRule { .. }
            | MandatoryRule { .. }
            | PassGold { .. }
            | ChoiceNotOffered { .. }
            | LostItemNotCarried { .. } => self.encounter_words(f),
            NoRecoveryHere
            | RecoveredThisTurn
            | RecoveryAmount { .. }
            | RecoveryGold { .. }
            | NoPossibilityHere
            | StayFirst
            | PossibilityUsed
            | NoHealthToSpend
            | NoMagicToSpend => self.possibility_words(f),
            NotAMarket
            | NotForSale
            | ItemGold { .. }
            | NotCarried
            | ItemDamaged
            | NotCivilization
            | NotDamaged
            | RepairGold { .. } => self.market_words(f),
        }
    }
}

impl Refusal {
    /// Set-up, the turn, the Chance card, moving and Certificates.
    fn turn_words(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Refusal::*;
        match self {
            NotSetUp => write!(f, "The game has not been set up yet."),
            AlreadySetUp => write!(f, "The game is already set up."),
            PlayerCount { count } => {
                write!(f, "The basic version is for 2 to 5 players, not {count}.")
            }
            SeatedTwice => write!(f, "A player can take only one seat."),
            EmptyName => write!(f, "Every player needs a name."),
            NotEnoughCharacters { available } => write!(
                f,
                "There are only {available} characters, not enough for one each."
            ),
            GameOver => write!(f, "The game is over: someone has all five Certificates."),
            NotAPlayer => write!(f, "You are not playing in this game."),
            NotYourTurn => write!(f, "It is not your turn."),
            ChanceAlreadyDrawn => write!(f, "You have already drawn this turn's Chance card."),
            NoChanceInExtraTurn => write!(
                f,
                "Peaceful Times gave you an extra turn, and it has no Chance card."
            ),
            DrawChanceFirst => write!(f, "First draw a Chance card."),
            AlreadyMoved => write!(f, "You may move only once per turn."),
            NotEnoughGold { cost, has } => {
                write!(f, "That costs {} Gold and you have {}.", cost.0, has.0)
            }
            NotAPort => write!(f, "A boat sails only from a space with a Port."),
            NotAMagicGate => write!(f, "You are not standing on a Magic Gate."),
            NotAnotherMagicGate => write!(
                f,
                "A Magic Gate takes you to another space with a Magic Gate."
            ),
            MoveFirst => write!(f, "Move (or choose to stay) before buying a Certificate."),
            NotAGuild => write!(f, "Certificates are bought in a guild's space."),
            AlreadyCertified { guild } => {
                write!(f, "You already have the Certificate of {guild:?}.")
            }
            NotEnoughExperience { cost, has } => write!(
                f,
                "A Certificate costs {} Experience and you have {}.",
                cost.0, has.0
            ),
            CertificateGold { cost, has } => write!(
                f,
                "This guild is not one of your character's: its Certificate costs {} Gold too, and you have {}.",
                cost.0, has.0
            ),
            Dead => write!(f, "Your adventurer is dead: you are out of the game."),
            // Sent to another area by `fmt`: never here.
            other => f.write_str(other.code()),
        }
    }

    /// Adventure cards: Creatures, battles and the Items used in them, special rules,
    /// Opportunities and the choices a card asks for.
    fn encounter_words(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Refusal::*;
        match self {
            FightFirst { creature } => write!(
                f,
                "You met the {creature}: fighting it is mandatory and comes before anything else."
            ),
            MovedByCard => write!(
                f,
                "A card moved you here, which is not your move: you do not meet the card on this space this turn."
            ),
            MoveOrFight { creature } => write!(
                f,
                "The {creature} is on your space: not moving means meeting it. Move away, or stay and fight it."
            ),
            EncounterAfterMoving => write!(
                f,
                "You meet the Adventure card where your move ends: move (or choose to stay) first."
            ),
            NoCreature => write!(f, "There is no Creature to fight here."),
            AlreadyFought => write!(f, "You have already fought this Creature this turn."),
            WrongBattle { asked } => write!(
                f,
                "This Creature cannot be fought in a Battle of {}.",
                battle_name(*asked)
            ),
            NotEnoughMagic { cost, has } => write!(
                f,
                "Starting a Battle of Wills costs {cost} Magic and you have {has}."
            ),
            NoOpportunity => write!(f, "There is no Opportunity to use here."),
            PriceUnpaid { what: "Item", .. } => write!(
                f,
                "This card takes an Item and you carry none: its price is paid in full or not at all."
            ),
            PriceUnpaid { what, cost, has } => write!(
                f,
                "This card costs {cost} {what} and you have {has}: its price is paid in full or not at all."
            ),
            ItemNotCarried => write!(f, "You can use only Items you carry, each once."),
            DamagedItem => write!(f, "A damaged Item cannot be used until repaired."),
            OneWeapon => write!(f, "You may use only one weapon in a battle."),
            TooManyHands => write!(
                f,
                "You have two hands: a two-handed weapon alone, or a one-handed weapon with a shield or another hand Item."
            ),
            OneHeadwear => write!(f, "You may use only one piece of headwear."),
            CannotThrow {
                why: NoThrow::BattleOfWills,
            } => write!(
                f,
                "Weapons are thrown only in a Battle of Strength: hold yours in this Battle of Wills."
            ),
            CannotThrow {
                why: NoThrow::NothingThrowable,
            } => write!(
                f,
                "None of the Items you use is a weapon that can be thrown: choose one that can, or fight without throwing."
            ),
            SpecialBattle {
                creature,
                rule,
                asked,
            } => write!(
                f,
                "The {creature}'s special rule ({rule}) allows no Battle of {}{}.",
                battle_name(*asked),
                if *rule == "wills_then_strength" {
                    " to start with: it begins with a Battle of Wills"
                } else {
                    ""
                }
            ),
            NoSpecialRule { creature } => {
                write!(f, "The {creature} has no special rule to use.")
            }
            MandatoryRule { creature, rule } => write!(
                f,
                "The {creature}'s special rule ({rule}) is mandatory: it applies by itself when you fight."
            ),
            PassGold { cost, has } => {
                write!(f, "Passing costs {} Gold and you have {}.", cost.0, has.0)
            }
            ChoiceNotOffered { choice } => write!(
                f,
                "This card asks for no choice of {}.",
                match *choice {
                    "clockwise" => "direction",
                    "lose_item" => "an Item to lose",
                    other => other,
                }
            ),
            LostItemNotCarried { item } => {
                write!(
                    f,
                    "You do not carry {item}: you can lose only an Item you carry."
                )
            }

            // Sent to another area by `fmt`: never here.
            other => f.write_str(other.code()),
        }
    }

    /// The spaces' Possibilities: recovering, and the ones instead of movement.
    fn possibility_words(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Refusal::*;
        match self {
            NoRecoveryHere => write!(
                f,
                "Lost Health and Magic are recovered in the Monastery, the Forest Camp, the Enchanted Wilderness, the Magic Tower and the Village."
            ),
            RecoveredThisTurn => write!(f, "You may do that only once per turn."),
            RecoveryAmount { most: 0 } => write!(f, "You have nothing to recover here."),
            RecoveryAmount { most } => {
                write!(f, "You may recover from 1 to {most} here.")
            }
            RecoveryGold { cost, has } => {
                write!(f, "That costs {} Gold and you have {}.", cost.0, has.0)
            }
            NoPossibilityHere => write!(
                f,
                "Only the City, the Thieves' Guild and the Fortress have a Possibility instead of movement."
            ),
            StayFirst => write!(
                f,
                "Possibilities instead of movement are for a turn you choose to stay where you start."
            ),
            PossibilityUsed => write!(f, "You have used this Possibility this turn."),
            NoHealthToSpend => write!(f, "You have no Health to spend."),
            NoMagicToSpend => write!(f, "You have no Magic to spend."),
            // Sent to another area by `fmt`: never here.
            other => f.write_str(other.code()),
        }
    }

    /// Buying, selling and repairing Items.
    fn market_words(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Refusal::*;
        match self {
            NotAMarket => write!(f, "Items are bought and sold in the City and the Village."),
            NotForSale => write!(f, "That Item is not for sale here."),
            ItemGold { cost, has } => {
                write!(f, "That Item costs {} Gold and you have {}.", cost.0, has.0)
            }
            NotCarried => write!(f, "You do not carry that Item."),
            ItemDamaged => write!(f, "That Item is damaged: repair it first."),
            NotCivilization => write!(
                f,
                "Items are repaired in civilization spaces: the guilds, the City and the Village."
            ),
            NotDamaged => write!(f, "That Item is not damaged."),
            RepairGold { cost, has } => {
                write!(f, "A repair costs {} Gold and you have {}.", cost.0, has.0)
            }
            // Sent to another area by `fmt`: never here.
            other => f.write_str(other.code()),
        }
    }
}

fn battle_name(kind: BattleKind) -> &'static str {
    match kind {
        BattleKind::Strength => "Strength",
        BattleKind::Wills => "Wills",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One refusal of every kind, in the order of [`kind`]'s numbers.
    fn one_of_each() -> Vec<Refusal> {
        use Refusal::*;
        let (gold, experience) = (Gold(5), Experience(5));
        let creature = || "Dragon".to_owned();
        vec![
            NotSetUp,
            AlreadySetUp,
            PlayerCount { count: 6 },
            SeatedTwice,
            EmptyName,
            NotEnoughCharacters { available: 1 },
            GameOver,
            NotAPlayer,
            NotYourTurn,
            ChanceAlreadyDrawn,
            NoChanceInExtraTurn,
            DrawChanceFirst,
            AlreadyMoved,
            NotEnoughGold {
                cost: gold,
                has: Gold(1),
            },
            NotAPort,
            NotAMagicGate,
            NotAnotherMagicGate,
            MoveFirst,
            NotAGuild,
            AlreadyCertified {
                guild: Guild::Monastery,
            },
            NotEnoughExperience {
                cost: experience,
                has: Experience(2),
            },
            CertificateGold {
                cost: gold,
                has: Gold(1),
            },
            Dead,
            FightFirst {
                creature: creature(),
            },
            EncounterAfterMoving,
            NoCreature,
            AlreadyFought,
            WrongBattle {
                asked: BattleKind::Wills,
            },
            NotEnoughMagic { cost: 2, has: 1 },
            NoOpportunity,
            NoRecoveryHere,
            RecoveredThisTurn,
            RecoveryAmount { most: 2 },
            RecoveryGold {
                cost: gold,
                has: Gold(1),
            },
            NoPossibilityHere,
            StayFirst,
            PossibilityUsed,
            NoHealthToSpend,
            NoMagicToSpend,
            NotAMarket,
            NotForSale,
            ItemGold {
                cost: gold,
                has: Gold(1),
            },
            NotCarried,
            ItemDamaged,
            NotCivilization,
            NotDamaged,
            RepairGold {
                cost: gold,
                has: Gold(0),
            },
            ItemNotCarried,
            DamagedItem,
            OneWeapon,
            TooManyHands,
            OneHeadwear,
            SpecialBattle {
                creature: creature(),
                rule: "only_wills",
                asked: BattleKind::Strength,
            },
            NoSpecialRule {
                creature: creature(),
            },
            MandatoryRule {
                creature: creature(),
                rule: "draw_is_loss",
            },
            PassGold {
                cost: gold,
                has: Gold(1),
            },
            ChoiceNotOffered {
                choice: "clockwise",
            },
            LostItemNotCarried { item: ItemId(0) },
            MoveOrFight {
                creature: creature(),
            },
            PriceUnpaid {
                what: "Gold",
                cost: 3,
                has: 1,
            },
            MovedByCard,
            CannotThrow {
                why: NoThrow::NothingThrowable,
            },
        ]
    }

    /// The refusal's place in [`one_of_each`]. It names every kind with no catch-all, so a
    /// kind added to [`Refusal`] does not compile here until the list has it too.
    fn kind(refusal: &Refusal) -> usize {
        use Refusal::*;
        match refusal {
            NotSetUp => 0,
            AlreadySetUp => 1,
            PlayerCount { .. } => 2,
            SeatedTwice => 3,
            EmptyName => 4,
            NotEnoughCharacters { .. } => 5,
            GameOver => 6,
            NotAPlayer => 7,
            NotYourTurn => 8,
            ChanceAlreadyDrawn => 9,
            NoChanceInExtraTurn => 10,
            DrawChanceFirst => 11,
            AlreadyMoved => 12,
            NotEnoughGold { .. } => 13,
            NotAPort => 14,
            NotAMagicGate => 15,
            NotAnotherMagicGate => 16,
            MoveFirst => 17,
            NotAGuild => 18,
            AlreadyCertified { .. } => 19,
            NotEnoughExperience { .. } => 20,
            CertificateGold { .. } => 21,
            Dead => 22,
            FightFirst { .. } => 23,
            EncounterAfterMoving => 24,
            NoCreature => 25,
            AlreadyFought => 26,
            WrongBattle { .. } => 27,
            NotEnoughMagic { .. } => 28,
            NoOpportunity => 29,
            NoRecoveryHere => 30,
            RecoveredThisTurn => 31,
            RecoveryAmount { .. } => 32,
            RecoveryGold { .. } => 33,
            NoPossibilityHere => 34,
            StayFirst => 35,
            PossibilityUsed => 36,
            NoHealthToSpend => 37,
            NoMagicToSpend => 38,
            NotAMarket => 39,
            NotForSale => 40,
            ItemGold { .. } => 41,
            NotCarried => 42,
            ItemDamaged => 43,
            NotCivilization => 44,
            NotDamaged => 45,
            RepairGold { .. } => 46,
            ItemNotCarried => 47,
            DamagedItem => 48,
            OneWeapon => 49,
            TooManyHands => 50,
            OneHeadwear => 51,
            SpecialBattle { .. } => 52,
            NoSpecialRule { .. } => 53,
            MandatoryRule { .. } => 54,
            PassGold { .. } => 55,
            ChoiceNotOffered { .. } => 56,
            LostItemNotCarried { .. } => 57,
            MoveOrFight { .. } => 58,
            PriceUnpaid { .. } => 59,
            MovedByCard => 60,
            CannotThrow { .. } => 61,
        }
    }

    /// Every refusal has words of its own (a sentence, not its code), whichever area's
    /// function words it: a kind sent to the wrong area would fall back to its code.
    #[test]
    fn every_refusal_is_put_in_words() {
        let all = one_of_each();
        let kinds: Vec<usize> = all.iter().map(kind).collect();
        assert_eq!(
            kinds,
            (0..all.len()).collect::<Vec<_>>(),
            "one of each kind, in order"
        );
        let nothing_to_recover = Refusal::RecoveryAmount { most: 0 };
        let throw_in_wills = Refusal::CannotThrow {
            why: NoThrow::BattleOfWills,
        };
        for refusal in all.iter().chain([&nothing_to_recover, &throw_in_wills]) {
            let words = refusal.to_string();
            assert_ne!(words, refusal.code(), "{refusal:?} has no words");
            assert!(words.ends_with('.'), "{refusal:?}: {words}");
            assert!(
                words.chars().next().is_some_and(char::is_uppercase),
                "{refusal:?}: {words}"
            );
        }
    }
}
