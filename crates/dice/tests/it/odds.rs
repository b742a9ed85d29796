use dice::Probability;
use dice::check_odds::{
    hit_distribution, success_probability, success_probability_f64, success_table,
    success_table_f64,
};

/// An independent computation: enumerate every face of every die, in rolling order, stopping a
/// branch as soon as it reaches the difficulty (more dice cannot undo hits). Each six is a hit,
/// so a branch rolls at most `dice + difficulty − 1` dice and the enumeration is exact, with no
/// depth limit to truncate. Counts are over the common denominator 6^(dice + difficulty − 1).
fn brute_force_success(dice: u32, difficulty: u32) -> Probability {
    fn walk(pending: u32, hits: u32, depth: u32, difficulty: u32, max_depth: u32) -> u128 {
        if hits >= difficulty {
            return 6u128.pow(max_depth - depth);
        }
        if pending == 0 {
            return 0;
        }
        (1..=6u32)
            .map(|face| {
                let pending = pending - 1 + u32::from(face == 6);
                let hits = hits + u32::from(face >= 4);
                walk(pending, hits, depth + 1, difficulty, max_depth)
            })
            .sum()
    }
    let max_depth = dice + difficulty - 1;
    Probability::new(
        walk(dice, 0, 0, difficulty, max_depth),
        6u128.pow(max_depth),
    )
}

#[test]
fn exact_odds_match_brute_force_enumeration() {
    let mut checked = 0;
    for dice in 0..=7u32 {
        for difficulty in 1..=6u32 {
            if dice + difficulty - 1 > 8 {
                continue;
            }
            assert_eq!(
                success_probability(dice, difficulty),
                brute_force_success(dice, difficulty),
                "{dice} dice against {difficulty}"
            );
            checked += 1;
        }
    }
    assert!(checked >= 30, "the grid shrank to {checked} cells");
}

#[test]
fn distribution_matches_brute_force_differences() {
    for dice in 1..=5u32 {
        let dist = hit_distribution(dice, 4);
        for k in 0..4u32 {
            let at_least_k = if k == 0 {
                Probability::one()
            } else {
                brute_force_success(dice, k)
            };
            let expected = &at_least_k - &brute_force_success(dice, k + 1);
            assert_eq!(
                dist.exact[k as usize], expected,
                "P({dice} dice = {k} hits)"
            );
        }
        assert_eq!(dist.tail, brute_force_success(dice, 4));
    }
}

#[test]
fn reference_values() {
    assert_eq!(success_probability(5, 3).to_string(), "691/1152");
    assert_eq!(success_probability(5, 4).to_string(), "2371/6912");
}

#[test]
fn distribution_sums_to_one() {
    // The listed probabilities and the tail add to 1 exactly, and the tail itself vanishes as
    // more values are listed: the sum of the listed values alone tends to 1.
    for dice in [0, 1, 2, 5, 12, 40] {
        let dist = hit_distribution(dice, 8);
        let total: Probability = dist.exact.iter().cloned().sum::<Probability>();
        assert_eq!(&total + &dist.tail, Probability::one());
        let long = hit_distribution(dice, 400);
        let listed: f64 = long.exact.iter().map(Probability::to_f64).sum();
        assert!((listed - 1.0).abs() < 1e-12, "{dice} dice: {listed}");
        assert!(long.tail.to_f64() < 1e-12);
    }
}

#[test]
fn success_falls_with_difficulty_and_rises_with_dice() {
    let table = success_table(60, 20);
    assert!(
        table[0].iter().all(|p| *p == Probability::zero()),
        "no dice never succeed"
    );
    for (n, row) in table.iter().enumerate().skip(1) {
        for d in 1..row.len() {
            assert!(
                row[d] < row[d - 1],
                "{n} dice: difficulty {} not harder than {d}",
                d + 1
            );
        }
        for d in 0..row.len() {
            assert!(
                row[d] > table[n - 1][d],
                "{n} dice not better than {} at {}",
                n - 1,
                d + 1
            );
        }
    }
}

#[test]
fn large_pools_are_exact_and_the_float_path_agrees() {
    for (dice, difficulty) in [(1000, 20), (1000, 1), (250, 20), (100, 5), (3, 20)] {
        let exact = success_probability(dice, difficulty);
        let float = success_probability_f64(dice, difficulty);
        assert!(
            (exact.to_f64() - float).abs() < 1e-13,
            "{dice} vs {difficulty}"
        );
        assert!(exact <= Probability::one() && exact > Probability::zero());
    }
    // 1000 dice against 20 fail only with a vanishing chance, yet the fraction is exact.
    let p = success_probability(1000, 20);
    assert!(p.complement().to_f64() > 0.0 && p.complement().to_f64() < 1e-200);
    // 20 dice against difficulty 20 need a hit on every die or explosions: small but positive.
    let q = success_probability(3, 20);
    assert!(q.to_f64() > 0.0 && q.to_f64() < 1e-10);
}

#[test]
fn float_table_matches_exact_table() {
    let exact = success_table(100, 5);
    let float = success_table_f64(100, 5);
    for n in 0..=100 {
        for d in 0..5 {
            assert!((exact[n][d].to_f64() - float[n][d]).abs() < 1e-14);
        }
    }
}
