//! `check` validates as `--strict` does (README "Modes and options"): every line that the
//! strict conversion (`iri_to_uri_with`, strict options, its host-integrity guard included)
//! refuses, `check` with the same host mode refuses too, with two exceptions README names:
//! `ambiguous-ipv4` is a warning in `check` (then that warning is there), and with `--host
//! idna2003` `check` judges hosts by IDNA2003 alone (issue #10), so `idna2003-differs` is
//! to-uri's. Where the refusal is the host mapping's `host-char-removed` (issue 16), `check`
//! gives the same code at the same byte. A QA sweep found `check` passing hosts with a character the mapping
//! deletes (`http://a\u{200B}b.com/`, `http://ü\u{AD}x.com/`), which `--strict` refuses.
//!
//! Lines: made hosts with every kind of deleted character (UTS #46 "ignored", Nameprep B.1),
//! IDNA2003 deviations and joiners, raw and percent-encoded, in special and other schemes;
//! every line of the shared data sets (`../shared/datasets`); seeded mutations of them that
//! insert those characters into the host.

mod common;

use iribulk::config::{HostMode, ToUriOptions};
use iribulk::convert::check::CheckOptions;

/// The host modes of `check` and `--strict`.
fn modes() -> [(&'static str, HostMode); 3] {
    [
        ("auto", HostMode::Auto),
        ("uts46", HostMode::Uts46),
        ("idna2003", HostMode::IDNA2003),
    ]
}

/// Characters a host mapping deletes or maps otherwise in IDNA2003 and UTS #46: soft hyphen,
/// combining grapheme joiner, Mongolian free variation selectors, zero-width space and
/// joiners, word joiner, a variation selector, BOM; sharp s, final sigma.
const TRICKY: &[&str] = &[
    "\u{AD}",
    "\u{34F}",
    "\u{180B}",
    "\u{200B}",
    "\u{200C}",
    "\u{200D}",
    "\u{2060}",
    "\u{FE00}",
    "\u{FEFF}",
    "ß",
    "ς",
    "%C2%AD",
    "%E2%80%8B",
];

fn made_lines() -> Vec<String> {
    let mut v = Vec::new();
    for scheme in ["http", "https", "ftp", "ws", "file", "foo"] {
        for t in TRICKY {
            for host in [
                format!("a{t}b.com"),
                format!("ü{t}x.com"),
                format!("{t}x.de"),
                format!("www.bücher{t}.de"),
                format!("user@pa{t}y.de:80"),
            ] {
                v.push(format!("{scheme}://{host}/p"));
            }
        }
    }
    v
}

/// `line` with `t` inserted into its host at a seeded place (the line itself if it has none).
fn mutated(line: &str, rng: &mut common::Rng) -> Option<String> {
    let h = iribulk::convert::integrity::host_of(line.as_bytes())?;
    let start = h.as_ptr() as usize - line.as_ptr() as usize;
    let host = &line[start..start + h.len()];
    let cuts: Vec<usize> = (0..=host.len())
        .filter(|&i| host.is_char_boundary(i))
        .collect();
    let at = start + rng.pick(&cuts);
    Some(format!(
        "{}{}{}",
        &line[..at],
        rng.pick(TRICKY),
        &line[at..]
    ))
}

/// Whether `check` refuses what `--strict` refuses on `line` under each host mode; the
/// mismatches as (mode, line, strict's error, check's answer); `counts` tallies the other
/// refusals and those of the mapping.
fn compare(line: &str, bad: &mut Vec<String>, counts: &mut [usize; 2]) {
    for (name, mode) in modes() {
        let strict = ToUriOptions::default().host(mode).strict(true);
        let Err(e) = iribulk::iri_to_uri_with(line, strict) else {
            continue;
        };
        let opts = CheckOptions {
            to_uri: ToUriOptions::default().host(mode),
            ..Default::default()
        };
        let got = iribulk::check_with(line, opts);
        if e.code() == "idna2003-differs" {
            continue;
        }
        let mapping = e.code() == "host-char-removed";
        counts[mapping as usize] += 1;
        let ok = match &got {
            // README: `ambiguous-ipv4` is an error in conversion and a warning in `check`
            // (the line is a valid IRI; browsers read another host): the warning is there.
            Ok(c) if e.code() == "ambiguous-ipv4" => c
                .first_warning
                .is_some_and(|w| w.code() == "ambiguous-ipv4"),
            Ok(_) => false,
            Err(g) if mapping => (g.code(), g.offset) == (e.code(), e.offset),
            Err(_) => true,
        };
        if !ok && bad.len() < 20 {
            bad.push(format!(
                "{name}: {line:?}: --strict {}@{}, check {:?}",
                e.code(),
                e.offset,
                got.map(|_| "valid").map_err(|g| (g.code(), g.offset))
            ));
        }
    }
}

#[test]
fn check_refuses_what_strict_refuses_on_made_hosts() {
    let mut bad = Vec::new();
    let mut counts = [0; 2];
    for line in made_lines() {
        compare(&line, &mut bad, &mut counts);
    }
    assert!(bad.is_empty(), "{bad:#?}");
    // The comparison is not vacuous: the mapping's refusals occur by the hundred.
    assert!(counts[1] > 300, "{counts:?}");
    // Spot checks, with the offsets of the strict conversion.
    let e = iribulk::check("http://a\u{200B}b.com/").unwrap_err();
    assert_eq!((e.code(), e.offset), ("host-char-removed", 8));
    let e = iribulk::check("http://\u{FC}\u{AD}x.com/").unwrap_err();
    assert_eq!((e.code(), e.offset), ("host-char-removed", 9));
    // A percent-encoded deleted character: check validates the decoded host (contract
    // item 2), at the host's start.
    let e = iribulk::check("http://a%C2%ADb.com/").unwrap_err();
    assert_eq!((e.code(), e.offset), ("host-char-removed", 7));
    let idna2003 = CheckOptions {
        to_uri: ToUriOptions::default().host(HostMode::IDNA2003),
        ..Default::default()
    };
    // With --host idna2003, check judges the host by IDNA2003 (issue #10): `faß.de` is
    // valid there, while Nameprep's deletions are still refused.
    assert!(iribulk::check_with("http://fa\u{DF}.de/", idna2003).is_ok());
    let e = iribulk::check_with("http://a\u{AD}b.de/", idna2003).unwrap_err();
    assert_eq!((e.code(), e.offset), ("host-char-removed", 8));
    // Not a special scheme: no mapping check (as in to-uri's guard).
    assert!(iribulk::check("foo://a\u{AD}b/").is_ok());
    assert!(iribulk::check("http://b\u{FC}cher.de/").is_ok());
}

#[test]
fn check_refuses_what_strict_refuses_on_the_data_sets() {
    let Some(shared) = common::shared_dir() else {
        return;
    };
    let mut bad = Vec::new();
    let mut counts = [0; 2];
    let mut rng = common::Rng(0x5EED_C4EC);
    let mut lines = 0;
    for f in common::dataset_files(&shared) {
        let data = std::fs::read(&f).unwrap();
        for (i, l) in data.split(|&b| b == b'\n').enumerate() {
            let Ok(l) = std::str::from_utf8(l) else {
                continue;
            };
            // Every line of the smaller sets, every 7th of the larger ones.
            if data.len() > 2_000_000 && i % 7 != 0 {
                continue;
            }
            lines += 1;
            compare(l, &mut bad, &mut counts);
            if let Some(m) = mutated(l, &mut rng) {
                compare(&m, &mut bad, &mut counts);
            }
        }
    }
    assert!(bad.is_empty(), "{bad:#?}");
    assert!(lines > 50_000 && counts[1] > 1000, "{lines} {counts:?}");
}
