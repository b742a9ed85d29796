//! `prophecy outline odds|show` on plan files in `tests/data/`.

use crate::{json, ok, prophecy};
use expect_test::{Expect, expect};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data");

/// The path of a file in `tests/data/` (no spaces: the helpers split arguments on them).
fn data(name: &str) -> String {
    format!("{DATA}/{name}")
}

/// Bad input: status 2, nothing on stdout, one line on stderr, shown with the data folder as
/// `tests/data` so the snapshot does not depend on the checkout.
fn check_error(args: &str, expected: Expect) {
    let run = prophecy(args);
    assert_eq!(run.code, 2, "prophecy {args}: {}", run.stderr);
    assert_eq!(run.stdout, "", "prophecy {args}");
    assert_eq!(
        run.stderr.lines().count(),
        1,
        "prophecy {args}: {}",
        run.stderr
    );
    assert!(!run.stderr.contains("panicked"), "prophecy {args}");
    expected.assert_eq(run.stderr.trim_end().replace(DATA, "tests/data").as_str());
}

fn bad(file: &str, expected: Expect) {
    check_error(&format!("outline odds {}", data(file)), expected);
}

#[test]
fn a_lone_finale_is_one_check() {
    let out = json(&format!("outline odds {}", data("outline-finale.toml")));
    assert_eq!(out["finale"]["id"], "finale");
    assert_eq!(out["finale"]["exact"], "2371/6912");
    assert_eq!(out["finale"]["difficulty"], 4);
    let p = out["finale"]["p_success"].as_f64().unwrap();
    assert!((p - 2371.0 / 6912.0).abs() < 1e-15, "{p}");
    assert_eq!(out["scenes"].as_array().unwrap().len(), 1);
    assert_eq!(out["scenes"][0]["exact"], "2371/6912");
    // Six dice give 49.3% against 4, seven 62.8%.
    assert_eq!(out["pairs_for_even_finale"], 7);
}

#[test]
fn json_of_the_seeds_outline() {
    let out = json(&format!("outline odds {}", data("outline-seeds.toml")));
    let scenes = out["scenes"].as_array().unwrap();
    let ids: Vec<&str> = scenes.iter().map(|s| s["id"].as_str().unwrap()).collect();
    assert_eq!(
        ids,
        [
            "finale",
            "fighters",
            "weakness",
            "force",
            "prisoner",
            "schematics",
            "master",
            "hermit"
        ],
        "file order"
    );
    let difficulties: Vec<u64> = scenes
        .iter()
        .map(|s| s["difficulty"].as_u64().unwrap())
        .collect();
    assert_eq!(difficulties, [4, 3, 3, 3, 2, 2, 2, 1]);
    for scene in scenes {
        // p_success is the exact fraction as a float.
        let (n, d) = scene["exact"].as_str().unwrap().split_once('/').unwrap();
        let ratio = n.parse::<f64>().unwrap() / d.parse::<f64>().unwrap();
        let p = scene["p_success"].as_f64().unwrap();
        assert!((p - ratio).abs() < 1e-12, "{scene}");
    }
    // A tertiary scene with one pair and no precursors: one die against 1.
    assert_eq!(scenes[7]["exact"], "1/2");
    assert_eq!(scenes[7]["parent"], "schematics");
    assert_eq!(out["finale"], scenes[0]);
    assert_eq!(out["edition"], "1.0");
    assert_eq!(out["advice"], serde_json::Value::Null);
    expect![[r#"
        {
          "depth": 0,
          "difficulty": 4,
          "exact": "899688402019/5944066965504",
          "id": "finale",
          "objective": "Destroy the Death Star",
          "outcome": null,
          "p_success": 0.15135906227845047,
          "pairs": 3,
          "parent": null
        }"#]]
    .assert_eq(&serde_json::to_string_pretty(&out["finale"]).unwrap());
}

#[test]
fn text_of_the_seeds_outline() {
    expect![[r#"
        Outline odds under Prophecy 1.0
        scene                            diff  pairs  outcome  success  exact
        Finale: Destroy the Death Star      4      3             15.1%  899688402019/5944066965504
        ├── Engage the enemy fighters       3      2              9.0%  13/144
        ├── Find a critical weakness        3      2             17.6%  58405/331776
        │   ├── Rescue the prisoner         2      1              8.3%  1/12
        │   └── Deliver the schematics      2      2             44.8%  43/96
        │       └── Find the old hermit     1      1             50.0%  1/2
        └── Use the Force                   3      3             31.1%  269/864
            └── Train with the master       2      2             33.3%  1/3
        The Finale succeeds with probability 15.1% = 899688402019/5944066965504.
        5 pairs in every scene not yet performed give the Finale an even chance.
    "#]]
    .assert_eq(&ok(&format!("outline odds {}", data("outline-seeds.toml"))));
}

#[test]
fn performed_scenes_and_their_precursors() {
    let path = data("outline-played.toml");
    expect![[r#"
        Outline odds under Prophecy 1.0
        scene                                             diff  pairs  outcome  success  exact
        Finale: Seal the <b>breach</b> & "hold" the line     4      2              8.4%  193/2304
        ├── Take the gate                                    3      3  success   100.0%  1/1
        │   └── Steal the keys                               2      2             33.3%  1/3
        ├── Man the walls                                    3      2  failure     0.0%  0/1
        └── Light the signal fire                            3      1              1.4%  1/72
        The Finale succeeds with probability 8.4% = 193/2304.
        5 pairs in every scene not yet performed give the Finale an even chance.
    "#]]
    .assert_eq(&ok(&format!("outline odds {path}")));
    let out = json(&format!("outline odds {path}"));
    assert_eq!(out["scenes"][1]["outcome"], "success");
    assert_eq!(out["scenes"][1]["exact"], "1/1");
    assert_eq!(out["scenes"][3]["exact"], "0/1");
    // The precursor of a performed scene keeps its planned odds: two dice against 2.
    assert_eq!(out["scenes"][2]["exact"], "1/3");
}

#[test]
fn a_performed_finale() {
    let path = format!(
        "{}/outline-finale-performed.toml",
        env!("CARGO_TARGET_TMPDIR")
    );
    std::fs::write(
        &path,
        "[[scene]]\nid = \"f\"\nobjective = \"Win\"\npairs = 0\noutcome = \"success\"\n",
    )
    .unwrap();
    let out = json(&format!("outline odds {path}"));
    assert_eq!(out["finale"]["exact"], "1/1");
    assert_eq!(out["pairs_for_even_finale"], serde_json::Value::Null);
    let text = ok(&format!("outline odds {path}"));
    assert!(
        text.ends_with("The Finale has been performed: success.\n"),
        "{text}"
    );
}

#[test]
fn editions_set_the_difficulties() {
    let seeds = data("outline-seeds.toml");
    let out = json(&format!("outline odds {seeds} --edition 1.1"));
    assert_eq!(out["edition"], "1.1");
    assert_eq!(out["finale"]["difficulty"], 5);
    assert_eq!(out["scenes"][7]["difficulty"], 2);
    let out = json(&format!("outline odds {seeds} --edition temporal"));
    assert_eq!(out["finale"]["difficulty"], 4);
    assert_eq!(out["edition"], "temporal");

    // Five levels fit 1.1 only.
    let deep = data("outline-deep.toml");
    let out = json(&format!("outline odds {deep} --edition 1.1"));
    assert_eq!(out["scenes"][4]["difficulty"], 1);
    bad(
        "outline-deep.toml",
        expect![
            "error: tests/data/outline-deep.toml:27: scene 'd' would have difficulty 0: a scene must be at most 3 levels below the Finale under Prophecy 1.0"
        ],
    );
    check_error(
        &format!("outline show {deep} --edition temporal"),
        expect![
            "error: tests/data/outline-deep.toml:27: scene 'd' would have difficulty 0: a scene must be at most 3 levels below the Finale under Temporal Mechanics"
        ],
    );
}

#[test]
fn show_as_a_tree_and_as_mermaid() {
    let seeds = data("outline-seeds.toml");
    expect![[r#"
        Finale: Destroy the Death Star (4)
        ├── Engage the enemy fighters (3)
        ├── Find a critical weakness (3)
        │   ├── Rescue the prisoner (2)
        │   └── Deliver the schematics (2)
        │       └── Find the old hermit (1)
        └── Use the Force (3)
            └── Train with the master (2)
    "#]]
    .assert_eq(&ok(&format!("outline show {seeds}")));
    assert_eq!(
        ok(&format!("outline show {seeds} --format tree")),
        ok(&format!("outline show {seeds}"))
    );
    expect![[r#"
        graph TB;
          n0("Destroy the Death Star (4)");
          n0 --- n1("Engage the enemy fighters (3)");
          n0 --- n2("Find a critical weakness (3)");
          n2 --- n4("Rescue the prisoner (2)");
          n2 --- n5("Deliver the schematics (2)");
          n5 --- n7("Find the old hermit (1)");
          n0 --- n3("Use the Force (3)");
          n3 --- n6("Train with the master (2)");
    "#]]
    .assert_eq(&ok(&format!("outline show {seeds} --format mermaid")));
    expect![[r#"
        graph TB;
          n0("Seal the #lt;b#gt;breach#lt;/b#gt; #amp; #quot;hold#quot; the line (5)");
          n0 --- n1("Take the gate (4) — success");
          n1 --- n2("Steal the keys (3)");
          n0 --- n3("Man the walls (4) — failure");
          n0 --- n4("Light the signal fire (4)");
    "#]]
    .assert_eq(&ok(&format!(
        "outline show {} --format mermaid --edition 1.1",
        data("outline-played.toml")
    )));
}

#[test]
fn bad_plans_are_one_line_naming_file_and_line() {
    bad(
        "bad-syntax.toml",
        expect![
            "error: tests/data/bad-syntax.toml:3: not valid TOML: string values must be quoted, expected literal string"
        ],
    );
    bad(
        "bad-no-id.toml",
        expect![[r#"error: tests/data/bad-no-id.toml:6: a scene has no id (id = "…")"#]],
    );
    bad(
        "bad-no-objective.toml",
        expect![[
            r#"error: tests/data/bad-no-objective.toml:1: scene 'finale' has no objective (objective = "…")"#
        ]],
    );
    bad(
        "bad-no-pairs.toml",
        expect![
            "error: tests/data/bad-no-pairs.toml:1: scene 'finale' has no pairs (the matching pairs planned, 0 to 1000)"
        ],
    );
    bad(
        "bad-duplicate-id.toml",
        expect![
            "error: tests/data/bad-duplicate-id.toml:12: the id 'weakness' is already used by the scene on line 6; ids must be unique"
        ],
    );
    bad(
        "bad-unknown-parent.toml",
        expect![
            "error: tests/data/bad-unknown-parent.toml:8: scene 'fighters' names 'the-finale' as its parent, but no scene has that id"
        ],
    );
    bad(
        "bad-self-parent.toml",
        expect![
            "error: tests/data/bad-self-parent.toml:8: scene 'fighters' names itself as its parent"
        ],
    );
    bad(
        "bad-no-finale.toml",
        expect![
            "error: tests/data/bad-no-finale.toml: no Finale: every scene has a parent; the Finale, the scene the story ends with, has none"
        ],
    );
    bad(
        "bad-two-finales.toml",
        expect![
            "error: tests/data/bad-two-finales.toml:6: scene 'fighters' has no parent, but scene 'finale' (line 1) is already the Finale; every other scene needs a parent"
        ],
    );
    bad(
        "bad-cycle.toml",
        expect![
            "error: tests/data/bad-cycle.toml:8: the parents of scenes 'prisoner', 'hermit', 'schematics' form a cycle: following them never reaches the Finale"
        ],
    );
    bad(
        "bad-negative-pairs.toml",
        expect![
            "error: tests/data/bad-negative-pairs.toml:4: the pairs of scene 'finale' cannot be negative (0 to 1000)"
        ],
    );
    bad(
        "bad-absurd-pairs.toml",
        expect![
            "error: tests/data/bad-absurd-pairs.toml:4: the pairs of scene 'finale' must be from 0 to 1000"
        ],
    );
    bad(
        "bad-huge-pairs.toml",
        expect![
            "error: tests/data/bad-huge-pairs.toml:4: the pairs of scene 'finale' must be from 0 to 1000"
        ],
    );
    bad(
        "bad-pairs-text.toml",
        expect![
            "error: tests/data/bad-pairs-text.toml:4: the pairs of scene 'finale' must be a whole number from 0 to 1000, not text"
        ],
    );
    bad(
        "bad-total-pairs.toml",
        expect![
            "error: tests/data/bad-total-pairs.toml:64: scene 's10' brings the plan to 11000 pairs; a plan may have at most 10000 in all"
        ],
    );
    bad(
        "bad-outcome.toml",
        expect![[
            r#"error: tests/data/bad-outcome.toml:5: the outcome of scene 'finale' must be "success" or "failure", not 'won'"#
        ]],
    );
    bad(
        "bad-unknown-key.toml",
        expect![
            "error: tests/data/bad-unknown-key.toml:5: unknown key 'difficulty' in a scene; the keys are id, parent, objective, pairs and outcome"
        ],
    );
    bad(
        "bad-misspelt-key.toml",
        expect![
            "error: tests/data/bad-misspelt-key.toml:4: unknown key 'pair' in a scene (did you mean 'pairs'?); the keys are id, parent, objective, pairs and outcome"
        ],
    );
    bad(
        "bad-edition-key.toml",
        expect![
            "error: tests/data/bad-edition-key.toml:1: 'edition' is not part of a plan: choose the rules with --edition"
        ],
    );
    bad(
        "bad-scene-table.toml",
        expect![
            "error: tests/data/bad-scene-table.toml:1: 'scene' must be a list of tables: write each scene as a [[scene]] table"
        ],
    );
    bad(
        "bad-empty.toml",
        expect![
            "error: tests/data/bad-empty.toml: no scenes: write one [[scene]] table per scene, the Finale without a parent"
        ],
    );
    bad(
        "bad-not-utf8.toml",
        expect!["error: tests/data/bad-not-utf8.toml:3: not UTF-8 text; save the plan as UTF-8"],
    );
}

#[test]
fn files_that_cannot_be_read() {
    bad(
        "no-such-plan.toml",
        expect!["error: tests/data/no-such-plan.toml: cannot read the plan: no such file"],
    );
    check_error(
        &format!("outline show {DATA}"),
        expect!["error: tests/data: cannot read the plan: a directory, not a plan file"],
    );
    // One byte over the limit, written at test time rather than kept in the repository.
    let path = format!("{}/outline-too-large.toml", env!("CARGO_TARGET_TMPDIR"));
    let mut text = String::from("[[scene]]\nid = \"f\"\nobjective = \"Win\"\npairs = 1\n");
    text.push_str(&"#".repeat((1 << 20) + 1 - text.len()));
    std::fs::write(&path, &text).unwrap();
    let run = prophecy(&format!("outline odds {path}"));
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        format!("error: {path}: the file is larger than 1 MiB; a plan is a few [[scene]] tables\n")
    );
    // Exactly at the limit is read.
    text.pop();
    std::fs::write(&path, &text).unwrap();
    ok(&format!("outline odds {path}"));
}

#[test]
fn more_than_eight_scenes_is_advice_not_an_error() {
    let path = format!("{}/outline-nine-scenes.toml", env!("CARGO_TARGET_TMPDIR"));
    let mut text = String::from("[[scene]]\nid = \"f\"\nobjective = \"Win\"\npairs = 2\n");
    for i in 1..9 {
        text.push_str(&format!(
            "\n[[scene]]\nid = \"s{i}\"\nparent = \"f\"\nobjective = \"Step {i}\"\npairs = 1\n"
        ));
    }
    std::fs::write(&path, &text).unwrap();
    let out = json(&format!("outline odds {path}"));
    assert_eq!(
        out["advice"],
        "9 scenes: the rules advise at most 8, so that the story fits one session"
    );
    let text = ok(&format!("outline odds {path}"));
    assert!(
        text.ends_with(
            "Note: 9 scenes: the rules advise at most 8, so that the story fits one session.\n"
        ),
        "{text}"
    );
}

#[test]
fn one_pair_is_singular() {
    // Six successful precursors give the Finale six reward dice: one pair more makes seven.
    let mut plan = String::from("[[scene]]\nid = \"finale\"\nobjective = \"F\"\npairs = 1\n");
    for i in 1..=6 {
        plan.push_str(&format!(
            "\n[[scene]]\nid = \"p{i}\"\nparent = \"finale\"\nobjective = \"P{i}\"\npairs = 1\noutcome = \"success\"\n"
        ));
    }
    let path = format!("{}/outline-one-pair.toml", env!("CARGO_TARGET_TMPDIR"));
    std::fs::write(&path, plan).unwrap();
    assert_eq!(
        json(&format!("outline odds {path}"))["pairs_for_even_finale"],
        1
    );
    let text = ok(&format!("outline odds {path}"));
    assert!(
        text.ends_with(
            "1 pair in every scene not yet performed gives the Finale an even chance.\n"
        ),
        "{text}"
    );
}
