//! The keyboard map: every shortcut the editor answers, in one table that the Help menu shows
//! (a test checks each tool's key is in it).

use crate::tools::Tool;

/// Where a shortcut works, its keys and what it does, beyond the tools' letters.
pub const SHORTCUTS: &[(&str, &str, &str)] = &[
    ("everywhere", "Ctrl+N", "new map"),
    ("everywhere", "Ctrl+O", "open a map"),
    ("everywhere", "Ctrl+S", "save"),
    ("everywhere", "Ctrl+Shift+S", "save as"),
    (
        "everywhere",
        "Ctrl+Z",
        "undo (in play: take back the last action)",
    ),
    ("everywhere", "Ctrl+Y, Ctrl+Shift+Z", "redo"),
    ("everywhere", "F1", "this keyboard map"),
    ("map", "1 to 9", "brush size"),
    ("map", "[ and ]", "brush size down and up"),
    (
        "map",
        "Alt+1 to Alt+6",
        "terrain: plains, forest, water, mountain, ice, lava",
    ),
    ("map", "G", "grid on and off"),
    ("map", "Ctrl+C", "copy the selection"),
    ("map", "Ctrl+X", "cut the selection"),
    ("map", "Ctrl+V", "paste at the pointer"),
    ("map", "Delete, Backspace", "clear the selection"),
    ("map", "arrows", "move the selection by a cell"),
    ("map", "Escape", "drop the selection"),
    ("map", "wheel; middle drag or Space+drag", "zoom; pan"),
    (
        "play",
        "type a word",
        "letters go on the board from the cursor",
    ),
    ("play", "Enter", "commit the word"),
    ("play", "Backspace", "take back the last letter"),
    ("play", "wheel, middle drag", "zoom, pan"),
];

/// The keyboard map: the tools' letters (as Tiled's B, E, R, F, I), then every other shortcut.
#[derive(Debug, Default)]
pub struct KeyboardMap;

impl KeyboardMap {
    /// The map as a table.
    pub fn ui(&mut self, ui: &mut egui::Ui) {
        egui::Grid::new("keyboard map")
            .striped(true)
            .show(ui, |ui| {
                for tool in Tool::ALL {
                    if let Some(key) = tool.shortcut() {
                        ui.label("map");
                        ui.monospace(key.name());
                        ui.label(format!("{} tool", tool.label()));
                        ui.end_row();
                    }
                }
                for &(place, keys, action) in SHORTCUTS {
                    ui.label(place);
                    ui.monospace(keys);
                    ui.label(action);
                    ui.end_row();
                }
            });
    }
}
