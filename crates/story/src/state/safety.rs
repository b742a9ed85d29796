//! How the safety tools change the table: lines, flags and the X-card.

use super::State;
use crate::ids::{LineId, PlayerId};

impl State {
    pub(super) fn line_added(&mut self, line: &LineId, text: &str, by: &Option<PlayerId>) {
        self.claim(line.0);
        self.lines.insert(*line, text.to_owned());
        match by {
            Some(by) => self.line_authors.insert(*line, *by),
            None => self.line_authors.remove(line),
        };
    }
}
