//! A scripted game's events in words, as the viewer they were seen by may read them.

use super::{Event, Place};

/// Who may see what a value shown to `to` is, in words.
fn seats_words(to: super::SeatSet) -> String {
    let names: Vec<String> = to.seats().map(|p| p.to_string()).collect();
    match names.len() {
        0 => "no one".into(),
        _ => names.join(" and "),
    }
}

/// A piece's value with its article: `a 3`, `an 8`, `an 11` (the numbers said with a vowel
/// first).
pub fn a_value(v: i64) -> String {
    if v.to_string().starts_with('8') || [11, 18].contains(&v) {
        format!("an {v}")
    } else {
        format!("a {v}")
    }
}

/// Where a piece is, as a player says it: `on C5`, `in the used pit`.
fn where_it_is(at: &Place) -> String {
    match at {
        Place::Cell(cell) => format!("on {}", super::notation::cell_name(*cell)),
        Place::Pit(name) => format!("in the {name} pit"),
    }
}

/// One line saying what a scripted game's `event` means (it is one of them).
pub(super) fn describe_table_event(event: &Event) -> String {
    match event {
        Event::Moved { player, mv, secret } if *secret && mv.is_empty() => {
            format!("{player} made a secret choice")
        }
        Event::Moved { player, mv, secret } if *secret => {
            format!("{player} chose {mv} (in secret)")
        }
        Event::Moved { player, mv, .. } => format!("{player}: {mv}"),
        // Pieces are named as players name them, by whose they are and where, never by an id.
        Event::PieceMoved {
            owner,
            kind,
            from: Place::Pit(from),
            to,
            ..
        } if from.is_empty() => format!("{owner}'s {kind} is added to {to}"),
        Event::PieceMoved {
            owner,
            kind,
            from: Place::Cell(from),
            to,
            ..
        } => format!(
            "{owner}'s {kind} on {} goes to {to}",
            super::notation::cell_name(*from)
        ),
        Event::PieceMoved {
            owner,
            kind,
            from,
            to,
            ..
        } => format!("{owner}'s {kind} goes from {from} to {to}"),
        Event::PieceShown {
            owner,
            kind,
            at,
            value: Some(v),
            to,
            ..
        } => format!(
            "{owner}'s {kind} {} is shown to {}: {}",
            where_it_is(at),
            seats_words(*to),
            a_value(*v)
        ),
        Event::PieceShown {
            owner,
            kind,
            at,
            to,
            ..
        } => format!(
            "{owner}'s {kind} {} is shown to {}",
            where_it_is(at),
            seats_words(*to)
        ),
        Event::PieceHidden {
            owner, kind, at, ..
        } => format!("{owner}'s {kind} {} is hidden again", where_it_is(at)),
        Event::ChoicesRevealed { seats } => {
            format!("the secret choices of {} are revealed", seats_words(*seats))
        }
        Event::Said { text, to: Some(p) } if text.is_empty() => format!("(something said to {p})"),
        Event::Said { text, .. } => text.clone(),
        _ => String::new(),
    }
}

/// A seat's mark in a table's text: `g` for gold, `s` for silver, the seat's number beyond.
pub fn seat_mark(player: crate::board::Player) -> char {
    match player.index() {
        0 => 'g',
        1 => 's',
        i => char::from_digit(u32::try_from(i + 1).unwrap_or(9), 10).unwrap_or('?'),
    }
}

/// A piece as one character on a board: its value's digit, `?` where it is hidden from the
/// viewer, else (a value past 9, or none) its kind's first letter.
pub fn piece_glyph(piece: &super::Piece) -> char {
    let digit = piece
        .value
        .and_then(|v| u32::try_from(v).ok())
        .and_then(|v| char::from_digit(v, 10));
    match (digit, piece.hidden) {
        (Some(d), _) => d,
        (None, true) => '?',
        (None, false) => piece
            .kind
            .chars()
            .next()
            .map_or('o', |c| c.to_ascii_uppercase()),
    }
}

/// A piece as a table's text writes it: its owner's mark and its value (`?` where hidden,
/// nothing where it has none): `g3`, `s?`, `g`.
pub fn piece_text(piece: &super::Piece) -> String {
    let value = match (piece.value, piece.hidden) {
        (Some(v), _) => v.to_string(),
        (None, true) => "?".into(),
        (None, false) => String::new(),
    };
    format!("{}{value}", seat_mark(piece.owner))
}

impl super::Table {
    /// The board's pieces row by row, cells apart by spaces and `.` where empty, as this
    /// table (a view, or the truth) has them.
    pub fn rows(&self) -> Vec<String> {
        (0..self.height())
            .map(|y| {
                let cells: Vec<String> = (0..self.width())
                    .map(|x| {
                        self.piece_at(crate::board::Pos::new(x, y))
                            .and_then(|id| self.piece(id))
                            .map_or_else(|| ".".to_string(), piece_text)
                    })
                    .collect();
                cells.join(" ")
            })
            .collect()
    }

    /// The rules' variables as text, `name value` apart by commas (`set 2, starter silver`),
    /// if there are any to show: a name that begins with `_` is the rules' own bookkeeping,
    /// which players may read but a status line leaves out.
    pub fn vars_text(&self) -> Option<String> {
        let vars: Vec<String> = self
            .vars()
            .iter()
            .filter(|(name, _)| !name.starts_with('_'))
            .map(|(name, value)| match value {
                super::Var::Int(i) => format!("{name} {i}"),
                super::Var::Text(t) => format!("{name} {t}"),
                super::Var::Bool(b) => format!("{name} {b}"),
            })
            .collect();
        (!vars.is_empty()).then(|| vars.join(", "))
    }

    /// `player`'s pieces as text: how many are on the board, then each pit's count and the
    /// values this table (a view) shows of it (`2 on the board, available 14 (1 1 3 ? ?)`).
    pub fn pieces_text(&self, player: crate::board::Player) -> String {
        let pits = self.pit_names(player);
        let on_board = self
            .pieces()
            .iter()
            .filter(|p| p.owner == player && matches!(p.place, Place::Cell(_)))
            .count();
        let mut parts = vec![format!("{on_board} on the board")];
        for name in pits {
            let count = self.pit(player, name).count();
            let values = self.pit_text(player, name);
            if values.chars().all(|c| c == '?' || c == ' ') {
                parts.push(format!("{name} {count}"));
            } else {
                parts.push(format!("{name} {count} ({values})"));
            }
        }
        parts.join(", ")
    }

    /// `owner`'s pit `name` as text: its pieces' values in order, then those hidden
    /// (`1 3 ? ?`), or `empty`. A pit holds its pieces in no order.
    pub fn pit_text(&self, owner: crate::board::Player, name: &str) -> String {
        let values: Vec<String> = self
            .pit_in_order(owner, name)
            .into_iter()
            .filter_map(|id| self.piece(id))
            .map(|p| piece_text(p)[1..].to_string())
            .collect();
        if values.is_empty() {
            "empty".into()
        } else {
            values.join(" ")
        }
    }

    /// The names of `player`'s pits that hold a piece, in alphabetical order.
    pub fn pit_names(&self, player: crate::board::Player) -> Vec<&str> {
        let mut pits: Vec<&str> = self
            .pieces()
            .iter()
            .filter(|p| p.owner == player)
            .filter_map(|p| match &p.place {
                Place::Pit(name) => Some(name.as_str()),
                Place::Cell(_) => None,
            })
            .collect();
        pits.sort_unstable();
        pits.dedup();
        pits
    }

    /// The ids of `owner`'s pieces in pit `name` as a player sees them laid out: values shown
    /// first, lowest first, then those hidden (so their order tells nothing).
    pub fn pit_in_order(&self, owner: crate::board::Player, name: &str) -> Vec<usize> {
        let mut ids: Vec<usize> = self.pit(owner, name).collect();
        ids.sort_by_key(|&id| {
            self.piece(id)
                .map(|p| (p.hidden, p.value.is_none(), p.value))
        });
        ids
    }
}

/// The cells a move's text names, in order (`C8-C6`: C8 then C6; `field 3 C8`: C8; an attack
/// written as chess writes a capture, `C4xE2`: C4 then E2), so that a client can offer the
/// moves of a cell picked on the board.
pub fn cells_named(mv: &str) -> Vec<crate::board::Pos> {
    mv.split(|c: char| !c.is_ascii_alphanumeric())
        .flat_map(|word| match super::notation::parse_cell(word) {
            Ok(cell) => vec![cell],
            Err(_) => cells_run_together(word),
        })
        .collect()
}

/// The cells in a word that joins them with letters (`C4xE2`): it is cut after each run of
/// digits, and each piece's cell is its trailing capital letters and digits.
fn cells_run_together(word: &str) -> Vec<crate::board::Pos> {
    let mut cells = Vec::new();
    let mut start = 0;
    let bytes = word.as_bytes();
    for i in 0..bytes.len() {
        let ends_piece =
            bytes[i].is_ascii_digit() && bytes.get(i + 1).is_none_or(|next| !next.is_ascii_digit());
        if !ends_piece {
            continue;
        }
        let piece = &word[start..=i];
        let digits = piece.len() - piece.bytes().rev().take_while(u8::is_ascii_digit).count();
        let capitals = piece[..digits]
            .bytes()
            .rev()
            .take_while(u8::is_ascii_uppercase)
            .count();
        if let Ok(cell) = super::notation::parse_cell(&piece[digits - capitals..]) {
            cells.push(cell);
        }
        start = i + 1;
    }
    cells
}

#[cfg(test)]
mod tests {
    use super::cells_named;
    use crate::board::Pos;

    fn check(mv: &str, cells: &[(u32, u32)]) {
        let expected: Vec<Pos> = cells.iter().map(|&(x, y)| Pos::new(x, y)).collect();
        assert_eq!(cells_named(mv), expected, "{mv}");
    }

    #[test]
    fn every_move_notation_names_its_cells() {
        check("C8-C6", &[(2, 7), (2, 5)]);
        check("field 3 C8", &[(2, 7)]);
        check("C6xC5", &[(2, 5), (2, 4)]);
        check("AA10xAB12", &[(26, 9), (27, 11)]);
        check("ready", &[]);
        check("pass", &[]);
        check("x", &[]);
    }
}
