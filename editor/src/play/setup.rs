//! The Setup screen: what to play (a pack's mode with its settings, the open map, a map file,
//! a shared level folder, a saved game), who plays (hot-seat, against the AI, AI against AI),
//! the AI's level, the seed, and a rule-set file to play with instead of the map's rules.

use scryptic::Player;
use scryptic::ai::{Level, Think};
use scryptic::pack::{SettingKind, SettingSpec, SettingValue};
use std::path::{Path, PathBuf};
use std::time::Duration;

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
    /// A mode of a pack, with its settings.
    Pack,
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
    /// How long each of those AIs thinks a move, when it plays at the hard level.
    pub thinks: [Think; 2],
    /// The game's seed.
    pub seed: u64,
    /// A rule-set file to play with instead of the map's rules (empty: the map's).
    pub rules_file: String,
    /// Whether racks are covered between turns in hot-seat play.
    pub hide_racks: bool,
    /// The pack whose mode is played (`Source::Pack`).
    pub pack: String,
    /// Its mode.
    pub mode: String,
    /// Which chapter of a campaign mode, from 0.
    pub chapter: usize,
    /// The value of each of the pack's settings, fixed when the game starts.
    pub settings: Vec<(String, SettingValue)>,
    /// The extension packs ticked (their ids), among those that fit the mode.
    pub extensions: Vec<String>,
    /// A word list of the player's own to play with instead of the dictionary (empty: the
    /// dictionary).
    pub words: String,
    /// What the form shows of the chosen pack mode's rules.
    pub facts: ModeFacts,
    /// The pack, mode and settings `facts` were read for: a setting changed (the number of
    /// players) reads them again.
    pub facts_of: Option<FactsOf>,
}

/// The pack, the mode and the settings a mode's facts are read for.
pub type FactsOf = (String, String, Vec<(String, SettingValue)>);

/// What the Setup screen shows of a pack mode's rules: the seats' names (white and brown for
/// Scryper) and whether its game is the scripts' own, which deals no letters.
#[derive(Clone, Debug, PartialEq)]
pub struct ModeFacts {
    /// The seats' names, in seat order (gold's first).
    pub seats: Vec<String>,
    /// Whether the mode's game is a scripted one (no rack, no word list).
    pub scripted: bool,
    /// Whether the mode's players act at once (an AI's pace is then a setting).
    pub simultaneous: bool,
}

impl Default for ModeFacts {
    fn default() -> ModeFacts {
        ModeFacts {
            seats: vec![Player::Gold.name().into(), Player::Silver.name().into()],
            scripted: false,
            simultaneous: false,
        }
    }
}

impl ModeFacts {
    /// The facts of the level `form` chooses (a pack's mode; the defaults for anything else,
    /// or a mode that does not load, whose error Start tells).
    fn of(form: &SetupForm) -> ModeFacts {
        if form.source != Source::Pack || form.pack.is_empty() {
            return ModeFacts::default();
        }
        let choice = scryptic::pack::Choice {
            pack: form.pack.clone(),
            mode: form.mode.clone(),
            set: form.settings_typed(),
            ..Default::default()
        };
        match scryptic::pack::Level::from_pack(&crate::catalog(), &choice) {
            Ok(level) => {
                let names = scryptic::game::SeatNames::of(&level.rules);
                let count = usize::try_from(level.rules.seats.count).unwrap_or(2);
                ModeFacts {
                    seats: (0..count)
                        .filter_map(Player::seat)
                        .map(|p| names.name(p).to_string())
                        .collect(),
                    scripted: level.rules.flow.scripted,
                    simultaneous: level.rules.flow.simultaneous,
                }
            }
            Err(_) => ModeFacts::default(),
        }
    }
}

impl Default for SetupForm {
    fn default() -> SetupForm {
        SetupForm {
            source: Source::OpenMap,
            path: String::new(),
            opponents: Opponents::HotSeat,
            human: Player::Gold,
            levels: [Level::Normal, Level::Normal],
            thinks: [Think::Off; 2],
            seed: 1,
            rules_file: String::new(),
            hide_racks: true,
            pack: String::new(),
            mode: String::new(),
            chapter: 0,
            settings: Vec::new(),
            extensions: Vec::new(),
            words: String::new(),
            facts: ModeFacts::default(),
            facts_of: None,
        }
    }
}

/// `name` with its first letter in capitals (`white` -> `White`).
fn capitalised(name: &str) -> String {
    let mut chars = name.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// A widget for one setting's value, within its bounds.
fn setting_editor(ui: &mut egui::Ui, spec: &SettingSpec, value: &mut SettingValue) {
    ui.horizontal(|ui| {
        let label = ui.label(&spec.title);
        match (&spec.kind, value) {
            (SettingKind::Bool { .. }, SettingValue::Bool(on)) => {
                ui.checkbox(on, "").labelled_by(label.id);
            }
            (SettingKind::Int { min, max, step, .. }, SettingValue::Int(n)) => {
                let field = ui
                    .add(
                        egui::DragValue::new(n)
                            .range(*min..=*max)
                            .speed(*step as f64)
                            .custom_parser(|t| t.trim().parse::<f64>().ok()),
                    )
                    .labelled_by(label.id);
                // A value typed between steps goes to the step below it, once typed: snapped
                // at each keystroke, `30` could never be typed (`3` became 0).
                if !field.has_focus() {
                    *n = min + (*n - min) / step.max(&1) * step.max(&1);
                }
            }
            (SettingKind::Choice { options, .. }, SettingValue::Choice(chosen)) => {
                egui::ComboBox::from_id_salt(("setting", &spec.id))
                    .selected_text(chosen.as_str())
                    .show_ui(ui, |ui| {
                        for option in options {
                            ui.selectable_value(chosen, option.clone(), option);
                        }
                    })
                    .response
                    .labelled_by(label.id);
            }
            _ => {
                ui.label("(this setting's value does not fit its kind)");
            }
        }
        if !spec.description.is_empty() {
            ui.weak(&spec.description);
        }
    });
}

/// A text field under `label`; while empty it shows `hint` (what it takes, or what empty means).
fn labelled_text(ui: &mut egui::Ui, label: &str, hint: &str, text: &mut String) {
    ui.horizontal(|ui| {
        let l = ui.label(label);
        ui.add(
            egui::TextEdit::singleline(text)
                .hint_text(hint)
                .desired_width(360.0),
        )
        .labelled_by(l.id);
    });
}

/// The rules a game on `map` (from `source`) plays with when no rule-set file is given, in
/// words: a level folder's, a pack's mode's for a map of a pack, the file beside a map, or the
/// map's own.
fn default_rules(source: Source, map: Option<&Path>) -> &'static str {
    if source == Source::Folder {
        return "the level's rules";
    }
    let Some(map) = map.filter(|m| !m.as_os_str().is_empty()) else {
        return "the map's own rules";
    };
    if scryptic::pack::level::enclosing_pack(map).is_some() {
        "the rules of its pack's mode that plays it"
    } else if map.with_file_name("rules.ron").is_file() {
        "rules.ron beside the map"
    } else {
        "the map's own rules"
    }
}

/// The think times the Setup screen offers the hard level, in seconds (0: none).
const THINK_SECONDS: [u64; 4] = [0, 1, 3, 10];

/// An AI's level and, at the hard level, how long it thinks a move.
fn level_picker(ui: &mut egui::Ui, label: &str, level: &mut Level, think: &mut Think) {
    ui.horizontal(|ui| {
        ui.label(label);
        for l in Level::ALL {
            ui.selectable_value(level, l, l.name())
                .on_hover_text(l.description());
        }
    });
    if *level != Level::Hard {
        return;
    }
    ui.horizontal(|ui| {
        let ai = label.trim_end_matches(" level");
        ui.label(format!("{ai} think time, at most"));
        for seconds in THINK_SECONDS {
            let choice = match seconds {
                0 => Think::Off,
                s => Think::Time(Duration::from_secs(s)),
            };
            let name = match seconds {
                0 => "none".to_string(),
                s => format!("{s} s"),
            };
            ui.selectable_value(think, choice, name)
                .on_hover_text("The hard AI plays its best candidates on against replies in worlds drawn from what it cannot see, sixteen worlds or this long a move, whichever comes first");
        }
    });
}

impl SetupForm {
    /// Chooses pack `pack`'s mode `mode` (its first when empty), its settings at their
    /// defaults.
    pub fn choose_pack(&mut self, pack: &str, mode: &str) {
        self.source = Source::Pack;
        self.pack = pack.to_string();
        let catalog = crate::catalog();
        let manifest = catalog.get(pack).map(|p| p.manifest.clone());
        // The catalog is read again to load the mode's facts: this read ends first.
        drop(catalog);
        let manifest = manifest.as_ref();
        self.mode =
            match manifest.and_then(|m| m.modes.iter().find(|x| mode.is_empty() || x.id == mode)) {
                Some(found) => found.id.clone(),
                None => mode.to_string(),
            };
        self.chapter = 0;
        self.extensions.clear();
        self.settings = manifest
            .map(|m| {
                m.settings
                    .iter()
                    .map(|s| (s.id.clone(), s.default_value()))
                    .collect()
            })
            .unwrap_or_default();
        self.facts = ModeFacts::of(self);
    }

    /// The settings as `--set` would give them.
    pub fn settings_typed(&self) -> Vec<(String, String)> {
        // The platform's settings left as they are go unsaid: a game records one only when
        // it is set (and an AI's pace belongs to modes played at once).
        let unsaid = |id: &str, value: &SettingValue| {
            let builtin = scryptic::pack::settings::builtin();
            builtin
                .iter()
                .any(|s| s.id == id && s.default_value() == *value)
        };
        self.settings
            .iter()
            .filter(|(id, value)| !unsaid(id, value))
            .map(|(id, value)| (id.clone(), value.to_string()))
            .collect()
    }

    /// For a campaign mode, which chapter (the first, or one to play again).
    fn chapter_ui(&mut self, ui: &mut egui::Ui) {
        let catalog = crate::catalog();
        let Ok(packs) = catalog.resolve(&[self.pack.as_str()]) else {
            return;
        };
        let Some(pack) = packs.iter().find(|p| p.id() == self.pack) else {
            return;
        };
        let Some(mode) = pack
            .manifest
            .mode(&self.mode)
            .filter(|m| !m.campaign.is_empty())
        else {
            return;
        };
        let chapters = scryptic::pack::level::boards(&packs, pack, mode)
            .map(|b| b.len())
            .unwrap_or(0);
        drop(catalog);
        if chapters < 2 {
            return;
        }
        ui.horizontal(|ui| {
            let label = ui.label(format!("Chapter (of {chapters})"));
            let mut shown = self.chapter + 1;
            ui.add(egui::DragValue::new(&mut shown).range(1..=chapters))
                .labelled_by(label.id);
            self.chapter = shown.saturating_sub(1);
        });
    }

    /// The extension packs that fit the mode, each to tick (only those ticked are loaded).
    fn extensions_ui(&mut self, ui: &mut egui::Ui) {
        let catalog = crate::catalog();
        let fitting: Vec<(String, String, String)> = catalog
            .packs()
            .iter()
            .filter_map(|p| {
                let spec = p.manifest.extension.as_ref()?;
                spec.fits(&self.pack, &self.mode).then(|| {
                    let id = p.id().to_string();
                    (id, p.manifest.title.clone(), p.manifest.description.clone())
                })
            })
            .collect();
        drop(catalog);
        // A mode changed since: what no longer fits is no longer ticked.
        self.extensions
            .retain(|id| fitting.iter().any(|(fit, _, _)| fit == id));
        if fitting.is_empty() {
            return;
        }
        ui.label("Extensions (tick to add to the game):");
        for (id, title, description) in fitting {
            let mut on = self.extensions.contains(&id);
            let shown = format!("{title} ({id})");
            if ui
                .checkbox(&mut on, shown)
                .on_hover_text(description)
                .changed()
            {
                if on {
                    self.extensions.push(id);
                } else {
                    self.extensions.retain(|e| *e != id);
                }
            }
        }
    }

    /// The pack, its mode and its settings (`local`: also the campaign's chapter and the
    /// extensions, which a game here may have and a match on a server does not).
    pub(super) fn pack_ui(&mut self, ui: &mut egui::Ui, local: bool) {
        let catalog = crate::catalog();
        let packs: Vec<(String, String)> = catalog
            .packs()
            .iter()
            .filter(|p| !p.manifest.modes.is_empty())
            .map(|p| (p.id().to_string(), p.manifest.title.clone()))
            .collect();
        let manifest = catalog.get(&self.pack).map(|p| p.manifest.clone());
        drop(catalog);
        let mut chosen = self.pack.clone();
        ui.horizontal(|ui| {
            egui::ComboBox::from_label("Pack")
                .selected_text(if chosen.is_empty() {
                    "(choose)"
                } else {
                    chosen.as_str()
                })
                .show_ui(ui, |ui| {
                    for (id, title) in &packs {
                        ui.selectable_value(&mut chosen, id.clone(), format!("{title} ({id})"));
                    }
                });
        });
        if chosen != self.pack {
            self.choose_pack(&chosen, "");
            return;
        }
        let Some(manifest) = manifest else {
            ui.label("Choose a pack (the Packs screen shows them and opens others).");
            return;
        };
        ui.horizontal(|ui| {
            ui.label("Mode");
            for mode in &manifest.modes {
                let picked = ui
                    .selectable_value(&mut self.mode, mode.id.clone(), &mode.title)
                    .on_hover_text(&mode.description);
                if picked.changed() {
                    self.facts = ModeFacts::of(self);
                }
            }
        });
        if local {
            self.chapter_ui(ui);
            self.extensions_ui(ui);
        }
        // A match a server hosts has the settings every mode has too (a move's time, which
        // only a server's clock keeps); a game here, those this computer keeps (an AI's pace).
        let at_once = self.facts.simultaneous;
        let specs: Vec<_> = manifest
            .offered_settings()
            .into_iter()
            .filter(|s| {
                manifest.settings.iter().any(|own| own.id == s.id) || {
                    use scryptic::pack::settings::{kept_here, only_at_once};
                    (!local || kept_here(&s.id)) && (at_once || !only_at_once(&s.id))
                }
            })
            .collect();
        if specs.is_empty() {
            return;
        }
        ui.label("Settings (fixed for the whole game):");
        for spec in &specs {
            if !self.settings.iter().any(|(id, _)| *id == spec.id) {
                self.settings.push((spec.id.clone(), spec.default_value()));
            }
            if let Some((_, value)) = self.settings.iter_mut().find(|(id, _)| *id == spec.id) {
                setting_editor(ui, spec, value);
            }
        }
    }

    /// The form (`open_map`: where the map open in the editor is saved); answers whether
    /// Start was clicked.
    pub fn ui(&mut self, ui: &mut egui::Ui, open_map: Option<&Path>) -> bool {
        ui.heading("Setup");
        ui.label("Play on:");
        ui.horizontal(|ui| {
            ui.radio_value(&mut self.source, Source::OpenMap, "The open map");
            ui.radio_value(&mut self.source, Source::MapFile, "A map file");
            ui.radio_value(&mut self.source, Source::Folder, "A level folder");
            ui.radio_value(&mut self.source, Source::Save, "A saved game");
            ui.radio_value(&mut self.source, Source::Pack, "A pack's mode");
        });
        match self.source {
            Source::OpenMap => {}
            Source::Pack => self.pack_ui(ui, true),
            source => {
                let hint = match source {
                    Source::Folder => "a level's folder",
                    Source::Save => "a saved game (.ron)",
                    _ => "a map file (.ron)",
                };
                labelled_text(ui, "Path", hint, &mut self.path);
            }
        }
        ui.separator();
        ui.label("Players:");
        ui.horizontal(|ui| {
            ui.radio_value(&mut self.opponents, Opponents::HotSeat, "Hot-seat");
            ui.radio_value(&mut self.opponents, Opponents::VersusAi, "Against the AI");
            ui.radio_value(&mut self.opponents, Opponents::AiVersusAi, "AI against AI");
        });
        let facts = if self.source == Source::Pack {
            let of = (self.pack.clone(), self.mode.clone(), self.settings.clone());
            if self.facts_of.as_ref() != Some(&of) {
                self.facts = ModeFacts::of(self);
                self.facts_of = Some(of);
            }
            self.facts.clone()
        } else {
            ModeFacts::default()
        };
        let first = facts.seats.first().cloned().unwrap_or_default();
        // With more than two seats, every seat but the first is played at one level.
        let others = match facts.seats.as_slice() {
            [_, second] => capitalised(second),
            _ => "The other seats'".to_string(),
        };
        match self.opponents {
            Opponents::HotSeat => {
                let hide = if facts.scripted {
                    "Hide each player's side between turns"
                } else {
                    "Hide the racks between turns"
                };
                ui.checkbox(&mut self.hide_racks, hide);
            }
            Opponents::VersusAi => {
                // A seat the mode no longer has (fewer players chosen) is given back to gold.
                let seated = (0..facts.seats.len())
                    .filter_map(Player::seat)
                    .any(|p| p == self.human);
                if !seated {
                    self.human = Player::Gold;
                }
                ui.horizontal_wrapped(|ui| {
                    ui.label("You play");
                    for (i, name) in facts.seats.iter().enumerate() {
                        let Some(seat) = Player::seat(i) else {
                            continue;
                        };
                        let label = if i == 0 {
                            format!("{name} (moves first)")
                        } else {
                            name.clone()
                        };
                        ui.radio_value(&mut self.human, seat, label);
                    }
                });
                let ai = usize::from(self.human == Player::Gold);
                level_picker(ui, "AI level", &mut self.levels[ai], &mut self.thinks[ai]);
            }
            Opponents::AiVersusAi => {
                level_picker(
                    ui,
                    &format!("{} AI", capitalised(&first)),
                    &mut self.levels[0],
                    &mut self.thinks[0],
                );
                level_picker(
                    ui,
                    &format!("{others} AI"),
                    &mut self.levels[1],
                    &mut self.thinks[1],
                );
            }
        }
        ui.separator();
        ui.horizontal(|ui| {
            let l = ui.label("Seed");
            ui.add(egui::DragValue::new(&mut self.seed))
                .labelled_by(l.id);
        });
        if !matches!(self.source, Source::Save | Source::Pack) {
            let map = match self.source {
                Source::OpenMap => open_map.map(Path::to_path_buf),
                _ => Some(PathBuf::from(self.path.trim())),
            };
            let default = default_rules(self.source, map.as_deref());
            let hint = format!("empty: {default}");
            labelled_text(ui, "Rule-set file", &hint, &mut self.rules_file);
        }
        if self.source != Source::Save && !facts.scripted {
            labelled_text(ui, "Word list", "empty: the dictionary", &mut self.words);
        }
        ui.add_space(8.0);
        ui.button("Start game").clicked()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The Setup screen says which rules an empty rule-set file means, for where the map is.
    #[test]
    fn an_empty_rule_set_file_is_said_in_words() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("rules.ron"), "").unwrap();
        for (source, map, said) in [
            (Source::Folder, None, "the level's rules"),
            (Source::OpenMap, None, "the map's own rules"),
            (
                Source::MapFile,
                Some(root.join("maps/duel-24.ron")),
                "the map's own rules",
            ),
            (
                Source::MapFile,
                Some(root.join("packs/lexicon-crossing/maps/table.ron")),
                "the rules of its pack's mode that plays it",
            ),
            (
                Source::OpenMap,
                Some(dir.path().join("m.ron")),
                "rules.ron beside the map",
            ),
        ] {
            assert_eq!(default_rules(source, map.as_deref()), said, "{map:?}");
        }
    }
}
