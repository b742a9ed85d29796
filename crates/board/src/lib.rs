//! The rules core of Prophecy, the board game, basic version: pure and event-sourced like the
//! story game's (no I/O, no clock, no random generator of its own: every shuffle and roll comes
//! from a [`dice::Seed`] inside a command and its outcome is stored in the event, so replaying a
//! log never re-rolls or re-shuffles).
//!
//! A game is its events. [`decide`] checks a [`Command`] against the [`State`] and returns the
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
//! # Next
//!
//! Encountering the Adventure card where a move ends: battles of Strength and of Wills (odds in
//! `dice::opposed`), Creatures with three lives and special rules, Opportunities, the effects'
//! vocabulary (Items drawn, Health lost, death); Items carried, bought, sold, thrown and
//! repaired; the spaces' Possibilities (healing, recharging, the tavern, and the ones instead
//! of moving). The state already has room for them: a face-up Adventure card per space, the
//! City's and Village's Items, each adventurer's Items and whether she is alive.

#![forbid(unsafe_code)]

pub mod command;
pub mod content;
pub mod decide;
pub mod event;
pub mod ids;
pub mod model;
pub mod refusal;
pub mod state;

pub use command::{Action, Command, MoveKind};
pub use decide::decide;
pub use event::Event;
pub use refusal::Refusal;
pub use state::{State, evolve};
