//! Tables have names (issue 31): the creator may name a table when creating it, and the name
//! is the table's title everywhere (the home page's list, the table page, the exports); an
//! unnamed board or Challenge table is named by its game and the day it was created.

use crate::{Page, Server, cookie_of, fresh_db, http};
use serde_json::{Value, json};
use sqlx::Connection;
use std::net::SocketAddr;
use store::Store;

/// Creates a table with these fields (the creator is Ada): (status, token, cookie, body).
async fn create(addr: SocketAddr, fields: Value) -> (u16, String, String, Value) {
    let mut fields = fields;
    fields["name"] = json!("Ada");
    let (status, headers, body) = http(addr, "POST", "/tables", None, Some(fields)).await;
    let body: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
    if status != 200 {
        return (status, String::new(), String::new(), body);
    }
    let token = body["token"].as_str().unwrap().to_owned();
    (status, token, cookie_of(&headers), body)
}

/// A request as written, and the whole answer.
async fn raw(addr: SocketAddr, request: &str) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).await.unwrap();
    String::from_utf8_lossy(&answer).into_owned()
}

/// `GET path` as Ada: (status, headers, body), asserting 200.
async fn get(addr: SocketAddr, path: &str, cookie: &str) -> (String, String) {
    let (status, headers, body) = http(addr, "GET", path, Some(cookie), None).await;
    assert_eq!(status, 200, "{path}: {body}");
    (headers, body)
}

/// The table's title on the home page's list, its Markdown export's first line and download
/// name, and the printable page's `<title>`.
async fn titles(addr: SocketAddr, token: &str, cookie: &str) -> (String, String, String, String) {
    let (_, summary) = get(addr, &format!("/t/{token}/summary"), cookie).await;
    let summary: Value = serde_json::from_str(&summary).unwrap();
    let (headers, export) = get(addr, &format!("/t/{token}/export.md"), cookie).await;
    let file = headers
        .lines()
        .find_map(|l| l.strip_prefix("content-disposition: attachment; filename=\""))
        .unwrap()
        .trim_end_matches('"')
        .to_owned();
    let (_, print) = get(addr, &format!("/t/{token}/print"), cookie).await;
    let title = print
        .split_once("<title>")
        .and_then(|(_, rest)| rest.split_once("</title>"))
        .unwrap()
        .0
        .to_owned();
    (
        summary["title"].as_str().unwrap().to_owned(),
        export.lines().next().unwrap().to_owned(),
        file,
        title,
    )
}

/// The title an unnamed table of game `what` gets: the day it was created, from the store.
async fn default_title(server: &Server, token: &str, what: &str) -> String {
    let record = server.store.table_by_token(token).await.unwrap().unwrap();
    assert_eq!(record.name, None);
    server::game::dated(what, record.created_at)
}

#[tokio::test]
async fn a_named_table_is_called_by_its_name_everywhere() {
    let db = fresh_db();
    let server = Server::start(&db).await;
    let addr = server.addr;
    for fields in [
        json!({"game": "board", "bots": 1}),
        json!({"game": "challenge"}),
        json!({"game": "story", "ruleset": "1.0"}),
    ] {
        let mut fields = fields;
        // Trimmed, its spaces single; markup in it is text.
        fields["table_name"] = json!("  Friday  <b>*night*</b> ");
        let (status, token, ada, body) = create(addr, fields.clone()).await;
        assert_eq!(status, 200, "{fields}: {body}");
        let record = server.store.table_by_token(&token).await.unwrap().unwrap();
        assert_eq!(record.name.as_deref(), Some("Friday <b>*night*</b>"));
        let (summary, heading, file, print) = titles(addr, &token, &ada).await;
        assert_eq!(summary, "Friday <b>*night*</b>", "{fields}");
        assert_eq!(
            heading, r"# Friday &lt;b&gt;\*night\*&lt;/b&gt;",
            "{fields}"
        );
        assert_eq!(file, "friday-b-night-b.md", "{fields}");
        assert_eq!(print, "Friday &lt;b&gt;*night*&lt;/b&gt;", "{fields}");
        // The page learns the name with the table.
        let page = Page::open(addr, &token, &ada, 0).await;
        let sync = page.heard.iter().find(|m| m["type"] == "sync").unwrap();
        assert_eq!(sync["name"], "Friday <b>*night*</b>", "{fields}");
        // The published page too.
        let (status, _, shared) = http(
            addr,
            "POST",
            &format!("/t/{token}/share"),
            Some(&ada),
            Some(json!({"action": "publish"})),
        )
        .await;
        assert_eq!(status, 200, "{shared}");
        let shared: Value = serde_json::from_str(&shared).unwrap();
        let link = shared["share"].as_str().expect("published at once");
        let path = &link[link.find("/s/").unwrap()..];
        let (status, _, page) = http(addr, "GET", path, None, None).await;
        assert_eq!(status, 200);
        assert!(
            page.contains("<title>Friday &lt;b&gt;*night*&lt;/b&gt;</title>"),
            "{page}"
        );
        // And so does a newcomer's join page.
        let code = body["join"].as_str().unwrap();
        let (status, _, me) = http(
            addr,
            "GET",
            &format!("/t/{token}/me?join={code}"),
            None,
            None,
        )
        .await;
        assert_eq!(status, 200);
        let me: Value = serde_json::from_str(&me).unwrap();
        assert_eq!(me["table"]["title"], "Friday <b>*night*</b>");
    }
    server.stop().await;
}

#[tokio::test]
async fn unnamed_board_and_challenge_tables_are_named_by_their_game_and_day() {
    let db = fresh_db();
    let server = Server::start(&db).await;
    let addr = server.addr;
    for (fields, what) in [
        (
            json!({"game": "board", "bots": 1, "table_name": "   "}),
            "Board game",
        ),
        (json!({"game": "challenge"}), "Challenge session"),
    ] {
        let (status, token, ada, body) = create(addr, fields).await;
        assert_eq!(status, 200, "{body}");
        let expected = default_title(&server, &token, what).await;
        assert!(
            expected.starts_with(&format!("{what}, ")) && expected.len() > what.len() + 12,
            "{expected}"
        );
        let (summary, heading, file, print) = titles(addr, &token, &ada).await;
        assert_eq!(summary, expected);
        assert_eq!(heading, format!("# {expected}"));
        let words = expected.to_lowercase().replace(", ", " ").replace(' ', "-");
        assert_eq!(file, format!("{words}.md"));
        assert_eq!(print, expected);
        let page = Page::open(addr, &token, &ada, 0).await;
        let sync = page.heard.iter().find(|m| m["type"] == "sync").unwrap();
        assert_eq!(sync["name"], Value::Null);
    }
    // An unnamed story keeps its own title, as before names.
    let (_, token, ada, _) = create(addr, json!({"game": "story", "ruleset": "1.0"})).await;
    let (summary, heading, file, _) = titles(addr, &token, &ada).await;
    assert_eq!(
        (summary.as_str(), heading.as_str()),
        ("Ada\u{2019}s table", "# A prophecy")
    );
    assert_eq!(file, "a-prophecy.md");
    server.stop().await;
}

#[tokio::test]
async fn a_name_too_long_or_with_control_characters_is_refused_with_one_line() {
    let db = fresh_db();
    let server = Server::start(&db).await;
    let addr = server.addr;
    let limit = server::limits::TABLE_NAME_CHARS;
    assert_eq!(limit, 80);
    let long = "é".repeat(81);
    for (name, message) in [
        (
            long.as_str(),
            "A table's name is at most 80 characters; this one has 81.",
        ),
        (
            "Two\nlines",
            "A table's name cannot hold control characters such as line breaks or tabs.",
        ),
        (
            "\u{1b}[31mred",
            "A table's name cannot hold control characters such as line breaks or tabs.",
        ),
    ] {
        let (status, _, _, body) = create(
            addr,
            json!({"game": "board", "bots": 1, "table_name": name}),
        )
        .await;
        assert_eq!(
            (status, body["error"].as_str()),
            (400, Some(message)),
            "{name:?}"
        );
    }
    // 80 characters are a name (characters, not bytes).
    let (status, token, ada, _) = create(
        addr,
        json!({"game": "board", "bots": 1, "table_name": "é".repeat(80)}),
    )
    .await;
    assert_eq!(status, 200);
    let (_, summary) = get(addr, &format!("/t/{token}/summary"), &ada).await;
    assert!(summary.contains(&"é".repeat(80)), "{summary}");
    // The form without JavaScript: the error page says the same.
    let body = format!("name=Ada&game=board&bots=1&table_name={}", "x".repeat(90));
    let request = format!(
        "POST /tables HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let answer = raw(addr, &request).await;
    assert!(answer.starts_with("HTTP/1.1 400"), "{answer}");
    assert!(
        answer.contains("A table&#39;s name is at most 80 characters; this one has 90."),
        "{answer}"
    );
    // Nothing was created by the refusals: the one table is the named one.
    let url = format!("sqlite://{}", db.display());
    let mut connection = sqlx::SqliteConnection::connect(&url).await.unwrap();
    let tables: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM tables")
        .fetch_one(&mut connection)
        .await
        .unwrap();
    assert_eq!(tables, 1);
    connection.close().await.unwrap();
    server.stop().await;
}

#[tokio::test]
async fn a_database_from_before_names_gets_the_column_and_its_tables_their_default_names() {
    let db = fresh_db();
    let server = Server::start(&db).await;
    let addr = server.addr;
    let (_, board, ada, _) = create(addr, json!({"game": "board", "bots": 1})).await;
    let (_, story, ada_story, _) = create(addr, json!({"game": "story", "ruleset": "1.0"})).await;
    server.stop().await;
    // The file as the server before names left it: no `name` column, no migration 4.
    let url = format!("sqlite://{}", db.display());
    let mut connection = sqlx::SqliteConnection::connect(&url).await.unwrap();
    sqlx::raw_sql(
        "ALTER TABLE tables DROP COLUMN name; DELETE FROM _sqlx_migrations WHERE version = 4;",
    )
    .execute(&mut connection)
    .await
    .unwrap();
    connection.close().await.unwrap();

    let server = Server::start(&db).await;
    let addr = server.addr;
    let expected = default_title(&server, &board, "Board game").await;
    let (summary, heading, ..) = titles(addr, &board, &ada).await;
    assert_eq!(
        (summary, heading),
        (expected.clone(), format!("# {expected}"))
    );
    let (summary, ..) = titles(addr, &story, &ada_story).await;
    assert_eq!(summary, "Ada\u{2019}s table");
    // And new tables take names.
    let (status, named, cookie, _) = create(
        addr,
        json!({"game": "board", "bots": 1, "table_name": "After the upgrade"}),
    )
    .await;
    assert_eq!(status, 200);
    let (summary, ..) = titles(addr, &named, &cookie).await;
    assert_eq!(summary, "After the upgrade");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_name_given_on_one_server_is_the_title_on_another_of_the_same_postgres() {
    let db = crate::servers::TestDb::create("names").await;
    let a = crate::servers::Served::start(&db.url());
    let b = crate::servers::Served::start(&db.url());
    let (status, named, ada, _) = create(
        a.addr,
        json!({"game": "board", "bots": 1, "table_name": "Across servers"}),
    )
    .await;
    assert_eq!(status, 200);
    let (_, plain, ada_plain, _) = create(a.addr, json!({"game": "challenge"})).await;
    let (summary, heading, ..) = titles(b.addr, &named, &ada).await;
    assert_eq!(
        (summary.as_str(), heading.as_str()),
        ("Across servers", "# Across servers")
    );
    let (summary, ..) = titles(b.addr, &plain, &ada_plain).await;
    assert!(summary.starts_with("Challenge session, "), "{summary}");
    drop((a, b));
    db.drop_now().await;
}
