//! Matches asleep: a match nobody is connected to and nothing needs for a while (no AI seat to
//! act, no clock about to run out) leaves memory, keeping only its listing (what the lobby
//! shows, and when its clock next needs it); it is brought back from its log when someone
//! comes or its clock runs out. A restarted server starts with every match asleep, so that it
//! listens at once however many matches and however long their logs.

use crate::referee::Match;
use crate::store::Listing;
use crate::{MatchCell, Server, driver};
use parking_lot::{MappedMutexGuard, Mutex, MutexGuard};
use scryptic_protocol::{MatchInfo, Occupant};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// A match in memory, or asleep as its listing.
pub(crate) enum Held {
    /// Its game, connections and clocks.
    Live(Box<Match>),
    /// Only what the lobby lists of it.
    Asleep(Box<Listing>),
}

impl MatchCell {
    /// A cell holding `game`, live.
    pub(crate) fn live(id: String, game: Match) -> MatchCell {
        MatchCell::holding(id, Held::Live(Box::new(game)))
    }

    /// A cell holding a match asleep.
    pub(crate) fn asleep(listing: Listing) -> MatchCell {
        MatchCell::holding(listing.info.id.clone(), Held::Asleep(Box::new(listing)))
    }

    fn holding(id: String, held: Held) -> MatchCell {
        MatchCell {
            id,
            game: Mutex::new(held),
            wake: tokio::sync::Notify::new(),
            driving: AtomicBool::new(false),
        }
    }

    /// What the lobby lists of the match, without waking it.
    pub(crate) fn info(&self) -> MatchInfo {
        match &*self.game.lock() {
            Held::Live(game) => game.info(),
            Held::Asleep(listing) => listing.info.clone(),
        }
    }

    /// Whether it needs a driver: live, or asleep until its clock comes.
    pub(crate) fn needs_driver(&self) -> bool {
        match &*self.game.lock() {
            Held::Live(_) => true,
            Held::Asleep(listing) => listing.wake_at_ms.is_some(),
        }
    }

    /// Whether its game is in memory.
    pub(crate) fn is_live(&self) -> bool {
        matches!(&*self.game.lock(), Held::Live(_))
    }
}

/// Makes `listing` say nobody is connected (a listing written before a process was killed may
/// say someone was): whether it said so.
pub(crate) fn nobody_connected(listing: &mut Listing) -> bool {
    let mut changed = false;
    for seat in &mut listing.info.seats {
        if let Occupant::Person { connected, .. } = &mut seat.occupant {
            changed |= std::mem::replace(connected, false);
        }
    }
    changed
}

impl Server {
    /// The match of `cell`, brought back from its log if it was asleep (its driver started
    /// again); or why it cannot be.
    pub(crate) fn live<'a>(
        self: &Arc<Server>,
        cell: &'a Arc<MatchCell>,
    ) -> Result<MappedMutexGuard<'a, Match>, String> {
        let mut held = cell.game.lock();
        if matches!(&*held, Held::Asleep(_)) {
            let woken = self.wake(&cell.id)?;
            *held = Held::Live(Box::new(woken));
            driver::ensure(self.clone(), cell.clone());
        }
        MutexGuard::try_map(held, |held| match held {
            Held::Live(game) => Some(&mut **game),
            Held::Asleep(_) => None,
        })
        .map_err(|_| format!("match {} could not be brought back", cell.id))
    }

    /// Match `id` replayed from its log.
    fn wake(&self, id: &str) -> Result<Match, String> {
        let mut tilesets = self.tilesets.lock();
        let found = (&self.catalog, &mut *tilesets);
        crate::restore(&*self.store, id, &self.lexicon, &self.options, found)
            .map_err(|why| format!("match {id} cannot be brought back: {why}"))
    }

    /// Puts `cell`'s match to sleep if it has been quiet long enough (nobody connected,
    /// nothing due): its listing written, its game dropped. Whether it is asleep.
    pub(crate) fn put_to_sleep(&self, cell: &MatchCell) -> bool {
        let mut held = cell.game.lock();
        let Held::Live(game) = &*held else {
            return true;
        };
        let now = self.options.clock.now_ms();
        let after = self.options.sleep_after.as_millis() as u64;
        if game.sleeps_at_ms(after).is_none_or(|at| at > now) {
            return false;
        }
        let listing = game.listing();
        // A listing that could not be kept would list the match wrong: it stays awake.
        if self.store.set_listing(&cell.id, &listing).is_err() {
            return false;
        }
        *held = Held::Asleep(Box::new(listing));
        true
    }
}
