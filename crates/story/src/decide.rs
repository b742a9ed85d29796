//! The rules: which commands the game accepts, and the events they become.

use crate::command::{Action, Command};
use crate::content::World;
use crate::event::Event;
use crate::ids::{AspectId, LineId, ObjectId, PairId, PlayerId, SceneId};
use crate::model::{
    AspectCategory, CheckRecord, ObjectKind, Phase, ProphecySource, Scene, TextRef,
};
use crate::refusal::Refusal;
use crate::state::State;
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
}

type Decision = Result<Vec<Event>, Refusal>;

/// Checks a command against the rules and the state; the events it becomes, or why not.
pub fn decide(state: &State, command: Command) -> Decision {
    let by = command.by;
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
            if state.phase == Phase::Ended {
                return Err(Refusal::GameOver);
            }
            if let Action::Join { name } = action {
                return join(state, by, name);
            }
            if !state.is_present(by) {
                return Err(Refusal::NotAtTable);
            }
            Rules { state, by }.decide(action)
        }
    }
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
            Action::ChooseModerator { player } => {
                if !state.ruleset.allows_moderator() {
                    return Err(Refusal::NoModerator {
                        ruleset: state.ruleset,
                    });
                }
                if let Some(p) = player {
                    if !state.is_present(p) {
                        return Err(Refusal::UnknownPlayer);
                    }
                    if state.character_of(p).is_some() {
                        return Err(Refusal::ModeratorHasCharacter);
                    }
                }
                Ok(vec![Event::ModeratorChosen { player }])
            }
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
                }])
            }
            Action::RemoveLine { line } => {
                if !state.lines.contains_key(&line) {
                    return Err(Refusal::Unknown { what: "line" });
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

            Action::Advance { to } => self.advance(to),

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
                self.room_for_object()?;
                let name = text("name", &name, limits::NAME)?;
                Ok(vec![Event::ObjectCreated {
                    object: ObjectId(self.new_id()),
                    name,
                    kind,
                }])
            }
            Action::Rename { object, name } => {
                self.may_change(object)?;
                let name = text("name", &name, limits::NAME)?;
                Ok(vec![Event::ObjectRenamed { object, name }])
            }
            Action::RemoveObject { object } => {
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
                self.may_change(a.object)?;
                let text = text("aspect", &new, limits::ASPECT)?;
                Ok(vec![Event::AspectEdited { aspect, text }])
            }
            Action::RemoveAspect { aspect } => {
                let a = state
                    .aspects
                    .get(&aspect)
                    .ok_or(Refusal::Unknown { what: "aspect" })?;
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
                        &[Phase::Prophecy, Phase::Characters, Phase::Outline],
                        "the flashback",
                        "in the setup, before the confrontation",
                    )?;
                }
                self.not_moderator("narrate")?;
                let text = text("flashback", &flashback, limits::LONG_TEXT)?;
                Ok(vec![Event::FlashbackNarrated { text }])
            }
            Action::SketchFinale { objective } => {
                self.only_in(
                    &[Phase::Outline],
                    "sketching scenes",
                    "while writing the outline",
                )?;
                if state.finale.is_some() {
                    return Err(Refusal::FinaleExists);
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
                if !self.scene(scene)?.precursors.is_empty() {
                    return Err(Refusal::HasPrecursors);
                }
                Ok(vec![Event::SceneRemoved { scene }])
            }
            Action::SetSetting { scene, time, place } => {
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
                let s = self.setting_editable(scene)?;
                self.object_kind(object)?;
                if s.setting.objects.contains(&object) {
                    return Err(Refusal::AlreadyPlaced);
                }
                Ok(vec![Event::ObjectPlaced { scene, object }])
            }
            Action::WithdrawObject { scene, object } => {
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

            Action::StartScene { scene, at } => {
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
                Ok(vec![Event::SceneStarted { scene, at }])
            }
            Action::ProposePair {
                scene,
                character_aspect,
                environment_aspect,
                justification,
            } => {
                let s = self.in_progress(scene)?;
                if s.check.is_some() {
                    return Err(Refusal::AlreadyChecked);
                }
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
                let p = state
                    .pairs
                    .get(&pair)
                    .ok_or(Refusal::Unknown { what: "pair" })?;
                if self.scene(p.scene)?.check.is_some() {
                    return Err(Refusal::AlreadyChecked);
                }
                Ok(vec![Event::PairWithdrawn { pair }])
            }
            Action::MakeCheck {
                scene,
                seed,
                accept_empty_pool,
            } => {
                let s = self.in_progress(scene)?;
                self.not_paused()?;
                if s.check.is_some() {
                    return Err(Refusal::AlreadyChecked);
                }
                let pool = state.pool(scene);
                if pool.is_empty() && !accept_empty_pool {
                    return Err(Refusal::EmptyPool);
                }
                let roll = check::roll(&pool, seed);
                let outcome = roll.outcome(s.difficulty);
                Ok(vec![Event::CheckMade {
                    scene,
                    check: CheckRecord {
                        difficulty: s.difficulty,
                        roll,
                        outcome,
                    },
                }])
            }
            Action::Narrate {
                scene,
                text: narration,
            } => {
                self.not_moderator("narrate")?;
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
                Ok(vec![Event::SceneFinished { scene }])
            }
            Action::NarrateLongTermEffects { text: effects } => {
                self.not_moderator("narrate")?;
                if !self.finale_performed() {
                    return Err(Refusal::FinaleNotPerformed);
                }
                let text = text("long-term effects", &effects, limits::LONG_TEXT)?;
                Ok(vec![Event::LongTermEffectsNarrated { text }])
            }
            Action::EndGame => {
                if !self.finale_performed() {
                    return Err(Refusal::FinaleNotPerformed);
                }
                if state.long_term_effects.is_none() {
                    return Err(Refusal::NoLongTermEffects);
                }
                self.not_paused()?;
                Ok(vec![Event::GameEnded])
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

    fn advance(&self, to: Phase) -> Decision {
        let state = self.state;
        if state.phase.next() != Some(to) {
            return Err(Refusal::NotTheNextPhase {
                from: state.phase,
                to,
            });
        }
        self.not_paused()?;
        match to {
            Phase::Characters => {
                if state.prophecy.is_none() {
                    return Err(Refusal::NoProphecy);
                }
            }
            Phase::Outline => self.characters_complete()?,
            Phase::Story => {
                self.characters_complete()?;
                if state.finale.is_none() {
                    return Err(Refusal::NoFinale);
                }
                if state.ruleset.is_temporal() && state.flashback.is_none() {
                    return Err(Refusal::NoFlashback);
                }
            }
            Phase::Ended => return self.decide(Action::EndGame),
            Phase::Prophecy => unreachable!("no phase comes before the prophecy"),
        }
        Ok(vec![Event::PhaseBegan { phase: to }])
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
