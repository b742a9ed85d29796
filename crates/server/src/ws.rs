//! One WebSocket per open page: requests in, views out. A socket that falls behind the room's
//! broadcast is resynced from the log rather than dropped.

use crate::game::Rejection;
use crate::http::{failure, seated};
use crate::room::{Published, Request, RoomHandle};
use crate::{AppState, limits};
use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::Instant;
use store::Store;
use tokio::sync::broadcast::error::RecvError;
use tokio::sync::oneshot;

/// Accepts the upgrade for a seated player whose page comes from this server.
pub async fn upgrade<S: Store>(
    State(state): State<Arc<AppState<S>>>,
    Path(token): Path<String>,
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
    let seat = match seated(&state, &token, &headers).await {
        Ok(Some(seat)) => seat,
        Ok(None) => {
            return failure(
                StatusCode::UNAUTHORIZED,
                true,
                "You have no seat at this table: join first.",
            );
        }
        Err(e) => return failure(StatusCode::INTERNAL_SERVER_ERROR, true, &e),
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
    let shutdown = state.shutdown.clone();
    upgrade
        // Past the hard cap the socket closes (memory); up to it, an oversized message is
        // answered with an error and the connection stays open.
        .max_message_size(limits::HARD_MESSAGE_BYTES)
        .max_frame_size(limits::HARD_MESSAGE_BYTES)
        .on_upgrade(move |socket| {
            Connection {
                room,
                player: seat.player,
                seq: 0,
                greeted: false,
                own: None,
                bucket: Bucket::new(),
            }
            .run(socket, shutdown)
        })
        .into_response()
}

/// Messages from the page.
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Incoming {
    Hello {
        #[serde(default)]
        since: u64,
    },
    Act {
        req: Value,
        action: Value,
    },
    Ping,
}

/// A token bucket: on average `REQUESTS_PER_SECOND`, bursts of `REQUEST_BURST`.
struct Bucket {
    tokens: f64,
    last: Instant,
}

impl Bucket {
    fn new() -> Bucket {
        Bucket {
            tokens: 20.0,
            last: Instant::now(),
        }
    }

    fn take(&mut self) -> bool {
        let now = Instant::now();
        let refill = now.duration_since(self.last).as_secs_f64() * 10.0;
        self.tokens = (self.tokens + refill).min(20.0);
        self.last = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

struct Connection {
    room: RoomHandle,
    player: u32,
    /// The last event number this page was sent.
    seq: u64,
    /// The page said `hello` (and so was sent a `sync`).
    greeted: bool,
    /// The last `own` message this page was sent, so an unchanged one is not sent again.
    own: Option<Arc<str>>,
    bucket: Bucket,
}

enum Flow {
    Continue,
    Close,
}

impl Connection {
    async fn run(
        mut self,
        mut socket: WebSocket,
        mut shutdown: tokio::sync::watch::Receiver<bool>,
    ) {
        let mut published = self.room.subscribe();
        let mut removed = self.room.removed();
        if removed.borrow_and_update().contains(&self.player) {
            let _ = send(&mut socket, removed_notice()).await;
            return;
        }
        if !self
            .room
            .send(Request::Presence {
                player: self.player,
                delta: 1,
            })
            .await
        {
            return;
        }
        loop {
            let flow = tokio::select! {
                incoming = socket.recv() => match incoming {
                    Some(Ok(Message::Text(text))) => self.incoming(&mut socket, text.as_str()).await,
                    Some(Ok(Message::Binary(_))) => send(&mut socket, json!({"type": "error", "req": null, "message": "messages are JSON text"})).await,
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => Flow::Close,
                    Some(Ok(_)) => Flow::Continue,
                },
                changed = removed.changed() => match changed {
                    Ok(()) if removed.borrow_and_update().contains(&self.player) => {
                        let _ = send(&mut socket, removed_notice()).await;
                        Flow::Close
                    }
                    Ok(()) => Flow::Continue,
                    Err(_) => Flow::Close,
                },
                change = published.recv() => match change {
                    Ok(change) => self.forward(&mut socket, &change).await,
                    // Too slow for the broadcast: catch up from the log instead.
                    Err(RecvError::Lagged(_)) => self.sync(&mut socket).await,
                    Err(RecvError::Closed) => Flow::Close,
                },
                () = stopped(&mut shutdown) => {
                    let _ = socket.send(Message::Close(Some(CloseFrame { code: 1001, reason: Utf8Bytes::from_static("the server is restarting") }))).await;
                    Flow::Close
                }
            };
            if let Flow::Close = flow {
                break;
            }
        }
        let _ = self
            .room
            .send(Request::Presence {
                player: self.player,
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
        let message: Incoming = match serde_json::from_str(text) {
            Ok(message) => message,
            Err(e) => {
                let req = serde_json::from_str::<Value>(text)
                    .ok()
                    .and_then(|v| v.get("req").cloned())
                    .unwrap_or(Value::Null);
                return send(socket, json!({"type": "error", "req": req, "message": format!("not a message this table understands: {e}")})).await;
            }
        };
        match message {
            Incoming::Hello { since } => {
                self.greeted = true;
                self.seq = since;
                self.sync(socket).await
            }
            Incoming::Ping => send(socket, json!({"type": "pong"})).await,
            Incoming::Act { req, action } => {
                if !self.bucket.take() {
                    return send(socket, json!({"type": "error", "req": req, "message": format!("Too fast: at most {} actions a second. Wait a moment and try again.", 10)})).await;
                }
                let (reply, answer) = oneshot::channel();
                if !self
                    .room
                    .send(Request::Act {
                        player: self.player,
                        action,
                        reply,
                    })
                    .await
                {
                    return Flow::Close;
                }
                let answer = match answer.await {
                    Ok(Ok(seq)) => json!({"type": "done", "req": req, "seq": seq}),
                    Ok(Err(Rejection::Refused {
                        code,
                        rule,
                        message,
                    })) => {
                        json!({"type": "refused", "req": req, "code": code, "rule": rule, "message": message})
                    }
                    Ok(Err(Rejection::Malformed(message))) => {
                        json!({"type": "error", "req": req, "message": message})
                    }
                    Err(_) => return Flow::Close,
                };
                send(socket, answer).await
            }
        }
    }

    async fn forward(&mut self, socket: &mut WebSocket, change: &Published) -> Flow {
        // Before its `hello` a page has no view: its `sync` will bring everything.
        if !self.greeted {
            return Flow::Continue;
        }
        if let Some(message) = &change.everyone {
            return send_text(socket, message).await;
        }
        match &change.update {
            Some(message) if change.seq > self.seq => {
                self.seq = change.seq;
                if let Flow::Close = send_text(socket, message).await {
                    return Flow::Close;
                }
                match change.own.get(&self.player) {
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

    async fn sync(&mut self, socket: &mut WebSocket) -> Flow {
        let (reply, answer) = oneshot::channel();
        if !self
            .room
            .send(Request::Sync {
                player: self.player,
                since: self.seq,
                reply,
            })
            .await
        {
            return Flow::Close;
        }
        match answer.await {
            Ok(Some((seq, message, own))) => {
                self.seq = seq;
                self.own = Some(own);
                send_text(socket, &message).await
            }
            Ok(None) => {
                let _ = send(socket, removed_notice()).await;
                Flow::Close
            }
            Err(_) => Flow::Close,
        }
    }
}

fn removed_notice() -> Value {
    json!({"type": "removed", "message": "You were removed from this table."})
}

/// Resolves once the server starts shutting down.
async fn stopped(shutdown: &mut tokio::sync::watch::Receiver<bool>) {
    // The guard `wait_for` returns is not `Send`: drop it here, inside.
    let _ = shutdown.wait_for(|stop| *stop).await.map(|_| ());
}

async fn send(socket: &mut WebSocket, message: Value) -> Flow {
    send_text(socket, &message.to_string()).await
}

async fn send_text(socket: &mut WebSocket, text: &str) -> Flow {
    match socket.send(Message::Text(Utf8Bytes::from(text))).await {
        Ok(()) => Flow::Continue,
        Err(_) => Flow::Close,
    }
}
