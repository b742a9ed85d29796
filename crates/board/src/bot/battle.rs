//! The battle she fights, and with which Items.

use super::odds::*;
use super::player::*;
use crate::command::{Action, BattleKind};
use crate::content::CreatureStats;
use crate::ids::ItemId;

impl Bot<'_> {
    // -----------------------------------------------------------------------------------------
    // The battle
    // -----------------------------------------------------------------------------------------

    pub(super) fn battle(&self) -> Action {
        let state = self.state;
        let player = self.me.player;
        let Some((card, creature)) = state.creature_on(self.me.space) else {
            // Nothing to fight (the engine says otherwise): let it refuse the plainest battle.
            return Action::Fight {
                kind: BattleKind::Strength,
                seed: self.seed,
                items: Vec::new(),
                throw: false,
                clockwise: None,
                lose_item: None,
            };
        };
        let known = (self.map.and_then(|m| m.foes.get(card.index()))).and_then(Option::as_ref);
        let (win, loss) = self.stakes(creature, known.and_then(|(_, t)| t.as_ref()));
        let mut best: Option<(f32, BattleKind, Vec<ItemId>, bool)> = None;
        for kind in [BattleKind::Strength, BattleKind::Wills] {
            // Without Items, from the map's foe (the engine's rules mirrored); a kind of battle
            // refused without Items is refused with any.
            let engine = || crate::encounter::battle(state, player, kind, &[], false).ok();
            let bare = match known {
                Some((foe, _)) => {
                    let bare = foe.bare_battle(card, kind, self.me);
                    debug_assert_eq!(bare, engine(), "{}", creature.name);
                    bare
                }
                None => engine(),
            };
            let Some(bare) = bare else {
                continue;
            };
            let mut weigh = |items: &[ItemId], throw: bool| {
                let b = if items.is_empty() {
                    bare
                } else {
                    match crate::encounter::battle(state, player, kind, items, throw) {
                        Ok(b) => b,
                        Err(_) => return,
                    }
                };
                let mut odds = stage_odds(
                    b.yours,
                    b.first_roll_bonus,
                    b.theirs,
                    b.lives,
                    b.draw_is_loss,
                );
                let mut thrown = b.thrown.is_some();
                if let Some(then) = b.then {
                    let second = stage_odds(
                        then.yours,
                        then.first_roll_bonus,
                        then.theirs,
                        b.lives,
                        b.draw_is_loss,
                    );
                    odds = then_odds(odds, second);
                    thrown |= then.thrown.is_some();
                }
                let value = odds.0 * win + odds.1 * loss
                    - (b.magic_cost + b.drained) as f32 * self.values.magic
                    - if thrown { 0.6 } else { 0.0 };
                if best.as_ref().is_none_or(|(v, ..)| value > *v) {
                    best = Some((value, kind, items.to_vec(), throw));
                }
            };
            self.gear(kind, None).each_loadout(&mut weigh);
            // A Battle of Strength after this Battle of Wills: the same Items serve in both, so
            // her Strength Items too, each weapon held or thrown in the second battle.
            if bare.then.is_some() {
                self.gear(BattleKind::Strength, None)
                    .each_loadout(&mut weigh);
            }
        }
        if let Some(instead) = self.instead(creature)
            && best.as_ref().is_none_or(|(v, ..)| instead > *v)
        {
            return Action::UseSpecialRule;
        }
        let (kind, items, throw) = match best {
            Some((_, kind, items, throw)) => (kind, items, throw),
            // No battle the engine allows that the bot knows of: the one the values name.
            None => match creature.stats {
                CreatureStats::Willpower(_) | CreatureStats::WillpowerThenStrength { .. } => {
                    (BattleKind::Wills, Vec::new(), false)
                }
                _ => (BattleKind::Strength, Vec::new(), false),
            },
        };
        let effects = creature
            .treasure
            .iter()
            .chain(creature.on_loss.iter().flatten());
        Action::Fight {
            kind,
            seed: self.seed,
            items,
            throw,
            clockwise: None,
            lose_item: self.item_to_lose(effects),
        }
    }
}
