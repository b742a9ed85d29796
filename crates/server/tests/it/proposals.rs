//! Decisions that belong to the whole table are not one player's: at a story table the
//! moderator, the dice and publishing the story are proposals; at a board or Challenge table
//! only the table's creator or the game master publishes. A published page leaves out the
//! table's lines.

use crate::{Page, Server, carried, create_table, fresh_db, http, join};
use serde_json::{Value, json};
use std::net::SocketAddr;

/// `POST /t/{token}/share` as `cookie`: (status, answer).
async fn share(addr: SocketAddr, token: &str, cookie: &str, action: &str) -> (u16, Value) {
    let (status, _, body) = http(
        addr,
        "POST",
        &format!("/t/{token}/share"),
        Some(cookie),
        Some(json!({ "action": action })),
    )
    .await;
    (status, serde_json::from_str(&body).unwrap_or(Value::Null))
}

/// The published page's path in a link (`http://…/s/CODE` → `/s/CODE`).
fn path_of(link: &Value) -> String {
    let link = link.as_str().expect("a link");
    format!("/s/{}", link.split_once("/s/").unwrap().1)
}

/// The table's published link as `cookie` sees it (`null` when none).
async fn link(addr: SocketAddr, token: &str, cookie: &str) -> Value {
    let (_, _, body) = http(
        addr,
        "GET",
        &format!("/t/{token}/invite"),
        Some(cookie),
        None,
    )
    .await;
    serde_json::from_str::<Value>(&body).unwrap()["share"].clone()
}

/// The first log line the page heard that contains `text`.
fn logged(page: &Page, text: &str) -> Option<Value> {
    page.heard
        .iter()
        .filter_map(|m| m["log"].as_array())
        .flatten()
        .find(|e| e["text"].as_str().unwrap_or("").contains(text))
        .cloned()
}

/// Reads until the page hears that the table's links changed.
async fn links_changed(page: &mut Page) {
    page.until(|m| m["type"] == "invite").await;
}

#[tokio::test]
async fn a_story_is_published_only_once_the_table_agrees() {
    let db = fresh_db();
    let server = Server::start(&db).await;
    let addr = server.addr;
    let (token, ada) = create_table(addr, "1.0", "Ada").await;
    let bo = join(addr, &token, "Bo").await;
    let mut pages = [
        Page::open(addr, &token, &ada, 0).await,
        Page::open(addr, &token, &bo, 0).await,
    ];

    // Bo asks to publish: that opens a proposal, and there is no link yet.
    let (status, answer) = share(addr, &token, &bo, "publish").await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["share"], Value::Null, "{answer}");
    pages[0].until(|m| m["type"] == "update").await;
    let proposal = pages[0].view["proposal"].clone();
    assert_eq!(proposal["motion"], "publish", "{proposal}");
    assert_eq!(proposal["by"], 2);
    assert_eq!(link(addr, &token, &ada).await, Value::Null);
    // Asked again while it is open: the table is deciding already.
    let (status, answer) = share(addr, &token, &ada, "publish").await;
    assert_eq!(status, 409, "{answer}");
    assert!(
        answer["error"]
            .as_str()
            .unwrap()
            .contains("publish the story"),
        "{answer}"
    );

    // Ada agrees: the story has its link, and every page hears of it.
    pages[0]
        .ok(json!({"action": "agree", "proposal": proposal["id"]}))
        .await;
    for page in pages.iter_mut() {
        links_changed(page).await;
    }
    let published = link(addr, &token, &bo).await;
    assert_eq!(link(addr, &token, &ada).await, published);
    let path = path_of(&published);
    let (status, _, page) = http(addr, "GET", &path, None, None).await;
    assert_eq!(status, 200, "{page}");
    assert!(page.contains("Ada"), "{page}");
    let carried = logged(&pages[1], "The story is published").expect("the log says so");
    assert_eq!(carried["by"], 1, "{carried}");

    // Bo withdraws it alone, at once, and nobody is told who.
    let (status, answer) = share(addr, &token, &bo, "withdraw").await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["share"], Value::Null);
    links_changed(&mut pages[0]).await;
    let (status, _, _) = http(addr, "GET", &path, None, None).await;
    assert_eq!(status, 404);
    // (The room tells the change after the event that made it.)
    let withdrawn = logged(&pages[0], "withdrawn").expect("the log says so");
    assert_eq!(withdrawn["by"], Value::Null, "{withdrawn}");
    server.stop().await;
}

/// The table's lines name what the group asked to keep away: the players' export has them,
/// the page for anyone with the link does not.
#[tokio::test]
async fn a_published_story_leaves_out_the_tables_lines() {
    let db = fresh_db();
    let server = Server::start(&db).await;
    let addr = server.addr;
    let (token, ada) = create_table(addr, "1.0", "Ada").await;
    let mut page = Page::open(addr, &token, &ada, 0).await;
    page.ok(json!({"action": "add_line", "text": "Drowned children"}))
        .await;
    page.ok(json!({"action": "write_prophecy", "text": "The tide will not turn."}))
        .await;
    // A table of one agrees with itself: the link comes at once.
    let (status, answer) = share(addr, &token, &ada, "publish").await;
    assert_eq!(status, 200, "{answer}");
    let path = path_of(&answer["share"]);
    let (_, _, export) = http(
        addr,
        "GET",
        &format!("/t/{token}/export.md"),
        Some(&ada),
        None,
    )
    .await;
    assert!(export.contains("Drowned children"), "{export}");
    let (status, _, published) = http(addr, "GET", &path, None, None).await;
    assert_eq!(status, 200);
    assert!(published.contains("The tide will not turn."), "{published}");
    assert!(!published.contains("Drowned children"), "{published}");
    assert!(!published.contains("Lines"), "{published}");
    server.stop().await;
}

/// The moderator and the table's dice are proposals; the lone actions are gone.
#[tokio::test]
async fn the_moderator_and_the_dice_are_the_tables_choice() {
    let db = fresh_db();
    let server = Server::start(&db).await;
    let addr = server.addr;
    let (token, ada) = create_table(addr, "1.1", "Ada").await;
    let bo = join(addr, &token, "Bo").await;
    let cy = join(addr, &token, "Cy").await;
    let mut pages = [
        Page::open(addr, &token, &ada, 0).await,
        Page::open(addr, &token, &bo, 0).await,
        Page::open(addr, &token, &cy, 0).await,
    ];
    for (action, name) in [
        (
            json!({"action": "choose_moderator", "player": 3}),
            "choose_moderator",
        ),
        (
            json!({"action": "choose_dice", "physical": true}),
            "choose_dice",
        ),
    ] {
        let answer = pages[0].act(action).await;
        assert_eq!(answer["type"], "error", "{answer}");
        assert_eq!(
            answer["message"],
            format!("there is no action '{name}' in this game"),
            "{answer}"
        );
    }
    // Ada proposes Cy: Cy, who would give up her vote, is asked like Bo.
    pages[0]
        .ok(json!({"action": "propose", "motion": {"motion": "choose_moderator", "player": 3}}))
        .await;
    let proposal = pages[0].view["proposal"].clone();
    assert_eq!(proposal["motion"], "choose_moderator");
    assert_eq!(proposal["player"], 3);
    assert_eq!(proposal["label"], "make Cy the moderator");
    assert_eq!(proposal["waiting"], json!([2, 3]));
    pages[1]
        .ok(json!({"action": "agree", "proposal": proposal["id"]}))
        .await;
    assert_eq!(pages[1].view["moderator"], Value::Null);
    pages[2]
        .ok(json!({"action": "agree", "proposal": proposal["id"]}))
        .await;
    assert_eq!(pages[2].view["moderator"], 3);
    assert_eq!(pages[2].view["voters"], json!([1, 2]));

    // Real dice: the players agree (the moderator does not vote).
    carried(
        &mut pages[..2],
        json!({"motion": "choose_dice", "physical": true}),
    )
    .await;
    assert_eq!(pages[0].view["physical_dice"], true);
    server.stop().await;
}

/// At a board table only its creator publishes, and at a Challenge table the game master;
/// anyone withdraws.
#[tokio::test]
async fn the_board_and_challenge_stories_are_published_by_the_creator_or_the_gm() {
    let db = fresh_db();
    let server = Server::start(&db).await;
    let addr = server.addr;
    for (game, only) in [
        ("board", "Only the table's creator can publish its story."),
        ("challenge", "Only the game master can publish the story."),
    ] {
        let (status, headers, body) = http(
            addr,
            "POST",
            "/tables",
            None,
            Some(json!({"name": "Ada", "game": game})),
        )
        .await;
        assert_eq!(status, 200, "{body}");
        let created: Value = serde_json::from_str(&body).unwrap();
        let token = created["token"].as_str().unwrap().to_owned();
        crate::INVITES
            .lock()
            .unwrap()
            .push((token.clone(), created["join"].as_str().unwrap().to_owned()));
        let ada = crate::cookie_of(&headers);
        let bo = join(addr, &token, "Bo").await;

        let (status, answer) = share(addr, &token, &bo, "publish").await;
        assert_eq!(status, 403, "{game}: {answer}");
        assert_eq!(answer["error"], only, "{game}");
        assert_eq!(link(addr, &token, &ada).await, Value::Null, "{game}");
        let (status, answer) = share(addr, &token, &ada, "publish").await;
        assert_eq!(status, 200, "{game}: {answer}");
        let path = path_of(&answer["share"]);
        assert_eq!(http(addr, "GET", &path, None, None).await.0, 200, "{game}");
        let (status, answer) = share(addr, &token, &bo, "withdraw").await;
        assert_eq!(status, 200, "{game}: {answer}");
        assert_eq!(answer["share"], Value::Null, "{game}");
        assert_eq!(http(addr, "GET", &path, None, None).await.0, 404, "{game}");

        if game == "challenge" {
            // The GM's seat changes hands, and publishing with it.
            let mut gm = Page::open(addr, &token, &ada, 0).await;
            gm.ok(json!({"action": "hand_gm", "to": 2})).await;
            assert_eq!(share(addr, &token, &ada, "publish").await.0, 403);
            assert_eq!(share(addr, &token, &bo, "publish").await.0, 200);
        }
    }
    server.stop().await;
}

/// Servers sharing one PostgreSQL database: the table agrees on one server, and the link
/// works, and is heard of, on another; a withdrawal on that one is heard on the first.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_story_published_on_one_server_is_heard_and_served_on_another() {
    use crate::servers::{Served, TestDb};
    let db = TestDb::create("publish").await;
    let a = Served::start(&db.url());
    let b = Served::start(&db.url());
    let (token, ada) = create_table(a.addr, "1.0", "Ada").await;
    let bo = join(b.addr, &token, "Bo").await;
    let mut ada_page = Page::open(a.addr, &token, &ada, 0).await;
    let mut bo_page = Page::open(b.addr, &token, &bo, 0).await;

    // Bo asks on B; Ada, on A, sees the proposal and agrees there.
    let (status, answer) = share(b.addr, &token, &bo, "publish").await;
    assert_eq!(status, 200, "{answer}");
    while ada_page.view["proposal"].is_null() {
        ada_page.next().await;
    }
    let id = ada_page.view["proposal"]["id"].clone();
    assert_eq!(ada_page.view["proposal"]["motion"], "publish");
    ada_page
        .ok(json!({"action": "agree", "proposal": id}))
        .await;
    links_changed(&mut bo_page).await;
    links_changed(&mut ada_page).await;
    let published = link(b.addr, &token, &bo).await;
    let path = path_of(&published);
    assert_eq!(http(b.addr, "GET", &path, None, None).await.0, 200);
    assert_eq!(path_of(&link(a.addr, &token, &ada).await), path);

    // Bo withdraws it on B: Ada's page on A hears of it, and the link is gone everywhere.
    assert_eq!(share(b.addr, &token, &bo, "withdraw").await.0, 200);
    links_changed(&mut ada_page).await;
    assert_eq!(link(a.addr, &token, &ada).await, Value::Null);
    assert_eq!(http(a.addr, "GET", &path, None, None).await.0, 404);
    drop((ada_page, bo_page, a, b));
    db.drop_now().await;
}

/// A story published before publishing was a proposal (its link set, no event in the log) is
/// withdrawn by any player like any other; withdrawing what is not published adds nothing to
/// the log.
#[tokio::test]
async fn a_link_from_before_proposals_is_withdrawn_and_nothing_is_logged_twice() {
    use store::Store;
    let db = fresh_db();
    let server = Server::start(&db).await;
    let addr = server.addr;
    let (token, _ada) = create_table(addr, "1.0", "Ada").await;
    let bo = join(addr, &token, "Bo").await;
    let table = server.store.table_by_token(&token).await.unwrap().unwrap();
    let code = "0123456789abcdef0123456789abcdef";
    server
        .store
        .set_link(table.id, store::Link::Story, Some(code))
        .await
        .unwrap();
    let path = format!("/s/{code}");
    assert_eq!(http(addr, "GET", &path, None, None).await.0, 200);
    let logged = || async {
        let events = server.store.events_after(table.id, 0).await.unwrap();
        events.len()
    };
    let before = logged().await;
    for _ in 0..2 {
        let (status, answer) = share(addr, &token, &bo, "withdraw").await;
        assert_eq!(status, 200, "{answer}");
        assert_eq!(answer["share"], Value::Null);
    }
    assert_eq!(http(addr, "GET", &path, None, None).await.0, 404);
    assert_eq!(
        logged().await,
        before,
        "nothing the table decided: no event"
    );
    server.stop().await;
}
