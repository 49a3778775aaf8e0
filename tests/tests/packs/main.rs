//! Packs as their users use them: `scryptic pack ...`, and playing a pack's modes with
//! `--pack` and `--set`; a file for each topic (authoring, archives, playing, scenarios,
//! languages).
#![allow(
    clippy::unwrap_used,
    reason = "tests and benchmarks unwrap: a panic there is a failure"
)]

use scryptic_tests::{root, scryptic, scryptic_typing};
use std::path::Path;

mod archives;
mod authoring;
mod languages;
mod playing;
mod scenarios;

fn path(rel: &str) -> String {
    root().join(rel).display().to_string()
}

fn text(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// An archive entry: its name, its contents (a link's target), and whether it is a link.
type ZipEntry<'a> = (&'a str, &'a str, bool);

/// A zip at `path` of `entries`.
fn write_zip(path: &Path, entries: &[ZipEntry]) {
    use std::io::Write;
    let mut zip = zip::ZipWriter::new(std::fs::File::create(path).unwrap());
    let options = zip::write::SimpleFileOptions::default();
    for (name, text, link) in entries {
        if *link {
            zip.add_symlink(*name, *text, options).unwrap();
        } else {
            zip.start_file(*name, options).unwrap();
            zip.write_all(text.as_bytes()).unwrap();
        }
    }
    zip.finish().unwrap();
}

/// Everything under `dir`, as paths relative to it.
fn tree(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            out.push(p.strip_prefix(dir).unwrap().display().to_string());
            if p.is_dir() {
                stack.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Writes a pack folder: its manifest and its files.
fn write_pack(root: &Path, id: &str, manifest: &str, files: &[(&str, &str)]) {
    let dir = root.join(id);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("pack.ron"), manifest).unwrap();
    for (path, content) in files {
        let file = dir.join(path);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(file, content).unwrap();
    }
}

/// Every file under `dir`.
fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            found.extend(walk(&path));
        } else {
            found.push(path);
        }
    }
    found
}
