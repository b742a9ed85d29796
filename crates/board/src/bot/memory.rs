//! What a bot remembers between decisions: worths already worked out, bonuses known.

use super::gear::*;
use super::player::*;
use crate::content::Content;
use crate::ids::{ItemId, PlayerId};
use std::sync::Arc;

/// Buffers a bot's decisions work in, kept between them by [`choose_in`](super::choose_in): allocating them
/// afresh for every move showed in profiles of the simulator. What they hold between
/// decisions changes no decision. (The default, which [`choose`](super::choose) uses for one decision,
/// remembers no worths: its table would be allocated for nothing.)
#[derive(Default)]
pub struct Scratch {
    /// What the Adventure card on each space is worth to her (NaN: not worked out yet).
    pub(super) worth: Vec<f32>,
    /// Her Items for each kind of battle (Strength, Wills).
    pub(super) gear: [Gear; 2],
    /// Each bot's best bonuses, with what they were worked out from: her Items change seldom.
    pub(super) bonuses: Vec<KnownBonuses>,
    /// What situational cards were worth in the situations met so far.
    pub(super) remembered: Remembered,
}

/// What Adventure cards were worth to bots, remembered from decision to decision and game to
/// game: a row of worths (one per card) for each situation met ([`Bot::situation`]), in a slot
/// picked by its hash (a newer situation takes an older one's slot). Most of a bot's move went
/// into working out what each card near her is worth, and the same situations come back all
/// the time: in 2,000 simulated games, 82% of the worths asked for that depend only on the
/// situation were found here (2,048 slots, 360 KiB; twice as many were no faster).
#[derive(Default)]
pub(super) struct Remembered {
    /// Whether it remembers at all ([`Scratch::new`]'s does).
    pub(super) on: bool,
    /// The content whose cards the rows hold (none yet: nothing remembered).
    pub(super) content: Option<Arc<Content>>,
    /// The content's Adventure cards: a row's length.
    pub(super) cards: usize,
    /// Each slot's situation; 0 for an empty slot.
    pub(super) situations: Vec<u128>,
    /// Each slot's row: what each card is worth (NaN: not worked out yet).
    pub(super) worths: Vec<f32>,
}

impl std::fmt::Debug for Scratch {
    /// How much it holds, not its 90,000 numbers (nor the content its bonuses were worked
    /// out with).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let remembered = &self.remembered;
        let situations = remembered.situations.iter().filter(|&&s| s != 0).count();
        let worths = remembered.worths.iter().filter(|w| !w.is_nan()).count();
        f.debug_struct("Scratch")
            .field("bots", &self.bonuses.len())
            .field("remembering", &remembered.on)
            .field("situations", &situations)
            .field("worths", &worths)
            .finish()
    }
}

/// Bits of a [`Remembered`] slot's index.
pub(super) const REMEMBERED_BITS: u32 = 11;

impl Remembered {
    /// The row of `situation` with `content`'s cards, emptied first if its slot held another
    /// situation or the rows another content; empty if the situation could not be packed.
    pub(super) fn row(&mut self, content: &Arc<Content>, situation: Option<u128>) -> &mut [f32] {
        let Some(situation) = situation.filter(|_| self.on) else {
            return &mut [];
        };
        if !self
            .content
            .as_ref()
            .is_some_and(|c| Arc::ptr_eq(c, content))
        {
            self.content = Some(Arc::clone(content));
            self.cards = content.adventures.len();
            self.situations.clear();
            self.situations.resize(1 << REMEMBERED_BITS, 0);
            self.worths.clear();
            self.worths.resize(self.cards << REMEMBERED_BITS, f32::NAN);
        }
        let folded = (situation as u64) ^ ((situation >> 64) as u64).rotate_left(32);
        let slot = (folded.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - REMEMBERED_BITS)) as usize;
        let row = &mut self.worths[slot * self.cards..(slot + 1) * self.cards];
        if self.situations[slot] != situation {
            self.situations[slot] = situation;
            row.fill(f32::NAN);
        }
        row
    }
}

/// A bot's best bonuses ([`Bot::bonuses`]) as worked out from her Items with a content.
#[derive(Debug)]
pub(super) struct KnownBonuses {
    pub(super) content: Arc<Content>,
    pub(super) player: PlayerId,
    pub(super) items: Vec<ItemId>,
    pub(super) damaged: Vec<ItemId>,
    pub(super) bonuses: Bonuses,
}

impl Scratch {
    /// Empty buffers, and a table of worths to remember (filled as bots weigh cards).
    pub fn new() -> Scratch {
        let mut scratch = Scratch::default();
        scratch.remembered.on = true;
        scratch
    }
}
