//! The embedded store: one SQLite file.

use crate::{
    Append, EventRow, Link, NewEvent, Result, Seat, Store, StoreError, TableId, TableRecord,
};
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteRow, SqliteSynchronous,
};
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
    /// The database file, locked (`flock`) while this store is open: one server per file.
    lock: Arc<Mutex<Option<std::fs::File>>>,
}

/// Writes waiting for the writer task.
enum Write {
    CreateTable {
        token: String,
        game: String,
        now: i64,
        invite: String,
        name: Option<String>,
        reply: oneshot::Sender<Result<TableId>>,
    },
    SetInvite {
        table: TableId,
        invite: Option<String>,
        reply: oneshot::Sender<Result<()>>,
    },
    SetLink {
        table: TableId,
        link: Link,
        code: Option<String>,
        reply: oneshot::Sender<Result<()>>,
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

/// SQLite's result code for "file is not a database".
const SQLITE_NOTADB: &str = "26";

impl SqliteStore {
    /// Opens (creating if needed) the database file, locks it against a second server, checks
    /// it with SQLite's `integrity_check`, and brings its schema up to date.
    pub async fn open(path: &Path) -> Result<SqliteStore> {
        let shown = path.display();
        let lock = lock(path)?;
        let options = SqliteConnectOptions::new()
            .filename(path)
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            // FULL: a commit is on disk before the server broadcasts it, even across a power
            // cut, not just a crash of the process.
            .synchronous(SqliteSynchronous::Full)
            .busy_timeout(Duration::from_secs(5))
            .foreign_keys(true);
        let damaged = |e: &sqlx::Error| {
            StoreError::Damaged(format!(
                "the database {shown} is damaged or is not a Prophecy database ({}); restore it from a backup, or give another --db",
                one_line(&e.to_string())
            ))
        };
        let open_error = |e: sqlx::Error| {
            if is_not_a_database(&e) {
                damaged(&e)
            } else {
                StoreError::Open(format!(
                    "cannot open the database {shown}: {}",
                    one_line(&e.to_string())
                ))
            }
        };
        let mut connection = SqliteConnection::connect_with(&options)
            .await
            .map_err(open_error)?;
        // SQLite's own check, before anything is served from the file.
        let verdict: Vec<String> = sqlx::query_scalar("PRAGMA integrity_check")
            .fetch_all(&mut connection)
            .await
            .map_err(|e| damaged(&e))?;
        if verdict.first().map(String::as_str) != Some("ok") {
            return Err(StoreError::Damaged(format!(
                "the database {shown} is damaged (SQLite's integrity check: {}); restore it from a backup, or give another --db",
                one_line(&verdict.join("; "))
            )));
        }
        sqlx::migrate!("./migrations/sqlite")
            .run(&mut connection)
            .await
            .map_err(|e| {
                StoreError::Open(format!(
                    "cannot prepare the database {shown}: {}",
                    one_line(&e.to_string())
                ))
            })?;
        let reader = SqlitePoolOptions::new()
            .max_connections(4)
            .connect_with(options.read_only(true))
            .await
            .map_err(open_error)?;
        // Said once the file is known to be a database to serve, not before a refusal.
        if let Some(mode) = crate::files::shared(&lock) {
            tracing::warn!(
                "other users of this machine may read the database {shown} (mode {mode:o}); make it private with: chmod 600 {shown}"
            );
        }
        let (writes, queue) = mpsc::channel(1024);
        let writer = tokio::spawn(write_loop(connection, queue));
        Ok(SqliteStore {
            writes,
            writer: Arc::new(Mutex::new(Some(writer))),
            reader,
            lock: Arc::new(Mutex::new(Some(lock))),
        })
    }

    /// Closes the store for every clone: the writes queued so far are committed first; later
    /// ones fail with "the database is closed". The log is then checkpointed into the database
    /// file, so the file alone holds every table (no `-wal` file is left), and the lock is freed.
    pub async fn close(&self) {
        // Readers first: the writer's connection must be the last one open, so that its close
        // can checkpoint and remove the write-ahead log.
        self.reader.close().await;
        if let Some(task) = self.writer.lock().await.take() {
            let _ = self.writes.send(Write::Close).await;
            let _ = task.await;
        }
        self.lock.lock().await.take();
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

/// Writes a consistent copy of the database `db` to the new file `out`, while a server may be
/// serving from `db`.
///
/// The copy is SQLite's `VACUUM INTO` over a separate read-only connection: it reads one
/// snapshot (every write committed before it began, none after), does not take the server's
/// lock, never writes to `db` and never runs migrations. It is written to a hidden file beside
/// `out`, private to its owner (mode 0600), synced, then given the name `out` only if no file
/// has it yet, so `out` is either absent or complete, and of two copies made to the same new
/// name at once one is refused. The copy opens with [`SqliteStore::open`] like the original.
///
/// Refused with one line (`StoreError::Open` or `StoreError::Damaged`) when `db` is missing or
/// is not a Prophecy database, when `out` already exists (or appears while copying), or when
/// `out`'s folder does not.
pub async fn backup(db: &Path, out: &Path) -> Result<()> {
    let shown = db.display();
    if !db.exists() {
        return Err(StoreError::Open(format!(
            "there is no database {shown}; give the --db file the server uses"
        )));
    }
    if !db.is_file() {
        return Err(StoreError::Open(format!(
            "the database {shown} is not a file; give the --db file the server uses"
        )));
    }
    let tmp = backup_destination(out)?;
    let cannot_write = |e: std::io::Error| {
        StoreError::Open(format!("cannot write the copy {}: {e}", out.display()))
    };
    // Made private before SQLite writes into it (`VACUUM INTO` fills an empty file).
    let file = crate::files::create_private(&tmp).map_err(cannot_write)?;
    let copied = copy_into(db, &tmp)
        .await
        .and_then(|()| file.sync_all().map_err(cannot_write));
    drop(file);
    if let Err(e) = copied {
        let _ = std::fs::remove_file(&tmp);
        return Err(e);
    }
    crate::files::place_new(&tmp, out).map_err(|e| {
        if e.kind() == std::io::ErrorKind::AlreadyExists {
            already_exists(out)
        } else {
            cannot_write(e)
        }
    })?;
    // The rename itself lasts once the folder is synced (where the system allows opening one).
    if let Ok(folder) = std::fs::File::open(folder_of(out)) {
        let _ = folder.sync_all();
    }
    Ok(())
}

fn already_exists(out: &Path) -> StoreError {
    StoreError::Open(format!(
        "{} already exists; give a new file name for the copy",
        out.display()
    ))
}

/// `out`'s folder (`.` for a bare file name).
fn folder_of(out: &Path) -> &Path {
    match out.parent() {
        Some(folder) if !folder.as_os_str().is_empty() => folder,
        _ => Path::new("."),
    }
}

/// Checks that `out` can be created, and names the hidden file the copy is written to first, in
/// the same folder so that the rename is atomic.
fn backup_destination(out: &Path) -> Result<std::path::PathBuf> {
    let shown = out.display();
    if out.exists() {
        return Err(already_exists(out));
    }
    let folder = folder_of(out);
    if !folder.is_dir() {
        let problem = if folder.exists() {
            "is not a folder"
        } else {
            "does not exist"
        };
        return Err(StoreError::Open(format!(
            "{} {problem}; give a file in a folder that exists for the copy",
            folder.display()
        )));
    }
    let Some(name) = out.file_name().map(|n| n.to_string_lossy()) else {
        return Err(StoreError::Open(format!(
            "{shown} is not a file name; give one such as prophecy-copy.db"
        )));
    };
    static COPIES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = COPIES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    Ok(folder.join(format!(".{name}.{}-{n}.partial", std::process::id())))
}

/// `VACUUM INTO tmp` over a read-only connection, after checking that `db` holds Prophecy's
/// tables.
async fn copy_into(db: &Path, tmp: &Path) -> Result<()> {
    let shown = db.display();
    let not_ours = |detail: String| {
        StoreError::Damaged(format!(
            "{shown} is not a Prophecy database ({detail}); give the --db file the server uses"
        ))
    };
    let unreadable = |e: sqlx::Error| {
        if is_not_a_database(&e) {
            not_ours("it is not an SQLite database, or it is damaged".to_owned())
        } else {
            StoreError::Open(format!(
                "cannot read the database {shown}: {}",
                one_line(&e.to_string())
            ))
        }
    };
    let Some(tmp_text) = tmp.to_str() else {
        return Err(StoreError::Open(format!(
            "cannot write a copy to {}: SQLite needs a UTF-8 path",
            tmp.display()
        )));
    };
    let options = SqliteConnectOptions::new()
        .filename(db)
        .read_only(true)
        .busy_timeout(Duration::from_secs(5));
    let mut connection = SqliteConnection::connect_with(&options)
        .await
        .map_err(unreadable)?;
    let copied = async {
        let found: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' \
             AND name IN ('_sqlx_migrations', 'tables', 'seats', 'events')",
        )
        .fetch_one(&mut connection)
        .await
        .map_err(unreadable)?;
        if found != 4 {
            return Err(not_ours("it has no tables, seats and events".to_owned()));
        }
        sqlx::query("VACUUM INTO ?")
            .bind(tmp_text)
            .execute(&mut connection)
            .await
            .map_err(|e| {
                StoreError::Open(format!(
                    "cannot copy the database {shown}: {}",
                    one_line(&e.to_string())
                ))
            })?;
        Ok(())
    }
    .await;
    let _ = connection.close().await;
    copied
}

/// Takes the lock on the database file (creating it, private, if missing). An advisory `flock`
/// on the file itself: SQLite's own locks are POSIX record locks, which do not interact with it.
fn lock(path: &Path) -> Result<std::fs::File> {
    let shown = path.display();
    if path.is_dir() {
        return Err(StoreError::Open(format!(
            "cannot open the database {shown}: it is a folder; give a file such as {}",
            path.join("prophecy.db").display()
        )));
    }
    // A new database is private (SQLite gives its `-wal` and `-shm` files the database's own
    // mode); an existing one keeps the mode its owner chose (`open` warns if others can read it).
    let file = match crate::files::create_private(path) {
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(path),
        created => created,
    }
    .map_err(|e| StoreError::Open(format!("cannot open the database {shown}: {e}")))?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(std::fs::TryLockError::WouldBlock) => Err(StoreError::InUse(format!(
            "the database {shown} is in use by another prophecy serve; stop that one first, or give another --db"
        ))),
        Err(std::fs::TryLockError::Error(e)) => Err(StoreError::Open(format!(
            "cannot lock the database {shown}: {e}"
        ))),
    }
}

fn is_not_a_database(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(db) if db.code().as_deref() == Some(SQLITE_NOTADB))
}

/// SQLite's messages can span lines; ours are one.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A column of a row, or `Damaged` naming it: a damaged file must not panic the server.
fn column<'r, T>(row: &'r SqliteRow, index: usize, what: &str) -> Result<T>
where
    T: sqlx::Decode<'r, sqlx::Sqlite> + sqlx::Type<sqlx::Sqlite>,
{
    row.try_get(index).map_err(|e| {
        StoreError::Damaged(format!(
            "a stored {what} cannot be read ({})",
            one_line(&e.to_string())
        ))
    })
}

/// A table's row: id, game, created_at, invite, share, name, watch (in that order).
fn table_record(r: &SqliteRow) -> Result<TableRecord> {
    Ok(TableRecord {
        id: TableId(column(r, 0, "table")?),
        game: column(r, 1, "table")?,
        created_at: column(r, 2, "table")?,
        invite: column(r, 3, "table")?,
        share: column(r, 4, "table")?,
        name: column(r, 5, "table")?,
        watch: column(r, 6, "table")?,
    })
}

impl Store for SqliteStore {
    async fn create_table(
        &self,
        token: &str,
        game: &str,
        now: i64,
        invite: &str,
        name: Option<&str>,
    ) -> Result<TableId> {
        let (token, game, invite) = (token.to_owned(), game.to_owned(), invite.to_owned());
        let name = name.map(str::to_owned);
        self.write(|reply| Write::CreateTable {
            token,
            game,
            now,
            invite,
            name,
            reply,
        })
        .await
    }

    async fn set_invite(&self, table: TableId, invite: Option<&str>) -> Result<()> {
        let invite = invite.map(str::to_owned);
        self.write(|reply| Write::SetInvite {
            table,
            invite,
            reply,
        })
        .await
    }

    async fn set_link(&self, table: TableId, link: Link, code: Option<&str>) -> Result<()> {
        let code = code.map(str::to_owned);
        self.write(|reply| Write::SetLink {
            table,
            link,
            code,
            reply,
        })
        .await
    }

    async fn table_by_link(&self, link: Link, code: &str) -> Result<Option<(String, TableRecord)>> {
        let sql = match link {
            Link::Story => {
                "SELECT id, game, created_at, invite, share, name, watch, token FROM tables WHERE share = ?"
            }
            Link::Watch => {
                "SELECT id, game, created_at, invite, share, name, watch, token FROM tables WHERE watch = ?"
            }
        };
        let row = sqlx::query(sql)
            .bind(code)
            .fetch_optional(&self.reader)
            .await?;
        row.map(|r| Ok((column(&r, 7, "table")?, table_record(&r)?)))
            .transpose()
    }

    async fn table_by_token(&self, token: &str) -> Result<Option<TableRecord>> {
        let row = sqlx::query(
            "SELECT id, game, created_at, invite, share, name, watch FROM tables WHERE token = ?",
        )
        .bind(token)
        .fetch_optional(&self.reader)
        .await?;
        row.map(|r| table_record(&r)).transpose()
    }

    async fn seat_by_secret(&self, table: TableId, secret_hash: &[u8]) -> Result<Option<Seat>> {
        let row = sqlx::query("SELECT player, name, creator, removed FROM seats WHERE table_id = ? AND secret_hash = ?")
            .bind(table.0)
            .bind(secret_hash)
            .fetch_optional(&self.reader)
            .await?;
        row.as_ref().map(seat).transpose()
    }

    async fn seats(&self, table: TableId) -> Result<Vec<Seat>> {
        let rows = sqlx::query(
            "SELECT player, name, creator, removed FROM seats WHERE table_id = ? ORDER BY player",
        )
        .bind(table.0)
        .fetch_all(&self.reader)
        .await?;
        rows.iter().map(seat).collect()
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
        rows.iter()
            .map(|r| {
                let seq: i64 = column(r, 0, "event")?;
                let player: Option<i64> = column(r, 2, "event")?;
                let player = player
                    .map(|p| u32::try_from(p).map_err(|_| damaged_row("event", "its player")))
                    .transpose()?;
                Ok(EventRow {
                    seq: u64::try_from(seq).map_err(|_| damaged_row("event", "its number"))?,
                    at: column(r, 1, "event")?,
                    player,
                    body: column(r, 3, "event")?,
                })
            })
            .collect()
    }
}

fn damaged_row(what: &str, field: &str) -> StoreError {
    StoreError::Damaged(format!(
        "a stored {what} cannot be read ({field} is out of range)"
    ))
}

fn seat(r: &SqliteRow) -> Result<Seat> {
    let player: i64 = column(r, 0, "seat")?;
    Ok(Seat {
        player: u32::try_from(player).map_err(|_| damaged_row("seat", "its player"))?,
        name: column(r, 1, "seat")?,
        creator: column(r, 2, "seat")?,
        removed: column(r, 3, "seat")?,
    })
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
                Write::SetInvite { reply, .. } | Write::SetLink { reply, .. } => {
                    let _ = reply.send(result.map(|_| ()));
                }
                Write::Append { reply, .. } => {
                    let _ = reply.send(result.map(|seq| seq as u64));
                }
                Write::Close => {}
            }
        }
    }
    queue.close();
    // Move the whole log into the database file, so a copy of that file alone is complete.
    if let Err(e) = sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)")
        .execute(&mut connection)
        .await
    {
        tracing::warn!("the database could not be checkpointed: {e}");
    }
    let _ = connection.close().await;
}

/// One result per write: the new table's id or the new last seq.
async fn write_batch(connection: &mut SqliteConnection, batch: &mut [Write]) -> Vec<Result<i64>> {
    let mut results: Vec<Option<Result<i64>>> = batch.iter().map(|_| None).collect();
    // Actions' events, the writes of a busy server, go in one statement: one round trip to
    // SQLite's thread and one commit for all of them.
    let mut tables = std::collections::HashSet::new();
    let (indices, together): (Vec<usize>, Vec<Events>) = batch
        .iter()
        .enumerate()
        .filter_map(|(i, write)| match write {
            Write::Append {
                table,
                after,
                append,
                ..
            } if append.new_seat.is_none()
                && append.remove_seat.is_none()
                && append.renew_invite.is_none()
                && (1..=EVENTS_PER_INSERT).contains(&append.events.len())
                // One write per table in it: a table's later write must see the earlier one.
                && tables.insert(*table) =>
            {
                Some((i, (*table, *after, append.events.as_slice())))
            }
            _ => None,
        })
        .unzip();
    // If that statement fails, each write is tried alone below (safe even if some landed: a
    // write lands only after the seq it names).
    if let Ok(landed) = append_together(connection, &together).await {
        for (i, result) in indices.iter().zip(landed) {
            results[*i] = Some(result);
        }
    }
    let rest: Vec<usize> = (0..batch.len()).filter(|i| results[*i].is_none()).collect();
    for (i, result) in rest.iter().zip(write_each(connection, batch, &rest).await) {
        results[*i] = Some(result);
    }
    results.into_iter().flatten().collect()
}

/// Events for a table's log after the seq named: (table, after, events).
type Events<'a> = (TableId, u64, &'a [NewEvent]);

/// Writes `together` (one per table) by one `INSERT`, each only if its table's log ends at its
/// `after`: the new last seq of each, or `Conflict`.
async fn append_together(
    connection: &mut SqliteConnection,
    together: &[Events<'_>],
) -> Result<Vec<Result<i64>>> {
    if together.is_empty() {
        return Ok(Vec::new());
    }
    let count: usize = together.iter().map(|(.., events)| events.len()).sum();
    // At most GROUP_COMMIT × EVENTS_PER_INSERT rows of 6 parameters: under SQLite's 32,766.
    let rows = vec!["(?, ?, ?, ?, ?, ?)"; count].join(", ");
    let sql = format!(
        "INSERT INTO events (table_id, seq, at, player, body) \
         SELECT w.column1, w.column2, w.column3, w.column4, w.column5 FROM (VALUES {rows}) AS w \
         WHERE (SELECT COALESCE(MAX(seq), 0) FROM events WHERE table_id = w.column1) = w.column6 \
         RETURNING table_id"
    );
    // Only placeholders are written into it: the values are bound.
    let mut query = sqlx::query(sqlx::AssertSqlSafe(sql));
    for (table, after, events) in together {
        for (seq, event) in (after + 1..).zip(events.iter()) {
            query = query
                .bind(table.0)
                .bind(seq as i64)
                .bind(event.at)
                .bind(event.player.map(i64::from))
                .bind(&event.body)
                .bind(*after as i64);
        }
    }
    let mut written = std::collections::HashMap::<i64, usize>::new();
    for row in query.fetch_all(&mut *connection).await? {
        *written.entry(column(&row, 0, "event")?).or_default() += 1;
    }
    Ok(together
        .iter()
        .map(|(table, after, events)| {
            // A write's rows share one condition: all of them are written, or none.
            if written.get(&table.0) == Some(&events.len()) {
                Ok((after + events.len() as u64) as i64)
            } else {
                Err(StoreError::Conflict)
            }
        })
        .collect())
}

/// The writes `which` of `batch`, each in its own savepoint inside one `BEGIN IMMEDIATE`
/// transaction; a failed commit fails all.
async fn write_each(
    connection: &mut SqliteConnection,
    batch: &mut [Write],
    which: &[usize],
) -> Vec<Result<i64>> {
    if which.is_empty() {
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
        Err(e) => return fail_all(&e, which.len()),
    };
    let mut results = Vec::with_capacity(which.len());
    for &i in which {
        let write = &mut batch[i];
        // A savepoint per write: one table's conflict does not undo another's write.
        let mut savepoint = match tx.begin().await {
            Ok(savepoint) => savepoint,
            Err(e) => return fail_all(&e, which.len()),
        };
        let result = match write {
            Write::CreateTable {
                token,
                game,
                now,
                invite,
                name,
                ..
            } => sqlx::query(
                "INSERT INTO tables (token, game, created_at, invite, name) VALUES (?, ?, ?, ?, ?) RETURNING id",
            )
            .bind(&*token)
            .bind(&*game)
            .bind(*now)
            .bind(&*invite)
            .bind(name.as_deref())
            .fetch_one(&mut *savepoint)
            .await
            .map_err(StoreError::from)
            .and_then(|row| column(&row, 0, "table")),
            Write::SetInvite { table, invite, .. } => {
                sqlx::query("UPDATE tables SET invite = ? WHERE id = ?")
                    .bind(invite.as_deref())
                    .bind(table.0)
                    .execute(&mut *savepoint)
                    .await
                    .map(|_| 0)
                    .map_err(StoreError::from)
            }
            Write::SetLink {
                table, link, code, ..
            } => {
                let sql = match link {
                    Link::Story => "UPDATE tables SET share = ? WHERE id = ?",
                    Link::Watch => "UPDATE tables SET watch = ? WHERE id = ?",
                };
                sqlx::query(sql)
                    .bind(code.as_deref())
                    .bind(table.0)
                    .execute(&mut *savepoint)
                    .await
                    .map(|_| 0)
                    .map_err(StoreError::from)
            }
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
            return fail_all(&e, which.len());
        }
        results.push(result);
    }
    match tx.commit().await {
        Ok(()) => results,
        Err(e) => fail_all(&e, which.len()),
    }
}

/// Events written by one statement at most (5 parameters each, far under SQLite's limit).
const EVENTS_PER_INSERT: usize = 64;

async fn append_in(
    tx: &mut SqliteConnection,
    table: TableId,
    after: u64,
    append: &Append,
) -> Result<u64> {
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
    if let Some(invite) = &append.renew_invite {
        sqlx::query("UPDATE tables SET invite = ? WHERE id = ? AND invite IS NOT NULL")
            .bind(invite)
            .bind(table.0)
            .execute(&mut *tx)
            .await?;
    }
    if append.events.is_empty() {
        let last: i64 =
            sqlx::query_scalar("SELECT COALESCE(MAX(seq), 0) FROM events WHERE table_id = ?")
                .bind(table.0)
                .fetch_one(&mut *tx)
                .await?;
        return if last as u64 == after {
            Ok(after)
        } else {
            Err(StoreError::Conflict)
        };
    }
    // The first statement checks the last seq; the rest follow it in the same savepoint.
    let mut seq = after;
    for chunk in append.events.chunks(EVENTS_PER_INSERT) {
        let written = append_together(&mut *tx, &[(table, seq, chunk)]).await?;
        seq = written
            .into_iter()
            .next()
            .unwrap_or(Err(StoreError::Conflict))? as u64;
    }
    Ok(seq)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{NewEvent, NewSeat};
    use std::path::PathBuf;

    /// A folder of its own, removed when dropped.
    struct TempDir(PathBuf);

    impl TempDir {
        fn new() -> TempDir {
            static N: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
            let n = N.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            let dir = std::env::temp_dir()
                .join(format!("prophecy-store-backup-{}-{n}", std::process::id()));
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).unwrap();
            TempDir(dir)
        }
    }

    impl Drop for TempDir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    /// A table with two seats and `events` events: its id.
    async fn table_with_events(store: &SqliteStore, token: &str, events: u64) -> TableId {
        let table = store
            .create_table(token, "story", 1, "invite", None)
            .await
            .unwrap();
        for (player, name) in [(1, "Ada"), (2, "Bo")] {
            let after = store.events_after(table, 0).await.unwrap().len() as u64;
            store
                .append(
                    table,
                    after,
                    Append {
                        new_seat: Some(NewSeat {
                            player,
                            name: name.into(),
                            secret_hash: format!("{token}-{player}").into_bytes(),
                            creator: player == 1,
                        }),
                        ..Append::default()
                    },
                )
                .await
                .unwrap();
        }
        for seq in 0..events {
            store
                .append(
                    table,
                    seq,
                    Append {
                        events: vec![NewEvent {
                            at: seq as i64,
                            player: Some(1),
                            body: format!("{{\"n\":{seq}}}"),
                        }],
                        ..Append::default()
                    },
                )
                .await
                .unwrap();
        }
        table
    }

    #[tokio::test]
    async fn a_copy_of_a_database_in_use_serves_every_table_seat_and_event() {
        let dir = TempDir::new();
        let db = dir.0.join("tables.db");
        let store = SqliteStore::open(&db).await.unwrap();
        let first = table_with_events(&store, "first", 50).await;
        let second = table_with_events(&store, "second", 3).await;
        // While the server holds the file (its lock, its write-ahead log).
        let out = dir.0.join("copy.db");
        backup(&db, &out).await.unwrap();
        // The original goes on being written.
        store
            .append(
                second,
                3,
                Append {
                    events: vec![NewEvent {
                        at: 9,
                        player: None,
                        body: "{\"after\":true}".into(),
                    }],
                    ..Append::default()
                },
            )
            .await
            .unwrap();
        let copy = SqliteStore::open(&out).await.unwrap();
        for (token, id, events) in [("first", first, 50), ("second", second, 3)] {
            let table = copy.table_by_token(token).await.unwrap().unwrap();
            assert_eq!(table.id, id);
            assert_eq!(
                copy.seats(id).await.unwrap(),
                store.seats(id).await.unwrap()
            );
            let logged = copy.events_after(id, 0).await.unwrap();
            assert_eq!(logged, store.events_after(id, 0).await.unwrap()[..events]);
        }
        // Only the hidden partial file's rename made the copy: nothing else is left beside it.
        let mut names: Vec<String> = std::fs::read_dir(&dir.0)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|name| !name.starts_with("tables.db") && !name.starts_with("copy.db"))
            .collect();
        names.sort();
        assert_eq!(names, Vec::<String>::new());
        copy.close().await;
        store.close().await;
    }

    /// The file's permission bits.
    #[cfg(unix)]
    fn mode(path: &Path) -> u32 {
        use std::os::unix::fs::PermissionsExt;
        std::fs::metadata(path).unwrap().permissions().mode() & 0o777
    }

    #[cfg(unix)]
    #[tokio::test]
    async fn the_database_its_log_and_its_copies_are_private_to_their_owner() {
        let dir = TempDir::new();
        let db = dir.0.join("tables.db");
        let store = SqliteStore::open(&db).await.unwrap();
        table_with_events(&store, "t", 3).await;
        let with = |suffix: &str| dir.0.join(format!("tables.db{suffix}"));
        for file in [with(""), with("-wal"), with("-shm")] {
            assert_eq!(mode(&file), 0o600, "{}", file.display());
        }
        let out = dir.0.join("copy.db");
        backup(&db, &out).await.unwrap();
        assert_eq!(mode(&out), 0o600);
        store.close().await;
        assert_eq!(mode(&db), 0o600);
        // A database its owner made readable by others keeps the mode they chose.
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&db, std::fs::Permissions::from_mode(0o640)).unwrap();
        let store = SqliteStore::open(&db).await.unwrap();
        assert_eq!(mode(&db), 0o640);
        store.close().await;
    }

    #[tokio::test]
    async fn a_stopped_database_is_copied_too() {
        let dir = TempDir::new();
        let db = dir.0.join("tables.db");
        let store = SqliteStore::open(&db).await.unwrap();
        let table = table_with_events(&store, "t", 5).await;
        store.close().await;
        let out = dir.0.join("copy.db");
        backup(&db, &out).await.unwrap();
        let copy = SqliteStore::open(&out).await.unwrap();
        assert_eq!(copy.events_after(table, 0).await.unwrap().len(), 5);
        assert_eq!(copy.seats(table).await.unwrap().len(), 2);
        copy.close().await;
    }

    #[tokio::test]
    async fn a_copy_is_refused_with_one_line_and_nothing_is_written() {
        let dir = TempDir::new();
        let db = dir.0.join("tables.db");
        let store = SqliteStore::open(&db).await.unwrap();
        table_with_events(&store, "t", 1).await;
        let notes = dir.0.join("notes.txt");
        std::fs::write(&notes, "These are my notes, not a database.\n".repeat(300)).unwrap();
        let empty = dir.0.join("empty.db");
        std::fs::write(&empty, "").unwrap();
        let taken = dir.0.join("taken.db");
        std::fs::write(&taken, "mine").unwrap();
        let out = dir.0.join("copy.db");
        let refused = |db: &Path, out: &Path| {
            let (db, out) = (db.to_owned(), out.to_owned());
            async move {
                let error = backup(&db, &out).await.expect_err("refused").to_string();
                assert!(!error.contains('\n'), "{error}");
                error
            }
        };
        let d = dir.0.display();
        assert_eq!(
            refused(&dir.0.join("missing.db"), &out).await,
            format!("there is no database {d}/missing.db; give the --db file the server uses")
        );
        assert!(!dir.0.join("missing.db").exists());
        assert_eq!(
            refused(&dir.0, &out).await,
            format!("the database {d} is not a file; give the --db file the server uses")
        );
        assert_eq!(
            refused(&notes, &out).await,
            format!(
                "{d}/notes.txt is not a Prophecy database (it is not an SQLite database, or it is damaged); give the --db file the server uses"
            )
        );
        assert_eq!(
            refused(&empty, &out).await,
            format!(
                "{d}/empty.db is not a Prophecy database (it has no tables, seats and events); give the --db file the server uses"
            )
        );
        assert_eq!(std::fs::read(&empty).unwrap(), b"");
        assert_eq!(
            refused(&db, &taken).await,
            format!("{d}/taken.db already exists; give a new file name for the copy")
        );
        assert_eq!(std::fs::read(&taken).unwrap(), b"mine");
        assert_eq!(
            refused(&db, &dir.0.join("no/such/copy.db")).await,
            format!("{d}/no/such does not exist; give a file in a folder that exists for the copy")
        );
        assert_eq!(
            refused(&db, &notes.join("copy.db")).await,
            format!(
                "{d}/notes.txt is not a folder; give a file in a folder that exists for the copy"
            )
        );
        let mut names: Vec<String> = std::fs::read_dir(&dir.0)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|name| !name.starts_with("tables.db"))
            .collect();
        names.sort();
        assert_eq!(names, ["empty.db", "notes.txt", "taken.db"]);
        store.close().await;
    }
}
