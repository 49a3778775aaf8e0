//! Watching script and rule files for changes (notify, debounced). Directories are watched, not
//! files, because editors save atomically: the file is replaced by a new one, which a watch on
//! the old file would never see. A file is reported only when what it holds changed, and only
//! events that can change a file wake anybody: the system also reports a file opened or read,
//! and a window woken by its own reading of a script would read it again, and again.

use notify::event::{AccessKind, AccessMode, EventKind};
use notify_debouncer_full::notify::{RecommendedWatcher, RecursiveMode};
use notify_debouncer_full::{DebounceEventResult, Debouncer, RecommendedCache, new_debouncer};
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// How long the watcher waits for a burst of writes to settle before reporting a change.
pub const DEBOUNCE: Duration = Duration::from_millis(50);

/// Reports changes to a set of files.
pub struct Watcher {
    _debouncer: Debouncer<RecommendedWatcher, RecommendedCache>,
    /// The watched files each batch of events may have changed.
    events: Receiver<Vec<PathBuf>>,
    /// What each file held when last reported (a hash; `None` when it could not be read).
    seen: std::sync::Mutex<HashMap<PathBuf, Option<u64>>>,
    /// How many batches of events the system reported in the watched folders.
    batches: Arc<AtomicU64>,
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

/// The watched files among `batch`'s events that may have changed.
fn touched(batch: DebounceEventResult, files: &BTreeSet<PathBuf>) -> Vec<PathBuf> {
    let Ok(events) = batch else {
        return Vec::new();
    };
    let mut touched = BTreeSet::new();
    for event in events {
        if !may_change_content(&event.event.kind) {
            continue;
        }
        for path in &event.event.paths {
            let path = absolute(path);
            if files.contains(&path) {
                touched.insert(path);
            }
        }
    }
    touched.into_iter().collect()
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
        let (sender, events) = channel();
        let batches = Arc::new(AtomicU64::new(0));
        let counted = Arc::clone(&batches);
        let handler = move |batch: DebounceEventResult| {
            let touched = touched(batch, &files);
            // A closed channel means the watcher is being dropped: nobody to wake.
            if !touched.is_empty() && sender.send(touched).is_ok() {
                wake();
            }
            counted.fetch_add(1, Ordering::SeqCst);
        };
        let mut debouncer =
            new_debouncer(DEBOUNCE, None, handler).map_err(|source| WatchError {
                folder: None,
                source,
            })?;
        for folder in &folders {
            debouncer
                .watch(folder, RecursiveMode::NonRecursive)
                .map_err(|source| WatchError {
                    folder: Some(folder.clone()),
                    source,
                })?;
        }
        Ok(Watcher {
            _debouncer: debouncer,
            events,
            seen: std::sync::Mutex::new(seen),
            batches,
        })
    }

    /// How many batches of file events the system has reported in the watched folders so far,
    /// whether or not they woke anybody (events that only read a file wake nobody).
    pub fn batches_seen(&self) -> u64 {
        self.batches.load(Ordering::SeqCst)
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
