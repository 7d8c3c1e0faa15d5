//! URI→IRI, check and LEIRI: the spec examples (tests/data), hostile decodings, and the
//! properties of issue #4: round trip to-uri(to-iri(u)) == u (modulo hex case and decoded
//! unreserved characters, RFC 3987 §3.2), to-iri idempotent, check accepts what to-uri writes.

mod common;
use common::*;
use iribulk::convert::check::{CheckOptions, Checker};
use iribulk::convert::to_iri::{ToIri, ToIriOptions};
use iribulk::Converter as _;
use iribulk::{HostMode, ToUri, ToUriOptions};
use proptest::prelude::*;
use std::path::Path;

fn to_iri_opts(o: &ToUriOptions) -> ToIriOptions {
    ToIriOptions { host: o.host }
}

fn to_iri(s: &[u8], o: &ToUriOptions) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    ToIri::new(to_iri_opts(o))
        .convert_or_copy_into(s, &mut out)
        .map(|_| out)
        .map_err(|e| e.kind.code().to_string())
}

fn to_uri(s: &[u8], o: &ToUriOptions) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    ToUri::new(*o)
        .convert_or_copy_into(s, &mut out)
        .map(|_| out)
        .map_err(|e| e.kind.code().to_string())
}

/// RFC 3987 §3.2's equivalence for the round trip: hex digits upper-cased and percent-encoded
/// unreserved characters decoded; the host's ASCII letters lower-cased (a host is
/// case-insensitive, RFC 3986 §3.2.2, and so are ACE labels, RFC 3490 §5: to-iri decodes
/// `XN--P1AI`, to-uri writes `xn--p1ai`).
fn canonical(s: &[u8]) -> Vec<u8> {
    let mut v = Vec::new();
    let mut i = 0;
    while i < s.len() {
        if s[i] == b'%'
            && i + 2 < s.len()
            && s[i + 1].is_ascii_hexdigit()
            && s[i + 2].is_ascii_hexdigit()
        {
            let b = u8::from_str_radix(std::str::from_utf8(&s[i + 1..i + 3]).unwrap(), 16).unwrap();
            if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
                v.push(b);
            } else {
                v.push(b'%');
                v.extend_from_slice(&s[i + 1..i + 3].to_ascii_uppercase());
            }
            i += 3;
        } else {
            v.push(s[i]);
            i += 1;
        }
    }
    let c = iribulk::grammar::components::split(&v);
    if let Some(a) = c.authority {
        if let Ok(a) = iribulk::grammar::components::split_authority(&v, a) {
            v[a.host].make_ascii_lowercase();
        }
    }
    v
}

#[test]
fn to_iri_examples() {
    let rows =
        read_tsv(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/to_iri_examples.tsv"));
    assert!(rows.len() >= 40);
    let mut failures = Vec::new();
    for r in &rows {
        let o = parse_options(&r[2]);
        let got = match to_iri(&unescape(&r[3]), &o) {
            Ok(v) => format!("OK:{}", String::from_utf8_lossy(&v)),
            Err(c) => format!("ERROR:{c}"),
        };
        let want = String::from_utf8(unescape(&r[4])).unwrap();
        if got != want {
            failures.push(format!("{}: got {got}, want {want}", r[0]));
        }
        // Every example that converts also round-trips.
        if let Ok(iri) = to_iri(&unescape(&r[3]), &o) {
            let back = to_uri(&iri, &o).unwrap_or_else(|e| panic!("{}: to-uri failed {e}", r[0]));
            if canonical(&back) != canonical(&unescape(&r[3]))
                && std::str::from_utf8(&unescape(&r[3])).unwrap().is_ascii()
            {
                failures.push(format!(
                    "{}: round trip gave {}",
                    r[0],
                    String::from_utf8_lossy(&back)
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn check_examples() {
    let rows =
        read_tsv(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/check_examples.tsv"));
    assert!(rows.len() >= 35);
    let mut failures = Vec::new();
    for r in &rows {
        let uri_only = r[2] == "uri";
        let to_uri = if uri_only {
            ToUriOptions::default()
        } else {
            parse_options(&r[2])
        };
        let mut c = Checker::new(CheckOptions { to_uri, uri_only });
        let mut out = Vec::new();
        let got = match c.convert_or_copy_into(&unescape(&r[3]), &mut out) {
            Ok(o) => match o.first_warning {
                Some(w) => format!("OK:{}", w.kind.code()),
                None => "OK".to_string(),
            },
            Err(e) => format!("ERROR:{}", e.kind.code()),
        };
        if got != r[4] {
            failures.push(format!("{}: got {got}, want {}", r[0], r[4]));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn host_modes() -> impl Strategy<Value = ToUriOptions> {
    (0..4u8).prop_map(|h| {
        ToUriOptions::default().host(
            [
                HostMode::Auto,
                HostMode::Uts46,
                HostMode::IDNA2003,
                HostMode::Percent,
            ][h as usize],
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, .. ProptestConfig::default() })]

    #[test]
    fn round_trip_and_idempotence(s in iri_strategy(), o in host_modes()) {
        if let Ok(uri) = to_uri(&s, &o) {
            let iri = to_iri(&uri, &o).expect("to-iri accepts what to-uri writes");
            let back = to_uri(&iri, &o).expect("to-uri accepts what to-iri writes");
            prop_assert_eq!(
                String::from_utf8_lossy(&canonical(&back)).into_owned(),
                String::from_utf8_lossy(&canonical(&uri)).into_owned(),
                "iri {:?}", String::from_utf8_lossy(&iri)
            );
            let again = to_iri(&iri, &o).unwrap();
            prop_assert_eq!(
                String::from_utf8_lossy(&again).into_owned(),
                String::from_utf8_lossy(&iri).into_owned(),
                "to-iri idempotent"
            );
            prop_assert!(!iri.contains(&0) && !iri.contains(&b'\n') && !iri.contains(&b'\r'));
        }
    }

    #[test]
    fn check_accepts_what_to_uri_writes(s in iri_strategy(), o in host_modes()) {
        if let Ok(uri) = to_uri(&s, &o) {
            let mut c = Checker::new(CheckOptions { to_uri: o, uri_only: true });
            let mut out = Vec::new();
            match c.convert_or_copy_into(&uri, &mut out) {
                Ok(_) => {}
                // Contract 2: to-uri passes an all-ASCII host unchecked (and leaves it as
                // written); check validates it. That is the one thing check may refuse.
                Err(e) => {
                    let c = iribulk::grammar::components::split(&s);
                    let ascii_host = c.authority.is_some_and(|a| {
                        iribulk::grammar::components::split_authority(&s, a).is_ok_and(|a| s[a.host].is_ascii())
                    });
                    // Issue 16: check refuses an invalid A-label (`bad-ace`) that to-uri
                    // passes as ASCII, and, for special schemes, what browsers refuse and
                    // RFC 3986 allows (a port above 65535, an IPvFuture literal).
                    use iribulk::ErrorKind as K;
                    prop_assert!(
                        (matches!(e.kind, K::Idna(_)) && ascii_host)
                            || matches!(e.kind, K::BadAce | K::BadPort | K::BadIpLiteral),
                        "check refused {:?}: {:?}", String::from_utf8_lossy(&uri), e
                    );
                }
            }
        }
    }
}

/// The round trip on every line of every dataset (the sample, and ../shared/datasets).
#[test]
fn round_trip_on_datasets() {
    let mut files = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets/sample.txt")];
    if let Some(shared) = shared_dir() {
        for f in [
            "cc10k_relative.txt",
            "cc10k_bases.txt",
            "idna_v2_hosts.txt",
            "wpt_urltestdata_inputs.txt",
            "kasztp.txt",
        ] {
            files.push(shared.join("datasets").join(f));
        }
    }
    let o = ToUriOptions::default();
    let mut checked = 0;
    for f in &files {
        let data = std::fs::read(f).unwrap();
        for line in data.split(|&b| b == b'\n') {
            let Ok(uri) = to_uri(line, &o) else { continue };
            let iri = to_iri(&uri, &o)
                .unwrap_or_else(|e| panic!("{}: {e}", String::from_utf8_lossy(&uri)));
            let back = to_uri(&iri, &o).unwrap();
            assert_eq!(
                canonical(&back),
                canonical(&uri),
                "{} in {}",
                String::from_utf8_lossy(&uri),
                f.display()
            );
            checked += 1;
        }
    }
    assert!(checked > 300, "{checked}");
}

/// RFC 3987 §4.2 ("the affected component can always be mapped to URI notation"): to-iri
/// keeps a piece encoded when its decoded characters would break the bidi rules `check`
/// applies, so it never writes an IRI that check refuses with `bidi-mixed` or
/// `bidi-boundary` (found by a QA sweep); the rest of the line is still decoded, and to-uri
/// gives the input back.
#[test]
fn to_iri_keeps_bidi_violations_encoded() {
    let o = ToUriOptions::default();
    for (uri, want) in [
        ("http://example.com/%D7%90b/", "http://example.com/%D7%90b/"),
        (
            "http://example.com/%D9%A1%D8%A8/",
            "http://example.com/%D9%A1%D8%A8/",
        ),
        (
            "http://example.com/?q=%D7%90c",
            "http://example.com/?q=%D7%90c",
        ),
        ("http://xn--1-zhcd.example/", "http://xn--1-zhcd.example/"),
        ("foo://%D7%90b.example/", "foo://%D7%90b.example/"),
        ("http://%D7%90b@ex.com/", "http://%D7%90b@ex.com/"),
        (
            "http://example.com/%D7%90/%D7%90b/x%D7%90?a=%D7%90&b=%D7%90c#%D7%90",
            "http://example.com/\u{5D0}/%D7%90b/x%D7%90?a=\u{5D0}&b=%D7%90c#\u{5D0}",
        ),
        (
            "http://xn--4dbcd.example/%D7%90",
            "http://\u{5D0}\u{5D1}\u{5D2}.example/\u{5D0}",
        ),
        // A raw character of a piece kept encoded is encoded with it (a QA sweep: a raw
        // U+200B that to-iri encodes beside raw Hebrew letters, or a raw letter beside a
        // decoded one, left `א%E2%80%8Bב` and `א/אb` as written).
        (
            "http://example.com/\u{5D0}\u{200B}\u{5D1}/",
            "http://example.com/%D7%90%E2%80%8B%D7%91/",
        ),
        (
            "http://example.com/?q=\u{5D0}\u{AD}\u{5D1}",
            "http://example.com/?q=%D7%90%C2%AD%D7%91",
        ),
        (
            "http://example.com/%D7%90/\u{5D1}b/",
            "http://example.com/\u{5D0}/%D7%91b/",
        ),
    ] {
        let got = to_iri(uri.as_bytes(), &o).unwrap();
        assert_eq!(String::from_utf8_lossy(&got), want, "{uri}");
        let s = std::str::from_utf8(&got).unwrap();
        let c = iribulk::grammar::components::split(&got);
        assert!(
            iribulk::convert::bidi::check_line(s, &c, &mut Vec::new()).is_ok(),
            "{want}"
        );
        if uri.is_ascii() {
            assert_eq!(to_uri(&got, &o).unwrap(), uri.as_bytes(), "{uri}");
        } else {
            // The input's raw characters come back encoded.
            assert_eq!(
                to_uri(&got, &o).unwrap(),
                to_uri(uri.as_bytes(), &o).unwrap()
            );
        }
    }
    // Many pieces kept encoded in one line (the merge of `keep_bidi_encoded`; it was a
    // search per piece, quadratic: a QA sweep's megabyte line took 7.8 s): the same answer
    // as for one piece, repeated.
    let one = "%D7%90b/";
    let line = format!("http://ex.com/{}", one.repeat(20_000));
    let got = to_iri(line.as_bytes(), &o).unwrap();
    assert_eq!(got, line.as_bytes());
    // Every URI that to-uri writes for the localized names of intl_cldr (a third of them:
    // the debug build), right-to-left scripts among them.
    let Some(shared) = shared_dir() else { return };
    let data = std::fs::read(shared.join("datasets/intl_cldr.txt")).unwrap();
    let (mut rtl, mut kept) = (0, 0);
    for line in data.split(|&b| b == b'\n').step_by(3) {
        let Ok(uri) = to_uri(line, &o) else { continue };
        let Ok(iri) = to_iri(&uri, &o) else { continue };
        let s = std::str::from_utf8(&iri).unwrap();
        if iribulk::convert::bidi::may_contain_rtl(&iri) {
            rtl += 1;
        }
        let c = iribulk::grammar::components::split(&iri);
        assert!(
            iribulk::convert::bidi::check_line(s, &c, &mut Vec::new()).is_ok(),
            "{s}"
        );
        // A piece kept encoded: to-iri with the rule off would have decoded it.
        if iri
            .windows(4)
            .any(|w| w == b"%D7%" || w == b"%D8%" || w == b"%D9%")
        {
            kept += 1;
        }
    }
    println!("{rtl} right-to-left lines, {kept} with a piece kept encoded");
    assert!(
        rtl > 1000 && kept > 0,
        "{rtl} right-to-left lines, {kept} kept"
    );
}
