//! Motions: what cannot be undone is proposed, agreed by every player, then carried.

use super::{Decision, Rules};
use crate::event::Event;
use crate::ids::{PlayerId, ProposalId};
use crate::model::{CheckRecord, Motion, Phase, Timed};
use crate::refusal::Refusal;
use dice::Seed;
use dice::check;

impl Rules<'_> {
    pub(super) fn stop(&self, proposal: ProposalId) -> Decision {
        let state = self.state;
        let open = self.open_proposal(proposal)?;
        // The moderator does not vote, but may take back their own proposal.
        if !state.votes(self.by) && open.by != self.by {
            return Err(Refusal::ModeratorCannot {
                what: "vote on proposals",
            });
        }
        Ok(vec![Event::ProposalStopped {
            proposal,
            by: self.by,
        }])
    }

    pub(super) fn open_proposal(&self, id: ProposalId) -> Result<&crate::model::Proposal, Refusal> {
        self.state
            .proposal
            .as_ref()
            .filter(|p| p.id == id)
            .ok_or(Refusal::NoSuchProposal)
    }

    pub(super) fn propose(&self, motion: Motion, seed: Seed) -> Decision {
        let state = self.state;
        if let Some(open) = &state.proposal {
            return Err(Refusal::ProposalOpen {
                motion: open.motion,
            });
        }
        match motion {
            Motion::MakeCheck { .. } => self.not_moderator("make checks")?,
            Motion::WithdrawPair { .. } => self.not_moderator("judge pairs")?,
            _ => {}
        }
        self.motion_possible(motion)?;
        let proposal = ProposalId(self.new_id());
        let mut events = vec![Event::ProposalMade {
            proposal,
            motion,
            by: self.by,
        }];
        // A table of one agrees at once.
        let voters = state.voters();
        if state.votes(self.by) && voters.len() == 1 && voters.contains(&self.by) {
            events.extend(self.carry(proposal, motion, seed)?);
        }
        Ok(events)
    }

    pub(super) fn agree(&self, id: ProposalId, seed: Seed) -> Decision {
        let state = self.state;
        let proposal = self.open_proposal(id)?;
        if !state.votes(self.by) {
            return Err(Refusal::ModeratorCannot {
                what: "vote on proposals",
            });
        }
        let mut events = Vec::new();
        let mut agreed = proposal.agreed.clone();
        if agreed.insert(self.by) {
            events.push(Event::ProposalAgreed {
                proposal: id,
                by: self.by,
            });
        }
        if state.voters().is_subset(&agreed) {
            self.motion_possible(proposal.motion)?;
            events.extend(self.carry(id, proposal.motion, seed)?);
        } else if events.is_empty() {
            return Err(Refusal::AlreadyAgreed);
        }
        Ok(events)
    }

    /// Whether the motion could carry now (checked when it is proposed and when it carries).
    pub(super) fn motion_possible(&self, motion: Motion) -> Result<(), Refusal> {
        let state = self.state;
        if motion != Motion::Resume {
            self.not_paused()?;
        }
        match motion {
            Motion::Advance { to: Phase::Ended } | Motion::EndGame => {
                if state.phase != Phase::Story {
                    return Err(Refusal::NotTheNextPhase {
                        from: state.phase,
                        to: Phase::Ended,
                    });
                }
                if !self.finale_performed() {
                    return Err(Refusal::FinaleNotPerformed);
                }
                if state.ruleset.is_temporal() && state.long_term_effects.is_none() {
                    return Err(Refusal::NoFlashforward);
                }
                Ok(())
            }
            Motion::Advance { to } => self.advance_possible(to),
            Motion::ReturnToOutline => {
                if state.phase != Phase::Story {
                    return Err(Refusal::NotNow {
                        what: "going back to the outline",
                        when: "while telling the story",
                        phase: state.phase,
                    });
                }
                if state
                    .scenes
                    .values()
                    .any(|s| s.check.is_some() || s.rolling)
                {
                    return Err(Refusal::StoryBegun);
                }
                Ok(())
            }
            Motion::MakeCheck {
                scene,
                accept_empty_pool,
            } => {
                let s = self.in_progress(scene)?;
                if s.check.is_some() {
                    return Err(Refusal::AlreadyChecked);
                }
                if s.rolling {
                    return Err(Refusal::Rolling);
                }
                let objected = s
                    .pairs
                    .iter()
                    .filter_map(|p| state.pairs.get(p))
                    .any(|p| !state.counts(p));
                if objected {
                    return Err(Refusal::PairUnderObjection);
                }
                if state.pool(scene).is_empty() && !accept_empty_pool {
                    return Err(Refusal::EmptyPool);
                }
                Ok(())
            }
            Motion::WithdrawPair { pair } => {
                let p = self.pair(pair)?;
                let s = self.scene(p.scene)?;
                if s.check.is_some() {
                    return Err(Refusal::AlreadyChecked);
                }
                if s.rolling {
                    return Err(Refusal::Rolling);
                }
                Ok(())
            }
            Motion::Resume => state.x_card.map(|_| ()).ok_or(Refusal::NotPaused),
            Motion::ChooseModerator { player } => self.moderator_possible(player),
            Motion::ChooseDice { physical } => {
                if state.scenes.values().any(|s| s.rolling) {
                    return Err(Refusal::Rolling);
                }
                if state.physical_dice == physical {
                    return Err(Refusal::SameDice { physical });
                }
                Ok(())
            }
            Motion::Publish => {
                if state.published {
                    return Err(Refusal::AlreadyPublished);
                }
                Ok(())
            }
            Motion::Watch => {
                if state.watched {
                    return Err(Refusal::AlreadyWatched);
                }
                Ok(())
            }
        }
    }

    /// Edition 1.1's moderator is someone at the table who plays no character.
    pub(super) fn moderator_possible(&self, player: Option<PlayerId>) -> Result<(), Refusal> {
        let state = self.state;
        if !state.ruleset.allows_moderator() {
            return Err(Refusal::NoModerator {
                ruleset: state.ruleset,
            });
        }
        match player {
            None if state.moderator.is_none() => Err(Refusal::NoModeratorToDismiss),
            None => Ok(()),
            Some(p) if !state.is_present(p) => Err(Refusal::UnknownPlayer),
            Some(p) if state.moderator == Some(p) => Err(Refusal::AlreadyTheModerator),
            Some(p) if state.character_of(p).is_some() => Err(Refusal::ModeratorHasCharacter),
            Some(_) => Ok(()),
        }
    }

    /// The events of a motion everyone agreed to.
    pub(super) fn carry(&self, proposal: ProposalId, motion: Motion, seed: Seed) -> Decision {
        let state = self.state;
        let mut events = vec![Event::ProposalCarried { proposal }];
        match motion {
            Motion::Advance { to: Phase::Ended } | Motion::EndGame => {
                events.push(Event::GameEnded);
            }
            Motion::Advance { to } => {
                events.push(Event::PhaseBegan { phase: to });
                // Temporal Mechanics' Setup opens with the flashback scene, timed like any.
                if to == Phase::Outline && state.ruleset.is_temporal() && state.flashback.is_none()
                {
                    events.push(Event::TimerStarted {
                        timed: Timed::Flashback,
                        at: self.at,
                    });
                }
            }
            Motion::ReturnToOutline => {
                if let Some(scene) = state.in_progress {
                    events.push(Event::SceneCancelled { scene });
                }
                events.push(Event::PhaseBegan {
                    phase: Phase::Outline,
                });
            }
            Motion::MakeCheck { scene, .. } => {
                let s = self.scene(scene)?;
                if state.physical_dice {
                    events.push(Event::DiceCalledFor { scene });
                } else {
                    let roll = check::roll(&state.pool(scene), seed);
                    let outcome = roll.outcome(s.difficulty);
                    events.push(Event::CheckMade {
                        scene,
                        check: CheckRecord {
                            difficulty: s.difficulty,
                            roll,
                            outcome,
                            physical: false,
                        },
                    });
                }
            }
            Motion::WithdrawPair { pair } => events.push(Event::PairWithdrawn { pair }),
            Motion::Resume => events.push(Event::TableResumed),
            Motion::ChooseModerator { player } => events.push(Event::ModeratorChosen { player }),
            Motion::ChooseDice { physical } => events.push(Event::DiceChosen { physical }),
            Motion::Publish => events.push(Event::StoryPublished),
            Motion::Watch => events.push(Event::WatchOpened),
        }
        Ok(events)
    }

    pub(super) fn advance_possible(&self, to: Phase) -> Result<(), Refusal> {
        let state = self.state;
        if state.phase.next() != Some(to) {
            return Err(Refusal::NotTheNextPhase {
                from: state.phase,
                to,
            });
        }
        match to {
            Phase::Characters => {
                // Temporal Mechanics has no prophecy: the flashback is its catastrophe.
                if state.prophecy.is_none() && !state.ruleset.is_temporal() {
                    return Err(Refusal::NoProphecy);
                }
            }
            Phase::Outline => self.characters_complete()?,
            Phase::Story => {
                self.characters_complete()?;
                if state.ruleset.is_temporal() && state.flashback.is_none() {
                    return Err(Refusal::NoFlashback);
                }
                if state.finale.is_none() {
                    return Err(Refusal::NoFinale);
                }
                if state.ruleset.is_temporal() && state.scenes.len() < 2 {
                    return Err(Refusal::StoryTreeTooSmall);
                }
            }
            Phase::Ended | Phase::Prophecy => unreachable!("handled by `motion_possible`"),
        }
        Ok(())
    }

    pub(super) fn characters_complete(&self) -> Result<(), Refusal> {
        let state = self.state;
        let mut problems = Vec::new();
        let mut playing = 0;
        for (player, p) in state.playing() {
            playing += 1;
            match state.character_of(player) {
                None => problems.push(format!("{} has no character", p.name)),
                Some(character) => {
                    let missing = state.missing_categories(character);
                    if !missing.is_empty() {
                        problems.push(format!(
                            "{} lacks {}",
                            state.objects[&character].name,
                            missing.join(", ")
                        ));
                    }
                }
            }
        }
        if playing == 0 {
            return Err(Refusal::NoPlayers);
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(Refusal::CharactersIncomplete { problems })
        }
    }
}
