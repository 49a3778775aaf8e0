//! The Online screen: a server's address (or a server started in this editor), the lobby's
//! matches with their seats (take an open one, come back to one of yours, watch), and Host: a
//! pack's mode with its settings and who sits where. The lobby is asked on a thread of its own,
//! so the window never waits for the network; a seat joined is played in the play view, as
//! at home (see `referee`).

use super::remote::{RemoteSeat, occupant_words};
use super::setup::{SetupForm, Source};
use scryptic::Player;
use scryptic::client::{Address, Lobby, Waker};
use scryptic::protocol::{CreateMatch, MatchInfo, MatchState, Occupant, SeatRequest, TakeSeat};
use std::collections::BTreeMap;
use std::sync::mpsc::Receiver;

/// Who sits in a seat of a match being hosted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SeatChoice {
    /// The person at this editor.
    Me,
    /// Left open for someone to take.
    Open,
    /// The server's AI at a level (`easy`, `normal`, `hard`).
    Ai(String),
}

/// A pack, its mode and its settings as `--set` gives them.
type ModeChosen = (String, String, Vec<(String, String)>);

/// What a request on the lobby's thread answered.
enum Reply {
    /// The matches listed.
    Matches(Result<Vec<MatchInfo>, String>),
    /// A match made with no seat for this editor (it is listed).
    Made(Result<Box<MatchInfo>, String>),
    /// A seat joined (or a chair to watch from).
    Joined(Result<Box<RemoteSeat>, String>),
}

/// The Online screen's state.
pub struct OnlineScreen {
    /// The server's address, as typed (`127.0.0.1:7878`, `http://host:port`).
    pub address: String,
    /// The name the others see.
    pub name: String,
    /// The matches the lobby listed last.
    pub matches: Vec<MatchInfo>,
    /// The seats' tokens kept in the data folder for those matches, by match id (read when
    /// the list comes, not at every frame).
    kept: BTreeMap<String, Vec<(String, String)>>,
    /// The pack, mode and settings of a match to host.
    pub host: SetupForm,
    /// The seats of the mode to host, by name, with who sits there.
    pub seats: Vec<(String, SeatChoice)>,
    /// What the seats were read for (pack, mode, settings): read again when it changes.
    seats_of: Option<ModeChosen>,
    /// Whether anyone may fetch the whole log once the match is over.
    pub log_after_end: bool,
    /// The game's seed, when the host fixes it (the same seed deals the same tiles: a match
    /// to play again, or to show); none: the server draws one, told with the log.
    pub seed: Option<u64>,
    /// The last problem, or what was done.
    pub message: Option<String>,
    /// A request under way: what it is, in words, and where its answer comes.
    waiting: Option<(String, Receiver<Reply>)>,
    /// A server run by this editor, while it lives.
    server: Option<scryptic::server::Started>,
}

impl Default for OnlineScreen {
    fn default() -> OnlineScreen {
        OnlineScreen {
            address: format!("127.0.0.1:{}", scryptic::client::DEFAULT_PORT),
            name: std::env::var("USER").unwrap_or_else(|_| "player".into()),
            matches: Vec::new(),
            kept: BTreeMap::new(),
            host: SetupForm {
                source: Source::Pack,
                ..SetupForm::default()
            },
            seats: Vec::new(),
            seats_of: None,
            log_after_end: true,
            seed: None,
            message: None,
            waiting: None,
            server: None,
        }
    }
}

impl OnlineScreen {
    /// The screen; answers a seat joined, to be played.
    pub fn ui(&mut self, ui: &mut egui::Ui) -> Option<RemoteSeat> {
        let joined = self.collect();
        ui.heading("Online");
        self.server_ui(ui);
        if let Some(m) = &self.message {
            ui.colored_label(egui::Color32::from_rgb(235, 150, 90), m);
        }
        ui.separator();
        egui::ScrollArea::vertical().show(ui, |ui| {
            self.matches_ui(ui);
            ui.separator();
            self.host_ui(ui);
        });
        joined
    }

    /// Whether a request is under way.
    pub fn busy(&self) -> bool {
        self.waiting.is_some()
    }

    fn server_ui(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            let label = ui.label("Server");
            ui.add(egui::TextEdit::singleline(&mut self.address).desired_width(220.0))
                .labelled_by(label.id);
            if ui
                .add_enabled(!self.busy(), egui::Button::new("Refresh"))
                .clicked()
            {
                self.refresh(ui.ctx());
            }
            match &self.server {
                Some(started) => {
                    ui.label(format!("serving on http://{} from this editor", started.addr));
                }
                None => {
                    if ui
                        .button("Serve from this editor")
                        .on_hover_text(
                            "Start a server at this address, as `scryptic serve` does, while the editor runs",
                        )
                        .clicked()
                    {
                        self.serve(ui.ctx());
                    }
                }
            }
        });
        ui.horizontal(|ui| {
            let label = ui.label("Your name");
            ui.add(egui::TextEdit::singleline(&mut self.name).desired_width(160.0))
                .labelled_by(label.id);
            if let Some((what, _)) = &self.waiting {
                ui.spinner();
                ui.label(what);
            }
        });
    }

    /// The server's base address, or why the field is not one.
    fn base(&self) -> Result<String, String> {
        Address::parse(&self.address).map(|a| a.base)
    }

    /// Starts a server listening at the address typed, keeping its matches in the data folder.
    pub fn serve(&mut self, ctx: &egui::Context) {
        let started = self.base().and_then(|base| {
            let bind = base.trim_start_matches("http://");
            let bind = bind.parse().map_err(|e| {
                format!("{bind}: {e} (a server listens on an address such as 127.0.0.1:7878)")
            })?;
            let data = scryptic::pack::places::data_dir()
                .ok_or("no data folder for the server: set SCRYPTIC_DATA")?
                .join("server");
            scryptic::server::start(scryptic::server::Options::new(bind, data)).map_err(|e| {
                format!("{e}: is a server running there already? Then Refresh lists its matches")
            })
        });
        match started {
            Ok(started) => {
                self.address = started.addr.to_string();
                self.message = Some(format!(
                    "serving on http://{} ({} matches resumed); others join with scryptic join {}",
                    started.addr, started.restored, started.addr
                ));
                self.server = Some(started);
                self.refresh(ctx);
            }
            Err(e) => self.message = Some(e),
        }
    }

    /// Asks the lobby for its matches.
    pub fn refresh(&mut self, ctx: &egui::Context) {
        let base = match self.base() {
            Ok(b) => b,
            Err(e) => return self.message = Some(e),
        };
        let data = scryptic::pack::places::data_dir();
        self.ask(ctx, "asking for the matches", move |_| {
            Reply::Matches(yours_then_newest(&base, data.as_deref()))
        });
    }

    /// Runs `request` on a thread of its own; its reply is taken on a later frame.
    fn ask(
        &mut self,
        ctx: &egui::Context,
        what: &str,
        request: impl FnOnce(Waker) -> Reply + Send + 'static,
    ) {
        let (sender, receiver) = std::sync::mpsc::channel();
        let repaint = ctx.clone();
        let wake: Waker = std::sync::Arc::new(move || repaint.request_repaint());
        std::thread::spawn(move || {
            let reply = request(wake.clone());
            let _ = sender.send(reply);
            wake();
        });
        self.waiting = Some((what.to_string(), receiver));
    }

    /// Takes a request's reply, when it has come.
    fn collect(&mut self) -> Option<RemoteSeat> {
        let reply = match &self.waiting {
            Some((_, receiver)) => match receiver.try_recv() {
                Ok(reply) => reply,
                Err(std::sync::mpsc::TryRecvError::Empty) => return None,
                Err(std::sync::mpsc::TryRecvError::Disconnected) => {
                    self.waiting = None;
                    self.message = Some("the request stopped without an answer".into());
                    return None;
                }
            },
            None => return None,
        };
        self.waiting = None;
        match reply {
            Reply::Matches(Ok(matches)) => {
                self.message = (matches.is_empty())
                    .then(|| "no matches on this server yet: host one below".to_string());
                self.matches = matches;
                self.read_kept();
                self.yours_first();
            }
            Reply::Made(Ok(info)) => {
                self.message = Some(format!(
                    "match {} made: {} ({}); others join with scryptic join {}",
                    info.id,
                    info.title,
                    info.mode,
                    self.base()
                        .map(|b| format!("{b}/matches/{}", info.id))
                        .unwrap_or_default()
                ));
                self.matches.retain(|m| m.id != info.id);
                self.matches.push(*info);
                self.read_kept();
            }
            Reply::Joined(Ok(seat)) => {
                self.message = None;
                return Some(*seat);
            }
            Reply::Matches(Err(e)) | Reply::Made(Err(e)) | Reply::Joined(Err(e)) => {
                self.message = Some(e);
            }
        }
        None
    }

    /// The tokens kept for the matches listed.
    fn read_kept(&mut self) {
        let base = self.base().unwrap_or_default();
        let data = scryptic::pack::places::data_dir();
        self.kept = self
            .matches
            .iter()
            .map(|m| {
                // Kept under the address of the process that serves the match.
                let at = m.server.as_deref().unwrap_or(&base);
                let kept = scryptic::client::kept_tokens(data.as_deref(), at, &m.id);
                (m.id.clone(), kept)
            })
            .collect();
    }

    /// The matches where it is a kept seat's turn first (the one whose clock runs out soonest
    /// first), as `scryptic matches --mine` and the site's Your matches list them.
    fn yours_first(&mut self) {
        let kept = &self.kept;
        self.matches.sort_by_key(|m| {
            let yours = your_turn(m, kept.get(&m.id).map_or(&[][..], Vec::as_slice));
            (
                !yours,
                if yours { m.move_due_ms } else { None }.unwrap_or(u64::MAX),
            )
        });
    }

    fn matches_ui(&mut self, ui: &mut egui::Ui) {
        ui.strong("Matches");
        if self.matches.is_empty() {
            ui.label("None listed: Refresh asks the server.");
            return;
        }
        let mut chosen: Option<(String, Option<String>, Option<String>)> = None;
        egui::Grid::new("online matches")
            .striped(true)
            .num_columns(4)
            .show(ui, |ui| {
                for m in &self.matches {
                    let kept = self.kept.get(&m.id).map_or(&[][..], Vec::as_slice);
                    ui.horizontal(|ui| {
                        if your_turn(m, kept) {
                            ui.strong("Your turn:");
                        }
                        ui.label(&m.title).on_hover_text(format!("match {}", m.id));
                    });
                    let clock = m.move_due_ms.map_or(String::new(), |due| {
                        let now = std::time::SystemTime::now()
                            .duration_since(std::time::UNIX_EPOCH)
                            .map_or(0, |d| d.as_millis() as u64);
                        let left = scryptic::protocol::time_words(due.saturating_sub(now));
                        format!(" · {left} left for the move")
                    });
                    ui.label(format!("{} · {}{clock}", m.mode, state_words(m.state)));
                    ui.vertical(|ui| {
                        let kept = self.kept.get(&m.id).map_or(&[][..], Vec::as_slice);
                        for seat in &m.seats {
                            ui.horizontal(|ui| {
                                ui.label(format!(
                                    "{}: {}",
                                    seat.seat,
                                    occupant_words(&seat.occupant)
                                ));
                                // A token kept for a seat now open was given up elsewhere.
                                let mine = kept
                                    .iter()
                                    .find(|(s, _)| *s == seat.seat)
                                    .filter(|_| seat.occupant != Occupant::Open);
                                if let Some((_, token)) = mine {
                                    if m.state != MatchState::Over && ui.button("Rejoin").clicked()
                                    {
                                        chosen = Some((
                                            m.id.clone(),
                                            Some(seat.seat.clone()),
                                            Some(token.clone()),
                                        ));
                                    }
                                } else if seat.occupant == Occupant::Open
                                    && ui.button(format!("Take {}", seat.seat)).clicked()
                                {
                                    chosen = Some((m.id.clone(), Some(seat.seat.clone()), None));
                                }
                            });
                        }
                    });
                    if ui.button("Watch").clicked() {
                        chosen = Some((m.id.clone(), None, None));
                    }
                    ui.end_row();
                }
            });
        if let Some((id, seat, token)) = chosen {
            self.join(ui.ctx(), &id, seat, token);
        }
    }

    /// Joins match `id`: at `seat` with its kept `token`, by taking `seat`, or (no seat) to
    /// watch.
    pub fn join(
        &mut self,
        ctx: &egui::Context,
        id: &str,
        seat: Option<String>,
        token: Option<String>,
    ) {
        let base = match self.base() {
            Ok(b) => b,
            Err(e) => return self.message = Some(e),
        };
        // Where processes share a database, the match is played at the one that serves it.
        let lobby = base.clone();
        let listed = self.matches.iter().find(|m| m.id == id);
        let base = listed.and_then(|m| m.server.clone()).unwrap_or(base);
        let (id, name) = (id.to_string(), self.name.trim().to_string());
        let what = match &seat {
            Some(s) => format!("joining match {id} as {s}"),
            None => format!("watching match {id}"),
        };
        self.ask(ctx, &what, move |wake| {
            let token = match (seat, token) {
                (_, Some(token)) => Some(token),
                (Some(seat), None) => match take_seat(&base, &id, &seat, &name) {
                    Ok(token) => Some(token),
                    Err(e) => return Reply::Joined(Err(e)),
                },
                (None, None) => None,
            };
            let lexicon = crate::lexicon_mode::dictionary();
            let joined = RemoteSeat::join(&base, &id, token, lexicon, Some(wake));
            Reply::Joined(joined.map(|mut seat| {
                seat.lobby = lobby;
                Box::new(seat)
            }))
        });
    }

    fn host_ui(&mut self, ui: &mut egui::Ui) {
        ui.strong("Host a match");
        self.host.pack_ui(ui, false);
        self.read_seats();
        if self.seats.is_empty() {
            return;
        }
        ui.label("Seats:");
        for (name, choice) in &mut self.seats {
            ui.horizontal(|ui| {
                ui.label(format!("{name}:"));
                ui.radio_value(choice, SeatChoice::Me, "me");
                ui.radio_value(choice, SeatChoice::Open, "open");
                for level in ["easy", "normal", "hard"] {
                    ui.radio_value(choice, SeatChoice::Ai(level.into()), format!("AI {level}"));
                }
            });
        }
        ui.checkbox(
            &mut self.log_after_end,
            "Anyone may fetch the whole log once the match is over",
        );
        ui.horizontal(|ui| {
            let mut fixed = self.seed.is_some();
            ui.checkbox(&mut fixed, "Deal by seed").on_hover_text(
                "The same seed deals the same tiles; otherwise the server draws one",
            );
            match (fixed, &mut self.seed) {
                (true, Some(seed)) => {
                    ui.add(egui::DragValue::new(seed));
                }
                (true, None) => self.seed = Some(1),
                (false, _) => self.seed = None,
            }
        });
        if ui
            .add_enabled(!self.busy(), egui::Button::new("Host"))
            .clicked()
        {
            self.host_match(ui.ctx());
        }
    }

    /// The seats of the mode chosen, read again when the pack, mode or settings change (a
    /// setting may seat more players); the first is this editor's.
    fn read_seats(&mut self) {
        let key = (
            self.host.pack.clone(),
            self.host.mode.clone(),
            self.host.settings_typed(),
        );
        if self.seats_of.as_ref() == Some(&key) {
            return;
        }
        let choice = scryptic::pack::Choice {
            pack: key.0.clone(),
            mode: key.1.clone(),
            set: key.2.clone(),
            ..Default::default()
        };
        let names = scryptic::pack::Level::from_pack(&crate::catalog(), &choice)
            .map(|level| {
                let names = scryptic::game::SeatNames::of(&level.rules);
                let count = usize::try_from(level.rules.seats.count).unwrap_or(2);
                (0..count)
                    .filter_map(Player::seat)
                    .map(|p| names.name(p).to_string())
                    .collect::<Vec<_>>()
            })
            .unwrap_or_default();
        self.seats = names
            .into_iter()
            .enumerate()
            .map(|(i, name)| {
                let kept = self
                    .seats
                    .iter()
                    .find(|(n, _)| *n == name)
                    .map(|(_, c)| c.clone());
                let choice = kept.unwrap_or(if i == 0 {
                    SeatChoice::Me
                } else {
                    SeatChoice::Open
                });
                (name, choice)
            })
            .collect();
        self.seats_of = Some(key);
    }

    /// The request to make the match the form describes, and the seat this editor takes.
    pub fn create_request(&self) -> Result<(CreateMatch, Option<String>), String> {
        if self.host.pack.is_empty() {
            return Err("choose a pack to host".into());
        }
        let mut mine = None;
        let mut seats = BTreeMap::new();
        for (name, choice) in &self.seats {
            match choice {
                SeatChoice::Me if mine.is_some() => {
                    return Err("this editor plays one seat: choose `me` once".into());
                }
                SeatChoice::Me => mine = Some(name.clone()),
                SeatChoice::Open => {
                    seats.insert(name.clone(), SeatRequest::Open);
                }
                SeatChoice::Ai(level) => {
                    seats.insert(
                        name.clone(),
                        SeatRequest::Ai {
                            level: level.clone(),
                        },
                    );
                }
            }
        }
        let request = CreateMatch {
            pack: self.host.pack.clone(),
            mode: self.host.mode.clone(),
            map: String::new(),
            settings: self.host.settings_typed().into_iter().collect(),
            seats,
            seed: self.seed,
            log_after_end: self.log_after_end,
        };
        Ok((request, mine))
    }

    /// Makes the match the form describes, and joins it at this editor's seat.
    pub fn host_match(&mut self, ctx: &egui::Context) {
        let (request, mine) = match self.create_request() {
            Ok(r) => r,
            Err(e) => return self.message = Some(e),
        };
        let base = match self.base() {
            Ok(b) => b,
            Err(e) => return self.message = Some(e),
        };
        let name = self.name.trim().to_string();
        self.ask(ctx, "making the match", move |wake| {
            let lobby = Lobby::new(&base);
            let info = match lobby.create(request) {
                Ok(info) => info,
                Err(e) => return Reply::Made(Err(e)),
            };
            let Some(seat) = mine else {
                return Reply::Made(Ok(Box::new(info)));
            };
            let joined = take_seat(&base, &info.id, &seat, &name).and_then(|token| {
                let lexicon = crate::lexicon_mode::dictionary();
                RemoteSeat::join(&base, &info.id, Some(token), lexicon, Some(wake))
            });
            Reply::Joined(joined.map(Box::new))
        });
    }
}

/// Takes `seat` of match `id` for `name`, keeping its token in the data folder (to come back
/// to it after a restart); the token.
fn take_seat(base: &str, id: &str, seat: &str, name: &str) -> Result<String, String> {
    let name = if name.is_empty() { "player" } else { name };
    let taken = Lobby::new(base).take(
        id,
        TakeSeat {
            seat: Some(seat.to_string()),
            name: name.to_string(),
        },
    )?;
    let data = scryptic::pack::places::data_dir();
    // Without it the seat is still played; it cannot be come back to after a restart.
    let _ = scryptic::client::keep_token(data.as_deref(), base, id, &taken.seat, &taken.token);
    Ok(taken.token)
}

fn state_words(state: MatchState) -> &'static str {
    match state {
        MatchState::Waiting => "waiting for players",
        MatchState::Playing => "under way",
        MatchState::Over => "over",
    }
}

/// Whether match `m` waits on one of the seats kept for it.
fn your_turn(m: &MatchInfo, kept: &[(String, String)]) -> bool {
    m.state != MatchState::Over && kept.iter().any(|(seat, _)| m.to_act.contains(seat))
}

/// The matches this data folder keeps a seat in, then the lobby's newest page (each once).
fn yours_then_newest(base: &str, data: Option<&std::path::Path>) -> Result<Vec<MatchInfo>, String> {
    let lobby = Lobby::new(base);
    let ids = scryptic::client::kept_matches(data, base);
    let mut matches = if ids.is_empty() {
        Vec::new()
    } else {
        lobby.matches_of(&ids)?.matches
    };
    for m in lobby.matches()?.matches {
        if !matches.iter().any(|kept| kept.id == m.id) {
            matches.push(m);
        }
    }
    Ok(matches)
}
