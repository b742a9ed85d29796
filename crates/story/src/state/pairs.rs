//! How matching pairs are proposed and judged.

use super::{State, link, unlink};
use crate::ids::{AspectId, PairId, PlayerId, SceneId};
use crate::model::{MatchingPair, TextRef};
use std::collections::BTreeSet;

impl State {
    pub(super) fn pair_proposed(
        &mut self,
        pair: &PairId,
        scene: &SceneId,
        character_aspect: &AspectId,
        environment_aspect: &AspectId,
        by: &PlayerId,
        justification: &str,
    ) {
        self.claim(pair.0);
        if let Some(old) = self.pairs.get(pair) {
            let aspects = [old.character_aspect, old.environment_aspect];
            for aspect in aspects {
                unlink(&mut self.index.pairs, aspect, pair);
            }
        }
        link(&mut self.index.pairs, *character_aspect, *pair);
        link(&mut self.index.pairs, *environment_aspect, *pair);
        self.pairs.insert(
            *pair,
            MatchingPair {
                scene: *scene,
                character_aspect: *character_aspect,
                environment_aspect: *environment_aspect,
                proposed_by: *by,
                justification: justification.to_owned(),
                accepted_by: BTreeSet::new(),
                objections: BTreeSet::new(),
            },
        );
        if let Some(s) = self.scenes.get_mut(scene) {
            s.pairs.push(*pair);
        }
    }

    pub(super) fn pair_accepted(&mut self, pair: &PairId, by: &PlayerId) {
        if let Some(p) = self.pairs.get_mut(pair) {
            p.objections.remove(by);
            if p.proposed_by != *by {
                p.accepted_by.insert(*by);
            }
        }
    }

    pub(super) fn pair_objected(&mut self, pair: &PairId, by: &PlayerId) {
        if let Some(p) = self.pairs.get_mut(pair) {
            p.accepted_by.remove(by);
            p.objections.insert(*by);
        }
    }

    pub(super) fn justification_edited(&mut self, pair: &PairId, justification: &str) {
        self.flags.remove(&TextRef::Justification(*pair));
        if let Some(p) = self.pairs.get_mut(pair) {
            p.justification = justification.to_owned();
        }
    }
}
