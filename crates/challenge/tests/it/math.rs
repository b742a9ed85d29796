//! The seed's *Math* tables, every row, from characters and choices through the engine: each way
//! of reaching 0, 1 or 2 steps gives the row's dice and exactly its four columns.

use crate::*;
use dice::Probability;
use dice::challenge::{ChallengeOdds, Column};

/// Ways a character reaches a number of steps: (steps, relevant Skills of the Challenge,
/// choice). Mira holds Surroundings and Might, not Animals, and has the Specialty "horses".
fn ways() -> Vec<(u32, &'static str, Vec<Skill>, Choice)> {
    let horses = Choice::specialty(Skill::Animals, "horses");
    let horses_and_point = Choice {
        aptitude_points: 1,
        ..horses.clone()
    };
    vec![
        (0, "nothing", vec![Skill::Animals], Choice::none()),
        (0, "no relevant Skill", vec![], Choice::none()),
        (1, "a Skill", vec![Skill::Surroundings], Choice::none()),
        (1, "a Specialty", vec![Skill::Animals], horses),
        (1, "a point", vec![Skill::Details], Choice::point()),
        (
            2,
            "two Skills",
            vec![Skill::Surroundings, Skill::Might],
            Choice::none(),
        ),
        (
            2,
            "a Skill and a point",
            vec![Skill::Surroundings],
            Choice::point(),
        ),
        (
            2,
            "a Specialty and a point",
            vec![Skill::Animals],
            horses_and_point,
        ),
    ]
}

/// One row of a Math table: the dice as the seed writes them, then the four columns ("5 in 9
/// (56%)", or "0"), checked for every way of reaching `steps`.
fn check(situation: Situation, steps: u32, dice: &str, cells: [&str; 4]) {
    for (_, how, skills, choice) in ways().into_iter().filter(|w| w.0 == steps) {
        let mut t = Table::seated();
        let c = t.call(CharacterId(0), situation, Aptitude::Awareness, &skills);
        let plan = t.state.plan(c, &choice).unwrap();
        assert_eq!(plan.steps, steps, "{how}");
        let odds = t.state.odds_of(c, &choice).unwrap();
        assert_eq!(odds.pool.to_string(), dice, "{situation} with {how}");
        for (column, cell) in Column::ALL.into_iter().zip(cells) {
            let (fraction, percent) = match cell.split_once(" (") {
                Some((f, p)) => (f.trim(), Some(p.trim_end_matches("%)"))),
                None => (cell, None),
            };
            let expected = match fraction.split_once(" in ") {
                Some((n, d)) => {
                    Probability::new(n.parse::<u32>().unwrap(), d.parse::<u32>().unwrap())
                }
                None => Probability::new(fraction.parse::<u32>().unwrap(), 1),
            };
            let p = odds.column(column);
            assert_eq!(p, expected, "{situation} {dice} with {how}: {column}");
            if let Some(percent) = percent {
                let shown = (p.to_f64() * 100.0).round() as u32;
                assert_eq!(
                    shown.to_string(),
                    percent,
                    "{situation} {dice}: {column} in %"
                );
            }
        }
    }
}

#[test]
fn bad_situation() {
    let s = Situation::Difficult;
    check(s, 0, "roll 2 take lowest", ["3 in 4", "1 in 4", "0", "0"]);
    check(s, 1, "roll 1", ["1 in 2", "1 in 2", "0", "0"]);
    check(s, 2, "roll 2 take highest", ["1 in 4", "3 in 4", "0", "0"]);
}

#[test]
fn average_situation() {
    let s = Situation::Average;
    check(
        s,
        0,
        "roll 2 take lowest",
        ["5 in 9 (56%)", "1 in 3 (33%)", "1 in 9 (11%)", "0"],
    );
    check(
        s,
        1,
        "roll 1",
        ["1 in 3 (33%)", "1 in 3 (33%)", "1 in 3 (33%)", "0"],
    );
    check(
        s,
        2,
        "roll 2 take highest",
        ["1 in 9 (11%)", "1 in 3 (33%)", "5 in 9  (56%)", "0"],
    );
}

#[test]
fn favourable_situation() {
    let s = Situation::Favourable;
    check(
        s,
        0,
        "roll 2 take lowest",
        [
            "7 in 16 (44%)",
            "5 in 16 (31%)",
            "3 in 16 (19%)",
            "1 in 16 (6%)",
        ],
    );
    check(
        s,
        1,
        "roll 1",
        [
            "1 in 4  (25%)",
            "1 in 4  (25%)",
            "1 in 4  (25%)",
            "1 in 4  (25%)",
        ],
    );
    check(
        s,
        2,
        "roll 2 take highest",
        [
            "1 in 16 (6%)",
            "3 in 16 (19%)",
            "5 in 16 (31%)",
            "7 in 16 (44%)",
        ],
    );
}

/// Beyond the tables: with a special rule, each step beyond two is one more die, keep the
/// highest ("if you could, you would roll an increasing number of dice, taking the higher").
#[test]
fn more_than_two_steps() {
    let mut t = Table::seated();
    let mut action = call(
        CharacterId(0),
        Situation::Favourable,
        Aptitude::Awareness,
        &[Skill::Surroundings, Skill::Might],
    );
    if let Action::CallChallenge { allow_steps, .. } = &mut action {
        *allow_steps = Some(3);
    }
    t.act(GM, action);
    let odds = t.state.odds_of(ChallengeId(0), &Choice::point()).unwrap();
    assert_eq!(odds.pool.to_string(), "roll 3 take highest");
    assert_eq!(odds, ChallengeOdds::new(Situation::Favourable, 3));
    // P(7–8) = 1 − (6/8)³ = 37/64.
    assert_eq!(odds.column(Column::GreatSuccess).to_string(), "37/64");
}
