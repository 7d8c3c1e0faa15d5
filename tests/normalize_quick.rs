//! The one-pass IRI form of normalize (issue #11, `normalize::quick_iri_form`) against its
//! twin, `Normalizer::new_full` (steps 0–9 as the module docs write them: step 0 writes its
//! URI, step 9 converts to a URI and back): the same bytes, outcome and error on every line of
//! every data set, on the synthetic sets, on every BMP code point (and a sample of the other
//! planes) raw and percent-encoded in each component, and on random lines — for the options
//! the quick form serves (`--level syntax`, the rung sets with percent but no IDN, scheme
//! or character rung, and `--level scheme` on crawl lines with an LDH host) and for others
//! (where only step 0's scan differs). The quick form must
//! also serve most of `intl_cldr` (it is not trivially "ask the full steps").

mod common;

use iribulk::convert::normalize::{
    quick_form_kind, Idn, Level, NormalizeOptions, Normalizer, Rungs,
};
use iribulk::host::Idna;
use proptest::prelude::*;

/// How many of [`option_sets`] (the first ones) the quick form serves (the fifth,
/// `--level scheme`, on crawl lines with an LDH host only).
const QUICK_SETS: usize = 5;

/// The option sets compared: those the quick form serves, then some it does not.
fn option_sets() -> Vec<NormalizeOptions> {
    let syntax = Rungs::level(Level::Syntax);
    let with = |rungs: Rungs, as_uri: bool| NormalizeOptions {
        rungs,
        as_uri,
        idna: Idna::Uts46,
    };
    vec![
        with(syntax, false),
        with(
            Rungs {
                case: false,
                ..syntax
            },
            false,
        ),
        with(
            Rungs {
                path: false,
                ..syntax
            },
            false,
        ),
        with(
            Rungs {
                percent: true,
                ..Rungs::default()
            },
            false,
        ),
        with(Rungs::level(Level::Scheme), false),
        // Not served by the quick form.
        with(syntax, true),
        with(
            Rungs {
                nfc: true,
                ..syntax
            },
            false,
        ),
        with(
            Rungs {
                idn: Some(Idn::Unicode),
                ..syntax
            },
            false,
        ),
    ]
}

/// The normalizer and its twin for each option set.
struct Pairs(Vec<(NormalizeOptions, Normalizer, Normalizer)>);

impl Pairs {
    fn new(sets: Vec<NormalizeOptions>) -> Self {
        Pairs(
            sets.into_iter()
                .map(|o| (o, Normalizer::new(o), Normalizer::new_full(o)))
                .collect(),
        )
    }

    /// Panics unless both give the same result for `line` under every option set.
    fn same(&mut self, line: &[u8]) {
        for (o, quick, full) in &mut self.0 {
            let (mut a, mut b) = (b"<".to_vec(), b"<".to_vec());
            let ra = quick.convert_into(line, &mut a);
            let rb = full.convert_into(line, &mut b);
            assert_eq!(
                (ra, String::from_utf8_lossy(&a)),
                (rb, String::from_utf8_lossy(&b)),
                "line {:?}, options {o:?}",
                String::from_utf8_lossy(line)
            );
        }
    }
}

/// Issue 11: the crawl pass percent-encodes the quiet characters after a line's authority
/// (zero-width, invisible, full-width ones) instead of sending the line through steps 0–9;
/// on lines with those and with the characters it must leave to the steps
/// (`quiet_test_lines`), every option set gives what steps 0–9 give, warnings included.
#[test]
fn quiet_characters_match_the_full_steps() {
    let mut pairs = Pairs::new(option_sets());
    let mut n = 0;
    iribulk::convert::normalize::quiet_test_lines(|line| {
        pairs.same(line);
        n += 1;
    });
    assert!(n > 5_000, "{n}");
}

#[test]
fn quick_form_matches_the_full_steps_on_every_dataset() {
    let Some(shared) = common::shared_dir() else {
        return;
    };
    // `--level syntax` (the default) on every line; the other option sets (the quick form's
    // variants, and those where only step 0's scan differs) on every fourth, for time in a
    // debug build.
    let mut quick = Pairs::new(option_sets().into_iter().take(1).collect());
    let mut others = Pairs::new(option_sets().into_iter().skip(1).collect());
    let dir = tempfile::tempdir().expect("temp dir");
    let mut files = common::dataset_files(&shared);
    for (na, bad, seed) in [("1.0", "0.0", "11"), ("0.10", "0.05", "7")] {
        let p = dir.path().join(format!("na{na}-bad{bad}.txt"));
        if !common::gen_dataset(&p, na, bad, seed) {
            return;
        }
        files.push(p);
    }
    for f in files {
        let bytes = std::fs::read(&f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        for (k, line) in common::lines(&bytes).enumerate() {
            quick.same(line);
            if k % 4 == 0 {
                others.same(line);
            }
        }
    }
}

#[test]
fn quick_form_serves_most_of_intl_cldr() {
    let Some(shared) = common::shared_dir() else {
        return;
    };
    let bytes = std::fs::read(shared.join("datasets/intl_cldr.txt")).expect("intl_cldr.txt");
    let (mut n, mut same, mut to_iri) = (0usize, 0usize, 0usize);
    for line in common::lines(&bytes).filter(|l| !l.is_empty()) {
        n += 1;
        match quick_form_kind(line) {
            "same" => same += 1,
            "to-iri" => to_iri += 1,
            _ => {}
        }
    }
    eprintln!("intl_cldr: {n} lines, {same} given back, {to_iri} through to-iri");
    // Measured at the change: 89,148 and 10,812 of 100,000 (the rest has a look-alike,
    // an invisible character or a capital in a host).
    assert!(same * 100 >= n * 80, "{same} of {n}");
    assert!(to_iri * 100 >= n * 5, "{to_iri} of {n}");
    // Its URIs (to-uri's output: percent-encoded text, hosts in ACE form): the quick form
    // decodes them, ACE hosts included (issue 11: an `xn--` label sent the line through
    // steps 0–9).
    use iribulk::Converter;
    let mut to_uri = iribulk::ToUri::new(iribulk::ToUriOptions::default());
    let (mut uris, mut ace, mut ace_quick, mut quick) = (0usize, 0usize, 0usize, 0usize);
    for line in common::lines(&bytes).filter(|l| !l.is_empty()) {
        let mut uri = Vec::new();
        if to_uri.convert_or_copy_into(line, &mut uri).is_err() {
            continue;
        }
        uris += 1;
        let served = quick_form_kind(&uri) != "full";
        quick += served as usize;
        if uri.windows(4).any(|w| w == b"xn--") {
            ace += 1;
            ace_quick += served as usize;
        }
    }
    eprintln!(
        "its URIs: {uris}, {quick} by the quick form; {ace} with an ACE host, {ace_quick} of them"
    );
    assert!(quick * 100 >= uris * 85, "{quick} of {uris}");
    assert!(
        ace > 10_000 && ace_quick * 100 >= ace * 85,
        "{ace_quick} of {ace}"
    );
}

/// Each code point `c`, raw and as `%HH` of its UTF-8 (upper and lower-case hex), in the
/// path, the query, the fragment, the userinfo and the host, and in a line without an
/// authority.
fn code_point_lines(c: char) -> Vec<Vec<u8>> {
    let raw = c.to_string();
    let mut b = [0u8; 4];
    let enc: String = c
        .encode_utf8(&mut b)
        .bytes()
        .map(|x| format!("%{x:02X}"))
        .collect();
    let enc_lower = enc.to_ascii_lowercase();
    [
        format!("http://h.example/a{raw}b/{enc}?q={raw}&r={enc}#f{raw}{enc}"),
        format!("https://u{raw}@x{raw}.example/{enc_lower}/x{raw}.html"),
        format!("foo:{raw}/{enc}?{raw}"),
    ]
    .into_iter()
    .map(String::into_bytes)
    .collect()
}

#[test]
fn quick_form_matches_the_full_steps_on_every_code_point() {
    // Three option sets the quick form serves: `--level syntax`, the percent rung alone and
    // `--level scheme` (the other rungs do not meet the characters; all sets run on the data
    // sets and the random lines).
    let sets = option_sets();
    let mut pairs = Pairs::new(vec![sets[0], sets[3], sets[4]]);
    // Every BMP code point (surrogates are no chars), every 61st of the other planes.
    let cps = (0x20u32..0x1_0000).chain((0x1_0000..=0x10_FFFF).step_by(61));
    for c in cps.filter_map(char::from_u32) {
        for line in code_point_lines(c) {
            pairs.same(&line);
        }
    }
}

/// Pieces of lines around what the quick form decides on: capitals, hex case, unreserved and
/// reserved `%HH`, dot segments, hosts (`--`, `%`, IP literals), clean characters, look-alikes
/// of delimiters, invisible ones, private use, bidi controls, truncated UTF-8 in `%HH`.
const PIECES: &[&str] = &[
    "a",
    "B",
    "é",
    "日本",
    "ب",
    "-",
    ".",
    "..",
    "/",
    "?",
    "#",
    "=",
    "&",
    "@",
    ":",
    "~",
    "%20",
    "%2F",
    "%2f",
    "%41",
    "%7E",
    "%25",
    "%C3%A9",
    "%c3%a9",
    "%E2%88%95",
    "%E2%80%8B",
    "%E2%80",
    "%C3",
    "%80",
    "%FF",
    "%F0%9F%98%80",
    "\u{2215}",
    "\u{200B}",
    "\u{200D}",
    "\u{202E}",
    "\u{E000}",
    "\u{A0}",
    "\u{3000}",
    "\u{FF0F}",
    "\u{1F600}",
    "\u{10FFFD}",
    "\u{F0000}",
    "\u{FDD0}",
    "\u{301}",
    " ",
    "\\",
    "^",
    "|",
    "[",
    "]",
    "xn--",
    "--",
];

/// Pieces that are not UTF-8 (a lone continuation, truncated sequences, 0xFF, a surrogate).
const NOT_UTF8: &[&[u8]] = &[b"\x80", b"\xC3", b"\xE2\x82", b"\xFF", b"\xED\xA0\x80"];

fn piece_line() -> impl Strategy<Value = Vec<u8>> {
    let scheme = prop::sample::select(&["http://", "HTTPS://", "foo:", "ftp://", ""][..]);
    let host = prop::sample::select(
        &[
            "example.com",
            "Example.com",
            "bücher.de",
            "BÜCHER.de",
            "xn--bcher-kva.de",
            "a--b.org",
            "xn--zz.de",
            "xn--80aaf1b5a.xn--p1ai",
            "XN--P1AI",
            "xn--a.xn--bcher-kva.de",
            "bü--x.de",
            "xn--bcher-kva.bücher.de",
            "xn--ls8h.la",
            "b%C3%BCcher.de",
            "[fe80::1]",
            "[FE80::1]",
            "例え.テスト",
            "\u{2215}x.com",
            "u@h.com",
            "h.com:8080",
            "",
        ][..],
    );
    // Bytes that are not UTF-8 (a lone continuation, a truncated sequence, 0xFF) now and then.
    let piece = prop_oneof![
        20 => prop::sample::select(PIECES).prop_map(|p| p.as_bytes().to_vec()),
        1 => prop::sample::select(NOT_UTF8).prop_map(<[u8]>::to_vec),
    ];
    let text = prop::collection::vec(piece, 0..12);
    (scheme, host, text).prop_map(|(s, h, t)| {
        let mut l = s.as_bytes().to_vec();
        if s.ends_with("//") {
            l.extend_from_slice(h.as_bytes());
            l.push(b'/');
        }
        l.extend(t.concat());
        l
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn quick_form_matches_the_full_steps_on_random_lines(line in piece_line()) {
        Pairs::new(option_sets()).same(&line);
    }

    #[test]
    fn quick_form_matches_the_full_steps_on_random_iris(line in common::iri_strategy()) {
        Pairs::new(option_sets()).same(&line);
    }
}

/// `Normalizer::convert_with_head` (the crawl line's authority from the Guard's head) against
/// `convert_into` and the full steps, with `LineHead::of` and the crawl head, on every data
/// set line (the first option set the quick form serves; every seventh line for the other
/// three) and on made lines.
#[test]
fn convert_with_head_matches_convert_into_and_the_full_steps() {
    let three = |o: NormalizeOptions| common::HeadTwins {
        with_head: Normalizer::new(o),
        into: Normalizer::new(o),
        naive: Normalizer::new_full(o),
        ctx: format!("{o:?}"),
    };
    let quick_sets = || option_sets().into_iter().take(QUICK_SETS);
    for o in quick_sets() {
        three(o).same_on_made(&[
            "https://example.com/a/b",
            "https://Example.com/a/b",
            "https://bücher.de/ä?ö#ü",
            "https://BÜCHER.de/x",
            "https://a--b.com/x",
            "https://h.com/a/./b",
            "https://h.com/a/../b",
            "https://h.com/a/..b/.c",
            "https://h.com/a#b#c",
            "https://h.com/a[b]",
            "https://h.com/\u{2215}",
            "https://h.com/a%C3%A9",
            "http://h.com/\u{200B}",
            // ASCII hosts that are no LDH name (`--level scheme`'s ToASCII fails or keeps
            // them: either way they stay as they are).
            "https://a_b.example/é",
            "https://-a.example/é",
            "https://example.com./é",
            "https://a..b/é",
            "https://é.example/x",
            "https://h.com",
            "https://h.com?é",
        ]);
    }
    let sets: Vec<_> = quick_sets().collect();
    let lines = common::heads_on_datasets(&sets, three, |_| None);
    if let Some(n) = lines {
        assert!(n > 100_000, "{n} lines");
    }
}
