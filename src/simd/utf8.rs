//! UTF-8 validation of one line (RFC 3629 §4; RFC 3987 §3.1 step 1c).
//!
//! simdutf8 validates inputs of 64 bytes and more with SIMD, and hands shorter ones to
//! `core::str::from_utf8`, a byte loop; about half the lines of real non-ASCII data are that
//! short. [`validate`] copies a short line into a zero-padded 64-byte block instead (zero bytes
//! are ASCII, so the block is valid exactly when the line is) and asks simdutf8 only for the
//! error position, which needs the exact validator, when there is an error.

/// `Ok` if `line` is UTF-8, else the length of its longest valid prefix.
#[inline]
pub(crate) fn validate(line: &[u8]) -> Result<(), usize> {
    if line.len() < 64 {
        let block = crate::simd::padded::<64>(line);
        if simdutf8::basic::from_utf8(&block).is_ok() {
            return Ok(());
        }
    } else if simdutf8::basic::from_utf8(line).is_ok() {
        return Ok(());
    }
    simdutf8::compat::from_utf8(line)
        .map(|_| ())
        .map_err(|e| e.valid_up_to())
}

/// The length of the longest valid UTF-8 prefix of `s` (all of it when `s` is UTF-8): one
/// pass of simdutf8's fast validator over a run of many lines (issue 11: "UTF-8 validated once
/// for a whole run of flagged lines"), and its exact one only when that finds an error. A
/// character cut by the end of `s` ends the prefix before it.
#[inline]
pub(crate) fn valid_prefix(s: &[u8]) -> usize {
    if simdutf8::basic::from_utf8(s).is_ok() {
        return s.len();
    }
    simdutf8::compat::from_utf8(s).map_or_else(|e| e.valid_up_to(), |t| t.len())
}

/// [`validate`] and [`valid_prefix`] against `core::str::from_utf8` on `s` and each of its
/// suffixes from the first 64 bytes, for the fuzz target `simd_twin`; not part of the API.
#[cfg(any(test, feature = "twins"))]
#[doc(hidden)]
pub fn utf8_twin_check(s: &[u8]) {
    for k in 0..s.len().min(64) + 1 {
        let t = &s[k..];
        let want = std::str::from_utf8(t)
            .map(|_| ())
            .map_err(|e| e.valid_up_to());
        assert_eq!(validate(t), want, "validate {t:02X?}");
        assert_eq!(
            valid_prefix(t),
            want.err().unwrap_or(t.len()),
            "valid_prefix {t:02X?}"
        );
    }
}

/// UTF-8 validation of 64-byte blocks with AVX-512, a step that a block kernel runs on the
/// blocks it already loaded (the percent-encoder's validating level, `pct.rs`'s
/// `encode_avx512::<true>`, issue 11: "one pass per line where today there are several"):
/// the lookup algorithm of Keiser and Lemire, "Validating UTF-8 In Less Than One Instruction
/// Per Byte" (Software: Practice and Experience, 2021). Each byte and the one before it are
/// classified by three nibble lookups whose AND is non-zero exactly on a two-byte error (a
/// missing or extra continuation byte, an overlong form, a surrogate, a value above
/// U+10FFFF: RFC 3629 §4); the third and fourth bytes of three- and four-byte characters must
/// be continuation bytes, which the AND marks with 0x80, so an XOR with where they must be
/// leaves only errors. A lane holding an ASCII byte or a lead byte after a character cut short
/// is an error (TOO_SHORT), so a prefix ends on a whole character exactly when the lane after
/// it has no error once that lane reads as a lead or ASCII byte.
#[cfg(target_arch = "x86_64")]
pub(crate) mod avx512 {
    use core::arch::x86_64::*;

    // The error classes of the paper's lookup tables (one bit each; OVERLONG_4 and
    // TOO_LARGE_1000 share theirs, as there).
    const TOO_SHORT: u8 = 1 << 0;
    const TOO_LONG: u8 = 1 << 1;
    const OVERLONG_3: u8 = 1 << 2;
    const TOO_LARGE: u8 = 1 << 3;
    const SURROGATE: u8 = 1 << 4;
    const OVERLONG_2: u8 = 1 << 5;
    const TOO_LARGE_1000: u8 = 1 << 6;
    const OVERLONG_4: u8 = 1 << 6;
    const TWO_CONTS: u8 = 1 << 7;
    const CARRY: u8 = TOO_SHORT | TOO_LONG | TWO_CONTS;
    const LARGE: u8 = CARRY | TOO_LARGE | TOO_LARGE_1000;

    /// By the high nibble of the first byte of a pair.
    #[rustfmt::skip]
    static BYTE_1_HIGH: [u8; 16] = [
        // 0xxx: ASCII.
        TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG,
        // 10xx: continuation.
        TWO_CONTS, TWO_CONTS, TWO_CONTS, TWO_CONTS,
        // 1100, 1101: two-byte leads; 1110: three-byte; 1111: four-byte (and F5..FF).
        TOO_SHORT | OVERLONG_2,
        TOO_SHORT,
        TOO_SHORT | OVERLONG_3 | SURROGATE,
        TOO_SHORT | TOO_LARGE | TOO_LARGE_1000 | OVERLONG_4,
    ];
    /// By the low nibble of the first byte of a pair.
    #[rustfmt::skip]
    static BYTE_1_LOW: [u8; 16] = [
        CARRY | OVERLONG_3 | OVERLONG_2 | OVERLONG_4,
        CARRY | OVERLONG_2,
        CARRY, CARRY,
        CARRY | TOO_LARGE,
        LARGE, LARGE, LARGE, LARGE, LARGE, LARGE, LARGE, LARGE,
        LARGE | SURROGATE,
        LARGE, LARGE,
    ];
    /// By the high nibble of the second byte of a pair.
    #[rustfmt::skip]
    static BYTE_2_HIGH: [u8; 16] = [
        // 0xxx: ASCII.
        TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT,
        // 1000, 1001, 101x: continuation bytes by range.
        TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE_1000 | OVERLONG_4,
        TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE,
        TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
        TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
        // 11xx: leads.
        TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT,
    ];

    /// The step's constants, built once per kernel call.
    #[derive(Clone, Copy)]
    pub(crate) struct Consts {
        b1h: __m512i,
        b1l: __m512i,
        b2h: __m512i,
        /// Qwords 6 and 7 of the block before, then qwords 0..5 of this one.
        before: __m512i,
    }

    impl Consts {
        #[inline]
        #[target_feature(enable = "avx512f,avx512bw")]
        pub(crate) fn new() -> Consts {
            let table = |t: &[u8; 16]| {
                // SAFETY: `t` is 16 readable bytes; no alignment is required.
                _mm512_broadcast_i32x4(unsafe { _mm_loadu_si128(t.as_ptr().cast()) })
            };
            Consts {
                b1h: table(&BYTE_1_HIGH),
                b1l: table(&BYTE_1_LOW),
                b2h: table(&BYTE_2_HIGH),
                before: _mm512_set_epi64(5, 4, 3, 2, 1, 0, 15, 14),
            }
        }
    }

    /// The lanes of `input` where the lookup algorithm finds an error, given the 64 bytes
    /// before it (`prev`; zero, that is ASCII, before the start of a validated run) and the
    /// high nibbles of `input` (`ih`, which the encoder has computed already). An error in
    /// lane j involves lanes j-3..=j only.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    pub(crate) fn errors64(c: &Consts, input: __m512i, prev: __m512i, ih: __m512i) -> u64 {
        let nib = _mm512_set1_epi8(0x0F);
        // Each 128-bit lane gets the one before it, for `palignr`.
        let shifted = _mm512_permutex2var_epi64(input, c.before, prev);
        let prev1 = _mm512_alignr_epi8::<15>(input, shifted);
        let prev2 = _mm512_alignr_epi8::<14>(input, shifted);
        let prev3 = _mm512_alignr_epi8::<13>(input, shifted);
        let p1h = _mm512_and_si512(_mm512_srli_epi16(prev1, 4), nib);
        let p1l = _mm512_and_si512(prev1, nib);
        let special = _mm512_and_si512(
            _mm512_and_si512(
                _mm512_shuffle_epi8(c.b1h, p1h),
                _mm512_shuffle_epi8(c.b1l, p1l),
            ),
            _mm512_shuffle_epi8(c.b2h, ih),
        );
        // The third byte after a three- or four-byte lead, the fourth after a four-byte one:
        // continuation bytes, which `special` marks with 0x80 (TWO_CONTS).
        let must23 = _mm512_cmpge_epu8_mask(prev2, _mm512_set1_epi8(0xE0u8 as i8))
            | _mm512_cmpge_epu8_mask(prev3, _mm512_set1_epi8(0xF0u8 as i8));
        let must23_80 = _mm512_maskz_mov_epi8(must23, _mm512_set1_epi8(0x80u8 as i8));
        let e = _mm512_xor_si512(must23_80, special);
        _mm512_test_epi8_mask(e, e)
    }
}

/// Whether `s` ends inside a character: a lead byte in one of its last three bytes whose
/// character needs more bytes than are left (RFC 3629 §3), for a block kernel that validated
/// up to the end of its input with no lane after it (`avx512::errors64` finds the rest).
#[cfg(target_arch = "x86_64")]
#[inline]
pub(crate) fn ends_inside_char(s: &[u8]) -> bool {
    let n = s.len();
    let at = |k: usize| if n >= k { s[n - k] } else { 0 };
    at(1) >= 0xC0 || at(2) >= 0xE0 || at(3) >= 0xF0
}

/// The obviously correct twin of [`validate`].
#[cfg(test)]
pub(crate) fn validate_naive(line: &[u8]) -> Result<(), usize> {
    std::str::from_utf8(line)
        .map(|_| ())
        .map_err(|e| e.valid_up_to())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn matches_twin_over_lengths_and_positions() {
        let text = "aé日\u{1F600}ß/".as_bytes();
        for len in 0..=130usize {
            let base: Vec<u8> = text.iter().copied().cycle().take(len).collect();
            assert_eq!(validate(&base), validate_naive(&base), "{base:02X?}");
            for p in 0..len {
                for b in [
                    0x00, 0x7F, 0x80, 0xBF, 0xC0, 0xC2, 0xE0, 0xED, 0xF4, 0xF5, 0xFF,
                ] {
                    let mut v = base.clone();
                    v[p] = b;
                    assert_eq!(validate(&v), validate_naive(&v), "{v:02X?}");
                }
            }
        }
    }

    #[test]
    fn valid_prefix_matches_std_over_lengths_and_positions() {
        let text = "aé日\u{1F600}ß/\n".as_bytes();
        for len in 0..=200usize {
            let base: Vec<u8> = text.iter().copied().cycle().take(len).collect();
            let std_prefix =
                |v: &[u8]| std::str::from_utf8(v).map_or_else(|e| e.valid_up_to(), |_| v.len());
            assert_eq!(valid_prefix(&base), std_prefix(&base), "{base:02X?}");
            for p in (0..len).step_by(3) {
                for b in [0x80, 0xC0, 0xE0, 0xED, 0xF4, 0xFF] {
                    let mut v = base.clone();
                    v[p] = b;
                    assert_eq!(valid_prefix(&v), std_prefix(&v), "{v:02X?}");
                }
            }
        }
    }

    proptest! {
        #[test]
        fn matches_twin(v in proptest::collection::vec(
            prop_oneof![4 => 0x20u8..0x7F, 3 => 0x80u8..0xC0, 2 => 0xC0u8..=0xFF], 0..150)) {
            prop_assert_eq!(validate(&v), validate_naive(&v));
        }
    }
}
