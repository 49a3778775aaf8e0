//! `scryptic pack check`: everything wrong with a pack, judged as every other command judges
//! it (its files read, its paths followed, every board of every mode started with its
//! scripts, in every order its packs could load, its texts looked over).

use super::{EXIT_PROBLEMS, Streams, strings_check};
use crate::pack::{Catalog, Choice, Level, Pack};
use crate::screen::counted;
use std::collections::BTreeMap;

/// Every problem `pack check` finds in pack `id`.
pub(super) fn check(catalog: &Catalog, id: &str, io: &mut Streams) -> anyhow::Result<i32> {
    let Some(pack) = catalog.get(id) else {
        return Ok(EXIT_PROBLEMS);
    };
    let mut problems = Vec::new();
    // What ships: the files `.packignore` leaves out (the author's tooling) are not the pack's.
    let files = match crate::pack::archive::shipped_files(pack) {
        Ok(files) => files,
        Err(e) => {
            problems.extend(e.problems());
            Vec::new()
        }
    };
    if let Err(e) = catalog.resolve(&[id]) {
        problems.push(e.to_string());
    }
    check_extension_modes(catalog, pack, &mut problems);
    check_files(pack, &files, &mut problems);
    let warnings = strings_check::check(pack, &files, &mut problems);
    let mut started = 0;
    if problems.is_empty() {
        started = check_modes(catalog, pack, &mut problems);
    }
    for p in &problems {
        writeln!(io.err, "{p}")?;
    }
    for w in &warnings {
        writeln!(io.err, "warning: {w}")?;
    }
    let warned = if warnings.is_empty() {
        String::new()
    } else {
        format!(", {}", counted(warnings.len(), "warning"))
    };
    if problems.is_empty() {
        writeln!(
            io.out,
            "ok: {} ({}, {}, {} started{warned})",
            pack.label(),
            counted(files.len(), "file"),
            counted(pack.manifest.modes.len(), "mode"),
            counted(started, "game")
        )?;
        Ok(0)
    } else {
        writeln!(
            io.err,
            "{}: {}",
            pack.label(),
            counted(problems.len(), "problem")
        )?;
        Ok(EXIT_PROBLEMS)
    }
}

/// An extension's `modes`: each `PACK:MODE` names a mode that exists, each `PACK` a pack.
fn check_extension_modes(catalog: &Catalog, pack: &Pack, problems: &mut Vec<String>) {
    let Some(extension) = &pack.manifest.extension else {
        return;
    };
    let manifest = pack
        .files
        .shown(crate::pack::MANIFEST_FILE)
        .display()
        .to_string();
    for named in &extension.modes {
        let (pack_id, mode) = match named.split_once(':') {
            Some((p, m)) => (p, Some(m)),
            None => (named.as_str(), None),
        };
        let Some(other) = catalog.get(pack_id) else {
            problems.push(format!(
                "{manifest}: the extension fits `{named}`, but no pack `{pack_id}` is found (`scryptic pack list` shows the packs)"
            ));
            continue;
        };
        if let Some(mode) = mode
            && other.manifest.mode(mode).is_none()
        {
            let modes: Vec<&str> = other.manifest.modes.iter().map(|m| m.id.as_str()).collect();
            problems.push(format!(
                "{manifest}: the extension fits `{named}`, but pack {pack_id} has no mode `{mode}`: its modes are {}",
                modes.join(", ")
            ));
        }
    }
}

/// Every map, rule set and script file of the pack, read and checked on its own.
fn check_files(pack: &Pack, files: &[String], problems: &mut Vec<String>) {
    let mut host =
        crate::script::ScriptHost::with_standard_tokens(crate::script::ScriptLimits::default(), 1)
            .ok();
    for file in files {
        let shown = pack.files.shown(file);
        let text = || pack.files.read_text(file).map_err(|e| e.problems());
        let result = if file.starts_with("rules/") && file.ends_with(".ron") {
            text().and_then(|t| {
                crate::rules::RuleSet::from_file_text(&shown, &t)
                    .map(drop)
                    .map_err(|e| e.problems())
            })
        } else if (file.starts_with("maps/") || file.starts_with("campaigns/"))
            && file.ends_with(".ron")
        {
            text().and_then(|t| {
                crate::map::Map::from_text(&shown, &t)
                    .map(drop)
                    .map_err(|e| e.problems())
            })
        } else if file.starts_with("tests/") && file.ends_with(".ron") {
            text().and_then(|t| {
                crate::scenario::PackScenario::parse(&shown, &t)
                    .map(drop)
                    .map_err(|e| e.problems())
            })
        } else if file.ends_with(".lua") && !file.starts_with("scripts/types/") {
            match (text(), host.as_mut()) {
                (Ok(t), Some(host)) => host
                    .load(&format!("{}:{file}", pack.id()), &t)
                    .map_err(|e| vec![e.to_string()]),
                (Err(e), _) => Err(e),
                (Ok(_), None) => Ok(()),
            }
        } else {
            Ok(())
        };
        if let Err(found) = result {
            problems.extend(found);
        }
    }
}

/// Starts every board of every mode (each chapter of a campaign), and assembles each in
/// shuffled load orders; returns how many games started.
fn check_modes(catalog: &Catalog, pack: &Pack, problems: &mut Vec<String>) -> usize {
    let lexicon = std::sync::Arc::new(crate::lexicon::Lexicon::english());
    let mut started = 0;
    for (choice, level) in every_board(catalog, pack, problems) {
        // The token kinds the level's scripts define are kinds the map may name, as `play`
        // and `map validate` take them.
        let mut kinds = std::collections::BTreeSet::new();
        match crate::script::ScriptedGame::start_level(&level, lexicon.clone(), 1, None) {
            Ok((game, errors)) => {
                problems.extend(errors);
                started += 1;
                kinds.extend(game.host().token_kinds());
            }
            Err(e) => problems.push(e.to_string()),
        }
        check_map_design(&level, kinds, problems);
        check_shuffled(catalog, &choice, &level, problems);
    }
    started
}

/// The level of every board of every mode of `pack` (each chapter of a campaign), with the
/// choice that makes it; the problems of those that cannot be assembled go to `problems`.
pub(super) fn every_board(
    catalog: &Catalog,
    pack: &Pack,
    problems: &mut Vec<String>,
) -> Vec<(Choice, Level)> {
    let packs = catalog.resolve(&[pack.id()]).unwrap_or_default();
    let mut levels = Vec::new();
    for mode in &pack.manifest.modes {
        let boards = match crate::pack::level::boards(&packs, pack, mode) {
            Ok(boards) => boards,
            Err(e) => {
                problems.push(format!("mode `{}`: {e}", mode.id));
                continue;
            }
        };
        for (chapter, board) in boards.iter().enumerate() {
            let choice = Choice {
                pack: pack.id().to_string(),
                mode: mode.id.clone(),
                chapter,
                ..Choice::default()
            };
            match Level::from_pack(catalog, &choice) {
                Ok(level) => levels.push((choice, level)),
                Err(e) => problems.push(format!("mode `{}`, {board}: {e}", mode.id)),
            }
        }
    }
    levels.extend(extended_modes(catalog, pack, &packs, problems));
    levels
}

/// For an extension pack, the first board of every mode it fits among the packs it loads,
/// with it ticked.
fn extended_modes(
    catalog: &Catalog,
    pack: &Pack,
    packs: &[&Pack],
    problems: &mut Vec<String>,
) -> Vec<(Choice, Level)> {
    let Some(extension) = &pack.manifest.extension else {
        return Vec::new();
    };
    let mut levels = Vec::new();
    for other in packs.iter().filter(|p| p.id() != pack.id()) {
        for mode in &other.manifest.modes {
            if !extension.fits(other.id(), &mode.id) {
                continue;
            }
            let choice = Choice {
                pack: other.id().to_string(),
                mode: mode.id.clone(),
                extensions: vec![pack.id().to_string()],
                ..Choice::default()
            };
            match Level::from_pack(catalog, &choice) {
                Ok(level) => levels.push((choice, level)),
                Err(e) => problems.push(format!("{}:{} with it: {e}", other.id(), mode.id)),
            }
        }
    }
    levels
}

/// The errors the map validator finds on a level's map.
fn check_map_design(
    level: &Level,
    script_token_kinds: std::collections::BTreeSet<String>,
    problems: &mut Vec<String>,
) {
    let ctx = crate::map::ValidationContext {
        script_token_kinds,
        ..crate::map::ValidationContext::default()
    };
    for finding in crate::map::validate(&level.map, &level.rules, &ctx) {
        if finding.severity == crate::diag::Severity::Error {
            problems.push(format!("{}: {}", level.map.name, finding.message));
        }
    }
}

/// Assembles the level in shuffled load orders and reports what changes with the order.
fn check_shuffled(catalog: &Catalog, choice: &Choice, level: &Level, problems: &mut Vec<String>) {
    let expected = effect(level);
    for seed in 1..=8u64 {
        let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(seed);
        let mut pick = |ready: &[&str]| {
            use rand::RngExt;
            rng.random_range(0..ready.len())
        };
        let Ok(shuffled) = Level::from_pack_with(catalog, choice, &mut pick) else {
            continue;
        };
        let order: Vec<&str> = shuffled.records.iter().map(|p| p.id.as_str()).collect();
        if effect(&shuffled) != expected {
            problems.push(format!(
                "mode `{}`: loading the packs as {} instead of {} changes the game (two packs \
                 that do not depend on each other give the same connotation list or script): \
                 make one depend on the other",
                choice.mode,
                order.join(", "),
                level
                    .records
                    .iter()
                    .map(|p| p.id.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
            return;
        }
    }
}

/// What a level's load order can change: the connotation lists in force and the scripts.
fn effect(level: &Level) -> (BTreeMap<&str, &[String]>, Vec<&str>) {
    let lists = level
        .connotations
        .iter()
        .map(|c| (c.name.as_str(), c.words.as_slice()))
        .collect();
    let scripts = level.scripts.iter().map(|s| s.name.as_str()).collect();
    (lists, scripts)
}
