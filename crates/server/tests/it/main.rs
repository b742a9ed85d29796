//! The web table over real HTTP and WebSockets, on a real SQLite file.

// Test helpers, not an API.
#![allow(missing_docs)]

mod assets;
mod backups;
mod board;
mod challenge;
mod connections;
mod device;
mod fuzz;
mod hardening;
mod limits;
mod markdown;
mod names;
mod operations;
mod page_imports;
mod proposals;
mod protocol;
mod replay;
mod samples;
mod seats;
mod servers;
mod shared_limits;
mod storage;
mod watch;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::{self, Message, client::IntoClientRequest};

/// A fresh database file in its own temporary folder, removed when dropped.
pub struct TempDb {
    dir: PathBuf,
    path: PathBuf,
}

impl std::ops::Deref for TempDb {
    type Target = std::path::Path;
    fn deref(&self) -> &std::path::Path {
        &self.path
    }
}

impl Drop for TempDb {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

pub fn fresh_db() -> TempDb {
    static N: AtomicU32 = AtomicU32::new(0);
    let dir = std::env::temp_dir().join(format!(
        "prophecy-server-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::SeqCst)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    TempDb {
        path: dir.join("tables.db"),
        dir,
    }
}

/// A server on an ephemeral port.
pub struct Server {
    pub addr: SocketAddr,
    /// The server's store, for tests that write behind its back.
    pub store: store::SqliteStore,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    task: Option<tokio::task::JoinHandle<()>>,
}

/// The server's options for tests that play scripted games: a script acts far faster than a
/// person, so the budgets per seat and per address are lifted. The tests of those limits
/// (limits.rs) start from `server::Options::default()`.
pub fn scripted() -> server::Options {
    let mut options = server::Options::default();
    options.limits.seat_messages_per_second = 10_000;
    options.limits.seat_message_burst = 10_000;
    options.limits.tables_per_minute = 10_000;
    options.limits.joins_per_minute = 10_000;
    options.limits.sync_kib_per_minute = 1 << 30;
    options.limits.written_kib_per_minute = 1 << 30;
    options
}

impl Server {
    /// With [`scripted`] options.
    pub async fn start(db: &std::path::Path) -> Server {
        Server::start_with(db, scripted()).await
    }

    /// With these options (e.g. bots that do not pause).
    pub async fn start_with(db: &std::path::Path, options: server::Options) -> Server {
        let store = store::SqliteStore::open(db).await.unwrap();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let handle = store.clone();
        let task = tokio::spawn(async move {
            server::serve_with(listener, store.clone(), options, async move {
                let _ = stopped.await;
            })
            .await
            .unwrap();
            store.close().await;
        });
        Server {
            addr,
            store: handle,
            stop: Some(stop),
            task: Some(task),
        }
    }

    /// Graceful stop: sockets are closed and the server returns.
    pub async fn stop(mut self) {
        let _ = self.stop.take().unwrap().send(());
        tokio::time::timeout(Duration::from_secs(10), self.task.take().unwrap())
            .await
            .expect("the server stops within 10 s even with sockets open")
            .unwrap();
    }
}

/// A raw HTTP/1.1 exchange: (status, headers as lowercase "name: value" lines, body).
pub async fn http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    cookie: Option<&str>,
    body: Option<Value>,
) -> (u16, String, String) {
    http_as(addr, method, path, cookie, None, body).await
}

/// [`http`] from a page that names the seat it speaks for (`Prophecy-Seat`), of those its
/// browser holds.
pub async fn http_as(
    addr: SocketAddr,
    method: &str,
    path: &str,
    cookie: Option<&str>,
    seat: Option<u32>,
    body: Option<Value>,
) -> (u16, String, String) {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let mut request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nAccept: application/json\r\n"
    );
    if !body.is_empty() {
        request.push_str(&format!(
            "Content-Type: application/json\r\nContent-Length: {}\r\n",
            body.len()
        ));
    }
    if let Some(cookie) = cookie {
        request.push_str(&format!("Cookie: {cookie}\r\n"));
    }
    if let Some(seat) = seat {
        request.push_str(&format!("Prophecy-Seat: {seat}\r\n"));
    }
    request.push_str("\r\n");
    request.push_str(&body);
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = Vec::new();
    stream.read_to_end(&mut response).await.unwrap();
    let response = String::from_utf8_lossy(&response).into_owned();
    let (head, body) = response.split_once("\r\n\r\n").unwrap();
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    (status, head.to_ascii_lowercase(), body.to_owned())
}

/// The seat cookie a response set.
pub fn cookie_of(headers: &str) -> String {
    let line = headers
        .lines()
        .find(|l| l.starts_with("set-cookie: seat="))
        .expect("a seat cookie");
    line.trim_start_matches("set-cookie: ")
        .split(';')
        .next()
        .unwrap()
        .to_owned()
}

/// The invitation code of each table the tests created, by token.
static INVITES: std::sync::Mutex<Vec<(String, String)>> = std::sync::Mutex::new(Vec::new());

/// The invitation code a table was created with.
pub fn invite_of(token: &str) -> String {
    INVITES
        .lock()
        .unwrap()
        .iter()
        .find(|(t, _)| t == token)
        .map(|(_, code)| code.clone())
        .expect("a table created by these tests")
}

/// A table with its creator seated: (token, creator's cookie).
pub async fn create_table(addr: SocketAddr, ruleset: &str, name: &str) -> (String, String) {
    let (status, headers, body) = http(
        addr,
        "POST",
        "/tables",
        None,
        Some(json!({"name": name, "ruleset": ruleset})),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let body: Value = serde_json::from_str(&body).unwrap();
    let token = body["token"].as_str().unwrap().to_owned();
    INVITES
        .lock()
        .unwrap()
        .push((token.clone(), body["join"].as_str().unwrap().to_owned()));
    (token, cookie_of(&headers))
}

/// After a change of the invitation (a removal renews it): the creator's page reads the new
/// code, and [`join`] uses it from then on.
pub async fn refresh_invite(addr: SocketAddr, token: &str, creator: &str) {
    let (status, _, body) = http(
        addr,
        "GET",
        &format!("/t/{token}/invite"),
        Some(creator),
        None,
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let body: Value = serde_json::from_str(&body).unwrap();
    let link = body["link"].as_str().expect("joining is open");
    let code = link.rsplit_once("?join=").unwrap().1.to_owned();
    let mut invites = INVITES.lock().unwrap();
    invites.retain(|(t, _)| t != token);
    invites.push((token.to_owned(), code));
}

/// Takes a seat with the table's invitation: the new player's cookie.
pub async fn join(addr: SocketAddr, token: &str, name: &str) -> String {
    let (status, headers, body) = try_join(addr, token, &invite_of(token), name).await;
    assert_eq!(status, 200, "{body}");
    cookie_of(&headers)
}

/// Tries to take a seat with this invitation code: (status, headers, body).
pub async fn try_join(
    addr: SocketAddr,
    token: &str,
    invite: &str,
    name: &str,
) -> (u16, String, String) {
    http(
        addr,
        "POST",
        &format!("/t/{token}/join"),
        None,
        Some(json!({"name": name, "join": invite})),
    )
    .await
}

type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

/// One player's open page.
pub struct Page {
    ws: Ws,
    pub seq: u64,
    pub view: Value,
    /// What only this player may know (the `own` message).
    pub own: Value,
    /// Every message this page received, in order.
    pub heard: Vec<Value>,
    /// The view the page held after each `sync` and `update`, with its seq.
    pub views: Vec<(u64, Value)>,
    next_req: u64,
}

impl Page {
    pub async fn open(addr: SocketAddr, token: &str, cookie: &str, since: u64) -> Page {
        Page::connect(addr, &format!("/t/{token}/ws"), Some(cookie), since).await
    }

    /// The page of seat `seat`, of those the browser with `cookie` holds (`?seat=N`).
    pub async fn open_as(
        addr: SocketAddr,
        token: &str,
        cookie: &str,
        seat: u32,
        since: u64,
    ) -> Page {
        let path = format!("/t/{token}/ws?seat={seat}");
        Page::connect(addr, &path, Some(cookie), since).await
    }

    /// A watcher's page: the socket of the watch link `code`, without a cookie.
    pub async fn watch(addr: SocketAddr, code: &str, since: u64) -> Page {
        Page::connect(addr, &format!("/w/{code}/ws"), None, since).await
    }

    async fn connect(addr: SocketAddr, path: &str, cookie: Option<&str>, since: u64) -> Page {
        let mut request = format!("ws://{addr}{path}").into_client_request().unwrap();
        if let Some(cookie) = cookie {
            request
                .headers_mut()
                .insert("Cookie", cookie.parse().unwrap());
        }
        request
            .headers_mut()
            .insert("Origin", format!("http://{addr}").parse().unwrap());
        let (ws, _) = tokio_tungstenite::connect_async(request).await.unwrap();
        let mut page = Page {
            ws,
            seq: since,
            view: Value::Null,
            own: Value::Null,
            heard: Vec::new(),
            views: Vec::new(),
            next_req: 0,
        };
        page.send(json!({"type": "hello", "since": since})).await;
        page.until(|m| m["type"] == "sync").await;
        page
    }

    pub async fn send(&mut self, message: Value) {
        self.ws
            .send(Message::text(message.to_string()))
            .await
            .unwrap();
    }

    pub async fn send_raw(&mut self, text: String) {
        self.ws.send(Message::text(text)).await.unwrap();
    }

    pub async fn send_binary(&mut self, bytes: Vec<u8>) {
        self.ws.send(Message::binary(bytes)).await.unwrap();
    }

    /// The next message, within 5 s.
    pub async fn next(&mut self) -> Value {
        loop {
            let message = tokio::time::timeout(Duration::from_secs(5), self.ws.next())
                .await
                .expect("a message within 5 s")
                .expect("the socket is open")
                .expect("a valid frame");
            if let Message::Text(text) = message {
                let value: Value = serde_json::from_str(&text).unwrap();
                self.absorb(&value);
                return value;
            }
        }
    }

    /// Takes in a message the page received: its view (whole, or patched from the one the
    /// page holds), its `own`, and the message itself in `heard`.
    pub fn absorb(&mut self, value: &Value) {
        if value["type"] == "update" && value.get("patch").is_some() {
            // A patch is against the view at `base`, which this page must hold.
            assert_eq!(value["base"].as_u64(), Some(self.seq), "{value}");
            let patch: json_patch::Patch = serde_json::from_value(value["patch"].clone()).unwrap();
            json_patch::patch(&mut self.view, &patch).unwrap();
            self.seq = value["seq"].as_u64().unwrap();
            self.views.push((self.seq, self.view.clone()));
        } else if value["type"] == "update" || value["type"] == "sync" {
            self.seq = value["seq"].as_u64().unwrap();
            self.view = value["view"].clone();
            self.views.push((self.seq, self.view.clone()));
        }
        if value["type"] == "sync" || value["type"] == "own" {
            self.own = value["own"].clone();
        }
        self.heard.push(value.clone());
    }

    /// Skips messages until one matches.
    pub async fn until(&mut self, mut wanted: impl FnMut(&Value) -> bool) -> Value {
        loop {
            let message = self.next().await;
            if wanted(&message) {
                return message;
            }
        }
    }

    /// Sends an action; returns the answer to it (done, refused or error).
    pub async fn act(&mut self, action: Value) -> Value {
        self.next_req += 1;
        let req = self.next_req;
        self.send(json!({"type": "act", "req": req, "action": action}))
            .await;
        self.until(|m| m["req"] == req).await
    }

    /// Sends an action that must be accepted.
    pub async fn ok(&mut self, action: Value) {
        let answer = self.act(action.clone()).await;
        assert_eq!(answer["type"], "done", "{action} → {answer}");
        // The update follows the answer on this socket.
        let seq = answer["seq"].as_u64().unwrap();
        while self.seq < seq {
            self.next().await;
        }
    }

    /// Reads until this page has seen event `seq`.
    pub async fn catch_up(&mut self, seq: u64) {
        while self.seq < seq {
            self.next().await;
        }
    }

    /// The next message, or `None` once the server closed the socket.
    pub async fn next_or_end(&mut self) -> Option<Value> {
        loop {
            match self.ws.next().await {
                None | Some(Err(_)) | Some(Ok(Message::Close(_))) => return None,
                Some(Ok(Message::Text(text))) => return Some(serde_json::from_str(&text).unwrap()),
                Some(Ok(_)) => continue,
            }
        }
    }

    /// Whether the server closed the socket (within 5 s).
    pub async fn closed(&mut self) -> bool {
        loop {
            match tokio::time::timeout(Duration::from_secs(5), self.ws.next()).await {
                Ok(None) | Ok(Some(Err(_))) | Ok(Some(Ok(Message::Close(_)))) => return true,
                Ok(Some(Ok(_))) => continue,
                Err(_) => return false,
            }
        }
    }
}

/// Upgrading without the page's own origin or without a seat is refused.
pub async fn upgrade_status(
    addr: SocketAddr,
    token: &str,
    cookie: Option<&str>,
    origin: &str,
) -> u16 {
    upgrade_path_status(addr, &format!("/t/{token}/ws"), cookie, origin).await
}

/// [`upgrade_status`] of the socket at `path` (`/t/{token}/ws?seat=2`).
pub async fn upgrade_path_status(
    addr: SocketAddr,
    path: &str,
    cookie: Option<&str>,
    origin: &str,
) -> u16 {
    let mut request = format!("ws://{addr}{path}").into_client_request().unwrap();
    if let Some(cookie) = cookie {
        request
            .headers_mut()
            .insert("Cookie", cookie.parse().unwrap());
    }
    request
        .headers_mut()
        .insert("Origin", origin.parse().unwrap());
    match tokio_tungstenite::connect_async(request).await {
        Ok(_) => 101,
        Err(tungstenite::Error::Http(response)) => response.status().as_u16(),
        Err(e) => panic!("{e}"),
    }
}

/// `pages[0]` proposes a motion and every other page agrees, so that it carries; every page
/// then has the outcome.
pub async fn carried(pages: &mut [Page], motion: Value) {
    pages[0]
        .ok(json!({"action": "propose", "motion": motion}))
        .await;
    let id = pages[0].view["proposal"]["id"].clone();
    for page in pages[1..].iter_mut() {
        page.ok(json!({"action": "agree", "proposal": id})).await;
    }
    assert!(
        pages.last().unwrap().view["proposal"].is_null(),
        "{motion} carried"
    );
    let last = pages.last().unwrap().seq;
    for page in pages.iter_mut() {
        page.catch_up(last).await;
    }
}

/// Every view `page` held (sent whole or patched from the one before) is exactly the view of
/// the table at that event, replayed from the store's log; returns how many were checked.
pub async fn views_match_the_log<G: server::game::Game>(
    server: &Server,
    token: &str,
    page: &Page,
    creator: u32,
) -> usize {
    use store::Store;
    let table = server.store.table_by_token(token).await.unwrap().unwrap();
    let events: Vec<(u64, G::Event)> = server
        .store
        .events_after(table.id, 0)
        .await
        .unwrap()
        .into_iter()
        .map(|row| (row.seq, G::decode(&row.body).unwrap()))
        .collect();
    for (seq, view) in &page.views {
        let state = events
            .iter()
            .take_while(|(n, _)| n <= seq)
            .fold(G::State::default(), |state, (_, event)| {
                G::evolve(state, event)
            });
        assert_eq!(
            *view,
            serde_json::to_value(G::view(&state, creator)).unwrap(),
            "the page's view at event {seq}"
        );
    }
    page.views.len()
}
