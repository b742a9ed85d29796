//! Identifiers. Players' ids come from the table layer; every card, character and space is named
//! by its index in the game's [`Content`](crate::content::Content) (a Chance card's id is its
//! entry in `Content::chance`, so its copies share one id).

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

            /// The id of an index (indices beyond `u32` do not occur: content is small).
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
    /// A character card: its index in `Content::characters`.
    CharacterId,
    "character "
);
id!(
    /// A space of the ring: its index in `Board::spaces`.
    SpaceId,
    "space "
);
id!(
    /// A yellow Adventure card: its index in `Content::adventures`.
    AdventureId,
    "adventure "
);
id!(
    /// A green Chance card: its index in `Content::chance` (copies share the id).
    ChanceId,
    "chance card "
);
id!(
    /// An Item card: its index in `Content::items`.
    ItemId,
    "item "
);
