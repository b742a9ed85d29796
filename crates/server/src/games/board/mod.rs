//! Prophecy, the board game (basic version), at the web table: a lobby where the creator seats
//! bots and starts the game, requests from the page become engine commands (with the server's
//! seeds), events become log lines, and the state becomes the view every page shares (see
//! PROTOCOL.md, "The board game"). The lobby and the game are the rules crate's
//! ([`board::table`], [`board::decide()`]); this adapter is in files by job: `table` (what a
//! table holds, and requests read from the page), `words` (the log's lines), `view` (what
//! pages see) and `export` (what players take home).
//!
//! Hidden information: the decks' order lives in the state and the log on the server only.
//! The view names face-up cards and counts face-down ones; the log's lines name only what was
//! revealed; the game file players may download leaves the decks' order out until the game is
//! over.

mod export;
mod table;
mod view;
mod words;

pub use table::{CONTENT, Event, Table};

use crate::game::{Context, Game, Rejection};
use serde_json::Value;

/// The board game.
pub struct BoardGame;

impl Game for BoardGame {
    const KIND: &'static str = "board";
    const NAME: &'static str = "Prophecy, the board game";
    const PAGE: &'static str = "board/table.html";
    type State = Table;
    type Event = Event;
    type View = Value;
    type Extras = crate::game::Plain;

    fn open(settings: &Value) -> Result<Vec<Event>, Rejection> {
        table::open(settings)
    }

    fn join(table: &Table, player: u32, name: &str) -> Result<Vec<Event>, Rejection> {
        table::join(table, player, name)
    }

    fn remove(table: &Table, player: u32) -> Result<Vec<Event>, Rejection> {
        table::remove(table, player)
    }

    fn act(
        table: &Table,
        player: u32,
        action: &Value,
        context: &Context,
    ) -> Result<Vec<Event>, Rejection> {
        table::act(table, player, action, context)
    }

    fn evolve(mut table: Table, event: &Event) -> Table {
        let line = words::describe(&table, event);
        if !line.is_empty() {
            table.chronicle.push(line);
        }
        table.apply(event)
    }

    fn encode(event: &Event) -> String {
        serde_json::to_string(event).unwrap_or_default()
    }

    fn decode(body: &str) -> Result<Event, String> {
        serde_json::from_str(body).map_err(|e| e.to_string())
    }

    fn content() -> Option<Value> {
        Some(view::content_json())
    }

    fn bot(table: &Table) -> Option<u32> {
        let turn = table.game.turn()?;
        (table.lobby.seat(turn.player))
            .filter(|s| s.bot)
            .map(|_| turn.player.0)
    }

    fn bot_act(table: &Table, player: u32, context: &Context) -> Result<Vec<Event>, Rejection> {
        table::bot_act(table, player, context)
    }

    fn describe(before: &Table, event: &Event) -> String {
        words::describe(before, event)
    }

    fn view(table: &Table, creator: u32) -> Value {
        view::view(Self::KIND, table, creator)
    }

    fn markdown(table: &Table) -> (String, String) {
        export::markdown(table)
    }

    fn title(_table: &Table, _creator: u32, created_at: i64) -> String {
        crate::game::dated("Board game", created_at)
    }

    fn progress(table: &Table) -> String {
        words::progress(table)
    }

    fn for_players(log: Vec<Event>) -> Vec<Event> {
        export::for_players(log)
    }

    /// The whole log: a step's view is the table's shared view then, which never shows a
    /// deck's order (tests/it/board.rs proves it of every view a page or a replay receives).
    fn replayed(log: Vec<Event>) -> Vec<Event> {
        log
    }

    fn stage(table: &Table) -> Option<String> {
        Some(words::stage(table))
    }

    fn over(table: &Table) -> bool {
        matches!(
            table.game.phase,
            board::model::Phase::Won { .. } | board::model::Phase::Ended { .. }
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use board::ids::{AdventureId, PlayerId};
    use serde_json::json;
    use std::sync::Arc;

    /// A stored event that does not read says why, for `prophecy db copy` to print.
    #[test]
    fn an_event_that_does_not_read_says_why() {
        let why = |body: &str| BoardGame::decode(body).unwrap_err();
        assert_eq!(
            why(r#"{"type":"seated","player":1}"#),
            "missing field `name`"
        );
        assert_eq!(why(r#"{"type":"game"}"#), "missing field `event`");
        assert!(why(r#"{"type":"sat"}"#).starts_with("unknown variant `sat`"));
        assert_eq!(why("not json"), "expected ident at line 1 column 2");
    }

    /// The number of bots, as a script sends it or as a form does (text), seats that many.
    #[test]
    fn bots_are_read_from_a_number_or_a_forms_text() {
        let seated = |bots: Value| {
            BoardGame::open(&json!({ "bots": bots, "creator": "Ada" }))
                .map(|events| events.len())
                .map_err(|e| format!("{e:?}"))
        };
        let one = seated(json!(1)).unwrap();
        assert!(one > 0);
        assert_eq!(seated(json!("1")), Ok(one));
        assert_eq!(seated(json!(" 3 ")), Ok(3 * one));
        assert_eq!(seated(json!("")), Ok(0));
        assert_eq!(seated(Value::Null), Ok(0));
        for wrong in [json!("5"), json!(5), json!("two"), json!(-1)] {
            let refused = seated(wrong.clone()).unwrap_err();
            assert!(
                refused.contains("bots is a number of bots from 0 to 4"),
                "{wrong}: {refused}"
            );
        }
    }

    /// Ada (seat 1) and a bot, the game started.
    fn started() -> Table {
        let mut table = Table::default();
        let context = Context { now: 0, seed: 3 };
        let joined = BoardGame::join(&table, 1, "Ada").unwrap();
        table = joined.iter().fold(table, BoardGame::evolve);
        for action in ["add_bot", "start"] {
            let events = BoardGame::act(&table, 1, &json!({ "action": action }), &context);
            table = events.unwrap().iter().fold(table, BoardGame::evolve);
        }
        table
    }

    /// An Opportunity she cannot pay for in full is not offered: the page says why instead.
    #[test]
    fn an_opportunity_she_cannot_pay_for_says_why() {
        let mut table = started();
        let content = Arc::clone(&table.game.content);
        let lessons = (content.adventures.iter())
            .position(|c| c.name() == "Old Soldier's Lessons")
            .map(AdventureId::of)
            .unwrap();
        let player = PlayerId(table.game.turn().unwrap().player.0);
        let a = table.game.adventurer(player).unwrap().clone();
        table.game.spaces[a.space.index()].adventure = Some(lessons);
        if let board::model::Phase::Playing(turn) = &mut table.game.phase {
            turn.step = board::model::Step::Moved;
        }
        let options = |table: &Table| view::view("board", table, 1)["options"].clone();
        let idx = (table.game.adventurers.iter()).position(|x| x.player == player);
        table.game.adventurers[idx.unwrap()].gold = board::model::Gold(1);
        let short = options(&table);
        assert_eq!(short["opportunity"], Value::Null, "{short}");
        assert_eq!(short["opportunity_unusable"]["card"], lessons.0);
        assert_eq!(
            short["opportunity_unusable"]["why"],
            "This card costs 3 Gold and you have 1: its price is paid in full or not at all."
        );
        table.game.adventurers[idx.unwrap()].gold = board::model::Gold(3);
        let paid = options(&table);
        assert_eq!(paid["opportunity"], lessons.0);
        assert_eq!(paid["opportunity_unusable"], Value::Null);
    }

    /// Against a Creature that asks for a Battle of Wills and then one of Strength, the battle
    /// offered names both: its own values and the second battle's (the odds are of both).
    #[test]
    fn a_two_stage_battle_offers_both_battles_values() {
        let mut table = started();
        let content = Arc::clone(&table.game.content);
        let priest = (content.adventures.iter())
            .position(|c| c.name() == "Drowned Priest")
            .map(AdventureId::of)
            .unwrap();
        let player = PlayerId(1);
        let at = table.game.adventurer(player).unwrap().space;
        table.game.spaces[at.index()].adventure = Some(priest);
        let battles: Vec<Value> = (view::battle_choices(&table.game, player).into_iter())
            .map(|(_, b)| b)
            .filter(|b| b["items"].as_array().is_some_and(Vec::is_empty))
            .collect();
        assert_eq!(battles.len(), 1, "{battles:?}");
        let wills = &battles[0];
        assert_eq!(wills["kind"], "wills");
        assert_eq!(wills["theirs"], 5);
        assert_eq!(wills["then"]["theirs"], 3, "{wills}");
        assert!(wills["then"]["yours"].as_i64().unwrap() > 0);
    }

    /// A weapon that may be thrown is offered both ways in a Battle of Strength, held and
    /// thrown, each with its values and exact odds; in a Battle of Wills only held.
    #[test]
    fn a_throwable_weapon_is_offered_held_and_thrown() {
        let mut table = started();
        let content = Arc::clone(&table.game.content);
        let card = |name: &str| {
            (content.adventures.iter())
                .position(|c| c.name() == name)
                .map(AdventureId::of)
                .unwrap()
        };
        let knife = (content.items.iter())
            .position(|i| i.name == "Hunting Knife")
            .unwrap();
        let player = PlayerId(1);
        let idx = (table.game.adventurers.iter()).position(|a| a.player == player);
        let adventurer = &mut table.game.adventurers[idx.unwrap()];
        adventurer.items.push(board::ids::ItemId::of(knife));
        let at = adventurer.space;
        let with_knife = |table: &Table| -> Vec<Value> {
            (view::battle_choices(&table.game, player).into_iter())
                .map(|(_, b)| b)
                .filter(|b| b["items"] == json!([knife]))
                .collect()
        };

        table.game.spaces[at.index()].adventure = Some(card("Hill Wolf"));
        let battles = with_knife(&table);
        assert_eq!(battles.len(), 2, "{battles:?}");
        let (held, thrown) = (&battles[0], &battles[1]);
        assert_eq!(
            (&held["throw"], &held["thrown"]),
            (&json!(false), &Value::Null)
        );
        assert_eq!(
            (&thrown["throw"], &thrown["thrown"]),
            (&json!(true), &json!(knife))
        );
        // Held: +1 on every roll. Thrown: +2 on the first (and only) roll.
        assert_eq!(held["first_roll_bonus"], 0);
        assert_eq!(thrown["first_roll_bonus"], 2);
        let yours = |b: &Value| b["yours"].as_i64().unwrap();
        assert_eq!(yours(held), yours(thrown) + 1);
        assert_ne!(held["odds"], thrown["odds"]);
        let held_odds = board::encounter::battle(
            &table.game,
            player,
            board::BattleKind::Strength,
            &[board::ids::ItemId::of(knife)],
            false,
        )
        .map(|b| board::encounter::odds(&b))
        .unwrap();
        assert_eq!(held["odds"]["win"], held_odds.win.to_string());

        table.game.spaces[at.index()].adventure = Some(card("Wisp of the Fen"));
        let battles = with_knife(&table);
        assert_eq!(battles.len(), 1, "{battles:?}");
        assert_eq!(battles[0]["kind"], "wills");
        assert_eq!(battles[0]["throw"], false);
    }
}
