//! One table of four players: its setup up to the story phase (not timed), then the timed
//! loop. A single driver task acts for all four players and hears all four sockets, so it
//! knows when the last of them has seen a roll.

use crate::client::{self, Answer, Heard, Sender, Traffic};
use crate::report::Errors;
use futures_util::SinkExt;
use serde_json::value::RawValue;
use serde_json::{Value, json};
use std::borrow::Cow;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::{Message, Utf8Bytes};

/// Players at a table.
pub const SEATS: usize = 4;

/// The view's member that holds the open proposal.
const PROPOSAL: &str = "proposal";

/// Deepest scene under ruleset 1.0: the Finale (difficulty 4) is depth 0, a tertiary scene
/// (difficulty 1) depth 3.
const MAX_DEPTH: usize = 3;

/// Largest outline the rules allow (`story::decide::limits::SCENES`).
pub const MAX_SCENES: usize = 64;

/// Accepted actions in one scene: place the object, start, propose a pair, propose the check,
/// three agreements (the last one rolls), narrate, finish.
const ACTIONS_PER_SCENE: u64 = 9;

/// How one table plays; the same for every table of a run.
#[derive(Debug, Clone)]
pub struct Plan {
    /// Scenes in the outline: one roll each.
    pub scenes: usize,
    /// Mean time between the starts of two scenes (two rolls).
    pub think: Duration,
    /// Each pause is `think × (1 ± jitter)`, uniformly.
    pub jitter: f64,
    /// Pause between two actions of one scene (a player reading the screen).
    pub gap: Duration,
    /// How long an answer or a roll's four updates may take before it counts as lost.
    pub timeout: Duration,
}

/// When the load runs and when it is measured.
#[derive(Debug, Clone, Copy)]
pub struct Window {
    /// Tables begin playing (staggered over one think time from here).
    pub start: Instant,
    /// Rolls sent from here on are measured…
    pub from: Instant,
    /// …until here; no table starts a scene after it.
    pub until: Instant,
}

impl Window {
    fn contains(&self, at: Instant) -> bool {
        at >= self.from && at < self.until
    }
}

/// What one table measured.
#[derive(Debug, Default)]
pub struct Outcome {
    /// Latency of each roll sent within the window, in milliseconds.
    pub samples: Vec<f64>,
    /// For the same rolls: until the roller's `done` answer, in milliseconds.
    pub answered: Vec<f64>,
    /// Actions accepted that were sent within the window.
    pub actions: u64,
    /// What went wrong.
    pub errors: Errors,
}

/// The client side of the server's rate limit (10 a second, bursts of 20), kept a little under
/// it so that no action is refused for speed.
#[derive(Debug, Clone, Copy)]
struct Pacer {
    tokens: f64,
    last: Instant,
}

const PACE_PER_SECOND: f64 = 8.0;
const PACE_BURST: f64 = 16.0;

impl Pacer {
    fn new() -> Pacer {
        Pacer {
            tokens: PACE_BURST,
            last: Instant::now(),
        }
    }

    async fn wait(&mut self) {
        let now = Instant::now();
        self.tokens = (self.tokens + now.duration_since(self.last).as_secs_f64() * PACE_PER_SECOND)
            .min(PACE_BURST);
        self.last = now;
        if self.tokens < 1.0 {
            let wait = Duration::from_secs_f64((1.0 - self.tokens) / PACE_PER_SECOND);
            tokio::time::sleep(wait).await;
            self.tokens = 1.0;
            self.last = Instant::now();
        }
        self.tokens -= 1.0;
    }
}

/// A roll in flight: when each socket first heard a state that may hold it.
#[derive(Debug)]
struct Probe {
    /// The table's last event before the roll.
    base: u64,
    /// The roll's event number, once `done` told it.
    target: Option<u64>,
    /// Per socket: the first state seen with a seq past `base` (or at least `target`).
    arrivals: [Option<(u64, Instant)>; SEATS],
}

impl Probe {
    fn threshold(&self) -> u64 {
        self.target.unwrap_or(self.base + 1)
    }

    fn complete(&self) -> Option<Instant> {
        self.target?;
        self.arrivals
            .iter()
            .map(|a| a.map(|(_, at)| at))
            .collect::<Option<Vec<Instant>>>()?
            .into_iter()
            .max()
    }
}

/// A small generator for think-time jitter and staggering (xorshift64*); quality is beside
/// the point, only spread.
#[derive(Debug, Clone)]
pub struct Jitter(u64);

impl Jitter {
    /// Seeded by the operating system.
    pub fn new() -> Jitter {
        Jitter(getrandom::u64().unwrap_or(0x9e37_79b9_7f4a_7c15) | 1)
    }

    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// The parent (by index) of each scene of an outline of `scenes` scenes: the first `scenes`
/// nodes, breadth first, of a full tree three levels below the Finale. Every prefix of a
/// breadth-first order is itself a tree, so any size up to the rules' limit is a valid outline.
pub fn outline(scenes: usize) -> Vec<Option<usize>> {
    let branching = if scenes <= 40 { 3 } else { 4 };
    let mut parents = vec![None];
    let mut depth = vec![0];
    let mut next_parent = 0;
    while parents.len() < scenes {
        if depth[next_parent] == MAX_DEPTH {
            break;
        }
        for _ in 0..branching {
            if parents.len() == scenes {
                break;
            }
            parents.push(Some(next_parent));
            depth.push(depth[next_parent] + 1);
        }
        next_parent += 1;
    }
    parents
}

/// The parts of an `update` or `sync` that change the view; serde skips the rest (the log)
/// without building it: reading every state of socket 0 was a quarter of the generator's CPU.
#[derive(serde::Deserialize)]
struct StateMessage {
    #[serde(default)]
    view: Option<Value>,
    #[serde(default)]
    patch: Option<json_patch::Patch>,
}

/// A state message read only for the open proposal (see [`Table::proposal`]): the patch's
/// operations with their values left as unparsed JSON text, and of a whole view only its
/// `proposal`.
#[derive(serde::Deserialize)]
struct ProposalMessage<'a> {
    #[serde(default, borrow)]
    view: Option<ProposalOf<'a>>,
    #[serde(default, borrow)]
    patch: Option<Vec<Operation<'a>>>,
}

/// Of a whole view, only its `proposal`.
#[derive(serde::Deserialize)]
struct ProposalOf<'a> {
    #[serde(default, borrow)]
    proposal: Option<&'a RawValue>,
}

/// One operation of a patch (RFC 6902), its value unparsed.
#[derive(serde::Deserialize)]
struct Operation<'a> {
    #[serde(borrow)]
    op: Cow<'a, str>,
    #[serde(borrow)]
    path: Cow<'a, str>,
    #[serde(default, borrow)]
    value: Option<&'a RawValue>,
}

/// One table, set up and ready to play.
pub struct Table {
    senders: Vec<Sender>,
    heard: mpsc::UnboundedReceiver<Heard>,
    pacers: [Pacer; SEATS],
    next_req: u64,
    /// The last state seq each socket has seen.
    seen: [u64; SEATS],
    /// State messages socket 0 received since its view was last worked out, in order (read
    /// only when a view is needed, to keep the generator's CPU low).
    unread: Vec<Utf8Bytes>,
    /// Socket 0's view, as of the state messages read so far (during the setup).
    view: Value,
    /// Once the setup is done, only the view's open proposal is kept, as `{"proposal": …}`:
    /// applying every patch of the play to the whole view was a fifth of the generator's CPU,
    /// and a scene needs nothing else from it.
    lean: Option<Value>,
    /// The table's last accepted event.
    seq: u64,
    probe: Option<Probe>,
    errors: Errors,
    timeout: Duration,
    /// Each player's first aspect (an Occupation).
    aspects: [u64; SEATS],
    /// The place every scene happens in, and its aspect.
    vault: u64,
    vault_aspect: u64,
    /// Scene ids in an order the rules allow playing them (precursors first).
    order: Vec<u64>,
}

/// Why an exchange failed.
#[derive(Debug)]
enum Failure {
    Timeout(&'static str),
    Closed(String),
    Refused(String),
    Error(String),
    /// What the server sent could not be read as the generator expects (a patch that does not
    /// apply, an id missing from the view): a changed server, or the generator's bug.
    Misread(String),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Timeout(what) => write!(f, "timed out waiting for {what}"),
            Failure::Closed(why) => write!(f, "a socket closed: {why}"),
            Failure::Refused(why) => write!(f, "refused: {why}"),
            Failure::Error(why) => write!(f, "error: {why}"),
            Failure::Misread(why) => write!(f, "misread the server: {why}"),
        }
    }
}

impl Table {
    /// Creates a 1.0 table, seats four players, opens their sockets, and plays the setup
    /// until the story phase with an outline of `plan.scenes` scenes. On failure, the error
    /// and the counts of what went wrong.
    /// `homes`: the server each player uses (the creator's first).
    pub async fn set_up(
        homes: [SocketAddr; SEATS],
        number: usize,
        plan: &Plan,
        traffic: Arc<Traffic>,
    ) -> Result<Table, (String, Errors)> {
        let (token, creator, invite) =
            client::create_table(homes[0], "1.0", &format!("T{number} Ada"))
                .await
                .map_err(|e| (e, Errors::default()))?;
        let mut cookies = vec![creator];
        for (name, &addr) in ["Bo", "Cy", "Di"].into_iter().zip(&homes[1..]) {
            let cookie = client::join(addr, &token, &invite, &format!("T{number} {name}"))
                .await
                .map_err(|e| (e, Errors::default()))?;
            cookies.push(cookie);
        }
        let (tx, heard) = mpsc::unbounded_channel();
        let mut senders = Vec::with_capacity(SEATS);
        for (socket, (cookie, &addr)) in cookies.iter().zip(&homes).enumerate() {
            let sender =
                client::open_socket(addr, &token, cookie, socket, tx.clone(), traffic.clone())
                    .await
                    .map_err(|e| (e, Errors::default()))?;
            senders.push(sender);
        }
        let mut table = Table {
            senders,
            heard,
            pacers: [Pacer::new(); SEATS],
            next_req: 0,
            seen: [0; SEATS],
            unread: Vec::new(),
            view: Value::Null,
            lean: None,
            seq: 0,
            probe: None,
            errors: Errors::default(),
            timeout: plan.timeout,
            aspects: [0; SEATS],
            vault: 0,
            vault_aspect: 0,
            order: Vec::new(),
        };
        match table.play_setup(plan.scenes).await {
            Ok(()) => {
                let proposal = table.view[PROPOSAL].take();
                table.view = Value::Null;
                table.lean = Some(json!({ PROPOSAL: proposal }));
                Ok(table)
            }
            Err(failure) => {
                let errors = std::mem::take(&mut table.errors);
                table.close().await;
                Err((failure.to_string(), errors))
            }
        }
    }

    async fn play_setup(&mut self, scenes: usize) -> Result<(), Failure> {
        // Every socket's sync first: from then on, each socket hears every change.
        let deadline = Instant::now() + self.timeout;
        while self.seen.contains(&0) {
            self.hear(deadline, "the first sync").await?;
        }
        self.seq = self.seen.iter().copied().max().unwrap_or(0);
        self.act(0, json!({"action": "roll_catastrophe", "world": "vael"}))
            .await?;
        self.agreed(1, json!({"motion": "advance", "to": "characters"}))
            .await?;
        for (socket, name) in ["Wren", "Tamsin", "Osric", "Maud"].iter().enumerate() {
            self.act(socket, json!({"action": "create_character", "name": name}))
                .await?;
        }
        let view = self.view().await?;
        let mut characters = [0; SEATS];
        for (socket, character) in characters.iter_mut().enumerate() {
            *character = find(&view["objects"], |o| {
                o["kind"] == "character" && o["player"] == socket as u64 + 1
            })?["id"]
                .as_u64()
                .ok_or(Failure::Misread("a character without an id".into()))?;
        }
        let categories = [
            json!("occupation"),
            json!("physical_or_mental"),
            json!("psychological"),
            Value::Null,
            json!("affiliation"),
        ];
        for (c, category) in categories.iter().enumerate() {
            for socket in 0..SEATS {
                let category = if category.is_null() {
                    json!({"relationship": {"with": characters[(socket + 1) % SEATS]}})
                } else {
                    category.clone()
                };
                let text = format!("Aspect {c} of player {}", socket + 1);
                self.act(socket, json!({"action": "attach_aspect", "object": characters[socket], "text": text, "category": category})).await?;
            }
        }
        let view = self.view().await?.clone();
        for (socket, aspect) in self.aspects.iter_mut().enumerate() {
            *aspect =
                find(&view["objects"], |o| o["id"] == characters[socket])?["aspects"][0]["id"]
                    .as_u64()
                    .ok_or(Failure::Misread("a character without aspects".into()))?;
        }
        self.agreed(2, json!({"motion": "advance", "to": "outline"}))
            .await?;
        self.sketch(scenes).await?;
        self.act(
            3,
            json!({"action": "create_object", "name": "The vault", "kind": "place"}),
        )
        .await?;
        let view = self.view().await?;
        self.vault = find(&view["objects"], |o| o["name"] == "The vault")?["id"]
            .as_u64()
            .ok_or(Failure::Misread("the vault has no id".into()))?;
        self.act(0, json!({"action": "attach_aspect", "object": self.vault, "text": "Unguarded", "category": null})).await?;
        let vault = self.vault;
        let view = self.view().await?;
        self.vault_aspect = find(&view["objects"], |o| o["id"] == vault)?["aspects"][0]["id"]
            .as_u64()
            .ok_or(Failure::Misread("the vault has no aspect".into()))?;
        self.agreed(1, json!({"motion": "advance", "to": "story"}))
            .await?;
        Ok(())
    }

    /// `socket` proposes a motion and the other seats agree, all but `last`; the id of the
    /// proposal, which `last`'s agreement carries.
    async fn propose(&mut self, socket: usize, last: usize, motion: Value) -> Result<u64, Failure> {
        self.act(socket, json!({"action": "propose", "motion": motion}))
            .await?;
        let id = self.proposal().await?["id"]
            .as_u64()
            .ok_or(Failure::Misread("the proposal has no id".into()))?;
        for other in (0..SEATS).filter(|s| *s != socket && *s != last) {
            self.act(other, json!({"action": "agree", "proposal": id}))
                .await?;
        }
        Ok(id)
    }

    /// `socket` proposes a motion and every seat agrees: it carries.
    async fn agreed(&mut self, socket: usize, motion: Value) -> Result<(), Failure> {
        let last = (socket + 1) % SEATS;
        let id = self.propose(socket, last, motion).await?;
        self.act(last, json!({"action": "agree", "proposal": id}))
            .await?;
        Ok(())
    }

    /// Sketches the outline level by level, reading the new scenes' ids once per level.
    async fn sketch(&mut self, scenes: usize) -> Result<(), Failure> {
        let parents = outline(scenes);
        let mut ids = vec![0u64; parents.len()];
        self.act(
            0,
            json!({"action": "sketch_finale", "objective": "Bind the wyrm"}),
        )
        .await?;
        let view = self.view().await?;
        ids[0] = view["finale"]
            .as_u64()
            .ok_or(Failure::Misread("no finale".into()))?;
        let mut level: Vec<usize> = vec![0];
        let mut n = 0;
        while !level.is_empty() {
            let children: Vec<usize> = (0..parents.len())
                .filter(|&i| parents[i].is_some_and(|p| level.contains(&p)))
                .collect();
            if children.is_empty() {
                break;
            }
            for &child in &children {
                let parent = ids[parents[child].unwrap_or(0)];
                n += 1;
                self.act(n % SEATS, json!({"action": "sketch_scene", "parent": parent, "objective": format!("Scene {child}")})).await?;
            }
            let view = self.view().await?;
            for &parent in &level {
                let mut sketched: Vec<u64> = view["scenes"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter(|s| s["parent"] == ids[parent])
                    .filter_map(|s| s["id"].as_u64())
                    .collect();
                sketched.sort_unstable();
                let wanted: Vec<usize> = children
                    .iter()
                    .copied()
                    .filter(|&c| parents[c] == Some(parent))
                    .collect();
                if sketched.len() != wanted.len() {
                    return Err(Failure::Misread(format!(
                        "expected {} scenes under {}, saw {}",
                        wanted.len(),
                        ids[parent],
                        sketched.len()
                    )));
                }
                for (c, id) in wanted.into_iter().zip(sketched) {
                    ids[c] = id;
                }
            }
            level = children;
        }
        // Breadth first puts every scene after its parent: backwards, precursors come first.
        self.order = ids.into_iter().rev().collect();
        Ok(())
    }

    /// Plays scene after scene until the window closes or the outline is done: for each,
    /// place the vault, start, propose one pair, roll (timed), narrate, finish.
    pub async fn play(mut self, plan: Plan, window: Window, mut jitter: Jitter) -> Outcome {
        let mut outcome = Outcome::default();
        let think = plan.think.as_secs_f64();
        let mut next = window.start + Duration::from_secs_f64(think * jitter.unit());
        let order = std::mem::take(&mut self.order);
        let mut finished = 0;
        for (k, &scene) in order.iter().enumerate() {
            if next >= window.until {
                break;
            }
            tokio::time::sleep_until(next.into()).await;
            let started = Instant::now();
            match self.scene(k % SEATS, scene, plan.gap).await {
                Ok((answered, seen)) => {
                    if window.contains(started) {
                        outcome.actions += ACTIONS_PER_SCENE;
                        outcome.samples.push(seen.as_secs_f64() * 1000.0);
                        outcome.answered.push(answered.as_secs_f64() * 1000.0);
                    }
                    finished += 1;
                }
                Err(failure) => {
                    // A lost answer leaves the table in a state we no longer know: stop it.
                    // Refusals, errors and disconnects were counted where they were heard.
                    match failure {
                        Failure::Timeout(_) => self.errors.timeouts += 1,
                        Failure::Misread(_) => self.errors.misread += 1,
                        _ => {}
                    }
                    break;
                }
            }
            let pause = think * (1.0 + plan.jitter * (2.0 * jitter.unit() - 1.0));
            next = (next + Duration::from_secs_f64(pause.max(0.0))).max(Instant::now());
        }
        if finished == order.len() && next < window.until {
            self.errors.exhausted_tables += 1;
        }
        outcome.errors = std::mem::take(&mut self.errors);
        self.close().await;
        outcome
    }

    /// One scene, `gap` between actions ([`ACTIONS_PER_SCENE`] of them); the latencies of its
    /// roll (see [`Table::roll`]).
    async fn scene(
        &mut self,
        socket: usize,
        scene: u64,
        gap: Duration,
    ) -> Result<(Duration, Duration), Failure> {
        self.act(
            socket,
            json!({"action": "place_object", "scene": scene, "object": self.vault}),
        )
        .await?;
        self.pause(gap).await?;
        self.act(socket, json!({"action": "start_scene", "scene": scene}))
            .await?;
        self.pause(gap).await?;
        self.act(socket, json!({"action": "propose_pair", "scene": scene, "character_aspect": self.aspects[socket], "environment_aspect": self.vault_aspect, "justification": "They know the way in."})).await?;
        self.pause(gap).await?;
        let latency = self.roll(socket, scene).await?;
        self.pause(gap).await?;
        self.act(socket, json!({"action": "narrate", "scene": scene, "text": "The dice spoke, and the story went on."})).await?;
        self.pause(gap).await?;
        self.act(socket, json!({"action": "finish_scene", "scene": scene}))
            .await?;
        Ok(latency)
    }

    /// Waits `gap` while still hearing the sockets (so every update is stamped on arrival
    /// and none queues up unread).
    async fn pause(&mut self, gap: Duration) -> Result<(), Failure> {
        let until = Instant::now() + gap;
        loop {
            match tokio::time::timeout_at(until.into(), self.heard.recv()).await {
                Err(_) => return Ok(()),
                Ok(None) => return Err(Failure::Closed("every socket".into())),
                // Every answer was awaited before the pause: only states arrive here.
                Ok(Some(heard)) => {
                    self.absorb(heard)?;
                }
            }
        }
    }

    /// Proposes the check, has the others agree, and times the agreement that carries it (the
    /// roll): until all four sockets have an update covering it (until the roller's `done`,
    /// until the last of the four updates).
    async fn roll(&mut self, socket: usize, scene: u64) -> Result<(Duration, Duration), Failure> {
        let check = json!({"motion": "make_check", "scene": scene, "accept_empty_pool": false});
        let roller = (socket + 1) % SEATS;
        let id = self.propose(socket, roller, check).await?;
        let socket = roller;
        self.pacers[socket].wait().await;
        self.probe = Some(Probe {
            base: self.seq,
            target: None,
            arrivals: [None; SEATS],
        });
        let sent = Instant::now();
        let req = self
            .send(socket, json!({"action": "agree", "proposal": id}))
            .await?;
        let deadline = sent + self.timeout;
        let (target, answered) = self.answer(socket, req, deadline).await?;
        let answered = answered.duration_since(sent);
        if let Some(probe) = &mut self.probe {
            probe.target = Some(target);
            for arrival in &mut probe.arrivals {
                if arrival.is_some_and(|(seq, _)| seq < target) {
                    *arrival = None;
                }
            }
        }
        loop {
            if let Some(last) = self.probe.as_ref().and_then(Probe::complete) {
                self.probe = None;
                return Ok((answered, last.duration_since(sent)));
            }
            self.hear(deadline, "every player's update of a roll")
                .await?;
        }
    }

    /// Sends an action from one player and waits for its answer; retries (and counts) an
    /// answer of the rate limit.
    async fn act(&mut self, socket: usize, action: Value) -> Result<u64, Failure> {
        for _ in 0..5 {
            self.pacers[socket].wait().await;
            let req = self.send(socket, action.clone()).await?;
            let deadline = Instant::now() + self.timeout;
            match self.answer(socket, req, deadline).await.map(|(seq, _)| seq) {
                Err(Failure::Error(message)) if message.starts_with(client::TOO_FAST) => {
                    self.errors.rate_limited += 1;
                    tokio::time::sleep(Duration::from_secs(1)).await;
                }
                other => return other,
            }
        }
        Err(Failure::Error("too fast, five times over".into()))
    }

    async fn send(&mut self, socket: usize, action: Value) -> Result<u64, Failure> {
        self.next_req += 1;
        let req = self.next_req;
        let text = json!({"type": "act", "req": req, "action": action}).to_string();
        self.senders[socket]
            .send(Message::text(text))
            .await
            .map_err(|e| {
                self.errors.disconnects += 1;
                Failure::Closed(e.to_string())
            })?;
        Ok(req)
    }

    /// Waits for the answer to `req` on `socket`, hearing everything else meanwhile: the
    /// event number after it, and when it arrived.
    async fn answer(
        &mut self,
        socket: usize,
        req: u64,
        deadline: Instant,
    ) -> Result<(u64, Instant), Failure> {
        loop {
            if let Some(Heard::Answer {
                socket: s,
                req: r,
                answer,
                at,
            }) = self.hear(deadline, "an answer").await?
                && s == socket
                && r == req
            {
                return match answer {
                    Answer::Done(seq) => {
                        self.seq = self.seq.max(seq);
                        Ok((seq, at))
                    }
                    Answer::Refused(why) => {
                        self.errors.refused += 1;
                        Err(Failure::Refused(why))
                    }
                    Answer::Error(why) => {
                        // The rate limit is counted (and retried) by `act`.
                        if !why.starts_with(client::TOO_FAST) {
                            self.errors.errors += 1;
                        }
                        Err(Failure::Error(why))
                    }
                };
            }
        }
    }

    /// The next thing a socket heard (states are recorded here); `None` when it was a state.
    async fn hear(
        &mut self,
        deadline: Instant,
        what: &'static str,
    ) -> Result<Option<Heard>, Failure> {
        let heard = tokio::time::timeout_at(deadline.into(), self.heard.recv())
            .await
            .map_err(|_| Failure::Timeout(what))?
            .ok_or_else(|| Failure::Closed("every socket".into()))?;
        self.absorb(heard)
    }

    /// Records a state; passes an answer on; a closed socket is a failure.
    fn absorb(&mut self, heard: Heard) -> Result<Option<Heard>, Failure> {
        match heard {
            Heard::State {
                socket,
                seq,
                at,
                text,
            } => {
                self.seen[socket] = self.seen[socket].max(seq);
                if socket == 0 {
                    self.unread.push(text);
                }
                if let Some(probe) = &mut self.probe
                    && seq >= probe.threshold()
                    && probe.arrivals[socket].is_none()
                {
                    probe.arrivals[socket] = Some((seq, at));
                }
                Ok(None)
            }
            Heard::Closed { socket, why } => {
                self.errors.disconnects += 1;
                Err(Failure::Closed(format!(
                    "player {}'s socket: {why}",
                    socket + 1
                )))
            }
            answer => Ok(Some(answer)),
        }
    }

    /// The view socket 0 has after the table's last accepted action.
    async fn view(&mut self) -> Result<&Value, Failure> {
        let deadline = Instant::now() + self.timeout;
        while self.seen[0] < self.seq {
            self.hear(deadline, "an update").await?;
        }
        // A `sync` or an update with the whole view replaces it; a patch (RFC 6902) changes it,
        // without the undo record of an atomic patch: one that does not apply fails the table.
        for text in self.unread.drain(..) {
            let message: StateMessage = serde_json::from_str(text.as_str())
                .map_err(|e| Failure::Misread(format!("an unreadable state: {e}")))?;
            match message {
                StateMessage {
                    patch: Some(patch), ..
                } => json_patch::patch_unsafe(&mut self.view, &patch)
                    .map_err(|e| Failure::Misread(format!("a patch that does not apply: {e}")))?,
                StateMessage {
                    view: Some(view), ..
                } => self.view = view,
                _ => return Err(Failure::Misread("a state with no view and no patch".into())),
            }
        }
        if self.view.is_null() {
            return Err(Failure::Misread("no state yet".into()));
        }
        // Borrowed: a copy of the whole view for every scene was a fifth of the generator's CPU.
        Ok(&self.view)
    }

    /// The open proposal (`null` if none) as socket 0 sees it after the table's last accepted
    /// action. Once the setup is done, only the patch operations at or under `/proposal` are
    /// parsed and applied, to `{"proposal": …}` alone: the server sends only `add`, `remove` and
    /// `replace`, and an operation under `/proposal` reads and changes nothing else.
    async fn proposal(&mut self) -> Result<&Value, Failure> {
        if self.lean.is_none() {
            return Ok(&self.view().await?[PROPOSAL]);
        }
        let deadline = Instant::now() + self.timeout;
        while self.seen[0] < self.seq {
            self.hear(deadline, "an update").await?;
        }
        // Set once the setup is done, and checked above.
        let lean = self.lean.get_or_insert(Value::Null);
        for text in self.unread.drain(..) {
            follow_proposal(lean, text.as_str())?;
        }
        Ok(&lean[PROPOSAL])
    }

    /// Closes the four sockets (briefly waiting for the server's close).
    async fn close(&mut self) {
        for sender in &mut self.senders {
            let _ = tokio::time::timeout(Duration::from_secs(2), sender.close()).await;
        }
    }
}

/// Brings `lean` (`{"proposal": …}`) up to date with one state message: a whole view's
/// proposal replaces it; of a patch, only the operations at or under `/proposal` (or on the
/// whole view) are parsed, and applied.
fn follow_proposal(lean: &mut Value, text: &str) -> Result<(), Failure> {
    let unreadable = |e: serde_json::Error| Failure::Misread(format!("an unreadable state: {e}"));
    let parse = |raw: Option<&RawValue>| -> Result<Value, Failure> {
        // A `null` reads as none.
        raw.map_or(Ok(Value::Null), |raw| {
            serde_json::from_str(raw.get()).map_err(unreadable)
        })
    };
    match serde_json::from_str(text).map_err(unreadable)? {
        ProposalMessage {
            patch: Some(operations),
            ..
        } => {
            for operation in operations {
                let path = operation.path.as_ref();
                if path.is_empty() {
                    // The whole view replaced.
                    let view = parse(operation.value)?;
                    *lean = json!({ PROPOSAL: view[PROPOSAL] });
                } else if path == "/proposal" || path.starts_with("/proposal/") {
                    let mut parsed = json!({"op": operation.op, "path": path});
                    if operation.op != "remove" {
                        parsed["value"] = parse(operation.value)?;
                    }
                    let parsed: json_patch::PatchOperation = serde_json::from_value(parsed)
                        .map_err(|e| Failure::Misread(format!("an unreadable patch: {e}")))?;
                    json_patch::patch_unsafe(lean, &[parsed]).map_err(|e| {
                        Failure::Misread(format!("a patch that does not apply: {e}"))
                    })?;
                }
            }
        }
        ProposalMessage {
            view: Some(view), ..
        } => *lean = json!({ PROPOSAL: parse(view.proposal)? }),
        _ => return Err(Failure::Misread("a state with no view and no patch".into())),
    }
    Ok(())
}

fn find(list: &Value, wanted: impl Fn(&Value) -> bool) -> Result<&Value, Failure> {
    list.as_array()
        .into_iter()
        .flatten()
        .find(|v| wanted(v))
        .ok_or_else(|| Failure::Misread("an object missing from the view".into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outlines_are_trees_no_deeper_than_the_tertiary_level() {
        for scenes in 1..=MAX_SCENES {
            let parents = outline(scenes);
            assert_eq!(parents.len(), scenes, "{scenes} scenes");
            let depth = |mut i: usize| {
                let mut d = 0;
                while let Some(p) = parents[i] {
                    assert!(p < i, "a parent comes before its children");
                    i = p;
                    d += 1;
                }
                d
            };
            assert!((0..scenes).all(|i| depth(i) <= MAX_DEPTH));
            assert_eq!(parents.iter().filter(|p| p.is_none()).count(), 1);
        }
        let full = outline(40);
        assert_eq!(full.iter().filter(|p| **p == Some(0)).count(), 3);
        assert_eq!(
            full[39],
            Some(12),
            "1 + 3 + 9 + 27: the last tertiary scene"
        );
    }

    #[test]
    fn the_proposal_followed_alone_is_the_whole_views() {
        let sync = json!({"type": "sync", "seq": 3, "view": {
            "objects": [{"id": 1, "name": "Wren"}], "proposal": null, "scenes": []}});
        let patches = [
            json!([{"op": "replace", "path": "/proposal", "value": {"id": 7, "votes": [1]}},
                   {"op": "replace", "path": "/objects/0/name", "value": "Maud"}]),
            json!([{"op": "add", "path": "/proposal/votes/-", "value": 2},
                   {"op": "add", "path": "/scenes/0", "value": {"id": 4, "proposal": 1}}]),
            json!([{"op": "replace", "path": "/proposal/id", "value": 8},
                   {"op": "remove", "path": "/proposal/votes/0"}]),
            json!([{"op": "replace", "path": "/proposal", "value": null}]),
            json!([{"op": "replace", "path": "", "value": {"proposal": {"id": 9}, "objects": []}}]),
            json!([{"op": "add", "path": "/proposal/votes", "value": [3]}]),
        ];
        let mut whole = sync["view"].clone();
        let mut lean = Value::Null;
        follow_proposal(&mut lean, &sync.to_string()).unwrap();
        assert_eq!(lean[PROPOSAL], Value::Null);
        let mut seen = Vec::new();
        for (k, patch) in patches.iter().enumerate() {
            let update = json!({"type": "update", "seq": 4 + k, "patch": patch, "log": []});
            follow_proposal(&mut lean, &update.to_string()).unwrap();
            let patch: json_patch::Patch = serde_json::from_value(patch.clone()).unwrap();
            json_patch::patch(&mut whole, &patch).unwrap();
            assert_eq!(lean[PROPOSAL], whole[PROPOSAL], "after patch {k}");
            seen.push(lean[PROPOSAL]["id"].clone());
        }
        assert_eq!(
            seen,
            [
                json!(7),
                json!(7),
                json!(8),
                Value::Null,
                json!(9),
                json!(9)
            ]
        );
        // A state with neither is an error, not a silent null.
        assert!(follow_proposal(&mut lean, r#"{"type": "update", "seq": 9}"#).is_err());
    }

    #[test]
    fn jitter_stays_in_the_unit_interval() {
        let mut j = Jitter(12345);
        let draws: Vec<f64> = (0..10_000).map(|_| j.unit()).collect();
        assert!(draws.iter().all(|u| (0.0..1.0).contains(u)));
        let mean = draws.iter().sum::<f64>() / draws.len() as f64;
        assert!((mean - 0.5).abs() < 0.02, "{mean}");
    }
}
