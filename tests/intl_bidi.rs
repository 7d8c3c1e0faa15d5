//! Measurement on real localized names (`../shared/datasets/intl_cldr.txt`, 100,000 lines):
//! what the RFC 3987 §4.2 components of `convert::bidi` (contract item 13) and the RFC 5892
//! joiner contexts of `grammar::joiner` report (what `check --host idna2003` reports since
//! issue #10), next to the rule `check` had before (each path segment whole, the query whole:
//! kept here as the baseline). Run with `cargo test --test intl_bidi -- --nocapture` to see the tallies and three
//! examples of each kind still reported.

mod common;

use iribulk::convert::bidi::{self, BidiRule};
use iribulk::convert::check::{CheckOptions, Checker};
use iribulk::grammar::joiner;
use iribulk::Converter as _;
use iribulk::{ErrorKind, HostMode, ToUriOptions};
use std::collections::BTreeMap;

#[test]
fn intl_cldr_bidi_and_joiners() {
    let Some(shared) = common::shared_dir() else {
        return;
    };
    let path = shared.join("datasets/intl_cldr.txt");
    let Ok(data) = std::fs::read(&path) else {
        common::skip(&format!("{} not readable", path.display()));
        return;
    };
    let mut checker = Checker::new(CheckOptions {
        to_uri: ToUriOptions::default().host(HostMode::IDNA2003),
        uri_only: false,
    });
    let mut out = Vec::new();
    let (mut lines, mut reached) = (0usize, 0usize);
    let mut old: BTreeMap<&str, usize> = BTreeMap::new();
    let mut new: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    let (mut old_joiner, mut new_joiner) = (0usize, 0usize);
    let mut joiner_examples = Vec::new();
    let mut scratch = Vec::new();
    let mut offending: BTreeMap<(&str, char), usize> = BTreeMap::new();
    for line in data.split(|&b| b == b'\n') {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.is_empty() {
            continue;
        }
        lines += 1;
        out.clear();
        let verdict = checker.convert_or_copy_into(line, &mut out);
        // Only lines that reach the bidi step today: valid, or refused for bidi.
        let kind = match &verdict {
            Ok(_) => None,
            Err(e) if matches!(e.kind, ErrorKind::BidiMixed | ErrorKind::BidiBoundary) => {
                Some(e.kind.code())
            }
            Err(_) => continue,
        };
        reached += 1;
        let s = std::str::from_utf8(line).expect("passed the grammar check");
        let c = iribulk::grammar::components::split(line);
        if let Some(k) = old_rule(s, &c) {
            *old.entry(k).or_default() += 1;
        }
        let fast = bidi::check_line(s, &c, &mut scratch);
        assert_eq!(fast, bidi::check_line_slow(s), "twin disagrees on {s}");
        assert_eq!(
            kind,
            fast.err().map(|v| v.kind().code()),
            "check does not report what bidi::check_line finds on {s}"
        );
        if let Err(v) = fast {
            let name = match v.rule {
                BidiRule::Mixed => "bidi-mixed",
                BidiRule::Boundary => "bidi-boundary",
            };
            new.entry(name)
                .or_default()
                .push(format!("{s}  (byte {})", v.at));
            let ch = s[v.at..].chars().next().expect("a character at the offset");
            *offending.entry((name, ch)).or_default() += 1;
        }
        // Joiners: the rule of check.rs today (only after a virama) against RFC 5892 A.1/A.2.
        let old_bad = s.char_indices().any(|(i, c)| {
            matches!(c, '\u{200C}' | '\u{200D}')
                && !s[..i].chars().next_back().is_some_and(joiner::is_virama)
        });
        let new_bad = joiner::first_out_of_context(s);
        old_joiner += usize::from(old_bad);
        if let Some(i) = new_bad {
            new_joiner += 1;
            if joiner_examples.len() < 3 {
                joiner_examples.push(format!("{s}  (byte {i})"));
            }
        }
        assert!(old_bad || new_bad.is_none(), "A.1/A.2 only allow more: {s}");
    }
    println!(
        "intl_cldr.txt: {lines} lines, {reached} reach the bidi step of check --host idna2003"
    );
    println!("the old rule (whole query, no extension split): {old:?}");
    for (k, v) in &new {
        println!("RFC 3987 §4.2 components: {k}: {} lines; e.g.", v.len());
        for e in v.iter().take(3) {
            println!("    {e}");
        }
    }
    let mut by_char: Vec<_> = offending.into_iter().collect();
    by_char.sort_by_key(|e| std::cmp::Reverse(e.1));
    println!(
        "the character at the reported offset: {:?}",
        &by_char[..by_char.len().min(12)]
    );
    println!("joiner-context: today {old_joiner} lines, with RFC 5892 A.1/A.2 {new_joiner}; e.g.");
    for e in &joiner_examples {
        println!("    {e}");
    }
    let old_total: usize = old.values().sum();
    let new_total: usize = new.values().map(Vec::len).sum();
    assert!(lines >= 90_000, "only {lines} lines: wrong file?");
    assert!(
        old_total > 1000,
        "the old rule flags {old_total}: the baseline moved"
    );
    assert!(
        new_total * 4 < old_total,
        "the §4.2 components flag {new_total} lines of {old_total}"
    );
    assert!(new_joiner < old_joiner, "{new_joiner} >= {old_joiner}");
}

/// The rule `check` had before issue #10: userinfo, host labels, path segments split at `/`
/// only, the query whole, the fragment whole.
fn old_rule(s: &str, c: &iribulk::grammar::components::Components) -> Option<&'static str> {
    let line = s.as_bytes();
    let mut comps = Vec::new();
    let split = |r: std::ops::Range<usize>, sep: u8, v: &mut Vec<std::ops::Range<usize>>| {
        let mut start = r.start;
        for i in r.clone() {
            if line[i] == sep {
                v.push(start..i);
                start = i + 1;
            }
        }
        v.push(start..r.end);
    };
    if let Some(ar) = c.authority.clone() {
        if let Ok(a) = iribulk::grammar::components::split_authority(line, ar) {
            comps.extend(a.userinfo.clone());
            if line.get(a.host.start) != Some(&b'[') {
                split(a.host.clone(), b'.', &mut comps);
            }
        }
    }
    split(c.path.clone(), b'/', &mut comps);
    comps.extend(c.query.clone());
    comps.extend(c.fragment.clone());
    comps
        .into_iter()
        .find_map(|r| bidi::check_component(s, r).err())
        .map(|v| v.kind().code())
}
