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

use crate::ids::{AspectId, LineId, ObjectId, PairId, PlayerId, ProposalId, SceneId, Timestamp};
use crate::model::{
    AspectCategory, CheckRecord, Motion, ObjectKind, Phase, ProphecySource, TextRef, Timed,
};
use crate::ruleset::Ruleset;
use serde::{Deserialize, Serialize};
use std::fmt;

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
        /// Who drew it: only they may lift it. Never shown to the others (see
        /// [`crate::redact`]); `None` in games from before lines had authors.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        by: Option<PlayerId>,
    },
    LineRemoved {
        line: LineId,
    },
    /// Anonymous: the event does not say who flagged.
    Flagged {
        target: TextRef,
    },
    /// The X-card. `by` lets whoever paused resume at once; it is never shown to the others.
    TablePaused {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        by: Option<PlayerId>,
    },
    TableResumed,
    ProposalMade {
        proposal: ProposalId,
        motion: Motion,
        by: PlayerId,
    },
    ProposalAgreed {
        proposal: ProposalId,
        by: PlayerId,
    },
    ProposalStopped {
        proposal: ProposalId,
        by: PlayerId,
    },
    /// Everyone agreed; the motion's own events follow.
    ProposalCarried {
        proposal: ProposalId,
    },
    DiceChosen {
        physical: bool,
    },
    /// The table agreed to publish the story; the server gives the page its link.
    StoryPublished,
    /// Anonymous: the published page is gone.
    StoryWithdrawn,
    /// The table agreed to let watchers follow it; the server gives the watch page its link.
    WatchOpened,
    /// Anonymous: the watch link is closed.
    WatchClosed,
    /// Temporal Mechanics' flashback or flashforward begins (scenes start with
    /// `SceneStarted`).
    TimerStarted {
        timed: Timed,
        at: Timestamp,
    },
    /// Play paused, or the timer was held: it stops counting.
    TimerStopped {
        at: Timestamp,
    },
    /// It counts again.
    TimerCounting {
        at: Timestamp,
    },
    TimerHeld,
    TimerReleased,
    TimerExtended {
        minutes: u32,
    },
    TimerReset {
        at: Timestamp,
    },
    QuestionAsked {
        text: String,
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
    SceneCancelled {
        scene: SceneId,
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
    PairAccepted {
        pair: PairId,
        by: PlayerId,
    },
    PairObjected {
        pair: PairId,
        by: PlayerId,
    },
    /// The table agreed to the check and rolls real dice; the faces come in `CheckMade`.
    DiceCalledFor {
        scene: SceneId,
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

impl Event {
    /// The `type` of every event in the stored form: for readers that explain a line they
    /// cannot read ("unknown type 'foo'") without quoting serde.
    pub fn stored_types() -> &'static [&'static str] {
        tag_names::<Event>("type")
    }
}

impl StoredEvent {
    /// The versions of the stored form (`v`) this build reads.
    pub fn versions() -> &'static [&'static str] {
        tag_names::<StoredEvent>("v")
    }
}

/// The names serde accepts for the tag of an internally tagged enum, read from the enum itself
/// (so they cannot drift from it): it is asked to read a tag that no variant has, and its
/// complaint lists the variants.
fn tag_names<T: for<'de> Deserialize<'de>>(tag: &'static str) -> &'static [&'static str] {
    #[derive(Debug)]
    struct Names(&'static [&'static str]);

    impl fmt::Display for Names {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "{:?}", self.0)
        }
    }

    impl std::error::Error for Names {}

    impl serde::de::Error for Names {
        fn custom<M: fmt::Display>(_: M) -> Names {
            Names(&[])
        }

        fn unknown_variant(_: &str, expected: &'static [&'static str]) -> Names {
            Names(expected)
        }
    }

    let probe = serde::de::value::MapDeserializer::<_, Names>::new(std::iter::once((tag, "")));
    match T::deserialize(probe) {
        Ok(_) => &[],
        Err(Names(names)) => names,
    }
}

impl From<Event> for StoredEvent {
    fn from(event: Event) -> StoredEvent {
        StoredEvent::V1(event)
    }
}

#[cfg(test)]
mod tests {
    use super::{Event, StoredEvent};

    #[test]
    fn the_stored_names_are_serde_s() {
        assert_eq!(StoredEvent::versions(), ["1"]);
        let types = Event::stored_types();
        for name in ["game_opened", "scene_sketched", "check_made", "game_ended"] {
            assert!(types.contains(&name), "{name} in {types:?}");
        }
        // Every one of them: the enum's variants, in order.
        assert_eq!(types.first(), Some(&"game_opened"));
        assert_eq!(types.last(), Some(&"game_ended"));
    }
}
