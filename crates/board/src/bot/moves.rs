//! After moving (recovering, trading, buying) and the move itself, scored by what waits where
//! it ends and how near it brings her goal.

use super::map::*;
use super::memory::*;
use super::player::*;
use super::worth::*;
use crate::command::{Action, BattleKind, MoveKind};
use crate::content::{AdventureCard, Guild, SpaceKind};
use crate::decide::{CERTIFICATE_EXPERIENCE, CERTIFICATE_GOLD};
use crate::ids::{ItemId, SpaceId};
use std::cell::Cell;

/// What ending the turn away from her goal costs besides the turns to it.
const WAITING: f32 = 0.25;

impl Bot<'_> {
    // -----------------------------------------------------------------------------------------
    // After moving
    // -----------------------------------------------------------------------------------------

    pub(super) fn after_moving(&self) -> Action {
        let me = self.me;
        let here = me.space.index();
        let kind = self.kind_of(here);
        if let Some(SpaceKind::Guild(guild)) = kind
            && self.can_certify(guild, me.gold.0)
        {
            return Action::BuyCertificate;
        }
        if !self.turn.moved_by_card
            && let Some(card) = self.state.spaces.get(here).and_then(|s| s.adventure)
            && let Some(AdventureCard::Opportunity(o)) = self.content.adventures.get(card.index())
            && crate::encounter::price_paid_in_full(me, &o.effects).is_ok()
            && self.effects_value(&mut self.vitals(), &o.effects) > 0.0
        {
            return Action::UseOpportunity {
                seed: self.seed,
                clockwise: None,
                lose_item: self.item_to_lose(&o.effects),
            };
        }
        if self.turn.stayed
            && !self.turn.possibility_used
            && kind.is_some_and(|k| self.trade_value(k) > 0.0)
            && crate::possibility::trade(self.state, me.player).is_ok()
        {
            return Action::Trade;
        }
        if let Some(amount) = kind.and_then(|k| self.recovery(k))
            && crate::possibility::recovery(self.state, me.player, amount).is_ok()
        {
            return Action::Recover { amount };
        }
        if kind.is_some_and(SpaceKind::is_civilization)
            && let Some(&item) = me.damaged.first()
            && me.gold.0 > self.reserve()
        {
            return Action::RepairItem { item };
        }
        if matches!(kind, Some(SpaceKind::City | SpaceKind::Village))
            && let Some(item) = self.purchase(here)
        {
            return Action::BuyItem { item };
        }
        Action::EndTurn
    }

    /// Gold she keeps for Certificates.
    pub(super) fn reserve(&self) -> u32 {
        let needs_gold = self.missing & !self.own != 0;
        if needs_gold { CERTIFICATE_GOLD.0 } else { 1 }
    }

    /// What the Possibility instead of movement of a space of `kind` is worth to her.
    pub(super) fn trade_value(&self, kind: SpaceKind) -> f32 {
        let me = self.me;
        let values = &self.values;
        match kind {
            SpaceKind::City if me.magic.right >= 1 => 2.0 * values.gold - values.magic,
            SpaceKind::Guild(Guild::ThievesGuild) if me.health.right >= 2 => {
                3.0 * values.gold - health_cube(me.health.right, self.values.mage)
            }
            SpaceKind::Guild(Guild::Fortress) if me.health.right >= 2 => {
                2.0 * values.experience - health_cube(me.health.right, self.values.mage)
            }
            _ => 0.0,
        }
    }

    /// How much to recover where she stands, if it pays.
    pub(super) fn recovery(&self, kind: SpaceKind) -> Option<u32> {
        let me = self.me;
        let (health, hurt) = (me.health.right, me.health.left);
        let drained = me.magic.left;
        let gold = me.gold.0;
        let values = &self.values;
        let spare = gold.saturating_sub(if health <= 2 { 0 } else { self.reserve() });
        let once = !self.turn.possibility_used;
        let amount = match kind {
            SpaceKind::Guild(Guild::Monastery) if once && hurt > 0 => 1,
            SpaceKind::Guild(Guild::ForestCamp) => {
                let mut n = 0;
                while n < hurt.min(spare)
                    && health_cube(health + n + 1, self.values.mage) > values.gold
                {
                    n += 1;
                }
                n
            }
            SpaceKind::EnchantedWilderness if once => {
                drained.min(crate::possibility::WILDERNESS_RECHARGE)
            }
            SpaceKind::Guild(Guild::MagicTower) if values.mage || me.magic.right < 2 => {
                drained.min(spare.saturating_mul(2))
            }
            SpaceKind::Village if once && gold >= 1 && (hurt > 0 || drained > 0) => {
                let worth = if hurt > 0 {
                    health_cube(health + 1, self.values.mage)
                } else {
                    0.0
                } + if drained > 0 { values.magic } else { 0.0 };
                u32::from(worth > values.gold)
            }
            _ => 0,
        };
        (amount > 0).then_some(amount)
    }

    /// An Item lying on `space` worth buying: she is rich, and it makes her stronger.
    pub(super) fn purchase(&self, space: usize) -> Option<ItemId> {
        let lying = &self.state.spaces.get(space)?.items;
        if lying.is_empty() {
            return None;
        }
        let kind = if self.values.mage {
            BattleKind::Wills
        } else {
            BattleKind::Strength
        };
        let now = self.gear(kind, None).best(1).0;
        let budget = self.me.gold.0.saturating_sub(self.reserve() + 2);
        lying
            .iter()
            .copied()
            .filter(|i| {
                self.content
                    .items
                    .get(i.index())
                    .is_some_and(|item| item.cost <= budget)
            })
            .map(|i| (self.gear(kind, Some(i)).best(1).0 - now, i))
            .filter(|&(gain, _)| gain > 0)
            .max_by_key(|&(gain, i)| (gain, std::cmp::Reverse(i)))
            .map(|(_, i)| i)
    }

    // -----------------------------------------------------------------------------------------
    // Movement
    // -----------------------------------------------------------------------------------------

    pub(super) fn movement(&self, scratch: &mut Scratch) -> Action {
        let owned;
        let map = match self.map {
            Some(map) if map.fits(self.content) => map,
            _ => {
                owned = Map::new(&self.state.content);
                &owned
            }
        };
        let me = self.me;
        let board = &self.content.board;
        let n = board.spaces.len();
        let here = me.space.index();
        let gold = me.gold.0;
        let bonuses = self.known_bonuses(scratch);
        let situation = self.situation(&bonuses);
        let remembered = scratch.remembered.row(&map.content, situation);
        let remembered = Cell::from_mut(remembered).as_slice_of_cells();
        // What the Adventure cards are worth, worked out only where asked (NaN: not yet).
        scratch.worth.clear();
        scratch.worth.resize(n, f32::NAN);
        let worth = Cell::from_mut(&mut scratch.worth[..]).as_slice_of_cells();
        let worth_at = |space: usize| -> f32 {
            match worth.get(space) {
                Some(w) if w.get().is_nan() => {
                    let value = self.adventure_value(map, space, &bonuses, remembered);
                    w.set(value);
                    value
                }
                Some(w) => w.get(),
                None => 0.0,
            }
        };
        let (goals, weight) = self.goals(map, worth_at);
        // Moves are symmetric: the turns from `space` to the nearest goal.
        let to_goal = |space: usize| f32::from(map.turns_to(gold, space, goals));
        // The best move so far (`None`: ending the turn where she stands, which a Creature on
        // her space forbids: not moving at all means meeting it).
        // Waiting where her goal is not costs a little more than a move that brings it no
        // nearer in turns: with a tie, two bots would wait for each other forever.
        let end_here = if self.state.creature_on(me.space).is_some() {
            f32::NEG_INFINITY
        } else {
            let turns = to_goal(here);
            -weight * turns - if turns > 0.0 { WAITING } else { 0.0 }
        };
        let mut best: (f32, Option<MoveKind>) = (end_here, None);
        let mut consider = |how: MoveKind, to: usize| {
            let turns = to_goal(to);
            let waits = if to == here && turns > 0.0 {
                WAITING
            } else {
                0.0
            };
            let score = self.arrival_value(to, how, worth_at(to)) - weight * turns - waits;
            if score > best.0 {
                best = (score, Some(how));
            }
        };
        consider(MoveKind::Stay, here);
        // Which way first (ties keep the first): the seed's lowest bit.
        let ways = if self.seed.0 & 1 == 0 {
            [true, false]
        } else {
            [false, true]
        };
        // One or two spaces along a ring of at least twelve, without dividing.
        let step = |by: usize, clockwise: bool| match (clockwise, here + by >= n, here >= by) {
            (true, false, _) => here + by,
            (true, true, _) => here + by - n,
            (false, _, true) => here - by,
            (false, _, false) => here + n - by,
        };
        for clockwise in ways {
            consider(MoveKind::Walk { clockwise }, step(1, clockwise));
        }
        if gold >= 1 {
            for clockwise in ways {
                consider(MoveKind::Horse { clockwise }, step(2, clockwise));
            }
            if board.spaces.get(here).is_some_and(|s| s.port) {
                for clockwise in ways {
                    if let Some(to) = next_port(self.content, here, clockwise) {
                        consider(MoveKind::Boat { clockwise }, to);
                    }
                }
            }
        }
        if gold >= 2 && board.spaces.get(here).is_some_and(|s| s.magic_gate) {
            for (to, s) in board.spaces.iter().enumerate() {
                if s.magic_gate && to != here {
                    consider(
                        MoveKind::MagicGate {
                            to: SpaceId::of(to),
                        },
                        to,
                    );
                }
            }
        }
        best.1.map_or(Action::EndTurn, Action::Move)
    }

    /// The spaces she heads for (as bits: see [`SpaceSet`]), and what a turn closer is worth.
    ///
    /// Sets of spaces, not loops over them: this runs once per move of every bot, and the
    /// loops showed in profiles.
    pub(super) fn goals(&self, map: &Map, worth_at: impl Fn(usize) -> f32) -> (SpaceSet, f32) {
        let me = self.me;
        let sets = &map.sets;
        let gold = me.gold.0;
        let when = |yes: bool, set: SpaceSet| if yes { set } else { 0 };
        // The spaces of `among` whose Adventure card is worth more than `least`. (Sets are
        // built by shifting each test's bit in, not by branching on it: which spaces pass
        // follows no pattern, and mispredicted branches showed in profiles.)
        let worth_more = |among: SpaceSet, least: f32| {
            spaces_of(among).fold(0, |goals, s| goals | u64::from(worth_at(s) > least) << s)
        };
        if me.experience >= CERTIFICATE_EXPERIENCE {
            let goals = Guild::ALL.iter().fold(0, |goals, &g| {
                goals | when(self.can_certify(g, gold), sets.guild[g as usize])
            });
            if goals != 0 {
                return (goals, 3.0);
            }
        }
        let (health, hurt) = (me.health.right, me.health.left);
        if hurt > 0 && health * 2 <= health + hurt {
            return (sets.monastery | when(gold >= 1, sets.camp_and_village), 2.0);
        }
        let needs_experience = me.experience < CERTIFICATE_EXPERIENCE;
        let sturdy = if self.values.mage { 3 } else { 4 };
        let useful = when(needs_experience && health >= sturdy, sets.fortress)
            | when(!needs_experience && health >= sturdy, sets.thieves_guild)
            | when(!needs_experience && me.magic.right >= 2, sets.city)
            | when(self.values.mage && me.magic.left >= 2, sets.wilderness);
        // Adventures further than a few turns away will have changed on arrival: near ones
        // first, then any.
        // The spaces of `among` with an Adventure card.
        let cards_in = |among: SpaceSet| {
            spaces_of(among).fold(0, |set, s| {
                let card = self
                    .state
                    .spaces
                    .get(s)
                    .is_some_and(|c| c.adventure.is_some());
                set | u64::from(card) << s
            })
        };
        let goals = useful | worth_more(cards_in(map.horizon(gold, me.space.index())), 0.5);
        if goals != 0 {
            return (goals, 1.0);
        }
        // No space is useful (it would have been a goal): only Adventures, far ones too.
        let cards = cards_in(sets.all);
        for least in [0.5, 0.0] {
            let goals = worth_more(cards, least);
            if goals != 0 {
                return (goals, 1.0);
            }
        }
        // Nothing worth going to: heal, or trade Health for Experience, while waiting, or roam
        // the empty terrain where the Chance cards bring Adventures.
        let waits = when(hurt > 0, sets.monastery)
            | when(needs_experience && health >= 2, sets.fortress)
            | (sets.terrain & !cards & !bit(me.space.index()));
        (waits, 0.3)
    }

    /// What ending a move `how` on `to` is worth, besides getting closer to her goal; `worth`
    /// is the value of the Adventure card there.
    pub(super) fn arrival_value(&self, to: usize, how: MoveKind, worth: f32) -> f32 {
        let cost = how.cost().0;
        let gold = self.me.gold.0.saturating_sub(cost);
        let mut value = worth - cost as f32 * self.values.gold;
        let kind = self.kind_of(to);
        if let Some(SpaceKind::Guild(guild)) = kind
            && self.can_certify(guild, gold)
        {
            value += CERTIFICATE;
        }
        if let Some(kind) = kind {
            if how == MoveKind::Stay {
                value += self.trade_value(kind).max(0.0);
            }
            value += match kind {
                SpaceKind::Guild(Guild::Monastery) if self.me.health.left > 0 => {
                    health_cube(self.me.health.right + 1, self.values.mage)
                }
                SpaceKind::Guild(Guild::ForestCamp) | SpaceKind::Village
                    if self.me.health.left > 0 && gold >= 1 =>
                {
                    health_cube(self.me.health.right + 1, self.values.mage) - self.values.gold
                }
                SpaceKind::EnchantedWilderness if self.me.magic.left > 0 => {
                    self.me.magic.left.min(3) as f32 * self.values.magic
                }
                _ => 0.0,
            }
            .max(0.0);
        }
        value
    }
}
