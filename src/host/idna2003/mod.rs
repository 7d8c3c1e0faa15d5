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
//! * The bidi tables D.1 and D.2 of RFC 3454 are embedded in `tables.rs`. The `stringprep` crate
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

use self::tables::{D_1, D_2};
use stringprep::tables as rfc3454;

mod tables;
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
        } else if rfc3454::commonly_mapped_to_nothing(c) {
            // B.1.
        } else if let Some(old) = unicode_3_2_correction(c) {
            all_plain = false;
            out.push(old);
        } else {
            all_plain = false;
            out.extend(rfc3454::case_fold_for_nfkc(c));
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
    !c.is_ascii() && rfc3454::unassigned_code_point(c)
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
        if rfc3454::unassigned_code_point(c) {
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
    rfc3454::non_ascii_space_character(c) // C.1.2
        || rfc3454::non_ascii_control_character(c) // C.2.2
        || rfc3454::private_use(c) // C.3
        || rfc3454::non_character_code_point(c) // C.4
        || rfc3454::surrogate_code(c) // C.5 (no `char` is a surrogate)
        || rfc3454::inappropriate_for_plain_text(c) // C.6
        || rfc3454::inappropriate_for_canonical_representation(c) // C.7
        || rfc3454::change_display_properties_or_deprecated(c) // C.8
        || rfc3454::tagging_character(c) // C.9
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

#[cfg(test)]
mod tests;
