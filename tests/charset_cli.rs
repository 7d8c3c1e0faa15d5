//! Legacy charsets wired into the CLI and the engine (issue 12, phase 2): the binary on files
//! encoded by the rows of tests/data/charset_examples.tsv (Python's codecs) in every mode that
//! takes IRIs, `--charset-field` with mixed charsets, unknown labels and missing fields, and the
//! fast path against its naive twin with a charset on, across chunk sizes and threads.

mod common;

use iribulk::charset::{Charset, CharsetSource, LegacyInput, QueryCharset};
use iribulk::engine::pipeline::{self, RunOptions};
use iribulk::engine::{ChunkOut, EngineOptions, Mode, OnError, Worker};
use iribulk::InvalidUtf8;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Output;

struct Row {
    id: String,
    label: String,
    input: Vec<u8>,
    expected: String,
}

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

fn rows() -> Vec<Row> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/charset_examples.tsv");
    let rows: Vec<Row> = common::read_tsv(&p)
        .into_iter()
        .map(|r| Row {
            id: r[0].clone(),
            label: r[1].clone(),
            input: hex(&r[2]),
            expected: r[3].clone(),
        })
        .collect();
    assert!(rows.len() > 80, "{} rows", rows.len());
    rows
}

fn cs(label: &str) -> Charset {
    Charset::for_label(label.as_bytes()).unwrap()
}

fn utf16(label: &str) -> bool {
    label.starts_with("utf-16")
}

/// A line terminator in the row's charset.
fn newline(label: &str) -> &'static [u8] {
    match label {
        "utf-16le" => b"\n\0",
        "utf-16be" => b"\0\n",
        _ => b"\n",
    }
}

fn run(args: &[&str], path: &Path) -> Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_iribulk"))
        .args(args)
        .arg(path)
        .output()
        .unwrap()
}

/// The report rows of a run (`--errors -` with the output in a file, so the report is on
/// stdout): (line, column, code), line and column 1-based.
fn report(o: &Output) -> Vec<(usize, usize, String)> {
    String::from_utf8(o.stdout.clone())
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| {
            let c: Vec<&str> = l.split('\t').collect();
            (
                c[1].parse().unwrap(),
                c[2].parse().unwrap(),
                c[3].to_string(),
            )
        })
        .collect()
}

/// The codes that are warnings in to-uri (the line is converted).
const WARNINGS: &[&str] = &["bidi-format", "private-use", "not-ucschar"];

/// One file per charset holding its rows, one per line.
fn by_label(rows: &[Row]) -> BTreeMap<String, Vec<&Row>> {
    let mut m: BTreeMap<String, Vec<&Row>> = BTreeMap::new();
    for r in rows {
        m.entry(r.label.clone()).or_default().push(r);
    }
    m
}

#[test]
fn to_uri_on_files_of_every_charset() {
    let dir = tempfile::tempdir().unwrap();
    let rows = rows();
    let groups = by_label(&rows);
    assert!(groups.len() >= 14, "{:?}", groups.keys());
    for (label, rs) in &groups {
        let input = dir.path().join(format!("{label}.txt"));
        let mut data = Vec::new();
        for r in rs {
            data.extend_from_slice(&r.input);
            data.extend_from_slice(newline(label));
        }
        std::fs::write(&input, &data).unwrap();
        let out = dir.path().join(format!("{label}.out"));
        let o = run(
            &[
                "-q",
                "--charset",
                label,
                "--errors",
                "-",
                "--out",
                out.to_str().unwrap(),
            ],
            &input,
        );
        let errs: Vec<_> = report(&o)
            .into_iter()
            .filter(|e| !WARNINGS.contains(&e.2.as_str()))
            .collect();
        let written = std::fs::read(&out).unwrap();
        let lines: Vec<&[u8]> = written.split(|&b| b == b'\n').collect();
        for (i, r) in rs.iter().enumerate() {
            match r.expected.strip_prefix("error:") {
                None => {
                    assert_eq!(
                        String::from_utf8_lossy(lines[i]),
                        r.expected,
                        "{} ({label})",
                        r.id
                    );
                    assert!(errs.iter().all(|e| e.0 != i + 1), "{}: {errs:?}", r.id);
                }
                Some(want) => {
                    let (code, col) = want.split_once('@').unwrap();
                    let got = errs.iter().find(|e| e.0 == i + 1);
                    let got = got.unwrap_or_else(|| panic!("{}: no error in {errs:?}", r.id));
                    if utf16(label) {
                        // A UTF-16 file is transcoded as a stream: the malformed sequence is
                        // the byte FF of the UTF-8 line, reported as invalid-utf8 (README).
                        assert_eq!(got.2, "invalid-utf8", "{}", r.id);
                    } else {
                        assert_eq!((got.2.as_str(), got.1 - 1), (code, col.parse().unwrap()));
                        // The line is kept as it was read: the original bytes.
                        assert_eq!(lines[i], &r.input[..], "{}", r.id);
                    }
                }
            }
        }
        assert_eq!(o.status.code(), Some(if errs.is_empty() { 0 } else { 3 }));
    }
}

/// The decoded (NFC) form of a row, by the library's slow twin; `None` for a bad row.
fn decoded(r: &Row) -> Option<String> {
    let mut s = String::new();
    let mut m = Vec::new();
    cs(&r.label)
        .decode_line_mapped(&r.input, InvalidUtf8::Error, &mut s, &mut m)
        .ok()?;
    Some(s)
}

/// In the modes that write IRIs or validate, a legacy file gives what its decoded, NFC, UTF-8
/// form gives without `--charset` (the query rule is to-uri's alone): line for line, with the
/// same error codes.
#[test]
fn other_modes_convert_the_decoded_line() {
    let dir = tempfile::tempdir().unwrap();
    let rows: Vec<Row> = rows()
        .into_iter()
        .filter(|r| !utf16(&r.label) && decoded(r).is_some())
        .collect();
    for (label, rs) in &by_label(&rows) {
        let legacy = dir.path().join(format!("{label}.txt"));
        let utf8 = dir.path().join(format!("{label}.utf8.txt"));
        let mut a = Vec::new();
        let mut b = Vec::new();
        for r in rs {
            a.extend_from_slice(&r.input);
            a.push(b'\n');
            b.extend_from_slice(decoded(r).unwrap().as_bytes());
            b.push(b'\n');
        }
        std::fs::write(&legacy, &a).unwrap();
        std::fs::write(&utf8, &b).unwrap();
        for mode in [
            &["--mode", "check"][..],
            &["--mode", "normalize"],
            &["--mode", "normalize", "--level", "scheme", "--as-uri"],
            &["--mode", "leiri-to-iri"],
            &["--query-charset", "utf-8"],
        ] {
            // Lines with errors are written as read (the original bytes): leave them out.
            let skip = ["-q", "--on-error", "skip"];
            let with: Vec<&str> = [&skip[..], &["--charset", label.as_str()], mode].concat();
            let got = run(&with, &legacy);
            let no_charset = mode != ["--query-charset", "utf-8"];
            let without: Vec<&str> = if no_charset {
                [&skip[..], mode].concat()
            } else {
                skip.to_vec()
            };
            let want = run(&without, &utf8);
            assert_eq!(
                String::from_utf8_lossy(&got.stdout),
                String::from_utf8_lossy(&want.stdout),
                "{label} {mode:?}"
            );
            assert_eq!(got.status.code(), want.status.code(), "{label} {mode:?}");
        }
    }
}

/// `--field` with a decoded record: where the mode passes the decoded field through
/// (`Written::Passthrough`, nothing written), the record is still written decoded, with the
/// fields around it; an undecoded record the mode leaves as it is stays as read.
#[test]
fn a_decoded_field_passed_through_is_written_decoded() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("in.txt");
    std::fs::write(
        &f,
        b"x\tHTTP://A/caf\xe9\ty\nx\thttp://a/b c\xe9\ny\thttp://a/plain\tz\n",
    )
    .unwrap();
    let args = ["-q", "--mode", "leiri-to-iri", "--charset", "windows-1252"];
    let got = run(&[&args[..], &["--field", "2"]].concat(), &f);
    assert_eq!(
        String::from_utf8_lossy(&got.stdout),
        "x\tHTTP://A/café\ty\nx\thttp://a/b%20cé\ny\thttp://a/plain\tz\n"
    );
    assert_eq!(got.status.code(), Some(0));
}

#[test]
fn check_reports_bad_charset_at_the_original_column() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("in.txt");
    // A Shift_JIS 日 (93 FA), then a lead byte 81 followed by a space: bad at column 20.
    std::fs::write(&p, b"http://example.jp/\x93\xfa\x81 x\nhttp://a/\x93\xfa\n").unwrap();
    for mode in ["to-uri", "check", "normalize", "leiri-to-iri"] {
        let o = run(
            &[
                "-q",
                "--mode",
                mode,
                "--charset",
                "sjis",
                "--errors",
                "-",
                "--out",
                "/dev/null",
            ],
            &p,
        );
        let text = String::from_utf8_lossy(&o.stdout);
        let row = text
            .lines()
            .find(|l| l.contains("bad-charset"))
            .unwrap_or_else(|| panic!("{mode}: {text}"));
        let c: Vec<&str> = row.split('\t').collect();
        assert_eq!((c[1], c[2]), ("1", "21"), "{mode}: {row}");
        // The report's input column is the original bytes, escaped.
        assert_eq!(c[5], r"http://example.jp/\x93\xFA\x81 x", "{mode}");
    }
    // The leniency knob of to-uri: --invalid-utf8 percent writes the bad byte as %81.
    let o = run(
        &[
            "--charset",
            "sjis",
            "--invalid-utf8",
            "percent",
            "--stats",
            "json",
        ],
        &p,
    );
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        "http://example.jp/%E6%97%A5%81%20x\nhttp://a/%E6%97%A5\n"
    );
    assert_eq!(o.status.code(), Some(0));
    // Two repairs: the bad byte and the space.
    let stats = String::from_utf8_lossy(&o.stderr);
    assert!(stats.contains("\"repairs\":2"), "{stats}");
}

#[test]
fn errors_after_decoding_point_at_the_original_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("in.txt");
    // 日本 in Shift_JIS (4 bytes, 6 in UTF-8), then a bad percent at byte 13 of the original.
    std::fs::write(&p, b"http://a/\x93\xfa\x96\x7b%zz\n").unwrap();
    let o = run(
        &[
            "-q",
            "--charset",
            "shift_jis",
            "--errors",
            "-",
            "--out",
            "/dev/null",
        ],
        &p,
    );
    let r = report(&o);
    assert_eq!(r, vec![(1, 14, "bad-percent".to_string())]);
    // With --field, the column counts the other fields' original bytes too.
    std::fs::write(&p, b"\x93\xfa\thttp://a/\x93\xfa%zz\n").unwrap();
    let o = run(
        &[
            "-q",
            "--charset",
            "shift_jis",
            "--field",
            "2",
            "--errors",
            "-",
            "--out",
            "/dev/null",
        ],
        &p,
    );
    assert_eq!(report(&o), vec![(1, 15, "bad-percent".to_string())]);
}

#[test]
fn charset_field_with_mixed_charsets() {
    let dir = tempfile::tempdir().unwrap();
    let rows: Vec<Row> = rows().into_iter().filter(|r| !utf16(&r.label)).collect();
    let mut data = Vec::new();
    for r in &rows {
        data.extend_from_slice(r.label.as_bytes());
        data.push(b'\t');
        data.extend_from_slice(&r.input);
        data.push(b'\n');
    }
    // An unknown label, a missing label field, a UCS-based label (read as UTF-8), an ASCII line
    // with an unknown label (still reported: the label is checked on every record).
    data.extend_from_slice(b"klingon\thttp://a/\xe9\n");
    data.extend_from_slice(b"koi8-r\n");
    data.extend_from_slice("utf-8\thttp://a/é?q=é\n".as_bytes());
    data.extend_from_slice(b"x-unknown\thttp://a/b\n");
    let p = dir.path().join("in.tsv");
    std::fs::write(&p, &data).unwrap();
    let out = dir.path().join("out.tsv");
    let o = run(
        &[
            "-q",
            "--field",
            "2",
            "--charset-field",
            "1",
            "--errors",
            "-",
            "--out",
            out.to_str().unwrap(),
        ],
        &p,
    );
    let errs = report(&o);
    let written = std::fs::read(&out).unwrap();
    let lines: Vec<&[u8]> = written.split(|&b| b == b'\n').collect();
    for (i, r) in rows.iter().enumerate() {
        let line = lines[i];
        match r.expected.strip_prefix("error:") {
            None => {
                let want = format!("{}\t{}", r.label, r.expected);
                assert_eq!(String::from_utf8_lossy(line), want, "{}", r.id);
            }
            Some(want) => {
                let (code, col) = want.split_once('@').unwrap();
                let col: usize = col.parse().unwrap();
                let got = errs.iter().find(|e| e.0 == i + 1).unwrap();
                assert_eq!(
                    (got.2.as_str(), got.1 - 1),
                    (code, col + r.label.len() + 1),
                    "{}",
                    r.id
                );
            }
        }
    }
    let n = rows.len();
    let tail: Vec<_> = errs.iter().filter(|e| e.0 > n).cloned().collect();
    assert_eq!(
        tail,
        vec![
            (n + 1, 1, "unknown-charset".to_string()),
            (n + 2, 7, "missing-field".to_string()),
            (n + 4, 1, "unknown-charset".to_string()),
        ]
    );
    assert_eq!(
        String::from_utf8_lossy(lines[n + 2]),
        "utf-8\thttp://a/%C3%A9?q=%C3%A9"
    );
    assert_eq!(o.status.code(), Some(3));
}

#[test]
fn utf16_input_with_and_without_bom() {
    let dir = tempfile::tempdir().unwrap();
    let text = "http://example.de/p?q=ü\nhttp://a/b\n";
    let mut le: Vec<u8> = text.encode_utf16().flat_map(|u| u.to_le_bytes()).collect();
    let be: Vec<u8> = text.encode_utf16().flat_map(|u| u.to_be_bytes()).collect();
    let mut bom_be = vec![0xFE, 0xFF];
    bom_be.extend_from_slice(&be);
    let want = "http://example.de/p?q=%C3%BC\nhttp://a/b\n";
    for (name, data, label) in [
        ("le", le.clone(), "utf-16le"),
        ("be", be, "utf-16be"),
        // A BOM wins over the declared byte order.
        ("bom", bom_be, "utf-16le"),
    ] {
        let p = dir.path().join(name);
        std::fs::write(&p, &data).unwrap();
        for extra in [
            &[][..],
            &["--no-mmap"],
            &["--threads", "2", "--chunk-size", "7"],
        ] {
            let args: Vec<&str> = [&["-q", "--charset", label][..], extra].concat();
            let o = run(&args, &p);
            assert_eq!(String::from_utf8_lossy(&o.stdout), want, "{name} {extra:?}");
        }
    }
    // In check mode too (a UCS-based charset: no NFC, no query rule).
    le.truncate(0);
    le.extend("e\u{301}\n".encode_utf16().flat_map(|u| u.to_le_bytes()));
    let p = dir.path().join("nfd");
    std::fs::write(&p, &le).unwrap();
    let o = run(&["-q", "--mode", "check", "--charset", "utf-16"], &p);
    assert_eq!(String::from_utf8_lossy(&o.stdout), "e\u{301}\n");
}

/// `--charset-field` reads each record's bytes in its label's charset: a UTF-16 file with a
/// byte order mark is refused before a line is written, with what to do (every record
/// failed `unknown-charset` without a word of UTF-16; found by a QA sweep). Mapped and
/// streamed alike; the same records in UTF-8 convert.
#[test]
fn charset_field_refuses_a_utf16_file() {
    let dir = tempfile::tempdir().unwrap();
    let text = "http://h.jp/a?q=\u{65E5}\tutf-8\n";
    let mut data = vec![0xFF, 0xFE];
    data.extend(text.encode_utf16().flat_map(|u| u.to_le_bytes()));
    let p = dir.path().join("in.tsv");
    std::fs::write(&p, &data).unwrap();
    for extra in [&[][..], &["--no-mmap"]] {
        let args: Vec<&str> = [&["-q", "--field", "1", "--charset-field", "2"][..], extra].concat();
        let o = run(&args, &p);
        assert_eq!(o.status.code(), Some(1), "{extra:?}");
        assert!(o.stdout.is_empty(), "{extra:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains("UTF-16 byte order mark") && err.contains("iconv"),
            "{err}"
        );
    }
    std::fs::write(&p, text).unwrap();
    let o = run(&["-q", "--field", "1", "--charset-field", "2"], &p);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        "http://h.jp/a?q=%E6%97%A5\tutf-8\n"
    );
}

/// An unpaired surrogate in UTF-16 input becomes the byte `FF` (README), and the line is
/// `invalid-utf8` at its column also when it lies in a field `--field` does not convert; it
/// was written on without a report (found by a QA sweep), on the fast path (an ASCII field)
/// and the slow one (a converted one).
#[test]
fn utf16_bad_surrogate_in_another_field_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let u16 = |s: &str| -> Vec<u8> { s.encode_utf16().flat_map(|u| u.to_le_bytes()).collect() };
    let mut data = u16("a");
    data.extend_from_slice(&[0x00, 0xD8]); // a lone high surrogate
    data.extend(u16("\thttp://x/\u{FC}\tz\n"));
    data.extend(u16("b"));
    data.extend_from_slice(&[0x00, 0xDC]); // a lone low surrogate
    data.extend(u16("\thttp://y/\n"));
    data.extend(u16("c\thttp://y/\u{FC}\n"));
    let p = dir.path().join("in.txt");
    std::fs::write(&p, &data).unwrap();
    for extra in [&[][..], &["--threads", "2", "--chunk-size", "7"]] {
        let out = dir.path().join("out.txt");
        let args: Vec<&str> = [
            &[
                "-q",
                "--charset",
                "utf-16le",
                "--field",
                "2",
                "--errors",
                "-",
            ][..],
            &["--on-error", "skip", "--out", out.to_str().unwrap()],
            extra,
        ]
        .concat();
        let o = run(&args, &p);
        assert_eq!(
            report(&o),
            vec![
                (1, 2, "invalid-utf8".to_string()),
                (2, 2, "invalid-utf8".to_string())
            ],
            "{extra:?}"
        );
        assert_eq!(
            std::fs::read_to_string(&out).unwrap(),
            "c\thttp://y/%C3%BC\n",
            "{extra:?}"
        );
    }
}

/// Lines for the twin tests: ASCII (fast path), legacy text, NFC changes, bad bytes, errors
/// after decoding, CRLF, the query rule.
fn twin_input(label: &str) -> Vec<u8> {
    let enc = cs(label).encoding();
    let texts = [
        "http://example.org/plain",
        "http://example.jp/日本語?q=検索&n=1",
        "https://例え.jp/パス#フラグ",
        "ftp://example.jp/p?q=検索",
        "/relative?q=ツ",
        "http://example.org/a b",
        "http://a/%zz日",
        "http://example.org/ok?x=1",
        "http://a/Tiếng Việt?q=ế",
        "",
    ];
    let mut out = Vec::new();
    for (i, t) in texts.iter().cycle().take(400).enumerate() {
        let (bytes, _, _) = enc.encode(t);
        out.extend_from_slice(&bytes);
        if i % 37 == 5 {
            out.extend_from_slice(b"\x81\xff\xfe"); // not valid in most charsets
        }
        out.extend_from_slice(if i % 5 == 0 { b"\r\n" } else { b"\n" });
    }
    out
}

fn engine(label: &str, mode: Mode, on_error: OnError, field: bool) -> EngineOptions {
    EngineOptions {
        mode,
        on_error,
        field: field.then_some((0, b'\t')),
        charset: Some(LegacyInput {
            source: if field {
                CharsetSource::Field(1)
            } else {
                CharsetSource::Fixed(cs(label))
            },
            query_charset: QueryCharset::Document,
        }),
        ..Default::default()
    }
}

fn naive(data: &[u8], opts: EngineOptions) -> ChunkOut {
    let mut res = ChunkOut::default();
    Worker::new(opts).convert_chunk_naive(data, &mut res);
    res
}

#[test]
fn fast_path_equals_naive_twin_with_a_charset() {
    let modes = [
        Mode::ToUri,
        Mode::Check { uri_only: false },
        Mode::LeiriToIri,
        Mode::Normalize {
            rungs: iribulk::convert::normalize::Rungs::level(
                iribulk::convert::normalize::Level::Syntax,
            ),
            as_uri: false,
        },
    ];
    let mut checked = 0;
    let (mut errors, mut converted) = (0, 0);
    // The double-byte charsets (decoded through the table derived from encoding_rs, the
    // naive twin byte by byte through encoding_rs), a single-byte one, a stateful one.
    let labels = [
        "shift_jis",
        "euc-jp",
        "big5",
        "windows-1258",
        "euc-kr",
        "iso-2022-jp",
        "gb18030",
    ];
    for label in labels {
        let data = twin_input(label);
        for mode in modes {
            for on_error in [OnError::Keep, OnError::Skip] {
                let opts = engine(label, mode, on_error, false);
                let want = naive(&data, opts);
                errors += want.stats.error_lines;
                converted += want.stats.converted;
                // One chunk, and chunks of whole lines of about `size` bytes.
                for size in [1, 50, 333, 1 << 20] {
                    let mut w = Worker::new(opts);
                    let mut rendered = Vec::new();
                    let mut issues = Vec::new();
                    let mut lines = 0;
                    let mut pos = 0;
                    while pos < data.len() {
                        let end = iribulk::engine::input::next_mapped_chunk_end(&data, pos, size);
                        let mut res = ChunkOut::default();
                        w.convert_chunk(&data[pos..end], &mut res);
                        rendered.extend(res.render(&data[pos..end]));
                        issues.extend(
                            res.issues
                                .iter()
                                .map(|i| (i.line + lines, i.err, i.warning, i.len)),
                        );
                        lines += res.stats.lines;
                        pos = end;
                    }
                    let ctx = format!("{label} {mode:?} {on_error:?} size={size}");
                    assert!(rendered == want.render(&data), "output differs: {ctx}");
                    let want_issues: Vec<_> = want
                        .issues
                        .iter()
                        .map(|i| (i.line, i.err, i.warning, i.len))
                        .collect();
                    assert_eq!(issues, want_issues, "{ctx}");
                    checked += 1;
                }
            }
        }
    }
    assert_eq!(checked, labels.len() * 4 * 2 * 4);
    assert!(errors > 100 && converted > 1000, "{errors} {converted}");
}

#[test]
fn pipeline_threads_and_chunks_with_a_charset() {
    let dir = tempfile::tempdir().unwrap();
    // Fixed charset, and --charset-field with a label per record (mixed charsets).
    let mut mixed = Vec::new();
    for (i, label) in ["shift_jis", "koi8-r", "big5", "nonsense"]
        .iter()
        .cycle()
        .take(300)
        .enumerate()
    {
        let (bytes, _, _) = cs(if *label == "nonsense" { "utf-8" } else { label })
            .encoding()
            .encode(["http://a/日本?q=ё", "http://a/b", "/x?q=台灣"][i % 3]);
        mixed.extend_from_slice(&bytes);
        mixed.push(b'\t');
        mixed.extend_from_slice(label.as_bytes());
        mixed.push(b'\n');
    }
    for (name, data, opts) in [
        (
            "sjis",
            twin_input("shift_jis"),
            engine("shift_jis", Mode::ToUri, OnError::Keep, false),
        ),
        ("mixed", mixed, engine("", Mode::ToUri, OnError::Skip, true)),
    ] {
        let want = naive(&data, opts);
        let input = dir.path().join(name);
        std::fs::write(&input, &data).unwrap();
        for no_mmap in [false, true] {
            for (threads, chunk) in [(1, 1 << 20), (2, 64), (7, 1000)] {
                let output = dir.path().join(format!("{name}.out"));
                let run = RunOptions {
                    engine: opts,
                    inputs: vec![input.clone()],
                    output: Some(output.clone()),
                    threads,
                    chunk_size: chunk,
                    no_mmap,
                    ..Default::default()
                };
                let sum = pipeline::run(&run).unwrap();
                let got = std::fs::read(&output).unwrap();
                let ctx = format!("{name} threads={threads} chunk={chunk} no_mmap={no_mmap}");
                assert!(got == want.render(&data), "{ctx}");
                assert_eq!(sum.stats.error_lines, want.stats.error_lines, "{ctx}");
                assert_eq!(sum.stats.lines, sum.stats.written + sum.stats.skipped);
            }
        }
    }
}

/// The 3987bis §3.5 query rule follows the scheme a reference has once resolved: `?q=é` against
/// an `http` base (`--base` or `--base-field`) is written as its absolute form is, in the
/// document charset; against `ftp` it stays UTF-8 (found by a QA sweep: it was `%C3%A9`).
#[test]
fn the_query_rule_follows_the_base_scheme() {
    let fixed = common::run_stdin(
        &["-q", "--charset", "windows-1252", "--base", "http://h/"],
        b"?q=\xE9\n/p?q=\xE9\nhttp://h/?q=\xE9\n",
    );
    assert_eq!(
        String::from_utf8_lossy(&fixed.stdout),
        "http://h/?q=%E9\nhttp://h/p?q=%E9\nhttp://h/?q=%E9\n"
    );
    let field = common::run_stdin(
        &[
            "-q",
            "--charset",
            "windows-1252",
            "--field",
            "2",
            "--base-field",
            "1",
        ],
        b"http://h/\t?q=\xE9\nftp://h/\t?q=\xE9\nHTTPS://h/\t?q=\xE9\n",
    );
    assert_eq!(
        String::from_utf8_lossy(&field.stdout),
        "http://h/\thttp://h/?q=%E9\nftp://h/\tftp://h/?q=%C3%A9\nHTTPS://h/\tHTTPS://h/?q=%E9\n"
    );
}

/// The base's own query, which a reference with no path and no query takes (RFC 3986
/// §5.2.2), follows the same rule: a windows-1251 record's base `http://h/a?q=ж` gives
/// `?q=%E6`, as the same IRI written whole does (found by a QA sweep: it was UTF-8's
/// `%D0%B6`). `--base` on the command line (UTF-8 text) is the document's base too; a
/// non-`http` base and `--query-charset utf-8` keep UTF-8.
#[test]
fn the_query_rule_applies_to_the_base_query() {
    let field = common::run_stdin(
        &[
            "-q",
            "--charset",
            "windows-1251",
            "--field",
            "2",
            "--base-field",
            "1",
        ],
        b"http://h/a?q=\xE6\t#x\nhttp://h/a?q=\xE6\t\nhttp://h/a?q=\xE6\t?r=\xE6\nftp://h/a?q=\xE6\t\n",
    );
    assert_eq!(
        String::from_utf8_lossy(&field.stdout),
        "http://h/a?q=\u{436}\thttp://h/a?q=%E6#x\n\
         http://h/a?q=\u{436}\thttp://h/a?q=%E6\n\
         http://h/a?q=\u{436}\thttp://h/a?r=%E6\n\
         ftp://h/a?q=\u{436}\tftp://h/a?q=%D0%B6\n"
    );
    for (args, want) in [
        (
            &[][..],
            "http://h/a?q=%E6\nhttp://h/a?q=%E6#f\nhttp://h/a?q=%E6\n",
        ),
        (
            &["--query-charset", "utf-8"][..],
            "http://h/a?q=%D0%B6\nhttp://h/a?q=%D0%B6#f\nhttp://h/a?q=%D0%B6\n",
        ),
    ] {
        let mut a = vec![
            "-q",
            "--charset",
            "windows-1251",
            "--base",
            "http://h/a?q=\u{436}",
        ];
        a.extend_from_slice(args);
        let fixed = common::run_stdin(&a, b"\n#f\n?q=\xE6\n");
        assert_eq!(String::from_utf8_lossy(&fixed.stdout), want, "{args:?}");
    }
}

/// The query rule leaves what to-uri reports to it (found by a QA sweep: encoded in the
/// document charset, a U+202E in an `http` query was written with no report, even with
/// `--strict`, and a C1 control was no error): gb18030 `ж` then U+202E, U+FDD0, U+0085.
#[test]
fn the_query_rule_leaves_what_to_uri_reports() {
    let input: &[u8] = b"http://h/a?q=\xA7\xD8\x81\x36\xA7\x31\n\
        http://h/a?q=\xA7\xD8\x84\x30\xFA\x32\n\
        http://h/a?q=\xA7\xD8\x81\x30\x81\x35\n";
    for strict in [false, true] {
        let mut args = vec!["-q", "--charset", "gb18030", "--errors", "-"];
        if strict {
            args.push("--strict");
        }
        let o = common::run_stdin(&args, input);
        let report = String::from_utf8_lossy(&o.stderr).into_owned();
        let rows: Vec<Vec<&str>> = common::report_rows(&report)
            .into_iter()
            .map(|r| r[1..4].to_vec())
            .collect();
        assert_eq!(
            rows,
            [
                ["1", "16", "bidi-format"],
                ["2", "16", "not-ucschar"],
                ["3", "16", "control-char"]
            ],
            "strict {strict}: {report}"
        );
        let out = String::from_utf8_lossy(&o.stdout).into_owned();
        let first = out.lines().next().unwrap_or_default().to_string();
        if strict {
            assert!(!first.contains("%E2%80%AE"), "{out}");
        } else {
            // ж in gb18030, the U+202E left to to-uri (UTF-8).
            assert_eq!(first, "http://h/a?q=%A7%D8%E2%80%AE", "{out}");
        }
    }
}

/// ISO-2022-JP: an error in the first character after an escape sequence is at that
/// character's column, not at the `ESC` (found by a QA sweep: `%zz` after `ESC ( B` was
/// reported at column 18, the `ESC`).
#[test]
fn iso_2022_jp_columns_after_an_escape_sequence() {
    let o = common::run_stdin(
        &["-q", "--charset", "iso-2022-jp", "--errors", "-"],
        b"http://x.jp/\x1b$BF|\x1b(B%zz\n",
    );
    let report = String::from_utf8_lossy(&o.stderr);
    let row: Vec<&str> = report
        .lines()
        .nth(1)
        .unwrap_or_default()
        .split('\t')
        .collect();
    assert_eq!(row.get(2..4), Some(&["21", "bad-percent"][..]), "{report}");
}

/// `field-delimiter` (found by a QA sweep): a record whose fields decoding would move is an
/// error kept as it was, not converted in the wrong field. A `--charset-field` label is found
/// by a split of the raw bytes, so a delimiter byte inside a character (`83 7C` is `ポ` in
/// Shift_JIS) is one, before or after the label; a fixed `--charset` decodes first, so there
/// it is only part of `ポ`. NFC making a delimiter (gb18030 `81 30 C9 32` is U+037E, whose
/// NFC is `;`) and a conversion writing one (IDNA2003 without STD3 maps `，` to `,`) are the
/// same error.
#[test]
fn a_delimiter_that_decoding_moves_is_field_delimiter() {
    let dir = tempfile::tempdir().unwrap();
    // (record, options, the line written or the error's column)
    type Case<'a> = (&'a [u8], &'a [&'a str], Result<&'a [u8], usize>);
    const NO_STD3: &[&str] = &[
        "--field",
        "2",
        "--delimiter",
        ",",
        "--host",
        "idna2003",
        "--idna2003-no-std3",
    ];
    // `ポ` seventeen times: the label moves seventeen fields.
    const SEVENTEEN: [u8; 12 + 34 + 12] = {
        let mut r = [0u8; 58];
        let head = b"http://a.jp/";
        let tail = b"|shift_jis|x";
        let mut i = 0;
        while i < 12 {
            r[i] = head[i];
            r[46 + i] = tail[i];
            i += 1;
        }
        let mut j = 0;
        while j < 17 {
            r[12 + 2 * j] = 0x83;
            r[13 + 2 * j] = 0x7c;
            j += 1;
        }
        r
    };
    let cases: &[Case] = &[
        (
            b"A\x83|B|http://y/\x93\xfa|shift_jis|z",
            &["--field", "3", "--charset-field", "4", "--delimiter", "|"],
            Err(3),
        ),
        (
            b"1|shift_jis|http://y/\x83\x7c",
            &["--field", "3", "--charset-field", "2", "--delimiter", "|"],
            Err(23),
        ),
        (
            b"1|shift_jis|http://y/\x93\xfa",
            &["--field", "3", "--charset-field", "2", "--delimiter", "|"],
            Ok(b"1|shift_jis|http://y/%E6%97%A5"),
        ),
        // README's own example with the label after it: the moved label came out empty and
        // the record was `unknown-charset` (found by a QA sweep); now the delimiter's error.
        (
            b"u|http://c/\x83\x7c|shift_jis",
            &["--field", "2", "--charset-field", "3", "--delimiter", "|"],
            Err(13),
        ),
        (
            b"1|http://y/\x83\x7c",
            &["--field", "2", "--charset", "shift_jis", "--delimiter", "|"],
            Ok(b"1|http://y/%E3%83%9D"),
        ),
        // ISO-2022-JP: `ESC $ B 4B 7C ESC ( B` is 万, its second byte a `|` (a QA sweep: it
        // was `unknown-charset` at the moved label).
        (
            b"x|http://ex.com/\x1b$BK|\x1b(B|iso-2022-jp",
            &["--field", "2", "--charset-field", "3", "--delimiter", "|"],
            Err(21),
        ),
        // Two such characters move the label two fields, and text between the character
        // and the label changes nothing (a third sweep: both were `unknown-charset`).
        (
            b"http://a.jp/\x83\x7c\x83\x7c|shift_jis|x",
            &["--field", "1", "--charset-field", "2", "--delimiter", "|"],
            Err(14),
        ),
        (
            b"http://a.jp/\x83\x7c?q=\x83\x7c|shift_jis|x",
            &["--field", "1", "--charset-field", "2", "--delimiter", "|"],
            Err(14),
        ),
        (
            b"http://a.jp/\x1b$BK|\x1b(B?q=\x1b$BK|\x1b(B|iso-2022-jp|x",
            &["--field", "1", "--charset-field", "2", "--delimiter", "|"],
            Err(17),
        ),
        // A byte the charset refuses elsewhere in the record does not hide the moved label,
        // nor do seventeen moved fields (a fourth sweep: both were `unknown-charset`).
        (
            b"http://a.jp/\x83\x7c|shift_jis|\x81",
            &["--field", "1", "--charset-field", "2", "--delimiter", "|"],
            Err(14),
        ),
        (
            &SEVENTEEN,
            &["--field", "1", "--charset-field", "2", "--delimiter", "|"],
            Err(14),
        ),
        (
            b"a\x81\x30\xc9\x32b;http://x/\xa8\xa6;z",
            &["--field", "2", "--charset", "gb18030", "--delimiter", ";"],
            Err(1),
        ),
        (
            b"a\x81\x30\xc9\x32b;gb18030;http://x/\xa8\xa6",
            &["--field", "3", "--charset-field", "2", "--delimiter", ";"],
            Err(1),
        ),
        (b"x,http://\xc3\xa4\xef\xbc\x8cb.com/,y", NO_STD3, Err(3)),
        (
            b"x,http://\xc3\xa4b.com/,y",
            NO_STD3,
            Ok(b"x,http://xn--b-zfa.com/,y"),
        ),
    ];
    for (i, (input, args, want)) in cases.iter().enumerate() {
        let p = dir.path().join(format!("in{i}.txt"));
        let mut data = input.to_vec();
        data.push(b'\n');
        std::fs::write(&p, &data).unwrap();
        let out = dir.path().join(format!("out{i}.txt"));
        let mut a = vec!["-q", "--errors", "-", "--out", out.to_str().unwrap()];
        a.extend_from_slice(args);
        let o = run(&a, &p);
        let written = std::fs::read(&out).unwrap();
        match want {
            Ok(line) => {
                assert_eq!(report(&o), vec![], "case {i}");
                assert_eq!(written, [*line, b"\n"].concat(), "case {i}");
            }
            Err(col) => {
                assert_eq!(
                    report(&o),
                    vec![(1, *col, "field-delimiter".to_string())],
                    "case {i}"
                );
                assert_eq!(written, data, "case {i}: kept as it was");
            }
        }
    }
}

/// A UTF-8 BOM wins over a fixed legacy `--charset` (WHATWG Encoding Standard §6, decode:
/// the BOM is sniffed before the label is used): that input is read as UTF-8, mapped or
/// streamed; the next input, without one, in the declared charset. It was decoded as
/// windows-1252 (`Ã©` for `é`) without a report (found by a QA sweep).
#[test]
fn a_utf8_bom_wins_over_a_legacy_charset() {
    let dir = tempfile::tempdir().unwrap();
    let bom = dir.path().join("bom.txt");
    std::fs::write(&bom, "\u{FEFF}http://a/\u{E9}?q=\u{E9}\n").unwrap();
    let plain = dir.path().join("plain.txt");
    std::fs::write(&plain, b"http://a/\xe9?q=\xe9\n").unwrap();
    let want = "http://a/%C3%A9?q=%C3%A9\nhttp://a/%C3%A9?q=%E9\n";
    for extra in [
        &[][..],
        &["--no-mmap"],
        &["--threads", "2", "--chunk-size", "5"],
    ] {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_iribulk"))
            .args(["-q", "--charset", "windows-1252"])
            .args(extra)
            .arg(&bom)
            .arg(&plain)
            .output()
            .unwrap();
        assert_eq!(String::from_utf8_lossy(&o.stdout), want, "{extra:?}");
    }
    // Streamed from stdin, in check mode.
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_iribulk"))
        .args(["-q", "--mode", "check", "--charset", "shift_jis"])
        .stdin(std::fs::File::open(&bom).unwrap())
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        "http://a/\u{E9}?q=\u{E9}\n"
    );
}

/// Step 1b's NFC of a legacy line never gives its host another IDNA name: U+0345 (ι to IDNA)
/// reordered by NFC wrote `http://a` U+0345 U+0300 `.com/` as `xn--0ca27l.com` where a
/// browser reading the page goes to `xn--a-76m.com` (found by a QA sweep). The host is kept
/// as decoded (the path is still NFC, as RFC 3987 §3.1 says); the same with `--field` and
/// `--charset-field`, and in check.
#[test]
fn legacy_nfc_keeps_the_idna_name_of_the_host() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("in.txt");
    let (gb, _, _) =
        encoding_rs::GB18030.encode("http://a\u{345}\u{300}.com/\n//a\u{345}\u{300}.com/\n");
    std::fs::write(&p, &gb).unwrap();
    let o = run(&["-q", "--charset", "gb18030"], &p);
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        "http://xn--a-76m.com/\n//a%CD%85%CC%80.com/\n"
    );
    let o = run(&["-q", "--mode", "check", "--charset", "gb18030"], &p);
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        "http://a\u{345}\u{300}.com/\n//a\u{345}\u{300}.com/\n"
    );
    let (rec, _, _) = encoding_rs::GB18030.encode("x\thttp://a\u{345}\u{300}.com/\tgb18030\n");
    std::fs::write(&p, &rec).unwrap();
    for cs in [&["--charset", "gb18030"][..], &["--charset-field", "3"]] {
        let args: Vec<&str> = [&["-q", "--field", "2"][..], cs].concat();
        let o = run(&args, &p);
        assert_eq!(
            String::from_utf8_lossy(&o.stdout),
            "x\thttp://xn--a-76m.com/\tgb18030\n",
            "{cs:?}"
        );
    }
}

/// A UTF-8 BOM wins over `--charset utf-16le/be` as well: the input is read as UTF-8 as it is,
/// invalid bytes kept (they were all made `FF` by the UTF-16 reader: `C0 AF E9` was written
/// `FF FF FF`, `%FF%FF%FF` with `--invalid-utf8 percent`; found by a QA sweep). The same
/// output and report as `--charset utf-8`, mapped or streamed.
#[test]
fn a_utf8_bom_wins_over_utf16() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("bom.txt");
    std::fs::write(
        &p,
        b"\xef\xbb\xbfhttp://a/\xc0\xaf\xe9\nhttp://b/\xc3\xbc\n",
    )
    .unwrap();
    let run = |cs: &str, extra: &[&str]| {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_iribulk"))
            .args(["-q", "--errors", "-", "--out", "/dev/null", "--charset", cs])
            .args(extra)
            .arg(&p)
            .output()
            .unwrap();
        let kept = std::process::Command::new(env!("CARGO_BIN_EXE_iribulk"))
            .args(["-q", "--charset", cs])
            .args(extra)
            .arg(&p)
            .output()
            .unwrap();
        (o.stdout, kept.stdout)
    };
    for extra in [&[][..], &["--no-mmap"], &["--invalid-utf8", "percent"]] {
        let want = run("utf-8", extra);
        for cs in ["utf-16le", "utf-16be"] {
            assert_eq!(run(cs, extra), want, "{cs} {extra:?}");
        }
    }
    let (_, kept) = run("utf-16le", &[]);
    assert_eq!(kept, b"http://a/\xc0\xaf\xe9\nhttp://b/%C3%BC\n");
    let (_, pct) = run("utf-16le", &["--invalid-utf8", "percent"]);
    assert_eq!(pct, b"http://a/%C0%AF%E9\nhttp://b/%C3%BC\n");
}

/// `--max-line-bytes` limits the line as read, not its decoding (found by a QA sweep: a
/// 6 MB Shift_JIS line, 9 MB decoded, was `line-too-long` under the 8 MiB default, and a
/// document-charset query, three bytes an octet once encoded, at a column of no meaning):
/// 60 bytes of kanji under a limit of 80 convert (90 bytes decoded, 180 in the query),
/// 100 bytes are refused at the limit's column.
#[test]
fn the_line_limit_is_on_the_bytes_read() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("in.sjis");
    let kanji = |n: usize| b"\x93\xfa".repeat(n);
    let mut data = Vec::new();
    for (head, n) in [
        (&b"http://h/"[..], 30),
        (b"http://h/?q=", 30),
        (b"http://h/", 50),
    ] {
        data.extend_from_slice(head);
        data.extend_from_slice(&kanji(n));
        data.push(b'\n');
    }
    std::fs::write(&file, &data).unwrap();
    let out = dir.path().join("out.txt");
    let o = run(
        &[
            "-q",
            "--charset",
            "shift_jis",
            "--max-line-bytes",
            "80",
            "--errors",
            "-",
            "--out",
            out.to_str().unwrap(),
        ],
        &file,
    );
    assert_eq!(report(&o), [(3, 81, "line-too-long".to_string())]);
    // The refused line is kept in its Shift_JIS bytes.
    let text = String::from_utf8_lossy(&std::fs::read(&out).unwrap()).into_owned();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0], format!("http://h/{}", "%E6%97%A5".repeat(30)));
    assert_eq!(lines[1], format!("http://h/?q={}", "%93%FA".repeat(30)));
}

/// An unknown label after a field that ends in a whole UTF-8 character, or after a TAB (never
/// a trail byte), is `unknown-charset` at the label, not `field-delimiter` (the re-check of a
/// QA sweep's fix found both).
#[test]
fn an_unknown_label_is_not_a_moved_one() {
    let dir = tempfile::tempdir().unwrap();
    for (data, args, col) in [
        (
            &b"http://a/\xc3\xa9\tbogus"[..],
            &["--field", "1", "--charset-field", "2"][..],
            13,
        ),
        (
            b"http://a/\xc3\xa9|bogus",
            &["--field", "1", "--charset-field", "2", "--delimiter", "|"],
            13,
        ),
        (
            b"http://a/\x83\tbogus",
            &["--field", "1", "--charset-field", "2"],
            12,
        ),
        // A non-ASCII byte before the `|` with no field after the label (a later sweep:
        // `field-delimiter`, guessed from that byte).
        (
            b"x|http://ex.ru/\xef|bogus",
            &["--field", "2", "--charset-field", "3", "--delimiter", "|"],
            18,
        ),
        (
            b"x|http://ex.ru/\x93\xfa|bogus",
            &["--field", "2", "--charset-field", "3", "--delimiter", "|"],
            19,
        ),
        // A charset named further on that loses one delimiter where two fields lie between
        // (the label would be moved one field, not two): still the unknown label.
        (
            b"x|http://ex.ru/\x83\x7c|bogus|junk|shift_jis",
            &["--field", "2", "--charset-field", "3", "--delimiter", "|"],
            18,
        ),
    ] {
        let p = dir.path().join("in.txt");
        std::fs::write(&p, [data, b"\n"].concat()).unwrap();
        let out = dir.path().join("out.txt");
        let mut a = vec!["-q", "--errors", "-", "--out", out.to_str().unwrap()];
        a.extend_from_slice(args);
        let o = run(&a, &p);
        assert_eq!(
            report(&o),
            [(1, col, "unknown-charset".to_string())],
            "{:?}",
            String::from_utf8_lossy(data)
        );
    }
}

/// A record of many fields with an unknown label and a charset named far to its right, and
/// one whose label a trail byte moved late in the record: the answers of the moved-label
/// look-ahead and of the delimiter check, on records of 300,000 fields (a QA sweep: a
/// search of the kept delimiters for each one made these quadratic, 23 s for the first;
/// this test asserts the answers only, `scripts/` and the sweep's inputs measure the time).
#[test]
fn many_fields_keep_the_moved_label_answers() {
    let dir = tempfile::tempdir().unwrap();
    let many = ",x".repeat(300_000);
    // (record, options, the report's column and code)
    type Case<'a> = (Vec<u8>, &'a [&'a str], (usize, &'a str));
    let cases: [Case; 2] = [
        (
            format!("http://a/,bogus{many},shift_jis").into_bytes(),
            &["--field", "1", "--charset-field", "2", "--delimiter", ","],
            (11, "unknown-charset"),
        ),
        (
            [
                b"http://a/|shift_jis".as_slice(),
                many.replace(',', "|").as_bytes(),
                b"|\x83|y",
            ]
            .concat(),
            &["--field", "1", "--charset-field", "2", "--delimiter", "|"],
            (20 + 2 * 300_000 + 2, "field-delimiter"),
        ),
    ];
    for (data, args, (col, code)) in cases {
        let p = dir.path().join("in.txt");
        std::fs::write(&p, [data.as_slice(), b"\n"].concat()).unwrap();
        let mut a = vec!["-q", "--errors", "-", "--out", "/dev/null"];
        a.extend_from_slice(args);
        let o = run(&a, &p);
        assert_eq!(report(&o), [(1, col, code.to_string())]);
    }
}
