//! Backups while serving: a copy taken in the middle of a burst of play holds every table, every
//! seat and every action acknowledged before it began, and serves them.

use crate::{Page, Server, create_table, fresh_db, join};
use serde_json::json;
use std::sync::{Arc, Mutex};
use store::{SqliteStore, Store};

/// Tables in the burst, and actions each of their two players sends.
const TABLES: usize = 3;
const ACTIONS: usize = 20;

/// An acknowledged action: its table, the seq the server answered with, and its text.
type Acked = (String, u64, String);

#[tokio::test]
async fn a_backup_in_the_middle_of_play_holds_every_action_acknowledged_before_it() {
    let db = fresh_db();
    let limits = server::Limits {
        seat_messages_per_second: 10_000,
        seat_message_burst: 10_000,
        ..server::Limits::default()
    };
    let options = server::Options {
        limits,
        ..server::Options::default()
    };
    let live = Server::start_with(&db, options.clone()).await;
    let addr = live.addr;
    let mut seated = Vec::new();
    for t in 0..TABLES {
        let (token, ada) = create_table(addr, "1.0", &format!("Ada {t}")).await;
        let bo = join(addr, &token, &format!("Bo {t}")).await;
        seated.push((token, vec![ada, bo]));
    }

    // Every player plays a burst; each acknowledgement is recorded as it arrives.
    let acked: Arc<Mutex<Vec<Acked>>> = Arc::default();
    let mut players = Vec::new();
    for (token, cookies) in &seated {
        for (p, cookie) in cookies.iter().enumerate() {
            let mut page = Page::open(addr, token, cookie, 0).await;
            let (token, acked) = (token.clone(), acked.clone());
            players.push(tokio::spawn(async move {
                for n in 0..ACTIONS {
                    let text = format!("{token} player {p} line {n}");
                    let answer = page.act(json!({"action": "add_line", "text": text})).await;
                    assert_eq!(answer["type"], "done", "{answer}");
                    let seq = answer["seq"].as_u64().unwrap();
                    acked.lock().unwrap().push((token.clone(), seq, text));
                }
            }));
        }
    }
    // In the middle of the burst: what was acknowledged before the copy began must be in it.
    let total = TABLES * 2 * ACTIONS;
    while acked.lock().unwrap().len() < total / 3 {
        tokio::time::sleep(std::time::Duration::from_millis(1)).await;
    }
    let before: Vec<Acked> = acked.lock().unwrap().clone();
    let copy = db.with_file_name("copy.db");
    store::backup(&db, &copy).await.unwrap();
    let during = acked.lock().unwrap().len();
    for player in players {
        player.await.unwrap();
    }
    assert!(
        before.len() < total && during < total,
        "the copy was taken during the burst ({} then {during} of {total})",
        before.len()
    );
    live.stop().await;

    // The copy opens and serves like the original.
    let original = SqliteStore::open(&db).await.unwrap();
    let restored = Server::start_with(&copy, options).await;
    for (token, cookies) in &seated {
        let table = restored.store.table_by_token(token).await.unwrap();
        let table = table.expect("every table is in the copy");
        assert_eq!(
            restored.store.seats(table.id).await.unwrap(),
            original.seats(table.id).await.unwrap(),
            "every seat is in the copy"
        );
        // The copy's log is the start of the original's, with every action acknowledged
        // before the copy began.
        let logged = restored.store.events_after(table.id, 0).await.unwrap();
        let full = original.events_after(table.id, 0).await.unwrap();
        assert_eq!(logged[..], full[..logged.len()]);
        let acked_here: Vec<&Acked> = before.iter().filter(|(t, ..)| t == token).collect();
        let last = acked_here.iter().map(|(_, seq, _)| *seq).max().unwrap_or(0);
        assert!(
            logged.len() as u64 >= last,
            "the copy has {} events; seq {last} was acknowledged before it began",
            logged.len()
        );
        // Both seats' secrets still open the table, and its page shows each acknowledged line.
        for cookie in cookies {
            let page = Page::open(restored.addr, token, cookie, 0).await;
            let lines: Vec<&str> = page.view["lines"]
                .as_array()
                .unwrap()
                .iter()
                .map(|l| l["text"].as_str().unwrap())
                .collect();
            for (_, seq, text) in &acked_here {
                assert!(lines.contains(&text.as_str()), "{text} (seq {seq})");
            }
        }
    }
    restored.stop().await;
    original.close().await;
}
