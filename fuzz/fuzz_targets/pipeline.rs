//! Fuzz target `pipeline`: see `iribulk_fuzz::pipeline` (fuzz/src/checks.rs) for the property.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    iribulk_fuzz::pipeline(data);
});
