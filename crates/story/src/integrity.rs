//! Whether a log could have happened: each event checked against the state before it.
//!
//! [`crate::decide()`] never produces an event that refers to a player who never joined, to an
//! object, aspect, scene, pair, line or text that does not exist (or no longer does), that hands
//! out an id already in use, sketches a second Finale, removes a scene that still has precursors
//! or something a pair still uses, or closes the outline into a cycle. A log holding one was
//! written by hand, damaged or crafted: it has no consistent state, and [`State::admits`] says
//! which event and why, so that readers of untrusted logs ([`State::replay_checked`]) refuse it
//! before anything derived from the state is shown.
//!
//! The rules themselves (phases, turns, limits, difficulties) are not checked here: a log that
//! bends them still has a state that can be shown, and [`crate::evolve`] accepts any event.
//! Checking an event takes time in the size of what it touches (an object's aspects, or one walk
//! up the outline when a scene is sketched again), never in the size of the whole game.

use crate::event::Event;
use crate::ids::{AspectId, LineId, ObjectId, PairId, PlayerId, SceneId};
use crate::model::{AspectCategory, ObjectKind, TextRef};
use crate::state::{State, evolve};
use std::fmt;

/// Something an event names by id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Thing {
    /// A player.
    Player(PlayerId),
    /// An object (characters included).
    Object(ObjectId),
    /// An aspect.
    Aspect(AspectId),
    /// A scene.
    Scene(SceneId),
    /// A proposed pair.
    Pair(PairId),
    /// A line.
    Line(LineId),
    /// A text that can be flagged or edited.
    Text(TextRef),
}

impl fmt::Display for Thing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Thing::Player(id) => write!(f, "{id}"),
            Thing::Object(id) => write!(f, "{id}"),
            Thing::Aspect(id) => write!(f, "{id}"),
            Thing::Scene(id) => write!(f, "{id}"),
            Thing::Pair(id) => write!(f, "{id}"),
            Thing::Line(id) => write!(f, "{id}"),
            Thing::Text(text) => match text {
                TextRef::Prophecy => f.write_str("the prophecy"),
                TextRef::ObjectName(id) => write!(f, "the name of {id}"),
                TextRef::Aspect(id) => write!(f, "{id}"),
                TextRef::Objective(id) => write!(f, "the objective of {id}"),
                TextRef::Setting(id) => write!(f, "the setting of {id}"),
                TextRef::Narration(id) => write!(f, "the narration of {id}"),
                TextRef::Justification(id) => write!(f, "the justification of {id}"),
                TextRef::Flashback => f.write_str("the flashback"),
                TextRef::LongTermEffects => f.write_str("the long-term effects"),
                TextRef::Question => f.write_str("the moderator's question"),
            },
        }
    }
}

/// Why an event cannot follow the state before it. `Display` is one line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Impossible {
    /// An event before the one that opens the game.
    NotOpened,
    /// The game is opened a second time.
    OpenedTwice,
    /// A player joins who already joined.
    JoinedTwice {
        /// The player.
        player: PlayerId,
    },
    /// The event names something that does not exist: never created, or removed.
    Missing {
        /// What it names.
        thing: Thing,
    },
    /// An id is handed out a second time while the thing that has it exists.
    IdInUse {
        /// The thing that already has the id.
        thing: Thing,
    },
    /// A Finale is sketched while the outline has one.
    SecondFinale {
        /// The Finale the outline has.
        finale: SceneId,
    },
    /// A scene would be below itself.
    Cycle {
        /// The scene.
        scene: SceneId,
    },
    /// A scene is removed while another is still its precursor.
    HasPrecursors {
        /// The scene removed.
        scene: SceneId,
        /// One of its precursors.
        precursor: SceneId,
    },
    /// A scene is removed while it is being performed.
    BeingPerformed {
        /// The scene.
        scene: SceneId,
    },
    /// An aspect, or the object it describes, is removed while a pair uses the aspect.
    UsedInPair {
        /// What is removed: the aspect or its object.
        removed: Thing,
        /// The aspect the pair uses.
        aspect: AspectId,
        /// The pair.
        pair: PairId,
    },
}

impl fmt::Display for Impossible {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Impossible::NotOpened => f.write_str("an event before the game is opened"),
            Impossible::OpenedTwice => f.write_str("the game is opened a second time"),
            Impossible::JoinedTwice { player } => write!(f, "{player} joins a second time"),
            Impossible::Missing {
                thing: Thing::Player(player),
            } => write!(f, "{player} never joined the table"),
            Impossible::Missing { thing } => write!(f, "{thing} does not exist"),
            Impossible::IdInUse { thing } => {
                write!(f, "{thing} already exists (an id is handed out once)")
            }
            Impossible::SecondFinale { finale } => {
                write!(f, "a second Finale ({finale} is the Finale)")
            }
            Impossible::Cycle { scene } => {
                write!(f, "{scene} is its own ancestor (a cycle in the outline)")
            }
            Impossible::HasPrecursors { scene, precursor } => write!(
                f,
                "{scene} is removed while {precursor} is still its precursor"
            ),
            Impossible::BeingPerformed { scene } => {
                write!(f, "{scene} is removed while it is being performed")
            }
            Impossible::UsedInPair {
                removed,
                aspect,
                pair,
            } => {
                if *removed == Thing::Aspect(*aspect) {
                    write!(f, "{aspect} is removed while {pair} uses it")
                } else {
                    write!(f, "{removed} is removed while {pair} uses its {aspect}")
                }
            }
        }
    }
}

impl std::error::Error for Impossible {}

/// A log with an event that could not have happened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BrokenLog {
    /// Where the event is in the log, from 0 (the store's seq and a file's line are the
    /// caller's to name).
    pub position: usize,
    /// Why it could not have happened.
    pub problem: Impossible,
}

impl fmt::Display for BrokenLog {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "event {}: {}", self.position + 1, self.problem)
    }
}

impl std::error::Error for BrokenLog {}

type Check = Result<(), Impossible>;

fn missing(thing: Thing) -> Impossible {
    Impossible::Missing { thing }
}

impl State {
    /// Replays a log from the beginning, checking each event against the state before it (see
    /// this module): the state, or the first event that could not have happened.
    pub fn replay_checked<'a>(
        events: impl IntoIterator<Item = &'a Event>,
    ) -> Result<State, BrokenLog> {
        let mut state = State::default();
        for (position, event) in events.into_iter().enumerate() {
            state
                .admits(event)
                .map_err(|problem| BrokenLog { position, problem })?;
            state = evolve(state, event);
        }
        Ok(state)
    }

    /// Whether `event` can follow this state: `Ok` for every event [`crate::decide()`] returns,
    /// and the reason for one no decision could have produced (see [`crate::integrity`]).
    pub fn admits(&self, event: &Event) -> Check {
        if !self.opened {
            return match event {
                Event::GameOpened { .. } => Ok(()),
                _ => Err(Impossible::NotOpened),
            };
        }
        match event {
            Event::GameOpened { .. } => Err(Impossible::OpenedTwice),
            Event::PlayerJoined { player, .. } => {
                if self.players.contains_key(player) {
                    return Err(Impossible::JoinedTwice { player: *player });
                }
                Ok(())
            }
            Event::PlayerRemoved { player } => self.player(*player),
            Event::ModeratorChosen { player } => player.map_or(Ok(()), |p| self.player(p)),
            Event::LineAdded { line, by, .. } => {
                fresh(self.lines.contains_key(line), Thing::Line(*line))?;
                by.map_or(Ok(()), |p| self.player(p))
            }
            Event::TablePaused { by } => by.map_or(Ok(()), |p| self.player(p)),
            Event::ProposalMade { by, .. }
            | Event::ProposalAgreed { by, .. }
            | Event::ProposalStopped { by, .. } => self.player(*by),
            Event::PairAccepted { pair, by } | Event::PairObjected { pair, by } => {
                exists(self.pairs.contains_key(pair), Thing::Pair(*pair))?;
                self.player(*by)
            }
            Event::SceneCancelled { scene } | Event::DiceCalledFor { scene } => self.scene(*scene),
            Event::TableResumed
            | Event::ProposalCarried { .. }
            | Event::DiceChosen { .. }
            | Event::StoryPublished
            | Event::StoryWithdrawn
            | Event::WatchOpened
            | Event::WatchClosed
            | Event::TimerStarted { .. }
            | Event::TimerStopped { .. }
            | Event::TimerCounting { .. }
            | Event::TimerHeld
            | Event::TimerReleased
            | Event::TimerExtended { .. }
            | Event::TimerReset { .. }
            | Event::QuestionAsked { .. } => Ok(()),
            Event::LineRemoved { line } => {
                exists(self.lines.contains_key(line), Thing::Line(*line))
            }
            Event::Flagged { target } => exists(self.text_exists(*target), Thing::Text(*target)),
            Event::ProphecyReceived { .. }
            | Event::PhaseBegan { .. }
            | Event::FlashbackNarrated { .. }
            | Event::LongTermEffectsNarrated { .. }
            | Event::GameEnded => Ok(()),
            Event::ProphecyEdited { .. } => {
                exists(self.prophecy.is_some(), Thing::Text(TextRef::Prophecy))
            }
            Event::CharacterCreated { object, player, .. } => {
                self.new_object(*object)?;
                self.player(*player)
            }
            Event::ObjectCreated { object, kind, .. } => {
                self.new_object(*object)?;
                match kind {
                    ObjectKind::Character { player: Some(p) } => self.player(*p),
                    _ => Ok(()),
                }
            }
            Event::ObjectRenamed { object, .. } => self.object(*object),
            Event::ObjectRemoved { object } => {
                self.object(*object)?;
                for (aspect, _) in self.aspects_of(*object) {
                    self.unused(Thing::Object(*object), aspect)?;
                }
                Ok(())
            }
            Event::AspectAttached {
                aspect,
                object,
                category,
                ..
            } => {
                fresh(self.aspects.contains_key(aspect), Thing::Aspect(*aspect))?;
                self.object(*object)?;
                match category {
                    Some(AspectCategory::Relationship { with }) => self.object(*with),
                    _ => Ok(()),
                }
            }
            Event::AspectEdited { aspect, .. } => self.aspect(*aspect),
            Event::AspectRemoved { aspect } => {
                self.aspect(*aspect)?;
                self.unused(Thing::Aspect(*aspect), *aspect)
            }
            Event::SceneSketched { scene, parent, .. } => self.sketchable(*scene, *parent),
            Event::ObjectiveEdited { scene, .. }
            | Event::SettingChanged { scene, .. }
            | Event::SceneStarted { scene, .. }
            | Event::CheckMade { scene, .. }
            | Event::Narrated { scene, .. }
            | Event::SceneFinished { scene } => self.scene(*scene),
            Event::SceneRemoved { scene } => {
                let Some(s) = self.scenes.get(scene) else {
                    return Err(missing(Thing::Scene(*scene)));
                };
                if let Some(precursor) = s.precursors.first() {
                    return Err(Impossible::HasPrecursors {
                        scene: *scene,
                        precursor: *precursor,
                    });
                }
                if self.in_progress == Some(*scene) {
                    return Err(Impossible::BeingPerformed { scene: *scene });
                }
                Ok(())
            }
            Event::ObjectPlaced { scene, object } => {
                self.scene(*scene)?;
                self.object(*object)
            }
            Event::ObjectWithdrawn { scene, object } => {
                self.scene(*scene)?;
                self.object(*object)
            }
            Event::PairProposed {
                pair,
                scene,
                character_aspect,
                environment_aspect,
                by,
                ..
            } => {
                fresh(self.pairs.contains_key(pair), Thing::Pair(*pair))?;
                self.scene(*scene)?;
                self.aspect(*character_aspect)?;
                self.aspect(*environment_aspect)?;
                self.player(*by)
            }
            Event::PairWithdrawn { pair } | Event::JustificationEdited { pair, .. } => {
                exists(self.pairs.contains_key(pair), Thing::Pair(*pair))
            }
        }
    }

    fn player(&self, player: PlayerId) -> Check {
        exists(self.players.contains_key(&player), Thing::Player(player))
    }

    fn object(&self, object: ObjectId) -> Check {
        exists(self.objects.contains_key(&object), Thing::Object(object))
    }

    fn new_object(&self, object: ObjectId) -> Check {
        fresh(self.objects.contains_key(&object), Thing::Object(object))
    }

    fn aspect(&self, aspect: AspectId) -> Check {
        exists(self.aspects.contains_key(&aspect), Thing::Aspect(aspect))
    }

    fn scene(&self, scene: SceneId) -> Check {
        exists(self.scenes.contains_key(&scene), Thing::Scene(scene))
    }

    /// No pair uses `aspect`, which is about to go with `removed`.
    fn unused(&self, removed: Thing, aspect: AspectId) -> Check {
        match self.pair_using(aspect) {
            Some(pair) => Err(Impossible::UsedInPair {
                removed,
                aspect,
                pair,
            }),
            None => Ok(()),
        }
    }

    /// Whether a text exists to be flagged.
    pub(crate) fn text_exists(&self, target: TextRef) -> bool {
        match target {
            TextRef::Prophecy => self.prophecy.is_some(),
            TextRef::ObjectName(o) => self.objects.contains_key(&o),
            TextRef::Aspect(a) => self.aspects.contains_key(&a),
            TextRef::Objective(s) | TextRef::Setting(s) => self.scenes.contains_key(&s),
            TextRef::Narration(s) => self.scenes.get(&s).is_some_and(|x| x.narration.is_some()),
            TextRef::Justification(p) => self.pairs.contains_key(&p),
            TextRef::Flashback => self.flashback.is_some(),
            TextRef::LongTermEffects => self.long_term_effects.is_some(),
            TextRef::Question => self.question.is_some(),
        }
    }

    /// A new scene under an existing parent, or a Finale when there is none.
    fn sketchable(&self, scene: SceneId, parent: Option<SceneId>) -> Check {
        if let Some(parent) = parent {
            // Only a scene that already exists can be an ancestor of its parent; walking up is
            // bounded by the number of scenes, so a state with a cycle already cannot loop.
            let mut at = Some(parent);
            let mut steps = 0;
            while let Some(id) = at {
                if id == scene {
                    return Err(Impossible::Cycle { scene });
                }
                if !self.scenes.contains_key(&scene) || steps > self.scenes.len() {
                    break;
                }
                steps += 1;
                at = self.scenes.get(&id).and_then(|s| s.parent);
            }
        }
        fresh(self.scenes.contains_key(&scene), Thing::Scene(scene))?;
        match parent {
            Some(parent) => self.scene(parent),
            None => match self.finale {
                Some(finale) => Err(Impossible::SecondFinale { finale }),
                None => Ok(()),
            },
        }
    }
}

fn exists(found: bool, thing: Thing) -> Check {
    if found { Ok(()) } else { Err(missing(thing)) }
}

fn fresh(found: bool, thing: Thing) -> Check {
    if found {
        Err(Impossible::IdInUse { thing })
    } else {
        Ok(())
    }
}
