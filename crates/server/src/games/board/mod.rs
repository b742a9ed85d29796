//! Prophecy, the board game (basic version), at the web table: a lobby where the creator seats
//! bots and starts the game, requests from the page become engine commands (with the server's
//! seeds), events become log lines, and the state becomes the view every page shares (see
//! PROTOCOL.md, "The board game").
//!
//! Hidden information: the decks' order lives in the state and the log on the server only.
//! The view names face-up cards and counts face-down ones; the log's lines name only what was
//! revealed; the game file players may download leaves the decks' order out until the game is
//! over.

use crate::game::{Context, Game, Rejection};
use board::command::{Action, BattleKind, Command, MoveKind};
use board::content::{AdventureCard, Content, CreatureStats, Effect, Guild, Slot, SpaceKind};
use board::event::Event as BoardEvent;
use board::ids::{AdventureId, ChanceId, ItemId, PlayerId, SpaceId};
use board::model::{Adventurer, DeckKind, Phase, Ranking, Step};
use board::{Refusal, State as BoardState};
use dice::Seed;
use dice::opposed::BattleOdds;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::sync::{Arc, LazyLock};

/// The board, characters and cards every table plays with.
pub static CONTENT: LazyLock<Arc<Content>> = LazyLock::new(|| Arc::new(Content::builtin()));

/// Fewest and most adventurers, as the rules crate has them.
const PLAYERS: std::ops::RangeInclusive<usize> = board::MIN_PLAYERS..=board::MAX_PLAYERS;
/// Most bots chosen when a table is made: all seats but the creator's.
pub const MAX_BOTS: u64 = board::MAX_PLAYERS as u64 - 1;
/// Bots' player numbers start here, so they never meet the table's seat numbers.
const FIRST_BOT: u32 = 1_000_001;
/// Names bots take, in order (with "(bot)" after them).
const BOT_NAMES: [&str; 5] = ["Juniper", "Kestrel", "Lark", "Wick", "Fenn"];
/// Most Item combinations whose odds the view lists for one battle.
const MAX_ITEM_CHOICES: usize = 64;

/// The board game.
pub struct BoardGame;

/// One seat in the lobby, and later one adventurer's player.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seat {
    /// The player's number (a bot's is [`FIRST_BOT`] or more).
    pub player: u32,
    /// Their name.
    pub name: String,
    /// A bot plays it (seated as one, or handed to one).
    pub bot: bool,
    /// Its player was removed from the table during the game: a bot plays it for good.
    pub removed: bool,
}

/// A board-game table: the lobby's seats and the game.
#[derive(Debug, Clone)]
pub struct Table {
    /// In seating order.
    pub seats: Vec<Seat>,
    /// The table's creator: the first person seated (bots never create tables; the table
    /// layer seats the creator first). Theirs for good, even while a bot plays their seat.
    pub creator: Option<u32>,
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
            seats: Vec::new(),
            creator: None,
            game: BoardState::new(Arc::clone(&CONTENT)),
            last_chance: None,
            last_battle: None,
            turns: 0,
            chronicle: Vec::new(),
        }
    }
}

impl Table {
    fn seat(&self, player: u32) -> Option<&Seat> {
        self.seats.iter().find(|s| s.player == player)
    }

    fn started(&self) -> bool {
        !matches!(self.game.phase, Phase::NotSetUp)
    }

    fn name(&self, player: PlayerId) -> String {
        self.seat(player.0)
            .map_or_else(|| format!("Player {}", player.0), |s| s.name.clone())
    }
}

/// What happened at a board-game table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// Someone (or a bot) sat down in the lobby.
    Seated {
        /// Their number.
        player: u32,
        /// Their name.
        name: String,
        /// A bot.
        #[serde(default)]
        bot: bool,
    },
    /// A seat was given up before the game began (a player removed, a bot sent away).
    Unseated {
        /// Whose.
        player: u32,
    },
    /// A bot plays this seat from now on (its player left).
    BotTookOver {
        /// Whose seat.
        player: u32,
    },
    /// A player takes their seat back from the bot that played it.
    PlayerReturned {
        /// Whose seat.
        player: u32,
    },
    /// The table's creator removed a player during the game: a bot plays their adventurer
    /// for good. (Before the game, a removed player is `Unseated`.)
    PlayerRemoved {
        /// Whose seat.
        player: u32,
    },
    /// Something happened in the game.
    Game {
        /// What.
        event: BoardEvent,
    },
}

/// What the page may ask besides the engine's own actions.
#[derive(Deserialize)]
#[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
enum TableRequest {
    AddBot,
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

fn refused(code: &str, rule: &str, message: impl Into<String>) -> Rejection {
    Rejection::Refused {
        code: code.to_owned(),
        rule: rule.to_owned(),
        message: message.into(),
    }
}

fn bot_plays() -> Rejection {
    refused("bot_plays", "The table", "A bot plays your seat now.")
}

fn from_refusal(refusal: Refusal) -> Rejection {
    Rejection::Refused {
        code: refusal.code().to_owned(),
        rule: refusal.rule().to_owned(),
        message: refusal.to_string(),
    }
}

fn game_events(events: Vec<BoardEvent>) -> Vec<Event> {
    events
        .into_iter()
        .map(|event| Event::Game { event })
        .collect()
}

fn decide(table: &Table, player: u32, action: Action) -> Result<Vec<Event>, Rejection> {
    board::decide(&table.game, Command::new(PlayerId(player), action))
        .map(game_events)
        .map_err(from_refusal)
}

fn only_creator(table: &Table, player: u32, what: &str) -> Result<(), Rejection> {
    if table.creator == Some(player) {
        Ok(())
    } else {
        Err(refused(
            "not_creator",
            "The table",
            format!("Only the table's creator can {what}."),
        ))
    }
}

fn lobby_open(table: &Table) -> Result<(), Rejection> {
    if table.started() {
        Err(refused(
            "game_started",
            "The table",
            "The game has begun: seats are set.",
        ))
    } else {
        Ok(())
    }
}

/// A bot's seat, named unlike any seated player or `also` (the creator, seated after the bots
/// a new table opens with).
fn bot_seat(table: &Table, also: &str) -> Result<Vec<Event>, Rejection> {
    lobby_open(table)?;
    if table.seats.len() >= *PLAYERS.end() {
        return Err(refused(
            "table_full",
            "Setting up the game",
            format!(
                "The basic version is for at most {} players.",
                PLAYERS.end()
            ),
        ));
    }
    // Not a seated player's name either: "Lark (bot)" beside a player called Lark reads as one.
    let taken = |name: &str| {
        also.eq_ignore_ascii_case(name)
            || (table.seats.iter())
                .any(|s| s.name.trim_end_matches(" (bot)").eq_ignore_ascii_case(name))
    };
    let name = BOT_NAMES
        .iter()
        .filter(|n| !taken(n))
        .map(|n| format!("{n} (bot)"))
        .next()
        .unwrap_or_else(|| "Bot".to_owned());
    let player = table
        .seats
        .iter()
        .map(|s| s.player)
        .filter(|p| *p >= FIRST_BOT)
        .max()
        .map_or(FIRST_BOT, |p| p + 1);
    Ok(vec![Event::Seated {
        player,
        name,
        bot: true,
    }])
}

fn table_request(
    table: &Table,
    player: u32,
    request: TableRequest,
    context: &Context,
) -> Result<Vec<Event>, Rejection> {
    match request {
        TableRequest::AddBot => {
            only_creator(table, player, "seat a bot")?;
            bot_seat(table, "")
        }
        TableRequest::RemoveBot { player: bot } => {
            only_creator(table, player, "send a bot away")?;
            lobby_open(table)?;
            match table.seat(bot) {
                Some(seat) if seat.bot => Ok(vec![Event::Unseated { player: bot }]),
                _ => Err(Rejection::Malformed(format!("no bot sits at seat {bot}"))),
            }
        }
        TableRequest::Start => {
            only_creator(table, player, "start the game")?;
            lobby_open(table)?;
            let seats = table
                .seats
                .iter()
                .map(|s| (PlayerId(s.player), s.name.clone()))
                .collect();
            decide(
                table,
                player,
                Action::SetUp {
                    seats,
                    seed: Seed(context.seed),
                },
            )
        }
        TableRequest::TakeBack => match table.seat(player) {
            Some(seat) if seat.removed => Err(refused(
                "removed",
                "The table",
                "You were removed from this table.",
            )),
            Some(seat) if seat.bot && player < FIRST_BOT => {
                Ok(vec![Event::PlayerReturned { player }])
            }
            _ => Err(refused(
                "not_bot",
                "The table",
                "No bot is playing your seat.",
            )),
        },
        TableRequest::Move { how } => {
            if table.seat(player).is_some_and(|s| s.bot) {
                return Err(bot_plays());
            }
            decide(table, player, Action::Move(how))
        }
        TableRequest::HandToBot { player: target } => {
            if player != target {
                only_creator(table, player, "hand another player's seat to a bot")?;
            }
            if !table.started() {
                return Err(refused(
                    "not_started",
                    "The table",
                    "Before the game begins, seat a bot instead.",
                ));
            }
            match table.seat(target) {
                Some(seat) if seat.bot => Err(refused(
                    "already_bot",
                    "The table",
                    format!("A bot already plays {}.", seat.name),
                )),
                Some(_) => Ok(vec![Event::BotTookOver { player: target }]),
                None => Err(Rejection::Malformed(format!(
                    "no player sits at seat {target}"
                ))),
            }
        }
    }
}

/// The page's action as an engine action: `seed` is the server's, never the page's; set-up is
/// the lobby's `start`.
fn engine_action(action: &Value, context: &Context) -> Result<Action, Rejection> {
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

impl Game for BoardGame {
    const KIND: &'static str = "board";
    const NAME: &'static str = "Prophecy, the board game";
    const PAGE: &'static str = "board/table.html";
    type State = Table;
    type Event = Event;
    type View = Value;
    type Extras = crate::game::Plain;

    fn open(settings: &Value) -> Result<Vec<Event>, Rejection> {
        // A form sends the number as text; an empty field is no bots.
        let bots = match settings.get("bots") {
            None | Some(Value::Null) => Some(0),
            Some(Value::String(text)) if text.trim().is_empty() => Some(0),
            Some(Value::String(text)) => text.trim().parse().ok(),
            Some(value) => value.as_u64(),
        };
        let bots = bots.filter(|n| *n <= MAX_BOTS).ok_or_else(|| {
            Rejection::Malformed(format!("bots is a number of bots from 0 to {MAX_BOTS}"))
        })?;
        let creator = settings
            .get("creator")
            .and_then(Value::as_str)
            .unwrap_or("");
        let mut table = Table::default();
        let mut events = Vec::new();
        for _ in 0..bots {
            for event in bot_seat(&table, creator)? {
                table = BoardGame::evolve(table, &event);
                events.push(event);
            }
        }
        Ok(events)
    }

    fn join(table: &Table, player: u32, name: &str) -> Result<Vec<Event>, Rejection> {
        lobby_open(table)?;
        let name = name.trim();
        if name.is_empty() {
            return Err(from_refusal(Refusal::EmptyName));
        }
        if table.seats.len() >= *PLAYERS.end() {
            return Err(refused(
                "table_full",
                "Setting up the game",
                format!(
                    "This table is full: the basic version is for at most {} players.",
                    PLAYERS.end()
                ),
            ));
        }
        if table.seats.iter().any(|s| s.name == name) {
            return Err(refused(
                "name_taken",
                "The table",
                format!("Someone at this table is already called {name}."),
            ));
        }
        Ok(vec![Event::Seated {
            player,
            name: name.to_owned(),
            bot: false,
        }])
    }

    fn remove(table: &Table, player: u32) -> Result<Vec<Event>, Rejection> {
        match table.seat(player) {
            None => Err(Rejection::Malformed(format!(
                "no player sits at seat {player}"
            ))),
            Some(seat) if seat.removed => Err(refused(
                "already_removed",
                "The table",
                format!("{} was already removed.", seat.name),
            )),
            // In the game, the removed player's adventurer plays on as a bot, whoever played
            // the seat until now: an event either way, so that every server learns of it.
            Some(_) if table.started() => Ok(vec![Event::PlayerRemoved { player }]),
            Some(_) => Ok(vec![Event::Unseated { player }]),
        }
    }

    fn act(
        table: &Table,
        player: u32,
        action: &Value,
        context: &Context,
    ) -> Result<Vec<Event>, Rejection> {
        if let Ok(request) = TableRequest::deserialize(action) {
            return table_request(table, player, request, context);
        }
        if table.seat(player).is_some_and(|s| s.bot) {
            return Err(bot_plays());
        }
        decide(table, player, engine_action(action, context)?)
    }

    fn evolve(mut table: Table, event: &Event) -> Table {
        let line = describe(&table, event);
        if !line.is_empty() {
            table.chronicle.push(line);
        }
        match event {
            Event::Seated { player, name, bot } => {
                if !bot && table.creator.is_none() {
                    table.creator = Some(*player);
                }
                if table.seat(*player).is_none() {
                    table.seats.push(Seat {
                        player: *player,
                        name: name.clone(),
                        bot: *bot,
                        removed: false,
                    });
                }
            }
            Event::Unseated { player } => table.seats.retain(|s| s.player != *player),
            Event::BotTookOver { player } => {
                if let Some(seat) = table.seats.iter_mut().find(|s| s.player == *player) {
                    seat.bot = true;
                }
            }
            Event::PlayerReturned { player } => {
                if let Some(seat) = table.seats.iter_mut().find(|s| s.player == *player) {
                    seat.bot = false;
                }
            }
            Event::PlayerRemoved { player } => {
                if let Some(seat) = table.seats.iter_mut().find(|s| s.player == *player) {
                    seat.bot = true;
                    seat.removed = true;
                }
            }
            Event::Game { event } => {
                match event {
                    BoardEvent::ChanceDrawn { player, card } => {
                        table.last_chance = Some((*player, *card));
                    }
                    BoardEvent::GameSetUp(_) => {
                        table.turns = 1;
                        table.last_chance = None;
                    }
                    BoardEvent::TurnEnded { .. } => table.turns += 1,
                    BoardEvent::BattleFought { .. } => table.last_battle = Some(event.clone()),
                    _ => {}
                }
                table.game = board::evolve(table.game, event);
            }
        }
        table
    }

    fn encode(event: &Event) -> String {
        serde_json::to_string(event).unwrap_or_default()
    }

    fn decode(body: &str) -> Result<Event, String> {
        serde_json::from_str(body).map_err(|e| e.to_string())
    }

    fn content() -> Option<Value> {
        Some(content_json())
    }

    fn bot(table: &Table) -> Option<u32> {
        let turn = table.game.turn()?;
        table
            .seat(turn.player.0)
            .filter(|s| s.bot)
            .map(|_| turn.player.0)
    }

    fn bot_act(table: &Table, player: u32, context: &Context) -> Result<Vec<Event>, Rejection> {
        let action = board::bot::choose(&table.game, PlayerId(player), Seed(context.seed))
            .ok_or_else(|| Rejection::Malformed("the bot has nothing to do".into()))?;
        decide(table, player, action)
    }

    fn describe(before: &Table, event: &Event) -> String {
        describe(before, event)
    }

    fn view(table: &Table, creator: u32) -> Value {
        view(table, creator)
    }

    fn markdown(table: &Table) -> (String, String) {
        markdown(table)
    }

    fn title(_table: &Table, _creator: u32, created_at: i64) -> String {
        crate::game::dated("Board game", created_at)
    }

    fn progress(table: &Table) -> String {
        match &table.game.phase {
            Phase::NotSetUp => match table.seats.len() {
                1 => "Waiting to begin: 1 adventurer seated".to_owned(),
                n => format!("Waiting to begin: {n} adventurers seated"),
            },
            Phase::Playing(turn) => {
                format!("Turn {}: {}’s turn", table.turns, table.name(turn.player))
            }
            Phase::Won { winner, .. } => {
                format!("{} won after {} turns", table.name(*winner), table.turns)
            }
            Phase::Ended { .. } => format!("Every adventurer died after {} turns", table.turns),
        }
    }

    fn for_players(log: Vec<Event>) -> Vec<Event> {
        let over = log.iter().any(|e| {
            matches!(
                e,
                Event::Game {
                    event: BoardEvent::GameWon { .. } | BoardEvent::GameEndedWithoutWinner { .. }
                }
            )
        });
        if over {
            return log;
        }
        // While the game runs, the decks' order is left out (a replay of this file is not the
        // game until it is over).
        log.into_iter()
            .map(|event| match event {
                Event::Game {
                    event: BoardEvent::GameSetUp(set_up),
                } => Event::Game {
                    event: BoardEvent::GameSetUp(Box::new(board::SetUp {
                        adventure_deck: Vec::new(),
                        chance_deck: Vec::new(),
                        common_items: Vec::new(),
                        rare_items: Vec::new(),
                        ..*set_up
                    })),
                },
                Event::Game {
                    event: BoardEvent::DeckReshuffled { deck, .. },
                } => Event::Game {
                    event: BoardEvent::DeckReshuffled {
                        deck,
                        order: Vec::new(),
                    },
                },
                other => other,
            })
            .collect()
    }
}

// ---------------------------------------------------------------------------------------------
// Words
// ---------------------------------------------------------------------------------------------

fn space_name(content: &Content, space: SpaceId) -> String {
    content
        .board
        .spaces
        .get(space.index())
        .map_or_else(|| format!("space {}", space.0), |s| s.name.clone())
}

fn adventure_name(content: &Content, card: AdventureId) -> String {
    content
        .adventures
        .get(card.index())
        .map_or_else(|| format!("card {}", card.0), |c| c.name().to_owned())
}

fn item_name(content: &Content, item: ItemId) -> String {
    content
        .items
        .get(item.index())
        .map_or_else(|| format!("item {}", item.0), |i| i.name.clone())
}

fn chance_name(content: &Content, card: ChanceId) -> String {
    content
        .chance
        .get(card.index())
        .map_or_else(|| format!("card {}", card.0), |c| c.name.clone())
}

/// A guild's name as the board names its space.
/// A guild as its Certificate names it: "the Fortress".
fn guild_name(guild: Guild) -> &'static str {
    match guild {
        Guild::Fortress => "the Fortress",
        Guild::ThievesGuild => "the Thieves\u{2019} Guild",
        Guild::MagicTower => "the Magic Tower",
        Guild::ForestCamp => "the Forest Camp",
        Guild::Monastery => "the Monastery",
    }
}

fn deck_name(deck: DeckKind) -> &'static str {
    match deck {
        DeckKind::Adventure => "Adventure",
        DeckKind::Chance => "Chance",
        DeckKind::CommonItems => "Common Item",
        DeckKind::RareItems => "Rare Item",
    }
}

fn plural(n: u32, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

fn list(words: &[String]) -> String {
    match words {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

fn move_words(how: MoveKind) -> &'static str {
    match how {
        MoveKind::Stay => "stays in",
        MoveKind::Walk { .. } => "walks to",
        MoveKind::Horse { .. } => "rides a horse to",
        MoveKind::Boat { .. } => "sails to",
        MoveKind::MagicGate { .. } => "steps through the Magic Gate to",
    }
}

fn effect_words(effect: Effect, applied: u32) -> String {
    match effect {
        Effect::GainGold(_) => format!("gains {}", plural(applied, "Gold", "Gold")),
        Effect::LoseGold(_) => format!("loses {}", plural(applied, "Gold", "Gold")),
        Effect::GainExperience(_) => {
            format!("gains {}", plural(applied, "Experience", "Experience"))
        }
        Effect::LoseExperience(_) => {
            format!("loses {}", plural(applied, "Experience", "Experience"))
        }
        Effect::Heal(_) => format!("heals {}", plural(applied, "Health", "Health")),
        Effect::LoseHealth(_) => format!("loses {}", plural(applied, "Health", "Health")),
        Effect::Recharge(_) => format!("recharges {}", plural(applied, "Magic", "Magic")),
        Effect::LoseMagic(_) => format!("loses {}", plural(applied, "Magic", "Magic")),
        Effect::GainStrength(_) => format!("gains {}", plural(applied, "Strength", "Strength")),
        Effect::GainWillpower(_) => {
            format!("gains {}", plural(applied, "Willpower", "Willpower"))
        }
        Effect::DrawCommonItem => "draws a Common Item".into(),
        Effect::DrawRareItem => "draws a Rare Item".into(),
        Effect::LoseItem => "loses an Item".into(),
        Effect::MoveOneSpace => "moves one space".into(),
        Effect::MissTurn => "will miss her next turn".into(),
    }
}

fn ranking_words(table: &Table, ranking: &Ranking) -> String {
    let places: Vec<String> = ranking
        .0
        .iter()
        .enumerate()
        .map(|(i, (p, n))| {
            format!(
                "{}. {} ({})",
                i + 1,
                table.name(*p),
                plural(*n, "Certificate", "Certificates")
            )
        })
        .collect();
    places.join(", ")
}

/// A battle's rolls as totals, each with its dice: "9 against 8 (dice 6 and 6)". The values
/// are the battle's as it was about to be fought; the dice alone if they cannot be known.
fn rolls_words(
    game: &BoardState,
    player: PlayerId,
    kind: BattleKind,
    items: &[ItemId],
    rolls: &[(u8, u8)],
) -> String {
    let values = match board::encounter::battle(game, player, kind, items) {
        Ok(b) => Some((b.yours, b.first_roll_bonus, b.theirs)),
        // The Battle of Strength after a Battle of Wills won: the first battle's second stage.
        Err(_) if kind == BattleKind::Strength => {
            board::encounter::battle(game, player, BattleKind::Wills, items)
                .ok()
                .and_then(|b| b.then)
                .map(|t| (t.yours, t.first_roll_bonus, t.theirs))
        }
        Err(_) => None,
    };
    let each: Vec<String> = (rolls.iter().enumerate())
        .map(|(i, (mine, theirs))| match values {
            Some((yours, first, against)) => {
                let bonus = if i == 0 { first } else { 0 };
                format!(
                    "{} against {} (dice {mine} and {theirs})",
                    i32::from(*mine) + yours + bonus,
                    i32::from(*theirs) + against
                )
            }
            None => format!("dice {mine} against {theirs}"),
        })
        .collect();
    each.join(", then ")
}

/// One line for the log, from the table before the event. Names only what the event reveals.
fn describe(before: &Table, event: &Event) -> String {
    match event {
        Event::Seated { name, bot, .. } => {
            if *bot {
                format!("{name} takes a seat.")
            } else {
                format!("{name} sits down at the table.")
            }
        }
        Event::Unseated { player } => format!(
            "{} leaves the table.",
            before
                .seat(*player)
                .map_or_else(|| format!("Player {player}"), |s| s.name.clone())
        ),
        Event::BotTookOver { player } => format!(
            "A bot plays {}'s adventurer from now on.",
            before.name(PlayerId(*player))
        ),
        Event::PlayerReturned { player } => format!(
            "{} takes their seat back from the bot.",
            before.name(PlayerId(*player))
        ),
        Event::PlayerRemoved { player } => format!(
            "{} left the table: a bot plays their adventurer from now on.",
            before.name(PlayerId(*player))
        ),
        Event::Game { event } => turn_line(before, event)
            .or_else(|| action_line(before, event))
            .or_else(|| encounter_line(before, event))
            .unwrap_or_else(|| "Something happened.".to_owned()),
    }
}

/// The game's own turns: set-up, Chance cards, the market, whose turn it is, the end.
fn turn_line(before: &Table, event: &BoardEvent) -> Option<String> {
    let content = &before.game.content;
    let name = |p: PlayerId| before.name(p);
    Some(match event {
        BoardEvent::GameSetUp(set_up) => {
            let board::SetUp {
                seats,
                rolls,
                first_player,
                ..
            } = &**set_up;
            let dealt: Vec<String> = seats
                .iter()
                .map(|s| {
                    let character = content
                        .characters
                        .get(s.character.index())
                        .map_or("?", |c| c.name.as_str());
                    format!("{} plays {character}", s.name)
                })
                .collect();
            let rolled = if rolls.len() > 1 { " after a tie" } else { "" };
            format!(
                "The game begins: {}. {} rolls highest{rolled} and begins.",
                list(&dealt),
                name(*first_player)
            )
        }
        BoardEvent::DeckReshuffled { deck, .. } => {
            format!(
                "The {} discards are shuffled into a new deck.",
                deck_name(*deck)
            )
        }
        BoardEvent::ChanceDrawn { player, card } => format!(
            "{} draws the Chance card {}.",
            name(*player),
            chance_name(content, *card)
        ),
        BoardEvent::AdventuresPlaced { placed } => {
            let cards: Vec<String> = placed
                .iter()
                .map(|(space, card)| {
                    format!(
                        "{} on {}",
                        adventure_name(content, *card),
                        space_name(content, *space)
                    )
                })
                .collect();
            if cards.is_empty() {
                "No space of that terrain is empty: no Adventure card is placed.".into()
            } else {
                format!("Adventure cards are placed: {}.", list(&cards))
            }
        }
        BoardEvent::ItemsDiscarded { space, items } => {
            let names: Vec<String> = items.iter().map(|i| item_name(content, *i)).collect();
            format!(
                "{} lying in {} {} discarded.",
                list(&names),
                space_name(content, *space),
                if names.len() == 1 { "is" } else { "are" }
            )
        }
        BoardEvent::ItemsLaidOut { space, items, .. } => {
            let names: Vec<String> = items.iter().map(|i| item_name(content, *i)).collect();
            format!(
                "New Items for sale in {}: {}.",
                space_name(content, *space),
                list(&names)
            )
        }
        BoardEvent::AdventurersRefreshed { refreshed } => {
            let each: Vec<String> = refreshed
                .iter()
                .map(|r| {
                    let mut got = Vec::new();
                    if r.healed > 0 {
                        got.push(plural(r.healed, "Health", "Health"));
                    }
                    if r.recharged > 0 {
                        got.push(plural(r.recharged, "Magic", "Magic"));
                    }
                    if r.gold.0 > 0 {
                        got.push(plural(r.gold.0, "Gold", "Gold"));
                    }
                    format!("{} gets {}", name(r.player), list(&got))
                })
                .collect();
            if each.is_empty() {
                "Nobody gets anything.".into()
            } else {
                format!("{}.", list(&each))
            }
        }
        BoardEvent::ExtraTurnGranted { player } => {
            format!("{} will take an extra turn.", name(*player))
        }
        BoardEvent::GameWon { winner, ranking } => format!(
            "{} wins the game! Ranking: {}.",
            name(*winner),
            ranking_words(before, ranking)
        ),
        BoardEvent::GameEndedWithoutWinner { ranking } => format!(
            "Every adventurer is dead: the game ends without a winner. Ranking: {}.",
            ranking_words(before, ranking)
        ),
        BoardEvent::TurnMissed { player } => format!("{} misses a turn.", name(*player)),
        BoardEvent::TurnEnded { next, extra, .. } => {
            if *extra {
                format!("{} takes the extra turn.", name(*next))
            } else {
                format!("It is {}'s turn.", name(*next))
            }
        }
        BoardEvent::AdventurerDied { player } => {
            format!(
                "{}'s adventurer dies: she is out of the game.",
                name(*player)
            )
        }
        _ => return None,
    })
}

/// What an adventurer does on her turn but fight: moving, buying, selling, resting.
fn action_line(before: &Table, event: &BoardEvent) -> Option<String> {
    let content = &before.game.content;
    let name = |p: PlayerId| before.name(p);
    Some(match event {
        BoardEvent::Moved {
            player,
            how,
            to,
            paid,
        } => {
            let cost = if paid.0 > 0 {
                format!(" for {}", plural(paid.0, "Gold", "Gold"))
            } else {
                String::new()
            };
            format!(
                "{} {} {}{cost}.",
                name(*player),
                move_words(*how),
                space_name(content, *to)
            )
        }
        BoardEvent::CertificateBought {
            player,
            guild,
            experience,
            gold,
        } => format!(
            "{} buys the Certificate of {} ({}) for {}{}.",
            name(*player),
            guild_name(*guild),
            space_name(content, SpaceId::of(content.board.guild(*guild))),
            plural(experience.0, "Experience", "Experience"),
            if gold.0 > 0 {
                format!(" and {}", plural(gold.0, "Gold", "Gold"))
            } else {
                String::new()
            }
        ),
        BoardEvent::Recovered {
            player,
            healed,
            recharged,
            paid,
            ..
        } => {
            let mut got = Vec::new();
            if *healed > 0 {
                got.push(format!("heals {}", plural(*healed, "Health", "Health")));
            }
            if *recharged > 0 {
                got.push(format!(
                    "recharges {}",
                    plural(*recharged, "Magic", "Magic")
                ));
            }
            let cost = if paid.0 > 0 {
                format!(" for {}", plural(paid.0, "Gold", "Gold"))
            } else {
                String::new()
            };
            format!("{} {}{cost}.", name(*player), list(&got))
        }
        BoardEvent::Traded {
            player,
            health,
            magic,
            gold,
            experience,
            ..
        } => {
            let mut gave = Vec::new();
            if *health > 0 {
                gave.push(plural(*health, "Health", "Health"));
            }
            if *magic > 0 {
                gave.push(plural(*magic, "Magic", "Magic"));
            }
            let mut got = Vec::new();
            if gold.0 > 0 {
                got.push(plural(gold.0, "Gold", "Gold"));
            }
            if experience.0 > 0 {
                got.push(plural(experience.0, "Experience", "Experience"));
            }
            format!(
                "{} gives {} for {} instead of moving.",
                name(*player),
                list(&gave),
                list(&got)
            )
        }
        BoardEvent::ItemBought {
            player, item, paid, ..
        } => format!(
            "{} buys {} for {}.",
            name(*player),
            item_name(content, *item),
            plural(paid.0, "Gold", "Gold")
        ),
        BoardEvent::ItemSold { player, item, gold } => format!(
            "{} sells {} for {}.",
            name(*player),
            item_name(content, *item),
            plural(gold.0, "Gold", "Gold")
        ),
        BoardEvent::ItemRepaired { player, item, paid } => format!(
            "{} has {} repaired for {}.",
            name(*player),
            item_name(content, *item),
            plural(paid.0, "Gold", "Gold")
        ),
        BoardEvent::MovedOneSpace { player, to, .. } => format!(
            "{} is moved one space, to {}.",
            name(*player),
            space_name(content, *to)
        ),
        _ => return None,
    })
}

/// Encounters: battles and their dice, Creatures, Opportunities and what they give or take.
fn encounter_line(before: &Table, event: &BoardEvent) -> Option<String> {
    let content = &before.game.content;
    let name = |p: PlayerId| before.name(p);
    Some(match event {
        BoardEvent::BattleFought {
            player,
            card,
            kind,
            magic_paid,
            rolls,
            outcome,
            items,
            ..
        } => {
            let battle = match kind {
                BattleKind::Strength => "a Battle of Strength",
                BattleKind::Wills => "a Battle of Wills",
            };
            let paid = if *magic_paid > 0 {
                format!(" (for {})", plural(*magic_paid, "Magic", "Magic"))
            } else {
                String::new()
            };
            let with = if items.is_empty() {
                String::new()
            } else {
                let names: Vec<String> = items.iter().map(|i| item_name(content, *i)).collect();
                format!(" with {}", list(&names))
            };
            let result = match outcome {
                dice::opposed::BattleOutcome::Win => "won",
                dice::opposed::BattleOutcome::Draw => "a draw",
                dice::opposed::BattleOutcome::Loss => "lost",
            };
            format!(
                "{} fights {} in {battle}{paid}{with}: {}; {result}.",
                name(*player),
                adventure_name(content, *card),
                rolls_words(&before.game, *player, *kind, items, rolls)
            )
        }
        BoardEvent::ItemDamaged { player, item } => format!(
            "{}'s {} is damaged.",
            name(*player),
            item_name(content, *item)
        ),
        BoardEvent::CreatureDefeated {
            player,
            card,
            experience,
            ..
        } => format!(
            "{} defeats {} and gains {}.",
            name(*player),
            adventure_name(content, *card),
            plural(experience.0, "Experience", "Experience")
        ),
        BoardEvent::OpportunityUsed { player, card, .. } => {
            format!("{} uses {}.", name(*player), adventure_name(content, *card))
        }
        BoardEvent::EffectApplied {
            player,
            effect,
            applied,
        } => format!("{} {}.", name(*player), effect_words(*effect, *applied)),
        BoardEvent::ItemDrawn { player, item, deck } => format!(
            "{} draws {} from the {} deck.",
            name(*player),
            item_name(content, *item),
            deck_name(*deck)
        ),
        BoardEvent::ItemLost { player, item } => {
            format!("{} loses {}.", name(*player), item_name(content, *item))
        }
        BoardEvent::CreatureRose { card, to, .. } => format!(
            "{} rises again on {}.",
            adventure_name(content, *card),
            space_name(content, *to)
        ),
        BoardEvent::CreaturePassed { player, card, paid } => format!(
            "{} pays {} to pass {} without a fight.",
            name(*player),
            plural(paid.0, "Gold", "Gold"),
            adventure_name(content, *card)
        ),
        BoardEvent::CreatureLetGo { player, card, .. } => format!(
            "{} lets {} go: it is discarded, for nothing.",
            name(*player),
            adventure_name(content, *card)
        ),
        _ => return None,
    })
}

// ---------------------------------------------------------------------------------------------
// The view
// ---------------------------------------------------------------------------------------------

/// Exact fractions ("7/12"): the page shows them as percentages.
fn odds_json(odds: &BattleOdds) -> Value {
    json!({
        "win": odds.win.to_string(),
        "draw": odds.draw.to_string(),
        "loss": odds.loss.to_string(),
    })
}

fn step_name(step: Step) -> &'static str {
    match step {
        Step::DrawChance => "draw_chance",
        Step::Move => "move",
        Step::Battle => "battle",
        Step::Moved => "moved",
    }
}

fn adventurer_json(table: &Table, a: &Adventurer) -> Value {
    json!({
        "player": a.player.0,
        "name": a.name,
        "bot": table.seat(a.player.0).is_some_and(|s| s.bot),
        "character": a.character.0,
        "space": a.space.0,
        "gold": a.gold.0,
        "experience": a.experience.0,
        "health": {"right": a.health.right, "left": a.health.left},
        "magic": {"right": a.magic.right, "left": a.magic.left},
        "certificates": a.certificates.iter().map(|c| c.0).collect::<Vec<Guild>>(),
        "items": a.items.iter().map(|i| i.0).collect::<Vec<u32>>(),
        "damaged": a.damaged.iter().map(|i| i.0).collect::<Vec<u32>>(),
        "alive": a.alive,
        "miss_turn": a.miss_turn,
    })
}

/// An action as the page sends it, with a seed.
fn page_action(action: Value) -> Option<Action> {
    engine_action(&action, &Context { now: 0, seed: 0 }).ok()
}

/// Whether the engine would accept `action` from `player` now.
fn allowed(table: &Table, player: PlayerId, action: Action) -> Option<Vec<BoardEvent>> {
    board::decide(&table.game, Command::new(player, action)).ok()
}

fn moves(table: &Table, player: PlayerId) -> Vec<Value> {
    let content = &table.game.content;
    let mut kinds = vec![MoveKind::Stay];
    for clockwise in [true, false] {
        kinds.push(MoveKind::Walk { clockwise });
        kinds.push(MoveKind::Horse { clockwise });
        kinds.push(MoveKind::Boat { clockwise });
    }
    for gate in content.board.magic_gates() {
        kinds.push(MoveKind::MagicGate {
            to: SpaceId::of(gate),
        });
    }
    kinds
        .into_iter()
        .filter_map(|how| {
            let events = allowed(table, player, Action::Move(how))?;
            let (to, paid) = events.iter().find_map(|e| match e {
                BoardEvent::Moved { to, paid, .. } => Some((*to, *paid)),
                _ => None,
            })?;
            let creature = table.game.creature_on(to).map(|(card, _)| card.0);
            Some(json!({
                "how": how,
                "to": to.0,
                "to_name": space_name(content, to),
                "cost": paid.0,
                "creature": creature,
                "battle": if creature.is_some() {
                    best_battle_after(table, player, &events)
                } else {
                    Value::Null
                },
            }))
        })
        .collect()
}

/// Every set of usable Items for a battle, with its odds: none, and each combination the
/// rules allow (at most [`MAX_ITEM_CHOICES`]).
fn battles(table: &Table, player: PlayerId) -> Vec<Value> {
    battle_choices(&table.game, player)
        .into_iter()
        .map(|(_, value)| value)
        .collect()
}

/// The best battle she could fight where a move would take her (by the chance of winning), so
/// that the odds are known before she commits to the move.
fn best_battle_after(table: &Table, player: PlayerId, moved: &[BoardEvent]) -> Value {
    // The game's state shares its parts with the table's until the move changes them.
    let after = moved.iter().fold(table.game.clone(), board::evolve);
    battle_choices(&after, player)
        .into_iter()
        .max_by(|a, b| a.0.win.to_f64().total_cmp(&b.0.win.to_f64()))
        .map_or(Value::Null, |(_, value)| value)
}

fn battle_choices(game: &BoardState, player: PlayerId) -> Vec<(BattleOdds, Value)> {
    let Some(a) = game.adventurer(player) else {
        return Vec::new();
    };
    let usable: Vec<ItemId> = a
        .items
        .iter()
        .copied()
        .filter(|i| !a.damaged.contains(i))
        .take(6)
        .collect();
    let mut out = Vec::new();
    for kind in [BattleKind::Strength, BattleKind::Wills] {
        for mask in 0u32..(1 << usable.len()) {
            let items: Vec<ItemId> = usable
                .iter()
                .enumerate()
                .filter(|(i, _)| mask & (1 << i) != 0)
                .map(|(_, item)| *item)
                .collect();
            let Ok(battle) = board::encounter::battle(game, player, kind, &items) else {
                continue;
            };
            let Some(odds) = game.battle_odds(player, kind, &items) else {
                continue;
            };
            let value = json!({
                "kind": kind,
                "items": items.iter().map(|i| i.0).collect::<Vec<u32>>(),
                "yours": battle.yours,
                "first_roll_bonus": battle.first_roll_bonus,
                "theirs": battle.theirs,
                "magic": battle.magic_cost,
                "lives": battle.lives,
                // The Battle of Strength fought after this Battle of Wills, if it is won.
                "then": battle.then.map(|t| json!({
                    "yours": t.yours,
                    "first_roll_bonus": t.first_roll_bonus,
                    "theirs": t.theirs,
                })),
                "odds": odds_json(&odds),
            });
            out.push((odds, value));
            if out.len() >= MAX_ITEM_CHOICES {
                return out;
            }
        }
    }
    out
}

/// What the player whose turn it is may do now, each as the engine would accept it.
fn options(table: &Table, player: PlayerId, step: Step) -> Value {
    let game = &table.game;
    let content = &game.content;
    let Some(a) = game.adventurer(player) else {
        return Value::Null;
    };
    let here = a.space;
    let mut recover = Vec::new();
    for amount in 1..=a.health.left.max(a.magic.left).max(1) {
        if let Some(events) = allowed(table, player, Action::Recover { amount }) {
            let (healed, recharged, paid) = events
                .iter()
                .find_map(|e| match e {
                    BoardEvent::Recovered {
                        healed,
                        recharged,
                        paid,
                        ..
                    } => Some((*healed, *recharged, paid.0)),
                    _ => None,
                })
                .unwrap_or_default();
            recover.push(
                json!({"amount": amount, "healed": healed, "recharged": recharged, "cost": paid}),
            );
        }
    }
    let trade = allowed(table, player, Action::Trade).map(|events| {
        events
            .iter()
            .find_map(|e| match e {
                BoardEvent::Traded {
                    health,
                    magic,
                    gold,
                    experience,
                    ..
                } => Some(json!({"health": health, "magic": magic, "gold": gold.0, "experience": experience.0})),
                _ => None,
            })
            .unwrap_or(Value::Null)
    });
    let for_sale = game
        .space(here)
        .map(|s| s.items.clone())
        .unwrap_or_default();
    let buy: Vec<Value> = for_sale
        .iter()
        .map(|item| {
            json!({
                "item": item.0,
                "cost": content.items.get(item.index()).map_or(0, |i| i.cost),
                "allowed": allowed(table, player, Action::BuyItem { item: *item }).is_some(),
            })
        })
        .collect();
    let sell: Vec<Value> = a
        .items
        .iter()
        .filter(|item| allowed(table, player, Action::SellItem { item: **item }).is_some())
        .map(|item| {
            json!({
                "item": item.0,
                "price": content.items.get(item.index()).map_or(0, |i| board::market::sale_price(i).0),
            })
        })
        .collect();
    let repair: Vec<u32> = a
        .damaged
        .iter()
        .filter(|item| allowed(table, player, Action::RepairItem { item: **item }).is_some())
        .map(|item| item.0)
        .collect();
    let certificate = allowed(table, player, Action::BuyCertificate).and_then(|events| {
        events.iter().find_map(|e| match e {
            BoardEvent::CertificateBought {
                guild,
                experience,
                gold,
                ..
            } => Some(json!({"guild": guild, "experience": experience.0, "gold": gold.0})),
            _ => None,
        })
    });
    let special_rule = allowed(table, player, Action::UseSpecialRule).and_then(|_| {
        let (_, creature) = game.creature_on(here)?;
        let rule = creature.special.as_ref()?;
        let cost = match rule.rule {
            board::content::SpecialKind::PayToPass { gold } => gold,
            _ => 0,
        };
        Some(json!({"rule": rule.rule.name(), "text": rule.text, "cost": cost}))
    });
    let card_here = game
        .space(here)
        .and_then(|s| s.adventure)
        .and_then(|card| content.adventures.get(card.index()));
    // The choices a card here may ask for (the page asks them before the action).
    let asks = |effects: Vec<Effect>| -> Vec<&'static str> {
        let mut asks = Vec::new();
        if effects.contains(&Effect::MoveOneSpace) {
            asks.push("clockwise");
        }
        if effects.contains(&Effect::LoseItem) && !a.items.is_empty() {
            asks.push("lose_item");
        }
        asks
    };
    let choices = match card_here {
        Some(AdventureCard::Creature(c)) => {
            asks(c.treasure.iter().chain(c.loss_effects()).copied().collect())
        }
        Some(AdventureCard::Opportunity(o)) => asks(o.effects.clone()),
        None => Vec::new(),
    };
    let opportunity = game.space(here).and_then(|s| s.adventure).filter(|card| {
        matches!(
            content.adventures.get(card.index()),
            Some(AdventureCard::Opportunity(_))
        )
    });
    json!({
        "player": player.0,
        "step": step_name(step),
        "draw_chance": allowed(table, player, Action::DrawChance { seed: Seed(0) }).is_some(),
        "moves": if step == Step::Move { moves(table, player) } else { Vec::new() },
        "battles": if step == Step::Battle { battles(table, player) } else { Vec::new() },
        "opportunity": opportunity.filter(|_| page_action(json!({"action": "use_opportunity"})).and_then(|a| allowed(table, player, a)).is_some()).map(|c| c.0),
        "special_rule": special_rule,
        "choices": choices,
        "recover": recover,
        "trade": trade,
        "buy": buy,
        "sell": sell,
        "repair": repair,
        "certificate": certificate,
        "end_turn": allowed(table, player, Action::EndTurn).is_some(),
    })
}

fn last_battle_json(table: &Table) -> Value {
    match &table.last_battle {
        Some(BoardEvent::BattleFought {
            player,
            card,
            kind,
            magic_paid,
            rolls,
            outcome,
            items,
            ..
        }) => json!({
            "player": player.0,
            "card": card.0,
            "kind": kind,
            "magic_paid": magic_paid,
            "rolls": rolls,
            "outcome": outcome.to_string(),
            "items": items.iter().map(|i| i.0).collect::<Vec<u32>>(),
        }),
        _ => Value::Null,
    }
}

fn ranking_json(ranking: &Ranking) -> Value {
    Value::Array(
        ranking
            .0
            .iter()
            .map(|(p, n)| json!({"player": p.0, "certificates": n}))
            .collect(),
    )
}

/// What every page sees: the lobby, the board with its face-up cards, every adventurer, the
/// decks' sizes (never their order), the last Chance card and battle, what the current player
/// may do now with the exact odds of every battle, and the result.
fn view(table: &Table, creator: u32) -> Value {
    let game = &table.game;
    let (phase, turn, winner, ranking) = match &game.phase {
        Phase::NotSetUp => ("lobby", None, None, Value::Null),
        Phase::Playing(turn) => ("playing", Some(*turn), None, Value::Null),
        Phase::Won { winner, ranking } => ("won", None, Some(winner.0), ranking_json(ranking)),
        Phase::Ended { ranking } => ("ended", None, None, ranking_json(ranking)),
    };
    let spaces: Vec<Value> = game
        .spaces
        .iter()
        .map(|s| {
            json!({
                "adventure": s.adventure.map(|c| c.0),
                "items": s.items.iter().map(|i| i.0).collect::<Vec<u32>>(),
            })
        })
        .collect();
    let deck = |draw: usize, discard: usize| json!({"draw": draw, "discard": discard});
    json!({
        "game": BoardGame::KIND,
        "phase": phase,
        "creator": creator,
        "seats": table.seats.iter().map(|s| json!({"player": s.player, "name": s.name, "bot": s.bot})).collect::<Vec<Value>>(),
        "players": PLAYERS.start(),
        "max_players": PLAYERS.end(),
        "turn": turn.map(|t| json!({
            "player": t.player.0,
            "step": step_name(t.step),
            "extra": t.extra,
            "number": table.turns,
        })),
        "adventurers": game.adventurers.iter().map(|a| adventurer_json(table, a)).collect::<Vec<Value>>(),
        "turns_played": table.turns,
        "spaces": spaces,
        "decks": {
            "adventure": deck(game.decks.adventure.draw.len(), game.decks.adventure.discard.len()),
            "chance": deck(game.decks.chance.draw.len(), game.decks.chance.discard.len()),
            "common_items": deck(game.decks.common_items.draw.len(), game.decks.common_items.discard.len()),
            "rare_items": deck(game.decks.rare_items.draw.len(), game.decks.rare_items.discard.len()),
        },
        "last_chance": table.last_chance.map(|(p, c)| json!({"player": p.0, "card": c.0})),
        "last_battle": last_battle_json(table),
        "options": turn.map_or(Value::Null, |t| options(table, t.player, t.step)),
        "winner": winner,
        "ranking": ranking,
    })
}

/// The static content every board-game page needs once: the board, characters and cards by
/// id (served over HTTP, not in every view).
fn content_json() -> Value {
    let content = &**CONTENT;
    let kind = |k: SpaceKind| -> Value { serde_json::to_value(k).unwrap_or(Value::Null) };
    let stats = |s: CreatureStats| match s {
        CreatureStats::Strength(v) => json!({"strength": v}),
        CreatureStats::Willpower(v) => json!({"willpower": v}),
        CreatureStats::StrengthThenWillpower {
            strength,
            willpower,
        } => json!({"strength": strength, "willpower": willpower, "first": "strength"}),
        CreatureStats::WillpowerThenStrength {
            willpower,
            strength,
        } => json!({"strength": strength, "willpower": willpower, "first": "willpower"}),
    };
    let effects = |effects: &[Effect]| -> Vec<String> {
        effects
            .iter()
            .map(|e| effect_words(*e, e.amount().unwrap_or(1)))
            .collect()
    };
    json!({
        "board": content.board.spaces.iter().enumerate().map(|(i, s)| json!({
            "id": i,
            "name": s.name,
            "kind": kind(s.kind),
            "port": s.port,
            "magic_gate": s.magic_gate,
            "guild": match s.kind { SpaceKind::Guild(g) => serde_json::to_value(g).unwrap_or(Value::Null), _ => Value::Null },
        })).collect::<Vec<Value>>(),
        "guilds": Guild::ALL.iter().map(|g| json!({"guild": g, "name": guild_name(*g)})).collect::<Vec<Value>>(),
        "characters": content.characters.iter().enumerate().map(|(i, c)| json!({
            "id": i, "name": c.name, "strength": c.strength, "willpower": c.willpower, "guilds": c.guilds,
        })).collect::<Vec<Value>>(),
        "adventures": content.adventures.iter().enumerate().map(|(i, card)| match card {
            AdventureCard::Creature(c) => json!({
                "id": i,
                "kind": "creature",
                "name": c.name,
                "stats": stats(c.stats),
                "experience": c.experience,
                "treasure": effects(&c.treasure),
                "on_loss": effects(c.loss_effects()),
                "three_lives": c.three_lives,
                "special": c.special.as_ref().map(|r| json!({"mandatory": r.mandatory(), "text": r.text})),
            }),
            AdventureCard::Opportunity(o) => json!({
                "id": i,
                "kind": "opportunity",
                "name": o.name,
                "text": o.text,
                "effects": effects(&o.effects),
            }),
        }).collect::<Vec<Value>>(),
        "chance": content.chance.iter().enumerate().map(|(i, c)| json!({
            "id": i, "name": c.name, "kind": c.kind, "copies": c.copies,
        })).collect::<Vec<Value>>(),
        "items": content.items.iter().enumerate().map(|(i, item)| json!({
            "id": i,
            "name": item.name,
            "cost": item.cost,
            "rarity": item.rarity,
            "slot": slot_name(item.slot),
            "thrown": matches!(item.slot, Slot::Weapon { thrown: true, .. }),
            "strength_bonus": item.strength_bonus,
            "willpower_bonus": item.willpower_bonus,
        })).collect::<Vec<Value>>(),
    })
}

fn slot_name(slot: Slot) -> &'static str {
    match slot {
        Slot::Weapon {
            hands: board::content::Hands::Two,
            ..
        } => "two-handed weapon",
        Slot::Weapon { .. } => "weapon",
        Slot::Shield => "shield",
        Slot::HandItem => "hand item",
        Slot::Headwear => "headwear",
        Slot::Other => "other",
    }
}

// ---------------------------------------------------------------------------------------------
// The export
// ---------------------------------------------------------------------------------------------

/// The game as Markdown. Every name in it is the players' text, escaped
/// ([`crate::text::markdown`]); the log's lines name players too, so each is escaped whole.
fn markdown(table: &Table) -> (String, String) {
    use crate::text::markdown as escaped;
    let game = &table.game;
    let content = &game.content;
    let title = "Prophecy, the board game".to_owned();
    let mut out = format!("# {title}\n\n");
    match &game.phase {
        Phase::NotSetUp => out.push_str("The game has not begun.\n\n"),
        Phase::Playing(_) => out.push_str(&format!("In play: turn {}.\n\n", table.turns)),
        Phase::Won { winner, ranking } => out.push_str(&format!(
            "**{} won** after {} turns. Ranking: {}.\n\n",
            escaped(&table.name(*winner)),
            table.turns,
            escaped(&ranking_words(table, ranking))
        )),
        Phase::Ended { ranking } => out.push_str(&format!(
            "Every adventurer died after {} turns. Ranking: {}.\n\n",
            table.turns,
            escaped(&ranking_words(table, ranking))
        )),
    }
    if !game.adventurers.is_empty() {
        out.push_str("## The adventurers\n\n");
        for a in game.adventurers.iter() {
            let character = content
                .characters
                .get(a.character.index())
                .map_or_else(|| "?".to_owned(), |c| escaped(&c.name));
            let certificates: Vec<String> = a
                .certificates
                .iter()
                .map(|c| escaped(guild_name(c.0)))
                .collect();
            let items: Vec<String> = a
                .items
                .iter()
                .map(|i| escaped(&item_name(content, *i)))
                .collect();
            out.push_str(&format!(
                "- **{}** ({character}{}): {}, {}, Strength {}, Willpower {}; Certificates: {}; Items: {}.\n",
                escaped(&a.name),
                if a.alive { "" } else { ", dead" },
                plural(a.gold.0, "Gold", "Gold"),
                plural(a.experience.0, "Experience", "Experience"),
                a.health.right,
                a.magic.right,
                if certificates.is_empty() { "none".into() } else { list(&certificates) },
                if items.is_empty() { "none".into() } else { list(&items) },
            ));
        }
        out.push('\n');
    }
    if !table.chronicle.is_empty() {
        out.push_str("## The game, move by move\n\n");
        for line in &table.chronicle {
            out.push_str("- ");
            out.push_str(&escaped(line));
            out.push('\n');
        }
    }
    (title, out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The number of bots, as a script sends it or as a form does (text), seats that many.
    #[test]
    fn bots_are_read_from_a_number_or_a_forms_text() {
        let seated = |bots: Value| {
            BoardGame::open(&json!({ "bots": bots, "creator": "Ada" }))
                .map(|events| events.len())
                .map_err(|e| format!("{e:?}"))
        };
        let one = seated(json!(1)).unwrap();
        assert!(one > 0);
        assert_eq!(seated(json!("1")), Ok(one));
        assert_eq!(seated(json!(" 3 ")), Ok(3 * one));
        assert_eq!(seated(json!("")), Ok(0));
        assert_eq!(seated(Value::Null), Ok(0));
        for wrong in [json!("5"), json!(5), json!("two"), json!(-1)] {
            let refused = seated(wrong.clone()).unwrap_err();
            assert!(
                refused.contains("bots is a number of bots from 0 to 4"),
                "{wrong}: {refused}"
            );
        }
    }

    /// Against a Creature that asks for a Battle of Wills and then one of Strength, the battle
    /// offered names both: its own values and the second battle's (the odds are of both).
    #[test]
    fn a_two_stage_battle_offers_both_battles_values() {
        let mut table = Table::default();
        let context = Context { now: 0, seed: 3 };
        let joined = BoardGame::join(&table, 1, "Ada").unwrap();
        table = joined.iter().fold(table, BoardGame::evolve);
        for action in ["add_bot", "start"] {
            let events = BoardGame::act(&table, 1, &json!({ "action": action }), &context);
            table = events.unwrap().iter().fold(table, BoardGame::evolve);
        }
        let content = Arc::clone(&table.game.content);
        let priest = (content.adventures.iter())
            .position(|c| c.name() == "Drowned Priest")
            .map(AdventureId::of)
            .unwrap();
        let player = PlayerId(1);
        let at = table.game.adventurer(player).unwrap().space;
        table.game.spaces[at.index()].adventure = Some(priest);
        let battles: Vec<Value> = (battle_choices(&table.game, player).into_iter())
            .map(|(_, b)| b)
            .filter(|b| b["items"].as_array().is_some_and(Vec::is_empty))
            .collect();
        assert_eq!(battles.len(), 1, "{battles:?}");
        let wills = &battles[0];
        assert_eq!(wills["kind"], "wills");
        assert_eq!(wills["theirs"], 5);
        assert_eq!(wills["then"]["theirs"], 3, "{wills}");
        assert!(wills["then"]["yours"].as_i64().unwrap() > 0);
    }
}
