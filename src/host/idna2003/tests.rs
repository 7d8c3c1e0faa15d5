//! Tests of IDNA2003: RFC 3490/3491/3454 examples, the shared conformance rows, and
//! differential checks against Python where python3 is available.

use super::*;
use std::collections::BTreeSet;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Both flags FALSE (libidn's `flags=0`, and the draft-josefsson ToASCII vectors).
const NO_FLAGS: Flags = Flags {
    allow_unassigned: false,
    use_std3_ascii_rules: false,
};
/// The flags of CPython's `encodings.idna`: unassigned allowed, no STD3 rules.
const PYTHON_FLAGS: Flags = Flags {
    allow_unassigned: true,
    use_std3_ascii_rules: false,
};
const CONVERT: Flags = Flags::CONVERT;

fn to_ascii(label: &str, flags: Flags) -> Result<String, Error> {
    let mut out = String::new();
    label_to_ascii(label, flags, &mut out).map(|()| out)
}

fn dom_ascii(domain: &str, flags: Flags) -> Result<String, Error> {
    let mut out = String::new();
    domain_to_ascii(domain, flags, &mut out).map(|()| out)
}

fn to_uni(label: &str, flags: Flags) -> String {
    let mut out = String::new();
    label_to_unicode(label, flags, &mut out);
    out
}

fn dom_uni(domain: &str, flags: Flags) -> String {
    let mut out = String::new();
    domain_to_unicode(domain, flags, &mut out);
    out
}

fn ok(s: &str) -> Result<String, Error> {
    Ok(s.to_string())
}

fn nfkc_today(s: &str) -> String {
    s.nfkc().collect()
}

// ---------------------------------------------------------------------------------------
// Skipping, and the shared conformance files.

fn ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true")
}

/// Prints why a test is skipped, or panics when `CI=true` (a skipped check is then a failure).
fn skip(why: &str) {
    if ci() {
        panic!("{why} (CI=true: not skipping)");
    }
    // Straight to stderr: the test harness captures only `eprintln!`, and a skip must show.
    use std::io::Write as _;
    let _ = writeln!(std::io::stderr().lock(), "SKIPPED: {why}");
}

/// `../shared/conformance` beside the project (as in CI), else `/work/shared/conformance`.
fn conformance_dir() -> Option<PathBuf> {
    [
        PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../shared/conformance"
        )),
        PathBuf::from("/work/shared/conformance"),
    ]
    .into_iter()
    .find(|p| p.is_dir())
}

fn read_conformance(name: &str) -> Option<String> {
    let Some(dir) = conformance_dir() else {
        skip(&format!(
            "conformance folder not found (looked for {}/../shared/conformance and \
                 /work/shared/conformance), so {name} is not checked",
            env!("CARGO_MANIFEST_DIR")
        ));
        return None;
    };
    let path = dir.join(name);
    match std::fs::read_to_string(&path) {
        Ok(text) => Some(text),
        Err(e) => {
            skip(&format!("cannot read {}: {e}", path.display()));
            None
        }
    }
}

/// The escapes of conformance/README.md: `\\`, `\t`, `\n`, `\r`, `\xHH` (one raw byte) and
/// `\u{H..}` (one scalar). With `full` false only `\\` and `\t` (punycode_rfc3492.tsv).
fn unescape(s: &str, full: bool) -> Vec<u8> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' || i + 1 == b.len() {
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
            b'n' if full => {
                out.push(b'\n');
                i += 2;
            }
            b'r' if full => {
                out.push(b'\r');
                i += 2;
            }
            b'x' if full => {
                let hex = std::str::from_utf8(&b[i + 2..i + 4]).unwrap();
                out.push(u8::from_str_radix(hex, 16).unwrap());
                i += 4;
            }
            b'u' if full && b.get(i + 2) == Some(&b'{') => {
                let end = i + 3 + b[i + 3..].iter().position(|&x| x == b'}').unwrap();
                let hex = std::str::from_utf8(&b[i + 3..end]).unwrap();
                let c = char::from_u32(u32::from_str_radix(hex, 16).unwrap()).unwrap();
                out.extend_from_slice(c.to_string().as_bytes());
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

/// Input text of a vector. Bytes that are not UTF-8 cannot reach a `&str` API; a caller that
/// decodes them lossily gets U+FFFD, which table C.6 prohibits, so such rows must still fail.
fn text(s: &str) -> String {
    String::from_utf8_lossy(&unescape(s, true)).into_owned()
}

#[derive(Debug)]
enum Expected {
    Ok(String),
    Err(String),
    Not(String),
}

fn parse_expected(s: &str) -> Expected {
    if let Some(v) = s.strip_prefix("OK:") {
        Expected::Ok(text(v))
    } else if let Some(v) = s.strip_prefix("NOT:") {
        Expected::Not(text(v))
    } else if s == "ERROR" {
        Expected::Err(String::new())
    } else if let Some(code) = s.strip_prefix("ERROR:") {
        Expected::Err(code.split_whitespace().next().unwrap_or("").to_string())
    } else {
        panic!("unknown expected value {s:?}");
    }
}

/// The flags column: `AllowUnassigned=… UseSTD3ASCIIRules=…`, `flags=0` (libidn), or empty
/// (CPython's `encodings.idna`). The second value: compare ASCII case-insensitively.
fn parse_flags(s: &str) -> (Flags, bool) {
    let flags = if s.is_empty() {
        PYTHON_FLAGS
    } else if s.starts_with("flags=0") {
        NO_FLAGS
    } else {
        Flags {
            allow_unassigned: s.contains("AllowUnassigned=1"),
            use_std3_ascii_rules: s.contains("UseSTD3ASCIIRules=1"),
        }
    };
    (flags, s.contains("compare case-insensitively"))
}

/// Whether our error fits the error code the vector names (libidn's, or the file's own).
fn code_fits(code: &str, e: Error) -> bool {
    match code {
        "" => true,
        // STRINGPREP_ICONV_ERROR: a surrogate in UTF-8, which decodes to U+FFFD (C.6).
        "STRINGPREP_CONTAINS_PROHIBITED" | "STRINGPREP_ICONV_ERROR" => e == Error::Prohibited,
        "STRINGPREP_CONTAINS_UNASSIGNED" => e == Error::Unassigned,
        "STRINGPREP_BIDI_BOTH_L_AND_RAL" | "STRINGPREP_BIDI_LEADTRAIL_NOT_RAL" => e == Error::Bidi,
        "prohibited-or-bidi" => matches!(e, Error::Prohibited | Error::Bidi),
        "IDNA_CONTAINS_ACE_PREFIX" => e == Error::AcePrefix,
        "IDNA_INVALID_LENGTH" => matches!(
            e,
            Error::EmptyLabel | Error::LabelTooLong | Error::NameTooLong | Error::RawTooLong
        ),
        // libidn reports an ACE label too long for its output buffer as a Punycode error.
        "IDNA_PUNYCODE_ERROR" => matches!(e, Error::Punycode | Error::LabelTooLong),
        _ => false,
    }
}

fn check_result(got: Result<String, Error>, exp: &Expected, ci: bool) -> Result<(), String> {
    let same = |a: &str, b: &str| {
        if ci {
            a.eq_ignore_ascii_case(b)
        } else {
            a == b
        }
    };
    match (exp, got) {
        (Expected::Ok(want), Ok(got)) if same(want, &got) => Ok(()),
        (Expected::Err(code), Err(e)) if code_fits(code, e) => Ok(()),
        (Expected::Not(bad), Ok(got)) if !same(bad, &got) => Ok(()),
        (Expected::Not(_), Err(_)) => Ok(()),
        (exp, got) => Err(format!("expected {exp:?}, got {got:?}")),
    }
}

/// ToUnicode never fails: an expected error means the input comes back unchanged.
fn check_unicode(input: &str, got: String, exp: &Expected) -> Result<(), String> {
    let fine = match exp {
        Expected::Ok(want) => got == *want,
        Expected::Err(_) => got == input,
        Expected::Not(bad) => got != *bad,
    };
    if fine {
        Ok(())
    } else {
        Err(format!("expected {exp:?} (input {input:?}), got {got:?}"))
    }
}

fn check_row(op: &str, flags: &str, input: &str, expected: &str) -> Result<(), String> {
    let input = text(input);
    let exp = parse_expected(expected);
    let (flags, ci) = parse_flags(flags);
    match op {
        "nameprep" => check_result(nameprep(&input, flags.allow_unassigned), &exp, false),
        "toascii-label" => check_result(to_ascii(&input, flags), &exp, ci),
        "toascii-domain" => check_result(dom_ascii(&input, flags), &exp, ci),
        "tounicode-label" => check_unicode(&input, to_uni(&input, flags), &exp),
        "tounicode-domain" => check_unicode(&input, dom_uni(&input, flags), &exp),
        "punycode-decode" => {
            let got = idna::punycode::decode_to_string(&input).ok_or(Error::Punycode);
            check_result(got, &exp, false)
        }
        _ => Err(format!("unknown operation {op:?}")),
    }
}

/// Rows of idna2003_vectors.tsv known not to pass, with the reason. Each listed row must
/// still fail: the test fails when one starts passing, so the list stays exact.
const EXPECTED_FAILURES: &[(&str, &str)] = &[];

#[test]
fn conformance_idna2003_vectors() {
    let Some(file) = read_conformance("idna2003_vectors.tsv") else {
        return;
    };
    let mut lines = file.lines();
    let header: Vec<&str> = lines.next().expect("header").split('\t').collect();
    let col = |name: &str| {
        header
            .iter()
            .position(|h| *h == name)
            .unwrap_or_else(|| panic!("no column {name}"))
    };
    let (c_id, c_op, c_flags, c_in, c_exp) = (
        col("id"),
        col("operation"),
        col("flags"),
        col("input"),
        col("expected"),
    );
    let (mut rows, mut passed, mut xfailed) = (0, 0, 0);
    let mut problems = Vec::new();
    let mut seen = BTreeSet::new();
    for line in lines.filter(|l| !l.is_empty()) {
        let f: Vec<&str> = line.split('\t').collect();
        let id = f[c_id];
        rows += 1;
        seen.insert(id);
        let result = check_row(f[c_op], f[c_flags], f[c_in], f[c_exp]);
        let listed = EXPECTED_FAILURES.iter().find(|(x, _)| *x == id);
        match (result, listed) {
            (Ok(()), None) => {
                passed += 1;
                println!("pass  {id}");
            }
            (Err(msg), Some((_, why))) => {
                xfailed += 1;
                println!("xfail {id}: {msg} [expected: {why}]");
            }
            (Ok(()), Some((_, why))) => problems.push(format!(
                "{id}: passes but is listed in EXPECTED_FAILURES ({why}); remove it"
            )),
            (Err(msg), None) => problems.push(format!("{id}: {msg}")),
        }
    }
    for (id, _) in EXPECTED_FAILURES {
        if !seen.contains(id) {
            problems.push(format!(
                "{id}: listed in EXPECTED_FAILURES but not in the file"
            ));
        }
    }
    println!("{rows} rows: {passed} pass, {xfailed} expected failures");
    assert!(rows > 0, "no rows read");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// RFC 3492 §7.1 samples (A)–(S): Punycode both ways, then RFC 3490 ToASCII and ToUnicode.
#[test]
fn conformance_punycode_rfc3492_samples() {
    let Some(file) = read_conformance("punycode_rfc3492.tsv") else {
        return;
    };
    let mut lines = file.lines();
    let header: Vec<&str> = lines.next().expect("header").split('\t').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let (c_id, c_in, c_exact, c_lower) = (
        col("id"),
        col("input_utf8"),
        col("expected_punycode_exact"),
        col("expected_punycode_lower"),
    );
    let (mut rows, mut too_long, mut ascii) = (0, 0, 0);
    for line in lines.filter(|l| !l.is_empty()) {
        let f: Vec<&str> = line.split('\t').collect();
        let id = f[c_id];
        let input = String::from_utf8(unescape(f[c_in], false)).unwrap();
        let exact = String::from_utf8(unescape(f[c_exact], false)).unwrap();
        let lower = String::from_utf8(unescape(f[c_lower], false)).unwrap();
        rows += 1;
        // RFC 3492 itself (the mixed-case annotations of the exact form are ignored).
        let encoded = idna::punycode::encode_str(&input).expect(id);
        assert_eq!(encoded.to_ascii_lowercase(), lower, "{id}: encode");
        assert_eq!(
            idna::punycode::decode_to_string(&exact).as_deref(),
            Some(input.as_str()),
            "{id}: decode"
        );
        // RFC 3490 ToASCII: Nameprep lower-cases, which changes no Punycode delta.
        let got = to_ascii(&input, NO_FLAGS);
        if input.is_ascii() {
            // (S): ToASCII never alters an all-ASCII label (§4.1 steps 1 and 4).
            ascii += 1;
            assert_eq!(got, ok(&input), "{id}");
            continue;
        }
        if ACE_PREFIX.len() + lower.len() > MAX_LABEL_OCTETS {
            // (H), Korean: 72 octets.
            too_long += 1;
            assert_eq!(got, Err(Error::LabelTooLong), "{id}");
            continue;
        }
        let ace = format!("xn--{lower}");
        assert_eq!(got, Ok(ace.clone()), "{id}");
        // ToUnicode of the ACE form is the Nameprep form of the sample (RFC 3490 §4.2).
        assert_eq!(Ok(to_uni(&ace, NO_FLAGS)), nameprep(&input, false), "{id}");
        // And of the exact, mixed-case form: the basic code points keep their case.
        let mixed = format!("xn--{exact}");
        if exact
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-')
        {
            assert_eq!(
                to_uni(&mixed, NO_FLAGS).to_lowercase(),
                input.to_lowercase()
            );
        }
    }
    assert_eq!((rows, too_long, ascii), (19, 1, 1));
}

// ---------------------------------------------------------------------------------------
// Unicode 3.2 NFKC.

/// A Corrigendum #4 code point: Nameprep keeps the 3.2 decomposition where today's NFKC
/// gives the corrected one.
fn check_correction(c: char, old: char, new: char) {
    let s = c.to_string();
    assert_eq!(
        nfkc_today(&s),
        new.to_string(),
        "today's NFKC of U+{:X}",
        c as u32
    );
    assert!(
        rfc3454::case_fold_for_nfkc(c).eq([c]),
        "B.2 leaves U+{:X}",
        c as u32
    );
    assert!(!rfc3454::commonly_mapped_to_nothing(c));
    assert!(!rfc3454::unassigned_code_point(c) && !rfc3454::unassigned_code_point(old));
    assert_eq!(nameprep(&s, false), ok(&old.to_string()));
    assert_eq!(nameprep(&format!("X{c}y"), false), ok(&format!("x{old}y")));
    let want = format!(
        "xn--{}",
        idna::punycode::encode_str(&old.to_string()).unwrap()
    );
    assert_eq!(to_ascii(&s, NO_FLAGS), Ok(want.clone()));
    assert_ne!(to_ascii(&new.to_string(), NO_FLAGS), Ok(want));
    assert!(UNICODE_3_2_CORRECTIONS.contains(&(c, old, new)));
}

#[test]
fn nfkc_3_2_correction_u2f868() {
    check_correction('\u{2F868}', '\u{2136A}', '\u{36FC}');
}

#[test]
fn nfkc_3_2_correction_u2f874() {
    check_correction('\u{2F874}', '\u{5F33}', '\u{5F53}');
    // IDN test list 4-2-2-1: "should not become <5F53>".
    assert_eq!(
        dom_ascii("newnorm\u{2F874}\u{ED}dn.example", CONVERT),
        ok("xn--newnormdn-m5a7856x.example")
    );
}

#[test]
fn nfkc_3_2_correction_u2f91f() {
    check_correction('\u{2F91F}', '\u{43AB}', '\u{243AB}');
}

#[test]
fn nfkc_3_2_correction_u2f95f() {
    check_correction('\u{2F95F}', '\u{7AAE}', '\u{7AEE}');
}

#[test]
fn nfkc_3_2_correction_u2f9bf() {
    check_correction('\u{2F9BF}', '\u{4D57}', '\u{45D7}');
}

/// U+F951 (Corrigendum #3: 96FB → 964B) was corrected in Unicode 3.2.0 itself, so 3.2 NFKC
/// already gives U+964B, as today's does; the erroneous U+96FB is Unicode 3.1's.
#[test]
fn nfkc_3_2_uf951_was_corrected_in_3_2() {
    assert_eq!(nfkc_today("\u{F951}"), "\u{964B}");
    assert_eq!(nameprep("\u{F951}", false), ok("\u{964B}"));
    assert!(!UNICODE_3_2_CORRECTIONS
        .iter()
        .any(|&(c, _, _)| c == '\u{F951}'));
}

/// Table A.1 code points are copied unchanged and split normalization (3.2 gives them no
/// decomposition and combining class 0).
#[test]
fn unassigned_code_points_are_normalization_boundaries() {
    // U+1F100 DIGIT ZERO FULL STOP (Unicode 5.2) is `0.` in today's NFKC.
    assert_eq!(nfkc_today("\u{1F100}"), "0.");
    assert_eq!(nameprep("\u{1F100}", true), ok("\u{1F100}"));
    assert_eq!(nameprep("\u{1F100}", false), Err(Error::Unassigned));
    assert_eq!(
        to_ascii("a\u{1F100}", CONVERT),
        Ok(format!(
            "xn--{}",
            idna::punycode::encode_str("a\u{1F100}").unwrap()
        ))
    );
    // U+0350 (Unicode 4.0, combining class 230 today) is not reordered with U+0316.
    let s = "a\u{301}\u{350}\u{316}";
    assert_eq!(nfkc_today(s), "\u{E1}\u{316}\u{350}");
    assert_eq!(nameprep(s, true), ok("\u{E1}\u{350}\u{316}"));
    // Normalization still runs on both sides of it.
    assert_eq!(
        nameprep("e\u{301}\u{221}\u{FB01}", true),
        ok("\u{E9}\u{221}fi")
    );
}

/// Composition follows the Corrigendum #5 reading of "blocked", like the UAX #15 reference
/// code and every IDNA2003 implementation.
#[test]
fn corrigendum_5_blocking() {
    assert_eq!(nameprep("\u{B47}\u{B3E}", false), ok("\u{B4B}"));
    assert_eq!(
        nameprep("\u{B47}\u{300}\u{B3E}", false),
        ok("\u{B47}\u{300}\u{B3E}")
    );
}

// ---------------------------------------------------------------------------------------
// Tables.

#[test]
fn d_tables_are_sorted_disjoint_and_from_unicode_3_2() {
    for table in [D_1, D_2] {
        assert!(table.iter().all(|&(lo, hi)| lo <= hi));
        assert!(table.windows(2).all(|w| w[0].1 < w[1].0));
    }
    assert_eq!((D_1.len(), D_2.len()), (34, 360));
    // Bidi classes that changed after 3.2.
    assert!(is_rand_al('\u{6DD}')); // AL in 3.2, AN today
    assert!(!is_rand_al('\u{70F}') && !in_ranges(D_2, '\u{70F}')); // BN in 3.2, AL today
    assert!(!in_ranges(D_2, '\u{2800}')); // ON in 3.2, L today
    assert!(in_ranges(D_2, '\u{17B4}')); // L in 3.2, NSM today
    assert!(!in_ranges(D_2, '\u{221}')); // unassigned in 3.2, L today
                                         // So a Braille pattern between Arabic letters passes the bidi rule.
    assert_eq!(
        nameprep("\u{627}\u{2801}\u{628}", false),
        ok("\u{627}\u{2801}\u{628}")
    );
    assert_eq!(
        nameprep("\u{627}\u{221}\u{628}", true),
        ok("\u{627}\u{221}\u{628}")
    );
    assert_eq!(nameprep("\u{627}a\u{628}", true), Err(Error::Bidi));
}

/// Every code point of `PLAIN` is what that table says.
#[test]
fn plain_ranges_are_plain() {
    use unicode_normalization::char::canonical_combining_class;
    assert!(PLAIN.iter().all(|&(lo, hi, _)| lo <= hi));
    assert!(PLAIN.windows(2).all(|w| w[0].1 < w[1].0));
    let mut n = 0;
    for &(lo, hi, rand_al) in PLAIN {
        for c in lo..=hi {
            n += 1;
            let u = c as u32;
            assert_eq!(plain_rand_al(c), Some(rand_al), "U+{u:04X}");
            assert!(!rfc3454::commonly_mapped_to_nothing(c), "U+{u:04X} in B.1");
            assert!(rfc3454::case_fold_for_nfkc(c).eq([c]), "U+{u:04X} in B.2");
            assert_eq!(unicode_3_2_correction(c), None);
            assert!(!rfc3454::unassigned_code_point(c), "U+{u:04X} in A.1");
            assert!(!is_prohibited(c), "U+{u:04X} prohibited");
            assert_eq!(canonical_combining_class(c), 0, "U+{u:04X} combines");
            assert_eq!(
                is_nfkc_quick([c].into_iter()),
                IsNormalized::Yes,
                "U+{u:04X}"
            );
            assert_eq!(is_rand_al(c), rand_al, "U+{u:04X} D.1");
            assert_eq!(in_ranges(D_2, c), !rand_al, "U+{u:04X} D.2");
        }
    }
    assert_eq!(n, 32_478);
    for c in [
        'a', '\u{DF}', '\u{F7}', '\u{3B0}', '\u{3C2}', '\u{3099}', '\u{F900}',
    ] {
        assert_eq!(plain_rand_al(c), None);
    }
}

/// The ASCII shortcuts of `nameprep_into` and `check_prepared` agree with the tables.
#[test]
fn ascii_shortcuts_agree_with_tables() {
    for b in 0u8..0x80 {
        let c = char::from(b);
        assert!(!rfc3454::commonly_mapped_to_nothing(c));
        assert!(rfc3454::case_fold_for_nfkc(c).eq([c.to_ascii_lowercase()]));
        assert!(!is_prohibited(c) && !rfc3454::unassigned_code_point(c));
        assert!(!is_rand_al(c));
        assert_eq!(in_ranges(D_2, c), c.is_ascii_alphabetic());
        assert_eq!(unicode_3_2_correction(c), None);
    }
}

// ---------------------------------------------------------------------------------------
// The project contract, and IDNA2003 against UTS #46.

#[test]
fn contract_3_ascii_labels_of_a_non_ascii_host() {
    assert_eq!(
        dom_ascii("WWW.b\u{FC}cher.DE", CONVERT),
        ok("WWW.xn--bcher-kva.DE")
    );
    assert_eq!(
        dom_ascii("my_site.b\u{FC}cher.de", CONVERT),
        Err(Error::Std3)
    );
    let no_std3 = Flags {
        use_std3_ascii_rules: false,
        ..CONVERT
    };
    assert_eq!(
        dom_ascii("my_site.b\u{FC}cher.de", no_std3),
        ok("my_site.xn--bcher-kva.de")
    );
    assert_eq!(dom_ascii("-a.b\u{FC}cher.de", CONVERT), Err(Error::Hyphen));
    assert_eq!(dom_ascii("a-.b\u{FC}cher.de", CONVERT), Err(Error::Hyphen));
    assert_eq!(dom_ascii("-a_.b\u{FC}cher.de", CONVERT), Err(Error::Std3));
}

#[test]
fn divergences_from_uts46_pinned() {
    // ß: B.2 folds it to "ss"; UTS #46 non-transitional keeps it.
    assert_eq!(dom_ascii("fa\u{DF}.de", CONVERT), ok("fass.de"));
    assert_eq!(
        idna::domain_to_ascii("fa\u{DF}.de").unwrap(),
        "xn--fa-hia.de"
    );
    // Final sigma: B.2 maps U+03C2 to U+03C3.
    assert_eq!(nameprep("\u{3C2}", false), ok("\u{3C3}"));
    assert_eq!(to_ascii("\u{3C2}", CONVERT), ok("xn--4xa"));
    assert_eq!(to_ascii("\u{3A3}", CONVERT), ok("xn--4xa"));
    assert_eq!(idna::domain_to_ascii("\u{3C2}").unwrap(), "xn--3xa");
    // ZWJ and ZWNJ: B.1 maps them to nothing.
    assert_eq!(to_ascii("a\u{200D}b", CONVERT), ok("ab"));
    assert_eq!(
        to_ascii("\u{915}\u{94D}\u{200C}", CONVERT),
        to_ascii("\u{915}\u{94D}", CONVERT)
    );
    assert_eq!(nameprep("\u{200C}\u{200D}", false), ok(""));
    assert_eq!(to_ascii("\u{200D}", CONVERT), Err(Error::EmptyLabel));
    // U+1E9E LATIN CAPITAL LETTER SHARP S (Unicode 5.1) is unassigned in 3.2: with
    // AllowUnassigned it passes Nameprep unchanged (B.2 has no entry for it) and is encoded
    // as it is; without, it is an error. UTS #46 maps it to ß.
    assert!(rfc3454::unassigned_code_point('\u{1E9E}'));
    assert_eq!(nameprep("\u{1E9E}", true), ok("\u{1E9E}"));
    assert_eq!(nameprep("\u{1E9E}", false), Err(Error::Unassigned));
    assert_eq!(to_ascii("\u{1E9E}", CONVERT), ok("xn--kkg"));
    assert_eq!(to_ascii("\u{1E9E}", NO_FLAGS), Err(Error::Unassigned));
    assert_eq!(to_uni("xn--kkg", CONVERT), "\u{1E9E}");
    assert_eq!(to_uni("xn--kkg", NO_FLAGS), "xn--kkg");
    assert_eq!(idna::domain_to_ascii("\u{1E9E}").unwrap(), "xn--zca");
}

#[test]
fn flags_convert_is_both_true() {
    assert_eq!(
        CONVERT,
        Flags {
            allow_unassigned: true,
            use_std3_ascii_rules: true
        }
    );
}

#[test]
fn error_reasons_are_distinct_and_displayed() {
    let all = [
        Error::Prohibited,
        Error::Unassigned,
        Error::Bidi,
        Error::Std3,
        Error::Hyphen,
        Error::EmptyLabel,
        Error::LabelTooLong,
        Error::NameTooLong,
        Error::AcePrefix,
        Error::Punycode,
        Error::RawTooLong,
    ];
    let reasons: BTreeSet<&str> = all.iter().map(|e| e.reason()).collect();
    assert_eq!(reasons.len(), all.len());
    for e in all {
        assert_eq!(e.to_string(), e.reason());
        assert!(!e.reason().is_empty());
    }
}

// ---------------------------------------------------------------------------------------
// ToASCII and ToUnicode details.

#[test]
fn to_ascii_steps() {
    // Step 1: ASCII is left as it is (case kept, controls kept without STD3).
    assert_eq!(to_ascii("ExAmple", CONVERT), ok("ExAmple"));
    assert_eq!(to_ascii("a b\u{7F}", NO_FLAGS), ok("a b\u{7F}"));
    assert_eq!(to_ascii("a b", CONVERT), Err(Error::Std3));
    // Step 2 can make a label ASCII: then no ACE prefix (step 4).
    assert_eq!(to_ascii("\u{FF21}\u{FF22}", CONVERT), ok("ab"));
    assert_eq!(to_ascii("\u{2160}\u{2164}", CONVERT), ok("iv"));
    // Step 3 runs on the Nameprep output.
    assert_eq!(to_ascii("\u{ED}\u{FF0B}dn", CONVERT), Err(Error::Std3));
    assert_eq!(to_ascii("\u{FE63}\u{ED}2dn", CONVERT), Err(Error::Hyphen));
    assert_eq!(to_ascii("\u{ED}\u{FF0B}dn", NO_FLAGS), ok("xn--+dn-qma"));
    // Step 5, case-insensitively, also when Nameprep makes the prefix.
    assert_eq!(to_ascii("xn--\u{E4}", NO_FLAGS), Err(Error::AcePrefix));
    assert_eq!(to_ascii("XN--\u{E4}", NO_FLAGS), Err(Error::AcePrefix));
    assert_eq!(
        to_ascii("\u{2179}n--\u{E4}dn", CONVERT),
        Err(Error::AcePrefix)
    );
    assert_eq!(to_ascii("xn--abc", CONVERT), ok("xn--abc"));
    // Steps 6 and 7: lower-case Punycode after the prefix.
    assert_eq!(to_ascii("B\u{DC}CHER", CONVERT), ok("xn--bcher-kva"));
    // Nameprep errors.
    assert_eq!(to_ascii("a\u{A0}b", CONVERT), Err(Error::Std3)); // U+00A0 → space
    assert_eq!(to_ascii("a\u{1680}b", CONVERT), Err(Error::Prohibited));
    assert_eq!(to_ascii("\u{5D0}a\u{5D1}", CONVERT), Err(Error::Bidi));
    assert_eq!(to_ascii("\u{627}1", CONVERT), Err(Error::Bidi));
    assert_eq!(to_ascii("\u{627}1\u{628}", CONVERT), ok("xn--1-ymce"));
    // Idempotence (§4.1): ToASCII of a ToASCII result is itself.
    assert_eq!(to_ascii("xn--bcher-kva", CONVERT), ok("xn--bcher-kva"));
    // `out` is untouched on error, appended to on success.
    let mut out = String::from("keep");
    assert!(label_to_ascii("a_\u{E4}", CONVERT, &mut out).is_err());
    assert_eq!(out, "keep");
    label_to_ascii("\u{E4}", CONVERT, &mut out).unwrap();
    assert_eq!(out, "keepxn--4ca");
}

#[test]
fn to_unicode_steps() {
    assert_eq!(to_uni("xn--bcher-kva", CONVERT), "b\u{FC}cher");
    assert_eq!(to_uni("XN--BCHER-KVA", CONVERT), "B\u{FC}CHER");
    // Basic code points keep their case; the comparison of step 7 ignores ASCII case.
    assert_eq!(to_uni("xn--Bcher-kva", CONVERT), "B\u{FC}cher");
    // Not ACE: unchanged, also when non-ASCII (the Nameprep result is not returned).
    assert_eq!(to_uni("B\u{FC}cher", CONVERT), "B\u{FC}cher");
    assert_eq!(to_uni("Example", CONVERT), "Example");
    // Nameprep can make an ACE label (step 2): fullwidth "xn--…".
    assert_eq!(
        to_uni("\u{FF58}\u{FF4E}--bcher-kva", CONVERT),
        "b\u{FC}cher"
    );
    // Step 7: an ACE label that ToASCII would not produce is returned unchanged.
    assert_eq!(to_uni("xn--zca", CONVERT), "xn--zca"); // ß → ToASCII gives "ss"
    assert_eq!(to_uni("xn--abc-", CONVERT), "xn--abc-"); // decodes to ASCII "abc"
    assert_eq!(to_uni("xn--", CONVERT), "xn--"); // decodes to nothing
                                                 // Step 6 uses the flags: "a_ü" fails STD3.
    let ace = to_ascii("a_\u{FC}", NO_FLAGS).unwrap();
    assert_eq!(to_uni(&ace, NO_FLAGS), "a_\u{FC}");
    assert_eq!(to_uni(&ace, CONVERT), ace);
    // Domains.
    assert_eq!(
        dom_uni("www.xn--bcher-kva.de\u{3002}", CONVERT),
        "www.b\u{FC}cher.de."
    );
    assert_eq!(dom_uni("a..xn--4ca", CONVERT), "a..\u{E4}");
    assert_eq!(dom_uni("", CONVERT), "");
    assert_eq!(dom_uni("..", CONVERT), "..");
}

#[test]
fn domain_splitting_and_lengths() {
    // The four separators of §3.1, written as '.'; the root separator is kept.
    assert_eq!(
        dom_ascii("b\u{FC}cher\u{FF0E}example\u{3002}com\u{FF61}", CONVERT),
        ok("xn--bcher-kva.example.com.")
    );
    assert_eq!(dom_ascii("a.", CONVERT), ok("a."));
    assert_eq!(dom_ascii("a\u{3002}", CONVERT), ok("a."));
    for bad in [
        "",
        ".",
        "..",
        "\u{3002}",
        "a..b",
        ".a",
        "a.\u{3002}",
        "\u{AD}.example",
    ] {
        assert_eq!(dom_ascii(bad, CONVERT), Err(Error::EmptyLabel), "{bad:?}");
    }
    // 253 octets without the root dot.
    let l63 = "a".repeat(63);
    let name = format!("{l63}.{l63}.{l63}.{}", "b".repeat(61));
    assert_eq!(name.len(), 253);
    assert_eq!(dom_ascii(&name, CONVERT), Ok(name.clone()));
    assert_eq!(
        dom_ascii(&format!("{name}."), CONVERT),
        Ok(format!("{name}."))
    );
    assert_eq!(
        dom_ascii(&format!("{name}b"), CONVERT),
        Err(Error::NameTooLong)
    );
    // The ACE form counts, not the raw form.
    let name = format!("{l63}.{l63}.{l63}.{}\u{FC}", "b".repeat(55));
    assert_eq!(name.len(), 249);
    assert_eq!(
        to_ascii(&format!("{}\u{FC}", "b".repeat(55)), CONVERT)
            .unwrap()
            .len(),
        63
    );
    assert_eq!(dom_ascii(&name, CONVERT), Err(Error::NameTooLong));
    // Raw cap.
    let raw = "a.".repeat(513);
    assert_eq!(dom_ascii(&raw, CONVERT), Err(Error::RawTooLong));
    assert_eq!(dom_uni(&raw, CONVERT), raw);
}

#[test]
fn hostile_inputs() {
    let start = Instant::now();
    // Labels of 64 and more.
    assert_eq!(to_ascii(&"a".repeat(63), CONVERT).map(|s| s.len()), Ok(63));
    assert_eq!(to_ascii(&"a".repeat(64), CONVERT), Err(Error::LabelTooLong));
    assert_eq!(
        to_ascii(&"\u{E4}".repeat(60), CONVERT),
        Err(Error::LabelTooLong)
    );
    assert_eq!(
        to_ascii(&"\u{E4}".repeat(59), CONVERT),
        Err(Error::LabelTooLong)
    );
    assert_eq!(
        to_ascii(&"\u{E4}".repeat(20), CONVERT).map(|s| s.len() <= 63),
        Ok(true)
    );
    // Nameprep can expand: U+FDFA is 18 code points after NFKC (and holds spaces).
    assert_eq!(
        to_ascii(&"\u{FDFA}".repeat(5), NO_FLAGS),
        Err(Error::LabelTooLong)
    );
    assert_eq!(to_ascii(&"\u{FDFA}".repeat(5), CONVERT), Err(Error::Std3));
    // Ignorables: within the raw cap they vanish; beyond it the label is refused.
    let soft = format!("a{}b", "\u{AD}".repeat(100));
    assert_eq!(to_ascii(&soft, CONVERT), ok("ab"));
    let soft = format!("a{}b", "\u{AD}".repeat(200));
    assert_eq!(to_ascii(&soft, CONVERT), Err(Error::RawTooLong));
    // A million code points, answered in linear time.
    let big_ascii = "a".repeat(1_000_000);
    assert_eq!(to_ascii(&big_ascii, CONVERT), Err(Error::LabelTooLong));
    let big = "\u{FC}".repeat(1_000_000);
    assert_eq!(to_ascii(&big, CONVERT), Err(Error::RawTooLong));
    assert_eq!(nameprep(&big, true), Err(Error::RawTooLong));
    assert_eq!(dom_ascii(&big, CONVERT), Err(Error::RawTooLong));
    assert_eq!(to_uni(&big, CONVERT), big);
    assert_eq!(dom_uni(&big, CONVERT), big);
    let big_ace = format!("xn--{}", "9".repeat(1_000_000));
    assert_eq!(to_uni(&big_ace, CONVERT), big_ace);
    let combining = format!("a{}", "\u{301}\u{316}".repeat(500_000));
    assert_eq!(to_ascii(&combining, CONVERT), Err(Error::RawTooLong));
    // "xn--" followed by garbage: ToUnicode gives the input back.
    for g in [
        "xn--a&b",
        "xn--\u{FC}",
        "xn--zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz",
        "xn--99999999999999999999",
        "xn--a-9999999999999999",
        "xn---",
        "xn--ab--",
        "xn--\u{0}",
        "xn--6xa\u{3002}",
    ] {
        assert_eq!(to_uni(g, CONVERT), g, "{g:?}");
        assert_eq!(to_uni(g, NO_FLAGS), g, "{g:?}");
    }
    // Arabic-Indic digits (bidi AN, not RandALCat).
    let digits = "\u{660}".repeat(1000);
    assert_eq!(to_ascii(&digits, CONVERT), Err(Error::RawTooLong));
    assert_eq!(to_uni(&digits, CONVERT), digits);
    assert!(to_ascii(&"\u{660}".repeat(10), CONVERT).is_ok());
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
}

/// Random labels from every plane: nothing panics, outputs are ASCII and short, ToASCII is
/// idempotent, Nameprep is idempotent, ToUnicode inverts ToASCII up to Nameprep.
#[test]
fn random_labels_keep_the_invariants() {
    let mut rng = Rng(0x1234_5678_9ABC_DEF1);
    let specials = "aZ9-._ \u{DF}\u{3A3}\u{3C2}\u{627}\u{5D0}\u{301}\u{AD}\u{200D}\u{FF0E}\u{FDFA}";
    let specials: Vec<char> = specials.chars().collect();
    for _ in 0..20_000 {
        let len = rng.below(12) as usize;
        let mut label = String::new();
        for _ in 0..len {
            let c = match rng.below(4) {
                0 => Some(specials[rng.below(specials.len() as u64) as usize]),
                1 => char::from_u32(rng.below(0x3000) as u32),
                2 => char::from_u32(rng.below(0x11_0000) as u32),
                _ => char::from_u32(0x20 + rng.below(0x5F) as u32),
            }
            .unwrap_or('x');
            label.push(c);
        }
        for flags in [CONVERT, NO_FLAGS, PYTHON_FLAGS] {
            if let Ok(a) = to_ascii(&label, flags) {
                assert!(a.is_ascii() && !a.is_empty() && a.len() <= 63, "{label:?}");
                assert_eq!(to_ascii(&a, flags), Ok(a.clone()), "{label:?}");
                let u = to_uni(&a, flags);
                assert!(
                    to_ascii(&u, flags).unwrap().eq_ignore_ascii_case(&a),
                    "{label:?}"
                );
            }
            let _ = to_uni(&label, flags);
        }
        if let Ok(p) = nameprep(&label, true) {
            assert_eq!(nameprep(&p, true), Ok(p.clone()), "{label:?}");
        }
    }
}

/// xorshift64*: deterministic test data without a dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: u64) -> u64 {
        (self.next() >> 11) % n
    }
}

// ---------------------------------------------------------------------------------------
// Against CPython (its `encodings.idna` is IDNA2003 with UseSTD3ASCIIRules=FALSE and
// AllowUnassigned=TRUE; `unicodedata.ucd_3_2_0` is Unicode 3.2).

fn python3_available() -> bool {
    Command::new("python3")
        .args(["-c", "import encodings.idna, stringprep, unicodedata"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

fn run_python(script: &str, input: &str) -> String {
    let mut child = Command::new("python3")
        .args(["-c", script])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 runs");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_string();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().expect("python3 output");
    writer.join().unwrap().expect("write to python3");
    assert!(output.status.success(), "python3 failed");
    String::from_utf8(output.stdout).expect("UTF-8 from python3")
}

/// Inclusive ranges of the code points where `pred` holds.
fn ranges_of(pred: impl Fn(char) -> bool) -> Vec<(u32, u32)> {
    let mut out: Vec<(u32, u32)> = Vec::new();
    for c in (0..0x11_0000u32)
        .filter_map(char::from_u32)
        .filter(|&c| pred(c))
    {
        let c = c as u32;
        match out.last_mut() {
            Some(last) if last.1 + 1 == c => last.1 = c,
            _ => out.push((c, c)),
        }
    }
    out
}

fn parse_ranges(line: &str) -> Vec<(u32, u32)> {
    line.split_whitespace()
        .map(|r| {
            let (lo, hi) = r.split_once('-').unwrap();
            (
                u32::from_str_radix(lo, 16).unwrap(),
                u32::from_str_radix(hi, 16).unwrap(),
            )
        })
        .collect()
}

/// D.1 and D.2 (embedded here) and A.1 (from the `stringprep` crate) against CPython's
/// Unicode 3.2 data, over every code point.
#[test]
fn tables_match_python_unicode_3_2() {
    if !python3_available() {
        skip("python3 with encodings.idna not found; Unicode 3.2 tables not cross-checked");
        return;
    }
    let script = r#"
import stringprep
def ranges(pred):
    out, start = [], None
    for c in range(0x110001):
        ok = c < 0x110000 and not (0xD800 <= c < 0xE000) and pred(chr(c))
        if ok and start is None: start = c
        if not ok and start is not None:
            out.append('%X-%X' % (start, c - 1)); start = None
    return ' '.join(out)
print(ranges(stringprep.in_table_d1))
print(ranges(stringprep.in_table_d2))
print(ranges(stringprep.in_table_a1))
"#;
    let out = run_python(script, "");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3);
    let to_u32 = |t: &[(char, char)]| -> Vec<(u32, u32)> {
        t.iter().map(|&(a, b)| (a as u32, b as u32)).collect()
    };
    assert_eq!(parse_ranges(lines[0]), to_u32(D_1), "D.1");
    assert_eq!(parse_ranges(lines[1]), to_u32(D_2), "D.2");
    assert_eq!(
        parse_ranges(lines[2]),
        ranges_of(rfc3454::unassigned_code_point),
        "A.1"
    );
}

/// Script groups for the generated labels. No label separator except U+FF0E (which
/// Nameprep maps to '.', inside one label), no newline.
const GROUPS: &[&str] = &[
        "abcdefghijklmnopqrstuvwxyz0123456789-",
        "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
        "\u{DF}\u{E9}\u{C9}\u{FC}\u{DC}\u{F1}\u{D1}\u{E7}\u{C7}\u{F8}\u{D8}\u{E5}\u{C5}\u{130}\u{131}\u{17F}\u{1C5}\u{149}\u{E6}\u{C6}\u{153}\u{152}\u{F0}\u{DE}\u{FE}",
        "\u{3B1}\u{3B2}\u{3B3}\u{3B4}\u{3A3}\u{3C3}\u{3C2}\u{386}\u{3AC}\u{390}\u{3B0}\u{3D0}\u{3D2}\u{B5}\u{3A9}\u{3C9}\u{345}",
        "\u{430}\u{431}\u{432}\u{433}\u{434}\u{416}\u{417}\u{418}\u{419}\u{451}\u{401}\u{44F}\u{42F}",
        "\u{4E2D}\u{6587}\u{5B57}\u{65E5}\u{672C}\u{8A9E}\u{6F22}\u{3400}\u{20000}\u{3042}\u{304C}\u{304B}\u{30AB}\u{30AC}\u{30AD}\u{FF76}\u{FF9E}\u{FF77}\u{FF9F}\u{3300}\u{337F}",
        "\u{AC00}\u{AC01}\u{D55C}\u{AD6D}\u{1100}\u{1161}\u{11A8}",
        "\u{627}\u{628}\u{629}\u{639}\u{644}\u{645}\u{FEFB}\u{660}\u{661}\u{662}\u{61F}\u{640}\u{FDFA}\u{64B}",
        "\u{5D0}\u{5D1}\u{5D2}\u{5E9}\u{5EA}\u{FB21}\u{5B4}",
        "\u{301}\u{308}\u{327}\u{316}\u{300}",
        "\u{FB01}\u{B2}\u{216B}\u{2121}\u{338F}\u{2460}\u{FF21}\u{FF5A}\u{2179}\u{FF2B}\u{B9}\u{2F874}\u{F951}\u{2F868}\u{2F9BF}",
        "\u{AD}\u{200B}\u{200C}\u{200D}\u{FEFF}\u{FE0F}\u{34F}",
        "\u{A0}\u{3000}\u{2028}\u{FFFD}\u{E000}\u{200E}\u{2FF0} \u{FF0E}@_",
        "\u{221}\u{234}\u{237}",
        "\u{915}\u{916}\u{93F}\u{94D}\u{93E}\u{E01}\u{E02}\u{E40}\u{2801}",
    ];

/// Fixed labels worth having in the comparison.
const FIXED: &[&str] = &[
    "",
    "a",
    "fa\u{DF}",
    "\u{3A3}\u{391}\u{3A3}",
    "xn--\u{FC}",
    "XN--\u{FC}",
    "\u{FF58}\u{FF4E}--\u{FC}",
    "-\u{FC}-",
    "\u{FC}_",
    "\u{FDFA}",
    "\u{FDFA}\u{FDFA}\u{FDFA}\u{FDFA}",
    "\u{627}1",
    "\u{627}1\u{628}",
    "\u{5D0}a\u{5D1}",
    "\u{627}\u{2801}\u{628}",
    "\u{B47}\u{300}\u{B3E}",
    "newnorm\u{2F874}\u{ED}dn",
    "\u{1E9E}",
];

#[test]
fn differential_against_python_encodings_idna() {
    if !python3_available() {
        skip("python3 with encodings.idna not found; differential test not run");
        return;
    }
    // Contract item 9: CPython's stringprep.map_table_b2 is derived from today's case
    // mappings and differs from RFC 3454 table B.2 on about 680 code points. Code points of
    // the alphabet where the two differ are left out of the generated labels.
    let alphabet: Vec<char> = GROUPS
        .concat()
        .chars()
        .chain(FIXED.concat().chars())
        .collect::<BTreeSet<char>>()
        .into_iter()
        .filter(|&c| c != '\n')
        .collect();
    let b2_script = "import sys, stringprep\n\
            for ch in sys.stdin.read():\n    \
            print(' '.join('%X' % ord(x) for x in stringprep.map_table_b2(ch)))\n";
    let py_b2 = run_python(b2_script, &alphabet.iter().collect::<String>());
    let py_b2: Vec<&str> = py_b2.lines().collect();
    assert_eq!(py_b2.len(), alphabet.len());
    let mut left_out = BTreeSet::new();
    for (&c, py) in alphabet.iter().zip(&py_b2) {
        let ours: Vec<String> = if rfc3454::commonly_mapped_to_nothing(c) {
            // B.1 runs first; Python never asks B.2 about these.
            continue;
        } else {
            rfc3454::case_fold_for_nfkc(c)
                .map(|x| format!("{:X}", x as u32))
                .collect()
        };
        if ours.join(" ") != *py {
            left_out.insert(c);
        }
    }
    for c in &left_out {
        eprintln!(
            "left out U+{:04X}: CPython's table B.2 differs from RFC 3454's (contract item 9)",
            *c as u32
        );
    }
    let groups: Vec<Vec<char>> = GROUPS
        .iter()
        .map(|g| g.chars().filter(|c| !left_out.contains(c)).collect())
        .filter(|g: &Vec<char>| !g.is_empty())
        .collect();
    let all: Vec<char> = groups.concat();

    // ~300 labels: fixed ones, then generated ones of several shapes.
    let mut rng = Rng(0x0DDC_0FFE_E15E_A5E1);
    let mut labels: Vec<String> = FIXED
        .iter()
        .filter(|l| !l.chars().any(|c| left_out.contains(&c)))
        .map(|l| l.to_string())
        .collect();
    let pick = |rng: &mut Rng, set: &[char]| set[rng.below(set.len() as u64) as usize];
    // From `a` one time in `n`, else from `b`.
    let mix = |rng: &mut Rng, n: u64, a: &[char], b: &[char]| {
        let set = if rng.below(n) == 0 { a } else { b };
        set[rng.below(set.len() as u64) as usize]
    };
    let mut i = 0u64;
    while labels.len() < 300 {
        i += 1;
        let group = &groups[rng.below(groups.len() as u64) as usize];
        let ascii = &groups[0];
        let len = 1 + rng.below(14) as usize;
        let label: String = match i % 6 {
            // ASCII, mixed case.
            0 => (0..len)
                .map(|_| mix(&mut rng, 2, ascii, &groups[1]))
                .collect(),
            // One group with ASCII.
            1 => (0..len).map(|_| mix(&mut rng, 3, ascii, group)).collect(),
            // One group only (right-to-left groups then pass the bidi rule).
            2 => (0..len).map(|_| pick(&mut rng, group)).collect(),
            // Anything.
            3 => (0..len).map(|_| pick(&mut rng, &all)).collect(),
            // Long: around the 63-octet limit.
            4 => {
                let len = 40 + rng.below(40) as usize;
                (0..len).map(|_| mix(&mut rng, 4, group, ascii)).collect()
            }
            // An ASCII word around one special code point.
            _ => {
                let mut s: String = (0..len).map(|_| pick(&mut rng, ascii)).collect();
                let at = rng.below(s.len() as u64 + 1) as usize;
                let at = (0..=at).rev().find(|&k| s.is_char_boundary(k)).unwrap();
                s.insert(at, pick(&mut rng, &all));
                s
            }
        };
        labels.push(label);
    }

    let script = "import sys, encodings.idna as I\n\
            data = sys.stdin.buffer.read().decode('utf-8')\n\
            out = []\n\
            for label in data.split('\\n')[:-1]:\n    \
            try:\n        \
            out.append('OK\\t' + I.ToASCII(label).decode('ascii'))\n    \
            except Exception as e:\n        \
            out.append('ERR\\t' + type(e).__name__)\n\
            sys.stdout.write('\\n'.join(out) + '\\n')\n";
    let input: String = labels.iter().map(|l| format!("{l}\n")).collect();
    let out = run_python(script, &input);
    let answers: Vec<&str> = out.lines().collect();
    assert_eq!(answers.len(), labels.len());
    let (mut oks, mut errs) = (0, 0);
    let mut diffs = Vec::new();
    for (label, py) in labels.iter().zip(answers) {
        let ours = to_ascii(label, PYTHON_FLAGS);
        let same = match (&ours, py.split_once('\t')) {
            (Ok(a), Some(("OK", b))) => a == b,
            (Err(_), Some(("ERR", _))) => true,
            // Python's label ToASCII returns a full stop that Nameprep made from U+FF0E,
            // U+3002, U+FF61 or a dot leader; we refuse it (DotInLabel: it would split
            // the label, RFC 3490 §3.1).
            (Err(Error::DotInLabel), Some(("OK", b))) => b.contains('.'),
            _ => false,
        };
        match (&ours, same) {
            (Ok(_), true) => oks += 1,
            (Err(_), true) => errs += 1,
            _ => diffs.push(format!("{label:?}: ours {ours:?}, python {py:?}")),
        }
    }
    println!(
        "{} labels: {oks} agree on a result, {errs} agree on an error",
        labels.len()
    );
    assert!(
        oks > 100 && errs > 20,
        "the generated labels are not varied enough"
    );
    assert!(diffs.is_empty(), "differences:\n{}", diffs.join("\n"));
}
