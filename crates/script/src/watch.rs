//! Watching script and rule files for changes (notify). Directories are watched, not files,
//! because editors save atomically: the file is replaced by a new one, which a watch on the old
//! file would never see. A file is reported only when what it holds changed, and only events
//! that can change a file wake anybody: the system also reports a file opened or read, and a
//! window woken by its own reading of a script would read it again, and again.
//!
//! The burst of events a save makes is gathered here (`DEBOUNCE`) rather than by a debouncer
//! crate: notify-debouncer-mini drops each event's kind, which tells a read from a write, and
//! notify-debouncer-full wakes its thread 80 times a second for as long as it watches (the
//! editor never rested on a map with a script). Here the thread sleeps until a change comes.

use notify::event::{AccessKind, AccessMode, EventKind};
use notify::{RecommendedWatcher, RecursiveMode, Watcher as _};
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::time::{Duration, Instant};

/// How long the watcher waits for a burst of writes to settle before reporting a change.
pub const DEBOUNCE: Duration = Duration::from_millis(50);

/// The longest a burst is gathered: a file written without pause is reported this often.
const LONGEST_BURST: Duration = Duration::from_millis(500);

/// Reports changes to a set of files.
pub struct Watcher {
    _watcher: RecommendedWatcher,
    /// The watched files each burst of events may have changed.
    events: Receiver<Vec<PathBuf>>,
    /// What each file held when last reported (a hash; `None` when it could not be read).
    seen: std::sync::Mutex<HashMap<PathBuf, Option<u64>>>,
    /// How many of the system's events in the watched folders have been dealt with.
    handled: Arc<AtomicU64>,
}

/// A hash of what `path` holds, or `None` if it cannot be read.
pub(crate) fn content_hash(path: &Path) -> Option<u64> {
    use std::hash::{Hash, Hasher};
    let bytes = crate::fsutil::read_bytes_at_most(path, crate::fsutil::MAX_TEXT_FILE_BYTES).ok()?;
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    bytes.hash(&mut hasher);
    Some(hasher.finish())
}

fn absolute(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| {
        std::env::current_dir()
            .map(|d| d.join(path))
            .unwrap_or_else(|_| path.to_path_buf())
    })
}

/// Whether an event of `kind` can have changed what a file holds: a file opened, read or
/// closed unwritten (the watcher's owner reading it, say) cannot.
fn may_change_content(kind: &EventKind) -> bool {
    match kind {
        EventKind::Access(AccessKind::Close(AccessMode::Write)) => true,
        EventKind::Access(_) => false,
        _ => true,
    }
}

/// The watched files among `event`'s paths, if it may have changed them.
fn touched(event: &notify::Result<notify::Event>, files: &BTreeSet<PathBuf>) -> Vec<PathBuf> {
    let Ok(event) = event else {
        return Vec::new();
    };
    if !may_change_content(&event.kind) {
        return Vec::new();
    }
    let touched: BTreeSet<PathBuf> = event
        .paths
        .iter()
        .map(|p| absolute(p))
        .filter(|p| files.contains(p))
        .collect();
    touched.into_iter().collect()
}

/// Gathers each burst of changes from `changes` (waiting for the first without a timeout, so
/// that nothing runs at rest), sends the files it touched to `out` and calls `wake`; counts
/// the events it dealt with in `handled`. Ends when the watcher is dropped.
fn gather_bursts(
    changes: Receiver<Vec<PathBuf>>,
    out: Sender<Vec<PathBuf>>,
    wake: impl Fn(),
    handled: Arc<AtomicU64>,
) {
    while let Ok(first) = changes.recv() {
        let mut burst: BTreeSet<PathBuf> = first.into_iter().collect();
        let mut count = 1;
        let until = Instant::now() + LONGEST_BURST;
        loop {
            let left = until
                .saturating_duration_since(Instant::now())
                .min(DEBOUNCE);
            if left.is_zero() {
                break;
            }
            match changes.recv_timeout(left) {
                Ok(more) => {
                    burst.extend(more);
                    count += 1;
                }
                Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => break,
            }
        }
        let sent = out.send(burst.into_iter().collect()).is_ok();
        if sent {
            wake();
        }
        handled.fetch_add(count, Ordering::SeqCst);
        if !sent {
            return;
        }
    }
}

/// Why files cannot be watched (the game then plays unwatched).
#[derive(Debug, thiserror::Error)]
#[error("cannot watch {}: {source}", folder.as_ref().map_or("files".to_string(), |f| f.display().to_string()))]
pub struct WatchError {
    /// The folder that could not be watched (`None`: the watcher could not start).
    pub folder: Option<PathBuf>,
    /// The system's reason.
    pub source: notify::Error,
}

impl Watcher {
    /// Watches `files` (through their folders).
    pub fn new(files: &[PathBuf]) -> Result<Watcher, WatchError> {
        Watcher::waking(files, || {})
    }

    /// Watches `files`, calling `wake` from the watcher's thread whenever one of them may have
    /// changed: a window that sleeps until it has something to do is woken to look. Reading a
    /// watched file wakes nobody.
    pub fn waking(
        files: &[PathBuf],
        wake: impl Fn() + Send + 'static,
    ) -> Result<Watcher, WatchError> {
        let files: BTreeSet<PathBuf> = files.iter().map(|f| absolute(f)).collect();
        let folders: BTreeSet<PathBuf> = files
            .iter()
            .filter_map(|f| f.parent().map(Path::to_path_buf))
            .collect();
        let seen = files.iter().map(|f| (f.clone(), content_hash(f))).collect();
        let handled = Arc::new(AtomicU64::new(0));
        let (changes, gathered) = channel();
        let counted = Arc::clone(&handled);
        let handler = move |event: notify::Result<notify::Event>| {
            let touched = touched(&event, &files);
            // An event that changes nothing watched is dealt with here; a change, once its
            // burst is reported.
            if touched.is_empty() || changes.send(touched).is_err() {
                counted.fetch_add(1, Ordering::SeqCst);
            }
        };
        let mut watcher = notify::recommended_watcher(handler).map_err(|source| WatchError {
            folder: None,
            source,
        })?;
        for folder in &folders {
            watcher
                .watch(folder, RecursiveMode::NonRecursive)
                .map_err(|source| WatchError {
                    folder: Some(folder.clone()),
                    source,
                })?;
        }
        let (out, events) = channel();
        let counted = Arc::clone(&handled);
        std::thread::Builder::new()
            .name("scryptic watcher".into())
            .spawn(move || gather_bursts(gathered, out, wake, counted))
            .map_err(|e| WatchError {
                folder: None,
                source: notify::Error::io(e),
            })?;
        Ok(Watcher {
            _watcher: watcher,
            events,
            seen: std::sync::Mutex::new(seen),
            handled,
        })
    }

    /// How many of the system's events in the watched folders have been dealt with so far:
    /// dropped (a file opened or read, another file) or reported (a watched file changed).
    pub fn events_handled(&self) -> u64 {
        self.handled.load(Ordering::SeqCst)
    }

    /// The watched files that changed since the last call (without waiting).
    pub fn changed(&self) -> Vec<PathBuf> {
        let mut changed = BTreeSet::new();
        while let Ok(touched) = self.events.try_recv() {
            self.collect(touched, &mut changed);
        }
        changed.into_iter().collect()
    }

    /// The watched files that change within `timeout` (waiting for the first change).
    pub fn wait(&self, timeout: Duration) -> Vec<PathBuf> {
        let deadline = Instant::now() + timeout;
        let mut changed = BTreeSet::new();
        while changed.is_empty() {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.events.recv_timeout(left) {
                Ok(touched) => self.collect(touched, &mut changed),
                Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => break,
            }
        }
        changed.extend(self.changed());
        changed.into_iter().collect()
    }

    fn collect(&self, touched: Vec<PathBuf>, changed: &mut BTreeSet<PathBuf>) {
        for path in touched {
            if self.content_changed(&path) {
                changed.insert(path);
            }
        }
    }

    /// Whether `path` holds something else than when last reported (and remembers it).
    fn content_changed(&self, path: &Path) -> bool {
        let now = content_hash(path);
        let mut seen = match self.seen.lock() {
            Ok(seen) => seen,
            Err(poisoned) => poisoned.into_inner(),
        };
        seen.insert(path.to_path_buf(), now) != Some(now)
    }
}
