//! Reference resolution (RFC 3986 §5.2 on IRIs, RFC 3987 §6.5): the §5.4 examples and §5.2.4
//! traces of ../shared/conformance/rfc3986_examples.tsv (one labelled check per row), a naive
//! twin of remove_dot_segments that prints the RFC's step traces, a differential test against
//! the `iri-string` crate, and the Common Crawl triple of ../shared/datasets with every
//! difference classified.

mod common;
use common::*;
use iribulk::grammar::resolve::{remove_dot_segments, resolve_into};
use iribulk::ErrorKind;
use proptest::prelude::*;
use std::collections::BTreeMap;

fn resolve(base: &str, r: &str) -> Result<String, String> {
    let mut out = Vec::new();
    resolve_into(base.as_bytes(), r.as_bytes(), &mut out)
        .map(|()| String::from_utf8(out).expect("UTF-8 in, UTF-8 out"))
        .map_err(|e| e.kind.code().to_string())
}

fn rds(p: &str) -> String {
    let mut out = Vec::new();
    remove_dot_segments(p.as_bytes(), &mut out);
    String::from_utf8(out).unwrap()
}

// ---------------------------------------------------------------------------------------------
// The naive twin: RFC 3986 §5.2.4 word for word, on two string buffers, recording each step.

/// One line of a §5.2.4 trace: the step (`"1"`, `"2A"` … `"2E"`), the output and input buffers.
type Trace = Vec<(String, String, String)>;

fn naive_remove_dot_segments(path: &str) -> (String, Trace) {
    // 1. The input buffer is initialized with the now-appended path components and the output
    //    buffer is initialized to the empty string.
    let mut input = path.to_string();
    let mut output = String::new();
    let mut trace = vec![("1".to_string(), output.clone(), input.clone())];
    // 2. While the input buffer is not empty, loop as follows:
    while !input.is_empty() {
        let step;
        if input.starts_with("../") || input.starts_with("./") {
            // A. If the input buffer begins with a prefix of "../" or "./", then remove that
            //    prefix from the input buffer; otherwise,
            let k = if input.starts_with("../") { 3 } else { 2 };
            input.replace_range(..k, "");
            step = "2A";
        } else if input.starts_with("/./") || input == "/." {
            // B. if the input buffer begins with a prefix of "/./" or "/.", where "." is a
            //    complete path segment, then replace that prefix with "/" in the input buffer;
            input.replace_range(..2, "");
            if input.is_empty() {
                input.push('/');
            }
            step = "2B";
        } else if input.starts_with("/../") || input == "/.." {
            // C. if the input buffer begins with a prefix of "/../" or "/..", where ".." is a
            //    complete path segment, then replace that prefix with "/" in the input buffer
            //    and remove the last segment and its preceding "/" (if any) from the output
            //    buffer;
            input.replace_range(..3, "");
            if input.is_empty() {
                input.push('/');
            }
            let cut = output.rfind('/').unwrap_or(0);
            output.truncate(cut);
            step = "2C";
        } else if input == "." || input == ".." {
            // D. if the input buffer consists only of "." or "..", then remove that from the
            //    input buffer;
            input.clear();
            step = "2D";
        } else {
            // E. move the first path segment in the input buffer to the end of the output
            //    buffer, including the initial "/" character (if any) and any subsequent
            //    characters up to, but not including, the next "/" character or the end of
            //    the input buffer.
            let from = usize::from(input.starts_with('/'));
            let end = input[from..].find('/').map_or(input.len(), |p| from + p);
            output.push_str(&input[..end]);
            input.replace_range(..end, "");
            step = "2E";
        }
        trace.push((step.to_string(), output.clone(), input.clone()));
    }
    // 3. Finally, the output buffer is returned as the result of remove_dot_segments.
    (output, trace)
}

/// The traces printed in RFC 3986 §5.2.4, transcribed. The RFC prints only the lines where the
/// buffers change visibly and labels the B step of the first example "2B" with the input
/// "/../../g" (i.e. after the prefix "/./" became "/").
#[test]
fn remove_dot_segments_traces_of_rfc3986_5_2_4() {
    let t = |rows: &[(&str, &str, &str)]| -> Trace {
        rows.iter()
            .map(|(s, o, i)| (s.to_string(), o.to_string(), i.to_string()))
            .collect()
    };
    let first = t(&[
        ("1", "", "/a/b/c/./../../g"),
        ("2E", "/a", "/b/c/./../../g"),
        ("2E", "/a/b", "/c/./../../g"),
        ("2E", "/a/b/c", "/./../../g"),
        ("2B", "/a/b/c", "/../../g"),
        ("2C", "/a/b", "/../g"),
        ("2C", "/a", "/g"),
        ("2E", "/a/g", ""),
    ]);
    let second = t(&[
        ("1", "", "mid/content=5/../6"),
        ("2E", "mid", "/content=5/../6"),
        ("2E", "mid/content=5", "/../6"),
        ("2C", "mid", "/6"),
        ("2E", "mid/6", ""),
    ]);
    for (path, want_trace, want) in [
        ("/a/b/c/./../../g", first, "/a/g"),
        ("mid/content=5/../6", second, "mid/6"),
    ] {
        let (out, trace) = naive_remove_dot_segments(path);
        assert_eq!(trace, want_trace, "trace of {path}");
        assert_eq!(out, want);
        assert_eq!(rds(path), want, "the in-place implementation agrees");
    }
}

/// Path atoms for the twin test: every shape of dot segment, empty segments, look-alikes.
const PATH_ATOMS: &[&str] = &[
    "/", "/", "/", ".", "..", "./", "../", "/.", "/..", "a", "b", "é", "...", ".a", "a.", "%2E",
    "日本", ";p", "=", "//",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    /// The in-place `remove_dot_segments` (with its no-dot fast exit) equals the naive twin on
    /// random paths.
    #[test]
    fn remove_dot_segments_equals_naive_twin(
        parts in prop::collection::vec(prop::sample::select(PATH_ATOMS), 0..12),
        prefix in "[a-z]{0,3}",
    ) {
        let path = parts.concat();
        let mut out = prefix.as_bytes().to_vec();
        remove_dot_segments(path.as_bytes(), &mut out);
        let want = format!("{prefix}{}", naive_remove_dot_segments(&path).0);
        prop_assert_eq!(String::from_utf8(out).unwrap(), want);
    }
}

// ---------------------------------------------------------------------------------------------
// RFC 3986 §5.4 and §5.2.4 rows of the shared conformance file.

/// Rows of the shared file whose `expected` column shows RFC 3986's strict result where
/// iribulk, for the special schemes of browsers, gives §5.2.2's non-strict alternative
/// (issue 16, contract item 17: a browser reads `http:g` against an `http` base as the path
/// `g` on the base's host). Each: (row id, what iribulk gives).
const NON_STRICT_OVERRIDES: &[(&str, &str)] = &[("RFC3986-5.4.2-42", "http://a/b/c/g")];

#[test]
fn rfc3986_examples_resolution_and_dot_segments() {
    let Some(shared) = shared_dir() else { return };
    let rows = read_tsv(&shared.join("conformance/rfc3986_examples.tsv"));
    let mut failures = Vec::new();
    let (mut normal, mut abnormal, mut dots) = (0, 0, 0);
    for r in &rows {
        let [id, _src, op, base, input, expected, _notes] = &r[..] else {
            panic!("row {r:?} has {} columns", r.len());
        };
        let (base, input, mut expected) = (
            String::from_utf8(unescape(base)).unwrap(),
            String::from_utf8(unescape(input)).unwrap(),
            String::from_utf8(unescape(expected)).unwrap(),
        );
        if let Some(&(_, o)) = NON_STRICT_OVERRIDES.iter().find(|(i, _)| i == id) {
            expected = o.to_string();
        }
        let got = match op.as_str() {
            "resolve" => {
                if id.contains("5.4.1") {
                    normal += 1;
                } else {
                    abnormal += 1;
                }
                resolve(&base, &input).unwrap_or_else(|e| format!("ERROR:{e}"))
            }
            "remove_dot_segments" => {
                dots += 1;
                let (naive, _) = naive_remove_dot_segments(&input);
                assert_eq!(naive, expected, "{id}: the naive twin");
                rds(&input)
            }
            _ => continue, // §6.2 rows: tests/normalize.rs
        };
        if got != expected {
            failures.push(format!(
                "{id}: {base} + {input}: got {got}, want {expected}"
            ));
        } else {
            println!("ok {id}: {input} -> {got}");
        }
    }
    // §5.4.1 has 23 normal examples, §5.4.2 has 19 abnormal ones, §5.2.4 two traces.
    assert_eq!((normal, abnormal, dots), (23, 19, 2), "every row was read");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// RFC 3986 §5.2.2's non-strict branch for the special schemes only (issue 16).
#[test]
fn non_strict_for_special_schemes_only() {
    let b = "http://a/b/c/d;p?q";
    assert_eq!(resolve(b, "http:g").unwrap(), "http://a/b/c/g");
    assert_eq!(resolve(b, "HTTP:/evil.com").unwrap(), "http://a/evil.com");
    assert_eq!(resolve(b, "http://x/y").unwrap(), "http://x/y");
    // Another scheme than the base's stays absolute (strict).
    assert_eq!(resolve(b, "https:g").unwrap(), "https:g");
    assert_eq!(resolve("ws://a/b", "ws:c").unwrap(), "ws://a/c");
    assert_eq!(resolve("file:///d/p", "file:q").unwrap(), "file:///d/q");
    // Non-special schemes stay strict.
    assert_eq!(resolve("foo://a/b/c", "foo:g").unwrap(), "foo:g");
}

#[test]
fn errors_and_iris() {
    assert_eq!(resolve("no-scheme/x", "g").unwrap_err(), "bad-scheme");
    let mut out = Vec::new();
    let e = resolve_into(b"//host/x", b"g", &mut out).unwrap_err();
    assert_eq!((e.kind, e.offset), (ErrorKind::BadScheme, 0));
    assert!(out.is_empty());
    // RFC 3987 §6.5: non-ASCII characters behave like unreserved characters.
    assert_eq!(
        resolve("http://例え.テスト/дом/ü?ä#ö", "../ß/./ø?þ#ð").unwrap(),
        "http://例え.テスト/ß/ø?þ#ð"
    );
    // A `%2E` segment is a dot segment (module docs, step 4: §2.3, §6.2.2.2, as browsers
    // read it); RFC 3986 §5.2.4 alone sees literal dots only, and then a `..` after an
    // encoded one removed it instead of the segment before it (found with a QA sweep).
    assert_eq!(
        resolve("http://h/a/b", "%2E%2E/c").unwrap(),
        "http://h/c",
        "%2E%2E is a dot segment"
    );
    assert_eq!(
        resolve("http://a/b/%2E%2E/c", "../x").unwrap(),
        "http://a/x"
    );
    assert_eq!(
        resolve("http://a/b/c", "/a/%2e%2E/../x").unwrap(),
        "http://a/x"
    );
    assert_eq!(resolve("http://a/b/c", "x/.%2E/y").unwrap(), "http://a/b/y");
    assert_eq!(
        resolve("http://a/b/c", "x/%2E%2E%2E/y").unwrap(),
        "http://a/b/x/%2E%2E%2E/y"
    );
    // A base with a fragment: the fragment is ignored (§5.1).
    assert_eq!(resolve("http://h/a#f", "").unwrap(), "http://h/a");
    // No authority and a path starting with "//": written "/.//" (module docs).
    assert_eq!(resolve("s:", ".///x").unwrap(), "s:/.//x");
    assert_eq!(resolve("s:/a/b", "..//x").unwrap(), "s:/.//x");
    assert_eq!(resolve("s://h/a/b", "..//x").unwrap(), "s://h//x");
}

// ---------------------------------------------------------------------------------------------
// Differential test against the `iri-string` crate (RFC 3986 §5.2 resolution with the same
// WHATWG serialization for "no authority, path starting with //").

fn iri_string_resolve(base: &str, r: &str) -> Option<String> {
    use iri_string::format::ToDedicatedString;
    use iri_string::types::{IriAbsoluteStr, IriReferenceStr};
    let base = base.split('#').next().unwrap();
    let base = IriAbsoluteStr::new(base).ok()?;
    let r = IriReferenceStr::new(r).ok()?;
    Some(r.resolve_against(base).to_dedicated_string().to_string())
}

const REF_ATOMS: &[&str] = &[
    "g", "é", "/", "/", "//", "..", ".", "./", "../", "?", "?q", "#", "#f", "h:", ";x", "=", "%41",
    "日本", "@", ":", "a",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn agrees_with_iri_string(
        base in prop::sample::select(&[
            "http://a/b/c/d;p?q", "http://a", "http://a/", "s:", "s:a/b", "s:/a/b", "s://h",
            "http://ü.example/ä/ö?ß", "foo://u@h:1/a/./b/../c", "s:?q", "s:a:b/c",
        ][..]),
        parts in prop::collection::vec(prop::sample::select(REF_ATOMS), 0..8),
    ) {
        let r = parts.concat();
        if let Some(want) = iri_string_resolve(base, &r) {
            prop_assert_eq!(resolve(base, &r).unwrap(), want, "base {} ref {}", base, r);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The Common Crawl triple: resolve line i of cc10k_relative.txt against line i of
// cc10k_bases.txt and compare with line i of cc10k_resolved.txt.
//
// cc10k_resolved.txt was made by Python's `urllib.parse.urljoin` (3.11): it reproduces all
// 10,000 lines. urljoin is not RFC 3986 strict; each of its departures below is a class, with
// the reason, an emulation applied to *our* RFC 3986 result, and the number of lines. A
// differing line must be explained by its classes (our result, with their emulations applied,
// must equal the expected line exactly), and the counts must be exactly these.

/// The classes of differences, with the reason (all are Python `urljoin` behaviours).
const CLASSES: &[(&str, &str)] = &[
    (
        "empty-fragment",
        "urljoin drops an empty fragment: `#` resolves to the base without `#` (urlunsplit \
         writes '#' only for a non-empty fragment); RFC 3986 §5.2.2 keeps T.fragment = \"\" and \
         §5.3 writes \"#\" (§6.2.3: a '#' with an empty fragment is significant)",
    ),
    (
        "empty-query",
        "urljoin drops an empty query: `x.eot?#iefix` loses its '?' (urlunsplit writes '?' only \
         for a non-empty query); RFC 3986 keeps the defined, empty query (§6.2.3: \
         `http://example.com/?` is not `http://example.com/`)",
    ),
    (
        "empty-params",
        "urljoin parses with urlparse (RFC 1808 `;params` of the last segment) and drops empty \
         params: `javascript;` loses its ';'; RFC 3986 has no params, ';' is path data",
    ),
    (
        "empty-segments",
        "urljoin removes empty segments from the middle of a merged path (`a//b` -> `a/b`, \
         `https//x` -> `https/x`) before removing dot segments; RFC 3986 §5.2.3/§5.2.4 keep \
         empty segments",
    ),
    (
        "network-path-dots",
        "urljoin returns a network-path reference (`//host/path`) with the base scheme but \
         without removing its dot segments; RFC 3986 §5.2.2 applies remove_dot_segments to \
         R.path",
    ),
];

/// The expected number of lines in each class (a line can be in several).
const EXPECTED_COUNTS: &[(&str, usize)] = &[
    ("empty-fragment", 345),
    ("empty-query", 31),
    ("empty-params", 5),
    ("empty-segments", 11),
    ("network-path-dots", 1),
];
const EXPECTED_MATCHED: usize = 9607;

/// Applies the urljoin behaviours of [`CLASSES`] to our RFC 3986 target; returns the result
/// and the classes that changed it.
fn emulate_urljoin(base: &str, r: &str, ours: &str) -> (String, Vec<&'static str>) {
    let mut classes = Vec::new();
    let rc = iribulk::grammar::components::split(r.as_bytes());
    let relative_path = rc.scheme.is_none() && rc.authority.is_none() && !rc.path.is_empty();
    let mut t = ours.to_string();
    // network-path-dots: the reference as it is, after the base scheme.
    if rc.scheme.is_none() && rc.authority.is_some() {
        let scheme = &base[..base.find(':').unwrap()];
        let raw = format!("{scheme}:{r}");
        if raw != t {
            t = raw;
            classes.push("network-path-dots");
        }
    }
    let c = iribulk::grammar::components::split(t.as_bytes());
    let (path, query, fragment) = (
        t[c.path.clone()].to_string(),
        c.query.clone().map(|q| t[q].to_string()),
        c.fragment.clone().map(|f| t[f].to_string()),
    );
    let head = t[..c.path.start].to_string();
    let mut path = path;
    // empty-segments: only in merged paths (relative-path references).
    if relative_path && path.contains("//") {
        let lead = path.starts_with('/');
        let mut p = path.trim_start_matches('/').to_string();
        while p.contains("//") {
            p = p.replace("//", "/");
        }
        path = if lead { format!("/{p}") } else { p };
        classes.push("empty-segments");
    }
    // empty-params: the last segment's first ';' ends the path.
    let last = path.rfind('/').map_or(0, |p| p + 1);
    if path.ends_with(';') && path[last..].find(';') == Some(path.len() - last - 1) {
        path.pop();
        classes.push("empty-params");
    }
    let mut out = head + &path;
    match query {
        Some(q) if q.is_empty() => classes.push("empty-query"),
        Some(q) => out += &format!("?{q}"),
        None => {}
    }
    match fragment {
        Some(f) if f.is_empty() => classes.push("empty-fragment"),
        Some(f) => out += &format!("#{f}"),
        None => {}
    }
    (out, classes)
}

fn lines(v: &[u8]) -> Vec<&str> {
    let text = std::str::from_utf8(v).expect("the datasets are UTF-8");
    text.strip_suffix('\n')
        .unwrap_or(text)
        .split('\n')
        .collect()
}

#[test]
fn cc10k_triple_with_every_difference_classified() {
    let Some(shared) = shared_dir() else { return };
    let read = |f: &str| std::fs::read(shared.join("datasets").join(f)).expect(f);
    let (b, r, e) = (
        read("cc10k_bases.txt"),
        read("cc10k_relative.txt"),
        read("cc10k_resolved.txt"),
    );
    let (bases, refs, expected) = (lines(&b), lines(&r), lines(&e));
    assert_eq!(
        (bases.len(), refs.len(), expected.len()),
        (10_000, 10_000, 10_000)
    );

    let mut matched = 0;
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    let mut combos: BTreeMap<String, usize> = BTreeMap::new();
    let mut unexplained = Vec::new();
    let mut iri_string_disagrees = Vec::new();
    let mut iri_string_checked = 0;
    let mut out = Vec::new();
    for i in 0..bases.len() {
        out.clear();
        if let Err(err) = resolve_into(bases[i].as_bytes(), refs[i].as_bytes(), &mut out) {
            unexplained.push(format!("line {}: error {err}", i + 1));
            continue;
        }
        let ours = std::str::from_utf8(&out).unwrap();
        // Cross-check: the iri-string crate agrees with us wherever it accepts both inputs.
        if let Some(theirs) = iri_string_resolve(bases[i], refs[i]) {
            iri_string_checked += 1;
            if theirs != ours {
                iri_string_disagrees.push(format!("line {}: {theirs} vs {ours}", i + 1));
            }
        }
        if ours == expected[i] {
            matched += 1;
            continue;
        }
        let (emulated, classes) = emulate_urljoin(bases[i], refs[i], ours);
        if emulated != expected[i] || classes.is_empty() {
            unexplained.push(format!(
                "line {}: base {} ref {}: ours {ours}, expected {}, emulated {emulated}",
                i + 1,
                bases[i],
                refs[i],
                expected[i]
            ));
            continue;
        }
        for c in &classes {
            *counts.entry(c).or_default() += 1;
        }
        *combos.entry(classes.join("+")).or_default() += 1;
    }

    println!("cc10k: {matched} of 10000 lines match cc10k_resolved.txt exactly");
    println!(
        "  iri-string accepted {iri_string_checked} line pairs; it disagrees on {}",
        iri_string_disagrees.len()
    );
    for (name, reason) in CLASSES {
        println!(
            "  differing, class {name}: {} lines — {reason}",
            counts.get(name).copied().unwrap_or(0)
        );
    }
    for (combo, n) in &combos {
        println!("  lines by combination {combo}: {n}");
    }
    assert!(
        unexplained.is_empty(),
        "{} unexplained differences:\n{}",
        unexplained.len(),
        unexplained.join("\n")
    );
    assert!(
        iri_string_disagrees.is_empty(),
        "iri-string disagrees on {} lines:\n{}",
        iri_string_disagrees.len(),
        iri_string_disagrees.join("\n")
    );
    for (name, _) in CLASSES {
        assert!(
            EXPECTED_COUNTS.iter().any(|(n, _)| n == name),
            "class {name} has an expected count"
        );
    }
    let got: Vec<(&str, usize)> = EXPECTED_COUNTS
        .iter()
        .map(|(n, _)| (*n, counts.get(n).copied().unwrap_or(0)))
        .collect();
    assert_eq!(got, EXPECTED_COUNTS, "lines per class");
    assert_eq!(matched, EXPECTED_MATCHED, "lines that match exactly");
}
