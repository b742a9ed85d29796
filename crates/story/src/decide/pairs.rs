//! Pairs: a character's aspect matched with one in the scene, judged by the table.

use super::{Decision, Rules, limits, optional_text};
use crate::event::Event;
use crate::ids::{AspectId, PairId, SceneId};
use crate::model::{Motion, TextRef};
use crate::refusal::Refusal;

impl Rules<'_> {
    pub(super) fn propose_pair(
        &self,
        scene: SceneId,
        character_aspect: AspectId,
        environment_aspect: AspectId,
        justification: String,
    ) -> Decision {
        let state = self.state;
        self.not_moderator("propose pairs")?;
        let s = self.in_progress(scene)?;
        self.pool_open(scene)?;
        let kind = |a| {
            state
                .is_character_aspect(a)
                .ok_or(Refusal::Unknown { what: "aspect" })
        };
        match (kind(character_aspect)?, kind(environment_aspect)?) {
            (true, false) => {}
            (false, true) => {
                // Given the other way round: the pair is the same pair.
                return self.propose_pair(
                    scene,
                    environment_aspect,
                    character_aspect,
                    justification,
                );
            }
            (both, _) => return Err(Refusal::PairOfOneKind { characters: both }),
        }
        let object = state.aspects[&environment_aspect].object;
        if !s.setting.objects.contains(&object) {
            return Err(Refusal::NotInScene {
                object: state.objects[&object].name.clone(),
            });
        }
        let duplicate = s.pairs.iter().filter_map(|p| state.pairs.get(p)).any(|p| {
            p.character_aspect == character_aspect && p.environment_aspect == environment_aspect
        });
        if duplicate {
            return Err(Refusal::DuplicatePair);
        }
        if s.pairs.len() >= limits::PAIRS_PER_CHECK {
            return Err(Refusal::TooMany {
                what: "matching pairs in one check",
                max: limits::PAIRS_PER_CHECK,
            });
        }
        let justification = optional_text("justification", &justification, limits::JUSTIFICATION)?;
        Ok(vec![Event::PairProposed {
            pair: PairId(self.new_id()),
            scene,
            character_aspect,
            environment_aspect,
            by: self.by,
            justification,
        }])
    }

    pub(super) fn edit_justification(&self, pair: PairId, justification: String) -> Decision {
        let state = self.state;
        let p = state
            .pairs
            .get(&pair)
            .ok_or(Refusal::Unknown { what: "pair" })?;
        if self.scene(p.scene)?.check.is_some() && !state.is_flagged(TextRef::Justification(pair)) {
            return Err(Refusal::AlreadyChecked);
        }
        let justification = optional_text("justification", &justification, limits::JUSTIFICATION)?;
        Ok(vec![Event::JustificationEdited {
            pair,
            justification,
        }])
    }

    pub(super) fn withdraw_pair(&self, pair: PairId) -> Decision {
        let p = self.pair(pair)?;
        if p.proposed_by != self.by {
            return Err(Refusal::NotYourPair);
        }
        self.pool_open(p.scene)?;
        Ok(vec![Event::PairWithdrawn { pair }])
    }

    pub(super) fn accept_pair(&self, pair: PairId) -> Decision {
        let p = self.pair(pair)?;
        self.may_judge(p.scene)?;
        if p.proposed_by == self.by {
            return Err(Refusal::OwnPair);
        }
        if p.accepted_by.contains(&self.by) && !p.objections.contains(&self.by) {
            return Ok(Vec::new());
        }
        Ok(vec![Event::PairAccepted { pair, by: self.by }])
    }

    pub(super) fn object_to_pair(&self, pair: PairId) -> Decision {
        let state = self.state;
        let p = self.pair(pair)?;
        self.may_judge(p.scene)?;
        if p.proposed_by == self.by {
            return Err(Refusal::OwnPair);
        }
        if p.objections.contains(&self.by) {
            return Ok(Vec::new());
        }
        let mut events = Vec::new();
        // An objection says "not yet" to a check proposed with the pair in it.
        if let Some(open) = &state.proposal
            && matches!(open.motion, Motion::MakeCheck { scene, .. } if scene == p.scene)
        {
            events.push(Event::ProposalStopped {
                proposal: open.id,
                by: self.by,
            });
        }
        events.push(Event::PairObjected { pair, by: self.by });
        Ok(events)
    }

    /// Nothing changes the pool while the table decides on the check or rolls real dice.
    pub(super) fn pool_open(&self, scene: SceneId) -> Result<(), Refusal> {
        if let Some(p) = &self.state.proposal
            && matches!(p.motion, Motion::MakeCheck { scene: s, .. } if s == scene)
        {
            return Err(Refusal::ProposalOpen { motion: p.motion });
        }
        let s = self.scene(scene)?;
        if s.check.is_some() {
            return Err(Refusal::AlreadyChecked);
        }
        if s.rolling {
            return Err(Refusal::Rolling);
        }
        Ok(())
    }

    pub(super) fn pair(&self, pair: PairId) -> Result<&crate::model::MatchingPair, Refusal> {
        self.state
            .pairs
            .get(&pair)
            .ok_or(Refusal::Unknown { what: "pair" })
    }

    /// Judging a pair (accepting, objecting) is for players, before the check.
    pub(super) fn may_judge(&self, scene: SceneId) -> Result<(), Refusal> {
        self.not_moderator("judge pairs")?;
        let s = self.scene(scene)?;
        if s.check.is_some() {
            return Err(Refusal::AlreadyChecked);
        }
        if s.rolling {
            return Err(Refusal::Rolling);
        }
        Ok(())
    }
}
