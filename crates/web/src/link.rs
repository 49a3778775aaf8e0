//! The match a page's address names: `http://HOST:PORT/matches/ID` (the address `scryptic join`
//! takes), with `?watch` to open it as a spectator, `?replay` to step through its log once it
//! is over, or `?seat=gold&name=Ada` to take that seat at once (the site's Host form sends its
//! host there).

/// A match's link, read from the page's address.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchLink {
    /// The server: the page's origin (`http://HOST:PORT`).
    pub base: String,
    /// The match's id.
    pub match_id: String,
    /// Opened to watch (`?watch`), not to play.
    pub watch: bool,
    /// Opened to step through the finished match's log (`?replay`).
    pub replay: bool,
    /// The seat to take at once (`?seat=gold`), unless this browser keeps one.
    pub seat: Option<String>,
    /// The name to take it under (`&name=Ada`).
    pub name: Option<String>,
}

impl MatchLink {
    /// The link of a page at `origin` whose path is `path` and query `query` (with or
    /// without its `?`).
    pub fn read(origin: &str, path: &str, query: &str) -> Result<MatchLink, String> {
        let id = path
            .trim_end_matches('/')
            .strip_prefix("/matches/")
            .filter(|id| !id.is_empty() && !id.contains('/'))
            .ok_or_else(|| {
                format!("{origin}{path} names no match: a match's link is {origin}/matches/ID")
            })?;
        let pairs: Vec<(String, String)> = query
            .trim_start_matches('?')
            .split('&')
            .filter(|pair| !pair.is_empty())
            .map(|pair| {
                let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
                (unescape(key), unescape(value))
            })
            .collect();
        let value = |key: &str| {
            (pairs.iter())
                .find(|(k, v)| k == key && !v.trim().is_empty())
                .map(|(_, v)| v.trim().to_string())
        };
        Ok(MatchLink {
            base: origin.trim_end_matches('/').to_string(),
            match_id: id.to_string(),
            watch: pairs.iter().any(|(k, _)| k == "watch"),
            replay: pairs.iter().any(|(k, _)| k == "replay"),
            seat: value("seat"),
            name: value("name"),
        })
    }

    /// The link itself, to share (`http://HOST:PORT/matches/ID`).
    pub fn address(&self) -> String {
        format!("{}/matches/{}", self.base, self.match_id)
    }
}

/// A query's part with its `%XX` escapes and `+` (a space) read; a broken escape is kept as is.
fn unescape(text: &str) -> String {
    let spaced = text.replace('+', " ");
    percent_encoding::percent_decode_str(&spaced)
        .decode_utf8_lossy()
        .into_owned()
}

#[cfg(test)]
mod tests {
    use super::MatchLink;

    fn check(path: &str, query: &str, expected: Result<(&str, bool), &str>) {
        let read = MatchLink::read("http://h:7878", path, query);
        match expected {
            Ok((id, watch)) => {
                let link = read.unwrap_or_else(|e| panic!("{path}{query}: {e}"));
                assert_eq!(
                    (link.match_id.as_str(), link.watch),
                    (id, watch),
                    "{path}{query}"
                );
                assert_eq!(link.address(), format!("http://h:7878/matches/{id}"));
            }
            Err(said) => {
                let e = read.expect_err(path);
                assert!(e.contains(said), "{path}: {e}");
            }
        }
    }

    #[test]
    fn a_page_address_names_its_match() {
        check("/matches/ab12", "", Ok(("ab12", false)));
        check("/matches/ab12/", "", Ok(("ab12", false)));
        check("/matches/ab12", "?watch", Ok(("ab12", true)));
        check("/matches/ab12", "x=1&watch=1", Ok(("ab12", true)));
        check("/matches/ab12", "?watcher", Ok(("ab12", false)));
        assert!(
            MatchLink::read("http://h", "/matches/m", "?replay")
                .unwrap()
                .replay
        );
        check("/", "", Err("names no match"));
        check("/matches/", "", Err("http://h:7878/matches/ID"));
        check("/matches/a/b", "", Err("names no match"));
    }

    #[test]
    fn a_link_may_name_a_seat_and_a_name() {
        let link =
            MatchLink::read("http://h", "/matches/m", "?seat=gold&name=Ada+L%C3%B6w").unwrap();
        assert_eq!(link.seat.as_deref(), Some("gold"));
        assert_eq!(link.name.as_deref(), Some("Ada Löw"));
        let link = MatchLink::read("http://h", "/matches/m", "seat=&name=%zz").unwrap();
        assert_eq!((link.seat, link.name.as_deref()), (None, Some("%zz")));
    }
}
