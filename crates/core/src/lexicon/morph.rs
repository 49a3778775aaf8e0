//! Base forms of inflected words: SWORDS is a form of sword, ATTACKING of attack, HIDDEN of
//! hide. Irregular forms come from a table (WordNet's exception lists); regular ones from the
//! suffix rules WordNet's own morphology uses, with doubled consonants undone (HITTING -> hit).

/// Suffix rules: an ending and what replaces it. Nouns, then verbs, then adjectives, then
/// adverbs made from adjectives.
const SUFFIX_RULES: &[(&str, &str)] = &[
    ("s", ""),
    ("ses", "s"),
    ("xes", "x"),
    ("zes", "z"),
    ("ches", "ch"),
    ("shes", "sh"),
    ("men", "man"),
    ("ies", "y"),
    ("es", "e"),
    ("es", ""),
    ("ed", "e"),
    ("ed", ""),
    ("ing", "e"),
    ("ing", ""),
    ("er", ""),
    ("er", "e"),
    ("est", ""),
    ("est", "e"),
    ("ier", "y"),
    ("iest", "y"),
    ("ily", "y"),
    ("ly", ""),
];

/// Endings after which a doubled final consonant is undone (STABBED -> stabb -> stab).
const DOUBLING_ENDINGS: &[&str] = &["ed", "ing", "er", "est"];

/// Consonants that English words end in doubled of their own (PASS, STUFF, BUZZ): a doubled
/// one before an ending is the word's, not the ending's (PASSED is pass, not pas).
const NATURALLY_DOUBLED: &[u8] = b"sfz";

/// Every candidate base form of `word` by the suffix rules, shortest ending first. Candidates
/// are guesses: a caller keeps those its lists or dictionary know.
pub fn regular_base_forms(word: &str) -> Vec<String> {
    let mut out = Vec::new();
    for &(ending, replacement) in SUFFIX_RULES {
        let Some(stem) = word.strip_suffix(ending) else {
            continue;
        };
        if stem.len() < 2 {
            continue;
        }
        // A stem that keeps its e before -ing (SEEING, FLEEING) takes no second one: BEING is
        // be, not bee.
        if ending == "ing" && replacement == "e" && stem.ends_with('e') {
            continue;
        }
        // A base that ends in e loses it before -ed, -er and -est (AGREE, AGREED): a bare stem
        // ending in e is never the base (AGREED is not agre).
        if replacement.is_empty() && ["ed", "er", "est"].contains(&ending) && stem.ends_with('e') {
            continue;
        }
        let candidate = format!("{stem}{replacement}");
        if !out.contains(&candidate) {
            out.push(candidate);
        }
        if replacement.is_empty()
            && DOUBLING_ENDINGS.contains(&ending)
            && let Some(single) = undouble(stem)
            && !out.contains(&single)
        {
            out.push(single);
        }
    }
    out
}

/// The candidates of [`regular_base_forms`] that English spelling makes likely, given which
/// are words (`is_word`):
/// - when a stem ending consonant-vowel-consonant and the same stem with an e are both words,
///   a stem of one syllable is not the base, since it would have doubled its consonant (CUTER
///   is cute, as cut makes cutter; HOPING is hope), and one of more syllables is (VISITED is
///   visit, not visite: such stems seldom double);
/// - a stem ending in a doubled consonant is not the base when the single one is a word
///   (BIGGER is big, not bigg).
pub fn likely_base_forms(word: &str, is_word: impl Fn(&str) -> bool) -> Vec<String> {
    let candidates = regular_base_forms(word);
    candidates
        .iter()
        .filter(|c| is_likely_base(c, &candidates, &is_word))
        .cloned()
        .collect()
}

/// Whether `candidate`, one of a word's `candidates` (by [`regular_base_forms`]), is a likely
/// base by the rules of [`likely_base_forms`]. Asked of one candidate, so that a caller that
/// cares about few of them (those with a connotation) looks up only those.
pub fn is_likely_base(
    candidate: &str,
    candidates: &[String],
    is_word: impl Fn(&str) -> bool,
) -> bool {
    let known = |c: &str| candidates.iter().any(|k| k == c) && is_word(c);
    match candidate.strip_suffix('e') {
        // The stem with an e, beside a bare stem that is a word.
        Some(bare) if ends_consonant_vowel_consonant(bare) && known(bare) => one_syllable(bare),
        _ => {
            let hidden_doubling = ends_consonant_vowel_consonant(candidate)
                && one_syllable(candidate)
                && known(&format!("{candidate}e"));
            let undoubled = undouble(candidate).is_some_and(|single| known(&single));
            !hidden_doubling && !undoubled
        }
    }
}

/// Whether `stem` has one group of vowels (CUT, STAR), so one syllable.
fn one_syllable(stem: &str) -> bool {
    let vowel = |c: u8| b"aeiouy".contains(&c);
    let b = stem.as_bytes();
    let groups = (0..b.len())
        .filter(|&i| vowel(b[i]) && (i == 0 || !vowel(b[i - 1])))
        .count();
    groups == 1
}

/// Whether `stem` ends consonant, vowel, consonant (not w, x or y, which never double).
fn ends_consonant_vowel_consonant(stem: &str) -> bool {
    let b = stem.as_bytes();
    let n = b.len();
    let vowel = |c: u8| b"aeiou".contains(&c);
    n >= 3 && !vowel(b[n - 3]) && vowel(b[n - 2]) && !vowel(b[n - 1]) && !b"wxy".contains(&b[n - 1])
}

/// The words whose candidate base forms (by [`regular_base_forms`]) may include `base`: every
/// ending the rules would strip to give it, including a doubled final consonant (STAB ->
/// STABBED). A superset: callers keep those the dictionary knows.
pub fn inflection_candidates(base: &str) -> Vec<String> {
    let mut out = Vec::new();
    for &(ending, replacement) in SUFFIX_RULES {
        if let Some(stem) = base.strip_suffix(replacement)
            && stem.len() >= 2
        {
            out.push(format!("{stem}{ending}"));
        }
    }
    if let Some(last) = base.chars().last().filter(|c| !"aeiou".contains(*c))
        && base.len() >= 2
    {
        for ending in DOUBLING_ENDINGS {
            out.push(format!("{base}{last}{ending}"));
        }
    }
    out
}

/// `stem` without its last letter when that letter doubles a consonant (stabb -> stab).
fn undouble(stem: &str) -> Option<String> {
    let bytes = stem.as_bytes();
    let n = bytes.len();
    let doubled = n >= 3
        && bytes[n - 1] == bytes[n - 2]
        && !b"aeiou".contains(&bytes[n - 1])
        && !NATURALLY_DOUBLED.contains(&bytes[n - 1]);
    doubled.then(|| stem[..n - 1].to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(word: &str, expected_among: &str) {
        let forms = regular_base_forms(word);
        assert!(
            forms.iter().any(|f| f == expected_among),
            "{word}: {forms:?}"
        );
    }

    #[test]
    fn regular_inflections() {
        check("swords", "sword");
        check("attacking", "attack");
        check("burned", "burn");
        check("carving", "carve");
        check("stabbed", "stab");
        check("hitting", "hit");
        check("sneakier", "sneaky");
        check("knives", "knive");
        check("churches", "church");
        check("secretly", "secret");
        check("bigger", "big");
        assert!(regular_base_forms("as").is_empty());
    }
}
