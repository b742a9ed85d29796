//! Integration tests of the dice crate through its public API only.

mod challenge;
mod check;
mod odds;
mod samplers;
mod stream;
