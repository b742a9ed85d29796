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

/// The games hosted here, each named once: `$then!` receives the list (every function below
/// dispatches through it, so adding a game is adding it here).
macro_rules! hosted_games {
    ($then:ident ! ($($arg:tt)*)) => {
        $then!([story::StoryGame, board::BoardGame, challenge::ChallengeGame] $($arg)*)
    };
}

/// The names of the games in `[…]`.
macro_rules! kinds_of {
    ([$($game:ty),+]) => {
        [$(<$game as Game>::KIND),+]
    };
}

/// `$body` with `$G` standing for the game named `$kind`; `$otherwise` for a game not hosted.
macro_rules! with_game {
    ($kind:expr, $G:ident => $body:expr, _ => $otherwise:expr) => {
        hosted_games!(with_game_in!(, $kind, $G, $body, $otherwise))
    };
}

macro_rules! with_game_in {
    ([$($game:ty),+], $kind:expr, $G:ident, $body:expr, $otherwise:expr) => {{
        let kind: &str = $kind;
        'found: {
            $(
                if kind == <$game as Game>::KIND {
                    type $G = $game;
                    break 'found $body;
                }
            )+
            $otherwise
        }
    }};
}

/// The game a table plays when the creation form does not say.
pub const DEFAULT: &str = <story::StoryGame as Game>::KIND;

/// The games' names, for messages.
pub const KINDS: &[&str] = &hosted_games!(kinds_of!());

/// Starts the room of a table (of the game `table.game`); `None` for a game this server does
/// not know.
pub async fn start<S: Store>(
    table: &TableRecord,
    store: S,
    settings: RoomSettings,
) -> Option<Result<RoomHandle, LoadError>> {
    with_game!(table.game.as_str(), G => Some(room::start::<G, S>(store, table, settings).await), _ => None)
}

/// The page that plays game `kind` (the story game's for a game not hosted here).
pub fn page(kind: &str) -> &'static str {
    with_game!(kind, G => G::PAGE, _ => <story::StoryGame as Game>::PAGE)
}

/// The static content of game `kind`'s page, as JSON text (built once).
pub fn content(kind: &str) -> Option<&'static str> {
    static CONTENT: std::sync::LazyLock<Vec<(&str, String)>> = std::sync::LazyLock::new(|| {
        KINDS
            .iter()
            .filter_map(|kind| {
                with_game!(kind, G => G::content(), _ => None).map(|c| (*kind, c.to_string()))
            })
            .collect()
    });
    CONTENT
        .iter()
        .find(|(k, _)| *k == kind)
        .map(|(_, content)| content.as_str())
}

/// The first events of a new table of game `kind`, stored as text, after checking that its
/// creator may take the first seat: every setting is checked before a table exists.
pub fn opening(kind: &str, settings: &Value, creator: &str) -> Result<Vec<String>, Rejection> {
    with_game!(kind, G => opening_of::<G>(settings, creator), _ => Err(Rejection::Malformed(format!(
        "there is no game '{kind}' here: choose {}",
        KINDS.join(", ")
    ))))
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

/// The replay of a table of game `kind` from its stored log: see [`crate::replay::steps`].
pub(crate) fn replay(
    kind: &str,
    rows: &[store::EventRow],
    creator: u32,
    viewer: crate::room::Viewer,
    from: u64,
    count: usize,
) -> Result<Value, crate::replay::Unreadable> {
    let watcher = viewer == crate::room::Viewer::Watcher;
    with_game!(kind, G => crate::replay::steps::<G>(rows, creator, watcher, from, count), _ => Err(
        crate::replay::Unreadable(format!("there is no game '{kind}' here"))
    ))
}

/// Whether a table of game `kind` with this log (its events' stored text, in order) is a game
/// its rules could have played: every event reads as one of the game's, and the game's
/// `check_log` passes. `Err` says why not, in one line (for `prophecy db copy`, which leaves
/// such a table out).
pub fn replays(kind: &str, events: &[String]) -> Result<(), String> {
    with_game!(kind, G => G::check_log(&decoded::<G>(events)?), _ => Err(format!(
        "there is no game '{kind}' here (the games are {})",
        KINDS.join(", ")
    )))
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

/// A game file (the page's "Game file": one event per line, as [`Game::encode`] writes them)
/// as its game's Markdown export, whichever hosted game wrote it: the game that reads every
/// line as one of its events and whose [`Game::check_log`] passes. `Err` names the line that
/// no game reads, counted from 1 among `lines`, in the words of the game that read the most.
pub fn file_markdown(lines: &[String]) -> Result<String, (usize, String)> {
    let mut best: Option<(usize, String)> = None;
    for kind in KINDS {
        let Some(read) = with_game!(kind, G => Some(markdown_of::<G>(lines)), _ => None) else {
            continue;
        };
        match read {
            Ok(markdown) => return Ok(markdown),
            Err((line, why)) => {
                if best.as_ref().is_none_or(|(most, _)| line > *most) {
                    best = Some((line, format!("not an event of the {kind} game ({why})")));
                }
            }
        }
    }
    Err(best.unwrap_or((1, "the file has no events".to_owned())))
}

/// `lines` as `G`'s Markdown, or the first line it cannot read (from 1) and why.
fn markdown_of<G: Game>(lines: &[String]) -> Result<String, (usize, String)> {
    let mut events = Vec::with_capacity(lines.len());
    for (i, line) in lines.iter().enumerate() {
        let event = G::decode(line)
            .map_err(|e| (i + 1, e.split_whitespace().collect::<Vec<_>>().join(" ")))?;
        events.push(event);
    }
    G::check_log(&events).map_err(|why| (lines.len(), why))?;
    let state = events.iter().fold(G::State::default(), G::evolve);
    Ok(G::markdown(&state).1)
}
