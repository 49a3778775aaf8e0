//! Builds the browser client (`crates/web`, the play view compiled to WebAssembly) that
//! `scryptic serve` serves at every match's link, so that the server built as the README says
//! serves it with no extra command and no prebuilt file in the repository.
//!
//! The client is built by a cargo of its own (the same toolchain, the same `Cargo.lock`) in
//! `target/web-client` with the `web-client` profile, whatever profile builds the server: a
//! debug build of the client is ten times the download. Then wasm-bindgen (the library of the
//! very version the client links, pinned in the workspace) writes its JavaScript glue, and both
//! files are kept gzipped beside the plain ones, to be sent to browsers that take gzip.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

const WASM_TARGET: &str = "wasm32-unknown-unknown";

fn main() {
    if let Err(e) = build() {
        // A build script's failure is shown by cargo with this text.
        eprintln!("error: the browser client (crates/web) could not be built: {e}");
        std::process::exit(1);
    }
}

fn build() -> Result<(), String> {
    let manifest_dir = PathBuf::from(var("CARGO_MANIFEST_DIR")?);
    let root = manifest_dir.join("../..");
    let out_dir = PathBuf::from(var("OUT_DIR")?);
    // What the client is made of: when none of it changed the client is not looked at again.
    for watched in [
        "crates/web",
        "crates/play",
        "crates/core",
        "crates/pack",
        "crates/protocol",
        "crates/render",
        "lexicon",
        "Cargo.lock",
        "Cargo.toml",
    ] {
        println!("cargo::rerun-if-changed={}", root.join(watched).display());
    }
    check_target()?;
    let target_dir = target_dir(&out_dir).join("web-client");
    let wasm = compile(&root, &target_dir)?;
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

/// Says how to install the WebAssembly target when the toolchain lacks it (`.ci/run` and
/// `rust-toolchain.toml` install it).
fn check_target() -> Result<(), String> {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let sysroot = Command::new(&rustc)
        .args(["--print", "sysroot"])
        .output()
        .map_err(|e| format!("cannot run {rustc}: {e}"))?;
    let sysroot = String::from_utf8_lossy(&sysroot.stdout).trim().to_string();
    let lib = Path::new(&sysroot).join("lib/rustlib").join(WASM_TARGET);
    if lib.is_dir() {
        Ok(())
    } else {
        Err(format!(
            "this Rust toolchain has no {WASM_TARGET} target; install it with \
             `rustup target add {WASM_TARGET}`"
        ))
    }
}

/// The build's target directory (where `OUT_DIR` lies: the first folder above it cargo
/// tagged as its own).
fn target_dir(out_dir: &Path) -> PathBuf {
    out_dir
        .ancestors()
        .find(|dir| dir.join("CACHEDIR.TAG").is_file())
        .map_or_else(|| out_dir.join("target"), Path::to_path_buf)
}

/// Compiles the client to WebAssembly; the module's path.
fn compile(root: &Path, target_dir: &Path) -> Result<PathBuf, String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut command = Command::new(cargo);
    command
        .args([
            "rustc",
            "--lib",
            "--crate-type",
            "cdylib",
            "--profile",
            "web-client",
        ])
        .args(["--target", WASM_TARGET, "--manifest-path"])
        .arg(root.join("crates/web/Cargo.toml"))
        .arg("--target-dir")
        .arg(target_dir);
    // What the outer build set for itself is not the client's: a wrapper (clippy's, or
    // `cargo fix`'s) would check the client instead of building it, and flags meant for this
    // machine's processor mean nothing to WebAssembly.
    for name in [
        "RUSTC_WRAPPER",
        "RUSTC_WORKSPACE_WRAPPER",
        "CLIPPY_ARGS",
        "RUSTFLAGS",
        "CARGO_ENCODED_RUSTFLAGS",
        "CARGO_BUILD_RUSTFLAGS",
        "CARGO_BUILD_TARGET",
        "CARGO_TARGET_DIR",
        "CARGO_BUILD_TARGET_DIR",
    ] {
        command.env_remove(name);
    }
    let status = command
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if !status.success() {
        return Err(format!("cargo rustc for {WASM_TARGET} failed ({status})"));
    }
    Ok(target_dir
        .join(WASM_TARGET)
        .join("web-client/scryptic_web.wasm"))
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
