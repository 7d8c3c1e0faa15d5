//! Decoding runs of `pct-encoded` triplets (RFC 3986 §2.1: `"%" HEXDIG HEXDIG`, either case)
//! for URI → IRI (RFC 3987 §3.2 step 2).
//!
//! [`decode_triplets`] appends the octets of the longest prefix of its input made of whole
//! triplets and returns that prefix's length (a multiple of 3). Two kernels, both checked
//! against [`decode_triplets_naive`], the obviously correct twin (one triplet at a time):
//! - SSSE3 (detected at run time; issue #11, thirteenth pass): sixteen triplets per 48-byte
//!   block. `pshufb` gathers the sixteen `%` positions into one vector and the 32 hex digits
//!   into two; the digits are validated and turned into values in those two vectors, paired
//!   into octets by `pmaddubsw` (`16 × high + low`) and packed by `packuswb`, and the sixteen
//!   octets are written with one 16-byte store. A block of fewer than 48 bytes (the end of
//!   the input) is copied into a zeroed buffer first: a zero byte starts no triplet.
//! - SSE2 (the x86_64 baseline, for CPUs without SSSE3): five triplets per 16-byte block.
//! - AVX-512 (F, BW, VBMI and BMI2, detected at run time; issue #11, seventeenth pass): 21
//!   triplets per 63-byte masked load, no padded copy at the end; `pext` finds the whole
//!   triplets, `vpermb` gathers their digits (see `avx512::decode`).

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
/// triplets, and returns the length of that prefix (3 × the number of triplets). The SSSE3
/// kernel where the CPU has it (std caches the detection), else the SSE2 one.
#[inline]
pub(crate) fn decode_triplets(s: &[u8], octets: &mut Vec<u8>) -> usize {
    #[cfg(target_arch = "x86_64")]
    if avx512::available() {
        // SAFETY: the callee's requirements (AVX-512 F, BW, VBMI, BMI2), detected just above.
        return unsafe { avx512::decode(s, octets) };
    }
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("ssse3") {
        // SAFETY: the callee's only requirement is SSSE3, detected just above.
        return unsafe { ssse3::decode(s, octets) };
    }
    decode_triplets_sse2(s, octets)
}

/// [`decode_triplets`] by the SSSE3 kernel, or `None` when the CPU lacks SSSE3 (for the
/// tests and the fuzz target, which compare every kernel with the twin).
#[cfg(any(test, feature = "twins"))]
fn decode_triplets_ssse3(s: &[u8], octets: &mut Vec<u8>) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("ssse3") {
        // SAFETY: SSSE3 was detected just above.
        return Some(unsafe { ssse3::decode(s, octets) });
    }
    let _ = (s, octets);
    None
}

/// [`decode_triplets`] by the AVX-512 kernel, or `None` when the CPU lacks it (for the tests
/// and the fuzz target).
#[cfg(any(test, feature = "twins"))]
fn decode_triplets_avx512(s: &[u8], octets: &mut Vec<u8>) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    if avx512::available() {
        // SAFETY: the callee's requirements, detected just above.
        return Some(unsafe { avx512::decode(s, octets) });
    }
    let _ = (s, octets);
    None
}

/// [`decode_triplets`] by the SSE2 kernel, five triplets per 16-byte block (the naive twin
/// off x86_64).
fn decode_triplets_sse2(s: &[u8], octets: &mut Vec<u8>) -> usize {
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

/// Panics unless every kernel ([`decode_triplets`], the SSE2 kernel, the SSSE3 and AVX-512
/// kernels where the CPU has them) and the twin agree on `s` and on each suffix of up to 63
/// bytes less (other alignments of the triplets against the 16-, 48- and 63-byte blocks).
/// For the fuzz target `simd_twin`; not part of the API.
#[cfg(any(test, feature = "twins"))]
#[doc(hidden)]
pub fn hex_twin_check(s: &[u8]) {
    for k in 0..s.len().min(63) + 1 {
        let t = &s[k..];
        let mut want = b"x".to_vec();
        let m = decode_triplets_naive(t, &mut want);
        let mut a = b"x".to_vec();
        let n = decode_triplets(t, &mut a);
        assert_eq!((n, &a), (m, &want), "decode_triplets on {t:02X?}");
        let mut a = b"x".to_vec();
        let n = decode_triplets_sse2(t, &mut a);
        assert_eq!((n, &a), (m, &want), "SSE2 kernel on {t:02X?}");
        let mut a = b"x".to_vec();
        if let Some(n) = decode_triplets_ssse3(t, &mut a) {
            assert_eq!((n, &a), (m, &want), "SSSE3 kernel on {t:02X?}");
        }
        let mut a = b"x".to_vec();
        if let Some(n) = decode_triplets_avx512(t, &mut a) {
            assert_eq!((n, &a), (m, &want), "AVX-512 kernel on {t:02X?}");
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use core::arch::x86_64::*;

    /// Whether the CPU runs [`decode`].
    #[inline]
    pub(super) fn available() -> bool {
        crate::simd::x86_64::has_avx512_vbmi()
    }

    /// Triplets per block: 63 bytes.
    const TRIPLETS: usize = 21;
    /// Lanes `3j` (j < 21): where the `%` of each triplet of a block is.
    use crate::simd::x86_64::THIRDS as STARTS;
    /// `vpermb` indices that gather lane `3j + 1 + d` into lane `j`: the high (`d` = 0) and
    /// low (`d` = 1) digit of each triplet.
    const fn digit_idx(d: usize) -> [u8; 64] {
        let mut t = [0u8; 64];
        let mut j = 0;
        while j < TRIPLETS {
            t[j] = (3 * j + 1 + d) as u8;
            j += 1;
        }
        t
    }
    static HI_IDX: [u8; 64] = digit_idx(0);
    static LO_IDX: [u8; 64] = digit_idx(1);

    /// [`super::decode_triplets`] 21 triplets at a time (issue 11): a masked load of up to 63
    /// bytes (the lanes past `s` read as zero, which is no `%` and no digit, and are not
    /// touched in memory, so the end of a run needs no padded copy); the lanes that are `%`
    /// and hex digits (RFC 3986 §2.1, either case) as masks, whose bits at the triplets'
    /// first, second and third lanes `pext` gathers: the leading whole triplets are the
    /// trailing ones of their AND. Each lane's digit value is its low nibble, plus 9 for a
    /// letter; `vpermb` gathers the high and the low digits of the 21 triplets, and
    /// `16 × high + low` is stored whole (64 bytes), the octets past the whole triplets
    /// dropped by the length. Twin: [`super::decode_triplets_naive`] (the tests and the fuzz
    /// target `simd_twin` run every kernel this CPU has).
    ///
    /// # Safety
    /// The CPU must have AVX-512 F, BW and VBMI, and BMI2 ([`available`]).
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,bmi2")]
    pub(super) unsafe fn decode(s: &[u8], octets: &mut Vec<u8>) -> usize {
        // SAFETY: both tables are 64 readable bytes; no alignment is required.
        let (hi_idx, lo_idx) = unsafe {
            (
                _mm512_loadu_si512(HI_IDX.as_ptr().cast()),
                _mm512_loadu_si512(LO_IDX.as_ptr().cast()),
            )
        };
        let nib = _mm512_set1_epi8(0x0F);
        let mut j = 0;
        loop {
            let rem = s.len() - j;
            let lanes = _bzhi_u64(u64::MAX, rem.min(3 * TRIPLETS) as u32);
            // SAFETY: the lanes read are `s[j..j + min(rem, 63)]`, within `s`; a masked load
            // does not touch the memory of the lanes it leaves out (they read as zero).
            let v = unsafe { _mm512_maskz_loadu_epi8(lanes, s.as_ptr().add(j).cast()) };
            let pct = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(b'%' as i8));
            let (digit, alpha) = crate::simd::x86_64::hex_masks64(v);
            let hex = digit | alpha;
            let whole =
                _pext_u64(pct, STARTS) & _pext_u64(hex >> 1, STARTS) & _pext_u64(hex >> 2, STARTS);
            // `whole` has 21 bits: at most 21 leading triplets.
            let n = (!whole).trailing_zeros() as usize;
            let low = _mm512_and_si512(v, nib);
            let val = _mm512_mask_add_epi8(low, alpha, low, _mm512_set1_epi8(9));
            let hi = _mm512_permutexvar_epi8(hi_idx, val);
            let lo = _mm512_permutexvar_epi8(lo_idx, val);
            let oct = _mm512_or_si512(_mm512_slli_epi16(_mm512_and_si512(hi, nib), 4), lo);
            octets.reserve(64);
            let len = octets.len();
            // SAFETY: `reserve` left room for 64 bytes after `len`; the first `n` (<= 21) of
            // them are the octets of the whole triplets, written by the store.
            unsafe {
                _mm512_storeu_si512(octets.as_mut_ptr().add(len).cast(), oct);
                octets.set_len(len + n);
            }
            j += 3 * n;
            if n < TRIPLETS {
                return j;
            }
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod ssse3 {
    use core::arch::x86_64::*;

    /// Bytes per block: sixteen triplets.
    const BLOCK: usize = 48;

    /// The `pshufb` index vector that gathers, from the 16-byte load number `load` of a
    /// 48-byte block, the bytes at the block offsets `pos` (one per lane); lanes whose byte is
    /// in another load get 0x80 (`pshufb` writes zero there), so OR-ing the gathers of the
    /// loads gives every lane.
    const fn gather(pos: [usize; 16], load: usize) -> [u8; 16] {
        let mut t = [0x80u8; 16];
        let mut q = 0;
        while q < 16 {
            if pos[q] / 16 == load {
                t[q] = (pos[q] % 16) as u8;
            }
            q += 1;
        }
        t
    }

    /// Block offsets of the `%` of triplet k (lane k): 3k.
    const PCT_POS: [usize; 16] = {
        let mut p = [0; 16];
        let mut k = 0;
        while k < 16 {
            p[k] = 3 * k;
            k += 1;
        }
        p
    };

    /// Block offsets of the digits of triplets `8h..8h + 8`: lane 2i the high digit (3k + 1),
    /// lane 2i + 1 the low one (3k + 2), k = 8h + i.
    const fn digit_pos(h: usize) -> [usize; 16] {
        let mut p = [0; 16];
        let mut i = 0;
        while i < 8 {
            let k = 8 * h + i;
            p[2 * i] = 3 * k + 1;
            p[2 * i + 1] = 3 * k + 2;
            i += 1;
        }
        p
    }

    /// The gathers: `%` lanes from loads 0, 1, 2; digits of triplets 0–7 from loads 0, 1;
    /// digits of triplets 8–15 from loads 1, 2 (the others select nothing).
    static SHUF: [[u8; 16]; 7] = [
        gather(PCT_POS, 0),
        gather(PCT_POS, 1),
        gather(PCT_POS, 2),
        gather(digit_pos(0), 0),
        gather(digit_pos(0), 1),
        gather(digit_pos(1), 1),
        gather(digit_pos(1), 2),
    ];

    /// One of [`SHUF`] as a vector.
    #[inline]
    #[target_feature(enable = "ssse3")]
    fn shuf(i: usize) -> __m128i {
        // SAFETY: `SHUF[i]` is 16 readable bytes; `loadu` has no alignment requirement.
        unsafe { _mm_loadu_si128(SHUF[i].as_ptr().cast()) }
    }

    /// For 16 gathered digits `d` (ASCII or not): the lanes holding a hex digit (0xFF) and
    /// each lane's value, right for the hex digits (RFC 3986 §2.1, either case).
    #[inline]
    #[target_feature(enable = "ssse3")]
    fn digits(d: __m128i) -> (__m128i, __m128i) {
        let (is_n, _, is_l, _) = crate::simd::x86_64::hex_lanes(d);
        // '0'-'9' are 0x30-0x39, 'A'-'F' 0x41-0x46, 'a'-'f' 0x61-0x66: the low nibble, plus
        // 9 for letters (the bytes above '9').
        let value = _mm_add_epi8(
            _mm_and_si128(d, _mm_set1_epi8(0x0F)),
            _mm_and_si128(
                _mm_cmpgt_epi8(d, _mm_set1_epi8(b'9' as i8)),
                _mm_set1_epi8(9),
            ),
        );
        (_mm_or_si128(is_n, is_l), value)
    }

    /// The number of leading whole triplets of the block `b` (0–16) and the octets of its
    /// triplets (those past the first flaw are meaningless).
    #[inline]
    #[target_feature(enable = "ssse3")]
    fn block(b: &[u8; BLOCK]) -> (usize, [u8; 16]) {
        // SAFETY: `b` is 48 readable bytes: three unaligned 16-byte loads at 0, 16, 32.
        let (x0, x1, x2) = unsafe {
            let p = b.as_ptr().cast::<__m128i>();
            (
                _mm_loadu_si128(p),
                _mm_loadu_si128(p.add(1)),
                _mm_loadu_si128(p.add(2)),
            )
        };
        let pct = _mm_or_si128(
            _mm_or_si128(_mm_shuffle_epi8(x0, shuf(0)), _mm_shuffle_epi8(x1, shuf(1))),
            _mm_shuffle_epi8(x2, shuf(2)),
        );
        let d0 = _mm_or_si128(_mm_shuffle_epi8(x0, shuf(3)), _mm_shuffle_epi8(x1, shuf(4)));
        let d1 = _mm_or_si128(_mm_shuffle_epi8(x1, shuf(5)), _mm_shuffle_epi8(x2, shuf(6)));
        let (ok0, v0) = digits(d0);
        let (ok1, v1) = digits(d1);
        // A triplet's two digit lanes form one 16-bit lane: all ones iff both are digits;
        // packed to one byte per triplet, in triplet order.
        let ones = _mm_set1_epi8(-1);
        let both = _mm_packs_epi16(_mm_cmpeq_epi16(ok0, ones), _mm_cmpeq_epi16(ok1, ones));
        let whole = _mm_and_si128(both, _mm_cmpeq_epi8(pct, _mm_set1_epi8(b'%' as i8)));
        let whole = _mm_movemask_epi8(whole) as u32;
        // 16 × high + low per 16-bit lane (both at most 15: no saturation), then to bytes.
        let w = _mm_set1_epi16(0x0110);
        let oct = _mm_packus_epi16(_mm_maddubs_epi16(v0, w), _mm_maddubs_epi16(v1, w));
        let mut out = [0u8; 16];
        // SAFETY: `out` is 16 writable bytes; `storeu` has no alignment requirement.
        unsafe { _mm_storeu_si128(out.as_mut_ptr().cast(), oct) };
        ((!whole).trailing_zeros() as usize, out)
    }

    /// [`super::decode_triplets`] sixteen triplets at a time.
    ///
    /// # Safety
    /// The CPU must have SSSE3.
    #[target_feature(enable = "ssse3")]
    pub(super) unsafe fn decode(s: &[u8], octets: &mut Vec<u8>) -> usize {
        let mut j = 0;
        loop {
            let rest = &s[j..];
            let (n, oct) = match rest.first_chunk::<BLOCK>() {
                Some(b) => block(b),
                // The end: zero bytes after it start no triplet.
                None => block(&crate::simd::padded::<BLOCK>(rest)),
            };
            // One 16-byte copy, then the octets past the last whole triplet dropped.
            let len = octets.len();
            octets.extend_from_slice(&oct);
            octets.truncate(len + n);
            j += 3 * n;
            if n < 16 {
                return j;
            }
        }
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
            let (is_d, d, is_l, l) = crate::simd::x86_64::hex_lanes(v);
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
        #[cfg(target_arch = "x86_64")]
        if !avx512::available() {
            // Not a silent skip: the AVX-512 kernel is compared only where the CPU has it.
            eprintln!("simd::hex: no AVX-512 VBMI on this CPU, its kernel is not tested here");
        }
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
                        each_kernel_matches_twin(&buf[align..]);
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

    /// Every kernel against the twin on `s` alone (not its suffixes).
    fn each_kernel_matches_twin(s: &[u8]) {
        let mut want = Vec::new();
        let m = decode_triplets_naive(s, &mut want);
        let mut a = Vec::new();
        assert_eq!((decode_triplets(s, &mut a), &a), (m, &want), "{s:?}");
        let mut a = Vec::new();
        assert_eq!((decode_triplets_sse2(s, &mut a), &a), (m, &want), "{s:?}");
        let mut a = Vec::new();
        if let Some(n) = decode_triplets_ssse3(s, &mut a) {
            assert_eq!((n, &a), (m, &want), "{s:?}");
        }
        let mut a = Vec::new();
        if let Some(n) = decode_triplets_avx512(s, &mut a) {
            assert_eq!((n, &a), (m, &want), "AVX-512 {s:?}");
        }
    }

    /// Every short `%` sequence (a whole triplet in either case, invalid digits, the
    /// truncated `%` and `%A`, a `%%`) at every offset of strings of 1–80 bytes, filled with
    /// whole triplets or with plain ASCII, and cut right after the sequence (at the end).
    #[test]
    fn short_sequences_at_every_offset_of_short_strings() {
        let seqs: [&[u8]; 10] = [
            b"%41", b"%e9", b"%C3%A9", b"%", b"%A", b"%G0", b"%0g", b"%%", b"%2F%", b"%-1",
        ];
        let fills: [&[u8]; 3] = [b"%E2%80%93", b"%7e%5A", b"ab/c"];
        let mut checked = 0;
        for len in 1..=80usize {
            for fill in fills {
                let base: Vec<u8> = fill.iter().copied().cycle().take(len).collect();
                for seq in seqs {
                    for at in 0..len {
                        let mut v = base[..at].to_vec();
                        v.extend_from_slice(seq);
                        v.extend_from_slice(&base[at..]);
                        for cut in [v.len(), at + seq.len()] {
                            for start in [0, at] {
                                each_kernel_matches_twin(&v[start..cut]);
                                checked += 1;
                            }
                        }
                    }
                }
            }
        }
        assert!(checked > 100_000, "{checked}");
        let mut o = Vec::new();
        let run = b"%00%11%22%33%44%55%66%77%88%99%aa%bb%cc%dd%ee%ff%C3%A9%";
        assert_eq!(decode_triplets(run, &mut o), run.len() - 1);
        let want: Vec<u8> = (0..16u8).map(|k| k * 0x11).chain([0xC3, 0xA9]).collect();
        assert_eq!(o, want);
    }

    proptest! {
        #[test]
        fn matches_twin(v in proptest::collection::vec(
            prop_oneof![4 => Just(b'%'), 6 => proptest::sample::select(b"09afAFgG/".to_vec()),
                        1 => any::<u8>()], 0..80)) {
            hex_twin_check(&v);
        }

        /// Long runs of whole triplets (any digits) with a rare flaw: many full 48-byte
        /// blocks, the first flaw at any lane.
        #[test]
        fn runs_match_twin(toks in proptest::collection::vec(prop_oneof![
            12 => (any::<u8>(), any::<bool>()).prop_map(|(b, up)| {
                let t = format!("%{b:02x}");
                if up { t.to_uppercase() } else { t }.into_bytes()
            }),
            1 => proptest::sample::select(vec!["%", "%A", "%g1", "%1:", "/", "%%"])
                .prop_map(|f| f.as_bytes().to_vec()),
            1 => any::<u8>().prop_map(|b| vec![b]),
        ], 0..60)) {
            hex_twin_check(&toks.concat());
        }
    }
}
