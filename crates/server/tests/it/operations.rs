//! What an operator and a browser rely on: the health check, private answers never cached, and
//! the seat cookie kept off plain HTTP behind TLS, the fonts served from the binary.

use crate::{Server, create_table, fresh_db, http, scripted};

#[tokio::test]
async fn the_health_check_says_whether_the_database_answers() {
    let db = fresh_db();
    let server = Server::start(&db).await;
    let (status, headers, body) = http(server.addr, "GET", "/healthz", None, None).await;
    assert_eq!((status, body.as_str()), (200, "ok\n"));
    assert!(headers.contains("cache-control: no-store"), "{headers}");
    // With the database closed under it, the server says so instead of "ok".
    server.store.close().await;
    let (status, _, body) = http(server.addr, "GET", "/healthz", None, None).await;
    assert_eq!(status, 503, "{body}");
    assert!(body.contains("database"), "{body}");
    server.stop().await;
}

#[tokio::test]
async fn exports_are_never_kept_by_a_shared_cache() {
    let db = fresh_db();
    let server = Server::start(&db).await;
    let (token, cookie) = create_table(server.addr, "1.0", "Ada").await;
    for path in ["export.md", "print", "game.jsonl", "me"] {
        let (status, headers, _) = http(
            server.addr,
            "GET",
            &format!("/t/{token}/{path}"),
            Some(&cookie),
            None,
        )
        .await;
        assert_eq!(status, 200, "{path}");
        assert!(
            headers.contains("cache-control: no-store"),
            "{path}: {headers}"
        );
    }
    server.stop().await;
}

#[tokio::test]
async fn behind_tls_the_seat_cookie_is_secure() {
    let db = fresh_db();
    let plain = Server::start(&db).await;
    let (status, headers, _) = http(
        plain.addr,
        "POST",
        "/tables",
        None,
        Some(serde_json::json!({"name": "Ada"})),
    )
    .await;
    assert_eq!(status, 200);
    let cookie = headers
        .lines()
        .find(|l| l.starts_with("set-cookie:"))
        .unwrap()
        .to_owned();
    assert!(!cookie.contains("secure"), "{cookie}");
    plain.stop().await;

    let db = fresh_db();
    let tls = Server::start_with(
        &db,
        server::Options {
            public_url: Some("https://prophecy.example/".to_owned()),
            ..scripted()
        },
    )
    .await;
    // As the proxy passes it on: the Host of the public address.
    let body = serde_json::json!({"name": "Ada"}).to_string();
    let request = format!(
        "POST /tables HTTP/1.1\r\nHost: prophecy.example\r\nConnection: close\r\nAccept: application/json\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let mut stream = tokio::net::TcpStream::connect(tls.addr).await.unwrap();
    tokio::io::AsyncWriteExt::write_all(&mut stream, request.as_bytes())
        .await
        .unwrap();
    let mut response = String::new();
    tokio::io::AsyncReadExt::read_to_string(&mut stream, &mut response)
        .await
        .unwrap();
    assert!(response.starts_with("HTTP/1.1 200"), "{response}");
    let cookie = response
        .to_ascii_lowercase()
        .lines()
        .find(|l| l.starts_with("set-cookie:"))
        .unwrap()
        .to_owned();
    assert!(cookie.contains("; secure"), "{cookie}");
    tls.stop().await;
}

/// A POST as a browser page would send it, with its `Origin`: (status, body).
async fn post_from(
    addr: std::net::SocketAddr,
    path: &str,
    origin: &str,
    body: &str,
) -> (u16, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let request = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nOrigin: {origin}\r\nConnection: close\r\nAccept: application/json\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = Vec::new();
    stream.read_to_end(&mut response).await.unwrap();
    let response = String::from_utf8_lossy(&response).into_owned();
    let status = response.split(' ').nth(1).unwrap().parse().unwrap();
    (status, response)
}

#[tokio::test]
async fn another_sites_page_cannot_create_a_table_or_take_a_seat() {
    let db = fresh_db();
    let server = Server::start(&db).await;
    let body = r#"{"name":"Mallory"}"#;
    let (status, response) = post_from(server.addr, "/tables", "https://evil.example", body).await;
    assert_eq!(status, 403, "{response}");
    assert!(response.contains("another site"), "{response}");
    let (token, _) = create_table(server.addr, "1.0", "Ada").await;
    let join = format!(
        r#"{{"name":"Mallory","join":"{}"}}"#,
        crate::invite_of(&token)
    );
    let (status, _) = post_from(server.addr, &format!("/t/{token}/join"), "null", &join).await;
    assert_eq!(status, 403);
    // The table's own pages may.
    let own = format!("http://{}", server.addr);
    let (status, response) = post_from(server.addr, "/tables", &own, body).await;
    assert_eq!(status, 200, "{response}");
    let (status, response) = post_from(server.addr, &format!("/t/{token}/join"), &own, &join).await;
    assert_eq!(status, 200, "{response}");
    server.stop().await;
}

/// The pages' fonts come from the binary: every file `fonts.css` names is served as WOFF2 and
/// kept by browsers; every page links the stylesheet.
#[tokio::test]
async fn the_fonts_are_served_from_the_binary() {
    let db = fresh_db();
    let server = Server::start(&db).await;
    let addr = server.addr;
    let (status, _, css) = http(addr, "GET", "/assets/fonts.css", None, None).await;
    assert_eq!(status, 200);
    let urls: Vec<&str> = css
        .split("url('")
        .skip(1)
        .map(|rest| rest.split('\'').next().unwrap())
        .collect();
    assert_eq!(urls.len(), 10, "{css}");
    for url in urls {
        let (status, headers, body) = http(addr, "GET", url, None, None).await;
        assert_eq!(status, 200, "{url}");
        assert!(
            headers.contains("content-type: font/woff2"),
            "{url}: {headers}"
        );
        assert!(
            headers.contains("cache-control: public"),
            "{url}: {headers}"
        );
        assert!(body.starts_with("wOF2"), "{url} is not a WOFF2 file");
    }
    let (status, _, _) = http(addr, "GET", "/assets/fonts/nothing.woff2", None, None).await;
    assert_eq!(status, 404);
    for page in [
        "/assets/home/index.html",
        "/assets/story/table.html",
        "/assets/board/table.html",
        "/assets/challenge/table.html",
    ] {
        let (_, _, body) = http(addr, "GET", page, None, None).await;
        assert!(body.contains("/assets/fonts.css"), "{page}");
    }
    server.stop().await;
}
