//! A property test of the socket protocol (issue 11): random and mutated messages, sent by a
//! seated player to a live server, never make it panic, never close a well-behaved socket and
//! never change the table unless they were accepted.
//!
//! The messages come from a seeded ChaCha generator, so a failure names its seed and message
//! and replays exactly.

use crate::protocol::story_table;
use crate::{Page, Server, fresh_db};
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};
use serde_json::{Map, Value, json};
use std::sync::atomic::{AtomicUsize, Ordering};
use store::Store;

/// Messages per seed, and the seeds: enough to reach every mutation many times over, in a few
/// seconds.
const MESSAGES: usize = 600;
const SEEDS: [u64; 3] = [1, 2, 3];

/// Panics on this test's thread (where the server's tasks run: the test's runtime has one
/// thread), counted by a panic hook.
static PANICS: AtomicUsize = AtomicUsize::new(0);
const THREAD: &str = "fuzz::random_and_mutated_messages_change_nothing_they_should_not";

/// Actions of the story game a player may send, as pages send them; `ID` is replaced by one of
/// the table's ids.
fn corpus() -> Vec<Value> {
    vec![
        json!({"action": "add_line", "text": "no spiders"}),
        json!({"action": "remove_line", "line": "ID"}),
        json!({"action": "write_prophecy", "text": "The moon eats the crown"}),
        json!({"action": "agree", "proposal": "ID"}),
        json!({"action": "propose", "motion": {"motion": "advance", "to": "outline"}}),
        json!({"action": "propose", "motion": {"motion": "make_check", "scene": "ID"}}),
        json!({"action": "propose_pair", "scene": "ID", "character_aspect": "ID", "environment_aspect": "ID", "justification": "she knows"}),
        json!({"action": "place_object", "scene": "ID", "object": "ID"}),
        json!({"action": "create_object", "name": "The well", "kind": "place"}),
        json!({"action": "attach_aspect", "object": "ID", "text": "Deep", "category": null}),
        json!({"action": "sketch_scene", "parent": "ID", "objective": "Find the key"}),
        json!({"action": "start_scene", "scene": "ID"}),
        json!({"action": "narrate", "scene": "ID", "text": "And so it was."}),
        json!({"action": "finish_scene", "scene": "ID"}),
        json!({"action": "flag", "target": {"text": "prophecy"}}),
        json!({"action": "take_back"}),
        json!({"action": "pause"}),
        json!({"action": "resume"}),
        json!({"action": "roll_catastrophe", "world": "vael"}),
        json!({"action": "create_character", "name": "Wren"}),
        json!({"action": "open", "ruleset": "1.1"}),
    ]
}

/// Actions that would end the well-behaved players' seats: a fuzzer could send them legally.
const NEVER: [&str; 2] = ["remove_player", "hand_to_bot"];

struct Fuzz {
    rng: ChaCha8Rng,
    /// Every number in the table's view: ids worth hitting.
    ids: Vec<u64>,
}

impl Fuzz {
    fn below(&mut self, n: usize) -> usize {
        (self.rng.next_u64() % n as u64) as usize
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    fn id(&mut self) -> Value {
        match self.below(6) {
            0 => json!(0),
            1 => json!(u64::MAX),
            2 => json!(-1),
            _ if !self.ids.is_empty() => {
                let at = self.below(self.ids.len());
                json!(self.ids[at])
            }
            _ => json!(1),
        }
    }

    fn text(&mut self) -> String {
        let pieces = [
            "",
            "x",
            "Ada",
            "\u{202E}reversed",
            "\u{2069}",
            "\u{200B}",
            "\0",
            "\u{7}",
            "é",
            "e\u{301}",
            "👩‍👩‍👧",
            "<b>bold</b>",
            "\"quoted\"",
            "1",
            "-1",
            "null",
            "\n\r\t",
            "\u{FEFF}",
            "🏳️‍🌈",
            "ｆｕｌｌ",
            "prophecy",
            "story",
            "advance",
        ];
        let mut text = String::new();
        for _ in 0..1 + self.below(4) {
            text.push_str(pieces[self.below(pieces.len())]);
        }
        if self.chance(5) {
            text.push_str(&"long ".repeat(60));
        }
        text
    }

    fn value(&mut self, depth: usize) -> Value {
        match self.below(if depth > 3 { 6 } else { 8 }) {
            0 => Value::Null,
            1 => json!(self.chance(50)),
            2 => self.id(),
            3 => json!(f64::from(self.below(1000) as u32) / 7.0),
            4 | 5 => json!(self.text()),
            6 => Value::Array((0..self.below(4)).map(|_| self.value(depth + 1)).collect()),
            _ => {
                let keys = [
                    "action", "text", "scene", "motion", "to", "proposal", "x", "",
                ];
                let mut object = Map::new();
                for _ in 0..self.below(4) {
                    let key = keys[self.below(keys.len())].to_owned();
                    object.insert(key, self.value(depth + 1));
                }
                Value::Object(object)
            }
        }
    }

    /// Fills `ID` placeholders with the table's ids.
    fn fill(&mut self, value: &mut Value) {
        match value {
            Value::String(s) if s == "ID" => *value = self.id(),
            Value::Array(items) => items.iter_mut().for_each(|v| self.fill(v)),
            Value::Object(fields) => fields.values_mut().for_each(|v| self.fill(v)),
            _ => {}
        }
    }

    /// One change somewhere in `value`: a field removed, added, or given another value.
    fn mutate(&mut self, value: &mut Value) {
        match value {
            Value::Object(fields) if !fields.is_empty() && self.chance(70) => {
                let key = fields.keys().nth(self.below(fields.len())).unwrap().clone();
                match self.below(4) {
                    0 => {
                        fields.remove(&key);
                    }
                    1 => {
                        let new = self.value(1);
                        fields.insert(format!("{key}_"), new);
                    }
                    _ => self.mutate(fields.get_mut(&key).unwrap()),
                }
            }
            Value::Array(items) if !items.is_empty() && self.chance(70) => {
                let at = self.below(items.len());
                self.mutate(&mut items[at]);
            }
            _ => *value = self.value(1),
        }
    }

    /// The next frame to send: text (usually JSON) or bytes.
    fn frame(&mut self, corpus: &[Value]) -> Frame {
        let roll = self.below(100);
        let mut req = json!(self.below(1_000_000));
        if self.chance(5) {
            req = self.value(2);
        }
        let message = match roll {
            0..40 => {
                let mut action = corpus[self.below(corpus.len())].clone();
                self.fill(&mut action);
                for _ in 0..self.below(3) {
                    self.mutate(&mut action);
                }
                json!({"type": "act", "req": req, "action": action})
            }
            40..55 => json!({"type": "act", "req": req, "action": self.value(0)}),
            55..62 => json!({"type": "hello", "since": self.value(2)}),
            62..66 => json!({"type": "ping", "extra": self.value(2)}),
            66..74 => {
                let mut message = json!({"type": "act", "req": req, "action": corpus[self.below(corpus.len())].clone()});
                self.mutate(&mut message);
                message
            }
            74..86 => {
                // Text-level damage to a valid message.
                let mut chars: Vec<char> = json!({"type": "act", "req": req, "action": corpus[self.below(corpus.len())].clone()})
                    .to_string()
                    .chars()
                    .collect();
                match self.below(3) {
                    0 => chars.truncate(self.below(chars.len())),
                    1 => {
                        let at = self.below(chars.len());
                        chars.insert(at, ['{', '"', '\\', ']', ',', '\u{0}', 'é'][self.below(7)]);
                    }
                    _ => {
                        let at = self.below(chars.len());
                        chars.remove(at);
                    }
                }
                return Frame::Text(chars.into_iter().collect());
            }
            86..92 => self.value(0),
            92..95 => {
                let depth = 100 + self.below(2000);
                return Frame::Text(format!("{}{}", "[".repeat(depth), "]".repeat(depth)));
            }
            95..97 => {
                return Frame::Text(format!(
                    "{{\"type\":\"act\",\"req\":1,\"action\":{{\"action\":\"add_line\",\"text\":\"{}\"}}}}",
                    "y".repeat(17_000 + self.below(40_000))
                ));
            }
            _ => {
                let bytes = (0..self.below(64))
                    .map(|_| self.rng.next_u64() as u8)
                    .collect();
                return Frame::Binary(bytes);
            }
        };
        Frame::Text(message.to_string())
    }
}

enum Frame {
    Text(String),
    Binary(Vec<u8>),
}

#[tokio::test]
async fn random_and_mutated_messages_change_nothing_they_should_not() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if std::thread::current().name() == Some(THREAD) {
            PANICS.fetch_add(1, Ordering::SeqCst);
        }
        previous(info);
    }));
    let db = fresh_db();
    let server = Server::start(&db).await;
    let (token, mut pages, _) = story_table(&server).await;
    let table = server
        .store
        .table_by_token(&token)
        .await
        .unwrap()
        .expect("the table")
        .id;
    let events = async || server.store.events_after(table, 0).await.unwrap().len();
    let mut fuzzer = pages.remove(0);
    let mut ids = Vec::new();
    collect_numbers(&fuzzer.view, &mut ids);
    ids.sort_unstable();
    ids.dedup();
    let corpus = corpus();
    let (mut accepted, mut refused, mut errors) = (0, 0, 0);
    let mut history = Vec::new();
    for seed in SEEDS {
        let mut fuzz = Fuzz {
            rng: ChaCha8Rng::seed_from_u64(seed),
            ids: ids.clone(),
        };
        for n in 0..MESSAGES {
            let frame = fuzz.frame(&corpus);
            let shown = match &frame {
                Frame::Text(text) => text.chars().take(300).collect::<String>(),
                Frame::Binary(bytes) => format!("{} bytes", bytes.len()),
            };
            if NEVER.iter().any(|never| shown.contains(never)) {
                continue;
            }
            // A ping the fuzzer made is answered with a pong of its own.
            let mut pongs = match &frame {
                Frame::Text(text) => match serde_json::from_str::<Value>(text) {
                    Ok(message) if message["type"] == "ping" => 2,
                    _ => 1,
                },
                Frame::Binary(_) => 1,
            };
            let before = events().await;
            match frame {
                Frame::Text(text) => fuzzer.send_raw(text).await,
                Frame::Binary(bytes) => fuzzer.send_binary(bytes).await,
            }
            // Everything the server answers to that message comes before the pong.
            fuzzer.send_raw(r#"{"type":"ping"}"#.into()).await;
            let mut done = false;
            let mut heard = Vec::new();
            loop {
                let answer = fuzzer.next().await;
                heard.push(answer["type"].clone());
                heard.push(answer["message"].clone());
                match answer["type"].as_str() {
                    Some("pong") => {
                        pongs -= 1;
                        if pongs == 0 {
                            break;
                        }
                    }
                    Some("done") => {
                        done = true;
                        accepted += 1;
                    }
                    Some("refused") => refused += 1,
                    Some("error") => {
                        errors += 1;
                        let message = answer["message"].as_str().unwrap_or_default();
                        for word in ["enum", "struct", "variant", "serde", "`", "u64", "u32"] {
                            assert!(
                                !message.contains(word),
                                "seed {seed}, message {n}: {shown} → {answer}"
                            );
                        }
                    }
                    Some("update" | "sync" | "own") => {}
                    _ => panic!("seed {seed}, message {n}: {shown} → {answer}"),
                }
            }
            let after = events().await;
            history.push(format!("{n}: {shown} → {heard:?} ({before} → {after})"));
            if !done {
                assert_eq!(
                    after,
                    before,
                    "{}",
                    history[history.len().saturating_sub(4)..].join("\n")
                );
                assert_eq!(
                    events().await,
                    before,
                    "seed {seed}, message {n} changed the table without being accepted: {shown} → {heard:?}"
                );
            }
        }
    }
    // The well-behaved players' sockets are open, caught up and still play.
    let last = events().await as u64;
    for page in pages.iter_mut() {
        page.send(json!({"type": "ping"})).await;
        page.until(|m| m["type"] == "pong").await;
        while page.seq < last {
            page.next().await;
        }
        assert_eq!(page.view, pages_view(&mut fuzzer, last).await);
    }
    pages[0]
        .ok(json!({"action": "add_line", "text": "still here"}))
        .await;
    assert_eq!(PANICS.load(Ordering::SeqCst), 0, "the server panicked");
    assert!(
        accepted > 0 && refused > 50 && errors > 200,
        "the fuzzer reaches every answer: {accepted} accepted, {refused} refused, {errors} errors"
    );
    server.stop().await;
}

/// The fuzzer's own view once it has caught up to `seq`.
async fn pages_view(page: &mut Page, seq: u64) -> Value {
    while page.seq < seq {
        page.next().await;
    }
    page.view.clone()
}

fn collect_numbers(value: &Value, into: &mut Vec<u64>) {
    match value {
        Value::Number(n) => into.extend(n.as_u64()),
        Value::Array(items) => items.iter().for_each(|v| collect_numbers(v, into)),
        Value::Object(fields) => fields.values().for_each(|v| collect_numbers(v, into)),
        _ => {}
    }
}
