//! The table around the game: seats, bots, the creator, handing seats over; refusals in the
//! words players read; and the lobby's events in their stored JSON.

use crate::*;
use board::bot::Level;
use board::table::{self, BOT_NAMES, Decision, FIRST_BOT, Lobby, MAX_BOTS, Request};
use board::{MAX_PLAYERS, MIN_PLAYERS};

const ADA: PlayerId = P1;
const BO: PlayerId = P2;

/// The game before set-up.
fn lobby_game() -> State {
    State::new(content())
}

/// A game under way.
fn started_game() -> State {
    game(vec![])
}

/// The lobby after these events.
fn lobby(events: &[table::Event]) -> Lobby {
    events.iter().fold(Lobby::default(), |l, e| l.evolve(e))
}

fn seated(player: PlayerId, name: &str, bot: bool) -> table::Event {
    table::Event::Seated {
        player,
        name: name.to_owned(),
        bot,
        level: Level::Standard,
    }
}

/// Ada (the creator) and Bo.
fn ada_and_bo() -> Lobby {
    lobby(&[seated(ADA, "Ada", false), seated(BO, "Bo", false)])
}

/// What a request comes to: its lobby events, or its refusal as code, rule and words.
fn check(lobby: &Lobby, game: &State, request: Request, expected: Result<Vec<table::Event>, &str>) {
    let got = match table::decide(lobby, game, request.clone()) {
        Ok(Decision::Seats(events)) => Ok(events),
        Ok(Decision::Play(command)) => panic!("{request:?} plays {command:?}"),
        Err(refusal) => Err(format!(
            "{} ({}): {refusal}",
            refusal.code(),
            refusal.rule()
        )),
    };
    assert_eq!(got, expected.map_err(str::to_owned), "{request:?}");
}

#[test]
fn the_creator_is_the_first_person_seated_and_seats_bots() {
    let bot = seated(FIRST_BOT, "Juniper (bot)", true);
    let lobby = lobby(&[
        bot.clone(),
        seated(ADA, "Ada", false),
        seated(BO, "Bo", false),
    ]);
    assert_eq!(lobby.creator, Some(ADA));
    assert_eq!(lobby.seats.len(), 3);
    assert_eq!(lobby.name(BO), "Bo");
    assert_eq!(lobby.name(PlayerId(9)), "Player 9");
    let game = lobby_game();
    let next_bot = seated(PlayerId(FIRST_BOT.0 + 1), "Kestrel (bot)", true);
    check(
        &lobby,
        &game,
        Request::AddBot {
            by: ADA,
            level: Level::Standard,
        },
        Ok(vec![next_bot]),
    );
    check(
        &lobby,
        &game,
        Request::AddBot {
            by: BO,
            level: Level::Standard,
        },
        Err("not_creator (The table): Only the table's creator can seat a bot."),
    );
    check(
        &lobby,
        &game,
        Request::RemoveBot {
            by: ADA,
            bot: FIRST_BOT,
        },
        Ok(vec![table::Event::Unseated { player: FIRST_BOT }]),
    );
    check(
        &lobby,
        &game,
        Request::RemoveBot { by: ADA, bot: BO },
        Err("no_bot (The table): no bot sits at seat 2"),
    );
    check(
        &lobby,
        &game,
        Request::RemoveBot {
            by: BO,
            bot: FIRST_BOT,
        },
        Err("not_creator (The table): Only the table's creator can send a bot away."),
    );
}

#[test]
fn joining_needs_a_name_of_ones_own_and_a_free_seat() {
    let game = lobby_game();
    let join = |name: &str| Request::Join {
        player: PlayerId(7),
        name: name.to_owned(),
    };
    let lobby = ada_and_bo();
    check(
        &lobby,
        &game,
        join("  Cy "),
        Ok(vec![seated(PlayerId(7), "Cy", false)]),
    );
    check(
        &lobby,
        &game,
        join(" "),
        Err("empty_name (Character Preparation): Every player needs a name."),
    );
    check(
        &lobby,
        &game,
        join("Bo"),
        Err("name_taken (The table): Someone at this table is already called Bo."),
    );
    let full = (2..=MAX_PLAYERS as u32).fold(ada_and_bo(), |l, n| {
        l.evolve(&seated(PlayerId(n + 10), &format!("P{n}"), false))
    });
    check(
        &full,
        &game,
        join("Zed"),
        Err(
            "table_full (Setting up the game): This table is full: the basic version is for at most 5 players.",
        ),
    );
    check(
        &full,
        &game,
        Request::AddBot {
            by: ADA,
            level: Level::Standard,
        },
        Err("table_full (Setting up the game): The basic version is for at most 5 players."),
    );
    check(
        &lobby,
        &started_game(),
        join("Cy"),
        Err("game_started (The table): The game has begun: seats are set."),
    );
}

#[test]
fn a_new_table_opens_with_bots_named_unlike_its_creator() {
    let events = table::open(&[Level::Standard; 2], "juniper").unwrap();
    assert_eq!(
        events,
        [
            seated(FIRST_BOT, "Kestrel (bot)", true),
            seated(PlayerId(FIRST_BOT.0 + 1), "Lark (bot)", true),
        ]
    );
    assert_eq!(lobby(&events).creator, None, "bots create no table");
    let names: Vec<String> = (table::open(&[Level::Standard; MAX_BOTS], "Ada")
        .unwrap()
        .into_iter())
    .map(|e| match e {
        table::Event::Seated { name, .. } => name,
        other => panic!("{other:?}"),
    })
    .collect();
    let expected: Vec<String> = BOT_NAMES[..MAX_BOTS]
        .iter()
        .map(|n| format!("{n} (bot)"))
        .collect();
    assert_eq!(names, expected);
    assert_eq!(MAX_BOTS, MAX_PLAYERS - 1);
    // A creator alone can fill a game with bots, and start it.
    let full = lobby(&table::open(&[Level::Standard; MAX_BOTS], "Ada").unwrap())
        .evolve(&seated(ADA, "Ada", false));
    assert!((MIN_PLAYERS..=MAX_PLAYERS).contains(&full.seats.len()));
    let start = Request::Start {
        by: ADA,
        seed: Seed(1),
    };
    let Ok(Decision::Play(set_up)) = table::decide(&full, &lobby_game(), start) else {
        panic!("no start");
    };
    assert!(decide(&lobby_game(), set_up).is_ok());
    // Nor like a player seated: "Lark (bot)" beside a player called Lark reads as one.
    let mut with_kestrel = lobby(&[seated(ADA, "Ada", false), seated(BO, "kestrel", false)]);
    with_kestrel = with_kestrel.evolve(&seated(FIRST_BOT, "Juniper (bot)", true));
    check(
        &with_kestrel,
        &lobby_game(),
        Request::AddBot {
            by: ADA,
            level: Level::Standard,
        },
        Ok(vec![seated(PlayerId(FIRST_BOT.0 + 1), "Lark (bot)", true)]),
    );
}

#[test]
fn the_creator_starts_the_game_with_the_seats_in_order() {
    let lobby = ada_and_bo();
    let start = |by| Request::Start { by, seed: Seed(7) };
    let decided = table::decide(&lobby, &lobby_game(), start(ADA)).unwrap();
    let seats = vec![(ADA, "Ada".to_owned()), (BO, "Bo".to_owned())];
    let set_up = Command::new(
        ADA,
        Action::SetUp {
            seats,
            seed: Seed(7),
        },
    );
    assert_eq!(decided, Decision::Play(set_up));
    check(
        &lobby,
        &lobby_game(),
        start(BO),
        Err("not_creator (The table): Only the table's creator can start the game."),
    );
    check(
        &lobby,
        &started_game(),
        start(ADA),
        Err("game_started (The table): The game has begun: seats are set."),
    );
}

#[test]
fn in_the_game_a_seat_is_handed_to_a_bot_and_taken_back() {
    let game = started_game();
    let lobby = ada_and_bo();
    let hand = |by, player| Request::HandToBot { by, player };
    check(
        &lobby,
        &lobby_game(),
        hand(BO, BO),
        Err("not_started (The table): Before the game begins, seat a bot instead."),
    );
    check(
        &lobby,
        &game,
        hand(BO, BO),
        Ok(vec![table::Event::BotTookOver { player: BO }]),
    );
    check(
        &lobby,
        &game,
        hand(ADA, BO),
        Ok(vec![table::Event::BotTookOver { player: BO }]),
    );
    check(
        &lobby,
        &game,
        hand(BO, ADA),
        Err(
            "not_creator (The table): Only the table's creator can hand another player's seat to a bot.",
        ),
    );
    check(
        &lobby,
        &game,
        hand(ADA, PlayerId(9)),
        Err("no_player (The table): no player sits at seat 9"),
    );
    let handed = lobby
        .clone()
        .evolve(&table::Event::BotTookOver { player: BO });
    assert_eq!(
        handed.may_play(BO).map_err(|r| r.to_string()),
        Err("A bot plays your seat now.".to_owned())
    );
    assert_eq!(handed.may_play(ADA), Ok(()));
    check(
        &handed,
        &game,
        hand(BO, BO),
        Err("already_bot (The table): A bot already plays Bo."),
    );
    check(
        &handed,
        &game,
        Request::TakeBack { by: BO },
        Ok(vec![table::Event::PlayerReturned { player: BO }]),
    );
    check(
        &lobby,
        &game,
        Request::TakeBack { by: BO },
        Err("not_bot (The table): No bot is playing your seat."),
    );
    let back = handed.evolve(&table::Event::PlayerReturned { player: BO });
    assert_eq!(back, lobby);
}

#[test]
fn a_removed_player_leaves_the_lobby_or_hands_their_adventurer_to_a_bot_for_good() {
    let lobby = ada_and_bo();
    let remove = |player| Request::Remove { player };
    check(
        &lobby,
        &lobby_game(),
        remove(BO),
        Ok(vec![table::Event::Unseated { player: BO }]),
    );
    let game = started_game();
    check(
        &lobby,
        &game,
        remove(BO),
        Ok(vec![table::Event::PlayerRemoved { player: BO }]),
    );
    check(
        &lobby,
        &game,
        remove(PlayerId(9)),
        Err("no_player (The table): no player sits at seat 9"),
    );
    let removed = lobby.evolve(&table::Event::PlayerRemoved { player: BO });
    let seat = removed.seat(BO).unwrap();
    assert!(seat.bot && seat.removed);
    check(
        &removed,
        &game,
        remove(BO),
        Err("already_removed (The table): Bo was already removed."),
    );
    check(
        &removed,
        &game,
        Request::TakeBack { by: BO },
        Err("removed (The table): You were removed from this table."),
    );
    let gone = removed.evolve(&table::Event::Unseated { player: BO });
    assert_eq!(gone.seats.len(), 1);
    assert_eq!(gone.creator, Some(ADA));
}

/// The lobby's events as the web table has stored them since its first board games: the
/// same text reads and writes back unchanged; a seat stored before bots existed reads as a
/// person's.
#[test]
fn the_lobby_s_events_keep_their_stored_json() {
    let stored = [
        r#"{"type":"seated","player":1,"name":"Ada","bot":false}"#,
        r#"{"type":"seated","player":1000001,"name":"Juniper (bot)","bot":true}"#,
        r#"{"type":"unseated","player":1000001}"#,
        r#"{"type":"bot_took_over","player":2}"#,
        r#"{"type":"player_returned","player":2}"#,
        r#"{"type":"player_removed","player":2}"#,
        r#"{"type":"seated","player":1000002,"name":"Kestrel (bot)","bot":true,"level":"strong"}"#,
        r#"{"type":"seated","player":1000003,"name":"Lark (bot)","bot":true,"level":"easy"}"#,
    ];
    for line in stored {
        let event: table::Event = serde_json::from_str(line).unwrap();
        assert_eq!(serde_json::to_string(&event).unwrap(), line);
    }
    let old: table::Event =
        serde_json::from_str(r#"{"type":"seated","player":3,"name":"Cy"}"#).unwrap();
    assert_eq!(old, seated(P3, "Cy", false));
    let nameless = serde_json::from_str::<table::Event>(r#"{"type":"seated","player":1}"#);
    assert_eq!(nameless.unwrap_err().to_string(), "missing field `name`");
}

/// A bot is seated at the level asked, keeps it, and a seat handed to a bot plays standard.
#[test]
fn bots_are_seated_at_their_level() {
    let opened = table::open(&[Level::Strong, Level::Easy], "Ada").unwrap();
    let mut lobby = lobby(&opened);
    lobby = lobby.evolve(&seated(ADA, "Ada", false));
    let levels: Vec<Level> = lobby.seats.iter().map(|s| s.level).collect();
    assert_eq!(levels, [Level::Strong, Level::Easy, Level::Standard]);
    let request = Request::AddBot {
        by: ADA,
        level: Level::Strong,
    };
    let Ok(Decision::Seats(events)) = table::decide(&lobby, &lobby_game(), request) else {
        panic!("the creator seats a bot");
    };
    let lobby = events.iter().fold(lobby, |l, e| l.evolve(e));
    assert_eq!(
        lobby.seats.last().map(|s| (s.bot, s.level)),
        Some((true, Level::Strong))
    );
    let handed = lobby.evolve(&table::Event::BotTookOver { player: ADA });
    assert_eq!(
        handed.seat(ADA).map(|s| (s.bot, s.level)),
        Some((true, Level::Standard))
    );
}
