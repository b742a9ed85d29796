//! The rules of the d4/d6/d8 Challenge game (seed 002, `RULES.md` section 3) for a table with one
//! game master (GM) and players: pure and event-sourced like the story and board games (no I/O,
//! no clock, no random generator of its own). The dice are `dice::challenge`'s: a command carries
//! a [`dice::Seed`], [`dice::challenge::roll`] rolls it, and every face is stored in the event,
//! so replaying a log never re-rolls.
//!
//! A table is its events. [`decide()`] checks a [`Command`] against the [`State`] and returns the
//! [`Event`]s it becomes or a [`Refusal`] naming the rule; [`evolve`] applies an event and never
//! fails.
//!
//! - [`sheet`]: [`Aptitude`]s, the sixteen [`Skill`]s, [`Specialty`]s and the [`Sheet`].
//! - [`command`], [`event`], [`state`], [`decide`](mod@decide), [`refusal`], [`ids`]: the
//!   engine; [`limits`]: every bound on texts and counts.
//!
//! # What is built
//!
//! - **The table.** Players `Join` with a name (ids come from the table layer); the first to
//!   join holds the GM seat. The GM may `HandGm` to another seated player. The first to join
//!   (the table's creator) may `RemovePlayer`: a removed player acts no more and no longer
//!   counts against [`limits::MAX_PLAYERS`]; their sheets stay, as records; a removed GM's seat
//!   goes back to the creator.
//! - **Sheets.** Name, concept, maximum points in the four Aptitudes, the Skills held,
//!   Specialties under a Skill, abilities as free text. A player makes and edits their own
//!   sheets; the GM may make one for any player and edit any. Current points are the maximum
//!   less the points spent ([`Character::current`](state::Character::current)).
//! - **Challenges.** The GM calls one for a character (`CallChallenge`: a description, the
//!   situation d4/d6/d8, the governing Aptitude, the relevant Skills, optionally a special rule
//!   allowing more than two steps and another band table). Its player chooses the improvements
//!   and rolls in one command (`Roll { challenge, choice, seed }`): each relevant Skill held is a
//!   step by itself; a Specialty under a relevant Skill not held is a step; one point of the
//!   governing Aptitude is a step and is paid from the sheet. The dice and the die kept are
//!   `dice::challenge::Pool::for_steps`'s; the result's band is named in the seed's words, or
//!   by the GM's table. [`State::odds_of`] (and [`State::band_odds`] for the Challenge's own
//!   bands) gives the exact chances of a choice before it is rolled, with the same checks.
//! - **Rest.** The GM says a character, or everyone, rested: all spent points come back.
//! - **Fights.** Not rolled: the GM writes down the fight, what it cost, and who suggested the
//!   cost.
//! - **Points spent otherwise** (`SpendPoint`, with a reason): the seed allows other uses.
//!
//! # Rulings where the seed is silent
//!
//! - *Who does what.* Calling and cancelling Challenges, rest, writing down fights and handing
//!   the GM seat are the GM's. Rolling is the sheet owner's alone ("the player taking the
//!   action rolls"); the GM rolls for the sheets the GM owns (non-player characters). The GM
//!   has no sheet unless they make one.
//! - *One open Challenge per character*; the GM may cancel it. A sheet with an open Challenge
//!   cannot be retired.
//! - *The choice and the roll are one command.* The page shows the chances of each choice with
//!   `State::odds_of` while the player chooses, then sends `Roll`. A choice asking for two
//!   Aptitude points is refused ("You may only spend one die"), not clamped.
//! - *Relevant Skills* are the GM's list for the Challenge (usually one; none is allowed), each
//!   once; each one the character holds is a step. A Specialty counts only when the character
//!   holds none of the relevant Skills (as `dice::challenge::Improvements` counts it), and
//!   must be under one of them; whether it applies to the situation is the table's judgement.
//! - *The two-step limit.* Skills apply by themselves: held Skills beyond the limit add
//!   nothing. An improvement the player chooses that would go beyond the limit is refused, so
//!   a point is never spent for nothing. The GM's special rule raises the limit for one
//!   Challenge, up to [`limits::MAX_STEPS`].
//! - *Another band table* names results 1–8 in order, without gaps or overlaps; the event
//!   stores the label shown and still the seed's [`dice::challenge::Band`].
//! - *Editing a sheet* keeps the points spent, even past a lowered maximum (current points are
//!   then 0): an edit never gives back a spent point, only rest does, so lowering a maximum
//!   and raising it again leaves the current points as they were. Raising a maximum beyond
//!   the points spent adds fresh points: the sheet grew. A sheet with an open Challenge is not
//!   edited (nor retired): the Challenge is rolled on the sheet it was called on.
//! - *Rest* regains every spent point (the seed: "an hour or more" of rest; the GM keeps the
//!   story's time). Resting when nobody has spent a point is refused.
//! - *Fights* are written by the GM, for the group; the one who suggested the cost is named
//!   if given, and must be seated.

#![forbid(unsafe_code)]

pub mod command;
pub mod decide;
pub mod event;
pub mod ids;
pub mod limits;
pub mod refusal;
pub mod sheet;
pub mod state;

pub use command::{Action, BandRange, Choice, Command};
pub use decide::decide;
pub use dice::challenge::{Band, ChallengeOdds, Pool, Situation};
pub use event::Event;
pub use ids::{ChallengeId, CharacterId, PlayerId};
pub use refusal::Refusal;
pub use sheet::{Aptitude, AptitudePoints, Sheet, Skill, Specialty};
pub use state::{State, evolve};
