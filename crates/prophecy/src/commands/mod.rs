//! Each subcommand: compute with the pure crates, then render text or JSON into a string.

mod battle;
mod board;
mod challenge;
mod d66;
mod odds;
mod outline;
mod roll;
mod simulate;
mod story;

use crate::Failure;
use crate::cli::{BattleCommand, BoardCommand, ChallengeCommand, Command, OutlineCommand};
use dice::Seed;
use serde::Serialize;

/// Runs one command and returns what it prints.
pub fn run(command: Command) -> Result<String, Failure> {
    match command {
        Command::Serve(args) => server::run(server::Config {
            addr: args.addr,
            db: args.db,
            options: server::Options {
                public_url: args.url,
                bot_pause: std::time::Duration::from_millis(args.bot_pause_ms),
                ..server::Options::default()
            },
            metrics_addr: None,
            backups: None,
        })
        .map(|()| String::new())
        .map_err(|e| match e {
            server::ServeError::Usage(message) => Failure::Usage(message),
            server::ServeError::Runtime(message) => Failure::Runtime(message),
        }),
        Command::Roll(args) => roll::run(args),
        Command::Odds(args) => Ok(odds::run(args)),
        Command::Simulate(args) => simulate::run(args),
        Command::Challenge(ChallengeCommand::Odds(args)) => Ok(challenge::odds(args)),
        Command::Challenge(ChallengeCommand::Roll(args)) => challenge::roll(args),
        Command::Battle(BattleCommand::Odds(args)) => Ok(battle::odds(args)),
        Command::Battle(BattleCommand::Roll(args)) => battle::roll(args),
        Command::D66(args) => d66::run(args),
        Command::Outline(OutlineCommand::Odds(args)) => outline::odds(args),
        Command::Outline(OutlineCommand::Show(args)) => outline::show(args),
        Command::Worlds(args) => story::worlds(args),
        Command::Modules(args) => story::modules(args),
        Command::Catastrophe(args) => story::catastrophe(args),
        Command::Export(args) => story::export(args),
        Command::Board(BoardCommand::Simulate(args)) => board::simulate(args),
        Command::Board(BoardCommand::Cards(args)) => Ok(board::cards(args)),
    }
}

/// The seed the user gave, or a fresh one from the operating system.
fn seed_or_fresh(seed: Option<u64>) -> Result<Seed, Failure> {
    match seed {
        Some(s) => Ok(Seed(s)),
        None => getrandom::u64()
            .map(Seed)
            .map_err(|e| Failure::Runtime(format!("cannot get a random seed: {e}"))),
    }
}

/// A seed in JSON: a string of its decimal digits, because seeds go up to 2^64 − 1 and
/// JavaScript (and any reader that parses JSON numbers as doubles) rounds integers above 2^53.
/// `Option<JsonSeed>` is `null` when faces were given instead.
struct JsonSeed(Seed);

impl Serialize for JsonSeed {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(&self.0)
    }
}

/// "1 die", "5 dice": a count and its noun, singular only for one.
fn count(n: impl Into<u64>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Pretty JSON and a final newline.
fn json(value: &impl Serialize) -> String {
    let mut text = serde_json::to_string_pretty(value).expect("plain data always serializes");
    text.push('\n');
    text
}

/// A probability as a percentage for tables: one decimal, and never rounded to a misleading
/// 0% or 100% when it is not impossible or certain.
fn percent(p: f64) -> String {
    let shown = format!("{:.1}%", p * 100.0);
    match shown.as_str() {
        "0.0%" if p > 0.0 => "<0.1%".to_owned(),
        "100.0%" if p < 1.0 => ">99.9%".to_owned(),
        _ => shown,
    }
}
