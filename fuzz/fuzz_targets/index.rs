//! libFuzzer target: any bytes as a pack index from a stranger's host (see `scryptic_tests::fuzz`).
#![no_main]

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| {
    scryptic_tests::fuzz::Target::Index.run(bytes);
});
