//! Events: what happened. They are the game's only record; [`crate::evolve`] folds them into
//! the state and never fails. Dice results live inside them, so replay never re-rolls.
//!
//! # Stored form
//!
//! The store keeps [`StoredEvent`]s: an event tagged with the version of its shape, which in
//! JSON reads `{"v":"1","type":"player_joined",…}`. A change to an event's shape freezes the
//! old enum under a new name as a variant of `StoredEvent` (`V1(EventV1)`), adds the new one
//! (`V2(Event)`), and upgrades old events in [`StoredEvent::into_event`]. The tests replay a
//! game stored by the first version, so a stored game keeps loading.

use crate::ids::{AspectId, LineId, ObjectId, PairId, PlayerId, SceneId, Timestamp};
use crate::model::{AspectCategory, CheckRecord, ObjectKind, Phase, ProphecySource, TextRef};
use crate::ruleset::Ruleset;
use serde::{Deserialize, Serialize};

/// Something that happened in a game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[allow(missing_docs)] // Fields repeat the commands' (see `Action`).
pub enum Event {
    GameOpened {
        ruleset: Ruleset,
    },
    PlayerJoined {
        player: PlayerId,
        name: String,
    },
    PlayerRemoved {
        player: PlayerId,
    },
    ModeratorChosen {
        player: Option<PlayerId>,
    },
    LineAdded {
        line: LineId,
        text: String,
    },
    LineRemoved {
        line: LineId,
    },
    /// Anonymous: the event does not say who flagged.
    Flagged {
        target: TextRef,
    },
    ProphecyReceived {
        source: ProphecySource,
        text: String,
    },
    ProphecyEdited {
        text: String,
    },
    PhaseBegan {
        phase: Phase,
    },
    CharacterCreated {
        object: ObjectId,
        player: PlayerId,
        name: String,
    },
    ObjectCreated {
        object: ObjectId,
        name: String,
        kind: ObjectKind,
    },
    ObjectRenamed {
        object: ObjectId,
        name: String,
    },
    ObjectRemoved {
        object: ObjectId,
    },
    AspectAttached {
        aspect: AspectId,
        object: ObjectId,
        text: String,
        category: Option<AspectCategory>,
    },
    AspectEdited {
        aspect: AspectId,
        text: String,
    },
    AspectRemoved {
        aspect: AspectId,
    },
    FlashbackNarrated {
        text: String,
    },
    SceneSketched {
        scene: SceneId,
        parent: Option<SceneId>,
        objective: String,
        difficulty: u32,
    },
    ObjectiveEdited {
        scene: SceneId,
        objective: String,
    },
    SceneRemoved {
        scene: SceneId,
    },
    SettingChanged {
        scene: SceneId,
        time: String,
        place: String,
    },
    ObjectPlaced {
        scene: SceneId,
        object: ObjectId,
    },
    ObjectWithdrawn {
        scene: SceneId,
        object: ObjectId,
    },
    SceneStarted {
        scene: SceneId,
        at: Timestamp,
    },
    PairProposed {
        pair: PairId,
        scene: SceneId,
        character_aspect: AspectId,
        environment_aspect: AspectId,
        by: PlayerId,
        justification: String,
    },
    PairWithdrawn {
        pair: PairId,
    },
    JustificationEdited {
        pair: PairId,
        justification: String,
    },
    CheckMade {
        scene: SceneId,
        check: CheckRecord,
    },
    Narrated {
        scene: SceneId,
        text: String,
    },
    SceneFinished {
        scene: SceneId,
    },
    LongTermEffectsNarrated {
        text: String,
    },
    GameEnded,
}

/// An event as stored: tagged with the version of its shape.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "v")]
pub enum StoredEvent {
    /// The first shape (the current one).
    #[serde(rename = "1")]
    V1(Event),
}

impl StoredEvent {
    /// The event in the current shape, upgrading older ones.
    pub fn into_event(self) -> Event {
        match self {
            StoredEvent::V1(event) => event,
        }
    }
}

impl From<Event> for StoredEvent {
    fn from(event: Event) -> StoredEvent {
        StoredEvent::V1(event)
    }
}
