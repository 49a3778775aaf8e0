//! Matches played in a real browser as a person plays them (`scryptic_tests::browser`): the
//! browser client takes a seat from a link and its board is played from the keyboard (the
//! arrow keys move the typing cursor, letters are laid, Enter commits) against the server's
//! AI. What the page knows is read from what its WebSocket received (chromium's own network
//! log): the test chooses the seat's words from that view alone, as the person would.
#![allow(
    clippy::unwrap_used,
    reason = "tests unwrap: a panic there is a failure"
)]

use scryptic::Player;
use scryptic::ai::{AiPlayer, Level};
use scryptic::game::{Action, Event, Game, Placement};
use scryptic::lexicon::Lexicon;
use scryptic_tests::browser::{Browser, keys, match_of, playing_server};
use scryptic_tests::page_play::{
    Cursor, Told, assert_laid, host_on_the_site, keys_for, keys_to_lay_out, same_crossword,
};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A round of Word Wars hosted in the browser on the server's site (its Host form: the host's
/// own seat, the AI's, a name and a seed) and played there against the server's AI to its end,
/// from the keyboard: each of gold's words chosen (by the test, on what the page was shown)
/// and laid with the arrow keys and letters, committed with Enter; the round ends as the rules
/// end it, the page shown its result.
#[test]
fn a_round_of_word_wars_is_played_in_the_browser_against_the_ai_to_its_end() {
    let Some(browser) = Browser::start() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let server = playing_server(&dir.path().join("data"), Duration::from_millis(20));
    let address = format!("http://{}", server.addr);
    host_on_the_site(
        &browser,
        &address,
        "word-wars",
        &[("gold", "me"), ("silver", "easy")],
        SEED,
    );
    let lexicon = Arc::new(Lexicon::english());
    let mut told = Told::default();
    let gold = Player::Gold;
    let mut chooser = AiPlayer::new(Level::Hard, SEED);
    let mut cursor = Cursor::default();
    let mut words = 0;
    loop {
        let game = told.until(
            &browser,
            &lexicon,
            "gold's turn or the round's end",
            |g, _| g.result().is_some() || g.to_act() == gold,
        );
        if game.result().is_some() {
            break;
        }
        let Action::Commit { letters } = chooser.choose(&game) else {
            panic!(
                "gold has no word to play at move {} (the AI changed? choose another SEED)",
                told.actions()
            );
        };
        let size = (game.board().terrain.width(), game.board().terrain.height());
        let pressed = keys_for(&mut cursor, &letters, size, false);
        let before = told.actions();
        browser.press(&pressed.iter().map(String::as_str).collect::<Vec<_>>());
        let after = told.until(&browser, &lexicon, "gold's word played", |_, v| {
            v.actions > before
        });
        assert_laid(&after, &letters, "the page's keys");
        words += 1;
        assert!(words < 40, "the round never ended");
    }
    let game = told.game(&lexicon).unwrap();
    assert!(words >= 3, "gold played {words} words");
    let result = game.result().unwrap();
    eprintln!(
        "the round ended after gold's {words} words: {result:?} ({})",
        browser.keep_screenshot("browser-play-round-over.png")
    );
}

/// The deal: one where gold, choosing as the hard AI would, always has a word.
const SEED: u64 = 3;

/// Two browsers play classic Scryptic against each other on the tutorial map, from the
/// keyboard: words laid and committed, turns ended (Ctrl+Enter), until one's word attacks the
/// other's crossword (Enter, Enter: the combat dialog's Attack) and the other, in their own
/// browser, defends in the dialog's order (Enter), and the fight is settled.
#[test]
fn two_browsers_play_classic_scryptic_through_an_attack_and_its_defence() {
    let (Some(gold_page), Some(silver_page)) = (Browser::start(), Browser::start()) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let server = playing_server(&dir.path().join("data"), Duration::from_millis(20));
    let address = format!("http://{}", server.addr);
    let made = match_of(
        &address,
        "core",
        ("", "maps/tutorial.ron"),
        &[],
        &[],
        CLASSIC_SEED,
    );
    let pages = [&gold_page, &silver_page];
    take_gold_and_silver(pages, &address, &made.id);
    let lexicon = Arc::new(Lexicon::english());
    let mut told = [Told::default(), Told::default()];
    let mut choosers = [
        AiPlayer::new(Level::Hard, CLASSIC_SEED),
        AiPlayer::new(Level::Hard, CLASSIC_SEED + 1),
    ];
    let (mut attacks, mut defences) = (0, 0);
    let settled = |told: &[Told]| {
        told.iter().any(|t| {
            t.events.iter().any(|e| {
                matches!(
                    e,
                    Event::AttackRepelled { .. } | Event::AttackSucceeded { .. }
                )
            })
        })
    };
    while !(defences > 0 && settled(&told)) {
        let game = both_up_to_date(&mut told, &pages, &lexicon);
        assert!(game.result().is_none(), "the game ended before a fight");
        let seat = game.to_act();
        let (page, view) = (
            pages[seat.index()],
            told[seat.index()].game(&lexicon).unwrap(),
        );
        let before = told[seat.index()].actions();
        match choosers[seat.index()].choose(&view) {
            Action::Commit { letters } => {
                let attack = (view.preview_commit(&letters)).is_ok_and(|p| !p.defenders.is_empty());
                attacks += usize::from(attack);
                let size = (view.board().terrain.width(), view.board().terrain.height());
                // Not known after a fight's dialogs: homed.
                let mut cursor = Cursor::default();
                let pressed = keys_for(&mut cursor, &letters, size, attack);
                page.press(&pressed.iter().map(String::as_str).collect::<Vec<_>>());
            }
            // The order the dialog shows (the defenders as the fight found them).
            Action::Defend { .. } => {
                defences += 1;
                page.press(&[keys::ENTER]);
            }
            // Anything else (a token invoked, a discard) a person may leave for later: the turn
            // is ended (the fight's steps closed first if they are still shown).
            _ => {
                page.press(&[keys::ESCAPE]);
                page.chord(keys::CONTROL, keys::ENTER);
            }
        }
        let what = format!("{seat}'s action after {before}");
        told[seat.index()].until(page, &lexicon, &what, |_, v| v.actions > before);
        assert!(before < 200, "no fight in 200 actions");
    }
    assert!(attacks > 0, "an attack was made");
    for (page, name) in pages.iter().zip(["gold", "silver"]) {
        eprintln!(
            "{}",
            page.keep_screenshot(&format!("browser-classic-{name}.png"))
        );
    }
}

/// The two pages take gold's seat (as Ada) and silver's (as Bo) of match `id` by its links.
fn take_gold_and_silver(pages: [&Browser; 2], address: &str, id: &str) {
    for (page, (seat, name)) in pages.into_iter().zip([("gold", "Ada"), ("silver", "Bo")]) {
        page.open(&format!("{address}/matches/{id}?seat={seat}&name={name}"));
    }
}

/// Waits until both pages have seen the same number of actions; the game as the first sees it.
fn both_up_to_date(told: &mut [Told; 2], pages: &[&Browser; 2], lexicon: &Arc<Lexicon>) -> Game {
    let start = Instant::now();
    loop {
        for (t, page) in told.iter_mut().zip(pages) {
            t.take_in(page);
        }
        if told[0].view.is_some() && told[0].actions() == told[1].actions() {
            return told[0].game(lexicon).unwrap();
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the pages never agreed: {} and {} actions",
            told[0].actions(),
            told[1].actions()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// The deal: one where the two crosswords meet within a few turns.
const CLASSIC_SEED: u64 = 5;

/// Two browsers and the server's AI play Lexicon Crossing, three seats of 15 tiles: each
/// browser's seat lays its crossword out in its own region from the keyboard, a letter a key as
/// it types (a letter its plan moves taken back with Backspace), and calls green light with
/// Enter once the crossword is complete, and everyone draws. The AI's seat lays a letter a
/// minute here (`--ai-pace`), so that the first light is the browsers' to call however slow the
/// machine running the test.
#[test]
fn two_browsers_and_the_ai_play_lexicon_crossing_to_green_light() {
    let (Some(gold_page), Some(silver_page)) = (Browser::start(), Browser::start()) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let server = playing_server(&dir.path().join("data"), Duration::from_secs(60));
    let address = format!("http://{}", server.addr);
    let settings = [("players", "3"), ("start", "15")];
    let made = match_of(
        &address,
        "lexicon-crossing",
        ("s98", ""),
        &settings,
        &[("seat3", "easy")],
        LC_SEED,
    );
    let pages = [&gold_page, &silver_page];
    take_gold_and_silver(pages, &address, &made.id);
    let lexicon = Arc::new(Lexicon::english());
    let mut told = [Told::default(), Told::default()];
    let mut cursors = [Cursor::default(), Cursor::default()];
    let mut choosers = [
        AiPlayer::new(Level::Easy, LC_SEED),
        AiPlayer::new(Level::Easy, LC_SEED + 1),
    ];
    let seats = [Player::Gold, Player::Silver];
    let called = |told: &[Told; 2]| {
        told.iter().flat_map(|t| &t.events).find_map(|e| match e {
            Event::GreenLight { player, .. } if seats.contains(player) => Some(*player),
            _ => None,
        })
    };
    let mut moves = 0;
    while called(&told).is_none() {
        for i in 0..2 {
            let view = told[i].until(pages[i], &lexicon, "a view", |_, _| true);
            let (page, seat) = (pages[i], seats[i]);
            let before = told[i].actions();
            match choosers[i].choose_at_once(&view, seat) {
                Some(Action::Layout { letters, .. }) => {
                    let laid = view.laid_letters(seat);
                    if same_crossword(&laid, &letters) {
                        continue;
                    }
                    let size = (view.board().terrain.width(), view.board().terrain.height());
                    // What goes first, shown back, then what comes (a letter typed on a cell
                    // still holding one of the crossword's would go to the next cell).
                    let kept: Vec<Placement> = laid
                        .iter()
                        .filter(|p| letters.contains(p))
                        .copied()
                        .collect();
                    let cursor = &mut cursors[i];
                    for (from, to) in [(&laid, &kept), (&kept, &letters)] {
                        let pressed = keys_to_lay_out(cursor, from, to, size);
                        if pressed.is_empty() {
                            continue;
                        }
                        page.press(&pressed.iter().map(String::as_str).collect::<Vec<_>>());
                        told[i].until(page, &lexicon, "the crossword laid out", |g, _| {
                            same_crossword(&g.laid_letters(seat), to)
                        });
                    }
                }
                Some(Action::GreenLight { .. }) => {
                    page.press(&[keys::ENTER]);
                    told[i].until(page, &lexicon, "the light", |_, v| v.actions > before);
                }
                _ => continue,
            }
            moves += 1;
            assert!(moves < 200, "no green light after {moves} moves");
        }
    }
    // Everyone drew: the caller's rack and the other browser's hold a new tile.
    let caller = called(&told).unwrap();
    for (t, seat) in told.iter_mut().zip(seats) {
        let drew = |t: &Told| {
            t.events
                .iter()
                .any(|e| matches!(e, Event::Drew { player, .. } if *player == seat))
        };
        t.until(pages[seat.index()], &lexicon, "the draw", |_, _| true);
        assert!(drew(t), "{seat} drew after {caller}'s green light");
    }
    for (page, name) in pages.iter().zip(["gold", "silver"]) {
        eprintln!(
            "{}",
            page.keep_screenshot(&format!("browser-lc-{name}.png"))
        );
    }
}

/// The deal of the Lexicon Crossing match.
const LC_SEED: u64 = 21;

/// Scryper in the browser against the server's AI, from the keyboard: `/` goes to the field a
/// move is typed in, and each move is typed as the terminal writes it (`field 4 C8` in secret,
/// `ready`, `C8-C6`, `C6xC5`), Enter playing it, until the set is won and with it the game
/// (one set wins it here). White's moves are chosen from those the page's view lists.
#[test]
fn scryper_is_played_in_the_browser_to_the_end_of_a_set() {
    let Some(browser) = Browser::start() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let server = playing_server(&dir.path().join("data"), Duration::from_millis(20));
    let address = format!("http://{}", server.addr);
    let settings = [("sets_to_win", "1"), ("per_set", "2")];
    let made = match_of(
        &address,
        "scryper",
        ("", ""),
        &settings,
        &[("brown", "easy")],
        SEED,
    );
    browser.open(&format!(
        "{address}/matches/{}?seat=white&name=Wen",
        made.id
    ));
    let lexicon = Arc::new(Lexicon::english());
    let mut told = Told::default();
    let mut fielded = 0;
    let mut moves = 0;
    loop {
        told.until(&browser, &lexicon, "white's moves or the end", |g, v| {
            g.result().is_some() || !v.moves.is_empty()
        });
        let game = told.game(&lexicon).unwrap();
        if game.result().is_some() {
            break;
        }
        let offered = told.view.as_ref().unwrap().moves.clone();
        let mv = white_move(&offered, fielded);
        fielded += usize::from(mv.starts_with("field"));
        let before = told.actions();
        let mut keys: Vec<String> = vec!["/".into()];
        keys.extend(mv.chars().map(|c| c.to_string()));
        keys.push(keys::ENTER.into());
        browser.press(&keys.iter().map(String::as_str).collect::<Vec<_>>());
        told.until(&browser, &lexicon, &format!("`{mv}` played"), |_, v| {
            v.actions > before
        });
        moves += 1;
        assert!(moves < 100, "no end after {moves} moves");
    }
    let game = told.game(&lexicon).unwrap();
    let result = game.result().unwrap();
    eprintln!(
        "the set (and the game) ended after white's {moves} moves: {result:?} ({})",
        browser.keep_screenshot("browser-scryper.png")
    );
    assert!(
        fielded >= 1 && moves > fielded + 1,
        "white fielded, readied and moved"
    );
}

/// White's move among those `offered`: a brick fielded (the highest value, `fielded` so far)
/// until two are, then ready; an attack if there is one; else the move that goes furthest up
/// the board (white's goal is row 1); a pass when nothing moves.
fn white_move(offered: &[String], fielded: usize) -> String {
    let field = |m: &&String| m.starts_with("field");
    if fielded < 2
        && let Some(mv) = offered
            .iter()
            .filter(field)
            .max_by_key(|m| m.split(' ').nth(1).map(str::to_string))
    {
        return mv.clone();
    }
    if let Some(ready) = offered.iter().find(|m| *m == "ready") {
        return ready.clone();
    }
    if let Some(attack) = offered.iter().find(|m| m.contains('x')) {
        return attack.clone();
    }
    let row = |m: &String| -> u32 {
        m.rsplit(['-', 'x'])
            .next()
            .and_then(|to| to[1..].parse().ok())
            .unwrap_or(u32::MAX)
    };
    offered
        .iter()
        .min_by_key(|m| row(m))
        .cloned()
        .unwrap_or_else(|| "pass".into())
}
