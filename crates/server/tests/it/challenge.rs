//! The Challenge rules at the web table: a game master, sheets, challenges with the exact odds
//! of every choice, rolls by the server's dice, rest, fights and the GM seat handed over.

use crate::{Page, Server, cookie_of, fresh_db, http, join, views_match_the_log};
use serde_json::{Value, json};
use server::games::challenge::ChallengeGame;
use std::net::SocketAddr;

async fn create_challenge_table(addr: SocketAddr, name: &str) -> (String, String) {
    let (status, headers, body) = http(
        addr,
        "POST",
        "/tables",
        None,
        Some(json!({"name": name, "game": "challenge"})),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let body: Value = serde_json::from_str(&body).unwrap();
    let token = body["token"].as_str().unwrap().to_owned();
    crate::INVITES
        .lock()
        .unwrap()
        .push((token.clone(), body["join"].as_str().unwrap().to_owned()));
    (token, cookie_of(&headers))
}

fn sheet(name: &str) -> Value {
    json!({
        "name": name,
        "concept": "a river pilot",
        "aptitudes": {"knowledge": 1, "awareness": 2, "charisma": 0, "physicality": 1},
        "skills": ["surroundings"],
        "specialties": [{"skill": "might", "name": "rowing"}],
        "abilities": ""
    })
}

#[tokio::test]
async fn a_game_master_calls_a_challenge_and_the_player_rolls_it_knowing_the_odds() {
    let db = fresh_db();
    let server = Server::start(&db).await;
    let (token, gm_cookie) = create_challenge_table(server.addr, "Gwen").await;
    let bo_cookie = join(server.addr, &token, "Bo").await;
    let mut gm = Page::open(server.addr, &token, &gm_cookie, 0).await;
    let mut bo = Page::open(server.addr, &token, &bo_cookie, 0).await;
    assert_eq!(gm.view["game"], "challenge");
    let gm_id = gm.heard[0]["you"].clone();
    let bo_id = bo.heard[0]["you"].clone();
    assert_eq!(gm.view["gm"], gm_id);

    // The page of the challenge rules.
    let (status, _, html) = http(server.addr, "GET", &format!("/t/{token}"), None, None).await;
    assert_eq!(status, 200);
    assert!(html.contains("/assets/challenge/main."), "{html}");

    bo.ok(json!({"action": "create_sheet", "sheet": sheet("Mira")}))
        .await;
    let character = bo.view["characters"][0]["id"].clone();

    // Only the game master calls a challenge.
    let call = json!({
        "action": "call_challenge", "character": character, "description": "Row across the flood",
        "situation": "difficult", "aptitude": "physicality", "skills": ["might"]
    });
    let answer = bo.act(call.clone()).await;
    assert_eq!(answer["type"], "refused", "{answer}");
    assert_eq!(answer["code"], "not_gm");
    gm.ok(call).await;
    bo.catch_up(gm.seq).await;
    let open = bo.view["challenges"][0].clone();
    assert_eq!(open["status"], "open");
    assert_eq!(open["sides"], 4);

    let choice = choices_show_their_odds(&open);

    // Bo rolls with the Specialty and a point; the seed is the server's, whatever the page says.
    bo.ok(json!({"action": "roll", "challenge": open["id"], "choice": choice, "seed": 7}))
        .await;
    let rolled = bo.view["challenges"][0].clone();
    assert_eq!(rolled["status"], "rolled");
    let outcome = &rolled["outcome"];
    assert_eq!(outcome["faces"].as_array().unwrap().len(), 2);
    let faces: Vec<u64> = outcome["faces"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_u64().unwrap())
        .collect();
    assert_eq!(outcome["result"], *faces.iter().max().unwrap());
    assert!(outcome["label"].as_str().unwrap().len() > 3);
    let physicality = |page: &Page| {
        page.view["characters"][0]["aptitudes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["aptitude"] == "physicality")
            .unwrap()["current"]
            .clone()
    };
    assert_eq!(physicality(&bo), 0);
    let log = bo
        .heard
        .iter()
        .rev()
        .find_map(|m| m["log"].as_array().cloned())
        .unwrap();
    assert!(
        log.iter()
            .any(|l| l["text"].as_str().unwrap().contains("Mira rolls 2d4")),
        "{log:?}"
    );

    // A second point on one roll is refused by name; a point she no longer has, too.
    gm.ok(json!({
        "action": "call_challenge", "character": character, "description": "Haul the boat",
        "situation": "average", "aptitude": "physicality", "skills": ["might"]
    }))
    .await;
    bo.catch_up(gm.seq).await;
    let second = bo.view["challenges"][1]["id"].clone();
    let answer = bo
        .act(json!({"action": "roll", "challenge": second, "choice": {"aptitude_points": 2}}))
        .await;
    assert_eq!(answer["code"], "one_aptitude_point", "{answer}");
    let answer = bo
        .act(json!({"action": "roll", "challenge": second, "choice": {"aptitude_points": 1}}))
        .await;
    assert_eq!(answer["code"], "no_aptitude_point", "{answer}");

    // A rest gives the point back; a fight is written down; the GM seat changes hands.
    gm.ok(json!({"action": "rest"})).await;
    bo.catch_up(gm.seq).await;
    assert_eq!(physicality(&bo), 1);
    gm.ok(json!({"action": "record_fight", "description": "Bandits at the ford", "cost": "Mira's oar", "suggested_by": bo_id}))
        .await;
    gm.ok(json!({"action": "hand_gm", "to": bo_id})).await;
    assert_eq!(gm.view["gm"], bo_id);
    assert_eq!(gm.view["fights"].as_array().unwrap().len(), 1);

    the_export_names_the_session(&server, &token, &gm_cookie).await;

    the_pages_agree_with_the_log(&server, &token, &mut gm, &mut bo, &bo_cookie).await;
    server.stop().await;
}

/// Every choice comes with the exact chance of each band: without a point (the Specialty
/// counts, as Mira has no Might) and with one; the chances add up to one. Returns the choice
/// of the Specialty and a point.
fn choices_show_their_odds(open: &Value) -> Value {
    let choices = open["choices"].as_array().unwrap();
    let with = |specialty: bool, points: u64| {
        choices
            .iter()
            .find(|c| {
                c["choice"]["specialty"].is_object() == specialty
                    && c["choice"]["aptitude_points"] == points
            })
            .unwrap()
            .clone()
    };
    assert_eq!(with(false, 0)["steps"], 0);
    assert_eq!(with(false, 0)["pool_words"], "2d4, keep the lowest");
    assert_eq!(with(true, 0)["steps"], 1);
    assert_eq!(with(true, 1)["steps"], 2);
    assert_eq!(with(true, 1)["pool_words"], "2d4, keep the highest");
    let total: f64 = with(true, 1)["bands"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            let (n, d) = b["p"]
                .as_str()
                .unwrap()
                .split_once('/')
                .unwrap_or((b["p"].as_str().unwrap(), "1"));
            n.parse::<f64>().unwrap() / d.parse::<f64>().unwrap()
        })
        .sum();
    assert!((total - 1.0).abs() < 1e-12, "{total}");

    with(true, 1)["choice"].clone()
}

/// The Markdown export, named after the table's title, holds the challenge and the fight.
async fn the_export_names_the_session(server: &Server, token: &str, cookie: &str) {
    let (status, headers, markdown) = http(
        server.addr,
        "GET",
        &format!("/t/{token}/export.md"),
        Some(cookie),
        None,
    )
    .await;
    assert_eq!(status, 200);
    // The file is named after the table's title (an unnamed table's: the game and the day it
    // was created), not "prophecy.md" for every table.
    assert!(
        headers.contains("filename=\"challenge-session-"),
        "{headers}"
    );
    assert!(markdown.starts_with("# Challenge session, "), "{markdown}");
    assert!(markdown.contains("Row across the flood"), "{markdown}");
    assert!(markdown.contains("Bandits at the ford"), "{markdown}");
}

/// Updates carry what changed: every view the pages built from them is the table's view at
/// that event, and the last one is what a fresh page's sync brings.
async fn the_pages_agree_with_the_log(
    server: &Server,
    token: &str,
    gm: &mut Page,
    bo: &mut Page,
    bo_cookie: &str,
) {
    let latest = gm.seq.max(bo.seq);
    for page in [&mut *gm, &mut *bo] {
        while page.seq < latest {
            page.next().await;
        }
    }
    for page in [&*gm, &*bo] {
        let checked = views_match_the_log::<ChallengeGame>(server, token, page, 1).await;
        assert!(checked > 5, "{checked} views");
        assert!(
            page.heard.iter().any(|m| m.get("patch").is_some()),
            "updates are patches"
        );
    }
    let fresh = Page::open(server.addr, token, bo_cookie, 0).await;
    assert_eq!(fresh.view, bo.view);
    // What the pages heard, for their types (samples.rs).
    crate::samples::write("challenge", "gm-gwen", gm);
    crate::samples::write("challenge", "player-bo", bo);
    crate::samples::write_http("challenge", server.addr, token, bo_cookie).await;
}

#[tokio::test]
async fn a_removed_game_master_hands_the_seat_back_to_the_creator() {
    let db = fresh_db();
    let server = Server::start(&db).await;
    let (token, gm_cookie) = create_challenge_table(server.addr, "Gwen").await;
    let bo_cookie = join(server.addr, &token, "Bo").await;
    let mut gm = Page::open(server.addr, &token, &gm_cookie, 0).await;
    let bo = Page::open(server.addr, &token, &bo_cookie, 0).await;
    let gm_id = gm.heard[0]["you"].clone();
    let bo_id = bo.heard[0]["you"].clone();
    gm.ok(json!({"action": "hand_gm", "to": bo_id})).await;
    gm.ok(json!({"action": "remove_player", "player": bo_id}))
        .await;
    assert_eq!(gm.view["gm"], gm_id);
    // The removal is an event of its own, and the view keeps Bo's name for the records.
    let line = gm
        .heard
        .iter()
        .rev()
        .find_map(|m| m["log"].as_array()?.last().cloned());
    assert_eq!(line.unwrap()["text"], "Bo left the table.");
    let bo_seat = gm.view["players"][1].clone();
    assert_eq!(
        (&bo_seat["name"], &bo_seat["removed"]),
        (&json!("Bo"), &json!(true))
    );
    server.stop().await;
}

#[tokio::test]
async fn a_removed_player_leaves_a_place_at_a_full_table() {
    let db = fresh_db();
    let server = Server::start(&db).await;
    let (token, gm_cookie) = create_challenge_table(server.addr, "Gwen").await;
    for n in 2..=16 {
        join(server.addr, &token, &format!("P{n}")).await;
    }
    let code = crate::invite_of(&token);
    let (status, _, body) = crate::try_join(server.addr, &token, &code, "Late").await;
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("at most 16 players"), "{body}");
    let mut gm = Page::open(server.addr, &token, &gm_cookie, 0).await;
    gm.ok(json!({"action": "remove_player", "player": 2})).await;
    // The invitation as the creator's page reads it.
    let (_, _, body) = http(
        server.addr,
        "GET",
        &format!("/t/{token}/invite"),
        Some(&gm_cookie),
        None,
    )
    .await;
    let link: Value = serde_json::from_str(&body).unwrap();
    let code = link["link"]
        .as_str()
        .unwrap()
        .rsplit_once("join=")
        .unwrap()
        .1
        .to_owned();
    let (status, _, body) = crate::try_join(server.addr, &token, &code, "Late").await;
    assert_eq!(status, 200, "{body}");
    server.stop().await;
}
