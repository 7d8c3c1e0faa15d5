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
    use std::arch::x86_64::*;
    // SAFETY: SSE2 is enabled at compile time (the cfg above; it is part of the x86_64
    // baseline), which is all these intrinsics require. `b` is exactly 16 bytes, so the
    // unaligned 16-byte load stays inside it; `_mm_loadu_si128` needs no alignment.
    unsafe {
        let v = _mm_loadu_si128(b.as_ptr().cast::<__m128i>());
        let slash = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'/' as i8));
        let quest = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'?' as i8));
        let hash = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'#' as i8));
        let colon = _mm_cmpeq_epi8(v, _mm_set1_epi8(b':' as i8));
        let t = _mm_or_si128(_mm_or_si128(slash, quest), hash);
        (_mm_movemask_epi8(t) as u32, _mm_movemask_epi8(colon) as u32)
    }
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
