//! Samples of what pages receive, for the pages' hand-written types (`assets/*/view-types.d.ts`,
//! `assets/common/messages.d.ts`): the tests that play each game through its phases write
//! every message a page heard and every view it built, and `e2e/tools/check-views.mjs` type-checks
//! them against those types (`npm run check` in `e2e/`).

use crate::{Page, http};
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::path::PathBuf;

/// Where the samples go: `target/view-samples/{game}/` (the build's own target folder).
pub fn folder(game: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("the target folder holds tmp/")
        .join("view-samples")
        .join(game)
}

/// Writes what `page` heard and built as `target/view-samples/{game}/{name}.json`:
/// `{"messages": [every message, as sent], "views": [every view it held, patches applied]}`.
/// Views repeated as they were are written once.
pub fn write(game: &str, name: &str, page: &Page) {
    let mut views: Vec<&Value> = Vec::new();
    for (_, view) in &page.views {
        if !views.contains(&view) {
            views.push(view);
        }
    }
    let dir = folder(game);
    std::fs::create_dir_all(&dir).unwrap();
    let body = json!({"messages": page.heard, "views": views});
    std::fs::write(dir.join(format!("{name}.json")), body.to_string()).unwrap();
}

/// Writes what a seated page fetches over HTTP as `target/view-samples/{game}/http.json`: the
/// game's content (when it has one), `/me`, `/invite` and `/summary` (the home page's).
pub async fn write_http(game: &str, addr: SocketAddr, token: &str, cookie: &str) {
    let mut body = json!({});
    let paths = [
        ("content", format!("/games/{game}/content.json")),
        ("me", format!("/t/{token}/me")),
        ("invite", format!("/t/{token}/invite")),
        ("summary", format!("/t/{token}/summary")),
    ];
    for (key, path) in paths {
        let (status, _, text) = http(addr, "GET", &path, Some(cookie), None).await;
        if status == 200 {
            body[key] = serde_json::from_str(&text).unwrap();
        } else {
            assert_eq!((key, status), ("content", 404), "{text}");
        }
    }
    let dir = folder(game);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("http.json"), body.to_string()).unwrap();
}

/// The story game played to its end at a 1.0 table, with a pair, both checks, a line, a flag,
/// the X-card, a refusal, an older page of the log and publishing; then a 1.1 table's
/// moderator, question and real dice. Its samples are what the story page's types must take.
#[tokio::test]
async fn a_story_game_is_played_to_its_end_and_its_pages_messages_are_kept() {
    let db = crate::fresh_db();
    let server = crate::Server::start(&db).await;
    let (token, mut pages, cookies) = crate::protocol::story_table(&server).await;
    let view = pages[0].view.clone();
    let scene = view["in_progress"].clone();
    let finale = view["finale"].clone();
    let aspect = |view: &Value, name: &str| {
        view["objects"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["name"] == name)
            .unwrap()["aspects"][0]["id"]
            .clone()
    };
    let (wren, vault) = (aspect(&view, "Wren"), aspect(&view, "The vault"));
    pages[1].ok(json!({"action": "propose_pair", "scene": scene, "character_aspect": wren, "environment_aspect": vault, "justification": "she knows"})).await;
    let pair = pages[1].view["scenes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["id"] == scene)
        .unwrap()["pairs"][0]["id"]
        .clone();
    for i in [0, 2] {
        pages[i]
            .ok(json!({"action": "accept_pair", "pair": pair}))
            .await;
    }
    // The safety tools: a line, a flag (replaced), the X-card; and a refusal.
    pages[2]
        .ok(json!({"action": "add_line", "text": "spiders"}))
        .await;
    pages[1]
        .ok(json!({"action": "flag", "target": {"text": "prophecy"}}))
        .await;
    pages[0]
        .ok(json!({"action": "write_prophecy", "text": "The wyrm wakes."}))
        .await;
    pages[1].ok(json!({"action": "pause"})).await;
    pages[1].ok(json!({"action": "resume"})).await;
    let refused = pages[2]
        .act(json!({"action": "finish_scene", "scene": finale}))
        .await;
    assert_eq!(refused["type"], "refused", "{refused}");
    crate::carried(
        &mut pages,
        json!({"motion": "make_check", "scene": scene, "accept_empty_pool": false}),
    )
    .await;
    pages[0]
        .ok(json!({"action": "narrate", "scene": scene, "text": "Wren found the song."}))
        .await;
    pages[0]
        .ok(json!({"action": "finish_scene", "scene": scene}))
        .await;
    pages[0]
        .ok(json!({"action": "start_scene", "scene": finale}))
        .await;
    crate::carried(
        &mut pages,
        json!({"motion": "make_check", "scene": finale, "accept_empty_pool": true}),
    )
    .await;
    pages[0]
        .ok(json!({"action": "narrate", "scene": finale, "text": "And so it ended."}))
        .await;
    pages[0]
        .ok(json!({"action": "finish_scene", "scene": finale}))
        .await;
    pages[0]
        .ok(json!({"action": "narrate_long_term_effects", "text": "Peace, for a while."}))
        .await;
    crate::carried(&mut pages, json!({"motion": "end_game"})).await;
    assert_eq!(pages[0].view["phase"]["id"], "ended");
    crate::carried(&mut pages, json!({"motion": "publish"})).await;
    // A message the server cannot read is answered with an error.
    let error = pages[1].act(json!({"action": "summon_dragon"})).await;
    assert_eq!(error["type"], "error", "{error}");
    // An older page of the log, as a page asks for it.
    let latest = pages[0].seq;
    pages[0]
        .send(json!({"type": "log", "req": 900, "before": latest}))
        .await;
    pages[0].until(|m| m["type"] == "log").await;
    for (page, name) in pages.iter().zip(["ada", "bo", "cy"]) {
        write("story", &format!("ended-1.0-{name}"), page);
    }
    write_http("story", server.addr, &token, &cookies[0]).await;
    // The X-card's and the line's authors heard what only they may know.
    for page in &pages[1..] {
        assert!(page.heard.iter().any(|m| m["type"] == "own"));
    }
    server.stop().await;
}

/// A 1.1 table's moderator, question and real dice, and a Temporal Mechanics table's NPC: what
/// the 1.0 game does not show.
#[tokio::test]
async fn the_other_rulesets_pages_messages_are_kept_too() {
    let db = crate::fresh_db();
    let server = crate::Server::start(&db).await;
    let addr = server.addr;
    let (token, ada) = crate::create_table(addr, "1.1", "Ada").await;
    let bo = crate::join(addr, &token, "Bo").await;
    let cy = crate::join(addr, &token, "Cy").await;
    let mut pages = Vec::new();
    for cookie in [&ada, &bo, &cy] {
        pages.push(Page::open(addr, &token, cookie, 0).await);
    }
    crate::carried(
        &mut pages,
        json!({"motion": "choose_moderator", "player": 3}),
    )
    .await;
    pages[2]
        .ok(json!({"action": "ask_question", "text": "What do you fear?"}))
        .await;
    crate::carried(
        &mut pages[..2],
        json!({"motion": "choose_dice", "physical": true}),
    )
    .await;
    let latest = pages[1].seq;
    pages[2].catch_up(latest).await;
    assert_eq!(pages[2].view["moderator"], 3);
    for (page, name) in pages.iter().zip(["ada", "bo", "cy"]) {
        write("story", &format!("moderator-1.1-{name}"), page);
    }

    let (token, ada) = crate::create_table(addr, "temporal", "Ada").await;
    let mut page = Page::open(addr, &token, &ada, 0).await;
    crate::carried(
        std::slice::from_mut(&mut page),
        json!({"motion": "advance", "to": "characters"}),
    )
    .await;
    page.ok(json!({"action": "create_object", "name": "Agent Vale", "kind": "npc"}))
        .await;
    assert_eq!(page.view["ruleset"]["id"], "temporal");
    write("story", "temporal-ada", &page);
    server.stop().await;
}
