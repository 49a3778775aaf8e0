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
use scryptic::game::{Action, Event, Game, Placement};
use scryptic::lexicon::Lexicon;
use scryptic::map::Direction;
use scryptic::protocol::welcome::Welcome;
use scryptic::protocol::{CreateMatch, SeatRequest, ServerFrame, View};
use scryptic::{Player, Pos};
use scryptic_tests::browser::{Browser, keys, playing_server};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What the page was told: the welcome, the last view of the game, and every event the views
/// brought.
#[derive(Default)]
struct Told {
    welcome: Option<Welcome>,
    view: Option<Box<View>>,
    events: Vec<Event>,
}

impl Told {
    /// Reads the frames the page received since the last look.
    fn take_in(&mut self, browser: &Browser) {
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
    fn game(&self, lexicon: &Arc<Lexicon>) -> Option<Game> {
        let (welcome, view) = (self.welcome.as_ref()?, self.view.as_ref()?);
        let rules = welcome.rules.clone();
        let snapshot = view.snapshot.clone();
        Some(Game::from_snapshot(&welcome.map, rules, lexicon.clone(), snapshot).unwrap())
    }

    /// Waits (a minute at most) until the page has seen a view in which `ready` holds (of the
    /// game and the view it came in).
    fn until(
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

    fn actions(&self) -> u64 {
        self.view.as_ref().map_or(0, |v| v.actions)
    }
}

/// The board's typing cursor as the play view moves it, as far as the test knows (none: not
/// known, and homed first).
#[derive(Default)]
struct Cursor(Option<(Pos, Direction)>);

impl Cursor {
    /// The keys that put the cursor on `to`, headed `dir`, on a board `size` cells. Not known,
    /// it is homed first: Escape (closing a fight's steps still shown, or taking the cursor
    /// away), an arrow (a cursor if there was none), then to the top left corner (the arrows
    /// stop at the edges), headed down. Then along its line first, then across it (a press
    /// across the cursor's line turns it without moving it), and turned as wanted.
    fn keys_to(&mut self, to: Pos, dir: Direction, (w, h): (u32, u32)) -> Vec<&'static str> {
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
    fn typed(&mut self) {
        if let Some((at, dir)) = self.0 {
            self.0 = Some((step(at, dir), dir));
        }
    }

    /// Backspace at the cursor: the letter before it taken back, the cursor on its cell.
    fn took_back(&mut self, cell: Pos) {
        if let Some((_, dir)) = self.0 {
            self.0 = Some((cell, dir));
        }
    }
}

fn step(at: Pos, dir: Direction) -> Pos {
    match dir {
        Direction::Across => Pos::new(at.x + 1, at.y),
        Direction::Down => Pos::new(at.x, at.y + 1),
    }
}

/// The line the placements make (a single letter: across).
fn heading(letters: &[Placement]) -> Direction {
    match letters {
        [a, b, ..] if a.at.x == b.at.x => Direction::Down,
        _ => Direction::Across,
    }
}

/// The keys that lay `letters` on the board, each where it goes, and commit them: Enter, and
/// Enter again to go on with an `attack` (the combat dialog's first choice).
fn keys_for(
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
    let made = scryptic::client::Lobby::new(&address)
        .create(CreateMatch {
            pack: "core".into(),
            mode: String::new(),
            map: "maps/tutorial.ron".into(),
            settings: Default::default(),
            seats: Default::default(),
            seed: Some(CLASSIC_SEED),
            log_after_end: true,
        })
        .unwrap();
    gold_page.open(&format!("{address}/matches/{}?seat=gold&name=Ada", made.id));
    silver_page.open(&format!(
        "{address}/matches/{}?seat=silver&name=Bo",
        made.id
    ));
    let pages = [&gold_page, &silver_page];
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
    let made = scryptic::client::Lobby::new(&address)
        .create(CreateMatch {
            pack: "lexicon-crossing".into(),
            mode: "s98".into(),
            map: String::new(),
            settings: settings.map(|(k, v)| (k.into(), v.into())).into(),
            seats: [(
                "seat3".to_string(),
                SeatRequest::Ai {
                    level: "easy".into(),
                },
            )]
            .into(),
            seed: Some(LC_SEED),
            log_after_end: true,
        })
        .unwrap();
    gold_page.open(&format!("{address}/matches/{}?seat=gold&name=Ada", made.id));
    silver_page.open(&format!(
        "{address}/matches/{}?seat=silver&name=Bo",
        made.id
    ));
    let pages = [&gold_page, &silver_page];
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

/// Whether two crosswords hold the same letters on the same cells.
fn same_crossword(a: &[Placement], b: &[Placement]) -> bool {
    a.len() == b.len() && a.iter().all(|p| b.contains(p))
}

/// The keys that turn the crossword `laid` into `wanted`: each letter that goes or moves taken
/// back (Backspace from the cell after it), then each new one typed where it goes.
fn keys_to_lay_out(
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

/// The deal of the Lexicon Crossing match.
const LC_SEED: u64 = 21;

/// Word Wars on a phone held upright (chromium's emulation of one: 390x844, touch): gold's
/// first words laid by touch alone, a cell tapped then a letter of the rack tapped (laid
/// there), then Commit tapped. The board, the rack's letters and the button are found on the
/// screen by their colours, as an eye finds them. (Chromium's emulation at two device pixels to
/// one reports the canvas's device-pixel size in CSS pixels, and eframe draws at half the
/// width; a phone's browser does not, so the phone here is at one to one.)
#[test]
fn a_phone_plays_word_wars_by_touch() {
    let Some(phone) = Browser::phone(390, 844, 1.0) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let server = playing_server(&dir.path().join("data"), Duration::from_millis(20));
    let address = format!("http://{}", server.addr);
    let made =
        scryptic_tests::browser::ai_match(&address, "word-wars", &[("silver", "easy")], SEED);
    phone.open(&format!("{address}/matches/{}?seat=gold&name=Pia", made.id));
    let lexicon = Arc::new(Lexicon::english());
    let mut told = Told::default();
    let mut chooser = AiPlayer::new(Level::Hard, SEED);
    for word in 0..2 {
        let game = told.until(&phone, &lexicon, "gold's turn", |g, _| {
            g.to_act() == Player::Gold
        });
        let Action::Commit { letters } = chooser.choose(&game) else {
            panic!("gold has no word (choose another SEED)");
        };
        phone.next_frames();
        let shot = screen(&phone);
        let board = board_rect(&shot);
        let coins = coin_centres(&shot, board.max.y);
        let rack: Vec<char> = game.rack_letters(Player::Gold).chars().collect();
        assert_eq!(coins.len(), rack.len(), "a coin for each letter: {coins:?}");
        let size = (game.board().terrain.width(), game.board().terrain.height());
        let mut left = rack.clone();
        for placement in &letters {
            let cell = board.cell_centre(placement.at, size);
            phone.tap(cell.x, cell.y);
            // The coins left are where the first ones were (the rack keeps its order).
            let i = left.iter().position(|&c| c == placement.letter).unwrap();
            phone.tap(coins[i].x, coins[i].y);
            left.remove(i);
        }
        phone.next_frames();
        let shot = screen(&phone);
        let name = format!("phone-word-{word}.png");
        let commit = first_button_below(&shot, coins[0].y).unwrap_or_else(|| {
            panic!(
                "no button under the rack ({})",
                phone.keep_screenshot(&name)
            )
        });
        let before = told.actions();
        phone.tap(commit.x, commit.y);
        let after = told.until(&phone, &lexicon, "the word played", |_, v| {
            v.actions > before
        });
        for placement in &letters {
            let tile = after
                .board()
                .letters
                .get(placement.at)
                .and_then(Option::as_ref);
            let shown = phone.keep_screenshot(&name);
            assert_eq!(
                tile.map(|t| t.letter),
                Some(placement.letter),
                "{placement:?} ({shown})"
            );
        }
    }
}

/// The centre of the first button under the rack (its coins' row at `coins`): the coins and
/// then the rack's frame left behind, the next rows of a button's fill, and the first of them
/// across.
fn first_button_below(shot: &image::RgbImage, coins: f64) -> Option<Point> {
    // The theme's fill of a panel's frame and of a button that can be pressed.
    let fill = |p: &image::Rgb<u8>| {
        let [r, g, b] = p.0;
        r.abs_diff(74) < 8 && g.abs_diff(63) < 8 && b.abs_diff(51) < 8
    };
    let (w, h) = shot.dimensions();
    let run_at = |y: u32| {
        runs((0..w).filter(|&x| fill(shot.get_pixel(x, y))))
            .into_iter()
            .find(|(left, right)| right - left >= 40)
    };
    let mut y = coins as u32;
    while y < h && (0..w).any(|x| gold(shot.get_pixel(x, y))) {
        y += 1;
    }
    while y < h && run_at(y).is_some() {
        y += 1;
    }
    while y < h && run_at(y).is_none() {
        y += 1;
    }
    let top = y;
    while y + 1 < h && run_at(y + 1).is_some() {
        y += 1;
    }
    let (left, right) = run_at(top + 2)?;
    Some(Point {
        x: f64::from(left + right) / 2.0,
        y: f64::from(top + y) / 2.0,
    })
}

fn screen(browser: &Browser) -> image::RgbImage {
    image::load_from_memory(&browser.screenshot())
        .unwrap()
        .to_rgb8()
}

#[derive(Debug, Clone, Copy)]
struct Point {
    x: f64,
    y: f64,
}

#[derive(Debug)]
struct Rect {
    min: Point,
    max: Point,
}

impl Rect {
    fn cell_centre(&self, at: Pos, (w, h): (u32, u32)) -> Point {
        let (cw, ch) = (
            (self.max.x - self.min.x) / f64::from(w),
            (self.max.y - self.min.y) / f64::from(h),
        );
        Point {
            x: self.min.x + (f64::from(at.x) + 0.5) * cw,
            y: self.min.y + (f64::from(at.y) + 0.5) * ch,
        }
    }
}

/// The plain cells' sand.
fn sand(p: &image::Rgb<u8>) -> bool {
    let [r, g, b] = p.0;
    r > 170 && g > 110 && b < 140 && r > b.saturating_add(70)
}

/// A rack coin's gold.
fn gold(p: &image::Rgb<u8>) -> bool {
    let [r, g, b] = p.0;
    r > 150 && g > 110 && b < 90
}

/// The board: the rows mostly of sand, and their extent across.
fn board_rect(shot: &image::RgbImage) -> Rect {
    let (w, h) = shot.dimensions();
    let sandy = |y: u32| (0..w).filter(|&x| sand(shot.get_pixel(x, y))).count();
    let rows: Vec<u32> = (0..h)
        .filter(|&y| sandy(y) > (w as usize) * 3 / 4)
        .collect();
    let (top, bottom) = (rows[0], *rows.last().unwrap());
    let middle = (top + bottom) / 2;
    let columns: Vec<u32> = (0..w)
        .filter(|&x| sand(shot.get_pixel(x, middle)))
        .collect();
    let (left, right) = (columns[0], *columns.last().unwrap());
    Rect {
        min: Point {
            x: f64::from(left),
            y: f64::from(top),
        },
        max: Point {
            x: f64::from(right + 1),
            y: f64::from(bottom + 1),
        },
    }
}

/// The centres of the rack's coins below `from`, in reading order: bands of rows holding gold,
/// and in each the runs of columns holding it.
fn coin_centres(shot: &image::RgbImage, from: f64) -> Vec<Point> {
    let (w, h) = shot.dimensions();
    let from = from as u32 + 2;
    let row_has = |y: u32| (0..w).any(|x| gold(shot.get_pixel(x, y)));
    let mut centres = Vec::new();
    for (top, bottom) in runs((from..h).filter(|&y| row_has(y))) {
        if bottom - top < 20 {
            continue;
        }
        let column_has = |x: u32| (top..=bottom).any(|y| gold(shot.get_pixel(x, y)));
        for (left, right) in runs((0..w).filter(|&x| column_has(x))) {
            if right - left >= 20 {
                let y = f64::from(top + bottom) / 2.0;
                centres.push(Point {
                    x: f64::from(left + right) / 2.0,
                    y,
                });
            }
        }
        // The rack's coins come first below the board; what follows is not theirs.
        if centres.len() >= 7 {
            break;
        }
    }
    centres
}

/// The runs of consecutive numbers in `numbers` (ascending), as first and last.
fn runs(numbers: impl Iterator<Item = u32>) -> Vec<(u32, u32)> {
    let mut runs: Vec<(u32, u32)> = Vec::new();
    for n in numbers {
        match runs.last_mut() {
            Some((_, last)) if *last + 1 == n => *last = n,
            _ => runs.push((n, n)),
        }
    }
    runs
}

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
    let made = scryptic::client::Lobby::new(&address)
        .create(CreateMatch {
            pack: "scryper".into(),
            mode: String::new(),
            map: String::new(),
            settings: settings.map(|(k, v)| (k.into(), v.into())).into(),
            seats: [(
                "brown".to_string(),
                SeatRequest::Ai {
                    level: "easy".into(),
                },
            )]
            .into(),
            seed: Some(SEED),
            log_after_end: true,
        })
        .unwrap();
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

/// Hosts a match of `pack` on the site at `address` through its Host form (each seat `me`,
/// `open` or an AI level; the host named Ada; dealt by `SEED`), and opens the host's seat from
/// the link the site gives.
fn host_on_the_site(browser: &Browser, address: &str, pack: &str, seats: &[(&str, &str)]) {
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
    browser.type_into("#host-seed", &SEED.to_string());
    browser.click("#host-submit");
    browser.wait_for(
        "the hosted match's links",
        "return document.querySelector('#host-result a.play') !== null",
    );
    browser.click("#host-result a.play");
}
