//! Character sheets in the seed's words: the four [`Aptitude`]s with their points, the sixteen
//! [`Skill`]s (four per Aptitude, each held or not), [`Specialty`]s under a Skill, and optional
//! abilities as free text.

use serde::{Deserialize, Serialize};
use std::fmt;

/// The four Aptitudes: every Challenge is governed by one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Aptitude {
    /// All forms of knowledge, from education, training or secrets passed down.
    Knowledge,
    /// Understanding through careful or patient listening, watching and observing.
    Awareness,
    /// The ability to influence others.
    Charisma,
    /// Every action that depends on the body: its strength, precision, toughness.
    Physicality,
}

impl Aptitude {
    /// The four, in the seed's order.
    pub const ALL: [Aptitude; 4] = [
        Aptitude::Knowledge,
        Aptitude::Awareness,
        Aptitude::Charisma,
        Aptitude::Physicality,
    ];

    /// Its four Skills, in the seed's order.
    pub fn skills(self) -> [Skill; 4] {
        use Skill::*;
        match self {
            Aptitude::Knowledge => [Nature, Society, Supernatural, Material],
            Aptitude::Awareness => [Details, Surroundings, People, Animals],
            Aptitude::Charisma => [Socialize, Persuade, Deceive, Command],
            Aptitude::Physicality => [Infiltrate, Manipulate, Might, Endure],
        }
    }
}

impl fmt::Display for Aptitude {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Aptitude::Knowledge => "Knowledge",
            Aptitude::Awareness => "Awareness",
            Aptitude::Charisma => "Charisma",
            Aptitude::Physicality => "Physicality",
        })
    }
}

/// The sixteen Skills, four per Aptitude. A character has a Skill or does not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Skill {
    /// Knowledge of Nature: natural phenomena.
    Nature,
    /// Knowledge of Society: history, politics, etiquette, well known factions.
    Society,
    /// Knowledge of the Supernatural: gods, magic, strange creatures.
    Supernatural,
    /// Knowledge of the Material: machines, buildings, tunnels, tools, cloth, food.
    Material,
    /// Awareness of Details: small hidden things, with careful examination.
    Details,
    /// Awareness of Surroundings: the bigger things.
    Surroundings,
    /// Awareness of People: body language, what is said indirectly, lies.
    People,
    /// Awareness of Animals: their behaviour, and dealing with them.
    Animals,
    /// Charisma, Socialize: dealing with people over a period of time.
    Socialize,
    /// Charisma, Persuade: convincing someone to act or support a course of action.
    Persuade,
    /// Charisma, Deceive: convincing someone of something untrue.
    Deceive,
    /// Charisma, Command: throwing one's authority around.
    Command,
    /// Physicality, Infiltrate: sneaking, travelling and entering in unconventional ways.
    Infiltrate,
    /// Physicality, Manipulate: fine and delicate work.
    Manipulate,
    /// Physicality, Might: swim, run, jump, lift, break.
    Might,
    /// Physicality, Endure: poison, disease, heat, cold, hunger, thirst, substances.
    Endure,
}

impl Skill {
    /// The sixteen, in the seed's order.
    pub const ALL: [Skill; 16] = {
        use Skill::*;
        [
            Nature,
            Society,
            Supernatural,
            Material,
            Details,
            Surroundings,
            People,
            Animals,
            Socialize,
            Persuade,
            Deceive,
            Command,
            Infiltrate,
            Manipulate,
            Might,
            Endure,
        ]
    };

    /// The Aptitude it belongs to.
    pub fn aptitude(self) -> Aptitude {
        use Skill::*;
        match self {
            Nature | Society | Supernatural | Material => Aptitude::Knowledge,
            Details | Surroundings | People | Animals => Aptitude::Awareness,
            Socialize | Persuade | Deceive | Command => Aptitude::Charisma,
            Infiltrate | Manipulate | Might | Endure => Aptitude::Physicality,
        }
    }

    /// Its name as the seed writes it in the list of Skills ("The Supernatural", "Might").
    pub fn name(self) -> &'static str {
        use Skill::*;
        match self {
            Nature => "Nature",
            Society => "Society",
            Supernatural => "The Supernatural",
            Material => "The Material",
            Details => "Details",
            Surroundings => "Surroundings",
            People => "People",
            Animals => "Animals",
            Socialize => "Socialize",
            Persuade => "Persuade",
            Deceive => "Deceive",
            Command => "Command",
            Infiltrate => "Infiltrate",
            Manipulate => "Manipulate",
            Might => "Might",
            Endure => "Endure",
        }
    }
}

/// "Knowledge of Nature", "Awareness of People", "Charisma: Persuade", "Physicality: Might",
/// as the seed heads its lists.
impl fmt::Display for Skill {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.aptitude() {
            Aptitude::Knowledge | Aptitude::Awareness => {
                let name = self.name();
                let name = name
                    .strip_prefix("The ")
                    .map_or(name.to_owned(), |rest| format!("the {rest}"));
                write!(f, "{} of {name}", self.aptitude())
            }
            Aptitude::Charisma | Aptitude::Physicality => {
                write!(f, "{}: {}", self.aptitude(), self.name())
            }
        }
    }
}

/// A narrow use of a Skill ("Awareness of Animals, on horses"). It gives a step of improvement
/// when the Skill itself is not held.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Specialty {
    /// The Skill it is a use of.
    pub skill: Skill,
    /// Its words ("on horses").
    pub name: String,
}

/// A number for each Aptitude: a character's maximum points, or the points spent.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct AptitudePoints {
    /// Knowledge.
    #[serde(default)]
    pub knowledge: u32,
    /// Awareness.
    #[serde(default)]
    pub awareness: u32,
    /// Charisma.
    #[serde(default)]
    pub charisma: u32,
    /// Physicality.
    #[serde(default)]
    pub physicality: u32,
}

impl AptitudePoints {
    /// The number for `aptitude`.
    pub fn get(&self, aptitude: Aptitude) -> u32 {
        match aptitude {
            Aptitude::Knowledge => self.knowledge,
            Aptitude::Awareness => self.awareness,
            Aptitude::Charisma => self.charisma,
            Aptitude::Physicality => self.physicality,
        }
    }

    /// The number for `aptitude`, to change.
    pub fn get_mut(&mut self, aptitude: Aptitude) -> &mut u32 {
        match aptitude {
            Aptitude::Knowledge => &mut self.knowledge,
            Aptitude::Awareness => &mut self.awareness,
            Aptitude::Charisma => &mut self.charisma,
            Aptitude::Physicality => &mut self.physicality,
        }
    }

    /// Whether every number is zero.
    pub fn is_zero(&self) -> bool {
        Aptitude::ALL.iter().all(|&a| self.get(a) == 0)
    }
}

/// What a character sheet says, as its player writes it. Current Aptitude points are not part of
/// it: they are the maximum less the points spent, which only spending and rest change (see
/// [`Character::current`](crate::state::Character::current)).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sheet {
    /// The character's name.
    pub name: String,
    /// The concept, in a few words.
    #[serde(default)]
    pub concept: String,
    /// Maximum Aptitude points in each Aptitude.
    #[serde(default)]
    pub aptitudes: AptitudePoints,
    /// The Skills the character has, each once.
    #[serde(default)]
    pub skills: Vec<Skill>,
    /// Specialties, each under a Skill.
    #[serde(default)]
    pub specialties: Vec<Specialty>,
    /// Optional abilities, free text.
    #[serde(default)]
    pub abilities: String,
}

impl Sheet {
    /// Whether the character has `skill`.
    pub fn has(&self, skill: Skill) -> bool {
        self.skills.contains(&skill)
    }

    /// Whether the character has this Specialty (same Skill, same words).
    pub fn has_specialty(&self, specialty: &Specialty) -> bool {
        self.specialties.contains(specialty)
    }
}
