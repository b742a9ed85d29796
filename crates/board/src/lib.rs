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
//! - [`command`], [`event`], [`state`], [`decide`](mod@decide), [`refusal`]: the engine.
//!
//! # This slice
//!
//! Set-up (characters dealt, decks shuffled, 3 Gold and 3 Experience, adventurers on their
//! first guild, rolls for the first player), the Chance card at the start of each turn (terrain
//! cards, merchants, winds, Good Times, Charity, Peaceful Times' extra turn; decks reshuffled
//! from their discards when they run out), movement (stay, walk, horse, boat, Magic Gate),
//! Certificates and the win at the fifth, and passing the turn.
//!
//! Encountering the Adventure card where a move ends ([`encounter`]): a Creature there (met by
//! ending a move on it, or by staying on it) must be fought before anything else that turn, in
//! the battles its values allow (a Battle of Strength, of Wills, or the optional Battle of Wills
//! for two Magic), once or up to three rolls against three lives, every die stored in the event;
//! winning discards it for its Experience and treasure, a draw changes nothing, losing applies
//! its loss effects (one Health by default) and it stays face-up. An Opportunity may be used
//! (its effects, then discarded) or left face-up. Every effect of the vocabulary is played but
//! moving one space (refused: it needs a choice no command carries yet); Items drawn go to the
//! adventurer. Death: losing a Health with none on the right; the dead are out, and the last
//! survivor wins. [`State::battle_odds`] gives the exact chances before every battle.
//!
//! # Next
//!
//! Items carried, bought, sold, thrown and repaired, and their battle bonuses; choosing the
//! Item lost and the direction of a move of one space; Creatures' special rules (kept as free
//! text, not interpreted yet); the spaces' Possibilities (healing, recharging, the tavern, and
//! the ones instead of moving). The state already has room for them: the City's and Village's
//! Items and each adventurer's Items.

#![forbid(unsafe_code)]

pub mod command;
pub mod content;
pub mod decide;
pub mod encounter;
pub mod event;
pub mod ids;
pub mod model;
pub mod refusal;
pub mod state;

pub use command::{Action, BattleKind, Command, MoveKind};
pub use decide::decide;
pub use event::Event;
pub use refusal::Refusal;
pub use state::{State, evolve};
