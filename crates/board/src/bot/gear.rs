//! Her usable Items for one kind of battle, sorted into what the rules' limits allow.

use crate::command::BattleKind;
use crate::content::{Content, Hands, Slot};
use crate::ids::ItemId;

/// Her usable Items for one kind of battle, sorted into what the rules' limits allow together:
/// one weapon, two hands, one headwear, any number of others.
#[derive(Debug, Default)]
pub(super) struct Gear {
    /// Weapons worth using: (id, bonus held, hands, bonus thrown if it may be thrown in this
    /// battle).
    pub(super) weapons: Vec<(ItemId, i32, u32, Option<i32>)>,
    /// The two best shields or hand Items.
    pub(super) hands: [Option<(ItemId, i32)>; 2],
    /// The best headwear.
    pub(super) head: Option<(ItemId, i32)>,
    /// Every other Item with a bonus.
    pub(super) others: Vec<(ItemId, i32)>,
}

impl Gear {
    pub(super) fn of(
        content: &Content,
        kind: BattleKind,
        items: impl Iterator<Item = ItemId>,
    ) -> Gear {
        let mut gear = Gear::default();
        gear.sort(content, kind, items);
        gear
    }

    /// Becomes the gear of `items` (keeping its buffers).
    pub(super) fn sort(
        &mut self,
        content: &Content,
        kind: BattleKind,
        items: impl Iterator<Item = ItemId>,
    ) {
        self.weapons.clear();
        self.hands = [None, None];
        self.head = None;
        self.others.clear();
        let gear = self;
        for id in items {
            let Some(item) = content.items.get(id.index()) else {
                continue;
            };
            let bonus = match kind {
                BattleKind::Strength => item.strength_bonus,
                BattleKind::Wills => item.willpower_bonus,
            };
            let thrown = match item.slot {
                Slot::Weapon { thrown, .. } if kind == BattleKind::Strength => thrown,
                _ => None,
            };
            if bonus <= 0 && thrown.is_none_or(|t| t <= 0) {
                continue;
            }
            match item.slot {
                Slot::Weapon { hands, .. } => {
                    let hands = match hands {
                        Hands::One => 1,
                        Hands::Two => 2,
                    };
                    gear.weapons.push((id, bonus, hands, thrown));
                }
                Slot::Shield | Slot::HandItem => {
                    let entry = Some((id, bonus));
                    if gear.hands[0].is_none_or(|(_, b)| bonus > b) {
                        gear.hands[1] = gear.hands[0];
                        gear.hands[0] = entry;
                    } else if gear.hands[1].is_none_or(|(_, b)| bonus > b) {
                        gear.hands[1] = entry;
                    }
                }
                Slot::Headwear => {
                    if gear.head.is_none_or(|(_, b)| bonus > b) {
                        gear.head = Some((id, bonus));
                    }
                }
                Slot::Other => gear.others.push((id, bonus)),
            }
        }
    }

    /// The bonus of the hands left free and the rest, beside a weapon taking `used` hands.
    pub(super) fn fill(&self, used: u32) -> i32 {
        let hand = |i: usize| self.hands[i].map_or(0, |(_, b)| b);
        let hands = match used {
            0 => hand(0) + hand(1),
            1 => hand(0),
            _ => 0,
        };
        hands + self.head.map_or(0, |(_, b)| b) + self.others.iter().map(|&(_, b)| b).sum::<i32>()
    }

    /// The best bonuses (every roll, first roll only) against `lives` lives, each weapon held
    /// or thrown. Against one life the first roll is the only one: a thrown bonus is given as
    /// an every-roll one, which is the same battle (and what a buyer compares).
    pub(super) fn best(&self, lives: u32) -> (i32, i32) {
        let mut best = (self.fill(0), 0);
        let worth = |(every, first): (i32, i32)| {
            every as f32 + first as f32 / if lives > 1 { 3.0 } else { 1.0 }
        };
        for &(_, bonus, hands, thrown) in &self.weapons {
            let rest = self.fill(hands);
            let thrown = thrown.map(|t| if lives > 1 { (rest, t) } else { (rest + t, 0) });
            for option in std::iter::once((rest + bonus, 0)).chain(thrown) {
                if worth(option) > worth(best) {
                    best = option;
                }
            }
        }
        best
    }

    /// Calls `each` with each sensible set of Items and whether to throw the weapon: no
    /// weapon, or one of hers, held, and thrown too if it may be, with the best of the rest (in
    /// one buffer: nothing is allocated for a bot without Items).
    pub(super) fn each_loadout(&self, mut each: impl FnMut(&[ItemId], bool)) {
        let mut set = Vec::new();
        let rest = |set: &mut Vec<ItemId>, used: u32| {
            let hands = match used {
                0 => 2,
                1 => 1,
                _ => 0,
            };
            set.extend(
                (self.hands.iter().take(hands).flatten().map(|&(id, _)| id))
                    .chain(self.head.map(|(id, _)| id))
                    .chain(self.others.iter().map(|&(id, _)| id)),
            );
        };
        rest(&mut set, 0);
        each(&set, false);
        for &(id, _, hands, thrown) in &self.weapons {
            set.clear();
            set.push(id);
            rest(&mut set, hands);
            each(&set, false);
            if thrown.is_some() {
                each(&set, true);
            }
        }
    }
}
