//! Hostile inputs (`tests/data/hostile.tsv`): invalid UTF-8 of every kind, controls, BOMs,
//! bidi overrides, private use, noncharacters, hosts built to break IDNA, IP literals, and
//! percent-encodings that to-iri must not decode.
//!
//! Every row is checked three ways, and each failure is attributed to its row:
//!
//! 1. **library**: the per-line converter of its mode (`ToUri`, `ToIri`, `Checker`,
//!    `LeiriToIri`; the chunk engine for rows with a line cap or a filter) against the
//!    expected column;
//! 2. **engine**: the fast chunk path (`Worker::convert_chunk`) against its slow twin
//!    (`convert_chunk_naive`) on the row as a one-line chunk, and the twin against the
//!    converter;
//! 3. **cli**: the rows grouped by mode and options, each group one file with a good line
//!    before the first row and after every row, run through the binary twice (a mapped file
//!    with `--on-error keep` on 2 threads; stdin with `--on-error skip`, one thread, 1 KiB
//!    chunks, so that long lines are streamed in pieces; `--valid-only` groups get
//!    `--on-error keep` there, which the filter must override): every line accounted for (`--stats json`: lines = written + skipped), every
//!    bad row in the `--errors` report with its line, column and code, the good lines
//!    converted normally.
//!
//! `host_cache_memory_is_bounded` checks one resource bound that a row cannot express: memory
//! must not grow with distinct long hosts (it did, until `HostCache::MAX_KEY`).
//!
//! Rows whose notes start with `KNOWN-FAILURE:` document bugs in `src/`; they are listed in
//! [`KNOWN_FAILURES`]. The test fails if the list and the file disagree, if a listed row
//! passes every check (it was fixed: remove it from both), or if any other row fails. In the
//! CLI run a known row is expected to do what the fast path does, so that the rest of its
//! group is still checked.

mod common;

use common::{parse_options, read_tsv, run_stdin, unescape};
use iribulk::convert::check::{CheckOptions, Checker};
use iribulk::convert::leiri::LeiriToIri;
use iribulk::convert::repair::Repairing;
use iribulk::convert::to_iri::{ToIri, ToIriOptions};
use iribulk::convert::Converter;
use iribulk::engine::{ChunkOut, EngineOptions, Filter, Mode, Worker};
use iribulk::{ToUri, ToUriOptions};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::{Command, Stdio};

/// Rows that fail because of a bug in `src/` (id, reason). Keep in sync with the
/// `KNOWN-FAILURE:` notes of `tests/data/hostile.tsv`.
const KNOWN_FAILURES: &[(&str, &str)] = &[];

/// Expected (or actual) result of one row.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Res {
    Ok(Vec<u8>),
    Warn(String, Vec<u8>),
    Error(String),
}

impl std::fmt::Display for Res {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Res::Ok(o) => write!(f, "OK:{}", show(o)),
            Res::Warn(c, o) => write!(f, "WARN:{c}:{}", show(o)),
            Res::Error(c) => write!(f, "ERROR:{c}"),
        }
    }
}

/// At most 160 bytes of `b`, lossily, with the length when cut.
fn show(b: &[u8]) -> String {
    let s = String::from_utf8_lossy(b);
    let mut end = s.len().min(160);
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    if end < s.len() {
        format!("{:?}… ({} bytes)", &s[..end], b.len())
    } else {
        format!("{s:?}")
    }
}

struct Row {
    id: String,
    mode_name: String,
    opts_name: String,
    mode: Mode,
    filter: Filter,
    to_uri: ToUriOptions,
    max_line: Option<usize>,
    input: Vec<u8>,
    expected: Res,
    known: bool,
}

/// Expands `{rep:N:TEXT}` (TEXT may hold escapes and nested macros; braces balance).
fn expand(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(p) = rest.find("{rep:") {
        out.push_str(&rest[..p]);
        let after = &rest[p + 5..];
        let colon = after.find(':').expect("{rep:N:TEXT}");
        let n: usize = after[..colon].parse().expect("{rep:N:...} count");
        let body = &after[colon + 1..];
        let mut depth = 1;
        let mut end = None;
        for (i, c) in body.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = Some(i);
                        break;
                    }
                }
                _ => {}
            }
        }
        let end = end.expect("unbalanced {rep:...}");
        out.push_str(&expand(&body[..end]).repeat(n));
        rest = &body[end + 1..];
    }
    out.push_str(rest);
    out
}

fn data(s: &str) -> Vec<u8> {
    unescape(&expand(s))
}

fn parse_expected(s: &str) -> Res {
    if let Some(o) = s.strip_prefix("OK:") {
        Res::Ok(data(o))
    } else if let Some(w) = s.strip_prefix("WARN:") {
        let (code, o) = w.split_once(':').expect("WARN:code:output");
        Res::Warn(code.to_string(), data(o))
    } else if let Some(c) = s.strip_prefix("ERROR:") {
        Res::Error(c.to_string())
    } else {
        panic!("bad expected column {s:?}")
    }
}

fn rows() -> Vec<Row> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/hostile.tsv");
    read_tsv(&path)
        .into_iter()
        .map(|r| {
            assert_eq!(r.len(), 7, "row {:?} must have 7 columns", r.first());
            let mut uri_only = false;
            let mut filter = Filter::All;
            let mut max_line = None;
            let mut keys = Vec::new();
            for k in r[3].split(',').filter(|k| *k != "-") {
                match k {
                    "uri" => uri_only = true,
                    "valid-only" => filter = Filter::ValidOnly,
                    "invalid-only" => filter = Filter::InvalidOnly,
                    k if k.starts_with("max-line=") => {
                        max_line = Some(k[9..].parse().expect("max-line=N"));
                    }
                    k => keys.push(k),
                }
            }
            let to_uri = if keys.is_empty() {
                ToUriOptions::default()
            } else {
                parse_options(&keys.join(","))
            };
            let mode = match r[2].as_str() {
                "to-uri" => Mode::ToUri,
                "to-iri" => Mode::ToIri,
                "check" => Mode::Check { uri_only },
                "leiri-to-iri" => Mode::LeiriToIri,
                m => panic!("{}: unknown mode {m}", r[0]),
            };
            assert!(
                filter == Filter::All || matches!(mode, Mode::Check { .. }),
                "{}: filters go with check",
                r[0]
            );
            Row {
                id: r[0].clone(),
                mode_name: r[2].clone(),
                opts_name: r[3].clone(),
                mode,
                filter,
                to_uri,
                max_line,
                input: data(&r[4]),
                expected: parse_expected(&r[5]),
                known: r[6].starts_with("KNOWN-FAILURE:"),
            }
        })
        .collect()
}

fn engine_options(row: &Row) -> EngineOptions {
    EngineOptions {
        mode: row.mode,
        filter: row.filter,
        to_uri: row.to_uri,
        max_line_bytes: row
            .max_line
            .unwrap_or(EngineOptions::default().max_line_bytes),
        ..EngineOptions::default()
    }
}

/// The result of a one-line chunk, as the row's expectation is written (filter ignored).
fn chunk_result(line: &[u8], res: &ChunkOut) -> (Res, Option<usize>) {
    let out = res.render(line);
    match res.issues.first() {
        Some(is) if !is.warning => (Res::Error(is.err.kind.code().into()), Some(is.err.offset)),
        Some(is) => (
            Res::Warn(is.err.kind.code().into(), out),
            Some(is.err.offset),
        ),
        None => (Res::Ok(out), None),
    }
}

/// The codes of the host-integrity checks of issue 16, which the engine runs around every
/// converter (`convert::integrity::Guard`, which wraps the engine's mode; the per-line
/// converters used here run without it): where the engine reports one, its
/// per-line answer is the library's.
const HOST_INTEGRITY_CODES: &[&str] = &[
    "missing-host",
    "browser-stripped",
    "backslash-reference",
    "drive-letter-reference",
    "opaque-base-reference",
    "idna2003-differs",
    "host-char-removed",
    "ambiguous-ipv4",
];

/// The library's answer for a row, with the offset of its error or first warning.
fn convert(row: &Row) -> (Res, Option<usize>) {
    let opts = EngineOptions {
        filter: Filter::All,
        ..engine_options(row)
    };
    let mut res = ChunkOut::default();
    Worker::new(opts).convert_chunk_naive(&row.input, &mut res);
    if res
        .issues
        .first()
        .is_some_and(|i| HOST_INTEGRITY_CODES.contains(&i.err.kind.code()))
    {
        return chunk_result(&row.input, &res);
    }
    convert_one(row)
}

/// The per-line converter's answer for a row.
fn convert_one(row: &Row) -> (Res, Option<usize>) {
    let mut out = Vec::new();
    if row.max_line.is_some() || row.filter != Filter::All {
        // The line cap and the filters live in the chunk engine.
        let opts = EngineOptions {
            filter: Filter::All,
            ..engine_options(row)
        };
        let mut res = ChunkOut::default();
        Worker::new(opts).convert_chunk_naive(&row.input, &mut res);
        return chunk_result(&row.input, &res);
    }
    let r = match row.mode {
        Mode::ToUri => ToUri::new(row.to_uri).convert_or_copy_into(&row.input, &mut out),
        Mode::ToIri => ToIri::new(ToIriOptions {
            host: row.to_uri.host,
        })
        .convert_or_copy_into(&row.input, &mut out),
        Mode::Check { uri_only } => Checker::new(CheckOptions {
            to_uri: row.to_uri,
            uri_only,
        })
        .convert_or_copy_into(&row.input, &mut out),
        Mode::LeiriToIri => {
            Repairing::new(LeiriToIri, row.to_uri.repair).convert_or_copy_into(&row.input, &mut out)
        }
        m => panic!("{}: no per-line converter for {m:?}", row.id),
    };
    match r {
        Ok(o) => match o.first_warning {
            Some(w) => (Res::Warn(w.kind.code().into(), out), Some(w.offset)),
            None => (Res::Ok(out), None),
        },
        Err(e) => (Res::Error(e.kind.code().into()), Some(e.offset)),
    }
}

/// What the fast chunk path does with the row (filter ignored): the CLI's expectation for a
/// known failure.
fn fast_result(row: &Row) -> (Res, Option<usize>) {
    let opts = EngineOptions {
        filter: Filter::All,
        ..engine_options(row)
    };
    let mut res = ChunkOut::default();
    Worker::new(opts).convert_chunk(&row.input, &mut res);
    chunk_result(&row.input, &res)
}

/// True if the row can be a line of a file (no LF inside, no CR that would end up as part of
/// a CRLF terminator).
fn fits_in_a_file(row: &Row) -> bool {
    !row.input.contains(&b'\n') && row.input.last() != Some(&b'\r')
}

/// Checks 1 and 2 of one row.
fn library_and_engine(row: &Row, reasons: &mut Vec<String>) {
    let (got, _) = convert(row);
    if got != row.expected {
        reasons.push(format!("library: expected {}, got {got}", row.expected));
    }
    if !fits_in_a_file(row) {
        return;
    }
    let opts = engine_options(row);
    let mut fast = ChunkOut::default();
    let mut slow = ChunkOut::default();
    Worker::new(opts).convert_chunk(&row.input, &mut fast);
    Worker::new(opts).convert_chunk_naive(&row.input, &mut slow);
    let (f, s) = (fast.render(&row.input), slow.render(&row.input));
    if f != s || fast.issues != slow.issues || fast.stats != slow.stats {
        reasons.push(format!(
            "engine: fast path wrote {} (issues {:?}), its naive twin {} (issues {:?})",
            show(&f),
            fast.issues
                .iter()
                .map(|i| i.err.kind.code())
                .collect::<Vec<_>>(),
            show(&s),
            slow.issues
                .iter()
                .map(|i| i.err.kind.code())
                .collect::<Vec<_>>(),
        ));
    }
    if row.filter == Filter::All {
        let want = match &got {
            Res::Ok(o) | Res::Warn(_, o) => o.clone(),
            Res::Error(_) => row.input.clone(),
        };
        if s != want {
            reasons.push(format!(
                "engine: naive chunk wrote {}, the converter {}",
                show(&s),
                show(&want)
            ));
        }
    }
}

/// A good line of each mode, and what it becomes.
fn good_line(mode: Mode) -> (&'static [u8], &'static [u8]) {
    match mode {
        Mode::ToUri => (
            "http://example.org/\u{FC}?q=\u{E9}".as_bytes(),
            b"http://example.org/%C3%BC?q=%C3%A9",
        ),
        Mode::ToIri => (
            b"http://example.org/%C3%BC?q=%C3%A9",
            "http://example.org/\u{FC}?q=\u{E9}".as_bytes(),
        ),
        Mode::Check { uri_only: true } => (
            b"http://example.org/%C3%BC?q=%C3%A9",
            b"http://example.org/%C3%BC?q=%C3%A9",
        ),
        Mode::Check { uri_only: false } => (
            "http://example.org/\u{FC}?q=\u{E9}".as_bytes(),
            "http://example.org/\u{FC}?q=\u{E9}".as_bytes(),
        ),
        Mode::LeiriToIri => (b"http://example.org/a b", b"http://example.org/a%20b"),
        m => panic!("no good line for {m:?}"),
    }
}

fn cli_flags(row: &Row) -> Vec<String> {
    let mut v = vec!["--mode".to_string(), row.mode_name.clone()];
    for k in row.opts_name.split(',').filter(|k| *k != "-") {
        let f: &[&str] = match k {
            "host=auto" => &["--host", "auto"],
            "host=uts46" => &["--host", "uts46"],
            "host=idna2003" => &["--host", "idna2003"],
            "host=percent" => &["--host", "percent"],
            "strict" => &["--strict"],
            "leiri" => &["--leiri"],
            "utf8=percent" => &["--invalid-utf8", "percent"],
            "fallback" => &["--host-fallback", "percent"],
            "no-std3" => &["--idna2003-no-std3"],
            "no-unassigned" => &["--idna2003-no-unassigned"],
            "uri" => &["--uri"],
            "valid-only" => &["--valid-only"],
            "invalid-only" => &["--invalid-only"],
            k if k.starts_with("max-line=") => {
                v.push("--max-line-bytes".into());
                v.push(k[9..].into());
                continue;
            }
            k if k.starts_with("repair=") => {
                v.push("--repair".into());
                v.push(k[7..].replace('+', ","));
                continue;
            }
            k => panic!("no CLI flag for option {k}"),
        };
        v.extend(f.iter().map(|s| s.to_string()));
    }
    v
}

/// What one line of a group's file must become.
struct LineWant {
    /// Index of the row in the group, `None` for a good line.
    row: Option<usize>,
    out: Vec<u8>,
    /// (column, code, warning) of the report row, if any.
    report: Option<(u64, String, bool)>,
    error: bool,
}

fn json_field(json: &str, key: &str) -> Option<u64> {
    let pat = format!("\"{key}\":");
    let p = json.find(&pat)?;
    json[p + pat.len()..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect::<String>()
        .parse()
        .ok()
}

fn split_lines(b: &[u8]) -> Vec<&[u8]> {
    let mut v: Vec<&[u8]> = b.split(|&c| c == b'\n').collect();
    if v.last() == Some(&&b""[..]) {
        v.pop();
    }
    v
}

fn parse_report(text: &str) -> Result<BTreeMap<usize, (u64, String, bool)>, String> {
    let mut lines = text.lines();
    if lines.next() != Some("file\tline\tcolumn\tcode\tmessage\tinput") {
        return Err("report header".into());
    }
    let mut m = BTreeMap::new();
    for l in lines {
        // The file column (the input's path, or `-` for stdin) is checked by tests/plumbing.rs.
        let f: Vec<&str> = l.split('\t').skip(1).collect();
        if f.len() != 5 {
            return Err(format!("report row with {} fields: {l}", f.len() + 1));
        }
        let line: usize = f[0].parse().map_err(|_| format!("line in {l}"))?;
        let column: u64 = f[1].parse().map_err(|_| format!("column in {l}"))?;
        m.insert(
            line,
            (column, f[2].to_string(), f[3].starts_with("warning:")),
        );
    }
    Ok(m)
}

/// Failures of one group's CLI runs: per row (index in the group) and for the group.
#[derive(Default)]
struct GroupFailures {
    rows: BTreeMap<usize, Vec<String>>,
    group: Vec<String>,
}

/// Check 3 on one group of rows that share mode and options.
fn cli_group(group: &[&Row], dir: &Path) -> GroupFailures {
    let mut fail = GroupFailures::default();
    let first = group[0];
    let (good_in, good_out) = good_line(first.mode);
    let good = || LineWant {
        row: None,
        out: good_out.to_vec(),
        report: None,
        error: false,
    };
    let mut input = Vec::new();
    let mut want = vec![good()];
    input.extend_from_slice(good_in);
    input.push(b'\n');
    for (k, row) in group.iter().enumerate() {
        // A known failure is expected to do what the fast path does.
        let (res, offset) = if row.known {
            fast_result(row)
        } else {
            (row.expected.clone(), convert(row).1)
        };
        let column = offset.map_or(0, |o| o as u64 + 1);
        want.push(match res {
            Res::Ok(o) => LineWant {
                row: Some(k),
                out: o,
                report: None,
                error: false,
            },
            Res::Warn(c, o) => LineWant {
                row: Some(k),
                out: o,
                report: Some((column, c, true)),
                error: false,
            },
            Res::Error(c) => LineWant {
                row: Some(k),
                out: row.input.clone(),
                report: Some((column, c, false)),
                error: true,
            },
        });
        want.push(good());
        input.extend_from_slice(&row.input);
        input.push(b'\n');
        input.extend_from_slice(good_in);
        input.push(b'\n');
    }
    let n_lines = want.len() as u64;
    let n_errors = want.iter().filter(|w| w.error).count() as u64;
    let want_report: BTreeMap<usize, (u64, String, bool)> = want
        .iter()
        .enumerate()
        .filter_map(|(i, w)| w.report.clone().map(|r| (i + 1, r)))
        .collect();
    let flags = cli_flags(first);
    let file = dir.join("in.txt");
    std::fs::write(&file, &input).unwrap();

    for run in ["keep", "skip"] {
        let out = dir.join(format!("{run}.out"));
        let rep = dir.join(format!("{run}.tsv"));
        let mut args = flags.clone();
        args.extend(["--stats", "json", "--errors"].map(String::from));
        args.push(rep.display().to_string());
        let o = if run == "keep" {
            // A mapped file, two threads, small chunks.
            args.extend(["--threads", "2", "--chunk-size", "4K", "--in"].map(String::from));
            args.push(file.display().to_string());
            args.push("--out".into());
            args.push(out.display().to_string());
            Command::new(env!("CARGO_BIN_EXE_iribulk"))
                .args(&args)
                .output()
                .unwrap()
        } else {
            // A stream, one thread, tiny chunks: long lines come in pieces. A check filter
            // decides alone what is written (--on-error is refused beside it).
            args.extend(["--threads", "1", "--chunk-size", "1K"].map(String::from));
            if first.filter == Filter::All {
                args.extend(["--on-error", "skip"].map(String::from));
            }
            run_stdin(&args, &input)
        };
        let stdout = if run == "keep" {
            std::fs::read(&out).unwrap_or_default()
        } else {
            o.stdout.clone()
        };
        let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
        // 3 only when a line with an error is written as it was: not when dropped or filtered.
        let want_code = if n_errors > 0 && first.filter == Filter::All && run == "keep" {
            3
        } else {
            0
        };
        if o.status.code() != Some(want_code) {
            fail.group.push(format!(
                "{run}: exit {:?}, want {want_code}: {stderr}",
                o.status.code()
            ));
            continue;
        }
        // Which lines are written: the filter decides for check, else the error policy.
        let present = |w: &LineWant| match first.filter {
            Filter::ValidOnly => !w.error,
            Filter::InvalidOnly => w.error,
            Filter::All => run == "keep" || !w.error,
        };
        let kept: Vec<&LineWant> = want.iter().filter(|w| present(w)).collect();
        let n_written = kept.len() as u64;
        let stats = (
            json_field(&stderr, "lines"),
            json_field(&stderr, "written"),
            json_field(&stderr, "skipped"),
            json_field(&stderr, "error_lines"),
        );
        let want_stats = (
            Some(n_lines),
            Some(n_written),
            Some(n_lines - n_written),
            Some(n_errors),
        );
        if stats != want_stats {
            fail.group.push(format!(
                "{run}: lines/written/skipped/error_lines {stats:?}, want {want_stats:?}"
            ));
        }
        let got_lines = split_lines(&stdout);
        if got_lines.len() != kept.len() {
            fail.group.push(format!(
                "{run}: {} output lines, want {} (of {n_lines} input lines)",
                got_lines.len(),
                kept.len()
            ));
        }
        for (g, w) in got_lines.iter().zip(&kept) {
            if *g != &w.out[..] {
                let msg = format!("cli {run}: wrote {}, want {}", show(g), show(&w.out));
                match w.row {
                    Some(k) => fail.rows.entry(k).or_default().push(msg),
                    None => fail.group.push(msg),
                }
                if got_lines.len() != kept.len() {
                    break; // misaligned: one message is enough
                }
            }
        }
        // The report: exactly the bad rows, with line number, column and code.
        let got_report = match parse_report(&std::fs::read_to_string(&rep).unwrap_or_default()) {
            Ok(m) => m,
            Err(e) => {
                fail.group.push(format!("{run}: {e}"));
                continue;
            }
        };
        for (line, w) in &want_report {
            let g = got_report.get(line);
            if g != Some(w) {
                let msg = format!("cli {run}: report for line {line}: {g:?}, want {w:?}");
                match want[line - 1].row {
                    Some(k) => fail.rows.entry(k).or_default().push(msg),
                    None => fail.group.push(msg),
                }
            }
        }
        for (line, g) in &got_report {
            if !want_report.contains_key(line) {
                let msg = format!("cli {run}: unexpected report row {g:?} for line {line}");
                match want.get(line - 1).and_then(|w| w.row) {
                    Some(k) => fail.rows.entry(k).or_default().push(msg),
                    None => fail.group.push(msg),
                }
            }
        }
    }
    fail
}

#[test]
fn hostile_rows() {
    let rows = rows();
    assert!(rows.len() >= 110, "only {} rows", rows.len());
    let ids: BTreeSet<&str> = rows.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(ids.len(), rows.len(), "row ids are unique");
    let marked: BTreeSet<&str> = rows
        .iter()
        .filter(|r| r.known)
        .map(|r| r.id.as_str())
        .collect();
    let listed: BTreeSet<&str> = KNOWN_FAILURES.iter().map(|k| k.0).collect();
    assert_eq!(
        marked, listed,
        "KNOWN_FAILURES and the KNOWN-FAILURE notes of hostile.tsv must list the same rows"
    );

    // Checks 1 and 2.
    let mut reasons: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            let mut v = Vec::new();
            library_and_engine(r, &mut v);
            v
        })
        .collect();

    // Check 3, by group.
    let mut groups: BTreeMap<(String, String), Vec<usize>> = BTreeMap::new();
    for (i, r) in rows.iter().enumerate().filter(|(_, r)| fits_in_a_file(r)) {
        groups
            .entry((r.mode_name.clone(), r.opts_name.clone()))
            .or_default()
            .push(i);
    }
    let covered: usize = groups.values().map(Vec::len).sum();
    assert!(
        rows.len() - covered <= 5,
        "too many rows left out of the CLI run"
    );
    let dir = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    let mut group_failed: Vec<bool> = vec![false; rows.len()];
    for ((mode, opts), idx) in &groups {
        let group: Vec<&Row> = idx.iter().map(|&i| &rows[i]).collect();
        let f = cli_group(&group, dir.path());
        for (k, msgs) in f.rows {
            reasons[idx[k]].extend(msgs);
        }
        if !f.group.is_empty() {
            // Counts and exit codes cannot be pinned on one row: they are evidence for the
            // known failures of the group, or a failure of their own.
            for &i in idx {
                group_failed[i] = true;
            }
            if !group.iter().any(|r| r.known) {
                failures.push(format!("[{mode} {opts}] {}", f.group.join("; ")));
            }
        }
    }

    let mut fixed = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        match (row.known, reasons[i].is_empty() && !group_failed[i]) {
            (true, true) => fixed.push(row.id.as_str()),
            (false, false) if !reasons[i].is_empty() => failures.push(format!(
                "{} [{} {}]: {}",
                row.id,
                row.mode_name,
                row.opts_name,
                reasons[i].join("; ")
            )),
            _ => {}
        }
    }
    for (i, row) in rows.iter().enumerate().filter(|(_, r)| r.known) {
        let evidence = match reasons[i].first() {
            Some(r) => r.clone(),
            None => "CLI counts of its group".to_string(),
        };
        eprintln!("known failure {}: {evidence}", row.id);
    }
    eprintln!(
        "{} rows, {} groups, {covered} rows end to end, {} known failures",
        rows.len(),
        groups.len(),
        marked.len()
    );
    assert!(
        fixed.is_empty(),
        "known failures now pass every check (remove them from KNOWN_FAILURES and the TSV): {fixed:?}"
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Peak RssAnon (kB) of the binary on `input` (a mapped file: the input's pages are not
/// anonymous), polled every 5 ms; `None` where /proc is missing.
fn peak_rss_anon_kb(args: &[&str], input: &Path) -> Option<u64> {
    if !Path::new("/proc/self/status").exists() {
        return None;
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_iribulk"))
        .args(args)
        .arg("--in")
        .arg(input)
        .args(["--out", "/dev/null", "-q"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let status = format!("/proc/{}/status", child.id());
    let mut peak = 0;
    loop {
        if let Ok(text) = std::fs::read_to_string(&status) {
            if let Some(kb) = text
                .lines()
                .find_map(|l| l.strip_prefix("RssAnon:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
            {
                peak = peak.max(kb);
            }
        }
        if child.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    Some(peak)
}

/// README: the host caps apply "before any IDNA work", and memory is bounded by the window of
/// chunks. 400 and then 1600 lines with distinct hosts of 100 KB (each refused by the 1024-byte
/// cap, none cached: `HostCache::MAX_KEY`) must peak at the same memory: it does not grow with
/// the number of distinct hosts.
#[test]
fn host_cache_memory_is_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let mut peaks = Vec::new();
    for lines in [400, 1600] {
        let mut input = Vec::new();
        for i in 0..lines {
            input.extend_from_slice(b"http://");
            input.extend_from_slice(i.to_string().as_bytes());
            for _ in 0..50_000 {
                input.extend_from_slice(b"a.");
            }
            input.extend_from_slice("\u{FC}/x\n".as_bytes());
        }
        let file = dir.path().join(format!("hosts-{lines}.txt"));
        std::fs::write(&file, &input).unwrap();
        match peak_rss_anon_kb(&["--threads", "1"], &file) {
            Some(kb) => peaks.push(kb),
            None => {
                common::skip("no /proc to measure memory");
                return;
            }
        }
    }
    let (small, large) = (peaks[0], peaks[1]);
    eprintln!("peak RssAnon: 400 distinct 100 KB hosts {small} kB, 1600 of them {large} kB");
    assert!(
        large <= small + 8 * 1024,
        "memory grows with distinct long hosts: {small} kB for 400, {large} kB for 1600"
    );
}
