//! Fuzz target `roundtrip`: see `iribulk_fuzz::roundtrip` (fuzz/src/checks.rs) for the property.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    iribulk_fuzz::roundtrip(data);
});
