//! Temporal Mechanics from the opening to the end: no prophecy, the PCs, the Setup act (the
//! flashback, timed, then the story tree), the Confrontation, the climax, and the Resolution
//! (the flashforward, timed).

use crate::game::Game;
use story::command::Action;
use story::export::to_markdown;
use story::ids::Timestamp;
use story::model::{AspectCategory, Motion, ObjectKind, Phase, Timed};
use story::{Event, Refusal, Ruleset};

#[test]
fn a_temporal_mechanics_game_from_the_opening_to_the_end() {
    let mut game = Game::open(Ruleset::Temporal);
    game.join(1, "Ada");
    game.join(2, "Bo");
    // Temporal Mechanics names no number of players.
    assert!(game.state.warnings().is_empty());
    assert_eq!(game.state.act(), None);
    assert_eq!(game.state.prophecy, None);

    // No prophecy: the flashback will be the catastrophe.
    game.advance(1, Phase::Characters);
    assert_eq!(game.state.act(), None);
    game.refuses(
        1,
        Action::NarrateFlashback {
            text: "Too soon.".into(),
        },
        Refusal::NotNow {
            what: "the flashback",
            when: "in the Setup act, once the PCs are created",
            phase: Phase::Characters,
        },
        "The four phases",
    );
    let ines = game.character(1, "Ines", None);
    let ravi = game.character(2, "Ravi", Some(ines));
    game.relationship(1, ines, ravi);
    let courier = game.object(2, "The courier", ObjectKind::Npc);
    game.aspect(2, courier, "Argumentative");

    // The Setup opens with the flashback scene, timed like any scene.
    game.now = 10_000;
    let events = game.advance(1, Phase::Outline);
    assert_eq!(
        events[events.len() - 2..],
        [
            Event::PhaseBegan {
                phase: Phase::Outline
            },
            Event::TimerStarted {
                timed: Timed::Flashback,
                at: Timestamp(10_000)
            },
        ]
    );
    assert_eq!(game.state.act(), Some("Setup"));
    assert_eq!(game.state.timer.unwrap().timed, Timed::Flashback);
    assert_eq!(
        game.state.timer_deadline(),
        Some(Timestamp(10_000 + 10 * 60_000))
    );
    game.refuses(
        1,
        Action::SketchFinale {
            objective: "Keep the reactor cool".into(),
        },
        Refusal::NoFlashback,
        "Temporal Mechanics",
    );
    game.act(
        2,
        Action::NarrateFlashback {
            text: "The sirens, the glare, the silence after.".into(),
        },
    );
    assert_eq!(game.state.timer, None, "the flashback is over");

    // The story tree: the climax and at least one scene upstream of it.
    let climax = game.finale(1, "Keep the reactor from going critical");
    assert_eq!(game.state.level(climax), "Climactic scene");
    game.refuses(
        1,
        Action::Propose {
            motion: Motion::Advance { to: Phase::Story },
            seed: dice::Seed(0),
        },
        Refusal::StoryTreeTooSmall,
        "Temporal Mechanics",
    );
    let delay = game.scene(2, climax, "Delay the courier's flight");
    let forge = game.scene(1, delay, "Forge the boarding pass");
    assert_eq!(game.state.level(delay), "Depth 1 scene");
    assert_eq!(game.state.level(forge), "Depth 2 scene");
    assert_eq!(game.state.scenes[&forge].difficulty, 2, "4 − depth");
    assert_eq!(game.state.act(), Some("Setup"));

    // The Confrontation: the story scenes.
    game.advance(2, Phase::Story);
    assert_eq!(game.state.act(), Some("Confrontation"));
    game.perform(1, forge, ines, courier, 2, 1);
    game.perform(2, delay, ravi, courier, 2, 2);
    assert_eq!(game.state.act(), Some("Confrontation"));
    game.perform(1, climax, ines, courier, 3, 3);

    // The climax done, the Resolution's flashforward begins, timed from the climax's end.
    let finished_at = Timestamp(1_700_000_000_000 + i64::from(climax.0));
    assert!(game.events.ends_with(&[
        Event::SceneFinished { scene: climax },
        Event::TimerStarted {
            timed: Timed::Flashforward,
            at: finished_at
        },
    ]));
    assert_eq!(game.state.phase, Phase::Story);
    assert_eq!(game.state.act(), Some("Resolution"));
    assert_eq!(game.state.timer.unwrap().timed, Timed::Flashforward);
    game.refuses(
        2,
        Action::Propose {
            motion: Motion::EndGame,
            seed: dice::Seed(0),
        },
        Refusal::NoFlashforward,
        "Temporal Mechanics",
    );
    game.act(
        1,
        Action::NarrateLongTermEffects {
            text: "A city that never learned the word meltdown.".into(),
        },
    );
    assert_eq!(game.state.timer, None, "the flashforward is over");
    game.end(2);
    assert_eq!(game.state.phase, Phase::Ended);
    assert_eq!(game.state.act(), Some("Resolution"));

    // The export speaks of a timeline and a story tree, not of a prophecy and an outline.
    let markdown = to_markdown(&game.state);
    assert!(markdown.starts_with("# A broken timeline"), "{markdown}");
    assert!(markdown.contains("## The Story Tree"));
    assert!(!markdown.contains("## The Prophecy"));
    assert!(markdown.contains("Climactic scene: Keep the reactor"));
}

#[test]
fn acts_by_phase() {
    let acts: Vec<Option<&str>> = [
        Phase::Prophecy,
        Phase::Characters,
        Phase::Outline,
        Phase::Story,
        Phase::Ended,
    ]
    .map(Phase::act)
    .into();
    assert_eq!(
        acts,
        [
            None,
            None,
            Some("Setup"),
            Some("Confrontation"),
            Some("Resolution")
        ]
    );
}

#[test]
fn refusals_speak_temporal_mechanics_words() {
    use story::model::Phase;
    let refusals = [
        Refusal::NoFinale,
        Refusal::FinaleExists,
        Refusal::TooDeep {
            parent_difficulty: 1,
        },
        Refusal::HasPrecursors,
        Refusal::PrecursorsNotPerformed {
            missing: vec!["Find the lab".into()],
        },
        Refusal::FinaleNotPerformed,
        Refusal::ProphecyLocked,
        Refusal::CharactersIncomplete {
            problems: vec!["Ada has no character".into()],
        },
        Refusal::NotTheNextPhase {
            from: Phase::Characters,
            to: Phase::Story,
        },
        Refusal::NotNow {
            what: "sketching scenes",
            when: "while writing the outline",
            phase: Phase::Story,
        },
        Refusal::NotNow {
            what: "performing scenes",
            when: "while telling the story",
            phase: Phase::Outline,
        },
        Refusal::CharacterStays,
    ];
    for refusal in refusals {
        let words = refusal.explain(Ruleset::Temporal);
        for other in [
            "Finale",
            "precursor",
            "prophecy",
            "outline",
            "Tell the Story",
        ] {
            assert!(!words.contains(other), "{words}");
        }
        let rule = refusal.rule_in(Ruleset::Temporal);
        assert!(
            !rule.contains("Outline") && !rule.contains("Prophecy"),
            "{rule}"
        );
        // The other rulesets keep theirs.
        assert_eq!(refusal.explain(Ruleset::Edition10), refusal.to_string());
    }
    assert_eq!(
        Refusal::NoFinale.explain(Ruleset::Temporal),
        "Sketch the climactic scene first."
    );
}

/// Temporal Mechanics has two kinds of characters, PCs and NPCs: a PC's relationship may be
/// with an NPC, so one player alone can finish their PC and go on to the Setup.
#[test]
fn a_pcs_relationship_may_be_with_an_npc_so_one_player_can_begin() {
    let mut game = Game::open(Ruleset::Temporal);
    game.join(1, "Ada");
    game.advance(1, Phase::Characters);
    let ines = game.character(1, "Ines", None);
    let place = game.object(1, "The dam", ObjectKind::Place);
    let refusal = game.refused(
        1,
        Action::AttachAspect {
            object: ines,
            text: "haunted by it".into(),
            category: Some(AspectCategory::Relationship { with: place }),
        },
    );
    assert_eq!(refusal, Refusal::RelationshipNeedsAnotherCharacter);
    assert_eq!(
        refusal.explain(Ruleset::Temporal),
        "A relationship connects the PC with another PC or an NPC."
    );
    let mentor = game.object(1, "Old Mags", ObjectKind::Npc);
    game.relationship(1, ines, mentor);
    game.advance(1, Phase::Outline);
    assert_eq!(game.state.phase, Phase::Outline);
    assert!(to_markdown(&game.state).contains("**Relationship** (with Old Mags): owes a debt"));
}

/// The rules prepare the warning in the Setup, after the flashback, and send it back when the
/// Confrontation begins: before the flashback it is refused, after the Setup it is fixed, and
/// both refusals speak Temporal Mechanics' words.
#[test]
fn the_warning_is_prepared_in_the_setup_after_the_flashback() {
    let mut game = Game::open(Ruleset::Temporal);
    game.join(1, "Ada");
    let roll = || Action::RollCatastrophe {
        world: crate::game::a_world(),
        seed: dice::Seed(7),
    };
    let write = |text: &str| Action::WriteProphecy { text: text.into() };
    game.refuses(
        1,
        roll(),
        Refusal::WarningAfterFlashback,
        "Temporal Mechanics",
    );
    game.advance(1, Phase::Characters);
    game.refuses(
        1,
        write("Too soon."),
        Refusal::WarningAfterFlashback,
        "Temporal Mechanics",
    );
    let ines = game.character(1, "Ines", None);
    let mentor = game.object(1, "Old Mags", ObjectKind::Npc);
    game.relationship(1, ines, mentor);
    game.advance(1, Phase::Outline);
    let refusal = game.refused(1, roll());
    assert_eq!(refusal, Refusal::WarningAfterFlashback);
    assert_eq!(
        refusal.explain(Ruleset::Temporal),
        "Temporal Mechanics prepares the warning in the Setup, once the flashback is told."
    );
    assert!(!game.state.prophecy_open());

    game.act(
        1,
        Action::NarrateFlashback {
            text: "The dam broke at noon.".into(),
        },
    );
    assert!(game.state.prophecy_open());
    game.act(1, roll());
    assert!(game.state.prophecy.is_some());
    game.act(1, write("Do not trust the engineer."));
    assert_eq!(
        game.state.prophecy.as_ref().map(|p| p.text.as_str()),
        Some("Do not trust the engineer.")
    );

    let climax = game.finale(1, "Hold the dam");
    game.scene(1, climax, "Find the engineer");
    game.advance(1, Phase::Story);
    assert!(!game.state.prophecy_open());
    let refusal = game.refused(1, write("Too late."));
    assert_eq!(refusal, Refusal::ProphecyLocked);
    assert_eq!(refusal.rule_in(Ruleset::Temporal), "Acts");
    assert_eq!(
        refusal.explain(Ruleset::Temporal),
        "The warning was sent back when the Confrontation began: it can no longer be changed."
    );
    assert_eq!(game.refused(1, roll()), Refusal::ProphecyLocked);
}
