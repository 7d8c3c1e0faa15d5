//! Single-thread, in-memory throughput of iribulk against its peers, on the same lines.
//!
//! ```text
//! cargo bench --bench peers -- [--runs N] [--min-sample SECS] [--report PATH] FILE...
//! ```
//!
//! Each file is read into memory once. Every method then processes the whole buffer, on this
//! thread, and the best of `--runs` samples (default 5) is kept; a sample repeats the method
//! until it has run for at least `--min-sample` seconds (default 0.2) and is the mean of those
//! repetitions. The methods:
//!
//! * `iribulk`: [`Worker::convert_chunk`] over the buffer cut into 1 MiB chunks at line ends
//!   ([`next_mapped_chunk_end`]), as the pipeline does; clean runs stay ranges of the input,
//!   as when the pipeline writes them straight from the map.
//! * `iribulk + copy out`: the same, then [`ChunkOut::write_to`] into an output `Vec`, so that
//!   the output is materialized as for the peers.
//! * `iribulk --host percent`: the engine with hosts percent-encoded (3987bis §3.4.1), which
//!   writes what iri-string's `encode_to_uri` writes: its like-for-like peer is `iri-string`,
//!   while the default IDNA host mode does the work of `url` and `ada-url` (UTS #46 hosts) and
//!   compares with them (contract item 19). The `× url` column gives that second ratio.
//! * `url`: `url::Url::parse(line)` (WHATWG), `.as_str()` copied into the output.
//! * `ada-url`: `ada_url::Url::parse(line, None)` (WHATWG, C++), `.href()` copied.
//! * `iri-string`: `IriReferenceStr::new(line)` (RFC 3987) then `.encode_to_uri()` written
//!   into the output.
//! * `iribulk to-iri`, `iribulk check`, `iribulk normalize`: the engine in `--mode to-iri`,
//!   `--mode check` and `--mode normalize` (`--level syntax`, the default; no peer writes RFC
//!   3987 §5.3's syntax-based form).
//! * `iri-string validate`: `IriReferenceStr::new(line)` alone, the grammar check that is the
//!   peer of `check` (no peer converts URIs to IRIs the way RFC 3987 §3.2 does).
//! * `line copy`: lines split with `memchr`, each copied with its `\n` into the output.
//! * `memcpy`: one copy of the whole buffer.
//!
//! The per-line peers split lines with `memchr` inside the timed loop, as `line copy` does.
//! A line they reject is counted as failed and copied unchanged (as iribulk's default
//! `--on-error keep` does). Throughput is input bytes per second; MB = 10^6 bytes.
//! The results are printed as a markdown table and written to `--report`
//! (default `target/bench-report.md`).

use iri_string::types::IriReferenceStr;
use iribulk::config::{HostMode, ToUriOptions};
use iribulk::engine::input::next_mapped_chunk_end;
use iribulk::engine::{ChunkOut, EngineOptions, Mode, Worker};
use iribulk::{Level, Rungs};
use std::fmt::Write as _;
use std::hint::black_box;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const CHUNK: usize = 1 << 20;

struct Args {
    files: Vec<PathBuf>,
    runs: usize,
    min_sample: Duration,
    report: PathBuf,
}

fn usage() -> ! {
    eprintln!(
        "usage: cargo bench --bench peers -- [--runs N] [--min-sample SECS] [--report PATH] FILE..."
    );
    std::process::exit(2)
}

fn parse_args() -> Args {
    let mut a = Args {
        files: Vec::new(),
        runs: 5,
        min_sample: Duration::from_millis(200),
        report: PathBuf::from("target/bench-report.md"),
    };
    let mut it = std::env::args().skip(1);
    while let Some(s) = it.next() {
        match s.as_str() {
            // cargo bench passes --bench to every bench binary.
            "--bench" => {}
            "--runs" => {
                a.runs = it
                    .next()
                    .and_then(|v| v.parse().ok())
                    .filter(|&n| n > 0)
                    .unwrap_or_else(|| usage())
            }
            "--min-sample" => {
                let secs: f64 = it
                    .next()
                    .and_then(|v| v.parse().ok())
                    .filter(|&x: &f64| x >= 0.0 && x.is_finite())
                    .unwrap_or_else(|| usage());
                a.min_sample = Duration::from_secs_f64(secs);
            }
            "--report" => a.report = it.next().map(PathBuf::from).unwrap_or_else(|| usage()),
            "-h" | "--help" => usage(),
            _ if s.starts_with("--") => {
                eprintln!("peers: unknown option {s}");
                usage()
            }
            _ => a.files.push(PathBuf::from(s)),
        }
    }
    if a.files.is_empty() {
        usage()
    }
    a
}

/// Calls `f` on every line of `data` (without `\n` and a `\r` before it). `text` is `data` as
/// a `str` when the whole buffer is UTF-8; otherwise each line is checked on its own and
/// `Err(bytes)` is passed for a line that is not UTF-8.
#[inline]
fn for_each_line<'a>(
    data: &'a [u8],
    text: Option<&'a str>,
    mut f: impl FnMut(Result<&'a str, &'a [u8]>),
) {
    let mut start = 0;
    let mut each = |s: usize, mut e: usize| {
        if e > s && data[e - 1] == b'\r' {
            e -= 1;
        }
        match text {
            Some(t) => f(Ok(&t[s..e])),
            None => f(std::str::from_utf8(&data[s..e]).map_err(|_| &data[s..e])),
        }
    };
    for p in memchr::memchr_iter(b'\n', data) {
        each(start, p);
        start = p + 1;
    }
    if start < data.len() {
        each(start, data.len());
    }
}

/// What one pass of a method produced (checked to be the same on every pass).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Pass {
    out_bytes: u64,
    failed: u64,
}

type Method = fn(&[u8], Option<&str>, &mut State) -> Pass;

/// Buffers and converters kept across passes, as a long run would keep them.
struct State {
    out: Vec<u8>,
    worker: Worker,
    percent: Worker,
    to_iri: Worker,
    check: Worker,
    normalize: Worker,
    res: ChunkOut,
}

fn iribulk_chunks(data: &[u8], _: Option<&str>, st: &mut State) -> Pass {
    engine_pass(&mut st.worker, &mut st.res, data)
}

/// The whole engine over the buffer cut into 1 MiB chunks, counting its output bytes (to-uri
/// for `iribulk`; to-iri and check for their rows).
fn engine_pass(w: &mut Worker, res: &mut ChunkOut, data: &[u8]) -> Pass {
    let mut p = Pass::default();
    let mut pos = 0;
    while pos < data.len() {
        let end = next_mapped_chunk_end(data, pos, CHUNK);
        w.convert_chunk(&data[pos..end], res);
        p.failed += res.stats.error_lines;
        p.out_bytes += res
            .pieces
            .iter()
            .map(|pc| match pc {
                iribulk::engine::Piece::Input(r) | iribulk::engine::Piece::Output(r) => {
                    r.len() as u64
                }
            })
            .sum::<u64>();
        pos = end;
    }
    p
}

/// to-uri with `--host percent` (3987bis §3.4.1): the like-for-like peer of `iri-string`.
fn iribulk_percent(data: &[u8], _: Option<&str>, st: &mut State) -> Pass {
    engine_pass(&mut st.percent, &mut st.res, data)
}

/// `--mode to-iri` (RFC 3987 §3.2). No peer decodes URIs into IRIs the same way.
fn iribulk_to_iri(data: &[u8], _: Option<&str>, st: &mut State) -> Pass {
    engine_pass(&mut st.to_iri, &mut st.res, data)
}

/// `--mode check` (RFC 3987 §2.2, §4, §6.1); its peer is `iri-string validate`.
fn iribulk_check(data: &[u8], _: Option<&str>, st: &mut State) -> Pass {
    engine_pass(&mut st.check, &mut st.res, data)
}

/// `--mode normalize --level syntax` (RFC 3987 §5.3.2). No peer.
fn iribulk_normalize(data: &[u8], _: Option<&str>, st: &mut State) -> Pass {
    engine_pass(&mut st.normalize, &mut st.res, data)
}

/// iri-string's grammar check alone (`IriReferenceStr::new`), the peer of `check`; the line is
/// copied out so that the work compares with iribulk's.
fn iri_string_validate(data: &[u8], text: Option<&str>, st: &mut State) -> Pass {
    let out = &mut st.out;
    out.clear();
    let mut p = Pass::default();
    for_each_line(data, text, |l| {
        let (ok, bytes) = match l {
            Ok(s) => (IriReferenceStr::new(s).is_ok(), s.as_bytes()),
            Err(b) => (false, b),
        };
        if !ok {
            p.failed += 1;
        }
        out.extend_from_slice(bytes);
        out.push(b'\n');
    });
    p.out_bytes = out.len() as u64;
    p
}

fn iribulk_copy_out(data: &[u8], _: Option<&str>, st: &mut State) -> Pass {
    let mut p = Pass::default();
    st.out.clear();
    let mut pos = 0;
    while pos < data.len() {
        let end = next_mapped_chunk_end(data, pos, CHUNK);
        st.worker.convert_chunk(&data[pos..end], &mut st.res);
        p.failed += st.res.stats.error_lines;
        st.res
            .write_to(&data[pos..end], &mut st.out)
            .expect("writing to a Vec");
        pos = end;
    }
    p.out_bytes = st.out.len() as u64;
    p
}

fn keep_line(out: &mut Vec<u8>, line: &[u8], p: &mut Pass) {
    p.failed += 1;
    out.extend_from_slice(line);
    out.push(b'\n');
}

fn url_crate(data: &[u8], text: Option<&str>, st: &mut State) -> Pass {
    let mut p = Pass::default();
    let out = &mut st.out;
    out.clear();
    for_each_line(data, text, |l| match l {
        Ok(s) => match url::Url::parse(s) {
            Ok(u) => {
                out.extend_from_slice(u.as_str().as_bytes());
                out.push(b'\n');
            }
            Err(_) => keep_line(out, s.as_bytes(), &mut p),
        },
        Err(b) => keep_line(out, b, &mut p),
    });
    p.out_bytes = out.len() as u64;
    p
}

fn ada(data: &[u8], text: Option<&str>, st: &mut State) -> Pass {
    let mut p = Pass::default();
    let out = &mut st.out;
    out.clear();
    for_each_line(data, text, |l| match l {
        Ok(s) => match ada_url::Url::parse(s, None) {
            Ok(u) => {
                out.extend_from_slice(u.href().as_bytes());
                out.push(b'\n');
            }
            Err(_) => keep_line(out, s.as_bytes(), &mut p),
        },
        Err(b) => keep_line(out, b, &mut p),
    });
    p.out_bytes = out.len() as u64;
    p
}

fn iri_string(data: &[u8], text: Option<&str>, st: &mut State) -> Pass {
    let mut p = Pass::default();
    let out = &mut st.out;
    out.clear();
    for_each_line(data, text, |l| match l {
        Ok(s) => match IriReferenceStr::new(s) {
            Ok(iri) => {
                write!(out, "{}", iri.encode_to_uri()).expect("writing to a Vec");
                out.push(b'\n');
            }
            Err(_) => keep_line(out, s.as_bytes(), &mut p),
        },
        Err(b) => keep_line(out, b, &mut p),
    });
    p.out_bytes = out.len() as u64;
    p
}

fn line_copy(data: &[u8], _: Option<&str>, st: &mut State) -> Pass {
    let out = &mut st.out;
    out.clear();
    let mut start = 0;
    for e in memchr::memchr_iter(b'\n', data) {
        out.extend_from_slice(&data[start..e]);
        out.push(b'\n');
        start = e + 1;
    }
    if start < data.len() {
        out.extend_from_slice(&data[start..]);
        out.push(b'\n');
    }
    Pass {
        out_bytes: out.len() as u64,
        failed: 0,
    }
}

fn memcpy(data: &[u8], _: Option<&str>, st: &mut State) -> Pass {
    st.out.clear();
    st.out.extend_from_slice(data);
    Pass {
        out_bytes: st.out.len() as u64,
        failed: 0,
    }
}

const METHODS: &[(&str, Method)] = &[
    ("iribulk", iribulk_chunks),
    ("iribulk + copy out", iribulk_copy_out),
    ("iribulk --host percent", iribulk_percent),
    ("url", url_crate),
    ("ada-url", ada),
    ("iri-string", iri_string),
    ("iribulk to-iri", iribulk_to_iri),
    ("iribulk check", iribulk_check),
    ("iri-string validate", iri_string_validate),
    ("iribulk normalize", iribulk_normalize),
    ("line copy", line_copy),
    ("memcpy", memcpy),
];

struct Row {
    method: &'static str,
    secs: f64,
    pass: Pass,
}

/// Best of `runs` samples; a sample is the mean over enough passes to last `min_sample`.
fn measure(m: Method, data: &[u8], text: Option<&str>, st: &mut State, a: &Args) -> (f64, Pass) {
    // Warm-up pass: fills caches and buffers, and sizes the samples.
    let t = Instant::now();
    let first = black_box(m(black_box(data), text, st));
    let once = t.elapsed().as_secs_f64().max(1e-9);
    let reps = ((a.min_sample.as_secs_f64() / once).ceil() as usize).clamp(1, 100_000);
    let mut best = f64::INFINITY;
    for _ in 0..a.runs {
        let t = Instant::now();
        for _ in 0..reps {
            let p = black_box(m(black_box(data), text, st));
            assert_eq!(p, first, "a pass gave a different result");
        }
        best = best.min(t.elapsed().as_secs_f64() / reps as f64);
    }
    (best, first)
}

fn cmd_out(cmd: &str, args: &[&str]) -> Option<String> {
    let o = Command::new(cmd).args(args).output().ok()?;
    o.status
        .success()
        .then(|| String::from_utf8_lossy(&o.stdout).trim().to_string())
}

fn machine() -> String {
    let model = cmd_out("lscpu", &[])
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("Model name:"))
                .map(|l| l["Model name:".len()..].trim().to_string())
        })
        .or_else(|| {
            std::fs::read_to_string("/proc/cpuinfo").ok().and_then(|s| {
                s.lines()
                    .find(|l| l.starts_with("model name"))
                    .and_then(|l| l.split(':').nth(1))
                    .map(|m| m.trim().to_string())
            })
        })
        .unwrap_or_else(|| "unknown CPU".into());
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    format!("{model}, {cores} cores")
}

fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A markdown table with padded columns (readable as plain text too).
fn table(head: &[&str], rows: &[Vec<String>], right: &[bool]) -> String {
    let w: Vec<usize> = (0..head.len())
        .map(|i| {
            rows.iter()
                .map(|r| r[i].chars().count())
                .chain([head[i].chars().count(), 3])
                .max()
                .unwrap_or(3)
        })
        .collect();
    let cell = |s: &str, i: usize| {
        let pad = " ".repeat(w[i] - s.chars().count());
        if right[i] {
            format!(" {pad}{s} |")
        } else {
            format!(" {s}{pad} |")
        }
    };
    let mut t = String::from("|");
    for (i, h) in head.iter().enumerate() {
        t.push_str(&cell(h, i));
    }
    t.push_str("\n|");
    for (i, &r) in right.iter().enumerate() {
        let dashes = "-".repeat(w[i] - 1);
        t.push_str(&if r {
            format!(" {dashes}: |")
        } else {
            format!(" {dashes}- |")
        });
    }
    t.push('\n');
    for r in rows {
        t.push('|');
        for (i, c) in r.iter().enumerate() {
            t.push_str(&cell(c, i));
        }
        t.push('\n');
    }
    t
}

fn main() {
    let a = parse_args();
    let date = cmd_out("date", &["-u", "+%Y-%m-%d %H:%M:%S UTC"]).unwrap_or_default();
    let rustc = cmd_out("rustc", &["-V"]).unwrap_or_default();
    let mut md = String::new();
    let _ = writeln!(md, "# iribulk throughput\n");
    let _ = writeln!(md, "- machine: {}", machine());
    let _ = writeln!(md, "- date: {date}");
    if !rustc.is_empty() {
        let _ = writeln!(md, "- compiler: {rustc}");
    }
    if let Ok(l) = std::fs::read_to_string("/proc/loadavg") {
        let l: Vec<&str> = l.split_whitespace().take(3).collect();
        let _ = writeln!(md, "- load average before the run: {}", l.join(" "));
    }
    let _ = writeln!(
        md,
        "\n## In memory, one thread\n\nBest of {} samples (each at least {:.2} s); MB = 10^6 \
         bytes of input. `×` columns: throughput relative to iri-string, to url and to the plain line \
         copy. Failed: lines the method rejected (copied unchanged).\n",
        a.runs,
        a.min_sample.as_secs_f64()
    );
    let mut rows = Vec::new();
    let mut sets = String::new();
    for f in &a.files {
        let data = match std::fs::read(f) {
            Ok(d) => d,
            Err(e) => {
                eprintln!("note: skipping {}: {e}", f.display());
                let _ = writeln!(sets, "- {}: skipped ({e})", f.display());
                continue;
            }
        };
        let name = f
            .file_name()
            .map_or_else(|| f.display().to_string(), |n| n.to_string_lossy().into());
        let text = std::str::from_utf8(&data).ok();
        let mut lines = 0u64;
        let mut na = 0u64;
        for_each_line(&data, None, |l| {
            lines += 1;
            let b = match l {
                Ok(s) => s.as_bytes(),
                Err(b) => b,
            };
            na += u64::from(!b.is_ascii());
        });
        let _ = writeln!(
            sets,
            "- {name}: {:.1} MB, {} lines, {:.1} % lines with non-ASCII{}",
            data.len() as f64 / 1e6,
            thousands(lines),
            100.0 * na as f64 / lines.max(1) as f64,
            if text.is_some() {
                ""
            } else {
                ", not all UTF-8"
            }
        );
        eprintln!("== {name}: {} bytes, {lines} lines", data.len());
        let mut st = State {
            out: Vec::with_capacity(data.len() * 3 + 64),
            worker: Worker::new(EngineOptions::default()),
            percent: Worker::new(EngineOptions {
                to_uri: ToUriOptions {
                    host: HostMode::Percent,
                    ..ToUriOptions::default()
                },
                ..EngineOptions::default()
            }),
            to_iri: Worker::new(EngineOptions {
                mode: Mode::ToIri,
                ..EngineOptions::default()
            }),
            check: Worker::new(EngineOptions {
                mode: Mode::Check { uri_only: false },
                ..EngineOptions::default()
            }),
            normalize: Worker::new(EngineOptions {
                mode: Mode::Normalize {
                    rungs: Rungs::level(Level::Syntax),
                    as_uri: false,
                },
                ..EngineOptions::default()
            }),
            res: ChunkOut::default(),
        };
        let mut results: Vec<Row> = Vec::new();
        for &(method, m) in METHODS {
            let (secs, pass) = measure(m, &data, text, &mut st, &a);
            eprintln!(
                "   {method:<20} {:>9.1} MB/s  failed {}",
                data.len() as f64 / secs / 1e6,
                pass.failed
            );
            results.push(Row { method, secs, pass });
        }
        let secs_of = |name: &str| results.iter().find(|r| r.method == name).map(|r| r.secs);
        let (iri, copy, url) = (secs_of("iri-string"), secs_of("line copy"), secs_of("url"));
        for r in &results {
            let ratio =
                |base: Option<f64>| base.map_or("-".into(), |b| format!("{:.2}", b / r.secs));
            rows.push(vec![
                name.clone(),
                r.method.to_string(),
                format!("{:.1}", data.len() as f64 / r.secs / 1e6),
                format!("{:.2}", lines as f64 / r.secs / 1e6),
                ratio(iri),
                ratio(url),
                ratio(copy),
                thousands(r.pass.failed),
            ]);
        }
    }
    md.push_str(&sets);
    md.push('\n');
    md.push_str(&table(
        &[
            "data set",
            "method",
            "MB/s",
            "M lines/s",
            "× iri-string",
            "× url",
            "× line copy",
            "failed",
        ],
        &rows,
        &[false, false, true, true, true, true, true, true],
    ));
    print!("\n{md}");
    let _ = std::io::stdout().flush();
    if let Some(dir) = a.report.parent().filter(|d| !d.as_os_str().is_empty()) {
        let _ = std::fs::create_dir_all(dir);
    }
    match std::fs::write(&a.report, &md) {
        Ok(()) => eprintln!("report written to {}", show(&a.report)),
        Err(e) => eprintln!("cannot write report {}: {e}", a.report.display()),
    }
}

fn show(p: &Path) -> String {
    std::fs::canonicalize(p).map_or_else(|_| p.display().to_string(), |c| c.display().to_string())
}
