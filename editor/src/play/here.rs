//! The referee of a game played here, in the editor: the game with its scripts, the AIs of its
//! AI seats thinking on their own threads, live reloads of the files it was made from, undo,
//! and the grace period's clock on this computer's time. The play view reaches it through
//! [`Referee`]; the editor reaches what only it has (the save, the scripts, the watched files)
//! through [`EditorSession`].

use super::ai_worker::{AiAnswer, AiWorker};
use super::remote::RemoteSeat;
use scryptic::Player;
use scryptic::ai::{Level, Think};
use scryptic::game::{Action, Game};
use scryptic::pack::TilesetRef;
use scryptic::script::ScriptedGame;
use scryptic::script::live::LiveFiles;
use scryptic_play::{Heard, NextRound, Outcome, Pace, Referee, Seat, Session};
use std::any::Any;
use std::time::{Duration, Instant};

/// Who plays a side of a game here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LocalSeat {
    /// A person at this computer.
    Human,
    /// The AI at a level, thinking so long a move (only the hard level thinks).
    Ai(Level, Think),
}

/// A game refereed here.
pub struct Here {
    game: Box<ScriptedGame>,
    /// Who plays each seat, gold's first.
    pub seats: Vec<LocalSeat>,
    /// The watched files the game was made from.
    pub live: LiveFiles,
    /// The tileset the board shows, which a saved game names for wherever it is written.
    pub tileset: Option<TilesetRef>,
    /// The AIs' pace when they play each other.
    pub pace: Pace,
    ai: AiWorker,
    /// Woken when an AI's answer is ready (the window's context; none in tests that poll).
    repaint: Option<egui::Context>,
    last_ai_action: Option<Instant>,
    /// In a game played at once with a person, each AI seat's clock (by seat index), on the
    /// milliseconds since `began`.
    pacers: scryptic::ai::Pacers,
    began: Instant,
    undo_marks: Vec<usize>,
    /// When red light was seen called: the grace period's clock.
    red_light_at: Option<Instant>,
}

impl Here {
    /// The referee of `game` with `seats`, watching `live`.
    pub fn new(game: ScriptedGame, seats: Vec<LocalSeat>, live: LiveFiles) -> Here {
        let ai = AiWorker::new(&seats, game.game().seed());
        Here {
            game: Box::new(game),
            seats,
            live,
            tileset: None,
            pace: Pace::default(),
            ai,
            repaint: None,
            last_ai_action: None,
            pacers: Default::default(),
            began: Instant::now(),
            undo_marks: Vec::new(),
            red_light_at: None,
        }
    }

    /// A session showing this game, titled `title`.
    pub fn session(self, title: String) -> Session {
        let seats = self
            .seats
            .iter()
            .map(|seat| match seat {
                LocalSeat::Human => Seat::Human,
                LocalSeat::Ai(..) => Seat::Ai,
            })
            .collect();
        Session::new(Box::new(self), seats, title)
    }

    /// The game with its scripts.
    pub fn scripted(&self) -> &ScriptedGame {
        &self.game
    }

    fn has_human(&self) -> bool {
        self.seats.contains(&LocalSeat::Human)
    }

    /// The scripts' output since the last look.
    fn console(&self, heard: &mut Vec<Heard>) {
        let lines: Vec<String> = (self.game.host().drain_console().iter())
            .map(ToString::to_string)
            .collect();
        if !lines.is_empty() {
            heard.push(Heard::Console(lines));
        }
    }

    /// Replaces the game whole (undone, the next round): a fresh AI worker, so an AI still
    /// thinking about the game replaced is not listened to.
    fn replace(&mut self, game: ScriptedGame) {
        *self.game = game;
        self.ai = AiWorker::new(&self.seats, self.game.game().seed());
        self.pacers = Default::default();
        self.red_light_at = None;
    }

    fn collect_ai(&mut self, heard: &mut Vec<Heard>) {
        match self.ai.collect() {
            None | Some(AiAnswer::Waits) => {}
            Some(AiAnswer::Chose(seat, action)) => {
                self.last_ai_action = Some(Instant::now());
                match self.pace_of(seat) {
                    Some(_) => self.apply_paced(seat, action, heard),
                    None => self.apply_ai(action, heard),
                }
            }
            Some(AiAnswer::Stopped) => {
                heard.push(Heard::Problem("the AI stopped without an answer".into()));
                self.pace.paused = true;
            }
        }
    }

    /// The pace of `seat`'s AI when it plays at once with a person (`scryptic::ai::pace`):
    /// the editor's test pace when set, else the match's or the level's.
    fn pace_of(&self, seat: Player) -> Option<scryptic::ai::Pace> {
        let game = self.game.game();
        if !game.rules().flow.simultaneous || !self.has_human() {
            return None;
        }
        let LocalSeat::Ai(level, _) = self.seats.get(seat.index())? else {
            return None;
        };
        let given = self.pace.letter_ms;
        Some(scryptic::ai::Pace::given_or_of(given, *level, game.rules()))
    }

    /// The milliseconds the pacers count: since the game began here.
    fn now_ms(&self) -> u64 {
        self.began.elapsed().as_millis() as u64
    }

    /// Plays a paced AI's `wanted` action as a person would: its next few letters. One the
    /// game no longer takes (it moved on while the AI thought) is dropped: the AI chooses
    /// again.
    fn apply_paced(&mut self, seat: Player, wanted: Action, heard: &mut Vec<Heard>) {
        let game = self.game.game();
        let action = scryptic::ai::pace::step_toward(game, seat, wanted);
        let laid = game.laid_letters(seat);
        if let Ok(events) = self.game.apply(action.clone()) {
            let now = self.now_ms();
            self.pacers.seat(seat).acted(&laid, &action, now);
            heard.push(Heard::Played(events));
        }
        self.console(heard);
    }

    fn apply_ai(&mut self, action: Action, heard: &mut Vec<Heard>) {
        let mark = self.game.game().log().len();
        let result = (self.game.apply(action)).or_else(|_| self.game.apply(Action::EndTurn));
        match result {
            Ok(events) => {
                // With a person at the table, an AI's answer is undone with the person's move.
                if !self.has_human() {
                    self.undo_marks.push(mark);
                }
                heard.push(Heard::Played(events));
            }
            Err(e) => {
                heard.push(Heard::Problem(format!("the AI could not act: {e}")));
                self.pace.paused = true;
            }
        }
        self.console(heard);
    }

    /// Starts the grace period's clock at red light, and ends the period when it runs out.
    fn run_grace_clock(&mut self, heard: &mut Vec<Heard>) {
        let game = self.game.game();
        if game.red_light_caller().is_none() {
            self.red_light_at = None;
            return;
        }
        if game.result().is_some() {
            return;
        }
        self.red_light_at.get_or_insert_with(Instant::now);
        if self.grace_left().is_some_and(|left| left.is_zero()) {
            self.play_own(Action::GraceOver, heard);
        }
    }

    /// Plays an action of the referee's own (not a seat's): the grace period's end.
    fn play_own(&mut self, action: Action, heard: &mut Vec<Heard>) {
        match self.game.apply(action) {
            Ok(events) => heard.push(Heard::Played(events)),
            Err(e) => heard.push(Heard::Problem(e.to_string())),
        }
        self.console(heard);
    }

    /// Sets the AI to act thinking, when it is an AI's turn and nothing holds it back.
    fn start_ai(&mut self, dialog_open: bool, heard: &mut Vec<Heard>) {
        // A person reading a dialog is not hurried by the AI.
        if self.game.game().result().is_some() || self.pace.paused || dialog_open {
            return;
        }
        // Two AIs keep a pace a person can follow.
        if !self.has_human()
            && self
                .last_ai_action
                .is_some_and(|t| t.elapsed().as_secs_f64() < self.pace.delay)
        {
            return;
        }
        if self.game.game().rules().flow.simultaneous {
            return self.start_ai_at_once(heard);
        }
        self.ai.start(self.game.game(), self.repaint.clone());
    }

    /// Sets the next AI seat thinking; with no person at the table, the grace period ends as
    /// soon as every AI has finished. With a person, each AI seat keeps its pace: it thinks
    /// only once its pacer lets it act, and the window is woken then.
    fn start_ai_at_once(&mut self, heard: &mut Vec<Heard>) {
        let now = self.now_ms();
        let mut ready = vec![true; self.seats.len()];
        let mut soonest: Option<u64> = None;
        if self.has_human() {
            for (i, flag) in ready.iter_mut().enumerate() {
                let Some(seat) = Player::seat(i) else {
                    continue;
                };
                let Some(pace) = self.pace_of(seat) else {
                    continue;
                };
                let at = (self.pacers.seat(seat)).ready_at(self.game.game(), seat, pace, now);
                *flag = now >= at;
                if at > now {
                    soonest = Some(soonest.map_or(at, |s| s.min(at)));
                }
            }
        }
        // Woken when the first AI may act: a person thinking moves no pointer, and the AIs
        // must not wait for one.
        if let (Some(at), Some(ctx)) = (soonest, &self.repaint) {
            ctx.request_repaint_after(Duration::from_millis(at - now));
        }
        let ready_now = |p: Player| ready.get(p.index()).copied().unwrap_or(false);
        let started = (self.ai).start_at_once(self.game.game(), ready_now, self.repaint.clone());
        let game = self.game.game();
        if !started
            && !self.has_human()
            && game.red_light_caller().is_some()
            && self.ai.all_waiting(game)
        {
            self.play_own(Action::GraceOver, heard);
        }
    }
}

impl Referee for Here {
    fn game(&self) -> &Game {
        self.game.game()
    }

    fn apply(&mut self, action: Action) -> Result<Outcome, String> {
        let mark = self.game.game().log().len();
        let events = self.game.apply(action).map_err(|e| e.to_string())?;
        self.undo_marks.push(mark);
        Ok(Outcome::Played(events))
    }

    fn moves_of(&self, player: Player) -> Vec<String> {
        self.game.game().legal_moves(player).unwrap_or_default()
    }

    fn poll(&mut self, dialog_open: bool) -> Vec<Heard> {
        let mut heard: Vec<Heard> = (self.live.poll(&mut self.game).iter())
            .map(|notice| Heard::Notice(notice.to_string()))
            .collect();
        self.console(&mut heard);
        self.collect_ai(&mut heard);
        self.run_grace_clock(&mut heard);
        self.start_ai(dialog_open, &mut heard);
        heard
    }

    /// Starts the match's next round: the storage and the rounds so far carried in. Undo stops
    /// at the round's start (a finished round stays as it ended).
    fn next_round(&mut self) -> Result<NextRound, String> {
        let started = self
            .game
            .next_round()
            .ok_or("the match has no next round")?;
        let (round, problems) = started.map_err(|e| format!("the next round cannot start: {e}"))?;
        self.replace(round);
        self.undo_marks.clear();
        // What the round's scripts said as it began comes with the next look.
        Ok(NextRound::Began(problems))
    }

    fn grace_left(&self) -> Option<Duration> {
        let game = self.game.game();
        game.red_light_caller()?;
        let grace =
            Duration::from_secs(u64::try_from(game.rules().flow.grace_seconds).unwrap_or(0));
        let began = self.red_light_at.unwrap_or_else(Instant::now);
        Some(grace.saturating_sub(began.elapsed()))
    }

    fn seat_label(&self, player: Player) -> Option<String> {
        // A person's seat is named by the view; an AI's by its level, which only this knows.
        match self.seats.get(player.index())? {
            LocalSeat::Human => None,
            LocalSeat::Ai(level, think) if think.is_on() => {
                Some(format!("AI {level}, think {think}"))
            }
            LocalSeat::Ai(level, _) => Some(format!("AI {level}")),
        }
    }

    fn can_undo(&self) -> bool {
        !self.undo_marks.is_empty()
    }

    /// Undoes the last action (with the AI's answers to it): the game is replayed without
    /// it. Rule and list reloads made since are kept.
    fn undo(&mut self) -> Result<(), String> {
        let mark = *self.undo_marks.last().ok_or("nothing to undo")?;
        let mut save = self.game.save();
        let reloads: Vec<Action> = save.actions[mark..]
            .iter()
            .filter(|a| a.is_reload())
            .cloned()
            .collect();
        save.actions.truncate(mark);
        if let Some(checks) = &mut save.checks {
            checks.truncate(mark);
        }
        save.actions.extend(reloads);
        // The game's own words: a player's word list it was loaded with stays.
        let lexicon = self.game.game().shared_lexicon();
        let (game, _) =
            ScriptedGame::from_save(&save, lexicon).map_err(|e| format!("cannot undo: {e}"))?;
        self.undo_marks.pop();
        self.replace(game);
        Ok(())
    }

    fn thinking(&self) -> Option<(Player, Duration)> {
        self.ai.thinking()
    }

    fn pace(&mut self) -> Option<&mut Pace> {
        Some(&mut self.pace)
    }

    fn wake_with(&mut self, ctx: &egui::Context) {
        self.repaint = Some(ctx.clone());
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

/// What only the editor reaches in a session: its referee here (the scripts, the watched
/// files, the AIs) or its seat on a server.
pub trait EditorSession {
    /// The game's referee here, when it runs here.
    fn here(&self) -> Option<&Here>;
    /// The game's referee here, mutably.
    fn here_mut(&mut self) -> Option<&mut Here>;
    /// The seat on a server this screen plays or watches, when the game runs there.
    fn remote(&self) -> Option<&RemoteSeat>;
    /// The game with its scripts, when it runs here.
    fn scripted(&self) -> Option<&ScriptedGame> {
        self.here().map(Here::scripted)
    }
    /// Waits (up to `limit`) for the AI to answer; for tests and benchmarks.
    fn wait_for_ai(&mut self, limit: Duration);
}

impl EditorSession for Session {
    fn here(&self) -> Option<&Here> {
        self.referee().as_any().downcast_ref()
    }

    fn here_mut(&mut self) -> Option<&mut Here> {
        self.referee_mut().as_any_mut().downcast_mut()
    }

    fn remote(&self) -> Option<&RemoteSeat> {
        self.referee().as_any().downcast_ref()
    }

    fn wait_for_ai(&mut self, limit: Duration) {
        let start = Instant::now();
        while start.elapsed() < limit {
            self.update();
            if self.thinking().is_none() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}
