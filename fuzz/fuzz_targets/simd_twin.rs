//! Fuzz target `simd_twin`: see `iribulk_fuzz::simd_twin` (fuzz/src/checks.rs) for the property.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    iribulk_fuzz::simd_twin(data);
});
