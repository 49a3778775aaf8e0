//! The one prompt for a file's path, shared by every dialog that reads or writes a file (open
//! a map, save it as, import and export PNGs, save and load a game): a path to type, a
//! Browse button for a window that walks the folders (egui_file), the recent files to pick
//! from, and a question before an existing file is replaced.

use egui::Key;
use std::path::{Path, PathBuf};

/// Whether the prompt's file is read or written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// An existing file is read (open, import, load).
    Read,
    /// A file is written, replacing one that exists only when the user agrees.
    Write,
    /// An existing folder is read (a pack folder); the browser lists folders.
    Folder,
}

/// What the user did with the prompt this frame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Nothing decided yet: show the prompt again next frame.
    Waiting,
    /// This file was chosen (and, for writing, may be replaced).
    Chosen(PathBuf),
    /// The prompt was closed without a file.
    Cancelled,
}

/// The folder browser's size when it opens, in points.
const BROWSER_SIZE: egui::Vec2 = egui::vec2(560.0, 440.0);

/// The folder browser while it is open. egui_file's dialog is neither cloned nor compared,
/// so two prompts are equal whatever their browsers show.
struct Browser(Box<egui_file::FileDialog>);

impl std::fmt::Debug for Browser {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Browser({})", self.0.directory().display())
    }
}

/// A prompt for one file's path.
#[derive(Debug)]
pub struct FilePrompt {
    /// The heading, saying what the file is for.
    pub title: String,
    /// The button that accepts the path ("Open", "Save", ...).
    pub action: String,
    /// Whether the file is read or written.
    pub access: Access,
    /// The path as typed or browsed to.
    pub path: String,
    /// The path field's label ("path" unless set).
    field: &'static str,
    /// The file name ending the browser lists (`None`: every file).
    extension: Option<&'static str>,
    /// Recent files offered to pick, of the prompt's kind and still there when it opened.
    recent: Vec<PathBuf>,
    /// The chosen file exists and the prompt asks whether to replace it.
    replacing: bool,
    browser: Option<Browser>,
}

impl PartialEq for FilePrompt {
    fn eq(&self, other: &FilePrompt) -> bool {
        (
            &self.title,
            &self.action,
            self.access,
            &self.path,
            self.replacing,
        ) == (
            &other.title,
            &other.action,
            other.access,
            &other.path,
            other.replacing,
        )
    }
}

impl FilePrompt {
    /// A prompt headed `title`, whose `action` button accepts the path, starting at `path`.
    pub fn new(title: &str, action: &str, access: Access, path: impl Into<String>) -> FilePrompt {
        FilePrompt {
            title: title.to_string(),
            action: action.to_string(),
            access,
            path: path.into(),
            field: "path",
            extension: None,
            recent: Vec::new(),
            replacing: false,
            browser: None,
        }
    }

    /// Lists only files ending in `.{extension}` (and folders) in the browser.
    pub fn extension(mut self, extension: &'static str) -> FilePrompt {
        self.extension = Some(extension);
        self
    }

    /// Offers those of `recent` that are of the prompt's kind (its extension, once set) and
    /// still exist: looked at once, when the prompt opens, not at every frame.
    pub fn recent(mut self, recent: &[PathBuf]) -> FilePrompt {
        self.recent = recent.iter().filter(|p| self.lists(p)).cloned().collect();
        self
    }

    /// Labels the path field `field` (what the file is, as the user calls it).
    pub fn field_label(mut self, field: &'static str) -> FilePrompt {
        self.field = field;
        self
    }

    /// Whether the prompt is asking to replace an existing file.
    pub fn is_replacing(&self) -> bool {
        self.replacing
    }

    /// Whether the folder browser is open.
    pub fn is_browsing(&self) -> bool {
        self.browser.is_some()
    }

    /// Shows the prompt (a modal window) or, while browsing, the folder browser.
    pub fn show(&mut self, ctx: &egui::Context) -> Answer {
        if self.browser.is_some() {
            return self.browse(ctx);
        }
        egui::Modal::new(egui::Id::unique(("file prompt", &self.title)))
            .show(ctx, |ui| self.ui(ui))
            .inner
    }

    /// The prompt's contents in `ui` (for a caller that draws its own window).
    pub fn ui(&mut self, ui: &mut egui::Ui) -> Answer {
        if self.replacing {
            return self.replace_question(ui);
        }
        ui.heading(&self.title);
        let label = ui.label(self.field);
        let edit = ui
            .add(egui::TextEdit::singleline(&mut self.path).desired_width(420.0))
            .labelled_by(label.id);
        if !edit.has_focus() && !ui.ctx().egui_wants_keyboard_input() {
            edit.request_focus();
        }
        // Enter in the field accepts the path (whether egui has yet taken the field's focus
        // away for it or not).
        let typing = edit.has_focus() || edit.lost_focus();
        let enter = typing && ui.input(|i| i.key_pressed(Key::Enter));
        if ui.button("Browse...").clicked() {
            self.open_browser(ui.ctx().content_rect().center());
        }
        let mut answer = Answer::Waiting;
        if self.access != Access::Write {
            answer = self.recent_list(ui);
        }
        let (ok, cancel) = ui
            .horizontal(|ui| {
                (
                    ui.button(self.action.as_str()).clicked(),
                    ui.button("Cancel").clicked(),
                )
            })
            .inner;
        if cancel || ui.input(|i| i.key_pressed(Key::Escape)) {
            return Answer::Cancelled;
        }
        if ok || enter {
            answer = self.choose();
        }
        answer
    }

    /// Recent files of the prompt's kind, each a button that chooses it.
    fn recent_list(&mut self, ui: &mut egui::Ui) -> Answer {
        if self.recent.is_empty() {
            return Answer::Waiting;
        }
        ui.label("Recent");
        let mut picked = None;
        for path in &self.recent {
            if ui.button(path.display().to_string()).clicked() {
                picked = Some(path.display().to_string());
            }
        }
        match picked {
            Some(path) => {
                self.path = path;
                self.choose()
            }
            None => Answer::Waiting,
        }
    }

    /// Whether a recent file is offered: of the prompt's kind, and still there.
    fn lists(&self, path: &Path) -> bool {
        if self.access == Access::Folder {
            return path.is_dir();
        }
        self.extension
            .is_none_or(|ext| path.extension().is_some_and(|e| e == ext))
            && path.is_file()
    }

    /// The typed path accepted: chosen, or (when writing over a file that exists) asked about.
    fn choose(&mut self) -> Answer {
        let path = PathBuf::from(self.path.trim());
        if path.as_os_str().is_empty() {
            return Answer::Waiting;
        }
        if self.access == Access::Write && path.is_file() {
            self.replacing = true;
            return Answer::Waiting;
        }
        Answer::Chosen(path)
    }

    fn replace_question(&mut self, ui: &mut egui::Ui) -> Answer {
        let path = PathBuf::from(self.path.trim());
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        ui.heading(format!("Replace {name}?"));
        ui.label(format!(
            "{} exists. Replacing it loses what it holds now.",
            path.display()
        ));
        let (replace, back) = ui
            .horizontal(|ui| (ui.button("Replace").clicked(), ui.button("Back").clicked()))
            .inner;
        if replace {
            return Answer::Chosen(path);
        }
        if back || ui.input(|i| i.key_pressed(Key::Escape)) {
            self.replacing = false;
        }
        Answer::Waiting
    }

    /// The prompt opened straight on its folder browser (Browse... beside a field of its own:
    /// a prompt with a Browse... of its own in between was one window too many).
    pub fn browsing(mut self, centre: egui::Pos2) -> FilePrompt {
        self.open_browser(centre);
        self
    }

    /// Opens the folder browser where the typed path points, in the middle of the window
    /// (around `centre`), where the prompt was.
    fn open_browser(&mut self, centre: egui::Pos2) {
        let typed = PathBuf::from(self.path.trim());
        let (folder, name) = if typed.is_dir() {
            (typed, None)
        } else {
            let folder = typed.parent().filter(|p| p.is_dir()).map(Path::to_path_buf);
            (
                folder.unwrap_or_else(|| PathBuf::from(".")),
                typed.file_name().map(|n| n.to_string_lossy().into_owned()),
            )
        };
        // A file to read is picked in egui_file's save dialog under an Open button: its open
        // dialog takes a name typed into its field for Open, then does nothing with it
        // (only a file clicked in the list opens); its save dialog takes the typed name (a
        // name of no file is then refused by what reads it, as a typed path is).
        let mut dialog = match self.access {
            Access::Read => egui_file::FileDialog::save_file()
                .save_button_text("Open".into())
                .show_new_folder(false),
            Access::Write => egui_file::FileDialog::save_file(),
            Access::Folder => egui_file::FileDialog::select_folder(),
        }
        .title(&self.title)
        .initial_path(folder)
        .show_rename(false)
        .default_size(BROWSER_SIZE)
        .default_pos(centre - BROWSER_SIZE / 2.0)
        .keep_on_top(true);
        if let Some(name) = name {
            dialog = dialog.default_filename(name);
        }
        if let Some(ext) = self.extension {
            dialog = dialog.show_files_filter(Box::new(move |p: &Path| {
                p.extension().is_some_and(|e| e == ext)
            }));
        }
        if self.access == Access::Folder {
            // A folder is chosen: files are not listed, and no folder is made here.
            dialog = dialog
                .show_files_filter(Box::new(|p: &Path| p.is_dir()))
                .show_new_folder(false)
                .open_button_text("Choose this folder".into());
        }
        dialog.open();
        self.browser = Some(Browser(Box::new(dialog)));
    }

    /// One frame of the browser; a file picked there is chosen as if typed.
    fn browse(&mut self, ctx: &egui::Context) -> Answer {
        let Some(browser) = self.browser.as_mut() else {
            return Answer::Waiting;
        };
        match browser.0.show(ctx).state() {
            egui_file::State::Open => Answer::Waiting,
            egui_file::State::Selected => {
                if let Some(path) = browser.0.path() {
                    self.path = path.display().to_string();
                }
                self.browser = None;
                self.choose()
            }
            egui_file::State::Cancelled | egui_file::State::Closed => {
                self.browser = None;
                Answer::Waiting
            }
        }
    }
}
