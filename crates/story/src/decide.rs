//! The rules: which commands the game accepts, and the events they become.

use crate::command::{Action, Command};
use crate::content::World;
use crate::event::Event;
use crate::ids::{AspectId, LineId, ObjectId, PairId, PlayerId, ProposalId, SceneId, Timestamp};
use crate::model::{
    AspectCategory, CheckRecord, Motion, ObjectKind, Phase, ProphecySource, Scene, TextRef, Timed,
};
use crate::refusal::Refusal;
use crate::state::State;
use dice::Seed;
use dice::check;
use dice::d66;

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

type Decision = Result<Vec<Event>, Refusal>;

/// Checks a command against the rules and the state; the events it becomes, or why not.
pub fn decide(state: &State, command: Command) -> Decision {
    let at = command.at;
    let mut events = decide_action(state, command)?;
    timer_follows(state, at, &mut events);
    Ok(events)
}

/// The scene timer stops while play is paused or the timer is held, and counts again after:
/// whatever the command, if its events change that, the timer's own event follows them.
fn timer_follows(state: &State, at: Timestamp, events: &mut Vec<Event>) {
    let starts_timer = |e: &Event| {
        matches!(
            e,
            Event::SceneStarted { .. } | Event::TimerStarted { .. } | Event::TimerReset { .. }
        )
    };
    if state.timer.is_none() && !events.iter().any(starts_timer) {
        return;
    }
    // While play runs and the timer is not held, only these can stop it: no need to fold the
    // events into a copy of the state (a large game's copy costs more than the decision).
    let stops = |e: &Event| {
        matches!(
            e,
            Event::Flagged { .. } | Event::TablePaused { .. } | Event::TimerHeld
        )
    };
    let stopped = state.timer_should_stop();
    if !stopped && !events.iter().any(|e| stops(e) || starts_timer(e)) {
        return;
    }
    let after = events.iter().fold(state.clone(), crate::evolve);
    let Some(timer) = after.timer else { return };
    match (after.timer_should_stop(), timer.stopped_since.is_some()) {
        (true, false) => events.push(Event::TimerStopped { at }),
        (false, true) => events.push(Event::TimerCounting { at }),
        _ => {}
    }
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
/// and remove a player who left, whose agreement the proposal would otherwise wait for.
fn after_the_end(action: &Action) -> bool {
    matches!(
        action,
        Action::Propose {
            motion: Motion::Publish,
            ..
        } | Action::Agree { .. }
            | Action::Stop { .. }
            | Action::WithdrawStory
            | Action::RemovePlayer { .. }
    )
}

fn join(state: &State, by: PlayerId, name: String) -> Decision {
    if state.players.contains_key(&by) {
        return Err(Refusal::AlreadyJoined);
    }
    if state.present_players().count() >= limits::PLAYERS {
        return Err(Refusal::TooMany {
            what: "players",
            max: limits::PLAYERS,
        });
    }
    if state.players.len() >= limits::SEATS_EVER {
        return Err(Refusal::TooMany {
            what: "seats ever taken (removed players included)",
            max: limits::SEATS_EVER,
        });
    }
    let name = text("name", &name, limits::NAME)?;
    Ok(vec![Event::PlayerJoined { player: by, name }])
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

    /// Timer controls: the moderator's when there is one, else anyone's.
    fn keeps_time(&self) -> Result<crate::model::Timer, Refusal> {
        if let Some(m) = self.state.moderator
            && m != self.by
        {
            return Err(Refusal::ModeratorKeepsTime);
        }
        self.state.timer.ok_or(Refusal::NoTimer)
    }

    /// Nothing changes the pool while the table decides on the check or rolls real dice.
    fn pool_open(&self, scene: SceneId) -> Result<(), Refusal> {
        if let Some(p) = &self.state.proposal
            && matches!(p.motion, Motion::MakeCheck { scene: s, .. } if s == scene)
        {
            return Err(Refusal::ProposalOpen { motion: p.motion });
        }
        let s = self.scene(scene)?;
        if s.check.is_some() {
            return Err(Refusal::AlreadyChecked);
        }
        if s.rolling {
            return Err(Refusal::Rolling);
        }
        Ok(())
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

    fn aspect_in_pair(&self, aspect: AspectId) -> bool {
        self.state.pair_using(aspect).is_some()
    }

    fn decide(&self, action: Action) -> Decision {
        let state = self.state;
        match action {
            Action::Open { .. } | Action::Join { .. } => unreachable!("handled by `decide`"),
            Action::RemovePlayer { player } => {
                if !state.is_present(player) {
                    return Err(Refusal::UnknownPlayer);
                }
                Ok(vec![Event::PlayerRemoved { player }])
            }
            Action::WithdrawStory => Ok(if state.published {
                vec![Event::StoryWithdrawn]
            } else {
                Vec::new()
            }),
            Action::AddLine { text: line } => {
                if state.lines.len() >= limits::LINES {
                    return Err(Refusal::TooMany {
                        what: "lines",
                        max: limits::LINES,
                    });
                }
                let text = text("line", &line, limits::LINE)?;
                Ok(vec![Event::LineAdded {
                    line: LineId(self.new_id()),
                    text,
                    by: Some(self.by),
                }])
            }
            Action::RemoveLine { line } => {
                if !state.lines.contains_key(&line) {
                    return Err(Refusal::Unknown { what: "line" });
                }
                // Lines from before they had authors can be lifted by anyone.
                if state.line_authors.get(&line).is_some_and(|a| *a != self.by) {
                    return Err(Refusal::NotYourLine);
                }
                Ok(vec![Event::LineRemoved { line }])
            }
            Action::Flag { target } => {
                if !state.text_exists(target) {
                    return Err(Refusal::Unknown { what: "text" });
                }
                if state.is_flagged(target) {
                    return Err(Refusal::AlreadyFlagged);
                }
                Ok(vec![Event::Flagged { target }])
            }
            Action::Pause => {
                if state.x_card.is_some() {
                    return Err(Refusal::AlreadyPaused);
                }
                Ok(vec![Event::TablePaused { by: Some(self.by) }])
            }
            Action::Resume => {
                let x_card = state.x_card.ok_or(Refusal::NotPaused)?;
                if x_card.by.is_some_and(|p| p != self.by) {
                    return Err(Refusal::NotYourPause);
                }
                Ok(vec![Event::TableResumed])
            }
            Action::Propose { motion, seed } => self.propose(motion, seed),
            Action::Agree { proposal, seed } => self.agree(proposal, seed),
            Action::Stop { proposal } => {
                let open = self.open_proposal(proposal)?;
                // The moderator does not vote, but may take back their own proposal.
                if !state.votes(self.by) && open.by != self.by {
                    return Err(Refusal::ModeratorCannot {
                        what: "vote on proposals",
                    });
                }
                Ok(vec![Event::ProposalStopped {
                    proposal,
                    by: self.by,
                }])
            }
            Action::HoldTimer => {
                if self.keeps_time()?.held {
                    return Ok(Vec::new());
                }
                Ok(vec![Event::TimerHeld])
            }
            Action::ReleaseTimer => {
                if !self.keeps_time()?.held {
                    return Ok(Vec::new());
                }
                Ok(vec![Event::TimerReleased])
            }
            Action::ExtendTimer { minutes } => {
                self.keeps_time()?;
                if !(1..=limits::EXTEND_MINUTES).contains(&minutes) {
                    return Err(Refusal::BadExtension {
                        max: limits::EXTEND_MINUTES,
                    });
                }
                Ok(vec![Event::TimerExtended { minutes }])
            }
            Action::ResetTimer => {
                self.keeps_time()?;
                Ok(vec![Event::TimerReset { at: self.at }])
            }
            Action::AskQuestion { text: question } => {
                // Anyone may replace a flagged question, or a table whose moderator left would
                // stay paused.
                if state.moderator != Some(self.by) && !state.is_flagged(TextRef::Question) {
                    return Err(Refusal::OnlyTheModeratorAsks);
                }
                let text = text("question", &question, limits::QUESTION)?;
                Ok(vec![Event::QuestionAsked { text }])
            }

            Action::RollCatastrophe { world, seed } => {
                self.only_in(
                    &[Phase::Prophecy],
                    "receiving the prophecy",
                    "before the characters are created",
                )?;
                check_world(&world)?;
                let roll = d66::roll(seed);
                Ok(vec![Event::ProphecyReceived {
                    source: ProphecySource::Catastrophe {
                        world: world.name.clone(),
                        roll,
                        seed,
                    },
                    text: world.catastrophe(roll).to_owned(),
                }])
            }
            Action::PickModule { module } => {
                self.only_in(
                    &[Phase::Prophecy],
                    "receiving the prophecy",
                    "before the characters are created",
                )?;
                let title = text("module title", &module.title, limits::NAME)?;
                let text = text("prophecy", &module.prophecy, limits::LONG_TEXT)?;
                Ok(vec![Event::ProphecyReceived {
                    source: ProphecySource::Module { title },
                    text,
                }])
            }
            Action::WriteProphecy { text: prophecy } => {
                // A flagged text can always be replaced, or play would stay paused for good.
                let replacing = state.is_flagged(TextRef::Prophecy);
                if !replacing && !matches!(state.phase, Phase::Prophecy | Phase::Characters) {
                    return Err(Refusal::ProphecyLocked);
                }
                let text = text("prophecy", &prophecy, limits::LONG_TEXT)?;
                Ok(vec![match state.prophecy {
                    Some(_) => Event::ProphecyEdited { text },
                    None => Event::ProphecyReceived {
                        source: ProphecySource::Written,
                        text,
                    },
                }])
            }

            Action::CreateCharacter { name } => {
                self.only_in(
                    &[Phase::Characters, Phase::Outline, Phase::Story],
                    "creating characters",
                    "once the prophecy is received",
                )?;
                self.not_moderator("play a character")?;
                if state.character_of(self.by).is_some() {
                    return Err(Refusal::AlreadyHasCharacter);
                }
                self.room_for_object()?;
                let name = text("name", &name, limits::NAME)?;
                Ok(vec![Event::CharacterCreated {
                    object: ObjectId(self.new_id()),
                    player: self.by,
                    name,
                }])
            }
            Action::CreateObject { name, kind } => {
                match kind {
                    ObjectKind::Character { .. } => return Err(Refusal::UseCreateCharacter),
                    ObjectKind::Npc if !state.ruleset.is_temporal() => {
                        return Err(Refusal::NpcsOnlyInTemporal);
                    }
                    _ => {}
                }
                self.not_moderator("create objects")?;
                self.room_for_object()?;
                let name = text("name", &name, limits::NAME)?;
                Ok(vec![Event::ObjectCreated {
                    object: ObjectId(self.new_id()),
                    name,
                    kind,
                }])
            }
            Action::Rename { object, name } => {
                // A flagged name can be replaced by anyone, or an absent owner would keep the
                // table paused.
                let flagged = TextRef::ObjectName(object);
                self.not_moderator_unless_flagged("rename objects", flagged)?;
                if !state.is_flagged(flagged) {
                    self.may_change(object)?;
                } else {
                    self.object_kind(object)?;
                }
                let name = text("name", &name, limits::NAME)?;
                Ok(vec![Event::ObjectRenamed { object, name }])
            }
            Action::RemoveObject { object } => {
                self.not_moderator("remove objects")?;
                let kind = self.object_kind(object)?;
                self.may_change(object)?;
                if kind.is_character() && state.phase >= Phase::Outline {
                    return Err(Refusal::CharacterStays);
                }
                if state
                    .aspects_of(object)
                    .any(|(id, _)| self.aspect_in_pair(id))
                {
                    return Err(Refusal::UsedInPair);
                }
                Ok(vec![Event::ObjectRemoved { object }])
            }
            Action::AttachAspect {
                object,
                text: aspect,
                category,
            } => {
                let kind = self.object_kind(object)?;
                self.not_moderator("attach aspects")?;
                self.may_change(object)?;
                if let Some(category) = category {
                    if !kind.is_character() {
                        return Err(Refusal::CategoryForCharactersOnly);
                    }
                    if let AspectCategory::Relationship { with } = category {
                        let other = state.objects.get(&with).map(|o| o.kind.is_character());
                        if with == object || other != Some(true) {
                            return Err(Refusal::RelationshipNeedsAnotherCharacter);
                        }
                    }
                }
                if state.aspects_of(object).count() >= limits::ASPECTS_PER_OBJECT {
                    return Err(Refusal::TooMany {
                        what: "aspects on one object",
                        max: limits::ASPECTS_PER_OBJECT,
                    });
                }
                let text = text("aspect", &aspect, limits::ASPECT)?;
                Ok(vec![Event::AspectAttached {
                    aspect: AspectId(self.new_id()),
                    object,
                    text,
                    category,
                }])
            }
            Action::EditAspect { aspect, text: new } => {
                let a = state
                    .aspects
                    .get(&aspect)
                    .ok_or(Refusal::Unknown { what: "aspect" })?;
                let flagged = TextRef::Aspect(aspect);
                self.not_moderator_unless_flagged("edit aspects", flagged)?;
                if !state.is_flagged(flagged) {
                    self.may_change(a.object)?;
                }
                let text = text("aspect", &new, limits::ASPECT)?;
                Ok(vec![Event::AspectEdited { aspect, text }])
            }
            Action::RemoveAspect { aspect } => {
                let a = state
                    .aspects
                    .get(&aspect)
                    .ok_or(Refusal::Unknown { what: "aspect" })?;
                self.not_moderator("remove aspects")?;
                self.may_change(a.object)?;
                if self.aspect_in_pair(aspect) {
                    return Err(Refusal::UsedInPair);
                }
                Ok(vec![Event::AspectRemoved { aspect }])
            }

            Action::NarrateFlashback { text: flashback } => {
                if !state.ruleset.is_temporal() {
                    return Err(Refusal::NotNow {
                        what: "the flashback",
                        when: "in Temporal Mechanics",
                        phase: state.phase,
                    });
                }
                if !state.is_flagged(TextRef::Flashback) {
                    self.only_in(
                        &[Phase::Outline],
                        "the flashback",
                        "in the Setup act, once the PCs are created",
                    )?;
                }
                self.not_moderator_unless_flagged("narrate", TextRef::Flashback)?;
                let text = text("flashback", &flashback, limits::LONG_TEXT)?;
                Ok(vec![Event::FlashbackNarrated { text }])
            }
            Action::SketchFinale { objective } => {
                self.only_in(
                    &[Phase::Outline],
                    "sketching scenes",
                    "while writing the outline",
                )?;
                self.not_moderator("sketch scenes")?;
                if state.finale.is_some() {
                    return Err(Refusal::FinaleExists);
                }
                if state.ruleset.is_temporal() && state.flashback.is_none() {
                    return Err(Refusal::NoFlashback);
                }
                let objective = text("objective", &objective, limits::OBJECTIVE)?;
                Ok(vec![Event::SceneSketched {
                    scene: SceneId(self.new_id()),
                    parent: None,
                    objective,
                    difficulty: state.ruleset.finale_difficulty(),
                }])
            }
            Action::SketchScene { parent, objective } => {
                self.only_in(
                    &[Phase::Outline],
                    "sketching scenes",
                    "while writing the outline",
                )?;
                self.not_moderator("sketch scenes")?;
                let p = self.scene(parent)?;
                let difficulty = state
                    .ruleset
                    .difficulty_at_depth(state.depth(parent) + 1)
                    .ok_or(Refusal::TooDeep {
                        parent_difficulty: p.difficulty,
                    })?;
                if state.scenes.len() >= limits::SCENES {
                    return Err(Refusal::TooMany {
                        what: "scenes",
                        max: limits::SCENES,
                    });
                }
                let objective = text("objective", &objective, limits::OBJECTIVE)?;
                Ok(vec![Event::SceneSketched {
                    scene: SceneId(self.new_id()),
                    parent: Some(parent),
                    objective,
                    difficulty,
                }])
            }
            Action::EditObjective { scene, objective } => {
                self.not_moderator_unless_flagged("sketch scenes", TextRef::Objective(scene))?;
                if state.is_flagged(TextRef::Objective(scene)) {
                    self.scene(scene)?;
                } else {
                    self.only_in(
                        &[Phase::Outline, Phase::Story],
                        "editing objectives",
                        "while writing the outline or telling the story",
                    )?;
                    self.unperformed(scene)?;
                }
                let objective = text("objective", &objective, limits::OBJECTIVE)?;
                Ok(vec![Event::ObjectiveEdited { scene, objective }])
            }
            Action::RemoveScene { scene } => {
                self.only_in(
                    &[Phase::Outline],
                    "removing scenes",
                    "while writing the outline",
                )?;
                self.not_moderator("sketch scenes")?;
                if !self.scene(scene)?.precursors.is_empty() {
                    return Err(Refusal::HasPrecursors);
                }
                Ok(vec![Event::SceneRemoved { scene }])
            }
            Action::SetSetting { scene, time, place } => {
                self.not_moderator_unless_flagged("sketch scenes", TextRef::Setting(scene))?;
                if state.is_flagged(TextRef::Setting(scene)) {
                    self.scene(scene)?;
                } else {
                    self.setting_editable(scene)?;
                }
                let time = optional_text("time", &time, limits::SETTING)?;
                let place = optional_text("place", &place, limits::SETTING)?;
                Ok(vec![Event::SettingChanged { scene, time, place }])
            }
            Action::PlaceObject { scene, object } => {
                self.not_moderator("place objects")?;
                let s = self.setting_editable(scene)?;
                self.object_kind(object)?;
                if s.setting.objects.contains(&object) {
                    return Err(Refusal::AlreadyPlaced);
                }
                Ok(vec![Event::ObjectPlaced { scene, object }])
            }
            Action::WithdrawObject { scene, object } => {
                self.not_moderator("place objects")?;
                let s = self.setting_editable(scene)?;
                if !s.setting.objects.contains(&object) {
                    return Err(Refusal::Unknown {
                        what: "object in this scene",
                    });
                }
                let used = s.pairs.iter().any(|p| {
                    state
                        .pairs
                        .get(p)
                        .and_then(|p| state.aspects.get(&p.environment_aspect))
                        .is_some_and(|a| a.object == object)
                });
                if used {
                    return Err(Refusal::UsedInPair);
                }
                Ok(vec![Event::ObjectWithdrawn { scene, object }])
            }

            Action::StartScene { scene } => {
                self.only_in(
                    &[Phase::Story],
                    "performing scenes",
                    "while telling the story",
                )?;
                self.not_paused()?;
                let s = self.unperformed(scene)?;
                if let Some(other) = state.in_progress {
                    return Err(Refusal::AnotherSceneInProgress {
                        objective: state
                            .scenes
                            .get(&other)
                            .map(|s| s.objective.clone())
                            .unwrap_or_default(),
                    });
                }
                let missing: Vec<String> = s
                    .precursors
                    .iter()
                    .filter_map(|p| state.scenes.get(p))
                    .filter(|p| !p.performed)
                    .map(|p| p.objective.clone())
                    .collect();
                if !missing.is_empty() {
                    return Err(Refusal::PrecursorsNotPerformed { missing });
                }
                Ok(vec![Event::SceneStarted { scene, at: self.at }])
            }
            Action::CancelScene { scene } => {
                let s = self.in_progress(scene)?;
                if s.check.is_some() {
                    return Err(Refusal::AlreadyChecked);
                }
                if let Some(p) = &state.proposal
                    && matches!(p.motion, Motion::MakeCheck { scene: x, .. } if x == scene)
                {
                    return Err(Refusal::ProposalOpen { motion: p.motion });
                }
                Ok(vec![Event::SceneCancelled { scene }])
            }
            Action::ProposePair {
                scene,
                character_aspect,
                environment_aspect,
                justification,
            } => {
                self.not_moderator("propose pairs")?;
                let s = self.in_progress(scene)?;
                self.pool_open(scene)?;
                let kind = |a| {
                    state
                        .is_character_aspect(a)
                        .ok_or(Refusal::Unknown { what: "aspect" })
                };
                match (kind(character_aspect)?, kind(environment_aspect)?) {
                    (true, false) => {}
                    (false, true) => {
                        // Given the other way round: the pair is the same pair.
                        return self.decide(Action::ProposePair {
                            scene,
                            character_aspect: environment_aspect,
                            environment_aspect: character_aspect,
                            justification,
                        });
                    }
                    (both, _) => return Err(Refusal::PairOfOneKind { characters: both }),
                }
                let object = state.aspects[&environment_aspect].object;
                if !s.setting.objects.contains(&object) {
                    return Err(Refusal::NotInScene {
                        object: state.objects[&object].name.clone(),
                    });
                }
                let duplicate = s.pairs.iter().filter_map(|p| state.pairs.get(p)).any(|p| {
                    p.character_aspect == character_aspect
                        && p.environment_aspect == environment_aspect
                });
                if duplicate {
                    return Err(Refusal::DuplicatePair);
                }
                if s.pairs.len() >= limits::PAIRS_PER_CHECK {
                    return Err(Refusal::TooMany {
                        what: "matching pairs in one check",
                        max: limits::PAIRS_PER_CHECK,
                    });
                }
                let justification =
                    optional_text("justification", &justification, limits::JUSTIFICATION)?;
                Ok(vec![Event::PairProposed {
                    pair: PairId(self.new_id()),
                    scene,
                    character_aspect,
                    environment_aspect,
                    by: self.by,
                    justification,
                }])
            }
            Action::EditJustification {
                pair,
                justification,
            } => {
                let p = state
                    .pairs
                    .get(&pair)
                    .ok_or(Refusal::Unknown { what: "pair" })?;
                if self.scene(p.scene)?.check.is_some()
                    && !state.is_flagged(TextRef::Justification(pair))
                {
                    return Err(Refusal::AlreadyChecked);
                }
                let justification =
                    optional_text("justification", &justification, limits::JUSTIFICATION)?;
                Ok(vec![Event::JustificationEdited {
                    pair,
                    justification,
                }])
            }
            Action::WithdrawPair { pair } => {
                let p = self.pair(pair)?;
                if p.proposed_by != self.by {
                    return Err(Refusal::NotYourPair);
                }
                self.pool_open(p.scene)?;
                Ok(vec![Event::PairWithdrawn { pair }])
            }
            Action::AcceptPair { pair } => {
                let p = self.pair(pair)?;
                self.may_judge(p.scene)?;
                if p.proposed_by == self.by {
                    return Err(Refusal::OwnPair);
                }
                if p.accepted_by.contains(&self.by) && !p.objections.contains(&self.by) {
                    return Ok(Vec::new());
                }
                Ok(vec![Event::PairAccepted { pair, by: self.by }])
            }
            Action::ObjectToPair { pair } => {
                let p = self.pair(pair)?;
                self.may_judge(p.scene)?;
                if p.proposed_by == self.by {
                    return Err(Refusal::OwnPair);
                }
                if p.objections.contains(&self.by) {
                    return Ok(Vec::new());
                }
                let mut events = Vec::new();
                // An objection says "not yet" to a check proposed with the pair in it.
                if let Some(open) = &state.proposal
                    && matches!(open.motion, Motion::MakeCheck { scene, .. } if scene == p.scene)
                {
                    events.push(Event::ProposalStopped {
                        proposal: open.id,
                        by: self.by,
                    });
                }
                events.push(Event::PairObjected { pair, by: self.by });
                Ok(events)
            }
            Action::EnterFaces { scene, faces } => {
                self.not_moderator("roll the dice")?;
                let s = self.in_progress(scene)?;
                self.not_paused()?;
                if s.check.is_some() {
                    return Err(Refusal::AlreadyChecked);
                }
                if !s.rolling {
                    return Err(Refusal::NotRolling);
                }
                if faces.len() > limits::FACES {
                    return Err(Refusal::TooMany {
                        what: "dice typed in for one check",
                        max: limits::FACES,
                    });
                }
                let pool = state.pool(scene);
                let roll =
                    check::roll_given_faces(&pool, &faces).map_err(|e| Refusal::FacesDoNotFit {
                        problem: e.to_string(),
                    })?;
                let outcome = roll.outcome(s.difficulty);
                Ok(vec![Event::CheckMade {
                    scene,
                    check: CheckRecord {
                        difficulty: s.difficulty,
                        roll,
                        outcome,
                        physical: true,
                    },
                }])
            }
            Action::Narrate {
                scene,
                text: narration,
            } => {
                self.not_moderator_unless_flagged("narrate", TextRef::Narration(scene))?;
                let s = self.scene(scene)?;
                if s.check.is_none() {
                    return Err(Refusal::NotChecked);
                }
                let text = text("narration", &narration, limits::LONG_TEXT)?;
                Ok(vec![Event::Narrated { scene, text }])
            }
            Action::FinishScene { scene } => {
                let s = self.in_progress(scene)?;
                if s.check.is_none() {
                    return Err(Refusal::NotChecked);
                }
                if s.narration.is_none() {
                    return Err(Refusal::NoNarration);
                }
                let mut events = vec![Event::SceneFinished { scene }];
                // Temporal Mechanics: the climax done, the Resolution's flashforward begins.
                if state.ruleset.is_temporal() && state.finale == Some(scene) {
                    events.push(Event::TimerStarted {
                        timed: Timed::Flashforward,
                        at: self.at,
                    });
                }
                Ok(events)
            }
            Action::NarrateLongTermEffects { text: effects } => {
                self.not_moderator_unless_flagged("narrate", TextRef::LongTermEffects)?;
                if !self.finale_performed() {
                    return Err(Refusal::FinaleNotPerformed);
                }
                let text = text("long-term effects", &effects, limits::LONG_TEXT)?;
                Ok(vec![Event::LongTermEffectsNarrated { text }])
            }
        }
    }

    fn room_for_object(&self) -> Result<(), Refusal> {
        if self.state.objects.len() >= limits::OBJECTS {
            return Err(Refusal::TooMany {
                what: "objects",
                max: limits::OBJECTS,
            });
        }
        Ok(())
    }

    /// Settings are written with the outline and grow while a scene is investigated.
    fn setting_editable(&self, scene: SceneId) -> Result<&Scene, Refusal> {
        self.only_in(
            &[Phase::Outline, Phase::Story],
            "changing a scene's setting",
            "while writing the outline or telling the story",
        )?;
        self.unperformed(scene)
    }

    fn finale_performed(&self) -> bool {
        self.state
            .finale
            .and_then(|f| self.state.scenes.get(&f))
            .is_some_and(|f| f.performed)
    }

    fn pair(&self, pair: PairId) -> Result<&crate::model::MatchingPair, Refusal> {
        self.state
            .pairs
            .get(&pair)
            .ok_or(Refusal::Unknown { what: "pair" })
    }

    /// Judging a pair (accepting, objecting) is for players, before the check.
    fn may_judge(&self, scene: SceneId) -> Result<(), Refusal> {
        self.not_moderator("judge pairs")?;
        let s = self.scene(scene)?;
        if s.check.is_some() {
            return Err(Refusal::AlreadyChecked);
        }
        if s.rolling {
            return Err(Refusal::Rolling);
        }
        Ok(())
    }

    fn open_proposal(&self, id: ProposalId) -> Result<&crate::model::Proposal, Refusal> {
        self.state
            .proposal
            .as_ref()
            .filter(|p| p.id == id)
            .ok_or(Refusal::NoSuchProposal)
    }

    fn propose(&self, motion: Motion, seed: Seed) -> Decision {
        let state = self.state;
        if let Some(open) = &state.proposal {
            return Err(Refusal::ProposalOpen {
                motion: open.motion,
            });
        }
        match motion {
            Motion::MakeCheck { .. } => self.not_moderator("make checks")?,
            Motion::WithdrawPair { .. } => self.not_moderator("judge pairs")?,
            _ => {}
        }
        self.motion_possible(motion)?;
        let proposal = ProposalId(self.new_id());
        let mut events = vec![Event::ProposalMade {
            proposal,
            motion,
            by: self.by,
        }];
        // A table of one agrees at once.
        let voters = state.voters();
        if state.votes(self.by) && voters.len() == 1 && voters.contains(&self.by) {
            events.extend(self.carry(proposal, motion, seed)?);
        }
        Ok(events)
    }

    fn agree(&self, id: ProposalId, seed: Seed) -> Decision {
        let state = self.state;
        let proposal = self.open_proposal(id)?;
        if !state.votes(self.by) {
            return Err(Refusal::ModeratorCannot {
                what: "vote on proposals",
            });
        }
        let mut events = Vec::new();
        let mut agreed = proposal.agreed.clone();
        if agreed.insert(self.by) {
            events.push(Event::ProposalAgreed {
                proposal: id,
                by: self.by,
            });
        }
        if state.voters().is_subset(&agreed) {
            self.motion_possible(proposal.motion)?;
            events.extend(self.carry(id, proposal.motion, seed)?);
        } else if events.is_empty() {
            return Err(Refusal::AlreadyAgreed);
        }
        Ok(events)
    }

    /// Whether the motion could carry now (checked when it is proposed and when it carries).
    fn motion_possible(&self, motion: Motion) -> Result<(), Refusal> {
        let state = self.state;
        if motion != Motion::Resume {
            self.not_paused()?;
        }
        match motion {
            Motion::Advance { to: Phase::Ended } | Motion::EndGame => {
                if state.phase != Phase::Story {
                    return Err(Refusal::NotTheNextPhase {
                        from: state.phase,
                        to: Phase::Ended,
                    });
                }
                if !self.finale_performed() {
                    return Err(Refusal::FinaleNotPerformed);
                }
                if state.ruleset.is_temporal() && state.long_term_effects.is_none() {
                    return Err(Refusal::NoFlashforward);
                }
                Ok(())
            }
            Motion::Advance { to } => self.advance_possible(to),
            Motion::ReturnToOutline => {
                if state.phase != Phase::Story {
                    return Err(Refusal::NotNow {
                        what: "going back to the outline",
                        when: "while telling the story",
                        phase: state.phase,
                    });
                }
                if state
                    .scenes
                    .values()
                    .any(|s| s.check.is_some() || s.rolling)
                {
                    return Err(Refusal::StoryBegun);
                }
                Ok(())
            }
            Motion::MakeCheck {
                scene,
                accept_empty_pool,
            } => {
                let s = self.in_progress(scene)?;
                if s.check.is_some() {
                    return Err(Refusal::AlreadyChecked);
                }
                if s.rolling {
                    return Err(Refusal::Rolling);
                }
                let objected = s
                    .pairs
                    .iter()
                    .filter_map(|p| state.pairs.get(p))
                    .any(|p| !state.counts(p));
                if objected {
                    return Err(Refusal::PairUnderObjection);
                }
                if state.pool(scene).is_empty() && !accept_empty_pool {
                    return Err(Refusal::EmptyPool);
                }
                Ok(())
            }
            Motion::WithdrawPair { pair } => {
                let p = self.pair(pair)?;
                let s = self.scene(p.scene)?;
                if s.check.is_some() {
                    return Err(Refusal::AlreadyChecked);
                }
                if s.rolling {
                    return Err(Refusal::Rolling);
                }
                Ok(())
            }
            Motion::Resume => state.x_card.map(|_| ()).ok_or(Refusal::NotPaused),
            Motion::ChooseModerator { player } => self.moderator_possible(player),
            Motion::ChooseDice { physical } => {
                if state.scenes.values().any(|s| s.rolling) {
                    return Err(Refusal::Rolling);
                }
                if state.physical_dice == physical {
                    return Err(Refusal::SameDice { physical });
                }
                Ok(())
            }
            Motion::Publish => {
                if state.published {
                    return Err(Refusal::AlreadyPublished);
                }
                Ok(())
            }
        }
    }

    /// Edition 1.1's moderator is someone at the table who plays no character.
    fn moderator_possible(&self, player: Option<PlayerId>) -> Result<(), Refusal> {
        let state = self.state;
        if !state.ruleset.allows_moderator() {
            return Err(Refusal::NoModerator {
                ruleset: state.ruleset,
            });
        }
        match player {
            None if state.moderator.is_none() => Err(Refusal::NoModeratorToDismiss),
            None => Ok(()),
            Some(p) if !state.is_present(p) => Err(Refusal::UnknownPlayer),
            Some(p) if state.moderator == Some(p) => Err(Refusal::AlreadyTheModerator),
            Some(p) if state.character_of(p).is_some() => Err(Refusal::ModeratorHasCharacter),
            Some(_) => Ok(()),
        }
    }

    /// The events of a motion everyone agreed to.
    fn carry(&self, proposal: ProposalId, motion: Motion, seed: Seed) -> Decision {
        let state = self.state;
        let mut events = vec![Event::ProposalCarried { proposal }];
        match motion {
            Motion::Advance { to: Phase::Ended } | Motion::EndGame => {
                events.push(Event::GameEnded);
            }
            Motion::Advance { to } => {
                events.push(Event::PhaseBegan { phase: to });
                // Temporal Mechanics' Setup opens with the flashback scene, timed like any.
                if to == Phase::Outline && state.ruleset.is_temporal() && state.flashback.is_none()
                {
                    events.push(Event::TimerStarted {
                        timed: Timed::Flashback,
                        at: self.at,
                    });
                }
            }
            Motion::ReturnToOutline => {
                if let Some(scene) = state.in_progress {
                    events.push(Event::SceneCancelled { scene });
                }
                events.push(Event::PhaseBegan {
                    phase: Phase::Outline,
                });
            }
            Motion::MakeCheck { scene, .. } => {
                let s = self.scene(scene)?;
                if state.physical_dice {
                    events.push(Event::DiceCalledFor { scene });
                } else {
                    let roll = check::roll(&state.pool(scene), seed);
                    let outcome = roll.outcome(s.difficulty);
                    events.push(Event::CheckMade {
                        scene,
                        check: CheckRecord {
                            difficulty: s.difficulty,
                            roll,
                            outcome,
                            physical: false,
                        },
                    });
                }
            }
            Motion::WithdrawPair { pair } => events.push(Event::PairWithdrawn { pair }),
            Motion::Resume => events.push(Event::TableResumed),
            Motion::ChooseModerator { player } => events.push(Event::ModeratorChosen { player }),
            Motion::ChooseDice { physical } => events.push(Event::DiceChosen { physical }),
            Motion::Publish => events.push(Event::StoryPublished),
        }
        Ok(events)
    }

    fn advance_possible(&self, to: Phase) -> Result<(), Refusal> {
        let state = self.state;
        if state.phase.next() != Some(to) {
            return Err(Refusal::NotTheNextPhase {
                from: state.phase,
                to,
            });
        }
        match to {
            Phase::Characters => {
                // Temporal Mechanics has no prophecy: the flashback is its catastrophe.
                if state.prophecy.is_none() && !state.ruleset.is_temporal() {
                    return Err(Refusal::NoProphecy);
                }
            }
            Phase::Outline => self.characters_complete()?,
            Phase::Story => {
                self.characters_complete()?;
                if state.ruleset.is_temporal() && state.flashback.is_none() {
                    return Err(Refusal::NoFlashback);
                }
                if state.finale.is_none() {
                    return Err(Refusal::NoFinale);
                }
                if state.ruleset.is_temporal() && state.scenes.len() < 2 {
                    return Err(Refusal::StoryTreeTooSmall);
                }
            }
            Phase::Ended | Phase::Prophecy => unreachable!("handled by `motion_possible`"),
        }
        Ok(())
    }

    fn characters_complete(&self) -> Result<(), Refusal> {
        let state = self.state;
        let mut problems = Vec::new();
        let mut playing = 0;
        for (player, p) in state.playing() {
            playing += 1;
            match state.character_of(player) {
                None => problems.push(format!("{} has no character", p.name)),
                Some(character) => {
                    let missing = state.missing_categories(character);
                    if !missing.is_empty() {
                        problems.push(format!(
                            "{} lacks {}",
                            state.objects[&character].name,
                            missing.join(", ")
                        ));
                    }
                }
            }
        }
        if playing == 0 {
            return Err(Refusal::NoPlayers);
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(Refusal::CharactersIncomplete { problems })
        }
    }
}

/// A world passed in a command must have a full table (groups can bring their own).
fn check_world(world: &World) -> Result<(), Refusal> {
    if world.catastrophes.len() != 36 {
        return Err(Refusal::InvalidWorld {
            problem: format!(
                "its catastrophe table has {} entries instead of 36",
                world.catastrophes.len()
            ),
        });
    }
    if world.catastrophes.iter().any(|c| c.trim().is_empty()) {
        return Err(Refusal::InvalidWorld {
            problem: "an entry of its catastrophe table is empty".into(),
        });
    }
    if world
        .catastrophes
        .iter()
        .any(|c| c.chars().count() > crate::content::MAX_CATASTROPHE_CHARS)
    {
        return Err(Refusal::InvalidWorld {
            problem: format!(
                "an entry of its table is longer than {} characters",
                crate::content::MAX_CATASTROPHE_CHARS
            ),
        });
    }
    Ok(())
}
