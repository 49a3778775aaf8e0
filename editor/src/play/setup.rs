//! The Setup screen: what to play (the open map, a map file, a shared level folder, a saved
//! game), who plays (hot-seat, against the AI, AI against AI), the AI's level, the seed, and a
//! rule-set file to play with instead of the map's rules.

use scryptic::Player;
use scryptic::ai::Level;

/// What a game is started on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Source {
    /// The map open in the editor, unsaved changes included.
    #[default]
    OpenMap,
    /// A map file.
    MapFile,
    /// A level folder: a map with its scripts, word lists, rule set and tileset.
    Folder,
    /// A saved game.
    Save,
}

/// Who plays.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Opponents {
    /// Two people at one keyboard.
    #[default]
    HotSeat,
    /// A person against the AI.
    VersusAi,
    /// Two AIs, to watch.
    AiVersusAi,
}

/// The Setup screen's fields.
#[derive(Clone, Debug, PartialEq)]
pub struct SetupForm {
    /// What to play.
    pub source: Source,
    /// The file or folder, for every source but the open map.
    pub path: String,
    /// Who plays.
    pub opponents: Opponents,
    /// The person's side against the AI.
    pub human: Player,
    /// The AIs' levels: gold's and silver's (against a person, the AI's side's).
    pub levels: [Level; 2],
    /// The game's seed.
    pub seed: u64,
    /// A rule-set file to play with instead of the map's rules (empty: the map's).
    pub rules_file: String,
    /// Whether racks are covered between turns in hot-seat play.
    pub hide_racks: bool,
}

impl Default for SetupForm {
    fn default() -> SetupForm {
        SetupForm {
            source: Source::OpenMap,
            path: String::new(),
            opponents: Opponents::HotSeat,
            human: Player::Gold,
            levels: [Level::Normal, Level::Normal],
            seed: 1,
            rules_file: String::new(),
            hide_racks: true,
        }
    }
}

fn labelled_text(ui: &mut egui::Ui, label: &str, text: &mut String) {
    ui.horizontal(|ui| {
        let l = ui.label(label);
        ui.add(egui::TextEdit::singleline(text).desired_width(360.0))
            .labelled_by(l.id);
    });
}

fn level_picker(ui: &mut egui::Ui, label: &str, level: &mut Level) {
    ui.horizontal(|ui| {
        ui.label(label);
        for l in Level::ALL {
            ui.selectable_value(level, l, l.name());
        }
    });
}

impl SetupForm {
    /// The form; answers whether Start was clicked.
    pub fn ui(&mut self, ui: &mut egui::Ui) -> bool {
        ui.heading("Setup");
        ui.label("Play on:");
        ui.horizontal(|ui| {
            ui.radio_value(&mut self.source, Source::OpenMap, "The open map");
            ui.radio_value(&mut self.source, Source::MapFile, "A map file");
            ui.radio_value(&mut self.source, Source::Folder, "A level folder");
            ui.radio_value(&mut self.source, Source::Save, "A saved game");
        });
        if self.source != Source::OpenMap {
            labelled_text(ui, "Path", &mut self.path);
        }
        ui.separator();
        ui.label("Players:");
        ui.horizontal(|ui| {
            ui.radio_value(&mut self.opponents, Opponents::HotSeat, "Hot-seat");
            ui.radio_value(&mut self.opponents, Opponents::VersusAi, "Against the AI");
            ui.radio_value(&mut self.opponents, Opponents::AiVersusAi, "AI against AI");
        });
        match self.opponents {
            Opponents::HotSeat => {
                ui.checkbox(&mut self.hide_racks, "Hide the racks between turns");
            }
            Opponents::VersusAi => {
                ui.horizontal(|ui| {
                    ui.label("You play");
                    ui.radio_value(&mut self.human, Player::Gold, "gold (moves first)");
                    ui.radio_value(&mut self.human, Player::Silver, "silver");
                });
                let ai = usize::from(self.human == Player::Gold);
                level_picker(ui, "AI level", &mut self.levels[ai]);
            }
            Opponents::AiVersusAi => {
                level_picker(ui, "Gold AI", &mut self.levels[0]);
                level_picker(ui, "Silver AI", &mut self.levels[1]);
            }
        }
        ui.separator();
        ui.horizontal(|ui| {
            let l = ui.label("Seed");
            ui.add(egui::DragValue::new(&mut self.seed))
                .labelled_by(l.id);
        });
        if self.source != Source::Save {
            labelled_text(
                ui,
                "Rule-set file (empty: the map's rules)",
                &mut self.rules_file,
            );
        }
        ui.add_space(8.0);
        ui.button("Start game").clicked()
    }
}
