//! The pages' files, as `build.rs` made them (minified, named by a hash of their content,
//! compressed with brotli and gzip), and how they are served: the variant the browser accepts;
//! a hashed name kept by browsers for a year, as its content never changes; a page asked again
//! each time, cheaply (`ETag`, `304 Not Modified`).

use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use sha2::{Digest, Sha256};

/// One file of `assets/`, built.
pub struct Asset {
    /// Its path under `assets/` in the source tree (`common/net.js`).
    pub source: &'static str,
    /// Its path under `/assets/` on the wire (`common/net.3f9a1c2b.js`); a page's is its source
    /// path, and it is served only by its own routes (`/`, `/t/…`).
    pub served: &'static str,
    /// The `Content-Type` it is served with.
    pub content_type: &'static str,
    /// A hash of its bytes, for its `ETag`.
    pub tag: &'static str,
    /// An HTML page (not named by a hash; asked again on every visit).
    pub page: bool,
    /// The file itself.
    pub raw: &'static [u8],
    /// The file compressed with brotli, when that is smaller.
    pub brotli: Option<&'static [u8]>,
    /// The file compressed with gzip, when that is smaller.
    pub gzip: Option<&'static [u8]>,
}

/// Every file of `assets/` that a page may load, by `served`; written by build.rs.
pub static ASSETS: &[Asset] = include!(concat!(env!("OUT_DIR"), "/assets.rs"));

/// The scripts build.rs wrote into pages, as content security policy sources (`'sha256-…'`).
pub static INLINE_SCRIPTS: &[&str] = include!(concat!(env!("OUT_DIR"), "/inline_scripts.rs"));

/// For a year, and never asked again: a new content has a new name.
const IMMUTABLE: &str = "public, max-age=31536000, immutable";

/// The address of the file at `source` under `assets/`, for the pages the server writes itself
/// (errors, the printable story). The tests check that every page's links are served.
pub fn url(source: &str) -> String {
    match ASSETS.iter().find(|a| a.source == source) {
        Some(asset) => format!("/assets/{}", asset.served),
        None => {
            debug_assert!(false, "no asset {source}");
            format!("/assets/{source}")
        }
    }
}

/// `GET /assets/{path}`: a file by its hashed name. A name without its hash (`common/net.js`) is
/// not served: a module loaded under two names runs twice, with two states, so a reference
/// that build.rs did not rewrite must fail loudly, and no page links to one.
pub fn by_name(path: &str, headers: &HeaderMap) -> Option<Response> {
    let asset = ASSETS.iter().find(|a| !a.page && a.served == path)?;
    let mut response = respond(asset, headers, IMMUTABLE);
    // An SVG image opened on its own is a document, and may hold scripts.
    if !asset.content_type.starts_with("image/svg") {
        response.extensions_mut().insert(Subresource);
    }
    Some(response)
}

/// Marks an answer that no browser shows as a document (a script, a sheet, a font), so it goes
/// without the headers that guard one (`http.rs`).
#[derive(Clone, Copy)]
pub struct Subresource;

/// An HTML page of `assets/` (`index.html`, a game's table page) by its source path, asked
/// again on every visit (it names the other files by their hashes).
pub fn page(source: &str, headers: &HeaderMap) -> Option<Response> {
    let asset = ASSETS.iter().find(|a| a.source == source)?;
    Some(respond(asset, headers, "no-cache"))
}

/// A file by its source path under a fixed address of its own (`/favicon.ico`): asked again on
/// every visit, as its content may change under that name.
pub fn unhashed(source: &str, headers: &HeaderMap) -> Option<Response> {
    page(source, headers)
}

/// A page the server writes (the rulings, a story): sent with an `ETag` of its content, and
/// `304 Not Modified` when the browser holds it already.
pub fn written(
    headers: &HeaderMap,
    content_type: &'static str,
    cache_control: &'static str,
    body: String,
) -> Response {
    let tag = &hex(&Sha256::digest(body.as_bytes()))[..16];
    let etag = format!("\"{tag}\"");
    let mut response = if holds(headers, tag) {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        ([(header::CONTENT_TYPE, content_type)], body).into_response()
    };
    let h = response.headers_mut();
    revalidated(h, cache_control, &etag);
    response
}

/// A response's `Cache-Control` and its `ETag` (quoted), for `304`s on the next visit.
fn revalidated(h: &mut HeaderMap, cache_control: &'static str, etag: &str) {
    h.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static(cache_control),
    );
    if let Ok(etag) = HeaderValue::from_str(etag) {
        h.insert(header::ETAG, etag);
    }
}

/// The encodings of a file, best first.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Encoding {
    Brotli,
    Gzip,
    Identity,
}

impl Encoding {
    /// How it is named in `Content-Encoding`, and after the tag in the `ETag` (each encoding
    /// is a representation of its own).
    fn name(self) -> Option<&'static str> {
        match self {
            Encoding::Brotli => Some("br"),
            Encoding::Gzip => Some("gzip"),
            Encoding::Identity => None,
        }
    }
}

/// A text the server makes once (a game's content), compressed once with brotli and gzip the
/// first time it is asked for, and served as a file of `assets/` is, under `key`.
pub fn made_once(
    key: &'static str,
    text: &'static str,
    content_type: &'static str,
    cache_control: &'static str,
    headers: &HeaderMap,
) -> Response {
    use std::collections::BTreeMap;
    use std::sync::{LazyLock, Mutex};
    // One for each game, made once and kept for the life of the process.
    static MADE: LazyLock<Mutex<BTreeMap<&'static str, &'static Asset>>> =
        LazyLock::new(Mutex::default);
    let made = *MADE
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .entry(key)
        .or_insert_with(|| Box::leak(Box::new(compressed(key, text.as_bytes(), content_type))));
    respond(made, headers, cache_control)
}

/// `raw` with its brotli and gzip forms (each kept when smaller), as build.rs makes them.
fn compressed(source: &'static str, raw: &'static [u8], content_type: &'static str) -> Asset {
    use std::io::Write;
    let mut brotli = Vec::new();
    {
        let mut w = brotli::CompressorWriter::new(&mut brotli, 4096, 11, 22);
        w.write_all(raw).expect("compressing in memory");
    }
    let mut gzip = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    gzip.write_all(raw).expect("compressing in memory");
    let gzip = gzip.finish().expect("compressing in memory");
    let smaller = |v: Vec<u8>| (v.len() < raw.len()).then(|| &*Vec::leak(v));
    Asset {
        source,
        served: source,
        content_type,
        tag: String::leak(hex(&Sha256::digest(raw))[..16].to_owned()),
        page: false,
        raw,
        brotli: smaller(brotli),
        gzip: smaller(gzip),
    }
}

fn respond(asset: &Asset, headers: &HeaderMap, cache_control: &'static str) -> Response {
    let encoding = chosen(headers, asset);
    let body = match encoding {
        Encoding::Brotli => asset.brotli,
        Encoding::Gzip => asset.gzip,
        Encoding::Identity => None,
    }
    .unwrap_or(asset.raw);
    let etag = match encoding.name() {
        Some(name) => format!("\"{}-{name}\"", asset.tag),
        None => format!("\"{}\"", asset.tag),
    };
    let mut response = if holds(headers, asset.tag) {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        let mut response = ([(header::CONTENT_TYPE, asset.content_type)], body).into_response();
        if let Some(name) = encoding.name() {
            let h = response.headers_mut();
            h.insert(header::CONTENT_ENCODING, HeaderValue::from_static(name));
        }
        response
    };
    let h = response.headers_mut();
    revalidated(h, cache_control, &etag);
    if asset.brotli.is_some() || asset.gzip.is_some() {
        h.insert(header::VARY, HeaderValue::from_static("Accept-Encoding"));
    }
    response
}

/// The best encoding of `asset` that the request accepts (`Accept-Encoding`, with its
/// weights): brotli, then gzip, then none.
fn chosen(headers: &HeaderMap, asset: &Asset) -> Encoding {
    let accepted = headers
        .get_all(header::ACCEPT_ENCODING)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .filter_map(|item| {
            let mut parts = item.split(';');
            let name = parts.next()?.trim().to_ascii_lowercase();
            let weight = parts
                .filter_map(|p| p.trim().strip_prefix("q="))
                .find_map(|q| q.trim().parse::<f32>().ok())
                .unwrap_or(1.0);
            Some((name, weight))
        })
        .collect::<Vec<_>>();
    let weight = |name: &str| {
        accepted
            .iter()
            .find(|(n, _)| n == name)
            .or_else(|| accepted.iter().find(|(n, _)| n == "*"))
            .map_or(0.0, |(_, w)| *w)
    };
    let mut best = (Encoding::Identity, 0.0);
    for (encoding, variant, name) in [
        (Encoding::Brotli, asset.brotli, "br"),
        (Encoding::Gzip, asset.gzip, "gzip"),
    ] {
        let w = weight(name);
        if variant.is_some() && w > best.1 {
            best = (encoding, w);
        }
    }
    best.0
}

/// Whether `If-None-Match` names a representation of content `tag` (any encoding of it).
fn holds(headers: &HeaderMap, tag: &str) -> bool {
    headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|t| t.trim())
        .any(|t| {
            let t = t.strip_prefix("W/").unwrap_or(t);
            let t = t.trim_matches('"');
            t == "*" || t.split('-').next() == Some(tag)
        })
}

fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    bytes.iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn asking(accept: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(header::ACCEPT_ENCODING, accept.parse().unwrap());
        headers
    }

    #[test]
    fn the_best_encoding_accepted_is_chosen() {
        let asset = ASSETS
            .iter()
            .find(|a| a.brotli.is_some() && a.gzip.is_some())
            .expect("a compressed asset");
        let check = |accept: &str, expected: Encoding| {
            assert_eq!(chosen(&asking(accept), asset), expected, "{accept}");
        };
        check("gzip, deflate, br, zstd", Encoding::Brotli);
        check("gzip, deflate", Encoding::Gzip);
        check("br;q=0.5, gzip", Encoding::Gzip);
        check("br;q=0, gzip;q=0", Encoding::Identity);
        check("identity", Encoding::Identity);
        check("*", Encoding::Brotli);
        check("GZIP", Encoding::Gzip);
        assert_eq!(chosen(&HeaderMap::new(), asset), Encoding::Identity);
    }

    #[test]
    fn a_tag_held_in_any_encoding_is_held() {
        let check = |if_none_match: &str, expected: bool| {
            let mut headers = HeaderMap::new();
            headers.insert(header::IF_NONE_MATCH, if_none_match.parse().unwrap());
            assert_eq!(holds(&headers, "0123abcd"), expected, "{if_none_match}");
        };
        check("\"0123abcd\"", true);
        check("\"0123abcd-br\"", true);
        check("W/\"0123abcd-gzip\"", true);
        check("\"other\", \"0123abcd\"", true);
        check("*", true);
        check("\"0123abcd0\"", false);
        check("\"other-br\"", false);
        assert!(!holds(&HeaderMap::new(), "0123abcd"));
    }
}
