//! `scryptic pack test`: AI games of every board of the pack's modes, each replayed from its
//! save, then the pack's scenarios (`tests/*.ron`) played step by step.

use super::{EXIT_PROBLEMS, Streams, every_board};
use crate::pack::{Catalog, Choice, Level, Pack};

/// `pack test`: AI games of every board of every mode, checked as they go and replayed; then
/// the pack's scenarios.
pub(super) fn test(
    catalog: &Catalog,
    id: &str,
    (games, max_actions): (u32, u32),
    io: &mut Streams,
) -> anyhow::Result<i32> {
    let Some(pack) = catalog.get(id) else {
        return Ok(EXIT_PROBLEMS);
    };
    let lexicon = std::sync::Arc::new(crate::lexicon::Lexicon::english());
    let mut problems = Vec::new();
    let mut played = 0;
    for (choice, level) in every_board(catalog, pack, &mut problems) {
        for seed in 1..=u64::from(games) {
            let label = format!("mode `{}`, {}, seed {seed}", choice.mode, level.title);
            match test_game(&level, lexicon.clone(), seed, max_actions as usize) {
                Ok(()) => played += 1,
                Err(found) => problems.extend(found.into_iter().map(|p| format!("{label}: {p}"))),
            }
        }
    }
    let scenarios = run_scenarios(catalog, pack, &lexicon, &mut problems);
    for p in &problems {
        writeln!(io.err, "{p}")?;
    }
    if problems.is_empty() {
        writeln!(
            io.out,
            "ok: {} ({} played and replayed, {} passed)",
            pack.label(),
            crate::screen::counted(played, "game"),
            crate::screen::counted(scenarios, "scenario")
        )?;
        Ok(0)
    } else {
        writeln!(
            io.err,
            "{}: {}",
            pack.label(),
            crate::screen::counted(problems.len(), "problem")
        )?;
        Ok(EXIT_PROBLEMS)
    }
}

/// Plays the pack's scenarios (`tests/*.ron`: a level of the pack and steps, see
/// `scenario::PackScenario`) with its scripts taking part; returns how many passed, their
/// failures (and a script error in any) in `problems`.
fn run_scenarios(
    catalog: &Catalog,
    pack: &Pack,
    lexicon: &std::sync::Arc<crate::lexicon::Lexicon>,
    problems: &mut Vec<String>,
) -> usize {
    let files = match pack.files.list("tests", "ron") {
        Ok(files) => files,
        Err(e) => {
            problems.extend(e.problems());
            return 0;
        }
    };
    let mut passed = 0;
    for file in files {
        match run_scenario(catalog, pack, &file, lexicon) {
            Ok(()) => passed += 1,
            Err(found) => problems.extend(found),
        }
    }
    passed
}

/// Plays one scenario of the pack, `file` its path there.
fn run_scenario(
    catalog: &Catalog,
    pack: &Pack,
    file: &str,
    lexicon: &std::sync::Arc<crate::lexicon::Lexicon>,
) -> Result<(), Vec<String>> {
    use crate::scenario::PackScenario;
    let shown = pack.files.shown(file);
    let scenario = pack
        .files
        .read_text(file)
        .and_then(|text| PackScenario::parse(&shown, &text))
        .map_err(|e| e.problems())?;
    // An extension's scenario plays the mode it names of another pack, with it ticked.
    let extends = pack.manifest.extension.is_some() && !scenario.pack.is_empty();
    let choice = Choice {
        pack: if extends {
            scenario.pack.clone()
        } else {
            pack.id().to_string()
        },
        mode: scenario.mode.clone(),
        // A scenario counts chapters from 1, as `campaign --chapter` does; a choice from 0.
        chapter: scenario.chapter - 1,
        map: scenario.board.clone(),
        set: scenario.set.clone().into_iter().collect(),
        extensions: if extends {
            vec![pack.id().to_string()]
        } else {
            Vec::new()
        },
        ..Choice::default()
    };
    let name = shown.display().to_string();
    let lexicon = scenario_lexicon(pack, &scenario.words, lexicon)
        .map_err(|e| vec![format!("{name}: {e}")])?;
    let level = Level::from_pack(catalog, &choice).map_err(|e| vec![format!("{name}: {e}")])?;
    let (mut game, found) =
        crate::script::ScriptedGame::start_level(&level, lexicon.clone(), scenario.seed, None)
            .map_err(|e| vec![format!("{name}: {e}")])?;
    if !found.is_empty() {
        return Err(found.into_iter().map(|p| format!("{name}: {p}")).collect());
    }
    crate::scenario::run(&name, &scenario.steps, &mut game).map_err(|e| vec![e])
}

/// The dictionary a scenario plays with: `lexicon`, or the pack's word list it names.
fn scenario_lexicon(
    pack: &Pack,
    words: &str,
    lexicon: &std::sync::Arc<crate::lexicon::Lexicon>,
) -> Result<std::sync::Arc<crate::lexicon::Lexicon>, String> {
    if words.is_empty() {
        return Ok(lexicon.clone());
    }
    let text = pack.files.read_text(words).map_err(|e| e.to_string())?;
    let (own, _) = crate::lexicon::Lexicon::from_word_list(&pack.files.shown(words), &text)
        .map_err(|e| e.to_string())?;
    Ok(std::sync::Arc::new(own))
}

/// One AI game of `level`: every action legal, no script error, and the save replays to the
/// same board and scores.
fn test_game(
    level: &Level,
    lexicon: std::sync::Arc<crate::lexicon::Lexicon>,
    seed: u64,
    max_actions: usize,
) -> Result<(), Vec<String>> {
    use crate::ai::{AiPlayer, AiTable, Level as AiLevel};
    let (mut game, mut problems) =
        crate::script::ScriptedGame::start_level(level, lexicon.clone(), seed, None)
            .map_err(|e| vec![e.to_string()])?;
    let seats = game.game().seats().count() as u64;
    let mut players = AiTable::new(
        (0..seats)
            .map(|i| AiPlayer::new(AiLevel::Easy, seed + i))
            .collect(),
    );
    // A game whose moves are its rules' is played by random legal moves: many moves, each
    // checked, at the cost of listing them (a search would list thousands a move).
    let scripted = game.game().rules().flow.scripted;
    let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(seed);
    while game.game().log().len() < max_actions {
        let next = if scripted {
            crate::ai::ismcts::random_move(&mut game.game().clone(), &mut rng)
        } else {
            players.next_action(game.game())
        };
        let Some(action) = next else {
            break;
        };
        if let Err(e) = game.apply(action.clone()) {
            problems.push(format!("the AI's {action:?} was refused: {e}"));
            break;
        }
    }
    problems.extend(
        game.host()
            .drain_console()
            .iter()
            .filter_map(|line| match line {
                crate::script::ConsoleLine::Error(e) => Some(e.to_string()),
                _ => None,
            }),
    );
    match crate::script::ScriptedGame::from_save(&game.save(), lexicon) {
        Ok((replayed, _)) => {
            if let Some(departure) = replayed.departure() {
                problems.push(format!("its save does not replay as played: {departure}"));
            }
            let same = replayed.game().board().letters == game.game().board().letters
                && replayed.game().table().pieces() == game.game().table().pieces()
                && replayed.game().result() == game.game().result()
                && game
                    .game()
                    .seats()
                    .all(|p| replayed.game().score(p) == game.game().score(p));
            if !same {
                problems.push(
                    "its save replays to a different game: something is not deterministic".into(),
                );
            }
        }
        Err(e) => problems.push(format!("its save does not replay: {e}")),
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems)
    }
}
