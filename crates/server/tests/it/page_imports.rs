//! The pages' one rule of imports, checked on the files themselves (no Node needed): a game's
//! files (`story/`, `board/`, `challenge/`, `home/`) import only `common/` and their own folder,
//! `common/` imports only `common/`, every import names a file that exists, and no files import
//! each other, directly or around a cycle.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Every JavaScript file under `assets/`, by its path from there (`board/main.js`).
fn page_files() -> BTreeMap<String, String> {
    fn walk(dir: &Path, root: &Path, out: &mut BTreeMap<String, String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, root, out);
            } else if path.extension().is_some_and(|e| e == "js") {
                let name = path
                    .strip_prefix(root)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                out.insert(name, std::fs::read_to_string(&path).unwrap());
            }
        }
    }
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets");
    let mut out = BTreeMap::new();
    walk(&root, &root, &mut out);
    out
}

/// What a tokenizer needs to tell apart: a word, a string's contents, or one punctuation mark.
#[derive(Debug, PartialEq)]
enum Token {
    Word(String),
    Str(String),
    Punct(char),
}

/// The tokens of a JavaScript file, without its comments and regular expressions (so that an
/// `import` in either is not taken for one). Template literals count as a string; the code in
/// their `${…}` is read as code.
fn tokens(source: &str) -> Vec<Token> {
    let chars: Vec<char> = source.chars().collect();
    let mut out = Vec::new();
    // For each template literal we are inside of, the depth of braces of its open `${`.
    let mut templates: Vec<usize> = Vec::new();
    let mut braces = 0usize;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c.is_whitespace() {
            i += 1;
        } else if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            i += 2;
            while i + 1 < chars.len() && !(chars[i] == '*' && chars[i + 1] == '/') {
                i += 1;
            }
            i += 2;
        } else if c == '/' && regex_may_start(out.last()) {
            i = skip_regex(&chars, i);
        } else if c == '\'' || c == '"' {
            let (text, end) = quoted(&chars, i, c);
            out.push(Token::Str(text));
            i = end;
        } else if c == '`' || (c == '}' && templates.last() == Some(&braces)) {
            // A template literal, or its text again after a `${…}`.
            if c == '}' {
                templates.pop();
            }
            let (text, end, open) = template(&chars, i + 1);
            if open {
                templates.push(braces);
            } else {
                out.push(Token::Str(text));
            }
            i = end;
        } else if c.is_alphanumeric() || c == '_' || c == '$' {
            let start = i;
            while i < chars.len()
                && (chars[i].is_alphanumeric() || chars[i] == '_' || chars[i] == '$')
            {
                i += 1;
            }
            out.push(Token::Word(chars[start..i].iter().collect()));
        } else {
            match c {
                '{' => braces += 1,
                '}' => braces = braces.saturating_sub(1),
                _ => {}
            }
            out.push(Token::Punct(c));
            i += 1;
        }
    }
    out
}

/// Whether a `/` after `last` starts a regular expression (rather than dividing).
fn regex_may_start(last: Option<&Token>) -> bool {
    match last {
        None => true,
        Some(Token::Punct(p)) => !matches!(p, ')' | ']' | '}'),
        Some(Token::Word(w)) => matches!(w.as_str(), "return" | "typeof" | "case" | "in" | "of"),
        Some(Token::Str(_)) => false,
    }
}

fn skip_regex(chars: &[char], mut i: usize) -> usize {
    let mut class = false;
    i += 1;
    while i < chars.len() && chars[i] != '\n' {
        match chars[i] {
            '\\' => i += 1,
            '[' => class = true,
            ']' => class = false,
            '/' if !class => break,
            _ => {}
        }
        i += 1;
    }
    i + 1
}

/// A quoted string from `chars[start]` (the quote): its text and the index after it.
fn quoted(chars: &[char], start: usize, quote: char) -> (String, usize) {
    let mut text = String::new();
    let mut i = start + 1;
    while i < chars.len() && chars[i] != quote {
        if chars[i] == '\\' {
            i += 1;
        }
        if let Some(&c) = chars.get(i) {
            text.push(c);
        }
        i += 1;
    }
    (text, i + 1)
}

/// A template literal's text from `start` to its closing backtick, or to a `${` (`open`).
fn template(chars: &[char], start: usize) -> (String, usize, bool) {
    let mut text = String::new();
    let mut i = start;
    while i < chars.len() {
        match chars[i] {
            '\\' => i += 1,
            '`' => return (text, i + 1, false),
            '$' if chars.get(i + 1) == Some(&'{') => return (text, i + 2, true),
            c => text.push(c),
        }
        i += 1;
    }
    (text, i, false)
}

/// The modules a file imports, as written: `import … from '…'`, `import '…'`,
/// `export … from '…'` and `import('…')`. An import whose name is computed is an error.
fn imports(source: &str) -> Result<Vec<String>, String> {
    let tokens = tokens(source);
    let mut out = Vec::new();
    for (i, token) in tokens.iter().enumerate() {
        let Token::Word(word) = token else { continue };
        let after = &tokens[i + 1..];
        match (word.as_str(), after.first()) {
            ("import", Some(Token::Punct('('))) => match (after.get(1), after.get(2)) {
                (Some(Token::Str(spec)), Some(Token::Punct(')'))) => out.push(spec.clone()),
                _ => return Err("a dynamic import() whose module is not a plain string".into()),
            },
            ("import", Some(Token::Punct('.'))) => {} // import.meta
            ("import", Some(Token::Str(spec))) => out.push(spec.clone()),
            ("import", Some(_)) | ("export", Some(Token::Punct('{' | '*'))) => {
                // The names, then `from` and the module, before the statement ends.
                let from = after
                    .windows(2)
                    .take_while(|w| w[0] != Token::Punct(';'))
                    .find_map(|w| match w {
                        [Token::Word(f), Token::Str(spec)] if f == "from" => Some(spec.clone()),
                        _ => None,
                    });
                match (word.as_str(), from) {
                    (_, Some(spec)) => out.push(spec),
                    ("import", None) => return Err("an import without `from '…'`".into()),
                    _ => {} // export { names } of this module
                }
            }
            _ => {}
        }
    }
    Ok(out)
}

/// The folder a page file belongs to: `common`, a game's, `home` (empty at the top).
fn folder(path: &str) -> &str {
    path.rsplit_once('/')
        .map_or("", |(dir, _)| dir.split('/').next().unwrap_or(""))
}

/// `spec` (relative to `from`) as a path from `assets/`, or `None` when it leaves `assets/` or is
/// not relative.
fn resolve(from: &str, spec: &str) -> Option<String> {
    if !spec.starts_with("./") && !spec.starts_with("../") {
        return None;
    }
    let mut parts: Vec<&str> = from.split('/').collect();
    parts.pop();
    for part in spec.split('/') {
        match part {
            "." => {}
            ".." => {
                parts.pop()?;
            }
            _ => parts.push(part),
        }
    }
    Some(parts.join("/"))
}

/// Every break of the rule, one line each: the file, the import, and what is wrong.
fn breaks(files: &BTreeMap<String, String>) -> Vec<String> {
    let mut out = Vec::new();
    let mut graph: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for (path, source) in files {
        let specs = match imports(source) {
            Ok(specs) => specs,
            Err(e) => {
                out.push(format!("{path}: {e}"));
                continue;
            }
        };
        for spec in specs {
            let Some(target) = resolve(path, &spec) else {
                out.push(format!("{path} imports '{spec}': a page imports its modules by a relative path inside assets/"));
                continue;
            };
            if !files.contains_key(&target) {
                out.push(format!("{path} imports '{spec}': there is no {target}"));
            }
            let (from, to) = (folder(path), folder(&target));
            if to != "common" && to != from {
                let whose = if from == "common" {
                    "common/ imports only common/".to_string()
                } else {
                    format!("{from}/ imports only common/ and {from}/")
                };
                out.push(format!("{path} imports '{spec}' ({to}/): {whose}"));
            }
            graph.entry(path).or_default().push(target);
        }
    }
    out.extend(cycles(&graph));
    out
}

/// The cycles of imports, each once, as a chain of files.
fn cycles(graph: &BTreeMap<&str, Vec<String>>) -> Vec<String> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        Open,
        Done,
    }
    fn visit<'a>(
        node: &'a str,
        graph: &'a BTreeMap<&str, Vec<String>>,
        marks: &mut BTreeMap<&'a str, Mark>,
        path: &mut Vec<&'a str>,
        out: &mut Vec<String>,
    ) {
        match marks.get(node) {
            Some(Mark::Done) => return,
            Some(Mark::Open) => {
                let start = path.iter().position(|p| *p == node).unwrap();
                out.push(format!(
                    "a cycle of imports: {} → {node}",
                    path[start..].join(" → ")
                ));
                return;
            }
            None => {}
        }
        marks.insert(node, Mark::Open);
        path.push(node);
        for next in graph.get(node).into_iter().flatten() {
            visit(next, graph, marks, path, out);
        }
        path.pop();
        marks.insert(node, Mark::Done);
    }
    let mut marks = BTreeMap::new();
    let mut out = Vec::new();
    for node in graph.keys() {
        visit(node, graph, &mut marks, &mut Vec::new(), &mut out);
    }
    out
}

#[test]
fn the_pages_keep_the_one_rule_of_imports() {
    let files = page_files();
    assert!(
        files.contains_key("common/table-page.js"),
        "{:?}",
        files.keys()
    );
    let breaks = breaks(&files);
    assert!(
        breaks.is_empty(),
        "the pages break the rule of imports (ARCHITECTURE.md, the front end):\n{}",
        breaks.join("\n")
    );
}

/// The reader finds every form of import, and none in comments, strings or regular expressions.
#[test]
fn imports_are_read_in_every_form() {
    let check = |source: &str, expected: &[&str]| {
        assert_eq!(imports(source).unwrap(), expected, "{source}")
    };
    check(
        "import { a, b } from './a.js';\nimport * as c from \"../common/c.js\";",
        &["./a.js", "../common/c.js"],
    );
    check(
        "import './side.js'; export { x } from './x.js'; export * from './y.js';",
        &["./side.js", "./x.js", "./y.js"],
    );
    check(
        "const m = await import('../story/lookups.js');",
        &["../story/lookups.js"],
    );
    check("import d, {\n  e,\n  f,\n} from './d.js';", &["./d.js"]);
    check(
        "// import { a } from './no.js';\n/* import('./no.js') */ const s = 'import(\"./no.js\")';",
        &[],
    );
    check(
        "const r = /import('x')/g; const t = `import('./no.js') ${1 + 2} import`; export { r };",
        &[],
    );
    check(
        "const url = new URL('.', import.meta.url); const n = a / b / c;",
        &[],
    );
    assert!(imports("import(name)").is_err());
}

/// Each way of breaking the rule is found and named.
#[test]
fn every_break_is_named() {
    let files: BTreeMap<String, String> = [
        ("common/dom.js", "import { x } from './shell.js';"),
        ("common/shell.js", "import { h } from './dom.js'; import { s } from '../story/lookups.js';"),
        ("story/lookups.js", "export const s = 1;"),
        ("board/main.js", "import { h } from '../common/dom.js'; import('../challenge/main.js'); import { n } from './none.js';"),
        ("challenge/main.js", "import { b } from '/assets/board/main.js';"),
    ]
    .into_iter()
    .map(|(p, s)| (p.to_string(), s.to_string()))
    .collect();
    let found = breaks(&files);
    let expected = [
        "board/main.js imports '../challenge/main.js' (challenge/): board/ imports only common/ and board/",
        "board/main.js imports './none.js': there is no board/none.js",
        "challenge/main.js imports '/assets/board/main.js': a page imports its modules by a relative path inside assets/",
        "common/shell.js imports '../story/lookups.js' (story/): common/ imports only common/",
        "a cycle of imports: common/dom.js → common/shell.js → common/dom.js",
    ];
    assert_eq!(found, expected);
}
