//! The games the web table hosts, each adapting its pure rules crate to [`crate::game::Game`].

pub mod story;
