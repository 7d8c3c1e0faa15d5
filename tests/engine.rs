//! The fast chunk path (`Worker::convert_chunk`: SIMD classification, clean runs passed
//! through) against its slow twin (`convert_chunk_naive`: every line through the converter),
//! for every classifier implementation: identical output bytes, issues and counts.

use iribulk::config::Repairs;
use iribulk::engine::{ChunkOut, EngineOptions, Filter, Mode, OnError, Worker};
use iribulk::error::ErrorKind;
use iribulk::simd::Impl;
use iribulk::{HostMode, InvalidUtf8, Level, Rungs};
use proptest::prelude::*;

mod common;

fn check(data: &[u8], opts: EngineOptions) {
    let what = format!("{:?}", String::from_utf8_lossy(data));
    common::assert_engine_twin(&what, data, opts, &Impl::ALL);
}

const LINES: &[&str] = &[
    "http://example.com/a/b?c=d#e",
    "https://www.example.org/",
    "module_product_detail.php?pid=1561",
    "#",
    "",
    "a_b:c",
    ":x",
    "1http://a/",
    "http://h:80/x",
    "http://h:8x/x",
    "//host:123",
    "mailto:someone@example.com",
    "http://bücher.de/ü",
    "/путь",
    "http://a b/",
    "http://a/%zz",
    "http://a/%41",
    "http://a/#b#c",
    "http://[::1]:80/",
    "http://[::g]/",
    "http://u@h@x/",
    "/\u{202E}",
    "/\u{E000}?\u{E000}",
    "x\ty\tz",
    "http://a/\u{1}",
    "http://a/\u{7F}",
    "a\rb",
    "http://a_b.bücher.de/",
    "\u{FEFF}http://bom/",
    "http://xn--bcher-kva.de/%C3%BC",
    "http://XN--99zt52a.example/%e2%80%ae",
    "foo://b%C3%BCcher/%41",
    "/%C0%AF%00",
    "http://my_site.com/",
    "/\u{5D0}b",
    // What normalize changes in clean lines (issue #11).
    "HTTP://Example.COM:080/a/./b/../c",
    "http://a.com",
    "http://a.com:/x",
    "foo:/a/../b",
    "http://xn--bcher-kva.de/x",
];

fn line_strategy() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        8 => prop::sample::select(LINES).prop_map(|s| s.as_bytes().to_vec()),
        1 => Just(vec![0xFF, b'a']),
        1 => "[a-z:/?#%@. ]{0,30}".prop_map(|s| s.into_bytes()),
        1 => prop::collection::vec(any::<u8>(), 0..20),
    ]
}

fn doc_strategy() -> impl Strategy<Value = Vec<u8>> {
    (
        prop::collection::vec((line_strategy(), 0..3u8), 0..40),
        any::<bool>(),
    )
        .prop_map(|(lines, final_nl)| {
            let mut v = Vec::new();
            let n = lines.len();
            for (i, (l, term)) in lines.into_iter().enumerate() {
                v.extend_from_slice(&l);
                if i + 1 < n || final_nl {
                    v.extend_from_slice(match term {
                        0 => b"\n",
                        1 => b"\r\n",
                        _ => b"\n",
                    });
                }
            }
            v
        })
}

fn opts_strategy() -> impl Strategy<Value = EngineOptions> {
    (
        (
            0..3u8,
            0..4u8,
            any::<bool>(),
            any::<bool>(),
            prop::option::of(0..3usize),
            1..200usize,
        ),
        (0..7u8, 0..3u8, 0..8u8),
    )
        .prop_map(
            |((oe, host, strict, pct, field, max), (mode, filter, repair))| {
                let mut o = EngineOptions {
                    mode: [
                        Mode::ToUri,
                        Mode::ToUri,
                        Mode::ToIri,
                        Mode::Check { uri_only: false },
                        Mode::LeiriToIri,
                        // Issue #11: normalize's shortcut (`normalize::is_normal_plain`).
                        Mode::Normalize {
                            rungs: Rungs::level(Level::Syntax),
                            as_uri: false,
                        },
                        Mode::Normalize {
                            rungs: Rungs::level(Level::Scheme),
                            as_uri: true,
                        },
                    ][mode as usize],
                    ..Default::default()
                };
                if matches!(o.mode, Mode::Check { .. }) {
                    o.filter =
                        [Filter::All, Filter::ValidOnly, Filter::InvalidOnly][filter as usize];
                }
                o.on_error = [OnError::Keep, OnError::Skip, OnError::Fail][oe as usize];
                o.to_uri = o
                    .to_uri
                    .host(
                        [
                            HostMode::Auto,
                            HostMode::Uts46,
                            HostMode::IDNA2003,
                            HostMode::Percent,
                        ][host as usize],
                    )
                    .strict(strict)
                    .invalid_utf8(if pct {
                        InvalidUtf8::Percent
                    } else {
                        InvalidUtf8::Error
                    })
                    // `--repair` (to-uri and leiri-to-iri; leiri-to-iri flags more bytes with it).
                    .repair(Repairs {
                        brackets: repair & 1 != 0,
                        percent: repair & 2 != 0,
                        hash: repair & 4 != 0,
                    });
                o.field = field.map(|k| (k, b'\t'));
                o.max_line_bytes = if max < 100 { max } else { 8 << 20 };
                o
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1500, .. ProptestConfig::default() })]
    #[test]
    fn fast_chunk_equals_naive_chunk(doc in doc_strategy(), opts in opts_strategy()) {
        check(&doc, opts);
    }
}

/// Every length of a clean line 0..=200, placed at every alignment against the 64-byte blocks,
/// with one flagged byte (or CR, or LF) at every position: the block walk must find exactly
/// the lines the naive loop finds.
#[test]
fn exhaustive_positions_and_alignments() {
    let opts = EngineOptions::default();
    let base: Vec<u8> = b"http://example.com/abcdefghijklmnopqrstuvwxyz0123456789/"
        .iter()
        .copied()
        .cycle()
        .take(200)
        .collect();
    for len in (0..=200).step_by(3) {
        for align in [0usize, 1, 31, 62, 63] {
            let mut doc = vec![b'a'; align];
            doc.push(b'\n');
            let start = doc.len();
            doc.extend_from_slice(&base[..len]);
            doc.extend_from_slice(b"\nhttp://next/\n");
            check(&doc, opts);
            for pos in 0..len {
                for b in [b' ', b'%', 0xC3, b'\r', b'\n', b'#', 0x01] {
                    let mut d = doc.clone();
                    d[start + pos] = b;
                    check(&d, opts);
                }
            }
        }
    }
}

#[test]
fn crlf_at_a_block_boundary() {
    // The CR is byte 63 of the first block and its LF byte 0 of the next one.
    let mut doc = vec![b'x'; 63];
    doc[0] = b'/';
    doc.extend_from_slice(b"\r\n/y\r\n");
    check(&doc, EngineOptions::default());
    let mut w = Worker::new(EngineOptions::default());
    let mut out = ChunkOut::default();
    w.convert_chunk(&doc, &mut out);
    assert!(out.issues.is_empty(), "{:?}", out.issues);
    assert_eq!(out.render(&doc), doc);
}

/// The walk converts a non-ASCII line, and the lines after it that need work, once it has
/// walked their 64 KiB stretch (`Worker::flush`, issue 11): a run of such lines (one of them
/// bad) ending at every third byte from 60 bytes before each of the first two stretch
/// boundaries to across them, under every `--on-error` (`fail` stops the chunk at the bad
/// line, whether it waits in the list or not). A walk that did not get its own line state
/// back after converting the list (the line it was in when the stretch ended) fails here.
#[test]
fn deferred_lines_around_stretch_boundaries() {
    const STRETCH: usize = 64 << 10;
    // Lines that pass inline: clean, and flagged ASCII already a URI (to-uri's test for
    // these would fail on two lines taken as one).
    let filler = b"http://example.com/a/b?c=d\nhttp://a/%41/x\n";
    let run: &[&[u8]] = &[
        "/путь/é\n".as_bytes(),
        b"http://a/%41\n", // flagged ASCII, converted: waits behind the non-ASCII line
        b"http://a/%zz\n", // bad
        "http://bücher.de/ü\n".as_bytes(),
    ];
    let run_len: usize = run.iter().map(|l| l.len()).sum();
    for boundary in [STRETCH, 2 * STRETCH] {
        for back in (0..run_len + 60).step_by(3) {
            let mut doc = Vec::new();
            while doc.len() + filler.len() <= boundary - back {
                doc.extend_from_slice(filler);
            }
            // Pad with one line to put the run exactly `back` bytes before the boundary.
            let pad = boundary - back - doc.len();
            if pad > 0 {
                doc.extend(std::iter::repeat_n(b'x', pad - 1));
                doc.push(b'\n');
            }
            assert_eq!(doc.len(), boundary - back);
            for l in run {
                doc.extend_from_slice(l);
            }
            for _ in 0..100 {
                doc.extend_from_slice(filler);
            }
            doc.extend_from_slice(run.concat().as_slice());
            let bad_at = boundary - back + run[0].len() + run[1].len();
            let bad_line = doc[..bad_at].iter().filter(|&&b| b == b'\n').count() as u64;
            for on_error in [OnError::Keep, OnError::Skip, OnError::Fail] {
                let opts = EngineOptions {
                    on_error,
                    ..EngineOptions::default()
                };
                check(&doc, opts);
                let mut w = Worker::new(opts);
                let mut out = ChunkOut::default();
                w.convert_chunk(&doc, &mut out);
                assert_eq!(out.failed, on_error == OnError::Fail);
                let bad = out.issues.first().expect("the bad line is reported");
                assert_eq!(bad.err.kind, ErrorKind::BadPercent, "{bad:?}");
                assert_eq!((bad.line, bad.start), (bad_line, bad_at), "{bad:?}");
            }
        }
    }
}

#[test]
fn field_mode_converts_only_the_field() {
    let o = EngineOptions {
        field: Some((1, b'\t')),
        ..Default::default()
    };
    let doc = "a é\thttp://bücher.de/é\tz é\nonly-one-field\n".as_bytes();
    let mut w = Worker::new(o);
    let mut out = ChunkOut::default();
    w.convert_chunk(doc, &mut out);
    assert_eq!(
        String::from_utf8(out.render(doc)).unwrap(),
        "a é\thttp://xn--bcher-kva.de/%C3%A9\tz é\nonly-one-field\n"
    );
    assert_eq!(out.issues.len(), 1);
    assert_eq!(out.issues[0].err.kind.code(), "missing-field");
    check(doc, o);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 20000, .. ProptestConfig::default() })]
    /// The SWAR shortcut of the clean path agrees with the real splitter on clean lines.
    #[test]
    fn is_plain_equals_its_naive_twin(s in "(https?:|[a-z1+._:-]{0,4}:)?(//)?[a-z0-9.:/?#_!~-]{0,40}") {
        let b = s.as_bytes();
        prop_assert_eq!(iribulk::grammar::validate::is_plain(b), iribulk::grammar::validate::is_plain_naive(b), "{:?}", s);
    }
}

/// A drive letter with dot segments in a `file` URL is `drive-letter-reference` (the Guard,
/// RFC 8089 Appendix E.2 with RFC 3986 §5.2.4) on the fast path too: `integrity::quick_ok`
/// once let `file:///C:/a/../../b` pass through unchecked in to-uri, to-iri and leiri-to-iri
/// (found by this file's property test). Every mode, fast against naive, and the error seen.
#[test]
fn drive_letter_with_dot_segments_on_every_path() {
    // `file:///C:/a/../b` keeps its drive letter both ways (refused before a QA sweep found
    // the rule too broad); `../..` pops it for RFC 3986 only.
    let doc =
        b"file:///C:/a/../../b\nfile:///c|/./x\nfile:/D:/..\nfile:///C:/a/b\nfile:///a/../b\n\
file:///x:y/../z\nfile://h/C:/x\nfile:///C:/a/../b\n";
    for mode in [
        Mode::ToUri,
        Mode::ToIri,
        Mode::Check { uri_only: false },
        Mode::LeiriToIri,
        Mode::Normalize {
            rungs: Rungs::level(Level::Syntax),
            as_uri: false,
        },
    ] {
        let opts = EngineOptions {
            mode,
            ..EngineOptions::default()
        };
        check(doc, opts);
        let mut w = Worker::new(opts);
        let mut out = ChunkOut::default();
        w.convert_chunk(doc, &mut out);
        let drive: Vec<u64> = out
            .issues
            .iter()
            .filter(|i| !i.warning && i.err.kind == ErrorKind::DriveLetterReference)
            .map(|i| i.line)
            .collect();
        assert_eq!(drive, [0, 1, 2], "{mode:?}: {:?}", out.issues);
    }
}

/// The engine's fast path against its twin on every line of every data set, in the modes
/// whose shortcuts are not tested on the data sets elsewhere (check: tests/check_shortcut.rs;
/// normalize: tests/normalize_shortcut.rs): to-uri in each host mode, to-iri, leiri-to-iri
/// (with and without `--repair`). Issue #11: "byte-identical output and reports to their
/// scalar twins on every dataset, in every mode". The best classifier only (the classifiers
/// are compared with each other above).
#[test]
fn every_dataset_fast_equals_naive_in_every_mode() {
    let Some(shared) = common::shared_dir() else {
        return;
    };
    let best = iribulk::simd::Impl::best();
    let mut modes = vec![];
    for host in [HostMode::Auto, HostMode::Percent, HostMode::IDNA2003] {
        let mut o = EngineOptions::default();
        o.to_uri = o.to_uri.host(host);
        modes.push(o);
    }
    for mode in [Mode::ToIri, Mode::LeiriToIri] {
        modes.push(EngineOptions {
            mode,
            ..EngineOptions::default()
        });
    }
    let mut repair = EngineOptions {
        mode: Mode::LeiriToIri,
        ..EngineOptions::default()
    };
    repair.to_uri = repair.to_uri.repair(Repairs::ALL);
    modes.push(repair);
    let to_iri = EngineOptions {
        mode: Mode::ToIri,
        ..EngineOptions::default()
    };
    for f in common::dataset_files(&shared) {
        let bytes = std::fs::read(&f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        for &o in &modes {
            common::assert_engine_twin(&f.display().to_string(), &bytes, o, &[best]);
        }
        // to-iri's own input: the URIs that to-uri writes for the data set (ACE hosts,
        // `%` triplets; to-iri's one-pass crawl line answers most of them).
        let mut conv = iribulk::ToUri::new(iribulk::ToUriOptions::default());
        let mut uris = Vec::with_capacity(bytes.len() * 2);
        for line in bytes.split(|&b| b == b'\n') {
            let mark = uris.len();
            match iribulk::Converter::convert_into(&mut conv, line, &mut uris) {
                Ok(o) if o.written == iribulk::Written::Wrote => {}
                _ => {
                    uris.truncate(mark);
                    uris.extend_from_slice(line);
                }
            }
            uris.push(b'\n');
        }
        let name = format!("{} as URIs", f.display());
        common::assert_engine_twin(&name, &uris, to_iri, &[best]);
    }
}
