//! `iribulk bench`: what each normalization rung (RFC 3987 §5.3) and each conversion costs on
//! the user's own data, against a plain line copy measured in the same run.
//!
//! Every row runs one operation over every line of the file, in memory, on one thread, best of
//! `runs` passes, and reports ns/line, MB/s, the share of lines it changed, and its cost
//! relative to the copy.

use crate::convert::normalize::{Idn, Level, NormalizeOptions, Normalizer, Rungs};
use crate::convert::to_iri::{ToIri, ToIriOptions};
use crate::convert::to_uri::Outcome;
use crate::error::LineError;
use crate::host::Idna;
use crate::{ToUri, ToUriOptions};
use std::fmt::Write as _;
use std::time::Instant;

/// One measured row.
#[derive(Clone, Debug)]
pub struct Row {
    /// What was run.
    pub name: String,
    /// Nanoseconds per line (best pass).
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

type Op = Box<dyn FnMut(&[u8], &mut Vec<u8>) -> Result<Outcome, LineError>>;

fn normalizer(rungs: Rungs) -> Op {
    let mut n = Normalizer::new(NormalizeOptions {
        rungs,
        as_uri: false,
        idna: Idna::Uts46,
    });
    Box::new(move |l, o| n.convert_into(l, o))
}

/// The operations measured, in table order: each rung alone, then the ladder cumulatively,
/// then the conversions.
pub fn operations() -> Vec<(String, Op)> {
    let mut v: Vec<(String, Op)> = Vec::new();
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
    let mut u = ToUri::new(ToUriOptions::default());
    v.push((
        "convert: to-uri".into(),
        Box::new(move |l, o| u.convert_into(l, o)),
    ));
    let mut i = ToIri::new(ToIriOptions::default());
    v.push((
        "convert: to-iri".into(),
        Box::new(move |l, o| i.convert_into(l, o)),
    ));
    v
}

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

fn time_best<F: FnMut() -> (u64, u64)>(runs: usize, mut f: F) -> (f64, u64, u64) {
    let mut best = f64::INFINITY;
    let mut last = (0, 0);
    for _ in 0..runs.max(1) {
        let t = Instant::now();
        last = f();
        best = best.min(t.elapsed().as_secs_f64());
    }
    (best, last.0, last.1)
}

/// Runs every operation over `lines`; the first row is the plain copy baseline.
pub fn run(lines: &[&[u8]], runs: usize) -> Vec<Row> {
    let n = lines.len().max(1) as f64;
    let bytes: usize = lines.iter().map(|l| l.len() + 1).sum();
    let mut out = Vec::with_capacity(bytes * 3);
    let (copy_s, _, _) = time_best(runs, || {
        out.clear();
        for l in lines {
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
    for (name, mut op) in operations() {
        let (secs, changed, errors) = time_best(runs, || {
            out.clear();
            let (mut changed, mut errors) = (0u64, 0u64);
            for l in lines {
                let mark = out.len();
                match op(l, &mut out) {
                    Ok(_) => {
                        if &out[mark..] != *l {
                            changed += 1;
                        }
                    }
                    Err(_) => {
                        errors += 1;
                        out.extend_from_slice(l);
                    }
                }
                out.push(b'\n');
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

fn json_str(s: &str) -> String {
    let mut o = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(o, "\\u{:04x}", c as u32);
            }
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

/// The rows as a JSON array.
pub fn json(rows: &[Row]) -> String {
    let items: Vec<String> = rows
        .iter()
        .map(|r| {
            format!(
                "{{\"operation\":{},\"ns_per_line\":{:.2},\"mb_per_s\":{:.2},\"changed_share\":{:.5},\"errors\":{},\"vs_copy\":{:.3}}}",
                json_str(&r.name),
                r.ns_per_line,
                r.mb_per_s,
                r.changed,
                r.errors,
                r.vs_copy
            )
        })
        .collect();
    format!("[{}]\n", items.join(","))
}

fn xml(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// A horizontal bar chart of ns/line, hand-written SVG (no plotting crate needed for bars).
pub fn svg(rows: &[Row], title: &str) -> String {
    let bar_h = 22.0;
    let left = 300.0;
    let width = 900.0;
    let max = rows.iter().map(|r| r.ns_per_line).fold(1.0, f64::max);
    let height = 60.0 + bar_h * rows.len() as f64 + 20.0;
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" font-family=\"sans-serif\" font-size=\"12\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"10\" y=\"24\" font-size=\"16\">{}</text>\n\
         <text x=\"10\" y=\"44\" fill=\"#555\">ns per line (shorter is faster); the number after each bar is the cost relative to a plain line copy</text>\n",
        xml(title)
    );
    for (i, r) in rows.iter().enumerate() {
        let y = 60.0 + bar_h * i as f64;
        let w = (width - left - 120.0) * r.ns_per_line / max;
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
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_cover_every_rung_and_conversion() {
        let data = "http://Example.COM:80/a/./b/%7e?q#F\nhttp://bücher.de/ü\n/x\n";
        let ls = lines(data.as_bytes());
        assert_eq!(ls.len(), 3);
        let rows = run(&ls, 1);
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
        assert!(json(&rows).starts_with("[{\"operation\""));
        let svg = svg(&rows, "t");
        assert_eq!(svg.matches("<rect x=").count(), rows.len());
    }
}
