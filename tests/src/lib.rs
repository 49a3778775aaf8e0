//! Shared helpers for the end-to-end tests in `tests/tests/`: where the shipped content is,
//! and running the `scryptic` command line the way a user does.

use std::path::{Path, PathBuf};

/// The workspace's root folder (where `maps/`, `tilesets/` and `lexicon/` are).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ sits in the workspace")
        .to_path_buf()
}

/// A city named by its id, at (x, y).
pub fn city(id: &str, x: u32, y: u32, owner: scryptic::Owner) -> scryptic::City {
    scryptic::City {
        id: id.into(),
        name: id.into(),
        at: scryptic::Pos::new(x, y),
        owner,
        bonus: None,
    }
}

/// Gold invoking a `kind` token at `spot` (the spot's id is `spot`).
pub fn invocation(kind: &str, spot: scryptic::Pos) -> scryptic::game::Invocation<'_> {
    scryptic::game::Invocation {
        kind,
        token: "spot",
        spot,
        player: scryptic::Player::Gold,
    }
}

/// Every shipped map file, sorted.
pub fn shipped_maps() -> Vec<PathBuf> {
    let mut maps = Vec::new();
    collect_ron(&root().join("maps"), &mut maps);
    for pack in std::fs::read_dir(root().join("packs"))
        .expect("packs/ is readable")
        .flatten()
    {
        for folder in ["maps", "campaigns"] {
            let dir = pack.path().join(folder);
            if dir.is_dir() {
                collect_ron(&dir, &mut maps);
            }
        }
    }
    maps.sort();
    maps
}

fn collect_ron(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("maps/ is readable").flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect_ron(&path, out);
        } else if path.extension().is_some_and(|e| e == "ron") {
            out.push(path);
        }
    }
}

/// What a command printed and how it exited.
#[derive(Debug)]
pub struct Output {
    /// The exit code.
    pub code: i32,
    /// Standard output.
    pub out: String,
    /// Standard error.
    pub err: String,
}

/// The `scryptic` binary the workspace's tests were built with (beside the test binary that
/// calls this), for tests that run it as a person does (a terminal, a pipe, a network).
pub fn scryptic_binary() -> std::path::PathBuf {
    let exe = std::env::current_exe().expect("a test knows its own binary");
    let dir = exe.parent().and_then(|deps| deps.parent());
    let binary = dir.map(|d| d.join("scryptic")).unwrap_or_default();
    assert!(
        binary.is_file(),
        "{} is built by `cargo test --workspace`",
        binary.display()
    );
    binary
}

/// Pack `id` as the index the server at `address` publishes lists it (`/index.json`).
pub fn published_pack(address: &str, id: &str) -> serde_json::Value {
    let text = ureq::get(format!("{address}/index.json"))
        .call()
        .expect("the server answers")
        .body_mut()
        .read_to_string()
        .expect("an index is text");
    let index: serde_json::Value = serde_json::from_str(&text).expect("an index is JSON");
    index["packs"]
        .as_array()
        .and_then(|packs| packs.iter().find(|p| p["id"] == id))
        .cloned()
        .unwrap_or_else(|| panic!("{address} publishes no pack {id}"))
}

/// A file of the repository by its path from the root, as the command line takes it.
pub fn repo_path(rel: &str) -> String {
    root().join(rel).display().to_string()
}

/// Runs `scryptic ARGS...` in-process, with nothing to read.
pub fn scryptic(args: &[&str]) -> Output {
    scryptic_typing(args, "")
}

/// What `game`'s scripts printed and told since the last look, a line each.
pub fn console_lines(game: &scryptic::script::ScriptedGame) -> Vec<String> {
    let lines = game.host().drain_console();
    lines.iter().map(ToString::to_string).collect()
}

/// Runs `scryptic ARGS...` in-process, as if a person typed `input`.
pub fn scryptic_typing(args: &[&str], input: &str) -> Output {
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let argv = std::iter::once("scryptic").chain(args.iter().copied());
    let code = scryptic::cli::run(argv, &mut input.as_bytes(), &mut out, &mut err);
    Output {
        code,
        out: String::from_utf8_lossy(&out).into_owned(),
        err: String::from_utf8_lossy(&err).into_owned(),
    }
}

/// An allocator that counts, for tests that bound the heap.
pub mod browser;
pub mod counting;
pub mod fuzz;
/// The hostile-script corpus and ways to run it.
pub mod hostile;
pub mod page_play;
pub mod screen;
pub mod scryper;
pub mod serve;

pub mod random_play {
    //! A player that makes random legal moves: enough to drive whole games through the engine
    //! in property tests and benchmarks. It is not the AI; it only looks for some legal word.

    use rand::seq::SliceRandom;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;
    use scryptic::board::{Owner, Pos};
    use scryptic::game::{Action, Game, Placement};
    use scryptic::map::Direction;

    /// Random choices, from a seed.
    pub struct RandomPlayer {
        rng: ChaCha8Rng,
    }

    impl RandomPlayer {
        /// A player whose choices follow from `seed`.
        pub fn new(seed: u64) -> Self {
            RandomPlayer {
                rng: ChaCha8Rng::seed_from_u64(seed),
            }
        }

        /// A legal action for whoever must act in `game`.
        pub fn choose(&mut self, game: &Game) -> Action {
            let player = game.to_act();
            if player != game.active() {
                return Action::Defend { order: None };
            }
            let (_, excess) = game.rack_excess(player);
            if excess > 0 {
                let letters: String = game.rack_letters(player).chars().take(excess).collect();
                return Action::Discard { letters };
            }
            if !game.committed_this_turn() {
                if let Some(token) = self.token_to_invoke(game) {
                    return Action::Invoke { token };
                }
                if let Some(letters) = self.find_commit(game) {
                    return Action::Commit { letters };
                }
            }
            Action::EndTurn
        }

        fn token_to_invoke(&mut self, game: &Game) -> Option<String> {
            let tokens: Vec<String> = game
                .player(game.active())
                .tokens()
                .map(|(id, _)| id.to_string())
                .collect();
            (!tokens.is_empty() && self.rng.random_range(0..4) == 0).then(|| tokens[0].clone())
        }

        /// Some legal commit: a word the rack can make, laid through a connected letter or an
        /// owned city.
        fn find_commit(&mut self, game: &Game) -> Option<Vec<Placement>> {
            let player = game.active();
            let rack = game.rack_letters(player);
            let mut words = game.lexicon().anagrams(&rack, true, 2000).ok()?;
            words.retain(|w| w.len() >= 2);
            words.shuffle(&mut self.rng);
            words.truncate(15);
            let connected = game.connected_grid(player);
            let board = game.board();
            let mut anchors: Vec<Pos> = board
                .letters
                .positions()
                .filter(|&p| connected[p])
                .collect();
            anchors.extend(
                board
                    .cities
                    .iter()
                    .filter(|c| !c.destroyed && c.owner == Owner::from(player))
                    .map(|c| c.at),
            );
            anchors.shuffle(&mut self.rng);
            anchors.truncate(8);
            for word in &words {
                let word = word.to_ascii_uppercase();
                for &anchor in &anchors {
                    for dir in [Direction::Across, Direction::Down] {
                        for (i, ch) in word.chars().enumerate() {
                            if board.letters[anchor].is_some_and(|t| t.letter != ch) {
                                continue;
                            }
                            if let Some(letters) = lay(game, &word, anchor, dir, i)
                                && game.preview_commit(&letters).is_ok()
                            {
                                return Some(letters);
                            }
                        }
                    }
                }
            }
            None
        }
    }

    /// The placements that write `word` with its letter `i` on `anchor`, keeping own letters.
    fn lay(
        game: &Game,
        word: &str,
        anchor: Pos,
        dir: Direction,
        i: usize,
    ) -> Option<Vec<Placement>> {
        let back = u32::try_from(i).ok()?;
        let start = match dir {
            Direction::Across => Pos::new(anchor.x.checked_sub(back)?, anchor.y),
            Direction::Down => Pos::new(anchor.x, anchor.y.checked_sub(back)?),
        };
        let player = game.active();
        let mut letters = Vec::new();
        for (k, letter) in word.chars().enumerate() {
            let at = dir.step(start, u32::try_from(k).ok()?)?;
            match game.board().letters.get(at)? {
                Some(t) if t.player == player && t.letter == letter => {}
                Some(t) if t.player == player => return None,
                _ => letters.push(Placement { at, letter }),
            }
        }
        (!letters.is_empty()).then_some(letters)
    }
}

pub mod golden {
    //! The move generator's golden baseline (`tests/golden/movegen.ron`): positions kept as
    //! saved games, with the number of placements a rack has in each. The golden test checks
    //! the counts and the AI benchmarks time the same positions.

    use scryptic::game::Game;
    use scryptic::lexicon::Lexicon;
    use scryptic::save::SaveFile;
    use serde::{Deserialize, Serialize};
    use std::path::{Path, PathBuf};
    use std::sync::Arc;

    /// One position of the baseline.
    #[derive(Clone, Debug, Serialize, Deserialize)]
    pub struct Position {
        /// What the position is.
        pub name: String,
        /// Its saved game, in `tests/golden/`.
        pub save: String,
        /// The rack whose placements are counted (for the player to move).
        pub rack: String,
        /// How many legal placements the rack has.
        pub placements: usize,
    }

    /// Every position of the baseline.
    #[derive(Clone, Debug, Default, Serialize, Deserialize)]
    pub struct Baseline {
        /// The positions.
        pub positions: Vec<Position>,
    }

    impl Baseline {
        /// Reads the baseline file.
        pub fn load(path: &Path) -> Baseline {
            let text = std::fs::read_to_string(path).expect("the golden baseline is readable");
            ron::from_str(&text).expect("the golden baseline parses")
        }

        /// Writes the baseline file.
        pub fn save(&self, path: &Path) -> std::io::Result<()> {
            let config = ron::ser::PrettyConfig::default();
            let text = ron::ser::to_string_pretty(self, config).map_err(std::io::Error::other)?;
            std::fs::write(path, text + "\n")
        }
    }

    /// Where the baseline file is.
    pub fn baseline_path() -> PathBuf {
        super::root().join("tests/golden/movegen.ron")
    }

    /// The game at `position`, replayed from its save.
    pub fn load_position(position: &Position) -> Game {
        let path = super::root().join("tests/golden").join(&position.save);
        let save = SaveFile::load(&path).expect("the golden save loads");
        save.replay(Arc::new(Lexicon::english()), Some(scryptic::ai::spy()))
            .expect("the golden save replays")
            .0
    }
}

/// A game of a shipped pack's mode (`packs/ID`), started as every client starts one, with
/// settings as typed (`("of_each", "1")`).
pub fn pack_game(id: &str, seed: u64, set: &[(&str, &str)]) -> scryptic::script::ScriptedGame {
    let level = pack_level(id, set);
    let lexicon = std::sync::Arc::new(scryptic::lexicon::Lexicon::english());
    let (game, problems) = scryptic::script::ScriptedGame::start_level(&level, lexicon, seed, None)
        .expect("the game starts");
    assert!(problems.is_empty(), "{problems:?}");
    game
}

/// The level of the first mode (its first chapter) of the shipped pack `packs/ID`, with the
/// settings `set`.
pub fn pack_level(id: &str, set: &[(&str, &str)]) -> scryptic::pack::Level {
    let (mut catalog, _) = scryptic::pack::Catalog::discover();
    let pack = scryptic::pack::Pack::open(&root().join("packs").join(id)).expect("the pack opens");
    catalog.add(pack).expect("a shipped pack's id is its own");
    let choice = scryptic::pack::level::Choice {
        pack: id.to_string(),
        set: set
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        ..Default::default()
    };
    scryptic::pack::Level::from_pack(&catalog, &choice).expect("the level assembles")
}

/// The game's kind of generator, seeded: what a token's effect draws from.
pub fn rng(seed: u64) -> rand_chacha::ChaCha8Rng {
    <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(seed)
}
