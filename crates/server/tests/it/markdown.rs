//! Player text stays text: names, sheets, labels and sentences typed with Markdown and HTML in
//! them reach the story's Markdown export, its printable page and its published page as the
//! words typed, never as a link, an image, a heading, a list, code or HTML. One table per game.

use crate::{Page, Server, carried, cookie_of, fresh_db, http, join};
use pulldown_cmark::{Event, Parser, Tag};
use serde_json::{Value, json};
use std::net::SocketAddr;

/// A hostile text, and a word of it that any rendering of its markup would still show: every
/// time the word appears, the whole text must appear around it as typed.
struct Typed {
    text: &'static str,
    word: &'static str,
}

const HEADING: Typed = Typed {
    text: "# Fake heading",
    word: "Fake heading",
};
const LISTED: Typed = Typed {
    text: "- listed",
    word: "listed",
};
const NUMBERED: Typed = Typed {
    text: "1. numbered",
    word: "numbered",
};
const QUOTED: Typed = Typed {
    text: "> quoted",
    word: "quoted",
};
const LINK: Typed = Typed {
    text: "[link](javascript:alert(1)) **bold**",
    word: "javascript:alert(1)",
};
const IMAGE: Typed = Typed {
    text: "![pic](http://evil.example/x.png) `tick`",
    word: "evil.example/x.png",
};
const IMG_TAG: Typed = Typed {
    text: "<img src=x onerror=alert(3)> ~~struck~~",
    word: "onerror=alert(3)",
};
const SCRIPT: Typed = Typed {
    text: "<script>alert(2)</script>",
    word: "alert(2)",
};
const AUTOLINK: Typed = Typed {
    text: "<http://evil.example/login>",
    word: "evil.example/login",
};
const ENTITIES: Typed = Typed {
    text: "&#x3C;b&#x3E; &amp; http://evil.example/phish",
    word: "evil.example/phish",
};
const SETEXT: Typed = Typed {
    text: "Setext\n===",
    word: "Setext",
};
const BOLD: Typed = Typed {
    text: "**bold too** _em_",
    word: "bold too",
};
const REFERENCE: Typed = Typed {
    text: "see [ref]\n\n[ref]: http://evil.example/ref",
    word: "evil.example/ref",
};

fn collapsed(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `text` (read from an output) shows every typed text as typed, and no word of one outside it.
fn reads_as_typed(text: &str, typed: &[&Typed], what: &str) {
    let text = collapsed(text);
    for t in typed {
        let whole = collapsed(t.text);
        let times = text.matches(&whole).count();
        assert!(times > 0, "{what} does not show {whole:?} as typed: {text}");
        assert_eq!(
            text.matches(t.word).count(),
            times,
            "{what} shows {:?} outside {whole:?}: {text}",
            t.word
        );
    }
}

/// The export, parsed as the printable page parses it: no link, image, HTML, code or numbered
/// list in it, and every typed text reads as typed.
fn check_markdown(markdown: &str, typed: &[&Typed]) {
    let mut text = String::new();
    for event in Parser::new_ext(markdown, pulldown_cmark::Options::ENABLE_TABLES) {
        match &event {
            Event::Text(t) => text.push_str(t),
            Event::SoftBreak | Event::HardBreak | Event::End(_) => text.push(' '),
            Event::Start(Tag::Link { .. } | Tag::Image { .. } | Tag::List(Some(_)))
            | Event::Html(_)
            | Event::InlineHtml(_)
            | Event::Code(_) => panic!("the export made {event:?} from: {markdown}"),
            _ => {}
        }
    }
    reads_as_typed(&text, typed, "the export");
}

/// A page's story (its `<main>`): no link, image, script, code or numbered list, and every
/// typed text reads as typed once the tags are dropped and the entities read.
fn check_page(html: &str, typed: &[&Typed], what: &str) {
    let main = html
        .split_once("<main class=\"story\">")
        .and_then(|(_, rest)| rest.split_once("</main>"))
        .unwrap_or_else(|| panic!("{what} has a story: {html}"))
        .0;
    // Only the export's own structure, and no tag with attributes (a link, an image, a
    // handler): the text between tags is read as the words typed.
    let mut text = String::new();
    let mut tag: Option<String> = None;
    for c in main.chars() {
        match (&mut tag, c) {
            (None, '<') => tag = Some(String::new()),
            (Some(name), '>') => {
                let name = name.trim_start_matches('/');
                assert!(
                    [
                        "h1",
                        "h2",
                        "h3",
                        "p",
                        "em",
                        "strong",
                        "ul",
                        "li",
                        "blockquote"
                    ]
                    .contains(&name),
                    "{what} has the tag <{name}>: {main}"
                );
                tag = None;
                text.push(' ');
            }
            (Some(name), c) => name.push(c),
            (None, c) => text.push(c),
        }
    }
    let text = text
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&#x27;", "'")
        .replace("&amp;", "&");
    reads_as_typed(&text, typed, what);
}

/// The three outputs of the table, checked: the export, the printable page, and the page the
/// story is published at (which shows `published` of the texts: no safety lines). The story
/// is published first unless it is already.
async fn check_outputs(
    addr: SocketAddr,
    token: &str,
    cookie: &str,
    typed: &[&Typed],
    published: &[&Typed],
) {
    let (status, _, markdown) = http(
        addr,
        "GET",
        &format!("/t/{token}/export.md"),
        Some(cookie),
        None,
    )
    .await;
    assert_eq!(status, 200, "{markdown}");
    check_markdown(&markdown, typed);
    let (status, _, print) = http(
        addr,
        "GET",
        &format!("/t/{token}/print"),
        Some(cookie),
        None,
    )
    .await;
    assert_eq!(status, 200, "{print}");
    check_page(&print, typed, "the printable page");
    let invite = format!("/t/{token}/invite");
    let (status, _, mut body) = http(addr, "GET", &invite, Some(cookie), None).await;
    assert_eq!(status, 200, "{body}");
    if serde_json::from_str::<Value>(&body).unwrap()["share"].is_null() {
        let publish = Some(json!({"action": "publish"}));
        let share = format!("/t/{token}/share");
        let answer = http(addr, "POST", &share, Some(cookie), publish).await;
        assert_eq!(answer.0, 200, "{}", answer.2);
        body = answer.2;
    }
    let link = serde_json::from_str::<Value>(&body).unwrap()["share"]
        .as_str()
        .unwrap()
        .to_owned();
    let path = format!("/s/{}", link.split_once("/s/").unwrap().1);
    let (status, _, page) = http(addr, "GET", &path, None, None).await;
    assert_eq!(status, 200, "{page}");
    check_page(&page, published, "the published page");
}

/// A table made with these settings (game, creator's name): (token, cookie).
async fn create(addr: SocketAddr, settings: Value) -> (String, String) {
    let (status, headers, body) = http(addr, "POST", "/tables", None, Some(settings)).await;
    assert_eq!(status, 200, "{body}");
    let body: Value = serde_json::from_str(&body).unwrap();
    let token = body["token"].as_str().unwrap().to_owned();
    crate::INVITES
        .lock()
        .unwrap()
        .push((token.clone(), body["join"].as_str().unwrap().to_owned()));
    (token, cookie_of(&headers))
}

#[tokio::test]
async fn the_story_game_shows_what_players_typed_as_text() {
    let db = fresh_db();
    let server = Server::start(&db).await;
    let addr = server.addr;
    let (token, ada) = create(addr, json!({"name": HEADING.text, "ruleset": "1.0"})).await;
    let bo = join(addr, &token, LISTED.text).await;
    let mut pages = vec![
        Page::open(addr, &token, &ada, 0).await,
        Page::open(addr, &token, &bo, 0).await,
    ];
    pages[0]
        .ok(json!({"action": "roll_catastrophe", "world": "vael"}))
        .await;
    carried(&mut pages, json!({"motion": "advance", "to": "characters"})).await;
    pages[0]
        .ok(json!({"action": "create_character", "name": NUMBERED.text}))
        .await;
    pages[1]
        .ok(json!({"action": "create_character", "name": LINK.text}))
        .await;
    let mine = pages[0].view["objects"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["player"] == 1)
        .unwrap()["id"]
        .clone();
    for (text, category) in [
        (IMAGE.text, json!("occupation")),
        (QUOTED.text, Value::Null),
        (IMG_TAG.text, Value::Null),
        (SETEXT.text, Value::Null),
        // At the start of a list item.
        (LISTED.text, Value::Null),
        (NUMBERED.text, Value::Null),
    ] {
        pages[0]
            .ok(json!({"action": "attach_aspect", "object": mine, "text": text, "category": category}))
            .await;
    }
    for text in [
        SCRIPT.text,
        AUTOLINK.text,
        ENTITIES.text,
        BOLD.text,
        REFERENCE.text,
    ] {
        pages[0]
            .ok(json!({"action": "add_line", "text": text}))
            .await;
    }
    let typed = [
        &HEADING, &LISTED, &NUMBERED, &LINK, &IMAGE, &QUOTED, &IMG_TAG, &SETEXT, &SCRIPT,
        &AUTOLINK, &ENTITIES, &BOLD, &REFERENCE,
    ];
    // Publishing is the table's choice; the published page leaves the safety lines out.
    carried(&mut pages, json!({"motion": "publish"})).await;
    let published = [
        &HEADING, &LISTED, &NUMBERED, &LINK, &IMAGE, &QUOTED, &IMG_TAG, &SETEXT,
    ];
    check_outputs(addr, &token, &ada, &typed, &published).await;
    server.stop().await;
}

#[tokio::test]
async fn the_board_game_shows_what_players_typed_as_text() {
    let db = fresh_db();
    let server = Server::start(&db).await;
    let addr = server.addr;
    let (token, ann) = create(
        addr,
        json!({"name": HEADING.text, "game": "board", "bots": 0}),
    )
    .await;
    let mut page = Page::open(addr, &token, &ann, 0).await;
    // Names of players who sit down and are removed stay in the log of the game.
    for name in [LISTED.text, NUMBERED.text, QUOTED.text] {
        join(addr, &token, name).await;
    }
    for player in 2..=4 {
        page.ok(json!({"action": "remove_player", "player": player}))
            .await;
    }
    crate::refresh_invite(addr, &token, &ann).await;
    for name in [LINK.text, IMAGE.text, IMG_TAG.text, SCRIPT.text] {
        join(addr, &token, name).await;
    }
    page.ok(json!({"action": "start"})).await;
    assert_eq!(page.view["phase"], "playing", "{}", page.view);
    let typed = [
        &HEADING, &LISTED, &NUMBERED, &QUOTED, &LINK, &IMAGE, &IMG_TAG, &SCRIPT,
    ];
    check_outputs(addr, &token, &ann, &typed, &typed).await;
    server.stop().await;
}

#[tokio::test]
async fn the_challenge_rules_show_what_players_typed_as_text() {
    let db = fresh_db();
    let server = Server::start(&db).await;
    let addr = server.addr;
    let (token, gm_cookie) = create(addr, json!({"name": HEADING.text, "game": "challenge"})).await;
    let bo_cookie = join(addr, &token, LISTED.text).await;
    let mut gm = Page::open(addr, &token, &gm_cookie, 0).await;
    let mut bo = Page::open(addr, &token, &bo_cookie, 0).await;
    let sheet = json!({
        "name": NUMBERED.text,
        "concept": LINK.text,
        "aptitudes": {"knowledge": 1, "awareness": 2, "charisma": 0, "physicality": 1},
        "skills": ["surroundings"],
        "specialties": [{"skill": "might", "name": IMAGE.text}],
        "abilities": format!("{}\n{}", QUOTED.text, SETEXT.text),
    });
    bo.ok(json!({"action": "create_sheet", "sheet": sheet}))
        .await;
    let character = bo.view["characters"][0]["id"].clone();
    gm.ok(json!({
        "action": "call_challenge", "character": character, "description": IMG_TAG.text,
        "situation": "difficult", "aptitude": "physicality", "skills": ["might"],
        "bands": [{"from": 1, "to": 8, "label": AUTOLINK.text}]
    }))
    .await;
    bo.catch_up(gm.seq).await;
    let challenge = bo.view["challenges"][0]["id"].clone();
    let choice = json!({"specialty": {"skill": "might", "name": IMAGE.text}, "aptitude_points": 0});
    bo.ok(json!({"action": "roll", "challenge": challenge, "choice": choice}))
        .await;
    bo.ok(json!({"action": "narrate", "challenge": challenge, "text": ENTITIES.text}))
        .await;
    gm.catch_up(bo.seq).await;
    gm.ok(json!({"action": "record_fight", "description": SCRIPT.text, "cost": format!("{}\n{}", BOLD.text, REFERENCE.text)}))
        .await;
    let typed = [
        &HEADING, &LISTED, &NUMBERED, &LINK, &IMAGE, &QUOTED, &SETEXT, &IMG_TAG, &AUTOLINK,
        &ENTITIES, &SCRIPT, &BOLD, &REFERENCE,
    ];
    check_outputs(addr, &token, &gm_cookie, &typed, &typed).await;
    server.stop().await;
}
