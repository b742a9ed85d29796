//! [`decide`]: checks a command against the rules and the state, and returns the events it
//! becomes or why not. Every shuffle and roll is made here, from the command's seed, and stored
//! in the events.

use crate::command::{Action, Choices, Command, MoveKind};
use crate::content::{ChanceKind, Market, Rarity, SpaceKind};
use crate::event::{Event, Refreshment, Seat, SetUp};
use crate::ids::{AdventureId, ChanceId, CharacterId, ItemId, PlayerId, SpaceId};
use crate::model::{
    Adventurer, CERTIFICATES_TO_WIN, DeckKind, Experience, Gold, Phase, Ranking, RollRound, Step,
    Turn,
};
use crate::refusal::Refusal;
use crate::state::State;
use dice::{DiceRng, Seed};

type Decision = Result<Vec<Event>, Refusal>;
/// A decision that is one event (most are): no list to allocate for it.
pub(crate) type OneEvent = Result<Event, Refusal>;
/// A decision whose events went into a list given by the caller.
type Decided = Result<(), Refusal>;

/// Fewest players.
pub const MIN_PLAYERS: usize = 2;
/// Most players.
pub const MAX_PLAYERS: usize = 5;
/// Experience a Certificate costs.
pub const CERTIFICATE_EXPERIENCE: Experience = Experience(5);
/// Gold a Certificate costs outside the character's own two guilds.
pub const CERTIFICATE_GOLD: Gold = Gold(5);
/// Rounds of rolling for the first player before the first of the tied (in seating order)
/// begins; ties this long do not happen with a fair die, but the engine never loops forever.
const MAX_ROLL_ROUNDS: usize = 64;

/// Checks a command against the rules and the state; the events it becomes, or why not.
pub fn decide(state: &State, command: Command) -> Decision {
    let mut events = Vec::new();
    decide_from(Base::Borrowed(state), command, &mut events).map(|()| events)
}

/// [`decide`] on a state of the caller's own, changed in place: after the events (as it was
/// when the command is refused), and the events are added to `events` (a list the caller
/// keeps from one command to the next). The simulator's: deciding applies the events anyway
/// (in an [`Out`]), and on a state no other copy shares, applying them copies nothing.
pub(crate) fn decide_owned(
    state: &mut State,
    command: Command,
    events: &mut Vec<Event>,
) -> Result<(), Refusal> {
    decide_from(Base::Owned(state), command, events)
}

/// The state a decision starts from.
enum Base<'a> {
    /// [`decide`]'s: left as it was; an [`Out`] works on a copy (its parts shared until
    /// written, and then copied).
    Borrowed(&'a State),
    /// [`decide_owned`]'s: the events are applied to it, in place.
    Owned(&'a mut State),
}

impl Base<'_> {
    fn state(&self) -> &State {
        match self {
            Base::Borrowed(state) => state,
            Base::Owned(state) => state,
        }
    }
}

/// The decision, with its events added to `events` and, when `base` is owned, applied to it
/// (see [`decide_owned`]).
fn decide_from(base: Base<'_>, command: Command, events: &mut Vec<Event>) -> Decided {
    let by = command.by;
    match command.action {
        Action::SetUp { seats, seed } => plain(base, events, |state| set_up(state, seats, seed)),
        Action::DrawChance { seed } => acted(base, events, |state| draw_chance(state, by, seed)),
        Action::Move(how) => plain(base, events, |state| move_adventurer(state, by, how)),
        Action::Fight {
            kind,
            seed,
            items,
            clockwise,
            lose_item,
        } => {
            let choices = Choices {
                clockwise,
                lose_item,
            };
            acted(base, events, |state| {
                crate::encounter::fight(state, by, kind, items, choices, seed)
            })
        }
        Action::UseSpecialRule => plain(base, events, |state| {
            crate::encounter::use_special_rule(state, by)
        }),
        Action::UseOpportunity {
            seed,
            clockwise,
            lose_item,
        } => {
            let choices = Choices {
                clockwise,
                lose_item,
            };
            acted(base, events, |state| {
                crate::encounter::use_opportunity(state, by, choices, seed)
            })
        }
        Action::Recover { amount } => plain(base, events, |state| {
            crate::possibility::recover(state, by, amount)
        }),
        Action::Trade => plain(base, events, |state| crate::possibility::trade(state, by)),
        Action::BuyItem { item } => {
            plain(base, events, |state| crate::market::buy(state, by, item))
        }
        Action::SellItem { item } => {
            plain(base, events, |state| crate::market::sell(state, by, item))
        }
        Action::RepairItem { item } => {
            plain(base, events, |state| crate::market::repair(state, by, item))
        }
        Action::BuyCertificate => acted(base, events, |state| buy_certificate(state, by)),
        Action::EndTurn => acted(base, events, |state| end_turn(state, by)),
    }
}

/// A decision that is one event worked out from the state alone: an owned state has it
/// applied after.
fn plain(
    base: Base<'_>,
    events: &mut Vec<Event>,
    decide: impl FnOnce(&State) -> OneEvent,
) -> Decided {
    let event = decide(base.state())?;
    if let Base::Owned(state) = base {
        state.apply(&event);
    }
    events.push(event);
    Ok(())
}

/// A decision in two steps: `check` refuses the command or returns how it acts, which emits
/// its events into an [`Out`] (each applied as it comes, as later ones depend on them) and is
/// never refused. The act borrows nothing of the state, so it can change an owned one in place.
fn acted<A: FnOnce(&mut Out)>(
    base: Base<'_>,
    events: &mut Vec<Event>,
    check: impl FnOnce(&State) -> Result<A, Refusal>,
) -> Decided {
    let act = check(base.state())?;
    match base {
        Base::Borrowed(state) => act(&mut Out {
            state: &mut state.clone(),
            events,
        }),
        Base::Owned(state) => act(&mut Out { state, events }),
    }
    Ok(())
}

/// A number in `0..n` (0 when `n` ≤ 1), uniformly, from the generator's bytes.
pub fn below(rng: &mut DiceRng, n: usize) -> usize {
    match n {
        0 | 1 => 0,
        2..=255 => usize::from(rng.face(n as u8)) - 1,
        _ => {
            // Four bytes, little-endian, rejecting the incomplete last block.
            let n = n as u64;
            let span = 1u64 << 32;
            let limit = span - span % n;
            loop {
                let word = (0..4).fold(0u64, |w, i| w | u64::from(rng.next_byte()) << (8 * i));
                if word < limit {
                    return (word % n) as usize;
                }
            }
        }
    }
}

/// Fisher–Yates: from the last position down, swap each with one at or before it.
pub fn shuffle<T>(rng: &mut DiceRng, cards: &mut [T]) {
    for i in (1..cards.len()).rev() {
        let j = below(rng, i + 1);
        cards.swap(i, j);
    }
}

fn ids<T>(range: impl Iterator<Item = usize>, id: fn(usize) -> T) -> Vec<T> {
    range.map(id).collect()
}

fn set_up(state: &State, seats: Vec<(PlayerId, String)>, seed: Seed) -> OneEvent {
    if state.phase != Phase::NotSetUp {
        return Err(Refusal::AlreadySetUp);
    }
    if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&seats.len()) {
        return Err(Refusal::PlayerCount { count: seats.len() });
    }
    for (i, (player, name)) in seats.iter().enumerate() {
        if seats[..i].iter().any(|(p, _)| p == player) {
            return Err(Refusal::SeatedTwice);
        }
        if name.trim().is_empty() {
            return Err(Refusal::EmptyName);
        }
    }
    let content = &state.content;
    if content.characters.len() < seats.len() {
        return Err(Refusal::NotEnoughCharacters {
            available: content.characters.len(),
        });
    }
    let mut rng = DiceRng::new(seed);
    let mut characters = ids(0..content.characters.len(), CharacterId::of);
    shuffle(&mut rng, &mut characters);
    let seats: Vec<Seat> = seats
        .into_iter()
        .zip(characters)
        .map(|((player, name), character)| Seat {
            player,
            name: name.trim().to_owned(),
            character,
        })
        .collect();
    let mut adventure_deck = ids(0..content.adventures.len(), AdventureId::of);
    shuffle(&mut rng, &mut adventure_deck);
    let mut chance_deck: Vec<ChanceId> = (0..content.chance.len())
        .flat_map(|i| std::iter::repeat_n(ChanceId::of(i), content.chance[i].copies as usize))
        .collect();
    shuffle(&mut rng, &mut chance_deck);
    let items_of = |rarity: Rarity| -> Vec<ItemId> {
        ids(
            (0..content.items.len()).filter(|&i| content.items[i].rarity == rarity),
            ItemId::of,
        )
    };
    let mut common_items = items_of(Rarity::Common);
    shuffle(&mut rng, &mut common_items);
    let mut rare_items = items_of(Rarity::Rare);
    shuffle(&mut rng, &mut rare_items);

    let mut rolls: Vec<RollRound> = Vec::new();
    let mut rolling: Vec<PlayerId> = seats.iter().map(|s| s.player).collect();
    while rolling.len() > 1 && rolls.len() < MAX_ROLL_ROUNDS {
        let round: RollRound = rolling.iter().map(|&p| (p, rng.d6())).collect();
        let high = round.iter().map(|&(_, r)| r).max().unwrap_or(0);
        rolling = round
            .iter()
            .filter(|&&(_, r)| r == high)
            .map(|&(p, _)| p)
            .collect();
        rolls.push(round);
    }
    let first_player = rolling.first().copied().unwrap_or(seats[0].player);
    Ok(Event::GameSetUp(Box::new(SetUp {
        seats,
        adventure_deck,
        chance_deck,
        common_items,
        rare_items,
        rolls,
        first_player,
    })))
}

/// The turn and the acting adventurer once her move is made (and any Creature there fought), and the kind of
/// space she stands in; `before_move` is the refusal while she has not moved yet.
pub(crate) fn after_moving(
    state: &State,
    by: PlayerId,
    before_move: Refusal,
) -> Result<(Turn, &Adventurer, Option<SpaceKind>), Refusal> {
    let (turn, adventurer) = current(state, by)?;
    match turn.step {
        Step::DrawChance => return Err(Refusal::DrawChanceFirst),
        Step::Move => return Err(before_move),
        Step::Battle => return Err(crate::encounter::fight_first(state, by)),
        Step::Moved => {}
    }
    let kind = state
        .content
        .board
        .spaces
        .get(adventurer.space.index())
        .map(|s| s.kind);
    Ok((turn, adventurer, kind))
}

/// The current turn and the acting adventurer, if it is hers.
pub(crate) fn current(state: &State, by: PlayerId) -> Result<(Turn, &Adventurer), Refusal> {
    let turn = match &state.phase {
        Phase::NotSetUp => return Err(Refusal::NotSetUp),
        Phase::Won { .. } | Phase::Ended { .. } => return Err(Refusal::GameOver),
        Phase::Playing(turn) => *turn,
    };
    let Some(adventurer) = state.adventurer(by) else {
        return Err(Refusal::NotAPlayer);
    };
    if !adventurer.alive {
        return Err(Refusal::Dead);
    }
    if turn.player != by {
        return Err(Refusal::NotYourTurn);
    }
    Ok((turn, adventurer))
}

/// A command's generator, made from its seed only when a shuffle or a roll first needs it (most
/// Chance cards need none).
pub(crate) struct LazyRng {
    seed: Seed,
    rng: Option<DiceRng>,
}

impl LazyRng {
    pub(crate) fn new(seed: Seed) -> LazyRng {
        LazyRng { seed, rng: None }
    }

    /// The generator, made now if not yet.
    pub(crate) fn get(&mut self) -> &mut DiceRng {
        let seed = self.seed;
        self.rng.get_or_insert_with(|| DiceRng::new(seed))
    }
}

/// Events being decided, applied as they come so later ones see the earlier ones' effects.
pub(crate) struct Out<'a> {
    pub(crate) state: &'a mut State,
    pub(crate) events: &'a mut Vec<Event>,
}

impl Out<'_> {
    pub(crate) fn emit(&mut self, event: Event) {
        self.state.apply(&event);
        self.events.push(event);
    }

    /// Shuffles a deck's discards into a new draw pile, if it has any.
    fn reshuffle(&mut self, deck: DeckKind, rng: &mut LazyRng) {
        let decks = &self.state.decks;
        let mut order: Vec<u32> = match deck {
            DeckKind::Adventure => decks.adventure.discard.iter().map(|c| c.0).collect(),
            DeckKind::Chance => decks.chance.discard.iter().map(|c| c.0).collect(),
            DeckKind::CommonItems => decks.common_items.discard.iter().map(|c| c.0).collect(),
            DeckKind::RareItems => decks.rare_items.discard.iter().map(|c| c.0).collect(),
        };
        if order.is_empty() {
            return;
        }
        shuffle(rng.get(), &mut order);
        self.emit(Event::DeckReshuffled { deck, order });
    }

    /// The top `most` cards of a deck's draw pile (fewer if it has fewer).
    fn draw_pile(&self, deck: DeckKind, most: usize) -> Vec<u32> {
        fn top<T>(draw: &[T], most: usize, id: fn(&T) -> u32) -> Vec<u32> {
            draw.iter().take(most).map(id).collect()
        }
        let decks = &self.state.decks;
        match deck {
            DeckKind::Adventure => top(&decks.adventure.draw, most, |c| c.0),
            DeckKind::Chance => top(&decks.chance.draw, most, |c| c.0),
            DeckKind::CommonItems => top(&decks.common_items.draw, most, |c| c.0),
            DeckKind::RareItems => top(&decks.rare_items.draw, most, |c| c.0),
        }
    }

    /// Draws up to `count` cards from the top of a deck, reshuffling its discards in when it
    /// runs out; `place` turns each run of cards drawn before a reshuffle into its event.
    pub(crate) fn draw(
        &mut self,
        deck: DeckKind,
        count: usize,
        rng: &mut LazyRng,
        place: impl Fn(Vec<u32>, usize) -> Event,
    ) {
        let mut drawn = 0;
        while drawn < count {
            let mut pile = self.draw_pile(deck, count - drawn);
            if pile.is_empty() {
                self.reshuffle(deck, rng);
                pile = self.draw_pile(deck, count - drawn);
                if pile.is_empty() {
                    return;
                }
            }
            let n = pile.len();
            self.emit(place(pile, drawn));
            drawn += n;
        }
    }
}

fn draw_chance(
    state: &State,
    by: PlayerId,
    seed: Seed,
) -> Result<impl FnOnce(&mut Out) + use<>, Refusal> {
    let (turn, _) = current(state, by)?;
    if turn.step != Step::DrawChance {
        return Err(if turn.extra {
            Refusal::NoChanceInExtraTurn
        } else {
            Refusal::ChanceAlreadyDrawn
        });
    }
    Ok(move |out: &mut Out| reveal_chance(out, by, seed))
}

/// The Chance card drawn, and what it does.
fn reveal_chance(out: &mut Out, by: PlayerId, seed: Seed) {
    let mut rng = LazyRng::new(seed);
    if out.state.decks.chance.draw.is_empty() {
        out.reshuffle(DeckKind::Chance, &mut rng);
    }
    let Some(&card) = out.state.decks.chance.draw.first() else {
        return;
    };
    out.emit(Event::ChanceDrawn { player: by, card });
    let Some(kind) = out.state.content.chance.get(card.index()).map(|c| c.kind) else {
        return;
    };
    match kind {
        ChanceKind::Terrain(terrain) => {
            let state = &out.state;
            let kind = SpaceKind::Terrain(terrain);
            // A plain loop over the board beside what lies on it: most Chance cards are terrain cards.
            let mut empty: Vec<SpaceId> = Vec::new();
            for (i, (space, lying)) in state
                .content
                .board
                .spaces
                .iter()
                .zip(&*state.spaces)
                .enumerate()
            {
                if space.kind == kind && lying.adventure.is_none() {
                    empty.push(SpaceId::of(i));
                }
            }
            out.draw(DeckKind::Adventure, empty.len(), &mut rng, |cards, from| {
                Event::AdventuresPlaced {
                    placed: empty[from..]
                        .iter()
                        .copied()
                        .zip(cards.into_iter().map(AdventureId))
                        .collect(),
                }
            });
        }
        ChanceKind::Restock {
            space: market,
            deck,
            count,
        } => {
            let kind = match market {
                Market::City => SpaceKind::City,
                Market::Village => SpaceKind::Village,
            };
            let spaces = &out.state.content.board.spaces;
            let Some(space) = spaces.iter().position(|s| s.kind == kind) else {
                return;
            };
            let space = SpaceId::of(space);
            let lying = out
                .state
                .space(space)
                .map(|s| s.items.clone())
                .unwrap_or_default();
            if !lying.is_empty() {
                out.emit(Event::ItemsDiscarded {
                    space,
                    items: lying,
                });
            }
            let deck = match deck {
                Rarity::Common => DeckKind::CommonItems,
                Rarity::Rare => DeckKind::RareItems,
            };
            out.draw(deck, count as usize, &mut rng, |cards, _| {
                Event::ItemsLaidOut {
                    space,
                    deck,
                    items: cards.into_iter().map(ItemId).collect(),
                }
            });
        }
        ChanceKind::Wind { heal, recharge } => {
            refresh(out, |_| true, heal, recharge, Gold(0));
        }
        ChanceKind::GoodTimes { gold } => {
            refresh(out, |_| true, 0, 0, Gold(gold));
        }
        ChanceKind::Charity {
            heal,
            recharge,
            gold,
        } => {
            let least = (out.state.adventurers.iter())
                .filter(|a| a.alive)
                .map(|a| a.gold)
                .min()
                .unwrap_or_default();
            refresh(out, |a| a.gold == least, heal, recharge, Gold(gold));
        }
        ChanceKind::PeacefulTimes => out.emit(Event::ExtraTurnGranted { player: by }),
    }
}

/// Heals, recharges (each up to the adventurer's maximum) and gives Gold to those alive `who`
/// picks.
///
/// Charity's "the player that has the least" is read as the least **Gold**: Gold is what every
/// adventurer can always be compared by (lost Health and Magic differ with each character's
/// maximum), and the card gives Gold. Everyone tied for the least profits.
fn refresh(out: &mut Out, who: impl Fn(&Adventurer) -> bool, heal: u32, recharge: u32, gold: Gold) {
    let refreshed: Vec<Refreshment> = (out.state.adventurers.iter())
        .filter(|a| a.alive && who(a))
        .map(|a| Refreshment {
            player: a.player,
            healed: heal.min(a.health.left),
            recharged: recharge.min(a.magic.left),
            gold,
        })
        .filter(|r| r.healed > 0 || r.recharged > 0 || r.gold.0 > 0)
        .collect();
    if !refreshed.is_empty() {
        out.emit(Event::AdventurersRefreshed { refreshed });
    }
}

/// Where a move ends, or why it is impossible.
pub fn destination(state: &State, from: SpaceId, how: MoveKind) -> Result<SpaceId, Refusal> {
    let board = &state.content.board;
    let n = board.spaces.len().max(1);
    // Along the ring; no division for the usual steps (a division costs more than a move's
    // other checks).
    let step = |by: usize, clockwise: bool| {
        let at = if from.index() < n {
            from.index()
        } else {
            from.index() % n
        };
        let by = if by < n { by } else { by % n };
        SpaceId::of(match (clockwise, at + by >= n) {
            (true, false) => at + by,
            (true, true) => at + by - n,
            (false, _) if at >= by => at - by,
            (false, _) => at + n - by,
        })
    };
    match how {
        MoveKind::Stay => Ok(from),
        MoveKind::Walk { clockwise } => Ok(step(1, clockwise)),
        MoveKind::Horse { clockwise } => Ok(step(2, clockwise)),
        // The next port or gate found along the ring, not in a list of them: a move is decided
        // on every turn.
        MoveKind::Boat { clockwise } => {
            let port = |s: SpaceId| board.spaces.get(s.index()).is_some_and(|s| s.port);
            if !port(from) {
                return Err(Refusal::NotAPort);
            }
            // With one port only, the boat goes round to where it started.
            (1..=n)
                .map(|by| step(by, clockwise))
                .find(|&s| port(s))
                .ok_or(Refusal::NotAPort)
        }
        MoveKind::MagicGate { to } => {
            let gate = |s: SpaceId| board.spaces.get(s.index()).is_some_and(|s| s.magic_gate);
            if !gate(from) {
                return Err(Refusal::NotAMagicGate);
            }
            if to == from || !gate(to) {
                return Err(Refusal::NotAnotherMagicGate);
            }
            Ok(to)
        }
    }
}

fn move_adventurer(state: &State, by: PlayerId, how: MoveKind) -> OneEvent {
    let (turn, adventurer) = current(state, by)?;
    match turn.step {
        Step::DrawChance => return Err(Refusal::DrawChanceFirst),
        Step::Moved | Step::Battle => return Err(Refusal::AlreadyMoved),
        Step::Move => {}
    }
    let to = destination(state, adventurer.space, how)?;
    let cost = how.cost();
    if adventurer.gold < cost {
        return Err(Refusal::NotEnoughGold {
            cost,
            has: adventurer.gold,
        });
    }
    Ok(Event::Moved {
        player: by,
        how,
        to,
        paid: cost,
    })
}

fn buy_certificate(state: &State, by: PlayerId) -> Result<impl FnOnce(&mut Out) + use<>, Refusal> {
    let (turn, adventurer) = current(state, by)?;
    match turn.step {
        Step::DrawChance => return Err(Refusal::DrawChanceFirst),
        Step::Move => return Err(Refusal::MoveFirst),
        Step::Battle => return Err(crate::encounter::fight_first(state, by)),
        Step::Moved => {}
    }
    let Some(SpaceKind::Guild(guild)) = state
        .content
        .board
        .spaces
        .get(adventurer.space.index())
        .map(|s| s.kind)
    else {
        return Err(Refusal::NotAGuild);
    };
    if adventurer.has_certificate(guild) {
        return Err(Refusal::AlreadyCertified { guild });
    }
    if adventurer.experience < CERTIFICATE_EXPERIENCE {
        return Err(Refusal::NotEnoughExperience {
            cost: CERTIFICATE_EXPERIENCE,
            has: adventurer.experience,
        });
    }
    let own = state
        .content
        .characters
        .get(adventurer.character.index())
        .is_some_and(|c| c.guilds.contains(&guild));
    let gold = if own { Gold(0) } else { CERTIFICATE_GOLD };
    if adventurer.gold < gold {
        return Err(Refusal::CertificateGold {
            cost: gold,
            has: adventurer.gold,
        });
    }
    Ok(move |out: &mut Out| {
        out.emit(Event::CertificateBought {
            player: by,
            guild,
            experience: CERTIFICATE_EXPERIENCE,
            gold,
        });
        if out
            .state
            .adventurer(by)
            .is_some_and(|a| a.certificates.len() >= CERTIFICATES_TO_WIN)
        {
            let ranking = ranking(out.state, by);
            out.emit(Event::GameWon {
                winner: by,
                ranking,
            });
        }
    })
}

/// The winner first, then the others by Certificates, most first (ties keep seating order).
pub fn ranking(state: &State, winner: PlayerId) -> Ranking {
    let count = |a: &Adventurer| u32::try_from(a.certificates.len()).unwrap_or(u32::MAX);
    let mut others: Vec<(PlayerId, u32)> = state
        .adventurers
        .iter()
        .filter(|a| a.player != winner)
        .map(|a| (a.player, count(a)))
        .collect();
    others.sort_by_key(|&(_, n)| std::cmp::Reverse(n));
    let mut ranking = vec![(winner, state.adventurer(winner).map_or(0, count))];
    ranking.extend(others);
    Ranking(ranking)
}

/// Everyone by Certificates, most first (ties keep seating order): the finish without a winner.
pub fn standings(state: &State) -> Ranking {
    let count = |a: &Adventurer| u32::try_from(a.certificates.len()).unwrap_or(u32::MAX);
    let mut all: Vec<(PlayerId, u32)> = state
        .adventurers
        .iter()
        .map(|a| (a.player, count(a)))
        .collect();
    all.sort_by_key(|&(_, n)| std::cmp::Reverse(n));
    Ranking(all)
}

fn end_turn(state: &State, by: PlayerId) -> Result<impl FnOnce(&mut Out) + use<>, Refusal> {
    let (turn, _) = current(state, by)?;
    match turn.step {
        Step::DrawChance => return Err(Refusal::DrawChanceFirst),
        Step::Battle => return Err(crate::encounter::fight_first(state, by)),
        Step::Move | Step::Moved => {}
    }
    let extra = turn.extra_pending;
    Ok(move |out: &mut Out| {
        if extra {
            out.emit(Event::TurnEnded {
                player: by,
                next: by,
                extra: true,
            });
        } else {
            pass_turn(out, by);
        }
    })
}

/// Passes the turn from `by` to the next adventurer alive on her left; one who must miss
/// her turn has it skipped (`TurnMissed`) and the turn goes on to the next.
pub(crate) fn pass_turn(out: &mut Out, by: PlayerId) {
    let n = out.state.adventurers.len();
    let at = out
        .state
        .adventurers
        .iter()
        .position(|a| a.player == by)
        .unwrap_or(0);
    // Two rounds at most: the first clears every missed turn. The seat after `at`, round the
    // table, without dividing (a division costs more than the rest of a turn's end).
    let mut seat = at;
    for _ in 0..2 * n {
        seat = if seat + 1 >= n { 0 } else { seat + 1 };
        let a = &out.state.adventurers[seat];
        let (player, alive, miss) = (a.player, a.alive, a.miss_turn);
        if !alive {
            continue;
        }
        if miss {
            out.emit(Event::TurnMissed { player });
            continue;
        }
        out.emit(Event::TurnEnded {
            player: by,
            next: player,
            extra: false,
        });
        return;
    }
    out.emit(Event::TurnEnded {
        player: by,
        next: by,
        extra: false,
    });
}
