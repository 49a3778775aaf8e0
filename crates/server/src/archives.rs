//! The archives of the packs the server plays, each made once: every browser and editor that
//! draws a match's board fetches the match's pack by its hash (`GET /api/packs/HASH`), and
//! zipping the pack for each of them was most of what a browser seat cost the server beyond
//! its connection. An archive is named by the hash of its files, so one kept is never stale: a
//! pack changed on disk has another hash. Kept up to a bound in bytes, the oldest let go first.

use std::sync::{Arc, Mutex};

/// The most bytes of archives kept.
const MAX_KEPT_BYTES: usize = 64 * 1024 * 1024;

/// A pack's archive: its file name and bytes.
pub(crate) struct Archive {
    /// `ID-VERSION.zip`.
    pub(crate) name: String,
    /// The zip (shared by every answer that sends it).
    pub(crate) bytes: axum::body::Bytes,
}

/// The archives made, by hash, oldest first.
#[derive(Default)]
pub(crate) struct Archives {
    kept: Mutex<Vec<(String, Arc<Archive>)>>,
}

impl Archives {
    /// The archive of the pack whose files hash to `hash` (lowercase): the one kept, or the
    /// one `make` makes, then kept.
    pub(crate) fn get_or_make<E>(
        &self,
        hash: &str,
        make: impl FnOnce() -> Result<Archive, E>,
    ) -> Result<Arc<Archive>, E> {
        if let Some(kept) = self.find(hash) {
            return Ok(kept);
        }
        // Made outside the lock: two requests at once may both make it; the first kept wins.
        let made = Arc::new(make()?);
        let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, already)) = kept.iter().find(|(h, _)| h == hash) {
            return Ok(already.clone());
        }
        kept.push((hash.to_string(), made.clone()));
        let mut total: usize = kept.iter().map(|(_, a)| a.bytes.len()).sum();
        while total > MAX_KEPT_BYTES && kept.len() > 1 {
            total -= kept.remove(0).1.bytes.len();
        }
        Ok(made)
    }

    fn find(&self, hash: &str) -> Option<Arc<Archive>> {
        let kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        kept.iter().find(|(h, _)| h == hash).map(|(_, a)| a.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn archive(size: usize) -> Archive {
        Archive {
            name: "p-1.0.0.zip".into(),
            bytes: vec![0; size].into(),
        }
    }

    #[test]
    fn an_archive_is_made_once_and_the_oldest_go_past_the_bound() {
        let archives = Archives::default();
        let mut made = 0;
        for _ in 0..3 {
            let got: Result<_, ()> = archives.get_or_make("a", || {
                made += 1;
                Ok(archive(10))
            });
            assert_eq!(got.unwrap().bytes.len(), 10);
        }
        assert_eq!(made, 1, "made once, then kept");
        let failed: Result<_, &str> = archives.get_or_make("b", || Err("no such pack"));
        assert!(
            failed.is_err() && archives.find("b").is_none(),
            "a failure is not kept"
        );
        let big = MAX_KEPT_BYTES / 2 + 1;
        let _: Result<_, ()> = archives.get_or_make("c", || Ok(archive(big)));
        let _: Result<_, ()> = archives.get_or_make("d", || Ok(archive(big)));
        assert!(
            archives.find("a").is_none() && archives.find("c").is_none(),
            "the oldest let go"
        );
        assert!(archives.find("d").is_some(), "the newest kept");
    }
}
