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
    let doubled = n >= 3 && bytes[n - 1] == bytes[n - 2] && !b"aeiou".contains(&bytes[n - 1]);
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
