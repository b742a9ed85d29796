//! How a scene is started, set aside, narrated and finished.

use super::State;
use crate::ids::{SceneId, Timestamp};
use crate::model::{Motion, TextRef, Timed, Timer};

impl State {
    pub(super) fn scene_started(&mut self, scene: &SceneId, at: &Timestamp) {
        self.in_progress = Some(*scene);
        if let Some(s) = self.scenes.get_mut(scene) {
            s.started_at = Some(*at);
        }
        self.timer = Some(Timer::start(Timed::Scene(*scene), *at));
    }

    pub(super) fn scene_cancelled(&mut self, scene: &SceneId) {
        if self.in_progress == Some(*scene) {
            self.in_progress = None;
        }
        // Set aside, it is not started: it waits with the others, its pairs kept.
        if let Some(s) = self.scenes.get_mut(scene) {
            s.rolling = false;
            s.started_at = None;
        }
        self.stop_timer(Timed::Scene(*scene));
        self.drop_proposal(|m| matches!(m, Motion::MakeCheck { scene: s, .. } if s == *scene));
    }

    pub(super) fn narrated(&mut self, scene: &SceneId, text: &str) {
        self.flags.remove(&TextRef::Narration(*scene));
        if let Some(s) = self.scenes.get_mut(scene) {
            s.narration = Some(text.to_owned());
        }
    }

    pub(super) fn scene_finished(&mut self, scene: &SceneId) {
        if self.in_progress == Some(*scene) {
            self.in_progress = None;
        }
        if let Some(s) = self.scenes.get_mut(scene) {
            s.performed = true;
        }
        self.stop_timer(Timed::Scene(*scene));
    }
}
