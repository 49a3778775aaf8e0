//! Checksums of a game's state, as Factorio checks a replay against the game it records: a
//! save keeps them, and a replay that computes others has departed from the game (a script
//! that depends on something a replay does not reproduce, such as the order `pairs` visits
//! tables used as keys).
//!
//! Two of them, so that keeping them costs next to nothing: the quick checksum, after every
//! action, of what nearly every change shows in (whose turn, the scores, the racks, the pools'
//! sizes, where letters stand, who holds each city, the generator's place), a few dozen words;
//! and the full checksum of everything (every cell's letter, terrain, density and thickness,
//! the pools' letters, the marks, the table), every `FULL_EVERY` actions and at a save's end.
//! FNV-1a over the parts in a fixed order, word by word; the form is versioned
//! (`CHECKSUM_VERSION`): a save of another version is not compared.

use super::Game;
use std::fmt::Write;

/// The version of the checksums' form; a save records it beside them.
pub const CHECKSUM_VERSION: u32 = 1;

/// How many actions apart the full checksum is kept (and at a save's last action).
pub const FULL_EVERY: usize = 256;

/// FNV-1a, 64 bits, a word at a time: stable on every machine and in every build.
struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    fn word(&mut self, w: u64) {
        self.0 = (self.0 ^ w).wrapping_mul(0x0000_0100_0000_01b3);
    }

    fn number(&mut self, n: i64) {
        self.word(n as u64);
    }

    /// `value`'s `Debug` form, fed as it is written (nothing is allocated): for the parts that
    /// are small and rare (what waits for an answer, a scripted game's table).
    fn debug(&mut self, value: &dyn std::fmt::Debug) {
        // Writing into the hash cannot fail.
        let _ = write!(self, "{value:?}");
        self.word(0xff);
    }
}

impl Write for Fnv {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        for b in s.bytes() {
            self.word(u64::from(b));
        }
        Ok(())
    }
}

impl Game {
    /// A checksum of what nearly every change shows in, cheap enough to keep after every
    /// action: whose turn, each seat's score, rack, spies and pool size, where letters stand
    /// (not which), who holds each city, how many marks, pieces and tokens, what waits for an
    /// answer, and where the game's random generator stands.
    pub fn quick_checksum(&self) -> u64 {
        // Folded a word at a time by a rotation and an exclusive or (the cheapest fold that
        // still tells the order of what it folds), mixed once at the end.
        let fold = |acc: u64, w: u64| acc.rotate_left(5) ^ w;
        let mut acc = u64::from(self.turn) | (self.active.index() as u64) << 32;
        acc = fold(
            acc,
            u64::from(self.result.is_some()) | u64::from(self.pending.is_some()) << 1,
        );
        for seat in &self.players {
            acc = fold(acc, seat.base_score as u64);
            acc = fold(acc, seat.spies_used as u64 ^ (seat.pool.len() as u64) << 16);
            acc = fold(acc, seat.lost as u64);
            for item in &seat.rack {
                acc = fold(
                    acc,
                    match item {
                        super::RackItem::Letter(c) => u64::from(*c),
                        super::RackItem::Token { id, .. } => id.len() as u64 | 1 << 40,
                    },
                );
            }
        }
        acc = fold(acc, self.shared_pool.len() as u64);
        for &row in self.board.letters.occupied_rows() {
            acc = fold(acc, row);
        }
        for city in &self.board.cities {
            acc = fold(acc, city.owner as u64 | u64::from(city.destroyed) << 8);
        }
        acc = fold(
            acc,
            self.marks.defeated.len() as u64
                | (self.marks.fragments.len() as u64) << 20
                | (self.table.pieces().len() as u64) << 40,
        );
        let at = self.rng.get_word_pos();
        let mut h = Fnv::new();
        h.word(acc);
        h.word(at as u64);
        h.word((at >> 64) as u64);
        h.0
    }

    /// A checksum of everything the game's future depends on: besides the quick checksum's
    /// parts, every cell (letter, terrain, forest density, ice thickness), the pools' letters,
    /// the marks on words, the token spots, the seats' turn state, what waits for an answer
    /// and the table of a scripted game. Two games played alike have the same one.
    pub fn checksum(&self) -> u64 {
        let mut h = Fnv::new();
        h.word(self.quick_checksum());
        self.hash_board(&mut h);
        for seat in &self.players {
            for &c in &seat.pool {
                h.word(u64::from(c));
            }
            h.number(i64::from(seat.turns_started));
            h.word(0xfe);
        }
        for &c in &self.shared_pool {
            h.word(u64::from(c));
        }
        for (player, key) in self.marks.defeated.iter().chain(&self.marks.fragments) {
            h.word(player.index() as u64);
            h.word(key.start.x as u64 | (key.start.y as u64) << 32);
            h.word(key.dir as u64 | u64::from(key.len) << 8);
        }
        for penalty in &self.marks.penalties {
            h.number(penalty.amount);
        }
        let t = &self.turn_state;
        h.word(
            u64::from(t.committed) | u64::from(t.exchanged) << 1 | u64::from(t.offer_refused) << 2,
        );
        h.number(t.redeploys);
        h.number(self.passes_in_row);
        h.debug(&(&self.result, &self.deferred_end, &self.pending));
        h.debug(&(&self.offer, &self.sudden_death, &self.lights));
        if !self.table.pieces().is_empty() || self.mode.is_some() {
            h.debug(&self.table);
            h.debug(&self.secret);
        }
        h.0
    }

    /// The board, cell by cell, a word a cell and another for its density and thickness.
    fn hash_board(&self, h: &mut Fnv) {
        let board = &self.board;
        let cells = board.terrain.cells().iter().zip(board.letters.cells());
        let depths = board.density.cells().iter().zip(board.thickness.cells());
        for ((terrain, tile), (density, thickness)) in cells.zip(depths) {
            let tile = tile.map_or(0, |t| (u64::from(t.letter) << 8) | t.player.index() as u64);
            h.word((tile << 8) | *terrain as u64);
            h.number(*density ^ (*thickness << 32));
        }
        for token in &board.tokens {
            h.word(token.captured_by.map_or(0xff, |p| p.index() as u64));
        }
    }
}
