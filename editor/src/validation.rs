//! The validation panel: the runtime validator's findings for the map being edited, rerun
//! when the map changes; a click on one jumps the canvas to its cells.

use crate::document::Document;
use scryptic::map::{ValidationContext, validate};
use scryptic::{Finding, Pos, Severity};
use std::collections::BTreeSet;

/// The findings and which one is picked.
#[derive(Debug, Default)]
pub struct ValidationPanel {
    /// The findings of the last run.
    pub findings: Vec<Finding>,
    /// The finding picked in the list (drawn bolder on the map).
    pub focused: Option<usize>,
    validated: Option<u64>,
}

impl ValidationPanel {
    /// Reruns the validator if the map changed since the last run.
    pub fn refresh(&mut self, doc: &Document, script_token_kinds: &[String]) {
        if self.validated == Some(doc.generation()) {
            return;
        }
        self.validated = Some(doc.generation());
        self.focused = None;
        self.findings = match doc.map.rule_set() {
            Ok(rules) => {
                let ctx = ValidationContext {
                    script_token_kinds: script_token_kinds.iter().cloned().collect::<BTreeSet<_>>(),
                    base_dir: doc.path.as_ref().and_then(|p| p.parent()).map(Into::into),
                };
                validate(&doc.map, &rules, &ctx)
            }
            Err(problems) => problems
                .into_iter()
                .map(|p| Finding::error("rules", p.to_string(), Vec::new()))
                .collect(),
        };
    }

    /// Forces a rerun on the next refresh (the scripts' token kinds changed).
    pub fn invalidate(&mut self) {
        self.validated = None;
    }

    /// How many errors and warnings there are.
    pub fn counts(&self) -> (usize, usize) {
        let errors = self
            .findings
            .iter()
            .filter(|f| f.severity == Severity::Error)
            .count();
        (errors, self.findings.len() - errors)
    }

    /// The findings by kind (their code), in the order the kinds first come (errors first),
    /// each with the indices of its findings.
    pub fn groups(&self) -> Vec<(&'static str, Vec<usize>)> {
        let mut groups: Vec<(&'static str, Vec<usize>)> = Vec::new();
        for (i, f) in self.findings.iter().enumerate() {
            match groups.iter_mut().find(|(code, _)| *code == f.code) {
                Some((_, members)) => members.push(i),
                None => groups.push((f.code, vec![i])),
            }
        }
        groups
    }

    /// The panel; answers the cell to jump to when a finding was clicked.
    pub fn ui(&mut self, ui: &mut egui::Ui) -> Option<Pos> {
        let (errors, warnings) = self.counts();
        // The display font's figures are old-style, so counts go in the body text, not the
        // heading.
        ui.heading("Validation");
        ui.label(format!(
            "{}, {}",
            scryptic::diag::counted(errors, "error"),
            scryptic::diag::counted(warnings, "warning")
        ));
        if self.findings.is_empty() {
            ui.label("No problems found.");
            return None;
        }
        let mut jump = None;
        egui::ScrollArea::vertical()
            .max_height(ui.available_height().max(180.0))
            .show(ui, |ui| {
                for (code, members) in self.groups() {
                    let first = &self.findings[members[0]];
                    let mark = match first.severity {
                        Severity::Error => "error",
                        Severity::Warning => "warning",
                    };
                    egui::CollapsingHeader::new(format!("{mark}: {code} ({})", members.len()))
                        .id_salt(("validation", code))
                        .default_open(true)
                        .show(ui, |ui| {
                            for i in members {
                                let f = &self.findings[i];
                                let place = f.cells.first().map_or_else(String::new, |p| {
                                    format!("{}: ", scryptic::game::notation::cell_name(*p))
                                });
                                let text = format!("{place}{}", f.message);
                                if ui.selectable_label(self.focused == Some(i), text).clicked() {
                                    self.focused = Some(i);
                                    jump = f.cells.first().copied();
                                }
                            }
                        });
                }
            });
        jump
    }
}
