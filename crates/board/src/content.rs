//! The original content of the basic version: the board, characters, Adventure and Chance
//! cards and Items, embedded in the binary as TOML files and checked when loaded (format, effect
//! vocabulary and special rules in `content/README.md`). A group can load their own files the
//! same way.

use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::fmt;

/// The five guilds, each a space on the board and a Certificate to win.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Guild {
    /// The Fortress: two Experience for one Health instead of moving.
    Fortress,
    /// The Thieves' Guild: three Gold for one Health instead of moving.
    ThievesGuild,
    /// The Magic Tower: recharge Magic, one Gold for every two.
    MagicTower,
    /// The Forest Camp: heal Health, one Gold each.
    ForestCamp,
    /// The Monastery: heal one Health for free once per turn.
    Monastery,
}

impl Guild {
    /// All five, in the rules' order.
    pub const ALL: [Guild; 5] = [
        Guild::Fortress,
        Guild::ThievesGuild,
        Guild::MagicTower,
        Guild::ForestCamp,
        Guild::Monastery,
    ];
}

/// The three terrains where Adventure cards appear.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Terrain {
    /// Mountains.
    Mountains,
    /// Forest.
    Forest,
    /// Plains.
    Plains,
}

impl Terrain {
    /// All three.
    pub const ALL: [Terrain; 3] = [Terrain::Mountains, Terrain::Forest, Terrain::Plains];
}

/// What a space is. Written in files as one word: `fortress`, `thieves-guild`, `magic-tower`,
/// `forest-camp`, `monastery`, `city`, `village`, `mountains`, `forest`, `plains`,
/// `enchanted-wilderness`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(from = "KindName", into = "KindName")]
pub enum SpaceKind {
    /// A guild's space.
    Guild(Guild),
    /// The City: buy and sell Items; two Gold for one Magic instead of moving.
    City,
    /// The Village: buy and sell Items; lodging at the tavern.
    Village,
    /// A terrain space, where Adventure cards appear.
    Terrain(Terrain),
    /// The Enchanted Wilderness: recharge up to three Magic for free once per turn.
    EnchantedWilderness,
}

impl SpaceKind {
    /// A civilization (blue) space: a guild, the City or the Village, where Items are repaired.
    pub fn is_civilization(self) -> bool {
        matches!(
            self,
            SpaceKind::Guild(_) | SpaceKind::City | SpaceKind::Village
        )
    }
}

/// The file form of [`SpaceKind`].
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
enum KindName {
    Fortress,
    ThievesGuild,
    MagicTower,
    ForestCamp,
    Monastery,
    City,
    Village,
    Mountains,
    Forest,
    Plains,
    EnchantedWilderness,
}

impl From<KindName> for SpaceKind {
    fn from(name: KindName) -> SpaceKind {
        match name {
            KindName::Fortress => SpaceKind::Guild(Guild::Fortress),
            KindName::ThievesGuild => SpaceKind::Guild(Guild::ThievesGuild),
            KindName::MagicTower => SpaceKind::Guild(Guild::MagicTower),
            KindName::ForestCamp => SpaceKind::Guild(Guild::ForestCamp),
            KindName::Monastery => SpaceKind::Guild(Guild::Monastery),
            KindName::City => SpaceKind::City,
            KindName::Village => SpaceKind::Village,
            KindName::Mountains => SpaceKind::Terrain(Terrain::Mountains),
            KindName::Forest => SpaceKind::Terrain(Terrain::Forest),
            KindName::Plains => SpaceKind::Terrain(Terrain::Plains),
            KindName::EnchantedWilderness => SpaceKind::EnchantedWilderness,
        }
    }
}

impl From<SpaceKind> for KindName {
    fn from(kind: SpaceKind) -> KindName {
        match kind {
            SpaceKind::Guild(Guild::Fortress) => KindName::Fortress,
            SpaceKind::Guild(Guild::ThievesGuild) => KindName::ThievesGuild,
            SpaceKind::Guild(Guild::MagicTower) => KindName::MagicTower,
            SpaceKind::Guild(Guild::ForestCamp) => KindName::ForestCamp,
            SpaceKind::Guild(Guild::Monastery) => KindName::Monastery,
            SpaceKind::City => KindName::City,
            SpaceKind::Village => KindName::Village,
            SpaceKind::Terrain(Terrain::Mountains) => KindName::Mountains,
            SpaceKind::Terrain(Terrain::Forest) => KindName::Forest,
            SpaceKind::Terrain(Terrain::Plains) => KindName::Plains,
            SpaceKind::EnchantedWilderness => KindName::EnchantedWilderness,
        }
    }
}

/// One space of the ring.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Space {
    /// Its name.
    pub name: String,
    /// What it is.
    pub kind: SpaceKind,
    /// A boat sails from here to the next Port on the left or right, for 1 Gold.
    #[serde(default)]
    pub port: bool,
    /// A Magic Gate: to any other Magic Gate, for 2 Gold.
    #[serde(default)]
    pub magic_gate: bool,
}

/// The board: a ring of spaces, the last next to the first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Board {
    /// The spaces in order around the ring.
    pub spaces: Vec<Space>,
}

/// Fewest spaces a board may have.
pub const MIN_SPACES: usize = 12;
/// Most spaces a board may have (bots keep sets of spaces in the bits of a 64-bit word).
pub const MAX_SPACES: usize = 64;
/// Fewest Ports a board may have.
pub const MIN_PORTS: usize = 2;
/// Fewest Magic Gates a board may have.
pub const MIN_MAGIC_GATES: usize = 2;

impl Board {
    /// Parses and checks a board file.
    pub fn from_toml(text: &str) -> Result<Board, ContentError> {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct File {
            space: Vec<Space>,
        }
        let error = error_in("board.toml");
        let file: File = parse(text, "board.toml")?;
        let board = Board { spaces: file.space };
        unique_names(board.spaces.iter().map(|s| &s.name)).map_err(&error)?;
        if board.spaces.len() < MIN_SPACES {
            return Err(error(format!(
                "the ring has {} spaces, fewer than {MIN_SPACES}",
                board.spaces.len()
            )));
        }
        if board.spaces.len() > MAX_SPACES {
            return Err(error(format!(
                "the ring has {} spaces, more than {MAX_SPACES}",
                board.spaces.len()
            )));
        }
        for guild in Guild::ALL {
            let count = board.count(|k| k == SpaceKind::Guild(guild));
            if count != 1 {
                return Err(error(format!(
                    "{} must be on the board exactly once, not {count} times",
                    KindName::from(SpaceKind::Guild(guild)).file_name()
                )));
            }
        }
        for kind in [SpaceKind::City, SpaceKind::Village] {
            let count = board.count(|k| k == kind);
            if count != 1 {
                return Err(error(format!(
                    "{} must be on the board exactly once, not {count} times",
                    KindName::from(kind).file_name()
                )));
            }
        }
        for terrain in Terrain::ALL {
            if board.count(|k| k == SpaceKind::Terrain(terrain)) == 0 {
                return Err(error(format!(
                    "no {} space",
                    KindName::from(SpaceKind::Terrain(terrain)).file_name()
                )));
            }
        }
        let ports = board.ports().len();
        if ports < MIN_PORTS {
            return Err(error(format!("{ports} ports, fewer than {MIN_PORTS}")));
        }
        let gates = board.magic_gates().len();
        if gates < MIN_MAGIC_GATES {
            return Err(error(format!(
                "{gates} magic gates, fewer than {MIN_MAGIC_GATES}"
            )));
        }
        Ok(board)
    }

    fn count(&self, matches: impl Fn(SpaceKind) -> bool) -> usize {
        self.spaces.iter().filter(|s| matches(s.kind)).count()
    }

    /// The two spaces next to `index` (left, right) around the ring.
    pub fn neighbours(&self, index: usize) -> (usize, usize) {
        let n = self.spaces.len();
        ((index + n - 1) % n, (index + 1) % n)
    }

    /// The indices of the Ports, in ring order (a boat sails to the previous or next one).
    pub fn ports(&self) -> Vec<usize> {
        (0..self.spaces.len())
            .filter(|&i| self.spaces[i].port)
            .collect()
    }

    /// The indices of the Magic Gates.
    pub fn magic_gates(&self) -> Vec<usize> {
        (0..self.spaces.len())
            .filter(|&i| self.spaces[i].magic_gate)
            .collect()
    }

    /// The index of a guild's space.
    pub fn guild(&self, guild: Guild) -> usize {
        self.spaces
            .iter()
            .position(|s| s.kind == SpaceKind::Guild(guild))
            .expect("a checked board has every guild")
    }
}

impl KindName {
    fn file_name(self) -> &'static str {
        match self {
            KindName::Fortress => "fortress",
            KindName::ThievesGuild => "thieves-guild",
            KindName::MagicTower => "magic-tower",
            KindName::ForestCamp => "forest-camp",
            KindName::Monastery => "monastery",
            KindName::City => "city",
            KindName::Village => "village",
            KindName::Mountains => "mountains",
            KindName::Forest => "forest",
            KindName::Plains => "plains",
            KindName::EnchantedWilderness => "enchanted-wilderness",
        }
    }
}

/// An adventurer to play.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Character {
    /// Her name.
    pub name: String,
    /// Starting Strength, which is also her Health.
    pub strength: u32,
    /// Starting Willpower, which is also her Magic.
    pub willpower: u32,
    /// Her two guilds (Certificates without Gold); she starts in the first one's space.
    pub guilds: [Guild; 2],
}

impl Character {
    /// The guild space she starts in.
    pub fn starting_guild(&self) -> Guild {
        self.guilds[0]
    }
}

/// What a card does, in a small vocabulary (see `content/README.md`). Amounts are at least 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Effect {
    /// Take Gold from the bank.
    GainGold(u32),
    /// Pay Gold to the bank (as much as she has).
    LoseGold(u32),
    /// Take Experience.
    GainExperience(u32),
    /// Lose Experience (as much as she has).
    LoseExperience(u32),
    /// Heal lost Health.
    Heal(u32),
    /// Lose Health (none left: she dies).
    LoseHealth(u32),
    /// Recharge lost Magic.
    Recharge(u32),
    /// Lose Magic (as much as she has).
    LoseMagic(u32),
    /// A permanent extra Strength from the bank.
    GainStrength(u32),
    /// A permanent extra Willpower from the bank.
    GainWillpower(u32),
    /// Draw the top Common Item.
    DrawCommonItem,
    /// Draw the top Rare Item.
    DrawRareItem,
    /// Lose one Item of her choice.
    LoseItem,
    /// Move one space to the left or right, her choice.
    MoveOneSpace,
    /// Skip her next turn.
    MissTurn,
}

impl Effect {
    /// How much it gives or takes; `None` for the effects without an amount (Items, moves, a
    /// missed turn).
    pub fn amount(self) -> Option<u32> {
        match self {
            Effect::GainGold(n)
            | Effect::LoseGold(n)
            | Effect::GainExperience(n)
            | Effect::LoseExperience(n)
            | Effect::Heal(n)
            | Effect::LoseHealth(n)
            | Effect::Recharge(n)
            | Effect::LoseMagic(n)
            | Effect::GainStrength(n)
            | Effect::GainWillpower(n) => Some(n),
            Effect::DrawCommonItem
            | Effect::DrawRareItem
            | Effect::LoseItem
            | Effect::MoveOneSpace
            | Effect::MissTurn => None,
        }
    }
}

/// A Creature's fighting values, in the order printed on its card.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CreatureStats {
    /// Strength only: a Battle of Strength.
    Strength(i32),
    /// Willpower only: a Battle of Wills.
    Willpower(i32),
    /// Strength first: a Battle of Strength, or a Battle of Wills she may start for two Magic.
    StrengthThenWillpower {
        /// Its Strength.
        strength: i32,
        /// Its Willpower.
        willpower: i32,
    },
    /// Willpower first: a special battle, as its special rule says.
    WillpowerThenStrength {
        /// Its Willpower.
        willpower: i32,
        /// Its Strength.
        strength: i32,
    },
}

impl CreatureStats {
    /// Its Strength, if it has one.
    pub fn strength(self) -> Option<i32> {
        match self {
            CreatureStats::Strength(s)
            | CreatureStats::StrengthThenWillpower { strength: s, .. }
            | CreatureStats::WillpowerThenStrength { strength: s, .. } => Some(s),
            CreatureStats::Willpower(_) => None,
        }
    }

    /// Its Willpower, if it has one.
    pub fn willpower(self) -> Option<i32> {
        match self {
            CreatureStats::Willpower(w)
            | CreatureStats::StrengthThenWillpower { willpower: w, .. }
            | CreatureStats::WillpowerThenStrength { willpower: w, .. } => Some(w),
            CreatureStats::Strength(_) => None,
        }
    }
}

/// What a Creature's special rule does, in a small vocabulary (see `content/README.md`). Each
/// kind is either mandatory (an exclamation mark on the card: it applies by itself) or optional
/// (a question mark: she may use it with [`Action::UseSpecialRule`](crate::Action::UseSpecialRule)
/// instead of fighting).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum SpecialKind {
    /// Optional: instead of fighting, pay this much Gold to pass; the Creature stays face-up.
    PayToPass {
        /// Gold paid to the bank (at least 1).
        gold: u32,
    },
    /// Optional: instead of fighting, let it go: it is discarded and she gains nothing.
    LetGo,
    /// Mandatory: a Battle of Wills, and if she wins it a Battle of Strength; only winning both
    /// defeats it (a draw or loss in either is the battle's). Needs both values.
    WillsThenStrength,
    /// Mandatory: before the first roll she loses this much Magic (as much as she has), which
    /// also weakens her Willpower for the battle.
    DrainBefore {
        /// Magic lost (at least 1).
        magic: u32,
    },
    /// Mandatory: a roll that is a draw counts as a loss.
    DrawIsLoss,
    /// Mandatory: only a Battle of Wills, with no Magic to pay to start it. Needs Willpower.
    OnlyWills,
    /// Mandatory: only a Battle of Strength (no optional Battle of Wills). Needs Strength.
    OnlyStrength,
    /// Mandatory: when defeated (its Experience and treasure taken), it rises again on an empty
    /// space of this terrain other than the one it fell on, drawn with the battle's seed; with
    /// no such space it stays discarded.
    RisesAgain {
        /// Where it rises.
        terrain: Terrain,
    },
}

impl SpecialKind {
    /// Whether it applies by itself (an exclamation mark) rather than at her choice.
    pub fn mandatory(self) -> bool {
        !matches!(self, SpecialKind::PayToPass { .. } | SpecialKind::LetGo)
    }

    /// Its name in the files and in refusals.
    pub fn name(self) -> &'static str {
        match self {
            SpecialKind::PayToPass { .. } => "pay_to_pass",
            SpecialKind::LetGo => "let_go",
            SpecialKind::WillsThenStrength => "wills_then_strength",
            SpecialKind::DrainBefore { .. } => "drain_before",
            SpecialKind::DrawIsLoss => "draw_is_loss",
            SpecialKind::OnlyWills => "only_wills",
            SpecialKind::OnlyStrength => "only_strength",
            SpecialKind::RisesAgain { .. } => "rises_again",
        }
    }
}

/// A Creature's special rule: what the engine plays, and the card's words for the page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpecialRule {
    /// What it does.
    pub rule: SpecialKind,
    /// The rule as printed on the card (our words), for the page.
    pub text: String,
}

impl SpecialRule {
    /// Whether it must be followed (an exclamation mark) or may be used (a question mark).
    pub fn mandatory(&self) -> bool {
        self.rule.mandatory()
    }
}

/// A Creature: it must be fought.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Creature {
    /// Its name.
    pub name: String,
    /// Its values, in printed order.
    pub stats: CreatureStats,
    /// Experience for defeating it.
    pub experience: u32,
    /// Treasure for defeating it, besides the Experience.
    pub treasure: Vec<Effect>,
    /// What losing to it costs, if not the default one Health.
    pub on_loss: Option<Vec<Effect>>,
    /// It must be beaten three rolls in a row in one battle.
    pub three_lives: bool,
    /// Its special rule, if any (one per card).
    pub special: Option<SpecialRule>,
}

/// What losing to a Creature without loss effects of its own costs.
const DEFAULT_LOSS: [Effect; 1] = [Effect::LoseHealth(1)];

impl Creature {
    /// What losing to it costs: its own loss effects, or one Health.
    pub fn loss_effects(&self) -> &[Effect] {
        self.on_loss.as_deref().unwrap_or(&DEFAULT_LOSS)
    }
}

/// An Opportunity: she may use it or leave it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Opportunity {
    /// Its name.
    pub name: String,
    /// What the card says, as flavour and ruling.
    pub text: String,
    /// What using it does, in order.
    pub effects: Vec<Effect>,
}

/// A yellow Adventure card.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AdventureCard {
    /// A Creature.
    Creature(Creature),
    /// An Opportunity.
    Opportunity(Opportunity),
}

impl AdventureCard {
    /// Its name.
    pub fn name(&self) -> &str {
        match self {
            AdventureCard::Creature(c) => &c.name,
            AdventureCard::Opportunity(o) => &o.name,
        }
    }
}

/// Which Item deck.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Rarity {
    /// The brown Common Item deck.
    Common,
    /// The gold Rare Item deck.
    Rare,
}

/// Where a restocking Chance card lays Items.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Market {
    /// The City.
    City,
    /// The Village.
    Village,
}

/// What a green Chance card does (the kinds the basic version keeps).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum ChanceKind {
    /// An Adventure card on every empty space of this terrain.
    Terrain(Terrain),
    /// City Merchant, Tradesman: discard the Items lying in the space, lay out new ones.
    Restock {
        /// Which space.
        space: Market,
        /// Which deck.
        deck: Rarity,
        /// How many cards.
        count: u32,
    },
    /// The winds: every player may heal and recharge this much.
    Wind {
        /// Health healed.
        heal: u32,
        /// Magic recharged.
        recharge: u32,
    },
    /// Good Times: every player may take this much Gold.
    GoodTimes {
        /// Gold.
        gold: u32,
    },
    /// Charity: heal, recharge and Gold, only for the player(s) with the least.
    Charity {
        /// Health healed.
        heal: u32,
        /// Magic recharged.
        recharge: u32,
        /// Gold.
        gold: u32,
    },
    /// Peaceful Times: the drawer takes another turn, without a Chance card.
    PeacefulTimes,
}

/// A green Chance card and its number of copies in the deck.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChanceCard {
    /// Its name.
    pub name: String,
    /// What it does.
    pub kind: ChanceKind,
    /// How many copies are in the deck.
    pub copies: u32,
}

/// How many hands a weapon takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Hands {
    /// One hand: a shield or another hand Item fits beside it.
    One,
    /// Both hands.
    Two,
}

/// Where an Item is used: one weapon, one shield or hand Item beside a one-handed weapon, one
/// headwear, any number of others.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Slot {
    /// A weapon.
    Weapon {
        /// Hands it takes.
        hands: Hands,
        /// Its Strength bonus when thrown (`thrown = 3`), if it may be thrown: on the first
        /// roll of a Battle of Strength only, instead of its held bonus, and then it is
        /// damaged. Throwing is the player's choice; held, it gives its `strength_bonus` on
        /// every roll like any weapon.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        thrown: Option<i32>,
    },
    /// A shield.
    Shield,
    /// Another handheld Item, such as a wand.
    HandItem,
    /// A helmet, hat or hood.
    Headwear,
    /// Anything else: not handheld, not worn on the head.
    Other,
}

/// An Item card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Item {
    /// Its name.
    pub name: String,
    /// Its cost in Gold (it sells for half, rounded up).
    pub cost: u32,
    /// Common or Rare.
    pub rarity: Rarity,
    /// Where it is used.
    pub slot: Slot,
    /// Bonus in a Battle of Strength.
    #[serde(default)]
    pub strength_bonus: i32,
    /// Bonus in a Battle of Wills.
    #[serde(default)]
    pub willpower_bonus: i32,
}

/// Why a content file cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContentError {
    /// The file, relative to the content folder.
    pub file: String,
    /// What is wrong, in one line.
    pub message: String,
}

impl fmt::Display for ContentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.file, self.message)
    }
}

impl std::error::Error for ContentError {}

fn error_in(file: &'static str) -> impl Fn(String) -> ContentError {
    move |message| ContentError {
        file: file.to_owned(),
        message,
    }
}

fn parse<T: serde::de::DeserializeOwned>(
    text: &str,
    file: &'static str,
) -> Result<T, ContentError> {
    toml::from_str(text).map_err(|e| {
        // toml's messages span several lines (a snippet of the file); keep the first and its line.
        let message = e.message().lines().next().unwrap_or("").trim().to_owned();
        error_in(file)(match e.span() {
            Some(span) => format!("line {}: {message}", line_of(text, span.start)),
            None => message,
        })
    })
}

fn line_of(text: &str, offset: usize) -> usize {
    text.as_bytes()[..offset.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

fn unique_names<'a>(names: impl Iterator<Item = &'a String>) -> Result<(), String> {
    let mut seen = BTreeSet::new();
    for name in names {
        if name.trim().is_empty() {
            return Err("a name is empty".to_owned());
        }
        if !seen.insert(name.trim()) {
            return Err(format!("'{name}' appears twice"));
        }
    }
    Ok(())
}

fn check_effects(card: &str, effects: &[Effect]) -> Result<(), String> {
    if let Some(effect) = effects.iter().find(|e| e.amount() == Some(0)) {
        return Err(format!("'{card}': the effect {effect:?} has amount 0"));
    }
    // A command carries one choice of each kind, so each choice comes once per list.
    for choice in [Effect::LoseItem, Effect::MoveOneSpace] {
        if effects.iter().filter(|&&e| e == choice).count() > 1 {
            return Err(format!("'{card}': the effect {choice:?} appears twice"));
        }
    }
    Ok(())
}

fn check_special(card: &str, special: &SpecialRule, stats: CreatureStats) -> Result<(), String> {
    let name = special.rule.name();
    if special.text.trim().is_empty() {
        return Err(format!("'{card}': its special rule's text is empty"));
    }
    let needs = match special.rule {
        SpecialKind::PayToPass { gold: 0 } | SpecialKind::DrainBefore { magic: 0 } => {
            return Err(format!("'{card}': the special rule {name} has amount 0"));
        }
        SpecialKind::WillsThenStrength => stats.strength().is_some() && stats.willpower().is_some(),
        SpecialKind::OnlyWills => stats.willpower().is_some(),
        SpecialKind::OnlyStrength => stats.strength().is_some(),
        _ => true,
    };
    if !needs {
        return Err(format!(
            "'{card}': the special rule {name} needs the Creature's {}",
            match special.rule {
                SpecialKind::OnlyWills => "Willpower",
                SpecialKind::OnlyStrength => "Strength",
                _ => "Strength and Willpower",
            }
        ));
    }
    Ok(())
}

/// Parses and checks a characters file.
pub fn characters_from_toml(text: &str) -> Result<Vec<Character>, ContentError> {
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct File {
        character: Vec<Character>,
    }
    let error = error_in("characters.toml");
    let file: File = parse(text, "characters.toml")?;
    unique_names(file.character.iter().map(|c| &c.name)).map_err(&error)?;
    for c in &file.character {
        if c.guilds[0] == c.guilds[1] {
            return Err(error(format!("'{}': its two guilds are the same", c.name)));
        }
        if c.strength == 0 {
            return Err(error(format!("'{}': Strength must be at least 1", c.name)));
        }
    }
    Ok(file.character)
}

/// Parses and checks an Adventure cards file.
pub fn adventures_from_toml(text: &str) -> Result<Vec<AdventureCard>, ContentError> {
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct File {
        #[serde(default)]
        creature: Vec<RawCreature>,
        #[serde(default)]
        opportunity: Vec<RawOpportunity>,
    }
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct RawCreature {
        name: String,
        strength: Option<i32>,
        willpower: Option<i32>,
        first: Option<Stat>,
        experience: u32,
        #[serde(default)]
        treasure: Vec<Effect>,
        on_loss: Option<Vec<Effect>>,
        #[serde(default)]
        three_lives: bool,
        special: Option<SpecialRule>,
    }
    #[derive(Deserialize, Clone, Copy, PartialEq)]
    #[serde(rename_all = "kebab-case")]
    enum Stat {
        Strength,
        Willpower,
    }
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct RawOpportunity {
        name: String,
        text: String,
        effects: Vec<Effect>,
    }
    let error = error_in("adventures.toml");
    let file: File = parse(text, "adventures.toml")?;
    unique_names(
        file.creature
            .iter()
            .map(|c| &c.name)
            .chain(file.opportunity.iter().map(|o| &o.name)),
    )
    .map_err(&error)?;
    let mut cards = Vec::new();
    for c in file.creature {
        let name = &c.name;
        let stats = match (c.strength, c.willpower, c.first) {
            (Some(s), None, None) => CreatureStats::Strength(s),
            (None, Some(w), None) => CreatureStats::Willpower(w),
            (Some(strength), Some(willpower), Some(Stat::Strength)) => {
                CreatureStats::StrengthThenWillpower {
                    strength,
                    willpower,
                }
            }
            (Some(strength), Some(willpower), Some(Stat::Willpower)) => {
                CreatureStats::WillpowerThenStrength {
                    willpower,
                    strength,
                }
            }
            (None, None, _) => {
                return Err(error(format!(
                    "'{name}': a Creature needs Strength or Willpower"
                )));
            }
            (Some(_), Some(_), None) => {
                return Err(error(format!(
                    "'{name}': with both Strength and Willpower, `first` must say which is printed first"
                )));
            }
            (_, _, Some(_)) => {
                return Err(error(format!(
                    "'{name}': `first` is only for a Creature with both Strength and Willpower"
                )));
            }
        };
        if c.experience == 0 {
            return Err(error(format!("'{name}': experience must be at least 1")));
        }
        if matches!(stats, CreatureStats::WillpowerThenStrength { .. }) && c.special.is_none() {
            return Err(error(format!(
                "'{name}': Willpower first means a special battle, so it needs a special rule"
            )));
        }
        if let Some(special) = &c.special {
            check_special(name, special, stats).map_err(&error)?;
        }
        if c.on_loss.as_ref().is_some_and(Vec::is_empty) {
            return Err(error(format!(
                "'{name}': `on_loss` is empty (leave it out for the default one Health)"
            )));
        }
        check_effects(name, &c.treasure).map_err(&error)?;
        check_effects(name, c.on_loss.as_deref().unwrap_or_default()).map_err(&error)?;
        cards.push(AdventureCard::Creature(Creature {
            name: c.name,
            stats,
            experience: c.experience,
            treasure: c.treasure,
            on_loss: c.on_loss,
            three_lives: c.three_lives,
            special: c.special,
        }));
    }
    for o in file.opportunity {
        if o.effects.is_empty() {
            return Err(error(format!("'{}': an Opportunity needs effects", o.name)));
        }
        if o.text.trim().is_empty() {
            return Err(error(format!("'{}': its text is empty", o.name)));
        }
        check_effects(&o.name, &o.effects).map_err(&error)?;
        cards.push(AdventureCard::Opportunity(Opportunity {
            name: o.name,
            text: o.text.trim().to_owned(),
            effects: o.effects,
        }));
    }
    Ok(cards)
}

/// Parses and checks the Chance deck file.
pub fn chance_from_toml(text: &str) -> Result<Vec<ChanceCard>, ContentError> {
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct File {
        card: Vec<ChanceCard>,
    }
    let error = error_in("chance.toml");
    let file: File = parse(text, "chance.toml")?;
    unique_names(file.card.iter().map(|c| &c.name)).map_err(&error)?;
    for card in &file.card {
        let name = &card.name;
        if card.copies == 0 {
            return Err(error(format!("'{name}': copies must be at least 1")));
        }
        let empty = match card.kind {
            ChanceKind::Restock { count, .. } => count == 0,
            ChanceKind::Wind { heal, recharge } => heal + recharge == 0,
            ChanceKind::GoodTimes { gold } => gold == 0,
            ChanceKind::Charity {
                heal,
                recharge,
                gold,
            } => heal + recharge + gold == 0,
            ChanceKind::Terrain(_) | ChanceKind::PeacefulTimes => false,
        };
        if empty {
            return Err(error(format!("'{name}': its amounts are all 0")));
        }
    }
    for terrain in Terrain::ALL {
        if !file
            .card
            .iter()
            .any(|c| c.kind == ChanceKind::Terrain(terrain))
        {
            return Err(error(format!(
                "no card brings Adventures to {}",
                KindName::from(SpaceKind::Terrain(terrain)).file_name()
            )));
        }
    }
    Ok(file.card)
}

/// Parses and checks an Items file.
pub fn items_from_toml(text: &str) -> Result<Vec<Item>, ContentError> {
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct File {
        item: Vec<Item>,
    }
    let error = error_in("items.toml");
    let file: File = parse(text, "items.toml")?;
    unique_names(file.item.iter().map(|i| &i.name)).map_err(&error)?;
    for item in &file.item {
        if item.cost == 0 {
            return Err(error(format!("'{}': cost must be at least 1", item.name)));
        }
        // Thrown, a weapon is lost to the battle after one roll and then damaged: a bonus no
        // bigger than its held one would never be worth throwing.
        if let Slot::Weapon {
            thrown: Some(thrown),
            ..
        } = item.slot
            && thrown <= item.strength_bonus
        {
            return Err(error(format!(
                "'{}': its thrown bonus ({thrown}) must be bigger than its strength_bonus ({})",
                item.name, item.strength_bonus
            )));
        }
    }
    for rarity in [Rarity::Common, Rarity::Rare] {
        if !file.item.iter().any(|i| i.rarity == rarity) {
            return Err(error(format!("no {rarity:?} Items")));
        }
    }
    Ok(file.item)
}

/// Everything a game of the basic version needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Content {
    /// The board.
    pub board: Board,
    /// The characters to deal.
    pub characters: Vec<Character>,
    /// The Adventure deck.
    pub adventures: Vec<AdventureCard>,
    /// The Chance deck, with copies.
    pub chance: Vec<ChanceCard>,
    /// The Items, both decks.
    pub items: Vec<Item>,
}

/// The texts of the five content files.
#[derive(Debug, Clone, Copy)]
pub struct ContentFiles<'a> {
    /// `board.toml`.
    pub board: &'a str,
    /// `characters.toml`.
    pub characters: &'a str,
    /// `adventures.toml`.
    pub adventures: &'a str,
    /// `chance.toml`.
    pub chance: &'a str,
    /// `items.toml`.
    pub items: &'a str,
}

/// The original content shipped in the binary.
pub const BUILTIN: ContentFiles<'static> = ContentFiles {
    board: include_str!("../content/board.toml"),
    characters: include_str!("../content/characters.toml"),
    adventures: include_str!("../content/adventures.toml"),
    chance: include_str!("../content/chance.toml"),
    items: include_str!("../content/items.toml"),
};

impl Content {
    /// The content that ships with the program (checked by tests, so parsing cannot fail).
    pub fn builtin() -> Content {
        Content::from_files(BUILTIN).expect("the embedded content is valid")
    }

    /// Parses and checks the five files.
    pub fn from_files(files: ContentFiles<'_>) -> Result<Content, ContentError> {
        Ok(Content {
            board: Board::from_toml(files.board)?,
            characters: characters_from_toml(files.characters)?,
            adventures: adventures_from_toml(files.adventures)?,
            chance: chance_from_toml(files.chance)?,
            items: items_from_toml(files.items)?,
        })
    }

    /// The Items of one deck.
    pub fn items_of(&self, rarity: Rarity) -> impl Iterator<Item = &Item> {
        self.items.iter().filter(move |i| i.rarity == rarity)
    }

    /// The Creatures of the Adventure deck.
    pub fn creatures(&self) -> impl Iterator<Item = &Creature> {
        self.adventures.iter().filter_map(|card| match card {
            AdventureCard::Creature(c) => Some(c),
            AdventureCard::Opportunity(_) => None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_content_loads_with_every_count() {
        let content = Content::builtin();
        let board = &content.board;
        assert!((24..=30).contains(&board.spaces.len()));
        let count = |kind: SpaceKind| board.spaces.iter().filter(|s| s.kind == kind).count();
        for guild in Guild::ALL {
            assert_eq!(count(SpaceKind::Guild(guild)), 1);
        }
        assert_eq!(count(SpaceKind::City), 1);
        assert_eq!(count(SpaceKind::Village), 1);
        assert_eq!(count(SpaceKind::EnchantedWilderness), 1);
        for terrain in Terrain::ALL {
            assert!(count(SpaceKind::Terrain(terrain)) >= 4, "{terrain:?}");
        }
        assert!(board.ports().len() >= 4);
        assert!(board.magic_gates().len() >= 3);
        assert_eq!(board.neighbours(0), (board.spaces.len() - 1, 1));

        assert!(content.characters.len() >= 8);
        assert!(content.adventures.len() >= 40);
        let creatures: Vec<_> = content.creatures().collect();
        let has = |f: &dyn Fn(&Creature) -> bool| creatures.iter().any(|c| f(c));
        assert!(has(&|c| matches!(c.stats, CreatureStats::Strength(_))));
        assert!(has(&|c| matches!(c.stats, CreatureStats::Willpower(_))));
        assert!(has(&|c| matches!(
            c.stats,
            CreatureStats::StrengthThenWillpower { .. }
        )));
        assert!(has(&|c| matches!(
            c.stats,
            CreatureStats::WillpowerThenStrength { .. }
        )));
        assert!(has(&|c| c.three_lives));
        assert!(has(&|c| c
            .special
            .as_ref()
            .is_some_and(SpecialRule::mandatory)));
        assert!(has(&|c| c.special.as_ref().is_some_and(|r| !r.mandatory())));
        assert!(creatures.len() < content.adventures.len(), "opportunities");

        let copies = |f: &dyn Fn(ChanceKind) -> bool| -> u32 {
            content
                .chance
                .iter()
                .filter(|c| f(c.kind))
                .map(|c| c.copies)
                .sum()
        };
        let terrain = copies(&|k| matches!(k, ChanceKind::Terrain(_)));
        let total = copies(&|_| true);
        assert!(terrain * 2 > total, "terrain cards are most of the deck");
        for kind in [
            |k| matches!(k, ChanceKind::Restock { .. }),
            |k| matches!(k, ChanceKind::Wind { .. }),
            |k| matches!(k, ChanceKind::GoodTimes { .. }),
            |k| matches!(k, ChanceKind::Charity { .. }),
            |k| matches!(k, ChanceKind::PeacefulTimes),
        ] as [fn(ChanceKind) -> bool; 5]
        {
            assert!(copies(&kind) >= 1);
        }
        assert!(content.items_of(Rarity::Common).count() >= 20);
        assert!(content.items_of(Rarity::Rare).count() >= 12);
    }

    #[test]
    fn accessors() {
        let content = Content::builtin();
        let first = &content.characters[0];
        assert_eq!(first.starting_guild(), first.guilds[0]);
        let keep = content.board.guild(Guild::Fortress);
        assert!(content.board.spaces[keep].kind.is_civilization());
        let default_loss = content.creatures().find(|c| c.on_loss.is_none()).unwrap();
        assert_eq!(default_loss.loss_effects(), [Effect::LoseHealth(1)]);
    }

    /// A board of `spaces` lines `kind[,port][,gate]`, named by position.
    fn board(spaces: &[&str]) -> String {
        let mut text = String::new();
        for (i, space) in spaces.iter().enumerate() {
            let mut parts = space.split(',');
            text.push_str(&format!(
                "[[space]]\nname = \"S{i}\"\nkind = \"{}\"\n",
                parts.next().unwrap()
            ));
            for flag in parts {
                text.push_str(if flag == "port" {
                    "port = true\n"
                } else {
                    "magic_gate = true\n"
                });
            }
        }
        text
    }

    const GOOD: [&str; 12] = [
        "fortress,port",
        "thieves-guild,gate",
        "magic-tower",
        "forest-camp",
        "monastery,port",
        "city,gate",
        "village",
        "mountains",
        "forest",
        "plains",
        "enchanted-wilderness",
        "plains",
    ];

    fn board_error(spaces: &[&str]) -> String {
        Board::from_toml(&board(spaces)).unwrap_err().to_string()
    }

    #[test]
    fn board_errors_are_one_line() {
        assert!(Board::from_toml(&board(&GOOD)).is_ok());
        let mut twice = GOOD;
        twice[11] = "fortress";
        twice[9] = "plains";
        let cases: &[(&[&str], &str)] = &[
            (
                &GOOD[..11],
                "board.toml: the ring has 11 spaces, fewer than 12",
            ),
            (
                &twice,
                "board.toml: fortress must be on the board exactly once, not 2 times",
            ),
        ];
        for (spaces, expected) in cases {
            assert_eq!(board_error(spaces), *expected);
        }
        let mut no_gates = GOOD;
        no_gates[5] = "city";
        assert_eq!(
            board_error(&no_gates),
            "board.toml: 1 magic gates, fewer than 2"
        );
        let mut no_ports = GOOD;
        no_ports[0] = "fortress";
        assert_eq!(board_error(&no_ports), "board.toml: 1 ports, fewer than 2");
        let mut no_forest = GOOD;
        no_forest[8] = "plains";
        assert_eq!(board_error(&no_forest), "board.toml: no forest space");
        let large: Vec<&str> = GOOD.iter().copied().chain(["plains"; 53]).collect();
        assert_eq!(
            board_error(&large),
            "board.toml: the ring has 65 spaces, more than 64"
        );
        assert!(Board::from_toml(&board(&large[..64])).is_ok());
        let mut two_villages = GOOD;
        two_villages[11] = "village";
        assert_eq!(
            board_error(&two_villages),
            "board.toml: village must be on the board exactly once, not 2 times"
        );
        let err = board_error(&["swamp"]);
        assert!(
            err.starts_with("board.toml: line 3: unknown variant `swamp`"),
            "{err}"
        );
        assert!(!err.contains('\n'), "{err}");
        let same = board(&GOOD).replace("S1\"", "S0\"");
        assert_eq!(
            Board::from_toml(&same).unwrap_err().to_string(),
            "board.toml: 'S0' appears twice"
        );
    }

    fn check(result: Result<impl fmt::Debug, ContentError>, expected: &str) {
        let err = result.unwrap_err().to_string();
        assert_eq!(err, expected);
    }

    #[test]
    fn card_and_character_errors_are_one_line() {
        check(
            characters_from_toml(
                "[[character]]\nname='A'\nstrength=3\nwillpower=2\nguilds=['monastery','monastery']",
            ),
            "characters.toml: 'A': its two guilds are the same",
        );
        check(
            characters_from_toml(
                "[[character]]\nname='A'\nstrength=0\nwillpower=2\nguilds=['monastery','fortress']",
            ),
            "characters.toml: 'A': Strength must be at least 1",
        );
        check(
            items_from_toml("[[item]]\nname='K'\ncost=0\nrarity='common'\nslot='shield'"),
            "items.toml: 'K': cost must be at least 1",
        );
        check(
            items_from_toml("[[item]]\nname='K'\ncost=2\nrarity='common'\nslot='shield'"),
            "items.toml: no Rare Items",
        );
        let weapon = |slot: &str| {
            items_from_toml(&format!(
                "[[item]]\nname='K'\ncost=2\nrarity='common'\nslot={slot}\nstrength_bonus=1"
            ))
        };
        check(
            weapon("{ weapon = { hands = 'one', thrown = 1 } }"),
            "items.toml: 'K': its thrown bonus (1) must be bigger than its strength_bonus (1)",
        );
        // Strict: the old `thrown = true` says nothing of the bonus.
        check(
            weapon("{ weapon = { hands = 'one', thrown = true } }"),
            "items.toml: line 5: invalid type: boolean `true`, expected i32",
        );
        let creature =
            |body: &str| adventures_from_toml(&format!("[[creature]]\nname='C'\n{body}"));
        check(
            creature("experience=1"),
            "adventures.toml: 'C': a Creature needs Strength or Willpower",
        );
        check(
            creature("strength=2\nwillpower=2\nexperience=1"),
            "adventures.toml: 'C': with both Strength and Willpower, `first` must say which is printed first",
        );
        check(
            creature("strength=2\nfirst='strength'\nexperience=1"),
            "adventures.toml: 'C': `first` is only for a Creature with both Strength and Willpower",
        );
        check(
            creature("willpower=2\nstrength=1\nfirst='willpower'\nexperience=1"),
            "adventures.toml: 'C': Willpower first means a special battle, so it needs a special rule",
        );
        check(
            creature("strength=2\nexperience=0"),
            "adventures.toml: 'C': experience must be at least 1",
        );
        check(
            creature("strength=2\nexperience=1\ntreasure=[{gain_gold=0}]"),
            "adventures.toml: 'C': the effect GainGold(0) has amount 0",
        );
        check(
            creature("strength=2\nexperience=1\non_loss=[]"),
            "adventures.toml: 'C': `on_loss` is empty (leave it out for the default one Health)",
        );
        check(
            creature("strength=2\nexperience=1\nspecial={rule='only_wills',text='Wills.'}"),
            "adventures.toml: 'C': the special rule only_wills needs the Creature's Willpower",
        );
        check(
            creature("willpower=2\nexperience=1\nspecial={rule='only_strength',text='S.'}"),
            "adventures.toml: 'C': the special rule only_strength needs the Creature's Strength",
        );
        check(
            creature("willpower=2\nexperience=1\nspecial={rule='wills_then_strength',text='W.'}"),
            "adventures.toml: 'C': the special rule wills_then_strength needs the Creature's Strength and Willpower",
        );
        check(
            creature("strength=2\nexperience=1\nspecial={rule={pay_to_pass={gold=0}},text='P.'}"),
            "adventures.toml: 'C': the special rule pay_to_pass has amount 0",
        );
        check(
            creature("strength=2\nexperience=1\nspecial={rule='let_go',text=' '}"),
            "adventures.toml: 'C': its special rule's text is empty",
        );
        check(
            creature("strength=2\nexperience=1\non_loss=['lose_item','lose_item']"),
            "adventures.toml: 'C': the effect LoseItem appears twice",
        );
        // The old free-text form is refused.
        check(
            creature("strength=2\nexperience=1\nspecial={mandatory=true,text='Old.'}"),
            "adventures.toml: line 5: unknown field `mandatory`, expected `rule` or `text`",
        );
        check(
            adventures_from_toml("[[opportunity]]\nname='O'\ntext='t'\neffects=[]"),
            "adventures.toml: 'O': an Opportunity needs effects",
        );
        let terrains = "[[card]]\nname='M'\nkind={terrain='mountains'}\ncopies=1\n\
                        [[card]]\nname='F'\nkind={terrain='forest'}\ncopies=1\n";
        check(
            chance_from_toml(terrains),
            "chance.toml: no card brings Adventures to plains",
        );
        check(
            chance_from_toml(&format!(
                "{terrains}[[card]]\nname='P'\nkind={{terrain='plains'}}\ncopies=0\n"
            )),
            "chance.toml: 'P': copies must be at least 1",
        );
        check(
            chance_from_toml(&format!(
                "{terrains}[[card]]\nname='W'\nkind={{wind={{heal=0,recharge=0}}}}\ncopies=1\n"
            )),
            "chance.toml: 'W': its amounts are all 0",
        );
    }

    #[test]
    fn creature_order_is_kept() {
        let cards = adventures_from_toml(
            "[[creature]]\nname='V'\nstrength=3\nwillpower=5\nfirst='willpower'\nexperience=2\n\
             special={rule='only_wills',text='Battle of Wills only.'}",
        )
        .unwrap();
        let AdventureCard::Creature(c) = &cards[0] else {
            panic!("a creature")
        };
        assert_eq!(
            c.stats,
            CreatureStats::WillpowerThenStrength {
                willpower: 5,
                strength: 3
            }
        );
        assert_eq!(
            (c.stats.strength(), c.stats.willpower()),
            (Some(3), Some(5))
        );
        assert_eq!(cards[0].name(), "V");
        assert!(c.special.as_ref().is_some_and(SpecialRule::mandatory));
        let cards = adventures_from_toml(
            "[[creature]]\nname='R'\nwillpower=3\nexperience=2\n\
             special={rule={rises_again={terrain='forest'}},text='It rises.'}\n\
             [[creature]]\nname='O'\nstrength=5\nexperience=3\n\
             special={rule={pay_to_pass={gold=2}},text='Pay 2.'}",
        )
        .unwrap();
        let rules: Vec<SpecialKind> = cards
            .iter()
            .filter_map(|c| match c {
                AdventureCard::Creature(c) => c.special.as_ref().map(|r| r.rule),
                AdventureCard::Opportunity(_) => None,
            })
            .collect();
        assert_eq!(
            rules,
            vec![
                SpecialKind::RisesAgain {
                    terrain: Terrain::Forest
                },
                SpecialKind::PayToPass { gold: 2 }
            ]
        );
        assert!(rules[0].mandatory() && !rules[1].mandatory());
    }
}
