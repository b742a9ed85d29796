//! The rules core of Prophecy, the board game, basic version: pure and event-sourced like the
//! story game's (no I/O, no clock, no random generator of its own: every shuffle and roll comes
//! from a [`dice::Seed`] inside a command and its outcome is stored in the event, so replaying a
//! log never re-rolls or re-shuffles).
//!
//! A game is its events. [`decide()`] checks a [`Command`] against the [`State`] and returns the
//! [`Event`]s it becomes or a [`Refusal`] naming the rules' section; [`evolve`] applies an
//! event and never fails.
//!
//! - [`content`]: the original board, characters, Adventure and Chance cards and Items,
//!   embedded TOML files checked on load (format in `content/README.md`).
//! - [`ids`], [`model`]: adventurers (Gold, Experience, Health and Magic cubes on the right and
//!   left, Certificates), decks, what lies on each space, turns.
//! - [`command`], [`event`], [`state`], [`turn`], [`decide`](mod@decide), [`refusal`]: the engine.
//! - [`encounter`], [`possibility`], [`market`]: the rules of Adventure cards and battles, of
//!   the spaces' Possibilities, and of buying, selling and repairing Items.
//! - [`table`]: the table around the game: seats, bots, the creator, seats handed to bots,
//!   decided and evolved like the game (the web table stores its events beside the game's).
//! - [`bot`], [`simulate`]: bots that play any seat legally, and whole games between them
//!   summed up (game length, wins by character and seat, deaths, cards met).
//!
//! # What it plays
//!
//! - **A turn:** set-up (characters dealt, decks shuffled, 3 Gold and 3 Experience, each
//!   adventurer on her first guild, rolls for the first player); the Chance card at the start
//!   of each turn (terrain cards, merchants, winds, Good Times, Charity, Peaceful Times' extra
//!   turn; a deck that runs out is reshuffled from its discards); movement (stay, walk, horse,
//!   boat, Magic Gate); Certificates, and the win at the fifth.
//! - **Adventure cards** ([`encounter`]): a Creature where a move ends (or where she stays) is
//!   fought before anything else that turn, in the battles its values allow, once or against
//!   three lives, every die stored in the event. Winning gives its Experience and treasure; a
//!   draw changes nothing; losing applies its loss effects. An Opportunity may be used or left.
//!   Death is losing a Health with none on the right; the last survivor wins.
//! - **Creatures' special rules**, as data ([`content::SpecialKind`]): mandatory ones apply by
//!   themselves in `Fight` (`wills_then_strength` is two battles in one command); optional
//!   ones (`pay_to_pass`, `let_go`) are used instead of fighting with `UseSpecialRule`.
//! - **The spaces' Possibilities** ([`possibility`]): recovering Health or Magic after moving,
//!   and the trades instead of movement (only after `Stay`, once per turn).
//! - **Items** ([`market`]): bought and sold in the City and the Village, repaired in any
//!   civilization space; in battle, `Fight` names the Items used, checked against the rules'
//!   limits, and [`State::battle_odds`] gives the exact chances with them.
//! - **The player's choices** for a card's effects: which way a one-space move goes, which Item
//!   is lost; a choice the card does not ask for is refused.
//!
//! Where the rules are silent, the project's rulings (the web table's `/rulings` page) decide.
//! Out of scope: the Standard Version (Astral Planes, Artifacts, Guardians, abilities and
//! spells).

#![forbid(unsafe_code)]

pub mod bot;
pub mod command;
pub mod content;
pub mod decide;
pub mod encounter;
pub mod event;
pub mod ids;
pub mod market;
pub mod model;
pub mod possibility;
pub mod refusal;
pub mod simulate;
pub mod state;
pub mod table;
pub mod turn;

pub use command::{Action, BattleKind, Choices, Command, MoveKind};
pub use decide::{MAX_PLAYERS, MIN_PLAYERS, decide};
pub use event::{Event, SetUp};
pub use refusal::Refusal;
pub use state::{State, evolve};
