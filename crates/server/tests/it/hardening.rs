//! What an attacker tried (issue 29): a removed player's slow socket, a `hello` at a huge
//! table, actions before `hello`, forged `Host` headers, guessed codes.

use crate::{Page, Server, create_table, fresh_db, join};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::time::Duration;
use tokio_tungstenite::tungstenite::{Message, client::IntoClientRequest};

type RawWs = tokio_tungstenite::WebSocketStream<tokio::net::TcpStream>;

/// A page's socket, not greeted yet, from `local` (any address of 127.0.0.0/8), with a small
/// receive buffer when `small` (the server's writes to it then stall as soon as it stops
/// reading).
async fn raw_page(
    addr: std::net::SocketAddr,
    token: &str,
    cookie: &str,
    local: &str,
    small: bool,
) -> RawWs {
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.bind(format!("{local}:0").parse().unwrap()).unwrap();
    if small {
        socket.set_recv_buffer_size(4096).unwrap();
    }
    let tcp = socket.connect(addr).await.unwrap();
    let mut request = format!("ws://{addr}/t/{token}/ws")
        .into_client_request()
        .unwrap();
    let headers = request.headers_mut();
    headers.insert("Cookie", cookie.parse().unwrap());
    headers.insert("Origin", format!("http://{addr}").parse().unwrap());
    let (ws, _) = tokio_tungstenite::client_async(request, tcp).await.unwrap();
    ws
}

/// The scripted tests' options with one limit changed.
fn limited(change: impl FnOnce(&mut server::Limits)) -> server::Options {
    let mut options = crate::scripted();
    change(&mut options.limits);
    options
}

/// Removed players whose sockets read nothing while the table went on hear of their removal
/// and of nothing written after it, however much was queued for them before. (Six players:
/// a server that checks the removed set only when a socket is free to hear it lets most of
/// them through; one that drops a connection with the page's messages unread resets it, and
/// the page loses the notice.)
#[tokio::test]
async fn removed_players_with_stalled_sockets_receive_nothing_after_their_removal() {
    let db = fresh_db();
    let server = Server::start(&db).await;
    let addr = server.addr;
    let (token, ada) = create_table(addr, "1.0", "Ada").await;
    let mut a = Page::open(addr, &token, &ada, 0).await;
    for i in 0..150 {
        let text = format!("Prophecy {i}: {}", "the moon falls ".repeat(12));
        a.ok(json!({"action": "write_prophecy", "text": text}))
            .await;
    }
    let mut slow = Vec::new();
    for n in 0..6 {
        let cookie = join(addr, &token, &format!("Bo {n}")).await;
        let mut socket = raw_page(addr, &token, &cookie, "127.0.0.1", true).await;
        // It asks for the whole table again and again (megabytes: more than the sockets'
        // buffers hold, so the server's writes to it stall), then pings: it still has
        // messages waiting to be read when the removal comes.
        let hello = json!({"type": "hello", "since": 0}).to_string();
        let ping = json!({"type": "ping"}).to_string();
        for n in 0..900 {
            let message = if n < 400 { &hello } else { &ping };
            socket.feed(Message::text(message.clone())).await.unwrap();
        }
        socket.flush().await.unwrap();
        slow.push(socket);
    }
    let mut removals = Vec::new();
    for player in 2..8 {
        a.ok(json!({"action": "remove_player", "player": player}))
            .await;
        removals.push(a.seq);
    }
    for i in 0..20 {
        let text = format!("After the removals {i}");
        a.ok(json!({"action": "write_prophecy", "text": text}))
            .await;
    }
    // Now each stalled page reads everything until the server closes it.
    for (socket, removal) in slow.iter_mut().zip(removals) {
        let heard = read_to_the_end(socket).await;
        let after: Vec<&Value> = heard
            .iter()
            .filter(|m| m["seq"].as_u64().is_some_and(|seq| seq > removal))
            .collect();
        assert!(
            after.is_empty(),
            "sent after the removal at {removal}: {after:?}"
        );
        assert_eq!(heard.first().unwrap()["type"], "sync");
        assert_eq!(heard.last().unwrap()["type"], "removed");
    }
    server.stop().await;
}

/// Every message until the server ends the socket (within 20 s).
async fn read_to_the_end(socket: &mut RawWs) -> Vec<Value> {
    let mut heard = Vec::new();
    loop {
        let next = tokio::time::timeout(Duration::from_secs(20), socket.next())
            .await
            .expect("the server ends the socket within 20 s");
        match next {
            Some(Ok(Message::Text(text))) => heard.push(serde_json::from_str(&text).unwrap()),
            Some(Ok(Message::Close(_))) | None => return heard,
            Some(Err(e)) => panic!("the socket failed ({e}) after {} messages", heard.len()),
            Some(Ok(_)) => {}
        }
    }
}

/// A page's socket from `local` (any address of 127.0.0.0/8), greeted: its `sync`, or the
/// first message it got instead.
async fn greeted_from(
    local: &str,
    addr: std::net::SocketAddr,
    token: &str,
    cookie: &str,
) -> (RawWs, Value) {
    let mut ws = raw_page(addr, token, cookie, local, false).await;
    let hello = json!({"type": "hello", "since": 0}).to_string();
    ws.send(Message::text(hello)).await.unwrap();
    let first = next_text(&mut ws).await.expect("an answer to hello");
    (ws, first)
}

/// The next text message, or `None` once the socket ends (within 5 s).
async fn next_text(ws: &mut RawWs) -> Option<Value> {
    loop {
        let next = tokio::time::timeout(Duration::from_secs(5), ws.next())
            .await
            .expect("a message or the end within 5 s");
        match next {
            Some(Ok(Message::Text(text))) => return Some(serde_json::from_str(&text).unwrap()),
            Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return None,
            Some(Ok(_)) => {}
        }
    }
}

fn seqs(log: &Value) -> Vec<u64> {
    log.as_array()
        .unwrap()
        .iter()
        .map(|e| e["seq"].as_u64().unwrap())
        .collect()
}

/// A `hello` is answered with the view and the newest 200 lines of the log, however long the
/// log; older lines come 200 at a time when the page asks, until there are none.
#[tokio::test]
async fn a_sync_carries_the_end_of_the_log_and_older_lines_come_on_request() {
    let db = fresh_db();
    let server = Server::start(&db).await;
    let addr = server.addr;
    let (token, ada) = create_table(addr, "1.0", "Ada").await;
    let mut a = Page::open(addr, &token, &ada, 0).await;
    let mut sizes = Vec::new();
    for round in 0..2 {
        for i in 0..300 {
            let text = format!("Prophecy {round}-{i}");
            a.ok(json!({"action": "write_prophecy", "text": text}))
                .await;
        }
        let mut page = Page::open(addr, &token, &ada, 0).await;
        let sync = page.heard.last().unwrap().clone();
        assert_eq!(sync["type"], "sync");
        let last = sync["seq"].as_u64().unwrap();
        assert_eq!(
            seqs(&sync["log"]),
            ((last - 199)..=last).collect::<Vec<_>>()
        );
        assert_eq!(sync["older"], true);
        sizes.push(sync.to_string().len());
        if round == 1 {
            // Older lines, a page at a time, then none are left.
            let mut before = last - 199;
            let mut all = seqs(&sync["log"]);
            loop {
                page.send(json!({"type": "log", "req": 7, "before": before}))
                    .await;
                let answer = page.until(|m| m["req"] == 7).await;
                assert_eq!(answer["type"], "log", "{answer}");
                let lines = seqs(&answer["log"]);
                assert!(lines.len() <= 200 && lines.last() == Some(&(before - 1)));
                before = lines[0];
                all.splice(0..0, lines);
                if answer["older"] == false {
                    break;
                }
            }
            assert_eq!(all, (1..=last).collect::<Vec<_>>());
        }
    }
    // Twice the log, the same cost: the view and 200 lines.
    assert!(sizes[1] < sizes[0] + 1024, "{sizes:?}");
    // A page that has most of the log gets only what it misses.
    let mut page = Page::open(addr, &token, &ada, a.seq - 5).await;
    let sync = page.heard.last().unwrap().clone();
    assert_eq!(seqs(&sync["log"]).len(), 5);
    assert_eq!(sync["older"], false);
    page.send(json!({"type": "ping"})).await;
    page.until(|m| m["type"] == "pong").await;
    server.stop().await;
}

/// What an address's pages ask for whole (syncs, older lines) is counted: past its budget a
/// `hello` is refused and the socket closed, while another address is served.
#[tokio::test]
async fn whole_tables_sent_to_one_address_are_budgeted() {
    let db = fresh_db();
    let server = Server::start_with(&db, limited(|l| l.sync_kib_per_minute = 64)).await;
    let addr = server.addr;
    let (token, ada) = create_table(addr, "1.0", "Ada").await;
    let mut a = Page::open(addr, &token, &ada, 0).await;
    for i in 0..40 {
        let text = format!("Prophecy {i}: {}", "the moon falls ".repeat(20));
        a.ok(json!({"action": "write_prophecy", "text": text}))
            .await;
    }
    let mut refused = None;
    for _ in 0..100 {
        let (mut ws, first) = greeted_from("127.0.0.2", addr, &token, &ada).await;
        if first["type"] == "error" {
            assert!(
                next_text(&mut ws).await.is_none(),
                "closed after the refusal"
            );
            refused = Some(first);
            break;
        }
        assert_eq!(first["type"], "sync");
    }
    let refused = refused.expect("refused within 100 syncs");
    let message = refused["message"].as_str().unwrap();
    assert!(
        message.starts_with("Too many whole tables sent to your address: at most 64 KiB a minute. The page tries again in "),
        "{message}"
    );
    let (_, other) = greeted_from("127.0.0.3", addr, &token, &ada).await;
    assert_eq!(other["type"], "sync", "another address is served");
    server.stop().await;
}

/// An action or a request for older lines before `hello` is refused and changes nothing.
#[tokio::test]
async fn actions_before_hello_are_refused() {
    let db = fresh_db();
    let server = Server::start(&db).await;
    let addr = server.addr;
    let (token, ada) = create_table(addr, "1.0", "Ada").await;
    let mut ws = raw_page(addr, &token, &ada, "127.0.0.1", false).await;
    let act =
        json!({"type": "act", "req": 1, "action": {"action": "write_prophecy", "text": "Early"}});
    ws.send(Message::text(act.to_string())).await.unwrap();
    let answer = next_text(&mut ws).await.unwrap();
    assert_eq!(answer["type"], "error");
    assert_eq!(answer["req"], 1);
    assert_eq!(
        answer["message"],
        "Say hello first: the table is sent before anything else."
    );
    let log = json!({"type": "log", "req": 2, "before": 5});
    ws.send(Message::text(log.to_string())).await.unwrap();
    assert_eq!(next_text(&mut ws).await.unwrap()["req"], 2);
    let page = Page::open(addr, &token, &ada, 0).await;
    assert!(page.view["prophecy"].is_null(), "{}", page.view["prophecy"]);
    server.stop().await;
}

/// Sends an action on a raw page socket: the answer to it (done, refused or error).
async fn act_on(ws: &mut RawWs, req: u64, action: Value) -> Value {
    let act = json!({"type": "act", "req": req, "action": action});
    ws.send(Message::text(act.to_string())).await.unwrap();
    loop {
        let message = next_text(ws).await.expect("an answer");
        if message["req"] == req {
            return message;
        }
    }
}

/// The events one address writes are budgeted across its tables and seats; past the budget
/// an action is refused with when to try again, and other addresses write on.
#[tokio::test]
async fn what_one_address_writes_a_minute_is_bounded_across_tables() {
    let db = fresh_db();
    let server = Server::start_with(&db, limited(|l| l.written_kib_per_minute = 16)).await;
    let addr = server.addr;
    let (first, ada) = create_table(addr, "1.0", "Ada").await;
    let (second, bea) = create_table(addr, "1.0", "Bea").await;
    let (mut a, _) = greeted_from("127.0.0.2", addr, &first, &ada).await;
    let (mut b, _) = greeted_from("127.0.0.2", addr, &second, &bea).await;
    let text = "the moon falls ".repeat(100);
    let mut written = 0;
    let refused = loop {
        let ws = if written % 2 == 0 { &mut a } else { &mut b };
        let answer = act_on(
            ws,
            written,
            json!({"action": "write_prophecy", "text": text}),
        )
        .await;
        if answer["type"] != "done" {
            break answer;
        }
        written += 1;
        assert!(written < 40, "never refused");
    };
    // About 16 KiB of 1.5 KiB prophecies, on the two tables together.
    assert!((8..=12).contains(&written), "{written} written");
    assert_eq!(refused["type"], "refused", "{refused}");
    assert_eq!(refused["code"], "too_much_written");
    let message = refused["message"].as_str().unwrap();
    assert!(
        message.starts_with(
            "Too much written from your address: at most 16 KiB a minute, across its tables. Try again in "
        ),
        "{message}"
    );
    let (mut other, _) = greeted_from("127.0.0.3", addr, &second, &bea).await;
    let answer = act_on(
        &mut other,
        1,
        json!({"action": "write_prophecy", "text": text}),
    )
    .await;
    assert_eq!(
        answer["type"], "done",
        "another address writes on: {answer}"
    );
    server.stop().await;
}

/// A raw request with this `Host` header: (status, body).
async fn with_host(addr: std::net::SocketAddr, path: &str, host: &str) -> (u16, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let request = format!(
        "GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\nAccept: application/json\r\n\r\n"
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = Vec::new();
    stream.read_to_end(&mut response).await.unwrap();
    let response = String::from_utf8_lossy(&response).into_owned();
    let (head, body) = response.split_once("\r\n\r\n").unwrap();
    (
        head.split(' ').nth(1).unwrap().parse().unwrap(),
        body.to_owned(),
    )
}

/// A page of another site whose name was pointed at this server (DNS rebinding) is refused:
/// without `--url` only IP addresses and `localhost` are served, with it only its host.
#[tokio::test]
async fn requests_for_another_host_name_are_refused() {
    let db = fresh_db();
    let server = Server::start(&db).await;
    let addr = server.addr;
    let port = addr.port();
    for host in [
        format!("127.0.0.1:{port}"),
        format!("LocalHost:{port}"),
        "[::1]".to_owned(),
    ] {
        assert_eq!(with_host(addr, "/", &host).await.0, 200, "{host}");
    }
    for host in [
        format!("evil.example:{port}"),
        "127.0.0.1.evil.example".to_owned(),
    ] {
        let (status, body) = with_host(addr, "/", &host).await;
        assert_eq!(status, 421, "{host}");
        assert!(
            body.contains("This server answers at its IP address or at localhost"),
            "{body}"
        );
    }
    // Probes answer whatever the host.
    assert_eq!(with_host(addr, "/healthz", "evil.example").await.0, 200);
    server.stop().await;

    let mut options = crate::scripted();
    options.public_url = Some("https://play.example.org/".to_owned());
    let server = Server::start_with(&db, options).await;
    let addr = server.addr;
    for host in ["play.example.org", "PLAY.example.org:443"] {
        assert_eq!(with_host(addr, "/", host).await.0, 200, "{host}");
    }
    for host in [
        addr.to_string(),
        "play.example.org:8080".to_owned(),
        "localhost".to_owned(),
    ] {
        let (status, body) = with_host(addr, "/", &host).await;
        assert_eq!(status, 421, "{host}");
        assert!(
            body.contains("This server answers at https://play.example.org/ only."),
            "{body}"
        );
    }
    server.stop().await;
}

/// Wrong links are guesses, limited per address like joins but in a budget of their own: a
/// guesser at the same address uses up nobody's joins.
#[tokio::test]
async fn wrong_links_are_limited_and_use_up_no_joins() {
    let db = fresh_db();
    let server = Server::start_with(&db, limited(|l| l.joins_per_minute = 3)).await;
    let addr = server.addr;
    let (token, _) = create_table(addr, "1.0", "Ada").await;
    let wrong = "0123456789abcdef0123456789abcdef";
    let mut statuses = Vec::new();
    for n in 0..5 {
        statuses.push(
            crate::try_join(addr, &token, wrong, &format!("Guess {n}"))
                .await
                .0,
        );
    }
    assert_eq!(statuses, [403, 403, 403, 429, 429]);
    let (status, _, body) = crate::try_join(addr, &token, wrong, "Guess").await;
    assert_eq!(status, 429);
    assert!(
        body.contains("Too many links that lead nowhere from your address: at most 3 a minute."),
        "{body}"
    );
    // The right link still seats three people from this address.
    for name in ["Bo", "Cy", "Di"] {
        join(addr, &token, name).await;
    }
    let (status, _, body) = crate::try_join(addr, &token, &crate::invite_of(&token), "Ed").await;
    assert_eq!(status, 429, "{body}");
    assert!(
        body.contains("Too many seats taken from your address"),
        "{body}"
    );
    // Codes tried through the join page's look-up, and published stories, count too.
    let db = fresh_db();
    let server2 = Server::start_with(&db, limited(|l| l.joins_per_minute = 3)).await;
    let addr = server2.addr;
    let (token, _) = create_table(addr, "1.0", "Ada").await;
    let mut statuses = Vec::new();
    for _ in 0..4 {
        let path = format!("/t/{token}/me?join={wrong}");
        statuses.push(crate::http(addr, "GET", &path, None, None).await.0);
    }
    assert_eq!(statuses, [200, 200, 200, 429]);
    let (status, _, _) = crate::http(addr, "GET", &format!("/s/{wrong}"), None, None).await;
    assert_eq!(status, 429, "the same budget of guesses");
    server2.stop().await;
    server.stop().await;
}

/// A table whose log cannot be read is counted in `/metrics`; `/healthz` still says whether
/// the database answers.
#[tokio::test]
async fn unreadable_tables_are_counted_in_the_metrics() {
    use store::Store;
    let db = fresh_db();
    let server = Server::start(&db).await;
    let (token, ada) = create_table(server.addr, "1.0", "Ada").await;
    server.stop().await;
    {
        let store = store::SqliteStore::open(&db).await.unwrap();
        let table = store.table_by_token(&token).await.unwrap().unwrap();
        let seq = store.events_after(table.id, 0).await.unwrap().len() as u64;
        let event = store::NewEvent {
            at: 0,
            player: Some(1),
            body: "not an event".to_owned(),
        };
        let append = store::Append {
            events: vec![event],
            ..Default::default()
        };
        store.append(table.id, seq, append).await.unwrap();
        store.close().await;
    }
    let server = Server::start(&db).await;
    let addr = server.addr;
    let path = format!("/t/{token}/export.md");
    let (status, _, _) = crate::http(addr, "GET", &path, Some(&ada), None).await;
    assert_eq!(status, 500);
    let (_, _, metrics) = crate::http(addr, "GET", "/metrics", None, None).await;
    assert!(
        metrics.contains("prophecy_tables_unreadable_total 1"),
        "{metrics}"
    );
    assert_eq!(
        crate::http(addr, "GET", "/healthz", None, None).await.0,
        200
    );
    server.stop().await;
}
