//! Word Wars on a phone in a real browser (chromium's emulation of one, touch): a word laid and
//! committed by touch alone, what to touch found on the screen as an eye finds it.
#![allow(
    clippy::unwrap_used,
    reason = "tests unwrap: a panic there is a failure"
)]

use scryptic::Player;
use scryptic::ai::{AiPlayer, Level};
use scryptic::game::Action;
use scryptic::lexicon::Lexicon;
use scryptic_tests::browser::{Browser, ai_match, playing_server};
use scryptic_tests::page_play::{Told, assert_laid};
use scryptic_tests::screen::{board_rect, coin_centres, first_button_below, screen};
use std::sync::Arc;
use std::time::Duration;

/// The deal: one where gold, choosing as the hard AI would, has a word each turn.
const SEED: u64 = 3;

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
    let made = ai_match(&address, "word-wars", &[("silver", "easy")], SEED);
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
        let shown = phone.keep_screenshot(&name);
        assert_laid(&after, &letters, &shown);
    }
}
