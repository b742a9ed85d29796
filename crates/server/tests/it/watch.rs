//! Watch links: who opens one, what a watcher's page is sent (what every player may know and
//! nothing more), the cap of watchers, and closing.

use crate::{Page, Server, create_table, fresh_db, http, join};
use serde_json::{Value, json};
use std::net::SocketAddr;

/// `POST /t/{token}/watch` as `cookie`: the status and the answer.
async fn watch(addr: SocketAddr, token: &str, cookie: &str, action: &str) -> (u16, Value) {
    let (status, _, body) = http(
        addr,
        "POST",
        &format!("/t/{token}/watch"),
        Some(cookie),
        Some(json!({ "action": action })),
    )
    .await;
    (status, serde_json::from_str(&body).unwrap_or(Value::Null))
}

/// The table's watch link as a seated player sees it (`null` when none).
async fn watch_link(addr: SocketAddr, token: &str, cookie: &str) -> Value {
    let (_, _, body) = http(
        addr,
        "GET",
        &format!("/t/{token}/invite"),
        Some(cookie),
        None,
    )
    .await;
    serde_json::from_str::<Value>(&body).unwrap()["watch"].clone()
}

/// The code of a watch link (`http://…/w/CODE` → `CODE`).
fn code_of(link: &Value) -> String {
    let link = link.as_str().expect("a link");
    link.split_once("/w/").unwrap().1.to_owned()
}

/// The status of a watcher's socket upgrade for `code`.
async fn upgrade(addr: SocketAddr, code: &str) -> u16 {
    use tokio_tungstenite::tungstenite::{self, client::IntoClientRequest};
    let mut request = format!("ws://{addr}/w/{code}/ws")
        .into_client_request()
        .unwrap();
    request
        .headers_mut()
        .insert("Origin", format!("http://{addr}").parse().unwrap());
    match tokio_tungstenite::connect_async(request).await {
        Ok(_) => 101,
        Err(tungstenite::Error::Http(response)) => response.status().as_u16(),
        Err(e) => panic!("{e}"),
    }
}

#[tokio::test]
async fn a_story_table_lets_watchers_in_when_it_agrees_and_they_never_see_its_lines() {
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

    // Asking is a proposal: no link until the table agrees.
    let (status, answer) = watch(addr, &token, &bo, "open").await;
    assert_eq!((status, &answer["link"]), (200, &Value::Null), "{answer}");
    assert_eq!(watch_link(addr, &token, &ada).await, Value::Null);
    ada_page.until(|m| m["type"] == "update").await;
    let proposal = ada_page.view["proposal"].clone();
    assert_eq!(proposal["motion"], "watch", "{proposal}");
    ada_page
        .ok(json!({"action": "agree", "proposal": proposal["id"]}))
        .await;
    ada_page.until(|m| m["type"] == "invite").await;
    let link = watch_link(addr, &token, &bo).await;
    let code = code_of(&link);
    assert_ne!(code, token, "the link is not the table's token");
    assert_eq!(code.len(), 32, "128 bits");

    // The page sets no cookie.
    let (status, headers, html) = http(addr, "GET", &format!("/w/{code}"), None, None).await;
    assert_eq!(status, 200);
    assert!(html.contains("/assets/story/main."), "{html}");
    assert!(!headers.contains("set-cookie"), "{headers}");

    // What a watcher is sent: no player, no own part, no line.
    let mut watcher = Page::watch(addr, &code, 0).await;
    let sync = &watcher.heard[0];
    assert_eq!(sync["you"], Value::Null, "{sync}");
    assert_eq!(sync["own"], Value::Null, "{sync}");
    assert_eq!(watcher.view["lines"], json!([]));
    assert_eq!(
        ada_page.view["lines"].as_array().unwrap().len(),
        1,
        "players keep their lines"
    );
    // The players hear that someone watches.
    let presence = ada_page
        .until(|m| m["type"] == "presence" && m["watchers"] == 1)
        .await;
    assert_eq!(presence["watchers"], 1);

    // The table plays on: a line drawn now reaches the players, not the watcher.
    bo_page
        .ok(json!({"action": "add_line", "text": "Spiders"}))
        .await;
    ada_page
        .ok(json!({"action": "write_prophecy", "text": "The tide will not turn."}))
        .await;
    watcher.catch_up(ada_page.seq).await;
    assert_eq!(watcher.view["lines"], json!([]));
    assert!(watcher.view.to_string().contains("The tide will not turn."));
    // A watcher cannot act.
    let answer = watcher
        .act(json!({"action": "add_line", "text": "x"}))
        .await;
    assert_eq!(answer["type"], "error", "{answer}");
    assert!(answer["message"].as_str().unwrap().contains("watching"));
    // Older log lines leave the lines out too.
    watcher
        .send(json!({"type": "log", "req": "old", "before": watcher.seq + 1}))
        .await;
    watcher.until(|m| m["req"] == "old").await;
    for message in &watcher.heard {
        let text = message.to_string();
        for secret in ["Drowned", "Spiders", "line was"] {
            assert!(!text.contains(secret), "{secret} reached a watcher: {text}");
        }
    }
    // Each view the watcher held is the players' view at that event, without the lines.
    let mut checked = 0;
    for (seq, view) in &watcher.views {
        if let Some((_, seen)) = ada_page.views.iter().find(|(s, _)| s == seq) {
            let mut seen = seen.clone();
            seen["lines"] = json!([]);
            assert_eq!(*view, seen, "the watcher's view at {seq}");
            checked += 1;
        }
    }
    assert!(checked >= 2, "{checked} views compared");

    // Any player closes it at once: the watcher is told, and the link leads nowhere.
    let (status, answer) = watch(addr, &token, &ada, "close").await;
    assert_eq!((status, &answer["link"]), (200, &Value::Null), "{answer}");
    let closed = watcher.until(|m| m["type"] == "closed").await;
    assert!(closed["message"].as_str().unwrap().contains("closed"));
    assert!(watcher.closed().await);
    assert_eq!(
        http(addr, "GET", &format!("/w/{code}"), None, None).await.0,
        404
    );
    assert_eq!(upgrade(addr, &code).await, 404);
    let logged = ada_page.until(|m| m["type"] == "update").await;
    assert!(
        logged.to_string().contains("watch link was closed"),
        "{logged}"
    );
    server.stop().await;
}

#[tokio::test]
async fn a_challenge_table_s_game_master_opens_the_watch_link_and_no_one_else() {
    let db = fresh_db();
    let server = Server::start(&db).await;
    let addr = server.addr;
    let (status, headers, body) = http(
        addr,
        "POST",
        "/tables",
        None,
        Some(json!({"name": "Gail", "game": "challenge"})),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let gm = crate::cookie_of(&headers);
    let token = serde_json::from_str::<Value>(&body).unwrap()["token"]
        .as_str()
        .unwrap()
        .to_owned();
    crate::INVITES.lock().unwrap().push((
        token.clone(),
        serde_json::from_str::<Value>(&body).unwrap()["join"]
            .as_str()
            .unwrap()
            .to_owned(),
    ));
    let pat = join(addr, &token, "Pat").await;
    let (status, answer) = watch(addr, &token, &pat, "open").await;
    assert_eq!(status, 403, "{answer}");
    assert!(answer["error"].as_str().unwrap().contains("game master"));
    let (status, answer) = watch(addr, &token, &gm, "open").await;
    assert_eq!(status, 200, "{answer}");
    let code = code_of(&answer["link"]);
    // Opening twice keeps the link.
    let (_, again) = watch(addr, &token, &gm, "open").await;
    assert_eq!(again["link"], answer["link"]);
    // Strangers: 404 for a wrong code, and no watching without the link.
    assert_eq!(
        http(addr, "GET", &format!("/w/{}", "0".repeat(32)), None, None)
            .await
            .0,
        404
    );
    let (status, _) = watch(addr, &token, "seat=0123", "open").await;
    assert_eq!(status, 401);
    let (status, answer) = watch(addr, &token, &gm, "peek").await;
    assert_eq!(status, 400);
    assert!(
        answer["error"].as_str().unwrap().contains("open or close"),
        "{answer}"
    );

    // At most fifty watchers at once; when one leaves, another may come.
    let mut watchers = Vec::new();
    for _ in 0..50 {
        watchers.push(Page::watch(addr, &code, 0).await);
    }
    assert_eq!(upgrade(addr, &code).await, 429);
    drop(watchers.pop());
    let mut came = false;
    for _ in 0..50 {
        if upgrade(addr, &code).await == 101 {
            came = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert!(came, "a place came free");
    // Pat closes it: every watcher is told.
    let (status, _) = watch(addr, &token, &pat, "close").await;
    assert_eq!(status, 200);
    for watcher in &mut watchers {
        watcher.until(|m| m["type"] == "closed").await;
    }
    server.stop().await;
}
