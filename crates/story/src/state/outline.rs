//! How the outline changes: scenes sketched and removed, their objectives and settings.

use super::{State, link, unlink};
use crate::ids::{ObjectId, SceneId};
use crate::model::{Scene, TextRef, Timed};

impl State {
    pub(super) fn scene_sketched(
        &mut self,
        scene: &SceneId,
        parent: &Option<SceneId>,
        objective: &str,
        difficulty: &u32,
    ) {
        self.claim(scene.0);
        let old = self.scenes.insert(
            *scene,
            Scene {
                parent: *parent,
                objective: objective.to_owned(),
                difficulty: *difficulty,
                setting: Default::default(),
                precursors: Vec::new(),
                started_at: None,
                pairs: Vec::new(),
                check: None,
                narration: None,
                performed: false,
                rolling: false,
            },
        );
        for object in old.map(|old| old.setting.objects).unwrap_or_default() {
            unlink(&mut self.index.placed, object, scene);
        }
        match parent {
            Some(parent) => {
                if let Some(p) = self.scenes.get_mut(parent) {
                    p.precursors.push(*scene);
                }
            }
            None => self.finale = Some(*scene),
        }
    }

    pub(super) fn objective_edited(&mut self, scene: &SceneId, objective: &str) {
        self.flags.remove(&TextRef::Objective(*scene));
        if let Some(s) = self.scenes.get_mut(scene) {
            s.objective = objective.to_owned();
        }
    }

    pub(super) fn scene_removed(&mut self, scene: &SceneId) {
        if let Some(removed) = self.scenes.remove(scene) {
            for object in &removed.setting.objects {
                unlink(&mut self.index.placed, *object, scene);
            }
            if let Some(parent) = removed.parent
                && let Some(p) = self.scenes.get_mut(&parent)
            {
                p.precursors.retain(|s| s != scene);
            }
        }
        // By the scene's id, not by its lack of a parent: the Finale never names a scene
        // that is gone, whatever the log.
        if self.finale == Some(*scene) {
            self.finale = None;
        }
        if self.in_progress == Some(*scene) {
            self.in_progress = None;
        }
        self.stop_timer(Timed::Scene(*scene));
        for pair in self
            .pairs
            .iter()
            .filter(|(_, p)| p.scene == *scene)
            .map(|(id, _)| *id)
            .collect::<Vec<_>>()
        {
            self.remove_pair(pair);
        }
        for target in [
            TextRef::Objective(*scene),
            TextRef::Setting(*scene),
            TextRef::Narration(*scene),
        ] {
            self.flags.remove(&target);
        }
    }

    pub(super) fn setting_changed(&mut self, scene: &SceneId, time: &str, place: &str) {
        self.flags.remove(&TextRef::Setting(*scene));
        if let Some(s) = self.scenes.get_mut(scene) {
            s.setting.time = time.to_owned();
            s.setting.place = place.to_owned();
        }
    }

    pub(super) fn object_placed(&mut self, scene: &SceneId, object: &ObjectId) {
        if let Some(s) = self.scenes.get_mut(scene) {
            s.setting.objects.push(*object);
            link(&mut self.index.placed, *object, *scene);
        }
    }

    pub(super) fn object_withdrawn(&mut self, scene: &SceneId, object: &ObjectId) {
        if let Some(s) = self.scenes.get_mut(scene) {
            s.setting.objects.retain(|o| o != object);
            unlink(&mut self.index.placed, *object, scene);
        }
    }
}
