//! The seats the AI plays at a hot-seat table, who acts for the lines typed, and the clock of a
//! game played at once.

use super::*;

impl Table {
    /// Seats the AI for each `SEAT[:LEVEL[:THINK]]` of `specs`; the people left see their own side
    /// (with one person, nothing needs hiding between turns).
    pub(super) fn seat_ais(
        &mut self,
        game: &Game,
        specs: &[String],
        seed: u64,
    ) -> Result<(), String> {
        for spec in specs {
            let mut parts = spec.splitn(3, ':');
            let seat = parts.next().unwrap_or_default();
            let level = parts.next().unwrap_or("normal");
            let think = parts.next().unwrap_or("off");
            let player = game
                .seat_called(seat)
                .map_err(|e| format!("--ai {spec}: {e}"))?;
            let level: crate::ai::Level = level.parse().map_err(|e| format!("--ai {spec}: {e}"))?;
            let think: crate::ai::Think = think.parse().map_err(|e| format!("--ai {spec}: {e}"))?;
            self.ais.retain(|(p, _)| *p != player);
            let ai = crate::ai::AiPlayer::new(level, seed).thinking(think);
            self.ais.push((player, ai));
        }
        let people = self.people(game);
        if people.len() <= 1 {
            self.pause = false;
        }
        self.at_once.shared = people.len() > 1;
        // In simultaneous play the keyboard starts with a person.
        if let Some(&first) = people.first()
            && !people.contains(&self.at_once.at_keyboard())
        {
            self.at_once.hand_to(first);
        }
        Ok(())
    }

    /// The seats people play (not the AI), in seat order.
    pub(super) fn people(&self, game: &Game) -> Vec<Player> {
        game.seats()
            .filter(|p| !self.ais.iter().any(|(a, _)| a == p))
            .collect()
    }

    /// The AI's action, when the seat to act is one it plays; in simultaneous play, the next
    /// AI seat's that has one (each in turn), each at most once for every line typed: the AIs
    /// keep pace with the people instead of racing through the game between two lines.
    pub(super) fn ai_action(&mut self, game: &Game) -> Option<(Player, Action)> {
        if game.result().is_some() {
            return None;
        }
        if game.rules().flow.simultaneous {
            if self.keeps_pace(game) {
                return self.paced_ai_action(game);
            }
            if self.ai_streak >= self.ais.len() {
                return None;
            }
            for _ in 0..self.ais.len() {
                let at = self.ai_turn % self.ais.len();
                self.ai_turn = self.ai_turn.wrapping_add(1);
                let (seat, ai) = &mut self.ais[at];
                if let Some(action) = ai.choose_at_once(game, *seat) {
                    self.ai_streak += 1;
                    return Some((*seat, action));
                }
            }
            return None;
        }
        let actor = self.actor(game);
        let (_, ai) = self.ais.iter_mut().find(|(p, _)| *p == actor)?;
        Some((actor, ai.choose(game)))
    }

    /// Whether the AIs of a game played at once keep a person's pace: with people at a
    /// keyboard that can wait for them (a terminal). Lines from a pipe come all at once: the
    /// AIs then act once for every line, so that a script's game plays the same every time.
    fn keeps_pace(&self, game: &Game) -> bool {
        self.keyboard.can_wait() && !self.people(game).is_empty()
    }

    /// The next AI seat's action that its pace lets it play now (`crate::ai::pace`), each
    /// seat asked in turn; else none, and when the first may act (`ai_due`).
    fn paced_ai_action(&mut self, game: &Game) -> Option<(Player, Action)> {
        let now = self.began.elapsed().as_millis() as u64;
        let mut soonest: Option<u64> = None;
        self.ai_due = None;
        for _ in 0..self.ais.len() {
            let at = self.ai_turn % self.ais.len();
            self.ai_turn = self.ai_turn.wrapping_add(1);
            let (seat, ai) = &mut self.ais[at];
            let seat = *seat;
            let pace = crate::ai::Pace::of(ai.level(), game.rules());
            let pacer = self.pacers.seat(seat);
            match pacer.choose(ai, pace, game, seat, now) {
                Ok(action) => {
                    // Busy from now with what it lays (a refused action removes the AI).
                    pacer.acted(&game.laid_letters(seat), &action, now);
                    return Some((seat, action));
                }
                Err(Some(at)) => soonest = Some(soonest.map_or(at, |s| s.min(at))),
                Err(None) => {}
            }
        }
        let wait = std::time::Duration::from_millis(soonest?.saturating_sub(now));
        self.ai_due = Some(std::time::Instant::now() + wait);
        None
    }

    /// Who acts for the lines typed now: the player to act, or in simultaneous play the one
    /// at the keyboard.
    pub(super) fn actor(&self, game: &Game) -> Player {
        if game.rules().flow.scripted {
            return crate::table_play::mover(game);
        }
        if game.rules().flow.simultaneous {
            self.at_once.at_keyboard()
        } else {
            game.to_act()
        }
    }

    /// Ends the grace period after red light once the clock has run out.
    pub(super) fn run_clock(
        &mut self,
        scripted: &mut ScriptedGame,
        io: &mut Streams,
    ) -> anyhow::Result<()> {
        if !self.at_once.time_is_up(scripted.game()) {
            return Ok(());
        }
        writeln!(io.out, "  time is up: the grace period is over")?;
        let events = scripted.apply(Action::GraceOver).unwrap_or_default();
        self.tell(scripted, &events, io)
    }

    /// The grace period ran out while a line was being typed at a terminal: the clock ends it
    /// now (in the log at this moment), says so above the line, and the line, when it comes,
    /// is late. Returns false if the input ended meanwhile.
    pub(super) fn time_up_while_typing(
        &mut self,
        scripted: &mut ScriptedGame,
        io: &mut Streams,
    ) -> anyhow::Result<bool> {
        let events = scripted.apply(Action::GraceOver).unwrap_or_default();
        self.keyboard.say(
            "  time is up: the grace period is over; press Enter for the scores",
            io,
        )?;
        match self.keyboard.read_until("", None, io)? {
            Typed::Ended => return Ok(false),
            Typed::Line(line) if !line.trim().is_empty() => writeln!(
                io.out,
                "  too late: the grace period ended before that line; it counts for nothing"
            )?,
            _ => {}
        }
        self.tell(scripted, &events, io)?;
        Ok(true)
    }

    /// Plays the AI's `action` for `seat` and tells what it did.
    pub(super) fn play_ai(
        &mut self,
        scripted: &mut ScriptedGame,
        seat: Player,
        action: Action,
        io: &mut Streams,
    ) -> anyhow::Result<()> {
        match scripted.apply(action) {
            Ok(events) => {
                // A secret step of the AI's shows nothing (the choice is told once made).
                let lines = self.told_lines(&events);
                if !lines.is_empty() {
                    let who = format!("{} (AI):", self.screen.seat(seat));
                    self.keyboard.say(&who, io)?;
                }
                if scripted.game().rules().flow.simultaneous {
                    // Beside the person at the keyboard, who keeps it (and its screen).
                    self.at_once.note(&events);
                } else {
                    // The person next to act sees the board anew, without a pause: nothing
                    // of theirs was on the screen for the AI.
                    self.shown_to = None;
                }
                for line in lines {
                    self.keyboard.say(&format!("  {line}"), io)?;
                }
                self.write_console(scripted, io)
            }
            Err(e) => {
                // An AI that cannot act would wait for ever: its seat goes to the keyboard.
                writeln!(
                    io.out,
                    "  the AI for {} is stuck ({}); the keyboard plays it",
                    self.screen.seat(seat),
                    self.screen.render(&e.to_string())
                )?;
                self.ais.retain(|(p, _)| *p != seat);
                Ok(())
            }
        }
    }
}
