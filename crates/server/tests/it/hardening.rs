//! What an attacker tried (issue 29): a removed player's slow socket, a `hello` at a huge
//! table, actions before `hello`, forged `Host` headers, guessed codes.

use crate::{Page, Server, create_table, fresh_db, join};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::time::Duration;
use tokio_tungstenite::tungstenite::{Message, client::IntoClientRequest};

type RawWs = tokio_tungstenite::WebSocketStream<tokio::net::TcpStream>;

/// A page's socket with a small receive buffer, so that the server's writes to it stall as
/// soon as it stops reading.
async fn slow_socket(addr: std::net::SocketAddr, token: &str, cookie: &str) -> RawWs {
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
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
        let mut socket = slow_socket(addr, &token, &cookie).await;
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
