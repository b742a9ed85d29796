//! What meeting a card is worth to her: a Creature's stakes and odds, an Opportunity's effects.

use super::gear::*;
use super::map::*;
use super::memory::*;
use super::odds::*;
use super::player::*;
use super::worth::*;
use crate::command::BattleKind;
use crate::content::{AdventureCard, Creature, Effect, SpecialKind};
use crate::encounter::THREE_LIVES;
use crate::ids::{AdventureId, ItemId};
use std::cell::Cell;
use std::sync::Arc;

impl Bot<'_> {
    // -----------------------------------------------------------------------------------------
    // Valuation
    // -----------------------------------------------------------------------------------------

    /// What following `effects` in order is worth, from `v` (changed as they apply).
    pub(super) fn effects_value(&self, v: &mut Vitals, effects: &[Effect]) -> f32 {
        effects_worth(&self.values, v, effects)
    }

    /// Winning and losing against `creature`: what each is worth. `treasure` is what its
    /// treasure is worth by [`GOLD_RATES`] and mage or not, when the map knows it.
    // Inlined into each Creature's valuation: a call per card showed in profiles.
    #[inline(always)]
    pub(super) fn stakes(&self, creature: &Creature, treasure: Option<&Treasure>) -> (f32, f32) {
        let treasure = match treasure {
            Some(worth) => worth[self.values.gold_rate][usize::from(self.values.mage)],
            None => self.effects_value(&mut self.vitals(), &creature.treasure),
        };
        let win = creature.experience as f32 * self.values.experience + treasure;
        let loss = match &creature.on_loss {
            Some(effects) => self.effects_value(&mut self.vitals(), effects),
            // The default loss, one Health, as `effects_value` would count it.
            None if self.me.health.right == 0 => DEATH,
            None => -health_cube(self.me.health.right, self.values.mage),
        };
        (win, loss)
    }

    /// What she can do instead of fighting `creature` (its optional special rule), and what
    /// that is worth.
    pub(super) fn instead(&self, creature: &Creature) -> Option<f32> {
        match creature.special.as_ref().map(|r| r.rule) {
            Some(SpecialKind::PayToPass { gold }) if self.me.gold.0 >= gold => {
                Some(-(gold as f32) * self.values.gold)
            }
            Some(SpecialKind::LetGo) => Some(0.0),
            _ => None,
        }
    }

    /// Her best Items' bonuses (every roll, first roll only): by battle kind (Strength,
    /// Wills), then against one life or three.
    /// `gear` is where to sort her Items (its buffers reused: see [`Scratch`]).
    pub(super) fn bonuses(&self, gear: &mut [Gear; 2]) -> Bonuses {
        let [strength, wills] = gear;
        strength.sort(self.content, BattleKind::Strength, self.usable());
        wills.sort(self.content, BattleKind::Wills, self.usable());
        [
            [strength.best(1), strength.best(THREE_LIVES)],
            [wills.best(1), wills.best(THREE_LIVES)],
        ]
    }

    /// [`Bot::bonuses`], worked out again only when her Items changed since the last time
    /// (kept in `scratch`).
    pub(super) fn known_bonuses(&self, scratch: &mut Scratch) -> Bonuses {
        let me = self.me;
        let known = scratch.bonuses.iter().position(|k| {
            k.player == me.player && std::ptr::eq(Arc::as_ptr(&k.content), self.content)
        });
        if let Some(k) = known.map(|at| &scratch.bonuses[at])
            && k.items == me.items
            && k.damaged == me.damaged
        {
            return k.bonuses;
        }
        let bonuses = self.bonuses(&mut scratch.gear);
        let k = KnownBonuses {
            content: Arc::clone(&self.state.content),
            player: me.player,
            items: me.items.clone(),
            damaged: me.damaged.clone(),
            bonuses,
        };
        match known {
            Some(at) => scratch.bonuses[at] = k,
            None => scratch.bonuses.push(k),
        }
        bonuses
    }

    /// The game is long: bots fear only death.
    pub(super) fn late(&self) -> bool {
        self.state.version > LATE
    }

    /// A bold turn (one in four, by the seed): losses that do not kill count for less.
    pub(super) fn bold(&self) -> bool {
        self.seed.0 % 4 == 3
    }

    /// All that the worth of a [`situational`] card depends on besides the card itself: her
    /// values, a bold turn, a late game, her Health and Magic, and her best Items' `bonuses`,
    /// packed into bits (never 0); `None` if a number is too large to pack.
    pub(super) fn situation(&self, bonuses: &Bonuses) -> Option<u128> {
        let me = self.me;
        let six_bits = |n: u32| (n < 1 << 6).then_some(u128::from(n));
        let mut situation = 1 << 127
            | (self.values.gold_rate as u128) << 64
            | u128::from(self.values.mage) << 66
            | u128::from(self.bold()) << 67
            | u128::from(self.late()) << 68
            | six_bits(me.health.right)? << 69
            | six_bits(me.magic.right)? << 75;
        // Eight bonuses, a byte each; whether all fit is checked once, at the end.
        let mut fit = true;
        for (i, n) in bonuses
            .iter()
            .flatten()
            .flat_map(|&(e, f)| [e, f])
            .enumerate()
        {
            let byte = n as i8;
            fit &= i32::from(byte) == n;
            situation |= u128::from(byte.cast_unsigned()) << (8 * i);
        }
        fit.then_some(situation)
    }

    /// What meeting `creature` (`foe`) is worth, fought the best way she can with her best
    /// Items (or passed by its optional rule).
    pub(super) fn creature_value(
        &self,
        creature: &Creature,
        foe: &Foe,
        treasure: Option<&Treasure>,
        bonuses: &Bonuses,
    ) -> f32 {
        let (win, mut loss) = self.stakes(creature, treasure);
        // A bold turn (one in four, by the seed) shrugs off losses that do not kill: a bot
        // walled in by Creatures it fears would otherwise wait forever.
        if loss > DEATH / 2.0 {
            if self.late() {
                loss /= 10.0;
            } else if self.bold() {
                loss /= 4.0;
            }
        }
        let lives = foe.lives;
        let [strength_bonus, wills_bonus] = bonuses.map(|b| b[usize::from(lives > 1)]);
        let health = self.me.health.right as i32;
        let drained = foe.drain.min(self.me.magic.right);
        let magic = self.me.magic.right - drained;
        let value = |(win_odds, loss_odds): (f32, f32), paid: u32| {
            win_odds * win + loss_odds * loss - (paid + drained) as f32 * self.values.magic
        };
        let mut best = self.instead(creature).unwrap_or(f32::MIN);
        if let Some(theirs) = foe.strength {
            let (every, first) = strength_bonus;
            let odds = stage_odds(health + every, first, theirs, lives, foe.draw_is_loss);
            best = best.max(value(odds, 0));
        }
        if let Some(wills) = foe.wills
            && magic >= wills.pay
        {
            let (every, first) = wills_bonus;
            let yours = (magic - wills.pay) as i32 + every;
            let mut odds = stage_odds(yours, first, wills.theirs, lives, foe.draw_is_loss);
            if let Some(theirs) = wills.then {
                let (every, first) = strength_bonus;
                odds = then_odds(
                    odds,
                    stage_odds(health + every, first, theirs, lives, false),
                );
            }
            best = best.max(value(odds, wills.pay));
        }
        if best == f32::MIN { 0.0 } else { best }
    }

    /// What the Adventure card on `space` is worth meeting there (with her counters now).
    /// A card's worth is looked up in `remembered` (her situation's row) first, and kept there,
    /// when it depends only on her situation.
    // Inlined where asked: most cards asked about are remembered, or no card lies there.
    #[inline(always)]
    pub(super) fn adventure_value(
        &self,
        map: &Map,
        space: usize,
        bonuses: &Bonuses,
        remembered: &[Cell<f32>],
    ) -> f32 {
        let Some(card) = self.state.spaces.get(space).and_then(|s| s.adventure) else {
            return 0.0;
        };
        // Only situational cards' worths are kept: a number found is one of theirs.
        let remembered = remembered.get(card.index());
        match remembered.map(Cell::get) {
            Some(worth) if !worth.is_nan() => worth,
            _ => self.card_value(map, card, bonuses, remembered),
        }
    }

    /// What Adventure `card` is worth meeting, worked out (and kept in `remembered` if it
    /// depends only on her situation).
    #[inline(never)]
    pub(super) fn card_value(
        &self,
        map: &Map,
        card: AdventureId,
        bonuses: &Bonuses,
        remembered: Option<&Cell<f32>>,
    ) -> f32 {
        let worth = match self.content.adventures.get(card.index()) {
            Some(AdventureCard::Creature(c)) => match map.foes.get(card.index()) {
                Some(Some((foe, treasure))) => {
                    self.creature_value(c, foe, treasure.as_ref(), bonuses)
                }
                _ => self.creature_value(c, &Foe::of(c), None, bonuses),
            },
            // A card she cannot pay for in full is one she cannot use.
            Some(AdventureCard::Opportunity(o))
                if crate::encounter::price_paid_in_full(self.me, &o.effects).is_err() =>
            {
                0.0
            }
            Some(AdventureCard::Opportunity(o)) => {
                self.effects_value(&mut self.vitals(), &o.effects).max(0.0)
            }
            None => 0.0,
        };
        if let Some(cell) = remembered.filter(|_| map.situational.get(card.index()) == Some(&true))
        {
            cell.set(worth);
        }
        worth
    }

    /// The Item to lose if `effects` take one: her least useful (damaged first, then the
    /// cheapest); `None` if none does or she has none.
    pub(super) fn item_to_lose<'e>(
        &self,
        effects: impl IntoIterator<Item = &'e Effect>,
    ) -> Option<ItemId> {
        if !effects.into_iter().any(|&e| e == Effect::LoseItem) {
            return None;
        }
        let me = self.me;
        me.items.iter().copied().min_by_key(|i| {
            let cost = self
                .content
                .items
                .get(i.index())
                .map_or(0, |item| item.cost);
            (!me.damaged.contains(i), cost)
        })
    }

    /// Her usable Items: carried and not damaged.
    pub(super) fn usable(&self) -> impl Iterator<Item = ItemId> + Clone + '_ {
        self.me
            .items
            .iter()
            .copied()
            .filter(|i| !self.me.damaged.contains(i))
    }

    /// Her usable Items for a battle of `kind`, perhaps with one more.
    pub(super) fn gear(&self, kind: BattleKind, extra: Option<ItemId>) -> Gear {
        Gear::of(self.content, kind, self.usable().chain(extra))
    }
}
