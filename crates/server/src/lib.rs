//! The live web table, `prophecy serve`: tables reached by an unguessable link, seats
//! recognised by a secret cookie, one authoritative room per table, and one WebSocket per
//! player (see PROTOCOL.md).
//!
//! - [`game`]: what the table layer needs from a game; [`games`] adapts each rules crate.
//! - `room`: the per-table task that decides, commits to the store, then broadcasts.
//! - `http`: pages, table creation, joining, export; `ws`: the sockets.
//!
//! Only this crate and `store` know tokio, SQL and the wire format.

pub mod assets;
mod backups;
mod device;
pub mod game;
pub mod games;
mod http;
mod limit;
mod listen;
pub mod metrics;
pub mod patch;
pub mod replay;
mod room;
mod text;
mod ws;

pub use backups::{backup, copy_to_postgres, verify};
use room::RoomHandle;
use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use store::{PgStore, SqliteStore, Store};
use tokio::sync::{Mutex, watch};

/// Where the tables are kept: a SQLite file (the default), or a PostgreSQL database that
/// several servers may share.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Database {
    /// The SQLite file (`--db prophecy.db`).
    File(PathBuf),
    /// A PostgreSQL address (`--db postgres://USER@HOST:PORT/DB`).
    Postgres(String),
}

impl std::fmt::Display for Database {
    /// The file, or the PostgreSQL database without its password.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Database::File(path) => write!(f, "{}", path.display()),
            Database::Postgres(url) => f.write_str(&store::postgres::describe(url)),
        }
    }
}

/// How to run the server.
#[derive(Debug, Clone)]
pub struct Config {
    /// Where to listen.
    pub addr: SocketAddr,
    /// Where the tables are kept.
    pub db: Database,
    /// The public address, bots, proxy and limits.
    pub options: Options,
    /// Serve `/metrics` on this address instead of the players' one (`--metrics-addr`).
    pub metrics_addr: Option<SocketAddr>,
    /// Rotating backups while serving (`--backup-every`, `--backup-dir`, `--backup-keep`).
    pub backups: Option<Backups>,
}

/// Rotating backups of the database while the server runs.
#[derive(Debug, Clone)]
pub struct Backups {
    /// How often.
    pub every: std::time::Duration,
    /// Where the copies go.
    pub dir: PathBuf,
    /// How many copies are kept (the oldest are removed).
    pub keep: usize,
}

/// How long a bot waits before each action unless told otherwise: long enough to follow on
/// the board, short enough that a turn of bots takes a few seconds.
pub const BOT_PAUSE: std::time::Duration = std::time::Duration::from_millis(600);

/// What a server needs besides its store and its listener.
#[derive(Debug, Clone)]
pub struct Options {
    /// The address players use (`--url`), for invitation links and QR codes.
    pub public_url: Option<String>,
    /// How long a bot waits before each action.
    pub bot_pause: std::time::Duration,
    /// Behind a reverse proxy: the client's address is the last one in `X-Forwarded-For`
    /// (`--trust-proxy`). Without it the header is ignored, so nobody can pose as many
    /// addresses to escape the limits.
    pub trust_proxy: bool,
    /// What a stranger may spend.
    pub limits: Limits,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            public_url: None,
            bot_pause: BOT_PAUSE,
            trust_proxy: false,
            limits: Limits::default(),
        }
    }
}

/// Limits on everything a stranger can spend, each answered with a clear message. The
/// defaults are listed in docs/deploy.md#limits; tests shorten the timeouts.
#[derive(Debug, Clone)]
pub struct Limits {
    /// Tables one client address may create per minute (also the burst).
    pub tables_per_minute: u32,
    /// Seats one client address may take per minute (also the burst).
    pub joins_per_minute: u32,
    /// Messages per second a seat's sockets may send together, `hello` and `ping` included…
    pub seat_messages_per_second: u32,
    /// …and in a burst.
    pub seat_message_burst: u32,
    /// Sockets one seat may hold open at once (tabs, devices).
    pub sockets_per_seat: u32,
    /// KiB of whole tables (`sync`, older log lines) the pages of one client address may ask
    /// for a minute (also the burst).
    pub sync_kib_per_minute: u32,
    /// KiB of events the actions of one client address may write a minute, across its tables
    /// and seats (also the burst).
    pub written_kib_per_minute: u32,
    /// Open connections (HTTP and WebSocket) at once; kept below the open-file limit.
    pub max_connections: usize,
    /// Open connections (HTTP and WebSocket) at once from one client address (the TCP peer;
    /// IPv6 by its /64). Not counted behind `--trust-proxy`, where the peer is the proxy.
    pub connections_per_address: u32,
    /// Time to send a request's headers, and how long an idle keep-alive connection stays.
    pub http_idle: std::time::Duration,
    /// Time a request's body has to arrive, from the end of its headers.
    pub request_body: std::time::Duration,
    /// Time from a request's headers to its answer (a WebSocket's: until it is upgraded).
    pub request_time: std::time::Duration,
    /// A connection that takes nothing the server writes to it for this long is closed.
    pub write_stall: std::time::Duration,
    /// How often the server pings each WebSocket.
    pub socket_ping: std::time::Duration,
    /// A WebSocket from which nothing at all (a pong, a message) arrived for this long is closed.
    pub socket_silence: std::time::Duration,
    /// Time a new socket has to say `hello`.
    pub hello_timeout: std::time::Duration,
    /// A table with no page open for this long is unloaded from memory (it reloads from the
    /// log on next use).
    pub room_idle: std::time::Duration,
    /// Events one table may hold.
    pub table_events: u64,
    /// Bytes of events one table may hold.
    pub table_bytes: u64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            tables_per_minute: 10,
            joins_per_minute: 30,
            seat_messages_per_second: 10,
            seat_message_burst: 20,
            sockets_per_seat: 8,
            sync_kib_per_minute: 16 * 1024,
            written_kib_per_minute: 512,
            max_connections: limits::max_connections(),
            connections_per_address: 128,
            http_idle: std::time::Duration::from_secs(20),
            request_body: std::time::Duration::from_secs(10),
            request_time: std::time::Duration::from_secs(30),
            write_stall: std::time::Duration::from_secs(60),
            socket_ping: std::time::Duration::from_secs(20),
            socket_silence: std::time::Duration::from_secs(60),
            hello_timeout: std::time::Duration::from_secs(10),
            room_idle: std::time::Duration::from_secs(5 * 60),
            table_events: 50_000,
            table_bytes: 16 * 1024 * 1024,
        }
    }
}

/// Fixed limits, and how the connection cap is found.
pub mod limits {
    /// The longest name a creator may give a table, in characters (Unicode scalar values,
    /// after NFC): a title that fits a line of the home page's list and a file name.
    pub const TABLE_NAME_CHARS: usize = 80;
    /// Largest WebSocket message and HTTP request body, in bytes.
    pub const MESSAGE_BYTES: usize = 16 * 1024;
    /// A WebSocket message past this closes the connection instead of being answered: what
    /// one socket can make the server hold while a message is in flight.
    pub const HARD_MESSAGE_BYTES: usize = 64 * 1024;
    /// A socket's read buffer to begin with (it grows for a large message and shrinks back),
    /// and what its writes gather before the flush sends them together.
    pub const SOCKET_BUFFER_BYTES: usize = 4 * 1024;
    /// What `hello` (or asking for older log lines) costs of a seat's budget, in messages: it
    /// is answered with the whole view and the end of the log.
    pub const HELLO_COST: u32 = 4;
    /// Log lines a `sync` carries (the newest), and a `log` answer (older ones, on request).
    pub const LOG_LINES: usize = 200;
    /// Watchers' sockets a table may have open at one server.
    pub const WATCHERS: u32 = 50;
    /// Seats one browser may hold at a table (pass the phone): the seat cookie's entries.
    pub const SEATS_PER_DEVICE: usize = 8;
    /// Files kept free of the open-file limit for the database, logs and backups.
    pub const SPARE_FILES: usize = 256;
    /// Connections at once when the open-file limit cannot be read.
    pub const FALLBACK_CONNECTIONS: usize = 1024;

    /// The most connections this process can hold without running out of files: its soft
    /// open-file limit (Linux: `/proc/self/limits`) less [`SPARE_FILES`].
    pub fn max_connections() -> usize {
        let files = std::fs::read_to_string("/proc/self/limits")
            .ok()
            .and_then(|limits| {
                limits
                    .lines()
                    .find(|line| line.starts_with("Max open files"))
                    .and_then(|line| line.split_whitespace().nth(3))
                    .and_then(|soft| soft.parse::<usize>().ok())
            });
        match files {
            Some(files) => files.saturating_sub(SPARE_FILES).max(16),
            None => FALLBACK_CONNECTIONS,
        }
    }
}

/// Shared by every handler.
pub struct AppState<S: Store> {
    store: S,
    /// Other servers write to the same store (it tells of their changes: PostgreSQL).
    shared_store: bool,
    rooms: Mutex<HashMap<String, Loaded>>,
    /// Turns true when the server is shutting down, so sockets close and the server can stop.
    shutdown: watch::Receiver<bool>,
    /// The address players use (`--url`), for invitation links and QR codes.
    public_url: Option<String>,
    /// How long a bot waits before each action.
    bot_pause: std::time::Duration,
    /// Whether `X-Forwarded-For` names the client (`--trust-proxy`).
    trust_proxy: bool,
    /// What a stranger may spend.
    limits: Limits,
    /// What `/metrics` reports.
    metrics: Arc<metrics::Metrics>,
    /// Tables created, per client address.
    tables_by_address: limit::AddressBudget,
    /// Seats taken, per client address.
    joins_by_address: limit::AddressBudget,
    /// Links that led nowhere (a wrong invitation code, an unknown table or published story),
    /// per client address: guesses are limited like joins, in a budget of their own so that
    /// they never use up the joins of people holding the right link.
    guesses_by_address: limit::AddressBudget,
    /// Messages from all of a seat's sockets together.
    seat_messages: limit::Budget<limit::SeatKey>,
    /// KiB of whole tables sent to the pages that asked, per client address.
    synced_by_address: limit::AddressBudget,
    /// Bytes of events written, per client address (in `room::WRITTEN_UNIT`s).
    written_by_address: Arc<limit::AddressBudget>,
    /// Sockets open per seat.
    seat_sockets: Arc<limit::SeatSockets>,
    /// Messages from all the watching pages of one client address.
    watcher_messages: limit::Budget<std::net::IpAddr>,
    /// Watchers' sockets open per table (keyed by the table's token and player 0).
    watch_sockets: Arc<limit::SeatSockets>,
}

/// A table's room in memory, and when it was last in use (held by a socket or a request).
struct Loaded {
    room: RoomHandle,
    /// The table's id in the store, which the store's notices name.
    table: store::TableId,
    used: tokio::time::Instant,
}

impl<S: Store> AppState<S> {
    /// Whether players reach the server over TLS (`--url https://…`): seat cookies are `Secure`.
    pub(crate) fn behind_tls(&self) -> bool {
        self.public_url
            .as_deref()
            .is_some_and(|u| u.starts_with("https://"))
    }

    /// State over a store; `shutdown` closes the sockets when it turns true.
    pub fn new(store: S, shutdown: watch::Receiver<bool>, options: Options) -> Arc<AppState<S>> {
        let limits = options.limits;
        // On a shared store the per-address budgets are the database's, for every server.
        let shared_store = store.changes().is_some();
        let by_address =
            |kind, per_minute| limit::AddressBudget::per_minute(kind, per_minute, shared_store);
        Arc::new(AppState {
            shared_store,
            store,
            rooms: Mutex::new(HashMap::new()),
            shutdown,
            public_url: options.public_url,
            bot_pause: options.bot_pause,
            trust_proxy: options.trust_proxy,
            metrics: Arc::new(metrics::Metrics::new()),
            tables_by_address: by_address("tables", limits.tables_per_minute),
            joins_by_address: by_address("joins", limits.joins_per_minute),
            guesses_by_address: by_address("guesses", limits.joins_per_minute),
            seat_messages: limit::Budget::per_second(
                limits.seat_messages_per_second,
                limits.seat_message_burst,
            ),
            seat_sockets: Arc::new(limit::SeatSockets::default()),
            watcher_messages: limit::Budget::per_second(
                limits.seat_messages_per_second,
                limits.seat_message_burst,
            ),
            watch_sockets: Arc::new(limit::SeatSockets::default()),
            synced_by_address: by_address("synced_kib", limits.sync_kib_per_minute),
            written_by_address: Arc::new(by_address(
                "written",
                limits
                    .written_kib_per_minute
                    .saturating_mul(1024 / room::WRITTEN_UNIT),
            )),
            limits,
        })
    }

    /// The room of the table with this token, loading it from the store on first use. The
    /// error is for players; the details are logged.
    async fn room(&self, token: &str) -> Result<Option<RoomHandle>, String> {
        let mut rooms = self.rooms.lock().await;
        if let Some(loaded) = rooms.get_mut(token) {
            loaded.used = tokio::time::Instant::now();
            return Ok(Some(loaded.room.clone()));
        }
        let table = self.store.table_by_token(token).await.map_err(|e| {
            self.metrics.tables_unreadable.inc();
            unreadable(e)
        })?;
        let Some(table) = table else {
            return Ok(None);
        };
        let settings = room::RoomSettings {
            bot_pause: self.bot_pause,
            metrics: self.metrics.clone(),
            table_events: self.limits.table_events,
            table_bytes: self.limits.table_bytes,
            shared_store: self.shared_store,
            written: self.written_by_address.clone(),
            written_kib_per_minute: self.limits.written_kib_per_minute,
        };
        let started = games::start(&table, self.store.clone(), settings).await;
        let room = if let Some(started) = started {
            started.map_err(|e| {
                self.metrics.tables_unreadable.inc();
                unreadable(e.0)
            })?
        } else {
            self.metrics.tables_unreadable.inc();
            tracing::error!(
                "table {} plays an unknown game '{}'",
                table.id.0,
                table.game
            );
            return Err(format!(
                "This table plays a game this server does not know ('{}'): the server may be older than the table.",
                table.game
            ));
        };
        rooms.insert(
            token.to_owned(),
            Loaded {
                room: room.clone(),
                table: table.id,
                used: tokio::time::Instant::now(),
            },
        );
        self.metrics.tables_loaded.set(rooms.len() as i64);
        Ok(Some(room))
    }

    /// Other servers (or this one) appended to tables: their rooms, if loaded here, read the
    /// new events from the log and tell their pages. After lost notices, every room does.
    /// The notices heard together are matched against the rooms in one pass: with several
    /// servers most name tables loaded elsewhere.
    async fn changed(&self, changes: &[store::Change]) {
        let mut appended: HashMap<store::TableId, u64> = HashMap::new();
        let mut invited: std::collections::HashSet<store::TableId> = Default::default();
        let mut missed = false;
        for change in changes {
            match *change {
                store::Change::Appended { table, seq } => {
                    let last = appended.entry(table).or_insert(seq);
                    *last = (*last).max(seq);
                }
                store::Change::Invited { table } => {
                    invited.insert(table);
                }
                store::Change::Missed => missed = true,
            }
        }
        let (catch_up, notify): (Vec<(RoomHandle, Option<u64>)>, Vec<RoomHandle>) = {
            let rooms = self.rooms.lock().await;
            let catch_up = rooms
                .values()
                .filter_map(|loaded| match appended.get(&loaded.table) {
                    _ if missed => Some((loaded.room.clone(), None)),
                    Some(&seq) => Some((loaded.room.clone(), Some(seq))),
                    None => None,
                })
                .collect();
            // Notices lost may have told of links, too.
            let notify = rooms
                .values()
                .filter(|loaded| missed || invited.contains(&loaded.table))
                .map(|loaded| loaded.room.clone())
                .collect();
            (catch_up, notify)
        };
        for room in notify {
            room.send(room::Request::LinksChanged).await;
        }
        for (room, seq) in catch_up {
            room.send(room::Request::CatchUp { seq }).await;
        }
    }

    /// Unloads the rooms nobody has used for `room_idle` (no socket, no request): the room's
    /// task ends once the last handle is gone, and the table reloads from its log on next use.
    /// Also forgets budgets that are full again.
    async fn unload_idle(&self) {
        let now = tokio::time::Instant::now();
        let mut rooms = self.rooms.lock().await;
        rooms.retain(|_, loaded| {
            if loaded.room.in_use() {
                loaded.used = now;
            }
            now.duration_since(loaded.used) < self.limits.room_idle
        });
        self.metrics.tables_loaded.set(rooms.len() as i64);
        drop(rooms);
        self.tables_by_address.forget_idle();
        self.joins_by_address.forget_idle();
        self.guesses_by_address.forget_idle();
        self.seat_messages.forget_idle();
        self.watcher_messages.forget_idle();
        self.synced_by_address.forget_idle();
        self.written_by_address.forget_idle();
    }
}

/// Notices handled in one pass over the rooms at most.
const HEARD_TOGETHER: usize = 1024;

/// Passes the store's notices of appends to the rooms until the server stops.
async fn keep_hearing<S: Store>(
    state: Arc<AppState<S>>,
    mut changes: tokio::sync::broadcast::Receiver<store::Change>,
) {
    use tokio::sync::broadcast::error::{RecvError, TryRecvError};
    let mut shutdown = state.shutdown.clone();
    // Too slow to hear them all: every room catches up instead.
    let heard = |change| match change {
        Ok(change) => Some(change),
        Err(RecvError::Lagged(_)) => Some(store::Change::Missed),
        Err(RecvError::Closed) => None,
    };
    let mut together = Vec::new();
    loop {
        let change = tokio::select! {
            change = changes.recv() => change,
            () = stopped(&mut shutdown) => return,
        };
        let Some(change) = heard(change) else { return };
        together.push(change);
        // And whatever else has come meanwhile, in the same pass over the rooms.
        while together.len() < HEARD_TOGETHER {
            match changes.try_recv() {
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Closed) => return,
                Err(TryRecvError::Lagged(_)) => together.push(store::Change::Missed),
                Ok(change) => together.push(change),
            }
        }
        state.changed(&together).await;
        together.clear();
    }
}

/// Unloads idle rooms until the server stops.
async fn keep_unloading<S: Store>(state: Arc<AppState<S>>) {
    let every = (state.limits.room_idle / 2).clamp(
        std::time::Duration::from_millis(10),
        std::time::Duration::from_secs(60),
    );
    let mut shutdown = state.shutdown.clone();
    loop {
        tokio::select! {
            () = tokio::time::sleep(every) => state.unload_idle().await,
            () = stopped(&mut shutdown) => return,
        }
    }
}

/// Deletes the shared budgets that are full again, now and then, until the server stops (every
/// server does: it is one cheap statement a minute).
async fn keep_forgetting_full_budgets<S: Store>(state: Arc<AppState<S>>) {
    let mut shutdown = state.shutdown.clone();
    loop {
        tokio::select! {
            () = tokio::time::sleep(std::time::Duration::from_secs(60)) => {
                if let Err(e) = state.store.forget_full_budgets().await {
                    tracing::warn!("cannot forget the full budgets: {e}");
                }
            }
            () = stopped(&mut shutdown) => return,
        }
    }
}

/// Why `prophecy serve` could not run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ServeError {
    /// What the user asked cannot be used (a database in use, damaged or not a file; an address
    /// already taken): one line naming the problem and what to do. Exit status 2.
    Usage(String),
    /// The server failed while running. Exit status 1.
    Runtime(String),
}

/// The message a player sees when the store fails; the cause goes to the server's log only
/// (it can name files and SQL).
pub(crate) fn unreadable(cause: impl std::fmt::Display) -> String {
    tracing::error!("cannot read a table: {cause}");
    "This table's saved data cannot be read right now; nothing was changed. The server's log says why.".to_owned()
}

/// Runs the server until Ctrl-C or SIGTERM, on its own tokio runtime.
pub fn run(config: Config) -> Result<(), ServeError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| ServeError::Runtime(format!("cannot start: {e}")))?;
    runtime.block_on(serve(config))
}

/// Serves until Ctrl-C or SIGTERM, then closes every socket and stops. The addresses are
/// taken before the database is opened, so a taken port leaves no new database file behind.
/// Logging is the caller's to set up (`tracing`).
pub async fn serve(config: Config) -> Result<(), ServeError> {
    let listeners = bind(&config).await?;
    let usage = |e: store::StoreError| ServeError::Usage(e.to_string());
    match &config.db {
        Database::File(path) => {
            let store = SqliteStore::open(path).await.map_err(usage)?;
            let closing = store.clone();
            serve_store(
                &config,
                store,
                listeners,
                async move { closing.close().await },
            )
            .await
        }
        Database::Postgres(url) => {
            if config.backups.is_some() {
                return Err(ServeError::Usage(
                    "--backup-every copies a SQLite file; back up a PostgreSQL database with pg_dump".to_owned(),
                ));
            }
            let store = PgStore::open(url).await.map_err(usage)?;
            let closing = store.clone();
            serve_store(
                &config,
                store,
                listeners,
                async move { closing.close().await },
            )
            .await
        }
    }
}

/// The pages' listener, and the metrics' own when `--metrics-addr` is given.
struct Listeners {
    pages: tokio::net::TcpListener,
    metrics: Option<tokio::net::TcpListener>,
}

async fn bind(config: &Config) -> Result<Listeners, ServeError> {
    let pages = tokio::net::TcpListener::bind(config.addr)
        .await
        .map_err(|e| ServeError::Usage(format!("cannot listen on {}: {e}", config.addr)))?;
    let metrics = match config.metrics_addr {
        Some(metrics_addr) => Some(tokio::net::TcpListener::bind(metrics_addr).await.map_err(
            |e| ServeError::Usage(format!("cannot listen on {metrics_addr} for metrics: {e}")),
        )?),
        None => None,
    };
    Ok(Listeners { pages, metrics })
}

/// [`serve`] on an open store; `close` closes it once the server has stopped.
async fn serve_store<S: Store>(
    config: &Config,
    store: S,
    listeners: Listeners,
    close: impl std::future::Future<Output = ()>,
) -> Result<(), ServeError> {
    let Listeners {
        pages: listener,
        metrics: metrics_listener,
    } = listeners;
    let addr = listener
        .local_addr()
        .map_err(|e| ServeError::Runtime(e.to_string()))?;
    let stop = stop_signal();
    tracing::info!(
        "listening on http://{addr}/ with the database {}",
        config.db
    );
    announce(addr, config);
    // Backups have their own stop: `serve_on` keeps its shutdown channel to itself.
    let (stop_backups, backups_stopped) = watch::channel(false);
    let backing_up = match (&config.db, config.backups.clone()) {
        (Database::File(path), Some(backups)) => Some(tokio::spawn(backups::keep_backing_up(
            path.clone(),
            backups,
            backups_stopped,
        ))),
        _ => None,
    };
    let served = serve_on(
        listener,
        metrics_listener,
        store.clone(),
        config.options.clone(),
        stop,
    )
    .await;
    // A copy in progress is finished before the store closes.
    let _ = stop_backups.send(true);
    if let Some(task) = backing_up
        && let Err(e) = task.await
    {
        tracing::error!("the backups stopped: {e}");
    }
    close.await;
    say(&format!("Stopped. Every table is saved in {}.", config.db));
    served.map_err(ServeError::Runtime)
}

/// Prints a line for the person who started the server. Their terminal may be gone (a closed
/// pipe, a detached session): the server goes on serving either way.
fn say(text: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{text}").and_then(|()| out.flush());
}

/// Serves on `listener` until `stop` resolves, then closes every socket and returns. (Tests
/// use it with a listener on port 0.)
pub async fn serve_with<S: Store>(
    listener: tokio::net::TcpListener,
    store: S,
    options: Options,
    stop: impl std::future::Future<Output = ()> + Send + 'static,
) -> Result<(), String> {
    serve_on(listener, None, store, options, stop).await
}

/// As [`serve_with`], with `/metrics` on its own listener when one is given.
pub async fn serve_on<S: Store>(
    listener: tokio::net::TcpListener,
    metrics_listener: Option<tokio::net::TcpListener>,
    store: S,
    options: Options,
    stop: impl std::future::Future<Output = ()> + Send + 'static,
) -> Result<(), String> {
    let (stop_sockets, shutdown) = watch::channel(false);
    let limits = options.limits.clone();
    let trust_proxy = options.trust_proxy;
    let state = AppState::new(store, shutdown.clone(), options);
    let metrics = state.metrics.clone();
    let app = http::router(state.clone(), ws::routes(), metrics_listener.is_none());
    if let Some(metrics_listener) = metrics_listener {
        let mut stopping = shutdown.clone();
        let router = http::metrics_router(state.clone());
        tokio::spawn(async move {
            let stop = async move { stopped(&mut stopping).await };
            if let Err(e) = axum::serve(metrics_listener, router)
                .with_graceful_shutdown(stop)
                .await
            {
                tracing::error!("the metrics listener failed: {e}");
            }
        });
    }
    if let Some(changes) = state.store.changes() {
        tokio::spawn(keep_hearing(state.clone(), changes));
        tokio::spawn(keep_forgetting_full_budgets(state.clone()));
    }
    tokio::spawn(keep_unloading(state));
    listen::serve(
        listener,
        app,
        &limits,
        trust_proxy,
        metrics,
        stop,
        move || {
            tracing::info!("shutting down: closing sockets");
            let _ = stop_sockets.send(true);
        },
    )
    .await;
    Ok(())
}

/// Resolves once `shutdown` turns true (or its sender is gone).
pub(crate) async fn stopped(shutdown: &mut watch::Receiver<bool>) {
    // The guard `wait_for` returns is not `Send`: drop it here, inside.
    let _ = shutdown.wait_for(|stop| *stop).await.map(|_| ());
}

/// Prints where to go, and a QR code when players on the local network can reach it.
fn announce(addr: SocketAddr, config: &Config) {
    let url = config
        .options
        .public_url
        .clone()
        .unwrap_or_else(|| format!("http://{addr}/"));
    say(&format!("Prophecy is at {url}"));
    say(&format!("Tables are kept in {}", config.db));
    let reachable = config.options.public_url.is_some()
        || !(addr.ip().is_loopback() || addr.ip().is_unspecified());
    if reachable {
        if let Ok(code) = qrcode::QrCode::new(url.as_bytes()) {
            let picture = code
                .render::<qrcode::render::unicode::Dense1x2>()
                .quiet_zone(true)
                .build();
            say(&format!("Scan to open it on a phone:\n{picture}"));
        }
    } else if addr.ip().is_unspecified() {
        say(
            "Listening on every interface: give players this machine's address, or pass --url to print a QR code.",
        );
    }
    say("Press Ctrl-C to stop.");
}

/// Resolves on Ctrl-C or SIGTERM. The handlers are installed now, not when the future is first
/// polled: a signal right after the server says where it listens must stop it cleanly.
fn stop_signal() -> impl std::future::Future<Output = ()> + Send + 'static {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let interrupt = signal(SignalKind::interrupt()).ok();
        let terminate = signal(SignalKind::terminate()).ok();
        async move {
            let heard = |signal: Option<tokio::signal::unix::Signal>| async move {
                match signal {
                    Some(mut signal) => {
                        signal.recv().await;
                    }
                    None => std::future::pending::<()>().await,
                }
            };
            tokio::select! {
                () = heard(interrupt) => {},
                () = heard(terminate) => {},
            }
        }
    }
    #[cfg(not(unix))]
    async {
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// A random 128-bit value as 32 lowercase hex characters (table tokens and seat secrets).
fn random_token() -> Result<String, String> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|e| format!("no randomness: {e}"))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}
