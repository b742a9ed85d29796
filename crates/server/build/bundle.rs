//! A page's script and every module it imports as one file, so that a phone asks for one
//! script instead of twenty: over HTTP/1.1 a browser asks for six files at a time, and each
//! round trip is long on a slow network.
//!
//! Each module becomes a function run once, in dependency order, that returns its exports:
//! `import { a as b } from './x.js'` becomes `const { a: b } = $x;` at the top of the
//! function, and `export` keywords come off the declarations. A module's exports are read when
//! it has run, so an export must be a function, a class or a `const` (the build stops on an
//! exported `let` or `var`, whose later changes importers would not see); `import.meta` and
//! cycles of imports stop it too. The whole is minified afterwards, like any module.

use super::graph::File;
use oxc_allocator::Allocator;
use oxc_ast::ast::{
    Declaration, ExportDefaultDeclarationKind, ImportDeclarationSpecifier, Statement,
    VariableDeclarationKind,
};
use oxc_parser::Parser;
use oxc_span::{GetSpan, SourceType};
use std::collections::BTreeMap;
use std::ops::Range;

/// The modules `entry` imports statically, at any depth, each after those it imports, and
/// `entry` last.
fn order(files: &BTreeMap<String, File>, entry: &str) -> Vec<String> {
    fn visit(
        files: &BTreeMap<String, File>,
        path: &str,
        trail: &mut Vec<String>,
        done: &mut Vec<String>,
    ) {
        if done.iter().any(|d| d == path) {
            return;
        }
        assert!(
            !trail.iter().any(|t| t == path),
            "{path}: a cycle of imports ({} → {path}) cannot be bundled",
            trail.join(" → ")
        );
        trail.push(path.to_owned());
        for r in files[path].refs.iter().filter(|r| r.eager) {
            visit(files, &r.target, trail, done);
        }
        trail.pop();
        done.push(path.to_owned());
    }
    let mut done = Vec::new();
    visit(files, entry, &mut Vec::new(), &mut done);
    done
}

/// `entry` and its imports as one module (not minified); a dynamic `import("…")` names
/// `url(target)`.
pub fn bundle(files: &BTreeMap<String, File>, entry: &str, url: &dyn Fn(&str) -> String) -> String {
    let modules = order(files, entry);
    let name = |path: &str| {
        let i = modules
            .iter()
            .position(|m| m == path)
            .expect("in the bundle");
        format!("$module{i}")
    };
    let mut out = String::new();
    for path in &modules {
        let file = &files[path];
        let target = |spec: &str| {
            let r = file.refs.iter().find(|r| r.spec == spec);
            r.unwrap_or_else(|| panic!("{path}: {spec} names no file of the pages"))
                .target
                .clone()
        };
        let module = wrap(path, file.text(), &|spec| name(&target(spec)), &|spec| {
            url(&target(spec))
        });
        out.push_str(&format!("const {} = {module};\n", name(path)));
    }
    out
}

/// One module as an expression that runs it and gives its exports. `module_of(spec)` is the
/// name of the constant that holds the exports of the module `spec` names; `url(spec)` its
/// address, for `import("…")`.
fn wrap(
    path: &str,
    text: &str,
    module_of: &dyn Fn(&str) -> String,
    url: &dyn Fn(&str) -> String,
) -> String {
    let allocator = Allocator::default();
    let parsed = Parser::new(&allocator, text, SourceType::mjs()).parse();
    if let Some(error) = parsed.diagnostics.first() {
        panic!("{path}: {error:?}");
    }
    assert!(
        parsed.module_record.import_metas.is_empty(),
        "{path}: import.meta would name the bundle, not this module"
    );
    let mut edits: Vec<(Range<usize>, String)> = Vec::new();
    let mut imports = String::new();
    // (exported name, local name or expression)
    let mut exports: Vec<(String, String)> = Vec::new();
    let mut spread = Vec::new();
    let span = |s: oxc_span::Span| s.start as usize..s.end as usize;
    for statement in &parsed.program.body {
        match statement {
            Statement::ImportDeclaration(d) => {
                edits.push((span(d.span), String::new()));
                let from = module_of(d.source.value.as_str());
                let mut named = Vec::new();
                for specifier in d.specifiers.iter().flatten() {
                    match specifier {
                        ImportDeclarationSpecifier::ImportSpecifier(s) => {
                            named.push(format!(
                                "{:?}: {}",
                                s.imported.name().as_str(),
                                s.local.name
                            ));
                        }
                        ImportDeclarationSpecifier::ImportDefaultSpecifier(s) => {
                            named.push(format!("default: {}", s.local.name));
                        }
                        ImportDeclarationSpecifier::ImportNamespaceSpecifier(s) => {
                            imports.push_str(&format!("const {} = {from};\n", s.local.name));
                        }
                    }
                }
                if !named.is_empty() {
                    imports.push_str(&format!("const {{ {} }} = {from};\n", named.join(", ")));
                }
            }
            Statement::ExportDeclaration(d) => {
                let start = d.declaration.span().start as usize;
                edits.push((d.span.start as usize..start, String::new()));
                for local in declared(path, &d.declaration) {
                    exports.push((local.clone(), local));
                }
            }
            Statement::ExportFromDeclaration(d) => {
                edits.push((span(d.span), String::new()));
                let from = module_of(d.source.value.as_str());
                for s in &d.specifiers {
                    let value = format!("{from}[{:?}]", s.local.name().as_str());
                    exports.push((s.exported.name().to_string(), value));
                }
            }
            Statement::ExportNamedDeclaration(d) => {
                edits.push((span(d.span), String::new()));
                for s in &d.specifiers {
                    exports.push((s.exported.name().to_string(), s.local.name().to_string()));
                }
            }
            Statement::ExportDefaultDeclaration(d) => {
                let named = match &d.declaration {
                    ExportDefaultDeclarationKind::FunctionDeclaration(f) => f.id.as_ref(),
                    ExportDefaultDeclarationKind::ClassDeclaration(c) => c.id.as_ref(),
                    _ => None,
                };
                let start = d.declaration.span().start as usize;
                match named {
                    Some(id) => {
                        edits.push((d.span.start as usize..start, String::new()));
                        exports.push(("default".to_owned(), id.name.to_string()));
                    }
                    None => {
                        edits.push((d.span.start as usize..start, "const $default = ".to_owned()));
                        exports.push(("default".to_owned(), "$default".to_owned()));
                    }
                }
            }
            Statement::ExportAllDeclaration(d) => {
                edits.push((span(d.span), String::new()));
                let from = module_of(d.source.value.as_str());
                match &d.exported {
                    Some(name) => exports.push((name.name().to_string(), from)),
                    None => spread.push(format!("...{from}")),
                }
            }
            _ => {}
        }
    }
    for import in parsed.module_record.dynamic_imports.iter() {
        let literal = &text[span(import.module_request)];
        let spec = literal.trim_matches(['"', '\'']);
        edits.push((span(import.module_request), format!("{:?}", url(spec))));
    }
    edits.sort_by_key(|(range, _)| std::cmp::Reverse(range.start));
    let mut body = text.to_owned();
    for (range, with) in edits {
        body.replace_range(range, &with);
    }
    let returned: Vec<String> = spread
        .into_iter()
        .chain(
            exports
                .into_iter()
                .map(|(name, value)| format!("{name:?}: {value}")),
        )
        .collect();
    format!(
        "(() => {{\n{imports}{body}\nreturn {{ {} }};\n}})()",
        returned.join(", ")
    )
}

/// The names an exported declaration binds; only those that cannot change after the module
/// has run.
fn declared(path: &str, declaration: &Declaration) -> Vec<String> {
    match declaration {
        Declaration::FunctionDeclaration(f) => f.id.iter().map(|id| id.name.to_string()).collect(),
        Declaration::ClassDeclaration(c) => c.id.iter().map(|id| id.name.to_string()).collect(),
        Declaration::VariableDeclaration(v) => {
            assert!(
                v.kind == VariableDeclarationKind::Const,
                "{path}: an exported `let` or `var` cannot be bundled (importers would not see it change): export a const, or a function that reads it"
            );
            v.declarations
                .iter()
                .flat_map(|d| d.id.get_binding_identifiers())
                .map(|id| id.name.to_string())
                .collect()
        }
        _ => panic!("{path}: an exported declaration of TypeScript"),
    }
}
