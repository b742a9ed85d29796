//! Every rule violation is refused with the right refusal, and the message names the rule.

use crate::game::{Game, a_world, propose};
use dice::Seed;
use story::Refusal;
use story::Ruleset;
use story::command::Action;
use story::ids::{AspectId, ObjectId, PairId, SceneId};
use story::model::{AspectCategory, Motion, ObjectKind, Phase, TextRef};

/// A 1.0 game in the story phase: three characters, Finale ← primary ← secondary, a place
/// with two aspects in the secondary's setting, and the secondary started.
struct Fixture {
    game: Game,
    chars: [ObjectId; 3],
    finale: SceneId,
    primary: SceneId,
    secondary: SceneId,
    place: ObjectId,
    weak: AspectId,
    strong: AspectId,
}

fn fixture() -> Fixture {
    let mut game = Game::open(Ruleset::Edition10);
    game.join(1, "Ada");
    game.join(2, "Bo");
    game.join(3, "Cy");
    game.act(
        1,
        Action::WriteProphecy {
            text: "The tide will not turn.".into(),
        },
    );
    game.advance(1, Phase::Characters);
    let a = game.character(1, "Wren", None);
    let b = game.character(2, "Tamsin", Some(a));
    let c = game.character(3, "Osric", Some(b));
    game.relationship(1, a, c);
    game.advance(1, Phase::Outline);
    let finale = game.finale(1, "Turn the tide");
    let primary = game.scene(1, finale, "Wake the moon-bell");
    let secondary = game.scene(1, primary, "Find the bell-ringer");
    let place = game.object(2, "The drowned chapel", ObjectKind::Place);
    let weak = game.aspect(2, place, "Half-flooded");
    let strong = game.aspect(2, place, "Echoing");
    game.act(
        2,
        Action::PlaceObject {
            scene: secondary,
            object: place,
        },
    );
    game.advance(1, Phase::Story);
    game.act(1, Action::StartScene { scene: secondary });
    Fixture {
        game,
        chars: [a, b, c],
        finale,
        primary,
        secondary,
        place,
        weak,
        strong,
    }
}

#[track_caller]
fn check(game: &Game, by: u32, action: Action, expected: Refusal, rule: &str) {
    let refusal = game.refused(by, action);
    assert_eq!(refusal, expected);
    assert_eq!(refusal.rule(), rule, "{refusal}");
    assert!(refusal.to_string().ends_with('.'), "a sentence: {refusal}");
}

#[test]
fn the_table() {
    let mut game = Game::open(Ruleset::Edition10);
    check(
        &game,
        0,
        Action::Open {
            ruleset: Ruleset::Temporal,
        },
        Refusal::AlreadyOpened,
        "The table",
    );
    check(
        &game,
        5,
        Action::AddLine { text: "x".into() },
        Refusal::NotAtTable,
        "The table",
    );
    game.join(1, "Ada");
    check(
        &game,
        1,
        Action::Join {
            name: "Ada again".into(),
        },
        Refusal::AlreadyJoined,
        "The table",
    );
    check(
        &game,
        2,
        Action::Join { name: "   ".into() },
        Refusal::Empty { what: "name" },
        "Limits",
    );
    check(
        &game,
        2,
        Action::Join {
            name: "x".repeat(81),
        },
        Refusal::TooLong {
            what: "name",
            max: 80,
        },
        "Limits",
    );
    check(
        &game,
        1,
        propose(Motion::ChooseModerator { player: None }),
        Refusal::NoModerator {
            ruleset: Ruleset::Edition10,
        },
        "The moderator",
    );
    for n in 2..=12 {
        game.join(n, &format!("P{n}"));
    }
    check(
        &game,
        13,
        Action::Join {
            name: "One too many".into(),
        },
        Refusal::TooMany {
            what: "players",
            max: 12,
        },
        "Limits",
    );
    game.act(
        1,
        Action::RemovePlayer {
            player: story::ids::PlayerId(2),
        },
    );
    check(
        &game,
        2,
        Action::AddLine { text: "x".into() },
        Refusal::NotAtTable,
        "The table",
    );
    let unopened = story::State::default();
    assert_eq!(
        story::decide(
            &unopened,
            story::Command::new(story::ids::PlayerId(1), Action::Join { name: "x".into() })
        ),
        Err(Refusal::NotOpened)
    );
}

#[test]
fn phases_go_in_order_with_their_preconditions() {
    let mut game = Game::open(Ruleset::Edition10);
    game.join(1, "Ada");
    check(
        &game,
        1,
        propose(Motion::Advance {
            to: Phase::Characters,
        }),
        Refusal::NoProphecy,
        "Receive the Prophecy",
    );
    check(
        &game,
        1,
        propose(Motion::Advance { to: Phase::Outline }),
        Refusal::NotTheNextPhase {
            from: Phase::Prophecy,
            to: Phase::Outline,
        },
        "The four phases",
    );
    check(
        &game,
        1,
        Action::SketchFinale {
            objective: "x".into(),
        },
        Refusal::NotNow {
            what: "sketching scenes",
            when: "while writing the outline",
            phase: Phase::Prophecy,
        },
        "The four phases",
    );
    game.act(
        1,
        Action::RollCatastrophe {
            world: a_world(),
            seed: Seed(1),
        },
    );
    game.advance(1, Phase::Characters);
    check(
        &game,
        1,
        propose(Motion::Advance { to: Phase::Outline }),
        Refusal::CharactersIncomplete {
            problems: vec!["Ada has no character".into()],
        },
        "Create the Characters",
    );
    game.act(
        1,
        Action::CreateCharacter {
            name: "Wren".into(),
        },
    );
    let wren = ObjectId(game.last_id());
    game.act(
        1,
        Action::AttachAspect {
            object: wren,
            text: "Smuggler".into(),
            category: Some(AspectCategory::Occupation),
        },
    );
    check(
        &game,
        1,
        propose(Motion::Advance { to: Phase::Outline }),
        Refusal::CharactersIncomplete {
            problems: vec!["Wren lacks Physical or Mental Characteristic, Psychological Characteristic, Relationship, Affiliation".into()],
        },
        "Create the Characters",
    );
    check(
        &game,
        1,
        Action::RollCatastrophe {
            world: a_world(),
            seed: Seed(2),
        },
        Refusal::NotNow {
            what: "receiving the prophecy",
            when: "before the characters are created",
            phase: Phase::Characters,
        },
        "The four phases",
    );
}

#[test]
fn characters_and_aspects() {
    let f = fixture();
    let [a, b, _] = f.chars;
    check(
        &f.game,
        1,
        Action::CreateCharacter {
            name: "Second".into(),
        },
        Refusal::AlreadyHasCharacter,
        "Create the Characters",
    );
    check(
        &f.game,
        2,
        Action::Rename {
            object: a,
            name: "Stolen".into(),
        },
        Refusal::NotYourCharacter,
        "Create the Characters",
    );
    check(
        &f.game,
        1,
        Action::AttachAspect {
            object: f.place,
            text: "x".into(),
            category: Some(AspectCategory::Occupation),
        },
        Refusal::CategoryForCharactersOnly,
        "Create the Characters",
    );
    check(
        &f.game,
        1,
        Action::AttachAspect {
            object: a,
            text: "x".into(),
            category: Some(AspectCategory::Relationship { with: a }),
        },
        Refusal::RelationshipNeedsAnotherCharacter,
        "Create the Characters",
    );
    check(
        &f.game,
        1,
        Action::AttachAspect {
            object: a,
            text: "x".into(),
            category: Some(AspectCategory::Relationship { with: f.place }),
        },
        Refusal::RelationshipNeedsAnotherCharacter,
        "Create the Characters",
    );
    check(
        &f.game,
        1,
        Action::CreateObject {
            name: "x".into(),
            kind: ObjectKind::Npc,
        },
        Refusal::NpcsOnlyInTemporal,
        "Temporal Mechanics",
    );
    check(
        &f.game,
        1,
        Action::CreateObject {
            name: "x".into(),
            kind: ObjectKind::Character { player: None },
        },
        Refusal::UseCreateCharacter,
        "Create the Characters",
    );
    check(
        &f.game,
        2,
        Action::RemoveObject { object: b },
        Refusal::CharacterStays,
        "Create the Characters",
    );
    check(
        &f.game,
        1,
        Action::AttachAspect {
            object: a,
            text: "x".repeat(121),
            category: None,
        },
        Refusal::TooLong {
            what: "aspect",
            max: 120,
        },
        "Limits",
    );
    check(
        &f.game,
        1,
        Action::EditAspect {
            aspect: AspectId(9999),
            text: "x".into(),
        },
        Refusal::Unknown { what: "aspect" },
        "Limits",
    );
    check(
        &f.game,
        1,
        Action::WriteProphecy { text: "new".into() },
        Refusal::ProphecyLocked,
        "Receive the Prophecy",
    );
}

#[test]
fn the_outline() {
    let f = fixture();
    check(
        &f.game,
        1,
        Action::SketchScene {
            parent: f.primary,
            objective: "late".into(),
        },
        Refusal::NotNow {
            what: "sketching scenes",
            when: "while writing the outline",
            phase: Phase::Story,
        },
        "The four phases",
    );
    let mut game = Game::open(Ruleset::Edition10);
    game.join(1, "Ada");
    game.act(
        1,
        Action::WriteProphecy {
            text: "Doom.".into(),
        },
    );
    game.advance(1, Phase::Characters);
    let a = game.character(1, "Wren", None);
    game.join(2, "Bo");
    let b = game.character(2, "Tamsin", Some(a));
    game.relationship(1, a, b);
    game.advance(1, Phase::Outline);
    check(
        &game,
        1,
        propose(Motion::Advance { to: Phase::Story }),
        Refusal::NoFinale,
        "Write the Outline",
    );
    let finale = game.finale(1, "Stop it");
    check(
        &game,
        1,
        Action::SketchFinale {
            objective: "Another".into(),
        },
        Refusal::FinaleExists,
        "Write the Outline",
    );
    let p = game.scene(1, finale, "Primary");
    let s = game.scene(1, p, "Secondary");
    let t = game.scene(1, s, "Tertiary");
    check(
        &game,
        1,
        Action::SketchScene {
            parent: t,
            objective: "Quaternary".into(),
        },
        Refusal::TooDeep {
            parent_difficulty: 1,
        },
        "Write the Outline",
    );
    check(
        &game,
        1,
        Action::RemoveScene { scene: s },
        Refusal::HasPrecursors,
        "Write the Outline",
    );
    game.act(1, Action::RemoveScene { scene: t });
    assert!(!game.state.scenes[&s].precursors.contains(&t));
    check(
        &game,
        1,
        Action::SketchScene {
            parent: SceneId(999),
            objective: "x".into(),
        },
        Refusal::Unknown { what: "scene" },
        "Limits",
    );
    // More than eight scenes is a warning, not a refusal.
    for i in 0..7 {
        game.scene(1, finale, &format!("Extra {i}"));
    }
    assert_eq!(
        game.state.warnings(),
        [
            story::model::Warning::PlayerCount { players: 2 },
            story::model::Warning::LongOutline { scenes: 10 }
        ]
    );
}

#[test]
fn telling_the_story() {
    let mut f = fixture();
    let [a, b, _] = f.chars;
    let occupation = f.game.first_aspect(a);
    let other_character = f.game.first_aspect(b);
    check(
        &f.game,
        1,
        Action::StartScene { scene: f.primary },
        Refusal::AnotherSceneInProgress {
            objective: "Find the bell-ringer".into(),
        },
        "Tell the Story",
    );
    pairs_of_aspects_that_do_not_match(&mut f, occupation, other_character);
    no_check_before_its_pairs(&f);
    let pair = a_pair_in_use(&mut f, occupation);
    one_check_a_scene(&mut f, pair);
    one_performance_a_scene(&mut f);
}

/// Matching Aspects: a pair is one character aspect and one aspect of the scene's setting.
fn pairs_of_aspects_that_do_not_match(
    f: &mut Fixture,
    occupation: AspectId,
    other_character: AspectId,
) {
    check(
        &f.game,
        1,
        Action::ProposePair {
            scene: f.secondary,
            character_aspect: occupation,
            environment_aspect: other_character,
            justification: String::new(),
        },
        Refusal::PairOfOneKind { characters: true },
        "Matching Aspects",
    );
    check(
        &f.game,
        1,
        Action::ProposePair {
            scene: f.secondary,
            character_aspect: f.weak,
            environment_aspect: f.strong,
            justification: String::new(),
        },
        Refusal::PairOfOneKind { characters: false },
        "Matching Aspects",
    );
    let elsewhere = f.game.object(1, "A far island", ObjectKind::Place);
    let far = f.game.aspect(1, elsewhere, "Distant");
    check(
        &f.game,
        1,
        Action::ProposePair {
            scene: f.secondary,
            character_aspect: occupation,
            environment_aspect: far,
            justification: String::new(),
        },
        Refusal::NotInScene {
            object: "A far island".into(),
        },
        "Matching Aspects",
    );
}

/// Checks: a scene is checked before it finishes, and a check needs pairs (or the table's
/// word that it may roll none).
fn no_check_before_its_pairs(f: &Fixture) {
    check(
        &f.game,
        1,
        Action::FinishScene { scene: f.secondary },
        Refusal::NotChecked,
        "Checks",
    );
    check(
        &f.game,
        1,
        propose(Motion::MakeCheck {
            scene: f.secondary,
            accept_empty_pool: false,
        }),
        Refusal::EmptyPool,
        "Checks",
    );
}

/// Matching Aspects: a pair proposed is not proposed again, either way round, and what it uses
/// stays while it stands. Returns the pair.
fn a_pair_in_use(f: &mut Fixture, occupation: AspectId) -> PairId {
    f.game.act(
        1,
        Action::ProposePair {
            scene: f.secondary,
            character_aspect: occupation,
            environment_aspect: f.weak,
            justification: "Wren knows tides".into(),
        },
    );
    let pair = PairId(f.game.last_id());
    // The same pair again, either way round, is a duplicate.
    check(
        &f.game,
        2,
        Action::ProposePair {
            scene: f.secondary,
            character_aspect: occupation,
            environment_aspect: f.weak,
            justification: String::new(),
        },
        Refusal::DuplicatePair,
        "Matching Aspects",
    );
    check(
        &f.game,
        2,
        Action::ProposePair {
            scene: f.secondary,
            character_aspect: f.weak,
            environment_aspect: occupation,
            justification: String::new(),
        },
        Refusal::DuplicatePair,
        "Matching Aspects",
    );
    check(
        &f.game,
        2,
        Action::RemoveAspect { aspect: f.weak },
        Refusal::UsedInPair,
        "Matching Aspects",
    );
    check(
        &f.game,
        2,
        Action::WithdrawObject {
            scene: f.secondary,
            object: f.place,
        },
        Refusal::UsedInPair,
        "Matching Aspects",
    );
    pair
}

/// Checks: a scene is checked once, and its pairs stay once it has been.
fn one_check_a_scene(f: &mut Fixture, pair: PairId) {
    f.game.check(1, f.secondary, 3);
    check(
        &f.game,
        1,
        propose(Motion::MakeCheck {
            scene: f.secondary,
            accept_empty_pool: false,
        }),
        Refusal::AlreadyChecked,
        "Checks",
    );
    check(
        &f.game,
        1,
        Action::WithdrawPair { pair },
        Refusal::AlreadyChecked,
        "Checks",
    );
}

/// Tell the Story: a scene finishes once narrated, is performed once, and the Finale waits for
/// its precursors, as the long-term effects and the end of the game wait for the Finale.
fn one_performance_a_scene(f: &mut Fixture) {
    check(
        &f.game,
        1,
        Action::FinishScene { scene: f.secondary },
        Refusal::NoNarration,
        "Tell the Story",
    );
    f.game.act(
        3,
        Action::Narrate {
            scene: f.secondary,
            text: "They found her.".into(),
        },
    );
    f.game.act(3, Action::FinishScene { scene: f.secondary });
    check(
        &f.game,
        1,
        Action::StartScene { scene: f.secondary },
        Refusal::AlreadyPerformed,
        "Tell the Story",
    );
    check(
        &f.game,
        1,
        Action::StartScene { scene: f.finale },
        Refusal::PrecursorsNotPerformed {
            missing: vec!["Wake the moon-bell".into()],
        },
        "Tell the Story",
    );
    check(
        &f.game,
        1,
        Action::NarrateLongTermEffects { text: "x".into() },
        Refusal::FinaleNotPerformed,
        "Tell the Story",
    );
    check(
        &f.game,
        1,
        propose(Motion::EndGame),
        Refusal::FinaleNotPerformed,
        "Tell the Story",
    );
    check(
        &f.game,
        1,
        Action::EditObjective {
            scene: f.secondary,
            objective: "x".into(),
        },
        Refusal::AlreadyPerformed,
        "Tell the Story",
    );
}

#[test]
fn flags_hide_text_and_pause_play_until_replaced() {
    let mut f = fixture();
    let events = f.game.act_at(
        2,
        5_000,
        Action::Flag {
            target: TextRef::Aspect(f.weak),
        },
    );
    // The event does not say who flagged; the scene's timer stops while play is paused.
    assert_eq!(
        events,
        [
            story::Event::Flagged {
                target: TextRef::Aspect(f.weak)
            },
            story::Event::TimerStopped {
                at: story::ids::Timestamp(5_000)
            }
        ]
    );
    assert!(f.game.state.paused());
    check(
        &f.game,
        1,
        Action::Flag {
            target: TextRef::Aspect(f.weak),
        },
        Refusal::AlreadyFlagged,
        "Safety tools",
    );
    check(
        &f.game,
        1,
        Action::Flag {
            target: TextRef::Narration(f.finale),
        },
        Refusal::Unknown { what: "text" },
        "Limits",
    );
    let occupation = f.game.first_aspect(f.chars[0]);
    f.game.act(
        1,
        Action::ProposePair {
            scene: f.secondary,
            character_aspect: occupation,
            environment_aspect: f.strong,
            justification: String::new(),
        },
    );
    check(
        &f.game,
        1,
        propose(Motion::MakeCheck {
            scene: f.secondary,
            accept_empty_pool: false,
        }),
        Refusal::Paused,
        "Safety tools",
    );
    f.game.act(
        3,
        Action::EditAspect {
            aspect: f.weak,
            text: "Rising water".into(),
        },
    );
    assert!(!f.game.state.paused());
    f.game.check(1, f.secondary, 1);
}

#[test]
fn an_empty_pool_is_a_failure_once_accepted() {
    let mut f = fixture();
    f.game.carry(
        1,
        Motion::MakeCheck {
            scene: f.secondary,
            accept_empty_pool: true,
        },
        1,
    );
    let check = f.game.state.scenes[&f.secondary].check.clone().unwrap();
    assert!(check.roll.dice.is_empty());
    assert_eq!(check.outcome, dice::check::Outcome::Failure);
}

/// A flagged text can always be replaced, whatever the phase, or play would stay paused.
#[test]
fn a_flagged_text_can_be_replaced_in_any_phase() {
    let mut f = fixture();
    let occupation = f.game.first_aspect(f.chars[0]);
    f.game.act(
        1,
        Action::ProposePair {
            scene: f.secondary,
            character_aspect: occupation,
            environment_aspect: f.weak,
            justification: "tides".into(),
        },
    );
    let pair = PairId(f.game.last_id());
    f.game.check(1, f.secondary, 2);
    f.game.act(
        2,
        Action::Narrate {
            scene: f.secondary,
            text: "Done.".into(),
        },
    );
    f.game.act(2, Action::FinishScene { scene: f.secondary });
    // Outside their usual phases, these are refused...
    check(
        &f.game,
        1,
        Action::WriteProphecy { text: "x".into() },
        Refusal::ProphecyLocked,
        "Receive the Prophecy",
    );
    check(
        &f.game,
        1,
        Action::EditJustification {
            pair,
            justification: "x".into(),
        },
        Refusal::AlreadyChecked,
        "Checks",
    );
    check(
        &f.game,
        1,
        Action::EditObjective {
            scene: f.secondary,
            objective: "x".into(),
        },
        Refusal::AlreadyPerformed,
        "Tell the Story",
    );
    // ...but a flag makes them a replacement, which is always possible.
    for (target, replacement) in [
        (
            TextRef::Prophecy,
            Action::WriteProphecy {
                text: "The tide turns back.".into(),
            },
        ),
        (
            TextRef::Justification(pair),
            Action::EditJustification {
                pair,
                justification: "Wren reads the water.".into(),
            },
        ),
        (
            TextRef::Objective(f.secondary),
            Action::EditObjective {
                scene: f.secondary,
                objective: "Find the ringer".into(),
            },
        ),
        (
            TextRef::Setting(f.secondary),
            Action::SetSetting {
                scene: f.secondary,
                time: "dawn".into(),
                place: "the shore".into(),
            },
        ),
    ] {
        f.game.act(3, Action::Flag { target });
        assert!(f.game.state.paused());
        f.game.act(1, replacement);
        assert!(!f.game.state.paused(), "{target:?} replaced");
    }
    assert_eq!(
        f.game.state.pairs[&pair].justification,
        "Wren reads the water."
    );
}
