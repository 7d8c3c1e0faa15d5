//! `iribulk bench`: what each normalization rung (RFC 3987 §5.3) and each conversion costs on
//! the user's own data, against a plain line copy measured in the same run.
//!
//! Every row runs one operation over the file as the command runs it on one thread (the
//! engine's worker, chunk by chunk: [`run`]), in memory, median of `runs` passes, and reports
//! ns/line, MB/s, the share of lines it changed, and its cost relative to the copy.

use iribulk::convert::normalize::{Idn, Level, Rungs};
use iribulk::engine::input::next_mapped_chunk_end;
use iribulk::engine::{ChunkOut, EngineOptions, Mode, Worker};
use std::fmt::Write as _;
use std::time::Instant;

/// One measured row.
#[derive(Clone, Debug)]
pub struct Row {
    /// What was run.
    pub name: String,
    /// Nanoseconds per line (median sample).
    pub ns_per_line: f64,
    /// Input megabytes (10^6 bytes) per second.
    pub mb_per_s: f64,
    /// Share of lines whose output differs from the input (0..=1).
    pub changed: f64,
    /// Lines the operation rejected.
    pub errors: u64,
    /// Time relative to the plain copy (1.0 = as fast as copying).
    pub vs_copy: f64,
}

/// The engine's options for a `normalize` run with these rungs (IRI output, UTS #46), as
/// `iribulk --mode normalize` with the matching flags sets them.
fn normalizer(rungs: Rungs) -> EngineOptions {
    EngineOptions {
        mode: Mode::Normalize {
            rungs,
            as_uri: false,
        },
        ..EngineOptions::default()
    }
}

/// The operations measured, in table order: each rung alone, then the ladder cumulatively,
/// then the conversions; each as the engine options of the command that runs it.
pub fn operations() -> Vec<(String, EngineOptions)> {
    let mut v: Vec<(String, EngineOptions)> = Vec::new();
    let one = |f: fn(&mut Rungs)| {
        let mut r = Rungs::default();
        f(&mut r);
        r
    };
    v.push((
        "rung: case (§5.3.2.1)".into(),
        normalizer(one(|r| r.case = true)),
    ));
    v.push((
        "rung: percent (§5.3.2.3)".into(),
        normalizer(one(|r| r.percent = true)),
    ));
    v.push((
        "rung: nfc (§5.3.2.2)".into(),
        normalizer(one(|r| r.nfc = true)),
    ));
    v.push((
        "rung: nfkc (§5.3.2.2)".into(),
        normalizer(one(|r| r.nfkc = true)),
    ));
    v.push((
        "rung: path (§5.3.2.4)".into(),
        normalizer(one(|r| r.path = true)),
    ));
    v.push((
        "rung: scheme (§5.3.3)".into(),
        normalizer(one(|r| r.scheme = true)),
    ));
    v.push((
        "rung: idn ascii (§5.3.3)".into(),
        normalizer(one(|r| r.idn = Some(Idn::Ascii))),
    ));
    v.push((
        "rung: idn unicode (§5.3.3)".into(),
        normalizer(one(|r| r.idn = Some(Idn::Unicode))),
    ));
    let mut ladder = Rungs::default();
    v.push((
        "ladder: string".into(),
        normalizer(Rungs::level(Level::String)),
    ));
    ladder.case = true;
    v.push(("ladder: + case".into(), normalizer(ladder)));
    ladder.percent = true;
    v.push(("ladder: + percent".into(), normalizer(ladder)));
    ladder.path = true;
    v.push(("ladder: + path (= syntax)".into(), normalizer(ladder)));
    ladder.scheme = true;
    v.push(("ladder: + scheme".into(), normalizer(ladder)));
    ladder.idn = Some(Idn::Ascii);
    v.push(("ladder: + idn (= scheme level)".into(), normalizer(ladder)));
    v.push((
        "convert: to-uri".into(),
        EngineOptions {
            mode: Mode::ToUri,
            ..EngineOptions::default()
        },
    ));
    v.push((
        "convert: to-iri".into(),
        EngineOptions {
            mode: Mode::ToIri,
            ..EngineOptions::default()
        },
    ));
    v
}

/// The chunk size the command cuts its input into (`--chunk-size`'s default).
const CHUNK: usize = 1 << 20;

/// Splits `data` into lines (LF, a CR before it dropped), once, outside the timing.
pub fn lines(data: &[u8]) -> Vec<&[u8]> {
    let data = data.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(data);
    let mut v: Vec<&[u8]> = data
        .split(|&b| b == b'\n')
        .map(|l| l.strip_suffix(b"\r").unwrap_or(l))
        .collect();
    if data.ends_with(b"\n") {
        v.pop();
    }
    v
}

/// The time of one pass of `f`: `f` is repeated until at least `min_secs` have passed (so a
/// small input is not timed at the clock's resolution), `samples` such times are taken, and
/// the median is kept (one slow sample, e.g. a context switch, does not move it). Returns the
/// seconds per pass and what the last pass of `f` returned.
fn time_median<F: FnMut() -> (u64, u64)>(
    samples: usize,
    min_secs: f64,
    mut f: F,
) -> (f64, u64, u64) {
    let mut times = Vec::with_capacity(samples.max(1));
    let mut last = (0, 0);
    for _ in 0..samples.max(1) {
        let t = Instant::now();
        let mut passes = 0u32;
        loop {
            last = f();
            passes += 1;
            if t.elapsed().as_secs_f64() >= min_secs {
                break;
            }
        }
        times.push(t.elapsed().as_secs_f64() / f64::from(passes));
    }
    times.sort_by(f64::total_cmp);
    (times[times.len() / 2], last.0, last.1)
}

/// How long one timed sample of the copy baseline runs at least, and how many samples its
/// median is taken over. The copy is the denominator of every "× copy", so it is measured long
/// enough that the ratio moves less than ±3 % between runs (the bench test checks it).
pub const COPY_MIN_SECS: f64 = 0.2;
/// Samples of the copy baseline (at least; more when `runs` is larger).
pub const COPY_SAMPLES: usize = 5;
/// How long one timed sample of an operation runs at least.
pub const OP_MIN_SECS: f64 = 0.02;

/// Runs every operation over `data` (the input, its BOM dropped); the first row is the plain
/// copy baseline, a copy of its lines. Each row is the median of `runs` samples
/// ([`COPY_SAMPLES`] at least for the copy).
///
/// An operation runs as the command runs it on one thread (`--threads 1`), in memory: the
/// input cut into chunks of `--chunk-size`'s default at line ends, each through the engine's
/// worker (its classifier, which passes clean lines without a call, its shortcuts, the line
/// cap, the host-integrity checks) and written to a buffer as the writer writes it. A row's
/// "changed" share is the lines the engine converted, its errors the lines it reported. (Each
/// line through the converter alone, as before, made the rows that the engine's shortcuts
/// serve look 4–6× dearer than the command: `ladder: string` above `+ percent`; found by a QA
/// sweep.)
pub fn run(data: &[u8], runs: usize) -> Vec<Row> {
    let data = data.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(data);
    let lines = lines(data);
    let n = lines.len().max(1) as f64;
    let bytes: usize = lines.iter().map(|l| l.len() + 1).sum();
    let mut out = Vec::with_capacity(bytes * 3);
    let (copy_s, _, _) = time_median(runs.max(COPY_SAMPLES), COPY_MIN_SECS, || {
        out.clear();
        for l in &lines {
            out.extend_from_slice(l);
            out.push(b'\n');
        }
        std::hint::black_box(&out);
        (0, 0)
    });
    let mk = |name: &str, secs: f64, changed: u64, errors: u64| Row {
        name: name.to_string(),
        ns_per_line: secs * 1e9 / n,
        mb_per_s: bytes as f64 / 1e6 / secs.max(1e-12),
        changed: changed as f64 / n,
        errors,
        vs_copy: secs / copy_s.max(1e-12),
    };
    let mut rows = vec![mk("plain line copy (baseline)", copy_s, 0, 0)];
    let mut res = ChunkOut::default();
    for (name, opts) in operations() {
        let mut w = Worker::new(opts);
        let (secs, changed, errors) = time_median(runs, OP_MIN_SECS, || {
            out.clear();
            let (mut changed, mut errors) = (0u64, 0u64);
            let mut pos = 0;
            while pos < data.len() {
                let end = next_mapped_chunk_end(data, pos, CHUNK);
                w.convert_chunk(&data[pos..end], &mut res);
                res.write_to(&data[pos..end], &mut out)
                    .expect("writing to a Vec");
                changed += res.stats.converted;
                errors += res.stats.error_lines;
                pos = end;
            }
            std::hint::black_box(&out);
            (changed, errors)
        });
        rows.push(mk(&name, secs, changed, errors));
    }
    rows
}

/// The rows as an aligned text table.
pub fn table(rows: &[Row]) -> String {
    let w = rows
        .iter()
        .map(|r| r.name.chars().count())
        .max()
        .unwrap_or(4);
    let mut s = format!(
        "{:w$}  {:>9}  {:>9}  {:>9}  {:>7}  {:>8}\n",
        "operation", "ns/line", "MB/s", "changed", "errors", "× copy"
    );
    for r in rows {
        let _ = writeln!(
            s,
            "{:w$}  {:>9.1}  {:>9.1}  {:>8.2}%  {:>7}  {:>8.2}",
            r.name,
            r.ns_per_line,
            r.mb_per_s,
            100.0 * r.changed,
            r.errors,
            r.vs_copy
        );
    }
    s
}

/// The rows as CSV with a header.
pub fn csv(rows: &[Row]) -> String {
    let mut s = String::from("operation,ns_per_line,mb_per_s,changed_share,errors,vs_copy\n");
    for r in rows {
        let _ = writeln!(
            s,
            "\"{}\",{:.2},{:.2},{:.5},{},{:.3}",
            r.name.replace('"', "\"\""),
            r.ns_per_line,
            r.mb_per_s,
            r.changed,
            r.errors,
            r.vs_copy
        );
    }
    s
}

/// The rows as a JSON array (serde_json), one object per row.
pub fn json(rows: &[Row]) -> String {
    let items: Vec<serde_json::Value> = rows
        .iter()
        .map(|r| {
            serde_json::json!({
                "operation": r.name,
                "ns_per_line": r.ns_per_line,
                "mb_per_s": r.mb_per_s,
                "changed_share": r.changed,
                "errors": r.errors,
                "vs_copy": r.vs_copy,
            })
        })
        .collect();
    let mut s = serde_json::Value::Array(items).to_string();
    s.push('\n');
    s
}

fn xml(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// What the chart's caption says about the run: the input, the machine, the date, the threads
/// and the runs, so that a chart found later says where its numbers come from.
#[derive(Clone, Debug)]
pub struct Caption {
    /// The input's name as shown to the user.
    pub input: String,
    /// Lines measured.
    pub lines: usize,
    /// The CPU model (`model name` of /proc/cpuinfo, or the architecture).
    pub machine: String,
    /// The date, `YYYY-MM-DD` (UTC).
    pub date: String,
    /// Samples per row.
    pub runs: usize,
}

impl Caption {
    /// The caption of a run made now on this machine.
    pub fn now(input: &str, lines: usize, runs: usize) -> Caption {
        let secs = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        Caption {
            input: input.to_string(),
            lines,
            machine: cpu_model(),
            date: civil_date(secs / 86_400),
            runs,
        }
    }
}

/// The CPU model named by /proc/cpuinfo, else the architecture (other systems).
pub fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|t| {
            t.lines()
                .find(|l| l.starts_with("model name") || l.starts_with("Model"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_string())
        })
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| std::env::consts::ARCH.to_string())
}

/// `YYYY-MM-DD` of the day `days` after 1970-01-01 (proleptic Gregorian calendar).
pub fn civil_date(days: u64) -> String {
    // Days to civil date: eras of 400 years (146 097 days) starting on March 1st.
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

/// A step of 1, 2 or 5 × 10^k that cuts `0..=max` into about five ticks.
fn tick_step(max: f64) -> f64 {
    let raw = (max / 5.0).max(1e-9);
    let p = 10f64.powf(raw.log10().floor());
    let f = raw / p;
    p * if f <= 1.0 {
        1.0
    } else if f <= 2.0 {
        2.0
    } else if f <= 5.0 {
        5.0
    } else {
        10.0
    }
}

/// A horizontal bar chart of ns/line as hand-written SVG: one bar per row, an x axis with
/// ticks in ns/line, and a caption naming the input, machine, date, thread and runs.
pub fn svg(rows: &[Row], c: &Caption) -> String {
    let bar_h = 22.0;
    let left = 300.0;
    let width = 900.0;
    let plot_w = width - left - 130.0;
    let top = 70.0;
    let max = rows.iter().map(|r| r.ns_per_line).fold(1e-9, f64::max);
    let step = tick_step(max);
    let axis_max = (max / step).ceil() * step;
    let axis_y = top + bar_h * rows.len() as f64 + 4.0;
    let height = axis_y + 60.0;
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" font-family=\"sans-serif\" font-size=\"12\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"10\" y=\"24\" font-size=\"16\">iribulk bench: {} ({} lines)</text>\n\
         <text x=\"10\" y=\"44\" fill=\"#555\">{}, {}, 1 thread, median of {} run{} per row</text>\n\
         <text x=\"10\" y=\"60\" fill=\"#555\">ns per line (shorter is faster); the number after each bar is the cost relative to a plain line copy</text>\n",
        xml(&c.input),
        c.lines,
        xml(&c.machine),
        c.date,
        c.runs,
        if c.runs == 1 { "" } else { "s" }
    );
    for (i, r) in rows.iter().enumerate() {
        let y = top + bar_h * i as f64;
        let w = plot_w * r.ns_per_line / axis_max;
        let color = if i == 0 { "#888" } else { "#4a7ab5" };
        let _ = writeln!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>\
             <rect x=\"{left}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"{color}\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\">{:.1} ns ({:.1}×)</text>",
            left - 8.0,
            y + 15.0,
            xml(&r.name),
            y + 3.0,
            w.max(1.0),
            bar_h - 6.0,
            left + w + 6.0,
            y + 15.0,
            r.ns_per_line,
            r.vs_copy
        );
    }
    // The x axis: a line, a tick and a label every `step` ns/line, and the unit.
    let _ = writeln!(
        s,
        "<g class=\"axis\" stroke=\"#333\"><line x1=\"{left}\" y1=\"{axis_y:.1}\" x2=\"{:.1}\" y2=\"{axis_y:.1}\"/></g>",
        left + plot_w
    );
    let ticks = (axis_max / step).round() as usize;
    for k in 0..=ticks {
        let v = step * k as f64;
        let x = left + plot_w * v / axis_max;
        let _ = writeln!(
            s,
            "<line x1=\"{x:.1}\" y1=\"{axis_y:.1}\" x2=\"{x:.1}\" y2=\"{:.1}\" stroke=\"#333\"/>\
             <text class=\"tick\" x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
            axis_y + 5.0,
            axis_y + 18.0,
            trim_num(v)
        );
    }
    let _ = writeln!(
        s,
        "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">ns per line</text>",
        left + plot_w / 2.0,
        axis_y + 36.0
    );
    s.push_str("</svg>\n");
    s
}

fn trim_num(v: f64) -> String {
    let t = format!("{v:.3}");
    t.trim_end_matches('0').trim_end_matches('.').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_cover_every_rung_and_conversion() {
        let data = "http://Example.COM:80/a/./b/%7e?q#F\nhttp://bücher.de/ü\n/x\n";
        assert_eq!(lines(data.as_bytes()).len(), 3);
        let rows = run(data.as_bytes(), 1);
        assert_eq!(rows.len(), 1 + operations().len());
        assert!(rows.iter().all(|r| r.ns_per_line > 0.0 && r.mb_per_s > 0.0));
        let case = rows
            .iter()
            .find(|r| r.name.starts_with("rung: case"))
            .unwrap();
        assert!(case.changed > 0.0, "the case rung changes the first line");
        let uri = rows.iter().find(|r| r.name == "convert: to-uri").unwrap();
        assert!((uri.changed - 1.0 / 3.0).abs() < 1e-9);
        let t = table(&rows);
        assert!(t.contains("plain line copy") && t.contains("ladder: + idn"));
        assert_eq!(csv(&rows).lines().count(), rows.len() + 1);
        let j: serde_json::Value = serde_json::from_str(&json(&rows)).unwrap();
        assert_eq!(j[0]["operation"], "plain line copy (baseline)");
        assert_eq!(j.as_array().unwrap().len(), rows.len());
        let cap = Caption {
            input: "t<&>".into(),
            lines: 3,
            machine: "cpu".into(),
            date: "2026-01-01".into(),
            runs: 1,
        };
        let svg = svg(&rows, &cap);
        assert_eq!(svg.matches("<rect x=").count(), rows.len());
        assert!(svg.contains("t&lt;&amp;&gt;") && svg.contains("ns per line</text>"));
    }

    /// The rows run as the command does: a line over the command's cap (8 MiB) is an error in
    /// every row, not timed as work the command refuses (found by a QA sweep), and the
    /// lines after it are converted.
    #[test]
    fn a_line_over_the_cap_is_an_error_in_every_row() {
        let mut data = b"http://a/".to_vec();
        data.resize(9 << 20, b'a');
        data.extend_from_slice("\nhttp://b\u{FC}cher.de/\n".as_bytes());
        let rows = run(&data, 1);
        for r in &rows[1..] {
            assert_eq!(r.errors, 1, "{}", r.name);
        }
        let uri = rows.iter().find(|r| r.name == "convert: to-uri").unwrap();
        assert!((uri.changed - 0.5).abs() < 1e-9);
    }

    #[test]
    fn dates_and_ticks() {
        assert_eq!(civil_date(0), "1970-01-01");
        assert_eq!(civil_date(11_016), "2000-02-29");
        assert_eq!(civil_date(20_597), "2026-05-24");
        assert_eq!(tick_step(100.0), 20.0);
        assert_eq!(tick_step(7.0), 2.0);
        assert_eq!(tick_step(2400.0), 500.0);
    }
}
