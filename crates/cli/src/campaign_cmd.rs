//! `scryptic campaign DIR`: a campaign's maps played in order at one keyboard, the scripts'
//! storage carried from each chapter to the next.
//!
//! The storage each chapter started with is kept in a progress file (in the data folder, or
//! `--progress FILE`), so that a lost or abandoned campaign resumes at any chapter reached
//! (`--chapter N`), and a saved chapter game resumes where it was saved (`--continue SAVE`).

use super::play_cmd::{AfterEnd, Left, Table};
use super::{EXIT_PROBLEMS, Streams};
use crate::board::Player;
use crate::lexicon::Lexicon;
use crate::map::Map;
use crate::pack::{Catalog, Choice, Level, LevelError};
use crate::script::ScriptedGame;
use crate::script::live::LiveFiles;
use crate::{fsutil, ronfile};
use clap::Args;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::Arc;

#[derive(Args, Debug)]
pub(super) struct CampaignArgs {
    /// A folder of campaign maps, played in the order of their file names.
    #[arg(required_unless_present = "pack")]
    folder: Option<PathBuf>,
    /// A pack's campaign mode instead: its id (or folder), and which mode (`wending:campaign`).
    #[arg(long, value_name = "ID[:MODE]", conflicts_with = "folder")]
    pack: Option<String>,
    #[command(flatten)]
    picks: super::pack_cmd::PackPicks,
    /// The seed for the first chapter (each chapter adds one).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Start at this chapter (from 1), with the storage it started with when it was reached.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..), conflicts_with = "resume")]
    chapter: Option<u32>,
    /// Continue a chapter's game saved with `save FILE`, then go on from it.
    #[arg(long = "continue", value_name = "SAVE")]
    resume: Option<PathBuf>,
    /// The progress file (default: campaigns/FOLDER.ron in the data folder,
    /// $SCRYPTIC_DATA or $XDG_DATA_HOME/scryptic or ~/.local/share/scryptic).
    #[arg(long, value_name = "FILE")]
    progress: Option<PathBuf>,
}

/// The version of progress files this build writes and reads.
const PROGRESS_VERSION: u32 = 1;

/// What a campaign remembers between sittings: the storage each chapter reached started with.
#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Progress {
    version: u32,
    /// The storage (JSON) at the start of chapter 1, 2, ... as far as the campaign got.
    chapters: Vec<String>,
}

impl Progress {
    fn load(path: &Path) -> Result<Progress, Vec<String>> {
        if !path.exists() {
            return Ok(Progress {
                version: PROGRESS_VERSION,
                chapters: Vec::new(),
            });
        }
        let text = fsutil::read_text(path).map_err(|e| e.problems())?;
        let progress: Progress = ronfile::parse(path, &text).map_err(|e| e.problems())?;
        if progress.version != PROGRESS_VERSION {
            return Err(vec![format!(
                "{}: progress version {} is not one this build reads ({PROGRESS_VERSION})",
                path.display(),
                progress.version
            )]);
        }
        Ok(progress)
    }

    /// Records that chapter `index` (from 0) started with `storage`; later chapters are
    /// forgotten, since a new run of this one changes what they start with.
    fn reached(&mut self, index: usize, storage: &str, path: &Path) -> anyhow::Result<()> {
        self.chapters.truncate(index);
        self.chapters.push(storage.to_string());
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let text = ronfile::to_canonical(self, 2)?;
        fsutil::write_atomic(path, text.as_bytes())
            .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))
    }
}

/// Where a campaign's progress is kept by default: by the folder's name, or the pack's id and
/// mode.
fn default_progress(chapters: &Chapters) -> Option<PathBuf> {
    let name = match chapters {
        Chapters::Folder { folder, .. } => std::fs::canonicalize(folder)
            .ok()?
            .file_name()?
            .to_string_lossy()
            .into_owned(),
        Chapters::Pack { choice, .. } => format!("{}.{}", choice.pack, choice.mode),
    };
    Some(
        super::data_dir()?
            .join("campaigns")
            .join(format!("{name}.ron")),
    )
}

/// Where a campaign's chapters come from.
enum Chapters {
    /// A folder of maps, in file-name order.
    Folder {
        folder: PathBuf,
        maps: Vec<PathBuf>,
        catalog: Catalog,
    },
    /// A pack's campaign mode.
    Pack {
        catalog: Catalog,
        choice: Choice,
        count: usize,
        /// Kept while the campaign is played: an archive's unpacked files.
        _opened: super::pack_cmd::Opened,
    },
}

impl Chapters {
    /// The chapters the arguments name; `None` after saying why not.
    fn from_args(args: &CampaignArgs, io: &mut Streams) -> anyhow::Result<Option<Chapters>> {
        let (mut catalog, _) = Catalog::discover();
        if let Some(spec) = &args.pack {
            let Some((mut choice, opened)) =
                super::pack_cmd::choose(spec, None, &args.picks, &mut catalog, io)?
            else {
                return Ok(None);
            };
            let count = match chapter_count(&catalog, &mut choice) {
                Ok(count) => count,
                Err(e) => {
                    writeln!(io.err, "{e}")?;
                    return Ok(None);
                }
            };
            return Ok(Some(Chapters::Pack {
                catalog,
                choice,
                count,
                _opened: opened,
            }));
        }
        let folder = args.folder.clone().unwrap_or_default();
        let maps = chapter_maps(&folder)?;
        if maps.is_empty() {
            writeln!(io.err, "{} holds no maps", folder.display())?;
            return Ok(None);
        }
        Ok(Some(Chapters::Folder {
            folder,
            maps,
            catalog,
        }))
    }

    fn len(&self) -> usize {
        match self {
            Chapters::Folder { maps, .. } => maps.len(),
            Chapters::Pack { count, .. } => *count,
        }
    }

    /// The level of chapter `index` (from 0).
    fn level(&self, index: usize) -> Result<Level, LevelError> {
        match self {
            Chapters::Folder { maps, catalog, .. } => {
                Level::from_map_file(&maps[index], None, catalog)
            }
            Chapters::Pack {
                catalog, choice, ..
            } => Level::from_pack(
                catalog,
                &Choice {
                    chapter: index,
                    ..choice.clone()
                },
            ),
        }
    }

    /// How the command line names this campaign (`maps/x` or `--pack wending:campaign`).
    fn named(&self) -> String {
        match self {
            Chapters::Folder { folder, .. } => folder.display().to_string(),
            Chapters::Pack { choice, .. } => format!("--pack {}:{}", choice.pack, choice.mode),
        }
    }
}

/// How many chapters the pack's mode has; fills in the mode when none was named.
fn chapter_count(catalog: &Catalog, choice: &mut Choice) -> Result<usize, LevelError> {
    let packs = catalog.resolve(&[choice.pack.as_str()])?;
    let Some(pack) = packs.iter().find(|p| p.id() == choice.pack) else {
        return Ok(0);
    };
    let campaigns: Vec<&str> = pack
        .manifest
        .modes
        .iter()
        .filter(|m| !m.campaign.is_empty())
        .map(|m| m.id.as_str())
        .collect();
    let named = if choice.mode.is_empty() {
        // No mode named: the pack's first campaign, not its first mode.
        campaigns.first().copied().unwrap_or_default()
    } else {
        choice.mode.as_str()
    };
    let mode = crate::pack::level::find_mode(&pack.manifest, named)?;
    if mode.campaign.is_empty() {
        let id = &choice.pack;
        return Err(LevelError::Setting(match campaigns.as_slice() {
            [] => format!(
                "pack {id} has no campaign: play its modes with `scryptic play --pack {id}:MODE`"
            ),
            some => format!(
                "{id}'s mode `{}` is not a campaign: its campaigns are {} (`scryptic campaign --pack {id}:{}`)",
                mode.id,
                some.join(", "),
                some[0]
            ),
        }));
    }
    choice.mode = mode.id.clone();
    Ok(crate::pack::level::boards(&packs, pack, mode)?.len())
}

fn chapter_maps(folder: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let mut maps: Vec<PathBuf> = std::fs::read_dir(folder)
        .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", folder.display()))?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "ron"))
        .collect();
    maps.sort();
    Ok(maps)
}

/// Plays a campaign's maps in order; gold must win each chapter to go on.
pub(super) fn campaign(args: CampaignArgs, io: &mut Streams) -> anyhow::Result<i32> {
    let Some(chapters) = Chapters::from_args(&args, io)? else {
        return Ok(EXIT_PROBLEMS);
    };
    let Some(progress_path) = args
        .progress
        .clone()
        .or_else(|| default_progress(&chapters))
    else {
        writeln!(
            io.err,
            "no data folder to keep the campaign's progress in: set SCRYPTIC_DATA or give --progress FILE"
        )?;
        return Ok(EXIT_PROBLEMS);
    };
    let mut progress = match Progress::load(&progress_path) {
        Ok(progress) => progress,
        Err(problems) => {
            for p in problems {
                writeln!(io.err, "{p}")?;
            }
            return Ok(EXIT_PROBLEMS);
        }
    };
    let lexicon = Arc::new(Lexicon::english());
    let mut run = Run {
        args: &args,
        chapters: &chapters,
        progress: &mut progress,
        progress_path: &progress_path,
        lexicon,
    };
    run.play(io)
}

/// One sitting of a campaign.
struct Run<'a> {
    args: &'a CampaignArgs,
    chapters: &'a Chapters,
    progress: &'a mut Progress,
    progress_path: &'a Path,
    lexicon: Arc<Lexicon>,
}

impl Run<'_> {
    fn play(&mut self, io: &mut Streams) -> anyhow::Result<i32> {
        let (first, mut game) = match self.opening(io)? {
            Some(opening) => opening,
            None => return Ok(EXIT_PROBLEMS),
        };
        let mut table = Table::new(io, AfterEnd::NextChapter);
        for index in first..self.chapters.len() {
            let (mut scripted, live) = match game.take() {
                Some(resumed) => (resumed, LiveFiles::none()),
                None => match self.start_chapter(index, io)? {
                    Some(started) => started,
                    None => return Ok(EXIT_PROBLEMS),
                },
            };
            writeln!(
                io.out,
                "== {} ({} of {}): type `help` for the commands.",
                scripted.game().map().name,
                index + 1,
                self.chapters.len()
            )?;
            let left = table.play(&mut scripted, &live, io)?;
            let won = scripted.game().result().and_then(|r| r.winner) == Some(Player::Gold);
            let chapter = index + 1;
            if scripted.game().result().is_some() && !won {
                writeln!(
                    io.out,
                    "the campaign is lost here; play this chapter again with `scryptic campaign {} --chapter {chapter}`",
                    self.chapters.named()
                )?;
                return Ok(0);
            }
            if left == Left::Unfinished {
                writeln!(
                    io.out,
                    "the campaign stops here; `--chapter {chapter}` starts this chapter again, or save the game and `--continue` it"
                )?;
                return Ok(0);
            }
            // The chapter is won: the next is reached now, whether the person goes on at
            // once or quits (one truth about progress: what the message below promises).
            // Storage refuses what it cannot keep when it is stored, so only its size can
            // fail here; then the next chapter gets what this one began with.
            let (storage, unstored) = scripted.storage_to_carry();
            if let Some(e) = unstored {
                writeln!(
                    io.out,
                    "this chapter's storage cannot be carried on ({e}); the next chapter gets the storage this one began with"
                )?;
            }
            if chapter < self.chapters.len() {
                self.progress
                    .reached(chapter, &storage, self.progress_path)?;
            }
            if left != Left::Next && chapter < self.chapters.len() {
                writeln!(
                    io.out,
                    "the campaign stops here; `--chapter {}` goes on",
                    chapter + 1
                )?;
                return Ok(0);
            }
        }
        writeln!(io.out, "the campaign is won")?;
        Ok(0)
    }

    /// The chapter to begin with, and a game already under way in it (`--continue`).
    fn opening(
        &mut self,
        io: &mut Streams,
    ) -> anyhow::Result<Option<(usize, Option<ScriptedGame>)>> {
        if let Some(save) = &self.args.resume {
            let Some((game, _)) = super::load_saved_game(save, io)? else {
                return Ok(None);
            };
            let Some(index) = self.chapter_of(game.game().map()) else {
                writeln!(
                    io.err,
                    "{}: this game is not on any of the maps of {}",
                    save.display(),
                    self.chapters.named()
                )?;
                return Ok(None);
            };
            return Ok(Some((index, Some(game))));
        }
        let chapter = self.args.chapter.unwrap_or(1) as usize;
        let reached = self.progress.chapters.len().max(1);
        if chapter > self.chapters.len() || chapter > reached {
            writeln!(
                io.err,
                "chapter {chapter} cannot be played yet: the campaign has {} chapters and has reached chapter {reached}",
                self.chapters.len()
            )?;
            return Ok(None);
        }
        Ok(Some((chapter - 1, None)))
    }

    /// Which chapter's map `map` is (a save keeps the map it was played on).
    fn chapter_of(&self, map: &Map) -> Option<usize> {
        (0..self.chapters.len()).find(|&i| self.chapters.level(i).is_ok_and(|l| &l.map == map))
    }

    /// A new game of chapter `index`, with the storage it starts with, and its files watched.
    fn start_chapter(
        &mut self,
        index: usize,
        io: &mut Streams,
    ) -> anyhow::Result<Option<(ScriptedGame, LiveFiles)>> {
        let level = match self.chapters.level(index) {
            Ok(level) => level,
            Err(e) => {
                writeln!(io.err, "{e}")?;
                return Ok(None);
            }
        };
        let storage = self
            .progress
            .chapters
            .get(index)
            .cloned()
            .unwrap_or_default();
        self.progress.reached(index, &storage, self.progress_path)?;
        let seed = self.args.seed + index as u64;
        let (scripted, problems) =
            ScriptedGame::start_level(&level, self.lexicon.clone(), seed, Some(storage.as_str()))?;
        for p in &problems {
            writeln!(io.err, "{p}")?;
        }
        let live = LiveFiles::for_level(&scripted, &level);
        Ok(Some((scripted, live)))
    }
}
