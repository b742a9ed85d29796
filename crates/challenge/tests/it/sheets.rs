//! Character sheets: who makes and edits them, their limits, points spent and regained by rest.

use crate::*;
use challenge::limits::*;

fn create(owner: Option<PlayerId>, sheet: Sheet) -> Action {
    Action::CreateSheet { owner, sheet }
}

fn edit(sheet: Sheet) -> Action {
    Action::EditSheet {
        character: CharacterId(0),
        sheet,
    }
}

fn spend(aptitude: Aptitude) -> Action {
    Action::SpendPoint {
        character: CharacterId(0),
        aptitude,
        reason: "Kept watch all night".to_owned(),
    }
}

#[test]
fn a_sheet_holds_the_seed_s_attributes() {
    let t = Table::seated();
    let mira = &t.state.characters[0];
    assert_eq!(mira.owner, ADA);
    assert_eq!(mira.sheet, crate::mira());
    for (aptitude, points) in [
        (Aptitude::Knowledge, 1),
        (Aptitude::Awareness, 2),
        (Aptitude::Charisma, 0),
        (Aptitude::Physicality, 3),
    ] {
        assert_eq!(
            (mira.current(aptitude), mira.maximum(aptitude)),
            (points, points)
        );
    }
    assert!(mira.sheet.has(Skill::Might) && !mira.sheet.has(Skill::Animals));
    assert_eq!(Skill::ALL.len(), 16);
    for aptitude in Aptitude::ALL {
        for skill in aptitude.skills() {
            assert_eq!(skill.aptitude(), aptitude);
        }
    }
    assert_eq!(
        Skill::Supernatural.to_string(),
        "Knowledge of the Supernatural"
    );
    assert_eq!(Skill::People.to_string(), "Awareness of People");
    assert_eq!(Skill::Deceive.to_string(), "Charisma: Deceive");
    assert_eq!(Skill::Endure.to_string(), "Physicality: Endure");
}

#[test]
fn players_edit_their_own_sheets_and_the_gm_any() {
    let mut t = Table::seated();
    let mut sheet = crate::mira();
    sheet.concept = "River scout, once a smuggler".to_owned();
    sheet.skills.push(Skill::Deceive);
    t.act(ADA, edit(sheet.clone()));
    assert_eq!(t.state.characters[0].sheet, sheet);
    check_refusal(
        &t.refuse(BO, edit(crate::mira())),
        "not_your_character",
        "The table",
        "Character 0 belongs to another player: only they and the GM may do that.",
    );
    t.act(GM, edit(crate::mira()));
    assert_eq!(t.state.characters[0].sheet, crate::mira());

    // The GM makes sheets for a player, or for themselves; a player only for themselves.
    t.act(GM, create(Some(BO), sheet_named("Bram")));
    t.act(GM, create(None, sheet_named("The ferryman")));
    assert_eq!(t.state.characters[1].owner, BO);
    assert_eq!(t.state.characters[2].owner, GM);
    check_refusal(
        &t.refuse(ADA, create(Some(BO), sheet_named("Nope"))),
        "not_gm",
        "The table",
        "Only the GM may make a sheet for another player.",
    );
    assert_eq!(
        t.refuse(GM, create(Some(PlayerId(9)), sheet_named("Nobody"))),
        Refusal::NoSuchPlayer {
            player: PlayerId(9)
        }
    );
}

fn sheet_named(name: &str) -> Sheet {
    Sheet {
        name: name.to_owned(),
        ..Sheet::default()
    }
}

#[test]
fn sheets_are_bounded() {
    let t = Table::seated();
    let with = |change: fn(&mut Sheet)| {
        let mut sheet = crate::mira();
        change(&mut sheet);
        t.refuse(ADA, edit(sheet))
    };
    check_refusal(
        &with(|s| s.name.clear()),
        "empty",
        "The table",
        "The character's name cannot be empty.",
    );
    check_refusal(
        &with(|s| s.abilities = "x".repeat(ABILITIES_LEN + 1)),
        "too_long",
        "The table",
        "The abilities is too long: at most 2000 characters.",
    );
    assert_eq!(
        with(|s| s.concept = "x".repeat(CONCEPT_LEN + 1)).code(),
        "too_long"
    );
    check_refusal(
        &with(|s| s.aptitudes.charisma = MAX_APTITUDE_POINTS + 1),
        "too_many_points",
        "Aptitude Points",
        "At most 20 Charisma points.",
    );
    check_refusal(
        &with(|s| s.skills.push(Skill::Might)),
        "skill_twice",
        "Skills",
        "Physicality: Might is listed twice.",
    );
    check_refusal(
        &with(|s| s.specialties.push(horses())),
        "specialty_twice",
        "Specialities",
        "The Specialty 'horses' under Awareness of Animals is listed twice.",
    );
    check_refusal(
        &with(|s| {
            for name in ["mules", "dogs", "hawks", "oxen"] {
                s.specialties.push(Specialty {
                    skill: Skill::Animals,
                    name: name.to_owned(),
                });
            }
        }),
        "too_many_specialties",
        "Specialities",
        "At most 4 Specialties under Awareness of Animals.",
    );
    assert_eq!(
        with(|s| s.specialties[0].name = " ".to_owned()),
        Refusal::Empty { what: "Specialty" }
    );

    let mut t = Table::seated();
    for i in 1..SHEETS_PER_PLAYER {
        t.act(ADA, create(None, sheet_named(&format!("Mira {i}"))));
    }
    check_refusal(
        &t.refuse(ADA, create(None, sheet_named("One too many"))),
        "too_many_sheets",
        "The table",
        "A player may have at most 6 character sheets.",
    );
    // A retired sheet no longer counts.
    t.act(
        ADA,
        Action::RetireSheet {
            character: CharacterId(1),
        },
    );
    t.act(ADA, create(None, sheet_named("Mira again")));
    assert_eq!(
        t.refuse(
            ADA,
            Action::RetireSheet {
                character: CharacterId(1)
            }
        ),
        Refusal::NoSuchCharacter {
            character: CharacterId(1)
        }
    );
}

#[test]
fn editing_keeps_spent_points_spent() {
    let mut t = Table::seated();
    t.act(ADA, spend(Aptitude::Physicality));
    t.act(ADA, spend(Aptitude::Physicality));
    assert_eq!(t.current(Aptitude::Physicality), 1);
    // Raising the maximum adds a fresh point; the two spent stay spent.
    let mut sheet = crate::mira();
    sheet.aptitudes.physicality = 4;
    t.act(ADA, edit(sheet.clone()));
    assert_eq!(t.current(Aptitude::Physicality), 2);
    // Lowering it below what is spent leaves nothing; the points spent are still spent.
    sheet.aptitudes.physicality = 1;
    let events = t.act(ADA, edit(sheet.clone()));
    let Event::SheetEdited { spent, .. } = &events[0] else {
        panic!("{events:?}")
    };
    assert_eq!(spent.physicality, 2);
    assert_eq!(t.current(Aptitude::Physicality), 0);
    // Raised again, the sheet is where it was: an edit gives no spent point back.
    sheet.aptitudes.physicality = 4;
    t.act(ADA, edit(sheet));
    assert_eq!(t.current(Aptitude::Physicality), 2);
    t.act(GM, Action::Rest { character: None });
    assert_eq!(t.current(Aptitude::Physicality), 4);
}

/// The case: Physicality 17 of 20 after three points spent; the maximum set to 0 and
/// then back to 20 must not make it 20 of 20.
#[test]
fn spent_points_come_back_by_rest_alone_not_by_editing_the_maximum() {
    let mut t = Table::seated();
    let mut sheet = crate::mira();
    sheet.aptitudes.physicality = MAX_APTITUDE_POINTS;
    t.act(ADA, edit(sheet.clone()));
    for _ in 0..3 {
        t.act(ADA, spend(Aptitude::Physicality));
    }
    assert_eq!(t.current(Aptitude::Physicality), 17);
    sheet.aptitudes.physicality = 0;
    t.act(ADA, edit(sheet.clone()));
    assert_eq!(t.current(Aptitude::Physicality), 0);
    sheet.aptitudes.physicality = MAX_APTITUDE_POINTS;
    t.act(ADA, edit(sheet));
    assert_eq!(t.current(Aptitude::Physicality), 17);
    assert_eq!(t.state.characters[0].maximum(Aptitude::Physicality), 20);
    // The same holds for the GM editing it, and after a replay.
    assert_eq!(State::replay(&t.log), t.state);
    t.act(GM, Action::Rest { character: None });
    assert_eq!(t.current(Aptitude::Physicality), 20);
}

#[test]
fn a_sheet_with_an_open_challenge_is_not_edited() {
    let mut t = Table::seated();
    let id = t.call(
        CharacterId(0),
        Situation::Average,
        Aptitude::Physicality,
        &[Skill::Might],
    );
    let mut sheet = crate::mira();
    sheet.skills.push(Skill::Endure);
    for by in [ADA, GM] {
        check_refusal(
            &t.refuse(by, edit(sheet.clone())),
            "challenge_open",
            "Rolling To Resolve a Challenge",
            "This character already has an open Challenge, “Cross the flooded ford”: it is rolled, or the GM cancels it, first.",
        );
    }
    t.act(GM, Action::CancelChallenge { challenge: id });
    t.act(ADA, edit(sheet));
    assert!(t.state.characters[0].sheet.has(Skill::Endure));
}

#[test]
fn points_are_spent_and_regained_by_rest() {
    let mut t = Table::seated();
    check_refusal(
        &t.refuse(ADA, spend(Aptitude::Charisma)),
        "no_aptitude_point",
        "Aptitude Points",
        "The character has no Charisma point left to spend: rest to regain them.",
    );
    check_refusal(
        &t.refuse(BO, spend(Aptitude::Awareness)),
        "not_your_character",
        "The table",
        "Character 0 belongs to another player: only they and the GM may do that.",
    );
    t.act(ADA, spend(Aptitude::Awareness));
    t.act(GM, spend(Aptitude::Knowledge));
    t.act(GM, create(Some(BO), sheet_named("Bram")));
    assert_eq!(t.current(Aptitude::Awareness), 1);
    assert_eq!(t.current(Aptitude::Knowledge), 0);

    let rest = Action::Rest { character: None };
    check_refusal(
        &t.refuse(ADA, rest.clone()),
        "not_gm",
        "Aptitude Points",
        "Only the GM may say the characters have rested.",
    );
    // Only those with points to regain are named.
    assert_eq!(
        t.act(GM, rest.clone()),
        vec![Event::Rested {
            regained: vec![(
                CharacterId(0),
                AptitudePoints {
                    knowledge: 1,
                    awareness: 1,
                    ..AptitudePoints::default()
                }
            )]
        }]
    );
    assert_eq!(t.current(Aptitude::Awareness), 2);
    assert_eq!(t.current(Aptitude::Knowledge), 1);
    check_refusal(
        &t.refuse(GM, rest),
        "nothing_to_regain",
        "Aptitude Points",
        "Nobody has a spent Aptitude point to regain.",
    );
    // One character rests alone.
    t.act(ADA, spend(Aptitude::Awareness));
    let one = |character| Action::Rest {
        character: Some(CharacterId(character)),
    };
    assert_eq!(t.refuse(GM, one(1)), Refusal::NothingToRegain);
    t.act(GM, one(0));
    assert_eq!(t.current(Aptitude::Awareness), 2);
    assert_eq!(
        t.refuse(GM, one(7)),
        Refusal::NoSuchCharacter {
            character: CharacterId(7)
        }
    );
}
