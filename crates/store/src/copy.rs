//! Moving tables from a SQLite file to PostgreSQL (`prophecy db copy`), and checking such a
//! file (`prophecy backup --check`).

use crate::{PgStore, Result, StoreError};
use sqlx::sqlite::{SqliteConnectOptions, SqliteRow};
use sqlx::{Connection, Row, SqliteConnection};
use std::path::Path;
use std::time::Duration;

/// What a copy did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Copied {
    /// Tables new to the destination.
    pub tables: u64,
    /// Seats written (new tables' and new players').
    pub seats: u64,
    /// Events written.
    pub events: u64,
    /// Tables already there in full.
    pub unchanged: u64,
    /// Tables whose log at the destination is not the start of the file's (both were played
    /// on after a copy): left as they are.
    pub diverged: u64,
    /// Tables not copied because their log is not a game the rules could have played, in the
    /// file's order.
    pub skipped: Vec<Skipped>,
}

/// A table left out of a copy, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    /// Its row id in the file.
    pub table: i64,
    /// The game it says it plays.
    pub game: String,
    /// Why it was left out, in one line.
    pub reason: String,
}

/// The check a table's log must pass to be copied: given the table's game and its events'
/// bodies in order, `Err` with a one-line reason refuses it. The store knows no games; the
/// caller's check replays the log through the game's rules.
pub trait Check: Fn(&str, &[String]) -> std::result::Result<(), String> {}

impl<F: Fn(&str, &[String]) -> std::result::Result<(), String>> Check for F {}

/// One table as the file has it.
struct Table {
    id: i64,
    token: String,
    game: String,
    created_at: i64,
    invite: Option<String>,
    share: Option<String>,
    name: Option<String>,
    watch: Option<String>,
}

/// Copies every table, seat and event of the SQLite file `from` into `to`, table by table in
/// transactions of their own. Each table's whole log must first pass `check` (and be numbered
/// 1, 2, 3… without a gap); one that fails is left out and listed in [`Copied::skipped`].
/// Safe to run again: a table already there gets only the seats and events it lacks, and a
/// seat removed there stays removed; one whose log has gone another way is counted, not
/// touched. `from` is read over a read-only connection, so a server may go on serving it (the
/// copy is then of the moment each table is read).
pub async fn copy(from: &Path, to: &PgStore, check: impl Check) -> Result<Copied> {
    let (mut file, tables) = open_file(from).await?;
    let mut copied = Copied::default();
    for table in tables {
        copy_table(&mut file, &table, to, &check, &mut copied)
            .await
            .map_err(|e| readable(from, e))?;
    }
    let _ = file.close().await;
    Ok(copied)
}

/// What [`verify`] found in a file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Verified {
    /// Tables in the file.
    pub tables: u64,
    /// Their seats.
    pub seats: u64,
    /// Their events.
    pub events: u64,
    /// Tables whose log is not a game the rules could have played, in the file's order.
    pub failed: Vec<Skipped>,
}

/// Checks a SQLite file (a backup, say) without changing it: SQLite's own check of the file,
/// then every table's log through `check`, as [`copy`] would. `Err` when it is not a readable
/// Prophecy database at all.
pub async fn verify(from: &Path, check: impl Check) -> Result<Verified> {
    let (mut file, tables) = open_file(from).await?;
    let problems: Vec<String> = sqlx::query_scalar("PRAGMA quick_check")
        .fetch_all(&mut file)
        .await
        .map_err(|e| readable(from, StoreError::Database(e)))?;
    if problems != ["ok"] {
        return Err(StoreError::Damaged(format!(
            "{} is damaged: {}",
            from.display(),
            problems.join("; ")
        )));
    }
    let mut verified = Verified::default();
    for table in &tables {
        let (events, checked) = checked_log(&mut file, table, &check)
            .await
            .map_err(|e| readable(from, e))?;
        let seats: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM seats WHERE table_id = ?")
            .bind(table.id)
            .fetch_one(&mut file)
            .await
            .map_err(|e| readable(from, StoreError::Database(e)))?;
        verified.tables += 1;
        verified.seats += u64::try_from(seats).unwrap_or(0);
        verified.events += events.len() as u64;
        if let Err(reason) = checked {
            verified.failed.push(Skipped {
                table: table.id,
                game: table.game.clone(),
                reason,
            });
        }
    }
    let _ = file.close().await;
    Ok(verified)
}

/// The file `from` opened read-only (a server may go on serving it), and its tables.
async fn open_file(from: &Path) -> Result<(SqliteConnection, Vec<Table>)> {
    let shown = from.display();
    if !from.is_file() {
        return Err(StoreError::Open(format!(
            "there is no database file {shown}; give the --db file a server uses"
        )));
    }
    let options = SqliteConnectOptions::new()
        .filename(from)
        .read_only(true)
        .busy_timeout(Duration::from_secs(5));
    let mut file = SqliteConnection::connect_with(&options)
        .await
        .map_err(|e| readable(from, StoreError::Database(e)))?;
    // A file from before stories could be published has no `share` column (none is published),
    // one from before tables had names no `name` (none is named), one from before watch links
    // no `watch` (none is open).
    let share = column_or_null(&mut file, "share").await;
    let name = column_or_null(&mut file, "name").await;
    let watch = column_or_null(&mut file, "watch").await;
    let select = format!(
        "SELECT id, token, game, created_at, invite, {share}, {name}, {watch} FROM tables ORDER BY id"
    );
    let tables: Vec<Table> =
        sqlx::query(sqlx::AssertSqlSafe(select))
            .fetch_all(&mut file)
            .await
            .map_err(|_| {
                StoreError::Damaged(format!(
                    "{shown} is not a Prophecy database (it has no tables); give the --db file a server uses"
                ))
            })?
            .iter()
            .map(|r: &SqliteRow| {
                Ok(Table {
                    id: r.try_get(0)?,
                    token: r.try_get(1)?,
                    game: r.try_get(2)?,
                    created_at: r.try_get(3)?,
                    invite: r.try_get(4)?,
                    share: r.try_get(5)?,
                    name: r.try_get(6)?,
                    watch: r.try_get(7)?,
                })
            })
            .collect::<std::result::Result<_, sqlx::Error>>()
            .map_err(|e| readable(from, StoreError::Database(e)))?;
    Ok((file, tables))
}

/// A database error while reading `from`, in one line naming the file.
fn readable(from: &Path, e: StoreError) -> StoreError {
    match e {
        StoreError::Database(e) => StoreError::Open(format!(
            "cannot read {}: {}",
            from.display(),
            e.to_string()
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        )),
        other => other,
    }
}

/// `column` if the file's `tables` have it, else `NULL`.
async fn column_or_null(file: &mut SqliteConnection, column: &'static str) -> &'static str {
    let has: bool =
        sqlx::query_scalar("SELECT COUNT(*) > 0 FROM pragma_table_info('tables') WHERE name = ?")
            .bind(column)
            .fetch_one(&mut *file)
            .await
            .unwrap_or(false);
    if has { column } else { "NULL" }
}

/// One event of the file: seq, at, player, body.
type FileEvent = (i64, i64, Option<i64>, String);

/// A table's events, and whether its log passes `check` (numbered 1, 2, 3… without a gap, and
/// a game its rules could have played), or why not.
async fn checked_log(
    file: &mut SqliteConnection,
    table: &Table,
    check: &impl Check,
) -> Result<(Vec<FileEvent>, std::result::Result<(), String>)> {
    let events: Vec<FileEvent> =
        sqlx::query_as("SELECT seq, at, player, body FROM events WHERE table_id = ? ORDER BY seq")
            .bind(table.id)
            .fetch_all(&mut *file)
            .await?;
    let gap = events
        .iter()
        .zip(1..)
        .find(|((seq, ..), expected)| seq != expected);
    let checked = match gap {
        Some(((seq, ..), expected)) => Err(format!(
            "its log has no event {expected} (the next is {seq})"
        )),
        None => {
            let bodies: Vec<String> = events.iter().map(|e| e.3.clone()).collect();
            check(&table.game, &bodies)
        }
    };
    Ok((events, checked))
}

async fn copy_table(
    file: &mut SqliteConnection,
    table: &Table,
    to: &PgStore,
    check: &impl Check,
    copied: &mut Copied,
) -> Result<()> {
    let (events, checked) = checked_log(file, table, check).await?;
    if let Err(reason) = checked {
        copied.skipped.push(Skipped {
            table: table.id,
            game: table.game.clone(),
            reason,
        });
        return Ok(());
    }
    let mut tx = to.pool().begin().await?;
    // The destination's id for this token, and whether the table is new there.
    let existing: Option<i64> = sqlx::query_scalar("SELECT id FROM tables WHERE token = $1")
        .bind(&table.token)
        .fetch_optional(&mut *tx)
        .await?;
    let (id, new) = match existing {
        Some(id) => (id, false),
        None => {
            let id: i64 = sqlx::query_scalar(
                "INSERT INTO tables (token, game, created_at, invite, share, name, watch) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id",
            )
            .bind(&table.token)
            .bind(&table.game)
            .bind(table.created_at)
            .bind(&table.invite)
            .bind(&table.share)
            .bind(&table.name)
            .bind(&table.watch)
            .fetch_one(&mut *tx)
            .await?;
            (id, true)
        }
    };
    let there: Vec<(i64, String)> =
        sqlx::query_as("SELECT seq, body FROM events WHERE table_id = $1 ORDER BY seq")
            .bind(id)
            .fetch_all(&mut *tx)
            .await?;
    let same_start = there.len() <= events.len()
        && there
            .iter()
            .zip(&events)
            .all(|((seq, body), (s, _, _, b))| seq == s && body == b);
    if !same_start {
        copied.diverged += 1;
        return Ok(());
    }
    let seats: Vec<(i64, String, Vec<u8>, bool, bool)> = sqlx::query_as(
        "SELECT player, name, secret_hash, creator, removed FROM seats WHERE table_id = ? ORDER BY player",
    )
    .bind(table.id)
    .fetch_all(&mut *file)
    .await?;
    for (player, name, secret_hash, creator, removed) in &seats {
        // A removal in the file is carried over; one made at the destination is never undone.
        let written = sqlx::query(
            "INSERT INTO seats (table_id, player, name, secret_hash, creator, removed) VALUES ($1, $2, $3, $4, $5, $6) \
             ON CONFLICT (table_id, player) DO UPDATE SET removed = TRUE \
             WHERE EXCLUDED.removed AND NOT seats.removed",
        )
        .bind(id)
        .bind(player)
        .bind(name)
        .bind(secret_hash)
        .bind(creator)
        .bind(removed)
        .execute(&mut *tx)
        .await?;
        copied.seats += written.rows_affected();
    }
    let missing = &events[there.len()..];
    for (seq, at, player, body) in missing {
        sqlx::query(
            "INSERT INTO events (table_id, seq, at, player, body) VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(id)
        .bind(seq)
        .bind(at)
        .bind(player)
        .bind(body)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    copied.events += missing.len() as u64;
    if new {
        copied.tables += 1;
    } else if missing.is_empty() {
        copied.unchanged += 1;
    }
    Ok(())
}
