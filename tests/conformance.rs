//! Conformance: the examples transcribed from the specifications (tests/data), and the public
//! vectors of ../shared/conformance read at test time. One labelled check per row; all
//! failures are collected and reported together.

mod common;
use common::*;
use iribulk::Converter as _;
use iribulk::ToUri;
use std::path::Path;

#[test]
fn to_uri_examples_from_the_specs() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/to_uri_examples.tsv");
    let rows = read_tsv(&path);
    assert!(rows.len() > 60, "the data file has its rows");
    let mut failures = Vec::new();
    for r in &rows {
        let [id, _src, opts, input, expected] = &r[..] else {
            panic!("row {r:?} has {} columns", r.len());
        };
        let mut conv = ToUri::new(parse_options(opts));
        let input = unescape(input);
        let mut out = Vec::new();
        let want = String::from_utf8(unescape(expected)).unwrap();
        let got = match conv.convert_or_copy_into(&input, &mut out) {
            Ok(_) => format!("OK:{}", String::from_utf8_lossy(&out)),
            // `ERROR:code:message` pins the message too (the reason a report prints).
            Err(e) if want.splitn(3, ':').count() == 3 && want.starts_with("ERROR:") => {
                format!("ERROR:{}:{}", e.kind.code(), e.kind.full_message())
            }
            Err(e) => format!("ERROR:{}", e.kind.code()),
        };
        if got != want {
            failures.push(format!("{id}: got {got}, want {want}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// RFC 3492 §7.1 sample strings through the whole converter's Punycode path: a host made of
/// the sample must become `xn--` + the lower-case Punycode (IDNA2003 without STD3, since some
/// samples contain ASCII that STD3 refuses; those rows are listed).
#[test]
fn rfc3492_samples_through_the_converter() {
    let Some(shared) = shared_dir() else { return };
    let rows = read_tsv(&shared.join("conformance/punycode_rfc3492.tsv"));
    assert_eq!(rows.len(), 19);
    // Rows where ToASCII legitimately differs from bare Punycode, with the reason.
    let expected_differences: &[(&str, &str)] = &[
        (
            "RFC3492-7.1-H",
            "xn-- + 68 octets is over the 63-octet label limit (RFC 3490 §4.1 step 8)",
        ),
        (
            "RFC3492-7.1-S",
            "all ASCII: ToASCII leaves it as it is (RFC 3490 §4.1 step 4)",
        ),
    ];
    let mut failures = Vec::new();
    let mut differing = Vec::new();
    for r in &rows {
        let (id, utf8, lower) = (&r[0], &r[4], &r[6]);
        let mut conv = ToUri::new(parse_options("host=idna2003,no-std3"));
        let input = format!("http://{utf8}/");
        let mut out = Vec::new();
        let got = conv
            .convert_or_copy_into(input.as_bytes(), &mut out)
            .map(|_| String::from_utf8(out).unwrap());
        let want = format!("http://xn--{lower}/");
        if got.as_deref() != Ok(want.as_str()) {
            differing.push(id.clone());
            if !expected_differences.iter().any(|(e, _)| e == id) {
                failures.push(format!("{id}: got {got:?}, want {want}"));
            }
        }
    }
    for (e, why) in expected_differences {
        if !differing.contains(&e.to_string()) {
            failures.push(format!(
                "{e} is listed as differing ({why}) but now matches"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
