//! Integration tests of the story engine through its public API.

mod outline_odds;
mod views;
