//! How the prophecy is received and edited.

use super::State;
use crate::model::{Prophecy, ProphecySource, TextRef};

impl State {
    pub(super) fn prophecy_received(&mut self, source: &ProphecySource, text: &str) {
        self.flags.remove(&TextRef::Prophecy);
        self.prophecy = Some(Prophecy {
            source: source.clone(),
            text: text.to_owned(),
        });
    }

    pub(super) fn prophecy_edited(&mut self, text: &str) {
        self.flags.remove(&TextRef::Prophecy);
        if let Some(p) = &mut self.prophecy {
            p.text = text.to_owned();
        }
    }
}
