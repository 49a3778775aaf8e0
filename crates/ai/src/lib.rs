//! The AI: move generation, the spy, AI players at three levels, and batch simulation.
//!
//! Everything here plays through the engine's public API: it reads a [`Game`](crate::game::Game)
//! and answers with [`Action`](crate::game::Action)s, which the engine checks like anyone
//! else's.

#![deny(missing_docs)]

// The other crates' modules, named as the rest of the runtime names them.
use scryptic_core::{board, game, lexicon, limits, map, ronfile, rules};

mod at_once;
pub mod balance;
pub mod crossing;
pub mod eval;
pub mod ismcts;
pub mod leaves;
pub mod movegen;
pub mod pace;
pub mod player;
pub mod simulate;
pub mod spy;
mod sudden_death;
pub mod table;
pub mod think;

pub use movegen::{Move, MoveGen};
pub use pace::{Pace, Pacer, Pacers};
pub use player::{AiPlayer, Level};
pub use spy::Spy;
pub use table::AiTable;
pub use think::Think;

/// Makes the spy's word graphs in the background when `game` lets players ask the spy, so
/// that a person's first question is answered at once: the dictionary's GADDAG takes about a
/// second to make, once per process (see `Lexicon::gaddag`). For interactive games (the
/// editor, the terminal); the answer is the same whether the graphs were made before or on
/// the question. Nothing is made where threads are not (the browser, whose spy is the
/// server's).
pub fn warm_spy(game: &crate::game::Game) {
    if game.rules().turn.spies_per_game <= 0 || cfg!(target_arch = "wasm32") {
        return;
    }
    let lexicon = game.shared_lexicon();
    // A thread that cannot start only means the graph is made on the first question.
    let _ = std::thread::Builder::new()
        .name("spy graphs".into())
        .spawn(move || {
            let _ = lexicon.gaddag();
        });
}

/// The spy every game plays with (`Action::Spy`).
pub fn spy() -> std::sync::Arc<dyn crate::game::Advisor> {
    std::sync::Arc::new(Spy::default())
}
