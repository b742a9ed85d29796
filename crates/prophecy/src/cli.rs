//! The command line as written: clap's flags, with every limit checked while parsing so that bad
//! input becomes one line naming the problem. The commands turn these into what they compute.
//!
//! Every count and rating goes through [`bounded`] and every seed through [`parse_seed`], so the
//! same mistake gets the same message everywhere. Every numeric argument allows negative
//! numbers, so that `-3` reaches its parser (and its message) instead of being read as a flag.

use clap::builder::{OsStringValueParser, TypedValueParser};
use clap::{Args, Parser, Subcommand, ValueEnum};
use dice::challenge::Situation;
use std::ffi::OsString;
use std::net::{IpAddr, Ipv6Addr, SocketAddr, ToSocketAddrs};
use std::path::{Path, PathBuf};
use story::Ruleset;

/// Largest pool `roll` rolls and prints die by die.
pub const MAX_ROLL_DICE: u32 = 10_000;
/// Largest pool `odds` computes exactly (the fractions grow to thousands of digits).
pub const MAX_ODDS_DICE: u32 = 5_000;
/// Highest difficulty rating anywhere.
pub const MAX_DIFFICULTY: u32 = 100;
/// Largest pool `simulate` samples.
pub const MAX_SIMULATE_DICE: u32 = 1_000;
/// Most trials of `simulate` (about 20 s at 50 million checks per second).
pub const MAX_TRIALS: u64 = 1_000_000_000;
/// Most games `board simulate` plays (about twenty minutes at 10,000 games per second).
pub const MAX_BOARD_GAMES: u64 = 10_000_000;
/// Most steps of improvement in a challenge (the rules allow two without a special rule).
pub const MAX_STEPS: u32 = 20;
/// Largest Strength or Willpower (with bonuses) in a battle, either side.
pub const MAX_BATTLE_VALUE: i32 = 1_000;

/// Roll dice, print exact odds and simulate the mechanics of Prophecy and its sibling rule
/// systems.
#[derive(Debug, Parser)]
#[command(name = "prophecy", version, about, long_about = None)]
#[command(after_help = "Bad input exits with status 2 and one line naming the problem.")]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Open the web table (the story game, the board game with bots, the Challenge rules):
    /// players join from phones and laptops by link. Logs one line per request to stderr
    /// (RUST_LOG changes the level); Ctrl-C or SIGTERM stops it cleanly. Each flag may be set
    /// instead by the environment variable named beside it; a flag wins over its variable.
    Serve(ServeArgs),
    /// Copy the web table's database, even while it is serving: a consistent copy of every
    /// table, seat and action, to keep or to serve with `prophecy serve --db COPY`. With
    /// --check FILE, check a copy instead.
    Backup(BackupArgs),
    /// The web table's databases: copy the tables of a SQLite file into PostgreSQL.
    #[command(subcommand)]
    Db(DbCommand),
    /// Roll a Prophecy check: N six-sided dice, every 6 adds a die, 4–6 is a hit.
    Roll(RollArgs),
    /// Exact odds of a Prophecy check: a table, one row, one column or one value.
    Odds(OddsArgs),
    /// Sample many checks and compare the histogram of hits with the exact distribution.
    Simulate(SimulateArgs),
    /// The Challenge rules (d4/d6/d8): exact odds of a roll, or a roll.
    #[command(subcommand)]
    Challenge(ChallengeCommand),
    /// Board game battles: your 1d6 + value against theirs (optionally three lives).
    #[command(subcommand)]
    Battle(BattleCommand),
    /// Roll d66: two six-sided dice read as tens and units (11–66).
    D66(D66Args),
    /// Outline plans (TOML files): exact odds for every scene, or the outline as a diagram.
    #[command(subcommand)]
    Outline(OutlineCommand),
    /// The worlds and their catastrophe tables.
    Worlds(ContentArgs),
    /// The modules: pre-written prophecies.
    Modules(ContentArgs),
    /// Roll d66 on a world's catastrophe table.
    Catastrophe(CatastropheArgs),
    /// The board game: games between bots summed up, or the cards of its content.
    #[command(subcommand)]
    Board(BoardCommand),
    /// A game file from the web table (any game) as Markdown, or a story's outline as a tree
    /// or diagram.
    Export(ExportArgs),
}

/// Where worlds and modules come from.
#[derive(Debug, Args)]
pub struct ContentSource {
    /// A folder with `worlds/*.toml` and `modules/*.toml` of your own, used beside the built-in
    /// ones (format: crates/story/content/README.md).
    #[arg(long, value_name = "DIR")]
    pub content: Option<PathBuf>,
}

/// `prophecy worlds` and `prophecy modules`.
#[derive(Debug, Args)]
pub struct ContentArgs {
    /// Show one in full, by its name (slug).
    pub slug: Option<String>,
    /// Content of your own.
    #[command(flatten)]
    pub source: ContentSource,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `prophecy catastrophe`.
#[derive(Debug, Args)]
pub struct CatastropheArgs {
    /// The world, by its name (slug), e.g. vael.
    pub world: String,
    /// Seed of the roll (default: a fresh random seed, printed).
    #[arg(long, short, value_parser = parse_seed, allow_negative_numbers = true)]
    pub seed: Option<u64>,
    /// Content of your own.
    #[command(flatten)]
    pub source: ContentSource,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// What `export` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ExportFormat {
    /// The whole story as Markdown.
    Markdown,
    /// The outline as an indented tree.
    Tree,
    /// The outline as a Mermaid flowchart.
    Mermaid,
}

/// `prophecy export`.
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// The game file of any game at the web table ("Game file"): one event per line, as JSON;
    /// at most 16 MiB.
    pub file: PathBuf,
    /// markdown, tree or mermaid (the tree and the diagram are the story game's outline).
    #[arg(long, value_enum, default_value_t = ExportFormat::Markdown)]
    pub format: ExportFormat,
}

/// `prophecy outline …`.
#[derive(Debug, Subcommand)]
pub enum OutlineCommand {
    /// The exact chance that each scene and the Finale succeed, counting reward dice.
    Odds(OutlineOddsArgs),
    /// The outline as a tree or a Mermaid diagram.
    Show(OutlineShowArgs),
}

/// `prophecy outline odds`.
#[derive(Debug, Args)]
pub struct OutlineOddsArgs {
    /// The outline plan: a TOML file of `[[scene]]` tables (format: docs/cli.md).
    pub file: PathBuf,
    /// The rules: 1.0 (Finale 4), 1.1 (Finale 5) or temporal.
    #[arg(long, default_value = "1.0", value_parser = parse_ruleset)]
    pub edition: Ruleset,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// How `outline show` draws the outline.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ShowFormat {
    /// An indented tree, Finale first.
    Tree,
    /// A Mermaid flowchart.
    Mermaid,
}

/// `prophecy outline show`.
#[derive(Debug, Args)]
pub struct OutlineShowArgs {
    /// The outline plan: a TOML file of `[[scene]]` tables (format: docs/cli.md).
    pub file: PathBuf,
    /// tree or mermaid.
    #[arg(long, value_enum, default_value_t = ShowFormat::Tree)]
    pub format: ShowFormat,
    /// The rules: 1.0 (Finale 4), 1.1 (Finale 5) or temporal.
    #[arg(long, default_value = "1.0", value_parser = parse_ruleset)]
    pub edition: Ruleset,
}

/// `prophecy serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Where to listen: an IP address or a host name, and a port (e.g. localhost:8080). Use
    /// 0.0.0.0:8080 (or this machine's LAN address) for phones on the same network.
    #[arg(long, env = "PROPHECY_ADDR", default_value = "127.0.0.1:8080", value_parser = parse_addr)]
    pub addr: SocketAddr,
    /// Where every table is kept: a SQLite file (created if missing, in a folder that exists;
    /// one server per file; `prophecy backup` copies it while serving, a plain file copy is
    /// safe only once the server has stopped), or a PostgreSQL database
    /// (postgres://USER@HOST:PORT/DB), which several servers may share.
    #[arg(long, env = "PROPHECY_DB", default_value = "prophecy.db", value_parser = parse_serve_db())]
    pub db: server::Database,
    /// The address players use, if it is not --addr (e.g. http://192.168.1.20:8080/ when
    /// listening on 0.0.0.0): an http:// or https:// address, printed with a QR code.
    #[arg(long, env = "PROPHECY_URL", value_parser = parse_url)]
    pub url: Option<String>,
    /// How long a bot waits before each action, in milliseconds (0 to 10000), so people can
    /// follow its moves on the board.
    #[arg(long, env = "PROPHECY_BOT_PAUSE_MS", default_value_t = 600, value_parser = clap::value_parser!(u64).range(0..=10_000))]
    pub bot_pause_ms: u64,
    /// Take the client's address (for the per-address limits) from the last X-Forwarded-For
    /// entry. Only behind a reverse proxy that sets it: otherwise anyone can pose as any
    /// address.
    #[arg(long, env = "PROPHECY_TRUST_PROXY")]
    pub trust_proxy: bool,
    /// Serve /metrics (Prometheus) on this address instead of beside the pages (e.g.
    /// 127.0.0.1:9100), so players cannot read it.
    #[arg(long, env = "PROPHECY_METRICS_ADDR", value_name = "ADDR", value_parser = parse_addr)]
    pub metrics_addr: Option<SocketAddr>,
    /// Tables one client address may create per minute (1 to 10000; default 10).
    #[arg(long, env = "PROPHECY_TABLES_PER_MINUTE", value_name = "N", value_parser = parse_per_minute, allow_negative_numbers = true)]
    pub tables_per_minute: Option<u32>,
    /// Seats one client address may take per minute (1 to 10000; default 30).
    #[arg(long, env = "PROPHECY_JOINS_PER_MINUTE", value_name = "N", value_parser = parse_per_minute, allow_negative_numbers = true)]
    pub joins_per_minute: Option<u32>,
    /// KiB of whole tables (a page's first view, older log lines) one client address's pages
    /// may ask for per minute (1 to 1000000000; default 16384).
    #[arg(long, env = "PROPHECY_SYNC_KIB_PER_MINUTE", value_name = "KIB", value_parser = parse_kib_per_minute, allow_negative_numbers = true)]
    pub sync_kib_per_minute: Option<u32>,
    /// KiB of events one client address's actions may write per minute, across its tables
    /// and seats (1 to 1000000000; default 512).
    #[arg(long, env = "PROPHECY_WRITTEN_KIB_PER_MINUTE", value_name = "KIB", value_parser = parse_kib_per_minute, allow_negative_numbers = true)]
    pub written_kib_per_minute: Option<u32>,
    /// Connections (pages and sockets) open at once (1 to 1000000; default: the open-file
    /// limit less 256).
    #[arg(long, env = "PROPHECY_MAX_CONNECTIONS", value_name = "N", value_parser = parse_connections, allow_negative_numbers = true)]
    pub max_connections: Option<usize>,
    /// Connections (pages and sockets) open at once from one client address, IPv6 by its /64
    /// (1 to 1000000; default 128). Past it that address gets 429. Not with --trust-proxy:
    /// behind a proxy every connection is the proxy's, so the proxy caps them per client.
    #[arg(
        long,
        env = "PROPHECY_CONNECTIONS_PER_ADDRESS",
        value_name = "N",
        value_parser = parse_per_address,
        allow_negative_numbers = true,
        conflicts_with = "trust_proxy"
    )]
    pub connections_per_address: Option<u32>,
    /// Copy the database this often while serving (e.g. 1h, 30m; at least 1m, at most 365d),
    /// into --backup-dir as prophecy-<UTC time>.db. No copies without it.
    #[arg(long, env = "PROPHECY_BACKUP_EVERY", value_name = "DURATION", value_parser = parse_backup_every)]
    pub backup_every: Option<std::time::Duration>,
    /// Where --backup-every puts its copies (created if missing; default: a backups folder
    /// beside the --db file).
    #[arg(long, env = "PROPHECY_BACKUP_DIR", value_name = "DIR", requires = "backup_every", value_parser = parse_backup_dir())]
    pub backup_dir: Option<PathBuf>,
    /// How many copies --backup-every keeps; the oldest are removed (1 to 10000; default 24).
    #[arg(
        long,
        env = "PROPHECY_BACKUP_KEEP",
        value_name = "N",
        requires = "backup_every",
        value_parser = parse_backup_keep,
        allow_negative_numbers = true
    )]
    pub backup_keep: Option<usize>,
}

/// `prophecy backup`.
#[derive(Debug, Args)]
pub struct BackupArgs {
    /// The SQLite file to copy: the --db of `prophecy serve`, which may be serving from it.
    #[arg(long, default_value = "prophecy.db", value_parser = parse_db())]
    pub db: PathBuf,
    /// The copy: a new file (it must not exist yet) in a folder that exists.
    #[arg(value_name = "OUT", value_parser = parse_db(), required_unless_present = "check")]
    pub out: Option<PathBuf>,
    /// Check a copy instead of making one, changing nothing: SQLite's check of the file, then
    /// every table's log replayed through its game's rules. Says what it holds; exit status 2
    /// if any of it is damaged.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["out", "db"])]
    pub check: Option<PathBuf>,
}

/// `prophecy db …`.
#[derive(Debug, Subcommand)]
pub enum DbCommand {
    /// Copy every table, seat and event of a SQLite file into a PostgreSQL database, to serve
    /// them from there. Each table's log is replayed through its game's rules first; a table
    /// that fails is left out, with a line saying why. Safe to run again: what is there
    /// already is skipped, and a seat removed there stays removed.
    Copy(DbCopyArgs),
}

/// `prophecy db copy`.
#[derive(Debug, Args)]
pub struct DbCopyArgs {
    /// The SQLite file (the --db of `prophecy serve`; it may be serving).
    #[arg(long, value_parser = parse_db())]
    pub from: PathBuf,
    /// The PostgreSQL database: postgres://USER@HOST:PORT/DB (its tables are made if missing).
    #[arg(long, value_parser = parse_postgres)]
    pub to: String,
}

fn parse_postgres(text: &str) -> Result<String, String> {
    if is_postgres(text) {
        Ok(text.to_owned())
    } else {
        Err("not a PostgreSQL address; give one such as postgres://prophecy@127.0.0.1:5432/prophecy".to_owned())
    }
}

/// `prophecy roll`.
#[derive(Debug, Args)]
pub struct RollArgs {
    /// Dice in the pool (0 to 10000; an empty pool has zero hits).
    #[arg(value_parser = parse_roll_dice, allow_negative_numbers = true)]
    pub dice: u32,
    /// The difficulty rating to beat (1 to 100): prints success or failure.
    #[arg(long, short, value_parser = parse_difficulty, allow_negative_numbers = true)]
    pub difficulty: Option<u32>,
    /// Seed of the roll, for replaying it (default: a fresh random seed, printed).
    #[arg(
        long,
        short,
        conflicts_with = "faces",
        value_parser = parse_seed,
        allow_negative_numbers = true
    )]
    pub seed: Option<u64>,
    /// Use these faces instead of random ones, in rolling order: the pool, then each wave of
    /// explosions (e.g. 3,6,5,1,6,2,6,4).
    // Hyphen values: clap does not read a list such as -1,2 as a negative number.
    #[arg(long, value_delimiter = ',', value_parser = parse_face, allow_hyphen_values = true)]
    pub faces: Option<Vec<u8>>,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `prophecy odds`.
#[derive(Debug, Args)]
pub struct OddsArgs {
    /// Dice in the pool (0 to 5000). Alone: the distribution of hits of this pool.
    #[arg(long, short = 'n', value_parser = parse_odds_dice, allow_negative_numbers = true)]
    pub dice: Option<u32>,
    /// Difficulty rating (1 to 100). Alone: P(success) for 1 to --max-dice dice.
    #[arg(long, short, value_parser = parse_difficulty, allow_negative_numbers = true)]
    pub difficulty: Option<u32>,
    /// Rows of the table (pools 1..=N).
    #[arg(
        long,
        default_value_t = 12,
        value_parser = parse_table_dice,
        allow_negative_numbers = true
    )]
    pub max_dice: u32,
    /// Columns of the table (difficulties 1..=D).
    #[arg(
        long,
        default_value_t = 5,
        value_parser = parse_difficulty,
        allow_negative_numbers = true
    )]
    pub max_difficulty: u32,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `prophecy simulate`.
#[derive(Debug, Args)]
pub struct SimulateArgs {
    /// Dice in the pool (0 to 1000).
    #[arg(long, short = 'n', value_parser = parse_simulate_dice, allow_negative_numbers = true)]
    pub dice: u32,
    /// Number of checks to sample (1 to 1000000000).
    #[arg(long, short, value_parser = parse_trials, allow_negative_numbers = true)]
    pub trials: u64,
    /// Difficulty rating: also compare the sampled rate of success with the exact one.
    #[arg(long, short, value_parser = parse_difficulty, allow_negative_numbers = true)]
    pub difficulty: Option<u32>,
    /// Seed of the run (default: a fresh random seed, printed).
    #[arg(long, short, value_parser = parse_seed, allow_negative_numbers = true)]
    pub seed: Option<u64>,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `prophecy board …`.
#[derive(Debug, Subcommand)]
pub enum BoardCommand {
    /// Play many games between bots and sum them up: game length, wins by character and by
    /// seat, deaths, and how often each card was met.
    Simulate(BoardSimulateArgs),
    /// The board, characters, Adventure and Chance cards and Items of the game.
    Cards(BoardCardsArgs),
}

/// `prophecy board simulate`.
#[derive(Debug, Args)]
pub struct BoardSimulateArgs {
    /// Games to play (1 to 10000000).
    #[arg(long, short, value_parser = parse_games, allow_negative_numbers = true)]
    pub games: u64,
    /// Bots at each table (2 to 5); may be left out when --levels gives one level per bot.
    #[arg(long, short, value_parser = parse_players, allow_negative_numbers = true)]
    #[arg(required_unless_present = "levels")]
    pub players: Option<usize>,
    /// The bots' levels, one per bot in the order they are seated (before the roll for the
    /// first player), from easy, standard and strong (default: all standard).
    #[arg(long, value_delimiter = ',')]
    pub levels: Option<Vec<::board::bot::Level>>,
    /// Seed of the run (default: a fresh random seed, printed).
    #[arg(long, short, value_parser = parse_seed, allow_negative_numbers = true)]
    pub seed: Option<u64>,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `prophecy board cards`.
#[derive(Debug, Args)]
pub struct BoardCardsArgs {
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `prophecy challenge …`.
#[derive(Debug, Subcommand)]
pub enum ChallengeCommand {
    /// Exact probability of each result 1–8 and each band.
    Odds(ChallengeOddsArgs),
    /// Roll a challenge.
    Roll(ChallengeRollArgs),
}

/// The roll being asked about.
#[derive(Debug, Args)]
pub struct ChallengeSpec {
    /// d4 (difficult situation), d6 (average) or d8 (favourable).
    #[arg(long, value_parser = parse_die)]
    pub die: Situation,
    /// Steps of improvement: 0 rolls two and keeps the lower, 1 rolls one, 2 or more roll that
    /// many and keep the highest (more than 2 needs a special rule; at most 20).
    #[arg(long, value_parser = parse_steps, allow_negative_numbers = true)]
    pub steps: u32,
}

/// `prophecy challenge odds`.
#[derive(Debug, Args)]
pub struct ChallengeOddsArgs {
    /// The roll.
    #[command(flatten)]
    pub spec: ChallengeSpec,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `prophecy challenge roll`.
#[derive(Debug, Args)]
pub struct ChallengeRollArgs {
    /// The roll.
    #[command(flatten)]
    pub spec: ChallengeSpec,
    /// Seed of the roll (default: a fresh random seed, printed).
    #[arg(long, short, value_parser = parse_seed, allow_negative_numbers = true)]
    pub seed: Option<u64>,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `prophecy battle …`.
#[derive(Debug, Subcommand)]
pub enum BattleCommand {
    /// Exact chances to win, draw and lose.
    Odds(BattleOddsArgs),
    /// Roll a battle.
    Roll(BattleRollArgs),
}

/// Both sides of a battle.
#[derive(Debug, Args)]
pub struct BattleSpec {
    /// Your Strength (or Willpower) with bonuses.
    #[arg(long, value_parser = parse_battle_value, allow_negative_numbers = true)]
    pub yours: i32,
    /// The creature's Strength (or Willpower).
    #[arg(long, value_parser = parse_battle_value, allow_negative_numbers = true)]
    pub theirs: i32,
    /// The creature has three lives: you must win three rolls in a row.
    #[arg(long)]
    pub three_lives: bool,
}

/// `prophecy battle odds`.
#[derive(Debug, Args)]
pub struct BattleOddsArgs {
    /// The battle.
    #[command(flatten)]
    pub spec: BattleSpec,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `prophecy battle roll`.
#[derive(Debug, Args)]
pub struct BattleRollArgs {
    /// The battle.
    #[command(flatten)]
    pub spec: BattleSpec,
    /// Seed of the roll (default: a fresh random seed, printed).
    #[arg(long, short, value_parser = parse_seed, allow_negative_numbers = true)]
    pub seed: Option<u64>,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `prophecy d66`.
#[derive(Debug, Args)]
pub struct D66Args {
    /// Seed of the roll (default: a fresh random seed, printed).
    #[arg(long, short, value_parser = parse_seed, allow_negative_numbers = true)]
    pub seed: Option<u64>,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// The one parser of every count and rating: a whole number in `min..=max`, or a message naming
/// `what` and the range. A number too long for any integer is still a number, so it is out of
/// range rather than "not a whole number".
fn bounded(text: &str, what: &str, min: i64, max: i64, hint: &str) -> Result<i64, String> {
    let text = text.trim();
    let negative = text.starts_with('-');
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "not a whole number; {what} goes from {min} to {max}{hint}"
        ));
    }
    match text.parse::<i64>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ if negative && min >= 0 => {
            Err(format!("{what} cannot be negative ({min} to {max}{hint})"))
        }
        _ => Err(format!("{what} must be from {min} to {max}{hint}")),
    }
}

/// Every seed flag: the whole range of a 64-bit seed, and one message.
fn parse_seed(text: &str) -> Result<u64, String> {
    text.trim().parse().map_err(|_| {
        format!(
            "not a seed; a seed is a whole number from 0 to {}",
            u64::MAX
        )
    })
}

fn dice_count(text: &str, max: u32) -> Result<u32, String> {
    bounded(text, "the number of dice", 0, max.into(), "").map(|n| n as u32)
}

fn parse_roll_dice(text: &str) -> Result<u32, String> {
    dice_count(text, MAX_ROLL_DICE)
}

fn parse_odds_dice(text: &str) -> Result<u32, String> {
    dice_count(text, MAX_ODDS_DICE)
}

fn parse_table_dice(text: &str) -> Result<u32, String> {
    bounded(
        text,
        "the table's largest pool",
        1,
        MAX_ODDS_DICE.into(),
        "",
    )
    .map(|n| n as u32)
}

fn parse_simulate_dice(text: &str) -> Result<u32, String> {
    dice_count(text, MAX_SIMULATE_DICE)
}

fn parse_difficulty(text: &str) -> Result<u32, String> {
    let hint = "; ratings start at 1";
    bounded(text, "the difficulty", 1, MAX_DIFFICULTY.into(), hint).map(|n| n as u32)
}

fn parse_trials(text: &str) -> Result<u64, String> {
    bounded(text, "the number of trials", 1, MAX_TRIALS as i64, "").map(|n| n as u64)
}

fn parse_games(text: &str) -> Result<u64, String> {
    bounded(text, "the number of games", 1, MAX_BOARD_GAMES as i64, "").map(|n| n as u64)
}

fn parse_players(text: &str) -> Result<usize, String> {
    bounded(text, "the number of players", 2, 5, "").map(|n| n as usize)
}

fn parse_face(text: &str) -> Result<u8, String> {
    bounded(text, "a face of a d6", 1, 6, "").map(|n| n as u8)
}

fn parse_steps(text: &str) -> Result<u32, String> {
    bounded(text, "the steps of improvement", 0, MAX_STEPS.into(), "").map(|n| n as u32)
}

fn parse_die(text: &str) -> Result<Situation, String> {
    text.parse()
        .map_err(|e: dice::challenge::NotAChallengeDie| e.to_string())
}

fn parse_battle_value(text: &str) -> Result<i32, String> {
    let max = i64::from(MAX_BATTLE_VALUE);
    bounded(text, "a battle value", -max, max, "").map(|n| n as i32)
}

fn parse_ruleset(text: &str) -> Result<Ruleset, String> {
    text.parse()
        .map_err(|e: story::ruleset::UnknownRuleset| e.to_string())
}

const ADDR_EXAMPLE: &str = "give an address like 127.0.0.1:8080 or localhost:8080";

/// `--addr`: an IP address and port, or a host name and port resolved now (the first address
/// found), so that a typo is one line here rather than a failure to listen later.
fn parse_addr(text: &str) -> Result<SocketAddr, String> {
    if let Ok(addr) = text.parse::<SocketAddr>() {
        return Ok(addr);
    }
    let shown = story::views::one_line(text);
    let bracketed = text.starts_with('[') && text.ends_with(']');
    if bracketed || text.parse::<IpAddr>().is_ok() {
        return Err(format!("no port in '{shown}' ({ADDR_EXAMPLE})"));
    }
    let Some((host, port)) = text.rsplit_once(':') else {
        return Err(format!("no port in '{shown}' ({ADDR_EXAMPLE})"));
    };
    let host = host.trim_start_matches('[').trim_end_matches(']');
    if host.is_empty() {
        return Err(format!("no host before the port ({ADDR_EXAMPLE})"));
    }
    let port: u16 = port.parse().map_err(|_| {
        let port = story::views::one_line(port);
        format!("'{port}' is not a port: ports go from 0 to 65535 ({ADDR_EXAMPLE})")
    })?;
    (host, port)
        .to_socket_addrs()
        .ok()
        .and_then(|mut found| found.next())
        .ok_or_else(|| {
            let host = story::views::one_line(host);
            format!("cannot find the host '{host}' ({ADDR_EXAMPLE})")
        })
}

/// `--db`, any path the system allows (not only UTF-8): see [`db_file`].
fn parse_db() -> impl TypedValueParser<Value = PathBuf> {
    OsStringValueParser::new().try_map(db_file)
}

/// `--db` of `prophecy serve`: a PostgreSQL address, or a SQLite file as [`db_file`] checks it.
fn parse_serve_db() -> impl TypedValueParser<Value = server::Database> {
    OsStringValueParser::new().try_map(|text: OsString| match text.to_str() {
        Some(url) if is_postgres(url) => Ok(server::Database::Postgres(url.to_owned())),
        _ => db_file(text).map(server::Database::File),
    })
}

fn is_postgres(text: &str) -> bool {
    text.starts_with("postgres://") || text.starts_with("postgresql://")
}

/// A file (existing or not; if it exists, a regular file) in a folder that exists, checked
/// before the server starts so that a folder, a FIFO or a typo in the path is one line with
/// status 2, not SQLite's code.
fn db_file(text: OsString) -> Result<PathBuf, String> {
    if text.to_str().is_some_and(is_postgres) {
        return Err(
            "a PostgreSQL database: back it up with pg_dump; this copies a SQLite file".to_owned(),
        );
    }
    let path = PathBuf::from(text);
    if path.as_os_str().is_empty() {
        return Err("no file named; give a file such as prophecy.db".to_owned());
    }
    if path.is_dir() {
        let example = path.join("prophecy.db");
        return Err(format!(
            "a folder; give a file such as {}",
            shown_path(&example)
        ));
    }
    // A FIFO or a device would block or never end where SQLite expects a file.
    if let Ok(metadata) = std::fs::metadata(&path)
        && let Some(why) = crate::files::not_regular(&metadata)
    {
        return Err(format!("{why}; give a database file such as prophecy.db"));
    }
    match path.parent() {
        Some(folder) if !folder.as_os_str().is_empty() && !folder.is_dir() => {
            let problem = if folder.exists() {
                "is not a folder"
            } else {
                "does not exist"
            };
            Err(format!(
                "{} {problem}; give a file in a folder that exists",
                shown_path(folder)
            ))
        }
        _ => Ok(path),
    }
}

/// Most copies `--backup-keep` keeps.
pub const MAX_BACKUPS_KEPT: u32 = 10_000;
/// The copies `--backup-every` keeps unless told otherwise: a day of hourly copies.
pub const DEFAULT_BACKUPS_KEPT: usize = 24;

fn parse_per_minute(text: &str) -> Result<u32, String> {
    bounded(text, "the number per minute", 1, 10_000, "").map(|n| n as u32)
}

fn parse_kib_per_minute(text: &str) -> Result<u32, String> {
    bounded(text, "the KiB per minute", 1, 1_000_000_000, "").map(|n| n as u32)
}

fn parse_connections(text: &str) -> Result<usize, String> {
    bounded(text, "the number of connections", 1, 1_000_000, "").map(|n| n as usize)
}

fn parse_per_address(text: &str) -> Result<u32, String> {
    bounded(text, "the number of connections", 1, 1_000_000, "").map(|n| n as u32)
}

fn parse_backup_keep(text: &str) -> Result<usize, String> {
    let max = i64::from(MAX_BACKUPS_KEPT);
    bounded(text, "the number of copies kept", 1, max, "").map(|n| n as usize)
}

const DURATION_EXAMPLE: &str = "give one such as 1h, 30m or 1day";

/// `--backup-every`: a duration such as `1h` or `30m`, from a minute (a copy reads the whole
/// database) to a year.
fn parse_backup_every(text: &str) -> Result<std::time::Duration, String> {
    let every = humantime::parse_duration(text.trim()).map_err(|e| {
        let shown = story::views::one_line(text);
        format!("'{shown}' is not a duration: {e} ({DURATION_EXAMPLE})")
    })?;
    let minute = std::time::Duration::from_secs(60);
    let year = std::time::Duration::from_secs(365 * 24 * 3600);
    if every < minute {
        return Err(format!("copies are at least 1m apart ({DURATION_EXAMPLE})"));
    }
    if every > year {
        return Err(format!(
            "copies are at most 365d apart ({DURATION_EXAMPLE})"
        ));
    }
    Ok(every)
}

/// `--backup-dir`, any path the system allows: a folder, or a path where one can be made.
fn parse_backup_dir() -> impl TypedValueParser<Value = PathBuf> {
    OsStringValueParser::new().try_map(|text: OsString| {
        let path = PathBuf::from(text);
        if path.as_os_str().is_empty() {
            return Err("no folder named; give one such as backups".to_owned());
        }
        if path.exists() && !path.is_dir() {
            return Err(format!(
                "{} is not a folder; give a folder for the copies",
                shown_path(&path)
            ));
        }
        Ok(path)
    })
}

fn shown_path(path: &Path) -> String {
    story::views::one_line(&path.display().to_string())
}

const URL_EXAMPLE: &str = "give one such as http://192.168.1.20:8080/";

/// `--url`: an absolute http:// or https:// address with a host and perhaps a port and a path,
/// no query, fragment or user name (the server adds `/t/TOKEN` to it). Returned with a
/// lower-case scheme and exactly one slash at the end of its path, as the server prints its
/// own address.
fn parse_url(text: &str) -> Result<String, String> {
    if let Some(c) = text
        .chars()
        .find(|c| c.is_whitespace() || c.is_control() || "\"<>\\^`{|}".contains(*c))
    {
        return Err(format!("{c:?} cannot be in a web address ({URL_EXAMPLE})"));
    }
    let Some((scheme, rest)) = text.split_once("://") else {
        return Err(format!("not a web address ({URL_EXAMPLE})"));
    };
    let scheme = scheme.to_ascii_lowercase();
    if scheme != "http" && scheme != "https" {
        return Err(format!(
            "'{scheme}://' is not a web address: use http:// or https:// ({URL_EXAMPLE})"
        ));
    }
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let (authority, path) = rest.split_at(end);
    if path.contains(['?', '#']) {
        return Err(format!(
            "a ? or # cannot be in the address players use ({URL_EXAMPLE})"
        ));
    }
    if authority.contains('@') {
        return Err(format!(
            "a user name (…@) cannot be in the address players use ({URL_EXAMPLE})"
        ));
    }
    let (host, port) = match authority.strip_prefix('[') {
        Some(bracketed) => {
            let (ip, after) = bracketed.split_once(']').unwrap_or((bracketed, ""));
            if ip.parse::<Ipv6Addr>().is_err() {
                return Err(format!("'[{ip}]' is not an IPv6 address ({URL_EXAMPLE})"));
            }
            // After the brackets comes nothing or `:port`; anything else is a bad port.
            let port = (!after.is_empty()).then(|| after.strip_prefix(':').unwrap_or(after));
            (ip, port)
        }
        None => match authority.rsplit_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (authority, None),
        },
    };
    if host.is_empty() {
        return Err(format!("no host in the address ({URL_EXAMPLE})"));
    }
    if !authority.starts_with('[')
        && !host
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '.')
    {
        return Err(format!("'{host}' is not a host name ({URL_EXAMPLE})"));
    }
    if let Some(port) = port
        && !matches!(port.parse::<u16>(), Ok(1..))
    {
        return Err(format!(
            "'{port}' is not a port: ports go from 1 to 65535 ({URL_EXAMPLE})"
        ));
    }
    Ok(format!(
        "{scheme}://{authority}{}/",
        path.trim_end_matches('/')
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn addresses_by_ip_or_host_name() {
        let addr = |text: &str| parse_addr(text).map(|a| a.to_string());
        assert_eq!(addr("127.0.0.1:8080"), Ok("127.0.0.1:8080".to_owned()));
        assert_eq!(addr("[::1]:0"), Ok("[::1]:0".to_owned()));
        let local = parse_addr("localhost:0").expect("localhost resolves");
        assert!(local.ip().is_loopback() && local.port() == 0, "{local}");
        for (text, problem) in [
            ("localhost", "no port in 'localhost'"),
            ("127.0.0.1", "no port in '127.0.0.1'"),
            (":8080", "no host before the port"),
            (
                "localhost:99999",
                "'99999' is not a port: ports go from 0 to 65535",
            ),
            (
                "nowhere.invalid:80",
                "cannot find the host 'nowhere.invalid'",
            ),
        ] {
            assert_eq!(
                parse_addr(text),
                Err(format!("{problem} ({ADDR_EXAMPLE})")),
                "{text}"
            );
        }
    }

    #[test]
    fn a_serve_command_line_with_a_host_name_parses() {
        let db = std::env::temp_dir().join("prophecy-cli-test.db");
        let cli = Cli::try_parse_from([
            "prophecy",
            "serve",
            "--addr",
            "localhost:0",
            "--db",
            db.to_str().unwrap(),
        ])
        .expect("accepted");
        let Command::Serve(args) = cli.command else {
            panic!("serve")
        };
        assert!(args.addr.ip().is_loopback());
        assert_eq!(args.db, server::Database::File(db));
        assert_eq!(args.url, None);
    }

    #[test]
    fn serve_flags_for_proxies_metrics_limits_and_backups() {
        let cli = Cli::try_parse_from([
            "prophecy",
            "serve",
            "--trust-proxy",
            "--metrics-addr",
            "127.0.0.1:9100",
            "--tables-per-minute",
            "5",
            "--joins-per-minute",
            "7",
            "--max-connections",
            "100",
            "--backup-every",
            "1h 30m",
            "--backup-dir",
            "copies",
            "--backup-keep",
            "3",
        ])
        .expect("accepted");
        let Command::Serve(args) = cli.command else {
            panic!("serve")
        };
        assert!(args.trust_proxy);
        assert_eq!(args.metrics_addr, Some("127.0.0.1:9100".parse().unwrap()));
        assert_eq!(
            (
                args.tables_per_minute,
                args.joins_per_minute,
                args.max_connections
            ),
            (Some(5), Some(7), Some(100))
        );
        assert_eq!(
            args.backup_every,
            Some(std::time::Duration::from_secs(5400))
        );
        assert_eq!(args.backup_dir, Some(PathBuf::from("copies")));
        assert_eq!(args.backup_keep, Some(3));
        assert_eq!(
            parse_backup_every("1m"),
            Ok(std::time::Duration::from_secs(60))
        );
        assert!(parse_backup_every("59s").is_err());
        assert!(parse_backup_every("366d").is_err());
        assert!(parse_backup_every("often").is_err());
    }

    #[test]
    fn connections_per_address_are_capped_except_behind_a_proxy() {
        let parse = |args: &str| Cli::try_parse_from(args.split_whitespace());
        let Command::Serve(args) = parse("prophecy serve --connections-per-address 20")
            .expect("accepted")
            .command
        else {
            panic!("serve")
        };
        assert_eq!(args.connections_per_address, Some(20));
        assert!(parse("prophecy serve --connections-per-address 0").is_err());
        assert!(parse("prophecy serve --connections-per-address 1000001").is_err());
        let behind = parse("prophecy serve --trust-proxy --connections-per-address 20")
            .expect_err("the proxy caps them");
        assert_eq!(behind.kind(), clap::error::ErrorKind::ArgumentConflict);
    }

    /// The help states the server's defaults; they must not drift apart.
    #[test]
    fn serve_help_states_the_server_s_defaults() {
        let defaults = server::Limits::default();
        let help = Cli::command()
            .find_subcommand_mut("serve")
            .expect("serve")
            .render_long_help()
            .to_string();
        let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
        for stated in [
            format!("default {})", defaults.tables_per_minute),
            format!("default {})", defaults.joins_per_minute),
            format!("default {})", defaults.sync_kib_per_minute),
            format!("default {})", defaults.written_kib_per_minute),
            format!(
                "(1 to 1000000; default {})",
                defaults.connections_per_address
            ),
            format!(
                "default: the open-file limit less {})",
                server::limits::SPARE_FILES
            ),
            format!("default {DEFAULT_BACKUPS_KEPT})"),
        ] {
            assert!(help.contains(&stated), "{stated} in {help}");
        }
    }

    /// Container platforms and service managers set a server up through its environment: each
    /// flag of `serve` has its variable, named in `--help`.
    #[test]
    fn every_serve_flag_has_its_environment_variable() {
        let mut command = Cli::command();
        let serve = command.find_subcommand_mut("serve").expect("serve");
        let help = serve.render_long_help().to_string();
        let flags: Vec<_> = serve
            .get_arguments()
            .filter_map(|a| a.get_long().map(|long| (long.to_owned(), a.get_env())))
            .filter(|(long, _)| long != "help")
            .collect();
        assert_eq!(flags.len(), 15, "{flags:?}");
        for (long, env) in flags {
            let expected = format!("PROPHECY_{}", long.to_uppercase().replace('-', "_"));
            assert_eq!(
                env.and_then(|e| e.to_str()),
                Some(expected.as_str()),
                "--{long}"
            );
            assert!(
                help.contains(&format!("[env: {expected}")),
                "{expected} in --help"
            );
        }
    }

    #[test]
    fn database_files_not_folders() {
        let tmp = std::env::temp_dir();
        assert_eq!(db_file(tmp.join("x.db").into()), Ok(tmp.join("x.db")));
        assert_eq!(db_file("prophecy.db".into()), Ok("prophecy.db".into()));
        assert_eq!(
            db_file(tmp.clone().into()),
            Err(format!(
                "a folder; give a file such as {}",
                tmp.join("prophecy.db").display()
            ))
        );
        assert_eq!(
            db_file("/no/such/folder/x.db".into()),
            Err("/no/such/folder does not exist; give a file in a folder that exists".to_owned())
        );
        assert!(db_file("".into()).is_err());
        #[cfg(unix)]
        assert_eq!(
            db_file("/dev/null".into()),
            Err("a device, not a file; give a database file such as prophecy.db".to_owned())
        );
    }

    #[test]
    fn urls_players_can_open() {
        for (text, normal) in [
            ("http://192.168.1.20:8080", "http://192.168.1.20:8080/"),
            ("http://192.168.1.20:8080/", "http://192.168.1.20:8080/"),
            ("HTTPS://table.example.org//", "https://table.example.org/"),
            (
                "https://example.org/prophecy/",
                "https://example.org/prophecy/",
            ),
            ("http://[::1]:8080", "http://[::1]:8080/"),
            ("http://localhost", "http://localhost/"),
        ] {
            assert_eq!(parse_url(text).as_deref(), Ok(normal), "{text}");
        }
        for (text, problem) in [
            ("notaurl", "not a web address"),
            (
                "ftp://example.org/",
                "'ftp://' is not a web address: use http:// or https://",
            ),
            ("http://", "no host in the address"),
            ("http:///x", "no host in the address"),
            ("http://:8080/", "no host in the address"),
            ("http://a b/", "' ' cannot be in a web address"),
            (
                "http://host:0/",
                "'0' is not a port: ports go from 1 to 65535",
            ),
            (
                "http://host:x/",
                "'x' is not a port: ports go from 1 to 65535",
            ),
            (
                "http://[::1]x/",
                "'x' is not a port: ports go from 1 to 65535",
            ),
            ("http://[nope]/", "'[nope]' is not an IPv6 address"),
            ("http://ex_ample.org/", "'ex_ample.org' is not a host name"),
            (
                "http://u@host/",
                "a user name (…@) cannot be in the address players use",
            ),
            (
                "http://host/?a=1",
                "a ? or # cannot be in the address players use",
            ),
        ] {
            assert_eq!(
                parse_url(text),
                Err(format!("{problem} ({URL_EXAMPLE})")),
                "{text}"
            );
        }
    }

    #[test]
    fn one_parser_for_every_count() {
        assert_eq!(parse_roll_dice("7"), Ok(7));
        assert_eq!(
            parse_roll_dice("-5"),
            Err("the number of dice cannot be negative (0 to 10000)".to_owned())
        );
        assert_eq!(
            parse_roll_dice("-99999999999999999999"),
            Err("the number of dice cannot be negative (0 to 10000)".to_owned())
        );
        assert_eq!(
            parse_roll_dice("99999999999999999999"),
            Err("the number of dice must be from 0 to 10000".to_owned())
        );
        assert_eq!(
            parse_roll_dice("5.5"),
            Err("not a whole number; the number of dice goes from 0 to 10000".to_owned())
        );
        assert_eq!(parse_battle_value("-1000"), Ok(-1000));
        assert_eq!(parse_seed("18446744073709551615"), Ok(u64::MAX));
        assert!(parse_seed("18446744073709551616").is_err());
    }
}
