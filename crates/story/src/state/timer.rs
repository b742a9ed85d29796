//! How the scene timer stops, counts again and is reset.

use super::State;
use crate::ids::Timestamp;

impl State {
    pub(super) fn timer_stopped(&mut self, at: &Timestamp) {
        if let Some(t) = &mut self.timer
            && t.stopped_since.is_none()
        {
            t.stopped_since = Some(*at);
        }
    }

    pub(super) fn timer_counting(&mut self, at: &Timestamp) {
        if let Some(t) = &mut self.timer
            && let Some(since) = t.stopped_since.take()
        {
            t.added_ms = t
                .added_ms
                .saturating_add(at.0.saturating_sub(since.0).max(0));
        }
    }

    pub(super) fn timer_reset(&mut self, at: &Timestamp) {
        if let Some(t) = &mut self.timer {
            t.from = *at;
            t.added_ms = 0;
            t.stopped_since = t.stopped_since.map(|_| *at);
        }
    }
}
