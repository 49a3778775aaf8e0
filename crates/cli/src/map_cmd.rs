//! `scryptic map validate | info | render | fmt | new`.

use super::{EXIT_PROBLEMS, Streams, print_json};
use crate::board::{City, Owner, TokenSpot};
use crate::diag::{Finding, Severity};
use crate::map::{self, Map, ValidationContext};
use crate::render::{RenderOptions, render};
use crate::rules::RuleSet;
use crate::tileset::Tileset;
use clap::Subcommand;
use serde::Serialize;
use std::path::{Path, PathBuf};

#[derive(Subcommand, Debug)]
pub(super) enum MapCommand {
    /// Load maps and report every problem: file errors with file:line:column, design problems
    /// with their cells. Exits with 1 if any map has an error.
    Validate {
        /// Map files.
        #[arg(required = true)]
        maps: Vec<PathBuf>,
        /// A token kind that scripts define (may be given several times).
        #[arg(long = "token-kind", value_name = "KIND")]
        token_kinds: Vec<String>,
        /// Treat warnings as errors.
        #[arg(long)]
        deny_warnings: bool,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Describe a map: size, terrain, cities, tokens, rules, scripts.
    Info {
        /// A map file.
        map: PathBuf,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Draw a map to a PNG with its tileset.
    Render {
        /// A map file.
        map: PathBuf,
        /// The PNG to write (default: the map's name with .png, in the current folder).
        #[arg(short, long)]
        out: Option<PathBuf>,
        /// Pixels per cell (default: the tile size, shrunk to keep the image within --max-side).
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=512))]
        cell_size: Option<u32>,
        /// The longest side of the image when the cell size is chosen automatically.
        #[arg(long, default_value_t = 4096, value_parser = clap::value_parser!(u32).range(16..=16384))]
        max_side: u32,
        /// A tileset manifest to draw with instead of the map's own.
        #[arg(long)]
        tileset: Option<PathBuf>,
        /// Draw lines between cells.
        #[arg(long)]
        grid: bool,
    },
    /// Rewrite maps in the canonical layout (load, then save atomically).
    Fmt {
        /// Map files.
        #[arg(required = true)]
        maps: Vec<PathBuf>,
        /// Change nothing; exit with 1 if a map is not in the canonical layout.
        #[arg(long)]
        check: bool,
    },
    /// Generate a new map: point-symmetric terrain, cities and elemental tokens.
    New {
        /// The map file to write.
        out: PathBuf,
        /// Columns.
        #[arg(long, default_value_t = 24)]
        width: u32,
        /// Rows.
        #[arg(long, default_value_t = 24)]
        height: u32,
        /// The seed: the same options make the same map.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The map's title.
        #[arg(long, default_value = "Untitled")]
        name: String,
        /// Pairs of neutral cities.
        #[arg(long, default_value_t = 2)]
        neutral_pairs: u32,
        /// Pairs of each of the four elemental tokens.
        #[arg(long, default_value_t = 1)]
        token_pairs: u32,
        /// Tileset manifest path to record in the map, relative to the map.
        #[arg(long, default_value = "")]
        tileset: String,
        /// Replace the file if it exists.
        #[arg(long)]
        force: bool,
    },
}

pub(super) fn run(cmd: MapCommand, io: &mut Streams) -> anyhow::Result<i32> {
    match cmd {
        MapCommand::Validate {
            maps,
            token_kinds,
            deny_warnings,
            json,
        } => validate(&maps, token_kinds, deny_warnings, json, io),
        MapCommand::Info { map, json } => info(&map, json, io),
        MapCommand::Render {
            map,
            out,
            cell_size,
            max_side,
            tileset,
            grid,
        } => {
            let options = RenderOptions {
                cell_px: cell_size,
                max_side,
                grid,
            };
            render_png(&map, out, tileset, &options, io)
        }
        MapCommand::Fmt { maps, check } => fmt(&maps, check, io),
        MapCommand::New {
            out,
            width,
            height,
            seed,
            name,
            neutral_pairs,
            token_pairs,
            tileset,
            force,
        } => {
            let options = map::GenerateOptions {
                name,
                width,
                height,
                seed,
                neutral_city_pairs: neutral_pairs,
                token_pairs,
            };
            new_map(&out, &options, tileset, force, io)
        }
    }
}

/// Loads a map and its rule set, printing the problems when either fails.
fn load(path: &Path, io: &mut Streams) -> anyhow::Result<Option<(Map, RuleSet)>> {
    match Map::load(path) {
        Ok(map) => match map.rule_set() {
            Ok(rules) => Ok(Some((map, rules))),
            Err(problems) => {
                for p in problems {
                    writeln!(io.err, "{}: {}", path.display(), p.message)?;
                }
                Ok(None)
            }
        },
        Err(e) => {
            for p in e.problems() {
                writeln!(io.err, "{p}")?;
            }
            Ok(None)
        }
    }
}

#[derive(Serialize)]
struct ValidateReport {
    map: PathBuf,
    loaded: bool,
    load_errors: Vec<String>,
    findings: Vec<Finding>,
}

fn validate(
    maps: &[PathBuf],
    token_kinds: Vec<String>,
    deny_warnings: bool,
    json: bool,
    io: &mut Streams,
) -> anyhow::Result<i32> {
    let mut reports = Vec::new();
    for path in maps {
        let map_dir = path.parent().unwrap_or(Path::new(".")).to_path_buf();
        let mut ctx = ValidationContext {
            script_token_kinds: token_kinds.iter().cloned().collect(),
            base_dir: Some(map_dir.clone()),
        };
        let report = match Map::load(path).map(|m| (m.rule_set(), m)) {
            Ok((Ok(rules), map)) => {
                let load_errors = load_parts(&map, path, &map_dir, &mut ctx)?;
                ValidateReport {
                    map: path.clone(),
                    loaded: load_errors.is_empty(),
                    load_errors,
                    findings: map::validate(&map, &rules, &ctx),
                }
            }
            Ok((Err(problems), _)) => ValidateReport {
                map: path.clone(),
                loaded: false,
                load_errors: problems
                    .into_iter()
                    .map(|p| format!("{}: {}", path.display(), p.message))
                    .collect(),
                findings: vec![],
            },
            Err(e) => ValidateReport {
                map: path.clone(),
                loaded: false,
                load_errors: e.problems(),
                findings: vec![],
            },
        };
        reports.push(report);
    }
    let failed = |r: &ValidateReport| {
        !r.loaded
            || r.findings
                .iter()
                .any(|f| f.severity == Severity::Error || deny_warnings)
    };
    if json {
        print_json(io.out, &reports)?;
    } else {
        for r in &reports {
            print_validation(r, io)?;
        }
    }
    Ok(if reports.iter().any(failed) {
        EXIT_PROBLEMS
    } else {
        0
    })
}

/// Loads what `map` names beside it, as a game would: its scripts (whose token kinds join
/// `ctx`) and its tileset. Returns their errors; a part that is missing is left to the
/// validator's finding.
fn load_parts(
    map: &Map,
    path: &Path,
    map_dir: &Path,
    ctx: &mut ValidationContext,
) -> anyhow::Result<Vec<String>> {
    let mut errors = Vec::new();
    if crate::pack::level::enclosing_pack(path).is_some() {
        // A pack's map is judged as it is played: with the scripts of the mode that plays it
        // and of the packs it names (`core:`), whose token kinds it may place.
        load_level_scripts(path, ctx, &mut errors)?;
    } else {
        load_scripts_beside(map, map_dir, ctx, &mut errors)?;
    }
    // A tileset missing beside the map is the validator's finding; one of a pack, or one
    // there that does not read, is a load error.
    let in_folder = scryptic_core::limits::split_pack_reference(&map.tileset)
        .0
        .is_none();
    let missing_beside = in_folder && !map_dir.join(&map.tileset).is_file();
    if !missing_beside && let Err(problems) = named_tileset(path, map) {
        errors.extend(problems);
    }
    Ok(errors)
}

/// The scripts of the level a pack's map at `path` makes, loaded: their errors to `errors`,
/// their token kinds to `ctx`.
fn load_level_scripts(
    path: &Path,
    ctx: &mut ValidationContext,
    errors: &mut Vec<String>,
) -> anyhow::Result<()> {
    let (catalog, _) = crate::pack::Catalog::discover();
    let level = match crate::pack::Level::from_map_file(path, None, &catalog) {
        Ok(level) => level,
        Err(e) => {
            errors.push(format!("{}: {e}", path.display()));
            return Ok(());
        }
    };
    errors.extend(level.unreadable.iter().cloned());
    let mut host =
        crate::script::ScriptHost::with_standard_tokens(crate::script::ScriptLimits::default(), 1)?;
    for script in &level.scripts {
        if let Err(e) = host.load(&script.name, &script.source) {
            errors.push(e.to_string());
        }
    }
    ctx.script_token_kinds.extend(host.token_kinds());
    Ok(())
}

/// The scripts a map outside any pack names beside it, loaded as `load_level_scripts` does.
fn load_scripts_beside(
    map: &Map,
    map_dir: &Path,
    ctx: &mut ValidationContext,
    errors: &mut Vec<String>,
) -> anyhow::Result<()> {
    let present: Vec<String> = map
        .scripts
        .iter()
        .filter(|s| map_dir.join(s).is_file())
        .cloned()
        .collect();
    if !present.is_empty() {
        let mut host = crate::script::ScriptHost::with_standard_tokens(
            crate::script::ScriptLimits::default(),
            1,
        )?;
        let (_, script_errors) = host.load_map_scripts(map_dir, &present);
        errors.extend(script_errors.iter().map(|e| {
            let file = map_dir.join(&e.script);
            let place = e.line.map(|l| format!(":{l}")).unwrap_or_default();
            format!("{}{place}: {}", file.display(), e.message)
        }));
        ctx.script_token_kinds.extend(host.token_kinds());
    }
    Ok(())
}

/// The tileset `map` (the file at `path`) names, found as a level finds it: a file beside the
/// map, a file of the pack the map is in, or another pack's (`core:tilesets/...`); none when
/// it names none; why not when it cannot be found or read.
fn named_tileset(path: &Path, map: &Map) -> Result<Option<Tileset>, Vec<String>> {
    if map.tileset.is_empty() {
        return Ok(None);
    }
    let (catalog, _) = crate::pack::Catalog::discover();
    let Some(found) = crate::pack::level::map_tileset(Some(path), &map.tileset, &catalog) else {
        return Err(vec![format!(
            "{}: the map's tileset `{}` is in a pack that is not found (`scryptic pack list` shows the packs)",
            path.display(),
            map.tileset
        )]);
    };
    Tileset::from_pack(&found.files, &found.path)
        .map(Some)
        .map_err(|e| {
            e.problems()
                .into_iter()
                .map(|p| {
                    format!(
                        "{p} (the tileset `{}` the map {} names)",
                        map.tileset,
                        path.display()
                    )
                })
                .collect()
        })
}

fn print_validation(r: &ValidateReport, io: &mut Streams) -> anyhow::Result<()> {
    for e in &r.load_errors {
        writeln!(io.err, "{e}")?;
    }
    for f in &r.findings {
        writeln!(io.out, "{}: {f}", r.map.display())?;
    }
    if !r.findings.is_empty() || r.loaded {
        let errors = r
            .findings
            .iter()
            .filter(|f| f.severity == Severity::Error)
            .count();
        let warnings = r.findings.len() - errors;
        writeln!(
            io.out,
            "{}: {}, {}",
            r.map.display(),
            crate::screen::counted(errors, "error"),
            crate::screen::counted(warnings, "warning")
        )?;
    }
    Ok(())
}

#[derive(Serialize)]
struct MapInfo {
    name: String,
    author: String,
    description: String,
    width: u32,
    height: u32,
    terrain: Vec<(String, usize)>,
    cities: Vec<City>,
    tokens: Vec<TokenSpot>,
    preset: String,
    overridden_constants: usize,
    scripts: Vec<String>,
    tileset: String,
    scenario_letters: usize,
}

fn info(path: &Path, json: bool, io: &mut Streams) -> anyhow::Result<i32> {
    let Some((map, _)) = load(path, io)? else {
        return Ok(EXIT_PROBLEMS);
    };
    let info = MapInfo {
        name: map.name.clone(),
        author: map.author.clone(),
        description: map.description.clone(),
        width: map.width(),
        height: map.height(),
        terrain: map
            .terrain_counts()
            .iter()
            .map(|(t, n)| (t.name().to_string(), *n))
            .collect(),
        cities: map.cities.clone(),
        tokens: map.tokens.clone(),
        preset: map.rules.preset.clone(),
        overridden_constants: map.rules.overrides.count(),
        scripts: map.scripts.clone(),
        tileset: map.tileset.clone(),
        scenario_letters: map
            .scenario
            .words
            .iter()
            .map(|w| w.text.chars().count())
            .sum(),
    };
    if json {
        print_json(io.out, &info)?;
        return Ok(0);
    }
    let o = &mut *io.out;
    writeln!(
        o,
        "{} ({}x{}){}",
        info.name,
        info.width,
        info.height,
        if info.author.is_empty() {
            String::new()
        } else {
            format!(" by {}", info.author)
        }
    )?;
    if !info.description.is_empty() {
        writeln!(o, "{}", info.description)?;
    }
    let cells = f64::from(info.width) * f64::from(info.height);
    let terrain: Vec<String> = info
        .terrain
        .iter()
        .filter(|(_, n)| *n > 0)
        .map(|(t, n)| format!("{t} {:.0}%", *n as f64 * 100.0 / cells))
        .collect();
    writeln!(o, "terrain: {}", terrain.join(", "))?;
    for owner in Owner::ALL {
        let names: Vec<String> = info
            .cities
            .iter()
            .filter(|c| c.owner == owner)
            .map(|c| format!("{} `{}` {}", c.name, c.id, c.at))
            .collect();
        if !names.is_empty() {
            writeln!(o, "{} cities: {}", owner.name(), names.join(", "))?;
        }
    }
    let tokens: Vec<String> = info
        .tokens
        .iter()
        .map(|t| format!("{} `{}` {}", t.kind, t.id, t.at))
        .collect();
    writeln!(
        o,
        "tokens: {}",
        if tokens.is_empty() {
            "none".to_string()
        } else {
            tokens.join(", ")
        }
    )?;
    writeln!(
        o,
        "rules: {} with {} overridden constants",
        info.preset, info.overridden_constants
    )?;
    if !info.scripts.is_empty() {
        writeln!(o, "scripts: {}", info.scripts.join(", "))?;
    }
    if !info.tileset.is_empty() {
        writeln!(o, "tileset: {}", info.tileset)?;
    }
    if info.scenario_letters > 0 {
        writeln!(
            o,
            "scenario: {} letters on the board at the start",
            info.scenario_letters
        )?;
    }
    Ok(0)
}

fn render_png(
    path: &Path,
    out: Option<PathBuf>,
    tileset: Option<PathBuf>,
    options: &RenderOptions,
    io: &mut Streams,
) -> anyhow::Result<i32> {
    let Some((map, rules)) = load(path, io)? else {
        return Ok(EXIT_PROBLEMS);
    };
    if let Some(cell) = options.cell_px {
        let (w, h) = crate::render::image_size(&map, cell);
        let max = u64::from(crate::render::MAX_IMAGE_SIDE);
        if w > max || h > max {
            writeln!(
                io.err,
                "at {cell} pixels a cell the image would be {w}x{h}; the most is {max} on a side: lower --cell-size"
            )?;
            return Ok(EXIT_PROBLEMS);
        }
    }
    let found = match &tileset {
        Some(p) => Tileset::load(p).map(Some).map_err(|e| e.problems()),
        None => named_tileset(path, &map),
    };
    let tiles = match found {
        Ok(Some(t)) => Some(t),
        Ok(None) => {
            writeln!(
                io.err,
                "note: the map names no tileset; drawing flat colours (use --tileset)"
            )?;
            None
        }
        Err(problems) => {
            for problem in problems {
                writeln!(io.err, "{problem}")?;
            }
            return Ok(EXIT_PROBLEMS);
        }
    };
    let img = render(&map, &rules, tiles.as_ref(), options);
    let out = out.unwrap_or_else(|| {
        let stem = path
            .file_stem()
            .map_or("map".into(), |s| s.to_string_lossy().into_owned());
        PathBuf::from(format!("{stem}.png"))
    });
    let bytes = crate::render::png_bytes(&img)?;
    crate::fsutil::write_atomic(&out, &bytes)
        .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", out.display()))?;
    writeln!(
        io.out,
        "wrote {} ({}x{})",
        out.display(),
        img.width(),
        img.height()
    )?;
    Ok(0)
}

fn fmt(maps: &[PathBuf], check: bool, io: &mut Streams) -> anyhow::Result<i32> {
    let mut code = 0;
    for path in maps {
        let Some((map, _)) = load(path, io)? else {
            code = EXIT_PROBLEMS;
            continue;
        };
        let current = crate::fsutil::read_text(path).unwrap_or_default();
        let canonical = map.to_ron_keeping_comments(&current);
        if canonical == current {
            continue;
        }
        if check {
            writeln!(io.out, "not canonical: {}", path.display())?;
            code = EXIT_PROBLEMS;
        } else {
            crate::fsutil::write_atomic(path, canonical.as_bytes())
                .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))?;
            writeln!(io.out, "formatted {}", path.display())?;
        }
    }
    Ok(code)
}

fn new_map(
    out: &Path,
    options: &map::GenerateOptions,
    tileset: String,
    force: bool,
    io: &mut Streams,
) -> anyhow::Result<i32> {
    if out.exists() && !force {
        writeln!(
            io.err,
            "{} exists; pass --force to replace it",
            out.display()
        )?;
        return Ok(EXIT_PROBLEMS);
    }
    let rules = RuleSet::from_spec(&Default::default()).map_err(|p| anyhow::anyhow!("{p:?}"))?;
    let (min, max) = (rules.board.min_side, rules.board.max_side);
    if ![options.width, options.height]
        .iter()
        .all(|&s| (min..=max).contains(&i64::from(s)))
    {
        writeln!(
            io.err,
            "a map is from {min} to {max} cells on each side; {}x{} is not",
            options.width, options.height
        )?;
        return Ok(EXIT_PROBLEMS);
    }
    let mut map = match map::generate(options) {
        Ok(map) => map,
        Err(e) => {
            writeln!(io.err, "{e}")?;
            return Ok(EXIT_PROBLEMS);
        }
    };
    map.tileset = tileset;
    map.save(out)
        .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", out.display()))?;
    writeln!(
        io.out,
        "wrote {} ({}x{}, seed {})",
        out.display(),
        options.width,
        options.height,
        options.seed
    )?;
    Ok(0)
}
