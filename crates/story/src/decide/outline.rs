//! The outline: the flashback, the scenes sketched, their objectives and settings.

use super::{Decision, Rules, limits, optional_text, text};
use crate::event::Event;
use crate::ids::{ObjectId, SceneId};
use crate::model::{Phase, Scene, TextRef};
use crate::refusal::Refusal;

impl Rules<'_> {
    pub(super) fn narrate_flashback(&self, flashback: String) -> Decision {
        let state = self.state;
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

    pub(super) fn sketch_finale(&self, objective: String) -> Decision {
        let state = self.state;
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

    pub(super) fn sketch_scene(&self, parent: SceneId, objective: String) -> Decision {
        let state = self.state;
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

    pub(super) fn edit_objective(&self, scene: SceneId, objective: String) -> Decision {
        let state = self.state;
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

    pub(super) fn remove_scene(&self, scene: SceneId) -> Decision {
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

    pub(super) fn set_setting(&self, scene: SceneId, time: String, place: String) -> Decision {
        let state = self.state;
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

    pub(super) fn place_object(&self, scene: SceneId, object: ObjectId) -> Decision {
        self.not_moderator("place objects")?;
        let s = self.setting_editable(scene)?;
        self.object_kind(object)?;
        if s.setting.objects.contains(&object) {
            return Err(Refusal::AlreadyPlaced);
        }
        Ok(vec![Event::ObjectPlaced { scene, object }])
    }

    pub(super) fn withdraw_object(&self, scene: SceneId, object: ObjectId) -> Decision {
        let state = self.state;
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

    /// Settings are written with the outline and grow while a scene is investigated.
    pub(super) fn setting_editable(&self, scene: SceneId) -> Result<&Scene, Refusal> {
        self.only_in(
            &[Phase::Outline, Phase::Story],
            "changing a scene's setting",
            "while writing the outline or telling the story",
        )?;
        self.unperformed(scene)
    }
}
