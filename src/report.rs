//! The error report (TSV) and the end-of-run summary (text or JSON).

use crate::engine::Stats;
use crate::error::ErrorKind;
use std::fmt::Write as _;
use std::io::{self, Write};
use std::time::Duration;

/// How many input bytes a report row shows.
pub const INPUT_CUT: usize = 512;

/// The header line of the error report.
pub const HEADER: &str = "line\tcolumn\tcode\tmessage\tinput\n";

/// Escapes `input` for one TSV field: printable ASCII and valid UTF-8 stay as they are;
/// control bytes, invalid UTF-8 bytes, TAB, CR and LF become `\xHH`; a backslash becomes `\\`.
/// The input is cut at [`INPUT_CUT`] bytes first (an ellipsis `…` marks the cut).
pub fn escape_input(input: &[u8], out: &mut String) {
    let cut = input.len() > INPUT_CUT;
    let mut s = &input[..input.len().min(INPUT_CUT)];
    while !s.is_empty() {
        match std::str::from_utf8(s) {
            Ok(v) => {
                push_escaped_str(v, out);
                break;
            }
            Err(e) => {
                let (good, bad) = s.split_at(e.valid_up_to());
                push_escaped_str(std::str::from_utf8(good).expect("valid prefix"), out);
                let n = e.error_len().unwrap_or(bad.len());
                for &b in &bad[..n] {
                    let _ = write!(out, "\\x{b:02X}");
                }
                s = &bad[n..];
            }
        }
    }
    if cut {
        out.push('…');
    }
}

fn push_escaped_str(s: &str, out: &mut String) {
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 || c == '\u{7F}' || ('\u{80}'..='\u{9F}').contains(&c) => {
                let mut buf = [0u8; 4];
                for b in c.encode_utf8(&mut buf).bytes() {
                    let _ = write!(out, "\\x{b:02X}");
                }
            }
            c => out.push(c),
        }
    }
}

/// Writes one report row. `line` and `column` are 1-based.
pub fn write_row<W: Write + ?Sized>(
    w: &mut W,
    line: u64,
    column: u64,
    kind: ErrorKind,
    warning: bool,
    input: &[u8],
    scratch: &mut String,
) -> io::Result<()> {
    scratch.clear();
    let _ = write!(scratch, "{line}\t{column}\t{}\t", kind.code());
    if warning {
        scratch.push_str("warning: ");
    }
    let _ = write!(scratch, "{}", kind.full_message());
    scratch.push('\t');
    escape_input(input, scratch);
    scratch.push('\n');
    w.write_all(scratch.as_bytes())
}

/// The end-of-run summary.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// Counters.
    pub stats: Stats,
    /// Wall time.
    pub elapsed: Duration,
    /// Worker threads used.
    pub threads: usize,
    /// True if `--on-error fail` stopped the run.
    pub stopped_at_error: bool,
}

impl Summary {
    fn mbps(&self) -> f64 {
        let s = self.elapsed.as_secs_f64().max(1e-9);
        self.stats.bytes as f64 / 1e6 / s
    }

    /// Human-readable, several lines.
    pub fn text(&self) -> String {
        let st = &self.stats;
        let pct = |n: u64| {
            if st.lines == 0 {
                0.0
            } else {
                100.0 * n as f64 / st.lines as f64
            }
        };
        let mut s = String::new();
        let _ = writeln!(
            s,
            "iribulk: {} lines, {} bytes in {:.3} s ({:.1} MB/s, {} threads)",
            st.lines,
            st.bytes,
            self.elapsed.as_secs_f64(),
            self.mbps(),
            self.threads
        );
        let _ = writeln!(
            s,
            "  passed through untouched {} ({:.2} %), converted {} ({:.2} %), repaired {}, warnings {}, errors {}",
            st.passthrough,
            pct(st.passthrough),
            st.converted,
            pct(st.converted),
            st.repaired_lines,
            st.warning_lines,
            st.error_lines
        );
        let _ = writeln!(
            s,
            "  lines in {} = written {} + skipped {}{}",
            st.lines,
            st.written,
            st.skipped,
            if st.lines == st.written + st.skipped {
                ""
            } else {
                "  (MISMATCH)"
            }
        );
        if st.host_fallbacks > 0 {
            let _ = writeln!(
                s,
                "  hosts percent-encoded after IDNA failed: {}",
                st.host_fallbacks
            );
        }
        let codes: Vec<String> = ErrorKind::ALL_CODES
            .iter()
            .zip(st.by_code.iter())
            .filter(|(_, &n)| n > 0)
            .map(|(c, n)| format!("{c} {n}"))
            .collect();
        if !codes.is_empty() {
            let _ = writeln!(s, "  by code: {}", codes.join(", "));
        }
        if self.stopped_at_error {
            let _ = writeln!(s, "  stopped at the first error (--on-error fail)");
        }
        s
    }

    /// One JSON object.
    pub fn json(&self) -> String {
        let st = &self.stats;
        let mut codes = String::new();
        for (i, (c, n)) in ErrorKind::ALL_CODES
            .iter()
            .zip(st.by_code.iter())
            .enumerate()
        {
            if i > 0 {
                codes.push(',');
            }
            let _ = write!(codes, "\"{c}\":{n}");
        }
        format!(
            "{{\"lines\":{},\"bytes\":{},\"passthrough\":{},\"converted\":{},\"repaired_lines\":{},\
             \"repairs\":{},\"warning_lines\":{},\"error_lines\":{},\"skipped\":{},\"written\":{},\
             \"host_fallbacks\":{},\"by_code\":{{{}}},\"elapsed_s\":{:.6},\"mb_per_s\":{:.3},\
             \"lines_per_s\":{:.1},\"threads\":{},\"stopped_at_error\":{}}}\n",
            st.lines,
            st.bytes,
            st.passthrough,
            st.converted,
            st.repaired_lines,
            st.repairs,
            st.warning_lines,
            st.error_lines,
            st.skipped,
            st.written,
            st.host_fallbacks,
            codes,
            self.elapsed.as_secs_f64(),
            self.mbps(),
            st.lines as f64 / self.elapsed.as_secs_f64().max(1e-9),
            self.threads,
            self.stopped_at_error
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping() {
        let mut s = String::new();
        escape_input(b"a\tb\\c\x00\xFF\xC3\xA9\x7F\r", &mut s);
        assert_eq!(s, "a\\x09b\\\\c\\x00\\xFFé\\x7F\\x0D");
        s.clear();
        escape_input(&[b'x'; 600], &mut s);
        assert_eq!(s.chars().count(), 513);
        s.clear();
        escape_input("\u{85}".as_bytes(), &mut s);
        assert_eq!(s, "\\xC2\\x85");
    }
}
