//! The combat dialog, in the side panel's place beside the board so the fight stays in view
//! and the board keeps its place: before an attack, its strength and each defender's, with the modifiers
//! as small ideograms (the design document's), to cancel or proceed; the defender's order of
//! defence; then the resolution, one step at a time.

use super::session::{CombatStage, Session};
use egui::RichText;
use scryptic_core::game::strength::{Modifier, Strength};

/// The combat dialog (its state is the session's `combat`).
#[derive(Default)]
pub struct CombatDialog;

impl CombatDialog {
    /// The dialog in `ui` (a panel beside the board) while a combat stage is open.
    pub fn ui(&mut self, ui: &mut egui::Ui, session: &mut Session) {
        let Some(stage) = session.combat.clone() else {
            return;
        };
        {
            match stage {
                CombatStage::Preview { preview, .. } => {
                    ui.heading("Combat ahead");
                    strength_row(ui, "Your word", &preview.attack);
                    ui.separator();
                    ui.label("Defenders:");
                    for (_, word, strength) in &preview.defenders {
                        strength_row(ui, word, strength);
                    }
                    ui.separator();
                    ui.horizontal(|ui| {
                        let cancel = ui.button("Cancel").on_hover_text("Not now (Escape)");
                        if cancel.clicked() {
                            session.close_combat();
                        }
                        let attack = ui.button("Attack").on_hover_text("Attack (Enter)");
                        if attack.clicked() {
                            session.proceed();
                        }
                    });
                }
                CombatStage::Order { defender, order } => {
                    ui.heading(format!("{defender}: order the defence"));
                    ui.label("The first word fights first. Put your strongest where it counts.");
                    for (i, (_, word, strength)) in order.iter().enumerate() {
                        ui.horizontal(|ui| {
                            if ui
                                .add_enabled(i > 0, egui::Button::new("Up"))
                                .on_hover_text(format!("Move {word} up"))
                                .clicked()
                            {
                                session.raise_defender(i);
                            }
                            strength_row(ui, word, strength);
                        });
                    }
                    ui.horizontal(|ui| {
                        let defend = (ui.button("Defend in this order"))
                            .on_hover_text("The first word first (Enter)");
                        if defend.clicked() {
                            session.defend(true);
                        }
                        if ui.button("Automatic order").clicked() {
                            session.defend(false);
                        }
                    });
                }
                CombatStage::Resolution { steps, shown } => {
                    ui.heading("Combat");
                    for (i, step) in steps.iter().take(shown).enumerate() {
                        ui.label(format!("{}. {step}", i + 1));
                    }
                    let label = if shown < steps.len() {
                        "Next step"
                    } else {
                        "Close"
                    };
                    let step = ui
                        .button(label)
                        .on_hover_text("Enter; Escape closes the fight");
                    if step.clicked() {
                        session.next_step();
                    }
                }
            }
        }
    }
}

/// A word's strength: its value, its face value and the modifiers as ideograms, each explained
/// when hovered.
pub fn strength_row(ui: &mut egui::Ui, word: &str, strength: &Strength) {
    ui.horizontal_wrapped(|ui| {
        ui.label(RichText::new(format!("{word}: {}", strength.value)).strong());
        ideogram_label(ui, Glyph::Face, &strength.face.to_string())
            .on_hover_text("face value: the pips of its letters");
        for modifier in &strength.modifiers {
            let (glyph, amount, hover) = ideogram(modifier);
            ideogram_label(ui, glyph, &amount).on_hover_text(hover);
        }
    });
}

/// The small pictures of the combat dialog.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Glyph {
    /// A coin: the face value.
    Face,
    /// A peak: mountains.
    Mountain,
    /// Crossed blades: an attacking connotation.
    Attacking,
    /// A shield: a defending connotation.
    Defending,
    /// A crescent: a sneaking connotation.
    Sneaking,
    /// A flame: a burning connotation (or another connotation).
    Other,
    /// Waves: water.
    Water,
    /// A tower: the defender's city.
    City,
    /// A broken link: disconnected.
    Disconnected,
    /// A page: a script.
    Script,
    /// A cross: a repel penalty.
    Penalty,
}

/// An ideogram with its amount beside it, as one hoverable widget (one, so that a row of them
/// wraps between ideograms rather than running past the panel).
fn ideogram_label(ui: &mut egui::Ui, glyph: Glyph, amount: &str) -> egui::Response {
    const GLYPH: f32 = 16.0;
    const GAP: f32 = 2.0;
    let colour = ui.visuals().text_color();
    let galley = ui.painter().layout_no_wrap(
        amount.to_string(),
        egui::TextStyle::Body.resolve(ui.style()),
        colour,
    );
    let size = egui::vec2(GLYPH + GAP + galley.size().x, GLYPH.max(galley.size().y));
    let (rect, response) = ui.allocate_exact_size(size, egui::Sense::hover());
    let glyph_rect = egui::Rect::from_min_size(
        egui::pos2(rect.left(), rect.center().y - GLYPH / 2.0),
        egui::vec2(GLYPH, GLYPH),
    );
    paint_glyph(ui.painter(), glyph_rect, glyph);
    let text_at = egui::pos2(
        glyph_rect.right() + GAP,
        rect.center().y - galley.size().y / 2.0,
    );
    ui.painter().galley(text_at, galley, colour);
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Label, true, amount));
    response
}

/// Draws `glyph` in `rect` with shapes (no font needed).
pub fn paint_glyph(painter: &egui::Painter, rect: egui::Rect, glyph: Glyph) {
    use egui::{Color32, Shape, Stroke, pos2};
    let r = rect.shrink(1.0);
    let at = |u: f32, v: f32| pos2(r.left() + u * r.width(), r.top() + v * r.height());
    let line = Stroke::new(1.6, Color32::from_gray(230));
    match glyph {
        Glyph::Face => {
            painter.circle(
                r.center(),
                r.width() * 0.45,
                Color32::from_rgb(220, 180, 60),
                line,
            );
        }
        Glyph::Mountain => {
            let peak = vec![at(0.0, 1.0), at(0.5, 0.1), at(1.0, 1.0)];
            painter.add(Shape::convex_polygon(
                peak,
                Color32::from_rgb(150, 120, 90),
                line,
            ));
        }
        Glyph::Attacking => {
            painter.line_segment([at(0.1, 0.1), at(0.9, 0.9)], line);
            painter.line_segment([at(0.9, 0.1), at(0.1, 0.9)], line);
        }
        Glyph::Defending => {
            let shield = vec![
                at(0.1, 0.1),
                at(0.9, 0.1),
                at(0.9, 0.5),
                at(0.5, 1.0),
                at(0.1, 0.5),
            ];
            painter.add(Shape::convex_polygon(
                shield,
                Color32::from_rgb(70, 110, 190),
                line,
            ));
        }
        Glyph::Sneaking => {
            painter.circle_filled(r.center(), r.width() * 0.45, Color32::from_gray(210));
            painter.circle_filled(at(0.65, 0.4), r.width() * 0.4, Color32::from_gray(40));
        }
        Glyph::Other => {
            let flame = vec![at(0.5, 0.0), at(0.9, 0.7), at(0.5, 1.0), at(0.1, 0.7)];
            painter.add(Shape::convex_polygon(
                flame,
                Color32::from_rgb(230, 110, 30),
                line,
            ));
        }
        Glyph::Water => {
            for v in [0.35, 0.7] {
                let wave = (0..=8)
                    .map(|i| {
                        let u = i as f32 / 8.0;
                        at(u, v + 0.1 * (u * std::f32::consts::TAU).sin())
                    })
                    .collect();
                painter.add(Shape::line(
                    wave,
                    Stroke::new(1.6, Color32::from_rgb(90, 150, 230)),
                ));
            }
        }
        Glyph::City => {
            painter.rect_filled(
                egui::Rect::from_min_max(at(0.2, 0.35), at(0.8, 1.0)),
                0.0,
                Color32::from_gray(200),
            );
            for u in [0.2, 0.45, 0.7] {
                painter.rect_filled(
                    egui::Rect::from_min_max(at(u, 0.15), at(u + 0.1, 0.35)),
                    0.0,
                    Color32::from_gray(200),
                );
            }
        }
        Glyph::Disconnected => {
            painter.circle_stroke(at(0.25, 0.5), r.width() * 0.2, line);
            painter.circle_stroke(at(0.75, 0.5), r.width() * 0.2, line);
        }
        Glyph::Script => {
            painter.rect_stroke(
                egui::Rect::from_min_max(at(0.2, 0.05), at(0.8, 0.95)),
                1.0,
                line,
                egui::StrokeKind::Inside,
            );
            for v in [0.35, 0.55, 0.75] {
                painter.line_segment([at(0.3, v), at(0.7, v)], Stroke::new(1.0, line.color));
            }
        }
        Glyph::Penalty => {
            let red = Stroke::new(2.0, Color32::from_rgb(220, 70, 60));
            painter.line_segment([at(0.15, 0.15), at(0.85, 0.85)], red);
            painter.line_segment([at(0.85, 0.15), at(0.15, 0.85)], red);
        }
    }
}

/// The ideogram of a modifier, its amount, and what it means.
pub fn ideogram(modifier: &Modifier) -> (Glyph, String, String) {
    match modifier {
        Modifier::Mountain { letters, factor } => (
            Glyph::Mountain,
            format!("×{factor}"),
            format!(
                "{} on mountains",
                scryptic_core::diag::counted(*letters as usize, "letter")
            ),
        ),
        Modifier::Connotation { name, factor } => (
            connotation_glyph(name),
            format!("×{factor}"),
            format!("a {name} word"),
        ),
        Modifier::WaterAttack { factor } => (
            Glyph::Water,
            format!("×{factor}"),
            "attacking across water".into(),
        ),
        Modifier::OwnCity { factor } => (
            Glyph::City,
            format!("×{factor}"),
            "a letter on a city the defender owns".into(),
        ),
        Modifier::Disconnected { factor } => (
            Glyph::Disconnected,
            format!("×{factor}"),
            "disconnected from its cities".into(),
        ),
        Modifier::WaterPenalty { amount } => (
            Glyph::Water,
            format!("-{amount}"),
            "a letter on water".into(),
        ),
        Modifier::OwnCityBonus { amount } => (
            Glyph::City,
            format!("+{amount}"),
            "a letter on a city the defender owns".into(),
        ),
        Modifier::Script { id, factor } => (
            Glyph::Script,
            format!("×{factor}"),
            format!("the script modifier {id}"),
        ),
        Modifier::RepelPenalty { amount } => (
            Glyph::Penalty,
            format!("-{amount}"),
            "weakened by repelling an attack this turn".into(),
        ),
    }
}

fn connotation_glyph(name: &str) -> Glyph {
    match name {
        "attacking" => Glyph::Attacking,
        "defending" => Glyph::Defending,
        "sneaking" => Glyph::Sneaking,
        _ => Glyph::Other,
    }
}
