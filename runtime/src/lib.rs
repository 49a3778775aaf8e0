//! The Scryptic runtime: rule sets, maps, tilesets and the `scryptic` command line.
//!
//! The runtime knows no GUI toolkit. Everything a client needs to show (validation findings,
//! rule descriptions, rendered previews) is computed here and handed out as plain data.
#![deny(missing_docs)]

pub mod ai;
pub mod board;
pub mod cli;
pub mod diag;
pub mod fsutil;
pub mod game;
pub mod lexicon;
pub mod limits;
pub mod map;
pub mod noise;
pub mod pack;
pub mod render;
pub mod ronfile;
pub mod rules;
pub mod save;
pub mod script;
pub mod tileset;

pub use board::{City, Grid, Owner, Player, Pos, Terrain, TokenSpot};
pub use diag::{FileError, Finding, Severity};
pub use map::Map;
pub use rules::RuleSet;
