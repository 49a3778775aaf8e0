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
    ("map", "Ctrl+A", "select the whole map"),
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
    /// The map as a table, in two columns side by side, so that the title and Close stay
    /// on a short window's screen (in one, the table was taller than a laptop's window).
    pub fn ui(&mut self, ui: &mut egui::Ui) {
        let rows: Vec<(&str, String, String)> = Tool::ALL
            .iter()
            .filter_map(|tool| {
                let key = tool.shortcut()?;
                Some((
                    "map",
                    key.name().to_string(),
                    format!("{} tool", tool.label()),
                ))
            })
            .chain(
                SHORTCUTS
                    .iter()
                    .map(|&(place, keys, action)| (place, keys.to_string(), action.to_string())),
            )
            .collect();
        let half = rows.len().div_ceil(2);
        ui.horizontal_top(|ui| {
            for (i, column) in rows.chunks(half.max(1)).enumerate() {
                egui::Grid::new(("keyboard map", i))
                    .striped(true)
                    .show(ui, |ui| {
                        for (place, keys, action) in column {
                            ui.label(*place);
                            ui.monospace(keys);
                            ui.label(action);
                            ui.end_row();
                        }
                    });
                ui.add_space(24.0);
            }
        });
    }
}
