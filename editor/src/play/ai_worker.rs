//! The AI seats' worker: each AI player, and the one working out its action on a copy of the
//! game on its own thread, so the window keeps drawing while it thinks. The session decides
//! when an AI may act and applies what it answers.

use super::here::LocalSeat;
use scryptic::Player;
use scryptic::ai::AiPlayer;
use scryptic::game::{Action, Game};
use std::sync::mpsc::{Receiver, TryRecvError};
use std::time::{Duration, Instant};

/// An AI working out its action on a copy of the game.
struct Thinking {
    receiver: Receiver<(AiPlayer, Option<Action>)>,
    /// The game's log length when it began (a seat that waits is not asked again until the
    /// game moves on).
    log_len: usize,
    player: Player,
    started: Instant,
}

/// The AI players of a game's seats, one of them perhaps thinking.
#[derive(Default)]
pub struct AiWorker {
    /// Each seat's AI (`None` for a person's seat, and while that AI thinks: its thread
    /// holds it).
    players: Vec<Option<AiPlayer>>,
    thinking: Option<Thinking>,
    /// In simultaneous play, the seat asked first next time.
    next_seat: usize,
    /// In simultaneous play, the log length at which each seat last chose to wait.
    waiting_at: Vec<Option<usize>>,
}

/// What the worker has to say after a look.
#[derive(Debug, PartialEq)]
pub enum AiAnswer {
    /// The AI of this seat chose this action.
    Chose(Player, Action),
    /// The AI waits (simultaneous play: nothing to do until the game moves on).
    Waits,
    /// The AI's thread stopped without an answer (it panicked).
    Stopped,
}

impl AiWorker {
    /// An AI for each AI seat, seeded with the game's `seed` as `scryptic play` and
    /// `scryptic simulate` seed theirs: a game found in a simulation's report (a seed and the
    /// levels) plays the same here. (Each AI's chances still differ from seat to seat: they
    /// follow the game's moment, which differs from seat to seat.)
    pub fn new(seats: &[LocalSeat], seed: u64) -> AiWorker {
        let players = seats
            .iter()
            .map(|seat| match seat {
                LocalSeat::Ai(level, think) => Some(AiPlayer::new(*level, seed).thinking(*think)),
                LocalSeat::Human => None,
            })
            .collect();
        AiWorker {
            players,
            waiting_at: vec![None; seats.len()],
            ..AiWorker::default()
        }
    }

    /// The AI thinking now, and for how long.
    pub fn thinking(&self) -> Option<(Player, Duration)> {
        self.thinking
            .as_ref()
            .map(|t| (t.player, t.started.elapsed()))
    }

    /// Sets `game`'s player to act thinking on a copy of it, when that player is an AI and
    /// none is thinking already; `repaint` is woken when the answer is ready, so the window
    /// need not poll. Answers whether an AI started.
    pub fn start(&mut self, game: &Game, repaint: Option<egui::Context>) -> bool {
        if self.thinking.is_some() {
            return false;
        }
        let player = game.to_act();
        self.think(game, player, false, repaint)
    }

    /// In simultaneous play, sets the next AI seat that is not waiting on this moment thinking
    /// (see `start`), among those `ready` (their pace lets them act). Answers whether an AI
    /// started.
    pub fn start_at_once(
        &mut self,
        game: &Game,
        ready: impl Fn(Player) -> bool,
        repaint: Option<egui::Context>,
    ) -> bool {
        if self.thinking.is_some() {
            return false;
        }
        let seats = self.players.len().max(1);
        let now = game.log().len();
        for _ in 0..seats {
            let seat = self.next_seat % seats;
            self.next_seat = (seat + 1) % seats;
            let waits = self.waiting_at.get(seat).copied().flatten() == Some(now);
            let Some(player) = Player::seat(seat) else {
                continue;
            };
            if !waits && ready(player) && self.think(game, player, true, repaint.clone()) {
                return true;
            }
        }
        false
    }

    /// Whether every AI seat waits on this moment of `game` (simultaneous play).
    pub fn all_waiting(&self, game: &Game) -> bool {
        let now = Some(game.log().len());
        self.thinking.is_none()
            && self
                .players
                .iter()
                .zip(&self.waiting_at)
                .all(|(ai, waiting)| ai.is_none() || *waiting == now)
    }

    /// Sets `player`'s AI thinking on a copy of `game` (`at_once`: as simultaneous play asks).
    fn think(
        &mut self,
        game: &Game,
        player: Player,
        at_once: bool,
        repaint: Option<egui::Context>,
    ) -> bool {
        let Some(mut ai) = self.players.get_mut(player.index()).and_then(Option::take) else {
            return false;
        };
        let copy = game.clone();
        let (sender, receiver) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let action = if at_once {
                ai.choose_at_once(&copy, player)
            } else {
                Some(ai.choose(&copy))
            };
            // The session may have moved on (undo, a new game): then nobody listens.
            let _ = sender.send((ai, action));
            if let Some(ctx) = repaint {
                ctx.request_repaint();
            }
        });
        self.thinking = Some(Thinking {
            receiver,
            player,
            log_len: game.log().len(),
            started: Instant::now(),
        });
        true
    }

    /// The thinking AI's answer, once it has one; the AI is back in its seat for its next
    /// turn.
    pub fn collect(&mut self) -> Option<AiAnswer> {
        let thinking = self.thinking.as_ref()?;
        match thinking.receiver.try_recv() {
            Ok((ai, action)) => {
                let player = thinking.player;
                let seat = player.index();
                let log_len = thinking.log_len;
                if let Some(place) = self.players.get_mut(seat) {
                    *place = Some(ai);
                }
                self.thinking = None;
                match action {
                    Some(action) => Some(AiAnswer::Chose(player, action)),
                    None => {
                        if let Some(waiting) = self.waiting_at.get_mut(seat) {
                            *waiting = Some(log_len);
                        }
                        Some(AiAnswer::Waits)
                    }
                }
            }
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => {
                self.thinking = None;
                Some(AiAnswer::Stopped)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::Document;
    use crate::play::setup::{SetupForm, Source};
    use scryptic::ai::{Level, Think};
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};

    fn tutorial_game() -> Game {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .parent()
            .unwrap_or(std::path::Path::new(".."));
        let form = SetupForm {
            source: Source::MapFile,
            path: root.join("maps/tutorial.ron").display().to_string(),
            ..SetupForm::default()
        };
        let dictionary = crate::lexicon_mode::dictionary();
        match crate::play::start::start(&form, &Document::default(), dictionary) {
            Ok(started) => started.session.game().clone(),
            Err(e) => panic!("the tutorial starts: {e}"),
        }
    }

    /// An AI seat thinks on its own thread, wakes the window when it has answered (no
    /// polling), and is back in its seat for its next turn.
    #[test]
    fn an_ai_seat_thinks_apart_and_wakes_the_window() {
        let game = tutorial_game();
        let ctx = egui::Context::default();
        let woken = Arc::new(AtomicBool::new(false));
        let flag = woken.clone();
        ctx.set_request_repaint_callback(move |_| flag.store(true, Ordering::SeqCst));
        let mut worker = AiWorker::new(
            &[LocalSeat::Ai(Level::Easy, Think::Off), LocalSeat::Human],
            game.seed(),
        );
        assert!(worker.start(&game, Some(ctx)));
        assert_eq!(worker.thinking().map(|t| t.0), Some(Player::Gold));
        assert!(!worker.start(&game, None), "one AI thinks at a time");
        let answer = loop {
            if let Some(answer) = worker.collect() {
                break answer;
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        assert!(matches!(answer, AiAnswer::Chose(..)), "{answer:?}");
        assert!(woken.load(Ordering::SeqCst), "the answer woke the window");
        assert!(worker.thinking().is_none());
        assert!(worker.start(&game, None), "the AI is back in its seat");
    }

    /// AI against AI plays the game the command line plays with the same seed and levels
    /// (`scryptic play --ai gold:hard --ai silver:easy --seed S`, and `simulate`).
    #[test]
    fn ai_against_ai_plays_the_command_lines_game() {
        let mut game = tutorial_game();
        let seed = game.seed();
        let levels = [Level::Hard, Level::Easy];
        let mut worker = AiWorker::new(&levels.map(|l| LocalSeat::Ai(l, Think::Off)), seed);
        let mut command_line = levels.map(|l| AiPlayer::new(l, seed));
        for _ in 0..60 {
            if game.result().is_some() {
                break;
            }
            let expected = command_line[game.to_act().index()].choose(&game);
            assert!(worker.start(&game, None));
            let answer = loop {
                if let Some(answer) = worker.collect() {
                    break answer;
                }
                std::thread::sleep(Duration::from_millis(1));
            };
            assert_eq!(
                answer,
                AiAnswer::Chose(game.to_act(), expected.clone()),
                "at {}",
                game.log().len()
            );
            game.apply(expected).unwrap();
        }
        assert!(game.log().len() >= 40, "{} actions", game.log().len());
    }

    /// A person's seat has no AI: nothing starts on their turn.
    #[test]
    fn a_persons_seat_never_thinks() {
        let game = tutorial_game();
        let mut worker = AiWorker::new(
            &[LocalSeat::Human, LocalSeat::Ai(Level::Easy, Think::Off)],
            game.seed(),
        );
        assert_eq!(game.to_act(), Player::Gold);
        assert!(!worker.start(&game, None));
        assert_eq!(worker.collect(), None);
    }
}
