//! Matches played in the browser client as a person plays them, for the browser tests: what a
//! page was told (its WebSocket's frames, read from chromium's own network log), the board's
//! typing cursor as the play view moves it and the keys that lay a word or a crossword, and a
//! match hosted on the server's site.

#![allow(
    clippy::unwrap_used,
    reason = "test helpers: a panic there is the test's failure"
)]

use crate::browser::{Browser, keys};
use scryptic::Pos;
use scryptic::game::{Event, Game, Placement};
use scryptic::lexicon::Lexicon;
use scryptic::map::Direction;
use scryptic::protocol::welcome::Welcome;
use scryptic::protocol::{ServerFrame, View};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What the page was told: the welcome, the last view of the game, and every event the views
/// brought.
#[derive(Default)]
pub struct Told {
    /// The welcome, read.
    pub welcome: Option<Welcome>,
    /// The last view.
    pub view: Option<Box<View>>,
    /// Every event the views brought.
    pub events: Vec<Event>,
}

impl Told {
    /// Reads the frames the page received since the last look.
    pub fn take_in(&mut self, browser: &Browser) {
        for text in browser.websocket_frames() {
            let frame: ServerFrame = scryptic::protocol::read(&text, usize::MAX).unwrap();
            if let Some(welcome) = Welcome::read(&frame) {
                self.welcome = Some(welcome.unwrap());
            } else if let ServerFrame::View(view) = frame {
                self.events.extend(view.events.iter().cloned());
                self.view = Some(view);
            }
        }
    }

    /// The game as the page's seat sees it after its last view.
    pub fn game(&self, lexicon: &Arc<Lexicon>) -> Option<Game> {
        let (welcome, view) = (self.welcome.as_ref()?, self.view.as_ref()?);
        let rules = welcome.rules.clone();
        let snapshot = view.snapshot.clone();
        Some(Game::from_snapshot(&welcome.map, rules, lexicon.clone(), snapshot).unwrap())
    }

    /// Waits (a minute at most) until the page has seen a view in which `ready` holds (of the
    /// game and the view it came in).
    pub fn until(
        &mut self,
        browser: &Browser,
        lexicon: &Arc<Lexicon>,
        what: &str,
        ready: impl Fn(&Game, &View) -> bool,
    ) -> Game {
        let start = Instant::now();
        loop {
            self.take_in(browser);
            let view = self.view.as_deref();
            if let Some(game) = self
                .game(lexicon)
                .filter(|g| view.is_some_and(|v| ready(g, v)))
            {
                return game;
            }
            if start.elapsed() > Duration::from_secs(60) {
                let shown = browser.keep_screenshot("browser-play-stuck.png");
                panic!("the page never saw {what} ({shown})");
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    pub fn actions(&self) -> u64 {
        self.view.as_ref().map_or(0, |v| v.actions)
    }
}

/// The board's typing cursor as the play view moves it, as far as the test knows (none: not
/// known, and homed first).
#[derive(Default)]
pub struct Cursor(pub Option<(Pos, Direction)>);

impl Cursor {
    /// The keys that put the cursor on `to`, headed `dir`, on a board `size` cells. Not known,
    /// it is homed first: Escape (closing a fight's steps still shown, or taking the cursor
    /// away), an arrow (a cursor if there was none), then to the top left corner (the arrows
    /// stop at the edges), headed down. Then along its line first, then across it (a press
    /// across the cursor's line turns it without moving it), and turned as wanted.
    pub fn keys_to(&mut self, to: Pos, dir: Direction, (w, h): (u32, u32)) -> Vec<&'static str> {
        let mut keys = Vec::new();
        let (mut at, mut heading) = self.0.unwrap_or_else(|| {
            keys.extend([keys::ESCAPE, keys::RIGHT]);
            keys.extend(std::iter::repeat_n(keys::LEFT, w as usize));
            keys.push(keys::UP); // turned down
            keys.extend(std::iter::repeat_n(keys::UP, h as usize));
            (Pos::new(0, 0), Direction::Down)
        });
        let lines = match heading {
            Direction::Down => [Direction::Down, Direction::Across],
            Direction::Across => [Direction::Across, Direction::Down],
        };
        for line in lines {
            let (from, want, more, less) = match line {
                Direction::Across => (at.x, to.x, keys::RIGHT, keys::LEFT),
                Direction::Down => (at.y, to.y, keys::DOWN, keys::UP),
            };
            if from == want {
                continue;
            }
            let key = if want > from { more } else { less };
            if heading != line {
                keys.push(key);
                heading = line;
            }
            keys.extend(std::iter::repeat_n(key, from.abs_diff(want) as usize));
            at = match line {
                Direction::Across => Pos::new(want, at.y),
                Direction::Down => Pos::new(at.x, want),
            };
        }
        if heading != dir {
            keys.push(match dir {
                Direction::Across => keys::RIGHT,
                Direction::Down => keys::DOWN,
            });
        }
        self.0 = Some((to, dir));
        keys
    }

    /// A letter typed at the cursor: laid there, the cursor a cell on.
    pub fn typed(&mut self) {
        if let Some((at, dir)) = self.0 {
            self.0 = Some((step(at, dir), dir));
        }
    }

    /// Backspace at the cursor: the letter before it taken back, the cursor on its cell.
    pub fn took_back(&mut self, cell: Pos) {
        if let Some((_, dir)) = self.0 {
            self.0 = Some((cell, dir));
        }
    }
}

pub fn step(at: Pos, dir: Direction) -> Pos {
    match dir {
        Direction::Across => Pos::new(at.x + 1, at.y),
        Direction::Down => Pos::new(at.x, at.y + 1),
    }
}

/// The line the placements make (a single letter: across).
pub fn heading(letters: &[Placement]) -> Direction {
    match letters {
        [a, b, ..] if a.at.x == b.at.x => Direction::Down,
        _ => Direction::Across,
    }
}

/// The keys that lay `letters` on the board, each where it goes, and commit them: Enter, and
/// Enter again to go on with an `attack` (the combat dialog's first choice).
pub fn keys_for(
    cursor: &mut Cursor,
    letters: &[Placement],
    size: (u32, u32),
    attack: bool,
) -> Vec<String> {
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
    if attack {
        pressed.push(keys::ENTER.to_string());
    }
    pressed
}

/// Whether two crosswords hold the same letters on the same cells.
pub fn same_crossword(a: &[Placement], b: &[Placement]) -> bool {
    a.len() == b.len() && a.iter().all(|p| b.contains(p))
}

/// The keys that turn the crossword `laid` into `wanted`: each letter that goes or moves taken
/// back (Backspace from the cell after it), then each new one typed where it goes.
pub fn keys_to_lay_out(
    cursor: &mut Cursor,
    laid: &[Placement],
    wanted: &[Placement],
    size: (u32, u32),
) -> Vec<String> {
    let mut pressed = Vec::new();
    for gone in laid.iter().filter(|p| !wanted.contains(p)) {
        let (dir, after) = if gone.at.x + 1 < size.0 {
            (Direction::Across, step(gone.at, Direction::Across))
        } else {
            (Direction::Down, step(gone.at, Direction::Down))
        };
        pressed.extend(
            cursor
                .keys_to(after, dir, size)
                .into_iter()
                .map(String::from),
        );
        pressed.push(keys::BACKSPACE.to_string());
        cursor.took_back(gone.at);
    }
    for new in wanted.iter().filter(|p| !laid.contains(p)) {
        let dir = cursor.0.map_or(Direction::Across, |(_, d)| d);
        pressed.extend(
            cursor
                .keys_to(new.at, dir, size)
                .into_iter()
                .map(String::from),
        );
        pressed.push(new.letter.to_ascii_lowercase().to_string());
        cursor.typed();
    }
    pressed
}

/// Hosts a match of `pack` on the site at `address` through its Host form (each seat `me`,
/// `open` or an AI level; the host named Ada; dealt by `seed`), and opens the host's seat from
/// the link the site gives.
pub fn host_on_the_site(
    browser: &Browser,
    address: &str,
    pack: &str,
    seats: &[(&str, &str)],
    seed: u64,
) {
    browser.open(&format!("{address}/"));
    browser.wait_for(
        "the Host form's seats",
        "return document.querySelectorAll('#host-seat-list [data-seat]').length > 0",
    );
    let mut script = format!(
        "const pack = document.getElementById('host-pack'); pack.value = '{pack}'; \
         pack.dispatchEvent(new Event('change')); "
    );
    for (seat, who) in seats {
        script += &format!(
            "document.querySelector('#host-seat-list [data-seat=\"{seat}\"]').value = '{who}'; "
        );
    }
    browser.run(&(script + "return true"));
    browser.type_into("#host-name", "Ada");
    browser.type_into("#host-seed", &seed.to_string());
    browser.click("#host-submit");
    browser.wait_for(
        "the hosted match's links",
        "return document.querySelector('#host-result a.play') !== null",
    );
    browser.click("#host-result a.play");
}

/// Asserts that `game`'s board holds `letters` where they were laid (`how`: how, for the
/// message).
pub fn assert_laid(game: &Game, letters: &[Placement], how: &str) {
    for placement in letters {
        let tile = game
            .board()
            .letters
            .get(placement.at)
            .and_then(Option::as_ref);
        assert_eq!(
            tile.map(|t| t.letter),
            Some(placement.letter),
            "{placement:?} on the board ({how})"
        );
    }
}
