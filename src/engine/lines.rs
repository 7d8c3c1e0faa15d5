//! Line-level helpers of the engine: the flagged byte sets that send a line to the exact
//! converter, the ACE-host pre-filter of to-iri, and field selection (`--field`).

use crate::grammar::validate::scheme_end;
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

/// True if the host of `line` may hold an `xn--` label (ASCII case-insensitive), which
/// to-iri decodes. `false` is exact; `true` may be a false alarm (e.g. in the userinfo).
#[inline]
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
