//! The match a page's address names: `http://HOST:PORT/matches/ID` (the address `scryptic join`
//! takes), with `?watch` to open it as a spectator.

/// A match's link, read from the page's address.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchLink {
    /// The server: the page's origin (`http://HOST:PORT`).
    pub base: String,
    /// The match's id.
    pub match_id: String,
    /// Opened to watch (`?watch`), not to play.
    pub watch: bool,
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
        let watch = query
            .trim_start_matches('?')
            .split('&')
            .any(|pair| pair == "watch" || pair.starts_with("watch="));
        Ok(MatchLink {
            base: origin.trim_end_matches('/').to_string(),
            match_id: id.to_string(),
            watch,
        })
    }

    /// The link itself, to share (`http://HOST:PORT/matches/ID`).
    pub fn address(&self) -> String {
        format!("{}/matches/{}", self.base, self.match_id)
    }
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
        check("/", "", Err("names no match"));
        check("/matches/", "", Err("http://h:7878/matches/ID"));
        check("/matches/a/b", "", Err("names no match"));
    }
}
