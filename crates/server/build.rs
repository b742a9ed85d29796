//! Embeds every page file of `assets/` and its folders (HTML, CSS, JavaScript, SVG, JSON) in the
//! binary: writes `$OUT_DIR/assets.rs`, a table of (path, content type, contents), and the fonts of
//! `assets/fonts/` in `$OUT_DIR/fonts.rs`, a table of (name, bytes).

use std::fmt::Write;

fn main() {
    // Read when the script runs, not when it was compiled: a target folder copied from another
    // checkout must embed this checkout's pages.
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let dir = std::path::Path::new(&manifest).join("assets");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut names = Vec::new();
    text_files(&dir, "", &mut names);
    names.sort();
    let mut table = String::from("&[\n");
    for name in names {
        let content_type = match name.rsplit_once('.').map(|(_, ext)| ext) {
            Some("html") => "text/html; charset=utf-8",
            Some("js") => "text/javascript; charset=utf-8",
            Some("css") => "text/css; charset=utf-8",
            Some("svg") => "image/svg+xml",
            Some("json") => "application/json",
            _ => "application/octet-stream",
        };
        let path = dir.join(&name);
        writeln!(
            table,
            "    ({name:?}, {content_type:?}, include_str!({:?})),",
            path.display().to_string()
        )
        .unwrap();
    }
    table.push(']');
    let out = std::path::PathBuf::from(std::env::var("OUT_DIR").unwrap());
    std::fs::write(out.join("assets.rs"), table).unwrap();

    // The fonts: binary files, a table of (name, bytes).
    let fonts = dir.join("fonts");
    println!("cargo:rerun-if-changed={}", fonts.display());
    let mut names: Vec<String> = std::fs::read_dir(&fonts)
        .expect("crates/server/assets/fonts exists")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".woff2"))
        .collect();
    names.sort();
    let mut table = String::from("&[\n");
    for name in names {
        writeln!(
            table,
            "    ({name:?}, include_bytes!({:?})),",
            fonts.join(&name).display().to_string()
        )
        .unwrap();
    }
    table.push(']');
    std::fs::write(out.join("fonts.rs"), table).unwrap();
}

/// The text files of the pages under `dir` (every folder but `fonts/`, whose files are binary),
/// named by their path from `assets/` with `/` between folders.
fn text_files(dir: &std::path::Path, prefix: &str, names: &mut Vec<String>) {
    let entries = std::fs::read_dir(dir).expect("crates/server/assets exists");
    for entry in entries.filter_map(|e| e.ok()) {
        let name = format!("{prefix}{}", entry.file_name().to_string_lossy());
        let path = entry.path();
        // Cargo watches a folder's files, not those of the folders inside it.
        println!("cargo:rerun-if-changed={}", path.display());
        if path.is_dir() && name != "fonts" {
            text_files(&path, &format!("{name}/"), names);
        } else if path.is_file()
            && [".html", ".js", ".css", ".svg", ".json"]
                .iter()
                .any(|ext| name.ends_with(ext))
        {
            names.push(name);
        }
    }
}
