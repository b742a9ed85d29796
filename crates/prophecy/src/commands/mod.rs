//! Each subcommand: compute with the pure crates, then render text or JSON into a string.

mod backup;
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
use crate::cli::{
    BattleCommand, BoardCommand, ChallengeCommand, Command, DbCommand, OutlineCommand, ServeArgs,
};
use dice::Seed;
use serde::Serialize;

/// Runs one command and returns what it prints.
pub fn run(command: Command) -> Result<String, Failure> {
    match command {
        Command::Serve(args) => {
            init_logging();
            server::run(serve_config(args))
                .map(|()| String::new())
                .map_err(serve_failure)
        }
        Command::Backup(args) => backup::run(args),
        Command::Db(DbCommand::Copy(args)) => backup::copy(args),
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

/// The server's settings from `prophecy serve`'s flags: each limit not given is the server's
/// default, and backups are on only with `--backup-every`.
fn serve_config(args: ServeArgs) -> server::Config {
    let defaults = server::Limits::default();
    let limits = server::Limits {
        tables_per_minute: args.tables_per_minute.unwrap_or(defaults.tables_per_minute),
        joins_per_minute: args.joins_per_minute.unwrap_or(defaults.joins_per_minute),
        sync_kib_per_minute: args
            .sync_kib_per_minute
            .unwrap_or(defaults.sync_kib_per_minute),
        written_kib_per_minute: args
            .written_kib_per_minute
            .unwrap_or(defaults.written_kib_per_minute),
        max_connections: args.max_connections.unwrap_or(defaults.max_connections),
        connections_per_address: args
            .connections_per_address
            .unwrap_or(defaults.connections_per_address),
        ..defaults
    };
    let beside_db = match &args.db {
        server::Database::File(path) => path.with_file_name("backups"),
        server::Database::Postgres(_) => std::path::PathBuf::from("backups"),
    };
    let backups = args.backup_every.map(|every| server::Backups {
        every,
        dir: args.backup_dir.unwrap_or(beside_db),
        keep: args.backup_keep.unwrap_or(crate::cli::DEFAULT_BACKUPS_KEPT),
    });
    server::Config {
        addr: args.addr,
        db: args.db,
        options: server::Options {
            public_url: args.url,
            bot_pause: std::time::Duration::from_millis(args.bot_pause_ms),
            trust_proxy: args.trust_proxy,
            limits,
        },
        metrics_addr: args.metrics_addr,
        backups,
    }
}

/// Logs go to stderr: plain text unless stderr is a terminal, `info` unless `RUST_LOG` says
/// otherwise (e.g. `RUST_LOG=server=debug`); sqlx's notices (a migration table that exists) only
/// from `warn`.
fn init_logging() {
    use std::io::IsTerminal;
    let _ = tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| "info,sqlx=warn".into()),
        )
        .with_ansi(std::io::stderr().is_terminal())
        .with_writer(std::io::stderr)
        .try_init();
}

/// The server's refusals are bad input (status 2); its failures while running are not.
fn serve_failure(e: server::ServeError) -> Failure {
    match e {
        server::ServeError::Usage(message) => Failure::Usage(message),
        server::ServeError::Runtime(message) => Failure::Runtime(message),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::Cli;
    use clap::Parser;

    fn config(args: &str) -> server::Config {
        let cli = Cli::try_parse_from(args.split_whitespace()).expect("accepted");
        let Command::Serve(args) = cli.command else {
            panic!("serve")
        };
        serve_config(args)
    }

    #[test]
    fn serve_flags_become_the_server_s_settings() {
        let plain = config("prophecy serve --db /tmp/tables.db");
        let defaults = server::Limits::default();
        assert!(!plain.options.trust_proxy);
        assert_eq!(plain.metrics_addr, None);
        assert!(plain.backups.is_none(), "no copies without --backup-every");
        assert_eq!(
            (
                plain.options.limits.tables_per_minute,
                plain.options.limits.joins_per_minute,
                plain.options.limits.max_connections
            ),
            (
                defaults.tables_per_minute,
                defaults.joins_per_minute,
                defaults.max_connections
            )
        );
        let backups = config("prophecy serve --db /tmp/tables.db --backup-every 30m")
            .backups
            .expect("on");
        assert_eq!(backups.every, std::time::Duration::from_secs(1800));
        assert_eq!(backups.dir, std::path::Path::new("/tmp/backups"));
        assert_eq!(backups.keep, 24);
        assert_eq!(
            config("prophecy serve --db postgres://ada@127.0.0.1:5432/tables").db,
            server::Database::Postgres("postgres://ada@127.0.0.1:5432/tables".to_owned())
        );
        let beside = config("prophecy serve --db tables.db --backup-every 1h");
        assert_eq!(
            beside.backups.expect("on").dir,
            std::path::Path::new("backups")
        );
        let all = config(
            "prophecy serve --trust-proxy --metrics-addr 127.0.0.1:9100 --max-connections 50 \
             --backup-every 1h --backup-dir /srv/copies --backup-keep 2",
        );
        assert!(all.options.trust_proxy);
        assert_eq!(all.metrics_addr, Some("127.0.0.1:9100".parse().unwrap()));
        assert_eq!(all.options.limits.max_connections, 50);
        assert_eq!(
            all.options.limits.connections_per_address,
            defaults.connections_per_address
        );
        assert_eq!(
            config("prophecy serve --connections-per-address 500")
                .options
                .limits
                .connections_per_address,
            500
        );
        let backups = all.backups.expect("on");
        assert_eq!(
            (backups.dir.as_path(), backups.keep),
            (std::path::Path::new("/srv/copies"), 2)
        );
    }
}
