//! Matches played in a real browser as a person plays them (`scryptic_tests::browser`): the
//! browser client takes a seat from a link and its board is played from the keyboard (the
//! arrow keys move the typing cursor, letters are laid, Enter commits) against the server's
//! AI. What the page knows is read from what its WebSocket received (chromium's own network
//! log): the test chooses the seat's words from that view alone, as the person would.
#![allow(
    clippy::unwrap_used,
    reason = "tests unwrap: a panic there is a failure"
)]

use scryptic::ai::{AiPlayer, Level};
use scryptic::game::{Action, Game, Placement};
use scryptic::lexicon::Lexicon;
use scryptic::map::Direction;
use scryptic::protocol::welcome::Welcome;
use scryptic::protocol::{CreateMatch, SeatRequest, ServerFrame, View};
use scryptic::{Player, Pos};
use scryptic_tests::browser::{Browser, keys, playing_server};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What the page was told: the welcome, and the last view of the game.
struct Told {
    welcome: Option<Welcome>,
    view: Option<Box<View>>,
}

impl Told {
    /// Reads the frames the page received since the last look.
    fn take_in(&mut self, browser: &Browser) {
        for text in browser.websocket_frames() {
            let frame: ServerFrame = scryptic::protocol::read(&text, usize::MAX).unwrap();
            if let Some(welcome) = Welcome::read(&frame) {
                self.welcome = Some(welcome.unwrap());
            } else if let ServerFrame::View(view) = frame {
                self.view = Some(view);
            }
        }
    }

    /// The game as the page's seat sees it after its last view.
    fn game(&self, lexicon: &Arc<Lexicon>) -> Option<Game> {
        let (welcome, view) = (self.welcome.as_ref()?, self.view.as_ref()?);
        let rules = welcome.rules.clone();
        let snapshot = view.snapshot.clone();
        Some(Game::from_snapshot(&welcome.map, rules, lexicon.clone(), snapshot).unwrap())
    }

    /// Waits (a minute at most) until the page has seen a view in which `ready` holds (of the
    /// game and the number of actions played).
    fn until(
        &mut self,
        browser: &Browser,
        lexicon: &Arc<Lexicon>,
        what: &str,
        ready: impl Fn(&Game, u64) -> bool,
    ) -> Game {
        let start = Instant::now();
        loop {
            self.take_in(browser);
            if let Some(game) = self.game(lexicon).filter(|g| ready(g, self.actions())) {
                return game;
            }
            if start.elapsed() > Duration::from_secs(60) {
                let shown = browser.keep_screenshot("browser-play-stuck.png");
                panic!("the page never saw {what} ({shown})");
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    fn actions(&self) -> u64 {
        self.view.as_ref().map_or(0, |v| v.actions)
    }
}

/// The board's typing cursor as the play view moves it (the test's own model of it): the
/// keys that bring it to a cell, headed a way.
#[derive(Default)]
struct Cursor {
    at: Option<(Pos, Direction)>,
}

impl Cursor {
    /// The keys that put the cursor on `to`, headed `dir`, on a board `w` by `h` cells; the
    /// model follows.
    fn keys_to(&mut self, to: Pos, dir: Direction, (w, h): (u32, u32)) -> Vec<&'static str> {
        let mut pressed = Vec::new();
        let mut press = |key: &'static str, cursor: &mut Option<(Pos, Direction)>| {
            pressed.push(key);
            let (along, forward) = match key {
                keys::RIGHT => (Direction::Across, true),
                keys::LEFT => (Direction::Across, false),
                keys::DOWN => (Direction::Down, true),
                _ => (Direction::Down, false),
            };
            *cursor = Some(match *cursor {
                None => (Pos::new(w / 2, h / 2), along),
                Some((at, d)) if d != along => (at, along),
                Some((at, d)) => {
                    let step: i64 = if forward { 1 } else { -1 };
                    let (x, y) = match d {
                        Direction::Across => (i64::from(at.x) + step, i64::from(at.y)),
                        Direction::Down => (i64::from(at.x), i64::from(at.y) + step),
                    };
                    (Pos::new(x as u32, y as u32), d)
                }
            });
        };
        if self.at.is_none() {
            press(keys::RIGHT, &mut self.at);
        }
        // Across to the column, then down to the row, then headed as wanted (a press across
        // the cursor's line turns it without moving it).
        for (axis, more, less) in [
            (Direction::Across, keys::RIGHT, keys::LEFT),
            (Direction::Down, keys::DOWN, keys::UP),
        ] {
            let (at, d) = self.at.unwrap();
            let (from, want) = match axis {
                Direction::Across => (at.x, to.x),
                Direction::Down => (at.y, to.y),
            };
            if from == want {
                continue;
            }
            let key = if want > from { more } else { less };
            if d != axis {
                press(key, &mut self.at);
            }
            for _ in 0..from.abs_diff(want) {
                press(key, &mut self.at);
            }
        }
        if self.at.unwrap().1 != dir {
            let turn = match dir {
                Direction::Across => keys::RIGHT,
                Direction::Down => keys::DOWN,
            };
            press(turn, &mut self.at);
        }
        assert_eq!(self.at, Some((to, dir)));
        pressed
    }

    /// A letter typed at the cursor: laid there, the cursor one cell on.
    fn typed(&mut self) {
        let (at, d) = self.at.unwrap();
        let next = match d {
            Direction::Across => Pos::new(at.x + 1, at.y),
            Direction::Down => Pos::new(at.x, at.y + 1),
        };
        self.at = Some((next, d));
    }
}

/// The line the placements make (a single letter: across).
fn heading(letters: &[Placement]) -> Direction {
    match letters {
        [a, b, ..] if a.at.x == b.at.x => Direction::Down,
        _ => Direction::Across,
    }
}

/// The keys that lay `letters` on the board and commit them.
fn keys_for(cursor: &mut Cursor, letters: &[Placement], size: (u32, u32)) -> Vec<String> {
    let dir = heading(letters);
    let mut pressed = Vec::new();
    for placement in letters {
        pressed.extend(
            cursor
                .keys_to(placement.at, dir, size)
                .into_iter()
                .map(String::from),
        );
        pressed.push(placement.letter.to_ascii_lowercase().to_string());
        cursor.typed();
    }
    pressed.push(keys::ENTER.to_string());
    pressed
}

/// A round of Word Wars against the server's AI, played to its end in the browser from the
/// keyboard: each of gold's words chosen (by the test, on what the page was shown) and laid
/// with the arrow keys and letters, committed with Enter; the round ends as the rules end it,
/// the page shown its result.
#[test]
fn a_round_of_word_wars_is_played_in_the_browser_against_the_ai_to_its_end() {
    let Some(browser) = Browser::start() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let server = playing_server(&dir.path().join("data"), Duration::from_millis(20));
    let address = format!("http://{}", server.addr);
    let made = scryptic::client::Lobby::new(&address)
        .create(CreateMatch {
            pack: "word-wars".into(),
            mode: String::new(),
            map: String::new(),
            settings: [("rounds".to_string(), "2".to_string())].into(),
            seats: [(
                "silver".to_string(),
                SeatRequest::Ai {
                    level: "easy".into(),
                },
            )]
            .into(),
            seed: Some(SEED),
            log_after_end: true,
        })
        .unwrap();
    browser.open(&format!("{address}/matches/{}?seat=gold&name=Bea", made.id));
    let lexicon = Arc::new(Lexicon::english());
    let mut told = Told {
        welcome: None,
        view: None,
    };
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
        let pressed = keys_for(&mut cursor, &letters, size);
        let before = told.actions();
        browser.press(&pressed.iter().map(String::as_str).collect::<Vec<_>>());
        let after = told.until(&browser, &lexicon, "gold's word played", |_, actions| {
            actions > before
        });
        for placement in &letters {
            let tile = after
                .board()
                .letters
                .get(placement.at)
                .and_then(Option::as_ref);
            assert_eq!(
                tile.map(|t| t.letter),
                Some(placement.letter),
                "{placement:?} on the board"
            );
        }
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
