//! Block classification for the bulk engine.
//!
//! The engine scans input in 64-byte blocks and, for each block, needs three
//! bitmasks (bit i = byte i of the block): LF bytes (0x0A), CR bytes (0x0D)
//! and *flagged* bytes, the bytes that send a line to the exact per-line
//! converter. The flagged bytes are a runtime [`ByteSet`]; LF and CR are never
//! reported as flagged, whatever the set says.
//!
//! A [`Classifier`] picks its implementation once, at construction: AVX2 when
//! the CPU has it, otherwise SSE2 on x86_64, and a portable table-driven
//! version elsewhere. `classify_naive` (with the `twins` feature) is the obviously correct reference.

pub mod delims;
pub(crate) mod pct;
#[cfg(any(test, feature = "twins"))]
#[doc(hidden)]
pub use pct::pct_twin_check;
pub(crate) mod hex;
#[cfg(any(test, feature = "twins"))]
#[doc(hidden)]
pub use hex::hex_twin_check;
pub(crate) mod rtl;
#[cfg(any(test, feature = "twins"))]
#[doc(hidden)]
pub use rtl::rtl_twin_check;
pub(crate) mod runs;
mod scalar;
pub(crate) mod utf8;
#[cfg(any(test, feature = "twins"))]
#[doc(hidden)]
pub use runs::run_starts_twin_check;
#[cfg(any(test, feature = "twins"))]
#[doc(hidden)]
pub use utf8::utf8_twin_check;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86_64;

/// A set of bytes, 256 bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ByteSet([u64; 4]);

impl ByteSet {
    /// The set with no byte.
    pub const EMPTY: ByteSet = ByteSet([0; 4]);
    /// The set with every byte.
    pub const FULL: ByteSet = ByteSet([u64::MAX; 4]);

    /// Whether `b` is in the set.
    pub const fn contains(&self, b: u8) -> bool {
        (self.0[(b >> 6) as usize] >> (b & 63)) & 1 != 0
    }

    /// The set with `b` added.
    #[must_use]
    pub const fn with(self, b: u8) -> ByteSet {
        let mut w = self.0;
        w[(b >> 6) as usize] |= 1 << (b & 63);
        ByteSet(w)
    }

    /// The set with `b` removed.
    #[must_use]
    pub const fn without(self, b: u8) -> ByteSet {
        let mut w = self.0;
        w[(b >> 6) as usize] &= !(1 << (b & 63));
        ByteSet(w)
    }

    /// The set with every byte of `lo..=hi` added (nothing if `lo > hi`).
    #[must_use]
    pub const fn with_range(self, lo: u8, hi: u8) -> ByteSet {
        let mut s = self;
        let mut b = lo as u16;
        while b <= hi as u16 {
            s = s.with(b as u8);
            b += 1;
        }
        s
    }

    /// The set of the bytes in `bytes`.
    pub const fn from_bytes(bytes: &[u8]) -> ByteSet {
        let mut s = ByteSet::EMPTY;
        let mut i = 0;
        while i < bytes.len() {
            s = s.with(bytes[i]);
            i += 1;
        }
        s
    }

    /// The bytes in either set.
    #[must_use]
    pub const fn union(self, other: ByteSet) -> ByteSet {
        let (a, b) = (self.0, other.0);
        ByteSet([a[0] | b[0], a[1] | b[1], a[2] | b[2], a[3] | b[3]])
    }

    /// The number of bytes in the set.
    pub const fn len(&self) -> u32 {
        let w = self.0;
        w[0].count_ones() + w[1].count_ones() + w[2].count_ones() + w[3].count_ones()
    }

    /// Whether the set has no byte.
    pub const fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl Default for ByteSet {
    /// The empty set.
    fn default() -> ByteSet {
        ByteSet::EMPTY
    }
}

/// Masks of one block; bit i refers to byte i.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BlockMasks {
    /// LF (0x0A) bytes.
    pub lf: u64,
    /// CR (0x0D) bytes.
    pub cr: u64,
    /// Bytes of the classifier's set, other than LF and CR.
    pub flag: u64,
    /// Bytes ≥ 0x80 (non-ASCII), whatever the set: the engine's walk tells a flagged line
    /// with non-ASCII bytes from an ASCII one by them, without a pass of its own over the
    /// line (issue 11).
    pub high: u64,
}

impl BlockMasks {
    /// The masks restricted to the bits set in `keep`.
    #[inline(always)]
    fn keep(self, keep: u64) -> BlockMasks {
        BlockMasks {
            lf: self.lf & keep,
            cr: self.cr & keep,
            flag: self.flag & keep,
            high: self.high & keep,
        }
    }
}

/// How far past each 64-byte block the SIMD classifiers ask the CPU to prefetch: one window
/// of the engine's walk (4 KiB, `engine::worker`'s `WINDOW`), whose masks are computed in one
/// call and then walked, so the next window's bytes arrive while this one is walked. Issue
/// 11: `scripts/ab-wall`-style runs, one pinned thread, best of 5: 8 KiB measured the same;
/// so did windows of 2, 8 and 16 KiB with it.
pub(crate) const PREFETCH_AHEAD: usize = 4096;

/// Copies `bytes` (at most 64) into a zero-padded block; also returns the mask
/// of the bits that refer to real bytes.
#[inline]
fn pad(bytes: &[u8]) -> ([u8; 64], u64) {
    let block = padded::<64>(bytes);
    let keep = if bytes.len() >= 64 {
        u64::MAX
    } else {
        (1u64 << bytes.len()) - 1
    };
    (block, keep)
}

/// An implementation of the block classifier.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Impl {
    /// Portable table lookup, available everywhere.
    Scalar,
    /// SSE2 compares (x86_64 only). Sets with more than 24 separate runs of
    /// members fall back to the scalar table block by block.
    Sse2,
    /// AVX2 nibble lookup (x86_64 with AVX2, detected at run time).
    Avx2,
    /// The AVX2 lookup on 64-byte registers (x86_64 with AVX-512 F and BW, and BMI2 as the
    /// other AVX-512 kernels, detected at run time: `x86_64::has_avx512_bw`).
    Avx512,
}

impl Impl {
    /// Every implementation, slowest first.
    pub const ALL: [Impl; 4] = [Impl::Scalar, Impl::Sse2, Impl::Avx2, Impl::Avx512];

    /// Whether this CPU can run the implementation.
    pub fn is_available(self) -> bool {
        match self {
            Impl::Scalar => true,
            #[cfg(target_arch = "x86_64")]
            Impl::Sse2 => true,
            #[cfg(target_arch = "x86_64")]
            Impl::Avx2 => std::arch::is_x86_feature_detected!("avx2"),
            #[cfg(target_arch = "x86_64")]
            Impl::Avx512 => x86_64::has_avx512_bw(),
            #[cfg(not(target_arch = "x86_64"))]
            Impl::Sse2 | Impl::Avx2 | Impl::Avx512 => false,
        }
    }

    /// The fastest implementation this CPU can run.
    pub fn best() -> Impl {
        if Impl::Avx512.is_available() {
            Impl::Avx512
        } else if Impl::Avx2.is_available() {
            Impl::Avx2
        } else if Impl::Sse2.is_available() {
            Impl::Sse2
        } else {
            Impl::Scalar
        }
    }
}

/// The per-implementation state of a [`Classifier`].
#[derive(Clone, Debug)]
enum Engine {
    /// The scalar table (always present in [`Classifier::table`]).
    Scalar,
    /// SSE2 with the set compiled into compares.
    #[cfg(target_arch = "x86_64")]
    Sse2(Box<x86_64::Sse2Plan>),
    /// SSE2 requested, but the set is too scattered: scalar table.
    #[cfg(target_arch = "x86_64")]
    Sse2Fallback,
    /// AVX2 tables. Invariant: only built (in `Classifier::build`) after
    /// `is_x86_feature_detected!("avx2")` returned true.
    #[cfg(target_arch = "x86_64")]
    Avx2(x86_64::Avx2Tables),
    /// The same tables for AVX-512. Invariant: only built (in `Classifier::build`) after
    /// `Impl::Avx512.is_available()` (AVX-512 F and BW detected) returned true.
    #[cfg(target_arch = "x86_64")]
    Avx512(x86_64::Avx2Tables),
}

/// A classifier for one [`ByteSet`] with the best implementation chosen once
/// at construction (AVX-512 where AVX-512 F and BW are detected, else AVX2 if
/// `is_x86_feature_detected!("avx2")`, else SSE2 on x86_64; scalar elsewhere).
#[derive(Clone, Debug)]
pub struct Classifier {
    set: ByteSet,
    table: scalar::Table,
    engine: Engine,
}

impl Classifier {
    /// A classifier for `set` using the fastest implementation of this CPU.
    pub fn new(set: ByteSet) -> Classifier {
        Classifier::build(set, Impl::best())
    }

    /// Forces an implementation (for tests and benchmarks). Returns `None` if
    /// the CPU lacks it.
    pub fn with_impl(set: ByteSet, imp: Impl) -> Option<Classifier> {
        imp.is_available().then(|| Classifier::build(set, imp))
    }

    /// Builds a classifier; `imp` must be available on this CPU.
    fn build(set: ByteSet, imp: Impl) -> Classifier {
        debug_assert!(imp.is_available());
        let engine = match imp {
            #[cfg(target_arch = "x86_64")]
            Impl::Sse2 => match x86_64::Sse2Plan::new(&set) {
                Some(plan) => Engine::Sse2(Box::new(plan)),
                None => Engine::Sse2Fallback,
            },
            // The guard makes the `Engine::Avx2` invariant local to this line.
            #[cfg(target_arch = "x86_64")]
            Impl::Avx2 if Impl::Avx2.is_available() => Engine::Avx2(x86_64::Avx2Tables::new(&set)),
            // The same for `Engine::Avx512`.
            #[cfg(target_arch = "x86_64")]
            Impl::Avx512 if Impl::Avx512.is_available() => {
                Engine::Avx512(x86_64::Avx2Tables::new(&set))
            }
            _ => Engine::Scalar,
        };
        Classifier {
            set,
            table: scalar::Table::new(&set),
            engine,
        }
    }

    /// The implementation in use.
    pub fn implementation(&self) -> Impl {
        match self.engine {
            Engine::Scalar => Impl::Scalar,
            #[cfg(target_arch = "x86_64")]
            Engine::Sse2(_) | Engine::Sse2Fallback => Impl::Sse2,
            #[cfg(target_arch = "x86_64")]
            Engine::Avx2(_) => Impl::Avx2,
            #[cfg(target_arch = "x86_64")]
            Engine::Avx512(_) => Impl::Avx512,
        }
    }

    /// The set of flagged bytes (LF and CR are never flagged regardless).
    pub fn set(&self) -> ByteSet {
        self.set
    }

    /// Classifies `bytes` (len <= 64; bits at and above len are 0). The
    /// full-64 case is the hot one.
    ///
    /// # Panics
    ///
    /// If `bytes.len() > 64`.
    #[inline]
    pub fn classify(&self, bytes: &[u8]) -> BlockMasks {
        match <&[u8; 64]>::try_from(bytes) {
            Ok(block) => self.classify_block(block),
            Err(_) => self.classify_short(bytes),
        }
    }

    /// Classifies a full 64-byte block (the hot path of [`Classifier::classify`]).
    #[inline]
    pub fn classify_block(&self, block: &[u8; 64]) -> BlockMasks {
        match &self.engine {
            Engine::Scalar => scalar::classify64(&self.table, block),
            #[cfg(target_arch = "x86_64")]
            Engine::Sse2(plan) => x86_64::classify64_sse2(plan, block),
            #[cfg(target_arch = "x86_64")]
            Engine::Sse2Fallback => scalar::classify64(&self.table, block),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `Engine::Avx2` is only built by `Classifier::build` after
            // `Impl::Avx2.is_available()` detected AVX2 on this CPU, the only
            // requirement of the `target_feature(enable = "avx2")` callee.
            Engine::Avx2(tables) => unsafe { x86_64::classify64_avx2(tables, block) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `Engine::Avx512` is only built by `Classifier::build` after
            // `Impl::Avx512.is_available()` detected AVX-512 F and BW on this CPU, the only
            // requirement of the `target_feature(enable = "avx512f,avx512bw")` callee.
            Engine::Avx512(tables) => unsafe { x86_64::classify64_avx512(tables, block) },
        }
    }

    /// Classifies fewer than 64 bytes through a zero-padded block.
    #[cold]
    fn classify_short(&self, bytes: &[u8]) -> BlockMasks {
        assert!(
            bytes.len() <= 64,
            "Classifier::classify: {} bytes, at most 64 allowed",
            bytes.len()
        );
        let (block, keep) = pad(bytes);
        self.classify_block(&block).keep(keep)
    }

    /// The masks of every 64-byte block of `buf`, from its start; the last
    /// block may be partial (its bits past the end of `buf` are 0).
    pub fn scan(&self, buf: &[u8]) -> Vec<BlockMasks> {
        let mut out = Vec::with_capacity(buf.len().div_ceil(64));
        self.scan_into(buf, &mut out);
        out
    }

    /// Like [`Classifier::scan`], appending to `out` (the whole loop runs
    /// inside the chosen implementation).
    pub fn scan_into(&self, buf: &[u8], out: &mut Vec<BlockMasks>) {
        match &self.engine {
            Engine::Scalar => scalar::scan_into(&self.table, buf, out),
            #[cfg(target_arch = "x86_64")]
            Engine::Sse2(plan) => x86_64::scan_into_sse2(plan, buf, out),
            #[cfg(target_arch = "x86_64")]
            Engine::Sse2Fallback => scalar::scan_into(&self.table, buf, out),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `Engine::Avx2` is only built by `Classifier::build` after
            // `Impl::Avx2.is_available()` detected AVX2 on this CPU, the only
            // requirement of the `target_feature(enable = "avx2")` callee.
            Engine::Avx2(tables) => unsafe { x86_64::scan_into_avx2(tables, buf, out) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `Engine::Avx512` is only built by `Classifier::build` after
            // `Impl::Avx512.is_available()` detected AVX-512 F and BW on this CPU, the only
            // requirement of the `target_feature(enable = "avx512f,avx512bw")` callee.
            Engine::Avx512(tables) => unsafe { x86_64::scan_into_avx512(tables, buf, out) },
        }
    }
}

/// Reference: a naive byte loop, obviously correct (the twin of [`Classifier::classify`]; built for the
/// crate's tests and with the `twins` feature).
///
/// # Panics
///
/// If `bytes.len() > 64`.
#[cfg(any(test, feature = "twins"))]
pub fn classify_naive(set: &ByteSet, bytes: &[u8]) -> BlockMasks {
    assert!(bytes.len() <= 64, "classify_naive: more than 64 bytes");
    let mut m = BlockMasks::default();
    for (i, &b) in bytes.iter().enumerate() {
        let bit = 1u64 << i;
        if b >= 0x80 {
            m.high |= bit;
        }
        if b == b'\n' {
            m.lf |= bit;
        } else if b == b'\r' {
            m.cr |= bit;
        } else if set.contains(b) {
            m.flag |= bit;
        }
    }
    m
}

/// `classify_naive` of every 64-byte block of `buf`, from its start; the
/// last block may be partial.
#[cfg(any(test, feature = "twins"))]
pub fn scan_naive(set: &ByteSet, buf: &[u8]) -> Vec<BlockMasks> {
    buf.chunks(64).map(|b| classify_naive(set, b)).collect()
}

/// Panics unless every classifier this CPU has gives [`scan_naive`]'s masks on `data`, from
/// each of its first 64 starts (every alignment), for each of `sets` (the fuzz target passes
/// the engine's: to-uri, LEIRI, to-iri; `simd` sits below `engine` and does not name them)
/// and a set made of `data`'s first 32 bytes (each byte `b` of them adds `b`; so sets with
/// high bytes, scattered bytes and runs). For the fuzz target `simd_twin`; not part of the
/// API.
#[cfg(any(test, feature = "twins"))]
#[doc(hidden)]
pub fn classifier_twin_check(data: &[u8], sets: &[ByteSet]) {
    let own = ByteSet::from_bytes(&data[..data.len().min(32)]);
    for &set in sets.iter().chain([&own]) {
        let cs: Vec<Classifier> = Impl::ALL
            .iter()
            .filter_map(|&imp| Classifier::with_impl(set, imp))
            .collect();
        for from in 0..data.len().min(64) {
            let buf = &data[from..];
            // The twin's masks once per start, for every implementation.
            let want = scan_naive(&set, buf);
            for c in &cs {
                assert_eq!(c.scan(buf), want, "{:?} from {from}", c.implementation());
            }
        }
    }
}

/// The first `N` (at most 64) bytes of `s` (all of it when shorter), zero-padded to `N` bytes: what a
/// block kernel loads at the end of its input, where a full block would read past it. The
/// copy is made of fixed-size moves (16, 8, 4 bytes, overlapping where the length is not a
/// multiple), not a `memcpy` call, which costs more than the kernel on short tails (issue
/// #11, thirteenth pass). The twin is `s[..n]` then zeros (the test
/// `padded_is_the_prefix_then_zeros`).
#[inline(always)]
pub(crate) fn padded<const N: usize>(s: &[u8]) -> [u8; N] {
    let mut b = [0u8; N];
    let n = s.len().min(N);
    let (s, d) = (&s[..n], &mut b[..n]);
    const { assert!(N <= 64, "padded: at most 64 bytes") };
    if n >= 16 {
        // Unrolled: a loop here is turned back into a `memcpy` call by the compiler.
        d[..16].copy_from_slice(&s[..16]);
        if n >= 32 {
            d[16..32].copy_from_slice(&s[16..32]);
            if n >= 48 {
                d[32..48].copy_from_slice(&s[32..48]);
            }
        }
        d[n - 16..].copy_from_slice(&s[n - 16..]);
    } else if n >= 8 {
        d[..8].copy_from_slice(&s[..8]);
        d[n - 8..].copy_from_slice(&s[n - 8..]);
    } else if n >= 4 {
        d[..4].copy_from_slice(&s[..4]);
        d[n - 4..].copy_from_slice(&s[n - 4..]);
    } else {
        for (x, &y) in d.iter_mut().zip(s) {
            *x = y;
        }
    }
    b
}

#[cfg(test)]
mod tests {
    //! Test budget (debug build, 2 cores): the SIMD code is not inlined at
    //! opt-level 0, so whole-buffer scans cost tens of ns per byte. To keep
    //! `cargo test` around a few seconds:
    //! * planted bytes: every length 0..=520 and every position, with one
    //!   flagged, one LF and one CR plant per 64-byte block per buffer (64
    //!   rotated buffers put each kind at every position; blocks are
    //!   classified independently, so this checks the same as one plant per
    //!   buffer), at one alignment per length, rotating so that all 64
    //!   alignments occur;
    //! * random fills: every length 0..=520 at all 64 alignments for the
    //!   to-uri set, at 4 rotating alignments per length for the other sets;
    //! * random sets: a seeded generator, a few hundred buffers.

    use super::*;

    /// Bytes the project's to-uri mode flags.
    const TO_URI: ByteSet = ByteSet::EMPTY
        .with_range(0x00, 0x1F)
        .with_range(0x7F, 0xFF)
        .union(ByteSet::from_bytes(b" \"<>\\^`{|}%#[]@"));

    /// A small deterministic generator (xorshift64*).
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
        }
        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
        fn byte(&mut self) -> u8 {
            self.next() as u8
        }
    }

    /// The fixed sets every exhaustive test runs on, with names.
    fn sets() -> Vec<(&'static str, ByteSet)> {
        let mut scattered30 = ByteSet::EMPTY;
        for i in 0..30 {
            scattered30 = scattered30.with(0x21 + 3 * i);
        }
        let mut scattered20 = ByteSet::EMPTY.with_range(0xE0, 0xEF).with(0);
        for i in 0..20 {
            scattered20 = scattered20.with(0x22 + 5 * i);
        }
        vec![
            ("to-uri", TO_URI),
            ("to-uri without TAB", TO_URI.without(b'\t')),
            ("empty", ByteSet::EMPTY),
            ("full", ByteSet::FULL),
            ("high only", ByteSet::EMPTY.with_range(0x80, 0xFF)),
            ("30 scattered ASCII", scattered30),
            ("20 scattered + high run", scattered20),
            (
                "mixed high with LF/CR",
                ByteSet::from_bytes(b"\n\r\0abcdef\xC0\xFF").with_range(0x80, 0x9F),
            ),
        ]
    }

    /// A classifier per implementation this CPU has.
    fn classifiers(set: ByteSet) -> Vec<Classifier> {
        Impl::ALL
            .iter()
            .filter_map(|&imp| Classifier::with_impl(set, imp))
            .collect()
    }

    /// Checks every classifier against `expected` on `buf`, through `scan`
    /// and, if `per_block`, through `classify` on each (last partial) block.
    fn check(cs: &[Classifier], buf: &[u8], expected: &[BlockMasks], per_block: bool, what: &str) {
        for c in cs {
            let imp = c.implementation();
            assert_eq!(c.scan(buf), expected, "{imp:?} scan, {what}");
            if per_block {
                for (i, block) in buf.chunks(64).enumerate() {
                    let got = c.classify(block);
                    assert_eq!(got, expected[i], "{imp:?} classify block {i}, {what}");
                }
            }
        }
    }

    /// The masks of the single byte `b` at bit `bit`.
    fn masks_of(set: &ByteSet, b: u8, bit: usize) -> BlockMasks {
        let m = classify_naive(set, &[b]);
        BlockMasks {
            lf: m.lf << bit,
            cr: m.cr << bit,
            flag: m.flag << bit,
            high: m.high << bit,
        }
    }

    /// Plants, at every position of buffers of every length 0..=520, a
    /// flagged byte, an LF and a CR into a uniform background and checks all
    /// implementations. Each buffer gets one plant of each kind per 64-byte
    /// block, at offsets `(rot + block + 0/21/42) % 64`; the 64 rotations
    /// `rot` put each kind at every position.
    fn planted(name: &str, set: ByteSet) {
        let cs = classifiers(set);
        let members: Vec<u8> = (0..=255u8)
            .filter(|&b| set.contains(b) && b != b'\n' && b != b'\r')
            .collect();
        let others: Vec<u8> = (0..=255u8)
            .filter(|&b| !set.contains(b) && b != b'\n' && b != b'\r')
            .collect();
        let mut storage = vec![0u8; 64 + 520];
        for len in 0..=520usize {
            // Background: a non-member when there is one, else a member.
            let bg = if others.is_empty() {
                members[len % members.len()]
            } else {
                others[len % others.len()]
            };
            // One alignment per length; 37 is odd, so all 64 occur.
            let align = (len * 37 + 11) % 64;
            storage.fill(bg);
            let bg_expected = scan_naive(&set, &storage[align..align + len]);
            for rot in 0..64 {
                let mut expected = bg_expected.clone();
                let buf = &mut storage[align..align + len];
                for (blk, exp) in expected.iter_mut().enumerate() {
                    // The flagged byte varies over the whole set.
                    let flagged = if members.is_empty() {
                        bg
                    } else {
                        members[(rot * 7 + blk + len) % members.len()]
                    };
                    for (shift, b) in [(0, flagged), (21, b'\n'), (42, b'\r')] {
                        let pos = (rot + blk + shift) % 64;
                        let p = blk * 64 + pos;
                        if p >= len {
                            continue;
                        }
                        buf[p] = b;
                        let bit = 1u64 << pos;
                        let new = masks_of(&set, b, pos);
                        exp.lf = (exp.lf & !bit) | new.lf;
                        exp.cr = (exp.cr & !bit) | new.cr;
                        exp.flag = (exp.flag & !bit) | new.flag;
                        exp.high = (exp.high & !bit) | new.high;
                    }
                }
                let buf = &storage[align..align + len];
                if rot % 16 == 0 {
                    assert_eq!(scan_naive(&set, buf), expected, "naive, {name}");
                }
                let what = format!("{name}: len {len} align {align} rot {rot}");
                check(&cs, buf, &expected, rot % 16 == 1, &what);
                storage.fill(bg);
            }
        }
    }

    fn random_fills(name: &str, set: ByteSet, all_alignments: bool, seed: u64) {
        let cs = classifiers(set);
        let members: Vec<u8> = (0..=255u8).filter(|&b| set.contains(b)).collect();
        let mut rng = Rng(seed);
        let mut storage = vec![0u8; 64 + 520];
        for len in 0..=520usize {
            let aligns: Vec<usize> = if all_alignments {
                (0..64).collect()
            } else {
                (0..4).map(|i| (len * 13 + i * 16 + i) % 64).collect()
            };
            for align in aligns {
                for b in storage.iter_mut() {
                    *b = match rng.below(8) {
                        0 => b'\n',
                        1 => b'\r',
                        2 | 3 if !members.is_empty() => members[rng.below(members.len())],
                        4 => b'a' + rng.below(26) as u8,
                        _ => rng.byte(),
                    };
                }
                let buf = &storage[align..align + len];
                let expected = scan_naive(&set, buf);
                let what = format!("{name}: random fill len {len} align {align}");
                check(&cs, buf, &expected, align % 8 == 0, &what);
            }
        }
    }

    #[test]
    fn padded_is_the_prefix_then_zeros() {
        fn check<const N: usize>(s: &[u8]) {
            let n = s.len().min(N);
            let mut want = [0u8; N];
            want[..n].copy_from_slice(&s[..n]);
            assert_eq!(padded::<N>(s), want, "{N} {s:?}");
        }
        let src: Vec<u8> = (1..=70).collect();
        for len in 0..=70 {
            check::<16>(&src[..len]);
            check::<48>(&src[..len]);
            check::<64>(&src[..len]);
        }
    }

    #[test]
    fn planted_bytes_first_half_of_sets() {
        for (name, set) in &sets()[..4] {
            planted(name, *set);
        }
    }

    #[test]
    fn planted_bytes_second_half_of_sets() {
        for (name, set) in &sets()[4..] {
            planted(name, *set);
        }
    }

    #[test]
    fn random_fills_to_uri_all_alignments() {
        random_fills("to-uri", TO_URI, true, 0x1234_5678_9ABC_DEF1);
    }

    /// The fuzz target's check ([`classifier_twin_check`]) on random buffers of crawl-like and
    /// arbitrary bytes, 0 to 300 bytes long: it runs, and every classifier passes it.
    #[test]
    fn classifier_twin_check_passes_on_random_buffers() {
        let mut rng = Rng(0x5EED_C1A5_51F1_E700);
        let alphabet = b"htps:/w.example?q=%#[]@ \r\n\t\x00\x7f\xc3\xa4\xe2\x80\xae\xff";
        for len in 0..300 {
            let buf: Vec<u8> = (0..len)
                .map(|_| {
                    if rng.next().is_multiple_of(3) {
                        rng.byte()
                    } else {
                        alphabet[rng.below(alphabet.len())]
                    }
                })
                .collect();
            classifier_twin_check(&buf, &[TO_URI, ByteSet::EMPTY]);
        }
    }

    #[test]
    fn random_fills_other_sets() {
        for (i, (name, set)) in sets().into_iter().enumerate().skip(1) {
            random_fills(name, set, false, 0x00DD_BA11 + i as u64);
        }
    }

    #[test]
    fn random_sets() {
        let mut rng = Rng(0x005E_ED0F_5E75);
        let mut storage = vec![0u8; 64 + 300];
        for round in 0..2000 {
            // Sets of varying density and structure: random bytes, runs, and
            // sometimes all of 0x80..=0xFF.
            let mut set = ByteSet::EMPTY;
            let density = rng.below(5);
            for b in 0..=255u8 {
                if rng.below(8) < density {
                    set = set.with(b);
                }
            }
            for _ in 0..rng.below(4) {
                let lo = rng.byte();
                let hi = lo.saturating_add(rng.byte() % 40);
                set = set.with_range(lo, hi);
            }
            match rng.below(4) {
                0 => set = set.with_range(0x80, 0xFF),
                1 => set = set.union(TO_URI),
                _ => {}
            }
            let cs = classifiers(set);
            let len = rng.below(300);
            let align = rng.below(64);
            for b in storage.iter_mut() {
                *b = match rng.below(10) {
                    0 => b'\n',
                    1 => b'\r',
                    _ => rng.byte(),
                };
            }
            let buf = &storage[align..align + len];
            let expected = scan_naive(&set, buf);
            check(
                &cs,
                buf,
                &expected,
                true,
                &format!("random set {round}: {set:?}"),
            );
        }
    }

    #[test]
    fn byteset_operations() {
        let s = ByteSet::EMPTY.with(0).with(63).with(64).with(255);
        for b in 0..=255u8 {
            assert_eq!(s.contains(b), matches!(b, 0 | 63 | 64 | 255), "{b}");
        }
        assert_eq!(s.len(), 4);
        assert_eq!(s.without(63).without(63).len(), 3);
        assert!(!s.without(255).contains(255));
        assert_eq!(ByteSet::EMPTY.with_range(0, 255), ByteSet::FULL);
        assert_eq!(ByteSet::EMPTY.with_range(9, 8), ByteSet::EMPTY);
        assert_eq!(
            ByteSet::EMPTY.with_range(b'a', b'c'),
            ByteSet::from_bytes(b"cab")
        );
        assert_eq!(ByteSet::FULL.len(), 256);
        assert!(ByteSet::default().is_empty());
        assert_eq!(TO_URI.len(), 32 + 129 + 15);
    }

    #[test]
    fn implementation_choice() {
        assert_eq!(Classifier::new(TO_URI).implementation(), Impl::best());
        assert!(Impl::Scalar.is_available());
        for imp in Impl::ALL {
            let c = Classifier::with_impl(TO_URI, imp);
            assert_eq!(c.is_some(), imp.is_available());
            if let Some(c) = c {
                assert_eq!(c.implementation(), imp);
                assert_eq!(c.set(), TO_URI);
            }
        }
        #[cfg(target_arch = "x86_64")]
        {
            assert!(Impl::Sse2.is_available());
            let avx512 = std::arch::is_x86_feature_detected!("avx512f")
                && std::arch::is_x86_feature_detected!("avx512bw");
            if avx512 {
                assert_eq!(Impl::best(), Impl::Avx512);
            } else if std::arch::is_x86_feature_detected!("avx2") {
                assert_eq!(Impl::best(), Impl::Avx2);
            }
        }
    }

    #[test]
    #[cfg(target_arch = "x86_64")]
    fn sse2_plans_and_fallback_are_both_exercised() {
        let sets = sets();
        let engine = |name: &str| {
            let set = sets.iter().find(|(n, _)| *n == name).map(|(_, s)| *s);
            Classifier::with_impl(set.unwrap_or_default(), Impl::Sse2).map(|c| c.engine)
        };
        assert!(matches!(engine("to-uri"), Some(Engine::Sse2(_))));
        assert!(matches!(
            engine("20 scattered + high run"),
            Some(Engine::Sse2(_))
        ));
        assert!(matches!(
            engine("30 scattered ASCII"),
            Some(Engine::Sse2Fallback)
        ));
    }

    #[test]
    fn scan_into_appends() {
        let c = Classifier::new(TO_URI);
        let mut out = vec![BlockMasks::default()];
        c.scan_into(b"a\nb\r c", &mut out);
        let expected = BlockMasks {
            lf: 0b10,
            cr: 0b1000,
            flag: 0b10000,
            high: 0,
        };
        assert_eq!(out, [BlockMasks::default(), expected]);
        let mut out = Vec::new();
        c.scan_into("a\u{e9}\n".as_bytes(), &mut out);
        assert_eq!(out[0].high, 0b110);
        assert!(c.scan(b"").is_empty());
    }

    #[test]
    fn line_ends_are_never_flagged() {
        let buf: Vec<u8> = (0..64)
            .map(|i| if i % 3 == 0 { b'\n' } else { b'\r' })
            .collect();
        for c in classifiers(ByteSet::FULL) {
            let m = c.classify(&buf);
            assert_eq!(m.flag, 0, "{:?}", c.implementation());
            assert_eq!(m.lf | m.cr, u64::MAX);
        }
    }

    #[test]
    #[should_panic(expected = "at most 64")]
    fn classify_rejects_long_input() {
        let _ = Classifier::new(TO_URI).classify(&[0u8; 65]);
    }
}
