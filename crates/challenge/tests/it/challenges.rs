//! Challenges: called by the GM, improved and rolled by the player, every die shown, the band
//! named; special rules for more steps, and other band tables.

use crate::*;
use challenge::{Band, BandRange, ChallengeOdds, Pool};
use dice::challenge::Keep;

const MIRA: CharacterId = CharacterId(0);

/// Rolls and returns the one event, checked against what it should show.
fn rolled(t: &mut Table, challenge: ChallengeId, choice: Choice, faces: &[u8]) -> Event {
    let action = roll(t, challenge, choice, faces);
    let events = t.act(ADA, action);
    assert_eq!(events.len(), 1);
    events.into_iter().next().unwrap()
}

/// (steps, dice, keep, faces, result, band, label) of a roll event.
fn summary(event: &Event) -> (u32, u32, Keep, Vec<u8>, u8, Band, String) {
    let Event::ChallengeRolled {
        pool, roll, label, ..
    } = event
    else {
        panic!("{event:?}")
    };
    assert_eq!(roll.faces.len() as u32, pool.dice, "every die is shown");
    (
        roll.steps,
        pool.dice,
        pool.keep,
        roll.faces.clone(),
        roll.result,
        roll.band,
        label.clone(),
    )
}

#[test]
fn no_improvement_rolls_two_and_keeps_the_lower() {
    let mut t = Table::seated();
    let c = t.call(
        MIRA,
        Situation::Average,
        Aptitude::Charisma,
        &[Skill::Persuade],
    );
    let event = rolled(&mut t, c, Choice::none(), &[6, 3]);
    assert_eq!(
        summary(&event),
        (
            0,
            2,
            Keep::Lowest,
            vec![6, 3],
            3,
            Band::PartialSuccess,
            "A partial success".to_owned()
        )
    );
    assert!(!t.state.challenges[0].is_open());
    assert_eq!(t.state.challenges[0].outcome().unwrap().roll.result, 3);
}

#[test]
fn a_held_skill_is_a_step_by_itself() {
    let mut t = Table::seated();
    let c = t.call(
        MIRA,
        Situation::Average,
        Aptitude::Awareness,
        &[Skill::Surroundings],
    );
    let event = rolled(&mut t, c, Choice::none(), &[2]);
    assert_eq!(
        summary(&event),
        (
            1,
            1,
            Keep::Highest,
            vec![2],
            2,
            Band::Failure,
            "A failure with no consequence beyond the failure".to_owned()
        )
    );
    let Event::ChallengeRolled {
        skills_held, spent, ..
    } = event
    else {
        unreachable!()
    };
    assert_eq!((skills_held, spent), (1, None));
}

#[test]
fn an_aptitude_point_is_a_step_paid_from_the_sheet() {
    let mut t = Table::seated();
    let c = t.call(
        MIRA,
        Situation::Average,
        Aptitude::Awareness,
        &[Skill::Surroundings],
    );
    let event = rolled(&mut t, c, Choice::point(), &[2, 5]);
    assert_eq!(
        summary(&event),
        (
            2,
            2,
            Keep::Highest,
            vec![2, 5],
            5,
            Band::Success,
            "A success".to_owned()
        )
    );
    assert_eq!(t.current(Aptitude::Awareness), 1);
    assert_eq!(t.state.characters[0].maximum(Aptitude::Awareness), 2);
    let Event::ChallengeRolled { spent, .. } = event else {
        unreachable!()
    };
    assert_eq!(spent, Some(Aptitude::Awareness));

    // Only without the Skill: a point alone is one step (one die), of the governing Aptitude.
    let c = t.call(
        MIRA,
        Situation::Difficult,
        Aptitude::Knowledge,
        &[Skill::Nature],
    );
    let event = rolled(&mut t, c, Choice::point(), &[1]);
    assert_eq!(
        summary(&event),
        (
            1,
            1,
            Keep::Highest,
            vec![1],
            1,
            Band::FailureWithConsequence,
            "A failure, with a further consequence".to_owned()
        )
    );
    assert_eq!(t.current(Aptitude::Knowledge), 0);
    assert_eq!(t.current(Aptitude::Awareness), 1);
}

#[test]
fn a_specialty_is_a_step_when_the_skill_is_not_held() {
    let mut t = Table::seated();
    let c = t.call(
        MIRA,
        Situation::Favourable,
        Aptitude::Awareness,
        &[Skill::Animals],
    );
    let with_horses = Choice {
        specialty: Some(horses()),
        aptitude_points: 0,
    };
    assert_eq!(
        t.state.plan(c, &with_horses).unwrap().pool.to_string(),
        "roll 1"
    );
    let both = Choice {
        specialty: Some(horses()),
        aptitude_points: 1,
    };
    let event = rolled(&mut t, c, both, &[8, 4]);
    assert_eq!(
        summary(&event),
        (
            2,
            2,
            Keep::Highest,
            vec![8, 4],
            8,
            Band::SuccessWithBenefit,
            "A success with a long-term benefit beyond the success".to_owned()
        )
    );

    // Under a Skill she holds, or a Skill the Challenge does not name, it gives nothing.
    let mut sheet = mira();
    sheet.specialties.push(Specialty {
        skill: Skill::Might,
        name: "lifting boats".to_owned(),
    });
    t.act(
        ADA,
        Action::EditSheet {
            character: MIRA,
            sheet,
        },
    );
    let c = t.call(
        MIRA,
        Situation::Average,
        Aptitude::Physicality,
        &[Skill::Might],
    );
    let boats = Choice::specialty(Skill::Might, "lifting boats");
    check_refusal(
        &t.state.plan(c, &boats).unwrap_err(),
        "specialty_with_skill",
        "Using Attributes",
        "A Specialty improves the roll only when the character does not have the relevant Skill.",
    );
    check_refusal(
        &t.state
            .plan(c, &Choice::specialty(Skill::Animals, "horses"))
            .unwrap_err(),
        "specialty_not_relevant",
        "Using Attributes",
        "Awareness of Animals is not a Skill this Challenge calls for.",
    );
    check_refusal(
        &t.state
            .plan(c, &Choice::specialty(Skill::Might, "swimming"))
            .unwrap_err(),
        "unknown_specialty",
        "Using Attributes",
        "The character has no Specialty 'swimming' under Physicality: Might.",
    );
}

#[test]
fn steps_are_capped_at_two_unless_a_special_rule_allows_more() {
    let mut t = Table::seated();
    let two_skills = [Skill::Might, Skill::Surroundings];
    // Skills apply by themselves, up to the limit.
    let c = t.call(
        MIRA,
        Situation::Favourable,
        Aptitude::Physicality,
        &two_skills,
    );
    assert_eq!(t.state.plan(c, &Choice::none()).unwrap().steps, 2);
    check_refusal(
        &t.refuse(
            ADA,
            Action::Roll {
                challenge: c,
                choice: Choice::point(),
                seed: Seed(1),
            },
        ),
        "too_many_steps",
        "Using Attributes",
        "That would improve the roll 3 steps; at most 2 are allowed.",
    );
    t.act(GM, Action::CancelChallenge { challenge: c });

    // The GM's special rule: three steps, three dice, keep the highest.
    let mut special = call(
        MIRA,
        Situation::Favourable,
        Aptitude::Physicality,
        &two_skills,
    );
    if let Action::CallChallenge { allow_steps, .. } = &mut special {
        *allow_steps = Some(3);
    }
    t.act(GM, special);
    let c = ChallengeId(1);
    let event = rolled(&mut t, c, Choice::point(), &[1, 7, 2]);
    assert_eq!(
        summary(&event),
        (
            3,
            3,
            Keep::Highest,
            vec![1, 7, 2],
            7,
            Band::SuccessWithBenefit,
            "A success with a long-term benefit beyond the success".to_owned()
        )
    );
    assert_eq!(t.current(Aptitude::Physicality), 2);

    // Each step beyond two is one more die, keep the highest.
    let mut special = call(
        MIRA,
        Situation::Difficult,
        Aptitude::Physicality,
        &two_skills,
    );
    if let Action::CallChallenge { allow_steps, .. } = &mut special {
        *allow_steps = Some(8);
    }
    t.act(GM, special);
    assert_eq!(
        t.state.plan(ChallengeId(2), &Choice::point()).unwrap().pool,
        Pool {
            dice: 3,
            keep: Keep::Highest
        }
    );
    let mut too_many = call(MIRA, Situation::Difficult, Aptitude::Physicality, &[]);
    if let Action::CallChallenge { allow_steps, .. } = &mut too_many {
        *allow_steps = Some(9);
    }
    check_refusal(
        &t.refuse(GM, too_many.clone()),
        "challenge_open",
        "Rolling To Resolve a Challenge",
        "This character already has an open Challenge, “Cross the flooded ford”: it is rolled, or the GM cancels it, first.",
    );
    t.act(
        GM,
        Action::CancelChallenge {
            challenge: ChallengeId(2),
        },
    );
    check_refusal(
        &t.refuse(GM, too_many.clone()),
        "allow_steps",
        "Using Attributes",
        "A special rule may allow from 2 to 8 steps of improvement, not 9.",
    );
    if let Action::CallChallenge { allow_steps, .. } = &mut too_many {
        *allow_steps = Some(1);
    }
    assert_eq!(t.refuse(GM, too_many).code(), "allow_steps");
}

fn with_bands(bands: Vec<BandRange>) -> Action {
    let mut action = call(
        MIRA,
        Situation::Average,
        Aptitude::Physicality,
        &[Skill::Might],
    );
    if let Action::CallChallenge { bands: b, .. } = &mut action {
        *b = Some(bands);
    }
    action
}

#[test]
fn the_gm_may_use_another_band_table() {
    let mut t = Table::seated();
    let bands = vec![
        BandRange::new(1, 3, "The bridge collapses"),
        BandRange::new(4, 5, "The bridge holds"),
        BandRange::new(6, 8, "The bridge holds, and the cart crosses too"),
    ];
    t.act(GM, with_bands(bands.clone()));
    let c = ChallengeId(0);
    assert_eq!(t.state.challenges[0].bands(), bands);
    // The exact chance of each of the table's own bands: one d6.
    let odds: Vec<String> = t
        .state
        .band_odds(c, &Choice::none())
        .unwrap()
        .into_iter()
        .map(|(band, p)| format!("{}: {p}", band.label))
        .collect();
    assert_eq!(
        odds,
        [
            "The bridge collapses: 1/2",
            "The bridge holds: 1/3",
            "The bridge holds, and the cart crosses too: 1/6"
        ]
    );
    let event = rolled(&mut t, c, Choice::none(), &[6]);
    // The label is the GM's; the seed's band is still recorded.
    assert_eq!(
        summary(&event),
        (
            1,
            1,
            Keep::Highest,
            vec![6],
            6,
            Band::Success,
            "The bridge holds, and the cart crosses too".to_owned()
        )
    );

    for bad in [
        vec![],
        vec![BandRange::new(1, 7, "Most")],
        vec![BandRange::new(2, 8, "No one")],
        vec![BandRange::new(1, 4, "Low"), BandRange::new(4, 8, "Overlap")],
        vec![BandRange::new(1, 4, "Low"), BandRange::new(6, 8, "Gap")],
        vec![BandRange::new(1, 9, "Past eight")],
        vec![
            BandRange::new(1, 4, "Low"),
            BandRange::new(5, 3, "Backwards"),
            BandRange::new(4, 8, "x"),
        ],
    ] {
        check_refusal(
            &t.refuse(GM, with_bands(bad)),
            "band_table",
            "Results",
            "A band table names every result from 1 to 8 once, in order, each band with a label.",
        );
    }
    assert_eq!(
        t.refuse(GM, with_bands(vec![BandRange::new(1, 8, "")])),
        Refusal::Empty {
            what: "band's label"
        }
    );
}

#[test]
fn odds_follow_the_choice_as_the_player_makes_it() {
    let mut t = Table::seated();
    let c = t.call(
        MIRA,
        Situation::Favourable,
        Aptitude::Awareness,
        &[Skill::Surroundings],
    );
    assert_eq!(
        t.state.odds_of(c, &Choice::none()).unwrap(),
        ChallengeOdds::new(Situation::Favourable, 1)
    );
    assert_eq!(
        t.state.odds_of(c, &Choice::point()).unwrap(),
        ChallengeOdds::new(Situation::Favourable, 2)
    );
    let seed_bands: Vec<String> = t
        .state
        .band_odds(c, &Choice::point())
        .unwrap()
        .into_iter()
        .map(|(band, p)| format!("{}-{}: {p}", band.from, band.to))
        .collect();
    assert_eq!(
        seed_bands,
        [
            "1-1: 1/64",
            "2-2: 3/64",
            "3-4: 3/16",
            "5-6: 5/16",
            "7-8: 7/16"
        ]
    );
    // Asking for the odds changes nothing.
    assert_eq!(t.current(Aptitude::Awareness), 2);
    assert!(t.state.challenges[0].is_open());
}

#[test]
fn one_open_challenge_per_character_and_the_gm_may_cancel_it() {
    let mut t = Table::seated();
    let c = t.call(MIRA, Situation::Average, Aptitude::Awareness, &[]);
    assert_eq!(
        t.refuse(GM, call(MIRA, Situation::Average, Aptitude::Charisma, &[])),
        Refusal::ChallengeOpen {
            challenge: c,
            description: "Cross the flooded ford".to_owned()
        }
    );
    assert_eq!(
        t.refuse(ADA, Action::RetireSheet { character: MIRA }),
        Refusal::ChallengeOpen {
            challenge: c,
            description: "Cross the flooded ford".to_owned()
        }
    );
    check_refusal(
        &t.refuse(ADA, Action::CancelChallenge { challenge: c }),
        "not_gm",
        "Difficulty",
        "Only the GM may cancel a Challenge.",
    );
    assert_eq!(
        t.act(GM, Action::CancelChallenge { challenge: c }),
        vec![Event::ChallengeCancelled {
            challenge: c,
            by: GM
        }]
    );
    check_refusal(
        &t.refuse(
            ADA,
            Action::Roll {
                challenge: c,
                choice: Choice::point(),
                seed: Seed(0),
            },
        ),
        "challenge_closed",
        "Rolling To Resolve a Challenge",
        "Challenge 0 has already been rolled or cancelled.",
    );
    assert_eq!(t.current(Aptitude::Awareness), 2, "nothing was spent");
    assert_eq!(
        t.state.odds_of(c, &Choice::none()),
        Err(Refusal::ChallengeClosed { challenge: c })
    );
    assert_eq!(
        t.refuse(
            GM,
            Action::CancelChallenge {
                challenge: ChallengeId(5)
            }
        ),
        Refusal::NoSuchChallenge {
            challenge: ChallengeId(5)
        }
    );
    // A new one may be called now.
    let c = t.call(MIRA, Situation::Average, Aptitude::Charisma, &[]);
    assert_eq!(t.state.open_challenge_of(MIRA).unwrap().id, c);
}

#[test]
fn only_the_characters_player_rolls() {
    let mut t = Table::seated();
    let c = t.call(MIRA, Situation::Average, Aptitude::Awareness, &[]);
    let roll = Action::Roll {
        challenge: c,
        choice: Choice::none(),
        seed: Seed(3),
    };
    for other in [GM, BO] {
        check_refusal(
            &t.refuse(other, roll.clone()),
            "not_your_roll",
            "Rolling To Resolve a Challenge",
            "Only the player of character 0 rolls its Challenges.",
        );
    }
    // The GM rolls for their own non-player characters.
    t.act(
        GM,
        Action::CreateSheet {
            owner: None,
            sheet: Sheet {
                name: "The ferryman".to_owned(),
                ..Sheet::default()
            },
        },
    );
    let npc = t.call(
        CharacterId(1),
        Situation::Difficult,
        Aptitude::Physicality,
        &[],
    );
    t.act(
        GM,
        Action::Roll {
            challenge: npc,
            choice: Choice::none(),
            seed: Seed(3),
        },
    );
    t.act(ADA, roll);
}

#[test]
fn a_challenge_is_described() {
    let t = Table::seated();
    let mut long = call(MIRA, Situation::Average, Aptitude::Awareness, &[]);
    if let Action::CallChallenge { description, .. } = &mut long {
        *description = "x".repeat(challenge::limits::DESCRIPTION_LEN + 1);
    }
    assert_eq!(
        t.refuse(GM, long),
        Refusal::TooLong {
            what: "description",
            most: 300
        }
    );
    check_refusal(
        &t.refuse(
            GM,
            call(
                MIRA,
                Situation::Average,
                Aptitude::Awareness,
                &[Skill::Might, Skill::Might],
            ),
        ),
        "skill_twice",
        "Skills",
        "Physicality: Might is listed twice.",
    );
    assert_eq!(
        t.refuse(
            GM,
            call(CharacterId(4), Situation::Average, Aptitude::Awareness, &[])
        ),
        Refusal::NoSuchCharacter {
            character: CharacterId(4)
        }
    );
}
