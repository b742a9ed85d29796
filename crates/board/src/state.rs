//! The state of a game, and [`evolve`], which applies one event to it.

use crate::content::{AdventureCard, Content, Creature, Effect, Rarity};
use crate::event::{Event, SetUp};
use crate::ids::{AdventureId, ChanceId, ItemId, PlayerId, SpaceId};
use crate::model::{
    Adventurer, Certificate, Cubes, Deck, DeckKind, Decks, Phase, STARTING_EXPERIENCE,
    STARTING_GOLD, SpaceContents, Step, Turn,
};
use std::sync::Arc;

/// Everything on the table. Built only by [`evolve`]; read freely.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct State {
    /// The board, characters and cards this game is played with.
    pub content: Arc<Content>,
    /// Where the game is, and whose turn.
    pub phase: Phase,
    /// In seating order: the next player is the one after ("on the left").
    pub adventurers: Vec<Adventurer>,
    /// The decks.
    pub decks: Decks,
    /// What lies on each space, by [`SpaceId`].
    pub spaces: Vec<SpaceContents>,
    /// Events applied.
    pub version: u64,
}

/// Applies one event. Never fails and never panics, whatever the event and the state: an event
/// that could not have been decided here (a crafted or damaged log) still gives some state.
pub fn evolve(mut state: State, event: &Event) -> State {
    state.apply(event);
    state
}

impl State {
    /// A game not yet set up, to be played with `content`.
    pub fn new(content: Arc<Content>) -> State {
        let spaces = vec![SpaceContents::default(); content.board.spaces.len()];
        State {
            content,
            phase: Phase::NotSetUp,
            adventurers: Vec::new(),
            decks: Decks::default(),
            spaces,
            version: 0,
        }
    }

    /// Replays a log from the beginning.
    pub fn replay<'a>(content: Arc<Content>, events: impl IntoIterator<Item = &'a Event>) -> State {
        events.into_iter().fold(State::new(content), evolve)
    }

    /// The turn being played, if the game is.
    pub fn turn(&self) -> Option<Turn> {
        match self.phase {
            Phase::Playing(turn) => Some(turn),
            _ => None,
        }
    }

    /// A player's adventurer.
    pub fn adventurer(&self, player: PlayerId) -> Option<&Adventurer> {
        self.adventurers.iter().find(|a| a.player == player)
    }

    fn adventurer_mut(&mut self, player: PlayerId) -> Option<&mut Adventurer> {
        self.adventurers.iter_mut().find(|a| a.player == player)
    }

    /// What lies on a space.
    pub fn space(&self, space: SpaceId) -> Option<&SpaceContents> {
        self.spaces.get(space.index())
    }

    /// The Creature lying face-up on a space, if any.
    pub fn creature_on(&self, space: SpaceId) -> Option<(AdventureId, &Creature)> {
        let card = self.space(space)?.adventure?;
        match self.content.adventures.get(card.index())? {
            AdventureCard::Creature(c) => Some((card, c)),
            AdventureCard::Opportunity(_) => None,
        }
    }

    fn set_step(&mut self, step: Step) {
        if let Phase::Playing(turn) = &mut self.phase {
            turn.step = step;
        }
    }

    /// Takes an Item from an adventurer (face-up again) into its deck's discards; false if she
    /// does not carry it.
    fn remove_item(&mut self, player: PlayerId, item: ItemId) -> bool {
        let removed = self.adventurer_mut(player).is_some_and(|a| {
            if let Some(at) = a.damaged.iter().position(|i| *i == item) {
                a.damaged.remove(at);
            }
            match a.items.iter().rposition(|i| *i == item) {
                Some(at) => {
                    a.items.remove(at);
                    true
                }
                None => false,
            }
        });
        if removed && let Some(deck) = self.item_deck(item) {
            deck.discard.push(item);
        }
        removed
    }

    fn use_possibility(&mut self) {
        if let Phase::Playing(turn) = &mut self.phase {
            turn.possibility_used = true;
        }
    }

    fn item_deck(&mut self, item: ItemId) -> Option<&mut Deck<ItemId>> {
        match self.content.items.get(item.index())?.rarity {
            Rarity::Common => Some(&mut self.decks.common_items),
            Rarity::Rare => Some(&mut self.decks.rare_items),
        }
    }

    /// Takes an Adventure card off a space (if it lies there) into the discards.
    fn discard_adventure(&mut self, space: SpaceId, card: AdventureId) {
        if let Some(contents) = self.spaces.get_mut(space.index())
            && contents.adventure == Some(card)
        {
            contents.adventure = None;
            self.decks.adventure.discard.push(card);
        }
    }

    pub(crate) fn apply(&mut self, event: &Event) {
        self.version = self.version.saturating_add(1);
        match event {
            Event::GameSetUp(set_up) => {
                let SetUp {
                    seats,
                    adventure_deck,
                    chance_deck,
                    common_items,
                    rare_items,
                    first_player,
                    rolls: _,
                } = &**set_up;
                let content = Arc::clone(&self.content);
                self.adventurers = seats
                    .iter()
                    .map(|seat| {
                        let character = content.characters.get(seat.character.index());
                        let space = character
                            .and_then(|c| {
                                content.board.spaces.iter().position(|s| {
                                    s.kind == crate::content::SpaceKind::Guild(c.starting_guild())
                                })
                            })
                            .unwrap_or(0);
                        Adventurer {
                            player: seat.player,
                            name: seat.name.clone(),
                            character: seat.character,
                            space: SpaceId::of(space),
                            gold: STARTING_GOLD,
                            experience: STARTING_EXPERIENCE,
                            health: Cubes::full(character.map_or(0, |c| c.strength)),
                            magic: Cubes::full(character.map_or(0, |c| c.willpower)),
                            certificates: Vec::new(),
                            items: Vec::new(),
                            damaged: Vec::new(),
                            alive: true,
                            miss_turn: false,
                        }
                    })
                    .collect();
                self.decks = Decks {
                    adventure: Deck::new(adventure_deck.clone()),
                    chance: Deck::new(chance_deck.clone()),
                    common_items: Deck::new(common_items.clone()),
                    rare_items: Deck::new(rare_items.clone()),
                };
                self.spaces = vec![SpaceContents::default(); content.board.spaces.len()];
                self.phase = Phase::Playing(Turn {
                    player: *first_player,
                    step: Step::DrawChance,
                    extra: false,
                    extra_pending: false,
                    stayed: false,
                    possibility_used: false,
                });
            }
            Event::DeckReshuffled { deck, order } => {
                fn refill<T>(deck: &mut Deck<T>, order: &[u32], id: fn(u32) -> T) {
                    deck.draw = order.iter().map(|&i| id(i)).collect();
                    deck.discard.clear();
                }
                match deck {
                    DeckKind::Adventure => refill(&mut self.decks.adventure, order, AdventureId),
                    DeckKind::Chance => refill(&mut self.decks.chance, order, ChanceId),
                    DeckKind::CommonItems => refill(&mut self.decks.common_items, order, ItemId),
                    DeckKind::RareItems => refill(&mut self.decks.rare_items, order, ItemId),
                }
            }
            Event::ChanceDrawn { card, .. } => {
                self.decks.chance.take(card);
                self.decks.chance.discard.push(*card);
                self.set_step(Step::Move);
            }
            Event::AdventuresPlaced { placed } => {
                for (space, card) in placed {
                    self.decks.adventure.take(card);
                    if let Some(contents) = self.spaces.get_mut(space.index()) {
                        contents.adventure = Some(*card);
                    }
                }
            }
            Event::ItemsDiscarded { space, items } => {
                for item in items {
                    if let Some(contents) = self.spaces.get_mut(space.index())
                        && let Some(at) = contents.items.iter().position(|i| i == item)
                    {
                        contents.items.remove(at);
                    }
                    if let Some(deck) = self.item_deck(*item) {
                        deck.discard.push(*item);
                    }
                }
            }
            Event::ItemsLaidOut { space, items, .. } => {
                for item in items {
                    if let Some(deck) = self.item_deck(*item) {
                        deck.take(item);
                    }
                    if let Some(contents) = self.spaces.get_mut(space.index()) {
                        contents.items.push(*item);
                    }
                }
            }
            Event::AdventurersRefreshed { refreshed } => {
                for r in refreshed {
                    if let Some(a) = self.adventurer_mut(r.player) {
                        a.health.restore(r.healed);
                        a.magic.restore(r.recharged);
                        a.gold.0 = a.gold.0.saturating_add(r.gold.0);
                    }
                }
            }
            Event::ExtraTurnGranted { .. } => {
                if let Phase::Playing(turn) = &mut self.phase {
                    turn.extra_pending = true;
                }
            }
            Event::Moved {
                player,
                how,
                to,
                paid,
            } => {
                if let Phase::Playing(turn) = &mut self.phase {
                    turn.stayed = *how == crate::command::MoveKind::Stay;
                }
                if let Some(a) = self.adventurer_mut(*player) {
                    a.space = *to;
                    a.gold.0 = a.gold.0.saturating_sub(paid.0);
                }
                let meets = self.creature_on(*to).is_some();
                self.set_step(if meets { Step::Battle } else { Step::Moved });
            }
            Event::CertificateBought {
                player,
                guild,
                experience,
                gold,
            } => {
                if let Some(a) = self.adventurer_mut(*player) {
                    if !a.has_certificate(*guild) {
                        a.certificates.push(Certificate(*guild));
                    }
                    a.experience.0 = a.experience.0.saturating_sub(experience.0);
                    a.gold.0 = a.gold.0.saturating_sub(gold.0);
                }
            }
            Event::Recovered {
                player,
                healed,
                recharged,
                paid,
                ..
            } => {
                if let Some(a) = self.adventurer_mut(*player) {
                    a.health.restore(*healed);
                    a.magic.restore(*recharged);
                    a.gold.0 = a.gold.0.saturating_sub(paid.0);
                }
                self.use_possibility();
            }
            Event::Traded {
                player,
                health,
                magic,
                gold,
                experience,
                ..
            } => {
                if let Some(a) = self.adventurer_mut(*player) {
                    a.health.lose(*health);
                    a.magic.lose(*magic);
                    a.gold.0 = a.gold.0.saturating_add(gold.0);
                    a.experience.0 = a.experience.0.saturating_add(experience.0);
                }
                self.use_possibility();
            }
            Event::ItemBought {
                player,
                space,
                item,
                paid,
            } => {
                let lay = self
                    .spaces
                    .get_mut(space.index())
                    .and_then(|c| c.items.iter().position(|i| i == item).map(|at| (c, at)));
                if let Some((contents, at)) = lay {
                    contents.items.remove(at);
                    if let Some(a) = self.adventurer_mut(*player) {
                        a.items.push(*item);
                        a.gold.0 = a.gold.0.saturating_sub(paid.0);
                    }
                }
            }
            Event::ItemSold { player, item, gold } => {
                if self.remove_item(*player, *item)
                    && let Some(a) = self.adventurer_mut(*player)
                {
                    a.gold.0 = a.gold.0.saturating_add(gold.0);
                }
            }
            Event::ItemRepaired { player, item, paid } => {
                if let Some(a) = self.adventurer_mut(*player)
                    && let Some(at) = a.damaged.iter().position(|i| i == item)
                {
                    a.damaged.remove(at);
                    a.gold.0 = a.gold.0.saturating_sub(paid.0);
                }
            }
            Event::GameWon { winner, ranking } => {
                self.phase = Phase::Won {
                    winner: *winner,
                    ranking: ranking.clone(),
                };
            }
            Event::ItemDamaged { player, item } => {
                if let Some(a) = self.adventurer_mut(*player)
                    && a.items.contains(item)
                    && !a.damaged.contains(item)
                {
                    a.damaged.push(*item);
                }
            }
            Event::BattleFought {
                player,
                magic_paid,
                drained,
                ..
            } => {
                // Most battles cost no Magic: then the adventurers are left alone, which spares
                // `decide` copying them (they are shared with the state it decides from).
                let lost = drained.saturating_add(*magic_paid);
                if lost > 0
                    && let Some(a) = self.adventurer_mut(*player)
                {
                    a.magic.lose(lost);
                }
                self.set_step(Step::Moved);
            }
            Event::CreatureRose { card, to, .. } => {
                let discard = &mut self.decks.adventure.discard;
                if let Some(contents) = self.spaces.get_mut(to.index())
                    && contents.adventure.is_none()
                    && let Some(at) = discard.iter().rposition(|c| c == card)
                {
                    discard.remove(at);
                    contents.adventure = Some(*card);
                }
            }
            Event::CreaturePassed { player, paid, .. } => {
                if let Some(a) = self.adventurer_mut(*player) {
                    a.gold.0 = a.gold.0.saturating_sub(paid.0);
                }
                self.set_step(Step::Moved);
            }
            Event::CreatureLetGo { card, space, .. } => {
                self.discard_adventure(*space, *card);
                self.set_step(Step::Moved);
            }
            Event::MovedOneSpace { player, to, .. } => {
                if let Some(a) = self.adventurer_mut(*player) {
                    a.space = *to;
                }
                // A Possibility instead of movement is for a turn she stays where she started.
                if let Phase::Playing(turn) = &mut self.phase {
                    turn.stayed = false;
                }
            }
            Event::CreatureDefeated {
                player,
                card,
                space,
                experience,
            } => {
                self.discard_adventure(*space, *card);
                if let Some(a) = self.adventurer_mut(*player) {
                    a.experience.0 = a.experience.0.saturating_add(experience.0);
                }
            }
            Event::OpportunityUsed { card, space, .. } => self.discard_adventure(*space, *card),
            Event::EffectApplied {
                player,
                effect,
                applied,
            } => {
                if let Some(a) = self.adventurer_mut(*player) {
                    let n = *applied;
                    match effect {
                        Effect::GainGold(_) => a.gold.0 = a.gold.0.saturating_add(n),
                        Effect::LoseGold(_) => a.gold.0 = a.gold.0.saturating_sub(n),
                        Effect::GainExperience(_) => {
                            a.experience.0 = a.experience.0.saturating_add(n);
                        }
                        Effect::LoseExperience(_) => {
                            a.experience.0 = a.experience.0.saturating_sub(n);
                        }
                        Effect::Heal(_) => {
                            a.health.restore(n);
                        }
                        Effect::LoseHealth(_) => {
                            a.health.lose(n);
                        }
                        Effect::Recharge(_) => {
                            a.magic.restore(n);
                        }
                        Effect::LoseMagic(_) => {
                            a.magic.lose(n);
                        }
                        Effect::GainStrength(_) => {
                            a.health.right = a.health.right.saturating_add(n)
                        }
                        Effect::GainWillpower(_) => a.magic.right = a.magic.right.saturating_add(n),
                        Effect::MissTurn => a.miss_turn = true,
                        // These have their own events.
                        Effect::DrawCommonItem
                        | Effect::DrawRareItem
                        | Effect::LoseItem
                        | Effect::MoveOneSpace => {}
                    }
                }
            }
            Event::ItemDrawn { player, item, .. } => {
                if let Some(deck) = self.item_deck(*item) {
                    deck.take(item);
                }
                if let Some(a) = self.adventurer_mut(*player) {
                    a.items.push(*item);
                }
            }
            Event::ItemLost { player, item } => {
                self.remove_item(*player, *item);
            }
            Event::AdventurerDied { player } => {
                if let Some(a) = self.adventurer_mut(*player) {
                    a.alive = false;
                }
            }
            Event::GameEndedWithoutWinner { ranking } => {
                self.phase = Phase::Ended {
                    ranking: ranking.clone(),
                };
            }
            Event::TurnMissed { player } => {
                if let Some(a) = self.adventurer_mut(*player) {
                    a.miss_turn = false;
                }
            }
            Event::TurnEnded { next, extra, .. } => {
                self.phase = Phase::Playing(Turn {
                    player: *next,
                    step: if *extra { Step::Move } else { Step::DrawChance },
                    extra: *extra,
                    extra_pending: false,
                    stayed: false,
                    possibility_used: false,
                });
            }
        }
    }
}
