//! The state of a game: what the events so far add up to.

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

use crate::event::Event;
use crate::ids::{AspectId, LineId, ObjectId, PairId, PlayerId, SceneId, Timestamp};
use crate::model::{
    Aspect, AspectCategory, MatchingPair, Motion, Object, ObjectKind, Phase, Player, Prophecy,
    Proposal, Scene, TextRef, Timed, Timer, Warning, XCard,
};
use crate::ruleset::Ruleset;
use dice::check::{Outcome, PoolEntry};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// Everything a game is at one moment. Built only by [`evolve`] from events.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    /// Opened yet (the first event opens the game).
    pub opened: bool,
    /// The rules.
    pub ruleset: Ruleset,
    /// The current phase.
    pub phase: Phase,
    /// Everyone who joined, removed ones included.
    pub players: BTreeMap<PlayerId, Player>,
    /// The moderator (edition 1.1), if any.
    pub moderator: Option<PlayerId>,
    /// Content the table excludes.
    pub lines: BTreeMap<LineId, String>,
    /// Who drew each line (only they may lift it; never shown to the others).
    #[serde(default)]
    pub line_authors: BTreeMap<LineId, PlayerId>,
    /// Flagged texts: hidden, and play paused, until replaced.
    pub flags: BTreeSet<TextRef>,
    /// The X-card: play paused for something said or written.
    #[serde(default)]
    pub x_card: Option<XCard>,
    /// The motion the table is deciding, if any.
    #[serde(default)]
    pub proposal: Option<Proposal>,
    /// The table rolls real dice and types the faces in.
    #[serde(default)]
    pub physical_dice: bool,
    /// The table agreed to publish the story, and nobody has withdrawn it since.
    #[serde(default)]
    pub published: bool,
    /// The table agreed to let watchers follow it, and nobody has closed the link since.
    #[serde(default)]
    pub watched: bool,
    /// The timer of the scene being played (a story scene, the flashback or flashforward).
    #[serde(default)]
    pub timer: Option<Timer>,
    /// The moderator's last question.
    #[serde(default)]
    pub question: Option<String>,
    /// The prophecy, once received.
    pub prophecy: Option<Prophecy>,
    /// Characters and the environment's objects.
    pub objects: BTreeMap<ObjectId, Object>,
    /// All aspects.
    pub aspects: BTreeMap<AspectId, Aspect>,
    /// The outline.
    pub scenes: BTreeMap<SceneId, Scene>,
    /// The Finale, once sketched.
    pub finale: Option<SceneId>,
    /// Proposed pairs that are not withdrawn.
    pub pairs: BTreeMap<PairId, MatchingPair>,
    /// The scene being performed.
    pub in_progress: Option<SceneId>,
    /// Temporal Mechanics: the flashback.
    pub flashback: Option<String>,
    /// The Finale's long-term effects (Temporal Mechanics: the flashforward).
    pub long_term_effects: Option<String>,
    /// The next id the engine hands out.
    pub next_id: u32,
    /// Events applied so far.
    pub version: u64,
    /// Lookups by owner, kept in step by [`evolve`].
    #[serde(skip)]
    index: Index,
}

/// Lookups that [`evolve`] keeps in step with the maps, so that an event takes time in what it
/// touches, never in the size of the whole game. Without them each removed object walked every
/// scene and every aspect, and each removed aspect every pair: a crafted log of 40,000 scenes and
/// as many removed objects took ten seconds to replay in a release build.
///
/// A cache, not part of the game: not stored, equal to any other, and built from the maps
/// before the first event applied to a state that lacks it (one read back with serde). Readers
/// fall back to walking the maps when it is not built.
#[derive(Clone, Default)]
struct Index {
    built: bool,
    /// Each object's aspects.
    aspects: BTreeMap<ObjectId, BTreeSet<AspectId>>,
    /// The scenes each object is placed in.
    placed: BTreeMap<ObjectId, BTreeSet<SceneId>>,
    /// The pairs using each aspect.
    pairs: BTreeMap<AspectId, BTreeSet<PairId>>,
    /// Each player's characters.
    characters: BTreeMap<PlayerId, BTreeSet<ObjectId>>,
}

impl Index {
    fn build(state: &State) -> Index {
        let mut index = Index {
            built: true,
            ..Index::default()
        };
        for (id, aspect) in &state.aspects {
            link(&mut index.aspects, aspect.object, *id);
        }
        for (id, scene) in &state.scenes {
            for object in &scene.setting.objects {
                link(&mut index.placed, *object, *id);
            }
        }
        for (id, pair) in &state.pairs {
            link(&mut index.pairs, pair.character_aspect, *id);
            link(&mut index.pairs, pair.environment_aspect, *id);
        }
        for (id, object) in &state.objects {
            if let ObjectKind::Character { player: Some(p) } = object.kind {
                link(&mut index.characters, p, *id);
            }
        }
        index
    }
}

impl PartialEq for Index {
    fn eq(&self, _: &Index) -> bool {
        true
    }
}

impl Eq for Index {}

impl std::fmt::Debug for Index {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Index").finish_non_exhaustive()
    }
}

fn link<K: Ord, V: Ord>(map: &mut BTreeMap<K, BTreeSet<V>>, key: K, value: V) {
    map.entry(key).or_default().insert(value);
}

fn unlink<K: Ord, V: Ord>(map: &mut BTreeMap<K, BTreeSet<V>>, key: K, value: &V) {
    if let Some(values) = map.get_mut(&key) {
        values.remove(value);
        if values.is_empty() {
            map.remove(&key);
        }
    }
}

/// Applies one event. Never fails and never panics, whatever the event and the state: events
/// were decided against the state they follow, and one that could not have been (a crafted or
/// damaged log) still gives some state. Readers of untrusted logs check each event first with
/// [`State::replay_checked`].
pub fn evolve(mut state: State, event: &Event) -> State {
    state.apply(event);
    state
}

impl State {
    fn claim(&mut self, id: u32) {
        self.next_id = self.next_id.max(id.saturating_add(1));
    }

    /// The player of a character, if it is one that has a player.
    fn player_of(object: &Object) -> Option<PlayerId> {
        match object.kind {
            ObjectKind::Character { player } => player,
            _ => None,
        }
    }

    /// Puts an object in place of whatever had its id (only a crafted log reuses one).
    fn put_object(&mut self, id: ObjectId, object: Object) {
        if let Some(p) = Self::player_of(&object) {
            link(&mut self.index.characters, p, id);
        }
        if let Some(old) = self.objects.insert(id, object)
            && let Some(p) = Self::player_of(&old)
            && self.objects.get(&id).and_then(Self::player_of) != Some(p)
        {
            unlink(&mut self.index.characters, p, &id);
        }
    }

    fn apply(&mut self, event: &Event) {
        if !self.index.built {
            self.index = Index::build(self);
        }
        self.version = self.version.saturating_add(1);
        match event {
            Event::GameOpened { ruleset } => {
                self.opened = true;
                self.ruleset = *ruleset;
            }
            Event::PlayerJoined { player, name } => self.player_joined(player, name),
            Event::PlayerRemoved { player } => self.player_removed(player),
            Event::ModeratorChosen { player } => self.moderator = *player,
            Event::LineAdded { line, text, by } => self.line_added(line, text, by),
            Event::LineRemoved { line } => {
                self.lines.remove(line);
                self.line_authors.remove(line);
            }
            Event::Flagged { target } => {
                self.flags.insert(*target);
            }
            Event::TablePaused { by } => self.x_card = Some(XCard { by: *by }),
            Event::TableResumed => {
                self.x_card = None;
                self.drop_proposal(|m| m == Motion::Resume);
            }
            Event::ProposalMade {
                proposal,
                motion,
                by,
            } => self.proposal_made(proposal, motion, by),
            Event::ProposalAgreed { proposal, by } => self.proposal_agreed(proposal, by),
            Event::ProposalStopped { proposal, .. } | Event::ProposalCarried { proposal } => {
                if self.proposal.as_ref().is_some_and(|p| p.id == *proposal) {
                    self.proposal = None;
                }
            }
            Event::DiceChosen { physical } => self.physical_dice = *physical,
            Event::StoryPublished => self.published = true,
            Event::StoryWithdrawn => self.published = false,
            Event::WatchOpened => self.watched = true,
            Event::WatchClosed => self.watched = false,
            Event::TimerStarted { timed, at } => self.timer = Some(Timer::start(*timed, *at)),
            Event::TimerStopped { at } => self.timer_stopped(at),
            Event::TimerCounting { at } => self.timer_counting(at),
            Event::TimerHeld => {
                if let Some(t) = &mut self.timer {
                    t.held = true;
                }
            }
            Event::TimerReleased => {
                if let Some(t) = &mut self.timer {
                    t.held = false;
                }
            }
            Event::TimerExtended { minutes } => {
                if let Some(t) = &mut self.timer {
                    t.added_ms = t.added_ms.saturating_add(i64::from(*minutes) * 60_000);
                }
            }
            Event::TimerReset { at } => self.timer_reset(at),
            Event::QuestionAsked { text } => {
                self.flags.remove(&TextRef::Question);
                self.question = Some(text.clone());
            }
            Event::ProphecyReceived { source, text } => self.prophecy_received(source, text),
            Event::ProphecyEdited { text } => self.prophecy_edited(text),
            Event::PhaseBegan { phase } => self.phase_began(phase),
            Event::CharacterCreated {
                object,
                player,
                name,
            } => self.character_created(object, player, name),
            Event::ObjectCreated { object, name, kind } => self.object_created(object, name, kind),
            Event::ObjectRenamed { object, name } => self.object_renamed(object, name),
            Event::ObjectRemoved { object } => self.object_removed(object),
            Event::AspectAttached {
                aspect,
                object,
                text,
                category,
            } => self.aspect_attached(aspect, object, text, category),
            Event::AspectEdited { aspect, text } => self.aspect_edited(aspect, text),
            Event::AspectRemoved { aspect } => self.aspect_removed(aspect),
            Event::FlashbackNarrated { text } => {
                self.flags.remove(&TextRef::Flashback);
                self.flashback = Some(text.clone());
                self.stop_timer(Timed::Flashback);
            }
            Event::SceneSketched {
                scene,
                parent,
                objective,
                difficulty,
            } => self.scene_sketched(scene, parent, objective, difficulty),
            Event::ObjectiveEdited { scene, objective } => self.objective_edited(scene, objective),
            Event::SceneRemoved { scene } => self.scene_removed(scene),
            Event::SettingChanged { scene, time, place } => {
                self.setting_changed(scene, time, place)
            }
            Event::ObjectPlaced { scene, object } => self.object_placed(scene, object),
            Event::ObjectWithdrawn { scene, object } => self.object_withdrawn(scene, object),
            Event::SceneStarted { scene, at } => self.scene_started(scene, at),
            Event::SceneCancelled { scene } => self.scene_cancelled(scene),
            Event::PairProposed {
                pair,
                scene,
                character_aspect,
                environment_aspect,
                by,
                justification,
            } => self.pair_proposed(
                pair,
                scene,
                character_aspect,
                environment_aspect,
                by,
                justification,
            ),
            Event::PairWithdrawn { pair } => self.remove_pair(*pair),
            Event::PairAccepted { pair, by } => self.pair_accepted(pair, by),
            Event::PairObjected { pair, by } => self.pair_objected(pair, by),
            Event::DiceCalledFor { scene } => {
                if let Some(s) = self.scenes.get_mut(scene) {
                    s.rolling = true;
                }
            }
            Event::JustificationEdited {
                pair,
                justification,
            } => self.justification_edited(pair, justification),
            Event::CheckMade { scene, check } => self.check_made(scene, check),
            Event::Narrated { scene, text } => self.narrated(scene, text),
            Event::SceneFinished { scene } => self.scene_finished(scene),
            Event::LongTermEffectsNarrated { text } => {
                self.flags.remove(&TextRef::LongTermEffects);
                self.long_term_effects = Some(text.clone());
                self.stop_timer(Timed::Flashforward);
            }
            Event::GameEnded => self.phase = Phase::Ended,
        }
    }

    fn stop_timer(&mut self, timed: Timed) {
        if self.timer.is_some_and(|t| t.timed == timed) {
            self.timer = None;
        }
    }

    /// Drops the open proposal if its motion is one that an event just made moot.
    fn drop_proposal(&mut self, moot: impl Fn(Motion) -> bool) {
        if self.proposal.as_ref().is_some_and(|p| moot(p.motion)) {
            self.proposal = None;
        }
    }

    fn remove_pair(&mut self, pair: PairId) {
        self.flags.remove(&TextRef::Justification(pair));
        if let Some(p) = self.pairs.remove(&pair) {
            unlink(&mut self.index.pairs, p.character_aspect, &pair);
            unlink(&mut self.index.pairs, p.environment_aspect, &pair);
            if let Some(s) = self.scenes.get_mut(&p.scene) {
                s.pairs.retain(|x| *x != pair);
            }
        }
        self.drop_proposal(|m| m == Motion::WithdrawPair { pair });
    }

    /// Replays a log from the beginning. Any log gives a state; one from an untrusted source
    /// is better replayed with [`State::replay_checked`].
    pub fn replay<'a>(events: impl IntoIterator<Item = &'a Event>) -> State {
        let mut state = State::default();
        for event in events {
            state.apply(event);
        }
        state
    }

    /// Whether a player has joined and is still at the table.
    pub fn is_present(&self, player: PlayerId) -> bool {
        self.players.get(&player).is_some_and(|p| !p.removed)
    }

    /// Players at the table now (not removed), the moderator included.
    pub fn present_players(&self) -> impl Iterator<Item = (PlayerId, &Player)> {
        self.players
            .iter()
            .filter(|(_, p)| !p.removed)
            .map(|(id, p)| (*id, p))
    }

    /// Players who play a character: present and not the moderator.
    pub fn playing(&self) -> impl Iterator<Item = (PlayerId, &Player)> {
        self.present_players()
            .filter(move |(id, _)| Some(*id) != self.moderator)
    }

    /// Whether a player's agreement counts for proposals: every present player but the
    /// moderator (who asks questions and keeps time).
    pub fn votes(&self, player: PlayerId) -> bool {
        self.is_present(player) && self.moderator != Some(player)
    }

    /// Players whose agreement a proposal needs.
    pub fn voters(&self) -> BTreeSet<PlayerId> {
        self.playing().map(|(id, _)| id).collect()
    }

    /// Whether a pair counts in the pool: no player at the table objects to it (someone who
    /// left holds nothing up).
    pub fn counts(&self, pair: &MatchingPair) -> bool {
        !pair.objections.iter().any(|p| self.is_present(*p))
    }

    /// Whether the prophecy may be received or changed now: until the outline is started. In
    /// Temporal Mechanics the prophecy is the warning, which the rules prepare in the Setup once
    /// the flashback is told, and send back when the Confrontation begins.
    pub fn prophecy_open(&self) -> bool {
        if self.ruleset.is_temporal() {
            self.phase == Phase::Outline && self.flashback.is_some()
        } else {
            matches!(self.phase, Phase::Prophecy | Phase::Characters)
        }
    }

    /// Temporal Mechanics' act now: the phase's, except that the Resolution (the flashforward)
    /// begins once the climactic scene is performed.
    pub fn act(&self) -> Option<&'static str> {
        let climax_done = self
            .finale
            .and_then(|f| self.scenes.get(&f))
            .is_some_and(|f| f.performed);
        if self.phase == Phase::Story && climax_done {
            Some("Resolution")
        } else {
            self.phase.act()
        }
    }

    /// Whether the timer should stand still now: play is paused, or it is held.
    pub fn timer_should_stop(&self) -> bool {
        self.timer.is_some_and(|t| t.held) || self.paused()
    }

    /// The character of a player.
    pub fn character_of(&self, player: PlayerId) -> Option<ObjectId> {
        if self.index.built {
            return self
                .index
                .characters
                .get(&player)
                .and_then(|c| c.first().copied());
        }
        self.objects
            .iter()
            .find(|(_, o)| Self::player_of(o) == Some(player))
            .map(|(id, _)| *id)
    }

    /// An object's aspects, in the order attached.
    pub fn aspects_of(&self, object: ObjectId) -> impl Iterator<Item = (AspectId, &Aspect)> {
        let indexed = self.index.aspects.get(&object).into_iter().flatten();
        // Without the index, every aspect is looked at; with it, none.
        let walked = self
            .aspects
            .iter()
            .take(if self.index.built { 0 } else { usize::MAX })
            .filter(move |(_, a)| a.object == object)
            .map(|(id, _)| id);
        indexed
            .chain(walked)
            .filter_map(|id| Some((*id, self.aspects.get(id)?)))
    }

    /// A pair that uses an aspect, if any.
    pub fn pair_using(&self, aspect: AspectId) -> Option<PairId> {
        if self.index.built {
            return self
                .index
                .pairs
                .get(&aspect)
                .and_then(|p| p.first().copied());
        }
        self.pairs
            .iter()
            .find(|(_, p)| p.character_aspect == aspect || p.environment_aspect == aspect)
            .map(|(id, _)| *id)
    }

    /// The five categories a character still lacks (their names), empty when complete.
    pub fn missing_categories(&self, character: ObjectId) -> Vec<&'static str> {
        let mut have = [false; 5];
        for (_, aspect) in self.aspects_of(character) {
            if let Some(category) = aspect.category {
                have[category.index()] = true;
            }
        }
        crate::model::CATEGORY_NAMES
            .iter()
            .zip(have)
            .filter(|(_, has)| !has)
            .map(|(name, _)| *name)
            .collect()
    }

    /// Whether an aspect is a character aspect.
    pub fn is_character_aspect(&self, aspect: AspectId) -> Option<bool> {
        let a = self.aspects.get(&aspect)?;
        Some(self.objects.get(&a.object)?.kind.is_character())
    }

    /// Scenes below the Finale to this one (the Finale is 0). It walks up the outline, so it
    /// takes time in the depth; for every scene at once, see [`crate::export::outline_view`].
    pub fn depth(&self, scene: SceneId) -> u32 {
        let mut depth = 0u32;
        let mut at = scene;
        while let Some(parent) = self.scenes.get(&at).and_then(|s| s.parent) {
            // Each step leaves a scene of the outline, so more steps than scenes means a cycle
            // of parents (a crafted log): stop there rather than loop.
            if depth as usize >= self.scenes.len() {
                break;
            }
            depth += 1;
            at = parent;
        }
        depth
    }

    /// The scene's level in the outline: Finale, then primary, secondary, tertiary (and, under
    /// edition 1.1's five levels, quaternary) scenes.
    pub fn level(&self, scene: SceneId) -> &'static str {
        if self.ruleset.is_temporal() {
            temporal_level_at_depth(self.depth(scene))
        } else {
            level_at_depth(self.depth(scene))
        }
    }

    /// When the scene being played has its advisory time up, if its timer counts now (the
    /// timer never stops play).
    pub fn timer_deadline(&self) -> Option<Timestamp> {
        let timer = self.timer?;
        timer
            .stopped_since
            .is_none()
            .then(|| timer.deadline(self.ruleset.scene_minutes()))
    }

    /// Scenes that may be performed now: not performed, not in progress, and every precursor
    /// performed (so the Finale comes last).
    pub fn available_scenes(&self) -> Vec<SceneId> {
        if self.phase != Phase::Story {
            return Vec::new();
        }
        self.scenes
            .iter()
            .filter(|(id, s)| {
                !s.performed
                    && self.in_progress != Some(**id)
                    && s.precursors
                        .iter()
                        .all(|p| self.scenes.get(p).is_none_or(|p| p.performed))
            })
            .map(|(id, _)| *id)
            .collect()
    }

    /// The check's pool for a scene now: one die per proposed pair nobody objects to, in
    /// order, then one reward die per precursor resolved successfully.
    pub fn pool(&self, scene: SceneId) -> Vec<PoolEntry> {
        let Some(s) = self.scenes.get(&scene) else {
            return Vec::new();
        };
        let pairs = s
            .pairs
            .iter()
            .filter(|p| self.pairs.get(p).is_some_and(|p| self.counts(p)))
            .map(|p| PoolEntry::MatchingPair { pair: p.0 });
        let rewards = s
            .precursors
            .iter()
            .filter(|p| self.scenes.get(*p).and_then(Scene::outcome) == Some(Outcome::Success))
            .map(|p| PoolEntry::RewardDie { precursor: p.0 });
        pairs.chain(rewards).collect()
    }

    /// Play is paused while any text is flagged, and by the X-card.
    pub fn paused(&self) -> bool {
        !self.flags.is_empty() || self.x_card.is_some()
    }

    /// Whether a text is hidden by a flag.
    pub fn is_flagged(&self, target: TextRef) -> bool {
        self.flags.contains(&target)
    }

    /// What the players should know though nothing forbids it.
    pub fn warnings(&self) -> Vec<Warning> {
        let mut warnings = Vec::new();
        let players = self.playing().count();
        // Temporal Mechanics names no number of players.
        if self.opened && !self.ruleset.is_temporal() && !(3..=6).contains(&players) {
            warnings.push(Warning::PlayerCount { players });
        }
        if self.scenes.len() > 8 {
            warnings.push(Warning::LongOutline {
                scenes: self.scenes.len(),
            });
        }
        warnings
    }

    /// The relationship category's other character, if the aspect has one.
    pub fn relationship_target(&self, aspect: AspectId) -> Option<ObjectId> {
        match self.aspects.get(&aspect)?.category? {
            AspectCategory::Relationship { with } => Some(with),
            _ => None,
        }
    }
}

/// The level of a scene `depth` edges below the Finale: Finale, then primary, secondary,
/// tertiary (and, under edition 1.1's five levels, quaternary) scenes.
pub fn level_at_depth(depth: u32) -> &'static str {
    match depth {
        0 => "Finale",
        1 => "Primary scene",
        2 => "Secondary scene",
        3 => "Tertiary scene",
        _ => "Quaternary scene",
    }
}

/// Temporal Mechanics' words for a scene `depth` edges below the climax.
pub fn temporal_level_at_depth(depth: u32) -> &'static str {
    match depth {
        0 => "Climactic scene",
        1 => "Depth 1 scene",
        2 => "Depth 2 scene",
        _ => "Depth 3 scene",
    }
}
