//! The rules foundation of Prophecy, the board game, basic version: pure (no I/O, no clock, no
//! random generator), like the other rules crates.
//!
//! - [`content`]: the original board, characters, Adventure and Chance cards and Items,
//!   embedded TOML files checked on load (format in `content/README.md`).
//!
//! A battle's exact odds (one roll, and a Creature with three lives) are the dice crate's
//! (`dice::opposed`). The engine itself (`decide`/`evolve`, turns, movement, certificates) comes
//! next and is built on the content here.

#![forbid(unsafe_code)]

pub mod content;
