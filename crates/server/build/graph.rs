//! The pages' files and the references between them: what each file names, which file that
//! is, and the order to build them in.

use std::collections::{BTreeMap, BTreeSet};

/// What a file is, which says how it is read, rewritten and served.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    /// An HTML page, served by a route of its own (`/`, `/t/…`) under its own name.
    Page,
    /// A JavaScript module.
    Module,
    /// A classic script (`<script src>` without `type="module"`): its top-level names are
    /// globals, so the minifier must keep them.
    Script,
    Style,
    /// Served as it is (images, fonts, JSON), with this content type.
    Other(&'static str),
}

impl Kind {
    /// The kind of a file by its name; `None` for what is not served (READMEs, licences).
    pub fn of(name: &str) -> Option<Kind> {
        Some(match name.rsplit_once('.')?.1 {
            "html" => Kind::Page,
            "js" => Kind::Module,
            "css" => Kind::Style,
            "svg" => Kind::Other("image/svg+xml"),
            "json" => Kind::Other("application/json"),
            "woff2" => Kind::Other("font/woff2"),
            "png" => Kind::Other("image/png"),
            "webp" => Kind::Other("image/webp"),
            _ => return None,
        })
    }

    pub fn content_type(self) -> &'static str {
        match self {
            Kind::Page => "text/html; charset=utf-8",
            Kind::Module | Kind::Script => "text/javascript; charset=utf-8",
            Kind::Style => "text/css; charset=utf-8",
            Kind::Other(content_type) => content_type,
        }
    }
}

/// A reference from one file to another, as written (`spec`) and as resolved (`target`, a
/// path under `assets/`; `suffix`, a query or fragment kept after the new name).
pub struct Ref {
    pub spec: String,
    pub target: String,
    pub suffix: String,
    /// A static `import` (or `export … from`), or a page's `<script type="module">`: needed
    /// before the page runs, so bundled into the page's script. A dynamic `import()` is
    /// loaded when needed, from a file of its own.
    pub eager: bool,
}

pub struct File {
    pub path: String,
    pub kind: Kind,
    pub bytes: Vec<u8>,
    pub refs: Vec<Ref>,
}

impl File {
    pub fn new(path: String, kind: Kind, bytes: Vec<u8>) -> File {
        File {
            path,
            kind,
            bytes,
            refs: Vec::new(),
        }
    }

    /// The file as text (every kind that refers to others is).
    pub fn text(&self) -> &str {
        std::str::from_utf8(&self.bytes).unwrap_or_else(|_| panic!("{}: not UTF-8", self.path))
    }

    pub fn refers_to_itself(&self) -> bool {
        self.refs.iter().any(|r| r.target == self.path)
    }
}

/// Finds every file's references and resolves them. A page's classic scripts are marked
/// first, as they are parsed as scripts, not modules.
pub fn find_references(files: &mut BTreeMap<String, File>) {
    let mut classic = BTreeSet::new();
    for file in files.values().filter(|f| f.kind == Kind::Page) {
        for (spec, module) in super::html::scripts(file.text()) {
            if let (false, Some((target, _))) = (module, resolve(files, &file.path, &spec)) {
                classic.insert(target);
            }
        }
    }
    for path in classic {
        let file = files.get_mut(&path).expect("resolved to a file");
        assert!(
            file.kind == Kind::Module,
            "{path}: a classic script must be JavaScript"
        );
        file.kind = Kind::Script;
    }
    let mut found = BTreeMap::new();
    for file in files.values() {
        let specs: Vec<(String, bool)> = match file.kind {
            Kind::Page => super::html::references(file.text()),
            Kind::Module | Kind::Script => {
                super::js::references(&file.path, file.text(), file.kind == Kind::Module)
            }
            Kind::Style => super::css::references(&file.path, file.text())
                .into_iter()
                .map(|spec| (spec, false))
                .collect(),
            Kind::Other(_) => Vec::new(),
        };
        let mut refs = Vec::new();
        for (spec, eager) in specs {
            let Some((target, suffix)) = resolve(files, &file.path, &spec) else {
                continue;
            };
            assert!(
                files[&target].kind != Kind::Page,
                "{}: {spec} is a page, which is served at a route of its own, not under /assets/",
                file.path
            );
            refs.push(Ref {
                spec,
                target,
                suffix,
                eager,
            });
        }
        found.insert(file.path.clone(), refs);
    }
    for (path, refs) in found {
        files.get_mut(&path).expect("the same files").refs = refs;
    }
}

/// The file that `spec`, written in `from`, names, and the query or fragment after it; `None`
/// when it names no file of ours (another site, `data:`, a route such as `/rulings`, a bare
/// module name). A reference into `/assets/` that names no file stops the build: it would be a
/// broken page.
fn resolve(files: &BTreeMap<String, File>, from: &str, spec: &str) -> Option<(String, String)> {
    let cut = spec.find(['?', '#']).unwrap_or(spec.len());
    let (path, suffix) = spec.split_at(cut);
    let relative = path.starts_with("./") || path.starts_with("../");
    // CSS reads `url(fonts/x.woff2)` as relative too; JavaScript reads `x.js` as a bare name,
    // and a page's relative name depends on its route, so neither is taken as a file.
    let css_relative =
        from.ends_with(".css") && !path.is_empty() && !path.starts_with('/') && !path.contains(':');
    let full = if let Some(rest) = path.strip_prefix("/assets/") {
        rest.to_owned()
    } else if (relative || css_relative) && !from.ends_with(".html") {
        join(from, path)
    } else {
        return None;
    };
    assert!(
        files.contains_key(&full),
        "{from}: {spec} names assets/{full}, which does not exist"
    );
    Some((full, suffix.to_owned()))
}

/// `path`, relative to the folder of `from` (both under `assets/`), as a path under `assets/`.
fn join(from: &str, path: &str) -> String {
    let mut parts: Vec<&str> = from.split('/').collect();
    parts.pop();
    for part in path.split('/') {
        match part {
            "." | "" => {}
            ".." => {
                assert!(parts.pop().is_some(), "{from}: {path} leaves assets/");
            }
            part => parts.push(part),
        }
    }
    parts.join("/")
}

/// The files in an order to build them: groups of files that import each other (most often a
/// single file), each group after every file that it refers to. Tarjan's algorithm gives the
/// strongly connected components in just that order.
pub fn dependency_order(files: &BTreeMap<String, File>) -> Vec<Vec<String>> {
    struct Walk<'a> {
        files: &'a BTreeMap<String, File>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        order: Vec<Vec<String>>,
    }
    impl<'a> Walk<'a> {
        fn visit(&mut self, path: &'a str) {
            let n = self.index.len();
            self.index.insert(path, n);
            self.low.insert(path, n);
            self.stack.push(path);
            self.on_stack.insert(path);
            let files = self.files;
            for r in &files[path].refs {
                let target = r.target.as_str();
                if !self.index.contains_key(target) {
                    self.visit(target);
                    let low = self.low[path].min(self.low[target]);
                    self.low.insert(path, low);
                } else if self.on_stack.contains(target) {
                    let low = self.low[path].min(self.index[target]);
                    self.low.insert(path, low);
                }
            }
            if self.low[path] == self.index[path] {
                let mut component = Vec::new();
                while let Some(top) = self.stack.pop() {
                    self.on_stack.remove(top);
                    component.push(top.to_owned());
                    if top == path {
                        break;
                    }
                }
                component.sort();
                self.order.push(component);
            }
        }
    }
    let mut walk = Walk {
        files,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        order: Vec::new(),
    };
    for path in files.keys() {
        if !walk.index.contains_key(path.as_str()) {
            walk.visit(path);
        }
    }
    walk.order
}

/// The modules served as files of their own, each with what it imports statically bundled
/// in: a page's module scripts and the targets of `import("…")`. The others are served only
/// inside those. A module both imported statically and loaded by `import("…")` would run
/// twice, once in each file, so the build stops on it.
pub fn served_modules(files: &BTreeMap<String, File>) -> BTreeSet<String> {
    let mut served = BTreeSet::new();
    let mut imported = BTreeSet::new();
    for file in files.values() {
        for r in &file.refs {
            if files[&r.target].kind != Kind::Module {
                continue;
            }
            if file.kind == Kind::Page || !r.eager {
                served.insert(r.target.clone());
            }
            if file.kind != Kind::Page && r.eager {
                imported.insert(r.target.clone());
            }
        }
    }
    for file in files.values().filter(|f| f.kind != Kind::Page) {
        for r in file.refs.iter().filter(|r| !r.eager) {
            assert!(
                !imported.contains(&r.target),
                "{}: import(\"{}\") names a module that others import statically: it would run twice",
                file.path,
                r.spec
            );
        }
    }
    served
}
