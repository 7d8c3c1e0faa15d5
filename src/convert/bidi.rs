//! The bidi structure of an IRI, component by component (RFC 3987 §4.2, examples in §4.4).
//!
//! §4.2 gives two rules for each *component*:
//! 1. a component does not use both right-to-left and left-to-right characters
//!    ([`BidiRule::Mixed`], error code `bidi-mixed`);
//! 2. a component that uses right-to-left characters starts and ends with one
//!    ([`BidiRule::Boundary`], error code `bidi-boundary`). Nonspacing marks (Bidi_Class NSM)
//!    at the end belong to the character they follow (UAX #9 rule W1; RFC 5893 rule 3 allows
//!    them in the same place): `خانهٔ` ends with HEH plus HAMZA ABOVE and is right-to-left.
//!
//! "Right-to-left" is Bidi_Class R or AL, "left-to-right" is Bidi_Class L (UAX #9). The RFC
//! says SHOULD; §4.4 calls the violations "not allowed", and `check` reports them as errors.
//!
//! # The components (contract item 13)
//! §4.2 names `iuserinfo`, `ireg-name`, `isegment`, `iquery` and `ifragment`, and lets a
//! specification divide them further: "each label of a domain name", "for the usual
//! name/value syntax in query parts ... each name and each value", and "the extensions in a
//! resource name can be treated as separate components". So the components are:
//! - the userinfo, whole;
//! - each label of a reg-name host (split at the label dots of RFC 3490 §3.1: `.`, U+3002,
//!   U+FF0E, U+FF61); an IP literal is no component (it is ASCII);
//! - each path segment (split at `/`), except that the **last** segment is split at its
//!   **last** `.`: `KL.html` is the components `KL` and `html`, `a.tar.gz` is `a.tar` and `gz`;
//! - in the query, each piece between `&` and `;` is split at its **first** `=` into a name
//!   and a value (`q=שלום&lang=he` is `q`, `שלום`, `lang`, `he`);
//! - the fragment, whole.
//!
//! The delimiters (`@ . / ? & ; = #`) belong to no component. The port and the scheme are
//! ASCII and cannot hold right-to-left characters.
//!
//! # Speed
//! Only a component holding a right-to-left character can break either rule, so
//! [`may_contain_rtl`] — a byte test derived from the Unicode data and checked over every
//! code point by the tests — skips lines that cannot hold one (`check` answers it in its one
//! walk over the line's characters and calls [`check_line_rtl`]); in the other lines the
//! ASCII components are skipped, and Bidi_Class is looked up only in the rest, through a per-page memo ([`Strength`], [`strength`]) instead
//! of `unicode_bidi::bidi_class`'s binary search on every character (issue 11: about half of
//! `check`'s bidi cost on `intl_cldr.txt`).

use crate::error::{ErrorKind, LineError};
use crate::grammar::charmemo::PageMemo;
use crate::grammar::components::{self, Components};
use std::ops::Range;
use unicode_bidi::BidiClass;

/// Which rule of RFC 3987 §4.2 a component breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BidiRule {
    /// Rule 1: right-to-left and left-to-right characters in one component.
    Mixed,
    /// Rule 2: a component with right-to-left characters starts or ends with another one.
    Boundary,
}

/// The first violation found in a line: the byte offset in the line (the first
/// left-to-right character of a mixed component; the offending first or last character of a
/// component that breaks the boundary rule) and the rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BidiViolation {
    /// Byte offset in the line.
    pub at: usize,
    /// The rule broken.
    pub rule: BidiRule,
}

impl BidiViolation {
    /// The error kind of the report (`bidi-mixed` or `bidi-boundary`).
    pub fn kind(self) -> ErrorKind {
        match self.rule {
            BidiRule::Mixed => ErrorKind::BidiMixed,
            BidiRule::Boundary => ErrorKind::BidiBoundary,
        }
    }
}

impl From<BidiViolation> for LineError {
    fn from(v: BidiViolation) -> Self {
        LineError::new(v.kind(), v.at)
    }
}

/// True for Bidi_Class R or AL (UAX #9 Table 4: the strong right-to-left classes).
#[inline]
pub fn is_rtl(c: char) -> bool {
    strength(c) == Strength::Rtl
}

/// What RFC 3987 §4.2 asks of a character's Bidi_Class (UAX #9 Table 4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Strength {
    /// Any class not below (weak or neutral, but not NSM).
    Other = 0,
    /// L: strong left-to-right.
    Ltr = 1,
    /// R or AL: strong right-to-left.
    Rtl = 2,
    /// NSM: a nonspacing mark (UAX #9 rule W1).
    Nsm = 3,
}

/// The twin of [`strength`]: `unicode_bidi::bidi_class` (a binary search of the Unicode
/// Character Database's ranges) on every call.
pub fn strength_naive(c: char) -> Strength {
    match unicode_bidi::bidi_class(c) {
        BidiClass::L => Strength::Ltr,
        BidiClass::R | BidiClass::AL => Strength::Rtl,
        BidiClass::NSM => Strength::Nsm,
        _ => Strength::Other,
    }
}

/// The [`Strength`] of `c`, from a per-page memo of [`strength_naive`]
/// ([`PageMemo`]: a page is filled the first time one of its characters is asked about, 128
/// binary searches; the test `strength_memo_matches_bidi_class_on_every_code_point` compares
/// them on every code point).
#[inline]
pub fn strength(c: char) -> Strength {
    static STRENGTH: PageMemo<Strength> = PageMemo::new(strength_naive, Strength::Other);
    STRENGTH.get(c)
}

/// Where a host would be displayed with a number in its place (issue 16; RFC 3987 §4.4,
/// Example 10: "components consisting of only numbers … may interact with adjacent RTL
/// components in ways that are not easy to predict"): the start of the label of `host`
/// (split at `.`) that holds its last strong character (UAX #9 Table 4: L, R or AL) when
/// that character is right-to-left and the first character of `after` (what follows the
/// host: port, path, query, fragment) that is L, EN or AN is a number (neutrals and more
/// right-to-left text do not end the run; the digits that end that label are its own text
/// and do not count, those of a later label do). In a left-to-right paragraph, UAX #9 rules N1
/// and I1 put the right-to-left text, the delimiters and the digits into one run displayed
/// from right to left: `https://במי.ישראל/8.8.8.8/login` shows as
/// `https://8.8.8.8/לארשי.ימב/login`, read as the host `8.8.8.8` (found by a QA sweep).
/// That label written in `xn--` form (left-to-right at both ends) ends the run. `None` for
/// a host without a right-to-left character or a line without the problem.
pub fn rtl_host_before_number(host: &str, after: &str) -> Option<usize> {
    if !may_contain_rtl(host.as_bytes()) {
        return None;
    }
    let (k, ch) = host
        .char_indices()
        .rev()
        .find(|&(_, ch)| matches!(strength(ch), Strength::Ltr | Strength::Rtl))?;
    if strength(ch) != Strength::Rtl {
        return None;
    }
    // The rest of that label (digits: no strong character) belongs to the run, but its
    // digits are the label's own text (`ؠ85`, an Arabic label ending in digits, RFC 5893 §2
    // rule 3); a number in a later label (`א.8.8.8.8`, a percent-decoded host; found by a
    // QA sweep) or after the host takes the host's place.
    // Letters answer from the memo of [`strength`]; only the rest (digits, delimiters,
    // symbols) asks `bidi_class`.
    let label_end = host[k..].find('.').map_or(host.len(), |p| k + p);
    let mut rest = host[label_end..].chars().chain(after.chars());
    let number = rest.find_map(|c| match strength(c) {
        Strength::Ltr => Some(false),
        Strength::Rtl | Strength::Nsm => None,
        Strength::Other if c.is_ascii_digit() => Some(true),
        Strength::Other => match unicode_bidi::bidi_class(c) {
            BidiClass::EN | BidiClass::AN => Some(true),
            _ => None,
        },
    })?;
    number.then(|| host[..k].rfind('.').map_or(0, |p| p + 1))
}

/// The prefilter: true if `b` may hold a character of Bidi_Class R or AL; false only if it
/// holds none (the tests check every code point). In UTF-8 (Unicode 16 data), R and AL
/// occur only under these leading bytes:
/// - `D6`–`DF`: U+0580–U+07FF (Hebrew, Arabic, Syriac, Thaana, NKo, ...);
/// - `E0 A0`–`E0 A3`: U+0800–U+08FF (Samaritan, Mandaic, Arabic Extended-A/B);
/// - `E2 80 8F`: U+200F RIGHT-TO-LEFT MARK (`check` already rejects it, RFC 3987 §4.1);
/// - `EF AC`–`EF BB`: U+FB00–U+FEFF (Hebrew and Arabic presentation forms);
/// - `F0 90`, `F0 9E`: U+10000–U+10FFF and U+1E000–U+1EFFF (historic scripts, Adlam, ...).
///
/// The test runs in 16-byte blocks (`crate::simd::rtl`, twin-tested there).
#[inline]
pub fn may_contain_rtl(b: &[u8]) -> bool {
    crate::simd::rtl::may_contain_rtl(b)
}

/// The leading bytes of [`may_contain_rtl`] alone, without the byte after them, and without
/// `E2` (U+200F, which no IRI holds raw: RFC 3987 §4.1): a byte test a loop over a buffer
/// can fold without branches (the compiler vectorizes it), for a first look before the exact
/// prefilter where most text is in other scripts (to-iri's output).
#[inline]
pub fn may_lead_rtl(b: u8) -> bool {
    b.wrapping_sub(0xD6) < 10 || b == 0xE0 || b == 0xEF || b == 0xF0
}

/// RFC 3987 §4.2 on one component: `s[r]`. The caller has run [`may_contain_rtl`] or not;
/// the answer is the same.
pub fn check_component(s: &str, r: Range<usize>) -> Result<(), BidiViolation> {
    let comp = &s[r.clone()];
    let mut any_rtl = false;
    let mut first_l = None;
    for (i, c) in comp.char_indices() {
        if c.is_ascii() {
            if first_l.is_none() && c.is_ascii_alphabetic() {
                first_l = Some(i);
            }
            continue;
        }
        match strength(c) {
            Strength::Rtl => any_rtl = true,
            Strength::Ltr if first_l.is_none() => first_l = Some(i),
            _ => {}
        }
    }
    if !any_rtl {
        return Ok(());
    }
    if let Some(i) = first_l {
        return Err(BidiViolation {
            at: r.start + i,
            rule: BidiRule::Mixed,
        });
    }
    let first = comp.chars().next().expect("holds an RTL character");
    if !is_rtl(first) {
        return Err(BidiViolation {
            at: r.start,
            rule: BidiRule::Boundary,
        });
    }
    // Trailing nonspacing marks belong to the character before them (UAX #9 rule W1 gives an
    // NSM the class of the preceding character; RFC 5893 rule 3 allows them likewise).
    let (li, last) = comp
        .char_indices()
        .rev()
        .find(|&(_, c)| strength(c) != Strength::Nsm)
        .expect("holds an RTL character");
    if !is_rtl(last) {
        return Err(BidiViolation {
            at: r.start + li,
            rule: BidiRule::Boundary,
        });
    }
    Ok(())
}

/// Appends the §4.2 components of the line `s` (split into `c` by [`components::split`]) to
/// `out`, in line order (see the module documentation for the rule), of the parts
/// (authority, path, query, fragment) that hold a non-ASCII byte. An authority that
/// [`components::split_authority`] refuses is one component (the grammar check reports it).
///
/// The components of an ASCII part are left out: they hold no right-to-left character
/// (nothing for §4.2 to check) and no character `check` warns about (all are non-ASCII),
/// and no part's split looks into another, so the other parts' components are the same.
pub fn push_components(s: &str, c: &Components, out: &mut Vec<Range<usize>>) {
    let line = s.as_bytes();
    let wide = |r: &Range<usize>| !line[r.clone()].is_ascii();
    if let Some(ar) = c.authority.clone().filter(wide) {
        match components::split_authority(line, ar.clone()) {
            Ok(a) => {
                out.extend(a.userinfo.clone());
                if line.get(a.host.start) != Some(&b'[') {
                    push_labels(s, a.host.clone(), out);
                }
            }
            Err(_) => out.push(ar),
        }
    }
    // Path: segments at '/', the last one split at its last '.'.
    let p = c.path.clone();
    if wide(&p) {
        let mut start = p.start;
        for (k, &x) in line[p.clone()].iter().enumerate() {
            if x == b'/' {
                out.push(start..p.start + k);
                start = p.start + k + 1;
            }
        }
        match line[start..p.end].iter().rposition(|&b| b == b'.') {
            Some(k) => {
                out.push(start..start + k);
                out.push(start + k + 1..p.end);
            }
            None => out.push(start..p.end),
        }
    }
    // Query: pieces at '&' and ';', each split at its first '='.
    if let Some(q) = c.query.clone().filter(wide) {
        let mut start = q.start;
        for (k, &x) in line[q.clone()].iter().enumerate() {
            if x == b'&' || x == b';' {
                push_name_value(line, start..q.start + k, out);
                start = q.start + k + 1;
            }
        }
        push_name_value(line, start..q.end, out);
    }
    out.extend(c.fragment.clone().filter(wide));
}

/// Pushes the query piece `r` as a name and a value when it has a `=` (the first one splits),
/// or whole.
#[inline]
fn push_name_value(line: &[u8], r: Range<usize>, out: &mut Vec<Range<usize>>) {
    match line[r.clone()].iter().position(|&b| b == b'=') {
        Some(k) => {
            out.push(r.start..r.start + k);
            out.push(r.start + k + 1..r.end);
        }
        None => out.push(r),
    }
}

/// Host labels: split at the four label dots of RFC 3490 §3.1 ([`crate::host::labels`]).
fn push_labels(s: &str, r: Range<usize>, out: &mut Vec<Range<usize>>) {
    let at = r.start;
    out.extend(crate::host::labels(&s[r]).map(|(k, l)| at + k..at + k + l.len()));
}

/// RFC 3987 §4.2 over a whole line (`s`, already UTF-8; `c` its components): the first
/// violation in line order. `scratch` is reused between lines (no allocation per line).
///
/// ```
/// use iribulk::convert::bidi::{check_line, BidiRule};
/// use iribulk::grammar::components::split;
/// let ok = "http://אב.גד.ef/gh/טי/ךכ.html"; // RFC 3987 §4.4 example 4
/// assert!(check_line(ok, &split(ok.as_bytes()), &mut Vec::new()).is_ok());
/// let bad = "http://ab.cd.ef/זח1/2טי/ךכ.html"; // example 8
/// let v = check_line(bad, &split(bad.as_bytes()), &mut Vec::new()).unwrap_err();
/// assert_eq!(v.rule, BidiRule::Boundary);
/// ```
pub fn check_line(
    s: &str,
    c: &Components,
    scratch: &mut Vec<Range<usize>>,
) -> Result<(), BidiViolation> {
    if !may_contain_rtl(s.as_bytes()) {
        return Ok(());
    }
    check_line_rtl(s, c, scratch)
}

/// [`check_line`] without its first step, the prefilter over the whole line: for a caller
/// that already knows [`may_contain_rtl`] of the line (`check`'s one walk over the line's
/// characters); the answer is the same either way.
pub fn check_line_rtl(
    s: &str,
    c: &Components,
    scratch: &mut Vec<Range<usize>>,
) -> Result<(), BidiViolation> {
    scratch.clear();
    push_components(s, c, scratch);
    for r in scratch.iter() {
        // An ASCII component has no right-to-left character; any other is walked
        // (`check_component` answers the same with or without a prefilter).
        if !s.as_bytes()[r.clone()].is_ascii() {
            check_component(s, r.clone())?;
        }
    }
    Ok(())
}

/// The slow, obviously correct twin of [`check_line`]: its own split of the line with `str`
/// methods, no prefilter, every character's Bidi_Class looked up.
#[cfg(any(test, feature = "twins"))]
pub fn check_line_slow(s: &str) -> Result<(), BidiViolation> {
    // Each component as (offset, text).
    let mut comps: Vec<(usize, &str)> = Vec::new();
    let (before_frag, frag) = match s.find('#') {
        Some(k) => (&s[..k], Some((k + 1, &s[k + 1..]))),
        None => (s, None),
    };
    let (before_q, query) = match before_frag.find('?') {
        Some(k) => (&before_frag[..k], Some((k + 1, &before_frag[k + 1..]))),
        None => (before_frag, None),
    };
    let mut pos = 0;
    if let Some(k) = before_q.find(':') {
        if k > 0 && !before_q[..k].contains('/') {
            pos = k + 1;
        }
    }
    let mut path_start = pos;
    if before_q[pos..].starts_with("//") {
        let a0 = pos + 2;
        let a1 = before_q[a0..].find('/').map_or(before_q.len(), |k| a0 + k);
        let auth = &before_q[a0..a1];
        path_start = a1;
        let (ui, host_off, hostport) = match auth.find('@') {
            Some(k) => (Some((a0, &auth[..k])), a0 + k + 1, &auth[k + 1..]),
            None => (None, a0, auth),
        };
        let digits = |p: &str| p.bytes().all(|b| b.is_ascii_digit());
        // (host, its offset) when the authority splits; None when it is one component.
        let split: Option<Option<&str>> =
            if auth.matches('@').count() > 1 || ui.is_some_and(|(_, u)| u.contains(['[', ']'])) {
                None
            } else if let Some(lit) = hostport.strip_prefix('[') {
                match lit.find(']') {
                    Some(k) if lit[k + 1..].is_empty() => Some(None),
                    Some(k) if lit[k + 1..].starts_with(':') && digits(&lit[k + 2..]) => Some(None),
                    _ => None,
                }
            } else {
                let (host, port) = hostport.split_once(':').unwrap_or((hostport, ""));
                digits(port).then_some(Some(host))
            };
        match split {
            None => comps.push((a0, auth)),
            Some(host) => {
                comps.extend(ui);
                if let Some(host) = host {
                    let mut off = host_off;
                    for label in host.split(crate::host::is_label_dot) {
                        comps.push((off, label));
                        off += label.len();
                        off += host[off - host_off..]
                            .chars()
                            .next()
                            .map_or(0, char::len_utf8);
                    }
                }
            }
        }
    }
    let path = &before_q[path_start..];
    let segs: Vec<&str> = path.split('/').collect();
    let mut off = path_start;
    for (n, seg) in segs.iter().enumerate() {
        if n + 1 == segs.len() {
            match seg.rsplit_once('.') {
                Some((name, ext)) => {
                    comps.push((off, name));
                    comps.push((off + name.len() + 1, ext));
                }
                None => comps.push((off, seg)),
            }
        } else {
            comps.push((off, seg));
        }
        off += seg.len() + 1;
    }
    if let Some((q0, q)) = query {
        let mut off = q0;
        for piece in q.split(['&', ';']) {
            match piece.split_once('=') {
                Some((name, value)) => {
                    comps.push((off, name));
                    comps.push((off + name.len() + 1, value));
                }
                None => comps.push((off, piece)),
            }
            off += piece.len() + 1;
        }
    }
    comps.extend(frag);
    for (off, text) in comps {
        let classes: Vec<(usize, BidiClass)> = text
            .char_indices()
            .map(|(i, c)| (i, unicode_bidi::bidi_class(c)))
            .collect();
        let rtl = |b: BidiClass| matches!(b, BidiClass::R | BidiClass::AL);
        if !classes.iter().any(|&(_, b)| rtl(b)) {
            continue;
        }
        if let Some(&(i, _)) = classes.iter().find(|&&(_, b)| b == BidiClass::L) {
            return Err(BidiViolation {
                at: off + i,
                rule: BidiRule::Mixed,
            });
        }
        let (fi, fb) = classes[0];
        let (li, lb) = *classes
            .iter()
            .rev()
            .find(|&&(_, b)| b != BidiClass::NSM)
            .expect("an RTL character");
        if !rtl(fb) {
            return Err(BidiViolation {
                at: off + fi,
                rule: BidiRule::Boundary,
            });
        }
        if !rtl(lb) {
            return Err(BidiViolation {
                at: off + li,
                rule: BidiRule::Boundary,
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn fast(s: &str) -> Result<(), BidiViolation> {
        check_line(s, &components::split(s.as_bytes()), &mut Vec::new())
    }

    /// The memo answers like `unicode_bidi::bidi_class` on every code point, in an order that
    /// fills pages from their last code point as well as their first.
    #[test]
    fn strength_memo_matches_bidi_class_on_every_code_point() {
        let mut seen = [0u32; 4];
        for u in (0..=0x10FFFFu32).rev().step_by(7).chain(0..=0x10FFFF) {
            let Some(c) = char::from_u32(u) else { continue };
            let want = strength_naive(c);
            assert_eq!(strength(c), want, "U+{u:04X}");
            assert_eq!(is_rtl(c), want == Strength::Rtl, "U+{u:04X}");
            seen[want as usize] += 1;
        }
        // Every kind occurs, in the numbers the Unicode data has (hundreds of thousands of L,
        // thousands of R/AL and of NSM).
        assert!(seen.iter().all(|&n| n > 1000), "{seen:?}");
        assert_eq!(strength('\u{5D0}'), Strength::Rtl);
        assert_eq!(strength('\u{64B}'), Strength::Nsm);
        assert_eq!(strength('a'), Strength::Ltr);
        assert_eq!(strength('1'), Strength::Other);
    }

    /// The prefilter misses no R or AL character: every code point, alone and inside ASCII.
    #[test]
    fn prefilter_covers_every_rtl_code_point() {
        let mut rtl = 0;
        let mut passed = 0;
        for c in (0..=0x10FFFFu32).filter_map(char::from_u32) {
            let mut buf = [0u8; 4];
            let enc = c.encode_utf8(&mut buf).as_bytes();
            let hit = may_contain_rtl(enc);
            if strength_naive(c) == Strength::Rtl {
                rtl += 1;
                assert!(hit, "U+{:04X} is R/AL but the prefilter skips it", c as u32);
                assert!(
                    may_lead_rtl(enc[0]) || c == '\u{200F}',
                    "U+{:04X} is R/AL but may_lead_rtl skips its lead",
                    c as u32
                );
                let mut framed = b"ab/".to_vec();
                framed.extend_from_slice(enc);
                framed.extend_from_slice(b"/c");
                assert!(may_contain_rtl(&framed));
            } else if hit {
                passed += 1;
            }
        }
        assert!(rtl > 2000, "only {rtl} R/AL code points: data missing?");
        // The filter is tight: few non-RTL code points pass it (Arabic digits and marks,
        // unassigned code points inside RTL blocks).
        assert!(
            passed < 12_000,
            "{passed} non-RTL code points pass the prefilter"
        );
        // Common LTR non-ASCII text never passes it.
        for s in [
            "bücher",
            "日本語",
            "Ελληνικά",
            "русский",
            "हिन्दी",
            "\u{2013}\u{201C}",
        ] {
            assert!(!may_contain_rtl(s.as_bytes()), "{s}");
        }
    }

    #[test]
    fn rfc3987_section_4_4_examples() {
        // Upper-case letters of the RFC written as Hebrew letters.
        let allowed = [
            "http://ab.גדהוזח.ij/kl/mn/op.html",
            "http://ab.גדה.וזח/ij/kl/mn/op.html",
            "http://אב.גד.הו/זח/טי/ךכ?למ=םן;נס=עף#פץ",
            "http://אב.גד.ef/gh/טי/ךכ.html",
            "http://ab.cd.הו/זח/ij/kl.html",
            "http://ab.גד.הו/זח/טי/kl.html",
            "http://ab.גדה123וזח.ij/kl/mn/op.html",
            "http://ab.גדהוזח.123/kl/mn/op.html",
            "/שלום.html",
            "/تقرير.pdf",
            "?q=שלום&lang=he",
            "http://משתמש@x/",
        ];
        for s in allowed {
            assert_eq!(fast(s), Ok(()), "{s}");
            assert_eq!(check_line_slow(s), Ok(()), "{s}");
        }
        let ex8 = "http://ab.cd.ef/זח1/2טי/ךכ.html";
        let ex9 = "http://ab.cd.ef/זח%31/%32טי/ךכ.html";
        for s in [ex8, ex9] {
            let v = fast(s).unwrap_err();
            assert_eq!(v.rule, BidiRule::Boundary, "{s}");
            // The last character of the component "זח1" / "זח%31": the digit.
            assert_eq!(v.at, s.find('1').unwrap(), "{s}");
            assert_eq!(check_line_slow(s), Err(v));
        }
    }

    #[test]
    fn offsets_and_rules() {
        let s = "/אbב";
        assert_eq!(
            fast(s),
            Err(BidiViolation {
                at: 3,
                rule: BidiRule::Mixed
            })
        );
        // The extension is split off only from the last segment.
        assert_eq!(fast("/שלום.html/x").unwrap_err().rule, BidiRule::Mixed);
        // In the query the first '=' splits; a second one stays in the value.
        assert_eq!(fast("?a=שלום=b").unwrap_err().rule, BidiRule::Mixed);
        assert_eq!(fast("?a=שלום;b=c&d").map(|_| 1), Ok(1));
        // The fragment is one component.
        assert_eq!(fast("#שלום.html").unwrap_err().rule, BidiRule::Mixed);
        // Host labels also split at U+3002.
        assert_eq!(fast("http://אב\u{3002}ef/"), Ok(()));
        // Userinfo is whole.
        assert_eq!(fast("http://a:שלום@x/").unwrap_err().rule, BidiRule::Mixed);
        // IP literal and port are no components.
        assert_eq!(fast("http://[::1]:80/שלום"), Ok(()));
        // Boundary at the end: the offset of the last character.
        let s = "/שלום1";
        assert_eq!(
            fast(s),
            Err(BidiViolation {
                at: s.len() - 1,
                rule: BidiRule::Boundary
            })
        );
        let e: LineError = fast(s).unwrap_err().into();
        assert_eq!(e.kind, ErrorKind::BidiBoundary);
    }

    /// The regression rows of tests/data/bidi_components.tsv (input, verdict, section).
    #[test]
    fn data_file_rows() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/bidi_components.tsv"
        );
        let text = std::fs::read_to_string(path).expect("tests/data/bidi_components.tsv");
        let mut n = 0;
        for line in text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
        {
            let f: Vec<&str> = line.split('\t').collect();
            assert_eq!(f.len(), 4, "{line}");
            if f[0] == "id" {
                continue;
            }
            let want = f[2];
            let got = match fast(f[1]) {
                Ok(()) => "OK".to_string(),
                Err(v) => format!("ERROR:{}@{}", v.kind().code(), v.at),
            };
            assert_eq!(got, want, "row {} ({})", f[0], f[3]);
            assert_eq!(fast(f[1]), check_line_slow(f[1]), "twin, row {}", f[0]);
            n += 1;
        }
        assert!(n >= 20, "only {n} rows");
    }

    fn iri_like() -> impl Strategy<Value = String> {
        let alphabet = prop::sample::select(vec![
            "a",
            "Z",
            "1",
            "-",
            "%31",
            ".",
            "/",
            "//",
            "?",
            "#",
            "&",
            ";",
            "=",
            "@",
            ":",
            "א",
            "ב",
            "ش",
            "\u{661}",
            "\u{64B}",
            "é",
            "日",
            "\u{3002}",
            "http:",
            "[::1]",
            "\u{10800}",
            "\u{FB1D}",
            "\u{5BF}",
            " ",
        ]);
        prop::collection::vec(alphabet, 0..24).prop_map(|v| v.concat())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4000))]
        /// The fast path (splitter ranges, prefilter) and the twin give the same answer.
        #[test]
        fn fast_equals_twin(s in iri_like()) {
            prop_assert_eq!(fast(&s), check_line_slow(&s), "{}", s);
        }
    }
}
