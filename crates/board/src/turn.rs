//! The turn: whose it is, where it stands (its step), how it passes; and what every decision
//! of a turn shares (`Out`, the events being decided; `LazyRng`, a command's generator).
//! [`decide`](mod@crate::decide) and the rules of cards, spaces and the market build on it.

use crate::command::MoveKind;
use crate::content::{Guild, SpaceKind};
use crate::event::{Event, Refreshment};
use crate::ids::{ChanceId, PlayerId, SpaceId};
use crate::model::{
    Adventurer, Certificate, DeckKind, Experience, Gold, Phase, Ranking, Step, Turn,
};
use crate::refusal::Refusal;
use crate::state::State;
use dice::{DiceRng, Seed};

/// A decision that is one event (most are): no list to allocate for it.
pub(crate) type OneEvent = Result<Event, Refusal>;

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
        Step::Battle => return Err(fight_first(state, by)),
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
    pub(crate) fn reshuffle(&mut self, deck: DeckKind, rng: &mut LazyRng) {
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

/// The refusal while a Creature waits to be fought.
pub(crate) fn fight_first(state: &State, by: PlayerId) -> Refusal {
    let creature = state
        .adventurer(by)
        .and_then(|a| state.creature_on(a.space))
        .map_or_else(|| "Creature".to_owned(), |(_, c)| c.name.clone());
    Refusal::FightFirst { creature }
}

/// The turn's events applied to the state (`State::apply` sends each here).
impl State {
    /// [`Event::ChanceDrawn`]: the card goes to the discards and the turn moves on to the move.
    pub(crate) fn draw_chance(&mut self, card: ChanceId) {
        self.decks.chance.take(&card);
        self.decks.chance.discard.push(card);
        self.set_step(Step::Move);
    }

    /// [`Event::AdventurersRefreshed`]: what a wind, Good Times or Charity gave each one.
    pub(crate) fn refresh(&mut self, refreshed: &[Refreshment]) {
        for r in refreshed {
            if let Some(a) = self.adventurer_mut(r.player) {
                a.health.restore(r.healed);
                a.magic.restore(r.recharged);
                a.gold.0 = a.gold.0.saturating_add(r.gold.0);
            }
        }
    }

    /// [`Event::ExtraTurnGranted`]: Peaceful Times' extra turn comes when this one ends.
    pub(crate) fn grant_extra_turn(&mut self) {
        if let Phase::Playing(turn) = &mut self.phase {
            turn.extra_pending = true;
        }
    }

    /// [`Event::Moved`]: she stands on her new space, having paid for the way; a Creature
    /// there is fought next.
    pub(crate) fn move_adventurer(
        &mut self,
        player: PlayerId,
        how: MoveKind,
        to: SpaceId,
        paid: Gold,
    ) {
        if let Phase::Playing(turn) = &mut self.phase {
            turn.stayed = how == MoveKind::Stay;
        }
        if let Some(a) = self.adventurer_mut(player) {
            a.space = to;
            a.gold.0 = a.gold.0.saturating_sub(paid.0);
        }
        let meets = self.creature_on(to).is_some();
        self.set_step(if meets { Step::Battle } else { Step::Moved });
    }

    /// [`Event::CertificateBought`]: the guild's Certificate, for its Experience and Gold.
    pub(crate) fn certify(
        &mut self,
        player: PlayerId,
        guild: Guild,
        experience: Experience,
        gold: Gold,
    ) {
        if let Some(a) = self.adventurer_mut(player) {
            if !a.has_certificate(guild) {
                a.certificates.push(Certificate(guild));
            }
            a.experience.0 = a.experience.0.saturating_sub(experience.0);
            a.gold.0 = a.gold.0.saturating_sub(gold.0);
        }
    }

    /// [`Event::GameWon`]: the game ends with its winner.
    pub(crate) fn win(&mut self, winner: PlayerId, ranking: &Ranking) {
        self.phase = Phase::Won {
            winner,
            ranking: ranking.clone(),
        };
    }

    /// [`Event::GameEndedWithoutWinner`]: nobody is left alive.
    pub(crate) fn end_without_winner(&mut self, ranking: &Ranking) {
        self.phase = Phase::Ended {
            ranking: ranking.clone(),
        };
    }

    /// [`Event::TurnMissed`]: the turn she misses is skipped, and only that one.
    pub(crate) fn miss_turn(&mut self, player: PlayerId) {
        if let Some(a) = self.adventurer_mut(player) {
            a.miss_turn = false;
        }
    }

    /// [`Event::TurnEnded`]: the next turn begins with its Chance card, or with the move for
    /// Peaceful Times' extra turn.
    pub(crate) fn end_turn(&mut self, next: PlayerId, extra: bool) {
        self.phase = Phase::Playing(Turn {
            player: next,
            step: if extra { Step::Move } else { Step::DrawChance },
            extra,
            extra_pending: false,
            stayed: false,
            moved_by_card: false,
            possibility_used: false,
        });
    }
}
