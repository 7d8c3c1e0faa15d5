//! The Guard's line head (issue 11, fourth pass): `LineHead::of` and the `*_at` checks fed from
//! it answer exactly like the functions that scan the line themselves (`scheme_of`,
//! `components::split`, `missing_host`, `browser_stripped`, `backslash_authority`,
//! `file_port`, `host_of`), on every line of every data set, on the lines of the unit tests
//! and on random lines made of the bytes these checks look at.

mod common;

use iribulk::convert::integrity::{
    backslash_authority, backslash_authority_at, browser_stripped, browser_stripped_at, file_port,
    file_port_at, has_tab_newline_or_backslash, host_of, missing_host, missing_host_at, LineHead,
};
use proptest::prelude::*;

/// Every fused answer against its twin on `line`; panics on the first difference.
fn same_answers(line: &[u8]) {
    let h = LineHead::of(line);
    let show = || format!("{:?}", String::from_utf8_lossy(line));
    assert_eq!(h, LineHead::naive(line), "{}", show());
    assert_eq!(missing_host_at(line, &h), missing_host(line), "{}", show());
    for base_special in [false, true] {
        assert_eq!(
            browser_stripped_at(line, base_special, &h),
            browser_stripped(line, base_special),
            "{} base_special={base_special}",
            show()
        );
    }
    assert_eq!(
        backslash_authority_at(line, &h),
        backslash_authority(line),
        "{}",
        show()
    );
    assert_eq!(file_port_at(line, &h), file_port(line), "{}", show());
    assert_eq!(h.host(line), host_of(line), "{}", show());
    // The crawl head: `LineHead::of`'s but for what it did not scan, and the same answers
    // (none: its lines have nothing for these checks to find).
    if let Some(c) = LineHead::crawl(line) {
        let want = LineHead {
            tab_newline_or_backslash: true,
            plain_crawl: true,
            ..h.clone()
        };
        assert_eq!(c, want, "{}", show());
        assert_eq!(missing_host_at(line, &c), missing_host(line), "{}", show());
        assert_eq!(missing_host(line), None, "{}", show());
        for base_special in [false, true] {
            assert_eq!(
                browser_stripped_at(line, base_special, &c),
                None,
                "{}",
                show()
            );
            assert_eq!(browser_stripped(line, base_special), None, "{}", show());
        }
        assert_eq!(backslash_authority_at(line, &c), None, "{}", show());
        assert_eq!(backslash_authority(line), None, "{}", show());
        assert_eq!(file_port_at(line, &c), file_port(line), "{}", show());
        assert_eq!(c.host(line), host_of(line), "{}", show());
        CRAWL_HEADS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }
}

/// How many lines `LineHead::crawl` answered, so that the data-set test can say it tried it.
static CRAWL_HEADS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// The lines of the unit tests of `convert::integrity` and `grammar::components`, and more
/// made for each branch of the fused checks.
const MADE: &[&str] = &[
    "",
    "http:/x",
    "http:x",
    "http:///x",
    "HTTPS://:80/",
    "ws://u@/p",
    "ftp:",
    "http://a/",
    "file:///x",
    "foo:/x",
    "/x",
    "mailto:a@b",
    "http://a:80",
    "http://u@/x",
    " http://a/",
    "http://a ",
    "http://a/ ",
    "http://g\tood.com/",
    "ht\ttp://a/",
    "file:\t//good.com/x",
    "http://a/b\tc",
    "foo://a b ",
    " x",
    "\\\\x\t/",
    "\x01blob:https://a/",
    "blob:https://g\rood/",
    "blob:https://good/\r",
    "blob:https://good/a\tb",
    "blob:https:/\tgood.com/uuid",
    "http:\tgood.com/",
    "file://h:/x",
    "file://h/x",
    "FILE://h:8/x",
    "file://u@h:/x",
    "file:x",
    "blob:https://good.co\\m/uuid",
    "blob:https:\\//good.com/uuid",
    "blob:https://a.\\com/uuid",
    "blob:https://good.com/a\\b",
    "blob:foo://good.co\\m/uuid",
    "https://good.co\\m/uuid",
    "file:\\/h/x",
    "file:/\\h/x",
    "file:///x\\y",
    "file:///C:\\Users\\x",
    "file://h\\x",
    "file://\\x",
    "foo:\\\\h/x",
    "\\\\h/x",
    "https://good.com\\@evil.com/",
    "http://[::1]/",
    "http://[::1]:80/x",
    "http://[::1/",
    "http://a@b@c/",
    "Ws://h",
    "wSS://:/",
    "hTtP://a?b#c",
    "http:?q",
    "http:#f",
    "http://?q",
    "http://#f",
    "//h/p",
    "//:80/",
    "?x:y",
    "#a:b",
    "a/b:c",
    ":x",
    "https://b\u{FC}cher.de/",
    "http://pay\u{200D}pal.com/",
    "http://%31%32.%33/",
    "http://h\r\n",
    "http://h/0123456789abcdef\\",
    "http://h/0123456789abcde\t",
    "http://h/0123456789abcdef0123456789abcdef\n",
    "https://a.b/\\x/\t",
    "http://a.b?\r",
    "https://e.x#\x01",
    "http://a.b/x ",
    "http://a!$&'()*+,;=~_-.b/x",
    "https://a.b\\c/x",
    "https://a.b/x\ty\\z\r\nq",
];

#[test]
fn line_head_checks_match_twins_on_made_lines() {
    for l in MADE {
        same_answers(l.as_bytes());
    }
    // The block scan at every length and position (its 16-byte blocks and the remainder).
    for len in 0..40 {
        for pos in 0..len {
            for b in [
                b'\t',
                b'\r',
                b'\n',
                b'\\',
                b'\x0b',
                b'\x0c',
                b'|',
                b'\\' | 0x80,
            ] {
                let mut v = vec![b'a'; len];
                v[pos] = b;
                let want = matches!(b, b'\t' | b'\r' | b'\n' | b'\\');
                assert_eq!(has_tab_newline_or_backslash(&v), want, "{v:?}");
                same_answers(&v);
            }
        }
        assert!(!has_tab_newline_or_backslash(&vec![b'a'; len]));
    }
}

#[test]
fn line_head_checks_match_twins_on_datasets() {
    let Some(shared) = common::shared_dir() else {
        return;
    };
    let mut lines = 0;
    for f in common::dataset_files(&shared) {
        let bytes = std::fs::read(&f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        for line in bytes.split(|&b| b == b'\n') {
            same_answers(line);
            // With the CR of a CRLF file kept, as a reader that splits at LF alone sees it.
            let mut cr = line.to_vec();
            cr.push(b'\r');
            same_answers(&cr);
            lines += 1;
        }
    }
    assert!(lines > 300_000, "{lines}");
    let crawl = CRAWL_HEADS.load(std::sync::atomic::Ordering::Relaxed);
    assert!(crawl > 100_000, "{crawl}");
}

/// Pieces of lines: the schemes of the checks (in mixed case), every delimiter they look at,
/// TAB CR LF and space, other controls, and a few non-ASCII characters.
fn head_like() -> impl Strategy<Value = Vec<u8>> {
    let atoms: &[&str] = &[
        "http", "HTTPS", "hTtp", "ws", "WSS", "ftp", "file", "FiLe", "blob:", "foo", "c", ":", ":",
        "/", "//", "\\", "?", "#", "@", "[", "]", "%", "%2e", ".", "\t", "\r", "\n", " ", "\x01",
        "\x7f", "a", "h", "1", "80", "\u{E9}", "\u{FC}", "\u{AD}", "\u{5D0}", "\u{3002}",
    ];
    prop::collection::vec(prop::sample::select(atoms), 0..14).prop_map(|v| v.concat().into_bytes())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20_000))]
    #[test]
    fn line_head_checks_match_twins_on_random_lines(line in head_like()) {
        same_answers(&line);
    }
}
