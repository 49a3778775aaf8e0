//! Scripts: the map's Lua scripts, opened in the system's editor, loaded into a scripting
//! host on demand (or when a file is saved: the runtime's notify watcher wakes the window) to
//! show their errors, the token kinds and win
//! conditions they define, and a console of what they printed.

use crate::document::Document;
use scryptic::script::watch::Watcher;
use scryptic::script::{ScriptHost, ScriptLimits};
use std::path::{Path, PathBuf};

/// The scripts panel's state.
#[derive(Default)]
pub struct ScriptsPanel {
    /// The console: what scripts printed, their errors, and reload notices.
    pub console: Vec<String>,
    /// The token kinds the scripts define (the token tool offers them).
    pub token_kinds: Vec<String>,
    /// The win conditions they define.
    pub win_conditions: Vec<String>,
    /// How many times the scripts were loaded.
    pub generation: u64,
    /// A script path to add to the map.
    pub new_script: String,
    /// The command that opens a script (`None`: `$VISUAL`, else `$EDITOR`, else the
    /// desktop's handler).
    pub editor_command: Option<String>,
    /// The script shown in the built-in view: its path and its text (or why it cannot be
    /// read).
    pub viewing: Option<(PathBuf, String)>,
    /// The script files as they were at the last load, and the watcher on them (none when
    /// the system cannot watch: the panel's Reload button still works).
    watched: Vec<PathBuf>,
    watcher: Option<Watcher>,
    /// Woken when a watched script is saved (the window's context, once it has one).
    repaint: Option<egui::Context>,
}

fn map_dir(doc: &Document) -> PathBuf {
    doc.path
        .as_ref()
        .and_then(|p| p.parent())
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
}

impl ScriptsPanel {
    /// Loads the map's scripts into a fresh host (with the standard elementals) and records
    /// what they define and every error.
    pub fn reload(&mut self, doc: &Document) {
        self.generation += 1;
        self.watch(ScriptsPanel::script_files(doc));
        let mut host = match ScriptHost::with_standard_tokens(ScriptLimits::default(), 0) {
            Ok(host) => host,
            Err(e) => {
                self.console.push(format!("error: {e}"));
                return;
            }
        };
        // The scripts as a game of the map would load them (inside a pack, its paths).
        let level = scryptic::pack::Level::from_map(
            doc.map.clone(),
            doc.path.as_deref(),
            None,
            &crate::catalog(),
        );
        let (scripts, mut errors) = match level {
            Ok(level) => (level.scripts, level.unreadable),
            Err(e) => (Vec::new(), vec![e.to_string()]),
        };
        let mut loaded = 0;
        for script in &scripts {
            match host.load(&script.name, &script.source) {
                Ok(()) => loaded += 1,
                Err(e) => errors.push(e.to_string()),
            }
        }
        self.console.push(format!(
            "-- load {}: {} loaded, {}",
            self.generation,
            scryptic::diag::counted(loaded, "script"),
            scryptic::diag::counted(errors.len(), "error")
        ));
        for e in errors {
            self.console.push(format!("error: {e}"));
        }
        for line in host.drain_console() {
            self.console.push(line.to_string());
        }
        self.token_kinds = host
            .token_kinds()
            .into_iter()
            .filter(|k| !scryptic::board::STANDARD_TOKEN_KINDS.contains(&k.as_str()))
            .collect();
        self.win_conditions = host.win_conditions();
    }

    /// Wakes `ctx` whenever a script of the map is saved.
    pub fn repaint_with(&mut self, ctx: &egui::Context) {
        self.repaint = Some(ctx.clone());
        // The watcher made before the window had a context wakes nothing: make it again.
        let files = std::mem::take(&mut self.watched);
        self.watcher = None;
        self.watch(files);
    }

    /// How many of the system's file events in the scripts' folders the watcher has dealt
    /// with (`None`: nothing is watched). Only those that may change a script wake the window.
    pub fn watcher_events(&self) -> Option<u64> {
        self.watcher.as_ref().map(Watcher::events_handled)
    }

    /// The map's script files, where a game of it would read them.
    fn script_files(doc: &Document) -> Vec<PathBuf> {
        let dir = map_dir(doc);
        doc.map.scripts.iter().map(|s| dir.join(s)).collect()
    }

    /// Watches `files` (again, if they are not the ones watched).
    fn watch(&mut self, files: Vec<PathBuf>) {
        if files == self.watched && self.watcher.is_some() {
            return;
        }
        let repaint = self.repaint.clone();
        let wake = move || {
            if let Some(ctx) = &repaint {
                ctx.request_repaint();
            }
        };
        self.watcher = if files.is_empty() {
            None
        } else {
            Watcher::waking(&files, wake).ok()
        };
        self.watched = files;
    }

    /// Reloads when a script file was saved since the last load (in another editor), or the
    /// map names other scripts than were loaded; answers whether it did. Nothing is read
    /// from disk unless the watcher reported a change.
    pub fn reload_if_changed(&mut self, doc: &Document) -> bool {
        let same_files = self.generation > 0 && ScriptsPanel::script_files(doc) == self.watched;
        let saved = self
            .watcher
            .as_ref()
            .is_some_and(|w| !w.changed().is_empty());
        if same_files && !saved {
            return false;
        }
        self.reload(doc);
        true
    }

    /// The panel.
    pub fn ui(&mut self, ui: &mut egui::Ui, doc: &mut Document) {
        egui::CentralPanel::default_margins().show(ui, |ui| {
            ui.heading("Scripts");
            let dir = map_dir(doc);
            let mut remove = None;
            for (i, script) in doc.map.scripts.iter().enumerate() {
                ui.horizontal(|ui| {
                    ui.monospace(script);
                    if ui.button("Open in editor").clicked() {
                        self.open_outside(&dir.join(script));
                    }
                    if ui.button("View here").clicked() {
                        self.view_here(&dir.join(script));
                    }
                    if ui.button("Remove from map").clicked() {
                        remove = Some(i);
                    }
                });
            }
            if let Some(i) = remove {
                doc.edit_objects("remove script", |m| {
                    m.scripts.remove(i);
                });
            }
            ui.horizontal(|ui| {
                let label = ui.label("script");
                ui.add(
                    egui::TextEdit::singleline(&mut self.new_script)
                        .hint_text("path relative to the map"),
                )
                .labelled_by(label.id);
                if ui.button("Add script").clicked() && !self.new_script.trim().is_empty() {
                    let script = std::mem::take(&mut self.new_script).trim().to_string();
                    doc.edit_objects("add script", |m| m.scripts.push(script));
                }
            });
            if ui.button("Reload scripts").clicked() {
                self.reload(doc);
            }
            ui.label(format!(
                "load {}; token kinds: {}; win conditions: {}",
                self.generation,
                if self.token_kinds.is_empty() {
                    "-".into()
                } else {
                    self.token_kinds.join(", ")
                },
                if self.win_conditions.is_empty() {
                    "-".into()
                } else {
                    self.win_conditions.join(", ")
                },
            ));
            self.viewer_ui(ui);
            ui.separator();
            ui.label("Console");
            egui::ScrollArea::vertical()
                .stick_to_bottom(true)
                .show(ui, |ui| {
                    for line in &self.console {
                        ui.monospace(line);
                    }
                });
        });
    }
}

impl ScriptsPanel {
    /// Opens the script in the system's editor; when none can be started, says so with the
    /// path and shows the script in the built-in view instead.
    fn open_outside(&mut self, path: &Path) {
        match open_in_system_editor(path, self.editor_command.as_deref()) {
            Ok(how) => self
                .console
                .push(format!("opened {} with {how}", path.display())),
            Err((command, e)) => {
                self.console.push(format!(
                    "error: no external editor could be started for {} (`{command}`: {e}); set \
                     $VISUAL or $EDITOR to your editor. It is shown below meanwhile.",
                    path.display()
                ));
                self.view_here(path);
            }
        }
    }

    /// Shows the script in the built-in view.
    fn view_here(&mut self, path: &Path) {
        let text =
            scryptic::fsutil::read_text_at_most(path, scryptic::limits::MAX_SCRIPT_BYTES as u64)
                .unwrap_or_else(|e| format!("-- cannot read it: {e}"));
        self.viewing = Some((path.to_path_buf(), text));
    }

    /// The built-in view of a script: its path and text, read only.
    fn viewer_ui(&mut self, ui: &mut egui::Ui) {
        let Some((path, text)) = &self.viewing else {
            return;
        };
        ui.separator();
        let mut close = false;
        ui.horizontal(|ui| {
            ui.strong(path.display().to_string());
            close = ui.button("Close the view").clicked();
        });
        egui::ScrollArea::vertical()
            .id_salt("script view")
            .max_height(240.0)
            .show(ui, |ui| {
                ui.add(egui::Label::new(egui::RichText::new(text.as_str()).monospace()).wrap());
            });
        if close {
            self.viewing = None;
        }
    }
}

/// Opens `path` with `command`, else `$VISUAL`, else `$EDITOR`, else the desktop's handler
/// (`xdg-open`, `open`, `explorer`); answers which, or the command and why it could not start.
pub fn open_in_system_editor(
    path: &Path,
    command: Option<&str>,
) -> Result<String, (String, std::io::Error)> {
    let command = command
        .map(str::to_string)
        .ok_or(())
        .or_else(|()| std::env::var("VISUAL"))
        .or_else(|_| std::env::var("EDITOR"))
        .unwrap_or_else(|_| {
            if cfg!(target_os = "macos") {
                "open".into()
            } else if cfg!(windows) {
                "explorer".into()
            } else {
                "xdg-open".into()
            }
        });
    match std::process::Command::new(&command).arg(path).spawn() {
        Ok(_) => Ok(command),
        Err(e) => Err((command, e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use scryptic::Map;

    #[test]
    fn scripts_load_show_their_kinds_and_errors_and_reload_when_saved() {
        let dir = tempfile::tempdir().unwrap();
        let script = dir.path().join("quake.lua");
        std::fs::write(
            &script,
            "print('hello')\nscryptic.token { id = 'quake', name = 'Earthquake', color = '#8e6b3a',\n  invoke = function(game, token) return {} end }\n",
        )
        .unwrap();
        let mut map = Map::new("t", 8, 8);
        map.scripts.push("quake.lua".into());
        let mut doc = Document::new(map);
        doc.save_as(&dir.path().join("m.ron")).unwrap();
        let mut panel = ScriptsPanel::default();
        assert!(panel.reload_if_changed(&doc), "the first look loads");
        assert_eq!(panel.token_kinds, vec!["quake".to_string()]);
        assert!(
            panel.console.iter().any(|l| l.contains("hello")),
            "{:?}",
            panel.console
        );
        assert!(!panel.reload_if_changed(&doc), "nothing changed on disk");
        // Saved in another editor with a syntax error: the watcher reports it, and wakes the
        // window that sleeps at rest.
        let ctx = egui::Context::default();
        let woken = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let flag = woken.clone();
        ctx.set_request_repaint_callback(move |_| {
            flag.store(true, std::sync::atomic::Ordering::SeqCst);
        });
        panel.repaint_with(&ctx);
        assert!(
            !panel.reload_if_changed(&doc),
            "the watcher is made again, nothing read"
        );
        std::fs::write(&script, "scryptic.token {\n").unwrap();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
        while !panel.reload_if_changed(&doc) {
            assert!(
                std::time::Instant::now() < deadline,
                "the save was never seen"
            );
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        assert!(woken.load(std::sync::atomic::Ordering::SeqCst));
        assert_eq!(panel.generation, 2);
        assert!(panel.token_kinds.is_empty());
        assert!(
            panel
                .console
                .iter()
                .any(|l| l.starts_with("error:") && l.contains("quake.lua")),
            "{:?}",
            panel.console
        );
    }
}
