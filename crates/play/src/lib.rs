//! Scryptic's play view: a game drawn with egui from what a [`referee::Referee`] shows (the
//! board, the rack, the panels, the combat dialog, a scripted game's table) and actions sent
//! to it. The editor shows it for games it referees with their scripts and for matches on a
//! server; the browser client is the same view compiled to WebAssembly.
//!
//! **Invariant:** the play view knows no Lua, no threads, no files and no async runtime: what
//! it draws comes from its referee, and what a person does goes to it.

pub mod at_once;
pub mod at_once_panel;
pub mod board;
pub mod combat;
mod hearing;
pub mod help;
pub mod keys;
pub mod pieces;
pub mod play_view;
pub mod rack;
pub mod referee;
pub mod replay;
pub mod server_seat;
pub mod session;
pub mod side_panel;
pub mod table_board;
mod table_moves;
pub mod table_panel;
pub mod textures;
pub mod theme;
pub mod view;

pub use play_view::PlayView;
pub use referee::{Heard, NextRound, OnlineMatch, Outcome, Pace, Referee};
pub use session::{Seat, Session};
