//! Legacy-charset input (issue 12): the vectors of tests/data/charset_examples.tsv (written by
//! scripts/gen-charset-vectors with Python's codecs, an encoder independent of encoding_rs),
//! the decoder against its mapped slow twin, the converter against a composition of the public
//! pieces, columns of errors in the original bytes, and the UTF-16 reader.

mod common;

use iribulk::charset::{
    convert_legacy_line, BadCharset, Charset, LegacyConverter, LegacyError, LegacyOptions,
    QueryCharset, Utf16Reader,
};
use iribulk::{iri_to_uri_with, InvalidUtf8, ToUri, ToUriOptions};
use proptest::prelude::*;
use std::io::{BufRead, BufReader};
use std::path::Path;

fn cs(label: &str) -> Charset {
    Charset::for_label(label.as_bytes()).unwrap_or_else(|| panic!("label {label}"))
}

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

fn rows() -> Vec<Vec<String>> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/charset_examples.tsv");
    common::read_tsv(&p)
}

/// What a result looks like in the TSV: the URI, or `error:CODE@COLUMN`.
fn show(r: Result<String, LegacyError>) -> String {
    match r {
        Ok(s) => s,
        Err(e) => format!("error:{}@{}", e.code(), e.column()),
    }
}

/// The conversion composed from the public pieces, with the slow decoder twin: decode + NFC,
/// the 3987bis §3.5 query rule by hand, then the existing to-uri converter. Columns of errors
/// are mapped with the twin's map (the query rule only touches non-ASCII characters, so a
/// converter error in the rewritten line before the query is at the same text offset).
fn composed(line: &[u8], c: Charset, opts: ToUriOptions) -> Result<String, LegacyError> {
    let mut text = String::new();
    let mut map = Vec::new();
    c.decode_line_mapped(line, opts.invalid_utf8, &mut text, &mut map)
        .map_err(LegacyError::BadCharset)?;
    let (before, rest) = match text.find(['?', '#']) {
        Some(i) if text.as_bytes()[i] == b'?' => text.split_at(i + 1),
        _ => (text.as_str(), ""),
    };
    let (query, after) = rest.split_at(rest.find('#').unwrap_or(rest.len()));
    let scheme = before.split_once(':').map(|(s, _)| s.to_ascii_lowercase());
    let http = matches!(scheme.as_deref(), Some("http" | "https"));
    let mut rewritten = before.as_bytes().to_vec();
    if http && !c.is_ucs_based() {
        c.encode_query(query, &mut rewritten);
    } else {
        rewritten.extend_from_slice(query.as_bytes());
    }
    rewritten.extend_from_slice(after.as_bytes());
    let rewritten = String::from_utf8(rewritten).unwrap();
    iri_to_uri_with(&rewritten, opts)
        .map(|s| s.into_owned())
        .map_err(|mut e| {
            // Only the error codes are compared for errors inside a rewritten query.
            e.offset = map[e.offset.min(map.len() - 1)];
            LegacyError::Convert(e)
        })
}

#[test]
fn vectors_from_an_independent_encoder() {
    let rows = rows();
    assert!(rows.len() >= 80, "only {} rows", rows.len());
    let mut labels = std::collections::BTreeSet::new();
    let mut wrong: Vec<String> = Vec::new();
    for r in &rows {
        let (id, label, input, expected) = (&r[0], &r[1], hex(&r[2]), &r[3]);
        let c = cs(label);
        labels.insert(c.name());
        let got = show(convert_legacy_line(&input, c, LegacyOptions::default()));
        let twin = show(composed(&input, c, ToUriOptions::default()));
        if got != *expected || twin != *expected {
            wrong.push(format!(
                "{id}: got {got}, composed {twin}, expected {expected}"
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} rows differ:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
    for name in [
        "Shift_JIS",
        "EUC-JP",
        "GBK",
        "gb18030",
        "Big5",
        "EUC-KR",
        "windows-1251",
        "KOI8-R",
        "windows-1252",
        "ISO-8859-2",
        "windows-874",
        "windows-1258",
        "UTF-16LE",
        "UTF-16BE",
    ] {
        assert!(labels.contains(name), "no vector for {name}");
    }
}

#[test]
fn utf16_vectors_through_the_reader() {
    let mut n = 0;
    for r in rows().iter().filter(|r| r[1].starts_with("utf-16")) {
        let (label, input, expected) = (&r[1], hex(&r[2]), &r[3]);
        let c = cs(label);
        let nl: &[u8] = if c.name() == "UTF-16LE" {
            b"\n\0"
        } else {
            b"\0\n"
        };
        // Two copies of the line, the second after a BOM-less line end, the first after a BOM
        // that names the declared byte order.
        let bom: &[u8] = if c.name() == "UTF-16LE" {
            b"\xFF\xFE"
        } else {
            b"\xFE\xFF"
        };
        let stream = [bom, &input, nl, &input, nl].concat();
        let mut reader = BufReader::with_capacity(7, Utf16Reader::new(&stream[..], c));
        for _ in 0..2 {
            let mut line = Vec::new();
            reader.read_until(b'\n', &mut line).unwrap();
            assert_eq!(line.pop(), Some(b'\n'));
            let got = match std::str::from_utf8(&line) {
                Ok(s) => iri_to_uri_with(s, ToUriOptions::default())
                    .map(|s| s.into_owned())
                    .unwrap_or_else(|e| format!("error:{}@{}", e.kind.code(), e.offset)),
                Err(e) => format!("error:invalid-utf8@{}", e.valid_up_to()),
            };
            if expected.starts_with("error:") {
                // An unpaired surrogate becomes 0xFF: invalid-utf8 in the UTF-8 line.
                assert!(got.starts_with("error:invalid-utf8@"), "{}: {got}", r[0]);
            } else {
                assert_eq!(&got, expected, "{}", r[0]);
            }
            n += 1;
        }
        let mut rest = Vec::new();
        reader.read_until(b'\n', &mut rest).unwrap();
        assert!(rest.is_empty());
    }
    assert!(n >= 10);
}

#[test]
fn utf16_reader_bom_overrides_the_label_and_counts_malformed() {
    // A UTF-16BE BOM on input declared UTF-16LE.
    let mut src = vec![0xFE, 0xFF];
    for u in "http://a/\u{e9}\n".encode_utf16() {
        src.extend_from_slice(&u.to_be_bytes());
    }
    src.extend_from_slice(&[0xD8, 0x00, 0x00, b'x', 0x00, b'\n', 0x00]); // lone surrogate, odd end
    let mut r = Utf16Reader::new(&src[..], cs("utf-16le"));
    let mut out = Vec::new();
    std::io::Read::read_to_end(&mut r, &mut out).unwrap();
    assert_eq!(out, b"http://a/\xC3\xA9\n\xFFx\n\xFF");
    assert_eq!(r.malformed(), 2);
}

#[test]
fn bad_byte_leniency_is_the_invalid_utf8_knob() {
    let line = b"http://example.jp/\x93\xfa\x81 x?q=\x93\xfa";
    let c = cs("shift_jis");
    assert_eq!(
        convert_legacy_line(line, c, LegacyOptions::default()),
        Err(LegacyError::BadCharset(BadCharset { column: 20 }))
    );
    let opts = LegacyOptions {
        to_uri: ToUriOptions::default().invalid_utf8(InvalidUtf8::Percent),
        ..Default::default()
    };
    let mut conv = LegacyConverter::new(c, opts);
    let mut out = Vec::new();
    let o = conv.convert_into(line, &mut out).unwrap();
    // The bad byte keeps its value as %81; the space after it is a repair as usual.
    assert_eq!(out, b"http://example.jp/%E6%97%A5%81%20x?q=%93%FA");
    assert_eq!(o.repairs, 2);
}

#[test]
fn query_charset_utf8_turns_the_rule_off() {
    let line = b"http://example.jp/?q=\x93\xfa";
    let c = cs("sjis");
    let on = convert_legacy_line(line, c, LegacyOptions::default()).unwrap();
    assert_eq!(on, "http://example.jp/?q=%93%FA");
    let opts = LegacyOptions {
        query_charset: QueryCharset::Utf8,
        ..Default::default()
    };
    let off = convert_legacy_line(line, c, opts).unwrap();
    assert_eq!(off, "http://example.jp/?q=%E6%97%A5");
}

#[test]
fn errors_and_warnings_point_at_original_bytes() {
    // 日本 is 4 bytes in Shift_JIS and 6 in UTF-8: the bad percent-encoding is at column 22 of
    // the input, 24 of the decoded text.
    let c = cs("shift_jis");
    let e = convert_legacy_line(
        b"http://example.jp/\x93\xfa\x96\x7b%zz",
        c,
        Default::default(),
    )
    .unwrap_err();
    assert_eq!((e.code(), e.column()), ("bad-percent", 22));
    // ...also after a query rewritten by the 3987bis rule (%93%FA is longer than 日).
    let e = convert_legacy_line(b"http://e.jp/?\x93\xfa=\x93\xfa#a#b", c, Default::default())
        .unwrap_err();
    assert_eq!((e.code(), e.column()), ("extra-hash", 20));
    // A warning (private use: x-user-defined decodes 80..FF to U+F780..U+F7FF) in the path.
    let mut conv = LegacyConverter::new(cs("x-user-defined"), Default::default());
    let mut out = Vec::new();
    let o = conv.convert_into(b"http://a/\xe9\x80", &mut out).unwrap();
    assert_eq!(o.warnings, 2);
    assert_eq!(o.first_warning.unwrap().offset, 9);
    // NFC: a composed segment maps to its first byte (windows-1258 e + U+0300 + C1 control).
    let e = convert_legacy_line(
        b"http://a/e\xcc\x81",
        cs("windows-1258"),
        Default::default(),
    )
    .unwrap_err();
    assert_eq!((e.code(), e.column()), ("control-char", 11));
}

#[test]
fn ascii_lines_never_reach_the_decoder() {
    for label in [
        "shift_jis",
        "gb18030",
        "windows-1252",
        "big5",
        "euc-kr",
        "koi8-r",
    ] {
        let c = cs(label);
        for line in [
            &b"http://example.com/a b?c=d#e"[..],
            b"http://example.com/%zz",
            b"",
        ] {
            assert!(!c.needs_decode(line));
            let mut a = Vec::new();
            let mut b = Vec::new();
            let ra = LegacyConverter::new(c, Default::default()).convert_into(line, &mut a);
            let rb = ToUri::new(ToUriOptions::default()).convert_into(line, &mut b);
            assert_eq!(ra.map_err(|e| e.column()), rb.map_err(|e| e.offset));
            assert_eq!(a, b);
        }
    }
}

const LABELS: &[&str] = &[
    "shift_jis",
    "euc-jp",
    "iso-2022-jp",
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
    "x-user-defined",
    "utf-16le",
    "utf-16be",
];

/// Random lines: mostly bytes that matter to multi-byte decoders, some ASCII delimiters.
fn line_strategy() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(
        prop_oneof![
            4 => 0x80u8..=0xFF,
            2 => prop::sample::select(b"/?#%=&:@a0 \x1b$(BJ".to_vec()),
            1 => any::<u8>(),
        ],
        0..40,
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// The fast decoder and its mapped twin give identical bytes, identical errors, and a map
    /// that is one column per output byte (plus the end), non-decreasing, within the line.
    #[test]
    fn decode_fast_equals_mapped_twin(
        li in 0..LABELS.len(),
        line in line_strategy(),
        pct in any::<bool>(),
    ) {
        let c = cs(LABELS[li]);
        let bad = if pct { InvalidUtf8::Percent } else { InvalidUtf8::Error };
        let (mut fast, mut slow, mut map) = (String::new(), String::new(), Vec::new());
        let rf = c.decode_line(&line, bad, &mut fast);
        let rs = c.decode_line_mapped(&line, bad, &mut slow, &mut map);
        prop_assert_eq!(rf, rs);
        if rf.is_ok() {
            prop_assert_eq!(&fast, &slow);
            prop_assert_eq!(map.len(), slow.len() + 1);
            prop_assert!(map.windows(2).all(|w| w[0] <= w[1]), "{:?}", map);
            prop_assert_eq!(*map.last().unwrap(), line.len());
            prop_assert!(map[..slow.len()].iter().all(|&m| m < line.len()));
        }
    }

    /// The converter against the composition of the public pieces, on IRIs of random text
    /// encoded in each charset (the encoder writes NCRs for what it cannot represent).
    #[test]
    fn converter_equals_composition(
        li in 0..LABELS.len(),
        scheme in prop::sample::select(vec!["http://", "HTTPS://", "ftp://", "urn:", ""]),
        path in "[a-z/\u{e9}\u{3042}-\u{3093}\u{4e00}-\u{4e20}\u{430}-\u{44f}\u{e01}-\u{e30} ]{0,8}",
        query in proptest::option::of("[a-z=&\u{e9}\u{3042}-\u{3093}\u{4e00}-\u{4e20}\u{430}-\u{44f}%]{0,8}"),
    ) {
        let c = cs(LABELS[li]);
        let text = format!(
            "{scheme}example.org/{path}{}",
            query.map(|q| format!("?{q}")).unwrap_or_default()
        );
        let (bytes, _, _) = c.encoding().encode(&text);
        let got = convert_legacy_line(&bytes, c, LegacyOptions::default());
        let want = composed(&bytes, c, ToUriOptions::default());
        match (&got, &want) {
            (Ok(g), Ok(w)) => prop_assert_eq!(g, w),
            (Err(g), Err(w)) => prop_assert_eq!(g.code(), w.code()),
            _ => prop_assert!(false, "{:?} vs {:?}", got, want),
        }
    }
}

/// The examples of README's "Legacy charsets" section.
#[test]
fn readme_examples() {
    let rows: &[(&str, &[u8], &str)] = &[
        (
            "shift_jis",
            "http://example.jp/日本語?q=検索".as_bytes(),
            "http://example.jp/%E6%97%A5%E6%9C%AC%E8%AA%9E?q=%8C%9F%8D%F5",
        ),
        (
            "gbk",
            "http://example.cn/p?q=搜索&n=1".as_bytes(),
            "http://example.cn/p?q=%CB%D1%CB%F7&n=1",
        ),
        (
            "big5",
            "http://example.tw/p?q=搜尋".as_bytes(),
            "http://example.tw/p?q=%B7%6A%B4%4D",
        ),
        (
            "euc-kr",
            "http://example.kr/p?q=검색".as_bytes(),
            "http://example.kr/p?q=%B0%CB%BB%F6",
        ),
        (
            "windows-1251",
            "http://example.ru/p?q=поиск".as_bytes(),
            "http://example.ru/p?q=%EF%EE%E8%F1%EA",
        ),
        (
            "windows-1251",
            "ftp://example.ru/p?q=поиск".as_bytes(),
            "ftp://example.ru/p?q=%D0%BF%D0%BE%D0%B8%D1%81%D0%BA",
        ),
        (
            "windows-1252",
            "http://example.fr/café?q=crème".as_bytes(),
            "http://example.fr/caf%C3%A9?q=cr%E8me",
        ),
        (
            "windows-1258",
            b"http://example.vn/?q=\xea\xec",
            "http://example.vn/?q=%26%237871%3B",
        ),
        (
            "utf-16le",
            "http://example.de/p?q=ü".as_bytes(),
            "http://example.de/p?q=%C3%BC",
        ),
        (
            "shift_jis",
            b"http://example.jp/\x93\xfa\x81 x",
            "error:bad-charset@20",
        ),
    ];
    for &(label, text, want) in rows {
        let c = cs(label);
        // Text rows are given as UTF-8 and encoded here; byte rows are already in the charset.
        let bytes = match std::str::from_utf8(text) {
            Ok(s) if !label.starts_with("windows-1258") => c.encoding().encode(s).0.into_owned(),
            _ => text.to_vec(),
        };
        let bytes = if c.name() == "UTF-16LE" {
            std::str::from_utf8(text)
                .unwrap()
                .encode_utf16()
                .flat_map(u16::to_le_bytes)
                .collect()
        } else {
            bytes
        };
        assert_eq!(
            show(convert_legacy_line(&bytes, c, Default::default())),
            want,
            "{label}"
        );
    }
}
