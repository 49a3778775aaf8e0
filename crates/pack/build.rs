//! Builds the list of the `core` pack's files (`core-pack/` and the repository's `maps/`,
//! `scripts/` and `tilesets/`) that the binary includes.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    let manifest =
        PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    embed_core_pack(&manifest, &out);
}

/// Lists the `core` pack's files (`core-pack/` and the repository's `maps/`, `scripts/` and
/// `tilesets/`) as `EmbeddedFile`s the binary includes, sorted by pack path.
fn embed_core_pack(manifest: &Path, out: &Path) {
    let repository = manifest.join("../..");
    let roots = [
        (manifest.join("core-pack"), String::new()),
        (repository.join("maps"), "maps/".to_string()),
        (repository.join("scripts"), "scripts/".to_string()),
        (repository.join("tilesets"), "tilesets/".to_string()),
    ];
    let mut files = Vec::new();
    for (dir, prefix) in &roots {
        println!("cargo:rerun-if-changed={}", dir.display());
        walk(dir, prefix, &mut files);
    }
    files.sort();
    let mut code = String::from("/// The `core` pack's files, sorted by path.\n");
    code.push_str("pub static CORE_FILES: &[EmbeddedFile] = &[\n");
    for (path, real) in files {
        let real = real.canonicalize().unwrap_or(real);
        let _ = writeln!(
            code,
            "    EmbeddedFile {{ path: {path:?}, bytes: include_bytes!({:?}) }},",
            real.display().to_string()
        );
    }
    code.push_str("];\n");
    write(&out.join("core_pack.rs"), code.as_bytes());
}

fn walk(dir: &Path, prefix: &str, files: &mut Vec<(String, PathBuf)>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let path = entry.path();
        if path.is_dir() {
            walk(&path, &format!("{prefix}{name}/"), files);
        } else {
            files.push((format!("{prefix}{name}"), path));
        }
    }
}

fn write(path: &Path, bytes: &[u8]) {
    std::fs::write(path, bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
}
