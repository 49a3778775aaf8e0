//! Balance mode: AI against AI on the open map over many seeds, on all cores, with a progress
//! bar; then the plots (win rate per seat with its interval, the score distributions, the game
//! lengths), the summary, and an export of every game (JSON and CSV). Below, the search of a
//! rule constant that evens the map (`balance_tune`).

use crate::document::Document;
use egui_plot::{Bar, BarChart, Legend, Line, Plot};
use rayon::prelude::*;
use scryptic::Player;
use scryptic::ai::Level;
use scryptic::ai::simulate::{GameRecord, Report, Setup, play_one, report};
use scryptic::game::SeatNames;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, TryRecvError};
use std::time::{Duration, Instant};

/// A simulation under way on other threads.
struct Running {
    done: Arc<AtomicUsize>,
    cancel: Arc<AtomicBool>,
    total: usize,
    receiver: Receiver<Vec<GameRecord>>,
    started: Instant,
}

/// Balance mode's state.
pub struct BalancePanel {
    /// The two AIs (they swap seats every other game).
    pub levels: [Level; 2],
    /// How many games.
    pub games: usize,
    /// The first game's seed.
    pub first_seed: u64,
    /// Actions after which a game is stopped as unfinished.
    pub max_actions: usize,
    /// Every game of the last run.
    pub records: Vec<GameRecord>,
    /// Its summary.
    pub report: Option<Report>,
    /// Where to export (`.json`; the CSV goes beside it).
    pub export_path: String,
    /// The last problem or what was done.
    pub message: Option<String>,
    /// How long the last run took.
    pub elapsed: Option<Duration>,
    /// The scripts and word lists that took part in the last run's games.
    pub taking_part: Vec<String>,
    /// The search of a rule constant that evens the map.
    pub tune: crate::balance_tune::TunePanel,
    /// The names and colours the last run's rules give the seats.
    pub seat_names: SeatNames,
    running: Option<Running>,
}

impl Default for BalancePanel {
    fn default() -> BalancePanel {
        BalancePanel {
            levels: [Level::Normal, Level::Normal],
            games: 100,
            first_seed: 1,
            max_actions: 5000,
            records: Vec::new(),
            report: None,
            export_path: "balance.json".into(),
            message: None,
            elapsed: None,
            taking_part: Vec::new(),
            tune: Default::default(),
            seat_names: SeatNames::default(),
            running: None,
        }
    }
}

impl BalancePanel {
    /// Whether a simulation is running.
    pub fn is_running(&self) -> bool {
        self.running.is_some()
    }

    /// Games finished of the run under way: done and total.
    pub fn progress(&self) -> Option<(usize, usize)> {
        self.running
            .as_ref()
            .map(|r| (r.done.load(Ordering::Relaxed), r.total))
    }

    /// Starts the simulation on `doc`'s map, as it is played: its scripts take part.
    pub fn run(&mut self, doc: &Document) {
        let batch = crate::balance_tune::Batch {
            levels: self.levels,
            games: self.games,
            first_seed: self.first_seed,
        };
        let setup = match setup_of(doc, batch, self.max_actions) {
            Ok((setup, level)) => {
                self.taking_part = level.taking_part();
                self.seat_names = SeatNames::of(&setup.rules);
                setup
            }
            Err(message) => {
                self.message = Some(message);
                return;
            }
        };
        let done = Arc::new(AtomicUsize::new(0));
        let cancel = Arc::new(AtomicBool::new(false));
        let (sender, receiver) = std::sync::mpsc::channel();
        let (d, c) = (done.clone(), cancel.clone());
        std::thread::spawn(move || {
            let records: Vec<GameRecord> = (0..setup.games)
                .into_par_iter()
                .filter_map(|i| {
                    if c.load(Ordering::Relaxed) {
                        return None;
                    }
                    let record = play_one(&setup, i);
                    d.fetch_add(1, Ordering::Relaxed);
                    Some(record)
                })
                .collect();
            let _ = sender.send(records);
        });
        self.running = Some(Running {
            done,
            cancel,
            total: self.games,
            receiver,
            started: Instant::now(),
        });
        self.message = None;
    }

    /// Takes the results when the run has finished.
    pub fn poll(&mut self) {
        let Some(running) = &self.running else {
            return;
        };
        match running.receiver.try_recv() {
            Ok(records) => {
                self.elapsed = Some(running.started.elapsed());
                self.report = Some(report(&records));
                self.records = records;
                self.running = None;
            }
            Err(TryRecvError::Empty) => {}
            Err(TryRecvError::Disconnected) => {
                self.message = Some("the simulation stopped without results".into());
                self.running = None;
            }
        }
    }

    /// Waits (up to `limit`) for the run to finish; for tests.
    pub fn wait(&mut self, limit: Duration) {
        let start = Instant::now();
        while self.running.is_some() && start.elapsed() < limit {
            self.poll();
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Writes the summary and every game as JSON to `path`, and every game as CSV beside it.
    pub fn export(&self, path: &std::path::Path) -> Result<(), String> {
        let Some(report) = &self.report else {
            return Err("run a simulation first".into());
        };
        let json = serde_json::json!({ "summary": report, "games": self.records });
        let text = serde_json::to_string_pretty(&json).map_err(|e| e.to_string())?;
        scryptic::fsutil::write_atomic(path, text.as_bytes())
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        let csv_path = path.with_extension("csv");
        scryptic::fsutil::write_atomic(&csv_path, csv(&self.records).as_bytes())
            .map_err(|e| format!("cannot write {}: {e}", csv_path.display()))
    }

    /// The mode's whole area.
    pub fn ui(&mut self, ui: &mut egui::Ui, doc: &Document) {
        self.poll();
        egui::CentralPanel::default_margins().show(ui, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                ui.heading(format!("Balance: {}", doc.map.name));
                self.settings(ui, doc);
                if let Some(m) = &self.message {
                    ui.label(m);
                }
                self.results(ui);
                let batch = crate::balance_tune::Batch {
                    levels: self.levels,
                    games: self.games,
                    first_seed: self.first_seed,
                };
                self.tune.ui(ui, doc, batch);
            });
        });
    }

    fn settings(&mut self, ui: &mut egui::Ui, doc: &Document) {
        ui.add_enabled_ui(!self.is_running(), |ui| {
            for (i, name) in ["First AI", "Second AI"].into_iter().enumerate() {
                ui.horizontal(|ui| {
                    ui.label(name);
                    for level in Level::ALL {
                        ui.selectable_value(&mut self.levels[i], level, level.name());
                    }
                });
            }
            ui.horizontal(|ui| {
                let l = ui.label("Games");
                ui.add(egui::DragValue::new(&mut self.games).range(1..=100_000))
                    .labelled_by(l.id);
                let l = ui.label("First seed");
                ui.add(egui::DragValue::new(&mut self.first_seed))
                    .labelled_by(l.id);
                let l = ui.label("Action limit");
                ui.add(egui::DragValue::new(&mut self.max_actions).range(10..=1_000_000))
                    .labelled_by(l.id);
            });
        });
        match self.progress() {
            Some((done, total)) => {
                ui.horizontal(|ui| {
                    let fraction = done as f32 / total.max(1) as f32;
                    ui.add(
                        egui::ProgressBar::new(fraction)
                            .text(format!("{done} of {total} games"))
                            .desired_width(320.0),
                    );
                    if ui.button("Cancel").clicked()
                        && let Some(r) = &self.running
                    {
                        r.cancel.store(true, Ordering::Relaxed);
                    }
                });
                ui.ctx().request_repaint_after(Duration::from_millis(100));
            }
            None => {
                if ui.button("Run simulation").clicked() {
                    self.run(doc);
                }
            }
        }
    }

    fn results(&mut self, ui: &mut egui::Ui) {
        let Some(report) = self.report.clone() else {
            return;
        };
        ui.separator();
        summary(ui, &report, self.elapsed, &self.seat_names);
        ui.label(if self.taking_part.is_empty() {
            "Scripts taking part: none (the map has no scripts or word lists)".to_string()
        } else {
            format!("Scripts taking part: {}", self.taking_part.join(", "))
        });
        ui.horizontal(|ui| {
            let l = ui.label("Export to");
            ui.add(egui::TextEdit::singleline(&mut self.export_path).desired_width(280.0))
                .labelled_by(l.id);
            if ui.button("Export").clicked() {
                let path = std::path::PathBuf::from(&self.export_path);
                self.message = Some(match self.export(&path) {
                    Ok(()) => format!(
                        "exported {} and {}",
                        path.display(),
                        path.with_extension("csv").display()
                    ),
                    Err(e) => e,
                });
            }
        });
        win_rate_plot(ui, &report, &self.seat_names);
        score_plot(ui, &self.records, &self.seat_names);
        length_plot(ui, &self.records);
    }
}

/// The games `batch` asks for on `doc`'s map as it is played (its rules, with its scripts and
/// word lists taking part, from the files beside it or its pack), with the level they are
/// games of; or why it cannot be played.
pub fn setup_of(
    doc: &Document,
    batch: crate::balance_tune::Batch,
    max_actions: usize,
) -> Result<(Setup, scryptic::pack::Level), String> {
    let level = scryptic::pack::Level::from_map(
        doc.map.clone(),
        doc.path.as_deref(),
        None,
        &crate::catalog(),
    )
    .map_err(|e| format!("the map cannot be played: {e}"))?;
    let setup = Setup {
        map: Arc::new(level.map.clone()),
        rules: level.rules.clone(),
        lexicon: crate::lexicon_mode::dictionary(),
        levels: batch.levels.to_vec(),
        thinks: Vec::new(),
        first_seed: batch.first_seed,
        games: batch.games,
        max_actions,
        start: None,
    };
    Ok((
        with_rules(&setup, &level, level.map.clone(), level.rules.clone()),
        level,
    ))
}

/// `setup` on `map` under `rules` (a value tried while tuning), each game begun with the
/// level's scripts and word lists.
pub fn with_rules(
    setup: &Setup,
    level: &scryptic::pack::Level,
    map: scryptic::map::Map,
    rules: scryptic::rules::RuleSet,
) -> Setup {
    let mut played = level.clone();
    played.map = map.clone();
    played.rules = rules.clone();
    Setup {
        start: scryptic::script::ScriptedGame::simulation_starter(&played, &setup.lexicon),
        map: Arc::new(map),
        rules,
        ..setup.clone()
    }
}

fn summary(ui: &mut egui::Ui, report: &Report, elapsed: Option<Duration>, seats: &SeatNames) {
    let no_wins = scryptic::ai::simulate::Rate::new(0, 0);
    let gold = report.seat_wins.first().copied().unwrap_or(no_wins);
    let silver = report.seat_wins.get(1).copied().unwrap_or(no_wins);
    ui.label(format!(
        "{} games{}: {} won {:.0}% ({:.0}-{:.0}%), {} {:.0}% ({:.0}-{:.0}%), {} draws, {} unfinished",
        report.games,
        elapsed.map_or_else(String::new, |e| format!(" in {:.1} s", e.as_secs_f64())),
        seat_name(0.0, 2, seats),
        gold.rate * 100.0,
        gold.low * 100.0,
        gold.high * 100.0,
        seat_name(1.0, 2, seats),
        silver.rate * 100.0,
        silver.low * 100.0,
        silver.high * 100.0,
        report.draws,
        report.unfinished,
    ));
    ui.label(format!(
        "average scores: {} {:.1}, {} {:.1}; average length {:.1} turns; endings: {}",
        seats.name(Player::Gold),
        report.average_scores[0],
        seats.name(Player::Silver),
        report.average_scores[1],
        report.average_turns,
        report
            .endings
            .iter()
            .map(|(r, n)| format!("{r} {n}"))
            .collect::<Vec<_>>()
            .join(", ")
    ));
}

/// The colour of seat `i`'s bars: the mode's, else the seat's on the board.
fn seat_fill(i: usize, seats: &SeatNames) -> egui::Color32 {
    let Some(player) = Player::seat(i) else {
        return egui::Color32::GRAY;
    };
    seats.colour(player).map_or_else(
        || crate::play::board::seat_colour(player),
        |[r, g, b]| egui::Color32::from_rgb(r, g, b),
    )
}

/// Wins per seat with their 95% intervals.
fn win_rate_plot(ui: &mut egui::Ui, report: &Report, names: &SeatNames) {
    ui.label("Win rate per seat (95% interval)");
    let bars = report
        .seat_wins
        .iter()
        .enumerate()
        .map(|(i, r)| {
            Bar::new(i as f64, r.rate)
                .name(seat_name(i as f64, report.seat_wins.len(), names))
                .fill(seat_fill(i, names))
        })
        .collect();
    let seats = report.seat_wins.len();
    // The axes read as a person expects: the seats named under their bars, the rate in
    // percent, nothing to drag or zoom away.
    Plot::new("win rates")
        .height(160.0)
        .include_x(-0.5)
        .include_x(seats as f64 - 0.5)
        .include_y(0.0)
        .include_y(1.0)
        .allow_scroll(false)
        .allow_drag(false)
        .allow_zoom(false)
        .x_grid_spacer(egui_plot::uniform_grid_spacer(|_| [1.0, 2.0, 4.0]))
        .x_axis_formatter({
            let names = names.clone();
            move |mark, _| seat_name(mark.value, seats, &names)
        })
        .y_axis_formatter(|mark, _| format!("{:.0}%", mark.value * 100.0))
        .y_axis_label("games won")
        .show(ui, |plot| {
            plot.bar_chart(BarChart::new("win rate", bars).width(0.6));
            for (i, r) in report.seat_wins.iter().enumerate() {
                let x = i as f64;
                plot.line(
                    Line::new(format!("interval {i}"), vec![[x, r.low], [x, r.high]])
                        .color(egui::Color32::BLACK),
                );
            }
        });
}

/// The seat whose bar stands at `x` (`gold seat`, by the mode's name), or nothing between
/// bars.
fn seat_name(x: f64, seats: usize, names: &SeatNames) -> String {
    let i = x.round();
    if (x - i).abs() > 1e-6 || i < 0.0 || i as usize >= seats {
        return String::new();
    }
    Player::seat(i as usize).map_or_else(String::new, |p| format!("{} seat", names.name(p)))
}

/// A histogram of `values` in about `bins` bins: each bin's start and count.
pub fn histogram(values: &[i64], bins: i64) -> (f64, Vec<(f64, usize)>) {
    let (Some(&min), Some(&max)) = (values.iter().min(), values.iter().max()) else {
        return (1.0, Vec::new());
    };
    let width = ((max - min) / bins.max(1)).max(1);
    let mut counts = vec![0usize; ((max - min) / width + 1) as usize];
    for v in values {
        counts[((v - min) / width) as usize] += 1;
    }
    let bars = counts
        .into_iter()
        .enumerate()
        .map(|(i, n)| ((min + i as i64 * width) as f64, n))
        .collect();
    (width as f64, bars)
}

/// A histogram's bars: each over its bin (`offset` shifts a series beside another, which
/// then takes half a bin), so that a bin's bar stands between the ticks of its range.
fn histogram_chart(name: &str, values: &[i64], colour: egui::Color32, offset: f64) -> BarChart {
    let (width, bins) = histogram(values, 15);
    let share = if offset == 0.0 { 0.9 } else { 0.45 };
    let bars = bins
        .into_iter()
        .map(|(start, n)| Bar::new(start + width * (0.5 + offset), n as f64).width(width * share))
        .collect();
    BarChart::new(name, bars).color(colour)
}

fn score_plot(ui: &mut egui::Ui, records: &[GameRecord], seats: &SeatNames) {
    ui.label("Final scores");
    // A match's totals may hold half points; the bars count whole ones.
    let gold: Vec<i64> = records.iter().map(|r| r.scores[0].floor() as i64).collect();
    let silver: Vec<i64> = records.iter().map(|r| r.scores[1].floor() as i64).collect();
    Plot::new("scores")
        .height(160.0)
        .legend(Legend::default())
        .include_y(0.0)
        .x_axis_label("points")
        .y_axis_label("games")
        .allow_scroll(false)
        .show(ui, |plot| {
            let (first, second) = (seats.name(Player::Gold), seats.name(Player::Silver));
            plot.bar_chart(histogram_chart(first, &gold, seat_fill(0, seats), -0.25));
            plot.bar_chart(histogram_chart(second, &silver, seat_fill(1, seats), 0.25));
        });
}

fn length_plot(ui: &mut egui::Ui, records: &[GameRecord]) {
    ui.label("Game length (turns)");
    let turns: Vec<i64> = records.iter().map(|r| i64::from(r.turns)).collect();
    Plot::new("lengths")
        .height(160.0)
        .include_y(0.0)
        .x_axis_label("turns")
        .y_axis_label("games")
        .allow_scroll(false)
        .show(ui, |plot| {
            plot.bar_chart(histogram_chart(
                "games",
                &turns,
                egui::Color32::LIGHT_BLUE,
                0.0,
            ));
        });
}

/// Every game as a CSV row.
pub fn csv(records: &[GameRecord]) -> String {
    let mut out = String::from(
        "game,seed,gold_ai,silver_ai,winner,reason,turns,gold_score,silver_score,gold_captures,silver_captures,gold_tokens,silver_tokens\n",
    );
    for r in records {
        out.push_str(&format!(
            "{},{},{},{},{},\"{}\",{},{},{},{},{},{},{}\n",
            r.index,
            r.seed,
            r.seats[0],
            r.seats[1],
            r.winner.map_or("none", |w| w.name()),
            r.reason.replace('"', "\"\""),
            r.turns,
            r.scores[0],
            r.scores[1],
            r.captures[0],
            r.captures[1],
            r.tokens[0],
            r.tokens[1],
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn histograms_count_every_value_once() {
        for (values, bins) in [
            (vec![1, 2, 3, 40, 41, 100], 5),
            (vec![7, 7, 7], 15),
            (vec![], 4),
        ] {
            let (width, bars) = histogram(&values, bins);
            assert!(width >= 1.0);
            assert_eq!(bars.iter().map(|b| b.1).sum::<usize>(), values.len());
            for (start, n) in &bars {
                let inside = values
                    .iter()
                    .filter(|&&v| (v as f64) >= *start && (v as f64) < start + width)
                    .count();
                assert_eq!(inside, *n, "bin at {start}");
            }
        }
    }

    /// The win-rate plot names the seats under their bars, and nothing between them (its
    /// axis ran from -0.3 to 1.3).
    #[test]
    fn the_win_rate_axis_names_the_seats() {
        for (x, said) in [
            (0.0, "gold seat"),
            (1.0, "silver seat"),
            (0.5, ""),
            (-1.0, ""),
            (2.0, ""),
        ] {
            assert_eq!(super::seat_name(x, 2, &SeatNames::default()), said, "{x}");
        }
        assert_eq!(
            super::seat_name(2.0, 3, &SeatNames::default()),
            "seat3 seat"
        );
        // A mode's names stand for the seats' own words (Scryper's white and brown).
        let scryper = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../packs/scryper/rules/scryper.ron");
        let rules = scryptic::rules::RuleSet::load(&scryper).unwrap();
        let names = SeatNames::of(&rules);
        assert_eq!(super::seat_name(1.0, 2, &names), "brown seat");
    }
}
