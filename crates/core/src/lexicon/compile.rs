//! Turning parsed lists into fst bytes. Shared with `build.rs` (which compiles the shipped
//! lexicon into the runtime), so it uses only `fst` and its sibling `listfile`.

/// The bytes of an `fst::Set` of `words` (which must be sorted and unique).
pub fn set_bytes(words: &[String]) -> Result<Vec<u8>, fst::Error> {
    Ok(fst::Set::from_iter(words)?.as_fst().as_bytes().to_vec())
}

/// The base-forms table: an `fst::Map` from each inflected form to where its base form
/// stands in a text of all base forms (`offset << 8 | length`), and that text.
pub fn base_forms_bytes(pairs: &[(String, String)]) -> Result<(Vec<u8>, String), fst::Error> {
    let mut bases = String::new();
    let mut entries = Vec::with_capacity(pairs.len());
    for (inflected, base) in pairs {
        let value = ((bases.len() as u64) << 8) | (base.len().min(255) as u64);
        bases.push_str(&base[..base.len().min(255)]);
        entries.push((inflected.as_str(), value));
    }
    let map = fst::Map::from_iter(entries)?;
    Ok((map.as_fst().as_bytes().to_vec(), bases))
}

/// The base form a value of the base-forms table points at.
pub fn base_at(bases: &str, value: u64) -> Option<&str> {
    let start = usize::try_from(value >> 8).ok()?;
    let len = usize::try_from(value & 0xff).ok()?;
    bases.get(start..start + len)
}

/// The most connotation lists a lexicon holds: one bit each in the flags table.
pub const MAX_LISTS: usize = 64;

/// The flags table: an `fst::Map` from every word of any list to a bitmask of the lists
/// (in the order given) that hold it, so that a word's connotations take one lookup.
pub fn flags_bytes<'a>(
    lists: impl IntoIterator<Item = &'a [String]>,
) -> Result<Vec<u8>, fst::Error> {
    let mut flags: std::collections::BTreeMap<&str, u64> = std::collections::BTreeMap::new();
    for (i, words) in lists.into_iter().enumerate().take(MAX_LISTS) {
        for word in words {
            *flags.entry(word.as_str()).or_default() |= 1 << i;
        }
    }
    Ok(fst::Map::from_iter(flags)?.as_fst().as_bytes().to_vec())
}

/// The `.txt` files of a connotation folder, sorted by name (the order lists take).
pub fn list_files(dir: &std::path::Path) -> std::io::Result<Vec<std::path::PathBuf>> {
    let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(dir)?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    Ok(files)
}
