//! One address cannot lock out everyone else (issue 29): connections per client address,
//! deadlines for a request's body, its answer and a client that reads nothing, and WebSocket
//! keep-alive. Clients come from 127.0.0.2, 127.0.0.3…: all of 127.0.0.0/8 is this machine.

use crate::*;
use futures_util::{SinkExt, StreamExt};
use serde_json::json;
use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio_tungstenite::tungstenite::{self, Message, client::IntoClientRequest};

/// A connection to `server` from `from`.
async fn connect_from(from: &str, server: SocketAddr) -> TcpStream {
    let socket = TcpSocket::new_v4().unwrap();
    socket.bind(format!("{from}:0").parse().unwrap()).unwrap();
    socket.connect(server).await.unwrap()
}

/// Everything the server sends until it closes the connection, or `None` if it is still open
/// after `within`.
async fn until_closed(stream: &mut TcpStream, within: Duration) -> Option<String> {
    bytes_until_closed(stream, within)
        .await
        .map(|heard| String::from_utf8_lossy(&heard).into_owned())
}

/// [`until_closed`], as bytes.
async fn bytes_until_closed(stream: &mut TcpStream, within: Duration) -> Option<Vec<u8>> {
    let mut heard = Vec::new();
    let mut buffer = [0u8; 4096];
    tokio::time::timeout(within, async {
        loop {
            match stream.read(&mut buffer).await {
                Ok(0) | Err(_) => return,
                Ok(n) => heard.extend_from_slice(&buffer[..n]),
            }
        }
    })
    .await
    .ok()
    .map(|()| heard)
}

/// The status of an answer ("HTTP/1.1 429 …"), if one came.
fn status(answer: &str) -> Option<u16> {
    answer.split(' ').nth(1).and_then(|s| s.parse().ok())
}

/// `GET path` from `from`, on a connection closed after it: the whole answer.
async fn get_from(from: &str, server: SocketAddr, path: &str) -> String {
    let mut stream = connect_from(from, server).await;
    // A connection turned away may be closed before the request is written.
    let _ = stream
        .write_all(
            format!("GET {path} HTTP/1.1\r\nHost: {server}\r\nConnection: close\r\n\r\n")
                .as_bytes(),
        )
        .await;
    until_closed(&mut stream, Duration::from_secs(10))
        .await
        .expect("answered and closed within 10 s")
}

/// A kept-alive connection from `from` that has been served once (so surely counted).
async fn served_from(from: &str, server: SocketAddr) -> TcpStream {
    let mut stream = connect_from(from, server).await;
    stream
        .write_all(format!("GET /healthz HTTP/1.1\r\nHost: {server}\r\n\r\n").as_bytes())
        .await
        .unwrap();
    let mut buffer = [0u8; 1024];
    let n = stream.read(&mut buffer).await.unwrap();
    let answer = String::from_utf8_lossy(&buffer[..n]).into_owned();
    assert_eq!(status(&answer), Some(200), "{answer}");
    stream
}

/// POST /tables whose headers promise a body of 100 bytes: the request (its body never comes).
fn promising_a_body(server: SocketAddr) -> String {
    format!(
        "POST /tables HTTP/1.1\r\nHost: {server}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n"
    )
}

/// The issue's case: hundreds of requests from one address promise a body and send nothing,
/// against a server of 256 connections. Another address still gets its page at once, and the
/// stalled ones are all closed soon after their body is late.
#[tokio::test]
async fn stalled_requests_from_one_address_neither_lock_out_another_nor_stay() {
    let db = fresh_db();
    let mut options = server::Options::default();
    options.limits.max_connections = 256;
    options.limits.request_body = Duration::from_secs(1);
    let server = Server::start_with(&db, options).await;
    let mut stalled = Vec::new();
    for _ in 0..300 {
        let mut stream = connect_from("127.0.0.2", server.addr).await;
        // One turned away at once may be closed before its head is written.
        let _ = stream
            .write_all(promising_a_body(server.addr).as_bytes())
            .await;
        stalled.push(stream);
    }
    let page = get_from("127.0.0.3", server.addr, "/").await;
    assert_eq!(status(&page), Some(200), "{page}");
    let start = Instant::now();
    let mut answers = BTreeMap::<Option<u16>, usize>::new();
    for stream in &mut stalled {
        let left = Duration::from_secs(15).saturating_sub(start.elapsed());
        let answer = until_closed(stream, left)
            .await
            .expect("every stalled request is closed within 15 s");
        if status(&answer) == Some(408) {
            assert!(
                answer.ends_with("\r\n\r\nThe request's body did not arrive within 1 s.\n"),
                "{answer}"
            );
        }
        *answers.entry(status(&answer)).or_default() += 1;
    }
    // Those let in hear that their body is late; the others, that their address has too many
    // (past a few dozen being turned away at once, one is closed without a word).
    assert!(
        answers.get(&Some(408)).is_some_and(|n| *n >= 100),
        "{answers:?}"
    );
    assert!(answers.contains_key(&Some(429)), "{answers:?}");
    assert!(
        answers.keys().all(|k| matches!(k, Some(408 | 429) | None)),
        "{answers:?}"
    );
    server.stop().await;
}

/// A figure of `/metrics`: the line that starts with `series`.
async fn figure(server: SocketAddr, series: &str) -> f64 {
    let (_, _, text) = http(server, "GET", "/metrics", None, None).await;
    text.lines()
        .find_map(|line| line.strip_prefix(series))
        .map_or(0.0, |value| value.trim().parse().unwrap())
}

#[tokio::test]
async fn past_its_cap_an_address_hears_why_and_others_are_unaffected() {
    let db = fresh_db();
    let mut options = server::Options::default();
    options.limits.connections_per_address = 3;
    let server = Server::start_with(&db, options).await;
    let mut held = Vec::new();
    for _ in 0..3 {
        held.push(served_from("127.0.0.2", server.addr).await);
    }
    let refused = get_from("127.0.0.2", server.addr, "/").await;
    assert_eq!(status(&refused), Some(429), "{refused}");
    assert!(refused.contains("\r\nRetry-After: 10\r\n"), "{refused}");
    assert!(
        refused.ends_with(
            "\r\n\r\nToo many connections from your address: at most 3 at once. Close a page or two and try again.\n"
        ),
        "{refused}"
    );
    let other = get_from("127.0.0.3", server.addr, "/").await;
    assert_eq!(status(&other), Some(200), "{other}");
    assert_eq!(
        figure(
            server.addr,
            "prophecy_connections_refused_total{reason=\"per_address\"}"
        )
        .await,
        1.0
    );
    held.pop();
    let mut again = None;
    for _ in 0..100 {
        let answer = get_from("127.0.0.2", server.addr, "/healthz").await;
        if status(&answer) == Some(200) {
            again = Some(answer);
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(again.is_some(), "a place freed is the address's again");
    server.stop().await;
}

#[tokio::test]
async fn behind_a_trusted_proxy_connections_are_not_counted_by_address() {
    let db = fresh_db();
    let mut options = server::Options::default();
    options.limits.connections_per_address = 3;
    options.trust_proxy = true;
    let server = Server::start_with(&db, options).await;
    // Every connection comes from the proxy's address.
    let mut held = Vec::new();
    for _ in 0..5 {
        held.push(served_from("127.0.0.2", server.addr).await);
    }
    server.stop().await;
}

#[tokio::test]
async fn a_body_that_trickles_or_an_answer_that_never_comes_is_cut_short() {
    let db = fresh_db();
    let mut options = server::Options::default();
    options.limits.request_body = Duration::from_millis(1500);
    options.limits.request_time = Duration::from_secs(60);
    let server = Server::start_with(&db, options).await;
    // A byte every 100 ms would keep a deadline per read alive for ever: the body has 1.5 s
    // in all.
    let mut trickle = connect_from("127.0.0.2", server.addr).await;
    trickle
        .write_all(promising_a_body(server.addr).as_bytes())
        .await
        .unwrap();
    let start = Instant::now();
    for _ in 0..100 {
        if trickle.write_all(b" ").await.is_err() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
        if start.elapsed() > Duration::from_secs(1) {
            break;
        }
    }
    let answer = until_closed(&mut trickle, Duration::from_secs(15))
        .await
        .expect("closed within 15 s");
    assert_eq!(status(&answer), Some(408), "{answer}");
    server.stop().await;

    // The whole request has a deadline too, whatever holds it up.
    let mut options = server::Options::default();
    options.limits.request_body = Duration::from_secs(60);
    options.limits.request_time = Duration::from_secs(2);
    let server = Server::start_with(&db, options).await;
    let mut stalled = connect_from("127.0.0.2", server.addr).await;
    stalled
        .write_all(promising_a_body(server.addr).as_bytes())
        .await
        .unwrap();
    let answer = until_closed(&mut stalled, Duration::from_secs(15))
        .await
        .expect("closed within 15 s");
    assert_eq!(status(&answer), Some(503), "{answer}");
    assert!(
        answer.ends_with(
            "\r\n\r\nThe server took more than 2 s to answer. Try again in a little while.\n"
        ),
        "{answer}"
    );
    assert_eq!(
        figure(
            server.addr,
            "prophecy_timed_out_total{limit=\"request_time\"}"
        )
        .await,
        1.0
    );
    server.stop().await;
}

#[tokio::test]
async fn a_client_that_reads_nothing_is_closed() {
    let db = fresh_db();
    let mut options = server::Options::default();
    options.limits.write_stall = Duration::from_millis(500);
    let server = Server::start_with(&db, options).await;
    // A small window, and far more asked for than the kernels' buffers hold (a few MiB).
    let socket = TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    socket.bind("127.0.0.2:0".parse().unwrap()).unwrap();
    let mut greedy = socket.connect(server.addr).await.unwrap();
    let asks = 400;
    let ask = format!(
        "GET /assets/challenge/table-view.js HTTP/1.1\r\nHost: {}\r\n\r\n",
        server.addr
    );
    greedy.write_all(ask.repeat(asks).as_bytes()).await.unwrap();
    let mut stalled = false;
    for _ in 0..750 {
        if figure(
            server.addr,
            "prophecy_timed_out_total{limit=\"write_stall\"}",
        )
        .await
            >= 1.0
        {
            stalled = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(stalled, "the server gives up on the connection within 15 s");
    let taken = until_closed(&mut greedy, Duration::from_secs(15))
        .await
        .expect("and closes it");
    let answers = taken.matches("HTTP/1.1 200 OK").count();
    assert!(answers < asks, "{answers} answers of {asks}");
    server.stop().await;
}

/// A WebSocket handshake for this seat from `from`, on a raw TCP stream: what came after the
/// server's `101` head.
async fn raw_socket_from(
    from: &str,
    server: SocketAddr,
    token: &str,
    cookie: &str,
) -> (TcpStream, Vec<u8>) {
    let mut stream = connect_from(from, server).await;
    let head = format!(
        "GET /t/{token}/ws HTTP/1.1\r\nHost: {server}\r\nOrigin: http://{server}\r\nCookie: {cookie}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    let mut heard = Vec::new();
    let mut buffer = [0u8; 4096];
    let end = loop {
        let n = stream.read(&mut buffer).await.unwrap();
        assert!(n > 0, "the server answers the handshake");
        heard.extend_from_slice(&buffer[..n]);
        if let Some(end) = heard.windows(4).position(|w| w == b"\r\n\r\n") {
            break end + 4;
        }
    };
    let answer = String::from_utf8_lossy(&heard[..end]).into_owned();
    assert!(answer.starts_with("HTTP/1.1 101"), "{answer}");
    (stream, heard[end..].to_vec())
}

/// The frames of `bytes` (a server's, so unmasked): (opcode, payload).
fn frames(mut bytes: &[u8]) -> Vec<(u8, Vec<u8>)> {
    let mut frames = Vec::new();
    while bytes.len() >= 2 {
        let opcode = bytes[0] & 0x0f;
        let (length, start) = match bytes[1] & 0x7f {
            126 => (usize::from(u16::from_be_bytes([bytes[2], bytes[3]])), 4),
            127 => (
                usize::try_from(u64::from_be_bytes(bytes[2..10].try_into().unwrap())).unwrap(),
                10,
            ),
            n => (usize::from(n), 2),
        };
        frames.push((opcode, bytes[start..start + length].to_vec()));
        bytes = &bytes[start + length..];
    }
    frames
}

/// A page's text frame, masked as a client's must be (with a mask of zeros).
fn client_text(text: &str) -> Vec<u8> {
    assert!(text.len() < 126);
    let mut frame = vec![0x81, 0x80 | text.len() as u8, 0, 0, 0, 0];
    frame.extend_from_slice(text.as_bytes());
    frame
}

#[tokio::test]
async fn the_server_pings_and_closes_a_socket_that_answers_nothing() {
    let db = fresh_db();
    let mut options = scripted();
    options.limits.socket_ping = Duration::from_millis(200);
    options.limits.socket_silence = Duration::from_secs(2);
    // The upgrade is a request too: its deadline ends with the upgrade (3 s: generous for
    // every request of this test on a busy machine, and half the time the page stays below).
    options.limits.request_time = Duration::from_secs(3);
    let server = Server::start_with(&db, options).await;
    let (token, ada) = create_table(server.addr, "1.0", "Ada").await;
    // A page that reads what it is sent, and so answers pings (as browsers do).
    let mut answering = Page::open(server.addr, &token, &ada, 0).await;
    // A client that says hello, then neither reads nor answers.
    let (mut mute, mut heard) = raw_socket_from("127.0.0.2", server.addr, &token, &ada).await;
    mute.write_all(&client_text(r#"{"type":"hello","since":0}"#))
        .await
        .unwrap();
    let said_hello = Instant::now();
    // Meanwhile the page that answers is read, for longer than the silence limit (and the
    // request's): it stays open.
    let (rest, quiet) = tokio::join!(
        bytes_until_closed(&mut mute, Duration::from_secs(15)),
        tokio::time::timeout(Duration::from_secs(6), answering.next_or_end())
    );
    let rest = rest.expect("the silent socket is closed within 15 s");
    let silent_for = said_hello.elapsed();
    assert!(quiet.is_err(), "still open and quiet: {quiet:?}");
    heard.extend_from_slice(&rest);
    let frames = frames(&heard);
    assert!(
        frames.iter().filter(|(opcode, _)| *opcode == 0x9).count() >= 2,
        "pinged: {frames:?}"
    );
    let (opcode, close) = frames.last().unwrap();
    assert_eq!(*opcode, 0x8, "{frames:?}");
    assert_eq!(close[..2], 1008u16.to_be_bytes());
    assert_eq!(
        String::from_utf8_lossy(&close[2..]),
        "nothing heard for 2 s"
    );
    assert!(silent_for >= Duration::from_secs(2), "{silent_for:?}");
    answering.send(json!({"type": "ping"})).await;
    assert_eq!(
        answering.until(|m| m["type"] == "pong").await["type"],
        "pong"
    );
    assert_eq!(
        figure(
            server.addr,
            "prophecy_timed_out_total{limit=\"socket_silence\"}"
        )
        .await,
        1.0
    );
    server.stop().await;
}

type Socket = tokio_tungstenite::WebSocketStream<TcpStream>;

/// A greeted socket of this seat from `from`, or the status of the refusal and its body.
async fn greeted_from(
    from: &str,
    server: SocketAddr,
    token: &str,
    cookie: &str,
) -> Result<Socket, (u16, String)> {
    let stream = connect_from(from, server).await;
    let mut request = format!("ws://{server}/t/{token}/ws")
        .into_client_request()
        .unwrap();
    let headers = request.headers_mut();
    headers.insert("Cookie", cookie.parse().unwrap());
    headers.insert("Origin", format!("http://{server}").parse().unwrap());
    let mut socket = match tokio_tungstenite::client_async(request, stream).await {
        Ok((socket, _)) => socket,
        Err(tungstenite::Error::Http(response)) => {
            let body = response.body().clone().unwrap_or_default();
            return Err((
                response.status().as_u16(),
                String::from_utf8_lossy(&body).into_owned(),
            ));
        }
        Err(e) => panic!("{e}"),
    };
    socket
        .send(Message::text(
            json!({"type": "hello", "since": 0}).to_string(),
        ))
        .await
        .unwrap();
    loop {
        match socket.next().await {
            Some(Ok(Message::Text(text))) if text.contains("\"sync\"") => return Ok(socket),
            Some(Ok(_)) => continue,
            other => panic!("no sync: {other:?}"),
        }
    }
}

/// Greeted sockets that say nothing more (a browser answers pings by itself) stay open, but
/// one address holds only so many: sockets over many seats are refused past the cap, and other
/// addresses still connect.
#[tokio::test]
async fn greeted_sockets_that_stay_silent_are_bounded_by_the_address_cap() {
    let db = fresh_db();
    let mut options = scripted();
    options.limits.connections_per_address = 6;
    let server = Server::start_with(&db, options).await;
    let (token, ada) = create_table(server.addr, "1.0", "Ada").await;
    let mut seats = vec![ada];
    for name in ["Bo", "Cy", "Di"] {
        seats.push(join(server.addr, &token, name).await);
    }
    let mut held = Vec::new();
    let refusal = loop {
        let seat = &seats[held.len() % seats.len()];
        match greeted_from("127.0.0.2", server.addr, &token, seat).await {
            Ok(socket) => held.push(socket),
            Err(refusal) => break refusal,
        }
        assert!(held.len() <= 6, "refused past the cap");
    };
    assert_eq!(held.len(), 6);
    assert_eq!(refusal.0, 429, "{refusal:?}");
    assert!(
        refusal
            .1
            .starts_with("Too many connections from your address: at most 6 at once."),
        "{refusal:?}"
    );
    for from in ["127.0.0.3", "127.0.0.4"] {
        assert!(
            greeted_from(from, server.addr, &token, &seats[0])
                .await
                .is_ok(),
            "{from} connects"
        );
    }
    server.stop().await;
}
