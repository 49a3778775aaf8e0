//! The browser's page: a match's link opened, a seat taken (or come back to with the token
//! this browser keeps, or the match watched), and the match played in the play view over the
//! server's WebSocket until the seat is given up.

use crate::keep::{self, Keep, KeptSeat};
use crate::link::MatchLink;
use crate::lobby::{self, Pending};
use crate::replay_screen::ReplayScreen;
use crate::seat_picker::{Choice, SeatPicker};
use crate::tileset::{self, Finding};
use scryptic_core::lexicon::Lexicon;
use scryptic_play::server_seat::{Join, Joining, SeatAddress, ServerSeat, Wake};
use scryptic_play::{PlayView, Referee, Session};
use scryptic_protocol::{MatchInfo, SeatTaken};
use std::sync::Arc;

/// Where the page stands.
pub enum Screen {
    /// Asking the lobby for the match.
    Loading(Pending<MatchInfo>),
    /// The match shown, a seat to pick.
    Choosing(Box<MatchInfo>),
    /// A seat being taken.
    Taking(Pending<SeatTaken>),
    /// Connected, waiting for the welcome and the first view. `kept`: with a token this
    /// browser kept (refused, it is forgotten and a seat picked again).
    Joining {
        /// The connection.
        joining: Box<Joining>,
        /// Whether the token was kept from an earlier visit.
        kept: bool,
        /// Watching only to replay the finished match: its seats and tileset taken from the
        /// welcome, then its log fetched.
        replay: bool,
    },
    /// The match, played or watched.
    Playing {
        /// The game and what the person is doing in it.
        session: Box<Session>,
        /// The view's own state.
        view: Box<PlayView>,
        /// The board's tileset being found (none: found, or none to find).
        art: Option<Finding>,
    },
    /// A finished match's log being fetched, to step through.
    FetchingLog {
        /// The log.
        log: Pending<String>,
        /// The match, as it was watched.
        info: Box<MatchInfo>,
        /// Its board's tileset being found.
        art: Option<Finding>,
    },
    /// A finished match stepped through.
    Replaying(Box<ReplayScreen>),
    /// The page cannot go on (no match at this address, the server unreachable).
    Failed(String),
}

/// The page.
pub struct WebApp {
    link: Result<MatchLink, String>,
    keep: Box<dyn Keep>,
    wake: Wake,
    lexicon: Arc<Lexicon>,
    picker: SeatPicker,
    /// Where the page stands.
    pub screen: Screen,
    /// The last thing that happened, shown until the next.
    pub message: Option<String>,
    leaving: Option<Pending<MatchInfo>>,
    themed: bool,
}

impl WebApp {
    /// The page for `link` (the page's address read, or why it names no match), keeping seats
    /// in `keep`; `wake` asks for a frame when something arrives.
    pub fn new(link: Result<MatchLink, String>, keep: Box<dyn Keep>, wake: Wake) -> WebApp {
        let name = keep::kept_name(keep.as_ref());
        let mut app = WebApp {
            link,
            keep,
            wake,
            lexicon: Arc::new(Lexicon::english()),
            picker: SeatPicker { name },
            screen: Screen::Failed(String::new()),
            message: None,
            leaving: None,
            themed: false,
        };
        app.open();
        app
    }

    /// The first screen: the match watched (`?watch`), the kept seat come back to, the seat
    /// the link names taken (`?seat=`), or the match shown to pick a seat.
    fn open(&mut self) {
        let link = match &self.link {
            Ok(link) => link.clone(),
            Err(e) => return self.screen = Screen::Failed(e.clone()),
        };
        match (
            keep::kept_seat(self.keep.as_ref(), &link.match_id),
            &link.seat,
        ) {
            _ if link.replay => self.watch_to_replay(),
            _ if link.watch => self.join(None, false),
            (Some(kept), _) => self.join(Some(kept.token), true),
            (None, Some(seat)) => {
                if let Some(name) = &link.name {
                    self.picker.name.clone_from(name);
                }
                self.take(seat);
            }
            (None, None) => self.load(),
        }
    }

    fn load(&mut self) {
        if let Ok(link) = &self.link {
            let asked = lobby::match_info(&link.base, &link.match_id, self.wake.clone());
            self.screen = Screen::Loading(asked);
        }
    }

    fn join(&mut self, token: Option<String>, kept: bool) {
        self.connect(token, kept, false);
    }

    /// Watches the match to replay it: what the replay shows around the board (who sat where,
    /// the tileset) comes with the welcome; the log is fetched next.
    fn watch_to_replay(&mut self) {
        self.connect(None, false, true);
    }

    fn connect(&mut self, token: Option<String>, kept: bool, replay: bool) {
        let Ok(link) = &self.link else { return };
        let address = SeatAddress {
            base: link.base.clone(),
            match_id: link.match_id.clone(),
            token,
        };
        match Joining::start(address, self.lexicon.clone(), Some(self.wake.clone())) {
            Ok(joining) => {
                self.screen = Screen::Joining {
                    joining: Box::new(joining),
                    kept,
                    replay,
                }
            }
            Err(e) => self.screen = Screen::Failed(e),
        }
    }

    /// The match this page is about.
    fn match_id(&self) -> String {
        self.link
            .as_ref()
            .map(|l| l.match_id.clone())
            .unwrap_or_default()
    }

    /// Takes in what arrived since the last frame.
    fn step(&mut self) {
        self.step_leaving();
        let screen = std::mem::replace(&mut self.screen, Screen::Failed(String::new()));
        self.screen = match screen {
            Screen::Loading(asked) => match asked.take() {
                None => Screen::Loading(asked),
                Some(Ok(info)) => Screen::Choosing(Box::new(info)),
                Some(Err(e)) => Screen::Failed(e),
            },
            Screen::FetchingLog { log, info, art } => match log.take() {
                None => Screen::FetchingLog { log, info, art },
                Some(Ok(text)) => return self.replaying(&text, *info, art),
                Some(Err(e)) => {
                    self.message = Some(format!("The log cannot be had: {e}"));
                    return self.load();
                }
            },
            Screen::Taking(asked) => match asked.take() {
                None => Screen::Taking(asked),
                Some(Ok(taken)) => return self.seated(taken),
                Some(Err(e)) => {
                    self.message = Some(e);
                    return self.load();
                }
            },
            Screen::Joining {
                joining,
                kept,
                replay,
            } => match joining.poll() {
                Join::Waiting(joining) => Screen::Joining {
                    joining,
                    kept,
                    replay,
                },
                Join::Joined(seat) if replay => self.fetching_log(&seat),
                Join::Joined(seat) => self.playing(*seat),
                Join::Refused(why) if kept => {
                    // The seat was given up elsewhere: its token is no key any more.
                    let id = self.match_id();
                    keep::forget_seat(self.keep.as_mut(), &id);
                    self.message = Some(format!("Your seat could not be come back to: {why}"));
                    return self.load();
                }
                Join::Failed(why) if kept => {
                    // The server could not be reached: the token is kept, to try again.
                    self.message = Some(format!("Your seat could not be reached: {why}"));
                    return self.load();
                }
                Join::Refused(why) | Join::Failed(why) => {
                    self.message = Some(why);
                    return self.load();
                }
            },
            Screen::Playing {
                mut session,
                view,
                art,
            } => {
                session.update();
                Screen::Playing { session, view, art }
            }
            other => other,
        };
    }

    fn seated(&mut self, taken: SeatTaken) {
        let kept = KeptSeat {
            seat: taken.seat.clone(),
            token: taken.token.clone(),
        };
        keep::keep_seat(self.keep.as_mut(), &taken.match_id, &kept);
        self.message = None;
        self.join(Some(taken.token), false);
    }

    fn step_leaving(&mut self) {
        let Some(answer) = self.leaving.as_ref().and_then(Pending::take) else {
            return;
        };
        self.leaving = None;
        match answer {
            Ok(_) => {
                let id = self.match_id();
                keep::forget_seat(self.keep.as_mut(), &id);
                self.message = Some("You gave your seat up: it is open again.".into());
                self.load();
            }
            Err(e) => self.message = Some(format!("Leaving failed: {e}")),
        }
    }

    /// Gives the seat up.
    fn leave(&mut self, token: &str) {
        let Ok(link) = &self.link else { return };
        self.leaving = Some(lobby::leave(
            &link.base,
            &link.match_id,
            token,
            self.wake.clone(),
        ));
    }

    /// Draws the page in `ui` (the whole window).
    pub fn ui(&mut self, ui: &mut egui::Ui) {
        if !self.themed {
            scryptic_play::theme::install(ui.ctx());
            self.themed = true;
        }
        self.step();
        if let Screen::Playing { session, view, art } = &mut self.screen {
            if let Some(problem) = tileset::show(ui.ctx(), view, art) {
                self.message = Some(problem);
            }
            let mut leave = None;
            egui::Panel::top("web top").show(ui, |ui| {
                leave = top_bar(ui, session, self.leaving.is_some());
            });
            egui::CentralPanel::no_frame().show(ui, |ui| {
                view.ui(ui, session, self.message.as_deref());
            });
            if let Some(token) = leave {
                self.leave(&token);
            }
            return;
        }
        if let Screen::Replaying(replay) = &mut self.screen {
            return replay.ui(ui);
        }
        egui::CentralPanel::default().show(ui, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| self.lobby_ui(ui));
        });
    }

    fn lobby_ui(&mut self, ui: &mut egui::Ui) {
        ui.hyperlink_to("All matches", "/");
        ui.add_space(8.0);
        let choice = match &self.screen {
            Screen::Loading(_) => return waiting(ui, "Asking the server for the match…"),
            Screen::Taking(_) => return waiting(ui, "Taking the seat…"),
            Screen::FetchingLog { .. } => return waiting(ui, "Fetching the match's log…"),
            Screen::Joining { .. } => return waiting(ui, "Joining the match…"),
            Screen::Failed(e) => {
                ui.colored_label(ui.visuals().error_fg_color, e.as_str());
                if ui.button("Try again").clicked() {
                    self.message = None;
                    self.open();
                }
                return;
            }
            Screen::Choosing(info) => {
                let kept = keep::kept_seat(self.keep.as_ref(), &info.id);
                let message = self.message.as_deref();
                self.picker.ui(ui, info, kept.as_ref(), message)
            }
            Screen::Playing { .. } | Screen::Replaying(_) => None,
        };
        match choice {
            Some(Choice::Take(seat)) => self.take(&seat),
            Some(Choice::Replay) => self.watch_to_replay(),
            Some(Choice::Rejoin(token)) => {
                self.message = None;
                self.join(Some(token), true);
            }
            Some(Choice::Watch) => self.join(None, false),
            Some(Choice::Refresh) => {
                self.message = None;
                self.load();
            }
            None => {}
        }
    }

    /// The match watched (its seats, its tileset being found); its log fetched next. The
    /// connection closes: a replay needs nothing more from it.
    fn fetching_log(&mut self, seat: &ServerSeat) -> Screen {
        let art = self.find_art(seat);
        Screen::FetchingLog {
            log: lobby::log(&self.base(), &seat.info.id, self.wake.clone()),
            info: Box::new(seat.info.clone()),
            art,
        }
    }

    /// The match's log, stepped through from its start.
    fn replaying(&mut self, text: &str, info: MatchInfo, art: Option<Finding>) {
        let Ok(link) = &self.link else { return };
        let name = format!("match {}", link.match_id);
        match scryptic_play::replay::Replay::open(&name, text, self.lexicon.clone()) {
            Ok(replay) => {
                let url = format!("{}/api/matches/{}/save", link.base, link.match_id);
                crate::set_page_title(&format!("{} (replay) · Scryptic", info.title));
                let replay = replay.seated(info.seats.clone());
                let screen = ReplayScreen::new(replay, &info, url, art);
                self.screen = Screen::Replaying(Box::new(screen));
            }
            Err(e) => {
                self.message = Some(e);
                self.load();
            }
        }
    }

    fn take(&mut self, seat: &str) {
        let Ok(link) = &self.link else { return };
        let name = self.picker.name.trim().to_string();
        keep::keep_name(self.keep.as_mut(), &name);
        let name = if name.is_empty() {
            "player".to_string()
        } else {
            name
        };
        let asked = lobby::take_seat(&link.base, &link.match_id, seat, &name, self.wake.clone());
        self.screen = Screen::Taking(asked);
    }

    fn playing(&mut self, seat: ServerSeat) -> Screen {
        let art = self.find_art(&seat);
        let (me, title) = (seat.seat, seat.info.title.clone());
        let role = match me {
            Some(p) => Referee::game(&seat).seat_names().name(p).to_string(),
            None => "watching".to_string(),
        };
        crate::set_page_title(&format!("{title} ({role}) · Scryptic"));
        crate::mark("scryptic-board");
        Screen::Playing {
            session: Box::new(Session::one_seat(Box::new(seat), me, title)),
            view: Box::default(),
            art,
        }
    }

    /// The server's address, as the page's link names it.
    fn base(&self) -> String {
        (self.link.as_ref()).map_or(String::new(), |l| l.base.clone())
    }

    /// Starts finding the tileset of `seat`'s match (what went wrong, said as the message).
    fn find_art(&mut self, seat: &ServerSeat) -> Option<Finding> {
        tileset::find(&self.base(), seat, self.wake.clone()).unwrap_or_else(|e| {
            self.message = Some(format!("{e}: the board is drawn plain"));
            None
        })
    }
}

fn waiting(ui: &mut egui::Ui, what: &str) {
    ui.horizontal(|ui| {
        ui.spinner();
        ui.label(what);
    });
}

/// The bar above the match: back to the site, the match, who this screen is, and Leave (the
/// seat's token, when pressed).
fn top_bar(ui: &mut egui::Ui, session: &Session, leaving: bool) -> Option<String> {
    let seat = session.referee().as_any().downcast_ref::<ServerSeat>()?;
    let mut leave = None;
    ui.horizontal_wrapped(|ui| {
        ui.hyperlink_to("All matches", "/");
        ui.separator();
        ui.strong(&seat.info.title);
        ui.label(format!("{} · match {}", seat.info.mode, seat.info.id));
        ui.separator();
        match seat.seat {
            Some(me) => {
                ui.label(format!("You play {}", session.game().seat_names().name(me)));
                let token = seat.address().token.clone();
                let button = egui::Button::new("Leave").min_size(egui::vec2(72.0, 32.0));
                let response = ui
                    .add_enabled(!leaving && token.is_some(), button)
                    .on_hover_text("Give your seat up: it is open again for anyone");
                if response.clicked() {
                    leave = token;
                }
            }
            None => {
                ui.label("Watching: every rack is hidden");
            }
        }
    });
    leave
}
