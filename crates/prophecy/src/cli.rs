//! The command line as written: clap's flags, with every limit checked while parsing so that bad
//! input becomes one line naming the problem. The commands turn these into what they compute.

use clap::{Args, Parser, Subcommand, ValueEnum};
use dice::challenge::Situation;
use std::path::PathBuf;
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
    /// Open the web table: players join from phones and laptops by link.
    Serve(ServeArgs),
    /// Roll a Prophecy check: N six-sided dice, every 6 adds a die, 4–6 is a hit.
    #[command(allow_negative_numbers = true)]
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
    /// A stored game (one event per line, JSON) as Markdown, or its outline as a tree or diagram.
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
    #[arg(long, short)]
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
    /// The stored game: one event per line, as JSON (`{"v":"1","type":…}`).
    pub file: PathBuf,
    /// markdown, tree or mermaid.
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
    /// The outline plan: a TOML file of `[[scene]]` tables (see the README).
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
    /// The outline plan: a TOML file of `[[scene]]` tables (see the README).
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
    /// Where to listen. Use 0.0.0.0:8080 (or this machine's LAN address) for phones on the
    /// same network.
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: std::net::SocketAddr,
    /// The SQLite file that keeps every table (created if missing).
    #[arg(long, default_value = "prophecy.db")]
    pub db: PathBuf,
    /// The address players use, if it is not --addr (e.g. http://192.168.1.20:8080/ when
    /// listening on 0.0.0.0); printed with a QR code.
    #[arg(long)]
    pub url: Option<String>,
}

/// `prophecy roll`.
#[derive(Debug, Args)]
pub struct RollArgs {
    /// Dice in the pool (0 to 10000; an empty pool has zero hits).
    #[arg(value_parser = parse_roll_dice)]
    pub dice: u32,
    /// The difficulty rating to beat (1 to 100): prints success or failure.
    #[arg(long, short, value_parser = parse_difficulty)]
    pub difficulty: Option<u32>,
    /// Seed of the roll, for replaying it (default: a fresh random seed, printed).
    #[arg(long, short, conflicts_with = "faces")]
    pub seed: Option<u64>,
    /// Use these faces instead of random ones, in rolling order: the pool, then each wave of
    /// explosions (e.g. 3,6,5,1,6,2,6,4).
    #[arg(long, value_delimiter = ',', value_parser = parse_face)]
    pub faces: Option<Vec<u8>>,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `prophecy odds`.
#[derive(Debug, Args)]
pub struct OddsArgs {
    /// Dice in the pool (0 to 5000). Alone: the distribution of hits of this pool.
    #[arg(long, short = 'n', value_parser = parse_odds_dice)]
    pub dice: Option<u32>,
    /// Difficulty rating (1 to 100). Alone: P(success) for 1 to --max-dice dice.
    #[arg(long, short, value_parser = parse_difficulty)]
    pub difficulty: Option<u32>,
    /// Rows of the table (pools 1..=N).
    #[arg(long, default_value_t = 12, value_parser = parse_table_dice)]
    pub max_dice: u32,
    /// Columns of the table (difficulties 1..=D).
    #[arg(long, default_value_t = 5, value_parser = parse_difficulty)]
    pub max_difficulty: u32,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `prophecy simulate`.
#[derive(Debug, Args)]
pub struct SimulateArgs {
    /// Dice in the pool (0 to 1000).
    #[arg(long, short = 'n', value_parser = parse_simulate_dice)]
    pub dice: u32,
    /// Number of checks to sample (1 to 1000000000).
    #[arg(long, short, value_parser = parse_trials)]
    pub trials: u64,
    /// Difficulty rating: also compare the sampled rate of success with the exact one.
    #[arg(long, short, value_parser = parse_difficulty)]
    pub difficulty: Option<u32>,
    /// Seed of the run (default: a fresh random seed, printed).
    #[arg(long, short)]
    pub seed: Option<u64>,
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
    #[arg(long, value_parser = parse_steps)]
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
    #[arg(long, short)]
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
#[command(allow_negative_numbers = true)]
pub struct BattleSpec {
    /// Your Strength (or Willpower) with bonuses.
    #[arg(long, value_parser = parse_battle_value)]
    pub yours: i32,
    /// The creature's Strength (or Willpower).
    #[arg(long, value_parser = parse_battle_value)]
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
    #[arg(long, short)]
    pub seed: Option<u64>,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `prophecy d66`.
#[derive(Debug, Args)]
pub struct D66Args {
    /// Seed of the roll (default: a fresh random seed, printed).
    #[arg(long, short)]
    pub seed: Option<u64>,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// A whole number in `min..=max`, or a message naming `what` and the range.
fn bounded(text: &str, what: &str, min: i64, max: i64, hint: &str) -> Result<i64, String> {
    match text.trim().parse::<i64>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        Ok(n) if n < 0 && min >= 0 => {
            Err(format!("{what} cannot be negative ({min} to {max}{hint})"))
        }
        Ok(_) => Err(format!("{what} must be from {min} to {max}{hint}")),
        Err(_) => Err(format!(
            "not a whole number; {what} goes from {min} to {max}{hint}"
        )),
    }
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
