//! A board-game table: what it holds (the lobby, the game, and what the log and the view
//! remember), its stored events, and what the page may ask of it. A request is read from the
//! page's JSON and decided by the rules crate: the lobby's by [`board::table::decide`], the
//! game's by [`board::decide()`], with the server's seeds; their refusals become the
//! protocol's [`Rejection`]s.

use crate::game::{Context, Rejection};
use board::bot::{Level, Map, Scratch};
use board::command::{Action, Command, MoveKind};
use board::content::Content;
use board::event::Event as BoardEvent;
use board::ids::{ChanceId, PlayerId};
use board::table::{self as lobby, Decision, Lobby, MAX_BOTS, Request, TableRefusal};
use board::{Refusal, State as BoardState};
use dice::Seed;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Value, json};
use std::sync::{Arc, LazyLock};

/// The board, characters and cards every table plays with.
pub static CONTENT: LazyLock<Arc<Content>> = LazyLock::new(|| Arc::new(Content::builtin()));

/// A board-game table: the lobby's seats and the game.
#[derive(Debug, Clone)]
pub struct Table {
    /// Who sits where, and who made the table.
    pub lobby: Lobby,
    /// The game (not set up while the lobby is open).
    pub game: BoardState,
    /// The last Chance card drawn, and by whom.
    pub last_chance: Option<(PlayerId, ChanceId)>,
    /// The last battle, as its event.
    pub last_battle: Option<BoardEvent>,
    /// Turns begun so far.
    pub turns: u32,
    /// The story of the game, one line per event, for the export.
    pub chronicle: Vec<String>,
}

impl Default for Table {
    fn default() -> Table {
        Table {
            lobby: Lobby::default(),
            game: BoardState::new(Arc::clone(&CONTENT)),
            last_chance: None,
            last_battle: None,
            turns: 0,
            chronicle: Vec::new(),
        }
    }
}

impl Table {
    /// The name of `player`'s seat.
    pub(super) fn name(&self, player: PlayerId) -> String {
        self.lobby.name(player)
    }

    /// The table after `event` (the chronicle aside: its line is the log's).
    pub(super) fn apply(mut self, event: &Event) -> Table {
        match event {
            Event::Lobby(event) => self.lobby = std::mem::take(&mut self.lobby).evolve(event),
            Event::Game { event } => {
                match event {
                    BoardEvent::ChanceDrawn { player, card } => {
                        self.last_chance = Some((*player, *card));
                    }
                    BoardEvent::GameSetUp(_) => {
                        self.turns = 1;
                        self.last_chance = None;
                    }
                    BoardEvent::TurnEnded { .. } => self.turns += 1,
                    BoardEvent::BattleFought { .. } => self.last_battle = Some(event.clone()),
                    _ => {}
                }
                self.game = board::evolve(self.game, event);
            }
        }
        self
    }
}

/// What happened at a board-game table, as it is stored: the lobby's events as the rules crate
/// writes them (`{"type": "seated", …}`), the game's inside `{"type": "game", "event": …}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// Something happened in the game.
    Game {
        /// What.
        event: BoardEvent,
    },
    /// Someone sat down, left, or handed their seat to a bot (or took it back).
    #[serde(untagged)]
    Lobby(lobby::Event),
}

impl<'de> Deserialize<'de> for Event {
    /// By the tag: `game`, or one of the lobby's. (Serde's untagged fallback would hide why a
    /// lobby event does not read, such as a missing field, and `prophecy db copy` says why.)
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Event, D::Error> {
        #[derive(Deserialize)]
        #[serde(tag = "type", rename_all = "snake_case")]
        enum Game {
            Game { event: BoardEvent },
        }
        let value = Value::deserialize(deserializer)?;
        if value.get("type").and_then(Value::as_str) == Some("game") {
            Game::deserialize(value).map(|Game::Game { event }| Event::Game { event })
        } else {
            lobby::Event::deserialize(value).map(Event::Lobby)
        }
        .map_err(serde::de::Error::custom)
    }
}

/// What the page may ask besides the engine's own actions.
#[derive(Deserialize)]
#[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
enum TableRequest {
    AddBot {
        #[serde(default)]
        level: Level,
    },
    RemoveBot {
        player: u32,
    },
    Start,
    HandToBot {
        player: u32,
    },
    TakeBack,
    /// The engine's `Move` carries its `MoveKind` unnamed, which JSON cannot tag: the page
    /// names it `how`.
    Move {
        how: MoveKind,
    },
}

/// The protocol's words for a lobby's refusal: a seat that nobody (or no bot) holds is a
/// request no page sends.
fn rejection(refusal: TableRefusal) -> Rejection {
    match refusal {
        TableRefusal::NoBot { .. } | TableRefusal::NoPlayer { .. } => {
            Rejection::Malformed(refusal.to_string())
        }
        refusal => Rejection::Refused {
            code: refusal.code().to_owned(),
            rule: refusal.rule().to_owned(),
            message: refusal.to_string(),
        },
    }
}

fn from_refusal(refusal: Refusal) -> Rejection {
    Rejection::Refused {
        code: refusal.code().to_owned(),
        rule: refusal.rule().to_owned(),
        message: refusal.to_string(),
    }
}

/// The engine's decision on `command`, as the table's events.
fn play(table: &Table, command: Command) -> Result<Vec<Event>, Rejection> {
    board::decide(&table.game, command)
        .map(|events| {
            (events.into_iter())
                .map(|event| Event::Game { event })
                .collect()
        })
        .map_err(from_refusal)
}

/// The lobby's decision on `request`: its events, or the game's set-up.
fn decide(table: &Table, request: Request) -> Result<Vec<Event>, Rejection> {
    match lobby::decide(&table.lobby, &table.game, request).map_err(rejection)? {
        Decision::Seats(events) => Ok(events.into_iter().map(Event::Lobby).collect()),
        Decision::Play(command) => play(table, command),
    }
}

/// A new table's first events: the bots its settings ask for, named unlike its creator.
/// `bots` is a list of levels (`["strong", "easy"]`), or a number (a form's text too) of bots
/// of the level `bot_level` (standard if absent).
pub(super) fn open(settings: &Value) -> Result<Vec<Event>, Rejection> {
    let creator = (settings.get("creator").and_then(Value::as_str)).unwrap_or("");
    let events = lobby::open(&bot_levels(settings)?, creator).map_err(rejection)?;
    Ok(events.into_iter().map(Event::Lobby).collect())
}

/// The levels of the bots a new table's settings ask for.
fn bot_levels(settings: &Value) -> Result<Vec<Level>, Rejection> {
    let level = |value: &Value| {
        (value.as_str().unwrap_or(""))
            .parse::<Level>()
            .map_err(Rejection::Malformed)
    };
    if let Some(Value::Array(levels)) = settings.get("bots") {
        if levels.len() > MAX_BOTS {
            return Err(Rejection::Malformed(format!("at most {MAX_BOTS} bots")));
        }
        return levels.iter().map(level).collect();
    }
    let each = match settings.get("bot_level") {
        None | Some(Value::Null) => Level::Standard,
        Some(value) => level(value)?,
    };
    // A form sends the number as text; an empty field is no bots.
    let bots = match settings.get("bots") {
        None | Some(Value::Null) => Some(0),
        Some(Value::String(text)) if text.trim().is_empty() => Some(0),
        Some(Value::String(text)) => text.trim().parse().ok(),
        Some(value) => value.as_u64(),
    };
    let bots = (bots.and_then(|n| usize::try_from(n).ok()))
        .filter(|n| *n <= MAX_BOTS)
        .ok_or_else(|| {
            Rejection::Malformed(format!(
                "bots is a number of bots from 0 to {MAX_BOTS}, or a list of their levels"
            ))
        })?;
    Ok(vec![each; bots])
}

/// `player` sits down as `name`.
pub(super) fn join(table: &Table, player: u32, name: &str) -> Result<Vec<Event>, Rejection> {
    let name = name.to_owned();
    let player = PlayerId(player);
    decide(table, Request::Join { player, name })
}

/// The table layer removes `player`.
pub(super) fn remove(table: &Table, player: u32) -> Result<Vec<Event>, Rejection> {
    decide(
        table,
        Request::Remove {
            player: PlayerId(player),
        },
    )
}

/// A page's request: the lobby's, or an engine action (with the server's seed).
pub(super) fn act(
    table: &Table,
    player: u32,
    action: &Value,
    context: &Context,
) -> Result<Vec<Event>, Rejection> {
    let by = PlayerId(player);
    let request = match TableRequest::deserialize(action) {
        Ok(TableRequest::AddBot { level }) => Request::AddBot { by, level },
        Ok(TableRequest::RemoveBot { player }) => Request::RemoveBot {
            by,
            bot: PlayerId(player),
        },
        Ok(TableRequest::Start) => Request::Start {
            by,
            seed: Seed(context.seed),
        },
        Ok(TableRequest::HandToBot { player }) => Request::HandToBot {
            by,
            player: PlayerId(player),
        },
        Ok(TableRequest::TakeBack) => Request::TakeBack { by },
        Ok(TableRequest::Move { how }) => {
            table.lobby.may_play(by).map_err(rejection)?;
            return play(table, Command::new(by, Action::Move(how)));
        }
        Err(_) => {
            table.lobby.may_play(by).map_err(rejection)?;
            return play(table, Command::new(by, engine_action(action, context)?));
        }
    };
    decide(table, request)
}

/// What the bot playing `player`'s seat does now.
pub(super) fn bot_act(
    table: &Table,
    player: u32,
    context: &Context,
) -> Result<Vec<Event>, Rejection> {
    // The bots' map of the board, worked out once for the one content.
    static MAP: LazyLock<Map> = LazyLock::new(|| Map::new(&CONTENT));
    let player = PlayerId(player);
    let level = table
        .lobby
        .seat(player)
        .map(|s| s.level)
        .unwrap_or_default();
    let (state, seed) = (&table.game, Seed(context.seed));
    let action = board::bot::choose_at(
        level,
        Some(&MAP),
        &mut Scratch::default(),
        state,
        player,
        seed,
    )
    .ok_or_else(|| Rejection::Malformed("the bot has nothing to do".into()))?;
    play(table, Command::new(player, action))
}

/// The page's action as an engine action: `seed` is the server's, never the page's; set-up is
/// the lobby's `start`.
pub(super) fn engine_action(action: &Value, context: &Context) -> Result<Action, Rejection> {
    let Some(object) = action.as_object() else {
        return Err(Rejection::Malformed("an action is a JSON object".into()));
    };
    if object.get("action").and_then(Value::as_str) == Some("set_up") {
        return Err(Rejection::Malformed(
            "the game is set up by the table's creator with \"start\"".into(),
        ));
    }
    let mut object = object.clone();
    object.insert("seed".into(), json!(context.seed));
    crate::game::read_action(Value::Object(object))
}
