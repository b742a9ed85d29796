//! A table may roll real dice: once the table agrees to the check, the pool is frozen and the
//! faces are typed in, the pool first, then one die per six, wave by wave.

use crate::game::{Game, Table, propose, table};
use dice::check::{Outcome, PoolEntry};
use story::command::Action;
use story::export::to_markdown;
use story::ids::{ObjectId, SceneId};
use story::model::{Motion, ObjectKind, Phase};
use story::{Event, Refusal, Ruleset};

/// Starts `scene` and proposes `pairs` pairs of Wren's trade with fresh aspects of `place`.
fn start_with_pairs(
    game: &mut Game,
    scene: SceneId,
    wren: ObjectId,
    place: ObjectId,
    pairs: usize,
) {
    game.act(1, Action::StartScene { scene });
    game.act(
        2,
        Action::PlaceObject {
            scene,
            object: place,
        },
    );
    let trade = game.first_aspect(wren);
    for i in 0..pairs {
        let weakness = game.aspect(2, place, &format!("weakness {i} of {scene}"));
        game.pair(1 + (i as u32 % 3), scene, trade, weakness);
    }
}

#[track_caller]
fn faces_do_not_fit(game: &Game, scene: SceneId, faces: &[u8], problem: &str) {
    game.refuses(
        3,
        Action::EnterFaces {
            scene,
            faces: faces.to_vec(),
        },
        Refusal::FacesDoNotFit {
            problem: problem.into(),
        },
        "Checks",
    );
}

/// The seeds' worked example: three pairs and two reward dice against the Finale; the faces
/// 3, 6, 5, 1, 6 for the pool, 2 and 6 for its two sixes, 4 for the six among those: 5 hits.
#[test]
fn the_seeds_worked_example_with_real_dice() {
    let mut game = Game::open(Ruleset::Edition10);
    for (id, name) in [(1, "Ada"), (2, "Bo"), (3, "Cy")] {
        game.join(id, name);
    }
    game.act(
        1,
        Action::WriteProphecy {
            text: "The Death Star will fire.".into(),
        },
    );
    game.advance(1, Phase::Characters);
    let luke = game.character(1, "Luke", None);
    let leia = game.character(2, "Leia", Some(luke));
    let han = game.character(3, "Han", Some(leia));
    game.relationship(1, luke, han);
    game.advance(1, Phase::Outline);
    let finale = game.finale(1, "Destroy the Death Star");
    let weakness = game.scene(2, finale, "Find a critical weakness");
    let force = game.scene(3, finale, "Use the Force");
    let station = game.object(1, "The station", ObjectKind::Place);
    game.advance(1, Phase::Story);
    game.carry(1, Motion::ChooseDice { physical: true }, 0);
    assert!(game.state.physical_dice);

    // Faces typed in before the table agreed to the check are refused.
    start_with_pairs(&mut game, weakness, luke, station, 3);
    game.refuses(
        1,
        Action::EnterFaces {
            scene: weakness,
            faces: vec![4, 4, 4],
        },
        Refusal::NotRolling,
        "Checks",
    );
    // The table agrees: no dice are rolled by the server, the table rolls its own.
    let events = game.check(2, weakness, 0);
    assert_eq!(
        events.last(),
        Some(&Event::DiceCalledFor { scene: weakness })
    );
    assert!(game.state.scenes[&weakness].rolling);
    assert_eq!(game.state.scenes[&weakness].check, None);
    game.act(
        3,
        Action::EnterFaces {
            scene: weakness,
            faces: vec![4, 5, 6, 3],
        },
    );
    game.act(
        1,
        Action::Narrate {
            scene: weakness,
            text: "R2 found the exhaust port.".into(),
        },
    );
    game.act(1, Action::FinishScene { scene: weakness });
    let check = game.state.scenes[&weakness].check.clone().unwrap();
    assert!(check.physical);
    assert_eq!((check.roll.hits(), check.outcome), (3, Outcome::Success));
    start_with_pairs(&mut game, force, leia, station, 3);
    game.check(3, force, 0);
    game.act(
        2,
        Action::EnterFaces {
            scene: force,
            faces: vec![6, 5, 4, 2],
        },
    );
    game.act(
        2,
        Action::Narrate {
            scene: force,
            text: "He let go.".into(),
        },
    );
    game.act(2, Action::FinishScene { scene: force });
    assert_eq!(game.state.scenes[&force].outcome(), Some(Outcome::Success));

    // The Finale: three pairs, and a reward die for each successful precursor.
    start_with_pairs(&mut game, finale, han, station, 3);
    let pool = game.state.pool(finale);
    assert_eq!(pool.len(), 5);
    assert_eq!(
        pool[3..],
        [
            PoolEntry::RewardDie {
                precursor: weakness.0
            },
            PoolEntry::RewardDie { precursor: force.0 }
        ]
    );
    game.check(1, finale, 0);
    let faces = [3, 6, 5, 1, 6, 2, 6, 4];
    faces_do_not_fit(
        &game,
        finale,
        &faces[..7],
        "7 faces are not enough: the pool and its explosions need more dice",
    );
    faces_do_not_fit(
        &game,
        finale,
        &[3, 6, 5, 1, 6, 2, 6, 4, 1],
        "9 faces given but the pool and its explosions use only 8",
    );
    faces_do_not_fit(
        &game,
        finale,
        &[3, 6, 5, 1, 6, 2, 6, 7],
        "face 7 (number 8) is not a face of a d6 (1–6)",
    );
    let events = game.act(
        3,
        Action::EnterFaces {
            scene: finale,
            faces: faces.to_vec(),
        },
    );
    let check = game.state.scenes[&finale].check.clone().expect("checked");
    assert_eq!(
        events,
        [Event::CheckMade {
            scene: finale,
            check: check.clone()
        }]
    );
    assert!(check.physical);
    assert_eq!(check.roll.seed, None);
    assert_eq!(check.roll.faces(), faces);
    assert_eq!(check.roll.pool(), pool);
    assert_eq!(check.roll.hits(), 5);
    assert_eq!(check.difficulty, 4);
    assert_eq!(check.outcome, Outcome::Success);
    assert!(!game.state.scenes[&finale].rolling);
    game.refuses(
        3,
        Action::EnterFaces {
            scene: finale,
            faces: faces.to_vec(),
        },
        Refusal::AlreadyChecked,
        "Checks",
    );
    // The record says the dice were real, and so does the export.
    let json = serde_json::to_value(&events[0]).unwrap();
    assert_eq!(json["check"]["physical"], true);
    let markdown = to_markdown(&game.state);
    assert!(
        markdown.contains(
            "**The check:** 5 dice in the pool against difficulty 4, rolled with real dice at the table and typed in."
        ),
        "{markdown}"
    );
}

#[test]
fn the_pool_is_frozen_while_the_table_rolls() {
    let Table {
        mut game,
        chars,
        primary,
        weaknesses,
        ..
    } = table(Ruleset::Edition10);
    game.carry(2, Motion::ChooseDice { physical: true }, 0);
    game.act(1, Action::StartScene { scene: primary });
    let trade = game.first_aspect(chars[0]);
    let pair = game.pair(1, primary, trade, weaknesses[0]);
    game.check(1, primary, 0);
    let rolling = |game: &Game, by: u32, action: Action| {
        game.refuses(by, action, Refusal::Rolling, "Checks");
    };
    rolling(
        &game,
        2,
        Action::ProposePair {
            scene: primary,
            character_aspect: game.first_aspect(chars[1]),
            environment_aspect: weaknesses[1],
            justification: String::new(),
        },
    );
    rolling(&game, 1, Action::WithdrawPair { pair });
    rolling(&game, 2, Action::AcceptPair { pair });
    rolling(&game, 2, Action::ObjectToPair { pair });
    rolling(&game, 2, propose(Motion::WithdrawPair { pair }));
    rolling(
        &game,
        2,
        propose(Motion::MakeCheck {
            scene: primary,
            accept_empty_pool: false,
        }),
    );
    rolling(&game, 3, propose(Motion::ChooseDice { physical: false }));
    // The dice are on the table: the story has begun.
    game.refuses(
        2,
        propose(Motion::ReturnToOutline),
        Refusal::StoryBegun,
        "Agreement",
    );
    // One pair, one die; a six adds one.
    game.act(
        3,
        Action::EnterFaces {
            scene: primary,
            faces: vec![6, 6, 2],
        },
    );
    let check = game.state.scenes[&primary].check.clone().unwrap();
    assert_eq!(check.roll.hits(), 2);
    assert!(check.physical);
    // Back to the server's dice for the next check.
    game.carry(3, Motion::ChooseDice { physical: false }, 0);
    assert!(!game.state.physical_dice);
}

/// Switching the table's dice is the table's choice: one player proposes, everyone agrees.
#[test]
fn switching_to_real_dice_is_a_proposal() {
    let Table { mut game, .. } = table(Ruleset::Edition10);
    let alone = serde_json::json!({"action": "choose_dice", "physical": true});
    assert!(serde_json::from_value::<Action>(alone).is_err());
    let real = Motion::ChooseDice { physical: true };
    game.act(1, propose(real));
    let proposal = game.open_proposal();
    let agree = Action::Agree {
        proposal,
        seed: dice::Seed(0),
    };
    game.act(2, agree.clone());
    assert!(!game.state.physical_dice, "two of three agreed");
    let events = game.act(3, agree);
    assert_eq!(events.last(), Some(&Event::DiceChosen { physical: true }));
    assert!(game.state.physical_dice);
    game.refuses(
        2,
        propose(real),
        Refusal::SameDice { physical: true },
        "Checks",
    );
    // "Not yet" keeps the dice as they are.
    game.act(2, propose(Motion::ChooseDice { physical: false }));
    let proposal = game.open_proposal();
    game.act(1, Action::Stop { proposal });
    assert!(game.state.physical_dice);
}
