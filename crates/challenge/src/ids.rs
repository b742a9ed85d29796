//! Identifiers. Players' ids come from the table layer; characters and challenges are numbered
//! by the engine in the order they are made (ids are never reused).

use serde::{Deserialize, Serialize};
use std::fmt;

macro_rules! id {
    ($(#[$doc:meta])* $name:ident, $prefix:literal) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        #[serde(transparent)]
        pub struct $name(pub u32);

        impl $name {
            /// The index it names.
            pub fn index(self) -> usize {
                self.0 as usize
            }

            /// The id of an index (indices beyond `u32` do not occur: tables are small).
            pub fn of(index: usize) -> $name {
                $name(u32::try_from(index).unwrap_or(u32::MAX))
            }
        }

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
    /// A character sheet: its index in `State::characters`.
    CharacterId,
    "character "
);
id!(
    /// A Challenge: its index in `State::challenges`.
    ChallengeId,
    "challenge "
);
