//! `scryptic serve`: the referee of online matches (the `scryptic-server` crate), started
//! here with the command line's folders; and the server `host` starts when none is named.

use super::{EXIT_PROBLEMS, EXIT_USAGE, Streams};
use clap::Args;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

/// `scryptic serve`.
#[derive(Args, Debug)]
pub(super) struct ServeArgs {
    /// Where to listen (0.0.0.0:7878 for other machines of the network; port 0 for any free
    /// one, printed).
    #[arg(long, default_value = "127.0.0.1:7878")]
    bind: String,
    /// The folder of the matches' database (default: `server/` in the data folder).
    #[arg(long)]
    data: Option<PathBuf>,
    /// A folder of packs (each a folder with its pack.ron) this server plays besides the
    /// installed ones. Repeat it.
    #[arg(long = "packs", value_name = "DIR")]
    packs: Vec<PathBuf>,
    /// A folder of release archives (`pack zip`'s `.zip`, signed beside it or not) to publish:
    /// its index at /index.json, which players add with `scryptic pack source add`, and the
    /// web page's pack list. A release added to it is published at once. Repeat it.
    #[arg(long = "publish", value_name = "DIR")]
    publish: Vec<PathBuf>,
    /// Milliseconds an AI seat waits before it acts, so people can follow.
    #[arg(long, default_value_t = 400)]
    ai_pace: u64,
    /// Milliseconds every AI seat takes a letter in a game played at once with people,
    /// whatever its level or the match's `ai_pace` says (for demonstrations).
    #[arg(long)]
    ai_letter_ms: Option<u64>,
    /// Seconds a match's next round waits for people who have not typed `next`.
    #[arg(long, default_value_t = 60)]
    round_pause: u64,
    /// Lobby requests an address may make a second, and in a burst (`10/60`). A seat's
    /// WebSocket coming back with its token is let in past it; everything else from that
    /// address is answered 429 until its rate allows (said in the server's log).
    #[arg(long, value_name = "RATE[/BURST]", default_value = "10/60")]
    lobby_rate: String,
    /// Connections (HTTP and WebSocket) one address may hold open at once: a school or a
    /// café is one address for all its players. Past it, new connections are closed (said in
    /// the server's log).
    #[arg(long, value_name = "N", default_value_t = 256)]
    connections_per_address: usize,
    /// A reverse proxy (nginx, Caddy) in front of this server, by its address: the client of
    /// a request it forwards is the address its `X-Forwarded-For` names, for every limit
    /// above. From anyone else the header is ignored. Repeat it.
    #[arg(long = "trusted-proxy", value_name = "IP")]
    trusted_proxies: Vec<std::net::IpAddr>,
    /// Matches not over that the server keeps in memory at once; past it, making a match
    /// answers 503. Matches asleep (see --sleep-after) do not count.
    #[arg(long, value_name = "N", default_value_t = 10_000)]
    max_live_matches: usize,
    /// Seconds a match nobody is connected to and nothing needs stays in memory; then it
    /// sleeps (listed as it stands, kept in the database) and is brought back from its log
    /// when someone comes or its clock runs out.
    #[arg(long, value_name = "SECONDS", default_value_t = 300)]
    sleep_after: u64,
    /// Keep the matches in this PostgreSQL database instead of the data folder's SQLite file
    /// (`postgres://user:password@host/db`), shared by the processes of `--shard`.
    #[arg(long, value_name = "URL")]
    database: Option<String>,
    /// Serve shard K of N of the database's matches (by their ids): N processes, each with
    /// its own K, share one database, and every one lists every match. A process takes over
    /// the shard of one that is gone (within two seconds).
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,
    /// Where clients reach this process (`https://play-2.example.org`), when several share a
    /// database: every process's lobby names it for this shard's matches and sends their
    /// requests on to it. Without it, `http://` and the address it listens on.
    #[arg(long, value_name = "URL")]
    public_url: Option<String>,
    /// Write match ID as a save file (`replay` reads it) and stop, instead of serving.
    #[arg(long, num_args = 2, value_names = ["ID", "FILE"])]
    export: Vec<String>,
}

fn data_folder(given: Option<PathBuf>) -> Option<PathBuf> {
    given.or_else(|| super::data_dir().map(|d| d.join("server")))
}

fn options(bind: &str, data: PathBuf) -> Result<scryptic_server::Options, String> {
    let bind: SocketAddr = bind
        .parse()
        .map_err(|e| format!("--bind {bind}: {e} (write it as 127.0.0.1:7878)"))?;
    Ok(scryptic_server::Options::new(bind, data))
}

pub(super) fn serve(args: ServeArgs, io: &mut Streams) -> anyhow::Result<i32> {
    let Some(data) = data_folder(args.data) else {
        writeln!(io.err, "no data folder: name one with --data DIR")?;
        return Ok(EXIT_USAGE);
    };
    if let [id, file] = args.export.as_slice() {
        let exported = match &args.database {
            Some(url) => scryptic_server::PostgresStore::connect(url)
                .map_err(|e| e.to_string())
                .and_then(|store| scryptic_server::export_from(&store, id)),
            None => scryptic_server::export(&data, id),
        };
        return match exported {
            Ok(text) => {
                crate::fsutil::write_atomic(std::path::Path::new(file), text.as_bytes())?;
                writeln!(
                    io.out,
                    "match {id} written to {file} (`scryptic replay {file}` plays it back)"
                )?;
                Ok(0)
            }
            Err(e) => {
                writeln!(io.err, "{e}")?;
                Ok(EXIT_PROBLEMS)
            }
        };
    }
    let mut options = match options(&args.bind, data.clone()) {
        Ok(o) => o,
        Err(e) => {
            writeln!(io.err, "{e}")?;
            return Ok(EXIT_USAGE);
        }
    };
    for folder in &args.packs {
        if holds_archives(folder) && !args.publish.contains(folder) {
            writeln!(
                io.err,
                "note: {} holds release archives: --packs plays pack folders; publish the \
                 archives with --publish {}",
                folder.display(),
                folder.display()
            )?;
        }
    }
    match parse_rate(&args.lobby_rate) {
        Ok(rate) => options.lobby_rate = rate,
        Err(e) => {
            writeln!(io.err, "{e}")?;
            return Ok(EXIT_USAGE);
        }
    }
    if args.connections_per_address == 0 || args.max_live_matches == 0 {
        writeln!(
            io.err,
            "--connections-per-address and --max-live-matches are at least 1"
        )?;
        return Ok(EXIT_USAGE);
    }
    options.connections_per_address = args.connections_per_address;
    options.trusted_proxies = args.trusted_proxies;
    options.max_live_matches = args.max_live_matches;
    options.sleep_after = Duration::from_secs(args.sleep_after);
    options.public_url = args.public_url;
    options.packs = args.packs;
    options.publish = args.publish;
    options.ai_pace = Duration::from_millis(args.ai_pace);
    options.ai_letter = args.ai_letter_ms.map(Duration::from_millis);
    options.round_pause = Duration::from_secs(args.round_pause);
    if let Some(shard) = &args.shard {
        match parse_shard(shard) {
            Ok(shard) => options.shard = shard,
            Err(e) => {
                writeln!(io.err, "{e}")?;
                return Ok(EXIT_USAGE);
            }
        }
    }
    let started = match &args.database {
        Some(url) => scryptic_server::PostgresStore::connect(url)
            .map_err(scryptic_server::ServeError::from)
            .and_then(|store| scryptic_server::start_with(options, Box::new(store))),
        None => scryptic_server::start(options),
    };
    let started = match started {
        Ok(s) => s,
        Err(e) => {
            writeln!(io.err, "{e}")?;
            return Ok(EXIT_PROBLEMS);
        }
    };
    for problem in &started.unrestored {
        writeln!(io.err, "cannot resume {problem}")?;
    }
    for left_out in &started.unpublished {
        writeln!(io.err, "not published: {left_out}")?;
    }
    if started.published > 0 {
        writeln!(
            io.out,
            "publishing {}: players add http://{}/ with `scryptic pack source add`",
            crate::screen::counted(started.published, "pack"),
            started.addr
        )?;
    }
    let from = match &args.database {
        Some(_) => "the database".to_string(),
        None => data.display().to_string(),
    };
    writeln!(
        io.out,
        "serving on http://{} ({} resumed from {from}); Ctrl-C stops",
        started.addr,
        crate::screen::counted(started.restored, "match"),
    )?;
    io.out.flush()?;
    started.run_until_interrupted()?;
    Ok(0)
}

/// `RATE[/BURST]` of `--lobby-rate`: requests a second on average, and in a burst (six
/// seconds' worth when not given).
fn parse_rate(text: &str) -> Result<(f64, f64), String> {
    let (rate, burst) = match text.split_once('/') {
        Some((rate, burst)) => (rate.trim().parse::<f64>(), burst.trim().parse::<f64>().ok()),
        None => (text.trim().parse::<f64>(), None),
    };
    match rate {
        Ok(rate) if rate.is_finite() && rate > 0.0 => {
            let burst = burst.unwrap_or(rate * 6.0);
            if burst.is_finite() && burst >= 1.0 {
                Ok((rate, burst))
            } else {
                Err(format!(
                    "--lobby-rate {text}: the burst is at least 1 (write it as 10/60)"
                ))
            }
        }
        _ => Err(format!(
            "--lobby-rate {text}: write it as requests a second, then a burst if you like (10/60)"
        )),
    }
}

/// `K/N` of `--shard`.
fn parse_shard(text: &str) -> Result<(u32, u32), String> {
    let parsed = text
        .split_once('/')
        .and_then(|(k, n)| Some((k.trim().parse().ok()?, n.trim().parse().ok()?)));
    match parsed {
        Some((k, n)) if n > 0 && k < n => Ok((k, n)),
        _ => Err(format!(
            "--shard {text}: write it as K/N with K below N (0/2 and 1/2 for two processes)"
        )),
    }
}

/// A server for `host`, listening on `bind` with the data folder's matches, as long as the
/// value lives; `None` after saying why not.
pub(super) fn start_local(
    bind: &str,
    io: &mut Streams,
) -> anyhow::Result<Option<scryptic_server::Started>> {
    let Some(data) = data_folder(None) else {
        writeln!(io.err, "no data folder for the server: set SCRYPTIC_DATA")?;
        return Ok(None);
    };
    let options = match options(bind, data.clone()) {
        Ok(o) => o,
        Err(e) => {
            writeln!(io.err, "{e}")?;
            return Ok(None);
        }
    };
    match scryptic_server::start(options) {
        Ok(started) => {
            writeln!(
                io.out,
                "serving on http://{} while this terminal plays (its matches kept in {}, where \
                 `scryptic serve` finds them again)",
                started.addr,
                data.display()
            )?;
            Ok(Some(started))
        }
        Err(e) => {
            writeln!(
                io.err,
                "{e}: is a server running there already? Name it with --server, or listen elsewhere with --bind"
            )?;
            Ok(None)
        }
    }
}

/// Whether `folder` holds a pack archive (`*.zip`).
fn holds_archives(folder: &std::path::Path) -> bool {
    std::fs::read_dir(folder).is_ok_and(|entries| {
        entries
            .filter_map(Result::ok)
            .any(|e| e.path().extension().is_some_and(|x| x == "zip"))
    })
}
