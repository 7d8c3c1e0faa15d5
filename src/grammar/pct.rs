//! Percent-encoding kernels (RFC 3986 §2.1, RFC 3987 §3.1 step 2) and a strict UTF-8 decoder.

use crate::grammar::classes::HEX_UPPER;

/// `%HH` of every byte, uppercase hex (RFC 3987 §3.1 step 2.2: "SHOULD use uppercase").
static PCT: [[u8; 3]; 256] = {
    let mut t = [[0u8; 3]; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = [b'%', HEX_UPPER[i >> 4], HEX_UPPER[i & 15]];
        i += 1;
    }
    t
};

/// Appends `%HH` for `b`, with uppercase hex.
#[inline(always)]
pub fn push_pct(out: &mut Vec<u8>, b: u8) {
    out.extend_from_slice(&PCT[b as usize]);
}

/// Appends `%HH%HH` (one capacity check).
#[inline(always)]
pub fn push_pct2(out: &mut Vec<u8>, a: u8, b: u8) {
    let (a, b) = (PCT[a as usize], PCT[b as usize]);
    out.extend_from_slice(&[a[0], a[1], a[2], b[0], b[1], b[2]]);
}

/// Appends `%HH%HH%HH` (one capacity check).
#[inline(always)]
pub fn push_pct3(out: &mut Vec<u8>, a: u8, b: u8, c: u8) {
    let (a, b, c) = (PCT[a as usize], PCT[b as usize], PCT[c as usize]);
    out.extend_from_slice(&[a[0], a[1], a[2], b[0], b[1], b[2], c[0], c[1], c[2]]);
}

/// Appends `%HH` for every byte of `bytes`.
#[inline]
pub fn push_pct_all(out: &mut Vec<u8>, bytes: &[u8]) {
    for &b in bytes {
        push_pct(out, b);
    }
}

/// True if `s[i]` is `%` followed by two hex digits (`pct-encoded`, RFC 3986 §2.1).
#[inline(always)]
pub fn is_pct_triplet(s: &[u8], i: usize) -> bool {
    i + 2 < s.len() && s[i] == b'%' && s[i + 1].is_ascii_hexdigit() && s[i + 2].is_ascii_hexdigit()
}

/// `s` with the `%HH` triplets decoded that to-iri decodes (RFC 3987 §3.2 step 2: octets of
/// non-ASCII characters; RFC 3986 §2.3: unreserved ASCII), others (`%2F`, `%20`) kept, as
/// text: a byte sequence that is not UTF-8 becomes U+FFFD (`String::from_utf8_lossy`). For
/// judging how a component would be shown, not for output (to-iri keeps some non-ASCII
/// characters encoded too: the judgement may err towards decoded).
pub fn decode_shown_lossy(s: &[u8]) -> String {
    let mut v = Vec::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        let b = is_pct_triplet(s, i).then(|| {
            let hi = crate::grammar::classes::hex_value(s[i + 1]).unwrap_or(0);
            let lo = crate::grammar::classes::hex_value(s[i + 2]).unwrap_or(0);
            hi << 4 | lo
        });
        let unreserved =
            |b: u8| crate::grammar::classes::is(b, crate::grammar::classes::UNRESERVED);
        if let Some(b) = b.filter(|&b| b >= 0x80 || unreserved(b)) {
            v.push(b);
            i += 3;
        } else {
            v.push(s[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&v).into_owned()
}

/// Decodes one UTF-8 scalar at the start of `s` (`s` non-empty, `s[0] >= 0x80`), strictly as
/// RFC 3629 §4 defines it: no overlongs, no surrogates, nothing above U+10FFFF. Returns the
/// character and its length, or `None` if `s[0]` does not start a valid sequence.
#[inline]
pub fn decode_utf8(s: &[u8]) -> Option<(char, usize)> {
    let b0 = s[0];
    let (len, min, init) = match b0 {
        0xC2..=0xDF => (2, 0x80, (b0 & 0x1F) as u32),
        0xE0..=0xEF => (3, 0x800, (b0 & 0x0F) as u32),
        0xF0..=0xF4 => (4, 0x10000, (b0 & 0x07) as u32),
        _ => return None,
    };
    if s.len() < len {
        return None;
    }
    let mut cp = init;
    for &b in &s[1..len] {
        if b & 0xC0 != 0x80 {
            return None;
        }
        cp = (cp << 6) | (b & 0x3F) as u32;
    }
    if cp < min || (0xD800..=0xDFFF).contains(&cp) || cp > 0x10FFFF {
        return None;
    }
    char::from_u32(cp).map(|c| (c, len))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decoder_agrees_with_std_on_all_short_sequences() {
        // Exhaustive over 1- and 2-byte sequences, and every 3-byte sequence with a lead byte
        // of 0xE0..=0xEF and a sampled third byte; std's validator is the oracle.
        for b0 in 0x80..=0xFFu8 {
            for b1 in 0..=0xFFu8 {
                for b2 in [0x00u8, 0x7F, 0x80, 0x9F, 0xA0, 0xBF, 0xC0, 0xFF] {
                    for b3 in [0x80u8, 0xBF, 0x41] {
                        let s = [b0, b1, b2, b3];
                        let ours = decode_utf8(&s);
                        let std_len = (2..=4).find(|&l| std::str::from_utf8(&s[..l]).is_ok());
                        let std = std_len.map(|l| {
                            (
                                std::str::from_utf8(&s[..l])
                                    .unwrap()
                                    .chars()
                                    .next()
                                    .unwrap(),
                                l,
                            )
                        });
                        assert_eq!(ours, std, "{s:02X?}");
                    }
                }
            }
        }
    }

    #[test]
    fn pct_upper() {
        let mut v = Vec::new();
        push_pct_all(&mut v, "é".as_bytes());
        assert_eq!(v, b"%C3%A9");
        assert!(is_pct_triplet(b"%2f", 0));
        assert!(!is_pct_triplet(b"%2", 0));
        assert!(!is_pct_triplet(b"%zz", 0));
        // Three hex digits are no triplet: `s[i]` must be `%` (the QA sweep found `caf` in a
        // file path read as the octet 0xAF).
        assert!(!is_pct_triplet(b"caf", 0));
        assert!(!is_pct_triplet(b"x%41", 0));
        assert!(is_pct_triplet(b"x%41", 1));
    }
}
