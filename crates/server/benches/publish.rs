//! Benchmarks of the server's own work for one action at a story table, without I/O: `cargo
//! bench -p server`.
//!
//! The table is the load generator's (`crates/loadgen`): four players, ruleset 1.0, five
//! aspects a character, an outline of 26 scenes, a place with one aspect, in the story phase.
//! One scene is nine actions: place the object, start the scene, propose a pair, propose the
//! check, three agreements (the last one rolls), narrate, finish. For each action the room
//! decides it, writes each event's log line, applies the events, builds the view after them
//! and its patch, and serializes the patch: what `scene` times, nine actions at a time, and
//! what each `update` of `loadgen` costs the server besides the store and the sockets.
//!
//! `replay_*` time a page of a replay (`GET /t/{token}/replay`, 200 steps) of that table once
//! every scene of its outline is played: the log read and replayed from its first event, and
//! the 200 steps' views and patches.

use divan::{Bencher, black_box};
use serde_json::{Value, json};
use server::game::{Context, Extras, Game};
use server::games::story::{StoryExtras, StoryGame, StoryView};
use server::patch::View;
use story::State;

/// The allocator `prophecy serve` runs with, so that the figures are the server's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    divan::main();
}

/// Scenes in the outline: the load generator's default for a 30 s window.
const SCENES: usize = 26;

/// A story table as the room holds it: the state, and the view its pages were last sent.
#[derive(Clone)]
struct Table {
    state: State,
    view: StoryView,
    /// Actions taken, for each one's clock and seed.
    actions: u64,
    /// Every event so far, for a replay.
    events: Vec<story::Event>,
}

impl Table {
    fn new() -> Table {
        let mut table = Table {
            state: State::default(),
            view: StoryGame::view(&State::default(), 1),
            actions: 0,
            events: Vec::new(),
        };
        let opened = StoryGame::open(&json!({"ruleset": "1.0"})).expect("a 1.0 table opens");
        table.apply(&opened);
        for (player, name) in [(1, "Ada"), (2, "Bo"), (3, "Cy"), (4, "Di")] {
            let joined = StoryGame::join(&table.state, player, name).expect("a seat is free");
            table.apply(&joined);
        }
        table
    }

    /// `player` acts: what the room does for an accepted action, the patch serialized.
    fn act(&mut self, player: u32, action: &Value) -> String {
        self.actions += 1;
        let context = Context {
            now: 1_800_000_000_000 + 250 * self.actions as i64,
            seed: self.actions,
        };
        let events = StoryGame::act(&self.state, player, action, &context)
            .unwrap_or_else(|e| panic!("{action} was not accepted: {e:?}"));
        self.apply(&events)
    }

    fn apply(&mut self, events: &[story::Event]) -> String {
        let mut log = Vec::with_capacity(events.len());
        for event in events {
            log.push((
                StoryGame::describe(&self.state, event),
                StoryExtras::describe_parts(&self.state, event),
            ));
            self.state = StoryGame::evolve(std::mem::take(&mut self.state), event);
        }
        self.events.extend_from_slice(events);
        let view = StoryGame::view_after(&self.state, 1, &self.view, events);
        let mut patch = Vec::new();
        self.view.diff(&view, &mut String::new(), &mut patch);
        self.view = view;
        /// The `update`'s parts that depend on the events, serialized from borrowed parts as
        /// the room does.
        #[derive(serde::Serialize)]
        struct Update<'a> {
            log: &'a [(String, Option<Vec<Value>>)],
            patch: &'a [server::patch::Op],
        }
        serde_json::to_string(&Update {
            log: &log,
            patch: &patch,
        })
        .expect("JSON")
    }

    /// The view as its pages read it.
    fn json(&self) -> Value {
        serde_json::to_value(&self.view).expect("JSON")
    }

    /// `by` proposes `motion` and everyone agrees; the proposal's id.
    fn agreed(&mut self, by: u32, motion: Value) {
        let id = self.propose(by, motion);
        for player in (1..=4).filter(|&p| p != by) {
            self.act(player, &json!({"action": "agree", "proposal": id}));
        }
    }

    fn propose(&mut self, by: u32, motion: Value) -> u64 {
        self.act(by, &json!({"action": "propose", "motion": motion}));
        self.proposal()
    }

    /// The open proposal's id, as its page reads it from the view.
    fn proposal(&self) -> u64 {
        self.state
            .proposal
            .as_ref()
            .expect("a proposal")
            .id
            .0
            .into()
    }

    /// The id of the first object `wanted` finds.
    fn object(&self, wanted: impl Fn(&Value) -> bool) -> u64 {
        let view = self.json();
        let found = view["objects"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|o| wanted(o));
        found.and_then(|o| o["id"].as_u64()).expect("the object")
    }
}

/// A table in the story phase, and what each scene needs: each player's first aspect, the
/// place and its aspect, and the scenes in an order the rules allow (precursors first).
#[derive(Clone)]
struct Story {
    table: Table,
    aspects: [u64; 4],
    place: u64,
    place_aspect: u64,
    order: Vec<u64>,
}

fn story() -> Story {
    let mut t = Table::new();
    t.act(1, &json!({"action": "roll_catastrophe", "world": "vael"}));
    t.agreed(2, json!({"motion": "advance", "to": "characters"}));
    for (player, name) in [(1, "Wren"), (2, "Tamsin"), (3, "Osric"), (4, "Maud")] {
        t.act(player, &json!({"action": "create_character", "name": name}));
    }
    let characters: Vec<u64> = (1..=4u64)
        .map(|p| t.object(|o| o["kind"] == "character" && o["player"] == p))
        .collect();
    let categories = [
        json!("occupation"),
        json!("physical_or_mental"),
        json!("psychological"),
        Value::Null,
        json!("affiliation"),
    ];
    for (c, category) in categories.iter().enumerate() {
        for seat in 0..4 {
            let category = if category.is_null() {
                json!({"relationship": {"with": characters[(seat + 1) % 4]}})
            } else {
                category.clone()
            };
            let text = format!("Aspect {c} of player {}", seat + 1);
            t.act(seat as u32 + 1, &json!({"action": "attach_aspect", "object": characters[seat], "text": text, "category": category}));
        }
    }
    let aspects: [u64; 4] = std::array::from_fn(|seat| {
        let view = t.json();
        let character = view["objects"].as_array().into_iter().flatten();
        let character = character.clone().find(|o| o["id"] == characters[seat]);
        character
            .and_then(|o| o["aspects"][0]["id"].as_u64())
            .expect("an aspect")
    });
    t.agreed(3, json!({"motion": "advance", "to": "outline"}));
    t.act(
        1,
        &json!({"action": "sketch_finale", "objective": "Bind the wyrm"}),
    );
    let finale = t.json()["finale"].as_u64().expect("the Finale");
    let parents = outline(SCENES);
    let mut ids = vec![finale];
    for (k, parent) in parents.iter().enumerate().skip(1) {
        let parent = ids[parent.expect("a scene below the Finale")];
        t.act(
            k as u32 % 4 + 1,
            &json!({"action": "sketch_scene", "parent": parent, "objective": format!("Scene {k}")}),
        );
        let view = t.json();
        let newest = (view["scenes"].as_array().into_iter().flatten())
            .filter_map(|s| s["id"].as_u64())
            .max();
        ids.push(newest.expect("the new scene"));
    }
    t.act(
        4,
        &json!({"action": "create_object", "name": "The vault", "kind": "place"}),
    );
    let place = t.object(|o| o["name"] == "The vault");
    t.act(
        1,
        &json!({"action": "attach_aspect", "object": place, "text": "Unguarded", "category": null}),
    );
    let place_aspect = {
        let view = t.json();
        let vault = view["objects"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|o| o["id"] == place);
        vault
            .and_then(|o| o["aspects"][0]["id"].as_u64())
            .expect("its aspect")
    };
    t.agreed(2, json!({"motion": "advance", "to": "story"}));
    Story {
        table: t,
        aspects,
        place,
        place_aspect,
        // Breadth first puts every scene after its parent: backwards, precursors come first.
        order: ids.into_iter().rev().collect(),
    }
}

/// The parent (by index) of each of `scenes` scenes, the Finale first: breadth first, three
/// children each, as the load generator sketches them.
fn outline(scenes: usize) -> Vec<Option<usize>> {
    (0..scenes)
        .map(|k| k.checked_sub(1).map(|k| k / 3))
        .collect()
}

impl Story {
    /// Plays the `k`-th scene of the order, by player `k % 4 + 1`; the bytes of its patches.
    fn scene(&mut self, k: usize) -> usize {
        let scene = self.order[k];
        let seat = k % 4;
        let (by, roller) = (seat as u32 + 1, (seat as u32 + 1) % 4 + 1);
        let t = &mut self.table;
        let mut bytes = 0;
        bytes += t
            .act(
                by,
                &json!({"action": "place_object", "scene": scene, "object": self.place}),
            )
            .len();
        bytes += t
            .act(by, &json!({"action": "start_scene", "scene": scene}))
            .len();
        bytes += t.act(by, &json!({"action": "propose_pair", "scene": scene, "character_aspect": self.aspects[seat], "environment_aspect": self.place_aspect, "justification": "They know the way in."})).len();
        let check = json!({"motion": "make_check", "scene": scene, "accept_empty_pool": false});
        bytes += t
            .act(by, &json!({"action": "propose", "motion": check}))
            .len();
        let id = t.proposal();
        for player in (1..=4).filter(|&p| p != by && p != roller).chain([roller]) {
            bytes += t
                .act(player, &json!({"action": "agree", "proposal": id}))
                .len();
        }
        bytes += t.act(by, &json!({"action": "narrate", "scene": scene, "text": "The dice spoke, and the story went on."})).len();
        bytes += t
            .act(by, &json!({"action": "finish_scene", "scene": scene}))
            .len();
        bytes
    }
}

/// Nine actions: the first scene of the outline played from the start of the story phase.
#[divan::bench(sample_count = 200)]
fn scene(bencher: Bencher) {
    let start = story();
    bencher
        .counter(divan::counter::ItemsCount::new(9usize))
        .with_inputs(|| start.clone())
        // The table is returned, to be dropped after the timing.
        .bench_local_values(|mut story| (black_box(story.scene(0)), story));
}

/// Nine actions at the eleventh scene (ten played before it).
#[divan::bench(sample_count = 200)]
fn eleventh_scene(bencher: Bencher) {
    let mut start = story();
    for k in 0..10 {
        start.scene(k);
    }
    bencher
        .counter(divan::counter::ItemsCount::new(9usize))
        .with_inputs(|| start.clone())
        .bench_local_values(|mut story| (black_box(story.scene(10)), story));
}

/// The stored log of the table once every scene of its outline is played: 362 events.
fn played_log() -> Vec<store::EventRow> {
    let mut story = story();
    for k in 0..SCENES {
        story.scene(k);
    }
    (story.table.events.iter().enumerate())
        .map(|(i, event)| store::EventRow {
            seq: i as u64 + 1,
            at: 1_800_000_000_000 + i as i64,
            player: None,
            body: StoryGame::encode(event),
        })
        .collect()
}

/// The first page of a replay of the whole played table: 200 steps from before its first event.
#[divan::bench(sample_count = 50)]
fn replay_first_page(bencher: Bencher) {
    let rows = played_log();
    bencher.bench_local(|| {
        server::replay::steps::<StoryGame>(black_box(&rows), 1, false, 0, 200).expect("replayed")
    });
}

/// The last page of the same replay: 200 steps up to its last event.
#[divan::bench(sample_count = 50)]
fn replay_last_page(bencher: Bencher) {
    let rows = played_log();
    let from = rows.len() as u64 + 1 - 200;
    bencher.bench_local(|| {
        server::replay::steps::<StoryGame>(black_box(&rows), 1, false, from, 200).expect("replayed")
    });
}
