//! What the table layer needs from a game. The table (seats, rooms, sockets, storage) is
//! written against this trait only; each game type adapts its pure rules crate to it (see
//! `games/`). Later game types join the same server by implementing it.

use serde_json::Value;

/// What the server puts into every command, because players must not choose it.
#[derive(Debug, Clone, Copy)]
pub struct Context {
    /// Now, in milliseconds since the epoch (the server's clock).
    pub now: i64,
    /// A fresh seed from the operating system, for any dice the command rolls.
    pub seed: u64,
}

/// Why an action was not taken.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rejection {
    /// The message itself was wrong (unknown action, missing field, bad JSON): a client bug
    /// or a hand-made request.
    Malformed(String),
    /// The rules refused it.
    Refused {
        /// A stable name of the refusal, for pages that react to one in particular.
        code: String,
        /// The rule that refused (its section name).
        rule: String,
        /// Why, for the player.
        message: String,
    },
}

/// A game the web table can host.
pub trait Game: Send + Sync + 'static {
    /// The name stored with each table (`tables.game`).
    const KIND: &'static str;
    /// The page (an embedded asset) that plays it.
    const PAGE: &'static str = "table.html";
    /// The state every event folds into.
    type State: Default + Send + Sync + 'static;
    /// What happened; stored one per log row.
    type Event: Clone + Send + Sync + 'static;

    /// The first events of a new table from the creation form's settings (e.g. the ruleset).
    fn open(settings: &Value) -> Result<Vec<Self::Event>, Rejection>;
    /// A newcomer takes a seat.
    fn join(state: &Self::State, player: u32, name: &str) -> Result<Vec<Self::Event>, Rejection>;
    /// The table's creator removes a player.
    fn remove(state: &Self::State, player: u32) -> Result<Vec<Self::Event>, Rejection>;
    /// A player's action, as sent by the page.
    fn act(
        state: &Self::State,
        player: u32,
        action: &Value,
        context: &Context,
    ) -> Result<Vec<Self::Event>, Rejection>;
    /// Applies one event.
    fn evolve(state: Self::State, event: &Self::Event) -> Self::State;

    /// The stored text of an event.
    fn encode(event: &Self::Event) -> String;
    /// Reads a stored event.
    fn decode(body: &str) -> Result<Self::Event, String>;
    /// Events that must not record who caused them (the anonymous flag).
    fn anonymous(event: &Self::Event) -> bool;

    /// One line for the table's log, from the state before the event.
    fn describe(before: &Self::State, event: &Self::Event) -> String;
    /// What the players see (flagged text left out). The same for everyone, so it is built and
    /// serialized once per change; each page knows which player it is.
    fn view(state: &Self::State, creator: u32) -> Value;
    /// What only `player` may know: their own anonymous doings (the lines they drew, whether
    /// the pause is theirs). Sent to that player's pages alone, beside the shared view.
    fn own(_state: &Self::State, _player: u32) -> Value {
        Value::Null
    }
    /// What the game's page needs once and never changes (a board, the cards by id), served
    /// at `/games/{KIND}/content.json` with caching; `None` if it needs nothing.
    fn content() -> Option<Value> {
        None
    }
    /// The seat a bot plays that must act now, if any: the room then calls [`Game::bot_act`]
    /// for it after a short pause, so people can follow its moves.
    fn bot(_state: &Self::State) -> Option<u32> {
        None
    }
    /// The bot playing `player` acts: the events of its next action, chosen by the game's
    /// rules crate and decided like anyone's.
    fn bot_act(
        _state: &Self::State,
        _player: u32,
        _context: &Context,
    ) -> Result<Vec<Self::Event>, Rejection> {
        Err(Rejection::Malformed("this game has no bots".into()))
    }
    /// The story so far as Markdown, and its title.
    fn markdown(state: &Self::State) -> (String, String);
    /// The log as a seated player may download it (the game file that `prophecy export` reads):
    /// every text a player may not see (flagged) left out.
    fn for_players(log: Vec<Self::Event>) -> Vec<Self::Event>;
}
