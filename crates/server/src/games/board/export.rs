//! What players take home from a board-game table: the game as Markdown, and its log as a
//! game file that keeps the decks' order secret until the game is over.

use super::table::{Event, Table};
use super::words::{guild_name, item_name, list, plural, ranking_words};
use board::event::Event as BoardEvent;
use board::model::Phase;

/// The game as Markdown. Every name in it is the players' text, escaped
/// ([`crate::text::markdown`]); the log's lines name players too, so each is escaped whole.
pub(super) fn markdown(table: &Table) -> (String, String) {
    use crate::text::markdown as escaped;
    let game = &table.game;
    let content = &game.content;
    let title = "Prophecy, the board game".to_owned();
    let mut out = format!("# {title}\n\n");
    match &game.phase {
        Phase::NotSetUp => out.push_str("The game has not begun.\n\n"),
        Phase::Playing(_) => out.push_str(&format!("In play: turn {}.\n\n", table.turns)),
        Phase::Won { winner, ranking } => out.push_str(&format!(
            "**{} won** after {} turns. Ranking: {}.\n\n",
            escaped(&table.name(*winner)),
            table.turns,
            escaped(&ranking_words(table, ranking))
        )),
        Phase::Ended { ranking } => out.push_str(&format!(
            "Every adventurer died after {} turns. Ranking: {}.\n\n",
            table.turns,
            escaped(&ranking_words(table, ranking))
        )),
    }
    if !game.adventurers.is_empty() {
        out.push_str("## The adventurers\n\n");
        for a in game.adventurers.iter() {
            let character = content
                .characters
                .get(a.character.index())
                .map_or_else(|| "?".to_owned(), |c| escaped(&c.name));
            let certificates: Vec<String> = a
                .certificates
                .iter()
                .map(|c| escaped(guild_name(c.0)))
                .collect();
            let items: Vec<String> = a
                .items
                .iter()
                .map(|i| escaped(&item_name(content, *i)))
                .collect();
            out.push_str(&format!(
                "- **{}** ({character}{}): {}, {}, Strength {}, Willpower {}; Certificates: {}; Items: {}.\n",
                escaped(&a.name),
                if a.alive { "" } else { ", dead" },
                plural(a.gold.0, "Gold", "Gold"),
                plural(a.experience.0, "Experience", "Experience"),
                a.health.right,
                a.magic.right,
                if certificates.is_empty() { "none".into() } else { list(&certificates) },
                if items.is_empty() { "none".into() } else { list(&items) },
            ));
        }
        out.push('\n');
    }
    if !table.chronicle.is_empty() {
        out.push_str("## The game, move by move\n\n");
        for line in &table.chronicle {
            out.push_str("- ");
            out.push_str(&escaped(line));
            out.push('\n');
        }
    }
    (title, out)
}

/// The log as players may take it home: whole once the game is over; while it runs, without
/// the decks' order.
pub(super) fn for_players(log: Vec<Event>) -> Vec<Event> {
    let over = log.iter().any(|e| {
        matches!(
            e,
            Event::Game {
                event: BoardEvent::GameWon { .. } | BoardEvent::GameEndedWithoutWinner { .. }
            }
        )
    });
    if over {
        return log;
    }
    // While the game runs, the decks' order is left out (a replay of this file is not the
    // game until it is over).
    log.into_iter()
        .map(|event| match event {
            Event::Game {
                event: BoardEvent::GameSetUp(set_up),
            } => Event::Game {
                event: BoardEvent::GameSetUp(Box::new(board::SetUp {
                    adventure_deck: Vec::new(),
                    chance_deck: Vec::new(),
                    common_items: Vec::new(),
                    rare_items: Vec::new(),
                    ..*set_up
                })),
            },
            Event::Game {
                event: BoardEvent::DeckReshuffled { deck, .. },
            } => Event::Game {
                event: BoardEvent::DeckReshuffled {
                    deck,
                    order: Vec::new(),
                },
            },
            other => other,
        })
        .collect()
}
