//! Accepting connections: at most `max_connections` open at once (below the open-file limit,
//! so the server can always accept its next player once others leave), a deadline for a
//! request's headers that also closes idle keep-alive connections, and each request told
//! which address it came from.

use crate::Limits;
use crate::metrics::Metrics;
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::io;
use std::net::SocketAddr;
use std::pin::{Pin, pin};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore, watch};

/// Where a request came from and which of the server's addresses it reached. Handlers find it
/// among the request's extensions.
#[derive(Debug, Clone, Copy)]
pub struct Peer {
    /// The other end of the TCP connection (a proxy's, behind one).
    pub remote: SocketAddr,
    /// The server's address the client connected to: links and QR codes use it when no
    /// `--url` is given, never the request's Host header, which the client chooses.
    pub local: SocketAddr,
}

/// Largest buffer for a request's head (headers), in bytes.
const HEAD_BYTES: usize = 32 * 1024;
/// How long a connection turned away may take to read why.
const TURN_AWAY: Duration = Duration::from_secs(1);
/// At most this many connections are being turned away at once (each holds a file).
const TURNING_AWAY: usize = 64;
/// How long the server waits for connections to close when it stops.
const CLOSING: Duration = Duration::from_secs(5);

/// Serves `router` on `listener` until `stop` resolves; then calls `closing` (which tells the
/// sockets to close), stops accepting, and waits a little for open connections to finish.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: &Limits,
    metrics: Arc<Metrics>,
    stop: impl Future<Output = ()>,
    closing: impl FnOnce(),
) {
    let max = limits.max_connections.clamp(1, Semaphore::MAX_PERMITS);
    let permits = Arc::new(Semaphore::new(max));
    let turning_away = Arc::new(Semaphore::new(TURNING_AWAY));
    let (finish, finishing) = watch::channel(false);
    let mut stop = pin!(stop);
    loop {
        let (tcp, remote) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    // Out of files or memory for a moment: wait rather than spin.
                    tracing::warn!("cannot accept a connection: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut stop => break,
        };
        // Without TCP_NODELAY a page that gets two messages in a row waits for its delayed ack
        // (about 40 ms on Linux) before the second: measured by the load generator.
        let _ = tcp.set_nodelay(true);
        let Ok(permit) = permits.clone().try_acquire_owned() else {
            metrics.connections_refused.inc();
            // Turning away costs a file for up to a second: past a few dozen at once, drop.
            if let Ok(place) = turning_away.clone().try_acquire_owned() {
                tokio::spawn(turn_away(tcp, place));
            }
            continue;
        };
        let Ok(local) = tcp.local_addr() else {
            continue;
        };
        let peer = Peer { remote, local };
        let router = router.clone();
        let finishing = finishing.clone();
        let metrics = metrics.clone();
        let idle = limits.http_idle;
        tokio::spawn(async move {
            metrics.connections_open.inc();
            connection(
                Counted {
                    tcp,
                    _permit: permit,
                    metrics: metrics.clone(),
                },
                peer,
                router,
                idle,
                finishing,
            )
            .await;
        });
    }
    closing();
    let _ = finish.send(true);
    // Every permit back means every connection (upgraded sockets included) has closed.
    let all = u32::try_from(max).unwrap_or(u32::MAX);
    let _ = tokio::time::timeout(CLOSING, permits.acquire_many(all)).await;
}

/// One connection: HTTP/1.1 requests until it closes, goes idle, or upgrades to a WebSocket
/// (which then carries the connection's permit with it).
async fn connection(
    io: Counted,
    peer: Peer,
    router: Router,
    idle: Duration,
    mut finishing: watch::Receiver<bool>,
) {
    let service = hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
        request.extensions_mut().insert(peer);
        let mut router = router.clone();
        async move { tower_service::Service::call(&mut router, request).await }
    });
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(idle)
        .max_buf_size(HEAD_BYTES);
    let mut conn = pin!(
        builder
            .serve_connection(TokioIo::new(io), service)
            .with_upgrades()
    );
    tokio::select! {
        served = conn.as_mut() => {
            if let Err(e) = served {
                tracing::debug!("connection from {}: {e}", peer.remote);
            }
        }
        () = crate::stopped(&mut finishing) => {
            conn.as_mut().graceful_shutdown();
            let _ = tokio::time::timeout(CLOSING, conn).await;
        }
    }
}

/// Answers a connection the server has no room for, then closes it.
async fn turn_away(mut tcp: TcpStream, _place: OwnedSemaphorePermit) {
    const WHY: &str = "The server is full right now. Try again in a little while.\n";
    let answer = format!(
        "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\nRetry-After: 10\r\nConnection: close\r\nContent-Length: {}\r\n\r\n{WHY}",
        WHY.len()
    );
    let _ = tokio::time::timeout(TURN_AWAY, async {
        tcp.write_all(answer.as_bytes()).await?;
        tcp.shutdown().await?;
        // Closing with the request still unread would reset the connection, and the client
        // would lose the answer: read what it sent (a little, briefly) first.
        let mut sink = [0u8; 1024];
        let mut left = 16 * 1024;
        while left > 0 {
            match tcp.read(&mut sink).await? {
                0 => break,
                n => left -= n.min(left),
            }
        }
        io::Result::Ok(())
    })
    .await;
}

/// A connection that holds its place under the cap for as long as it is open, through a
/// WebSocket upgrade too.
struct Counted {
    tcp: TcpStream,
    _permit: OwnedSemaphorePermit,
    metrics: Arc<Metrics>,
}

impl Drop for Counted {
    fn drop(&mut self) {
        self.metrics.connections_open.dec();
    }
}

impl AsyncRead for Counted {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.tcp).poll_read(cx, buf)
    }
}

impl AsyncWrite for Counted {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.tcp).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.tcp).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.tcp.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.tcp).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.tcp).poll_shutdown(cx)
    }
}
