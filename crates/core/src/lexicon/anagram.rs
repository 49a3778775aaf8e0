//! Anagrams of a rack: a depth-first walk over the dictionary's fst nodes that only follows
//! letters still on the rack, so it never looks at a word the rack cannot make.

use fst::raw::{Fst, Node};

/// What to look for.
#[derive(Clone, Copy, Debug)]
pub struct AnagramSearch {
    /// Letters a-z on the rack, by count.
    pub counts: [u8; 26],
    /// Blanks (`?`): each stands for any letter.
    pub blanks: u8,
    /// Whether words using only some of the rack count (otherwise every letter must be used).
    pub subsets: bool,
    /// The shortest word to report.
    pub min_len: usize,
}

/// Every word of `fst` that `search` allows, in the fst's (alphabetical) order, at most `limit`.
pub fn anagrams<D: AsRef<[u8]>>(fst: &Fst<D>, search: &AnagramSearch, limit: usize) -> Vec<String> {
    let total =
        search.counts.iter().map(|&c| usize::from(c)).sum::<usize>() + usize::from(search.blanks);
    let mut walk = Walk {
        fst,
        search: *search,
        total,
        word: Vec::with_capacity(total),
        out: Vec::new(),
        limit,
    };
    walk.visit(fst.root());
    walk.out
}

struct Walk<'f, D> {
    fst: &'f Fst<D>,
    search: AnagramSearch,
    total: usize,
    word: Vec<u8>,
    out: Vec<String>,
    limit: usize,
}

impl<D: AsRef<[u8]>> Walk<'_, D> {
    fn visit(&mut self, node: Node<'_>) {
        if self.out.len() >= self.limit {
            return;
        }
        let long_enough = self.word.len() >= self.search.min_len.max(1);
        let complete = self.search.subsets || self.word.len() == self.total;
        if node.is_final() && long_enough && complete {
            self.out
                .push(String::from_utf8_lossy(&self.word).into_owned());
        }
        for t in node.transitions() {
            let Some(slot) = t.inp.checked_sub(b'a').map(usize::from).filter(|&i| i < 26) else {
                continue;
            };
            let from_rack = self.search.counts[slot] > 0;
            if !from_rack && self.search.blanks == 0 {
                continue;
            }
            if from_rack {
                self.search.counts[slot] -= 1;
            } else {
                self.search.blanks -= 1;
            }
            self.word.push(t.inp);
            self.visit(self.fst.node(t.addr));
            self.word.pop();
            if from_rack {
                self.search.counts[slot] += 1;
            } else {
                self.search.blanks += 1;
            }
        }
    }
}
