//! Scenes: started, cancelled, narrated and finished while telling the story.

use super::{Decision, Rules, limits, text};
use crate::event::Event;
use crate::ids::SceneId;
use crate::model::{Motion, Phase, TextRef, Timed};
use crate::refusal::Refusal;

impl Rules<'_> {
    pub(super) fn start_scene(&self, scene: SceneId) -> Decision {
        let state = self.state;
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

    pub(super) fn cancel_scene(&self, scene: SceneId) -> Decision {
        let state = self.state;
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

    pub(super) fn narrate(&self, scene: SceneId, narration: String) -> Decision {
        self.not_moderator_unless_flagged("narrate", TextRef::Narration(scene))?;
        let s = self.scene(scene)?;
        if s.check.is_none() {
            return Err(Refusal::NotChecked);
        }
        let text = text("narration", &narration, limits::LONG_TEXT)?;
        Ok(vec![Event::Narrated { scene, text }])
    }

    pub(super) fn finish_scene(&self, scene: SceneId) -> Decision {
        let state = self.state;
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

    pub(super) fn narrate_long_term_effects(&self, effects: String) -> Decision {
        self.not_moderator_unless_flagged("narrate", TextRef::LongTermEffects)?;
        if !self.finale_performed() {
            return Err(Refusal::FinaleNotPerformed);
        }
        let text = text("long-term effects", &effects, limits::LONG_TEXT)?;
        Ok(vec![Event::LongTermEffectsNarrated { text }])
    }

    pub(super) fn finale_performed(&self) -> bool {
        self.state
            .finale
            .and_then(|f| self.state.scenes.get(&f))
            .is_some_and(|f| f.performed)
    }
}
