//! The SQLite store against a real database file.

mod budgets;
mod group;
mod postgres;

use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};
use store::{Append, Link, NewEvent, NewSeat, SqliteStore, Store, StoreError};

/// A fresh database file in its own temporary folder, removed when dropped.
pub struct TempDb {
    dir: PathBuf,
    path: PathBuf,
}

impl std::ops::Deref for TempDb {
    type Target = std::path::Path;
    fn deref(&self) -> &std::path::Path {
        &self.path
    }
}

impl Drop for TempDb {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A new `TempDb`.
pub fn fresh_db() -> TempDb {
    static N: AtomicU32 = AtomicU32::new(0);
    let dir = std::env::temp_dir().join(format!(
        "prophecy-store-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::SeqCst)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    TempDb {
        path: dir.join("tables.db"),
        dir,
    }
}

fn event(at: i64, player: Option<u32>, body: &str) -> NewEvent {
    NewEvent {
        at,
        player,
        body: body.to_owned(),
    }
}

#[tokio::test]
async fn a_table_s_log_and_seats_survive_reopening_the_file() {
    let path = fresh_db();
    let store = SqliteStore::open(&path).await.unwrap();
    let table = store
        .create_table("abc123", "story", 1_000, "invite", None)
        .await
        .unwrap();
    let seq = store
        .append(
            table,
            0,
            Append {
                events: vec![
                    event(1, Some(1), "{\"opened\":true}"),
                    event(2, Some(1), "{\"joined\":1}"),
                ],
                new_seat: Some(NewSeat {
                    player: 1,
                    name: "Ada".into(),
                    secret_hash: vec![1; 32],
                    creator: true,
                }),
                remove_seat: None,
                renew_invite: None,
            },
        )
        .await
        .unwrap();
    assert_eq!(seq, 2);
    let seq = store
        .append(
            table,
            2,
            Append {
                events: vec![event(3, None, "{\"flag\":1}")],
                ..Append::default()
            },
        )
        .await
        .unwrap();
    assert_eq!(seq, 3);
    store.close().await;

    let store = SqliteStore::open(&path).await.unwrap();
    let record = store.table_by_token("abc123").await.unwrap().unwrap();
    assert_eq!(
        (record.id, record.game.as_str(), record.created_at),
        (table, "story", 1_000)
    );
    assert_eq!(store.table_by_token("nope").await.unwrap(), None);
    let events = store.events_after(table, 1).await.unwrap();
    let seqs: Vec<u64> = events.iter().map(|e| e.seq).collect();
    assert_eq!(seqs, [2, 3]);
    assert_eq!(events[1].player, None, "anonymous events keep no player");
    assert_eq!(events[0].body, "{\"joined\":1}");
    let seat = store
        .seat_by_secret(table, &[1; 32])
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (seat.player, seat.name.as_str(), seat.creator, seat.removed),
        (1, "Ada", true, false)
    );
    assert_eq!(store.seat_by_secret(table, &[2; 32]).await.unwrap(), None);
}

#[tokio::test]
async fn a_stale_writer_gets_a_conflict_and_writes_nothing() {
    let db = fresh_db();
    let store = SqliteStore::open(&db).await.unwrap();
    let table = store
        .create_table("t", "story", 0, "invite", None)
        .await
        .unwrap();
    store
        .append(
            table,
            0,
            Append {
                events: vec![event(1, Some(1), "a")],
                ..Append::default()
            },
        )
        .await
        .unwrap();
    let stale = store
        .append(
            table,
            0,
            Append {
                events: vec![event(2, Some(2), "b")],
                new_seat: Some(NewSeat {
                    player: 2,
                    name: "Bo".into(),
                    secret_hash: vec![2; 32],
                    creator: false,
                }),
                remove_seat: None,
                renew_invite: None,
            },
        )
        .await;
    assert!(matches!(stale, Err(StoreError::Conflict)), "{stale:?}");
    assert_eq!(store.events_after(table, 0).await.unwrap().len(), 1);
    assert!(
        store.seats(table).await.unwrap().is_empty(),
        "the seat of a refused write is not kept"
    );
    // Events alone: behind the log or ahead of it, nothing of the write is kept.
    for after in [0, 2] {
        let refused = store
            .append(
                table,
                after,
                Append {
                    events: vec![event(3, Some(1), "c"), event(4, Some(1), "d")],
                    ..Append::default()
                },
            )
            .await;
        assert!(matches!(refused, Err(StoreError::Conflict)), "{refused:?}");
    }
    assert_eq!(store.events_after(table, 0).await.unwrap().len(), 1);
    // A long write (more than one statement's worth) lands whole and in order.
    let long: Vec<NewEvent> = (0..150).map(|i| event(i, None, &format!("e{i}"))).collect();
    let last = store
        .append(
            table,
            1,
            Append {
                events: long,
                ..Append::default()
            },
        )
        .await
        .unwrap();
    assert_eq!(last, 151);
    let log = store.events_after(table, 0).await.unwrap();
    let bodies: Vec<&str> = log.iter().map(|e| e.body.as_str()).collect();
    assert_eq!(bodies.len(), 151);
    assert_eq!((bodies[0], bodies[1], bodies[150]), ("a", "e0", "e149"));
    assert!(log.iter().enumerate().all(|(i, e)| e.seq == i as u64 + 1));
}

#[tokio::test]
async fn removing_a_seat_marks_it() {
    let db = fresh_db();
    let store = SqliteStore::open(&db).await.unwrap();
    let table = store
        .create_table("t", "story", 0, "invite", None)
        .await
        .unwrap();
    for (after, player) in [(0, 1u32), (1, 2)] {
        store
            .append(
                table,
                after,
                Append {
                    events: vec![event(1, Some(player), "joined")],
                    new_seat: Some(NewSeat {
                        player,
                        name: format!("P{player}"),
                        secret_hash: vec![player as u8; 32],
                        creator: player == 1,
                    }),
                    remove_seat: None,
                    renew_invite: None,
                },
            )
            .await
            .unwrap();
    }
    store
        .append(
            table,
            2,
            Append {
                events: vec![event(3, Some(1), "removed 2")],
                new_seat: None,
                remove_seat: Some(2),
                renew_invite: None,
            },
        )
        .await
        .unwrap();
    let seats = store.seats(table).await.unwrap();
    assert_eq!(
        seats
            .iter()
            .map(|s| (s.player, s.removed))
            .collect::<Vec<_>>(),
        [(1, false), (2, true)]
    );
    // Tables are separate: the same seq numbers start again at 1 elsewhere.
    let other = store
        .create_table("u", "story", 0, "invite", None)
        .await
        .unwrap();
    assert_eq!(
        store
            .append(
                other,
                0,
                Append {
                    events: vec![event(1, None, "x")],
                    ..Append::default()
                }
            )
            .await
            .unwrap(),
        1
    );
}

#[tokio::test]
async fn an_unusable_path_is_a_clear_error() {
    let err = SqliteStore::open(std::path::Path::new("/proc/no/such/dir/x.db"))
        .await
        .unwrap_err();
    let text = err.to_string();
    assert!(
        text.starts_with("cannot open the database /proc/no/such/dir/x.db"),
        "{text}"
    );
}

#[tokio::test]
async fn concurrent_writers_to_many_tables_all_land() {
    let db = fresh_db();
    let store = SqliteStore::open(&db).await.unwrap();
    let mut tasks = Vec::new();
    for t in 0..40 {
        let store = store.clone();
        tasks.push(tokio::spawn(async move {
            let table = store
                .create_table(&format!("token-{t}"), "story", 0, "invite", None)
                .await
                .unwrap();
            for after in 0..10u64 {
                let seq = store
                    .append(
                        table,
                        after,
                        Append {
                            events: vec![event(1, Some(1), "e")],
                            ..Append::default()
                        },
                    )
                    .await
                    .unwrap();
                assert_eq!(seq, after + 1);
            }
            table
        }));
    }
    for task in tasks {
        let table = task.await.unwrap();
        assert_eq!(store.events_after(table, 0).await.unwrap().len(), 10);
    }
    store.close().await;
    let closed = store.append(store::TableId(1), 10, Append::default()).await;
    assert!(matches!(closed, Err(StoreError::Open(_))), "{closed:?}");
}

#[tokio::test]
async fn writes_committed_together_keep_their_own_outcomes() {
    let db = fresh_db();
    let store = SqliteStore::open(&db).await.unwrap();
    let one = |body: &str| Append {
        events: vec![event(1, Some(1), body)],
        ..Append::default()
    };
    let mut tables = Vec::new();
    for t in 0..10 {
        let table = store
            .create_table(&format!("token-{t}"), "story", 0, "invite", None)
            .await
            .unwrap();
        store.append(table, 0, one("first")).await.unwrap();
        tables.push(table);
    }
    // Sent at once, so that the writer takes them together: on odd tables a stale write, and
    // on every table two writers racing for seq 2.
    let mut writes = Vec::new();
    for (t, table) in tables.iter().enumerate() {
        let after = if t % 2 == 1 { 0 } else { 1 };
        for racer in ["a", "b"] {
            let (store, table, write) = (store.clone(), *table, one(racer));
            writes.push(tokio::spawn(async move {
                (t, store.append(table, after, write).await)
            }));
        }
    }
    let mut won = [0; 10];
    for write in writes {
        let (t, outcome) = write.await.unwrap();
        match outcome {
            Ok(seq) => {
                assert_eq!((t % 2, seq), (0, 2), "table {t}");
                won[t] += 1;
            }
            Err(StoreError::Conflict) => {}
            Err(e) => panic!("table {t}: {e}"),
        }
    }
    for (t, table) in tables.iter().enumerate() {
        let log = store.events_after(*table, 0).await.unwrap();
        let expected = if t % 2 == 1 { 1 } else { 2 };
        assert_eq!((won[t], log.len()), (expected - 1, expected), "table {t}");
        assert!(log.iter().enumerate().all(|(i, e)| e.seq == i as u64 + 1));
    }
}

#[tokio::test]
async fn a_clean_close_leaves_every_table_in_the_database_file_alone() {
    let db = fresh_db();
    let store = SqliteStore::open(&db).await.unwrap();
    let table = store
        .create_table("t", "story", 0, "code", None)
        .await
        .unwrap();
    store
        .append(
            table,
            0,
            Append {
                events: vec![event(1, Some(1), "kept")],
                ..Append::default()
            },
        )
        .await
        .unwrap();
    store.close().await;
    let wal = db.with_extension("db-wal");
    assert!(
        std::fs::metadata(&wal).map_or(true, |m| m.len() == 0),
        "the write-ahead log was checkpointed into the file"
    );
    // The obvious backup: a copy of the database file, nothing else.
    let copy = db.with_file_name("copy.db");
    std::fs::copy(&*db, &copy).unwrap();
    let store = SqliteStore::open(&copy).await.unwrap();
    let record = store.table_by_token("t").await.unwrap().unwrap();
    assert_eq!(record.invite.as_deref(), Some("code"));
    let events = store.events_after(record.id, 0).await.unwrap();
    assert_eq!(events[0].body, "kept");
    store.close().await;
}

#[tokio::test]
async fn a_database_in_use_is_refused_until_its_store_closes() {
    let db = fresh_db();
    let first = SqliteStore::open(&db).await.unwrap();
    let second = SqliteStore::open(&db).await.unwrap_err();
    assert!(matches!(second, StoreError::InUse(_)), "{second:?}");
    assert!(
        second
            .to_string()
            .contains("in use by another prophecy serve"),
        "{second}"
    );
    first.close().await;
    let again = SqliteStore::open(&db).await.unwrap();
    again.close().await;
}

#[tokio::test]
async fn a_file_that_is_not_a_database_or_is_damaged_is_refused_on_open() {
    let db = fresh_db();
    std::fs::write(&*db, b"these are my notes, not a database\n".repeat(200)).unwrap();
    let err = SqliteStore::open(&db).await.unwrap_err();
    assert!(matches!(err, StoreError::Damaged(_)), "{err:?}");
    assert_eq!(err.to_string().lines().count(), 1);
    assert!(
        err.to_string().contains("restore it from a backup"),
        "{err}"
    );

    // A real database with a page overwritten in the middle.
    let db = fresh_db();
    let store = SqliteStore::open(&db).await.unwrap();
    for t in 0..200 {
        let table = store
            .create_table(&format!("token-{t}"), "story", 0, "code", None)
            .await
            .unwrap();
        store
            .append(
                table,
                0,
                Append {
                    events: vec![event(1, Some(1), &"story text ".repeat(50))],
                    ..Append::default()
                },
            )
            .await
            .unwrap();
    }
    store.close().await;
    let mut bytes = std::fs::read(&*db).unwrap();
    assert!(bytes.len() > 40_000, "{} bytes", bytes.len());
    let page = 4096;
    for b in &mut bytes[5 * page..5 * page + 2000] {
        *b = 0xA5;
    }
    std::fs::write(&*db, &bytes).unwrap();
    let err = SqliteStore::open(&db).await.unwrap_err();
    assert!(matches!(err, StoreError::Damaged(_)), "{err:?}");
    assert_eq!(err.to_string().lines().count(), 1, "{err}");
}

#[tokio::test]
async fn an_undecodable_row_is_an_error_not_a_panic() {
    let db = fresh_db();
    let store = SqliteStore::open(&db).await.unwrap();
    let table = store
        .create_table("t", "story", 0, "code", None)
        .await
        .unwrap();
    store
        .append(
            table,
            0,
            Append {
                events: vec![event(1, Some(1), "fine")],
                new_seat: Some(NewSeat {
                    player: 1,
                    name: "Ada".into(),
                    secret_hash: vec![1; 32],
                    creator: true,
                }),
                ..Append::default()
            },
        )
        .await
        .unwrap();
    store.close().await;
    {
        use sqlx::Connection;
        let url = format!("sqlite://{}", db.display());
        let mut connection = sqlx::SqliteConnection::connect(&url).await.unwrap();
        for sql in [
            "UPDATE events SET body = CAST(x'ff00fe' AS TEXT)",
            "UPDATE seats SET name = CAST(x'c3' AS TEXT)",
            "UPDATE tables SET game = CAST(x'80' AS TEXT)",
        ] {
            sqlx::query(sql).execute(&mut connection).await.unwrap();
        }
        connection.close().await.unwrap();
    }
    let store = SqliteStore::open(&db).await.unwrap();
    let damaged = |r: Result<(), StoreError>| match r {
        Err(StoreError::Damaged(message)) => message,
        other => panic!("{other:?}"),
    };
    let message = damaged(store.events_after(table, 0).await.map(|_| ()));
    assert!(
        message.starts_with("a stored event cannot be read"),
        "{message}"
    );
    damaged(store.seats(table).await.map(|_| ()));
    damaged(store.seat_by_secret(table, &[1; 32]).await.map(|_| ()));
    damaged(store.table_by_token("t").await.map(|_| ()));
    store.close().await;
}

#[tokio::test]
async fn the_invitation_is_renewed_and_closed() {
    let db = fresh_db();
    let store = SqliteStore::open(&db).await.unwrap();
    let table = store
        .create_table("t", "story", 0, "first", None)
        .await
        .unwrap();
    store.set_invite(table, Some("second")).await.unwrap();
    let record = store.table_by_token("t").await.unwrap().unwrap();
    assert_eq!(record.invite.as_deref(), Some("second"));
    store.set_invite(table, None).await.unwrap();
    let record = store.table_by_token("t").await.unwrap().unwrap();
    assert_eq!(record.invite, None);
    store.close().await;
}

#[tokio::test]
async fn read_only_pages_are_opened_found_by_their_codes_and_closed() {
    let db = fresh_db();
    let store = SqliteStore::open(&db).await.unwrap();
    let table = store
        .create_table("t", "story", 0, "join", None)
        .await
        .unwrap();
    let other = store
        .create_table("u", "story", 0, "join2", None)
        .await
        .unwrap();
    let record = store.table_by_token("t").await.unwrap().unwrap();
    assert_eq!((record.share, record.watch), (None, None));
    for (link, code) in [(Link::Story, "page"), (Link::Watch, "seen")] {
        store.set_link(table, link, Some(code)).await.unwrap();
        let (token, record) = store.table_by_link(link, code).await.unwrap().unwrap();
        assert_eq!((token.as_str(), record.id), ("t", table));
        // Two tables never share a code.
        assert!(store.set_link(other, link, Some(code)).await.is_err());
        assert!(store.table_by_link(link, "nope").await.unwrap().is_none());
    }
    let record = store.table_by_token("t").await.unwrap().unwrap();
    assert_eq!(record.share.as_deref(), Some("page"));
    assert_eq!(record.watch.as_deref(), Some("seen"));
    // One page's code does not open the other.
    assert!(
        store
            .table_by_link(Link::Watch, "page")
            .await
            .unwrap()
            .is_none()
    );
    assert!(
        store
            .table_by_link(Link::Story, "seen")
            .await
            .unwrap()
            .is_none()
    );
    // Closing one leaves the other open.
    store.set_link(table, Link::Watch, None).await.unwrap();
    assert!(
        store
            .table_by_link(Link::Watch, "seen")
            .await
            .unwrap()
            .is_none()
    );
    assert!(
        store
            .table_by_link(Link::Story, "page")
            .await
            .unwrap()
            .is_some()
    );
    store.set_link(table, Link::Story, None).await.unwrap();
    assert!(
        store
            .table_by_link(Link::Story, "page")
            .await
            .unwrap()
            .is_none()
    );
    store.close().await;
}

#[tokio::test]
async fn a_table_keeps_the_name_its_creator_gave_it() {
    let db = fresh_db();
    let store = SqliteStore::open(&db).await.unwrap();
    let named = store
        .create_table("t", "board", 0, "join", Some("Friday’s <b>game</b>"))
        .await
        .unwrap();
    store
        .create_table("u", "board", 0, "join2", None)
        .await
        .unwrap();
    let record = store.table_by_token("t").await.unwrap().unwrap();
    assert_eq!(record.name.as_deref(), Some("Friday’s <b>game</b>"));
    assert_eq!(store.table_by_token("u").await.unwrap().unwrap().name, None);
    store
        .set_link(named, Link::Story, Some("page"))
        .await
        .unwrap();
    let (_, shared) = store
        .table_by_link(Link::Story, "page")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(shared.name.as_deref(), Some("Friday’s <b>game</b>"));
    store.close().await;
    // Reopened: still there.
    let store = SqliteStore::open(&db).await.unwrap();
    let record = store.table_by_token("t").await.unwrap().unwrap();
    assert_eq!(record.name.as_deref(), Some("Friday’s <b>game</b>"));
    store.close().await;
}

/// A database file as a server from before tables had names left it (the migrations up to
/// `version`), with one table `old` (a game, one event, one seat).
pub async fn database_before(path: &std::path::Path, version: i64) {
    use sqlx::Connection;
    let mut migrator = sqlx::migrate!("./migrations/sqlite");
    migrator.migrations = migrator
        .migrations
        .iter()
        .filter(|m| m.version <= version)
        .cloned()
        .collect::<Vec<_>>()
        .into();
    let options = sqlx::sqlite::SqliteConnectOptions::new()
        .filename(path)
        .create_if_missing(true);
    let mut raw = sqlx::SqliteConnection::connect_with(&options)
        .await
        .unwrap();
    migrator.run(&mut raw).await.unwrap();
    let columns: Vec<String> =
        sqlx::query_scalar("SELECT name FROM pragma_table_info('tables') ORDER BY cid")
            .fetch_all(&mut raw)
            .await
            .unwrap();
    assert!(!columns.iter().any(|c| c == "name"), "{columns:?}");
    sqlx::raw_sql(
        "INSERT INTO tables (id, token, game, created_at, invite) VALUES (7, 'old', 'board', 5, 'code');
         INSERT INTO seats (table_id, player, name, secret_hash, creator) VALUES (7, 1, 'Ada', x'01', 1);
         INSERT INTO events (table_id, seq, at, player, body) VALUES (7, 1, 5, NULL, 'opened');",
    )
    .execute(&mut raw)
    .await
    .unwrap();
    raw.close().await.unwrap();
}

#[tokio::test]
async fn a_database_from_before_table_names_opens_with_its_tables_unnamed() {
    let db = fresh_db();
    database_before(&db, 3).await;
    let store = SqliteStore::open(&db).await.unwrap();
    let old = store.table_by_token("old").await.unwrap().unwrap();
    assert_eq!(
        (old.game.as_str(), old.created_at, old.name),
        ("board", 5, None)
    );
    assert_eq!(store.events_after(old.id, 0).await.unwrap().len(), 1);
    store
        .create_table("new", "board", 6, "code2", Some("Named"))
        .await
        .unwrap();
    assert_eq!(
        store
            .table_by_token("new")
            .await
            .unwrap()
            .unwrap()
            .name
            .as_deref(),
        Some("Named")
    );
    store.close().await;
}
