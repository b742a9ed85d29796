//! The things a game is made of, in the rules' own words.

use crate::ids::{AspectId, ObjectId, PairId, PlayerId, ProposalId, SceneId, Timestamp};
use dice::Seed;
use dice::check::{CheckRoll, Outcome};
use dice::d66::D66;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
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

    /// Temporal Mechanics' act in this phase: none before the story (gathering the players,
    /// creating the PCs), Setup while the flashback and the story tree are made, Confrontation
    /// while the story scenes are played. The Resolution (the flashforward) begins once the
    /// climactic scene is performed, which the phase alone does not say: see [`State::act`].
    ///
    /// [`State::act`]: crate::State::act
    pub fn act(self) -> Option<&'static str> {
        match self {
            Phase::Prophecy | Phase::Characters => None,
            Phase::Outline => Some("Setup"),
            Phase::Story => Some("Confrontation"),
            Phase::Ended => Some("Resolution"),
        }
    }
}

impl Phase {
    /// The phase's name in a ruleset's own words (Temporal Mechanics names its acts).
    pub fn name_in(self, ruleset: crate::Ruleset) -> &'static str {
        if !ruleset.is_temporal() {
            return match self {
                Phase::Prophecy => "Receive the Prophecy",
                Phase::Characters => "Create the Characters",
                Phase::Outline => "Write the Outline",
                Phase::Story => "Tell the Story",
                Phase::Ended => "The End",
            };
        }
        match self {
            Phase::Prophecy => "Gather the Players",
            Phase::Characters => "Create the PCs",
            Phase::Outline => "Setup: the Flashback and the Story Tree",
            Phase::Story => "Confrontation: the Story Scenes",
            Phase::Ended => "The End",
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
    /// Rolled with real dice at the table and typed in, not by the server's dice.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub physical: bool,
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
    /// The table agreed to the check and rolls real dice: the pool is fixed until the faces
    /// are typed in.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rolling: bool,
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
    /// Players who said it matches (its proposer is not listed: proposing is agreeing).
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub accepted_by: BTreeSet<PlayerId>,
    /// Players who object: while anyone at the table does, the pair does not count and the
    /// check waits (see [`crate::State::counts`]).
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub objections: BTreeSet<PlayerId>,
}

/// What the table is asked to agree to: the steps that cannot be taken back, and the ones
/// that overrule a player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "motion")]
pub enum Motion {
    /// Move on to the next phase.
    Advance {
        /// The phase to begin (naming it keeps a stale page from skipping one).
        to: Phase,
    },
    /// From Tell the Story back to Write the Outline, while no check has been made.
    ReturnToOutline,
    /// Make the scene's check with the pool as it stands (agreeing accepts every pair in it).
    MakeCheck {
        /// The scene being performed.
        scene: SceneId,
        /// The players accept that an empty pool is a failure.
        accept_empty_pool: bool,
    },
    /// Withdraw a pair its proposer has not withdrawn.
    WithdrawPair {
        /// Which.
        pair: PairId,
    },
    /// Lift the table's pause (the X-card) when whoever paused has not.
    Resume,
    /// End the game.
    EndGame,
    /// Name the moderator (edition 1.1), or with `None` have none: who moderates is the
    /// table's choice. The player named votes on it like any player, so nobody becomes the
    /// moderator (and gives up their vote) without agreeing.
    ChooseModerator {
        /// Who, or nobody.
        player: Option<PlayerId>,
    },
    /// Roll real dice at the table (typed in), or go back to the server's dice.
    ChooseDice {
        /// Real dice.
        physical: bool,
    },
    /// Publish the story as a read-only page anyone with its link may read (the server gives
    /// the link when the motion carries); any player withdraws it at once
    /// ([`crate::command::Action::WithdrawStory`]).
    Publish,
    /// Let anyone with a link watch the table live, seeing what every player sees and nothing
    /// of the table's lines (the server gives the link when the motion carries); any player
    /// closes it at once ([`crate::command::Action::CloseWatch`]).
    Watch,
}

impl fmt::Display for Motion {
    /// The motion as a verb phrase: "move on to Tell the Story".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Motion::Advance { to: Phase::Ended } | Motion::EndGame => f.write_str("end the game"),
            Motion::Advance { to } => write!(f, "move on to {to}"),
            Motion::ReturnToOutline => f.write_str("go back to Write the Outline"),
            Motion::MakeCheck { .. } => f.write_str("make the check"),
            Motion::WithdrawPair { .. } => f.write_str("withdraw a pair"),
            Motion::Resume => f.write_str("resume play"),
            Motion::ChooseModerator { player: Some(_) } => f.write_str("choose the moderator"),
            Motion::ChooseModerator { player: None } => f.write_str("have no moderator"),
            Motion::ChooseDice { physical: true } => f.write_str("roll real dice at the table"),
            Motion::ChooseDice { physical: false } => f.write_str("let the server roll the dice"),
            Motion::Publish => f.write_str("publish the story as a read-only page"),
            Motion::Watch => f.write_str("open a link for people to watch the table"),
        }
    }
}

/// A motion put to the table: it carries when every player who plays has agreed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Proposal {
    /// Its id.
    pub id: ProposalId,
    /// What it asks.
    pub motion: Motion,
    /// Who proposed it.
    pub by: PlayerId,
    /// Who has agreed so far (the proposer included, unless they are the moderator).
    pub agreed: BTreeSet<PlayerId>,
}

/// The X-card: play is paused, anonymously, for anything said or written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct XCard {
    /// Who paused (they may resume at once); never shown to the others.
    pub by: Option<PlayerId>,
}

/// What a timer times: a story scene, or Temporal Mechanics' flashback or flashforward.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "timed", content = "scene")]
pub enum Timed {
    /// A scene being performed.
    Scene(SceneId),
    /// Temporal Mechanics' flashback scene.
    Flashback,
    /// Temporal Mechanics' flashforward scene.
    Flashforward,
}

/// The advisory timer of the scene being played. It never stops play; it stops counting while
/// play is paused (a flag, the X-card) or while the moderator holds it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Timer {
    /// What it times.
    pub timed: Timed,
    /// When it began counting (the scene's start, or the last reset).
    pub from: Timestamp,
    /// Milliseconds added: the moderator's extensions, and the time it spent stopped.
    pub added_ms: i64,
    /// Stopped since then; `None` while it counts.
    pub stopped_since: Option<Timestamp>,
    /// The moderator (or, without one, any player) holds it.
    pub held: bool,
}

impl Timer {
    /// A timer that starts counting at `at`.
    pub fn start(timed: Timed, at: Timestamp) -> Timer {
        Timer {
            timed,
            from: at,
            added_ms: 0,
            stopped_since: None,
            held: false,
        }
    }

    /// When the time is up if it counts on from now without stopping again.
    pub fn deadline(&self, minutes: u32) -> Timestamp {
        Timestamp(
            self.from
                .0
                .saturating_add(i64::from(minutes) * 60_000)
                .saturating_add(self.added_ms),
        )
    }

    /// Milliseconds left at `now` (negative once the time is up); frozen while stopped.
    pub fn remaining_ms(&self, minutes: u32, now: Timestamp) -> i64 {
        let at = self.stopped_since.unwrap_or(now);
        self.deadline(minutes).0.saturating_sub(at.0)
    }
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
    /// The moderator's question.
    Question,
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
