//! Worlds (with d66 catastrophe tables) and modules: the original content embedded in the
//! binary, and the same format for a group's own files (see `content/README.md`).

use dice::d66::D66;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// Longest catastrophe, in characters.
pub const MAX_CATASTROPHE_CHARS: usize = 240;
/// Longest world summary, in characters.
pub const MAX_SUMMARY_CHARS: usize = 500;
/// Longest module text, in characters.
pub const MAX_MODULE_CHARS: usize = 4_000;

/// A fictional world and its catastrophe table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct World {
    /// Its identifier (the file name without `.toml`).
    pub slug: String,
    /// Its name.
    pub name: String,
    /// A short genre label.
    pub genre: String,
    /// Two or three sentences about it.
    pub summary: String,
    /// Written for Temporal Mechanics.
    pub temporal: bool,
    /// The 36 catastrophes in d66 order: 11, 12, …, 16, 21, …, 66.
    pub catastrophes: Vec<String>,
}

impl World {
    /// The catastrophe a d66 roll picks.
    pub fn catastrophe(&self, roll: D66) -> &str {
        let index = usize::from(roll.tens - 1) * 6 + usize::from(roll.units - 1);
        &self.catastrophes[index]
    }

    /// Parses a world file (format in `content/README.md`).
    pub fn from_toml(slug: &str, text: &str) -> Result<World, ContentError> {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct File {
            name: String,
            genre: String,
            summary: String,
            temporal: bool,
            catastrophes: BTreeMap<String, String>,
        }
        let error = |message: String| ContentError {
            file: format!("worlds/{slug}.toml"),
            message,
        };
        check_slug(slug).map_err(error)?;
        let file: File = toml::from_str(text).map_err(|e| error(toml_problem(text, &e)))?;
        for (what, value) in [
            ("name", &file.name),
            ("genre", &file.genre),
            ("summary", &file.summary),
        ] {
            if value.trim().is_empty() {
                return Err(error(format!("`{what}` is empty")));
            }
        }
        if file.summary.chars().count() > MAX_SUMMARY_CHARS {
            return Err(error(format!(
                "`summary` is longer than {MAX_SUMMARY_CHARS} characters"
            )));
        }
        let mut catastrophes = Vec::with_capacity(36);
        for roll in D66::all() {
            let key = roll.to_string();
            let entry = file
                .catastrophes
                .get(&key)
                .ok_or_else(|| error(format!("the catastrophe table has no entry {key}")))?;
            if entry.trim().is_empty() {
                return Err(error(format!("catastrophe {key} is empty")));
            }
            if entry.chars().count() > MAX_CATASTROPHE_CHARS {
                return Err(error(format!(
                    "catastrophe {key} is longer than {MAX_CATASTROPHE_CHARS} characters"
                )));
            }
            catastrophes.push(entry.trim().to_owned());
        }
        if let Some(extra) = file
            .catastrophes
            .keys()
            .find(|k| D66::all().all(|roll| roll.to_string() != **k))
        {
            return Err(error(format!(
                "'{extra}' is not a d66 result (11–66, both digits 1–6)"
            )));
        }
        Ok(World {
            slug: slug.to_owned(),
            name: file.name.trim().to_owned(),
            genre: file.genre.trim().to_owned(),
            summary: file.summary.trim().to_owned(),
            temporal: file.temporal,
            catastrophes,
        })
    }
}

/// A pre-written prophecy, read aloud to start a game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Module {
    /// Its identifier (the file name without `.toml`).
    pub slug: String,
    /// Its title.
    pub title: String,
    /// The slug of the world it is set in, if any.
    pub world: Option<String>,
    /// Written for Temporal Mechanics.
    pub temporal: bool,
    /// One sentence for a menu.
    pub summary: String,
    /// The text read aloud.
    pub prophecy: String,
}

impl Module {
    /// Parses a module file (format in `content/README.md`).
    pub fn from_toml(slug: &str, text: &str) -> Result<Module, ContentError> {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct File {
            title: String,
            world: Option<String>,
            #[serde(default)]
            temporal: bool,
            summary: String,
            prophecy: String,
        }
        let error = |message: String| ContentError {
            file: format!("modules/{slug}.toml"),
            message,
        };
        check_slug(slug).map_err(error)?;
        let file: File = toml::from_str(text).map_err(|e| error(toml_problem(text, &e)))?;
        for (what, value) in [
            ("title", &file.title),
            ("summary", &file.summary),
            ("prophecy", &file.prophecy),
        ] {
            if value.trim().is_empty() {
                return Err(error(format!("`{what}` is empty")));
            }
        }
        if file.prophecy.chars().count() > MAX_MODULE_CHARS {
            return Err(error(format!(
                "`prophecy` is longer than {MAX_MODULE_CHARS} characters"
            )));
        }
        Ok(Module {
            slug: slug.to_owned(),
            title: file.title.trim().to_owned(),
            world: file.world,
            temporal: file.temporal,
            summary: file.summary.trim().to_owned(),
            prophecy: file.prophecy.trim().to_owned(),
        })
    }
}

/// Why a content file cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContentError {
    /// The file, relative to the content folder.
    pub file: String,
    /// What is wrong, in one line.
    pub message: String,
}

impl fmt::Display for ContentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.file, self.message)
    }
}

impl std::error::Error for ContentError {}

fn check_slug(slug: &str) -> Result<(), String> {
    let ok = !slug.is_empty()
        && slug
            .split('-')
            .all(|w| !w.is_empty() && w.bytes().all(|b| b.is_ascii_lowercase()));
    if ok {
        Ok(())
    } else {
        Err(format!(
            "'{slug}' is not a valid name: lowercase letters a–z in words joined by single hyphens"
        ))
    }
}

/// toml's messages span several lines (a snippet of the file); keep the message and its line.
fn toml_problem(text: &str, error: &toml::de::Error) -> String {
    let message = error.message().trim();
    match error.span() {
        Some(span) => format!("line {}: {message}", line_of(text, span.start)),
        None => message.to_owned(),
    }
}

/// The 1-based line of a byte offset.
pub(crate) fn line_of(text: &str, offset: usize) -> usize {
    text.as_bytes()[..offset.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

/// The worlds and modules a group can choose from.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Library {
    /// Worlds, by slug order.
    pub worlds: Vec<World>,
    /// Modules, by slug order.
    pub modules: Vec<Module>,
}

macro_rules! embedded {
    ($dir:literal: $($slug:literal),* $(,)?) => {
        &[$(($slug, include_str!(concat!("../content/", $dir, "/", $slug, ".toml")))),*]
    };
}

const WORLD_FILES: &[(&str, &str)] = embedded!("worlds":
    "brasswork-crown", "fault-line", "hesperus-reach", "long-dusk", "second-draft", "vael",
    "vesperlands",
);

const MODULE_FILES: &[(&str, &str)] = embedded!("modules":
    "cinder-wyrm-wakes", "eleven-seconds", "hour-of-conjunction", "last-water", "nineteen-days",
    "orchard-at-worlds-end", "spillway", "static-from-tomorrow", "thirteenth-bell",
);

impl Library {
    /// The content that ships with the program (checked by tests, so parsing cannot fail).
    pub fn builtin() -> Library {
        Library::from_files(WORLD_FILES, MODULE_FILES).expect("the embedded content is valid")
    }

    /// Worlds and modules from `(slug, text)` pairs, checking that each module's world exists.
    pub fn from_files(
        worlds: &[(&str, &str)],
        modules: &[(&str, &str)],
    ) -> Result<Library, ContentError> {
        let library = Library::parse(worlds, modules)?;
        library.check_worlds()?;
        Ok(library)
    }

    /// Parses files without checking that modules' worlds exist (they may be in another library).
    pub fn parse(
        worlds: &[(&str, &str)],
        modules: &[(&str, &str)],
    ) -> Result<Library, ContentError> {
        let mut library = Library {
            worlds: worlds
                .iter()
                .map(|(slug, text)| World::from_toml(slug, text))
                .collect::<Result<_, _>>()?,
            modules: modules
                .iter()
                .map(|(slug, text)| Module::from_toml(slug, text))
                .collect::<Result<_, _>>()?,
        };
        library.sort();
        Ok(library)
    }

    /// This library with `theirs` added: their worlds and modules replace any of the same slug.
    pub fn merged_with(self, theirs: Library) -> Result<Library, ContentError> {
        let mut merged = theirs;
        for world in self.worlds {
            if merged.world(&world.slug).is_none() {
                merged.worlds.push(world);
            }
        }
        for module in self.modules {
            if merged.module(&module.slug).is_none() {
                merged.modules.push(module);
            }
        }
        merged.sort();
        merged.check_worlds()?;
        Ok(merged)
    }

    fn sort(&mut self) {
        self.worlds.sort_by(|a, b| a.slug.cmp(&b.slug));
        self.modules.sort_by(|a, b| a.slug.cmp(&b.slug));
    }

    fn check_worlds(&self) -> Result<(), ContentError> {
        for module in &self.modules {
            if let Some(world) = &module.world
                && self.world(world).is_none()
            {
                return Err(ContentError {
                    file: format!("modules/{}.toml", module.slug),
                    message: format!("its world '{world}' does not exist"),
                });
            }
        }
        Ok(())
    }

    /// The world with this slug.
    pub fn world(&self, slug: &str) -> Option<&World> {
        self.worlds.iter().find(|w| w.slug == slug)
    }

    /// The module with this slug.
    pub fn module(&self, slug: &str) -> Option<&Module> {
        self.modules.iter().find(|m| m.slug == slug)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_content_is_complete() {
        let library = Library::builtin();
        assert!(library.worlds.len() >= 6);
        assert!(library.modules.len() >= 6);
        assert!(
            library.worlds.iter().any(|w| w.temporal),
            "a time-travel world"
        );
        assert!(library.modules.iter().any(|m| m.temporal));
        for world in &library.worlds {
            assert_eq!(world.catastrophes.len(), 36, "{}", world.slug);
        }
        let genres: std::collections::BTreeSet<_> =
            library.worlds.iter().map(|w| &w.genre).collect();
        assert!(genres.len() >= 6, "varied genres: {genres:?}");
    }

    #[test]
    fn a_roll_picks_its_entry() {
        let vael = Library::builtin().world("vael").unwrap().clone();
        let first = D66::from_value(11).unwrap();
        let last = D66::from_value(66).unwrap();
        assert_eq!(vael.catastrophe(first), vael.catastrophes[0]);
        assert_eq!(vael.catastrophe(last), vael.catastrophes[35]);
    }

    #[test]
    fn bad_files_name_the_problem() {
        let err = World::from_toml("x", "name = 'a'").unwrap_err();
        assert!(
            err.to_string()
                .starts_with("worlds/x.toml: line 1: missing field"),
            "{err}"
        );
        let mut text =
            String::from("name='A'\ngenre='g'\nsummary='s'\ntemporal=false\n[catastrophes]\n");
        for roll in D66::all().take(35) {
            text.push_str(&format!("{roll} = 'c'\n"));
        }
        let err = World::from_toml("x", &text).unwrap_err();
        assert_eq!(
            err.to_string(),
            "worlds/x.toml: the catastrophe table has no entry 66"
        );
        text.push_str("66 = 'c'\n17 = 'c'\n");
        let err = World::from_toml("x", &text).unwrap_err();
        assert_eq!(
            err.to_string(),
            "worlds/x.toml: '17' is not a d66 result (11–66, both digits 1–6)"
        );
        assert!(World::from_toml("Bad_Slug", "").is_err());
    }
}
