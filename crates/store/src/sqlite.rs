//! The embedded store: one SQLite file.

use crate::{Append, EventRow, Result, Seat, Store, StoreError, TableId, TableRecord};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::{Connection, Row, SqlitePool};
use std::path::Path;
use std::time::Duration;

/// Tables in a SQLite file. Cloning is cheap (pools are shared).
#[derive(Debug, Clone)]
pub struct SqliteStore {
    /// One connection: SQLite has one writer at a time, so writes queue here rather than
    /// failing with "database is locked".
    writer: SqlitePool,
    /// Readers run beside the writer thanks to WAL.
    reader: SqlitePool,
}

impl SqliteStore {
    /// Opens (creating if needed) the database file and brings its schema up to date.
    pub async fn open(path: &Path) -> Result<SqliteStore> {
        let options = SqliteConnectOptions::new()
            .filename(path)
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            // FULL: a commit is on disk before the server broadcasts it, even across a power
            // cut, not just a crash of the process.
            .synchronous(SqliteSynchronous::Full)
            .busy_timeout(Duration::from_secs(5))
            .foreign_keys(true);
        let open_error = |e: sqlx::Error| {
            StoreError::Open(format!("cannot open the database {}: {e}", path.display()))
        };
        let writer = SqlitePoolOptions::new()
            .max_connections(1)
            .connect_with(options.clone())
            .await
            .map_err(open_error)?;
        sqlx::migrate!("./migrations/sqlite")
            .run(&writer)
            .await
            .map_err(|e| {
                StoreError::Open(format!(
                    "cannot prepare the database {}: {e}",
                    path.display()
                ))
            })?;
        let reader = SqlitePoolOptions::new()
            .max_connections(4)
            .connect_with(options.read_only(true))
            .await
            .map_err(open_error)?;
        Ok(SqliteStore { writer, reader })
    }

    /// Closes both pools, waiting for work in flight.
    pub async fn close(&self) {
        self.writer.close().await;
        self.reader.close().await;
    }
}

impl Store for SqliteStore {
    async fn create_table(&self, token: &str, game: &str, now: i64) -> Result<TableId> {
        let row = sqlx::query(
            "INSERT INTO tables (token, game, created_at) VALUES (?, ?, ?) RETURNING id",
        )
        .bind(token)
        .bind(game)
        .bind(now)
        .fetch_one(&self.writer)
        .await?;
        Ok(TableId(row.get(0)))
    }

    async fn table_by_token(&self, token: &str) -> Result<Option<TableRecord>> {
        let row = sqlx::query("SELECT id, game, created_at FROM tables WHERE token = ?")
            .bind(token)
            .fetch_optional(&self.reader)
            .await?;
        Ok(row.map(|r| TableRecord {
            id: TableId(r.get(0)),
            game: r.get(1),
            created_at: r.get(2),
        }))
    }

    async fn seat_by_secret(&self, table: TableId, secret_hash: &[u8]) -> Result<Option<Seat>> {
        let row = sqlx::query("SELECT player, name, creator, removed FROM seats WHERE table_id = ? AND secret_hash = ?")
            .bind(table.0)
            .bind(secret_hash)
            .fetch_optional(&self.reader)
            .await?;
        Ok(row.map(|r| seat(&r)))
    }

    async fn seats(&self, table: TableId) -> Result<Vec<Seat>> {
        let rows = sqlx::query(
            "SELECT player, name, creator, removed FROM seats WHERE table_id = ? ORDER BY player",
        )
        .bind(table.0)
        .fetch_all(&self.reader)
        .await?;
        Ok(rows.iter().map(seat).collect())
    }

    async fn append(&self, table: TableId, after: u64, append: Append) -> Result<u64> {
        let mut connection = self.writer.acquire().await?;
        // IMMEDIATE takes the write lock at once, so the check of the last seq and the insert
        // cannot interleave with another writer.
        let mut tx = connection.begin_with("BEGIN IMMEDIATE").await?;
        let last: i64 = sqlx::query("SELECT COALESCE(MAX(seq), 0) FROM events WHERE table_id = ?")
            .bind(table.0)
            .fetch_one(&mut *tx)
            .await?
            .get(0);
        if last as u64 != after {
            return Err(StoreError::Conflict);
        }
        if let Some(seat) = &append.new_seat {
            sqlx::query("INSERT INTO seats (table_id, player, name, secret_hash, creator) VALUES (?, ?, ?, ?, ?)")
                .bind(table.0)
                .bind(i64::from(seat.player))
                .bind(&seat.name)
                .bind(&seat.secret_hash)
                .bind(seat.creator)
                .execute(&mut *tx)
                .await?;
        }
        if let Some(player) = append.remove_seat {
            sqlx::query("UPDATE seats SET removed = 1 WHERE table_id = ? AND player = ?")
                .bind(table.0)
                .bind(i64::from(player))
                .execute(&mut *tx)
                .await?;
        }
        let mut seq = after;
        for event in &append.events {
            seq += 1;
            sqlx::query(
                "INSERT INTO events (table_id, seq, at, player, body) VALUES (?, ?, ?, ?, ?)",
            )
            .bind(table.0)
            .bind(seq as i64)
            .bind(event.at)
            .bind(event.player.map(i64::from))
            .bind(&event.body)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(seq)
    }

    async fn events_after(&self, table: TableId, after: u64) -> Result<Vec<EventRow>> {
        let rows = sqlx::query(
            "SELECT seq, at, player, body FROM events WHERE table_id = ? AND seq > ? ORDER BY seq",
        )
        .bind(table.0)
        .bind(after as i64)
        .fetch_all(&self.reader)
        .await?;
        Ok(rows
            .iter()
            .map(|r| EventRow {
                seq: r.get::<i64, _>(0) as u64,
                at: r.get(1),
                player: r.get::<Option<i64>, _>(2).map(|p| p as u32),
                body: r.get(3),
            })
            .collect())
    }
}

fn seat(r: &sqlx::sqlite::SqliteRow) -> Seat {
    Seat {
        player: r.get::<i64, _>(0) as u32,
        name: r.get(1),
        creator: r.get(2),
        removed: r.get(3),
    }
}
