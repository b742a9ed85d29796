//! JavaScript: the modules a file imports, and the file minified (oxc) with its import
//! specifiers rewritten.

use oxc_allocator::Allocator;
use oxc_codegen::{Codegen, CodegenOptions};
use oxc_minifier::{CompressOptions, MangleOptions, Minifier, MinifierOptions};
use oxc_parser::{Parser, ParserReturn};
use oxc_span::SourceType;
use std::ops::Range;

/// The minifier may write syntax no newer than the pages already use (`||=` is ES2021), so a
/// browser that runs the pages as written runs them minified.
const TARGET: &str = "es2021";

fn parse<'a>(
    allocator: &'a Allocator,
    path: &str,
    text: &'a str,
    module: bool,
) -> ParserReturn<'a> {
    let source_type = if module {
        SourceType::mjs()
    } else {
        SourceType::script()
    };
    let parsed = Parser::new(allocator, text, source_type).parse();
    if let Some(error) = parsed.diagnostics.first() {
        panic!("{path}: {error:?}");
    }
    parsed
}

/// Each specifier written in the file, where it is (its string literal, quotes included), and
/// whether it is a static import (the page needs it before it runs) or `import("…")`.
fn specifiers(path: &str, text: &str, module: bool) -> Vec<(String, Range<usize>, bool)> {
    let allocator = Allocator::default();
    let parsed = parse(&allocator, path, text, module);
    let record = &parsed.module_record;
    let mut found = Vec::new();
    for (spec, requests) in &record.requested_modules {
        for request in requests.iter() {
            let span = request.span.start as usize..request.span.end as usize;
            found.push((spec.to_string(), span, true));
        }
    }
    for import in record.dynamic_imports.iter() {
        let span = import.module_request.start as usize..import.module_request.end as usize;
        let literal = &text[span.clone()];
        let unquoted = literal
            .strip_prefix(['"', '\''])
            .and_then(|s| s.strip_suffix(['"', '\'']))
            .filter(|s| !s.contains(['\\', '"', '\'']));
        match unquoted {
            Some(spec) => found.push((spec.to_owned(), span, false)),
            // Its target cannot be known, so it could not be given its hashed name.
            None => panic!("{path}: import({literal}): write the module's path as a string"),
        }
    }
    found.sort_by_key(|(_, span, _)| span.start);
    found
}

/// Every module the file imports, as written, each with whether it is a static import.
pub fn references(path: &str, text: &str, module: bool) -> Vec<(String, bool)> {
    specifiers(path, text, module)
        .into_iter()
        .map(|(spec, _, is_static)| (spec, is_static))
        .collect()
}

/// The file minified, each specifier replaced by `rewritten(spec)` where that is `Some`.
pub fn render(
    path: &str,
    text: &str,
    module: bool,
    rewritten: &dyn Fn(&str) -> Option<String>,
) -> String {
    let mut source = text.to_owned();
    for (spec, span, _) in specifiers(path, text, module).into_iter().rev() {
        if let Some(url) = rewritten(&spec) {
            assert!(!url.contains(['"', '\\']), "{path}: {url}");
            source.replace_range(span, &format!("\"{url}\""));
        }
    }
    minify(path, &source, module)
}

fn minify(path: &str, text: &str, module: bool) -> String {
    let allocator = Allocator::default();
    let mut program = parse(&allocator, path, text, module).program;
    let options = MinifierOptions {
        // A classic script's top-level names are globals that other scripts may use.
        mangle: Some(MangleOptions {
            top_level: Some(module),
            ..MangleOptions::default()
        }),
        compress: Some(CompressOptions {
            target: oxc_compat::EngineTargets::from_target(TARGET).expect("a known target"),
            ..CompressOptions::smallest()
        }),
        // Property names are shared between modules (and with the server's JSON).
        mangle_properties: None,
    };
    let minified = Minifier::new(options).minify(&allocator, &mut program);
    Codegen::new()
        .with_options(CodegenOptions::minify())
        .with_scoping(minified.scoping)
        .build(&program)
        .code
}
