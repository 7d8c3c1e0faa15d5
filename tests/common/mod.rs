//! Shared helpers of the integration tests: escapes of the data files, the location of
//! `../shared`, and option strings.
#![allow(dead_code)]

use iribulk::host::idna2003;
use iribulk::{HostMode, InvalidUtf8, ToUriOptions};
use std::path::PathBuf;

/// Unescapes `\\`, `\t`, `\n`, `\r`, `\xHH` (one raw byte) and `\u{H..}` (one scalar).
pub fn unescape(s: &str) -> Vec<u8> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' || i + 1 >= b.len() {
            out.push(b[i]);
            i += 1;
            continue;
        }
        match b[i + 1] {
            b'\\' => {
                out.push(b'\\');
                i += 2;
            }
            b't' => {
                out.push(b'\t');
                i += 2;
            }
            b'n' => {
                out.push(b'\n');
                i += 2;
            }
            b'r' => {
                out.push(b'\r');
                i += 2;
            }
            b'x' => {
                let h = u8::from_str_radix(&s[i + 2..i + 4], 16).expect("\\xHH");
                out.push(h);
                i += 4;
            }
            b'u' => {
                let end = s[i..].find('}').expect("\\u{..}") + i;
                let cp = u32::from_str_radix(&s[i + 3..end], 16).expect("hex scalar");
                let c = char::from_u32(cp).expect("a scalar value");
                let mut buf = [0u8; 4];
                out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                i = end + 1;
            }
            _ => {
                out.push(b'\\');
                i += 1;
            }
        }
    }
    out
}

/// `../shared` beside the project, or None with a printed reason. Under `CI=true` a missing
/// folder is a failure, never a silent skip.
pub fn shared_dir() -> Option<PathBuf> {
    let p = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared"));
    if p.is_dir() {
        return Some(p);
    }
    let msg = format!(
        "SKIPPED: {} not found (the shared specs, vectors and datasets)",
        p.display()
    );
    if std::env::var("CI").as_deref() == Ok("true") {
        panic!("{msg}; CI=true requires it");
    }
    eprintln!("{msg}");
    None
}

/// Parses an options column: `-` or comma-separated keys.
pub fn parse_options(s: &str) -> ToUriOptions {
    let mut o = ToUriOptions::default();
    if s == "-" {
        return o;
    }
    for kv in s.split(',') {
        o = match kv {
            "host=auto" => o.host(HostMode::Auto),
            "host=uts46" => o.host(HostMode::Uts46),
            "host=idna2003" => o.host(HostMode::Idna2003),
            "host=percent" => o.host(HostMode::Percent),
            "strict" => o.strict(true),
            "leiri" => o.leiri(true),
            "utf8=percent" => o.invalid_utf8(InvalidUtf8::Percent),
            "fallback" => o.host_fallback_percent(true),
            "no-std3" => o.idna2003_flags(idna2003::Flags {
                use_std3_ascii_rules: false,
                ..o.idna2003_flags
            }),
            "no-unassigned" => o.idna2003_flags(idna2003::Flags {
                allow_unassigned: false,
                ..o.idna2003_flags
            }),
            other => panic!("unknown option {other}"),
        };
    }
    o
}

/// Reads a TSV data file: skips `#` comments and the header; yields the columns of each row.
pub fn read_tsv(path: &std::path::Path) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .skip(1)
        .filter(|l| !l.is_empty())
        .map(|l| l.split('\t').map(str::to_string).collect())
        .collect()
}
