//! Group commit on PostgreSQL: appends waiting together commit together, a conflict fails its
//! own append alone, and a batch cut by a killed connection keeps every acknowledged append
//! once.

use crate::postgres::{TestDb, server_url};
use sqlx::Connection;
use std::collections::HashMap;
use std::time::Duration;
use store::{Append, NewEvent, PgStore, Store, StoreError, TableId};

fn line(text: String) -> Append {
    Append {
        events: vec![NewEvent {
            at: 1,
            player: Some(1),
            body: text,
        }],
        ..Append::default()
    }
}

async fn tables(store: &PgStore, n: usize, name: &str) -> Vec<TableId> {
    let mut tables = Vec::new();
    for i in 0..n {
        let token = format!("{name}-{i}");
        tables.push(
            store
                .create_table(&token, "story", 1, "c", None)
                .await
                .unwrap(),
        );
    }
    tables
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn appends_waiting_together_commit_together_and_a_conflict_fails_only_its_own() {
    let db = TestDb::create().await;
    let store = PgStore::open(&db.url()).await.unwrap();
    let tables = tables(&store, 64, "batch").await;
    for &table in &tables {
        store.append(table, 0, line("first".into())).await.unwrap();
    }
    // Everyone's notices, raw, to see how many each carries.
    let mut listener = sqlx::postgres::PgListener::connect(&db.url())
        .await
        .unwrap();
    listener.listen("prophecy_events").await.unwrap();
    // 64 appends at once; the one for table 7 names a number its log has passed.
    let mut appends = Vec::new();
    for (i, &table) in tables.iter().enumerate() {
        let store = store.clone();
        let after = if i == 7 { 0 } else { 1 };
        appends.push(tokio::spawn(async move {
            store
                .append(table, after, line(format!("second {i}")))
                .await
        }));
    }
    for (i, append) in appends.into_iter().enumerate() {
        match append.await.unwrap() {
            Ok(seq) => assert!(i != 7 && seq == 2, "table {i}: {seq}"),
            Err(StoreError::Conflict) => assert_eq!(i, 7, "only the stale append conflicts"),
            Err(e) => panic!("table {i}: {e}"),
        }
    }
    for (i, &table) in tables.iter().enumerate() {
        let log = store.events_after(table, 0).await.unwrap();
        let bodies: Vec<&str> = log.iter().map(|e| e.body.as_str()).collect();
        if i == 7 {
            assert_eq!(bodies, ["first"]);
        } else {
            assert_eq!(bodies, ["first".to_owned(), format!("second {i}")]);
        }
    }
    // 63 appends in far fewer notices: they were committed in groups.
    let mut items = 0;
    let mut notices = 0;
    while items < 63 {
        let notice = tokio::time::timeout(Duration::from_secs(10), listener.recv())
            .await
            .expect("every append's notice within 10 s")
            .unwrap();
        notices += 1;
        items += notice.payload().split(' ').count();
    }
    assert_eq!(
        items, 63,
        "one item per append that landed, none for the conflict"
    );
    assert!(notices <= 16, "63 appends came in {notices} notices");
    store.close().await;
    db.drop_now().await;
}

/// Appends lines to one table, one after another, until `lines` are acknowledged. After a
/// failed append it reads where the log ends (the append may have committed) and goes on
/// from there with a new line. Returns the acknowledged lines and how many appends failed.
async fn keep_appending(store: PgStore, table: TableId, lines: usize) -> (Vec<String>, usize) {
    let mut acknowledged = Vec::new();
    let mut failed = 0;
    let mut after = 0;
    let mut n = 0;
    while acknowledged.len() < lines {
        n += 1;
        let text = format!("table {} line {n}", table.0);
        match store.append(table, after, line(text.clone())).await {
            Ok(seq) => {
                acknowledged.push(text);
                after = seq;
            }
            Err(StoreError::Conflict) => panic!("nobody else writes to table {}", table.0),
            Err(_) => {
                failed += 1;
                tokio::time::sleep(Duration::from_millis(5)).await;
                if let Ok(log) = store.events_after(table, 0).await {
                    after = log.len() as u64;
                }
            }
        }
    }
    (acknowledged, failed)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_batch_cut_by_a_killed_connection_keeps_every_acknowledged_append_once() {
    let db = TestDb::create().await;
    let store = PgStore::open(&db.url()).await.unwrap();
    let tables = tables(&store, 16, "cut").await;
    let writers: Vec<_> = tables
        .iter()
        .map(|&table| tokio::spawn(keep_appending(store.clone(), table, 150)))
        .collect();
    // Meanwhile the database kills the appending connections, again and again.
    let database = db.url().rsplit_once('/').unwrap().1.to_owned();
    let mut admin = sqlx::PgConnection::connect(&server_url()).await.unwrap();
    let mut killed = 0;
    while !writers.iter().all(|w| w.is_finished()) {
        let cut: Vec<bool> = sqlx::query_scalar(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity
             WHERE datname = $1 AND application_name = 'prophecy-append'",
        )
        .bind(&database)
        .fetch_all(&mut admin)
        .await
        .unwrap();
        killed += cut.len();
        tokio::time::sleep(Duration::from_millis(30)).await;
    }
    let _ = admin.close().await;
    let mut failed = 0;
    let mut acknowledged = HashMap::new();
    for (writer, &table) in writers.into_iter().zip(&tables) {
        let (lines, failures) = writer.await.unwrap();
        failed += failures;
        acknowledged.insert(table, lines);
    }
    eprintln!("{killed} connections killed, {failed} appends failed");
    assert!(
        killed > 0 && failed > 0,
        "{killed} connections killed, {failed} appends failed"
    );
    for (table, lines) in &acknowledged {
        let log = store.events_after(*table, 0).await.unwrap();
        let seqs: Vec<u64> = log.iter().map(|e| e.seq).collect();
        assert_eq!(seqs, (1..=log.len() as u64).collect::<Vec<_>>(), "no gap");
        for text in lines {
            let times = log.iter().filter(|e| &e.body == text).count();
            assert_eq!(times, 1, "{text} is in the log {times} times");
        }
        // A failed append that did commit is there once too: no line twice.
        let mut bodies: Vec<&str> = log.iter().map(|e| e.body.as_str()).collect();
        bodies.sort_unstable();
        bodies.dedup();
        assert_eq!(bodies.len(), log.len(), "a line is in the log twice");
    }
    store.close().await;
    db.drop_now().await;
}
