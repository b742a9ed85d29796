//! Builds the pages' files (`assets/`, in any folders) into the binary, once, so that serving
//! them costs nothing per request:
//! - each page's module script is served with every module it imports bundled in, one file
//!   per page (see `build/bundle.rs`);
//! - JavaScript is minified by oxc, CSS by lightningcss; HTML and the rest stay as written;
//! - every file but an HTML page is named by a hash of its content (`common/net.3f9a1c2b.js`),
//!   so browsers may keep it for a year; every reference to it (JavaScript `import`s, static
//!   and `import("…")`, HTML `src` and `href`, CSS `url()` and `@import`) is rewritten to that
//!   name, in dependency order, so that a file's hash covers the names of what it imports;
//! - a classic script marked `data-inline` is written into its page, and its hash listed in
//!   `$OUT_DIR/inline_scripts.rs` for the content security policy;
//! - each file is compressed with brotli and gzip (kept when smaller).
//!
//! Writes `$OUT_DIR/assets.rs`, the table of `Asset`s that `src/assets.rs` serves, whose bytes
//! are files in `$OUT_DIR/assets/`.

#[path = "build/bundle.rs"]
mod bundle;
#[path = "build/css.rs"]
mod css;
#[path = "build/graph.rs"]
mod graph;
#[path = "build/html.rs"]
mod html;
#[path = "build/js.rs"]
mod js;

use graph::{File, Kind};
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// One file as the binary serves it.
struct Built {
    /// Its path under `assets/`.
    source: String,
    /// Its path under `/assets/` on the wire: the source's, with the hash for all but pages.
    served: String,
    bytes: Vec<u8>,
}

/// A file's compressed forms, each kept only when smaller than the file.
struct Compressed {
    brotli: Option<Vec<u8>>,
    gzip: Option<Vec<u8>>,
}

fn main() {
    // Read when the script runs, not when it was compiled: a target folder copied from another
    // checkout must embed this checkout's pages.
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let root = Path::new(&manifest).join("assets");
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    println!("cargo:rerun-if-changed={}", root.display());
    let mut files = BTreeMap::new();
    read_tree(&root, "", &mut files);
    graph::find_references(&mut files);
    let built = build_all(&files);
    let compressed = compress_all(&built);
    write_table(&out, &files, &built, &compressed);
    write_inline_hashes(&out, &built);
}

/// Writes `$OUT_DIR/inline_scripts.rs`: the content security policy's sources for the scripts
/// written into pages (`<script>…</script>`, see `html::render`), `'sha256-…'` each.
fn write_inline_hashes(out: &Path, built: &[Built]) {
    use base64::Engine as _;
    let mut sources = BTreeSet::new();
    for page in built.iter().filter(|b| b.served.ends_with(".html")) {
        let text = std::str::from_utf8(&page.bytes).expect("a page is UTF-8");
        for (_, rest) in text
            .match_indices("<script>")
            .map(|(i, m)| ((), &text[i + m.len()..]))
        {
            let script = &rest[..rest.find("</script>").expect("a script's end tag")];
            let hash = base64::engine::general_purpose::STANDARD.encode(Sha256::digest(script));
            sources.insert(format!("'sha256-{hash}'"));
        }
    }
    let list: Vec<String> = sources.iter().map(|s| format!("{s:?}")).collect();
    std::fs::write(
        out.join("inline_scripts.rs"),
        format!("&[{}]", list.join(", ")),
    )
    .expect("OUT_DIR is writable");
}

/// Every file under `dir` that a page may load, by its path from `assets/` with `/` between
/// folders. Documents beside them (READMEs, licences) are not served.
fn read_tree(dir: &Path, prefix: &str, files: &mut BTreeMap<String, File>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let entry = entry.expect("a readable folder entry");
        let name = format!("{prefix}{}", entry.file_name().to_string_lossy());
        let path = entry.path();
        // Cargo watches a folder's own entries, not those of the folders inside it.
        println!("cargo:rerun-if-changed={}", path.display());
        if path.is_dir() {
            read_tree(&path, &format!("{name}/"), files);
        } else if let Some(kind) = Kind::of(&name) {
            let text = std::fs::read(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
            files.insert(name.clone(), File::new(name, kind, text));
        }
    }
}

/// Minifies and rewrites every file, one cycle of imports (most often a single file) at a
/// time, each after everything it refers to, so that the names it holds are final. Modules
/// that are served only inside a bundle are not built on their own.
fn build_all(files: &BTreeMap<String, File>) -> Vec<Built> {
    let served = graph::served_modules(files);
    let mut urls: BTreeMap<String, String> = BTreeMap::new();
    let mut built = Vec::new();
    for component in graph::dependency_order(files) {
        let component: Vec<String> = component
            .into_iter()
            .filter(|path| files[path].kind != Kind::Module || served.contains(path))
            .collect();
        if component.is_empty() {
            continue;
        }
        let named_by_content = component.len() == 1 && !files[&component[0]].refers_to_itself();
        if !named_by_content {
            // Files that import each other cannot each be named by a hash of their final
            // bytes, which hold the others' names: they are named by a hash of all of them,
            // with their references to each other left as written. A change in any of them
            // still changes every name.
            let mut hasher = Sha256::new();
            for path in &component {
                let unhashed = |target: &str| {
                    urls.get(target)
                        .cloned()
                        .unwrap_or_else(|| format!("/assets/{target}"))
                };
                hasher.update(path.as_bytes());
                hasher.update(render(files, &files[path], &unhashed, &served));
            }
            let together = hasher.finalize();
            for path in &component {
                let hash = hex(&Sha256::digest([&together[..], path.as_bytes()].concat()));
                urls.insert(
                    path.clone(),
                    format!("/assets/{}", hashed_name(path, &hash)),
                );
            }
        }
        for path in &component {
            let file = &files[path];
            let known = |target: &str| urls[target].clone();
            let bytes = render(files, file, &known, &served);
            let served = match file.kind {
                Kind::Page => path.clone(),
                _ if named_by_content => hashed_name(path, &hex(&Sha256::digest(&bytes))),
                _ => urls[path]["/assets/".len()..].to_owned(),
            };
            urls.insert(path.clone(), format!("/assets/{served}"));
            built.push(Built {
                source: path.clone(),
                served,
                bytes,
            });
        }
    }
    built
}

/// `file` minified, with every reference to another file replaced by `url(target)`; a served
/// module (`served`) with its static imports bundled in.
fn render(
    files: &BTreeMap<String, File>,
    file: &File,
    url: &dyn Fn(&str) -> String,
    served: &BTreeSet<String>,
) -> Vec<u8> {
    let rewritten = |spec: &str| {
        file.refs
            .iter()
            .find(|r| r.spec == spec)
            .map(|r| format!("{}{}", url(&r.target), r.suffix))
    };
    match file.kind {
        Kind::Page => {
            let inline = |spec: &str| {
                let r = file.refs.iter().find(|r| r.spec == spec);
                let target = &files[&r.expect("a page's script is a file of ours").target];
                assert!(
                    target.kind == Kind::Script,
                    "{}: {spec}: not a classic script",
                    file.path
                );
                js::render(&target.path, target.text(), false, &|_| None)
            };
            html::render(&file.path, file.text(), &rewritten, &inline).into_bytes()
        }
        Kind::Module => {
            assert!(served.contains(&file.path), "{}: not served", file.path);
            let bundled = bundle::bundle(files, &file.path, url);
            js::render(&file.path, &bundled, true, &|_| None).into_bytes()
        }
        Kind::Script => js::render(
            &file.path,
            file.text(),
            file.kind == Kind::Module,
            &rewritten,
        )
        .into_bytes(),
        Kind::Style => css::render(&file.path, file.text(), &rewritten).into_bytes(),
        Kind::Other(_) => file.bytes.clone(),
    }
}

/// `common/net.js` with hash `3f9a1c2b…` → `common/net.3f9a1c2b.js`.
fn hashed_name(path: &str, hash: &str) -> String {
    let short = &hash[..8];
    let (folder, name) = path.rsplit_once('/').map_or(("", path), |(f, n)| (f, n));
    let name = match name.split_once('.') {
        Some((stem, ext)) => format!("{stem}.{short}.{ext}"),
        None => format!("{name}.{short}"),
    };
    if folder.is_empty() {
        name
    } else {
        format!("{folder}/{name}")
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

/// Each file's brotli and gzip forms, where smaller than the file itself, worked out on every
/// core: brotli at its best quality is the slowest step of the build.
fn compress_all(built: &[Built]) -> Vec<Compressed> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let chunk = built.len().div_ceil(cores).max(1);
    std::thread::scope(|scope| {
        let workers: Vec<_> = built
            .chunks(chunk)
            .map(|files| scope.spawn(move || files.iter().map(compress).collect::<Vec<_>>()))
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("compression does not panic"))
            .collect()
    })
}

fn compress(file: &Built) -> Compressed {
    // Fonts (woff2) are compressed already.
    if file.served.ends_with(".woff2") {
        return Compressed {
            brotli: None,
            gzip: None,
        };
    }
    let mut brotli = Vec::new();
    {
        // Quality 11 and a 4 MiB window: the smallest brotli makes; the time is paid here once.
        let mut w = brotli::CompressorWriter::new(&mut brotli, 4096, 11, 22);
        w.write_all(&file.bytes).expect("compressing in memory");
    }
    let mut gzip = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    gzip.write_all(&file.bytes).expect("compressing in memory");
    let gzip = gzip.finish().expect("compressing in memory");
    let smaller = |v: Vec<u8>| (v.len() < file.bytes.len()).then_some(v);
    Compressed {
        brotli: smaller(brotli),
        gzip: smaller(gzip),
    }
}

/// Writes each file's bytes under `$OUT_DIR/assets/` and `$OUT_DIR/assets.rs`, the table.
fn write_table(
    out: &Path,
    files: &BTreeMap<String, File>,
    built: &[Built],
    compressed: &[Compressed],
) {
    let dir = out.join("assets");
    // Files of an earlier build (old hashes) would only take room.
    let _ = std::fs::remove_dir_all(&dir);
    let mut table = String::from("&[\n");
    let mut rows: Vec<_> = built.iter().zip(compressed).collect();
    rows.sort_by(|a, b| a.0.served.cmp(&b.0.served));
    for (file, Compressed { brotli, gzip }) in rows {
        let place = |suffix: &str, bytes: &[u8]| {
            let path = dir.join(format!("{}{suffix}", file.served));
            std::fs::create_dir_all(path.parent().expect("a file's folder")).expect("OUT_DIR");
            std::fs::write(&path, bytes).expect("OUT_DIR is writable");
            format!("include_bytes!({:?})", path.display().to_string())
        };
        let raw = place("", &file.bytes);
        let variant = |v: &Option<Vec<u8>>, suffix| {
            v.as_ref()
                .map_or("None".to_owned(), |v| format!("Some({})", place(suffix, v)))
        };
        let (brotli, gzip) = (variant(brotli, ".br"), variant(gzip, ".gz"));
        let kind = files[&file.source].kind;
        writeln!(
            table,
            "    Asset {{ source: {:?}, served: {:?}, content_type: {:?}, tag: {:?}, page: {}, raw: {raw}, brotli: {brotli}, gzip: {gzip} }},",
            file.source,
            file.served,
            kind.content_type(),
            &hex(&Sha256::digest(&file.bytes))[..16],
            kind == Kind::Page,
        )
        .expect("writing to a String");
    }
    table.push(']');
    std::fs::write(out.join("assets.rs"), table).expect("OUT_DIR is writable");
}
