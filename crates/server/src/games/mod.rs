//! The games the web table hosts, each adapting its pure rules crate to [`crate::game::Game`].
//! This module is the only place that lists them: the table layer asks it by the game's name
//! (`tables.game`, `POST /tables`'s `"game"`).

pub mod board;
pub mod challenge;
pub mod story;

#[cfg(test)]
mod log_lines;

use crate::game::{Game, Rejection};
use crate::room::{self, LoadError, RoomHandle, RoomSettings};
use serde_json::Value;
use store::{Store, TableRecord};

/// The game a table plays when the creation form does not say.
pub const DEFAULT: &str = <story::StoryGame as Game>::KIND;

/// The games' names, for messages.
pub const KINDS: [&str; 3] = [
    <story::StoryGame as Game>::KIND,
    <board::BoardGame as Game>::KIND,
    <challenge::ChallengeGame as Game>::KIND,
];

/// Starts the room of a table (of the game `table.game`); `None` for a game this server does
/// not know.
pub async fn start<S: Store>(
    table: &TableRecord,
    store: S,
    settings: RoomSettings,
) -> Option<Result<RoomHandle, LoadError>> {
    let kind = table.game.as_str();
    if kind == <story::StoryGame as Game>::KIND {
        Some(room::start::<story::StoryGame, S>(store, table, settings).await)
    } else if kind == <board::BoardGame as Game>::KIND {
        Some(room::start::<board::BoardGame, S>(store, table, settings).await)
    } else if kind == <challenge::ChallengeGame as Game>::KIND {
        Some(room::start::<challenge::ChallengeGame, S>(store, table, settings).await)
    } else {
        None
    }
}

/// The page that plays game `kind`.
pub fn page(kind: &str) -> &'static str {
    if kind == <board::BoardGame as Game>::KIND {
        <board::BoardGame as Game>::PAGE
    } else if kind == <challenge::ChallengeGame as Game>::KIND {
        <challenge::ChallengeGame as Game>::PAGE
    } else {
        <story::StoryGame as Game>::PAGE
    }
}

/// The static content of game `kind`'s page, as JSON text (built once).
pub fn content(kind: &str) -> Option<&'static str> {
    static BOARD: std::sync::LazyLock<Option<String>> =
        std::sync::LazyLock::new(|| <board::BoardGame as Game>::content().map(|c| c.to_string()));
    static STORY: std::sync::LazyLock<Option<String>> =
        std::sync::LazyLock::new(|| <story::StoryGame as Game>::content().map(|c| c.to_string()));
    if kind == <board::BoardGame as Game>::KIND {
        BOARD.as_deref()
    } else if kind == <story::StoryGame as Game>::KIND {
        STORY.as_deref()
    } else {
        None
    }
}

/// The first events of a new table of game `kind`, stored as text, after checking that its
/// creator may take the first seat: every setting is checked before a table exists.
pub fn opening(kind: &str, settings: &Value, creator: &str) -> Result<Vec<String>, Rejection> {
    if kind == <story::StoryGame as Game>::KIND {
        opening_of::<story::StoryGame>(settings, creator)
    } else if kind == <board::BoardGame as Game>::KIND {
        opening_of::<board::BoardGame>(settings, creator)
    } else if kind == <challenge::ChallengeGame as Game>::KIND {
        opening_of::<challenge::ChallengeGame>(settings, creator)
    } else {
        Err(Rejection::Malformed(format!(
            "there is no game '{kind}' here: choose {}",
            KINDS.join(", ")
        )))
    }
}

fn opening_of<G: Game>(settings: &Value, creator: &str) -> Result<Vec<String>, Rejection> {
    let events = G::open(settings)?;
    let mut state = G::State::default();
    for event in &events {
        state = G::evolve(state, event);
    }
    // The creator's number is not known yet; any unused one checks the name.
    G::join(&state, 1, creator)?;
    Ok(events.iter().map(G::encode).collect())
}

/// Whether a table of game `kind` with this log (its events' stored text, in order) is a game
/// its rules could have played: every event reads as one of the game's, and the story game's
/// log passes its integrity check (`State::replay_checked`: every reference exists, the
/// outline is a tree…); the others' logs are replayed, their `evolve` being total. `Err` says
/// why not, in one line (for `prophecy db copy`, which leaves such a table out).
pub fn replays(kind: &str, events: &[String]) -> Result<(), String> {
    if kind == <story::StoryGame as Game>::KIND {
        let events = decoded::<story::StoryGame>(events)?;
        ::story::State::replay_checked(&events)
            .map(drop)
            .map_err(|broken| {
                let n = broken.position + 1;
                format!("event {n} could not have happened: {}", broken.problem)
            })
    } else if kind == <board::BoardGame as Game>::KIND {
        replayed::<board::BoardGame>(events)
    } else if kind == <challenge::ChallengeGame as Game>::KIND {
        replayed::<challenge::ChallengeGame>(events)
    } else {
        Err(format!(
            "there is no game '{kind}' here (the games are {})",
            KINDS.join(", ")
        ))
    }
}

/// Every event of the log read as one of `G`'s, or which one cannot be (numbered from 1).
fn decoded<G: Game>(events: &[String]) -> Result<Vec<G::Event>, String> {
    events
        .iter()
        .enumerate()
        .map(|(i, body)| {
            G::decode(body).map_err(|e| {
                let e = e.split_whitespace().collect::<Vec<_>>().join(" ");
                format!("event {} is not an event of this game: {e}", i + 1)
            })
        })
        .collect()
}

fn replayed<G: Game>(events: &[String]) -> Result<(), String> {
    decoded::<G>(events)?
        .iter()
        .fold(G::State::default(), G::evolve);
    Ok(())
}
