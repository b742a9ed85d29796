//! The seats one browser holds at a table (pass the phone): the seat cookie, and which of its
//! seats a request speaks for.
//!
//! The cookie `seat` holds up to [`limits::SEATS_PER_DEVICE`] entries separated by `.`, each
//! `PLAYER-SECRET` (a cookie written before a device could hold several seats is one bare
//! `SECRET`). The player's number only says which secret to try: the secret alone proves the
//! seat, checked against its SHA-256 in the database.

use crate::{AppState, limits};
use axum::http::{HeaderMap, header};
use sha2::{Digest, Sha256};
use store::{Seat, Store, TableId};

/// The request header by which a page names the seat it speaks for, when its browser holds
/// several at the table (a socket names it in its address: `?seat=N`).
pub const SEAT_HEADER: &str = "prophecy-seat";

/// One entry of the seat cookie.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The seat's player, unknown in a cookie of the one-seat form.
    pub player: Option<u32>,
    pub secret: String,
}

/// SHA-256 of a seat secret: the database never holds the secret itself.
pub fn secret_hash(secret: &str) -> Vec<u8> {
    Sha256::digest(secret.as_bytes()).to_vec()
}

/// Whether `token` can be a table's token (or a link's code): 32 lowercase hex digits.
pub fn valid_token(token: &str) -> bool {
    token.len() == 32
        && token
            .bytes()
            .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// The seat cookie's entries, in the order they were added (the first is the seat a request
/// that names none speaks for); the malformed ones left out.
pub fn entries(headers: &HeaderMap) -> Vec<Entry> {
    let value = headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|c| c.trim().split_once('='))
        .find(|(name, _)| *name == "seat")
        .map(|(_, value)| value);
    let Some(value) = value else {
        return Vec::new();
    };
    value
        .split('.')
        .take(limits::SEATS_PER_DEVICE)
        .filter_map(|entry| {
            let (player, secret) = match entry.split_once('-') {
                Some((player, secret)) => (Some(player.parse().ok()?), secret),
                None => (None, entry),
            };
            let hex = secret.len() == 32 && secret.bytes().all(|b| b.is_ascii_hexdigit());
            hex.then(|| Entry {
                player,
                secret: secret.to_owned(),
            })
        })
        .collect()
}

/// The seat a request names in [`SEAT_HEADER`], if it names one.
pub fn named_seat(headers: &HeaderMap) -> Option<u32> {
    headers.get(SEAT_HEADER)?.to_str().ok()?.trim().parse().ok()
}

/// The cookie that holds `seats` (a year: a seat should outlive a long campaign; the cookie is
/// scoped to this table).
pub fn cookie(token: &str, seats: &[(u32, String)]) -> String {
    let value = seats
        .iter()
        .map(|(player, secret)| format!("{player}-{secret}"))
        .collect::<Vec<_>>()
        .join(".");
    format!("seat={value}; Path=/t/{token}; HttpOnly; SameSite=Lax; Max-Age=31536000")
}

/// The seat this request speaks for: the one it names (`which`), or else the cookie's first
/// seat still at the table. `None` when the cookie proves no such seat.
pub async fn seated<S: Store>(
    state: &AppState<S>,
    token: &str,
    headers: &HeaderMap,
    which: Option<u32>,
) -> Result<Option<Seat>, String> {
    let entries = entries(headers);
    if !valid_token(token) || entries.is_empty() {
        return Ok(None);
    }
    let Some(table) = table_id(state, token).await? else {
        return Ok(None);
    };
    // The named seat's own entry first; an entry of the one-seat form may be any seat.
    let mut tried: Vec<&Entry> = entries
        .iter()
        .filter(|e| which.is_none() || e.player == which)
        .collect();
    if which.is_some() {
        tried.extend(entries.iter().filter(|e| e.player.is_none()));
    }
    for entry in tried {
        let seat = seat_of(state, table, &entry.secret).await?;
        if let Some(seat) = seat.filter(|s| which.is_none_or(|p| s.player == p)) {
            return Ok(Some(seat));
        }
    }
    Ok(None)
}

/// Every seat the cookie holds that is still at the table, in the cookie's order, with its
/// secret.
pub async fn held<S: Store>(
    state: &AppState<S>,
    token: &str,
    headers: &HeaderMap,
) -> Result<Vec<(Seat, String)>, String> {
    let entries = entries(headers);
    if !valid_token(token) || entries.is_empty() {
        return Ok(Vec::new());
    }
    let Some(table) = table_id(state, token).await? else {
        return Ok(Vec::new());
    };
    let mut seats: Vec<(Seat, String)> = Vec::new();
    for entry in entries {
        if let Some(seat) = seat_of(state, table, &entry.secret).await?
            && !seats.iter().any(|(s, _)| s.player == seat.player)
        {
            seats.push((seat, entry.secret));
        }
    }
    Ok(seats)
}

/// The seats a browser holds, as its pages are told them: `[{"player":1,"name":"Ada"}, …]`.
pub fn listed(held: &[(Seat, String)]) -> serde_json::Value {
    (held.iter())
        .map(|(seat, _)| serde_json::json!({"player": seat.player, "name": seat.name}))
        .collect()
}

async fn table_id<S: Store>(state: &AppState<S>, token: &str) -> Result<Option<TableId>, String> {
    let table = (state.store.table_by_token(token).await).map_err(crate::unreadable)?;
    Ok(table.map(|t| t.id))
}

/// The seat whose secret is `secret`, unless it was removed.
async fn seat_of<S: Store>(
    state: &AppState<S>,
    table: TableId,
    secret: &str,
) -> Result<Option<Seat>, String> {
    let seat = (state
        .store
        .seat_by_secret(table, &secret_hash(secret))
        .await)
        .map_err(crate::unreadable)?;
    Ok(seat.filter(|s| !s.removed))
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    const A: &str = "0123456789abcdef0123456789abcdef";

    fn with_cookie(value: &'static str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(header::COOKIE, HeaderValue::from_static(value));
        headers
    }

    #[test]
    fn cookies_parse() {
        let one = entries(&with_cookie("a=1; seat=0123456789abcdef0123456789abcdef"));
        assert_eq!(
            one,
            vec![Entry {
                player: None,
                secret: A.into()
            }]
        );
        assert!(entries(&with_cookie("seat=short")).is_empty());
        let two = entries(&with_cookie(
            "seat=1-0123456789abcdef0123456789abcdef.x-0123456789abcdef0123456789abcdef.3-ffffffffffffffffffffffffffffffff",
        ));
        let players: Vec<_> = two.iter().map(|e| e.player).collect();
        assert_eq!(
            players,
            vec![Some(1), Some(3)],
            "a malformed entry is left out"
        );
    }

    #[test]
    fn a_cookie_holds_what_it_is_given() {
        let written = cookie("t", &[(1, A.into()), (4, A.into())]);
        let value = written.split(';').next().unwrap_or_default();
        assert_eq!(value, format!("seat=1-{A}.4-{A}"));
        let mut headers = HeaderMap::new();
        headers.insert(header::COOKIE, HeaderValue::from_str(value).unwrap());
        assert_eq!(entries(&headers).len(), 2);
    }
}
