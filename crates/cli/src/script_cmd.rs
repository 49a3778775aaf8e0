//! `scryptic script check`: load scripts in a sandboxed host and report their errors.

use super::{EXIT_PROBLEMS, Streams, print_json};
use crate::lexicon::Lexicon;
use crate::save::ScriptSource;
use crate::script::{ScriptHost, ScriptLimits, ScriptedGame};
use clap::Subcommand;
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::sync::Arc;

#[derive(Subcommand, Debug)]
pub(super) enum ScriptCommand {
    /// Load scripts as a level would (with the standard elementals) and report every error
    /// with file and line; with --map, also start a game on the map with its own scripts and
    /// these, and run `game_start`.
    Check {
        /// Lua files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// A map to start a game on.
        #[arg(long)]
        map: Option<PathBuf>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Write the scripting API's definitions: for editors' completion and checks (LuaLS, as
    /// `.luarc.json` in a new pack expects them), or its reference as Markdown or JSON.
    Types {
        /// The file to write [default: types/scryptic.lua, docs/lua-api.md or
        /// docs/lua-api.json, by format].
        #[arg(long)]
        out: Option<PathBuf>,
        /// What to write.
        #[arg(long, value_enum, default_value_t = TypesFormat::Luals)]
        format: TypesFormat,
    },
}

/// The forms of the scripting API's description.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub(super) enum TypesFormat {
    /// LuaLS definitions (`---@meta`), for editors.
    Luals,
    /// The reference page for people.
    Markdown,
    /// The reference for tools.
    Json,
}

impl TypesFormat {
    fn default_out(self) -> &'static str {
        match self {
            TypesFormat::Luals => "types/scryptic.lua",
            TypesFormat::Markdown => "docs/lua-api.md",
            TypesFormat::Json => "docs/lua-api.json",
        }
    }

    fn text(self) -> String {
        match self {
            TypesFormat::Luals => crate::script::api::luals_definitions(),
            TypesFormat::Markdown => crate::script::api_docs::markdown_reference(),
            TypesFormat::Json => crate::script::api_docs::json_reference_text(),
        }
    }
}

#[derive(Serialize, Default)]
struct CheckReport {
    ok: bool,
    errors: Vec<String>,
    tokens: Vec<String>,
    win_conditions: Vec<String>,
    strength_modifiers: Vec<String>,
    console: Vec<String>,
}

pub(super) fn run(cmd: ScriptCommand, io: &mut Streams) -> anyhow::Result<i32> {
    match cmd {
        ScriptCommand::Check { files, map, json } => check(&files, map.as_deref(), json, io),
        ScriptCommand::Types { out, format } => {
            let out = out.unwrap_or_else(|| PathBuf::from(format.default_out()));
            if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::create_dir_all(dir)?;
            }
            crate::fsutil::write_atomic(&out, format.text().as_bytes())
                .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", out.display()))?;
            writeln!(io.out, "wrote {}", out.display())?;
            Ok(0)
        }
    }
}

fn check(
    files: &[PathBuf],
    map: Option<&Path>,
    json: bool,
    io: &mut Streams,
) -> anyhow::Result<i32> {
    let mut report = CheckReport::default();
    let mut sources = Vec::new();
    for file in files {
        match crate::script::read_script_file(file) {
            Ok(source) => sources.push(ScriptSource {
                name: file.display().to_string(),
                source,
            }),
            Err(e) => report.errors.push(e.to_string()),
        }
    }
    let mut host = ScriptHost::with_standard_tokens(ScriptLimits::default(), 1)?;
    for s in &sources {
        if let Err(e) = host.load(&s.name, &s.source) {
            report.errors.push(with_traceback(&e));
        }
    }
    report.tokens = host.token_kinds();
    report.win_conditions = host.win_conditions();
    report.strength_modifiers = host.strength_modifiers();
    report.console = host
        .drain_console()
        .iter()
        .filter(|l| matches!(l, crate::script::ConsoleLine::Output { .. }))
        .map(ToString::to_string)
        .collect();
    if let Some(map_path) = map {
        check_on_map(map_path, sources, &mut report)?;
    }
    report.ok = report.errors.is_empty();
    if json {
        print_json(io.out, &report)?;
    } else {
        // One form for every problem, as the console and `pack check` write them.
        for e in &report.errors {
            writeln!(io.err, "error: {e}")?;
        }
        for line in &report.console {
            writeln!(io.out, "{line}")?;
        }
        if report.ok {
            writeln!(
                io.out,
                "ok: token kinds {}; win conditions {}",
                report.tokens.join(", "),
                if report.win_conditions.is_empty() {
                    "none".into()
                } else {
                    report.win_conditions.join(", ")
                }
            )?;
        }
    }
    Ok(if report.ok { 0 } else { EXIT_PROBLEMS })
}

/// An error with its traceback, indented under it.
fn with_traceback(e: &crate::script::ScriptError) -> String {
    if e.traceback.is_empty() {
        return e.to_string();
    }
    let frames: Vec<String> = e
        .traceback
        .lines()
        .map(|l| format!("    {}", l.trim()))
        .collect();
    format!("{e}\n{}", frames.join("\n"))
}

/// Starts a game on the map (as `play` would: inside a pack, with its pack) with its scripts
/// and `extra`, collecting every error.
fn check_on_map(
    map_path: &Path,
    extra: Vec<ScriptSource>,
    report: &mut CheckReport,
) -> anyhow::Result<()> {
    let (catalog, _) = crate::pack::Catalog::discover();
    let mut level = match crate::pack::Level::from_map_file(map_path, None, &catalog) {
        Ok(level) => level,
        Err(e) => {
            report.errors.push(e.to_string());
            return Ok(());
        }
    };
    let map = level.map.clone();
    level.scripts.extend(extra.into_iter().filter(|s| {
        !map.scripts
            .iter()
            .any(|m| s.name.ends_with(m.trim_start_matches("../")))
    }));
    let (game, problems) =
        ScriptedGame::start_level(&level, Arc::new(Lexicon::english()), 1, None)?;
    report.errors.extend(problems);
    let kinds = game.host().token_kinds();
    for t in &map.tokens {
        if !kinds.contains(&t.kind) {
            report.errors.push(format!(
                "{}: token `{}` is of kind `{}`, which no script defines",
                map_path.display(),
                t.id,
                t.kind
            ));
        }
    }
    Ok(())
}
