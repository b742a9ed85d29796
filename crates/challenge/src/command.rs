//! Commands: what someone at the table asks for. Each names the acting player; the dice come in
//! as a [`Seed`] inside the command, and the faces are stored in the events.

use crate::ids::{ChallengeId, CharacterId, PlayerId};
use crate::sheet::{Aptitude, Sheet, Skill, Specialty};
use dice::Seed;
use dice::challenge::Situation;
use serde::{Deserialize, Serialize};

/// A request by one player.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Command {
    /// Who acts.
    pub by: PlayerId,
    /// What they ask for.
    pub action: Action,
}

impl Command {
    /// `by` asks for `action`.
    pub fn new(by: PlayerId, action: Action) -> Command {
        Command { by, action }
    }
}

/// The improvements a player chooses for a roll, beyond the Skills that apply by themselves.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Choice {
    /// A Specialty of the character under one of the Challenge's Skills that the character
    /// does not hold: one step.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub specialty: Option<Specialty>,
    /// Aptitude points of the governing Aptitude to spend: 0 or 1 (one step). More is refused:
    /// one point per roll.
    #[serde(default)]
    pub aptitude_points: u32,
}

impl Choice {
    /// No improvement chosen.
    pub fn none() -> Choice {
        Choice::default()
    }

    /// Spend one Aptitude point.
    pub fn point() -> Choice {
        Choice {
            specialty: None,
            aptitude_points: 1,
        }
    }

    /// Use this Specialty.
    pub fn specialty(skill: Skill, name: &str) -> Choice {
        Choice {
            specialty: Some(Specialty {
                skill,
                name: name.to_owned(),
            }),
            aptitude_points: 0,
        }
    }
}

/// One band of a GM's own band table: results `from..=to` are called `label`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct BandRange {
    /// The lowest result in the band (1–8).
    pub from: u8,
    /// The highest result in the band (1–8, at least `from`).
    pub to: u8,
    /// What the band means.
    pub label: String,
}

impl BandRange {
    /// A band from `from` to `to`.
    pub fn new(from: u8, to: u8, label: &str) -> BandRange {
        BandRange {
            from,
            to,
            label: label.to_owned(),
        }
    }

    /// Whether `result` falls in it.
    pub fn contains(&self, result: u8) -> bool {
        (self.from..=self.to).contains(&result)
    }
}

/// Everything someone at the table can ask for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "action")]
pub enum Action {
    /// Sit at the table under a name. The first to join is the GM.
    Join {
        /// The player's name.
        name: String,
    },
    /// Make a character sheet. Anyone seated makes one for themselves; the GM may make one for
    /// any seated player (`owner`), or for themselves (a non-player character).
    CreateSheet {
        /// Whose it is (absent: the one who makes it).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        owner: Option<crate::ids::PlayerId>,
        /// What it says.
        sheet: Sheet,
    },
    /// Rewrite a sheet: its owner, or the GM; not while it has an open Challenge. Points
    /// already spent stay spent, whatever the new maximum.
    EditSheet {
        /// Which.
        character: CharacterId,
        /// What it says now.
        sheet: Sheet,
    },
    /// Put a sheet away (its owner, or the GM): it stays in the log and in past Challenges,
    /// and no longer counts against the limits.
    RetireSheet {
        /// Which.
        character: CharacterId,
    },
    /// The GM calls a Challenge for a character. Its player then chooses and rolls.
    CallChallenge {
        /// Whose roll.
        character: CharacterId,
        /// What is at stake, in a few words.
        description: String,
        /// The situation, which decides the dice: d4, d6 or d8.
        situation: Situation,
        /// The Aptitude that governs it: its points may be spent.
        aptitude: Aptitude,
        /// The Skills that are relevant (each held one is a step; usually one, possibly
        /// none). Each at most once.
        #[serde(default)]
        skills: Vec<Skill>,
        /// A special rule: the most steps of improvement allowed on this roll (2–8; absent:
        /// the rules' two).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        allow_steps: Option<u32>,
        /// Another band table for this Challenge ("in most cases" the seed's is used): bands
        /// covering the results 1 to 8 in order, without gaps or overlaps.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        bands: Option<Vec<BandRange>>,
    },
    /// The GM takes back an open Challenge: nothing is rolled or spent.
    CancelChallenge {
        /// Which.
        challenge: ChallengeId,
    },
    /// The character's player chooses the improvements and rolls the open Challenge.
    Roll {
        /// Which.
        challenge: ChallengeId,
        /// The improvements chosen.
        #[serde(default)]
        choice: Choice,
        /// For the dice.
        seed: Seed,
    },
    /// Spend one Aptitude point outside a roll (the seed: "it may be possible to spend them for
    /// other purposes"): the owner, or the GM.
    SpendPoint {
        /// Whose.
        character: CharacterId,
        /// Of which Aptitude.
        aptitude: Aptitude,
        /// What for.
        reason: String,
    },
    /// The GM says a character, or everyone (absent), has rested an hour or more: every spent
    /// Aptitude point comes back.
    Rest {
        /// Who rested (absent: every character).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        character: Option<CharacterId>,
    },
    /// The GM writes down a fight: the player characters won, and what it cost them.
    RecordFight {
        /// The fight.
        description: String,
        /// What winning cost, as the group decided.
        cost: String,
        /// Who suggested the cost (the seed: the players whose characters bear it).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        suggested_by: Option<PlayerId>,
    },
    /// Write what happened after a roll (the character's player or the GM); a later narration
    /// replaces the earlier one.
    Narrate {
        /// The rolled Challenge.
        challenge: ChallengeId,
        /// What happened, in the table's words.
        text: String,
    },
    /// The GM hands the GM seat to another player at the table.
    HandGm {
        /// The new GM.
        to: PlayerId,
    },
    /// The table's creator (the first to join) removes a player: they no longer act or count
    /// against the table's players, and their sheets stay as records. A removed GM's seat goes
    /// back to the creator.
    RemovePlayer {
        /// Who.
        player: PlayerId,
    },
}
