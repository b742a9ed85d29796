//! Seats, the GM seat and its handover, and fights written down.

use crate::*;
use challenge::limits::{MAX_PLAYERS, NAME_LEN, SEATS_EVER};

#[test]
fn the_first_to_join_holds_the_gm_seat() {
    let mut t = Table::new();
    assert_eq!(
        t.act(GM, join("Gail")),
        vec![Event::Joined {
            player: GM,
            name: "Gail".to_owned(),
            gm: true
        }]
    );
    assert_eq!(
        t.act(ADA, join("Ada")),
        vec![Event::Joined {
            player: ADA,
            name: "Ada".to_owned(),
            gm: false
        }]
    );
    assert!(t.state.is_gm(GM));
    assert!(!t.state.is_gm(ADA));
    assert_eq!(t.state.players.len(), 2);
    assert_eq!(t.state.characters_of(GM).count(), 0, "the GM has no sheet");
}

#[test]
fn seats_are_checked() {
    let mut t = Table::new();
    t.act(GM, join("Gail"));
    check_refusal(
        &t.refuse(GM, join("Gail")),
        "already_seated",
        "The table",
        "You are already seated at this table.",
    );
    check_refusal(
        &t.refuse(ADA, join("  ")),
        "empty",
        "The table",
        "The player's name cannot be empty.",
    );
    check_refusal(
        &t.refuse(ADA, join(&"a".repeat(NAME_LEN + 1))),
        "too_long",
        "The table",
        "The player's name is too long: at most 60 characters.",
    );
    t.act(ADA, join(&"é".repeat(NAME_LEN)));
    for id in 3..=MAX_PLAYERS as u32 {
        t.act(PlayerId(id), join("Someone"));
    }
    assert_eq!(
        t.refuse(PlayerId(99), join("Late")),
        Refusal::TableFull { most: MAX_PLAYERS }
    );
    check_refusal(
        &t.refuse(PlayerId(99), Action::Rest { character: None }),
        "not_seated",
        "The table",
        "You are not seated at this table.",
    );
}

#[test]
fn the_gm_hands_the_seat_to_another_player() {
    let mut t = Table::seated();
    check_refusal(
        &t.refuse(ADA, Action::HandGm { to: ADA }),
        "not_gm",
        "The table",
        "Only the GM may hand over the GM seat.",
    );
    check_refusal(
        &t.refuse(GM, Action::HandGm { to: GM }),
        "already_gm",
        "The table",
        "You already hold the GM seat.",
    );
    check_refusal(
        &t.refuse(GM, Action::HandGm { to: PlayerId(9) }),
        "no_such_player",
        "The table",
        "There is no player 9 at this table.",
    );
    assert_eq!(
        t.act(GM, Action::HandGm { to: BO }),
        vec![Event::GmHanded { from: GM, to: BO }]
    );
    assert_eq!(t.state.gm, Some(BO));
    let c = CharacterId(0);
    let challenge = call(c, Situation::Average, Aptitude::Awareness, &[]);
    assert_eq!(
        t.refuse(GM, challenge.clone()).code(),
        "not_gm",
        "the old GM is a player now"
    );
    t.act(BO, challenge);
    assert_eq!(t.state.challenges[0].called_by, BO);
}

#[test]
fn fights_are_written_down_with_their_cost() {
    let mut t = Table::seated();
    let fight = Action::RecordFight {
        description: "Bandits at the ford".to_owned(),
        cost: "Mira's horse bolted; she walks to town".to_owned(),
        suggested_by: Some(ADA),
    };
    check_refusal(
        &t.refuse(ADA, fight.clone()),
        "not_gm",
        "Fighting",
        "Only the GM may write down a fight.",
    );
    assert_eq!(
        t.act(GM, fight),
        vec![Event::FightRecorded {
            by: GM,
            description: "Bandits at the ford".to_owned(),
            cost: "Mira's horse bolted; she walks to town".to_owned(),
            suggested_by: Some(ADA),
        }]
    );
    assert_eq!(t.state.fights.len(), 1);
    assert_eq!(t.state.fights[0].suggested_by, Some(ADA));
    // A fight the characters did not start may cost nothing.
    t.act(
        GM,
        Action::RecordFight {
            description: "A drunk at the inn".to_owned(),
            cost: String::new(),
            suggested_by: None,
        },
    );
    assert_eq!(t.state.fights.len(), 2);
    assert_eq!(
        t.refuse(
            GM,
            Action::RecordFight {
                description: "Wolves".to_owned(),
                cost: "A bite".to_owned(),
                suggested_by: Some(PlayerId(9)),
            }
        ),
        Refusal::NoSuchPlayer {
            player: PlayerId(9)
        }
    );
    assert_eq!(
        t.refuse(
            GM,
            Action::RecordFight {
                description: " ".to_owned(),
                cost: String::new(),
                suggested_by: None,
            }
        ),
        Refusal::Empty {
            what: "fight's description"
        }
    );
}

#[test]
fn a_rolled_challenge_is_narrated_by_its_player_or_the_gm() {
    let mut t = Table::seated();
    let id = t.call(
        CharacterId(0),
        Situation::Average,
        Aptitude::Physicality,
        &[Skill::Might],
    );
    let narrate = |text: &str| Action::Narrate {
        challenge: id,
        text: text.to_owned(),
    };
    let refusal = t.refuse(ADA, narrate("Too soon"));
    assert_eq!(
        (refusal.code(), refusal.rule()),
        ("not_rolled", "Rolling To Resolve a Challenge")
    );
    t.act(
        ADA,
        Action::Roll {
            challenge: id,
            choice: Choice::none(),
            seed: Seed(5),
        },
    );
    assert_eq!(
        t.refuse(BO, narrate("Not mine")).code(),
        "not_your_character"
    );
    assert_eq!(t.refuse(ADA, narrate("  ")).code(), "empty");
    t.act(ADA, narrate("Mira swims the last yards."));
    t.act(
        GM,
        narrate("Mira swims the last yards, and loses her boots."),
    );
    assert_eq!(
        t.state.challenges[id.index()].narration,
        Some((
            GM,
            "Mira swims the last yards, and loses her boots.".to_owned()
        ))
    );
    assert_eq!(State::replay(&t.log), t.state);
}

#[test]
fn the_creator_removes_a_player_who_then_acts_no_more() {
    let mut t = Table::seated();
    t.act(GM, Action::HandGm { to: ADA });
    check_refusal(
        &t.refuse(ADA, Action::RemovePlayer { player: BO }),
        "not_creator",
        "The table",
        "Only the table's creator can remove a player.",
    );
    check_refusal(
        &t.refuse(GM, Action::RemovePlayer { player: GM }),
        "creator_stays",
        "The table",
        "The table's creator cannot be removed.",
    );
    // Ada holds the GM seat: it goes back to the creator, then she leaves.
    assert_eq!(
        t.act(GM, Action::RemovePlayer { player: ADA }),
        vec![
            Event::GmHanded { from: ADA, to: GM },
            Event::PlayerRemoved { player: ADA }
        ]
    );
    assert_eq!(t.state.gm, Some(GM));
    assert_eq!(
        serde_json::to_value(Event::PlayerRemoved { player: ADA }).unwrap(),
        serde_json::json!({"type": "player_removed", "player": 2})
    );
    // Whatever she sends now is refused, saying why.
    for action in [
        Action::CreateSheet {
            owner: None,
            sheet: mira(),
        },
        Action::SpendPoint {
            character: CharacterId(0),
            aptitude: Aptitude::Physicality,
            reason: "A last climb".to_owned(),
        },
        join("Ada again"),
    ] {
        check_refusal(
            &t.refuse(ADA, action),
            "removed",
            "The table",
            "You were removed from this table.",
        );
    }
    // Her sheet stays, as a record; nobody names her as a player any more.
    assert_eq!(t.state.characters[0].sheet.name, "Mira");
    assert_eq!(
        t.refuse(GM, Action::HandGm { to: ADA }),
        Refusal::NoSuchPlayer { player: ADA }
    );
    assert_eq!(
        t.refuse(
            GM,
            Action::CreateSheet {
                owner: Some(ADA),
                sheet: mira()
            }
        ),
        Refusal::NoSuchPlayer { player: ADA }
    );
    assert_eq!(
        t.refuse(GM, Action::RemovePlayer { player: ADA }),
        Refusal::NoSuchPlayer { player: ADA }
    );
}

#[test]
fn removed_players_leave_a_place_at_a_full_table() {
    let mut t = Table::new();
    t.act(GM, join("Gail"));
    for id in 2..=MAX_PLAYERS as u32 {
        t.act(PlayerId(id), join(&format!("Player {id}")));
    }
    let late = PlayerId(MAX_PLAYERS as u32 + 1);
    assert_eq!(
        t.refuse(late, join("Late")),
        Refusal::TableFull { most: MAX_PLAYERS }
    );
    t.act(GM, Action::RemovePlayer { player: ADA });
    t.act(late, join("Late"));
    assert_eq!(t.state.seated_players().count(), MAX_PLAYERS);
    assert_eq!(
        t.refuse(PlayerId(99), join("Later")),
        Refusal::TableFull { most: MAX_PLAYERS }
    );
}

#[test]
fn a_table_keeps_at_most_so_many_seats_ever() {
    let mut t = Table::new();
    t.act(GM, join("Gail"));
    for id in 2..=SEATS_EVER as u32 {
        t.act(PlayerId(id), join(&format!("Player {id}")));
        t.act(
            GM,
            Action::RemovePlayer {
                player: PlayerId(id),
            },
        );
    }
    check_refusal(
        &t.refuse(PlayerId(500), join("One more")),
        "seats_ever",
        "The table",
        "This table has seated 100 players in all (removed ones included), the most it keeps: start a new table.",
    );
}
