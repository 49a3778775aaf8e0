//! The browser client's WebAssembly module, compiled by this crate's build script (see
//! `build.rs`). The crate holds no code: its build script's `links` metadata
//! (`DEP_SCRYPTIC_WEB_MODULE_WASM`, the module's path) is what the server's build script reads.
