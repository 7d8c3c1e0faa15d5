//! Validity of an ACE label (`xn--…`) for `check`'s `bad-ace` (issue 16).
//!
//! RFC 5891 §5.4 (registration and lookup alike): an A-label must be a valid Punycode string
//! (RFC 3492) whose decoding is a valid U-label, and converting that U-label back must give the
//! A-label again. RFC 5890 §2.3.2.1 adds that the A-label is the ACE prefix `xn--` followed by
//! the Punycode of a U-label, so an all-ASCII decoding is not a U-label (it would be written as
//! itself). The ACE prefix and the Punycode digits are case-insensitive (RFC 3490 §5, RFC 3492
//! §5), so the round trip is compared ASCII-case-insensitively.
//!
//! The U-label itself is validated the way browsers validate it: UTS #46 processing
//! (non-transitional, CheckHyphens, CheckBidi, CheckJoiners, the STD3 deny list, through the
//! `idna` crate) must leave it unchanged apart from ASCII case; a label that UTS #46 would map
//! (upper case, compatibility forms) or refuse (disallowed code points, bidi or joiner rules)
//! is not a U-label. UTS #46 (since 15.1) accepts some symbols that RFC 5892 disallows (U+2215
//! `∕`): such labels pass here, and [`super::display`] keeps them from being displayed.

use idna::uts46::{AsciiDenyList, DnsLength, Hyphens, Uts46};

/// Why an `xn--` label is not a valid A-label.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AceError {
    /// The label does not start with the ACE prefix `xn--` (any case).
    NotAce,
    /// The part after `xn--` is not ASCII or not a valid Punycode string (RFC 3492 §6.2).
    BadPunycode,
    /// The Punycode decodes to the empty string or to ASCII only (RFC 5890 §2.3.2.1).
    NotUnicode,
    /// Encoding the decoded label again does not give the label (RFC 5891 §5.4).
    NotRoundTrip,
    /// The decoded label is not a valid U-label (UTS #46 maps or refuses it).
    NotULabel,
}

impl std::fmt::Display for AceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            AceError::NotAce => "no xn-- prefix",
            AceError::BadPunycode => "not valid Punycode (RFC 3492)",
            AceError::NotUnicode => "decodes to nothing or to ASCII only (RFC 5890 2.3.2.1)",
            AceError::NotRoundTrip => "does not re-encode to itself (RFC 5891 5.4)",
            AceError::NotULabel => "decodes to an invalid U-label (RFC 5891 5.4, UTS #46)",
        })
    }
}

/// True when `label` starts with the ACE prefix `xn--`, ASCII-case-insensitively.
pub fn has_ace_prefix(label: &str) -> bool {
    label.len() >= 4 && label.as_bytes()[..4].eq_ignore_ascii_case(b"xn--")
}

/// RFC 5891 §5.4 check of one `xn--` label; on success, its U-label.
///
/// ```
/// use iribulk::host::ace::{check_ace_label, AceError};
/// assert_eq!(check_ace_label("xn--bcher-kva").as_deref(), Ok("bücher"));
/// assert_eq!(check_ace_label("XN--P1AI").as_deref(), Ok("рф"));
/// assert!(check_ace_label("xn--zz").is_err());
/// assert!(check_ace_label("xn--a").is_err());
/// ```
pub fn check_ace_label(label: &str) -> Result<String, AceError> {
    if !has_ace_prefix(label) {
        return Err(AceError::NotAce);
    }
    let puny = &label[4..];
    if !puny.is_ascii() || puny.is_empty() {
        return Err(AceError::BadPunycode);
    }
    // Case-insensitive (RFC 3490 §5): the basic code points of a mixed-case annotation
    // (RFC 3492 Appendix A) are lowered, as ToASCII would write them.
    let puny = puny.to_ascii_lowercase();
    let ulabel = idna::punycode::decode_to_string(&puny).ok_or(AceError::BadPunycode)?;
    if ulabel.is_empty() || ulabel.is_ascii() {
        return Err(AceError::NotUnicode);
    }
    match idna::punycode::encode_str(&ulabel) {
        Some(again) if again == puny => {}
        _ => return Err(AceError::NotRoundTrip),
    }
    let ascii = Uts46::new()
        .to_ascii(
            ulabel.as_bytes(),
            AsciiDenyList::STD3,
            Hyphens::Check,
            DnsLength::Verify,
        )
        .map_err(|_| AceError::NotULabel)?;
    if !ascii.eq_ignore_ascii_case(label) {
        return Err(AceError::NotULabel);
    }
    Ok(ulabel)
}

/// The first `xn--` label of `host` (labels separated by the four label dots of RFC 3490
/// §3.1: `.`, U+3002, U+FF0E, U+FF61, as UTS #46 maps them) that is not a valid A-label: the
/// byte offset of its first byte in `host`, and why. ASCII labels without the prefix are not
/// looked at.
///
/// A host that the UTS #46 fast path decodes ([`super::fast::to_unicode`]: lower-case
/// `[a-z0-9-]` labels, ToUnicode without an error, the same configuration as here — STD3,
/// CheckHyphens, CheckBidi, CheckJoiners, non-transitional — and labels of at most 63
/// octets) has none: each of its A-labels is canonical Punycode (its decoder accepts no
/// other form) of a non-ASCII label whose every code point is valid in UTS #46 and which is
/// in NFC, so [`check_ace_label`]'s round trip and ToASCII give the label back; the label
/// rules of a label alone are those it met within the host (where a bidi domain name checks
/// every label). That answer costs ~2,700 instructions a host against ~10,000 for the
/// crate's per-label check, which was 23 % of `check` on `intl_cldr`'s URIs (issue 11). Any
/// other host (upper case, a refused label, one the fast path declines) gets the per-label
/// check. Twin: [`first_bad_ace_naive`] (the test `first_bad_ace_matches_twin`, the fuzz
/// target `idna_host`).
pub fn first_bad_ace(host: &str) -> Option<(usize, AceError)> {
    if !super::labels(host).any(|(_, l)| has_ace_prefix(l)) {
        return None;
    }
    first_bad_ace_with(host, super::fast::to_unicode(host).as_deref())
}

/// [`first_bad_ace`] for a caller that already ran [`super::fast::to_unicode`] on `host`
/// (`unicode`: its answer), so that the host is decoded once for `bad-ace` and
/// `display-unsafe` (`check`).
pub fn first_bad_ace_with(host: &str, unicode: Option<&str>) -> Option<(usize, AceError)> {
    if unicode.is_some() {
        return None;
    }
    first_bad_ace_naive(host)
}

/// [`first_bad_ace`] label by label, by [`check_ace_label`] alone.
pub fn first_bad_ace_naive(host: &str) -> Option<(usize, AceError)> {
    super::labels(host).find_map(|(at, l)| {
        if has_ace_prefix(l) {
            check_ace_label(l).err().map(|e| (at, e))
        } else {
            None
        }
    })
}

/// The first label of the all-ASCII `host` that breaks the Bidi Rule of RFC 5893 §2 when its
/// `xn--` labels are read as their U-labels, if that makes it a bidi domain name (§1.4: a
/// label holds an R, AL or AN character), as UTS #46 CheckBidi reads it (§4.1 criterion 8,
/// on every label, ASCII ones included): labels valid one by one can make a host that is not
/// (`1.xn--4dbrk0ce` is `1.ישראל`, whose label `1` breaks rule 1; found by a QA sweep).
/// Labels that are not valid A-labels are read as written (`bad-ace` names them). Only this
/// rule: CheckHyphens, which UTS #46 also applies, is not asked of ASCII labels here, as
/// browsers do not ask it (WHATWG URL: CheckHyphens false), and `check` holds ASCII labels
/// to the DNS rule instead.
pub fn bidi_domain_fault(host: &str) -> Option<crate::error::Uts46Failure> {
    use crate::error::{Uts46Failure, Uts46Rule};
    use unicode_bidi::BidiClass::{AL, AN, R};
    let body = host.strip_suffix('.').unwrap_or(host);
    let labels: Vec<std::borrow::Cow<'_, str>> = body
        .split('.')
        .map(|l| match check_ace_label(l) {
            Ok(u) => std::borrow::Cow::Owned(u),
            Err(_) => std::borrow::Cow::Borrowed(l),
        })
        .collect();
    let rtl = |l: &str| {
        l.chars()
            .any(|c| matches!(unicode_bidi::bidi_class(c), R | AL | AN))
    };
    if !labels.iter().any(|l| rtl(l)) {
        return None;
    }
    labels.iter().enumerate().find_map(|(i, l)| {
        super::uts46_reason::bidi_rule(l).map(|n| Uts46Failure {
            rule: Uts46Rule::Bidi(n),
            label: Some(i),
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 5893 §1.4: an ACE label of right-to-left text makes every label answer to the
    /// Bidi Rule; without one, nothing is asked; hyphens are not this rule's.
    #[test]
    fn bidi_domain_fault_reads_ace_labels_as_u_labels() {
        use crate::error::Uts46Rule;
        let fault = |h| bidi_domain_fault(h).map(|f| (f.rule, f.label));
        assert_eq!(fault("1.xn--4dbrk0ce"), Some((Uts46Rule::Bidi(1), Some(0))));
        assert_eq!(
            fault("XN--4DBRK0CE.1."),
            Some((Uts46Rule::Bidi(1), Some(1)))
        );
        assert_eq!(fault("www.xn--4dbrk0ce.xn--4dbrk0ce"), None);
        assert_eq!(fault("ab--c.xn--4dbrk0ce"), None);
        assert_eq!(fault("1.xn--bcher-kva.de"), None, "no right-to-left label");
        assert_eq!(fault("1.xn--zz"), None, "not an A-label: read as written");
    }

    #[test]
    fn valid_a_labels() {
        for (a, u) in [
            ("xn--bcher-kva", "bücher"),
            ("XN--BCHER-KVA", "bücher"),
            ("xn--p1ai", "рф"),
            ("xn--fa-hia", "faß"),
            ("xn--80ak6aa92e", "аррӏе"),
            ("xn--r8jz45g", "例え"),
        ] {
            assert_eq!(check_ace_label(a).as_deref(), Ok(u), "{a}");
        }
    }

    #[test]
    fn invalid_a_labels() {
        // Issue 16's cases: not Punycode of a U-label.
        assert!(check_ace_label("xn--zz").is_err());
        assert!(check_ace_label("xn--a").is_err());
        assert_eq!(check_ace_label("xn--"), Err(AceError::BadPunycode));
        assert_eq!(check_ace_label("bücher"), Err(AceError::NotAce));
        assert_eq!(check_ace_label("xn--é"), Err(AceError::BadPunycode));
        // All-ASCII decoding: "abc-" is the Punycode of "abc".
        assert_eq!(check_ace_label("xn--abc-"), Err(AceError::NotUnicode));
        // Non-ASCII upper case in the U-label: UTS #46 maps it, so it is no U-label (ASCII
        // case is insignificant in an A-label).
        let upper = format!("xn--{}", idna::punycode::encode_str("bÜcher").unwrap());
        assert_eq!(check_ace_label(&upper), Err(AceError::NotULabel));
        // A code point UTS #46 disallows (private use U+E000) encoded.
        let private = format!("xn--{}", idna::punycode::encode_str("a\u{E000}b").unwrap());
        assert_eq!(check_ace_label(&private), Err(AceError::NotULabel));
        // U+2215 is valid for UTS #46 (since 15.1): good.xn--comevil-ef0d.com is a valid
        // A-label, and display safety (host::display) is what keeps it in xn-- form.
        assert_eq!(
            check_ace_label("xn--comevil-ef0d").as_deref(),
            Ok("com\u{2215}evil")
        );
        // Leading combining mark (RFC 5891 §5.4 via UTS #46 V5).
        let mark = format!("xn--{}", idna::punycode::encode_str("\u{301}a").unwrap());
        assert_eq!(check_ace_label(&mark), Err(AceError::NotULabel));
    }

    #[test]
    fn hosts() {
        assert_eq!(first_bad_ace("www.xn--bcher-kva.de"), None);
        assert_eq!(first_bad_ace("example.com"), None);
        assert!(matches!(first_bad_ace("a.xn--zz.com"), Some((2, _))));
        // The other label dots of RFC 3490 §3.1 separate A-labels too (a QA sweep's case).
        for dot in ["\u{3002}", "\u{FF0E}", "\u{FF61}"] {
            assert_eq!(
                first_bad_ace(&format!("xn--bcher-kva{dot}de")),
                None,
                "{dot}"
            );
            assert_eq!(first_bad_ace_naive(&format!("xn--bcher-kva{dot}de")), None);
            let bad = format!("www{dot}xn--zz{dot}de");
            assert!(matches!(first_bad_ace(&bad), Some((k, _)) if k == 3 + dot.len()));
            assert_eq!(first_bad_ace(&bad), first_bad_ace_naive(&bad));
        }
        assert!(AceError::NotRoundTrip.to_string().contains("5891"));
    }
}
