//! Several servers on one PostgreSQL database (issue 12): players of one table on different
//! servers see every accepted action in the same order, and a server killed in the middle of a
//! burst loses no acknowledged action: its players reconnect to another and resync.

use crate::{Page, http, scripted};
use futures_util::SinkExt;
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::time::Duration;
use store::{PgStore, Store};

/// A database of its own on this machine's PostgreSQL (`PROPHECY_TEST_POSTGRES`), dropped by
/// [`TestDb::drop_now`].
pub(crate) struct TestDb {
    name: String,
    server: String,
}

impl TestDb {
    pub(crate) async fn create(name: &str) -> TestDb {
        let server = std::env::var("PROPHECY_TEST_POSTGRES")
            .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".to_owned());
        let db = TestDb {
            name: format!("prophecy_servers_{name}_{}", std::process::id()),
            server,
        };
        db.admin(&format!("DROP DATABASE IF EXISTS {} WITH (FORCE)", db.name))
            .await;
        db.admin(&format!("CREATE DATABASE {}", db.name)).await;
        db
    }

    pub(crate) fn url(&self) -> String {
        let base = self
            .server
            .rsplit_once('/')
            .map_or(self.server.as_str(), |(b, _)| b);
        format!("{base}/{}", self.name)
    }

    async fn admin(&self, sql: &str) {
        use sqlx::Connection;
        let mut connection = sqlx::PgConnection::connect(&self.server)
            .await
            .unwrap_or_else(|e| {
                panic!(
                    "the test PostgreSQL at {} does not answer: {e}",
                    self.server
                )
            });
        sqlx::raw_sql(sqlx::AssertSqlSafe(sql.to_owned()))
            .execute(&mut connection)
            .await
            .unwrap();
        let _ = connection.close().await;
    }

    pub(crate) async fn drop_now(self) {
        self.admin(&format!(
            "DROP DATABASE IF EXISTS {} WITH (FORCE)",
            self.name
        ))
        .await;
    }
}

/// A server on its own runtime (its own thread), so that it can be killed: every task and
/// socket dropped at once, nothing closed gracefully, as with SIGKILL.
pub(crate) struct Served {
    pub(crate) addr: SocketAddr,
    runtime: Option<tokio::runtime::Runtime>,
}

impl Served {
    pub(crate) fn start(url: &str) -> Served {
        Served::start_with(url, scripted())
    }

    pub(crate) fn start_with(url: &str, options: server::Options) -> Served {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        let (sender, address) = std::sync::mpsc::channel();
        let url = url.to_owned();
        runtime.spawn(async move {
            let store = PgStore::open(&url).await.unwrap();
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            sender.send(listener.local_addr().unwrap()).unwrap();
            server::serve_with(listener, store, options, std::future::pending())
                .await
                .unwrap();
        });
        let addr = address.recv_timeout(Duration::from_secs(10)).unwrap();
        Served {
            addr,
            runtime: Some(runtime),
        }
    }

    fn kill(mut self) {
        self.runtime.take().unwrap().shutdown_background();
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

/// The seat cookie of a join answer.
fn seat(headers: &str) -> String {
    crate::cookie_of(headers)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_on_three_servers_share_one_table_and_a_killed_server_loses_nothing() {
    let db = TestDb::create("three").await;
    let a = Served::start(&db.url());
    let b = Served::start(&db.url());
    let c = Served::start(&db.url());
    let (status, headers, body) = http(
        a.addr,
        "POST",
        "/tables",
        None,
        Some(json!({"name": "Ada", "ruleset": "1.0"})),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let created: Value = serde_json::from_str(&body).unwrap();
    let token = created["token"].as_str().unwrap().to_owned();
    let invite = created["join"].as_str().unwrap().to_owned();
    let ada = seat(&headers);
    let mut cookies = vec![ada];
    // Bo joins through B, Cy through C, Di through B.
    for (name, server) in [("Bo", &b), ("Cy", &c), ("Di", &b)] {
        let (status, headers, body) = http(
            server.addr,
            "POST",
            &format!("/t/{token}/join"),
            None,
            Some(json!({"name": name, "join": invite})),
        )
        .await;
        assert_eq!(status, 200, "{body}");
        cookies.push(seat(&headers));
    }
    let homes = [a.addr, b.addr, c.addr, b.addr];
    let mut pages = Vec::new();
    for (cookie, home) in cookies.iter().zip(homes) {
        pages.push(Page::open(home, &token, cookie, 0).await);
    }
    // Each acts in turn: everyone, wherever they are, sees it.
    for (i, page) in pages.iter_mut().enumerate() {
        page.ok(json!({"action": "add_line", "text": format!("no spiders {i}")}))
            .await;
    }
    let store = PgStore::open(&db.url()).await.unwrap();
    let table = store.table_by_token(&token).await.unwrap().unwrap().id;
    let last = store.events_after(table, 0).await.unwrap().len() as u64;
    for page in pages.iter_mut() {
        while page.seq < last {
            page.next().await;
        }
        assert_eq!(page.seq, last);
    }
    let lines = |page: &Page| page.view["lines"].as_array().map_or(0, Vec::len);
    assert!(
        pages.iter().all(|page| lines(page) == 4),
        "every page has the four lines"
    );
    assert!(
        pages.iter().all(|page| page.view == pages[0].view),
        "the four pages on three servers have one view"
    );

    // The creator renews the invitation on A: pages on B and C hear it, to fetch the new link.
    let (status, _, body) = http(
        a.addr,
        "POST",
        &format!("/t/{token}/invite"),
        Some(&cookies[0]),
        Some(json!({"action": "renew"})),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    for page in &mut pages[1..3] {
        page.until(|m| m["type"] == "invite").await;
    }

    // A burst: every player writes at once; C is killed in the middle of it.
    const EACH: usize = 12;
    for (i, page) in pages.iter_mut().enumerate() {
        for n in 0..EACH {
            let text = format!("prophecy {i}-{n}");
            page.send(json!({"type": "act", "req": n, "action": {"action": "write_prophecy", "text": text}}))
                .await;
        }
    }
    let mut acknowledged: Vec<String> = Vec::new();
    let mut killed = Some(c);
    let mut cy_done = 0;
    // Cy hears a few answers, then her server dies.
    while cy_done < 3 {
        match pages[2].next_or_end().await {
            Some(m) if m["type"] == "done" => {
                acknowledged.push(format!("prophecy 2-{}", m["req"]));
                cy_done += 1;
            }
            Some(m) => pages[2].absorb(&m),
            None => break,
        }
    }
    killed.take().unwrap().kill();
    while let Some(m) = pages[2].next_or_end().await {
        if m["type"] == "done" {
            acknowledged.push(format!("prophecy 2-{}", m["req"]));
        }
    }
    // The others hear every answer to what they sent.
    for i in [0, 1, 3] {
        let mut answered = 0;
        while answered < EACH {
            let m = pages[i].next().await;
            match m["type"].as_str() {
                Some("done") => {
                    acknowledged.push(format!("prophecy {i}-{}", m["req"]));
                    answered += 1;
                }
                Some("refused" | "error") => panic!("{m}"),
                _ => {}
            }
        }
    }
    // Cy reconnects to A and resyncs from what she had.
    let cy_seq = pages[2].seq;
    pages[2] = Page::open(a.addr, &token, &cookies[2], cy_seq).await;

    // Every acknowledged action is in the log exactly once, and every page ends with the log
    // and the view of the table.
    let log = store.events_after(table, 0).await.unwrap();
    for text in &acknowledged {
        let times = log
            .iter()
            .filter(|e| e.body.contains(&format!("\"{text}\"")))
            .count();
        assert_eq!(times, 1, "{text} is in the log {times} times");
    }
    assert!(
        acknowledged.len() >= 3 * EACH + 3,
        "{} acknowledged",
        acknowledged.len()
    );
    let last = log.len() as u64;
    // B may hear the last notices after the page opens: they reach the page then.
    let mut fresh = Page::open(b.addr, &token, &cookies[1], 0).await;
    while fresh.seq < last {
        fresh.next().await;
    }
    assert_eq!(fresh.seq, last);
    for page in pages.iter_mut() {
        while page.seq < last {
            page.next().await;
        }
        assert_eq!(page.seq, last);
        assert_eq!(page.view, fresh.view, "a page's view differs");
    }
    // The log order every page built is the store's.
    let seqs: Vec<u64> = log.iter().map(|e| e.seq).collect();
    assert_eq!(seqs, (1..=last).collect::<Vec<_>>());
    store.close().await;
    drop((a, b));
    db.drop_now().await;
}

/// Two servers on one database, a table made on A by Ada, and Bo seated through B with his
/// page open there.
struct Removal {
    db: TestDb,
    a: Served,
    b: Served,
    token: String,
    ada: Page,
    bo: Page,
    bo_cookie: String,
    bo_id: Value,
    /// The invitation Bo joined with.
    invite: Value,
}

impl Removal {
    async fn seat(name: &str, table: Value) -> Removal {
        let db = TestDb::create(name).await;
        let a = Served::start(&db.url());
        let b = Served::start(&db.url());
        let (status, headers, body) = http(a.addr, "POST", "/tables", None, Some(table)).await;
        assert_eq!(status, 200, "{body}");
        let created: Value = serde_json::from_str(&body).unwrap();
        let token = created["token"].as_str().unwrap().to_owned();
        let ada_cookie = seat(&headers);
        let (status, headers, body) = http(
            b.addr,
            "POST",
            &format!("/t/{token}/join"),
            None,
            Some(json!({"name": "Bo", "join": created["join"]})),
        )
        .await;
        assert_eq!(status, 200, "{body}");
        let bo_cookie = seat(&headers);
        let mut ada = Page::open(a.addr, &token, &ada_cookie, 0).await;
        let bo = Page::open(b.addr, &token, &bo_cookie, 0).await;
        let bo_id = bo.heard[0]["you"].clone();
        // Ada's page shows Bo once A has heard of his seat.
        ada.catch_up(bo.seq).await;
        Removal {
            db,
            a,
            b,
            token,
            ada,
            bo,
            bo_cookie,
            bo_id,
            invite: created["join"].clone(),
        }
    }

    /// Ada removes Bo on A, then Bo's page on B tries `action`: the page is told it was
    /// removed and closed, the action is not taken (no event of `kind` in the log), and Bo's
    /// cookie no longer opens a page on B.
    async fn remove_bo_then_try(mut self, action: Value, kind: &str) {
        self.ada
            .ok(json!({"action": "remove_player", "player": self.bo_id}))
            .await;
        // The removal renewed the invitation; every server's pages hear it.
        self.ada.until(|m| m["type"] == "invite").await;
        // Sent whatever B knows yet: the socket may already be closing.
        let act = json!({"type": "act", "req": 1, "action": action}).to_string();
        let _ = self
            .bo
            .ws
            .send(tokio_tungstenite::tungstenite::Message::text(act))
            .await;
        let mut heard = Vec::new();
        let ended = tokio::time::timeout(Duration::from_secs(10), async {
            while let Some(m) = self.bo.next_or_end().await {
                heard.push(m);
            }
        })
        .await;
        assert!(ended.is_ok(), "B closes Bo's page; it heard {heard:?}");
        assert!(
            heard.iter().any(|m| m["type"] == "removed"),
            "Bo's page on B is told: {heard:?}"
        );
        assert!(
            !heard.iter().any(|m| m["type"] == "done"),
            "Bo's action on B is not taken: {heard:?}"
        );
        let store = PgStore::open(&self.db.url()).await.unwrap();
        let table = store.table_by_token(&self.token).await.unwrap().unwrap().id;
        let log = store.events_after(table, 0).await.unwrap();
        let kind = format!("\"type\":\"{kind}\"");
        assert!(
            !log.iter().any(|e| e.body.contains(&kind)),
            "no {kind} in the log"
        );
        let (status, _, body) = http(
            self.b.addr,
            "POST",
            &format!("/t/{}/join", self.token),
            None,
            Some(json!({"name": "Bo again", "join": self.invite})),
        )
        .await;
        assert_eq!(status, 403, "the old invitation seats nobody: {body}");
        let origin = format!("http://{}", self.b.addr);
        assert_eq!(
            crate::upgrade_status(self.b.addr, &self.token, Some(&self.bo_cookie), &origin).await,
            401,
            "Bo's cookie opens no page on B"
        );
        store.close().await;
        drop((self.a, self.b));
        self.db.drop_now().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_story_player_removed_on_one_server_is_closed_out_on_the_other() {
    let removal = Removal::seat("remove_story", json!({"name": "Ada", "ruleset": "1.0"})).await;
    removal
        .remove_bo_then_try(
            json!({"action": "add_line", "text": "no spiders"}),
            "line_added",
        )
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_player_removed_on_one_server_is_closed_out_on_the_other() {
    let removal = Removal::seat(
        "remove_challenge",
        json!({"name": "Ada", "game": "challenge"}),
    )
    .await;
    let sheet = json!({"name": "Mira", "aptitudes": {"physicality": 2}});
    removal
        .remove_bo_then_try(
            json!({"action": "create_sheet", "sheet": sheet}),
            "sheet_created",
        )
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_board_player_whose_seat_a_bot_plays_removed_on_one_server_is_closed_out_on_the_other() {
    let mut removal = Removal::seat(
        "remove_board",
        json!({"name": "Ada", "game": "board", "bots": 0}),
    )
    .await;
    removal.ada.ok(json!({"action": "start"})).await;
    // Bo hands his seat to a bot on B; A hears it before Ada removes him.
    let bo_id = removal.bo_id.clone();
    removal
        .bo
        .ok(json!({"action": "hand_to_bot", "player": bo_id}))
        .await;
    let seq = removal.bo.seq;
    removal.ada.catch_up(seq).await;
    removal
        .remove_bo_then_try(json!({"action": "take_back"}), "player_returned")
        .await;
}

/// A watch link works on whichever server it reaches: a watcher on B follows a table played on
/// A (through the database's notices), never sees its lines, and is sent away when a player on
/// A closes the link.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_watcher_on_another_server_follows_the_table_and_is_sent_away_when_it_closes() {
    let db = TestDb::create("watch").await;
    let a = Served::start(&db.url());
    let b = Served::start(&db.url());
    let (status, headers, body) = http(
        a.addr,
        "POST",
        "/tables",
        None,
        Some(json!({"name": "Ada", "game": "challenge"})),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let token = serde_json::from_str::<Value>(&body).unwrap()["token"]
        .as_str()
        .unwrap()
        .to_owned();
    let ada = seat(&headers);
    let mut page = Page::open(a.addr, &token, &ada, 0).await;
    let open = |action: &'static str| {
        let (token, ada) = (token.clone(), ada.clone());
        async move {
            let path = format!("/t/{token}/watch");
            let body = Some(json!({ "action": action }));
            http(a.addr, "POST", &path, Some(&ada), body).await
        }
    };
    let (status, _, body) = open("open").await;
    assert_eq!(status, 200, "{body}");
    let link: Value = serde_json::from_str(&body).unwrap();
    let code = link["link"].as_str().unwrap().split_once("/w/").unwrap().1;
    let (status, _, _) = http(b.addr, "GET", &format!("/w/{code}"), None, None).await;
    assert_eq!(status, 200, "the watch page on B");
    let mut watcher = Page::watch(b.addr, code, 0).await;
    let sheet = json!({"name": "Mira", "aptitudes": {"physicality": 2}});
    page.ok(json!({"action": "create_sheet", "sheet": sheet}))
        .await;
    watcher.catch_up(page.seq).await;
    assert_eq!(
        watcher.view, page.view,
        "the watcher on B sees what Ada sees on A"
    );
    let (status, _, _) = open("close").await;
    assert_eq!(status, 200);
    let closed = watcher.until(|m| m["type"] == "closed").await;
    assert!(closed["message"].as_str().unwrap().contains("closed"));
    assert!(watcher.closed().await);
    let (status, _, _) = http(b.addr, "GET", &format!("/w/{code}"), None, None).await;
    assert_eq!(status, 404);
    drop((a, b));
    db.drop_now().await;
}
