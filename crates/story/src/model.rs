//! The things a game is made of, in the rules' own words.

use crate::ids::{AspectId, ObjectId, PairId, PlayerId, SceneId, Timestamp};
use dice::Seed;
use dice::check::{CheckRoll, Outcome};
use dice::d66::D66;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The phases of a game, in order. Temporal Mechanics groups them into three acts (see
/// [`Phase::act`]).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Receive the Prophecy.
    #[default]
    Prophecy,
    /// Create the Characters.
    Characters,
    /// Write the Outline (Temporal Mechanics: the flashback, then the story tree).
    Outline,
    /// Tell the Story (Temporal Mechanics: the confrontation, then the flashforward).
    Story,
    /// The story is told.
    Ended,
}

impl Phase {
    /// The phase after this one.
    pub fn next(self) -> Option<Phase> {
        match self {
            Phase::Prophecy => Some(Phase::Characters),
            Phase::Characters => Some(Phase::Outline),
            Phase::Outline => Some(Phase::Story),
            Phase::Story => Some(Phase::Ended),
            Phase::Ended => None,
        }
    }

    /// Temporal Mechanics' act: setup (in the future), confrontation (the present), resolution.
    pub fn act(self) -> &'static str {
        match self {
            Phase::Prophecy | Phase::Characters | Phase::Outline => "Setup",
            Phase::Story => "Confrontation",
            Phase::Ended => "Resolution",
        }
    }
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Phase::Prophecy => "Receive the Prophecy",
            Phase::Characters => "Create the Characters",
            Phase::Outline => "Write the Outline",
            Phase::Story => "Tell the Story",
            Phase::Ended => "The End",
        })
    }
}

/// A player at the table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    /// The name they joined with.
    pub name: String,
    /// Removed from the table; their character stays in the story.
    pub removed: bool,
}

/// What kind of object something is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ObjectKind {
    /// A character, controlled by one player (a PC in Temporal Mechanics); `None` once that
    /// player has left the table.
    Character {
        /// Its player.
        player: Option<PlayerId>,
    },
    /// A non-player character of Temporal Mechanics: anyone may voice them. Their aspects are
    /// environment aspects.
    Npc,
    /// A person of the environment.
    Person,
    /// A place.
    Place,
    /// A thing.
    Thing,
}

impl ObjectKind {
    /// Characters' aspects are character aspects; every other object's are environment aspects.
    pub fn is_character(self) -> bool {
        matches!(self, ObjectKind::Character { .. })
    }

    /// The word for it.
    pub fn label(self) -> &'static str {
        match self {
            ObjectKind::Character { .. } => "character",
            ObjectKind::Npc => "NPC",
            ObjectKind::Person => "person",
            ObjectKind::Place => "place",
            ObjectKind::Thing => "thing",
        }
    }
}

/// A person, place or thing in the story (characters included).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Object {
    /// Its name.
    pub name: String,
    /// What it is.
    pub kind: ObjectKind,
}

/// The five categories of a character's first aspects.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AspectCategory {
    /// The character's profession, hobbies or other interests.
    Occupation,
    /// The character's body or mind.
    PhysicalOrMental,
    /// The character's personality.
    Psychological,
    /// A connection with another character.
    Relationship {
        /// The other character.
        with: ObjectId,
    },
    /// A connection with an organisation.
    Affiliation,
}

impl AspectCategory {
    /// The five categories, with a placeholder for the relationship's other character.
    pub fn name(self) -> &'static str {
        match self {
            AspectCategory::Occupation => "Occupation",
            AspectCategory::PhysicalOrMental => "Physical or Mental Characteristic",
            AspectCategory::Psychological => "Psychological Characteristic",
            AspectCategory::Relationship { .. } => "Relationship",
            AspectCategory::Affiliation => "Affiliation",
        }
    }

    /// Position among the five, for ordering and completeness.
    pub fn index(self) -> usize {
        match self {
            AspectCategory::Occupation => 0,
            AspectCategory::PhysicalOrMental => 1,
            AspectCategory::Psychological => 2,
            AspectCategory::Relationship { .. } => 3,
            AspectCategory::Affiliation => 4,
        }
    }
}

/// Names of the five categories in order.
pub const CATEGORY_NAMES: [&str; 5] = [
    "Occupation",
    "Physical or Mental Characteristic",
    "Psychological Characteristic",
    "Relationship",
    "Affiliation",
];

/// A word or short phrase attached to one object.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Aspect {
    /// The object it describes.
    pub object: ObjectId,
    /// The text.
    pub text: String,
    /// For a character's aspects: which of the five categories, if any (later aspects need none).
    pub category: Option<AspectCategory>,
}

/// Where the prophecy came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum ProphecySource {
    /// Rolled on a world's catastrophe table.
    Catastrophe {
        /// The world's name.
        world: String,
        /// The d66 rolled.
        roll: D66,
        /// Its seed.
        seed: Seed,
    },
    /// A pre-written module.
    Module {
        /// The module's title.
        title: String,
    },
    /// Written by the players.
    Written,
}

/// The prophecy: the catastrophe the characters will try to prevent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Prophecy {
    /// How it was received.
    pub source: ProphecySource,
    /// The text (edited texts keep their source).
    pub text: String,
}

/// The time and place of a scene and the objects present.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setting {
    /// When the scene happens.
    pub time: String,
    /// Where.
    pub place: String,
    /// The objects present, in the order they were placed.
    pub objects: Vec<ObjectId>,
}

/// The check that decided a scene.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckRecord {
    /// The scene's difficulty rating.
    pub difficulty: u32,
    /// Every die with its cause.
    pub roll: CheckRoll,
    /// Success or failure.
    pub outcome: Outcome,
}

/// A scene of the outline.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Scene {
    /// The scene it is a precursor of; `None` for the Finale.
    pub parent: Option<SceneId>,
    /// What the characters try to accomplish.
    pub objective: String,
    /// One less than its parent's; the Finale's comes from the ruleset.
    pub difficulty: u32,
    /// Time, place and objects present.
    pub setting: Setting,
    /// Its precursors, in the order they were sketched.
    pub precursors: Vec<SceneId>,
    /// When its timer started (the scene began).
    pub started_at: Option<Timestamp>,
    /// The pairs proposed for its check (withdrawn ones are gone).
    pub pairs: Vec<PairId>,
    /// The check, once made.
    pub check: Option<CheckRecord>,
    /// What the players told of it.
    pub narration: Option<String>,
    /// Performed: checked, narrated and closed.
    pub performed: bool,
}

impl Scene {
    /// Success or failure, once checked.
    pub fn outcome(&self) -> Option<Outcome> {
        self.check.as_ref().map(|c| c.outcome)
    }
}

/// A proposed pair of matching aspects: one character aspect and one environment aspect.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchingPair {
    /// The scene whose check it is for.
    pub scene: SceneId,
    /// The character aspect.
    pub character_aspect: AspectId,
    /// The environment aspect.
    pub environment_aspect: AspectId,
    /// Who proposed it.
    pub proposed_by: PlayerId,
    /// Why it lets the characters work the scene to their advantage (may be empty).
    pub justification: String,
}

/// A text any player may flag (the X-card): flagged text is hidden until it is replaced.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "text", content = "id")]
pub enum TextRef {
    /// The prophecy.
    Prophecy,
    /// An object's (or character's) name.
    ObjectName(ObjectId),
    /// An aspect.
    Aspect(AspectId),
    /// A scene's objective.
    Objective(SceneId),
    /// A scene's time and place.
    Setting(SceneId),
    /// A scene's narration.
    Narration(SceneId),
    /// A pair's justification.
    Justification(PairId),
    /// Temporal Mechanics' flashback.
    Flashback,
    /// The Finale's long-term effects (Temporal Mechanics' flashforward).
    LongTermEffects,
}

/// Something the players should know but that the rules do not forbid.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "warning")]
pub enum Warning {
    /// The game is for three to six players.
    PlayerCount {
        /// Players at the table (not counting a moderator).
        players: usize,
    },
    /// The story should have at most eight scenes.
    LongOutline {
        /// Scenes in the outline.
        scenes: usize,
    },
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Warning::PlayerCount { players } => write!(
                f,
                "Prophecy is for three to six players; this table has {players}."
            ),
            Warning::LongOutline { scenes } => write!(
                f,
                "The story should have at most eight scenes; this outline has {scenes}."
            ),
        }
    }
}
