//! Three `prophecy serve` on one PostgreSQL database behind Caddy, configured as
//! docs/deploy.md says (issue 34): every request and socket of a table reaches one server; when
//! that server is killed in the middle of a burst of actions its tables carry on at another
//! while the other tables never stop, and every acknowledged action is in the log exactly once.

use crate::pg::{PgDb, psql_at};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::{Message, client::IntoClientRequest};

/// How long any one thing may take: generous, as CI runs this on two busy cores.
const PATIENCE: Duration = Duration::from_secs(60);

/// Actions each player sends in the burst: within a seat's burst of 20 messages, with its
/// `hello`.
const EACH: u64 = 12;

/// The deployment guide, whose Caddy configuration this test runs, so the two stay one.
const DEPLOY: &str = include_str!("../../../../docs/deploy.md");

/// The guide's Caddyfile for several servers, listening on `port` in front of `servers`.
fn caddyfile(port: u16, servers: &[String]) -> String {
    let block = DEPLOY
        .split("```caddyfile\n")
        .skip(1)
        .filter_map(|b| b.split("```").next())
        .find(|b| b.contains("lb_policy header"))
        .expect("docs/deploy.md has a Caddyfile with lb_policy header");
    let upstreams = "127.0.0.1:8081 127.0.0.1:8082 127.0.0.1:8083";
    assert!(
        block.starts_with("play.example.org {") && block.contains(upstreams),
        "the guide's Caddyfile changed its shape; change this test with it:\n{block}"
    );
    let block = block
        .replacen(
            "play.example.org {",
            &format!("http://127.0.0.1:{port} {{"),
            1,
        )
        .replacen(upstreams, &servers.join(" "), 1);
    // Plain HTTP on loopback: no certificates, and no admin endpoint to collide with others.
    format!("{{\n\tadmin off\n\tauto_https off\n}}\n\n{block}")
}

/// Waits until `check` gives something, polling: panics naming `what` past [`PATIENCE`].
async fn eventually<T>(what: &str, mut check: impl FnMut() -> Option<T>) -> T {
    let deadline = Instant::now() + PATIENCE;
    loop {
        if let Some(found) = check() {
            return found;
        }
        assert!(Instant::now() < deadline, "{what}: not within {PATIENCE:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// A running `prophecy serve` and every line it logged so far (one per request).
struct Server {
    child: Child,
    log: Arc<Mutex<Vec<String>>>,
    addr: String,
}

impl Server {
    async fn start(db: &str) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_prophecy"))
            .args([
                "serve",
                "--addr",
                "127.0.0.1:0",
                "--trust-proxy",
                "--db",
                db,
            ])
            // Every request of the test comes from one address through the proxy.
            .args([
                "--tables-per-minute",
                "10000",
                "--joins-per-minute",
                "10000",
            ])
            .env_remove("RUST_LOG")
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let log = Arc::new(Mutex::new(Vec::new()));
        let lines = Arc::clone(&log);
        let stderr = child.stderr.take().unwrap();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                lines.lock().unwrap().push(line);
            }
        });
        let listening = eventually("the server listens", || {
            log.lock()
                .unwrap()
                .iter()
                .find_map(|l| l.split("listening on http://").nth(1).map(str::to_owned))
        })
        .await;
        let addr = listening.split('/').next().unwrap().to_owned();
        Server { child, log, addr }
    }

    /// How many lines it logged so far.
    fn lines(&self) -> usize {
        self.log.lock().unwrap().len()
    }

    /// Its log lines from line `from` on that name the table `token` (shortened to 6
    /// characters in the log).
    fn mentions(&self, token: &str, from: usize) -> usize {
        let name = format!("/t/{}…", &token[..6]);
        let log = self.log.lock().unwrap();
        log.iter()
            .skip(from)
            .filter(|line| line.contains(&name))
            .count()
    }

    /// SIGKILL: no goodbye to any socket, nothing flushed.
    fn kill(&mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Caddy from the Debian package, running the guide's configuration in a folder of its own.
struct Caddy {
    child: Child,
    dir: PathBuf,
    addr: String,
}

impl Caddy {
    async fn start(servers: &[String]) -> Caddy {
        let dir = std::env::temp_dir().join(format!("prophecy-caddy-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let config = dir.join("Caddyfile");
        std::fs::write(&config, caddyfile(port, servers)).unwrap();
        let log = std::fs::File::create(dir.join("caddy.log")).unwrap();
        let child = Command::new("caddy")
            .args(["run", "--adapter", "caddyfile", "--config"])
            .arg(&config)
            // Caddy keeps its state under HOME or XDG's folders: here, in the test's.
            .env("HOME", &dir)
            .env("XDG_DATA_HOME", dir.join("data"))
            .env("XDG_CONFIG_HOME", dir.join("config"))
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .unwrap_or_else(|e| {
                let _ = std::fs::remove_dir_all(&dir);
                panic!(
                    "Caddy does not run ({e}): this test needs Debian's caddy package \
                     (scripts/test.sh installs it)"
                )
            });
        let mut caddy = Caddy {
            child,
            dir,
            addr: format!("127.0.0.1:{port}"),
        };
        let deadline = Instant::now() + PATIENCE;
        // Ready once a request reaches a server through it.
        while !matches!(
            http(&caddy.addr, "GET", "/healthz", None, None).await,
            Ok((200, ..))
        ) {
            let exited = caddy.child.try_wait().unwrap();
            if exited.is_some() || Instant::now() > deadline {
                let log = std::fs::read_to_string(caddy.dir.join("caddy.log")).unwrap();
                panic!("Caddy does not serve ({exited:?}); its log:\n{log}");
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        caddy
    }
}

impl Drop for Caddy {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// One HTTP/1.1 exchange with `addr`: (status, lowercase head, body).
async fn http(
    addr: &str,
    method: &str,
    path: &str,
    cookie: Option<&str>,
    body: Option<Value>,
) -> std::io::Result<(u16, String, String)> {
    let mut stream = TcpStream::connect(addr).await?;
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let mut request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nAccept: application/json\r\nContent-Type: application/json\r\nContent-Length: {}\r\n",
        body.len()
    );
    if let Some(cookie) = cookie {
        request.push_str(&format!("Cookie: {cookie}\r\n"));
    }
    request.push_str("\r\n");
    request.push_str(&body);
    stream.write_all(request.as_bytes()).await?;
    let mut response = Vec::new();
    stream.read_to_end(&mut response).await?;
    let response = String::from_utf8_lossy(&response).into_owned();
    let (head, body) = response.split_once("\r\n\r\n").unwrap_or((&response, ""));
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    Ok((status, head.to_ascii_lowercase(), body.to_owned()))
}

/// The seat cookie a response set.
fn cookie_of(head: &str) -> String {
    let line = head
        .lines()
        .find(|l| l.starts_with("set-cookie: seat="))
        .expect("a seat cookie");
    line.trim_start_matches("set-cookie: ")
        .split(';')
        .next()
        .unwrap()
        .to_owned()
}

type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

/// One player's page, through the proxy.
struct Page {
    ws: Ws,
    /// The last event it has.
    seq: u64,
    /// Its actions' texts are `prophecy {label}-{req}`.
    label: String,
}

impl Page {
    /// Opens the table's socket and says `hello`; `Err` when the socket is refused or closes
    /// before the `sync`.
    async fn open(proxy: &str, token: &str, cookie: &str, since: u64) -> Result<Page, String> {
        let mut request = format!("ws://{proxy}/t/{token}/ws")
            .into_client_request()
            .unwrap();
        let headers = request.headers_mut();
        headers.insert("Cookie", cookie.parse().unwrap());
        headers.insert("Origin", format!("http://{proxy}").parse().unwrap());
        let (ws, _) = tokio_tungstenite::connect_async(request)
            .await
            .map_err(|e| e.to_string())?;
        let mut page = Page {
            ws,
            seq: since,
            label: String::new(),
        };
        let hello = json!({"type": "hello", "since": since});
        page.send(&hello).await;
        loop {
            match page.next().await {
                Some(m) if m["type"] == "sync" => return Ok(page),
                // A `hello` past the seat's rate: the page says it again a second later.
                Some(m) if m["type"] == "error" && m["req"].is_null() => {
                    tokio::time::sleep(Duration::from_secs(1)).await;
                    page.send(&hello).await;
                }
                Some(_) => {}
                None => return Err("closed before its sync".to_owned()),
            }
        }
    }

    /// Opens the page again, as a page does after its socket closed, until it is served.
    async fn reopen(proxy: &str, token: &str, cookie: &str, since: u64, label: &str) -> Page {
        let deadline = Instant::now() + PATIENCE;
        loop {
            match Page::open(proxy, token, cookie, since).await {
                Ok(mut page) => {
                    page.label = label.to_owned();
                    return page;
                }
                Err(e) => assert!(
                    Instant::now() < deadline,
                    "table {token} is not served again within {PATIENCE:?}: {e}"
                ),
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }

    async fn send(&mut self, message: &Value) {
        self.ws
            .send(Message::text(message.to_string()))
            .await
            .unwrap();
    }

    /// Sends action number `req`: a prophecy whose text names this page and `req`.
    async fn act(&mut self, req: u64) {
        let text = format!("prophecy {}-{req}", self.label);
        let action = json!({"action": "write_prophecy", "text": text});
        self.send(&json!({"type": "act", "req": req, "action": action}))
            .await;
    }

    /// The next message (its `seq` taken in), or `None` once the socket closed.
    async fn next(&mut self) -> Option<Value> {
        loop {
            let frame = tokio::time::timeout(PATIENCE, self.ws.next())
                .await
                .unwrap_or_else(|_| panic!("page {}: nothing within {PATIENCE:?}", self.label));
            match frame {
                None | Some(Err(_) | Ok(Message::Close(_))) => return None,
                Some(Ok(Message::Text(text))) => {
                    let message: Value = serde_json::from_str(&text).unwrap();
                    if let Some(seq) = message["seq"].as_u64()
                        && matches!(message["type"].as_str(), Some("sync" | "update"))
                    {
                        self.seq = seq;
                    }
                    return Some(message);
                }
                Some(Ok(_)) => {}
            }
        }
    }

    /// Reads until `count` of its actions are answered `done`: their texts. Any other answer,
    /// or the socket closing, fails.
    async fn answers(&mut self, count: usize) -> Vec<String> {
        let mut done = Vec::new();
        while done.len() < count {
            let message = self
                .next()
                .await
                .unwrap_or_else(|| panic!("page {}'s socket closed", self.label));
            match message["type"].as_str() {
                Some("done") => done.push(format!("prophecy {}-{}", self.label, message["req"])),
                Some("refused" | "error") => panic!("page {}: {message}", self.label),
                _ => {}
            }
        }
        done
    }
}

/// A table made through the proxy, with two players' pages open.
struct Table {
    token: String,
    cookies: Vec<String>,
    pages: Vec<Page>,
    /// The server holding it (an index into the servers).
    home: usize,
}

impl Table {
    /// Table number `number`: Ada creates it, Bo joins, both open their pages; then the
    /// servers' logs say which one served all of that.
    async fn create(proxy: &str, servers: &[Server], number: usize) -> Table {
        let table = json!({"name": "Ada", "ruleset": "1.0"});
        let (status, head, body) = http(proxy, "POST", "/tables", None, Some(table))
            .await
            .unwrap();
        assert_eq!(status, 200, "{body}");
        let created: Value = serde_json::from_str(&body).unwrap();
        let token = created["token"].as_str().unwrap().to_owned();
        let join = json!({"name": "Bo", "join": created["join"]});
        let path = format!("/t/{token}/join");
        let (status, bo, body) = http(proxy, "POST", &path, None, Some(join)).await.unwrap();
        assert_eq!(status, 200, "{body}");
        let cookies = vec![cookie_of(&head), cookie_of(&bo)];
        let mut pages = Vec::new();
        for (player, cookie) in cookies.iter().enumerate() {
            let label = format!("{number}-{player}");
            pages.push(Page::reopen(proxy, &token, cookie, 0, &label).await);
        }
        // The join and the two sockets: three requests naming the table, all on one server.
        let counts = eventually("the servers log the table's requests", || {
            let counts: Vec<usize> = servers.iter().map(|s| s.mentions(&token, 0)).collect();
            (counts.iter().sum::<usize>() >= 3).then_some(counts)
        })
        .await;
        let holding: Vec<usize> = (0..servers.len()).filter(|&i| counts[i] > 0).collect();
        assert_eq!(
            holding.len(),
            1,
            "table {token}'s requests went to several servers: {counts:?}"
        );
        Table {
            token,
            cookies,
            pages,
            home: holding[0],
        }
    }
}

/// How many servers hold some of `tables`.
fn servers_holding(tables: &[Table]) -> usize {
    let mut homes: Vec<usize> = tables.iter().map(|t| t.home).collect();
    homes.sort_unstable();
    homes.dedup();
    homes.len()
}

/// Every player of every table sends [`EACH`] actions at once; `victim` is killed once the
/// first of its tables has an action decided. Every page of its tables is closed by the proxy,
/// every other page hears all its answers. The acknowledged actions' texts.
async fn burst_killing(tables: &mut [Table], victim: &mut Server, home: usize) -> Vec<String> {
    for table in tables.iter_mut() {
        for page in &mut table.pages {
            for req in 0..EACH {
                page.act(req).await;
            }
        }
    }
    let first = &mut tables[0].pages[0];
    let mut acknowledged = first.answers(1).await;
    victim.kill();
    for table in tables.iter_mut() {
        for page in &mut table.pages {
            if table.home != home {
                acknowledged.extend(page.answers(EACH as usize).await);
                continue;
            }
            // Its answers until the proxy closes the socket its server left.
            while let Some(message) = page.next().await {
                if message["type"] == "done" {
                    acknowledged.push(format!("prophecy {}-{}", page.label, message["req"]));
                }
            }
        }
    }
    acknowledged
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn behind_caddy_a_table_lives_on_one_server_and_moves_when_it_is_killed() {
    let db = PgDb::create("proxy");
    let mut servers = Vec::new();
    for _ in 0..3 {
        servers.push(Server::start(&db.url).await);
    }
    let addrs: Vec<String> = servers.iter().map(|s| s.addr.clone()).collect();
    let caddy = Caddy::start(&addrs).await;
    let proxy = caddy.addr.clone();
    // Tables until two servers hold some: the token's hash, not the test, places them.
    let mut tables = Vec::new();
    while tables.len() < 4 || servers_holding(&tables) < 2 {
        assert!(tables.len() < 30, "30 tables, all on one server");
        tables.push(Table::create(&proxy, &servers, tables.len()).await);
    }
    let victim = tables[0].home;
    let marks: Vec<usize> = servers.iter().map(Server::lines).collect();
    let mut acknowledged = burst_killing(&mut tables, &mut servers[victim], victim).await;

    // The killed server's tables are served again through the proxy, and take actions; the
    // others' pages, never closed, take more too.
    for table in &mut tables {
        for (player, page) in table.pages.iter_mut().enumerate() {
            if table.home == victim {
                let cookie = &table.cookies[player];
                let label = page.label.clone();
                *page = Page::reopen(&proxy, &table.token, cookie, page.seq, &label).await;
            }
            page.act(EACH).await;
            page.act(EACH + 1).await;
            acknowledged.extend(page.answers(2).await);
        }
        // A request of its own, so that every table is named in the logs after the kill.
        let path = format!("/t/{}/me", table.token);
        let cookie = Some(table.cookies[0].as_str());
        let (status, _, body) = http(&proxy, "GET", &path, cookie, None).await.unwrap();
        assert_eq!(status, 200, "{body}");
    }

    // Since the kill: each of the killed server's tables on one other server, the others
    // still on theirs.
    for table in &tables {
        let counts = eventually("the servers log the requests after the kill", || {
            let counts: Vec<usize> = (0..servers.len())
                .map(|i| servers[i].mentions(&table.token, marks[i]))
                .collect();
            let wanted = if table.home == victim { 3 } else { 1 };
            (counts.iter().sum::<usize>() >= wanted).then_some(counts)
        })
        .await;
        let holding: Vec<usize> = (0..servers.len()).filter(|&i| counts[i] > 0).collect();
        if table.home == victim {
            assert_eq!(holding.len(), 1, "{}: {counts:?}", table.token);
        } else {
            assert_eq!(holding, [table.home], "{} moved: {counts:?}", table.token);
        }
    }

    // Every acknowledged action is in the log exactly once.
    let log = psql_at(&db.url, "SELECT body FROM events");
    for text in &acknowledged {
        let quoted = format!("\"{text}\"");
        let times = log.lines().filter(|l| l.contains(&quoted)).count();
        assert_eq!(times, 1, "{text} is in the log {times} times");
    }
    let others = tables.iter().filter(|t| t.home != victim).count();
    let wanted = others * 2 * EACH as usize + tables.len() * 2 * 2 + 1;
    assert!(
        acknowledged.len() >= wanted,
        "{} acknowledged",
        acknowledged.len()
    );
    drop((caddy, servers));
}
