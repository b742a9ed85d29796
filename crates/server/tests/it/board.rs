//! The board game at the web table: tables with bots, the lobby, a whole game played through
//! the protocol, and the proof that no page ever learns an undrawn card.

use crate::{Page, Server, cookie_of, fresh_db, http, join, scripted};
use serde_json::{Value, json};
use server::game::Game;
use server::games::board::{BoardGame, Event, Table};
use std::net::SocketAddr;
use std::time::Duration;

/// Bots that act at once, so a whole game takes seconds.
fn quick_bots() -> server::Options {
    server::Options {
        bot_pause: Duration::from_millis(1),
        ..scripted()
    }
}

async fn create_board(addr: SocketAddr, name: &str, bots: Value) -> (u16, Value, String) {
    let (status, headers, body) = http(
        addr,
        "POST",
        "/tables",
        None,
        Some(json!({"name": name, "game": "board", "bots": bots})),
    )
    .await;
    let body: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
    let cookie = if status == 200 {
        cookie_of(&headers)
    } else {
        String::new()
    };
    if status == 200 {
        crate::INVITES.lock().unwrap().push((
            body["token"].as_str().unwrap().to_owned(),
            body["join"].as_str().unwrap().to_owned(),
        ));
    }
    (status, body, cookie)
}

#[tokio::test]
async fn a_board_table_is_made_with_bots_and_its_lobby_is_the_creators() {
    let db = fresh_db();
    let server = Server::start(&db).await;
    let (status, body, ann) = create_board(server.addr, "Ann", json!(2)).await;
    assert_eq!(status, 200, "{body}");
    let token = body["token"].as_str().unwrap();
    let mut page = Page::open(server.addr, token, &ann, 0).await;
    assert_eq!(page.view["game"], "board");
    assert_eq!(page.view["phase"], "lobby");
    let seats = page.view["seats"].as_array().unwrap().clone();
    assert_eq!(seats.len(), 3, "{seats:?}");
    assert_eq!(seats.iter().filter(|s| s["bot"] == true).count(), 2);

    // The board page, and its content once over HTTP with caching.
    let (status, _, html) = http(server.addr, "GET", &format!("/t/{token}"), None, None).await;
    assert_eq!(status, 200);
    assert!(html.contains("/assets/board/main."), "{html}");
    let (status, headers, content) =
        http(server.addr, "GET", "/games/board/content.json", None, None).await;
    assert_eq!(status, 200);
    assert!(headers.contains("cache-control: public"), "{headers}");
    let content: Value = serde_json::from_str(&content).unwrap();
    assert!(content["adventures"].as_array().unwrap().len() >= 40);
    assert!(content["board"].as_array().unwrap().len() >= 12);

    // Someone else joins by the link, and may not start the game or seat bots.
    let bo = join(server.addr, token, "Bo").await;
    let mut bo_page = Page::open(server.addr, token, &bo, 0).await;
    let answer = bo_page.act(json!({"action": "start"})).await;
    assert_eq!(answer["type"], "refused", "{answer}");
    assert_eq!(answer["code"], "not_creator");
    let answer = bo_page.act(json!({"action": "add_bot"})).await;
    assert_eq!(answer["code"], "not_creator", "{answer}");

    // A fifth seat is the last.
    page.ok(json!({"action": "add_bot"})).await;
    let answer = page.act(json!({"action": "add_bot"})).await;
    assert_eq!(answer["code"], "table_full", "{answer}");
    let bot = page.view["seats"]
        .as_array()
        .unwrap()
        .iter()
        .rfind(|s| s["bot"] == true)
        .unwrap()["player"]
        .clone();
    page.ok(json!({"action": "remove_bot", "player": bot}))
        .await;
    assert_eq!(page.view["seats"].as_array().unwrap().len(), 4);

    // A page may not choose the seed or set the game up itself.
    let answer = page
        .act(json!({"action": "set_up", "seats": [], "seed": 1}))
        .await;
    assert_eq!(answer["type"], "error", "{answer}");

    page.ok(json!({"action": "start"})).await;
    assert_eq!(page.view["phase"], "playing");
    assert_eq!(page.view["adventurers"].as_array().unwrap().len(), 4);
    // Seats are set once the game has begun.
    let (status, _, body) =
        crate::try_join(server.addr, token, &crate::invite_of(token), "Late").await;
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("The game has begun"), "{body}");
    server.stop().await;
}

#[tokio::test]
async fn bad_board_tables_are_refused_with_a_clear_message() {
    let db = fresh_db();
    let server = Server::start(&db).await;
    for (bots, needle) in [
        (json!(5), "0 to 4"),
        (json!("many"), "0 to 4"),
        (json!(-1), "0 to 4"),
    ] {
        let (status, body, _) = create_board(server.addr, "Ann", bots.clone()).await;
        assert_eq!(status, 400, "{bots}: {body}");
        assert!(body["error"].as_str().unwrap().contains(needle), "{body}");
    }
    let (status, _, body) = http(
        server.addr,
        "POST",
        "/tables",
        None,
        Some(json!({"name": "Ann", "game": "chess"})),
    )
    .await;
    assert_eq!(status, 400);
    assert!(body.contains("no game 'chess'"), "{body}");
    server.stop().await;
}

/// The events of a table, read from the store behind the server's back.
async fn stored_events(server: &Server, token: &str) -> Vec<(u64, Event)> {
    use store::Store;
    let table = server.store.table_by_token(token).await.unwrap().unwrap();
    server
        .store
        .events_after(table.id, 0)
        .await
        .unwrap()
        .into_iter()
        .map(|row| (row.seq, BoardGame::decode(&row.body).unwrap()))
        .collect()
}

/// A replay (`path`, as `cookie`), every step of it asked page by page: the first answer with
/// every step, and the views of the steps.
async fn replayed(
    addr: SocketAddr,
    path: &str,
    cookie: Option<&str>,
) -> (Value, Vec<(u64, Value)>) {
    let mut answer: Option<Value> = None;
    let mut views: Vec<(u64, Value)> = Vec::new();
    loop {
        let from = views.last().map_or(0, |(seq, _)| seq + 1);
        let (status, _, body) =
            http(addr, "GET", &format!("{path}?from={from}"), cookie, None).await;
        assert_eq!(status, 200, "{body}");
        let page: Value = serde_json::from_str(&body).unwrap();
        views.extend(crate::replay::views_of(&page["steps"], Value::Null));
        let total = page["total"].as_u64().unwrap();
        match &mut answer {
            None => answer = Some(page),
            Some(first) => {
                let more = page["steps"].as_array().unwrap().clone();
                first["steps"].as_array_mut().unwrap().extend(more);
            }
        }
        if views.last().is_none_or(|(seq, _)| *seq >= total) {
            return (answer.unwrap(), views);
        }
    }
}

/// The same table with every deck's undrawn cards in another order.
fn reshuffled(table: &Table, turn: usize) -> Table {
    fn reorder<T>(cards: &mut [T], turn: usize) {
        let n = cards.len().max(1);
        cards.rotate_left(turn % n);
        cards.reverse();
    }
    let mut other = table.clone();
    let decks = &mut other.game.decks;
    reorder(&mut decks.adventure.draw, turn);
    reorder(&mut decks.chance.draw, turn);
    reorder(&mut decks.common_items.draw, turn);
    reorder(&mut decks.rare_items.draw, turn);
    other
}

#[tokio::test]
async fn a_whole_game_with_bots_reaches_its_end_and_no_page_learns_an_undrawn_card() {
    let db = fresh_db();
    let server = Server::start_with(&db, quick_bots()).await;
    let (status, body, ann) = create_board(server.addr, "Ann", json!(2)).await;
    assert_eq!(status, 200, "{body}");
    let token = body["token"].as_str().unwrap().to_owned();
    let mut page = Page::open(server.addr, &token, &ann, 0).await;
    let me = page.heard[0]["you"].as_u64().unwrap();
    // Someone watches the whole game from the table's watch link.
    let (status, _, body) = http(
        server.addr,
        "POST",
        &format!("/t/{token}/watch"),
        Some(&ann),
        Some(json!({"action": "open"})),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let link: Value = serde_json::from_str(&body).unwrap();
    let code = link["link"].as_str().unwrap().split_once("/w/").unwrap().1;
    let watcher_code = code.to_owned();
    let mut watcher = Page::watch(server.addr, code, 0).await;
    let watching = tokio::spawn(async move {
        while watcher.view["phase"] != "won" && watcher.view["phase"] != "ended" {
            let message = watcher.next_or_end().await.expect("the socket stays open");
            watcher.absorb(&message);
        }
        watcher
    });
    page.ok(json!({"action": "start"})).await;

    // Ann plays her first turns by what her page offers, then lets a bot play for her.
    let mut own_turns = 0;
    while own_turns < 3 && page.view["phase"] == "playing" {
        let options = page.view["options"].clone();
        if options["player"].as_u64() != Some(me) {
            page.next().await;
            continue;
        }
        let action = if options["draw_chance"] == true {
            json!({"action": "draw_chance"})
        } else if let Some(battle) = options["battles"].as_array().and_then(|b| b.first()) {
            // The odds are there before she commits.
            assert!(battle["odds"]["win"].as_str().unwrap().contains('/'));
            json!({"action": "fight", "kind": battle["kind"], "items": battle["items"]})
        } else if options["step"] == "move" {
            // Where a Creature lies, the odds of the best battle there come with the move.
            for m in options["moves"].as_array().unwrap() {
                if !m["creature"].is_null() {
                    assert!(m["battle"]["odds"]["win"].is_string(), "{m}");
                }
            }
            let first = &options["moves"].as_array().unwrap()[0];
            json!({"action": "move", "how": first["how"]})
        } else {
            own_turns += 1;
            json!({"action": "end_turn"})
        };
        page.ok(action).await;
    }
    // A replay of the game while it runs: Ann steps through it from the first event.
    let unfinished = replayed(server.addr, &format!("/t/{token}/replay"), Some(&ann)).await;
    assert_eq!(unfinished.0["over"], false);
    if page.view["phase"] == "playing" {
        page.ok(json!({"action": "hand_to_bot", "player": me}))
            .await;
    }
    let answer = page.act(json!({"action": "end_turn"})).await;
    assert_ne!(answer["type"], "done", "a bot plays her seat now: {answer}");

    // The bots play the game to its end.
    let end = tokio::time::timeout(Duration::from_secs(240), async {
        loop {
            let message = page.next_or_end().await.expect("the socket stays open");
            page.absorb(&message);
            if page.view["phase"] == "won" || page.view["phase"] == "ended" {
                return;
            }
        }
    })
    .await;
    assert!(end.is_ok(), "the game ended within 4 minutes");
    let ranking = page.view["ranking"].as_array().unwrap();
    assert_eq!(ranking.len(), 3);
    if page.view["phase"] == "won" {
        assert_eq!(ranking[0]["player"], page.view["winner"]);
    }

    // Every message the page received, checked against the server's own record: each view
    // and each log line is exactly what the same table with the undrawn cards in other orders
    // would have given, so nothing in them depends on an undrawn card.
    let events = stored_events(&server, &token).await;
    let mut states = vec![Table::default()];
    let mut lines = vec![String::new()];
    for (_, event) in &events {
        let before = states.last().unwrap().clone();
        lines.push(BoardGame::describe(&before, event));
        for turn in 1..=2 {
            assert_eq!(
                BoardGame::describe(&reshuffled(&before, turn), event),
                *lines.last().unwrap(),
                "the log line of {event:?} depends on an undrawn card"
            );
        }
        states.push(BoardGame::evolve(before, event));
    }
    let creator = page.view["creator"].as_u64().unwrap() as u32;
    let (views, moves_onto_creatures) =
        learns_no_undrawn_card(&page.heard, &page.views, &states, &lines, creator);
    assert!(views > 100, "the page saw the game ({views} views)");
    assert!(moves_onto_creatures > 0, "some moves led onto Creatures");
    // The watcher too, who was never sent anything of a player's own.
    let watcher = tokio::time::timeout(Duration::from_secs(30), watching)
        .await
        .expect("the watcher saw the end")
        .unwrap();
    let (views, _) =
        learns_no_undrawn_card(&watcher.heard, &watcher.views, &states, &lines, creator);
    assert!(views > 100, "the watcher saw the game ({views} views)");
    // The replays: Ann's of the unfinished game, the watcher's of the game once over; each step
    // the table's view then, which no undrawn card shaped.
    let (answer, views) = &unfinished;
    let (checked, _) = learns_no_undrawn_card(
        std::slice::from_ref(answer),
        views,
        &states,
        &lines,
        creator,
    );
    assert_eq!(checked as u64, answer["total"].as_u64().unwrap() + 1);
    let code = watcher_code.as_str();
    let (answer, views) = replayed(server.addr, &format!("/w/{code}/replay"), None).await;
    assert_eq!(answer["over"], true);
    assert_eq!(views.len(), states.len(), "every step of the whole game");
    learns_no_undrawn_card(&[answer], &views, &states, &lines, creator);
    assert_eq!(watcher.heard[0]["you"], Value::Null);
    assert!(watcher.heard.iter().all(|m| m["type"] != "own"));
    // What the page heard, for its types (samples.rs).
    crate::samples::write("board", "whole-game-ann", &page);
    crate::samples::write_http("board", server.addr, &token, &ann).await;
    server.stop().await;
}

/// Checks every message `page` received against the server's own record of the game
/// (`states` and log `lines` by seq): each view and each log line is exactly what the same
/// table with the undrawn cards in other orders would have given, so nothing in them depends
/// on an undrawn card. Returns the views checked and the moves onto Creatures among them.
fn learns_no_undrawn_card(
    heard: &[Value],
    held: &[(u64, Value)],
    states: &[Table],
    lines: &[String],
    creator: u32,
) -> (usize, usize) {
    let mut views = 0;
    let mut moves_onto_creatures = 0;
    for message in heard {
        // A page's messages carry log lines; a replay's steps carry one each.
        let steps = message["steps"].as_array().into_iter().flatten();
        let stepped = steps.map(|step| &step["log"]).filter(|l| !l.is_null());
        for line in message["log"]
            .as_array()
            .into_iter()
            .flatten()
            .chain(stepped)
        {
            let seq = line["seq"].as_u64().unwrap() as usize;
            assert_eq!(line["text"], lines[seq]);
        }
        let text = message.to_string();
        assert!(!text.contains("\"draw\":["), "a draw pile was sent: {text}");
        assert!(!text.contains("adventure_deck"), "a deck was sent: {text}");
    }
    // Every view the page held (sent whole, or patched from the one before), against the
    // server's own record: exactly the view of the table at that event, and of the same table
    // with the undrawn cards in other orders.
    for (seq, view) in held {
        {
            let seq = *seq as usize;
            let state = &states[seq];
            assert_eq!(*view, BoardGame::view(state, creator), "the view at {seq}");
            for turn in 1..=3 {
                assert_eq!(
                    *view,
                    BoardGame::view(&reshuffled(state, turn), creator),
                    "the view at event {seq} depends on an undrawn card"
                );
            }
            views += 1;
            // A move onto a Creature comes with the odds of the best battle there.
            for m in view["options"]["moves"].as_array().into_iter().flatten() {
                if !m["creature"].is_null() {
                    assert!(m["battle"]["odds"]["win"].is_string(), "{m}");
                    moves_onto_creatures += 1;
                }
            }
        }
    }
    (views, moves_onto_creatures)
}

#[tokio::test]
async fn the_game_file_keeps_the_decks_order_secret_until_the_game_is_over() {
    let db = fresh_db();
    let server = Server::start(&db).await;
    let (_, body, ann) = create_board(server.addr, "Ann", json!(1)).await;
    let token = body["token"].as_str().unwrap().to_owned();
    let mut page = Page::open(server.addr, &token, &ann, 0).await;
    page.ok(json!({"action": "start"})).await;
    let (status, _, file) = http(
        server.addr,
        "GET",
        &format!("/t/{token}/game.jsonl"),
        Some(&ann),
        None,
    )
    .await;
    assert_eq!(status, 200);
    let set_up: Value = file
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|e| e["type"] == "game" && e["event"]["type"] == "game_set_up")
        .expect("the set-up is in the file");
    assert_eq!(set_up["event"]["adventure_deck"], json!([]));
    assert_eq!(set_up["event"]["chance_deck"], json!([]));
    // The server's own log has them.
    let events = stored_events(&server, &token).await;
    assert!(events.iter().any(|(_, e)| matches!(
        e,
        Event::Game { event: board::Event::GameSetUp(set_up) } if !set_up.adventure_deck.is_empty()
    )));
    server.stop().await;
}

#[tokio::test]
async fn a_seat_is_handed_to_a_bot_and_taken_back() {
    let db = fresh_db();
    let server = Server::start(&db).await;
    let (_, body, ann) = create_board(server.addr, "Ann", json!(0)).await;
    let token = body["token"].as_str().unwrap().to_owned();
    let bo = join(server.addr, &token, "Bo").await;
    let mut ann_page = Page::open(server.addr, &token, &ann, 0).await;
    let mut bo_page = Page::open(server.addr, &token, &bo, 0).await;
    let bo_id = bo_page.heard[0]["you"].clone();
    let answer = bo_page
        .act(json!({"action": "hand_to_bot", "player": bo_id}))
        .await;
    assert_eq!(answer["code"], "not_started", "{answer}");
    ann_page.ok(json!({"action": "start"})).await;
    bo_page
        .ok(json!({"action": "hand_to_bot", "player": bo_id}))
        .await;
    let seat = |view: &Value| {
        view["seats"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["player"] == bo_id)
            .unwrap()["bot"]
            .clone()
    };
    assert_eq!(seat(&bo_page.view), true);
    let answer = bo_page.act(json!({"action": "end_turn"})).await;
    assert_eq!(answer["code"], "bot_plays", "{answer}");
    bo_page.ok(json!({"action": "take_back"})).await;
    assert_eq!(seat(&bo_page.view), false);
    let answer = bo_page.act(json!({"action": "take_back"})).await;
    assert_eq!(answer["code"], "not_bot", "{answer}");
    // Someone else's seat is the creator's to hand over, not another player's.
    let ann_id = ann_page.heard[0]["you"].clone();
    let answer = bo_page
        .act(json!({"action": "hand_to_bot", "player": ann_id}))
        .await;
    assert_eq!(answer["code"], "not_creator", "{answer}");
    server.stop().await;
}

/// The creator's rights stay with the creator's seat while a bot plays it; the next person
/// seated gets none of them.
#[tokio::test]
async fn the_creator_stays_the_creator_while_a_bot_plays_their_seat() {
    let db = fresh_db();
    let server = Server::start(&db).await;
    let (_, body, ann) = create_board(server.addr, "Ann", json!(0)).await;
    let token = body["token"].as_str().unwrap().to_owned();
    let bo = join(server.addr, &token, "Bo").await;
    let cy = join(server.addr, &token, "Cy").await;
    let mut ann_page = Page::open(server.addr, &token, &ann, 0).await;
    let mut bo_page = Page::open(server.addr, &token, &bo, 0).await;
    let cy_page = Page::open(server.addr, &token, &cy, 0).await;
    let ann_id = ann_page.heard[0]["you"].clone();
    let bo_id = bo_page.heard[0]["you"].clone();
    let cy_id = cy_page.heard[0]["you"].clone();
    ann_page.ok(json!({"action": "start"})).await;
    ann_page
        .ok(json!({"action": "hand_to_bot", "player": ann_id}))
        .await;
    assert_eq!(ann_page.view["creator"], ann_id);
    bo_page.catch_up(ann_page.seq).await;
    let answer = bo_page
        .act(json!({"action": "hand_to_bot", "player": cy_id}))
        .await;
    assert_eq!(answer["code"], "not_creator", "{answer}");
    ann_page
        .ok(json!({"action": "hand_to_bot", "player": bo_id}))
        .await;
    ann_page.ok(json!({"action": "take_back"})).await;
    server.stop().await;
}

/// A board game's log as the server stored it before the lobby moved into the rules crate
/// (`tests/data/board-game.jsonl`: every lobby event, with and without bots, and a game's
/// first turns): every line still reads, writes back byte for byte, and replays to the same
/// log lines (`tests/data/board-game.txt`).
#[test]
fn a_stored_board_log_reads_writes_back_and_replays_the_same() {
    let stored = include_str!("../data/board-game.jsonl");
    let mut table = Table::default();
    let mut lines = String::new();
    for line in stored.lines() {
        let event = BoardGame::decode(line).unwrap_or_else(|e| panic!("{line}: {e}"));
        assert_eq!(BoardGame::encode(&event), line);
        lines.push_str(&BoardGame::describe(&table, &event));
        lines.push('\n');
        table = BoardGame::evolve(table, &event);
    }
    assert_eq!(lines, include_str!("../data/board-game.txt"));
}

/// Bots are seated at the level asked (the creation form's list or `bot_level`, the lobby's
/// `add_bot`), the view shows each bot's level, a level the game lacks is refused in words, and
/// a strong bot plays its turns at the table.
#[tokio::test]
async fn bots_sit_at_their_level_and_a_strong_bot_plays() {
    let db = fresh_db();
    let server = Server::start_with(&db, quick_bots()).await;
    let (status, body, ann) = create_board(server.addr, "Ann", json!(["strong", "easy"])).await;
    assert_eq!(status, 200, "{body}");
    let token = body["token"].as_str().unwrap().to_owned();
    let mut page = Page::open(server.addr, &token, &ann, 0).await;
    let levels = |view: &Value| -> Vec<Value> {
        (view["seats"].as_array().unwrap().iter())
            .map(|s| s["level"].clone())
            .collect()
    };
    assert_eq!(
        levels(&page.view),
        [json!("strong"), json!("easy"), Value::Null]
    );
    page.ok(json!({"action": "add_bot", "level": "strong"}))
        .await;
    assert_eq!(levels(&page.view)[3], "strong");
    let answer = page
        .act(json!({"action": "add_bot", "level": "genius"}))
        .await;
    assert_eq!(answer["type"], "error", "{answer}");
    for (bots, level) in [
        (json!(1), json!("genius")),
        (json!(["easy", "clever"]), Value::Null),
    ] {
        let (status, _, body) = http(
            server.addr,
            "POST",
            "/tables",
            None,
            Some(json!({"name": "Ann", "game": "board", "bots": bots, "bot_level": level})),
        )
        .await;
        assert_eq!(status, 400, "{body}");
        assert!(body.contains("easy, standard or strong"), "{body}");
    }
    let (status, body, _) = http(
        server.addr,
        "POST",
        "/tables",
        None,
        Some(json!({"name": "Cy", "game": "board", "bots": "2", "bot_level": "easy"})),
    )
    .await;
    assert_eq!(status, 200, "{body}");

    // In the game: Ann hands her seat over, and the bots play on, the strong ones too.
    page.ok(json!({"action": "start"})).await;
    let adventurers = page.view["adventurers"].as_array().unwrap().clone();
    assert!(
        adventurers.iter().any(|a| a["level"] == "strong"),
        "{adventurers:?}"
    );
    let me = page.heard[0]["you"].as_u64().unwrap();
    page.ok(json!({"action": "hand_to_bot", "player": me}))
        .await;
    let played = tokio::time::timeout(Duration::from_secs(120), async {
        loop {
            let message = page.next_or_end().await.expect("the socket stays open");
            page.absorb(&message);
            let turn = page.view["turn"]["number"].as_u64().unwrap_or(0);
            if turn > 8 || page.view["phase"] != "playing" {
                return;
            }
        }
    })
    .await;
    assert!(played.is_ok(), "every seat played twice within two minutes");
    server.stop().await;
}
