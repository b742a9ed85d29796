//! One WebSocket per open page: requests in, views out. A socket that falls behind the room's
//! broadcast is resynced from the log rather than dropped.

use crate::device;
use crate::game::Rejection;
use crate::http::failure;
use crate::limit::{SeatKey, SocketSlot};
use crate::metrics::{Metrics, Outcome};
use crate::room::{Published, Request, RoomHandle, Viewer};
use crate::{AppState, limits};
use axum::body::Bytes;
use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use futures_util::SinkExt;
use serde_json::{Value, json};
use std::pin::pin;
use std::sync::Arc;
use store::Store;
use tokio::sync::broadcast::error::{RecvError, TryRecvError};
use tokio::sync::oneshot;

/// The table's sockets, a player's and a watcher's, for `http::router`.
pub fn routes<S: Store>() -> axum::Router<Arc<AppState<S>>> {
    axum::Router::new()
        .route("/t/{token}/ws", axum::routing::get(upgrade::<S>))
        .route("/w/{code}/ws", axum::routing::get(watch::<S>))
}

/// Accepts the upgrade for a seated player whose page comes from this server.
pub async fn upgrade<S: Store>(
    State(state): State<Arc<AppState<S>>>,
    Path(token): Path<String>,
    RawQuery(query): RawQuery,
    peer: Option<axum::Extension<crate::limit::Peer>>,
    headers: HeaderMap,
    upgrade: WebSocketUpgrade,
) -> Response {
    // Browsers send Origin with WebSockets; another site's page must not use a player's cookie.
    if !crate::http::same_site(&headers) {
        return failure(
            StatusCode::FORBIDDEN,
            true,
            "This table can only be opened from its own page.",
        );
    }
    // A browser that holds several seats names the one this page is (pass the phone).
    let Ok(which) = named_seat(query.as_deref()) else {
        return failure(
            StatusCode::BAD_REQUEST,
            true,
            "The seat in the socket's address is a player's number: ?seat=2.",
        );
    };
    // The seats this browser holds, read once: each is at the table while one of its pages
    // is open, and the page is told them.
    let held = match device::held(&state, &token, &headers).await {
        Ok(held) => held,
        Err(e) => return failure(StatusCode::INTERNAL_SERVER_ERROR, true, &e),
    };
    let named = (held.iter()).find(|(s, _)| which.is_none_or(|p| s.player == p));
    let Some(seat) = named.map(|(seat, _)| seat.clone()) else {
        return failure(
            StatusCode::UNAUTHORIZED,
            true,
            "You have no seat at this table: join first.",
        );
    };
    let room = match state.room(&token).await {
        Ok(Some(room)) => room,
        Ok(None) => {
            return failure(
                StatusCode::NOT_FOUND,
                true,
                "There is no table at this link.",
            );
        }
        Err(e) => return failure(StatusCode::INTERNAL_SERVER_ERROR, true, &e),
    };
    let key: SeatKey = (Arc::from(token.as_str()), seat.player);
    let Some(slot) = state
        .seat_sockets
        .open(key.clone(), state.limits.sockets_per_seat)
    else {
        state.metrics.limited("seat_sockets");
        return failure(
            StatusCode::TOO_MANY_REQUESTS,
            true,
            &format!(
                "Your seat already has {} pages open: close one to open another.",
                state.limits.sockets_per_seat
            ),
        );
    };
    let address = crate::limit::client(peer.as_deref(), &headers, state.trust_proxy);
    let viewer = Viewer::Player(seat.player);
    let mut connection = Connection::new(state, room, viewer, None, address, key, slot);
    connection.device = held.iter().map(|(s, _)| s.player).collect();
    // A page of a browser with one seat is told nothing new.
    if held.len() > 1 {
        let seats = json!({"type": "device", "seats": device::listed(&held)});
        connection.device_notice = Some(seats.to_string());
    }
    accept(upgrade, connection)
}

/// The seat a socket's address names (`seat=N`), if any; `Err` when it names none readable.
fn named_seat(query: Option<&str>) -> Result<Option<u32>, ()> {
    let named = (query.unwrap_or_default().split('&')).find_map(|pair| pair.strip_prefix("seat="));
    named.map(|n| n.parse().map_err(|_| ())).transpose()
}

/// Accepts the upgrade for anyone holding the table's watch link, up to
/// [`limits::WATCHERS`] at this server.
pub async fn watch<S: Store>(
    State(state): State<Arc<AppState<S>>>,
    Path(code): Path<String>,
    peer: Option<axum::Extension<crate::limit::Peer>>,
    headers: HeaderMap,
    upgrade: WebSocketUpgrade,
) -> Response {
    if !crate::http::same_site(&headers) {
        return failure(
            StatusCode::FORBIDDEN,
            true,
            "This table can only be watched from its own page.",
        );
    }
    let (token, room) =
        match crate::http::watched_room(&state, &code, peer.as_deref(), &headers).await {
            Ok(found) => found,
            Err(response) => return response,
        };
    // Every watcher of a table shares one cap: the table's own key, with no player.
    let key: SeatKey = (Arc::from(token.as_str()), 0);
    let Some(slot) = state.watch_sockets.open(key.clone(), limits::WATCHERS) else {
        state.metrics.limited("watchers");
        return failure(
            StatusCode::TOO_MANY_REQUESTS,
            true,
            &format!(
                "This table has {} watchers already: try again when one leaves.",
                limits::WATCHERS
            ),
        );
    };
    let address = crate::limit::client(peer.as_deref(), &headers, state.trust_proxy);
    let connection = Connection::new(state, room, Viewer::Watcher, Some(code), address, key, slot);
    accept(upgrade, connection)
}

/// Upgrades to a socket that `connection` serves until it closes or the server stops.
fn accept<S: Store>(upgrade: WebSocketUpgrade, connection: Connection<S>) -> Response {
    let shutdown = connection.state.shutdown.clone();
    upgrade
        // Past the hard cap the socket closes (memory); up to it, an oversized message is
        // answered with an error and the connection stays open.
        .max_message_size(limits::HARD_MESSAGE_BYTES)
        .max_frame_size(limits::HARD_MESSAGE_BYTES)
        // Buffers grow with the messages they carry; an idle socket keeps them small.
        .read_buffer_size(limits::SOCKET_BUFFER_BYTES)
        // Messages wait there for the loop's flush, so those ready together leave in one
        // write; a larger one goes out at once.
        .write_buffer_size(limits::SOCKET_BUFFER_BYTES)
        .on_upgrade(move |socket| connection.run(socket, shutdown))
        .into_response()
}

/// Messages from the page.
enum Incoming {
    Hello { since: u64 },
    Act { req: Value, action: Value },
    Log { req: Value, before: u64 },
    Ping,
}

/// Reads a page's message, or says in the protocol's words what is wrong with it.
fn understand(text: &str) -> Result<Incoming, (Value, String)> {
    let Ok(mut message) = serde_json::from_str::<Value>(text) else {
        return Err((Value::Null, "That message is not JSON.".to_owned()));
    };
    let req = message.get_mut("req").map_or(Value::Null, Value::take);
    let Some(kind) = message.get("type") else {
        return Err((
            req,
            "A message needs a type: hello, act, log or ping.".to_owned(),
        ));
    };
    match kind.as_str().map(str::to_owned).as_deref() {
        Some("hello") => match message.get("since") {
            None | Some(Value::Null) => Ok(Incoming::Hello { since: 0 }),
            Some(since) => since
                .as_u64()
                .map(|since| Incoming::Hello { since })
                .ok_or((
                    req,
                    "hello's since is the number of the last event the page has.".to_owned(),
                )),
        },
        Some("ping") => Ok(Incoming::Ping),
        Some("log") => match message.get("before").and_then(Value::as_u64) {
            Some(before) => Ok(Incoming::Log { req, before }),
            None => Err((
                req,
                "log's before is the number of the oldest event the page shows.".to_owned(),
            )),
        },
        // The action is moved out of the message, not copied.
        Some("act") => match message.get_mut("action") {
            Some(action) => Ok(Incoming::Act {
                req,
                action: action.take(),
            }),
            None => Err((req, "An act message needs an action.".to_owned())),
        },
        _ => Err((
            req,
            "That is not a message this table understands: send hello, act, log or ping."
                .to_owned(),
        )),
    }
}

struct Connection<S: Store> {
    room: RoomHandle,
    /// Who is removed from the table: read before anything is sent, since a socket that was
    /// slow to write may find the removal and later changes waiting together.
    removed: tokio::sync::watch::Receiver<Arc<std::collections::BTreeSet<u32>>>,
    /// The player, or a watcher.
    viewer: Viewer,
    /// The client's address, for the budget of what its pages are sent whole (and of a
    /// watcher's messages).
    address: std::net::IpAddr,
    /// The seat, for its budget of messages (a watcher's: the table, with player 0).
    key: SeatKey,
    /// A watcher's link, checked again whenever the table's links change.
    watch_code: Option<String>,
    /// The last event number this page was sent.
    seq: u64,
    /// The page said `hello` (and so was sent a `sync`).
    greeted: bool,
    /// The last `own` message this page was sent, so an unchanged one is not sent again.
    own: Option<Arc<str>>,
    /// The seats this page's browser holds at the table, its own among them (pass the phone).
    device: Arc<[u32]>,
    /// The `device` message naming them, sent once after the first `sync`.
    device_notice: Option<String>,
    state: Arc<AppState<S>>,
    /// This socket's place under the seat's cap, given back when it closes.
    _slot: SocketSlot,
}

enum Flow {
    Continue,
    Close,
}

impl<S: Store> Connection<S> {
    /// A socket of `viewer` (a watcher's holds its `watch_code`), before its `hello`.
    fn new(
        state: Arc<AppState<S>>,
        room: RoomHandle,
        viewer: Viewer,
        watch_code: Option<String>,
        address: std::net::IpAddr,
        key: SeatKey,
        slot: SocketSlot,
    ) -> Connection<S> {
        Connection {
            removed: room.removed(),
            room,
            viewer,
            address,
            key,
            watch_code,
            seq: 0,
            greeted: false,
            own: None,
            device: Arc::from([]),
            device_notice: None,
            state,
            _slot: slot,
        }
    }

    async fn run(
        mut self,
        mut socket: WebSocket,
        mut shutdown: tokio::sync::watch::Receiver<bool>,
    ) {
        let mut published = self.room.subscribe();
        if self.is_removed() {
            let _ = send(&mut socket, removed_notice()).await;
            close(socket, 1008, Utf8Bytes::from_static("removed")).await;
            return;
        }
        if !self
            .room
            .send(Request::Presence {
                viewer: self.viewer,
                device: self.device.clone(),
                delta: 1,
            })
            .await
        {
            return;
        }
        let metrics = self.state.metrics.clone();
        metrics.sockets_open.inc();
        // A socket that never says hello holds memory for nothing.
        let hello_by = tokio::time::Instant::now() + self.state.limits.hello_timeout;
        // The close frame's code and reason (RFC 6455 7.4).
        let mut farewell = (1000, Utf8Bytes::from_static(""));
        // Pinged so that a page that vanished (a phone gone off the network) is found out:
        // anything from the page, its browser's pongs included, shows it is there.
        let (ping_every, silence) = (
            self.state.limits.socket_ping,
            self.state.limits.socket_silence,
        );
        let mut heard = tokio::time::Instant::now();
        let mut beat = pin!(tokio::time::sleep(ping_every.min(silence)));
        loop {
            let flow = tokio::select! {
                () = tokio::time::sleep_until(hello_by), if !self.greeted => {
                    farewell = (1008, Utf8Bytes::from_static("say hello first"));
                    Flow::Close
                }
                () = &mut beat => {
                    let now = tokio::time::Instant::now();
                    if now >= heard + silence {
                        metrics.timed_out("socket_silence");
                        let reason = format!("nothing heard for {} s", silence.as_secs_f64());
                        farewell = (1008, Utf8Bytes::from(reason));
                        Flow::Close
                    } else {
                        beat.as_mut().reset((now + ping_every).min(heard + silence));
                        match socket.feed(Message::Ping(Bytes::new())).await {
                            Ok(()) => Flow::Continue,
                            Err(_) => Flow::Close,
                        }
                    }
                }
                incoming = socket.recv() => {
                    heard = tokio::time::Instant::now();
                    match incoming {
                        Some(Ok(Message::Text(text))) => self.incoming(&mut socket, text.as_str()).await,
                        Some(Ok(Message::Binary(_))) => send(&mut socket, json!({"type": "error", "req": null, "message": "Messages are JSON text, not binary."})).await,
                        Some(Ok(Message::Close(_))) | None | Some(Err(_)) => Flow::Close,
                        // Pongs (and pings, which the socket answers by itself).
                        Some(Ok(_)) => Flow::Continue,
                    }
                }
                changed = self.removed.changed() => match changed {
                    Ok(()) if self.is_removed() => self.leave_removed(&mut socket).await,
                    Ok(()) => Flow::Continue,
                    Err(_) => Flow::Close,
                },
                change = published.recv() => match change {
                    Ok(change) => self.forward(&mut socket, &change).await,
                    // Too slow for the broadcast: catch up from the log instead.
                    Err(RecvError::Lagged(_)) => self.sync(&mut socket, false).await,
                    Err(RecvError::Closed) => Flow::Close,
                },
                () = crate::stopped(&mut shutdown) => {
                    farewell = (1001, Utf8Bytes::from_static("the server is restarting"));
                    Flow::Close
                }
            };
            if let Flow::Close = flow {
                break;
            }
            // What the room published meanwhile goes out in the same write: the actor's
            // `done` and the `update` of its action (published before the answer) leave as
            // one segment, a fifth fewer writes (and wake-ups of the page) per action.
            if let Flow::Close = self.forward_ready(&mut socket, &mut published).await {
                break;
            }
            if socket.flush().await.is_err() {
                break;
            }
        }
        if self.is_removed() {
            farewell = (1008, Utf8Bytes::from_static("removed"));
        }
        close(socket, farewell.0, farewell.1).await;
        metrics.sockets_open.dec();
        let _ = self
            .room
            .send(Request::Presence {
                viewer: self.viewer,
                device: self.device.clone(),
                delta: -1,
            })
            .await;
    }

    async fn incoming(&mut self, socket: &mut WebSocket, text: &str) -> Flow {
        if text.len() > limits::MESSAGE_BYTES {
            let message = format!(
                "That message is too large ({} KiB); the limit is {} KiB.",
                text.len() / 1024,
                limits::MESSAGE_BYTES / 1024
            );
            return send(
                socket,
                json!({"type": "error", "req": null, "message": message}),
            )
            .await;
        }
        let message = match understand(text) {
            Ok(message) => message,
            Err((req, message)) => {
                self.state.metrics.action(Outcome::Malformed);
                return send(
                    socket,
                    json!({"type": "error", "req": req, "message": message}),
                )
                .await;
            }
        };
        // One budget for everything the seat's sockets send (a watcher's: everything its
        // address's watching pages send); a `hello` costs more, since it is answered with the
        // whole table.
        let cost = match message {
            Incoming::Hello { .. } | Incoming::Log { .. } => limits::HELLO_COST,
            _ => 1,
        };
        let (spent, whose) = match self.viewer {
            Viewer::Player(_) => (self.state.seat_messages.spend(&self.key, cost), "your seat"),
            Viewer::Watcher => (
                self.state.watcher_messages.spend(&self.address, cost),
                "watching, your address",
            ),
        };
        if let Err(wait) = spent {
            self.state.metrics.limited("seat_messages");
            let req = match &message {
                Incoming::Act { req, .. } | Incoming::Log { req, .. } => req.clone(),
                _ => Value::Null,
            };
            let rate = self.state.limits.seat_messages_per_second;
            let message = format!(
                "Too fast: {whose} may send {rate} {} a second. Try again {}.",
                if rate == 1 { "message" } else { "messages" },
                crate::limit::wait_words(wait)
            );
            return send(
                socket,
                json!({"type": "error", "req": req, "message": message}),
            )
            .await;
        }
        match message {
            Incoming::Hello { since } => {
                self.greeted = true;
                self.seq = since;
                self.sync(socket, true).await
            }
            Incoming::Ping => send(socket, json!({"type": "pong"})).await,
            // The page has no view to act on yet, and the server no `since` to answer from.
            Incoming::Act { req, .. } | Incoming::Log { req, .. } if !self.greeted => {
                let message = "Say hello first: the table is sent before anything else.";
                send(
                    socket,
                    json!({"type": "error", "req": req, "message": message}),
                )
                .await
            }
            Incoming::Log { req, before } => self.older_lines(socket, req, before).await,
            Incoming::Act { req, .. } if self.viewer == Viewer::Watcher => {
                self.state.metrics.action(Outcome::Malformed);
                let message = "You are watching this table: only its players can act.";
                send(
                    socket,
                    json!({"type": "error", "req": req, "message": message}),
                )
                .await
            }
            Incoming::Act { req, mut action } => {
                let Viewer::Player(player) = self.viewer else {
                    unreachable!("a watcher's action is answered above")
                };
                // Whatever a text does with direction stays inside it, and it is stored in
                // one Unicode form.
                crate::text::clean_action(&mut action);
                let (reply, answer) = oneshot::channel();
                if !self
                    .room
                    .send(Request::Act {
                        player,
                        address: self.address,
                        action,
                        reply,
                    })
                    .await
                {
                    return Flow::Close;
                }
                let metrics = &self.state.metrics;
                let answer = match answer.await {
                    Ok(Ok(seq)) => {
                        metrics.action(Outcome::Accepted);
                        json!({"type": "done", "req": req, "seq": seq})
                    }
                    Ok(Err(Rejection::Refused {
                        code,
                        rule,
                        message,
                    })) => {
                        metrics.action(Outcome::Refused);
                        json!({"type": "refused", "req": req, "code": code, "rule": rule, "message": message})
                    }
                    Ok(Err(Rejection::Malformed(message))) => {
                        metrics.action(Outcome::Malformed);
                        json!({"type": "error", "req": req, "message": message})
                    }
                    Err(_) => return Flow::Close,
                };
                send(socket, answer).await
            }
        }
    }

    async fn forward(&mut self, socket: &mut WebSocket, change: &Published) -> Flow {
        // Checked before each message, not only when the removal is heard: a socket that was
        // slow to write finds the removal and what came after it waiting together.
        if self.is_removed() {
            return self.leave_removed(socket).await;
        }
        // Before its `hello` a page has no view: its `sync` will bring everything.
        if !self.greeted {
            return Flow::Continue;
        }
        if let Some(code) = &self.watch_code
            && change.links
        {
            // A watcher has no use for the players' links, only for its own.
            if crate::http::still_watched(&self.state, code, &self.key.0).await {
                return Flow::Continue;
            }
            let message = "The watch link was closed: this table cannot be watched any more.";
            let _ = send(socket, json!({"type": "closed", "message": message})).await;
            return Flow::Close;
        }
        if let Some(message) = &change.everyone {
            return send_text(socket, message).await;
        }
        let update = match self.viewer {
            Viewer::Player(_) => &change.update,
            Viewer::Watcher => &change.watch,
        };
        match update {
            Some(message) if change.seq > self.seq => {
                self.seq = change.seq;
                if let Flow::Close = send_text(socket, message).await {
                    return Flow::Close;
                }
                Metrics::observe(&self.state.metrics.broadcast_seconds, change.at.elapsed());
                // A watcher has no `own`.
                let Viewer::Player(player) = self.viewer else {
                    return Flow::Continue;
                };
                match change.own.get(&player) {
                    Some(own) if self.own.as_ref() != Some(own) => {
                        self.own = Some(own.clone());
                        send_text(socket, own).await
                    }
                    _ => Flow::Continue,
                }
            }
            _ => Flow::Continue,
        }
    }

    /// Forwards what the room has already published, without waiting for more.
    async fn forward_ready(
        &mut self,
        socket: &mut WebSocket,
        published: &mut tokio::sync::broadcast::Receiver<Arc<Published>>,
    ) -> Flow {
        loop {
            let flow = match published.try_recv() {
                Ok(change) => self.forward(socket, &change).await,
                Err(TryRecvError::Lagged(_)) => self.sync(socket, false).await,
                Err(TryRecvError::Empty) => return Flow::Continue,
                Err(TryRecvError::Closed) => Flow::Close,
            };
            if let Flow::Close = flow {
                return Flow::Close;
            }
        }
    }

    /// Sends the whole view and the end of the log: the page `asked` (hello), or fell behind.
    /// What a page asks for is charged to its address.
    async fn sync(&mut self, socket: &mut WebSocket, asked: bool) -> Flow {
        let (reply, answer) = oneshot::channel();
        if !self
            .room
            .send(Request::Sync {
                viewer: self.viewer,
                since: self.seq,
                reply,
            })
            .await
        {
            return Flow::Close;
        }
        match answer.await {
            Ok(Some((seq, message, own))) => {
                if asked && let Err(refusal) = self.charge(message.len()).await {
                    // Without its view the page cannot go on: it reconnects after a while.
                    let _ = send(
                        socket,
                        json!({"type": "error", "req": null, "message": refusal}),
                    )
                    .await;
                    return Flow::Close;
                }
                self.seq = seq;
                self.own = (self.viewer != Viewer::Watcher).then_some(own);
                if let Flow::Close = send_text(socket, &message).await {
                    return Flow::Close;
                }
                match self.device_notice.take() {
                    Some(seats) => send_text(socket, &seats).await,
                    None => Flow::Continue,
                }
            }
            Ok(None) => {
                let _ = send(socket, removed_notice()).await;
                Flow::Close
            }
            Err(_) => Flow::Close,
        }
    }
}

impl<S: Store> Connection<S> {
    /// Older log lines than the page shows, on its request.
    async fn older_lines(&mut self, socket: &mut WebSocket, req: Value, before: u64) -> Flow {
        let (reply, answer) = oneshot::channel();
        let asked = Request::LogPage {
            viewer: self.viewer,
            before,
            reply,
        };
        if !self.room.send(asked).await {
            return Flow::Close;
        }
        let page = match answer.await {
            Ok(Some(page)) => page,
            Ok(None) => return self.leave_removed(socket).await,
            Err(_) => return Flow::Close,
        };
        let message = json!({"type": "log", "req": req, "log": page.log, "older": page.older});
        let text = message.to_string();
        match self.charge(text.len()).await {
            Ok(()) => send_text(socket, &text).await,
            Err(refusal) => {
                send(
                    socket,
                    json!({"type": "error", "req": req, "message": refusal}),
                )
                .await
            }
        }
    }

    /// Spends `bytes` of the address's budget for what its pages are sent whole, or says why
    /// not.
    async fn charge(&self, bytes: usize) -> Result<(), String> {
        let kib = u32::try_from(bytes.div_ceil(1024)).unwrap_or(u32::MAX);
        let spent = self
            .state
            .synced_by_address
            .spend(&self.state.store, self.address, kib);
        let wait = match spent.await {
            Ok(()) => return Ok(()),
            Err(crate::limit::Refused::Until(wait)) => wait,
            Err(crate::limit::Refused::Unchecked) => return Err(crate::limit::UNCHECKED.into()),
        };
        self.state.metrics.limited("address_sync_bytes");
        Err(format!(
            "Too many whole tables sent to your address: at most {} a minute. The page tries again {}.",
            crate::limit::kib_words(self.state.limits.sync_kib_per_minute),
            crate::limit::wait_words(wait)
        ))
    }

    fn is_removed(&self) -> bool {
        match self.viewer {
            Viewer::Player(player) => self.removed.borrow().contains(&player),
            Viewer::Watcher => false,
        }
    }

    /// Tells a removed player's page, which then hears nothing more.
    async fn leave_removed(&mut self, socket: &mut WebSocket) -> Flow {
        let _ = send(socket, removed_notice()).await;
        Flow::Close
    }
}

/// How long a closing socket may take to answer the close frame.
const CLOSING: std::time::Duration = std::time::Duration::from_secs(2);

/// Ends a socket with the closing handshake: the last messages and the close frame, then what
/// the page still sends is read and dropped until its own close frame. (Dropping a connection
/// with messages unread makes the kernel reset it, and the page may lose the last notice.)
async fn close(mut socket: WebSocket, code: u16, reason: Utf8Bytes) {
    // Bounded as a whole: a page that reads nothing cannot hold the socket with its close.
    let _ = tokio::time::timeout(CLOSING, async {
        let frame = CloseFrame { code, reason };
        if socket.send(Message::Close(Some(frame))).await.is_err() {
            return;
        }
        while let Some(Ok(message)) = socket.recv().await {
            if let Message::Close(_) = message {
                break;
            }
        }
    })
    .await;
}

fn removed_notice() -> Value {
    json!({"type": "removed", "message": "You were removed from this table."})
}

async fn send(socket: &mut WebSocket, message: Value) -> Flow {
    send_text(socket, &message.to_string()).await
}

/// Queues a message: the connection's loop flushes once it has nothing more ready to send.
async fn send_text(socket: &mut WebSocket, text: &str) -> Flow {
    match socket.feed(Message::Text(Utf8Bytes::from(text))).await {
        Ok(()) => Flow::Continue,
        Err(_) => Flow::Close,
    }
}
