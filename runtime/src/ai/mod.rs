//! The AI: move generation, the spy, AI players at three levels, and batch simulation.
//!
//! Everything here plays through the engine's public API: it reads a [`Game`] and answers
//! with [`Action`]s, which the engine checks like anyone else's.

pub mod movegen;

pub use movegen::{Move, MoveGen};
