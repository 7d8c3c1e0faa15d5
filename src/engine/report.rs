//! The error report (TSV or JSON Lines) and the end-of-run summary (text or JSON).

use crate::config::HostMode;
use crate::engine::Stats;
use crate::error::{display_unsafe, ErrorKind};
use std::fmt::Write as _;
use std::io::{self, Write};
use std::time::Duration;

/// How many input bytes a report row shows.
pub const INPUT_CUT: usize = 512;

/// The header line of the TSV error report.
pub const HEADER: &str = "file\tline\tcolumn\tcode\tmessage\tinput\n";

/// The form of the error report.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ReportFormat {
    /// Tab-separated values with the [`HEADER`] line.
    #[default]
    Tsv,
    /// JSON Lines: one object per row with the same fields, no header.
    Jsonl,
}

impl ReportFormat {
    /// What the report starts with.
    pub fn header(self) -> &'static str {
        match self {
            ReportFormat::Tsv => HEADER,
            ReportFormat::Jsonl => "",
        }
    }
}

/// One row of the error report. `line` is 1-based within `file`; `column` is the 1-based byte
/// column in that line.
#[derive(Clone, Copy, Debug)]
pub struct Row<'a> {
    /// The input file as given (`-` for stdin), its bytes: a name that is not UTF-8 is
    /// written with those bytes as `\xHH`, so that two such names never read the same.
    pub file: &'a [u8],
    /// Line number in that file, from 1.
    pub line: u64,
    /// Byte column in the line, from 1.
    pub column: u64,
    /// The error.
    pub kind: ErrorKind,
    /// A warning, not an error (the message says so).
    pub warning: bool,
    /// The line's bytes (escaped and cut when written).
    pub input: &'a [u8],
    /// The two readings of a host-integrity error on this line, appended to the message
    /// ([`crate::convert::readings`]), or `None`.
    pub readings: Option<&'a str>,
    /// The line is a record of fields (`--field`): no [`TAB_HINT`], which asks for `--field`.
    pub records: bool,
    /// The line is in a legacy charset: its input is shown byte by byte
    /// ([`escape_input_bytes`]).
    pub legacy: bool,
}

/// The JSON form of a row: the same fields as the TSV columns, as serde writes them.
#[derive(serde::Serialize)]
struct JsonRow<'a> {
    file: std::borrow::Cow<'a, str>,
    line: u64,
    column: u64,
    code: &'a str,
    message: &'a str,
    input: &'a str,
}

/// Escapes `input` for one TSV field ([`crate::error::escape_text`]: control bytes, invalid
/// UTF-8, TAB, CR and LF as `\xHH`, a backslash as `\\`, format characters and the line and
/// paragraph separators as `\u{HHHH}`), cut at [`INPUT_CUT`] bytes first (an ellipsis `…`
/// marks the cut).
pub fn escape_input(input: &[u8], out: &mut String) {
    let cut = input.len() > INPUT_CUT;
    let mut end = input.len().min(INPUT_CUT);
    if cut {
        // Not inside a UTF-8 character: it would show as invalid bytes (`\xC3`) in a valid
        // line (found by a QA sweep). Back to the start of the character the cut splits.
        while end > INPUT_CUT - 3 && input[end] & 0xC0 == 0x80 {
            end -= 1;
        }
    }
    crate::error::escape_text(&input[..end], out);
    if cut {
        out.push('…');
    }
}

/// [`crate::convert::readings::readings`] for a report row of `line`: with `--field` (`field`: its index and
/// delimiter) the readings are those of the converted field, not of the whole record (whose
/// first field a browser would read as the URL: `k\thttp` was named as the host; found by a
/// QA sweep). A record without that field has none.
pub fn readings_of_row(
    kind: ErrorKind,
    line: &[u8],
    field: Option<(usize, u8)>,
    host_mode: HostMode,
) -> Option<String> {
    let reference = match field {
        None => line,
        Some((k, d)) => &line[crate::engine::lines::field_range(line, k, d)?],
    };
    crate::convert::readings::readings(kind, reference, host_mode)
}

/// [`escape_input`] for a line in a legacy charset (`--charset`, `--charset-field`): every
/// byte ≥ 0x80 as `\xHH`, so the row shows the bytes the column counts (`\x93\xFA` for
/// Shift_JIS `日`), not the characters they would be in UTF-8 (windows-874 `CB B9` showed as
/// `˹`; found by a QA sweep). ASCII is escaped as [`escape_input`] does.
pub fn escape_input_bytes(input: &[u8], out: &mut String) {
    use std::fmt::Write as _;
    let cut = input.len() > INPUT_CUT;
    let input = &input[..input.len().min(INPUT_CUT)];
    for run in input.chunk_by(|a, b| a.is_ascii() == b.is_ascii()) {
        if run[0].is_ascii() {
            crate::error::escape_text(run, out);
        } else {
            for &b in run {
                let _ = write!(out, "\\x{b:02X}");
            }
        }
    }
    if cut {
        out.push('…');
    }
}

/// The hint added to the message of an error found at a TAB (`column` is 1-based): such a
/// line is most likely a record of several fields given without `--field`.
pub const TAB_HINT: &str = " (a TAB: did you mean --field N?)";

/// [`TAB_HINT`] when the byte at the 1-based `column` of `input` is a TAB, else `None`. With
/// `--field`, a TAB delimiter never reaches the converter, so the hint only shows when the
/// TAB is inside the converted text.
pub fn tab_hint(input: &[u8], column: u64) -> Option<&'static str> {
    let i = usize::try_from(column.checked_sub(1)?).ok()?;
    (input.get(i) == Some(&b'\t')).then_some(TAB_HINT)
}

/// The hint added to the message of an error in a line that looks like UTF-16 read as bytes.
pub const UTF16_HINT: &str =
    " (NUL between the characters: UTF-16 without a BOM? try --charset utf-16le or utf-16be)";

/// [`UTF16_HINT`] when `input` looks like UTF-16 text read as UTF-8: of its first 32 bytes,
/// at least three quarters of the bytes at even offsets are NUL and at most one in eight at
/// odd offsets, or the other way round (ASCII text in UTF-16LE or UTF-16BE; a line after the
/// first may start at either byte of a code unit; a code unit such as the low surrogate
/// `DE00` of an emoji puts a NUL on the other side: `http://h.com/😀` had no hint, found by
/// a QA sweep). A UTF-16 file with a BOM is decoded (README "Legacy
/// charsets"); one without reaches the converters as bytes (a QA sweep: every line was
/// `invalid-utf8` or `control-char` with no word of UTF-16).
pub fn utf16_hint(input: &[u8]) -> Option<&'static str> {
    let head = &input[..input.len().min(32)];
    let pairs = head.len() / 2;
    if pairs < 2 {
        return None;
    }
    let nul = |parity: usize| {
        head.iter()
            .skip(parity)
            .step_by(2)
            .take(pairs)
            .filter(|&&b| b == 0)
            .count()
    };
    let (even, odd) = (nul(0), nul(1));
    let most = |n: usize| 4 * n >= 3 * pairs;
    let few = |n: usize| 8 * n <= pairs;
    ((most(even) && few(odd)) || (most(odd) && few(even))).then_some(UTF16_HINT)
}

/// What the JSON Lines row writes as `\uXXXX` although serde_json leaves it raw: the
/// characters [`display_unsafe`] names and the C1 controls (U+0085 NEL ends a line for some
/// readers: Python's `str.splitlines`).
fn json_unsafe(c: char) -> bool {
    display_unsafe(c) || ('\u{80}'..='\u{9F}').contains(&c)
}

/// Writes one report row in `format` (TSV: one line of [`HEADER`]'s columns; JSON Lines: one
/// object). `scratch` is reused between rows.
pub fn write_row<W: Write + ?Sized>(
    w: &mut W,
    format: ReportFormat,
    row: &Row<'_>,
    scratch: &mut String,
) -> io::Result<()> {
    scratch.clear();
    let mut message = String::new();
    if row.warning {
        message.push_str("warning: ");
    }
    let _ = write!(message, "{}", row.kind.full_message());
    if let Some(r) = row.readings {
        message.push_str("; on this line: ");
        message.push_str(r);
    }
    if let Some(h) = tab_hint(row.input, row.column).filter(|_| !row.records) {
        message.push_str(h);
    } else if let Some(h) = utf16_hint(row.input).filter(|_| !row.legacy) {
        message.push_str(h);
    }
    match format {
        ReportFormat::Tsv => {
            escape_input(row.file, scratch);
            let _ = write!(
                scratch,
                "\t{}\t{}\t{}\t{}\t",
                row.line,
                row.column,
                row.kind.code(),
                message.replace('\t', " ")
            );
            if row.legacy {
                escape_input_bytes(row.input, scratch);
            } else {
                escape_input(row.input, scratch);
            }
            scratch.push('\n');
            w.write_all(scratch.as_bytes())
        }
        ReportFormat::Jsonl => {
            if row.legacy {
                escape_input_bytes(row.input, scratch);
            } else {
                escape_input(row.input, scratch);
            }
            // A name that is not UTF-8 (a file found by a glob of raw bytes) keeps its bytes
            // (it was U+FFFD, which made two files read the same: a QA sweep):
            // [`bytes_name`]; JSON escapes its unsafe characters below, as for any name.
            let file = match std::str::from_utf8(row.file) {
                Ok(f) => std::borrow::Cow::Borrowed(f),
                Err(_) => std::borrow::Cow::Owned(bytes_name(row.file)),
            };
            let j = JsonRow {
                file,
                line: row.line,
                column: row.column,
                code: row.kind.code(),
                message: &message,
                input: scratch,
            };
            let mut v = serde_json::to_string(&j).map_err(io::Error::other)?;
            if v.chars().any(json_unsafe) {
                // A bidi control in the file name (the input and the message are escaped
                // already) would reorder the row on a terminal, a C1 control such as NEL
                // break it for readers that split lines at U+0085 (found by QA sweeps):
                // written as JSON `\uXXXX` escapes, the same string for a JSON reader (RFC
                // 8259 §7; UTF-16 surrogate pairs above the BMP).
                let mut e = String::with_capacity(v.len() + 12);
                for c in v.chars() {
                    if json_unsafe(c) {
                        let mut units = [0u16; 2];
                        for u in c.encode_utf16(&mut units) {
                            let _ = write!(e, "\\u{u:04x}");
                        }
                    } else {
                        e.push(c);
                    }
                }
                v = e;
            }
            v.push('\n');
            w.write_all(v.as_bytes())
        }
    }
}

/// A file name that is not UTF-8, for a JSON string: its characters as they are, a backslash
/// doubled, each byte of an invalid sequence `\xHH`.
fn bytes_name(name: &[u8]) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    for chunk in name.utf8_chunks() {
        for c in chunk.valid().chars() {
            if c == '\\' {
                out.push_str("\\\\");
            } else {
                out.push(c);
            }
        }
        for &b in chunk.invalid() {
            let _ = write!(out, "\\x{b:02X}");
        }
    }
    out
}

/// The error that stopped a run (`--on-error fail`) in one line, as compilers write theirs:
/// `file:line:column: code: message` (the file name escaped as in the report), for the
/// summary and for the CLI, which writes it even with `-q`: the run's exit status says
/// that it stopped, this line where (found by a QA sweep: without `--errors` nothing said
/// which line).
pub fn stop_line(row: &Row<'_>) -> String {
    let mut file = String::new();
    escape_input(row.file, &mut file);
    format!(
        "{file}:{}:{}: {}: {}",
        row.line,
        row.column,
        row.kind.code(),
        row.kind.full_message()
    )
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
    /// The error that stopped it, as [`stop_line`] writes it (`file:line:column: code:
    /// message`).
    pub stopped_by: Option<String>,
    /// True if the reader of the output went away (`| head`): the run stopped there, the
    /// lines of the chunk whose write failed and every line after it count as not reached.
    pub output_closed: bool,
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
            "iribulk: {} {}, {} bytes in {:.3} s ({:.1} MB/s, {} {})",
            st.lines,
            if st.lines == 1 { "line" } else { "lines" },
            st.bytes,
            self.elapsed.as_secs_f64(),
            self.mbps(),
            self.threads,
            if self.threads == 1 {
                "thread"
            } else {
                "threads"
            }
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
        let not_reached = if self.stopped_at_error || self.output_closed {
            format!(" + not reached {}", st.not_reached)
        } else {
            String::new()
        };
        let _ = writeln!(
            s,
            "  lines in {} = written {} + skipped {}{}{}",
            st.lines,
            st.written,
            st.skipped,
            not_reached,
            if st.lines == st.written + st.skipped + st.not_reached {
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
        if self.output_closed {
            let _ = writeln!(s, "  stopped: the output was closed by its reader (a pipe such as `| head`); the chunk being written then and the lines after it count as not reached, and the error report holds the rows of the chunks before it");
        }
        if self.stopped_at_error {
            let _ = writeln!(s, "  stopped at the first error (--on-error fail: that line counts as skipped, the lines read after it as not reached; an --out FILE is left as it was, so the lines counted as written are not in it)");
            if let Some(by) = &self.stopped_by {
                let _ = writeln!(s, "  stopped by: {by}");
            }
        }
        s
    }

    /// One JSON object (serde_json) and a newline, its keys (and `by_code`'s) in
    /// alphabetical order (serde_json's map); `by_code` holds every error code of
    /// [`ErrorKind::ALL_CODES`].
    pub fn json(&self) -> String {
        let st = &self.stats;
        let secs = self.elapsed.as_secs_f64();
        let by_code: serde_json::Map<String, serde_json::Value> = ErrorKind::ALL_CODES
            .iter()
            .zip(st.by_code.iter())
            .map(|(c, n)| (c.to_string(), (*n).into()))
            .collect();
        let mut s = serde_json::json!({
            "lines": st.lines,
            "bytes": st.bytes,
            "passthrough": st.passthrough,
            "converted": st.converted,
            "repaired_lines": st.repaired_lines,
            "repairs": st.repairs,
            "warning_lines": st.warning_lines,
            "error_lines": st.error_lines,
            "skipped": st.skipped,
            "written": st.written,
            "not_reached": st.not_reached,
            "host_fallbacks": st.host_fallbacks,
            "by_code": by_code,
            "elapsed_s": secs,
            "mb_per_s": self.mbps(),
            "lines_per_s": st.lines as f64 / secs.max(1e-9),
            "threads": self.threads,
            "stopped_at_error": self.stopped_at_error,
            "stopped_by": self.stopped_by,
            "output_closed": self.output_closed,
        })
        .to_string();
        s.push('\n');
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// ASCII text in UTF-16LE and UTF-16BE, at either byte of a code unit, with an emoji too,
    /// gets the hint; UTF-8 text, a line with one NUL, NUL runs and short lines do not.
    #[test]
    fn utf16_hint_only_for_text_that_looks_like_utf16() {
        let le: Vec<u8> = "http://a.com/x"
            .encode_utf16()
            .flat_map(u16::to_le_bytes)
            .collect();
        let be: Vec<u8> = "http://a.com/x"
            .encode_utf16()
            .flat_map(u16::to_be_bytes)
            .collect();
        // An emoji's low surrogate (DE00) puts a NUL on the other side (found by a QA sweep).
        let emoji: Vec<u8> = "http://h.com/😀"
            .encode_utf16()
            .flat_map(u16::to_le_bytes)
            .collect();
        for (t, hint) in [
            (&le[..], true),
            (&emoji[..], true),
            (&le[1..], true),
            (&be[..], true),
            ("http://a.com/ü".as_bytes(), false),
            (&b"http://a.com/\0x"[..], false),
            (&[0u8; 40][..], false),
            (&b"h\0t"[..], false),
            (&b"h\0t\0"[..], true),
        ] {
            assert_eq!(utf16_hint(t).is_some(), hint, "{t:02X?}");
        }
    }

    /// A legacy line's bytes ≥ 0x80 are shown as bytes even where they would be valid UTF-8
    /// (windows-874 `CB B9`, iso-8859-2 `E2 80 AE`); ASCII as `escape_input` shows it; the cut.
    #[test]
    fn legacy_input_is_shown_byte_by_byte() {
        let mut s = String::new();
        escape_input_bytes(b"a\xCB\xB9[\t\\\xE2\x80\xAE\x93\xFAz", &mut s);
        assert_eq!(s, "a\\xCB\\xB9[\\x09\\\\\\xE2\\x80\\xAE\\x93\\xFAz");
        let mut s = String::new();
        escape_input_bytes(&[0xE9; 600], &mut s);
        assert_eq!(s, format!("{}…", "\\xE9".repeat(INPUT_CUT)));
    }

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

    #[test]
    fn format_characters_are_escaped() {
        let mut s = String::new();
        let bidi = "a\u{202E}b\u{200F}c\u{2066}\u{2069}\u{61C}\u{FEFF}\u{AD}\u{E0041}\u{2028}é";
        escape_input(bidi.as_bytes(), &mut s);
        assert_eq!(
            s,
            "a\\u{202E}b\\u{200F}c\\u{2066}\\u{2069}\\u{061C}\\u{FEFF}\\u{00AD}\\u{E0041}\\u{2028}é"
        );
        // Letters, marks and spaces of other scripts stay as they are.
        s.clear();
        escape_input("日本 עברית ñ\u{301}".as_bytes(), &mut s);
        assert_eq!(s, "日本 עברית ñ\u{301}");
    }

    #[test]
    fn the_cut_never_splits_a_character() {
        for pad in 0..4 {
            let mut input = vec![b'a'; INPUT_CUT - pad];
            while input.len() < INPUT_CUT + 10 {
                input.extend_from_slice("é€".as_bytes());
            }
            let mut s = String::new();
            escape_input(&input, &mut s);
            assert!(!s.contains("\\x"), "{pad}: {s}");
            assert!(s.ends_with('…'));
            assert!(s.len() <= INPUT_CUT + '…'.len_utf8());
        }
    }

    #[test]
    fn rows_in_both_forms_have_the_same_fields() {
        let row = Row {
            file: b"shard\t1.txt",
            line: 7,
            column: 3,
            kind: ErrorKind::BadPort,
            warning: false,
            input: b"x\xE2\x80\xAE\ty\xFF",
            readings: Some("a browser reads host a, RFC 3986 reads host b"),
            records: false,
            legacy: false,
        };
        let mut scratch = String::new();
        let mut tsv = Vec::new();
        write_row(&mut tsv, ReportFormat::Tsv, &row, &mut scratch).unwrap();
        let tsv = String::from_utf8(tsv).unwrap();
        let f: Vec<&str> = tsv.trim_end_matches('\n').split('\t').collect();
        assert_eq!(f.len(), 6, "{tsv}");
        let mut js = Vec::new();
        write_row(&mut js, ReportFormat::Jsonl, &row, &mut scratch).unwrap();
        assert!(js.ends_with(b"\n") && js.iter().filter(|&&b| b == b'\n').count() == 1);
        let v: serde_json::Value = serde_json::from_slice(&js).unwrap();
        assert_eq!(v["file"], "shard\t1.txt");
        assert_eq!(f[0], "shard\\x091.txt");
        assert_eq!(v["line"], 7);
        assert_eq!(f[1], "7");
        assert_eq!(v["column"], 3);
        assert_eq!(v["code"], f[3]);
        assert_eq!(v["message"], f[4]);
        assert!(
            f[4].ends_with(": a browser reads host a, RFC 3986 reads host b"),
            "{tsv}"
        );
        assert_eq!(v["input"], f[5]);
        assert_eq!(f[5], "x\\u{202E}\\x09y\\xFF");
    }

    /// A `bad-port` row at 1:1 of the input `x` in the file `file`.
    fn row_of(file: &[u8]) -> Row<'_> {
        Row {
            file,
            line: 1,
            column: 1,
            kind: ErrorKind::BadPort,
            warning: false,
            input: b"x",
            readings: None,
            records: false,
            legacy: false,
        }
    }

    #[test]
    fn a_bidi_control_in_a_file_name_is_escaped_in_jsonl() {
        let row = row_of("a\u{202E}b\u{E0041}\u{85}.txt".as_bytes());
        let mut js = Vec::new();
        write_row(&mut js, ReportFormat::Jsonl, &row, &mut String::new()).unwrap();
        let text = String::from_utf8(js).unwrap();
        assert!(!text.chars().any(json_unsafe), "{text}");
        assert!(!text.contains('\u{85}'), "NEL written as \\u0085: {text}");
        assert!(
            text.contains("a\\u202eb\\udb40\\udc41\\u0085.txt"),
            "{text}"
        );
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(
            v["file"].as_str().map(str::as_bytes),
            Some(row.file),
            "the same string for a JSON reader"
        );
    }

    #[test]
    fn a_file_name_that_is_not_utf8_keeps_its_bytes() {
        // Two names that differ in an invalid byte were both `c\u{FFFD}d.txt` (a QA sweep).
        for (name, shown) in [
            (&b"c\xFEd.txt"[..], "c\\xFEd.txt"),
            (b"c\xFFd.txt", "c\\xFFd.txt"),
        ] {
            let row = row_of(name);
            let mut tsv = Vec::new();
            write_row(&mut tsv, ReportFormat::Tsv, &row, &mut String::new()).unwrap();
            let tsv = String::from_utf8(tsv).unwrap();
            assert!(tsv.starts_with(&format!("{shown}\t")), "{tsv}");
            let mut js = Vec::new();
            write_row(&mut js, ReportFormat::Jsonl, &row, &mut String::new()).unwrap();
            let v: serde_json::Value = serde_json::from_slice(&js).unwrap();
            assert_eq!(v["file"], shown);
            assert!(stop_line(&row).starts_with(&format!("{shown}:1:1: ")));
        }
        // JSONL keeps a bidi control a character (written `\u202e` by JSON), and doubles a
        // backslash as the TSV column does: `a\\xE9` is the name with a backslash.
        let row = row_of(b"a\\\xE9\xE2\x80\xAE.txt");
        let mut js = Vec::new();
        write_row(&mut js, ReportFormat::Jsonl, &row, &mut String::new()).unwrap();
        let text = String::from_utf8(js).unwrap();
        assert!(text.contains(r#""file":"a\\\\\\xE9\u202e.txt""#), "{text}");
    }

    #[test]
    fn one_line_is_singular() {
        let mut s = Summary::default();
        s.stats.lines = 1;
        assert!(s.text().starts_with("iribulk: 1 line, "), "{}", s.text());
        s.stats.lines = 2;
        assert!(s.text().starts_with("iribulk: 2 lines, "), "{}", s.text());
    }
}
