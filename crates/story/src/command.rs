//! Commands: what a player asks for. Each names the acting player; anything from outside (dice
//! seeds, times, a world's table) comes inside the command.

use crate::content::{Module, World};
use crate::ids::{AspectId, LineId, ObjectId, PairId, PlayerId, ProposalId, SceneId, Timestamp};
use crate::model::{AspectCategory, Motion, ObjectKind, TextRef};
use crate::ruleset::Ruleset;
use dice::Seed;
use serde::{Deserialize, Serialize};

/// A request by one player.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Command {
    /// Who acts. For [`Action::Join`], the id the table layer gives the newcomer.
    pub by: PlayerId,
    /// When, by the issuer's clock: it starts, stops and resets the scene timer.
    #[serde(default = "epoch")]
    pub at: Timestamp,
    /// What they ask for.
    pub action: Action,
}

fn epoch() -> Timestamp {
    Timestamp(0)
}

impl Command {
    /// A command at the start of the epoch, for callers without a clock (tests, scripts).
    pub fn new(by: PlayerId, action: Action) -> Command {
        Command {
            by,
            at: epoch(),
            action,
        }
    }
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
    /// Agree on content to exclude.
    AddLine {
        /// The excluded content.
        text: String,
    },
    /// Lift an exclusion (only whoever drew it can).
    RemoveLine {
        /// Which.
        line: LineId,
    },
    /// Flag a text, anonymously: it is hidden and play pauses until someone replaces it.
    Flag {
        /// Which text.
        target: TextRef,
    },
    /// The X-card for anything, spoken or typed: play pauses, anonymously, until whoever
    /// paused resumes or the table agrees to ([`Motion::Resume`]).
    Pause,
    /// Lift one's own pause.
    Resume,

    // Proposals: what cannot be undone is agreed by the table.
    /// Put a motion to the table; it carries when every player who plays has agreed.
    Propose {
        /// What.
        motion: Motion,
        /// Dice for a check, if the motion carries at once (a table of one).
        seed: Seed,
    },
    /// Agree to the open proposal (again, to carry it once everyone has).
    Agree {
        /// Which (a stale page cannot agree to a later one).
        proposal: ProposalId,
        /// Dice for a check, if this agreement carries it.
        seed: Seed,
    },
    /// Say "not yet": the proposal is stopped.
    Stop {
        /// Which.
        proposal: ProposalId,
    },

    /// Withdraw the published story's page, at once and anonymously: anyone may want their
    /// words taken down, and nobody explains why (publishing is [`Motion::Publish`]). Nothing
    /// happens when it is not published.
    WithdrawStory,
    /// Close the watch link, at once and anonymously: anyone may want the watchers gone, and
    /// nobody explains why (opening it is [`Motion::Watch`]). Nothing happens when none is
    /// open.
    CloseWatch,
    /// Hold the scene timer (the moderator's, or without one anyone's).
    HoldTimer,
    /// Let the held timer count again.
    ReleaseTimer,
    /// Give the scene more time.
    ExtendTimer {
        /// Minutes added (1 to 30).
        minutes: u32,
    },
    /// Start the scene's time again from now.
    ResetTimer,
    /// The moderator puts a question to the players.
    AskQuestion {
        /// The question (one of the page's, or the moderator's own).
        text: String,
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
    /// Write the prophecy, or change it (until the outline is started; Temporal Mechanics'
    /// warning in the Setup, once the flashback is told).
    WriteProphecy {
        /// The text.
        text: String,
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
    /// Begin performing an available scene; its timer starts at the command's time.
    StartScene {
        /// Which.
        scene: SceneId,
    },
    /// Stop performing a started scene before its check: it can be started again, its pairs
    /// stay with it.
    CancelScene {
        /// Which.
        scene: SceneId,
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
    /// Withdraw one's own proposed pair before the check.
    WithdrawPair {
        /// Which.
        pair: PairId,
    },
    /// Say a pair matches (or lift one's objection).
    AcceptPair {
        /// Which.
        pair: PairId,
    },
    /// Object to a pair: it does not count, and the check waits, until settled.
    ObjectToPair {
        /// Which.
        pair: PairId,
    },
    /// Type in the faces of real dice after the table agreed to the check: the pool in order,
    /// then one die for each six, wave by wave.
    EnterFaces {
        /// The scene.
        scene: SceneId,
        /// The faces, 1 to 6.
        faces: Vec<u8>,
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
    /// After the Finale: its long-term effects, optional (Temporal Mechanics: the
    /// flashforward, which the Resolution needs).
    NarrateLongTermEffects {
        /// The narration.
        text: String,
    },
}
