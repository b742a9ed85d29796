//! How a check is made.

use super::State;
use crate::ids::SceneId;
use crate::model::CheckRecord;

impl State {
    pub(super) fn check_made(&mut self, scene: &SceneId, check: &CheckRecord) {
        if let Some(s) = self.scenes.get_mut(scene) {
            s.check = Some(check.clone());
            s.rolling = false;
        }
    }
}
