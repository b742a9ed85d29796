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

/// Width, height and gaps of a scene's box in [`svg`], in px.
const BOX_W: usize = 170;
const BOX_H: usize = 74;
const GAP_X: usize = 16;
const GAP_Y: usize = 34;
/// Characters on one line of a box, and lines of the objective (the rest is cut with `…`).
const BOX_CHARS: usize = 24;
const BOX_LINES: usize = 3;

/// The outline as an SVG picture (for the printable page): Finale at the top, each scene's
/// precursors below it, a box per scene with its objective, difficulty and note, a line from
/// each parent down to its precursors. Leaves take consecutive columns and a parent sits over
/// the middle of its precursors. User text is escaped for XML. Linear in the scenes, like the
/// other views; deep outlines are drawn as deep as they go.
pub fn svg(scenes: &[ViewScene]) -> String {
    let visits = walk(scenes);
    let n = scenes.len();
    // The walk is depth first (a scene, then its precursors): a scene's subtree is the run of
    // visits after it that are deeper, so columns come from one pass back to front.
    let mut column = vec![0.0f64; n];
    let mut depth_of = vec![0usize; n];
    let mut next_leaf = 0.0f64;
    let mut first_child: Vec<Option<usize>> = vec![None; n];
    let mut last_child: Vec<Option<usize>> = vec![None; n];
    let mut stack: Vec<usize> = Vec::new();
    let mut parent_in_walk = vec![None; n];
    for v in &visits {
        stack.truncate(v.depth);
        if let Some(&p) = stack.last() {
            parent_in_walk[v.scene] = Some(p);
            if first_child[p].is_none() {
                first_child[p] = Some(v.scene);
            }
            last_child[p] = Some(v.scene);
        }
        depth_of[v.scene] = v.depth;
        stack.push(v.scene);
    }
    // Leaves in walk order get the next column; parents are placed once their subtree is.
    for v in &visits {
        if first_child[v.scene].is_none() {
            column[v.scene] = next_leaf;
            next_leaf += 1.0;
        }
    }
    for v in visits.iter().rev() {
        if let (Some(a), Some(b)) = (first_child[v.scene], last_child[v.scene]) {
            column[v.scene] = (column[a] + column[b]) / 2.0;
        }
    }
    let deepest = depth_of.iter().copied().max().unwrap_or(0);
    let width = (next_leaf.max(1.0) as usize) * (BOX_W + GAP_X) + GAP_X;
    let height = (deepest + 1) * (BOX_H + GAP_Y) + GAP_Y;
    let x = |i: usize| GAP_X as f64 + column[i] * (BOX_W + GAP_X) as f64;
    let y = |i: usize| (GAP_Y + depth_of[i] * (BOX_H + GAP_Y)) as f64;
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"outline\" viewBox=\"0 0 {width} {height}\" width=\"{width}\" height=\"{height}\" role=\"img\" aria-label=\"The outline: {n} scenes, the Finale on top\">\n"
    );
    for v in &visits {
        if let Some(p) = parent_in_walk[v.scene] {
            writeln!(
                out,
                "<line x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\"/>",
                x(p) + BOX_W as f64 / 2.0,
                y(p) + BOX_H as f64,
                x(v.scene) + BOX_W as f64 / 2.0,
                y(v.scene)
            )
            .unwrap();
        }
    }
    for v in &visits {
        let scene = &scenes[v.scene];
        let (bx, by) = (x(v.scene), y(v.scene));
        writeln!(
            out,
            "<g class=\"scene\"><rect x=\"{bx:.1}\" y=\"{by:.1}\" width=\"{BOX_W}\" height=\"{BOX_H}\" rx=\"4\"/>"
        )
        .unwrap();
        for (k, line) in box_lines(&scene.label).iter().enumerate() {
            writeln!(
                out,
                "<text x=\"{:.1}\" y=\"{:.1}\">{}</text>",
                bx + 8.0,
                by + 17.0 + 15.0 * k as f64,
                xml_text(line)
            )
            .unwrap();
        }
        let mut foot = format!("difficulty {}", scene.difficulty);
        if let Some(note) = &scene.note {
            write!(foot, " · {}", one_line(note)).unwrap();
        }
        writeln!(
            out,
            "<text class=\"note\" x=\"{:.1}\" y=\"{:.1}\">{}</text></g>",
            bx + 8.0,
            by + BOX_H as f64 - 8.0,
            xml_text(&cut(&foot, BOX_CHARS + 4))
        )
        .unwrap();
    }
    out.push_str("</svg>\n");
    out
}

/// An objective in at most [`BOX_LINES`] lines of [`BOX_CHARS`], broken between words.
fn box_lines(label: &str) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut current = String::new();
    for word in one_line(label).split(' ') {
        let word = cut(word, BOX_CHARS);
        let len = current.chars().count();
        if len > 0 && len + 1 + word.chars().count() > BOX_CHARS {
            lines.push(std::mem::take(&mut current));
        }
        if !current.is_empty() {
            current.push(' ');
        }
        current.push_str(&word);
    }
    if !current.is_empty() {
        lines.push(current);
    }
    if lines.len() > BOX_LINES {
        lines.truncate(BOX_LINES);
        let last = cut(&lines[BOX_LINES - 1], BOX_CHARS - 1);
        lines[BOX_LINES - 1] = format!("{}…", last.trim_end_matches('…'));
    }
    lines
}

/// `text` cut to `most` characters, ending in `…` when cut.
fn cut(text: &str, most: usize) -> String {
    if text.chars().count() <= most {
        return text.to_owned();
    }
    let kept: String = text.chars().take(most.saturating_sub(1)).collect();
    format!("{kept}…")
}

/// Text for an XML element: `&`, `<` and `>` escaped.
fn xml_text(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
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

#[cfg(test)]
mod svg_tests {
    use super::*;

    fn scene(label: &str, difficulty: u32, parent: Option<usize>) -> ViewScene {
        ViewScene {
            label: label.to_owned(),
            difficulty,
            parent,
            note: None,
        }
    }

    #[test]
    fn the_outline_is_drawn_finale_on_top_parents_over_their_precursors() {
        let scenes = [
            scene("Silence the <drowned> bell & more", 4, None),
            scene("Steal the chart", 3, Some(0)),
            scene("Bribe the keeper", 3, Some(0)),
        ];
        let svg = svg(&scenes);
        assert_eq!(svg.matches("<rect").count(), 3);
        assert_eq!(svg.matches("<line").count(), 2);
        assert!(svg.contains(">Silence the &lt;drowned&gt;</text>"), "{svg}");
        assert!(svg.contains(">bell &amp; more</text>"), "{svg}");
        assert!(!svg.contains("<drowned>"));
        // The Finale sits halfway between its two precursors, a row above them.
        let xs: Vec<f64> = svg
            .match_indices("<rect x=\"")
            .map(|(i, m)| {
                let rest = &svg[i + m.len()..];
                rest[..rest.find('"').unwrap()].parse().unwrap()
            })
            .collect();
        assert_eq!(xs[0], (xs[1] + xs[2]) / 2.0);
        assert!(svg.contains("difficulty 4"));
    }

    #[test]
    fn long_objectives_are_cut_and_odd_outlines_still_drawn() {
        let long = "word ".repeat(60);
        let scenes = [scene(&long, 4, Some(1)), scene("b", 3, Some(0))];
        let svg = svg(&scenes);
        assert_eq!(
            svg.matches("<rect").count(),
            2,
            "a cycle is drawn once each"
        );
        assert!(svg.contains('…'));
        assert!(svg.matches("<text").count() <= 2 * (BOX_LINES + 1));
    }
}
