//! `scryptic join`, `host` and `matches`: one seat of an online match at this terminal, with
//! `play`'s screen and commands, showing only what the server sends this seat. The game is
//! the server's: each view it sends is checked whole (`Game::from_snapshot`) and drawn by the
//! same `Table` as at home; each command typed becomes the engine's action and goes to the
//! server, which plays it or says why not.

use super::join_screen::{Seen, on_frame, seats_line, status};
use super::keyboard::Typed;
use super::play_cmd::Table;
use super::{EXIT_PROBLEMS, EXIT_USAGE, Streams};
use crate::game::notation::parse_command_as;
use crate::lexicon::Lexicon;
use clap::Args;
use scryptic_client::{Address, Connection, Incoming, Lobby};
use scryptic_protocol::{
    ClientFrame, CreateMatch, MatchInfo, MatchState, Occupant, SeatRequest, TakeSeat,
};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// `scryptic join URL`.
#[derive(Args, Debug)]
pub(super) struct JoinArgs {
    /// The match's address, as `host` or `matches` print it
    /// (http://127.0.0.1:7878/matches/ID).
    url: String,
    /// The seat to take (its name in the mode: gold, red, ...); without it the first open
    /// one, or the one this machine last played in the match.
    #[arg(long)]
    seat: Option<String>,
    /// The name the other players see.
    #[arg(long)]
    name: Option<String>,
    /// Watch without a seat: the public view, as a spectator.
    #[arg(long)]
    spectate: bool,
}

/// `scryptic host PACK[:MODE]`.
#[derive(Args, Debug)]
pub(super) struct HostArgs {
    /// The pack's mode to play (`word-wars`, `core:classic`).
    pack: String,
    /// Who sits where: SEAT=me (this terminal), SEAT=ai[:LEVEL], SEAT=open (the default for
    /// seats not named). Repeat it.
    #[arg(long = "seat", value_name = "SEAT=WHO")]
    seats: Vec<String>,
    /// Another board of the pack than its mode's (`maps/deals/three.ron`).
    #[arg(long)]
    map: Option<String>,
    /// A setting of the pack's (`--set rounds=4`). Repeat it.
    #[arg(long = "set", value_name = "ID=VALUE")]
    set: Vec<String>,
    /// The server to make the match on; without it this command serves one itself, for as
    /// long as it runs.
    #[arg(long)]
    server: Option<String>,
    /// Where the server this command starts listens (127.0.0.1:7878; 0.0.0.0:7878 for other
    /// machines of the network; port 0 for any free one).
    #[arg(long, default_value = "127.0.0.1:7878")]
    bind: String,
    /// The game's seed (without it the server draws one).
    #[arg(long)]
    seed: Option<u64>,
    /// The name the other players see.
    #[arg(long)]
    name: Option<String>,
    /// Keep the whole log from the players after the end (by default anyone may fetch it).
    #[arg(long)]
    private_log: bool,
}

/// `scryptic matches URL`.
#[derive(Args, Debug)]
pub(super) struct MatchesArgs {
    /// The server's address (http://127.0.0.1:7878).
    url: String,
    /// Print the lobby's answer as JSON.
    #[arg(long)]
    json: bool,
    /// Only the matches this data folder holds a seat in (the seats `join` and `host` kept),
    /// those where it is your turn first.
    #[arg(long)]
    mine: bool,
    /// Skip the newest N matches: the lobby lists a page at a time (the next page's offset
    /// is said under the list).
    #[arg(long, value_name = "N", default_value_t = 0)]
    offset: usize,
}

fn person_name(given: Option<&str>) -> String {
    let from_env = std::env::var("USER").ok().filter(|u| !u.trim().is_empty());
    given
        .map(str::to_string)
        .or(from_env)
        .unwrap_or_else(|| "player".to_string())
        .chars()
        .take(40)
        .collect()
}

pub(super) fn matches(args: MatchesArgs, io: &mut Streams) -> anyhow::Result<i32> {
    let address = match Address::parse(&args.url) {
        Ok(a) => a,
        Err(e) => {
            writeln!(io.err, "{e}")?;
            return Ok(EXIT_USAGE);
        }
    };
    let lobby = Lobby::new(&address.base);
    let listed = if args.mine {
        let ids = scryptic_client::kept_matches(super::data_dir().as_deref(), &address.base);
        lobby.matches_of(&ids)
    } else {
        lobby.matches_from(args.offset)
    };
    let list = match listed {
        Ok(list) => list,
        Err(e) => {
            writeln!(io.err, "{e}")?;
            return Ok(EXIT_PROBLEMS);
        }
    };
    if args.json {
        super::print_json(io.out, &list)?;
        return Ok(0);
    }
    if args.mine {
        return mine(&list.matches, &address, io);
    }
    if list.matches.is_empty() {
        writeln!(
            io.out,
            "no matches on {} yet: `scryptic host PACK --server {}` makes one",
            address.base, address.base
        )?;
    }
    for info in &list.matches {
        writeln!(io.out, "{}", match_line(info))?;
        if info.state == MatchState::Waiting {
            writeln!(io.out, "    join: scryptic join {}", link(info, &address))?;
        }
    }
    let shown = args.offset + list.matches.len();
    if (shown as u64) < list.total {
        writeln!(
            io.out,
            "newest {} to {shown} of {} matches: `--offset {shown}` lists the next",
            args.offset + 1,
            list.total
        )?;
    }
    Ok(0)
}

/// `matches --mine`: the matches a seat is kept for in this data folder, those waiting on it
/// first.
fn mine(matches: &[MatchInfo], address: &Address, io: &mut Streams) -> anyhow::Result<i32> {
    let data = super::data_dir();
    let mut held: Vec<(bool, &MatchInfo, Vec<String>)> = Vec::new();
    for info in matches {
        let seats: Vec<String> =
            scryptic_client::kept_tokens(data.as_deref(), &address.base, &info.id)
                .into_iter()
                .map(|(seat, _)| seat)
                .collect();
        let your_turn =
            info.state != MatchState::Over && seats.iter().any(|s| info.to_act.contains(s));
        if !seats.is_empty() {
            held.push((your_turn, info, seats));
        }
    }
    if held.is_empty() {
        writeln!(
            io.out,
            "you hold no seat on {}: `scryptic join ADDRESS` takes one",
            address.base
        )?;
    }
    // Those waiting on you first, the one whose clock runs out soonest first; the lobby's
    // order (newest first) kept otherwise.
    held.sort_by_key(|(your_turn, info, _)| (!your_turn, info.move_due_ms.unwrap_or(u64::MAX)));
    let now_ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64);
    for (your_turn, info, seats) in held {
        let mut turn = if your_turn { "YOUR TURN" } else { "waiting" }.to_string();
        if let Some(due) = info.move_due_ms {
            let left = scryptic_protocol::time_words(due.saturating_sub(now_ms));
            turn = format!("{turn}, {left} left");
        }
        writeln!(io.out, "{turn} ({}) {}", seats.join(", "), match_line(info))?;
        writeln!(io.out, "    play: scryptic join {}", link(info, address))?;
    }
    Ok(0)
}

/// The match's link: at the process that serves it, where several share a database.
fn link(info: &MatchInfo, asked: &Address) -> String {
    match &info.server {
        Some(base) => format!("{base}/matches/{}", info.id),
        None => asked.of_match(&info.id),
    }
}

fn match_line(info: &MatchInfo) -> String {
    let state = match info.state {
        MatchState::Waiting => "waiting for players",
        MatchState::Playing => "under way",
        MatchState::Over => "over",
    };
    format!(
        "{}  {} ({}), {state}, {} actions; {}",
        info.id,
        info.title,
        info.mode,
        info.actions,
        seats_line(info)
    )
}

pub(super) fn join(args: JoinArgs, io: &mut Streams) -> anyhow::Result<i32> {
    let address = match Address::parse(&args.url) {
        Ok(a) => a,
        Err(e) => {
            writeln!(io.err, "{e}")?;
            return Ok(EXIT_USAGE);
        }
    };
    let Some(id) = address.match_id.clone() else {
        writeln!(
            io.err,
            "name the match: {}/matches/ID (`scryptic matches {}` lists them)",
            address.base, address.base
        )?;
        return Ok(EXIT_USAGE);
    };
    // Where processes share a database, the match is played at the one that serves it (any
    // of them lists it, and names that one).
    let base = serving(&address.base, &id).unwrap_or_else(|| address.base.clone());
    let lobby = Lobby::new(&base);
    let token = if args.spectate {
        None
    } else {
        match seat_token(
            &lobby,
            &base,
            &id,
            args.seat.as_deref(),
            args.name.as_deref(),
            io,
        )? {
            Some(token) => Some(token),
            None => return Ok(EXIT_PROBLEMS),
        }
    };
    play_online(&lobby, (&address.base, &base), &id, token, io)
}

/// The address of the process serving match `id`, as the lobby at `asked` names it (where
/// several share a database); none if it names none or does not answer.
fn serving(asked: &str, id: &str) -> Option<String> {
    let listed = Lobby::new(asked).matches_of(&[id.to_string()]).ok()?;
    listed.matches.into_iter().next()?.server
}

/// The token of the seat to play: one kept from an earlier join of this match (for `seat`,
/// or any), else a seat taken now; `None` after saying why not.
fn seat_token(
    lobby: &Lobby,
    base: &str,
    id: &str,
    seat: Option<&str>,
    name: Option<&str>,
    io: &mut Streams,
) -> anyhow::Result<Option<String>> {
    let kept = scryptic_client::kept_tokens(super::data_dir().as_deref(), base, id);
    let again = kept
        .iter()
        .find(|(s, _)| seat.is_none_or(|wanted| wanted.eq_ignore_ascii_case(s)));
    if let Some((seat, token)) = again {
        writeln!(io.out, "back at {seat} (this machine's seat in the match)")?;
        return Ok(Some(token.clone()));
    }
    let request = TakeSeat {
        seat: seat.map(str::to_string),
        name: person_name(name),
    };
    match lobby.take(id, request) {
        Ok(taken) => {
            if let Err(e) = scryptic_client::keep_token(
                super::data_dir().as_deref(),
                base,
                id,
                &taken.seat,
                &taken.token,
            ) {
                writeln!(
                    io.err,
                    "warning: the seat's token cannot be kept ({e}): you cannot come back to it after quitting"
                )?;
            }
            Ok(Some(taken.token))
        }
        Err(e) => {
            writeln!(io.err, "{e}")?;
            Ok(None)
        }
    }
}

pub(super) fn host(args: HostArgs, io: &mut Streams) -> anyhow::Result<i32> {
    let (pack, mode) = match args.pack.rsplit_once(':') {
        Some((pack, mode)) if !mode.is_empty() => (pack.to_string(), mode.to_string()),
        _ => (args.pack.clone(), String::new()),
    };
    let mut seats = BTreeMap::new();
    let mut mine = None;
    for spec in &args.seats {
        let Some((seat, who)) = spec.split_once('=') else {
            writeln!(
                io.err,
                "--seat {spec}: write it as SEAT=me, SEAT=ai[:LEVEL] or SEAT=open"
            )?;
            return Ok(EXIT_USAGE);
        };
        let seat = seat.trim().to_string();
        match who.trim() {
            "me" if mine.is_some() => {
                writeln!(
                    io.err,
                    "--seat {spec}: this terminal plays one seat (it has {})",
                    mine.unwrap_or_default()
                )?;
                return Ok(EXIT_USAGE);
            }
            "me" => mine = Some(seat),
            "open" => {
                seats.insert(seat, SeatRequest::Open);
            }
            ai if ai == "ai" || ai.starts_with("ai:") => {
                let level = ai.strip_prefix("ai:").unwrap_or("normal").to_string();
                seats.insert(seat, SeatRequest::Ai { level });
            }
            other => {
                writeln!(
                    io.err,
                    "--seat {spec}: `{other}` is not me, ai[:LEVEL] or open"
                )?;
                return Ok(EXIT_USAGE);
            }
        }
    }
    let mut settings = BTreeMap::new();
    for s in &args.set {
        let Some((key, value)) = s.split_once('=') else {
            writeln!(io.err, "--set {s}: write it as id=value (--set rounds=4)")?;
            return Ok(EXIT_USAGE);
        };
        settings.insert(key.trim().to_string(), value.trim().to_string());
    }
    // The server: the one named, or one of this process's own.
    let (base, _serving) = match &args.server {
        Some(url) => match Address::parse(url) {
            Ok(address) => (address.base, None),
            Err(e) => {
                writeln!(io.err, "{e}")?;
                return Ok(EXIT_USAGE);
            }
        },
        None => match super::serve_cmd::start_local(&args.bind, io)? {
            Some(started) => (
                format!("http://{}", shown_addr(started.addr)),
                Some(started),
            ),
            None => return Ok(EXIT_PROBLEMS),
        },
    };
    let lobby = Lobby::new(&base);
    let request = CreateMatch {
        pack,
        mode,
        map: args.map.clone().unwrap_or_default(),
        settings,
        seats,
        seed: args.seed,
        log_after_end: !args.private_log,
    };
    let info = match lobby.create(request) {
        Ok(info) => info,
        Err(e) => {
            writeln!(io.err, "{e}")?;
            return Ok(EXIT_PROBLEMS);
        }
    };
    let address = Address {
        base: base.clone(),
        match_id: Some(info.id.clone()),
    };
    writeln!(
        io.out,
        "match {} made: {} ({})",
        info.id, info.title, info.mode
    )?;
    let token = match &mine {
        Some(seat) => match seat_token(
            &lobby,
            &base,
            &info.id,
            Some(seat),
            args.name.as_deref(),
            io,
        )? {
            Some(token) => Some(token),
            None => return Ok(EXIT_PROBLEMS),
        },
        None => None,
    };
    for seat in info.seats.iter().filter(|s| s.occupant == Occupant::Open) {
        if mine
            .as_deref()
            .is_some_and(|m| m.eq_ignore_ascii_case(&seat.seat))
        {
            continue;
        }
        writeln!(
            io.out,
            "{} joins with: scryptic join {} --seat {}",
            seat.seat,
            address.of_match(&info.id),
            seat.seat
        )?;
    }
    writeln!(
        io.out,
        "to watch: scryptic join {} --spectate",
        address.of_match(&info.id)
    )?;
    match token {
        Some(token) => play_online(&lobby, (&base, &base), &info.id, Some(token), io),
        None if _serving.is_some() => {
            writeln!(io.out, "serving until the input ends (Ctrl-D) or Ctrl-C")?;
            let mut line = String::new();
            while io.input.read_line(&mut line)? > 0 {
                line.clear();
            }
            Ok(0)
        }
        None => Ok(0),
    }
}

/// The address to show for `addr`: one listening on every interface is reached here by
/// loopback.
fn shown_addr(addr: std::net::SocketAddr) -> String {
    if addr.ip().is_unspecified() {
        format!("127.0.0.1:{}", addr.port())
    } else {
        addr.to_string()
    }
}

/// Plays (or watches) match `id` at `base` (found through the lobby at `asked`) with `token`
/// until the person quits; the exit code.
fn play_online(
    lobby: &Lobby,
    (asked, base): (&str, &str),
    id: &str,
    token: Option<String>,
    io: &mut Streams,
) -> anyhow::Result<i32> {
    let mut connection = match Connection::open(base, id, token.clone(), None, None) {
        Ok(c) => c,
        Err(e) => {
            writeln!(io.err, "{e}")?;
            return Ok(EXIT_PROBLEMS);
        }
    };
    let lexicon = Arc::new(Lexicon::english());
    let mut table = Table::for_seat(io, None);
    let mut seen: Option<Seen> = None;
    loop {
        loop {
            match connection.incoming.try_recv() {
                Ok(Incoming::Frame(frame)) => {
                    // Written above the line being typed, at a terminal.
                    let mut said = Vec::new();
                    let mut to_say = Streams {
                        input: &mut std::io::empty(),
                        out: &mut said,
                        err: io.err,
                        terminal: io.terminal,
                    };
                    let shown = on_frame(*frame, &mut seen, &mut table, &lexicon, &mut to_say);
                    let text = String::from_utf8_lossy(&said);
                    if !text.trim().is_empty() {
                        let keyboard = table.keyboard_and_clock().0;
                        keyboard.say(text.trim_end_matches('\n'), io)?;
                    }
                    if let Err(e) = shown {
                        writeln!(io.err, "{e}")?;
                        return Ok(EXIT_PROBLEMS);
                    }
                }
                Ok(Incoming::Closed { why, retry }) => {
                    writeln!(io.out, "  {why}")?;
                    let over = seen
                        .as_ref()
                        .is_some_and(|s| s.announced_end && s.info.state == MatchState::Over);
                    if over || !retry {
                        return Ok(if over { 0 } else { EXIT_PROBLEMS });
                    }
                    let had = seen.as_ref().map(|s| s.actions);
                    match reconnect((asked, base), id, token.clone(), had, io)? {
                        Some(again) => {
                            connection = again;
                            // The next view is drawn whole, with what happened meanwhile.
                            if let Some(at) = seen.as_mut() {
                                at.game = None;
                            }
                        }
                        None => return Ok(EXIT_PROBLEMS),
                    }
                    break;
                }
                Err(_) => break,
            }
        }
        // Lines wait until the game is there to read them against.
        let Some(at) = seen.as_mut().filter(|s| s.game.is_some()) else {
            std::thread::sleep(Duration::from_millis(20));
            continue;
        };
        let prompt = match at.seat {
            Some(seat) => format!("{}> ", table.screen().seat_name(seat)),
            None => "watching> ".to_string(),
        };
        let deadline = Some(Instant::now() + Duration::from_millis(50));
        let line = match table
            .keyboard_and_clock()
            .0
            .read_until(&prompt, deadline, io)?
        {
            Typed::TimeUp => continue,
            Typed::Ended => {
                writeln!(io.out)?;
                return Ok(0);
            }
            Typed::Line(line) => line,
        };
        match command(
            line.trim(),
            at,
            &mut table,
            &connection,
            lobby,
            (id, token.as_deref()),
            io,
        )? {
            Some(code) => return Ok(code),
            None => continue,
        }
    }
}

/// How long a seat tries to connect again after its connection broke.
const RECONNECT_FOR: Duration = Duration::from_secs(120);

/// Connects again with `token` (the server restarted, the network dropped), every second for
/// a while; `None` after saying it gave up.
fn reconnect(
    (asked, base): (&str, &str),
    id: &str,
    token: Option<String>,
    seen: Option<u64>,
    io: &mut Streams,
) -> anyhow::Result<Option<Connection>> {
    writeln!(io.out, "  connecting again...")?;
    io.out.flush()?;
    let began = Instant::now();
    loop {
        std::thread::sleep(Duration::from_secs(1));
        // Where processes share a database, another may have taken the match over: the lobby
        // first asked says which serves it now.
        let at = serving(asked, id).unwrap_or_else(|| base.to_string());
        match Connection::open(&at, id, token.clone(), seen, None) {
            Ok(again) => {
                writeln!(io.out, "  back in the match")?;
                return Ok(Some(again));
            }
            Err(e) if began.elapsed() > RECONNECT_FOR => {
                writeln!(io.err, "gave up connecting again: {e}")?;
                return Ok(None);
            }
            Err(_) => {}
        }
    }
}

/// Answers a line typed: `Some(exit code)` when the person leaves.
fn command(
    line: &str,
    seen: &mut Seen,
    table: &mut Table,
    connection: &Connection,
    lobby: &Lobby,
    (id, token): (&str, Option<&str>),
    io: &mut Streams,
) -> anyhow::Result<Option<i32>> {
    let Some(game) = seen.game.as_ref() else {
        writeln!(io.out, "  the server has not sent the game yet")?;
        return Ok(None);
    };
    match line.split_whitespace().next().unwrap_or("") {
        "" => {}
        "help" => writeln!(io.out, "{}", super::join_help::online_help(seen, game))?,
        "board" => status(seen, table, io)?,
        "moves" if game.rules().flow.scripted => {
            if seen.moves.is_empty() {
                writeln!(io.out, "  no move of yours now")?;
            } else {
                writeln!(io.out, "your moves: {}", seen.moves.join(", "))?;
            }
        }
        "quit" => {
            if seen.seat.is_some() && !seen.announced_end {
                writeln!(
                    io.out,
                    "  you left; your seat stays yours: join the match again to come back"
                )?;
            }
            return Ok(Some(0));
        }
        "save" => save(line, lobby, id, io)?,
        "leave" if seen.seat.is_some() && !seen.announced_end => {
            let Some(token) = token else {
                return Ok(None);
            };
            match lobby.leave(id, token) {
                Ok(_) => {
                    if let Some(player) = seen.seat {
                        let name = crate::game::SeatNames::of(&seen.rules)
                            .name(player)
                            .to_string();
                        // A seat given up is not come back to.
                        let _ = scryptic_client::forget_token(
                            super::data_dir().as_deref(),
                            lobby.base(),
                            id,
                            &name,
                        );
                    }
                    writeln!(
                        io.out,
                        "  you gave your seat up: it is open for anyone to take"
                    )?;
                    return Ok(Some(0));
                }
                Err(e) => writeln!(io.out, "  cannot leave: {e}")?,
            }
        }
        "preview" if seen.seat.is_some() => super::play_cmd::preview(game, line, io)?,
        "next" if seen.seat.is_some() && game.match_goes_on() => {
            connection.send(ClientFrame::Next);
            writeln!(io.out, "  ready: the next round starts once everyone is")?;
        }
        "pass" if game.rules().flow.simultaneous => {
            writeln!(
                io.out,
                "  everyone plays at once from their own screen: there is no keyboard to pass"
            )?;
        }
        _ if seen.announced_end && game.match_goes_on() => {
            writeln!(
                io.out,
                "  the round is over: `next` when you are ready for the next, `board`, or `quit`"
            )?;
        }
        _ if seen.announced_end => {
            writeln!(
                io.out,
                "  the match is over: `board`, `save FILE` or `quit`"
            )?;
        }
        _ => match seen.seat {
            None => writeln!(io.out, "  you are watching: `board`, `help`, `quit`")?,
            Some(seat) => match parse_command_as(game, seat, line) {
                Ok(action) => {
                    if !connection.send(ClientFrame::Act {
                        action,
                        after: None,
                    }) {
                        writeln!(io.out, "  the connection is closed")?;
                    }
                }
                Err(e) => {
                    let message = table.screen().render(&e.to_string());
                    writeln!(io.out, "  refused: {message}")?;
                }
            },
        },
    }
    Ok(None)
}

fn save(line: &str, lobby: &Lobby, id: &str, io: &mut Streams) -> anyhow::Result<()> {
    let Some(path) = line.split_whitespace().nth(1) else {
        writeln!(io.out, "  write: save FILE")?;
        return Ok(());
    };
    match lobby.save(id) {
        Ok(text) => match crate::fsutil::write_atomic(Path::new(path), text.as_bytes()) {
            Ok(()) => writeln!(
                io.out,
                "  saved to {path} (`scryptic replay {path}` plays it back)"
            )?,
            Err(e) => writeln!(io.out, "  cannot save to {path}: {e}")?,
        },
        Err(e) => writeln!(io.out, "  cannot save: {e}")?,
    }
    Ok(())
}
