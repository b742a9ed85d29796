//! Edition 1.1's moderator asks questions and keeps time: they never write the outline, the
//! objects, the aspects or the pairs, and never roll; they may replace a flagged text like anyone.

use crate::game::{Game, MODERATOR, Table, moderated_table, propose};
use story::command::Action;
use story::ids::{AspectId, ObjectId, PlayerId, SceneId};
use story::model::{Motion, ObjectKind, Phase, TextRef};
use story::{Refusal, Ruleset};

#[track_caller]
fn moderator_cannot(game: &Game, action: Action, what: &'static str) {
    game.refuses(
        MODERATOR,
        action,
        Refusal::ModeratorCannot { what },
        "The moderator",
    );
}

#[test]
fn the_moderator_does_not_write_the_outline_objects_or_aspects() {
    let mut game = outline_with_a_moderator();
    moderator_cannot(
        &game,
        Action::SketchFinale {
            objective: "x".into(),
        },
        "sketch scenes",
    );
    let finale = game.finale(1, "Stop the conjunction");
    let primary = game.scene(2, finale, "Read the stars");
    let tower = game.object(1, "The tower", ObjectKind::Place);
    let windy = game.aspect(2, tower, "Windy");
    game.act(
        1,
        Action::PlaceObject {
            scene: primary,
            object: tower,
        },
    );
    moderator_cannot_sketch_scenes(&game, finale, primary);
    moderator_cannot_write_objects(&game, tower);
    moderator_cannot_write_aspects(&game, tower, windy);
    moderator_cannot_place_objects(&game, finale, primary, tower);
    the_moderator_replaces_flagged_texts(&mut game, tower, windy, primary);
    assert_eq!(game.state.objects[&tower].name, "The old tower");
    assert_eq!(game.state.aspects[&windy].text, "Storm-lashed");
    // Once replaced, the text is the players' again.
    moderator_cannot(
        &game,
        Action::Rename {
            object: tower,
            name: "x".into(),
        },
        "rename objects",
    );
}

/// A table of Edition 1.1 with a moderator (Mo) and two players with their characters, in the
/// Outline phase.
fn outline_with_a_moderator() -> Game {
    // A table still writing its outline.
    let mut game = Game::open(Ruleset::Edition11);
    game.join(MODERATOR, "Mo");
    game.carry(
        MODERATOR,
        Motion::ChooseModerator {
            player: Some(PlayerId(MODERATOR)),
        },
        0,
    );
    game.join(1, "Ada");
    game.join(2, "Bo");
    game.act(
        1,
        Action::WriteProphecy {
            text: "Doom.".into(),
        },
    );
    game.advance(MODERATOR, Phase::Characters);
    let a = game.character(1, "Wren", None);
    let b = game.character(2, "Tamsin", Some(a));
    game.relationship(1, a, b);
    game.advance(MODERATOR, Phase::Outline);

    game
}

/// Write the Outline: the scenes are the players'.
fn moderator_cannot_sketch_scenes(game: &Game, finale: SceneId, primary: SceneId) {
    for action in [
        Action::SketchScene {
            parent: finale,
            objective: "x".into(),
        },
        Action::EditObjective {
            scene: primary,
            objective: "x".into(),
        },
        Action::RemoveScene { scene: primary },
        Action::SetSetting {
            scene: primary,
            time: "dusk".into(),
            place: "the roof".into(),
        },
    ] {
        moderator_cannot(game, action, "sketch scenes");
    }
}

/// The objects are the players'.
fn moderator_cannot_write_objects(game: &Game, tower: ObjectId) {
    moderator_cannot(
        game,
        Action::CreateObject {
            name: "x".into(),
            kind: ObjectKind::Thing,
        },
        "create objects",
    );
    moderator_cannot(
        game,
        Action::Rename {
            object: tower,
            name: "x".into(),
        },
        "rename objects",
    );
    moderator_cannot(
        game,
        Action::RemoveObject { object: tower },
        "remove objects",
    );
}

/// The aspects are the players'.
fn moderator_cannot_write_aspects(game: &Game, tower: ObjectId, windy: AspectId) {
    moderator_cannot(
        game,
        Action::AttachAspect {
            object: tower,
            text: "x".into(),
            category: None,
        },
        "attach aspects",
    );
    moderator_cannot(
        game,
        Action::EditAspect {
            aspect: windy,
            text: "x".into(),
        },
        "edit aspects",
    );
    moderator_cannot(
        game,
        Action::RemoveAspect { aspect: windy },
        "remove aspects",
    );
}

/// So is placing objects in scenes and withdrawing them.
fn moderator_cannot_place_objects(game: &Game, finale: SceneId, primary: SceneId, tower: ObjectId) {
    for action in [
        Action::PlaceObject {
            scene: finale,
            object: tower,
        },
        Action::WithdrawObject {
            scene: primary,
            object: tower,
        },
    ] {
        moderator_cannot(game, action, "place objects");
    }
}

/// A flagged text is replaced by anyone, the moderator included: a safety tool.
fn the_moderator_replaces_flagged_texts(
    game: &mut Game,
    tower: ObjectId,
    windy: AspectId,
    primary: SceneId,
) {
    for (target, replacement) in [
        (
            TextRef::ObjectName(tower),
            Action::Rename {
                object: tower,
                name: "The old tower".into(),
            },
        ),
        (
            TextRef::Aspect(windy),
            Action::EditAspect {
                aspect: windy,
                text: "Storm-lashed".into(),
            },
        ),
        (
            TextRef::Objective(primary),
            Action::EditObjective {
                scene: primary,
                objective: "Chart the conjunction".into(),
            },
        ),
        (
            TextRef::Setting(primary),
            Action::SetSetting {
                scene: primary,
                time: "midnight".into(),
                place: "the roof".into(),
            },
        ),
    ] {
        game.act(1, Action::Flag { target });
        game.act(MODERATOR, replacement);
        assert!(!game.state.paused(), "{target:?} replaced");
    }
}

#[test]
fn the_moderator_does_not_propose_or_judge_pairs_or_roll() {
    let Table {
        mut game,
        chars,
        primary,
        weaknesses,
        ..
    } = moderated_table();
    game.act(1, Action::StartScene { scene: primary });
    let trade = game.first_aspect(chars[0]);
    moderator_cannot(
        &game,
        Action::ProposePair {
            scene: primary,
            character_aspect: trade,
            environment_aspect: weaknesses[0],
            justification: String::new(),
        },
        "propose pairs",
    );
    let pair = game.pair(1, primary, trade, weaknesses[0]);
    for action in [
        Action::AcceptPair { pair },
        Action::ObjectToPair { pair },
        propose(Motion::WithdrawPair { pair }),
    ] {
        moderator_cannot(&game, action, "judge pairs");
    }
    moderator_cannot(
        &game,
        propose(Motion::MakeCheck {
            scene: primary,
            accept_empty_pool: false,
        }),
        "make checks",
    );
    // With real dice, the players type the faces in.
    game.carry(MODERATOR, Motion::ChooseDice { physical: true }, 0);
    game.check(2, primary, 0);
    assert!(game.state.scenes[&primary].rolling);
    moderator_cannot(
        &game,
        Action::EnterFaces {
            scene: primary,
            faces: vec![4],
        },
        "roll the dice",
    );
    game.act(
        2,
        Action::EnterFaces {
            scene: primary,
            faces: vec![4],
        },
    );
    moderator_cannot(
        &game,
        Action::Narrate {
            scene: primary,
            text: "x".into(),
        },
        "narrate",
    );
    // The moderator does not vote.
    assert!(!game.state.votes(PlayerId(MODERATOR)));
    assert_eq!(game.state.voters().len(), 3);
}

#[test]
fn a_flagged_question_is_replaced_by_anyone_when_the_moderator_is_gone() {
    let crate::game::Table { mut game, .. } = crate::game::moderated_table();
    game.act(
        crate::game::MODERATOR,
        story::command::Action::AskQuestion {
            text: "Who do you trust least?".into(),
        },
    );
    // A player asking a question of their own is not the moderator's job taken over…
    game.refuses(
        1,
        story::command::Action::AskQuestion {
            text: "Mine".into(),
        },
        story::Refusal::OnlyTheModeratorAsks,
        "The moderator",
    );
    game.act(
        2,
        story::command::Action::Flag {
            target: story::model::TextRef::Question,
        },
    );
    // The moderator leaves the table while play is paused (dismissing them is a proposal,
    // and proposals wait for the pause).
    game.act(
        1,
        story::command::Action::RemovePlayer {
            player: PlayerId(crate::game::MODERATOR),
        },
    );
    assert_eq!(game.state.moderator, None);
    assert!(game.state.paused());
    // …but a flagged one can be replaced by anyone, so the table is never stuck.
    game.act(
        1,
        story::command::Action::AskQuestion {
            text: "What would your character never do?".into(),
        },
    );
    assert!(!game.state.paused());
}

#[test]
fn the_moderator_may_replace_a_flagged_narration_but_never_narrate() {
    use story::command::Action;
    use story::model::TextRef;
    let crate::game::Table {
        mut game,
        chars,
        primary,
        place,
        ..
    } = crate::game::moderated_table();
    game.perform(1, primary, chars[0], place, 1, 3);
    let narrate = |text: &str| Action::Narrate {
        scene: primary,
        text: text.into(),
    };
    game.refuses(
        crate::game::MODERATOR,
        narrate("My version"),
        story::Refusal::ModeratorCannot { what: "narrate" },
        "The moderator",
    );
    game.act(
        2,
        Action::Flag {
            target: TextRef::Narration(primary),
        },
    );
    game.act(crate::game::MODERATOR, narrate("The chapel held."));
    assert!(!game.state.paused());
}

/// Who moderates is the table's choice: naming, changing and dismissing the moderator are
/// proposals, and the player named agrees like everyone (becoming the moderator costs them
/// their vote and their character).
#[test]
fn the_moderator_is_named_changed_and_dismissed_by_the_table() {
    use story::Event;
    let mut game = Game::open(Ruleset::Edition11);
    for (id, name) in [(1, "Ada"), (2, "Bo"), (3, "Cy")] {
        game.join(id, name);
    }
    // No player names the moderator alone: the page's old action is gone.
    let alone = serde_json::json!({"action": "choose_moderator", "player": 3});
    assert!(serde_json::from_value::<Action>(alone).is_err());

    // Ada proposes Cy; nothing changes until Cy and Bo agree.
    let cy = Motion::ChooseModerator {
        player: Some(PlayerId(3)),
    };
    game.act(1, propose(cy));
    let proposal = game.open_proposal();
    let agree = Action::Agree {
        proposal,
        seed: dice::Seed(0),
    };
    game.act(2, agree.clone());
    assert_eq!(game.state.moderator, None);
    let events = game.act(3, agree);
    assert_eq!(
        events,
        [
            Event::ProposalAgreed {
                proposal,
                by: PlayerId(3)
            },
            Event::ProposalCarried { proposal },
            // The event a stored game has always had for it.
            Event::ModeratorChosen {
                player: Some(PlayerId(3))
            },
        ]
    );
    assert_eq!(game.state.moderator, Some(PlayerId(3)));
    assert!(!game.state.votes(PlayerId(3)));

    // Changing the moderator: Bo must agree to take the seat; Cy, stepping down, gets her
    // vote back once it carries.
    game.refuses(
        1,
        propose(cy),
        Refusal::AlreadyTheModerator,
        "The moderator",
    );
    game.carry(
        3,
        Motion::ChooseModerator {
            player: Some(PlayerId(2)),
        },
        0,
    );
    assert_eq!(game.state.moderator, Some(PlayerId(2)));
    assert!(game.state.votes(PlayerId(3)));

    // Someone who makes a character while the table decides cannot be named: rechecked
    // when the proposal carries.
    game.act(
        1,
        Action::WriteProphecy {
            text: "Doom.".into(),
        },
    );
    game.advance(2, Phase::Characters);
    let ada = Motion::ChooseModerator {
        player: Some(PlayerId(1)),
    };
    game.act(2, propose(ada));
    let proposal = game.open_proposal();
    let agree = Action::Agree {
        proposal,
        seed: dice::Seed(0),
    };
    game.act(1, agree.clone());
    game.character(1, "Wren", None);
    game.refuses(3, agree, Refusal::ModeratorHasCharacter, "The moderator");
    game.act(3, Action::Stop { proposal });
    game.refuses(
        3,
        propose(ada),
        Refusal::ModeratorHasCharacter,
        "The moderator",
    );

    // Dismissed, with the players' agreement (the moderator may propose it too).
    game.carry(2, Motion::ChooseModerator { player: None }, 0);
    assert_eq!(game.state.moderator, None);
    game.refuses(
        1,
        propose(Motion::ChooseModerator { player: None }),
        Refusal::NoModeratorToDismiss,
        "The moderator",
    );
}

/// A moderator chosen by a game stored before naming one was a proposal (a lone
/// `moderator_chosen`) still moderates when the game loads.
#[test]
fn a_stored_moderator_chosen_alone_still_loads() {
    use story::{Event, State, StoredEvent};
    let stored = [
        r#"{"v":"1","type":"game_opened","ruleset":"1.1"}"#,
        r#"{"v":"1","type":"player_joined","player":1,"name":"Ada"}"#,
        r#"{"v":"1","type":"player_joined","player":2,"name":"Mo"}"#,
        r#"{"v":"1","type":"moderator_chosen","player":2}"#,
        r#"{"v":"1","type":"dice_chosen","physical":true}"#,
    ];
    let events: Vec<Event> = stored
        .iter()
        .map(|line| {
            serde_json::from_str::<StoredEvent>(line)
                .expect(line)
                .into_event()
        })
        .collect();
    let state = State::replay_checked(&events).unwrap();
    assert_eq!(state.moderator, Some(PlayerId(2)));
    assert!(state.physical_dice);
}
