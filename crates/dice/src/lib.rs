//! The dice of every rule system in Prophecy: seeded, reproducible rolls that record why each
//! die is there, exact odds as fractions of arbitrary-precision integers, and fast samplers.
//!
//! This crate is pure: no I/O, no clock, no global random generator. Randomness comes only from
//! a [`Seed`] the caller passes (see [`rng`] for the exact, stable method), or from faces the
//! caller supplies. Nothing here panics on caller input; supplied faces that cannot be a roll
//! are refused with a typed error ([`check::FacesError`]).
//!
//! - [`check`]: the Prophecy check (exploding d6 pool, hits against a difficulty rating), and
//!   [`check_odds`], its exact odds.
//! - [`challenge`]: the Challenge rules roll (d4/d6/d8, keep lowest or highest, results 1–8).
//! - [`opposed`]: the board game's battles (1d6 + value against 1d6 + value; three lives).
//! - [`d66`]: two d6 read as tens and units.
//! - [`stats`]: goodness of fit of a sample against an exact distribution.

pub mod challenge;
pub mod check;
pub mod check_odds;
pub mod d66;
pub mod exact;
pub mod opposed;
pub mod rng;
pub mod stats;

pub use exact::Probability;
pub use rng::{DiceRng, FaceSource, GivenFaces, Seed};
