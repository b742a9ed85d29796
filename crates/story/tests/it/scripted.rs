//! A complete game per ruleset, from the prophecy to the end.

use crate::game::{Game, MODERATOR, Table, a_world, moderated_table, table};
use dice::Seed;
use dice::check::{Cause, Outcome, PoolEntry};
use story::Ruleset;
use story::command::Action;
use story::content::Library;
use story::ids::{ObjectId, PlayerId};
use story::model::{Motion, ObjectKind, Phase, ProphecySource, Warning};

/// Players 2 and 3 join beside player 1, and all three create complete characters.
fn characters(game: &mut Game) -> [ObjectId; 3] {
    game.join(2, "Bo");
    game.join(3, "Cy");
    let a = game.character(1, "Wren", None);
    let b = game.character(2, "Tamsin", Some(a));
    let c = game.character(3, "Osric", Some(b));
    game.relationship(1, a, c);
    [a, b, c]
}

#[test]
fn edition_1_0_from_the_prophecy_to_the_end() {
    let mut game = Game::open(Ruleset::Edition10);
    game.join(1, "Ada");
    game.join(2, "Bo");
    assert_eq!(game.state.warnings(), [Warning::PlayerCount { players: 2 }]);
    game.join(3, "Cy");
    assert!(game.state.warnings().is_empty());
    game.act(
        2,
        Action::AddLine {
            text: "harm to animals".into(),
        },
    );

    // Receive the Prophecy: roll on a world's table; everyone sees the same d66.
    let world = a_world();
    game.act(
        1,
        Action::RollCatastrophe {
            world: world.clone(),
            seed: Seed(5),
        },
    );
    let prophecy = game.state.prophecy.clone().unwrap();
    let ProphecySource::Catastrophe { roll, .. } = prophecy.source else {
        panic!()
    };
    assert_eq!(roll, dice::d66::roll(Seed(5)));
    assert_eq!(prophecy.text, world.catastrophe(roll));
    game.advance(1, Phase::Characters);
    // Still editable until the outline starts.
    game.act(
        3,
        Action::WriteProphecy {
            text: format!("{} And the bells will fall silent.", prophecy.text),
        },
    );

    let a = game.character(1, "Wren", None);
    let b = game.character(2, "Tamsin", Some(a));
    let c = game.character(3, "Osric", Some(b));
    game.relationship(1, a, c);
    game.advance(2, Phase::Outline);

    // Write the Outline: the Finale first, then precursors one difficulty lower.
    let finale = game.finale(1, "Bind the Cinder Wyrm beneath the Ember Hills");
    let p1 = game.scene(2, finale, "Steal the binding-song from the Salt Hierophant");
    let p2 = game.scene(3, finale, "Rally the river-wardens");
    let s1 = game.scene(1, p1, "Find the hierophant's hidden vault");
    let t1 = game.scene(1, s1, "Bribe the vault's gatekeeper");
    let difficulties: Vec<u32> = [finale, p1, p2, s1, t1]
        .iter()
        .map(|s| game.state.scenes[s].difficulty)
        .collect();
    assert_eq!(difficulties, [4, 3, 3, 2, 1]);
    let vault = game.object(2, "The Hierophant's vault", ObjectKind::Place);
    game.act(
        2,
        Action::SetSetting {
            scene: s1,
            time: "midnight".into(),
            place: "the old quarter".into(),
        },
    );
    game.act(
        2,
        Action::PlaceObject {
            scene: s1,
            object: vault,
        },
    );
    game.advance(3, Phase::Story);

    // Tell the Story: only scenes whose precursors are performed are available.
    let mut available = game.state.available_scenes();
    available.sort();
    let mut expected = vec![p2, t1];
    expected.sort();
    assert_eq!(available, expected);

    let guard = game.object(1, "Gatekeeper", ObjectKind::Person);
    game.perform(1, t1, a, guard, 2, 11);
    game.perform(2, s1, b, vault, 2, 12);
    game.perform(3, p1, c, vault, 3, 13);
    game.perform(1, p2, a, guard, 3, 14);

    // The Finale's pool: its pairs first, then a reward die per successful precursor.
    let hills = game.object(2, "Ember Hills", ObjectKind::Place);
    game.perform(2, finale, b, hills, 4, 15);
    let check = game.state.scenes[&finale].check.clone().unwrap();
    let successes: Vec<u32> = [p1, p2]
        .iter()
        .filter(|p| game.state.scenes[p].outcome() == Some(Outcome::Success))
        .map(|p| p.0)
        .collect();
    let pool = check.roll.pool();
    assert_eq!(pool.len(), 4 + successes.len());
    assert!(
        pool[..4]
            .iter()
            .all(|e| matches!(e, PoolEntry::MatchingPair { .. }))
    );
    let rewards: Vec<u32> = pool[4..]
        .iter()
        .map(|e| match e {
            PoolEntry::RewardDie { precursor } => *precursor,
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(rewards, successes);
    assert_eq!(check.difficulty, 4);
    assert_eq!(check.outcome, check.roll.outcome(4));
    for die in &check.roll.dice {
        if let Cause::ExplodedFrom(i) = die.cause {
            assert_eq!(check.roll.dice[i].face, 6);
        }
    }

    game.act(
        3,
        Action::NarrateLongTermEffects {
            text: "The hills sleep; the songs are remembered.".into(),
        },
    );
    game.end(1);
    assert_eq!(game.state.phase, Phase::Ended);
    assert!(game.state.scenes.values().all(|s| s.performed));
}

#[test]
fn edition_1_1_has_a_moderator_and_a_finale_of_five() {
    let mut game = Game::open(Ruleset::Edition11);
    game.join(9, "Mo");
    game.carry(
        9,
        Motion::ChooseModerator {
            player: Some(PlayerId(9)),
        },
        0,
    );
    let library = Library::builtin();
    let module = library.modules[0].clone();
    game.act(
        9,
        Action::PickModule {
            module: module.clone(),
        },
    );
    assert_eq!(game.state.prophecy.as_ref().unwrap().text, module.prophecy);
    // The players agree to move on; the moderator may propose it, but does not vote.
    game.join(1, "Ada");
    game.join(2, "Bo");
    game.join(3, "Cy");
    game.advance(9, Phase::Characters);
    let a = game.character(1, "Wren", None);
    let b = game.character(2, "Tamsin", Some(a));
    let c = game.character(3, "Osric", Some(b));
    game.relationship(1, a, c);
    // The moderator plays no character and never narrates.
    assert_eq!(
        game.refused(
            9,
            Action::CreateCharacter {
                name: "Nope".into()
            }
        ),
        story::Refusal::ModeratorCannot {
            what: "play a character"
        }
    );
    game.advance(9, Phase::Outline);
    let finale = game.finale(1, "Stop the conjunction");
    let mut parent = finale;
    let mut chain = vec![finale];
    for level in 1..=4 {
        parent = game.scene(2, parent, &format!("Level {level}"));
        chain.push(parent);
    }
    let difficulties: Vec<u32> = chain
        .iter()
        .map(|s| game.state.scenes[s].difficulty)
        .collect();
    assert_eq!(difficulties, [5, 4, 3, 2, 1]);
    assert_eq!(
        game.refused(
            1,
            Action::SketchScene {
                parent,
                objective: "Too deep".into()
            }
        ),
        story::Refusal::TooDeep {
            parent_difficulty: 1
        }
    );
    game.advance(9, Phase::Story);
    let thing = game.object(1, "The orrery", ObjectKind::Thing);
    for (i, scene) in chain.iter().rev().enumerate() {
        let character = [a, b, c][i % 3];
        let by = [1, 2, 3][i % 3];
        game.perform(by, *scene, character, thing, 2, 100 + i as u64);
    }
    assert_eq!(
        game.refused(9, Action::NarrateLongTermEffects { text: "x".into() }),
        story::Refusal::ModeratorCannot { what: "narrate" }
    );
    game.act(
        1,
        Action::NarrateLongTermEffects {
            text: "The sky is quiet.".into(),
        },
    );
    game.advance(9, Phase::Ended);
    assert_eq!(game.state.phase, Phase::Ended);
}

#[test]
fn temporal_mechanics_three_acts_with_npcs() {
    let mut game = Game::open(Ruleset::Temporal);
    let library = Library::builtin();
    let world = library.worlds.iter().find(|w| w.temporal).unwrap().clone();
    game.join(1, "Ada");
    game.join(2, "Bo");
    game.join(3, "Cy");
    // No act yet: the PCs are created before the Setup.
    assert_eq!(game.state.phase.act(), None);
    assert_eq!(game.state.act(), None);
    game.advance(1, Phase::Characters);
    assert_eq!(game.state.act(), None);
    let a = game.character(1, "Ines", None);
    let b = game.character(2, "Ravi", Some(a));
    let c = game.character(3, "Jun", Some(b));
    game.relationship(1, a, c);
    let courier = game.object(2, "The courier", ObjectKind::Npc);
    game.aspect(2, courier, "Argumentative");
    game.advance(1, Phase::Outline);
    assert_eq!(game.state.act(), Some("Setup"));
    // The flashback comes before the story tree.
    assert_eq!(
        game.refused(
            1,
            Action::SketchFinale {
                objective: "Too soon".into()
            }
        ),
        story::Refusal::NoFlashback
    );
    game.act(
        2,
        Action::NarrateFlashback {
            text: "The sirens, the glare, the silence after.".into(),
        },
    );
    // Then a world's table gives the warning to send back, if the table wants one.
    game.act(
        1,
        Action::RollCatastrophe {
            world,
            seed: Seed(2071),
        },
    );
    let climax = game.finale(1, "Keep the reactor from going critical");
    let up1 = game.scene(2, climax, "Delay the courier's flight");
    let up2 = game.scene(3, up1, "Forge the boarding pass");
    let up3 = game.scene(3, up2, "Find the printer");
    assert_eq!(game.state.scenes[&up3].difficulty, 1, "4 − depth");
    assert!(matches!(
        game.refused(
            3,
            Action::SketchScene {
                parent: up3,
                objective: "depth 4".into()
            }
        ),
        story::Refusal::TooDeep { .. }
    ));
    game.advance(1, Phase::Story);
    assert_eq!(game.state.act(), Some("Confrontation"));
    game.perform(3, up3, c, courier, 1, 1);
    game.perform(3, up2, c, courier, 1, 2);
    game.perform(2, up1, b, courier, 2, 3);
    assert_eq!(game.state.act(), Some("Confrontation"));
    game.perform(1, climax, a, courier, 3, 4);
    assert_eq!(game.state.act(), Some("Resolution"));
    game.act(
        1,
        Action::NarrateLongTermEffects {
            text: "The flashforward: a city that never learned the word meltdown.".into(),
        },
    );
    game.end(2);
    assert_eq!(game.state.phase, Phase::Ended);
    assert_eq!(game.state.phase.act(), Some("Resolution"));
    assert_eq!(game.state.act(), Some("Resolution"));
}

#[test]
fn levels_and_the_advisory_timer() {
    let mut game = Game::open(Ruleset::Edition11);
    let [_, _, _] = cast_after_prophecy(&mut game);
    game.advance(1, Phase::Outline);
    let finale = game.finale(1, "F");
    let mut at = finale;
    let mut levels = vec![game.state.level(finale)];
    for _ in 0..4 {
        at = game.scene(1, at, "deeper");
        levels.push(game.state.level(at));
    }
    assert_eq!(
        levels,
        [
            "Finale",
            "Primary scene",
            "Secondary scene",
            "Tertiary scene",
            "Quaternary scene"
        ]
    );
    game.advance(1, Phase::Story);
    game.act_at(1, 1_000, Action::StartScene { scene: at });
    // Edition 1.1 scenes are ten minutes long.
    assert_eq!(
        game.state.timer_deadline(),
        Some(story::ids::Timestamp(1_000 + 600_000))
    );
    assert_eq!(Ruleset::Edition10.scene_minutes(), 8);
}

fn cast_after_prophecy(game: &mut Game) -> [ObjectId; 3] {
    game.join(1, "Ada");
    game.act(
        1,
        Action::WriteProphecy {
            text: "Doom.".into(),
        },
    );
    game.advance(1, Phase::Characters);
    characters(game)
}

/// The long-term effects are the Finale's epilogue, optional in editions 1.0 and 1.1: the game
/// ends once the Finale is performed.
#[test]
fn the_long_term_effects_are_optional_in_1_0_and_1_1() {
    for (ruleset, moderated) in [
        (Ruleset::Edition10, false),
        (Ruleset::Edition11, false),
        (Ruleset::Edition11, true),
    ] {
        let Table {
            mut game,
            chars,
            finale,
            primary,
            place,
            ..
        } = if moderated {
            moderated_table()
        } else {
            table(ruleset)
        };
        game.perform(1, primary, chars[0], place, 2, 1);
        game.perform(2, finale, chars[1], place, 3, 2);
        let ender = if moderated { MODERATOR } else { 3 };
        let events = game.end(ender);
        assert_eq!(events.last(), Some(&story::Event::GameEnded));
        assert_eq!(game.state.phase, Phase::Ended, "{ruleset}");
        assert_eq!(game.state.long_term_effects, None);
        // Once ended, nothing more is told.
        assert_eq!(
            game.refused(1, Action::NarrateLongTermEffects { text: "x".into() }),
            story::Refusal::GameOver
        );
    }
}
