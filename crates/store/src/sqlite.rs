//! The embedded store: one SQLite file.

use crate::{Append, EventRow, Result, Seat, Store, StoreError, TableId, TableRecord};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::{Connection, Row, SqliteConnection, SqlitePool};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{Mutex, mpsc, oneshot};

/// Tables in a SQLite file. Cloning is cheap (the writer and the pool are shared).
#[derive(Debug, Clone)]
pub struct SqliteStore {
    /// The one writer: SQLite has one writer at a time, so every write is queued to a single
    /// task that owns the only writing connection.
    writes: mpsc::Sender<Write>,
    /// The writer task, awaited by the first `close`.
    writer: Arc<Mutex<Option<tokio::task::JoinHandle<()>>>>,
    /// Readers run beside the writer thanks to WAL.
    reader: SqlitePool,
}

/// Writes waiting for the writer task.
enum Write {
    CreateTable {
        token: String,
        game: String,
        now: i64,
        reply: oneshot::Sender<Result<TableId>>,
    },
    Append {
        table: TableId,
        after: u64,
        append: Append,
        reply: oneshot::Sender<Result<u64>>,
    },
    /// Finish what is queued before it, then stop.
    Close,
}

/// Writes committed together (one fsync for all): under load, many tables' actions share a
/// transaction instead of queueing for one each.
const GROUP_COMMIT: usize = 64;

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
        let mut connection = SqliteConnection::connect_with(&options)
            .await
            .map_err(open_error)?;
        sqlx::migrate!("./migrations/sqlite")
            .run(&mut connection)
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
        let (writes, queue) = mpsc::channel(1024);
        let writer = tokio::spawn(write_loop(connection, queue));
        Ok(SqliteStore {
            writes,
            writer: Arc::new(Mutex::new(Some(writer))),
            reader,
        })
    }

    /// Closes the store for every clone: the writes queued so far are committed first; later
    /// ones fail with "the database is closed".
    pub async fn close(&self) {
        if let Some(task) = self.writer.lock().await.take() {
            let _ = self.writes.send(Write::Close).await;
            let _ = task.await;
        }
        self.reader.close().await;
    }

    async fn write<T>(&self, job: impl FnOnce(oneshot::Sender<Result<T>>) -> Write) -> Result<T> {
        let (reply, answer) = oneshot::channel();
        self.writes
            .send(job(reply))
            .await
            .map_err(|_| StoreError::Open("the database is closed".into()))?;
        answer
            .await
            .map_err(|_| StoreError::Open("the database writer stopped".into()))?
    }
}

impl Store for SqliteStore {
    async fn create_table(&self, token: &str, game: &str, now: i64) -> Result<TableId> {
        let (token, game) = (token.to_owned(), game.to_owned());
        self.write(|reply| Write::CreateTable {
            token,
            game,
            now,
            reply,
        })
        .await
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
        self.write(|reply| Write::Append {
            table,
            after,
            append,
            reply,
        })
        .await
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

/// The writer task: takes what is queued (up to `GROUP_COMMIT`), runs each write in its own
/// savepoint inside one `BEGIN IMMEDIATE` transaction, commits once, then answers each.
async fn write_loop(mut connection: SqliteConnection, mut queue: mpsc::Receiver<Write>) {
    let mut batch = Vec::with_capacity(GROUP_COMMIT);
    let mut open = true;
    while open && queue.recv_many(&mut batch, GROUP_COMMIT).await > 0 {
        if let Some(close) = batch.iter().position(|w| matches!(w, Write::Close)) {
            // Writes queued after the close are dropped: their senders hear "closed".
            batch.truncate(close);
            open = false;
        }
        let outcome = write_batch(&mut connection, &mut batch).await;
        for (write, result) in batch.drain(..).zip(outcome) {
            match write {
                Write::CreateTable { reply, .. } => {
                    let _ = reply.send(result.map(TableId));
                }
                Write::Append { reply, .. } => {
                    let _ = reply.send(result.map(|seq| seq as u64));
                }
                Write::Close => {}
            }
        }
    }
    queue.close();
    let _ = connection.close().await;
}

/// One result per write: the new table's id or the new last seq; a failed commit fails all.
async fn write_batch(connection: &mut SqliteConnection, batch: &mut [Write]) -> Vec<Result<i64>> {
    if batch.is_empty() {
        return Vec::new();
    }
    let fail_all = |e: &sqlx::Error, n: usize| -> Vec<Result<i64>> {
        (0..n)
            .map(|_| {
                Err(StoreError::Open(format!(
                    "the database could not save: {e}"
                )))
            })
            .collect()
    };
    let mut tx = match connection.begin_with("BEGIN IMMEDIATE").await {
        Ok(tx) => tx,
        Err(e) => return fail_all(&e, batch.len()),
    };
    let mut results = Vec::with_capacity(batch.len());
    for write in batch.iter_mut() {
        // A savepoint per write: one table's conflict does not undo another's write.
        let mut savepoint = match tx.begin().await {
            Ok(savepoint) => savepoint,
            Err(e) => return fail_all(&e, batch.len()),
        };
        let result = match write {
            Write::CreateTable {
                token, game, now, ..
            } => sqlx::query(
                "INSERT INTO tables (token, game, created_at) VALUES (?, ?, ?) RETURNING id",
            )
            .bind(&*token)
            .bind(&*game)
            .bind(*now)
            .fetch_one(&mut *savepoint)
            .await
            .map(|row| row.get::<i64, _>(0))
            .map_err(StoreError::from),
            Write::Append {
                table,
                after,
                append,
                ..
            } => append_in(&mut savepoint, *table, *after, append)
                .await
                .map(|seq| seq as i64),
            Write::Close => Ok(0),
        };
        let kept = match &result {
            Ok(_) => savepoint.commit().await,
            Err(_) => savepoint.rollback().await,
        };
        if let Err(e) = kept {
            return fail_all(&e, batch.len());
        }
        results.push(result);
    }
    match tx.commit().await {
        Ok(()) => results,
        Err(e) => fail_all(&e, batch.len()),
    }
}

async fn append_in(
    tx: &mut SqliteConnection,
    table: TableId,
    after: u64,
    append: &Append,
) -> Result<u64> {
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
        sqlx::query("INSERT INTO events (table_id, seq, at, player, body) VALUES (?, ?, ?, ?, ?)")
            .bind(table.0)
            .bind(seq as i64)
            .bind(event.at)
            .bind(event.player.map(i64::from))
            .bind(&event.body)
            .execute(&mut *tx)
            .await?;
    }
    Ok(seq)
}
