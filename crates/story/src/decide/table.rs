//! The table: who sits at it, the moderator's question, and the published story's page.

use super::{Decision, Rules, limits, text};
use crate::event::Event;
use crate::ids::PlayerId;
use crate::model::TextRef;
use crate::refusal::Refusal;
use crate::state::State;

pub(super) fn join(state: &State, by: PlayerId, name: String) -> Decision {
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

impl Rules<'_> {
    pub(super) fn remove_player(&self, player: PlayerId) -> Decision {
        let state = self.state;
        if !state.is_present(player) {
            return Err(Refusal::UnknownPlayer);
        }
        Ok(vec![Event::PlayerRemoved { player }])
    }

    pub(super) fn ask_question(&self, question: String) -> Decision {
        let state = self.state;
        // Anyone may replace a flagged question, or a table whose moderator left would
        // stay paused.
        if state.moderator != Some(self.by) && !state.is_flagged(TextRef::Question) {
            return Err(Refusal::OnlyTheModeratorAsks);
        }
        let text = text("question", &question, limits::QUESTION)?;
        Ok(vec![Event::QuestionAsked { text }])
    }

    pub(super) fn withdraw_story(&self) -> Decision {
        Ok(if self.state.published {
            vec![Event::StoryWithdrawn]
        } else {
            Vec::new()
        })
    }

    pub(super) fn close_watch(&self) -> Decision {
        Ok(if self.state.watched {
            vec![Event::WatchClosed]
        } else {
            Vec::new()
        })
    }
}
