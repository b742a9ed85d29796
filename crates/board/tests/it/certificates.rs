//! Acquiring a Certificate, and the end of the game.

use crate::*;
use board::MoveKind;
use board::content::Guild;
use board::model::{Certificate, Experience, Gold, Phase, Ranking};

/// Player 1 (character 0, whose guilds are its first two) at a guild's space, Chance drawn,
/// having stayed.
fn at_guild(guild: Guild, experience: u32, gold: u32) -> State {
    let mut state = game(vec![ChanceId(0); 10]);
    state.adventurers[0].space = SpaceId::of(state.content.board.guild(guild));
    state.adventurers[0].experience = Experience(experience);
    state.adventurers[0].gold = Gold(gold);
    let state = run(state, P1, draw(0));
    run(state, P1, Action::Move(MoveKind::Stay))
}

fn guilds() -> [Guild; 2] {
    content().characters[0].guilds
}

fn other_guild() -> Guild {
    let own = guilds();
    Guild::ALL.into_iter().find(|g| !own.contains(g)).unwrap()
}

#[test]
fn own_guild_costs_experience_only() {
    let own = guilds()[0];
    let (state, events) = play(at_guild(own, 7, 0), P1, Action::BuyCertificate);
    assert_eq!(
        events,
        vec![Event::CertificateBought {
            player: P1,
            guild: own,
            experience: Experience(5),
            gold: Gold(0)
        }]
    );
    let a = state.adventurer(P1).unwrap();
    assert_eq!((a.experience, a.gold), (Experience(2), Gold(0)));
    assert_eq!(a.certificates, vec![Certificate(own)]);
    let refusal = refused(&state, P1, Action::BuyCertificate);
    assert_eq!(refusal, Refusal::AlreadyCertified { guild: own });
    assert_eq!(refusal.rule(), "Acquiring a Certificate");
}

#[test]
fn other_guilds_cost_gold_too() {
    let other = other_guild();
    let state = run(at_guild(other, 5, 5), P1, Action::BuyCertificate);
    let a = state.adventurer(P1).unwrap();
    assert_eq!((a.experience, a.gold), (Experience(0), Gold(0)));
    assert_eq!(
        refused(&at_guild(other, 9, 4), P1, Action::BuyCertificate),
        Refusal::CertificateGold {
            cost: Gold(5),
            has: Gold(4)
        }
    );
    assert_eq!(
        refused(&at_guild(other, 4, 9), P1, Action::BuyCertificate),
        Refusal::NotEnoughExperience {
            cost: Experience(5),
            has: Experience(4)
        }
    );
}

#[test]
fn certificates_need_a_guild_space_after_moving() {
    let own = guilds()[0];
    let state = at_guild(own, 9, 9);
    let walked = {
        let mut s = game(vec![ChanceId(0); 10]);
        s.adventurers[0].space = SpaceId::of(s.content.board.guild(own));
        s.adventurers[0].experience = Experience(9);
        let s = run(s, P1, draw(0));
        // The neighbours of a guild are never guilds on the built-in board.
        run(s, P1, Action::Move(MoveKind::Walk { clockwise: true }))
    };
    assert_eq!(
        refused(&walked, P1, Action::BuyCertificate),
        Refusal::NotAGuild
    );
    let fresh = game(vec![ChanceId(0); 10]);
    assert_eq!(
        refused(&fresh, P1, Action::BuyCertificate),
        Refusal::DrawChanceFirst
    );
    let drawn = run(fresh, P1, draw(0));
    assert_eq!(
        refused(&drawn, P1, Action::BuyCertificate),
        Refusal::MoveFirst
    );
    assert_eq!(
        refused(&state, P2, Action::BuyCertificate),
        Refusal::NotYourTurn
    );
}

#[test]
fn the_fifth_certificate_wins_at_once() {
    let last = other_guild();
    let mut state = at_guild(last, 5, 5);
    state.adventurers[0].certificates = Guild::ALL
        .into_iter()
        .filter(|&g| g != last)
        .map(Certificate)
        .collect();
    state.adventurers[2].certificates = vec![Certificate(Guild::Fortress), Certificate(last)];
    state.adventurers[1].certificates = vec![Certificate(Guild::Monastery)];
    let (state, events) = play(state, P1, Action::BuyCertificate);
    let ranking = Ranking(vec![(P1, 5), (P3, 2), (P2, 1)]);
    assert_eq!(
        events[1],
        Event::GameWon {
            winner: P1,
            ranking: ranking.clone()
        }
    );
    assert_eq!(
        state.phase,
        Phase::Won {
            winner: P1,
            ranking
        }
    );
    for (by, action) in [
        (P1, Action::EndTurn),
        (P2, draw(0)),
        (P1, Action::Move(MoveKind::Stay)),
        (P1, Action::BuyCertificate),
    ] {
        let refusal = refused(&state, by, action);
        assert_eq!(refusal, Refusal::GameOver);
        assert_eq!(refusal.rule(), "End of the Game");
    }
    assert!(state.turn().is_none());
}
