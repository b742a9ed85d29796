//! The protocol of PROTOCOL.md: authority, ordering, refusals, limits, resync, restart.

use crate::{
    Page, Server, carried, create_table, fresh_db, http, invite_of, join, try_join, upgrade_status,
    views_match_the_log,
};
use serde_json::{Value, json};
use server::games::story::StoryGame;

/// Ids of the first object whose name is `name`, and of its first aspect.
fn object(view: &Value, name: &str) -> (u64, u64) {
    let o = view["objects"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["name"] == name)
        .unwrap_or_else(|| panic!("no {name}"));
    (
        o["id"].as_u64().unwrap(),
        o["aspects"][0]["id"].as_u64().unwrap_or(0),
    )
}

/// Three players at a 1.0 table, in the story phase with the Finale's only precursor started
/// and a place with an aspect in its setting. Returns the server, token and pages.
pub async fn story_table(server: &Server) -> (String, Vec<Page>, Vec<String>) {
    let addr = server.addr;
    let (token, ada) = create_table(addr, "1.0", "Ada").await;
    let bo = join(addr, &token, "Bo").await;
    let cy = join(addr, &token, "Cy").await;
    let cookies = vec![ada, bo, cy];
    let mut pages = Vec::new();
    for cookie in &cookies {
        pages.push(Page::open(addr, &token, cookie, 0).await);
    }
    let p = &mut pages[0];
    p.ok(json!({"action": "roll_catastrophe", "world": "vael"}))
        .await;
    carried(&mut pages, json!({"motion": "advance", "to": "characters"})).await;
    for (i, name) in ["Wren", "Tamsin", "Osric"].iter().enumerate() {
        pages[i]
            .ok(json!({"action": "create_character", "name": name}))
            .await;
    }
    let latest = pages[2].seq;
    for page in pages.iter_mut() {
        while page.seq < latest {
            page.next().await;
        }
    }
    for (i, page) in pages.iter_mut().enumerate() {
        let view = page.view.clone();
        let player = i as u64 + 1;
        let me = view["objects"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["player"] == player)
            .unwrap()["id"]
            .as_u64()
            .unwrap();
        let friend = view["objects"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["kind"] == "character" && o["player"] != player)
            .unwrap()["id"]
            .as_u64()
            .unwrap();
        for category in [
            json!("occupation"),
            json!("physical_or_mental"),
            json!("psychological"),
            json!({"relationship": {"with": friend}}),
            json!("affiliation"),
        ] {
            page.ok(json!({"action": "attach_aspect", "object": me, "text": format!("{category}"), "category": category})).await;
        }
    }
    carried(&mut pages, json!({"motion": "advance", "to": "outline"})).await;
    let p = &mut pages[0];
    p.ok(json!({"action": "sketch_finale", "objective": "Bind the wyrm"}))
        .await;
    let finale = p.view["finale"].as_u64().unwrap();
    p.ok(json!({"action": "sketch_scene", "parent": finale, "objective": "Find the song"}))
        .await;
    p.ok(json!({"action": "create_object", "name": "The vault", "kind": "place"}))
        .await;
    let (vault, _) = object(&p.view, "The vault");
    p.ok(
        json!({"action": "attach_aspect", "object": vault, "text": "Unguarded", "category": null}),
    )
    .await;
    let scene = p.view["scenes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["parent"] == finale)
        .unwrap()["id"]
        .as_u64()
        .unwrap();
    p.ok(json!({"action": "place_object", "scene": scene, "object": vault}))
        .await;
    carried(&mut pages, json!({"motion": "advance", "to": "story"})).await;
    pages[0]
        .ok(json!({"action": "start_scene", "scene": scene}))
        .await;
    (token, pages, cookies)
}

#[tokio::test]
async fn updates_carry_what_changed_and_every_page_builds_the_tables_view() {
    let db = fresh_db();
    let server = Server::start(&db).await;
    let (token, mut pages, cookies) = story_table(&server).await;
    let scene = pages[0].view["in_progress"].as_u64().unwrap();
    let wren = pages[0].view["objects"][0]["aspects"][0]["id"]
        .as_u64()
        .unwrap();
    let (_, unguarded) = object(&pages[0].view, "The vault");
    pages[1].ok(json!({"action": "propose_pair", "scene": scene, "character_aspect": wren, "environment_aspect": unguarded, "justification": "she knows"})).await;
    let latest = pages[1].seq;
    for page in pages.iter_mut() {
        while page.seq < latest {
            page.next().await;
        }
    }
    let mut patches = 0;
    for page in &pages {
        let checked = views_match_the_log::<StoryGame>(&server, &token, page, 1).await;
        assert!(checked > 20, "{checked} views");
        patches += page
            .heard
            .iter()
            .filter(|m| m.get("patch").is_some())
            .count();
    }
    assert!(patches > 40, "updates are patches ({patches})");
    // A fresh page's sync brings the view the others built.
    let fresh = Page::open(server.addr, &token, &cookies[2], 0).await;
    assert_eq!(fresh.view, pages[2].view);
    server.stop().await;
}

#[tokio::test]
async fn everyone_sees_the_same_state_and_refusals_go_to_the_actor_only() {
    let db = fresh_db();
    let server = Server::start(&db).await;
    let (_token, mut pages, _) = story_table(&server).await;
    let scene = pages[0].view["in_progress"].as_u64().unwrap();
    let wren = pages[0].view["objects"][0]["aspects"][0]["id"]
        .as_u64()
        .unwrap();
    let tamsin = pages[0].view["objects"][1]["aspects"][0]["id"]
        .as_u64()
        .unwrap();
    // Two character aspects: refused, with the rule, to the sender only.
    let answer = pages[1].act(json!({"action": "propose_pair", "scene": scene, "character_aspect": wren, "environment_aspect": tamsin, "justification": ""})).await;
    assert_eq!(answer["type"], "refused");
    assert_eq!(answer["rule"], "Matching Aspects");
    assert!(
        answer["message"]
            .as_str()
            .unwrap()
            .contains("not two character aspects")
    );
    // An accepted action reaches every page with the same seq and view.
    let (_, unguarded) = object(&pages[0].view, "The vault");
    pages[1].ok(json!({"action": "propose_pair", "scene": scene, "character_aspect": wren, "environment_aspect": unguarded, "justification": "Wren <b>knows</b>"})).await;
    let target = pages[1].seq;
    for page in pages.iter_mut() {
        while page.seq < target {
            page.next().await;
        }
        assert_eq!(page.seq, target);
    }
    let pair_views: Vec<Value> = pages
        .iter()
        .map(|p| {
            p.view["scenes"]
                .as_array()
                .unwrap()
                .iter()
                .find(|s| s["id"] == scene)
                .unwrap()["pairs"]
                .clone()
        })
        .collect();
    assert!(pair_views.windows(2).all(|w| w[0] == w[1]));
    assert_eq!(
        pair_views[0][0]["justification"], "Wren <b>knows</b>",
        "text stays text"
    );
    // The roll: a page cannot choose the dice's seed; the server picks it.
    let check = json!({"motion": "make_check", "scene": scene, "accept_empty_pool": false});
    let cheat = pages[2]
        .act(json!({"action": "propose", "motion": check, "seed": 1}))
        .await;
    assert_eq!(cheat["type"], "error");
    // One player cannot roll alone: the proposal waits for the others.
    pages[2]
        .ok(json!({"action": "propose", "motion": check}))
        .await;
    let proposal = &pages[2].view["proposal"];
    assert_eq!(proposal["motion"], "make_check");
    assert_eq!(proposal["waiting"], json!([1, 2]));
    let id = proposal["id"].clone();
    let no_check = |p: &Page| {
        p.view["scenes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["id"] == scene)
            .unwrap()["check"]
            .is_null()
    };
    assert!(no_check(&pages[2]));
    let again = pages[2]
        .act(json!({"action": "agree", "proposal": id}))
        .await;
    assert_eq!(again["code"], "already_agreed");
    pages[0]
        .ok(json!({"action": "agree", "proposal": id}))
        .await;
    assert!(no_check(&pages[0]), "two of three is not everyone");
    pages[1]
        .ok(json!({"action": "agree", "proposal": id}))
        .await;
    let target = pages[1].seq;
    for page in pages.iter_mut() {
        while page.seq < target {
            page.next().await;
        }
    }
    let checks: Vec<Value> = pages
        .iter()
        .map(|p| {
            p.view["scenes"]
                .as_array()
                .unwrap()
                .iter()
                .find(|s| s["id"] == scene)
                .unwrap()["check"]
                .clone()
        })
        .collect();
    assert!(!checks[0]["dice"].as_array().unwrap().is_empty());
    assert!(checks.windows(2).all(|w| w[0] == w[1]));
    server.stop().await;
}

#[tokio::test]
async fn two_players_acting_at_once_end_up_with_the_same_state() {
    let db = fresh_db();
    let server = Server::start(&db).await;
    let addr = server.addr;
    let (token, ada) = create_table(addr, "1.0", "Ada").await;
    let bo = join(addr, &token, "Bo").await;
    let mut a = Page::open(addr, &token, &ada, 0).await;
    let mut b = Page::open(addr, &token, &bo, 0).await;
    let last = b.seq + 20;
    // Both add twenty lines as fast as they can, interleaved.
    for i in 0..10 {
        a.send(json!({"type": "act", "req": 100 + i, "action": {"action": "add_line", "text": format!("a{i}")}})).await;
        b.send(json!({"type": "act", "req": 200 + i, "action": {"action": "add_line", "text": format!("b{i}")}})).await;
    }
    // Wait until both pages have everything.
    while a.seq < last {
        a.next().await;
    }
    while b.seq < last {
        b.next().await;
    }
    assert_eq!(a.view["lines"], b.view["lines"]);
    assert_eq!(a.view["lines"].as_array().unwrap().len(), 20);
    server.stop().await;
}

#[tokio::test]
async fn bad_messages_are_answered_and_close_nothing() {
    let db = fresh_db();
    let server = Server::start(&db).await;
    let (token, ada) = create_table(server.addr, "1.0", "Ada").await;
    let mut page = Page::open(server.addr, &token, &ada, 0).await;
    page.send_raw("{not json".into()).await;
    let error = page.until(|m| m["type"] == "error").await;
    assert_eq!(error["message"], "That message is not JSON.");
    page.send(json!({"type": "summon", "req": 7})).await;
    let error = page.until(|m| m["type"] == "error").await;
    assert_eq!(error["req"], 7);
    assert_eq!(
        error["message"],
        "That is not a message this table understands: send hello, act, log or ping."
    );
    page.send(json!({"type": "act", "req": 8})).await;
    let error = page.until(|m| m["type"] == "error").await;
    assert_eq!(error["message"], "An act message needs an action.");
    page.send(json!({"type": "hello", "since": "yesterday"}))
        .await;
    let error = page.until(|m| m["type"] == "error").await;
    assert_eq!(
        error["message"],
        "hello's since is the number of the last event the page has."
    );
    let unknown = page.act(json!({"action": "summon_dragon"})).await;
    assert_eq!(unknown["type"], "error");
    // The answer names the problem in the protocol's words, never the server's types.
    let message = unknown["message"].as_str().unwrap();
    assert_eq!(message, "there is no action 'summon_dragon' in this game");
    let nameless = page.act(json!({"text": "hello"})).await;
    assert_eq!(
        nameless["message"],
        "an action needs its name in \"action\""
    );
    let incomplete = page.act(json!({"action": "add_line"})).await;
    let message = incomplete["message"].as_str().unwrap();
    assert_eq!(
        message,
        "the action 'add_line' cannot be read: it needs 'text'"
    );
    for answer in [&unknown, &nameless, &incomplete] {
        assert!(
            !answer["message"].as_str().unwrap().contains("enum"),
            "{answer}"
        );
    }
    let cheat = page.act(json!({"action": "open", "ruleset": "1.1"})).await;
    assert_eq!(cheat["type"], "error");
    page.send_raw(format!(
        "{{\"type\":\"act\",\"req\":1,\"action\":{{\"action\":\"add_line\",\"text\":\"{}\"}}}}",
        "x".repeat(20_000)
    ))
    .await;
    let big = page.until(|m| m["type"] == "error").await;
    assert_eq!(
        big["message"],
        "That message is too large (19 KiB); the limit is 16 KiB."
    );
    // Still open and working.
    let fine = page
        .act(json!({"action": "add_line", "text": "spiders"}))
        .await;
    assert_eq!(fine["type"], "done");
    let long = page
        .act(json!({"action": "add_line", "text": "x".repeat(201)}))
        .await;
    assert_eq!(long["type"], "refused");
    assert_eq!(
        long["message"],
        "The line can be at most 200 characters long."
    );
    server.stop().await;
}

#[tokio::test]
async fn too_many_actions_a_second_are_answered_then_allowed_again() {
    let db = fresh_db();
    let server = Server::start_with(&db, server::Options::default()).await;
    let (token, ada) = create_table(server.addr, "1.0", "Ada").await;
    let mut page = Page::open(server.addr, &token, &ada, 0).await;
    for i in 0..30 {
        page.send(json!({"type": "act", "req": i, "action": {"action": "add_line", "text": format!("line {i}")}})).await;
    }
    let mut done = 0;
    let mut too_fast = 0;
    while done + too_fast < 30 {
        let m = page.next().await;
        match m["type"].as_str() {
            Some("done") => done += 1,
            Some("error") => {
                assert!(m["message"].as_str().unwrap().starts_with("Too fast"));
                too_fast += 1;
            }
            _ => {}
        }
    }
    // The burst of 20, less the hello's 4, is the seat's to spend at once.
    assert!(
        done >= 16 && too_fast >= 1,
        "{done} done, {too_fast} too fast"
    );
    tokio::time::sleep(std::time::Duration::from_millis(1_100)).await;
    assert_eq!(
        page.act(json!({"action": "add_line", "text": "later"}))
            .await["type"],
        "done"
    );
    server.stop().await;
}

#[tokio::test]
async fn a_page_resyncs_from_its_last_seq_and_a_restart_resumes_the_table() {
    let db = fresh_db();
    let server = Server::start(&db).await;
    let (token, ada) = create_table(server.addr, "1.1", "Ada").await;
    let mut page = Page::open(server.addr, &token, &ada, 0).await;
    for i in 0..5 {
        page.ok(json!({"action": "add_line", "text": format!("line {i}")}))
            .await;
    }
    let seq = page.seq;
    let view = page.view.clone();
    // Reconnecting from seq − 2 brings exactly the two missed log entries.
    let mut again = Page::open(server.addr, &token, &ada, seq - 2).await;
    drop(again.view.take());
    let sync = {
        again.send(json!({"type": "hello", "since": seq - 2})).await;
        again.until(|m| m["type"] == "sync").await
    };
    let missed: Vec<u64> = sync["log"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["seq"].as_u64().unwrap())
        .collect();
    assert_eq!(missed, [seq - 1, seq]);
    server.stop().await;

    let server = Server::start(&db).await;
    let page = Page::open(server.addr, &token, &ada, 0).await;
    assert_eq!(page.seq, seq);
    assert_eq!(
        page.view, view,
        "the restarted server serves the same table"
    );
    assert_eq!(page.view["ruleset"]["id"], "1.1");
    server.stop().await;
}

#[tokio::test]
async fn seats_links_and_origins_are_checked() {
    let db = fresh_db();
    let server = Server::start(&db).await;
    let addr = server.addr;
    let (token, ada) = create_table(addr, "temporal", "Ada").await;
    assert_eq!(
        upgrade_status(addr, &token, None, &format!("http://{addr}")).await,
        401
    );
    assert_eq!(
        upgrade_status(addr, &token, Some(&ada), "http://evil.example").await,
        403
    );
    assert_eq!(
        upgrade_status(addr, &token, Some(&ada), &format!("http://{addr}")).await,
        101
    );
    let (status, _, body) = http(addr, "GET", &format!("/t/{token}/me"), Some(&ada), None).await;
    assert_eq!(
        (
            status,
            serde_json::from_str::<Value>(&body).unwrap()["player"].as_u64()
        ),
        (200, Some(1))
    );
    let (status, _, body) = http(
        addr,
        "GET",
        &format!("/t/{}/me", "0".repeat(32)),
        Some(&ada),
        None,
    )
    .await;
    assert_eq!(
        (status, body.as_str()),
        (404, "{\"error\":\"There is no table at this link.\"}"),
        "a seat is for one table only"
    );
    let (status, _, _) = http(
        addr,
        "GET",
        "/t/0123456789abcdef0123456789abcdef",
        None,
        None,
    )
    .await;
    assert_eq!(status, 404);
    let (status, _, body) = http(
        addr,
        "POST",
        "/tables",
        None,
        Some(json!({"name": "Ada", "ruleset": "2.0"})),
    )
    .await;
    assert_eq!(
        (status, body.as_str()),
        (
            400,
            "{\"error\":\"'2.0' is not a ruleset: use 1.0, 1.1 or temporal\"}"
        )
    );
    let (status, _, body) = try_join(addr, &token, &invite_of(&token), "   ").await;
    assert_eq!(
        (status, body.as_str()),
        (
            400,
            "{\"error\":\"A name needs at least one letter or sign people can see.\"}"
        )
    );
    let (_, headers, _) = http(addr, "GET", "/", None, None).await;
    assert!(headers.contains("content-security-policy: default-src 'self'"));
    assert!(headers.contains("referrer-policy: no-referrer"));
    server.stop().await;
}

#[tokio::test]
async fn the_creator_removes_a_player_whose_seat_then_closes() {
    let db = fresh_db();
    let server = Server::start(&db).await;
    let addr = server.addr;
    let (token, ada) = create_table(addr, "1.0", "Ada").await;
    let bo = join(addr, &token, "Bo").await;
    let mut a = Page::open(addr, &token, &ada, 0).await;
    let mut b = Page::open(addr, &token, &bo, 0).await;
    let refused = b.act(json!({"action": "remove_player", "player": 1})).await;
    assert_eq!(
        refused["message"],
        "Only the table's creator can remove a player."
    );
    a.ok(json!({"action": "remove_player", "player": 2})).await;
    let removed = b.until(|m| m["type"] == "removed").await;
    assert_eq!(removed["message"], "You were removed from this table.");
    assert!(b.closed().await);
    let (_, _, body) = http(addr, "GET", &format!("/t/{token}/me"), Some(&bo), None).await;
    assert_eq!(
        serde_json::from_str::<Value>(&body).unwrap()["player"],
        Value::Null,
        "the removed seat's cookie no longer works"
    );
    assert_eq!(
        upgrade_status(addr, &token, Some(&bo), &format!("http://{addr}")).await,
        401
    );
    server.stop().await;
}

#[tokio::test]
async fn export_and_print_need_a_seat() {
    let db = fresh_db();
    let server = Server::start(&db).await;
    let addr = server.addr;
    let (token, ada) = create_table(addr, "1.0", "Ada <script>").await;
    let (status, headers, body) = http(
        addr,
        "GET",
        &format!("/t/{token}/export.md"),
        Some(&ada),
        None,
    )
    .await;
    assert_eq!(status, 200);
    assert!(headers.contains("content-type: text/markdown"));
    assert!(body.contains("Ada &lt;script&gt;"), "{body}");
    let (status, _, body) = http(addr, "GET", &format!("/t/{token}/print"), Some(&ada), None).await;
    assert_eq!(status, 200);
    assert!(!body.contains("<script>"));
    let (status, _, _) = http(addr, "GET", &format!("/t/{token}/print"), None, None).await;
    assert_eq!(status, 401);
    server.stop().await;
}

/// Every message a page received, as text.
fn heard(page: &Page) -> String {
    page.heard
        .iter()
        .map(Value::to_string)
        .collect::<Vec<_>>()
        .join("\n")
}

#[tokio::test]
async fn the_safety_tools_never_say_who_used_them() {
    let db = fresh_db();
    let server = Server::start(&db).await;
    let addr = server.addr;
    let (token, ada) = create_table(addr, "1.0", "Ada").await;
    let bo = join(addr, &token, "Bo").await;
    let cy = join(addr, &token, "Cy").await;
    let mut pages = Vec::new();
    for cookie in [&ada, &bo, &cy] {
        pages.push(Page::open(addr, &token, cookie, 0).await);
    }
    // Ada draws a line: her page learns it is hers; nobody else's does, and the log is anonymous.
    pages[0]
        .ok(json!({"action": "add_line", "text": "No spiders"}))
        .await;
    let line = pages[0].view["lines"][0]["id"].clone();
    // What only she may know follows the update, in a message of its own.
    pages[0].until(|m| m["type"] == "own").await;
    assert_eq!(pages[0].own["lines"], json!([line]));
    // Bo pauses the table with the X-card; only his page knows it is his.
    pages[1].ok(json!({"action": "pause"})).await;
    pages[1].until(|m| m["type"] == "own").await;
    assert_eq!(pages[1].own["paused"], true);
    let last = pages[1].seq;
    for page in pages.iter_mut() {
        page.catch_up(last).await;
    }
    assert_eq!(pages[2].view["x_card"], true);
    assert_eq!(pages[2].view["paused"], true);
    // Neither can be undone by another player alone.
    let lift = pages[1]
        .act(json!({"action": "remove_line", "line": line}))
        .await;
    assert_eq!(lift["code"], "not_your_line", "{lift}");
    let resume = pages[2].act(json!({"action": "resume"})).await;
    assert_eq!(resume["code"], "not_your_pause", "{resume}");
    // The table can resume by agreement; then Ada lifts her own line.
    carried(&mut pages, json!({"motion": "resume"})).await;
    assert_eq!(pages[0].view["paused"], false);
    pages[0]
        .ok(json!({"action": "remove_line", "line": line}))
        .await;
    let last = pages[0].seq;
    for page in pages.iter_mut() {
        page.catch_up(last).await;
    }
    // Every message each page received: its own doings only, and no author in the log.
    for (i, page) in pages.iter().enumerate() {
        for message in &page.heard {
            if message["type"] == "own" || message["type"] == "sync" {
                let own = &message["own"];
                if i != 0 {
                    assert_eq!(own["lines"], json!([]), "page {i}: {message}");
                }
                if i != 1 {
                    assert_eq!(own["paused"], false, "page {i}: {message}");
                }
            }
            for entry in message["log"].as_array().into_iter().flatten() {
                let text = entry["text"].as_str().unwrap_or_default();
                if text.contains("line") || text.contains("X-card") || text == "Play resumes." {
                    assert!(entry["by"].is_null(), "page {i}: {entry}");
                }
            }
        }
    }
    assert!(heard(&pages[0]).contains("X-card"));
    // The game file a player downloads does not name them either.
    let (status, _, file) = http(
        addr,
        "GET",
        &format!("/t/{token}/game.jsonl"),
        Some(&cy),
        None,
    )
    .await;
    assert_eq!(status, 200);
    for row in file
        .lines()
        .filter(|l| l.contains("line_added") || l.contains("table_paused"))
    {
        assert!(!row.contains("\"by\""), "{row}");
    }
    assert!(file.contains("line_added") && file.contains("table_paused"));
    server.stop().await;
}

/// The rulings are a page of the site: a title, a language, the site's sheets and theme, the
/// Markdown's headings and lists as HTML, and the same security headers as every page.
#[tokio::test]
async fn the_rulings_are_served_for_the_page_to_link() {
    let db = fresh_db();
    let server = Server::start(&db).await;
    let (status, headers, body) = http(server.addr, "GET", "/rulings", None, None).await;
    assert_eq!(status, 200);
    for header in [
        "content-type: text/html; charset=utf-8",
        "content-security-policy: default-src 'self'",
        "x-content-type-options: nosniff",
    ] {
        assert!(headers.contains(header), "{header} in {headers}");
    }
    // The theme's script and the base sheet, by their hashed names.
    let theme = format!(
        "<script src=\"{}\"></script>",
        server::assets::url("common/theme.js")
    );
    let base = format!(
        "<link rel=\"stylesheet\" href=\"{}\">",
        server::assets::url("common/base.css")
    );
    for part in [
        "<html lang=\"en\">",
        "<title>Rulings — Prophecy</title>",
        &theme,
        &base,
        "<h1>Rulings</h1>",
        "<h2>Agreement: nothing that can",
        "<li>making a scene's check;</li>",
        "X-card",
        "<h2>Real dice</h2>",
        "<h2>Temporal Mechanics</h2>",
    ] {
        assert!(body.contains(part), "{part}");
    }
    assert!(!body.contains("## "), "every heading is HTML");
    server.stop().await;
}

/// The scene being played carries its exact chance, the chance with one more matching pair,
/// the chance of every pool size for the page's chart, and what its outcome would make of the
/// Finale's chance (each checked against the dice crate and the outline solver's own answers).
#[tokio::test]
async fn a_scene_s_odds_come_with_one_more_pair_a_curve_and_the_finale_s_what_if() {
    let db = fresh_db();
    let server = Server::start(&db).await;
    let (_, pages, _) = story_table(&server).await;
    let view = &pages[0].view;
    let scene_id = view["in_progress"].as_u64().unwrap();
    let scene = view["scenes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["id"] == scene_id)
        .unwrap();
    let odds = &scene["odds"];
    let dice = odds["dice"].as_u64().unwrap() as u32;
    let difficulty = scene["difficulty"].as_u64().unwrap() as u32;
    let next = dice::check_odds::success_probability(dice + 1, difficulty);
    assert_eq!(odds["exact_next"], next.to_string());
    assert_eq!(odds["p_next"].as_f64().unwrap(), next.to_f64());
    let curve = odds["curve"].as_array().unwrap();
    assert!(
        curve.len() >= 11 && curve.len() as u32 > dice + 3,
        "{curve:?}"
    );
    for (n, p) in curve.iter().enumerate() {
        let exact = dice::check_odds::success_probability(n as u32, difficulty).to_f64();
        assert!(
            (p.as_f64().unwrap() - exact).abs() < 1e-12,
            "{n} dice: {p} vs {exact}"
        );
    }
    // More dice never lower the chance.
    assert!(curve.windows(2).all(|w| w[0].as_f64() <= w[1].as_f64()));

    // The Finale with this scene succeeding (a reward die) is likelier than with it failing;
    // the Finale itself has no what-if.
    let finale = view["finale"].as_u64().unwrap();
    let what_if = view["finale_if"][scene_id.to_string()].as_array().unwrap();
    let (won, lost) = (what_if[0].as_f64().unwrap(), what_if[1].as_f64().unwrap());
    assert!(won > lost, "{won} vs {lost}");
    let now = view["outline_odds"][finale.to_string()].as_f64().unwrap();
    assert!(lost <= now && now <= won, "{lost} ≤ {now} ≤ {won}");
    assert!(view["finale_if"].get(finale.to_string()).is_none());
    server.stop().await;
}

/// The printable page draws the outline as a picture (SVG), not as diagram source; what a
/// player wrote in it is escaped.
#[tokio::test]
async fn the_printable_page_draws_the_outline() {
    let db = fresh_db();
    let server = Server::start(&db).await;
    let (token, _, cookies) = story_table(&server).await;
    let (status, _, page) = http(
        server.addr,
        "GET",
        &format!("/t/{token}/print"),
        Some(&cookies[0]),
        None,
    )
    .await;
    assert_eq!(status, 200);
    assert!(page.contains("<figure class=\"outline\"><svg"), "{page}");
    assert!(page.contains(">Bind the wyrm</text>"), "{page}");
    assert!(page.contains(">Find the song</text>"), "{page}");
    assert!(!page.contains("graph TB"), "no Mermaid source left: {page}");
    // The Markdown keeps its diagram source, for tools that draw it.
    let (_, _, markdown) = http(
        server.addr,
        "GET",
        &format!("/t/{token}/export.md"),
        Some(&cookies[0]),
        None,
    )
    .await;
    assert!(markdown.contains("```mermaid"));
    server.stop().await;
}
