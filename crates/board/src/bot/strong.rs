//! The strong bot: every choice after the Chance card made by playing the game out.
//!
//! She lists what the engine would accept of her now: every move (ending the turn where she
//! stands included); fighting, the other battle, or the Creature's optional rule; after
//! moving, the Opportunity, the trade, each amount to recover, each Item to buy or repair, the
//! Certificate, or ending the turn. She plays each to the end of the game many times over,
//! every seat played by the standard bot from there on: a win counts 1 and a loss a little for
//! each Certificate she ended it with. The playouts are shared by successive halving (each
//! round plays the choices still in the running equally often and keeps the better half, and
//! the standard bot's own choice always). She takes the best choice only where it beats the
//! standard bot's by more than one standard error of their paired playouts, and the standard
//! bot's otherwise: most choices differ by less than the playouts can tell, and one picked by
//! their luck alone plays worse. Her Items for a battle are the standard bot's, which follow
//! the exact odds.
//!
//! She sees only what a player sees. Each playout first sorts and shuffles the face-down decks
//! afresh (their order is the one thing of the state a player does not know: what is in them
//! follows from what lies face-up), and its dice come from a stream of its own, drawn from her
//! seed mixed with a constant: no roll of the game uses it, so no future die is known to her.
//! The k-th playout of every choice meets the same shuffles and dice, so that what separates
//! two choices is the choices, not the luck of their playouts.
//!
//! The number of playouts is fixed, not timed, so a decision is the same for the same state,
//! player and seed; it is set so that a decision takes under 50 ms at the 99th percentile on
//! one core of the machines we run on (`cargo bench -p board --bench strong` measures it).

use super::MAX_COMMANDS_PER_TURN;
use super::map::Map;
use super::memory::Scratch;
use crate::command::{Action, BattleKind, Command, MoveKind};
use crate::decide::decide_owned;
use crate::event::Event;
use crate::ids::{PlayerId, SpaceId};
use crate::model::{Phase, Step};
use crate::state::State;
use crate::turn::shuffle;
use dice::{DiceRng, Seed};

/// Playouts for one decision, shared among the choices: each round of a successive halving
/// gives the choices still in the running an equal share, and keeps the better half.
pub const PLAYOUTS: u32 = 320;

/// Turns after which a playout is stopped (it counts as lost).
const HORIZON: u32 = 600;

/// What a playout she loses is worth for each Certificate she ends it with (a win is 1): the
/// nearer she came, the likelier that choice wins from positions like it.
const PER_CERTIFICATE: f32 = 0.06;

/// The strong bot's action, or `None` when `player` has nothing to do now.
pub(super) fn choose(
    map: &Map,
    scratch: &mut Scratch,
    state: &State,
    player: PlayerId,
    seed: Seed,
) -> Option<Action> {
    let standard = super::decide_for(Some(map), scratch, state, player, seed)?;
    let step = state.turn()?.step;
    if step == Step::DrawChance {
        return Some(standard);
    }
    let choices = candidates(state, player, step, standard.clone());
    if choices.len() < 2 {
        return Some(standard);
    }
    // Not the game's generator: streams of her own, from her seed mixed.
    let base = seed.0 ^ 0x5EED_0F5E_A5C4_7ED1;
    // Each choice's playouts in order: the k-th of every choice meets the same decks and dice.
    let mut scores: Vec<Vec<f32>> = vec![Vec::new(); choices.len()];
    let mut running: Vec<usize> = (0..choices.len()).collect();
    let rounds = usize::BITS - (choices.len() - 1).leading_zeros();
    let mut events = Vec::new();
    for _ in 0..rounds {
        let each = (PLAYOUTS / rounds / running.len() as u32).max(1);
        for &at in &running {
            for _ in 0..each {
                let k = scores[at].len() as u64;
                let mut rng = DiceRng::new(Seed(base.wrapping_add(k)));
                let mut game = state.clone();
                unknown_order(&mut game, &mut rng);
                let action = reseeded(&choices[at], Seed(rng.next_u64()));
                events.clear();
                let score =
                    if decide_owned(&mut game, Command::new(player, action), &mut events).is_ok() {
                        play_out(map, scratch, &mut game, player, rng.next_u64())
                    } else {
                        0.0
                    };
                scores[at].push(score);
            }
        }
        // The better half stays, and the standard bot's choice always (on a tie, the earlier).
        let mean = |at: usize| scores[at].iter().sum::<f32>() / scores[at].len().max(1) as f32;
        running.sort_by(|&a, &b| mean(b).total_cmp(&mean(a)).then(a.cmp(&b)));
        running.truncate(running.len().div_ceil(2));
        if !running.contains(&0) {
            running.push(0);
        }
    }
    let best = running.iter().copied().find(|&at| at != 0);
    // Another choice only where the playouts show it better than the standard bot's by more
    // than their noise: a choice picked by luck alone is worse than the standard one.
    let at = best
        .filter(|&at| clearly_better(&scores[at], &scores[0]))
        .unwrap_or(0);
    // Her own seed again: the game's dice are rolled from it, as for any player.
    choices.get(at).map(|action| reseeded(action, seed))
}

/// Whether `a`'s playouts beat `b`'s, played against the same decks and dice, by more than
/// one standard error of their paired differences.
fn clearly_better(a: &[f32], b: &[f32]) -> bool {
    let n = a.len().min(b.len());
    if n < 2 {
        return false;
    }
    let diffs = a.iter().zip(b).map(|(x, y)| f64::from(x - y));
    let mean = diffs.clone().sum::<f64>() / n as f64;
    let var = diffs.map(|d| (d - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
    mean > (var / n as f64).sqrt()
}

/// `action` with `seed` in place of its own: a playout must not roll the dice the game will.
fn reseeded(action: &Action, seed: Seed) -> Action {
    let mut action = action.clone();
    match &mut action {
        Action::Fight { seed: s, .. } | Action::UseOpportunity { seed: s, .. } => *s = seed,
        _ => {}
    }
    action
}

/// What she may do now, the standard bot's choice first: each that the engine accepts.
fn candidates(state: &State, player: PlayerId, step: Step, standard: Action) -> Vec<Action> {
    let mut all = vec![standard.clone(), Action::EndTurn];
    match step {
        Step::Move => {
            let n = state.content.board.spaces.len();
            all.push(Action::Move(MoveKind::Stay));
            for clockwise in [true, false] {
                all.extend(
                    [
                        MoveKind::Walk { clockwise },
                        MoveKind::Horse { clockwise },
                        MoveKind::Boat { clockwise },
                    ]
                    .map(Action::Move),
                );
            }
            all.extend((0..n).map(|to| {
                Action::Move(MoveKind::MagicGate {
                    to: SpaceId::of(to),
                })
            }));
        }
        Step::Battle => {
            all.push(Action::UseSpecialRule);
            if let Action::Fight {
                kind, seed, items, ..
            } = standard
            {
                let other = match kind {
                    BattleKind::Strength => BattleKind::Wills,
                    BattleKind::Wills => BattleKind::Strength,
                };
                all.push(Action::Fight {
                    kind: other,
                    seed,
                    items,
                    throw: false,
                    clockwise: None,
                    lose_item: None,
                });
            }
        }
        Step::Moved => {
            let me = state.adventurer(player);
            all.extend([Action::Trade, Action::BuyCertificate]);
            if let Some(me) = me {
                all.extend(
                    (1..=me.health.left.max(me.magic.left))
                        .map(|amount| Action::Recover { amount }),
                );
                all.extend(me.damaged.iter().map(|&item| Action::RepairItem { item }));
                let lying = state
                    .spaces
                    .get(me.space.index())
                    .map(|s| &s.items[..])
                    .unwrap_or(&[]);
                all.extend(lying.iter().map(|&item| Action::BuyItem { item }));
            }
            all.push(Action::UseOpportunity {
                seed: Seed(0),
                clockwise: None,
                lose_item: None,
            });
        }
        Step::DrawChance => {}
    }
    let mut choices: Vec<Action> = Vec::new();
    for action in all {
        if !choices.contains(&action)
            && crate::decide(state, Command::new(player, action.clone())).is_ok()
        {
            choices.push(action);
        }
    }
    choices
}

/// Shuffles every face-down deck: a player knows what is in it, not in which order. Each is
/// sorted first, so that the shuffle owes nothing to the order it had.
fn unknown_order(state: &mut State, rng: &mut DiceRng) {
    fn reorder<T: Ord>(rng: &mut DiceRng, cards: &mut [T]) {
        cards.sort_unstable();
        shuffle(rng, cards);
    }
    let decks = &mut state.decks;
    reorder(rng, &mut decks.adventure.draw);
    reorder(rng, &mut decks.chance.draw);
    reorder(rng, &mut decks.common_items.draw);
    reorder(rng, &mut decks.rare_items.draw);
}

/// Plays `state` out with standard bots in every seat, the commands' seeds drawn from `dice`:
/// what it is worth to `player` (1 if she wins, a little for each Certificate otherwise).
fn play_out(
    map: &Map,
    scratch: &mut Scratch,
    state: &mut State,
    player: PlayerId,
    dice: u64,
) -> f32 {
    let mut rng = DiceRng::new(Seed(dice));
    let mut events = Vec::new();
    let (mut turns, mut in_turn) = (0, 0);
    let lost = |state: &State| {
        let certificates = state.adventurer(player).map_or(0, |a| a.certificates.len());
        certificates as f32 * PER_CERTIFICATE
    };
    loop {
        let by = match &state.phase {
            Phase::Playing(turn) => turn.player,
            Phase::Won { winner, .. } if *winner == player => return 1.0,
            _ => return lost(state),
        };
        if turns > HORIZON {
            return lost(state);
        }
        in_turn += 1;
        let seed = Seed(rng.next_u64());
        let action = match super::decide_for(Some(map), scratch, state, by, seed) {
            Some(action) if in_turn <= MAX_COMMANDS_PER_TURN => action,
            _ => Action::EndTurn,
        };
        events.clear();
        if decide_owned(state, Command::new(by, action), &mut events).is_err() {
            events.clear();
            if decide_owned(state, Command::new(by, Action::EndTurn), &mut events).is_err() {
                return lost(state);
            }
        }
        if events.iter().any(|e| matches!(e, Event::TurnEnded { .. })) {
            turns += 1;
            in_turn = 0;
        }
    }
}
