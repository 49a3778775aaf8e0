//! What the hot-seat table shows: the game's status (each player their own side), what the
//! scripts told, the hand-over between players and the game's end.

use super::*;

impl Table {
    pub(crate) fn announce_end(&mut self, game: &Game, io: &mut Streams) -> anyhow::Result<()> {
        if let Some(result) = game.result() {
            let told = round_end(game, &describe_result(result));
            writeln!(io.out, "{}", self.screen.render(&told))?;
        }
        if let Some(award) = describe_award(game) {
            writeln!(io.out, "{}", self.screen.render(&award))?;
        }
        // Nothing is secret any more: both racks are shown.
        self.shown_to = None;
        self.write_status(game, io)?;
        if let Some(standing) = describe_match(game) {
            writeln!(io.out, "{}", self.screen.render(&standing))?;
        }
        writeln!(io.out, "{}", self.end_hint(game))?;
        Ok(())
    }

    /// When the player to act is not the one the screen shows, passes them the keyboard (at
    /// a real terminal: clears the screen and waits for Enter), then shows the game from
    /// their side. Returns false if the input ended while waiting.
    pub(super) fn hand_over(&mut self, game: &Game, io: &mut Streams) -> anyhow::Result<bool> {
        let player = self.actor(game);
        if self.shown_to == Some(player) {
            // The same player reads on: what was told is on their screen.
            self.told.clear();
            return Ok(true);
        }
        if self.pause && self.shown_to.is_some() {
            let name = self.screen.seat(player);
            if self.clear_screen {
                // The screen and the scrollback: the last player's rack is not a scroll away.
                write!(io.out, "\x1b[2J\x1b[3J\x1b[H")?;
            }
            let prompt = format!("Pass the keyboard to {name}. {name}, press Enter when ready: ");
            if self.keyboard.read(&prompt, io)?.is_none() {
                return Ok(false);
            }
            self.shown_to = Some(player);
            self.keyboard.hand_to(player.index());
            self.write_status(game, io)?;
            // What the scripts said on the way (the new turn's greeting among it) was cleared
            // with the screen; the player now at the keyboard reads it here.
            if self.clear_screen {
                for line in &self.told {
                    writeln!(io.out, "  {line}")?;
                }
            }
            self.told.clear();
            return Ok(true);
        }
        self.shown_to = Some(player);
        self.keyboard.hand_to(player.index());
        self.told.clear();
        self.write_status(game, io)?;
        Ok(true)
    }

    /// Whose turn it is, both players (only the one to act with their rack, unless the game
    /// is over) and the board.
    pub(crate) fn write_status(&mut self, game: &Game, io: &mut Streams) -> anyhow::Result<()> {
        let over = game.result().is_some();
        if game.rules().flow.scripted {
            let viewer = self.shown_to.unwrap_or(self.actor(game));
            let seen = game.seen_by(Some(viewer));
            let status = crate::table_play::status(&self.screen, &seen, viewer, over);
            write!(io.out, "{status}")?;
            return Ok(());
        }
        if game.rules().flow.simultaneous {
            return self.write_status_at_once(game, over, io);
        }
        if !over {
            let to_act = game.to_act();
            let name = self.screen.seat(to_act);
            if let Some(standing) = describe_match(game) {
                writeln!(io.out, "{}", self.screen.render(&standing))?;
            }
            // A question waiting (a combat's order, an offer of sudden death) is asked as such.
            let doing = match (game.prompt(), crate::screen::first_word_cell(game)) {
                (Some(prompt), _) => self.screen.render(&prompt.question()),
                (None, Some(cell)) => format!(
                    "{name} to play; the first word covers {} (marked `=`)",
                    crate::game::notation::cell_name(cell)
                ),
                (None, None) => format!("{name} to play"),
            };
            writeln!(io.out, "turn {}: {doing}", game.turn())?;
        }
        let viewer = self.shown_to.unwrap_or(game.to_act());
        // Drawn from the viewer's view of the game: what it hides cannot reach the screen.
        let seen = game.seen_by(Some(viewer));
        for p in game.seats() {
            let show_rack = over || (p == viewer && !self.watching);
            writeln!(io.out, "{}", self.screen.player_line(&seen, p, show_rack))?;
        }
        write!(io.out, "{}", self.screen.render(&self.screen.board(&seen)))?;
        Ok(())
    }

    /// Simultaneous play's status: the round, the signal, the player at the keyboard's
    /// crossword, every player (only their own rack), and their region of the board.
    pub(crate) fn write_status_at_once(
        &mut self,
        game: &Game,
        over: bool,
        io: &mut Streams,
    ) -> anyhow::Result<()> {
        if !over {
            writeln!(io.out, "{}", self.screen.render(&self.at_once.status(game)))?;
        }
        let viewer = self.at_once.at_keyboard();
        let seen = game.seen_by(Some(viewer));
        for p in game.seats() {
            let show_rack = over || (p == viewer && !self.watching);
            writeln!(io.out, "{}", self.screen.player_line(&seen, p, show_rack))?;
        }
        let board = if over {
            self.screen.board(&seen)
        } else {
            self.screen.board_seen(&seen, self.at_once.area(game))
        };
        write!(io.out, "{}", self.screen.render(&board))?;
        Ok(())
    }

    /// Tells what `events` did, every draw face down, and what the scripts said.
    pub(super) fn tell(
        &mut self,
        scripted: &ScriptedGame,
        events: &[Event],
        io: &mut Streams,
    ) -> anyhow::Result<()> {
        for line in self.told_lines(events) {
            writeln!(io.out, "  {line}")?;
        }
        self.write_console(scripted, io)
    }

    /// Prints the scripts' console, keeping what they told the players to tell again after a
    /// hand-over.
    pub(super) fn write_console(
        &mut self,
        scripted: &ScriptedGame,
        io: &mut Streams,
    ) -> anyhow::Result<()> {
        for line in scripted.host().drain_console() {
            let text = line.to_string();
            if matches!(line, crate::script::ConsoleLine::Message(_)) {
                self.told.push(text.clone());
            }
            writeln!(io.out, "  {text}")?;
        }
        Ok(())
    }

    /// The lines that tell what `events` did, as everyone at the screen may read them.
    pub(crate) fn told_lines(&self, events: &[Event]) -> Vec<String> {
        // The end of the game is told once, by the loop, with what can still be done.
        let told = events
            .iter()
            .filter(|e| !matches!(e, Event::GameOver { .. }));
        // Every player reads this screen: nobody's draws are shown in the events (each sees
        // their own rack when the keyboard is theirs).
        let seen: Vec<Event> = told
            .filter_map(|e| e.shown_to(None))
            .map(without_token_messages)
            .collect();
        crate::table_play::told_lines(&seen)
            .iter()
            .map(|line| self.screen.render(line))
            .collect()
    }
}

/// `event` without a token's messages: at the table they come on the scripts' console, with
/// every other message, so the event's line would tell them a second time (a replay, which
/// has no console, tells them with the event).
pub(super) fn without_token_messages(mut event: Event) -> Event {
    if let Event::TokenInvoked { messages, .. } = &mut event {
        messages.clear();
    }
    event
}
