//! The hosted store: a PostgreSQL database, for many tables and several servers.
//!
//! Every server on the same database sees the same tables. The log's order is the database's:
//! an append names the last seq its writer saw, and two writers that saw the same one cannot
//! both add the next (the primary key `(table_id, seq)`): the loser gets
//! [`StoreError::Conflict`], reloads and decides again.

use crate::{Append, EventRow, Result, Seat, Store, StoreError, TableId, TableRecord};
use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions, PgRow};
use sqlx::{Connection, Postgres, Row, Transaction};
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Mutex;

/// Tables in a PostgreSQL database. Cloning is cheap (the pool is shared).
#[derive(Debug, Clone)]
pub struct PgStore {
    pool: PgPool,
    /// The connection holding the database for one server ([`PgStore::hold`]), if taken.
    holder: Arc<Mutex<Option<sqlx::PgConnection>>>,
    shown: String,
    options: PgConnectOptions,
}

/// The advisory lock a serving server holds on its database ("prophecy" in ASCII).
const SERVER_LOCK: i64 = 0x70726f7068656379;

/// Connections one server keeps to the database.
const CONNECTIONS: u32 = 16;

impl PgStore {
    /// Connects to the database at `url` (`postgres://USER@HOST:PORT/DB`) and brings its schema
    /// up to date (the migrations in `migrations/postgres`, run once however many servers
    /// start at the same time: sqlx takes PostgreSQL's advisory lock for them).
    pub async fn open(url: &str) -> Result<PgStore> {
        let shown = describe(url);
        let options = PgConnectOptions::from_str(url).map_err(|e| {
            StoreError::Open(format!(
                "{shown} is not a PostgreSQL address ({}); give one such as postgres://prophecy@127.0.0.1:5432/prophecy",
                one_line(&e.to_string())
            ))
        })?;
        let unreachable = |e: sqlx::Error| {
            StoreError::Open(format!(
                "cannot reach the database {shown}: {}",
                one_line(&e.to_string())
            ))
        };
        // One connection first: a wrong address fails at once, not after the pool's retries.
        sqlx::PgConnection::connect_with(&options)
            .await
            .map_err(unreachable)?
            .close()
            .await
            .map_err(unreachable)?;
        let pool = PgPoolOptions::new()
            .max_connections(CONNECTIONS)
            .acquire_timeout(Duration::from_secs(10))
            .connect_with(options.clone())
            .await
            .map_err(unreachable)?;
        sqlx::migrate!("./migrations/postgres")
            .run(&pool)
            .await
            .map_err(|e| {
                StoreError::Open(format!(
                    "cannot prepare the database {shown}: {}",
                    one_line(&e.to_string())
                ))
            })?;
        Ok(PgStore {
            pool,
            holder: Arc::new(Mutex::new(None)),
            shown,
            options,
        })
    }

    /// Holds the database for this server until [`PgStore::close`], with a session advisory
    /// lock: a second `prophecy serve` on it is refused (`InUse`), as with a SQLite file. Its
    /// rooms would not hear of the first one's actions (servers do not notify each other yet).
    pub async fn hold(&self) -> Result<()> {
        let shown = &self.shown;
        let mut connection = sqlx::PgConnection::connect_with(&self.options)
            .await
            .map_err(|e| {
                StoreError::Open(format!(
                    "cannot reach the database {shown}: {}",
                    one_line(&e.to_string())
                ))
            })?;
        let held: bool = sqlx::query_scalar("SELECT pg_try_advisory_lock($1)")
            .bind(SERVER_LOCK)
            .fetch_one(&mut connection)
            .await?;
        if !held {
            let _ = connection.close().await;
            return Err(StoreError::InUse(format!(
                "the database {shown} is in use by another prophecy serve; stop that one first, or give another --db"
            )));
        }
        *self.holder.lock().await = Some(connection);
        Ok(())
    }

    /// Closes every connection (and lets the database go); later calls fail.
    pub async fn close(&self) {
        if let Some(connection) = self.holder.lock().await.take() {
            let _ = connection.close().await;
        }
        self.pool.close().await;
    }
}

/// The database an address names, for messages: host, port and database, never a password.
pub fn describe(url: &str) -> String {
    match PgConnectOptions::from_str(url) {
        Ok(options) => format!(
            "postgres://{}:{}/{}",
            options.get_host(),
            options.get_port(),
            options.get_database().unwrap_or_default()
        ),
        Err(_) => "that PostgreSQL address".to_owned(),
    }
}

fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A column of a row, or `Damaged` naming it.
fn column<'r, T>(row: &'r PgRow, index: usize, what: &str) -> Result<T>
where
    T: sqlx::Decode<'r, Postgres> + sqlx::Type<Postgres>,
{
    row.try_get(index).map_err(|e| {
        StoreError::Damaged(format!(
            "a stored {what} cannot be read ({})",
            one_line(&e.to_string())
        ))
    })
}

fn out_of_range(what: &str, field: &str) -> StoreError {
    StoreError::Damaged(format!(
        "a stored {what} cannot be read ({field} is out of range)"
    ))
}

fn seat(r: &PgRow) -> Result<Seat> {
    let player: i64 = column(r, 0, "seat")?;
    Ok(Seat {
        player: u32::try_from(player).map_err(|_| out_of_range("seat", "its player"))?,
        name: column(r, 1, "seat")?,
        creator: column(r, 2, "seat")?,
        removed: column(r, 3, "seat")?,
    })
}

impl Store for PgStore {
    async fn create_table(
        &self,
        token: &str,
        game: &str,
        now: i64,
        invite: &str,
    ) -> Result<TableId> {
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO tables (token, game, created_at, invite) VALUES ($1, $2, $3, $4) RETURNING id",
        )
        .bind(token)
        .bind(game)
        .bind(now)
        .bind(invite)
        .fetch_one(&self.pool)
        .await?;
        Ok(TableId(id))
    }

    async fn set_invite(&self, table: TableId, invite: Option<&str>) -> Result<()> {
        sqlx::query("UPDATE tables SET invite = $1 WHERE id = $2")
            .bind(invite)
            .bind(table.0)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    async fn table_by_token(&self, token: &str) -> Result<Option<TableRecord>> {
        let row = sqlx::query("SELECT id, game, created_at, invite FROM tables WHERE token = $1")
            .bind(token)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| {
            Ok(TableRecord {
                id: TableId(column(&r, 0, "table")?),
                game: column(&r, 1, "table")?,
                created_at: column(&r, 2, "table")?,
                invite: column(&r, 3, "table")?,
            })
        })
        .transpose()
    }

    async fn seat_by_secret(&self, table: TableId, secret_hash: &[u8]) -> Result<Option<Seat>> {
        let row = sqlx::query(
            "SELECT player, name, creator, removed FROM seats WHERE table_id = $1 AND secret_hash = $2",
        )
        .bind(table.0)
        .bind(secret_hash)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(seat).transpose()
    }

    async fn seats(&self, table: TableId) -> Result<Vec<Seat>> {
        let rows = sqlx::query(
            "SELECT player, name, creator, removed FROM seats WHERE table_id = $1 ORDER BY player",
        )
        .bind(table.0)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(seat).collect()
    }

    async fn append(&self, table: TableId, after: u64, append: Append) -> Result<u64> {
        let mut tx = self.pool.begin().await?;
        let seq = append_in(&mut tx, table, after, &append).await?;
        tx.commit().await?;
        Ok(seq)
    }

    async fn events_after(&self, table: TableId, after: u64) -> Result<Vec<EventRow>> {
        let after = i64::try_from(after).map_err(|_| out_of_range("event", "its number"))?;
        let rows = sqlx::query(
            "SELECT seq, at, player, body FROM events WHERE table_id = $1 AND seq > $2 ORDER BY seq",
        )
        .bind(table.0)
        .bind(after)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                let seq: i64 = column(r, 0, "event")?;
                let player: Option<i64> = column(r, 2, "event")?;
                let player = player
                    .map(|p| u32::try_from(p).map_err(|_| out_of_range("event", "its player")))
                    .transpose()?;
                Ok(EventRow {
                    seq: u64::try_from(seq).map_err(|_| out_of_range("event", "its number"))?,
                    at: column(r, 1, "event")?,
                    player,
                    body: column(r, 3, "event")?,
                })
            })
            .collect()
    }
}

/// The events and seat changes of one append, inside its transaction. A writer that did not
/// see the last event is refused here; two that saw the same one meet at the primary key,
/// which fails the later commit's insert (a unique violation, so a `Conflict`).
async fn append_in(
    tx: &mut Transaction<'_, Postgres>,
    table: TableId,
    after: u64,
    append: &Append,
) -> Result<u64> {
    let last: i64 =
        sqlx::query_scalar("SELECT COALESCE(MAX(seq), 0) FROM events WHERE table_id = $1")
            .bind(table.0)
            .fetch_one(&mut **tx)
            .await?;
    if u64::try_from(last).ok() != Some(after) {
        return Err(StoreError::Conflict);
    }
    if let Some(seat) = &append.new_seat {
        sqlx::query(
            "INSERT INTO seats (table_id, player, name, secret_hash, creator) VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(table.0)
        .bind(i64::from(seat.player))
        .bind(&seat.name)
        .bind(&seat.secret_hash)
        .bind(seat.creator)
        .execute(&mut **tx)
        .await?;
    }
    if let Some(player) = append.remove_seat {
        sqlx::query("UPDATE seats SET removed = TRUE WHERE table_id = $1 AND player = $2")
            .bind(table.0)
            .bind(i64::from(player))
            .execute(&mut **tx)
            .await?;
    }
    let mut seq = after;
    for event in &append.events {
        seq += 1;
        sqlx::query(
            "INSERT INTO events (table_id, seq, at, player, body) VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(table.0)
        .bind(i64::try_from(seq).map_err(|_| out_of_range("event", "its number"))?)
        .bind(event.at)
        .bind(event.player.map(i64::from))
        .bind(&event.body)
        .execute(&mut **tx)
        .await?;
    }
    Ok(seq)
}
