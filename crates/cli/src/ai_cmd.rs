//! `scryptic moves` (every legal placement in a saved game) and `scryptic simulate` (AI against
//! AI over many seeds, for balance).

use super::{EXIT_PROBLEMS, Streams, print_json};
use crate::ai::simulate::{self, Rate, Report, Setup};
use crate::ai::{Level, MoveGen, Think};
use crate::game::notation::cell_name;
use clap::Args;
use serde::Serialize;
use std::path::PathBuf;
use std::sync::Arc;

#[derive(Args, Debug)]
pub(super) struct MovesArgs {
    /// The saved game; the placements are those of the player to move, with their rack.
    save: PathBuf,
    /// Print only how many placements there are.
    #[arg(long)]
    count: bool,
    /// Write JSON.
    #[arg(long)]
    json: bool,
    /// The seat to move, whose rack the placements are made from: a rack is its seat's
    /// secret, so the placements are listed only for it.
    #[arg(long = "as", value_name = "SEAT")]
    as_seat: Option<String>,
}

#[derive(Serialize)]
struct MoveReport {
    word: String,
    start: String,
    dir: &'static str,
    placed: Vec<String>,
    face: i64,
    attack: Option<i64>,
}

pub(super) fn moves(args: MovesArgs, io: &mut Streams) -> anyhow::Result<i32> {
    let Some((scripted, _)) = super::load_saved_game(&args.save, io)? else {
        return Ok(EXIT_PROBLEMS);
    };
    let game = scripted.game();
    let player = game.active();
    let asked = args.as_seat.as_deref().map(|seat| game.seat_called(seat));
    match asked {
        Some(Ok(seat)) if seat == player => {}
        Some(Err(e)) => {
            writeln!(io.err, "error: --as: {e}")?;
            return Ok(super::EXIT_USAGE);
        }
        Some(Ok(seat)) => {
            writeln!(
                io.err,
                "error: the placements are made from {player}'s rack, {player}'s secret: give --as {player} (not {seat})"
            )?;
            return Ok(super::EXIT_USAGE);
        }
        None => {
            writeln!(
                io.err,
                "error: the placements are made from the rack of the seat to move, its secret: give --as {player} to list them as {player}"
            )?;
            return Ok(super::EXIT_USAGE);
        }
    }
    let rack = game.rack_letters(player);
    let mut generator = MoveGen::new();
    if args.count {
        let n = generator.count(game, player, &rack);
        if args.json {
            print_json(
                io.out,
                &serde_json::json!({ "player": player, "rack": rack, "count": n }),
            )?;
        } else {
            writeln!(io.out, "{n}")?;
        }
        return Ok(0);
    }
    let mut moves: Vec<MoveReport> = generator
        .all(game, player, &rack)
        .iter()
        .map(|m| MoveReport {
            word: m.word().to_string(),
            start: cell_name(m.start),
            dir: crate::game::describe::dir_name(m.dir),
            placed: m
                .placements()
                .iter()
                .map(|p| format!("{}{}", cell_name(p.at), p.letter))
                .collect(),
            face: m.face(),
            attack: game.attack_strength(&m.placements()).ok().map(|s| s.value),
        })
        .collect();
    moves.sort_by(|a, b| {
        (b.attack, b.face)
            .cmp(&(a.attack, a.face))
            .then(a.word.cmp(&b.word))
    });
    if args.json {
        print_json(
            io.out,
            &serde_json::json!({ "player": player, "rack": rack, "moves": moves }),
        )?;
        return Ok(0);
    }
    writeln!(
        io.out,
        "{} placements for {} (rack {rack}), strongest first:",
        moves.len(),
        player.name()
    )?;
    for m in &moves {
        writeln!(
            io.out,
            "  {:<15} {:>4} {:<6} attack {:>3}  face {:>3}  commit {}",
            m.word,
            m.start,
            m.dir,
            m.attack.unwrap_or(0),
            m.face,
            m.placed.join(" ")
        )?;
    }
    Ok(0)
}

/// What AI games are played on: a map, or a pack's mode, and the rules.
#[derive(Args, Debug)]
pub(super) struct GamesOn {
    /// The map (with --pack: another board of the pack's).
    #[arg(required_unless_present = "pack")]
    map: Option<PathBuf>,
    /// A pack's mode (`core:classic`): its board and rules (a mode whose game is its scripts'
    /// starts each game through them).
    #[arg(long, value_name = "ID[:MODE]", conflicts_with = "rules")]
    pack: Option<String>,
    #[command(flatten)]
    picks: super::pack_cmd::PackPicks,
    /// A rule-set file to play with instead of the map's rules.
    #[arg(long)]
    rules: Option<PathBuf>,
}

impl GamesOn {
    /// The level these choose, or `None` when the problems were told.
    pub(super) fn level(&self, io: &mut Streams) -> anyhow::Result<Option<crate::pack::Level>> {
        super::play_cmd::level_from(
            self.pack.as_deref(),
            self.map.as_deref(),
            self.rules.as_deref(),
            &self.picks,
            io,
        )
    }
}

#[derive(Args, Debug)]
pub(super) struct SimulateArgs {
    #[command(flatten)]
    on: GamesOn,
    /// How many games (1 to 1000000).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    games: u32,
    /// The AIs, one for each player, as `LEVEL,LEVEL,...` (easy, normal, hard); they move
    /// round the table a seat every game (two swap seats). Default: normal for every seat.
    #[arg(long, value_parser = parse_levels)]
    ai: Option<Levels>,
    /// How long the hard AIs think a move: one for every AI, or one for each AI of `--ai` in
    /// its order (`8,off`). `off`; a number of worlds sampled a move (`8`: the same games
    /// every run); or a time a move (`2s`, `500ms`: a faster machine thinks more, so the games
    /// differ from run to run). Default: off.
    #[arg(long, value_parser = parse_thinks)]
    think: Option<Thinks>,
    /// The first game's seed (game i uses seed + i).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Actions after which a game is stopped as unfinished (1 to 1000000).
    #[arg(long, default_value_t = 5000, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    max_actions: u32,
    /// Your own word list (one word a line) instead of the toolkit's dictionary.
    #[arg(long, value_name = "FILE")]
    words: Option<PathBuf>,
    /// Write JSON (the summary and every game).
    #[arg(long, conflicts_with = "jsonl")]
    json: bool,
    /// Write one JSON line per game as it finishes (in the order they finish), then one with
    /// the summary: a long run can be stopped and what it wrote still used.
    #[arg(long)]
    jsonl: bool,
}

/// The AIs named on the command line, one a seat.
#[derive(Clone, Debug)]
pub(super) struct Levels(pub(super) Vec<Level>);

pub(super) fn parse_levels(text: &str) -> Result<Levels, String> {
    let levels: Vec<Level> = text
        .split(',')
        .map(|s| s.trim().parse())
        .collect::<Result<_, _>>()?;
    if !(2..=crate::board::MAX_SEATS).contains(&levels.len()) {
        return Err(format!(
            "name an AI for each player, two to {}, as `hard,normal` (not `{text}`)",
            crate::board::MAX_SEATS
        ));
    }
    Ok(Levels(levels))
}

/// The think times named on the command line, one for every AI or one an AI.
#[derive(Clone, Debug)]
pub(super) struct Thinks(Vec<Think>);

fn parse_thinks(text: &str) -> Result<Thinks, String> {
    let thinks = text.split(',').map(str::parse).collect::<Result<_, _>>()?;
    Ok(Thinks(thinks))
}

impl Thinks {
    /// One think time for each of `ais` AIs, or why they do not fit.
    fn for_ais(&self, ais: usize) -> Result<Vec<Think>, String> {
        match self.0.as_slice() {
            [one] => Ok(vec![*one; ais]),
            each if each.len() == ais => Ok(each.to_vec()),
            each => Err(format!(
                "--think names {} think times for {ais} AIs: give one for all or one for each",
                each.len()
            )),
        }
    }
}

/// How the report names an AI: its level, and its think time when it thinks.
fn ai_name(level: Level, think: Think) -> String {
    if level == Level::Hard && think.is_on() {
        format!("{level} (think {think})")
    } else {
        level.to_string()
    }
}

pub(super) fn simulate(args: SimulateArgs, io: &mut Streams) -> anyhow::Result<i32> {
    let Some(level) = args.on.level(io)? else {
        return Ok(EXIT_PROBLEMS);
    };
    let seats = usize::try_from(level.rules.seats.count).unwrap_or(2);
    let levels = match &args.ai {
        Some(Levels(levels)) if levels.len() != seats => {
            writeln!(
                io.err,
                "the rules seat {seats} players, but --ai names {} AIs: name one for each (as `{}`)",
                levels.len(),
                vec!["normal"; seats].join(",")
            )?;
            return Ok(EXIT_PROBLEMS);
        }
        Some(Levels(levels)) => levels.clone(),
        None => vec![Level::Normal; seats],
    };
    let thinks = match args.think.as_ref().map(|t| t.for_ais(levels.len())) {
        Some(Err(e)) => {
            writeln!(io.err, "{e}")?;
            return Ok(EXIT_PROBLEMS);
        }
        Some(Ok(thinks)) => thinks,
        None => Vec::new(),
    };
    let Some(lexicon) = super::play_cmd::open_lexicon(args.words.as_deref(), io)? else {
        return Ok(EXIT_PROBLEMS);
    };
    let start = starter(&level, &lexicon);
    let scripts = level.taking_part();
    let setup = Setup {
        start,
        map: Arc::new(level.map),
        rules: level.rules,
        lexicon,
        levels: levels.clone(),
        thinks,
        first_seed: args.seed,
        games: args.games as usize,
        max_actions: args.max_actions as usize,
    };
    let bar = progress_bar(u64::from(args.games), io.terminal);
    let records = run_streaming(&setup, &bar, args.jsonl, io)?;
    bar.finish_and_clear();
    let report = simulate::report(&records);
    if args.jsonl {
        serde_json::to_writer(&mut *io.out, &serde_json::json!({ "summary": report }))?;
        writeln!(io.out)?;
    } else if args.json {
        print_json(
            io.out,
            &serde_json::json!({
                "map": setup.map.name,
                "ai": levels,
                "think": setup.thinks.iter().map(ToString::to_string).collect::<Vec<_>>(),
                "first_seed": args.seed,
                "scripts": scripts,
                "summary": report,
                "games": records,
            }),
        )?;
    } else {
        write_report(&setup, &report, io)?;
        writeln!(io.out, "{}", taking_part_line(&scripts))?;
    }
    Ok(0)
}

/// How each game of `level` begins: with its scripts and word lists taking part, as every
/// client starts games (`None`: it has none, and the engine's game is the same game).
pub(super) fn starter(
    level: &crate::pack::Level,
    lexicon: &Arc<crate::lexicon::Lexicon>,
) -> Option<simulate::Starter> {
    crate::script::ScriptedGame::simulation_starter(level, lexicon)
}

/// The report's line on what takes part in the games besides the engine.
pub(super) fn taking_part_line(names: &[String]) -> String {
    if names.is_empty() {
        "scripts taking part: none (the level has no scripts or word lists)".to_string()
    } else {
        format!("scripts taking part: {}", names.join(", "))
    }
}

/// The games' progress on standard error, drawn only on a terminal (indicatif hides it
/// otherwise).
pub(super) fn progress_bar(games: u64, terminal: super::TerminalOptions) -> indicatif::ProgressBar {
    let bar = if terminal.progress {
        indicatif::ProgressBar::new(games)
    } else {
        indicatif::ProgressBar::hidden()
    };
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{bar:40} {pos}/{len} games  {elapsed} ({eta} left)",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar
}

/// Plays every game of `setup` on all cores; each finished game moves the bar and, with
/// `jsonl`, is written at once as a JSON line.
fn run_streaming(
    setup: &Setup,
    bar: &indicatif::ProgressBar,
    jsonl: bool,
    io: &mut Streams,
) -> anyhow::Result<Vec<simulate::GameRecord>> {
    let (sender, finished) = std::sync::mpsc::channel();
    std::thread::scope(|scope| {
        let worker = scope.spawn(move || {
            simulate::run(setup, &|record| {
                // The receiver lives until every game is played; a send cannot fail before.
                let _ = sender.send(record.clone());
            })
        });
        for record in finished {
            bar.inc(1);
            if jsonl {
                serde_json::to_writer(&mut *io.out, &record)?;
                writeln!(io.out)?;
                io.out.flush()?;
            }
        }
        worker
            .join()
            .map_err(|_| anyhow::anyhow!("the simulation's worker thread failed"))
    })
}

fn percent(r: &Rate) -> String {
    format!(
        "{:5.1}% ({:.1}-{:.1}%, {} of {})",
        r.rate * 100.0,
        r.low * 100.0,
        r.high * 100.0,
        r.count,
        r.of
    )
}

fn write_report(setup: &Setup, r: &Report, io: &mut Streams) -> anyhow::Result<()> {
    let think_of = |a: usize| setup.thinks.get(a).copied().unwrap_or_default();
    let names: Vec<String> = (setup.levels.iter().enumerate())
        .map(|(a, &level)| ai_name(level, think_of(a)))
        .collect();
    // Where the rules make a match, each "game" simulated is a whole match.
    let rounds = setup.rules.series.rounds;
    let (games, game, what) = if rounds > 1 {
        (format!("matches of {rounds} rounds"), "match", "matches")
    } else {
        ("games".to_string(), "game", "games")
    };
    let seating = if names.len() == 2 {
        format!(
            "{} against {} (seats swapped every {game})",
            names[0], names[1]
        )
    } else {
        format!(
            "{} (moving round the table a seat every {game})",
            names.join(", ")
        )
    };
    writeln!(
        io.out,
        "{}: {} {games}, {seating}, seeds {} to {}",
        setup.map.name,
        r.games,
        setup.first_seed,
        setup.first_seed + r.games.saturating_sub(1) as u64
    )?;
    // Seats go by the mode's names (Scryper's white and brown, Lexicon Crossing's bronze).
    let seat_names = crate::game::SeatNames::of(&setup.rules);
    let seat_name = |s: usize| {
        crate::board::Player::seat(s)
            .map_or("", |p| seat_names.name(p))
            .to_string()
    };
    writeln!(io.out, "wins by seat (95% interval):")?;
    for (s, wins) in r.seat_wins.iter().enumerate() {
        let name = match (s, rounds > 1) {
            (0, true) => format!("{} (first round)", seat_name(0)),
            (0, false) => format!("{} (moves first)", seat_name(0)),
            _ => seat_name(s),
        };
        writeln!(io.out, "  {name:<18}  {}", percent(wins))?;
    }
    writeln!(io.out, "wins by AI:")?;
    for (name, wins) in names.iter().zip(&r.ai_wins) {
        writeln!(io.out, "  {name:<18}  {}", percent(wins))?;
    }
    writeln!(io.out, "draws {}, unfinished {}", r.draws, r.unfinished)?;
    let by_seat: Vec<String> = r
        .average_scores
        .iter()
        .enumerate()
        .map(|(s, score)| format!("{} {score:.1}", seat_name(s)))
        .collect();
    let by_ai: Vec<String> = names
        .iter()
        .zip(&r.average_ai_scores)
        .map(|(name, score)| format!("{name} {score:.1}"))
        .collect();
    writeln!(
        io.out,
        "average score: {}; {}",
        by_seat.join(", "),
        by_ai.join(", ")
    )?;
    let unit = if setup.rules.flow.simultaneous {
        "rounds of play"
    } else {
        "turns"
    };
    writeln!(
        io.out,
        "average length: {:.1} {unit} a {game}",
        r.average_turns
    )?;
    let endings: Vec<String> = r.endings.iter().map(|(e, n)| format!("{e} {n}")).collect();
    writeln!(io.out, "endings: {}", endings.join(", "))?;
    let advantage = r.seat_wins[0].rate - r.seat_wins.get(1).map_or(0.0, |w| w.rate);
    // Cities and tokens are spoken of only on a board that has them.
    let mut decided = vec![format!(
        "first-player advantage {:+.1} points",
        advantage * 100.0
    )];
    if !setup.map.cities.is_empty() {
        decided.push(format!(
            "the winner captured more cities in {}",
            percent(&r.decided_by_captures)
        ));
    }
    if !setup.map.tokens.is_empty() {
        decided.push(format!("{:.1} tokens invoked a game", r.average_tokens));
    }
    writeln!(io.out, "what decided {what}: {}", decided.join("; "))?;
    Ok(())
}
