//! Commands: what a player asks for. Each names the acting player; anything from outside (dice
//! seeds, times, a world's table) comes inside the command.

use crate::content::{Module, World};
use crate::ids::{AspectId, LineId, ObjectId, PairId, PlayerId, SceneId, Timestamp};
use crate::model::{AspectCategory, ObjectKind, Phase, TextRef};
use crate::ruleset::Ruleset;
use dice::Seed;
use serde::{Deserialize, Serialize};

/// A request by one player.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Command {
    /// Who acts. For [`Action::Join`], the id the table layer gives the newcomer.
    pub by: PlayerId,
    /// What they ask for.
    pub action: Action,
}

/// Everything a player can ask of the game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "action")]
pub enum Action {
    // The table.
    /// Open the game under a ruleset (the first command of every game).
    Open {
        /// The rules.
        ruleset: Ruleset,
    },
    /// Join the table (any time before the end).
    Join {
        /// The player's name.
        name: String,
    },
    /// Remove a player from the table; their character stays in the story.
    RemovePlayer {
        /// Who.
        player: PlayerId,
    },
    /// Choose (or with `None`, dismiss) the moderator (edition 1.1).
    ChooseModerator {
        /// Who, or nobody.
        player: Option<PlayerId>,
    },
    /// Agree on content to exclude.
    AddLine {
        /// The excluded content.
        text: String,
    },
    /// Lift an exclusion.
    RemoveLine {
        /// Which.
        line: LineId,
    },
    /// Flag a text, anonymously: it is hidden and play pauses until someone replaces it.
    Flag {
        /// Which text.
        target: TextRef,
    },

    // Receive the Prophecy.
    /// Roll d66 on a world's catastrophe table.
    RollCatastrophe {
        /// The world and its table.
        world: World,
        /// The seed of the roll.
        seed: Seed,
    },
    /// Take a pre-written prophecy.
    PickModule {
        /// The module.
        module: Module,
    },
    /// Write the prophecy, or change it (until the outline is started).
    WriteProphecy {
        /// The text.
        text: String,
    },

    /// Move on to the next phase, once its preconditions hold.
    Advance {
        /// The phase to begin; naming it keeps two players who click at once from skipping one.
        to: Phase,
    },

    // Characters and objects.
    /// Create the acting player's character (a PC in Temporal Mechanics).
    CreateCharacter {
        /// Its name.
        name: String,
    },
    /// Create an object: a person, place or thing, or an NPC (Temporal Mechanics).
    CreateObject {
        /// Its name.
        name: String,
        /// What it is (not a character).
        kind: ObjectKind,
    },
    /// Rename a character or object.
    Rename {
        /// Which.
        object: ObjectId,
        /// The new name.
        name: String,
    },
    /// Remove an object (or a character before the outline starts) and its aspects.
    RemoveObject {
        /// Which.
        object: ObjectId,
    },
    /// Attach an aspect to an object.
    AttachAspect {
        /// The object.
        object: ObjectId,
        /// The word or short phrase.
        text: String,
        /// For a character: which of the five categories, if any.
        category: Option<AspectCategory>,
    },
    /// Change an aspect's text.
    EditAspect {
        /// Which.
        aspect: AspectId,
        /// The new text.
        text: String,
    },
    /// Remove an aspect.
    RemoveAspect {
        /// Which.
        aspect: AspectId,
    },

    // Write the Outline.
    /// Temporal Mechanics: narrate the flashback (the catastrophe as it happened).
    NarrateFlashback {
        /// The narration.
        text: String,
    },
    /// Sketch the Finale (the climactic scene).
    SketchFinale {
        /// How the characters intend to prevent the catastrophe.
        objective: String,
    },
    /// Sketch a scene as a precursor of an existing one.
    SketchScene {
        /// The existing scene it makes easier.
        parent: SceneId,
        /// What the characters try to accomplish.
        objective: String,
    },
    /// Change a scene's objective (until it is performed).
    EditObjective {
        /// Which.
        scene: SceneId,
        /// The new objective.
        objective: String,
    },
    /// Remove a scene that has no precursors, while the outline is being written.
    RemoveScene {
        /// Which.
        scene: SceneId,
    },
    /// Set a scene's time and place.
    SetSetting {
        /// Which.
        scene: SceneId,
        /// When.
        time: String,
        /// Where.
        place: String,
    },
    /// Put an object in a scene's setting.
    PlaceObject {
        /// The scene.
        scene: SceneId,
        /// The object.
        object: ObjectId,
    },
    /// Take an object out of a scene's setting.
    WithdrawObject {
        /// The scene.
        scene: SceneId,
        /// The object.
        object: ObjectId,
    },

    // Tell the Story.
    /// Begin performing an available scene; its timer starts at `at`.
    StartScene {
        /// Which.
        scene: SceneId,
        /// When, by the issuer's clock.
        at: Timestamp,
    },
    /// Propose a pair of matching aspects for the scene's check.
    ProposePair {
        /// The scene being performed.
        scene: SceneId,
        /// A character aspect.
        character_aspect: AspectId,
        /// An environment aspect of an object in the scene.
        environment_aspect: AspectId,
        /// Why they match (may be empty).
        justification: String,
    },
    /// Change a pair's justification (before the check, or to replace a flagged one).
    EditJustification {
        /// Which.
        pair: PairId,
        /// The new justification (may be empty).
        justification: String,
    },
    /// Withdraw a proposed pair before the check.
    WithdrawPair {
        /// Which.
        pair: PairId,
    },
    /// Make the check: one die per pair, one reward die per successful precursor.
    MakeCheck {
        /// The scene being performed.
        scene: SceneId,
        /// The dice's seed.
        seed: Seed,
        /// The players accept that an empty pool is a failure.
        accept_empty_pool: bool,
    },
    /// Tell what happened (replaces an earlier narration of the scene).
    Narrate {
        /// The scene.
        scene: SceneId,
        /// The narration.
        text: String,
    },
    /// Close the scene: it is performed.
    FinishScene {
        /// Which.
        scene: SceneId,
    },
    /// After the Finale: its long-term effects (Temporal Mechanics: the flashforward).
    NarrateLongTermEffects {
        /// The narration.
        text: String,
    },
    /// End the game.
    EndGame,
}
