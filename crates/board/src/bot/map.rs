//! The board as bots see it, worked out once per content: spaces as bits, distances, ports
//! and gates, and each Creature as a foe.

use super::odds::*;
use super::worth::*;
use crate::content::{AdventureCard, Content, Guild, SpaceKind};
use std::sync::Arc;

/// Spaces as bits: space `s` is bit `s`. A board has at most
/// [`MAX_SPACES`](crate::content::MAX_SPACES) spaces (its file is refused otherwise); bots on a
/// larger one built by hand know only its first 64.
pub(super) type SpaceSet = u64;

/// The set of space `s` alone (empty beyond 64).
pub(super) fn bit(s: usize) -> SpaceSet {
    u32::try_from(s)
        .ok()
        .and_then(|s| 1u64.checked_shl(s))
        .unwrap_or(0)
}

/// The spaces of `set`, in order.
pub(super) fn spaces_of(mut set: SpaceSet) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        let s = set.trailing_zeros() as usize;
        set &= set.wrapping_sub(1);
        (s < 64).then_some(s)
    })
}

/// The spaces of each kind bots head for, as sets (worked out once per content, in the
/// [`Map`]).
#[derive(Debug, Clone, PartialEq)]
pub(super) struct SpaceSets {
    /// Every space.
    pub(super) all: SpaceSet,
    /// Each guild's, by [`Guild`] as a number.
    pub(super) guild: [SpaceSet; 5],
    pub(super) monastery: SpaceSet,
    /// Where Health is healed for Gold.
    pub(super) camp_and_village: SpaceSet,
    pub(super) fortress: SpaceSet,
    pub(super) thieves_guild: SpaceSet,
    pub(super) city: SpaceSet,
    pub(super) wilderness: SpaceSet,
    pub(super) terrain: SpaceSet,
}

/// Turns within which Adventure cards draw her.
pub(super) const ADVENTURE_HORIZON: u8 = 2;

/// The next Port from `from` that way.
pub(super) fn next_port(content: &Content, from: usize, clockwise: bool) -> Option<usize> {
    let spaces = &content.board.spaces;
    let n = spaces.len();
    (1..n)
        .map(|k| {
            if clockwise {
                (from + k) % n
            } else {
                (from + n - k) % n
            }
        })
        .find(|&s| spaces[s].port)
}

/// What bots know of a board: which spaces lie within so many turns of each, moving as one
/// can afford (on foot with no Gold; with a horse and a boat from 1 Gold; with the Magic Gates
/// too from 2), the spaces' kinds and the battles each Creature allows. Worked out once per
/// content: share one between many games with [`choose_with`](super::choose_with).
#[derive(Debug, Clone, PartialEq)]
pub struct Map {
    /// The content it is the map of.
    pub(super) content: Arc<Content>,
    /// Each space's kind, by index.
    pub(super) kinds: Vec<SpaceKind>,
    /// The spaces of each kind bots head for.
    pub(super) sets: SpaceSets,
    /// By Gold (0, 1, 2 or more), from and turns `t` (0 to `reach` − 1): the spaces within `t`
    /// turns, `reach` sets for each space.
    pub(super) within: [Vec<SpaceSet>; 3],
    /// One more than the most turns between two spaces.
    pub(super) reach: usize,
    /// Each Adventure card's Creature and what its treasure is worth if that depends on
    /// nothing but her values ([`treasure_worth`]), by id (`None` for an Opportunity).
    pub(super) foes: Vec<Option<(Foe, Option<Treasure>)>>,
    /// Whether each Adventure card is [`situational`], by id.
    pub(super) situational: Vec<bool>,
}

impl Map {
    /// The map of `content`'s board.
    pub fn new(content: &Arc<Content>) -> Map {
        let spaces = &content.board.spaces;
        let n = spaces.len();
        let gates: Vec<usize> = (0..n).filter(|&s| spaces[s].magic_gate).collect();
        // The fewest turns between two spaces, by Gold (0, 1, 2 or more): from × spaces + to.
        let turns = [0u32, 1, 2].map(|gold| {
            let neighbours: Vec<Vec<usize>> = (0..n)
                .map(|s| {
                    let mut next = vec![(s + 1) % n, (s + n - 1) % n];
                    if gold >= 1 {
                        next.extend([(s + 2) % n, (s + n - 2) % n]);
                        if spaces[s].port {
                            next.extend(
                                [true, false]
                                    .into_iter()
                                    .filter_map(|cw| next_port(content, s, cw)),
                            );
                        }
                    }
                    if gold >= 2 && spaces[s].magic_gate {
                        next.extend(gates.iter().copied().filter(|&t| t != s));
                    }
                    next
                })
                .collect();
            let mut table = vec![u8::MAX; n * n];
            let mut queue = Vec::with_capacity(n);
            for from in 0..n {
                let row = &mut table[from * n..(from + 1) * n];
                row[from] = 0;
                queue.clear();
                queue.push(from);
                let mut head = 0;
                while head < queue.len() {
                    let s = queue[head];
                    head += 1;
                    for &t in &neighbours[s] {
                        if row[t] == u8::MAX {
                            row[t] = row[s].saturating_add(1);
                            queue.push(t);
                        }
                    }
                }
            }
            table
        });
        let set_of = |is: &dyn Fn(SpaceKind) -> bool| {
            (spaces.iter().enumerate()).fold(0, |set, (s, space)| {
                set | if is(space.kind) { bit(s) } else { 0 }
            })
        };
        let guild = |g: Guild| move |kind| kind == SpaceKind::Guild(g);
        let sets = SpaceSets {
            all: set_of(&|_| true),
            guild: Guild::ALL.map(|g| set_of(&guild(g))),
            monastery: set_of(&guild(Guild::Monastery)),
            camp_and_village: set_of(&|k| guild(Guild::ForestCamp)(k) || k == SpaceKind::Village),
            fortress: set_of(&guild(Guild::Fortress)),
            thieves_guild: set_of(&guild(Guild::ThievesGuild)),
            city: set_of(&|k| k == SpaceKind::City),
            wilderness: set_of(&|k| k == SpaceKind::EnchantedWilderness),
            terrain: set_of(&|k| matches!(k, SpaceKind::Terrain(_))),
        };
        let reach = (turns.iter().flatten())
            .filter(|&&t| t < u8::MAX)
            .max()
            .map_or(1, |&t| usize::from(t) + 1);
        let within = turns.each_ref().map(|table| {
            let mut within = vec![0; n * reach];
            for (row, sets) in table.chunks(n.max(1)).zip(within.chunks_mut(reach)) {
                // Each space in the set of its turns, then each set holding the nearer ones.
                for (s, &t) in row.iter().enumerate() {
                    if let Some(set) = sets.get_mut(usize::from(t)) {
                        *set |= bit(s);
                    }
                }
                for t in 1..reach {
                    sets[t] |= sets[t - 1];
                }
            }
            within
        });
        Map {
            content: Arc::clone(content),
            kinds: spaces.iter().map(|s| s.kind).collect(),
            sets,
            within,
            reach,
            foes: (content.adventures.iter())
                .map(|card| match card {
                    AdventureCard::Creature(c) => Some((Foe::of(c), treasure_worth(&c.treasure))),
                    AdventureCard::Opportunity(_) => None,
                })
                .collect(),
            situational: content.adventures.iter().map(situational).collect(),
        }
    }

    /// Whether this is the map of `content`: the very content it was made from (which it
    /// holds, so no other can take its place in memory).
    pub(super) fn fits(&self, content: &Content) -> bool {
        std::ptr::eq(Arc::as_ptr(&self.content), content)
    }

    /// The sets of spaces within 0, 1, 2… turns of `from` with `gold` (empty if `from` is off
    /// the board).
    pub(super) fn within(&self, gold: u32, from: usize) -> &[SpaceSet] {
        let reach = self.reach;
        self.within[gold.min(2) as usize]
            .get(from * reach..(from + 1) * reach)
            .unwrap_or(&[])
    }

    /// The spaces within [`ADVENTURE_HORIZON`] turns of `from` with `gold`.
    pub(super) fn horizon(&self, gold: u32, from: usize) -> SpaceSet {
        let within = self.within(gold, from);
        let most = usize::from(ADVENTURE_HORIZON).min(within.len().saturating_sub(1));
        within.get(most).copied().unwrap_or(0)
    }

    /// The fewest turns from `from` to any of `goals` with `gold`: 0 if there are none (or
    /// `from` is off the board), 255 if none can be reached.
    pub(super) fn turns_to(&self, gold: u32, from: usize, goals: SpaceSet) -> u8 {
        if goals == 0 {
            return 0;
        }
        let within = self.within(gold, from);
        if within.is_empty() {
            return 0;
        }
        (within.iter().position(|&set| set & goals != 0))
            .map_or(u8::MAX, |t| u8::try_from(t).unwrap_or(u8::MAX))
    }
}
