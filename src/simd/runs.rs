//! The starts of non-ASCII runs: the non-ASCII bytes that follow an ASCII byte. Issue 16's
//! combining-mark rule (`host::display::mark_base_unsafe`) looks at the character there: a
//! mark whose base is an ASCII delimiter can only start such a run.

/// Calls `f` with each offset `p` of `s` where `s[p] >= 0x80` and `s[p - 1] < 0x80` (at
/// `p == 0`: when `first` is true), in ascending order, until `f` returns true; returns
/// whether it did. Sixteen bytes at a time by their high bits ([`crate::simd::delims::high_mask16`]:
/// SSE2 on x86_64, a fold elsewhere); a line's last bytes by an overlapping block. Twin:
/// [`run_starts_naive`]; the test `run_starts_match_twin` compares them over length,
/// alignment and position.
#[inline]
pub(crate) fn any_run_start(s: &[u8], first: bool, mut f: impl FnMut(usize) -> bool) -> bool {
    let n = s.len();
    // Bit 0: whether the byte before the block is non-ASCII (before `s`: `!first`).
    let mut carry = u32::from(!first);
    let mut k = 0;
    while let Some(b) = s.get(k..).and_then(|t| t.first_chunk::<16>()) {
        let m = crate::simd::delims::high_mask16(b);
        let mut t = m & !(m << 1 | carry);
        carry = m >> 15;
        while t != 0 {
            let p = k + t.trailing_zeros() as usize;
            t &= t - 1;
            if f(p) {
                return true;
            }
        }
        k += 16;
    }
    if k == n {
        return false;
    }
    // The last block: the line's last sixteen bytes, of which the first `done` were seen
    // (the byte before lane `done` is lane `done - 1`); or a short text, zero-padded (zero is
    // ASCII).
    let (base, done, m) = match s.last_chunk::<16>() {
        Some(b) => (n - 16, k - (n - 16), crate::simd::delims::high_mask16(b)),
        None => (
            0,
            0,
            crate::simd::delims::high_mask16(&crate::simd::padded::<16>(s)),
        ),
    };
    let mut t = m & !(m << 1 | carry) & (u32::MAX << done);
    while t != 0 {
        let p = base + t.trailing_zeros() as usize;
        t &= t - 1;
        if f(p) {
            return true;
        }
    }
    false
}

/// The twin of [`any_run_start`]: every such offset, byte by byte.
#[cfg(any(test, feature = "twins"))]
pub(crate) fn run_starts_naive(s: &[u8], first: bool) -> Vec<usize> {
    (0..s.len())
        .filter(|&p| s[p] >= 0x80 && if p == 0 { first } else { s[p - 1] < 0x80 })
        .collect()
}

/// Panics unless [`any_run_start`] finds exactly [`run_starts_naive`]'s offsets in `s` and
/// in each of its suffixes, with and without `first`, and stops where it is told to. For the
/// fuzz target `simd_twin` and the tests; not part of the API.
#[cfg(any(test, feature = "twins"))]
#[doc(hidden)]
pub fn run_starts_twin_check(s: &[u8]) {
    for k in 0..s.len().min(40) {
        let t = &s[k..];
        for first in [false, true] {
            let want = run_starts_naive(t, first);
            let mut got = Vec::new();
            assert!(!any_run_start(t, first, |p| {
                got.push(p);
                false
            }));
            assert_eq!(got, want, "{t:02X?} first {first}");
            if let Some(&stop) = want.get(want.len() / 2) {
                let mut seen = Vec::new();
                assert!(any_run_start(t, first, |p| {
                    seen.push(p);
                    p == stop
                }));
                assert_eq!(seen.last(), Some(&stop));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_starts_match_twin() {
        // Every length to 70, every position of one or two non-ASCII runs, and a line of
        // alternating runs.
        for n in 0..70usize {
            for a in 0..n {
                for len in [1usize, 2, 3, 17] {
                    let mut v = vec![b'a'; n];
                    for x in v.iter_mut().skip(a).take(len) {
                        *x = 0xC3;
                    }
                    run_starts_twin_check(&v);
                    if a + len + 2 < n {
                        v[a + len + 2] = 0xE0;
                        run_starts_twin_check(&v);
                    }
                }
            }
        }
        let alt: Vec<u8> = (0..100)
            .map(|i| if i % 3 == 0 { b'/' } else { 0xD0 })
            .collect();
        run_starts_twin_check(&alt);
        assert_eq!(run_starts_naive(&alt, true).len(), 33);
    }

    proptest::proptest! {
        #[test]
        fn run_starts_match_twin_on_random_bytes(
            v in proptest::collection::vec(proptest::prop_oneof![
                proptest::strategy::Just(b'a'),
                proptest::strategy::Just(0x80u8),
                proptest::strategy::Just(0xE2u8),
                proptest::prelude::any::<u8>(),
            ], 0..100)
        ) {
            run_starts_twin_check(&v);
        }
    }
}
