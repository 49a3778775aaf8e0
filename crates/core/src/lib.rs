//! The Scryptic core: the board, rule sets, the lexicon, maps, the game engine and saves.
//!
//! **Invariant:** this crate has no Lua, no file watching, no command line, no images and no
//! threads (its dependencies say so: no mlua, notify, clap, image or rayon); the engine
//! (`game`) does no I/O, and `fst` is used only behind the lexicon (a test in `tests/` reads
//! the sources to hold both).
#![deny(missing_docs)]

pub mod board;
pub mod diag;
pub mod fsutil;
pub mod game;
pub mod lexicon;
pub mod limits;
pub mod map;
pub mod noise;
pub mod ronfile;
pub mod rules;
pub mod save;
pub mod scenario;

pub use board::{City, Grid, Owner, Player, Pos, Terrain, TokenSpot};
pub use diag::{FileError, Finding, Severity};
pub use map::Map;
pub use rules::RuleSet;
