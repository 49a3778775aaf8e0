//! A scripted game's pieces on the play board (Scryper's bricks): each drawn from the
//! tileset's image for its kind and seat, its value (or `?` where it is hidden from the person
//! at the screen) on top; every cell's name in its corner, since moves name cells. A person
//! moves by dragging a piece to a cell (or from a pit in the side panel), or by clicking a
//! piece's cell then its target.

use super::board::{Dragged, mode_colour, seat_colour};
use super::session::Session;
use crate::textures::TileTextures;
use crate::view::MapView;
use egui::{Color32, Painter, Rect, Stroke, pos2, vec2};
use scryptic_core::game::{Piece, Place, Table};
use scryptic_core::{Player, Pos};

/// How one piece looks.
pub struct PieceLook<'a> {
    /// Its kind, which picks the tileset's image.
    pub kind: &'a str,
    /// Its owner.
    pub owner: Player,
    /// What is written on it: its value, `?` if hidden, else its kind's initial.
    pub glyph: char,
    /// The mode's colour for the owner, for pieces the tileset has no image of.
    pub colour: Option<Color32>,
}

impl<'a> PieceLook<'a> {
    /// How `piece` of `game` looks.
    pub fn of(piece: &'a Piece, game: &scryptic_core::game::Game) -> PieceLook<'a> {
        PieceLook {
            kind: &piece.kind,
            owner: piece.owner,
            glyph: scryptic_core::game::table_words::piece_glyph(piece),
            colour: mode_colour(game, piece.owner),
        }
    }

    /// Paints the piece filling `cell`: the tileset's image of its kind for its seat, else a
    /// disc in the seat's colour; the glyph on top, dark or light as the colour needs.
    pub fn paint(&self, painter: &Painter, cell: Rect, textures: Option<&TileTextures>) {
        let colour = self.colour.unwrap_or_else(|| seat_colour(self.owner));
        match textures.and_then(|t| t.piece(self.kind, self.owner.index())) {
            Some(image) => {
                let uv = Rect::from_min_max(pos2(0.0, 0.0), pos2(1.0, 1.0));
                painter.image(image.id(), cell, uv, Color32::WHITE);
            }
            None => {
                painter.circle(
                    cell.center(),
                    cell.width() * 0.42,
                    colour,
                    Stroke::new(1.0, Color32::from_black_alpha(140)),
                );
            }
        }
        let size = cell.height() * 0.45;
        if size >= 5.0 {
            painter.text(
                cell.center(),
                egui::Align2::CENTER_CENTER,
                self.glyph,
                egui::FontId::proportional(size),
                ink_on(colour),
            );
        }
    }
}

/// Dark ink on a light colour, light ink on a dark one.
fn ink_on(colour: Color32) -> Color32 {
    let luma = 0.299 * f32::from(colour.r())
        + 0.587 * f32::from(colour.g())
        + 0.114 * f32::from(colour.b());
    if luma > 140.0 {
        Color32::from_rgb(40, 28, 16)
    } else {
        Color32::from_rgb(250, 244, 230)
    }
}

/// The table as the board shows it: the truth once the game is over, only what everyone sees
/// while the screen is covered between two people, else the person at the screen's view.
pub fn shown_table(session: &Session) -> Table {
    let game = session.game();
    if game.result().is_some() {
        game.table().clone()
    } else if session.rack_hidden {
        game.table_for(None)
    } else {
        game.table_for(Some(session.viewer()))
    }
}

/// The piece being dragged, if any.
pub fn dragged_piece(ctx: &egui::Context) -> Option<usize> {
    match egui::DragAndDrop::payload::<Dragged>(ctx).as_deref() {
        Some(Dragged::Piece(id)) => Some(*id),
        _ => None,
    }
}

/// Draws the cell names, the pieces on cells (but the one being dragged) and the picked cell.
pub fn draw(
    painter: &Painter,
    view: &MapView,
    rect: Rect,
    session: &Session,
    textures: Option<&TileTextures>,
) {
    let table = shown_table(session);
    let dragged = dragged_piece(painter.ctx());
    for (id, piece) in table.pieces().iter().enumerate() {
        let Place::Cell(at) = piece.place else {
            continue;
        };
        if dragged != Some(id) {
            PieceLook::of(piece, session.game()).paint(painter, view.cell_rect(rect, at), textures);
        }
    }
    // Over the pieces, so that a piece's cell can always be read.
    draw_cell_names(painter, view, rect, &table);
    if let Some(cell) = session.picked {
        painter.rect_stroke(
            view.cell_rect(rect, cell).shrink(1.0),
            4.0,
            Stroke::new(3.0, Color32::from_rgb(250, 220, 120)),
            egui::StrokeKind::Inside,
        );
    }
}

/// Each cell's name in its corner, faint: a scripted game's moves name cells (`A8-A6`).
fn draw_cell_names(painter: &Painter, view: &MapView, rect: Rect, table: &Table) {
    let (xs, ys) = view.visible(rect, table.width(), table.height());
    for y in ys {
        for x in xs.clone() {
            let cell = view.cell_rect(rect, Pos::new(x, y));
            let size = (cell.height() * 0.16).clamp(7.0, 14.0);
            painter.text(
                cell.left_top() + vec2(size * 0.3, size * 0.15),
                egui::Align2::LEFT_TOP,
                scryptic_core::game::notation::cell_name(Pos::new(x, y)),
                egui::FontId::proportional(size),
                Color32::from_black_alpha(140),
            );
        }
    }
}

/// The board's clicks and drags in a scripted game (none while the screen is covered between
/// two people): a piece dropped on a cell plays its move there; a drag starts on the cell
/// pressed, if it holds one of the person's pieces; a click picks a cell or plays the picked piece's move.
pub fn handle_input(
    ui: &egui::Ui,
    response: &egui::Response,
    (pressed, hovered): (Option<Pos>, Option<Pos>),
    session: &mut Session,
) {
    if session.rack_hidden {
        return;
    }
    if let (Some(dropped), Some(cell)) = (response.dnd_release_payload::<Dragged>(), hovered) {
        if let Dragged::Piece(id) = *dropped {
            session.drop_piece(id, cell);
        }
        return;
    }
    if response.drag_started()
        && let Some(id) = pressed.and_then(|cell| own_piece_at(session, cell))
    {
        egui::DragAndDrop::set_payload(ui.ctx(), Dragged::Piece(id));
    }
    if response.clicked()
        && let Some(cell) = hovered
    {
        session.pick_cell(cell);
    }
}

/// The id of the piece on `cell` if it is the person to act's.
fn own_piece_at(session: &Session, cell: Pos) -> Option<usize> {
    let person = session.human_to_act()?;
    let table = session.game().table_for(Some(person));
    let id = table.piece_at(cell)?;
    (table.piece(id)?.owner == person).then_some(id)
}

/// A piece being dragged follows the pointer, `size` points across.
pub fn draw_dragged(ui: &egui::Ui, session: &Session, size: f32, textures: Option<&TileTextures>) {
    let (Some(id), Some(at)) = (
        dragged_piece(ui.ctx()),
        ui.input(|i| i.pointer.interact_pos()),
    ) else {
        return;
    };
    let table = shown_table(session);
    let Some(piece) = table.piece(id) else {
        return;
    };
    let painter = ui.ctx().layer_painter(egui::LayerId::new(
        egui::Order::Tooltip,
        egui::Id::unique("dragged piece"),
    ));
    PieceLook::of(piece, session.game()).paint(
        &painter,
        Rect::from_center_size(at, vec2(size, size)),
        textures,
    );
}

/// A pit's pieces in a row, `size` points each, as the person at the screen sees them; the
/// person to act's own pieces may be dragged from it onto the board.
pub fn pit_tray(
    ui: &mut egui::Ui,
    session: &Session,
    table: &Table,
    (owner, pit): (Player, &str),
    textures: Option<&TileTextures>,
) {
    let size = 30.0;
    let draggable = session.human_to_act() == Some(owner) && !session.rack_hidden;
    let dragged = dragged_piece(ui.ctx());
    let names = session.game().seat_names();
    ui.horizontal_wrapped(|ui| {
        ui.spacing_mut().item_spacing = vec2(2.0, 2.0);
        for id in table.pit_in_order(owner, pit) {
            let Some(piece) = table.piece(id) else {
                continue;
            };
            let sense = if draggable {
                egui::Sense::drag()
            } else {
                egui::Sense::hover()
            };
            let (rect, response) = ui.allocate_exact_size(vec2(size, size), sense);
            let look = PieceLook::of(piece, session.game());
            // Read aloud as "white's brick 3" (or "?" where the value is hidden).
            let name = format!("{}'s {} {}", names.name(owner), piece.kind, look.glyph);
            response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Image, draggable, &name));
            if dragged != Some(id) {
                look.paint(ui.painter(), rect, textures);
            }
            if draggable && response.drag_started() {
                egui::DragAndDrop::set_payload(ui.ctx(), Dragged::Piece(id));
            }
        }
    });
}
