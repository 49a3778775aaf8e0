//! The lexicon's words as graphs for the move generator: the words' graph and GADDAG, and
//! those of the words with given connotations, each made on first use.

use super::{Lexicon, graph};
use fst::{Set, Streamer};
use std::borrow::Cow;

/// The cache behind [`Lexicon::connoted_graph`]. Clones share it until either changes its
/// words or lists, which gives it a cache of its own.
#[derive(Clone, Default)]
pub(super) struct ConnotedGraphs(std::sync::Arc<std::sync::Mutex<Vec<ConnotedGraph>>>);

/// A graph of the words with the connotations of a bitmask of lists: the words' graph, or
/// (`true`) their GADDAG.
type ConnotedGraph = (u64, bool, std::sync::Arc<graph::WordGraph>);

impl Lexicon {
    /// The words as a graph of letters (for the move generator), made on first use; the
    /// shipped words' graph is made once per process.
    pub fn graph(&self) -> &graph::WordGraph {
        static SHIPPED: std::sync::OnceLock<std::sync::Arc<graph::WordGraph>> =
            std::sync::OnceLock::new();
        self.graph.get_or_init(|| {
            let make = || std::sync::Arc::new(graph::WordGraph::from_fst(self.words.as_fst()));
            if matches!(self.words.as_fst().as_inner(), Cow::Borrowed(_)) {
                SHIPPED.get_or_init(make).clone()
            } else {
                make()
            }
        })
    }

    /// The words' GADDAG (see [`graph::WordGraph::gaddag_of`]), for the spy's search, made on
    /// first use (the shipped words': once per process, about a second and 30 MB); `None` for
    /// a word list of more than [`MAX_GADDAG_LETTERS`] letters in all, whose GADDAG would take
    /// too much memory to make (the spy searches the words' graph instead).
    pub fn gaddag(&self) -> Option<&graph::WordGraph> {
        static SHIPPED: std::sync::OnceLock<Option<std::sync::Arc<graph::WordGraph>>> =
            std::sync::OnceLock::new();
        self.gaddag
            .get_or_init(|| {
                let make = || gaddag_of_set(&self.words).map(std::sync::Arc::new);
                if matches!(self.words.as_fst().as_inner(), Cow::Borrowed(_)) {
                    SHIPPED.get_or_init(make).clone()
                } else {
                    make()
                }
            })
            .as_deref()
    }

    /// The graph of [`Lexicon::words_with_connotations`]`(lists)`, made once per lexicon and
    /// set of lists. The spy searches it apart from the whole dictionary, since only these
    /// words can take a connotation's multiplier.
    pub fn connoted_graph(&self, lists: &[&str]) -> std::sync::Arc<graph::WordGraph> {
        self.connoted(lists, false)
    }

    /// The GADDAG of the words with any of the connotations `lists` (see
    /// [`Lexicon::connoted_graph`]), made once per set of lists: for a lexicon whose
    /// [`Lexicon::gaddag`] is made (these words are some of its words).
    pub fn connoted_gaddag(&self, lists: &[&str]) -> std::sync::Arc<graph::WordGraph> {
        self.connoted(lists, true)
    }

    fn connoted(&self, lists: &[&str], gaddag: bool) -> std::sync::Arc<graph::WordGraph> {
        let mask = self.list_mask(lists);
        let mut cache = match self.connoted.0.lock() {
            Ok(cache) => cache,
            Err(poisoned) => poisoned.into_inner(),
        };
        if let Some((_, _, graph)) = cache.iter().find(|(m, g, _)| *m == mask && *g == gaddag) {
            return graph.clone();
        }
        let words = self.words_with_connotations(lists);
        let made = if gaddag {
            graph::WordGraph::gaddag_of(words.iter().map(String::as_bytes))
        } else {
            graph::WordGraph::from_sorted_words(&words)
        };
        let graph = std::sync::Arc::new(
            made.expect("dictionary words, sorted and deduplicated, make a graph"),
        );
        cache.push((mask, gaddag, graph.clone()));
        graph
    }
}

/// The most letters, all words together, whose GADDAG is made: as many keys (one for each
/// letter of each word), which making it holds at once with their fst and table. The shipped
/// words have 2.3 million; at 4 million the making peaks near 200 MB.
pub const MAX_GADDAG_LETTERS: usize = 4_000_000;

/// The GADDAG of a set's words, read straight from the set; `None` past
/// [`MAX_GADDAG_LETTERS`].
fn gaddag_of_set(words: &Set<super::Bytes>) -> Option<graph::WordGraph> {
    let mut letters = 0usize;
    let mut stream = words.stream();
    while let Some(word) = stream.next() {
        letters += word.len();
    }
    gaddag_within(words, letters, MAX_GADDAG_LETTERS)
}

/// The GADDAG of `words` (`letters` in all) if they hold no more than `most` letters.
fn gaddag_within(
    words: &Set<super::Bytes>,
    letters: usize,
    most: usize,
) -> Option<graph::WordGraph> {
    if letters > most {
        return None;
    }
    let mut keys = graph::GaddagKeys::default();
    let mut stream = words.stream();
    while let Some(word) = stream.next() {
        keys.add(word);
    }
    Some(
        keys.finish()
            .expect("keys sorted and deduplicated make a graph"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A word list past the bound gets no GADDAG; one within it gets one.
    #[test]
    fn a_gaddag_is_made_only_within_its_letters() {
        let bytes =
            crate::lexicon::compile::set_bytes(&["at".to_string(), "cat".to_string()]).unwrap();
        let words = Set::new(Cow::Owned(bytes)).unwrap();
        assert!(gaddag_within(&words, 5, 4).is_none());
        let gaddag = gaddag_within(&words, 5, 5).unwrap();
        assert!(!gaddag.is_empty());
    }
}
