//! Line-level helpers of the engine: the flagged byte sets that send a line to the exact
//! converter, the ACE-host pre-filter of to-iri, and field selection (`--field`).

use crate::convert::integrity;
use crate::grammar::validate::{crawl_head, no_colon_or_bar_from, scheme_end};
use crate::simd::delims::eq_masks16;
use crate::simd::ByteSet;
use std::ops::Range;

/// The bytes that send a line to the converter in leiri-to-iri mode: C0 controls and DEL,
/// non-ASCII, and the printable ASCII of 3987bis §6.3 (space `" < > \ ^ ` { | }`). Every mode
/// that writes URIs flags these too.
pub const LEIRI_FLAGGED: ByteSet = ByteSet::EMPTY
    .with_range(0x00, 0x1F)
    .with_range(0x7F, 0xFF)
    .with(b' ')
    .with(b'"')
    .with(b'<')
    .with(b'>')
    .with(b'\\')
    .with(b'^')
    .with(b'`')
    .with(b'{')
    .with(b'|')
    .with(b'}');

/// The bytes that send a line to the exact converter in to-uri mode: C0 controls and DEL
/// (RFC 3987 §2.2), every byte ≥ 0x80 (non-ASCII), printable ASCII not allowed in URIs
/// (RFC 3987 §3.1) — that is [`LEIRI_FLAGGED`] — and the delimiters whose placement must be
/// checked to keep the output a valid URI-reference (contract item 4): `%` (must start `%HH`),
/// `#` (only one), `[` `]` (only around an IP literal), `@` (only one in the authority).
pub const TO_URI_FLAGGED: ByteSet = LEIRI_FLAGGED
    .with(b'%')
    .with(b'#')
    .with(b'[')
    .with(b']')
    .with(b'@');

/// The bytes that send a line to the exact converter in to-iri mode: `%` (a percent-encoding
/// to decode), C0 controls and DEL (errors), and non-ASCII (must be UTF-8; C1 controls are
/// errors), and `\` (a `\` in the authority of a special scheme is the error
/// `backslash-authority`). Lines with an `xn--` host label are found by [`has_ace_host`].
pub const TO_IRI_FLAGGED: ByteSet = ByteSet::EMPTY
    .with_range(0x00, 0x1F)
    .with_range(0x7F, 0xFF)
    .with(b'%')
    .with(b'\\');

/// `quick_ok(line) && !has_ace_host(line)`, the engine's question for a line without a
/// to-iri flagged byte (`Op::is_clean`): the same answer, for less. [`iri_quick`] answers the
/// common shapes of crawls in one pass of 16-byte compares; it is true only where the two
/// are, and every other line asks them. The test
/// `iri_quick_implies_the_predicates_and_accepts_the_common_shapes` holds it to them on every
/// input.
#[inline]
pub fn is_clean_to_iri(line: &[u8]) -> bool {
    iri_quick(line) || (integrity::quick_ok(line) && !has_ace_host(line))
}

/// The one-pass shortcut of [`is_clean_to_iri`]: true only for a line of the shape of
/// [`crawl_head`] whose authority (up to the first `/ ? #`, RFC 3986 §3.2) holds no `--` (so
/// no ACE prefix `xn--`, RFC 3490 §5: [`has_ace_host`] is false) and no `@` (userinfo,
/// §3.2.1: `quick_ok` looks closer at such a host), and
///
/// * for `https://` and `http://`, is not empty and does not start with `:` (a host, RFC 9110
///   §4.2.1: `quick_ok`'s `missing_host` rule);
/// * for `file://`, with no `:` or `|` after the scheme ([`no_colon_or_bar_from`]).
#[inline(always)]
fn iri_quick(line: &[u8]) -> bool {
    let Some((a0, file)) = crawl_head(line) else {
        return false;
    };
    let n = line.len();
    if !file && matches!(line[a0], b'/' | b'?' | b'#' | b':') {
        return false; // an empty host, or one that starts with a port
    }
    let mut i = a0;
    // The byte before the block was a `-` (a `--` across two blocks).
    let mut dash_carry = 0u32;
    loop {
        let at = i.min(n - 16);
        let block: &[u8; 16] = line[at..at + 16].try_into().expect("16 bytes");
        let [slash, question, hash, at_sign, dash] =
            eq_masks16(block, [b'/', b'?', b'#', b'@', b'-']);
        // Bits below `i - at` are bytes the block before has seen (or the scheme's `//`).
        let fresh = !0u32 << (i - at);
        let term = (slash | question | hash) & fresh;
        let before_term = (term & term.wrapping_neg()).wrapping_sub(1);
        // `-` pairs: the block's bits below `fresh` are the scheme's `//` or authority bytes
        // seen before, so a pair across `i` is inside the block; the carry (byte `i - 1`)
        // counts only for a block that starts at `i`.
        let d = dash & before_term;
        if at_sign & fresh & before_term != 0 || d & ((d << 1) | (dash_carry & fresh)) != 0 {
            return false;
        }
        if term != 0 || at + 16 >= n {
            break; // the authority ends here, or runs to the end of the line
        }
        dash_carry = d >> 15;
        i = at + 16;
    }
    !file || no_colon_or_bar_from(line, a0)
}

/// Panics unless the engine's one-pass clean-line shortcuts give their twins' answers on
/// `line`: to-uri's [`is_clean_unflagged`](crate::convert::to_uri::is_clean_unflagged),
/// [`is_clean_to_iri`] and to-uri's
/// [`is_valid_flagged`](crate::convert::to_uri::is_valid_flagged) against `quick_ok &&
/// is_plain`, `quick_ok && !has_ace_host` and `is_ascii && is_valid_ascii_uri && quick_ok`. For the
/// fuzz target `simd_twin` and the tests; not part of the API.
#[cfg(any(test, feature = "twins"))]
#[doc(hidden)]
pub fn clean_line_twin_check(line: &[u8]) {
    let ok = integrity::quick_ok(line);
    assert_eq!(
        crate::convert::to_uri::is_clean_unflagged(line),
        ok && crate::grammar::validate::is_plain(line),
        "to-uri clean line {line:02X?}"
    );
    assert_eq!(
        is_clean_to_iri(line),
        ok && !has_ace_host(line),
        "to-iri clean line {line:02X?}"
    );
    assert_eq!(
        crate::convert::to_uri::is_valid_flagged(line),
        line.is_ascii() && crate::grammar::validate::is_valid_ascii_uri(line) && ok,
        "to-uri flagged line {line:02X?}"
    );
}

/// True if the host of `line` may hold an `xn--` label (ASCII case-insensitive), which
/// to-iri decodes. `false` is exact; `true` may be a false alarm (e.g. in the userinfo).
/// Not inlined: it is the rare fallback of to-iri's clean-line test, which the engine's
/// clean-line loop inlines with every mode's (inlined, it cost to-uri 2.5 % more
/// instructions on real data).
#[inline(never)]
pub fn has_ace_host(line: &[u8]) -> bool {
    // An invalid scheme is still a scheme to the splitter (RFC 3986 Appendix B), and to-iri
    // does not reject it: let the converter decide.
    let Some(rest) = scheme_end(line) else {
        return true;
    };
    if line.get(rest..rest + 2) != Some(b"//") {
        return false;
    }
    let a = &line[rest + 2..];
    let end = a
        .iter()
        .position(|&b| matches!(b, b'/' | b'?' | b'#'))
        .unwrap_or(a.len());
    crate::host::contains_ace_prefix(&a[..end])
}

/// The byte range of field `k` (0-based) of `line`, fields separated by `delim`.
pub fn field_range(line: &[u8], k: usize, delim: u8) -> Option<Range<usize>> {
    let mut start = 0;
    for _ in 0..k {
        start += memchr::memchr(delim, &line[start..])? + 1;
    }
    let end = memchr::memchr(delim, &line[start..]).map_or(line.len(), |p| start + p);
    Some(start..end)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lines [`iri_quick`] answers itself, by its definition (see its doc).
    fn quick_shape(line: &[u8]) -> bool {
        let Some((file, rest, auth)) = crate::grammar::validate::crawl_parts(line) else {
            return false;
        };
        let plain = !auth.contains(&b'@') && !auth.windows(2).any(|w| w == b"--");
        if file {
            plain && !rest.iter().any(|&b| b == b':' || b == b'|')
        } else {
            plain && !auth.is_empty() && auth[0] != b':'
        }
    }

    /// `iri_quick` against `quick_ok && !has_ace_host` (its twin): never true where they are
    /// false, on any bytes; the same answer as its definition (`quick_shape`) everywhere; and
    /// `is_clean_to_iri` equal to the twin, on the lines of
    /// `grammar::validate::shortcut_test_lines` (made, random, every data-set line).
    #[test]
    fn iri_quick_implies_the_predicates_and_accepts_the_common_shapes() {
        crate::grammar::validate::assert_shortcut(
            iri_quick,
            |line| integrity::quick_ok(line) && !has_ace_host(line),
            quick_shape,
            is_clean_to_iri,
        );
        // An ACE label after a `-` pair across a block boundary is found (the carry).
        for k in 0..40 {
            let mut line = b"https://".to_vec();
            line.extend(std::iter::repeat_n(b'a', k));
            line.extend(b"xn--bcher-kva.de/path/and/more");
            assert!(!iri_quick(&line), "{}", String::from_utf8_lossy(&line));
        }
    }
}
