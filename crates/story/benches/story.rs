//! Benchmarks of the story crate: `cargo bench -p story`.
//!
//! Aims: outline odds for an 8-scene outline under 10 µs; `f64` outline odds for a
//! 100,000-scene tree under 100 ms.

use divan::black_box;
use story::Ruleset;
use story::outline_odds::{PlannedScene, outline_odds, outline_odds_f64, pairs_for_even_finale};

fn main() {
    divan::main();
}

// ---------------------------------------------------------------------------------------------
// Outline odds
// ---------------------------------------------------------------------------------------------

fn scene(parent: Option<usize>, pairs: u32) -> PlannedScene {
    PlannedScene {
        parent,
        pairs,
        outcome: None,
    }
}

/// The seeds' example outline: a Finale, three primaries, three secondaries, one tertiary.
fn seeds_outline() -> Vec<PlannedScene> {
    vec![
        scene(None, 3),
        scene(Some(0), 2),
        scene(Some(0), 2),
        scene(Some(0), 3),
        scene(Some(2), 1),
        scene(Some(2), 2),
        scene(Some(3), 2),
        scene(Some(5), 1),
    ]
}

/// A tree of `n` scenes attached breadth-first, `fan_out` precursors per scene: with 47, the
/// 100,000 scenes fit in the four levels of Prophecy 1.0 (1 + 47 + 47² + 47³ > 100,000).
fn wide_tree(n: usize, fan_out: usize) -> Vec<PlannedScene> {
    (0..n)
        .map(|i| scene(i.checked_sub(1).map(|i| i / fan_out), (i % 4) as u32))
        .collect()
}

/// The 8-scene outline, in `f64`.
#[divan::bench]
fn outline_8_scenes_f64() -> Vec<f64> {
    outline_odds_f64(Ruleset::Edition10, black_box(&seeds_outline())).unwrap()
}

/// The 8-scene outline, as exact fractions.
#[divan::bench]
fn outline_8_scenes_exact() -> usize {
    outline_odds(Ruleset::Edition10, black_box(&seeds_outline()))
        .unwrap()
        .len()
}

/// How many pairs per scene give the 8-scene outline's Finale an even chance.
#[divan::bench]
fn pairs_for_even_finale_8_scenes() -> bool {
    pairs_for_even_finale(Ruleset::Edition10, black_box(&seeds_outline())).is_ok()
}

/// A 100,000-scene tree, in `f64` (the outline is built outside the timing).
#[divan::bench]
fn outline_100k_scenes_f64(bencher: divan::Bencher) {
    let tree = wide_tree(100_000, 47);
    bencher.bench_local(|| outline_odds_f64(Ruleset::Edition10, black_box(&tree)).unwrap());
}

/// The largest plan `prophecy outline odds` accepts, exactly: 1000 scenes (a Finale, 31
/// primaries, 968 secondaries) of 10 pairs each.
#[divan::bench(sample_count = 10)]
fn outline_1000_scenes_exact(bencher: divan::Bencher) {
    let tree: Vec<PlannedScene> = wide_tree(1000, 31)
        .into_iter()
        .map(|s| PlannedScene { pairs: 10, ..s })
        .collect();
    bencher.bench_local(|| {
        outline_odds(Ruleset::Edition10, black_box(&tree))
            .unwrap()
            .len()
    });
}

// ---------------------------------------------------------------------------------------------
// Replaying games
// ---------------------------------------------------------------------------------------------

/// Decides and applies one command of the scripted game; returns the newest id.
fn act(
    state: &mut story::State,
    events: &mut Vec<story::Event>,
    by: u32,
    action: story::command::Action,
) -> u32 {
    let command = story::command::Command::new(story::ids::PlayerId(by), action);
    let new = story::decide(state, command).expect("the scripted game is valid");
    for e in &new {
        *state = story::evolve(std::mem::take(state), e);
    }
    events.extend(new);
    state.next_id.saturating_sub(1)
}

/// Player `by` proposes `motion` and every other player agrees: it carries.
fn carry(
    state: &mut story::State,
    events: &mut Vec<story::Event>,
    by: u32,
    motion: story::model::Motion,
    seed: u64,
) {
    use story::command::Action;
    let seed = dice::Seed(seed);
    act(state, events, by, Action::Propose { motion, seed });
    while let Some(open) = state.proposal.clone() {
        let next = state
            .voters()
            .into_iter()
            .find(|v| !open.agreed.contains(v))
            .expect("someone still to agree");
        act(
            state,
            events,
            next.0,
            Action::Agree {
                proposal: open.id,
                seed,
            },
        );
    }
}

/// A valid game of `target` events (or a few more), made by the engine itself: four players,
/// an eight-scene outline, every scene performed with its investigation, pairs and narration,
/// and the rest of the log in the edits a long evening of play makes.
fn long_game(target: usize) -> Vec<story::Event> {
    use story::command::Action;
    use story::model::Motion;

    let mut state = story::State::default();
    let mut events = Vec::new();
    let characters = long_game_characters(&mut state, &mut events);
    let mut scenes = long_game_outline(&mut state, &mut events);
    // Perform the scenes deepest first, so that every scene's precursors come before it.
    scenes.sort_by_key(|s| std::cmp::Reverse(state.depth(*s)));
    let per_scene = target / scenes.len();
    for (n, &scene) in scenes.iter().enumerate() {
        long_game_scene(&mut state, &mut events, &characters, n, scene, per_scene);
    }
    act(
        &mut state,
        &mut events,
        3,
        Action::NarrateLongTermEffects {
            text: "Dawn.".into(),
        },
    );
    carry(&mut state, &mut events, 3, Motion::EndGame, 0);
    events
}

/// [`long_game`]'s table: the game opened, four players, the prophecy, and a character each
/// with all five aspects; then on to the outline. Returns the characters.
fn long_game_characters(
    state: &mut story::State,
    events: &mut Vec<story::Event>,
) -> Vec<story::ids::ObjectId> {
    use story::command::Action;
    use story::ids::ObjectId;
    use story::model::{AspectCategory, Motion, Phase};

    act(
        state,
        events,
        0,
        Action::Open {
            ruleset: Ruleset::Edition10,
        },
    );
    for p in 1..=4 {
        act(
            state,
            events,
            p,
            Action::Join {
                name: format!("Player {p}"),
            },
        );
    }
    act(
        state,
        events,
        1,
        Action::WriteProphecy {
            text: "The long night comes.".into(),
        },
    );
    carry(
        state,
        events,
        1,
        Motion::Advance {
            to: Phase::Characters,
        },
        0,
    );
    let characters: Vec<ObjectId> = (1..=4)
        .map(|p| {
            ObjectId(act(
                state,
                events,
                p,
                Action::CreateCharacter {
                    name: format!("Hero {p}"),
                },
            ))
        })
        .collect();
    for (i, &me) in characters.iter().enumerate() {
        let by = i as u32 + 1;
        let friend = characters[(i + 1) % 4];
        for category in [
            AspectCategory::Occupation,
            AspectCategory::PhysicalOrMental,
            AspectCategory::Psychological,
            AspectCategory::Relationship { with: friend },
            AspectCategory::Affiliation,
        ] {
            act(
                state,
                events,
                by,
                Action::AttachAspect {
                    object: me,
                    text: "trait".into(),
                    category: Some(category),
                },
            );
        }
    }
    carry(state, events, 1, Motion::Advance { to: Phase::Outline }, 0);
    characters
}

/// [`long_game`]'s outline: the Finale and seven scenes under it; then on to the story.
/// Returns the scenes, the Finale first.
fn long_game_outline(
    state: &mut story::State,
    events: &mut Vec<story::Event>,
) -> Vec<story::ids::SceneId> {
    use story::command::Action;
    use story::ids::SceneId;
    use story::model::{Motion, Phase};

    let finale = SceneId(act(
        state,
        events,
        1,
        Action::SketchFinale {
            objective: "Stop the night".into(),
        },
    ));
    let mut scenes = vec![finale];
    for i in 0..7 {
        let parent = scenes[i / 3];
        scenes.push(SceneId(act(
            state,
            events,
            1,
            Action::SketchScene {
                parent,
                objective: format!("Scene {i}"),
            },
        )));
    }
    carry(state, events, 1, Motion::Advance { to: Phase::Story }, 0);
    scenes
}

/// [`long_game`]'s performance of its `n`th scene: a place with 25 aspects, 20 pairs, the
/// aspects reworded until the scene has about `per_scene` events, the check and the narration.
fn long_game_scene(
    state: &mut story::State,
    events: &mut Vec<story::Event>,
    characters: &[story::ids::ObjectId],
    n: usize,
    scene: story::ids::SceneId,
    per_scene: usize,
) {
    use story::command::Action;
    use story::ids::{AspectId, ObjectId};
    use story::model::{Motion, ObjectKind};

    act(state, events, 1, Action::StartScene { scene });
    let place = ObjectId(act(
        state,
        events,
        2,
        Action::CreateObject {
            name: format!("Place {n}"),
            kind: ObjectKind::Place,
        },
    ));
    act(
        state,
        events,
        2,
        Action::PlaceObject {
            scene,
            object: place,
        },
    );
    let mut aspects = Vec::new();
    for a in 0..25 {
        aspects.push(AspectId(act(
            state,
            events,
            3,
            Action::AttachAspect {
                object: place,
                text: format!("aspect {a}"),
                category: None,
            },
        )));
    }
    for (i, &aspect) in aspects.iter().take(20).enumerate() {
        let character = characters[i % 4];
        let character_aspect = state.aspects_of(character).next().unwrap().0;
        act(
            state,
            events,
            (i % 4) as u32 + 1,
            Action::ProposePair {
                scene,
                character_aspect,
                environment_aspect: aspect,
                justification: "fits".into(),
            },
        );
    }
    // The long tail of a real table: aspects reworded again and again.
    let start = events.len();
    let mut i = 0;
    while events.len() - start < per_scene.saturating_sub(50) {
        let aspect = aspects[20 + i % 5];
        act(
            state,
            events,
            4,
            Action::EditAspect {
                aspect,
                text: format!("reworded {i}"),
            },
        );
        i += 1;
    }
    carry(
        state,
        events,
        1,
        Motion::MakeCheck {
            scene,
            accept_empty_pool: false,
        },
        n as u64,
    );
    act(
        state,
        events,
        2,
        Action::Narrate {
            scene,
            text: "It happened.".into(),
        },
    );
    act(state, events, 2, Action::FinishScene { scene });
}

/// Replaying a 10,000-event game from its log (aim: under 10 ms).
#[divan::bench(sample_count = 20)]
fn replay_10k_events(bencher: divan::Bencher) {
    let events = long_game(10_000);
    assert!(events.len() >= 10_000, "{} events", events.len());
    bencher
        .counter(divan::counter::ItemsCount::new(events.len()))
        .bench_local(|| story::State::replay(black_box(&events)).version);
}

/// A game at the documented limits (300 objects, 30 aspects on each of the places) with a scene
/// being played, its timer counting, and the id of an aspect to reword.
fn large_timed_scene() -> (story::State, story::ids::AspectId, story::ids::SceneId) {
    use story::command::Action;
    use story::ids::{AspectId, ObjectId};
    use story::model::ObjectKind;

    let mut events = long_game(0);
    events.retain(|e| !matches!(e, story::Event::GameEnded));
    let mut state = story::State::replay(&events);
    // A timer is set by hand on a performed scene: the decision only looks at whether one
    // counts.
    let scene = *state.scenes.keys().next().unwrap();
    let mut aspect = AspectId(0);
    while state.objects.len() < story::decide::limits::OBJECTS {
        let place = ObjectId(act(
            &mut state,
            &mut events,
            2,
            Action::CreateObject {
                name: "A place".into(),
                kind: ObjectKind::Place,
            },
        ));
        for a in 0..story::decide::limits::ASPECTS_PER_OBJECT {
            aspect = AspectId(act(
                &mut state,
                &mut events,
                3,
                Action::AttachAspect {
                    object: place,
                    text: format!("aspect {a}"),
                    category: None,
                },
            ));
        }
    }
    state.timer = Some(story::model::Timer::start(
        story::model::Timed::Scene(scene),
        story::ids::Timestamp(0),
    ));
    (state, aspect, scene)
}

/// Deciding one edit while a scene is timed, in a game at the limits: the timer needs no copy
/// of the state unless play may pause or resume (aim: under 20 µs).
#[divan::bench(sample_count = 50)]
fn decide_an_edit_in_a_large_timed_game(bencher: divan::Bencher) {
    let (state, aspect, _) = large_timed_scene();
    assert_eq!(state.objects.len(), story::decide::limits::OBJECTS);
    let edit = story::command::Action::EditAspect {
        aspect,
        text: "reworded".into(),
    };
    let command = story::command::Command::new(story::ids::PlayerId(1), edit);
    assert_eq!(story::decide(&state, command).map(|e| e.len()), Ok(1));
    bencher.bench_local(|| {
        story::decide(
            black_box(&state),
            story::command::Command::new(
                story::ids::PlayerId(1),
                story::command::Action::EditAspect {
                    aspect,
                    text: "reworded".into(),
                },
            ),
        )
        .map(|e| e.len())
    });
}

/// Deciding a flag in the same game: it stops the timer, so the engine folds the events into a
/// copy of the state to know.
#[divan::bench(sample_count = 50)]
fn decide_a_flag_in_a_large_timed_game(bencher: divan::Bencher) {
    let (state, aspect, _) = large_timed_scene();
    let flag = story::command::Action::Flag {
        target: story::model::TextRef::Aspect(aspect),
    };
    let command = story::command::Command::new(story::ids::PlayerId(1), flag);
    // The flag, and the timer's stop after it.
    assert_eq!(story::decide(&state, command).map(|e| e.len()), Ok(2));
    bencher.bench_local(|| {
        story::decide(
            black_box(&state),
            story::command::Command::new(
                story::ids::PlayerId(1),
                story::command::Action::Flag {
                    target: story::model::TextRef::Aspect(aspect),
                },
            ),
        )
        .map(|e| e.len())
    });
}
