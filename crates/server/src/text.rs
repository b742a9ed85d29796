//! Names and texts that people see: normalized once, when they arrive, so that the page, the
//! export and the printable page all show what the writer meant and nothing more.
//!
//! - Unicode NFC, so that "é" typed two ways is one name.
//! - No control characters (a text keeps its line breaks and tabs).
//! - Bidirectional controls are balanced on every line: a stray closer is dropped and an
//!   unclosed override, embedding or isolate is closed at the end of its line, so it cannot
//!   reverse the text that follows it in a log line, a list or the Markdown export.

use serde_json::Value;
use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;

/// Embeddings and overrides nest no deeper than this in our texts; the Unicode algorithm
/// allows 125, no name or sentence needs more than a few.
const BIDI_DEPTH: usize = 16;

/// A player's name as the table keeps it, or a one-line reason it cannot be one. (How long a
/// name may be is each game's rule.)
pub fn name(raw: &str) -> Result<String, String> {
    let flat: String = raw
        .nfc()
        .map(|c| if c.is_whitespace() { ' ' } else { c })
        .filter(|c| !c.is_control())
        .collect();
    let collapsed = flat
        .split(' ')
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    let name = balance_bidi(&collapsed);
    if !name.chars().any(visible) {
        return Err("A name needs at least one letter or sign people can see.".to_owned());
    }
    Ok(name)
}

/// The name a creator gives a table, as the table keeps it: `None` when they gave none
/// (empty or only spaces), else trimmed, NFC, its spaces single, its bidirectional controls
/// balanced; or a one-line reason it cannot be one: control characters (a line break, a tab,
/// an escape), more than [`crate::limits::TABLE_NAME_CHARS`] characters, or nothing people
/// can see.
pub fn table_name(raw: &str) -> Result<Option<String>, String> {
    let trimmed = raw.trim();
    if trimmed.is_empty() {
        return Ok(None);
    }
    if trimmed.chars().any(char::is_control) {
        return Err(
            "A table's name cannot hold control characters such as line breaks or tabs.".into(),
        );
    }
    let single = trimmed
        .nfc()
        .collect::<String>()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let limit = crate::limits::TABLE_NAME_CHARS;
    let count = single.chars().count();
    if count > limit {
        return Err(format!(
            "A table's name is at most {limit} characters; this one has {count}."
        ));
    }
    if !single.chars().any(visible) {
        return Err(
            "A table's name needs a letter or sign people can see (or leave it empty).".into(),
        );
    }
    Ok(Some(balance_bidi(&single)))
}

/// Whether two names would read as the same name at a table: compatibility forms folded,
/// letter case ignored, invisible characters and extra spaces dropped.
pub fn same_name(a: &str, b: &str) -> bool {
    name_key(a) == name_key(b)
}

fn name_key(name: &str) -> String {
    let folded: String = name
        .nfkc()
        .filter(|&c| !is_invisible(c) || c.is_whitespace())
        .flat_map(char::to_lowercase)
        .collect();
    folded.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A text a player wrote (a narration, an aspect, a note): NFC, no control characters but
/// line breaks and tabs, bidirectional controls balanced on every line.
pub fn text(raw: &str) -> String {
    let kept: String = raw
        .replace("\r\n", "\n")
        .nfc()
        .map(|c| if c == '\r' { '\n' } else { c })
        .filter(|&c| c == '\n' || c == '\t' || !c.is_control())
        .collect();
    balance_bidi(&kept)
}

/// Cleans every string inside an action (its texts, names and choices) as [`text`] does.
/// Object keys are the protocol's own words and are left as they are.
pub fn clean_action(action: &mut Value) {
    match action {
        Value::String(s) => {
            let cleaned = text(s);
            if cleaned != *s {
                *s = cleaned;
            }
        }
        Value::Array(items) => items.iter_mut().for_each(clean_action),
        Value::Object(fields) => fields.values_mut().for_each(clean_action),
        Value::Null | Value::Bool(_) | Value::Number(_) => {}
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Opened {
    /// LRE, RLE, LRO or RLO: closed by PDF.
    Embedding,
    /// LRI, RLI or FSI: closed by PDI.
    Isolate,
}

/// Every line of `text` with its bidirectional controls balanced, following the pairing rules
/// of the Unicode bidirectional algorithm (UAX #9, X6a and X7): a PDF closes the latest
/// embedding only if no isolate was opened after it; a PDI closes the latest isolate and every
/// embedding opened inside it.
fn balance_bidi(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut open: Vec<Opened> = Vec::new();
    for c in text.chars() {
        match c {
            '\u{202A}' | '\u{202B}' | '\u{202D}' | '\u{202E}' => {
                if open.len() < BIDI_DEPTH {
                    open.push(Opened::Embedding);
                    out.push(c);
                }
            }
            '\u{2066}'..='\u{2068}' => {
                if open.len() < BIDI_DEPTH {
                    open.push(Opened::Isolate);
                    out.push(c);
                }
            }
            '\u{202C}' => {
                if open.last() == Some(&Opened::Embedding) {
                    open.pop();
                    out.push(c);
                }
            }
            '\u{2069}' => {
                if let Some(at) = open.iter().rposition(|&o| o == Opened::Isolate) {
                    // The PDI closes the embeddings inside the isolate too.
                    open.truncate(at);
                    out.push(c);
                }
            }
            '\n' => {
                close_all(&mut open, &mut out);
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    close_all(&mut open, &mut out);
    out
}

fn close_all(open: &mut Vec<Opened>, out: &mut String) {
    while let Some(opened) = open.pop() {
        out.push(match opened {
            Opened::Embedding => '\u{202C}',
            Opened::Isolate => '\u{2069}',
        });
    }
}

/// Characters that draw nothing: spaces, format characters, variation selectors, fillers and
/// the other Default_Ignorable_Code_Points of Unicode, plus the blanks that pose as letters.
fn is_invisible(c: char) -> bool {
    c.is_whitespace()
        || c.is_control()
        || matches!(
            c,
            '\u{00AD}'
                | '\u{034F}'
                | '\u{061C}'
                | '\u{115F}'
                | '\u{1160}'
                | '\u{17B4}'
                | '\u{17B5}'
                | '\u{180B}'..='\u{180F}'
                | '\u{200B}'..='\u{200F}'
                | '\u{202A}'..='\u{202E}'
                | '\u{2060}'..='\u{206F}'
                | '\u{2800}'
                | '\u{3164}'
                | '\u{FE00}'..='\u{FE0F}'
                | '\u{FEFF}'
                | '\u{FFA0}'
                | '\u{FFF0}'..='\u{FFF8}'
                | '\u{1BCA0}'..='\u{1BCA3}'
                | '\u{1D173}'..='\u{1D17A}'
                | '\u{E0000}'..='\u{E0FFF}'
        )
}

fn visible(c: char) -> bool {
    !is_invisible(c)
}

/// A player's text (a name, a label, a sentence) for a game's Markdown export, on one line:
/// markup and HTML in it are shown as typed and make no link, image, heading or list
/// ([`story::export::escape_inline`], the story game's own escaping, shared by every game).
pub fn markdown(text: &str) -> String {
    story::export::escape_inline(text)
}

/// A file name for a download from a story's title: ASCII letters and digits in lower case,
/// words joined by hyphens, accents dropped ("Ünder the Bell" → "under-the-bell"), at most 60
/// characters; "prophecy" when nothing is left.
pub fn file_name(title: &str) -> String {
    let mut name = String::new();
    for c in title.nfkd().filter(|c| !is_combining_mark(*c)) {
        if c.is_ascii_alphanumeric() {
            if name.len() >= 60 {
                break;
            }
            name.push(c.to_ascii_lowercase());
        } else if !name.is_empty() && !name.ends_with('-') {
            name.push('-');
        }
    }
    let name = name.trim_end_matches('-');
    if name.is_empty() {
        "prophecy".to_owned()
    } else {
        name.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_come_from_titles() {
        assert_eq!(
            file_name("A prophecy of The Brasswork Crown"),
            "a-prophecy-of-the-brasswork-crown"
        );
        assert_eq!(
            file_name("Ünder the Bell: part 2!"),
            "under-the-bell-part-2"
        );
        assert_eq!(file_name("«»  —"), "prophecy");
        assert_eq!(file_name(&"a".repeat(100)).len(), 60);
    }
    use serde_json::json;

    #[test]
    fn names_are_nfc_trimmed_and_single_spaced() {
        assert_eq!(name("  Cafe\u{301}\t  Noir \n").unwrap(), "Caf\u{e9} Noir");
    }

    #[test]
    fn invisible_and_control_names_are_refused() {
        for raw in [
            "",
            "   ",
            "\u{200B}\u{200D}",
            "\u{202E}",
            "\u{3164}\u{3164}",
            "\u{7}\u{1b}",
        ] {
            assert!(name(raw).is_err(), "{raw:?} was accepted");
        }
        assert_eq!(name("A\u{0}da").unwrap(), "Ada");
    }

    #[test]
    fn table_names_are_trimmed_checked_and_optional() {
        assert_eq!(table_name("").unwrap(), None);
        assert_eq!(table_name("  \u{3000} ").unwrap(), None);
        assert_eq!(
            table_name("  Friday\u{a0} Cafe\u{301}  ")
                .unwrap()
                .as_deref(),
            Some("Friday Caf\u{e9}")
        );
        assert_eq!(
            table_name("\u{202E}Mirror").unwrap().as_deref(),
            Some("\u{202E}Mirror\u{202C}")
        );
        let limit = crate::limits::TABLE_NAME_CHARS;
        assert!(
            table_name(&"é".repeat(limit)).is_ok(),
            "characters, not bytes"
        );
        assert_eq!(
            table_name(&"a".repeat(limit + 1)).unwrap_err(),
            format!("A table's name is at most {limit} characters; this one has 81.")
        );
        for raw in ["Two\nlines", "tab\there", "bell\u{7}", "\u{1b}[31mred"] {
            assert_eq!(
                table_name(raw).unwrap_err(),
                "A table's name cannot hold control characters such as line breaks or tabs.",
                "{raw:?}"
            );
        }
        assert!(table_name("\u{200B}\u{200D}").is_err());
    }

    #[test]
    fn same_name_ignores_case_width_and_invisibles() {
        assert!(same_name("Ada", "ada"));
        assert!(same_name("Ada", "A\u{200B}da"));
        assert!(same_name("Ada Lovelace", "Ada  Lovelace"));
        assert!(
            same_name("Ａｄａ", "Ada"),
            "full-width letters fold to the same name"
        );
        assert!(same_name("Caf\u{e9}", "Cafe\u{301}"));
        assert!(!same_name("Ada", "Adam"));
    }

    #[test]
    fn an_unclosed_override_is_closed_at_the_end_of_its_line() {
        assert_eq!(name("\u{202E}Ada").unwrap(), "\u{202E}Ada\u{202C}");
        assert_eq!(
            text("a\u{202E}b\nc\u{2067}d"),
            "a\u{202E}b\u{202C}\nc\u{2067}d\u{2069}"
        );
    }

    #[test]
    fn stray_closers_are_dropped() {
        assert_eq!(text("a\u{202C}b\u{2069}c"), "abc");
        // A PDF cannot close an embedding from inside an isolate opened after it.
        assert_eq!(
            text("\u{202B}x\u{2066}y\u{202C}z"),
            "\u{202B}x\u{2066}yz\u{2069}\u{202C}"
        );
        // A PDI closes the embeddings inside its isolate.
        assert_eq!(
            text("\u{2067}x\u{202E}y\u{2069}z"),
            "\u{2067}x\u{202E}y\u{2069}z"
        );
    }

    #[test]
    fn balanced_texts_are_unchanged() {
        let balanced = "\u{2067}שלום\u{2069} and \u{202B}x\u{202C}\n\tsecond line";
        assert_eq!(text(balanced), balanced);
    }

    #[test]
    fn texts_keep_line_breaks_and_tabs_but_no_other_controls() {
        assert_eq!(
            text("one\r\ntwo\rthree\tfour\u{7}\u{1b}[31m"),
            "one\ntwo\nthree\tfour[31m"
        );
    }

    #[test]
    fn actions_are_cleaned_in_every_string() {
        let mut action = json!({
            "type": "narrate",
            "text": "Cafe\u{301} \u{202E}reversed",
            "aspects": ["ok", "\u{2069}stray"],
            "count": 3
        });
        clean_action(&mut action);
        assert_eq!(
            action,
            json!({
                "type": "narrate",
                "text": "Caf\u{e9} \u{202E}reversed\u{202C}",
                "aspects": ["ok", "stray"],
                "count": 3
            })
        );
    }
}
