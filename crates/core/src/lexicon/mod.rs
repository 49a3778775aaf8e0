//! The dictionary and the connotation lists, on finite-state transducers (the `fst` crate).
//!
//! [`Lexicon`] is the small public type; raw fst calls stay in this module and its children.
//! The shipped English lexicon (`lexicon/` at the repository root) is compiled into the
//! runtime by `build.rs`, so [`Lexicon::english`] costs microseconds and allocates nothing.
//! Mods add words and connotation lists at run time through the same list reader.

pub mod anagram;
mod compile;
pub mod graph;
mod graphs;
pub use compile::list_files;
use graphs::ConnotedGraphs;
pub use graphs::MAX_GADDAG_LETTERS;
pub mod listfile;
mod morph;
mod wildcard;

use crate::diag::{FileError, LoadError};
use crate::fsutil;
use anagram::AnagramSearch;
use fst::automaton::{Levenshtein, Str};
use fst::{Automaton, IntoStreamer, Map, Set, Streamer};
use serde::Serialize;
use std::borrow::Cow;
use std::path::Path;

mod data {
    include!(concat!(env!("OUT_DIR"), "/lexicon_data.rs"));
}

pub use wildcard::MAX_PATTERN_LEN;

/// The most fuzzy matches ranked by distance before the nearest are kept.
const MAX_FUZZY_RANKED: usize = 10_000;

/// The most letters an anagram rack may hold (more would only make the search slow).
pub const MAX_RACK_LEN: usize = 20;

/// Bytes of an fst: borrowed from the binary for the shipped lexicon, owned for loaded lists.
type Bytes = Cow<'static, [u8]>;

/// A named connotation list (`attacking`, `burning`, or one a mod adds).
#[derive(Clone)]
struct ConnotationList {
    name: String,
    words: Set<Bytes>,
}

/// The dictionary, its connotation lists and the base forms of irregular words.
#[derive(Clone)]
pub struct Lexicon {
    words: Set<Bytes>,
    lists: Vec<ConnotationList>,
    /// Each list word's bitmask of the `lists` holding it (bit i is `lists[i]`).
    flags: Map<Bytes>,
    base_forms: Map<Bytes>,
    bases: Cow<'static, str>,
    /// The words as a flat graph for the move generator, made on first use.
    graph: std::sync::OnceLock<std::sync::Arc<graph::WordGraph>>,
    /// The words' GADDAG for the spy's search, made on first use (`None`: too many letters).
    gaddag: std::sync::OnceLock<Option<std::sync::Arc<graph::WordGraph>>>,
    /// Graphs of the words with some of the connotations, by bitmask of lists, made on first
    /// use (the spy searches them apart; see [`Lexicon::connoted_graph`]).
    connoted: ConnotedGraphs,
    /// The player's word list the words came from, where one replaced the dictionary.
    word_list: Option<WordListRecord>,
}

/// A player's own word list that replaced the dictionary: where it was read, how many words
/// it gave and a hash of its text, so that a save played with it replays only with it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WordListRecord {
    /// The file, as the player named it.
    pub path: String,
    /// How many words it gave.
    pub words: usize,
    /// The SHA-256 of its text, in hex.
    pub sha256: String,
}

/// A search the lexicon cannot run as asked.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum QueryError {
    /// A pattern character that is not a letter, `?` or `*`.
    #[error(
        "`{ch}` at position {position} cannot be in a pattern: use letters, `?` for one letter and `*` for any letters"
    )]
    PatternChar {
        /// The character.
        ch: char,
        /// Its position, from 1.
        position: usize,
    },
    /// A pattern longer than the automaton can follow.
    #[error("the pattern has {len} characters; the most is {max}")]
    PatternTooLong {
        /// The pattern's length.
        len: usize,
        /// The longest allowed.
        max: usize,
    },
    /// A fuzzy distance other than 1 or 2.
    #[error("fuzzy search finds words 1 or 2 edits away; {distance} is not allowed")]
    FuzzyDistance {
        /// The distance asked for.
        distance: u32,
    },
    /// A word too long for a fuzzy automaton of that distance.
    #[error(
        "`{word}` is too long to search at distance {distance}; try a shorter word or distance 1"
    )]
    FuzzyTooComplex {
        /// The word.
        word: String,
        /// The distance asked for.
        distance: u32,
    },
    /// A rack character that is not a letter or `?`.
    #[error("`{ch}` cannot be on a rack: use letters, and `?` for a blank")]
    RackChar {
        /// The character.
        ch: char,
    },
    /// A rack with too many letters.
    #[error("the rack has {len} letters; the most is {max}")]
    RackTooLong {
        /// The rack's length.
        len: usize,
        /// The most allowed.
        max: usize,
    },
}

/// How big a lexicon is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LexiconStats {
    /// Words in the dictionary.
    pub words: usize,
    /// Bytes of the dictionary's fst.
    pub dictionary_bytes: usize,
    /// Each connotation list's name and size in words.
    pub lists: Vec<(String, usize)>,
    /// Irregular inflected forms known.
    pub base_forms: usize,
    /// Bytes of every fst and table together: the lexicon's memory.
    pub total_bytes: usize,
}

fn set_from_bytes(bytes: Bytes) -> Set<Bytes> {
    Set::new(bytes).expect("fst bytes made by this crate are valid")
}

impl Lexicon {
    /// The shipped English lexicon: SCOWL words, WordNet-derived connotations (see
    /// `lexicon/SOURCES.md`). Built into the binary; nothing is read or rebuilt.
    pub fn english() -> Lexicon {
        Lexicon {
            words: set_from_bytes(Cow::Borrowed(data::WORDS)),
            lists: data::LISTS
                .iter()
                .map(|&(name, bytes)| ConnotationList {
                    name: name.to_string(),
                    words: set_from_bytes(Cow::Borrowed(bytes)),
                })
                .collect(),
            flags: Map::new(Cow::Borrowed(data::FLAGS)).expect("shipped flags are valid"),
            base_forms: Map::new(Cow::Borrowed(data::BASE_FORMS))
                .expect("shipped base forms are valid"),
            bases: Cow::Borrowed(data::BASES),
            graph: std::sync::OnceLock::new(),
            gaddag: std::sync::OnceLock::new(),
            connoted: ConnotedGraphs::default(),
            word_list: None,
        }
    }

    /// A lexicon built from the text of a word list (`path` names it in messages), with no
    /// connotation lists and the English irregular base forms. Also returns the warnings.
    pub fn from_word_list(path: &Path, text: &str) -> Result<(Lexicon, Vec<FileError>), LoadError> {
        let (words, warnings) = read_list(path, text)?;
        let mut lexicon = Lexicon::english();
        lexicon.words = owned_set(&words, path)?;
        lexicon.lists.clear();
        lexicon.rebuild_flags(path)?;
        lexicon.word_list = Some(WordListRecord {
            path: path.display().to_string(),
            words: lexicon.words.len(),
            sha256: sha256_hex(text.as_bytes()),
        });
        Ok((lexicon, warnings))
    }

    /// A player's word list file (one word a line; `#` comments) as the dictionary: see
    /// [`Lexicon::from_word_list`].
    pub fn open_word_list(path: &Path) -> Result<(Lexicon, Vec<FileError>), LoadError> {
        Lexicon::from_word_list(path, &fsutil::read_text(path)?)
    }

    /// The player's word list this lexicon's words came from, if one replaced the dictionary.
    pub fn word_list(&self) -> Option<&WordListRecord> {
        self.word_list.as_ref()
    }

    /// The lexicon a save was played with: the dictionary, or the player's word list it
    /// records, read again and refused if it changed.
    pub fn for_save(record: Option<&WordListRecord>) -> Result<Lexicon, String> {
        let Some(record) = record else {
            return Ok(Lexicon::english());
        };
        let path = Path::new(&record.path);
        let (lexicon, _) = Lexicon::open_word_list(path).map_err(|e| {
            format!(
                "the game was played with the word list {} ({} words), which cannot be read: {e}; put it back where it was",
                record.path, record.words
            )
        })?;
        if lexicon.word_list() != Some(record) {
            return Err(format!(
                "the game was played with the word list {} ({} words), which has changed since (now {} words, another hash): put back the list it was played with",
                record.path,
                record.words,
                lexicon.len()
            ));
        }
        Ok(lexicon)
    }

    /// Loads a lexicon folder laid out like the shipped `lexicon/`: `words.txt`, and where
    /// present `extra-words.txt`, `base-forms.txt` and `connotations/*.txt`.
    pub fn load_dir(dir: &Path) -> Result<(Lexicon, Vec<FileError>), LoadError> {
        let words_path = dir.join("words.txt");
        let (mut lexicon, mut warnings) =
            Lexicon::from_word_list(&words_path, &fsutil::read_text(&words_path)?)?;
        let base_forms_path = dir.join("base-forms.txt");
        if base_forms_path.is_file() {
            lexicon.set_base_forms(&base_forms_path, &fsutil::read_text(&base_forms_path)?)?;
        }
        warnings.extend(lexicon.extend_from_dir(dir)?);
        Ok((lexicon, warnings))
    }

    /// Adds what a mod folder holds: `extra-words.txt` (words for the dictionary) and
    /// `connotations/*.txt` (new lists, or lists that replace ones of the same name).
    /// A folder that is not there is refused; one that holds neither is a warning.
    pub fn extend_from_dir(&mut self, dir: &Path) -> Result<Vec<FileError>, LoadError> {
        if !dir.is_dir() {
            return Err(LoadError::one(FileError::whole(
                dir,
                "there is no such folder; a mod folder holds extra-words.txt and/or connotations/NAME.txt",
            )));
        }
        let mut warnings = Vec::new();
        let extra = dir.join("extra-words.txt");
        let lists_dir = dir.join("connotations");
        if !extra.is_file() && !lists_dir.is_dir() {
            warnings.push(FileError::whole(
                dir,
                "the folder holds neither extra-words.txt nor connotations/: it adds nothing",
            ));
        }
        if extra.is_file() {
            warnings.extend(self.add_words(&extra, &fsutil::read_text(&extra)?)?);
        }
        if lists_dir.is_dir() {
            let files = compile::list_files(&lists_dir).map_err(|source| LoadError::Io {
                path: lists_dir.clone(),
                source,
            })?;
            for file in files {
                let file_name = file
                    .file_name()
                    .and_then(|n| n.to_str())
                    .unwrap_or_default();
                let Some(name) = listfile::list_name(file_name) else {
                    return Err(LoadError::one(FileError::whole(
                        &file,
                        "a list's file name is its name: lowercase letters, digits, `_` and `-`, then .txt",
                    )));
                };
                let name = name.to_string();
                warnings.extend(self.set_connotation_list(
                    &name,
                    &file,
                    &fsutil::read_text(&file)?,
                )?);
            }
        }
        Ok(warnings)
    }

    /// Adds the words of a list to the dictionary.
    pub fn add_words(&mut self, path: &Path, text: &str) -> Result<Vec<FileError>, LoadError> {
        let (extra, warnings) = read_list(path, text)?;
        let extra_set = owned_set(&extra, path)?;
        let merged = collect(self.words.op().add(&extra_set).union(), usize::MAX);
        self.words = owned_set(&merged, path)?;
        self.graph = std::sync::OnceLock::new();
        self.gaddag = std::sync::OnceLock::new();
        self.connoted = ConnotedGraphs::default();
        Ok(warnings)
    }

    /// Adds the connotation list `name` (or replaces the list of that name).
    pub fn set_connotation_list(
        &mut self,
        name: &str,
        path: &Path,
        text: &str,
    ) -> Result<Vec<FileError>, LoadError> {
        let (words, warnings) = read_list(path, text)?;
        let list = ConnotationList {
            name: name.to_string(),
            words: owned_set(&words, path)?,
        };
        let full = self.lists.len() >= compile::MAX_LISTS;
        match self.lists.iter_mut().find(|l| l.name == name) {
            Some(existing) => *existing = list,
            None if full => {
                return Err(LoadError::one(FileError::whole(
                    path,
                    format!(
                        "a lexicon holds at most {} connotation lists",
                        compile::MAX_LISTS
                    ),
                )));
            }
            None => {
                self.lists.push(list);
                self.lists.sort_by(|a, b| a.name.cmp(&b.name));
            }
        }
        self.rebuild_flags(path)?;
        self.connoted = ConnotedGraphs::default();
        Ok(warnings)
    }

    /// Rebuilds the flags table from the lists, after a list was added or replaced.
    fn rebuild_flags(&mut self, path: &Path) -> Result<(), LoadError> {
        let words: Vec<Vec<String>> = self
            .lists
            .iter()
            .map(|l| collect(l.words.stream(), usize::MAX))
            .collect();
        let bytes = compile::flags_bytes(words.iter().map(Vec::as_slice))
            .map_err(|e| LoadError::one(FileError::whole(path, e.to_string())))?;
        self.flags = Map::new(Cow::Owned(bytes))
            .map_err(|e| LoadError::one(FileError::whole(path, e.to_string())))?;
        Ok(())
    }

    /// Replaces the irregular base forms with those of a base-forms file (`hidden hide` lines).
    pub fn set_base_forms(&mut self, path: &Path, text: &str) -> Result<(), LoadError> {
        let (pairs, problems) = listfile::parse_base_forms(text);
        if let Some(errors) = located(path, &problems, true) {
            return Err(LoadError::Problems(errors));
        }
        let (map, bases) = compile::base_forms_bytes(&pairs)
            .map_err(|e| LoadError::one(FileError::whole(path, e.to_string())))?;
        self.base_forms = Map::new(Cow::Owned(map))
            .map_err(|e| LoadError::one(FileError::whole(path, e.to_string())))?;
        self.bases = Cow::Owned(bases);
        self.connoted = ConnotedGraphs::default();
        Ok(())
    }

    /// Loads a dictionary saved by `scryptic lexicon build --out` (an fst file).
    pub fn load_fst(path: &Path) -> Result<Lexicon, LoadError> {
        let bytes = crate::fsutil::read_bytes_at_most(path, crate::fsutil::MAX_TEXT_FILE_BYTES)?;
        let words = Set::new(Cow::Owned(bytes)).map_err(|e| {
            LoadError::one(FileError::whole(
                path,
                format!("not a dictionary made by `scryptic lexicon build`: {e}"),
            ))
        })?;
        Ok(Lexicon {
            words,
            lists: Vec::new(),
            ..Lexicon::english()
        })
    }

    /// The dictionary as fst bytes (what `scryptic lexicon build --out` writes).
    pub fn dictionary_bytes(&self) -> &[u8] {
        self.words.as_fst().as_bytes()
    }

    /// The dictionary's raw fst, for walking its nodes (move generation).
    pub fn fst(&self) -> &fst::raw::Fst<Cow<'static, [u8]>> {
        self.words.as_fst()
    }

    /// Number of words in the dictionary.
    pub fn len(&self) -> usize {
        self.words.len()
    }

    /// Whether the dictionary has no words.
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// Whether `word` (any case) is in the dictionary.
    pub fn contains(&self, word: &str) -> bool {
        // Once the move generator has made the letter graph, a word of the letters A to Z is
        // looked up there, a step a letter, instead of decoding the fst's nodes (an AI weighs
        // every word on the board at every position it looks at). Same words, same answer.
        if let Some(graph) = self.graph.get()
            && word.bytes().all(|b| b.is_ascii_alphabetic())
        {
            let mut node = graph.root();
            for b in word.bytes() {
                match graph.child(node, b.to_ascii_lowercase() - b'a') {
                    Some(next) => node = next,
                    None => return false,
                }
            }
            return graph.is_word(node);
        }
        with_lowercase(word, |w| self.words.contains(w))
    }

    /// The names of the connotation lists, in order.
    pub fn list_names(&self) -> impl Iterator<Item = &str> {
        self.lists.iter().map(|l| l.name.as_str())
    }

    /// The words of list `name`, if there is such a list.
    pub fn list_words(&self, name: &str) -> Option<Vec<String>> {
        let list = self.lists.iter().find(|l| l.name == name)?;
        Some(collect(list.words.stream(), usize::MAX))
    }

    /// The connotations of `word` (any case): the lists that hold it or one of its base forms.
    pub fn connotations(&self, word: &str) -> Vec<&str> {
        let bits = self.connotation_bits(&word.to_ascii_lowercase());
        self.lists
            .iter()
            .enumerate()
            .filter(|&(i, _)| bits & (1 << i) != 0)
            .map(|(_, l)| l.name.as_str())
            .collect()
    }

    /// The lists holding lowercase `word` or one of its base forms, as a bitmask.
    fn connotation_bits(&self, word: &str) -> u64 {
        let own = self.flags.get(word).unwrap_or(0);
        if let Some(base) = self.irregular_base(word) {
            return own | self.flags.get(base).unwrap_or(0);
        }
        // Only a candidate in some list can add to the bits, so only those are weighed for
        // likelihood (a dictionary lookup or two): most words have none.
        let candidates = morph::regular_base_forms(word);
        candidates
            .iter()
            .filter_map(|c| Some((c, self.flags.get(c)?)))
            .filter(|(c, _)| morph::is_likely_base(c, &candidates, |w| self.words.contains(w)))
            .fold(own, |acc, (_, b)| acc | b)
    }

    /// The base of an irregular form, from the table of exceptions.
    fn irregular_base(&self, word: &str) -> Option<&str> {
        self.base_forms
            .get(word)
            .and_then(|v| compile::base_at(&self.bases, v))
    }

    /// The bitmask of the named lists (names of no list are left out).
    fn list_mask(&self, lists: &[&str]) -> u64 {
        self.lists
            .iter()
            .enumerate()
            .filter(|(_, l)| lists.contains(&l.name.as_str()))
            .fold(0, |mask, (i, _)| mask | 1 << i)
    }

    /// Every dictionary word with at least one of the connotations `lists`, sorted: the list
    /// words, their regular inflections and their irregular forms that are in the dictionary,
    /// each checked as [`Lexicon::connotations`] checks a word.
    pub fn words_with_connotations(&self, lists: &[&str]) -> Vec<String> {
        let mask = self.list_mask(lists);
        let mut candidates = std::collections::BTreeSet::new();
        let mut flagged = self.flags.stream();
        while let Some((word, bits)) = flagged.next() {
            if bits & mask == 0 {
                continue;
            }
            let Ok(word) = std::str::from_utf8(word) else {
                continue;
            };
            candidates.insert(word.to_string());
            candidates.extend(morph::inflection_candidates(word));
        }
        let mut irregular = self.base_forms.stream();
        while let Some((form, value)) = irregular.next() {
            let base = compile::base_at(&self.bases, value);
            if base
                .and_then(|b| self.flags.get(b))
                .is_some_and(|b| b & mask != 0)
                && let Ok(form) = std::str::from_utf8(form)
            {
                candidates.insert(form.to_string());
            }
        }
        candidates
            .into_iter()
            .filter(|w| self.words.contains(w) && self.connotation_bits(w) & mask != 0)
            .collect()
    }

    /// Whether `word` has the connotation `list`.
    pub fn has_connotation(&self, word: &str, list: &str) -> bool {
        self.connotations(word).contains(&list)
    }

    /// `word` itself and its irregular base form, or else its likely regular base forms.
    fn forms_of(&self, word: &str) -> Vec<String> {
        let mut forms = vec![word.to_string()];
        // An irregular form's base is known for certain; the suffix rules are not asked, as
        // WordNet's own morphology does not (CUTER is cute, not cut).
        if let Some(base) = self.irregular_base(word) {
            forms.push(base.to_string());
            return forms;
        }
        forms.extend(morph::likely_base_forms(word, |w| self.words.contains(w)));
        forms
    }

    /// The base forms of `word` that are dictionary words (SWORDS: sword; HIDDEN: hide).
    pub fn base_forms(&self, word: &str) -> Vec<String> {
        let word = word.to_ascii_lowercase();
        let mut forms: Vec<String> = self
            .forms_of(&word)
            .into_iter()
            .skip(1)
            .filter(|f| self.words.contains(f))
            .collect();
        let mut seen = std::collections::BTreeSet::new();
        forms.retain(|f| seen.insert(f.clone()));
        forms
    }

    /// Words starting with `prefix`, alphabetically, at most `limit`.
    pub fn prefix(&self, prefix: &str, limit: usize) -> Vec<String> {
        let prefix = prefix.to_ascii_lowercase();
        collect(
            self.words
                .search(Str::new(&prefix).starts_with())
                .into_stream(),
            limit,
        )
    }

    /// Words within `distance` (1 or 2) edits of `word`, nearest first (then alphabetically),
    /// at most `limit`.
    pub fn fuzzy(
        &self,
        word: &str,
        distance: u32,
        limit: usize,
    ) -> Result<Vec<String>, QueryError> {
        if !(1..=2).contains(&distance) {
            return Err(QueryError::FuzzyDistance { distance });
        }
        let word = word.to_ascii_lowercase();
        let automaton =
            Levenshtein::new(&word, distance).map_err(|_| QueryError::FuzzyTooComplex {
                word: word.clone(),
                distance,
            })?;
        // Every match is ranked, so that the nearest come first whatever their spelling; the
        // automaton's matches are capped so that a short word cannot gather the dictionary.
        let mut found: Vec<(usize, String)> =
            collect(self.words.search(automaton).into_stream(), MAX_FUZZY_RANKED)
                .into_iter()
                .map(|w| (strsim::levenshtein(&word, &w), w))
                .collect();
        found.sort();
        Ok(found.into_iter().take(limit).map(|(_, w)| w).collect())
    }

    /// Words matching `pattern` (`?` one letter, `*` any letters), alphabetically, at most `limit`.
    pub fn pattern(&self, pattern: &str, limit: usize) -> Result<Vec<String>, QueryError> {
        let pattern = pattern.to_ascii_lowercase();
        if pattern.len() > MAX_PATTERN_LEN {
            return Err(QueryError::PatternTooLong {
                len: pattern.chars().count(),
                max: MAX_PATTERN_LEN,
            });
        }
        if let Some((i, ch)) = pattern
            .chars()
            .enumerate()
            .find(|(_, c)| !(c.is_ascii_lowercase() || *c == '?' || *c == '*'))
        {
            return Err(QueryError::PatternChar {
                ch,
                position: i + 1,
            });
        }
        Ok(collect(
            self.words
                .search(wildcard::Wildcard::new(&pattern))
                .into_stream(),
            limit,
        ))
    }

    /// Words a rack can make (`?` is a blank): all of its letters, or with `subsets` any of
    /// them; longest first, then alphabetically; at most `limit`.
    pub fn anagrams(
        &self,
        rack: &str,
        subsets: bool,
        limit: usize,
    ) -> Result<Vec<String>, QueryError> {
        let mut search = AnagramSearch {
            counts: [0; 26],
            blanks: 0,
            subsets,
            min_len: 2,
        };
        let len = rack.chars().count();
        if len > MAX_RACK_LEN {
            return Err(QueryError::RackTooLong {
                len,
                max: MAX_RACK_LEN,
            });
        }
        for ch in rack.chars() {
            match ch.to_ascii_lowercase() {
                '?' => search.blanks += 1,
                c @ 'a'..='z' => search.counts[usize::from(c as u8 - b'a')] += 1,
                _ => return Err(QueryError::RackChar { ch }),
            }
        }
        let mut words = anagram::anagrams(self.fst(), &search, usize::MAX);
        words.sort_by(|a, b| b.len().cmp(&a.len()).then_with(|| a.cmp(b)));
        words.truncate(limit);
        Ok(words)
    }

    /// Sizes of the dictionary, the lists and the tables.
    pub fn stats(&self) -> LexiconStats {
        let lists: Vec<(String, usize)> = self
            .lists
            .iter()
            .map(|l| (l.name.clone(), l.words.len()))
            .collect();
        let list_bytes: usize = self.lists.iter().map(|l| l.words.as_fst().size()).sum();
        LexiconStats {
            words: self.words.len(),
            dictionary_bytes: self.words.as_fst().size(),
            lists,
            base_forms: self.base_forms.len(),
            total_bytes: self.words.as_fst().size()
                + list_bytes
                + self.base_forms.as_fst().size()
                + self.bases.len(),
        }
    }
}

/// Runs `f` on `word` in lowercase, without allocating for ordinary words.
fn with_lowercase<T>(word: &str, f: impl FnOnce(&[u8]) -> T) -> T {
    let bytes = word.as_bytes();
    if !bytes.iter().any(u8::is_ascii_uppercase) {
        return f(bytes);
    }
    let mut buf = [0u8; 64];
    match buf.get_mut(..bytes.len()) {
        Some(small) => {
            small.copy_from_slice(bytes);
            small.make_ascii_lowercase();
            f(small)
        }
        None => f(&bytes.to_ascii_lowercase()),
    }
}

/// Up to `limit` keys of a stream, as strings.
fn collect<S: for<'a> Streamer<'a, Item = &'a [u8]>>(mut stream: S, limit: usize) -> Vec<String> {
    let mut out = Vec::new();
    while out.len() < limit {
        match stream.next() {
            Some(key) => out.push(String::from_utf8_lossy(key).into_owned()),
            None => break,
        }
    }
    out
}

/// The words of a list file, and its warnings, or its errors.
fn read_list(path: &Path, text: &str) -> Result<(Vec<String>, Vec<FileError>), LoadError> {
    let parsed = listfile::parse_word_list(text);
    if let Some(errors) = located(path, &parsed.problems, true) {
        return Err(LoadError::Problems(errors));
    }
    let warnings = located(path, &parsed.problems, false).unwrap_or_default();
    Ok((parsed.words, warnings))
}

/// The problems of one kind (errors or warnings) with file:line:column, if there are any.
fn located(path: &Path, problems: &[listfile::ListProblem], fatal: bool) -> Option<Vec<FileError>> {
    let found: Vec<FileError> = problems
        .iter()
        .filter(|p| p.fatal == fatal)
        .map(|p| FileError::at(path, Some((p.line, p.column)), p.message.clone()))
        .collect();
    (!found.is_empty()).then_some(found)
}

fn owned_set(words: &[String], path: &Path) -> Result<Set<Bytes>, LoadError> {
    let bytes = compile::set_bytes(words)
        .map_err(|e| LoadError::one(FileError::whole(path, e.to_string())))?;
    Ok(set_from_bytes(Cow::Owned(bytes)))
}

#[cfg(test)]
mod tests;

/// The SHA-256 of `bytes`, in lowercase hex.
fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}
