//! A game, finished or running, as Markdown: the prophecy, the characters and their aspects,
//! the world's objects, the outline (a Mermaid diagram), every scene with its setting, pairs,
//! each die with its cause, the outcome and the narration.
//!
//! Players' text is escaped so it reads as written and cannot turn into markup or HTML where
//! the Markdown is rendered. Flagged text is left out, as it is hidden at the table.

use crate::ids::{AspectId, ObjectId, SceneId};
use crate::model::{ObjectKind, Prophecy, ProphecySource, Scene, TextRef};
use crate::state::{State, level_at_depth, temporal_level_at_depth};
use crate::views::{self, ViewScene};
use dice::check::{Cause, Outcome, PoolEntry};
use std::collections::BTreeSet;
use std::fmt::Write;

const HIDDEN: &str = "*(flagged: hidden until replaced)*";

/// Escapes a player's text for Markdown: markup characters lose their meaning and HTML is shown
/// as text, wherever the text lands (a heading, a list item, a table cell, a quote). Line breaks
/// are kept; what would begin a block at the start of a line (a list item `- `, `+ ` or `1. `,
/// a heading's underline `===` or `---`) is escaped there, and the spaces that would indent a
/// line into a code block are dropped (rendered Markdown never shows them).
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    // A lone carriage return ends a line in Markdown too.
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        escape_line(line.trim_start_matches([' ', '\t']), &mut out);
    }
    out
}

/// One line of [`escape`], its indentation already dropped.
fn escape_line(line: &str, out: &mut String) {
    let digits = line.len() - line.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let rest = match line.as_bytes().first() {
        Some(b'-' | b'+' | b'=') => {
            out.push('\\');
            line
        }
        // An ordered list's number: `1.` or `1)`.
        Some(b'0'..=b'9') if matches!(line.as_bytes().get(digits), Some(b'.' | b')')) => {
            out.push_str(&line[..digits]);
            out.push('\\');
            &line[digits..]
        }
        _ => line,
    };
    for c in rest.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\\' | '`' | '*' | '_' | '[' | ']' | '#' | '|' | '~' | '!' => {
                out.push('\\');
                out.push(c);
            }
            _ => out.push(c),
        }
    }
}

/// Escaped text on one line (for headings, list items and table cells).
pub fn escape_inline(text: &str) -> String {
    escape(&views::one_line(text))
}

/// Text as a block quote, one `>` per line.
fn quote(text: &str) -> String {
    escape(text)
        .lines()
        .map(|l| {
            if l.trim().is_empty() {
                ">".to_owned()
            } else {
                format!("> {l}")
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

struct Export<'a> {
    state: &'a State,
    out: String,
    /// The table's lines go in: the players' own copy has them, a published page does not.
    lines: bool,
}

/// The outline as an SVG picture ([`views::svg`]), flagged objectives left out as in the
/// Markdown; `None` without an outline.
pub fn outline_svg(state: &State) -> Option<String> {
    let (_, views) = outline_view(state);
    (!views.is_empty()).then(|| views::svg(&views))
}

/// The whole game as a Markdown document. Total whatever the log (a missing player, object,
/// aspect, scene or pair is shown as missing, and only scenes reachable from the Finale are in
/// the outline), and for a state built by [`crate::evolve`] linear, up to logarithms, in its
/// size however deep the outline.
pub fn to_markdown(state: &State) -> String {
    document(state, true)
}

/// The story as it is published for anyone with its link: [`to_markdown`] without the table's
/// lines. What a group agreed to leave out is said among themselves, not to strangers (a line
/// names the very content someone asked to keep away).
pub fn to_published_markdown(state: &State) -> String {
    document(state, false)
}

fn document(state: &State, lines: bool) -> String {
    let mut export = Export {
        state,
        out: String::new(),
        lines,
    };
    export.document();
    export.out
}

/// A scene of the outline in tree order.
struct Placed<'a> {
    id: SceneId,
    scene: &'a Scene,
    /// The index of the scene it was reached from (its parent); `None` for the Finale.
    parent: Option<usize>,
    /// Edges below the Finale.
    depth: u32,
}

/// The scenes reachable from the Finale through precursors, in tree order, each once. One
/// iterative walk, linear in the scenes: no depth overflows the stack, and no cycle or
/// repeated precursor (only a crafted log has one) loops or repeats a scene.
fn placed(state: &State) -> Vec<Placed<'_>> {
    let mut placed: Vec<Placed> = Vec::new();
    let mut seen = BTreeSet::new();
    let mut stack: Vec<(SceneId, Option<usize>)> =
        state.finale.map(|f| (f, None)).into_iter().collect();
    while let Some((id, parent)) = stack.pop() {
        let Some(scene) = state.scenes.get(&id) else {
            continue;
        };
        if !seen.insert(id) {
            continue;
        }
        let depth = parent.map_or(0, |p: usize| placed[p].depth.saturating_add(1));
        let index = placed.len();
        placed.push(Placed {
            id,
            scene,
            parent,
            depth,
        });
        stack.extend(scene.precursors.iter().rev().map(|p| (*p, Some(index))));
    }
    placed
}

/// The outline's scenes in tree order (Finale first, precursors in the order sketched), for
/// views of a live game.
pub fn outline_view(state: &State) -> (Vec<SceneId>, Vec<ViewScene>) {
    let placed = placed(state);
    // Once, not per scene: it walks every scene's precursors.
    let available: BTreeSet<SceneId> = state.available_scenes().into_iter().collect();
    let views = placed
        .iter()
        .map(
            |&Placed {
                 ref id,
                 scene,
                 parent,
                 ..
             }| {
                let label = if state.is_flagged(TextRef::Objective(*id)) {
                    "(flagged)".to_owned()
                } else {
                    scene.objective.clone()
                };
                let note = match scene.outcome() {
                    Some(Outcome::Success) => Some("success".to_owned()),
                    Some(Outcome::Failure) => Some("failure".to_owned()),
                    None if state.in_progress == Some(*id) => Some("being performed".to_owned()),
                    None if available.contains(id) => Some("available".to_owned()),
                    None => None,
                };
                ViewScene {
                    label,
                    difficulty: scene.difficulty,
                    parent,
                    note,
                }
            },
        )
        .collect();
    (placed.iter().map(|p| p.id).collect(), views)
}

impl Export<'_> {
    fn line(&mut self, text: impl AsRef<str>) {
        self.out.push_str(text.as_ref());
        self.out.push('\n');
    }

    fn text_or_hidden(&self, target: TextRef, text: &str) -> String {
        if self.state.is_flagged(target) {
            HIDDEN.to_owned()
        } else {
            escape_inline(text)
        }
    }

    fn object_name(&self, id: ObjectId) -> String {
        match self.state.objects.get(&id) {
            Some(o) => self.text_or_hidden(TextRef::ObjectName(id), &o.name),
            None => "(removed)".to_owned(),
        }
    }

    fn aspect_text(&self, id: AspectId) -> String {
        match self.state.aspects.get(&id) {
            Some(a) => self.text_or_hidden(TextRef::Aspect(id), &a.text),
            None => "(removed)".to_owned(),
        }
    }

    fn document(&mut self) {
        let s = self.state;
        let title = match &s.prophecy {
            Some(Prophecy {
                source: ProphecySource::Module { title },
                ..
            }) => escape_inline(title),
            Some(Prophecy {
                source: ProphecySource::Catastrophe { world, .. },
                ..
            }) if s.ruleset.is_temporal() => format!("A timeline of {}", escape_inline(world)),
            Some(Prophecy {
                source: ProphecySource::Catastrophe { world, .. },
                ..
            }) => {
                format!("A prophecy of {}", escape_inline(world))
            }
            _ if s.ruleset.is_temporal() => "A broken timeline".to_owned(),
            _ => "A prophecy".to_owned(),
        };
        self.line(format!("# {title}"));
        self.line("");
        let players: Vec<String> = s
            .playing()
            .map(|(id, p)| match s.character_of(id) {
                Some(c) => format!("{} as {}", escape_inline(&p.name), self.object_name(c)),
                None => escape_inline(&p.name),
            })
            .collect();
        let mut table = format!("Played by the rules of {}", s.ruleset);
        if !players.is_empty() {
            write!(table, ": {}", players.join(", ")).unwrap();
        }
        if let Some(m) = s.moderator.and_then(|m| s.players.get(&m)) {
            write!(table, "; moderated by {}", escape_inline(&m.name)).unwrap();
        }
        self.line(format!("*{table}. Phase: {}.*", s.phase.name_in(s.ruleset)));
        self.line("");
        self.prophecy();
        if s.ruleset.is_temporal() {
            self.narration_section("The Flashback", TextRef::Flashback, s.flashback.as_deref());
        }
        self.characters();
        self.objects();
        self.outline();
        self.scenes();
        let effects = if s.ruleset.is_temporal() {
            "The Flashforward"
        } else {
            "Long-term effects"
        };
        self.narration_section(
            effects,
            TextRef::LongTermEffects,
            s.long_term_effects.as_deref(),
        );
        if self.lines && !s.lines.is_empty() {
            self.line("## Lines");
            self.line("");
            self.line("Content the table agreed to leave out:");
            self.line("");
            for text in s.lines.values() {
                self.line(format!("- {}", escape_inline(text)));
            }
            self.line("");
        }
    }

    fn prophecy(&mut self) {
        // Temporal Mechanics asks for no prophecy; a world's or module's warning is optional.
        let temporal = self.state.ruleset.is_temporal();
        if temporal && self.state.prophecy.is_none() {
            return;
        }
        self.line(if temporal {
            "## The Warning"
        } else {
            "## The Prophecy"
        });
        self.line("");
        let Some(p) = &self.state.prophecy else {
            self.line("*Not yet received.*");
            self.line("");
            return;
        };
        if self.state.is_flagged(TextRef::Prophecy) {
            self.line(HIDDEN);
        } else {
            self.line(quote(&p.text));
        }
        self.line("");
        let source = match &p.source {
            ProphecySource::Catastrophe { world, roll, seed } => format!(
                "*Rolled {roll} (seed {seed}) on the catastrophe table of {}.*",
                escape_inline(world)
            ),
            ProphecySource::Module { title } => {
                format!("*From the module {}.*", escape_inline(title))
            }
            ProphecySource::Written => "*Written by the players.*".to_owned(),
        };
        self.line(source);
        self.line("");
    }

    fn narration_section(&mut self, title: &str, target: TextRef, text: Option<&str>) {
        let Some(text) = text else { return };
        self.line(format!("## {title}"));
        self.line("");
        if self.state.is_flagged(target) {
            self.line(HIDDEN);
        } else {
            self.line(quote(text));
        }
        self.line("");
    }

    fn characters(&mut self) {
        let s = self.state;
        let characters: Vec<ObjectId> = s
            .objects
            .iter()
            .filter(|(_, o)| o.kind.is_character())
            .map(|(id, _)| *id)
            .collect();
        if characters.is_empty() {
            return;
        }
        self.line("## Characters");
        self.line("");
        for id in characters {
            let player = match s.objects.get(&id).map(|o| o.kind) {
                Some(ObjectKind::Character { player: Some(p) }) => match s.players.get(&p) {
                    Some(player) => format!(" (played by {})", escape_inline(&player.name)),
                    None => String::new(),
                },
                _ => String::new(),
            };
            self.line(format!("### {}{player}", self.object_name(id)));
            self.line("");
            let mut aspects: Vec<(AspectId, &crate::model::Aspect)> = s.aspects_of(id).collect();
            aspects.sort_by_key(|(aid, a)| (a.category.map_or(5, |c| c.index()), *aid));
            for (aid, aspect) in aspects {
                let label = match aspect.category {
                    Some(crate::model::AspectCategory::Relationship { with }) => {
                        format!("**Relationship** (with {}): ", self.object_name(with))
                    }
                    Some(c) => format!("**{}:** ", c.name()),
                    None => String::new(),
                };
                self.line(format!("- {label}{}", self.aspect_text(aid)));
            }
            self.line("");
        }
    }

    fn objects(&mut self) {
        let s = self.state;
        let objects: Vec<ObjectId> = s
            .objects
            .iter()
            .filter(|(_, o)| !o.kind.is_character())
            .map(|(id, _)| *id)
            .collect();
        if objects.is_empty() {
            return;
        }
        self.line("## People, places and things");
        self.line("");
        for id in objects {
            let aspects: Vec<String> = s
                .aspects_of(id)
                .map(|(aid, _)| self.aspect_text(aid))
                .collect();
            let kind = s.objects.get(&id).map_or("object", |o| o.kind.label());
            let list = if aspects.is_empty() {
                String::new()
            } else {
                format!(": {}", aspects.join("; "))
            };
            self.line(format!("- **{}** ({kind}){list}", self.object_name(id)));
        }
        self.line("");
    }

    fn outline(&mut self) {
        let (_, views) = outline_view(self.state);
        if views.is_empty() {
            return;
        }
        self.line(if self.state.ruleset.is_temporal() {
            "## The Story Tree"
        } else {
            "## The Outline"
        });
        self.line("");
        self.line("```mermaid");
        self.out.push_str(&views::mermaid(&views));
        if !self.out.ends_with('\n') {
            self.out.push('\n');
        }
        self.line("```");
        self.line("");
        for warning in self.state.warnings() {
            if let crate::model::Warning::LongOutline { .. } = warning {
                self.line(format!("*{warning}*"));
                self.line("");
            }
        }
    }

    /// Scenes in the order they were performed, then the rest in outline order.
    fn scenes(&mut self) {
        let s = self.state;
        // Scenes of the outline, with their depth from the one walk (not one walk up the
        // outline per scene, which is quadratic in a deep outline).
        let order = placed(s);
        let mut started: Vec<&Placed> = order
            .iter()
            .filter(|p| p.scene.started_at.is_some())
            .collect();
        started.sort_by_key(|p| p.scene.started_at);
        if started.is_empty() {
            return;
        }
        self.line("## The Story");
        self.line("");
        for (n, p) in started.iter().enumerate() {
            let level = if s.ruleset.is_temporal() {
                temporal_level_at_depth(p.depth)
            } else {
                level_at_depth(p.depth)
            };
            self.scene(n + 1, p.id, p.scene, level);
        }
        let waiting: Vec<String> = order
            .iter()
            .filter(|p| p.scene.started_at.is_none())
            .map(|p| self.text_or_hidden(TextRef::Objective(p.id), &p.scene.objective))
            .collect();
        if !waiting.is_empty() {
            self.line(format!("*Not yet performed: {}.*", waiting.join("; ")));
            self.line("");
        }
    }

    fn scene(&mut self, n: usize, id: SceneId, scene: &Scene, level: &str) {
        let s = self.state;
        let outcome = match scene.outcome() {
            Some(Outcome::Success) => " — success",
            Some(Outcome::Failure) => " — failure",
            None => "",
        };
        self.line(format!(
            "### {n}. {level}: {} (difficulty {}){outcome}",
            self.text_or_hidden(TextRef::Objective(id), &scene.objective),
            scene.difficulty
        ));
        self.line("");
        let setting = &scene.setting;
        let when_where: Vec<&str> = [setting.time.as_str(), setting.place.as_str()]
            .into_iter()
            .filter(|t| !t.is_empty())
            .collect();
        if !when_where.is_empty() {
            let text = if s.is_flagged(TextRef::Setting(id)) {
                HIDDEN.to_owned()
            } else {
                escape_inline(&when_where.join(", "))
            };
            self.line(format!("*Setting:* {text}."));
            self.line("");
        }
        if !setting.objects.is_empty() {
            let present: Vec<String> = setting
                .objects
                .iter()
                .map(|o| self.object_name(*o))
                .collect();
            self.line(format!("*Present:* {}.", present.join(", ")));
            self.line("");
        }
        if !scene.pairs.is_empty() {
            self.line("**Matching pairs**");
            self.line("");
            for pair_id in &scene.pairs {
                let Some(pair) = s.pairs.get(pair_id) else {
                    self.line(format!("- *({pair_id}: withdrawn)*"));
                    continue;
                };
                let justification = if pair.justification.is_empty() {
                    String::new()
                } else {
                    format!(
                        ": {}",
                        self.text_or_hidden(TextRef::Justification(*pair_id), &pair.justification)
                    )
                };
                let by = s
                    .players
                    .get(&pair.proposed_by)
                    .map(|p| escape_inline(&p.name))
                    .unwrap_or_default();
                self.line(format!(
                    "- {} + {}{justification} *(proposed by {by})*",
                    self.aspect_text(pair.character_aspect),
                    self.aspect_text(pair.environment_aspect)
                ));
            }
            self.line("");
        }
        if let Some(check) = &scene.check {
            let dice = check.roll.dice.len();
            self.line(format!(
                "**The check:** {} {} in the pool against difficulty {}{}.",
                check.roll.pool().len(),
                if check.roll.pool().len() == 1 {
                    "die"
                } else {
                    "dice"
                },
                check.difficulty,
                if check.physical {
                    ", rolled with real dice at the table and typed in"
                } else {
                    ""
                }
            ));
            self.line("");
            if dice > 0 {
                self.line("| # | face | | why |");
                self.line("|---|---|---|---|");
                for (i, die) in check.roll.dice.iter().enumerate() {
                    let why = match die.cause {
                        Cause::Pool(PoolEntry::MatchingPair { pair }) => {
                            match s.pairs.get(&crate::ids::PairId(pair)) {
                                Some(p) => format!(
                                    "pair: {} + {}",
                                    self.aspect_text(p.character_aspect),
                                    self.aspect_text(p.environment_aspect)
                                ),
                                None => "a matching pair".to_owned(),
                            }
                        }
                        Cause::Pool(PoolEntry::RewardDie { precursor }) => {
                            let objective = s
                                .scenes
                                .get(&SceneId(precursor))
                                .map(|p| {
                                    self.text_or_hidden(
                                        TextRef::Objective(SceneId(precursor)),
                                        &p.objective,
                                    )
                                })
                                .unwrap_or_default();
                            format!("reward die: {objective}")
                        }
                        Cause::Pool(PoolEntry::Die) => "pool".to_owned(),
                        // Wide, so that a crafted index cannot overflow.
                        Cause::ExplodedFrom(from) => {
                            format!("exploded from #{}", from as u128 + 1)
                        }
                    };
                    let hit = if die.is_hit() { "hit" } else { "miss" };
                    self.line(format!("| {} | {} | {hit} | {why} |", i + 1, die.face));
                }
                self.line("");
            }
            let hits = check.roll.hits();
            self.line(format!(
                "**Result:** {hits} {} against {}: {}.",
                if hits == 1 { "hit" } else { "hits" },
                check.difficulty,
                check.outcome
            ));
            self.line("");
        }
        if let Some(narration) = &scene.narration {
            self.line("**What happened**");
            self.line("");
            if s.is_flagged(TextRef::Narration(id)) {
                self.line(HIDDEN);
            } else {
                self.line(quote(narration));
            }
            self.line("");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn markup_and_html_are_text() {
        assert_eq!(
            escape("<b>bold</b> *x* [l](u)"),
            "&lt;b&gt;bold&lt;/b&gt; \\*x\\* \\[l\\](u)"
        );
        assert_eq!(escape("a | b"), "a \\| b");
    }

    #[test]
    fn what_would_begin_a_block_is_escaped_at_the_start_of_a_line() {
        assert_eq!(
            escape("- a\n+ b\n1. c\n12) d"),
            "\\- a\n\\+ b\n1\\. c\n12\\) d"
        );
        assert_eq!(escape("Title\n===\n---"), "Title\n\\===\n\\---");
        assert_eq!(escape("    code\n\t> quote"), "code\n&gt; quote");
        assert_eq!(escape("a\r- b"), "a\n\\- b");
        // Only at the start: inside a line they are plain.
        assert_eq!(escape("a - b + c 1. d 2 = 2"), "a - b + c 1. d 2 = 2");
        assert_eq!(escape("1984 was a year"), "1984 was a year");
    }
}
