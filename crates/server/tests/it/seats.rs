//! Seats and invitations: a removed seat is closed on every path, removed seats free their
//! place, the creator renews or closes the invitation, and the game file hides flagged text.

use crate::{
    Page, Server, create_table, fresh_db, http, invite_of, join, try_join, upgrade_status,
};
use serde_json::{Value, json};
use std::time::Duration;

fn field(body: &str, name: &str) -> Value {
    serde_json::from_str::<Value>(body).unwrap()[name].clone()
}

/// A socket that was too slow for the broadcast (it read nothing while the table changed a
/// hundred times) still learns it was removed, and nothing it can send brings the table back.
#[tokio::test]
async fn a_removed_player_is_closed_out_even_when_their_socket_lagged() {
    let db = fresh_db();
    let server = Server::start(&db).await;
    let addr = server.addr;
    let (token, ada) = create_table(addr, "1.0", "Ada").await;
    let bo = join(addr, &token, "Bo").await;
    let mut lagging = Page::open(addr, &token, &bo, 0).await;
    // Several sockets of the creator, to make changes faster than the lagging page reads.
    let mut writers = Vec::new();
    for _ in 0..6 {
        writers.push(Page::open(addr, &token, &ada, 0).await);
    }
    for (i, writer) in writers.iter_mut().enumerate() {
        for j in 0..18 {
            let text = format!("Prophecy {i}-{j}: {}", "the moon falls ".repeat(10));
            writer
                .ok(json!({"action": "write_prophecy", "text": text}))
                .await;
        }
    }
    writers[0]
        .ok(json!({"action": "remove_player", "player": 2}))
        .await;
    // The lagging page now reads: whatever was queued for it, then the notice, then the end.
    let removed = lagging.until(|m| m["type"] == "removed").await;
    assert_eq!(removed["message"], "You were removed from this table.");
    assert!(lagging.closed().await);
    // Every other path is closed too.
    assert_eq!(
        upgrade_status(addr, &token, Some(&bo), &format!("http://{addr}")).await,
        401
    );
    for path in ["export.md", "print", "qr.svg", "game.jsonl", "invite"] {
        let (status, _, _) =
            http(addr, "GET", &format!("/t/{token}/{path}"), Some(&bo), None).await;
        assert_eq!(status, 401, "{path}");
    }
    let (_, _, body) = http(addr, "GET", &format!("/t/{token}/me"), Some(&bo), None).await;
    assert_eq!(field(&body, "player"), Value::Null);
    server.stop().await;
}

#[tokio::test]
async fn a_socket_of_a_removed_player_that_says_hello_again_is_told_and_closed() {
    let db = fresh_db();
    let server = Server::start(&db).await;
    let addr = server.addr;
    let (token, ada) = create_table(addr, "1.0", "Ada").await;
    let bo = join(addr, &token, "Bo").await;
    let mut a = Page::open(addr, &token, &ada, 0).await;
    let mut b = Page::open(addr, &token, &bo, 0).await;
    a.ok(json!({"action": "remove_player", "player": 2})).await;
    // Whatever the page sends now, it gets no view: the notice, and the socket closes.
    b.send(json!({"type": "hello", "since": 0})).await;
    let mut heard = Vec::new();
    loop {
        match tokio::time::timeout(Duration::from_secs(5), b.next_or_end()).await {
            Ok(Some(message)) => heard.push(message),
            Ok(None) => break,
            Err(_) => panic!("the socket stayed open: {heard:?}"),
        }
    }
    assert!(heard.iter().any(|m| m["type"] == "removed"), "{heard:?}");
    assert!(
        heard.iter().all(|m| m["type"] != "sync"),
        "no sync for a removed seat: {heard:?}"
    );
    server.stop().await;
}

#[tokio::test]
async fn removed_seats_free_their_place_and_player_numbers_are_parsed_strictly() {
    let db = fresh_db();
    let server = Server::start(&db).await;
    let addr = server.addr;
    let (token, ada) = create_table(addr, "1.0", "Ada").await;
    for n in 2..=12 {
        join(addr, &token, &format!("P{n}")).await;
    }
    let (status, _, body) = try_join(addr, &token, &invite_of(&token), "Thirteen").await;
    assert_eq!(
        (status, field(&body, "error")),
        (400, json!("A game can have at most 12 players."))
    );
    let mut a = Page::open(addr, &token, &ada, 0).await;
    // 2^32 + 2 is not player 2.
    let answer = a
        .act(json!({"action": "remove_player", "player": 4_294_967_298u64}))
        .await;
    assert_eq!(answer["type"], "error", "{answer}");
    for bad in [json!(-2), json!(2.5), json!("2"), json!(0), json!(99)] {
        let answer = a
            .act(json!({"action": "remove_player", "player": bad}))
            .await;
        assert_eq!(answer["type"], "error", "{bad} → {answer}");
    }
    let seated = a.view["players"].as_array().unwrap().len();
    assert_eq!(seated, 12, "nobody was removed by a bad number");
    a.ok(json!({"action": "remove_player", "player": 2})).await;
    // With the invitation the removal renewed.
    let code = current_invite(addr, &token, &ada).await.unwrap();
    let (status, headers, body) = try_join(addr, &token, &code, "Thirteen").await;
    assert_eq!(status, 200, "{body}");
    let newcomer = crate::cookie_of(&headers);
    let (_, _, body) = http(
        addr,
        "GET",
        &format!("/t/{token}/me"),
        Some(&newcomer),
        None,
    )
    .await;
    assert_eq!(
        field(&body, "player"),
        json!(13),
        "a fresh number, never a reused one"
    );
    server.stop().await;
}

/// The creator's current invitation code, as their page reads it (`None`: joining closed).
async fn current_invite(addr: std::net::SocketAddr, token: &str, cookie: &str) -> Option<String> {
    let (status, _, body) = http(
        addr,
        "GET",
        &format!("/t/{token}/invite"),
        Some(cookie),
        None,
    )
    .await;
    assert_eq!(status, 200, "{body}");
    field(&body, "link")
        .as_str()
        .map(|link| link.rsplit_once("?join=").unwrap().1.to_owned())
}

/// A removal renews the invitation: the link the removed player (and anyone) had seats nobody,
/// and the pages hear it; a closed invitation stays closed.
#[tokio::test]
async fn a_removal_renews_the_invitation() {
    let db = fresh_db();
    let server = Server::start(&db).await;
    let addr = server.addr;
    let (token, ada) = create_table(addr, "1.0", "Ada").await;
    let old = invite_of(&token);
    join(addr, &token, "Bo").await;
    let cy = join(addr, &token, "Cy").await;
    let mut a = Page::open(addr, &token, &ada, 0).await;
    let mut c = Page::open(addr, &token, &cy, 0).await;
    a.ok(json!({"action": "remove_player", "player": 2})).await;
    c.until(|m| m["type"] == "invite").await;
    let (status, _, body) = try_join(addr, &token, &old, "Bo").await;
    assert_eq!(status, 403, "the old link seats nobody: {body}");
    let new = current_invite(addr, &token, &ada).await.unwrap();
    assert_ne!(new, old);
    let (status, _, body) = try_join(addr, &token, &new, "Di").await;
    assert_eq!(status, 200, "the new link seats: {body}");
    // Closed, it stays closed after a removal.
    let close = Some(json!({"action": "close"}));
    let (status, _, _) = http(
        addr,
        "POST",
        &format!("/t/{token}/invite"),
        Some(&ada),
        close,
    )
    .await;
    assert_eq!(status, 200);
    a.ok(json!({"action": "remove_player", "player": 3})).await;
    assert_eq!(current_invite(addr, &token, &ada).await, None);
    server.stop().await;
}

#[tokio::test]
async fn the_creator_renews_the_invitation_or_closes_joining() {
    let db = fresh_db();
    let server = Server::start(&db).await;
    let addr = server.addr;
    let (token, ada) = create_table(addr, "1.0", "Ada").await;
    let old = invite_of(&token);
    let bo = join(addr, &token, "Bo").await;
    let mut b = Page::open(addr, &token, &bo, 0).await;

    // Everyone seated sees the link; only the creator changes it.
    let (status, headers, body) =
        http(addr, "GET", &format!("/t/{token}/invite"), Some(&bo), None).await;
    assert_eq!(status, 200);
    assert!(headers.contains("cache-control: no-store"));
    assert_eq!(
        field(&body, "link"),
        json!(format!("http://{addr}/t/{token}?join={old}"))
    );
    let renew = Some(json!({"action": "renew"}));
    let (status, _, _) = http(
        addr,
        "POST",
        &format!("/t/{token}/invite"),
        Some(&bo),
        renew.clone(),
    )
    .await;
    assert_eq!(status, 403);
    let (status, _, _) = http(
        addr,
        "POST",
        &format!("/t/{token}/invite"),
        None,
        renew.clone(),
    )
    .await;
    assert_eq!(status, 401);

    let (status, _, body) = http(
        addr,
        "POST",
        &format!("/t/{token}/invite"),
        Some(&ada),
        renew,
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let link = field(&body, "link").as_str().unwrap().to_owned();
    let new = link.rsplit_once("?join=").unwrap().1.to_owned();
    assert_ne!(new, old);
    // Pages hear that the invitation changed.
    b.until(|m| m["type"] == "invite").await;
    let (status, _, body) = try_join(addr, &token, &old, "Cy").await;
    assert_eq!(status, 403, "the old link seats nobody: {body}");
    assert!(
        field(&body, "error")
            .as_str()
            .unwrap()
            .contains("current invitation link")
    );
    let (_, _, body) = http(
        addr,
        "GET",
        &format!("/t/{token}/me?join={old}"),
        None,
        None,
    )
    .await;
    assert_eq!(field(&body, "joining"), json!("wrong_link"));
    // A stale link learns nothing about the table; the current one names it and its players.
    assert_eq!(field(&body, "table"), Value::Null);
    assert!(!body.contains("Ada"), "{body}");
    let (_, _, body) = http(
        addr,
        "GET",
        &format!("/t/{token}/me?join={new}"),
        None,
        None,
    )
    .await;
    assert_eq!(field(&body, "joining"), json!("open"));
    assert_eq!(field(&body, "table")["game"], json!("story"));
    assert!(
        field(&body, "table")["players"]
            .as_array()
            .unwrap()
            .contains(&json!("Ada")),
        "{body}"
    );
    let (status, _, _) = try_join(addr, &token, &new, "Cy").await;
    assert_eq!(status, 200);
    // Seated players keep their seats.
    b.ok(json!({"action": "add_line", "text": "no spiders"}))
        .await;

    let close = Some(json!({"action": "close"}));
    let (status, _, body) = http(
        addr,
        "POST",
        &format!("/t/{token}/invite"),
        Some(&ada),
        close,
    )
    .await;
    assert_eq!((status, field(&body, "open")), (200, json!(false)));
    let (status, _, body) = try_join(addr, &token, &new, "Di").await;
    assert_eq!(status, 403);
    assert!(
        field(&body, "error")
            .as_str()
            .unwrap()
            .contains("closed joining")
    );
    let (status, _, _) = http(addr, "GET", &format!("/t/{token}/qr.svg"), Some(&ada), None).await;
    assert_eq!(status, 404, "no QR code while joining is closed");

    let open = Some(json!({"action": "open"}));
    let (_, _, body) = http(
        addr,
        "POST",
        &format!("/t/{token}/invite"),
        Some(&ada),
        open,
    )
    .await;
    let reopened = field(&body, "link")
        .as_str()
        .unwrap()
        .rsplit_once("?join=")
        .unwrap()
        .1
        .to_owned();
    assert_ne!(reopened, new, "reopening makes a new link");
    assert_eq!(try_join(addr, &token, &new, "Di").await.0, 403);
    assert_eq!(try_join(addr, &token, &reopened, "Di").await.0, 200);
    let (status, _, _) = try_join(addr, &token, "", "Ed").await;
    assert_eq!(status, 403, "no code, no seat");
    server.stop().await;
}

#[tokio::test]
async fn the_game_file_replays_and_leaves_flagged_text_out() {
    let db = fresh_db();
    let server = Server::start(&db).await;
    let addr = server.addr;
    let (token, ada) = create_table(addr, "1.0", "Ada").await;
    let mut a = Page::open(addr, &token, &ada, 0).await;
    a.ok(json!({"action": "write_prophecy", "text": "The moon eats the crown"}))
        .await;
    a.ok(json!({"action": "flag", "target": {"text": "prophecy"}}))
        .await;
    let (status, headers, body) = http(
        addr,
        "GET",
        &format!("/t/{token}/game.jsonl"),
        Some(&ada),
        None,
    )
    .await;
    assert_eq!(status, 200);
    assert!(headers.contains("content-disposition: attachment; filename=\"prophecy-game.jsonl\""));
    assert!(
        !body.contains("moon"),
        "flagged text never leaves the server: {body}"
    );
    assert!(body.contains(story::redact::LEFT_OUT));
    // The replacement is not flagged: it is in the file.
    a.ok(json!({"action": "write_prophecy", "text": "The sun forgets its name"}))
        .await;
    let (_, _, body) = http(
        addr,
        "GET",
        &format!("/t/{token}/game.jsonl"),
        Some(&ada),
        None,
    )
    .await;
    assert!(!body.contains("moon"));
    assert!(body.contains("The sun forgets its name"));
    // The file is what `prophecy export` reads: every line a stored event, one game.
    let events: Vec<story::Event> = body
        .lines()
        .map(|l| {
            serde_json::from_str::<story::StoredEvent>(l)
                .unwrap()
                .into_event()
        })
        .collect();
    assert_eq!(events.len() as u64, a.seq);
    let state = story::State::replay(&events);
    assert_eq!(
        state.prophecy.as_ref().map(|p| p.text.as_str()),
        Some("The sun forgets its name")
    );
    let (status, _, _) = http(addr, "GET", &format!("/t/{token}/game.jsonl"), None, None).await;
    assert_eq!(status, 401);
    server.stop().await;
}

/// Names are kept in one Unicode form, must show something, are unique at a table however
/// they are typed, and a right-to-left override in one cannot reverse what follows it.
#[tokio::test]
async fn names_are_normalized_visible_unique_and_closed() {
    let db = fresh_db();
    let server = Server::start(&db).await;
    let addr = server.addr;
    let (token, ada) = create_table(addr, "1.0", "  \u{202E}Ada  ").await;
    let invite = invite_of(&token);
    for invisible in [
        "",
        "   ",
        "\u{200B}\u{200D}",
        "\u{3164}",
        "\u{202E}\u{202C}",
    ] {
        let (status, _, body) = try_join(addr, &token, &invite, invisible).await;
        assert_eq!(
            (status, field(&body, "error")),
            (
                400,
                json!("A name needs at least one letter or sign people can see.")
            ),
            "{invisible:?}"
        );
    }
    for twin in ["Ada", "ADA", "A\u{200B}da", "Ａｄａ"] {
        let (status, _, body) = try_join(addr, &token, &invite, twin).await;
        assert_eq!(status, 400, "{twin:?}: {body}");
        assert_eq!(
            field(&body, "error"),
            json!(format!(
                "Someone at this table is already called {twin}: choose another name."
            ))
        );
    }
    let zoe = join(addr, &token, "Zoe\u{301}").await;
    let page = Page::open(addr, &token, &zoe, 0).await;
    let names: Vec<&str> = page.view["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["\u{202E}Ada\u{202C}", "Zo\u{e9}"]);
    let (status, _, export) = http(
        addr,
        "GET",
        &format!("/t/{token}/export.md"),
        Some(&ada),
        None,
    )
    .await;
    assert_eq!(status, 200);
    for line in export.lines() {
        let opened = line.matches('\u{202E}').count();
        assert_eq!(opened, line.matches('\u{202C}').count(), "{line:?}");
    }
    assert!(export.contains("\u{202E}Ada\u{202C}"), "{export}");
    server.stop().await;
}

/// A published story: anyone with the link reads it, without a seat or a cookie; a page
/// without a seat cannot publish; any player withdraws it and the link is gone. (A table of
/// one agrees with itself at once; proposals.rs has the table deciding.)
#[tokio::test]
async fn a_story_is_published_read_without_a_seat_and_withdrawn() {
    let db = fresh_db();
    let server = Server::start(&db).await;
    let addr = server.addr;
    let (token, ada) = create_table(addr, "1.0", "Ada").await;
    let publish = json!({"action": "publish"});
    let (status, _, _) = http(
        addr,
        "POST",
        &format!("/t/{token}/share"),
        None,
        Some(publish.clone()),
    )
    .await;
    assert_eq!(status, 401, "no seat, no publishing");
    let (status, _, body) = http(
        addr,
        "POST",
        &format!("/t/{token}/share"),
        Some(&ada),
        Some(json!({"action": "shout"})),
    )
    .await;
    assert_eq!(status, 400);
    assert!(
        field(&body, "error")
            .as_str()
            .unwrap()
            .contains("publish or withdraw")
    );
    let (status, _, body) = http(
        addr,
        "POST",
        &format!("/t/{token}/share"),
        Some(&ada),
        Some(publish.clone()),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let link = field(&body, "share").as_str().unwrap().to_owned();
    let path = link
        .split_once("/s/")
        .map(|(_, code)| format!("/s/{code}"))
        .unwrap();
    // Published already: refused, and the link stays; Bo, who joins later, sees it too.
    let (status, _, body) = http(
        addr,
        "POST",
        &format!("/t/{token}/share"),
        Some(&ada),
        Some(publish),
    )
    .await;
    assert_eq!(status, 409, "{body}");
    let bo = join(addr, &token, "Bo").await;
    let (_, _, body) = http(addr, "GET", &format!("/t/{token}/invite"), Some(&bo), None).await;
    assert_eq!(field(&body, "share").as_str(), Some(link.as_str()));

    let (status, headers, page) = http(addr, "GET", &path, None, None).await;
    assert_eq!(status, 200);
    assert!(page.contains("Ada"), "{page}");
    assert!(!headers.contains("set-cookie"), "{headers}");
    assert!(headers.contains("x-robots-tag: noindex"), "{headers}");
    assert!(
        !page.contains(&token),
        "the page leads nowhere at the table"
    );

    let (status, _, body) = http(
        addr,
        "POST",
        &format!("/t/{token}/share"),
        Some(&bo),
        Some(json!({"action": "withdraw"})),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(field(&body, "share"), Value::Null);
    let (status, _, _) = http(addr, "GET", &path, None, None).await;
    assert_eq!(status, 404);
    let (status, _, _) = http(addr, "GET", "/s/not-a-code", None, None).await;
    assert_eq!(status, 404);
    server.stop().await;
}
