//! The tool palette: which tool is in hand with its settings, the panel that shows them, and
//! the single-key shortcuts level designers expect (B, E, R, F, I, C, T, M, 1-9).

use crate::paint::{BrushShape, Symmetry};
use scryptic::{Owner, Pos, Terrain, board::STANDARD_TOKEN_KINDS};

/// A tool of the map canvas.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Tool {
    /// Paints terrain under the brush; Shift-click draws a line from the last point.
    #[default]
    Brush,
    /// Paints plains (the empty ground) under the brush.
    Eraser,
    /// Drag a rectangle of terrain.
    Rectangle,
    /// Drag a straight line of terrain.
    Line,
    /// Fills the region of one terrain under the click.
    Bucket,
    /// Picks the terrain under the click.
    Eyedropper,
    /// Paints a share of the brush's cells: woods and rocks scattered by hand.
    Scatter,
    /// Places a city (right-click removes one).
    City,
    /// Places a token (right-click removes one).
    Token,
    /// Selects a region to copy, cut, paste or move.
    Select,
    /// Shows and edits one cell (forest density, ice thickness, ids).
    Inspect,
}

impl Tool {
    /// Every tool, in palette order.
    pub const ALL: [Tool; 11] = [
        Tool::Brush,
        Tool::Eraser,
        Tool::Rectangle,
        Tool::Line,
        Tool::Bucket,
        Tool::Eyedropper,
        Tool::Scatter,
        Tool::City,
        Tool::Token,
        Tool::Select,
        Tool::Inspect,
    ];

    /// The name on its button.
    pub fn label(self) -> &'static str {
        match self {
            Tool::Brush => "Brush",
            Tool::Eraser => "Eraser",
            Tool::Rectangle => "Rectangle",
            Tool::Line => "Line",
            Tool::Bucket => "Bucket fill",
            Tool::Eyedropper => "Eyedropper",
            Tool::Scatter => "Scatter",
            Tool::City => "City",
            Tool::Token => "Token",
            Tool::Select => "Select",
            Tool::Inspect => "Inspect",
        }
    }

    /// Its shortcut key, if it has one.
    pub fn shortcut(self) -> Option<egui::Key> {
        use egui::Key;
        Some(match self {
            Tool::Brush => Key::B,
            Tool::Eraser => Key::E,
            Tool::Rectangle => Key::R,
            Tool::Line => Key::L,
            Tool::Bucket => Key::F,
            Tool::Eyedropper => Key::I,
            Tool::Scatter => Key::S,
            Tool::City => Key::C,
            Tool::Token => Key::T,
            Tool::Select => Key::M,
            Tool::Inspect => Key::N,
        })
    }

    /// Whether it paints with the brush (size and shape apply).
    pub fn uses_brush(self) -> bool {
        matches!(self, Tool::Brush | Tool::Eraser | Tool::Scatter)
    }
}

/// The tool in hand and every tool's settings.
#[derive(Clone, Debug)]
pub struct Tools {
    /// The tool in hand.
    pub tool: Tool,
    /// The terrain painted.
    pub terrain: Terrain,
    /// Brush size, 1 to 9.
    pub size: u32,
    /// Brush shape.
    pub shape: BrushShape,
    /// How strokes are mirrored.
    pub symmetry: Symmetry,
    /// Share of cells the scatter tool paints, in percent.
    pub scatter_percent: u32,
    /// Whether rectangles are filled (else outlined).
    pub filled: bool,
    /// Owner of new cities.
    pub city_owner: Owner,
    /// Kind of new tokens.
    pub token_kind: String,
    /// Token kinds the map's scripts define (offered beside the standard four).
    pub script_token_kinds: Vec<String>,
}

impl Default for Tools {
    fn default() -> Tools {
        Tools {
            tool: Tool::Brush,
            terrain: Terrain::Forest,
            size: 1,
            shape: BrushShape::Square,
            symmetry: Symmetry::None,
            scatter_percent: 30,
            filled: true,
            city_owner: Owner::Neutral,
            token_kind: STANDARD_TOKEN_KINDS[0].to_string(),
            script_token_kinds: Vec::new(),
        }
    }
}

/// The terrain Alt+`digit` picks (letters are the tools' shortcuts, and plain digits the
/// brush sizes).
fn terrain_for_digit(digit: usize) -> Option<Terrain> {
    Terrain::ALL.get(digit.checked_sub(1)?).copied()
}

const DIGITS: [egui::Key; 9] = [
    egui::Key::Num1,
    egui::Key::Num2,
    egui::Key::Num3,
    egui::Key::Num4,
    egui::Key::Num5,
    egui::Key::Num6,
    egui::Key::Num7,
    egui::Key::Num8,
    egui::Key::Num9,
];

impl Tools {
    /// Every token kind on offer: the standard elementals, then the scripts' own.
    pub fn token_kinds(&self) -> Vec<String> {
        let mut kinds: Vec<String> = STANDARD_TOKEN_KINDS.iter().map(|k| k.to_string()).collect();
        kinds.extend(self.script_token_kinds.iter().cloned());
        kinds
    }

    /// Applies the single-key shortcuts of this frame (when no text field has the keyboard).
    pub fn shortcuts(&mut self, input: &egui::InputState) {
        let m = input.modifiers;
        if m.command {
            return;
        }
        for tool in Tool::ALL {
            if tool.shortcut().is_some_and(|k| input.key_pressed(k)) && !m.shift {
                self.tool = tool;
            }
        }
        for (i, key) in DIGITS.iter().enumerate() {
            if input.key_pressed(*key) {
                if m.alt {
                    if let Some(t) = terrain_for_digit(i + 1) {
                        self.terrain = t;
                    }
                } else {
                    self.size = i as u32 + 1;
                }
            }
        }
        if input.key_pressed(egui::Key::OpenBracket) {
            self.size = self.size.saturating_sub(1).max(1);
        }
        if input.key_pressed(egui::Key::CloseBracket) {
            self.size = (self.size + 1).min(9);
        }
    }

    /// The tool panel.
    pub fn ui(&mut self, ui: &mut egui::Ui) {
        ui.heading("Tools");
        egui::Grid::new("tool buttons")
            .num_columns(2)
            .show(ui, |ui| {
                for (i, tool) in Tool::ALL.into_iter().enumerate() {
                    let key = tool.shortcut().map(|k| k.name()).unwrap_or_default();
                    ui.selectable_value(&mut self.tool, tool, tool.label())
                        .on_hover_text(format!("{} ({key})", tool.label()));
                    if i % 2 == 1 {
                        ui.end_row();
                    }
                }
            });
        ui.separator();
        ui.label("Terrain (Alt+1..6)");
        for terrain in Terrain::ALL {
            ui.radio_value(&mut self.terrain, terrain, terrain.name());
        }
        ui.separator();
        if self.tool.uses_brush() {
            ui.add(egui::Slider::new(&mut self.size, 1..=9).text("size (1-9, [ ])"));
            ui.horizontal(|ui| {
                ui.radio_value(&mut self.shape, BrushShape::Square, "square");
                ui.radio_value(&mut self.shape, BrushShape::Round, "round");
            });
        }
        if self.tool == Tool::Scatter {
            ui.add(egui::Slider::new(&mut self.scatter_percent, 1..=100).text("% of cells"));
        }
        if self.tool == Tool::Rectangle {
            ui.checkbox(&mut self.filled, "filled");
        }
        if self.tool == Tool::City {
            ui.label("New cities belong to");
            for owner in [Owner::Neutral, Owner::Gold, Owner::Silver] {
                ui.radio_value(&mut self.city_owner, owner, owner_name(owner));
            }
        }
        if self.tool == Tool::Token {
            ui.label("Token kind");
            for kind in self.token_kinds() {
                let label = kind.clone();
                ui.radio_value(&mut self.token_kind, kind, label);
            }
        }
        egui::ComboBox::from_label("symmetry")
            .selected_text(self.symmetry.label())
            .show_ui(ui, |ui| {
                for s in Symmetry::ALL {
                    ui.selectable_value(&mut self.symmetry, s, s.label());
                }
            });
    }
}

/// An owner's name as players see it.
pub fn owner_name(owner: Owner) -> &'static str {
    match owner {
        Owner::Neutral => "neutral",
        Owner::Gold => "gold",
        Owner::Silver => "silver",
    }
}

/// The cells a brush tool covers at `at`, with symmetry.
pub fn brush_cells(tools: &Tools, at: Pos, width: u32, height: u32) -> Vec<Pos> {
    let cells = crate::paint::brush(at, tools.size, tools.shape, width, height);
    crate::paint::with_symmetry(&cells, tools.symmetry, width, height)
}
