//! The Scryptic runtime: rule sets, maps, tilesets and the `scryptic` command line.
//!
//! This crate is the facade the editor and the tests use: each part is its own crate, so that
//! what a part must never know (ARCHITECTURE.md) holds by construction. `scryptic-core` (the
//! board, rules, lexicon, maps, the engine and saves) has no Lua, no file watching, no command
//! line, no images and no threads; `scryptic-pack` reads packs and assembles levels;
//! `scryptic-script` is the only crate with mlua and notify; `scryptic-ai` plays;
//! `scryptic-render` draws; `scryptic-cli` is the command line.
//!
//! The runtime knows no GUI toolkit. Everything a client needs to show (validation findings,
//! rule descriptions, rendered previews) is computed here and handed out as plain data.
#![deny(missing_docs)]

pub use scryptic_ai as ai;
pub use scryptic_cli as cli;
pub use scryptic_client as client;
pub use scryptic_core::{
    board, diag, fsutil, game, lexicon, limits, map, noise, ronfile, rules, save, scenario,
};
pub use scryptic_pack as pack;
pub use scryptic_protocol as protocol;
pub use scryptic_render::{render, tileset};
pub use scryptic_script as script;
pub use scryptic_server as server;

pub use scryptic_core::board::{City, Grid, Owner, Player, Pos, Terrain, TokenSpot};
pub use scryptic_core::diag::{FileError, Finding, Severity};
pub use scryptic_core::map::Map;
pub use scryptic_core::rules::RuleSet;
