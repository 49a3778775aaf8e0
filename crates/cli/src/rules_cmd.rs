//! `scryptic rules list | show | check`.

use super::{EXIT_PROBLEMS, Streams, print_json};
use crate::rules::{RuleConstant, RuleSet};
use clap::Subcommand;
use serde::Serialize;
use std::path::{Path, PathBuf};

#[derive(Subcommand, Debug)]
pub(super) enum RulesCommand {
    /// List the shipped presets.
    List {
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Print a complete rule set: a preset's name, or a rule-set file resolved over its preset.
    /// The RON is a rule-set file with every constant written out: edit it and pass it to
    /// `rules check` or `play --rules`.
    Show {
        /// A preset name (`gdd-1.6`, `classic`) or the path of a rule-set file.
        name: String,
        /// Print JSON instead of RON.
        #[arg(long)]
        json: bool,
        /// Print every constant's description and valid range instead of the values.
        #[arg(long)]
        describe: bool,
    },
    /// Check rule-set files: every problem, with file:line:column.
    Check {
        /// Rule-set files (RON: a preset plus overrides).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
}

pub(super) fn run(cmd: RulesCommand, io: &mut Streams) -> anyhow::Result<i32> {
    match cmd {
        RulesCommand::List { json } => list(json, io),
        RulesCommand::Show {
            name,
            json,
            describe,
        } => show(&name, json, describe, io),
        RulesCommand::Check { files, json } => check(&files, json, io),
    }
}

#[derive(Serialize)]
struct PresetSummary {
    name: String,
    description: String,
}

fn list(json: bool, io: &mut Streams) -> anyhow::Result<i32> {
    let mut presets = Vec::new();
    for name in RuleSet::preset_names() {
        let rules = RuleSet::preset(name).map_err(|p| anyhow::anyhow!(p.message))?;
        presets.push(PresetSummary {
            name: rules.name,
            description: rules.description,
        });
    }
    if json {
        print_json(io.out, &presets)?;
    } else {
        for p in &presets {
            writeln!(io.out, "{:<10} {}", p.name, p.description)?;
        }
    }
    Ok(0)
}

/// A preset by name, or a rule-set file by path, with the preset it starts from.
fn resolve(name: &str) -> Result<(RuleSet, String), Vec<String>> {
    if RuleSet::preset_names().any(|n| n == name) {
        let rules = RuleSet::preset(name).map_err(|p| vec![p.message])?;
        return Ok((rules, name.to_string()));
    }
    let path = Path::new(name);
    if path.exists() {
        let rules = RuleSet::load(path).map_err(|e| e.problems())?;
        let text = crate::fsutil::read_text(path).map_err(|e| e.problems())?;
        let file: crate::rules::RuleFile =
            crate::ronfile::parse(path, &text).map_err(|e| e.problems())?;
        return Ok((rules, file.preset));
    }
    let hint = RuleSet::preset(name)
        .err()
        .map(|p| p.message)
        .unwrap_or_default();
    Err(vec![format!(
        "`{name}` is neither a preset nor a file ({hint})"
    )])
}

fn show(name: &str, json: bool, describe: bool, io: &mut Streams) -> anyhow::Result<i32> {
    if describe {
        let constants: Vec<RuleConstant> = RuleSet::constants();
        if json {
            print_json(io.out, &constants)?;
        } else {
            for c in &constants {
                let range = c
                    .range
                    .map(|(lo, hi)| format!(" [{lo} to {hi}]"))
                    .unwrap_or_default();
                writeln!(
                    io.out,
                    "{}{range}\n    {}",
                    c.key,
                    c.description.replace('\n', "\n    ")
                )?;
            }
        }
        return Ok(0);
    }
    let (rules, preset) = match resolve(name) {
        Ok(resolved) => resolved,
        Err(problems) => {
            for p in problems {
                writeln!(io.err, "{p}")?;
            }
            return Ok(EXIT_PROBLEMS);
        }
    };
    if json {
        print_json(io.out, &rules)?;
    } else {
        write!(io.out, "{}", rules.to_rule_file_ron(&preset))?;
    }
    Ok(0)
}

#[derive(Serialize)]
struct CheckReport {
    file: PathBuf,
    ok: bool,
    problems: Vec<String>,
}

fn check(files: &[PathBuf], json: bool, io: &mut Streams) -> anyhow::Result<i32> {
    let reports: Vec<CheckReport> = files
        .iter()
        .map(|f| match RuleSet::load(f) {
            Ok(_) => CheckReport {
                file: f.clone(),
                ok: true,
                problems: vec![],
            },
            Err(e) => CheckReport {
                file: f.clone(),
                ok: false,
                problems: e.problems(),
            },
        })
        .collect();
    if json {
        print_json(io.out, &reports)?;
    } else {
        for r in &reports {
            if r.ok {
                writeln!(io.out, "ok: {}", r.file.display())?;
            }
            for p in &r.problems {
                writeln!(io.err, "{p}")?;
            }
        }
    }
    Ok(if reports.iter().all(|r| r.ok) {
        0
    } else {
        EXIT_PROBLEMS
    })
}
