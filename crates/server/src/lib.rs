//! `scryptic serve`: the referee of online matches.
//!
//! A lobby over HTTP with JSON bodies and one WebSocket per seat or spectator (the messages
//! are `scryptic-protocol`'s). Each match runs its game (engine and scripts, through the one
//! level loader) on the server alone, behind its own lock and off the async threads; each
//! connection is sent only what its seat may see (`Game::seen_by`). Every accepted action is
//! appended to the match's log ([`store`]) before anyone sees its result, so a restarted
//! server replays every match to where it stood. AI seats and the grace period's clock are
//! the server's: a driver task per match plays them as actions in the log.
//!
//! **Invariant:** this is the only crate that knows axum and tokio.

#![deny(missing_docs)]

mod archives;
mod asleep;
#[cfg(test)]
mod asleep_tests;
mod clock;
mod driver;
pub mod fuzzing;
#[cfg(test)]
mod leak_tests;
mod listen;
mod lobby;
mod memory;
mod memory_store;
mod packs_played;
mod postgres_store;
mod published;
mod rate;
mod referee;
mod shards;
mod socket;
pub mod store;
mod web;

pub use clock::Clock;
pub use memory_store::MemoryStore;
pub use postgres_store::PostgresStore;
use referee::Match;
use scryptic_core::lexicon::Lexicon;
use scryptic_pack::{Catalog, Pack};
use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, RwLock};
use std::time::Duration;
pub use store::{Listed, Listing, SqliteStore, Store, StoreError};

/// How a server runs.
#[derive(Clone, Debug)]
pub struct Options {
    /// The address to listen on (`127.0.0.1:7878`; port 0: any free port).
    pub bind: SocketAddr,
    /// The folder of its database (`matches.sqlite`).
    pub data: PathBuf,
    /// Folders of packs to play besides the installed ones and the search folders (each holds
    /// pack folders).
    pub packs: Vec<PathBuf>,
    /// Folders of release archives (`*.zip`, each signed beside it or not) to publish as the
    /// server's pack index (`GET /index.json`); a release added to one is served without a
    /// restart.
    pub publish: Vec<PathBuf>,
    /// How long an AI seat waits before it acts (so people can follow), and between the
    /// actions of AIs in simultaneous play.
    pub ai_pace: Duration,
    /// In a game played at once with people, the time every AI seat takes a letter, whatever
    /// its level or the match's `ai_pace` says (demonstrations, tests); `None`: theirs.
    pub ai_letter: Option<Duration>,
    /// The most matches not over that it keeps at once.
    pub max_live_matches: usize,
    /// How long a match's next round waits for people who have not said `next`.
    pub round_pause: Duration,
    /// Lobby requests an address may make a second on average, and in a burst. A seat's
    /// WebSocket that says hello with its token is let in past it (a player coming back).
    pub lobby_rate: (f64, f64),
    /// The most connections (HTTP and WebSocket) an address holds open at once: a school or
    /// a café is one address for all its players.
    pub connections_per_address: usize,
    /// Reverse proxies (nginx, Caddy) whose `X-Forwarded-For` names the client: a request from
    /// one is counted against the address it forwards for. From any other peer the header is
    /// ignored (anyone can write it).
    pub trusted_proxies: Vec<std::net::IpAddr>,
    /// How long a request's head, or its body, may take to arrive (a client that announces
    /// a body and never sends it holds its connection no longer).
    pub slow_client: Duration,
    /// `(k, n)`: the matches are split in `n` shards by their ids, so that `n` processes share
    /// one PostgreSQL database; this one serves shard `k` while it holds its lease, and takes
    /// over any shard whose process is gone; `(0, 1)` serves every match.
    pub shard: (u32, u32),
    /// The time its clocks read (a move's time, the grace period, the pause between rounds):
    /// the system's, or for a test one it moves by hand.
    pub clock: Clock,
    /// How long a match nobody is connected to and nothing needs stays in memory before it
    /// sleeps (kept as its listing, brought back from its log when someone comes).
    pub sleep_after: Duration,
    /// How often a process sharing a database looks for a shard whose process is gone (its
    /// lease released), to take it over.
    pub lease_check: Duration,
    /// Where clients reach this process (`https://play.example.org`), recorded in the shared
    /// database so that every process's lobby names it for the matches of its shard and sends
    /// their requests on to it; none: `http://` and the address it listens on, where processes
    /// share a database (alone, it names no address).
    pub public_url: Option<String>,
}

/// Whether match `id` is in `shard` (see `Options::shard`): FNV-1a of the id, modulo.
pub fn in_shard(id: &str, (k, n): (u32, u32)) -> bool {
    n <= 1 || shard_of(id, n) == k
}

/// The shard of `n` that match `id` belongs to (FNV-1a of the id, modulo).
pub fn shard_of(id: &str, n: u32) -> u32 {
    let hash = id.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    });
    (hash % u64::from(n.max(1))) as u32
}

impl Options {
    /// Listening on `bind`, keeping matches in `data`.
    pub fn new(bind: SocketAddr, data: PathBuf) -> Options {
        Options {
            bind,
            data,
            packs: Vec::new(),
            publish: Vec::new(),
            ai_pace: Duration::from_millis(400),
            ai_letter: None,
            max_live_matches: 10_000,
            round_pause: Duration::from_secs(60),
            shard: (0, 1),
            lobby_rate: (10.0, 60.0),
            connections_per_address: 256,
            slow_client: Duration::from_secs(10),
            trusted_proxies: Vec::new(),
            clock: Clock::default(),
            sleep_after: Duration::from_secs(300),
            public_url: None,
            lease_check: Duration::from_secs(2),
        }
    }
}

/// Why the server could not start or stopped.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The data folder or the database.
    #[error("{0}")]
    Store(#[from] StoreError),
    /// The data folder may be read by others than its owner.
    #[error(
        "the data folder {} may be read or entered by others than you (permissions {mode:03o} \
         for its group and everyone): it holds every match's letters, the racks too. Make it \
         yours alone with `chmod 700 {}`, or name another folder with --data",
        folder.display(),
        folder.display()
    )]
    OpenDataFolder {
        /// The folder.
        folder: PathBuf,
        /// The bits of its mode that let others in.
        mode: u32,
    },
    /// The folder could not be made, the address not bound.
    #[error("{what}: {source}")]
    Io {
        /// What was being done.
        what: String,
        /// Why it failed.
        source: std::io::Error,
    },
}

/// A match (live, or asleep as its listing) and what wakes its driver.
pub(crate) struct MatchCell {
    /// The match's id.
    pub(crate) id: String,
    /// The match: reached through `Server::live`, which wakes it, or `MatchCell::info`.
    pub(crate) game: parking_lot::Mutex<asleep::Held>,
    pub(crate) wake: tokio::sync::Notify,
    /// Whether a driver task runs for it (`driver::ensure` starts one if not).
    pub(crate) driving: std::sync::atomic::AtomicBool,
}

/// The server's shared state.
pub(crate) struct Server {
    pub(crate) store: Box<dyn Store>,
    pub(crate) matches: RwLock<BTreeMap<String, Arc<MatchCell>>>,
    pub(crate) catalog: Catalog,
    /// The packs it plays, as `GET /api/packs` lists them (made once: the catalog is fixed).
    pub(crate) played: scryptic_protocol::PackList,
    /// The index of the release archives in its `--publish` folders, made again when they
    /// change.
    pub(crate) published: published::Watched,
    pub(crate) lexicon: Arc<Lexicon>,
    pub(crate) options: Options,
    /// The AI seats and clocks thinking at once: one a core, so that a crowd of AIs never
    /// starves the people's actions of the machine.
    pub(crate) thinking: tokio::sync::Semaphore,
    /// Each address's lobby requests.
    pub(crate) lobby_rate: rate::ByAddress,
    /// The packs' archives made for `GET /api/packs/HASH`, each once.
    pub(crate) archives: archives::Archives,
    /// The connections each address holds open.
    pub(crate) connections: Arc<listen::Connections>,
    /// Set when the server stops: every WebSocket closes with a close frame.
    pub(crate) stopping: tokio::sync::watch::Sender<bool>,
    /// When the log last said that an address was limited (once a minute an address).
    pub(crate) limits_logged: rate::Logged,
    /// The tilesets found for matches brought back, by their pack, mode, board and settings.
    pub(crate) tilesets: parking_lot::Mutex<referee::TilesetsFound>,
    /// The shards whose leases this process holds: it serves their matches.
    pub(crate) leases: parking_lot::RwLock<std::collections::BTreeSet<u32>>,
    /// Where clients reach this process, when several share a database (`--public-url`).
    pub(crate) public_url: Option<String>,
}

impl Server {
    pub(crate) fn get(&self, id: &str) -> Option<Arc<MatchCell>> {
        let matches = self.matches.read().unwrap_or_else(|e| e.into_inner());
        matches.get(id).cloned()
    }

    /// Says in the server's log (standard error) that `from` was limited and by what, at most
    /// once a minute for an address, so that a flood does not flood the log too.
    pub(crate) fn limited(&self, from: std::net::IpAddr, what: &str) {
        if self.limits_logged.first_in_a_while(from) {
            eprintln!("limited {from}: {what} (the next a minute from now are not logged)");
        }
    }
}

/// A server started and listening.
pub struct Started {
    /// Where it listens.
    pub addr: SocketAddr,
    /// Matches kept in its database and served (listed at once, each brought back from its
    /// log when someone or its clock needs it).
    pub restored: usize,
    /// Matches of the log that could not be replayed, each with why.
    pub unrestored: Vec<String>,
    /// The packs its index publishes (`GET /index.json`), and the archives left out of it,
    /// each with why.
    pub published: usize,
    /// The archives of its `--publish` folders left out of its index, each with why.
    pub unpublished: Vec<String>,
    runtime: tokio::runtime::Runtime,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    served: Option<tokio::task::JoinHandle<std::io::Result<()>>>,
    server: Arc<Server>,
}

impl Started {
    /// How many of its matches are in memory now (the others asleep, as their listings).
    pub fn matches_in_memory(&self) -> usize {
        let matches = self
            .server
            .matches
            .read()
            .unwrap_or_else(|e| e.into_inner());
        matches.values().filter(|cell| cell.is_live()).count()
    }

    /// Serves until Ctrl-C (or the process is ended), then stops as [`Started::stop`] does.
    pub fn run_until_interrupted(self) -> Result<(), ServeError> {
        self.runtime.block_on(async move {
            let _ = tokio::signal::ctrl_c().await;
        });
        self.stop();
        Ok(())
    }

    /// Stops: no new connection is taken, every WebSocket is closed with a close frame that
    /// says the server is stopping, and the requests under way are let finish (a few seconds
    /// at most).
    pub fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(served) = self.served.take() {
            let _ = self.runtime.block_on(served);
        }
    }
}

impl Drop for Started {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

/// Opens the database in `options.data`, replays every match in it, and listens on
/// `options.bind` on threads of its own; the server runs until the [`Started`] is dropped.
pub fn start(options: Options) -> Result<Started, ServeError> {
    private_data_folder(&options.data)?;
    let store = SqliteStore::open(&options.data.join("matches.sqlite"))?;
    start_with(options, Box::new(store))
}

/// Makes the data folder, its owner's alone, or refuses one that others may read: it holds
/// every match's racks (the database) and nobody but the server may read them.
fn private_data_folder(data: &std::path::Path) -> Result<(), ServeError> {
    let io = |what: &str| {
        let what = format!("{what} {}", data.display());
        move |source| ServeError::Io { what, source }
    };
    if data.exists() {
        let open = scryptic_core::fsutil::open_to_others(data)
            .map_err(io("cannot read the permissions of the data folder"))?;
        if open != 0 {
            return Err(ServeError::OpenDataFolder {
                folder: data.to_path_buf(),
                mode: open,
            });
        }
        Ok(())
    } else {
        scryptic_core::fsutil::create_private_dir(data).map_err(io("cannot make the data folder"))
    }
}

/// As [`start`], with matches kept in `store`.
pub fn start_with(options: Options, store: Box<dyn Store>) -> Result<Started, ServeError> {
    memory::give_back_freed();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name("scryptic-serve")
        .build()
        .map_err(|source| ServeError::Io {
            what: "cannot start the server's threads".to_string(),
            source,
        })?;
    let (mut catalog, _problems) = Catalog::discover();
    for folder in &options.packs {
        let (packs, _) = Pack::scan(folder);
        for pack in packs {
            let _ = catalog.add(pack);
        }
    }
    let published = published::Watched::of(&options.publish);
    let lexicon = Arc::new(Lexicon::english());
    let mut tilesets = referee::TilesetsFound::new();
    // This process serves its shard's matches while it holds the shard's lease (the database's:
    // one process's own database always gives it; a shared one gives it unless another
    // process took it over while this one was away, and then this one takes the next free).
    let mut held = std::collections::BTreeSet::new();
    if store.try_lease(options.shard.0)? {
        held.insert(options.shard.0);
    }
    let found = (&catalog, &mut tilesets);
    let (matches, unrestored) = shards::load(&*store, &held, &options, &lexicon, found)?;
    let restored = matches.len();
    let (published_count, unpublished) = published.counts();
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind(options.bind))
        .map_err(|source| ServeError::Io {
            what: format!("cannot listen on {}", options.bind),
            source,
        })?;
    let addr = listener.local_addr().map_err(|source| ServeError::Io {
        what: "cannot tell the address listened on".to_string(),
        source,
    })?;
    let public_url = shards::public_url(&options, addr);
    if let Some(url) = &public_url {
        for shard in &held {
            store.set_server(*shard, url)?;
        }
    }
    let server = Arc::new(Server {
        leases: parking_lot::RwLock::new(held),
        public_url,
        store,
        matches: RwLock::new(matches),
        played: packs_played::list(&catalog),
        catalog,
        published,
        lexicon,
        options: options.clone(),
        lobby_rate: rate::ByAddress::new(options.lobby_rate.0, options.lobby_rate.1),
        archives: archives::Archives::default(),
        thinking: tokio::sync::Semaphore::new(
            std::thread::available_parallelism().map_or(1, std::num::NonZero::get),
        ),
        connections: Arc::default(),
        stopping: tokio::sync::watch::channel(false).0,
        limits_logged: rate::Logged::default(),
        tilesets: parking_lot::Mutex::new(tilesets),
    });
    {
        let _inside = runtime.enter();
        let cells: Vec<Arc<MatchCell>> = server
            .matches
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .values()
            .cloned()
            .collect();
        // A match asleep needs its driver only if its clock will come.
        for cell in cells.into_iter().filter(|c| c.needs_driver()) {
            driver::ensure(server.clone(), cell);
        }
        if options.shard.1 > 1 {
            tokio::spawn(shards::take_over(server.clone()));
        }
    }
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let app = lobby::router(server.clone());
    let served = runtime.spawn(listen::serve(listener, app, server.clone(), stopped));
    Ok(Started {
        addr,
        restored,
        unrestored,
        published: published_count,
        unpublished,
        runtime,
        stop: Some(stop),
        served: Some(served),
        server,
    })
}

/// Match `id` of the database in `data`, replayed, as a save file's text (`replay` reads it).
pub fn export(data: &std::path::Path, id: &str) -> Result<String, String> {
    let path = data.join("matches.sqlite");
    if !path.is_file() {
        return Err(format!(
            "no matches in {}: no {} there",
            data.display(),
            path.display()
        ));
    }
    let store = SqliteStore::open(&path).map_err(|e| e.to_string())?;
    export_from(&store, id)
}

/// Match `id` of `store`, replayed, as a save file's text.
pub fn export_from(store: &dyn Store, id: &str) -> Result<String, String> {
    let Some(kept) = store.load(id).map_err(|e| e.to_string())? else {
        return Err(format!("no match {id} in the database"));
    };
    let restored = Match::restore(kept, Arc::new(Lexicon::english()))
        .map_err(|e| format!("match {id}: {e}"))?;
    Ok(restored.save_text())
}

/// Match `id` of `store` replayed and served with `options` (its tileset found in `catalog`).
fn restore(
    store: &dyn Store,
    id: &str,
    lexicon: &Arc<Lexicon>,
    options: &Options,
    (catalog, tilesets): (&Catalog, &mut referee::TilesetsFound),
) -> Result<Match, String> {
    let kept = store
        .load(id)
        .map_err(|e| e.to_string())?
        .ok_or_else(|| "it is no longer in the database".to_string())?;
    let mut restored = Match::restore(kept, lexicon.clone())?;
    restored.find_tileset(catalog, tilesets);
    restored.served_with(options);
    Ok(restored)
}
