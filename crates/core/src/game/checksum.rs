//! A checksum of a game's state, as Factorio checks a replay against the game it records: a
//! save keeps one after each action, and a replay that computes another has departed from the
//! game (a script that depends on something a replay does not reproduce, such as the order
//! `pairs` visits tables used as keys).
//!
//! FNV-1a over the state's parts in a fixed order; what is small is fed through its `Debug`
//! form, what grows with the board cell by cell. The form is versioned
//! (`CHECKSUM_VERSION`): a save of another version is not compared.

use super::Game;
use std::fmt::Write;

/// The version of the checksum's form; a save records it beside its checksums.
pub const CHECKSUM_VERSION: u32 = 1;

/// FNV-1a, 64 bits: stable on every machine and in every build.
struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    fn bytes(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.word(u64::from(b));
        }
    }

    /// One word at a time (the board's cells): FNV's step on a whole word.
    fn word(&mut self, w: u64) {
        self.0 = (self.0 ^ w).wrapping_mul(0x0000_0100_0000_01b3);
    }

    fn number(&mut self, n: i64) {
        self.word(n as u64);
    }

    /// `value`'s `Debug` form, fed as it is written (nothing is allocated).
    fn debug(&mut self, value: &dyn std::fmt::Debug) {
        // Writing into the hash cannot fail.
        let _ = write!(self, "{value:?}");
        // A separator, so that two parts never run into one another.
        self.bytes(&[0xff]);
    }
}

impl Write for Fnv {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.bytes(s.as_bytes());
        Ok(())
    }
}

impl Game {
    /// A checksum of everything the game's future depends on: the board, the seats' racks,
    /// pools and scores, whose turn it is, the marks on words, what waits for an answer, the
    /// table of a scripted game and where the game's random generator stands. Two games that
    /// were played alike have the same checksum after every action.
    pub fn checksum(&self) -> u64 {
        let mut h = Fnv::new();
        h.number(i64::from(self.turn));
        h.debug(&self.active);
        h.debug(&self.result);
        h.debug(&self.deferred_end);
        for seat in &self.players {
            h.debug(seat);
        }
        h.debug(&self.shared_pool);
        self.hash_board(&mut h);
        h.debug(&self.turn_state);
        h.number(self.passes_in_row);
        h.debug(&self.marks);
        h.debug(&self.pending);
        h.debug(&self.offer);
        h.debug(&self.sudden_death);
        h.debug(&self.lights);
        h.debug(&self.table);
        h.debug(&self.secret);
        let at = self.rng.get_word_pos();
        h.word(at as u64);
        h.word((at >> 64) as u64);
        h.0
    }

    /// The board, cell by cell (its `Debug` form would be slow to write on a large map).
    fn hash_board(&self, h: &mut Fnv) {
        let board = &self.board;
        let cells = board.terrain.cells().iter().zip(board.letters.cells());
        for ((terrain, tile), (density, thickness)) in
            cells.zip(board.density.cells().iter().zip(board.thickness.cells()))
        {
            let tile = tile.map_or(0, |t| (u64::from(t.letter) << 8) | t.player.index() as u64);
            h.word((tile << 8) | *terrain as u64);
            h.number(*density ^ (*thickness << 32));
        }
        h.debug(&board.cities);
        h.debug(&board.tokens);
    }
}
