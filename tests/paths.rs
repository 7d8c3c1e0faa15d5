//! One tester, every path: the same inputs through mmap / streaming / gzip / zstd, 1 / 2 / many
//! threads, chunk sizes from one byte to a megabyte, LF / CRLF / no final newline / BOM, long
//! lines, `--field`, keep / skip; the output and the error report must be byte-identical to a
//! one-line-at-a-time reference (the naive twin on the whole input).

use iribulk::engine::pipeline::{self, RunOptions};
use iribulk::engine::report::ReportFormat;
use iribulk::engine::{ChunkOut, EngineOptions, OnError, Worker};
use std::io::Write;
use std::path::{Path, PathBuf};

fn sample() -> Vec<u8> {
    std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/datasets/sample.txt")).unwrap()
}

fn crlf(d: &[u8]) -> Vec<u8> {
    let mut v = Vec::new();
    for &b in d {
        if b == b'\n' {
            v.push(b'\r');
        }
        v.push(b);
    }
    v
}

fn tsv(d: &[u8]) -> Vec<u8> {
    let mut v = Vec::new();
    for (i, l) in d.split(|&b| b == b'\n').enumerate() {
        if i > 0 {
            v.push(b'\n');
        }
        if !l.is_empty() {
            v.extend_from_slice(format!("{i}\t").as_bytes());
            v.extend_from_slice(l);
            v.extend_from_slice("\tcol é 3".as_bytes());
        }
    }
    v
}

/// The reference: BOM dropped, then every line through the converter, one at a time.
fn reference(input: &[u8], opts: EngineOptions, file: &str) -> (Vec<u8>, Vec<u8>) {
    let data = input.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(input);
    let host_mode = opts.to_uri.host;
    let field = opts.field;
    let mut w = Worker::new(opts);
    let mut out = ChunkOut::default();
    w.convert_chunk_naive(data, &mut out);
    let mut report = iribulk::engine::report::HEADER.as_bytes().to_vec();
    let mut scratch = String::new();
    for is in &out.issues {
        let readings = iribulk::engine::report::readings_of_row(
            is.err.kind,
            &data[is.start..is.start + is.len],
            field,
            host_mode,
        );
        let row = iribulk::engine::report::Row {
            file: file.as_bytes(),
            line: is.line + 1,
            column: is.err.offset as u64 + 1,
            kind: is.err.kind,
            warning: is.warning,
            input: &data[is.start..is.start + is.len],
            readings: readings.as_deref(),
            records: field.is_some(),
            legacy: false,
        };
        iribulk::engine::report::write_row(&mut report, ReportFormat::Tsv, &row, &mut scratch)
            .unwrap();
    }
    (out.render(data), report)
}

#[derive(Clone, Copy, Debug)]
enum Via {
    Mmap,
    Stream,
    Gzip,
    Zstd,
}

fn write_input(dir: &Path, data: &[u8], via: Via) -> PathBuf {
    match via {
        Via::Mmap | Via::Stream => {
            let p = dir.join("in.txt");
            std::fs::write(&p, data).unwrap();
            p
        }
        Via::Gzip => {
            // Named without .gz: the magic bytes must be enough.
            let p = dir.join("in.data");
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            e.write_all(data).unwrap();
            std::fs::write(&p, e.finish().unwrap()).unwrap();
            p
        }
        Via::Zstd => {
            let p = dir.join("in.txt.zst");
            std::fs::write(&p, zstd::encode_all(data, 1).unwrap()).unwrap();
            p
        }
    }
}

fn run_once(
    data: &[u8],
    via: Via,
    threads: usize,
    chunk: usize,
    engine: EngineOptions,
) -> (Vec<u8>, Vec<u8>, iribulk::engine::report::Summary) {
    run_once_with(data, via, threads, chunk, 0, engine)
}

/// [`run_once`] with `window` chunks in flight (0: the default for the thread count).
fn run_once_with(
    data: &[u8],
    via: Via,
    threads: usize,
    chunk: usize,
    window: usize,
    engine: EngineOptions,
) -> (Vec<u8>, Vec<u8>, iribulk::engine::report::Summary) {
    let dir = tempfile::tempdir().unwrap();
    let input = write_input(dir.path(), data, via);
    let output = dir.path().join("out.txt");
    let errors = dir.path().join("errors.tsv");
    let opts = RunOptions {
        engine,
        inputs: vec![input.clone()],
        output: Some(output.clone()),
        errors: Some(errors.clone()),
        errors_format: ReportFormat::Tsv,
        threads,
        chunk_size: chunk,
        window,
        no_mmap: matches!(via, Via::Stream),
        base: Default::default(),
    };
    let summary = pipeline::run(&opts).unwrap();
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "temporary files left: {leftovers:?}");
    // Each row names the input file; the reference calls it IN.
    let report = std::fs::read_to_string(errors).unwrap();
    let prefix = format!("{}\t", input.display());
    let mut rep = String::new();
    for (i, l) in report.lines().enumerate() {
        match l.strip_prefix(&prefix) {
            Some(rest) => rep.push_str(&format!("IN\t{rest}\n")),
            None => {
                assert_eq!(i, 0, "a row that does not name its file: {l}");
                rep.push_str(l);
                rep.push('\n');
            }
        }
    }
    (std::fs::read(output).unwrap(), rep.into_bytes(), summary)
}

/// [`pipeline::convert_source`] on an opened input with in-memory output and report (a run
/// stopped by `--on-error fail` leaves no output file for [`run_once`] to read).
fn run_source(
    data: &[u8],
    via: Via,
    threads: usize,
    chunk: usize,
    engine: EngineOptions,
) -> (Vec<u8>, Vec<u8>, iribulk::engine::report::Summary) {
    let dir = tempfile::tempdir().unwrap();
    let input = write_input(dir.path(), data, via);
    let opts = RunOptions {
        engine,
        threads,
        chunk_size: chunk,
        ..Default::default()
    };
    let (source, _) =
        iribulk::engine::input::open(Some(&input), matches!(via, Via::Stream)).unwrap();
    let (mut out, mut report) = (Vec::new(), Vec::new());
    report.extend_from_slice(iribulk::engine::report::HEADER.as_bytes());
    let summary = pipeline::convert_source(
        source,
        &mut out,
        Some(&mut report),
        &opts,
        Some(&input),
        "OUT",
        None,
    )
    .unwrap();
    let prefix = format!("{}\t", input.display());
    let rep = String::from_utf8(report).unwrap().replace(&prefix, "IN\t");
    (out, rep.into_bytes(), summary)
}

fn inputs() -> Vec<(&'static str, Vec<u8>)> {
    let s = sample();
    let mut no_final = s.clone();
    no_final.pop();
    let mut bom = b"\xEF\xBB\xBF".to_vec();
    bom.extend_from_slice(&s);
    let mut long = s[..2000].to_vec();
    long.extend(std::iter::repeat_n(b'x', 5000));
    long.push(b'\n');
    long.extend_from_slice(&s[2000..4000]);
    long.extend(std::iter::repeat_n(b'y', 3000)); // a long last line without newline
    vec![
        ("lf", s.clone()),
        ("crlf", crlf(&s)),
        ("no-final-newline", no_final),
        ("bom", bom),
        ("long-lines", long),
        ("empty", Vec::new()),
        ("one-newline", b"\n".to_vec()),
        ("crlf-only", b"\r\n\r\n".to_vec()),
    ]
}

#[test]
fn every_path_gives_identical_bytes() {
    let mut configs = 0;
    for (name, data) in inputs() {
        for on_error in [OnError::Keep, OnError::Skip] {
            let engine = EngineOptions {
                on_error,
                max_line_bytes: 1000,
                ..Default::default()
            };
            let (want_out, want_rep) = reference(&data, engine, "IN");
            for via in [Via::Mmap, Via::Stream, Via::Gzip, Via::Zstd] {
                for threads in [1, 2, 7] {
                    for chunk in [1, 61, 4096, 1 << 20] {
                        if chunk == 1 && (threads != 2 || data.len() > 30_000) {
                            continue; // one-byte chunks: one thread count is enough
                        }
                        let (out, rep, sum) = run_once(&data, via, threads, chunk, engine);
                        let ctx =
                            format!("{name} {via:?} threads={threads} chunk={chunk} {on_error:?}");
                        assert!(out == want_out, "output differs: {ctx}");
                        assert!(
                            rep == want_rep,
                            "report differs: {ctx}\n{}\n---\n{}",
                            String::from_utf8_lossy(&rep),
                            String::from_utf8_lossy(&want_rep)
                        );
                        let st = &sum.stats;
                        assert_eq!(st.lines, st.written + st.skipped, "{ctx}");
                        configs += 1;
                    }
                }
            }
        }
    }
    assert!(configs > 300);
}

/// `--on-error fail` on every path, with the bad line early, in the middle and last: the
/// pipeline writes exactly the lines before it, in order, however many chunks were converted
/// (out of order, on other threads) alongside the one that stopped the run, and the counts
/// add up (lines read = written + skipped + not reached).
#[test]
fn on_error_fail_stops_in_order_on_every_path() {
    // The sample's lines that convert without an error or a warning.
    let clean: Vec<&[u8]> = sample()
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| l.to_vec())
        .collect::<Vec<_>>()
        .leak()
        .iter()
        .map(|l| &l[..])
        .filter(|l| {
            let mut w = Worker::new(EngineOptions::default());
            let mut out = ChunkOut::default();
            let mut line = l.to_vec();
            line.push(b'\n');
            w.convert_chunk_naive(&line, &mut out);
            out.issues.is_empty()
        })
        .collect();
    assert!(clean.len() > 100, "{} clean lines", clean.len());
    let engine = EngineOptions {
        on_error: OnError::Fail,
        ..Default::default()
    };
    for at in [3, clean.len() * 2 / 3, clean.len()] {
        let mut data = Vec::new();
        for (i, l) in clean.iter().enumerate() {
            if i == at {
                data.extend_from_slice(b"http://a/%zz\n");
            }
            data.extend_from_slice(l);
            data.push(b'\n');
        }
        if at == clean.len() {
            data.extend_from_slice(b"http://a/%zz\n");
        }
        let (want_out, want_rep) = reference(&data, engine, "IN");
        assert_eq!(want_out.iter().filter(|&&b| b == b'\n').count(), at);
        for via in [Via::Mmap, Via::Stream] {
            for threads in [1, 2, 7] {
                for chunk in [61, 4096] {
                    let (out, rep, sum) = run_source(&data, via, threads, chunk, engine);
                    let ctx = format!("bad line {at} {via:?} threads={threads} chunk={chunk}");
                    assert!(out == want_out, "output differs: {ctx}");
                    assert!(rep == want_rep, "report differs: {ctx}");
                    let st = &sum.stats;
                    assert!(sum.stopped_at_error, "{ctx}");
                    assert_eq!((st.written, st.skipped), (at as u64, 1), "{ctx}");
                    assert_eq!(st.lines, st.written + st.skipped + st.not_reached, "{ctx}");
                    assert!(st.lines <= clean.len() as u64 + 1, "{ctx}");
                }
            }
        }
    }
}

/// One or two chunks in flight, on more threads than chunks: the cutting thread waits for a
/// free slot after every chunk or two (a mapped input's thread cuts and writes both; a
/// stream's reader waits on its writer), and the output is still whole and in order.
#[test]
fn few_slots_on_every_path() {
    let data = sample();
    for on_error in [OnError::Keep, OnError::Skip] {
        let engine = EngineOptions {
            on_error,
            ..Default::default()
        };
        let (want_out, want_rep) = reference(&data, engine, "IN");
        for via in [Via::Mmap, Via::Stream, Via::Gzip] {
            for (threads, window) in [(1, 1), (3, 1), (3, 2), (2, 3)] {
                let (out, rep, sum) = run_once_with(&data, via, threads, 97, window, engine);
                let ctx = format!("{via:?} threads={threads} window={window} {on_error:?}");
                assert!(out == want_out, "output differs: {ctx}");
                assert!(rep == want_rep, "report differs: {ctx}");
                assert_eq!(
                    sum.stats.lines,
                    sum.stats.written + sum.stats.skipped,
                    "{ctx}"
                );
            }
        }
    }
}

#[test]
fn field_mode_on_every_path() {
    let data = tsv(&sample());
    let engine = EngineOptions {
        field: Some((1, b'\t')),
        ..Default::default()
    };
    let (want_out, want_rep) = reference(&data, engine, "IN");
    // The other columns are unchanged, including their non-ASCII text.
    assert!(String::from_utf8_lossy(&want_out).contains("\tcol é 3"));
    for via in [Via::Mmap, Via::Stream, Via::Gzip] {
        for (threads, chunk) in [(1, 1 << 20), (2, 100), (7, 3000)] {
            let (out, rep, _) = run_once(&data, via, threads, chunk, engine);
            assert!(out == want_out, "{via:?} {threads} {chunk}");
            assert!(rep == want_rep, "{via:?} {threads} {chunk}");
        }
    }
}

#[test]
fn compressed_output_round_trips() {
    let data = sample();
    let (want, _) = reference(&data, EngineOptions::default(), "IN");
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.txt");
    std::fs::write(&input, &data).unwrap();
    for ext in ["gz", "zst"] {
        let output = dir.path().join(format!("out.txt.{ext}"));
        let opts = RunOptions {
            inputs: vec![input.clone()],
            output: Some(output.clone()),
            ..Default::default()
        };
        pipeline::run(&opts).unwrap();
        let raw = std::fs::read(&output).unwrap();
        let got = if ext == "gz" {
            let mut v = Vec::new();
            std::io::Read::read_to_end(&mut flate2::read::MultiGzDecoder::new(&raw[..]), &mut v)
                .unwrap();
            v
        } else {
            zstd::decode_all(&raw[..]).unwrap()
        };
        assert!(got == want, "{ext}");
    }
}
