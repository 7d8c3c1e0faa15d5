//! The checks of the fuzz targets, one function per target. Each takes the fuzzer's bytes,
//! derives its options from the first few bytes, and panics when a property fails.
//!
//! This file is the library of the `iribulk-fuzz` crate and is also included, by path, into
//! `tests/fuzz_regressions.rs`, so that every saved crash is replayed on stable Rust through
//! exactly the same checks.

use iribulk::charset::{Charset, CharsetSource, LegacyInput, QueryCharset};
use iribulk::config::{HostMode, InvalidUtf8, ToUriOptions};
use iribulk::convert::check::{CheckOptions, Checker};
use iribulk::convert::to_iri::{ToIri, ToIriOptions};
use iribulk::engine::input::{MappedFile, Source};
use iribulk::engine::pipeline::{self, RunOptions};
use iribulk::engine::{ChunkOut, EngineOptions, Filter, Mode, OnError, Stats, Worker};
use iribulk::host::{self, idna2003, Idna};
use iribulk::simd::{Classifier, Impl};
use iribulk::Converter as _;
use iribulk::ToUri;
use iribulk::{Level, Rungs};

/// The fuzz targets, by name (the folders of `tests/fuzz_regressions/`).
pub const TARGETS: &[&str] = &[
    "convert_twin",
    "roundtrip",
    "idna_host",
    "pipeline",
    "host_integrity",
    "simd_twin",
];

/// The host-integrity oracle of issue 16 (also included by `tests/host_integrity.rs`).
#[path = "integrity.rs"]
pub mod integrity;

/// Runs the check of target `name` on `data`.
pub fn run_target(name: &str, data: &[u8]) {
    match name {
        "convert_twin" => convert_twin(data),
        "roundtrip" => roundtrip(data),
        "idna_host" => idna_host(data),
        "pipeline" => pipeline(data),
        "host_integrity" => host_integrity(data),
        "simd_twin" => simd_twin(data),
        _ => panic!("unknown fuzz target {name}"),
    }
}

const HOSTS: [HostMode; 4] = [
    HostMode::Auto,
    HostMode::Uts46,
    HostMode::IDNA2003,
    HostMode::Percent,
];

/// Per-line converter options from one byte: host mode (2 bits) and six flags.
pub fn to_uri_options(b: u8) -> ToUriOptions {
    let host = match HOSTS[(b & 3) as usize] {
        HostMode::Idna2003(_) => HostMode::Idna2003(idna2003::Flags {
            use_std3_ascii_rules: b & 64 == 0,
            allow_unassigned: b & 128 == 0,
        }),
        other => other,
    };
    ToUriOptions::default()
        .host(host)
        .strict(b & 4 != 0)
        .leiri(b & 8 != 0)
        .invalid_utf8(if b & 16 != 0 {
            InvalidUtf8::Percent
        } else {
            InvalidUtf8::Error
        })
        .host_fallback_percent(b & 32 != 0)
}

/// Engine options from the first 4 bytes (missing bytes read as 0), and the rest of the data.
///
/// * byte 0: mode (b % 5: to-uri, to-iri, check, check --uri, leiri-to-iri) and, for
///   `check`, the filter ((b / 5) % 3: all, --valid-only, --invalid-only);
/// * byte 1: [`to_uri_options`];
/// * byte 2: error policy (bits 0-1), `--field` (bit 4: on; bits 5-7: field index 0-2;
///   bits 2-3: delimiter TAB `,` space `/`);
/// * byte 3: line cap (0: the default 8 MiB; else 1-255 bytes);
/// * byte 0 again, `b / 21` (bits the mode and filter leave): a legacy charset in every mode
///   but to-iri (which refuses one): 1 `--charset shift_jis`, 2 windows-1252, 3 gb18030, 4
///   `--charset-field` (the field after `--field`'s, with `--field`); else none.
pub fn engine_options(data: &[u8]) -> (EngineOptions, &[u8]) {
    let h = |i: usize| data.get(i).copied().unwrap_or(0);
    let (b0, b1, b2, b3) = (h(0), h(1), h(2), h(3));
    let mode = match b0 % 7 {
        0 => Mode::ToUri,
        1 => Mode::ToIri,
        2 => Mode::Check { uri_only: false },
        3 => Mode::Check { uri_only: true },
        4 => Mode::LeiriToIri,
        // normalize and its shortcut (`normalize::is_normal_unflagged`, issue #11).
        5 => Mode::Normalize {
            rungs: Rungs::level(Level::Syntax),
            as_uri: false,
        },
        _ => Mode::Normalize {
            rungs: Rungs::level(Level::Scheme),
            as_uri: b3 & 1 == 1,
        },
    };
    // Filters exist only for check (the CLI refuses them elsewhere).
    let filter = match (mode, (b0 / 7) % 3) {
        (Mode::Check { .. }, 1) => Filter::ValidOnly,
        (Mode::Check { .. }, 2) => Filter::InvalidOnly,
        _ => Filter::All,
    };
    let on_error = match b2 & 3 {
        1 => OnError::Skip,
        2 => OnError::Fail,
        _ => OnError::Keep,
    };
    let field = (b2 & 16 != 0).then(|| {
        (
            (b2 >> 5) as usize % 3,
            [b'\t', b',', b' ', b'/'][((b2 >> 2) & 3) as usize],
        )
    });
    let max_line_bytes = if b3 == 0 { 8 << 20 } else { b3 as usize };
    let fixed = |l: &[u8]| CharsetSource::Fixed(Charset::for_label(l).expect("a WHATWG label"));
    let source = match (b0 / 21, field) {
        _ if mode == Mode::ToIri => None,
        (1, _) => Some(fixed(b"shift_jis")),
        (2, _) => Some(fixed(b"windows-1252")),
        (3, _) => Some(fixed(b"gb18030")),
        (4, Some((k, _))) => Some(CharsetSource::Field((k + 1) % 3)),
        _ => None,
    };
    let opts = EngineOptions {
        mode,
        filter,
        to_uri: to_uri_options(b1),
        on_error,
        field,
        max_line_bytes,
        charset: source.map(|source| LegacyInput {
            source,
            query_charset: QueryCharset::Document,
        }),
    };
    (opts, data.get(4..).unwrap_or(&[]))
}

fn lossy(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Target `convert_twin`: the fast chunk path ([`Worker::convert_chunk`], with every SIMD
/// classifier this CPU has) against its slow twin ([`Worker::convert_chunk_naive`]): the same
/// output bytes, issues, counts and stop; and the line accounting of the naive run.
pub fn convert_twin(data: &[u8]) {
    let (opts, chunk) = engine_options(data);
    let mut want = ChunkOut::default();
    Worker::new(opts).convert_chunk_naive(chunk, &mut want);
    let want_bytes = want.render(chunk);
    for imp in Impl::ALL {
        let Some(c) = Classifier::with_impl(Worker::flagged_set(&opts), imp) else {
            continue;
        };
        let mut got = ChunkOut::default();
        Worker::with_classifier(opts, c).convert_chunk(chunk, &mut got);
        assert_eq!(
            lossy(&got.render(chunk)),
            lossy(&want_bytes),
            "{imp:?} output, {opts:?}"
        );
        assert_eq!(got.issues, want.issues, "{imp:?} issues, {opts:?}");
        assert_eq!(got.stats, want.stats, "{imp:?} stats, {opts:?}");
        assert_eq!(got.failed, want.failed, "{imp:?} failed, {opts:?}");
    }
    let st = &want.stats;
    let lines = chunk.iter().filter(|&&b| b == b'\n').count() as u64
        + (!chunk.is_empty() && !chunk.ends_with(b"\n")) as u64;
    // Every line counted, also when --on-error fail stopped the chunk (issue #10): the
    // stopping line is skipped, the rest not reached.
    assert_eq!(st.lines, lines, "every line counted");
    assert_eq!(st.lines, st.written + st.skipped + st.not_reached);
    if !want.failed {
        assert_eq!(st.not_reached, 0);
    }
    assert!(want.issues.windows(2).all(|w| w[0].line < w[1].line));
    if opts.on_error == OnError::Keep && opts.filter == Filter::All {
        let out_lines = want_bytes.iter().filter(|&&b| b == b'\n').count();
        let in_lines = chunk.iter().filter(|&&b| b == b'\n').count();
        assert_eq!(
            out_lines, in_lines,
            "line i of the output is line i of the input"
        );
    }
}

/// RFC 3987 §3.2's equivalence for the round trip (as `tests/to_iri.rs`): hex digits
/// upper-cased and percent-encoded unreserved characters decoded; the host's ASCII letters
/// lower-cased (a host is case-insensitive, RFC 3986 §3.2.2, and so are ACE labels, RFC 3490
/// §5: to-iri decodes `XN--P1AI`, to-uri writes `xn--p1ai`; the fuzz input
/// `roundtrip/crash-e33a0782…` found this check without it).
pub fn canonical(s: &[u8]) -> Vec<u8> {
    let hex = |b: u8| (b as char).to_digit(16);
    let mut v = Vec::new();
    let mut i = 0;
    while i < s.len() {
        if s[i] == b'%' && i + 2 < s.len() && hex(s[i + 1]).is_some() && hex(s[i + 2]).is_some() {
            let b = (hex(s[i + 1]).unwrap() * 16 + hex(s[i + 2]).unwrap()) as u8;
            if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
                v.push(b);
            } else {
                v.push(b'%');
                v.extend_from_slice(&s[i + 1..i + 3].to_ascii_uppercase());
            }
            i += 3;
        } else {
            v.push(s[i]);
            i += 1;
        }
    }
    let c = iribulk::grammar::components::split(&v);
    if let Some(a) = c.authority {
        if let Ok(a) = iribulk::grammar::components::split_authority(&v, a) {
            v[a.host].make_ascii_lowercase();
        }
    }
    v
}

fn to_uri(s: &[u8], o: ToUriOptions) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    ToUri::new(o)
        .convert_or_copy_into(s, &mut out)
        .ok()
        .map(|_| out)
}

fn to_iri(s: &[u8], o: ToUriOptions) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    ToIri::new(ToIriOptions { host: o.host })
        .convert_or_copy_into(s, &mut out)
        .map(|_| out)
        .map_err(|e| e.to_string())
}

/// Target `roundtrip`. Byte 0 gives the options ([`to_uri_options`]), the rest is one line.
///
/// With any options, what to-uri writes is a valid RFC 3986 URI-reference (README: "a line
/// whose output would not be a valid URI-reference is an error") and to-uri is the identity
/// on it. With only the host mode set (the documented round trip, RFC 3987 §3.2): to-iri
/// accepts the URI, to-uri of the IRI gives the URI back modulo hex case and decoded
/// unreserved characters, and to-iri is idempotent and never writes NUL, CR or LF.
pub fn roundtrip(data: &[u8]) {
    let Some((&b, line)) = data.split_first() else {
        return;
    };
    let o = to_uri_options(b);
    let Some(uri) = to_uri(line, o) else {
        return;
    };
    let text = std::str::from_utf8(&uri).expect("to-uri writes ASCII");
    assert!(text.is_ascii(), "to-uri writes ASCII: {text:?}");
    assert!(
        iri_string::types::UriReferenceStr::new(text).is_ok(),
        "not a URI-reference: {text:?} (from {:?}, {o:?})",
        lossy(line)
    );
    assert_eq!(
        to_uri(&uri, o).as_deref().map(lossy),
        Some(text.to_string()),
        "to-uri is the identity on its output ({o:?})"
    );
    let plain = ToUriOptions::default().host(o.host);
    if o != plain {
        return;
    }
    let iri = to_iri(&uri, o).unwrap_or_else(|e| panic!("to-iri refused {text:?}: {e}"));
    let back = to_uri(&iri, o)
        .unwrap_or_else(|| panic!("to-uri refused the IRI {:?} (from {text:?})", lossy(&iri)));
    assert_eq!(
        lossy(&canonical(&back)),
        lossy(&canonical(&uri)),
        "round trip through {:?}",
        lossy(&iri)
    );
    let again = to_iri(&iri, o).expect("to-iri accepts its own output");
    assert_eq!(lossy(&again), lossy(&iri), "to-iri idempotent");
    assert!(!iri.iter().any(|&b| b == 0 || b == b'\n' || b == b'\r'));
}

/// The IDNA versions and flags a host can be converted with.
pub fn idna_kinds() -> Vec<Idna> {
    let mut v = vec![Idna::Uts46];
    for std3 in [true, false] {
        for unassigned in [true, false] {
            v.push(Idna::Idna2003(idna2003::Flags {
                use_std3_ascii_rules: std3,
                allow_unassigned: unassigned,
            }));
        }
    }
    v
}

/// Target `idna_host`: the bytes (as lossy UTF-8) through [`host::to_ascii`] with every IDNA
/// kind, and [`idna2003::domain_to_ascii`] / [`idna2003::domain_to_unicode`] with every flag
/// combination. Never panics; ToASCII output is ASCII, at most 253 octets plus a root dot,
/// labels at most 63 octets, letters-digits-hyphens only under STD3 rules, and ToASCII of it
/// gives it back (idempotence); ToUnicode output is bounded by the input's size. First,
/// `bad-ace`'s fast path (`host::ace::first_bad_ace`) against its twin, and
/// `host::fast::accepts` against `host::fast::to_ascii`.
pub fn idna_host(data: &[u8]) {
    let s = String::from_utf8_lossy(data);
    // `bad-ace`'s fast path (a host the UTS #46 fast path decodes has no bad A-label) against
    // the crate's per-label check.
    assert_eq!(
        iribulk::host::ace::first_bad_ace(&s),
        iribulk::host::ace::first_bad_ace_naive(&s),
        "first_bad_ace {s:?}"
    );
    // normalize's step 0: the fast path's answer without Punycode (`host::fast::accepts`)
    // implies the fast path's ToASCII, and so the crate's.
    if iribulk::host::fast::accepts(&s) {
        let mut out = String::new();
        assert!(iribulk::host::fast::to_ascii(&s, &mut out), "accepts {s:?}");
    }
    for idna in idna_kinds() {
        let mut out = String::from("prefix");
        let r = host::to_ascii(&s, idna, &mut out);
        let Some(rest) = out.strip_prefix("prefix") else {
            panic!("to_ascii changed what was in `out` before it: {out:?}");
        };
        let rest = rest.to_string();
        match r {
            Err(_) => assert!(rest.is_empty(), "output left on error: {rest:?}"),
            Ok(()) => {
                check_ascii_name(&rest, idna, &s);
                // host::to_ascii decodes %HH first, so a '%' that ToASCII let through
                // (only without STD3 rules) is not a fixed point.
                if !rest.contains('%') {
                    let mut again = String::new();
                    assert_eq!(
                        host::to_ascii(&rest, idna, &mut again).map(|()| again.as_str()),
                        Ok(rest.as_str()),
                        "{idna:?}: ToASCII is not idempotent on {rest:?} (from {s:?})"
                    );
                }
            }
        }
    }
    for flags in idna_kinds().into_iter().filter_map(|k| match k {
        Idna::Idna2003(f) => Some(f),
        Idna::Uts46 => None,
    }) {
        let mut a = String::new();
        if idna2003::domain_to_ascii(&s, flags, &mut a).is_ok() {
            check_ascii_name(&a, Idna::Idna2003(flags), &s);
            let mut again = String::new();
            assert_eq!(
                idna2003::domain_to_ascii(&a, flags, &mut again).map(|()| again.as_str()),
                Ok(a.as_str()),
                "{flags:?}: domain_to_ascii is not idempotent on {a:?} (from {s:?})"
            );
        }
        let mut u = String::new();
        idna2003::domain_to_unicode(&s, flags, &mut u);
        assert!(
            u.len() <= 4 * s.len() + 16,
            "ToUnicode of {} bytes gave {} bytes",
            s.len(),
            u.len()
        );
    }
}

fn check_ascii_name(name: &str, idna: Idna, input: &str) {
    assert!(
        name.is_ascii(),
        "ToASCII({input:?}) = {name:?} is not ASCII"
    );
    let n = name.strip_suffix('.').unwrap_or(name);
    assert!(
        n.len() <= 253,
        "{idna:?}: name of {} octets from {input:?}",
        n.len()
    );
    for l in n.split('.') {
        assert!(l.len() <= 63, "{idna:?}: label {l:?} of {} octets", l.len());
    }
    let std3 = match idna {
        Idna::Uts46 => true,
        Idna::Idna2003(f) => f.use_std3_ascii_rules,
    };
    if std3 {
        assert!(
            name.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'.'),
            "{idna:?}: ToASCII({input:?}) = {name:?} is not letters, digits, hyphens"
        );
    }
}

/// A report row as (line, column, code, warning).
type ReportRow = (u64, u64, String, bool);

fn parse_report(r: &[u8]) -> Vec<ReportRow> {
    let text = String::from_utf8(r.to_vec()).expect("the report is UTF-8");
    // convert_source writes the rows; the header is written by pipeline::run.
    text.lines()
        .map(|l| {
            let mut f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), 6, "report row {l:?}");
            assert_eq!(f.remove(0), "fuzz", "file column of {l:?}");
            (
                f[0].parse().expect("line"),
                f[1].parse().expect("column"),
                f[2].to_string(),
                f[3].starts_with("warning:"),
            )
        })
        .collect()
}

/// Target `pipeline`: [`pipeline::convert_source`] on the bytes, both as a stream and as a
/// mapped input (the two shapes of the pipeline: a reader and a writer thread, or one thread
/// that cuts and writes), with a chunk size, thread count and window from the first bytes,
/// against one naive run of the whole input as a single chunk: the same output, counts,
/// report rows and stop. That naive run against each line alone (a line inherits nothing
/// from the lines before it: the host cache's last-miss bug, eb51cde, broke it).
///
/// * byte 0: chunk size 1 + 7 × b (1 to 1786 bytes);
/// * byte 1: threads 1-3 (b % 3), window 0-3 ((b / 3) % 4, 0 = the default for the threads);
/// * bytes 2-5: [`engine_options`].
pub fn pipeline(data: &[u8]) {
    let h = |i: usize| data.get(i).copied().unwrap_or(0);
    let chunk_size = 1 + 7 * h(0) as usize;
    let threads = 1 + (h(1) % 3) as usize;
    let window = ((h(1) / 3) % 4) as usize;
    let (engine, input) = engine_options(data.get(2..).unwrap_or(&[]));
    let opts = RunOptions {
        engine,
        threads,
        chunk_size,
        window,
        ..RunOptions::default()
    };
    // The naive reference: one chunk, every line through the converter (a leading BOM is
    // dropped by the pipeline, README).
    let body = input.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(input);
    let mut want = ChunkOut::default();
    Worker::new(engine).convert_chunk_naive(body, &mut want);
    let want_bytes = want.render(body);
    // A line's output does not depend on the lines before it (a converter's state, its host
    // cache included, carries nothing from one line to the next): each line alone, through
    // a fresh worker, gives the same bytes. Up to 32 lines (a worker per line); not under
    // `--on-error fail`, whose run ends at the first error.
    if engine.on_error != OnError::Fail && body.split(|&b| b == b'\n').count() <= 32 {
        let mut alone = Vec::new();
        for line in body.split_inclusive(|&b| b == b'\n') {
            let mut one = ChunkOut::default();
            Worker::new(engine).convert_chunk_naive(line, &mut one);
            alone.extend_from_slice(&one.render(line));
        }
        assert_eq!(
            lossy(&want_bytes),
            lossy(&alone),
            "the whole input against each line alone ({engine:?})"
        );
    }
    for mapped in [false, true] {
        let source = if mapped {
            Source::Mapped(MappedFile::from_bytes(input).expect("an anonymous map"))
        } else {
            Source::Stream(Box::new(std::io::Cursor::new(input.to_vec())))
        };
        let ctx = format!(
            "mapped {mapped}, chunk {chunk_size}, {threads} threads, window {window}, {engine:?}"
        );
        let mut out = Vec::new();
        let mut report = Vec::new();
        let summary = match pipeline::convert_source(
            source,
            &mut out,
            Some(&mut report),
            &opts,
            Some(std::path::Path::new("fuzz")),
            "fuzz",
            None,
        ) {
            Ok(s) => s,
            Err(e) => panic!("convert_source failed on an in-memory input: {e} ({ctx})"),
        };
        assert_eq!(lossy(&out), lossy(&want_bytes), "output ({ctx})");
        // After `--on-error fail`, how many lines after the stop were read depends on the
        // chunks in flight: "lines" and "not reached" are compared through the equation
        // instead.
        let stopped = want.failed;
        let strip = |s: &Stats| Stats {
            bytes: 0,
            lines: if stopped { 0 } else { s.lines },
            not_reached: if stopped { 0 } else { s.not_reached },
            ..s.clone()
        };
        let st = &summary.stats;
        assert_eq!(
            st.lines,
            st.written + st.skipped + st.not_reached,
            "lines in = out ({ctx})"
        );
        assert!(
            st.lines <= want.stats.lines,
            "no line counted twice ({ctx})"
        );
        assert_eq!(strip(&summary.stats), strip(&want.stats), "stats ({ctx})");
        assert_eq!(
            summary.stopped_at_error, want.failed,
            "stop at error ({ctx})"
        );
        let want_rows: Vec<ReportRow> = want
            .issues
            .iter()
            .map(|is| {
                (
                    is.line + 1,
                    is.err.offset as u64 + 1,
                    is.err.kind.code().to_string(),
                    is.warning,
                )
            })
            .collect();
        assert_eq!(parse_report(&report), want_rows, "report rows ({ctx})");
    }
}

/// Target `host_integrity`: for a line written without error, the WHATWG reading (the `url`
/// crate) of input and output agree on scheme, host, port and userinfo (issue 16; see
/// [`integrity`]). The first byte picks the mode and the base. Causes still open today
/// ([`integrity::OPEN_CAUSES`]) are tolerated.
pub fn host_integrity(data: &[u8]) {
    integrity::fuzz_one(data, integrity::OPEN_CAUSES);
}

/// The one-pass head scanner of the Guard and to-uri (`components::scan_head`, the 16-byte
/// compare blocks behind `LineHead::of`), check's one walk over a line's characters
/// (`check::scan_line`), its host automaton (`HostFacts::of`, `is_dns_name`) and the engine's
/// one-pass clean-line shortcuts of to-uri and to-iri (`clean_line_twin_check`) against their
/// twins on the raw bytes. These are safe code, but each is a fast path shared by both sides of the engine
/// twin, so only this comparison catches a wrong answer.
fn head_twins(data: &[u8]) {
    use iribulk::convert::integrity::LineHead;
    use iribulk::grammar::components::{scan_head, scan_head_naive};
    assert_eq!(
        scan_head::<true>(data),
        scan_head_naive::<true>(data),
        "scan_head"
    );
    assert_eq!(
        scan_head::<false>(data),
        scan_head_naive::<false>(data),
        "scan_head"
    );
    assert_eq!(LineHead::of(data), LineHead::naive(data), "LineHead");
    iribulk::engine::lines::clean_line_twin_check(data);
    assert_eq!(
        iribulk::convert::check::HostFacts::of(data),
        iribulk::convert::check::HostFacts::of_naive(data),
        "HostFacts"
    );
    if let Ok(s) = std::str::from_utf8(data) {
        iribulk::convert::check::scan_twin_check(s);
        assert_eq!(
            iribulk::convert::check::is_dns_name(s),
            iribulk::convert::check::is_dns_name_naive(s),
            "is_dns_name"
        );
    }
}

/// Target `simd_twin` (issue 11): the percent-encoding kernel at every level this CPU has,
/// the right-to-left prefilter of `check`, the triplet decoder of to-iri (every kernel) and
/// its scan of decoded octets (`clean_prefix`), UTF-8 validation of a line and of a run
/// (`utf8_twin_check`), the starts of non-ASCII runs (`run_starts_twin_check`, for the
/// combining-mark rule), the crawl-authority scan and the `xn--`
/// search against their scalar twins on the raw bytes, to-uri's one-pass crawl-line
/// shortcut, to-iri's and check's against the Guard around the converter
/// (`crawl_line_compare`), normalize's line check (`clean_line_twin_check`), path scan
/// (`tail_dot_twin_check`) and one-call shortcut against the engine's slow path
/// (`normalize_crawl_line_compare`), and
/// [`head_twins`];
/// then the per-line converters with their block kernels against their naive twins
/// (`ToUri::new_naive`, `ToIri::new_naive`, `Checker::new_naive`): the same output, outcome
/// and error, with options from the first byte.
pub fn simd_twin(data: &[u8]) {
    {
        use iribulk::engine::lines::{LEIRI_FLAGGED, TO_IRI_FLAGGED, TO_URI_FLAGGED};
        iribulk::simd::classifier_twin_check(
            data,
            &[TO_URI_FLAGGED, LEIRI_FLAGGED, TO_IRI_FLAGGED],
        );
    }
    iribulk::simd::pct_twin_check(data);
    iribulk::simd::rtl_twin_check(data);
    iribulk::simd::hex_twin_check(data);
    iribulk::simd::utf8_twin_check(data);
    iribulk::simd::run_starts_twin_check(data);
    iribulk::convert::to_iri::clean_prefix_twin_check(data);
    iribulk::convert::normalize::clean_line_twin_check(data);
    iribulk::convert::normalize::tail_dot_twin_check(data);
    iribulk::grammar::validate::crawl_twin_check(data);
    iribulk::host::ace_twin_check(data);
    iribulk::convert::to_uri::crawl_line_compare(
        &mut iribulk::convert::to_uri::crawl_line_twins(),
        data,
    );
    iribulk::convert::to_iri::crawl_line_compare(
        &mut iribulk::convert::to_iri::crawl_line_twins(),
        data,
    );
    iribulk::convert::check::crawl_line_compare(
        &mut iribulk::convert::check::crawl_line_twins(),
        data,
    );
    iribulk::engine::worker::normalize_crawl_line_compare(
        &mut iribulk::engine::worker::NormalizeTwins::new(),
        data,
    );
    head_twins(data);
    let Some((&b, line)) = data.split_first() else {
        return;
    };
    let opts = to_uri_options(b);
    let (mut a, mut c) = (Vec::new(), Vec::new());
    let ra = ToUri::new(opts).convert_or_copy_into(line, &mut a);
    let rc = ToUri::new_naive(opts).convert_or_copy_into(line, &mut c);
    assert_eq!((&ra, lossy(&a)), (&rc, lossy(&c)), "to-uri {opts:?}");
    let check = CheckOptions {
        to_uri: opts,
        uri_only: b & 16 != 0,
    };
    let (mut x, mut y) = (Vec::new(), Vec::new());
    let rx = Checker::new(check).convert_or_copy_into(line, &mut x);
    let ry = Checker::new_naive(check).convert_or_copy_into(line, &mut y);
    assert_eq!((&rx, lossy(&x)), (&ry, lossy(&y)), "check {check:?}");
    // normalize's one-pass IRI form against steps 0–9 in full (issue #11), at `--level
    // syntax` (with or without the case and path rungs) and `--level scheme` (its crawl lines
    // with an LDH host take the same pass).
    let level = if b & 128 == 0 {
        Level::Syntax
    } else {
        Level::Scheme
    };
    let norm = iribulk::convert::normalize::NormalizeOptions {
        rungs: Rungs {
            case: b & 32 == 0,
            path: b & 64 == 0,
            ..Rungs::level(level)
        },
        ..Default::default()
    };
    let (mut x, mut y) = (Vec::new(), Vec::new());
    let rx = iribulk::convert::normalize::Normalizer::new(norm).convert_or_copy_into(line, &mut x);
    let ry =
        iribulk::convert::normalize::Normalizer::new_full(norm).convert_or_copy_into(line, &mut y);
    assert_eq!((&rx, lossy(&x)), (&ry, lossy(&y)), "normalize {norm:?}");
    let iri = ToIriOptions {
        host: HOSTS[(b & 3) as usize],
    };
    for input in [line, &a[..]] {
        let (mut x, mut y) = (Vec::new(), Vec::new());
        let rx = ToIri::new(iri).convert_or_copy_into(input, &mut x);
        let ry = ToIri::new_naive(iri).convert_or_copy_into(input, &mut y);
        assert_eq!((&rx, lossy(&x)), (&ry, lossy(&y)), "to-iri {iri:?}");
    }
}
