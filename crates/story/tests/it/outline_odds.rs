//! Outline odds against brute-force enumeration of every combination of outcomes.

use dice::check::Outcome::{self, Failure, Success};
use dice::check_odds::success_probability;
use dice::{DiceRng, Probability, Seed};
use std::collections::HashMap;
use story::Ruleset;
use story::outline_odds::{
    EvenFinale, MAX_PAIRS, OutlineError, PlannedScene, outline_odds, outline_odds_f64,
    pairs_for_even_finale,
};

fn scene(parent: Option<usize>, pairs: u32) -> PlannedScene {
    PlannedScene {
        parent,
        pairs,
        outcome: None,
    }
}

fn done(parent: Option<usize>, pairs: u32, outcome: Outcome) -> PlannedScene {
    PlannedScene {
        parent,
        pairs,
        outcome: Some(outcome),
    }
}

/// The seeds' example outline (Finale, three primaries, …), 8 scenes, with pairs.
fn seeds_outline() -> Vec<PlannedScene> {
    vec![
        scene(None, 3),    // 0 Finale (4)
        scene(Some(0), 2), // 1 Primary 1 (3)
        scene(Some(0), 2), // 2 Primary 2 (3)
        scene(Some(0), 3), // 3 Primary 3 (3)
        scene(Some(2), 1), // 4 Secondary 2.1 (2)
        scene(Some(2), 2), // 5 Secondary 2.2 (2)
        scene(Some(3), 2), // 6 Secondary 3.1 (2)
        scene(Some(5), 1), // 7 Tertiary 2.2.1 (1)
    ]
}

/// An independent computation: every combination of outcomes of the scenes other than the
/// Finale, each weighted by the product over those scenes of P(that outcome | the outcomes of its
/// precursors in the combination), P(success) for `pairs + successful precursors` dice coming
/// from the dice crate. A performed scene has its recorded outcome with probability 1.
fn brute_force(ruleset: Ruleset, scenes: &[PlannedScene]) -> Vec<Probability> {
    let n = scenes.len();
    let depth = |mut i: usize| {
        let mut d = 0;
        while let Some(p) = scenes[i].parent {
            i = p;
            d += 1;
        }
        d
    };
    let difficulty: Vec<u32> = (0..n)
        .map(|i| {
            ruleset
                .difficulty_at_depth(depth(i))
                .expect("a valid test tree")
        })
        .collect();
    let finale = scenes.iter().position(|s| s.parent.is_none()).unwrap();
    let others: Vec<usize> = (0..n).filter(|&i| i != finale).collect();
    assert!(others.len() <= 8, "too many scenes to enumerate");
    let mut cache: HashMap<(u32, u32), Probability> = HashMap::new();
    let mut check = |dice: u32, d: u32| {
        cache
            .entry((dice, d))
            .or_insert_with(|| success_probability(dice, d))
            .clone()
    };
    // P(scene succeeds | its precursors' outcomes in `won`).
    let mut p_given = |i: usize, won: &[bool]| match scenes[i].outcome {
        Some(Success) => Probability::one(),
        Some(Failure) => Probability::zero(),
        None => {
            let rewards = (0..n)
                .filter(|&c| scenes[c].parent == Some(i) && won[c])
                .count() as u32;
            check(scenes[i].pairs + rewards, difficulty[i])
        }
    };
    let mut total = vec![Probability::zero(); n];
    for mask in 0u32..(1 << others.len()) {
        let mut won = vec![false; n];
        for (bit, &i) in others.iter().enumerate() {
            won[i] = mask & (1 << bit) != 0;
        }
        let mut weight = Probability::one();
        for &i in &others {
            let p = p_given(i, &won);
            weight = &weight * &if won[i] { p } else { p.complement() };
        }
        for &i in &others {
            if won[i] {
                total[i] = &total[i] + &weight;
            }
        }
        let finale_wins = p_given(finale, &won);
        total[finale] = &total[finale] + &(&weight * &finale_wins);
    }
    total
}

/// The engine's exact odds equal brute force, and its f64 odds agree within 1e-12.
fn check(ruleset: Ruleset, scenes: &[PlannedScene]) {
    let exact = outline_odds(ruleset, scenes).expect("a valid test tree");
    let expected = brute_force(ruleset, scenes);
    let float = outline_odds_f64(ruleset, scenes).unwrap();
    for i in 0..scenes.len() {
        assert_eq!(
            exact[i].p_success, expected[i],
            "scene {i} of {scenes:?} under {ruleset}"
        );
        let error = (float[i] - expected[i].to_f64()).abs();
        assert!(error < 1e-12, "scene {i}: f64 off by {error}");
    }
}

fn finale_exact(ruleset: Ruleset, scenes: &[PlannedScene]) -> Probability {
    let finale = scenes.iter().position(|s| s.parent.is_none()).unwrap();
    outline_odds(ruleset, scenes).unwrap()[finale]
        .p_success
        .clone()
}

#[test]
fn a_lone_finale_is_one_check() {
    let odds = outline_odds(Ruleset::Edition10, &[scene(None, 5)]).unwrap();
    assert_eq!(odds[0].p_success.to_string(), "2371/6912");
    assert_eq!((odds[0].depth, odds[0].difficulty), (0, 4));
    let odds = outline_odds(Ruleset::Edition11, &[scene(None, 5)]).unwrap();
    assert_eq!(odds[0].difficulty, 5);
    assert_eq!(odds[0].p_success, success_probability(5, 5));
    for ruleset in Ruleset::ALL {
        check(ruleset, &[scene(None, 0)]);
        check(ruleset, &[scene(None, 7)]);
    }
}

#[test]
fn finale_with_three_primaries() {
    let scenes = [
        scene(None, 2),
        scene(Some(0), 3),
        scene(Some(0), 1),
        scene(Some(0), 4),
    ];
    for ruleset in Ruleset::ALL {
        check(ruleset, &scenes);
    }
    let odds = outline_odds(Ruleset::Edition10, &scenes).unwrap();
    assert_eq!(
        odds.iter().map(|o| o.difficulty).collect::<Vec<_>>(),
        [4, 3, 3, 3]
    );
}

#[test]
fn chains_down_to_the_deepest_level() {
    for ruleset in Ruleset::ALL {
        let levels = ruleset.max_depth() as usize + 1;
        let chain: Vec<PlannedScene> = (0..levels)
            .map(|i| scene(i.checked_sub(1), 1 + i as u32 % 3))
            .collect();
        check(ruleset, &chain);
        let difficulties: Vec<u32> = outline_odds(ruleset, &chain)
            .unwrap()
            .iter()
            .map(|o| o.difficulty)
            .collect();
        let expected: Vec<u32> = (1..=ruleset.finale_difficulty()).rev().collect();
        assert_eq!(difficulties, expected, "{ruleset}");
    }
}

#[test]
fn known_outcomes_fix_a_scene_and_feed_its_parent() {
    // A performed scene is certain whatever its precursors.
    let scenes = [
        scene(None, 2),
        done(Some(0), 0, Success),
        scene(Some(1), 5),
        done(Some(0), 9, Failure),
        scene(Some(3), 2),
    ];
    let odds = outline_odds(Ruleset::Edition10, &scenes).unwrap();
    assert_eq!(odds[1].p_success, Probability::one());
    assert_eq!(odds[3].p_success, Probability::zero());
    // One sure reward die, one sure miss: the Finale rolls 2 + 1 dice.
    assert_eq!(odds[0].p_success, success_probability(3, 4));
    // The precursors below still have their planned odds.
    assert_eq!(odds[2].p_success, success_probability(5, 2));
    check(Ruleset::Edition10, &scenes);
    check(Ruleset::Edition11, &scenes);

    // A performed Finale.
    let scenes = [done(None, 0, Failure), scene(Some(0), 3)];
    assert_eq!(
        finale_exact(Ruleset::Edition10, &scenes),
        Probability::zero()
    );
    check(Ruleset::Edition10, &scenes);
}

#[test]
fn many_successful_precursors_are_many_reward_dice() {
    let mut scenes = vec![scene(None, 1)];
    scenes.extend((0..40).map(|_| done(Some(0), 0, Success)));
    scenes.extend((0..40).map(|_| done(Some(0), 0, Failure)));
    assert_eq!(
        finale_exact(Ruleset::Edition11, &scenes),
        success_probability(41, 5)
    );
}

#[test]
fn the_seeds_example_outline() {
    let scenes = seeds_outline();
    check(Ruleset::Edition10, &scenes);
    check(Ruleset::Temporal, &scenes);
    check(Ruleset::Edition11, &scenes);
    // Three pairs and at most three reward dice against 4: a long shot as planned.
    let finale = finale_exact(Ruleset::Edition10, &scenes);
    expect_test::expect!["0.1514"].assert_eq(&format!("{:.4}", finale.to_f64()));
}

/// A small random outline: up to seven scenes, parents anywhere in the list (not only before
/// their precursors), some already performed.
fn random_outline(rng: &mut DiceRng, ruleset: Ruleset) -> Vec<PlannedScene> {
    // 0..n, uniformly (a die needs two sides at least).
    let mut pick = |n: usize| match n {
        0 | 1 => 0,
        _ => (rng.face(n as u8) - 1) as usize,
    };
    let n = 1 + pick(7);
    let max = ruleset.max_depth();
    let mut parent = vec![None; n];
    let mut depth = vec![0u32; n];
    for i in 1..n {
        let candidates: Vec<usize> = (0..i).filter(|&p| depth[p] < max).collect();
        let p = candidates[pick(candidates.len())];
        parent[i] = Some(p);
        depth[i] = depth[p] + 1;
    }
    // Shuffle the positions so the Finale and parents land anywhere.
    let mut position: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        position.swap(i, pick(i + 1));
    }
    let mut scenes = vec![scene(None, 0); n];
    for i in 0..n {
        scenes[position[i]] = PlannedScene {
            parent: parent[i].map(|p| position[p]),
            pairs: pick(6) as u32,
            outcome: match pick(6) {
                0 => Some(Success),
                1 => Some(Failure),
                _ => None,
            },
        };
    }
    scenes
}

#[test]
fn random_outlines_match_brute_force() {
    let mut rng = DiceRng::new(Seed(2024));
    let mut deepest = 0;
    for round in 0..300 {
        let ruleset = Ruleset::ALL[round % 3];
        let scenes = random_outline(&mut rng, ruleset);
        check(ruleset, &scenes);
        let odds = outline_odds(ruleset, &scenes).unwrap();
        deepest = deepest.max(odds.iter().map(|o| o.depth).max().unwrap());
    }
    assert_eq!(deepest, 4, "the random trees reach 1.1's deepest level");
}

/// The Finale's exact odds when every scene plans `k` pairs.
fn finale_with_pairs(ruleset: Ruleset, scenes: &[PlannedScene], k: u32) -> Probability {
    let planned: Vec<PlannedScene> = scenes
        .iter()
        .map(|s| PlannedScene { pairs: k, ..*s })
        .collect();
    finale_exact(ruleset, &planned)
}

#[test]
fn pairs_for_an_even_finale_is_the_fewest() {
    let half = Probability::new(1, 2);
    let mut rng = DiceRng::new(Seed(7));
    let mut outlines = vec![
        (Ruleset::Edition10, seeds_outline()),
        (Ruleset::Edition11, seeds_outline()),
        (Ruleset::Edition10, vec![scene(None, 0)]),
    ];
    for round in 0..30 {
        let ruleset = Ruleset::ALL[round % 3];
        outlines.push((ruleset, random_outline(&mut rng, ruleset)));
    }
    let mut seen = Vec::new();
    for (ruleset, scenes) in outlines {
        match pairs_for_even_finale(ruleset, &scenes).unwrap() {
            EvenFinale::Pairs(k) => {
                assert!(finale_with_pairs(ruleset, &scenes, k) >= half, "{scenes:?}");
                if k > 0 {
                    assert!(
                        finale_with_pairs(ruleset, &scenes, k - 1) < half,
                        "{scenes:?}"
                    );
                }
                seen.push(k);
            }
            EvenFinale::Performed(outcome) => {
                let finale = scenes.iter().find(|s| s.parent.is_none()).unwrap();
                assert_eq!(finale.outcome, Some(outcome));
            }
            EvenFinale::Beyond(_) => panic!("the Finale's own pairs always suffice"),
        }
    }
    // A lone Finale of difficulty 4 needs 7 dice (6 give 49.3%).
    assert_eq!(seen[2], 7);
    assert!(seen.iter().any(|&k| k != seen[0]), "{seen:?}");
}

#[test]
fn pairs_for_an_even_finale_counts_only_scenes_not_yet_performed() {
    // Four sure reward dice already: 3 pairs more give the 7 dice that difficulty 4 needs.
    let mut scenes = vec![scene(None, 0)];
    scenes.extend((0..4).map(|_| done(Some(0), 0, Success)));
    assert_eq!(
        pairs_for_even_finale(Ruleset::Edition10, &scenes),
        Ok(EvenFinale::Pairs(3))
    );
    scenes.extend((0..3).map(|_| done(Some(0), 0, Success)));
    assert_eq!(
        pairs_for_even_finale(Ruleset::Edition10, &scenes),
        Ok(EvenFinale::Pairs(0))
    );
    assert_eq!(
        pairs_for_even_finale(Ruleset::Edition10, &[done(None, 1, Success)]),
        Ok(EvenFinale::Performed(Success))
    );
}

#[test]
fn what_is_not_an_outline() {
    let check = |scenes: &[PlannedScene], expected: OutlineError| {
        assert_eq!(
            outline_odds(Ruleset::Edition10, scenes).unwrap_err(),
            expected
        );
        assert_eq!(
            outline_odds_f64(Ruleset::Edition10, scenes).unwrap_err(),
            expected
        );
        assert_eq!(
            pairs_for_even_finale(Ruleset::Edition10, scenes).unwrap_err(),
            expected
        );
    };
    check(&[], OutlineError::NoFinale);
    check(
        &[scene(Some(1), 1), scene(Some(0), 1)],
        OutlineError::NoFinale,
    );
    check(
        &[scene(Some(1), 1), scene(None, 1), scene(None, 1)],
        OutlineError::SeveralFinales {
            first: 1,
            second: 2,
        },
    );
    check(
        &[scene(None, 1), scene(Some(5), 1)],
        OutlineError::UnknownParent {
            scene: 1,
            parent: 5,
        },
    );
    check(
        &[scene(None, 1), scene(Some(1), 1)],
        OutlineError::Cycle { scenes: vec![1] },
    );
    // 0 ← 1 is fine; 4 → 3 → 2 → 4 loops, and 5 hangs off the loop.
    check(
        &[
            scene(None, 1),
            scene(Some(0), 1),
            scene(Some(4), 1),
            scene(Some(2), 1),
            scene(Some(3), 1),
            scene(Some(3), 1),
        ],
        OutlineError::Cycle {
            scenes: vec![2, 4, 3],
        },
    );
    let chain: Vec<PlannedScene> = (0..5usize).map(|i| scene(i.checked_sub(1), 1)).collect();
    check(
        &chain,
        OutlineError::TooDeep {
            scene: 4,
            depth: 4,
            max: 3,
        },
    );
    assert!(outline_odds(Ruleset::Edition11, &chain).is_ok());
    check(
        &[scene(None, 1), scene(Some(0), MAX_PAIRS + 1)],
        OutlineError::TooManyPairs {
            scene: 1,
            pairs: MAX_PAIRS + 1,
        },
    );
    assert!(outline_odds(Ruleset::Edition10, &[scene(None, MAX_PAIRS)]).is_ok());
}

#[test]
fn errors_read_as_plain_words() {
    let shown = [
        OutlineError::NoFinale,
        OutlineError::Cycle {
            scenes: vec![2, 4, 3],
        },
        OutlineError::TooDeep {
            scene: 4,
            depth: 4,
            max: 3,
        },
    ]
    .map(|e| e.to_string());
    expect_test::expect![[r#"
        [
            "no Finale: exactly one scene must have no parent",
            "the parents of scenes 2, 4, 3 form a cycle instead of leading to the Finale",
            "scene 4 is 4 levels below the Finale; a scene may be at most 3 levels below it",
        ]
    "#]]
    .assert_debug_eq(&shown);
}
