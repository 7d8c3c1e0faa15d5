//! Compile-time tables of character classes (RFC 3986 §2, RFC 3987 §2.2).
//!
//! One 256-entry table of bit flags; each flag names the grammar rule it stands for.

/// `unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~"` (RFC 3986 §2.3).
pub const UNRESERVED: u8 = 1 << 0;
/// `sub-delims = "!" / "$" / "&" / "'" / "(" / ")" / "*" / "+" / "," / ";" / "="` (RFC 3986 §2.2).
pub const SUB_DELIMS: u8 = 1 << 1;
/// `gen-delims = ":" / "/" / "?" / "#" / "[" / "]" / "@"` (RFC 3986 §2.2).
pub const GEN_DELIMS: u8 = 1 << 2;
/// Characters after the first in `scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`
/// (RFC 3986 §3.1).
pub const SCHEME: u8 = 1 << 3;
/// Printable ASCII not allowed in URIs: space `" < > \ ^ ` { | }` (RFC 3987 §3.1, the list
/// that "MAY" be percent-encoded; also 3987bis §6.3).
pub const DISALLOWED_ASCII: u8 = 1 << 4;
/// C0 controls and DEL, `%x00-1F / %x7F` (RFC 3987 §2.2 allows none; 3987bis §6.1 LEIRI does).
pub const CONTROL: u8 = 1 << 5;
/// `HEXDIG` (RFC 5234 B.1, case-insensitive per RFC 3986 §2.1).
pub const HEXDIG: u8 = 1 << 6;
/// `%`: starts `pct-encoded` (RFC 3986 §2.1).
pub const PERCENT: u8 = 1 << 7;

/// Bytes that every component after the authority's host may hold as they are:
/// `unreserved / sub-delims / ":" / "@" / "/" / "?"` (RFC 3986 `pchar`, `query`, `fragment`;
/// `userinfo` and `reg-name` cannot contain the delimiters the splitter cut them at). This is
/// a separate table so that the hot loop tests one bit.
pub static PLAIN_TABLE: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 256 {
        let b = i as u8;
        t[i] = TABLE_CONST[i] & (UNRESERVED | SUB_DELIMS) != 0
            || matches!(b, b':' | b'@' | b'/' | b'?');
        i += 1;
    }
    t
};

const fn build() -> [u8; 256] {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        let b = i as u8;
        let mut f = 0u8;
        if b.is_ascii_alphanumeric() || b == b'-' || b == b'.' || b == b'_' || b == b'~' {
            f |= UNRESERVED;
        }
        if matches!(
            b,
            b'!' | b'$' | b'&' | b'\'' | b'(' | b')' | b'*' | b'+' | b',' | b';' | b'='
        ) {
            f |= SUB_DELIMS;
        }
        if matches!(b, b':' | b'/' | b'?' | b'#' | b'[' | b']' | b'@') {
            f |= GEN_DELIMS;
        }
        if b.is_ascii_alphanumeric() || b == b'+' || b == b'-' || b == b'.' {
            f |= SCHEME;
        }
        if matches!(
            b,
            b' ' | b'"' | b'<' | b'>' | b'\\' | b'^' | b'`' | b'{' | b'|' | b'}'
        ) {
            f |= DISALLOWED_ASCII;
        }
        if b < 0x20 || b == 0x7f {
            f |= CONTROL;
        }
        if b.is_ascii_hexdigit() {
            f |= HEXDIG;
        }
        if b == b'%' {
            f |= PERCENT;
        }
        t[i] = f;
        i += 1;
    }
    t
}

/// The class table: `TABLE[b]` holds the flags of byte `b` (0 for bytes ≥ 0x80).
pub static TABLE: [u8; 256] = build();
const TABLE_CONST: [u8; 256] = build();

/// True if `b` has any of the flags in `mask`.
#[inline(always)]
pub fn is(b: u8, mask: u8) -> bool {
    TABLE[b as usize] & mask != 0
}

/// Length of the longest prefix of `s` made of [`PLAIN_TABLE`] bytes: eight table lookups
/// combined without branches per step, then one at a time.
#[inline(always)]
pub fn plain_prefix_len(s: &[u8]) -> usize {
    let t = &PLAIN_TABLE;
    let mut i = 0;
    while let Some(c) = s.get(i..i + 8) {
        let all = t[c[0] as usize]
            & t[c[1] as usize]
            & t[c[2] as usize]
            & t[c[3] as usize]
            & t[c[4] as usize]
            & t[c[5] as usize]
            & t[c[6] as usize]
            & t[c[7] as usize];
        if !all {
            break;
        }
        i += 8;
    }
    while i < s.len() && t[s[i] as usize] {
        i += 1;
    }
    i
}

/// True for ASCII allowed as-is somewhere in a URI-reference (unreserved, reserved, `%`).
#[inline(always)]
pub fn is_uri_char(b: u8) -> bool {
    is(b, UNRESERVED | SUB_DELIMS | GEN_DELIMS | PERCENT)
}

/// Uppercase hex digits used for `%HH` (RFC 3987 §3.1 step 2.2: "SHOULD use uppercase").
pub const HEX_UPPER: &[u8; 16] = b"0123456789ABCDEF";

/// Value of a hex digit, if it is one.
#[inline(always)]
pub fn hex_value(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

/// Bidi formatting characters that an IRI must not contain (RFC 3987 §4.1: LRM, RLM, LRE,
/// RLE, PDF, LRO, RLO; and those added in Unicode 6.3: the isolates LRI, RLI, FSI, PDI and
/// U+061C ARABIC LETTER MARK, which acts like RLM for Arabic text).
#[inline]
pub const fn is_bidi_format(c: char) -> bool {
    matches!(
        c,
        '\u{61C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}'
    )
}

/// U+FFFE and U+FFFF, which even LEIRIs do not allow (3987bis §6.3, last paragraph: "not
/// allowed in XML nor LEIRIs"): LEIRI input keeps their `not-ucschar` warning (to-uri with
/// `--leiri`, leiri-to-iri, and the SIMD encoder's LEIRI stop set).
#[inline]
pub const fn not_even_in_leiris(c: char) -> bool {
    matches!(c, '\u{FFFE}' | '\u{FFFF}')
}

/// `iprivate = %xE000-F8FF / %xF0000-FFFFD / %x100000-10FFFD` (RFC 3987 §2.2).
#[inline]
pub const fn is_iprivate(c: char) -> bool {
    matches!(c, '\u{E000}'..='\u{F8FF}' | '\u{F0000}'..='\u{FFFFD}' | '\u{100000}'..='\u{10FFFD}')
}

/// `ucschar` of RFC 3987 §2.2: `%xA0-D7FF / %xF900-FDCF / %xFDF0-FFEF / %x10000-1FFFD / ...
/// / %xD0000-DFFFD / %xE1000-EFFFD`: every plane's last two code points, the noncharacters
/// U+FDD0–FDEF, the specials U+FFF0–FFFF, the tags U+E0000–E0FFF and private use are excluded.
#[inline]
pub const fn is_ucschar(c: char) -> bool {
    let u = c as u32;
    match u {
        0xA0..=0xD7FF | 0xF900..=0xFDCF | 0xFDF0..=0xFFEF => true,
        0x10000..=0xDFFFF => (u & 0xFFFF) <= 0xFFFD,
        0xE1000..=0xEFFFD => true,
        _ => false,
    }
}

/// The warning a non-ASCII character written as it is in an IRI gets (C1 controls aside, which
/// are errors): a bidi formatting character (RFC 3987 §4.1), private use outside the query and
/// any other character that is not `ucschar` (§2.2); `None` for a `ucschar` and for private
/// use in the query (`in_query`, `iprivate`). to-uri warns of them as it encodes them, to-iri
/// as it encodes those that came raw.
#[inline]
pub fn raw_char_warning(c: char, in_query: bool) -> Option<crate::error::ErrorKind> {
    use crate::error::ErrorKind;
    if is_bidi_format(c) {
        Some(ErrorKind::BidiFormat)
    } else if is_ucschar(c) {
        None
    } else if is_iprivate(c) {
        (!in_query).then_some(ErrorKind::PrivateUse)
    } else {
        Some(ErrorKind::NotUcschar)
    }
}

/// C1 controls U+0080–U+009F (RFC 3987 §2.2 allows none; 3987bis §6.3).
#[inline]
pub const fn is_c1(c: char) -> bool {
    matches!(c, '\u{80}'..='\u{9F}')
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `simd::delims::non_uri_mask16_naive` flags exactly the bytes that are no URI character,
    /// at every position, and `path_masks16` (both levels) those and the brackets.
    #[test]
    fn non_uri_mask_is_the_complement_of_uri_chars() {
        use crate::simd::delims::{non_uri_mask16_naive, path_masks16, path_masks16_naive};
        for pos in 0..16 {
            for x in 0..=255u8 {
                let mut b = [b'a'; 16];
                b[pos] = x;
                let want = if is_uri_char(x) { 0 } else { 1 << pos };
                assert_eq!(non_uri_mask16_naive(&b), want, "{x:#04X} at {pos}");
                let bracket = if x == b'[' || x == b']' { 1 << pos } else { 0 };
                assert_eq!(path_masks16(&b).0, want | bracket, "{x:#04X} at {pos}");
                assert_eq!(
                    path_masks16_naive(&b).0,
                    want | bracket,
                    "{x:#04X} at {pos}"
                );
            }
        }
    }

    #[test]
    fn table_matches_rfc_lists() {
        let unreserved: Vec<u8> = (0..=255u8).filter(|&b| is(b, UNRESERVED)).collect();
        assert_eq!(unreserved.len(), 26 * 2 + 10 + 4);
        let sub: Vec<u8> = (0..=255u8).filter(|&b| is(b, SUB_DELIMS)).collect();
        assert_eq!(sub, b"!$&'()*+,;=");
        let gen: Vec<u8> = (0..=255u8).filter(|&b| is(b, GEN_DELIMS)).collect();
        assert_eq!(gen, b"#/:?@[]");
        let dis: Vec<u8> = (0..=255u8).filter(|&b| is(b, DISALLOWED_ASCII)).collect();
        assert_eq!(dis, b" \"<>\\^`{|}");
        // Every printable ASCII byte is exactly one of: URI char, disallowed.
        for b in 0x20..0x7fu8 {
            assert!(is_uri_char(b) ^ is(b, DISALLOWED_ASCII), "byte {b:#x}");
        }
        for b in 0x80..=0xffu8 {
            assert_eq!(TABLE[b as usize], 0);
        }
    }

    #[test]
    fn ucschar_edges() {
        assert!(!is_ucschar('\u{9F}'));
        assert!(is_ucschar('\u{A0}'));
        assert!(is_ucschar('\u{D7FF}'));
        assert!(!is_ucschar('\u{E000}'));
        assert!(!is_ucschar('\u{FDD0}'));
        assert!(is_ucschar('\u{FDF0}'));
        assert!(!is_ucschar('\u{FFF0}'));
        assert!(!is_ucschar('\u{FFFE}'));
        assert!(is_ucschar('\u{1FFFD}'));
        assert!(!is_ucschar('\u{1FFFE}'));
        assert!(!is_ucschar('\u{E0001}'));
        assert!(is_ucschar('\u{E1000}'));
        assert!(!is_ucschar('\u{EFFFE}'));
        assert!(is_iprivate('\u{F0000}'));
        assert!(!is_iprivate('\u{FFFFE}'));
    }
}
