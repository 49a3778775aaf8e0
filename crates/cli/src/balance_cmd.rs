//! `scryptic balance`: the first player's advantage on a map, with its interval, and the search
//! of a rule constant for the value that evens it (`--tune KEY=LO..HI`).

use super::ai_cmd::{Levels, parse_levels, progress_bar, starter, taking_part_line};
use super::{EXIT_PROBLEMS, EXIT_USAGE, Streams, print_json};
use crate::ai::Level;
use crate::ai::balance::{self, Advantage, TuneRange, TuneStep};
use crate::ai::simulate::Setup;
use clap::Args;
use std::sync::Arc;

#[derive(Args, Debug)]
pub(super) struct BalanceArgs {
    #[command(flatten)]
    on: super::ai_cmd::GamesOn,
    /// Games for each value tried (2 to 1000000).
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u32).range(2..=1_000_000))]
    games: u32,
    /// The two AIs, as `LEVEL,LEVEL` (easy, normal, hard); they swap seats every game.
    #[arg(long, value_parser = parse_levels)]
    ai: Option<Levels>,
    /// The first game's seed (game i uses seed + i); every value is tried on the same seeds.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Search the rule constant KEY from LO to HI for the value that brings the first
    /// player's advantage closest to even (`--tune capture.city_capture_bonus=0..40`), or one
    /// city's own capture bonus (`--tune city.aurum.bonus=0..60`).
    #[arg(long, value_name = "KEY=LO..HI")]
    tune: Option<TuneRange>,
    /// The most values tried by --tune (2 to 32).
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(2..=32))]
    steps: u32,
    /// Write JSON.
    #[arg(long)]
    json: bool,
}

pub(super) fn balance(args: BalanceArgs, io: &mut Streams) -> anyhow::Result<i32> {
    let Some(level) = args.on.level(io)? else {
        return Ok(EXIT_PROBLEMS);
    };
    let levels = match &args.ai {
        Some(Levels(levels)) if levels.len() != 2 => {
            writeln!(
                io.err,
                "--ai names {} AIs; balance plays two (`normal,normal`)",
                levels.len()
            )?;
            return Ok(EXIT_USAGE);
        }
        Some(Levels(levels)) => levels.clone(),
        None => vec![Level::Normal; 2],
    };
    if level.rules.seats.count != 2 {
        writeln!(
            io.err,
            "balance weighs the first player against the second: these rules seat {}",
            level.rules.seats.count
        )?;
        return Ok(EXIT_PROBLEMS);
    }
    let lexicon = Arc::new(crate::lexicon::Lexicon::english());
    let map = Arc::new(level.map.clone());
    let setup_with = |(map, rules): (crate::map::Map, crate::rules::RuleSet)| {
        let mut tuned = level.clone();
        tuned.map = map.clone();
        tuned.rules = rules.clone();
        Setup {
            start: starter(&tuned, &lexicon),
            map: Arc::new(map),
            rules,
            lexicon: lexicon.clone(),
            levels: levels.clone(),
            thinks: Vec::new(),
            first_seed: args.seed,
            games: args.games as usize,
            max_actions: 5000,
        }
    };
    let first = map.scenario.first_player();
    let scripts = level.taking_part();
    let head = format!(
        "{}: {} moves first; {} against {}, seats swapped every game, {} games a value from seed {}",
        map.name, first, levels[0], levels[1], args.games, args.seed
    );
    let Some(range) = &args.tune else {
        let untuned = (level.map.clone(), level.rules.clone());
        let advantage = play_batch(&setup_with(untuned), io.terminal);
        if args.json {
            print_json(
                io.out,
                &serde_json::json!({ "map": map.name, "first": first, "ai": levels, "scripts": scripts, "advantage": advantage }),
            )?;
        } else {
            writeln!(io.out, "{head}")?;
            writeln!(io.out, "{}", taking_part_line(&scripts))?;
            writeln!(io.out, "first player: {advantage}{}", verdict(&advantage))?;
        }
        return Ok(0);
    };
    if !args.json {
        writeln!(io.out, "{head}")?;
        writeln!(io.out, "{}", taking_part_line(&scripts))?;
        writeln!(
            io.out,
            "tuning {} from {} to {}:",
            range.key,
            range.written(range.low),
            range.written(range.high)
        )?;
    }
    let json = args.json;
    let terminal = io.terminal;
    // Each value is told as soon as its games are played: a search takes minutes.
    let mut written = Ok(());
    let steps = balance::tune(
        range,
        args.steps as usize,
        &mut |value| {
            let tuned = balance::tuned(&level.map, &level.rules, &range.key, value)?;
            Ok(play_batch(&setup_with(tuned), terminal))
        },
        &mut |step: &TuneStep| {
            if !json && written.is_ok() {
                written = writeln!(
                    io.out,
                    "  {} = {}: {}",
                    range.key, step.value, step.advantage
                );
            }
        },
    );
    written?;
    let steps = match steps {
        Ok(steps) => steps,
        Err(message) => {
            writeln!(io.err, "error: {message}")?;
            return Ok(EXIT_PROBLEMS);
        }
    };
    let best = balance::closest(&steps);
    if json {
        print_json(
            io.out,
            &serde_json::json!({ "map": map.name, "first": first, "ai": levels, "scripts": scripts, "key": range.key, "steps": steps, "closest": best }),
        )?;
        return Ok(0);
    }
    if let Some(best) = best {
        writeln!(
            io.out,
            "closest to even: {} = {} ({}){}",
            range.key,
            best.value,
            best.advantage,
            verdict(&best.advantage)
        )?;
    }
    Ok(0)
}

/// Plays the games of `setup` with a progress bar (on a terminal) and weighs them.
fn play_batch(setup: &Setup, terminal: super::TerminalOptions) -> Advantage {
    let bar = progress_bar(setup.games as u64, terminal);
    let advantage = balance::advantage(setup, &|_| bar.inc(1));
    bar.finish_and_clear();
    advantage
}

/// Whether the interval tells the seats apart.
fn verdict(advantage: &Advantage) -> &'static str {
    if advantage.is_even() {
        ": even within the interval"
    } else if advantage.edge() > 0.0 {
        ": the first player is favoured"
    } else {
        ": the second player is favoured"
    }
}
