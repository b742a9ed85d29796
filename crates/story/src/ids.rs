//! Identifiers. Players' ids come from the table layer (it knows who is who); every other id is
//! handed out by the engine in the event that creates the thing, from one counter.

use serde::{Deserialize, Serialize};
use std::fmt;

macro_rules! id {
    ($(#[$doc:meta])* $name:ident, $prefix:literal) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        #[serde(transparent)]
        pub struct $name(pub u32);

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, concat!($prefix, "{}"), self.0)
            }
        }
    };
}

id!(
    /// A player at the table (assigned by the table layer).
    PlayerId,
    "player "
);
id!(
    /// An object: a character, an NPC, or a person, place or thing of the environment.
    ObjectId,
    "object "
);
id!(
    /// An aspect, attached to exactly one object.
    AspectId,
    "aspect "
);
id!(
    /// A scene of the outline.
    SceneId,
    "scene "
);
id!(
    /// A proposed pair of matching aspects.
    PairId,
    "pair "
);
id!(
    /// A line: content the table agreed to exclude.
    LineId,
    "line "
);

id!(
    /// A proposal the table settles: a phase move, a check, the end of the game…
    ProposalId,
    "proposal "
);

/// A moment, in milliseconds since the Unix epoch, supplied by whoever issues the command (the
/// engine has no clock).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Timestamp(pub i64);
