//! Events: what happened. They are the table's only record; [`crate::evolve`] folds them into
//! the state and never fails. Every die is stored in them, so replay never re-rolls.

use crate::command::{BandRange, Choice};
use crate::ids::{ChallengeId, CharacterId, PlayerId};
use crate::sheet::{Aptitude, AptitudePoints, Sheet, Skill};
use dice::challenge::{ChallengeRoll, Pool, Situation};
use serde::{Deserialize, Serialize};

/// Something that happened at the table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// A player sat down.
    Joined {
        /// Who.
        player: PlayerId,
        /// Their name.
        name: String,
        /// Whether they took the GM seat (the first to join does).
        gm: bool,
    },
    /// A character sheet was made.
    SheetCreated {
        /// Its id (the number of sheets made before it).
        character: CharacterId,
        /// Whose it is.
        owner: PlayerId,
        /// Who made it (the owner or the GM).
        by: PlayerId,
        /// What it says; no point is spent yet.
        sheet: Sheet,
    },
    /// A sheet was rewritten.
    SheetEdited {
        /// Which.
        character: CharacterId,
        /// Who (the owner or the GM).
        by: PlayerId,
        /// What it says now.
        sheet: Sheet,
        /// Points spent after the edit: as before (logs written before this rule hold them
        /// capped at the new maximum, and replay as they were).
        spent: AptitudePoints,
    },
    /// A sheet was put away.
    SheetRetired {
        /// Which.
        character: CharacterId,
        /// Who (the owner or the GM).
        by: PlayerId,
    },
    /// The GM called a Challenge.
    ChallengeCalled {
        /// Its id (the number of Challenges called before it).
        challenge: ChallengeId,
        /// Whose roll.
        character: CharacterId,
        /// Who called it (the GM at the time).
        by: PlayerId,
        /// What is at stake.
        description: String,
        /// d4, d6 or d8.
        situation: Situation,
        /// The governing Aptitude.
        aptitude: Aptitude,
        /// The relevant Skills.
        skills: Vec<Skill>,
        /// The most steps allowed (2 without a special rule).
        allow_steps: u32,
        /// The GM's own band table, if not the seed's.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        bands: Option<Vec<BandRange>>,
    },
    /// The GM took back an open Challenge.
    ChallengeCancelled {
        /// Which.
        challenge: ChallengeId,
        /// Who.
        by: PlayerId,
    },
    /// A Challenge was rolled, every die shown.
    ChallengeRolled {
        /// Which.
        challenge: ChallengeId,
        /// Whose roll.
        character: CharacterId,
        /// The improvements the player chose.
        choice: Choice,
        /// How many of the relevant Skills the character holds (a step each, automatically).
        skills_held: u32,
        /// The Aptitude point spent, if one was (one fewer current point).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        spent: Option<Aptitude>,
        /// Dice rolled and which is kept.
        pool: Pool,
        /// The seed, the steps, every face in the order rolled, the kept result, its band in the
        /// seed's table.
        roll: ChallengeRoll,
        /// The result's band as the table names it (the seed's words, or the GM's table).
        label: String,
    },
    /// An Aptitude point was spent outside a roll.
    PointSpent {
        /// Whose.
        character: CharacterId,
        /// Which Aptitude.
        aptitude: Aptitude,
        /// Who asked (the owner or the GM).
        by: PlayerId,
        /// What for.
        reason: String,
    },
    /// Characters rested: every spent Aptitude point came back.
    Rested {
        /// Who regained points, and how many in each Aptitude.
        regained: Vec<(CharacterId, AptitudePoints)>,
    },
    /// A fight was written down: the player characters won, at a cost.
    FightRecorded {
        /// Who wrote it (the GM).
        by: PlayerId,
        /// The fight.
        description: String,
        /// What it cost.
        cost: String,
        /// Who suggested the cost.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        suggested_by: Option<PlayerId>,
    },
    /// What happened after a roll, written down (replacing any earlier narration of it).
    Narrated {
        /// The Challenge.
        challenge: ChallengeId,
        /// Who wrote it.
        by: PlayerId,
        /// The text.
        text: String,
    },
    /// The GM seat changed hands.
    GmHanded {
        /// The GM before.
        from: PlayerId,
        /// The GM now.
        to: PlayerId,
    },
    /// A player was removed from the table: they act no more (their sheets stay, as records).
    PlayerRemoved {
        /// Who.
        player: PlayerId,
    },
}
