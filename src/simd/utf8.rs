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

    proptest! {
        #[test]
        fn matches_twin(v in proptest::collection::vec(
            prop_oneof![4 => 0x20u8..0x7F, 3 => 0x80u8..0xC0, 2 => 0xC0u8..=0xFF], 0..150)) {
            prop_assert_eq!(validate(&v), validate_naive(&v));
        }
    }
}
