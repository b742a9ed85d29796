//! The tree and Mermaid views, as snapshots.

use expect_test::expect;
use story::views::{ViewScene, mermaid, tree, tree_lines};

fn view(label: &str, difficulty: u32, parent: Option<usize>, note: Option<&str>) -> ViewScene {
    ViewScene {
        label: label.to_owned(),
        difficulty,
        parent,
        note: note.map(str::to_owned),
    }
}

/// The seeds' example outline, listed out of tree order (as scenes get added in play), one
/// objective with quotes, brackets and HTML in it.
fn example() -> Vec<ViewScene> {
    vec![
        view("Destroy the Death Star", 4, None, None),
        view("Engage the enemy fighters", 3, Some(0), None),
        view("Find a critical weakness", 3, Some(0), Some("success")),
        view("Use the Force", 3, Some(0), Some("available")),
        view("Rescue the prisoner", 2, Some(2), Some("failure")),
        view(
            "Deliver the \"schematics\" <b>now</b> & #35; [x]; `code`",
            2,
            Some(2),
            Some("success"),
        ),
        view("Train with the master", 2, Some(3), None),
        view("Find the old\nhermit", 1, Some(5), Some("success")),
    ]
}

#[test]
fn tree_of_the_example_outline() {
    expect![[r#"
        Finale: Destroy the Death Star (4)
        ├── Engage the enemy fighters (3)
        ├── Find a critical weakness (3) — success
        │   ├── Rescue the prisoner (2) — failure
        │   └── Deliver the "schematics" <b>now</b> & #35; [x]; `code` (2) — success
        │       └── Find the old hermit (1) — success
        └── Use the Force (3) — available
            └── Train with the master (2)
    "#]]
    .assert_eq(&tree(&example()));
}

#[test]
fn mermaid_of_the_example_outline() {
    expect![[r#"
        graph TB;
          n0("Destroy the Death Star (4)");
          n0 --- n1("Engage the enemy fighters (3)");
          n0 --- n2("Find a critical weakness (3) — success");
          n2 --- n4("Rescue the prisoner (2) — failure");
          n2 --- n5("Deliver the #quot;schematics#quot; #lt;b#gt;now#lt;/b#gt; #amp; #35;35#59; [x]#59; #96;code#96; (2) — success");
          n5 --- n7("Find the old hermit (1) — success");
          n0 --- n3("Use the Force (3) — available");
          n3 --- n6("Train with the master (2)");
    "#]]
    .assert_eq(&mermaid(&example()));
}

#[test]
fn the_seeds_outline_without_notes() {
    let plain: Vec<ViewScene> = example()
        .into_iter()
        .map(|s| ViewScene { note: None, ..s })
        .collect();
    expect![[r#"
        Finale: Destroy the Death Star (4)
        ├── Engage the enemy fighters (3)
        ├── Find a critical weakness (3)
        │   ├── Rescue the prisoner (2)
        │   └── Deliver the "schematics" <b>now</b> & #35; [x]; `code` (2)
        │       └── Find the old hermit (1)
        └── Use the Force (3)
            └── Train with the master (2)
    "#]]
    .assert_eq(&tree(&plain));
}

#[test]
fn empty_and_single_outlines() {
    assert_eq!(tree(&[]), "");
    assert_eq!(mermaid(&[]), "graph TB;\n");
    let one = [view("Stop the flood", 5, None, None)];
    assert_eq!(tree(&one), "Finale: Stop the flood (5)\n");
    assert_eq!(mermaid(&one), "graph TB;\n  n0(\"Stop the flood (5)\");\n");
}

#[test]
fn broken_outlines_still_show_every_scene_once() {
    // A parent out of range, a scene that is its own parent, and a cycle of two.
    let scenes = [
        view("Finale", 4, None, None),
        view("Orphan", 3, Some(9), None),
        view("Selfish", 3, Some(2), None),
        view("Ping", 3, Some(4), None),
        view("Pong", 2, Some(3), None),
        view("Under the orphan", 2, Some(1), None),
    ];
    let mut shown: Vec<usize> = tree_lines(&scenes).iter().map(|l| l.scene).collect();
    shown.sort();
    assert_eq!(shown, [0, 1, 2, 3, 4, 5]);
    expect![[r#"
        Finale: Finale (4)
        Orphan (3)
        └── Under the orphan (2)
        Selfish (3)
        Ping (3)
        └── Pong (2)
    "#]]
    .assert_eq(&tree(&scenes));
    expect![[r#"
        graph TB;
          n0("Finale (4)");
          n1("Orphan (3)");
          n1 --- n5("Under the orphan (2)");
          n2("Selfish (3)");
          n3("Ping (3)");
          n3 --- n4("Pong (2)");
    "#]]
    .assert_eq(&mermaid(&scenes));
}
