//! Decoding runs of `pct-encoded` triplets (RFC 3986 §2.1: `"%" HEXDIG HEXDIG`, either case)
//! for URI → IRI (RFC 3987 §3.2 step 2), five triplets per 16-byte block.
//!
//! [`decode_triplets`] appends the octets of the longest prefix of its input made of whole
//! triplets and returns that prefix's length (a multiple of 3). The SSE2 kernel (the x86_64
//! baseline) classifies 16 bytes at once — `%` at lanes 0, 3, 6, 9, 12, hex digits at the
//! others — and computes every digit's value in the same pass; the leading valid triplets of
//! the block are combined into octets, and the block loop stops at the first invalid one.
//! Fewer than 16 bytes left go through [`decode_triplets_naive`], the obviously correct twin,
//! one triplet at a time.

/// The value of each hex digit (RFC 3986 §2.1, either case), 0xFF for other bytes.
pub(crate) static HEX_VALUE: [u8; 256] = {
    let mut t = [0xFFu8; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = match b as u8 {
            c @ b'0'..=b'9' => c - b'0',
            c @ b'a'..=b'f' => c - b'a' + 10,
            c @ b'A'..=b'F' => c - b'A' + 10,
            _ => 0xFF,
        };
        b += 1;
    }
    t
};

/// Appends to `octets` the octet of each `%HH` triplet of the longest prefix of `s` made of
/// triplets, and returns the length of that prefix (3 × the number of triplets).
#[inline]
pub(crate) fn decode_triplets(s: &[u8], octets: &mut Vec<u8>) -> usize {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        let mut j = 0;
        while j + 16 <= s.len() {
            let block: &[u8; 16] = s[j..j + 16].try_into().expect("16 bytes");
            let (n, oct) = sse2::block(block);
            octets.extend_from_slice(&oct[..n]);
            j += 3 * n;
            if n < 5 {
                return j;
            }
        }
        j + decode_triplets_naive(&s[j..], octets)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    {
        decode_triplets_naive(s, octets)
    }
}

/// The twin of [`decode_triplets`]: one triplet at a time, by table.
pub(crate) fn decode_triplets_naive(s: &[u8], octets: &mut Vec<u8>) -> usize {
    let mut j = 0;
    while let Some(&[b'%', h, l]) = s.get(j..j + 3) {
        let (hi, lo) = (HEX_VALUE[h as usize], HEX_VALUE[l as usize]);
        if (hi | lo) & 0xF0 != 0 {
            break;
        }
        octets.push(hi << 4 | lo);
        j += 3;
    }
    j
}

/// Panics unless the kernel and its twin agree on `s` and on each suffix of up to 15 bytes
/// less (other alignments of the triplets). For the fuzz target `simd_twin`; not part of
/// the API.
#[cfg(any(test, feature = "twins"))]
#[doc(hidden)]
pub fn hex_twin_check(s: &[u8]) {
    for k in 0..s.len().min(15) + 1 {
        let t = &s[k..];
        let (mut a, mut b) = (b"x".to_vec(), b"x".to_vec());
        let n = decode_triplets(t, &mut a);
        let m = decode_triplets_naive(t, &mut b);
        assert_eq!((n, a), (m, b), "decode_triplets on {t:02X?}");
    }
}

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod sse2 {
    use core::arch::x86_64::*;

    /// Lanes 0, 3, 6, 9, 12: where the `%` of five triplets are.
    const PCT_LANES: u32 = 0b1_0010_0100_1001;

    /// The number of leading whole triplets in `b[..15]` (0–5) and their octets.
    #[inline(always)]
    pub(super) fn block(b: &[u8; 16]) -> (usize, [u8; 16]) {
        let mut val = [0u8; 16];
        // SAFETY: SSE2 is enabled at compile time (the cfg of this module). `b` is 16
        // readable bytes (one unaligned load), `val` 16 writable bytes (one unaligned store);
        // `loadu`/`storeu` have no alignment requirement.
        let (pct, hex) = unsafe {
            let v = _mm_loadu_si128(b.as_ptr().cast::<__m128i>());
            let pct = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'%' as i8));
            // Digits: v - '0' <= 9; letters: (v | 0x20) - 'a' <= 5 (unsigned).
            let d = _mm_sub_epi8(v, _mm_set1_epi8(b'0' as i8));
            let is_d = _mm_cmpeq_epi8(_mm_min_epu8(d, _mm_set1_epi8(9)), d);
            let l = _mm_sub_epi8(
                _mm_or_si128(v, _mm_set1_epi8(0x20)),
                _mm_set1_epi8(b'a' as i8),
            );
            let is_l = _mm_cmpeq_epi8(_mm_min_epu8(l, _mm_set1_epi8(5)), l);
            let value = _mm_or_si128(
                _mm_and_si128(is_d, d),
                _mm_and_si128(is_l, _mm_add_epi8(l, _mm_set1_epi8(10))),
            );
            _mm_storeu_si128(val.as_mut_ptr().cast::<__m128i>(), value);
            (
                _mm_movemask_epi8(pct) as u32,
                _mm_movemask_epi8(_mm_or_si128(is_d, is_l)) as u32,
            )
        };
        // Bit 3k: triplet k is whole; count the leading ones.
        let whole = pct & (hex >> 1) & (hex >> 2) & PCT_LANES;
        let bad = !whole & PCT_LANES;
        let n = if bad == 0 {
            5
        } else {
            (bad.trailing_zeros() / 3) as usize
        };
        let mut oct = [0u8; 16];
        for k in 0..5 {
            oct[k] = val[3 * k + 1] << 4 | val[3 * k + 2];
        }
        (n, oct)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Length × alignment × position: runs of 0..=40 triplets (mixed case digits) sliced at
    /// every alignment 0..16, with one flaw (a bad digit, a missing digit, a lone `%`, a
    /// plain byte, the end) at every position.
    #[test]
    fn kernel_matches_twin_over_length_alignment_position() {
        let digits = b"0123456789abcdefABCDEF";
        let flaws: [&[u8]; 7] = [b"%G1", b"%1G", b"%1", b"%", b"a", b"%%41", b"%:0"];
        let mut checked = 0;
        for len in 0..=40usize {
            let mut run = Vec::new();
            for k in 0..len {
                run.push(b'%');
                run.push(digits[(7 * k) % digits.len()]);
                run.push(digits[(7 * k + 3) % digits.len()]);
            }
            for flaw in flaws {
                for pos in 0..=run.len() {
                    let mut t = run.clone();
                    t.splice(pos..pos, flaw.iter().copied());
                    t.extend_from_slice(b"%41%e9");
                    for align in 0..16 {
                        let mut buf = vec![b'%'; align];
                        buf.extend_from_slice(&t);
                        let s = &buf[align..];
                        let (mut a, mut b) = (Vec::new(), Vec::new());
                        let n = decode_triplets(s, &mut a);
                        assert_eq!((n, &a), (decode_triplets_naive(s, &mut b), &b), "{s:?}");
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 100_000, "{checked}");
        let mut o = Vec::new();
        assert_eq!(decode_triplets(b"%C3%A9%2f%41%42%43x", &mut o), 18);
        assert_eq!(o, [0xC3, 0xA9, 0x2F, 0x41, 0x42, 0x43]);
    }

    proptest! {
        #[test]
        fn matches_twin(v in proptest::collection::vec(
            prop_oneof![4 => Just(b'%'), 6 => proptest::sample::select(b"09afAFgG/".to_vec()),
                        1 => any::<u8>()], 0..80)) {
            hex_twin_check(&v);
        }
    }
}
