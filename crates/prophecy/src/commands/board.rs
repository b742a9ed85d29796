//! `prophecy board simulate` and `prophecy board cards`: the board game's bots and content.

use super::{JsonSeed, count, json, percent, seed_or_fresh};
use crate::Failure;
use crate::cli::{BoardCardsArgs, BoardSimulateArgs};
use ::board::bot::Level;
use ::board::content::{AdventureCard, Content, CreatureStats, Effect, Rarity, SpecialRule};
use ::board::simulate::{MAX_TURNS, Report, simulate_at as run_games};
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;
use std::fmt::Write;
use std::io::IsTerminal;
use std::sync::Arc;

/// Runs shorter than this finish in about a second: no progress bar.
const PROGRESS_FROM_GAMES: u64 = 5_000;
/// Games between progress updates.
const PROGRESS_EVERY: u64 = 256;
const PROGRESS_TEMPLATE: &str = "{bar:40} {percent:>3}% {human_pos}/{human_len} games, {eta} left";

#[derive(Serialize)]
struct SimulateReport {
    seed: JsonSeed,
    #[serde(flatten)]
    report: Report,
}

pub fn simulate(args: BoardSimulateArgs) -> Result<String, Failure> {
    let levels = match (args.levels, args.players) {
        (Some(levels), Some(players)) if levels.len() != players => {
            return Err(Failure::Usage(format!(
                "--levels names {} but --players is {players}: give one level per bot",
                count(levels.len() as u64, "bot", "bots")
            )));
        }
        (Some(levels), _) if !(2..=5).contains(&levels.len()) => {
            return Err(Failure::Usage(format!(
                "--levels names {}: a table seats 2 to 5",
                count(levels.len() as u64, "bot", "bots")
            )));
        }
        (Some(levels), _) => levels,
        (None, players) => vec![Level::Standard; players.unwrap_or(2)],
    };
    let seed = seed_or_fresh(args.seed)?;
    let content = Arc::new(Content::builtin());
    let bar = (args.games >= PROGRESS_FROM_GAMES && std::io::stderr().is_terminal()).then(|| {
        let bar = ProgressBar::new(args.games);
        bar.set_style(
            ProgressStyle::with_template(PROGRESS_TEMPLATE).expect("the template is valid"),
        );
        bar
    });
    let report = run_games(content, args.games, &levels, seed.0, |done| {
        if let Some(bar) = &bar
            && (done % PROGRESS_EVERY == 0 || done == args.games)
        {
            bar.set_position(done);
        }
    });
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let report = SimulateReport {
        seed: JsonSeed(seed),
        report,
    };
    Ok(if args.json {
        json(&report)
    } else {
        simulate_text(&report)
    })
}

fn share(n: u64, of: u64) -> String {
    if of == 0 {
        "-".to_owned()
    } else {
        percent(n as f64 / of as f64)
    }
}

fn simulate_text(r: &SimulateReport) -> String {
    let seed = r.seed.0;
    let r = &r.report;
    let mut out = format!(
        "{} of {} bots (seed {seed}): {} finished, {} stopped at {MAX_TURNS} turns\n",
        count(r.games, "game", "games"),
        r.players,
        r.finished,
        r.unfinished,
    );
    if r.finished > 0 {
        writeln!(
            out,
            "Turns per game: mean {:.1}, median {}, 90th percentile {}",
            r.turns.mean, r.turns.median, r.turns.p90
        )
        .unwrap();
    }
    writeln!(
        out,
        "Wins: {} with five Certificates, {} as the last survivor; {} without a winner; {}",
        r.wins_by_certificates,
        r.wins_by_survival,
        count(r.no_winner, "game", "games"),
        count(r.deaths, "death", "deaths"),
    )
    .unwrap();
    let b = &r.battles;
    writeln!(
        out,
        "Battles: {} fought: {} won, {} drawn, {} lost",
        b.fought,
        share(b.won, b.fought),
        share(b.drawn, b.fought),
        share(b.lost, b.fought)
    )
    .unwrap();
    if r.refusals > 0 {
        writeln!(out, "Bot actions refused by the engine: {}", r.refusals).unwrap();
    }
    out.push_str("\nWin rate by seat (turn order, the first player first)\n");
    for (seat, &wins) in r.wins_by_seat.iter().enumerate() {
        writeln!(out, "  {:<4} {:>7}  {wins}", seat + 1, share(wins, r.games)).unwrap();
    }
    if r.levels.iter().any(|&l| l != Level::Standard) {
        let seated: Vec<&str> = r.levels.iter().map(|l| l.name()).collect();
        writeln!(out, "\nWins by level (bots seated: {})", seated.join(", ")).unwrap();
        for (level, &wins) in &r.wins_by_level {
            let bots = r.levels.iter().filter(|&l| l == level).count() as u64;
            let games = r.games * bots;
            writeln!(
                out,
                "  {:<9} {:>7}  {wins} of {games} bot-games",
                level.name(),
                share(wins, games)
            )
            .unwrap();
        }
    }
    out.push_str("\nWin rate by character (wins / games dealt)\n");
    let width = r.wins_by_character.keys().map(|k| k.chars().count()).max();
    let width = width.unwrap_or(0);
    for (name, &wins) in &r.wins_by_character {
        let games = r.games_by_character.get(name).copied().unwrap_or(0);
        writeln!(
            out,
            "  {name:<width$}  {:>7}  {wins} of {games}",
            share(wins, games)
        )
        .unwrap();
    }
    let per_game = |n: u64| n as f64 / r.games.max(1) as f64;
    for (title, cards) in [
        ("Adventure cards met", &r.adventures_met),
        ("Chance cards drawn", &r.chance_drawn),
    ] {
        writeln!(out, "\n{title} (times, per game), most first").unwrap();
        let mut cards: Vec<(&String, &u64)> = cards.iter().collect();
        cards.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        let width = cards.iter().map(|(k, _)| k.chars().count()).max();
        let width = width.unwrap_or(0);
        for (name, &n) in cards {
            writeln!(out, "  {name:<width$}  {n:>9}  {:>6.2}", per_game(n)).unwrap();
        }
    }
    out
}

// -------------------------------------------------------------------------------------------
// Cards
// -------------------------------------------------------------------------------------------

#[derive(Serialize)]
struct Cards<'a> {
    board: Vec<SpaceCard<'a>>,
    characters: &'a [::board::content::Character],
    adventures: Vec<Adventure<'a>>,
    chance: Vec<Chance<'a>>,
    common_items: Vec<&'a ::board::content::Item>,
    rare_items: Vec<&'a ::board::content::Item>,
}

#[derive(Serialize)]
struct SpaceCard<'a> {
    name: &'a str,
    kind: ::board::content::SpaceKind,
    port: bool,
    magic_gate: bool,
}

#[derive(Serialize)]
struct Adventure<'a> {
    name: &'a str,
    kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    strength: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    willpower: Option<i32>,
    /// Which value is printed first, for a Creature with both.
    #[serde(skip_serializing_if = "Option::is_none")]
    first: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    experience: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    treasure: Option<&'a [Effect]>,
    /// What losing costs: the card's effects, or one Health.
    #[serde(skip_serializing_if = "Option::is_none")]
    on_loss: Option<Vec<Effect>>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    three_lives: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    special: Option<&'a SpecialRule>,
    #[serde(skip_serializing_if = "Option::is_none")]
    text: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    effects: Option<&'a [Effect]>,
}

#[derive(Clone, Serialize)]
struct Chance<'a> {
    name: &'a str,
    kind: ::board::content::ChanceKind,
}

fn adventure(card: &AdventureCard) -> Adventure<'_> {
    match card {
        AdventureCard::Creature(c) => Adventure {
            name: &c.name,
            kind: "creature",
            strength: c.stats.strength(),
            willpower: c.stats.willpower(),
            first: match c.stats {
                CreatureStats::StrengthThenWillpower { .. } => Some("strength"),
                CreatureStats::WillpowerThenStrength { .. } => Some("willpower"),
                _ => None,
            },
            experience: Some(c.experience),
            treasure: Some(&c.treasure),
            on_loss: Some(c.loss_effects().to_vec()),
            three_lives: c.three_lives,
            special: c.special.as_ref(),
            text: None,
            effects: None,
        },
        AdventureCard::Opportunity(o) => Adventure {
            name: &o.name,
            kind: "opportunity",
            strength: None,
            willpower: None,
            first: None,
            experience: None,
            treasure: None,
            on_loss: None,
            three_lives: false,
            special: None,
            text: Some(&o.text),
            effects: Some(&o.effects),
        },
    }
}

pub fn cards(args: BoardCardsArgs) -> String {
    let content = Content::builtin();
    let cards = Cards {
        board: content
            .board
            .spaces
            .iter()
            .map(|s| SpaceCard {
                name: &s.name,
                kind: s.kind,
                port: s.port,
                magic_gate: s.magic_gate,
            })
            .collect(),
        characters: &content.characters,
        adventures: content.adventures.iter().map(adventure).collect(),
        chance: content
            .chance
            .iter()
            .flat_map(|c| {
                std::iter::repeat_n(
                    Chance {
                        name: &c.name,
                        kind: c.kind,
                    },
                    c.copies as usize,
                )
            })
            .collect(),
        common_items: content.items_of(Rarity::Common).collect(),
        rare_items: content.items_of(Rarity::Rare).collect(),
    };
    if args.json {
        json(&cards)
    } else {
        cards_text(&content)
    }
}

/// A value in JSON's words, for the text listing: `{"gain_gold":2}` reads `gain_gold 2`.
fn words(value: &impl Serialize) -> String {
    match serde_json::to_value(value).unwrap_or_default() {
        serde_json::Value::String(s) => s,
        serde_json::Value::Object(map) => map
            .iter()
            .map(|(k, v)| match v {
                serde_json::Value::Object(_) => format!("{k} ({})", words(v)),
                serde_json::Value::String(s) => format!("{k} {s}"),
                v => format!("{k} {v}"),
            })
            .collect::<Vec<_>>()
            .join(", "),
        other => other.to_string(),
    }
}

fn effects(list: &[Effect]) -> String {
    if list.is_empty() {
        "nothing".to_owned()
    } else {
        list.iter().map(words).collect::<Vec<_>>().join(", ")
    }
}

fn cards_text(content: &Content) -> String {
    let mut out = String::new();
    writeln!(
        out,
        "Board ({} spaces, in order around the ring)",
        content.board.spaces.len()
    )
    .unwrap();
    for (i, s) in content.board.spaces.iter().enumerate() {
        let mut extras = Vec::new();
        if s.port {
            extras.push("port");
        }
        if s.magic_gate {
            extras.push("magic gate");
        }
        let extras = if extras.is_empty() {
            String::new()
        } else {
            format!(" ({})", extras.join(", "))
        };
        writeln!(
            out,
            "  {:>2}. {} — {}{extras}",
            i + 1,
            s.name,
            words(&s.kind)
        )
        .unwrap();
    }
    writeln!(out, "\nCharacters ({})", content.characters.len()).unwrap();
    for c in &content.characters {
        writeln!(
            out,
            "  {}: Strength {}, Willpower {}; guilds {}",
            c.name,
            c.strength,
            c.willpower,
            c.guilds.iter().map(words).collect::<Vec<_>>().join(" and ")
        )
        .unwrap();
    }
    writeln!(out, "\nAdventure cards ({})", content.adventures.len()).unwrap();
    for card in &content.adventures {
        match card {
            AdventureCard::Creature(c) => {
                let values = match c.stats {
                    CreatureStats::Strength(s) => format!("Strength {s}"),
                    CreatureStats::Willpower(w) => format!("Willpower {w}"),
                    CreatureStats::StrengthThenWillpower {
                        strength,
                        willpower,
                    } => format!("Strength {strength} / Willpower {willpower}"),
                    CreatureStats::WillpowerThenStrength {
                        willpower,
                        strength,
                    } => format!("Willpower {willpower} / Strength {strength}"),
                };
                let lives = if c.three_lives { ", three lives" } else { "" };
                writeln!(
                    out,
                    "  Creature {}: {values}{lives}, {} Experience; treasure: {}; on loss: {}",
                    c.name,
                    c.experience,
                    effects(&c.treasure),
                    effects(c.loss_effects())
                )
                .unwrap();
                if let Some(rule) = &c.special {
                    let mark = if rule.mandatory() { "!" } else { "?" };
                    writeln!(out, "    {mark} {}", rule.text).unwrap();
                }
            }
            AdventureCard::Opportunity(o) => {
                writeln!(out, "  Opportunity {}: {}", o.name, effects(&o.effects)).unwrap();
            }
        }
    }
    let copies: u32 = content.chance.iter().map(|c| c.copies).sum();
    writeln!(out, "\nChance cards ({copies}, with copies)").unwrap();
    for c in &content.chance {
        writeln!(out, "  {} × {}: {}", c.copies, c.name, words(&c.kind)).unwrap();
    }
    for (title, rarity) in [
        ("Common Items", Rarity::Common),
        ("Rare Items", Rarity::Rare),
    ] {
        let items: Vec<_> = content.items_of(rarity).collect();
        writeln!(out, "\n{title} ({})", items.len()).unwrap();
        for i in items {
            let mut bonus = Vec::new();
            if i.strength_bonus != 0 {
                bonus.push(format!("Strength {:+}", i.strength_bonus));
            }
            if i.willpower_bonus != 0 {
                bonus.push(format!("Willpower {:+}", i.willpower_bonus));
            }
            let bonus = if bonus.is_empty() {
                String::new()
            } else {
                format!("; {}", bonus.join(", "))
            };
            writeln!(
                out,
                "  {}: {} Gold, {}{bonus}",
                i.name,
                i.cost,
                words(&i.slot)
            )
            .unwrap();
        }
    }
    out
}
