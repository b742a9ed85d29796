//! Integration tests of the story engine through its public API.

mod export;
mod game;
mod integrity;
mod outline_odds;
mod refusals;
mod replay;
mod scripted;
mod views;
