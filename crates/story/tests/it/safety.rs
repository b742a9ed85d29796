//! Safety tools: lines lifted only by their author, flagged texts replaced by anyone, the
//! X-card, and a log that does not say who used them.

use crate::game::{Game, Table, propose, table};
use dice::Seed;
use story::command::Action;
use story::ids::{LineId, PlayerId};
use story::model::{Motion, Phase, TextRef};
use story::redact::{LEFT_OUT, for_players};
use story::{Event, Refusal, Ruleset, State};

#[test]
fn a_line_is_lifted_only_by_whoever_drew_it() {
    let mut game = Game::open(Ruleset::Edition10);
    game.join(1, "Ada");
    game.join(2, "Bo");
    let events = game.act(
        2,
        Action::AddLine {
            text: "spiders".into(),
        },
    );
    let line = LineId(game.last_id());
    assert_eq!(
        events,
        [Event::LineAdded {
            line,
            text: "spiders".into(),
            by: Some(PlayerId(2)),
        }]
    );
    game.refuses(
        1,
        Action::RemoveLine { line },
        Refusal::NotYourLine,
        "Safety tools",
    );
    assert_eq!(
        game.act(2, Action::RemoveLine { line }),
        [Event::LineRemoved { line }]
    );
    assert!(game.state.lines.is_empty());
    game.refuses(
        2,
        Action::RemoveLine { line },
        Refusal::Unknown { what: "line" },
        "Limits",
    );
}

#[test]
fn a_line_from_before_lines_had_authors_can_be_lifted_by_anyone() {
    let events = [
        Event::GameOpened {
            ruleset: Ruleset::Edition10,
        },
        Event::PlayerJoined {
            player: PlayerId(1),
            name: "Ada".into(),
        },
        Event::LineAdded {
            line: LineId(1),
            text: "spiders".into(),
            by: None,
        },
    ];
    let mut game = Game::open(Ruleset::Edition10);
    game.state = State::replay(&events);
    game.act(1, Action::RemoveLine { line: LineId(1) });
}

#[test]
fn a_flagged_character_name_or_aspect_is_replaced_by_any_player() {
    let Table {
        mut game, chars, ..
    } = table(Ruleset::Edition10);
    let wren = chars[0];
    let rename = |name: &str| Action::Rename {
        object: wren,
        name: name.into(),
    };
    game.refuses(
        2,
        rename("Stolen"),
        Refusal::NotYourCharacter,
        "Create the Characters",
    );
    game.act(
        3,
        Action::Flag {
            target: TextRef::ObjectName(wren),
        },
    );
    assert!(game.state.paused());
    // Wren's player may be away: anyone replaces the flagged name, and play goes on.
    game.act(2, rename("Wren of the Reeds"));
    assert_eq!(game.state.objects[&wren].name, "Wren of the Reeds");
    assert!(!game.state.paused());
    // Only the flagged text: once replaced, the character is its player's again.
    game.refuses(
        2,
        rename("Stolen"),
        Refusal::NotYourCharacter,
        "Create the Characters",
    );
    let trade = game.first_aspect(wren);
    let edit = |text: &str| Action::EditAspect {
        aspect: trade,
        text: text.into(),
    };
    game.refuses(
        3,
        edit("Thief"),
        Refusal::NotYourCharacter,
        "Create the Characters",
    );
    game.act(
        2,
        Action::Flag {
            target: TextRef::Aspect(trade),
        },
    );
    game.act(3, edit("Ferrywoman"));
    assert_eq!(game.state.aspects[&trade].text, "Ferrywoman");
    assert!(!game.state.paused());
    game.refuses(
        3,
        edit("Thief"),
        Refusal::NotYourCharacter,
        "Create the Characters",
    );
}

#[test]
fn the_x_card_pauses_until_whoever_paused_resumes() {
    let mut game = Game::open(Ruleset::Edition10);
    for (id, name) in [(1, "Ada"), (2, "Bo"), (3, "Cy")] {
        game.join(id, name);
    }
    game.act(
        1,
        Action::WriteProphecy {
            text: "Doom.".into(),
        },
    );
    game.refuses(2, Action::Resume, Refusal::NotPaused, "Safety tools");
    assert_eq!(
        game.act(2, Action::Pause),
        [Event::TablePaused {
            by: Some(PlayerId(2))
        }]
    );
    assert!(game.state.paused());
    game.refuses(
        1,
        propose(Motion::Advance {
            to: Phase::Characters,
        }),
        Refusal::Paused,
        "Safety tools",
    );
    for by in [2, 3] {
        game.refuses(by, Action::Pause, Refusal::AlreadyPaused, "Safety tools");
    }
    game.refuses(1, Action::Resume, Refusal::NotYourPause, "Safety tools");
    assert_eq!(game.act(2, Action::Resume), [Event::TableResumed]);
    assert!(!game.state.paused());
    game.refuses(2, Action::Resume, Refusal::NotPaused, "Safety tools");

    // Anyone else asks the table to resume, and the table agrees.
    game.act(3, Action::Pause);
    game.act(1, propose(Motion::Resume));
    let proposal = game.open_proposal();
    game.act(
        2,
        Action::Agree {
            proposal,
            seed: Seed(0),
        },
    );
    assert!(game.state.paused(), "one still to agree");
    let events = game.act(
        3,
        Action::Agree {
            proposal,
            seed: Seed(0),
        },
    );
    assert_eq!(
        events[1..],
        [Event::ProposalCarried { proposal }, Event::TableResumed]
    );
    assert!(!game.state.paused());
    game.refuses(
        1,
        propose(Motion::Resume),
        Refusal::NotPaused,
        "Safety tools",
    );

    // Whoever paused may still resume while the table is deciding: the motion is moot.
    game.act(1, Action::Pause);
    game.act(2, propose(Motion::Resume));
    game.act(1, Action::Resume);
    assert!(!game.state.paused());
    assert_eq!(game.state.proposal, None);
    game.advance(1, Phase::Characters);
}

#[test]
fn the_log_for_players_does_not_say_who_drew_a_line_or_paused() {
    let Table {
        mut game, place, ..
    } = table(Ruleset::Edition10);
    game.act(
        2,
        Action::AddLine {
            text: "drowning".into(),
        },
    );
    game.act(3, Action::Pause);
    game.act(3, Action::Resume);
    game.act(
        1,
        Action::Rename {
            object: place,
            name: "The chapel of bones".into(),
        },
    );
    game.act(
        2,
        Action::Flag {
            target: TextRef::ObjectName(place),
        },
    );
    game.act(
        1,
        Action::Rename {
            object: place,
            name: "The quiet chapel".into(),
        },
    );
    // The record keeps the authors (only they may lift their line or resume at once)...
    assert!(game.events.contains(&Event::LineAdded {
        line: LineId(game.state.lines.keys().next().unwrap().0),
        text: "drowning".into(),
        by: Some(PlayerId(2)),
    }));
    assert!(game.events.contains(&Event::TablePaused {
        by: Some(PlayerId(3))
    }));
    // ...the players' copy does not, and leaves the flagged text out.
    let out = for_players(&game.events);
    assert_eq!(out.len(), game.events.len());
    for event in &out {
        match event {
            Event::LineAdded { by, .. } | Event::TablePaused { by } => assert_eq!(*by, None),
            Event::ObjectRenamed { name, .. } => {
                assert_ne!(name, "The chapel of bones", "flagged");
            }
            _ => {}
        }
    }
    assert!(out.contains(&Event::ObjectRenamed {
        object: place,
        name: LEFT_OUT.into()
    }));
    assert!(out.contains(&Event::TablePaused { by: None }));
    let json: Vec<String> = out
        .iter()
        .filter(|e| matches!(e, Event::LineAdded { .. } | Event::TablePaused { .. }))
        .map(|e| serde_json::to_string(e).unwrap())
        .collect();
    assert_eq!(json.len(), 2);
    for line in &json {
        assert!(!line.contains("\"by\""), "{line}");
    }
    // Every other event is as it was, and the copy replays to the same story.
    let changed = out.iter().zip(&game.events).filter(|(a, b)| a != b).count();
    assert_eq!(changed, 3, "the line, the pause and the flagged name");
    let replayed = State::replay(&out);
    assert_eq!(replayed.phase, game.state.phase);
    assert_eq!(replayed.lines, game.state.lines);
    assert_eq!(replayed.objects[&place].name, "The quiet chapel");
    assert!(replayed.line_authors.is_empty());
}
