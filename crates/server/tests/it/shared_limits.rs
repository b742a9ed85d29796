//! Per-address limits on servers that share one PostgreSQL database (issue 34): the servers
//! draw on one budget per address in the database, so an address reaching three servers gets
//! the budget once, not three times.

use crate::servers::{Served, TestDb};
use crate::{Page, http, scripted};
use serde_json::{Value, json};
use std::time::Instant;

/// The scripted options (budgets lifted), with the limits under test set.
fn limited(change: impl FnOnce(&mut server::Limits)) -> server::Options {
    let mut options = scripted();
    change(&mut options.limits);
    options
}

/// What came back of a budget of `per_minute` since `started`: a test that runs slowly may
/// see a few more accepted than the budget, never fewer.
fn refilled(per_minute: u32, started: Instant) -> u32 {
    (started.elapsed().as_secs_f64() * f64::from(per_minute) / 60.0).floor() as u32
}

async fn create_on(server: &Served, name: &str) -> (u16, String, String) {
    http(
        server.addr,
        "POST",
        "/tables",
        None,
        Some(json!({"name": name, "ruleset": "1.0"})),
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_servers_give_an_address_its_budget_of_new_tables_once() {
    let db = TestDb::create("shared_tables").await;
    let options = limited(|l| l.tables_per_minute = 16);
    let servers = [
        Served::start_with(&db.url(), options.clone()),
        Served::start_with(&db.url(), options.clone()),
        Served::start_with(&db.url(), options),
    ];
    let started = Instant::now();
    let mut accepted = 0;
    let mut refusals = Vec::new();
    // Each server alone would accept 16: 48 in all without a shared budget.
    for i in 0..30 {
        let (status, headers, body) = create_on(&servers[i % 3], &format!("Ada {i}")).await;
        match status {
            200 => accepted += 1,
            429 => refusals.push((headers, body)),
            _ => panic!("{status} {body}"),
        }
    }
    let more = refilled(16, started);
    assert!((16..=16 + more).contains(&accepted), "{accepted} accepted");
    let (headers, body) = refusals.last().expect("refusals past the budget");
    let message: Value = serde_json::from_str(body).unwrap();
    let message = message["error"].as_str().unwrap();
    assert!(
        message.starts_with(
            "Too many new tables from your address: at most 16 a minute. Try again in "
        ),
        "{message}"
    );
    assert!(headers.contains("retry-after: "), "{headers}");
    drop(servers);
    db.drop_now().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_arriving_together_at_one_server_spend_the_whole_budget() {
    let db = TestDb::create("shared_burst").await;
    let a = Served::start_with(&db.url(), limited(|l| l.tables_per_minute = 24));
    // 24 at once: each finds nothing held yet; they must wait for one grant, not take one
    // each (eight grants of three would empty the budget with most of them still waiting).
    let burst: Vec<_> = (0..24)
        .map(|i| {
            let a = a.addr;
            tokio::spawn(async move {
                let body = json!({"name": format!("Ada {i}"), "ruleset": "1.0"});
                http(a, "POST", "/tables", None, Some(body)).await
            })
        })
        .collect();
    for created in burst {
        let (status, _, body) = created.await.unwrap();
        assert_eq!(status, 200, "{body}");
    }
    drop(a);
    db.drop_now().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seats_taken_through_two_servers_draw_on_one_budget() {
    let db = TestDb::create("shared_joins").await;
    let options = limited(|l| l.joins_per_minute = 5);
    let a = Served::start_with(&db.url(), options.clone());
    let b = Served::start_with(&db.url(), options);
    let (status, _, body) = create_on(&a, "Ada").await;
    assert_eq!(status, 200, "{body}");
    let created: Value = serde_json::from_str(&body).unwrap();
    let token = created["token"].as_str().unwrap();
    let invite = created["join"].as_str().unwrap();
    let started = Instant::now();
    let mut accepted = 0;
    let mut last = String::new();
    for (i, name) in ["Bo", "Cy", "Di", "Ed", "Fa", "Gu", "Hy", "Io"]
        .iter()
        .enumerate()
    {
        let server = if i % 2 == 0 { &a } else { &b };
        let join = json!({"name": name, "join": invite});
        let path = format!("/t/{token}/join");
        let (status, _, body) = http(server.addr, "POST", &path, None, Some(join)).await;
        match status {
            200 => accepted += 1,
            429 => last = body,
            _ => panic!("{status} {body}"),
        }
    }
    let more = refilled(5, started);
    assert!((5..=5 + more).contains(&accepted), "{accepted} accepted");
    assert!(
        last.contains("Too many seats taken from your address: at most 5 a minute."),
        "{last}"
    );
    drop((a, b));
    db.drop_now().await;
}

/// Sends an action; the answer to it, whatever it is.
async fn write(page: &mut Page, text: &str) -> Value {
    page.act(json!({"action": "write_prophecy", "text": text}))
        .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_an_address_writes_through_two_servers_draws_on_one_budget() {
    let db = TestDb::create("shared_written").await;
    let options = limited(|l| l.written_kib_per_minute = 16);
    let a = Served::start_with(&db.url(), options.clone());
    let b = Served::start_with(&db.url(), options);
    let mut pages = Vec::new();
    for server in [&a, &b] {
        let (status, headers, body) = create_on(server, "Ada").await;
        assert_eq!(status, 200, "{body}");
        let created: Value = serde_json::from_str(&body).unwrap();
        let token = created["token"].as_str().unwrap();
        let cookie = crate::cookie_of(&headers);
        pages.push(Page::open(server.addr, token, &cookie, 0).await);
    }
    let text = "the moon falls ".repeat(100);
    let mut written = 0;
    let refused = loop {
        let answer = write(&mut pages[written % 2], &text).await;
        if answer["type"] != "done" {
            break answer;
        }
        written += 1;
        assert!(written < 40, "never refused");
    };
    // About 16 KiB of 1.5 KiB prophecies on the two servers together, as on one server
    // (hardening.rs); each server alone would take as many again.
    assert!((8..=12).contains(&written), "{written} written");
    assert_eq!(refused["code"], "too_much_written", "{refused}");
    let message = refused["message"].as_str().unwrap();
    assert!(
        message.starts_with(
            "Too much written from your address: at most 16 KiB a minute, across its tables. Try again in "
        ),
        "{message}"
    );
    drop((a, b));
    db.drop_now().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_budget_that_cannot_be_checked_refuses_and_says_so() {
    use sqlx::Connection;
    let db = TestDb::create("shared_unchecked").await;
    let options = limited(|l| l.tables_per_minute = 16);
    let a = Served::start_with(&db.url(), options);
    let (status, _, body) = create_on(&a, "Ada").await;
    assert_eq!(status, 200, "{body}");
    // The budgets can no longer be read (as when the database fails on that statement).
    let mut admin = sqlx::PgConnection::connect(&db.url()).await.unwrap();
    sqlx::query("ALTER TABLE budgets RENAME TO budgets_gone")
        .execute(&mut admin)
        .await
        .unwrap();
    let _ = admin.close().await;
    let mut refused = None;
    // What the server holds of its grant is spent first (at most 1/8 of the budget).
    for i in 0..4 {
        let (status, headers, body) = create_on(&a, &format!("Bo {i}")).await;
        if status != 200 {
            refused = Some((status, headers, body));
            break;
        }
    }
    let (status, headers, body) = refused.expect("refused once the grant is spent");
    assert_eq!(status, 503, "{body}");
    let message: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(
        message["error"],
        "Your address's budget cannot be checked right now; nothing changed, try again in a moment."
    );
    assert!(headers.contains("retry-after: 1"), "{headers}");
    drop(a);
    db.drop_now().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_one_server_holds_of_a_grant_is_not_given_back() {
    // At most 1/8 of the budget: the rest is the others'. (Its lapse a minute after the grant
    // is timed in limit.rs's unit tests.)
    let db = TestDb::create("shared_lapse").await;
    let options = limited(|l| l.tables_per_minute = 16);
    let a = Served::start_with(&db.url(), options.clone());
    let b = Served::start_with(&db.url(), options);
    // A takes a grant of 2 (1/8 of 16) and spends 1 of it.
    assert_eq!(create_on(&a, "Ada").await.0, 200);
    let started = Instant::now();
    let mut accepted = 0;
    for i in 0..20 {
        if create_on(&b, &format!("Bo {i}")).await.0 == 200 {
            accepted += 1;
        }
    }
    let more = refilled(16, started);
    assert!((14..=14 + more).contains(&accepted), "{accepted} accepted");
    drop((a, b));
    db.drop_now().await;
}
