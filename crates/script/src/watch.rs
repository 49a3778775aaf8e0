//! Watching script and rule files for changes (notify, debounced). Directories are watched, not
//! files, because editors save atomically: the file is replaced by a new one, which a watch on
//! the old file would never see. A file is reported only when what it holds changed: the
//! system also reports a file opened or read (by the watcher's own user reloading it, say),
//! and a reload that answered its own reading would never stop.

use notify_debouncer_mini::notify::{RecommendedWatcher, RecursiveMode};
use notify_debouncer_mini::{DebounceEventResult, Debouncer, new_debouncer};
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// How long the watcher waits for a burst of writes to settle before reporting a change.
pub const DEBOUNCE: Duration = Duration::from_millis(50);

/// Reports changes to a set of files.
pub struct Watcher {
    _debouncer: Debouncer<RecommendedWatcher>,
    events: Receiver<DebounceEventResult>,
    files: BTreeSet<PathBuf>,
    /// What each file held when last reported (a hash; `None` when it could not be read).
    seen: std::sync::Mutex<HashMap<PathBuf, Option<u64>>>,
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

    /// Watches `files`, calling `wake` from the watcher's thread whenever something in their
    /// folders changed: a window that sleeps until it has something to do is woken to look.
    pub fn waking(
        files: &[PathBuf],
        wake: impl Fn() + Send + 'static,
    ) -> Result<Watcher, WatchError> {
        let (sender, events) = channel();
        let handler = move |batch: DebounceEventResult| {
            // A closed channel means the watcher is being dropped: nobody to wake.
            if sender.send(batch).is_ok() {
                wake();
            }
        };
        let mut debouncer = new_debouncer(DEBOUNCE, handler).map_err(|source| WatchError {
            folder: None,
            source,
        })?;
        let files: BTreeSet<PathBuf> = files.iter().map(|f| absolute(f)).collect();
        let folders: BTreeSet<PathBuf> = files
            .iter()
            .filter_map(|f| f.parent().map(Path::to_path_buf))
            .collect();
        for folder in &folders {
            debouncer
                .watcher()
                .watch(folder, RecursiveMode::NonRecursive)
                .map_err(|source| WatchError {
                    folder: Some(folder.clone()),
                    source,
                })?;
        }
        let seen = files.iter().map(|f| (f.clone(), content_hash(f))).collect();
        Ok(Watcher {
            _debouncer: debouncer,
            events,
            files,
            seen: std::sync::Mutex::new(seen),
        })
    }

    /// The watched files that changed since the last call (without waiting).
    pub fn changed(&self) -> Vec<PathBuf> {
        let mut changed = BTreeSet::new();
        while let Ok(batch) = self.events.try_recv() {
            self.collect(batch, &mut changed);
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
                Ok(batch) => self.collect(batch, &mut changed),
                Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => break,
            }
        }
        changed.extend(self.changed());
        changed.into_iter().collect()
    }

    fn collect(&self, batch: DebounceEventResult, changed: &mut BTreeSet<PathBuf>) {
        if let Ok(events) = batch {
            for event in events {
                let path = absolute(&event.path);
                if self.files.contains(&path) && self.content_changed(&path) {
                    changed.insert(path);
                }
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
