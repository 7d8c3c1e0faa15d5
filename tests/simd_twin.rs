//! The converters with their block kernels (issue 11) against their naive twins
//! (`ToUri::new_naive`, `ToIri::new_naive`: the scalar reference loops): byte-identical output,
//! the same `Outcome` and the same errors (code and byte offset) on every line of every data set
//! in `../shared/datasets` and of two synthetic sets from `scripts/gen-dataset`, in to-uri (every
//! host mode, and the option sets that change which bytes stop the kernel) and in to-iri (every
//! host mode, on the raw lines and on their to-uri output); `check` (`Checker::new_naive`) the
//! same way; and every cell of `tests/data/*.tsv`.

mod common;

use iribulk::convert::check::{CheckOptions, Checker};
use iribulk::convert::to_iri::{ToIri, ToIriOptions};
use iribulk::Converter as _;
use iribulk::{HostMode, InvalidUtf8, ToUri, ToUriOptions};
use std::path::Path;

const HOSTS: [HostMode; 4] = [
    HostMode::Auto,
    HostMode::Uts46,
    HostMode::IDNA2003,
    HostMode::Percent,
];

fn to_uri_options() -> Vec<ToUriOptions> {
    let mut v: Vec<_> = HOSTS
        .iter()
        .map(|&h| ToUriOptions::default().host(h))
        .collect();
    v.push(ToUriOptions::default().strict(true));
    v.push(ToUriOptions::default().repair(iribulk::config::Repairs::ALL));
    v.push(
        ToUriOptions::default()
            .leiri(true)
            .invalid_utf8(InvalidUtf8::Percent),
    );
    v.push(
        ToUriOptions::default()
            .host(HostMode::Uts46)
            .host_fallback_percent(true)
            .invalid_utf8(InvalidUtf8::Percent),
    );
    v
}

/// Compares both converters on every line of `bytes`; returns the to-uri output lines of the
/// default options (the input of the to-iri comparison).
fn compare(name: &str, bytes: &[u8]) -> Vec<Vec<u8>> {
    let mut uris = Vec::new();
    for (k, opts) in to_uri_options().into_iter().enumerate() {
        let mut fast = ToUri::new(opts);
        let mut naive = ToUri::new_naive(opts);
        let (mut a, mut b) = (Vec::new(), Vec::new());
        for (n, line) in common::lines(bytes).enumerate() {
            a.clear();
            b.clear();
            let ra = fast.convert_or_copy_into(line, &mut a);
            let rb = naive.convert_or_copy_into(line, &mut b);
            assert_eq!(
                (&ra, &a),
                (&rb, &b),
                "{name}:{}: to-uri with {opts:?}: {:?}",
                n + 1,
                String::from_utf8_lossy(line)
            );
            if k == 0 && ra.is_ok() {
                uris.push(a.clone());
            }
        }
    }
    for host in HOSTS {
        for uri_only in [false, true] {
            let opts = CheckOptions {
                to_uri: ToUriOptions::default().host(host),
                uri_only,
            };
            compare_check(name, opts, common::lines(bytes));
        }
    }
    let raw: Vec<&[u8]> = common::lines(bytes).collect();
    for host in HOSTS {
        let opts = ToIriOptions { host };
        let mut fast = ToIri::new(opts);
        let mut naive = ToIri::new_naive(opts);
        let (mut a, mut b) = (Vec::new(), Vec::new());
        for (n, line) in raw
            .iter()
            .copied()
            .chain(uris.iter().map(|u| &u[..]))
            .enumerate()
        {
            a.clear();
            b.clear();
            let ra = fast.convert_or_copy_into(line, &mut a);
            let rb = naive.convert_or_copy_into(line, &mut b);
            assert_eq!(
                (&ra, &a),
                (&rb, &b),
                "{name}: input {} to-iri with {host:?}: {:?}",
                n + 1,
                String::from_utf8_lossy(line)
            );
        }
    }
    uris
}

/// `check` with its fast paths (fused to-uri, NFKC page memo, one IDNA run per host, one-pass
/// DNS-name test) against `Checker::new_naive` on every line: the same output, outcome, error.
fn compare_check<'a>(name: &str, opts: CheckOptions, lines: impl Iterator<Item = &'a [u8]>) {
    let mut fast = Checker::new(opts);
    let mut naive = Checker::new_naive(opts);
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for (n, line) in lines.enumerate() {
        a.clear();
        b.clear();
        let ra = fast.convert_or_copy_into(line, &mut a);
        let rb = naive.convert_or_copy_into(line, &mut b);
        assert_eq!(
            (&ra, &a),
            (&rb, &b),
            "{name}:{}: check with {opts:?}: {:?}",
            n + 1,
            String::from_utf8_lossy(line)
        );
    }
}

/// Every length × alignment × position: a run of plain and quiet non-ASCII text after a
/// prefix of each length 0..32 (the alignment of the run in the line), with one special piece
/// (`?`, `#`, a second `#`, `%` triplets good and bad, loud characters of each kind, a C1
/// control, a bracket) at every position of the run; to-uri in every option set and check
/// against their naive twins. The fused path/query/fragment pass must split at the same `?`
/// and `#` and give the per-character checks the same component.
#[test]
fn fused_tail_matches_twin_over_length_alignment_position() {
    let specials: [&str; 14] = [
        "?",
        "#",
        "##",
        "?#?",
        "%41",
        "%4",
        "%G1",
        "\u{E000}",
        "\u{202E}",
        "\u{FDD0}",
        "\u{85}",
        "\u{061C}",
        "[",
        "\u{F0000}",
    ];
    let filler: Vec<char> = "aé/日=ü~ا.ש".chars().collect();
    let mut lines_v: Vec<Vec<u8>> = Vec::new();
    for align in 0..32 {
        let prefix = format!("http://h{}/", "x".repeat(align));
        for len in [0usize, 1, 2, 7, 15, 16, 17, 31, 33, 47, 64, 70] {
            let run: String = filler.iter().cycle().take(len).collect();
            let run: Vec<char> = run.chars().collect();
            for sp in specials {
                for pos in 0..=run.len() {
                    let mut l = prefix.clone();
                    l.extend(&run[..pos]);
                    l.push_str(sp);
                    l.extend(&run[pos..]);
                    lines_v.push(l.into_bytes());
                }
            }
        }
    }
    assert!(lines_v.len() > 100_000, "{}", lines_v.len());
    for opts in to_uri_options() {
        let mut fast = ToUri::new(opts);
        let mut naive = ToUri::new_naive(opts);
        let (mut a, mut b) = (Vec::new(), Vec::new());
        for line in &lines_v {
            a.clear();
            b.clear();
            let ra = fast.convert_or_copy_into(line, &mut a);
            let rb = naive.convert_or_copy_into(line, &mut b);
            assert_eq!(
                (&ra, &a),
                (&rb, &b),
                "to-uri {opts:?}: {:?}",
                String::from_utf8_lossy(line)
            );
        }
    }
    compare_check(
        "length × alignment × position",
        CheckOptions::default(),
        lines_v.iter().map(|l| &l[..]),
    );
}

#[test]
fn every_shared_dataset_line_gives_the_same_bytes_and_errors() {
    let Some(shared) = common::shared_dir() else {
        return;
    };
    let files = common::dataset_files(&shared);
    for f in files {
        let bytes = std::fs::read(&f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        let uris = compare(&name, &bytes);
        assert!(!uris.is_empty(), "{name}: no line converted");
    }
}

#[test]
fn synthetic_sets_give_the_same_bytes_and_errors() {
    let dir = tempfile::tempdir().expect("temp dir");
    for (na, bad, seed) in [
        ("1.0", "0.0", "1"),
        ("0.10", "0.05", "7"),
        ("1.0", "0.2", "3"),
    ] {
        let p = dir.path().join(format!("na{na}-bad{bad}.txt"));
        if !common::gen_dataset(&p, na, bad, seed) {
            return;
        }
        let bytes = std::fs::read(&p).expect("generated file");
        assert!(bytes.len() > 100_000, "{} bytes", bytes.len());
        compare(&p.display().to_string(), &bytes);
    }
}

/// Whether `common::unescape` accepts `s` (it panics on a malformed `\x` or `\u{..}`): the same
/// scan, without building the bytes.
fn escapes_ok(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' || i + 1 >= b.len() {
            i += 1;
            continue;
        }
        match b[i + 1] {
            b'x' => {
                let hex = s
                    .get(i + 2..i + 4)
                    .and_then(|h| u8::from_str_radix(h, 16).ok());
                if hex.is_none() {
                    return false;
                }
                i += 4;
            }
            b'u' => {
                let Some(end) = s[i..].find('}').map(|e| e + i) else {
                    return false;
                };
                let ok = s
                    .get(i + 3..end)
                    .and_then(|h| u32::from_str_radix(h, 16).ok())
                    .and_then(char::from_u32)
                    .is_some();
                if !ok {
                    return false;
                }
                i = end + 1;
            }
            _ => i += 2,
        }
    }
    true
}

/// Every cell of every row of `tests/data/*.tsv` as a line: as written, unescaped (`\xHH`,
/// `\u{..}`, ... where the file uses the escapes) and, for cells of hex digits (the charset
/// vectors' input bytes), decoded. to-uri, check (`Checker::new` against `Checker::new_naive`,
/// every host mode, with and without `--uri`) and to-iri against their naive twins.
#[test]
fn tsv_data_cells_give_the_same_bytes_and_errors() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let files = common::files_with_extension(&dir, "tsv");
    let mut total = 0;
    for f in files {
        let mut bytes = Vec::new();
        let mut push = |cell: &[u8]| {
            bytes.extend_from_slice(cell);
            bytes.push(b'\n');
        };
        for row in common::read_tsv(&f) {
            for cell in &row {
                push(cell.as_bytes());
                if cell.contains('\\') && escapes_ok(cell) {
                    push(&common::unescape(cell));
                }
                let hex = cell.len() >= 2
                    && cell.len() % 2 == 0
                    && cell.bytes().all(|b| b.is_ascii_hexdigit());
                if hex {
                    let raw: Vec<u8> = (0..cell.len())
                        .step_by(2)
                        .map(|i| u8::from_str_radix(&cell[i..i + 2], 16).expect("hex"))
                        .collect();
                    push(&raw);
                }
            }
        }
        total += bytes.iter().filter(|&&b| b == b'\n').count();
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        compare(&name, &bytes);
    }
    assert!(total > 2_000, "{total} lines from tests/data");
}
