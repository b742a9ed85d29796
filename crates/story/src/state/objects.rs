//! How objects, characters included, and their aspects change.

use super::{State, link, unlink};
use crate::ids::{AspectId, ObjectId, PlayerId};
use crate::model::{Aspect, AspectCategory, Object, ObjectKind, TextRef};

impl State {
    pub(super) fn character_created(&mut self, object: &ObjectId, player: &PlayerId, name: &str) {
        self.claim(object.0);
        self.put_object(
            *object,
            Object {
                name: name.to_owned(),
                kind: ObjectKind::Character {
                    player: Some(*player),
                },
            },
        );
    }

    pub(super) fn object_created(&mut self, object: &ObjectId, name: &str, kind: &ObjectKind) {
        self.claim(object.0);
        self.put_object(
            *object,
            Object {
                name: name.to_owned(),
                kind: *kind,
            },
        );
    }

    pub(super) fn object_renamed(&mut self, object: &ObjectId, name: &str) {
        self.flags.remove(&TextRef::ObjectName(*object));
        if let Some(o) = self.objects.get_mut(object) {
            o.name = name.to_owned();
        }
    }

    pub(super) fn object_removed(&mut self, object: &ObjectId) {
        if let Some(p) = self
            .objects
            .remove(object)
            .as_ref()
            .and_then(Self::player_of)
        {
            unlink(&mut self.index.characters, p, object);
        }
        self.flags.remove(&TextRef::ObjectName(*object));
        for aspect in self.index.aspects.remove(object).unwrap_or_default() {
            self.aspects.remove(&aspect);
            self.flags.remove(&TextRef::Aspect(aspect));
        }
        for scene in self.index.placed.remove(object).unwrap_or_default() {
            if let Some(scene) = self.scenes.get_mut(&scene) {
                scene.setting.objects.retain(|o| o != object);
            }
        }
    }

    pub(super) fn aspect_attached(
        &mut self,
        aspect: &AspectId,
        object: &ObjectId,
        text: &str,
        category: &Option<AspectCategory>,
    ) {
        self.claim(aspect.0);
        let old = self.aspects.insert(
            *aspect,
            Aspect {
                object: *object,
                text: text.to_owned(),
                category: *category,
            },
        );
        if let Some(old) = old {
            unlink(&mut self.index.aspects, old.object, aspect);
        }
        link(&mut self.index.aspects, *object, *aspect);
    }

    pub(super) fn aspect_edited(&mut self, aspect: &AspectId, text: &str) {
        self.flags.remove(&TextRef::Aspect(*aspect));
        if let Some(a) = self.aspects.get_mut(aspect) {
            a.text = text.to_owned();
        }
    }

    pub(super) fn aspect_removed(&mut self, aspect: &AspectId) {
        self.flags.remove(&TextRef::Aspect(*aspect));
        if let Some(old) = self.aspects.remove(aspect) {
            unlink(&mut self.index.aspects, old.object, aspect);
        }
    }
}
