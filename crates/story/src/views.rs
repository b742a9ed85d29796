//! An outline drawn as text: a box-drawing tree, Finale first, or a Mermaid flowchart. Used for
//! plans, live games and the Markdown export alike, so it takes plain [`ViewScene`]s.
//!
//! The views never fail and never loop: a scene whose parent is missing or out of range is drawn
//! as a root of its own, and scenes caught in a cycle of parents are drawn from the lowest index
//! of each cycle, so every scene appears exactly once whatever the input. They take time and
//! memory linear in the scenes, however deep the outline (see [`MAX_DRAWN_LEVELS`]).

use std::fmt::Write;

/// One scene as the views show it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ViewScene {
    /// The scene's objective, as the players wrote it (any text: the views make it safe).
    pub label: String,
    /// The difficulty rating, shown in parentheses as in the rules' own diagrams.
    pub difficulty: u32,
    /// The index of the scene this one is a precursor of; `None` for the Finale.
    pub parent: Option<usize>,
    /// Shown after the difficulty: "success", "failure", "available", odds…
    pub note: Option<String>,
}

/// One line of the tree: which scene, and the drawing in front of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TreeLine {
    /// The scene's index.
    pub scene: usize,
    /// The box drawing before the title (`"│   ├── "`); empty for a root.
    pub prefix: String,
    /// The label on one line, with `Finale: ` in front of the Finale's.
    pub title: String,
}

/// How many levels of box drawing a line shows. An outline by the rules is five levels deep at
/// most; a crafted one can be thousands, and drawing every level would make the text grow with
/// the square of the depth (a chain of 20,000 scenes: gigabytes). A deeper line keeps the drawing
/// of its last levels behind a `…` that stands for the levels left out, so each line is at most
/// this many columns of drawing wide and the views stay linear in the number of scenes.
pub const MAX_DRAWN_LEVELS: usize = 32;

/// One step of the walk: a scene, its depth in the drawing, and whether it is the last of its
/// parent's precursors drawn there.
struct Visit {
    scene: usize,
    depth: usize,
    last: bool,
}

/// The scenes in tree order: roots in index order, each followed by its precursors in index
/// order, then whatever a cycle kept out of reach. Iterative, so no depth overflows the stack.
fn walk(scenes: &[ViewScene]) -> Vec<Visit> {
    let n = scenes.len();
    let parent_of = |i: usize| scenes[i].parent.filter(|&p| p < n && p != i);
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); n];
    for i in 0..n {
        if let Some(p) = parent_of(i) {
            children[p].push(i);
        }
    }
    let mut visits = Vec::with_capacity(n);
    let mut drawn = vec![false; n];
    let roots = (0..n).filter(|&i| parent_of(i).is_none());
    let mut stack: Vec<Visit> = Vec::new();
    for root in roots.chain(0..n) {
        if drawn[root] {
            continue;
        }
        stack.push(Visit {
            scene: root,
            depth: 0,
            last: true,
        });
        while let Some(visit) = stack.pop() {
            if drawn[visit.scene] {
                continue;
            }
            drawn[visit.scene] = true;
            let kids: Vec<usize> = children[visit.scene]
                .iter()
                .copied()
                .filter(|&c| !drawn[c])
                .collect();
            for (k, &child) in kids.iter().enumerate().rev() {
                stack.push(Visit {
                    scene: child,
                    depth: visit.depth + 1,
                    last: k + 1 == kids.len(),
                });
            }
            visits.push(visit);
        }
    }
    visits
}

/// The scenes in tree order (each followed by its precursors, in index order) with their
/// drawing, for callers that add columns of their own. A line deeper than
/// [`MAX_DRAWN_LEVELS`] shows only its last levels, after a `…`.
pub fn tree_lines(scenes: &[ViewScene]) -> Vec<TreeLine> {
    tree_lines_rooted(scenes, "Finale")
}

/// [`tree_lines`] with the root's word of another game (Temporal Mechanics: `Climax`).
pub fn tree_lines_rooted(scenes: &[ViewScene], root: &str) -> Vec<TreeLine> {
    let visits = walk(scenes);
    let mut lines = Vec::with_capacity(visits.len());
    // `rails[k]`: whether the ancestor `k + 1` levels below the root has precursors drawn after
    // it, so that its column carries on (`│`). The walk is depth first, so the ancestors of a
    // line are the last scenes seen at each level above it.
    let mut rails: Vec<bool> = Vec::new();
    for Visit { scene, depth, last } in visits {
        rails.truncate(depth.saturating_sub(1));
        let mut prefix = String::new();
        if depth > 0 {
            let shown = depth.min(MAX_DRAWN_LEVELS) - 1;
            if depth > MAX_DRAWN_LEVELS {
                prefix.push('…');
            }
            for &rail in &rails[rails.len() - shown..] {
                prefix.push_str(if rail { "│   " } else { "    " });
            }
            prefix.push_str(if last { "└── " } else { "├── " });
            rails.push(!last);
        }
        let label = one_line(&scenes[scene].label);
        let title = if scenes[scene].parent.is_none() {
            format!("{root}: {label}")
        } else {
            label
        };
        lines.push(TreeLine {
            scene,
            prefix,
            title,
        });
    }
    lines
}

/// The outline as an indented tree, Finale first, one scene per line:
///
/// ```text
/// Finale: Destroy the Death Star (4)
/// ├── Engage the enemy fighters (3)
/// └── Use the Force (3) — success
/// ```
pub fn tree(scenes: &[ViewScene]) -> String {
    tree_rooted(scenes, "Finale")
}

/// [`tree`] with the root's word of another game (Temporal Mechanics: `Climax`).
pub fn tree_rooted(scenes: &[ViewScene], root: &str) -> String {
    let mut out = String::new();
    for line in tree_lines_rooted(scenes, root) {
        let scene = &scenes[line.scene];
        write!(out, "{}{} ({})", line.prefix, line.title, scene.difficulty).unwrap();
        if let Some(note) = &scene.note {
            write!(out, " — {}", one_line(note)).unwrap();
        }
        out.push('\n');
    }
    out
}

/// The outline as a Mermaid flowchart in the style of the rules' own example: Finale at the top,
/// node `n<index>` per scene, an edge from each parent down to each precursor. User text is
/// escaped with Mermaid's entity codes, so quotes, brackets or HTML in an objective stay text.
pub fn mermaid(scenes: &[ViewScene]) -> String {
    let mut out = String::from("graph TB;\n");
    for Visit {
        scene: i, depth, ..
    } in walk(scenes)
    {
        let scene = &scenes[i];
        let mut text = format!("{} ({})", scene.label, scene.difficulty);
        if let Some(note) = &scene.note {
            write!(text, " — {note}").unwrap();
        }
        let node = format!("n{i}(\"{}\")", mermaid_text(&text));
        match scene.parent {
            // Below the root, a scene was reached from its parent.
            Some(parent) if depth > 0 => writeln!(out, "  n{parent} --- {node};").unwrap(),
            _ => writeln!(out, "  {node};").unwrap(),
        }
    }
    out
}

/// Text on one line: control characters (newlines, tabs…) become spaces and runs of white space
/// one space, so a label cannot break a line-oriented view.
pub fn one_line(text: &str) -> String {
    let spaced: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    spaced.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Text for inside a quoted Mermaid label. `#` is escaped first (it starts Mermaid's entity
/// codes), then every character that could end the string, start markup or a statement.
fn mermaid_text(text: &str) -> String {
    let mut out = String::new();
    for c in one_line(text).chars() {
        match c {
            '#' => out.push_str("#35;"),
            '"' => out.push_str("#quot;"),
            '<' => out.push_str("#lt;"),
            '>' => out.push_str("#gt;"),
            '&' => out.push_str("#amp;"),
            '`' => out.push_str("#96;"),
            ';' => out.push_str("#59;"),
            _ => out.push(c),
        }
    }
    out
}
