//! Whole games between [bots](crate::bot), through [`decide()`](crate::decide()) and
//! [`evolve`] like any other game: [`play_game`] plays one, [`simulate`] many,
//! and sums them up in a [`Report`] (game length, wins by character and by seat, deaths, the
//! cards met).
//!
//! Every seed comes from the one given: a game's seed from the run's, and every command's from
//! the game's (a [`DiceRng`] stream, eight bytes each), so the same seed gives the same report.

use crate::bot::{self, Level, MAX_COMMANDS_PER_TURN};
use crate::command::{Action, Command};
use crate::content::Content;
use crate::decide::decide_owned;
use crate::event::Event;
use crate::ids::PlayerId;
use crate::model::Phase;
use crate::state::{State, evolve};
use dice::{DiceRng, Seed};
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Turns after which a game is stopped and counted as unfinished.
pub const MAX_TURNS: u32 = 2_000;

/// How one game went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameSummary {
    /// It ended (a winner, or everyone dead) within [`MAX_TURNS`].
    pub finished: bool,
    /// Turns played (extra turns included, missed turns not).
    pub turns: u32,
    /// The winner, if any: her seat in turn order (0 for the first player) and her character.
    pub winner: Option<Winner>,
    /// Adventurers who died.
    pub deaths: u32,
    /// The characters dealt, in turn order (the first player first).
    pub characters: Vec<crate::ids::CharacterId>,
    /// How often each Adventure card (by id) was met: a move ended (or she stayed) on it.
    pub adventures_met: Vec<u32>,
    /// How often each Chance card (by id; copies together) was drawn.
    pub chance_drawn: Vec<u32>,
    /// Battles fought, won, drawn and lost.
    pub battles: Battles,
    /// Bot actions the engine refused (0 unless a bot is wrong); each is replaced by ending the
    /// turn.
    pub refusals: u32,
}

/// Who won one game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Winner {
    /// Her place in turn order: 0 for the first player.
    pub seat: usize,
    /// Her character.
    pub character: crate::ids::CharacterId,
    /// The level of the bot that played her.
    pub level: Level,
    /// She won with five Certificates (otherwise as the last survivor).
    pub by_certificates: bool,
}

/// Battle outcomes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Battles {
    /// Battles fought.
    pub fought: u64,
    /// Won.
    pub won: u64,
    /// Drawn.
    pub drawn: u64,
    /// Lost.
    pub lost: u64,
}

impl Battles {
    fn add(&mut self, other: Battles) {
        self.fought += other.fought;
        self.won += other.won;
        self.drawn += other.drawn;
        self.lost += other.lost;
    }
}

/// The next seed of a stream: eight bytes, little-endian.
fn next_seed(rng: &mut DiceRng) -> Seed {
    Seed(rng.next_u64())
}

/// Plays one game of `players` bots (2–5) to the end or to [`MAX_TURNS`].
///
/// # Panics
///
/// If `players` is not 2–5 or `content` has fewer characters (the set-up is refused).
pub fn play_game(content: Arc<Content>, players: usize, seed: u64) -> GameSummary {
    play_game_at(content, &vec![Level::Standard; players], seed)
}

/// [`play_game`] with a bot of each of `levels`, in the order they are seated (before the
/// roll for the first player).
///
/// # Panics
///
/// As [`play_game`], with one level for each bot.
pub fn play_game_at(content: Arc<Content>, levels: &[Level], seed: u64) -> GameSummary {
    let map = bot::Map::new(&content);
    play(content, &map, &mut bot::Scratch::new(), levels, seed)
}

/// [`play_game`] with the bots' map of the board worked out beforehand, and the buffers
/// their decisions work in (kept from game to game).
fn play(
    content: Arc<Content>,
    map: &bot::Map,
    scratch: &mut bot::Scratch,
    levels: &[Level],
    seed: u64,
) -> GameSummary {
    let players = levels.len();
    let level_of = |p: PlayerId| {
        let seat = usize::try_from(p.0).map_or(0, |n| n.saturating_sub(1));
        levels.get(seat).copied().unwrap_or_default()
    };
    let mut rng = DiceRng::new(Seed(seed));
    let adventures = content.adventures.len();
    let chances = content.chance.len();
    let seats: Vec<(PlayerId, String)> = (1..=players)
        .map(|i| (PlayerId::of(i), format!("Bot {i}")))
        .collect();
    let mut state = State::new(content);
    let set_up = Command::new(
        PlayerId::of(1),
        Action::SetUp {
            seats,
            seed: next_seed(&mut rng),
        },
    );
    let events = crate::decide(&state, set_up).expect("a set-up of 2–5 bots is accepted");
    for event in &events {
        state = evolve(state, event);
    }
    let first = state.turn().map_or(PlayerId::of(1), |t| t.player);
    let at = state
        .adventurers
        .iter()
        .position(|a| a.player == first)
        .unwrap_or(0);
    // In turn order: the first player, then on her left.
    let order: Vec<PlayerId> = (0..players)
        .map(|k| state.adventurers[(at + k) % players].player)
        .collect();
    let mut summary = GameSummary {
        finished: false,
        turns: 1,
        winner: None,
        deaths: 0,
        characters: order
            .iter()
            .filter_map(|&p| state.adventurer(p).map(|a| a.character))
            .collect(),
        adventures_met: vec![0; adventures],
        chance_drawn: vec![0; chances],
        battles: Battles::default(),
        refusals: 0,
    };
    let mut in_turn = 0;
    // The events of each command, in one list kept from command to command.
    let mut events = Vec::new();
    loop {
        let turn = match &state.phase {
            Phase::Playing(turn) => *turn,
            Phase::Won { winner, .. } => {
                summary.finished = true;
                let seat = order.iter().position(|p| p == winner).unwrap_or(0);
                let a = state.adventurer(*winner);
                summary.winner = a.map(|a| Winner {
                    seat,
                    character: a.character,
                    level: level_of(*winner),
                    by_certificates: a.certificates.len() >= crate::model::CERTIFICATES_TO_WIN,
                });
                break;
            }
            Phase::Ended { .. } => {
                summary.finished = true;
                break;
            }
            Phase::NotSetUp => break,
        };
        if summary.turns > MAX_TURNS {
            summary.turns = MAX_TURNS;
            break;
        }
        let seed = next_seed(&mut rng);
        let by = turn.player;
        in_turn += 1;
        let action = match bot::choose_at(level_of(by), Some(map), scratch, &state, by, seed) {
            Some(action) if in_turn <= MAX_COMMANDS_PER_TURN => action,
            _ => Action::EndTurn,
        };
        // The events are applied to the state in place (it is unchanged if refused): no copy
        // of it shares its parts, so applying them copies nothing.
        events.clear();
        if decide_owned(&mut state, Command::new(by, action), &mut events).is_err() {
            summary.refusals += 1;
            // Not even ending the turn (a Creature to fight): give up on the game.
            if decide_owned(&mut state, Command::new(by, Action::EndTurn), &mut events).is_err() {
                break;
            }
        }
        for event in &events {
            if let Event::TurnEnded { .. } = event {
                summary.turns += 1;
                in_turn = 0;
            }
            record(&mut summary, &state, event);
        }
    }
    summary
}

/// Counts what `event` shows; `after` is the state after the decision's events. Only `Moved`
/// needs it, for the Adventure card where she arrives: a move is decided alone, and moving
/// changes no space's cards, so it lies there after the move as before.
fn record(summary: &mut GameSummary, after: &State, event: &Event) {
    match event {
        Event::Moved { to, .. } => {
            if let Some(card) = after.space(*to).and_then(|s| s.adventure)
                && let Some(n) = summary.adventures_met.get_mut(card.index())
            {
                *n += 1;
            }
        }
        Event::ChanceDrawn { card, .. } => {
            if let Some(n) = summary.chance_drawn.get_mut(card.index()) {
                *n += 1;
            }
        }
        Event::BattleFought { outcome, .. } => {
            let b = &mut summary.battles;
            b.fought += 1;
            match outcome {
                dice::opposed::BattleOutcome::Win => b.won += 1,
                dice::opposed::BattleOutcome::Draw => b.drawn += 1,
                dice::opposed::BattleOutcome::Loss => b.lost += 1,
            }
        }
        Event::AdventurerDied { .. } => summary.deaths += 1,
        _ => {}
    }
}

/// Many games summed up. Turns are counted over the finished games.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// Games played.
    pub games: u64,
    /// Players in each.
    pub players: usize,
    /// Games that ended within [`MAX_TURNS`].
    pub finished: u64,
    /// Games stopped at [`MAX_TURNS`].
    pub unfinished: u64,
    /// Turns per finished game.
    pub turns: Turns,
    /// Wins by character name.
    pub wins_by_character: BTreeMap<String, u64>,
    /// Games each character was dealt in (for win rates).
    pub games_by_character: BTreeMap<String, u64>,
    /// Wins by seat in turn order: the first player first.
    pub wins_by_seat: Vec<u64>,
    /// The bots' levels, in the order they are seated (before the roll for the first player).
    pub levels: Vec<Level>,
    /// Wins by the bots of each level, summed.
    pub wins_by_level: BTreeMap<Level, u64>,
    /// Wins with five Certificates.
    pub wins_by_certificates: u64,
    /// Wins as the last adventurer alive.
    pub wins_by_survival: u64,
    /// Adventurers who died, in all games.
    pub deaths: u64,
    /// Games that ended with every adventurer dead.
    pub no_winner: u64,
    /// Battles fought and how they ended.
    pub battles: Battles,
    /// How often each Adventure card was met (a move ended, or she stayed, on it), by name.
    pub adventures_met: BTreeMap<String, u64>,
    /// How often each Chance card was drawn, by name (copies together).
    pub chance_drawn: BTreeMap<String, u64>,
    /// Bot actions the engine refused (0 unless a bot is wrong).
    pub refusals: u64,
}

/// Game length in turns.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Turns {
    /// The mean.
    pub mean: f64,
    /// The median.
    pub median: u32,
    /// The 90th percentile: nine games in ten are this long or shorter.
    pub p90: u32,
}

/// Plays `games` games of `players` bots (2–5), the seed of each drawn from `seed`, calling
/// `progress` with the number of games played after each one.
///
/// # Panics
///
/// As [`play_game`].
pub fn simulate(
    content: Arc<Content>,
    games: u64,
    players: usize,
    seed: u64,
    progress: impl FnMut(u64),
) -> Report {
    simulate_at(
        content,
        games,
        &vec![Level::Standard; players],
        seed,
        progress,
    )
}

/// [`simulate`] with a bot of each of `levels`, in the order they are seated.
///
/// # Panics
///
/// As [`play_game`], with one level for each bot.
pub fn simulate_at(
    content: Arc<Content>,
    games: u64,
    levels: &[Level],
    seed: u64,
    mut progress: impl FnMut(u64),
) -> Report {
    let players = levels.len();
    let mut rng = DiceRng::new(Seed(seed));
    let map = bot::Map::new(&content);
    let mut scratch = bot::Scratch::new();
    let characters = content.characters.len();
    let mut wins_by_character = vec![0u64; characters];
    let mut games_by_character = vec![0u64; characters];
    let mut adventures_met = vec![0u64; content.adventures.len()];
    let mut chance_drawn = vec![0u64; content.chance.len()];
    // Turns of finished games: a histogram, so that the median costs no memory per game.
    let mut lengths = vec![0u64; MAX_TURNS as usize + 1];
    let mut report = Report {
        games,
        players,
        finished: 0,
        unfinished: 0,
        turns: Turns::default(),
        wins_by_character: BTreeMap::new(),
        games_by_character: BTreeMap::new(),
        wins_by_seat: vec![0; players],
        levels: levels.to_vec(),
        wins_by_level: levels.iter().map(|&l| (l, 0)).collect(),
        wins_by_certificates: 0,
        wins_by_survival: 0,
        deaths: 0,
        no_winner: 0,
        battles: Battles::default(),
        adventures_met: BTreeMap::new(),
        chance_drawn: BTreeMap::new(),
        refusals: 0,
    };
    let mut total_turns = 0u64;
    for game in 0..games {
        let summary = play(
            Arc::clone(&content),
            &map,
            &mut scratch,
            levels,
            next_seed(&mut rng).0,
        );
        if summary.finished {
            report.finished += 1;
            total_turns += u64::from(summary.turns);
            lengths[(summary.turns as usize).min(MAX_TURNS as usize)] += 1;
        } else {
            report.unfinished += 1;
        }
        for c in &summary.characters {
            if let Some(n) = games_by_character.get_mut(c.index()) {
                *n += 1;
            }
        }
        match summary.winner {
            Some(w) => {
                if let Some(n) = wins_by_character.get_mut(w.character.index()) {
                    *n += 1;
                }
                if let Some(n) = report.wins_by_seat.get_mut(w.seat) {
                    *n += 1;
                }
                *report.wins_by_level.entry(w.level).or_default() += 1;
                if w.by_certificates {
                    report.wins_by_certificates += 1;
                } else {
                    report.wins_by_survival += 1;
                }
            }
            None if summary.finished => report.no_winner += 1,
            None => {}
        }
        report.deaths += u64::from(summary.deaths);
        report.battles.add(summary.battles);
        report.refusals += u64::from(summary.refusals);
        for (total, n) in adventures_met.iter_mut().zip(&summary.adventures_met) {
            *total += u64::from(*n);
        }
        for (total, n) in chance_drawn.iter_mut().zip(&summary.chance_drawn) {
            *total += u64::from(*n);
        }
        progress(game + 1);
    }
    if report.finished > 0 {
        report.turns = Turns {
            mean: total_turns as f64 / report.finished as f64,
            median: quantile(&lengths, report.finished, 0.5),
            p90: quantile(&lengths, report.finished, 0.9),
        };
    }
    for (i, c) in content.characters.iter().enumerate() {
        report
            .wins_by_character
            .insert(c.name.clone(), wins_by_character[i]);
        report
            .games_by_character
            .insert(c.name.clone(), games_by_character[i]);
    }
    for (i, card) in content.adventures.iter().enumerate() {
        report
            .adventures_met
            .insert(card.name().to_owned(), adventures_met[i]);
    }
    for (i, card) in content.chance.iter().enumerate() {
        report
            .chance_drawn
            .insert(card.name.clone(), chance_drawn[i]);
    }
    report
}

/// The smallest length with at least `q` of the `count` games at or below it.
fn quantile(lengths: &[u64], count: u64, q: f64) -> u32 {
    let wanted = ((count as f64 * q).ceil() as u64).max(1);
    let mut seen = 0;
    for (turns, &n) in lengths.iter().enumerate() {
        seen += n;
        if seen >= wanted {
            return turns as u32;
        }
    }
    MAX_TURNS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_of_a_histogram() {
        let mut lengths = vec![0u64; 10];
        lengths[3] = 5;
        lengths[7] = 4;
        lengths[9] = 1;
        assert_eq!(quantile(&lengths, 10, 0.5), 3);
        assert_eq!(quantile(&lengths, 10, 0.9), 7);
        assert_eq!(quantile(&lengths, 10, 1.0), 9);
    }
}
