//! The terminal game's screen: the board and the players drawn for a person at a terminal.
//!
//! Cells are two characters wide: a glyph and a mark. Letters are capitals for both players;
//! with colour, gold's are yellow and silver's cyan, and without it (`NO_COLOR`, or output
//! that is not a terminal) a mark follows each: `+` gold, `-` silver. Terrain glyphs are never
//! letters, and token spots are lowercase letters (one per kind, in the legend), so nothing on
//! the board can be taken for a placed letter. Cities are `@`, with their owner's colour or
//! mark. Columns are named as the notation names them (A..Z, AA..), written downwards above
//! their cells so that each stays aligned however many letters its name has.

use crate::board::{Owner, Player, Pos, Terrain};
use crate::game::Game;
use crate::game::notation::column_name;
use std::collections::BTreeMap;

/// How the terminal shows things and takes lines, decided once for the process.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TerminalOptions {
    /// Colours (ANSI escapes) on the output.
    pub colour: bool,
    /// Hot-seat: between two players the screen is cleared and the game waits for the next
    /// player to press Enter, so that nobody sees the other's rack.
    pub pause_between_players: bool,
    /// Line editing and history (a person typing at a terminal, not a pipe).
    pub line_editing: bool,
    /// Progress bars on standard error (a terminal there).
    pub progress: bool,
}

impl TerminalOptions {
    /// What the process's terminal can do: colour when standard output is a terminal that is
    /// not `dumb` and `NO_COLOR` is unset or empty (no-color.org); the pause and line editing
    /// when standard input and output are both terminals; progress bars when standard error
    /// is one.
    pub fn detect() -> TerminalOptions {
        use std::io::IsTerminal;
        TerminalOptions::decide(
            Terminals {
                stdin: std::io::stdin().is_terminal(),
                stdout: std::io::stdout().is_terminal(),
                stderr: std::io::stderr().is_terminal(),
            },
            std::env::var_os("NO_COLOR").as_deref(),
            std::env::var_os("TERM").as_deref(),
        )
    }

    /// What [`TerminalOptions::detect`] decides for these streams and these values of
    /// `NO_COLOR` and `TERM`.
    pub fn decide(
        terminals: Terminals,
        no_color: Option<&std::ffi::OsStr>,
        term: Option<&std::ffi::OsStr>,
    ) -> TerminalOptions {
        let no_colour = no_color.is_some_and(|v| !v.is_empty());
        let dumb = term.is_some_and(|t| t == "dumb");
        let person = terminals.stdout && terminals.stdin;
        TerminalOptions {
            colour: terminals.stdout && !no_colour && !dumb,
            pause_between_players: person,
            line_editing: person,
            progress: terminals.stderr,
        }
    }
}

/// Which of the standard streams are terminals.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Terminals {
    /// Standard input.
    pub stdin: bool,
    /// Standard output.
    pub stdout: bool,
    /// Standard error.
    pub stderr: bool,
}

const RESET: &str = "\x1b[0m";

/// Draws games for one terminal.
#[derive(Clone, Debug)]
pub(super) struct Screen {
    colour: bool,
    /// The mode's names and colours for the seats, where it gives them.
    seats: crate::game::SeatNames,
}

/// What one cell shows: its glyph, whose it is (for the colour or mark), and a terrain to tint
/// an empty cell by.
struct CellLook {
    glyph: char,
    owner: Option<Player>,
    terrain: Option<Terrain>,
}

impl Screen {
    pub(super) fn new(options: TerminalOptions) -> Screen {
        Screen {
            colour: options.colour,
            seats: crate::game::SeatNames::default(),
        }
    }

    /// Takes the seats' names and colours from the mode's (`game`'s rules), where it gives
    /// them.
    pub(super) fn use_seats_of(&mut self, game: &Game) {
        self.seats = game.seat_names();
    }

    /// `player`'s name, in their colour.
    pub(super) fn seat(&self, player: Player) -> String {
        self.in_colour_of(player, self.seats.name(player))
    }

    /// The name `player` goes by.
    pub(super) fn seat_name(&self, player: Player) -> &str {
        self.seats.name(player)
    }

    /// `text` (the engine's, naming seats by their own words) with the mode's names.
    pub(super) fn render(&self, text: &str) -> String {
        self.seats.render(text)
    }

    /// The escape that colours `player`'s text: the mode's colour, else the toolkit's.
    fn seat_escape(&self, player: Player) -> String {
        match self.seats.colour(player) {
            Some([r, g, b]) => format!("\x1b[1;38;2;{r};{g};{b}m"),
            None => Screen::player_colour(player).to_string(),
        }
    }

    /// The glyph of `terrain` on screen (never a letter).
    fn terrain_glyph(terrain: Terrain) -> char {
        match terrain {
            Terrain::Plains => '.',
            Terrain::Forest => '%',
            Terrain::Water => '~',
            Terrain::Mountain => '^',
            Terrain::Ice => '*',
            Terrain::Lava => '#',
        }
    }

    fn terrain_colour(terrain: Terrain) -> &'static str {
        match terrain {
            Terrain::Plains => "\x1b[2m",
            Terrain::Forest => "\x1b[32m",
            Terrain::Water => "\x1b[34m",
            Terrain::Mountain => "\x1b[35m",
            Terrain::Ice => "\x1b[37m",
            Terrain::Lava => "\x1b[31m",
        }
    }

    fn player_colour(player: Player) -> &'static str {
        // Gold yellow, silver cyan, then magenta, green, blue, red, white and grey.
        const COLOURS: [&str; crate::board::MAX_SEATS] = [
            "\x1b[1;33m",
            "\x1b[1;36m",
            "\x1b[1;35m",
            "\x1b[1;32m",
            "\x1b[1;34m",
            "\x1b[1;31m",
            "\x1b[1;37m",
            "\x1b[1;90m",
        ];
        COLOURS[player.index() % COLOURS.len()]
    }

    /// What follows a letter without colour to say whose it is: gold `+`, silver `-`, and
    /// the seat's number from seat 3 on.
    fn mark(player: Option<Player>) -> char {
        const MARKS: [char; crate::board::MAX_SEATS] = ['+', '-', '3', '4', '5', '6', '7', '8'];
        player.map_or(' ', |p| MARKS[p.index() % MARKS.len()])
    }

    /// `text` in `player`'s colour (or as it is without colour).
    pub(super) fn in_colour_of(&self, player: Player, text: &str) -> String {
        if self.colour {
            format!("{}{text}{RESET}", self.seat_escape(player))
        } else {
            text.to_string()
        }
    }

    /// The board with column names above and row numbers beside it, and its legend.
    pub(super) fn board(&self, game: &Game) -> String {
        self.board_seen(game, None)
    }

    /// The board of `game` (a seat's view, `Game::seen_by`, where hidden letters are `?`),
    /// cut to `area` (top-left and bottom-right cells) when given.
    pub(super) fn board_seen(&self, game: &Game, area: Option<(Pos, Pos)>) -> String {
        let board = game.board();
        let (w, h) = (board.terrain.width(), board.terrain.height());
        let (low, high) = area.unwrap_or((Pos::new(0, 0), Pos::new(w - 1, h - 1)));
        let kinds = token_glyphs(game);
        let row_label = h.to_string().len().max(2);
        let mut out = self.column_header(low.x..high.x + 1, row_label);
        for y in low.y..=high.y {
            out.push_str(&format!("{:>row_label$} ", y + 1));
            for x in low.x..=high.x {
                let look = cell_look(game, Pos::new(x, y), &kinds);
                out.push_str(&self.cell(&look));
            }
            out.truncate(out.trim_end_matches(' ').len());
            out.push('\n');
        }
        out.push_str(&self.legend(game, &kinds, (low, high)));
        out
    }

    /// A scripted game's board of pieces as `table` (a player's view) has them: a piece's
    /// value (`?` where hidden from the viewer; its kind's first letter where it has none) in
    /// its owner's colour or with their mark.
    pub(super) fn table_board(&self, game: &Game, table: &crate::game::Table) -> String {
        let (w, h) = (table.width(), table.height());
        let row_label = h.to_string().len().max(2);
        let mut out = self.column_header(0..w, row_label);
        for y in 0..h {
            out.push_str(&format!("{:>row_label$} ", y + 1));
            for x in 0..w {
                let at = Pos::new(x, y);
                let piece = table.piece_at(at).and_then(|id| table.piece(id));
                let look = match piece {
                    Some(p) => CellLook {
                        glyph: crate::game::table_words::piece_glyph(p),
                        owner: Some(p.owner),
                        terrain: None,
                    },
                    None => {
                        let terrain = game.board().terrain[at];
                        CellLook {
                            glyph: Screen::terrain_glyph(terrain),
                            owner: None,
                            terrain: Some(terrain),
                        }
                    }
                };
                out.push_str(&self.cell(&look));
            }
            out.truncate(out.trim_end_matches(' ').len());
            out.push('\n');
        }
        let whose = if self.colour {
            let seats: Vec<String> = game
                .seats()
                .map(|p| format!("{}'s", self.seat(p)))
                .collect();
            format!("pieces are {} by their colour", seats.join(" or "))
        } else {
            let seats: Vec<String> = game
                .seats()
                .map(|p| format!("{} {}'s", Screen::mark(Some(p)), self.seats.name(p)))
                .collect();
            format!("a mark after a piece says whose: {}", seats.join(", "))
        };
        out.push_str(&format!(
            "legend: a number is a piece's value, ? a value you cannot see; {whose}\n"
        ));
        out
    }

    /// Column names written downwards, one character a line, aligned with their cells.
    fn column_header(&self, columns: std::ops::Range<u32>, row_label: usize) -> String {
        let names: Vec<Vec<char>> = columns.map(|x| column_name(x).chars().collect()).collect();
        let tallest = names.iter().map(Vec::len).max().unwrap_or(1);
        let mut out = String::new();
        for line in 0..tallest {
            out.push_str(&" ".repeat(row_label + 1));
            for name in &names {
                let skip = tallest - name.len();
                let ch = if line >= skip { name[line - skip] } else { ' ' };
                out.push(ch);
                out.push(' ');
            }
            out.truncate(out.trim_end_matches(' ').len());
            out.push('\n');
        }
        out
    }

    fn cell(&self, look: &CellLook) -> String {
        if !self.colour {
            return format!("{}{}", look.glyph, Screen::mark(look.owner));
        }
        let colour = match (look.owner, look.terrain) {
            (Some(player), _) => self.seat_escape(player),
            (None, Some(terrain)) => Screen::terrain_colour(terrain).to_string(),
            // An uncaptured token spot or a neutral city: bold, to stand out of the terrain.
            (None, None) => "\x1b[1m".to_string(),
        };
        format!("{colour}{}{RESET} ", look.glyph)
    }

    /// The legend of what the board shows in `area` (top-left and bottom-right cells): its
    /// terrains, cities, token kinds and the first word's cell (nothing it does not show).
    fn legend(
        &self,
        game: &Game,
        kinds: &BTreeMap<String, char>,
        (low, high): (Pos, Pos),
    ) -> String {
        let board = game.board();
        let inside = |at: Pos| (low.x..=high.x).contains(&at.x) && (low.y..=high.y).contains(&at.y);
        let mut present = Vec::new();
        for y in low.y..=high.y {
            for x in low.x..=high.x {
                let terrain = board.terrain[Pos::new(x, y)];
                if !present.contains(&terrain) {
                    present.push(terrain);
                }
            }
        }
        let mut shown: Vec<String> = Terrain::ALL
            .iter()
            .filter(|t| present.contains(t))
            .map(|&t| format!("{} {}", Screen::terrain_glyph(t), t.name()))
            .collect();
        if board.cities.iter().any(|c| !c.destroyed && inside(c.at)) {
            shown.push("@ city".into());
        }
        if let Some(cell) = first_word_cell(game) {
            shown.push(format!(
                "{FIRST_WORD_GLYPH} the first word covers {}",
                crate::game::notation::cell_name(cell)
            ));
        }
        let mut out = format!("legend: {}", shown.join("  "));
        if !kinds.is_empty() {
            let tokens: Vec<String> = kinds.iter().map(|(k, g)| format!("{g} {k}")).collect();
            out.push_str(&format!("  tokens: {}", tokens.join(", ")));
        }
        out.push_str(&self.spots(game, kinds));
        out.push_str(&self.whose_legend(game));
        out.push('\n');
        out
    }

    /// How the board says whose a letter, a city or a captured token is, for every seat of
    /// the game by the name the mode gives it: in its colour, or by the mark after it.
    fn whose_legend(&self, game: &Game) -> String {
        let board = game.board();
        let mut things = vec!["letter"];
        if !board.cities.is_empty() {
            things.push("city");
        }
        if !board.tokens.is_empty() {
            things.push("captured token");
        }
        if self.colour {
            let seats: Vec<String> = game.seats().map(|p| self.seat(p)).collect();
            let plural: Vec<String> = things.iter().map(|t| plural(t)).collect();
            format!(
                "\n        {} are in their seat's colour: {}",
                or_list(&plural, "and"),
                seats.join(", ")
            )
        } else {
            let seats: Vec<String> = game
                .seats()
                .map(|p| format!("{} {}", Screen::mark(Some(p)), self.seat_name(p)))
                .collect();
            let things: Vec<String> = things.iter().map(|t| t.to_string()).collect();
            format!(
                "\n        a mark after a {} says whose: {}",
                or_list(&things, "or"),
                seats.join(", ")
            )
        }
    }

    /// Every token spot, with who captured it: a captured spot is often under the letters
    /// that took it, so the board alone cannot say.
    fn spots(&self, game: &Game, kinds: &BTreeMap<String, char>) -> String {
        let spots: Vec<String> = game
            .board()
            .tokens
            .iter()
            .map(|t| {
                let glyph = kinds.get(&*t.kind).copied().unwrap_or('?');
                let cell = crate::game::notation::cell_name(t.at);
                match t.captured_by {
                    Some(p) => {
                        format!(
                            "{cell} {glyph} {}",
                            self.in_colour_of(p, &format!("{}'s", self.seats.name(p)))
                        )
                    }
                    None => format!("{cell} {glyph}"),
                }
            })
            .collect();
        if spots.is_empty() {
            String::new()
        } else {
            format!("\n        token spots: {}", spots.join(", "))
        }
    }

    /// A player's line: score, rack (or only its size, when `show_rack` is false: hot-seat
    /// keeps each rack from the other player), tokens, pool, cities, spies.
    pub(super) fn player_line(&self, game: &Game, player: Player, show_rack: bool) -> String {
        let letters = game.rack_letters(player);
        let rack = if show_rack {
            spaced(&letters)
        } else {
            format!(
                "{} (hidden)",
                crate::diag::counted(letters.chars().count(), "letter")
            )
        };
        let tokens: Vec<String> = game
            .player(player)
            .tokens()
            .map(|(id, kind)| format!("{kind} `{id}`"))
            .collect();
        let mut line = format!(
            "{}: {}; rack {rack}{}; pool {}",
            self.seat(player),
            crate::game::describe::score_words(game, player),
            if tokens.is_empty() {
                String::new()
            } else {
                format!(" + {}", tokens.join(", "))
            },
            game.pool_letters(player).len(),
        );
        // Cities and spies are told only where the map and the rules have them.
        if !game.board().cities.is_empty() {
            line.push_str(&format!("; cities {}", cities_held(game, player)));
        }
        if game.rules().turn.spies_per_game > 0 {
            line.push_str(&format!("; spies left {}", game.spies_left(player)));
        }
        line
    }
}

/// The ids of the cities `player` holds, or `none`.
fn cities_held(game: &Game, player: Player) -> String {
    let cities: Vec<&str> = game
        .board()
        .cities
        .iter()
        .filter(|c| !c.destroyed && c.owner == Owner::from(player))
        .map(|c| &*c.id)
        .collect();
    if cities.is_empty() {
        "none".to_string()
    } else {
        cities.join(", ")
    }
}

/// Letters with a space between each, so that a rack reads as tiles.
fn spaced(letters: &str) -> String {
    let tiles: Vec<String> = letters.chars().map(String::from).collect();
    tiles.join(" ")
}

/// What the cell at `p` shows: a letter, else a city, else a token spot, else its terrain.
fn cell_look(game: &Game, p: Pos, kinds: &BTreeMap<String, char>) -> CellLook {
    let board = game.board();
    if let Some(t) = board.letters[p] {
        return CellLook {
            glyph: t.letter.to_ascii_uppercase(),
            owner: Some(t.player),
            terrain: None,
        };
    }
    if let Some(city) = board.cities.iter().find(|c| c.at == p && !c.destroyed) {
        return CellLook {
            glyph: '@',
            owner: city.owner.player(),
            terrain: None,
        };
    }
    if let Some(token) = board.tokens.iter().rev().find(|t| t.at == p) {
        return CellLook {
            glyph: kinds.get(&*token.kind).copied().unwrap_or('?'),
            owner: token.captured_by,
            terrain: None,
        };
    }
    let terrain = board.terrain[p];
    CellLook {
        glyph: if first_word_cell(game) == Some(p) {
            FIRST_WORD_GLYPH
        } else {
            Screen::terrain_glyph(terrain)
        },
        owner: None,
        terrain: Some(terrain),
    }
}

/// The glyph of the cell the first word must cover, while it is still to be played.
const FIRST_WORD_GLYPH: char = '=';

/// The cell the first word must cover, while the board is empty and the rules name one.
pub(super) fn first_word_cell(game: &Game) -> Option<Pos> {
    let centre = game.rules().crossword.first_word == crate::rules::FirstWord::Centre;
    let due = centre && game.result().is_none() && game.board().letter_count() == 0;
    due.then(|| game.centre_cell())
}

/// A lowercase glyph for each token kind on the board: the first letter of its name that no
/// kind before it (in alphabetical order) took, else a digit.
fn token_glyphs(game: &Game) -> BTreeMap<String, char> {
    let mut kinds: Vec<&str> = game.board().tokens.iter().map(|t| &*t.kind).collect();
    kinds.sort_unstable();
    kinds.dedup();
    let mut taken: Vec<char> = Vec::new();
    let mut out = BTreeMap::new();
    for kind in kinds {
        let pick = kind
            .chars()
            .map(|c| c.to_ascii_lowercase())
            .filter(char::is_ascii_lowercase)
            .chain('a'..='z')
            .chain('0'..='9')
            .find(|c| !taken.contains(c))
            .unwrap_or('?');
        taken.push(pick);
        out.insert(kind.to_string(), pick);
    }
    out
}

pub(crate) use crate::diag::{counted, plural};

/// `a`, `a or b`, `a, b or c` (with `word` between the last two).
fn or_list(items: &[String], word: &str) -> String {
    match items.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} {word} {last}", rest.join(", ")),
        None => String::new(),
    }
}
