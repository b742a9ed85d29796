//! The prophecy: rolled from a world, taken from a module, or written.

use super::{Decision, Rules, limits, text};
use crate::content::{Module, World};
use crate::event::Event;
use crate::model::{Phase, ProphecySource, TextRef};
use crate::refusal::Refusal;
use dice::Seed;
use dice::d66;

/// A world passed in a command must have a full table (groups can bring their own).
pub(super) fn check_world(world: &World) -> Result<(), Refusal> {
    if world.catastrophes.len() != 36 {
        return Err(Refusal::InvalidWorld {
            problem: format!(
                "its catastrophe table has {} entries instead of 36",
                world.catastrophes.len()
            ),
        });
    }
    if world.catastrophes.iter().any(|c| c.trim().is_empty()) {
        return Err(Refusal::InvalidWorld {
            problem: "an entry of its catastrophe table is empty".into(),
        });
    }
    if world
        .catastrophes
        .iter()
        .any(|c| c.chars().count() > crate::content::MAX_CATASTROPHE_CHARS)
    {
        return Err(Refusal::InvalidWorld {
            problem: format!(
                "an entry of its table is longer than {} characters",
                crate::content::MAX_CATASTROPHE_CHARS
            ),
        });
    }
    Ok(())
}

impl Rules<'_> {
    /// A prophecy is received before the characters are created. Temporal Mechanics' warning
    /// is prepared in the Setup, once the flashback is told.
    fn receiving_time(&self) -> Result<(), Refusal> {
        if self.state.ruleset.is_temporal() {
            return self.warning_time();
        }
        self.only_in(
            &[Phase::Prophecy],
            "receiving the prophecy",
            "before the characters are created",
        )
    }

    /// The warning is sent back when the Confrontation begins: after that it stays as it was.
    fn warning_time(&self) -> Result<(), Refusal> {
        match self.state.phase {
            _ if self.state.prophecy_open() => Ok(()),
            Phase::Story | Phase::Ended => Err(Refusal::ProphecyLocked),
            _ => Err(Refusal::WarningAfterFlashback),
        }
    }

    pub(super) fn roll_catastrophe(&self, world: World, seed: Seed) -> Decision {
        self.receiving_time()?;
        check_world(&world)?;
        let roll = d66::roll(seed);
        Ok(vec![Event::ProphecyReceived {
            source: ProphecySource::Catastrophe {
                world: world.name.clone(),
                roll,
                seed,
            },
            text: world.catastrophe(roll).to_owned(),
        }])
    }

    pub(super) fn pick_module(&self, module: Module) -> Decision {
        self.receiving_time()?;
        let title = text("module title", &module.title, limits::NAME)?;
        let text = text("prophecy", &module.prophecy, limits::LONG_TEXT)?;
        Ok(vec![Event::ProphecyReceived {
            source: ProphecySource::Module { title },
            text,
        }])
    }

    pub(super) fn write_prophecy(&self, prophecy: String) -> Decision {
        let state = self.state;
        // A flagged text can always be replaced, or play would stay paused for good.
        let replacing = state.is_flagged(TextRef::Prophecy);
        if !replacing && state.ruleset.is_temporal() {
            self.warning_time()?;
        } else if !replacing && !state.prophecy_open() {
            return Err(Refusal::ProphecyLocked);
        }
        let text = text("prophecy", &prophecy, limits::LONG_TEXT)?;
        Ok(vec![match state.prophecy {
            Some(_) => Event::ProphecyEdited { text },
            None => Event::ProphecyReceived {
                source: ProphecySource::Written,
                text,
            },
        }])
    }
}
