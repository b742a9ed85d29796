//! The rules: which commands the game accepts, and the events they become.

use crate::command::{Action, Command};
use crate::event::Event;
use crate::ids::{ObjectId, PlayerId, SceneId, Timestamp};
use crate::model::{Motion, ObjectKind, Phase, Scene, TextRef};
use crate::refusal::Refusal;
use crate::state::State;

/// Explicit limits, so that no table can grow without bound.
pub mod limits {
    /// Players at one table at once (removed players do not count).
    pub const PLAYERS: usize = 12;
    /// Seats ever taken at one table, removed ones included (the state keeps every player).
    pub const SEATS_EVER: usize = 100;
    /// Scenes in an outline (the rules advise at most eight).
    pub const SCENES: usize = 64;
    /// Objects, characters included.
    pub const OBJECTS: usize = 300;
    /// Aspects on one object.
    pub const ASPECTS_PER_OBJECT: usize = 30;
    /// Pairs proposed for one check.
    pub const PAIRS_PER_CHECK: usize = 30;
    /// Lines (excluded content).
    pub const LINES: usize = 50;
    /// A player's, character's or object's name, in characters.
    pub const NAME: usize = 80;
    /// An aspect.
    pub const ASPECT: usize = 120;
    /// A scene's objective.
    pub const OBJECTIVE: usize = 300;
    /// A scene's time, or its place.
    pub const SETTING: usize = 120;
    /// A pair's justification.
    pub const JUSTIFICATION: usize = 300;
    /// A line.
    pub const LINE: usize = 200;
    /// The prophecy, a narration, the flashback or the long-term effects.
    pub const LONG_TEXT: usize = 4_000;
    /// The moderator's question.
    pub const QUESTION: usize = 300;
    /// Minutes added to a scene's timer at once.
    pub const EXTEND_MINUTES: u32 = 30;
    /// Faces typed in for one check (the pool and every die a six added).
    pub const FACES: usize = 200;
}

mod checks;
mod motions;
mod objects;
mod outline;
mod pairs;
mod prophecy;
mod safety;
mod scenes;
mod table;
mod timer;

use table::join;
use timer::timer_follows;

type Decision = Result<Vec<Event>, Refusal>;

/// Checks a command against the rules and the state; the events it becomes, or why not.
pub fn decide(state: &State, command: Command) -> Decision {
    let at = command.at;
    let mut events = decide_action(state, command)?;
    timer_follows(state, at, &mut events);
    Ok(events)
}

fn decide_action(state: &State, command: Command) -> Decision {
    let by = command.by;
    let at = command.at;
    match command.action {
        Action::Open { ruleset } => {
            if state.opened {
                return Err(Refusal::AlreadyOpened);
            }
            Ok(vec![Event::GameOpened { ruleset }])
        }
        action => {
            if !state.opened {
                return Err(Refusal::NotOpened);
            }
            if state.phase == Phase::Ended && !after_the_end(&action) {
                return Err(Refusal::GameOver);
            }
            if let Action::Join { name } = action {
                return join(state, by, name);
            }
            if !state.is_present(by) {
                return Err(Refusal::NotAtTable);
            }
            Rules { state, by, at }.decide(action)
        }
    }
}

/// What a table may still do once the story is told: publish it (a proposal) or withdraw it,
/// let watchers replay it (a proposal) or close their link, and remove a player who left, whose agreement the proposal would otherwise wait for.
fn after_the_end(action: &Action) -> bool {
    matches!(
        action,
        Action::Propose {
            motion: Motion::Publish | Motion::Watch,
            ..
        } | Action::Agree { .. }
            | Action::Stop { .. }
            | Action::WithdrawStory
            | Action::CloseWatch
            | Action::RemovePlayer { .. }
    )
}

/// A trimmed, non-empty text within its limit.
fn text(what: &'static str, value: &str, max: usize) -> Result<String, Refusal> {
    let value = value.trim();
    if value.is_empty() {
        return Err(Refusal::Empty { what });
    }
    if value.chars().count() > max {
        return Err(Refusal::TooLong { what, max });
    }
    Ok(value.to_owned())
}

/// A trimmed text within its limit that may be empty.
fn optional_text(what: &'static str, value: &str, max: usize) -> Result<String, Refusal> {
    let value = value.trim();
    if value.chars().count() > max {
        return Err(Refusal::TooLong { what, max });
    }
    Ok(value.to_owned())
}

struct Rules<'a> {
    state: &'a State,
    by: PlayerId,
    at: Timestamp,
}

impl Rules<'_> {
    fn new_id(&self) -> u32 {
        self.state.next_id
    }

    fn only_in(
        &self,
        phases: &[Phase],
        what: &'static str,
        when: &'static str,
    ) -> Result<(), Refusal> {
        if phases.contains(&self.state.phase) {
            Ok(())
        } else {
            Err(Refusal::NotNow {
                what,
                when,
                phase: self.state.phase,
            })
        }
    }

    fn not_paused(&self) -> Result<(), Refusal> {
        if self.state.paused() {
            Err(Refusal::Paused)
        } else {
            Ok(())
        }
    }

    fn not_moderator(&self, what: &'static str) -> Result<(), Refusal> {
        if self.state.moderator == Some(self.by) {
            Err(Refusal::ModeratorCannot { what })
        } else {
            Ok(())
        }
    }

    /// The moderator may replace a flagged text like anyone (a safety tool), nothing else.
    fn not_moderator_unless_flagged(
        &self,
        what: &'static str,
        target: TextRef,
    ) -> Result<(), Refusal> {
        if self.state.is_flagged(target) {
            Ok(())
        } else {
            self.not_moderator(what)
        }
    }

    fn scene(&self, id: SceneId) -> Result<&Scene, Refusal> {
        self.state
            .scenes
            .get(&id)
            .ok_or(Refusal::Unknown { what: "scene" })
    }

    fn object_kind(&self, id: ObjectId) -> Result<ObjectKind, Refusal> {
        self.state
            .objects
            .get(&id)
            .map(|o| o.kind)
            .ok_or(Refusal::Unknown { what: "object" })
    }

    /// Characters are changed only by their player; unowned ones and other objects by anyone.
    fn may_change(&self, object: ObjectId) -> Result<(), Refusal> {
        match self.object_kind(object)? {
            ObjectKind::Character { player: Some(p) } if p != self.by => {
                Err(Refusal::NotYourCharacter)
            }
            _ => Ok(()),
        }
    }

    fn unperformed(&self, scene: SceneId) -> Result<&Scene, Refusal> {
        let s = self.scene(scene)?;
        if s.performed {
            return Err(Refusal::AlreadyPerformed);
        }
        Ok(s)
    }

    fn in_progress(&self, scene: SceneId) -> Result<&Scene, Refusal> {
        let s = self.scene(scene)?;
        if self.state.in_progress != Some(scene) {
            return Err(Refusal::NotInProgress);
        }
        Ok(s)
    }

    /// The rules of each action, found by area: the table, safety, motions, the timer, the
    /// prophecy, objects, the outline, scenes, pairs and checks (one module each).
    fn decide(&self, action: Action) -> Decision {
        match action {
            Action::Open { .. } | Action::Join { .. } => unreachable!("handled by `decide`"),
            // table.rs
            Action::RemovePlayer { player } => self.remove_player(player),
            Action::WithdrawStory => self.withdraw_story(),
            Action::CloseWatch => self.close_watch(),
            Action::AskQuestion { text } => self.ask_question(text),
            // safety.rs
            Action::AddLine { text } => self.add_line(text),
            Action::RemoveLine { line } => self.remove_line(line),
            Action::Flag { target } => self.flag(target),
            Action::Pause => self.pause(),
            Action::Resume => self.resume(),
            // motions.rs
            Action::Propose { motion, seed } => self.propose(motion, seed),
            Action::Agree { proposal, seed } => self.agree(proposal, seed),
            Action::Stop { proposal } => self.stop(proposal),
            // timer.rs
            Action::HoldTimer => self.hold_timer(),
            Action::ReleaseTimer => self.release_timer(),
            Action::ExtendTimer { minutes } => self.extend_timer(minutes),
            Action::ResetTimer => self.reset_timer(),
            // prophecy.rs
            Action::RollCatastrophe { world, seed } => self.roll_catastrophe(world, seed),
            Action::PickModule { module } => self.pick_module(module),
            Action::WriteProphecy { text } => self.write_prophecy(text),
            // objects.rs
            Action::CreateCharacter { name } => self.create_character(name),
            Action::CreateObject { name, kind } => self.create_object(name, kind),
            Action::Rename { object, name } => self.rename(object, name),
            Action::RemoveObject { object } => self.remove_object(object),
            Action::AttachAspect {
                object,
                text,
                category,
            } => self.attach_aspect(object, text, category),
            Action::EditAspect { aspect, text } => self.edit_aspect(aspect, text),
            Action::RemoveAspect { aspect } => self.remove_aspect(aspect),
            // outline.rs
            Action::NarrateFlashback { text } => self.narrate_flashback(text),
            Action::SketchFinale { objective } => self.sketch_finale(objective),
            Action::SketchScene { parent, objective } => self.sketch_scene(parent, objective),
            Action::EditObjective { scene, objective } => self.edit_objective(scene, objective),
            Action::RemoveScene { scene } => self.remove_scene(scene),
            Action::SetSetting { scene, time, place } => self.set_setting(scene, time, place),
            Action::PlaceObject { scene, object } => self.place_object(scene, object),
            Action::WithdrawObject { scene, object } => self.withdraw_object(scene, object),
            // scenes.rs
            Action::StartScene { scene } => self.start_scene(scene),
            Action::CancelScene { scene } => self.cancel_scene(scene),
            Action::Narrate { scene, text } => self.narrate(scene, text),
            Action::FinishScene { scene } => self.finish_scene(scene),
            Action::NarrateLongTermEffects { text } => self.narrate_long_term_effects(text),
            // pairs.rs
            Action::ProposePair {
                scene,
                character_aspect,
                environment_aspect,
                justification,
            } => self.propose_pair(scene, character_aspect, environment_aspect, justification),
            Action::EditJustification {
                pair,
                justification,
            } => self.edit_justification(pair, justification),
            Action::WithdrawPair { pair } => self.withdraw_pair(pair),
            Action::AcceptPair { pair } => self.accept_pair(pair),
            Action::ObjectToPair { pair } => self.object_to_pair(pair),
            // checks.rs
            Action::EnterFaces { scene, faces } => self.enter_faces(scene, faces),
        }
    }
}
