//! The Scryptic runtime.
#![deny(missing_docs)]
pub mod board;
pub mod diag;
pub mod fsutil;
pub mod map;
pub mod noise;
pub mod ronfile;
pub mod rules;
