//! Percent-encoding kernel of IRI → URI (RFC 3987 §3.1 step 2; RFC 3986 §2.1 `pct-encoded`,
//! uppercase hex as §3.1 step 2.2 recommends).
//!
//! [`PctEncoder::encode_prefix`] appends the mapping of the longest prefix of a component that
//! holds no *stop* byte and returns its length. The mapping is per byte: ASCII bytes are copied,
//! bytes ≥ 0x80 become `%HH`. Stop bytes are the ones the converter must look at itself:
//!
//! * every ASCII byte that is not allowed as it is in a URI component (the complement of
//!   [`crate::classes::PLAIN_TABLE`] below 0x80: `%`, delimiters, disallowed printable ASCII,
//!   controls), and
//! * every byte ≥ 0x80 that is not a continuation byte and cannot prove on its own that its
//!   character is *quiet* — a character for which the converter's per-character check (C1
//!   control error, bidi formatting / private use / non-`ucschar` warning, RFC 3987 §2.2 and
//!   §4.1) says nothing, in every component. [`stop_table`] derives the set of quiet UTF-8 lead
//!   bytes from [`is_quiet`]: a lead byte is quiet when every scalar value it can start is.
//!   One loud character has a lead byte that is otherwise quiet, U+061C (`D8 9C`, bidi
//!   formatting since Unicode 6.3): the kernel stops at that byte pair instead of at every D8.
//!   `to_uri`'s tests check, over every code point, that the converter's `check_char` agrees.
//!
//! The caller guarantees that the component is valid UTF-8 (then continuation bytes only
//! follow the lead byte of their character, which the kernel passed or stopped at); the
//! kernel itself is a pure byte mapping and is safe on any input.
//!
//! Implementations, picked once by [`PctEncoder::new`]: AVX-512 (64-byte blocks, the last one
//! a masked load; expansion by byte permutations and `vpcompressb`, where the CPU has VBMI2),
//! AVX2 (32-byte blocks), SSSE3 (16-byte blocks), and the scalar twin
//! [`PctEncoder::encode_prefix_naive`]. Stop bytes are found with the nibble-table technique
//! of `src/simd/x86_64.rs` (two `pshufb` lookups per half of the byte range); blocks of plain
//! ASCII are stored as they are; in SSSE3 and AVX2 blocks of 16 non-ASCII bytes are expanded
//! to 48 bytes of `%HH` by three shuffles of the hex digits, mixed blocks by one shuffle per
//! group of four bytes.

use crate::grammar::classes::PLAIN_TABLE;

/// Uppercase hex digits (RFC 3987 §3.1 step 2.2).
const HEX: &[u8; 16] = b"0123456789ABCDEF";

/// Bidi formatting characters (RFC 3987 §4.1), with U+061C ARABIC LETTER MARK (Unicode 6.3),
/// which contract item 3 adds: listing one more character than the converter is only slower
/// (its lead byte D8 stops the kernel), never wrong.
const fn is_bidi_format(u: u32) -> bool {
    matches!(u, 0x061C | 0x200E | 0x200F | 0x202A..=0x202E | 0x2066..=0x2069)
}

/// `ucschar` of RFC 3987 §2.2.
const fn is_ucschar(u: u32) -> bool {
    match u {
        0xA0..=0xD7FF | 0xF900..=0xFDCF | 0xFDF0..=0xFFEF => true,
        0x10000..=0xDFFFF => (u & 0xFFFF) <= 0xFFFD,
        0xE1000..=0xEFFFD => true,
        _ => false,
    }
}

/// Whether the converter's per-character check (RFC 3987 §2.2, §4.1; 3987bis §6.1 for LEIRI)
/// is silent on scalar `u` in every component: not a C1 control; in LEIRI mode nothing else
/// is reported, otherwise also no bidi formatting character and a `ucschar` (private use is
/// quiet only in the query, so it is not quiet here).
pub(crate) const fn is_quiet(u: u32, leiri: bool) -> bool {
    // U+FFFE and U+FFFF are loud in LEIRI mode too (3987bis §6.3: not even allowed in LEIRIs).
    let not_leiri = match char::from_u32(u) {
        Some(c) => crate::grammar::classes::not_even_in_leiris(c),
        None => false,
    };
    u >= 0xA0 && !not_leiri && (leiri || (!is_bidi_format(u) && is_ucschar(u)))
}

/// The scalar values a UTF-8 lead byte can start (RFC 3629 §4), or `None` for bytes that are
/// no lead byte (ASCII, continuation bytes, C0, C1, F5..FF).
const fn lead_range(lead: u8) -> Option<(u32, u32)> {
    let l = lead as u32;
    match lead {
        0xC2..=0xDF => Some(((l & 0x1F) << 6, ((l & 0x1F) << 6) | 0x3F)),
        0xE0..=0xEF => {
            let base = (l & 0x0F) << 12;
            let lo = if base < 0x800 { 0x800 } else { base };
            Some((lo, base | 0xFFF))
        }
        0xF0..=0xF4 => {
            let base = (l & 0x07) << 18;
            let lo = if base < 0x10000 { 0x10000 } else { base };
            let hi = if base | 0x3FFFF > 0x10FFFF {
                0x10FFFF
            } else {
                base | 0x3FFFF
            };
            Some((lo, hi))
        }
        _ => None,
    }
}

/// U+061C ARABIC LETTER MARK, `D8 9C`: the one loud character whose lead byte starts only
/// quiet characters otherwise (the Arabic letters U+0600–U+063F). Rather than stopping at
/// every D8, the kernel stops at this byte pair.
const PAIR: [u8; 2] = [0xD8, 0x9C];
const PAIR_CHAR: u32 = 0x061C;

/// Whether every scalar value that `lead` starts is quiet, [`PAIR_CHAR`] aside (see
/// [`Tables::pair`]). Surrogates cannot occur in valid UTF-8 and are skipped. Scans from the top of the range: the loud ones (noncharacters at
/// the end of a plane, private use) are found at once.
const fn lead_is_quiet(lead: u8, leiri: bool) -> bool {
    let Some((lo, hi)) = lead_range(lead) else {
        return false;
    };
    if leiri {
        // In LEIRI mode only the C1 controls and U+FFFE, U+FFFF are loud; no lead byte starts
        // both C1 controls and characters above U+00BF, and EF starts U+FFFE and U+FFFF.
        return lo >= 0xA0 && !(lo <= 0xFFFE && hi >= 0xFFFF);
    }
    let mut u = hi;
    loop {
        let skipped = (u >= 0xD800 && u <= 0xDFFF) || u == PAIR_CHAR;
        if !skipped && !is_quiet(u, leiri) {
            return false;
        }
        if u == lo {
            return true;
        }
        u -= 1;
    }
}

/// The stop bytes: ASCII that is not plain (RFC 3986 `pchar` / `query` / `fragment` minus
/// `%`), and bytes ≥ 0x80 that are neither continuation bytes nor quiet lead bytes.
pub(crate) const fn stop_table(leiri: bool) -> [bool; 256] {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = if b < 0x80 {
            !PLAIN_TABLE[b]
        } else if b < 0xC0 {
            false
        } else {
            !lead_is_quiet(b as u8, leiri)
        };
        b += 1;
    }
    t
}

/// The nibble tables of a stop set (see `src/simd/x86_64.rs`): byte `b = h << 4 | l` stops iff
/// `lo_a[l] & hi_a[h] != 0` (h < 8) or `lo_h[l] & hi_h[h] != 0` (h ≥ 8).
#[derive(Debug)]
pub(crate) struct Tables {
    stop: [bool; 256],
    /// [`PAIR`] stops the kernel ([`PAIR_CHAR`] is loud in this mode).
    pair: bool,
    lo_a: [u8; 16],
    lo_h: [u8; 16],
}

/// The low-nibble rows of the byte set `set`, `[lo_a, lo_h]`: for each low nibble `l`, bit
/// `h` (of `lo_a`, for h < 8) or `h - 8` (of `lo_h`) set when the byte `h << 4 | l` is in
/// the set, so that `b` is in it iff `lo_a[l] & HI_A[h] | lo_h[l] & HI_H[h] != 0`. The
/// percent-encoder's stop set, and the crawl line's authority check
/// (`grammar::validate`).
pub(crate) const fn nibble_rows(set: &[bool; 256]) -> [[u8; 16]; 2] {
    let mut rows = [[0u8; 16]; 2];
    let mut b = 0;
    while b < 256 {
        if set[b] {
            let (h, l) = (b >> 4, b & 15);
            rows[h / 8][l] |= 1 << (h % 8);
        }
        b += 1;
    }
    rows
}

const fn tables(leiri: bool) -> Tables {
    let stop = stop_table(leiri);
    let [lo_a, lo_h] = nibble_rows(&stop);
    Tables {
        stop,
        pair: !is_quiet(PAIR_CHAR, leiri),
        lo_a,
        lo_h,
    }
}

static TABLES: [Tables; 2] = [tables(false), tables(true)];

/// `hi_a[h] = 1 << h` for h < 8, 0 above; `hi_h` the other way round ([`nibble_rows`]).
pub(crate) const HI_A: [u8; 16] = [1, 2, 4, 8, 16, 32, 64, 128, 0, 0, 0, 0, 0, 0, 0, 0];
const HI_H: [u8; 16] = [0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 4, 8, 16, 32, 64, 128];

/// Per byte, its output in the low bytes of a little-endian `u32`: the byte itself (ASCII) or
/// `%HH` (≥ 0x80).
#[cfg(test)]
static ENC: [u32; 256] = {
    let mut t = [0u32; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = if b < 0x80 {
            b as u32
        } else {
            b'%' as u32 | (HEX[b >> 4] as u32) << 8 | (HEX[b & 15] as u32) << 16
        };
        b += 1;
    }
    t
};

/// Whether the kernel stops at `s[i]`: a stop byte that is not `%` starting a triplet, or the
/// start of [`PAIR`] where it is loud.
#[inline(always)]
fn stops_at(t: &Tables, s: &[u8], i: usize) -> bool {
    (t.stop[s[i] as usize] && !is_triplet(s, i))
        || (t.pair && s[i] == PAIR[0] && s.get(i + 1) == Some(&PAIR[1]))
}

/// Whether the kernel (of LEIRI mode or not) stops at `s[i]`, for the converter's tests.
#[cfg(test)]
pub(crate) fn kernel_stops_at(leiri: bool, s: &[u8], i: usize) -> bool {
    stops_at(&TABLES[leiri as usize], s, i)
}

/// Adds to a stop mask (bit p = byte `at + p` of `s`, `width` bits) the starts of [`PAIR`]:
/// `lead` and `next` are the masks of its two bytes in the block; a lead in the last lane has
/// its next byte looked up in `s`.
#[inline(always)]
fn add_pairs(stop: u64, lead: u64, next: u64, width: u32, s: &[u8], at: usize) -> u64 {
    let mut pairs = lead & (next >> 1);
    let last = width - 1;
    if lead >> last & 1 != 0 && s.get(at + last as usize + 1) == Some(&PAIR[1]) {
        pairs |= 1 << last;
    }
    stop | pairs
}

/// Whether `s[i]` is `%` followed by two hex digits within `s` (RFC 3986 §2.1).
#[inline(always)]
fn is_triplet(s: &[u8], i: usize) -> bool {
    s[i] == b'%' && i + 2 < s.len() && s[i + 1].is_ascii_hexdigit() && s[i + 2].is_ascii_hexdigit()
}

/// Clears from a stop mask (bit p = byte `at + p` of `s`, `width` bits) the `%` bytes that
/// start a triplet: `pct` and `hex` are the masks of `%` and of hex digits in the block; a `%`
/// in the last two lanes has its digits checked in `s`.
#[inline(always)]
fn clear_triplets(stop: u64, pct: u64, hex: u64, width: u32, s: &[u8], at: usize) -> u64 {
    if pct == 0 {
        return stop;
    }
    let mut valid = pct & (hex >> 1) & (hex >> 2);
    let mut edge = pct & !valid & (0b11 << (width - 2));
    while edge != 0 {
        let p = edge.trailing_zeros();
        if is_triplet(s, at + p as usize) {
            valid |= 1 << p;
        }
        edge &= edge - 1;
    }
    stop & !valid
}

/// Which implementation an encoder runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Level {
    /// The byte loop, everywhere.
    Scalar,
    /// 16-byte blocks (x86_64 with SSSE3).
    Ssse3,
    /// 32-byte blocks (x86_64 with AVX2).
    Avx2,
    /// 64-byte blocks with masked loads, expansion by byte permutations and compression
    /// (x86_64 with AVX-512 F, BW, VBMI and VBMI2, BMI2 and POPCNT).
    Avx512,
}

impl Level {
    /// Every level, slowest first.
    #[cfg(test)]
    pub(crate) const ALL: [Level; 4] = [Level::Scalar, Level::Ssse3, Level::Avx2, Level::Avx512];

    /// Whether this CPU runs the level.
    pub(crate) fn is_available(self) -> bool {
        match self {
            Level::Scalar => true,
            #[cfg(target_arch = "x86_64")]
            Level::Ssse3 => std::arch::is_x86_feature_detected!("ssse3"),
            #[cfg(target_arch = "x86_64")]
            Level::Avx2 => std::arch::is_x86_feature_detected!("avx2"),
            #[cfg(target_arch = "x86_64")]
            Level::Avx512 => {
                std::arch::is_x86_feature_detected!("avx512f")
                    && std::arch::is_x86_feature_detected!("avx512bw")
                    && std::arch::is_x86_feature_detected!("avx512vbmi")
                    && std::arch::is_x86_feature_detected!("avx512vbmi2")
                    && std::arch::is_x86_feature_detected!("bmi2")
                    && std::arch::is_x86_feature_detected!("popcnt")
            }
            #[cfg(not(target_arch = "x86_64"))]
            Level::Ssse3 | Level::Avx2 | Level::Avx512 => false,
        }
    }

    /// The fastest level this CPU runs (detected once per process by std's cache).
    fn best() -> Level {
        if Level::Avx512.is_available() {
            Level::Avx512
        } else if Level::Avx2.is_available() {
            Level::Avx2
        } else if Level::Ssse3.is_available() {
            Level::Ssse3
        } else {
            Level::Scalar
        }
    }
}

/// The percent-encoding kernel for one stop set (LEIRI or not), with its level fixed at
/// construction. Cheap to build: the tables are static.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PctEncoder {
    t: &'static Tables,
    level: Level,
}

impl PctEncoder {
    /// The encoder for the stop set of `leiri`, at the best level of this CPU.
    pub(crate) fn new(leiri: bool) -> PctEncoder {
        PctEncoder {
            t: &TABLES[leiri as usize],
            level: Level::best(),
        }
    }

    /// The encoder at a given level, if this CPU runs it (for tests).
    #[cfg(any(test, feature = "twins"))]
    pub(crate) fn with_level(leiri: bool, level: Level) -> Option<PctEncoder> {
        level.is_available().then_some(PctEncoder {
            t: &TABLES[leiri as usize],
            level,
        })
    }

    /// Appends to `out` the mapping of the longest prefix of `s` without stop bytes (ASCII as
    /// it is, other bytes as `%HH`, RFC 3987 §3.1 step 2) and returns the prefix's length.
    /// A `%` that starts a `pct-encoded` triplet (RFC 3986 §2.1) within `s` is no stop byte:
    /// it is copied, and so are its two hex digits.
    #[inline]
    pub(crate) fn encode_prefix(&self, s: &[u8], out: &mut Vec<u8>) -> usize {
        match self.level {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `Level::Avx512` is only stored after `is_available()` detected AVX-512
            // F, BW, VBMI, VBMI2, BMI2 and POPCNT (`new` through `Level::best`, `with_level`), the
            // callee's only requirement.
            Level::Avx512 => unsafe { x86::encode_avx512::<false>(self.t, s, out).0 },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `Level::Avx2` is only stored after `is_available()` detected AVX2
            // (`new` through `Level::best`, `with_level`), the callee's only requirement.
            Level::Avx2 => unsafe { x86::encode_avx2(self.t, s, out) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as above, with SSSE3.
            Level::Ssse3 => unsafe { x86::encode_ssse3(self.t, s, out) },
            _ => self.encode_prefix_naive(s, out),
        }
    }

    /// Whether [`PctEncoder::encode_prefix_utf8`] validates in the same pass as it maps (the
    /// AVX-512 level); elsewhere it validates the mapped prefix afterwards, and a caller that
    /// can validate a whole run of lines at once does better to keep doing that.
    #[inline]
    pub(crate) fn validates_in_pass(&self) -> bool {
        matches!(self.level, Level::Avx512)
    }

    /// [`PctEncoder::encode_prefix`], and whether the prefix it maps is UTF-8 standing alone
    /// (RFC 3629 §4; RFC 3987 §3.1 step 1c): to-uri's one-pass crawl line validates its tail
    /// here instead of in a pass of its own (issue 11). In one pass on the AVX-512 level
    /// ([`PctEncoder::validates_in_pass`]); [`PctEncoder::encode_prefix_utf8_naive`] is its
    /// twin.
    #[inline]
    pub(crate) fn encode_prefix_utf8(&self, s: &[u8], out: &mut Vec<u8>) -> (usize, bool) {
        match self.level {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as in `encode_prefix`: `Level::Avx512` is only stored after its
            // features were detected.
            Level::Avx512 => unsafe { x86::encode_avx512::<true>(self.t, s, out) },
            _ => {
                let k = self.encode_prefix(s, out);
                (k, crate::simd::utf8::validate(&s[..k]).is_ok())
            }
        }
    }

    /// The obviously correct twin of [`PctEncoder::encode_prefix_utf8`].
    #[cfg(any(test, feature = "twins"))]
    pub(crate) fn encode_prefix_utf8_naive(&self, s: &[u8], out: &mut Vec<u8>) -> (usize, bool) {
        let k = self.encode_prefix_naive(s, out);
        (k, std::str::from_utf8(&s[..k]).is_ok())
    }

    /// The length of the prefix that [`PctEncoder::encode_prefix`] maps, without writing the
    /// mapping: for a caller that wants only the stop bytes (`check`'s validate-only run of the
    /// strict conversion, which discards the URI). AVX-512 blocks where the CPU has them,
    /// else AVX2 or SSSE3 blocks; [`PctEncoder::scan_prefix_naive`] is its twin.
    #[inline]
    pub(crate) fn scan_prefix(&self, s: &[u8]) -> usize {
        match self.level {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `Level::Avx512` is only stored after `is_available()` detected its
            // features (`new`, `with_level`), the callee's only requirement.
            Level::Avx512 => unsafe { x86::scan_avx512(self.t, s) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `Level::Avx2` is only stored after `is_available()` detected AVX2 (`new`,
            // `with_level`), the callee's only requirement.
            Level::Avx2 => unsafe { x86::scan_avx2(self.t, s) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `Level::Ssse3` is only stored after `is_available()` detected SSSE3
            // (`new`, `with_level`), the callee's only requirement.
            Level::Ssse3 => unsafe { x86::scan_ssse3(self.t, s) },
            _ => self.scan_prefix_naive(s),
        }
    }

    /// The obviously correct twin of [`PctEncoder::scan_prefix`]: one byte at a time.
    pub(crate) fn scan_prefix_naive(&self, s: &[u8]) -> usize {
        let mut i = 0;
        while i < s.len() && !stops_at(self.t, s, i) {
            i += 1;
        }
        i
    }

    /// The obviously correct twin of [`PctEncoder::encode_prefix`]: one byte at a time.
    pub(crate) fn encode_prefix_naive(&self, s: &[u8], out: &mut Vec<u8>) -> usize {
        let mut i = 0;
        while i < s.len() && !stops_at(self.t, s, i) {
            let b = s[i];
            if b < 0x80 {
                out.push(b);
            } else {
                out.extend_from_slice(&[b'%', HEX[(b >> 4) as usize], HEX[(b & 15) as usize]]);
            }
            i += 1;
        }
        i
    }
}

/// Runs every kernel level this CPU has on `s` (both stop sets) and panics unless each
/// appends the same bytes and consumes the same prefix as the scalar twin. For the fuzz
/// target `simd_twin` and the tests; not part of the API.
#[cfg(any(test, feature = "twins"))]
#[doc(hidden)]
pub fn pct_twin_check(s: &[u8]) {
    for leiri in [false, true] {
        let naive = PctEncoder {
            t: &TABLES[leiri as usize],
            level: Level::Scalar,
        };
        let mut want = b"x".to_vec();
        let n = naive.encode_prefix_naive(s, &mut want);
        assert_eq!(
            naive.scan_prefix_naive(s),
            n,
            "scan twin, leiri {leiri}, {s:02X?}"
        );
        for level in [Level::Ssse3, Level::Avx2, Level::Avx512] {
            let Some(e) = PctEncoder::with_level(leiri, level) else {
                continue;
            };
            let mut got = b"x".to_vec();
            let k = e.encode_prefix(s, &mut got);
            assert_eq!((k, &got), (n, &want), "{level:?}, leiri {leiri}, {s:02X?}");
            assert_eq!(
                e.scan_prefix(s),
                n,
                "scan {level:?}, leiri {leiri}, {s:02X?}"
            );
            let mut got = b"x".to_vec();
            let mut want_u = b"x".to_vec();
            assert_eq!(
                (e.encode_prefix_utf8(s, &mut got), &got),
                (naive.encode_prefix_utf8_naive(s, &mut want_u), &want_u),
                "utf8 {level:?}, leiri {leiri}, {s:02X?}"
            );
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::{add_pairs, clear_triplets, Tables, HEX, HI_A, HI_H, PAIR};
    use core::arch::x86_64::*;

    /// Index vectors of the 16 → 48 expansion: output byte `p` of vector `j` is `%` (from
    /// `PCT_J`), or the high (`IH_J`) or low (`IL_J`) hex digit of input byte `(16j + p) / 3`;
    /// 0x80 selects zero in `pshufb`.
    const fn expand_idx(j: usize, kind: usize) -> [u8; 16] {
        let mut t = [0x80u8; 16];
        let mut q = 0;
        while q < 16 {
            let p = 16 * j + q;
            if p % 3 == kind {
                t[q] = if kind == 0 { b'%' } else { (p / 3) as u8 };
            }
            q += 1;
        }
        t
    }
    /// `pshufb` indices that move a vector down by `off` lanes: `SHIFT[off..off + 16]`.
    const SHIFT: [u8; 32] = {
        let mut t = [0x80u8; 32];
        let mut i = 0;
        while i < 16 {
            t[i] = i as u8;
            i += 1;
        }
        t
    };
    const PCT: [[u8; 16]; 3] = [expand_idx(0, 0), expand_idx(1, 0), expand_idx(2, 0)];
    const IH: [[u8; 16]; 3] = [expand_idx(0, 1), expand_idx(1, 1), expand_idx(2, 1)];
    const IL: [[u8; 16]; 3] = [expand_idx(0, 2), expand_idx(1, 2), expand_idx(2, 2)];

    /// The `pshufb` indices of four input bytes whose high bits are `g` (bit `j`: byte `j`
    /// is ≥ 0x80), into the source vector `[b0..b3, H0..H3, L0..L3, % % % %]` of
    /// [`expand_mixed16`]: each ASCII byte as it is, each other byte as `%`, its high and its
    /// low hex digit (RFC 3986 §2.1). Lanes past the output are 0x80 (zero).
    const GROUP4: [[u8; 16]; 16] = {
        let mut t = [[0x80u8; 16]; 16];
        let mut g = 0;
        while g < 16 {
            let mut q = 0;
            let mut j = 0;
            while j < 4 {
                if g >> j & 1 == 0 {
                    t[g][q] = j as u8;
                    q += 1;
                } else {
                    t[g][q] = 12;
                    t[g][q + 1] = 4 + j as u8;
                    t[g][q + 2] = 8 + j as u8;
                    q += 3;
                }
                j += 1;
            }
            g += 1;
        }
        t
    };

    #[inline]
    #[target_feature(enable = "ssse3")]
    fn v16(a: &[u8; 16]) -> __m128i {
        // SAFETY: `a` is 16 readable bytes; `loadu` has no alignment requirement.
        unsafe { _mm_loadu_si128(a.as_ptr().cast()) }
    }

    /// The `%`-constant vectors: `PCT[j]` holds `%` where the output has one and 0x80
    /// elsewhere; clear the 0x80s.
    #[inline]
    #[target_feature(enable = "ssse3")]
    fn pct_const(j: usize) -> __m128i {
        let v = v16(&PCT[j]);
        _mm_and_si128(v, _mm_cmpeq_epi8(v, _mm_set1_epi8(b'%' as i8)))
    }

    /// Bit i set iff byte i of `v` is a stop byte.
    #[inline]
    #[target_feature(enable = "ssse3")]
    fn stop_mask16(t: &Tables, v: __m128i) -> u32 {
        let nib = _mm_set1_epi8(0x0F);
        let h = _mm_and_si128(_mm_srli_epi16(v, 4), nib);
        let l = _mm_and_si128(v, nib);
        let a = _mm_and_si128(
            _mm_shuffle_epi8(v16(&t.lo_a), l),
            _mm_shuffle_epi8(v16(&HI_A), h),
        );
        let b = _mm_and_si128(
            _mm_shuffle_epi8(v16(&t.lo_h), l),
            _mm_shuffle_epi8(v16(&HI_H), h),
        );
        let m = _mm_or_si128(a, b);
        !(_mm_movemask_epi8(_mm_cmpeq_epi8(m, _mm_setzero_si128())) as u32) & 0xFFFF
    }

    /// The masks of `%` and of hex digits (`0-9 A-F a-f`) in `v`.
    #[inline]
    #[target_feature(enable = "ssse3")]
    fn pct_hex16(v: __m128i) -> (u32, u32) {
        let pct = _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(b'%' as i8))) as u32;
        let (digit, _, alpha, _) = crate::simd::x86_64::hex_lanes(v);
        (pct, _mm_movemask_epi8(_mm_or_si128(digit, alpha)) as u32)
    }

    /// [`stop_mask16`] without the `%` bytes that start a triplet within `s` (the block is
    /// `s[at..at + 16]`, or its zero-padded tail).
    #[inline]
    #[target_feature(enable = "ssse3")]
    fn stops16(t: &Tables, v: __m128i, s: &[u8], at: usize) -> u32 {
        let stop = stop_mask16(t, v);
        let (pct, hex) = pct_hex16(v);
        let stop = clear_triplets(stop.into(), pct.into(), hex.into(), 16, s, at);
        if !t.pair {
            return stop as u32;
        }
        let lead = _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(PAIR[0] as i8))) as u32;
        if lead == 0 {
            return stop as u32;
        }
        let next = _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(PAIR[1] as i8))) as u32;
        add_pairs(stop, lead.into(), next.into(), 16, s, at) as u32
    }

    /// Writes the 48 bytes `%HH` × 16 of the 16 bytes of `v` at `dst`.
    ///
    /// # Safety
    /// `dst` must be valid for 48 bytes of writes.
    #[inline]
    #[target_feature(enable = "ssse3")]
    unsafe fn expand3(v: __m128i, dst: *mut u8) {
        let nib = _mm_set1_epi8(0x0F);
        let hex = v16(HEX);
        let hi = _mm_shuffle_epi8(hex, _mm_and_si128(_mm_srli_epi16(v, 4), nib));
        let lo = _mm_shuffle_epi8(hex, _mm_and_si128(v, nib));
        for j in 0..3 {
            let o = _mm_or_si128(
                _mm_or_si128(
                    _mm_shuffle_epi8(hi, v16(&IH[j])),
                    _mm_shuffle_epi8(lo, v16(&IL[j])),
                ),
                pct_const(j),
            );
            // SAFETY: the caller gives 48 writable bytes at `dst`; j * 16 + 16 <= 48.
            unsafe { _mm_storeu_si128(dst.add(16 * j).cast(), o) };
        }
    }

    /// The mapping of the first `k` (≤ 16) bytes of `v`, by shuffles (issue 11: mixed blocks
    /// of non-ASCII words and ASCII delimiters are most of the text of real IRIs): the hex
    /// digits of all sixteen bytes by two lookups, then four groups of four bytes, each
    /// moved from `[b0..b3, H0..H3, L0..L3, %]` into its 4 to 12 output bytes by one
    /// `pshufb` whose indices [`GROUP4`] gives for the group's high bits, and stored whole
    /// (16 bytes) where the group's output starts. Returns the end of the first `k` bytes'
    /// output; the bytes after it up to the last store's end hold scratch. Twin: the per-byte
    /// table loop [`expand_mixed_naive`] (the test `expand_mixed16_matches_twin` on every
    /// pattern of high bits and every `k`; the kernel's own tests and the fuzz target
    /// `simd_twin` compare the whole kernel with its scalar twin).
    ///
    /// # Safety
    /// The CPU must have SSSE3, and `dst` must be valid for `28 + 2 * h` bytes of writes,
    /// where `h` is the number of bytes ≥ 0x80 among the first 12 of `v` (at most 52).
    #[inline]
    #[target_feature(enable = "ssse3")]
    unsafe fn expand_mixed16(v: __m128i, k: usize, dst: *mut u8) -> *mut u8 {
        debug_assert!(k <= 16);
        let nib = _mm_set1_epi8(0x0F);
        let hex = v16(HEX);
        let hi = _mm_shuffle_epi8(hex, _mm_and_si128(_mm_srli_epi16(v, 4), nib));
        let lo = _mm_shuffle_epi8(hex, _mm_and_si128(v, nib));
        let pct = _mm_set1_epi8(b'%' as i8);
        let high = _mm_movemask_epi8(v) as u32;
        // [b0-3, H0-3, b4-7, H4-7] and [L0-3, %, L4-7, %], and the same for bytes 8-15.
        let (bh0, bh1) = (_mm_unpacklo_epi32(v, hi), _mm_unpackhi_epi32(v, hi));
        let (lp0, lp1) = (_mm_unpacklo_epi32(lo, pct), _mm_unpackhi_epi32(lo, pct));
        let sources = [
            _mm_unpacklo_epi64(bh0, lp0),
            _mm_unpackhi_epi64(bh0, lp0),
            _mm_unpacklo_epi64(bh1, lp1),
            _mm_unpackhi_epi64(bh1, lp1),
        ];
        let end = k + 2 * (high & ((1u32 << k) - 1)).count_ones() as usize;
        let mut at = dst;
        for (g, src) in sources.into_iter().enumerate() {
            if 4 * g >= k {
                break;
            }
            let bits = (high >> (4 * g) & 15) as usize;
            let o = _mm_shuffle_epi8(src, v16(&GROUP4[bits]));
            // SAFETY: group `g` starts at most `4g + 2h` bytes in (`h` counted in the groups
            // before it, so among the first 12 bytes) and stores 16: within the caller's room.
            unsafe {
                _mm_storeu_si128(at.cast(), o);
                at = at.add(4 + 2 * bits.count_ones() as usize);
            }
        }
        // SAFETY: `end` bytes of output were written (the groups cover the first `k` bytes).
        unsafe { dst.add(end) }
    }

    /// The twin of [`expand_mixed16`]: the mapping of `bytes`, one `u32` store per byte, each
    /// advancing by 1 or 3.
    ///
    /// # Safety
    /// `dst` must be valid for `3 * bytes.len() + 1` bytes of writes.
    #[cfg(test)]
    #[inline(always)]
    unsafe fn expand_mixed_naive(bytes: &[u8], mut dst: *mut u8) -> *mut u8 {
        use super::ENC;
        for &b in bytes {
            // SAFETY: at most 3 bytes were written per byte before, and this write of 4
            // stays within the `3 * len + 1` the caller provides.
            unsafe {
                dst.cast::<u32>().write_unaligned(ENC[b as usize].to_le());
                dst = dst.add(1 + 2 * (b >> 7) as usize);
            }
        }
        dst
    }

    /// One 16-byte block without stop bytes: stored as it is, expanded by shuffles (all
    /// non-ASCII: [`expand3`]; mixed: [`expand_mixed16`]). Returns the new `dst`.
    ///
    /// # Safety
    /// `dst` must be valid for 52 bytes of writes.
    #[inline]
    #[target_feature(enable = "ssse3")]
    unsafe fn block16(v: __m128i, dst: *mut u8) -> *mut u8 {
        let high = _mm_movemask_epi8(v) as u32;
        // SAFETY: the caller gives 52 writable bytes: 16, 48 and expand_mixed16's 28 + 2 * 12
        // fit.
        unsafe {
            if high == 0 {
                _mm_storeu_si128(dst.cast(), v);
                dst.add(16)
            } else if high == 0xFFFF {
                expand3(v, dst);
                dst.add(48)
            } else {
                expand_mixed16(v, 16, dst)
            }
        }
    }

    /// Reserves room for the worst case of `s` (3 bytes out per byte in, plus the overshoot
    /// of 16-byte stores) and returns the write pointer.
    #[inline(always)]
    fn start(s: &[u8], out: &mut Vec<u8>) -> *mut u8 {
        out.reserve(3 * s.len() + 64);
        // SAFETY: `len <= capacity`, so the pointer stays within (or one past) the buffer.
        unsafe { out.as_mut_ptr().add(out.len()) }
    }

    /// Sets the length of `out` to include what was written up to `dst`.
    ///
    /// # Safety
    /// Every byte from `out.len()` up to `dst` must have been written, and `dst` must come
    /// from [`start`] on this `out` advanced within its capacity.
    #[inline(always)]
    unsafe fn finish(out: &mut Vec<u8>, dst: *mut u8) {
        // SAFETY: the caller's contract: `dst` is in the same allocation, at or after the end.
        unsafe {
            let n = dst.offset_from(out.as_ptr().add(out.len())) as usize;
            out.set_len(out.len() + n);
        }
    }

    /// The tail (fewer than 16 bytes) through a zero-padded block; returns bytes consumed.
    ///
    /// # Safety
    /// `dst` must be valid for `3 * tail.len() + 49` bytes of writes.
    #[inline]
    #[target_feature(enable = "ssse3")]
    unsafe fn tail16(t: &Tables, s: &[u8], at: usize, dst: &mut *mut u8) -> usize {
        let tail = &s[at..];
        let n = tail.len();
        debug_assert!(n < 16);
        let v = match s.len().checked_sub(16) {
            // The last 16 bytes of `s`, moved down so that lane 0 is `s[at]`; the lanes past
            // the end are zero, as in the copy below, without the copy.
            Some(start) => {
                let last: &[u8; 16] = s[start..].try_into().expect("16 bytes");
                let off = at - start;
                let idx: &[u8; 16] = SHIFT[off..off + 16].try_into().expect("16 bytes");
                _mm_shuffle_epi8(v16(last), v16(idx))
            }
            None => v16(&crate::simd::padded::<16>(tail)),
        };
        let stop = stops16(t, v, s, at) | (0xFFFF << n);
        let k = stop.trailing_zeros() as usize;
        let high = _mm_movemask_epi8(v) as u32 & ((1 << k) - 1);
        // SAFETY: a 16-byte store, or expand_mixed16's 28 + 2 * h bytes, where `h <= n` (the
        // lanes past the tail are zero): both within the caller's 3 * n + 49.
        unsafe {
            if high == 0 {
                _mm_storeu_si128((*dst).cast(), v);
                *dst = dst.add(k);
            } else {
                *dst = expand_mixed16(v, k, *dst);
            }
        }
        k
    }

    /// SSSE3 kernel of [`super::PctEncoder::encode_prefix`].
    ///
    /// # Safety
    /// The CPU must support SSSE3.
    #[target_feature(enable = "ssse3")]
    pub(super) unsafe fn encode_ssse3(t: &Tables, s: &[u8], out: &mut Vec<u8>) -> usize {
        let mut dst = start(s, out);
        let mut i = 0;
        let stopped = loop {
            let Some(chunk) = s.get(i..i + 16) else {
                break false;
            };
            let block: &[u8; 16] = chunk.try_into().expect("16 bytes");
            let v = v16(block);
            let stop = stops16(t, v, s, i);
            if stop == 0 {
                // SAFETY: at most 3 * i bytes were written; 3 * i + 52 <= 3 * len + 64.
                dst = unsafe { block16(v, dst) };
                i += 16;
                continue;
            }
            let k = stop.trailing_zeros() as usize;
            // SAFETY: at most 52 bytes, within the room reserved for s[i..] (16 bytes or more:
            // 3 * 16 + 64).
            dst = unsafe { expand_mixed16(v, k, dst) };
            i += k;
            break true;
        };
        if !stopped && i < s.len() {
            // SAFETY: the room left is at least 3 * (len - i) + 64.
            i += unsafe { tail16(t, s, i, &mut dst) };
        }
        // SAFETY: every byte up to `dst` was written by the stores above, within capacity.
        unsafe { finish(out, dst) };
        i
    }

    /// SSSE3 kernel of [`super::PctEncoder::scan_prefix`]: the stop mask of each 16-byte
    /// block as in [`encode_ssse3`], nothing written. The last bytes (under 16) are the top
    /// of the block that ends with `s` (its lower lanes were scanned already and hold no
    /// stop: the mask is a function of `s` and the position), or, when `s` is shorter than
    /// 16 bytes, a zero-padded copy as in [`tail16`].
    ///
    /// # Safety
    /// The CPU must support SSSE3.
    #[target_feature(enable = "ssse3")]
    pub(super) unsafe fn scan_ssse3(t: &Tables, s: &[u8]) -> usize {
        let n = s.len();
        let mut i = 0;
        while let Some(chunk) = s.get(i..i + 16) {
            let stop = stops16(t, v16(chunk.try_into().expect("16 bytes")), s, i);
            if stop != 0 {
                return i + stop.trailing_zeros() as usize;
            }
            i += 16;
        }
        if i == n {
            return n;
        }
        let (at, stop) = match n.checked_sub(16) {
            Some(at) => {
                let last: &[u8; 16] = s[at..].try_into().expect("16 bytes");
                (at, stops16(t, v16(last), s, at))
            }
            // Lanes past the end are no part of `s`: never a stop.
            None => (
                0,
                stops16(t, v16(&crate::simd::padded::<16>(s)), s, 0) & ((1 << n) - 1),
            ),
        };
        if stop == 0 {
            n
        } else {
            at + stop.trailing_zeros() as usize
        }
    }

    /// The constants of [`stops32`]: the nibble tables of a stop set, broadcast to both
    /// 128-bit lanes (`vpshufb` looks up within each), and the bytes it compares with.
    struct Consts256 {
        nib: __m256i,
        lo_a: __m256i,
        lo_h: __m256i,
        hi_a: __m256i,
        hi_h: __m256i,
        pct: __m256i,
        zero: __m256i,
        nine: __m256i,
        case: __m256i,
        lower_a: __m256i,
        five: __m256i,
        pair_lead: __m256i,
        pair_next: __m256i,
    }

    impl Consts256 {
        #[inline]
        #[target_feature(enable = "avx2")]
        fn new(t: &Tables) -> Consts256 {
            Consts256 {
                nib: _mm256_set1_epi8(0x0F),
                lo_a: _mm256_broadcastsi128_si256(v16(&t.lo_a)),
                lo_h: _mm256_broadcastsi128_si256(v16(&t.lo_h)),
                hi_a: _mm256_broadcastsi128_si256(v16(&HI_A)),
                hi_h: _mm256_broadcastsi128_si256(v16(&HI_H)),
                pct: _mm256_set1_epi8(b'%' as i8),
                zero: _mm256_set1_epi8(b'0' as i8),
                nine: _mm256_set1_epi8(9),
                case: _mm256_set1_epi8(0x20),
                lower_a: _mm256_set1_epi8(b'a' as i8),
                five: _mm256_set1_epi8(5),
                pair_lead: _mm256_set1_epi8(PAIR[0] as i8),
                pair_next: _mm256_set1_epi8(PAIR[1] as i8),
            }
        }
    }

    /// The 32 bytes of `chunk` as a vector.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn v32(chunk: &[u8; 32]) -> __m256i {
        // SAFETY: `chunk` is 32 readable bytes; `loadu` has no alignment requirement.
        unsafe { _mm256_loadu_si256(chunk.as_ptr().cast()) }
    }

    /// The stop mask of the block `v` = `s[at..at + 32]`, as [`stops16`] gives it for 16
    /// lanes: the stop bytes of the nibble tables but the `%` that start a triplet within
    /// `s`, and the starts of [`PAIR`] where it is loud. A function of `s` and the lane's
    /// position in `s` only (the last lanes' neighbours are looked up in `s`), so that two
    /// blocks that overlap agree on the lanes they share.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn stops32(t: &Tables, c: &Consts256, v: __m256i, s: &[u8], at: usize) -> u32 {
        let h = _mm256_and_si256(_mm256_srli_epi16(v, 4), c.nib);
        let l = _mm256_and_si256(v, c.nib);
        let a = _mm256_and_si256(
            _mm256_shuffle_epi8(c.lo_a, l),
            _mm256_shuffle_epi8(c.hi_a, h),
        );
        let b = _mm256_and_si256(
            _mm256_shuffle_epi8(c.lo_h, l),
            _mm256_shuffle_epi8(c.hi_h, h),
        );
        let m = _mm256_or_si256(a, b);
        let mut stop = !(_mm256_movemask_epi8(_mm256_cmpeq_epi8(m, _mm256_setzero_si256())) as u32);
        let pct = _mm256_movemask_epi8(_mm256_cmpeq_epi8(v, c.pct)) as u32;
        if pct & stop != 0 {
            let d = _mm256_sub_epi8(v, c.zero);
            let digit = _mm256_cmpeq_epi8(_mm256_min_epu8(d, c.nine), d);
            let a = _mm256_sub_epi8(_mm256_or_si256(v, c.case), c.lower_a);
            let alpha = _mm256_cmpeq_epi8(_mm256_min_epu8(a, c.five), a);
            let hex = _mm256_movemask_epi8(_mm256_or_si256(digit, alpha)) as u32;
            stop = clear_triplets(stop.into(), pct.into(), hex.into(), 32, s, at) as u32;
        }
        if t.pair {
            let lead = _mm256_movemask_epi8(_mm256_cmpeq_epi8(v, c.pair_lead)) as u32;
            if lead != 0 {
                let next = _mm256_movemask_epi8(_mm256_cmpeq_epi8(v, c.pair_next)) as u32;
                stop = add_pairs(stop.into(), lead.into(), next.into(), 32, s, at) as u32;
            }
        }
        stop
    }

    /// AVX2 kernel of [`super::PctEncoder::scan_prefix`]: the stop mask of each 32-byte
    /// block ([`stops32`]), nothing written. The last bytes (under 32) are the top of the
    /// block that ends with `s` (its lower lanes were scanned already and hold no stop:
    /// [`stops32`] is a function of `s` and the position); a line shorter than 32 bytes
    /// goes to [`scan_ssse3`]. Twin: [`super::PctEncoder::scan_prefix_naive`].
    ///
    /// # Safety
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn scan_avx2(t: &Tables, s: &[u8]) -> usize {
        let n = s.len();
        if n < 32 {
            // SAFETY: AVX2 implies SSSE3.
            return unsafe { scan_ssse3(t, s) };
        }
        let c = Consts256::new(t);
        let mut i = 0;
        while let Some(chunk) = s.get(i..i + 32) {
            let stop = stops32(t, &c, v32(chunk.try_into().expect("32 bytes")), s, i);
            if stop != 0 {
                return i + stop.trailing_zeros() as usize;
            }
            i += 32;
        }
        if i == n {
            return n;
        }
        let at = n - 32;
        let last: &[u8; 32] = s[at..].try_into().expect("32 bytes");
        // The lanes below `i` were scanned (no stop); masked all the same.
        let stop = stops32(t, &c, v32(last), s, at) & (u32::MAX << (i - at));
        if stop == 0 {
            n
        } else {
            at + stop.trailing_zeros() as usize
        }
    }

    /// AVX2 kernel of [`super::PctEncoder::encode_prefix`]: stop bytes found 32 at a time
    /// ([`stops32`]), each half of a stop-free block mapped as in [`encode_ssse3`].
    ///
    /// # Safety
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn encode_avx2(t: &Tables, s: &[u8], out: &mut Vec<u8>) -> usize {
        let mut dst = start(s, out);
        let c = Consts256::new(t);
        let mut i = 0;
        let mut stopped = false;
        while let Some(chunk) = s.get(i..i + 32) {
            let v = v32(chunk.try_into().expect("32 bytes"));
            let stop = stops32(t, &c, v, s, i);
            if stop == 0 {
                let high = _mm256_movemask_epi8(v);
                if high == 0 {
                    // SAFETY: 32 bytes fit the 3 * 32 reserved for this block.
                    unsafe { _mm256_storeu_si256(dst.cast(), v) };
                    // SAFETY: within the reserved room.
                    dst = unsafe { dst.add(32) };
                } else {
                    // SAFETY: the first half writes at most 52 bytes and ends at most 48 in,
                    // the second at most 48 + 52: within 3 * 32 + 64.
                    unsafe {
                        dst = block16(_mm256_castsi256_si128(v), dst);
                        dst = block16(_mm256_extracti128_si256(v, 1), dst);
                    }
                }
                i += 32;
                continue;
            }
            let k = stop.trailing_zeros() as usize;
            // SAFETY: at most 52 bytes, or 48 + 52 for a stop in the second half: within the
            // room reserved for s[i..] (32 bytes or more: 3 * 32 + 64).
            dst = unsafe {
                if k <= 16 {
                    expand_mixed16(_mm256_castsi256_si128(v), k, dst)
                } else {
                    let d = expand_mixed16(_mm256_castsi256_si128(v), 16, dst);
                    expand_mixed16(_mm256_extracti128_si256(v, 1), k - 16, d)
                }
            };
            i += k;
            stopped = true;
            break;
        }
        if !stopped && i < s.len() {
            let rest = &s[i..];
            let mut k = 0;
            if let Some(chunk) = rest.get(..16) {
                let block: &[u8; 16] = chunk.try_into().expect("16 bytes");
                let v = v16(block);
                let stop = stops16(t, v, s, i);
                if stop == 0 {
                    // SAFETY: at most 52 bytes, within the room for the rest (3 * 16 + 64).
                    dst = unsafe { block16(v, dst) };
                    k = 16;
                } else {
                    let j = stop.trailing_zeros() as usize;
                    // SAFETY: at most 52 bytes, within the room for the rest (3 * 16 + 64).
                    dst = unsafe { expand_mixed16(v, j, dst) };
                    // Stopped inside the block: nothing after it is consumed.
                    i += j;
                    // SAFETY: every byte up to `dst` was written, within capacity.
                    unsafe { finish(out, dst) };
                    return i;
                }
            }
            if k < rest.len() {
                // SAFETY: the room left is at least 3 * (len - i - k) + 64.
                k += unsafe { tail16(t, s, i + k, &mut dst) };
            }
            i += k;
        }
        // SAFETY: every byte up to `dst` was written by the stores above, within capacity.
        unsafe { finish(out, dst) };
        i
    }

    /// Input bytes per group of [`encode_avx512`]'s expansion: 21 bytes spread to 63 lanes.
    const GROUP: usize = 21;
    /// Permutation indices of [`encode_avx512`]'s 21 → 63 spread: output lane `3j` is byte
    /// `j` of the first source (the input with its non-ASCII bytes replaced by `%`), `3j + 1`
    /// byte `j` of the second (the high hex digits: index `64 + j`); the lanes `3j + 2` are
    /// filled by the second permutation ([`SPREAD_L`]), lane 63 is unused. A group at byte
    /// `g` of the block adds `g` to every index: the lanes of the group's own bytes stay
    /// within their source (`j + g < 64`); the others may wrap, and are compressed away.
    static SPREAD_AH: [u8; 64] = {
        let mut t = [0u8; 64];
        let mut j = 0;
        while j < GROUP {
            t[3 * j] = j as u8;
            t[3 * j + 1] = 64 + j as u8;
            j += 1;
        }
        t
    };
    /// Output lane `3j + 2` takes byte `j` of the low hex digits.
    static SPREAD_L: [u8; 64] = {
        let mut t = [0u8; 64];
        let mut j = 0;
        while j < GROUP {
            t[3 * j + 2] = j as u8;
            j += 1;
        }
        t
    };
    /// The lanes `3j` (j < 21): where each input byte's output starts before compression.
    use crate::simd::x86_64::THIRDS as STARTS;
    /// The lanes `3j + 2` (j < 21) of [`SPREAD_L`].
    const L_LANES: u64 = STARTS << 2;

    /// The constants of [`stops64`]: the nibble tables of a stop set, broadcast to the four
    /// 128-bit lanes (`vpshufb` looks up within each), and `%`.
    struct Consts512 {
        nib: __m512i,
        lo_a: __m512i,
        lo_h: __m512i,
        hi_a: __m512i,
        hi_h: __m512i,
        pct: __m512i,
    }

    impl Consts512 {
        #[inline]
        #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,bmi2,popcnt")]
        fn new(t: &Tables) -> Consts512 {
            Consts512 {
                nib: _mm512_set1_epi8(0x0F),
                lo_a: _mm512_broadcast_i32x4(v16(&t.lo_a)),
                lo_h: _mm512_broadcast_i32x4(v16(&t.lo_h)),
                hi_a: _mm512_broadcast_i32x4(v16(&HI_A)),
                hi_h: _mm512_broadcast_i32x4(v16(&HI_H)),
                pct: _mm512_set1_epi8(b'%' as i8),
            }
        }
    }

    /// The block of up to 64 bytes at `s[i..]` (`i < s.len()`) by a masked load, and the mask
    /// of its lanes within `s`; the others read as zero.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,bmi2,popcnt")]
    fn block64(s: &[u8], i: usize) -> (__m512i, u64) {
        debug_assert!(i < s.len());
        let lanes = _bzhi_u64(u64::MAX, (s.len() - i).min(64) as u32);
        // SAFETY: the lanes read are `s[i..i + min(len - i, 64)]`, within `s` (`s[i..]` is
        // checked by the slice); a masked load does not touch the memory of the lanes it
        // leaves out.
        let v = unsafe { _mm512_maskz_loadu_epi8(lanes, s[i..].as_ptr().cast()) };
        (v, lanes)
    }

    /// The stop mask of the block `v` (`s[i..]`, its lanes within `s` set in `lanes`, the
    /// others zero), as [`stops16`] gives it for 16 lanes: the stop bytes of the nibble
    /// tables but the `%` that start a triplet within `s`, and the starts of [`PAIR`] where it
    /// is loud. Also returns the high and low nibbles of every lane, for the caller's hex
    /// digits.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,bmi2,popcnt")]
    fn stops64(
        t: &Tables,
        c: &Consts512,
        v: __m512i,
        lanes: u64,
        s: &[u8],
        i: usize,
    ) -> (u64, __m512i, __m512i) {
        let h = _mm512_and_si512(_mm512_srli_epi16(v, 4), c.nib);
        let l = _mm512_and_si512(v, c.nib);
        let a = _mm512_and_si512(
            _mm512_shuffle_epi8(c.lo_a, l),
            _mm512_shuffle_epi8(c.hi_a, h),
        );
        let b = _mm512_and_si512(
            _mm512_shuffle_epi8(c.lo_h, l),
            _mm512_shuffle_epi8(c.hi_h, h),
        );
        let m = _mm512_or_si512(a, b);
        // The zero lanes past `s` would stop (NUL is a control): masked off.
        let mut stop = _mm512_test_epi8_mask(m, m) & lanes;
        let pct = _mm512_cmpeq_epi8_mask(v, c.pct);
        if pct & stop != 0 {
            let (digit, letter) = crate::simd::x86_64::hex_masks64(v);
            stop = clear_triplets(stop, pct, digit | letter, 64, s, i);
        }
        if t.pair {
            let lead = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(PAIR[0] as i8));
            if lead != 0 {
                let next = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(PAIR[1] as i8));
                stop = add_pairs(stop, lead, next, 64, s, i);
            }
        }
        (stop, h, l)
    }

    /// AVX-512 kernel of [`super::PctEncoder::scan_prefix`]: the stop mask of each 64-byte
    /// block as in [`encode_avx512`] (the last one a masked load), nothing written.
    ///
    /// # Safety
    /// The CPU must support AVX-512 F, BW, VBMI and VBMI2, BMI2 and POPCNT.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,bmi2,popcnt")]
    pub(super) unsafe fn scan_avx512(t: &Tables, s: &[u8]) -> usize {
        let n = s.len();
        let c = Consts512::new(t);
        let mut i = 0;
        while i < n {
            let rem = n - i;
            let (v, lanes) = block64(s, i);
            let (stop, _, _) = stops64(t, &c, v, lanes, s, i);
            if stop != 0 {
                return i + stop.trailing_zeros() as usize;
            }
            i += rem.min(64);
        }
        n
    }

    /// AVX-512 kernel of [`super::PctEncoder::encode_prefix`] (issue 11): 64-byte blocks,
    /// the last one a masked load (the lanes past `s` read as zero and are never touched in
    /// memory), so that a line's tail takes no 32-, 16- and padded-block stages. Stop bytes as
    /// in [`encode_avx2`] (nibble tables, `%` triplets, [`PAIR`]) on 64-bit masks. A stop-free
    /// prefix without non-ASCII bytes is stored as it is; otherwise each group of 21 input
    /// bytes is spread to 63 lanes (`b` or `%`, high digit, low digit per byte: two byte
    /// permutations, RFC 3986 §2.1 with the uppercase digits of RFC 3987 §3.1 step 2.2), and
    /// compressed by a mask that keeps all three lanes of a non-ASCII byte and the first of an
    /// ASCII one (`pdep` of the group's high bits to every third lane), then stored whole.
    /// Twin: [`super::PctEncoder::encode_prefix_naive`] (the kernel tests run every level this
    /// CPU has; the fuzz target `simd_twin` too).
    ///
    /// With `UTF8`, it also validates the prefix it maps as UTF-8 standing alone (RFC 3629 §4:
    /// no character cut at either end), on the blocks it loaded
    /// ([`crate::simd::utf8::avx512::errors64`], the lanes up to and with the stop lane, which
    /// holds an ASCII or lead byte: a character cut by the stop is an error there), and
    /// returns whether it is; without, the second value is `true`. Twin:
    /// [`super::PctEncoder::encode_prefix_utf8_naive`].
    ///
    /// # Safety
    /// The CPU must support AVX-512 F, BW, VBMI and VBMI2, BMI2 and POPCNT.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,bmi2,popcnt")]
    pub(super) unsafe fn encode_avx512<const UTF8: bool>(
        t: &Tables,
        s: &[u8],
        out: &mut Vec<u8>,
    ) -> (usize, bool) {
        use crate::simd::utf8::avx512 as u8x;
        let mut dst = start(s, out);
        let n = s.len();
        let c = Consts512::new(t);
        let hex = _mm512_broadcast_i32x4(v16(HEX));
        let uc = u8x::Consts::new();
        // The block before (zero: ASCII before the prefix) and the lanes with an error.
        let mut prev = _mm512_setzero_si512();
        let mut bad = 0u64;
        let mut i = 0;
        while i < n {
            let rem = n - i;
            let (v, lanes) = block64(s, i);
            let (stop, h, l) = stops64(t, &c, v, lanes, s, i);
            let k = if stop == 0 {
                rem.min(64)
            } else {
                stop.trailing_zeros() as usize
            };
            if UTF8 {
                // The lanes of the prefix and the one after it (the stop, or a zero lane
                // past `s`); at k = 64 that lane is the next block's first.
                bad |= u8x::errors64(&uc, v, prev, h) & _bzhi_u64(u64::MAX, k as u32 + 1);
                prev = v;
            }
            let high_lanes = _mm512_movepi8_mask(v);
            let high = high_lanes & _bzhi_u64(u64::MAX, k as u32);
            if high == 0 {
                // SAFETY: at most 3 * i bytes were written and i < n: 64 more fit the
                // 3 * n + 64 reserved. The lanes past `k` are scratch after the output.
                unsafe { _mm512_storeu_si512(dst.cast(), v) };
                // SAFETY: k <= 64, within the reserved room.
                dst = unsafe { dst.add(k) };
            } else {
                let first = _mm512_mask_blend_epi8(high_lanes, v, c.pct);
                let hd = _mm512_shuffle_epi8(hex, h);
                let ld = _mm512_shuffle_epi8(hex, l);
                // SAFETY: both tables are 64 readable bytes; no alignment is required.
                let (spread_ah, spread_l) = unsafe {
                    (
                        _mm512_loadu_si512(SPREAD_AH.as_ptr().cast()),
                        _mm512_loadu_si512(SPREAD_L.as_ptr().cast()),
                    )
                };
                let mut g = 0;
                while g < k {
                    let off = _mm512_set1_epi8(g as i8);
                    let sp = _mm512_permutex2var_epi8(first, _mm512_add_epi8(spread_ah, off), hd);
                    let sp = _mm512_mask_permutexvar_epi8(
                        sp,
                        L_LANES,
                        _mm512_add_epi8(spread_l, off),
                        ld,
                    );
                    let own = _bzhi_u64(u64::MAX, (k - g).min(GROUP) as u32);
                    let wide = _pdep_u64(high >> g & own, STARTS);
                    let keep = _pdep_u64(own, STARTS) | wide << 1 | wide << 2;
                    let c = _mm512_maskz_compress_epi8(keep, sp);
                    // SAFETY: this group's first byte is s[i + g], i + g < n, and at most
                    // 3 * (i + g) bytes were written before it: 64 more fit the 3 * n + 64
                    // reserved. Its output is `keep`'s count of bytes, the rest scratch.
                    unsafe {
                        _mm512_storeu_si512(dst.cast(), c);
                        dst = dst.add(keep.count_ones() as usize);
                    }
                    g += GROUP;
                }
            }
            i += k;
            if stop != 0 {
                break;
            }
        }
        // SAFETY: every byte up to `dst` was written by the stores above, within capacity.
        unsafe { finish(out, dst) };
        // A prefix that is all of `s` and ends a full block had no lane after it checked.
        let cut = UTF8 && i == n && n.is_multiple_of(64) && crate::simd::utf8::ends_inside_char(s);
        (i, bad == 0 && !cut)
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        /// [`expand_mixed16`] against [`expand_mixed_naive`] on every pattern of high bits of
        /// sixteen bytes (ASCII bytes and bytes ≥ 0x80 that vary with their lane), for every
        /// prefix length `k`, in a buffer with room for exactly what the contract promises.
        #[test]
        fn expand_mixed16_matches_twin() {
            if !std::is_x86_feature_detected!("ssse3") {
                eprintln!("simd::pct: no SSSE3 on this CPU, expand_mixed16 not tested");
                return;
            }
            for mask in 0..=0xFFFFu32 {
                let mut b = [0u8; 16];
                for (j, x) in b.iter_mut().enumerate() {
                    let salt = (mask as usize).wrapping_mul(7).wrapping_add(j * 13) as u8;
                    *x = if mask >> j & 1 != 0 {
                        0x80 | salt
                    } else {
                        0x21 + salt % 0x5E
                    };
                }
                for k in [0, 1, 3, 4, 5, 8, 11, 12, 13, 15, 16]
                    .into_iter()
                    .filter(|&k| mask < 0x100 || k == 16 || mask % 97 == 0)
                {
                    let mut want = vec![0u8; 64];
                    // SAFETY: 3 * 16 + 1 bytes fit in 64.
                    let n = unsafe {
                        expand_mixed_naive(&b[..k], want.as_mut_ptr()).offset_from(want.as_ptr())
                            as usize
                    };
                    let h = (mask & 0xFFF).count_ones() as usize;
                    let mut got = vec![0u8; 28 + 2 * h];
                    // SAFETY: SSSE3 is there; the buffer is the contract's room.
                    let m = unsafe {
                        expand_mixed16(v16(&b), k, got.as_mut_ptr()).offset_from(got.as_ptr())
                            as usize
                    };
                    assert_eq!(m, n, "{b:02X?} k={k}");
                    assert_eq!(got[..m], want[..n], "{b:02X?} k={k}");
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn encoders(leiri: bool) -> Vec<PctEncoder> {
        let v: Vec<_> = Level::ALL
            .iter()
            .filter_map(|&l| PctEncoder::with_level(leiri, l))
            .collect();
        if v.len() < Level::ALL.len() {
            // Not a silent skip: say which levels this CPU lacks.
            eprintln!(
                "simd::pct: only {:?} available",
                v.iter().map(|e| e.level).collect::<Vec<_>>()
            );
        }
        v
    }

    fn check(e: &PctEncoder, s: &[u8], prefix: &[u8]) {
        let mut want = prefix.to_vec();
        let n_want = e.encode_prefix_naive(s, &mut want);
        let mut got = prefix.to_vec();
        let n_got = e.encode_prefix(s, &mut got);
        assert_eq!(
            (n_got, &got),
            (n_want, &want),
            "{:?} on {:02X?}",
            e.level,
            s
        );
        // The validate-only scan stops where the encoder stops.
        assert_eq!(e.scan_prefix(s), n_want, "scan {:?} on {:02X?}", e.level, s);
        assert_eq!(e.scan_prefix_naive(s), n_want, "scan twin on {:02X?}", s);
        // The validating variant: the same bytes and prefix, and whether it is UTF-8.
        let mut got = prefix.to_vec();
        let mut want = prefix.to_vec();
        assert_eq!(
            (e.encode_prefix_utf8(s, &mut got), &got),
            (e.encode_prefix_utf8_naive(s, &mut want), &want),
            "utf8 {:?} on {:02X?}",
            e.level,
            s
        );
    }

    /// The validating variant against its twin on UTF-8 edge cases where the AVX-512 step
    /// decides across lanes: every pair, and every three- and four-byte sequence, of bytes at
    /// the edges of the UTF-8 ranges (RFC 3629 §4: the leads' limits, overlongs, surrogates,
    /// U+10FFFF, and stop bytes), at the lanes around the 64-byte block edges, in ASCII and
    /// in non-ASCII text without stops, with the input cut right after the sequence or going
    /// on. Both outcomes must occur many times (the test would be void otherwise).
    #[test]
    fn encode_prefix_utf8_at_block_edges() {
        let edges: [u8; 24] = [
            0x00, b'%', b'A', 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xC3,
            0xDF, 0xE0, 0xE2, 0xED, 0xEF, 0xF0, 0xF3, 0xF4, 0xF5, 0xFF,
        ];
        let mut seqs: Vec<Vec<u8>> = Vec::new();
        for &a in &edges {
            for &b in &edges {
                seqs.push(vec![a, b]);
                if a >= 0xE0 {
                    for &c in &edges[3..10] {
                        seqs.push(vec![a, b, c]);
                        if a >= 0xF0 {
                            seqs.push(vec![a, b, c, 0x80]);
                        }
                    }
                }
            }
        }
        let fills: [&[u8]; 2] = [b"abcdefgh", "é日".as_bytes()];
        let (mut valid, mut invalid) = (0u32, 0u32);
        for e in encoders(false).iter().chain(encoders(true).iter()) {
            for (k, seq) in seqs.iter().enumerate() {
                let fill = fills[k % 2];
                for at in [0usize, 1, 2, 61, 62, 63, 64, 65, 125, 126, 127] {
                    let mut s: Vec<u8> = fill.iter().copied().cycle().take(at).collect();
                    s.extend_from_slice(seq);
                    let cut = s.len();
                    s.extend(fill.iter().copied().cycle().take(140 - at));
                    for t in [&s[..cut], &s[..]] {
                        let (mut got, mut want) = (Vec::new(), Vec::new());
                        let g = e.encode_prefix_utf8(t, &mut got);
                        let w = e.encode_prefix_utf8_naive(t, &mut want);
                        assert_eq!((g, &got), (w, &want), "{:?} on {t:02X?}", e.level);
                        if w.1 {
                            valid += 1;
                        } else {
                            invalid += 1;
                        }
                    }
                }
            }
        }
        assert!(valid > 10_000 && invalid > 10_000, "{valid} {invalid}");
    }

    #[test]
    fn stop_set_is_what_the_module_says() {
        for leiri in [false, true] {
            let t = stop_table(leiri);
            for b in 0..0x80u8 {
                assert_eq!(t[b as usize], !PLAIN_TABLE[b as usize], "{b:02X}");
            }
            assert!(
                t[0x80..0xC0].iter().all(|&s| !s),
                "continuations never stop"
            );
            for b in [0xC0usize, 0xC1, 0xF5, 0xFF, 0xC2] {
                assert!(t[b], "{b:02X}");
            }
        }
        let t = stop_table(false);
        // Leads of common scripts stay on the block path; the ones of U+061C, U+2xxx (bidi
        // formatting), private use, specials and the supplementary planes leave it.
        for b in [0xC3, 0xD0, 0xD8, 0xD9, 0xE0, 0xE1, 0xE3, 0xE4, 0xEA, 0xED] {
            assert!(!t[b], "{b:02X} should be quiet");
        }
        assert!(TABLES[0].pair && !TABLES[1].pair);
        for b in [0xE2, 0xEE, 0xEF, 0xF0, 0xF3, 0xF4] {
            assert!(t[b], "{b:02X} should stop");
        }
        let l = stop_table(true);
        // LEIRI: C1 controls (C2) and U+FFFE, U+FFFF (EF) only.
        assert!((0xC3..=0xF4).all(|b| !l[b] || b == 0xEF) && l[0xC2] && l[0xEF]);
    }

    #[test]
    fn lead_quiet_agrees_with_every_code_point() {
        // The fast reverse scan of `lead_is_quiet` against a plain scan over all scalars.
        for leiri in [false, true] {
            let mut quiet = [true; 256];
            let mut seen = [false; 256];
            for c in (0x80..=0x10FFFFu32).filter_map(char::from_u32) {
                let mut buf = [0u8; 4];
                let lead = c.encode_utf8(&mut buf).as_bytes()[0] as usize;
                seen[lead] = true;
                quiet[lead] &= is_quiet(c as u32, leiri) || c as u32 == PAIR_CHAR;
            }
            for b in 0..=255u8 {
                assert_eq!(
                    lead_is_quiet(b, leiri),
                    seen[b as usize] && quiet[b as usize],
                    "{b:02X}"
                );
            }
        }
    }

    /// Bytes of each kind: plain ASCII, stop ASCII, continuation, quiet lead, stop lead.
    const KINDS: [u8; 8] = [b'a', b'%', 0x80, 0xC3, 0xE2, 0x00, b'7', 0xD8];

    #[test]
    fn kernels_match_twin_over_length_alignment_position() {
        for e in encoders(false) {
            let mut buf = vec![0u8; 300 + 32];
            for len in 0..=300usize {
                for align in 0..32usize {
                    let bg_kinds: [&dyn Fn(usize) -> u8; 5] = [
                        &|i| b"abc/XYZ:@~"[i % 10],
                        &|i| b"%C3%A9%e4x"[i % 10],
                        &|i| [0xD8, 0x9C, 0xD8, 0xA7, b'a'][i % 5],
                        &|i| [0xE4, 0xB8, 0xAD, 0xC3, 0xA9][i % 5],
                        &|i| [b'a', 0xC3, 0xA9, b'-', 0xD0, 0xB4, 0xE0, 0xA4, 0x95][i % 9],
                    ];
                    let bg = bg_kinds[(len + align) % 5];
                    for (i, x) in buf[align..align + len].iter_mut().enumerate() {
                        *x = bg(i);
                    }
                    check(&e, &buf[align..align + len], b"");
                    // Each special byte at every position (all of them for short lengths and
                    // near both ends, every 7th in between).
                    for p in 0..len {
                        if len > 80 && p >= 40 && p + 40 < len && p % 7 != 0 {
                            continue;
                        }
                        // Each kind of special byte meets each position at six of the
                        // alignments (the kind turns with the alignment).
                        let k = KINDS[(p + align) % KINDS.len()];
                        let old = buf[align + p];
                        buf[align + p] = k;
                        check(&e, &buf[align..align + len], b"x");
                        buf[align + p] = old;
                    }
                }
            }
        }
    }

    #[test]
    fn every_byte_value_in_every_lane() {
        for leiri in [false, true] {
            for e in encoders(leiri) {
                for b in 0..=255u8 {
                    for len in [1usize, 15, 16, 17, 31, 32, 33, 48, 64, 65, 127, 129] {
                        for p in 0..len {
                            let mut s = vec![0xC3u8; len];
                            for (i, x) in s.iter_mut().enumerate() {
                                *x = if i % 2 == 0 { 0xC3 } else { 0xA9 };
                            }
                            s[p] = b;
                            check(&e, &s, b"");
                        }
                    }
                }
            }
        }
    }

    mod prop {
        use super::*;
        use proptest::prelude::*;

        fn byte() -> impl Strategy<Value = u8> {
            prop_oneof![
                4 => b'a'..=b'z',
                2 => Just(b'%'),
                1 => Just(b'/'),
                2 => prop_oneof![b'0'..=b'9', b'A'..=b'F', b'a'..=b'f'],
                3 => 0x80u8..=0xBF,
                1 => Just(0x9C),
                1 => Just(0xD8),
                2 => 0xC2u8..=0xF4,
                1 => any::<u8>(),
            ]
        }

        proptest! {
            #[test]
            fn kernels_match_twin(s in proptest::collection::vec(byte(), 0..200), leiri: bool) {
                for e in encoders(leiri) {
                    check(&e, &s, b"prefix");
                }
            }

            #[test]
            fn kernels_match_twin_on_text(s in "[a-z/é日ßа-я\u{1F600}\u{200F}%]{0,120}") {
                for e in encoders(false) {
                    check(&e, s.as_bytes(), b"");
                }
            }
        }
    }
}
