//! A table is its events: replaying them (also after a trip through JSON) gives the live state;
//! the commands' and events' JSON shapes, which the web adapter will send and store.

use crate::*;
use serde_json::json;

/// A scripted evening: seats, sheets, Challenges rolled with given dice, a cancelled one, a
/// point spent, rest, a fight, the GM seat handed over, and Bo removed.
fn evening() -> Table {
    let mut t = Table::seated();
    t.act(
        GM,
        Action::CreateSheet {
            owner: Some(BO),
            sheet: Sheet {
                name: "Bram".to_owned(),
                aptitudes: AptitudePoints {
                    charisma: 2,
                    ..AptitudePoints::default()
                },
                skills: vec![Skill::Persuade],
                ..Sheet::default()
            },
        },
    );
    let c = t.call(
        CharacterId(0),
        Situation::Average,
        Aptitude::Awareness,
        &[Skill::Surroundings],
    );
    let action = roll(&t, c, Choice::point(), &[3, 6]);
    t.act(ADA, action);
    let c = t.call(
        CharacterId(1),
        Situation::Difficult,
        Aptitude::Charisma,
        &[Skill::Persuade],
    );
    t.act(GM, Action::CancelChallenge { challenge: c });
    let c = t.call(
        CharacterId(1),
        Situation::Favourable,
        Aptitude::Charisma,
        &[Skill::Persuade],
    );
    let action = roll(&t, c, Choice::point(), &[7, 2]);
    t.act(BO, action);
    t.act(
        ADA,
        Action::SpendPoint {
            character: CharacterId(0),
            aptitude: Aptitude::Physicality,
            reason: "Carried Bram out of the river".to_owned(),
        },
    );
    t.act(
        GM,
        Action::RecordFight {
            description: "Bandits at the ford".to_owned(),
            cost: "The bandits' leader escaped, and will be back".to_owned(),
            suggested_by: Some(BO),
        },
    );
    t.act(GM, Action::Rest { character: None });
    t.act(GM, Action::HandGm { to: ADA });
    t.act(GM, Action::RemovePlayer { player: BO });
    t
}

#[test]
fn replay_equals_the_live_state() {
    let t = evening();
    assert_eq!(State::replay(&t.log), t.state);
    assert_eq!(t.state.version, t.log.len() as u64);
    assert_eq!(t.state.gm, Some(ADA));
    assert_eq!(t.state.characters[1].current(Aptitude::Charisma), 2);
    assert!(t.state.player(BO).is_some_and(|p| p.removed));
}

#[test]
fn events_survive_json() {
    let t = evening();
    let text: Vec<String> = t
        .log
        .iter()
        .map(|e| serde_json::to_string(e).unwrap())
        .collect();
    let back: Vec<Event> = text
        .iter()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(back, t.log);
    assert_eq!(State::replay(&back), t.state);
}

#[test]
fn a_roll_event_shows_every_die() {
    let t = evening();
    let rolled = t
        .log
        .iter()
        .find(|e| matches!(e, Event::ChallengeRolled { .. }))
        .unwrap();
    let mut value = serde_json::to_value(rolled).unwrap();
    value["roll"]["seed"] = json!(0);
    assert_eq!(
        value,
        json!({
            "type": "challenge_rolled",
            "challenge": 0,
            "character": 0,
            "choice": {"aptitude_points": 1},
            "skills_held": 1,
            "spent": "awareness",
            "pool": {"dice": 2, "keep": "highest"},
            "roll": {
                "seed": 0,
                "situation": "average",
                "steps": 2,
                "faces": [3, 6],
                "result": 6,
                "band": "success"
            },
            "label": "A success"
        })
    );
}

#[test]
fn commands_json_shapes() {
    let shapes = [
        (join("Ada"), json!({"action": "join", "name": "Ada"})),
        (
            Action::CreateSheet {
                owner: None,
                sheet: Sheet {
                    name: "Mira".to_owned(),
                    concept: "River scout".to_owned(),
                    aptitudes: AptitudePoints {
                        knowledge: 1,
                        awareness: 2,
                        charisma: 0,
                        physicality: 3,
                    },
                    skills: vec![Skill::Surroundings, Skill::Supernatural],
                    specialties: vec![horses()],
                    abilities: String::new(),
                },
            },
            json!({"action": "create_sheet", "sheet": {
                "name": "Mira", "concept": "River scout",
                "aptitudes": {"knowledge": 1, "awareness": 2, "charisma": 0, "physicality": 3},
                "skills": ["surroundings", "supernatural"],
                "specialties": [{"skill": "animals", "name": "horses"}],
                "abilities": ""
            }}),
        ),
        (
            Action::CallChallenge {
                character: CharacterId(0),
                description: "Cross the ford".to_owned(),
                situation: Situation::Favourable,
                aptitude: Aptitude::Physicality,
                skills: vec![Skill::Might],
                allow_steps: Some(3),
                bands: Some(vec![challenge::BandRange::new(1, 8, "Anything")]),
            },
            json!({"action": "call_challenge", "character": 0, "description": "Cross the ford",
                "situation": "favourable", "aptitude": "physicality", "skills": ["might"],
                "allow_steps": 3, "bands": [{"from": 1, "to": 8, "label": "Anything"}]}),
        ),
        (
            Action::Roll {
                challenge: ChallengeId(0),
                choice: Choice::specialty(Skill::Animals, "horses"),
                seed: Seed(42),
            },
            json!({"action": "roll", "challenge": 0,
                "choice": {"specialty": {"skill": "animals", "name": "horses"}, "aptitude_points": 0},
                "seed": 42}),
        ),
        (Action::Rest { character: None }, json!({"action": "rest"})),
        (
            Action::RecordFight {
                description: "Bandits".to_owned(),
                cost: "A scar".to_owned(),
                suggested_by: Some(ADA),
            },
            json!({"action": "record_fight", "description": "Bandits", "cost": "A scar", "suggested_by": 2}),
        ),
        (
            Action::HandGm { to: BO },
            json!({"action": "hand_gm", "to": 3}),
        ),
        (
            Action::RemovePlayer { player: BO },
            json!({"action": "remove_player", "player": 3}),
        ),
    ];
    for (action, shape) in shapes {
        assert_eq!(serde_json::to_value(&action).unwrap(), shape);
        assert_eq!(serde_json::from_value::<Action>(shape).unwrap(), action);
    }
    // Optional fields may be left out.
    let call: Action = serde_json::from_value(json!({"action": "call_challenge", "character": 0,
        "description": "Listen at the door", "situation": "difficult", "aptitude": "awareness"}))
    .unwrap();
    assert!(
        matches!(call, Action::CallChallenge { allow_steps: None, bands: None, ref skills, .. } if skills.is_empty())
    );
    let roll: Action =
        serde_json::from_value(json!({"action": "roll", "challenge": 0, "seed": 1})).unwrap();
    assert!(matches!(roll, Action::Roll { ref choice, .. } if *choice == Choice::none()));
}

/// `evolve` never panics, whatever it is given: events that name nothing that exists.
#[test]
fn evolve_is_total_on_crafted_events() {
    let crafted = [
        Event::SheetEdited {
            character: CharacterId(9),
            by: GM,
            sheet: Sheet::default(),
            spent: AptitudePoints::default(),
        },
        Event::ChallengeCancelled {
            challenge: ChallengeId(9),
            by: GM,
        },
        Event::PointSpent {
            character: CharacterId(9),
            aptitude: Aptitude::Charisma,
            by: GM,
            reason: String::new(),
        },
        Event::Rested {
            regained: vec![(CharacterId(9), AptitudePoints::default())],
        },
        Event::GmHanded { from: GM, to: BO },
        Event::PlayerRemoved {
            player: PlayerId(9),
        },
    ];
    let state = State::replay(&crafted);
    assert_eq!(state.version, 6);
}
