//! Accepting connections: at most `max_connections` open at once (below the open-file limit,
//! so the server can always accept its next player once others leave) and at most
//! `connections_per_address` from one client address, so one address cannot take every place;
//! deadlines for a request's headers (which also close idle keep-alive connections), its body
//! and its answer, and for a client that takes nothing the server writes; and each request
//! told which address it came from.

use crate::Limits;
use crate::limit::{Peer, Place, Places, address_key};
use crate::metrics::Metrics;
use axum::body::{Body, Bytes};
use axum::{BoxError, Router};
use hyper::body::{Frame, Incoming, SizeHint};
use hyper::header::{CONNECTION, CONTENT_TYPE, RETRY_AFTER};
use hyper::{Response, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use std::convert::Infallible;
use std::io;
use std::net::IpAddr;
use std::pin::{Pin, pin};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore, watch};
use tokio::time::{Instant, Sleep};

/// Largest buffer for a request's head (headers), in bytes.
const HEAD_BYTES: usize = 32 * 1024;
/// How long a connection turned away may take to read why.
const TURN_AWAY: Duration = Duration::from_secs(1);
/// At most this many connections are being turned away at once (each holds a file).
const TURNING_AWAY: usize = 64;
/// How long the server waits for connections to close when it stops.
const CLOSING: Duration = Duration::from_secs(5);
/// What a turned-away client is told to wait, in seconds.
const RETRY_SECONDS: u32 = 10;

/// The deadlines of each request, and the figures that count the requests cut short.
struct Deadlines {
    request_body: Duration,
    request_time: Duration,
    write_stall: Duration,
    metrics: Arc<Metrics>,
}

/// Serves `router` on `listener` until `stop` resolves; then calls `closing` (which tells the
/// sockets to close), stops accepting, and waits a little for open connections to finish.
/// Behind a trusted proxy every connection comes from the proxy, so none is counted by address.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: &Limits,
    trust_proxy: bool,
    metrics: Arc<Metrics>,
    stop: impl Future<Output = ()>,
    closing: impl FnOnce(),
) {
    let max = limits.max_connections.clamp(1, Semaphore::MAX_PERMITS);
    let permits = Arc::new(Semaphore::new(max));
    let per_address = limits.connections_per_address.max(1);
    let addresses = (!trust_proxy).then(|| Arc::new(Places::<IpAddr>::default()));
    let turning_away = Arc::new(Semaphore::new(TURNING_AWAY));
    let full = refusal(
        "503 Service Unavailable",
        "The server is full right now. Try again in a little while.",
    );
    let too_many = refusal(
        "429 Too Many Requests",
        &format!(
            "Too many connections from your address: at most {per_address} at once. Close a page or two and try again."
        ),
    );
    let deadlines = Arc::new(Deadlines {
        request_body: limits.request_body,
        request_time: limits.request_time,
        write_stall: limits.write_stall,
        metrics: metrics.clone(),
    });
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
        // The address's own cap first: a client past it hears that it is the one to blame.
        let address = match &addresses {
            Some(addresses) => match addresses.open(address_key(remote.ip()), per_address) {
                Some(place) => Some(place),
                None => {
                    metrics.refused("per_address");
                    turn_away(tcp, &turning_away, &too_many);
                    continue;
                }
            },
            None => None,
        };
        let Ok(permit) = permits.clone().try_acquire_owned() else {
            metrics.refused("full");
            turn_away(tcp, &turning_away, &full);
            continue;
        };
        let Ok(local) = tcp.local_addr() else {
            continue;
        };
        let peer = Peer { remote, local };
        let router = router.clone();
        let finishing = finishing.clone();
        let deadlines = deadlines.clone();
        let idle = limits.http_idle;
        tokio::spawn(async move {
            deadlines.metrics.connections_open.inc();
            let counted = Counted {
                tcp,
                _permit: permit,
                _address: address,
                metrics: deadlines.metrics.clone(),
                write_stall: deadlines.write_stall,
                stalled: None,
            };
            connection(counted, peer, router, idle, deadlines, finishing).await;
        });
    }
    closing();
    let _ = finish.send(true);
    // Every permit back means every connection (upgraded sockets included) has closed.
    let all = u32::try_from(max).unwrap_or(u32::MAX);
    let _ = tokio::time::timeout(CLOSING, permits.acquire_many(all)).await;
}

/// One connection: HTTP/1.1 requests until it closes, goes idle, or upgrades to a WebSocket
/// (which then carries the connection's places with it).
async fn connection(
    io: Counted,
    peer: Peer,
    router: Router,
    idle: Duration,
    deadlines: Arc<Deadlines>,
    mut finishing: watch::Receiver<bool>,
) {
    let service = hyper::service::service_fn(move |request: hyper::Request<Incoming>| {
        answer(request, peer, router.clone(), deadlines.clone())
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

/// One request, within its deadlines. One past a deadline is answered with why, and the
/// connection closes: dropping the request's body unread makes hyper stop reading it.
async fn answer(
    mut request: hyper::Request<Incoming>,
    peer: Peer,
    mut router: Router,
    deadlines: Arc<Deadlines>,
) -> Result<Response<Body>, Infallible> {
    request.extensions_mut().insert(peer);
    let method = request.method().clone();
    let late = Arc::new(AtomicBool::new(false));
    let by = Instant::now() + deadlines.request_body;
    let request = request.map(|body| BodyBy {
        body,
        by,
        timer: None,
        late: late.clone(),
    });
    let answered = tokio::time::timeout(
        deadlines.request_time,
        tower_service::Service::call(&mut router, request),
    )
    .await;
    if late.load(Ordering::Relaxed) {
        deadlines.metrics.timed_out("request_body");
        let why = format!(
            "The request's body did not arrive within {}.",
            seconds(deadlines.request_body)
        );
        tracing::info!("{method} cut short with 408: {why}");
        return Ok(closing(StatusCode::REQUEST_TIMEOUT, &why));
    }
    match answered {
        Ok(answer) => answer,
        Err(_) => {
            deadlines.metrics.timed_out("request_time");
            let why = format!(
                "The server took more than {} to answer. Try again in a little while.",
                seconds(deadlines.request_time)
            );
            tracing::info!("{method} cut short with 503: {why}");
            Ok(closing(StatusCode::SERVICE_UNAVAILABLE, &why))
        }
    }
}

/// "10 s", "0.3 s".
fn seconds(duration: Duration) -> String {
    format!("{} s", duration.as_secs_f64())
}

/// A one-line plain answer, after which the connection closes.
fn closing(status: StatusCode, why: &str) -> Response<Body> {
    let mut response = Response::new(Body::from(format!("{why}\n")));
    *response.status_mut() = status;
    let headers = response.headers_mut();
    headers.insert(
        CONTENT_TYPE,
        hyper::header::HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    headers.insert(CONNECTION, hyper::header::HeaderValue::from_static("close"));
    headers.insert(RETRY_AFTER, RETRY_SECONDS.into());
    response
}

/// A request's body that must arrive whole by `by`; past it, reading it fails and `late` says
/// why.
struct BodyBy {
    body: Incoming,
    by: Instant,
    /// Made only if the body is not all there at once (most bodies come with their headers).
    timer: Option<Pin<Box<Sleep>>>,
    late: Arc<AtomicBool>,
}

impl hyper::body::Body for BodyBy {
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        let this = &mut *self;
        if let Poll::Ready(frame) = Pin::new(&mut this.body).poll_frame(cx) {
            return Poll::Ready(frame.map(|frame| frame.map_err(BoxError::from)));
        }
        let by = this.by;
        let timer = this
            .timer
            .get_or_insert_with(|| Box::pin(tokio::time::sleep_until(by)));
        if timer.as_mut().poll(cx).is_ready() {
            this.late.store(true, Ordering::Relaxed);
            return Poll::Ready(Some(
                Err("the request's body did not arrive in time".into()),
            ));
        }
        Poll::Pending
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

/// The whole answer to a connection turned away: a status and one line.
fn refusal(status: &str, why: &str) -> Arc<str> {
    let why = format!("{why}\n");
    Arc::from(format!(
        "HTTP/1.1 {status}\r\nContent-Type: text/plain; charset=utf-8\r\nRetry-After: {RETRY_SECONDS}\r\nConnection: close\r\nContent-Length: {}\r\n\r\n{why}",
        why.len()
    ))
}

/// Tells a connection the server will not serve why, then closes it; past a few dozen being
/// turned away at once (each costs a file for up to a second), just closes it.
fn turn_away(tcp: TcpStream, turning_away: &Arc<Semaphore>, answer: &Arc<str>) {
    if let Ok(place) = turning_away.clone().try_acquire_owned() {
        tokio::spawn(say_why(tcp, place, answer.clone()));
    }
}

/// Writes `answer`, then closes the connection.
async fn say_why(mut tcp: TcpStream, _place: OwnedSemaphorePermit, answer: Arc<str>) {
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

/// A connection that holds its places under the caps for as long as it is open, through a
/// WebSocket upgrade too; a write that makes no progress for `write_stall` fails, and so
/// closes it (a client that reads nothing would otherwise hold it for ever).
struct Counted {
    tcp: TcpStream,
    _permit: OwnedSemaphorePermit,
    /// Its place under its address's cap (none behind a trusted proxy).
    _address: Option<Place<IpAddr>>,
    metrics: Arc<Metrics>,
    write_stall: Duration,
    /// Running while a write waits for the client to take what it was sent.
    stalled: Option<Pin<Box<Sleep>>>,
}

impl Counted {
    /// `polled` from a write: a write kept waiting past `write_stall` fails.
    fn unless_stalled<T>(
        &mut self,
        cx: &mut Context<'_>,
        polled: Poll<io::Result<T>>,
    ) -> Poll<io::Result<T>> {
        if polled.is_ready() {
            self.stalled = None;
            return polled;
        }
        let limit = self.write_stall;
        let stalled = self
            .stalled
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(limit)));
        if stalled.as_mut().poll(cx).is_ready() {
            self.metrics.timed_out("write_stall");
            return Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the client took nothing the server wrote",
            )));
        }
        Poll::Pending
    }
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
        let polled = Pin::new(&mut self.tcp).poll_write(cx, buf);
        self.unless_stalled(cx, polled)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let polled = Pin::new(&mut self.tcp).poll_write_vectored(cx, bufs);
        self.unless_stalled(cx, polled)
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
