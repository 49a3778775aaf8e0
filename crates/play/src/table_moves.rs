//! A scripted game's moves as a person makes them on the board: a piece's cell clicked, then
//! its target; a piece dragged from its cell or from a pit and dropped on a cell. Moves are the
//! rules' texts; the cells a text names (`C8-C6`, `field 3 C8`) tie it to the board.

use super::session::Session;
use scryptic_core::Pos;
use scryptic_core::game::table_words::cells_named;
use scryptic_core::game::{Action, Place};

impl Session {
    /// The legal moves of the person to act, those naming the picked cell if one is picked.
    pub fn offered_moves(&self) -> Vec<String> {
        match self.picked {
            Some(cell) => self.moves_naming(cell),
            None => self.person_moves(),
        }
    }

    /// A cell clicked in a scripted game: with a cell picked, the one move naming both (the
    /// picked first) is played; otherwise the cell is picked if some move names it.
    pub fn pick_cell(&mut self, cell: Pos) {
        if let Some(from) = self.picked.take()
            && self.play_the_one(self.moves_from_to(from, cell))
        {
            return;
        }
        self.picked = Some(cell);
        if self.offered_moves().is_empty() {
            self.picked = None;
        }
    }

    /// Piece `id` (as the person sees the table) dropped on `cell`: from a cell, the move
    /// naming its cell then `cell`; from a pit, the move naming `cell` alone, and the piece's
    /// value (or kind) where several do. Several moves left: the cell is picked and the
    /// buttons offer them; none: the refusal says so.
    pub fn drop_piece(&mut self, id: usize, cell: Pos) {
        let Some(person) = self.human_to_act() else {
            return;
        };
        let table = self.game().table_for(Some(person));
        let Some(piece) = table.piece(id) else {
            return;
        };
        self.picked = None;
        let candidates = match &piece.place {
            Place::Cell(from) if *from == cell => return,
            Place::Cell(from) => self.moves_from_to(*from, cell),
            Place::Pit(_) => {
                let glyph = scryptic_core::game::table_words::piece_glyph(piece).to_string();
                let into: Vec<String> = self
                    .moves_naming(cell)
                    .into_iter()
                    .filter(|m| cells_named(m) == [cell])
                    .collect();
                let named = |m: &String| {
                    m.split_whitespace()
                        .any(|w| w == glyph || w == &*piece.kind)
                };
                match into.iter().filter(|m| named(m)).count() {
                    0 => into,
                    _ => into.iter().filter(|m| named(m)).cloned().collect(),
                }
            }
        };
        if candidates.is_empty() {
            self.refusal = Some(format!(
                "no move of yours brings that piece to {}",
                scryptic_core::game::notation::cell_name(cell)
            ));
            return;
        }
        if !self.play_the_one(candidates) {
            self.picked = Some(cell);
        }
    }

    /// Plays the move if `moves` holds exactly one; answers whether it did.
    fn play_the_one(&mut self, moves: Vec<String>) -> bool {
        let (Some(person), [mv]) = (self.human_to_act(), moves.as_slice()) else {
            return false;
        };
        let mv = mv.clone();
        self.act(Action::Move { player: person, mv });
        true
    }

    /// The person's moves naming `from` first and `to` after it.
    fn moves_from_to(&self, from: Pos, to: Pos) -> Vec<String> {
        if from == to {
            return Vec::new();
        }
        self.moves_naming(from)
            .into_iter()
            .filter(|m| {
                let cells = cells_named(m);
                cells.first() == Some(&from) && cells.contains(&to)
            })
            .collect()
    }

    /// The person's moves whose text names `cell`.
    fn moves_naming(&self, cell: Pos) -> Vec<String> {
        self.person_moves()
            .into_iter()
            .filter(|m| cells_named(m).contains(&cell))
            .collect()
    }

    /// Every legal move of the person to act (none when it is not a person's move).
    fn person_moves(&self) -> Vec<String> {
        self.human_to_act()
            .map(|person| self.game.moves_of(person))
            .unwrap_or_default()
    }
}
