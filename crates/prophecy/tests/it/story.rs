//! The story game's content and stored games through the binary.

use crate::{Run, json, ok, prophecy};
use expect_test::expect;
use std::io::Read;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

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
        assert_eq!(roll["seed"], seed.to_string(), "seeds are strings in JSON");
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
        (format!("export {}", this_file()), format!("error: {}:1: not JSON", this_file())),
    ] {
        let run = prophecy(&args);
        assert_eq!((run.code, run.stdout.as_str()), (2, ""), "{args}");
        assert_eq!(run.stderr.trim_end(), expected);
    }
}

/// A file under the temporary folder with a name no other test or run uses, removed on drop.
struct TempPath(PathBuf);

impl TempPath {
    fn new(name: &str) -> TempPath {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        TempPath(
            std::env::temp_dir().join(format!("prophecy-story-{}-{n}-{name}", std::process::id())),
        )
    }

    fn with(name: &str, contents: impl AsRef<[u8]>) -> TempPath {
        let path = TempPath::new(name);
        std::fs::write(&path.0, contents).unwrap();
        path
    }

    fn shown(&self) -> String {
        self.0.display().to_string()
    }
}

impl Drop for TempPath {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0).or_else(|_| std::fs::remove_dir(&self.0));
    }
}

/// Runs the binary, killing it (and failing) if it has not finished after a long minute: a read
/// without end must fail this test, not hang the suite. (Not a speed limit: a correct run takes
/// about a second.)
fn prophecy_finishing(args: &[&str]) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_prophecy"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    // Drained while it runs, or a full pipe would stop it.
    let drain = |mut pipe: Box<dyn std::io::Read + Send>| {
        std::thread::spawn(move || {
            let mut text = String::new();
            pipe.read_to_string(&mut text).expect("UTF-8 output");
            text
        })
    };
    let stdout = drain(Box::new(child.stdout.take().unwrap()));
    let stderr = drain(Box::new(child.stderr.take().unwrap()));
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > Duration::from_secs(90) {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("prophecy {args:?} did not finish");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Run {
        code: status.code().expect("exited, not killed"),
        stdout: stdout.join().unwrap(),
        stderr: stderr.join().unwrap(),
    }
}

/// The run failed with exit status 2 and exactly this one line.
#[track_caller]
fn refused(run: &Run, expected: &str) {
    assert_eq!((run.code, run.stdout.as_str()), (2, ""), "{}", run.stderr);
    assert_eq!(run.stderr, format!("error: {expected}\n"));
}

const OPENED: &str = r#"{"v":"1","type":"game_opened","ruleset":"1.1"}
{"v":"1","type":"player_joined","player":1,"name":"Ada"}
"#;

fn sketch(scene: u32, parent: Option<u32>) -> String {
    let parent = parent.map_or("null".to_owned(), |p| p.to_string());
    format!(
        r#"{{"v":"1","type":"scene_sketched","scene":{scene},"parent":{parent},"objective":"Scene {scene}","difficulty":1}}"#
    ) + "\n"
}

fn started(scene: u32) -> String {
    format!(r#"{{"v":"1","type":"scene_started","scene":{scene},"at":{scene}}}"#) + "\n"
}

#[test]
fn crafted_games_are_refused_in_one_line_naming_the_line() {
    let character = r#"{"v":"1","type":"character_created","object":5,"player":9,"name":"Ghost"}
{"v":"1","type":"aspect_attached","aspect":6,"object":5,"text":"spooky","category":"occupation"}
"#;
    let cases: Vec<(String, &str)> = vec![
        (character.to_owned(), "3: player 9 never joined the table"),
        (
            sketch(1, None) + &sketch(2, Some(1)) + r#"{"v":"1","type":"scene_removed","scene":1}"#,
            "5: scene 1 is removed while scene 2 is still its precursor",
        ),
        (
            sketch(1, None)
                + &sketch(2, Some(1))
                + &sketch(1, Some(2))
                + r#"{"v":"1","type":"scene_removed","scene":1}"#,
            "5: scene 1 is its own ancestor (a cycle in the outline)",
        ),
        (
            sketch(1, None) + &sketch(3, Some(1)) + &sketch(2, Some(1)) + &sketch(2, Some(3)),
            "6: scene 2 already exists (an id is handed out once)",
        ),
        (
            sketch(1, None) + &sketch(2, Some(7)),
            "4: scene 7 does not exist",
        ),
        (
            sketch(1, None) + &sketch(4, Some(1)) + &sketch(4, Some(4)) + &started(4),
            "5: scene 4 is its own ancestor (a cycle in the outline)",
        ),
        (
            sketch(1, None) + &sketch(2, Some(1)) + &sketch(1, Some(2)) + &started(1),
            "5: scene 1 is its own ancestor (a cycle in the outline)",
        ),
        (
            sketch(1, None) + "\n\n" + &sketch(2, None),
            "6: a second Finale (scene 1 is the Finale)",
        ),
        (
            "{\"v\":\"1\",\"type\":\"foo\"}".to_owned(),
            "3: not an event of a stored game (unknown type 'foo')",
        ),
        (
            "{\"v\":\"2\",\"type\":\"game_ended\"}".to_owned(),
            "3: not an event of a stored game (unknown version '2'; this build reads 1)",
        ),
        (
            "{\"type\":\"game_ended\"}".to_owned(),
            "3: not an event of a stored game (no version 'v')",
        ),
        (
            "{\"v\":\"1\"}".to_owned(),
            "3: not an event of a stored game (no 'type')",
        ),
        (
            "[1, 2]".to_owned(),
            "3: not an event of a stored game (an event is a JSON object)",
        ),
        (
            "{\"v\":\"1\",\"type\":\"scene_removed\",\"scene\":-1}".to_owned(),
            "3: not an event of a stored game (a 'scene_removed' event whose fields are missing or of the wrong kind)",
        ),
        (
            "{\"v\":\"1\",\"type\":\"game_ended\"".to_owned(),
            "3: not JSON",
        ),
        (
            "{\"v\":\"1\",\"type\":\"line\\nbreak\"}".to_owned(),
            "3: not an event of a stored game (unknown type 'line break')",
        ),
    ];
    for (rest, expected) in cases {
        let file = TempPath::with("crafted.jsonl", format!("{OPENED}{rest}\n"));
        for format in ["markdown", "tree", "mermaid"] {
            let run = prophecy_finishing(&["export", &file.shown(), "--format", format]);
            refused(&run, &format!("{}:{expected}", file.shown()));
        }
    }
}

#[test]
fn a_chain_of_twenty_thousand_scenes_exports_in_every_format() {
    const SCENES: u32 = 20_000;
    let mut game = OPENED.to_owned() + &sketch(0, None);
    for i in 1..SCENES {
        game.push_str(&sketch(i, Some(i - 1)));
    }
    game.push_str("{\"v\":\"1\",\"type\":\"phase_began\",\"phase\":\"story\"}\n");
    for i in (SCENES - 100..SCENES).rev() {
        game.push_str(&started(i));
    }
    let file = TempPath::with("chain.jsonl", game);
    for format in ["markdown", "tree", "mermaid"] {
        let run = prophecy_finishing(&["export", &file.shown(), "--format", format]);
        assert_eq!((run.code, run.stderr.as_str()), (0, ""), "{format}");
        // Linear in the scenes: drawing all 20,000 levels of the tree would take 800 MB.
        assert!(run.stdout.len() < 200 * SCENES as usize, "{format}");
        assert!(run.stdout.contains("Scene 19999"), "{format}");
    }
}

/// A FIFO, a device or a folder named where a file is read is refused at once, unread: a FIFO
/// nobody writes to would block the reader for ever, `/dev/zero` never ends. (Each run is
/// killed, failing the test, if it does not finish.)
#[test]
fn special_files_are_refused_unread() {
    let fifo = TempPath::new("nobody-writes.fifo");
    let made = Command::new("mkfifo").arg(&fifo.0).status().unwrap();
    assert!(made.success());
    let f = fifo.shown();
    let fifo_is = "a named pipe (FIFO), not a file";
    refused(
        &prophecy_finishing(&["export", &f]),
        &format!("{f}: {fifo_is}"),
    );
    refused(
        &prophecy_finishing(&["outline", "show", &f]),
        &format!("{f}: cannot read the plan: {fifo_is}"),
    );
    refused(
        &prophecy_finishing(&["outline", "odds", &f]),
        &format!("{f}: cannot read the plan: {fifo_is}"),
    );
    refused(
        &prophecy_finishing(&["backup", "--db", &f, "copy.db"]),
        &format!(
            "invalid value '{f}' for '--db <DB>': {fifo_is}; give a database file such as prophecy.db"
        ),
    );
    refused(
        &prophecy_finishing(&["serve", "--db", &f]),
        &format!(
            "invalid value '{f}' for '--db <DB>': {fifo_is}; give a database file such as prophecy.db"
        ),
    );
    // A content folder whose world is a FIFO.
    let content = TempPath::new("content");
    std::fs::create_dir_all(content.0.join("worlds")).unwrap();
    let world = content.0.join("worlds/endless.toml");
    assert!(
        Command::new("mkfifo")
            .arg(&world)
            .status()
            .unwrap()
            .success()
    );
    let run = prophecy_finishing(&["worlds", "--content", &content.shown()]);
    std::fs::remove_file(&world).unwrap();
    std::fs::remove_dir(content.0.join("worlds")).unwrap();
    refused(&run, &format!("{}: {fifo_is}", world.display()));
    refused(
        &prophecy_finishing(&["export", "/dev/zero"]),
        "/dev/zero: a device, not a file",
    );
    // A regular file past the limit (sparse: no 16 MiB are written) is read no further.
    let large = TempPath::new("large.jsonl");
    std::fs::File::create(&large.0)
        .unwrap()
        .set_len(16 * 1024 * 1024 + 1)
        .unwrap();
    refused(
        &prophecy_finishing(&["export", &large.shown()]),
        &format!("{}: larger than 16 MiB", large.shown()),
    );
    // A folder, and text that is not UTF-8 (on its second line).
    let folder = TempPath::new("folder");
    std::fs::create_dir(&folder.0).unwrap();
    refused(
        &prophecy(&format!("export {}", folder.shown())),
        &format!("{}: a folder, not a file", folder.shown()),
    );
    let latin1 = TempPath::with("latin1.jsonl", b"{}\n{\"name\":\"Andr\xe9\"}\n");
    refused(
        &prophecy(&format!("export {}", latin1.shown())),
        &format!("{}:2: not UTF-8 text", latin1.shown()),
    );
}

#[test]
fn a_temporal_mechanics_game_exports_in_its_own_words() {
    let game = format!(
        "{}{}{}{}",
        r#"{"v":"1","type":"game_opened","ruleset":"temporal"}
{"v":"1","type":"player_joined","player":1,"name":"Ada"}
{"v":"1","type":"flashback_narrated","text":"The clocks stopped in 2086."}
"#,
        sketch(1, None),
        sketch(2, Some(1)) + &started(2),
        r#"{"v":"1","type":"check_made","scene":2,"check":{"difficulty":3,"roll":{"seed":null,"dice":[{"face":4,"cause":{"pool":{"kind":"matching_pair","pair":9}}}]},"outcome":"failure","physical":true}}
"#
    );
    let file = TempPath::with("temporal.jsonl", game);
    let tree = ok(&format!("export {} --format tree", file.shown()));
    assert!(tree.starts_with("Climax: Scene 1"), "{tree}");
    let markdown = ok(&format!("export {}", file.shown()));
    for words in ["## The Flashback", "## The Story Tree", "real dice"] {
        assert!(markdown.contains(words), "{words}: {markdown}");
    }
    assert!(
        markdown.contains("Phase: Gather the Players."),
        "{markdown}"
    );
    for words in ["Prophecy", "Finale", "Outline"] {
        assert!(!markdown.contains(words), "{words}: {markdown}");
    }
}
