//! How a proposal opens and gathers agreement.

use super::State;
use crate::ids::{PlayerId, ProposalId};
use crate::model::{Motion, Proposal};
use std::collections::BTreeSet;

impl State {
    pub(super) fn proposal_made(&mut self, proposal: &ProposalId, motion: &Motion, by: &PlayerId) {
        self.claim(proposal.0);
        let mut agreed = BTreeSet::new();
        if self.votes(*by) {
            agreed.insert(*by);
        }
        self.proposal = Some(Proposal {
            id: *proposal,
            motion: *motion,
            by: *by,
            agreed,
        });
    }

    pub(super) fn proposal_agreed(&mut self, proposal: &ProposalId, by: &PlayerId) {
        if let Some(p) = &mut self.proposal
            && p.id == *proposal
        {
            p.agreed.insert(*by);
        }
    }
}
