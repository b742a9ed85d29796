use crate::{json, ok};
use expect_test::expect;
use serde_json::Value;

#[test]
fn the_seeds_worked_example_from_supplied_faces() {
    let text = ok("roll 5 --difficulty 3 --faces 3,6,5,1,6,2,6,4");
    expect![[r#"
        Rolled 5 dice (faces given)
          the pool:
            #1   3  miss
            #2   6  hit   explodes
            #3   5  hit
            #4   1  miss
            #5   6  hit   explodes
          explosions, wave 1 (one die for each six above):
            #6   2  miss  from #2
            #7   6  hit   from #5  explodes
          explosions, wave 2 (one die for each six above):
            #8   4  hit   from #7
        Faces: 3 6 5 1 6 | 2 6 | 4
        Hits: 5 against difficulty 3: success (chance of success was 60.0%)
    "#]]
    .assert_eq(&text);
    let v = json("roll 5 --difficulty 3 --faces 3,6,5,1,6,2,6,4");
    assert_eq!(v["seed"], Value::Null);
    assert_eq!(
        (v["hits"].as_u64(), v["success"].as_bool()),
        (Some(5), Some(true))
    );
    let from: Vec<Value> = v["dice"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["exploded_from"].clone())
        .collect();
    assert_eq!(
        from,
        serde_json::json!([null, null, null, null, null, 1, 4, 6])
            .as_array()
            .unwrap()
            .clone()
    );
}

/// Consistency of one JSON roll: the pool first, one added die per six pointing back at it,
/// hits counted from the faces, success from the hits.
fn assert_consistent(v: &Value, pool: usize, difficulty: Option<u64>) {
    let dice = v["dice"].as_array().unwrap();
    let faces: Vec<u64> = dice.iter().map(|d| d["face"].as_u64().unwrap()).collect();
    assert!(faces.iter().all(|f| (1..=6).contains(f)));
    let sixes = faces.iter().filter(|&&f| f == 6).count();
    assert_eq!(dice.len(), pool + sixes);
    let mut sources = Vec::new();
    for (i, d) in dice.iter().enumerate() {
        assert_eq!(d["hit"].as_bool().unwrap(), faces[i] >= 4);
        match d["exploded_from"].as_u64() {
            None => assert!(i < pool, "die {i} after the pool has no source"),
            Some(from) => {
                assert!(i >= pool && (from as usize) < i && faces[from as usize] == 6);
                sources.push(from);
            }
        }
    }
    sources.dedup();
    assert_eq!(sources.len(), sixes, "each six adds exactly one die");
    let hits = faces.iter().filter(|&&f| f >= 4).count() as u64;
    assert_eq!(v["hits"].as_u64(), Some(hits));
    assert_eq!(v["difficulty"].as_u64(), difficulty);
    assert_eq!(v["success"].as_bool(), difficulty.map(|d| hits >= d));
}

#[test]
fn seeded_rolls_are_consistent_and_replay() {
    for seed in [1u64, 2, 3, 77, 18446744073709551615] {
        let v = json(&format!("roll 12 --difficulty 4 --seed {seed}"));
        assert_eq!(v["seed"], seed.to_string(), "seeds are strings in JSON");
        assert_consistent(&v, 12, Some(4));
        assert_eq!(v, json(&format!("roll 12 --difficulty 4 --seed {seed}")));
    }
}

#[test]
fn an_unseeded_roll_prints_its_seed_and_that_seed_replays_it() {
    let v = json("roll 8");
    assert_consistent(&v, 8, None);
    let seed: u64 = v["seed"]
        .as_str()
        .expect("a fresh seed is reported, as a string")
        .parse()
        .expect("a whole number");
    assert_eq!(v, json(&format!("roll 8 --seed {seed}")));
    let text = ok(&format!("roll 8 --seed {seed}"));
    assert!(
        text.contains(&format!("Replay: prophecy roll 8 --seed {seed}")),
        "{text}"
    );
}

#[test]
fn an_empty_pool_fails() {
    let v = json("roll 0 --difficulty 1 --seed 5");
    assert_eq!(v["dice"], serde_json::json!([]));
    assert_eq!(
        (v["hits"].as_u64(), v["success"].as_bool()),
        (Some(0), Some(false))
    );
    assert!(ok("roll 0 --difficulty 1 --seed 5").contains("zero hits, a failure"));
}

#[test]
fn challenge_rolls_keep_the_right_die() {
    for seed in 0..20 {
        let low = json(&format!("challenge roll --die d8 --steps 0 --seed {seed}"));
        let faces: Vec<u64> = low["faces"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f.as_u64().unwrap())
            .collect();
        assert_eq!(faces.len(), 2);
        assert_eq!(low["result"].as_u64(), faces.iter().min().copied());
        let high = json(&format!("challenge roll --die d4 --steps 3 --seed {seed}"));
        let faces: Vec<u64> = high["faces"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f.as_u64().unwrap())
            .collect();
        assert_eq!(faces.len(), 3);
        assert!(faces.iter().all(|f| (1..=4).contains(f)));
        assert_eq!(high["result"].as_u64(), faces.iter().max().copied());
    }
    let text = ok("challenge roll --die d6 --steps 1 --seed 9");
    assert!(text.starts_with("d6, 1 step (roll 1), seed 9\n"), "{text}");
}

#[test]
fn d66_reads_tens_and_units() {
    let mut seen = std::collections::HashSet::new();
    for seed in 0..60 {
        let v = json(&format!("d66 --seed {seed}"));
        let (tens, units) = (v["tens"].as_u64().unwrap(), v["units"].as_u64().unwrap());
        assert!((1..=6).contains(&tens) && (1..=6).contains(&units));
        assert_eq!(v["value"].as_u64(), Some(tens * 10 + units));
        seen.insert(v["value"].as_u64().unwrap());
    }
    assert!(seen.len() > 20, "60 rolls show many values: {seen:?}");
}

#[test]
fn battles_stop_at_the_first_roll_not_won() {
    for seed in 0..30 {
        let v = json(&format!(
            "battle roll --yours 4 --theirs 1 --three-lives --seed {seed}"
        ));
        let rolls = v["rolls"].as_array().unwrap();
        let outcome = v["outcome"].as_str().unwrap();
        let last = rolls.last().unwrap()["outcome"].as_str().unwrap();
        assert_eq!(outcome, last);
        assert!(
            rolls[..rolls.len() - 1]
                .iter()
                .all(|r| r["outcome"] == "win")
        );
        assert!(outcome != "win" || rolls.len() == 3);
    }
}

/// The seed that `text` reports as `(seed N)`, `seed N)` or `seed N,`.
fn seed_in_text(text: &str) -> String {
    let (_, after) = text.split_once("seed ").expect(text);
    after.chars().take_while(char::is_ascii_digit).collect()
}

/// Seeds go up to 2^64 − 1, beyond what a JSON number read as a double keeps (2^53): every
/// JSON output gives them as strings, the same digits as the text output.
#[test]
fn seeds_in_json_are_strings_and_match_the_text() {
    let commands = [
        "roll 3",
        "roll 3 --difficulty 2",
        "simulate --dice 3 --trials 100",
        "challenge roll --die d8 --steps 2",
        "battle roll --yours 1 --theirs 2 --three-lives",
        "d66",
    ];
    for command in commands {
        for seed in ["18446744073709551615", "9007199254740993", "0"] {
            let args = format!("{command} --seed {seed}");
            let v = json(&args);
            assert_eq!(v["seed"], serde_json::json!(seed), "prophecy {args} --json");
            assert_eq!(seed_in_text(&ok(&args)), seed, "prophecy {args}");
        }
        // A fresh seed: the JSON's string replays the same output.
        let v = json(command);
        let seed = v["seed"].as_str().expect("a string");
        assert_eq!(v, json(&format!("{command} --seed {seed}")), "{command}");
    }
    assert_eq!(json("roll 2 --faces 1,2")["seed"], Value::Null);
}

#[test]
fn counts_of_one_are_singular() {
    let text = ok("roll 1 --faces 3");
    assert!(text.starts_with("Rolled 1 die (faces given)\n"), "{text}");
    let text = ok("simulate --dice 1 --trials 1 --seed 1");
    assert!(text.starts_with("1 check of 1 die (seed 1)\n"), "{text}");
    let text = ok("simulate --dice 1 --trials 1000 --seed 1");
    assert!(
        text.starts_with("1000 checks of 1 die (seed 1)\n"),
        "{text}"
    );
    let text = ok("challenge roll --die d6 --steps 1 --seed 1");
    assert!(text.starts_with("d6, 1 step (roll 1), seed 1\n"), "{text}");
}
