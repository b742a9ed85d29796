//! Where tables live: their seats (who may sit there) and their event logs.
//!
//! The log is the single source of truth: a table's state is rebuilt by replaying its events.
//! [`Store`] is the interface the web table uses; [`SqliteStore`] implements it on an embedded
//! SQLite file (WAL, one writer connection with `BEGIN IMMEDIATE`, a small reader pool), and
//! [`PgStore`] on a PostgreSQL database that several servers can share.
//! Appending names the sequence number it expects to follow, so a second writer for the same
//! table is detected as a [`StoreError::Conflict`] instead of forking the log.
//!
//! [`backup`] copies a database that a server is using, without stopping it; [`copy`] moves
//! a SQLite file's tables into PostgreSQL.
//!
//! The store knows nothing of games: event bodies are opaque text (JSON written by the game).

mod copy;
mod files;
mod group;
pub mod postgres;
mod sqlite;

pub use copy::{Check, Copied, Skipped, Verified, copy, verify};
pub use postgres::PgStore;
pub use sqlite::{SqliteStore, backup};

use std::fmt;
use std::future::Future;
use std::time::Duration;

/// A table's row id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TableId(pub i64);

/// A table as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableRecord {
    /// Its row id.
    pub id: TableId,
    /// Which game it plays (e.g. `"story"`).
    pub game: String,
    /// Milliseconds since the epoch.
    pub created_at: i64,
    /// The invitation code a newcomer's link must carry; `None` when joining is closed.
    pub invite: Option<String>,
    /// The code of the story's read-only page (`/s/CODE`); `None` unless the players published it.
    pub share: Option<String>,
    /// The code of the page that watchers follow the table on (`/w/CODE`); `None` unless the
    /// table opened one.
    pub watch: Option<String>,
    /// The name its creator gave it; `None` when they gave none (the game names it).
    pub name: Option<String>,
}

/// A read-only page of a table, for anyone holding its link: each has its own code, unguessable
/// and unlike the table's token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Link {
    /// The published story (`/s/CODE`).
    Story,
    /// The table followed live by watchers (`/w/CODE`).
    Watch,
}

/// Someone's seat at a table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seat {
    /// Their player number at this table (1 is the creator's).
    pub player: u32,
    /// The name they joined with.
    pub name: String,
    /// They created the table.
    pub creator: bool,
    /// The creator removed them; their secret no longer works.
    pub removed: bool,
}

/// A seat to add with a batch of events.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewSeat {
    /// Player number.
    pub player: u32,
    /// Name.
    pub name: String,
    /// SHA-256 of their secret.
    pub secret_hash: Vec<u8>,
    /// They created the table.
    pub creator: bool,
}

/// An event to append.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewEvent {
    /// When it was accepted (milliseconds since the epoch).
    pub at: i64,
    /// Who caused it; `None` for anonymous events (flags).
    pub player: Option<u32>,
    /// The game's serialized event.
    pub body: String,
}

/// A stored event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventRow {
    /// Its number in the table's log, from 1.
    pub seq: u64,
    /// When it was accepted.
    pub at: i64,
    /// Who caused it, if known.
    pub player: Option<u32>,
    /// The game's serialized event.
    pub body: String,
}

/// One atomic write: events, and the seat changes that go with them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Append {
    /// Events, numbered from `after + 1`.
    pub events: Vec<NewEvent>,
    /// A seat created by this write (a player joining).
    pub new_seat: Option<NewSeat>,
    /// A seat closed by this write (a player removed).
    pub remove_seat: Option<u32>,
    /// The table's new invitation code, written only while joining is open (a closed table
    /// stays closed): with a removal, so that the link the removed player has seats nobody.
    pub renew_invite: Option<String>,
}

/// What can go wrong.
#[derive(Debug)]
pub enum StoreError {
    /// Someone else appended to this table first: reload and decide again.
    Conflict,
    /// The database failed.
    Database(sqlx::Error),
    /// The database file cannot be used (path, permissions, migrations).
    Open(String),
    /// Another server holds this database file.
    InUse(String),
    /// The database is damaged: SQLite's check failed, or a row cannot be read.
    Damaged(String),
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::Conflict => f.write_str("another write to this table came first"),
            StoreError::Database(e) => write!(f, "database error: {e}"),
            StoreError::Open(message)
            | StoreError::InUse(message)
            | StoreError::Damaged(message) => f.write_str(message),
        }
    }
}

impl std::error::Error for StoreError {}

impl From<sqlx::Error> for StoreError {
    fn from(e: sqlx::Error) -> StoreError {
        match &e {
            sqlx::Error::Database(db) if db.is_unique_violation() => StoreError::Conflict,
            _ => StoreError::Database(e),
        }
    }
}

/// What a store tells its servers about writes made by others (see [`Store::changes`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// The table's log now ends at `seq`.
    Appended {
        /// The table.
        table: TableId,
        /// Its last event.
        seq: u64,
    },
    /// The table's invitation changed (renewed, closed or opened), or its story was published
    /// or withdrawn.
    Invited {
        /// The table.
        table: TableId,
    },
    /// Notices may have been lost (the connection they come on dropped): any table may have
    /// changed.
    Missed,
}

/// What a budget that the servers on one database share answers ([`Store::take_grant`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Grant {
    /// These units are the asking server's to spend.
    Granted(u32),
    /// Too little is left: the least asked for fits after this wait.
    NotUntil(Duration),
    /// More than the whole budget was asked for: never.
    Never,
}

/// The result of a store operation.
pub type Result<T> = std::result::Result<T, StoreError>;

/// The web table's storage. Implementations: [`SqliteStore`] (embedded, the default) and
/// [`PgStore`] (PostgreSQL, for hosting many tables on several machines).
pub trait Store: Clone + Send + Sync + 'static {
    /// Creates a table reachable by `token`, which newcomers join with the code `invite`,
    /// named `name` by its creator (`None`: no name).
    fn create_table(
        &self,
        token: &str,
        game: &str,
        now: i64,
        invite: &str,
        name: Option<&str>,
    ) -> impl Future<Output = Result<TableId>> + Send;

    /// Replaces the table's invitation code (`None` closes joining).
    fn set_invite(
        &self,
        table: TableId,
        invite: Option<&str>,
    ) -> impl Future<Output = Result<()>> + Send;

    /// Opens the table's read-only page `link` with the code `code`, or closes it (`None`).
    /// Told to other servers as an invitation change ([`Change::Invited`]): the pages fetch
    /// the table's links again.
    fn set_link(
        &self,
        table: TableId,
        link: Link,
        code: Option<&str>,
    ) -> impl Future<Output = Result<()>> + Send;

    /// The table whose read-only page `link` has the code `code`, and its token.
    fn table_by_link(
        &self,
        link: Link,
        code: &str,
    ) -> impl Future<Output = Result<Option<(String, TableRecord)>>> + Send;

    /// The table with this token.
    fn table_by_token(
        &self,
        token: &str,
    ) -> impl Future<Output = Result<Option<TableRecord>>> + Send;

    /// The seat whose secret hashes to `secret_hash` at this table, removed or not.
    fn seat_by_secret(
        &self,
        table: TableId,
        secret_hash: &[u8],
    ) -> impl Future<Output = Result<Option<Seat>>> + Send;

    /// Every seat at the table, in player order.
    fn seats(&self, table: TableId) -> impl Future<Output = Result<Vec<Seat>>> + Send;

    /// Appends atomically after event `after` (the last sequence number the writer has seen);
    /// returns the new last sequence number.
    fn append(
        &self,
        table: TableId,
        after: u64,
        append: Append,
    ) -> impl Future<Output = Result<u64>> + Send;

    /// Events with sequence numbers above `after`, in order.
    fn events_after(
        &self,
        table: TableId,
        after: u64,
    ) -> impl Future<Output = Result<Vec<EventRow>>> + Send;

    /// Appends made through any handle on the same database, this server's and others', as
    /// they commit; `None` for a store only one server uses (SQLite).
    fn changes(&self) -> Option<tokio::sync::broadcast::Receiver<Change>> {
        None
    }

    /// Takes from the budget of `kind` for `address` that every server on the database draws
    /// on (`per_minute` units a minute, all at once if need be) a grant of at least `least`
    /// and at most `most` units, as many as fit. Only a store that several servers share
    /// ([`Store::changes`]) keeps such budgets; any other refuses, as its server's own budgets
    /// are the whole of them.
    fn take_grant(
        &self,
        _address: &str,
        _kind: &str,
        _least: u32,
        _most: u32,
        _per_minute: u32,
    ) -> impl Future<Output = Result<Grant>> + Send {
        async {
            Err(StoreError::Open(
                "this database keeps no shared budgets".to_owned(),
            ))
        }
    }

    /// Forgets the shared budgets that are full again (none of them is spent), so that their
    /// rows do not pile up.
    fn forget_full_budgets(&self) -> impl Future<Output = Result<()>> + Send {
        async { Ok(()) }
    }
}
