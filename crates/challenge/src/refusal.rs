//! Refusals: why a command is not allowed, in words a player understands. [`Refusal::code`] is a
//! stable machine name; [`Refusal::rule`] names the seed's section (or "The table" for the
//! table's own rules); `Display` explains.

use crate::ids::{ChallengeId, CharacterId, PlayerId};
use crate::sheet::{Aptitude, Skill, Specialty};
use std::fmt;

/// Why a command was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// Only players seated at the table act.
    NotSeated,
    /// The player was removed from the table.
    Removed,
    /// A player sits once.
    AlreadySeated,
    /// The table has its most players.
    TableFull {
        /// The limit.
        most: usize,
    },
    /// The table has seated its most players ever (removed ones included).
    SeatsEver {
        /// The limit.
        most: usize,
    },
    /// Only the table's creator removes a player.
    NotCreator,
    /// The table's creator stays at the table.
    CreatorStays,
    /// A text that must be written is empty.
    Empty {
        /// Which text.
        what: &'static str,
    },
    /// A text is longer than its limit.
    TooLong {
        /// Which text.
        what: &'static str,
        /// The limit, in characters.
        most: usize,
    },
    /// Only the GM may do this.
    NotGm {
        /// What was asked (the action's name).
        action: &'static str,
    },
    /// No such player is seated.
    NoSuchPlayer {
        /// Who was named.
        player: PlayerId,
    },
    /// The GM seat is handed to someone else.
    AlreadyGm,
    /// No such character (or it is retired).
    NoSuchCharacter {
        /// Which was named.
        character: CharacterId,
    },
    /// The sheet belongs to someone else (and the asker is not the GM).
    NotYourCharacter {
        /// Which.
        character: CharacterId,
    },
    /// A Challenge is rolled by the player of its character ("the player taking the action
    /// rolls"), not by the GM or another player.
    NotYourRoll {
        /// Whose roll it is.
        character: CharacterId,
    },
    /// A player owns at most so many live sheets.
    TooManySheets {
        /// The limit.
        most: usize,
    },
    /// A table holds at most so many live sheets.
    TooManyCharacters {
        /// The limit.
        most: usize,
    },
    /// More Aptitude points than a sheet may hold.
    TooManyPoints {
        /// Which Aptitude.
        aptitude: Aptitude,
        /// The limit.
        most: u32,
    },
    /// A Skill is listed twice.
    SkillTwice {
        /// Which.
        skill: Skill,
    },
    /// A Specialty is listed twice.
    SpecialtyTwice {
        /// Which.
        specialty: Specialty,
    },
    /// Too many Specialties under one Skill.
    TooManySpecialties {
        /// Which Skill.
        skill: Skill,
        /// The limit.
        most: usize,
    },
    /// The character has an open Challenge: roll it, or the GM cancels it, first.
    ChallengeOpen {
        /// Which.
        challenge: ChallengeId,
        /// What is at stake in it, as the GM wrote it: the page names it so.
        description: String,
    },
    /// The GM's special rule allows from 2 to so many steps.
    AllowSteps {
        /// What was asked.
        asked: u32,
        /// The limit.
        most: u32,
    },
    /// A band table must name every result from 1 to 8 once, in order.
    BandTable,
    /// No such Challenge.
    NoSuchChallenge {
        /// Which was named.
        challenge: ChallengeId,
    },
    /// The Challenge was already rolled or cancelled.
    ChallengeClosed {
        /// Which.
        challenge: ChallengeId,
    },
    /// Only a rolled Challenge is narrated.
    NotRolled {
        /// Which.
        challenge: ChallengeId,
    },
    /// One Aptitude point per roll.
    OneAptitudePoint {
        /// How many were asked for.
        asked: u32,
    },
    /// The character has no current point of that Aptitude to spend.
    NoAptitudePoint {
        /// Which.
        aptitude: Aptitude,
    },
    /// The character has no such Specialty.
    UnknownSpecialty {
        /// The one named.
        specialty: Specialty,
    },
    /// The Specialty is not under one of the Challenge's Skills.
    SpecialtyNotRelevant {
        /// Its Skill.
        skill: Skill,
    },
    /// A Specialty counts only when the relevant Skill is not held.
    SpecialtyWithSkill,
    /// More steps than the roll allows.
    TooManySteps {
        /// Steps the choice would give.
        steps: u32,
        /// Steps allowed.
        allowed: u32,
    },
    /// Nobody resting has a spent point to regain.
    NothingToRegain,
}

impl Refusal {
    /// A stable machine name, for the page and the tests.
    pub fn code(&self) -> &'static str {
        use Refusal::*;
        match self {
            NotSeated => "not_seated",
            Removed => "removed",
            AlreadySeated => "already_seated",
            TableFull { .. } => "table_full",
            SeatsEver { .. } => "seats_ever",
            NotCreator => "not_creator",
            CreatorStays => "creator_stays",
            Empty { .. } => "empty",
            TooLong { .. } => "too_long",
            NotGm { .. } => "not_gm",
            NoSuchPlayer { .. } => "no_such_player",
            AlreadyGm => "already_gm",
            NoSuchCharacter { .. } => "no_such_character",
            NotYourCharacter { .. } => "not_your_character",
            NotYourRoll { .. } => "not_your_roll",
            TooManySheets { .. } => "too_many_sheets",
            TooManyCharacters { .. } => "too_many_characters",
            TooManyPoints { .. } => "too_many_points",
            SkillTwice { .. } => "skill_twice",
            SpecialtyTwice { .. } => "specialty_twice",
            TooManySpecialties { .. } => "too_many_specialties",
            ChallengeOpen { .. } => "challenge_open",
            AllowSteps { .. } => "allow_steps",
            BandTable => "band_table",
            NoSuchChallenge { .. } => "no_such_challenge",
            ChallengeClosed { .. } => "challenge_closed",
            NotRolled { .. } => "not_rolled",
            OneAptitudePoint { .. } => "one_aptitude_point",
            NoAptitudePoint { .. } => "no_aptitude_point",
            UnknownSpecialty { .. } => "unknown_specialty",
            SpecialtyNotRelevant { .. } => "specialty_not_relevant",
            SpecialtyWithSkill => "specialty_with_skill",
            TooManySteps { .. } => "too_many_steps",
            NothingToRegain => "nothing_to_regain",
        }
    }

    /// The section of the seed's rules that forbids it, or "The table" for the table's own
    /// rules (seats, the GM seat, ownership, limits).
    pub fn rule(&self) -> &'static str {
        use Refusal::*;
        match self {
            NotGm {
                action: "call_challenge" | "cancel_challenge",
            } => "Difficulty",
            NotGm { action: "rest" } => "Aptitude Points",
            NotGm {
                action: "record_fight",
            } => "Fighting",
            NotSeated
            | Removed
            | AlreadySeated
            | TableFull { .. }
            | SeatsEver { .. }
            | NotCreator
            | CreatorStays
            | Empty { .. }
            | TooLong { .. }
            | NotGm { .. }
            | NoSuchPlayer { .. }
            | AlreadyGm
            | NoSuchCharacter { .. }
            | NotYourCharacter { .. }
            | TooManySheets { .. }
            | TooManyCharacters { .. } => "The table",
            TooManyPoints { .. } | NoAptitudePoint { .. } | NothingToRegain => "Aptitude Points",
            SkillTwice { .. } => "Skills",
            SpecialtyTwice { .. } | TooManySpecialties { .. } => "Specialities",
            ChallengeOpen { .. }
            | NoSuchChallenge { .. }
            | ChallengeClosed { .. }
            | NotRolled { .. }
            | NotYourRoll { .. } => "Rolling To Resolve a Challenge",
            BandTable => "Results",
            AllowSteps { .. }
            | OneAptitudePoint { .. }
            | UnknownSpecialty { .. }
            | SpecialtyNotRelevant { .. }
            | SpecialtyWithSkill
            | TooManySteps { .. } => "Using Attributes",
        }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Refusal::*;
        match self {
            NotSeated => write!(f, "You are not seated at this table."),
            Removed => write!(f, "You were removed from this table."),
            AlreadySeated => write!(f, "You are already seated at this table."),
            TableFull { most } => write!(f, "The table is full: at most {most} players."),
            SeatsEver { most } => write!(
                f,
                "This table has seated {most} players in all (removed ones included), the most it keeps: start a new table."
            ),
            NotCreator => write!(f, "Only the table's creator can remove a player."),
            CreatorStays => write!(f, "The table's creator cannot be removed."),
            Empty { what } => write!(f, "The {what} cannot be empty."),
            TooLong { what, most } => {
                write!(f, "The {what} is too long: at most {most} characters.")
            }
            NotGm { action } => write!(
                f,
                "Only the GM may {}.",
                match *action {
                    "call_challenge" => "call a Challenge",
                    "cancel_challenge" => "cancel a Challenge",
                    "rest" => "say the characters have rested",
                    "record_fight" => "write down a fight",
                    "hand_gm" => "hand over the GM seat",
                    "create_sheet" => "make a sheet for another player",
                    other => other,
                }
            ),
            NoSuchPlayer { player } => write!(f, "There is no {player} at this table."),
            AlreadyGm => write!(f, "You already hold the GM seat."),
            NoSuchCharacter { character } => {
                write!(f, "There is no {character} at this table.")
            }
            NotYourCharacter { character } => write!(
                f,
                "{} belongs to another player: only they and the GM may do that.",
                capitalized(&character.to_string())
            ),
            NotYourRoll { character } => {
                write!(f, "Only the player of {character} rolls its Challenges.")
            }
            TooManySheets { most } => {
                write!(f, "A player may have at most {most} character sheets.")
            }
            TooManyCharacters { most } => {
                write!(f, "A table may have at most {most} character sheets.")
            }
            TooManyPoints { aptitude, most } => {
                write!(f, "At most {most} {aptitude} points.")
            }
            SkillTwice { skill } => write!(f, "{skill} is listed twice."),
            SpecialtyTwice { specialty } => write!(
                f,
                "The Specialty '{}' under {} is listed twice.",
                specialty.name, specialty.skill
            ),
            TooManySpecialties { skill, most } => {
                write!(f, "At most {most} Specialties under {skill}.")
            }
            ChallengeOpen { description, .. } => write!(
                f,
                "This character already has an open Challenge, “{description}”: it is rolled, or the GM cancels it, first."
            ),
            AllowSteps { asked, most } => write!(
                f,
                "A special rule may allow from 2 to {most} steps of improvement, not {asked}."
            ),
            BandTable => write!(
                f,
                "A band table names every result from 1 to 8 once, in order, each band with a label."
            ),
            NoSuchChallenge { challenge } => write!(f, "There is no {challenge}."),
            ChallengeClosed { challenge } => write!(
                f,
                "{} has already been rolled or cancelled.",
                capitalized(&challenge.to_string())
            ),
            NotRolled { challenge } => write!(
                f,
                "{} has not been rolled: narrate it once the dice have spoken.",
                capitalized(&challenge.to_string())
            ),
            OneAptitudePoint { asked } => write!(
                f,
                "You may spend only one Aptitude point on a roll, not {asked}."
            ),
            NoAptitudePoint { aptitude } => write!(
                f,
                "The character has no {aptitude} point left to spend: rest to regain them."
            ),
            UnknownSpecialty { specialty } => write!(
                f,
                "The character has no Specialty '{}' under {}.",
                specialty.name, specialty.skill
            ),
            SpecialtyNotRelevant { skill } => {
                write!(f, "{skill} is not a Skill this Challenge calls for.")
            }
            SpecialtyWithSkill => write!(
                f,
                "A Specialty improves the roll only when the character does not have the relevant Skill."
            ),
            TooManySteps { steps, allowed } => write!(
                f,
                "That would improve the roll {steps} steps; at most {allowed} are allowed."
            ),
            NothingToRegain => write!(f, "Nobody has a spent Aptitude point to regain."),
        }
    }
}

impl std::error::Error for Refusal {}

fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}
