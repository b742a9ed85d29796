//! The story game's content and stored games: `worlds`, `modules`, `catastrophe`, `export`.

use super::{JsonSeed, json, seed_or_fresh};
use crate::Failure;
use crate::cli::{CatastropheArgs, ContentArgs, ContentSource, ExportArgs, ExportFormat};
use serde::Serialize;
use std::fmt::Write;
use std::io::Read;
use std::path::Path;
use story::content::{Library, World};
use story::{Event, State, StoredEvent};

/// Largest file read: a content file, or a stored game.
const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// Reads a file the user named, with one-line errors: a regular file only (a folder, a FIFO
/// or a device is refused unread, see [`crate::files`]), of at most [`MAX_FILE_BYTES`], counted
/// as they arrive (reading stops one byte past the limit, whatever size was reported).
fn read(path: &Path) -> Result<String, Failure> {
    let shown = shown(path);
    let fail = |reason: String| Failure::Usage(format!("{shown}: {reason}"));
    let file = crate::files::open_regular(path).map_err(|e| fail(io_reason(&e)))?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| fail(io_reason(&e)))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(fail(format!(
            "larger than {} MiB",
            MAX_FILE_BYTES / 1024 / 1024
        )));
    }
    String::from_utf8(bytes).map_err(|e| {
        let valid = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let line = valid.iter().filter(|b| **b == b'\n').count() + 1;
        Failure::Usage(format!("{shown}:{line}: not UTF-8 text"))
    })
}

const FOLDER: &str = "a folder, not a file";

/// A path for a one-line message: control characters (a newline in a file name) become `?`.
fn shown(path: &Path) -> String {
    path.display()
        .to_string()
        .chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .collect()
}

fn io_reason(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file".to_owned(),
        std::io::ErrorKind::PermissionDenied => "permission denied".to_owned(),
        std::io::ErrorKind::InvalidData => "not UTF-8 text".to_owned(),
        std::io::ErrorKind::IsADirectory => FOLDER.to_owned(),
        _ => story::views::one_line(&e.to_string()),
    }
}

/// The built-in content, with a group's own folder beside it (theirs wins on a shared slug).
fn library(source: &ContentSource) -> Result<Library, Failure> {
    let builtin = Library::builtin();
    let Some(dir) = &source.content else {
        return Ok(builtin);
    };
    let (worlds, modules) = (read_folder(dir, "worlds")?, read_folder(dir, "modules")?);
    if worlds.is_empty() && modules.is_empty() {
        return Err(Failure::Usage(format!(
            "{}: no worlds/*.toml or modules/*.toml inside",
            dir.display()
        )));
    }
    let problem =
        |e: story::content::ContentError| Failure::Usage(format!("{}/{e}", dir.display()));
    let theirs = Library::parse(&borrow(&worlds), &borrow(&modules)).map_err(problem)?;
    builtin.merged_with(theirs).map_err(problem)
}

fn borrow(files: &[(String, String)]) -> Vec<(&str, &str)> {
    files
        .iter()
        .map(|(slug, text)| (slug.as_str(), text.as_str()))
        .collect()
}

/// `(slug, text)` of every `*.toml` in `dir/sub`; none if the folder is absent.
fn read_folder(dir: &Path, sub: &str) -> Result<Vec<(String, String)>, Failure> {
    let folder = dir.join(sub);
    let entries = match std::fs::read_dir(&folder) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => {
            return Err(Failure::Usage(format!(
                "{}: {}",
                folder.display(),
                io_reason(&e)
            )));
        }
    };
    let mut found = Vec::new();
    for entry in entries.flatten() {
        let path = entry.path();
        if path.extension().is_some_and(|x| x == "toml") {
            let slug = path
                .file_stem()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            found.push((slug, read(&path)?));
        }
    }
    Ok(found)
}

fn find_world<'a>(library: &'a Library, slug: &str) -> Result<&'a World, Failure> {
    library.world(slug).ok_or_else(|| {
        let known: Vec<&str> = library.worlds.iter().map(|w| w.slug.as_str()).collect();
        Failure::Usage(format!(
            "no world '{slug}'; the worlds are: {}",
            known.join(", ")
        ))
    })
}

#[derive(Serialize)]
struct WorldSummary<'a> {
    slug: &'a str,
    name: &'a str,
    genre: &'a str,
    temporal: bool,
    summary: &'a str,
}

pub fn worlds(args: ContentArgs) -> Result<String, Failure> {
    let library = library(&args.source)?;
    if let Some(slug) = &args.slug {
        let world = find_world(&library, slug)?;
        if args.json {
            return Ok(json(world));
        }
        let mut out = format!(
            "{} ({}{})\n{}\n\nCatastrophes (d66):\n",
            world.name,
            world.genre,
            if world.temporal {
                ", for Temporal Mechanics"
            } else {
                ""
            },
            world.summary
        );
        for roll in dice::d66::D66::all() {
            writeln!(out, "  {roll}  {}", world.catastrophe(roll)).unwrap();
        }
        return Ok(out);
    }
    let summaries: Vec<WorldSummary> = library
        .worlds
        .iter()
        .map(|w| WorldSummary {
            slug: &w.slug,
            name: &w.name,
            genre: &w.genre,
            temporal: w.temporal,
            summary: &w.summary,
        })
        .collect();
    if args.json {
        return Ok(json(&summaries));
    }
    let mut out = String::new();
    for w in &summaries {
        let temporal = if w.temporal {
            ", Temporal Mechanics"
        } else {
            ""
        };
        writeln!(out, "{:<18} {} ({}{temporal})", w.slug, w.name, w.genre).unwrap();
    }
    out.push_str(
        "Show one with: prophecy worlds SLUG; roll on its table with: prophecy catastrophe SLUG\n",
    );
    Ok(out)
}

pub fn modules(args: ContentArgs) -> Result<String, Failure> {
    let library = library(&args.source)?;
    if let Some(slug) = &args.slug {
        let module = library.module(slug).ok_or_else(|| {
            let known: Vec<&str> = library.modules.iter().map(|m| m.slug.as_str()).collect();
            Failure::Usage(format!(
                "no module '{slug}'; the modules are: {}",
                known.join(", ")
            ))
        })?;
        if args.json {
            return Ok(json(module));
        }
        return Ok(format!("{}\n\n{}\n", module.title, module.prophecy));
    }
    if args.json {
        return Ok(json(&library.modules));
    }
    let mut out = String::new();
    for m in &library.modules {
        writeln!(out, "{:<22} {}: {}", m.slug, m.title, m.summary).unwrap();
    }
    out.push_str("Read one aloud with: prophecy modules SLUG\n");
    Ok(out)
}

#[derive(Serialize)]
struct CatastropheReport<'a> {
    seed: JsonSeed,
    world: &'a str,
    roll: u8,
    catastrophe: &'a str,
}

pub fn catastrophe(args: CatastropheArgs) -> Result<String, Failure> {
    let library = library(&args.source)?;
    let world = find_world(&library, &args.world)?;
    let seed = seed_or_fresh(args.seed)?;
    let roll = dice::d66::roll(seed);
    let text = world.catastrophe(roll);
    if args.json {
        return Ok(json(&CatastropheReport {
            seed: JsonSeed(seed),
            world: &world.slug,
            roll: roll.value(),
            catastrophe: text,
        }));
    }
    Ok(format!(
        "{} — d66 rolled {roll} (seed {seed}):\n{text}\n",
        world.name
    ))
}

/// Reads a stored game, refusing with `FILE:LINE: why` a line that is not an event, or an event
/// that could not have happened (see `story::integrity`), before anything is rendered: the
/// renderers never see a state that no game could reach.
pub fn export(args: ExportArgs) -> Result<String, Failure> {
    let text = read(&args.file)?;
    let shown = shown(&args.file);
    let at = |line: usize, problem: &dyn std::fmt::Display| {
        Failure::Usage(format!("{shown}:{line}: {problem}"))
    };
    // The story game's events carry their version; the other games' files are read by the
    // web table's own adapters (server::games), whichever game wrote them.
    let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    let story =
        serde_json::from_str::<serde_json::Value>(first).is_ok_and(|v| v.get("v").is_some());
    if !story && serde_json::from_str::<serde_json::Value>(first).is_ok() {
        return other_game(&text, &shown, args.format);
    }
    let mut events: Vec<Event> = Vec::new();
    // The file's line of each event, for messages (blank lines are skipped).
    let mut lines: Vec<usize> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        events.push(stored_event(line).map_err(|problem| at(n + 1, &problem))?);
        lines.push(n + 1);
    }
    if !matches!(events.first(), Some(Event::GameOpened { .. })) {
        return Err(Failure::Usage(format!(
            "{shown}: a stored game starts with the event that opens it"
        )));
    }
    let state = State::replay_checked(&events)
        .map_err(|broken| at(lines[broken.position], &broken.problem))?;
    let outline = || story::export::outline_view(&state).1;
    if args.format != ExportFormat::Markdown && outline().is_empty() {
        return Err(Failure::Usage(format!(
            "{shown}: this story has no outline yet (no scene is set out), so there is nothing to draw; --format markdown exports the story so far"
        )));
    }
    Ok(match args.format {
        ExportFormat::Markdown => story::export::to_markdown(&state),
        ExportFormat::Tree => {
            let root = if state.ruleset.is_temporal() {
                "Climax"
            } else {
                "Finale"
            };
            story::views::tree_rooted(&outline(), root)
        }
        ExportFormat::Mermaid => story::views::mermaid(&outline()),
    })
}

/// The Markdown of a board game's or a Challenge session's file; they have no outline.
fn other_game(text: &str, shown: &str, format: ExportFormat) -> Result<String, Failure> {
    let mut lines = Vec::new();
    let mut numbers = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if !line.trim().is_empty() {
            lines.push(line.to_owned());
            numbers.push(n + 1);
        }
    }
    let markdown = server::games::file_markdown(&lines).map_err(|(line, why)| {
        let line = numbers.get(line.saturating_sub(1)).copied().unwrap_or(1);
        Failure::Usage(format!("{shown}:{line}: {why}"))
    })?;
    match format {
        ExportFormat::Markdown => Ok(markdown),
        ExportFormat::Tree | ExportFormat::Mermaid => Err(Failure::Usage(format!(
            "{shown}: only the story game has an outline; this game exports as Markdown"
        ))),
    }
}

/// One line of a stored game as an event, or why it is not one, in the words of the stored form
/// (`v`, `type`) rather than serde's.
fn stored_event(line: &str) -> Result<Event, String> {
    let Ok(value) = serde_json::from_str::<serde_json::Value>(line) else {
        return Err("not JSON".to_owned());
    };
    let not = |why: String| format!("not an event of a stored game ({why})");
    let Some(fields) = value.as_object() else {
        return Err(not("an event is a JSON object".to_owned()));
    };
    let versions = StoredEvent::versions();
    match fields.get("v") {
        None => return Err(not("no version 'v'".to_owned())),
        Some(serde_json::Value::String(v)) if versions.contains(&v.as_str()) => {}
        Some(v) => {
            return Err(not(format!(
                "unknown version '{}'; this build reads {}",
                quoted(v),
                versions.join(", ")
            )));
        }
    }
    let kind = match fields.get("type") {
        None => return Err(not("no 'type'".to_owned())),
        Some(serde_json::Value::String(t)) if Event::stored_types().contains(&t.as_str()) => {
            t.clone()
        }
        Some(t) => return Err(not(format!("unknown type '{}'", quoted(t)))),
    };
    serde_json::from_value::<StoredEvent>(value)
        .map(StoredEvent::into_event)
        .map_err(|_| {
            not(format!(
                "a '{kind}' event whose fields are missing or of the wrong kind"
            ))
        })
}

/// A value from the file, short and on one line, for a message.
fn quoted(value: &serde_json::Value) -> String {
    let text = match value {
        serde_json::Value::String(s) => story::views::one_line(s),
        other => other.to_string(),
    };
    const MAX: usize = 40;
    if text.chars().count() > MAX {
        let mut short: String = text.chars().take(MAX).collect();
        short.push('…');
        short
    } else {
        text
    }
}
