//! The Packs screen: every pack found (built in, installed, in the search folders) and any
//! folder or `.zip` opened, each with its title, version, authors, licence, description,
//! thumbnail, dependencies, what it holds and whether it runs Lua; a mode chosen here goes to
//! Play's setup screen with the pack's settings. "New pack" makes a pack from the open map.

use crate::document::Document;
use scryptic::pack::{Catalog, Pack, PackFiles};
use std::path::{Path, PathBuf};

/// What the Packs screen asks the editor to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PacksAction {
    /// Set up a game of pack `pack`'s mode `mode`.
    Play {
        /// The pack.
        pack: String,
        /// Its mode.
        mode: String,
    },
    /// Open this map file in the Map mode.
    OpenMap(PathBuf),
}

/// The Packs screen's two views.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PacksTab {
    /// The packs found here.
    #[default]
    Found,
    /// The packs of the pack indexes, to install.
    Browse,
}

/// The Packs screen's state.
#[derive(Default)]
pub struct PacksMode {
    /// Which view is shown.
    pub tab: PacksTab,
    /// Browse: the pack indexes' packs.
    pub browse: crate::packs_browse::Browse,
    /// The README renderer's cache (laid-out blocks, link states).
    readme_cache: egui_commonmark::CommonMarkCache,
    /// The pack shown in detail.
    pub selected: Option<String>,
    /// A folder or archive to open.
    pub open_path: String,
    /// The new pack's id and the folder to make it in ("New pack").
    pub new_id: String,
    /// Where "New pack" makes it.
    pub new_dir: String,
    /// What was done, or why not.
    pub message: Option<String>,
    /// The prompt for a pack folder, while it is open (Browse...).
    pub prompt: Option<crate::file_prompt::FilePrompt>,
    /// The folders archives were unpacked into (removed with the screen).
    unpacked: Vec<tempfile::TempDir>,
    thumbnail: Option<(String, egui::TextureHandle)>,
}

/// One pack's facts, read once for the screen.
struct Details {
    files: usize,
    scripts: usize,
    maps: usize,
    place: String,
    readme: String,
    dependencies: Vec<String>,
}

impl PacksMode {
    /// Opens the pack folder or archive at `path` and shows it.
    pub fn open(&mut self, path: &Path) {
        let is_zip = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("zip"));
        let folder = if is_zip {
            match scryptic::pack::archive::unpack(path, &std::env::temp_dir()) {
                Ok((staging, root)) => {
                    self.unpacked.push(staging);
                    root
                }
                Err(e) => {
                    self.message = Some(e.to_string());
                    return;
                }
            }
        } else {
            path.to_path_buf()
        };
        match Pack::open(&folder) {
            Ok(pack) => {
                let (label, id) = (pack.label(), pack.id().to_string());
                match crate::add_opened_pack(pack) {
                    Ok(()) => {
                        self.message = Some(format!("opened {label}"));
                        self.selected = Some(id);
                    }
                    Err(e) => self.message = Some(e.to_string()),
                }
            }
            Err(e) => self.message = Some(e.to_string()),
        }
    }

    /// Looks for packs again, keeping those opened by hand.
    pub fn refresh(&mut self) {
        let problems = crate::refresh_catalog();
        if !problems.is_empty() {
            self.message = Some(problems.join("\n"));
        }
    }

    /// The screen; returns what the editor should do.
    pub fn ui(&mut self, ui: &mut egui::Ui, doc: &Document) -> Option<PacksAction> {
        egui::Panel::top("packs tabs").show(ui, |ui| {
            ui.horizontal(|ui| {
                ui.selectable_value(&mut self.tab, PacksTab::Found, "Found here");
                ui.selectable_value(&mut self.tab, PacksTab::Browse, "Browse");
            });
        });
        if self.tab == PacksTab::Browse {
            self.browse.ui(ui);
            return None;
        }
        let mut action = None;
        egui::Panel::left("pack list")
            .default_size(260.0)
            .show(ui, |ui| self.list_ui(ui));
        egui::CentralPanel::default_margins().show(ui, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                action = self.details_ui(ui);
                ui.separator();
                if let Some(made) = self.new_pack_ui(ui, doc) {
                    action = Some(made);
                }
                if let Some(message) = &self.message {
                    ui.separator();
                    ui.label(message);
                }
            });
        });
        action
    }

    fn list_ui(&mut self, ui: &mut egui::Ui) {
        ui.heading("Packs");
        // Opening comes first, so that it stays where it is however long the list grows.
        let label = ui.label("Open a pack folder or .zip:");
        ui.add(egui::TextEdit::singleline(&mut self.open_path).desired_width(240.0))
            .labelled_by(label.id);
        ui.horizontal(|ui| {
            if ui.button("Open").clicked() {
                let path = PathBuf::from(self.open_path.trim());
                self.open(&path);
            }
            if ui.button("Browse...").clicked() {
                let centre = ui.ctx().content_rect().center();
                self.prompt = Some(
                    crate::file_prompt::FilePrompt::new(
                        "Open a pack folder",
                        "Open",
                        crate::file_prompt::Access::Folder,
                        self.open_path.clone(),
                    )
                    .browsing(centre),
                );
            }
            if ui.button("Look again").clicked() {
                self.refresh();
                self.message = Some("looked for packs again".into());
            }
        });
        self.prompt_ui(ui.ctx());
        ui.separator();
        let catalog = crate::catalog();
        egui::ScrollArea::vertical().show(ui, |ui| {
            for pack in catalog.packs() {
                let id = pack.id().to_string();
                let label = format!(
                    "{} {}  ({})",
                    pack.manifest.title, pack.manifest.version, id
                );
                let selected = self.selected.as_deref() == Some(id.as_str());
                if ui.selectable_label(selected, label).clicked() {
                    self.selected = Some(id);
                }
            }
        });
    }

    /// The pack folder prompt, while open: a folder chosen there is opened as if typed.
    fn prompt_ui(&mut self, ctx: &egui::Context) {
        let Some(prompt) = self.prompt.as_mut() else {
            return;
        };
        match prompt.show(ctx) {
            crate::file_prompt::Answer::Waiting => {}
            crate::file_prompt::Answer::Cancelled => self.prompt = None,
            crate::file_prompt::Answer::Chosen(path) => {
                self.prompt = None;
                self.open_path = path.display().to_string();
                self.open(&path);
            }
        }
    }

    /// The selected pack in detail; a mode's Play button sets up a game of it.
    fn details_ui(&mut self, ui: &mut egui::Ui) -> Option<PacksAction> {
        let catalog = crate::catalog();
        let Some(pack) = self
            .selected
            .as_deref()
            .and_then(|id| catalog.get(id))
            .cloned()
        else {
            ui.label("Choose a pack on the left to see what it is and play its modes.");
            return None;
        };
        let details = details(&catalog, &pack);
        drop(catalog);
        let m = &pack.manifest;
        ui.heading(&m.title);
        ui.label(format!("version {}", m.version));
        self.thumbnail_ui(ui, &pack);
        if !m.authors.is_empty() {
            ui.label(format!("by {}", m.authors.join(", ")));
        }
        if !m.license.is_empty() {
            ui.label(format!("licence: {}", m.license));
        }
        ui.label(format!("{} · scripting API {}", details.place, m.scryptic));
        if !m.description.is_empty() {
            ui.label(&m.description);
        }
        ui.label(format!(
            "holds {} files: {} maps, {} scripts{}",
            details.files,
            details.maps,
            details.scripts,
            if details.scripts > 0 {
                " (it runs Lua, in the sandbox)"
            } else {
                ""
            }
        ));
        for line in &details.dependencies {
            ui.label(line);
        }
        for setting in &m.settings {
            ui.label(format!(
                "setting: {} (default {}){}",
                setting.title,
                setting.default_value(),
                if setting.binds.is_empty() {
                    String::new()
                } else {
                    format!(", sets {}", setting.binds)
                }
            ));
        }
        if let Some(extension) = &m.extension {
            ui.label(extension.describe());
        }
        let mut action = None;
        if m.modes.is_empty() && m.extension.is_none() {
            ui.label("No modes: a content or library pack, played through another pack's modes.");
        }
        for mode in &m.modes {
            ui.horizontal(|ui| {
                if ui.button(format!("Play {}", mode.title)).clicked() {
                    action = Some(PacksAction::Play {
                        pack: m.id.clone(),
                        mode: mode.id.clone(),
                    });
                }
                ui.weak(&mode.description);
            });
        }
        if let Some(first_map) = first_map_file(&pack)
            && ui.button("Open its first map in the Map mode").clicked()
        {
            action = Some(PacksAction::OpenMap(first_map));
        }
        if !details.readme.is_empty() {
            ui.separator();
            // Rendered as people write it (headings, lists, emphasis, code); images are not
            // loaded, so a stranger's README reads no file and fetches nothing.
            egui_commonmark::CommonMarkViewer::new().show(
                ui,
                &mut self.readme_cache,
                &details.readme,
            );
        }
        action
    }

    /// The pack's `thumbnail.png`, if it has one.
    fn thumbnail_ui(&mut self, ui: &mut egui::Ui, pack: &Pack) {
        let key = pack.label();
        if self.thumbnail.as_ref().map(|(k, _)| k) != Some(&key) {
            self.thumbnail = pack
                .files
                .read_bytes("thumbnail.png", 8 * 1024 * 1024)
                .ok()
                .and_then(|bytes| crate::png::decode_for_ui(&bytes))
                .map(|image| {
                    let texture = ui.ctx().load_texture(
                        "pack thumbnail",
                        image,
                        egui::TextureOptions::LINEAR,
                    );
                    (key.clone(), texture)
                });
        }
        if let Some((_, texture)) = &self.thumbnail {
            ui.add(egui::Image::new(texture).max_height(160.0));
        }
    }

    /// "New pack": a pack folder made from the map open in the editor.
    fn new_pack_ui(&mut self, ui: &mut egui::Ui, doc: &Document) -> Option<PacksAction> {
        ui.heading("New pack from the open map");
        ui.horizontal(|ui| {
            let l = ui.label("id");
            ui.add(egui::TextEdit::singleline(&mut self.new_id).desired_width(160.0))
                .labelled_by(l.id);
            let l = ui.label("in folder");
            ui.add(egui::TextEdit::singleline(&mut self.new_dir).desired_width(240.0))
                .labelled_by(l.id);
        });
        if !ui.button("Make the pack").clicked() {
            return None;
        }
        let dir = match self.new_dir.trim() {
            "" => PathBuf::from("."),
            d => PathBuf::from(d),
        };
        match crate::new_pack::make(self.new_id.trim(), &dir, doc) {
            Ok(made) => {
                self.open(&made.folder);
                self.message = Some(format!(
                    "made {}: its map is open in the Map mode",
                    made.folder.display()
                ));
                Some(PacksAction::OpenMap(made.map))
            }
            Err(e) => {
                self.message = Some(e);
                None
            }
        }
    }
}

fn details(catalog: &Catalog, pack: &Pack) -> Details {
    let files = pack.files.all_files().unwrap_or_default();
    let count = |f: &dyn Fn(&String) -> bool| files.iter().filter(|x| f(x)).count();
    let readme = pack
        .files
        .read_text("README.md")
        .map(|t| t.chars().take(4000).collect())
        .unwrap_or_default();
    let mut dependencies = Vec::new();
    for (id, req) in &pack.manifest.depends {
        let found = catalog.get(id).map(|p| &p.manifest.version);
        dependencies.push(match found {
            Some(v) if req.matches(v) => format!("needs {id} {req}: {id} {v} is here"),
            Some(v) => format!("needs {id} {req}: only {id} {v} is here, which does not fit"),
            None => format!("needs {id} {req}: not installed"),
        });
    }
    for (id, req) in &pack.manifest.optional {
        dependencies.push(format!("uses {id} {req} when it is there"));
    }
    for (id, req) in &pack.manifest.conflicts {
        dependencies.push(format!("cannot be played with {id} {req}"));
    }
    Details {
        files: files.len(),
        scripts: count(&|f| f.ends_with(".lua") && !f.starts_with("scripts/types/")),
        maps: count(&|f| {
            (f.starts_with("maps/") || f.starts_with("campaigns/")) && f.ends_with(".ron")
        }),
        place: match &pack.files {
            PackFiles::Folder(dir) => dir.display().to_string(),
            PackFiles::Embedded { .. } => "built in".to_string(),
            PackFiles::Memory { .. } => "in memory".to_string(),
        },
        readme,
        dependencies,
    }
}

/// The first map of a pack on disk (its modes' boards first), to open in the Map mode.
fn first_map_file(pack: &Pack) -> Option<PathBuf> {
    let root = pack.files.folder()?;
    let files = pack.files.all_files().ok()?;
    let mode_map = pack
        .manifest
        .modes
        .iter()
        .map(|m| m.map.clone())
        .find(|m| !m.is_empty() && !m.contains(':'));
    let path = mode_map.or_else(|| {
        files.into_iter().find(|f| {
            (f.starts_with("maps/") || f.starts_with("campaigns/")) && f.ends_with(".ron")
        })
    })?;
    Some(root.join(path))
}
