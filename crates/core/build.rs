//! Compiles the shipped lexicon (`../../lexicon/`) into fst bytes that the runtime includes, so
//! that loading the English lexicon costs nothing at run time.

#[path = "src/lexicon/listfile.rs"]
#[allow(dead_code)]
mod listfile;

#[path = "src/lexicon/compile.rs"]
#[allow(dead_code)]
mod compile;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    let manifest =
        PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let lexicon = manifest.join("../../lexicon");
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    for watched in ["words.txt", "base-forms.txt", "connotations"] {
        println!("cargo:rerun-if-changed={}", lexicon.join(watched).display());
    }

    let words = read_list(&lexicon.join("words.txt"));
    write(
        &out.join("words.fst"),
        &compile::set_bytes(&words).expect("words build an fst"),
    );

    let mut lists = Vec::new();
    let mut list_words: Vec<Vec<String>> = Vec::new();
    let files = compile::list_files(&lexicon.join("connotations"))
        .expect("lexicon/connotations is readable");
    for file in files {
        let file_name = file
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        let name = listfile::list_name(file_name)
            .unwrap_or_else(|| panic!("{}: list names are lowercase", file.display()));
        let words = read_list(&file);
        write(
            &out.join(format!("list-{name}.fst")),
            &compile::set_bytes(&words).expect("a list builds an fst"),
        );
        lists.push(name.to_string());
        list_words.push(words);
    }
    let flags =
        compile::flags_bytes(list_words.iter().map(Vec::as_slice)).expect("the flags build an fst");
    write(&out.join("connotation-flags.fst"), &flags);

    let base_forms_path = lexicon.join("base-forms.txt");
    let text =
        std::fs::read_to_string(&base_forms_path).expect("lexicon/base-forms.txt is readable");
    let (pairs, problems) = listfile::parse_base_forms(&text);
    fail_on(&base_forms_path, &problems);
    let (map, bases) = compile::base_forms_bytes(&pairs).expect("base forms build an fst");
    write(&out.join("base-forms.fst"), &map);
    write(&out.join("bases.txt"), bases.as_bytes());

    let mut code = String::new();
    code.push_str("/// The shipped dictionary, as `fst::Set` bytes.\n");
    code.push_str(
        "pub static WORDS: &[u8] = include_bytes!(concat!(env!(\"OUT_DIR\"), \"/words.fst\"));\n",
    );
    code.push_str("/// The shipped connotation lists: name and `fst::Set` bytes.\n");
    code.push_str("pub static LISTS: &[(&str, &[u8])] = &[\n");
    for name in &lists {
        let _ = writeln!(
            code,
            "    (\"{name}\", include_bytes!(concat!(env!(\"OUT_DIR\"), \"/list-{name}.fst\"))),"
        );
    }
    code.push_str("];\n");
    code.push_str(
        "/// Each list word's bitmask of the lists in `LISTS` that hold it: `fst::Map` bytes.\n",
    );
    code.push_str("pub static FLAGS: &[u8] = include_bytes!(concat!(env!(\"OUT_DIR\"), \"/connotation-flags.fst\"));\n");
    code.push_str("/// Irregular base forms: `fst::Map` bytes into `BASES`.\n");
    code.push_str("pub static BASE_FORMS: &[u8] = include_bytes!(concat!(env!(\"OUT_DIR\"), \"/base-forms.fst\"));\n");
    code.push_str("/// The base forms that `BASE_FORMS` points into.\n");
    code.push_str(
        "pub static BASES: &str = include_str!(concat!(env!(\"OUT_DIR\"), \"/bases.txt\"));\n",
    );
    write(&out.join("lexicon_data.rs"), code.as_bytes());
}

fn read_list(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let parsed = listfile::parse_word_list(&text);
    fail_on(path, &parsed.problems);
    parsed.words
}

/// The shipped lists must be clean: any problem, even a warning, stops the build.
fn fail_on(path: &Path, problems: &[listfile::ListProblem]) {
    if let Some(p) = problems.first() {
        panic!(
            "{}:{}:{}: {} ({} problems in all)",
            path.display(),
            p.line,
            p.column,
            p.message,
            problems.len()
        );
    }
}

fn write(path: &Path, bytes: &[u8]) {
    std::fs::write(path, bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
}
