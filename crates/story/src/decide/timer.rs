//! The scene timer: held, released, extended and reset by whoever keeps time.

use super::{Decision, Rules, limits};
use crate::event::Event;
use crate::ids::Timestamp;
use crate::refusal::Refusal;
use crate::state::State;

/// The scene timer stops while play is paused or the timer is held, and counts again after:
/// whatever the command, if its events change that, the timer's own event follows them.
pub(super) fn timer_follows(state: &State, at: Timestamp, events: &mut Vec<Event>) {
    let starts_timer = |e: &Event| {
        matches!(
            e,
            Event::SceneStarted { .. } | Event::TimerStarted { .. } | Event::TimerReset { .. }
        )
    };
    if state.timer.is_none() && !events.iter().any(starts_timer) {
        return;
    }
    // While play runs and the timer is not held, only these can stop it: no need to fold the
    // events into a copy of the state (a large game's copy costs more than the decision).
    let stops = |e: &Event| {
        matches!(
            e,
            Event::Flagged { .. } | Event::TablePaused { .. } | Event::TimerHeld
        )
    };
    let stopped = state.timer_should_stop();
    if !stopped && !events.iter().any(|e| stops(e) || starts_timer(e)) {
        return;
    }
    let after = events.iter().fold(state.clone(), crate::evolve);
    let Some(timer) = after.timer else { return };
    match (after.timer_should_stop(), timer.stopped_since.is_some()) {
        (true, false) => events.push(Event::TimerStopped { at }),
        (false, true) => events.push(Event::TimerCounting { at }),
        _ => {}
    }
}

impl Rules<'_> {
    pub(super) fn hold_timer(&self) -> Decision {
        if self.keeps_time()?.held {
            return Ok(Vec::new());
        }
        Ok(vec![Event::TimerHeld])
    }

    pub(super) fn release_timer(&self) -> Decision {
        if !self.keeps_time()?.held {
            return Ok(Vec::new());
        }
        Ok(vec![Event::TimerReleased])
    }

    pub(super) fn extend_timer(&self, minutes: u32) -> Decision {
        self.keeps_time()?;
        if !(1..=limits::EXTEND_MINUTES).contains(&minutes) {
            return Err(Refusal::BadExtension {
                max: limits::EXTEND_MINUTES,
            });
        }
        Ok(vec![Event::TimerExtended { minutes }])
    }

    pub(super) fn reset_timer(&self) -> Decision {
        self.keeps_time()?;
        Ok(vec![Event::TimerReset { at: self.at }])
    }

    /// Timer controls: the moderator's when there is one, else anyone's.
    pub(super) fn keeps_time(&self) -> Result<crate::model::Timer, Refusal> {
        if let Some(m) = self.state.moderator
            && m != self.by
        {
            return Err(Refusal::ModeratorKeepsTime);
        }
        self.state.timer.ok_or(Refusal::NoTimer)
    }
}
