//! The rules core of Prophecy, the story game: editions 1.0 and 1.1 and Temporal Mechanics in
//! one engine, event-sourced and pure (no I/O, no clock, no random generator: times and dice
//! seeds come in with the commands).
//!
//! A game is its events. [`decide`] checks a [`Command`] against the [`State`] and returns the
//! [`Event`]s it becomes or a [`Refusal`] naming the rule; [`evolve`] applies an event. Dice
//! results live in the events, so replaying a stored log never re-rolls. What cannot be undone
//! (a phase move, a check, the end) is a motion the table agrees to: a [`model::Proposal`]
//! carries when every player has agreed (see `crates/server/rulings.md`).
//!
//! - [`ruleset`]: the three rulesets and their parameters.
//! - [`model`]: phases, objects, aspects, scenes, pairs, motions and proposals, the timer,
//!   flags, the X-card, warnings.
//! - [`command`], [`event`], [`state`], [`decide`](mod@decide), [`refusal`]: the engine.
//! - [`integrity`]: whether a stored log could have happened (for logs from outside).
//! - [`content`]: worlds with d66 catastrophe tables, and modules.
//! - [`outline_odds`]: exact odds that each scene of a planned outline succeeds.
//! - [`plan`]: outline plans as TOML files, for `prophecy outline`.
//! - [`redact`]: a log as players may take it home, flagged texts and safety-tool authors left
//!   out.
//! - [`views`]: an outline as a tree or a Mermaid diagram.
//! - [`export`]: a game as Markdown.

pub mod command;
pub mod content;
pub mod decide;
pub mod event;
pub mod export;
pub mod ids;
pub mod integrity;
pub mod model;
pub mod outline_odds;
pub mod plan;
pub mod redact;
pub mod refusal;
pub mod ruleset;
pub mod state;
pub mod views;

pub use command::{Action, Command};
pub use decide::decide;
pub use event::{Event, StoredEvent};
pub use integrity::{BrokenLog, Impossible};
pub use refusal::Refusal;
pub use ruleset::Ruleset;
pub use state::{State, evolve};
