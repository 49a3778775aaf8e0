//! The play board: terrain as it stands now, cities, token spots, the letters as gold and silver
//! coins with pips, the links of words (none for an invalid word, grey for a disconnected one,
//! thicker for a word with a defensive connotation), and the letters laid this turn. Letters are
//! dragged from the rack onto cells, between cells and back to the rack; a click on a cell puts
//! the typing cursor there (type letters to lay them, Backspace to take them back).

use super::session::Session;
use crate::textures::TileTextures;
use crate::view::MapView;
use egui::{Color32, Key, Painter, Pos2, Rect, Sense, Stroke, pos2, vec2};
use scryptic_core::game::WordInfo;
use scryptic_core::map::Direction;
use scryptic_core::{Grid, Owner, Player, Pos};
use scryptic_pack::TilesetRef;
use scryptic_render::tileset::Tileset;
use std::path::PathBuf;

/// The board's accessible label.
pub const BOARD_LABEL: &str = "Play board";

/// A letter being dragged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dragged {
    /// A letter from the rack.
    Rack(char),
    /// A letter laid this turn, from its cell.
    Laid(Pos),
    /// A scripted game's piece (its id), from a cell or a pit.
    Piece(usize),
}

/// Words and connections as of one state of the game, kept until the game changes.
struct Facts {
    generation: u64,
    words: Vec<WordInfo>,
    /// Each seat's letters joined to its crossword.
    connected: Vec<Grid<bool>>,
}

/// The board's own state: the view (in cells), textures, the typing cursor.
#[derive(Default)]
pub struct PlayBoard {
    /// The view of the board.
    pub view: MapView,
    /// The cell letters typed go to, and the direction they advance in.
    pub cursor: Option<(Pos, Direction)>,
    /// The cell under the pointer.
    pub hovered: Option<Pos>,
    /// The cell where the button the pointer holds went down.
    pressed: Option<Pos>,
    textures: Option<TileTextures>,
    textures_from: Option<Option<PathBuf>>,
    facts: Option<Facts>,
    last_rect: Option<Rect>,
    /// Whose region the view was last fitted to (simultaneous play).
    region_of: Option<Player>,
    /// The tallest the rack's panel below the board has been this game.
    pub(super) rack_height: f32,
}

impl PlayBoard {
    /// The tileset's textures, once loaded.
    pub fn textures(&self) -> Option<&TileTextures> {
        self.textures.as_ref()
    }

    /// Where the board was drawn last.
    pub fn last_rect(&self) -> Option<Rect> {
        self.last_rect
    }

    /// The screen point of `cell`'s centre, as last drawn.
    pub fn cell_centre(&self, cell: Pos) -> Option<Pos2> {
        self.last_rect.map(|r| self.view.cell_centre(r, cell))
    }

    /// Uses `tileset` (flat colours if there is none or it is broken).
    pub fn use_tileset(&mut self, ctx: &egui::Context, tileset: Option<TilesetRef>) {
        let key = tileset.as_ref().map(TilesetRef::shown);
        if self.textures_from.as_ref() == Some(&key) {
            return;
        }
        self.textures = tileset
            .as_ref()
            .and_then(|t| Tileset::from_pack(&t.files, &t.path).ok())
            .map(|t| TileTextures::load(ctx, t));
        self.textures_from = Some(key);
    }

    /// Forgets the view and the cached facts (a new game).
    pub fn reset(&mut self) {
        self.view = MapView::default();
        self.cursor = None;
        self.facts = None;
        self.rack_height = 0.0;
    }

    /// The board, filling the space left in `ui`.
    pub fn ui(&mut self, ui: &mut egui::Ui, session: &mut Session) {
        let (response, painter) = ui.allocate_painter(ui.available_size(), Sense::click_and_drag());
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Canvas, true, BOARD_LABEL));
        let rect = response.rect;
        self.last_rect = Some(rect);
        let (w, h) = PlayBoard::size(session);
        self.fit_view(session, (w, h), rect.size());
        crate::view::wheel_zoom_and_middle_pan(ui, &response, &mut self.view);
        let pointer = ui.input(|i| i.pointer.interact_pos());
        self.hovered = pointer
            .filter(|p| rect.contains(*p))
            .and_then(|p| self.view.cell_at(rect, p, w, h));
        // A drag starts where the button went down: by the time egui tells a drag from a
        // click, the pointer may have crossed into the next cell.
        self.pressed = ui
            .input(|i| i.pointer.press_origin())
            .filter(|p| rect.contains(*p))
            .and_then(|p| self.view.cell_at(rect, p, w, h));
        self.handle_input(ui, &response, session);
        self.refresh_facts(session);
        self.draw(&painter, rect, session);
        self.draw_dragged(ui, session);
    }

    /// Keeps the whole board in view; in simultaneous play, the region of the person at the
    /// screen, fitted again when another takes the screen (the whole board once it is over).
    fn fit_view(&mut self, session: &Session, (w, h): (u32, u32), size: egui::Vec2) {
        let game = session.game();
        let viewer = session.viewer();
        let region = game
            .own_region_bounds(viewer)
            .filter(|_| session.at_once() && game.result().is_none());
        match region {
            Some((low, high)) if self.view.fit_pending || self.region_of != Some(viewer) => {
                self.view.fit_area(low, high, size);
                self.region_of = Some(viewer);
            }
            Some(_) => {}
            None => {
                if self.region_of.take().is_some() {
                    self.view.fit_pending = true;
                }
                self.view.keep_fitted(w, h, size);
            }
        }
    }

    fn handle_input(&mut self, ui: &egui::Ui, response: &egui::Response, session: &mut Session) {
        if session.combat.is_some() {
            // A fight is being settled in the dialog beside the board.
            return;
        }
        if session.game().rules().flow.scripted {
            let cells = (self.pressed, self.hovered);
            super::table_board::handle_input(ui, response, cells, session);
            return;
        }
        if let (Some(dropped), Some(cell)) =
            (response.dnd_release_payload::<Dragged>(), self.hovered)
        {
            let result = match *dropped {
                Dragged::Rack(letter) => session.place(letter, cell),
                Dragged::Laid(from) => session.move_placed(from, cell),
                Dragged::Piece(_) => Ok(()),
            };
            if let Err(e) = result {
                session.refusal = Some(e);
            }
            return;
        }
        if response.drag_started()
            && let Some(cell) = self.pressed.filter(|c| session.placed_at(*c).is_some())
        {
            egui::DragAndDrop::set_payload(ui.ctx(), Dragged::Laid(cell));
        }
        if response.clicked()
            && let Some(cell) = self.hovered
        {
            self.cursor = match self.cursor {
                Some((c, Direction::Across)) if c == cell => Some((cell, Direction::Down)),
                _ => Some((cell, Direction::Across)),
            };
        }
        if response.secondary_clicked()
            && let Some(cell) = self.hovered
        {
            session.unplace(cell);
        }
    }

    /// Whether the board takes the keyboard now (letters, the arrows, Backspace): a placing
    /// player's, no fight being settled (`crate::keys` hands it the keys in their order).
    pub(crate) fn takes_keys(session: &Session) -> bool {
        session.combat.is_none() && session.can_place() && !session.game().rules().flow.scripted
    }

    /// The board's size in cells.
    fn size(session: &Session) -> (u32, u32) {
        let terrain = &session.game().board().terrain;
        (terrain.width(), terrain.height())
    }

    /// Letters typed, laid from the cursor on (a refused one stops them, said).
    pub(crate) fn lay_typed(&mut self, text: &str, session: &mut Session) {
        let Some((mut at, dir)) = self.cursor else {
            return;
        };
        for letter in text
            .to_uppercase()
            .chars()
            .filter(char::is_ascii_alphabetic)
        {
            at = self.next_free(session, at, dir);
            if let Err(e) = session.place(letter, at) {
                session.refusal = Some(e);
                break;
            }
            at = dir.step(at, 1).unwrap_or(at);
        }
        self.cursor = Some((at, dir));
    }

    /// A key pressed: Backspace takes the letter before the cursor back, Escape takes the
    /// cursor away, an arrow moves it (`arrow`).
    pub(crate) fn key(&mut self, key: Key, session: &mut Session) {
        let arrow = match key {
            Key::ArrowRight => (Direction::Across, true),
            Key::ArrowLeft => (Direction::Across, false),
            Key::ArrowDown => (Direction::Down, true),
            Key::ArrowUp => (Direction::Down, false),
            Key::Escape => return self.cursor = None,
            Key::Backspace => return self.take_back(session),
            _ => return,
        };
        let size = PlayBoard::size(session);
        self.arrow(arrow, first_cell(session, size), size);
    }

    /// Backspace: the letter laid just before the cursor back to the rack, the cursor on it.
    fn take_back(&mut self, session: &mut Session) {
        let Some((at, dir)) = self.cursor else {
            return;
        };
        if let Some(before) = back_step(at, dir).filter(|b| session.placed_at(*b).is_some()) {
            session.unplace(before);
            self.cursor = Some((before, dir));
        }
    }

    /// An arrow key, as in a crossword app: along the cursor's line it moves it a cell, across
    /// it it turns it first; with no cursor the first press puts it on `first`. The board is
    /// `w` by `h` cells.
    fn arrow(&mut self, (along, forward): (Direction, bool), first: Pos, (w, h): (u32, u32)) {
        self.cursor = Some(match self.cursor {
            None => (first, along),
            Some((cell, dir)) if dir != along => (cell, along),
            Some((cell, dir)) => {
                let moved = if forward {
                    dir.step(cell, 1)
                } else {
                    back_step(cell, dir)
                };
                let inside = moved.filter(|p| p.x < w && p.y < h);
                (inside.unwrap_or(cell), dir)
            }
        });
    }

    /// The first cell from `at` on in `dir` not holding the player's own letter.
    fn next_free(&self, session: &Session, mut at: Pos, dir: Direction) -> Pos {
        let game = session.game();
        let own = if session.at_once() {
            session.viewer()
        } else {
            game.active()
        };
        while game
            .board()
            .letters
            .get(at)
            .copied()
            .flatten()
            .is_some_and(|t| t.player == own)
        {
            match dir
                .step(at, 1)
                .filter(|n| game.board().letters.contains(*n))
            {
                Some(n) => at = n,
                None => break,
            }
        }
        at
    }

    fn refresh_facts(&mut self, session: &Session) {
        if self
            .facts
            .as_ref()
            .is_some_and(|f| f.generation == session.generation)
        {
            return;
        }
        let game = session.game();
        self.facts = Some(Facts {
            generation: session.generation,
            words: game.words(),
            connected: game.seats().map(|p| game.connected_grid(p)).collect(),
        });
    }

    fn draw(&self, painter: &Painter, rect: Rect, session: &Session) {
        painter.rect_filled(rect, 0.0, Color32::from_gray(28));
        self.draw_terrain(painter, rect, session);
        self.draw_cities_and_tokens(painter, rect, session);
        self.draw_start_mark(painter, rect, session);
        self.draw_links(painter, rect, session);
        self.draw_letters(painter, rect, session);
        if session.game().rules().flow.scripted {
            super::table_board::draw(painter, &self.view, rect, session, self.textures.as_ref());
        }
        self.draw_laid(painter, rect, session);
        self.draw_cursor(painter, rect);
    }

    fn draw_terrain(&self, painter: &Painter, rect: Rect, session: &Session) {
        let board = session.game().board();
        let (xs, ys) = self
            .view
            .visible(rect, board.terrain.width(), board.terrain.height());
        let uv = Rect::from_min_max(pos2(0.0, 0.0), pos2(1.0, 1.0));
        let textured = self.view.zoom >= crate::view::TEXTURE_ZOOM;
        for y in ys {
            for x in xs.clone() {
                let pos = Pos::new(x, y);
                let Some(&terrain) = board.terrain.get(pos) else {
                    continue;
                };
                let cell = self.view.cell_rect(rect, pos);
                let texture = self
                    .textures
                    .as_ref()
                    .filter(|_| textured)
                    .and_then(|t| t.terrain(terrain, pos));
                match texture {
                    Some(t) => {
                        painter.image(t.id(), cell, uv, Color32::WHITE);
                    }
                    None => {
                        let c = match &self.textures {
                            Some(t) => t.tileset.colour(terrain),
                            None => scryptic_render::render::default_colour(terrain),
                        };
                        painter.rect_filled(cell, 0.0, Color32::from_rgb(c[0], c[1], c[2]));
                    }
                }
            }
        }
    }

    fn draw_cities_and_tokens(&self, painter: &Painter, rect: Rect, session: &Session) {
        let board = session.game().board();
        let textures = self.textures.as_ref();
        for city in board.cities.iter().filter(|c| !c.destroyed) {
            let cell = self.view.cell_rect(rect, city.at);
            crate::pieces::paint_city(painter, cell, city.owner, textures);
        }
        for token in &board.tokens {
            // A captured token's spot stays visible, dimmed.
            let tint = if token.captured() {
                Color32::from_white_alpha(90)
            } else {
                Color32::WHITE
            };
            let cell = self.view.cell_rect(rect, token.at);
            crate::pieces::paint_token(painter, cell, &token.kind, tint, textures);
        }
    }

    /// A star on the cell the game's first word must cover, while the board is empty (a
    /// shared crossword's centre, as a Scrabble board marks it).
    fn draw_start_mark(&self, painter: &Painter, rect: Rect, session: &Session) {
        let Some(cell) = start_mark(session.game()) else {
            return;
        };
        let centre = self.view.cell_centre(rect, cell);
        let outer = self.view.zoom * 0.38;
        let points: Vec<Pos2> = (0..10)
            .map(|i| {
                let radius = if i % 2 == 0 { outer } else { outer * 0.45 };
                let angle = std::f32::consts::PI * (i as f32 / 5.0 - 0.5);
                centre + vec2(angle.cos(), angle.sin()) * radius
            })
            .collect();
        painter.add(egui::Shape::closed_line(
            points,
            Stroke::new(2.0, crate::theme::GOLD),
        ));
    }

    /// The links between the letters of valid words: thicker for a defensive connotation,
    /// grey for a disconnected word; invalid words have none.
    fn draw_links(&self, painter: &Painter, rect: Rect, session: &Session) {
        let Some(facts) = &self.facts else { return };
        let rules = session.game().rules();
        let zoom = self.view.zoom;
        for info in facts.words.iter().filter(|w| w.valid) {
            let defensive = info.connotations.iter().any(|c| {
                rules
                    .strength
                    .connotations
                    .get(c)
                    .is_some_and(|k| k.defence > 1.0)
            });
            let width = zoom * if defensive { 0.34 } else { 0.16 };
            let colour = if info.connected {
                owner_link(info.word.player)
            } else {
                Color32::from_gray(120)
            };
            let cells: Vec<Pos> = info.word.key.cells().collect();
            for pair in cells.windows(2) {
                let a = self.view.cell_centre(rect, pair[0]);
                let b = self.view.cell_centre(rect, pair[1]);
                painter.line_segment([a, b], Stroke::new(width, colour));
            }
        }
    }

    fn draw_letters(&self, painter: &Painter, rect: Rect, session: &Session) {
        let Some(facts) = &self.facts else { return };
        let game = session.game();
        let board = &game.board().letters;
        let colours: Vec<Option<Color32>> = game.seats().map(|p| mode_colour(game, p)).collect();
        let (xs, ys) = self.view.visible(rect, board.width(), board.height());
        for y in ys {
            for x in xs.clone() {
                let pos = Pos::new(x, y);
                let Some(tile) = board.get(pos).copied().flatten() else {
                    continue;
                };
                let connected = facts
                    .connected
                    .get(tile.player.index())
                    .and_then(|grid| grid.get(pos))
                    .copied()
                    .unwrap_or(false);
                let cell = self.view.cell_rect(rect, pos);
                // In simultaneous play another's tiles lie face down until the end.
                let face_down =
                    session.at_once() && game.result().is_none() && tile.player != session.viewer();
                let (letter, pips) = if face_down {
                    ('?', 0)
                } else {
                    let pips = game.rules().letter_value(tile.letter).unwrap_or(1);
                    (tile.letter, pips)
                };
                let coin = CoinLook {
                    player: tile.player,
                    letter,
                    pips,
                    grey: !connected,
                    colour: colours.get(tile.player.index()).copied().flatten(),
                };
                coin.paint(painter, cell, self.textures.as_ref());
            }
        }
    }

    /// A scripted game's pieces as the person at the screen sees them: a coin in the owner's
    /// colour with the value on it, `?` where it is hidden from them.
    fn draw_laid(&self, painter: &Painter, rect: Rect, session: &Session) {
        let game = session.game();
        let player = game.active();
        for p in &session.placed {
            let cell = self.view.cell_rect(rect, p.at);
            let coin = CoinLook {
                player,
                letter: p.letter,
                pips: game.rules().letter_value(p.letter).unwrap_or(1),
                grey: false,
                colour: mode_colour(game, player),
            };
            coin.paint(painter, cell, self.textures.as_ref());
            painter.rect_stroke(
                cell.shrink(1.0),
                3.0,
                Stroke::new(2.0, Color32::from_rgb(90, 220, 120)),
                egui::StrokeKind::Inside,
            );
        }
    }

    fn draw_cursor(&self, painter: &Painter, rect: Rect) {
        if let Some(cell) = self.hovered {
            let r = self.view.cell_rect(rect, cell);
            painter.rect_stroke(
                r,
                0.0,
                Stroke::new(1.0, Color32::WHITE),
                egui::StrokeKind::Inside,
            );
        }
        let Some((cell, dir)) = self.cursor else {
            return;
        };
        let r = self.view.cell_rect(rect, cell);
        let stroke = Stroke::new(2.0, Color32::from_rgb(255, 230, 90));
        painter.rect_stroke(r, 2.0, stroke, egui::StrokeKind::Inside);
        let arrow = match dir {
            Direction::Across => vec2(r.width() * 0.3, 0.0),
            Direction::Down => vec2(0.0, r.height() * 0.3),
        };
        painter.arrow(r.center() - arrow * 0.5, arrow, stroke);
    }

    /// A laid letter being dragged follows the pointer.
    fn draw_dragged(&self, ui: &egui::Ui, session: &Session) {
        let Some(dragged) = egui::DragAndDrop::payload::<Dragged>(ui.ctx()) else {
            return;
        };
        let from = match *dragged {
            Dragged::Laid(from) => from,
            Dragged::Piece(_) => {
                let size = self.view.zoom.max(24.0);
                let textures = self.textures.as_ref();
                super::table_board::draw_dragged(ui, session, size, textures);
                return;
            }
            Dragged::Rack(_) => return,
        };
        let (Some(letter), Some(p)) = (
            session.placed_at(from),
            ui.input(|i| i.pointer.interact_pos()),
        ) else {
            return;
        };
        let size = self.view.zoom.max(24.0);
        let painter = ui.ctx().layer_painter(egui::LayerId::new(
            egui::Order::Tooltip,
            egui::Id::unique("dragged letter"),
        ));
        // The dragged letter is the person laying it's: in simultaneous play, who is at the
        // screen.
        let player = session.viewer();
        let coin = CoinLook {
            player,
            letter,
            pips: session.game().rules().letter_value(letter).unwrap_or(1),
            grey: false,
            colour: mode_colour(session.game(), player),
        };
        coin.paint(
            &painter,
            Rect::from_center_size(p, vec2(size, size)),
            self.textures.as_ref(),
        );
    }
}

/// Where the first arrow key puts the cursor: the middle of the board (of `w` by `h` cells), or
/// in simultaneous play of the person's own region.
fn first_cell(session: &Session, (w, h): (u32, u32)) -> Pos {
    let region = (session.at_once())
        .then(|| session.game().own_region_bounds(session.viewer()))
        .flatten();
    match region {
        Some((low, high)) => Pos::new(low.x.midpoint(high.x), low.y.midpoint(high.y)),
        None => Pos::new(w / 2, h / 2),
    }
}

fn back_step(at: Pos, dir: Direction) -> Option<Pos> {
    match dir {
        Direction::Across => at.x.checked_sub(1).map(|x| Pos::new(x, at.y)),
        Direction::Down => at.y.checked_sub(1).map(|y| Pos::new(at.x, y)),
    }
}

fn owner_link(player: Player) -> Color32 {
    seat_colour(player).gamma_multiply(0.85)
}

/// The mode's colour for `player`'s coins, if the rules give one.
pub fn mode_colour(game: &scryptic_core::game::Game, player: Player) -> Option<Color32> {
    let [r, g, b] = game.seat_names().colour(player)?;
    Some(Color32::from_rgb(r, g, b))
}

/// A seat's colour: gold's and silver's as their pieces', then rose, green, blue, violet, teal
/// and orange for the seats from three on (the tilesets draw coins for gold and silver only).
pub fn seat_colour(player: Player) -> Color32 {
    const MORE: [Color32; scryptic_core::board::MAX_SEATS - 2] = [
        Color32::from_rgb(225, 120, 140),
        Color32::from_rgb(120, 200, 120),
        Color32::from_rgb(110, 150, 230),
        Color32::from_rgb(175, 130, 220),
        Color32::from_rgb(90, 195, 190),
        Color32::from_rgb(235, 150, 70),
    ];
    match player.index().checked_sub(2) {
        None => crate::pieces::owner_colour(Owner::from(player)),
        Some(i) => MORE[i % MORE.len()],
    }
}

/// How one letter coin looks.
pub struct CoinLook {
    /// Whose coin (gold's and silver's from the tileset; the other seats' painted in their
    /// colour).
    pub player: Player,
    /// The letter on it.
    pub letter: char,
    /// Its value, shown as pips.
    pub pips: i64,
    /// Greyed (a disconnected word's letter).
    pub grey: bool,
    /// The mode's colour for the seat (`seats.colours`), which paints the coin instead of the
    /// tileset's.
    pub colour: Option<Color32>,
}

impl CoinLook {
    /// Paints the coin filling `cell`: the tileset's coin when there is one, else a disc with
    /// dots for pips; the letter on top.
    pub fn paint(&self, painter: &Painter, cell: Rect, textures: Option<&TileTextures>) {
        let tint = if self.grey {
            Color32::from_gray(140)
        } else {
            Color32::WHITE
        };
        let uv = Rect::from_min_max(pos2(0.0, 0.0), pos2(1.0, 1.0));
        let tileset_coin = textures
            .filter(|_| self.colour.is_none())
            .and_then(|t| t.coin(self.player, self.pips));
        match tileset_coin {
            Some(t) => {
                painter.image(t.id(), cell, uv, tint);
            }
            None => self.paint_plain(painter, cell, tint),
        }
        let size = cell.height() * 0.5;
        if size >= 5.0 {
            painter.text(
                cell.center() - vec2(0.0, cell.height() * 0.06),
                egui::Align2::CENTER_CENTER,
                self.letter,
                egui::FontId::proportional(size),
                Color32::from_rgb(50, 35, 20),
            );
        }
    }

    fn paint_plain(&self, painter: &Painter, cell: Rect, tint: Color32) {
        let colour = self.colour.unwrap_or_else(|| seat_colour(self.player));
        let base = colour.gamma_multiply(tint.r() as f32 / 255.0);
        painter.circle(
            cell.center(),
            cell.width() * 0.46,
            base,
            Stroke::new(1.0, Color32::from_black_alpha(120)),
        );
        let n = self.pips.clamp(1, 5);
        for i in 0..n {
            let dx = (i as f32 - (n - 1) as f32 / 2.0) * cell.width() * 0.14;
            painter.circle_filled(
                pos2(cell.center().x + dx, cell.top() + cell.height() * 0.8),
                cell.width() * 0.04,
                Color32::from_rgb(60, 40, 20),
            );
        }
    }
}

/// The cell marked as where the first word must stand: the centre, on an empty board whose
/// rules ask for it there (cities mark an own-city start already; anywhere needs no mark).
pub fn start_mark(game: &scryptic_core::game::Game) -> Option<Pos> {
    // The rule is read first: only a board that starts at its centre is scanned, per frame.
    let centre = game.rules().crossword.first_word == scryptic_core::rules::FirstWord::Centre;
    (centre && !game.board().has_letters()).then(|| game.centre_cell())
}
