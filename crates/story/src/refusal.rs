//! Refusals: why the rules forbid a command, in words a player understands.

use crate::model::{Motion, Phase};
use crate::ruleset::Ruleset;

/// Temporal Mechanics' words for when something can be done.
fn temporal_when(when: &str) -> &str {
    match when {
        "before the characters are created" => "before the PCs are created",
        "once the prophecy is received" => "once the game has begun",
        "while writing the outline" => "while building the story tree, in the Setup",
        "while telling the story" => "while playing the story scenes, in the Confrontation",
        "while writing the outline or telling the story" => {
            "while building the story tree or playing the story scenes"
        }
        other => other,
    }
}
use std::fmt;

/// Why a command was refused. [`Refusal::rule`] names the rule; `Display` explains.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// Nothing can happen before the game is opened.
    NotOpened,
    /// A game is opened once.
    AlreadyOpened,
    /// The acting player has not joined (or was removed).
    NotAtTable,
    /// That player id has already joined.
    AlreadyJoined,
    /// No such player at the table.
    UnknownPlayer,
    /// A hard limit on the number of things.
    TooMany {
        /// What.
        what: &'static str,
        /// The limit.
        max: usize,
    },
    /// A text that must not be empty is.
    Empty {
        /// What.
        what: &'static str,
    },
    /// A text is longer than its limit.
    TooLong {
        /// What.
        what: &'static str,
        /// The limit, in characters.
        max: usize,
    },
    /// A thing named by id does not exist.
    Unknown {
        /// What kind of thing.
        what: &'static str,
    },
    /// The command belongs to another phase.
    NotNow {
        /// What was asked, as a phrase ("sketching scenes").
        what: &'static str,
        /// When it is possible.
        when: &'static str,
        /// The phase the game is in.
        phase: Phase,
    },
    /// The game has ended.
    GameOver,
    /// Phases go in order, one at a time.
    NotTheNextPhase {
        /// The current phase.
        from: Phase,
        /// The phase asked for.
        to: Phase,
    },
    /// Only edition 1.1 has a moderator.
    NoModerator {
        /// The game's rules.
        ruleset: Ruleset,
    },
    /// The moderator asks questions and keeps time, but never narrates or plays a character.
    ModeratorCannot {
        /// What was asked.
        what: &'static str,
    },
    /// Someone with a character cannot be the moderator.
    ModeratorHasCharacter,
    /// The player named is the moderator already.
    AlreadyTheModerator,
    /// There is no moderator to dismiss.
    NoModeratorToDismiss,
    /// The table rolls these dice already.
    SameDice {
        /// Real dice.
        physical: bool,
    },
    /// The story is published already (withdrawing it comes first).
    AlreadyPublished,
    /// A watch link is open already (closing it comes first).
    AlreadyWatched,
    /// The text is already flagged.
    AlreadyFlagged,
    /// A world's catastrophe table is not usable.
    InvalidWorld {
        /// What is wrong.
        problem: String,
    },
    /// The prophecy is fixed once the outline is started.
    ProphecyLocked,
    /// The characters need a prophecy first.
    NoProphecy,
    /// No one is playing yet.
    NoPlayers,
    /// Characters must be complete before moving on.
    CharactersIncomplete {
        /// One entry per problem, e.g. "Ada lacks Relationship".
        problems: Vec<String>,
    },
    /// The story needs a Finale.
    NoFinale,
    /// Temporal Mechanics: the flashback comes before the story.
    NoFlashback,
    /// Temporal Mechanics: the warning is prepared in the Setup, after the flashback.
    WarningAfterFlashback,
    /// One character per player.
    AlreadyHasCharacter,
    /// Only a character's player changes it.
    NotYourCharacter,
    /// Characters are created with `CreateCharacter`.
    UseCreateCharacter,
    /// NPCs belong to Temporal Mechanics.
    NpcsOnlyInTemporal,
    /// Categories are for character aspects.
    CategoryForCharactersOnly,
    /// A relationship names another character.
    RelationshipNeedsAnotherCharacter,
    /// Characters can be removed only before the outline.
    CharacterStays,
    /// Something used in a matching pair cannot be removed.
    UsedInPair,
    /// There is one Finale.
    FinaleExists,
    /// A precursor's difficulty is its parent's minus one, above zero.
    TooDeep {
        /// The parent's difficulty.
        parent_difficulty: u32,
    },
    /// Only a scene without precursors can be removed.
    HasPrecursors,
    /// A performed scene is fixed.
    AlreadyPerformed,
    /// Play is paused while a text is flagged.
    Paused,
    /// One scene at a time.
    AnotherSceneInProgress {
        /// Its objective.
        objective: String,
    },
    /// A scene is performed after all its precursors.
    PrecursorsNotPerformed {
        /// Their objectives.
        missing: Vec<String>,
    },
    /// The scene is not being performed.
    NotInProgress,
    /// A pair is one character aspect and one environment aspect.
    PairOfOneKind {
        /// True if both were character aspects.
        characters: bool,
    },
    /// The same pair twice in one check.
    DuplicatePair,
    /// The environment aspect's object is not in the scene.
    NotInScene {
        /// The object's name.
        object: String,
    },
    /// The object is already in the scene.
    AlreadyPlaced,
    /// The check is made once.
    AlreadyChecked,
    /// The check comes first.
    NotChecked,
    /// An empty pool is a failure; the players must accept it.
    EmptyPool,
    /// The scene needs its narration before it closes.
    NoNarration,
    /// The Finale must be performed first.
    FinaleNotPerformed,
    /// Temporal Mechanics: the flashforward (the Resolution) comes before the end.
    NoFlashforward,
    /// A line is lifted only by whoever drew it.
    NotYourLine,
    /// The X-card is already down.
    AlreadyPaused,
    /// Nothing to resume.
    NotPaused,
    /// Whoever paused resumes at once; anyone else asks the table.
    NotYourPause,
    /// The table is deciding another motion.
    ProposalOpen {
        /// What it asks.
        motion: Motion,
    },
    /// That proposal is not the open one (it carried, or was stopped).
    NoSuchProposal,
    /// The player has agreed already; the others have not all yet.
    AlreadyAgreed,
    /// The table agreed to the check and is rolling real dice.
    Rolling,
    /// Faces are typed in only after the table agreed to a check with real dice.
    NotRolling,
    /// No scene is being timed.
    NoTimer,
    /// The moderator keeps time.
    ModeratorKeepsTime,
    /// An extension is a few minutes.
    BadExtension {
        /// The most at once.
        max: u32,
    },
    /// Questions are the moderator's.
    OnlyTheModeratorAsks,
    /// A pair is withdrawn by its proposer, or by the table's agreement.
    NotYourPair,
    /// One's own pair is withdrawn, not judged.
    OwnPair,
    /// The check waits while a pair is under objection.
    PairUnderObjection,
    /// The typed faces are not a roll of this pool.
    FacesDoNotFit {
        /// What is wrong, from the dice.
        problem: String,
    },
    /// Back to the outline only until the first check.
    StoryBegun,
    /// Temporal Mechanics: a story tree is the climax and at least one other scene.
    StoryTreeTooSmall,
}

impl Refusal {
    /// A stable machine-readable name of the refusal (the variant, in snake case), for pages
    /// that react to one refusal in particular (e.g. `empty_pool`: offer to accept it).
    pub fn code(&self) -> &'static str {
        use Refusal::*;
        match self {
            NotOpened => "not_opened",
            AlreadyOpened => "already_opened",
            NotAtTable => "not_at_table",
            AlreadyJoined => "already_joined",
            UnknownPlayer => "unknown_player",
            TooMany { .. } => "too_many",
            Empty { .. } => "empty",
            TooLong { .. } => "too_long",
            Unknown { .. } => "unknown",
            NotNow { .. } => "not_now",
            GameOver => "game_over",
            NotTheNextPhase { .. } => "not_the_next_phase",
            NoModerator { .. } => "no_moderator",
            ModeratorCannot { .. } => "moderator_cannot",
            ModeratorHasCharacter => "moderator_has_character",
            AlreadyTheModerator => "already_the_moderator",
            NoModeratorToDismiss => "no_moderator_to_dismiss",
            SameDice { .. } => "same_dice",
            AlreadyPublished => "already_published",
            AlreadyWatched => "already_watched",
            AlreadyFlagged => "already_flagged",
            InvalidWorld { .. } => "invalid_world",
            ProphecyLocked => "prophecy_locked",
            NoProphecy => "no_prophecy",
            NoPlayers => "no_players",
            CharactersIncomplete { .. } => "characters_incomplete",
            NoFinale => "no_finale",
            NoFlashback => "no_flashback",
            WarningAfterFlashback => "warning_after_flashback",
            AlreadyHasCharacter => "already_has_character",
            NotYourCharacter => "not_your_character",
            UseCreateCharacter => "use_create_character",
            NpcsOnlyInTemporal => "npcs_only_in_temporal",
            CategoryForCharactersOnly => "category_for_characters_only",
            RelationshipNeedsAnotherCharacter => "relationship_needs_another_character",
            CharacterStays => "character_stays",
            UsedInPair => "used_in_pair",
            FinaleExists => "finale_exists",
            TooDeep { .. } => "too_deep",
            HasPrecursors => "has_precursors",
            AlreadyPerformed => "already_performed",
            Paused => "paused",
            AnotherSceneInProgress { .. } => "another_scene_in_progress",
            PrecursorsNotPerformed { .. } => "precursors_not_performed",
            NotInProgress => "not_in_progress",
            PairOfOneKind { .. } => "pair_of_one_kind",
            DuplicatePair => "duplicate_pair",
            NotInScene { .. } => "not_in_scene",
            AlreadyPlaced => "already_placed",
            AlreadyChecked => "already_checked",
            NotChecked => "not_checked",
            EmptyPool => "empty_pool",
            NoNarration => "no_narration",
            FinaleNotPerformed => "finale_not_performed",
            NoFlashforward => "no_flashforward",
            NotYourLine => "not_your_line",
            AlreadyPaused => "already_paused",
            NotPaused => "not_paused",
            NotYourPause => "not_your_pause",
            ProposalOpen { .. } => "proposal_open",
            NoSuchProposal => "no_such_proposal",
            AlreadyAgreed => "already_agreed",
            Rolling => "rolling",
            NotRolling => "not_rolling",
            NoTimer => "no_timer",
            ModeratorKeepsTime => "moderator_keeps_time",
            BadExtension { .. } => "bad_extension",
            OnlyTheModeratorAsks => "only_the_moderator_asks",
            NotYourPair => "not_your_pair",
            OwnPair => "own_pair",
            PairUnderObjection => "pair_under_objection",
            FacesDoNotFit { .. } => "faces_do_not_fit",
            StoryBegun => "story_begun",
            StoryTreeTooSmall => "story_tree_too_small",
        }
    }

    /// The rule that refused, by the name of its section in the rules.
    pub fn rule(&self) -> &'static str {
        use Refusal::*;
        match self {
            NotOpened | AlreadyOpened | NotAtTable | AlreadyJoined | UnknownPlayer
            | AlreadyPublished | AlreadyWatched => "The table",
            TooMany { .. } | Empty { .. } | TooLong { .. } | Unknown { .. } => "Limits",
            NotNow { .. } | GameOver | NotTheNextPhase { .. } => "The four phases",
            NoModerator { .. }
            | ModeratorCannot { .. }
            | ModeratorHasCharacter
            | AlreadyTheModerator
            | NoModeratorToDismiss
            | ModeratorKeepsTime
            | OnlyTheModeratorAsks => "The moderator",
            AlreadyFlagged | Paused | NotYourLine | AlreadyPaused | NotPaused | NotYourPause => {
                "Safety tools"
            }
            ProposalOpen { .. } | NoSuchProposal | AlreadyAgreed | StoryBegun => "Agreement",
            NoTimer | BadExtension { .. } => "Time limits",
            NotYourPair | OwnPair | PairUnderObjection => "Matching Aspects",
            Rolling | NotRolling | FacesDoNotFit { .. } | SameDice { .. } => "Checks",
            StoryTreeTooSmall | NoFlashforward => "Temporal Mechanics",
            InvalidWorld { .. } | ProphecyLocked | NoProphecy => "Receive the Prophecy",
            NoPlayers
            | CharactersIncomplete { .. }
            | AlreadyHasCharacter
            | NotYourCharacter
            | UseCreateCharacter
            | CategoryForCharactersOnly
            | RelationshipNeedsAnotherCharacter
            | CharacterStays => "Create the Characters",
            NpcsOnlyInTemporal | NoFlashback | WarningAfterFlashback => "Temporal Mechanics",
            UsedInPair | PairOfOneKind { .. } | DuplicatePair | NotInScene { .. } => {
                "Matching Aspects"
            }
            NoFinale | FinaleExists | TooDeep { .. } | HasPrecursors => "Write the Outline",
            AlreadyPlaced => "Scenes",
            AlreadyPerformed
            | AnotherSceneInProgress { .. }
            | PrecursorsNotPerformed { .. }
            | NotInProgress
            | NoNarration
            | FinaleNotPerformed => "Tell the Story",
            AlreadyChecked | NotChecked | EmptyPool => "Checks",
        }
    }
}

impl Refusal {
    /// The explanation in the words of the game being played: Temporal Mechanics speaks of the
    /// climactic scene, the story tree, scenes upstream, PCs and traits, and its acts.
    pub fn explain(&self, ruleset: Ruleset) -> String {
        use Refusal::*;
        if !ruleset.is_temporal() {
            return self.to_string();
        }
        match self {
            NotNow { what, when, phase } => format!(
                "You can do {what} only {}; the game is at {}.",
                temporal_when(when),
                phase.name_in(ruleset)
            ),
            NotTheNextPhase { from, to } => format!(
                "The game is at {}; it cannot move to {} from there (the acts go in order).",
                from.name_in(ruleset),
                to.name_in(ruleset)
            ),
            ProphecyLocked => {
                "The warning was sent back when the Confrontation began: it can no longer be changed."
                    .into()
            }
            CharactersIncomplete { problems } => format!(
                "Every player needs a PC with a trait in each of the five categories: {}.",
                problems.join("; ")
            ),
            NoFinale => "Sketch the climactic scene first.".into(),
            AlreadyHasCharacter => "You already have a PC; each player has one.".into(),
            NotYourCharacter => "Only a PC's own player changes that PC.".into(),
            UseCreateCharacter => "PCs are created by their players, one each.".into(),
            CategoryForCharactersOnly => {
                "Only a PC's traits have one of the five categories.".into()
            }
            RelationshipNeedsAnotherCharacter => {
                "A relationship connects the PC with another PC or an NPC.".into()
            }
            CharacterStays => "PCs can be removed only before the story tree is started.".into(),
            FinaleExists => {
                "The story tree already has its climactic scene; add scenes upstream of it.".into()
            }
            TooDeep { parent_difficulty } => format!(
                "A new scene is attached only to a scene of depth under 3 (difficulty 4 − depth); that scene's difficulty is {parent_difficulty}."
            ),
            HasPrecursors => {
                "Only a scene with no scene upstream of it can be removed; remove those first."
                    .into()
            }
            PrecursorsNotPerformed { missing } => format!(
                "A scene is played after every scene immediately upstream of it; still to play: {}.",
                missing
                    .iter()
                    .map(|m| format!("\"{m}\""))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            FinaleNotPerformed => "The climactic scene has not been played yet.".into(),
            other => other.to_string(),
        }
    }

    /// The rule's name in the words of the game being played.
    pub fn rule_in(&self, ruleset: Ruleset) -> &'static str {
        match (ruleset.is_temporal(), self.rule()) {
            (true, "Write the Outline") => "Story Tree",
            (true, "Tell the Story") => "Story Scenes",
            (true, "Create the Characters") => "Characters",
            (true, "Receive the Prophecy") => "Acts",
            (true, "The four phases") => "Acts",
            (_, rule) => rule,
        }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Refusal::*;
        match self {
            NotOpened => f.write_str("The game has not been opened yet."),
            AlreadyOpened => f.write_str("The game is already open."),
            NotAtTable => f.write_str("You are not at this table."),
            AlreadyJoined => f.write_str("You have already joined this table."),
            UnknownPlayer => f.write_str("There is no such player at this table."),
            TooMany { what, max } => write!(f, "A game can have at most {max} {what}."),
            Empty { what } => write!(f, "The {what} cannot be empty."),
            TooLong { what, max } => write!(f, "The {what} can be at most {max} characters long."),
            Unknown { what } => write!(f, "That {what} does not exist (it may have just been removed)."),
            NotNow { what, when, phase } => {
                write!(f, "You can do {what} only {when}; the game is at {phase}.")
            }
            GameOver => f.write_str("The story is over."),
            NotTheNextPhase { from, to } => write!(
                f,
                "The game is at {from}; it cannot move to {to} from there (phases go in order)."
            ),
            NoModerator { ruleset } => write!(
                f,
                "{ruleset} has no moderator; the moderator comes with edition 1.1."
            ),
            ModeratorCannot { what } => write!(
                f,
                "The moderator asks questions and keeps time, but does not {what}."
            ),
            ModeratorHasCharacter => {
                f.write_str("A player with a character cannot be the moderator.")
            }
            AlreadyTheModerator => f.write_str("That player is the moderator already."),
            NoModeratorToDismiss => f.write_str("The table has no moderator."),
            SameDice { physical: true } => f.write_str("The table rolls real dice already."),
            SameDice { physical: false } => f.write_str("The server rolls the dice already."),
            AlreadyPublished => f.write_str(
                "The story is published already: its link is with the story (withdraw it first to publish again).",
            ),
            AlreadyWatched => f.write_str(
                "A watch link is open already: its link is in the table's menu (close it first to open a new one).",
            ),
            AlreadyFlagged => f.write_str("That text is already flagged."),
            InvalidWorld { problem } => write!(f, "That world cannot be used: {problem}."),
            ProphecyLocked => f.write_str(
                "The prophecy can be changed only until the outline is started.",
            ),
            NoProphecy => f.write_str("Receive the prophecy first: roll on a world's table, pick a module, or write one."),
            NoPlayers => f.write_str("No one is playing yet."),
            CharactersIncomplete { problems } => write!(
                f,
                "Every player needs a character with an aspect in each of the five categories: {}.",
                problems.join("; ")
            ),
            NoFinale => f.write_str("Sketch the Finale first."),
            NoFlashback => f.write_str("Narrate the flashback (the catastrophe as it happened) first."),
            WarningAfterFlashback => f.write_str(
                "Temporal Mechanics prepares the warning in the Setup, once the flashback is told.",
            ),
            AlreadyHasCharacter => f.write_str("You already have a character; each player has one."),
            NotYourCharacter => f.write_str("Only a character's own player changes that character."),
            UseCreateCharacter => f.write_str("Characters are created by their players, one each."),
            NpcsOnlyInTemporal => f.write_str("NPCs belong to Temporal Mechanics; here, create a person instead."),
            CategoryForCharactersOnly => f.write_str("Only a character's aspects have one of the five categories."),
            RelationshipNeedsAnotherCharacter => {
                f.write_str("A relationship connects the character with another character.")
            }
            CharacterStays => f.write_str("Characters can be removed only before the outline is started."),
            UsedInPair => f.write_str("It is part of a matching pair: withdraw the pair first."),
            FinaleExists => f.write_str("The outline already has its Finale; add precursors to it."),
            TooDeep { parent_difficulty } => write!(
                f,
                "A precursor's difficulty is one less than its parent's and must be above zero; that scene's difficulty is {parent_difficulty}."
            ),
            HasPrecursors => f.write_str("Only a scene without precursors can be removed; remove its precursors first."),
            AlreadyPerformed => f.write_str("That scene has already been performed."),
            Paused => f.write_str("Play is paused (a flagged text, or the X-card): settle that first."),
            AnotherSceneInProgress { objective } => write!(
                f,
                "Another scene is being performed (\"{objective}\"); finish it first."
            ),
            PrecursorsNotPerformed { missing } => write!(
                f,
                "A scene is performed after all its precursors; still to perform: {}.",
                missing.iter().map(|m| format!("\"{m}\"")).collect::<Vec<_>>().join(", ")
            ),
            NotInProgress => f.write_str("That scene is not being performed."),
            PairOfOneKind { characters: true } => f.write_str(
                "A matching pair is one character aspect and one environment aspect, not two character aspects.",
            ),
            PairOfOneKind { characters: false } => f.write_str(
                "A matching pair is one character aspect and one environment aspect, not two environment aspects.",
            ),
            DuplicatePair => f.write_str("That pair has already been proposed for this check."),
            NotInScene { object } => write!(
                f,
                "{object} is not in this scene: add it to the setting first."
            ),
            AlreadyPlaced => f.write_str("That object is already in the scene."),
            AlreadyChecked => f.write_str("The check for this scene has been made."),
            NotChecked => f.write_str("Make the check first."),
            EmptyPool => f.write_str(
                "The pool has no dice: that is zero hits, a failure. Confirm to accept it, or find a matching pair.",
            ),
            NoNarration => f.write_str("Tell what happened first: the scene needs its narration."),
            FinaleNotPerformed => f.write_str("The Finale has not been performed yet."),
            NoFlashforward => f.write_str("Play the flashforward first: tell how the timeline changed."),
            NotYourLine => f.write_str("A line is lifted only by whoever drew it."),
            AlreadyPaused => f.write_str("Play is already paused by the X-card."),
            NotPaused => f.write_str("Play is not paused by the X-card."),
            NotYourPause => f.write_str(
                "Whoever paused can resume at once; anyone else proposes resuming, and the table agrees.",
            ),
            ProposalOpen { motion } => write!(
                f,
                "The table is deciding whether to {motion}: agree, or say not yet, first."
            ),
            NoSuchProposal => f.write_str("That proposal is no longer open (it carried, or someone stopped it)."),
            AlreadyAgreed => f.write_str("You have agreed already; the others have not all agreed yet."),
            Rolling => f.write_str("The table agreed to the check and is rolling real dice: type in the faces first."),
            NotRolling => f.write_str("Type the faces in after the table agrees to make the check with real dice."),
            NoTimer => f.write_str("No scene is being timed."),
            ModeratorKeepsTime => f.write_str("The moderator keeps time at this table."),
            BadExtension { max } => write!(f, "A scene can be given 1 to {max} more minutes at once."),
            OnlyTheModeratorAsks => f.write_str("Only the moderator puts questions to the table."),
            NotYourPair => f.write_str(
                "A pair is withdrawn by whoever proposed it; anyone else proposes withdrawing it, and the table agrees.",
            ),
            OwnPair => f.write_str("You proposed that pair: withdraw it instead."),
            PairUnderObjection => f.write_str(
                "A pair is under objection: settle it (the objector accepts it, or it is withdrawn) before the check.",
            ),
            FacesDoNotFit { problem } => write!(f, "Those faces are not a roll of this pool: {problem}."),
            StoryBegun => f.write_str("The outline is fixed once a check has been made."),
            StoryTreeTooSmall => f.write_str(
                "A story tree is the climactic scene and one or more other scenes: add a scene upstream of the climax.",
            ),
        }
    }
}

impl std::error::Error for Refusal {}
