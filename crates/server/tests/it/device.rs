//! Pass the phone: one browser holds several seats at a table. Each request names the seat it
//! speaks for and is answered as that seat; each seat's page hears only what that seat may
//! know; a device holds at most eight seats; a removed seat stops working on the device.

use crate::{
    Page, Server, cookie_of, create_table, fresh_db, http_as, invite_of, upgrade_path_status,
};
use serde_json::{Value, json};
use std::net::SocketAddr;

/// Adds a player named `name` on the device whose cookie is `cookie`: (status, the device's new
/// cookie, the answer).
async fn add_here(addr: SocketAddr, token: &str, cookie: &str, name: &str) -> (u16, String, Value) {
    let body = json!({"name": name, "join": invite_of(token), "also": true});
    let (status, headers, answer) = http_as(
        addr,
        "POST",
        &format!("/t/{token}/join"),
        Some(cookie),
        None,
        Some(body),
    )
    .await;
    let cookie = if status == 200 {
        cookie_of(&headers)
    } else {
        cookie.to_owned()
    };
    (status, cookie, serde_json::from_str(&answer).unwrap())
}

/// `GET path` as `seat` of the device: (status, answer).
async fn get_as(addr: SocketAddr, path: &str, cookie: &str, seat: Option<u32>) -> (u16, Value) {
    let (status, _, body) = http_as(addr, "GET", path, Some(cookie), seat, None).await;
    (status, serde_json::from_str(&body).unwrap_or(Value::Null))
}

#[tokio::test]
async fn one_browser_holds_several_seats_and_each_request_speaks_for_the_one_it_names() {
    let db = fresh_db();
    let server = Server::start(&db).await;
    let addr = server.addr;
    let (token, ada) = create_table(addr, "1.0", "Ada").await;
    let (status, device, answer) = add_here(addr, &token, &ada, "Bo").await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["player"], 2);
    assert_eq!(
        device.split('.').count(),
        2,
        "the cookie holds both seats: {device}"
    );

    // Joining again without `also` is the seat the browser has, not a new one.
    let again = json!({"name": "Cy", "join": invite_of(&token)});
    let (_, _, body) = http_as(
        addr,
        "POST",
        &format!("/t/{token}/join"),
        Some(&device),
        None,
        Some(again),
    )
    .await;
    assert_eq!(serde_json::from_str::<Value>(&body).unwrap()["player"], 1);

    // Each request is answered as the seat it names; naming none, as the first.
    let me = format!("/t/{token}/me");
    let (_, first) = get_as(addr, &me, &device, None).await;
    assert_eq!(
        (first["player"].clone(), first["name"].clone()),
        (json!(1), json!("Ada"))
    );
    let seats = json!([{"player": 1, "name": "Ada"}, {"player": 2, "name": "Bo"}]);
    assert_eq!(first["seats"], seats);
    let (_, bo) = get_as(addr, &me, &device, Some(2)).await;
    assert_eq!(
        (bo["player"].clone(), bo["creator"].clone()),
        (json!(2), json!(false))
    );
    let invite = format!("/t/{token}/invite");
    assert_eq!(
        get_as(addr, &invite, &device, Some(1)).await.1["creator"],
        true
    );
    assert_eq!(
        get_as(addr, &invite, &device, Some(2)).await.1["creator"],
        false
    );
    // A seat the browser does not hold is no seat at all; Ada's cookie alone does not hold Bo's.
    assert_eq!(get_as(addr, &invite, &device, Some(3)).await.0, 401);
    assert_eq!(get_as(addr, &invite, &ada, Some(2)).await.0, 401);

    // The sockets: each names its seat in its address.
    let origin = format!("http://{addr}");
    let ws = |seat: &str| format!("/t/{token}/ws?seat={seat}");
    assert_eq!(
        upgrade_path_status(addr, &ws("3"), Some(&device), &origin).await,
        401
    );
    assert_eq!(
        upgrade_path_status(addr, &ws("two"), Some(&device), &origin).await,
        400
    );
    let mut bo_page = Page::open_as(addr, &token, &device, 2, 0).await;
    let sync = bo_page.heard.iter().find(|m| m["type"] == "sync").unwrap();
    assert_eq!(sync["you"], 2);
    let told = bo_page.until(|m| m["type"] == "device").await;
    assert_eq!(told["seats"], seats);
    // Both players of the device are at the table while one page of it is open.
    let mut cy_page = {
        let cy = crate::join(addr, &token, "Cy").await;
        Page::open(addr, &token, &cy, 0).await
    };
    let sync = cy_page.heard.iter().find(|m| m["type"] == "sync").unwrap();
    let online: Vec<u64> = (sync["online"].as_array().unwrap().iter())
        .filter_map(Value::as_u64)
        .collect();
    assert!(online.contains(&1) && online.contains(&2), "{online:?}");

    // What only Ada may know reaches Ada's page of the device, never Bo's.
    let mut ada_page = Page::open_as(addr, &token, &device, 1, 0).await;
    ada_page
        .ok(json!({"action": "add_line", "text": "Drowned children"}))
        .await;
    let seq = ada_page.seq;
    // Her `own` comes with the update, or just after it.
    while ada_page.own["lines"].as_array().map_or(0, Vec::len) != 1 {
        ada_page.next().await;
    }
    bo_page.catch_up(seq).await;
    cy_page.catch_up(seq).await;
    for (page, who) in [(&bo_page, "Bo"), (&cy_page, "Cy")] {
        for message in &page.heard {
            let own = &message["own"];
            let lines = own["lines"].as_array().map_or(0, Vec::len);
            assert_eq!(lines, 0, "{who}'s page was told of Ada's line: {message}");
        }
    }
    server.stop().await;
}

#[tokio::test]
async fn a_device_holds_eight_seats_keeps_an_old_cookie_and_loses_a_removed_seat() {
    let db = fresh_db();
    let server = Server::start(&db).await;
    let addr = server.addr;
    let (token, ada) = create_table(addr, "1.0", "Ada").await;
    // A cookie written before a device held several seats: the bare secret.
    let (name, value) = ada.split_once('=').unwrap();
    let old = format!("{name}={}", value.split_once('-').unwrap().1);
    assert_eq!(
        get_as(addr, &format!("/t/{token}/me"), &old, None).await.1["player"],
        1
    );
    let mut device = old;
    for (i, name) in ["Bo", "Cy", "Di", "Eve", "Fay", "Gus", "Hal"]
        .iter()
        .enumerate()
    {
        let (status, cookie, answer) = add_here(addr, &token, &device, name).await;
        assert_eq!(status, 200, "{answer}");
        assert_eq!(cookie.split('.').count(), i + 2);
        device = cookie;
    }
    let (status, _, answer) = add_here(addr, &token, &device, "Ivo").await;
    assert_eq!(status, 400);
    assert_eq!(
        answer["error"],
        "This device holds 8 seats at this table already, the most one may: play the next seat on another device."
    );

    // The creator removes Bo: Bo's seat stops working on the device, the others do not.
    let mut creator = Page::open_as(addr, &token, &device, 1, 0).await;
    creator
        .ok(json!({"action": "remove_player", "player": 2}))
        .await;
    let origin = format!("http://{addr}");
    let ws = |seat: u32| format!("/t/{token}/ws?seat={seat}");
    assert_eq!(
        upgrade_path_status(addr, &ws(2), Some(&device), &origin).await,
        401
    );
    assert_eq!(
        upgrade_path_status(addr, &ws(3), Some(&device), &origin).await,
        101
    );
    // The device's page still open counted Bo as there; removed, he is not shown online.
    let cy = Page::open_as(addr, &token, &device, 3, 0).await;
    let sync = cy.heard.iter().find(|m| m["type"] == "sync").unwrap();
    let online: Vec<u64> = (sync["online"].as_array().unwrap().iter())
        .filter_map(Value::as_u64)
        .collect();
    assert!(online.contains(&1) && !online.contains(&2), "{online:?}");
    // A page that still names Bo's seat is told which seat of its browser speaks now.
    let (_, me) = get_as(addr, &format!("/t/{token}/me"), &device, Some(2)).await;
    assert_eq!(
        (me["player"].clone(), me["name"].clone()),
        (json!(1), json!("Ada"))
    );
    let held: Vec<&str> = (me["seats"].as_array().unwrap().iter())
        .filter_map(|s| s["name"].as_str())
        .collect();
    assert_eq!(held, ["Ada", "Cy", "Di", "Eve", "Fay", "Gus", "Hal"]);
    server.stop().await;
}
