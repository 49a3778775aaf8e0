//! The bounds a map file must keep to be loaded at all (`crate::limits`): every piece and cell
//! value inside the board, every count and text within its limit, values within the ranges of
//! the rule constants they stand in for, and paths relative. A map past them would make the
//! engine index outside its grids or allocate without limit, so these are load errors with
//! file:line:column, not design findings.

use super::file::MapFile;
use crate::board::Pos;
use crate::diag::{FileError, line_col_of};
use crate::limits::{self, relative_path_problem, too_long};
use crate::rules::{RuleSet, key_offset, locate_key};
use std::path::Path;

/// Where problems are reported: the file, its text (empty for an embedded map), the problems.
struct Report<'a> {
    path: &'a Path,
    text: &'a str,
    out: &'a mut Vec<FileError>,
}

impl Report<'_> {
    /// A problem at the first `needle` after `key:` (or at `key:` if the needle is not found).
    fn at(&mut self, key: &str, needle: Option<&str>, message: String) {
        let place = needle
            .and_then(|n| locate_after(self.text, key, n))
            .or_else(|| locate_key(self.text, key));
        self.out.push(FileError::at(self.path, place, message));
    }
}

/// Line and column of the first `needle` after `key:` in `text`.
fn locate_after(text: &str, key: &str, needle: &str) -> Option<(usize, usize)> {
    let key_start = key_offset(text, key)?;
    let found = text[key_start..].find(needle)?;
    Some(line_col_of(text, key_start + found))
}

/// Checks every bound of `file`; `rules` (when they resolved) give the ranges of cell values
/// and the alphabet of scenario letters.
pub(super) fn check_bounds(
    path: &Path,
    text: &str,
    file: &MapFile,
    rules: Option<&RuleSet>,
    out: &mut Vec<FileError>,
) {
    let mut report = Report { path, text, out };
    check_texts(&mut report, file);
    check_pieces(&mut report, file);
    check_city_bonuses(&mut report, file);
    check_cell_values(&mut report, file, rules);
    check_paths(&mut report, file);
    check_scenario(&mut report, file, rules);
}

fn check_texts(report: &mut Report, file: &MapFile) {
    let fields = [
        ("name", &file.name, limits::MAX_NAME_CHARS),
        ("author", &file.author, limits::MAX_NAME_CHARS),
        (
            "description",
            &file.description,
            limits::MAX_DESCRIPTION_CHARS,
        ),
    ];
    for (key, value, most) in fields {
        if let Some(problem) = too_long(&format!("`{key}`"), value, most) {
            report.at(key, None, problem);
        }
    }
}

fn inside(file: &MapFile, at: Pos) -> bool {
    at.x < file.size.width && at.y < file.size.height
}

fn outside_message(what: &str, at: Pos, file: &MapFile) -> String {
    format!(
        "{what} is at {at}, outside the {}x{} map; cells go from (0, 0) to ({}, {})",
        file.size.width,
        file.size.height,
        file.size.width.saturating_sub(1),
        file.size.height.saturating_sub(1)
    )
}

fn check_pieces(report: &mut Report, file: &MapFile) {
    for (key, count) in [("cities", file.cities.len()), ("tokens", file.tokens.len())] {
        if count > limits::MAX_PIECES {
            report.at(
                key,
                None,
                format!(
                    "`{key}` lists {count}; a map holds at most {}",
                    limits::MAX_PIECES
                ),
            );
            return;
        }
    }
    let pieces = file
        .cities
        .iter()
        .map(|c| ("cities", "city", &c.id, Some(&c.name), c.at))
        .chain(
            file.tokens
                .iter()
                .map(|t| ("tokens", "token", &t.id, Some(&t.kind), t.at)),
        );
    for (key, what, id, name, at) in pieces {
        let needle = format!("\"{id}\"");
        if let Some(problem) = too_long(&format!("the {what} id `{id}`"), id, limits::MAX_ID_CHARS)
        {
            report.at(key, Some(&needle), problem);
        }
        if let Some(problem) = name.and_then(|n| {
            too_long(
                &format!("the {what} `{id}`'s name or kind"),
                n,
                limits::MAX_NAME_CHARS,
            )
        }) {
            report.at(key, Some(&needle), problem);
        }
        if !inside(file, at) {
            let message = outside_message(&format!("{what} `{id}`"), at, file);
            report.at(key, Some(&needle), message);
        }
    }
}

/// A city's own capture bonus stays within the range the rule set's bonuses take.
fn check_city_bonuses(report: &mut Report, file: &MapFile) {
    let range = limits::CITY_BONUS;
    for city in &file.cities {
        if let Some(bonus) = city.bonus.filter(|b| !range.contains(b)) {
            report.at(
                "cities",
                Some(&format!("\"{}\"", city.id)),
                format!(
                    "the city `{}`'s bonus {bonus} is out of range: write a number from {} to {}, or leave `bonus` out for the rule set's",
                    city.id,
                    range.start(),
                    range.end()
                ),
            );
        }
    }
}

fn check_cell_values(report: &mut Report, file: &MapFile, rules: Option<&RuleSet>) {
    let lists = [
        (
            "forest_density",
            &file.forest_density,
            "board.default_forest_density",
        ),
        (
            "ice_thickness",
            &file.ice_thickness,
            "board.default_ice_thickness",
        ),
    ];
    for (key, values, constant) in lists {
        let cells = u64::from(file.size.width) * u64::from(file.size.height);
        if values.len() as u64 > cells {
            report.at(
                key,
                None,
                format!("`{key}` lists {} cells; the map has {cells}", values.len()),
            );
            continue;
        }
        let range = rules.and_then(|_| RuleSet::constant_range(constant));
        for v in values {
            if !inside(file, v.at) {
                let message = outside_message(&format!("a value in `{key}`"), v.at, file);
                report.at(key, None, message);
            }
            if let Some((lo, hi)) = range
                && !(lo..=hi).contains(&(v.value as f64))
            {
                report.at(
                    key,
                    None,
                    format!(
                        "`{key}` at {} is {}; it must be from {lo} to {hi}, as {constant} must",
                        v.at, v.value
                    ),
                );
            }
        }
    }
}

fn check_paths(report: &mut Report, file: &MapFile) {
    if file.scripts.len() > limits::MAX_SCRIPTS {
        report.at(
            "scripts",
            None,
            format!(
                "`scripts` names {} scripts; a map names at most {}",
                file.scripts.len(),
                limits::MAX_SCRIPTS
            ),
        );
        return;
    }
    for script in &file.scripts {
        if let Some(problem) = relative_path_problem(script) {
            report.at(
                "scripts",
                Some(&format!("\"{script}\"")),
                format!("script: {problem}"),
            );
        }
    }
    if !file.tileset.is_empty()
        && let Some(problem) = relative_path_problem(&file.tileset)
    {
        report.at("tileset", None, format!("tileset: {problem}"));
    }
}

fn check_scenario(report: &mut Report, file: &MapFile, rules: Option<&RuleSet>) {
    let scenario = &file.scenario;
    if scenario.words.len() > limits::MAX_SCENARIO_WORDS {
        report.at(
            "words",
            None,
            format!(
                "the scenario lays {} words; the most is {}",
                scenario.words.len(),
                limits::MAX_SCENARIO_WORDS
            ),
        );
        return;
    }
    let longest = file.size.width.max(file.size.height) as usize;
    for word in &scenario.words {
        let needle = format!("\"{}\"", word.text);
        let n = word.text.chars().count();
        let fits = n >= 1
            && n <= longest
            && word.letters().count() == n
            && word.letters().all(|(p, _)| inside(file, p));
        if !fits {
            let message = format!(
                "the scenario word {:?} at {} does not fit on the {}x{} map",
                word.text, word.at, file.size.width, file.size.height
            );
            report.at("words", Some(&needle), message);
        }
        if let Some(problem) = letters_problem(&word.text, rules) {
            report.at(
                "words",
                Some(&needle),
                format!("the scenario word {:?}: {problem}", word.text),
            );
        }
    }
    let lists = [
        ("racks", &scenario.racks, limits::MAX_SCENARIO_RACK),
        ("pools", &scenario.pools, limits::MAX_SCENARIO_POOL),
    ];
    for (key, by_player, most) in lists {
        for (player, letters) in by_player {
            let problem =
                too_long(&format!("{player}'s {key} entry"), letters, most).or_else(|| {
                    letters_problem(letters, rules).map(|p| format!("{player}'s {key} entry: {p}"))
                });
            if let Some(problem) = problem {
                report.at(key, None, problem);
            }
        }
    }
    if let Some(letters) = &scenario.shared_pool {
        let problem = too_long("the shared pool", letters, limits::MAX_SCENARIO_POOL)
            .or_else(|| letters_problem(letters, rules).map(|p| format!("the shared pool: {p}")));
        if let Some(problem) = problem {
            report.at("shared_pool", None, problem);
        }
    }
}

/// Why `letters` are not all letters of the rule set's alphabet (either case), if they are not.
fn letters_problem(letters: &str, rules: Option<&RuleSet>) -> Option<String> {
    let rules = rules?;
    let bad = letters
        .chars()
        .find(|&c| rules.letter_value(c.to_ascii_uppercase()).is_none() || !c.is_ascii())?;
    Some(format!(
        "{bad:?} is not a letter of the rule set's alphabet"
    ))
}
