//! Fuzz target `idna_host`: see `iribulk_fuzz::idna_host` (fuzz/src/checks.rs) for the property.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    iribulk_fuzz::idna_host(data);
});
