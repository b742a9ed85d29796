//! Snapshots of the Markdown export and the outline views of a live game.

use crate::game::Game;
use expect_test::{expect, expect_file};
use story::Ruleset;
use story::command::Action;
use story::export::{outline_view, to_markdown};
use story::model::{ObjectKind, Phase, TextRef};
use story::views;

/// A short finished game with a flagged-and-replaced text, markup typed by a player, a line,
/// and explosions in a check.
fn short_game() -> Game {
    let mut game = Game::open(Ruleset::Edition10);
    game.join(1, "Ada");
    game.join(2, "Bo <b>");
    game.join(3, "Cy");
    game.act(
        1,
        Action::AddLine {
            text: "spiders".into(),
        },
    );
    game.act(
        1,
        Action::WriteProphecy {
            text: "When the *ninth* tide turns,\nthe lighthouse goes dark.".into(),
        },
    );
    game.advance(1, Phase::Characters);
    let a = game.character(1, "Wren", None);
    let b = game.character(2, "Tamsin", Some(a));
    let c = game.character(3, "Osric", Some(b));
    game.relationship(1, a, c);
    game.advance(1, Phase::Outline);
    let finale = game.finale(1, "Relight the lighthouse");
    let keeper = game.scene(2, finale, "Find the keeper");
    game.scene(3, finale, "Steal the lens");
    let cove = game.object(2, "Smugglers' cove", ObjectKind::Place);
    let hidden = game.aspect(2, cove, "<script>alert(1)</script> hidden paths");
    game.act(
        2,
        Action::SetSetting {
            scene: keeper,
            time: "dusk".into(),
            place: "the cove".into(),
        },
    );
    game.act(
        2,
        Action::PlaceObject {
            scene: keeper,
            object: cove,
        },
    );
    game.advance(1, Phase::Story);
    game.act_at(1, 1_000, Action::StartScene { scene: keeper });
    let trade = game.first_aspect(a);
    game.act(
        1,
        Action::ProposePair {
            scene: keeper,
            character_aspect: trade,
            environment_aspect: hidden,
            justification: "Wren knows coves".into(),
        },
    );
    let temper = game.state.aspects_of(b).nth(2).unwrap().0;
    game.act(
        2,
        Action::ProposePair {
            scene: keeper,
            character_aspect: temper,
            environment_aspect: hidden,
            justification: String::new(),
        },
    );
    game.act(
        3,
        Action::Flag {
            target: TextRef::Aspect(hidden),
        },
    );
    game.act(
        2,
        Action::EditAspect {
            aspect: hidden,
            text: "Hidden <paths>".into(),
        },
    );
    game.check(1, keeper, 4);
    game.act(
        3,
        Action::Narrate {
            scene: keeper,
            text: "They found the keeper asleep in the boat.".into(),
        },
    );
    game.act(3, Action::FinishScene { scene: keeper });
    game
}

#[test]
fn markdown_export_of_a_running_game() {
    let game = short_game();
    expect_file!["../data/export-short-game.md"].assert_eq(&to_markdown(&game.state));
}

#[test]
fn a_flagged_text_is_left_out_of_the_export() {
    let mut game = short_game();
    let keeper = game
        .state
        .scenes
        .iter()
        .find(|(_, s)| s.objective == "Find the keeper")
        .map(|(id, _)| *id)
        .unwrap();
    game.act(
        2,
        Action::Flag {
            target: TextRef::Narration(keeper),
        },
    );
    let markdown = to_markdown(&game.state);
    assert!(!markdown.contains("asleep in the boat"));
    assert!(markdown.contains("flagged: hidden until replaced"));
}

#[test]
fn live_outline_as_a_tree() {
    let game = short_game();
    let (_, scenes) = outline_view(&game.state);
    expect![[r#"
        Finale: Relight the lighthouse (4)
        ├── Find the keeper (3) — success
        └── Steal the lens (3) — available
    "#]]
    .assert_eq(&views::tree(&scenes));
}
