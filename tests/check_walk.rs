//! `check`'s one walk over a non-ASCII line (issue 11, ninth pass): `check::scan_line` counts
//! the compatibility-character warnings and answers the right-to-left prefilter of RFC 3987
//! §4.2 by blocks of 64 code points, instead of a warning pass and a prefilter pass. Its twins
//! (the character-by-character warning pass and `may_contain_rtl`'s naive twin, through
//! `check::scan_twin_check`) must agree on every line of every data set and on random text
//! over the characters it decides on; and the checker that uses it must report what the naive
//! checker does on those random lines, in every host mode.

mod common;

use iribulk::convert::check::{scan_twin_check, CheckOptions, Checker};
use iribulk::{Converter as _, HostMode, ToUriOptions};
use proptest::prelude::*;

/// Every UTF-8 line of every data set through the walk and its twins.
#[test]
fn scan_matches_twins_on_every_data_set_line() {
    let Some(shared) = common::shared_dir() else {
        return;
    };
    let mut non_ascii = 0;
    for f in common::dataset_files(&shared) {
        let bytes = std::fs::read(&f).expect("data set");
        for line in bytes.split(|&b| b == b'\n') {
            let Ok(s) = std::str::from_utf8(line) else {
                continue;
            };
            scan_twin_check(s);
            non_ascii += !s.is_ascii() as usize;
        }
    }
    // intl_cldr.txt alone has 100,000 non-ASCII lines.
    assert!(non_ascii > 100_000, "{non_ascii}");
}

/// The pieces the walk decides on: ASCII delimiters and letters, plain letters of several
/// blocks (Latin, Cyrillic, CJK, Devanagari with its marks), right-to-left letters (Hebrew,
/// Arabic, presentation forms, 4-byte Cypriot and Adlam), the label dots, combining marks,
/// ZWJ/ZWNJ, U+200F, compatibility characters and a 4-byte emoji.
const PIECES: &[&str] = &[
    "a",
    "/",
    ".",
    "?q=",
    "&",
    "#",
    "é",
    "ж",
    "л",
    "日",
    "क",
    "\u{93F}",
    "\u{94D}",
    "א",
    "ش",
    "\u{64B}",
    "\u{FB1D}",
    "\u{FEFC}",
    "\u{10800}",
    "\u{1E900}",
    "\u{3002}",
    "\u{FF0E}",
    "\u{FF61}",
    "\u{301}",
    "\u{200C}",
    "\u{200D}",
    "\u{200F}",
    "²",
    "\u{FB01}",
    "Ａ",
    "\u{1F600}",
    "\u{E33}",
];

fn text() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(PIECES), 0..24).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// The walk against its twins on random text.
    #[test]
    fn scan_matches_twins(s in text()) {
        scan_twin_check(&s);
    }

    /// The checker (walk, prefilter skipped on lines without right-to-left characters)
    /// against the naive checker on random IRIs made of those pieces, in a host, a path, a
    /// query and a fragment, in every host mode.
    #[test]
    fn checker_matches_naive(host in text(), tail in text()) {
        let line = format!("http://{host}/{tail}");
        for mode in [HostMode::Auto, HostMode::Uts46, HostMode::IDNA2003, HostMode::Percent] {
            let opts = CheckOptions { to_uri: ToUriOptions::default().host(mode), uri_only: false };
            let (mut a, mut b) = (Vec::new(), Vec::new());
            let ra = Checker::new(opts).convert_or_copy_into(line.as_bytes(), &mut a);
            let rb = Checker::new_naive(opts).convert_or_copy_into(line.as_bytes(), &mut b);
            prop_assert_eq!((&ra, &a), (&rb, &b), "{:?} {:?}", line, mode);
        }
    }
}
