//! Replay: a seated player steps through the game from its first event, each step the view the
//! table had then; flagged text stays out of every step; a watcher replays only a game that is
//! over (before, its replay has no step).

use crate::{Page, Server, create_table, fresh_db, http, join};
use serde_json::{Value, json};
use std::net::SocketAddr;

/// `GET path` (a replay) as `cookie`: the status and the answer.
async fn get(addr: SocketAddr, path: &str, cookie: Option<&str>) -> (u16, Value) {
    let (status, _, body) = http(addr, "GET", path, cookie, None).await;
    (status, serde_json::from_str(&body).unwrap_or(Value::Null))
}

/// The views of a replay's steps, each patch applied to the view before, by seq.
pub(crate) fn views_of(steps: &Value, mut view: Value) -> Vec<(u64, Value)> {
    let mut views = Vec::new();
    for step in steps.as_array().unwrap() {
        if let Some(patch) = step.get("patch") {
            let patch: json_patch::Patch = serde_json::from_value(patch.clone()).unwrap();
            json_patch::patch(&mut view, &patch).unwrap();
        } else {
            view = step["view"].clone();
        }
        views.push((step["seq"].as_u64().unwrap(), view.clone()));
    }
    views
}

#[tokio::test]
async fn a_player_replays_the_table_as_it_was_and_flagged_text_stays_out() {
    let db = fresh_db();
    let server = Server::start(&db).await;
    let addr = server.addr;
    let (token, ada) = create_table(addr, "1.0", "Ada").await;
    let bo = join(addr, &token, "Bo").await;
    let mut ada_page = Page::open(addr, &token, &ada, 0).await;
    let mut bo_page = Page::open(addr, &token, &bo, 0).await;
    ada_page
        .ok(json!({"action": "add_line", "text": "Drowned children"}))
        .await;
    ada_page
        .ok(json!({"action": "write_prophecy", "text": "The moon eats the crown"}))
        .await;
    // The table lets people watch.
    let (status, _, body) = http(
        addr,
        "POST",
        &format!("/t/{token}/watch"),
        Some(&ada),
        Some(json!({"action": "open"})),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    ada_page.until(|m| m["type"] == "update").await;
    let proposal = ada_page.view["proposal"]["id"].clone();
    bo_page.until(|m| m["type"] == "update").await;
    bo_page
        .ok(json!({"action": "agree", "proposal": proposal}))
        .await;
    ada_page.catch_up(bo_page.seq).await;
    bo_page
        .ok(json!({"action": "flag", "target": {"text": "prophecy"}}))
        .await;
    ada_page.catch_up(bo_page.seq).await;

    // Every step from the first event, in pages of steps.
    let (status, first) = get(addr, &format!("/t/{token}/replay?count=3"), Some(&bo)).await;
    assert_eq!(status, 200, "{first}");
    let total = first["total"].as_u64().unwrap();
    assert_eq!(total, ada_page.seq);
    assert_eq!(first["over"], false);
    assert_eq!(first["steps"].as_array().unwrap().len(), 3);
    assert_eq!(first["steps"][0]["seq"], 0, "before the first event");
    let (_, all) = get(addr, &format!("/t/{token}/replay?from=0"), Some(&bo)).await;
    let views = views_of(&all["steps"], Value::Null);
    assert_eq!(views.len() as u64, total + 1);
    let (_, rest) = get(addr, &format!("/t/{token}/replay?from=2"), Some(&bo)).await;
    assert_eq!(
        views_of(&rest["steps"], Value::Null),
        views[2..],
        "any page of steps"
    );

    // Each step is the view the table had then, as players saw it, but for the flagged
    // prophecy, which is out of every step (it was on the table before the flag).
    let text = all.to_string();
    assert!(!text.contains("moon eats"), "a flagged text in the replay");
    let mut compared = 0;
    for (seq, view) in &views {
        if let Some((_, seen)) = ada_page.views.iter().find(|(s, _)| s == seq) {
            if seen.to_string().contains("moon eats") {
                continue;
            }
            assert_eq!(view, seen, "the replay's view at {seq}");
            compared += 1;
        }
    }
    assert!(compared >= 3, "{compared} views compared");
    // The log lines are the table's, the line drawn anonymous as it was.
    let lines: Vec<&Value> = all["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| &s["log"])
        .filter(|l| !l.is_null())
        .collect();
    assert_eq!(lines.len() as u64, total);
    let drawn = lines
        .iter()
        .find(|l| l["text"].as_str().unwrap().contains("line"))
        .unwrap();
    assert_eq!(drawn["by"], Value::Null, "{drawn}");
    // Jumps: each phase the game reached.
    assert_eq!(
        all["marks"][0]["label"], "Receive the Prophecy",
        "{}",
        all["marks"]
    );

    // Strangers get nothing; a watcher waits for the end.
    let (status, _) = get(addr, &format!("/t/{token}/replay"), None).await;
    assert_eq!(status, 401);
    let (_, answer) = get(addr, &format!("/t/{token}/invite"), Some(&ada)).await;
    let code = answer["watch"]
        .as_str()
        .unwrap()
        .split_once("/w/")
        .unwrap()
        .1;
    let (status, answer) = get(addr, &format!("/w/{code}/replay"), None).await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["over"], false);
    let nothing = (answer["steps"].clone(), answer["marks"].clone());
    assert_eq!(nothing, (json!([]), json!([])), "no step before the end");
    server.stop().await;
}
