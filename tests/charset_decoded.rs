//! `RecordDecoder::prepare_decoded` (text already decoded from a legacy charset, as the Python
//! package's `str` with `charset=`): its fast path against its slow twin, against `prepare` on
//! the bytes the text came from, and `column_of_decoded` against the position of a marker.

mod common;

use iribulk::charset::{Charset, CharsetSource, LegacyInput, QueryCharset, RecordDecoder};
use iribulk::InvalidUtf8;
use proptest::prelude::*;
use std::path::Path;

fn cs(label: &str) -> Charset {
    Charset::for_label(label.as_bytes()).unwrap_or_else(|| panic!("label {label}"))
}

fn decoder(label: &str, query: QueryCharset, to_uri: bool) -> RecordDecoder {
    let input = LegacyInput {
        source: CharsetSource::Fixed(cs(label)),
        query_charset: query,
    };
    RecordDecoder::new(input, None, InvalidUtf8::Error, to_uri)
}

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

/// Fast path, slow twin: the same answer and the same bytes.
fn both(d: &mut RecordDecoder, text: &str) -> (bool, Vec<u8>) {
    let mut fast = Vec::new();
    let f = d.prepare_decoded(text, &mut fast).unwrap();
    let mut slow = Vec::new();
    let s = d.prepare_decoded_naive(text, &mut slow).unwrap();
    assert_eq!((f, &fast), (s, &slow), "{text:?}");
    (f, fast)
}

const LEGACY: &[&str] = &[
    "shift_jis",
    "euc-jp",
    "gbk",
    "gb18030",
    "big5",
    "euc-kr",
    "windows-1251",
    "koi8-r",
    "windows-1252",
    "iso-8859-2",
    "windows-874",
    "windows-1258",
];

/// Every legacy row of the shared table: the text its bytes decode to, given as text, prepares
/// to what the bytes prepare to (decoding is the only step skipped), in to-uri (query rule) and
/// in the other modes.
#[test]
fn text_prepares_as_its_bytes() {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/charset_examples.tsv");
    let mut n = 0;
    for r in common::read_tsv(&p) {
        let (label, bytes) = (r[1].as_str(), hex(&r[2]));
        if !LEGACY.contains(&label) {
            continue;
        }
        for to_uri in [true, false] {
            let mut d = decoder(label, QueryCharset::Document, to_uri);
            let mut from_bytes = Vec::new();
            let Ok(decoded) = d.prepare(&bytes, &mut from_bytes) else {
                continue; // bad-charset: no text to give
            };
            let from_bytes = if decoded { from_bytes } else { bytes.clone() };
            // The NFC text of the bytes, by the decoder without the query rule.
            let mut plain = decoder(label, QueryCharset::Document, false);
            let mut text = Vec::new();
            if !plain.prepare(&bytes, &mut text).unwrap() {
                text = bytes.clone();
            }
            let text = String::from_utf8(text).unwrap();
            let (changed, prepared) = both(&mut d, &text);
            let prepared = if changed {
                prepared
            } else {
                text.as_bytes().to_vec()
            };
            assert_eq!(prepared, from_bytes, "{} to_uri={to_uri}", r[0]);
            n += 1;
        }
    }
    assert!(n > 100, "{n} rows compared");
}

#[test]
fn nfc_query_rule_and_pass_through() {
    let mut d = decoder("windows-1258", QueryCharset::Document, true);
    // ê + U+0323 is ệ after NFC (RFC 3987 §3.1 step 1b); windows-1258 cannot encode ệ in the
    // query (3987bis §3.5): the Encoding Standard's NCR, percent-encoded.
    let (changed, out) = both(&mut d, "http://a/Vi\u{ea}\u{323}t?q=Vi\u{ea}\u{323}t");
    assert!(changed);
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "http://a/Vi\u{1ec7}t?q=Vi%26%237879%3Bt"
    );
    // ASCII: nothing to do. UCS-based charsets: step 1c, nothing either.
    assert!(!both(&mut d, "http://a/b?c").0);
    let mut u = decoder("utf-16le", QueryCharset::Document, true);
    assert!(!u
        .prepare_decoded("http://a/e\u{301}", &mut Vec::new())
        .unwrap());
    // --query-charset utf-8 and the other modes: NFC only.
    for mut d in [
        decoder("shift_jis", QueryCharset::Utf8, true),
        decoder("shift_jis", QueryCharset::Document, false),
    ] {
        let (_, out) = both(&mut d, "http://a/?q=\u{691c}e\u{301}");
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "http://a/?q=\u{691c}\u{e9}"
        );
    }
    let mut d = decoder("shift_jis", QueryCharset::Document, true);
    let (_, out) = both(&mut d, "ftp://a/?q=\u{691c}");
    assert_eq!(String::from_utf8(out).unwrap(), "ftp://a/?q=\u{691c}");
    let (_, out) = both(&mut d, "http://a/?q=\u{691c}");
    assert_eq!(out, b"http://a/?q=%8C%9F");
}

/// `column_of_decoded` maps a byte of the prepared form back to the byte of the text where its
/// character (or NFC segment) starts: the marker `|`, found in the prepared form, maps to the
/// marker in the text.
#[test]
fn columns_of_markers() {
    let cases = [
        ("windows-1258", "http://a/Vi\u{ea}\u{323}t/|x"),
        ("windows-1258", "http://a/?q=Vi\u{ea}\u{323}t&|"),
        ("shift_jis", "http://a/\u{691c}\u{7d22}?q=\u{691c}\u{7d22}|"),
        ("euc-kr", "https://a/?\u{d55c}\u{ad6d}=\u{d55c}|#\u{d55c}"),
        ("koi8-r", "http://a/?q=\u{20ac}\u{20ac}|"),
    ];
    for (label, text) in cases {
        let mut d = decoder(label, QueryCharset::Document, true);
        let (changed, out) = both(&mut d, text);
        assert!(changed, "{text}");
        let at = out.iter().position(|&b| b == b'|').unwrap();
        assert_eq!(
            d.column_of_decoded(text, at),
            text.find('|').unwrap(),
            "{label} {text}"
        );
        // Every byte maps into the text, on a character boundary, in order.
        let mut last = 0;
        for k in 0..out.len() {
            let c = d.column_of_decoded(text, k);
            assert!(text.is_char_boundary(c) && c >= last, "{text} {k} -> {c}");
            last = c;
        }
    }
}

fn piece() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "a",
        "/",
        "?",
        "&",
        "=",
        "#",
        "%41",
        "\u{e9}",
        "e\u{301}",
        "\u{ea}\u{323}",
        "\u{691c}",
        "\u{d55c}",
        "\u{20ac}",
        "\u{1100}\u{1161}",
        "\u{212b}",
        "\u{f951}",
        " ",
        "\u{1f600}",
    ])
}

proptest! {
    /// Random text: fast path and slow twin agree, in every charset and both query rules.
    #[test]
    fn fast_equals_naive(
        scheme in prop::sample::select(vec!["http://h/", "HTTPS://h/", "ftp://h/", "", "//h/"]),
        body in prop::collection::vec(piece(), 0..24),
        label in prop::sample::select(LEGACY.to_vec()),
        utf8_query in any::<bool>(),
    ) {
        let q = if utf8_query { QueryCharset::Utf8 } else { QueryCharset::Document };
        let mut d = decoder(label, q, true);
        let text = format!("{scheme}{}", body.concat());
        both(&mut d, &text);
    }
}
