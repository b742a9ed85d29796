//! The pages' files on the wire: the compressed form a browser accepts, hashed names kept for a
//! year, pages revalidated by `ETag`, and every file that a served page, script or sheet names
//! served (so that a rewrite of names by build.rs that goes wrong cannot ship).

use crate::{Server, create_table, fresh_db, http};
use serde_json::{Value, json};
use server::assets::ASSETS;
use std::collections::{BTreeSet, VecDeque};
use std::net::SocketAddr;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// A response as received: status, headers (names in lower case), body bytes.
struct Answer {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Answer {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// `GET path` with more request headers (`Name: value` lines) than [`http`] sends.
async fn get(addr: SocketAddr, path: &str, extra: &[(&str, &str)]) -> Answer {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let mut request = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    for (name, value) in extra {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str("\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = Vec::new();
    stream.read_to_end(&mut response).await.unwrap();
    let split = response
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a head");
    let head = String::from_utf8(response[..split].to_vec()).unwrap();
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .unwrap()
        .split(' ')
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    let mut body = response[split + 4..].to_vec();
    if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        body = unchunk(&body);
    }
    Answer {
        status,
        headers,
        body,
    }
}

fn unchunk(mut data: &[u8]) -> Vec<u8> {
    let mut body = Vec::new();
    loop {
        let line = data.windows(2).position(|w| w == b"\r\n").unwrap();
        let size =
            usize::from_str_radix(std::str::from_utf8(&data[..line]).unwrap().trim(), 16).unwrap();
        if size == 0 {
            return body;
        }
        body.extend_from_slice(&data[line + 2..line + 2 + size]);
        data = &data[line + 2 + size + 2..];
    }
}

/// A table of `game` with its creator seated: (token, cookie).
async fn table_of(addr: SocketAddr, game: &str) -> (String, String) {
    if game == "story" {
        return create_table(addr, "1.0", "Ada").await;
    }
    let settings = json!({"name": "Ada", "game": game, "bots": 1});
    let (status, headers, body) = http(addr, "POST", "/tables", None, Some(settings)).await;
    assert_eq!(status, 200, "{body}");
    let token = serde_json::from_str::<Value>(&body).unwrap()["token"]
        .as_str()
        .unwrap()
        .to_owned();
    (token, crate::cookie_of(&headers))
}

/// The served name of a file (by its path under `assets/`), as the pages name it.
fn url_of(source: &str) -> String {
    server::assets::url(source)
}

#[tokio::test]
async fn a_file_comes_in_the_best_encoding_the_browser_accepts() {
    let db = fresh_db();
    let server = Server::start(&db).await;
    let script = ASSETS
        .iter()
        .filter(|a| a.served.ends_with(".js"))
        .max_by_key(|a| a.raw.len())
        .expect("a script");
    let path = format!("/assets/{}", script.served);
    let cases: [(&str, Option<&str>, &[u8]); 4] = [
        (
            "gzip, deflate, br, zstd",
            Some("br"),
            script.brotli.unwrap(),
        ),
        ("gzip, deflate", Some("gzip"), script.gzip.unwrap()),
        ("br;q=0, gzip;q=0.5", Some("gzip"), script.gzip.unwrap()),
        ("identity", None, script.raw),
    ];
    for (accept, encoding, body) in cases {
        let answer = get(server.addr, &path, &[("Accept-Encoding", accept)]).await;
        assert_eq!(answer.status, 200, "{accept}");
        assert_eq!(answer.header("content-encoding"), encoding, "{accept}");
        assert_eq!(answer.header("vary"), Some("Accept-Encoding"), "{accept}");
        assert!(answer.body == body, "{accept}: not the {encoding:?} form");
    }
    // Compressed once, at build time: far smaller than the file.
    assert!(script.brotli.unwrap().len() * 2 < script.raw.len());
    // Without Accept-Encoding, the file as it is.
    let answer = get(server.addr, &path, &[]).await;
    assert_eq!(answer.header("content-encoding"), None);
    assert!(answer.body == script.raw);
    // A page too.
    let answer = get(server.addr, "/", &[("Accept-Encoding", "br")]).await;
    assert_eq!(answer.header("content-encoding"), Some("br"));
    server.stop().await;
}

#[tokio::test]
async fn hashed_names_are_kept_for_a_year_and_bare_names_are_not_served() {
    let db = fresh_db();
    let server = Server::start(&db).await;
    for asset in ASSETS.iter().filter(|a| !a.page) {
        let answer = get(server.addr, &format!("/assets/{}", asset.served), &[]).await;
        assert_eq!(answer.status, 200, "{}", asset.served);
        assert_eq!(
            answer.header("cache-control"),
            Some("public, max-age=31536000, immutable"),
            "{}",
            asset.served
        );
        assert_eq!(answer.header("content-type"), Some(asset.content_type));
        assert_eq!(answer.header("x-content-type-options"), Some("nosniff"));
        // A document's guards, on what a browser may show as one (an SVG image may hold
        // scripts), and not on scripts, sheets and fonts, which ignore them.
        let document = asset.content_type.starts_with("image/svg");
        for guard in [
            "content-security-policy",
            "x-frame-options",
            "referrer-policy",
        ] {
            assert_eq!(
                answer.header(guard).is_some(),
                document,
                "{}: {guard}",
                asset.served
            );
        }
        // The name holds a hash: the source's name does not reach the wire.
        assert_ne!(asset.served, asset.source);
        let bare = get(server.addr, &format!("/assets/{}", asset.source), &[]).await;
        assert_eq!(bare.status, 404, "{}", asset.source);
    }
    // Pages are served at their routes only.
    for page in ASSETS.iter().filter(|a| a.page) {
        let answer = get(server.addr, &format!("/assets/{}", page.served), &[]).await;
        assert_eq!(answer.status, 404, "{}", page.served);
    }
    server.stop().await;
}

#[tokio::test]
async fn pages_are_revalidated_by_their_etag() {
    let db = fresh_db();
    let server = Server::start(&db).await;
    let addr = server.addr;
    let mut pages = vec![
        ("/".to_owned(), None),
        ("/rulings".to_owned(), None),
        ("/favicon.ico".to_owned(), None),
    ];
    for game in ["story", "board", "challenge"] {
        let (token, cookie) = table_of(addr, game).await;
        pages.push((format!("/t/{token}"), None));
        if game == "story" {
            pages.push((format!("/t/{token}/print"), Some(cookie.clone())));
            pages.push((published(addr, &token, &cookie).await, None));
        }
    }
    for (path, cookie) in &pages {
        let cookie = cookie.as_deref();
        let first = get(addr, path, &asking(cookie, None)).await;
        assert_eq!(first.status, 200, "{path}");
        let policy = first.header("content-security-policy").unwrap_or_default();
        assert!(policy.contains("script-src 'self'"), "{path}: {policy}");
        let cache = first.header("cache-control").unwrap_or_default();
        assert!(cache.contains("no-cache"), "{path}: {cache}");
        let etag = first.header("etag").expect("an ETag").to_owned();
        let again = get(addr, path, &asking(cookie, Some(&etag))).await;
        assert_eq!(again.status, 304, "{path}");
        assert!(again.body.is_empty(), "{path}");
        assert_eq!(again.header("etag"), Some(etag.as_str()), "{path}");
        let other = get(addr, path, &asking(cookie, Some("\"0000\""))).await;
        assert_eq!(other.status, 200, "{path}");
    }
    server.stop().await;
}

/// A browser's request headers: its cookie, and the ETag it holds.
fn asking<'a>(cookie: Option<&'a str>, etag: Option<&'a str>) -> Vec<(&'a str, &'a str)> {
    let mut headers = vec![("Accept-Encoding", "gzip, br")];
    headers.extend(cookie.map(|c| ("Cookie", c)));
    headers.extend(etag.map(|e| ("If-None-Match", e)));
    headers
}

/// Publishes the story of a table of one (it carries at once): its published page's path.
async fn published(addr: SocketAddr, token: &str, cookie: &str) -> String {
    let publish = Some(json!({"action": "publish"}));
    let share = format!("/t/{token}/share");
    let (status, _, body) = http(addr, "POST", &share, Some(cookie), publish).await;
    assert_eq!(status, 200, "{body}");
    let invite = format!("/t/{token}/invite");
    let (_, _, body) = http(addr, "GET", &invite, Some(cookie), None).await;
    let link = serde_json::from_str::<Value>(&body).unwrap()["share"]
        .as_str()
        .expect("published")
        .to_owned();
    format!("/s/{}", link.split_once("/s/").unwrap().1)
}

/// The files that a page, a script or a sheet names: `src` and `href`; `import … from "…"`,
/// `import "…"`, `import("…")`, `export … from "…"`; `url(…)` and `@import`. Written for
/// what build.rs emits (minified), and independent of it.
fn named(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let quoted = |rest: &str| -> Option<String> {
        let quote = rest
            .chars()
            .next()
            .filter(|c| matches!(c, '"' | '\'' | '`'))?;
        rest[1..].split(quote).next().map(str::to_owned)
    };
    for opener in [
        "src=", "href=", "from", "import", "import(", "url(", "@import ",
    ] {
        for (i, _) in text.match_indices(opener) {
            let rest = text[i + opener.len()..].trim_start();
            let name = match quoted(rest) {
                Some(name) => name,
                // `url(/assets/x.woff2)` and `src=/x` need no quotes.
                None if opener == "url(" || opener.ends_with('=') => rest
                    .split([')', ' ', '>'])
                    .next()
                    .unwrap_or_default()
                    .to_owned(),
                None => continue,
            };
            found.push(name);
        }
    }
    found
}

#[tokio::test]
async fn every_file_a_page_names_is_served() {
    let db = fresh_db();
    let server = Server::start(&db).await;
    let addr = server.addr;
    let mut queue: VecDeque<(String, Option<String>)> = VecDeque::new();
    queue.push_back(("/".to_owned(), None));
    queue.push_back(("/no-such-page".to_owned(), None));
    for game in ["story", "board", "challenge"] {
        let (token, cookie) = table_of(addr, game).await;
        queue.push_back((format!("/t/{token}"), None));
        if game == "story" {
            queue.push_back((format!("/t/{token}/print"), Some(cookie.clone())));
            queue.push_back((published(addr, &token, &cookie).await, None));
        }
    }
    // Every text file of the binary too, reached from a page or not.
    for asset in ASSETS.iter().filter(|a| !a.page) {
        queue.push_back((format!("/assets/{}", asset.served), None));
    }
    let mut seen = BTreeSet::new();
    let mut files = 0;
    while let Some((path, cookie)) = queue.pop_front() {
        if !seen.insert(path.clone()) {
            continue;
        }
        let cookie = cookie.as_deref().map(|c| ("Cookie", c));
        let answer = get(addr, &path, &cookie.into_iter().collect::<Vec<_>>()).await;
        let expected = if path == "/no-such-page" { 404 } else { 200 };
        assert_eq!(answer.status, expected, "{path}");
        let kind = answer.header("content-type").unwrap_or_default().to_owned();
        if !(kind.starts_with("text/") || kind.starts_with("image/svg")) {
            continue;
        }
        files += 1;
        let text = String::from_utf8(answer.body).unwrap();
        for name in named(&text) {
            // build.rs writes every file's name from the root: a relative one escaped it (in
            // a sheet, any name that is not a root path, a fragment or another scheme's).
            let relative = name.starts_with("./")
                || name.starts_with("../")
                || (kind.starts_with("text/css")
                    && !name.is_empty()
                    && !name.starts_with(['/', '#'])
                    && !name.contains(':'));
            assert!(!relative, "{path} names {name}");
            if let Some(file) = name.strip_prefix("/assets/") {
                assert!(
                    ASSETS.iter().any(|a| !a.page && a.served == file),
                    "{path} names {name}, which is not served"
                );
                queue.push_back((name, None));
            }
        }
    }
    assert!(files > ASSETS.len() / 2, "only {files} files were read");
    // The fonts' sheet names every font there is, and each is a font.
    let sheet = get(addr, &url_of("fonts.css"), &[]).await;
    let sheet = String::from_utf8(sheet.body).unwrap();
    let fonts: Vec<_> = ASSETS
        .iter()
        .filter(|a| a.served.ends_with(".woff2"))
        .collect();
    assert!(!fonts.is_empty());
    for font in fonts {
        assert!(
            sheet.contains(&format!("/assets/{}", font.served)),
            "{}",
            font.served
        );
        assert!(font.raw.starts_with(b"wOF2"), "{}", font.served);
    }
    server.stop().await;
}
