//! The board game's words: one line for the log per event, naming only what the event
//! reveals, and a table's progress in a few words. The view and the export name things the
//! same way.

use super::table::{Event, Table};
use board::State as BoardState;
use board::command::{BattleKind, MoveKind};
use board::content::{Content, Effect, Guild};
use board::event::Event as BoardEvent;
use board::ids::{AdventureId, ChanceId, ItemId, PlayerId, SpaceId};
use board::model::{DeckKind, Phase, Ranking};
use board::table::Event as LobbyEvent;

pub(super) fn space_name(content: &Content, space: SpaceId) -> String {
    content
        .board
        .spaces
        .get(space.index())
        .map_or_else(|| format!("space {}", space.0), |s| s.name.clone())
}

fn adventure_name(content: &Content, card: AdventureId) -> String {
    content
        .adventures
        .get(card.index())
        .map_or_else(|| format!("card {}", card.0), |c| c.name().to_owned())
}

pub(super) fn item_name(content: &Content, item: ItemId) -> String {
    content
        .items
        .get(item.index())
        .map_or_else(|| format!("item {}", item.0), |i| i.name.clone())
}

fn chance_name(content: &Content, card: ChanceId) -> String {
    content
        .chance
        .get(card.index())
        .map_or_else(|| format!("card {}", card.0), |c| c.name.clone())
}

/// A guild's name as the board names its space.
/// A guild as its Certificate names it: "the Fortress".
pub(super) fn guild_name(guild: Guild) -> &'static str {
    match guild {
        Guild::Fortress => "the Fortress",
        Guild::ThievesGuild => "the Thieves\u{2019} Guild",
        Guild::MagicTower => "the Magic Tower",
        Guild::ForestCamp => "the Forest Camp",
        Guild::Monastery => "the Monastery",
    }
}

fn deck_name(deck: DeckKind) -> &'static str {
    match deck {
        DeckKind::Adventure => "Adventure",
        DeckKind::Chance => "Chance",
        DeckKind::CommonItems => "Common Item",
        DeckKind::RareItems => "Rare Item",
    }
}

pub(super) fn plural(n: u32, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

pub(super) fn list(words: &[String]) -> String {
    match words {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

fn move_words(how: MoveKind) -> &'static str {
    match how {
        MoveKind::Stay => "stays in",
        MoveKind::Walk { .. } => "walks to",
        MoveKind::Horse { .. } => "rides a horse to",
        MoveKind::Boat { .. } => "sails to",
        MoveKind::MagicGate { .. } => "steps through the Magic Gate to",
    }
}

pub(super) fn effect_words(effect: Effect, applied: u32) -> String {
    match effect {
        Effect::GainGold(_) => format!("gains {}", plural(applied, "Gold", "Gold")),
        Effect::LoseGold(_) => format!("loses {}", plural(applied, "Gold", "Gold")),
        Effect::GainExperience(_) => {
            format!("gains {}", plural(applied, "Experience", "Experience"))
        }
        Effect::LoseExperience(_) => {
            format!("loses {}", plural(applied, "Experience", "Experience"))
        }
        Effect::Heal(_) => format!("heals {}", plural(applied, "Health", "Health")),
        Effect::LoseHealth(_) => format!("loses {}", plural(applied, "Health", "Health")),
        Effect::Recharge(_) => format!("recharges {}", plural(applied, "Magic", "Magic")),
        Effect::LoseMagic(_) => format!("loses {}", plural(applied, "Magic", "Magic")),
        Effect::GainStrength(_) => format!("gains {}", plural(applied, "Strength", "Strength")),
        Effect::GainWillpower(_) => {
            format!("gains {}", plural(applied, "Willpower", "Willpower"))
        }
        Effect::DrawCommonItem => "draws a Common Item".into(),
        Effect::DrawRareItem => "draws a Rare Item".into(),
        Effect::LoseItem => "loses an Item".into(),
        Effect::MoveOneSpace => "moves one space".into(),
        Effect::MissTurn => "will miss her next turn".into(),
    }
}

pub(super) fn ranking_words(table: &Table, ranking: &Ranking) -> String {
    let places: Vec<String> = ranking
        .0
        .iter()
        .enumerate()
        .map(|(i, (p, n))| {
            format!(
                "{}. {} ({})",
                i + 1,
                table.name(*p),
                plural(*n, "Certificate", "Certificates")
            )
        })
        .collect();
    places.join(", ")
}

/// A battle's rolls as totals, each with its dice: "9 against 8 (dice 6 and 6)". The values
/// are the battle's as it was about to be fought (with her weapon thrown or not: `throw`);
/// the dice alone if they cannot be known.
fn rolls_words(
    game: &BoardState,
    player: PlayerId,
    kind: BattleKind,
    items: &[ItemId],
    throw: bool,
    rolls: &[(u8, u8)],
) -> String {
    let values = match board::encounter::battle(game, player, kind, items, throw) {
        Ok(b) => Some((b.yours, b.first_roll_bonus, b.theirs)),
        // The Battle of Strength after a Battle of Wills won: the first battle's second stage.
        Err(_) if kind == BattleKind::Strength => {
            board::encounter::battle(game, player, BattleKind::Wills, items, throw)
                .ok()
                .and_then(|b| b.then)
                .map(|t| (t.yours, t.first_roll_bonus, t.theirs))
        }
        Err(_) => None,
    };
    let each: Vec<String> = (rolls.iter().enumerate())
        .map(|(i, (mine, theirs))| match values {
            Some((yours, first, against)) => {
                let bonus = if i == 0 { first } else { 0 };
                format!(
                    "{} against {} (dice {mine} and {theirs})",
                    i32::from(*mine) + yours + bonus,
                    i32::from(*theirs) + against
                )
            }
            None => format!("dice {mine} against {theirs}"),
        })
        .collect();
    each.join(", then ")
}

/// One line for the log, from the table before the event. Names only what the event reveals.
pub(super) fn describe(before: &Table, event: &Event) -> String {
    match event {
        Event::Lobby(event) => lobby_line(before, event),
        Event::Game { event } => turn_line(before, event)
            .or_else(|| action_line(before, event))
            .or_else(|| encounter_line(before, event))
            .unwrap_or_else(|| "Something happened.".to_owned()),
    }
}

/// Who sits down, leaves, or hands their seat to a bot.
fn lobby_line(before: &Table, event: &LobbyEvent) -> String {
    match event {
        LobbyEvent::Seated {
            name, bot, level, ..
        } => {
            if *bot && *level != board::bot::Level::Standard {
                format!("{name} takes a seat: a {level} bot.")
            } else if *bot {
                format!("{name} takes a seat.")
            } else {
                format!("{name} sits down at the table.")
            }
        }
        LobbyEvent::Unseated { player } => format!("{} leaves the table.", before.name(*player)),
        LobbyEvent::BotTookOver { player } => format!(
            "A bot plays {}'s adventurer from now on.",
            before.name(*player)
        ),
        LobbyEvent::PlayerReturned { player } => format!(
            "{} takes their seat back from the bot.",
            before.name(*player)
        ),
        LobbyEvent::PlayerRemoved { player } => format!(
            "{} left the table: a bot plays their adventurer from now on.",
            before.name(*player)
        ),
    }
}

/// What the table's list says of it: waiting, whose turn, or how it ended.
pub(super) fn progress(table: &Table) -> String {
    match &table.game.phase {
        Phase::NotSetUp => match table.lobby.seats.len() {
            1 => "Waiting to begin: 1 adventurer seated".to_owned(),
            n => format!("Waiting to begin: {n} adventurers seated"),
        },
        Phase::Playing(turn) => {
            format!("Turn {}: {}’s turn", table.turns, table.name(turn.player))
        }
        Phase::Won { winner, .. } => {
            format!("{} won after {} turns", table.name(*winner), table.turns)
        }
        Phase::Ended { .. } => format!("Every adventurer died after {} turns", table.turns),
    }
}

/// Where the game stands, for a replay's jumps: the lobby, each turn, the end.
pub(super) fn stage(table: &Table) -> String {
    match &table.game.phase {
        Phase::NotSetUp => "The lobby".to_owned(),
        Phase::Playing(_) => progress(table),
        Phase::Won { .. } | Phase::Ended { .. } => "The end".to_owned(),
    }
}

/// The game's own turns: set-up, Chance cards, the market, whose turn it is, the end.
fn turn_line(before: &Table, event: &BoardEvent) -> Option<String> {
    let content = &before.game.content;
    let name = |p: PlayerId| before.name(p);
    Some(match event {
        BoardEvent::GameSetUp(set_up) => {
            let board::SetUp {
                seats,
                rolls,
                first_player,
                ..
            } = &**set_up;
            let dealt: Vec<String> = seats
                .iter()
                .map(|s| {
                    let character = content
                        .characters
                        .get(s.character.index())
                        .map_or("?", |c| c.name.as_str());
                    format!("{} plays {character}", s.name)
                })
                .collect();
            let rolled = if rolls.len() > 1 { " after a tie" } else { "" };
            format!(
                "The game begins: {}. {} rolls highest{rolled} and begins.",
                list(&dealt),
                name(*first_player)
            )
        }
        BoardEvent::DeckReshuffled { deck, .. } => {
            format!(
                "The {} discards are shuffled into a new deck.",
                deck_name(*deck)
            )
        }
        BoardEvent::ChanceDrawn { player, card } => format!(
            "{} draws the Chance card {}.",
            name(*player),
            chance_name(content, *card)
        ),
        BoardEvent::AdventuresPlaced { placed } => {
            let cards: Vec<String> = placed
                .iter()
                .map(|(space, card)| {
                    format!(
                        "{} on {}",
                        adventure_name(content, *card),
                        space_name(content, *space)
                    )
                })
                .collect();
            if cards.is_empty() {
                "No space of that terrain is empty: no Adventure card is placed.".into()
            } else {
                format!("Adventure cards are placed: {}.", list(&cards))
            }
        }
        BoardEvent::ItemsDiscarded { space, items } => {
            let names: Vec<String> = items.iter().map(|i| item_name(content, *i)).collect();
            format!(
                "{} lying in {} {} discarded.",
                list(&names),
                space_name(content, *space),
                if names.len() == 1 { "is" } else { "are" }
            )
        }
        BoardEvent::ItemsLaidOut { space, items, .. } => {
            let names: Vec<String> = items.iter().map(|i| item_name(content, *i)).collect();
            format!(
                "New Items for sale in {}: {}.",
                space_name(content, *space),
                list(&names)
            )
        }
        BoardEvent::AdventurersRefreshed { refreshed } => {
            let each: Vec<String> = refreshed
                .iter()
                .map(|r| {
                    let mut got = Vec::new();
                    if r.healed > 0 {
                        got.push(plural(r.healed, "Health", "Health"));
                    }
                    if r.recharged > 0 {
                        got.push(plural(r.recharged, "Magic", "Magic"));
                    }
                    if r.gold.0 > 0 {
                        got.push(plural(r.gold.0, "Gold", "Gold"));
                    }
                    format!("{} gets {}", name(r.player), list(&got))
                })
                .collect();
            if each.is_empty() {
                "Nobody gets anything.".into()
            } else {
                format!("{}.", list(&each))
            }
        }
        BoardEvent::ExtraTurnGranted { player } => {
            format!("{} will take an extra turn.", name(*player))
        }
        BoardEvent::GameWon { winner, ranking } => format!(
            "{} wins the game! Ranking: {}.",
            name(*winner),
            ranking_words(before, ranking)
        ),
        BoardEvent::GameEndedWithoutWinner { ranking } => format!(
            "Every adventurer is dead: the game ends without a winner. Ranking: {}.",
            ranking_words(before, ranking)
        ),
        BoardEvent::TurnMissed { player } => format!("{} misses a turn.", name(*player)),
        BoardEvent::TurnEnded { next, extra, .. } => {
            if *extra {
                format!("{} takes the extra turn.", name(*next))
            } else {
                format!("It is {}'s turn.", name(*next))
            }
        }
        BoardEvent::AdventurerDied { player } => {
            format!(
                "{}'s adventurer dies: she is out of the game.",
                name(*player)
            )
        }
        _ => return None,
    })
}

/// What an adventurer does on her turn but fight: moving, buying, selling, resting.
fn action_line(before: &Table, event: &BoardEvent) -> Option<String> {
    let content = &before.game.content;
    let name = |p: PlayerId| before.name(p);
    Some(match event {
        BoardEvent::Moved {
            player,
            how,
            to,
            paid,
        } => {
            let cost = if paid.0 > 0 {
                format!(" for {}", plural(paid.0, "Gold", "Gold"))
            } else {
                String::new()
            };
            format!(
                "{} {} {}{cost}.",
                name(*player),
                move_words(*how),
                space_name(content, *to)
            )
        }
        BoardEvent::CertificateBought {
            player,
            guild,
            experience,
            gold,
        } => format!(
            "{} buys the Certificate of {} ({}) for {}{}.",
            name(*player),
            guild_name(*guild),
            space_name(content, SpaceId::of(content.board.guild(*guild))),
            plural(experience.0, "Experience", "Experience"),
            if gold.0 > 0 {
                format!(" and {}", plural(gold.0, "Gold", "Gold"))
            } else {
                String::new()
            }
        ),
        BoardEvent::Recovered {
            player,
            healed,
            recharged,
            paid,
            ..
        } => {
            let mut got = Vec::new();
            if *healed > 0 {
                got.push(format!("heals {}", plural(*healed, "Health", "Health")));
            }
            if *recharged > 0 {
                got.push(format!(
                    "recharges {}",
                    plural(*recharged, "Magic", "Magic")
                ));
            }
            let cost = if paid.0 > 0 {
                format!(" for {}", plural(paid.0, "Gold", "Gold"))
            } else {
                String::new()
            };
            format!("{} {}{cost}.", name(*player), list(&got))
        }
        BoardEvent::Traded {
            player,
            health,
            magic,
            gold,
            experience,
            ..
        } => {
            let mut gave = Vec::new();
            if *health > 0 {
                gave.push(plural(*health, "Health", "Health"));
            }
            if *magic > 0 {
                gave.push(plural(*magic, "Magic", "Magic"));
            }
            let mut got = Vec::new();
            if gold.0 > 0 {
                got.push(plural(gold.0, "Gold", "Gold"));
            }
            if experience.0 > 0 {
                got.push(plural(experience.0, "Experience", "Experience"));
            }
            format!(
                "{} gives {} for {} instead of moving.",
                name(*player),
                list(&gave),
                list(&got)
            )
        }
        BoardEvent::ItemBought {
            player, item, paid, ..
        } => format!(
            "{} buys {} for {}.",
            name(*player),
            item_name(content, *item),
            plural(paid.0, "Gold", "Gold")
        ),
        BoardEvent::ItemSold { player, item, gold } => format!(
            "{} sells {} for {}.",
            name(*player),
            item_name(content, *item),
            plural(gold.0, "Gold", "Gold")
        ),
        BoardEvent::ItemRepaired { player, item, paid } => format!(
            "{} has {} repaired for {}.",
            name(*player),
            item_name(content, *item),
            plural(paid.0, "Gold", "Gold")
        ),
        BoardEvent::MovedOneSpace { player, to, .. } => format!(
            "{} is moved one space, to {}.",
            name(*player),
            space_name(content, *to)
        ),
        _ => return None,
    })
}

/// Encounters: battles and their dice, Creatures, Opportunities and what they give or take.
fn encounter_line(before: &Table, event: &BoardEvent) -> Option<String> {
    let content = &before.game.content;
    let name = |p: PlayerId| before.name(p);
    Some(match event {
        BoardEvent::BattleFought {
            player,
            card,
            kind,
            magic_paid,
            rolls,
            outcome,
            items,
            thrown,
            ..
        } => {
            let battle = match kind {
                BattleKind::Strength => "a Battle of Strength",
                BattleKind::Wills => "a Battle of Wills",
            };
            let paid = if *magic_paid > 0 {
                format!(" (for {})", plural(*magic_paid, "Magic", "Magic"))
            } else {
                String::new()
            };
            let with = if items.is_empty() {
                String::new()
            } else {
                let names: Vec<String> = (items.iter())
                    .map(|&i| {
                        let name = item_name(content, i);
                        if *thrown == Some(i) {
                            format!("{name} (thrown)")
                        } else {
                            name
                        }
                    })
                    .collect();
                format!(" with {}", list(&names))
            };
            let result = match outcome {
                dice::opposed::BattleOutcome::Win => "won",
                dice::opposed::BattleOutcome::Draw => "a draw",
                dice::opposed::BattleOutcome::Loss => "lost",
            };
            format!(
                "{} fights {} in {battle}{paid}{with}: {}; {result}.",
                name(*player),
                adventure_name(content, *card),
                rolls_words(&before.game, *player, *kind, items, thrown.is_some(), rolls)
            )
        }
        BoardEvent::ItemDamaged { player, item } => format!(
            "{}'s {} is damaged.",
            name(*player),
            item_name(content, *item)
        ),
        BoardEvent::CreatureDefeated {
            player,
            card,
            experience,
            ..
        } => format!(
            "{} defeats {} and gains {}.",
            name(*player),
            adventure_name(content, *card),
            plural(experience.0, "Experience", "Experience")
        ),
        BoardEvent::OpportunityUsed { player, card, .. } => {
            format!("{} uses {}.", name(*player), adventure_name(content, *card))
        }
        BoardEvent::EffectApplied {
            player,
            effect,
            applied,
        } => format!("{} {}.", name(*player), effect_words(*effect, *applied)),
        BoardEvent::ItemDrawn { player, item, deck } => format!(
            "{} draws {} from the {} deck.",
            name(*player),
            item_name(content, *item),
            deck_name(*deck)
        ),
        BoardEvent::ItemLost { player, item } => {
            format!("{} loses {}.", name(*player), item_name(content, *item))
        }
        BoardEvent::CreatureRose { card, to, .. } => format!(
            "{} rises again on {}.",
            adventure_name(content, *card),
            space_name(content, *to)
        ),
        BoardEvent::CreaturePassed { player, card, paid } => format!(
            "{} pays {} to pass {} without a fight.",
            name(*player),
            plural(paid.0, "Gold", "Gold"),
            adventure_name(content, *card)
        ),
        BoardEvent::CreatureLetGo { player, card, .. } => format!(
            "{} lets {} go: it is discarded, for nothing.",
            name(*player),
            adventure_name(content, *card)
        ),
        _ => return None,
    })
}
