//! libFuzzer target: any bytes as a pack's scenario, `tests/*.ron` (see `scryptic_tests::fuzz`).
#![no_main]

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| {
    scryptic_tests::fuzz::Target::Scenario.run(bytes);
});
