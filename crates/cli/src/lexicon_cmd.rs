//! `scryptic lexicon build | check | query | stats`.

use super::{EXIT_PROBLEMS, Streams, print_json};
use crate::diag::LoadError;
use crate::lexicon::{Lexicon, LexiconStats};
use clap::{Args, Subcommand};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::time::Instant;

#[derive(Subcommand, Debug)]
pub(super) enum LexiconCommand {
    /// Check a word list and compile it into a dictionary file (an fst), reporting its size.
    Build {
        /// The word list: one lowercase word per line (default: lexicon/words.txt).
        #[arg(default_value = "lexicon/words.txt")]
        words: PathBuf,
        /// Where to write the compiled dictionary (load it with --lexicon).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Say for each word whether the dictionary has it, its base forms and its connotations.
    Check {
        /// Words to check.
        #[arg(required = true)]
        words: Vec<String>,
        #[command(flatten)]
        source: Source,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Search the dictionary.
    Query {
        #[command(flatten)]
        search: Search,
        /// Edits allowed with --fuzzy (1 or 2).
        #[arg(long, default_value_t = 1)]
        distance: u32,
        /// With --anagram: only words that use the whole rack.
        #[arg(long)]
        exact: bool,
        /// The most words to print.
        #[arg(long, default_value_t = 50)]
        limit: usize,
        #[command(flatten)]
        source: Source,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Sizes of the dictionary and the connotation lists.
    Stats {
        #[command(flatten)]
        source: Source,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
}

/// Which search to run: exactly one.
#[derive(Args, Debug)]
#[group(id = "search", required = true, multiple = false)]
pub(super) struct Search {
    /// Words starting with P.
    #[arg(long, value_name = "P")]
    prefix: Option<String>,
    /// Words one or two edits away from W (see --distance).
    #[arg(long, value_name = "W")]
    fuzzy: Option<String>,
    /// Words matching P: `?` is one letter, `*` any letters (quote it from the shell).
    #[arg(long, value_name = "P")]
    pattern: Option<String>,
    /// Words a rack can make (`?` is a blank); longest first.
    #[arg(long, value_name = "RACK")]
    anagram: Option<String>,
}

/// Which lexicon to use.
#[derive(Args, Debug)]
pub(super) struct Source {
    /// A lexicon folder (like lexicon/: words.txt, connotations/), a word list (.txt) or a
    /// compiled dictionary (.fst). Default: the English lexicon built into scryptic.
    #[arg(long, value_name = "PATH")]
    lexicon: Option<PathBuf>,
    /// A mod folder whose extra-words.txt and connotations/*.txt are added.
    #[arg(long, value_name = "DIR")]
    r#mod: Vec<PathBuf>,
}

impl Source {
    fn open(&self, io: &mut Streams) -> anyhow::Result<Option<Lexicon>> {
        let mut opened = match &self.lexicon {
            None => Ok((Lexicon::english(), Vec::new())),
            Some(path) => open_path(path),
        };
        if let Ok((lexicon, warnings)) = &mut opened {
            for dir in &self.r#mod {
                match lexicon.extend_from_dir(dir) {
                    Ok(more) => warnings.extend(more),
                    Err(e) => {
                        opened = Err(e);
                        break;
                    }
                }
            }
        }
        match opened {
            Ok((lexicon, warnings)) => {
                for w in warnings {
                    writeln!(io.err, "warning: {w}")?;
                }
                Ok(Some(lexicon))
            }
            Err(e) => {
                for p in e.problems() {
                    writeln!(io.err, "{p}")?;
                }
                Ok(None)
            }
        }
    }
}

fn open_path(path: &Path) -> Result<(Lexicon, Vec<crate::diag::FileError>), LoadError> {
    if path.is_dir() {
        Lexicon::load_dir(path)
    } else if path.extension().is_some_and(|e| e == "fst") {
        Ok((Lexicon::load_fst(path)?, Vec::new()))
    } else {
        Lexicon::from_word_list(path, &crate::fsutil::read_text(path)?)
    }
}

pub(super) fn run(cmd: LexiconCommand, io: &mut Streams) -> anyhow::Result<i32> {
    match cmd {
        LexiconCommand::Build { words, out, json } => build(&words, out.as_deref(), json, io),
        LexiconCommand::Check {
            words,
            source,
            json,
        } => {
            let Some(lexicon) = source.open(io)? else {
                return Ok(EXIT_PROBLEMS);
            };
            check(&lexicon, &words, json, io)
        }
        LexiconCommand::Query {
            search,
            distance,
            exact,
            limit,
            source,
            json,
        } => {
            let Some(lexicon) = source.open(io)? else {
                return Ok(EXIT_PROBLEMS);
            };
            query(&lexicon, &search, distance, exact, limit, json, io)
        }
        LexiconCommand::Stats { source, json } => {
            let Some(lexicon) = source.open(io)? else {
                return Ok(EXIT_PROBLEMS);
            };
            stats(&lexicon.stats(), json, io)
        }
    }
}

#[derive(Serialize)]
struct BuildReport {
    words: usize,
    bytes: usize,
    milliseconds: f64,
    out: Option<PathBuf>,
    warnings: Vec<String>,
}

fn build(words: &Path, out: Option<&Path>, json: bool, io: &mut Streams) -> anyhow::Result<i32> {
    let started = Instant::now();
    let built =
        crate::fsutil::read_text(words).and_then(|text| Lexicon::from_word_list(words, &text));
    let (lexicon, warnings) = match built {
        Ok(built) => built,
        Err(e) => {
            for p in e.problems() {
                writeln!(io.err, "{p}")?;
            }
            return Ok(EXIT_PROBLEMS);
        }
    };
    let milliseconds = started.elapsed().as_secs_f64() * 1000.0;
    if let Some(out) = out {
        crate::fsutil::write_atomic(out, lexicon.dictionary_bytes())
            .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", out.display()))?;
    }
    let report = BuildReport {
        words: lexicon.len(),
        bytes: lexicon.dictionary_bytes().len(),
        milliseconds,
        out: out.map(Path::to_path_buf),
        warnings: warnings.iter().map(ToString::to_string).collect(),
    };
    if json {
        print_json(io.out, &report)?;
    } else {
        for w in &report.warnings {
            writeln!(io.err, "warning: {w}")?;
        }
        let target = out
            .map(|o| format!(" into {}", o.display()))
            .unwrap_or_default();
        writeln!(
            io.out,
            "built {} words, {} bytes{target} in {milliseconds:.0} ms",
            report.words, report.bytes
        )?;
    }
    Ok(0)
}

#[derive(Serialize)]
struct WordReport {
    word: String,
    valid: bool,
    base_forms: Vec<String>,
    connotations: Vec<String>,
}

fn check(lexicon: &Lexicon, words: &[String], json: bool, io: &mut Streams) -> anyhow::Result<i32> {
    let reports: Vec<WordReport> = words
        .iter()
        .map(|w| WordReport {
            word: w.clone(),
            valid: lexicon.contains(w),
            base_forms: lexicon.base_forms(w),
            connotations: lexicon
                .connotations(w)
                .into_iter()
                .map(str::to_string)
                .collect(),
        })
        .collect();
    if json {
        print_json(io.out, &reports)?;
    } else {
        for r in &reports {
            let verdict = if r.valid { "word" } else { "not a word" };
            let base = if r.base_forms.is_empty() {
                String::new()
            } else {
                format!("; base form {}", r.base_forms.join(", "))
            };
            let meaning = if r.connotations.is_empty() {
                String::new()
            } else {
                format!("; {}", r.connotations.join(", "))
            };
            writeln!(
                io.out,
                "{}: {verdict}{base}{meaning}",
                r.word.to_uppercase()
            )?;
        }
    }
    Ok(if reports.iter().all(|r| r.valid) {
        0
    } else {
        EXIT_PROBLEMS
    })
}

fn query(
    lexicon: &Lexicon,
    q: &Search,
    distance: u32,
    exact: bool,
    limit: usize,
    json: bool,
    io: &mut Streams,
) -> anyhow::Result<i32> {
    let found = if let Some(p) = &q.prefix {
        Ok(lexicon.prefix(p, limit))
    } else if let Some(w) = &q.fuzzy {
        lexicon.fuzzy(w, distance, limit)
    } else if let Some(p) = &q.pattern {
        lexicon.pattern(p, limit)
    } else if let Some(rack) = &q.anagram {
        lexicon.anagrams(rack, !exact, limit)
    } else {
        Ok(Vec::new())
    };
    let words = match found {
        Ok(words) => words,
        Err(e) => {
            writeln!(io.err, "error: {e}")?;
            return Ok(EXIT_PROBLEMS);
        }
    };
    if json {
        print_json(io.out, &words)?;
    } else {
        for w in &words {
            writeln!(io.out, "{w}")?;
        }
    }
    Ok(0)
}

fn stats(stats: &LexiconStats, json: bool, io: &mut Streams) -> anyhow::Result<i32> {
    if json {
        print_json(io.out, stats)?;
        return Ok(0);
    }
    writeln!(
        io.out,
        "dictionary: {} words in {} bytes",
        stats.words, stats.dictionary_bytes
    )?;
    for (name, words) in &stats.lists {
        writeln!(io.out, "connotation {name}: {words} base words")?;
    }
    writeln!(io.out, "irregular base forms: {}", stats.base_forms)?;
    writeln!(io.out, "memory: {} bytes in all", stats.total_bytes)?;
    Ok(0)
}
