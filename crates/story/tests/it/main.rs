//! Integration tests of the story engine through its public API.

mod consent;
mod export;
mod game;
mod integrity;
mod moderator;
mod outline_odds;
mod publish;
mod real_dice;
mod refusals;
mod replay;
mod safety;
mod scripted;
mod temporal;
mod timer;
mod views;
