//! The advisory scene timer: it stops while play is paused and counts on after; the moderator
//! (or, without one, anyone) holds, extends and resets it; the moderator asks the questions.

use crate::game::{MODERATOR, Table, moderated_table, table};
use story::command::Action;
use story::ids::{PlayerId, Timestamp};
use story::model::{Motion, TextRef, Timed};
use story::{Event, Refusal, Ruleset};

/// Milliseconds in a minute.
const MINUTE: i64 = 60_000;

#[test]
fn the_timer_stops_while_play_is_paused() {
    let Table {
        mut game,
        primary,
        weaknesses,
        ..
    } = table(Ruleset::Edition10);
    let minutes = Ruleset::Edition10.scene_minutes();
    assert_eq!(minutes, 8);
    assert_eq!(game.state.timer, None);
    assert_eq!(game.state.timer_deadline(), None);
    game.act_at(1, 1_000, Action::StartScene { scene: primary });
    let timer = game.state.timer.unwrap();
    assert_eq!(timer.timed, Timed::Scene(primary));
    assert_eq!(timer.remaining_ms(minutes, Timestamp(1_000)), 8 * MINUTE);
    assert_eq!(timer.remaining_ms(minutes, Timestamp(61_000)), 7 * MINUTE);
    assert_eq!(
        game.state.timer_deadline(),
        Some(Timestamp(1_000 + 8 * MINUTE))
    );

    // The X-card at one minute: the timer stops, and the time left stays at seven minutes.
    assert_eq!(
        game.act_at(2, 61_000, Action::Pause),
        [
            Event::TablePaused {
                by: Some(PlayerId(2))
            },
            Event::TimerStopped {
                at: Timestamp(61_000)
            },
        ]
    );
    let timer = game.state.timer.unwrap();
    for now in [61_000, 100_000, 10 * MINUTE, 100 * MINUTE] {
        assert_eq!(timer.remaining_ms(minutes, Timestamp(now)), 7 * MINUTE);
    }
    assert_eq!(
        game.state.timer_deadline(),
        None,
        "no deadline while stopped"
    );

    // Resumed a hundred seconds later: it counts on from seven minutes.
    assert_eq!(
        game.act_at(2, 161_000, Action::Resume),
        [
            Event::TableResumed,
            Event::TimerCounting {
                at: Timestamp(161_000)
            },
        ]
    );
    let timer = game.state.timer.unwrap();
    assert_eq!(timer.remaining_ms(minutes, Timestamp(161_000)), 7 * MINUTE);
    assert_eq!(
        timer.remaining_ms(minutes, Timestamp(171_000)),
        7 * MINUTE - 10_000
    );
    assert_eq!(
        game.state.timer_deadline(),
        Some(Timestamp(161_000 + 7 * MINUTE))
    );

    // A flag pauses play too: the timer stops until the text is replaced.
    let flagged = weaknesses[0];
    let events = game.act_at(
        3,
        221_000,
        Action::Flag {
            target: TextRef::Aspect(flagged),
        },
    );
    assert_eq!(
        events.last(),
        Some(&Event::TimerStopped {
            at: Timestamp(221_000)
        })
    );
    let left = 7 * MINUTE - 60_000;
    assert_eq!(
        game.state
            .timer
            .unwrap()
            .remaining_ms(minutes, Timestamp(500_000)),
        left
    );
    let events = game.act_at(
        1,
        281_000,
        Action::EditAspect {
            aspect: flagged,
            text: "Flooded".into(),
        },
    );
    assert_eq!(
        events.last(),
        Some(&Event::TimerCounting {
            at: Timestamp(281_000)
        })
    );
    assert_eq!(
        game.state
            .timer
            .unwrap()
            .remaining_ms(minutes, Timestamp(281_000)),
        left
    );
    // Past the deadline the time left is negative: the timer never stops play.
    let deadline = game.state.timer_deadline().unwrap();
    assert_eq!(deadline, Timestamp(281_000 + left));
    assert_eq!(
        game.state
            .timer
            .unwrap()
            .remaining_ms(minutes, Timestamp(deadline.0 + 5_000)),
        -5_000
    );
    // Finishing the scene ends its timer.
    game.carry(
        1,
        Motion::MakeCheck {
            scene: primary,
            accept_empty_pool: true,
        },
        0,
    );
    game.act(
        2,
        Action::Narrate {
            scene: primary,
            text: "The bell stayed silent.".into(),
        },
    );
    game.act(2, Action::FinishScene { scene: primary });
    assert_eq!(game.state.timer, None);
}

#[test]
fn without_a_moderator_anyone_keeps_time() {
    let Table {
        mut game, primary, ..
    } = table(Ruleset::Edition10);
    game.refuses(1, Action::HoldTimer, Refusal::NoTimer, "Time limits");
    game.act_at(1, 0, Action::StartScene { scene: primary });
    assert_eq!(
        game.act_at(3, MINUTE, Action::HoldTimer),
        [
            Event::TimerHeld,
            Event::TimerStopped {
                at: Timestamp(MINUTE)
            }
        ]
    );
    // Holding a held timer changes nothing.
    assert_eq!(game.act(2, Action::HoldTimer), []);
    // A pause and its end leave a held timer stopped.
    game.act_at(1, 2 * MINUTE, Action::Pause);
    assert_eq!(
        game.act_at(1, 3 * MINUTE, Action::Resume),
        [Event::TableResumed]
    );
    assert!(game.state.timer.unwrap().stopped_since.is_some());
    assert_eq!(
        game.act_at(2, 4 * MINUTE, Action::ReleaseTimer),
        [
            Event::TimerReleased,
            Event::TimerCounting {
                at: Timestamp(4 * MINUTE)
            }
        ]
    );
    assert_eq!(game.act(2, Action::ReleaseTimer), []);
    // Held three minutes: eight minutes from the start, plus three.
    assert_eq!(game.state.timer_deadline(), Some(Timestamp(11 * MINUTE)));
    game.act(1, Action::ExtendTimer { minutes: 2 });
    assert_eq!(game.state.timer_deadline(), Some(Timestamp(13 * MINUTE)));
    game.act_at(3, 5 * MINUTE, Action::ResetTimer);
    assert_eq!(game.state.timer_deadline(), Some(Timestamp(13 * MINUTE)));
    // Without a moderator, nobody asks the questions.
    game.refuses(
        1,
        Action::AskQuestion {
            text: "Who holds the key?".into(),
        },
        Refusal::OnlyTheModeratorAsks,
        "The moderator",
    );
}

#[test]
fn the_moderator_keeps_time_and_asks_the_questions() {
    let Table {
        mut game, primary, ..
    } = moderated_table();
    let minutes = Ruleset::Edition11.scene_minutes();
    assert_eq!(minutes, 10);
    // Nothing timed yet; players are told the moderator keeps time.
    game.refuses(
        MODERATOR,
        Action::HoldTimer,
        Refusal::NoTimer,
        "Time limits",
    );
    game.refuses(
        1,
        Action::HoldTimer,
        Refusal::ModeratorKeepsTime,
        "The moderator",
    );
    game.act_at(1, 0, Action::StartScene { scene: primary });
    for action in [
        Action::HoldTimer,
        Action::ReleaseTimer,
        Action::ExtendTimer { minutes: 5 },
        Action::ResetTimer,
    ] {
        game.refuses(2, action, Refusal::ModeratorKeepsTime, "The moderator");
    }
    // Held at one minute: nine left, however long it is held.
    game.act_at(MODERATOR, MINUTE, Action::HoldTimer);
    let left = |game: &crate::game::Game, now: i64| {
        game.state
            .timer
            .unwrap()
            .remaining_ms(minutes, Timestamp(now))
    };
    assert_eq!(left(&game, MINUTE), 9 * MINUTE);
    assert_eq!(left(&game, 30 * MINUTE), 9 * MINUTE);
    // Extended by five minutes: fourteen left.
    assert_eq!(
        game.act(MODERATOR, Action::ExtendTimer { minutes: 5 }),
        [Event::TimerExtended { minutes: 5 }]
    );
    assert_eq!(left(&game, 30 * MINUTE), 14 * MINUTE);
    for minutes in [0, 31] {
        game.refuses(
            MODERATOR,
            Action::ExtendTimer { minutes },
            Refusal::BadExtension { max: 30 },
            "Time limits",
        );
    }
    // Released at two minutes: fourteen left from then.
    game.act_at(MODERATOR, 2 * MINUTE, Action::ReleaseTimer);
    assert_eq!(game.state.timer_deadline(), Some(Timestamp(16 * MINUTE)));
    assert_eq!(left(&game, 4 * MINUTE), 12 * MINUTE);
    // Reset at four minutes: a whole scene's time again, the extension gone.
    assert_eq!(
        game.act_at(MODERATOR, 4 * MINUTE, Action::ResetTimer),
        [Event::TimerReset {
            at: Timestamp(4 * MINUTE)
        }]
    );
    assert_eq!(left(&game, 4 * MINUTE), 10 * MINUTE);
    assert_eq!(game.state.timer_deadline(), Some(Timestamp(14 * MINUTE)));
    // A reset while held stays held, with the whole time left.
    game.act_at(MODERATOR, 5 * MINUTE, Action::HoldTimer);
    game.act_at(MODERATOR, 6 * MINUTE, Action::ResetTimer);
    assert_eq!(left(&game, 20 * MINUTE), 10 * MINUTE);
    assert_eq!(game.state.timer_deadline(), None);
    game.act_at(MODERATOR, 7 * MINUTE, Action::ReleaseTimer);
    assert_eq!(game.state.timer_deadline(), Some(Timestamp(17 * MINUTE)));

    // Questions are the moderator's.
    game.refuses(
        1,
        Action::AskQuestion {
            text: "What does the bell remember?".into(),
        },
        Refusal::OnlyTheModeratorAsks,
        "The moderator",
    );
    assert_eq!(
        game.act(
            MODERATOR,
            Action::AskQuestion {
                text: "  What does the bell remember?  ".into(),
            }
        ),
        [Event::QuestionAsked {
            text: "What does the bell remember?".into()
        }]
    );
    assert_eq!(
        game.state.question.as_deref(),
        Some("What does the bell remember?")
    );
}
