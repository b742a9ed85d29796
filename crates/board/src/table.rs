//! The table around the game: who sits where, who made the table, which seats bots play. It is
//! decided and evolved like the game itself: a [`Request`] is checked against the [`Lobby`]
//! (and whether the game has begun) by [`decide`] and becomes lobby [`Event`]s, or, for the
//! creator's start, the engine's set-up [`Command`]; [`Lobby::evolve`] applies an event and
//! never fails.
//!
//! The lobby's events are stored in the web table's logs beside the game's, so their serde
//! shape is a stored format: `{"type": "seated", "player": 1, "name": "Ada", "bot": false}`,
//! and a bot seated at another level than standard adds `"level": "strong"` (or `"easy"`).

use crate::bot::Level;
use crate::command::{Action, Command};
use crate::decide::MAX_PLAYERS;
use crate::ids::PlayerId;
use crate::model::Phase;
use crate::refusal::Refusal;
use crate::state::State;
use dice::Seed;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Bots' player numbers start here, so they never meet the table's seat numbers.
pub const FIRST_BOT: PlayerId = PlayerId(1_000_001);
/// Names bots take, in order (with "(bot)" after them).
pub const BOT_NAMES: [&str; 5] = ["Juniper", "Kestrel", "Lark", "Wick", "Fenn"];
/// Most bots a table opens with: every seat but its creator's.
pub const MAX_BOTS: usize = MAX_PLAYERS - 1;

/// One seat at the table, and later one adventurer's player.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seat {
    /// The player (a bot's is [`FIRST_BOT`] or more).
    pub player: PlayerId,
    /// Their name.
    pub name: String,
    /// A bot plays it (seated as one, or handed to one).
    pub bot: bool,
    /// How well the bot plays, if one does (a seat handed to a bot: standard).
    pub level: Level,
    /// Its player was removed from the table during the game: a bot plays it for good.
    pub removed: bool,
}

/// Who sits at the table.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Lobby {
    /// In seating order.
    pub seats: Vec<Seat>,
    /// The table's creator: the first person seated (bots never create tables; the table
    /// layer seats the creator first). Theirs for good, even while a bot plays their seat.
    pub creator: Option<PlayerId>,
}

/// What happened to the table's seats.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// Someone (or a bot) sat down in the lobby.
    Seated {
        /// Who.
        player: PlayerId,
        /// Their name.
        name: String,
        /// A bot.
        #[serde(default)]
        bot: bool,
        /// The bot's level (absent: standard).
        #[serde(default, skip_serializing_if = "is_standard")]
        level: Level,
    },
    /// A seat was given up before the game began (a player removed, a bot sent away).
    Unseated {
        /// Whose.
        player: PlayerId,
    },
    /// A bot plays this seat from now on (its player left).
    BotTookOver {
        /// Whose seat.
        player: PlayerId,
    },
    /// A player takes their seat back from the bot that played it.
    PlayerReturned {
        /// Whose seat.
        player: PlayerId,
    },
    /// The table's creator removed a player during the game: a bot plays their adventurer
    /// for good. (Before the game, a removed player is `Unseated`.)
    PlayerRemoved {
        /// Whose seat.
        player: PlayerId,
    },
}

/// What may be asked of the lobby, and by whom.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Request {
    /// `player` (numbered by the table layer) sits down as `name`.
    Join {
        /// Who.
        player: PlayerId,
        /// Their name.
        name: String,
    },
    /// The creator seats a bot.
    AddBot {
        /// Who asks.
        by: PlayerId,
        /// How well it plays.
        level: Level,
    },
    /// The creator sends a bot away before the game.
    RemoveBot {
        /// Who asks.
        by: PlayerId,
        /// The bot's seat.
        bot: PlayerId,
    },
    /// The creator starts the game with the seated players.
    Start {
        /// Who asks.
        by: PlayerId,
        /// The set-up's seed.
        seed: Seed,
    },
    /// A bot plays this seat from now on: a player's own, or anyone's for the creator.
    HandToBot {
        /// Who asks.
        by: PlayerId,
        /// Whose seat.
        player: PlayerId,
    },
    /// A player takes their seat back from a bot.
    TakeBack {
        /// Who asks.
        by: PlayerId,
    },
    /// The table layer removes a player (it has checked who may).
    Remove {
        /// Whom.
        player: PlayerId,
    },
}

/// What a request comes to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    /// The lobby changes.
    Seats(Vec<Event>),
    /// The game begins: this command, for the engine to decide.
    Play(Command),
}

/// Why the lobby refuses a request. [`TableRefusal::rule`] names the rule; `Display` explains.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TableRefusal {
    /// Only the creator may do it.
    NotCreator {
        /// What, as "can …" would finish it: "seat a bot".
        to: &'static str,
    },
    /// Seats change only before the game.
    GameStarted,
    /// A bot is seated only while there is a seat for it.
    NoSeatForBot,
    /// Every seat is taken.
    TableFull,
    /// Two people at one table have two names.
    NameTaken {
        /// The name asked for.
        name: String,
    },
    /// A removed player does not come back.
    Removed,
    /// No bot plays the seat taken back.
    NotBot,
    /// A bot plays the asker's seat: they wait or take it back.
    BotPlays,
    /// A seat is handed to a bot only in the game.
    NotStarted,
    /// A bot plays that seat already.
    AlreadyBot {
        /// Its player's name.
        name: String,
    },
    /// The player was removed already.
    AlreadyRemoved {
        /// Their name.
        name: String,
    },
    /// No bot sits at that seat (a request no page of the table sends).
    NoBot {
        /// The seat named.
        seat: PlayerId,
    },
    /// Nobody sits at that seat (a request no page of the table sends).
    NoPlayer {
        /// The seat named.
        seat: PlayerId,
    },
    /// The game's own rules refuse it (a player without a name).
    Game(Refusal),
}

impl TableRefusal {
    /// A stable machine-readable name.
    pub fn code(&self) -> &'static str {
        use TableRefusal::*;
        match self {
            NotCreator { .. } => "not_creator",
            GameStarted => "game_started",
            NoSeatForBot | TableFull => "table_full",
            NameTaken { .. } => "name_taken",
            Removed => "removed",
            NotBot => "not_bot",
            BotPlays => "bot_plays",
            NotStarted => "not_started",
            AlreadyBot { .. } => "already_bot",
            AlreadyRemoved { .. } => "already_removed",
            NoBot { .. } => "no_bot",
            NoPlayer { .. } => "no_player",
            Game(refusal) => refusal.code(),
        }
    }

    /// The rule that refuses it: the number of players is the rulebook's; the rest is the
    /// table's own.
    pub fn rule(&self) -> &'static str {
        match self {
            TableRefusal::NoSeatForBot | TableRefusal::TableFull => "Setting up the game",
            TableRefusal::Game(refusal) => refusal.rule(),
            _ => "The table",
        }
    }
}

impl fmt::Display for TableRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use TableRefusal::*;
        match self {
            NotCreator { to } => write!(f, "Only the table's creator can {to}."),
            GameStarted => write!(f, "The game has begun: seats are set."),
            NoSeatForBot => write!(f, "The basic version is for at most {MAX_PLAYERS} players."),
            TableFull => write!(
                f,
                "This table is full: the basic version is for at most {MAX_PLAYERS} players."
            ),
            NameTaken { name } => write!(f, "Someone at this table is already called {name}."),
            Removed => write!(f, "You were removed from this table."),
            NotBot => write!(f, "No bot is playing your seat."),
            BotPlays => write!(f, "A bot plays your seat now."),
            NotStarted => write!(f, "Before the game begins, seat a bot instead."),
            AlreadyBot { name } => write!(f, "A bot already plays {name}."),
            AlreadyRemoved { name } => write!(f, "{name} was already removed."),
            NoBot { seat } => write!(f, "no bot sits at seat {}", seat.0),
            NoPlayer { seat } => write!(f, "no player sits at seat {}", seat.0),
            Game(refusal) => refusal.fmt(f),
        }
    }
}

impl std::error::Error for TableRefusal {}

impl Lobby {
    /// The seat of `player`.
    pub fn seat(&self, player: PlayerId) -> Option<&Seat> {
        self.seats.iter().find(|s| s.player == player)
    }

    /// The name of `player`'s seat ("Player 7" for nobody seated).
    pub fn name(&self, player: PlayerId) -> String {
        self.seat(player)
            .map_or_else(|| format!("Player {}", player.0), |s| s.name.clone())
    }

    /// Whether `player` may play their own turn: not while a bot plays their seat.
    pub fn may_play(&self, player: PlayerId) -> Result<(), TableRefusal> {
        match self.seat(player) {
            Some(seat) if seat.bot => Err(TableRefusal::BotPlays),
            _ => Ok(()),
        }
    }

    fn seat_mut(&mut self, player: PlayerId) -> Option<&mut Seat> {
        self.seats.iter_mut().find(|s| s.player == player)
    }

    /// The lobby after `event`.
    pub fn evolve(mut self, event: &Event) -> Lobby {
        match event {
            Event::Seated {
                player,
                name,
                bot,
                level,
            } => {
                if !bot && self.creator.is_none() {
                    self.creator = Some(*player);
                }
                if self.seat(*player).is_none() {
                    self.seats.push(Seat {
                        player: *player,
                        name: name.clone(),
                        bot: *bot,
                        level: *level,
                        removed: false,
                    });
                }
            }
            Event::Unseated { player } => self.seats.retain(|s| s.player != *player),
            Event::BotTookOver { player } => {
                if let Some(seat) = self.seat_mut(*player) {
                    seat.bot = true;
                    seat.level = Level::Standard;
                }
            }
            Event::PlayerReturned { player } => {
                if let Some(seat) = self.seat_mut(*player) {
                    seat.bot = false;
                }
            }
            Event::PlayerRemoved { player } => {
                if let Some(seat) = self.seat_mut(*player) {
                    seat.bot = true;
                    seat.removed = true;
                }
            }
        }
        self
    }
}

/// The events a new table opens with: a bot of each of `bots` (at most [`MAX_BOTS`]), named
/// unlike its creator, who is seated after them.
pub fn open(bots: &[Level], creator: &str) -> Result<Vec<Event>, TableRefusal> {
    let mut lobby = Lobby::default();
    let mut events = Vec::new();
    for &level in bots {
        let event = bot_seat(&lobby, false, creator, level)?;
        lobby = lobby.evolve(&event);
        events.push(event);
    }
    Ok(events)
}

/// Checks a request against the lobby and the game (whether it has begun).
pub fn decide(lobby: &Lobby, game: &State, request: Request) -> Result<Decision, TableRefusal> {
    let started = !matches!(game.phase, Phase::NotSetUp);
    let seats = |event| Ok(Decision::Seats(vec![event]));
    match request {
        Request::Join { player, name } => seats(join(lobby, started, player, &name)?),
        Request::AddBot { by, level } => {
            only_creator(lobby, by, "seat a bot")?;
            seats(bot_seat(lobby, started, "", level)?)
        }
        Request::RemoveBot { by, bot } => {
            only_creator(lobby, by, "send a bot away")?;
            lobby_open(started)?;
            match lobby.seat(bot) {
                Some(seat) if seat.bot => seats(Event::Unseated { player: bot }),
                _ => Err(TableRefusal::NoBot { seat: bot }),
            }
        }
        Request::Start { by, seed } => {
            only_creator(lobby, by, "start the game")?;
            lobby_open(started)?;
            let seats = (lobby.seats.iter())
                .map(|s| (s.player, s.name.clone()))
                .collect();
            Ok(Decision::Play(Command::new(
                by,
                Action::SetUp { seats, seed },
            )))
        }
        Request::HandToBot { by, player } => {
            if by != player {
                only_creator(lobby, by, "hand another player's seat to a bot")?;
            }
            if !started {
                return Err(TableRefusal::NotStarted);
            }
            match lobby.seat(player) {
                Some(seat) if seat.bot => Err(TableRefusal::AlreadyBot {
                    name: seat.name.clone(),
                }),
                Some(_) => seats(Event::BotTookOver { player }),
                None => Err(TableRefusal::NoPlayer { seat: player }),
            }
        }
        Request::TakeBack { by } => match lobby.seat(by) {
            Some(seat) if seat.removed => Err(TableRefusal::Removed),
            Some(seat) if seat.bot && by < FIRST_BOT => seats(Event::PlayerReturned { player: by }),
            _ => Err(TableRefusal::NotBot),
        },
        Request::Remove { player } => match lobby.seat(player) {
            None => Err(TableRefusal::NoPlayer { seat: player }),
            Some(seat) if seat.removed => Err(TableRefusal::AlreadyRemoved {
                name: seat.name.clone(),
            }),
            // In the game, the removed player's adventurer plays on as a bot, whoever played
            // the seat until now: an event either way, so that every server learns of it.
            Some(_) if started => seats(Event::PlayerRemoved { player }),
            Some(_) => seats(Event::Unseated { player }),
        },
    }
}

fn only_creator(lobby: &Lobby, by: PlayerId, to: &'static str) -> Result<(), TableRefusal> {
    if lobby.creator == Some(by) {
        Ok(())
    } else {
        Err(TableRefusal::NotCreator { to })
    }
}

fn lobby_open(started: bool) -> Result<(), TableRefusal> {
    if started {
        Err(TableRefusal::GameStarted)
    } else {
        Ok(())
    }
}

fn join(lobby: &Lobby, started: bool, player: PlayerId, name: &str) -> Result<Event, TableRefusal> {
    lobby_open(started)?;
    let name = name.trim();
    if name.is_empty() {
        return Err(TableRefusal::Game(Refusal::EmptyName));
    }
    if lobby.seats.len() >= MAX_PLAYERS {
        return Err(TableRefusal::TableFull);
    }
    if lobby.seats.iter().any(|s| s.name == name) {
        return Err(TableRefusal::NameTaken {
            name: name.to_owned(),
        });
    }
    Ok(Event::Seated {
        player,
        name: name.to_owned(),
        bot: false,
        level: Level::Standard,
    })
}

/// A bot's seat, named unlike any seated player or `also` (the creator, seated after the bots
/// a new table opens with).
fn bot_seat(lobby: &Lobby, started: bool, also: &str, level: Level) -> Result<Event, TableRefusal> {
    lobby_open(started)?;
    if lobby.seats.len() >= MAX_PLAYERS {
        return Err(TableRefusal::NoSeatForBot);
    }
    // Not a seated player's name either: "Lark (bot)" beside a player called Lark reads as one.
    let taken = |name: &str| {
        also.eq_ignore_ascii_case(name)
            || (lobby.seats.iter())
                .any(|s| s.name.trim_end_matches(" (bot)").eq_ignore_ascii_case(name))
    };
    let name = BOT_NAMES
        .iter()
        .filter(|n| !taken(n))
        .map(|n| format!("{n} (bot)"))
        .next()
        .unwrap_or_else(|| "Bot".to_owned());
    let player = (lobby.seats.iter())
        .map(|s| s.player)
        .filter(|p| *p >= FIRST_BOT)
        .max()
        .map_or(FIRST_BOT, |p| PlayerId(p.0 + 1));
    Ok(Event::Seated {
        player,
        name,
        bot: true,
        level,
    })
}

fn is_standard(level: &Level) -> bool {
    *level == Level::Standard
}
