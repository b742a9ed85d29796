//! [`decide`]: checks a command against the rules and the state, and returns the events it
//! becomes or why not. Every shuffle and roll is made here, from the command's seed, and stored
//! in the events.

use crate::command::{Action, Choices, Command, MoveKind};
use crate::content::{ChanceKind, Market, Rarity, SpaceKind};
use crate::event::{Event, Refreshment, Seat, SetUp};
use crate::ids::{AdventureId, ChanceId, CharacterId, ItemId, PlayerId, SpaceId};
use crate::model::{
    Adventurer, CERTIFICATES_TO_WIN, DeckKind, Experience, Gold, Phase, RollRound, Step,
};
use crate::refusal::Refusal;
use crate::state::State;
use crate::turn::{
    LazyRng, OneEvent, Out, current, destination, fight_first, pass_turn, ranking, shuffle,
};
use dice::{DiceRng, Seed};

type Decision = Result<Vec<Event>, Refusal>;
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
            throw,
            clockwise,
            lose_item,
        } => {
            let choices = Choices {
                clockwise,
                lose_item,
            };
            acted(base, events, |state| {
                crate::encounter::fight(state, by, kind, items, throw, choices, seed)
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
            refresh(out, |a| {
                (heal.min(a.health.left), recharge.min(a.magic.left), Gold(0))
            });
        }
        ChanceKind::GoodTimes { gold } => {
            refresh(out, |_| (0, 0, Gold(gold)));
        }
        ChanceKind::Charity {
            heal,
            recharge,
            gold,
        } => charity(out, heal, recharge, Gold(gold)),
        ChanceKind::PeacefulTimes => out.emit(Event::ExtraTurnGranted { player: by }),
    }
}

/// Charity is "a combination of the previous four cards" (the three winds and Good Times), "but
/// only to the player that has the least": each of its gifts goes to whoever has the least of
/// what that gift gives, as each of those cards would give it. Healing goes to the fewest
/// Health (red cubes on the right), recharging to the fewest Magic (blue cubes on the right),
/// Gold to the least Gold; everyone tied for a least profits from that gift.
fn charity(out: &mut Out, heal: u32, recharge: u32, gold: Gold) {
    let alive = || out.state.adventurers.iter().filter(|a| a.alive);
    let least = |of: fn(&Adventurer) -> u32| alive().map(of).min().unwrap_or_default();
    let health = least(|a| a.health.right);
    let magic = least(|a| a.magic.right);
    let coins = least(|a| a.gold.0);
    refresh(out, |a| {
        (
            if a.health.right == health {
                heal.min(a.health.left)
            } else {
                0
            },
            if a.magic.right == magic {
                recharge.min(a.magic.left)
            } else {
                0
            },
            if a.gold.0 == coins { gold } else { Gold(0) },
        )
    });
}

/// Gives each adventurer alive what `gifts` says (healed, recharged, Gold; healing and
/// recharging already bounded by what she lost).
fn refresh(out: &mut Out, gifts: impl Fn(&Adventurer) -> (u32, u32, Gold)) {
    let refreshed: Vec<Refreshment> = (out.state.adventurers.iter())
        .filter(|a| a.alive)
        .map(|a| {
            let (healed, recharged, gold) = gifts(a);
            Refreshment {
                player: a.player,
                healed,
                recharged,
                gold,
            }
        })
        .filter(|r| r.healed > 0 || r.recharged > 0 || r.gold.0 > 0)
        .collect();
    if !refreshed.is_empty() {
        out.emit(Event::AdventurersRefreshed { refreshed });
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
        Step::Battle => return Err(fight_first(state, by)),
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

fn end_turn(state: &State, by: PlayerId) -> Result<impl FnOnce(&mut Out) + use<>, Refusal> {
    let (turn, adventurer) = current(state, by)?;
    match turn.step {
        Step::DrawChance => return Err(Refusal::DrawChanceFirst),
        Step::Battle => return Err(fight_first(state, by)),
        // "If you want to encounter the card located in the space where you start your
        // movement, you must not move at all": not moving means meeting her space's Creature.
        Step::Move => {
            if let Some((_, creature)) = state.creature_on(adventurer.space) {
                return Err(Refusal::MoveOrFight {
                    creature: creature.name.clone(),
                });
            }
        }
        Step::Moved => {}
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
