//! Why UTS #46 ToASCII refused a host: which rule, on which label.
//!
//! The `idna` crate answers a failed ToASCII (UTS #46 §4.2, non-transitional, with the flags of
//! [`crate::host::to_ascii`]: `UseSTD3ASCIIRules`, `CheckHyphens`, `CheckBidi`, `CheckJoiners`,
//! `VerifyDnsLength` with the root dot allowed) with one opaque error. This module runs on the
//! cold path only, after such a failure, and walks the steps of UTS #46 §4 label by label to
//! name the first rule that fails:
//!
//! 1. Map (§4 step 1): a code point that is `disallowed` ([`Uts46Rule::Disallowed`]); the
//!    mapping is the one `idna` uses (`idna_adapter`).
//! 2. Break into labels at `.` (§4 step 3); an empty label other than the root is refused by
//!    VerifyDnsLength ([`Uts46Rule::EmptyLabel`]).
//! 3. Convert/Validate (§4 step 4): an `xn--` label must hold ASCII, decode as Punycode
//!    (RFC 3492) to something not all-ASCII ([`Uts46Rule::InvalidPunycode`]), in NFC
//!    ([`Uts46Rule::NotNfc`]) and of valid code points only (§4.1 V7, [`Uts46Rule::Disallowed`]).
//! 4. Validity criteria (§4.1) of each label: STD3 ASCII deny list (V7 with
//!    UseSTD3ASCIIRules, [`Uts46Rule::Std3Ascii`]); CheckHyphens (V2 `--` in the 3rd and 4th
//!    positions, [`Uts46Rule::HyphenThirdFourth`]; V3 leading or trailing `-`,
//!    [`Uts46Rule::HyphenStartEnd`]); V6 a combining mark first ([`Uts46Rule::LeadingMark`]);
//!    CheckJoiners, RFC 5892 Appendix A.1/A.2 ([`Uts46Rule::ContextJ`]).
//! 5. CheckBidi: the Bidi Rule of RFC 5893 §2, on every label of a domain that holds an R, AL
//!    or AN character ([`Uts46Rule::Bidi`] with the rule number 1–6).
//! 6. ToASCII §4.2 step 4, VerifyDnsLength: a label over 63 octets
//!    ([`Uts46Rule::LabelTooLong`]) or a name over 253 ([`Uts46Rule::NameTooLong`]).
//!
//! If none fails, the answer is [`Uts46Rule::Unknown`] (the tests assert that no refused host
//! of the shared IDNA data sets gets it).

use crate::grammar::joiner;
use unicode_bidi::BidiClass;

pub use crate::error::{Uts46Failure, Uts46Rule};

/// Names the first rule of UTS #46 ToASCII that `host` breaks (see the module documentation
/// for the order). `host` is what [`crate::host::to_ascii`] gives UTS #46: the host after
/// percent-decoding. Cold path: call it only after ToASCII failed.
///
/// ```
/// use iribulk::host::uts46_reason::{diagnose, Uts46Rule};
/// let d = diagnose("ok.a\u{E000}b.de");
/// assert_eq!((d.rule, d.label), (Uts46Rule::Disallowed('\u{E000}'), Some(1)));
/// assert_eq!(d.to_string(), "UTS #46 ToASCII: label 2: disallowed code point U+E000");
/// ```
pub fn diagnose(host: &str) -> Uts46Failure {
    let a = idna_adapter::Adapter::new();
    let fail = |rule, label| Uts46Failure { rule, label };
    // 1. Map, one code point at a time (to name the disallowed one), counting labels.
    let mut mapped = String::new();
    let mut label = 0;
    let mut to_ascii: Vec<(usize, char, String)> = Vec::new();
    for c in host.chars() {
        let m: String = a.map_normalize(std::iter::once(c)).collect();
        if m.contains('\u{FFFD}') {
            return fail(Uts46Rule::Disallowed(c), Some(label));
        }
        // A non-ASCII character mapped to ASCII that STD3 denies (U+00A0 to a space, U+FF3F
        // to '_'): remembered to name the character as written, if NFC keeps that ASCII.
        if !c.is_ascii() && m.chars().any(|m| m.is_ascii() && m != '.' && !is_ldh(m)) {
            to_ascii.push((label, c, m.clone()));
        }
        label += m.matches('.').count();
        mapped.push_str(&m);
    }
    // NFC over the whole mapped string, as UTS #46 §4 step 2.
    let mapped: String = a.map_normalize(mapped.chars()).collect();
    // 2. Labels; the root label (empty, last) is allowed.
    let mut labels: Vec<&str> = mapped.split('.').collect();
    if labels.len() > 1 && labels.last() == Some(&"") {
        labels.pop();
    }
    // 3, 4. Convert and validate each label.
    let mut unicode: Vec<String> = Vec::with_capacity(labels.len());
    for (i, l) in labels.iter().enumerate() {
        let u = match validate_label(&a, l) {
            Ok(u) => u,
            Err(Uts46Rule::Std3Ascii(m)) => {
                // Name the character as written when one of this label mapped to `m`.
                let raw = to_ascii
                    .iter()
                    .find(|(li, _, s)| *li == i && s.contains(m))
                    .map_or(m, |&(_, c, _)| c);
                return fail(Uts46Rule::Std3Ascii(raw), Some(i));
            }
            Err(rule) => return fail(rule, Some(i)),
        };
        unicode.push(u);
    }
    // 5. CheckBidi on a bidi domain name (RFC 5893 §1.4: a label holds R, AL or AN).
    let bidi_domain = unicode.iter().any(|l| {
        l.chars().any(|c| {
            matches!(
                unicode_bidi::bidi_class(c),
                BidiClass::R | BidiClass::AL | BidiClass::AN
            )
        })
    });
    if bidi_domain {
        for (i, l) in unicode.iter().enumerate() {
            if let Some(n) = bidi_rule(l) {
                return fail(Uts46Rule::Bidi(n), Some(i));
            }
        }
    }
    // 6. VerifyDnsLength on the ASCII form.
    let mut total = 0;
    for (i, l) in unicode.iter().enumerate() {
        let n = if l.is_ascii() {
            l.len()
        } else {
            4 + idna::punycode::encode_str(l).map_or(usize::MAX / 4, |p| p.len())
        };
        if n > 63 {
            return fail(Uts46Rule::LabelTooLong(n), Some(i));
        }
        total += n + usize::from(i > 0);
    }
    if total > 253 {
        return fail(Uts46Rule::NameTooLong(total), None);
    }
    fail(Uts46Rule::Unknown, None)
}

/// Where in `host` (the text [`diagnose`] was given) the failure `f` lies, as a byte offset:
/// the character a rule names (a disallowed code point, a character that maps to ASCII STD3
/// denies, a leading mark, a joiner out of context), found as written in its label, else the
/// start of the label a rule names (an invalid `xn--` label, a hyphen, a bidi rule, a label too
/// long; a code point that only a Punycode label holds), else `None` (a rule of the whole
/// name). The labels are found as §4 step 1 makes them: a character whose mapping holds `.`
/// (`.`, U+3002, U+FF0E, U+FF61) ends one. Cold path, like [`diagnose`]: a report's column
/// points at the fault (issue #10's "byte column in the input line"), not at the host's start.
///
/// ```
/// use iribulk::host::uts46_reason::{diagnose, fault_offset};
/// let host = "ok.a\u{E000}b.de";
/// assert_eq!(fault_offset(host, &diagnose(host)), Some(4));
/// let host = "ok.-ab.de";
/// assert_eq!(fault_offset(host, &diagnose(host)), Some(3));
/// ```
pub fn fault_offset(host: &str, f: &Uts46Failure) -> Option<usize> {
    let k = f.label?;
    let a = idna_adapter::Adapter::new();
    // The byte range of label `k` in `host`.
    let (mut label, mut start, mut end) = (0, None, host.len());
    if k == 0 {
        start = Some(0);
    }
    for (i, c) in host.char_indices() {
        let dots = if c.is_ascii() {
            usize::from(c == '.')
        } else {
            a.map_normalize(std::iter::once(c))
                .filter(|&m| m == '.')
                .count()
        };
        if dots == 0 {
            continue;
        }
        if label == k {
            end = i;
            break;
        }
        label += dots;
        if label == k {
            start = Some(i + c.len_utf8());
        } else if label > k {
            // A character that maps to several labels: the fault is in its mapping.
            return Some(i);
        }
    }
    let start = start?;
    let text = &host[start..end];
    if let (Uts46Rule::ContextJ(_), Some(i)) = (f.rule, joiner::first_out_of_context(text)) {
        return Some(start + i);
    }
    let found = f.rule.character().and_then(|c| {
        text.char_indices()
            .find(|&(_, x)| x == c)
            .map(|(i, _)| start + i)
    });
    Some(found.unwrap_or(start))
}

/// UTS #46 §4 step 4 and §4.1 on one mapped label: its Unicode form, or the rule it breaks.
fn validate_label(a: &idna_adapter::Adapter, l: &str) -> Result<String, Uts46Rule> {
    if l.is_empty() {
        return Err(Uts46Rule::EmptyLabel);
    }
    let u = match l.strip_prefix("xn--") {
        Some(p) => {
            if !p.is_ascii() {
                return Err(Uts46Rule::InvalidPunycode);
            }
            let d = idna::punycode::decode_to_string(p).ok_or(Uts46Rule::InvalidPunycode)?;
            if d.is_empty() || d.is_ascii() {
                return Err(Uts46Rule::InvalidPunycode);
            }
            // V7 for a decoded label: every code point valid (maps to itself).
            for c in d.chars() {
                let m: String = a.map_normalize(std::iter::once(c)).collect();
                if m.chars().ne(std::iter::once(c)) {
                    return Err(Uts46Rule::Disallowed(c));
                }
            }
            // V1: in NFC.
            if !unicode_normalization::is_nfc(&d) {
                return Err(Uts46Rule::NotNfc);
            }
            d
        }
        None => l.to_string(),
    };
    if let Some(c) = u.chars().find(|&c| c.is_ascii() && !is_ldh(c)) {
        return Err(Uts46Rule::Std3Ascii(c));
    }
    // Positions are code points: "ü--a" has its hyphens 2nd and 3rd.
    if u.chars().nth(2) == Some('-') && u.chars().nth(3) == Some('-') {
        return Err(Uts46Rule::HyphenThirdFourth);
    }
    if u.starts_with('-') || u.ends_with('-') {
        return Err(Uts46Rule::HyphenStartEnd);
    }
    let first = u.chars().next().expect("non-empty");
    if a.is_mark(first) {
        return Err(Uts46Rule::LeadingMark(first));
    }
    if let Some(i) = joiner::first_out_of_context(&u) {
        return Err(Uts46Rule::ContextJ(
            u[i..].chars().next().expect("a joiner"),
        ));
    }
    Ok(u)
}

/// STD3 letters, digits, hyphen (after mapping: lower case).
fn is_ldh(c: char) -> bool {
    c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'
}

/// The number of the first condition of the Bidi Rule (RFC 5893 §2) that `label` breaks.
pub fn bidi_rule(label: &str) -> Option<u8> {
    use BidiClass::*;
    let classes: Vec<BidiClass> = label.chars().map(unicode_bidi::bidi_class).collect();
    let first = *classes.first()?;
    // The last class that is not NSM (conditions 3 and 6 allow trailing NSM).
    let last = classes.iter().rev().find(|&&b| b != NSM).copied();
    match first {
        R | AL => {
            if classes
                .iter()
                .any(|b| !matches!(b, R | AL | AN | EN | ES | CS | ET | ON | BN | NSM))
            {
                return Some(2);
            }
            if !matches!(last, Some(R | AL | EN | AN)) {
                return Some(3);
            }
            if classes.contains(&EN) && classes.contains(&AN) {
                return Some(4);
            }
            None
        }
        L => {
            if classes
                .iter()
                .any(|b| !matches!(b, L | EN | ES | CS | ET | ON | BN | NSM))
            {
                return Some(5);
            }
            if !matches!(last, Some(L | EN)) {
                return Some(6);
            }
            None
        }
        _ => Some(1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::IdnaReason;
    use crate::host::{to_ascii, Idna};

    fn refused(host: &str) -> Uts46Failure {
        let mut s = String::new();
        let d = diagnose(host);
        assert_eq!(
            to_ascii(host, Idna::Uts46, &mut s),
            Err(IdnaReason::Uts46(d)),
            "{host} must be refused by UTS #46, with this reason"
        );
        d
    }

    /// Each rule, tripped by a host that breaks only it.
    #[test]
    fn each_rule_alone() {
        let long_label = format!("{}.de", "a".repeat(64));
        let long_name = vec!["a".repeat(60); 5].join(".");
        let long_idn = format!("{}.de", "ü".repeat(60));
        let cases: Vec<(&str, Uts46Rule, Option<usize>)> = vec![
            ("a\u{E000}b.de", Uts46Rule::Disallowed('\u{E000}'), Some(0)),
            ("a\u{A0}b.de", Uts46Rule::Std3Ascii('\u{A0}'), Some(0)),
            (
                "ok.a\u{202E}b.de",
                Uts46Rule::Disallowed('\u{202E}'),
                Some(1),
            ),
            ("a_b.bücher.de", Uts46Rule::Std3Ascii('_'), Some(0)),
            (
                "bücher.a\u{FF3F}b.de",
                Uts46Rule::Std3Ascii('\u{FF3F}'),
                Some(1),
            ),
            (
                "xn--a-ecp.bücher.de",
                Uts46Rule::Disallowed('\u{2488}'),
                Some(0),
            ),
            (
                "xn--zzzzzzzzzzzzzzzzzzzz.ü.de",
                Uts46Rule::InvalidPunycode,
                Some(0),
            ),
            ("xn--abc-.ü.de", Uts46Rule::InvalidPunycode, Some(0)),
            ("ab--c.ü.de", Uts46Rule::HyphenThirdFourth, Some(0)),
            ("üb--c.de", Uts46Rule::HyphenThirdFourth, Some(0)),
            ("-x.bücher.de", Uts46Rule::HyphenStartEnd, Some(0)),
            ("bücher.x-.de", Uts46Rule::HyphenStartEnd, Some(1)),
            ("\u{301}a.ü.de", Uts46Rule::LeadingMark('\u{301}'), Some(0)),
            ("a\u{200D}b.ü.de", Uts46Rule::ContextJ('\u{200D}'), Some(0)),
            ("ب\u{200C}.de", Uts46Rule::ContextJ('\u{200C}'), Some(0)),
            ("ab.גדהוזח.123", Uts46Rule::Bidi(1), Some(2)),
            ("אב€.de", Uts46Rule::Bidi(3), Some(0)),
            ("אa.de", Uts46Rule::Bidi(2), Some(0)),
            ("ب١2.de", Uts46Rule::Bidi(4), Some(0)),
            ("a\u{5D0}.com", Uts46Rule::Bidi(5), Some(0)),
            ("ü..de", Uts46Rule::EmptyLabel, Some(1)),
            (&long_label, Uts46Rule::LabelTooLong(64), Some(0)),
            (&long_idn, Uts46Rule::LabelTooLong(4 + 6 + 1 + 120), Some(0)),
            (&long_name, Uts46Rule::NameTooLong(304), None),
        ];
        for (host, rule, label) in cases {
            let d = refused(host);
            let got = (d.rule, d.label);
            if let Uts46Rule::LabelTooLong(_) = rule {
                assert!(
                    matches!(d.rule, Uts46Rule::LabelTooLong(n) if n > 63),
                    "{host}: {d:?}"
                );
                assert_eq!(d.label, label, "{host}");
            } else {
                assert_eq!(got, (rule, label), "{host}: {d}");
            }
            assert!(!d.to_string().is_empty());
        }
        assert_eq!(
            diagnose("a\u{200D}b.ü.de").to_string(),
            "UTS #46 ToASCII: label 1: U+200D outside its joining context (CONTEXTJ, RFC 5892 A.1/A.2)"
        );
    }

    #[test]
    fn bidi_rule_conditions() {
        assert_eq!(bidi_rule("שלום"), None);
        assert_eq!(bidi_rule("abc"), None);
        assert_eq!(bidi_rule("ب\u{64E}"), None, "trailing NSM allowed");
        assert_eq!(bidi_rule("1a"), Some(1));
        assert_eq!(bidi_rule("ab\u{5D0}"), Some(5));
        assert_eq!(bidi_rule("a-"), Some(6));
    }

    fn host_like() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        let alphabet = prop::sample::select(vec![
            "a", "Z", "1", "-", "--", ".", "\u{3002}", "xn--", "_", " ", "ü", "\u{308}", "ß",
            "\u{5D0}", "\u{628}", "\u{661}", "\u{200C}", "\u{200D}", "\u{94D}", "\u{A0}",
            "\u{FF3F}", "\u{E000}", "\u{338}", "\u{FF1D}", "\u{2488}", "ab", "\u{64E}",
        ]);
        prop::collection::vec(alphabet, 0..16).prop_map(|v| v.concat())
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(3000))]
        /// Never a panic; a reason exactly when ToASCII refuses the host.
        #[test]
        fn reason_iff_refused(host in host_like()) {
            let mut s = String::new();
            let d = diagnose(&host);
            match to_ascii(&host, Idna::Uts46, &mut s) {
                Err(IdnaReason::Uts46(r)) => {
                    proptest::prop_assert_ne!(d.rule, Uts46Rule::Unknown, "{:?}", host);
                    proptest::prop_assert_eq!(r, d);
                }
                Ok(()) => proptest::prop_assert_eq!(d.rule, Uts46Rule::Unknown, "{:?}: {}", host, d),
                Err(_) => {}
            }
        }
    }

    #[test]
    fn long_hosts_stay_linear() {
        let t = std::time::Instant::now();
        let d = diagnose(&"a".repeat(200_000));
        assert!(matches!(d.rule, Uts46Rule::LabelTooLong(_)));
        let d = diagnose(&format!("xn--{}", "a".repeat(5_000)));
        assert_ne!(d.rule, Uts46Rule::Unknown);
        assert!(t.elapsed().as_secs() < 20, "{:?}", t.elapsed());
    }
}
