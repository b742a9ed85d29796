//! The rules core of Prophecy, the story game: editions 1.0 and 1.1 and Temporal Mechanics in
//! one engine, event-sourced and pure (no I/O, no clock, no random generator: times and dice
//! seeds come in with the commands).
//!
//! - [`ruleset`]: the three rulesets and their parameters.
//! - [`outline_odds`]: exact odds that each scene of a planned outline succeeds.
//! - [`plan`]: outline plans as TOML files, for `prophecy outline`.
//! - [`views`]: an outline as a tree or a Mermaid diagram.

pub mod outline_odds;
pub mod plan;
pub mod ruleset;
pub mod views;

pub use ruleset::Ruleset;
