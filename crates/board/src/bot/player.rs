//! The adventurer a bot plays, and what it knows of her for one decision.

use super::map::*;
use super::worth::*;
use crate::content::{Content, Guild, SpaceKind};
use crate::decide::{CERTIFICATE_EXPERIENCE, CERTIFICATE_GOLD};
use crate::model::{Adventurer, Turn};
use crate::state::State;
use dice::Seed;

/// Bonuses (every roll, first roll only) by battle kind, then by one life or three.
pub(super) type Bonuses = [[(i32, i32); 2]; 2];

pub(super) struct Bot<'a> {
    /// The map of the board, if one was given for this very content.
    pub(super) map: Option<&'a Map>,
    pub(super) state: &'a State,
    pub(super) content: &'a Content,
    pub(super) me: &'a Adventurer,
    pub(super) turn: Turn,
    pub(super) seed: Seed,
    pub(super) values: Values,
    /// Guilds whose Certificate she lacks, as bits ([`guild_bit`]).
    pub(super) missing: u8,
    /// Her character's own two guilds, as bits.
    pub(super) own: u8,
}

/// A guild's bit in a set of guilds.
pub(super) fn guild_bit(guild: Guild) -> u8 {
    1 << guild as u8
}

impl<'a> Bot<'a> {
    pub(super) fn new(
        map: Option<&'a Map>,
        state: &'a State,
        me: &'a Adventurer,
        turn: Turn,
        seed: Seed,
    ) -> Bot<'a> {
        let content = &*state.content;
        let character = content.characters.get(me.character.index());
        // Guilds as bits: one pass over her Certificates and one over her character's guilds.
        let all = Guild::ALL.iter().fold(0, |m, &g| m | guild_bit(g));
        let held = me.certificates.iter().fold(0, |m, c| m | guild_bit(c.0));
        let missing = all & !held;
        let own = character.map_or(0, |c| c.guilds.iter().fold(0, |m, &g| m | guild_bit(g)));
        let mage = character.is_some_and(|c| c.willpower > c.strength);
        let enough_experience = me.experience >= CERTIFICATE_EXPERIENCE;
        let needs_gold = missing & !own != 0;
        let gold_rate = if enough_experience && needs_gold && me.gold < CERTIFICATE_GOLD {
            0
        } else if me.gold.0 >= 12 {
            1
        } else {
            2
        };
        Bot {
            map: map.filter(|m| m.fits(content)),
            state,
            content,
            me,
            turn,
            seed,
            values: Values::new(gold_rate, mage),
            missing,
            own,
        }
    }

    pub(super) fn vitals(&self) -> Vitals {
        let me = self.me;
        Vitals {
            gold: me.gold.0,
            experience: me.experience.0,
            health: me.health.right,
            hurt: me.health.left,
            magic: me.magic.right,
            drained: me.magic.left,
            items: me.items.len(),
        }
    }

    /// The Gold her Certificate of `guild` costs, if she lacks it.
    pub(super) fn certificate_gold(&self, guild: Guild) -> Option<u32> {
        let bit = guild_bit(guild);
        (self.missing & bit != 0).then_some(if self.own & bit != 0 {
            0
        } else {
            CERTIFICATE_GOLD.0
        })
    }

    /// Whether she could buy the Certificate of `guild` with `gold`.
    pub(super) fn can_certify(&self, guild: Guild, gold: u32) -> bool {
        self.me.experience >= CERTIFICATE_EXPERIENCE
            && self
                .certificate_gold(guild)
                .is_some_and(|cost| gold >= cost)
    }

    pub(super) fn kind_of(&self, space: usize) -> Option<SpaceKind> {
        match self.map {
            // The map's kinds lie closer together than the content's spaces.
            Some(map) => map.kinds.get(space).copied(),
            None => self.content.board.spaces.get(space).map(|s| s.kind),
        }
    }
}
