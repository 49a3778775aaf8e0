//! The hostile packs of the corpus (`tests/hostile/packs/`): each folder is an attack, packs a
//! stranger might send, with `attack.ron` saying what it tries and the steps a player or an
//! author would take with it (the command line, or a game of a pack's mode), each of which
//! must be refused or stopped with the message it names. A file whose name cannot be kept in
//! the repository on every system is written with `%3A` for a colon and made when the attack
//! is copied out to be run.
#![allow(
    clippy::unwrap_used,
    reason = "tests and benchmarks unwrap: a panic there is a failure"
)]

use scryptic_tests::{root, scryptic};
use serde::Deserialize;
use std::path::{Path, PathBuf};

#[derive(Deserialize)]
struct Attack {
    steps: Vec<Step>,
}

#[derive(Deserialize)]
enum Step {
    /// `scryptic ARGS...` (`{dir}`: the attack's folder; `{installed}`: a packs folder of its
    /// own): its exit code, and texts its output and its errors must hold.
    Cli {
        args: Vec<String>,
        code: i32,
        #[serde(default)]
        out: Vec<String>,
        #[serde(default)]
        err: Vec<String>,
    },
    /// The pack folder `pack` as a zip `to`, written entry by entry as found (a `pack zip` would
    /// refuse what the attack holds).
    Zip { pack: String, to: String },
    /// A game of the first mode of `pack`, with every pack of the attack and the built-in ones
    /// found: `refused` if the level or the catalog must refuse it (texts the refusal holds),
    /// else the texts the start's script errors must hold, and what the scripts told.
    Play {
        pack: String,
        #[serde(default)]
        refused: Vec<String>,
        #[serde(default)]
        errors: Vec<String>,
        #[serde(default)]
        told: Vec<String>,
    },
}

/// Every attack of the corpus.
fn attacks() -> Vec<PathBuf> {
    let dir = root().join("tests/hostile/packs");
    let mut all: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("attack.ron").is_file())
        .collect();
    all.sort();
    all
}

/// Copies `from` into `to`, a `%3A` in a name becoming a colon.
fn copy_out(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name().to_string_lossy().replace("%3A", ":");
        if entry.path().is_dir() {
            copy_out(&entry.path(), &to.join(name));
        } else {
            std::fs::copy(entry.path(), to.join(name)).unwrap();
        }
    }
}

/// Every file under `dir` as a zip at `to`, under a top folder named as `dir`.
fn zip_raw(dir: &Path, to: &Path) {
    use std::io::Write;
    let top = dir.file_name().unwrap().to_string_lossy().into_owned();
    let mut zip = zip::ZipWriter::new(std::fs::File::create(to).unwrap());
    let mut stack = vec![(dir.to_path_buf(), top)];
    while let Some((folder, prefix)) = stack.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let entry = entry.unwrap();
            let name = format!("{prefix}/{}", entry.file_name().to_string_lossy());
            if entry.path().is_dir() {
                stack.push((entry.path(), name));
            } else {
                zip.start_file(name, zip::write::SimpleFileOptions::default())
                    .unwrap();
                zip.write_all(&std::fs::read(entry.path()).unwrap())
                    .unwrap();
            }
        }
    }
    zip.finish().unwrap();
}

fn holds_all(text: &str, wanted: &[String]) -> bool {
    wanted.iter().all(|w| text.contains(w.as_str()))
}

/// Plays the first mode of `pack` with the attack's packs: the refusal, or the start's script
/// errors and what the scripts told.
fn play(dir: &Path, pack: &str) -> Result<(Vec<String>, Vec<String>), String> {
    use scryptic::pack::{Catalog, Choice, Level, Pack};
    let mut catalog = Catalog::new(vec![scryptic::pack::core().unwrap()]);
    for entry in std::fs::read_dir(dir).unwrap() {
        let folder = entry.unwrap().path();
        if folder.join("pack.ron").is_file() {
            let opened = Pack::open(&folder).map_err(|e| e.to_string())?;
            catalog.add(opened).map_err(|e| e.to_string())?;
        }
    }
    let choice = Choice {
        pack: pack.to_string(),
        ..Choice::default()
    };
    let level = Level::from_pack(&catalog, &choice).map_err(|e| e.to_string())?;
    let lexicon = std::sync::Arc::new(scryptic::lexicon::Lexicon::english());
    let (game, problems) = scryptic::script::ScriptedGame::start_level(&level, lexicon, 1, None)
        .map_err(|e| e.to_string())?;
    Ok((problems, scryptic_tests::console_lines(&game)))
}

/// Runs one step of `attack` (its copy is `dir`).
fn check(attack: &str, dir: &Path, installed: &Path, step: &Step) {
    match step {
        Step::Cli {
            args,
            code,
            out,
            err,
        } => {
            let args: Vec<String> = args
                .iter()
                .map(|a| {
                    a.replace("{dir}", &dir.display().to_string())
                        .replace("{installed}", &installed.display().to_string())
                })
                .collect();
            let refs: Vec<&str> = args.iter().map(String::as_str).collect();
            let o = scryptic(&refs);
            assert!(
                o.code == *code && holds_all(&o.out, out) && holds_all(&o.err, err),
                "{attack}: `scryptic {}` should exit {code} saying {out:?} / {err:?}: {o:?}",
                args.join(" ")
            );
        }
        Step::Zip { pack, to } => zip_raw(&dir.join(pack), &dir.join(to)),
        Step::Play {
            pack,
            refused,
            errors,
            told,
        } => match play(dir, pack) {
            Err(refusal) => assert!(
                !refused.is_empty() && holds_all(&refusal, refused),
                "{attack}: playing {pack} should say {refused:?}: {refusal}"
            ),
            Ok((problems, console)) => {
                assert!(refused.is_empty(), "{attack}: {pack} played: {problems:?}");
                let problems = problems.join("\n");
                assert!(
                    holds_all(&problems, errors) && (!errors.is_empty() || problems.is_empty()),
                    "{attack}: the start should fail with {errors:?}: {problems}"
                );
                let console = console.join("\n");
                assert!(
                    holds_all(&console, told),
                    "{attack}: the scripts should tell {told:?}: {console}"
                );
            }
        },
    }
}

#[test]
fn every_hostile_pack_is_refused_or_stopped() {
    let all = attacks();
    assert!(all.len() >= 3, "the attacks are in tests/hostile/packs");
    for folder in all {
        let attack = folder.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(folder.join("attack.ron")).unwrap();
        let plan: Attack =
            ron::from_str(&text).unwrap_or_else(|e| panic!("{attack}/attack.ron: {e}"));
        let work = tempfile::tempdir().unwrap();
        let dir = work.path().join("packs");
        copy_out(&folder, &dir);
        let installed = work.path().join("installed");
        for step in &plan.steps {
            check(&attack, &dir, &installed, step);
        }
        let left = std::fs::read_dir(&installed).map_or(0, Iterator::count);
        assert_eq!(left, 0, "{attack}: something was installed");
    }
}
