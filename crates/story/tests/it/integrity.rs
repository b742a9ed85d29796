//! Logs no decision could produce: arbitrary well-formed events in any order, and one named case
//! for each crafted log a security audit reproduced. Replay, the integrity check and every view
//! must finish without a panic, and a checked replay must leave no reference dangling.

use dice::check::{Cause, CheckRoll, Outcome, PoolEntry, RolledDie};
use dice::d66::D66;
use dice::{DiceRng, Seed};
use std::sync::mpsc;
use std::time::Duration;
use story::export::{outline_view, to_markdown};
use story::ids::{AspectId, LineId, ObjectId, PairId, PlayerId, ProposalId, SceneId, Timestamp};
use story::integrity::{BrokenLog, Impossible, Thing};
use story::model::{
    AspectCategory, CheckRecord, Motion, ObjectKind, Phase, ProphecySource, TextRef, Timed,
};
use story::views::{self, ViewScene};
use story::{Event, Ruleset, State};

/// A number below `n` (n ≥ 1).
fn below(rng: &mut DiceRng, n: usize) -> usize {
    (usize::from(rng.next_byte()) << 8 | usize::from(rng.next_byte())) % n
}

/// Mostly small (so that references often hit), sometimes the extremes.
fn id(rng: &mut DiceRng) -> u32 {
    match rng.next_byte() {
        0..=3 => u32::MAX,
        4..=5 => u32::MAX - 1,
        _ => below(rng, 14) as u32,
    }
}

fn text(rng: &mut DiceRng) -> String {
    let texts = ["a", "", "  ", "*b* <i>", "line\nbreak", "#;\"`", "ünï ☂"];
    texts[below(rng, texts.len())].to_owned()
}

fn text_ref(rng: &mut DiceRng) -> TextRef {
    match rng.face(10) {
        10 => TextRef::Question,
        1 => TextRef::Prophecy,
        2 => TextRef::ObjectName(ObjectId(id(rng))),
        3 => TextRef::Aspect(AspectId(id(rng))),
        4 => TextRef::Objective(SceneId(id(rng))),
        5 => TextRef::Setting(SceneId(id(rng))),
        6 => TextRef::Narration(SceneId(id(rng))),
        7 => TextRef::Justification(PairId(id(rng))),
        8 => TextRef::Flashback,
        _ => TextRef::LongTermEffects,
    }
}

fn check(rng: &mut DiceRng) -> CheckRecord {
    let dice = (0..below(rng, 6))
        .map(|_| RolledDie {
            face: rng.next_byte() % 9,
            cause: match rng.face(5) {
                1 => Cause::Pool(PoolEntry::Die),
                2 => Cause::Pool(PoolEntry::MatchingPair { pair: id(rng) }),
                3 => Cause::Pool(PoolEntry::RewardDie { precursor: id(rng) }),
                4 => Cause::ExplodedFrom(usize::MAX),
                _ => Cause::ExplodedFrom(below(rng, 8)),
            },
        })
        .collect();
    CheckRecord {
        difficulty: id(rng),
        roll: CheckRoll {
            seed: Some(Seed(u64::from(rng.next_byte()))),
            dice,
        },
        outcome: if rng.next_byte() < 128 {
            Outcome::Success
        } else {
            Outcome::Failure
        },
        physical: rng.next_byte() < 64,
    }
}

/// What [`any_event`] draws before the event's kind, in this order (the generator's sequence
/// depends on it): the ids and values an event may name.
struct Drawn {
    player: PlayerId,
    object: ObjectId,
    aspect: AspectId,
    scene: SceneId,
    parent: Option<SceneId>,
    at: Timestamp,
    kinds: [ObjectKind; 6],
    categories: [Option<AspectCategory>; 6],
    phases: [Phase; 5],
    motions: [Motion; 6],
}

impl Drawn {
    fn draw(rng: &mut DiceRng) -> Drawn {
        let player = PlayerId(id(rng) % 6);
        let object = ObjectId(id(rng));
        let aspect = AspectId(id(rng));
        let scene = SceneId(id(rng));
        let parent = match rng.face(4) {
            1 => None,
            2 => Some(scene),
            _ => Some(SceneId(id(rng))),
        };
        let at = Timestamp(match rng.face(3) {
            1 => i64::MAX,
            2 => i64::MIN,
            _ => i64::from(rng.next_byte()),
        });
        let kinds = [
            ObjectKind::Character {
                player: Some(player),
            },
            ObjectKind::Character { player: None },
            ObjectKind::Npc,
            ObjectKind::Person,
            ObjectKind::Place,
            ObjectKind::Thing,
        ];
        let categories = [
            None,
            Some(AspectCategory::Occupation),
            Some(AspectCategory::PhysicalOrMental),
            Some(AspectCategory::Psychological),
            Some(AspectCategory::Relationship {
                with: ObjectId(id(rng)),
            }),
            Some(AspectCategory::Affiliation),
        ];
        let phases = [
            Phase::Prophecy,
            Phase::Characters,
            Phase::Outline,
            Phase::Story,
            Phase::Ended,
        ];
        let motions = [
            Motion::Advance {
                to: phases[below(rng, phases.len())],
            },
            Motion::ReturnToOutline,
            Motion::MakeCheck {
                scene,
                accept_empty_pool: rng.next_byte() < 128,
            },
            Motion::WithdrawPair {
                pair: PairId(id(rng)),
            },
            Motion::Resume,
            Motion::EndGame,
        ];
        Drawn {
            player,
            object,
            aspect,
            scene,
            parent,
            at,
            kinds,
            categories,
            phases,
            motions,
        }
    }
}

/// Any well-formed event, whatever the state: not what `decide` would return.
fn any_event(rng: &mut DiceRng) -> Event {
    let drawn = Drawn::draw(rng);
    let face = rng.face(52);
    match face {
        1..=7 | 33 | 34 | 47 => table_event(face, rng, &drawn),
        8..=18 => preparation_event(face, rng, &drawn),
        19..=25 => outline_event(face, rng, &drawn),
        35..=39 => proposal_event(face, rng, &drawn),
        40..=46 => timer_event(face, rng, &drawn),
        // 26 to 32, and 48 on.
        _ => story_event(face, rng, &drawn),
    }
}

/// [`any_event`]'s events of the table: the game opened, players, the moderator, lines,
/// flags, the X-card and questions.
fn table_event(face: u8, rng: &mut DiceRng, drawn: &Drawn) -> Event {
    let Drawn { player, .. } = *drawn;
    match face {
        1 => Event::GameOpened {
            ruleset: Ruleset::ALL[below(rng, 3)],
        },
        2 => Event::PlayerJoined {
            player,
            name: text(rng),
        },
        3 => Event::PlayerRemoved { player },
        4 => Event::ModeratorChosen {
            player: Some(player).filter(|_| rng.next_byte() < 200),
        },
        5 => Event::LineAdded {
            line: LineId(id(rng)),
            text: text(rng),
            by: Some(player).filter(|_| rng.next_byte() < 200),
        },
        6 => Event::LineRemoved {
            line: LineId(id(rng)),
        },
        7 => Event::Flagged {
            target: text_ref(rng),
        },
        33 => Event::TablePaused {
            by: Some(player).filter(|_| rng.next_byte() < 200),
        },
        34 => Event::TableResumed,
        47 => Event::QuestionAsked { text: text(rng) },
        _ => unreachable!("face {face} is not the table's"),
    }
}

/// [`any_event`]'s events of the prophecy, the phases, the characters, the objects and their
/// aspects, and flashbacks.
fn preparation_event(face: u8, rng: &mut DiceRng, drawn: &Drawn) -> Event {
    let Drawn {
        player,
        object,
        aspect,
        kinds,
        categories,
        phases,
        ..
    } = *drawn;
    match face {
        8 => Event::ProphecyReceived {
            source: match rng.face(3) {
                1 => ProphecySource::Written,
                2 => ProphecySource::Module { title: text(rng) },
                _ => ProphecySource::Catastrophe {
                    world: text(rng),
                    roll: D66 {
                        tens: rng.next_byte(),
                        units: rng.next_byte(),
                    },
                    seed: Seed(u64::MAX),
                },
            },
            text: text(rng),
        },
        9 => Event::ProphecyEdited { text: text(rng) },
        10 => Event::PhaseBegan {
            phase: phases[below(rng, phases.len())],
        },
        11 => Event::CharacterCreated {
            object,
            player,
            name: text(rng),
        },
        12 => Event::ObjectCreated {
            object,
            name: text(rng),
            kind: kinds[below(rng, kinds.len())],
        },
        13 => Event::ObjectRenamed {
            object,
            name: text(rng),
        },
        14 => Event::ObjectRemoved { object },
        15 => Event::AspectAttached {
            aspect,
            object,
            text: text(rng),
            category: categories[below(rng, categories.len())],
        },
        16 => Event::AspectEdited {
            aspect,
            text: text(rng),
        },
        17 => Event::AspectRemoved { aspect },
        18 => Event::FlashbackNarrated { text: text(rng) },
        _ => unreachable!("face {face} is not the preparation's"),
    }
}

/// [`any_event`]'s events of the outline: scenes sketched, edited and removed, their settings
/// and objects.
fn outline_event(face: u8, rng: &mut DiceRng, drawn: &Drawn) -> Event {
    let Drawn {
        object,
        scene,
        parent,
        ..
    } = *drawn;
    match face {
        19 | 20 => Event::SceneSketched {
            scene,
            parent,
            objective: text(rng),
            difficulty: id(rng),
        },
        21 => Event::ObjectiveEdited {
            scene,
            objective: text(rng),
        },
        22 => Event::SceneRemoved { scene },
        23 => Event::SettingChanged {
            scene,
            time: text(rng),
            place: text(rng),
        },
        24 => Event::ObjectPlaced { scene, object },
        25 => Event::ObjectWithdrawn { scene, object },
        _ => unreachable!("face {face} is not the outline's"),
    }
}

/// [`any_event`]'s events of the story: scenes performed, their pairs and checks, narration,
/// the end.
fn story_event(face: u8, rng: &mut DiceRng, drawn: &Drawn) -> Event {
    let Drawn {
        player,
        aspect,
        scene,
        at,
        ..
    } = *drawn;
    match face {
        26 => Event::SceneStarted { scene, at },
        27 => Event::PairProposed {
            pair: PairId(id(rng)),
            scene,
            character_aspect: aspect,
            environment_aspect: AspectId(id(rng)),
            by: player,
            justification: text(rng),
        },
        28 => Event::PairWithdrawn {
            pair: PairId(id(rng)),
        },
        29 => Event::JustificationEdited {
            pair: PairId(id(rng)),
            justification: text(rng),
        },
        30 => Event::CheckMade {
            scene,
            check: check(rng),
        },
        31 => Event::Narrated {
            scene,
            text: text(rng),
        },
        32 => Event::SceneFinished { scene },
        48 => Event::SceneCancelled { scene },
        49 => Event::PairAccepted {
            pair: PairId(id(rng)),
            by: player,
        },
        50 => Event::PairObjected {
            pair: PairId(id(rng)),
            by: player,
        },
        51 => Event::DiceCalledFor { scene },
        _ => match rng.face(2) {
            1 => Event::LongTermEffectsNarrated { text: text(rng) },
            _ => Event::GameEnded,
        },
    }
}

/// [`any_event`]'s events of proposals, and the dice the table chose.
fn proposal_event(face: u8, rng: &mut DiceRng, drawn: &Drawn) -> Event {
    let Drawn {
        player, motions, ..
    } = *drawn;
    match face {
        35 => Event::ProposalMade {
            proposal: ProposalId(id(rng)),
            motion: motions[below(rng, motions.len())],
            by: player,
        },
        36 => Event::ProposalAgreed {
            proposal: ProposalId(id(rng)),
            by: player,
        },
        37 => Event::ProposalStopped {
            proposal: ProposalId(id(rng)),
            by: player,
        },
        38 => Event::ProposalCarried {
            proposal: ProposalId(id(rng)),
        },
        39 => Event::DiceChosen {
            physical: rng.next_byte() < 128,
        },
        _ => unreachable!("face {face} is not a proposal's"),
    }
}

/// [`any_event`]'s events of the timer.
fn timer_event(face: u8, rng: &mut DiceRng, drawn: &Drawn) -> Event {
    let Drawn { scene, at, .. } = *drawn;
    match face {
        40 => Event::TimerStarted {
            timed: [Timed::Scene(scene), Timed::Flashback, Timed::Flashforward][below(rng, 3)],
            at,
        },
        41 => Event::TimerStopped { at },
        42 => Event::TimerCounting { at },
        43 => Event::TimerHeld,
        44 => Event::TimerReleased,
        45 => Event::TimerExtended { minutes: id(rng) },
        46 => Event::TimerReset { at },
        _ => unreachable!("face {face} is not the timer's"),
    }
}

/// Everything derived from a state, as every reader uses it.
fn render_all(state: &State) {
    let markdown = to_markdown(state);
    assert!(markdown.starts_with("# "));
    let (order, scenes) = outline_view(state);
    assert_eq!(order.len(), scenes.len());
    let tree = views::tree(&scenes);
    assert_eq!(tree.lines().count(), scenes.len());
    let mermaid = views::mermaid(&scenes);
    assert_eq!(mermaid.lines().count(), scenes.len() + 1);
    for id in state.scenes.keys() {
        state.depth(*id);
        state.level(*id);
        state.pool(*id);
    }
    state.timer_deadline();
    state.act();
    state.available_scenes();
    state.warnings();
}

/// What a checked replay promises: everything named by id exists, and the outline is a tree.
fn assert_consistent(state: &State, context: &str) {
    if let Some(finale) = state.finale {
        assert!(state.scenes.contains_key(&finale), "{context}: Finale");
    }
    if let Some(scene) = state.in_progress {
        assert!(state.scenes.contains_key(&scene), "{context}: in progress");
    }
    if let Some(player) = state.moderator {
        assert!(state.players.contains_key(&player), "{context}: moderator");
    }
    for (id, object) in &state.objects {
        if let ObjectKind::Character { player: Some(p) } = object.kind {
            assert!(state.players.contains_key(&p), "{context}: {id}'s player");
        }
    }
    for (id, aspect) in &state.aspects {
        assert!(
            state.objects.contains_key(&aspect.object),
            "{context}: {id}'s object"
        );
    }
    for (id, pair) in &state.pairs {
        for aspect in [pair.character_aspect, pair.environment_aspect] {
            assert!(state.aspects.contains_key(&aspect), "{context}: {id}");
        }
        assert!(state.players.contains_key(&pair.proposed_by), "{context}");
    }
    let parentless = state.scenes.values().filter(|s| s.parent.is_none()).count();
    assert!(parentless <= 1, "{context}: {parentless} Finales");
    for (id, scene) in &state.scenes {
        match scene.parent {
            None => assert_eq!(state.finale, Some(*id), "{context}: {id}"),
            Some(parent) => {
                let p = &state.scenes[&parent];
                assert_eq!(
                    p.precursors.iter().filter(|x| *x == id).count(),
                    1,
                    "{context}: {id} in {parent}'s precursors"
                );
            }
        }
        for precursor in &scene.precursors {
            assert_eq!(state.scenes[precursor].parent, Some(*id), "{context}");
        }
        for pair in &scene.pairs {
            assert!(state.pairs.contains_key(pair), "{context}: {pair}");
        }
        // A tree: every scene reaches the Finale, in fewer steps than there are scenes.
        let mut at = *id;
        for _ in 0..=state.scenes.len() {
            match state.scenes[&at].parent {
                Some(parent) => at = parent,
                None => break,
            }
        }
        assert_eq!(Some(at), state.finale, "{context}: {id} reaches the Finale");
    }
    assert_eq!(
        outline_view(state).0.len(),
        state.scenes.len(),
        "{context}: the outline shows every scene"
    );
}

#[test]
fn arbitrary_events_never_break_replay_the_check_or_the_views() {
    finishes("the property test", arbitrary_events);
}

fn arbitrary_events() {
    let mut refused = 0;
    let mut admitted = 0;
    for seed in 0..100u64 {
        let mut rng = DiceRng::new(Seed(seed));
        let mut events = vec![Event::GameOpened {
            ruleset: Ruleset::ALL[seed as usize % 3],
        }];
        events.extend((0..300).map(|_| any_event(&mut rng)));

        // Unchecked, as a reader that trusts its log: any state, still shown.
        let state = State::replay(&events);
        render_all(&state);
        // Every event of a quarter of the logs (slow: serde at every step).
        if seed % 4 == 0 {
            same_without_the_index(&events, seed);
        }

        // Checked: the first impossible event, and the prefix before it is a consistent game.
        let context = format!("seed {seed}");
        match State::replay_checked(&events) {
            Ok(state) => assert_consistent(&state, &context),
            Err(BrokenLog { position, problem }) => {
                assert!(position > 0 && position < events.len(), "{context}");
                assert!(!problem.to_string().contains('\n'), "{context}: {problem}");
                let before = State::replay_checked(&events[..position]).expect("the prefix");
                assert_eq!(before.admits(&events[position]), Err(problem));
            }
        }

        // Impossible events left out, as a store that checked every event would have it.
        let mut state = State::default();
        for event in &events {
            if state.admits(event).is_ok() {
                state = story::evolve(state, event);
                admitted += 1;
                if seed % 2 == 0 {
                    assert_consistent(&state, &format!("{context}: after {event:?}"));
                }
            } else {
                refused += 1;
            }
        }
        assert_consistent(&state, &context);
        render_all(&state);
    }
    // Both sides must be reached for the test to mean anything.
    assert!(
        admitted > 5_000 && refused > 5_000,
        "{admitted} admitted, {refused} refused"
    );
}

/// A state read back through serde, which leaves out the lookups `evolve` keeps (a cache).
fn read_back(state: &State) -> State {
    serde_json::from_value(serde_json::to_value(state).unwrap()).unwrap()
}

/// The lookups the state keeps are only a cache: at every step, a state read back without them
/// admits the same event, evolves to the same state (they are rebuilt), and answers every
/// question by walking the maps the same way.
fn same_without_the_index(events: &[Event], seed: u64) {
    let mut state = State::default();
    for (n, event) in events.iter().enumerate() {
        let context = format!("seed {seed}, event {n}: {event:?}");
        let walked = read_back(&state);
        assert_eq!(walked.admits(event), state.admits(event), "{context}");
        state = story::evolve(state, event);
        assert_eq!(story::evolve(walked, event), state, "{context}");
        let walked = read_back(&state);
        for i in (0..14).chain([u32::MAX - 1, u32::MAX]) {
            let player = PlayerId(i);
            assert_eq!(
                walked.character_of(player),
                state.character_of(player),
                "{context}"
            );
            let object = ObjectId(i);
            assert!(
                walked.aspects_of(object).eq(state.aspects_of(object)),
                "{context}: aspects of {object}"
            );
            let aspect = AspectId(i);
            assert_eq!(
                walked.pair_using(aspect),
                state.pair_using(aspect),
                "{context}"
            );
        }
    }
}

/// Runs `f` on a thread and fails if it panics or does not finish in time (a loop would hang the
/// suite; the limit is far above the few seconds any of these take in a debug build).
fn finishes<T: Send + 'static>(what: &str, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (send, receive) = mpsc::channel();
    let thread = std::thread::spawn(move || send.send(f()));
    match receive.recv_timeout(Duration::from_secs(120)) {
        Ok(value) => value,
        Err(mpsc::RecvTimeoutError::Disconnected) => {
            // The thread panicked: show its message as this test's failure.
            std::panic::resume_unwind(thread.join().unwrap_err())
        }
        Err(mpsc::RecvTimeoutError::Timeout) => panic!("{what} did not finish in time"),
    }
}

fn sketch(scene: u32, parent: Option<u32>) -> Event {
    Event::SceneSketched {
        scene: SceneId(scene),
        parent: parent.map(SceneId),
        objective: format!("Scene {scene}"),
        difficulty: 4,
    }
}

fn opened(rest: Vec<Event>) -> Vec<Event> {
    let mut events = vec![
        Event::GameOpened {
            ruleset: Ruleset::Edition11,
        },
        Event::PlayerJoined {
            player: PlayerId(1),
            name: "Ada".into(),
        },
    ];
    events.extend(rest);
    events
}

/// The log is refused at `position` for `problem`, and replayed without the check it still
/// renders every view in time.
fn refused_and_still_shown(events: Vec<Event>, position: usize, problem: Impossible) {
    assert_eq!(
        State::replay_checked(&events),
        Err(BrokenLog { position, problem })
    );
    finishes("rendering the unchecked replay", move || {
        render_all(&State::replay(&events));
    });
}

#[test]
fn a_character_of_a_player_who_never_joined() {
    let events = opened(vec![
        Event::CharacterCreated {
            object: ObjectId(5),
            player: PlayerId(9),
            name: "Ghost".into(),
        },
        Event::AspectAttached {
            aspect: AspectId(6),
            object: ObjectId(5),
            text: "spooky".into(),
            category: Some(AspectCategory::Occupation),
        },
    ]);
    let problem = Impossible::Missing {
        thing: Thing::Player(PlayerId(9)),
    };
    assert_eq!(problem.to_string(), "player 9 never joined the table");
    refused_and_still_shown(events, 2, problem);
    // An aspect of an object that does not exist.
    let events = opened(vec![Event::AspectAttached {
        aspect: AspectId(6),
        object: ObjectId(5),
        text: "spooky".into(),
        category: None,
    }]);
    let problem = Impossible::Missing {
        thing: Thing::Object(ObjectId(5)),
    };
    refused_and_still_shown(events, 2, problem);
}

#[test]
fn a_removed_finale() {
    // Removed while it has a precursor.
    let events = opened(vec![
        sketch(1, None),
        sketch(2, Some(1)),
        Event::SceneRemoved { scene: SceneId(1) },
    ]);
    let problem = Impossible::HasPrecursors {
        scene: SceneId(1),
        precursor: SceneId(2),
    };
    assert_eq!(
        problem.to_string(),
        "scene 1 is removed while scene 2 is still its precursor"
    );
    refused_and_still_shown(events, 4, problem);
    // Sketched again under a precursor of its own, then removed: the Finale names nothing.
    let events = opened(vec![
        sketch(1, None),
        sketch(2, Some(1)),
        sketch(1, Some(2)),
        Event::SceneRemoved { scene: SceneId(1) },
        Event::SceneStarted {
            scene: SceneId(2),
            at: Timestamp(0),
        },
    ]);
    refused_and_still_shown(events.clone(), 4, Impossible::Cycle { scene: SceneId(1) });
    assert_eq!(State::replay(&events).finale, None);
    // A second Finale.
    let events = opened(vec![sketch(1, None), sketch(2, None)]);
    let problem = Impossible::SecondFinale { finale: SceneId(1) };
    refused_and_still_shown(events, 3, problem);
}

#[test]
fn a_precursor_that_no_longer_exists() {
    // Scene 2 is sketched again elsewhere, then removed: scene 1 still lists it.
    let events = opened(vec![
        sketch(1, None),
        sketch(3, Some(1)),
        sketch(2, Some(1)),
        sketch(2, Some(3)),
        Event::SceneRemoved { scene: SceneId(2) },
        Event::PhaseBegan {
            phase: Phase::Story,
        },
    ]);
    let state = State::replay(&events);
    assert!(state.scenes[&SceneId(1)].precursors.contains(&SceneId(2)));
    let problem = Impossible::IdInUse {
        thing: Thing::Scene(SceneId(2)),
    };
    assert_eq!(
        problem.to_string(),
        "scene 2 already exists (an id is handed out once)"
    );
    refused_and_still_shown(events, 5, problem);
    // A precursor sketched under a parent that does not exist.
    let events = opened(vec![sketch(1, None), sketch(2, Some(7))]);
    let problem = Impossible::Missing {
        thing: Thing::Scene(SceneId(7)),
    };
    refused_and_still_shown(events, 3, problem);
}

#[test]
fn a_scene_that_is_its_own_parent() {
    for events in [
        opened(vec![
            sketch(1, None),
            sketch(4, Some(1)),
            sketch(4, Some(4)),
        ]),
        opened(vec![sketch(4, Some(4))]),
    ] {
        let position = events.len() - 1;
        let problem = Impossible::Cycle { scene: SceneId(4) };
        assert_eq!(
            problem.to_string(),
            "scene 4 is its own ancestor (a cycle in the outline)"
        );
        let mut with_start = events.clone();
        with_start.push(Event::SceneStarted {
            scene: SceneId(4),
            at: Timestamp(0),
        });
        refused_and_still_shown(with_start, position, problem);
    }
}

#[test]
fn a_cycle_of_two_scenes() {
    let events = opened(vec![
        sketch(1, None),
        sketch(2, Some(1)),
        sketch(1, Some(2)),
        Event::SceneStarted {
            scene: SceneId(1),
            at: Timestamp(0),
        },
        Event::SceneStarted {
            scene: SceneId(2),
            at: Timestamp(1),
        },
    ]);
    let state = State::replay(&events);
    finishes("depth in a cycle", move || state.depth(SceneId(1)));
    refused_and_still_shown(events, 4, Impossible::Cycle { scene: SceneId(1) });
}

/// A chain `scenes` long, every scene started: linear in time and memory, and no recursion.
fn chain(scenes: u32) -> Vec<Event> {
    let mut events = opened(vec![sketch(0, None)]);
    events.extend((1..scenes).map(|i| sketch(i, Some(i - 1))));
    events.push(Event::PhaseBegan {
        phase: Phase::Story,
    });
    events.extend((0..scenes).rev().map(|i| Event::SceneStarted {
        scene: SceneId(i),
        at: Timestamp(i64::from(scenes - i)),
    }));
    events
}

#[test]
fn a_chain_of_twenty_thousand_and_of_a_hundred_thousand_scenes() {
    for scenes in [20_000, 100_000] {
        let events = chain(scenes);
        // On a thread with a small stack: recursion in the depth would overflow it.
        let sizes = std::thread::Builder::new()
            .stack_size(256 * 1024)
            .spawn(move || {
                let state = State::replay_checked(&events).expect("a possible game");
                assert_eq!(state.depth(SceneId(scenes - 1)), scenes - 1);
                let markdown = to_markdown(&state);
                let (_, view) = outline_view(&state);
                let tree = views::tree(&view);
                let mermaid = views::mermaid(&view);
                assert!(markdown.contains("Quaternary scene: Scene 99"));
                [markdown.len(), tree.len(), mermaid.len()]
            })
            .unwrap()
            .join()
            .expect("no overflow, no panic");
        // Linear: a few hundred bytes per scene (drawing every level of a 20,000-deep tree
        // would take gigabytes).
        for size in sizes {
            assert!(
                size < 400 * scenes as usize,
                "{size} bytes for {scenes} scenes"
            );
        }
    }
}

#[test]
fn a_deep_tree_keeps_the_drawing_of_its_last_levels() {
    let view: Vec<ViewScene> = (0..40usize)
        .map(|i| ViewScene {
            label: format!("Scene {i}"),
            difficulty: 1,
            parent: i.checked_sub(1),
            note: None,
        })
        .collect();
    let tree = views::tree(&view);
    let lines: Vec<&str> = tree.lines().collect();
    assert_eq!(lines[0], "Finale: Scene 0 (1)");
    let drawing = |depth: usize| lines[depth].chars().count() - format!("Scene {depth} (1)").len();
    assert_eq!(drawing(1), 4);
    assert_eq!(
        drawing(views::MAX_DRAWN_LEVELS),
        4 * views::MAX_DRAWN_LEVELS
    );
    assert!(lines[views::MAX_DRAWN_LEVELS + 1].starts_with('…'));
    assert_eq!(drawing(39), 4 * views::MAX_DRAWN_LEVELS + 1);
    // The lines the outline odds table pads to one width agree with the tree.
    let widest = views::tree_lines(&view)
        .iter()
        .map(|l| l.prefix.chars().count())
        .max();
    assert_eq!(widest, Some(4 * views::MAX_DRAWN_LEVELS + 1));
}
