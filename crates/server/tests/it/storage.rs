//! The table and its store: another writer's append is merged, not refused for ever; a
//! damaged row is a clear message to the player, not a panic or SQLite's text.

use crate::{Page, Server, create_table, fresh_db, http, upgrade_status};
use serde_json::{Value, json};
use sqlx::Connection;
use store::{Append, NewEvent, Store};

#[tokio::test]
async fn a_room_that_meets_another_writer_reloads_the_log_and_decides_again() {
    let db = fresh_db();
    let server = Server::start(&db).await;
    let addr = server.addr;
    let (token, ada) = create_table(addr, "1.0", "Ada").await;
    let mut a = Page::open(addr, &token, &ada, 0).await;
    let before = a.seq;
    // Another writer appends behind the room's back.
    let table = server.store.table_by_token(&token).await.unwrap().unwrap();
    let elsewhere = NewEvent {
        at: 0,
        player: Some(1),
        body: r#"{"v":"1","type":"line_added","line":900,"text":"written elsewhere"}"#.into(),
    };
    server
        .store
        .append(
            table.id,
            before,
            Append {
                events: vec![elsewhere],
                ..Append::default()
            },
        )
        .await
        .unwrap();
    // The room's next append meets a conflict: it reloads, decides again, and succeeds.
    a.ok(json!({"action": "add_line", "text": "written here"}))
        .await;
    assert_eq!(a.seq, before + 2);
    let lines: Vec<&str> = a.view["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["text"].as_str().unwrap())
        .collect();
    assert_eq!(lines, ["written elsewhere", "written here"]);
    server.stop().await;
}

#[tokio::test]
async fn a_damaged_row_is_a_clear_message_and_the_rest_of_the_server_goes_on() {
    let db = fresh_db();
    let server = Server::start(&db).await;
    let addr = server.addr;
    let (token, ada) = create_table(addr, "1.0", "Ada").await;
    server.stop().await;
    // Text that is not UTF-8 in a stored event: the decoder cannot read it.
    let url = format!("sqlite://{}", db.display());
    let mut connection = sqlx::SqliteConnection::connect(&url).await.unwrap();
    sqlx::query("UPDATE events SET body = CAST(x'ff00fe' AS TEXT) WHERE seq = 1")
        .execute(&mut connection)
        .await
        .unwrap();
    connection.close().await.unwrap();

    let server = Server::start(&db).await;
    let addr = server.addr;
    assert_eq!(
        upgrade_status(addr, &token, Some(&ada), &format!("http://{addr}")).await,
        500
    );
    let (status, _, body) = http(
        addr,
        "GET",
        &format!("/t/{token}/export.md"),
        Some(&ada),
        None,
    )
    .await;
    assert_eq!(status, 500);
    assert!(body.contains("saved data cannot be read"), "{body}");
    assert!(!body.to_lowercase().contains("sql"), "{body}");
    let (status, _, body) = http(
        addr,
        "GET",
        &format!("/t/{token}/game.jsonl"),
        Some(&ada),
        None,
    )
    .await;
    assert_eq!(status, 500, "{body}");
    // Other tables are served as usual.
    let (other, cookie) = create_table(addr, "1.1", "Bo").await;
    let page = Page::open(addr, &other, &cookie, 0).await;
    assert_eq!(page.view["ruleset"]["id"], Value::from("1.1"));
    server.stop().await;
}
