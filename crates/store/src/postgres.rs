//! The hosted store: a PostgreSQL database, for many tables and several servers.
//!
//! Every server on the same database sees the same tables. The log's order is the database's:
//! an append names the last seq its writer saw and takes its table's row lock; if the log has
//! moved on meanwhile, the append gets [`StoreError::Conflict`] and its writer reloads and
//! decides again. Appends are written in groups ([`crate::group`]): the appends waiting at
//! one moment, from any tables, share one transaction, one round trip and one notice
//! (`NOTIFY` of `TABLE:SEQ` items) that every server's store hears ([`Store::changes`]), so
//! the servers whose players sit at those tables read the new events from the log.

use crate::group::{self, Pending};
use crate::{
    Append, Change, EventRow, Link, Result, Seat, Store, StoreError, TableId, TableRecord,
};
use sqlx::postgres::{PgConnectOptions, PgListener, PgPool, PgPoolOptions, PgRow};
use sqlx::{Connection, Postgres, Row};
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{Mutex, broadcast, mpsc, oneshot};

/// Tables in a PostgreSQL database. Cloning is cheap (the pool is shared).
#[derive(Debug, Clone)]
pub struct PgStore {
    pool: PgPool,
    /// Every append's notice (`LISTEN` on [`CHANNEL`]), for [`Store::changes`].
    changes: broadcast::Sender<Change>,
    /// Appends on their way to the writers ([`group`]).
    appends: mpsc::Sender<Pending>,
    /// The tasks that listen and write, stopped by `close`.
    tasks: Arc<Mutex<Vec<tokio::task::JoinHandle<()>>>>,
}

/// The channel of the appends' notices; a notice's payload is `TABLE:SEQ`, only numbers (the
/// events themselves are read from the log), or `TABLE:invite` when an invitation changed.
const CHANNEL: &str = "prophecy_events";

/// Notices kept for a slow receiver before it hears [`Change::Missed`].
const NOTICES: usize = 4096;

/// Connections one server keeps to the database.
const CONNECTIONS: u32 = 16;

impl PgStore {
    /// Sets one of a table's links (`update` names the column: the invitation, a read-only
    /// page) and tells every server, whose pages then fetch the table's links again.
    async fn change_link(
        &self,
        update: &'static str,
        table: TableId,
        value: Option<&str>,
    ) -> Result<()> {
        let mut tx = self.pool.begin().await?;
        sqlx::query(update)
            .bind(value)
            .bind(table.0)
            .execute(&mut *tx)
            .await?;
        sqlx::query("SELECT pg_notify($1, $2)")
            .bind(CHANNEL)
            .bind(format!("{}:invite", table.0))
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

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
        let unreachable = |e: sqlx::Error| unreachable(&options, &shown, &e);
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
        let mut listener = PgListener::connect_with(&pool).await.map_err(unreachable)?;
        listener.listen(CHANNEL).await.map_err(unreachable)?;
        let (changes, _) = broadcast::channel(NOTICES);
        let mut tasks = vec![tokio::spawn(listen(listener, changes.clone()))];
        let (appends, queue) = mpsc::channel(group::QUEUE);
        let options = options.application_name("prophecy-append");
        tasks.push(tokio::spawn(group::write(queue, options)));
        Ok(PgStore {
            pool,
            changes,
            appends,
            tasks: Arc::new(Mutex::new(tasks)),
        })
    }

    /// The connections, for the copy from a SQLite file.
    pub(crate) fn pool(&self) -> &PgPool {
        &self.pool
    }

    /// Stops listening and writing and closes every connection; later calls fail.
    pub async fn close(&self) {
        for task in self.tasks.lock().await.drain(..) {
            task.abort();
        }
        self.pool.close().await;
    }
}

/// Passes every notice on as a [`Change`]; a lost connection (reconnected by sqlx) is a
/// [`Change::Missed`], since notices sent meanwhile are gone.
async fn listen(mut listener: PgListener, changes: broadcast::Sender<Change>) {
    loop {
        match listener.try_recv().await {
            Ok(Some(notice)) => {
                for item in notice.payload().split(' ') {
                    match parse(item) {
                        Some(change) => {
                            let _ = changes.send(change);
                        }
                        None => tracing::warn!("an unreadable notice: {item}"),
                    }
                }
            }
            Ok(None) => {
                tracing::warn!("the database's notices were interrupted; every table catches up");
                let _ = changes.send(Change::Missed);
            }
            Err(sqlx::Error::PoolClosed) => return,
            Err(e) => {
                tracing::warn!("cannot hear the database's notices: {e}");
                let _ = changes.send(Change::Missed);
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        }
    }
}

/// One item of a notice: `TABLE:SEQ` or `TABLE:invite`.
fn parse(item: &str) -> Option<Change> {
    let (table, what) = item.split_once(':')?;
    let table = TableId(table.parse().ok()?);
    Some(match what {
        "invite" => Change::Invited { table },
        seq => Change::Appended {
            table,
            seq: seq.parse().ok()?,
        },
    })
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

/// Why the server cannot use the database at `options`, in words: a missing database is named,
/// with the command that creates it.
fn unreachable(options: &PgConnectOptions, shown: &str, e: &sqlx::Error) -> StoreError {
    let code = e.as_database_error().and_then(|d| d.code());
    if code.as_deref() == Some(MISSING_DATABASE) {
        let name = options.get_database().unwrap_or_default();
        return StoreError::Open(format!(
            "the database '{name}' does not exist on the PostgreSQL server at {}:{}; create it first, e.g. with: createdb -h {} -p {} -U {} {name}",
            options.get_host(),
            options.get_port(),
            options.get_host(),
            options.get_port(),
            options.get_username(),
        ));
    }
    StoreError::Open(format!(
        "cannot reach the database {shown}: {}",
        one_line(&e.to_string())
    ))
}

/// PostgreSQL's SQLSTATE for a database that does not exist (`invalid_catalog_name`).
const MISSING_DATABASE: &str = "3D000";

fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A column of a row, or `Damaged` naming it.
/// A table's row: id, game, created_at, invite, share, name, watch (in that order).
fn table_record(r: &PgRow) -> Result<TableRecord> {
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
        name: Option<&str>,
    ) -> Result<TableId> {
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO tables (token, game, created_at, invite, name) VALUES ($1, $2, $3, $4, $5) RETURNING id",
        )
        .bind(token)
        .bind(game)
        .bind(now)
        .bind(invite)
        .bind(name)
        .fetch_one(&self.pool)
        .await?;
        Ok(TableId(id))
    }

    async fn set_invite(&self, table: TableId, invite: Option<&str>) -> Result<()> {
        self.change_link("UPDATE tables SET invite = $1 WHERE id = $2", table, invite)
            .await
    }

    async fn set_link(&self, table: TableId, link: Link, code: Option<&str>) -> Result<()> {
        let sql = match link {
            Link::Story => "UPDATE tables SET share = $1 WHERE id = $2",
            Link::Watch => "UPDATE tables SET watch = $1 WHERE id = $2",
        };
        self.change_link(sql, table, code).await
    }

    async fn table_by_link(&self, link: Link, code: &str) -> Result<Option<(String, TableRecord)>> {
        let sql = match link {
            Link::Story => {
                "SELECT id, game, created_at, invite, share, name, watch, token FROM tables WHERE share = $1"
            }
            Link::Watch => {
                "SELECT id, game, created_at, invite, share, name, watch, token FROM tables WHERE watch = $1"
            }
        };
        let row = sqlx::query(sql)
            .bind(code)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| Ok((column(&r, 7, "table")?, table_record(&r)?)))
            .transpose()
    }

    async fn table_by_token(&self, token: &str) -> Result<Option<TableRecord>> {
        let row = sqlx::query(
            "SELECT id, game, created_at, invite, share, name, watch FROM tables WHERE token = $1",
        )
        .bind(token)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| table_record(&r)).transpose()
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
        let (done, result) = oneshot::channel();
        let pending = Pending {
            table,
            after,
            append,
            done,
        };
        let closed = || StoreError::Database(sqlx::Error::PoolClosed);
        self.appends.send(pending).await.map_err(|_| closed())?;
        result.await.map_err(|_| closed())?
    }

    fn changes(&self) -> Option<broadcast::Receiver<Change>> {
        Some(self.changes.subscribe())
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

    async fn take_grant(
        &self,
        address: &str,
        kind: &str,
        least: u32,
        most: u32,
        per_minute: u32,
    ) -> Result<crate::Grant> {
        let int = |units: u32| i32::try_from(units).unwrap_or(i32::MAX);
        let row =
            sqlx::query("SELECT granted, wait_micros FROM prophecy_take_grant($1, $2, $3, $4, $5)")
                .bind(address)
                .bind(kind)
                .bind(int(least))
                .bind(int(most.max(least)))
                .bind(int(per_minute))
                .fetch_one(&self.pool)
                .await?;
        let granted: i32 = column(&row, 0, "budget")?;
        let wait: Option<i64> = column(&row, 1, "budget")?;
        Ok(match (u32::try_from(granted), wait) {
            (Ok(granted), _) if granted > 0 => crate::Grant::Granted(granted),
            (_, Some(wait)) => crate::Grant::NotUntil(Duration::from_micros(
                u64::try_from(wait).unwrap_or(1).max(1),
            )),
            (_, None) => crate::Grant::Never,
        })
    }

    async fn forget_full_budgets(&self) -> Result<()> {
        sqlx::query(
            "DELETE FROM budgets WHERE tat < (extract(epoch FROM clock_timestamp()) * 1000000)::BIGINT",
        )
        .execute(&self.pool)
        .await?;
        Ok(())
    }
}
