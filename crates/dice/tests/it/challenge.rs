use dice::Probability;
use dice::challenge::{Band, ChallengeOdds, Column, Pool, Situation};

/// One row of the seed's Math tables: the dice, then the four columns as written there
/// ("5 in 9 (56%)", or "0").
fn check(situation: Situation, steps: u32, dice: &str, cells: [&str; 4]) {
    let odds = ChallengeOdds::new(situation, steps);
    assert_eq!(odds.pool.to_string(), dice);
    for (column, cell) in Column::ALL.into_iter().zip(cells) {
        let p = odds.column(column);
        let (fraction, percent) = match cell.split_once(" (") {
            Some((f, pc)) => (f, Some(pc.trim_end_matches(')').trim_end_matches('%'))),
            None => (cell, None),
        };
        let fraction = fraction.trim();
        let expected = match fraction.split_once(" in ") {
            Some((n, d)) => Probability::new(n.parse::<u32>().unwrap(), d.parse::<u32>().unwrap()),
            None => Probability::new(fraction.parse::<u32>().unwrap(), 1),
        };
        assert_eq!(p, expected, "{situation} {dice}: {column}");
        if let Some(percent) = percent {
            let shown = (p.to_f64() * 100.0).round() as u32;
            assert_eq!(
                shown.to_string(),
                percent,
                "{situation} {dice}: {column} as a percentage"
            );
        }
    }
}

#[test]
fn bad_situation_table() {
    let s = Situation::Difficult;
    check(s, 0, "roll 2 take lowest", ["3 in 4", "1 in 4", "0", "0"]);
    check(s, 1, "roll 1", ["1 in 2", "1 in 2", "0", "0"]);
    check(s, 2, "roll 2 take highest", ["1 in 4", "3 in 4", "0", "0"]);
}

#[test]
fn average_situation_table() {
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
fn favourable_situation_table() {
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

#[test]
fn more_steps_keep_the_highest_of_more_dice() {
    assert_eq!(Pool::for_steps(4).to_string(), "roll 4 take highest");
    // d8, keep the highest of 3: P(result ≤ 6) = (6/8)^3 = 27/64, so 7–8 has 37/64.
    let odds = ChallengeOdds::new(Situation::Favourable, 3);
    assert_eq!(odds.band(Band::SuccessWithBenefit).to_string(), "37/64");
    // A d6 one-die roll: results 1 and 2 are separate bands of 1/6 each.
    let one = ChallengeOdds::new(Situation::Average, 1);
    assert_eq!(one.band(Band::FailureWithConsequence).to_string(), "1/6");
    assert_eq!(one.band(Band::Failure).to_string(), "1/6");
}
