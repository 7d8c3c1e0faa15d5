//! The right-to-left prefilter of `check` (RFC 3987 §4.2; see `crate::convert::bidi`) in
//! 16-byte blocks.
//!
//! [`may_contain_rtl`] answers, for a byte string, whether some position holds one of the
//! UTF-8 prefixes under which characters of Bidi_Class R or AL occur (Unicode 16 data; the
//! list and its proof over every code point are in `convert::bidi`):
//! - `D6`–`DF`;
//! - `E0` followed by `A0`–`A3`;
//! - `E2 80 8F` (U+200F);
//! - `EF` followed by `AC`–`BB`;
//! - `F0` followed by `90` or `9E`.
//!
//! Each position is tested on its own, with the one or two bytes after it (missing bytes read
//! as zero, which is none of the continuation bytes above). The SSE2 kernel (the x86_64
//! baseline) tests 16 positions at once from three overlapping loads (at `i`, `i + 1`,
//! `i + 2`); the last, short block is read from a zero-padded copy, which gives the same
//! answer. [`may_contain_rtl_naive`] is the obviously correct twin, one position at a time.

/// Whether some position of `b` starts one of the right-to-left prefixes of the module
/// documentation. False only if `b` holds no character of Bidi_Class R or AL.
#[inline]
pub(crate) fn may_contain_rtl(b: &[u8]) -> bool {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        let n = b.len();
        let mut i = 0;
        while i + 18 <= n {
            let block: &[u8; 18] = b[i..i + 18].try_into().expect("18 bytes");
            if sse2::block(block) {
                return true;
            }
            i += 16;
        }
        // Fewer than 18 bytes left: two blocks of a zero-padded copy cover them.
        let mut pad = [0u8; 34];
        pad[..n - i].copy_from_slice(&b[i..]);
        let (lo, hi) = (&pad[..18], &pad[16..]);
        sse2::block(lo.try_into().expect("18 bytes"))
            || (n - i > 16 && sse2::block(hi.try_into().expect("18 bytes")))
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    {
        may_contain_rtl_naive(b)
    }
}

/// The twin of [`may_contain_rtl`]: each position with the bytes after it, by `match`.
#[cfg(any(test, feature = "twins"))]
pub(crate) fn may_contain_rtl_naive(b: &[u8]) -> bool {
    (0..b.len()).any(|i| {
        let next = b.get(i + 1).copied().unwrap_or(0);
        match b[i] {
            0xD6..=0xDF => true,
            0xE0 => (0xA0..=0xA3).contains(&next),
            0xE2 => next == 0x80 && b.get(i + 2) == Some(&0x8F),
            0xEF => (0xAC..=0xBB).contains(&next),
            0xF0 => next == 0x90 || next == 0x9E,
            _ => false,
        }
    })
}

/// Panics unless the kernel and its twin agree on `b` and on each of its suffixes of up to 17
/// bytes less (other alignments). For the fuzz target `simd_twin`; not part of the API.
#[cfg(any(test, feature = "twins"))]
#[doc(hidden)]
pub fn rtl_twin_check(b: &[u8]) {
    for k in 0..b.len().min(17) + 1 {
        let s = &b[k..];
        assert_eq!(
            may_contain_rtl(s),
            may_contain_rtl_naive(s),
            "may_contain_rtl on {s:02X?}"
        );
    }
}

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod sse2 {
    use core::arch::x86_64::*;

    /// Bytes of `v` in `lo..=hi` (unsigned), as 0xFF lanes.
    #[inline(always)]
    fn in_range(v: __m128i, lo: u8, hi: u8) -> __m128i {
        // SAFETY: SSE2 is enabled at compile time (the cfg of this module), all these
        // intrinsics need; they only compute on registers.
        unsafe {
            let t = _mm_sub_epi8(v, _mm_set1_epi8(lo as i8));
            let span = _mm_set1_epi8((hi - lo) as i8);
            _mm_cmpeq_epi8(_mm_min_epu8(t, span), t)
        }
    }

    #[inline(always)]
    fn eq(v: __m128i, c: u8) -> __m128i {
        // SAFETY: as in `in_range`.
        unsafe { _mm_cmpeq_epi8(v, _mm_set1_epi8(c as i8)) }
    }

    /// Whether one of the 16 positions of `b[..16]` starts a right-to-left prefix (`b[16..]`
    /// is the lookahead of the last two positions).
    #[inline(always)]
    pub(super) fn block(b: &[u8; 18]) -> bool {
        let p = b.as_ptr();
        // SAFETY: SSE2 is enabled at compile time (the cfg of this module). `b` is 18
        // readable bytes and the three unaligned 16-byte loads read offsets 0..16, 1..17 and
        // 2..18, all inside it; `loadu` has no alignment requirement.
        unsafe {
            let v0 = _mm_loadu_si128(p.cast::<__m128i>());
            let v1 = _mm_loadu_si128(p.add(1).cast::<__m128i>());
            let v2 = _mm_loadu_si128(p.add(2).cast::<__m128i>());
            let e0 = _mm_and_si128(eq(v0, 0xE0), in_range(v1, 0xA0, 0xA3));
            let e2 = _mm_and_si128(eq(v0, 0xE2), _mm_and_si128(eq(v1, 0x80), eq(v2, 0x8F)));
            let ef = _mm_and_si128(eq(v0, 0xEF), in_range(v1, 0xAC, 0xBB));
            let f0 = _mm_and_si128(eq(v0, 0xF0), _mm_or_si128(eq(v1, 0x90), eq(v1, 0x9E)));
            let m = _mm_or_si128(
                _mm_or_si128(in_range(v0, 0xD6, 0xDF), e0),
                _mm_or_si128(e2, _mm_or_si128(ef, f0)),
            );
            _mm_movemask_epi8(m) != 0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Every prefix and its near misses (one byte off at each end of each range).
    const PIECES: [&[u8]; 22] = [
        &[0xD6],
        &[0xDF],
        &[0xD5],
        &[0xE0],
        &[0xE0, 0xA0],
        &[0xE0, 0xA3],
        &[0xE0, 0x9F],
        &[0xE0, 0xA4],
        &[0xE2, 0x80, 0x8F],
        &[0xE2, 0x80],
        &[0xE2, 0x80, 0x8E],
        &[0xE2, 0x81, 0x8F],
        &[0xEF, 0xAC],
        &[0xEF, 0xBB],
        &[0xEF, 0xAB],
        &[0xEF, 0xBC],
        &[0xF0, 0x90],
        &[0xF0, 0x9E],
        &[0xF0, 0x91],
        &[0xF0],
        &[0xE0, 0xE0, 0xA1],
        &[0xEF, 0xEF],
    ];

    /// Length × alignment × position: every piece at every position of a background of
    /// every length up to 70, sliced at every alignment 0..16 of a larger buffer.
    #[test]
    fn kernel_matches_twin_over_length_alignment_position() {
        let background: Vec<u8> = "aé日/\u{0E01}".bytes().cycle().take(100).collect();
        let mut checked = 0;
        for len in 0..=70usize {
            for piece in PIECES {
                for pos in 0..=len {
                    for align in 0..16 {
                        let mut buf = background[..align].to_vec();
                        let start = buf.len();
                        buf.extend_from_slice(&background[align..align + len]);
                        buf.splice(start + pos..start + pos, piece.iter().copied());
                        let s = &buf[start..];
                        assert_eq!(may_contain_rtl(s), may_contain_rtl_naive(s), "{s:02X?}");
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 500_000);
        assert!(may_contain_rtl("שלום".as_bytes()) && !may_contain_rtl("日本".as_bytes()));
    }

    proptest! {
        #[test]
        fn matches_twin(v in proptest::collection::vec(
            prop_oneof![2 => 0x20u8..0x7F, 3 => 0x80u8..0xC0, 3 => 0xD0u8..=0xF4], 0..120)) {
            rtl_twin_check(&v);
        }
    }
}
