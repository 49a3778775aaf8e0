//! libFuzzer target: any bytes as a release's signature file (see `scryptic_tests::fuzz`).
#![no_main]

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| {
    scryptic_tests::fuzz::Target::Signature.run(bytes);
});
