//! The Packs screen's Browse: the packs of the player's pack indexes (`pack source` in the
//! terminal, the same list), searched as they type, each with its thumbnail, description,
//! releases and whether it is installed, outdated or needs another scripting API; Install and
//! Update run on a thread of their own with a progress bar, exactly as `scryptic pack install`
//! does (dependencies first, every download capped and hashed, signatures checked against the
//! keys pinned). The window never waits for the network.

use scryptic::client::indexes;
use scryptic::pack::index::{self, Index, IndexedPack, Planned};
use semver::VersionReq;
use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::Receiver;

/// An install or update under way on its thread.
struct Job {
    /// What it does, in words.
    what: String,
    /// Bytes downloaded of the release under way, and its size.
    done: Arc<AtomicU64>,
    total: Arc<AtomicU64>,
    /// The lines it reports, then its end.
    answer: Receiver<Result<Vec<String>, String>>,
}

/// The indexes read: each with its address, and the problems of those not read.
type Read = (Vec<(String, Index)>, Vec<String>);

/// Browse's state.
#[derive(Default)]
pub struct Browse {
    /// An index address or folder to add.
    pub new_source: String,
    /// Words to find packs by.
    pub search: String,
    /// The indexes read last, with their addresses.
    pub indexes: Vec<(String, Index)>,
    /// The pack shown in detail.
    pub selected: Option<String>,
    /// What was done, or why not.
    pub message: Option<String>,
    loading: Option<Receiver<Read>>,
    job: Option<Job>,
    /// Thumbnails by address: loaded, or failed (none).
    thumbnails: BTreeMap<String, Option<egui::TextureHandle>>,
    thumbnail_loading: Option<(String, Receiver<Option<Vec<u8>>>)>,
    /// Whether the indexes were read since the screen was first shown.
    read_once: bool,
}

impl Browse {
    /// Browse's area.
    pub fn ui(&mut self, ui: &mut egui::Ui) {
        if !self.read_once {
            self.read_once = true;
            self.reload(ui.ctx());
        }
        self.collect(ui.ctx());
        egui::Panel::left("browse list")
            .default_size(340.0)
            .show(ui, |ui| self.list_ui(ui));
        egui::CentralPanel::default_margins().show(ui, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                self.job_ui(ui);
                self.details_ui(ui);
                if let Some(message) = &self.message {
                    ui.separator();
                    ui.label(message);
                }
            });
        });
    }

    /// Whether an install or update runs.
    pub fn busy(&self) -> bool {
        self.job.is_some()
    }

    /// Whether the indexes are being read.
    pub fn reading(&self) -> bool {
        self.loading.is_some()
    }

    /// Reads every index of the player's list again, on a thread.
    pub fn reload(&mut self, ctx: &egui::Context) {
        let Some(data) = scryptic::pack::places::data_dir() else {
            self.message = Some("no data folder for the list of indexes: set SCRYPTIC_DATA".into());
            return;
        };
        let (sender, receiver) = std::sync::mpsc::channel();
        let ctx = ctx.clone();
        std::thread::spawn(move || {
            let mut read = (Vec::new(), Vec::new());
            for source in indexes::sources(&data) {
                match indexes::read_index(&source) {
                    Ok(index) => read.0.push((source, index)),
                    Err(e) => read.1.push(e),
                }
            }
            let _ = sender.send(read);
            ctx.request_repaint();
        });
        self.loading = Some(receiver);
    }

    /// Takes what the threads answered.
    fn collect(&mut self, ctx: &egui::Context) {
        if let Some(receiver) = &self.loading
            && let Ok((read, problems)) = receiver.try_recv()
        {
            self.loading = None;
            self.indexes = read;
            if !problems.is_empty() {
                self.message = Some(problems.join("\n"));
            }
        }
        if let Some(job) = &self.job {
            match job.answer.try_recv() {
                Ok(answer) => {
                    self.job = None;
                    self.message = Some(match answer {
                        Ok(lines) => lines.join("\n"),
                        Err(e) => e,
                    });
                    // The packs found now include what was installed.
                    let problems = crate::refresh_catalog();
                    if !problems.is_empty() {
                        self.message = Some(problems.join("\n"));
                    }
                }
                Err(_) => ctx.request_repaint_after(std::time::Duration::from_millis(100)),
            }
        }
        if let Some((address, receiver)) = &self.thumbnail_loading
            && let Ok(bytes) = receiver.try_recv()
        {
            let texture = bytes
                .and_then(|b| crate::png::decode_for_ui(&b))
                .map(|image| {
                    ctx.load_texture(address.clone(), image, egui::TextureOptions::LINEAR)
                });
            self.thumbnails.insert(address.clone(), texture);
            self.thumbnail_loading = None;
        }
    }

    fn list_ui(&mut self, ui: &mut egui::Ui) {
        ui.heading("Pack indexes");
        self.sources_ui(ui);
        ui.separator();
        ui.horizontal(|ui| {
            let label = ui.label("Search");
            ui.add(egui::TextEdit::singleline(&mut self.search).desired_width(200.0))
                .labelled_by(label.id);
        });
        if self.loading.is_some() {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label("reading the indexes");
            });
        }
        let words: Vec<String> = self.search.split_whitespace().map(str::to_string).collect();
        let catalog = crate::catalog();
        let mut rows = Vec::new();
        for (_, index) in &self.indexes {
            for pack in index.search(&words) {
                let installed = catalog.get(&pack.id).map(|p| p.manifest.version.clone());
                rows.push((
                    pack.id.clone(),
                    pack.title.clone(),
                    status(pack, installed.as_ref()),
                ));
            }
        }
        drop(catalog);
        if rows.is_empty() && self.loading.is_none() {
            ui.label("No pack: add an index above, or search for other words.");
        }
        egui::ScrollArea::vertical().show(ui, |ui| {
            for (id, title, status) in rows {
                let chosen = self.selected.as_deref() == Some(id.as_str());
                if ui
                    .selectable_label(chosen, format!("{title} ({id})\n    {status}"))
                    .clicked()
                {
                    self.selected = Some(id);
                }
            }
        });
    }

    fn sources_ui(&mut self, ui: &mut egui::Ui) {
        let data = scryptic::pack::places::data_dir();
        let list = data.as_deref().map(indexes::sources).unwrap_or_default();
        let mut remove = None;
        for source in &list {
            ui.horizontal(|ui| {
                ui.label(source);
                if ui.small_button("Remove").clicked() {
                    remove = Some(source.clone());
                }
            });
        }
        let mut changed = false;
        if let (Some(source), Some(data)) = (remove, &data) {
            if let Err(e) = indexes::remove_source(data, &source) {
                self.message = Some(e);
            }
            changed = true;
        }
        ui.horizontal(|ui| {
            let label = ui.label("Add");
            ui.add(egui::TextEdit::singleline(&mut self.new_source).desired_width(180.0))
                .labelled_by(label.id)
                .on_hover_text("An http(s) address, or a folder holding index.json");
            if ui.button("Add index").clicked()
                && let Some(data) = &data
            {
                match indexes::add_source(data, &self.new_source) {
                    Ok(kept) => {
                        self.message = Some(format!("added {kept}"));
                        self.new_source.clear();
                        changed = true;
                    }
                    Err(e) => self.message = Some(e),
                }
            }
        });
        if ui.button("Reload").clicked() || changed {
            self.reload(ui.ctx());
        }
    }

    /// The pack `id`, from the first index listing it, with that index's address.
    fn listed(&self, id: &str) -> Option<(&String, &IndexedPack)> {
        self.indexes
            .iter()
            .find_map(|(source, index)| index.pack(id).map(|p| (source, p)))
    }

    fn details_ui(&mut self, ui: &mut egui::Ui) {
        let Some(id) = self.selected.clone() else {
            ui.label("Choose a pack on the left.");
            return;
        };
        let Some((source, pack)) = self.listed(&id).map(|(s, p)| (s.clone(), p.clone())) else {
            return;
        };
        ui.heading(&pack.title);
        if let Some(address) = &pack.thumbnail {
            self.thumbnail_ui(ui, &source, address);
        }
        ui.label(&pack.description);
        if !pack.tags.is_empty() {
            ui.weak(format!("tags: {}", pack.tags.join(", ")));
        }
        ui.weak(format!("from {source}"));
        ui.separator();
        let installed = crate::catalog()
            .get(&pack.id)
            .map(|p| p.manifest.version.clone());
        for release in &pack.releases {
            let fits = if release.fits() {
                String::new()
            } else {
                format!(" (needs scripting API {})", release.scryptic)
            };
            let signed = if release.key.is_some() {
                "signed"
            } else {
                "unsigned"
            };
            ui.label(format!(
                "{} · {} KiB · {signed}{fits}",
                release.version,
                release.size.div_ceil(1024)
            ));
        }
        let best = pack.best(&VersionReq::STAR).map(|r| r.version.clone());
        let (label, update) = match (&installed, &best) {
            (None, Some(_)) => ("Install", false),
            (Some(have), Some(best)) if best > have => ("Update", true),
            _ => ("", false),
        };
        if !label.is_empty()
            && ui
                .add_enabled(!self.busy(), egui::Button::new(label))
                .clicked()
        {
            self.install(ui.ctx(), &pack.id, update);
        }
        if let (Some(have), true) = (&installed, label.is_empty()) {
            ui.label(format!("{have} is installed"));
        }
    }

    fn thumbnail_ui(&mut self, ui: &mut egui::Ui, source: &str, address: &str) {
        let key = indexes::resolve(&indexes::index_location(source), address);
        match self.thumbnails.get(&key) {
            Some(Some(texture)) => {
                ui.add(egui::Image::new(texture).max_height(160.0));
            }
            Some(None) => {}
            None if self.thumbnail_loading.is_none() => {
                let (sender, receiver) = std::sync::mpsc::channel();
                let (source, address, ctx) =
                    (source.to_string(), address.to_string(), ui.ctx().clone());
                std::thread::spawn(move || {
                    let _ = sender.send(indexes::thumbnail(&source, &address).ok());
                    ctx.request_repaint();
                });
                self.thumbnail_loading = Some((key, receiver));
            }
            None => {
                ui.spinner();
            }
        }
    }

    /// Installs (or updates) pack `id` with its dependencies, on a thread.
    pub fn install(&mut self, ctx: &egui::Context, id: &str, update: bool) {
        let (Some(data), Some(packs_dir)) = (
            scryptic::pack::places::data_dir(),
            scryptic::pack::places::installed_dir(),
        ) else {
            self.message = Some("no data folder to install packs in: set SCRYPTIC_DATA".into());
            return;
        };
        let wanted = [(id.to_string(), VersionReq::STAR)];
        let plan = match index::plan(&self.indexes, &wanted, &crate::catalog(), update) {
            Ok(plan) => plan,
            Err(e) => return self.message = Some(e.to_string()),
        };
        if plan.is_empty() {
            self.message = Some(format!(
                "nothing to do: {id} is installed, and the packs that need it accept no newer release"
            ));
            return;
        }
        let (done, total) = (Arc::new(AtomicU64::new(0)), Arc::new(AtomicU64::new(0)));
        let (sender, answer) = std::sync::mpsc::channel();
        let what = plan_words(&plan);
        let (job_done, job_total, ctx) = (done.clone(), total.clone(), ctx.clone());
        std::thread::spawn(move || {
            let result = install_all(&plan, &packs_dir, &data, &job_done, &job_total, &ctx);
            let _ = sender.send(result);
            ctx.request_repaint();
        });
        self.job = Some(Job {
            what,
            done,
            total,
            answer,
        });
    }

    fn job_ui(&self, ui: &mut egui::Ui) {
        let Some(job) = &self.job else {
            return;
        };
        ui.label(&job.what);
        let (done, total) = (
            job.done.load(Ordering::Relaxed),
            job.total.load(Ordering::Relaxed),
        );
        let fraction = if total == 0 {
            0.0
        } else {
            done as f32 / total as f32
        };
        ui.add(egui::ProgressBar::new(fraction).show_percentage());
        ui.separator();
    }
}

/// A pack's state in words: installed, outdated, not installed, or needing another API.
fn status(pack: &IndexedPack, installed: Option<&semver::Version>) -> String {
    let best = pack.best(&VersionReq::STAR).map(|r| r.version.clone());
    match (installed, best) {
        (Some(have), Some(best)) if best > *have => format!("{have} installed, {best} out"),
        (Some(have), _) => format!("{have} installed"),
        (None, Some(best)) => format!("{best}, not installed"),
        (None, None) => pack.newest().map_or_else(String::new, |r| {
            format!("{} needs scripting API {}", r.version, r.scryptic)
        }),
    }
}

/// The plan in words: each release, then the total to download.
fn plan_words(plan: &[Planned]) -> String {
    let each: Vec<String> = plan
        .iter()
        .map(|p| format!("{} {}", p.id, p.release.version))
        .collect();
    let total: u64 = plan.iter().map(|p| p.release.size).sum();
    format!(
        "installing {} ({} KiB in all)",
        each.join(", "),
        total.div_ceil(1024)
    )
}

/// Installs every release of `plan` in order, telling the progress; the lines to show.
fn install_all(
    plan: &[Planned],
    packs_dir: &std::path::Path,
    data: &std::path::Path,
    done: &AtomicU64,
    total: &AtomicU64,
    ctx: &egui::Context,
) -> Result<Vec<String>, String> {
    let mut lines = Vec::new();
    for planned in plan {
        total.store(planned.release.size, Ordering::Relaxed);
        done.store(0, Ordering::Relaxed);
        let installed = indexes::install_release(planned, packs_dir, data, &mut |d, _| {
            done.store(d, Ordering::Relaxed);
            ctx.request_repaint();
        })
        .map_err(|e| {
            format!(
                "{e}\nstopped: {} was not installed (what was installed before it stays)",
                planned.id
            )
        })?;
        lines.push(match &installed.replaced {
            Some(old) => format!("installed {} (replacing {old})", installed.name),
            None => format!("installed {}", installed.name),
        });
        if let Some(key) = installed.pinned {
            lines.push(format!("trusting key {key} for {} from now on", planned.id));
        }
        if installed.unsigned {
            lines.push(format!(
                "warning: {} is not signed: nothing says who made it (it runs in the sandbox, as every pack does)",
                installed.name
            ));
        }
    }
    Ok(lines)
}
