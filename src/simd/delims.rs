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
}
