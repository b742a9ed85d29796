//! Checks: faces typed in from real dice.

use super::{Decision, Rules, limits};
use crate::event::Event;
use crate::ids::SceneId;
use crate::model::CheckRecord;
use crate::refusal::Refusal;
use dice::check;

impl Rules<'_> {
    pub(super) fn enter_faces(&self, scene: SceneId, faces: Vec<u8>) -> Decision {
        let state = self.state;
        self.not_moderator("roll the dice")?;
        let s = self.in_progress(scene)?;
        self.not_paused()?;
        if s.check.is_some() {
            return Err(Refusal::AlreadyChecked);
        }
        if !s.rolling {
            return Err(Refusal::NotRolling);
        }
        if faces.len() > limits::FACES {
            return Err(Refusal::TooMany {
                what: "dice typed in for one check",
                max: limits::FACES,
            });
        }
        let pool = state.pool(scene);
        let roll = check::roll_given_faces(&pool, &faces).map_err(|e| Refusal::FacesDoNotFit {
            problem: e.to_string(),
        })?;
        let outcome = roll.outcome(s.difficulty);
        Ok(vec![Event::CheckMade {
            scene,
            check: CheckRecord {
                difficulty: s.difficulty,
                roll,
                outcome,
                physical: true,
            },
        }])
    }
}
