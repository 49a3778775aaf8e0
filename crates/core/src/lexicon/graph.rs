//! The dictionary as a flat table of nodes, for walking letter by letter (the move generator
//! does millions of steps; the fst's compressed nodes are slow to decode, a flat table is not).
//!
//! The table is derived from the fst once and keeps its minimality: nodes the fst shares
//! (common suffixes) are shared here too.

use fst::raw::{CompiledAddr, Fst};
use std::collections::HashMap;

/// A letter as a number, `A`/`a` = 0 to `Z`/`z` = 25.
pub type LetterIndex = u8;

/// A set of letters as a bitmask: bit `i` is letter `i`.
pub type LetterSet = u32;

/// Every letter.
pub const ALL_LETTERS: LetterSet = (1 << 26) - 1;

/// A GADDAG's separator (see [`WordGraph::gaddag_of`]): where a word's reversed beginning
/// ends and the rest of the word follows. It is never a letter of a rack or the board.
pub const SEPARATOR: LetterIndex = 26;

/// The separator's byte in the fst a GADDAG is built through: the byte after `z`.
const SEPARATOR_BYTE: u8 = b'z' + 1;

/// Whether `byte` is an edge the table keeps: a letter, or a GADDAG's separator.
fn is_edge_byte(byte: u8) -> bool {
    byte.is_ascii_lowercase() || byte == SEPARATOR_BYTE
}

/// The keys of a GADDAG being gathered, word by word (see [`WordGraph::gaddag_of`]): all in
/// one buffer, each by where it starts and how long it is.
#[derive(Default)]
pub struct GaddagKeys {
    arena: Vec<u8>,
    keys: Vec<(u32, u8)>,
}

impl GaddagKeys {
    /// Longer words are left out (a key must be short enough to count in a byte; no board
    /// holds such a word).
    const LONGEST_WORD: usize = 200;

    /// Adds `word`'s keys (a word of other bytes than `a`-`z` is left out).
    pub fn add(&mut self, word: &[u8]) {
        if word.is_empty()
            || word.len() > Self::LONGEST_WORD
            || !word.iter().all(u8::is_ascii_lowercase)
        {
            return;
        }
        for split in 1..=word.len() {
            let start = self.arena.len();
            self.arena.extend(word[..split].iter().rev());
            if split < word.len() {
                self.arena.push(SEPARATOR_BYTE);
                self.arena.extend_from_slice(&word[split..]);
            }
            self.keys
                .push((start as u32, (self.arena.len() - start) as u8));
        }
    }

    /// The GADDAG of the words added. The keys are let go once their fst is made, before the
    /// table is: making the shipped words' table peaks lower so.
    pub fn finish(self) -> Result<WordGraph, fst::Error> {
        let GaddagKeys { arena, mut keys } = self;
        let key =
            |&(start, len): &(u32, u8)| &arena[start as usize..start as usize + usize::from(len)];
        keys.sort_unstable_by(|a, b| key(a).cmp(key(b)));
        keys.dedup_by(|a, b| key(a) == key(b));
        let set = fst::Set::from_iter(keys.iter().map(key))?;
        drop(keys);
        drop(arena);
        Ok(WordGraph::from_fst(set.as_fst()))
    }
}

/// A node of the graph, by its index in the table.
pub type NodeId = u32;

#[derive(Clone, Copy, Debug)]
struct Node {
    /// The letters with an edge out of this node.
    letters: LetterSet,
    /// Index in `edges` of the first edge; edges follow in letter order.
    first_edge: u32,
    /// Whether the letters walked so far spell a word.
    is_word: bool,
    /// The most letters any word continues with from here (capped at 255), which bounds how
    /// far a word being built can still reach. It sits in the node, where reading it costs
    /// no second trip to memory.
    longest: u8,
}

/// The dictionary's words as a graph of letters.
#[derive(Clone, Debug)]
pub struct WordGraph {
    nodes: Vec<Node>,
    edges: Vec<NodeId>,
    /// Per node, every letter of every continuation from it. Kept apart from the nodes, as
    /// only searches that prune by it read it.
    letters_ahead: Vec<LetterSet>,
}

impl WordGraph {
    /// The graph of the words of `fst` (lowercase `a`-`z` words; other bytes are skipped).
    pub fn from_fst<D: AsRef<[u8]>>(fst: &Fst<D>) -> WordGraph {
        let mut graph = WordGraph {
            nodes: Vec::new(),
            edges: Vec::new(),
            letters_ahead: Vec::new(),
        };
        let mut seen: HashMap<CompiledAddr, NodeId> = HashMap::new();
        graph.add(fst, fst.root().addr(), &mut seen);
        // The tables grew by doubling: what they hold is all they keep.
        graph.nodes.shrink_to_fit();
        graph.edges.shrink_to_fit();
        graph.letters_ahead.shrink_to_fit();
        graph
    }

    /// The graph of `words` (sorted, deduplicated, lowercase `a`-`z`).
    pub fn from_sorted_words<I, W>(words: I) -> Result<WordGraph, fst::Error>
    where
        I: IntoIterator<Item = W>,
        W: AsRef<[u8]>,
    {
        let set = fst::Set::from_iter(words)?;
        Ok(WordGraph::from_fst(set.as_fst()))
    }

    /// The GADDAG of `words` (lowercase `a`-`z`, any order, words of other bytes skipped): for
    /// each word and each of its letters, the word's beginning up to that letter reversed,
    /// then [`SEPARATOR`] and the rest of the word (no separator when the rest is empty). A
    /// walk may so start at any letter of a word, go left to the word's first letter, and
    /// then right from the letter it started at: a move generator starts at a cell beside
    /// the board's letters and meets them at once, instead of spelling every beginning a
    /// rack makes before finding out that none runs into them. About ten times the words'
    /// graph (the shipped words: 2.3 million keys, 1.4 million nodes).
    pub fn gaddag_of<'a>(
        words: impl IntoIterator<Item = &'a [u8]>,
    ) -> Result<WordGraph, fst::Error> {
        let mut keys = GaddagKeys::default();
        for word in words {
            keys.add(word);
        }
        keys.finish()
    }

    /// Adds the node at `addr` and everything below it (once each); returns its id. The walk
    /// uses its own stack, since words can be longer than a comfortable recursion.
    fn add<D: AsRef<[u8]>>(
        &mut self,
        fst: &Fst<D>,
        addr: CompiledAddr,
        seen: &mut HashMap<CompiledAddr, NodeId>,
    ) -> NodeId {
        // Post-order: a node is written once all its children have ids.
        let mut stack: Vec<(CompiledAddr, bool)> = vec![(addr, false)];
        while let Some((at, children_done)) = stack.pop() {
            if seen.contains_key(&at) {
                continue;
            }
            let node = fst.node(at);
            if !children_done {
                stack.push((at, true));
                for t in node.transitions() {
                    if is_edge_byte(t.inp) && !seen.contains_key(&t.addr) {
                        stack.push((t.addr, false));
                    }
                }
                continue;
            }
            let mut letters = 0;
            let first_edge = self.edges.len() as u32;
            for t in node.transitions() {
                if is_edge_byte(t.inp) {
                    letters |= 1 << (t.inp - b'a');
                    self.edges.push(seen[&t.addr]);
                }
            }
            let id = self.nodes.len() as NodeId;
            // Children are written before their parents, so theirs are known.
            let children = &self.edges[first_edge as usize..];
            let longest = children
                .iter()
                .map(|&child| self.nodes[child as usize].longest.saturating_add(1))
                .max()
                .unwrap_or(0);
            let ahead = children.iter().fold(letters, |set, &child| {
                set | self.letters_ahead[child as usize]
            });
            self.letters_ahead.push(ahead);
            self.nodes.push(Node {
                letters,
                first_edge,
                is_word: node.is_final(),
                longest,
            });
            seen.insert(at, id);
        }
        seen[&addr]
    }

    /// The node every word starts from.
    pub fn root(&self) -> NodeId {
        self.nodes.len() as NodeId - 1
    }

    /// The letters that continue some word from `node`.
    #[inline]
    pub fn letters(&self, node: NodeId) -> LetterSet {
        self.nodes[node as usize].letters
    }

    /// Whether the walk to `node` spells a word.
    #[inline]
    pub fn is_word(&self, node: NodeId) -> bool {
        self.nodes[node as usize].is_word
    }

    /// The node after `letter` from `node`, if some word continues so.
    #[inline]
    pub fn child(&self, node: NodeId, letter: LetterIndex) -> Option<NodeId> {
        let n = &self.nodes[node as usize];
        let bit = 1u32 << letter;
        if n.letters & bit == 0 {
            return None;
        }
        let rank = (n.letters & (bit - 1)).count_ones();
        Some(self.edges[(n.first_edge + rank) as usize])
    }

    /// The letters of `within` that continue some word from `node`, in letter order, each with
    /// the node it leads to: the move generator's loop over what may come next.
    #[inline]
    pub fn children(
        &self,
        node: NodeId,
        within: LetterSet,
    ) -> impl Iterator<Item = (LetterIndex, NodeId)> + '_ {
        let mut letters = self.letters(node) & within;
        std::iter::from_fn(move || {
            if letters == 0 {
                return None;
            }
            let letter = letters.trailing_zeros() as LetterIndex;
            letters &= letters - 1;
            self.child(node, letter).map(|next| (letter, next))
        })
    }

    /// The most letters a word can still take after `node` (255 for 255 or more).
    #[inline]
    pub fn longest(&self, node: NodeId) -> usize {
        usize::from(self.nodes[node as usize].longest)
    }

    /// Every letter that some continuation from `node` has.
    #[inline]
    pub fn letters_ahead(&self, node: NodeId) -> LetterSet {
        self.letters_ahead[node as usize]
    }

    /// The node after walking `letters` (indices) from `node`.
    pub fn walk(&self, node: NodeId, letters: &[LetterIndex]) -> Option<NodeId> {
        letters
            .iter()
            .try_fold(node, |n, &letter| self.child(n, letter))
    }

    /// How many nodes the graph has.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the graph has no words at all.
    pub fn is_empty(&self) -> bool {
        self.nodes.len() <= 1 && !self.nodes.first().is_some_and(|n| n.is_word)
    }

    /// Bytes the table takes.
    pub fn memory(&self) -> usize {
        self.nodes.len() * std::mem::size_of::<Node>()
            + self.edges.len() * 4
            + self.letters_ahead.len() * std::mem::size_of::<LetterSet>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graph(words: &[&str]) -> WordGraph {
        WordGraph::from_sorted_words(words.iter().copied()).unwrap()
    }

    fn idx(word: &str) -> Vec<LetterIndex> {
        word.bytes().map(|b| b - b'a').collect()
    }

    #[test]
    fn walks_spell_exactly_the_words() {
        let g = graph(&["cat", "cats", "dog", "dot"]);
        let check = |w: &str, expect: bool| {
            let found = g.walk(g.root(), &idx(w)).is_some_and(|n| g.is_word(n));
            assert_eq!(found, expect, "{w}");
        };
        for (w, expect) in [
            ("cat", true),
            ("cats", true),
            ("dog", true),
            ("dot", true),
            ("ca", false),
            ("do", false),
            ("cog", false),
            ("", false),
        ] {
            check(w, expect);
        }
        let after_do = g.walk(g.root(), &idx("do")).unwrap();
        assert_eq!(g.letters(after_do), (1 << 6) | (1 << 19));
    }

    /// Table: a GADDAG walk from any letter of a word, left to its start, then (past the
    /// separator) right to its end, spells a word exactly when the dictionary has it.
    #[test]
    fn a_gaddag_spells_each_word_from_each_of_its_letters() {
        let words = ["at", "cat", "cats", "scat"];
        let g = WordGraph::gaddag_of(words.iter().map(|w| w.as_bytes())).unwrap();
        // (the letters from the starting one leftward, the rest rightward, a word?)
        for (left, right, expect) in [
            ("a", "t", true),
            ("ta", "", true),
            ("ac", "t", true),
            ("c", "at", true),
            ("tac", "s", true),
            ("sta", "", false),
            ("ts", "", false),
            ("acs", "ts", false),
            ("acs", "t", true),
            ("ca", "t", false),
            ("a", "", false),
        ] {
            let node = g.walk(g.root(), &idx(left)).and_then(|n| {
                if right.is_empty() {
                    Some(n)
                } else {
                    g.child(n, SEPARATOR).and_then(|n| g.walk(n, &idx(right)))
                }
            });
            let spelled = node.is_some_and(|n| g.is_word(n));
            assert_eq!(spelled, expect, "{left} | {right}");
        }
    }

    #[test]
    fn shared_suffixes_stay_shared() {
        let g = graph(&["bat", "cat", "hat", "mat"]);
        // The root, then one node after any of the four first letters, one after `a` and
        // the final one after `t`.
        assert_eq!(g.len(), 4);
    }

    #[test]
    fn longest_continuation_bounds_every_word_ahead() {
        let g = graph(&["a", "ab", "abcde", "b", "bcd"]);
        for (prefix, longest) in [
            ("", 5),
            ("a", 4),
            ("ab", 3),
            ("abcd", 1),
            ("abcde", 0),
            ("b", 2),
        ] {
            let node = g.walk(g.root(), &idx(prefix)).unwrap();
            assert_eq!(g.longest(node), longest, "after `{prefix}`");
        }
    }

    #[test]
    fn letters_ahead_are_every_letter_of_every_continuation() {
        let g = graph(&["abcde", "ax", "bcd", "zy"]);
        let set = |letters: &str| idx(letters).iter().fold(0, |s, &l| s | 1 << l);
        for (prefix, ahead) in [
            ("", "abcdexyz"),
            ("a", "bcdex"),
            ("ab", "cde"),
            ("b", "cd"),
            ("bcd", ""),
            ("z", "y"),
        ] {
            let node = g.walk(g.root(), &idx(prefix)).unwrap();
            assert_eq!(g.letters_ahead(node), set(ahead), "after `{prefix}`");
        }
    }
}
