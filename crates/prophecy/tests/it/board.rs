use crate::{json, ok, prophecy};

#[test]
fn board_simulate_reports_and_repeats_with_its_seed() {
    let report = json("board simulate --games 20 --players 3 --seed 5");
    assert_eq!(report["games"], 20);
    assert_eq!(report["players"], 3);
    assert_eq!(report["seed"], "5");
    assert_eq!(report["finished"], 20);
    assert_eq!(report["refusals"], 0);
    let turns = &report["turns"];
    assert!(turns["mean"].as_f64().unwrap() > 0.0);
    assert!(turns["median"].as_u64().unwrap() <= turns["p90"].as_u64().unwrap());
    let seats = report["wins_by_seat"].as_array().unwrap();
    assert_eq!(seats.len(), 3);
    let wins: u64 = seats.iter().map(|w| w.as_u64().unwrap()).sum();
    assert_eq!(wins + report["no_winner"].as_u64().unwrap(), 20);
    assert!(report["wins_by_character"].as_object().unwrap().len() >= 8);
    assert!(report["adventures_met"].as_object().unwrap().len() >= 40);
    assert!(report["chance_drawn"].as_object().unwrap().len() >= 5);
    assert!(report["deaths"].is_u64());
    assert_eq!(
        report,
        json("board simulate --games 20 --players 3 --seed 5")
    );

    let text = ok("board simulate --games 5 --players 2 --seed 5");
    assert!(
        text.starts_with("5 games of 2 bots (seed 5): 5 finished"),
        "{text}"
    );
    assert!(text.contains("Win rate by character"), "{text}");
    // Without a seed, a fresh one, printed so the run can be repeated.
    assert!(json("board simulate --games 1 --players 2")["seed"].is_string());
}

/// Bots of each level, in the order seated: the report names them and sums their wins by
/// level; the text says how each level did.
#[test]
fn board_simulate_seats_bots_at_their_levels() {
    let report = json("board simulate --games 12 --levels easy,standard --seed 3");
    assert_eq!(report["players"], 2);
    assert_eq!(report["levels"], serde_json::json!(["easy", "standard"]));
    let by_level = report["wins_by_level"].as_object().unwrap();
    let wins: u64 = by_level.values().map(|w| w.as_u64().unwrap()).sum();
    let by_seat: u64 = (report["wins_by_seat"].as_array().unwrap().iter())
        .map(|w| w.as_u64().unwrap())
        .sum();
    assert_eq!(wins, by_seat);
    assert!(by_level["standard"].as_u64().unwrap() > by_level["easy"].as_u64().unwrap());
    let text = ok("board simulate --games 4 --players 2 --levels easy,standard --seed 3");
    assert!(
        text.contains("Wins by level (bots seated: easy, standard)"),
        "{text}"
    );
    // All standard when left out: the report still names them.
    let report = json("board simulate --games 2 --players 2 --seed 3");
    assert_eq!(
        report["levels"],
        serde_json::json!(["standard", "standard"])
    );
}

#[test]
fn board_simulate_checks_its_counts() {
    for (args, problem) in [
        (
            "--games 10 --players 6",
            "the number of players must be from 2 to 5",
        ),
        (
            "--games 10 --players 1",
            "the number of players must be from 2 to 5",
        ),
        (
            "--games 0 --players 4",
            "the number of games must be from 1 to 10000000",
        ),
        (
            "--games 10000001 --players 4",
            "the number of games must be from 1 to 10000000",
        ),
        (
            "--games -3 --players 4",
            "the number of games cannot be negative",
        ),
        (
            "--games 10 --players 3 --levels strong,easy",
            "--levels names 2 bots but --players is 3",
        ),
        ("--games 10 --levels strong", "--levels names 1 bot:"),
        ("--games 10 --levels strong,weak", "no bot level \"weak\""),
        ("--games 10", "--players"),
    ] {
        let run = prophecy(&format!("board simulate {args}"));
        assert_eq!(run.code, 2, "{args}");
        assert_eq!(run.stdout, "", "{args}");
        assert_eq!(run.stderr.lines().count(), 1, "{args}: {}", run.stderr);
        assert!(run.stderr.contains(problem), "{args}: {}", run.stderr);
    }
}

#[test]
fn board_cards_lists_every_card() {
    let cards = json("board cards");
    assert_eq!(cards["board"].as_array().unwrap().len(), 26);
    assert_eq!(cards["board"][0]["name"], "Brightmoor Keep");
    assert_eq!(cards["board"][0]["kind"], "fortress");
    assert!(cards["characters"].as_array().unwrap().len() >= 8);
    let adventures = cards["adventures"].as_array().unwrap();
    assert!(adventures.iter().any(|a| a["kind"] == "creature"));
    assert!(adventures.iter().any(|a| a["kind"] == "opportunity"));
    // One object per copy: the terrain cards come six times each.
    let chance = cards["chance"].as_array().unwrap();
    assert_eq!(chance.iter().filter(|c| c["name"] == "Forest").count(), 6);
    assert!(!cards["common_items"].as_array().unwrap().is_empty());
    assert!(!cards["rare_items"].as_array().unwrap().is_empty());

    let text = ok("board cards");
    for heading in [
        "Board (26 spaces",
        "Characters",
        "Adventure cards",
        "Chance cards",
        "Rare Items",
    ] {
        assert!(text.contains(heading), "{heading}");
    }
}
