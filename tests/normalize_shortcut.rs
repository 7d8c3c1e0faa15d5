//! The normalize shortcut (issue #11): `normalize::is_normal_ascii` against the full path.
//!
//! Wherever the predicate says a line is already normal, the normalizer as the engine runs it
//! (`Worker::convert_value`: `Repairing` + `Guard` + `Normalizer`, the engine's slow path for
//! one line) must pass it through with `Outcome::default()`, for every level and preset of
//! rungs, `--as-uri`, `--idn` form and IDNA (UTS #46, IDNA2003) — on every line of every data
//! set, of the synthetic sets of `scripts/gen-dataset`, on edge cases at every length and on
//! random lines. The engine's fast chunk walk (which asks the predicate) must give the bytes,
//! issues and counts of its naive twin on every data set in normalize mode. And the predicate
//! must not be trivially false: it accepts most of a real crawl at `--level syntax`.

mod common;

use iribulk::config::Repairs;
use iribulk::convert::normalize::{is_normal_ascii, Idn, Level, NormalizeOptions, Rungs};
use iribulk::engine::{EngineOptions, Mode, Worker, TO_URI_FLAGGED};
use iribulk::grammar::classes::PLAIN_TABLE;
use iribulk::host::Idna;
use iribulk::{HostMode, Outcome};
use proptest::prelude::*;

/// One way of running normalize: the options the predicate is asked with, and a worker that
/// runs the full path with the same options.
struct Variant {
    name: String,
    opts: NormalizeOptions,
    worker: Worker,
}

fn engine_options(rungs: Rungs, as_uri: bool, host: HostMode) -> EngineOptions {
    EngineOptions {
        mode: Mode::Normalize { rungs, as_uri },
        to_uri: iribulk::ToUriOptions::default().host(host),
        ..EngineOptions::default()
    }
}

/// The normalize options the engine builds from `e` (`Worker`'s `Op::new`: IDNA2003 hosts for
/// `--host idna2003`, else UTS #46).
fn normalize_options(e: &EngineOptions) -> NormalizeOptions {
    let Mode::Normalize { rungs, as_uri } = e.mode else {
        panic!("not normalize: {:?}", e.mode)
    };
    NormalizeOptions {
        rungs,
        as_uri,
        idna: match e.to_uri.host {
            HostMode::Idna2003(f) => Idna::Idna2003(f),
            _ => Idna::Uts46,
        },
    }
}

/// Every variant ([`group`] 0, 1 and 2).
fn variants() -> Vec<Variant> {
    (0..3).flat_map(group).collect()
}

/// Group 0 (UTS #46) and group 1 (IDNA2003): every level with every `--idn` form and
/// `--as-uri`. Group 2: each rung alone; character normalization; and the options of the
/// guard and the repairs (`--strict`, `--trim`, `--repair`, `--host percent`). The data set
/// test runs one group per test, so that the harness runs them side by side.
fn group(g: usize) -> Vec<Variant> {
    let mut engines = Vec::new();
    if g < 2 {
        let host = [HostMode::Auto, HostMode::IDNA2003][g];
        for level in [Level::String, Level::Syntax, Level::Scheme] {
            for idn in [None, Some(Idn::Ascii), Some(Idn::Unicode)] {
                for as_uri in [false, true] {
                    let rungs = Rungs {
                        idn,
                        ..Rungs::level(level)
                    };
                    engines.push(engine_options(rungs, as_uri, host));
                }
            }
        }
        return engines.into_iter().map(variant).collect();
    }
    let one = |f: fn(&mut Rungs)| {
        let mut r = Rungs::default();
        f(&mut r);
        r
    };
    for rungs in [
        one(|r| r.case = true),
        one(|r| r.percent = true),
        one(|r| r.path = true),
        one(|r| r.scheme = true),
        one(|r| r.idn = Some(Idn::Ascii)),
        one(|r| r.nfc = true),
        Rungs {
            nfkc: true,
            scheme: true,
            ..Rungs::level(Level::Syntax)
        },
    ] {
        engines.push(engine_options(rungs, false, HostMode::Auto));
    }
    let scheme = Rungs::level(Level::Scheme);
    let mut e = engine_options(scheme, false, HostMode::Uts46);
    e.to_uri = e.to_uri.strict(true).trim(true).repair(Repairs::ALL);
    engines.push(e);
    engines.push(engine_options(scheme, true, HostMode::Percent));
    engines.into_iter().map(variant).collect()
}

fn variant(e: EngineOptions) -> Variant {
    Variant {
        name: format!("{:?} host {:?}", e.mode, e.to_uri.host),
        opts: normalize_options(&e),
        worker: Worker::new(e),
    }
}

/// Asserts the shortcut's promise on `line` for every variant; returns how many accepted it.
fn check_line(vs: &mut [Variant], line: &[u8], out: &mut Vec<u8>) -> usize {
    let mut accepted = 0;
    for v in vs.iter_mut() {
        if !is_normal_ascii(line, &v.opts) {
            continue;
        }
        accepted += 1;
        out.clear();
        let r = v.worker.convert_value(line, out);
        assert_eq!(
            (r, String::from_utf8_lossy(out)),
            (Ok(Outcome::default()), "".into()),
            "accepted but not passed through as it is: {:?} ({})",
            String::from_utf8_lossy(line),
            v.name
        );
    }
    accepted
}

#[test]
fn the_byte_rule_is_the_complement_of_the_to_uri_flagged_set() {
    // `is_normal_ascii` reads PLAIN_TABLE less '@'; the engine flags TO_URI_FLAGGED.
    for b in 0..=255u8 {
        assert_eq!(
            PLAIN_TABLE[b as usize] && b != b'@',
            !TO_URI_FLAGGED.contains(b),
            "byte {b:#04x}"
        );
    }
}

/// Every line of every data set with the variants of [`group`] `g` — for groups 1 and 2
/// (IDNA2003; single rungs and the Guard's options) every third line: each accepted line runs
/// the whole normalizer once per variant in a debug build, and the three groups on every line
/// took 230 s of CI's `cargo test`. Group 0 (every level, `--idn` form and `--as-uri` under
/// UTS #46) still sees every line, and `fast_chunks_equal_naive_chunks_on_every_dataset` runs
/// the engine on every line.
fn datasets_with_group(g: usize) {
    let stride = if g == 0 { 1 } else { 3 };
    let Some(shared) = common::shared_dir() else {
        return;
    };
    let mut vs = group(g);
    let mut out = Vec::new();
    for f in common::dataset_files(&shared) {
        let bytes = std::fs::read(&f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let (mut n, mut acc) = (0usize, 0usize);
        for line in common::lines(&bytes).step_by(stride) {
            n += 1;
            acc += check_line(&mut vs, line, &mut out);
        }
        eprintln!(
            "{}: {n} lines, {:.1} % of (line, variant) pairs accepted (group {g})",
            f.display(),
            100.0 * acc as f64 / (n * vs.len()) as f64
        );
    }
}

#[test]
fn every_dataset_line_accepted_is_passed_through_uts46() {
    datasets_with_group(0);
}

#[test]
fn every_dataset_line_accepted_is_passed_through_idna2003() {
    datasets_with_group(1);
}

#[test]
fn every_dataset_line_accepted_is_passed_through_single_rungs_and_guard() {
    datasets_with_group(2);
}

#[test]
fn every_synthetic_line_accepted_is_passed_through() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut vs = variants();
    let mut out = Vec::new();
    for (na, bad, seed) in [("0.0", "0.0", "5"), ("0.10", "0.05", "7")] {
        let p = dir.path().join(format!("na{na}-bad{bad}.txt"));
        if !common::gen_dataset(&p, na, bad, seed) {
            return;
        }
        let bytes = std::fs::read(&p).expect("generated file");
        let acc: usize = common::lines(&bytes)
            .map(|l| check_line(&mut vs, l, &mut out))
            .sum();
        assert!(acc > 0, "{}: no line accepted", p.display());
    }
}

/// Pieces of heads, hosts, ports, paths and queries that each step of the normalizer looks
/// at, combined and stretched to every length from 0 to 40 (the predicate's split works in
/// blocks of 16 and 8 bytes).
#[test]
fn edge_cases_at_every_length() {
    let mut vs = variants();
    let mut out = Vec::new();
    let heads = [
        "http://", "HTTP://", "Http://", "https://", "ws://", "ftp://", "ssh://", "foo://",
        "file://", "FILE://", "urn:", "mailto:", "//", "", "a+b.c-d:", "1a:",
    ];
    let ports = [
        "", ":", ":80", ":080", ":0", ":00", ":443", ":21", ":8080", ":x",
    ];
    let paths = [
        "",
        "/",
        "/a",
        "/.",
        "/..",
        "/./a",
        "/../a",
        "/a/.",
        "/a/..",
        "/.a",
        "/..a",
        "/a.",
        "/a..b",
        "//a",
        "/.//a",
        "/C:/a/../b",
        "/a/./b?c",
        "?/./",
        "/a?b/../c",
        "a/../b",
        "../a",
    ];
    let queries = ["", "?", "?q=A", "?/../"];
    let hosts = [
        "a",
        "A",
        "example.com",
        "Example.com",
        "xn--bcher-kva.de",
        "XN--bcher-kva.de",
        "a--b",
        "-a",
        "a-",
        "a.",
        "a..b",
        "1.2.3.4",
        "a_b",
        "a!b",
        "",
    ];
    for head in heads {
        for host in hosts {
            for port in ports {
                for path in paths {
                    for q in queries {
                        let line = format!("{head}{host}{port}{path}{q}");
                        check_line(&mut vs, line.as_bytes(), &mut out);
                    }
                }
            }
        }
    }
    // Every length of the host, the port and the path around the block boundaries: the
    // plain lines are accepted at --level syntax (the predicate is not trivially false), and
    // the ones with a change at the end of each part are not passed through wrongly.
    let syntax = NormalizeOptions::default();
    for n in 0..=40 {
        let a = "a".repeat(n);
        for line in [
            format!("http://{a}x.com/p"),
            format!("http://x{a}.com:8080/p"),
            format!("http://x.com/{a}/p.html?q"),
            format!("foo:{a}x/./b"),
            format!("/{a}/b.c"),
        ] {
            assert!(
                is_normal_ascii(line.as_bytes(), &syntax),
                "{line:?} not accepted"
            );
            check_line(&mut vs, line.as_bytes(), &mut out);
        }
        for line in [
            format!("http://{a}X.com/p"),
            format!("http://x{a}.com:80/p"),
            format!("http://x{a}.com:/p"),
            format!("http://x{a}.com"),
            format!("http://x.com/{a}/./p"),
            format!("http://x.com/{a}/.."),
            format!("HTTP://x.com/{a}"),
            format!("http://x.com/{a}%7e"),
            format!("http://xn--{a}bcher-kva.de/"),
            format!("http://x.com:{a}8/"),
        ] {
            check_line(&mut vs, line.as_bytes(), &mut out);
        }
    }
}

#[test]
fn accepts_most_of_a_real_crawl_at_syntax_level() {
    let Some(shared) = common::shared_dir() else {
        return;
    };
    let f = shared.join("datasets/real_files_and_shortener.txt");
    let bytes = std::fs::read(&f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
    let syntax = NormalizeOptions::default();
    assert_eq!(syntax.rungs, Rungs::level(Level::Syntax));
    let (mut n, mut acc) = (0usize, 0usize);
    for line in common::lines(&bytes) {
        n += 1;
        acc += usize::from(is_normal_ascii(line, &syntax));
    }
    let rate = acc as f64 / n as f64;
    eprintln!(
        "{}: {acc} of {n} lines ({:.2} %) accepted at --level syntax",
        f.display(),
        100.0 * rate
    );
    assert!(rate >= 0.5, "only {:.2} % accepted", 100.0 * rate);
}

/// The engine with the shortcut (`convert_chunk`) against its naive twin (every line through
/// the converter) on every data set and on the URIs that to-uri writes for it (percent-encoded
/// text: the lines normalize's one-call shortcut answers with step 9's decoding), in
/// normalize mode: the same bytes, issues and counts.
#[test]
fn fast_chunks_equal_naive_chunks_on_every_dataset() {
    let Some(shared) = common::shared_dir() else {
        return;
    };
    let mut strict = engine_options(Rungs::level(Level::Scheme), false, HostMode::IDNA2003);
    strict.to_uri = strict.to_uri.strict(true).repair(Repairs::ALL);
    let modes = [
        engine_options(Rungs::level(Level::Syntax), false, HostMode::Auto),
        engine_options(Rungs::level(Level::Scheme), false, HostMode::Auto),
        engine_options(Rungs::level(Level::Scheme), true, HostMode::Auto),
        engine_options(
            Rungs {
                idn: Some(Idn::Unicode),
                ..Rungs::level(Level::String)
            },
            false,
            HostMode::Auto,
        ),
        strict,
    ];
    let mut inputs = Vec::new();
    for f in common::dataset_files(&shared) {
        let bytes = std::fs::read(&f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let mut to_uri = iribulk::convert::to_uri::ToUri::new(iribulk::ToUriOptions::default());
        let mut uris = Vec::new();
        for line in bytes.split(|&b| b == b'\n') {
            let mark = uris.len();
            match to_uri.convert_into(line, &mut uris) {
                Ok(o) if o.written == iribulk::Written::Wrote => {}
                _ => {
                    uris.truncate(mark);
                    uris.extend_from_slice(line);
                }
            }
            uris.push(b'\n');
        }
        inputs.push((format!("{}", f.display()), bytes));
        inputs.push((format!("{} (its URIs)", f.display()), uris));
    }
    for (name, bytes) in inputs {
        for e in modes {
            // Chunks of ~1 MiB cut at a line end, as the reader does.
            let mut start = 0;
            while start < bytes.len() {
                let mut end = (start + (1 << 20)).min(bytes.len());
                if let Some(p) = memchr_lf(&bytes[end..]) {
                    end += p + 1;
                } else {
                    end = bytes.len();
                }
                let what = format!("{name} at {start}");
                common::assert_engine_twin(
                    &what,
                    &bytes[start..end],
                    e,
                    &[iribulk::simd::Impl::best()],
                );
                start = end;
            }
        }
    }
}

fn memchr_lf(s: &[u8]) -> Option<usize> {
    s.iter().position(|&b| b == b'\n')
}

/// Pieces of ASCII URIs heavy in what the predicate must judge or refuse: `. / : %`, `xn--`,
/// brackets, `@`, capitals, ports, dot segments.
const ATOMS: &[&str] = &[
    "http:",
    "HTTP:",
    "https:",
    "ftp:",
    "file:",
    "foo:",
    "ws:",
    "//",
    "/",
    "/",
    "/",
    ".",
    ".",
    "..",
    "./",
    "../",
    ":",
    ":",
    "80",
    "0",
    "443",
    "%",
    "%41",
    "%7e",
    "%2F",
    "%2e",
    "xn--",
    "XN--",
    "bcher-kva",
    "[",
    "]",
    "[::1]",
    "@",
    "?",
    "#",
    "a",
    "b",
    "B",
    "Z",
    "-",
    "--",
    "_",
    "~",
    "!",
    "=",
    "+",
    "com",
    "Com",
    "example",
    ".",
    "/a",
    "C:",
];

fn ascii_uri() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(ATOMS), 0..16).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, .. ProptestConfig::default() })]
    #[test]
    fn random_ascii_lines_accepted_are_passed_through(line in ascii_uri()) {
        thread_local! {
            static VS: std::cell::RefCell<Vec<Variant>> = std::cell::RefCell::new(variants());
        }
        VS.with(|vs| {
            let mut out = Vec::new();
            check_line(&mut vs.borrow_mut(), line.as_bytes(), &mut out);
        });
    }
}
