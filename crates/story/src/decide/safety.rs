//! Safety: lines (excluded content), flags on texts, and the X-card pause.

use super::{Decision, Rules, limits, text};
use crate::event::Event;
use crate::ids::LineId;
use crate::model::TextRef;
use crate::refusal::Refusal;

impl Rules<'_> {
    pub(super) fn add_line(&self, line: String) -> Decision {
        let state = self.state;
        if state.lines.len() >= limits::LINES {
            return Err(Refusal::TooMany {
                what: "lines",
                max: limits::LINES,
            });
        }
        let text = text("line", &line, limits::LINE)?;
        Ok(vec![Event::LineAdded {
            line: LineId(self.new_id()),
            text,
            by: Some(self.by),
        }])
    }

    pub(super) fn remove_line(&self, line: LineId) -> Decision {
        let state = self.state;
        if !state.lines.contains_key(&line) {
            return Err(Refusal::Unknown { what: "line" });
        }
        // Lines from before they had authors can be lifted by anyone.
        if state.line_authors.get(&line).is_some_and(|a| *a != self.by) {
            return Err(Refusal::NotYourLine);
        }
        Ok(vec![Event::LineRemoved { line }])
    }

    pub(super) fn flag(&self, target: TextRef) -> Decision {
        let state = self.state;
        if !state.text_exists(target) {
            return Err(Refusal::Unknown { what: "text" });
        }
        if state.is_flagged(target) {
            return Err(Refusal::AlreadyFlagged);
        }
        Ok(vec![Event::Flagged { target }])
    }

    pub(super) fn pause(&self) -> Decision {
        let state = self.state;
        if state.x_card.is_some() {
            return Err(Refusal::AlreadyPaused);
        }
        Ok(vec![Event::TablePaused { by: Some(self.by) }])
    }

    pub(super) fn resume(&self) -> Decision {
        let state = self.state;
        let x_card = state.x_card.ok_or(Refusal::NotPaused)?;
        if x_card.by.is_some_and(|p| p != self.by) {
            return Err(Refusal::NotYourPause);
        }
        Ok(vec![Event::TableResumed])
    }
}
