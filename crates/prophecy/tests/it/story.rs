//! The story game's content and stored games through the binary.

use crate::{json, ok, prophecy};
use expect_test::expect;

fn this_file() -> &'static str {
    concat!(env!("CARGO_MANIFEST_DIR"), "/tests/it/story.rs")
}

fn golden() -> String {
    concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../story/tests/data/game-v1.jsonl"
    )
    .to_owned()
}

#[test]
fn worlds_and_modules_are_listed_and_shown() {
    let worlds = json("worlds");
    let worlds = worlds.as_array().unwrap();
    assert!(worlds.len() >= 6);
    assert!(worlds.iter().any(|w| w["temporal"] == true));
    let vael = json("worlds vael");
    assert_eq!(vael["catastrophes"].as_array().unwrap().len(), 36);
    assert!(ok("worlds vael").contains("\n  66  "));
    let modules = json("modules");
    assert!(modules.as_array().unwrap().len() >= 6);
    let first = modules[0]["slug"].as_str().unwrap().to_owned();
    assert!(ok(&format!("modules {first}")).starts_with(modules[0]["title"].as_str().unwrap()));
}

#[test]
fn a_catastrophe_roll_reads_the_world_s_table() {
    let vael = json("worlds vael");
    for seed in [1, 2, 3] {
        let roll = json(&format!("catastrophe vael --seed {seed}"));
        let value = roll["roll"].as_u64().unwrap();
        let d66 = json(&format!("d66 --seed {seed}"));
        assert_eq!(
            d66["value"].as_u64(),
            Some(value),
            "the same seed rolls the same d66"
        );
        let index = ((value / 10 - 1) * 6 + value % 10 - 1) as usize;
        assert_eq!(roll["catastrophe"], vael["catastrophes"][index]);
    }
}

#[test]
fn a_group_s_own_content_is_loaded_and_checked() {
    let dir = std::env::temp_dir().join(format!("prophecy-content-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("worlds")).unwrap();
    let mut world = String::from(
        "name = \"Testland\"\ngenre = \"test\"\nsummary = \"A place for tests.\"\ntemporal = false\n[catastrophes]\n",
    );
    for tens in 1..=6 {
        for units in 1..=6 {
            world.push_str(&format!("{tens}{units} = \"Doom number {tens}{units}.\"\n"));
        }
    }
    std::fs::write(dir.join("worlds/testland.toml"), &world).unwrap();
    let args = format!("catastrophe testland --seed 3 --content {}", dir.display());
    let roll = json(&args);
    assert_eq!(
        roll["catastrophe"],
        format!("Doom number {}.", roll["roll"])
    );
    // The built-in worlds are still there.
    assert!(ok(&format!("worlds --content {}", dir.display())).contains("vael"));
    std::fs::write(
        dir.join("worlds/broken.toml"),
        world.replace("66 = ", "67 = "),
    )
    .unwrap();
    let run = prophecy(&format!("worlds --content {}", dir.display()));
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr.trim_end(),
        format!(
            "error: {}/worlds/broken.toml: the catastrophe table has no entry 66",
            dir.display()
        )
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_stored_game_exports_as_markdown_and_as_its_outline() {
    let markdown = ok(&format!("export {}", golden()));
    assert!(markdown.starts_with("# A prophecy of Vael, the Lanterned Kingdoms\n"));
    for section in [
        "## The Prophecy",
        "## Characters",
        "## The Outline",
        "```mermaid",
        "## The Story",
        "## Long-term effects",
        "## Lines",
    ] {
        assert!(markdown.contains(section), "{section}");
    }
    expect![[r#"
        Finale: Bind the Cinder Wyrm beneath the Ember Hills (4) — failure
        ├── Steal the binding-song from the Salt Hierophant (3) — failure
        │   └── Find the hierophant's hidden vault (2) — failure
        │       └── Bribe the vault's gatekeeper (1) — success
        └── Rally the river-wardens (3) — success
    "#]]
    .assert_eq(&ok(&format!("export {} --format tree", golden())));
}

#[test]
fn bad_inputs_are_one_line() {
    for (args, expected) in [
        ("catastrophe atlantis --seed 1".to_owned(), "error: no world 'atlantis'; the worlds are: brasswork-crown, fault-line, hesperus-reach, long-dusk, second-draft, vael, vesperlands".to_owned()),
        ("export /no/such/file.jsonl".to_owned(), "error: /no/such/file.jsonl: no such file".to_owned()),
        (format!("export {}", this_file()), format!("error: {}:1: not a stored event: expected value at line 1 column 1", this_file())),
    ] {
        let run = prophecy(&args);
        assert_eq!((run.code, run.stdout.as_str()), (2, ""), "{args}");
        assert_eq!(run.stderr.trim_end(), expected);
    }
}
