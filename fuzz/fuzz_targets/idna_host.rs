//! Fuzz target `idna_host`: see `iribulk_fuzz::idna_host` (fuzz/src/checks.rs) for the property.
//! Also the UTS #46 fast path (`host::fast`, issue #11) against the `idna` crate: wherever the
//! fast path answers, in either direction, its answer is the crate's, byte for byte
//! (`fast::twin_check`, shared with `tests/uts46_fast.rs`). The bytes
//! are tried as a host (lossy UTF-8) and, so that most inputs reach the fast path, as a host
//! spelled with one character of [`ALPHABET`] per byte.
#![no_main]

use iribulk::host::fast;
use libfuzzer_sys::fuzz_target;

/// ASCII letters (both cases), digits, `-` and `.`; characters of the fast set from several
/// scripts and planes, among them combining marks of several classes (Thai U+0E35 ccc 0,
/// U+0E38 ccc 103, U+0E48 ccc 107; Devanagari U+093F ccc 0, U+094D ccc 9; U+0305 ccc 230)
/// and neutral characters (U+00B7, U+30FB, U+2010, U+1F600: not L, not R/AL/AN);
/// characters just outside it (NFC_Quick_Check = Maybe marks, right to left, joiners,
/// mapped, ignored, disallowed, other label dots).
const ALPHABET: &[char] = &[
    'a',
    'b',
    'k',
    'n',
    'x',
    'z',
    'A',
    'N',
    'X',
    '0',
    '1',
    '9',
    '-',
    '-',
    '.',
    '.',
    'ü',
    'ß',
    'é',
    'я',
    'λ',
    'ς',
    'ა',
    '例',
    'え',
    'テ',
    '한',
    'ก',
    'क',
    'ə',
    '\u{20000}',
    '\u{3D000}',
    '\u{E35}',
    '\u{E38}',
    '\u{E48}',
    '\u{93F}',
    '\u{94D}',
    '\u{305}',
    '\u{B7}',
    '\u{30FB}',
    '\u{2010}',
    '\u{1F600}',
    '\u{301}',
    '\u{1161}',
    '\u{0B3E}',
    '\u{5D0}',
    '\u{627}',
    '\u{200C}',
    '\u{200D}',
    '\u{AD}',
    'Ü',
    'ℌ',
    '\u{3002}',
    '\u{FFFD}',
    '_',
    '%',
];

fuzz_target!(|data: &[u8]| {
    iribulk_fuzz::idna_host(data);
    fast::twin_check(&String::from_utf8_lossy(data));
    let spelled: String = data
        .iter()
        .map(|&b| ALPHABET[b as usize % ALPHABET.len()])
        .collect();
    fast::twin_check(&spelled);
});
