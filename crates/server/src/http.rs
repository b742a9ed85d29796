//! Pages, table creation, joining (the seat cookie is `device.rs`'s), export, and security
//! headers.

use crate::assets;
use crate::device::{self, secret_hash, valid_token};
use crate::game::Rejection;
use crate::games;
use crate::limit::Peer;
use crate::room::{Request, RoomHandle, ShareAnswer, Story};
use crate::{AppState, limit, limits, random_token};
use axum::body::Bytes;
use axum::extract::{Form, FromRequest, Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::{Extension, Json, Router};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use std::sync::Arc;
use store::{Link, Seat, Store, TableRecord};
use tokio::sync::oneshot;
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::set_header::SetResponseHeaderLayer;

/// Every document's content security policy: scripts from this site only, and those that
/// build.rs wrote into pages, by their hashes.
static CSP: std::sync::LazyLock<HeaderValue> = std::sync::LazyLock::new(|| {
    let scripts: Vec<&str> = std::iter::once("'self'")
        .chain(assets::INLINE_SCRIPTS.iter().copied())
        .collect();
    let policy = format!(
        "default-src 'self'; script-src {}; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
        scripts.join(" ")
    );
    HeaderValue::from_str(&policy).expect("a policy is a header value")
});

/// The whole HTTP surface, with the table's `sockets` (ws.rs, which uses this module's
/// answers: passed in, so that neither imports the other); `/metrics` too unless it has an
/// address of its own.
pub fn router<S: Store>(
    state: Arc<AppState<S>>,
    sockets: Router<Arc<AppState<S>>>,
    with_metrics: bool,
) -> Router {
    let router = Router::new().merge(sockets);
    let router = if with_metrics {
        router.route("/metrics", get(metrics::<S>))
    } else {
        router
    };
    router
        .route(
            "/",
            get(|headers: HeaderMap| async move { page("home/index.html", &headers) }),
        )
        .route(
            "/assets/{*path}",
            get(|Path(path): Path<String>, headers: HeaderMap| async move {
                assets::by_name(&path, &headers).unwrap_or_else(no_such_file)
            }),
        )
        .route(
            "/favicon.ico",
            get(|headers: HeaderMap| async move {
                assets::unhashed("favicon.svg", &headers).unwrap_or_else(no_such_file)
            }),
        )
        .route("/rulings", get(rulings))
        .route("/healthz", get(healthz::<S>))
        .route("/games/{kind}/content.json", get(game_content))
        .route("/tables", post(create::<S>))
        .route("/t/{token}", get(table_page::<S>))
        .route("/t/{token}/me", get(me::<S>))
        .route("/t/{token}/summary", get(summary::<S>))
        .route("/t/{token}/join", post(join::<S>))
        .route(
            "/t/{token}/invite",
            get(invite::<S>).post(change_invite::<S>),
        )
        .route("/t/{token}/share", post(change_share::<S>))
        .route("/t/{token}/watch", post(change_watch::<S>))
        .route("/s/{share}", get(shared_story::<S>))
        .route("/w/{code}", get(watch_page::<S>))
        .route("/t/{token}/replay", get(player_replay::<S>))
        .route("/w/{code}/replay", get(watcher_replay::<S>))
        .route("/t/{token}/export.md", get(export::<S>))
        .route("/t/{token}/game.jsonl", get(game_file::<S>))
        .route("/t/{token}/print", get(print::<S>))
        .route("/t/{token}/qr.svg", get(qr::<S>))
        .fallback(|| async {
            failure(
                StatusCode::NOT_FOUND,
                false,
                "There is nothing at this address.",
            )
        })
        .layer(RequestBodyLimitLayer::new(limits::MESSAGE_BYTES))
        .layer(axum::middleware::from_fn(refuse_cross_site))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            refuse_other_hosts::<S>,
        ))
        .layer(axum::middleware::from_fn(log_request))
        .layer(axum::middleware::from_fn(document_headers))
        .layer(SetResponseHeaderLayer::overriding(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        .with_state(state)
}

/// The headers that guard a document: where its scripts may come from, who may frame it, and
/// no referrer (the table's token is in its URL: never send it to another site). On every
/// answer but a file that no browser shows as a document (a script, a sheet, a font: they
/// ignore them), where they would cost a phone some 300 bytes on each of a page's requests.
async fn document_headers(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let mut response = next.run(request).await;
    if response.extensions().get::<assets::Subresource>().is_none() {
        let headers = response.headers_mut();
        headers.insert(header::CONTENT_SECURITY_POLICY, CSP.clone());
        headers.insert(
            header::REFERRER_POLICY,
            HeaderValue::from_static("no-referrer"),
        );
        headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    }
    response
}

/// Whether a request comes from this server's own pages: browsers send `Origin` with every
/// POST and WebSocket; a request without one is not from a browser page, so no visitor's
/// cookie can be used by another site through it.
pub(crate) fn same_site(headers: &HeaderMap) -> bool {
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    let origin = headers.get(header::ORIGIN).and_then(|h| h.to_str().ok());
    match (origin, host) {
        (Some(origin), Some(host)) => {
            origin.split_once("://").map_or(origin, |(_, rest)| rest) == host
        }
        (Some(_), None) => false,
        (None, _) => true,
    }
}

/// State-changing requests (anything but GET and HEAD) from another site's page are refused,
/// so that a page elsewhere cannot make a visitor's browser create a table or take a seat.
async fn refuse_cross_site(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let reads = matches!(
        *request.method(),
        axum::http::Method::GET | axum::http::Method::HEAD
    );
    if !reads && !same_site(request.headers()) {
        return failure(
            StatusCode::FORBIDDEN,
            wants_json(request.headers()),
            "This request came from another site's page: it was refused.",
        );
    }
    next.run(request).await
}

/// Requests for another host name are refused (421), so that a page of another site whose
/// name was made to point at this server (DNS rebinding) cannot use it. With `--url` the host
/// is that address's; without it, an IP address or `localhost`. `/healthz` and `/metrics`
/// answer any host: probes often use the IP address, and they reveal nothing.
async fn refuse_other_hosts<S: Store>(
    State(state): State<Arc<AppState<S>>>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let path = request.uri().path();
    let probe = path == "/healthz" || path == "/metrics";
    let host = request
        .headers()
        .get(header::HOST)
        .map(|h| h.to_str().unwrap_or("\u{0}"));
    if probe || host.is_none_or(|host| host_allowed(host, state.public_url.as_deref())) {
        return next.run(request).await;
    }
    let message = match &state.public_url {
        Some(url) => format!("This server answers at {url} only."),
        None => "This server answers at its IP address or at localhost: to reach it by a name, its operator starts it with --url and that name.".to_owned(),
    };
    failure(
        StatusCode::MISDIRECTED_REQUEST,
        wants_json(request.headers()),
        &message,
    )
}

/// Whether a request's `Host` names this server: `public_url`'s host and port, or without one
/// an IP address or `localhost` (any port).
fn host_allowed(host: &str, public_url: Option<&str>) -> bool {
    let (name, port) = split_host(host);
    match public_url {
        Some(url) => {
            let (scheme, rest) = url.split_once("://").unwrap_or(("http", url));
            let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
            let (want, want_port) = split_host(authority);
            let default = if scheme.eq_ignore_ascii_case("https") {
                "443"
            } else {
                "80"
            };
            name.eq_ignore_ascii_case(want)
                && port.unwrap_or(default) == want_port.unwrap_or(default)
        }
        None => {
            name.eq_ignore_ascii_case("localhost")
                || name.parse::<std::net::Ipv4Addr>().is_ok()
                || name
                    .strip_prefix('[')
                    .and_then(|v6| v6.strip_suffix(']'))
                    .is_some_and(|v6| v6.parse::<std::net::Ipv6Addr>().is_ok())
        }
    }
}

/// `example.org:8080` as (`example.org`, `Some("8080")`); `[::1]:80` as (`[::1]`, `Some("80")`).
fn split_host(host: &str) -> (&str, Option<&str>) {
    let host = host.trim();
    let split = match host.rfind(':') {
        Some(i) if !host[i..].contains(']') => Some(i),
        _ => None,
    };
    match split {
        Some(i) => (&host[..i], Some(&host[i + 1..])),
        None => (host, None),
    }
}

/// One line per request at `info`: method, path (table tokens shortened: the log may be read by
/// people who should not gain a seat from it; query strings, which carry invitation codes, are
/// left out), status and time.
async fn log_request(request: axum::extract::Request, next: axum::middleware::Next) -> Response {
    let method = request.method().clone();
    let path = loggable_path(request.uri().path());
    let started = std::time::Instant::now();
    let response = next.run(request).await;
    tracing::info!(
        "{method} {path} {} {:.1} ms",
        response.status().as_u16(),
        started.elapsed().as_secs_f64() * 1000.0
    );
    response
}

fn loggable_path(path: &str) -> String {
    match path.strip_prefix("/t/") {
        Some(rest) => {
            let (token, tail) = rest.split_once('/').map_or((rest, ""), |(t, r)| (t, r));
            let shown: String = token.chars().take(6).collect();
            let tail = if tail.is_empty() {
                String::new()
            } else {
                format!("/{tail}")
            };
            format!("/t/{shown}…{tail}")
        }
        None => path.chars().take(200).collect(),
    }
}

/// An HTML page of `assets/` by its path there.
fn page(source: &str, headers: &HeaderMap) -> Response {
    assets::page(source, headers).unwrap_or_else(no_such_file)
}

fn no_such_file() -> Response {
    failure(StatusCode::NOT_FOUND, false, "There is no such file.")
}

/// `/metrics` alone, for `--metrics-addr`.
pub fn metrics_router<S: Store>(state: Arc<AppState<S>>) -> Router {
    Router::new()
        .route("/metrics", get(metrics::<S>))
        .with_state(state)
}

/// The server's figures in the Prometheus text format.
async fn metrics<S: Store>(State(state): State<Arc<AppState<S>>>) -> Response {
    (
        [
            (
                header::CONTENT_TYPE,
                "application/openmetrics-text; version=1.0.0; charset=utf-8",
            ),
            (header::CACHE_CONTROL, "no-store"),
        ],
        state.metrics.render(),
    )
        .into_response()
}

/// Spends one of the client address's budget; past it, the 429 answer with when to try again.
/// `what` names the limit in the metrics; `words` says what was counted, for people.
#[allow(clippy::too_many_arguments)]
async fn over_budget<S: Store>(
    state: &AppState<S>,
    budget: &limit::AddressBudget,
    what: &'static str,
    words: &str,
    per_minute: u32,
    peer: Option<&Peer>,
    headers: &HeaderMap,
    as_json: bool,
) -> Option<Response> {
    let client = limit::client(peer, headers, state.trust_proxy);
    let (status, message, wait) = match budget.spend(&state.store, client, 1).await {
        Ok(()) => return None,
        Err(limit::Refused::Until(wait)) => {
            state.metrics.limited(what);
            let message = format!(
                "Too many {words} from your address: at most {per_minute} a minute. Try again {}.",
                limit::wait_words(wait)
            );
            (StatusCode::TOO_MANY_REQUESTS, message, wait)
        }
        Err(limit::Refused::Unchecked) => (
            StatusCode::SERVICE_UNAVAILABLE,
            limit::UNCHECKED.to_owned(),
            std::time::Duration::from_secs(1),
        ),
    };
    let mut response = failure(status, as_json, &message);
    let seconds = wait.as_secs().clamp(1, 3600);
    if let Ok(value) = HeaderValue::from_str(&seconds.to_string()) {
        response.headers_mut().insert(header::RETRY_AFTER, value);
    }
    Some(response)
}

/// A link that led nowhere (a wrong invitation code, no such table or published story): counted
/// in the address's budget of guesses, and past it the 429 answer instead of `answer`.
async fn guessed_wrong<S: Store>(
    state: &AppState<S>,
    peer: Option<&Peer>,
    headers: &HeaderMap,
    as_json: bool,
    answer: Response,
) -> Response {
    over_budget(
        state,
        &state.guesses_by_address,
        "guesses",
        "links that lead nowhere",
        state.limits.joins_per_minute,
        peer,
        headers,
        as_json,
    )
    .await
    .unwrap_or(answer)
}

/// For a supervisor or a load balancer: `200 ok` when the database answers, `503` when not.
async fn healthz<S: Store>(State(state): State<Arc<AppState<S>>>) -> Response {
    // Any read that reaches the database will do; no table has this token.
    match state.store.table_by_token(&"0".repeat(32)).await {
        Ok(_) => ([(header::CACHE_CONTROL, "no-store")], "ok\n").into_response(),
        Err(e) => {
            tracing::error!("health check: the database does not answer: {e}");
            (
                StatusCode::SERVICE_UNAVAILABLE,
                [(header::CACHE_CONTROL, "no-store")],
                "the database does not answer\n",
            )
                .into_response()
        }
    }
}

/// The rulings (`crates/server/rulings.md`): where the seeds are silent or the table adds a step, in
/// plain words, as a page of the site. Linked from the pages' rules help; made once.
async fn rulings(headers: HeaderMap) -> Response {
    static PAGE: std::sync::LazyLock<String> =
        std::sync::LazyLock::new(|| rulings_page(include_str!("../rulings.md")));
    assets::written(
        &headers,
        "text/html; charset=utf-8",
        "no-cache",
        PAGE.clone(),
    )
}

/// `markdown` (the rulings) as a page with the site's look and theme: its headings and lists
/// as HTML, any HTML in it shown as text (as on a story's page).
fn rulings_page(markdown: &str) -> String {
    use pulldown_cmark::Event;
    let parser = pulldown_cmark::Parser::new(markdown).map(|event| match event {
        Event::Html(html) | Event::InlineHtml(html) => Event::Text(html),
        other => other,
    });
    let mut body = String::new();
    pulldown_cmark::html::push_html(&mut body, parser);
    format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><meta name=\"color-scheme\" content=\"light dark\"><title>Rulings — Prophecy</title><link rel=\"icon\" href=\"{}\" type=\"image/svg+xml\"><script src=\"{}\"></script><link rel=\"stylesheet\" href=\"{}\"><link rel=\"stylesheet\" href=\"{}\"></head><body><main id=\"main\" class=\"center-screen rulings\"><p class=\"brand\">Prophecy</p>{body}<p class=\"small\"><a href=\"/\">Start a table</a></p><p class=\"small\"><label class=\"theme-menu\">Theme <select data-theme-select><option value=\"system\">as the device</option><option value=\"light\">light</option><option value=\"dark\">dark</option></select></label></p></main></body></html>",
        assets::url("favicon.svg"),
        assets::url("common/theme.js"),
        assets::url("fonts.css"),
        assets::url("common/base.css"),
    )
}

/// An error as a small page, or as JSON for JSON requests.
pub(crate) fn failure(status: StatusCode, as_json: bool, message: &str) -> Response {
    if as_json {
        return (status, Json(json!({ "error": message }))).into_response();
    }
    let page = format!(
        "<!doctype html><html lang=\"en\"><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width\"><title>Prophecy</title><link rel=\"icon\" href=\"{}\" type=\"image/svg+xml\"><link rel=\"stylesheet\" href=\"{}\"><main class=\"error-page\"><h1>Prophecy</h1><p role=\"alert\">{}</p><p><a href=\"/\">Start a new table</a></p></main></html>",
        assets::url("favicon.svg"),
        assets::url("common/base.css"),
        escape_html(message)
    );
    (
        status,
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        page,
    )
        .into_response()
}

pub(crate) fn escape_html(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

fn wants_json(headers: &HeaderMap) -> bool {
    let is = |name: header::HeaderName| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.contains("application/json"))
    };
    is(header::CONTENT_TYPE) || is(header::ACCEPT)
}

/// A JSON body (from a script) or an HTML form's fields (decoded by axum's `Form`), as `T`;
/// `wrong` says what to send when the fields are not those of `T`.
async fn decoded<T: DeserializeOwned>(
    headers: &HeaderMap,
    body: Bytes,
    wrong: &str,
) -> Result<T, String> {
    if wants_json(headers) && body.first() == Some(&b'{') {
        let value: Value = serde_json::from_slice(&body)
            .map_err(|e| format!("the request is not valid JSON: {e}"))?;
        return serde_json::from_value(value).map_err(|_| wrong.to_owned());
    }
    // Anything else is read as a form, whatever its content type says.
    // (A POST: `Form` reads a GET's query string instead.)
    let mut request = axum::extract::Request::new(axum::body::Body::from(body));
    *request.method_mut() = axum::http::Method::POST;
    request.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/x-www-form-urlencoded"),
    );
    Form::<T>::from_request(request, &())
        .await
        .map(|Form(form)| form)
        .map_err(|_| wrong.to_owned())
}

/// The seat this request speaks for: the one its page names (`device::SEAT_HEADER`) among
/// those its cookie holds, or the cookie's first; `None` without a valid seat cookie.
pub(crate) async fn seated<S: Store>(
    state: &AppState<S>,
    token: &str,
    headers: &HeaderMap,
) -> Result<Option<Seat>, String> {
    device::seated(state, token, headers, device::named_seat(headers)).await
}

fn rejection_message(rejection: Rejection) -> String {
    match rejection {
        Rejection::Malformed(message) => message,
        Rejection::Refused { message, .. } => message,
    }
}

#[derive(Deserialize)]
struct CreateForm {
    name: String,
    #[serde(default)]
    game: Option<String>,
    /// The table's name, if its creator gives one.
    #[serde(default)]
    table_name: Option<String>,
    /// The game's own settings (the story's `ruleset`, the board's `bots`…), passed to it
    /// unread: from a form, every value is text.
    #[serde(flatten)]
    settings: serde_json::Map<String, Value>,
}

/// A game's static content (the same for every table of it): cached, as it changes only with
/// the server's version.
async fn game_content(Path(kind): Path<String>, headers: HeaderMap) -> Response {
    let known = games::KINDS.iter().find(|k| **k == kind);
    match (known, games::content(&kind)) {
        (Some(kind), Some(body)) => assets::made_once(
            kind,
            body,
            "application/json",
            "public, max-age=3600",
            &headers,
        ),
        _ => failure(StatusCode::NOT_FOUND, true, "There is no such game."),
    }
}

async fn create<S: Store>(
    State(state): State<Arc<AppState<S>>>,
    peer: Option<Extension<Peer>>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let as_json = wants_json(&headers);
    let mut form: CreateForm = match decoded(&headers, body, "give your name and a ruleset").await {
        Ok(form) => form,
        Err(message) => return failure(StatusCode::BAD_REQUEST, as_json, &message),
    };
    form.name = match crate::text::name(&form.name) {
        Ok(name) => name,
        Err(message) => return failure(StatusCode::BAD_REQUEST, as_json, &message),
    };
    let table_name = match crate::text::table_name(form.table_name.as_deref().unwrap_or("")) {
        Ok(table_name) => table_name,
        Err(message) => return failure(StatusCode::BAD_REQUEST, as_json, &message),
    };
    if let Some(response) = over_budget(
        &state,
        &state.tables_by_address,
        "tables",
        "new tables",
        state.limits.tables_per_minute,
        peer.as_deref(),
        &headers,
        as_json,
    )
    .await
    {
        return response;
    }
    let game = form
        .game
        .as_deref()
        .map_or(games::DEFAULT, str::trim)
        .to_owned();
    // The creator's name too: bots seated first take none like it.
    let mut settings = form.settings;
    settings.insert("creator".into(), json!(form.name.trim()));
    let settings = Value::Object(settings);
    // Check the game, its settings and the name before a table exists.
    let opening = match games::opening(&game, &settings, &form.name) {
        Ok(events) => events,
        Err(rejection) => {
            return failure(
                StatusCode::BAD_REQUEST,
                as_json,
                &rejection_message(rejection),
            );
        }
    };
    let (token, secret, invite) = match (random_token(), random_token(), random_token()) {
        (Ok(t), Ok(s), Ok(i)) => (t, s, i),
        _ => {
            return failure(
                StatusCode::INTERNAL_SERVER_ERROR,
                as_json,
                "The server has no source of randomness.",
            );
        }
    };
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64);
    let table = match state
        .store
        .create_table(&token, &game, now, &invite, table_name.as_deref())
        .await
    {
        Ok(table) => table,
        Err(e) => {
            tracing::error!("cannot create a table: {e}");
            return failure(
                StatusCode::INTERNAL_SERVER_ERROR,
                as_json,
                "The table could not be created; try again.",
            );
        }
    };
    // The opening events go straight to the log; the room then loads them like any table.
    let rows: Vec<store::NewEvent> = opening
        .into_iter()
        .map(|body| store::NewEvent {
            at: now,
            player: None,
            body,
        })
        .collect();
    if let Err(e) = state
        .store
        .append(
            table,
            0,
            store::Append {
                events: rows,
                ..Default::default()
            },
        )
        .await
    {
        tracing::error!("cannot open a new table: {e}");
        return failure(
            StatusCode::INTERNAL_SERVER_ERROR,
            as_json,
            "The table could not be created; try again.",
        );
    }
    match take_seat(&state, &token, &form.name, &secret, true).await {
        Ok(player) => seated_response(
            as_json,
            state.behind_tls(),
            &token,
            &[(player, secret)],
            json!({ "token": token, "url": format!("/t/{token}"), "player": player, "join": invite }),
        ),
        Err((status, message)) => failure(status, as_json, &message),
    }
}

/// Asks the table's room for a new seat.
async fn take_seat<S: Store>(
    state: &AppState<S>,
    token: &str,
    name: &str,
    secret: &str,
    creator: bool,
) -> Result<u32, (StatusCode, String)> {
    let room = match state.room(token).await {
        Ok(Some(room)) => room,
        Ok(None) => {
            return Err((
                StatusCode::NOT_FOUND,
                "There is no table at this link.".into(),
            ));
        }
        Err(e) => return Err((StatusCode::INTERNAL_SERVER_ERROR, e)),
    };
    let (reply, answer) = oneshot::channel();
    let request = Request::Join {
        name: name.to_owned(),
        secret_hash: secret_hash(secret),
        creator,
        reply,
    };
    if !room.send(request).await {
        return Err((
            StatusCode::SERVICE_UNAVAILABLE,
            "The table is closing; try again.".into(),
        ));
    }
    match answer.await {
        Ok(Ok(player)) => Ok(player),
        Ok(Err(rejection)) => Err((StatusCode::BAD_REQUEST, rejection_message(rejection))),
        Err(_) => Err((
            StatusCode::SERVICE_UNAVAILABLE,
            "The table is closing; try again.".into(),
        )),
    }
}

fn seated_response(
    as_json: bool,
    secure: bool,
    token: &str,
    seats: &[(u32, String)],
    body: Value,
) -> Response {
    let mut cookie = device::cookie(token, seats);
    // Behind TLS (`--url https://…`) the browser must never send the seat in clear.
    if secure {
        cookie.push_str("; Secure");
    }
    if as_json {
        ([(header::SET_COOKIE, cookie)], Json(body)).into_response()
    } else {
        (
            [(header::SET_COOKIE, cookie)],
            Redirect::to(&format!("/t/{token}")),
        )
            .into_response()
    }
}

async fn table_page<S: Store>(
    State(state): State<Arc<AppState<S>>>,
    Path(token): Path<String>,
    headers: HeaderMap,
) -> Response {
    if !valid_token(&token) {
        return failure(
            StatusCode::NOT_FOUND,
            false,
            "There is no table at this link.",
        );
    }
    match state.store.table_by_token(&token).await {
        Ok(Some(table)) => page(games::page(&table.game), &headers),
        Ok(None) => failure(
            StatusCode::NOT_FOUND,
            false,
            "There is no table at this link.",
        ),
        Err(e) => failure(
            StatusCode::INTERNAL_SERVER_ERROR,
            false,
            &crate::unreadable(e),
        ),
    }
}

/// The page that follows a table live for anyone with its watch link: the game's table page,
/// which reads from its address that it watches. It sets no cookie.
async fn watch_page<S: Store>(
    State(state): State<Arc<AppState<S>>>,
    Path(code): Path<String>,
    peer: Option<Extension<Peer>>,
    headers: HeaderMap,
) -> Response {
    match watched_table(&state, &code, peer.as_deref(), &headers, false).await {
        Ok((_, table)) => page(games::page(&table.game), &headers),
        Err(response) => response,
    }
}

/// The table whose watch link has the code `code`, and its token; or the answer for a link
/// that leads nowhere (`404`, counted as a guess) or a database that cannot say.
async fn watched_table<S: Store>(
    state: &AppState<S>,
    code: &str,
    peer: Option<&Peer>,
    headers: &HeaderMap,
    as_json: bool,
) -> Result<(String, TableRecord), Response> {
    let found = if valid_token(code) {
        state.store.table_by_link(Link::Watch, code).await
    } else {
        Ok(None)
    };
    match found {
        Ok(Some(found)) => Ok(found),
        Ok(None) => {
            let answer = failure(
                StatusCode::NOT_FOUND,
                as_json,
                "There is no table to watch at this link: it was closed, or the link is wrong.",
            );
            Err(guessed_wrong(state, peer, headers, as_json, answer).await)
        }
        Err(e) => Err(failure(
            StatusCode::INTERNAL_SERVER_ERROR,
            as_json,
            &crate::unreadable(e),
        )),
    }
}

/// The room of the table whose watch link has the code `code`, and its token (for a
/// watcher's socket).
pub(crate) async fn watched_room<S: Store>(
    state: &AppState<S>,
    code: &str,
    peer: Option<&Peer>,
    headers: &HeaderMap,
) -> Result<(String, RoomHandle), Response> {
    let (token, _) = watched_table(state, code, peer, headers, true).await?;
    match state.room(&token).await {
        Ok(Some(room)) => Ok((token, room)),
        Ok(None) => Err(failure(
            StatusCode::NOT_FOUND,
            true,
            "There is no table to watch at this link.",
        )),
        Err(e) => Err(failure(StatusCode::INTERNAL_SERVER_ERROR, true, &e)),
    }
}

/// Whether the watch link `code` still leads to the table `token` (a watcher's socket asks
/// when the table's links change). A database that cannot say keeps the watcher.
pub(crate) async fn still_watched<S: Store>(state: &AppState<S>, code: &str, token: &str) -> bool {
    match state.store.table_by_link(Link::Watch, code).await {
        Ok(found) => found.is_some_and(|(t, _)| t == token),
        Err(_) => true,
    }
}

/// Which steps of a replay a page asks for: `count` (at most [`crate::replay::MOST_STEPS`])
/// from event `from` (0: before the first).
#[derive(Deserialize)]
struct ReplayAsk {
    #[serde(default)]
    from: u64,
    #[serde(default = "replay_count")]
    count: usize,
}

fn replay_count() -> usize {
    crate::replay::MOST_STEPS
}

/// A seated player's replay of the table, from its first event.
async fn player_replay<S: Store>(
    State(state): State<Arc<AppState<S>>>,
    Path(token): Path<String>,
    peer: Option<Extension<Peer>>,
    headers: HeaderMap,
    Query(ask): Query<ReplayAsk>,
) -> Response {
    let why = "Only players at this table can replay it.";
    let seat = match require_seat(&state, &token, &headers, true, why).await {
        Ok(seat) => seat,
        Err(response) => return response,
    };
    match table(&state, &token).await {
        Ok(table) => {
            let viewer = crate::room::Viewer::Player(seat.player);
            replay_answer(&state, &table, viewer, &ask, peer.as_deref(), &headers).await
        }
        Err(response) => response,
    }
}

/// A watcher's replay: its steps once the game is over.
async fn watcher_replay<S: Store>(
    State(state): State<Arc<AppState<S>>>,
    Path(code): Path<String>,
    peer: Option<Extension<Peer>>,
    headers: HeaderMap,
    Query(ask): Query<ReplayAsk>,
) -> Response {
    match watched_table(&state, &code, peer.as_deref(), &headers, true).await {
        Ok((_, table)) => {
            let viewer = crate::room::Viewer::Watcher;
            replay_answer(&state, &table, viewer, &ask, peer.as_deref(), &headers).await
        }
        Err(response) => response,
    }
}

/// The steps `ask` names of `table`'s replay as `viewer` sees it, counted against the
/// address's budget of whole tables sent.
async fn replay_answer<S: Store>(
    state: &AppState<S>,
    table: &TableRecord,
    viewer: crate::room::Viewer,
    ask: &ReplayAsk,
    peer: Option<&Peer>,
    headers: &HeaderMap,
) -> Response {
    let unreadable = |e: String| {
        tracing::error!("cannot replay table {}: {e}", table.id.0);
        failure(
            StatusCode::INTERNAL_SERVER_ERROR,
            true,
            "The table's log cannot be read for its replay.",
        )
    };
    let read = async {
        let rows = state.store.events_after(table.id, 0).await?;
        let seats = state.store.seats(table.id).await?;
        Ok::<_, store::StoreError>((rows, seats))
    };
    let (rows, seats) = match read.await {
        Ok(read) => read,
        Err(e) => return unreadable(e.to_string()),
    };
    let creator = seats.iter().find(|s| s.creator).map_or(1, |s| s.player);
    let (kind, from, count) = (table.game.clone(), ask.from, ask.count);
    // Replaying a long log is work for a core, not for the server's tasks.
    let replayed = tokio::task::spawn_blocking(move || {
        games::replay(&kind, &rows, creator, viewer, from, count)
    })
    .await;
    let answer = match replayed {
        Ok(Ok(answer)) => answer.to_string(),
        Ok(Err(crate::replay::Unreadable(e))) => return unreadable(e),
        Err(e) => return unreadable(e.to_string()),
    };
    let client = limit::client(peer, headers, state.trust_proxy);
    let kib = u32::try_from(answer.len().div_ceil(1024)).unwrap_or(u32::MAX);
    match state
        .synced_by_address
        .spend(&state.store, client, kib)
        .await
    {
        Ok(()) => no_store(([(header::CONTENT_TYPE, "application/json")], answer).into_response()),
        Err(limit::Refused::Until(wait)) => {
            state.metrics.limited("address_sync_bytes");
            let message = format!(
                "Too many whole tables sent to your address: at most {} a minute. Try again {}.",
                limit::kib_words(state.limits.sync_kib_per_minute),
                limit::wait_words(wait)
            );
            failure(StatusCode::TOO_MANY_REQUESTS, true, &message)
        }
        Err(limit::Refused::Unchecked) => {
            failure(StatusCode::SERVICE_UNAVAILABLE, true, limit::UNCHECKED)
        }
    }
}

/// The invitation code a newcomer's link carries (`/t/{token}?join=CODE`).
#[derive(Deserialize)]
struct Invitation {
    #[serde(default)]
    join: Option<String>,
}

/// Whether a newcomer holding `code` may take a seat at `table`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Joining {
    Open,
    Closed,
    WrongLink,
}

impl Joining {
    fn of(table: &store::TableRecord, code: Option<&str>) -> Joining {
        match (&table.invite, code) {
            (None, _) => Joining::Closed,
            // Compared as digests, so the time taken says nothing about the code.
            (Some(invite), Some(code)) if secret_hash(invite) == secret_hash(code) => Joining::Open,
            (Some(_), _) => Joining::WrongLink,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Joining::Open => "open",
            Joining::Closed => "closed",
            Joining::WrongLink => "wrong_link",
        }
    }

    /// Why a newcomer cannot join, for them.
    fn refusal(self) -> Option<&'static str> {
        match self {
            Joining::Open => None,
            Joining::Closed => {
                Some("This table is not taking new players: its creator closed joining.")
            }
            Joining::WrongLink => Some(
                "This link does not seat new players (it may have been renewed): ask the table for its current invitation link.",
            ),
        }
    }
}

async fn me<S: Store>(
    State(state): State<Arc<AppState<S>>>,
    Path(token): Path<String>,
    Query(invitation): Query<Invitation>,
    peer: Option<Extension<Peer>>,
    headers: HeaderMap,
) -> Response {
    // Every seat the browser holds, read once: the one the page names, or (its seat gone,
    // removed) the first, speaks.
    let named = device::named_seat(&headers);
    let seat = device::held(&state, &token, &headers).await.map(|held| {
        let seat = (held.iter().find(|(s, _)| Some(s.player) == named)).or(held.first());
        seat.map(|(seat, _)| (seat.clone(), device::listed(&held)))
    });
    match seat {
        Ok(Some((seat, seats))) => {
            let me = json!({ "player": seat.player, "name": seat.name, "creator": seat.creator, "seats": seats });
            no_store(Json(me).into_response())
        }
        // A newcomer, not an error: the page shows the join form, or why their link cannot
        // seat them.
        Ok(None) => match table(&state, &token).await {
            Ok(table) => {
                let joining = Joining::of(&table, invitation.join.as_deref());
                if invitation.join.is_some()
                    && joining == Joining::WrongLink
                    && let Some(response) = over_budget(
                        &state,
                        &state.guesses_by_address,
                        "guesses",
                        "links that lead nowhere",
                        state.limits.joins_per_minute,
                        peer.as_deref(),
                        &headers,
                        true,
                    )
                    .await
                {
                    return response;
                }
                // Someone invited (the right code, joining open) sees which table, game and
                // players they are joining; anyone else learns nothing about it.
                let about =
                    match joining {
                        Joining::Open => ask_seated(&state, &token, true, |reply| {
                            Request::Summary { reply }
                        })
                        .await
                        .ok()
                        .map(|s| json!({"game": s.game, "game_name": s.game_name, "title": s.title, "players": s.players})),
                        _ => None,
                    };
                no_store(
                    Json(json!({ "player": null, "joining": joining.name(), "message": joining.refusal(), "table": about }))
                        .into_response(),
                )
            }
            Err(response) if response.status() == StatusCode::NOT_FOUND => {
                guessed_wrong(&state, peer.as_deref(), &headers, true, response).await
            }
            Err(response) => response,
        },
        Err(e) => failure(StatusCode::INTERNAL_SERVER_ERROR, true, &e),
    }
}

/// The table in a few words, for the list of tables on the home page of a browser seated
/// there: only to a seated player (401 otherwise, so a list never learns of other tables).
async fn summary<S: Store>(
    State(state): State<Arc<AppState<S>>>,
    Path(token): Path<String>,
    headers: HeaderMap,
) -> Response {
    let why = "You have no seat at this table.";
    let seat = match require_seat(&state, &token, &headers, true, why).await {
        Ok(seat) => seat,
        Err(response) => return response,
    };
    match ask_seated(&state, &token, true, |reply| Request::Summary { reply }).await {
        Ok(summary) => no_store(
            Json(json!({
                "game": summary.game,
                "game_name": summary.game_name,
                "title": summary.title,
                "progress": summary.progress,
                "players": summary.players,
                "last_activity": summary.last_activity,
                "you": {"player": seat.player, "name": seat.name},
            }))
            .into_response(),
        ),
        Err(response) => response,
    }
}

/// The table at this link, or the response that says there is none (JSON).
async fn table<S: Store>(state: &AppState<S>, token: &str) -> Result<store::TableRecord, Response> {
    let gone = || {
        failure(
            StatusCode::NOT_FOUND,
            true,
            "There is no table at this link.",
        )
    };
    if !valid_token(token) {
        return Err(gone());
    }
    match state.store.table_by_token(token).await {
        Ok(Some(table)) => Ok(table),
        Ok(None) => Err(gone()),
        Err(e) => Err(failure(
            StatusCode::INTERNAL_SERVER_ERROR,
            true,
            &crate::unreadable(e),
        )),
    }
}

/// Answers that must not be kept by a browser or a proxy (they name a player or a secret).
fn no_store(mut response: Response) -> Response {
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

#[derive(Deserialize)]
struct JoinForm {
    name: String,
    /// The invitation code from the link.
    #[serde(default)]
    join: Option<String>,
    /// A player added on a browser that holds a seat at the table already (pass the phone).
    #[serde(default)]
    also: bool,
}

async fn join<S: Store>(
    State(state): State<Arc<AppState<S>>>,
    Path(token): Path<String>,
    peer: Option<Extension<Peer>>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let as_json = wants_json(&headers);
    if !valid_token(&token) {
        return failure(
            StatusCode::NOT_FOUND,
            as_json,
            "There is no table at this link.",
        );
    }
    let mut form: JoinForm = match decoded(&headers, body, "give your name").await {
        Ok(form) => form,
        Err(message) => return failure(StatusCode::BAD_REQUEST, as_json, &message),
    };
    // The seats this browser holds already: joining again is the same seat, unless the page
    // adds a player on this device (`also`).
    let kept = match device::held(&state, &token, &headers).await {
        Ok(kept) => kept,
        Err(e) => return failure(StatusCode::INTERNAL_SERVER_ERROR, as_json, &e),
    };
    if !form.also && !kept.is_empty() {
        let body = json!({ "player": kept[0].0.player });
        return if as_json {
            Json(body).into_response()
        } else {
            Redirect::to(&format!("/t/{token}")).into_response()
        };
    }
    if kept.len() >= limits::SEATS_PER_DEVICE {
        let message = format!(
            "This device holds {} seats at this table already, the most one may: play the next seat on another device.",
            limits::SEATS_PER_DEVICE
        );
        return failure(StatusCode::BAD_REQUEST, as_json, &message);
    }
    form.name = match crate::text::name(&form.name) {
        Ok(name) => name,
        Err(message) => return failure(StatusCode::BAD_REQUEST, as_json, &message),
    };
    let table = match table(&state, &token).await {
        Ok(table) => table,
        Err(response) if response.status() == StatusCode::NOT_FOUND => {
            return guessed_wrong(&state, peer.as_deref(), &headers, as_json, response).await;
        }
        Err(response) => return response,
    };
    // A wrong code counts as a guess, not as a seat taken: it never uses up the joins of
    // people at the same address who hold the right link.
    match Joining::of(&table, form.join.as_deref()) {
        Joining::Open => {}
        Joining::Closed => {
            let refusal = Joining::Closed.refusal().unwrap_or_default();
            return failure(StatusCode::FORBIDDEN, as_json, refusal);
        }
        Joining::WrongLink => {
            let refusal = Joining::WrongLink.refusal().unwrap_or_default();
            let answer = failure(StatusCode::FORBIDDEN, as_json, refusal);
            return guessed_wrong(&state, peer.as_deref(), &headers, as_json, answer).await;
        }
    }
    if let Some(response) = over_budget(
        &state,
        &state.joins_by_address,
        "joins",
        "seats taken",
        state.limits.joins_per_minute,
        peer.as_deref(),
        &headers,
        as_json,
    )
    .await
    {
        return response;
    }
    let Ok(secret) = random_token() else {
        return failure(
            StatusCode::INTERNAL_SERVER_ERROR,
            as_json,
            "The server has no source of randomness.",
        );
    };
    match take_seat(&state, &token, &form.name, &secret, false).await {
        Ok(player) => {
            let mut seats: Vec<(u32, String)> = (kept.into_iter())
                .map(|(seat, secret)| (seat.player, secret))
                .collect();
            seats.push((player, secret));
            seated_response(
                as_json,
                state.behind_tls(),
                &token,
                &seats,
                json!({ "player": player }),
            )
        }
        Err((status, message)) => failure(status, as_json, &message),
    }
}

/// Asks the table's room for something on behalf of a seated player: the room's answer, or
/// the response that refuses (no seat: `why`; no table; the table closing or unreadable).
async fn ask_room<S: Store, T>(
    state: &AppState<S>,
    token: &str,
    headers: &HeaderMap,
    why: &str,
    request: impl FnOnce(oneshot::Sender<T>) -> Request,
) -> Result<T, Response> {
    require_seat(state, token, headers, false, why).await?;
    ask_seated(state, token, false, request).await
}

/// [`ask_room`] for a player already known to be seated; errors as JSON when `as_json`.
async fn ask_seated<S: Store, T>(
    state: &AppState<S>,
    token: &str,
    as_json: bool,
    request: impl FnOnce(oneshot::Sender<T>) -> Request,
) -> Result<T, Response> {
    let room = match state.room(token).await {
        Ok(Some(room)) => room,
        Ok(None) => {
            return Err(failure(
                StatusCode::NOT_FOUND,
                as_json,
                "There is no table at this link.",
            ));
        }
        Err(e) => return Err(failure(StatusCode::INTERNAL_SERVER_ERROR, as_json, &e)),
    };
    let closing = || {
        failure(
            StatusCode::SERVICE_UNAVAILABLE,
            as_json,
            "The table is closing; try again.",
        )
    };
    let (reply, answer) = oneshot::channel();
    if !room.send(request(reply)).await {
        return Err(closing());
    }
    answer.await.map_err(|_| closing())
}

/// The story so far, for seated players: (title, Markdown).
async fn story_so_far<S: Store>(
    state: &AppState<S>,
    token: &str,
    headers: &HeaderMap,
) -> Result<Story, Response> {
    let why = "Only players at this table can export its story.";
    ask_room(state, token, headers, why, |reply| Request::Export {
        public: false,
        reply,
    })
    .await
}

async fn export<S: Store>(
    State(state): State<Arc<AppState<S>>>,
    Path(token): Path<String>,
    headers: HeaderMap,
) -> Response {
    match story_so_far(&state, &token, &headers).await {
        Ok(Story {
            title, markdown, ..
        }) => no_store(
            (
                [
                    (
                        header::CONTENT_TYPE,
                        "text/markdown; charset=utf-8".to_owned(),
                    ),
                    (
                        header::CONTENT_DISPOSITION,
                        format!(
                            "attachment; filename=\"{}.md\"",
                            crate::text::file_name(&title)
                        ),
                    ),
                ],
                markdown,
            )
                .into_response(),
        ),
        Err(response) => response,
    }
}

async fn print<S: Store>(
    State(state): State<Arc<AppState<S>>>,
    Path(token): Path<String>,
    headers: HeaderMap,
) -> Response {
    let story = match story_so_far(&state, &token, &headers).await {
        Ok(story) => story,
        Err(response) => return response,
    };
    // A player's private page: no shared cache may keep it; her browser asks again each time,
    // and gets `304` when the story has not changed.
    assets::written(
        &headers,
        "text/html; charset=utf-8",
        "private, no-cache",
        story_page(&story, ""),
    )
}

/// The story as a page of its own (the printable page, and a published story's), with `note`
/// (HTML) above it; the Mermaid diagram of the outline is drawn (the story's SVG) in its place.
fn story_page(story: &Story, note: &str) -> String {
    use pulldown_cmark::{CodeBlockKind, Event, Tag, TagEnd};
    // The export escapes every player's text, so raw HTML cannot come from them; the parser
    // is told to treat any HTML that remains as text anyway. Only the server's own SVG goes in
    // as markup, instead of the diagram's source.
    let mut in_diagram = false;
    let options = pulldown_cmark::Options::ENABLE_TABLES;
    let parser =
        pulldown_cmark::Parser::new_ext(&story.markdown, options).filter_map(|event| match event {
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(lang)))
                if &*lang == "mermaid" && story.outline_svg.is_some() =>
            {
                in_diagram = true;
                story.outline_svg.as_ref().map(|svg| {
                    Event::Html(format!("<figure class=\"outline\">{svg}</figure>").into())
                })
            }
            Event::End(TagEnd::CodeBlock) if in_diagram => {
                in_diagram = false;
                None
            }
            _ if in_diagram => None,
            Event::Html(html) | Event::InlineHtml(html) => Some(Event::Text(html)),
            other => Some(other),
        });
    let mut body = String::new();
    pulldown_cmark::html::push_html(&mut body, parser);
    format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width\"><title>{}</title><link rel=\"icon\" href=\"{}\" type=\"image/svg+xml\"><link rel=\"stylesheet\" href=\"{}\"><link rel=\"stylesheet\" href=\"{}\"></head><body>{note}<main class=\"story\">{body}</main></body></html>",
        escape_html(&story.title),
        assets::url("favicon.svg"),
        assets::url("fonts.css"),
        assets::url("common/print.css"),
    )
}

/// A seated player publishes the story as a read-only page, or withdraws it. The game says
/// who may ([`crate::game::Extras::share`]): by default the table's creator publishes, and
/// anyone withdraws at once (anyone may want their words taken down); in the story game
/// publishing is a proposal, and the link comes when the table agrees. Every page at the
/// table hears of a change (as of an invitation change).
async fn change_share<S: Store>(
    State(state): State<Arc<AppState<S>>>,
    Path(token): Path<String>,
    peer: Option<Extension<Peer>>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let change = PageChange {
        link: Link::Story,
        outsider: "Only players at this table can publish its story.",
        what: "the published story",
        choices: ("publish", "withdraw"),
    };
    match change_page(&state, &token, &headers, body, &change).await {
        Ok(seat) => invitation_json(&state, &token, peer.as_deref(), &seat).await,
        Err(response) => response,
    }
}

/// A seated player opens the watch link, or closes it: as [`change_share`], with the game
/// master of a Challenge table in the creator's place. Answers with the link, `null` until
/// a story table agrees.
async fn change_watch<S: Store>(
    State(state): State<Arc<AppState<S>>>,
    Path(token): Path<String>,
    peer: Option<Extension<Peer>>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let change = PageChange {
        link: Link::Watch,
        outsider: "Only players at this table can let people watch it.",
        what: "the watch link",
        choices: ("open", "close"),
    };
    if let Err(response) = change_page(&state, &token, &headers, body, &change).await {
        return response;
    }
    match table(&state, &token).await {
        Ok(table) => {
            let link = watch_link(&state, peer.as_deref(), &table);
            no_store(Json(json!({ "link": link })).into_response())
        }
        Err(response) => response,
    }
}

/// What a request to open or close one of the table's read-only pages is about.
struct PageChange {
    link: Link,
    /// The refusal for someone without a seat.
    outsider: &'static str,
    /// The page, in words.
    what: &'static str,
    /// The actions that open and close it.
    choices: (&'static str, &'static str),
}

/// Opens or closes a read-only page as the seated player asks; the player's seat, or the
/// response that refuses.
async fn change_page<S: Store>(
    state: &AppState<S>,
    token: &str,
    headers: &HeaderMap,
    body: Bytes,
    change: &PageChange,
) -> Result<Seat, Response> {
    let seat = require_seat(state, token, headers, true, change.outsider).await?;
    let (opens, closes) = change.choices;
    let choices = format!("{opens} or {closes}");
    let action = match link_change(headers, body, &choices).await {
        Ok(action) => action.action,
        Err(message) => return Err(failure(StatusCode::BAD_REQUEST, true, &message)),
    };
    let open = match action.as_str() {
        a if a == opens => true,
        a if a == closes => false,
        other => return Err(unknown_change(other, change.what, &choices)),
    };
    let link = change.link;
    let share = |reply| Request::Share {
        player: seat.player,
        link,
        open,
        reply,
    };
    match ask_seated(state, token, true, share).await {
        Ok(ShareAnswer::Now) => {}
        // The game took it as an action of its own: the link follows its events.
        Ok(ShareAnswer::Taken) => return Ok(seat),
        Ok(ShareAnswer::Forbidden(why)) => return Err(failure(StatusCode::FORBIDDEN, true, &why)),
        Ok(ShareAnswer::Refused(rejection)) => {
            let status = match rejection {
                Rejection::Malformed(_) => StatusCode::BAD_REQUEST,
                Rejection::Refused { .. } => StatusCode::CONFLICT,
            };
            return Err(failure(status, true, &rejection_message(rejection)));
        }
        Err(response) => return Err(response),
    }
    let table = table(state, token).await?;
    let now = match link {
        Link::Story => &table.share,
        Link::Watch => &table.watch,
    };
    let code = match (open, now) {
        // Open already: the same link.
        (true, Some(code)) => Some(code.clone()),
        (true, None) => match random_token() {
            Ok(code) => Some(code),
            Err(e) => return Err(failure(StatusCode::INTERNAL_SERVER_ERROR, true, &e)),
        },
        (false, _) => None,
    };
    if code != *now {
        if let Err(e) = state.store.set_link(table.id, link, code.as_deref()).await {
            tracing::error!("cannot change {} of table {}: {e}", change.what, table.id.0);
            return Err(failure(
                StatusCode::INTERNAL_SERVER_ERROR,
                true,
                "The page's link could not be changed; nothing changed, try again.",
            ));
        }
        links_changed(state, token).await;
    }
    Ok(seat)
}

/// The address of the table's watch page, if one is open.
fn watch_link<S: Store>(
    state: &AppState<S>,
    peer: Option<&Peer>,
    table: &TableRecord,
) -> Option<String> {
    (table.watch.as_deref()).map(|code| format!("{}/w/{code}", public_base(state, peer)))
}

/// The table's links (its invitation, its published story) changed: every page fetches them
/// again. (A store several servers share tells every server, this one included, and the
/// notice comes from there.)
async fn links_changed<S: Store>(state: &AppState<S>, token: &str) {
    if !state.shared_store
        && let Ok(Some(room)) = state.room(token).await
    {
        room.send(Request::LinksChanged).await;
    }
}

/// A published story: read-only, for anyone with its link. It names no seat, carries no
/// cookie and links nowhere at the table; withdrawn (or never published), it is a 404.
async fn shared_story<S: Store>(
    State(state): State<Arc<AppState<S>>>,
    Path(share): Path<String>,
    peer: Option<Extension<Peer>>,
    headers: HeaderMap,
) -> Response {
    let gone = async || {
        let answer = failure(
            StatusCode::NOT_FOUND,
            false,
            "There is no published story at this link: it was withdrawn, or the link is wrong.",
        );
        guessed_wrong(&state, peer.as_deref(), &headers, false, answer).await
    };
    if !valid_token(&share) {
        return gone().await;
    }
    let token = match state.store.table_by_link(Link::Story, &share).await {
        Ok(Some((token, _))) => token,
        Ok(None) => return gone().await,
        Err(e) => {
            return failure(
                StatusCode::INTERNAL_SERVER_ERROR,
                false,
                &crate::unreadable(e),
            );
        }
    };
    let export = |reply| Request::Export {
        public: true,
        reply,
    };
    let story = match ask_seated(&state, &token, false, export).await {
        Ok(story) => story,
        Err(response) => return response,
    };
    let note = "<p class=\"shared-note\">A story told at a <strong>Prophecy</strong> table, published by its players. <a href=\"/\">Start a table of your own</a>.</p>";
    // Public, but asked again each time (a withdrawn story must go), and kept out of search
    // engines: the link is the group's to give.
    let mut response = assets::written(
        &headers,
        "text/html; charset=utf-8",
        "no-cache",
        story_page(&story, note),
    );
    let headers = response.headers_mut();
    headers.insert("x-robots-tag", HeaderValue::from_static("noindex"));
    response
}

/// The invitation as a seated player sees it.
async fn invitation_json<S: Store>(
    state: &AppState<S>,
    token: &str,
    peer: Option<&Peer>,
    seat: &Seat,
) -> Response {
    let table = match table(state, token).await {
        Ok(table) => table,
        Err(response) => return response,
    };
    let link = table
        .invite
        .as_deref()
        .map(|code| invite_link(state, peer, token, code));
    let share = table
        .share
        .as_deref()
        .map(|code| format!("{}/s/{code}", public_base(state, peer)));
    let watch = watch_link(state, peer, &table);
    no_store(
        Json(json!({
            "open": link.is_some(),
            "link": link,
            "creator": seat.creator,
            "share": share,
            "watch": watch,
        }))
        .into_response(),
    )
}

/// The link that seats a newcomer: the table's address and its invitation code.
fn invite_link<S: Store>(
    state: &AppState<S>,
    peer: Option<&Peer>,
    token: &str,
    code: &str,
) -> String {
    format!("{}/t/{token}?join={code}", public_base(state, peer))
}

/// Where links to this server start: `--url`, or the server's own address this player
/// reached; never the Host header, which whoever sends the request writes.
fn public_base<S: Store>(state: &AppState<S>, peer: Option<&Peer>) -> String {
    match (&state.public_url, peer) {
        (Some(base), _) => base.trim_end_matches('/').to_owned(),
        (None, Some(peer)) => format!("http://{}", peer.local),
        (None, None) => "http://localhost".to_owned(),
    }
}

/// The seat of a request, or the response that refuses it (JSON).
async fn require_seat<S: Store>(
    state: &AppState<S>,
    token: &str,
    headers: &HeaderMap,
    as_json: bool,
    why: &str,
) -> Result<Seat, Response> {
    match seated(state, token, headers).await {
        Ok(Some(seat)) => Ok(seat),
        Ok(None) => Err(failure(StatusCode::UNAUTHORIZED, as_json, why)),
        Err(e) => Err(failure(StatusCode::INTERNAL_SERVER_ERROR, as_json, &e)),
    }
}

async fn invite<S: Store>(
    State(state): State<Arc<AppState<S>>>,
    Path(token): Path<String>,
    peer: Option<Extension<Peer>>,
    headers: HeaderMap,
) -> Response {
    match require_seat(
        &state,
        &token,
        &headers,
        true,
        "Only players at this table can see its invitation.",
    )
    .await
    {
        Ok(seat) => invitation_json(&state, &token, peer.as_deref(), &seat).await,
        Err(response) => response,
    }
}

/// A change of one of the table's links: the invitation (`renew`: a new link, the old one
/// stops seating anyone; `close`; `open`) or the published story (`publish`, `withdraw`).
#[derive(Deserialize)]
struct LinkChange {
    action: String,
}

/// The answer to a change of `link` that is none of its `choices`.
fn unknown_change(action: &str, link: &str, choices: &str) -> Response {
    let shown: String = action.chars().take(40).collect();
    failure(
        StatusCode::BAD_REQUEST,
        true,
        &format!("'{shown}' is not a change of {link}: {choices}"),
    )
}

/// The change a request asks for, or why it cannot be read (naming the `choices`).
async fn link_change(
    headers: &HeaderMap,
    body: Bytes,
    choices: &str,
) -> Result<LinkChange, String> {
    decoded(headers, body, &format!("say what to do: {choices}")).await
}

/// The creator renews the invitation link, or closes or reopens joining. Seated players keep
/// their seats whatever happens to the link.
async fn change_invite<S: Store>(
    State(state): State<Arc<AppState<S>>>,
    Path(token): Path<String>,
    peer: Option<Extension<Peer>>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let seat = match require_seat(
        &state,
        &token,
        &headers,
        true,
        "Only players at this table can change its invitation.",
    )
    .await
    {
        Ok(seat) => seat,
        Err(response) => return response,
    };
    if !seat.creator {
        return failure(
            StatusCode::FORBIDDEN,
            true,
            "Only the table's creator can change its invitation.",
        );
    }
    let change = match link_change(&headers, body, "renew, close or open").await {
        Ok(change) => change,
        Err(message) => return failure(StatusCode::BAD_REQUEST, true, &message),
    };
    let table = match table(&state, &token).await {
        Ok(table) => table,
        Err(response) => return response,
    };
    let invite = match change.action.as_str() {
        // Reopening gives a new link too: a link that was shared before closing stays dead.
        "renew" | "open" => match random_token() {
            Ok(code) => Some(code),
            Err(e) => return failure(StatusCode::INTERNAL_SERVER_ERROR, true, &e),
        },
        "close" => None,
        other => return unknown_change(other, "the invitation", "renew, close or open"),
    };
    if let Err(e) = state.store.set_invite(table.id, invite.as_deref()).await {
        tracing::error!("cannot change the invitation of table {}: {e}", table.id.0);
        return failure(
            StatusCode::INTERNAL_SERVER_ERROR,
            true,
            "The invitation could not be changed; nothing changed, try again.",
        );
    }
    links_changed(&state, &token).await;
    invitation_json(&state, &token, peer.as_deref(), &seat).await
}

/// The game file: every event, one per line, as `prophecy export` reads it (flagged text left
/// out), for seated players.
async fn game_file<S: Store>(
    State(state): State<Arc<AppState<S>>>,
    Path(token): Path<String>,
    headers: HeaderMap,
) -> Response {
    let why = "Only players at this table can download its game.";
    let answer = ask_room(&state, &token, &headers, why, |reply| Request::GameFile {
        reply,
    })
    .await;
    match answer {
        Err(response) => response,
        Ok(Ok(file)) => no_store(
            (
                [
                    (header::CONTENT_TYPE, "application/x-ndjson; charset=utf-8"),
                    (
                        header::CONTENT_DISPOSITION,
                        "attachment; filename=\"prophecy-game.jsonl\"",
                    ),
                ],
                file,
            )
                .into_response(),
        ),
        Ok(Err(message)) => failure(StatusCode::INTERNAL_SERVER_ERROR, false, &message),
    }
}

async fn qr<S: Store>(
    State(state): State<Arc<AppState<S>>>,
    Path(token): Path<String>,
    peer: Option<Extension<Peer>>,
    headers: HeaderMap,
) -> Response {
    if let Err(response) = require_seat(
        &state,
        &token,
        &headers,
        false,
        "Only players at this table can see its invitation.",
    )
    .await
    {
        return response;
    }
    let table = match table(&state, &token).await {
        Ok(table) => table,
        Err(response) => return response,
    };
    let Some(code) = &table.invite else {
        return failure(
            StatusCode::NOT_FOUND,
            false,
            "Joining is closed: there is no invitation to show.",
        );
    };
    let link = invite_link(&state, peer.as_deref(), &token, code);
    match qrcode::QrCode::new(link.as_bytes()) {
        Ok(code) => {
            let svg = code
                .render::<qrcode::render::svg::Color>()
                .min_dimensions(200, 200)
                .build();
            no_store(([(header::CONTENT_TYPE, "image/svg+xml")], svg).into_response())
        }
        Err(_) => failure(
            StatusCode::INTERNAL_SERVER_ERROR,
            false,
            "The link is too long for a QR code.",
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn forms_and_json_decode_alike() {
        let form = HeaderMap::new();
        let join = |body: &'static [u8], headers: &HeaderMap| {
            let headers = headers.clone();
            async move {
                decoded::<JoinForm>(&headers, Bytes::from_static(body), "give your name").await
            }
        };
        let ada = join(b"name=Ada+Lovelace%21&join=%E2%9C%93", &form)
            .await
            .unwrap();
        assert_eq!(
            (ada.name.as_str(), ada.join.as_deref()),
            ("Ada Lovelace!", Some("✓"))
        );
        assert_eq!(join(b"name=100%", &form).await.unwrap().name, "100%");
        assert_eq!(
            join(b"nom=Ada", &form).await.err().as_deref(),
            Some("give your name")
        );
        let mut json = HeaderMap::new();
        json.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        );
        assert_eq!(join(br#"{"name":"Bo"}"#, &json).await.unwrap().name, "Bo");
        let broken = join(b"{name", &json).await.err().unwrap_or_default();
        assert!(
            broken.starts_with("the request is not valid JSON"),
            "{broken}"
        );
    }
}
