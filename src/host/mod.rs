//! Host mapping: IDNA (UTS #46 through the `idna` crate, IDNA2003 through [`idna2003`]),
//! percent-encoded hosts (3987bis §3.4.2), and the per-worker host cache.
//!
//! This module is the only path to IDNA: [`to_ascii`] and [`to_unicode`] (and their cached
//! forms [`HostCache::to_ascii`], [`HostCache::to_unicode`]), and the ACE-prefix detector
//! ([`has_ace_label`], exact, and its conservative superset [`contains_ace_prefix`] for
//! pre-filters). The converters never call the `idna` crate or [`idna2003`] for a
//! whole host themselves.
//!
//! Crawl dumps repeat hosts heavily and IDNA costs hundreds of nanoseconds a host, so each
//! converter keeps one bounded cache of converted hosts for both directions ([`cache`]).
//! UTS #46 hosts of labels without right-to-left characters, joiners or characters that
//! normalization could change, for which processing is the identity, skip the crate's
//! mapping and normalization altogether ([`fast`]; the crate answers the others).

pub mod ace;
pub mod cache;
pub mod display;
pub mod fast;
pub mod idna2003;
pub mod uts46_reason;

use crate::config::HostMode;
use crate::error::IdnaReason;
use crate::grammar::classes::{self, hex_value};

pub use cache::HostCache;

/// Cap on the raw host, in bytes, checked before any mapping (contract item 5): a longer host
/// cannot become a DNS name of ≤ 253 octets in any realistic way, and the cap keeps hostile
/// hosts from costing more than linear time.
pub const MAX_RAW_HOST: usize = 1024;
/// Cap on one raw label, in bytes, checked before Nameprep or UTS #46 mapping.
pub const MAX_RAW_LABEL: usize = 255;

/// The Unicode version of the UTS #46 tables (mapping and validity, UTS #46 §5) that the
/// `idna` crate 1.1 uses: ICU4X's `icu_normalizer_data` 2.4, "generated with ... Unicode
/// version 18.0.0" (its README). Issue 16 asks `--version` and README to name it; the unit
/// test `idna_table_versions_match_the_lock_file` fails when `Cargo.lock` moves to another
/// data release, so that this constant is revisited.
pub const UTS46_UNICODE_VERSION: (u8, u8, u8) = (18, 0, 0);
/// The Unicode version of IDNA2003's tables: Nameprep (RFC 3491) is a profile of stringprep,
/// whose tables are those of Unicode 3.2 (RFC 3454 §1.2; contract item 7).
pub const NAMEPREP_UNICODE_VERSION: (u8, u8, u8) = (3, 2, 0);

/// The IDNA version used for a host.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Idna {
    /// UTS #46 non-transitional, STD3 deny list, hyphen checks, DNS length with root dot.
    Uts46,
    /// RFC 3490 ToASCII with these flags.
    Idna2003(idna2003::Flags),
}

/// The `idna` error for a host that IDNA refused with `reason`: at the fault
/// ([`uts46_reason::fault_offset`]: the character or the label a UTS #46 rule names) when
/// `text`, the host given to IDNA, is the host as written at `at` in the line (`raw`); else
/// (a host decoded from `%HH` or changed by normalize's steps, an IDNA2003 or length
/// refusal) at `at`, the host's start.
pub(crate) fn idna_error(
    reason: IdnaReason,
    text: &str,
    raw: &[u8],
    at: usize,
) -> crate::error::LineError {
    let off = match reason {
        IdnaReason::Uts46(f) if text.as_bytes() == raw => {
            uts46_reason::fault_offset(text, &f).unwrap_or(0)
        }
        _ => 0,
    };
    crate::error::LineError::new(crate::error::ErrorKind::Idna(reason), at + off)
}

/// The IDNA that maps a host of `scheme` in `mode`, or `None` for percent-encoding: an explicit
/// IDNA mode applies whatever the scheme (contract item 1), [`HostMode::Auto`] uses UTS #46 for
/// the DNS schemes ([`crate::config::DNS_SCHEMES`]) only (RFC 3987 §3.1, 3987bis §3.4).
/// The special schemes of [`SchemeClass::NetSpecial`](crate::grammar::components::SchemeClass::NetSpecial) (`http https ws wss ftp`, nearly every
/// line's; all DNS schemes) are answered by their byte test without the search of the list
/// (issue 11); the test `dns_scheme_shortcut_matches_twin` in `convert::check` compares with
/// the search alone.
pub fn idna_for(mode: HostMode, scheme: Option<&[u8]>) -> Option<Idna> {
    use crate::grammar::components::{scheme_class, SchemeClass};
    match mode {
        HostMode::Percent => None,
        HostMode::Uts46 => Some(Idna::Uts46),
        HostMode::Idna2003(flags) => Some(Idna::Idna2003(flags)),
        HostMode::Auto => scheme
            .filter(|s| {
                scheme_class(s) == SchemeClass::NetSpecial || crate::config::is_dns_scheme(s)
            })
            .map(|_| Idna::Uts46),
    }
}

/// True if `bytes` holds the ACE prefix `xn--` (RFC 3490 §5) anywhere, in any ASCII case: the
/// crate's one test for "this host may have a Punycode label". Conservative: a match inside a
/// label (`axn--b`) or in the userinfo is a false alarm, which [`to_unicode`] and its callers
/// then leave as it is; `false` is exact.
///
/// 16 bytes at a time ([`crate::simd::delims::eq_masks16`]): a `-` followed by a `-` in the
/// block's mask is where `xn--` can end, and only there are the two bytes before it compared
/// (blocks overlap by one byte, so a pair across two blocks is seen; the last one is
/// zero-padded). The byte-window loop it replaces cost ~200 instructions a host, on every
/// host to-iri looks at (issue 11). `contains_ace_prefix_naive` is its twin (the test
/// `ace_prefix_matches_twin`).
#[inline]
pub fn contains_ace_prefix(bytes: &[u8]) -> bool {
    let n = bytes.len();
    let mut at = 0;
    while at + 1 < n {
        let block: [u8; 16] = match bytes.get(at..at + 16) {
            Some(b) => b.try_into().expect("16 bytes"),
            None => crate::simd::padded::<16>(&bytes[at..]),
        };
        let [dash] = crate::simd::delims::eq_masks16(&block, [b'-']);
        let mut pairs = dash & (dash >> 1);
        while pairs != 0 {
            // `--` at `p`, `p + 1` (p >= 2 for an `xn` before it).
            let p = at + pairs.trailing_zeros() as usize;
            pairs &= pairs - 1;
            if p >= 2 && bytes[p - 2..p].eq_ignore_ascii_case(b"xn") {
                return true;
            }
        }
        at += 15;
    }
    false
}

/// The twin of [`contains_ace_prefix`]: every window of four bytes.
#[cfg(any(test, feature = "twins"))]
pub fn contains_ace_prefix_naive(bytes: &[u8]) -> bool {
    bytes.windows(4).any(|w| w.eq_ignore_ascii_case(b"xn--"))
}

/// [`contains_ace_prefix`] against its twin on raw bytes, for the fuzz target `simd_twin`;
/// not part of the API.
#[cfg(any(test, feature = "twins"))]
#[doc(hidden)]
pub fn ace_twin_check(bytes: &[u8]) {
    assert_eq!(
        contains_ace_prefix(bytes),
        contains_ace_prefix_naive(bytes),
        "xn-- {bytes:02X?}"
    );
}

/// True if a label of `host` (split at `.`) begins with the ACE prefix `xn--` (RFC 3490 §5),
/// in any ASCII case: the exact form of [`contains_ace_prefix`], for deciding whether an ASCII
/// host is an IDN at all.
#[inline]
pub fn has_ace_label(host: &str) -> bool {
    host.split('.')
        .any(|l| l.len() >= 4 && l.as_bytes()[..4].eq_ignore_ascii_case(b"xn--"))
}

/// IDNA ToUnicode of a whole ASCII host: UTS #46 §4.3 with the STD3 deny list and hyphen
/// checks, or RFC 3490 §4.2 ToUnicode label by label for IDNA2003 (3987bis §4.2 step 7).
///
/// `None` when there is nothing to decode (no [`contains_ace_prefix`], or longer than
/// [`MAX_RAW_HOST`], the cap of [`to_ascii`]) or when UTS #46 reports an error. IDNA2003
/// ToUnicode never fails: a label it cannot decode stays as it is. The caller decides whether
/// to keep the result (the round trip through [`to_ascii`], displayability).
pub fn to_unicode(host: &str, idna: Idna) -> Option<String> {
    to_unicode_with(host, idna, true).map(|(u, _)| u)
}

/// The twin of [`to_unicode`] without the UTS #46 fast path ([`fast::to_unicode`]): the
/// `idna` crate for every UTS #46 host.
#[cfg(any(test, feature = "twins"))]
pub fn to_unicode_naive(host: &str, idna: Idna) -> Option<String> {
    to_unicode_with(host, idna, false).map(|(u, _)| u)
}

/// [`to_unicode`], and whether the UTS #46 fast path ([`fast::to_unicode`]) answered. When it
/// did, `host` is lower case and [`to_ascii`] of the answer gives `host` back exactly (the
/// fast ToUnicode takes only canonical A-labels, RFC 5891 §5.4, checked by re-encoding them;
/// `tests/uts46_fast.rs` asserts the round trip), so a caller may skip that round trip.
pub fn to_unicode_traced(host: &str, idna: Idna) -> Option<(String, bool)> {
    to_unicode_with(host, idna, true)
}

/// [`to_unicode_traced`], with the fast path tried first when `fast_path`.
fn to_unicode_with(host: &str, idna: Idna, fast_path: bool) -> Option<(String, bool)> {
    if !contains_ace_prefix(host.as_bytes()) || host.len() > MAX_RAW_HOST {
        return None;
    }
    match idna {
        // Plain labels first (issue #11): the same answer, a fraction of the cost.
        Idna::Uts46 => {
            if fast_path {
                if let Some(u) = fast::to_unicode(host) {
                    return Some((u, true));
                }
            }
            fast::to_unicode_naive(host).map(|u| (u, false))
        }
        Idna::Idna2003(flags) => {
            let mut u = String::new();
            idna2003::domain_to_unicode(host, flags, &mut u);
            Some((u, false))
        }
    }
}

/// True for the label separators of RFC 3490 §3.1: U+002E, U+3002, U+FF0E, U+FF61.
#[inline]
pub fn is_label_dot(c: char) -> bool {
    matches!(c, '.' | '\u{3002}' | '\u{FF0E}' | '\u{FF61}')
}

/// The labels of `host` with the byte offset of each in `host`: split at the label dots of
/// RFC 3490 §3.1 ([`is_label_dot`]), as UTS #46 maps them to `.` (found by a QA sweep:
/// `check` read `xn--bcher-kva。de` as one A-label and called it `bad-ace`). The dots are
/// found byte by byte: `.`, and in UTF-8 U+3002 `E3 80 82`, U+FF0E `EF BC 8E`, U+FF61
/// `EF BD A1` (`E3` and `EF` are lead bytes, so a match starts at a character).
pub fn labels(host: &str) -> impl Iterator<Item = (usize, &str)> + '_ {
    let b = host.as_bytes();
    let (mut start, mut k, mut done) = (0, 0, false);
    std::iter::from_fn(move || {
        if done {
            return None;
        }
        while k < b.len() {
            let dot = match b[k] {
                b'.' => 1,
                0xE3 if b.get(k + 1..k + 3) == Some(&[0x80, 0x82]) => 3,
                0xEF if matches!(b.get(k + 1..k + 3), Some([0xBC, 0x8E] | [0xBD, 0xA1])) => 3,
                _ => 0,
            };
            if dot > 0 {
                let label = (start, &host[start..k]);
                k += dot;
                start = k;
                return Some(label);
            }
            k += 1;
        }
        done = true;
        Some((start, &host[start..]))
    })
}

/// Decodes `%HH` in a host (3987bis §3.4.2: "If there is any percent-encoding, and the
/// corresponding octets all represent valid UTF-8 octet sequences, then convert these back to
/// Unicode character sequences"). `None` if the decoded octets are not UTF-8. The caller has
/// already checked that every `%` starts a well-formed `%HH`.
pub fn decode_host_percent(host: &str) -> Option<String> {
    String::from_utf8(host_octets(host.as_bytes())?).ok()
}

/// The octets of `host` with each `%HH` decoded, UTF-8 or not (the first step of
/// [`decode_host_percent`]); `None` at a `%` before two bytes that are not hex digits.
pub fn host_octets(b: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 2 < b.len() {
            let (h, l) = (hex_value(b[i + 1])?, hex_value(b[i + 2])?);
            out.push(h << 4 | l);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    Some(out)
}

/// IDNA ToASCII of a whole host name (RFC 3987 §3.1, 3987bis §3.4.2) into `out`.
///
/// Steps: the raw-length caps ([`MAX_RAW_HOST`], [`MAX_RAW_LABEL`]) before anything else;
/// percent-decoding (3987bis §3.4.2); then ToASCII of the chosen version. On error `out` is
/// left as it was.
pub fn to_ascii(host: &str, idna: Idna, out: &mut String) -> Result<(), IdnaReason> {
    to_ascii_with(host, idna, out, true)
}

/// [`to_ascii`] of `host` in lower case (ASCII case is not significant in a host, RFC 3986
/// §3.2.2): the `xn--` form display safety writes for a label it keeps from display.
pub fn to_ascii_lower(host: &str, idna: Idna) -> Option<String> {
    let mut ace = String::new();
    to_ascii(host, idna, &mut ace).ok()?;
    ace.make_ascii_lowercase();
    Some(ace)
}

/// True when `a` and `b`, two spellings of one host (as written, and character-normalized),
/// are one name to IDNA `idna`: both have an ACE form ([`to_ascii`], which percent-decodes
/// first), equal up to ASCII case. IDNA maps before it normalizes (UTS #46 §4 steps 1–2, RFC
/// 3490 §4.1 via Nameprep), so NFC's canonical reordering can give a host another name
/// (U+0345 is ι to IDNA: `a\u{345}\u{300}.com` is `xn--a-76m.com`, its NFC `xn--0ca27l.com`;
/// found by a QA sweep): `normalize --nfc/--nfkc` and the NFC of a legacy charset's text
/// (RFC 3987 §3.1 step 1b) keep a host's normalized form only when this holds.
pub fn same_idna_name(a: &str, b: &str, idna: Idna) -> bool {
    let (mut x, mut y) = (String::new(), String::new());
    to_ascii(a, idna, &mut x).is_ok()
        && to_ascii(b, idna, &mut y).is_ok()
        && x.eq_ignore_ascii_case(&y)
}

/// True when a host of `scheme` is read by IDNA somewhere: a browser's (a special scheme,
/// `file` included, WHATWG URL §3.5), to-uri's (its DNS schemes), or, for a reference without
/// a scheme (`//host/x`), whichever base it meets. [`same_idna_name`] must hold for a change
/// of such a host's spelling.
pub fn idna_reads(scheme: Option<&[u8]>) -> bool {
    scheme.is_none_or(|s| {
        crate::config::is_dns_scheme(s) || crate::grammar::components::is_special_scheme(s)
    })
}

/// Whether `shown`, the display form of the host `host` (ToUnicode of its `xn--` labels),
/// maps back to `host` up to ASCII case (RFC 3490 §5 and §4.2; ASCII case is not significant
/// in a host, RFC 3986 §3.2.2): by ToASCII of `idna` (skipped when `idna_known`, the caller
/// having proved it), and, for IDNA2003, by UTS #46 too, the mapping of browsers (WHATWG URL
/// §3.5 domain to ASCII; contract item 17). IDNA2003 decodes `xn--kkg` to `ẞ`, which it maps
/// back to `xn--kkg` but a browser reads as `xn--zca` (`ß`), another host, while refusing
/// `xn--kkg` itself (found by a QA sweep): such a host must keep its ACE form. to-iri and
/// `normalize --idn unicode` ask it of every host they would show in Unicode.
pub fn display_maps_back(shown: &str, host: &str, idna: Idna, idna_known: bool) -> bool {
    let mut back = String::new();
    let mut gives_back = |idna| {
        back.clear();
        to_ascii(shown, idna, &mut back).is_ok() && back.eq_ignore_ascii_case(host)
    };
    (idna_known || gives_back(idna)) && (matches!(idna, Idna::Uts46) || gives_back(Idna::Uts46))
}

/// The twin of [`to_ascii`] without the UTS #46 fast path ([`fast::to_ascii`]): every UTS #46
/// host through the caps, the `idna` crate and the reg-name check.
#[cfg(any(test, feature = "twins"))]
pub fn to_ascii_naive(host: &str, idna: Idna, out: &mut String) -> Result<(), IdnaReason> {
    to_ascii_with(host, idna, out, false)
}

fn to_ascii_with(
    host: &str,
    idna: Idna,
    out: &mut String,
    fast_path: bool,
) -> Result<(), IdnaReason> {
    if host.len() > MAX_RAW_HOST {
        return Err(IdnaReason::RawTooLong);
    }
    let decoded;
    let host = if host.contains('%') {
        decoded = decode_host_percent(host).ok_or(IdnaReason::PercentNotUtf8)?;
        decoded.as_str()
    } else {
        host
    };
    // Labels UTS #46 leaves unchanged first (issue #11): the crate's answer at a fraction of the
    // cost, and none of the checks below can fail on it: its labels are of at most 63
    // characters (so within MAX_RAW_LABEL), and it writes `[a-z0-9-]` labels (unreserved)
    // joined by the host's own ASCII dots (it declines every other label separator).
    if fast_path && idna == Idna::Uts46 && fast::to_ascii(host, out) {
        return Ok(());
    }
    if host.split(is_label_dot).any(|l| l.len() > MAX_RAW_LABEL) {
        return Err(IdnaReason::RawLabelTooLong);
    }
    let mark = out.len();
    let r = ace(host, idna, out);
    // Whatever the flags (IDNA2003 without UseSTD3ASCIIRules lets Nameprep produce '/', '@',
    // ':', spaces or controls, e.g. from U+FF0F or U+FE6B), the result must stay one
    // reg-name (RFC 3986 §3.2.2: unreserved / sub-delims) or it would change the structure of
    // the URI (CVE-2019-9636 is this bug in Python's urlsplit).
    // Nor may mapping create label separators (IDNA2003 without STD3: NFKC of U+2025 is "..",
    // so one label would become three): the output has as many dots as the input has label
    // separators (RFC 3490 §3.1: ToASCII works label by label).
    if r.is_ok() {
        let produced = &out.as_bytes()[mark..];
        let dots_in = host.chars().filter(|&c| is_label_dot(c)).count();
        let dots_out = produced.iter().filter(|&&b| b == b'.').count();
        let reg_name = produced
            .iter()
            .all(|&b| classes::is(b, classes::UNRESERVED | classes::SUB_DELIMS));
        if !reg_name || dots_in != dots_out {
            out.truncate(mark);
            return Err(IdnaReason::NotRegName);
        }
    }
    r
}

fn ace(host: &str, idna: Idna, out: &mut String) -> Result<(), IdnaReason> {
    let mark = out.len();
    match idna {
        // The hosts `fast::to_ascii` declined (see `to_ascii`).
        Idna::Uts46 => {
            match fast::to_ascii_naive(host) {
                Some(s) => {
                    out.push_str(&s);
                    Ok(())
                }
                // Cold path: name the rule and the label (issue #10).
                None => Err(IdnaReason::Uts46(uts46_reason::diagnose(host))),
            }
        }
        Idna::Idna2003(flags) => idna2003::domain_to_ascii(host, flags, out).map_err(|e| {
            out.truncate(mark);
            IdnaReason::Idna2003(e)
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn idna_table_versions_match_the_lock_file() {
        // UTS46_UNICODE_VERSION was read from icu_normalizer_data 2.4's README (Unicode
        // 18.0.0): another data release may carry another Unicode version.
        let lock = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.lock"))
            .expect("Cargo.lock");
        let data = lock
            .split("[[package]]")
            .find(|p| p.contains("name = \"icu_normalizer_data\""))
            .expect("icu_normalizer_data in Cargo.lock");
        assert!(data.contains("version = \"2.4."), "{data}");
        assert_eq!(UTS46_UNICODE_VERSION, (18, 0, 0));
        assert_eq!(NAMEPREP_UNICODE_VERSION, (3, 2, 0));
        // A character of Unicode 3.2 that Nameprep and UTS #46 both map: the tables answer.
        let mut out = String::new();
        assert!(to_ascii("b\u{FC}cher.de", Idna::Uts46, &mut out).is_ok());
        assert_eq!(out, "xn--bcher-kva.de");
    }

    /// [`contains_ace_prefix`] against its twin: `xn--` in each ASCII case, its parts and
    /// near misses (`x-`, `n--`, `---`, `xn-`), at every position of every length up to 40
    /// (across the 15-byte steps of its blocks), with other bytes around; and random lines.
    #[test]
    fn ace_prefix_matches_twin() {
        let pieces: [&[u8]; 10] = [
            b"xn--", b"XN--", b"xN--", b"Xn--", b"n--", b"---", b"xn-", b"x-", b"-", b"--",
        ];
        let mut found = 0;
        for len in 0..=40usize {
            for pos in 0..=len {
                for p in pieces {
                    for fill in [b'a', b'-', b'x', 0x80] {
                        let mut v = vec![fill; len];
                        v.splice(pos.min(len)..pos.min(len), p.iter().copied());
                        let want = contains_ace_prefix_naive(&v);
                        assert_eq!(contains_ace_prefix(&v), want, "{v:?}");
                        found += usize::from(want);
                    }
                }
            }
        }
        assert!(found > 1000, "{found}");
        let mut x = 0x1234_5678_9ABC_DEF1u64;
        for _ in 0..200_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let len = (x >> 58) as usize;
            let v: Vec<u8> = (0..len)
                .map(|i| b"xXnN-.a"[((x >> (i % 50)) as usize) % 7])
                .collect();
            assert_eq!(
                contains_ace_prefix(&v),
                contains_ace_prefix_naive(&v),
                "{v:?}"
            );
        }
    }

    #[test]
    fn ace_detectors_agree() {
        for (h, label, anywhere) in [
            ("xn--bcher-kva.de", true, true),
            ("www.XN--bcher-kva.de", true, true),
            ("axn--b.com", false, true),
            ("user@xn--b", false, true),
            ("xn-.de", false, false),
            ("example.org", false, false),
            ("", false, false),
        ] {
            assert_eq!(has_ace_label(h), label, "{h}");
            assert_eq!(contains_ace_prefix(h.as_bytes()), anywhere, "{h}");
        }
    }

    #[test]
    fn to_unicode_decodes_ace_only() {
        assert_eq!(
            to_unicode("xn--bcher-kva.de", Idna::Uts46).as_deref(),
            Some("bücher.de")
        );
        let i3 = Idna::Idna2003(idna2003::Flags::CONVERT);
        assert_eq!(
            to_unicode("xn--bcher-kva.de", i3).as_deref(),
            Some("bücher.de")
        );
        assert_eq!(to_unicode("example.org", Idna::Uts46), None);
        let long = format!("xn--bcher-kva.{}", "a.".repeat(MAX_RAW_HOST));
        assert_eq!(to_unicode(&long, Idna::Uts46), None, "over the raw cap");
    }

    #[test]
    fn percent_decoding_of_hosts() {
        assert_eq!(decode_host_percent("r%C3%A9sum%C3%A9").unwrap(), "résumé");
        assert_eq!(decode_host_percent("a%2Eb").unwrap(), "a.b");
        assert!(decode_host_percent("%C3").is_none());
        assert!(decode_host_percent("%FF.de").is_none());
    }

    #[test]
    fn uts46_and_caps() {
        let mut s = String::new();
        to_ascii("résumé.example.org", Idna::Uts46, &mut s).unwrap();
        // RFC 3987 §3.1 example (3987bis §3.4.2 prints "xn--rsum-bad", a typo in the draft).
        assert_eq!(s, "xn--rsum-bpad.example.org");
        s.clear();
        to_ascii("bücher.de.", Idna::Uts46, &mut s).unwrap();
        assert_eq!(s, "xn--bcher-kva.de.", "root dot kept (contract 6)");
        let long = "ü".repeat(600);
        assert_eq!(
            to_ascii(&long, Idna::Uts46, &mut s),
            Err(IdnaReason::RawTooLong)
        );
        let label = format!("{}.de", "ü".repeat(200));
        assert_eq!(
            to_ascii(&label, Idna::Uts46, &mut s),
            Err(IdnaReason::RawLabelTooLong)
        );
        assert_eq!(
            to_ascii("a_b.bücher.de", Idna::Uts46, &mut s),
            Err(IdnaReason::Uts46(uts46_reason::Uts46Failure {
                rule: uts46_reason::Uts46Rule::Std3Ascii('_'),
                label: Some(0)
            }))
        );
    }
}
