//! Writes the browser client's JavaScript glue (`scryptic serve` serves the client at every
//! match's link, so that the server built as the README says serves it with no extra command
//! and no prebuilt file in the repository).
//!
//! The module itself is compiled by `scryptic-web-module`'s build script, early in the build;
//! here wasm-bindgen (the library of the very version the client links, pinned in the
//! workspace) writes its glue, and both files are kept gzipped beside the plain ones, to be
//! sent to browsers that take gzip.

use std::io::Write;
use std::path::{Path, PathBuf};

fn main() {
    if let Err(e) = build() {
        // A build script's failure is shown by cargo with this text.
        eprintln!("error: the browser client (crates/web) could not be built: {e}");
        std::process::exit(1);
    }
}

fn build() -> Result<(), String> {
    let out_dir = PathBuf::from(var("OUT_DIR")?);
    let wasm = PathBuf::from(var("DEP_SCRYPTIC_WEB_MODULE_WASM")?);
    println!("cargo::rerun-if-changed={}", wasm.display());
    let site = out_dir.join("web-client");
    std::fs::create_dir_all(&site).map_err(|e| format!("cannot make {}: {e}", site.display()))?;
    wasm_bindgen_cli_support::Bindgen::new()
        .input_path(&wasm)
        .out_name("scryptic_web")
        .web(true)
        .map_err(|e| e.to_string())?
        .typescript(false)
        .generate(&site)
        .map_err(|e| format!("wasm-bindgen: {e:#}"))?;
    for file in ["scryptic_web_bg.wasm", "scryptic_web.js"] {
        gzip(&site.join(file))?;
    }
    Ok(())
}

fn var(name: &str) -> Result<String, String> {
    std::env::var(name).map_err(|_| format!("cargo did not set {name}"))
}

/// Writes `file` gzipped beside it (`file.gz`).
fn gzip(file: &Path) -> Result<(), String> {
    let bytes = std::fs::read(file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    gz.write_all(&bytes)
        .map_err(|e| format!("cannot compress {}: {e}", file.display()))?;
    let zipped = gz
        .finish()
        .map_err(|e| format!("cannot compress {}: {e}", file.display()))?;
    let mut name = file.as_os_str().to_owned();
    name.push(".gz");
    std::fs::write(&name, zipped).map_err(|e| format!("cannot write {}: {e}", file.display()))
}
