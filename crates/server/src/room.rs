//! One room per table: a task that alone holds the table's state. Every request goes through
//! its inbox in order, so two players acting at once are decided one after the other against
//! the same state. An accepted action is committed to the store before anyone hears of it.

use crate::game::{Context, Extras as _, Game, Rejection};
use crate::metrics::Metrics;
use crate::patch::View as _;
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::marker::PhantomData;
use std::sync::Arc;
use store::{Append, NewEvent, NewSeat, Store, StoreError, TableId};
use tokio::sync::{broadcast, mpsc, oneshot, watch};
use tokio::time::{Duration, Instant};

/// One line of the table's log.
#[derive(Debug, Clone, serde::Serialize)]
pub struct LogEntry {
    /// The event's number.
    pub seq: u64,
    /// When it was accepted.
    pub at: i64,
    /// Who caused it (`None` for anonymous events).
    pub by: Option<u32>,
    /// What happened.
    pub text: String,
    /// The same in parts ([`crate::game::Extras::describe_parts`]), when it names something players wrote.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parts: Option<Vec<Value>>,
    /// Only the table may read it, not its watchers ([`crate::game::Extras::kept_from_watchers`]).
    #[serde(skip)]
    pub secret: bool,
}

impl LogEntry {
    /// Whether `viewer`'s pages are shown this line: a watcher's are not shown a secret one.
    fn seen_by(&self, viewer: Viewer) -> bool {
        viewer != Viewer::Watcher || !self.secret
    }
}

/// The story so far, for the exports.
#[derive(Debug, Clone)]
pub struct Story {
    /// Its title.
    pub title: String,
    /// The story as Markdown (flagged text left out).
    pub markdown: String,
    /// The outline as an SVG picture ([`crate::game::Extras::outline_svg`]), for pages that draw it.
    pub outline_svg: Option<String>,
}

/// A table in a few words, for the list of tables on a player's home page.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Summary {
    /// The game ([`Game::KIND`]).
    pub game: &'static str,
    /// Its name for players ([`Game::NAME`]).
    pub game_name: &'static str,
    /// The table's name, as its page shows it ([`Game::title`]).
    pub title: String,
    /// Where the game stands ([`Game::progress`]).
    pub progress: String,
    /// The names of the players seated, in seat order.
    pub players: Vec<String>,
    /// When the last thing happened (milliseconds since the Unix epoch; 0 before anything).
    pub last_activity: i64,
}

/// What the room tells every socket at the table after a change.
#[derive(Debug)]
pub struct Published {
    /// The last event number after the change.
    pub seq: u64,
    /// When the change was committed (for the broadcast latency metric).
    pub at: Instant,
    /// The `update` message, the same for every player.
    pub update: Option<Arc<str>>,
    /// The watchers' `update`, while the table has any: the players' one, or one without what
    /// only the table may know ([`Game::watched`]).
    pub watch: Option<Arc<str>>,
    /// Another message for everyone (presence, the links' `invite`).
    pub everyone: Option<Arc<str>>,
    /// The table's links changed: a watcher's socket checks that its link is still open.
    pub links: bool,
    /// With an update: each online player's `own` message (what only they may know).
    pub own: BTreeMap<u32, Arc<str>>,
}

impl Published {
    /// A message for every page, player's and watcher's alike, that changes no view (`links`:
    /// it says the table's links changed).
    fn everyone(seq: u64, message: String, links: bool) -> Arc<Published> {
        Arc::new(Published {
            seq,
            at: Instant::now(),
            update: None,
            watch: None,
            everyone: Some(Arc::from(message)),
            links,
            own: BTreeMap::new(),
        })
    }

    /// The table's links changed: players' pages fetch them again.
    fn links_changed(seq: u64) -> Arc<Published> {
        Published::everyone(seq, json!({"type": "invite"}).to_string(), true)
    }
}

/// Who a page is: a seated player, or a watcher holding the table's watch link.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Viewer {
    /// The player with this number.
    Player(u32),
    /// Anyone with the watch link: sees what every player may know, and nothing more.
    Watcher,
}

/// The answer to a `sync`: the last event number, the `sync` message, and the `own` message
/// (empty for a watcher).
pub type Synced = (u64, Arc<str>, Arc<str>);

/// Lines of the log before some event: at most [`crate::limits::LOG_LINES`], the newest
/// first chosen, in order.
#[derive(Debug, serde::Serialize)]
pub struct LogPage {
    /// The lines.
    pub log: Vec<LogEntry>,
    /// Whether the table has lines older than these.
    pub older: bool,
}

/// What a room is asked.
pub enum Request {
    /// A seated player acts.
    Act {
        /// Who.
        player: u32,
        /// From which client address, whose budget of bytes written it spends.
        address: std::net::IpAddr,
        /// The page's action.
        action: Value,
        /// Accepted (with the last event number after it), or why not.
        reply: oneshot::Sender<Result<u64, Rejection>>,
    },
    /// Someone takes a new seat.
    Join {
        /// Their name.
        name: String,
        /// SHA-256 of their secret.
        secret_hash: Vec<u8>,
        /// They create the table (the first seat).
        creator: bool,
        /// Their player number, or why not.
        reply: oneshot::Sender<Result<u32, Rejection>>,
    },
    /// A socket (re)connects or fell behind: the whole view and the log since `since`.
    Sync {
        /// Who.
        viewer: Viewer,
        /// The last event number the page has.
        since: u64,
        /// The last event number, the `sync` message, and the `own` message an update would
        /// bring now (so that an unchanged one is not sent again); `None` if the player was
        /// removed.
        reply: oneshot::Sender<Option<Synced>>,
    },
    /// Older lines of the log, for a page that shows them on request.
    LogPage {
        /// Who.
        viewer: Viewer,
        /// The page wants lines before this event number.
        before: u64,
        /// The `log` message (without its `req`); `None` if the player was removed.
        reply: oneshot::Sender<Option<LogPage>>,
    },
    /// A socket of `viewer` opened (`+1`) or closed (`-1`).
    Presence {
        /// Who.
        viewer: Viewer,
        /// The other seats its browser holds at the table (pass the phone): the players
        /// around that device are at the table too.
        device: Arc<[u32]>,
        /// +1 or −1.
        delta: i32,
    },
    /// The story so far.
    Export {
        /// As its published page shows it to anyone ([`Game::published_markdown`]), not as
        /// the players' own copy.
        public: bool,
        /// The answer.
        reply: oneshot::Sender<Story>,
    },
    /// A seated player opens one of the table's read-only pages (publishes the story, opens
    /// the watch link) or closes it ([`crate::game::Extras::share`]).
    Share {
        /// Who.
        player: u32,
        /// Which page.
        link: crate::game::Link,
        /// Open, or close.
        open: bool,
        /// What became of it.
        reply: oneshot::Sender<ShareAnswer>,
    },
    /// The table in a few words, for a player's list of tables.
    Summary {
        /// The answer.
        reply: oneshot::Sender<Summary>,
    },
    /// The game file (one stored event per line), as players may download it.
    GameFile {
        /// The file, or why it cannot be read (for the player; the cause is logged).
        reply: oneshot::Sender<Result<String, String>>,
    },
    /// Another server appended to this table (its log now ends at `seq`), or may have
    /// (`None`): read the new events from the log and tell every page.
    CatchUp {
        /// The log's last event, as the store's notice said.
        seq: Option<u64>,
    },
    /// The table's links changed (its invitation, its read-only pages): every page hears it.
    LinksChanged,
}

/// How the rest of the server reaches a room.
#[derive(Clone)]
pub struct RoomHandle {
    inbox: mpsc::Sender<Request>,
    published: broadcast::Sender<Arc<Published>>,
    /// The players removed from the table. A `watch`, not the broadcast: a socket that lags
    /// behind the broadcast may miss messages, but always sees the latest value of a watch.
    removed: watch::Receiver<Arc<BTreeSet<u32>>>,
}

/// Requests waiting for a busy room before senders wait too.
const INBOX: usize = 256;
/// Changes a slow socket may fall behind before it is resynced from the log.
const BACKLOG: usize = 64;

impl RoomHandle {
    /// Sends a request; `false` if the room has stopped.
    pub async fn send(&self, request: Request) -> bool {
        self.inbox.send(request).await.is_ok()
    }

    /// Hears every change from now on.
    pub fn subscribe(&self) -> broadcast::Receiver<Arc<Published>> {
        self.published.subscribe()
    }

    /// Hears who is removed from the table, now and whenever it changes.
    pub fn removed(&self) -> watch::Receiver<Arc<BTreeSet<u32>>> {
        self.removed.clone()
    }

    /// Whether anyone besides the server's list of rooms holds this room (a socket, a
    /// request on its way).
    pub fn in_use(&self) -> bool {
        self.inbox.strong_count() > 1
    }
}

/// What a room needs from the server besides its store and table.
#[derive(Clone)]
pub struct RoomSettings {
    /// How long a bot waits before it acts.
    pub bot_pause: Duration,
    /// Where append latency and actions are counted.
    pub metrics: Arc<Metrics>,
    /// Events the table may hold.
    pub table_events: u64,
    /// Bytes of events the table may hold.
    pub table_bytes: u64,
    /// Other servers append to the same store: the room's state may be behind the log.
    pub shared_store: bool,
    /// Bytes of events written per client address, across tables and seats (in
    /// [`WRITTEN_UNIT`]s).
    pub written: Arc<crate::limit::AddressBudget>,
    /// That budget a minute, in KiB, for the message that refuses past it.
    pub written_kib_per_minute: u32,
}

/// What the budget of bytes written counts in: an event costs its length in these, rounded up.
pub const WRITTEN_UNIT: u32 = 64;

/// Why a room could not be loaded.
#[derive(Debug)]
pub struct LoadError(pub String);

/// How often a change that met another writer's append (another server's, on a shared
/// database) is decided again on the reloaded table.
const CONFLICT_RETRIES: u32 = 12;

/// Before deciding again after a conflict: a short pause, random so that servers racing for
/// the same table do not meet again in step, growing with each retry (1–4 ms, then up to 48).
async fn back_off(retries: u32) {
    let most = u64::from(retries.min(12)) * 4;
    // Not a secret: without the system's generator, the clock's nanoseconds will do.
    let jitter = getrandom::u64().unwrap_or_else(|_| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| u64::from(d.subsec_nanos()))
    });
    let pause = 1 + jitter % most.max(4);
    tokio::time::sleep(Duration::from_millis(pause)).await;
}

/// Why a change was not committed.
enum Failed {
    /// The game or the table refused it.
    Rejected(Rejection),
    /// The log moved on under the room (another writer): reload and decide again.
    Conflict,
}

impl From<Rejection> for Failed {
    fn from(rejection: Rejection) -> Failed {
        Failed::Rejected(rejection)
    }
}

/// What a player hears when the table's storage fails; the details go to the server's log.
fn not_saved() -> Rejection {
    Rejection::Malformed("the table could not be saved; nothing changed, try again".into())
}

struct Room<G: Game, S: Store> {
    store: S,
    table: TableId,
    /// The name the creator gave the table, if any ([`Room::title`]).
    name: Option<String>,
    /// When the table was created (milliseconds since the Unix epoch).
    created_at: i64,
    state: G::State,
    seq: u64,
    log: Vec<LogEntry>,
    creator: u32,
    /// The highest player number given so far (numbers are never reused).
    seats: u32,
    /// The names of the seats still at the table, for unique names.
    names: BTreeMap<u32, String>,
    /// Bytes of events in the log, against `table_bytes`.
    bytes: u64,
    settings: RoomSettings,
    removed: watch::Sender<Arc<BTreeSet<u32>>>,
    connections: HashMap<u32, u32>,
    published: broadcast::Sender<Arc<Published>>,
    /// When the bot that must act next will act.
    bot_due: Option<Instant>,
    /// The log's length when a bot last failed to act: it is not asked again until the table
    /// changes (a bug in a bot must not spin the room).
    bot_failed_at: Option<u64>,
    /// The view every page has at this seq (the last one sent): the next update is a patch
    /// against it. `None` until a view is sent, and after the state changed without one.
    shown: Option<(u64, G::View)>,
    /// The length of the last update that carried the whole view (0 before one).
    whole_len: usize,
    /// Watchers' sockets open at this server.
    watchers: u32,
    /// The view every watcher's page has at this seq, when watchers see less than players
    /// ([`Game::watched`]); `None` while nobody watches.
    watch_shown: Option<(u64, G::View)>,
    /// The client address of the page whose action is being decided (none for bots, joins and
    /// what the log brings): its budget of bytes written pays for the events.
    writer: Option<std::net::IpAddr>,
    game: PhantomData<G>,
}

/// A patch longer than this, and at least half as long as the whole view was when last
/// measured, is compared with the whole view, and the shorter one is sent. (Serializing the
/// whole view to compare with every long patch showed in profiles under load.)
const PATCH_CHECKED: usize = 2048;

/// Loads a table by replaying its log, and starts its room.
pub async fn start<G: Game, S: Store>(
    store: S,
    table: &store::TableRecord,
    settings: RoomSettings,
) -> Result<RoomHandle, LoadError> {
    let (published, _) = broadcast::channel(BACKLOG);
    let (inbox, requests) = mpsc::channel(INBOX);
    let (removed, removed_now) = watch::channel(Arc::new(BTreeSet::new()));
    let mut room = Room::<G, S> {
        store,
        table: table.id,
        // Names are checked when they arrive; older ones are balanced here like any text.
        name: table.name.as_deref().map(crate::text::text),
        created_at: table.created_at,
        state: G::State::default(),
        seq: 0,
        log: Vec::new(),
        creator: 1,
        seats: 0,
        names: BTreeMap::new(),
        bytes: 0,
        settings,
        removed,
        connections: HashMap::new(),
        published: published.clone(),
        bot_due: None,
        bot_failed_at: None,
        shown: None,
        whole_len: 0,
        watchers: 0,
        watch_shown: None,
        writer: None,
        game: PhantomData,
    };
    room.catch_up().await.map_err(LoadError)?;
    room.schedule_bot();
    tokio::spawn(room.run(requests));
    Ok(RoomHandle {
        inbox,
        published,
        removed: removed_now,
    })
}

/// `markdown` under the heading `title` (a player's text, escaped), in place of its own first
/// heading, or above it all when it has none.
fn retitled(markdown: &str, title: &str) -> String {
    let heading = format!("# {}\n", crate::text::markdown(title));
    match markdown.strip_prefix("# ") {
        Some(headed) => heading + headed.split_once('\n').map_or("", |(_, rest)| rest),
        None => heading + "\n" + markdown,
    }
}

fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// A seed for the dice and shuffles of one change, from the operating system's generator only:
/// if it fails, the change is refused. (A seed from the clock could be guessed, and with it
/// every die and the order of every deck.)
fn fresh_seed() -> Result<u64, Rejection> {
    getrandom::u64().map_err(no_random_source)
}

/// What a player hears when the system's random source fails; the cause goes to the log.
fn no_random_source(e: getrandom::Error) -> Rejection {
    tracing::error!("the system's random source failed: {e}");
    Rejection::Refused {
        code: "no_random_source".into(),
        rule: "The table".into(),
        message: "The server cannot roll dice or shuffle right now: its random source failed. Nothing changed; try again later.".into(),
    }
}

impl<G: Game, S: Store> Room<G, S> {
    /// The table's title: the name its creator gave it, else the game's ([`Game::title`]).
    fn title(&self) -> String {
        self.name
            .clone()
            .unwrap_or_else(|| G::title(&self.state, self.creator, self.created_at))
    }

    async fn run(mut self, mut requests: mpsc::Receiver<Request>) {
        loop {
            let bot_due = self.bot_due;
            let request = tokio::select! {
                request = requests.recv() => match request {
                    Some(request) => request,
                    None => return,
                },
                () = tokio::time::sleep_until(bot_due.unwrap_or_else(Instant::now)), if bot_due.is_some() => {
                    self.bot_due = None;
                    self.bot_acts().await;
                    continue;
                }
            };
            self.handle(request).await;
            self.schedule_bot();
        }
    }

    /// Asks for the next bot action when a bot must act and none is waiting.
    fn schedule_bot(&mut self) {
        if self.bot_due.is_some() || self.bot_failed_at == Some(self.seq) {
            return;
        }
        if G::bot(&self.state).is_some() {
            self.bot_due = Some(Instant::now() + self.settings.bot_pause);
        }
    }

    /// The bot whose turn it is acts, through the same decision and commit as a person.
    async fn bot_acts(&mut self) {
        let Some(player) = G::bot(&self.state) else {
            return;
        };
        let seed = match fresh_seed() {
            Ok(seed) => seed,
            Err(_) => {
                // Logged. The bot tries again later: the source may come back, and until it
                // does no one can roll.
                let pause = self.settings.bot_pause.max(Duration::from_secs(1));
                self.bot_due = Some(Instant::now() + pause);
                return;
            }
        };
        let context = Context { now: now(), seed };
        let result = match G::bot_act(&self.state, player, &context) {
            Ok(events) => self
                .commit(player, events, Append::default(), context)
                .await
                .map_err(|failed| match failed {
                    Failed::Rejected(rejection) => (format!("{rejection:?}"), false),
                    Failed::Conflict => ("another writer appended first".to_owned(), true),
                }),
            Err(rejection) => Err((format!("{rejection:?}"), false)),
        };
        if let Err((why, conflict)) = result {
            tracing::error!(table = self.table.0, player, "a bot cannot act: {why}");
            // After a conflict the reloaded table may let it act; after a refusal (a full
            // table) or an action it cannot choose, it waits for a change.
            if conflict {
                let _ = self.reload().await;
            }
            if !conflict || G::bot_act(&self.state, player, &context).is_err() {
                self.bot_failed_at = Some(self.seq);
            }
        }
        self.schedule_bot();
    }

    async fn handle(&mut self, request: Request) {
        match request {
            Request::Act {
                player,
                address,
                action,
                reply,
            } => {
                self.writer = Some(address);
                let result = self.act(player, &action).await;
                self.writer = None;
                let _ = reply.send(result);
            }
            Request::Join {
                name,
                secret_hash,
                creator,
                reply,
            } => {
                let result = self.join(name, secret_hash, creator).await;
                let _ = reply.send(result);
            }
            Request::Sync {
                viewer,
                since,
                reply,
            } => {
                let answer = match viewer {
                    Viewer::Player(player) if self.is_removed(player) => None,
                    Viewer::Player(player) => {
                        let own = Arc::from(own_message(&G::Extras::own(&self.state, player)));
                        Some((self.seq, self.sync_message(viewer, since), own))
                    }
                    Viewer::Watcher => {
                        Some((self.seq, self.sync_message(viewer, since), Arc::from("")))
                    }
                };
                let _ = reply.send(answer);
            }
            Request::LogPage {
                viewer,
                before,
                reply,
            } => {
                let page = match viewer {
                    Viewer::Player(player) if self.is_removed(player) => None,
                    _ => {
                        let (lines, older) = self.log_tail(0, before);
                        Some(LogPage {
                            log: lines
                                .iter()
                                .filter(|e| e.seen_by(viewer))
                                .cloned()
                                .collect(),
                            older,
                        })
                    }
                };
                let _ = reply.send(page);
            }
            Request::Presence {
                viewer,
                device,
                delta,
            } => self.presence(viewer, &device, delta),
            Request::CatchUp { seq } => {
                // This server's own appends come back as notices too: nothing to read then.
                if seq.is_none_or(|seq| seq > self.seq)
                    && let Err(e) = self.catch_up().await
                {
                    tracing::error!(table = self.table.0, "cannot catch up with the log: {e}");
                }
            }
            Request::Export { public, reply } => {
                // Texts are balanced as they arrive; tables older than that are balanced here,
                // line by line, so no direction control reaches past its line in the export.
                let published = public.then(|| G::Extras::published_markdown(&self.state));
                let (title, markdown) = published
                    .flatten()
                    .unwrap_or_else(|| G::markdown(&self.state));
                let (title, markdown) = match &self.name {
                    None if G::Extras::EXPORT_KEEPS_ITS_TITLE => (title, markdown),
                    _ => {
                        let title = self.title();
                        let markdown = retitled(&markdown, &title);
                        (title, markdown)
                    }
                };
                let _ = reply.send(Story {
                    title: crate::text::text(&title),
                    markdown: crate::text::text(&markdown),
                    outline_svg: G::Extras::outline_svg(&self.state),
                });
            }
            Request::Summary { reply } => {
                let _ = reply.send(Summary {
                    game: G::KIND,
                    game_name: G::NAME,
                    title: crate::text::text(&self.title()),
                    progress: crate::text::text(&G::progress(&self.state)),
                    players: self.names.values().cloned().collect(),
                    last_activity: self.log.last().map_or(0, |e| e.at),
                });
            }
            Request::Share {
                player,
                link,
                open,
                reply,
            } => {
                let _ = reply.send(self.share(player, link, open).await);
            }
            Request::GameFile { reply } => {
                let _ = reply.send(self.game_file().await);
            }
            Request::LinksChanged => {
                let _ = self.published.send(Published::links_changed(self.seq));
            }
        }
    }

    /// Every event so far, read back from the store (the room keeps only the state and the
    /// log lines), with what players may not see left out.
    async fn game_file(&self) -> Result<String, String> {
        let rows = self
            .store
            .events_after(self.table, 0)
            .await
            .map_err(crate::unreadable)?;
        let mut events = Vec::with_capacity(rows.len());
        for row in rows.iter().take_while(|row| row.seq <= self.seq) {
            events.push(G::decode(&row.body).map_err(|e| {
                crate::unreadable(format!("event {} of table {}: {e}", row.seq, self.table.0))
            })?);
        }
        let mut file = String::new();
        for event in G::for_players(events) {
            file.push_str(&G::encode(&event));
            file.push('\n');
        }
        Ok(file)
    }

    fn is_removed(&self, player: u32) -> bool {
        self.removed.borrow().contains(&player)
    }

    /// Reads the log past `self.seq` and the seats from the store: on load, and when another
    /// writer appended first. What it brings is published, so pages see it too.
    async fn catch_up(&mut self) -> Result<(), String> {
        let rows = self
            .store
            .events_after(self.table, self.seq)
            .await
            .map_err(|e| e.to_string())?;
        let seats = self
            .store
            .seats(self.table)
            .await
            .map_err(|e| e.to_string())?;
        let first = self.seq + 1;
        for row in rows {
            self.bytes += row.body.len() as u64;
            let event = G::decode(&row.body)
                .map_err(|e| format!("event {} of the table cannot be read: {e}", row.seq))?;
            self.log.push(LogEntry {
                seq: row.seq,
                at: row.at,
                by: row.player,
                text: G::describe(&self.state, &event),
                parts: G::Extras::describe_parts(&self.state, &event),
                secret: G::Extras::kept_from_watchers(&event),
            });
            self.state = G::evolve(std::mem::take(&mut self.state), &event);
            self.seq = row.seq;
        }
        self.creator = seats.iter().find(|s| s.creator).map_or(1, |s| s.player);
        self.seats = seats.iter().map(|s| s.player).max().unwrap_or(0);
        self.names = seats
            .iter()
            .filter(|s| !s.removed)
            .map(|s| (s.player, s.name.clone()))
            .collect();
        let removed: BTreeSet<u32> = seats
            .iter()
            .filter(|s| s.removed)
            .map(|s| s.player)
            .collect();
        if **self.removed.borrow() != removed {
            self.removed.send_replace(Arc::new(removed));
        }
        if self.seq >= first && self.published.receiver_count() > 0 {
            self.publish(first, None);
        }
        Ok(())
    }

    /// After a conflict: the table as the log now has it, or why it cannot be read.
    async fn reload(&mut self) -> Result<(), Rejection> {
        self.catch_up().await.map_err(|e| {
            tracing::error!(table = self.table.0, "cannot reload the table: {e}");
            not_saved()
        })
    }

    async fn act(&mut self, player: u32, action: &Value) -> Result<u64, Rejection> {
        let mut retries = 0;
        let mut rechecked = false;
        loop {
            match self.try_act(player, action).await {
                Err(Failed::Conflict) if retries < CONFLICT_RETRIES => {
                    retries += 1;
                    back_off(retries).await;
                    self.reload().await?;
                }
                Err(Failed::Conflict) => return Err(not_saved()),
                // Refused on a table another server may have changed since its last notice
                // (a proposal made there, not heard here yet): decided again on the log's
                // latest events, if there are any.
                Err(Failed::Rejected(rejection @ Rejection::Refused { .. }))
                    if self.settings.shared_store && !rechecked =>
                {
                    rechecked = true;
                    let seen = self.seq;
                    self.reload().await?;
                    if self.seq == seen {
                        return Err(rejection);
                    }
                }
                Err(Failed::Rejected(rejection)) => return Err(rejection),
                Ok(seq) => return Ok(seq),
            }
        }
    }

    async fn try_act(&mut self, player: u32, action: &Value) -> Result<u64, Failed> {
        if self.is_removed(player) {
            return Err(Rejection::Refused {
                code: "removed".into(),
                rule: "The table".into(),
                message: "You were removed from this table.".into(),
            }
            .into());
        }
        let context = Context {
            now: now(),
            seed: fresh_seed()?,
        };
        if action.get("action").and_then(Value::as_str) == Some("remove_player") {
            return self.try_remove(player, action, context).await;
        }
        let events = G::act(&self.state, player, action, &context)?;
        self.commit(player, events, Append::default(), context)
            .await?;
        Ok(self.seq)
    }

    /// The creator removes a player: the game's events, the seat closed and the invitation
    /// renewed, in one append.
    async fn try_remove(
        &mut self,
        player: u32,
        action: &Value,
        context: Context,
    ) -> Result<u64, Failed> {
        let target = action
            .get("player")
            .and_then(Value::as_u64)
            .and_then(|p| u32::try_from(p).ok())
            .filter(|p| (1..=self.seats).contains(p))
            .ok_or_else(|| {
                Rejection::Malformed(
                    "remove_player needs the number of a player at this table".into(),
                )
            })?;
        if player != self.creator {
            return Err(Rejection::Refused {
                code: "not_creator".into(),
                rule: "The table".into(),
                message: "Only the table's creator can remove a player.".into(),
            }
            .into());
        }
        if target == self.creator {
            return Err(Rejection::Refused {
                code: "creator_stays".into(),
                rule: "The table".into(),
                message: "The table's creator cannot be removed.".into(),
            }
            .into());
        }
        if self.is_removed(target) {
            return Err(Rejection::Refused {
                code: "already_removed".into(),
                rule: "The table".into(),
                message: "That player was already removed from this table.".into(),
            }
            .into());
        }
        let events = G::remove(&self.state, target)?;
        // Other servers learn of a removal from the log alone: one without an event would
        // leave the player acting there.
        if events.is_empty() {
            tracing::error!(
                table = self.table.0,
                target,
                "{} removes without an event",
                G::KIND
            );
            return Err(Rejection::Refused {
                code: "cannot_remove".into(),
                rule: "The table".into(),
                message: "This player cannot be removed now.".into(),
            }
            .into());
        }
        // A new invitation with the removal: the link the removed player holds seats
        // nobody now (they would be back at once, taking a new seat each time).
        let invite = crate::random_token().map_err(|e| {
            tracing::error!(table = self.table.0, "cannot renew the invitation: {e}");
            not_saved()
        })?;
        self.commit(
            player,
            events,
            Append {
                remove_seat: Some(target),
                renew_invite: Some(invite),
                ..Append::default()
            },
            context,
        )
        .await?;
        self.removed.send_modify(|removed| {
            Arc::make_mut(removed).insert(target);
        });
        self.names.remove(&target);
        // Pages fetch the invitation again. (A shared store tells every server, this one
        // included.)
        if !self.settings.shared_store {
            let _ = self.published.send(Published::links_changed(self.seq));
        }
        Ok(self.seq)
    }

    async fn join(
        &mut self,
        name: String,
        secret_hash: Vec<u8>,
        creator: bool,
    ) -> Result<u32, Rejection> {
        let mut retries = 0;
        loop {
            match self.try_join(&name, &secret_hash, creator).await {
                Err(Failed::Conflict) if retries < CONFLICT_RETRIES => {
                    retries += 1;
                    back_off(retries).await;
                    self.reload().await?;
                }
                Err(Failed::Conflict) => return Err(not_saved()),
                Err(Failed::Rejected(rejection)) => return Err(rejection),
                Ok(player) => return Ok(player),
            }
        }
    }

    async fn try_join(
        &mut self,
        name: &str,
        secret_hash: &[u8],
        creator: bool,
    ) -> Result<u32, Failed> {
        let player = self.seats + 1;
        if self
            .names
            .values()
            .any(|taken| crate::text::same_name(taken, name))
        {
            return Err(Rejection::Refused {
                code: "name_taken".into(),
                rule: "The table".into(),
                message: format!(
                    "Someone at this table is already called {name}: choose another name."
                ),
            }
            .into());
        }
        let events = G::join(&self.state, player, name)?;
        let seat = NewSeat {
            player,
            name: name.trim().to_owned(),
            secret_hash: secret_hash.to_vec(),
            creator,
        };
        let context = Context {
            now: now(),
            seed: fresh_seed()?,
        };
        self.commit(
            player,
            events,
            Append {
                new_seat: Some(seat),
                ..Append::default()
            },
            context,
        )
        .await?;
        self.seats = player;
        self.names.insert(player, name.trim().to_owned());
        if creator {
            self.creator = player;
        }
        Ok(player)
    }

    /// Stores, then applies, then tells everyone.
    async fn commit(
        &mut self,
        player: u32,
        events: Vec<G::Event>,
        mut append: Append,
        context: Context,
    ) -> Result<(), Failed> {
        append.events = events
            .iter()
            .map(|e| NewEvent {
                at: context.now,
                player: (!G::Extras::anonymous(e)).then_some(player),
                body: G::encode(e),
            })
            .collect();
        let adding: u64 = append.events.iter().map(|e| e.body.len() as u64).sum();
        if self.seq + append.events.len() as u64 > self.settings.table_events
            || self.bytes + adding > self.settings.table_bytes
        {
            self.settings.metrics.limited("table_size");
            return Err(Rejection::Refused {
                code: "table_full".into(),
                rule: "The table".into(),
                message: format!(
                    "This table is full: it holds at most {} events and {}. Export the story, and start a new table to go on.",
                    self.settings.table_events,
                    size_words(self.settings.table_bytes)
                ),
            }
            .into());
        }
        if let Some(address) = self.writer {
            self.spend_written(address, adding).await?;
        }
        let started = Instant::now();
        let appended = self.store.append(self.table, self.seq, append).await;
        Metrics::observe(
            &self.settings.metrics.store_append_seconds,
            started.elapsed(),
        );
        let seq = match appended {
            Ok(seq) => seq,
            Err(StoreError::Conflict) => {
                tracing::warn!(
                    table = self.table.0,
                    "another writer appended first: reloading the table"
                );
                return Err(Failed::Conflict);
            }
            Err(e) => {
                tracing::error!(table = self.table.0, "cannot save: {e}");
                return Err(not_saved().into());
            }
        };
        self.bytes += adding;
        let first = self.seq + 1;
        for (i, event) in events.iter().enumerate() {
            self.log.push(LogEntry {
                seq: first + i as u64,
                at: context.now,
                by: (!G::Extras::anonymous(event)).then_some(player),
                text: G::describe(&self.state, event),
                parts: G::Extras::describe_parts(&self.state, event),
                secret: G::Extras::kept_from_watchers(event),
            });
            self.state = G::evolve(std::mem::take(&mut self.state), event);
        }
        self.seq = seq;
        self.publish(first, Some(&events));
        self.share_follows(&events).await;
        Ok(())
    }

    /// Spends `bytes` of what `address` may write a minute, across tables and seats (so the
    /// seats one address may take cannot fill the disk), or refuses.
    async fn spend_written(&self, address: std::net::IpAddr, bytes: u64) -> Result<(), Rejection> {
        let units = bytes.div_ceil(u64::from(WRITTEN_UNIT));
        let units = u32::try_from(units).unwrap_or(u32::MAX);
        let spent = self.settings.written.spend(&self.store, address, units);
        let wait = match spent.await {
            Ok(()) => return Ok(()),
            Err(crate::limit::Refused::Until(wait)) => wait,
            Err(crate::limit::Refused::Unchecked) => {
                return Err(Rejection::Malformed(crate::limit::UNCHECKED.into()));
            }
        };
        self.settings.metrics.limited("address_written_bytes");
        Err(Rejection::Refused {
            code: "too_much_written".into(),
            rule: "The table".into(),
            message: format!(
                "Too much written from your address: at most {} a minute, across its tables. Try again {}.",
                crate::limit::kib_words(self.settings.written_kib_per_minute),
                crate::limit::wait_words(wait)
            ),
        })
    }

    /// Sends every page what changed from `first` on; `events` are those changes when they are
    /// known here (the view is then built from the one before where the game can).
    fn publish(&mut self, first: u64, events: Option<&[G::Event]>) {
        // The log is in seq order: only its end is new (a long log is not walked each time).
        let from = self.log.partition_point(|e| e.seq < first);
        let log: Vec<&LogEntry> = self.log[from..].iter().collect();
        let view = match (&self.shown, events) {
            (Some((base, shown)), Some(events)) if base + 1 == first => {
                G::view_after(&self.state, self.creator, shown, events)
            }
            _ => G::view(&self.state, self.creator),
        };
        // Pages hold the view at `base`: send what changed since, unless the whole view is
        // shorter (a new phase) or nobody was sent the view before this change.
        let update = match self.shown.take() {
            Some((base, shown)) if base + 1 == first => {
                let mut patch = Vec::new();
                shown.diff(&view, &mut String::new(), &mut patch);
                let patched =
                    update_message::<G::View>(self.seq, Some(base), &log, None, Some(&patch));
                if patched.len() > PATCH_CHECKED.max(self.whole_len / 2) {
                    let full = update_message(self.seq, None, &log, Some(&view), None);
                    self.whole_len = full.len();
                    if full.len() < patched.len() {
                        full
                    } else {
                        patched
                    }
                } else {
                    patched
                }
            }
            _ => {
                let full = update_message(self.seq, None, &log, Some(&view), None);
                self.whole_len = full.len();
                full
            }
        };
        let update: Arc<str> = Arc::from(update);
        let watch = self.watch_update(first, from, &view, &update);
        self.shown = Some((self.seq, view));
        // Only the players with a page open get theirs; a page that opens later has it in
        // its `sync`.
        // Pages keep their last `own`: none is needed after events that cannot change it.
        let own = match events {
            Some(events) if !G::Extras::own_may_change(events) => BTreeMap::new(),
            _ => (self.connections.keys())
                .map(|p| (*p, Arc::from(own_message(&G::Extras::own(&self.state, *p)))))
                .collect(),
        };
        let _ = self.published.send(Arc::new(Published {
            seq: self.seq,
            at: Instant::now(),
            update: Some(update),
            watch,
            everyone: None,
            links: false,
            own,
        }));
    }

    /// The watchers' `update` for the change from `first` on (its lines start at `from` in
    /// the log), while anyone watches: the players' one when watchers see what players see,
    /// else a patch of the view as watchers see it ([`Game::watched`]), with the log's secret
    /// lines left out.
    fn watch_update(
        &mut self,
        first: u64,
        from: usize,
        view: &G::View,
        players: &Arc<str>,
    ) -> Option<Arc<str>> {
        if self.watchers == 0 {
            return None;
        }
        let Some(watched) = G::watched(view) else {
            return Some(players.clone());
        };
        let seen = |e: &&LogEntry| e.seen_by(Viewer::Watcher);
        let log: Vec<&LogEntry> = self.log[from..].iter().filter(seen).collect();
        let message = match self.watch_shown.take() {
            Some((base, shown)) if base + 1 == first => {
                let mut patch = Vec::new();
                shown.diff(&watched, &mut String::new(), &mut patch);
                update_message::<G::View>(self.seq, Some(base), &log, None, Some(&patch))
            }
            _ => update_message(self.seq, None, &log, Some(&watched), None),
        };
        self.watch_shown = Some((self.seq, watched));
        Some(Arc::from(message))
    }

    fn sync_message(&mut self, viewer: Viewer, since: u64) -> Arc<str> {
        #[derive(serde::Serialize)]
        struct Sync<'a, V> {
            r#type: &'static str,
            seq: u64,
            now: i64,
            log: Vec<&'a LogEntry>,
            older: bool,
            /// The player, `None` for a watcher.
            you: Option<u32>,
            view: &'a V,
            own: Value,
            online: Vec<u32>,
            watchers: u32,
            name: Option<&'a str>,
            /// The table's title as *Your tables* shows it: its name, or the game's for it.
            title: String,
        }
        // The view at this seq is the one the next update patches: every page then has it.
        if self.shown.as_ref().is_none_or(|(seq, _)| *seq != self.seq) {
            self.shown = Some((self.seq, G::view(&self.state, self.creator)));
        }
        let Some((_, view)) = &self.shown else {
            unreachable!("set above")
        };
        // A watcher's page holds the watchers' view, which their next update patches.
        if viewer == Viewer::Watcher {
            self.watch_shown = G::watched(view).map(|watched| (self.seq, watched));
        }
        let (view, you, own) = match (viewer, &self.watch_shown) {
            (Viewer::Player(player), _) => {
                (view, Some(player), G::Extras::own(&self.state, player))
            }
            (Viewer::Watcher, Some((_, watched))) => (watched, None, Value::Null),
            (Viewer::Watcher, None) => (view, None, Value::Null),
        };
        let (log, older) = self.log_tail(since, u64::MAX);
        let sync = Sync {
            r#type: "sync",
            seq: self.seq,
            now: now(),
            log: log.iter().filter(|e| e.seen_by(viewer)).collect(),
            older,
            you,
            view,
            own,
            online: self.online(),
            watchers: self.watchers,
            name: self.name.as_deref(),
            title: self.title(),
        };
        Arc::from(serde_json::to_string(&sync).unwrap_or_default())
    }

    /// The newest lines with `after < seq < before`, at most [`crate::limits::LOG_LINES`] of
    /// them, and whether some in that range were left out: what a page is sent costs what it
    /// shows, however long the table's log.
    fn log_tail(&self, after: u64, before: u64) -> (&[LogEntry], bool) {
        // The log is in seq order.
        let start = self.log.partition_point(|e| e.seq <= after);
        let end = self.log.partition_point(|e| e.seq < before);
        let end = end.max(start);
        let first = start.max(end.saturating_sub(crate::limits::LOG_LINES));
        (&self.log[first..end], first > start)
    }

    fn online(&self) -> Vec<u32> {
        // A removed seat of a browser that holds others stays counted while its page is open.
        let removed = self.removed.borrow();
        let mut online: Vec<u32> = (self.connections.keys())
            .filter(|p| !removed.contains(p))
            .copied()
            .collect();
        online.sort_unstable();
        online
    }

    /// A page opened or closed: every page hears who is online, and how many watch.
    fn presence(&mut self, viewer: Viewer, device: &[u32], delta: i32) {
        let changed = match viewer {
            Viewer::Player(player) => {
                let others = device.iter().copied().filter(|p| *p != player);
                let mut changed = false;
                for player in std::iter::once(player).chain(others) {
                    let count = self.connections.entry(player).or_insert(0);
                    let before = *count;
                    *count = count.saturating_add_signed(delta);
                    let after = *count;
                    if after == 0 {
                        self.connections.remove(&player);
                    }
                    changed |= (before == 0) != (after == 0);
                }
                changed
            }
            Viewer::Watcher => {
                self.watchers = self.watchers.saturating_add_signed(delta);
                if self.watchers == 0 {
                    self.watch_shown = None;
                }
                true
            }
        };
        if changed {
            let message =
                json!({"type": "presence", "online": self.online(), "watchers": self.watchers});
            let message = message.to_string();
            let _ = (self.published).send(Published::everyone(self.seq, message, false));
        }
    }
}

/// What became of a request to open or close a read-only page ([`Request::Share`]).
#[derive(Debug)]
pub enum ShareAnswer {
    /// The table layer changes the page's link now.
    Now,
    /// The game's own action was taken (a proposal, say): the link follows its events.
    Taken,
    /// Not this player: why.
    Forbidden(String),
    /// The game refused the action.
    Refused(Rejection),
}

// Opening a read-only page (the published story, the watch link): whose it is to do, and the
// link that follows a game's own event.
impl<G: Game, S: Store> Room<G, S> {
    async fn share(&mut self, player: u32, link: crate::game::Link, open: bool) -> ShareAnswer {
        match G::Extras::share(&self.state, link, player, self.creator, open) {
            crate::game::Sharing::Now => ShareAnswer::Now,
            crate::game::Sharing::Forbidden(why) => ShareAnswer::Forbidden(why),
            crate::game::Sharing::Act(action) => match self.act(player, &action).await {
                Ok(_) => ShareAnswer::Taken,
                Err(rejection) => ShareAnswer::Refused(rejection),
            },
        }
    }

    /// After a commit: an event that opens a read-only page (publishes the story, lets
    /// watchers in) gives it a new link, one that closes it takes the link away, and every
    /// page hears that the links changed. Only the server that committed the event does this;
    /// a shared store tells the others.
    async fn share_follows(&self, events: &[G::Event]) {
        for link in [crate::game::Link::Story, crate::game::Link::Watch] {
            let last = events.iter().rev().filter_map(G::Extras::publishes);
            if let Some((_, open)) = last.into_iter().find(|(l, _)| *l == link) {
                self.set_link(link, open).await;
            }
        }
    }

    async fn set_link(&self, link: crate::game::Link, open: bool) {
        let code = match open.then(crate::random_token).transpose() {
            Ok(code) => code,
            Err(e) => {
                tracing::error!(table = self.table.0, "cannot open the {link:?} link: {e}");
                return;
            }
        };
        if let Err(e) = self.store.set_link(self.table, link, code.as_deref()).await {
            tracing::error!(table = self.table.0, "cannot change the {link:?} link: {e}");
            return;
        }
        if !self.settings.shared_store {
            let _ = self.published.send(Published::links_changed(self.seq));
        }
    }
}

/// The `update` message, serialized from borrowed parts (no copy of the view): since `base`,
/// a `patch` of the view, or the whole `view`.
fn update_message<V: serde::Serialize>(
    seq: u64,
    base: Option<u64>,
    log: &[&LogEntry],
    view: Option<&V>,
    patch: Option<&[crate::patch::Op]>,
) -> String {
    #[derive(serde::Serialize)]
    struct Update<'a, V> {
        r#type: &'static str,
        seq: u64,
        #[serde(skip_serializing_if = "Option::is_none")]
        base: Option<u64>,
        now: i64,
        log: &'a [&'a LogEntry],
        #[serde(skip_serializing_if = "Option::is_none")]
        view: Option<&'a V>,
        #[serde(skip_serializing_if = "Option::is_none")]
        patch: Option<&'a [crate::patch::Op]>,
    }
    let update = Update {
        r#type: "update",
        seq,
        base,
        now: now(),
        log,
        view,
        patch,
    };
    serde_json::to_string(&update).unwrap_or_default()
}

/// The message that brings a player what only they may know.
fn own_message(own: &Value) -> String {
    json!({"type": "own", "own": own}).to_string()
}

/// A size as people read it: "16 MiB", "48 KiB", "512 bytes".
fn size_words(bytes: u64) -> String {
    const KIB: u64 = 1024;
    const MIB: u64 = 1024 * KIB;
    if bytes >= MIB && bytes.is_multiple_of(MIB) {
        format!("{} MiB", bytes / MIB)
    } else if bytes >= KIB {
        format!("{} KiB", bytes / KIB)
    } else {
        format!("{bytes} bytes")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_random_source_refuses_the_change_in_words_for_the_player() {
        match no_random_source(getrandom::Error::UNSUPPORTED) {
            Rejection::Refused {
                code,
                rule,
                message,
            } => {
                assert_eq!(
                    (code.as_str(), rule.as_str()),
                    ("no_random_source", "The table")
                );
                assert!(message.contains("cannot roll dice"), "{message}");
                assert!(message.contains("Nothing changed"), "{message}");
            }
            other => panic!("{other:?}"),
        }
    }
}
