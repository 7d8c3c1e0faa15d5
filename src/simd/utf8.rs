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
