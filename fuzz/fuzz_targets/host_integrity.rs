//! Fuzz target `host_integrity`: see `iribulk_fuzz::host_integrity` (fuzz/src/checks.rs) and
//! `fuzz/src/integrity.rs` for the property (issue 16: a written line keeps its WHATWG host).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    iribulk_fuzz::host_integrity(data);
});
