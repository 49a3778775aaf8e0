//! Shared helpers for the end-to-end tests in `tests/tests/`: where the shipped content is,
//! and running the `scryptic` command line the way a user does.

use std::path::{Path, PathBuf};

/// The workspace's root folder (where `maps/`, `tilesets/` and `lexicon/` are).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ sits in the workspace")
        .to_path_buf()
}

/// Every shipped map file, sorted.
pub fn shipped_maps() -> Vec<PathBuf> {
    let mut maps = Vec::new();
    collect_ron(&root().join("maps"), &mut maps);
    maps.sort();
    maps
}

fn collect_ron(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("maps/ is readable").flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect_ron(&path, out);
        } else if path.extension().is_some_and(|e| e == "ron") {
            out.push(path);
        }
    }
}

/// What a command printed and how it exited.
#[derive(Debug)]
pub struct Output {
    /// The exit code.
    pub code: i32,
    /// Standard output.
    pub out: String,
    /// Standard error.
    pub err: String,
}

/// Runs `scryptic ARGS...` in-process, with nothing to read.
pub fn scryptic(args: &[&str]) -> Output {
    scryptic_typing(args, "")
}

/// Runs `scryptic ARGS...` in-process, as if a person typed `input`.
pub fn scryptic_typing(args: &[&str], input: &str) -> Output {
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let argv = std::iter::once("scryptic").chain(args.iter().copied());
    let code = scryptic::cli::run(argv, &mut input.as_bytes(), &mut out, &mut err);
    Output {
        code,
        out: String::from_utf8_lossy(&out).into_owned(),
        err: String::from_utf8_lossy(&err).into_owned(),
    }
}
