//! Every limit on what a stranger can spend, and its answer (issue 11): addresses, seats,
//! connections, timeouts, messages in flight, tables that grow, rooms left idle.

use crate::*;
use futures_util::StreamExt;
use serde_json::{Value, json};
use std::time::Duration;
use store::Store;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::{Message, client::IntoClientRequest};

fn with_limits(change: impl FnOnce(&mut server::Limits)) -> server::Options {
    let mut options = server::Options::default();
    change(&mut options.limits);
    options
}

/// Creates a table as `name`, with extra request headers: (status, headers, body).
async fn create_from(addr: std::net::SocketAddr, name: &str, extra: &str) -> (u16, String, String) {
    let body = json!({"name": name, "ruleset": "1.0"}).to_string();
    let request = format!(
        "POST /tables HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nAccept: application/json\r\nContent-Type: application/json\r\nContent-Length: {}\r\n{extra}\r\n{body}",
        body.len()
    );
    raw_exchange(addr, &request).await
}

async fn raw_exchange(addr: std::net::SocketAddr, request: &str) -> (u16, String, String) {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = Vec::new();
    stream.read_to_end(&mut response).await.unwrap();
    let response = String::from_utf8_lossy(&response).into_owned();
    let (head, body) = response.split_once("\r\n\r\n").unwrap();
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    (status, head.to_ascii_lowercase(), body.to_owned())
}

#[tokio::test]
async fn one_address_creates_a_few_tables_a_minute_then_hears_when_to_try_again() {
    let db = fresh_db();
    let server = Server::start_with(&db, with_limits(|l| l.tables_per_minute = 3)).await;
    for i in 0..3 {
        let (status, _, body) = create_from(server.addr, &format!("Ada {i}"), "").await;
        assert_eq!(status, 200, "{body}");
    }
    // Writing another address in the header changes nothing without --trust-proxy.
    let (status, headers, body) =
        create_from(server.addr, "Ada", "X-Forwarded-For: 9.9.9.9\r\n").await;
    assert_eq!(status, 429, "{body}");
    let message: Value = serde_json::from_str(&body).unwrap();
    let message = message["error"].as_str().unwrap();
    assert!(
        message.starts_with(
            "Too many new tables from your address: at most 3 a minute. Try again in "
        ),
        "{message}"
    );
    let retry: u64 = headers
        .lines()
        .find_map(|l| l.strip_prefix("retry-after: "))
        .expect("a Retry-After header")
        .trim()
        .parse()
        .unwrap();
    assert!((1..=20).contains(&retry), "{retry}");
    server.stop().await;
}

#[tokio::test]
async fn behind_a_trusted_proxy_each_forwarded_address_has_its_own_budget() {
    let db = fresh_db();
    let mut options = with_limits(|l| l.tables_per_minute = 1);
    options.trust_proxy = true;
    let server = Server::start_with(&db, options).await;
    let first = create_from(server.addr, "Ada", "X-Forwarded-For: 203.0.113.1\r\n").await;
    assert_eq!(first.0, 200, "{}", first.2);
    let again = create_from(server.addr, "Ada", "X-Forwarded-For: 203.0.113.1\r\n").await;
    assert_eq!(again.0, 429, "{}", again.2);
    // What the client wrote first does not count; the proxy's last entry does.
    let spoofed = create_from(
        server.addr,
        "Ada",
        "X-Forwarded-For: 198.51.100.7, 203.0.113.1\r\n",
    )
    .await;
    assert_eq!(spoofed.0, 429, "{}", spoofed.2);
    let other = create_from(server.addr, "Bo", "X-Forwarded-For: 203.0.113.2\r\n").await;
    assert_eq!(other.0, 200, "{}", other.2);
    server.stop().await;
}

#[tokio::test]
async fn one_address_takes_a_few_seats_a_minute() {
    let db = fresh_db();
    let server = Server::start_with(&db, with_limits(|l| l.joins_per_minute = 2)).await;
    let (token, _) = create_table(server.addr, "1.0", "Ada").await;
    join(server.addr, &token, "Bo").await;
    join(server.addr, &token, "Cy").await;
    let (status, _, body) = try_join(server.addr, &token, &invite_of(&token), "Di").await;
    assert_eq!(status, 429, "{body}");
    assert!(
        body.contains("Too many seats taken from your address"),
        "{body}"
    );
    server.stop().await;
}

/// A socket of this seat, upgraded but silent.
async fn silent_socket(
    addr: std::net::SocketAddr,
    token: &str,
    cookie: &str,
) -> Result<tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>, u16> {
    let mut request = format!("ws://{addr}/t/{token}/ws")
        .into_client_request()
        .unwrap();
    request
        .headers_mut()
        .insert("Cookie", cookie.parse().unwrap());
    request
        .headers_mut()
        .insert("Origin", format!("http://{addr}").parse().unwrap());
    match tokio_tungstenite::connect_async(request).await {
        Ok((ws, _)) => Ok(ws),
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
            Err(response.status().as_u16())
        }
        Err(e) => panic!("{e}"),
    }
}

#[tokio::test]
async fn a_seat_holds_a_few_sockets_and_gets_its_place_back_when_one_closes() {
    let db = fresh_db();
    let server = Server::start_with(&db, with_limits(|l| l.sockets_per_seat = 2)).await;
    let (token, ada) = create_table(server.addr, "1.0", "Ada").await;
    let bo = join(server.addr, &token, "Bo").await;
    let first = Page::open(server.addr, &token, &ada, 0).await;
    let _second = Page::open(server.addr, &token, &ada, 0).await;
    assert_eq!(
        silent_socket(server.addr, &token, &ada).await.err(),
        Some(429)
    );
    // Another seat is not affected.
    let _bo = Page::open(server.addr, &token, &bo, 0).await;
    drop(first);
    let mut reopened = None;
    for _ in 0..50 {
        if let Ok(ws) = silent_socket(server.addr, &token, &ada).await {
            reopened = Some(ws);
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(reopened.is_some(), "the closed socket's place comes back");
    server.stop().await;
}

#[tokio::test]
async fn a_seats_sockets_share_one_budget_for_every_message() {
    let db = fresh_db();
    let server = Server::start_with(
        &db,
        with_limits(|l| {
            l.seat_messages_per_second = 1;
            l.seat_message_burst = 12;
        }),
    )
    .await;
    let (token, ada) = create_table(server.addr, "1.0", "Ada").await;
    // Two hellos cost 8 of the 12.
    let mut a = Page::open(server.addr, &token, &ada, 0).await;
    let mut b = Page::open(server.addr, &token, &ada, 0).await;
    for _ in 0..10 {
        a.send(json!({"type": "ping"})).await;
        b.send(json!({"type": "ping"})).await;
    }
    let mut pongs = 0;
    let mut too_fast = 0;
    for page in [&mut a, &mut b] {
        for _ in 0..10 {
            let m = page.next().await;
            match m["type"].as_str() {
                Some("pong") => pongs += 1,
                Some("error") => {
                    let message = m["message"].as_str().unwrap();
                    assert!(
                        message.starts_with("Too fast: your seat may send 1 message a second."),
                        "{message}"
                    );
                    too_fast += 1;
                }
                other => panic!("unexpected {other:?}"),
            }
        }
    }
    // 4 left of the burst, plus what a slow machine refilled meanwhile.
    assert!(
        (4..12).contains(&pongs),
        "{pongs} pongs, {too_fast} too fast"
    );
    assert_eq!(pongs + too_fast, 20);
    server.stop().await;
}

#[tokio::test]
async fn a_socket_that_never_says_hello_is_closed() {
    let db = fresh_db();
    let server = Server::start_with(
        &db,
        with_limits(|l| l.hello_timeout = Duration::from_millis(300)),
    )
    .await;
    let (token, ada) = create_table(server.addr, "1.0", "Ada").await;
    let mut silent = silent_socket(server.addr, &token, &ada).await.unwrap();
    let mut greeted = Page::open(server.addr, &token, &ada, 0).await;
    let closed = tokio::time::timeout(Duration::from_secs(5), async {
        loop {
            match silent.next().await {
                Some(Ok(Message::Close(frame))) => return frame.map(|f| u16::from(f.code)),
                None | Some(Err(_)) => return None,
                Some(Ok(_)) => continue,
            }
        }
    })
    .await
    .expect("closed within 5 s");
    assert_eq!(closed, Some(1008));
    tokio::time::sleep(Duration::from_millis(400)).await;
    greeted.send(json!({"type": "ping"})).await;
    assert_eq!(greeted.until(|m| m["type"] == "pong").await["type"], "pong");
    server.stop().await;
}

/// Whether the server closes this connection within `within` (reads until EOF).
async fn closed_within(stream: &mut TcpStream, within: Duration) -> bool {
    let mut buffer = [0u8; 4096];
    tokio::time::timeout(within, async {
        loop {
            match stream.read(&mut buffer).await {
                Ok(0) | Err(_) => return,
                Ok(_) => continue,
            }
        }
    })
    .await
    .is_ok()
}

#[tokio::test]
async fn slow_headers_and_idle_keep_alive_connections_are_closed() {
    let db = fresh_db();
    let server = Server::start_with(
        &db,
        with_limits(|l| l.http_idle = Duration::from_millis(400)),
    )
    .await;
    // Headers one line at a time, too slowly.
    let mut slow = TcpStream::connect(server.addr).await.unwrap();
    slow.write_all(b"GET / HTTP/1.1\r\n").await.unwrap();
    tokio::time::sleep(Duration::from_millis(200)).await;
    let _ = slow.write_all(b"Host: x\r\n").await;
    assert!(closed_within(&mut slow, Duration::from_secs(5)).await);
    // Silent from the start.
    let mut silent = TcpStream::connect(server.addr).await.unwrap();
    assert!(closed_within(&mut silent, Duration::from_secs(5)).await);
    // A keep-alive connection is served, then closed once idle.
    let mut kept = TcpStream::connect(server.addr).await.unwrap();
    kept.write_all(format!("GET /healthz HTTP/1.1\r\nHost: {}\r\n\r\n", server.addr).as_bytes())
        .await
        .unwrap();
    let mut buffer = [0u8; 1024];
    let n = kept.read(&mut buffer).await.unwrap();
    assert!(String::from_utf8_lossy(&buffer[..n]).starts_with("HTTP/1.1 200"));
    assert!(closed_within(&mut kept, Duration::from_secs(5)).await);
    server.stop().await;
}

#[tokio::test]
async fn past_the_connection_cap_newcomers_hear_the_server_is_full() {
    let db = fresh_db();
    let server = Server::start_with(&db, with_limits(|l| l.max_connections = 3)).await;
    let mut held = Vec::new();
    for _ in 0..3 {
        let mut stream = TcpStream::connect(server.addr).await.unwrap();
        // Served (so surely counted) and kept alive.
        stream
            .write_all(format!("GET /healthz HTTP/1.1\r\nHost: {}\r\n\r\n", server.addr).as_bytes())
            .await
            .unwrap();
        let mut buffer = [0u8; 1024];
        let n = stream.read(&mut buffer).await.unwrap();
        assert!(String::from_utf8_lossy(&buffer[..n]).starts_with("HTTP/1.1 200"));
        held.push(stream);
    }
    let (status, _, body) = http(server.addr, "GET", "/healthz", None, None).await;
    assert_eq!(status, 503);
    assert_eq!(
        body,
        "The server is full right now. Try again in a little while.\n"
    );
    held.pop();
    let mut answered = 0;
    for _ in 0..50 {
        let (status, _, _) = http(server.addr, "GET", "/healthz", None, None).await;
        if status == 200 {
            answered = status;
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(answered, 200, "a place freed is given to the next");
    server.stop().await;
}

#[tokio::test]
async fn a_message_past_the_hard_cap_closes_only_its_socket() {
    let db = fresh_db();
    let server = Server::start(&db).await;
    let (token, ada) = create_table(server.addr, "1.0", "Ada").await;
    let mut huge = Page::open(server.addr, &token, &ada, 0).await;
    let mut other = Page::open(server.addr, &token, &ada, 0).await;
    huge.send_raw(format!(
        "{{\"type\":\"ping\",\"pad\":\"{}\"}}",
        "x".repeat(server::limits::HARD_MESSAGE_BYTES)
    ))
    .await;
    assert!(huge.closed().await);
    other.send(json!({"type": "ping"})).await;
    assert_eq!(other.until(|m| m["type"] == "pong").await["type"], "pong");
    server.stop().await;
}

#[tokio::test]
async fn a_full_table_refuses_more_and_changes_nothing() {
    let db = fresh_db();
    let server = Server::start_with(&db, with_limits(|l| l.table_events = 12)).await;
    let (token, ada) = create_table(server.addr, "1.0", "Ada").await;
    let mut page = Page::open(server.addr, &token, &ada, 0).await;
    let mut refused = None;
    for i in 0..20 {
        let answer = page
            .act(json!({"action": "add_line", "text": format!("line {i}")}))
            .await;
        if answer["type"] == "refused" {
            refused = Some(answer);
            break;
        }
        page.catch_up(answer["seq"].as_u64().unwrap()).await;
    }
    let refused = refused.expect("the table fills up");
    assert_eq!(refused["code"], "table_full");
    assert!(
        refused["message"]
            .as_str()
            .unwrap()
            .starts_with("This table is full: it holds at most 12 events"),
        "{refused}"
    );
    assert_eq!(page.seq, 12);
    let events = server
        .store
        .events_after(store::TableId(1), 0)
        .await
        .unwrap();
    assert_eq!(events.len(), 12);
    server.stop().await;
}

#[tokio::test]
async fn a_table_past_its_bytes_is_full_too() {
    let db = fresh_db();
    let server = Server::start_with(&db, with_limits(|l| l.table_bytes = 8 * 1024)).await;
    let (token, ada) = create_table(server.addr, "1.0", "Ada").await;
    let mut page = Page::open(server.addr, &token, &ada, 0).await;
    let mut refused = None;
    for i in 0..20 {
        let text = format!("{i} {}", "the moon falls ".repeat(60));
        let answer = page
            .act(json!({"action": "write_prophecy", "text": text}))
            .await;
        if answer["type"] == "refused" {
            refused = Some(answer);
            break;
        }
        page.catch_up(answer["seq"].as_u64().unwrap()).await;
    }
    let refused = refused.expect("the table fills up");
    assert_eq!(refused["code"], "table_full");
    assert_eq!(
        refused["message"],
        "This table is full: it holds at most 50000 events and 8 KiB. Export the story, and start a new table to go on."
    );
    let stored: usize = server
        .store
        .events_after(store::TableId(1), 0)
        .await
        .unwrap()
        .iter()
        .map(|e| e.body.len())
        .sum();
    assert!(stored <= 8 * 1024, "{stored} bytes stored");
    assert!(
        stored > 6 * 1024,
        "the table was filled before it refused: {stored}"
    );
    // The story can still be exported.
    let (status, _, _) = http(
        server.addr,
        "GET",
        &format!("/t/{token}/export.md"),
        Some(&ada),
        None,
    )
    .await;
    assert_eq!(status, 200);
    server.stop().await;
}

/// The server's `/metrics`, as text.
async fn metrics(addr: std::net::SocketAddr) -> String {
    let (status, headers, body) = http(addr, "GET", "/metrics", None, None).await;
    assert_eq!(status, 200, "{body}");
    assert!(headers.contains("content-type: application/openmetrics-text"));
    body
}

/// A figure from `/metrics` (the first line naming it without labels, or with these).
fn figure(text: &str, name: &str) -> f64 {
    text.lines()
        .find(|line| {
            line.starts_with(&format!("{name} ")) || line.starts_with(&format!("{name}{{"))
        })
        .and_then(|line| line.rsplit(' ').next())
        .unwrap_or_else(|| panic!("{name} in\n{text}"))
        .parse()
        .unwrap()
}

#[tokio::test]
async fn an_idle_table_is_unloaded_and_reloads_with_the_same_view() {
    let db = fresh_db();
    let server = Server::start_with(
        &db,
        with_limits(|l| l.room_idle = Duration::from_millis(200)),
    )
    .await;
    let (token, ada) = create_table(server.addr, "1.0", "Ada").await;
    let bo = join(server.addr, &token, "Bo").await;
    let mut page = Page::open(server.addr, &token, &ada, 0).await;
    page.ok(json!({"action": "add_line", "text": "no spiders"}))
        .await;
    let before = page.view.clone();
    let seq = page.seq;
    assert_eq!(
        figure(&metrics(server.addr).await, "prophecy_tables_loaded"),
        1.0
    );
    drop(page);
    let mut unloaded = false;
    for _ in 0..100 {
        if figure(&metrics(server.addr).await, "prophecy_tables_loaded") == 0.0 {
            unloaded = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(unloaded, "the room is unloaded once nobody uses it");
    let mut again = Page::open(server.addr, &token, &bo, 0).await;
    assert_eq!(again.seq, seq);
    assert_eq!(again.view, before);
    again
        .ok(json!({"action": "add_line", "text": "no clowns"}))
        .await;
    assert_eq!(again.seq, seq + 1);
    server.stop().await;
}

#[tokio::test]
async fn metrics_count_tables_sockets_actions_and_latencies() {
    let db = fresh_db();
    let server = Server::start(&db).await;
    let (token, ada) = create_table(server.addr, "1.0", "Ada").await;
    let mut page = Page::open(server.addr, &token, &ada, 0).await;
    page.ok(json!({"action": "add_line", "text": "no spiders"}))
        .await;
    let long = page
        .act(json!({"action": "add_line", "text": "x".repeat(201)}))
        .await;
    assert_eq!(long["type"], "refused");
    let text = metrics(server.addr).await;
    assert_eq!(figure(&text, "prophecy_tables_loaded"), 1.0);
    assert_eq!(figure(&text, "prophecy_sockets_open"), 1.0);
    assert!(
        text.contains("prophecy_actions_total{outcome=\"accepted\"} 1"),
        "{text}"
    );
    assert!(
        text.contains("prophecy_actions_total{outcome=\"refused\"} 1"),
        "{text}"
    );
    // The table's opening and Ada's seat are appended too.
    assert!(figure(&text, "prophecy_store_append_seconds_count") >= 2.0);
    assert!(figure(&text, "prophecy_broadcast_seconds_count") >= 1.0);
    assert!(figure(&text, "prophecy_connections_open") >= 2.0);
    assert!(text.ends_with("# EOF\n"));
    server.stop().await;
}

#[tokio::test]
async fn metrics_can_live_on_an_address_of_their_own() {
    let db = fresh_db();
    let store = store::SqliteStore::open(&db).await.unwrap();
    let players = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let operators = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let (players_addr, operators_addr) = (
        players.local_addr().unwrap(),
        operators.local_addr().unwrap(),
    );
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let task = tokio::spawn(server::serve_on(
        players,
        Some(operators),
        store.clone(),
        server::Options::default(),
        async move {
            let _ = stopped.await;
        },
    ));
    let (status, _, _) = http(players_addr, "GET", "/metrics", None, None).await;
    assert_eq!(status, 404, "players cannot read the metrics");
    assert!(
        metrics(operators_addr)
            .await
            .contains("prophecy_sockets_open 0")
    );
    let _ = stop.send(());
    task.await.unwrap().unwrap();
    store.close().await;
}

#[tokio::test]
async fn links_use_the_servers_own_address_never_the_host_header() {
    let db = fresh_db();
    let server = Server::start(&db).await;
    let (token, ada) = create_table(server.addr, "1.0", "Ada").await;
    // A host name the server accepts (another one is refused: DNS rebinding), but not the
    // address it listens on.
    let request = format!(
        "GET /t/{token}/invite HTTP/1.1\r\nHost: localhost:1\r\nConnection: close\r\nAccept: application/json\r\nCookie: {ada}\r\n\r\n"
    );
    let (status, _, body) = raw_exchange(server.addr, &request).await;
    assert_eq!(status, 200, "{body}");
    let invitation: Value = serde_json::from_str(&body).unwrap();
    let link = invitation["link"].as_str().unwrap();
    assert!(
        link.starts_with(&format!("http://{}/t/{token}?join=", server.addr)),
        "{link}"
    );
    server.stop().await;
}
