//! Replaying stored events rebuilds the same state, and the integrity check admits every event:
//! for random valid command sequences, and for a game stored by the first version of the event
//! format.

use crate::game::Game;
use dice::{DiceRng, Seed};
use story::command::{Action, Command};
use story::content::Library;
use story::ids::{AspectId, LineId, ObjectId, PairId, PlayerId, ProposalId, SceneId, Timestamp};
use story::model::{AspectCategory, Motion, ObjectKind, Phase, TextRef};
use story::{Event, Ruleset, State, StoredEvent, decide, evolve};

/// Picks one of `items`.
fn pick<T: Copy>(rng: &mut DiceRng, items: &[T]) -> Option<T> {
    if items.is_empty() {
        return None;
    }
    let i = (usize::from(rng.next_byte()) << 8 | usize::from(rng.next_byte())) % items.len();
    Some(items[i])
}

fn keys<K: Copy, V>(map: &std::collections::BTreeMap<K, V>) -> Vec<K> {
    map.keys().copied().collect()
}

/// The players a random command may come from.
const PLAYERS: [u32; 4] = [1, 2, 3, 4];

/// What a random command may name, drawn before its action: who acts and when, an object, two
/// aspects, a scene (mostly the one in progress) and a text.
struct Picks {
    by: PlayerId,
    at: Timestamp,
    object: ObjectId,
    aspect: AspectId,
    aspect2: AspectId,
    scene: SceneId,
    word: String,
}

impl Picks {
    /// Draws them in this order, which the generator's sequence depends on.
    fn draw(rng: &mut DiceRng, state: &State, at: Timestamp) -> Picks {
        let by = PlayerId(pick(rng, &PLAYERS).unwrap());
        let objects = keys(&state.objects);
        let aspects = keys(&state.aspects);
        let scenes = keys(&state.scenes);
        let object = pick(rng, &objects).unwrap_or(ObjectId(0));
        let aspect = pick(rng, &aspects).unwrap_or(AspectId(0));
        let aspect2 = pick(rng, &aspects).unwrap_or(AspectId(0));
        let scene = state
            .in_progress
            .filter(|_| rng.next_byte() < 200)
            .or_else(|| pick(rng, &scenes))
            .unwrap_or(SceneId(0));
        let word = format!("text {}", rng.next_byte());
        Picks {
            by,
            at,
            object,
            aspect,
            aspect2,
            scene,
            word,
        }
    }

    /// The command of `action` by `by`, at the picked time.
    fn command(&self, by: PlayerId, action: Action) -> Command {
        Command {
            by,
            at: self.at,
            action,
        }
    }

    /// A proposal of `motion`, its seed from the time.
    fn propose(&self, motion: Motion) -> Action {
        Action::Propose {
            motion,
            seed: Seed(u64::from(self.at.0 as u8)),
        }
    }
}

/// A random command at time `at` that has a fair chance of being valid in `state`.
fn random_command(rng: &mut DiceRng, state: &State, library: &Library, at: Timestamp) -> Command {
    let picks = Picks::draw(rng, state, at);
    if let Some(command) = what_the_table_answers_first(rng, state, &picks) {
        return command;
    }
    let pair = pick(rng, &keys(&state.pairs)).unwrap_or(PairId(0));
    let face = rng.face(44);
    let by = picks.by;
    let action = match face {
        1 | 2 | 3 | 34 | 35 | 37 | 38 => table_action(face, rng, state, picks),
        32 if rng.next_byte() < 128 => Action::Pause,
        4 | 5 | 8..=12 | 24 | 39 | 41 | 42 => preparation_action(face, rng, state, library, picks),
        6 | 7 | 29 | 30 | 31 | 43 => motion_action(face, rng, state, &picks, pair),
        13 | 14 | 15 | 26 => outline_action(face, picks),
        16..=23 | 25 | 27 | 28 | 33 | 36 => scene_action(face, rng, state, picks, pair),
        // 40, 44, and a pause not made.
        _ => Action::EditObjective {
            scene: picks.scene,
            objective: picks.word,
        },
    };
    Command { by, at, action }
}

/// What a table deals with before going on, mostly: a flagged text is replaced (otherwise play
/// stays paused), the X-card lifted (by whoever paused, or by the table), an open proposal
/// agreed to (and sometimes stopped).
fn what_the_table_answers_first(
    rng: &mut DiceRng,
    state: &State,
    picks: &Picks,
) -> Option<Command> {
    let word = || picks.word.clone();
    if let Some(flagged) = state.flags.iter().next().filter(|_| rng.next_byte() < 128) {
        let action = match *flagged {
            TextRef::Aspect(aspect) => Action::EditAspect {
                aspect,
                text: word(),
            },
            TextRef::Objective(scene) => Action::EditObjective {
                scene,
                objective: word(),
            },
            TextRef::ObjectName(object) => Action::Rename {
                object,
                name: word(),
            },
            _ => Action::WriteProphecy { text: word() },
        };
        let owner = match *flagged {
            TextRef::Aspect(a) => state.aspects.get(&a).map(|a| a.object),
            TextRef::ObjectName(o) => Some(o),
            _ => None,
        };
        let by = match owner.and_then(|o| state.objects.get(&o)).map(|o| o.kind) {
            Some(ObjectKind::Character { player: Some(p) }) => p,
            _ => picks.by,
        };
        return Some(picks.command(by, action));
    }
    if let Some(x_card) = state.x_card.filter(|_| rng.next_byte() < 128) {
        return Some(match x_card.by {
            Some(pauser) if rng.next_byte() < 192 => picks.command(pauser, Action::Resume),
            _ => picks.command(
                picks.by,
                Action::Propose {
                    motion: Motion::Resume,
                    seed: Seed(0),
                },
            ),
        });
    }
    if let Some(open) = state.proposal.as_ref().filter(|_| rng.next_byte() < 128) {
        let action = if rng.next_byte() < 8 {
            Action::Stop { proposal: open.id }
        } else {
            Action::Agree {
                proposal: open.id,
                seed: Seed(u64::from(rng.next_byte())),
            }
        };
        return Some(picks.command(picks.by, action));
    }
    None
}

/// The table's own actions (faces of [`random_command`]'s d44): joining, lines, flags,
/// questions, players, the moderator, the timer, the dice, publishing.
fn table_action(face: u8, rng: &mut DiceRng, state: &State, picks: Picks) -> Action {
    match face {
        1 => Action::Join { name: picks.word },
        2 => Action::AddLine { text: picks.word },
        3 => Action::Flag {
            target: pick(
                rng,
                &[
                    TextRef::Aspect(picks.aspect),
                    TextRef::Objective(picks.scene),
                    TextRef::ObjectName(picks.object),
                ],
            )
            .unwrap(),
        },
        34 => match rng.face(4) {
            1 => Action::HoldTimer,
            2 => Action::ReleaseTimer,
            3 => Action::ExtendTimer {
                minutes: u32::from(rng.face(32)) - 1,
            },
            _ => Action::ResetTimer,
        },
        35 => match rng.face(6) {
            1 => Action::WithdrawStory,
            2 => picks.propose(Motion::Publish),
            3 => Action::CloseWatch,
            4 => picks.propose(Motion::Watch),
            _ => picks.propose(Motion::ChooseDice {
                physical: rng.next_byte() < 128,
            }),
        },
        37 => match rng.face(8) {
            // Rarely: a table that loses its players never reaches the story.
            1 if rng.next_byte() < 16 => Action::RemovePlayer {
                player: PlayerId(pick(rng, &PLAYERS).unwrap()),
            },
            2 | 3 => picks.propose(Motion::ChooseModerator {
                player: Some(PlayerId(pick(rng, &PLAYERS).unwrap()))
                    .filter(|_| rng.next_byte() < 200),
            }),
            _ => Action::AskQuestion { text: picks.word },
        },
        38 => Action::RemoveLine {
            line: pick(rng, &keys(&state.lines)).unwrap_or(LineId(0)),
        },
        _ => unreachable!("face {face} is not the table's"),
    }
}

/// The prophecy, the characters, the objects and their aspects (faces of
/// [`random_command`]'s d44), with a bias toward completing one's own character.
fn preparation_action(
    face: u8,
    rng: &mut DiceRng,
    state: &State,
    library: &Library,
    picks: Picks,
) -> Action {
    let Picks {
        by,
        object,
        aspect,
        word,
        ..
    } = picks;
    let categories = [
        Some(AspectCategory::Occupation),
        Some(AspectCategory::PhysicalOrMental),
        Some(AspectCategory::Psychological),
        Some(AspectCategory::Relationship { with: object }),
        Some(AspectCategory::Affiliation),
        None,
    ];
    let kinds = [
        ObjectKind::Person,
        ObjectKind::Place,
        ObjectKind::Thing,
        ObjectKind::Npc,
    ];
    match face {
        4 => Action::RollCatastrophe {
            world: library.worlds[0].clone(),
            seed: Seed(u64::from(rng.next_byte())),
        },
        5 => Action::WriteProphecy { text: word },
        8 => Action::CreateCharacter { name: word },
        9 => Action::CreateObject {
            name: word,
            kind: pick(rng, &kinds).unwrap(),
        },
        10 => Action::AttachAspect {
            object,
            text: word,
            category: pick(rng, &categories).unwrap(),
        },
        11 | 41 | 42 => match own_aspect(state, by) {
            Some((me, category)) => Action::AttachAspect {
                object: me,
                text: word,
                category,
            },
            None => Action::CreateCharacter { name: word },
        },
        12 => Action::EditAspect { aspect, text: word },
        24 => Action::RemoveAspect { aspect },
        39 => Action::Rename { object, name: word },
        _ => unreachable!("face {face} is not the preparation's"),
    }
}

/// The character of `by`, if she has one, and the category her aspects miss first (a
/// relationship with another character).
fn own_aspect(state: &State, by: PlayerId) -> Option<(ObjectId, Option<AspectCategory>)> {
    let characters: Vec<ObjectId> = keys(&state.objects)
        .into_iter()
        .filter(|o| state.objects[o].kind.is_character())
        .collect();
    state.character_of(by).map(|me| {
        let missing = state.missing_categories(me);
        let other = characters.iter().copied().find(|c| *c != me).unwrap_or(me);
        let category = match missing.first().copied() {
            Some("Occupation") => Some(AspectCategory::Occupation),
            Some("Physical or Mental Characteristic") => Some(AspectCategory::PhysicalOrMental),
            Some("Psychological Characteristic") => Some(AspectCategory::Psychological),
            Some("Relationship") => Some(AspectCategory::Relationship { with: other }),
            Some(_) => Some(AspectCategory::Affiliation),
            None => None,
        };
        (me, category)
    })
}

/// Proposals and what is done with them (faces of [`random_command`]'s d44): moving the
/// game on, back to the outline, to its end.
fn motion_action(
    face: u8,
    rng: &mut DiceRng,
    state: &State,
    picks: &Picks,
    pair: PairId,
) -> Action {
    let proposal = state.proposal.as_ref().map_or(ProposalId(0), |p| p.id);
    match face {
        6 | 7 | 43 => picks.propose(Motion::Advance {
            to: state.phase.next().unwrap_or(Phase::Ended),
        }),
        29 => match rng.face(4) {
            1 => picks.propose(Motion::ReturnToOutline),
            2 => picks.propose(Motion::WithdrawPair { pair }),
            3 => picks.propose(Motion::EndGame),
            _ => picks.propose(Motion::Advance { to: Phase::Ended }),
        },
        30 => Action::Agree {
            proposal,
            seed: Seed(0),
        },
        31 => Action::Stop { proposal },
        _ => unreachable!("face {face} is not a proposal's"),
    }
}

/// Writing the outline (faces of [`random_command`]'s d44).
fn outline_action(face: u8, picks: Picks) -> Action {
    let Picks {
        object,
        scene,
        word,
        ..
    } = picks;
    match face {
        13 => Action::SketchFinale { objective: word },
        14 => Action::SketchScene {
            parent: scene,
            objective: word,
        },
        15 => Action::PlaceObject { scene, object },
        26 => Action::RemoveScene { scene },
        _ => unreachable!("face {face} is not the outline's"),
    }
}

/// Telling the story (faces of [`random_command`]'s d44): scenes, their pairs, checks (with
/// real dice too), narration; with a bias toward pairs from the characters and the objects
/// in the scene being performed.
fn scene_action(face: u8, rng: &mut DiceRng, state: &State, picks: Picks, pair: PairId) -> Action {
    let scene = picks.scene;
    match face {
        16 => Action::StartScene { scene },
        17 => Action::ProposePair {
            scene,
            character_aspect: picks.aspect,
            environment_aspect: picks.aspect2,
            justification: picks.word,
        },
        18 => {
            let aspects = keys(&state.aspects);
            let character_aspects: Vec<AspectId> = aspects
                .iter()
                .copied()
                .filter(|a| state.is_character_aspect(*a) == Some(true))
                .collect();
            let in_scene: Vec<AspectId> = state
                .in_progress
                .map(|s| {
                    let present = &state.scenes[&s].setting.objects;
                    aspects
                        .iter()
                        .copied()
                        .filter(|a| present.contains(&state.aspects[a].object))
                        .collect()
                })
                .unwrap_or_default();
            Action::ProposePair {
                scene,
                character_aspect: pick(rng, &character_aspects).unwrap_or(picks.aspect),
                environment_aspect: pick(rng, &in_scene).unwrap_or(picks.aspect2),
                justification: picks.word,
            }
        }
        19 => picks.propose(Motion::MakeCheck {
            scene,
            accept_empty_pool: rng.next_byte() < 128,
        }),
        20 => Action::Narrate {
            scene,
            text: picks.word,
        },
        21 => Action::FinishScene { scene },
        22 => Action::NarrateLongTermEffects { text: picks.word },
        23 => Action::WithdrawPair { pair },
        25 => Action::NarrateFlashback { text: picks.word },
        27 => Action::AcceptPair { pair },
        28 => Action::ObjectToPair { pair },
        33 => Action::CancelScene { scene },
        // Real dice: the faces of a roll of the pool (or, now and then, of another pool).
        36 => {
            let mut pool = state.pool(scene);
            if rng.next_byte() < 16 {
                pool.pop();
            }
            let faces = dice::check::roll(&pool, Seed(u64::from(rng.next_byte()))).faces();
            Action::EnterFaces { scene, faces }
        }
        _ => unreachable!("face {face} is not a scene's"),
    }
}

#[test]
fn random_valid_command_sequences_replay_to_the_same_state() {
    let library = Library::builtin();
    let mut accepted_total = 0;
    let mut furthest = Phase::Prophecy;
    let mut reached = std::collections::BTreeSet::new();
    for seed in 0..60u64 {
        let mut rng = DiceRng::new(Seed(seed));
        let ruleset = Ruleset::ALL[seed as usize % 3];
        let mut game = Game::open(ruleset);
        for step in 0..1_500 {
            let at = Timestamp(1_700_000_000_000 + step * 7_000);
            let command = random_command(&mut rng, &game.state, &library, at);
            if let Ok(events) = decide(&game.state, command) {
                for event in &events {
                    game.state = evolve(std::mem::take(&mut game.state), event);
                }
                game.events.extend(events);
            }
        }
        accepted_total += game.events.len();
        for event in &game.events {
            let json = serde_json::to_value(event).unwrap();
            reached.insert(json["type"].as_str().unwrap().to_owned());
        }
        furthest = furthest.max(game.state.phase);
        // Replay from the log, and from the log through its stored (JSON) form.
        assert_eq!(State::replay(&game.events), game.state, "seed {seed}");
        // Every decided event could have happened: the integrity check refuses none of them.
        assert_eq!(
            State::replay_checked(&game.events).as_ref(),
            Ok(&game.state),
            "seed {seed}: checked"
        );
        let stored: Vec<String> = game
            .events
            .iter()
            .map(|e| serde_json::to_string(&StoredEvent::from(e.clone())).unwrap())
            .collect();
        let loaded: Vec<Event> = stored
            .iter()
            .map(|s| serde_json::from_str::<StoredEvent>(s).unwrap().into_event())
            .collect();
        assert_eq!(
            State::replay(&loaded),
            game.state,
            "seed {seed}: through JSON"
        );
        // Invariants the rules promise, whatever the sequence.
        for (id, scene) in &game.state.scenes {
            let depth = game.state.depth(*id);
            assert_eq!(Some(scene.difficulty), ruleset.difficulty_at_depth(depth));
            if scene.performed {
                assert!(
                    scene
                        .precursors
                        .iter()
                        .all(|p| game.state.scenes[p].performed)
                );
            }
        }
    }
    for kind in [
        "proposal_carried",
        "proposal_stopped",
        "table_resumed",
        "timer_stopped",
        "timer_counting",
        "scene_cancelled",
        "pair_objected",
        "dice_called_for",
        "check_made",
        "game_ended",
        "dice_chosen",
        "moderator_chosen",
        "story_published",
        "story_withdrawn",
        "watch_opened",
        "watch_closed",
    ] {
        assert!(reached.contains(kind), "random games never reached {kind}");
    }
    // The generator must reach deep into games for this test to mean anything.
    assert!(
        accepted_total > 10_000,
        "only {accepted_total} events accepted"
    );
    assert!(
        furthest >= Phase::Story,
        "random games never reached the story"
    );
}

/// A game stored by version 1 of the event format (crates/story/tests/data/game-v1.jsonl,
/// written once and never regenerated) still loads and replays.
#[test]
fn a_game_stored_by_the_first_version_still_loads() {
    let stored = include_str!("../data/game-v1.jsonl");
    let events: Vec<Event> = stored
        .lines()
        .map(|line| {
            serde_json::from_str::<StoredEvent>(line)
                .expect(line)
                .into_event()
        })
        .collect();
    let state = State::replay(&events);
    assert_eq!(State::replay_checked(&events).as_ref(), Ok(&state));
    assert_eq!(state.phase, Phase::Ended);
    assert_eq!(state.ruleset, Ruleset::Edition10);
    assert_eq!(state.players.len(), 3);
    let finale = &state.scenes[&state.finale.unwrap()];
    assert!(finale.performed && finale.check.is_some());
    // Written back, the events are byte for byte what was stored: the format has not moved.
    let rewritten: Vec<String> = events
        .iter()
        .map(|e| serde_json::to_string(&StoredEvent::from(e.clone())).unwrap())
        .collect();
    assert_eq!(rewritten.join("\n"), stored.trim_end());
}
