use crate::{json, ok};
use expect_test::expect;

#[test]
fn the_default_table() {
    expect![[r#"
        P(success) by dice in the pool and difficulty rating
        dice   diff 1   diff 2   diff 3   diff 4   diff 5
           1    50.0%     8.3%     1.4%     0.2%    <0.1%
           2    75.0%    33.3%     9.0%     2.1%     0.4%
           3    87.5%    56.2%    25.0%     8.2%     2.3%
           4    93.8%    72.9%    43.4%    19.7%     7.2%
           5    96.9%    83.9%    60.0%    34.3%    15.9%
           6    98.4%    90.6%    73.0%    49.3%    27.6%
           7    99.2%    94.7%    82.5%    62.8%    40.7%
           8    99.6%    97.0%    89.0%    73.7%    53.6%
           9    99.8%    98.3%    93.2%    82.1%    65.0%
          10    99.9%    99.1%    95.9%    88.1%    74.5%
          11   >99.9%    99.5%    97.6%    92.3%    82.0%
          12   >99.9%    99.7%    98.6%    95.1%    87.6%
    "#]]
    .assert_eq(&ok("odds"));
}

#[test]
fn one_value_exact_and_float() {
    let v = json("odds --dice 5 --difficulty 3");
    assert_eq!(v["exact"], "691/1152");
    assert_eq!(
        (v["dice"].as_u64(), v["difficulty"].as_u64()),
        (Some(5), Some(3))
    );
    assert!((v["p_success"].as_f64().unwrap() - 691.0 / 1152.0).abs() < 1e-15);
    assert_eq!(json("odds --dice 5 --difficulty 4")["exact"], "2371/6912");
    assert_eq!(
        ok("odds --dice 5 --difficulty 4"),
        "P(5 dice score at least 4 hits) = 34.3% = 2371/6912\n"
    );
    // The far corner of the range is exact too.
    let far = json("odds --dice 1000 --difficulty 20");
    let exact = far["exact"].as_str().unwrap();
    assert!(
        exact.len() > 300,
        "an exact fraction of large integers: {exact}"
    );
    assert_eq!(far["p_success"].as_f64(), Some(1.0));
}

#[test]
fn a_pool_s_distribution_and_a_difficulty_s_column() {
    let v = json("odds --dice 1");
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows[0]["exact"], "1/2");
    assert_eq!(rows[1]["exact"], "5/12");
    assert_eq!(rows[2]["exact_at_least"], "1/12");
    let column = ok("odds --difficulty 4 --max-dice 8");
    assert!(
        column.ends_with("At least 7 dice give an even chance or better.\n"),
        "{column}"
    );
}

#[test]
fn the_table_in_json_matches_single_values() {
    let table = json("odds --max-dice 6 --max-difficulty 3");
    let row5 = &table["rows"][4];
    assert_eq!(row5["dice"].as_u64(), Some(5));
    let p = row5["p_success"][2].as_f64().unwrap();
    let single = json("odds --dice 5 --difficulty 3")["p_success"]
        .as_f64()
        .unwrap();
    assert!((p - single).abs() < 1e-15);
}

#[test]
fn challenge_odds_reproduce_the_math_table() {
    let v = json("challenge odds --die d8 --steps 0");
    let cells: Vec<&str> = v["table"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["exact"].as_str().unwrap())
        .collect();
    assert_eq!(cells, ["7/16", "5/16", "3/16", "1/16"]);
    expect![[r#"
        d6, 2 steps of improvement: roll 2 take highest
        result  chance           band
             1  1/36 (2.8%)      failure with a further consequence
             2  1/12 (8.3%)      failure
             3  5/36 (13.9%)     partial success
             4  7/36 (19.4%)     partial success
             5  1/4 (25.0%)      success
             6  11/36 (30.6%)    success
             7  0                success with a long-term benefit
             8  0                success with a long-term benefit
        As in the rules' Math tables:
          Failure          1/9 (11.1%)
          Partial success  1/3 (33.3%)
          Success          5/9 (55.6%)
          Great success    0
    "#]]
    .assert_eq(&ok("challenge odds --die d6 --steps 2"));
}

#[test]
fn battle_odds() {
    let v = json("battle odds --yours 2 --theirs 2");
    assert_eq!(v["exact"]["win"], "5/12");
    assert_eq!(v["exact"]["draw"], "1/6");
    let three = json("battle odds --yours 2 --theirs 2 --three-lives");
    assert_eq!(three["exact"]["win"], "125/1728");
}

#[test]
fn simulation_agrees_with_the_exact_distribution() {
    let v = json("simulate --dice 5 --trials 200000 --seed 11 --difficulty 3");
    let bins = v["histogram"].as_array().unwrap();
    let observed: u64 = bins.iter().map(|b| b["observed"].as_u64().unwrap()).sum();
    assert_eq!(observed, 200_000);
    assert_eq!(bins[0]["exact_fraction"], "1/32");
    assert_eq!(v["verdict"], "tested");
    assert_eq!(v["trials_needed"], serde_json::Value::Null);
    assert!(v["p_value"].as_f64().unwrap() > 0.001, "{v}");
    assert_eq!(v["seed"], "11");
    assert!(v["largest_deviation"].as_f64().unwrap() < 0.005);
    let success = &v["success"];
    assert!((success["sampled"].as_f64().unwrap() - 691.0 / 1152.0).abs() < 0.005);
    // The same seed gives the same histogram.
    assert_eq!(
        v,
        json("simulate --dice 5 --trials 200000 --seed 11 --difficulty 3")
    );
}

/// Pearson's test needs two pooled bins that each expect 5 checks: with fewer trials there is
/// no verdict (no p-value), rather than a p-value of 1 beside a huge deviation.
#[test]
fn too_few_trials_give_no_verdict() {
    let v = json("simulate --dice 5 --trials 1 --seed 3");
    assert_eq!(v["p_value"], serde_json::Value::Null);
    assert_eq!(v["chi_squared"], serde_json::Value::Null);
    assert_eq!(v["degrees_of_freedom"], 0);
    assert_eq!(v["verdict"], "too_few_trials");
    // P(hits ≥ 3) = 691/1152 ≈ 0.60: 5 / 0.40 = 12.5, so 13 trials.
    assert_eq!(v["trials_needed"], 13);
    let text = ok("simulate --dice 5 --trials 1 --seed 3");
    assert!(
        text.contains("Goodness of fit: too few trials for a verdict: need about 13 "),
        "{text}"
    );
    assert!(!text.contains("p-value"), "{text}");
    // With that many there is one.
    let v = json("simulate --dice 5 --trials 13 --seed 3");
    assert_eq!(v["verdict"], "tested");
    assert!(v["p_value"].is_f64(), "{v}");
    // Thirteen trials fill exactly two bins: one degree of freedom, in the singular.
    assert_eq!(v["degrees_of_freedom"], 1);
    let text = ok("simulate --dice 5 --trials 13 --seed 3");
    assert!(text.contains(" on 1 degree of freedom, p-value "), "{text}");
    // An empty pool always scores zero hits: nothing to test however many trials.
    let v = json("simulate --dice 0 --trials 1000 --seed 3");
    assert_eq!(v["verdict"], "no_variation");
    assert_eq!(v["p_value"], serde_json::Value::Null);
    assert_eq!(v["trials_needed"], serde_json::Value::Null);
    assert!(
        ok("simulate --dice 0 --trials 1000 --seed 3")
            .contains("Goodness of fit: no verdict: an empty pool always scores zero hits\n")
    );
}

#[test]
fn counts_of_one_are_singular() {
    assert_eq!(
        ok("odds --dice 1 --difficulty 1"),
        "P(1 die scores at least 1 hit) = 50.0% = 1/2\n"
    );
    assert_eq!(
        ok("odds --dice 0 --difficulty 1"),
        "P(0 dice score at least 1 hit) = 0.0% = 0/1\n"
    );
    assert!(ok("odds --dice 1").starts_with("Hits of 1 exploding die\n"));
    assert!(
        ok("odds --difficulty 1 --max-dice 2")
            .ends_with("At least 1 die gives an even chance or better.\n")
    );
}
