//! Objects: characters and the rest, and the aspects on them.

use super::{Decision, Rules, limits, text};
use crate::event::Event;
use crate::ids::{AspectId, ObjectId};
use crate::model::{AspectCategory, ObjectKind, Phase, TextRef};
use crate::refusal::Refusal;

impl Rules<'_> {
    pub(super) fn create_character(&self, name: String) -> Decision {
        let state = self.state;
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

    pub(super) fn create_object(&self, name: String, kind: ObjectKind) -> Decision {
        let state = self.state;
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

    pub(super) fn rename(&self, object: ObjectId, name: String) -> Decision {
        let state = self.state;
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

    pub(super) fn remove_object(&self, object: ObjectId) -> Decision {
        let state = self.state;
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

    pub(super) fn attach_aspect(
        &self,
        object: ObjectId,
        aspect: String,
        category: Option<AspectCategory>,
    ) -> Decision {
        let state = self.state;
        let kind = self.object_kind(object)?;
        self.not_moderator("attach aspects")?;
        self.may_change(object)?;
        if let Some(category) = category {
            if !kind.is_character() {
                return Err(Refusal::CategoryForCharactersOnly);
            }
            if let AspectCategory::Relationship { with } = category {
                // Temporal Mechanics calls NPCs characters too ("two kinds of characters"), so
                // a PC's relationship may be with one; NPCs exist only there.
                let other = (state.objects.get(&with))
                    .map(|o| o.kind.is_character() || o.kind == ObjectKind::Npc);
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

    pub(super) fn edit_aspect(&self, aspect: AspectId, new: String) -> Decision {
        let state = self.state;
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

    pub(super) fn remove_aspect(&self, aspect: AspectId) -> Decision {
        let state = self.state;
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

    pub(super) fn room_for_object(&self) -> Result<(), Refusal> {
        if self.state.objects.len() >= limits::OBJECTS {
            return Err(Refusal::TooMany {
                what: "objects",
                max: limits::OBJECTS,
            });
        }
        Ok(())
    }

    pub(super) fn aspect_in_pair(&self, aspect: AspectId) -> bool {
        self.state.pair_using(aspect).is_some()
    }
}
