//! The dialogs over the editor's window: the file prompts (open, save as, import and export
//! PNGs, all through [`FilePrompt`]), a new map's size, unsaved changes, autosave recovery,
//! the keyboard map and errors.

use crate::app::EditorApp;
use crate::file_prompt::{Access, Answer, FilePrompt};
use std::path::{Path, PathBuf};

/// What was asked for when unsaved changes stood in the way.
#[derive(Clone, Debug, PartialEq)]
pub enum Pending {
    /// Make a new map.
    New,
    /// Open a file.
    Open(PathBuf),
    /// Close the window.
    Quit,
}

/// A dialog over the window.
#[derive(Debug, PartialEq)]
pub enum Dialog {
    /// The keyboard map (F1).
    Keys,
    /// A map to open.
    Open(FilePrompt),
    /// Where to save the map.
    SaveAs(FilePrompt),
    /// A new map's name and size.
    New {
        /// The map's title.
        name: String,
        /// Columns.
        width: u32,
        /// Rows.
        height: u32,
    },
    /// A PNG to import terrain from.
    ImportPng(FilePrompt),
    /// Where to write the terrain as a PNG of a pixel a cell.
    ExportTerrainPng(FilePrompt),
    /// Where to write a picture of the map.
    ExportPng(FilePrompt),
    /// Unsaved changes would be lost by `Pending`.
    Unsaved(Pending),
    /// An autosave newer than the file was found.
    Recover(PathBuf),
    /// Something went wrong.
    Error(String),
}

impl Dialog {
    /// Asks for a map to open, starting at `path`, offering the `recent` maps.
    pub fn open_map(path: impl Into<String>, recent: &[PathBuf]) -> Dialog {
        Dialog::Open(
            FilePrompt::new("Open map", "Open", Access::Read, path)
                .extension("ron")
                .recent(recent),
        )
    }

    /// Asks where to save the map, starting at `path`.
    pub fn save_map_as(path: impl Into<String>) -> Dialog {
        Dialog::SaveAs(FilePrompt::new("Save map as", "Save", Access::Write, path).extension("ron"))
    }

    /// Asks for a PNG to import terrain from (a pixel a cell), starting at `path` (the map's
    /// folder).
    pub fn import_png(path: impl Into<String>) -> Dialog {
        Dialog::ImportPng(
            FilePrompt::new("Import terrain", "Import", Access::Read, path)
                .field_label("a PNG of a pixel a cell")
                .extension("png"),
        )
    }

    /// Asks where to export the terrain as a PNG, starting at `path`.
    pub fn export_terrain_png(path: impl Into<String>) -> Dialog {
        Dialog::ExportTerrainPng(
            FilePrompt::new("Export terrain", "Export", Access::Write, path)
                .field_label("a PNG of a pixel a cell (Import terrain reads it back)")
                .extension("png"),
        )
    }

    /// Asks where to export a picture of the map, starting at `path`.
    pub fn export_png(path: impl Into<String>) -> Dialog {
        Dialog::ExportPng(
            FilePrompt::new("Export PNG", "Export", Access::Write, path).extension("png"),
        )
    }

    /// The file prompt, for the dialogs that are one.
    pub fn prompt_mut(&mut self) -> Option<&mut FilePrompt> {
        match self {
            Dialog::Open(p)
            | Dialog::SaveAs(p)
            | Dialog::ImportPng(p)
            | Dialog::ExportTerrainPng(p)
            | Dialog::ExportPng(p) => Some(p),
            _ => None,
        }
    }
}

impl EditorApp {
    /// Shows the dialog, if any, and does what was answered.
    pub(crate) fn dialog_ui(&mut self, ctx: &egui::Context) {
        let Some(mut dialog) = self.dialog.take() else {
            return;
        };
        let next = match dialog.prompt_mut() {
            Some(prompt) => match prompt.show(ctx) {
                Answer::Waiting => Some(dialog),
                Answer::Cancelled => None,
                Answer::Chosen(path) => self.file_chosen(&dialog, &path),
            },
            None => {
                let mut next = None;
                egui::Modal::new(egui::Id::unique("dialog")).show(ctx, |ui| {
                    next = self.dialog_contents(ui, dialog);
                });
                next
            }
        };
        // What was done may itself have asked something (unsaved changes before opening).
        self.dialog = self.dialog.take().or(next);
    }

    /// Does what a file prompt was for with the file chosen; answers the dialog to show next.
    fn file_chosen(&mut self, dialog: &Dialog, path: &Path) -> Option<Dialog> {
        match dialog {
            Dialog::Open(_) => {
                self.request(Pending::Open(path.to_path_buf()));
                None
            }
            Dialog::SaveAs(_) => {
                self.save_as(path);
                None
            }
            Dialog::ImportPng(_) => self.import_png(path).err().map(Dialog::Error),
            Dialog::ExportTerrainPng(_) => {
                let done = crate::png::export_terrain(&self.doc.map, path);
                self.exported(done, "the terrain", path)
            }
            Dialog::ExportPng(_) => {
                let tileset = crate::app::tileset_of(&self.doc);
                let done = crate::png::export(&self.doc.map, tileset.as_ref(), path);
                self.exported(done, "the map", path)
            }
            _ => None,
        }
    }

    fn exported(&mut self, done: Result<(), String>, what: &str, path: &Path) -> Option<Dialog> {
        match done {
            Ok(()) => {
                self.status = format!("exported {what} to {}", path.display());
                None
            }
            Err(e) => Some(Dialog::Error(e)),
        }
    }

    /// One dialog's contents; answers the dialog to show next (`None` closes it).
    fn dialog_contents(&mut self, ui: &mut egui::Ui, dialog: Dialog) -> Option<Dialog> {
        match dialog {
            Dialog::New {
                name,
                width,
                height,
            } => self.new_map_prompt(ui, name, width, height),
            Dialog::Unsaved(pending) => self.unsaved_prompt(ui, pending),
            Dialog::Recover(path) => self.recover_prompt(ui, path),
            Dialog::Keys => {
                ui.heading("Keyboard map");
                crate::keys::KeyboardMap.ui(ui);
                (!ui.button("Close").clicked()).then_some(Dialog::Keys)
            }
            Dialog::Error(message) => {
                ui.heading("Error");
                ui.monospace(&message);
                (!ui.button("OK").clicked()).then_some(Dialog::Error(message))
            }
            prompt => Some(prompt),
        }
    }

    fn new_map_prompt(
        &mut self,
        ui: &mut egui::Ui,
        mut name: String,
        mut width: u32,
        mut height: u32,
    ) -> Option<Dialog> {
        ui.heading("New map");
        ui.horizontal(|ui| {
            let label = ui.label("name");
            ui.text_edit_singleline(&mut name).labelled_by(label.id);
        });
        ui.add(egui::Slider::new(&mut width, 4..=512).text("width"));
        ui.add(egui::Slider::new(&mut height, 4..=512).text("height"));
        let (ok, cancel) = ui
            .horizontal(|ui| (ui.button("Create").clicked(), ui.button("Cancel").clicked()))
            .inner;
        if ok {
            self.new_map(&name, width, height);
            return None;
        }
        (!cancel).then_some(Dialog::New {
            name,
            width,
            height,
        })
    }

    fn unsaved_prompt(&mut self, ui: &mut egui::Ui, pending: Pending) -> Option<Dialog> {
        ui.heading("Unsaved changes");
        ui.label(format!(
            "{} has changes that are not saved.",
            self.doc.title()
        ));
        let mut next = Some(Dialog::Unsaved(pending.clone()));
        ui.horizontal(|ui| {
            if ui.button("Save").clicked() {
                self.save();
                next = self.dialog.take();
                if next.is_none() && !self.doc.is_dirty() {
                    self.carry_out(pending.clone());
                    next = self.dialog.take();
                }
            }
            if ui.button("Discard changes").clicked() {
                self.doc.discard_recovery();
                self.carry_out(pending.clone());
                next = self.dialog.take();
            }
            if ui.button("Cancel").clicked() {
                next = None;
            }
        });
        next
    }

    fn import_png(&mut self, path: &Path) -> Result<(), String> {
        let max = self
            .doc
            .map
            .rule_set()
            .map_or(4096, |r| r.board.max_side.max(1) as u32);
        let terrain = crate::png::import(path, &crate::png::terrain_palette(), max)?;
        self.doc
            .edit_all("import PNG", |map| crate::png::apply_import(map, terrain));
        self.map_mode.view.fit_pending = true;
        self.status = format!("imported terrain from {}", path.display());
        Ok(())
    }

    /// The recovery dialog: what the autosave changes, then recover it, keep both (the
    /// autosave as a file of its own beside the map), or discard it. Nothing is deleted until
    /// the user says so.
    fn recover_prompt(&mut self, ui: &mut egui::Ui, path: PathBuf) -> Option<Dialog> {
        ui.heading("Recover unsaved changes?");
        ui.label(format!(
            "An autosave newer than the map was found: {}",
            path.display()
        ));
        match self.doc.compare_recovery(&path) {
            Ok(lines) => {
                ui.label("Compared with the map as it is open, the autosave has:");
                for line in lines {
                    ui.label(format!("  {line}"));
                }
            }
            Err(e) => {
                ui.colored_label(ui.visuals().error_fg_color, e);
            }
        }
        let mut next = Some(Dialog::Recover(path.clone()));
        ui.horizontal(|ui| {
            if ui.button("Recover").clicked() {
                next = self.doc.recover().err().map(Dialog::Error);
            }
            if ui.button("Keep both").clicked() {
                next = match self.doc.keep_recovery_beside() {
                    Ok(kept) => {
                        self.status = format!("the autosave is kept as {}", kept.display());
                        None
                    }
                    Err(e) => Some(Dialog::Error(e)),
                };
            }
            if ui.button("Discard the autosave").clicked() {
                self.doc.discard_recovery();
                self.status = format!("discarded {}", path.display());
                next = None;
            }
        });
        next
    }
}
