//! IDNA2003: RFC 3490 ToASCII and ToUnicode, with RFC 3491 Nameprep (the RFC 3454 stringprep
//! profile for domain labels) and RFC 3492 Punycode.
//!
//! This is the IDNA that RFC 3987 §3.1 names for converting the host of an IRI. It is not UTS #46:
//! `faß.de` is `fass.de` here (table B.2 folds `ß` to `ss`), final sigma folds to `σ`, ZWJ and ZWNJ
//! are mapped to nothing (table B.1), and code points unassigned in Unicode 3.2 pass through
//! unchanged when `AllowUnassigned` is set.
//!
//! # Building blocks
//!
//! * Nameprep is assembled from the public [`stringprep::tables`] module (tables A.1, B.1, B.2 and
//!   C.*), not from `stringprep::nameprep()`, which always refuses unassigned code points
//!   (`AllowUnassigned` = FALSE) while RFC 3987 §3.1 converts with `AllowUnassigned` = TRUE.
//! * The bidi tables D.1 and D.2 of RFC 3454 are embedded in this file. The `stringprep` crate
//!   answers them from today's Unicode bidi classes, which differ from Unicode 3.2 on hundreds of
//!   code points (the Braille patterns U+2800–U+28FF were ON and are L now, U+06DD was AL and is
//!   AN now, U+070F was BN and is AL now, and every code point assigned after 3.2).
//! * Punycode is `idna::punycode`.
//! * NFKC is the `unicode-normalization` crate (today's Unicode), adjusted to Unicode 3.2 as
//!   described next.
//!
//! # Unicode 3.2 NFKC (RFC 3491 §4, RFC 3454 §4)
//!
//! Nameprep normalizes with NFKC as of Unicode 3.2. Today's NFKC gives the same result on strings
//! of code points assigned in 3.2 (Unicode's normalization stability policy), with two kinds of
//! exception, both handled here:
//!
//! 1. **The normalization corrections** (NormalizationCorrections.txt). Five CJK compatibility
//!    ideographs had their decomposition corrected in Unicode 4.0 (Corrigendum #4); Nameprep must
//!    keep the Unicode 3.2 mapping, so these are replaced by their 3.2 decomposition before NFKC
//!    runs (see [`UNICODE_3_2_CORRECTIONS`]): U+2F868 → U+2136A, U+2F874 → U+5F33,
//!    U+2F91F → U+43AB, U+2F95F → U+7AAE, U+2F9BF → U+4D57. The sixth entry of that file,
//!    U+F951 (Corrigendum #3, 96FB → 964B), is marked as corrected *in* 3.2.0: the Unicode 3.2
//!    data already decomposes U+F951 to U+964B, like today's, so it needs no special case (it is
//!    still tested).
//! 2. **Code points unassigned in Unicode 3.2** (table A.1). In 3.2 they have no decomposition and
//!    combining class 0, so they are starters that nothing composes with. Today some of them
//!    decompose (U+1F100 DIGIT ZERO FULL STOP would become `0.`, putting a dot into a label) or
//!    are reordered as combining marks. So a table A.1 code point is copied unchanged and acts as
//!    a normalization boundary: the text between two of them is normalized on its own. That is
//!    exactly 3.2 NFKC, since a 3.2 starter that composes with nothing splits normalization.
//!
//! The composition algorithm is today's, that is, with the Corrigendum #5 wording of "blocked"
//! (2005). That is what UAX #15's reference code did all along, and what every IDNA2003
//! implementation in use (libidn, ICU, CPython's `encodings.idna`) does, so
//! `U+0B47 U+0300 U+0B3E` stays uncomposed.
//!
//! # Length caps (hostile-input hardening)
//!
//! Every operation runs in time linear in its input and never panics. Before any costly work:
//!
//! * a domain name longer than [`MAX_RAW_DOMAIN_BYTES`] (1024) bytes is refused with
//!   [`Error::RawTooLong`] before it is split into labels;
//! * a label that contains non-ASCII code points and is longer than [`MAX_RAW_LABEL_BYTES`] (255)
//!   bytes is refused with [`Error::RawTooLong`] before Nameprep (an all-ASCII label skips
//!   Nameprep, RFC 3490 §4.1 step 1, and gets the ordinary step 8 length check instead);
//! * after Nameprep, a non-ASCII label of more than 59 code points is refused with
//!   [`Error::LabelTooLong`] before Punycode runs: Punycode writes at least one octet per code
//!   point, so its ACE label ("xn--" plus at least that many octets) could not fit in 63 octets;
//! * the ASCII name must be at most [`MAX_NAME_OCTETS`] (253) octets, not counting a root dot
//!   (RFC 1034 §3.1); the check runs after each label, so a long name stops early.
//!
//! The raw-label cap can refuse a label that Nameprep would have shrunk below 64 code points
//! (for instance 200 soft hyphens around a short word); such a label is not a realistic host.

use stringprep::tables;
use unicode_normalization::{is_nfkc_quick, IsNormalized, UnicodeNormalization};

/// The ACE prefix of RFC 3490 §5, in the lower case that ToASCII writes.
pub const ACE_PREFIX: &str = "xn--";

/// Longest label, in octets, that ToASCII may output (RFC 3490 §4.1 step 8).
pub const MAX_LABEL_OCTETS: usize = 63;

/// Longest ASCII domain name, in octets, not counting a trailing root dot (RFC 1034 §3.1: 255
/// octets in wire format, which is 253 in text form).
pub const MAX_NAME_OCTETS: usize = 253;

/// Cap, in UTF-8 bytes, on a raw label that contains non-ASCII code points, checked before
/// Nameprep runs (hostile-input hardening, see the module documentation).
pub const MAX_RAW_LABEL_BYTES: usize = 255;

/// Cap, in UTF-8 bytes, on a raw domain name, checked before anything else.
pub const MAX_RAW_DOMAIN_BYTES: usize = 1024;

/// The normalization corrections of Unicode 4.0 (Corrigendum #4), as
/// `(code point, its Unicode 3.2 decomposition, today's decomposition)`.
///
/// Nameprep (RFC 3491 §4) uses Unicode 3.2 NFKC, so these code points are replaced by their 3.2
/// decomposition before today's NFKC runs. Each 3.2 target is a unified ideograph with no
/// decomposition of its own, so NFKC leaves it alone.
pub const UNICODE_3_2_CORRECTIONS: [(char, char, char); 5] = [
    ('\u{2F868}', '\u{2136A}', '\u{36FC}'),
    ('\u{2F874}', '\u{5F33}', '\u{5F53}'),
    ('\u{2F91F}', '\u{43AB}', '\u{243AB}'),
    ('\u{2F95F}', '\u{7AAE}', '\u{7AEE}'),
    ('\u{2F9BF}', '\u{4D57}', '\u{45D7}'),
];

/// The flags of RFC 3490 §4: defined with the other options in [`crate::config`] (the bottom
/// layer), named `Flags` here.
pub use crate::config::Idna2003Flags as Flags;

/// Why ToASCII (RFC 3490 §4.1) or Nameprep (RFC 3491) failed: defined beside the other error
/// kinds in [`crate::error`] (the bottom layer), named `Error` here.
pub use crate::error::Idna2003Error as Error;

/// RFC 3491 Nameprep of one label (no dot handling: dots are ordinary code points here).
///
/// Steps, in the order of RFC 3454 §3 and RFC 3491 §§3–7:
///
/// 1. Mapping (RFC 3491 §3): table B.1 code points are removed, then table B.2 case folding is
///    applied.
/// 2. Normalization (RFC 3491 §4): Unicode 3.2 NFKC — today's NFKC with the
///    [`UNICODE_3_2_CORRECTIONS`] applied first and table A.1 code points kept as they are, as
///    normalization boundaries (module documentation).
/// 3. Prohibited output (RFC 3491 §5): tables C.1.2, C.2.2, C.3, C.4, C.5, C.6, C.7, C.8 and C.9
///    give [`Error::Prohibited`].
/// 4. Bidi (RFC 3491 §6, RFC 3454 §6) with tables D.1 and D.2 of Unicode 3.2 gives
///    [`Error::Bidi`].
/// 5. Unassigned code points (RFC 3491 §7, RFC 3454 §7): table A.1 gives [`Error::Unassigned`]
///    unless `allow_unassigned`.
///
/// Hardening: a `label` longer than [`MAX_RAW_LABEL_BYTES`] bytes is refused with
/// [`Error::RawTooLong`] before step 1, whatever it contains.
pub fn nameprep(label: &str, allow_unassigned: bool) -> Result<String, Error> {
    if label.len() > MAX_RAW_LABEL_BYTES {
        return Err(Error::RawTooLong);
    }
    let mut out = String::with_capacity(label.len());
    nameprep_into(label, allow_unassigned, &mut out)?;
    Ok(out)
}

/// RFC 3490 §4.1 ToASCII of one label, appended to `out`.
///
/// 1. (§4.1 step 1) A label of ASCII only skips Nameprep and keeps its case: `WWW` stays `WWW`.
/// 2. (step 2) Otherwise Nameprep ([`nameprep`]) with `flags.allow_unassigned`; a label over
///    [`MAX_RAW_LABEL_BYTES`] bytes is refused first with [`Error::RawTooLong`].
/// 3. (step 3) With `flags.use_std3_ascii_rules`: no non-LDH ASCII ([`Error::Std3`]), no leading
///    or trailing hyphen-minus ([`Error::Hyphen`]).
/// 4. (step 4) If the label is now ASCII, go to step 8.
/// 5. (step 5) It must not begin with the ACE prefix, in any case ([`Error::AcePrefix`]).
///    Hardening: a label of more than 59 code points is refused here with
///    [`Error::LabelTooLong`], as its ACE form cannot fit in 63 octets.
/// 6. (steps 6 and 7) Punycode-encode (RFC 3492) and prepend `xn--`. Nameprep has already
///    lower-cased every ASCII letter, so the result is lower case.
/// 7. (step 8) The result must be 1 to 63 octets ([`Error::EmptyLabel`],
///    [`Error::LabelTooLong`]).
///
/// On error `out` is left unchanged.
pub fn label_to_ascii(label: &str, flags: Flags, out: &mut String) -> Result<(), Error> {
    // Step 1.
    if label.is_ascii() {
        // Step 3.
        if flags.use_std3_ascii_rules {
            check_std3(label)?;
        }
        // Step 8.
        check_label_len(label.len())?;
        out.push_str(label);
        return Ok(());
    }
    if label.len() > MAX_RAW_LABEL_BYTES {
        return Err(Error::RawTooLong);
    }
    // Step 2.
    let mut prepared = String::with_capacity(label.len() + 8);
    nameprep_into(label, flags.allow_unassigned, &mut prepared)?;
    // Hardening: Nameprep's NFKC can produce a full stop (U+2024 → ".", U+2025 → ".."), which
    // would split the label after the fact (RFC 3490 §3.1 separates labels before ToASCII).
    if prepared.contains('.') {
        return Err(Error::DotInLabel);
    }
    // Step 3.
    if flags.use_std3_ascii_rules {
        check_std3(&prepared)?;
    }
    // Step 4.
    if prepared.is_ascii() {
        check_label_len(prepared.len())?;
        out.push_str(&prepared);
        return Ok(());
    }
    // Step 5.
    if has_ace_prefix(&prepared) {
        return Err(Error::AcePrefix);
    }
    // Cap before Punycode: at least one output octet per code point.
    if ACE_PREFIX.len() + prepared.chars().count() > MAX_LABEL_OCTETS {
        return Err(Error::LabelTooLong);
    }
    // Steps 6 and 7.
    let encoded = idna::punycode::encode_str(&prepared).ok_or(Error::Punycode)?;
    // Step 8 (the label is non-empty: it holds a non-ASCII code point).
    check_label_len(ACE_PREFIX.len() + encoded.len())?;
    out.push_str(ACE_PREFIX);
    out.push_str(&encoded);
    Ok(())
}

/// RFC 3490 §4.2 ToUnicode of one label, appended to `out`: the decoded label, or the input
/// itself when any step fails (ToUnicode never fails).
///
/// 1. (§4.2 step 1) A label of ASCII only skips step 2.
/// 2. (step 2) Nameprep with `flags.allow_unassigned`. Hardening: a label over
///    [`MAX_RAW_LABEL_BYTES`] bytes fails here without running Nameprep.
/// 3. (step 3) The result must begin with the ACE prefix, in any case. Hardening: it must be at
///    most 63 octets, since otherwise step 7 cannot match (ToASCII never outputs more), so
///    Punycode never decodes an overlong label.
/// 4. (steps 4 and 5) Remove the prefix and Punycode-decode (RFC 3492) the rest.
/// 5. (step 6) Apply [`label_to_ascii`] with the same flags to the decoded label.
/// 6. (step 7) Its result must equal the string of step 3, ignoring ASCII case.
/// 7. (step 8) Output the decoded label, in the case its basic code points had.
///
/// The decoded label may contain a label separator (`.` or U+3002, say) when
/// `use_std3_ascii_rules` is FALSE, as RFC 3490 allows; callers that display it should know.
pub fn label_to_unicode(label: &str, flags: Flags, out: &mut String) {
    match to_unicode(label, flags) {
        Some(decoded) => out.push_str(&decoded),
        None => out.push_str(label),
    }
}

/// ToASCII of a whole domain name, appended to `out`.
///
/// 1. Hardening: a `domain` over [`MAX_RAW_DOMAIN_BYTES`] bytes is refused with
///    [`Error::RawTooLong`] before anything else.
/// 2. The name is split into labels at U+002E, U+3002, U+FF0E and U+FF61 (RFC 3490 §3.1
///    requirement 1, §4 step 2). One trailing separator is the root and is kept, written as `.`.
///    Any other empty label, and an empty or separator-only name, is [`Error::EmptyLabel`].
/// 3. Each label goes through [`label_to_ascii`] (§4 step 4); labels are joined with `.` (§4
///    step 5).
/// 4. The ASCII name must be at most [`MAX_NAME_OCTETS`] octets without the root dot
///    ([`Error::NameTooLong`]), checked after each label.
///
/// On error `out` may hold part of the output: callers truncate it to its length before the
/// call.
pub fn domain_to_ascii(domain: &str, flags: Flags, out: &mut String) -> Result<(), Error> {
    if domain.len() > MAX_RAW_DOMAIN_BYTES {
        return Err(Error::RawTooLong);
    }
    let (body, root) = split_root(domain);
    let start = out.len();
    for (i, label) in body.split(is_label_separator).enumerate() {
        if i > 0 {
            out.push('.');
        }
        label_to_ascii(label, flags, out)?;
        if out.len() - start > MAX_NAME_OCTETS {
            return Err(Error::NameTooLong);
        }
    }
    if root {
        out.push('.');
    }
    Ok(())
}

/// ToUnicode of a whole domain name, appended to `out`; never fails.
///
/// The name is split at the four separators of RFC 3490 §3.1, each label goes through
/// [`label_to_unicode`] (§4 step 4), and the labels are joined with `.`; a trailing root
/// separator is kept as `.`. Empty labels are kept as they are. Hardening: a `domain` over
/// [`MAX_RAW_DOMAIN_BYTES`] bytes is output unchanged, without looking at its labels.
pub fn domain_to_unicode(domain: &str, flags: Flags, out: &mut String) {
    if domain.len() > MAX_RAW_DOMAIN_BYTES {
        out.push_str(domain);
        return;
    }
    let (body, root) = split_root(domain);
    for (i, label) in body.split(is_label_separator).enumerate() {
        if i > 0 {
            out.push('.');
        }
        label_to_unicode(label, flags, out);
    }
    if root {
        out.push('.');
    }
}

/// The label separators of RFC 3490 §3.1 requirement 1.
#[inline]
fn is_label_separator(c: char) -> bool {
    matches!(c, '.' | '\u{3002}' | '\u{FF0E}' | '\u{FF61}')
}

/// Splits off one trailing root separator.
fn split_root(domain: &str) -> (&str, bool) {
    match domain.chars().next_back() {
        Some(c) if is_label_separator(c) => (&domain[..domain.len() - c.len_utf8()], true),
        _ => (domain, false),
    }
}

/// True if `s` begins with the ACE prefix in any case (RFC 3490 §5).
#[inline]
fn has_ace_prefix(s: &str) -> bool {
    s.len() >= ACE_PREFIX.len()
        && s.as_bytes()[..ACE_PREFIX.len()].eq_ignore_ascii_case(ACE_PREFIX.as_bytes())
}

/// RFC 3490 §4.1 step 3: (a) no non-LDH ASCII, then (b) no leading or trailing hyphen-minus.
fn check_std3(s: &str) -> Result<(), Error> {
    if s.bytes()
        .any(|b| b < 0x80 && !(b.is_ascii_alphanumeric() || b == b'-'))
    {
        return Err(Error::Std3);
    }
    if s.starts_with('-') || s.ends_with('-') {
        return Err(Error::Hyphen);
    }
    Ok(())
}

/// RFC 3490 §4.1 step 8.
#[inline]
fn check_label_len(octets: usize) -> Result<(), Error> {
    match octets {
        0 => Err(Error::EmptyLabel),
        1..=MAX_LABEL_OCTETS => Ok(()),
        _ => Err(Error::LabelTooLong),
    }
}

/// ToUnicode (RFC 3490 §4.2); `None` where a step fails.
fn to_unicode(label: &str, flags: Flags) -> Option<String> {
    if label.len() > MAX_RAW_LABEL_BYTES {
        return None;
    }
    // Steps 1 and 2.
    let prepared_owned;
    let prepared: &str = if label.is_ascii() {
        label
    } else {
        let mut s = String::with_capacity(label.len());
        nameprep_into(label, flags.allow_unassigned, &mut s).ok()?;
        prepared_owned = s;
        &prepared_owned
    };
    // Step 3 (and the length that step 7 needs).
    if !has_ace_prefix(prepared) || prepared.len() > MAX_LABEL_OCTETS {
        return None;
    }
    // Steps 4 and 5. The prefix is four ASCII bytes, so slicing after it is on a boundary.
    let decoded = idna::punycode::decode_to_string(&prepared[ACE_PREFIX.len()..])?;
    // Step 6.
    let mut ascii = String::with_capacity(prepared.len());
    label_to_ascii(&decoded, flags, &mut ascii).ok()?;
    // Step 7.
    if !ascii.eq_ignore_ascii_case(prepared) {
        return None;
    }
    // Step 8.
    Some(decoded)
}

/// Nameprep (see [`nameprep`]) without the raw length cap, appending to `out`.
fn nameprep_into(label: &str, allow_unassigned: bool, out: &mut String) -> Result<(), Error> {
    // RFC 3491 §3: map (B.1 to nothing, B.2 case folding), straight into `out`. The Unicode 3.2
    // decompositions of the corrected code points are substituted here too, ahead of
    // normalization; none of them is in B.1 or B.2.
    let start = out.len();
    out.reserve(label.len());
    let mut all_plain = true;
    for c in label.chars() {
        if c.is_ascii() {
            // B.2 maps A–Z to a–z; no other ASCII is in B.1 or B.2.
            out.push(c.to_ascii_lowercase());
        } else if plain_rand_al(c).is_some() {
            out.push(c);
        } else if tables::commonly_mapped_to_nothing(c) {
            // B.1.
        } else if let Some(old) = unicode_3_2_correction(c) {
            all_plain = false;
            out.push(old);
        } else {
            all_plain = false;
            out.extend(tables::case_fold_for_nfkc(c));
        }
    }
    // RFC 3491 §4: Unicode 3.2 NFKC. Text of ASCII and `PLAIN` code points is NFKC. When the
    // mapped text is NFKC by today's quick check, so is each piece of it between table A.1 code
    // points, and nothing changes.
    if !all_plain && is_nfkc_quick(out[start..].chars()) != IsNormalized::Yes {
        let mapped = out.split_off(start);
        nfkc_unicode_3_2(&mapped, out);
    }
    // RFC 3491 §§5–7.
    check_prepared(&out[start..], allow_unassigned)
}

/// The Unicode 3.2 decomposition of a code point of [`UNICODE_3_2_CORRECTIONS`].
#[inline]
fn unicode_3_2_correction(c: char) -> Option<char> {
    if !('\u{2F868}'..='\u{2F9BF}').contains(&c) {
        return None;
    }
    UNICODE_3_2_CORRECTIONS
        .iter()
        .find(|&&(from, _, _)| from == c)
        .map(|&(_, old, _)| old)
}

/// True for table A.1 (unassigned in Unicode 3.2).
#[inline]
fn is_unassigned_3_2(c: char) -> bool {
    !c.is_ascii() && tables::unassigned_code_point(c)
}

/// NFKC of `s` as Unicode 3.2 defines it, appended to `out`: today's NFKC between code points of
/// table A.1, which are copied unchanged (module documentation). The corrections have already
/// been substituted by the caller.
fn nfkc_unicode_3_2(s: &str, out: &mut String) {
    let mut rest = s;
    loop {
        match rest.char_indices().find(|&(_, c)| is_unassigned_3_2(c)) {
            Some((i, c)) => {
                out.extend(rest[..i].nfkc());
                out.push(c);
                rest = &rest[i + c.len_utf8()..];
            }
            None => {
                out.extend(rest.nfkc());
                return;
            }
        }
    }
}

/// RFC 3491 §5 (prohibition), §6 (bidi) and §7 (unassigned), in that order, on the mapped and
/// normalized label.
fn check_prepared(s: &str, allow_unassigned: bool) -> Result<(), Error> {
    let mut has_rand_al = false;
    let mut has_l = false;
    let mut has_unassigned = false;
    for c in s.chars() {
        if c.is_ascii() {
            // No ASCII is prohibited by Nameprep; ASCII letters are the only ASCII in D.2.
            has_l |= c.is_ascii_alphabetic();
            continue;
        }
        if let Some(rand_al) = plain_rand_al(c) {
            // Neither prohibited nor unassigned; in D.1 or else in D.2.
            has_rand_al |= rand_al;
            has_l |= !rand_al;
            continue;
        }
        if is_prohibited(c) {
            return Err(Error::Prohibited);
        }
        if tables::unassigned_code_point(c) {
            // Not in D.1 or D.2, which list code points assigned in 3.2.
            has_unassigned = true;
        } else if is_rand_al(c) {
            has_rand_al = true;
        } else if !has_l && in_ranges(D_2, c) {
            has_l = true;
        }
    }
    // RFC 3454 §6: requirement 1 (C.8) is part of the prohibition above.
    if has_rand_al {
        // Requirement 2.
        if has_l {
            return Err(Error::Bidi);
        }
        // Requirement 3.
        let first = s.chars().next().is_some_and(is_rand_al);
        let last = s.chars().next_back().is_some_and(is_rand_al);
        if !(first && last) {
            return Err(Error::Bidi);
        }
    }
    if has_unassigned && !allow_unassigned {
        return Err(Error::Unassigned);
    }
    Ok(())
}

/// Ranges of common letters that Nameprep leaves alone: assigned in Unicode 3.2, in no table of
/// B.1, B.2 or C, not corrected, combining class 0 and NFKC_Quick_Check=Yes (so text made of them
/// and ASCII is already NFKC). The flag says D.1 (RandALCat); otherwise they are in D.2 (LCat).
/// They only save table look-ups; a test checks every code point of every range.
const PLAIN: &[(char, char, bool)] = &[
    ('\u{00E0}', '\u{00F6}', false), // Latin-1 small letters
    ('\u{00F8}', '\u{00FF}', false),
    ('\u{03AC}', '\u{03AF}', false), // Greek small letters, not U+03B0 or final sigma
    ('\u{03B1}', '\u{03C1}', false),
    ('\u{03C3}', '\u{03CE}', false),
    ('\u{0430}', '\u{045F}', false), // Cyrillic small letters
    ('\u{05D0}', '\u{05EA}', true),  // Hebrew letters
    ('\u{0621}', '\u{063A}', true),  // Arabic letters
    ('\u{0641}', '\u{064A}', true),
    ('\u{0905}', '\u{0939}', false), // Devanagari letters
    ('\u{3041}', '\u{3096}', false), // Hiragana
    ('\u{30A1}', '\u{30FA}', false), // Katakana
    ('\u{4E00}', '\u{9FA5}', false), // CJK unified ideographs of Unicode 3.2
    ('\u{AC00}', '\u{D7A3}', false), // Hangul syllables
];

/// `Some(is RandALCat)` for a code point of [`PLAIN`].
#[inline]
fn plain_rand_al(c: char) -> Option<bool> {
    if c < '\u{00E0}' {
        return None;
    }
    let i = PLAIN.partition_point(|&(_, hi, _)| hi < c);
    match PLAIN.get(i) {
        Some(&(lo, _, rand_al)) if lo <= c => Some(rand_al),
        _ => None,
    }
}

/// Tables C.1.2, C.2.2, C.3, C.4, C.5, C.6, C.7, C.8 and C.9 (RFC 3491 §5).
#[inline]
fn is_prohibited(c: char) -> bool {
    tables::non_ascii_space_character(c) // C.1.2
        || tables::non_ascii_control_character(c) // C.2.2
        || tables::private_use(c) // C.3
        || tables::non_character_code_point(c) // C.4
        || tables::surrogate_code(c) // C.5 (no `char` is a surrogate)
        || tables::inappropriate_for_plain_text(c) // C.6
        || tables::inappropriate_for_canonical_representation(c) // C.7
        || tables::change_display_properties_or_deprecated(c) // C.8
        || tables::tagging_character(c) // C.9
}

/// Table D.1 (RandALCat in Unicode 3.2).
#[inline]
fn is_rand_al(c: char) -> bool {
    in_ranges(D_1, c)
}

/// True if `c` lies in one of the sorted, disjoint inclusive `ranges`.
fn in_ranges(ranges: &[(char, char)], c: char) -> bool {
    ranges
        .binary_search_by(|&(lo, hi)| {
            if hi < c {
                std::cmp::Ordering::Less
            } else if lo > c {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

// RFC 3454 tables D.1 and D.2, transcribed from the RFC (they are the bidi classes R/AL and L of
// Unicode 3.2). D.2's D800-FA2D is written E000-FA2D, as `char` has no surrogates. The tests
// check them against CPython's `unicodedata.ucd_3_2_0` where python3 is available.

/// RFC 3454 table D.1: characters with bidirectional property "R" or "AL" (Unicode 3.2).
const D_1: &[(char, char)] = &[
    ('\u{05BE}', '\u{05BE}'),
    ('\u{05C0}', '\u{05C0}'),
    ('\u{05C3}', '\u{05C3}'),
    ('\u{05D0}', '\u{05EA}'),
    ('\u{05F0}', '\u{05F4}'),
    ('\u{061B}', '\u{061B}'),
    ('\u{061F}', '\u{061F}'),
    ('\u{0621}', '\u{063A}'),
    ('\u{0640}', '\u{064A}'),
    ('\u{066D}', '\u{066F}'),
    ('\u{0671}', '\u{06D5}'),
    ('\u{06DD}', '\u{06DD}'),
    ('\u{06E5}', '\u{06E6}'),
    ('\u{06FA}', '\u{06FE}'),
    ('\u{0700}', '\u{070D}'),
    ('\u{0710}', '\u{0710}'),
    ('\u{0712}', '\u{072C}'),
    ('\u{0780}', '\u{07A5}'),
    ('\u{07B1}', '\u{07B1}'),
    ('\u{200F}', '\u{200F}'),
    ('\u{FB1D}', '\u{FB1D}'),
    ('\u{FB1F}', '\u{FB28}'),
    ('\u{FB2A}', '\u{FB36}'),
    ('\u{FB38}', '\u{FB3C}'),
    ('\u{FB3E}', '\u{FB3E}'),
    ('\u{FB40}', '\u{FB41}'),
    ('\u{FB43}', '\u{FB44}'),
    ('\u{FB46}', '\u{FBB1}'),
    ('\u{FBD3}', '\u{FD3D}'),
    ('\u{FD50}', '\u{FD8F}'),
    ('\u{FD92}', '\u{FDC7}'),
    ('\u{FDF0}', '\u{FDFC}'),
    ('\u{FE70}', '\u{FE74}'),
    ('\u{FE76}', '\u{FEFC}'),
];

/// RFC 3454 table D.2: characters with bidirectional property "L" (Unicode 3.2).
const D_2: &[(char, char)] = &[
    ('\u{0041}', '\u{005A}'),
    ('\u{0061}', '\u{007A}'),
    ('\u{00AA}', '\u{00AA}'),
    ('\u{00B5}', '\u{00B5}'),
    ('\u{00BA}', '\u{00BA}'),
    ('\u{00C0}', '\u{00D6}'),
    ('\u{00D8}', '\u{00F6}'),
    ('\u{00F8}', '\u{0220}'),
    ('\u{0222}', '\u{0233}'),
    ('\u{0250}', '\u{02AD}'),
    ('\u{02B0}', '\u{02B8}'),
    ('\u{02BB}', '\u{02C1}'),
    ('\u{02D0}', '\u{02D1}'),
    ('\u{02E0}', '\u{02E4}'),
    ('\u{02EE}', '\u{02EE}'),
    ('\u{037A}', '\u{037A}'),
    ('\u{0386}', '\u{0386}'),
    ('\u{0388}', '\u{038A}'),
    ('\u{038C}', '\u{038C}'),
    ('\u{038E}', '\u{03A1}'),
    ('\u{03A3}', '\u{03CE}'),
    ('\u{03D0}', '\u{03F5}'),
    ('\u{0400}', '\u{0482}'),
    ('\u{048A}', '\u{04CE}'),
    ('\u{04D0}', '\u{04F5}'),
    ('\u{04F8}', '\u{04F9}'),
    ('\u{0500}', '\u{050F}'),
    ('\u{0531}', '\u{0556}'),
    ('\u{0559}', '\u{055F}'),
    ('\u{0561}', '\u{0587}'),
    ('\u{0589}', '\u{0589}'),
    ('\u{0903}', '\u{0903}'),
    ('\u{0905}', '\u{0939}'),
    ('\u{093D}', '\u{0940}'),
    ('\u{0949}', '\u{094C}'),
    ('\u{0950}', '\u{0950}'),
    ('\u{0958}', '\u{0961}'),
    ('\u{0964}', '\u{0970}'),
    ('\u{0982}', '\u{0983}'),
    ('\u{0985}', '\u{098C}'),
    ('\u{098F}', '\u{0990}'),
    ('\u{0993}', '\u{09A8}'),
    ('\u{09AA}', '\u{09B0}'),
    ('\u{09B2}', '\u{09B2}'),
    ('\u{09B6}', '\u{09B9}'),
    ('\u{09BE}', '\u{09C0}'),
    ('\u{09C7}', '\u{09C8}'),
    ('\u{09CB}', '\u{09CC}'),
    ('\u{09D7}', '\u{09D7}'),
    ('\u{09DC}', '\u{09DD}'),
    ('\u{09DF}', '\u{09E1}'),
    ('\u{09E6}', '\u{09F1}'),
    ('\u{09F4}', '\u{09FA}'),
    ('\u{0A05}', '\u{0A0A}'),
    ('\u{0A0F}', '\u{0A10}'),
    ('\u{0A13}', '\u{0A28}'),
    ('\u{0A2A}', '\u{0A30}'),
    ('\u{0A32}', '\u{0A33}'),
    ('\u{0A35}', '\u{0A36}'),
    ('\u{0A38}', '\u{0A39}'),
    ('\u{0A3E}', '\u{0A40}'),
    ('\u{0A59}', '\u{0A5C}'),
    ('\u{0A5E}', '\u{0A5E}'),
    ('\u{0A66}', '\u{0A6F}'),
    ('\u{0A72}', '\u{0A74}'),
    ('\u{0A83}', '\u{0A83}'),
    ('\u{0A85}', '\u{0A8B}'),
    ('\u{0A8D}', '\u{0A8D}'),
    ('\u{0A8F}', '\u{0A91}'),
    ('\u{0A93}', '\u{0AA8}'),
    ('\u{0AAA}', '\u{0AB0}'),
    ('\u{0AB2}', '\u{0AB3}'),
    ('\u{0AB5}', '\u{0AB9}'),
    ('\u{0ABD}', '\u{0AC0}'),
    ('\u{0AC9}', '\u{0AC9}'),
    ('\u{0ACB}', '\u{0ACC}'),
    ('\u{0AD0}', '\u{0AD0}'),
    ('\u{0AE0}', '\u{0AE0}'),
    ('\u{0AE6}', '\u{0AEF}'),
    ('\u{0B02}', '\u{0B03}'),
    ('\u{0B05}', '\u{0B0C}'),
    ('\u{0B0F}', '\u{0B10}'),
    ('\u{0B13}', '\u{0B28}'),
    ('\u{0B2A}', '\u{0B30}'),
    ('\u{0B32}', '\u{0B33}'),
    ('\u{0B36}', '\u{0B39}'),
    ('\u{0B3D}', '\u{0B3E}'),
    ('\u{0B40}', '\u{0B40}'),
    ('\u{0B47}', '\u{0B48}'),
    ('\u{0B4B}', '\u{0B4C}'),
    ('\u{0B57}', '\u{0B57}'),
    ('\u{0B5C}', '\u{0B5D}'),
    ('\u{0B5F}', '\u{0B61}'),
    ('\u{0B66}', '\u{0B70}'),
    ('\u{0B83}', '\u{0B83}'),
    ('\u{0B85}', '\u{0B8A}'),
    ('\u{0B8E}', '\u{0B90}'),
    ('\u{0B92}', '\u{0B95}'),
    ('\u{0B99}', '\u{0B9A}'),
    ('\u{0B9C}', '\u{0B9C}'),
    ('\u{0B9E}', '\u{0B9F}'),
    ('\u{0BA3}', '\u{0BA4}'),
    ('\u{0BA8}', '\u{0BAA}'),
    ('\u{0BAE}', '\u{0BB5}'),
    ('\u{0BB7}', '\u{0BB9}'),
    ('\u{0BBE}', '\u{0BBF}'),
    ('\u{0BC1}', '\u{0BC2}'),
    ('\u{0BC6}', '\u{0BC8}'),
    ('\u{0BCA}', '\u{0BCC}'),
    ('\u{0BD7}', '\u{0BD7}'),
    ('\u{0BE7}', '\u{0BF2}'),
    ('\u{0C01}', '\u{0C03}'),
    ('\u{0C05}', '\u{0C0C}'),
    ('\u{0C0E}', '\u{0C10}'),
    ('\u{0C12}', '\u{0C28}'),
    ('\u{0C2A}', '\u{0C33}'),
    ('\u{0C35}', '\u{0C39}'),
    ('\u{0C41}', '\u{0C44}'),
    ('\u{0C60}', '\u{0C61}'),
    ('\u{0C66}', '\u{0C6F}'),
    ('\u{0C82}', '\u{0C83}'),
    ('\u{0C85}', '\u{0C8C}'),
    ('\u{0C8E}', '\u{0C90}'),
    ('\u{0C92}', '\u{0CA8}'),
    ('\u{0CAA}', '\u{0CB3}'),
    ('\u{0CB5}', '\u{0CB9}'),
    ('\u{0CBE}', '\u{0CBE}'),
    ('\u{0CC0}', '\u{0CC4}'),
    ('\u{0CC7}', '\u{0CC8}'),
    ('\u{0CCA}', '\u{0CCB}'),
    ('\u{0CD5}', '\u{0CD6}'),
    ('\u{0CDE}', '\u{0CDE}'),
    ('\u{0CE0}', '\u{0CE1}'),
    ('\u{0CE6}', '\u{0CEF}'),
    ('\u{0D02}', '\u{0D03}'),
    ('\u{0D05}', '\u{0D0C}'),
    ('\u{0D0E}', '\u{0D10}'),
    ('\u{0D12}', '\u{0D28}'),
    ('\u{0D2A}', '\u{0D39}'),
    ('\u{0D3E}', '\u{0D40}'),
    ('\u{0D46}', '\u{0D48}'),
    ('\u{0D4A}', '\u{0D4C}'),
    ('\u{0D57}', '\u{0D57}'),
    ('\u{0D60}', '\u{0D61}'),
    ('\u{0D66}', '\u{0D6F}'),
    ('\u{0D82}', '\u{0D83}'),
    ('\u{0D85}', '\u{0D96}'),
    ('\u{0D9A}', '\u{0DB1}'),
    ('\u{0DB3}', '\u{0DBB}'),
    ('\u{0DBD}', '\u{0DBD}'),
    ('\u{0DC0}', '\u{0DC6}'),
    ('\u{0DCF}', '\u{0DD1}'),
    ('\u{0DD8}', '\u{0DDF}'),
    ('\u{0DF2}', '\u{0DF4}'),
    ('\u{0E01}', '\u{0E30}'),
    ('\u{0E32}', '\u{0E33}'),
    ('\u{0E40}', '\u{0E46}'),
    ('\u{0E4F}', '\u{0E5B}'),
    ('\u{0E81}', '\u{0E82}'),
    ('\u{0E84}', '\u{0E84}'),
    ('\u{0E87}', '\u{0E88}'),
    ('\u{0E8A}', '\u{0E8A}'),
    ('\u{0E8D}', '\u{0E8D}'),
    ('\u{0E94}', '\u{0E97}'),
    ('\u{0E99}', '\u{0E9F}'),
    ('\u{0EA1}', '\u{0EA3}'),
    ('\u{0EA5}', '\u{0EA5}'),
    ('\u{0EA7}', '\u{0EA7}'),
    ('\u{0EAA}', '\u{0EAB}'),
    ('\u{0EAD}', '\u{0EB0}'),
    ('\u{0EB2}', '\u{0EB3}'),
    ('\u{0EBD}', '\u{0EBD}'),
    ('\u{0EC0}', '\u{0EC4}'),
    ('\u{0EC6}', '\u{0EC6}'),
    ('\u{0ED0}', '\u{0ED9}'),
    ('\u{0EDC}', '\u{0EDD}'),
    ('\u{0F00}', '\u{0F17}'),
    ('\u{0F1A}', '\u{0F34}'),
    ('\u{0F36}', '\u{0F36}'),
    ('\u{0F38}', '\u{0F38}'),
    ('\u{0F3E}', '\u{0F47}'),
    ('\u{0F49}', '\u{0F6A}'),
    ('\u{0F7F}', '\u{0F7F}'),
    ('\u{0F85}', '\u{0F85}'),
    ('\u{0F88}', '\u{0F8B}'),
    ('\u{0FBE}', '\u{0FC5}'),
    ('\u{0FC7}', '\u{0FCC}'),
    ('\u{0FCF}', '\u{0FCF}'),
    ('\u{1000}', '\u{1021}'),
    ('\u{1023}', '\u{1027}'),
    ('\u{1029}', '\u{102A}'),
    ('\u{102C}', '\u{102C}'),
    ('\u{1031}', '\u{1031}'),
    ('\u{1038}', '\u{1038}'),
    ('\u{1040}', '\u{1057}'),
    ('\u{10A0}', '\u{10C5}'),
    ('\u{10D0}', '\u{10F8}'),
    ('\u{10FB}', '\u{10FB}'),
    ('\u{1100}', '\u{1159}'),
    ('\u{115F}', '\u{11A2}'),
    ('\u{11A8}', '\u{11F9}'),
    ('\u{1200}', '\u{1206}'),
    ('\u{1208}', '\u{1246}'),
    ('\u{1248}', '\u{1248}'),
    ('\u{124A}', '\u{124D}'),
    ('\u{1250}', '\u{1256}'),
    ('\u{1258}', '\u{1258}'),
    ('\u{125A}', '\u{125D}'),
    ('\u{1260}', '\u{1286}'),
    ('\u{1288}', '\u{1288}'),
    ('\u{128A}', '\u{128D}'),
    ('\u{1290}', '\u{12AE}'),
    ('\u{12B0}', '\u{12B0}'),
    ('\u{12B2}', '\u{12B5}'),
    ('\u{12B8}', '\u{12BE}'),
    ('\u{12C0}', '\u{12C0}'),
    ('\u{12C2}', '\u{12C5}'),
    ('\u{12C8}', '\u{12CE}'),
    ('\u{12D0}', '\u{12D6}'),
    ('\u{12D8}', '\u{12EE}'),
    ('\u{12F0}', '\u{130E}'),
    ('\u{1310}', '\u{1310}'),
    ('\u{1312}', '\u{1315}'),
    ('\u{1318}', '\u{131E}'),
    ('\u{1320}', '\u{1346}'),
    ('\u{1348}', '\u{135A}'),
    ('\u{1361}', '\u{137C}'),
    ('\u{13A0}', '\u{13F4}'),
    ('\u{1401}', '\u{1676}'),
    ('\u{1681}', '\u{169A}'),
    ('\u{16A0}', '\u{16F0}'),
    ('\u{1700}', '\u{170C}'),
    ('\u{170E}', '\u{1711}'),
    ('\u{1720}', '\u{1731}'),
    ('\u{1735}', '\u{1736}'),
    ('\u{1740}', '\u{1751}'),
    ('\u{1760}', '\u{176C}'),
    ('\u{176E}', '\u{1770}'),
    ('\u{1780}', '\u{17B6}'),
    ('\u{17BE}', '\u{17C5}'),
    ('\u{17C7}', '\u{17C8}'),
    ('\u{17D4}', '\u{17DA}'),
    ('\u{17DC}', '\u{17DC}'),
    ('\u{17E0}', '\u{17E9}'),
    ('\u{1810}', '\u{1819}'),
    ('\u{1820}', '\u{1877}'),
    ('\u{1880}', '\u{18A8}'),
    ('\u{1E00}', '\u{1E9B}'),
    ('\u{1EA0}', '\u{1EF9}'),
    ('\u{1F00}', '\u{1F15}'),
    ('\u{1F18}', '\u{1F1D}'),
    ('\u{1F20}', '\u{1F45}'),
    ('\u{1F48}', '\u{1F4D}'),
    ('\u{1F50}', '\u{1F57}'),
    ('\u{1F59}', '\u{1F59}'),
    ('\u{1F5B}', '\u{1F5B}'),
    ('\u{1F5D}', '\u{1F5D}'),
    ('\u{1F5F}', '\u{1F7D}'),
    ('\u{1F80}', '\u{1FB4}'),
    ('\u{1FB6}', '\u{1FBC}'),
    ('\u{1FBE}', '\u{1FBE}'),
    ('\u{1FC2}', '\u{1FC4}'),
    ('\u{1FC6}', '\u{1FCC}'),
    ('\u{1FD0}', '\u{1FD3}'),
    ('\u{1FD6}', '\u{1FDB}'),
    ('\u{1FE0}', '\u{1FEC}'),
    ('\u{1FF2}', '\u{1FF4}'),
    ('\u{1FF6}', '\u{1FFC}'),
    ('\u{200E}', '\u{200E}'),
    ('\u{2071}', '\u{2071}'),
    ('\u{207F}', '\u{207F}'),
    ('\u{2102}', '\u{2102}'),
    ('\u{2107}', '\u{2107}'),
    ('\u{210A}', '\u{2113}'),
    ('\u{2115}', '\u{2115}'),
    ('\u{2119}', '\u{211D}'),
    ('\u{2124}', '\u{2124}'),
    ('\u{2126}', '\u{2126}'),
    ('\u{2128}', '\u{2128}'),
    ('\u{212A}', '\u{212D}'),
    ('\u{212F}', '\u{2131}'),
    ('\u{2133}', '\u{2139}'),
    ('\u{213D}', '\u{213F}'),
    ('\u{2145}', '\u{2149}'),
    ('\u{2160}', '\u{2183}'),
    ('\u{2336}', '\u{237A}'),
    ('\u{2395}', '\u{2395}'),
    ('\u{249C}', '\u{24E9}'),
    ('\u{3005}', '\u{3007}'),
    ('\u{3021}', '\u{3029}'),
    ('\u{3031}', '\u{3035}'),
    ('\u{3038}', '\u{303C}'),
    ('\u{3041}', '\u{3096}'),
    ('\u{309D}', '\u{309F}'),
    ('\u{30A1}', '\u{30FA}'),
    ('\u{30FC}', '\u{30FF}'),
    ('\u{3105}', '\u{312C}'),
    ('\u{3131}', '\u{318E}'),
    ('\u{3190}', '\u{31B7}'),
    ('\u{31F0}', '\u{321C}'),
    ('\u{3220}', '\u{3243}'),
    ('\u{3260}', '\u{327B}'),
    ('\u{327F}', '\u{32B0}'),
    ('\u{32C0}', '\u{32CB}'),
    ('\u{32D0}', '\u{32FE}'),
    ('\u{3300}', '\u{3376}'),
    ('\u{337B}', '\u{33DD}'),
    ('\u{33E0}', '\u{33FE}'),
    ('\u{3400}', '\u{4DB5}'),
    ('\u{4E00}', '\u{9FA5}'),
    ('\u{A000}', '\u{A48C}'),
    ('\u{AC00}', '\u{D7A3}'),
    ('\u{E000}', '\u{FA2D}'),
    ('\u{FA30}', '\u{FA6A}'),
    ('\u{FB00}', '\u{FB06}'),
    ('\u{FB13}', '\u{FB17}'),
    ('\u{FF21}', '\u{FF3A}'),
    ('\u{FF41}', '\u{FF5A}'),
    ('\u{FF66}', '\u{FFBE}'),
    ('\u{FFC2}', '\u{FFC7}'),
    ('\u{FFCA}', '\u{FFCF}'),
    ('\u{FFD2}', '\u{FFD7}'),
    ('\u{FFDA}', '\u{FFDC}'),
    ('\u{10300}', '\u{1031E}'),
    ('\u{10320}', '\u{10323}'),
    ('\u{10330}', '\u{1034A}'),
    ('\u{10400}', '\u{10425}'),
    ('\u{10428}', '\u{1044D}'),
    ('\u{1D000}', '\u{1D0F5}'),
    ('\u{1D100}', '\u{1D126}'),
    ('\u{1D12A}', '\u{1D166}'),
    ('\u{1D16A}', '\u{1D172}'),
    ('\u{1D183}', '\u{1D184}'),
    ('\u{1D18C}', '\u{1D1A9}'),
    ('\u{1D1AE}', '\u{1D1DD}'),
    ('\u{1D400}', '\u{1D454}'),
    ('\u{1D456}', '\u{1D49C}'),
    ('\u{1D49E}', '\u{1D49F}'),
    ('\u{1D4A2}', '\u{1D4A2}'),
    ('\u{1D4A5}', '\u{1D4A6}'),
    ('\u{1D4A9}', '\u{1D4AC}'),
    ('\u{1D4AE}', '\u{1D4B9}'),
    ('\u{1D4BB}', '\u{1D4BB}'),
    ('\u{1D4BD}', '\u{1D4C0}'),
    ('\u{1D4C2}', '\u{1D4C3}'),
    ('\u{1D4C5}', '\u{1D505}'),
    ('\u{1D507}', '\u{1D50A}'),
    ('\u{1D50D}', '\u{1D514}'),
    ('\u{1D516}', '\u{1D51C}'),
    ('\u{1D51E}', '\u{1D539}'),
    ('\u{1D53B}', '\u{1D53E}'),
    ('\u{1D540}', '\u{1D544}'),
    ('\u{1D546}', '\u{1D546}'),
    ('\u{1D54A}', '\u{1D550}'),
    ('\u{1D552}', '\u{1D6A3}'),
    ('\u{1D6A8}', '\u{1D7C9}'),
    ('\u{20000}', '\u{2A6D6}'),
    ('\u{2F800}', '\u{2FA1D}'),
    ('\u{F0000}', '\u{FFFFD}'),
    ('\u{100000}', '\u{10FFFD}'),
];

#[cfg(test)]
mod tests {
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
            "STRINGPREP_BIDI_BOTH_L_AND_RAL" | "STRINGPREP_BIDI_LEADTRAIL_NOT_RAL" => {
                e == Error::Bidi
            }
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
            tables::case_fold_for_nfkc(c).eq([c]),
            "B.2 leaves U+{:X}",
            c as u32
        );
        assert!(!tables::commonly_mapped_to_nothing(c));
        assert!(!tables::unassigned_code_point(c) && !tables::unassigned_code_point(old));
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
                assert!(!tables::commonly_mapped_to_nothing(c), "U+{u:04X} in B.1");
                assert!(tables::case_fold_for_nfkc(c).eq([c]), "U+{u:04X} in B.2");
                assert_eq!(unicode_3_2_correction(c), None);
                assert!(!tables::unassigned_code_point(c), "U+{u:04X} in A.1");
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
            assert!(!tables::commonly_mapped_to_nothing(c));
            assert!(tables::case_fold_for_nfkc(c).eq([c.to_ascii_lowercase()]));
            assert!(!is_prohibited(c) && !tables::unassigned_code_point(c));
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
        assert!(tables::unassigned_code_point('\u{1E9E}'));
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
        let specials =
            "aZ9-._ \u{DF}\u{3A3}\u{3C2}\u{627}\u{5D0}\u{301}\u{AD}\u{200D}\u{FF0E}\u{FDFA}";
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
            ranges_of(tables::unassigned_code_point),
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
            let ours: Vec<String> = if tables::commonly_mapped_to_nothing(c) {
                // B.1 runs first; Python never asks B.2 about these.
                continue;
            } else {
                tables::case_fold_for_nfkc(c)
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
}
