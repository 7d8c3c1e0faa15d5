//! Every host that UTS #46 ToASCII refuses gets a named reason (`host::uts46_reason`), on the
//! shared IDNA data: `../shared/datasets/idna_v2_hosts.txt` (URLs) and the source column of
//! `../shared/conformance/IdnaTestV2-unicode16.txt`. For the conformance rows the named rule
//! must also be one of the row's status codes (UTS #46 §4 `Pn`, §4.1 `Vn`, `U1`, §4.2 `An`,
//! RFC 5893 `Bn`, RFC 5892 `Cn`, `Xn`); the tallies are printed (`cargo test -- --nocapture`).

mod common;

use iribulk::error::IdnaReason;
use iribulk::host::uts46_reason::{diagnose, fault_offset, Uts46Failure, Uts46Rule};
use iribulk::host::{to_ascii, Idna};
use std::collections::{BTreeMap, BTreeSet};

/// The source cell of the conformance file: `\uXXXX` and `\x{X..}` escapes (header lines
/// 16–17); `None` for a cell holding an unpaired surrogate (not a Rust `str`).
fn unescape(cell: &str) -> Option<String> {
    let mut out = String::new();
    let mut rest = cell;
    while let Some(i) = rest.find('\\') {
        out.push_str(&rest[..i]);
        rest = &rest[i..];
        let (hex, len) = if let Some(r) = rest.strip_prefix("\\x{") {
            let end = r.find('}')?;
            (&r[..end], 3 + end + 1)
        } else if rest.starts_with("\\u") && rest.len() >= 6 {
            (&rest[2..6], 6)
        } else {
            out.push('\\');
            rest = &rest[1..];
            continue;
        };
        out.push(char::from_u32(u32::from_str_radix(hex, 16).ok()?)?);
        rest = &rest[len..];
    }
    out.push_str(rest);
    Some(out)
}

/// The status codes that agree with a named rule.
fn codes_for(rule: Uts46Rule) -> &'static [&'static str] {
    match rule {
        Uts46Rule::Disallowed(_) => &["V7", "P1"],
        Uts46Rule::Std3Ascii(_) => &["U1", "V7"],
        Uts46Rule::InvalidPunycode => &["P4", "X4_2", "A3"],
        Uts46Rule::NotNfc => &["V1"],
        Uts46Rule::HyphenThirdFourth => &["V2"],
        Uts46Rule::HyphenStartEnd => &["V3"],
        Uts46Rule::LeadingMark(_) => &["V6"],
        Uts46Rule::ContextJ(_) => &["C1", "C2"],
        Uts46Rule::Bidi(_) => &["B1", "B2", "B3", "B4", "B5", "B6"],
        Uts46Rule::EmptyLabel | Uts46Rule::LabelTooLong(_) => &["A4_2", "X4_2"],
        Uts46Rule::NameTooLong(_) => &["A4_1"],
        Uts46Rule::Unknown => &[],
    }
}

fn refused(host: &str) -> bool {
    let mut s = String::new();
    matches!(
        to_ascii(host, Idna::Uts46, &mut s),
        Err(IdnaReason::Uts46(_))
    )
}

/// Where [`fault_offset`] points in `host` for the failure `d`: inside the host, on a
/// character boundary; at the character a rule names when the host holds it as written; at a
/// label's start (the host's start or just after a character that maps to `.`) otherwise; and
/// nowhere only for a rule of the whole name.
fn assert_fault_offset(host: &str, d: &Uts46Failure) {
    let Some(at) = fault_offset(host, d) else {
        assert_eq!(d.label, None, "{host:?}: {d}");
        return;
    };
    assert!(
        at <= host.len() && host.is_char_boundary(at),
        "{host:?} {at}: {d}"
    );
    let named = d.rule.character();
    let label_start = at == 0
        || host[..at]
            .chars()
            .next_back()
            .is_some_and(|c| matches!(c, '.' | '\u{3002}' | '\u{FF0E}' | '\u{FF61}'));
    let at_named = named.is_some_and(|c| host[at..].starts_with(c));
    assert!(at_named || label_start, "{host:?} {at}: {d}");
}

/// The column of an `idna` error is the fault's (issue #10: a byte column in the input line),
/// in to-uri, check and normalize: the character a rule names as written, or the label a rule
/// names; the host's start where the host was written in `%HH` or for a rule of the whole
/// name.
#[test]
fn idna_errors_point_at_the_fault() {
    let cases: &[(&str, usize, &str)] = &[
        // (input, 1-based column, rule named)
        ("http://ab\u{202E}c.com/", 10, "U+202E"),
        ("http://ok.a\u{E000}b.de/", 12, "U+E000"),
        ("http://\u{FF21}\u{3002}b\u{202E}c/", 15, "U+202E"),
        ("http://a.b\u{200D}c.com/", 11, "U+200D"),
        ("http://\u{E9}.xn--a-ecp.ru/", 11, "label 2"),
        ("http://\u{E9}.-ab.de/", 11, "leading or trailing hyphen"),
        ("http://\u{E9}.a\u{A0}b.de/", 12, "U+00A0"),
        ("http://\u{5D0}.1\u{E9}/", 11, "rule 1 of the bidi rule"),
        ("http://a%E2%80%AEb.com/", 8, "U+202E"),
    ];
    let mut input = String::new();
    for (line, ..) in cases {
        input.push_str(line);
        input.push('\n');
    }
    for mode in ["to-uri", "check", "normalize"] {
        let out = common::run_stdin(
            &["-q", "--mode", mode, "--errors", "-", "--out", "/dev/null"],
            input.as_bytes(),
        );
        let report = String::from_utf8(out.stderr.clone()).unwrap_or_default()
            + &String::from_utf8(out.stdout).expect("UTF-8 report");
        let rows = common::report_rows(&report);
        for (k, (line, col, named)) in cases.iter().enumerate() {
            if mode == "to-uri" && line.contains('%') {
                // An all-ASCII host passes to-uri as it is (README "to-uri").
                continue;
            }
            let row = rows
                .iter()
                .find(|r| r.get(1) == Some(&(k + 1).to_string().as_str()))
                .unwrap_or_else(|| panic!("{mode}: no report for {line:?}: {report}"));
            assert_eq!(row[3], "idna", "{mode}: {line:?}: {row:?}");
            assert_eq!(row[2], col.to_string(), "{mode}: {line:?}: {row:?}");
            assert!(row[4].contains(named), "{mode}: {line:?}: {row:?}");
        }
    }
}

#[test]
fn every_refused_conformance_row_gets_a_reason() {
    let Some(shared) = common::shared_dir() else {
        return;
    };
    let text = std::fs::read_to_string(shared.join("conformance/IdnaTestV2-unicode16.txt"))
        .expect("IdnaTestV2-unicode16.txt");
    let mut tally: BTreeMap<&str, usize> = BTreeMap::new();
    let (mut n, mut agree, mut accepted) = (0, 0, 0);
    let mut disagree = Vec::new();
    let mut unknown = Vec::new();
    for (lineno, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("");
        let f: Vec<&str> = line.split(';').map(str::trim).collect();
        if f.len() < 5 || f[0].is_empty() {
            continue;
        }
        let src = if f[0] == "\"\"" {
            Some(String::new())
        } else {
            unescape(f[0])
        };
        let Some(src) = src else { continue };
        if !refused(&src) {
            // No false reason: a host ToASCII accepts breaks none of our rules (percent-free
            // and within the raw caps, so that `to_ascii` gave it to UTS #46 as it is).
            let mut s = String::new();
            if to_ascii(&src, Idna::Uts46, &mut s).is_ok() {
                accepted += 1;
                let d = diagnose(&src);
                assert_eq!(
                    d.rule,
                    Uts46Rule::Unknown,
                    "line {}: {src:?} passes but {d}",
                    lineno + 1
                );
            }
            continue;
        }
        n += 1;
        let d = diagnose(&src);
        assert_fault_offset(&src, &d);
        *tally.entry(d.rule.name()).or_default() += 1;
        if d.rule == Uts46Rule::Unknown {
            unknown.push((lineno + 1, src.clone()));
        }
        // toAsciiNStatus, blank = toUnicodeStatus.
        let status = if f[4].is_empty() { f[2] } else { f[4] };
        let codes: BTreeSet<&str> = status
            .trim_matches(['[', ']'])
            .split(',')
            .map(str::trim)
            .filter(|c| !c.is_empty())
            .collect();
        if codes_for(d.rule).iter().any(|c| codes.contains(c)) {
            agree += 1;
        } else {
            disagree.push(format!("line {}: {src:?} {d} vs {status}", lineno + 1));
        }
    }
    println!("IdnaTestV2 rows refused by ToASCII: {n}; reasons: {tally:?}");
    println!(
        "named rule among the row's status codes: {agree}/{n}; first others: {:#?}",
        &disagree[..disagree.len().min(10)]
    );
    println!("rows ToASCII accepts, with no rule named by diagnose: {accepted}");
    assert!(n > 2000, "only {n} refused rows: wrong file?");
    assert!(accepted > 500, "only {accepted} accepted rows");
    assert!(unknown.is_empty(), "no reason found for {unknown:?}");
    // The rule we name is one the file records for that row, on every row.
    assert!(disagree.is_empty(), "{agree}/{n} agree: {disagree:#?}");
}

#[test]
fn every_refused_dataset_host_gets_a_reason() {
    let Some(shared) = common::shared_dir() else {
        return;
    };
    let text = std::fs::read_to_string(shared.join("datasets/idna_v2_hosts.txt"))
        .expect("idna_v2_hosts.txt");
    let mut tally: BTreeMap<&str, usize> = BTreeMap::new();
    let (mut n, mut accepted) = (0, 0);
    for line in text.lines() {
        let c = iribulk::grammar::components::split(line.as_bytes());
        let Some(ar) = c.authority else { continue };
        let Ok(a) = iribulk::grammar::components::split_authority(line.as_bytes(), ar) else {
            continue;
        };
        let host = &line[a.host];
        let Some(host) = iribulk::host::decode_host_percent(host) else {
            continue;
        };
        if host.is_empty() {
            continue;
        }
        if !refused(&host) {
            // No false reason for a host that ToASCII accepts.
            accepted += 1;
            assert_eq!(diagnose(&host).rule, Uts46Rule::Unknown, "{host:?} passes");
            continue;
        }
        n += 1;
        let d = diagnose(&host);
        assert_ne!(d.rule, Uts46Rule::Unknown, "no reason for {host:?}");
        assert_fault_offset(&host, &d);
        *tally.entry(d.rule.name()).or_default() += 1;
    }
    // Today the file holds only hosts that ToASCII accepts (UTS #46 valid rows); a refused
    // one added later must get a reason.
    println!("idna_v2_hosts.txt: {accepted} accepted, {n} refused; reasons: {tally:?}");
    assert!(
        accepted + n > 400,
        "only {} hosts: wrong file?",
        accepted + n
    );
}
