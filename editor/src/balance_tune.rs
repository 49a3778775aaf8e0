//! Balance mode's tuning: one rule constant searched for the value that brings the first
//! player's advantage closest to even (`scryptic balance --tune`), on other threads with a
//! progress bar, then the advantage plotted against the value, each with its interval.

use crate::document::Document;
use egui_plot::{HLine, Line, Plot, Points};
use scryptic::ai::Level;
use scryptic::ai::balance::{self, TuneRange, TuneStep};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A search under way.
struct Tuning {
    /// Games finished, over every value.
    done: Arc<AtomicUsize>,
    /// The values tried so far.
    steps: Arc<Mutex<Vec<TuneStep>>>,
    /// Set when the search has ended (its outcome in `outcome`).
    finished: Arc<AtomicBool>,
    outcome: Arc<Mutex<Option<Result<(), String>>>>,
    /// Games of the whole search at most.
    total: usize,
}

/// The tuning section's state.
pub struct TunePanel {
    /// The constant searched, `section.field`.
    pub key: String,
    /// The lowest value tried.
    pub low: f64,
    /// The highest.
    pub high: f64,
    /// The most values tried.
    pub max_steps: usize,
    /// The values tried by the last search, in the order tried.
    pub steps: Vec<TuneStep>,
    /// What went wrong, or the answer.
    pub message: Option<String>,
    running: Option<Tuning>,
}

impl Default for TunePanel {
    fn default() -> TunePanel {
        TunePanel {
            key: "capture.city_capture_bonus".into(),
            low: 0.0,
            high: 60.0,
            max_steps: 6,
            steps: Vec::new(),
            message: None,
            running: None,
        }
    }
}

/// What a search plays: the AIs, games for each value and the first seed.
#[derive(Clone, Copy)]
pub struct Batch {
    /// The two AIs (they swap seats every game).
    pub levels: [Level; 2],
    /// Games for each value.
    pub games: usize,
    /// The first game's seed (every value plays the same seeds).
    pub first_seed: u64,
}

impl TunePanel {
    /// Whether a search is under way.
    pub fn is_running(&self) -> bool {
        self.running.is_some()
    }

    /// Starts searching `doc`'s map for the value of the chosen constant that evens it.
    pub fn run(&mut self, doc: &Document, batch: Batch) {
        let (setup, level) = match crate::balance::setup_of(doc, batch, 5000) {
            Ok(made) => made,
            Err(message) => {
                self.message = Some(message);
                return;
            }
        };
        let range = TuneRange {
            key: self.key.clone(),
            low: self.low.min(self.high),
            high: self.high.max(self.low),
            whole: self.low.fract() == 0.0 && self.high.fract() == 0.0,
        };
        let tuning = Tuning {
            done: Arc::default(),
            steps: Arc::default(),
            finished: Arc::default(),
            outcome: Arc::default(),
            total: batch.games * self.max_steps,
        };
        let (done, steps, finished, outcome) = (
            tuning.done.clone(),
            tuning.steps.clone(),
            tuning.finished.clone(),
            tuning.outcome.clone(),
        );
        let max_steps = self.max_steps;
        std::thread::spawn(move || {
            let result = balance::tune(
                &range,
                max_steps,
                &mut |value| {
                    let (map, rules) = balance::tuned(&setup.map, &setup.rules, &range.key, value)?;
                    let tuned = crate::balance::with_rules(&setup, &level, map, rules);
                    Ok(balance::advantage(&tuned, &|_| {
                        done.fetch_add(1, Ordering::Relaxed);
                    }))
                },
                &mut |step| lock(&steps).push(step.clone()),
            );
            *lock(&outcome) = Some(result.map(|_| ()));
            finished.store(true, Ordering::Release);
        });
        self.steps.clear();
        self.message = None;
        self.running = Some(tuning);
    }

    /// Takes the steps played so far, and the outcome once the search has ended.
    pub fn poll(&mut self) {
        let Some(tuning) = &self.running else {
            return;
        };
        self.steps = lock(&tuning.steps).clone();
        if !tuning.finished.load(Ordering::Acquire) {
            return;
        }
        let outcome = lock(&tuning.outcome).take();
        self.running = None;
        self.message = Some(match outcome {
            Some(Ok(())) => match balance::closest(&self.steps) {
                Some(best) => format!(
                    "closest to even: {} = {} ({})",
                    self.key, best.value, best.advantage
                ),
                None => "no value was played".into(),
            },
            Some(Err(e)) => e,
            None => "the search stopped without results".into(),
        });
    }

    /// Waits (up to `limit`) for the search to end; for tests.
    pub fn wait(&mut self, limit: Duration) {
        let start = std::time::Instant::now();
        while self.running.is_some() && start.elapsed() < limit {
            self.poll();
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// The section: the constant and its range, Tune (or the progress), the plot.
    pub fn ui(&mut self, ui: &mut egui::Ui, doc: &Document, batch: Batch) {
        self.poll();
        ui.separator();
        ui.heading("Tune a rule constant or a city's bonus");
        ui.label("Searches one constant, or one city's capture bonus, for the value that brings the first player's advantage closest to even, playing the games above for each value tried.");
        ui.add_enabled_ui(!self.is_running(), |ui| self.choices(ui, doc));
        match &self.running {
            Some(tuning) => {
                let done = tuning.done.load(Ordering::Relaxed);
                let fraction = done as f32 / tuning.total.max(1) as f32;
                ui.add(
                    egui::ProgressBar::new(fraction.min(1.0))
                        .text(format!("{done} games, {} values tried", self.steps.len()))
                        .desired_width(320.0),
                );
                ui.ctx().request_repaint_after(Duration::from_millis(100));
            }
            None => {
                if ui.button("Tune").clicked() {
                    self.run(doc, batch);
                }
            }
        }
        if let Some(m) = &self.message {
            ui.label(m);
        }
        if !self.steps.is_empty() {
            self.plot(ui);
        }
    }

    fn choices(&mut self, ui: &mut egui::Ui, doc: &Document) {
        ui.horizontal(|ui| {
            egui::ComboBox::from_label("Constant")
                .selected_text(&self.key)
                .height(400.0)
                .show_ui(ui, |ui| {
                    // The map's few cities first, each one's own capture bonus in place of the
                    // rule set's; then the rule set's many constants.
                    ui.weak("This map's cities");
                    for city in &doc.map.cities {
                        let key = format!("city.{}.bonus", city.id);
                        ui.selectable_value(&mut self.key, key.clone(), key)
                            .on_hover_text(format!(
                                "What capturing {} adds to the base score",
                                city.name
                            ));
                    }
                    ui.separator();
                    ui.weak("Rule constants");
                    for c in scryptic::rules::RuleSet::constants() {
                        if c.range.is_some() {
                            ui.selectable_value(&mut self.key, c.key.to_string(), c.key)
                                .on_hover_text(c.description);
                        }
                    }
                });
        });
        ui.horizontal(|ui| {
            let l = ui.label("From");
            ui.add(egui::DragValue::new(&mut self.low))
                .labelled_by(l.id);
            let l = ui.label("to");
            ui.add(egui::DragValue::new(&mut self.high))
                .labelled_by(l.id);
            let l = ui.label("Values at most");
            ui.add(egui::DragValue::new(&mut self.max_steps).range(2..=32))
                .labelled_by(l.id);
        });
    }

    /// The first player's edge (percentage points) against the value, each value's interval
    /// a vertical line, even play the horizontal line at 0.
    fn plot(&self, ui: &mut egui::Ui) {
        ui.label(format!(
            "First player's advantage (points, 95% interval) against {}",
            self.key
        ));
        let points: Vec<[f64; 2]> = self
            .steps
            .iter()
            .filter_map(|s| Some([s.value.parse::<f64>().ok()?, s.advantage.edge() * 100.0]))
            .collect();
        Plot::new("tuning")
            .height(180.0)
            .allow_scroll(false)
            .show(ui, |plot| {
                plot.hline(HLine::new("even", 0.0).color(egui::Color32::GRAY));
                for (i, s) in self.steps.iter().enumerate() {
                    let Ok(x) = s.value.parse::<f64>() else {
                        continue;
                    };
                    let (low, high) = (
                        (s.advantage.low - 0.5) * 100.0,
                        (s.advantage.high - 0.5) * 100.0,
                    );
                    plot.line(
                        Line::new(format!("interval {i}"), vec![[x, low], [x, high]])
                            .color(egui::Color32::LIGHT_BLUE),
                    );
                }
                plot.points(
                    Points::new("advantage", points)
                        .radius(4.0)
                        .color(egui::Color32::GOLD),
                );
            });
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}
