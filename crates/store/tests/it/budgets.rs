//! Budgets that every server on one PostgreSQL database draws on, by grants
//! (migrations/postgres/0005).

use crate::postgres::TestDb;
use std::time::Duration;
use store::{Grant, PgStore, Store};

/// Moves every budget's clock back by `seconds`, as if that much time had passed.
async fn let_pass(store_url: &str, seconds: i64) {
    use sqlx::Connection;
    let mut connection = sqlx::PgConnection::connect(store_url).await.unwrap();
    sqlx::query("UPDATE budgets SET tat = tat - $1")
        .bind(seconds * 1_000_000)
        .execute(&mut connection)
        .await
        .unwrap();
    let _ = connection.close().await;
}

async fn rows(store_url: &str) -> i64 {
    use sqlx::Connection;
    let mut connection = sqlx::PgConnection::connect(store_url).await.unwrap();
    let count = sqlx::query_scalar("SELECT count(*) FROM budgets")
        .fetch_one(&mut connection)
        .await
        .unwrap();
    let _ = connection.close().await;
    count
}

#[tokio::test]
async fn servers_draw_grants_from_one_budget_until_it_is_spent_then_hear_when() {
    let db = TestDb::create().await;
    let one = PgStore::open(&db.url()).await.unwrap();
    let two = PgStore::open(&db.url()).await.unwrap();
    // 60 a minute, all at once if need be: a unit comes back each second.
    assert_eq!(
        one.take_grant("192.0.2.1", "joins", 1, 40, 60)
            .await
            .unwrap(),
        Grant::Granted(40)
    );
    // As many as fit, when fewer than the most asked for do.
    assert_eq!(
        two.take_grant("192.0.2.1", "joins", 1, 40, 60)
            .await
            .unwrap(),
        Grant::Granted(20)
    );
    let Grant::NotUntil(wait) = two
        .take_grant("192.0.2.1", "joins", 2, 8, 60)
        .await
        .unwrap()
    else {
        panic!("the budget is spent");
    };
    assert!(
        wait > Duration::from_millis(1500) && wait <= Duration::from_secs(2),
        "{wait:?}"
    );
    assert_eq!(
        one.take_grant("192.0.2.1", "joins", 61, 61, 60)
            .await
            .unwrap(),
        Grant::Never,
        "more than the whole budget"
    );
    // Each address and kind has a budget of its own.
    assert_eq!(
        one.take_grant("192.0.2.1", "tables", 1, 1, 60)
            .await
            .unwrap(),
        Grant::Granted(1)
    );
    assert_eq!(
        one.take_grant("192.0.2.2", "joins", 1, 60, 60)
            .await
            .unwrap(),
        Grant::Granted(60)
    );
    one.close().await;
    two.close().await;
    db.drop_now().await;
}

#[tokio::test]
async fn a_grant_is_never_given_back_and_a_full_budget_is_forgotten() {
    let db = TestDb::create().await;
    let store = PgStore::open(&db.url()).await.unwrap();
    // A server takes 4 of 4 and spends none of it: the budget stays spent all the same.
    assert_eq!(
        store
            .take_grant("192.0.2.1", "tables", 1, 4, 4)
            .await
            .unwrap(),
        Grant::Granted(4)
    );
    store.forget_full_budgets().await.unwrap();
    assert_eq!(rows(&db.url()).await, 1, "a spent budget is kept");
    let_pass(&db.url(), 30).await;
    assert_eq!(
        store
            .take_grant("192.0.2.1", "tables", 1, 4, 4)
            .await
            .unwrap(),
        Grant::Granted(2),
        "half a minute brings back half the budget"
    );
    let_pass(&db.url(), 61).await;
    store.forget_full_budgets().await.unwrap();
    assert_eq!(
        rows(&db.url()).await,
        0,
        "a full budget is the same as none"
    );
    assert_eq!(
        store
            .take_grant("192.0.2.1", "tables", 4, 4, 4)
            .await
            .unwrap(),
        Grant::Granted(4)
    );
    store.close().await;
    db.drop_now().await;
}

#[tokio::test]
async fn servers_racing_for_one_budget_are_granted_no_more_than_it_holds() {
    let db = TestDb::create().await;
    let stores = [
        PgStore::open(&db.url()).await.unwrap(),
        PgStore::open(&db.url()).await.unwrap(),
        PgStore::open(&db.url()).await.unwrap(),
    ];
    let started = std::time::Instant::now();
    let mut racing = Vec::new();
    for i in 0..60 {
        let store = stores[i % 3].clone();
        racing.push(tokio::spawn(async move {
            store.take_grant("192.0.2.9", "written", 1, 3, 100).await
        }));
    }
    let mut granted = 0;
    for race in racing {
        if let Grant::Granted(units) = race.await.unwrap().unwrap() {
            granted += units;
        }
    }
    // The budget, and what came back while they raced (a unit each 0.6 s).
    let refilled = (started.elapsed().as_secs_f64() / 0.6).floor() as u32;
    assert!((100..=100 + refilled).contains(&granted), "{granted}");
    for store in &stores {
        store.close().await;
    }
    db.drop_now().await;
}
