//! The wire as a page sees it (PROTOCOL.md): raw HTTP/1.1 to create and join tables, and one
//! WebSocket per player whose incoming messages a reader task timestamps on arrival and
//! forwards to the table's driver.

use futures_util::stream::{SplitSink, SplitStream};
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::{Message, Utf8Bytes};

/// Each socket's read buffer.
const READ_BUFFER_BYTES: usize = 8 * 1024;

/// How long an HTTP exchange or a WebSocket handshake may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(30);

/// A raw HTTP/1.1 exchange with a JSON body: (status, lowercase head, body).
pub async fn http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: &Value,
) -> Result<(u16, String, String), String> {
    let exchange = async {
        let mut stream = TcpStream::connect(addr)
            .await
            .map_err(|e| format!("cannot connect to {addr}: {e}"))?;
        let body = body.to_string();
        let request = format!(
            "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nAccept: application/json\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        );
        stream
            .write_all(request.as_bytes())
            .await
            .map_err(|e| format!("{method} {path}: {e}"))?;
        let mut response = Vec::new();
        stream
            .read_to_end(&mut response)
            .await
            .map_err(|e| format!("{method} {path}: {e}"))?;
        let response = String::from_utf8_lossy(&response).into_owned();
        let (head, body) = response
            .split_once("\r\n\r\n")
            .ok_or_else(|| format!("{method} {path}: no complete answer"))?;
        let status = head
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| format!("{method} {path}: no status"))?;
        Ok((status, head.to_ascii_lowercase(), body.to_owned()))
    };
    tokio::time::timeout(CONNECT_TIMEOUT, exchange)
        .await
        .map_err(|_| format!("{method} {path}: no answer within {CONNECT_TIMEOUT:?}"))?
}

/// The `seat=…` pair of a response's Set-Cookie.
fn seat_cookie(head: &str) -> Result<String, String> {
    head.lines()
        .find_map(|l| l.strip_prefix("set-cookie: seat="))
        .and_then(|v| v.split(';').next())
        .map(|v| format!("seat={v}"))
        .ok_or_else(|| "the answer set no seat cookie".to_owned())
}

/// Creates a table under `ruleset` with its creator seated: (token, creator's cookie, the
/// invitation code newcomers join with).
pub async fn create_table(
    addr: SocketAddr,
    ruleset: &str,
    name: &str,
) -> Result<(String, String, String), String> {
    let (status, head, body) = http(
        addr,
        "POST",
        "/tables",
        &json!({"name": name, "ruleset": ruleset}),
    )
    .await?;
    if status != 200 {
        return Err(format!("POST /tables: {status} {body}"));
    }
    let body: Value =
        serde_json::from_str(&body).map_err(|e| format!("POST /tables: {e}: {body}"))?;
    let token = body["token"]
        .as_str()
        .ok_or_else(|| format!("POST /tables: no token in {body}"))?;
    let invite = body["join"]
        .as_str()
        .ok_or_else(|| format!("POST /tables: no invitation in {body}"))?;
    Ok((token.to_owned(), seat_cookie(&head)?, invite.to_owned()))
}

/// Takes a seat at a table with its invitation code: the new player's cookie.
pub async fn join(
    addr: SocketAddr,
    token: &str,
    invite: &str,
    name: &str,
) -> Result<String, String> {
    let path = format!("/t/{token}/join");
    let (status, head, body) =
        http(addr, "POST", &path, &json!({"name": name, "join": invite})).await?;
    if status != 200 {
        return Err(format!("POST {path}: {status} {body}"));
    }
    seat_cookie(&head)
}

type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

/// The writing half of a player's socket.
pub type Sender = SplitSink<Ws, Message>;

/// What a reader heard on one socket, stamped when it arrived.
#[derive(Debug)]
pub enum Heard {
    /// An `update` or `sync`: the table's state up to `seq`.
    State {
        /// Which of the table's sockets.
        socket: usize,
        /// The event number it covers.
        seq: u64,
        /// When it arrived.
        at: Instant,
        /// The whole message (shared, not copied), for the view during setup.
        text: Utf8Bytes,
    },
    /// The answer to one of this socket's requests.
    Answer {
        /// Which of the table's sockets.
        socket: usize,
        /// The request's number.
        req: u64,
        /// What the server said.
        answer: Answer,
        /// When it arrived.
        at: Instant,
    },
    /// The socket closed or failed.
    Closed {
        /// Which of the table's sockets.
        socket: usize,
        /// Why.
        why: String,
    },
}

/// The server's answer to an action.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// Accepted: the event number after it.
    Done(u64),
    /// The rules said no.
    Refused(String),
    /// The message was wrong, or too fast.
    Error(String),
}

/// How the server's rate-limit error begins.
pub const TOO_FAST: &str = "Too fast";

/// The fields a reader needs; serde skips the view without building it, which keeps the
/// generator's parsing cheap next to the server's rendering.
#[derive(Deserialize)]
struct Head<'a> {
    #[serde(rename = "type", borrow)]
    kind: std::borrow::Cow<'a, str>,
    #[serde(default)]
    seq: Option<u64>,
    #[serde(default)]
    req: Option<u64>,
    #[serde(default)]
    message: Option<String>,
    #[serde(default)]
    rule: Option<String>,
}

/// Traffic counters shared by every reader.
#[derive(Debug, Default)]
pub struct Traffic {
    /// Messages received.
    pub messages: AtomicU64,
    /// Bytes of message text received.
    pub bytes: AtomicU64,
}

/// Opens a player's socket with their cookie and the page's Origin, says `hello`, and starts a
/// reader task that forwards what it hears, tagged `socket`, to `heard`.
pub async fn open_socket(
    addr: SocketAddr,
    token: &str,
    cookie: &str,
    socket: usize,
    heard: mpsc::UnboundedSender<Heard>,
    traffic: Arc<Traffic>,
) -> Result<Sender, String> {
    let mut request = format!("ws://{addr}/t/{token}/ws")
        .into_client_request()
        .map_err(|e| e.to_string())?;
    let headers = request.headers_mut();
    headers.insert("Cookie", cookie.parse().map_err(|_| "bad cookie")?);
    headers.insert(
        "Origin",
        format!("http://{addr}").parse().map_err(|_| "bad origin")?,
    );
    // TCP_NODELAY on our side, as browsers do: the generator adds no Nagle delay of its own.
    // A small read buffer: the default 128 KiB was zeroed at every read, a tenth of the
    // generator's CPU; a longer message still arrives whole.
    let config = WebSocketConfig::default().read_buffer_size(READ_BUFFER_BYTES);
    let connect = tokio_tungstenite::connect_async_with_config(request, Some(config), true);
    let (ws, _) = tokio::time::timeout(CONNECT_TIMEOUT, connect)
        .await
        .map_err(|_| "the WebSocket handshake timed out".to_owned())?
        .map_err(|e| format!("cannot open the WebSocket: {e}"))?;
    let (mut sender, receiver) = ws.split();
    sender
        .send(Message::text(
            json!({"type": "hello", "since": 0}).to_string(),
        ))
        .await
        .map_err(|e| format!("cannot say hello: {e}"))?;
    tokio::spawn(read(receiver, socket, heard, traffic));
    Ok(sender)
}

async fn read(
    mut receiver: SplitStream<Ws>,
    socket: usize,
    heard: mpsc::UnboundedSender<Heard>,
    traffic: Arc<Traffic>,
) {
    let why = loop {
        let message = receiver.next().await;
        let at = Instant::now();
        let text = match message {
            Some(Ok(Message::Text(text))) => text,
            Some(Ok(Message::Close(frame))) => {
                break format!("closed by the server: {frame:?}");
            }
            Some(Ok(_)) => continue,
            Some(Err(e)) => break e.to_string(),
            None => break "closed".to_owned(),
        };
        traffic.messages.fetch_add(1, Ordering::Relaxed);
        traffic
            .bytes
            .fetch_add(text.len() as u64, Ordering::Relaxed);
        let head: Head = match serde_json::from_str(text.as_str()) {
            Ok(head) => head,
            Err(e) => break format!("unreadable message: {e}"),
        };
        let event = match (head.kind.as_ref(), head.seq, head.req) {
            ("update" | "sync", Some(seq), _) => Heard::State {
                socket,
                seq,
                at,
                text: text.clone(),
            },
            ("done", Some(seq), Some(req)) => Heard::Answer {
                socket,
                req,
                answer: Answer::Done(seq),
                at,
            },
            ("refused", _, Some(req)) => Heard::Answer {
                socket,
                req,
                answer: Answer::Refused(format!(
                    "{}: {}",
                    head.rule.unwrap_or_default(),
                    head.message.unwrap_or_default()
                )),
                at,
            },
            ("error", _, Some(req)) => Heard::Answer {
                socket,
                req,
                answer: Answer::Error(head.message.unwrap_or_default()),
                at,
            },
            ("error", _, None) => {
                break format!(
                    "the server could not read a message: {}",
                    head.message.unwrap_or_default()
                );
            }
            ("removed", _, _) => break "removed from the table".to_owned(),
            // presence, pong
            _ => continue,
        };
        if heard.send(event).is_err() {
            return;
        }
    };
    let _ = heard.send(Heard::Closed { socket, why });
}
