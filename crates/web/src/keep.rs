//! What the browser keeps between visits: each match's seat and its token (the only key to
//! the seat: closing the tab and opening the link again comes back to it), and the name last
//! typed. In the browser that is the page's local storage (its origin's, so one server's
//! seats are never shown to another); natively (tests) a map in memory.

use std::collections::HashMap;

/// A place for short texts by key.
pub trait Keep {
    /// The text kept at `key`.
    fn get(&self, key: &str) -> Option<String>;
    /// Keeps `value` at `key` (a browser that refuses, private mode full, keeps nothing: the
    /// seat is still played, it cannot be come back to).
    fn set(&mut self, key: &str, value: &str);
    /// Forgets `key`.
    fn remove(&mut self, key: &str);
}

/// A seat kept for a match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeptSeat {
    /// The seat's name (`gold`).
    pub seat: String,
    /// Its token.
    pub token: String,
}

const NAME_KEY: &str = "scryptic.name";

fn seat_key(match_id: &str) -> String {
    format!("scryptic.seat.{match_id}")
}

/// The seat kept for match `match_id`, if any.
pub fn kept_seat(keep: &dyn Keep, match_id: &str) -> Option<KeptSeat> {
    let text = keep.get(&seat_key(match_id))?;
    let (seat, token) = text.split_once('\n')?;
    (!seat.is_empty() && !token.is_empty()).then(|| KeptSeat {
        seat: seat.to_string(),
        token: token.to_string(),
    })
}

/// Keeps `seat` for match `match_id`.
pub fn keep_seat(keep: &mut dyn Keep, match_id: &str, seat: &KeptSeat) {
    keep.set(
        &seat_key(match_id),
        &format!("{}\n{}", seat.seat, seat.token),
    );
}

/// Forgets the seat kept for match `match_id` (given up, or refused by the server).
pub fn forget_seat(keep: &mut dyn Keep, match_id: &str) {
    keep.remove(&seat_key(match_id));
}

/// The name last typed.
pub fn kept_name(keep: &dyn Keep) -> String {
    keep.get(NAME_KEY).unwrap_or_default()
}

/// Keeps the name typed.
pub fn keep_name(keep: &mut dyn Keep, name: &str) {
    keep.set(NAME_KEY, name);
}

/// Texts kept in memory: gone with the program (natively, where nothing outlives a test).
#[derive(Default)]
pub struct Memory(HashMap<String, String>);

impl Keep for Memory {
    fn get(&self, key: &str) -> Option<String> {
        self.0.get(key).cloned()
    }

    fn set(&mut self, key: &str, value: &str) {
        self.0.insert(key.to_string(), value.to_string());
    }

    fn remove(&mut self, key: &str) {
        self.0.remove(key);
    }
}

/// The page's local storage.
#[cfg(target_arch = "wasm32")]
pub struct LocalStorage(Option<web_sys::Storage>);

#[cfg(target_arch = "wasm32")]
impl LocalStorage {
    /// The page's storage (none where the browser gives none: nothing is then kept).
    pub fn open() -> LocalStorage {
        LocalStorage(web_sys::window().and_then(|w| w.local_storage().ok().flatten()))
    }
}

#[cfg(target_arch = "wasm32")]
impl Keep for LocalStorage {
    fn get(&self, key: &str) -> Option<String> {
        self.0.as_ref()?.get_item(key).ok().flatten()
    }

    fn set(&mut self, key: &str, value: &str) {
        if let Some(storage) = &self.0 {
            let _ = storage.set_item(key, value);
        }
    }

    fn remove(&mut self, key: &str) {
        if let Some(storage) = &self.0 {
            let _ = storage.remove_item(key);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seat_is_kept_per_match_and_forgotten() {
        let mut keep = Memory::default();
        let gold = KeptSeat {
            seat: "gold".into(),
            token: "00ff".into(),
        };
        keep_seat(&mut keep, "m1", &gold);
        assert_eq!(kept_seat(&keep, "m1"), Some(gold));
        assert_eq!(kept_seat(&keep, "m2"), None);
        forget_seat(&mut keep, "m1");
        assert_eq!(kept_seat(&keep, "m1"), None);
        keep.set("scryptic.seat.m3", "no token here");
        assert_eq!(kept_seat(&keep, "m3"), None, "a damaged entry is no seat");
        keep_name(&mut keep, "ada");
        assert_eq!(kept_name(&keep), "ada");
    }
}
