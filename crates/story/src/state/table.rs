//! How the table changes: players, the moderator, the phase, the published story.

use super::State;
use crate::ids::PlayerId;
use crate::model::{Motion, ObjectKind, Phase, Player};

impl State {
    pub(super) fn player_joined(&mut self, player: &PlayerId, name: &str) {
        self.players.insert(
            *player,
            Player {
                name: name.to_owned(),
                removed: false,
            },
        );
    }

    pub(super) fn player_removed(&mut self, player: &PlayerId) {
        if let Some(p) = self.players.get_mut(player) {
            p.removed = true;
        }
        if self.moderator == Some(*player) {
            self.moderator = None;
        }
        for id in self.index.characters.remove(player).unwrap_or_default() {
            if let Some(object) = self.objects.get_mut(&id) {
                object.kind = ObjectKind::Character { player: None };
            }
        }
    }

    pub(super) fn phase_began(&mut self, phase: &Phase) {
        self.phase = *phase;
        self.drop_proposal(|m| matches!(m, Motion::Advance { .. } | Motion::ReturnToOutline));
    }
}
