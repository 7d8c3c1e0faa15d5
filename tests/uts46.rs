//! UTS #46 conformance of our IDNA host path against the Unicode conformance file
//! `IdnaTestV2-unicode16.txt` (Unicode 16.0.0, the file the `idna` 1.1 crate tests itself
//! with), read at test time from `../shared/conformance/` (never copied into this repository).
//! The character data our build actually runs is newer: see [`EXPECTED_DIFFERENCES`].
//!
//! We use non-transitional processing, so the columns that matter are source, toUnicode (only
//! as the default of toAsciiN), toUnicodeStatus (only as the default of toAsciiNStatus),
//! toAsciiN and toAsciiNStatus. What the file's status codes mean for *our* flags is decided by
//! [`expected`], with the header lines and UTS #46 sections that justify each rule.
//!
//! Header line numbers cited below are those of the Unicode 16.0.0 file.

mod common;

use iribulk::host::{is_label_dot, to_ascii, Idna, MAX_RAW_HOST, MAX_RAW_LABEL};
use iribulk::Converter as _;
use iribulk::{ErrorKind, HostMode, ToUri, ToUriOptions};
use std::collections::BTreeSet;
use std::path::Path;
use std::time::Instant;

const FILE: &str = "conformance/IdnaTestV2-unicode16.txt";

/// Rows where our `to_ascii` legitimately differs from what [`expected`] derives from the file:
/// (line number in the file, source as written in the file, reason). A listed row that starts
/// matching, or whose source is not the one listed, fails the test, so the list cannot go
/// stale.
///
/// All of them have one cause: the `idna` 1.1 crate takes its mapping and validity data from
/// ICU4X through `idna_adapter` 1.2, and the lock file resolves that to `icu_normalizer_data`
/// 2.4, "generated with … Unicode version 18.0.0" (its README). Code points that are unassigned
/// in Unicode 16 — hence disallowed, V7 — are valid there. A probe of every supplementary code
/// point shows the new valid ranges are exactly CJK Extension J (U+323B0..U+33479, Unicode 17)
/// and U+3D000..U+3FC3F (Unicode 18). Each listed row must still give the file's toAsciiN value:
/// only the verdict on that one code point differs.
const EXPECTED_DIFFERENCES: &[(usize, &str, &str)] = &[
    (
        3386,
        "xn--5cb172r175fug38a.xn--mlj",
        "decodes to U+3F8CD, unassigned in Unicode 16 (V7), valid in our Unicode 18 data",
    ),
    (
        4219,
        "\u{32931}20.\u{97F3}.\u{A866}1.",
        "U+32931 is CJK Ext. J (Unicode 17), not V7 for us; the A4_2 left is the root dot (rule 2); \
         the Unicode 17 file gives [A4_2]",
    ),
    (
        4220,
        "xn--20-9802c.xn--0w5a.xn--1-eg4e.",
        "decodes to U+32931, CJK Ext. J (Unicode 17); A4_2 left is the root dot (rule 2)",
    ),
    (
        4405,
        "xn--9-i0j5967eg3qz.ss",
        "decodes to U+32B9A, CJK Ext. J (Unicode 17); the Unicode 17 file has no errors",
    ),
    (
        5858,
        "\u{3E8AC}\u{3002}\\u0729\u{3002}\u{CBD9}5",
        "U+3E8AC, unassigned in Unicode 16 (V7), valid in our Unicode 18 data",
    ),
    (
        5859,
        "\u{3E8AC}\u{3002}\\u0729\u{3002}\u{110D}\u{1173}\u{11AC}5",
        "as line 5858 with the Hangul syllable decomposed: U+3E8AC valid in our Unicode 18 data",
    ),
    (
        5860,
        "xn--t92s.xn--znb.xn--5-y88f",
        "decodes to U+3E8AC, unassigned in Unicode 16 (V7), valid in our Unicode 18 data",
    ),
];

/// The flag table of the header (lines 75–82): "Implementations that allow values of
/// particular input flags to be false would ignore the corresponding status codes listed in the
/// table below when testing for errors." Each entry: the flag, its value in our
/// `iribulk::host::to_ascii(_, Idna::Uts46, _)`, and the codes it governs (a code ending in
/// `n` is a family: `Cn` is C1, C2, …).
const FLAG_TABLE: &[(&str, bool, &[&str])] = &[
    // DnsLength::VerifyAllowRootDot is VerifyDnsLength=true except for the empty root label
    // (handled by the root-dot rule of `expected`, not by ignoring A4_*).
    ("VerifyDnsLength", true, &["A4_1", "A4_2"]),
    // Hyphens::Check is CheckHyphens=true.
    ("CheckHyphens", true, &["V2", "V3"]),
    // The `idna` 1.1 crate docs: "CheckJoiners - Always true; cannot be configured" (the
    // ContextJ criterion of UTS #46 §4.1, RFC 5892 Appendix A.1/A.2)…
    ("CheckJoiners", true, &["Cn"]),
    // …and "CheckBidi - Always true; cannot be configured" (§4.1, the RFC 5893 rules).
    ("CheckBidi", true, &["Bn"]),
    // AsciiDenyList::STD3 is UseSTD3ASCIIRules=true (RFC 3987 §3.1 asks for it).
    ("UseSTD3ASCIIRules", true, &["U1"]),
];

/// What our `to_ascii` must give for one row.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Expect {
    /// Success with exactly this ASCII host.
    Ascii(String),
    /// Any error. Header lines 97–98: "Implementations need only record that there is an
    /// error: they need not reproduce the precise status codes (after removing the ignored
    /// status values)."
    Error,
}

/// True if `code` (e.g. `C2`) is governed by the table entry `pattern` (e.g. `Cn` or `V3`).
fn code_matches(pattern: &str, code: &str) -> bool {
    match pattern.strip_suffix('n') {
        Some(family) => code
            .strip_prefix(family)
            .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit())),
        None => pattern == code,
    }
}

/// DNS length rules of UTS #46 §4.2 ToASCII step 4 (VerifyDnsLength): "The length of the
/// domain name, excluding the root label and its dot, is from 1 to 253" and "The length of
/// each label is from 1 to 63" — here applied to a name *without* its root label.
fn dns_lengths_ok(name: &str) -> bool {
    (1..=253).contains(&name.len()) && name.split('.').all(|l| (1..=63).contains(&l.len()))
}

/// The expected result of our `to_ascii` for a row with `status_codes` (the effective
/// toAsciiNStatus) and `to_ascii_value` (the effective toAsciiN).
fn expected(status_codes: &BTreeSet<String>, to_ascii_value: &str) -> Expect {
    // Rule 1 (header lines 75–82): drop the codes of every flag that is false for us. All five
    // flags are true in our configuration, so nothing is dropped today; the table is kept so a
    // change of flags changes the expectations in one place.
    let codes: BTreeSet<&str> = status_codes
        .iter()
        .map(String::as_str)
        .filter(|code| {
            !FLAG_TABLE
                .iter()
                .any(|(_, on, patterns)| !on && patterns.iter().any(|p| code_matches(p, code)))
        })
        .collect();
    if codes.is_empty() {
        // No errors: the toAsciiN value, exactly (header lines 34–37).
        return Expect::Ascii(to_ascii_value.to_string());
    }
    // Rule 2 (root dot). The file reports a trailing root dot as A4_2 under
    // VerifyDnsLength=true: `a.b.c.d.; ; ; ; [A4_2]` (line 277), i.e. it reads UTS #46 §4.2
    // step 4 as wanting every label, the empty root label included, to be 1–63 octets (only
    // the *name* length rule excludes "the root label and its dot"). We run DnsLength::VerifyAllowRootDot,
    // the `idna` crate's "VerifyDNSLength=true with the exception that the trailing root label
    // dot is allowed" (CONTRACT item 6: a trailing root dot in a host is kept). So a row whose
    // only error is A4_2 succeeds for us exactly when that A4_2 comes from the root label alone:
    // the value ends in '.', and without that dot it passes both length rules of §4.2 step 4
    // (it is non-empty, ≤ 253 octets, and has no empty or over-long label). A4_1 (name length)
    // is computed by the file with the root label already excluded, so it is never relaxed.
    if codes.len() == 1 && codes.contains("A4_2") {
        if let Some(without_root) = to_ascii_value.strip_suffix('.') {
            if dns_lengths_ok(without_root) {
                return Expect::Ascii(to_ascii_value.to_string());
            }
        }
    }
    // Rule 3: every other remaining code is an error for us too — the V*, P*, A3, B*, C*, U1,
    // A4_* codes, and X4_2, which "is now returned where a toASCII error code was formerly being
    // generated" for an empty label (header lines 100–104) and so is an A4_2 for ToASCII.
    Expect::Error
}

/// Our raw caps, checked before any mapping (`MAX_RAW_HOST` bytes a host, `MAX_RAW_LABEL`
/// bytes a label between the four RFC 3490 §3.1 dots): beyond them we fail whatever UTS #46
/// says. A stricter implementation is allowed (header lines 88–91: "Implementations may be
/// more strict than the default settings"). No row of the Unicode 16 file reaches them (the
/// longest source is 254 bytes, the longest raw label 116), but the rule keeps the test right
/// for other versions of the file.
fn raw_caps_exceeded(source: &str) -> bool {
    source.len() > MAX_RAW_HOST || source.split(is_label_dot).any(|l| l.len() > MAX_RAW_LABEL)
}

/// True if `s` contains a `%HH` triplet. Our `to_ascii` percent-decodes the host before IDNA
/// (3987bis §3.4.2), so for such a source the file (which knows nothing of percent-encoding)
/// does not describe our result; those rows are skipped and counted. A `%` that does not start
/// a triplet makes decoding fail — an error, as in the file, where '%' is U1 under STD3 — so
/// those rows are checked normally. (The Unicode 16 file has three `%` rows, none a triplet.)
fn has_percent_triplet(s: &str) -> bool {
    s.as_bytes()
        .windows(3)
        .any(|w| w[0] == b'%' && w[1].is_ascii_hexdigit() && w[2].is_ascii_hexdigit())
}

/// A cell that escapes an unpaired surrogate (`\uD900`): not representable in a Rust `str`.
#[derive(Clone, Debug)]
struct IllFormed;

/// Header lines 16–17: characters "may be escaped using the \uXXXX or \x{XXXX} convention".
/// Any other backslash is kept as it is.
fn unescape(cell: &str) -> Result<String, IllFormed> {
    let mut out = String::with_capacity(cell.len());
    let mut rest = cell;
    while let Some(i) = rest.find('\\') {
        out.push_str(&rest[..i]);
        rest = &rest[i..];
        let (hex, len) = if let Some(r) = rest.strip_prefix("\\x{") {
            let end = r.find('}').expect("\\x{...} is closed");
            (&r[..end], 3 + end + 1)
        } else if rest.starts_with("\\u") && rest.len() >= 6 {
            (&rest[2..6], 6)
        } else {
            out.push('\\');
            rest = &rest[1..];
            continue;
        };
        let cp = u32::from_str_radix(hex, 16).unwrap_or_else(|_| panic!("bad escape in {cell}"));
        out.push(char::from_u32(cp).ok_or(IllFormed)?);
        rest = &rest[len..];
    }
    out.push_str(rest);
    Ok(out)
}

/// One value column (source, toUnicode, toAsciiN): `None` when blank (the header's "A blank
/// value means the same as …"), `Some("")` for `""` ("\"\" means the empty string").
fn value_cell(cell: &str) -> Option<Result<String, IllFormed>> {
    match cell {
        "" => None,
        "\"\"" => Some(Ok(String::new())),
        _ => Some(unescape(cell)),
    }
}

/// One status column: `None` when blank, `Some(set)` for `[]` or `[A, B]`.
fn status_cell(cell: &str) -> Option<BTreeSet<String>> {
    if cell.is_empty() {
        return None;
    }
    let inner = cell
        .strip_prefix('[')
        .and_then(|c| c.strip_suffix(']'))
        .unwrap_or_else(|| panic!("status {cell:?} is not in brackets"));
    Some(
        inner
            .split(',')
            .map(str::trim)
            .filter(|c| !c.is_empty())
            .map(str::to_string)
            .collect(),
    )
}

/// A row with the header's defaults applied.
struct Row {
    /// 1-based line number in the file.
    line: usize,
    /// The source column as written (escapes kept), for labels.
    raw_source: String,
    /// The source, or `IllFormed` if it escapes an unpaired surrogate.
    source: Result<String, IllFormed>,
    /// Effective toAsciiN (non-transitional).
    to_ascii_n: Result<String, IllFormed>,
    /// Effective toAsciiNStatus.
    status: BTreeSet<String>,
}

fn read_rows(path: &Path) -> Vec<Row> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut rows = Vec::new();
    for (i, line) in text.lines().enumerate() {
        // Header line 22: "Comments are indicated with hash marks." No source contains '#'.
        let data = line.split('#').next().unwrap_or("");
        if data.trim().is_empty() {
            continue;
        }
        // Header lines 20–21: semicolon-separated, "Leading and trailing spaces and tabs in
        // each column are ignored."
        let cols: Vec<&str> = data
            .split(';')
            .map(|c| c.trim_matches([' ', '\t']))
            .collect();
        assert!(cols.len() >= 5, "line {}: {} columns", i + 1, cols.len());
        let source = value_cell(cols[0]).unwrap_or_else(|| panic!("line {}: no source", i + 1));
        // Column 2: "A blank value means the same as the source value."
        let to_unicode = value_cell(cols[1]).unwrap_or_else(|| source.clone());
        // Column 3: "A blank value means [] (no errors)."
        let to_unicode_status = status_cell(cols[2]).unwrap_or_default();
        // Column 4: "A blank value means the same as the toUnicode value."
        let to_ascii_n = value_cell(cols[3]).unwrap_or(to_unicode);
        // Column 5: "A blank value means the same as the toUnicodeStatus value. An explicit []
        // means no errors."
        let status = status_cell(cols[4]).unwrap_or(to_unicode_status);
        rows.push(Row {
            line: i + 1,
            raw_source: cols[0].to_string(),
            source,
            to_ascii_n,
            status,
        });
    }
    rows
}

fn our_to_ascii(source: &str) -> Result<String, String> {
    let mut out = String::new();
    to_ascii(source, Idna::Uts46, &mut out)
        .map(|()| out)
        .map_err(|e| format!("{e:?}"))
}

/// Per row: our `to_ascii(source, Idna::Uts46)` against [`expected`].
#[test]
fn idna_test_v2_unicode16_to_ascii_n() {
    let Some(shared) = common::shared_dir() else {
        return;
    };
    let started = Instant::now();
    let rows = read_rows(&shared.join(FILE));
    assert!(rows.len() > 6000, "{FILE} has {} rows", rows.len());

    let (mut checked, mut matched, mut ill_formed, mut percent, mut capped, mut root_dot) =
        (0, 0, 0, 0, 0, 0);
    // Unlisted mismatches and stale or wrong EXPECTED_DIFFERENCES entries.
    let mut problems: Vec<String> = Vec::new();
    let mut listed: Vec<usize> = Vec::new();
    for row in &rows {
        // Header lines 84–86: "Implementations that cannot work with ill-formed strings would
        // skip test cases that contain them": lines 548–549, whose source escapes the unpaired
        // surrogate `\uD900`, which a `&str` cannot hold.
        let Ok(source) = &row.source else {
            ill_formed += 1;
            continue;
        };
        if has_percent_triplet(source) {
            percent += 1;
            continue;
        }
        let want = if raw_caps_exceeded(source) {
            capped += 1;
            Expect::Error
        } else {
            match &row.to_ascii_n {
                Ok(v) => expected(&row.status, v),
                // An ill-formed toAsciiN can only come with errors (A3 / V7).
                Err(IllFormed) => {
                    assert!(
                        !row.status.is_empty(),
                        "line {}: ill-formed value",
                        row.line
                    );
                    Expect::Error
                }
            }
        };
        if want != Expect::Error && !row.status.is_empty() {
            root_dot += 1;
        }
        checked += 1;
        let got = our_to_ascii(source);
        let ok = match (&want, &got) {
            (Expect::Ascii(w), Ok(g)) => w == g,
            (Expect::Error, Err(_)) => true,
            _ => false,
        };
        let label = format!(
            "line {} {:?} status {:?}: want {want:?}, got {got:?}",
            row.line, row.raw_source, row.status
        );
        match (ok, EXPECTED_DIFFERENCES.iter().find(|d| d.0 == row.line)) {
            (true, None) => matched += 1,
            (true, Some(d)) => {
                matched += 1;
                problems.push(format!("{label}: listed ({}) but now matches", d.2));
            }
            (false, None) => problems.push(format!("{label}: MISMATCH")),
            (false, Some(d)) => {
                if d.1 != row.raw_source {
                    problems.push(format!("{label}: listed for source {:?}", d.1));
                } else if got.as_ref().ok() != row.to_ascii_n.as_ref().ok() {
                    problems.push(format!("{label}: listed, but not the file's toAsciiN"));
                } else {
                    listed.push(row.line);
                }
            }
        }
    }
    for d in EXPECTED_DIFFERENCES {
        if !listed.contains(&d.0)
            && !problems
                .iter()
                .any(|p| p.starts_with(&format!("line {} ", d.0)))
        {
            problems.push(format!("line {} {:?}: listed but not checked", d.0, d.1));
        }
    }
    println!(
        "uts46 {FILE}: {} rows, {checked} checked, {matched} matched, {} listed differences \
         ({root_dot} passed by the root-dot rule; skipped: {ill_formed} ill-formed, {percent} \
         with %HH; {capped} over our raw caps) in {:.2?}",
        rows.len(),
        listed.len(),
        started.elapsed()
    );
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// True for a character that is structural in a URI, or a control: such a source would not be
/// one host in `http://{source}/` (`/ ? # @ : [ ]` end or split the authority, `%` starts a
/// percent-encoding that the converter checks and decodes, a space or a control is refused or
/// percent-encoded before IDNA), so those rows do not test the host path and are skipped.
fn is_structural(c: char) -> bool {
    matches!(c, '/' | '?' | '#' | '@' | ':' | '[' | ']' | '%' | ' ') || c.is_control()
}

/// RFC 3986 `reg-name` characters other than `%`: unreserved and sub-delims.
fn is_reg_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || "-._~!$&'()*+,;=".contains(c)
}

/// The IDNA host path through the whole converter, for every 50th row: with
/// `HostMode::Uts46`, `http://{source}/` must become `http://{toAsciiN}/` exactly when our
/// `to_ascii` succeeds, and be an IDNA error when it fails.
#[test]
fn idna_test_v2_unicode16_through_the_converter() {
    let Some(shared) = common::shared_dir() else {
        return;
    };
    let rows = read_rows(&shared.join(FILE));
    let mut conv = ToUri::new(ToUriOptions::default().host(HostMode::Uts46));
    let (mut sampled, mut checked, mut ascii, mut skipped) = (0, 0, 0, 0);
    // ASCII hosts the converter keeps although `to_ascii` would change them (`FASS.DE`).
    let mut ascii_idna_differs = 0;
    let mut failures = Vec::new();
    for row in rows.iter().step_by(50) {
        sampled += 1;
        let (Ok(source), Ok(to_ascii_n)) = (&row.source, &row.to_ascii_n) else {
            skipped += 1; // ill-formed (header lines 84–86)
            continue;
        };
        // An empty source is no host at all (`http:///`), and structural characters split the
        // host differently from the file: see `is_structural`.
        if source.is_empty() || source.chars().any(is_structural) {
            skipped += 1;
            continue;
        }
        let label = format!("line {} {:?}", row.line, row.raw_source);
        let line = format!("http://{source}/");
        let mut out = Vec::new();
        let got = conv
            .convert_or_copy_into(line.as_bytes(), &mut out)
            .map(|_| String::from_utf8_lossy(&out).into_owned());
        if source.is_ascii() {
            // CONTRACT item 2: an all-ASCII host passes through the converter unchanged and
            // unchecked (it never reaches IDNA), so the file's toAsciiN does not apply. Check
            // that promise where the host is plain reg-name characters; other ASCII (`<`, `\`,
            // …) is the general percent-encoding's business, tested elsewhere.
            if source.chars().all(is_reg_name_char) {
                ascii += 1;
                if our_to_ascii(source).is_ok_and(|s| s != *source) {
                    ascii_idna_differs += 1;
                }
                if got.as_deref() != Ok(line.as_str()) {
                    failures.push(format!("{label}: ASCII host changed: {got:?}"));
                }
            } else {
                skipped += 1;
            }
            continue;
        }
        checked += 1;
        match (our_to_ascii(source), got) {
            // Where `to_ascii` succeeds its value is the file's toAsciiN (checked row by row,
            // listed differences included, by the test above).
            (Ok(_), Ok(uri)) => {
                if uri != format!("http://{to_ascii_n}/") {
                    failures.push(format!("{label}: got {uri:?}, want http://{to_ascii_n}/"));
                }
            }
            (Err(_), Err(e)) if matches!(e.kind, ErrorKind::Idna(_)) => {}
            (ours, got) => {
                failures.push(format!("{label}: to_ascii {ours:?} but converter {got:?}"));
            }
        }
    }
    println!(
        "uts46 converter sample of {FILE}: {sampled} rows sampled, {checked} non-ASCII hosts \
         checked, {ascii} ASCII hosts checked unchanged ({ascii_idna_differs} of them changed by \
         to_ascii), {skipped} skipped"
    );
    assert!(checked > 50, "only {checked} rows checked");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
