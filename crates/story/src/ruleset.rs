//! The rulesets: one engine, a few parameters and small differences.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// Which rules a game is played by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum Ruleset {
    /// Prophecy 1.0, the seeds' rules: Finale difficulty 4, eight-minute scenes.
    #[default]
    #[serde(rename = "1.0")]
    Edition10,
    /// Prophecy 1.1: Finale difficulty 5, ten-minute scenes, an optional moderator.
    #[serde(rename = "1.1")]
    Edition11,
    /// Temporal Mechanics: three acts, PCs and NPCs, difficulty 4 − depth, ten-minute scenes.
    #[serde(rename = "temporal")]
    Temporal,
}

impl Ruleset {
    /// All rulesets.
    pub const ALL: [Ruleset; 3] = [Ruleset::Edition10, Ruleset::Edition11, Ruleset::Temporal];

    /// The Finale's (climactic scene's) difficulty rating.
    pub fn finale_difficulty(self) -> u32 {
        match self {
            Ruleset::Edition11 => 5,
            Ruleset::Edition10 | Ruleset::Temporal => 4,
        }
    }

    /// The difficulty of a scene `depth` edges below the Finale, if a scene may be there:
    /// one less than its parent's and above zero (Temporal Mechanics: 4 − depth, attached only
    /// below depth 3, which is the same rule).
    pub fn difficulty_at_depth(self, depth: u32) -> Option<u32> {
        self.finale_difficulty()
            .checked_sub(depth)
            .filter(|&d| d > 0)
    }

    /// The deepest a scene may be (the Finale is depth 0).
    pub fn max_depth(self) -> u32 {
        self.finale_difficulty() - 1
    }

    /// The advisory length of a scene, in minutes.
    pub fn scene_minutes(self) -> u32 {
        match self {
            Ruleset::Edition10 => 8,
            Ruleset::Edition11 | Ruleset::Temporal => 10,
        }
    }

    /// Whether a moderator may be chosen (edition 1.1).
    pub fn allows_moderator(self) -> bool {
        self == Ruleset::Edition11
    }

    /// Temporal Mechanics' differences: acts, PCs and NPCs, flashback and flashforward.
    pub fn is_temporal(self) -> bool {
        self == Ruleset::Temporal
    }

    /// The name players know it by.
    pub fn name(self) -> &'static str {
        match self {
            Ruleset::Edition10 => "Prophecy 1.0",
            Ruleset::Edition11 => "Prophecy 1.1",
            Ruleset::Temporal => "Temporal Mechanics",
        }
    }
}

impl fmt::Display for Ruleset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a text names no ruleset.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownRuleset(pub String);

impl fmt::Display for UnknownRuleset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}' is not a ruleset: use 1.0, 1.1 or temporal", self.0)
    }
}

impl std::error::Error for UnknownRuleset {}

/// Parses `1.0`, `1.1` and `temporal`.
impl FromStr for Ruleset {
    type Err = UnknownRuleset;
    fn from_str(s: &str) -> Result<Ruleset, UnknownRuleset> {
        match s.trim().to_ascii_lowercase().as_str() {
            "1.0" | "1" => Ok(Ruleset::Edition10),
            "1.1" => Ok(Ruleset::Edition11),
            "temporal" | "temporal-mechanics" | "tm" => Ok(Ruleset::Temporal),
            _ => Err(UnknownRuleset(s.to_owned())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn difficulties_by_depth() {
        let levels = |r: Ruleset| (0..7).map(|d| r.difficulty_at_depth(d)).collect::<Vec<_>>();
        assert_eq!(
            levels(Ruleset::Edition10),
            [Some(4), Some(3), Some(2), Some(1), None, None, None]
        );
        assert_eq!(
            levels(Ruleset::Edition11),
            [Some(5), Some(4), Some(3), Some(2), Some(1), None, None]
        );
        assert_eq!(levels(Ruleset::Temporal), levels(Ruleset::Edition10));
        assert_eq!(Ruleset::Temporal.max_depth(), 3);
    }
}
