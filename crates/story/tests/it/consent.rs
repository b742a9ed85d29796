//! What cannot be undone is agreed by the table: moving on, making a check, ending the game,
//! going back to the outline, and overruling a player's pair. Pairs are judged by the table.

use crate::game::{Game, MODERATOR, Table, moderated_table, propose, table};
use dice::Seed;
use story::command::Action;
use story::ids::{PlayerId, ProposalId};
use story::model::{Motion, Phase};
use story::{Event, Refusal, Ruleset};

/// Three players at a 1.0 table, the prophecy written.
fn three_at_the_prophecy() -> Game {
    let mut game = Game::open(Ruleset::Edition10);
    game.join(1, "Ada");
    game.join(2, "Bo");
    game.join(3, "Cy");
    game.act(
        1,
        Action::WriteProphecy {
            text: "Doom.".into(),
        },
    );
    game
}

#[test]
fn one_player_cannot_move_on_alone_at_a_table_of_three() {
    let mut game = three_at_the_prophecy();
    let motion = Motion::Advance {
        to: Phase::Characters,
    };
    let events = game.act(1, propose(motion));
    let proposal = game.open_proposal();
    assert_eq!(
        events,
        [Event::ProposalMade {
            proposal,
            motion,
            by: PlayerId(1)
        }]
    );
    // Proposing is agreeing; the others have not yet.
    assert_eq!(game.state.phase, Phase::Prophecy);
    let open = game.state.proposal.clone().unwrap();
    assert_eq!(open.agreed.into_iter().collect::<Vec<_>>(), [PlayerId(1)]);
    game.refuses(
        1,
        Action::Agree {
            proposal,
            seed: Seed(0),
        },
        Refusal::AlreadyAgreed,
        "Agreement",
    );
    assert_eq!(
        game.act(
            2,
            Action::Agree {
                proposal,
                seed: Seed(0)
            }
        ),
        [Event::ProposalAgreed {
            proposal,
            by: PlayerId(2)
        }]
    );
    assert_eq!(game.state.phase, Phase::Prophecy, "one still to agree");
    game.refuses(
        2,
        Action::Agree {
            proposal,
            seed: Seed(0),
        },
        Refusal::AlreadyAgreed,
        "Agreement",
    );
    // One motion at a time.
    game.refuses(
        3,
        propose(motion),
        Refusal::ProposalOpen { motion },
        "Agreement",
    );
    // "Not yet" closes it.
    assert_eq!(
        game.act(3, Action::Stop { proposal }),
        [Event::ProposalStopped {
            proposal,
            by: PlayerId(3)
        }]
    );
    assert_eq!(game.state.proposal, None);
    assert_eq!(game.state.phase, Phase::Prophecy);
    for action in [
        Action::Agree {
            proposal,
            seed: Seed(0),
        },
        Action::Stop { proposal },
    ] {
        game.refuses(3, action, Refusal::NoSuchProposal, "Agreement");
    }

    // Put again, and agreed by everyone: the last agreement carries it.
    game.act(2, propose(motion));
    let again = game.open_proposal();
    assert_ne!(again, proposal);
    game.refuses(
        1,
        Action::Agree {
            proposal,
            seed: Seed(0),
        },
        Refusal::NoSuchProposal,
        "Agreement",
    );
    game.act(
        1,
        Action::Agree {
            proposal: again,
            seed: Seed(0),
        },
    );
    assert_eq!(game.state.phase, Phase::Prophecy);
    let events = game.act(
        3,
        Action::Agree {
            proposal: again,
            seed: Seed(0),
        },
    );
    assert_eq!(
        events,
        [
            Event::ProposalAgreed {
                proposal: again,
                by: PlayerId(3)
            },
            Event::ProposalCarried { proposal: again },
            Event::PhaseBegan {
                phase: Phase::Characters
            },
        ]
    );
    assert_eq!(game.state.phase, Phase::Characters);
    assert_eq!(game.state.proposal, None);
}

#[test]
fn a_table_of_one_carries_at_once() {
    let mut game = Game::open(Ruleset::Edition10);
    game.join(1, "Ada");
    game.act(
        1,
        Action::WriteProphecy {
            text: "Doom.".into(),
        },
    );
    let events = game.act(
        1,
        propose(Motion::Advance {
            to: Phase::Characters,
        }),
    );
    assert!(matches!(
        events.as_slice(),
        [
            Event::ProposalMade { .. },
            Event::ProposalCarried { .. },
            Event::PhaseBegan {
                phase: Phase::Characters
            }
        ]
    ));
    assert_eq!(game.state.proposal, None);
}

#[test]
fn one_player_cannot_roll_alone_at_a_table_of_three() {
    let Table {
        mut game,
        chars,
        primary,
        weaknesses,
        ..
    } = table(Ruleset::Edition10);
    game.act(1, Action::StartScene { scene: primary });
    let trade = game.first_aspect(chars[0]);
    game.pair(1, primary, trade, weaknesses[0]);
    let motion = Motion::MakeCheck {
        scene: primary,
        accept_empty_pool: false,
    };
    game.act(
        1,
        Action::Propose {
            motion,
            seed: Seed(1),
        },
    );
    let proposal = game.open_proposal();
    game.act(
        2,
        Action::Agree {
            proposal,
            seed: Seed(2),
        },
    );
    assert_eq!(game.state.scenes[&primary].check, None);
    // The pool is fixed while the table decides.
    game.refuses(
        3,
        Action::ProposePair {
            scene: primary,
            character_aspect: game.first_aspect(chars[2]),
            environment_aspect: weaknesses[1],
            justification: String::new(),
        },
        Refusal::ProposalOpen { motion },
        "Agreement",
    );
    game.refuses(
        2,
        Action::CancelScene { scene: primary },
        Refusal::ProposalOpen { motion },
        "Agreement",
    );
    let events = game.act(
        3,
        Action::Agree {
            proposal,
            seed: Seed(3),
        },
    );
    // The dice are the last agreement's.
    let pool = game.state.pool(primary);
    assert_eq!(pool.len(), 1);
    let check = game.state.scenes[&primary].check.clone().expect("checked");
    assert_eq!(check.roll, dice::check::roll(&pool, Seed(3)));
    assert!(!check.physical);
    assert_eq!(
        events,
        [
            Event::ProposalAgreed {
                proposal,
                by: PlayerId(3)
            },
            Event::ProposalCarried { proposal },
            Event::CheckMade {
                scene: primary,
                check
            },
        ]
    );
}

#[test]
fn one_player_cannot_end_the_game_alone_at_a_table_of_three() {
    let Table {
        mut game,
        chars,
        finale,
        primary,
        place,
        ..
    } = table(Ruleset::Edition10);
    game.refuses(
        1,
        propose(Motion::EndGame),
        Refusal::FinaleNotPerformed,
        "Tell the Story",
    );
    game.perform(1, primary, chars[0], place, 1, 1);
    game.perform(2, finale, chars[1], place, 2, 2);
    game.act(3, propose(Motion::EndGame));
    let proposal = game.open_proposal();
    game.act(
        1,
        Action::Agree {
            proposal,
            seed: Seed(0),
        },
    );
    assert_eq!(game.state.phase, Phase::Story);
    let events = game.act(
        2,
        Action::Agree {
            proposal,
            seed: Seed(0),
        },
    );
    assert_eq!(events.last(), Some(&Event::GameEnded));
    assert_eq!(game.state.phase, Phase::Ended);
}

#[test]
fn a_removed_player_no_longer_blocks_a_proposal() {
    let mut game = three_at_the_prophecy();
    game.act(
        1,
        propose(Motion::Advance {
            to: Phase::Characters,
        }),
    );
    let proposal = game.open_proposal();
    let agree = Action::Agree {
        proposal,
        seed: Seed(0),
    };
    game.act(2, agree.clone());
    game.act(
        1,
        Action::RemovePlayer {
            player: PlayerId(3),
        },
    );
    // Nothing carries by itself; the removed player cannot agree any more.
    assert_eq!(game.state.phase, Phase::Prophecy);
    assert_eq!(game.open_proposal(), proposal);
    game.refuses(3, agree.clone(), Refusal::NotAtTable, "The table");
    // A player who agreed already agrees again: now that is everyone.
    let events = game.act(2, agree);
    assert_eq!(
        events,
        [
            Event::ProposalCarried { proposal },
            Event::PhaseBegan {
                phase: Phase::Characters
            },
        ]
    );
}

#[test]
fn the_moderator_does_not_vote() {
    let Table { mut game, .. } = moderated_table();
    // The moderator may put a motion, but it waits for every player.
    game.act(MODERATOR, propose(Motion::ReturnToOutline));
    let proposal = game.open_proposal();
    assert!(game.state.proposal.as_ref().unwrap().agreed.is_empty());
    game.refuses(
        MODERATOR,
        Action::Agree {
            proposal,
            seed: Seed(0),
        },
        Refusal::ModeratorCannot {
            what: "vote on proposals",
        },
        "The moderator",
    );
    for player in [1, 2] {
        game.act(
            player,
            Action::Agree {
                proposal,
                seed: Seed(0),
            },
        );
    }
    assert_eq!(game.state.phase, Phase::Story);
    game.act(
        3,
        Action::Agree {
            proposal,
            seed: Seed(0),
        },
    );
    assert_eq!(game.state.phase, Phase::Outline);
}

#[test]
fn back_to_the_outline_until_the_first_check() {
    let Table {
        mut game,
        chars,
        finale,
        primary,
        place,
        ..
    } = table(Ruleset::Edition10);
    game.refuses(
        1,
        propose(Motion::Advance { to: Phase::Outline }),
        Refusal::NotTheNextPhase {
            from: Phase::Story,
            to: Phase::Outline,
        },
        "The four phases",
    );
    // A scene started, nothing checked: the table may still go back.
    game.act_at(1, 1_000, Action::StartScene { scene: primary });
    let events = game.carry(2, Motion::ReturnToOutline, 0);
    assert_eq!(
        events[events.len() - 2..],
        [
            Event::SceneCancelled { scene: primary },
            Event::PhaseBegan {
                phase: Phase::Outline
            },
        ]
    );
    assert_eq!(game.state.phase, Phase::Outline);
    assert_eq!(game.state.in_progress, None);
    assert_eq!(game.state.timer, None);
    game.refuses(
        1,
        propose(Motion::ReturnToOutline),
        Refusal::NotNow {
            what: "going back to the outline",
            when: "while telling the story",
            phase: Phase::Outline,
        },
        "The four phases",
    );
    // The outline grows again, and the story starts over.
    let second = game.scene(3, finale, "Calm the drowned choir");
    game.advance(3, Phase::Story);
    game.perform(1, primary, chars[0], place, 1, 7);
    game.refuses(
        1,
        propose(Motion::ReturnToOutline),
        Refusal::StoryBegun,
        "Agreement",
    );
    game.perform(2, second, chars[1], place, 1, 8);
    game.refuses(
        1,
        propose(Motion::ReturnToOutline),
        Refusal::StoryBegun,
        "Agreement",
    );
}

#[test]
fn a_started_scene_can_be_cancelled_until_its_check() {
    let Table {
        mut game,
        chars,
        primary,
        weaknesses,
        ..
    } = table(Ruleset::Edition10);
    game.refuses(
        1,
        Action::CancelScene { scene: primary },
        Refusal::NotInProgress,
        "Tell the Story",
    );
    game.act_at(1, 1_000, Action::StartScene { scene: primary });
    let trade = game.first_aspect(chars[0]);
    let pair = game.pair(1, primary, trade, weaknesses[0]);
    assert_eq!(
        game.act_at(2, 2_000, Action::CancelScene { scene: primary }),
        [Event::SceneCancelled { scene: primary }]
    );
    assert_eq!(game.state.in_progress, None);
    assert_eq!(game.state.timer, None);
    assert!(!game.state.scenes[&primary].performed);
    // Its pairs stay with it for the next time.
    assert_eq!(game.state.scenes[&primary].pairs, [pair]);
    assert_eq!(game.state.available_scenes(), [primary]);
    game.act_at(3, 60_000, Action::StartScene { scene: primary });
    assert_eq!(game.state.timer.unwrap().from.0, 60_000);
    game.check(3, primary, 5);
    assert_eq!(
        game.state.scenes[&primary]
            .check
            .as_ref()
            .unwrap()
            .roll
            .pool()
            .len(),
        1
    );
    game.refuses(
        2,
        Action::CancelScene { scene: primary },
        Refusal::AlreadyChecked,
        "Checks",
    );
}

#[test]
fn an_objection_keeps_a_pair_out_of_the_pool_and_holds_the_check() {
    let Table {
        mut game,
        chars,
        primary,
        weaknesses,
        ..
    } = table(Ruleset::Edition10);
    game.act(1, Action::StartScene { scene: primary });
    let wren = game.pair(1, primary, game.first_aspect(chars[0]), weaknesses[0]);
    let tamsin = game.pair(2, primary, game.first_aspect(chars[1]), weaknesses[1]);
    assert_eq!(game.state.pool(primary).len(), 2);
    game.refuses(
        1,
        Action::ObjectToPair { pair: wren },
        Refusal::OwnPair,
        "Matching Aspects",
    );
    game.refuses(
        1,
        Action::AcceptPair { pair: wren },
        Refusal::OwnPair,
        "Matching Aspects",
    );
    assert_eq!(
        game.act(3, Action::ObjectToPair { pair: wren }),
        [Event::PairObjected {
            pair: wren,
            by: PlayerId(3)
        }]
    );
    // It does not count, and the check waits until it is settled.
    assert!(!game.state.counts(&game.state.pairs[&wren]));
    assert_eq!(
        game.state.pool(primary),
        [dice::check::PoolEntry::MatchingPair { pair: tamsin.0 }]
    );
    for accept_empty_pool in [false, true] {
        game.refuses(
            2,
            propose(Motion::MakeCheck {
                scene: primary,
                accept_empty_pool,
            }),
            Refusal::PairUnderObjection,
            "Matching Aspects",
        );
    }
    // The objector accepts it after all: it counts again.
    game.act(3, Action::AcceptPair { pair: wren });
    assert!(game.state.counts(&game.state.pairs[&wren]));
    assert_eq!(game.state.pool(primary).len(), 2);

    // An objection while the check is proposed says "not yet" to it.
    let motion = Motion::MakeCheck {
        scene: primary,
        accept_empty_pool: false,
    };
    game.act(1, propose(motion));
    let proposal = game.open_proposal();
    game.act(
        2,
        Action::Agree {
            proposal,
            seed: Seed(0),
        },
    );
    assert_eq!(
        game.act(3, Action::ObjectToPair { pair: tamsin }),
        [
            Event::ProposalStopped {
                proposal,
                by: PlayerId(3)
            },
            Event::PairObjected {
                pair: tamsin,
                by: PlayerId(3)
            },
        ]
    );
    assert_eq!(game.state.proposal, None);
    assert_eq!(game.state.scenes[&primary].check, None);
    game.act(3, Action::AcceptPair { pair: tamsin });
    game.check(2, primary, 9);
    let check = game.state.scenes[&primary].check.clone().unwrap();
    assert_eq!(check.roll.pool().len(), 2);
}

#[test]
fn only_the_proposer_withdraws_a_pair_the_others_ask_the_table() {
    let Table {
        mut game,
        chars,
        primary,
        weaknesses,
        ..
    } = table(Ruleset::Edition10);
    game.act(1, Action::StartScene { scene: primary });
    let trade = game.first_aspect(chars[0]);
    let first = game.pair(1, primary, trade, weaknesses[0]);
    let second = game.pair(1, primary, trade, weaknesses[1]);
    game.refuses(
        2,
        Action::WithdrawPair { pair: first },
        Refusal::NotYourPair,
        "Matching Aspects",
    );
    assert_eq!(
        game.act(1, Action::WithdrawPair { pair: first }),
        [Event::PairWithdrawn { pair: first }]
    );
    // Another player asks the table, and the pair goes only once everyone agrees.
    game.act(2, propose(Motion::WithdrawPair { pair: second }));
    let proposal = game.open_proposal();
    game.act(
        3,
        Action::Agree {
            proposal,
            seed: Seed(0),
        },
    );
    assert!(game.state.pairs.contains_key(&second));
    let events = game.act(
        1,
        Action::Agree {
            proposal,
            seed: Seed(0),
        },
    );
    assert_eq!(events.last(), Some(&Event::PairWithdrawn { pair: second }));
    assert!(game.state.pairs.is_empty());
    assert!(game.state.scenes[&primary].pairs.is_empty());
    game.refuses(
        2,
        propose(Motion::WithdrawPair { pair: second }),
        Refusal::Unknown { what: "pair" },
        "Limits",
    );
    // A stale page cannot agree to a proposal that is gone.
    game.refuses(
        2,
        Action::Agree {
            proposal: ProposalId(proposal.0 + 100),
            seed: Seed(0),
        },
        Refusal::NoSuchProposal,
        "Agreement",
    );
}

#[test]
fn a_removed_objector_holds_nothing_up_and_a_proposer_never_judges_their_own_pair() {
    let Table {
        mut game,
        chars,
        primary,
        weaknesses,
        ..
    } = table(Ruleset::Edition10);
    game.act(1, Action::StartScene { scene: primary });
    let wren = game.pair(1, primary, game.first_aspect(chars[0]), weaknesses[0]);
    game.act(3, Action::ObjectToPair { pair: wren });
    // Under objection, its proposer still cannot accept it for the table.
    game.refuses(
        1,
        Action::AcceptPair { pair: wren },
        Refusal::OwnPair,
        "Matching Aspects",
    );
    assert!(game.state.pool(primary).is_empty());
    // The objector leaves the table: the pair counts again and the check can be made.
    game.act(
        1,
        Action::RemovePlayer {
            player: PlayerId(3),
        },
    );
    assert_eq!(game.state.pool(primary).len(), 1);
    game.check(1, primary, 7);
    assert!(game.state.scenes[&primary].check.is_some());
}
