//! A fast path for UTS #46 ToASCII and ToUnicode of hosts whose UTS #46 processing is the
//! identity (issue #11): plain left-to-right labels.
//!
//! [`to_ascii`] and [`to_unicode`] answer exactly what the `idna` crate answers with the flags
//! of this project ([`to_ascii_naive`], [`to_unicode_naive`]: UTS #46 non-transitional,
//! `AsciiDenyList::STD3`, `Hyphens::Check`, `DnsLength::VerifyAllowRootDot` for ToASCII), or
//! decline (`false` / `None`) and let the crate decide. They answer only for hosts made of
//!
//! - ASCII labels of letters, digits and `-` that do not start with the ACE prefix `xn--`
//!   (ToASCII lowers ASCII upper case, as UTS #46's mapping table does: U+0041..U+005A are
//!   *mapped* to U+0061..U+007A; ToUnicode declines upper case), and
//! - labels whose every non-ASCII character is in the set FAST ([`is_fast`]), in Unicode form
//!   for ToASCII and as their canonical `xn--` form for ToUnicode.
//!
//! A character is in FAST when it is not ASCII, its UTS #46 status is *valid* (or *deviation*,
//! which non-transitional processing records unchanged: UTS #46 §4 step 1) so the mapping
//! gives it back, its Bidi_Class is L, its General_Category is not M, its canonical combining
//! class is 0 and its NFC_Quick_Check is Yes (neither No nor Maybe: UAX #15 §9).
//!
//! For such a host UTS #46 processing (§4) changes nothing and every validity criterion holds:
//! - step 1, Map: each character maps to itself (ASCII upper case to lower case);
//! - step 2, Normalize: a string of characters with ccc 0 and NFC_Quick_Check = Yes is in NFC
//!   (UAX #15 §9: a quick check answer "YES" is definitive), and lower-case ASCII is too;
//! - §4.1 Validity Criteria: NFC (above); the hyphen rules (checked here, RFC 5891 §4.2.3.1:
//!   no `-` first or last, no `--` in the third and fourth positions); no label-separating
//!   dot inside a label; no combining mark first (FAST has no General_Category M); status
//!   valid (FAST); CheckJoiners concerns U+200C and U+200D only (not in FAST); CheckBidi
//!   (RFC 5893) applies only to a bidi domain name, one holding an R, AL or AN character, and
//!   FAST (Bidi_Class L) with `[a-z0-9.-]` (L, EN, ES, CS) holds none;
//! - the STD3 deny list (UseSTD3ASCIIRules) allows `[a-z0-9-]` and the dot;
//! - ToASCII (§4.2) then writes each non-ASCII label as `xn--` and its Punycode (RFC 3492),
//!   and VerifyDnsLength wants labels of 1 to 63 octets and a name of at most 253 octets,
//!   with one empty root label allowed at the end (contract item 6);
//! - ToUnicode (§4.3) decodes each `xn--` label (RFC 3492); the decoded label must pass the
//!   same validity criteria. Here it must also be the canonical encoding (re-encoding gives
//!   the label back, RFC 5891 §5.4), lower case.
//!
//! Punycode is encoded and decoded here on the stack, without allocating (RFC 3492 §6.2,
//! §6.3; [`punycode_encode`], [`punycode_decode`]): `idna::punycode::encode_str` and
//! `decode_to_string`, their twins, allocated and grew a `String` for every label and cost
//! as much as the crate's whole ToASCII of these hosts.
//!
//! Anything unusual (an empty label other than the root dot, a label or name over the DNS
//! limits, a character outside FAST, upper case in ToUnicode, a non-canonical A-label)
//! declines. The fast path may decline whenever it likes; it never answers differently. The
//! tests recompute FAST from the crates' own data over every code point and compare both
//! directions with the crate for every character of FAST; `tests/uts46_fast.rs` compares them
//! on random hosts and on every host of the shared data sets.

use idna::uts46::{AsciiDenyList, DnsLength, Hyphens, Uts46};
use std::borrow::Cow;

/// UTS #46 ToASCII (§4.2) of `host` by the `idna` crate, with this project's flags:
/// non-transitional, the STD3 deny list, hyphen checks, DNS length with a root dot allowed.
/// `None` on any error. The slow twin of [`to_ascii`], and what it declines to.
pub fn to_ascii_naive(host: &str) -> Option<Cow<'_, str>> {
    Uts46::new()
        .to_ascii(
            host.as_bytes(),
            AsciiDenyList::STD3,
            Hyphens::Check,
            DnsLength::VerifyAllowRootDot,
        )
        .ok()
}

/// UTS #46 ToUnicode (§4.3) of `host` by the `idna` crate (STD3 deny list, hyphen checks);
/// `None` on any error. The slow twin of [`to_unicode`], and what it declines to.
pub fn to_unicode_naive(host: &str) -> Option<String> {
    let (u, r) = Uts46::new().to_unicode(host.as_bytes(), AsciiDenyList::STD3, Hyphens::Check);
    r.ok().map(|()| u.into_owned())
}

/// The longest DNS label in octets (RFC 1034 §3.1, UTS #46 VerifyDnsLength).
const MAX_LABEL: usize = 63;
/// The longest DNS name in octets without the root dot (UTS #46 VerifyDnsLength).
const MAX_NAME: usize = 253;

/// UTS #46 ToASCII (§4.2) of `host` appended to `out`, when `host` is one the fast path
/// answers (see the [module documentation](self)): `true`, and `out` holds what
/// [`to_ascii_naive`] gives. `false` (declined, `out` as it was) for any other host, also for
/// every host the crate refuses.
///
/// One pass over the characters: each is mapped (ASCII upper case lowered) or declined, and
/// each finished label is written to a stack buffer of the longest DNS name, so a name over
/// the limit declines without allocating; `out` grows once.
pub fn to_ascii(host: &str, out: &mut String) -> bool {
    // VerifyDnsLength: one empty root label is allowed at the end (contract item 6).
    let (body, root) = match host.strip_suffix('.') {
        Some(b) => (b, true),
        None => (host, false),
    };
    if body.is_empty() {
        return false;
    }
    let mut name = Name {
        buf: [0; MAX_NAME],
        len: 0,
    };
    // The current label, mapped; whether it holds a non-ASCII character.
    let mut label = ['\0'; MAX_LABEL];
    let mut n = 0;
    let mut unicode = false;
    for c in body.chars() {
        let c = match c {
            '.' => {
                if !name.push_label(&label[..n], unicode) {
                    return false;
                }
                n = 0;
                unicode = false;
                continue;
            }
            'a'..='z' | '0'..='9' | '-' => c,
            'A'..='Z' => c.to_ascii_lowercase(),
            _ if is_fast(c) => {
                unicode = true;
                c
            }
            _ => return false,
        };
        if n == MAX_LABEL {
            return false;
        }
        label[n] = c;
        n += 1;
    }
    if !name.push_label(&label[..n], unicode) {
        return false;
    }
    let Ok(ascii) = std::str::from_utf8(&name.buf[..name.len]) else {
        return false;
    };
    out.reserve(ascii.len() + usize::from(root));
    out.push_str(ascii);
    if root {
        out.push('.');
    }
    true
}

/// The ASCII name [`to_ascii`] writes, on the stack: at most [`MAX_NAME`] octets.
struct Name {
    buf: [u8; MAX_NAME],
    len: usize,
}

impl Name {
    /// Appends the mapped `label` (a `.` first unless it is the first): as it is when it is
    /// ASCII, else `xn--` and its Punycode (RFC 3492). `false` when the label is empty, breaks
    /// a hyphen rule (RFC 5891 §4.2.3.1: no `-` first or last, no `--` in the third and
    /// fourth positions, which also declines the ACE prefix `xn--`, whose labels the crate
    /// decodes and validates), or would make a label over 63 octets or a name over 253.
    fn push_label(&mut self, label: &[char], unicode: bool) -> bool {
        let n = label.len();
        if n == 0
            || label[0] == '-'
            || label[n - 1] == '-'
            || (n >= 4 && label[2] == '-' && label[3] == '-')
        {
            return false;
        }
        let mut at = self.len;
        if at > 0 {
            if at == MAX_NAME {
                return false;
            }
            self.buf[at] = b'.';
            at += 1;
        }
        if !unicode {
            // Mapped ASCII labels hold `[a-z0-9-]` only; at most 63 (the label buffer).
            let Some(dst) = self.buf.get_mut(at..at + n) else {
                return false;
            };
            for (d, &c) in dst.iter_mut().zip(label) {
                *d = c as u8;
            }
            self.len = at + n;
            return true;
        }
        // Punycode writes at least one character for each input character (a basic one as
        // it is, each other one as at least one digit): a longer label cannot fit.
        if n > PUNY_MAX || at + 4 >= MAX_NAME {
            return false;
        }
        self.buf[at..at + 4].copy_from_slice(b"xn--");
        at += 4;
        let room = (MAX_NAME - at).min(PUNY_MAX);
        let Some(written) = punycode_encode(label, &mut self.buf[at..at + room]) else {
            return false;
        };
        self.len = at + written;
        true
    }
}

/// UTS #46 ToUnicode (§4.3) of the ASCII host `host`, when it is one the fast path answers
/// (see the [module documentation](self)): `Some`, what [`to_unicode_naive`] gives. `None`
/// (declined) for any other host, also for every host the crate refuses.
pub fn to_unicode(host: &str) -> Option<String> {
    let (body, root) = match host.strip_suffix('.') {
        Some(b) => (b, true),
        None => (host, false),
    };
    if body.is_empty() || body.len() > MAX_NAME {
        return None;
    }
    // Allocated at the first label that passes: most declined hosts decline at their first.
    let mut out = String::new();
    for (i, b) in body.as_bytes().split(|&b| b == b'.').enumerate() {
        if b.is_empty()
            || b.len() > MAX_LABEL
            || !b
                .iter()
                .all(|&c| matches!(c, b'a'..=b'z' | b'0'..=b'9' | b'-'))
            || b[0] == b'-'
            || b[b.len() - 1] == b'-'
        {
            return None;
        }
        if !(b.len() >= 4 && b[2] == b'-' && b[3] == b'-') {
            push_label(&mut out, i, host, b.iter().map(|&c| char::from(c)));
            continue;
        }
        // "--" in the third and fourth positions: only an A-label (RFC 5890 §2.3.2.1) may
        // have it, and its decoding is what the hyphen rules are checked on. Its basic code
        // points are `[a-z0-9-]` (checked above); the decoder stops at the first other one
        // that is not in FAST.
        let puny = b.strip_prefix(b"xn--")?;
        let mut chars = ['\0'; PUNY_MAX];
        let n = punycode_decode(puny, &mut chars, is_fast)?;
        let u = &chars[..n];
        if u.iter().all(char::is_ascii) || !is_fast_u_label(u) {
            return None;
        }
        // The canonical encoding only (RFC 5891 §5.4): re-encoding gives the label back.
        let mut again = [0u8; PUNY_MAX];
        if punycode_encode(u, &mut again).map(|len| &again[..len]) != Some(puny) {
            return None;
        }
        push_label(&mut out, i, host, u.iter().copied());
    }
    if root {
        out.push('.');
    }
    Some(out)
}

/// Appends label number `i` of `host` to `out` (a `.` first unless it is the first),
/// allocating `out` at the first.
fn push_label(out: &mut String, i: usize, host: &str, label: impl Iterator<Item = char>) {
    if i == 0 {
        out.reserve(2 * host.len());
    } else {
        out.push('.');
    }
    out.extend(label);
}

/// True when the decoded label `u` is made of `[a-z0-9-]` and FAST only and keeps the hyphen
/// rules (RFC 5891 §4.2.3.1), counted in characters.
fn is_fast_u_label(u: &[char]) -> bool {
    let hyphens = u.first() == Some(&'-')
        || u.last() == Some(&'-')
        || (u.len() >= 4 && u[2] == '-' && u[3] == '-');
    !u.is_empty()
        && !hyphens
        && u.iter()
            .all(|&c| matches!(c, 'a'..='z' | '0'..='9' | '-') || is_fast(c))
}

/// The longest Punycode part of an A-label: 63 octets less the ACE prefix `xn--`.
const PUNY_MAX: usize = MAX_LABEL - 4;

// Bootstring parameters for Punycode (RFC 3492 §5).
const BASE: u32 = 36;
const TMIN: u32 = 1;
const TMAX: u32 = 26;
const SKEW: u32 = 38;
const DAMP: u32 = 700;
const INITIAL_BIAS: u32 = 72;
const INITIAL_N: u32 = 0x80;

/// Bias adaptation (RFC 3492 §6.1).
fn adapt(mut delta: u32, num_points: u32, first_time: bool) -> u32 {
    delta /= if first_time { DAMP } else { 2 };
    delta += delta / num_points;
    let mut k = 0;
    while delta > ((BASE - TMIN) * TMAX) / 2 {
        delta /= BASE - TMIN;
        k += BASE;
    }
    k + (BASE - TMIN + 1) * delta / (delta + SKEW)
}

/// The threshold `t` of digit position `k` (RFC 3492 §6.2, §6.3: "clamped to the range
/// tmin through tmax").
fn threshold(k: u32, bias: u32) -> u32 {
    if k <= bias {
        TMIN
    } else if k >= bias + TMAX {
        TMAX
    } else {
        k - bias
    }
}

/// The basic code point of Punycode digit `d` (RFC 3492 §5: 0–25 `a`–`z`, 26–35 `0`–`9`;
/// lower case, as ToASCII writes it).
fn encode_digit(d: u32) -> u8 {
    if d < 26 {
        b'a' + d as u8
    } else {
        b'0' + (d - 26) as u8
    }
}

/// The value of the lower-case Punycode digit `b` (RFC 3492 §5), or `None`.
fn decode_digit(b: u8) -> Option<u32> {
    match b {
        b'a'..=b'z' => Some(u32::from(b - b'a')),
        b'0'..=b'9' => Some(u32::from(b - b'0') + 26),
        _ => None,
    }
}

/// Punycode encoding (RFC 3492 §6.3) of `input` into `out`, written without allocating: the
/// length written, or `None` when it would be longer than `out` (at most [`PUNY_MAX`] long:
/// longer is not a DNS label).
/// The twin of `idna::punycode::encode_str` (compared in the tests).
///
/// No overflow handling is needed (RFC 3492 §6.4): `input` holds at most [`PUNY_MAX`]
/// characters (the caller's bound), so `delta` stays below `(0x10FFFF + 1) * (PUNY_MAX + 1)`,
/// far under `u32::MAX`.
fn punycode_encode(input: &[char], out: &mut [u8]) -> Option<usize> {
    debug_assert!(input.len() <= PUNY_MAX);
    let mut len = 0;
    let mut push = |b: u8| -> Option<()> {
        *out.get_mut(len)? = b;
        len += 1;
        Some(())
    };
    // The basic code points as they are, then a delimiter if there were any.
    let mut basic = 0u32;
    for &c in input {
        if c.is_ascii() {
            push(c as u8)?;
            basic += 1;
        }
    }
    if basic > 0 {
        push(b'-')?;
    }
    let total = input.len() as u32;
    let (mut n, mut delta, mut bias, mut h) = (INITIAL_N, 0u32, INITIAL_BIAS, basic);
    while h < total {
        // The smallest code point not handled yet (there is one while h < total).
        let m = input.iter().map(|&c| c as u32).filter(|&c| c >= n).min()?;
        delta += (m - n) * (h + 1);
        n = m;
        for &c in input {
            let c = c as u32;
            if c < n {
                delta += 1;
            }
            if c == n {
                // Write delta as a generalized variable-length integer.
                let mut q = delta;
                let mut k = BASE;
                loop {
                    let t = threshold(k, bias);
                    if q < t {
                        break;
                    }
                    push(encode_digit(t + (q - t) % (BASE - t)))?;
                    q = (q - t) / (BASE - t);
                    k += BASE;
                }
                push(encode_digit(q))?;
                bias = adapt(delta, h + 1, h == basic);
                delta = 0;
                h += 1;
            }
        }
        delta += 1;
        n += 1;
    }
    Some(len)
}

/// Punycode decoding (RFC 3492 §6.2) of the lower-case `input` (at most [`PUNY_MAX`] bytes)
/// into `out`, without allocating: the number of characters, or `None` when `input` is not
/// valid Punycode (a non-digit, a truncated integer, an overflow, a value that is no Unicode
/// scalar value) or when `accept` refuses one of its non-basic characters (so that a caller
/// that would refuse the label stops early). Each decoded character takes at least one input
/// byte, so `out` is large enough. With `accept` always true, the twin of
/// `idna::punycode::decode_to_string` on lower-case input (compared in the tests).
fn punycode_decode(
    input: &[u8],
    out: &mut [char; PUNY_MAX],
    accept: impl Fn(char) -> bool,
) -> Option<usize> {
    if input.len() > PUNY_MAX {
        return None;
    }
    // The code points before the last delimiter are basic and copied; the delimiter is
    // consumed only when at least one code point came before it.
    let (basic, digits) = match input.iter().rposition(|&b| b == b'-') {
        Some(p) if p > 0 => (&input[..p], &input[p + 1..]),
        _ => (&input[..0], input),
    };
    let mut len = 0usize;
    for &b in basic {
        if !b.is_ascii() {
            return None;
        }
        out[len] = char::from(b);
        len += 1;
    }
    let (mut n, mut i, mut bias) = (INITIAL_N, 0u32, INITIAL_BIAS);
    let mut pos = 0;
    while pos < digits.len() {
        let old_i = i;
        let mut w = 1u32;
        let mut k = BASE;
        loop {
            let d = decode_digit(*digits.get(pos)?)?;
            pos += 1;
            i = i.checked_add(d.checked_mul(w)?)?;
            let t = threshold(k, bias);
            if d < t {
                break;
            }
            w = w.checked_mul(BASE - t)?;
            k += BASE;
        }
        let count = len as u32 + 1;
        bias = adapt(i - old_i, count, old_i == 0);
        n = n.checked_add(i / count)?;
        i %= count;
        let c = char::from_u32(n).filter(|&c| accept(c))?;
        // In bounds: `len + 1` characters took at least `len + 1` bytes of `input`. A loop,
        // not `copy_within`: the shifts are of a few characters, shorter than a memmove call.
        let at = i as usize;
        for j in (at..len).rev() {
            out[j + 1] = out[j];
        }
        out[at] = c;
        len += 1;
        i += 1;
    }
    Some(len)
}

/// True when `c` is in FAST (see the [module documentation](self)): one load from a bitmap of
/// [`FAST_RANGES`] built at compile time.
#[inline]
pub fn is_fast(c: char) -> bool {
    let u = c as u32;
    u < LIMIT && FAST_BITS[(u >> 6) as usize] >> (u & 63) & 1 != 0
}

/// Every code point of FAST is below this (the test that recomputes FAST checks it): the
/// planes above U+3FFFF hold no character UTS #46 lets through unchanged with Bidi_Class L.
const LIMIT: u32 = 0x4_0000;

/// [`FAST_RANGES`] as a bitmap of the code points below [`LIMIT`] (32 KiB).
static FAST_BITS: [u64; (LIMIT / 64) as usize] = bitmap(FAST_RANGES);

/// The bitmap of `ranges` (sorted, disjoint, inclusive, below [`LIMIT`]; checked).
const fn bitmap(ranges: &[(u32, u32)]) -> [u64; (LIMIT / 64) as usize] {
    let mut bits = [0u64; (LIMIT / 64) as usize];
    let mut i = 0;
    let mut floor = 0;
    while i < ranges.len() {
        let (mut a, z) = ranges[i];
        assert!(
            floor <= a && a <= z && z < LIMIT,
            "FAST_RANGES: sorted, disjoint"
        );
        floor = z + 1;
        while a <= z {
            let word = a / 64;
            let lo = a % 64;
            let hi = if z / 64 == word { z % 64 } else { 63 };
            let n = hi - lo + 1;
            let mask = if n == 64 {
                u64::MAX
            } else {
                ((1 << n) - 1) << lo
            };
            bits[word as usize] |= mask;
            a = (word + 1) * 64;
        }
        i += 1;
    }
    bits
}

/// FAST as inclusive code point ranges, generated from the data of the `idna` crate's back
/// end (`idna_adapter`, `icu_normalizer` 2.4: Unicode 18.0) by the test
/// `tests::fast_ranges_are_recomputed_from_the_crates`, which prints a new table when they
/// differ (after a `Cargo.lock` update of those crates).
#[rustfmt::skip]
const FAST_RANGES: &[(u32, u32)] = &[
    (0x00DF, 0x00F6), (0x00F8, 0x00FF), (0x0101, 0x0101), (0x0103, 0x0103),
    (0x0105, 0x0105), (0x0107, 0x0107), (0x0109, 0x0109), (0x010B, 0x010B),
    (0x010D, 0x010D), (0x010F, 0x010F), (0x0111, 0x0111), (0x0113, 0x0113),
    (0x0115, 0x0115), (0x0117, 0x0117), (0x0119, 0x0119), (0x011B, 0x011B),
    (0x011D, 0x011D), (0x011F, 0x011F), (0x0121, 0x0121), (0x0123, 0x0123),
    (0x0125, 0x0125), (0x0127, 0x0127), (0x0129, 0x0129), (0x012B, 0x012B),
    (0x012D, 0x012D), (0x012F, 0x012F), (0x0131, 0x0131), (0x0135, 0x0135),
    (0x0137, 0x0138), (0x013A, 0x013A), (0x013C, 0x013C), (0x013E, 0x013E),
    (0x0142, 0x0142), (0x0144, 0x0144), (0x0146, 0x0146), (0x0148, 0x0148),
    (0x014B, 0x014B), (0x014D, 0x014D), (0x014F, 0x014F), (0x0151, 0x0151),
    (0x0153, 0x0153), (0x0155, 0x0155), (0x0157, 0x0157), (0x0159, 0x0159),
    (0x015B, 0x015B), (0x015D, 0x015D), (0x015F, 0x015F), (0x0161, 0x0161),
    (0x0163, 0x0163), (0x0165, 0x0165), (0x0167, 0x0167), (0x0169, 0x0169),
    (0x016B, 0x016B), (0x016D, 0x016D), (0x016F, 0x016F), (0x0171, 0x0171),
    (0x0173, 0x0173), (0x0175, 0x0175), (0x0177, 0x0177), (0x017A, 0x017A),
    (0x017C, 0x017C), (0x017E, 0x017E), (0x0180, 0x0180), (0x0183, 0x0183),
    (0x0185, 0x0185), (0x0188, 0x0188), (0x018C, 0x018D), (0x0192, 0x0192),
    (0x0195, 0x0195), (0x0199, 0x019B), (0x019E, 0x019E), (0x01A1, 0x01A1),
    (0x01A3, 0x01A3), (0x01A5, 0x01A5), (0x01A8, 0x01A8), (0x01AA, 0x01AB),
    (0x01AD, 0x01AD), (0x01B0, 0x01B0), (0x01B4, 0x01B4), (0x01B6, 0x01B6),
    (0x01B9, 0x01BB), (0x01BD, 0x01C3), (0x01CE, 0x01CE), (0x01D0, 0x01D0),
    (0x01D2, 0x01D2), (0x01D4, 0x01D4), (0x01D6, 0x01D6), (0x01D8, 0x01D8),
    (0x01DA, 0x01DA), (0x01DC, 0x01DD), (0x01DF, 0x01DF), (0x01E1, 0x01E1),
    (0x01E3, 0x01E3), (0x01E5, 0x01E5), (0x01E7, 0x01E7), (0x01E9, 0x01E9),
    (0x01EB, 0x01EB), (0x01ED, 0x01ED), (0x01EF, 0x01F0), (0x01F5, 0x01F5),
    (0x01F9, 0x01F9), (0x01FB, 0x01FB), (0x01FD, 0x01FD), (0x01FF, 0x01FF),
    (0x0201, 0x0201), (0x0203, 0x0203), (0x0205, 0x0205), (0x0207, 0x0207),
    (0x0209, 0x0209), (0x020B, 0x020B), (0x020D, 0x020D), (0x020F, 0x020F),
    (0x0211, 0x0211), (0x0213, 0x0213), (0x0215, 0x0215), (0x0217, 0x0217),
    (0x0219, 0x0219), (0x021B, 0x021B), (0x021D, 0x021D), (0x021F, 0x021F),
    (0x0221, 0x0221), (0x0223, 0x0223), (0x0225, 0x0225), (0x0227, 0x0227),
    (0x0229, 0x0229), (0x022B, 0x022B), (0x022D, 0x022D), (0x022F, 0x022F),
    (0x0231, 0x0231), (0x0233, 0x0239), (0x023C, 0x023C), (0x023F, 0x0240),
    (0x0242, 0x0242), (0x0247, 0x0247), (0x0249, 0x0249), (0x024B, 0x024B),
    (0x024D, 0x024D), (0x024F, 0x02AF), (0x02BB, 0x02C1), (0x02D0, 0x02D1),
    (0x02EE, 0x02EE), (0x0371, 0x0371), (0x0373, 0x0373), (0x0377, 0x0377),
    (0x037B, 0x037D), (0x0390, 0x0390), (0x03AC, 0x03CE), (0x03D7, 0x03D7),
    (0x03D9, 0x03D9), (0x03DB, 0x03DB), (0x03DD, 0x03DD), (0x03DF, 0x03DF),
    (0x03E1, 0x03E1), (0x03E3, 0x03E3), (0x03E5, 0x03E5), (0x03E7, 0x03E7),
    (0x03E9, 0x03E9), (0x03EB, 0x03EB), (0x03ED, 0x03ED), (0x03EF, 0x03EF),
    (0x03F3, 0x03F3), (0x03F8, 0x03F8), (0x03FB, 0x03FC), (0x0430, 0x045F),
    (0x0461, 0x0461), (0x0463, 0x0463), (0x0465, 0x0465), (0x0467, 0x0467),
    (0x0469, 0x0469), (0x046B, 0x046B), (0x046D, 0x046D), (0x046F, 0x046F),
    (0x0471, 0x0471), (0x0473, 0x0473), (0x0475, 0x0475), (0x0477, 0x0477),
    (0x0479, 0x0479), (0x047B, 0x047B), (0x047D, 0x047D), (0x047F, 0x047F),
    (0x0481, 0x0482), (0x048B, 0x048B), (0x048D, 0x048D), (0x048F, 0x048F),
    (0x0491, 0x0491), (0x0493, 0x0493), (0x0495, 0x0495), (0x0497, 0x0497),
    (0x0499, 0x0499), (0x049B, 0x049B), (0x049D, 0x049D), (0x049F, 0x049F),
    (0x04A1, 0x04A1), (0x04A3, 0x04A3), (0x04A5, 0x04A5), (0x04A7, 0x04A7),
    (0x04A9, 0x04A9), (0x04AB, 0x04AB), (0x04AD, 0x04AD), (0x04AF, 0x04AF),
    (0x04B1, 0x04B1), (0x04B3, 0x04B3), (0x04B5, 0x04B5), (0x04B7, 0x04B7),
    (0x04B9, 0x04B9), (0x04BB, 0x04BB), (0x04BD, 0x04BD), (0x04BF, 0x04BF),
    (0x04C2, 0x04C2), (0x04C4, 0x04C4), (0x04C6, 0x04C6), (0x04C8, 0x04C8),
    (0x04CA, 0x04CA), (0x04CC, 0x04CC), (0x04CE, 0x04CF), (0x04D1, 0x04D1),
    (0x04D3, 0x04D3), (0x04D5, 0x04D5), (0x04D7, 0x04D7), (0x04D9, 0x04D9),
    (0x04DB, 0x04DB), (0x04DD, 0x04DD), (0x04DF, 0x04DF), (0x04E1, 0x04E1),
    (0x04E3, 0x04E3), (0x04E5, 0x04E5), (0x04E7, 0x04E7), (0x04E9, 0x04E9),
    (0x04EB, 0x04EB), (0x04ED, 0x04ED), (0x04EF, 0x04EF), (0x04F1, 0x04F1),
    (0x04F3, 0x04F3), (0x04F5, 0x04F5), (0x04F7, 0x04F7), (0x04F9, 0x04F9),
    (0x04FB, 0x04FB), (0x04FD, 0x04FD), (0x04FF, 0x04FF), (0x0501, 0x0501),
    (0x0503, 0x0503), (0x0505, 0x0505), (0x0507, 0x0507), (0x0509, 0x0509),
    (0x050B, 0x050B), (0x050D, 0x050D), (0x050F, 0x050F), (0x0511, 0x0511),
    (0x0513, 0x0513), (0x0515, 0x0515), (0x0517, 0x0517), (0x0519, 0x0519),
    (0x051B, 0x051B), (0x051D, 0x051D), (0x051F, 0x051F), (0x0521, 0x0521),
    (0x0523, 0x0523), (0x0525, 0x0525), (0x0527, 0x0527), (0x0529, 0x0529),
    (0x052B, 0x052B), (0x052D, 0x052D), (0x052F, 0x052F), (0x0559, 0x0586),
    (0x0588, 0x0589), (0x0904, 0x0939), (0x093D, 0x093D), (0x0950, 0x0950),
    (0x0960, 0x0961), (0x0964, 0x0980), (0x0985, 0x098C), (0x098F, 0x0990),
    (0x0993, 0x09A8), (0x09AA, 0x09B0), (0x09B2, 0x09B2), (0x09B6, 0x09B9),
    (0x09BD, 0x09BD), (0x09CE, 0x09CE), (0x09E0, 0x09E1), (0x09E6, 0x09F1),
    (0x09F4, 0x09FA), (0x09FC, 0x09FD), (0x0A05, 0x0A0A), (0x0A0F, 0x0A10),
    (0x0A13, 0x0A28), (0x0A2A, 0x0A30), (0x0A32, 0x0A32), (0x0A35, 0x0A35),
    (0x0A38, 0x0A39), (0x0A5C, 0x0A5C), (0x0A66, 0x0A6F), (0x0A72, 0x0A74),
    (0x0A76, 0x0A76), (0x0A85, 0x0A8D), (0x0A8F, 0x0A91), (0x0A93, 0x0AA8),
    (0x0AAA, 0x0AB0), (0x0AB2, 0x0AB3), (0x0AB5, 0x0AB9), (0x0ABD, 0x0ABD),
    (0x0AD0, 0x0AD0), (0x0AE0, 0x0AE1), (0x0AE6, 0x0AF0), (0x0AF9, 0x0AF9),
    (0x0B05, 0x0B0C), (0x0B0F, 0x0B10), (0x0B13, 0x0B28), (0x0B2A, 0x0B30),
    (0x0B32, 0x0B33), (0x0B35, 0x0B39), (0x0B3D, 0x0B3D), (0x0B5F, 0x0B61),
    (0x0B66, 0x0B77), (0x0B83, 0x0B83), (0x0B85, 0x0B8A), (0x0B8E, 0x0B90),
    (0x0B92, 0x0B95), (0x0B99, 0x0B9A), (0x0B9C, 0x0B9C), (0x0B9E, 0x0B9F),
    (0x0BA3, 0x0BA4), (0x0BA8, 0x0BAA), (0x0BAE, 0x0BB9), (0x0BD0, 0x0BD0),
    (0x0BE6, 0x0BF2), (0x0C05, 0x0C0C), (0x0C0E, 0x0C10), (0x0C12, 0x0C28),
    (0x0C2A, 0x0C39), (0x0C3D, 0x0C3D), (0x0C58, 0x0C5A), (0x0C5C, 0x0C5D),
    (0x0C60, 0x0C61), (0x0C66, 0x0C6F), (0x0C77, 0x0C77), (0x0C7F, 0x0C80),
    (0x0C84, 0x0C8C), (0x0C8E, 0x0C90), (0x0C92, 0x0CA8), (0x0CAA, 0x0CB3),
    (0x0CB5, 0x0CB9), (0x0CBD, 0x0CBD), (0x0CDC, 0x0CDE), (0x0CE0, 0x0CE1),
    (0x0CE6, 0x0CEF), (0x0CF1, 0x0CF2), (0x0D04, 0x0D0C), (0x0D0E, 0x0D10),
    (0x0D12, 0x0D3A), (0x0D3D, 0x0D3D), (0x0D4E, 0x0D4F), (0x0D54, 0x0D56),
    (0x0D58, 0x0D61), (0x0D66, 0x0D7F), (0x0D85, 0x0D96), (0x0D9A, 0x0DB1),
    (0x0DB3, 0x0DBB), (0x0DBD, 0x0DBD), (0x0DC0, 0x0DC6), (0x0DE6, 0x0DEF),
    (0x0DF4, 0x0DF4), (0x0E01, 0x0E30), (0x0E32, 0x0E32), (0x0E40, 0x0E46),
    (0x0E4F, 0x0E5B), (0x0E81, 0x0E82), (0x0E84, 0x0E84), (0x0E86, 0x0E8A),
    (0x0E8C, 0x0EA3), (0x0EA5, 0x0EA5), (0x0EA7, 0x0EB0), (0x0EB2, 0x0EB2),
    (0x0EBD, 0x0EBD), (0x0EC0, 0x0EC4), (0x0EC6, 0x0EC6), (0x0ED0, 0x0ED9),
    (0x0EDE, 0x0EDF), (0x0F00, 0x0F0B), (0x0F0D, 0x0F17), (0x0F1A, 0x0F34),
    (0x0F36, 0x0F36), (0x0F38, 0x0F38), (0x0F40, 0x0F42), (0x0F44, 0x0F47),
    (0x0F49, 0x0F4C), (0x0F4E, 0x0F51), (0x0F53, 0x0F56), (0x0F58, 0x0F5B),
    (0x0F5D, 0x0F68), (0x0F6A, 0x0F6C), (0x0F85, 0x0F85), (0x0F88, 0x0F8C),
    (0x0FBE, 0x0FC5), (0x0FC7, 0x0FCC), (0x0FCE, 0x0FDA), (0x1000, 0x102A),
    (0x103F, 0x1055), (0x105A, 0x105D), (0x1061, 0x1061), (0x1065, 0x1066),
    (0x106E, 0x1070), (0x1075, 0x1081), (0x108E, 0x108E), (0x1090, 0x1099),
    (0x109E, 0x109F), (0x10D0, 0x10FB), (0x10FD, 0x115E), (0x1176, 0x11A7),
    (0x11C3, 0x1248), (0x124A, 0x124D), (0x1250, 0x1256), (0x1258, 0x1258),
    (0x125A, 0x125D), (0x1260, 0x1288), (0x128A, 0x128D), (0x1290, 0x12B0),
    (0x12B2, 0x12B5), (0x12B8, 0x12BE), (0x12C0, 0x12C0), (0x12C2, 0x12C5),
    (0x12C8, 0x12D6), (0x12D8, 0x1310), (0x1312, 0x1315), (0x1318, 0x135A),
    (0x1360, 0x137C), (0x1380, 0x138F), (0x13A0, 0x13F5), (0x1401, 0x167F),
    (0x1681, 0x169A), (0x16A0, 0x16F8), (0x1700, 0x1711), (0x171F, 0x1731),
    (0x1735, 0x1736), (0x1740, 0x1751), (0x1760, 0x176C), (0x176E, 0x1770),
    (0x1780, 0x17B3), (0x17D4, 0x17DA), (0x17DC, 0x17DC), (0x17E0, 0x17E9),
    (0x1810, 0x1819), (0x1820, 0x1878), (0x1880, 0x1884), (0x1887, 0x18A8),
    (0x18AA, 0x18AA), (0x18B0, 0x18F5), (0x1900, 0x191E), (0x1946, 0x196D),
    (0x1970, 0x1974), (0x1980, 0x19AB), (0x19B0, 0x19C9), (0x19D0, 0x19DA),
    (0x1A00, 0x1A16), (0x1A1E, 0x1A54), (0x1A80, 0x1A89), (0x1A90, 0x1A99),
    (0x1AA0, 0x1AAD), (0x1B05, 0x1B33), (0x1B45, 0x1B4C), (0x1B4E, 0x1B6A),
    (0x1B74, 0x1B7F), (0x1B83, 0x1BA0), (0x1BAE, 0x1BE5), (0x1BFC, 0x1C23),
    (0x1C3B, 0x1C49), (0x1C4D, 0x1C7F), (0x1C8A, 0x1C8A), (0x1CC0, 0x1CC7),
    (0x1CD3, 0x1CD3), (0x1CE9, 0x1CEC), (0x1CEE, 0x1CF3), (0x1CF5, 0x1CF6),
    (0x1CFA, 0x1CFA), (0x1D00, 0x1D2B), (0x1D2F, 0x1D2F), (0x1D3B, 0x1D3B),
    (0x1D4E, 0x1D4E), (0x1D6B, 0x1D77), (0x1D79, 0x1D9A), (0x1E01, 0x1E01),
    (0x1E03, 0x1E03), (0x1E05, 0x1E05), (0x1E07, 0x1E07), (0x1E09, 0x1E09),
    (0x1E0B, 0x1E0B), (0x1E0D, 0x1E0D), (0x1E0F, 0x1E0F), (0x1E11, 0x1E11),
    (0x1E13, 0x1E13), (0x1E15, 0x1E15), (0x1E17, 0x1E17), (0x1E19, 0x1E19),
    (0x1E1B, 0x1E1B), (0x1E1D, 0x1E1D), (0x1E1F, 0x1E1F), (0x1E21, 0x1E21),
    (0x1E23, 0x1E23), (0x1E25, 0x1E25), (0x1E27, 0x1E27), (0x1E29, 0x1E29),
    (0x1E2B, 0x1E2B), (0x1E2D, 0x1E2D), (0x1E2F, 0x1E2F), (0x1E31, 0x1E31),
    (0x1E33, 0x1E33), (0x1E35, 0x1E35), (0x1E37, 0x1E37), (0x1E39, 0x1E39),
    (0x1E3B, 0x1E3B), (0x1E3D, 0x1E3D), (0x1E3F, 0x1E3F), (0x1E41, 0x1E41),
    (0x1E43, 0x1E43), (0x1E45, 0x1E45), (0x1E47, 0x1E47), (0x1E49, 0x1E49),
    (0x1E4B, 0x1E4B), (0x1E4D, 0x1E4D), (0x1E4F, 0x1E4F), (0x1E51, 0x1E51),
    (0x1E53, 0x1E53), (0x1E55, 0x1E55), (0x1E57, 0x1E57), (0x1E59, 0x1E59),
    (0x1E5B, 0x1E5B), (0x1E5D, 0x1E5D), (0x1E5F, 0x1E5F), (0x1E61, 0x1E61),
    (0x1E63, 0x1E63), (0x1E65, 0x1E65), (0x1E67, 0x1E67), (0x1E69, 0x1E69),
    (0x1E6B, 0x1E6B), (0x1E6D, 0x1E6D), (0x1E6F, 0x1E6F), (0x1E71, 0x1E71),
    (0x1E73, 0x1E73), (0x1E75, 0x1E75), (0x1E77, 0x1E77), (0x1E79, 0x1E79),
    (0x1E7B, 0x1E7B), (0x1E7D, 0x1E7D), (0x1E7F, 0x1E7F), (0x1E81, 0x1E81),
    (0x1E83, 0x1E83), (0x1E85, 0x1E85), (0x1E87, 0x1E87), (0x1E89, 0x1E89),
    (0x1E8B, 0x1E8B), (0x1E8D, 0x1E8D), (0x1E8F, 0x1E8F), (0x1E91, 0x1E91),
    (0x1E93, 0x1E93), (0x1E95, 0x1E99), (0x1E9C, 0x1E9D), (0x1E9F, 0x1E9F),
    (0x1EA1, 0x1EA1), (0x1EA3, 0x1EA3), (0x1EA5, 0x1EA5), (0x1EA7, 0x1EA7),
    (0x1EA9, 0x1EA9), (0x1EAB, 0x1EAB), (0x1EAD, 0x1EAD), (0x1EAF, 0x1EAF),
    (0x1EB1, 0x1EB1), (0x1EB3, 0x1EB3), (0x1EB5, 0x1EB5), (0x1EB7, 0x1EB7),
    (0x1EB9, 0x1EB9), (0x1EBB, 0x1EBB), (0x1EBD, 0x1EBD), (0x1EBF, 0x1EBF),
    (0x1EC1, 0x1EC1), (0x1EC3, 0x1EC3), (0x1EC5, 0x1EC5), (0x1EC7, 0x1EC7),
    (0x1EC9, 0x1EC9), (0x1ECB, 0x1ECB), (0x1ECD, 0x1ECD), (0x1ECF, 0x1ECF),
    (0x1ED1, 0x1ED1), (0x1ED3, 0x1ED3), (0x1ED5, 0x1ED5), (0x1ED7, 0x1ED7),
    (0x1ED9, 0x1ED9), (0x1EDB, 0x1EDB), (0x1EDD, 0x1EDD), (0x1EDF, 0x1EDF),
    (0x1EE1, 0x1EE1), (0x1EE3, 0x1EE3), (0x1EE5, 0x1EE5), (0x1EE7, 0x1EE7),
    (0x1EE9, 0x1EE9), (0x1EEB, 0x1EEB), (0x1EED, 0x1EED), (0x1EEF, 0x1EEF),
    (0x1EF1, 0x1EF1), (0x1EF3, 0x1EF3), (0x1EF5, 0x1EF5), (0x1EF7, 0x1EF7),
    (0x1EF9, 0x1EF9), (0x1EFB, 0x1EFB), (0x1EFD, 0x1EFD), (0x1EFF, 0x1F07),
    (0x1F10, 0x1F15), (0x1F20, 0x1F27), (0x1F30, 0x1F37), (0x1F40, 0x1F45),
    (0x1F50, 0x1F57), (0x1F60, 0x1F67), (0x1F70, 0x1F70), (0x1F72, 0x1F72),
    (0x1F74, 0x1F74), (0x1F76, 0x1F76), (0x1F78, 0x1F78), (0x1F7A, 0x1F7A),
    (0x1F7C, 0x1F7C), (0x1FB0, 0x1FB1), (0x1FB6, 0x1FB6), (0x1FC6, 0x1FC6),
    (0x1FD0, 0x1FD2), (0x1FD6, 0x1FD7), (0x1FE0, 0x1FE2), (0x1FE4, 0x1FE7),
    (0x1FF6, 0x1FF6), (0x214E, 0x214F), (0x2180, 0x2182), (0x2184, 0x2188),
    (0x2336, 0x237A), (0x2395, 0x2395), (0x26AC, 0x26AC), (0x2800, 0x28FF),
    (0x2C30, 0x2C5F), (0x2C61, 0x2C61), (0x2C65, 0x2C66), (0x2C68, 0x2C68),
    (0x2C6A, 0x2C6A), (0x2C6C, 0x2C6C), (0x2C71, 0x2C71), (0x2C73, 0x2C74),
    (0x2C76, 0x2C7B), (0x2C81, 0x2C81), (0x2C83, 0x2C83), (0x2C85, 0x2C85),
    (0x2C87, 0x2C87), (0x2C89, 0x2C89), (0x2C8B, 0x2C8B), (0x2C8D, 0x2C8D),
    (0x2C8F, 0x2C8F), (0x2C91, 0x2C91), (0x2C93, 0x2C93), (0x2C95, 0x2C95),
    (0x2C97, 0x2C97), (0x2C99, 0x2C99), (0x2C9B, 0x2C9B), (0x2C9D, 0x2C9D),
    (0x2C9F, 0x2C9F), (0x2CA1, 0x2CA1), (0x2CA3, 0x2CA3), (0x2CA5, 0x2CA5),
    (0x2CA7, 0x2CA7), (0x2CA9, 0x2CA9), (0x2CAB, 0x2CAB), (0x2CAD, 0x2CAD),
    (0x2CAF, 0x2CAF), (0x2CB1, 0x2CB1), (0x2CB3, 0x2CB3), (0x2CB5, 0x2CB5),
    (0x2CB7, 0x2CB7), (0x2CB9, 0x2CB9), (0x2CBB, 0x2CBB), (0x2CBD, 0x2CBD),
    (0x2CBF, 0x2CBF), (0x2CC1, 0x2CC1), (0x2CC3, 0x2CC3), (0x2CC5, 0x2CC5),
    (0x2CC7, 0x2CC7), (0x2CC9, 0x2CC9), (0x2CCB, 0x2CCB), (0x2CCD, 0x2CCD),
    (0x2CCF, 0x2CCF), (0x2CD1, 0x2CD1), (0x2CD3, 0x2CD3), (0x2CD5, 0x2CD5),
    (0x2CD7, 0x2CD7), (0x2CD9, 0x2CD9), (0x2CDB, 0x2CDB), (0x2CDD, 0x2CDD),
    (0x2CDF, 0x2CDF), (0x2CE1, 0x2CE1), (0x2CE3, 0x2CE4), (0x2CEC, 0x2CEC),
    (0x2CEE, 0x2CEE), (0x2CF3, 0x2CF3), (0x2D00, 0x2D25), (0x2D27, 0x2D27),
    (0x2D2D, 0x2D2D), (0x2D30, 0x2D67), (0x2D70, 0x2D70), (0x2D80, 0x2D96),
    (0x2DA0, 0x2DA6), (0x2DA8, 0x2DAE), (0x2DB0, 0x2DB6), (0x2DB8, 0x2DBE),
    (0x2DC0, 0x2DC6), (0x2DC8, 0x2DCE), (0x2DD0, 0x2DD6), (0x2DD8, 0x2DDE),
    (0x3005, 0x3007), (0x3021, 0x3029), (0x3031, 0x3035), (0x303B, 0x303C),
    (0x3041, 0x3096), (0x309D, 0x309E), (0x30A1, 0x30FA), (0x30FC, 0x30FE),
    (0x3105, 0x312F), (0x3190, 0x3191), (0x31A0, 0x31BF), (0x31F0, 0x31FF),
    (0x3248, 0x324F), (0x327F, 0x327F), (0x3400, 0x4DBF), (0x4E00, 0xA48C),
    (0xA4D0, 0xA60C), (0xA610, 0xA62B), (0xA641, 0xA641), (0xA643, 0xA643),
    (0xA645, 0xA645), (0xA647, 0xA647), (0xA649, 0xA649), (0xA64B, 0xA64B),
    (0xA64D, 0xA64D), (0xA64F, 0xA64F), (0xA651, 0xA651), (0xA653, 0xA653),
    (0xA655, 0xA655), (0xA657, 0xA657), (0xA659, 0xA659), (0xA65B, 0xA65B),
    (0xA65D, 0xA65D), (0xA65F, 0xA65F), (0xA661, 0xA661), (0xA663, 0xA663),
    (0xA665, 0xA665), (0xA667, 0xA667), (0xA669, 0xA669), (0xA66B, 0xA66B),
    (0xA66D, 0xA66E), (0xA681, 0xA681), (0xA683, 0xA683), (0xA685, 0xA685),
    (0xA687, 0xA687), (0xA689, 0xA689), (0xA68B, 0xA68B), (0xA68D, 0xA68D),
    (0xA68F, 0xA68F), (0xA691, 0xA691), (0xA693, 0xA693), (0xA695, 0xA695),
    (0xA697, 0xA697), (0xA699, 0xA699), (0xA69B, 0xA69B), (0xA6A0, 0xA6EF),
    (0xA6F2, 0xA6F7), (0xA723, 0xA723), (0xA725, 0xA725), (0xA727, 0xA727),
    (0xA729, 0xA729), (0xA72B, 0xA72B), (0xA72D, 0xA72D), (0xA72F, 0xA731),
    (0xA733, 0xA733), (0xA735, 0xA735), (0xA737, 0xA737), (0xA739, 0xA739),
    (0xA73B, 0xA73B), (0xA73D, 0xA73D), (0xA73F, 0xA73F), (0xA741, 0xA741),
    (0xA743, 0xA743), (0xA745, 0xA745), (0xA747, 0xA747), (0xA749, 0xA749),
    (0xA74B, 0xA74B), (0xA74D, 0xA74D), (0xA74F, 0xA74F), (0xA751, 0xA751),
    (0xA753, 0xA753), (0xA755, 0xA755), (0xA757, 0xA757), (0xA759, 0xA759),
    (0xA75B, 0xA75B), (0xA75D, 0xA75D), (0xA75F, 0xA75F), (0xA761, 0xA761),
    (0xA763, 0xA763), (0xA765, 0xA765), (0xA767, 0xA767), (0xA769, 0xA769),
    (0xA76B, 0xA76B), (0xA76D, 0xA76D), (0xA76F, 0xA76F), (0xA771, 0xA778),
    (0xA77A, 0xA77A), (0xA77C, 0xA77C), (0xA77F, 0xA77F), (0xA781, 0xA781),
    (0xA783, 0xA783), (0xA785, 0xA785), (0xA787, 0xA787), (0xA789, 0xA78A),
    (0xA78C, 0xA78C), (0xA78E, 0xA78F), (0xA791, 0xA791), (0xA793, 0xA795),
    (0xA797, 0xA797), (0xA799, 0xA799), (0xA79B, 0xA79B), (0xA79D, 0xA79D),
    (0xA79F, 0xA79F), (0xA7A1, 0xA7A1), (0xA7A3, 0xA7A3), (0xA7A5, 0xA7A5),
    (0xA7A7, 0xA7A7), (0xA7A9, 0xA7A9), (0xA7AF, 0xA7AF), (0xA7B5, 0xA7B5),
    (0xA7B7, 0xA7B7), (0xA7B9, 0xA7B9), (0xA7BB, 0xA7BB), (0xA7BD, 0xA7BD),
    (0xA7BF, 0xA7BF), (0xA7C1, 0xA7C1), (0xA7C3, 0xA7C3), (0xA7C8, 0xA7C8),
    (0xA7CA, 0xA7CA), (0xA7CD, 0xA7CD), (0xA7CF, 0xA7CF), (0xA7D1, 0xA7D1),
    (0xA7D3, 0xA7D3), (0xA7D5, 0xA7D5), (0xA7D7, 0xA7D7), (0xA7D9, 0xA7D9),
    (0xA7DB, 0xA7DB), (0xA7F6, 0xA7F7), (0xA7FA, 0xA801), (0xA803, 0xA805),
    (0xA807, 0xA80A), (0xA80C, 0xA822), (0xA830, 0xA837), (0xA840, 0xA873),
    (0xA882, 0xA8B3), (0xA8CE, 0xA8D9), (0xA8F2, 0xA8FE), (0xA900, 0xA925),
    (0xA92E, 0xA946), (0xA95F, 0xA97C), (0xA984, 0xA9B2), (0xA9C1, 0xA9CD),
    (0xA9CF, 0xA9D9), (0xA9DE, 0xA9E4), (0xA9E6, 0xA9FE), (0xAA00, 0xAA28),
    (0xAA40, 0xAA42), (0xAA44, 0xAA4B), (0xAA50, 0xAA59), (0xAA5C, 0xAA7A),
    (0xAA7E, 0xAAAF), (0xAAB1, 0xAAB1), (0xAAB5, 0xAAB6), (0xAAB9, 0xAABD),
    (0xAAC0, 0xAAC0), (0xAAC2, 0xAAC2), (0xAADB, 0xAAEA), (0xAAF0, 0xAAF4),
    (0xAB01, 0xAB06), (0xAB09, 0xAB0E), (0xAB11, 0xAB16), (0xAB20, 0xAB26),
    (0xAB28, 0xAB2E), (0xAB30, 0xAB5B), (0xAB60, 0xAB68), (0xABC0, 0xABE2),
    (0xABEB, 0xABEB), (0xABF0, 0xABF9), (0xAC00, 0xD7A3), (0xD7B0, 0xD7C6),
    (0xD7CB, 0xD7FB), (0xFA0E, 0xFA0F), (0xFA11, 0xFA11), (0xFA13, 0xFA14),
    (0xFA1F, 0xFA1F), (0xFA21, 0xFA21), (0xFA23, 0xFA24), (0xFA27, 0xFA29),
    (0x10000, 0x1000B), (0x1000D, 0x10026), (0x10028, 0x1003A), (0x1003C, 0x1003D),
    (0x1003F, 0x1004D), (0x10050, 0x1005D), (0x10080, 0x100FA), (0x10100, 0x10100),
    (0x10102, 0x10102), (0x10107, 0x10133), (0x10137, 0x1013F), (0x1018D, 0x1018E),
    (0x101D0, 0x101FC), (0x10280, 0x1029C), (0x102A0, 0x102D0), (0x10300, 0x10323),
    (0x1032D, 0x1034A), (0x10350, 0x10375), (0x10380, 0x1039D), (0x1039F, 0x103C3),
    (0x103C8, 0x103D5), (0x10428, 0x1049D), (0x104A0, 0x104A9), (0x104D8, 0x104FB),
    (0x10500, 0x10527), (0x10530, 0x10563), (0x1056F, 0x1056F), (0x10597, 0x105A1),
    (0x105A3, 0x105B1), (0x105B3, 0x105B9), (0x105BB, 0x105BC), (0x105C0, 0x105F3),
    (0x10600, 0x10736), (0x10740, 0x10755), (0x10760, 0x10767), (0x10780, 0x10780),
    (0x11003, 0x11037), (0x11047, 0x1104D), (0x11066, 0x1106F), (0x11071, 0x11072),
    (0x11075, 0x11075), (0x11083, 0x110AF), (0x110BB, 0x110BC), (0x110BE, 0x110C1),
    (0x110D0, 0x110E8), (0x110F0, 0x110F9), (0x11103, 0x11126), (0x11136, 0x11144),
    (0x11147, 0x11147), (0x11150, 0x11172), (0x11174, 0x11176), (0x11183, 0x111B2),
    (0x111C1, 0x111C8), (0x111CD, 0x111CD), (0x111D0, 0x111DF), (0x111E1, 0x111F4),
    (0x11200, 0x11211), (0x11213, 0x1122B), (0x11238, 0x1123D), (0x1123F, 0x11240),
    (0x11280, 0x11286), (0x11288, 0x11288), (0x1128A, 0x1128D), (0x1128F, 0x1129D),
    (0x1129F, 0x112A9), (0x112B0, 0x112DE), (0x112F0, 0x112F9), (0x11305, 0x1130C),
    (0x1130F, 0x11310), (0x11313, 0x11328), (0x1132A, 0x11330), (0x11332, 0x11333),
    (0x11335, 0x11339), (0x1133D, 0x1133D), (0x11350, 0x11350), (0x1135D, 0x11361),
    (0x11380, 0x11389), (0x1138B, 0x1138B), (0x1138E, 0x1138E), (0x11390, 0x113B5),
    (0x113B7, 0x113B7), (0x113D1, 0x113D1), (0x113D3, 0x113D5), (0x113D7, 0x113D8),
    (0x11400, 0x11434), (0x11447, 0x1145B), (0x1145D, 0x1145D), (0x1145F, 0x11461),
    (0x11480, 0x114AF), (0x114C4, 0x114C7), (0x114D0, 0x114D9), (0x11580, 0x115AE),
    (0x115C1, 0x115DB), (0x11600, 0x1162F), (0x11641, 0x11644), (0x11650, 0x11659),
    (0x11680, 0x116AA), (0x116B8, 0x116B9), (0x116C0, 0x116C9), (0x116D0, 0x116E3),
    (0x11700, 0x1171A), (0x11730, 0x11746), (0x11800, 0x1182B), (0x1183B, 0x1183B),
    (0x118C0, 0x118F2), (0x118FF, 0x11906), (0x11909, 0x11909), (0x1190C, 0x11913),
    (0x11915, 0x11916), (0x11918, 0x1192F), (0x1193F, 0x1193F), (0x11941, 0x11941),
    (0x11944, 0x11946), (0x11950, 0x11959), (0x119A0, 0x119A7), (0x119AA, 0x119D0),
    (0x119E1, 0x119E3), (0x11A00, 0x11A00), (0x11A0B, 0x11A32), (0x11A3A, 0x11A3A),
    (0x11A3F, 0x11A46), (0x11A50, 0x11A50), (0x11A5C, 0x11A89), (0x11A9A, 0x11AA2),
    (0x11AB0, 0x11AF8), (0x11B00, 0x11B0A), (0x11BC0, 0x11BE1), (0x11BF0, 0x11BF9),
    (0x11C00, 0x11C08), (0x11C0A, 0x11C2E), (0x11C40, 0x11C45), (0x11C50, 0x11C6C),
    (0x11C70, 0x11C8F), (0x11D00, 0x11D06), (0x11D08, 0x11D09), (0x11D0B, 0x11D30),
    (0x11D46, 0x11D46), (0x11D50, 0x11D59), (0x11D60, 0x11D65), (0x11D67, 0x11D68),
    (0x11D6A, 0x11D89), (0x11D98, 0x11D98), (0x11DA0, 0x11DA9), (0x11DB0, 0x11DDB),
    (0x11DE0, 0x11DE9), (0x11DF1, 0x11DF1), (0x11EE0, 0x11EF2), (0x11EF7, 0x11EF8),
    (0x11F02, 0x11F02), (0x11F04, 0x11F10), (0x11F12, 0x11F33), (0x11F43, 0x11F59),
    (0x11FB0, 0x11FB0), (0x11FC0, 0x11FD4), (0x11FFF, 0x12399), (0x12400, 0x12543),
    (0x12550, 0x12686), (0x12F90, 0x12FF2), (0x13000, 0x1342F), (0x13441, 0x13446),
    (0x13460, 0x143FA), (0x14400, 0x14646), (0x16100, 0x1611D), (0x16130, 0x16139),
    (0x16800, 0x16A38), (0x16A40, 0x16A5E), (0x16A60, 0x16A69), (0x16A6E, 0x16ABE),
    (0x16AC0, 0x16AC9), (0x16AD0, 0x16AED), (0x16AF5, 0x16AF5), (0x16B00, 0x16B2F),
    (0x16B37, 0x16B45), (0x16B50, 0x16B59), (0x16B5B, 0x16B61), (0x16B63, 0x16B77),
    (0x16B7D, 0x16B8F), (0x16D40, 0x16D66), (0x16D68, 0x16D79), (0x16E60, 0x16E9A),
    (0x16EBB, 0x16ED3), (0x16F00, 0x16F4A), (0x16F50, 0x16F50), (0x16F93, 0x16F9F),
    (0x16FE0, 0x16FE1), (0x16FE3, 0x16FE3), (0x16FF2, 0x16FF6), (0x17000, 0x18CDA),
    (0x18CFF, 0x18D20), (0x18D80, 0x18DF2), (0x18E00, 0x19191), (0x191A0, 0x191D2),
    (0x1AFF0, 0x1AFF3), (0x1AFF5, 0x1AFFB), (0x1AFFD, 0x1AFFE), (0x1B000, 0x1B122),
    (0x1B127, 0x1B128), (0x1B132, 0x1B132), (0x1B150, 0x1B152), (0x1B155, 0x1B155),
    (0x1B164, 0x1B168), (0x1B170, 0x1B2FB), (0x1BC00, 0x1BC6A), (0x1BC70, 0x1BC7C),
    (0x1BC80, 0x1BC88), (0x1BC90, 0x1BC99), (0x1BC9C, 0x1BC9C), (0x1BC9F, 0x1BC9F),
    (0x1CF50, 0x1CFC3), (0x1D000, 0x1D0F5), (0x1D100, 0x1D126), (0x1D129, 0x1D15D),
    (0x1D16A, 0x1D16C), (0x1D183, 0x1D184), (0x1D18C, 0x1D1A9), (0x1D1AE, 0x1D1BA),
    (0x1D1C1, 0x1D1E8), (0x1D1EB, 0x1D1FF), (0x1D253, 0x1D25A), (0x1D25D, 0x1D25E),
    (0x1D260, 0x1D27F), (0x1D2C0, 0x1D2D3), (0x1D2E0, 0x1D2F3), (0x1D360, 0x1D378),
    (0x1D800, 0x1D9FF), (0x1DA37, 0x1DA3A), (0x1DA6D, 0x1DA74), (0x1DA76, 0x1DA83),
    (0x1DA85, 0x1DA8B), (0x1DF00, 0x1DF3F), (0x1DF41, 0x1DF47), (0x1DF49, 0x1DF49),
    (0x1DF4B, 0x1DF4C), (0x1DF4E, 0x1DF50), (0x1DF52, 0x1DF67), (0x1DF69, 0x1DF69),
    (0x1DF6B, 0x1DF6B), (0x1DF6D, 0x1DF6D), (0x1DF6F, 0x1DF71), (0x1DF73, 0x1DF73),
    (0x1DF75, 0x1DF75), (0x1DF77, 0x1DF77), (0x1DF79, 0x1DF79), (0x1DF7B, 0x1DF7B),
    (0x1DF7D, 0x1DF7D), (0x1DF7F, 0x1DF81), (0x1DF90, 0x1DF94), (0x1DF96, 0x1DF96),
    (0x1E100, 0x1E12C), (0x1E137, 0x1E13D), (0x1E140, 0x1E149), (0x1E14E, 0x1E14F),
    (0x1E290, 0x1E2AD), (0x1E2C0, 0x1E2EB), (0x1E2F0, 0x1E2F9), (0x1E4D0, 0x1E4EB),
    (0x1E4F0, 0x1E4F9), (0x1E5D0, 0x1E5ED), (0x1E5F0, 0x1E5FA), (0x1E5FF, 0x1E5FF),
    (0x1E6C0, 0x1E6DE), (0x1E6E0, 0x1E6E2), (0x1E6E4, 0x1E6E5), (0x1E6E7, 0x1E6ED),
    (0x1E6F0, 0x1E6F4), (0x1E6FE, 0x1E6FF), (0x1E7E0, 0x1E7E6), (0x1E7E8, 0x1E7EB),
    (0x1E7ED, 0x1E7EE), (0x1E7F0, 0x1E7FE), (0x1F150, 0x1F169), (0x1F170, 0x1F18F),
    (0x1F191, 0x1F1AC), (0x1F1AE, 0x1F1AE), (0x1F1E6, 0x1F1FF), (0x1F7DA, 0x1F7DA),
    (0x20000, 0x2A6DF), (0x2A700, 0x2B81E), (0x2B820, 0x2CEAD), (0x2CEB0, 0x2EBE0),
    (0x2EBF0, 0x2EE5D), (0x30000, 0x3134A), (0x31350, 0x33479), (0x3D000, 0x3FC3F),
];

#[cfg(test)]
mod tests {
    use super::*;
    use icu_normalizer::properties::{
        CanonicalCombiningClassMapBorrowed, CanonicalCompositionBorrowed,
        CanonicalDecompositionBorrowed, Decomposed,
    };

    /// NFC_Quick_Check = Maybe, derived (UAX #15 §9, §3.1 of UAX #15's derivation of
    /// NFC_QC): the characters `b` such that some `x` decomposes canonically to the pair
    /// `(a, b)` and that pair composes back to `x` (a primary composite; Hangul included).
    fn nfc_qc_maybe() -> Vec<bool> {
        let dec = CanonicalDecompositionBorrowed::new();
        let comp = CanonicalCompositionBorrowed::new();
        let mut maybe = vec![false; 0x11_0000];
        for x in (0..=0x10FFFFu32).filter_map(char::from_u32) {
            if let Decomposed::Expansion(a, b) = dec.decompose(x) {
                if comp.compose(a, b) == Some(x) {
                    maybe[b as usize] = true;
                }
            }
        }
        maybe
    }

    /// FAST(c) from the crates' data, property by property (see the module documentation).
    /// NFC_Quick_Check = No needs no test of its own: such a character is not its own NFC, so
    /// the UTS #46 mapping with NFC (`map_normalize`) does not give it back.
    fn fast_naive(c: char, maybe: &[bool]) -> bool {
        let a = idna_adapter::Adapter::new();
        !c.is_ascii()
            && a.bidi_class(c).is_ltr()
            && !a.is_mark(c)
            && CanonicalCombiningClassMapBorrowed::new().get_u8(c) == 0
            && !maybe[c as usize]
            && a.map_normalize(std::iter::once(c)).eq(std::iter::once(c))
    }

    fn recomputed_ranges() -> Vec<(u32, u32)> {
        let maybe = nfc_qc_maybe();
        let mut ranges: Vec<(u32, u32)> = Vec::new();
        for c in (0..=0x10FFFFu32).filter_map(char::from_u32) {
            if fast_naive(c, &maybe) {
                let u = c as u32;
                match ranges.last_mut() {
                    Some(r) if r.1 + 1 == u => r.1 = u,
                    _ => ranges.push((u, u)),
                }
            }
        }
        ranges
    }

    fn format_table(ranges: &[(u32, u32)]) -> String {
        let mut s = String::new();
        for row in ranges.chunks(4) {
            s.push_str("   ");
            for (a, z) in row {
                s.push_str(&format!(" (0x{a:04X}, 0x{z:04X}),"));
            }
            s.push('\n');
        }
        s
    }

    #[test]
    fn fast_ranges_are_recomputed_from_the_crates() {
        let ranges = recomputed_ranges();
        if ranges != FAST_RANGES {
            panic!(
                "FAST_RANGES differs from the crates' data ({} ranges now, {} stored); \
                 the new table:\n{}",
                ranges.len(),
                FAST_RANGES.len(),
                format_table(&ranges)
            );
        }
        assert!(ranges.last().is_some_and(|r| r.1 < LIMIT));
        // The bitmap answers like the ranges on every code point.
        let mut next = FAST_RANGES.iter().peekable();
        for c in (0..=0x10FFFFu32).filter_map(char::from_u32) {
            let u = c as u32;
            while next.peek().is_some_and(|r| r.1 < u) {
                next.next();
            }
            let in_ranges = next.peek().is_some_and(|r| r.0 <= u);
            assert_eq!(is_fast(c), in_ranges, "U+{u:04X}");
        }
    }

    /// The labels of [`every_character_against_the_crate`] around `c`, in one host.
    fn host_around(c: char) -> String {
        format!("x.{c}.a{c}.{c}a.{c}{c}.1{c}.Q{c}-z.com")
    }

    /// For every code point: a host of labels holding it (alone, after and before ASCII,
    /// doubled, after a digit, with upper case and a hyphen) goes through the fast path
    /// exactly when the character is in FAST or is an ASCII letter or digit, and then
    /// both directions give what the crate gives; every other character declines, in Unicode
    /// form and in `xn--` form.
    #[test]
    fn every_character_against_the_crate() {
        let mut answered = 0usize;
        for c in (0..=0x10FFFFu32).filter_map(char::from_u32) {
            let host = host_around(c);
            let mut fast = String::from("keep");
            let answers = to_ascii(&host, &mut fast);
            if c == '-' {
                // "-" and "a-" break the hyphen rules: both refuse.
                assert!(!answers && to_ascii_naive(&host).is_none(), "{fast}");
                continue;
            }
            let plain = c.is_ascii_alphanumeric();
            if !(is_fast(c) || plain) {
                assert!(!answers, "U+{:04X}: answered {fast:?}", c as u32);
                assert_eq!(fast, "keep", "U+{:04X}", c as u32);
                // The same label in A-label form: ToUnicode declines too.
                let label = format!("a{c}");
                if let Some(p) = idna::punycode::encode_str(&label) {
                    let ace = format!("x.xn--{p}.com");
                    assert_eq!(to_unicode(&ace), None, "U+{:04X}", c as u32);
                }
                continue;
            }
            answered += 1;
            let naive = to_ascii_naive(&host);
            assert!(answers, "U+{:04X}: declined ({naive:?})", c as u32);
            assert_eq!(
                Some(&fast["keep".len()..]),
                naive.as_deref(),
                "U+{:04X}",
                c as u32
            );
            let ascii = naive.unwrap();
            assert_eq!(
                to_unicode(&ascii),
                Some(to_unicode_naive(&ascii).expect("crate ToUnicode")),
                "U+{:04X}: {ascii}",
                c as u32
            );
        }
        assert_eq!(
            answered,
            62 + FAST_RANGES
                .iter()
                .map(|r| (r.1 - r.0 + 1) as usize)
                .sum::<usize>()
        );
    }

    /// A character for the Punycode twin tests: ASCII (letters, digits, `-`), Latin-1, other
    /// BMP code points, supplementary planes up to U+10FFFF.
    fn puny_char() -> impl proptest::strategy::Strategy<Value = char> {
        use proptest::prelude::*;
        prop_oneof![
            4 => prop::sample::select(b"abz09-".to_vec()).prop_map(char::from),
            3 => (0x80u32..0x100).prop_filter_map("a char", char::from_u32),
            3 => (0x100u32..0x1_0000).prop_filter_map("a char", char::from_u32),
            1 => (0x1_0000u32..=0x10_FFFF).prop_filter_map("a char", char::from_u32),
        ]
    }

    proptest::proptest! {
        #![proptest_config(proptest::test_runner::Config::with_cases(5000))]

        /// The stack encoder writes what `idna::punycode::encode_str` writes, and declines
        /// exactly when that is longer than an A-label's Punycode part may be.
        #[test]
        fn punycode_encode_twin(chars in proptest::collection::vec(puny_char(), 0..=PUNY_MAX)) {
            let s: String = chars.iter().collect();
            let naive = idna::punycode::encode_str(&s).expect("no overflow at this length");
            let mut buf = [0u8; PUNY_MAX];
            match punycode_encode(&chars, &mut buf) {
                Some(len) => proptest::prop_assert_eq!(&buf[..len], naive.as_bytes()),
                None => proptest::prop_assert!(naive.len() > PUNY_MAX, "{}", naive),
            }
        }

        /// The stack decoder reads what `idna::punycode::decode_to_string` reads, on random
        /// digit strings and on encodings of random labels.
        #[test]
        fn punycode_decode_twin(
            digits in proptest::collection::vec(
                proptest::sample::select(b"abcdefghijklmnopqrstuvwxyz0123456789-".to_vec()),
                0..=PUNY_MAX,
            ),
            chars in proptest::collection::vec(puny_char(), 0..=20),
        ) {
            let encoded = idna::punycode::encode_str(&chars.iter().collect::<String>()).unwrap();
            for input in [&digits[..], encoded.as_bytes()] {
                if input.len() > PUNY_MAX {
                    continue;
                }
                let naive = idna::punycode::decode_to_string(std::str::from_utf8(input).unwrap());
                let mut buf = ['\0'; PUNY_MAX];
                let fast = punycode_decode(input, &mut buf, |_| true).map(|n| buf[..n].iter().collect::<String>());
                proptest::prop_assert_eq!(fast, naive, "{:?}", String::from_utf8_lossy(input));
            }
        }
    }
}
