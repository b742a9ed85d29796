//! The refusals the issue names, by code and rule: spending a point the character does not
//! have, a player calling a Challenge, a second Aptitude point on one roll. The odds function
//! refuses a choice exactly as rolling would.

use crate::*;

#[test]
fn spending_a_point_the_character_does_not_have() {
    let mut t = Table::seated();
    let c = t.call(
        CharacterId(0),
        Situation::Average,
        Aptitude::Charisma,
        &[Skill::Persuade],
    );
    let refusal = t.refuse(
        ADA,
        Action::Roll {
            challenge: c,
            choice: Choice::point(),
            seed: Seed(0),
        },
    );
    check_refusal(
        &refusal,
        "no_aptitude_point",
        "Aptitude Points",
        "The character has no Charisma point left to spend: rest to regain them.",
    );
    assert_eq!(t.state.odds_of(c, &Choice::point()), Err(refusal));

    // Spent on one roll, gone for the next, until rest.
    t.act(GM, Action::CancelChallenge { challenge: c });
    let c = t.call(CharacterId(0), Situation::Average, Aptitude::Knowledge, &[]);
    let action = roll(&t, c, Choice::point(), &[4]);
    t.act(ADA, action);
    let c = t.call(CharacterId(0), Situation::Average, Aptitude::Knowledge, &[]);
    assert_eq!(
        t.state.odds_of(c, &Choice::point()).unwrap_err().code(),
        "no_aptitude_point"
    );
    t.act(GM, Action::Rest { character: None });
    assert!(t.state.odds_of(c, &Choice::point()).is_ok());
}

#[test]
fn a_player_calling_a_challenge() {
    let t = Table::seated();
    check_refusal(
        &t.refuse(
            ADA,
            call(
                CharacterId(0),
                Situation::Favourable,
                Aptitude::Awareness,
                &[],
            ),
        ),
        "not_gm",
        "Difficulty",
        "Only the GM may call a Challenge.",
    );
}

#[test]
fn a_second_aptitude_point_on_one_roll() {
    let mut t = Table::seated();
    let c = t.call(
        CharacterId(0),
        Situation::Average,
        Aptitude::Physicality,
        &[],
    );
    let two = Choice {
        specialty: None,
        aptitude_points: 2,
    };
    let refusal = t.refuse(
        ADA,
        Action::Roll {
            challenge: c,
            choice: two.clone(),
            seed: Seed(0),
        },
    );
    check_refusal(
        &refusal,
        "one_aptitude_point",
        "Using Attributes",
        "You may spend only one Aptitude point on a roll, not 2.",
    );
    assert_eq!(t.state.odds_of(c, &two), Err(refusal));
    assert_eq!(t.current(Aptitude::Physicality), 3, "nothing was spent");
}
