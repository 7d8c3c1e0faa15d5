//! x86_64 block classifiers: SSE2 (baseline on x86_64, always usable) and
//! AVX2 (selected at run time by the caller after
//! `is_x86_feature_detected!("avx2")`).
//!
//! * AVX2 tests set membership with the nibble-lookup technique: for a byte
//!   `b = h << 4 | l` below 0x80, `lo[l]` holds one bit per high nibble `h`
//!   whose byte is in the set and `hi[h] = 1 << h`; `b` is a member iff
//!   `lo[l] & hi[h] != 0`. `vpshufb` returns 0 for indices with the sign bit
//!   set, so bytes >= 0x80 miss the low table by construction; when the set
//!   has any of them, they are looked up in a second table indexed by
//!   `b ^ 0x80` (which in turn misses for bytes below 0x80).
//! * SSE2 has no byte shuffle, so the set is compiled at construction into a
//!   short list of compares: the sign bit when the set holds all of
//!   0x80..=0xFF, unsigned range tests (`min_epu8`) for runs of consecutive
//!   members and equality tests for isolated members. Sets needing more than
//!   [`MAX_TERMS`] compares have no plan and the caller uses the scalar table.
//!
//! * AVX-512 (F and BW, selected at run time) runs the AVX2 lookup on a whole 64-byte block
//!   at once, its masks straight from compares into mask registers.
//!
//! LF and CR are never reported in the flag mask.

use core::arch::x86_64::{
    __m128i, __m256i, __m512i, _mm256_and_si256, _mm256_broadcastsi128_si256, _mm256_cmpeq_epi8,
    _mm256_loadu_si256, _mm256_movemask_epi8, _mm256_or_si256, _mm256_set1_epi8,
    _mm256_setzero_si256, _mm256_shuffle_epi8, _mm256_srli_epi16, _mm256_xor_si256, _mm_cmpeq_epi8,
    _mm_loadu_si128, _mm_min_epu8, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8, _mm_set_epi64x,
    _mm_setzero_si128, _mm_sub_epi8,
};

use super::{BlockMasks, ByteSet};

/// Whether the CPU runs the 64-lane byte-compare AVX-512 kernels: AVX-512 F and BW, and BMI2
/// (masks from `bzhi`). std caches each detection.
#[inline]
pub(crate) fn has_avx512_bw() -> bool {
    std::arch::is_x86_feature_detected!("avx512bw")
        && std::arch::is_x86_feature_detected!("avx512f")
        && std::arch::is_x86_feature_detected!("bmi2")
}

/// Whether the CPU runs the byte-permuting AVX-512 kernels: AVX-512 F, BW and VBMI, and BMI2
/// (`vpermb`/`vpermi2b` on 64 lanes, masks from `bzhi`).
#[inline]
pub(crate) fn has_avx512_vbmi() -> bool {
    std::arch::is_x86_feature_detected!("avx512vbmi")
        && std::arch::is_x86_feature_detected!("avx512bw")
        && std::arch::is_x86_feature_detected!("avx512f")
        && std::arch::is_x86_feature_detected!("bmi2")
}

/// The most compares (ranges plus single bytes) an SSE2 plan may hold.
pub(crate) const MAX_TERMS: usize = 24;

// SSE2 is part of the x86_64 baseline: every x86_64 CPU has it. The
// `target_feature(enable = "sse2")` functions below are therefore sound to call
// from any context; the assertion turns a build that disabled SSE2 anyway
// (`-C target-feature=-sse2`) into a compile error instead of unsoundness.
const _: () = assert!(cfg!(target_feature = "sse2"), "x86_64 without SSE2");

/// A `__m128i` holding `bytes` (lane i = `bytes[i]`), built without a load.
#[target_feature(enable = "sse2")]
fn m128_from_bytes(bytes: [u8; 16]) -> __m128i {
    let mut lo = [0u8; 8];
    let mut hi = [0u8; 8];
    lo.copy_from_slice(&bytes[..8]);
    hi.copy_from_slice(&bytes[8..]);
    _mm_set_epi64x(i64::from_le_bytes(hi), i64::from_le_bytes(lo))
}

/// `_mm_set1_epi8` taking a byte.
#[target_feature(enable = "sse2")]
#[inline]
fn splat(b: u8) -> __m128i {
    _mm_set1_epi8(b as i8)
}

/// Whether LF or CR, which never count as flagged, is `b`.
const fn is_line_end(b: u8) -> bool {
    b == b'\n' || b == b'\r'
}

// ---------------------------------------------------------------------------
// SSE2
// ---------------------------------------------------------------------------

/// A set compiled into SSE2 compares.
#[derive(Clone, Debug)]
pub(crate) struct Sse2Plan {
    /// The set holds every byte in 0x80..=0xFF: use the sign bit.
    high_all: bool,
    /// A run `0..=hi` of members, as `splat(hi)`: tested with one `min_epu8`.
    low: Option<__m128i>,
    /// Number of valid entries in `range_lo` / `range_span`.
    n_ranges: usize,
    /// `splat(lo)` for each run `lo..=hi` (lo > 0).
    range_lo: [__m128i; MAX_TERMS],
    /// `splat(hi - lo)` for each run.
    range_span: [__m128i; MAX_TERMS],
    /// Number of valid entries in `eq`.
    n_eq: usize,
    /// `splat(b)` for each isolated member `b`.
    eq: [__m128i; MAX_TERMS],
}

/// Maximal runs of consecutive members of `set` in `0..=last`.
fn runs(set: &ByteSet, last: u8) -> Vec<(u8, u8)> {
    let mut out: Vec<(u8, u8)> = Vec::new();
    let mut open: Option<u8> = None;
    for b in 0..=last {
        match (set.contains(b), open) {
            (true, None) => open = Some(b),
            (false, Some(lo)) => {
                out.push((lo, b - 1));
                open = None;
            }
            _ => {}
        }
    }
    if let Some(lo) = open {
        out.push((lo, last));
    }
    out
}

impl Sse2Plan {
    /// Compiles `set`; `None` if it needs more than [`MAX_TERMS`] compares.
    pub(crate) fn new(set: &ByteSet) -> Option<Sse2Plan> {
        // SAFETY: SSE2 is always available on x86_64 (see the assertion at
        // the top of this file).
        unsafe { Sse2Plan::build(set) }
    }

    #[target_feature(enable = "sse2")]
    fn build(set: &ByteSet) -> Option<Sse2Plan> {
        let high_all = (0x80..=0xFFu8).all(|b| set.contains(b));
        let last = if high_all { 0x7F } else { 0xFF };
        // LF and CR are removed from the flag mask afterwards, so they are
        // "don't care" here: use whichever choice gives fewer runs.
        let without = set.without(b'\n').without(b'\r');
        let with = set.with(b'\n').with(b'\r');
        let (a, b) = (runs(&without, last), runs(&with, last));
        let runs = if b.len() < a.len() { b } else { a };
        if runs.len() > MAX_TERMS {
            return None;
        }
        let mut plan = Sse2Plan {
            high_all,
            low: None,
            n_ranges: 0,
            range_lo: [_mm_setzero_si128(); MAX_TERMS],
            range_span: [_mm_setzero_si128(); MAX_TERMS],
            n_eq: 0,
            eq: [_mm_setzero_si128(); MAX_TERMS],
        };
        for (lo, hi) in runs {
            if lo == 0 {
                plan.low = Some(splat(hi));
            } else if lo == hi {
                plan.eq[plan.n_eq] = splat(lo);
                plan.n_eq += 1;
            } else {
                plan.range_lo[plan.n_ranges] = splat(lo);
                plan.range_span[plan.n_ranges] = splat(hi - lo);
                plan.n_ranges += 1;
            }
        }
        Some(plan)
    }
}

/// Loads a 64-byte block as four vectors.
#[target_feature(enable = "sse2")]
#[inline]
fn load4(block: &[u8; 64]) -> [__m128i; 4] {
    let p = block.as_ptr();
    // SAFETY: `block` is 64 readable bytes, and the four 16-byte loads read
    // offsets 0..16, 16..32, 32..48 and 48..64; `loadu` has no alignment
    // requirement; SSE2 is enabled (`target_feature`).
    unsafe {
        [
            _mm_loadu_si128(p.cast::<__m128i>()),
            _mm_loadu_si128(p.add(16).cast::<__m128i>()),
            _mm_loadu_si128(p.add(32).cast::<__m128i>()),
            _mm_loadu_si128(p.add(48).cast::<__m128i>()),
        ]
    }
}

/// The sign bits of four vectors as one 64-bit mask.
#[target_feature(enable = "sse2")]
#[inline]
fn movemask4(v: [__m128i; 4]) -> u64 {
    let mut m = 0u64;
    for (i, x) in v.into_iter().enumerate() {
        m |= u64::from(_mm_movemask_epi8(x) as u16) << (16 * i);
    }
    m
}

/// Byte-equality mask of four vectors against `c`.
#[target_feature(enable = "sse2")]
#[inline]
fn eq_mask4(v: &[__m128i; 4], c: __m128i) -> u64 {
    movemask4([
        _mm_cmpeq_epi8(v[0], c),
        _mm_cmpeq_epi8(v[1], c),
        _mm_cmpeq_epi8(v[2], c),
        _mm_cmpeq_epi8(v[3], c),
    ])
}

/// Classifies one full 64-byte block with SSE2.
#[inline]
pub(crate) fn classify64_sse2(plan: &Sse2Plan, block: &[u8; 64]) -> BlockMasks {
    // SAFETY: SSE2 is always available on x86_64 (see the top of this file).
    unsafe { sse2_block64(plan, block) }
}

/// [`classify64_sse2`] with the feature enabled.
#[target_feature(enable = "sse2")]
#[inline]
fn sse2_block64(plan: &Sse2Plan, block: &[u8; 64]) -> BlockMasks {
    let v = load4(block);
    // Only the sign bit of each byte of `acc` matters (movemask), so OR-ing the
    // input itself flags every byte >= 0x80.
    let mut acc = if plan.high_all {
        v
    } else {
        [_mm_setzero_si128(); 4]
    };
    if let Some(hi) = plan.low {
        for (a, &x) in acc.iter_mut().zip(&v) {
            *a = _mm_or_si128(*a, _mm_cmpeq_epi8(_mm_min_epu8(x, hi), x));
        }
    }
    let ranges = plan.range_lo[..plan.n_ranges]
        .iter()
        .zip(&plan.range_span[..plan.n_ranges]);
    for (&lo, &span) in ranges {
        for (a, &x) in acc.iter_mut().zip(&v) {
            // x in lo..=lo+span  <=>  (x - lo) mod 256 <= span (unsigned).
            let t = _mm_sub_epi8(x, lo);
            *a = _mm_or_si128(*a, _mm_cmpeq_epi8(_mm_min_epu8(t, span), t));
        }
    }
    for &e in &plan.eq[..plan.n_eq] {
        for (a, &x) in acc.iter_mut().zip(&v) {
            *a = _mm_or_si128(*a, _mm_cmpeq_epi8(x, e));
        }
    }
    let lf = eq_mask4(&v, splat(b'\n'));
    let cr = eq_mask4(&v, splat(b'\r'));
    BlockMasks {
        lf,
        cr,
        flag: movemask4(acc) & !(lf | cr),
        high: movemask4(v),
    }
}

/// Asks the CPU to load into its caches the line [`super::PREFETCH_AHEAD`] bytes past
/// `block` (a hint: `prefetcht0` never faults and changes no result, so past the end of the
/// scanned buffer, or of any mapping, it is harmless). The classifier is the first to touch
/// the input's bytes, and its loads waited for memory: two thirds of its samples sat on them
/// (`perf annotate`, to-uri on the 10 % non-ASCII set); the hardware prefetchers do not cross
/// 4 KiB pages, the size of the engine's window.
#[target_feature(enable = "sse")]
#[inline]
fn prefetch_ahead(block: &[u8; 64]) {
    use core::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
    // A safe intrinsic with SSE enabled (x86_64's baseline; the callers enable SSE2 or
    // AVX2, which imply it): a prefetch reads nothing the program sees and cannot fault,
    // whatever the address (Intel SDM, PREFETCHh: "does not cause any exception"); the
    // pointer is only computed (`wrapping_add`), never read.
    _mm_prefetch::<_MM_HINT_T0>(block.as_ptr().wrapping_add(super::PREFETCH_AHEAD).cast());
}

/// The scan loop of the SIMD classifiers: `classify` on every full 64-byte block of `buf`
/// (each prefetching one window ahead), then on the zero-padded tail with its lanes past
/// the end cleared, appended to `out`. Inlined into each classifier's `target_feature`
/// function, whose closure (inheriting its features) classifies one block.
#[inline(always)]
fn scan_blocks(buf: &[u8], out: &mut Vec<BlockMasks>, classify: impl Fn(&[u8; 64]) -> BlockMasks) {
    let mut blocks = buf.chunks_exact(64);
    out.reserve(blocks.len() + 1);
    for block in blocks.by_ref() {
        if let Ok(block) = <&[u8; 64]>::try_from(block) {
            // SAFETY: `prefetch_ahead` needs SSE only, part of the x86_64 baseline (the
            // assertion at the top of this file), so every caller has it.
            unsafe { prefetch_ahead(block) };
            out.push(classify(block));
        }
    }
    let tail = blocks.remainder();
    if !tail.is_empty() {
        let (block, keep) = super::pad(tail);
        out.push(classify(&block).keep(keep));
    }
}

/// Appends the masks of every 64-byte block of `buf` to `out` (the last block
/// may be partial).
pub(crate) fn scan_into_sse2(plan: &Sse2Plan, buf: &[u8], out: &mut Vec<BlockMasks>) {
    // SAFETY: SSE2 is always available on x86_64 (see the top of this file).
    unsafe { sse2_scan(plan, buf, out) }
}

/// [`scan_into_sse2`] with the feature enabled.
#[target_feature(enable = "sse2")]
fn sse2_scan(plan: &Sse2Plan, buf: &[u8], out: &mut Vec<BlockMasks>) {
    scan_blocks(buf, out, |block| sse2_block64(plan, block));
}

// ---------------------------------------------------------------------------
// AVX2
// ---------------------------------------------------------------------------

/// Mode: no byte >= 0x80 is a member; one lookup table suffices.
const HIGH_NONE: u8 = 0;
/// Mode: some or all bytes >= 0x80 are members: second lookup table.
///
/// (A cheaper "all high bytes" mode OR-ing the sign bit of the input was
/// tried: rustc 1.95 / LLVM 22 scalarizes it into per-bit code inside the scan
/// loop, 2.6 GB/s instead of 17, so the table is used for that case too.)
const HIGH_MIXED: u8 = 1;

/// Nibble-lookup tables of one set (LF and CR removed).
#[derive(Clone, Debug)]
pub(crate) struct Avx2Tables {
    /// `lo_a[l]` bit h (h < 8): byte `h << 4 | l` is a member.
    lo_a: __m128i,
    /// `lo_b[l]` bit h (h < 8): byte `0x80 | h << 4 | l` is a member.
    lo_b: __m128i,
    /// `hi[h] = 1 << (h & 7)`.
    hi: __m128i,
    /// `HIGH_NONE` or `HIGH_MIXED`.
    mode: u8,
}

impl Avx2Tables {
    /// Builds the tables of `set`. Needs no CPU feature beyond SSE2.
    pub(crate) fn new(set: &ByteSet) -> Avx2Tables {
        // SAFETY: SSE2 is always available on x86_64 (see the top of this
        // file).
        unsafe { Avx2Tables::build(set) }
    }

    #[target_feature(enable = "sse2")]
    fn build(set: &ByteSet) -> Avx2Tables {
        let mut lo_a = [0u8; 16];
        let mut lo_b = [0u8; 16];
        let mut hi = [0u8; 16];
        for b in (0..=255u8).filter(|&b| set.contains(b) && !is_line_end(b)) {
            let (h, l) = (b >> 4, usize::from(b & 0x0F));
            if h < 8 {
                lo_a[l] |= 1 << h;
            } else {
                lo_b[l] |= 1 << (h - 8);
            }
        }
        for (h, e) in hi.iter_mut().enumerate() {
            *e = 1 << (h & 7);
        }
        let mode = if lo_b == [0; 16] {
            HIGH_NONE
        } else {
            HIGH_MIXED
        };
        Avx2Tables {
            lo_a: m128_from_bytes(lo_a),
            lo_b: m128_from_bytes(lo_b),
            hi: m128_from_bytes(hi),
            mode,
        }
    }
}

/// The tables broadcast to both 128-bit lanes, plus constants.
#[derive(Clone, Copy)]
struct Wide {
    lo_a: __m256i,
    lo_b: __m256i,
    hi: __m256i,
    nibble: __m256i,
    sign: __m256i,
    lf: __m256i,
    cr: __m256i,
}

impl Wide {
    #[target_feature(enable = "avx2")]
    #[inline]
    fn new(t: &Avx2Tables) -> Wide {
        Wide {
            lo_a: _mm256_broadcastsi128_si256(t.lo_a),
            lo_b: _mm256_broadcastsi128_si256(t.lo_b),
            hi: _mm256_broadcastsi128_si256(t.hi),
            nibble: _mm256_set1_epi8(0x0F),
            sign: _mm256_set1_epi8(i8::MIN),
            lf: _mm256_set1_epi8(b'\n' as i8),
            cr: _mm256_set1_epi8(b'\r' as i8),
        }
    }
}

/// Membership bits of the 32 bytes of `v`.
#[target_feature(enable = "avx2")]
#[inline]
fn member32<const MODE: u8>(w: &Wide, v: __m256i) -> u32 {
    let high_nibbles = _mm256_and_si256(_mm256_srli_epi16::<4>(v), w.nibble);
    let hi = _mm256_shuffle_epi8(w.hi, high_nibbles);
    // Indices >= 0x80 select 0: bytes >= 0x80 miss `lo_a`.
    let mut lo = _mm256_shuffle_epi8(w.lo_a, v);
    if MODE == HIGH_MIXED {
        // `v ^ 0x80` has the sign bit set exactly for bytes < 0x80.
        let flipped = _mm256_xor_si256(v, w.sign);
        lo = _mm256_or_si256(lo, _mm256_shuffle_epi8(w.lo_b, flipped));
    }
    let non_member = _mm256_cmpeq_epi8(_mm256_and_si256(lo, hi), _mm256_setzero_si256());
    !(_mm256_movemask_epi8(non_member) as u32)
}

/// Joins two 32-bit lane masks.
#[inline(always)]
fn join(lo: u32, hi: u32) -> u64 {
    u64::from(lo) | (u64::from(hi) << 32)
}

/// Classifies one 64-byte block with prepared constants.
#[target_feature(enable = "avx2")]
#[inline]
fn block64<const MODE: u8>(w: &Wide, block: &[u8; 64]) -> BlockMasks {
    let p = block.as_ptr();
    // SAFETY: `block` is 64 readable bytes and the two 32-byte loads read
    // offsets 0..32 and 32..64; `loadu` has no alignment requirement; this
    // function is only entered with AVX2 enabled (`target_feature`).
    let (v0, v1) = unsafe {
        (
            _mm256_loadu_si256(p.cast::<__m256i>()),
            _mm256_loadu_si256(p.add(32).cast::<__m256i>()),
        )
    };
    let eq = |v: __m256i, c: __m256i| _mm256_movemask_epi8(_mm256_cmpeq_epi8(v, c)) as u32;
    BlockMasks {
        lf: join(eq(v0, w.lf), eq(v1, w.lf)),
        cr: join(eq(v0, w.cr), eq(v1, w.cr)),
        flag: join(member32::<MODE>(w, v0), member32::<MODE>(w, v1)),
        high: join(
            _mm256_movemask_epi8(v0) as u32,
            _mm256_movemask_epi8(v1) as u32,
        ),
    }
}

/// Classifies one full 64-byte block with AVX2.
///
/// Callers must only call it where AVX2 was detected (it is `unsafe` to call
/// from code without the feature enabled).
#[target_feature(enable = "avx2")]
pub(crate) fn classify64_avx2(t: &Avx2Tables, block: &[u8; 64]) -> BlockMasks {
    let w = Wide::new(t);
    match t.mode {
        HIGH_NONE => block64::<HIGH_NONE>(&w, block),
        _ => block64::<HIGH_MIXED>(&w, block),
    }
}

/// The scan loop for one mode.
#[target_feature(enable = "avx2")]
#[inline]
fn scan_mode<const MODE: u8>(w: &Wide, buf: &[u8], out: &mut Vec<BlockMasks>) {
    scan_blocks(buf, out, |block| block64::<MODE>(w, block));
}

/// Appends the masks of every 64-byte block of `buf` to `out` (the last block
/// may be partial), with AVX2. Same calling condition as [`classify64_avx2`].
#[target_feature(enable = "avx2")]
pub(crate) fn scan_into_avx2(t: &Avx2Tables, buf: &[u8], out: &mut Vec<BlockMasks>) {
    let w = Wide::new(t);
    match t.mode {
        HIGH_NONE => scan_mode::<HIGH_NONE>(&w, buf, out),
        _ => scan_mode::<HIGH_MIXED>(&w, buf, out),
    }
}

// ---------------------------------------------------------------------------
// AVX-512 (F and BW)
// ---------------------------------------------------------------------------

/// The AVX2 tables broadcast to the four 128-bit lanes of a 512-bit register, plus
/// constants: the same nibble lookup as [`member32`], on a whole 64-byte block at once.
#[derive(Clone, Copy)]
struct Wide512 {
    lo_a: __m512i,
    lo_b: __m512i,
    hi: __m512i,
    nibble: __m512i,
    sign: __m512i,
    lf: __m512i,
    cr: __m512i,
}

impl Wide512 {
    #[target_feature(enable = "avx512f,avx512bw")]
    #[inline]
    fn new(t: &Avx2Tables) -> Wide512 {
        use core::arch::x86_64::{_mm512_broadcast_i32x4, _mm512_set1_epi8};
        Wide512 {
            lo_a: _mm512_broadcast_i32x4(t.lo_a),
            lo_b: _mm512_broadcast_i32x4(t.lo_b),
            hi: _mm512_broadcast_i32x4(t.hi),
            nibble: _mm512_set1_epi8(0x0F),
            sign: _mm512_set1_epi8(i8::MIN),
            lf: _mm512_set1_epi8(b'\n' as i8),
            cr: _mm512_set1_epi8(b'\r' as i8),
        }
    }
}

/// Classifies one 64-byte block with AVX-512: one load, and every mask straight from a
/// compare into a mask register (where AVX2 classifies two halves and joins their
/// `movemask`s). The membership test is [`member32`]'s.
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
fn block64_avx512<const MODE: u8>(w: &Wide512, block: &[u8; 64]) -> BlockMasks {
    use core::arch::x86_64::{
        _mm512_and_si512, _mm512_cmpeq_epi8_mask, _mm512_loadu_si512, _mm512_movepi8_mask,
        _mm512_or_si512, _mm512_shuffle_epi8, _mm512_srli_epi16, _mm512_test_epi8_mask,
        _mm512_xor_si512,
    };
    // SAFETY: `block` is 64 readable bytes, the one 64-byte load reads exactly them; `loadu`
    // has no alignment requirement; this function is only entered with AVX-512 F and BW
    // enabled (`target_feature`).
    let v = unsafe { _mm512_loadu_si512(block.as_ptr().cast()) };
    let high_nibbles = _mm512_and_si512(_mm512_srli_epi16::<4>(v), w.nibble);
    let hi = _mm512_shuffle_epi8(w.hi, high_nibbles);
    // Indices >= 0x80 select 0: bytes >= 0x80 miss `lo_a`.
    let mut lo = _mm512_shuffle_epi8(w.lo_a, v);
    if MODE == HIGH_MIXED {
        // `v ^ 0x80` has the sign bit set exactly for bytes < 0x80.
        let flipped = _mm512_xor_si512(v, w.sign);
        lo = _mm512_or_si512(lo, _mm512_shuffle_epi8(w.lo_b, flipped));
    }
    BlockMasks {
        lf: _mm512_cmpeq_epi8_mask(v, w.lf),
        cr: _mm512_cmpeq_epi8_mask(v, w.cr),
        flag: _mm512_test_epi8_mask(lo, hi),
        high: _mm512_movepi8_mask(v),
    }
}

/// Classifies one full 64-byte block with AVX-512.
///
/// Callers must only call it where AVX-512 F and BW were detected (it is `unsafe` to call
/// from code without the features enabled).
#[target_feature(enable = "avx512f,avx512bw")]
pub(crate) fn classify64_avx512(t: &Avx2Tables, block: &[u8; 64]) -> BlockMasks {
    let w = Wide512::new(t);
    match t.mode {
        HIGH_NONE => block64_avx512::<HIGH_NONE>(&w, block),
        _ => block64_avx512::<HIGH_MIXED>(&w, block),
    }
}

/// The AVX-512 scan loop for one mode.
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
fn scan_mode512<const MODE: u8>(w: &Wide512, buf: &[u8], out: &mut Vec<BlockMasks>) {
    scan_blocks(buf, out, |block| block64_avx512::<MODE>(w, block));
}

/// Appends the masks of every 64-byte block of `buf` to `out` (the last block may be
/// partial), with AVX-512. Same calling condition as [`classify64_avx512`].
#[target_feature(enable = "avx512f,avx512bw")]
pub(crate) fn scan_into_avx512(t: &Avx2Tables, buf: &[u8], out: &mut Vec<BlockMasks>) {
    let w = Wide512::new(t);
    match t.mode {
        HIGH_NONE => scan_mode512::<HIGH_NONE>(&w, buf, out),
        _ => scan_mode512::<HIGH_MIXED>(&w, buf, out),
    }
}

/// The lanes `3j` (j < 21) of a 64-lane block: the first lane of each of 21 three-byte
/// groups — a `%HH` triplet of `hex.rs`'s AVX-512 decoder, a byte's `%HH` or plain lane in
/// `pct.rs`'s AVX-512 expansion.
pub(crate) const THIRDS: u64 = 0x1249_2492_4924_9249;

/// [`hex_lanes`] for 64 lanes, as masks: `(digit, letter)`, the lanes of `0-9` and of
/// `A-F a-f` (RFC 3986 §2.1), for the AVX-512 kernels of `pct.rs` and `hex.rs`.
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
pub(crate) fn hex_masks64(v: core::arch::x86_64::__m512i) -> (u64, u64) {
    use core::arch::x86_64::*;
    let d = _mm512_sub_epi8(v, _mm512_set1_epi8(b'0' as i8));
    let digit = _mm512_cmplt_epu8_mask(d, _mm512_set1_epi8(10));
    let l = _mm512_sub_epi8(
        _mm512_or_si512(v, _mm512_set1_epi8(0x20)),
        _mm512_set1_epi8(b'a' as i8),
    );
    let letter = _mm512_cmplt_epu8_mask(l, _mm512_set1_epi8(6));
    (digit, letter)
}

/// Where the hex digits are among the 16 bytes of `v` (RFC 3986 §2.1, either case): the one
/// test of the `%HH` kernels (`pct.rs`'s triplet masks, `hex.rs`'s decoders). Returns
/// `(digit, d, letter, l)`: `digit` is 0xFF in the lanes of `0-9`, where `d = v - '0'` is the
/// value; `letter` 0xFF in those of `A-F a-f`, where `l = (v | 0x20) - 'a'` is the value minus
/// 10. Unsigned `x <= k` is `min(x, k) == x`. SSE2 only (the x86_64 baseline; the callers
/// enable SSSE3, or SSE2, themselves, so it is inlined into them).
#[inline]
#[target_feature(enable = "sse2")]
pub(crate) fn hex_lanes(v: __m128i) -> (__m128i, __m128i, __m128i, __m128i) {
    let d = _mm_sub_epi8(v, _mm_set1_epi8(b'0' as i8));
    let digit = _mm_cmpeq_epi8(_mm_min_epu8(d, _mm_set1_epi8(9)), d);
    let l = _mm_sub_epi8(
        _mm_or_si128(v, _mm_set1_epi8(0x20)),
        _mm_set1_epi8(b'a' as i8),
    );
    let letter = _mm_cmpeq_epi8(_mm_min_epu8(l, _mm_set1_epi8(5)), l);
    (digit, d, letter, l)
}

/// One 64-byte window of a line for the AVX-512 per-character kernels (`check`'s warnings
/// walk, `normalize`'s clean-line test): the lanes inside the line, the window's bytes and
/// the bytes one position later (zero past the line's end).
pub(crate) struct Window64 {
    pub(crate) lanes: u64,
    pub(crate) v: __m512i,
    pub(crate) next: __m512i,
}

/// The [`Window64`] of `b` at `i`.
///
/// # Panics
/// If `i >= b.len()`.
#[target_feature(enable = "avx512f,avx512bw,bmi2")]
#[inline]
pub(crate) fn window64(b: &[u8], i: usize) -> Window64 {
    use core::arch::x86_64::{_bzhi_u64, _mm512_maskz_loadu_epi8};
    assert!(i < b.len());
    let rem = b.len() - i;
    let lanes = _bzhi_u64(u64::MAX, rem.min(64) as u32);
    let next_lanes = _bzhi_u64(u64::MAX, (rem - 1).min(64) as u32);
    // SAFETY: the lanes read are `b[i..i + min(rem, 64)]` and `b[i + 1..][..min(rem - 1,
    // 64)]`, within `b` (`i < b.len()`: `b.as_ptr().add(i + 1)` is at most one past its
    // end); a masked load does not touch the memory of the lanes it leaves out.
    let (v, next) = unsafe {
        let p = b.as_ptr().add(i);
        (
            _mm512_maskz_loadu_epi8(lanes, p.cast()),
            _mm512_maskz_loadu_epi8(next_lanes, p.add(1).cast()),
        )
    };
    Window64 { lanes, v, next }
}

/// Lane i: `1 << (i & 7)` (`vpermb` reads an index's low six bits).
static POW2: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        t[i] = 1 << (i % 8);
        i += 1;
    }
    t
};

/// Where the character a lead byte in `v` starts (`next`: the byte after it) has its bit in
/// the per-character kernels' bitmaps: `(bit, i2, i3)`, the bit in its table byte (`1 <<
/// (next & 7)`) and the byte, for a two-byte character in a bitmap of U+0000–U+07FF (`i2`
/// = code point >> 3: the lead's five payload bits above the next byte's bits 3–5) and for
/// a three-byte one in a bitmap of the BMP's 64-code-point blocks (`i3` = block >> 3: the
/// lead's four payload bits above the same three). RFC 3629 §3's bit layout; meaningful
/// only in the lanes of such leads.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
#[inline]
pub(crate) fn lead_table_indices(v: __m512i, next: __m512i) -> (__m512i, __m512i, __m512i) {
    use core::arch::x86_64::{
        _mm512_and_si512, _mm512_loadu_si512, _mm512_or_si512, _mm512_permutexvar_epi8,
        _mm512_set1_epi8, _mm512_slli_epi16, _mm512_srli_epi16,
    };
    // SAFETY: POW2 is 64 bytes (an unaligned load).
    let pow2 = unsafe { _mm512_loadu_si512(POW2.as_ptr().cast()) };
    let bit = _mm512_permutexvar_epi8(next, pow2);
    let set1 = |x: u8| _mm512_set1_epi8(x as i8);
    // 16-bit shifts: the masks keep each byte's own bits.
    let upper = _mm512_and_si512(_mm512_srli_epi16(next, 3), set1(0x07));
    let i2 = _mm512_or_si512(_mm512_slli_epi16(_mm512_and_si512(v, set1(0x1F)), 3), upper);
    let i3 = _mm512_or_si512(_mm512_slli_epi16(_mm512_and_si512(v, set1(0x0F)), 3), upper);
    (bit, i2, i3)
}

/// The bytes an AVX2 per-character kernel (`check`'s warnings walk, `normalize`'s
/// clean-line test) reads for its 32-byte window at `b[i..]`: the window and the two bytes
/// after it. `b[i..]` itself when it has 34 bytes, else its bytes copied into `buf` with
/// zeros after them (a lane past the line's end is 0x00). The second value has the bits of
/// the window's lanes inside the line.
///
/// # Panics
/// If `i >= b.len()`.
#[inline]
pub(crate) fn window32<'a>(b: &'a [u8], i: usize, buf: &'a mut [u8; 34]) -> (&'a [u8], u32) {
    let rem = b.len() - i;
    assert!(rem > 0);
    if rem > 33 {
        // A window of 33 bytes leaves one to the next; 34 and up read only the line.
        (&b[i..], u32::MAX)
    } else {
        *buf = [0; 34];
        buf[..rem].copy_from_slice(&b[i..]);
        let lanes = if rem >= 32 { u32::MAX } else { (1 << rem) - 1 };
        (buf, lanes)
    }
}

/// The 32 bytes `w[k..k + 32]` (a [`window32`] slice, `k` ≤ 2).
///
/// # Panics
/// If `w` holds fewer than `k + 32` bytes.
#[target_feature(enable = "avx2")]
#[inline]
pub(crate) fn load32(w: &[u8], k: usize) -> __m256i {
    assert!(w.len() >= k + 32);
    // SAFETY: `w[k..k + 32]` is in bounds (just asserted); an unaligned load.
    unsafe { _mm256_loadu_si256(w.as_ptr().add(k).cast()) }
}

/// The 16 bytes of `p` in both 128-bit lanes (`vpshufb` looks up within a lane).
///
/// # Panics
/// If `p` is not 16 bytes long.
#[target_feature(enable = "avx2")]
#[inline]
pub(crate) fn broadcast16(p: &[u8]) -> __m256i {
    assert_eq!(p.len(), 16);
    // SAFETY: `p` has 16 bytes (just asserted), read unaligned.
    unsafe { _mm256_broadcastsi128_si256(_mm_loadu_si128(p.as_ptr().cast())) }
}

/// A table of 32 bytes looked up by the five payload bits of a two-byte UTF-8 lead (RFC
/// 3629 §3: the code point's 64-code-point block, U+0000–U+07FF) with AVX2: its halves in
/// both 128-bit lanes.
pub(crate) struct LeadTable32 {
    lo: __m256i,
    hi: __m256i,
}

impl LeadTable32 {
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(crate) fn new(t: &[u8; 32]) -> LeadTable32 {
        LeadTable32 {
            lo: broadcast16(&t[..16]),
            hi: broadcast16(&t[16..]),
        }
    }

    /// Lane i: byte `v[i] & 0x1F` of the table.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(crate) fn get(&self, v: __m256i) -> __m256i {
        use core::arch::x86_64::{_mm256_blendv_epi8, _mm256_slli_epi16};
        let lo4 = _mm256_and_si256(v, _mm256_set1_epi8(0x0F));
        // Bit 4 of the lead picks the half (moved to bit 7 for the blend).
        _mm256_blendv_epi8(
            _mm256_shuffle_epi8(self.lo, lo4),
            _mm256_shuffle_epi8(self.hi, lo4),
            _mm256_slli_epi16(v, 3),
        )
    }
}

/// Lane i: `1 << (idx[i] & 7)`: the bit of a bitmap byte that the three low bits of a
/// per-lane index pick.
#[target_feature(enable = "avx2")]
#[inline]
pub(crate) fn pow2_lanes(idx: __m256i) -> __m256i {
    _mm256_shuffle_epi8(
        broadcast16(&POW2[..16]),
        _mm256_and_si256(idx, _mm256_set1_epi8(7)),
    )
}

/// The per-character kernels' bitmap of the BMP's blocks of 64 code points with three-byte
/// forms (U+0800 and up, blocks 32–1023): bit `block & 7` of byte `block >> 3` when
/// `has(block)`, the layout [`Blocks3::bit`] and [`lead_table_indices`]' `i3` read. The
/// surrogates' blocks (U+D800–U+DFFF) hold no character and get no bit.
pub(crate) fn blocks3_bitmap(has: impl Fn(u32) -> bool) -> [u8; 128] {
    let mut t = [0; 128];
    for block in 32u32..1024 {
        if !(0xD800..0xE000).contains(&(block << 6)) && has(block) {
            t[(block >> 3) as usize] |= 1 << (block & 7);
        }
    }
    t
}

/// A bitmap of the BMP's 1024 blocks of 64 code points (bit `block & 7` of byte `block >> 3`,
/// 128 bytes) looked up per lane with AVX2: eight 16-byte pieces in both 128-bit lanes.
pub(crate) struct Blocks3 {
    pieces: [__m256i; 8],
}

impl Blocks3 {
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(crate) fn new(t: &[u8; 128]) -> Blocks3 {
        Blocks3 {
            pieces: core::array::from_fn(|g| broadcast16(&t[16 * g..][..16])),
        }
    }

    /// Lane i, for a three-byte lead `v[i]` followed by `next[i]` (RFC 3629 §3): nonzero
    /// when the bit of its character's block is set. Meaningful only in such lanes.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(crate) fn bit(&self, v: __m256i, next: __m256i) -> __m256i {
        use core::arch::x86_64::{_mm256_adds_epu8, _mm256_slli_epi16, _mm256_sub_epi8};
        let set1 = |x: u8| _mm256_set1_epi8(x as i8);
        // Block >> 3: the lead's four payload bits over the next byte's bits 3–5 (no bit
        // crosses a byte in either 16-bit shift); its byte of the bitmap by eight lookups,
        // each of the lanes whose index is in its sixteen (the others saturate to 0x80 and
        // up, which `vpshufb` reads as zero).
        let idx = _mm256_or_si256(
            _mm256_slli_epi16(_mm256_and_si256(v, set1(0x0F)), 3),
            _mm256_srli_epi16(_mm256_and_si256(next, set1(0x38)), 3),
        );
        let mut byte = _mm256_setzero_si256();
        for (g, piece) in self.pieces.iter().enumerate() {
            let k = _mm256_adds_epu8(_mm256_sub_epi8(idx, set1(16 * g as u8)), set1(0x70));
            byte = _mm256_or_si256(byte, _mm256_shuffle_epi8(*piece, k));
        }
        _mm256_and_si256(byte, pow2_lanes(next))
    }
}
