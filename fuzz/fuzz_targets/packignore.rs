//! libFuzzer target: any bytes as a pack's `.packignore` (see `scryptic_tests::fuzz`).
#![no_main]

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| {
    scryptic_tests::fuzz::Target::PackIgnore.run(bytes);
});
