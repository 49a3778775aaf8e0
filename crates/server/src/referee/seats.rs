//! Who sits where in a match: a seat taken for a person (its token) or given up, and the
//! connections of each seat, told to everyone as they come and go.

use super::*;

impl Match {
    /// Takes the seat `request` names (or the first open one) for a person: its token.
    pub(crate) fn take_seat(
        &mut self,
        request: &TakeSeat,
        store: &dyn Store,
    ) -> Result<SeatTaken, Refusal> {
        let name = request.name.trim();
        if name.is_empty() || name.chars().count() > MAX_PERSON_NAME {
            return Err(Refusal::bad(format!(
                "a name of 1 to {MAX_PERSON_NAME} characters, please"
            )));
        }
        if let Some(c) = name.chars().find(|c| breaks_a_line_or_turns_text(*c)) {
            return Err(Refusal::bad(format!(
                "a name without control characters, line breaks or marks that turn text \
                 around (it has U+{:04X}), please",
                u32::from(c)
            )));
        }
        let at = match &request.seat {
            Some(seat) => self.game().seat_called(seat).map_err(Refusal::bad)?.index(),
            None => self
                .seats
                .iter()
                .position(|s| s.occupant == Occupant::Open)
                .ok_or_else(|| Refusal::conflict("every seat of this match is taken"))?,
        };
        let seat_name = self
            .game()
            .seat_names()
            .name(self.seats[at].player)
            .to_string();
        if self.seats[at].occupant != Occupant::Open {
            return Err(Refusal::conflict(format!("{seat_name} is taken")));
        }
        let token = new_token();
        self.seats[at].occupant = Occupant::Person {
            name: name.to_string(),
            connected: false,
        };
        self.seats[at].token_hash = Some(token_hash(&token));
        // The last seat taken starts the first move's time.
        let now = self.clock.now_ms();
        self.seats[at].taken_ms = Some(now);
        self.start_move_clock(now);
        self.quiet_since_ms = now;
        if let Err(e) = store.set_seats(&self.id, &self.stored_seats(), &self.listing()) {
            self.seats[at].occupant = Occupant::Open;
            self.seats[at].token_hash = None;
            self.seats[at].taken_ms = None;
            self.start_move_clock(now);
            return Err(Refusal {
                status: 500,
                message: e.to_string(),
            });
        }
        self.send_seats();
        Ok(SeatTaken {
            match_id: self.id.clone(),
            seat: seat_name,
            token,
        })
    }

    /// The seat `token` is the key to.
    pub(crate) fn seat_of(&self, token: &str) -> Option<Player> {
        let hash = token_hash(token);
        let seat = self
            .seats
            .iter()
            .find(|s| s.token_hash.as_deref() == Some(&hash))?;
        Some(seat.player)
    }

    /// Gives the seat of `token` up: it is open again, and its connections are closed.
    pub(crate) fn leave(&mut self, token: &str, store: &dyn Store) -> Result<(), Refusal> {
        let player = self
            .seat_of(token)
            .ok_or_else(|| Refusal::forbidden("that token is no seat's of this match"))?;
        let seat = &mut self.seats[player.index()];
        let before = (
            seat.occupant.clone(),
            seat.token_hash.clone(),
            seat.taken_ms,
        );
        seat.occupant = Occupant::Open;
        seat.token_hash = None;
        seat.taken_ms = None;
        // The match waits for a player: nobody's time runs until the seat is taken again.
        let clock_before = self.move_clock.clone();
        self.start_move_clock(self.clock.now_ms());
        if let Err(e) = store.set_seats(&self.id, &self.stored_seats(), &self.listing()) {
            let seat = &mut self.seats[player.index()];
            (seat.occupant, seat.token_hash, seat.taken_ms) = before;
            self.move_clock = clock_before;
            return Err(Refusal {
                status: 500,
                message: e.to_string(),
            });
        }
        self.connections.retain(|c| c.seat != Some(player));
        self.send_seats();
        Ok(())
    }

    /// Opens a connection for `seat` (none: a spectator) that had seen `seen` actions: its
    /// id. It is sent the welcome and its view at once.
    pub(crate) fn connect(
        &mut self,
        seat: Option<Player>,
        seen: Option<u64>,
        frames: mpsc::Sender<String>,
    ) -> u64 {
        let id = self.next_connection;
        self.next_connection += 1;
        if let Some(player) = seat {
            self.set_connected(player, true);
        }
        let welcome = ServerFrame::Welcome {
            match_info: self.info(),
            seat: seat.map(|p| self.game().seat_names().name(p).to_string()),
            map: self.game().map().to_ron(),
            rules: Box::new(self.game().rules().clone()),
            help: self.game().mode_help(),
            tileset: self.tileset.clone(),
        };
        let _ = frames.try_send(scryptic_protocol::write(welcome));
        self.connections.push(Connection {
            id,
            seat,
            // A new connection is told what happens from now on; a reconnecting one what it
            // missed.
            seen: seen.unwrap_or(self.actions).min(self.actions),
            frames,
        });
        self.send_views_to(Some(id));
        id
    }

    /// Closes connection `id`.
    pub(crate) fn disconnect(&mut self, id: u64) {
        let Some(at) = self.connections.iter().position(|c| c.id == id) else {
            return;
        };
        let gone = self.connections.remove(at);
        if let Some(player) = gone.seat
            && !self.connections.iter().any(|c| c.seat == Some(player))
        {
            self.set_connected(player, false);
        }
    }

    pub(super) fn set_connected(&mut self, player: Player, now: bool) {
        if let Occupant::Person { connected, .. } = &mut self.seats[player.index()].occupant
            && *connected != now
        {
            *connected = now;
            self.send_seats();
        }
    }

    pub(super) fn send_seats(&mut self) {
        let text = scryptic_protocol::write(ServerFrame::Seats {
            match_info: self.info(),
        });
        self.deliver(|_| Some(text.clone()));
    }
}

/// Whether `c` has no place in a name the other seats see: a control character, a line or
/// paragraph separator (U+2028, U+2029: a line break to a terminal or a page), or a mark that
/// turns the direction of text (which could make one name read as another).
fn breaks_a_line_or_turns_text(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{2028}' | '\u{2029}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}'
                | '\u{2066}'..='\u{2069}' | '\u{061C}'
        )
}
