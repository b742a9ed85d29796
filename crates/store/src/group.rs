//! Group commit on PostgreSQL: appends that wait at the same moment, from any tables, are
//! written by one call of `prophecy_append` (migrations/postgres/0004), so one transaction,
//! one round trip and one notice for all of them.
//!
//! One writer, on a connection of its own, takes what is queued: while one batch is on its way
//! to the database the next gathers, so the batch grows with the load and an append alone
//! waits no longer than one round trip. (A second writer halved the batches and so doubled
//! the commits, each with its flush to disk, for no gain in latency.) Each append hears its
//! own result only once the batch has committed; a conflict (-1 from the function) fails
//! that append alone. A batch whose connection fails is not tried again: its appends fail,
//! and their rooms learn what the log holds from the notice of a commit that did happen, or
//! from their next append.

use crate::{Append, Result, StoreError, TableId};
use sqlx::Connection;
use sqlx::postgres::{PgConnectOptions, PgConnection};
use tokio::sync::{mpsc, oneshot};

/// Appends in one batch at most…
const BATCH_APPENDS: usize = 512;

/// …and bytes of events (a batch is one message to the database).
const BATCH_BYTES: usize = 4 * 1024 * 1024;

/// Appends waiting for a writer; past this, appending waits for room.
pub(crate) const QUEUE: usize = 8192;

/// One append waiting to be written, and where its result goes.
pub(crate) struct Pending {
    pub(crate) table: TableId,
    pub(crate) after: u64,
    pub(crate) append: Append,
    pub(crate) done: oneshot::Sender<Result<u64>>,
}

/// Takes batches from `queue` and writes them until the queue closes.
pub(crate) async fn write(mut queue: mpsc::Receiver<Pending>, options: PgConnectOptions) {
    let mut connection: Option<PgConnection> = None;
    loop {
        let Some(batch) = next_batch(&mut queue).await else {
            return;
        };
        if connection.is_none() {
            match PgConnection::connect_with(&options).await {
                Ok(c) => connection = Some(c),
                Err(e) => {
                    tracing::warn!("cannot reach the database to append: {e}");
                    fail(batch, &e.to_string());
                    continue;
                }
            }
        }
        let Some(c) = connection.as_mut() else {
            continue;
        };
        let mut rounds = rounds(batch).into_iter();
        let failed = loop {
            let Some(round) = rounds.next() else {
                break None;
            };
            if let Err(e) = write_batch(c, round).await {
                break Some(e);
            }
        };
        if let Some(e) = failed {
            let rest: Vec<Pending> = rounds.flatten().collect();
            fail(rest, &e.to_string());
            // The connection may be gone with the batch's fate unknown: a fresh one next time.
            tracing::warn!("a batch of appends failed: {e}");
            if let Some(c) = connection.take() {
                let _ = c.close().await;
            }
        }
    }
}

/// The batch in rounds in which no table comes twice (the second append to a table, from
/// the same server, follows the first: it is written after it, in order).
fn rounds(mut batch: Vec<Pending>) -> Vec<Vec<Pending>> {
    // Stable: a table's appends stay in the order they were queued.
    batch.sort_by_key(|p| p.table);
    let mut rounds: Vec<Vec<Pending>> = vec![Vec::new()];
    let mut previous = None;
    let mut round = 0;
    for pending in batch {
        round = if previous == Some(pending.table) {
            round + 1
        } else {
            0
        };
        previous = Some(pending.table);
        if round == rounds.len() {
            rounds.push(Vec::new());
        }
        rounds[round].push(pending);
    }
    rounds
}

/// The first append waiting (waiting for one), and those queued behind it, up to a batch.
async fn next_batch(queue: &mut mpsc::Receiver<Pending>) -> Option<Vec<Pending>> {
    let first = queue.recv().await?;
    // Rooms that are ready to append too get their turn first, and join this batch.
    tokio::task::yield_now().await;
    let mut bytes = size(&first.append);
    let mut batch = vec![first];
    while batch.len() < BATCH_APPENDS && bytes < BATCH_BYTES {
        let Ok(next) = queue.try_recv() else { break };
        bytes += size(&next.append);
        batch.push(next);
    }
    Some(batch)
}

fn size(append: &Append) -> usize {
    append.events.iter().map(|e| e.body.len()).sum()
}

/// Every append of `batch` fails with the database's error.
fn fail(batch: Vec<Pending>, error: &str) {
    for pending in batch {
        let error = std::io::Error::other(format!("the batch of appends failed: {error}"));
        let _ = pending
            .done
            .send(Err(StoreError::Database(sqlx::Error::Io(error))));
    }
}

/// The batch's arguments to `prophecy_append`, in column order.
#[derive(Default)]
struct Columns {
    table_ids: Vec<i64>,
    afters: Vec<i64>,
    counts: Vec<i32>,
    seat_players: Vec<Option<i64>>,
    seat_names: Vec<Option<String>>,
    seat_hashes: Vec<Option<Vec<u8>>>,
    seat_creators: Vec<Option<bool>>,
    removes: Vec<Option<i64>>,
    invites: Vec<Option<String>>,
    owners: Vec<i32>,
    seqs: Vec<i64>,
    ats: Vec<i64>,
    players: Vec<Option<i64>>,
    bodies: Vec<String>,
}

impl Columns {
    /// The columns of `batch`, a round of [`rounds`]: its tables all different and in
    /// increasing order, one order of locks for every server's batches.
    fn of(batch: &mut [Pending]) -> Columns {
        let mut c = Columns::default();
        for (owner, p) in (1..).zip(batch.iter_mut()) {
            let append = &mut p.append;
            c.table_ids.push(p.table.0);
            c.afters.push(i64::try_from(p.after).unwrap_or(i64::MAX));
            c.counts
                .push(i32::try_from(append.events.len()).unwrap_or(i32::MAX));
            let seat = append.new_seat.take();
            c.seat_players
                .push(seat.as_ref().map(|s| i64::from(s.player)));
            c.seat_creators.push(seat.as_ref().map(|s| s.creator));
            c.seat_names.push(seat.as_ref().map(|s| s.name.clone()));
            c.seat_hashes.push(seat.map(|s| s.secret_hash));
            c.removes.push(append.remove_seat.map(i64::from));
            c.invites.push(append.renew_invite.take());
            for (seq, event) in (p.after + 1..).zip(append.events.drain(..)) {
                c.owners.push(owner);
                c.seqs.push(i64::try_from(seq).unwrap_or(i64::MAX));
                c.ats.push(event.at);
                c.players.push(event.player.map(i64::from));
                c.bodies.push(event.body);
            }
        }
        c
    }
}

/// Writes one batch and tells each append its result. An error here is the connection's or
/// the database's: every append of the batch has been told it failed.
async fn write_batch(
    connection: &mut PgConnection,
    mut batch: Vec<Pending>,
) -> std::result::Result<(), sqlx::Error> {
    let c = Columns::of(&mut batch);
    let written: std::result::Result<Vec<i64>, sqlx::Error> = sqlx::query_scalar(
        "SELECT prophecy_append($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)",
    )
    .bind(c.table_ids)
    .bind(c.afters)
    .bind(c.counts)
    .bind(c.seat_players)
    .bind(c.seat_names)
    .bind(c.seat_hashes)
    .bind(c.seat_creators)
    .bind(c.removes)
    .bind(c.invites)
    .bind(c.owners)
    .bind(c.seqs)
    .bind(c.ats)
    .bind(c.players)
    .bind(c.bodies)
    .fetch_one(&mut *connection)
    .await;
    let seqs = match written {
        Ok(seqs) if seqs.len() == batch.len() => seqs,
        Ok(seqs) => {
            let message = format!("{} results for {} appends", seqs.len(), batch.len());
            fail(batch, &message);
            return Ok(());
        }
        Err(e) => {
            fail(batch, &e.to_string());
            return Err(e);
        }
    };
    for (pending, seq) in batch.into_iter().zip(seqs) {
        let result = u64::try_from(seq).map_err(|_| StoreError::Conflict);
        let _ = pending.done.send(result);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{NewEvent, TableId};

    fn pending(table: i64, body: &str) -> Pending {
        let (done, _) = oneshot::channel();
        Pending {
            table: TableId(table),
            after: 0,
            append: Append {
                events: vec![NewEvent {
                    at: 0,
                    player: None,
                    body: body.to_owned(),
                }],
                ..Append::default()
            },
            done,
        }
    }

    #[test]
    fn a_table_twice_in_a_batch_is_written_in_later_rounds_in_its_order() {
        let batch = vec![
            pending(2, "a"),
            pending(1, "b"),
            pending(2, "c"),
            pending(2, "d"),
            pending(3, "e"),
        ];
        let bodies: Vec<Vec<String>> = rounds(batch)
            .into_iter()
            .map(|round| {
                round
                    .into_iter()
                    .map(|mut p| p.append.events.remove(0).body)
                    .collect()
            })
            .collect();
        assert_eq!(bodies, [vec!["b", "a", "e"], vec!["c"], vec!["d"]]);
    }
}
