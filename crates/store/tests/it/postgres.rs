//! The PostgreSQL store against the real server of this machine (127.0.0.1:5432, or
//! `PROPHECY_TEST_POSTGRES`), each test in a database of its own that it creates and drops.

use store::{Append, Change, Link, NewEvent, NewSeat, PgStore, Store, StoreError};

/// The server the tests use: an address of a database its user may create databases from.
pub fn server_url() -> String {
    std::env::var("PROPHECY_TEST_POSTGRES")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".to_owned())
}

/// A database of its own on the test server, dropped by [`TestDb::drop_now`].
pub struct TestDb {
    name: String,
}

impl TestDb {
    pub async fn create() -> TestDb {
        use std::sync::atomic::{AtomicU32, Ordering};
        static N: AtomicU32 = AtomicU32::new(0);
        let name = format!(
            "prophecy_test_{}_{}",
            std::process::id(),
            N.fetch_add(1, Ordering::SeqCst)
        );
        admin(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)")).await;
        admin(&format!("CREATE DATABASE {name}")).await;
        TestDb { name }
    }

    /// Its address.
    pub fn url(&self) -> String {
        let server = server_url();
        let base = server.rsplit_once('/').map_or(server.as_str(), |(b, _)| b);
        format!("{base}/{}", self.name)
    }

    pub async fn drop_now(self) {
        admin(&format!(
            "DROP DATABASE IF EXISTS {} WITH (FORCE)",
            self.name
        ))
        .await;
    }
}

async fn admin(sql: &str) {
    use sqlx::Connection;
    let mut connection = sqlx::PgConnection::connect(&server_url())
        .await
        .unwrap_or_else(|e| {
            panic!(
                "the test PostgreSQL at {} does not answer: {e}",
                server_url()
            )
        });
    sqlx::raw_sql(sqlx::AssertSqlSafe(sql.to_owned()))
        .execute(&mut connection)
        .await
        .unwrap();
    let _ = connection.close().await;
}

fn event(at: i64, player: Option<u32>, body: &str) -> NewEvent {
    NewEvent {
        at,
        player,
        body: body.to_owned(),
    }
}

fn joining(player: u32, name: &str, secret: u8) -> Append {
    Append {
        events: vec![event(2, Some(player), &format!("{name} joined"))],
        new_seat: Some(NewSeat {
            player,
            name: name.to_owned(),
            secret_hash: vec![secret; 32],
            creator: player == 1,
        }),
        remove_seat: None,
        renew_invite: None,
    }
}

#[tokio::test]
async fn tables_seats_and_logs_live_in_postgres_across_servers() {
    let db = TestDb::create().await;
    let one = PgStore::open(&db.url()).await.unwrap();
    // A second server on the same database (its migrations find the schema there).
    let two = PgStore::open(&db.url()).await.unwrap();
    let table = one
        .create_table("tok", "story", 1_000, "code", None)
        .await
        .unwrap();
    assert_eq!(one.append(table, 0, joining(1, "Ada", 1)).await.unwrap(), 1);
    assert_eq!(two.append(table, 1, joining(2, "Bo", 2)).await.unwrap(), 2);
    let record = two.table_by_token("tok").await.unwrap().unwrap();
    assert_eq!((record.id, record.game.as_str()), (table, "story"));
    assert_eq!(record.invite.as_deref(), Some("code"));
    let seats = one.seats(table).await.unwrap();
    assert_eq!(
        seats
            .iter()
            .map(|s| (s.player, s.name.as_str(), s.creator))
            .collect::<Vec<_>>(),
        [(1, "Ada", true), (2, "Bo", false)]
    );
    let bo = two.seat_by_secret(table, &[2; 32]).await.unwrap().unwrap();
    assert_eq!(bo.name, "Bo");
    let removal = Append {
        events: vec![event(3, Some(1), "Bo was removed")],
        new_seat: None,
        remove_seat: Some(2),
        renew_invite: None,
    };
    assert_eq!(one.append(table, 2, removal).await.unwrap(), 3);
    assert!(
        two.seat_by_secret(table, &[2; 32])
            .await
            .unwrap()
            .unwrap()
            .removed
    );
    two.set_invite(table, None).await.unwrap();
    assert_eq!(
        one.table_by_token("tok").await.unwrap().unwrap().invite,
        None
    );
    // A read-only page is found by its code from the other handle, then closed.
    for (link, code) in [(Link::Story, "page"), (Link::Watch, "seen")] {
        two.set_link(table, link, Some(code)).await.unwrap();
        let (token, record) = one.table_by_link(link, code).await.unwrap().unwrap();
        assert_eq!((token.as_str(), record.id), ("tok", table));
    }
    let record = one.table_by_token("tok").await.unwrap().unwrap();
    assert_eq!(record.watch.as_deref(), Some("seen"));
    assert!(
        one.table_by_link(Link::Watch, "page")
            .await
            .unwrap()
            .is_none()
    );
    for link in [Link::Story, Link::Watch] {
        two.set_link(table, link, None).await.unwrap();
    }
    assert!(
        one.table_by_link(Link::Story, "page")
            .await
            .unwrap()
            .is_none()
    );
    assert!(
        one.table_by_link(Link::Watch, "seen")
            .await
            .unwrap()
            .is_none()
    );
    let log = two.events_after(table, 1).await.unwrap();
    assert_eq!(
        log.iter()
            .map(|e| (e.seq, e.body.as_str()))
            .collect::<Vec<_>>(),
        [(2, "Bo joined"), (3, "Bo was removed")]
    );
    assert_eq!(log[1].player, Some(1));
    assert!(one.table_by_token("nope").await.unwrap().is_none());
    one.close().await;
    two.close().await;
    // Reopened: everything is still there.
    let again = PgStore::open(&db.url()).await.unwrap();
    assert_eq!(again.events_after(table, 0).await.unwrap().len(), 3);
    again.close().await;
    db.drop_now().await;
}

#[tokio::test]
async fn writers_that_race_for_the_same_seq_one_wins_the_other_hears_conflict() {
    let db = TestDb::create().await;
    let one = PgStore::open(&db.url()).await.unwrap();
    let two = PgStore::open(&db.url()).await.unwrap();
    let table = one
        .create_table("race", "story", 1, "c", None)
        .await
        .unwrap();
    one.append(table, 0, joining(1, "Ada", 1)).await.unwrap();
    // A stale writer is refused and writes nothing.
    let stale = two
        .append(
            table,
            0,
            Append {
                events: vec![event(5, Some(1), "late")],
                ..Append::default()
            },
        )
        .await;
    assert!(matches!(stale, Err(StoreError::Conflict)), "{stale:?}");
    // Many appends after the same seq, at once, from two servers: exactly one lands.
    let mut racers = Vec::new();
    for i in 0..16 {
        let store = if i % 2 == 0 { one.clone() } else { two.clone() };
        racers.push(tokio::spawn(async move {
            store
                .append(
                    table,
                    1,
                    Append {
                        events: vec![
                            event(9, Some(1), &format!("racer {i}")),
                            event(9, Some(1), "and more"),
                        ],
                        ..Append::default()
                    },
                )
                .await
        }));
    }
    let mut won = 0;
    for racer in racers {
        match racer.await.unwrap() {
            Ok(seq) => {
                assert_eq!(seq, 3);
                won += 1;
            }
            Err(StoreError::Conflict) => {}
            Err(e) => panic!("{e}"),
        }
    }
    assert_eq!(won, 1);
    let log = one.events_after(table, 0).await.unwrap();
    assert_eq!(log.iter().map(|e| e.seq).collect::<Vec<_>>(), [1, 2, 3]);
    assert_eq!(log[2].body, "and more");
    one.close().await;
    two.close().await;
    db.drop_now().await;
}

#[tokio::test]
async fn every_store_on_the_database_hears_of_each_append_once_it_commits() {
    let db = TestDb::create().await;
    let one = PgStore::open(&db.url()).await.unwrap();
    let two = PgStore::open(&db.url()).await.unwrap();
    let mut heard = two.changes().expect("PostgreSQL tells of changes");
    let table = one
        .create_table("news", "story", 1, "c", None)
        .await
        .unwrap();
    one.append(table, 0, joining(1, "Ada", 1)).await.unwrap();
    let _ = one.append(table, 0, joining(2, "Bo", 2)).await; // a conflict: no notice
    one.append(table, 1, joining(2, "Bo", 2)).await.unwrap();
    for seq in [1, 2] {
        let change = tokio::time::timeout(std::time::Duration::from_secs(5), heard.recv())
            .await
            .expect("a notice within 5 s")
            .unwrap();
        assert_eq!(change, Change::Appended { table, seq });
    }
    assert!(heard.try_recv().is_err(), "nothing for the refused append");
    one.close().await;
    two.close().await;
    db.drop_now().await;
}

#[tokio::test]
async fn an_unreachable_or_malformed_address_is_a_clear_error() {
    let refused = PgStore::open("postgres://nobody@127.0.0.1:1/none").await;
    let Err(StoreError::Open(message)) = refused else {
        panic!("{refused:?}")
    };
    assert!(
        message.starts_with("cannot reach the database postgres://127.0.0.1:1/none:"),
        "{message}"
    );
    let malformed = PgStore::open("postgres://a@b:notaport/x").await;
    assert!(
        matches!(malformed, Err(StoreError::Open(_))),
        "{malformed:?}"
    );
}

/// A check that lets every table's log through.
fn every_log(_game: &str, _events: &[String]) -> Result<(), String> {
    Ok(())
}

#[tokio::test]
async fn a_sqlite_file_is_copied_into_postgres_and_copying_again_adds_only_what_is_new() {
    let file = crate::fresh_db();
    let sqlite = store::SqliteStore::open(&file).await.unwrap();
    let mut tables = Vec::new();
    for t in 0..3 {
        let table = sqlite
            .create_table(
                &format!("tok{t}"),
                "story",
                100 + t,
                &format!("code{t}"),
                None,
            )
            .await
            .unwrap();
        sqlite
            .append(table, 0, joining(1, "Ada", 10 + t as u8))
            .await
            .unwrap();
        sqlite
            .append(table, 1, joining(2, "Bo", 20 + t as u8))
            .await
            .unwrap();
        tables.push(table);
    }
    let db = TestDb::create().await;
    let pg = PgStore::open(&db.url()).await.unwrap();
    let first = store::copy(&file, &pg, every_log).await.unwrap();
    assert_eq!((first.tables, first.seats, first.events), (3, 6, 6));
    // Again: nothing to add.
    let again = store::copy(&file, &pg, every_log).await.unwrap();
    assert_eq!(
        (again.tables, again.seats, again.events, again.unchanged),
        (0, 0, 0, 3)
    );
    // Played on in the file: only the new event and the removal go over.
    let removal = Append {
        events: vec![event(9, Some(1), "Bo was removed")],
        new_seat: None,
        remove_seat: Some(2),
        renew_invite: None,
    };
    sqlite.append(tables[1], 2, removal).await.unwrap();
    let later = store::copy(&file, &pg, every_log).await.unwrap();
    assert_eq!(
        (later.tables, later.seats, later.events, later.unchanged),
        (0, 1, 1, 2)
    );
    // Every table, seat and event is there, as the file has them.
    for (t, table) in tables.iter().enumerate() {
        let copied = pg
            .table_by_token(&format!("tok{t}"))
            .await
            .unwrap()
            .unwrap();
        assert_eq!(copied.invite.as_deref(), Some(format!("code{t}").as_str()));
        assert_eq!(
            pg.seats(copied.id).await.unwrap(),
            sqlite.seats(*table).await.unwrap()
        );
        let theirs = sqlite.events_after(*table, 0).await.unwrap();
        assert_eq!(pg.events_after(copied.id, 0).await.unwrap(), theirs);
        let secret = [10 + t as u8; 32];
        assert_eq!(
            pg.seat_by_secret(copied.id, &secret)
                .await
                .unwrap()
                .unwrap()
                .name,
            "Ada"
        );
    }
    // A table played on at the destination since is left alone.
    let moved = pg.table_by_token("tok0").await.unwrap().unwrap().id;
    pg.append(
        moved,
        2,
        Append {
            events: vec![event(12, Some(1), "played on")],
            ..Append::default()
        },
    )
    .await
    .unwrap();
    sqlite
        .append(
            tables[0],
            2,
            Append {
                events: vec![event(12, Some(1), "elsewhere")],
                ..Append::default()
            },
        )
        .await
        .unwrap();
    let diverged = store::copy(&file, &pg, every_log).await.unwrap();
    assert_eq!((diverged.diverged, diverged.events), (1, 0));
    assert_eq!(
        pg.events_after(moved, 2).await.unwrap()[0].body,
        "played on"
    );
    sqlite.close().await;
    pg.close().await;
    db.drop_now().await;
}

#[tokio::test]
async fn a_copy_leaves_out_the_tables_its_check_refuses_and_never_brings_back_a_removed_seat() {
    let file = crate::fresh_db();
    let sqlite = store::SqliteStore::open(&file).await.unwrap();
    let mut tables = Vec::new();
    for (t, (token, game)) in [("kept", "story"), ("chess", "chess"), ("gap", "story")]
        .into_iter()
        .enumerate()
    {
        let table = sqlite
            .create_table(token, game, 1, "code", None)
            .await
            .unwrap();
        let secret = 10 * t as u8;
        sqlite
            .append(table, 0, joining(1, "Ada", secret + 1))
            .await
            .unwrap();
        sqlite
            .append(table, 1, joining(2, "Bo", secret + 2))
            .await
            .unwrap();
        tables.push(table);
    }
    // The third table's log loses its second event (a damaged file).
    {
        use sqlx::Connection;
        let mut raw = sqlx::SqliteConnection::connect(&format!("sqlite://{}", file.display()))
            .await
            .unwrap();
        sqlx::query("DELETE FROM events WHERE table_id = ? AND seq = 1")
            .bind(tables[2].0)
            .execute(&mut raw)
            .await
            .unwrap();
        raw.close().await.unwrap();
    }
    let no_chess = |game: &str, events: &[String]| {
        if game == "chess" {
            Err(format!(
                "there is no game '{game}' ({} events)",
                events.len()
            ))
        } else {
            Ok(())
        }
    };
    let db = TestDb::create().await;
    let pg = PgStore::open(&db.url()).await.unwrap();
    let first = store::copy(&file, &pg, no_chess).await.unwrap();
    assert_eq!((first.tables, first.events), (1, 2));
    assert_eq!(
        first.skipped,
        [
            store::Skipped {
                table: tables[1].0,
                game: "chess".into(),
                reason: "there is no game 'chess' (2 events)".into()
            },
            store::Skipped {
                table: tables[2].0,
                game: "story".into(),
                reason: "its log has no event 1 (the next is 2)".into()
            },
        ]
    );
    for gone in ["chess", "gap"] {
        assert!(pg.table_by_token(gone).await.unwrap().is_none(), "{gone}");
    }
    // Bo is removed at the destination (a removal without an event: the log there is still
    // the start of the file's), and the file is played on.
    let kept = pg.table_by_token("kept").await.unwrap().unwrap().id;
    let removal = Append {
        remove_seat: Some(2),
        ..Append::default()
    };
    pg.append(kept, 2, removal).await.unwrap();
    sqlite
        .append(
            tables[0],
            2,
            Append {
                events: vec![event(5, Some(1), "later")],
                ..Append::default()
            },
        )
        .await
        .unwrap();
    let again = store::copy(&file, &pg, no_chess).await.unwrap();
    assert_eq!((again.events, again.seats), (1, 0));
    let bo = pg
        .seats(kept)
        .await
        .unwrap()
        .into_iter()
        .find(|s| s.player == 2);
    assert!(bo.unwrap().removed, "Bo stays removed");
    sqlite.close().await;
    pg.close().await;
    db.drop_now().await;
}

#[tokio::test]
async fn a_table_s_name_lives_in_postgres_and_a_copy_carries_it_and_its_watch_link() {
    let db = TestDb::create().await;
    let pg = PgStore::open(&db.url()).await.unwrap();
    let named = pg
        .create_table("named", "board", 1, "code", Some("Friday’s game"))
        .await
        .unwrap();
    pg.create_table("plain", "board", 1, "code2", None)
        .await
        .unwrap();
    let record = pg.table_by_token("named").await.unwrap().unwrap();
    assert_eq!(record.name.as_deref(), Some("Friday’s game"));
    assert_eq!(
        pg.table_by_token("plain").await.unwrap().unwrap().name,
        None
    );
    pg.set_link(named, Link::Story, Some("page")).await.unwrap();
    let (_, shared) = pg
        .table_by_link(Link::Story, "page")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(shared.name.as_deref(), Some("Friday’s game"));

    // A file of this version: its names go over.
    let file = crate::fresh_db();
    let sqlite = store::SqliteStore::open(&file).await.unwrap();
    sqlite
        .create_table("from-file", "challenge", 1, "c", Some("Tuesday session"))
        .await
        .unwrap();
    let unnamed = sqlite
        .create_table("unnamed", "challenge", 1, "d", None)
        .await
        .unwrap();
    // And a table's open watch link.
    sqlite
        .set_link(unnamed, Link::Watch, Some("seen"))
        .await
        .unwrap();
    sqlite.close().await;
    let copied = store::copy(&file, &pg, every_log).await.unwrap();
    assert_eq!(copied.tables, 2);
    let there = pg.table_by_token("from-file").await.unwrap().unwrap();
    assert_eq!(there.name.as_deref(), Some("Tuesday session"));
    let (token, _) = pg
        .table_by_link(Link::Watch, "seen")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(token, "unnamed");
    assert_eq!(
        pg.table_by_token("unnamed").await.unwrap().unwrap().name,
        None
    );

    // A file from before tables had names: its tables arrive unnamed.
    let old = crate::fresh_db();
    crate::database_before(&old, 3).await;
    let copied = store::copy(&old, &pg, every_log).await.unwrap();
    assert_eq!((copied.tables, copied.events), (1, 1));
    let there = pg.table_by_token("old").await.unwrap().unwrap();
    assert_eq!((there.game.as_str(), there.name), ("board", None));
    pg.close().await;
    db.drop_now().await;
}

#[tokio::test]
async fn a_postgres_database_from_before_table_names_opens_with_its_tables_unnamed() {
    use sqlx::Connection;
    let db = TestDb::create().await;
    let mut migrator = sqlx::migrate!("./migrations/postgres");
    migrator.migrations = migrator
        .migrations
        .iter()
        .filter(|m| m.version <= 2)
        .cloned()
        .collect::<Vec<_>>()
        .into();
    let mut raw = sqlx::PgConnection::connect(&db.url()).await.unwrap();
    migrator.run(&mut raw).await.unwrap();
    sqlx::raw_sql(
        "INSERT INTO tables (token, game, created_at, invite) VALUES ('old', 'challenge', 5, 'code')",
    )
    .execute(&mut raw)
    .await
    .unwrap();
    raw.close().await.unwrap();
    let pg = PgStore::open(&db.url()).await.unwrap();
    let old = pg.table_by_token("old").await.unwrap().unwrap();
    assert_eq!(
        (old.game.as_str(), old.created_at, old.name),
        ("challenge", 5, None)
    );
    pg.create_table("new", "board", 6, "code2", Some("Named"))
        .await
        .unwrap();
    assert_eq!(
        pg.table_by_token("new")
            .await
            .unwrap()
            .unwrap()
            .name
            .as_deref(),
        Some("Named")
    );
    pg.close().await;
    db.drop_now().await;
}
