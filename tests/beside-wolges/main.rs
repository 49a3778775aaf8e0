//! The strongest placement beside wolges' best move, in one process: every golden position of
//! `tests/golden/movegen.ron`, its letters also put on a plain wolges board of the same size
//! (wolges knows no terrain and shares every letter), the same rack, the same word list.
//! Built and run by `tests/beside-wolges/run`, never by the workspace (wolges is not a
//! dependency of the toolkit). The two are timed in alternating rounds, so that a machine's
//! drift falls on both alike; each figure is the median of the rounds' means.
#![allow(clippy::unwrap_used, reason = "a measuring tool: a panic is a failure")]

use scryptic_ai::MoveGen;
use scryptic_ai::spy::strongest;
use scryptic_core::board::Pos;
use scryptic_core::game::Game;
use scryptic_core::lexicon::Lexicon;
use scryptic_core::save::SaveFile;
use serde::Deserialize;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};
use wolges::{display, game_config, klv, kwg, movegen};

/// Rounds per position and side, and how long a round runs.
const ROUNDS: usize = 15;
const ROUND: Duration = Duration::from_millis(200);

fn main() {
    let kwg_path = std::env::args()
        .nth(1)
        .expect("usage: beside-wolges WORDS.kwg [FILTER]");
    let filter = std::env::args().nth(2).unwrap_or_default();
    // `BESIDE_WOLGES_PROFILE=toolkit:1000` (or `wolges:1000`): that many calls of one side.
    let profiled = std::env::var("BESIDE_WOLGES_PROFILE").ok().map(|v| {
        let (side, calls) = v.split_once(':').expect("SIDE:CALLS");
        (
            side.to_string(),
            calls.parse::<usize>().expect("a number of calls"),
        )
    });
    let kwg = kwg::Kwg::<kwg::Node22>::from_bytes_alloc(&std::fs::read(kwg_path).unwrap());
    let klv = klv::Klv::<kwg::Node22>::from_bytes_alloc(klv::EMPTY_KLV_BYTES);
    let made = Instant::now();
    let lexicon = Lexicon::english();
    let gaddag = lexicon.gaddag().expect("the shipped words have a GADDAG");
    println!(
        "The toolkit's GADDAG: {} nodes, {:.1} MB, made in {:.2} s (once a process).\n",
        gaddag.len(),
        gaddag.memory() as f64 / 1e6,
        made.elapsed().as_secs_f64()
    );
    let golden = Path::new(env!("SCRYPTIC_ROOT")).join("tests/golden");
    let baseline: Baseline =
        ron::from_str(&std::fs::read_to_string(golden.join("movegen.ron")).unwrap()).unwrap();
    println!(
        "| position, the best only | toolkit (strongest) | wolges (best, max_gen 1) | ratio | \
         placements: toolkit (own letters), wolges (every letter) |"
    );
    println!("| --- | --- | --- | --- | --- |");
    for position in baseline
        .positions
        .iter()
        .filter(|p| p.name.contains(&filter))
    {
        let game = load_position(&golden.join(&position.save));
        let player = game.active();
        let letters = &game.board().letters;
        let (width, height) = (letters.width(), letters.height());
        let rack_size = position.rack.len() as u8;
        let config =
            game_config::make_plain_english_game_config(height as i8, width as i8, rack_size);
        let mut fen_parser = display::BoardFenParser::new(config.alphabet(), config.board_layout());
        let board_tiles = fen_parser
            .parse(&fen(width, height, |x, y| {
                letters
                    .get(Pos::new(x, y))
                    .copied()
                    .flatten()
                    .map(|t| t.letter)
            }))
            .unwrap()
            .to_vec();
        let rack: Vec<u8> = position.rack.bytes().map(|b| b - b'A' + 1).collect();
        let snapshot = movegen::BoardSnapshot {
            board_tiles: &board_tiles,
            game_config: &config,
            kwg: &kwg,
            klv: &klv,
        };
        let mut wolges_gen = movegen::KurniaMoveGenerator::new(&config);
        let mut wolges_moves = |max_gen: usize| {
            wolges_gen.gen_moves_unfiltered(&movegen::GenMovesParams {
                board_snapshot: &snapshot,
                rack: &rack,
                max_gen,
                num_exchanges_by_this_player: i16::MAX,
                always_include_pass: false,
                dynamic_leaves: None,
            });
            wolges_gen.plays.len()
        };
        let wolges_all = wolges_moves(usize::MAX);
        let mut wolges_best = || {
            std::hint::black_box(wolges_moves(1));
        };
        let mut generator = MoveGen::new();
        let toolkit_all = generator.count(&game, player, &position.rack);
        let mut toolkit_best = || {
            std::hint::black_box(strongest(&mut generator, &game, player, &position.rack));
        };
        // First calls make graphs and grow buffers: kept out of the figures.
        toolkit_best();
        wolges_best();
        if let Some((side, calls)) = &profiled {
            // One side only, untimed: for a profiler (callgrind, perf) to look at.
            let call: &mut dyn FnMut() = match side.as_str() {
                "toolkit" => &mut toolkit_best,
                _ => &mut wolges_best,
            };
            (0..*calls).for_each(|_| call());
            continue;
        }
        let (mut ours, mut theirs) = (Vec::new(), Vec::new());
        for _ in 0..ROUNDS {
            ours.push(round(&mut toolkit_best));
            theirs.push(round(&mut wolges_best));
        }
        let (ours, theirs) = (median(ours), median(theirs));
        println!(
            "| {}, {} | {} | {} | {:.2} | {toolkit_all}, {wolges_all} |",
            position.name,
            position.rack,
            show(ours),
            show(theirs),
            ours / theirs
        );
    }
}

/// The golden baseline's positions (the fields this tool reads).
#[derive(Deserialize)]
struct Baseline {
    positions: Vec<Position>,
}

#[derive(Deserialize)]
#[allow(
    dead_code,
    reason = "the baseline's other field, the placements' count, is the golden test's"
)]
struct Position {
    name: String,
    save: String,
    rack: String,
    placements: usize,
}

/// The game of a golden save, replayed as the golden test replays it.
fn load_position(save: &PathBuf) -> Game {
    SaveFile::load(save)
        .unwrap()
        .replay(Arc::new(Lexicon::english()), Some(scryptic_ai::spy()))
        .unwrap()
        .0
}

/// A board in wolges' notation: rows from the top, runs of empty cells as numbers.
fn fen(width: u32, height: u32, letter: impl Fn(u32, u32) -> Option<char>) -> String {
    let rows: Vec<String> = (0..height)
        .map(|y| {
            let mut row = String::new();
            let mut empty = 0;
            for x in 0..width {
                match letter(x, y) {
                    Some(c) => {
                        if empty > 0 {
                            row += &empty.to_string();
                            empty = 0;
                        }
                        row.push(c);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                row += &empty.to_string();
            }
            row
        })
        .collect();
    rows.join("/")
}

/// Seconds a call, over one round.
fn round(call: &mut dyn FnMut()) -> f64 {
    let started = Instant::now();
    let mut calls = 0u32;
    while started.elapsed() < ROUND {
        call();
        calls += 1;
    }
    started.elapsed().as_secs_f64() / f64::from(calls)
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

fn show(seconds: f64) -> String {
    if seconds >= 1e-3 {
        format!("{:.2} ms", seconds * 1e3)
    } else {
        format!("{:.1} us", seconds * 1e6)
    }
}
