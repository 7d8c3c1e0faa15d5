//! Delimiter masks of 16 bytes: where `/`, `?`, `#` (the ends of an authority, RFC 3986 §3.2)
//! and `:` (the end of a scheme, RFC 3986 §3.1, or the start of a port, §3.2.3) are.
//!
//! [`delims16`] is the kernel the ASCII-URI predicates of `grammar::validate` use: SSE2 where
//! the target has it (the x86_64 baseline), else `delims16_naive`, its obviously-correct twin.

/// Bit masks (bit i = byte i) of `/ ? #` and of `:` in the 16 bytes of `b`.
#[inline(always)]
pub fn delims16(b: &[u8; 16]) -> (u32, u32) {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        sse2(b)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    {
        delims16_naive(b)
    }
}

/// The twin of [`delims16`]: one byte at a time (also its body where SSE2 is missing).
#[cfg_attr(
    all(target_arch = "x86_64", target_feature = "sse2", not(test)),
    allow(dead_code)
)]
pub(crate) fn delims16_naive(b: &[u8; 16]) -> (u32, u32) {
    let (mut t, mut c) = (0u32, 0u32);
    for (i, &x) in b.iter().enumerate() {
        if matches!(x, b'/' | b'?' | b'#') {
            t |= 1 << i;
        }
        if x == b':' {
            c |= 1 << i;
        }
    }
    (t, c)
}

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(always)]
fn sse2(b: &[u8; 16]) -> (u32, u32) {
    let [slash, quest, hash, colon] = eq_masks16(b, [b'/', b'?', b'#', b':']);
    (slash | quest | hash, colon)
}

/// For each byte of `set`, the mask (bit i = byte i of `b`) of the bytes equal to it: the one
/// 16-byte compare kernel of the per-line shortcuts (this module's [`delims16`], `check`'s head
/// masks in `grammar::validate`, `normalize`'s one-pass predicate), SSE2 where the target has
/// it (the x86_64 baseline), else [`eq_masks16_naive`], its twin.
#[inline(always)]
pub fn eq_masks16<const N: usize>(b: &[u8; 16], set: [u8; N]) -> [u32; N] {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        use std::arch::x86_64::*;
        // SAFETY: SSE2 is enabled at compile time (the cfg above; it is part of the x86_64
        // baseline), which is all these intrinsics require. `b` is exactly 16 bytes, so the
        // unaligned 16-byte load stays inside it; `_mm_loadu_si128` needs no alignment.
        unsafe {
            let v = _mm_loadu_si128(b.as_ptr().cast::<__m128i>());
            set.map(|c| _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(c as i8))) as u16 as u32)
        }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    {
        eq_masks16_naive(b, set)
    }
}

/// The mask (bit i = byte i of `b`) of the bytes ≥ 0x80 (non-ASCII): SSE2's `pmovmskb` where
/// the target has it, else [`high_mask16_naive`], its twin.
#[inline(always)]
pub fn high_mask16(b: &[u8; 16]) -> u32 {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        use std::arch::x86_64::*;
        // SAFETY: as in `eq_masks16`: SSE2 is enabled at compile time and the unaligned load
        // reads exactly the 16 bytes of `b`.
        unsafe { _mm_movemask_epi8(_mm_loadu_si128(b.as_ptr().cast::<__m128i>())) as u16 as u32 }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    {
        high_mask16_naive(b)
    }
}

/// The twin of [`high_mask16`]: one byte at a time.
#[cfg_attr(
    all(target_arch = "x86_64", target_feature = "sse2", not(test)),
    allow(dead_code)
)]
pub fn high_mask16_naive(b: &[u8; 16]) -> u32 {
    b.iter()
        .enumerate()
        .fold(0, |m, (i, &x)| m | u32::from(x >> 7) << i)
}

/// The twin of [`eq_masks16`]: one byte at a time (also its body where SSE2 is missing).
#[cfg_attr(
    all(target_arch = "x86_64", target_feature = "sse2", not(test)),
    allow(dead_code)
)]
pub fn eq_masks16_naive<const N: usize>(b: &[u8; 16], set: [u8; N]) -> [u32; N] {
    set.map(|c| {
        b.iter()
            .enumerate()
            .filter(|&(_, &x)| x == c)
            .fold(0, |m, (i, _)| m | 1 << i)
    })
}

/// The mask (bit i = byte i of `b`) of the ASCII capital letters, SSE2 where the target has it,
/// else [`upper_mask16_naive`], its twin.
#[inline(always)]
pub fn upper_mask16(b: &[u8; 16]) -> u32 {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        use std::arch::x86_64::*;
        // SAFETY: as in `eq_masks16`: SSE2 is enabled at compile time and the unaligned load
        // reads exactly the 16 bytes of `b`.
        unsafe {
            let v = _mm_loadu_si128(b.as_ptr().cast::<__m128i>());
            // Signed compares: bytes at or above 0x80 are negative, never capitals.
            let upper = _mm_and_si128(
                _mm_cmpgt_epi8(v, _mm_set1_epi8((b'A' - 1) as i8)),
                _mm_cmplt_epi8(v, _mm_set1_epi8((b'Z' + 1) as i8)),
            );
            _mm_movemask_epi8(upper) as u16 as u32
        }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    {
        upper_mask16_naive(b)
    }
}

/// The twin of [`upper_mask16`].
#[cfg_attr(
    all(target_arch = "x86_64", target_feature = "sse2", not(test)),
    allow(dead_code)
)]
pub fn upper_mask16_naive(b: &[u8; 16]) -> u32 {
    b.iter()
        .enumerate()
        .filter(|(_, x)| x.is_ascii_uppercase())
        .fold(0, |m, (i, _)| m | 1 << i)
}

/// The mask (bit i = byte i of `b`) of the bytes that are not allowed as they are anywhere in
/// a URI reference: outside `0x21..=0x7E`, or one of `" < > \\ ^ ` { | }` (RFC 3986 §2: the
/// complement of unreserved, reserved and `%`), one byte at a time: part of
/// [`path_masks16_naive`]. `grammar::classes`'s test
/// `non_uri_mask_is_the_complement_of_uri_chars` holds it to `is_uri_char`.
#[cfg_attr(
    all(target_arch = "x86_64", target_feature = "sse2", not(test)),
    allow(dead_code)
)]
pub fn non_uri_mask16_naive(b: &[u8; 16]) -> u32 {
    b.iter()
        .enumerate()
        .filter(|(_, &x)| !(0x21..=0x7E).contains(&x) || b"\"<>\\^`{|}".contains(&x))
        .fold(0, |m, (i, _)| m | 1 << i)
}

/// The masks (bit i = byte i of `b`) of the bytes of an ASCII DNS name (RFC 1123 §2.1):
/// `(alnum, hyphen, dot)`, the letters and digits, `-` and `.`. SSE2 where the target has it
/// (ranges by unsigned `min`), else [`dns_masks16_naive`], its twin. For `check`'s
/// `is_dns_name`, whose table automaton read one byte per dependent load (issue 11).
#[inline(always)]
pub fn dns_masks16(b: &[u8; 16]) -> (u32, u32, u32) {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        use std::arch::x86_64::*;
        // SAFETY: as in `eq_masks16`: SSE2 is enabled at compile time and the unaligned load
        // reads exactly the 16 bytes of `b`.
        unsafe {
            let v = _mm_loadu_si128(b.as_ptr().cast::<__m128i>());
            // Unsigned `x <= k` is `min(x, k) == x`.
            let within =
                |x: __m128i, k: u8| _mm_cmpeq_epi8(_mm_min_epu8(x, _mm_set1_epi8(k as i8)), x);
            let digit = within(_mm_sub_epi8(v, _mm_set1_epi8(b'0' as i8)), 9);
            // `| 0x20` maps the capitals onto the small letters and no other byte onto them.
            let lower = _mm_or_si128(v, _mm_set1_epi8(0x20));
            let letter = within(_mm_sub_epi8(lower, _mm_set1_epi8(b'a' as i8)), 25);
            let mask = |x: __m128i| _mm_movemask_epi8(x) as u16 as u32;
            (
                mask(_mm_or_si128(digit, letter)),
                mask(_mm_cmpeq_epi8(v, _mm_set1_epi8(b'-' as i8))),
                mask(_mm_cmpeq_epi8(v, _mm_set1_epi8(b'.' as i8))),
            )
        }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    {
        dns_masks16_naive(b)
    }
}

/// The twin of [`dns_masks16`]: one byte at a time.
#[cfg_attr(
    all(target_arch = "x86_64", target_feature = "sse2", not(test)),
    allow(dead_code)
)]
pub fn dns_masks16_naive(b: &[u8; 16]) -> (u32, u32, u32) {
    let of = |f: &dyn Fn(u8) -> bool| {
        b.iter()
            .enumerate()
            .filter(|&(_, &x)| f(x))
            .fold(0, |m, (i, _)| m | 1 << i)
    };
    (
        of(&|x| x.is_ascii_alphanumeric()),
        of(&|x| x == b'-'),
        of(&|x| x == b'.'),
    )
}

/// The masks (bit i = byte i of `b`) that to-uri's flagged-line shortcut reads past the
/// authority, in one pass: `(bad, percent, hash)`, where `bad` holds the bytes of
/// [`non_uri_mask16_naive`] and `[` `]` (allowed only around an IP literal, RFC 3986 §3.2.2).
/// SSE2 where the target has it (ranges by signed compares, 9 compares in all), else
/// [`path_masks16_naive`], its twin.
#[inline(always)]
pub fn path_masks16(b: &[u8; 16]) -> (u32, u32, u32) {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        use std::arch::x86_64::*;
        // SAFETY: as in `eq_masks16`: SSE2 is enabled at compile time and the unaligned load
        // reads exactly the 16 bytes of `b`.
        unsafe {
            let v = _mm_loadu_si128(b.as_ptr().cast::<__m128i>());
            let eq = |c: u8| _mm_cmpeq_epi8(v, _mm_set1_epi8(c as i8));
            // Below 0x21, or at or above 0x80 (negative as signed bytes).
            let low = _mm_cmplt_epi8(v, _mm_set1_epi8(0x21));
            // 0x7B..=0x7F: `{ | } ~` DEL minus `~`, which is unreserved.
            let high = _mm_andnot_si128(eq(b'~'), _mm_cmpgt_epi8(v, _mm_set1_epi8(0x7A)));
            // 0x5B..=0x5E: `[ \ ] ^`.
            let d = _mm_sub_epi8(v, _mm_set1_epi8(0x5B));
            let mid = _mm_cmpeq_epi8(_mm_min_epu8(d, _mm_set1_epi8(3)), d);
            let single = _mm_or_si128(
                _mm_or_si128(eq(b'"'), eq(b'<')),
                _mm_or_si128(eq(b'>'), eq(b'`')),
            );
            let bad = _mm_or_si128(_mm_or_si128(low, high), _mm_or_si128(mid, single));
            let mask = |x: __m128i| _mm_movemask_epi8(x) as u16 as u32;
            (mask(bad), mask(eq(b'%')), mask(eq(b'#')))
        }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    {
        path_masks16_naive(b)
    }
}

/// The twin of [`path_masks16`]: one byte at a time.
#[cfg_attr(
    all(target_arch = "x86_64", target_feature = "sse2", not(test)),
    allow(dead_code)
)]
pub fn path_masks16_naive(b: &[u8; 16]) -> (u32, u32, u32) {
    let bad = non_uri_mask16_naive(b)
        | eq_masks16_naive(b, [b'[', b']'])
            .iter()
            .fold(0, |m, x| m | x);
    let [pct, hash] = eq_masks16_naive(b, [b'%', b'#']);
    (bad, pct, hash)
}

/// Bit masks (bit i = byte i) of the delimiters that split a reference (RFC 3986 Appendix B)
/// in a 64-byte block.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Delims64 {
    /// `/` bytes.
    pub slash: u64,
    /// `?` bytes.
    pub query: u64,
    /// `#` bytes.
    pub hash: u64,
    /// `:` bytes.
    pub colon: u64,
}

/// The [`Delims64`] of a 64-byte block: four [`delims16`]-style SSE2 compares per 16 bytes
/// where the target has SSE2, else `delims64_naive` (its scalar twin).
#[inline(always)]
pub fn delims64(b: &[u8; 64]) -> Delims64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        use std::arch::x86_64::*;
        let mut d = Delims64::default();
        for k in 0..4 {
            // SAFETY: SSE2 is enabled at compile time (the cfg above), which is all these
            // intrinsics require. `16 * k + 16 <= 64`, so the unaligned 16-byte load stays
            // inside `b`; `_mm_loadu_si128` needs no alignment.
            let (sl, qu, ha, co) = unsafe {
                let v = _mm_loadu_si128(b.as_ptr().add(16 * k).cast::<__m128i>());
                let m = |c: u8| _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(c as i8)));
                (m(b'/'), m(b'?'), m(b'#'), m(b':'))
            };
            let at = |m: i32| u64::from(m as u16) << (16 * k);
            d.slash |= at(sl);
            d.query |= at(qu);
            d.hash |= at(ha);
            d.colon |= at(co);
        }
        d
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    {
        delims64_naive(b)
    }
}

/// The twin of [`delims64`]: one byte at a time (also its body where SSE2 is missing).
#[cfg_attr(
    all(target_arch = "x86_64", target_feature = "sse2", not(test)),
    allow(dead_code)
)]
pub(crate) fn delims64_naive(b: &[u8; 64]) -> Delims64 {
    let mut d = Delims64::default();
    for (i, &x) in b.iter().enumerate() {
        let bit = 1u64 << i;
        match x {
            b'/' => d.slash |= bit,
            b'?' => d.query |= bit,
            b'#' => d.hash |= bit,
            b':' => d.colon |= bit,
            _ => {}
        }
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every byte value at every position, over three fills, for several sets.
    #[test]
    fn eq_and_upper_masks_match_twins_at_every_position() {
        for fill in [b'a', b'Z', 0xC3] {
            for pos in 0..16 {
                for x in 0..=255u8 {
                    let mut b = [fill; 16];
                    b[pos] = x;
                    let set = [b'/', b'?', x, b':', b'|', b'.', b'-', fill];
                    assert_eq!(eq_masks16(&b, set), eq_masks16_naive(&b, set), "{b:?}");
                    assert_eq!(upper_mask16(&b), upper_mask16_naive(&b), "{b:?}");
                    assert_eq!(path_masks16(&b), path_masks16_naive(&b), "{b:?}");
                    assert_eq!(high_mask16(&b), high_mask16_naive(&b), "{b:?}");
                    assert_eq!(dns_masks16(&b), dns_masks16_naive(&b), "{b:?}");
                    assert_ne!(eq_masks16(&b, [x])[0] & 1 << pos, 0);
                }
            }
        }
    }

    #[test]
    fn kernel_matches_twin() {
        // Every position of every delimiter, plus bytes around them and high bytes.
        let alphabet = [b'/', b'?', b'#', b':', b'a', b'.', 0x00, 0x80, 0xFF, b'0'];
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..20_000 {
            let mut b = [0u8; 16];
            for x in &mut b {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                *x = alphabet[(state % alphabet.len() as u64) as usize];
            }
            assert_eq!(delims16(&b), delims16_naive(&b), "{b:?}");
        }
        let mut b = [b'a'; 16];
        b[3] = b':';
        b[9] = b'#';
        assert_eq!(delims16(&b), (1 << 9, 1 << 3));
    }

    #[test]
    fn block64_matches_twin() {
        let alphabet = [b'/', b'?', b'#', b':', b'a', b'%', 0x00, 0x80, 0xFF, b'@'];
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..20_000 {
            let mut b = [0u8; 64];
            for x in &mut b {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                *x = alphabet[(state % alphabet.len() as u64) as usize];
            }
            assert_eq!(delims64(&b), delims64_naive(&b), "{b:?}");
        }
        // Each delimiter alone at every position (every lane of every 16-byte load).
        for p in 0..64 {
            for c in [b'/', b'?', b'#', b':'] {
                let mut b = [b'x'; 64];
                b[p] = c;
                assert_eq!(delims64(&b), delims64_naive(&b), "{c} at {p}");
            }
        }
    }
}
