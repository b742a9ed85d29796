//! The state of a game, and [`evolve`], which applies one event to it.

use crate::content::{AdventureCard, Content, Creature, Rarity};
use crate::event::{Event, Seat, SetUp};
use crate::ids::{AdventureId, ChanceId, ItemId, PlayerId, SpaceId};
use crate::model::{
    Adventurer, Cubes, Deck, DeckKind, Decks, Phase, STARTING_EXPERIENCE, STARTING_GOLD,
    SpaceContents, Step, Turn,
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

    /// A player's adventurer, to change: for the events that change her.
    pub(crate) fn adventurer_mut(&mut self, player: PlayerId) -> Option<&mut Adventurer> {
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

    /// Where the turn stands, for the events that move it on.
    pub(crate) fn set_step(&mut self, step: Step) {
        if let Phase::Playing(turn) = &mut self.phase {
            turn.step = step;
        }
    }

    /// Takes an Item from an adventurer (face-up again) into its deck's discards; false if she
    /// does not carry it.
    pub(crate) fn remove_item(&mut self, player: PlayerId, item: ItemId) -> bool {
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

    /// The deck an Item belongs to (and goes back to when discarded).
    pub(crate) fn item_deck(&mut self, item: ItemId) -> Option<&mut Deck<ItemId>> {
        match self.content.items.get(item.index())?.rarity {
            Rarity::Common => Some(&mut self.decks.common_items),
            Rarity::Rare => Some(&mut self.decks.rare_items),
        }
    }

    /// Applies one event: the table's own here (set-up, decks, what lies on the spaces), the
    /// others in the modules of their rules (turn, encounter, possibility, market), so each
    /// event's effect sits beside the rules that decide it.
    pub(crate) fn apply(&mut self, event: &Event) {
        self.version = self.version.saturating_add(1);
        match event {
            Event::GameSetUp(set_up) => self.set_up(set_up),
            Event::DeckReshuffled { deck, order } => self.refill(*deck, order),
            Event::ChanceDrawn { card, .. } => self.draw_chance(*card),
            Event::AdventuresPlaced { placed } => self.place_adventures(placed),
            Event::ItemsDiscarded { space, items } => self.discard_items(*space, items),
            Event::ItemsLaidOut { space, items, .. } => self.lay_out_items(*space, items),
            Event::AdventurersRefreshed { refreshed } => self.refresh(refreshed),
            Event::ExtraTurnGranted { .. } => self.grant_extra_turn(),
            Event::Moved {
                player,
                how,
                to,
                paid,
            } => self.move_adventurer(*player, *how, *to, *paid),
            Event::CertificateBought {
                player,
                guild,
                experience,
                gold,
            } => self.certify(*player, *guild, *experience, *gold),
            Event::Recovered {
                player,
                healed,
                recharged,
                paid,
                ..
            } => self.recover_lost(*player, *healed, *recharged, *paid),
            Event::Traded {
                player,
                health,
                magic,
                gold,
                experience,
                ..
            } => self.trade_cubes(*player, *health, *magic, *gold, *experience),
            Event::ItemBought {
                player,
                space,
                item,
                paid,
            } => self.buy_item(*player, *space, *item, *paid),
            Event::ItemSold { player, item, gold } => self.sell_item(*player, *item, *gold),
            Event::ItemRepaired { player, item, paid } => self.repair_item(*player, *item, *paid),
            Event::GameWon { winner, ranking } => self.win(*winner, ranking),
            Event::ItemDamaged { player, item } => self.damage_item(*player, *item),
            Event::BattleFought {
                player,
                magic_paid,
                drained,
                ..
            } => self.end_battle(*player, *magic_paid, *drained),
            Event::CreatureRose { card, to, .. } => self.raise_creature(*card, *to),
            Event::CreaturePassed { player, paid, .. } => self.pass_creature(*player, *paid),
            Event::CreatureLetGo { card, space, .. } => self.let_creature_go(*card, *space),
            Event::MovedOneSpace { player, to, .. } => self.move_one_space(*player, *to),
            Event::CreatureDefeated {
                player,
                card,
                space,
                experience,
            } => self.defeat_creature(*player, *card, *space, *experience),
            Event::OpportunityUsed { card, space, .. } => self.discard_adventure(*space, *card),
            Event::EffectApplied {
                player,
                effect,
                applied,
            } => self.take_effect(*player, effect, *applied),
            Event::ItemDrawn { player, item, .. } => self.draw_item(*player, *item),
            Event::ItemLost { player, item } => {
                self.remove_item(*player, *item);
            }
            Event::AdventurerDied { player } => self.die(*player),
            Event::GameEndedWithoutWinner { ranking } => self.end_without_winner(ranking),
            Event::TurnMissed { player } => self.miss_turn(*player),
            Event::TurnEnded { next, extra, .. } => self.end_turn(*next, *extra),
        }
    }

    /// [`Event::GameSetUp`]: each adventurer seated in her character's first guild with the
    /// starting Gold, Experience and full cubes; the decks as shuffled; nothing on the spaces.
    fn set_up(&mut self, set_up: &SetUp) {
        let SetUp {
            seats,
            adventure_deck,
            chance_deck,
            common_items,
            rare_items,
            first_player,
            rolls: _,
        } = set_up;
        let content = Arc::clone(&self.content);
        self.adventurers = seats.iter().map(|seat| seated(&content, seat)).collect();
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
            moved_by_card: false,
            possibility_used: false,
        });
    }

    /// [`Event::DeckReshuffled`]: the discards, in the order shuffled, are the new draw pile.
    fn refill(&mut self, deck: DeckKind, order: &[u32]) {
        fn fill<T>(deck: &mut Deck<T>, order: &[u32], id: fn(u32) -> T) {
            deck.draw = order.iter().map(|&i| id(i)).collect();
            deck.discard.clear();
        }
        match deck {
            DeckKind::Adventure => fill(&mut self.decks.adventure, order, AdventureId),
            DeckKind::Chance => fill(&mut self.decks.chance, order, ChanceId),
            DeckKind::CommonItems => fill(&mut self.decks.common_items, order, ItemId),
            DeckKind::RareItems => fill(&mut self.decks.rare_items, order, ItemId),
        }
    }

    /// [`Event::AdventuresPlaced`]: a terrain card's Adventure cards, face-up on their spaces.
    fn place_adventures(&mut self, placed: &[(SpaceId, AdventureId)]) {
        for (space, card) in placed {
            self.decks.adventure.take(card);
            if let Some(contents) = self.spaces.get_mut(space.index()) {
                contents.adventure = Some(*card);
            }
        }
    }

    /// [`Event::ItemsDiscarded`]: a merchant clears the Items lying in a market.
    fn discard_items(&mut self, space: SpaceId, items: &[ItemId]) {
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

    /// [`Event::ItemsLaidOut`]: a merchant's new Items, from their deck onto the market.
    fn lay_out_items(&mut self, space: SpaceId, items: &[ItemId]) {
        for item in items {
            if let Some(deck) = self.item_deck(*item) {
                deck.take(item);
            }
            if let Some(contents) = self.spaces.get_mut(space.index()) {
                contents.items.push(*item);
            }
        }
    }
}

/// A seat's adventurer as the game begins: in her character's first guild (the first space
/// when the character is unknown), with the starting Gold and Experience and full cubes.
fn seated(content: &Content, seat: &Seat) -> Adventurer {
    let character = content.characters.get(seat.character.index());
    let space = character
        .and_then(|c| {
            content
                .board
                .spaces
                .iter()
                .position(|s| s.kind == crate::content::SpaceKind::Guild(c.starting_guild()))
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
}
