//! Publishing the story and letting watchers in are the table's choice (a proposal);
//! withdrawing or closing is anyone's, at once and anonymously. The published page leaves
//! out the table's lines.

use crate::game::{Game, MODERATOR, Table, moderated_table, propose};
use dice::Seed;
use story::command::Action;
use story::export::{to_markdown, to_published_markdown};
use story::ids::PlayerId;
use story::model::{Motion, Phase};
use story::{Event, Refusal};

/// A moderated table that drew a line and told its story.
fn told() -> Game {
    let Table {
        mut game,
        chars,
        finale,
        primary,
        place,
        ..
    } = moderated_table();
    game.act(
        2,
        Action::AddLine {
            text: "Drowned children".into(),
        },
    );
    game.perform(1, primary, chars[0], place, 1, 3);
    game.perform(2, finale, chars[1], place, 2, 4);
    game.end(3);
    assert_eq!(game.state.phase, Phase::Ended);
    game
}

#[test]
fn the_table_publishes_the_story_once_everyone_agrees() {
    let mut game = told();
    // After the end, nothing else happens at the table.
    game.refuses(
        1,
        propose(Motion::ChooseDice { physical: true }),
        Refusal::GameOver,
        "The four phases",
    );
    // The moderator may propose it, but the players decide.
    game.act(MODERATOR, propose(Motion::Publish));
    let proposal = game.open_proposal();
    let agree = Action::Agree {
        proposal,
        seed: Seed(0),
    };
    game.act(1, agree.clone());
    game.act(2, agree.clone());
    assert!(!game.state.published, "Cy has not agreed");
    let events = game.act(3, agree);
    assert_eq!(
        events,
        [
            Event::ProposalAgreed {
                proposal,
                by: PlayerId(3)
            },
            Event::ProposalCarried { proposal },
            Event::StoryPublished,
        ]
    );
    assert!(game.state.published);
    game.refuses(
        1,
        propose(Motion::Publish),
        Refusal::AlreadyPublished,
        "The table",
    );

    // Anyone withdraws it at once, the moderator too; then it can be proposed again.
    assert_eq!(
        game.act(MODERATOR, Action::WithdrawStory),
        [Event::StoryWithdrawn]
    );
    assert!(!game.state.published);
    assert_eq!(
        game.act(2, Action::WithdrawStory),
        [],
        "nothing to withdraw"
    );
    game.act(1, propose(Motion::Publish));
    game.act(
        2,
        Action::Stop {
            proposal: game.open_proposal(),
        },
    );
    assert!(!game.state.published);
}

/// The table's lines name what the group asked to keep away: they stay in the players' own
/// copy of the story, never on the page for strangers.
#[test]
fn the_published_story_leaves_out_the_tables_lines() {
    let game = told();
    let own = to_markdown(&game.state);
    let published = to_published_markdown(&game.state);
    assert!(
        own.contains("## Lines") && own.contains("Drowned children"),
        "{own}"
    );
    assert!(!published.contains("Lines"), "{published}");
    assert!(!published.contains("Drowned children"), "{published}");
    // Everything else is the same story.
    let without_lines = own[..own.find("## Lines").unwrap()].to_owned();
    assert_eq!(published, without_lines);
}

/// Watchers come when the whole table agrees, during the game or once it is told (to replay
/// it); any player sends them away at once.
#[test]
fn the_table_lets_watchers_in_once_everyone_agrees_and_anyone_closes_the_link() {
    let Table { mut game, .. } = moderated_table();
    game.act(MODERATOR, propose(Motion::Watch));
    let proposal = game.open_proposal();
    let agree = Action::Agree {
        proposal,
        seed: Seed(0),
    };
    game.act(1, agree.clone());
    game.act(2, agree.clone());
    assert!(!game.state.watched, "Cy has not agreed");
    assert_eq!(
        game.act(3, agree),
        [
            Event::ProposalAgreed {
                proposal,
                by: PlayerId(3)
            },
            Event::ProposalCarried { proposal },
            Event::WatchOpened,
        ]
    );
    assert!(game.state.watched);
    game.refuses(
        1,
        propose(Motion::Watch),
        Refusal::AlreadyWatched,
        "The table",
    );
    assert_eq!(game.act(3, Action::CloseWatch), [Event::WatchClosed]);
    assert!(!game.state.watched);
    assert_eq!(game.act(1, Action::CloseWatch), [], "nothing to close");

    // Once the story is told, the table may still let watchers replay it.
    let mut game = told();
    game.act(1, propose(Motion::Watch));
    let proposal = game.open_proposal();
    for player in [2, 3] {
        game.act(
            player,
            Action::Agree {
                proposal,
                seed: Seed(0),
            },
        );
    }
    assert!(game.state.watched);
    assert_eq!(
        game.act(MODERATOR, Action::CloseWatch),
        [Event::WatchClosed]
    );
}
