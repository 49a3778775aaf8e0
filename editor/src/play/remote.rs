//! A seat of a match on a server as the editor plays it: the play view's own seat
//! ([`ServerSeat`], the same the browser uses: the connection, views, reconnecting), joined
//! off the window's thread, with what only the editor keeps: the board's tileset from the
//! match's pack (this editor's copy, or fetched by hash into the data folder), the seat's
//! token kept for Rejoin and forgotten on Leave, and the match's log saved once it is over.

use scryptic::Player;
use scryptic::client::{Waker, fetch_pack, pack_cache};
use scryptic::game::{Action, Game, SeatNames};
use scryptic::lexicon::Lexicon;
use scryptic::pack::TilesetRef;
use scryptic::pack::record::pack_hash;
use scryptic::protocol::PackFile;
use scryptic_play::server_seat::{Join, Joining, SeatAddress, ServerSeat};
use scryptic_play::{Heard, NextRound, OnlineMatch, Outcome, Referee, Session};
use std::any::Any;
use std::sync::Arc;
use std::time::{Duration, Instant};

pub use scryptic_play::server_seat::occupant_words;

/// How long joining waits for the server's welcome and first view.
const JOIN_WAIT: Duration = Duration::from_secs(15);

/// The match, seen from one seat (or a spectator's chair).
pub struct RemoteSeat {
    server: ServerSeat,
    /// The server's address (`http://HOST:PORT`).
    pub base: String,
    /// The match's id.
    pub match_id: String,
    /// The board's tileset, from the match's pack (this editor's copy, or fetched by hash).
    pub tileset: Option<TilesetRef>,
    /// What became of the match's packs (a pack fetched, or why it could not be).
    pub pack_notes: Vec<String>,
    /// The lobby the match was found through (the Online screen's address), asked where the
    /// match is served when the connection is lost.
    pub lobby: String,
    /// Its answer, awaited on a thread of its own, and when it was asked.
    finding: Option<(std::sync::mpsc::Receiver<Option<String>>, Instant)>,
}

/// The play view's seat is the editor's: its match, seat and help are read through it.
impl std::ops::Deref for RemoteSeat {
    type Target = ServerSeat;

    fn deref(&self) -> &ServerSeat {
        &self.server
    }
}

impl RemoteSeat {
    /// Connects to match `id` at `base` with the seat's `token` (none: to watch), and waits for
    /// the welcome and the first view. `wake` is called whenever a frame arrives. Blocks: call
    /// it off the window's thread.
    pub fn join(
        base: &str,
        id: &str,
        token: Option<String>,
        lexicon: Arc<Lexicon>,
        wake: Option<Waker>,
    ) -> Result<RemoteSeat, String> {
        let address = SeatAddress {
            base: base.to_string(),
            match_id: id.to_string(),
            token,
        };
        // This thread waits on its own wake-ups; the window's are called too.
        let (arrived, woken) = std::sync::mpsc::channel();
        let window = wake.clone();
        let joining_wake: Waker = Arc::new(move || {
            let _ = arrived.send(());
            if let Some(window) = &window {
                window();
            }
        });
        let mut joining = Joining::start(address, lexicon, Some(joining_wake))?;
        let deadline = Instant::now() + JOIN_WAIT;
        let seat = loop {
            let left = deadline.saturating_duration_since(Instant::now());
            woken
                .recv_timeout(left)
                .map_err(|_| format!("the server at {base} sent no view of match {id}"))?;
            joining = match joining.poll() {
                Join::Waiting(joining) => *joining,
                Join::Joined(seat) => break *seat,
                Join::Refused(why) | Join::Failed(why) => return Err(why),
            };
        };
        let tileset = seat.tileset.clone();
        let mut remote = RemoteSeat {
            server: seat,
            base: base.to_string(),
            match_id: id.to_string(),
            tileset: None,
            pack_notes: Vec::new(),
            lobby: base.to_string(),
            finding: None,
        };
        remote.find_tileset(tileset.as_ref());
        Ok(remote)
    }

    /// While the connection is lost, asks the lobby (off the window's thread, once a second)
    /// where the match is served: where processes share a database another may have taken it
    /// over, and the seat reconnects there.
    fn follow(&mut self) {
        if let Some((answer, asked)) = &self.finding {
            match answer.try_recv() {
                Ok(Some(base)) if base != self.base => {
                    self.server.served_at(base.clone());
                    self.base = base;
                }
                Err(std::sync::mpsc::TryRecvError::Empty) => return,
                _ if asked.elapsed() < Duration::from_secs(1) => return,
                _ => {}
            }
            self.finding = None;
        }
        if !self.server.reconnecting() {
            return;
        }
        let (sender, answer) = std::sync::mpsc::channel();
        let (lobby, id) = (self.lobby.clone(), self.match_id.clone());
        std::thread::spawn(move || {
            let listed = scryptic::client::Lobby::new(&lobby).matches_of(&[id]);
            let server = listed
                .ok()
                .and_then(|l| l.matches.into_iter().next()?.server);
            let _ = sender.send(server);
        });
        self.finding = Some((answer, Instant::now()));
    }

    /// Finds the board's tileset `file` names: in this editor's copy of its pack when that
    /// copy's files hash as the match's, else in the pack fetched from the server by its hash
    /// (kept in the data folder's cache, apart from installed packs). Blocks while it fetches.
    fn find_tileset(&mut self, file: Option<&PackFile>) {
        let Some(file) = file else {
            return;
        };
        let Some(wanted) = self
            .server
            .info
            .packs
            .iter()
            .find(|p| p.id == file.pack)
            .cloned()
        else {
            self.pack_notes.push(format!(
                "the server names a tileset in pack {}, which the match does not load",
                file.pack
            ));
            return;
        };
        let here = crate::catalog()
            .get(&wanted.id)
            .filter(|p| pack_hash(p).is_ok_and(|h| h == wanted.sha256))
            .cloned();
        let pack = match here {
            Some(pack) => pack,
            None => {
                let fetched = scryptic::pack::places::data_dir()
                    .ok_or_else(|| "no data folder to keep packs in: set SCRYPTIC_DATA".to_string())
                    .and_then(|data| fetch_pack(&self.base, &wanted, &pack_cache(&data)));
                match fetched {
                    Ok(pack) => {
                        self.pack_notes.push(format!(
                            "fetched pack {} {} from the server (its files hash as the match's)",
                            wanted.id, wanted.version
                        ));
                        pack
                    }
                    Err(e) => {
                        self.pack_notes
                            .push(format!("{e}: the board is drawn plain"));
                        return;
                    }
                }
            }
        };
        self.tileset = Some(TilesetRef {
            files: pack.files.clone(),
            path: file.path.clone(),
        });
    }

    /// Gives the seat up (it is open again for anyone), or stops watching.
    pub fn leave(&self) -> Result<(), String> {
        let (Some(token), Some(seat)) = (&self.server.address().token, self.server.seat) else {
            return Ok(());
        };
        scryptic::client::Lobby::new(&self.base).leave(&self.match_id, token)?;
        let name = SeatNames::of(self.server.game().rules())
            .name(seat)
            .to_string();
        let data = scryptic::pack::places::data_dir();
        // A seat given up is not come back to.
        let _ = scryptic::client::forget_token(data.as_deref(), &self.base, &self.match_id, &name);
        Ok(())
    }

    /// The whole match as a save file's text, where the match allows it once over.
    pub fn save_text(&self) -> Result<String, String> {
        scryptic::client::Lobby::new(&self.base).save(&self.match_id)
    }
}

/// A session for a seat of a match on a server (or a spectator): this editor's person plays
/// that seat; the others play elsewhere.
pub fn online_session(seat: RemoteSeat) -> Session {
    let (me, title) = (seat.seat, format!("{} (online)", seat.info.title));
    Session::one_seat(Box::new(seat), me, title)
}

impl Referee for RemoteSeat {
    fn game(&self) -> &Game {
        self.server.game()
    }

    fn apply(&mut self, action: Action) -> Result<Outcome, String> {
        self.server.apply(action)
    }

    fn moves_of(&self, player: Player) -> Vec<String> {
        self.server.moves_of(player)
    }

    fn poll(&mut self, dialog_open: bool) -> Vec<Heard> {
        self.follow();
        self.server.poll(dialog_open)
    }

    fn next_round(&mut self) -> Result<NextRound, String> {
        self.server.next_round()
    }

    fn grace_left(&self) -> Option<Duration> {
        self.server.grace_left()
    }

    fn move_left(&self) -> Option<Duration> {
        self.server.move_left()
    }

    fn seat_label(&self, player: Player) -> Option<String> {
        self.server.seat_label(player)
    }

    fn online(&self) -> Option<OnlineMatch> {
        self.server.online()
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}
