//! Normalization (RFC 3987 §5.3, RFC 3986 §6.2): the examples transcribed in
//! tests/data/normalize_examples.tsv, the §6.2 rows of ../shared/conformance, the equivalences
//! of §5.3.2 and §5.3.3 with their "never loosen" counterparts, and the properties: every rung
//! alone and the ladder are idempotent; the ladder's output is stable under to-uri then to-iri,
//! except in the two documented cases (src/convert/normalize.rs), which are checked to be
//! exactly those.

mod common;
use common::*;
use iribulk::convert::normalize::{Idn, Level, NormalizeOptions, Normalizer, Rungs};
use iribulk::convert::to_iri::{ToIri, ToIriOptions};
use iribulk::host::{idna2003, Idna};
use iribulk::Converter as _;
use iribulk::{ToUri, ToUriOptions};
use proptest::prelude::*;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

fn parse_rungs(s: &str) -> NormalizeOptions {
    let mut o = NormalizeOptions {
        rungs: Rungs::default(),
        ..NormalizeOptions::default()
    };
    for t in s.split(',').filter(|t| *t != "-") {
        let r = &mut o.rungs;
        match t {
            "level=string" => *r = Rungs::level(Level::String),
            "level=syntax" => *r = Rungs::level(Level::Syntax),
            "level=scheme" => *r = Rungs::level(Level::Scheme),
            "case" => r.case = true,
            "percent" => r.percent = true,
            "nfc" => r.nfc = true,
            "nfkc" => r.nfkc = true,
            "path" => r.path = true,
            "scheme" => r.scheme = true,
            "idn=ascii" => r.idn = Some(Idn::Ascii),
            "idn=unicode" => r.idn = Some(Idn::Unicode),
            "as_uri" => o.as_uri = true,
            "idna=2003" => o.idna = Idna::Idna2003(idna2003::Flags::CONVERT),
            other => panic!("unknown rung {other}"),
        }
    }
    o
}

fn norm_bytes(o: NormalizeOptions, s: &[u8]) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    Normalizer::new(o)
        .convert_or_copy_into(s, &mut out)
        .map(|_| out)
        .map_err(|e| e.kind.code().to_string())
}

fn norm(o: NormalizeOptions, s: &str) -> String {
    String::from_utf8(norm_bytes(o, s.as_bytes()).unwrap_or_else(|e| panic!("{s}: {e}"))).unwrap()
}

fn level(l: Level) -> NormalizeOptions {
    NormalizeOptions {
        rungs: Rungs::level(l),
        ..NormalizeOptions::default()
    }
}

fn as_uri(mut o: NormalizeOptions) -> NormalizeOptions {
    o.as_uri = true;
    o
}

#[test]
fn examples_from_the_specs() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/normalize_examples.tsv");
    let rows = read_tsv(&path);
    assert!(rows.len() >= 60, "the data file has its rows");
    let mut failures = Vec::new();
    for r in &rows {
        let [id, _src, rungs, input, expected] = &r[..] else {
            panic!("row {r:?} has {} columns", r.len());
        };
        let o = parse_rungs(rungs);
        let got = norm_bytes(o, &unescape(input));
        let want = String::from_utf8(unescape(expected)).unwrap();
        let ok = match (&got, want.split_once(':')) {
            (Ok(v), Some(("OK", w))) => v == w.as_bytes(),
            (Ok(v), Some(("NOT", w))) => v != w.as_bytes(),
            (Err(c), Some(("ERROR", w))) => c == w,
            _ => false,
        };
        if !ok {
            let got = match got {
                Ok(v) => format!("OK:{}", String::from_utf8_lossy(&v)),
                Err(c) => format!("ERROR:{c}"),
            };
            failures.push(format!("{id}: got {got}, want {want}"));
        }
        // Every row is idempotent.
        if let Ok(v) = norm_bytes(o, &unescape(input)) {
            assert_eq!(norm_bytes(o, &v), Ok(v.clone()), "{id}: idempotent");
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The RFC 3986 §6.2 rows of the shared conformance file, one labelled check each. The
/// operation column says which comparison: `normalize-equivalent` (syntax-based),
/// `normalize-equivalent(scheme-based,http)`, `not-equivalent`. The one scheme-specific row
/// for `mailto` is listed with its reason: its note asks a generic normalizer to leave the path
/// alone, which is checked instead.
#[test]
fn rfc3986_section_6_2_rows() {
    let Some(shared) = shared_dir() else { return };
    let rows = read_tsv(&shared.join("conformance/rfc3986_examples.tsv"));
    let scheme_specific: &[(&str, &str)] = &[(
        "RFC3986-6.2.3-06",
        "mailto's domain case rule (RFC 6068) is scheme-specific; the generic normalizer must \
         leave the path alone (the row's note), so the input must come back unchanged",
    )];
    let mut failures = Vec::new();
    let mut checked = 0;
    for r in &rows {
        let [id, _src, op, _base, input, expected, _notes] = &r[..] else {
            panic!("row {r:?} has {} columns", r.len());
        };
        let (input, expected) = (
            String::from_utf8(unescape(input)).unwrap(),
            String::from_utf8(unescape(expected)).unwrap(),
        );
        let ok = if let Some((_, why)) = scheme_specific.iter().find(|(i, _)| i == id) {
            println!("{id}: {why}");
            norm(level(Level::Scheme), &input) == input
        } else {
            match op.as_str() {
                "normalize-equivalent" => norm(level(Level::Syntax), &input) == expected,
                "normalize-equivalent(scheme-based,http)" => {
                    // Equivalent at the scheme level, not at the syntax level (the row's note).
                    norm(level(Level::Scheme), &input) == expected
                        && norm(level(Level::Scheme), &expected) == expected
                        && norm(level(Level::Syntax), &input) != expected
                }
                "not-equivalent" => {
                    let all = [Level::String, Level::Syntax, Level::Scheme];
                    all.iter()
                        .all(|&l| norm(level(l), &input) != norm(level(l), &expected))
                }
                _ => continue,
            }
        };
        checked += 1;
        if ok {
            println!("ok {id}: {input} ~ {expected}");
        } else {
            failures.push(format!("{id} ({op}): {input} vs {expected}"));
        }
    }
    assert_eq!(checked, 10, "every §6.2 row was checked");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn equivalences_of_rfc3987_5_3() {
    // §5.3.2: the pair is equivalent at the syntax level, compared as URIs (§5.3.2.3:
    // "converting both IRIs to URIs") and as IRIs (the IRI form is to-iri of that URI).
    let a = "example://a/b/c/%7Bfoo%7D/rosé";
    let b = "eXAMPLE://a/./b/../b/%63/%7bfoo%7d/ros%C3%A9";
    let syn = level(Level::Syntax);
    assert_eq!(norm(as_uri(syn), a), norm(as_uri(syn), b));
    assert_eq!(norm(as_uri(syn), a), "example://a/b/c/%7Bfoo%7D/ros%C3%A9");
    assert_eq!(norm(syn, a), norm(syn, b), "as IRIs too");
    assert_eq!(norm(syn, a), "example://a/b/c/%7Bfoo%7D/rosé");
    assert_ne!(norm(level(Level::String), a), norm(level(Level::String), b));

    // §5.3.3: the four http IRIs, equivalent at the scheme level only.
    let four = [
        "http://example.com",
        "http://example.com/",
        "http://example.com:/",
        "http://example.com:80/",
    ];
    for x in four {
        assert_eq!(norm(level(Level::Scheme), x), "http://example.com/", "{x}");
    }
    let syntax_forms: std::collections::BTreeSet<String> =
        four.iter().map(|x| norm(syn, x)).collect();
    assert_eq!(syntax_forms.len(), 4, "not equivalent at the syntax level");

    // §5.3.3: IDN equivalence, both directions, both IDNAs.
    for idna in [Idna::Uts46, Idna::Idna2003(idna2003::Flags::CONVERT)] {
        for (idn, want) in [
            (Idn::Ascii, "http://xn--rsum-bpad.example.org/"),
            (Idn::Unicode, "http://résumé.example.org/"),
        ] {
            let o = NormalizeOptions {
                rungs: Rungs {
                    idn: Some(idn),
                    ..Rungs::level(Level::Scheme)
                },
                as_uri: false,
                idna,
            };
            for x in [
                "http://résumé.example.org",
                "http://xn--rsum-bpad.example.org",
                "http://XN--RSUM-BPAD.example.org/",
                "HTTP://R%C3%A9sum%C3%A9.Example.Org:80",
            ] {
                assert_eq!(norm(o, x), want, "{x} with {idn:?}, {idna:?}");
            }
        }
    }
}

#[test]
fn never_loosen() {
    let all = [Level::String, Level::Syntax, Level::Scheme];
    let differ = |a: &str, b: &str| {
        for l in all {
            for o in [level(l), as_uri(level(l))] {
                assert_ne!(norm(o, a), norm(o, b), "{a} vs {b} at {l:?}");
            }
        }
    };
    differ("http://example.com/a%2Fb", "http://example.com/a/b"); // reserved never decoded
    differ("http://example.com/?", "http://example.com/"); // §5.3.3
    differ("http://example.com/#", "http://example.com/"); // §5.3.3
    differ("http://example.com/#F", "http://example.com/#f"); // fragment case
    differ("http://example.com/P", "http://example.com/p"); // path case
    differ("http://example.com/?Q", "http://example.com/?q"); // query case
    differ("http://U@example.com/", "http://u@example.com/"); // userinfo case
    differ("http://example.com/data", "http://example.com/data/"); // §5.3.4 only
    differ("http://example.com/%2541", "http://example.com/A"); // %25 stays
    differ(
        "http://example.com/ros%C3%A9",
        "http://example.com/ros%C3%89",
    ); // not ASCII case
    differ("http://example.com/a?b/../c", "http://example.com/a?c"); // dots in the query
    differ("https://example.com:80/", "https://example.com/"); // not https's port
    differ("mailto:Joe@Example.COM", "mailto:joe@example.com"); // rootless path untouched
                                                                // %2F is only upper-cased, never decoded.
    assert_eq!(
        norm(level(Level::String), "http://h/a%2fb"),
        "http://h/a%2fb"
    );
    assert_eq!(
        norm(level(Level::Syntax), "http://h/a%2fb"),
        "http://h/a%2Fb"
    );
    assert_eq!(
        norm(level(Level::Scheme), "http://h/a%2fb"),
        "http://h/a%2Fb"
    );
}

/// Character normalization never moves a host IDNA reads (README "Host integrity"): IDNA maps before
/// it normalizes, and NFC's canonical reordering can move a mark the mapping changes (U+0345
/// is ι to UTS #46 and to IDNA2003's case folding), so `a\u{345}\u{300}.com` is
/// `xn--a-76m.com` and its NFC `à\u{345}.com` is `xn--0ca27l.com` (found by a QA sweep:
/// `--nfc` wrote the other domain). In every rung configuration, the host `to-uri` writes
/// for the normalized line is the one it writes for the line; and two hosts that are two
/// domains stay apart.
#[test]
fn character_normalization_never_moves_a_dns_host() {
    // The host's ACE form (`host::to_ascii` percent-decodes first, 3987bis §3.4.2): the host
    // is what follows the first `//` up to the next `/`.
    let ace = |s: &[u8], idna: Idna| -> Option<String> {
        let t = std::str::from_utf8(s).ok()?;
        let h = t.split_once("//")?.1.split('/').next()?;
        let mut out = String::new();
        iribulk::host::to_ascii(h, idna, &mut out).ok()?;
        Some(out.to_ascii_lowercase())
    };
    // DNS schemes, `file` (browsers map its host too) and a reference without a scheme
    // (found by a QA sweep: the first fix covered DNS schemes only).
    let lines = [
        "http://a\u{345}\u{300}.com/",
        "http://a%CD%85%CC%80.com/",
        "http://\u{345}\u{300}.com/",
        "http://x\u{345}\u{301}\u{316}y.de/",
        "http://e\u{301}\u{345}.de/",
        "http://\u{212B}\u{345}\u{300}.org/",
        "ssh://a\u{345}\u{300}.com/",
        "file://a\u{345}\u{300}.com/x",
        "FILE://a%CD%85%CC%80.com/x",
        "//a\u{345}\u{300}.com/x",
    ];
    for (name, o) in rung_configs() {
        if !(o.rungs.nfc || o.rungs.nfkc) {
            continue;
        }
        for line in lines {
            let Some(want) = ace(line.as_bytes(), o.idna) else {
                continue;
            };
            let got =
                norm_bytes(o, line.as_bytes()).unwrap_or_else(|e| panic!("{name}: {line}: {e}"));
            assert_eq!(
                ace(&got, o.idna),
                Some(want),
                "{name}: {line} → {}",
                String::from_utf8_lossy(&got)
            );
        }
        let a = norm(o, "http://a\u{345}\u{300}.com/");
        let b = norm(o, "http://\u{E0}\u{345}.com/");
        assert_ne!(a, b, "{name}: two domains merged");
    }
}

// ---------------------------------------------------------------------------------------------
// Properties.

/// IRIs built from components, mostly valid, that exercise every rung.
fn ladder_iri() -> impl Strategy<Value = Vec<u8>> {
    let scheme = prop::sample::select(
        &[
            "http", "HTTP", "https", "ws", "ftp", "foo", "Foo", "urn", "mailto", "",
        ][..],
    );
    let host = prop::sample::select(
        &[
            "example.com",
            "Example.COM",
            "bücher.de",
            "BÜCHER.de",
            "xn--bcher-kva.de",
            "XN--BCHER-KVA.DE",
            "résumé.example.org",
            "%41b.c",
            "b%C3%BCcher.de",
            "b%c3%bccher.de",
            "[FE80::1]",
            "[v1.X]",
            "例え.テスト",
            "\u{FB01}.de",
            "127.0.0.1",
            "",
            "a_b.com",
            "xn--zz.de",
            "re\u{301}sume\u{301}",
            "ｶﾀｶﾅ.jp",
            "a\u{345}\u{300}.com",
            "\u{E0}\u{345}.com",
        ][..],
    );
    let userinfo = prop::sample::select(&["", "u@", "U%3a@", "ü:p@", "@", "a%7e@"][..]);
    let port = prop::sample::select(&["", ":", ":80", ":080", ":443", ":8080", ":0", ":21"][..]);
    let seg = prop::sample::select(
        &[
            "a",
            "B",
            "é",
            "e\u{301}",
            ".",
            "..",
            "%2e",
            "%2E%2E",
            "%7e",
            "%7E",
            "%2F",
            "%2f",
            "%c3%a9",
            "%C3%A9",
            "%E2%80%AE",
            "%C2%A0",
            "%4E\u{303}",
            "日本",
            "ｶﾀｶﾅ",
            "\u{FF21}\u{FF22}",
            "\u{FB01}",
            "\u{2024}\u{2024}",
            "a=\u{338}",
            "\u{37E}",
            " ",
            "\u{A0}",
            "\u{3000}",
            "\u{202E}",
            "\u{E000}",
            ";x",
            "%41",
            "",
            "ß",
            "\u{FF0F}",
            "~",
        ][..],
    );
    let segs = prop::collection::vec(seg.clone(), 0..6);
    let opt_text = prop::option::of(prop::collection::vec(seg, 0..3));
    (
        scheme,
        prop::option::of((userinfo, host, port)),
        any::<bool>(),
        segs,
        opt_text.clone(),
        opt_text,
    )
        .prop_map(|(scheme, auth, rooted, segs, query, frag)| {
            let mut s = String::new();
            if !scheme.is_empty() {
                s += scheme;
                s.push(':');
            }
            let has_auth = auth.is_some();
            if let Some((u, h, p)) = auth {
                s += "//";
                s += u;
                s += h;
                s += p;
            }
            if (has_auth || rooted) && !segs.is_empty() {
                s.push('/');
            }
            s += &segs.join("/");
            if let Some(q) = query {
                s.push('?');
                s += &q.join("/");
            }
            if let Some(f) = frag {
                s.push('#');
                s += &f.join("/");
            }
            s.into_bytes()
        })
}

fn any_iri() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![3 => ladder_iri(), 1 => iri_strategy()]
}

/// Every rung alone, the presets, and some combinations, as IRIs and as URIs.
fn rung_configs() -> Vec<(String, NormalizeOptions)> {
    let one = |f: &dyn Fn(&mut Rungs)| {
        let mut r = Rungs::default();
        f(&mut r);
        r
    };
    let mut rungs = vec![
        ("case", one(&|r| r.case = true)),
        ("percent", one(&|r| r.percent = true)),
        ("nfc", one(&|r| r.nfc = true)),
        ("nfkc", one(&|r| r.nfkc = true)),
        ("path", one(&|r| r.path = true)),
        ("scheme", one(&|r| r.scheme = true)),
        ("idn=ascii", one(&|r| r.idn = Some(Idn::Ascii))),
        ("idn=unicode", one(&|r| r.idn = Some(Idn::Unicode))),
        ("string", Rungs::level(Level::String)),
        ("syntax", Rungs::level(Level::Syntax)),
        ("scheme-level", Rungs::level(Level::Scheme)),
    ];
    let full = Rungs {
        nfkc: true,
        ..Rungs::level(Level::Scheme)
    };
    rungs.push(("scheme-level+nfkc", full));
    rungs.push((
        "scheme-level+nfc+idn=unicode",
        Rungs {
            nfc: true,
            idn: Some(Idn::Unicode),
            ..Rungs::level(Level::Scheme)
        },
    ));
    let mut v = Vec::new();
    for (name, r) in rungs {
        for idna in [Idna::Uts46, Idna::Idna2003(idna2003::Flags::CONVERT)] {
            for as_uri in [false, true] {
                v.push((
                    format!("{name} {idna:?} as_uri={as_uri}"),
                    NormalizeOptions {
                        rungs: r,
                        as_uri,
                        idna,
                    },
                ));
            }
        }
    }
    v
}

fn to_uri(s: &[u8]) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    ToUri::new(ToUriOptions::default())
        .convert_or_copy_into(s, &mut out)
        .map(|_| out)
        .map_err(|e| e.kind.code().to_string())
}

fn to_iri(s: &[u8]) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    ToIri::new(ToIriOptions::default())
        .convert_or_copy_into(s, &mut out)
        .map(|_| out)
        .map_err(|e| e.kind.code().to_string())
}

/// Runs `check` on `cases` random inputs of `strategy` (a fixed seed per test, so runs are
/// reproducible; a failure is shrunk and reported by proptest).
fn run_cases<S: Strategy>(
    cases: u32,
    strategy: S,
    check: impl Fn(S::Value) -> Result<(), TestCaseError>,
) where
    S::Value: std::fmt::Debug,
{
    let config = ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    };
    let mut runner = proptest::test_runner::TestRunner::new_with_rng(
        config,
        proptest::test_runner::TestRng::deterministic_rng(
            proptest::test_runner::RngAlgorithm::ChaCha,
        ),
    );
    if let Err(e) = runner.run(&strategy, check) {
        panic!("{e}");
    }
}

/// Every rung alone, every preset and some combinations are idempotent, as IRIs and as URIs,
/// with UTS #46 and IDNA2003: `N(N(x)) == N(x)` whenever `N(x)` succeeds.
#[test]
fn every_rung_is_idempotent() {
    let configs = rung_configs();
    let ok: Vec<AtomicUsize> = configs.iter().map(|_| AtomicUsize::new(0)).collect();
    let changed: Vec<AtomicUsize> = configs.iter().map(|_| AtomicUsize::new(0)).collect();
    run_cases(2000, any_iri(), |x| {
        for (k, (name, o)) in configs.iter().enumerate() {
            if let Ok(y) = norm_bytes(*o, &x) {
                ok[k].fetch_add(1, Relaxed);
                if y != x {
                    changed[k].fetch_add(1, Relaxed);
                }
                let again = norm_bytes(*o, &y);
                prop_assert_eq!(
                    again.as_deref().map(String::from_utf8_lossy),
                    Ok(String::from_utf8_lossy(&y)),
                    "{}: input {:?}",
                    name,
                    String::from_utf8_lossy(&x)
                );
            }
        }
        Ok(())
    });
    for (k, (name, _)) in configs.iter().enumerate() {
        let (ok, changed) = (ok[k].load(Relaxed), changed[k].load(Relaxed));
        println!("{name}: {ok} of 2000 inputs normalized, {changed} of them changed");
        assert!(ok >= 500, "{name}: enough inputs normalize ({ok})");
        if !name.starts_with("string ") || name.contains("as_uri=true") {
            assert!(
                changed >= 100,
                "{name}: the rung does something ({changed})"
            );
        }
    }
}

/// The ladder's output is stable under to-uri then to-iri, as IRI and as URI.
#[test]
fn ladder_is_stable_under_to_uri_then_to_iri() {
    let configs = [
        ("scheme-level", Rungs::level(Level::Scheme)),
        (
            "scheme-level+nfc",
            Rungs {
                nfc: true,
                ..Rungs::level(Level::Scheme)
            },
        ),
        (
            "scheme-level+idn=unicode",
            Rungs {
                idn: Some(Idn::Unicode),
                ..Rungs::level(Level::Scheme)
            },
        ),
    ];
    let stats: Vec<[AtomicUsize; 2]> = configs.iter().map(|_| Default::default()).collect();
    run_cases(3000, ladder_iri(), |x| {
        for (k, (name, rungs)) in configs.iter().enumerate() {
            for as_uri in [false, true] {
                let o = NormalizeOptions {
                    rungs: *rungs,
                    as_uri,
                    ..NormalizeOptions::default()
                };
                let Ok(y) = norm_bytes(o, &x) else { continue };
                stats[k][0].fetch_add(1, Relaxed);
                let u = to_uri(&y).expect("a normalized IRI converts");
                let z = to_iri(&u).expect("a URI converts back");
                let y2 = norm_bytes(o, &z).expect("the round trip normalizes");
                if y2 == y {
                    stats[k][1].fetch_add(1, Relaxed);
                }
                prop_assert_eq!(
                    String::from_utf8_lossy(&y2).into_owned(),
                    String::from_utf8_lossy(&y).into_owned(),
                    "{} as_uri={}: input {:?} via {:?}",
                    name,
                    as_uri,
                    String::from_utf8_lossy(&x),
                    String::from_utf8_lossy(&z)
                );
            }
        }
        Ok(())
    });
    for (k, (name, _)) in configs.iter().enumerate() {
        let [n, stable] = stats[k].each_ref().map(|a| a.load(Relaxed));
        println!("{name}: {n} normalized (IRI and URI forms), {stable} stable");
        assert!(n >= 2000, "{name}: enough cases");
    }
}

/// The cases that are stable only thanks to step 9 (the IRI form of the normalized URI).
#[test]
fn iri_form_makes_percent_encodings_and_invisible_characters_stable() {
    let o = level(Level::Scheme);
    for (x, want) in [
        ("http://h/ros%C3%A9", "http://h/rosé"),
        ("http://h/a\u{A0}b", "http://h/a%C2%A0b"),
        ("http://h/a\u{FF0F}b", "http://h/a%EF%BC%8Fb"),
        (
            "HTTP://BÜCHER.de:80/%7e/ä/./x?q=é#f",
            "http://xn--bcher-kva.de/~/ä/x?q=é#f",
        ),
    ] {
        let y = norm(o, x);
        assert_eq!(y, want, "{x}");
        let z = to_iri(&to_uri(y.as_bytes()).unwrap()).unwrap();
        assert_eq!(norm_bytes(o, &z).unwrap(), y.as_bytes(), "{x}: stable");
    }
    // The §5.3.2 pair is equal as IRIs too.
    let s = level(Level::Syntax);
    assert_eq!(
        norm(s, "example://a/b/c/%7Bfoo%7D/rosé"),
        norm(s, "eXAMPLE://a/./b/../b/%63/%7bfoo%7d/ros%C3%A9")
    );
}
