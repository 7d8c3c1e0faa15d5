//! Predicates of the ASCII URI-reference grammar (RFC 3986 §3, §4.1) for the engine's fast
//! paths: [`is_plain`] (a line with no flagged byte), [`is_valid_ascii_uri`] (an ASCII line
//! the to-uri converter would pass through unchanged). Each answers `false` when unsure: "ask
//! the exact converter". `is_plain_naive` is the twin of [`is_plain`]; the engine's naive
//! chunk converter is the twin of [`is_valid_ascii_uri`].

use super::classes::{self, SCHEME};
use super::{components, pct};
use crate::simd::delims::delims16;
#[cfg(target_arch = "x86_64")]
use crate::simd::pct::{nibble_rows, HI_A};
use std::ops::Range;

/// Cheap check of a line with no flagged byte: true if the exact converter would pass it
/// through unchanged. It looks at what flagged bytes cannot reveal: the scheme (RFC 3986 §3.1;
/// a `:` in the first segment of a relative reference) and the port (RFC 3986 §3.2.3).
/// `false` only means "ask the converter". `is_plain_naive` is its twin.
#[inline]
pub fn is_plain(line: &[u8]) -> bool {
    // The common schemes first: one compare instead of a byte loop.
    let rest = if line.starts_with(b"https:") {
        6
    } else if line.starts_with(b"http:") {
        5
    } else {
        match scheme_end_fast(line) {
            Some(r) => r,
            None => return false,
        }
    };
    match line.get(rest..rest + 2) {
        Some(b"//") => authority_ok(&line[rest + 2..]),
        _ => true,
    }
}

/// The shape that the engine's one-pass clean-line shortcuts answer themselves (to-uri's
/// `plain_quick`, to-iri's `iri_quick`, normalize's `normal_quick`): a line of at least 16
/// bytes, whose last byte is above the space (none of the C0 controls and spaces that browsers
/// trim, WHATWG URL §4.4 step 1: `quick_ok`'s first test), that starts with `https://`,
/// `http://` or `file://` in lower case (RFC 3986 §3.1, §3.2). `Some((a0, file))`: where the
/// authority starts (8 or 7), and whether the scheme is `file`.
#[inline(always)]
pub(crate) fn crawl_head(line: &[u8]) -> Option<(usize, bool)> {
    let n = line.len();
    if n < 16 || line[n - 1] <= b' ' {
        return None;
    }
    let head = u64::from_le_bytes(line[..8].try_into().expect("8 bytes"));
    const SEVEN: u64 = (1 << 56) - 1;
    if head == u64::from_le_bytes(*b"https://") {
        Some((8, false))
    } else if head & SEVEN == u64::from_le_bytes(*b"http://\0") {
        Some((7, false))
    } else if head & SEVEN == u64::from_le_bytes(*b"file://\0") {
        Some((7, true))
    } else {
        None
    }
}

/// The byte sets of [`crawl_authority_avx512`]: `term`, the authority's terminators `# /
/// ?` (RFC 3986 §3.2); otherwise the ASCII bytes refused before them, neither
/// [`REG_NAME_PLAIN`] nor a terminator (§3.2.2). Bytes ≥ 0x80 are in neither.
#[cfg(target_arch = "x86_64")]
const fn auth_set(term: bool) -> [bool; 256] {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 128 {
        let is_term = matches!(b as u8, b'#' | b'/' | b'?');
        t[b] = if term {
            is_term
        } else {
            !is_term && !REG_NAME_PLAIN[b]
        };
        b += 1;
    }
    t
}
/// Their low-nibble rows for bytes below 0x80 ([`nibble_rows`], the percent-encoder's
/// construction), tested against [`HI_A`]`[high nibble]`.
#[cfg(target_arch = "x86_64")]
const AUTH_TERM_LO: [u8; 16] = nibble_rows(&auth_set(true))[0];
#[cfg(target_arch = "x86_64")]
const AUTH_BAD_LO: [u8; 16] = nibble_rows(&auth_set(false))[0];

/// [`crawl_authority`] from `a0` in one masked 64-byte load (issue 11: the 16-byte loop was
/// about a fifth of `end_line` on `na100.txt`): the authority's end is its first `/ ? #`
/// (RFC 3986 §3.2), and every byte before it must be a `reg-name` byte without `%` or a byte
/// ≥ 0x80 — the ASCII bytes refused are the controls, space and DEL, `" % : < > @ [ \ ] ^
/// ` { | }`. Both sets come from nibble lookups ([`auth_set`]; a compare per byte value cost 8.5 % of to-uri `--host percent` on `intl_cldr`). `None` when
/// the 64 bytes hold no terminator and the line goes on (the caller's loop then decides);
/// the lanes past the line read as zero and are masked off. The twin is
/// [`crawl_authority_naive`] (the test `crawl_authority_matches_twin`, authorities of 1 to
/// 70 bytes with every byte value at every position).
///
/// # Safety
/// The CPU must have AVX-512 F and BW, and BMI2; `a0 < line.len()`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,bmi2")]
unsafe fn crawl_authority_avx512(line: &[u8], a0: usize) -> Option<Option<(usize, usize, bool)>> {
    use core::arch::x86_64::*;
    let n = line.len();
    let rem = n - a0;
    let lanes = _bzhi_u64(u64::MAX, rem.min(64) as u32);
    // SAFETY: the lanes read are `line[a0..a0 + min(rem, 64)]`, within `line`; a masked load
    // does not touch the memory of the lanes it leaves out (they read as zero).
    let v = unsafe { _mm512_maskz_loadu_epi8(lanes, line[a0..].as_ptr().cast()) };
    let table = |t: &[u8; 16]| {
        // SAFETY: `t` is 16 readable bytes; no alignment is required.
        _mm512_broadcast_i32x4(unsafe { _mm_loadu_si128(t.as_ptr().cast()) })
    };
    // Each lane's row bit (`1 << high nibble`), then its bit in each set's row table
    // (`vpshufb` gives zero for a lane whose byte is ≥ 0x80).
    let hi = _mm512_and_si512(_mm512_srli_epi16(v, 4), _mm512_set1_epi8(0x0F));
    let row = _mm512_shuffle_epi8(table(&HI_A), hi);
    let term = _mm512_test_epi8_mask(_mm512_shuffle_epi8(table(&AUTH_TERM_LO), v), row) & lanes;
    let bad = _mm512_test_epi8_mask(_mm512_shuffle_epi8(table(&AUTH_BAD_LO), v), row);
    // The authority's lanes: up to the first terminator.
    let auth = lanes & (term & term.wrapping_neg()).wrapping_sub(1);
    if bad & auth != 0 {
        return Some(None);
    }
    let wide = _mm512_movepi8_mask(v) & auth != 0;
    if term != 0 {
        let end = a0 + term.trailing_zeros() as usize;
        return Some((end > a0).then_some((a0, end, wide)));
    }
    (rem <= 64).then_some(Some((a0, n, wide)))
}

/// The bytes of a `reg-name` (RFC 3986 §3.2.2) other than `%`: `unreserved` (§2.3) and
/// `sub-delims` (§2.2), for [`crawl_authority_naive`] and the nibble rows of
/// [`crawl_authority_avx512`] ([`auth_set`]).
const REG_NAME_PLAIN: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 128 {
        let c = b as u8;
        t[b] = c.is_ascii_alphanumeric()
            || matches!(c, b'-' | b'.' | b'_' | b'~')
            || matches!(
                c,
                b'!' | b'$' | b'&' | b'\'' | b'(' | b')' | b'*' | b'+' | b',' | b';' | b'='
            );
        b += 1;
    }
    t
};

/// A line of [`crawl_head`]'s shape with `https://` or `http://` whose authority (up to the
/// first `/ ? #`, RFC 3986 §3.2) is not empty and is made of `unreserved` and `sub-delims`
/// (a `reg-name`, §3.2.2, without `%`: no port `:`, userinfo `@`, brackets, `\` or controls)
/// and of bytes ≥ 0x80 (an IRI's host written in Unicode, RFC 3987 §3.1 `ireg-name`). Returns
/// where the authority starts (after `//`) and ends (its terminator, or the line's end), and
/// whether it holds a byte ≥ 0x80. For such a line the
/// [`Guard`](crate::convert::integrity::Guard)'s checks before the converter have nothing to
/// find (`LineHead::crawl`); to-uri's one-pass shortcut passes an ASCII one as it is
/// (`ToUri::convert_crawl_line`).
///
/// 16-byte blocks from the authority's start: the bytes not allowed in a URI and brackets
/// ([`path_masks16`](crate::simd::delims::path_masks16)) but for the non-ASCII ones
/// ([`high_mask16`](crate::simd::delims::high_mask16)), `%`, `#`, and `/ ? : @`
/// ([`eq_masks16`](crate::simd::delims::eq_masks16)); the last block is the line's last 16
/// bytes (the line has at least 16), its bits before the unread bytes cleared. A table loop
/// per byte cost ~145 instructions a line (issue 11). [`crawl_authority_naive`] is its twin
/// (the test `crawl_authority_matches_twin`).
#[inline]
pub(crate) fn crawl_authority(line: &[u8]) -> Option<(usize, usize, bool)> {
    use crate::simd::delims::{eq_masks16, high_mask16, path_masks16};
    let (a0, file) = crawl_head(line)?;
    if file {
        return None;
    }
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx512bw")
        && std::arch::is_x86_feature_detected!("bmi2")
    {
        // SAFETY: the callee's features (AVX-512 F and BW, BMI2), detected just above
        // (AVX-512 BW implies F).
        if let Some(answer) = unsafe { crawl_authority_avx512(line, a0) } {
            return answer;
        }
    }
    let n = line.len();
    let mut i = a0;
    let mut wide = false;
    loop {
        let at = i.min(n - 16);
        let b: &[u8; 16] = line[at..at + 16].try_into().expect("16 bytes");
        let fresh = !0u32 << (i - at);
        let (bad, percent, hash) = path_masks16(b);
        let high = high_mask16(b);
        let [slash, question, colon, at_sign] = eq_masks16(b, [b'/', b'?', b':', b'@']);
        let term = (slash | question | hash) & fresh;
        // The authority's bytes in this block: from `i` up to the first terminator.
        let auth = fresh & (term & term.wrapping_neg()).wrapping_sub(1);
        if (bad & !high | percent | colon | at_sign) & auth != 0 {
            return None;
        }
        wide |= high & auth != 0;
        if term != 0 {
            let end = at + term.trailing_zeros() as usize;
            return (end > a0).then_some((a0, end, wide));
        }
        if at + 16 >= n {
            return Some((a0, n, wide)); // to the end: n >= 16 > a0, not empty
        }
        i = at + 16;
    }
}

/// The twin of [`crawl_authority`]: the authority's bytes one at a time against a table of
/// `unreserved` and `sub-delims`, and bytes ≥ 0x80.
#[cfg(any(test, feature = "twins"))]
pub(crate) fn crawl_authority_naive(line: &[u8]) -> Option<(usize, usize, bool)> {
    let (a0, file) = crawl_head(line)?;
    if file {
        return None;
    }
    let end = line[a0..]
        .iter()
        .position(|&b| b < 0x80 && !REG_NAME_PLAIN[usize::from(b)])
        .map_or(line.len(), |p| a0 + p);
    let wide = line[a0..end].iter().any(|&b| b >= 0x80);
    (end > a0 && matches!(line.get(end), None | Some(b'/' | b'?' | b'#')))
        .then_some((a0, end, wide))
}

/// [`crawl_authority`] against its twin on raw bytes, for the fuzz target `simd_twin` and the
/// tests; not part of the API.
#[cfg(any(test, feature = "twins"))]
#[doc(hidden)]
pub fn crawl_twin_check(line: &[u8]) {
    assert_eq!(
        crawl_authority(line),
        crawl_authority_naive(line),
        "crawl authority {line:02X?}"
    );
}

/// True when `line[i..]` holds no `:` and no `|`: in a `file` URL after its `//`, neither a
/// port (RFC 3986 §3.2.3) nor a drive letter (RFC 8089 Appendix E.2) — `quick_ok`'s `file`
/// rule. 16-byte compares ([`eq_masks16`](crate::simd::delims::eq_masks16)); the last block
/// is the line's last 16 bytes (`line` has at least 16, [`crawl_head`]'s shape).
#[inline(always)]
pub(crate) fn no_colon_or_bar_from(line: &[u8], mut i: usize) -> bool {
    let n = line.len();
    debug_assert!(n >= 16);
    while i < n {
        let at = i.min(n - 16);
        let block: &[u8; 16] = line[at..at + 16].try_into().expect("16 bytes");
        let [colon, bar] = crate::simd::delims::eq_masks16(block, [b':', b'|']);
        // Bits below `i - at` are bytes the block before has seen.
        if (colon | bar) & (!0u32 << (i - at)) != 0 {
            return false;
        }
        i = at + 16;
    }
    true
}

/// For the tests of the shortcuts: [`crawl_head`]'s shape spelled one byte at a time, and the
/// parts of such a line: `(file, rest, authority)`, where `rest` follows the `//` and the
/// authority is `rest` up to its first `/ ? #` (RFC 3986 §3.2).
#[cfg(test)]
pub(crate) fn crawl_parts(line: &[u8]) -> Option<(bool, &[u8], &[u8])> {
    let (a0, file) = if line.starts_with(b"https://") {
        (8, false)
    } else if line.starts_with(b"http://") {
        (7, false)
    } else if line.starts_with(b"file://") {
        (7, true)
    } else {
        return None;
    };
    if line.len() < 16 || line[line.len() - 1] <= b' ' {
        return None;
    }
    let rest = &line[a0..];
    let end = rest
        .iter()
        .position(|&b| matches!(b, b'/' | b'?' | b'#'))
        .unwrap_or(rest.len());
    Some((file, rest, &rest[..end]))
}

/// The common test of a one-pass shortcut `quick` of [`crawl_head`]'s shape, on every line of
/// [`shortcut_test_lines`]: never true where `twin` (the predicates it stands for) is false,
/// equal to `shape` (its written definition), and `whole` (the shortcut `||` the predicates,
/// what the engine calls) equal to `twin`. It must accept some made lines and not all, and,
/// when the data sets are there, more than 80,000 of their lines (most of the real data set
/// has the shape).
#[cfg(test)]
pub(crate) fn assert_shortcut(
    quick: fn(&[u8]) -> bool,
    twin: fn(&[u8]) -> bool,
    shape: fn(&[u8]) -> bool,
    whole: fn(&[u8]) -> bool,
) {
    // Whether `quick` accepted `line`, after the assertions.
    let check = |line: &[u8]| {
        let (q, t) = (quick(line), twin(line));
        let show = String::from_utf8_lossy(line);
        assert!(!q || t, "{show:?}");
        assert_eq!(q, shape(line), "{show:?}");
        assert_eq!(whole(line), t, "{show:?}");
        q
    };
    let (mut made, mut accepted) = (0usize, 0usize);
    let (mut lines, mut real) = (0usize, 0usize);
    let read = shortcut_test_lines(
        |line| {
            made += 1;
            accepted += usize::from(check(line));
        },
        |line| {
            lines += 1;
            real += usize::from(check(line));
        },
    );
    assert!(accepted > 0 && accepted < made, "{accepted} of {made}");
    assert!(!read || real > 80_000, "{real} of {lines}");
}

/// For the tests of the one-pass crawl-line shortcuts: 20,000 made lines, each a head
/// (`https://`, `http://` or `file://`), one of `hosts` and 2 to 65 of `pieces`, drawn by a
/// xorshift and an LCG from `seed` (reproducible), each passed to `f`.
#[cfg(test)]
pub(crate) fn made_crawl_lines(
    seed: u64,
    hosts: &[&str],
    pieces: &[&str],
    mut f: impl FnMut(&[u8]),
) {
    let mut x = seed;
    for _ in 0..20_000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let mut line = String::from(["https://", "http://", "file://"][(x % 3) as usize]);
        line.push_str(hosts[(x >> 3) as usize % hosts.len()]);
        let mut y = x;
        for _ in 0..(x >> 58) + 2 {
            y = y
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            line.push_str(pieces[(y >> 40) as usize % pieces.len()]);
        }
        f(line.as_bytes());
    }
}

/// Lines for the tests of the one-pass shortcuts of [`crawl_head`]'s shape, given to `made`
/// and then to `data`: lines made of the bytes they look at (each head; every length up to
/// 48; two of `/ ? # : @ | - % [ ] a F 0`, a space, CR, NUL or 0x80 at every position, with
/// and without a `/` further on: `--` pairs, `%` triplets whole and cut), 200,000 reproducible random
/// lines after a head, and then every line of every `../shared/datasets/*.txt` (`data`;
/// skipped with a message outside CI when the folder is missing: returns false then).
#[cfg(test)]
pub(crate) fn shortcut_test_lines(
    mut made: impl FnMut(&[u8]),
    mut data: impl FnMut(&[u8]),
) -> bool {
    let alphabet: &[u8] = b"/?#:@|-%[]aF0 \r\x00\x80";
    for prefix in [
        "https://", "http://", "file://", "file:///", "ftp://", "HTTP://",
    ] {
        for len in prefix.len()..=48 {
            for pos in prefix.len()..len {
                for &x in alphabet {
                    for &y in alphabet {
                        let mut line = prefix.as_bytes().to_vec();
                        line.resize(len, b'a');
                        line[pos] = x;
                        line[(pos + 1).min(len - 1)] = y;
                        made(&line);
                        let k = prefix.len() + (pos * 7 + 3) % (len - prefix.len());
                        line[k] = b'/';
                        made(&line);
                    }
                }
            }
        }
    }
    // Random lines after each head (xorshift and an LCG: reproducible).
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    for _ in 0..200_000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let prefix: &[u8] = [b"https://".as_slice(), b"http://", b"file://"][(x % 3) as usize];
        let len = (x >> 8) as usize % 70;
        let mut line = prefix.to_vec();
        let mut y = x;
        for _ in 0..len {
            y = y
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            line.push(alphabet[(y >> 59) as usize % alphabet.len()]);
            if (y >> 33).is_multiple_of(3) {
                line.push(b"abc.-_~0xn"[(y >> 20) as usize % 10]);
            }
        }
        made(&line);
    }
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/datasets");
    match std::fs::read_dir(&dir) {
        Ok(rd) => {
            for e in rd.flatten() {
                if e.path().extension().is_some_and(|x| x == "txt") {
                    let bytes = std::fs::read(e.path()).expect("dataset");
                    bytes.split(|&b| b == b'\n').for_each(&mut data);
                }
            }
            true
        }
        Err(e) if std::env::var_os("CI").is_none() => {
            eprintln!("SKIPPED the data sets ({}: {e})", dir.display());
            false
        }
        Err(e) => panic!("{}: {e}", dir.display()),
    }
}

/// The head of a line that [`is_plain`] accepts, as its split finds it (RFC 3986 Appendix B on
/// a line with no `#`, `@`, `[`, `]`, `%` and no byte outside the URI characters): for the
/// normalize shortcut, which needs the scheme, the authority and the port.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct PlainHead {
    /// Where the part after the scheme starts: after `scheme:`, or 0 without a scheme (the
    /// scheme is `line[..rest - 1]` when `rest > 0`).
    pub rest: usize,
    /// The authority without its `//`, when there is one.
    pub authority: Option<Range<usize>>,
    /// The `:` that starts the port (RFC 3986 §3.2.3), inside the authority; the port is the
    /// digits after it up to the authority's end (maybe none).
    pub port_colon: Option<usize>,
}

impl PlainHead {
    /// Where the path starts: at the authority's end, else right after the scheme.
    #[inline]
    pub fn path_start(&self) -> usize {
        self.authority.as_ref().map_or(self.rest, |a| a.end)
    }
}

/// [`is_plain`] with its split: `Some` exactly when [`is_plain`] is true (the test
/// `plain_head_matches_the_splitter` compares both with the real splitter). A line with no
/// flagged byte has no `@` and no `[`, so the authority's first `:` starts the port.
/// [`is_plain`] keeps its own loop, which only answers yes or no: the engine's to-uri
/// clean-line loop inlines it.
#[inline]
pub(crate) fn plain_head(line: &[u8]) -> Option<PlainHead> {
    let rest = if line.starts_with(b"https:") {
        6
    } else if line.starts_with(b"http:") {
        5
    } else {
        scheme_end_fast(line)?
    };
    if line.get(rest..rest + 2) != Some(b"//") {
        return Some(PlainHead {
            rest,
            authority: None,
            port_colon: None,
        });
    }
    let a0 = rest + 2;
    let a = &line[a0..];
    // The first `/ ? #` and the first `:`, 16 bytes at a time, then byte by byte.
    let (mut end, mut colon) = (None, None);
    let mut i = 0;
    while end.is_none() && i + 16 <= a.len() {
        let (t, c) = delims(&a[i..i + 16]);
        if colon.is_none() && c != 0 {
            colon = Some(i + c.trailing_zeros() as usize);
        }
        if t != 0 {
            end = Some(i + t.trailing_zeros() as usize);
        }
        i += 16;
    }
    let end = match end {
        Some(e) => e,
        None => {
            // The tail, byte by byte (most authorities are shorter than 16 bytes).
            let mut k = i;
            while k < a.len() && !matches!(a[k], b'/' | b'?' | b'#') {
                if a[k] == b':' && colon.is_none() {
                    colon = Some(k);
                }
                k += 1;
            }
            k
        }
    };
    let colon = colon.filter(|&c| c < end);
    if let Some(c) = colon {
        if !a[c + 1..end].iter().all(u8::is_ascii_digit) {
            return None;
        }
    }
    Some(PlainHead {
        rest,
        authority: Some(a0..a0 + end),
        port_colon: colon.map(|c| a0 + c),
    })
}

/// [`scheme_end`] with the first delimiter found by one 16-byte SIMD compare when the line is
/// long enough.
#[inline]
fn scheme_end_fast(line: &[u8]) -> Option<usize> {
    if line.len() >= 16 {
        let (t, c) = delims(line);
        let m = t | c;
        if m != 0 {
            let j = m.trailing_zeros() as usize;
            if c & (1 << j) == 0 {
                return Some(0); // no scheme: a relative reference
            }
            let ok = j > 0
                && line[0].is_ascii_alphabetic()
                && line[1..j].iter().all(|&b| classes::is(b, SCHEME));
            return ok.then_some(j + 1);
        }
    }
    scheme_end(line)
}

/// Where the path part starts: after `scheme:` if the line has a valid scheme, 0 if it has
/// none; `None` if the text before the first `:` is not a scheme.
#[inline]
pub(crate) fn scheme_end(line: &[u8]) -> Option<usize> {
    let j = line
        .iter()
        .position(|&b| matches!(b, b':' | b'/' | b'?' | b'#'))
        .unwrap_or(line.len());
    if j < line.len() && line[j] == b':' {
        if j == 0
            || !line[0].is_ascii_alphabetic()
            || !line[1..j].iter().all(|&b| classes::is(b, SCHEME))
        {
            return None;
        }
        return Some(j + 1);
    }
    Some(0)
}

/// Bit 7 of each byte of `w` that equals `b`, exact for the lowest match (SWAR).
#[inline(always)]
fn has_byte(w: u64, b: u8) -> u64 {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    let y = w ^ (LO * b as u64);
    y.wrapping_sub(LO) & !y & HI
}

/// The authority (after `//`) of a line with no flagged byte has no `@` and no `[`, so its
/// first `:` starts the port, which must be digits up to the first `/`, `?` or `#`.
#[inline]
fn authority_ok(a: &[u8]) -> bool {
    let mut i = 0;
    while i + 16 <= a.len() {
        let (t, c) = delims(&a[i..i + 16]);
        // A ':' counts if it comes before the first terminator.
        let before = c & t.wrapping_sub(1) & !t;
        if before != 0 {
            return port_ok(&a[i + before.trailing_zeros() as usize + 1..]);
        }
        if t != 0 {
            return true;
        }
        i += 16;
    }
    while i + 8 <= a.len() {
        let w = u64::from_le_bytes(a[i..i + 8].try_into().expect("8 bytes"));
        let t = has_byte(w, b'/') | has_byte(w, b'?') | has_byte(w, b'#');
        let c = has_byte(w, b':');
        // The lowest set bit of each mask is exact; a ':' counts if it comes before the
        // first terminator.
        let before = if t == 0 {
            c
        } else {
            c & ((1u64 << t.trailing_zeros()) - 1)
        };
        if before != 0 {
            return port_ok(&a[i + before.trailing_zeros() as usize / 8 + 1..]);
        }
        if t != 0 {
            return true;
        }
        i += 8;
    }
    for (k, &b) in a[i..].iter().enumerate() {
        match b {
            b'/' | b'?' | b'#' => return true,
            b':' => return port_ok(&a[i + k + 1..]),
            _ => {}
        }
    }
    true
}

/// Bit masks of `/ ? #` and of `:` in the first 16 bytes of `b` (the SIMD kernel of
/// [`crate::simd::delims`]).
#[inline(always)]
fn delims(b: &[u8]) -> (u32, u32) {
    let block: &[u8; 16] = b[..16].try_into().expect("at least 16 bytes");
    delims16(block)
}

#[cold]
fn port_ok(p: &[u8]) -> bool {
    p.iter()
        .take_while(|&&b| !matches!(b, b'/' | b'?' | b'#'))
        .all(u8::is_ascii_digit)
}

/// Second chance for a flagged line in to-uri mode: true if the line is an ASCII URI
/// reference that the converter would pass through unchanged — only URI characters, a valid
/// scheme and authority, every `%` starting `%HH`, brackets only around an IP literal, one
/// `#` at most (RFC 3986 §2–§4; contract item 4). Lines with `%`, `#` or `@` are common in
/// crawls and cost ~10× more through the converter, which writes them out and compares.
/// `false` only means "ask the converter"; `engine::Worker::convert_chunk_naive` is the twin it is tested
/// against.
pub fn is_valid_ascii_uri(line: &[u8]) -> bool {
    valid_ascii_uri_split(line).is_some()
}

/// [`is_valid_ascii_uri`], with the components (RFC 3986 Appendix B) and the parts of the
/// authority (§3.2) it split the line into when it answers `true`, for `check`, which needs
/// them next.
pub(crate) fn valid_ascii_uri_split(
    line: &[u8],
) -> Option<(components::Components, Option<components::Authority>)> {
    // One pass: allowed bytes, well-formed %HH, how many '#', whether any bracket.
    let (mut i, n) = (0, line.len());
    let (mut hashes, mut brackets) = (0u32, false);
    loop {
        i += classes::plain_prefix_len(&line[i..]);
        if i >= n {
            break;
        }
        match line[i] {
            b'%' => {
                if !pct::is_pct_triplet(line, i) {
                    return None;
                }
                i += 3;
            }
            b'#' => {
                hashes += 1;
                i += 1;
            }
            b'[' | b']' => {
                brackets = true;
                i += 1;
            }
            _ => return None, // not allowed in a URI as it is
        }
    }
    if hashes > 1 {
        return None;
    }
    let c = components::split(line);
    components::check_scheme(line, &c).ok()?;
    let mut rest = c.path.start;
    let mut auth = None;
    if let Some(ar) = c.authority.clone() {
        let a = components::split_authority(line, ar).ok()?;
        let host = &line[a.host.clone()];
        if host.first() == Some(&b'[') {
            if !components::is_ip_literal(host) {
                return None;
            }
            rest = a.host.end; // the port (digits, checked) and the path follow
        } else {
            rest = a.host.start;
        }
        auth = Some(a);
    }
    (!brackets || memchr::memchr2(b'[', b']', &line[rest..]).is_none()).then_some((c, auth))
}

/// Where the delimiters of a line's head are, for `check`'s quick pass
/// ([`crate::convert::check::quick_valid`]): bit `i` of each mask is byte `i` of the line,
/// for its first 64 bytes (RFC 3986 Appendix B decides the scheme and the authority by these
/// bytes: `:` ends a scheme, `/` and `?` end an authority, `:` starts a port and `@` ends a
/// userinfo, §3.1, §3.2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct HeadMasks {
    /// `/` and `?`.
    pub term: u64,
    /// `:`.
    pub colon: u64,
    /// `@`.
    pub at: u64,
    /// A `:` at byte 64 or later.
    pub colon_after: bool,
}

/// The [`HeadMasks`] of `line`, or `None` when it holds `%`, `#`, `[` or `]` anywhere (the
/// bytes whose placement RFC 3986 restricts: §2.1 `pct-encoded`, §3.5 one fragment, §3.2.2
/// IP literals; the caller then checks the line byte by byte). 16 bytes at a time by SSE2
/// compares where the target has them ([`head_masks16`]); [`head_masks_naive`] is its twin.
#[inline]
pub(crate) fn head_masks(line: &[u8]) -> Option<HeadMasks> {
    let n = line.len();
    let mut m = HeadMasks::default();
    if n < 16 {
        // A zero-padded copy: a zero byte is none of the bytes looked for.
        let mut b = [0u8; 16];
        b[..n].copy_from_slice(line);
        let k = head_masks16(&b);
        if k.3 != 0 {
            return None;
        }
        (m.term, m.colon, m.at) = (k.0.into(), k.1.into(), k.2.into());
        return Some(m);
    }
    // The blocks of the first 64 bytes (the last one overlapping the block before when the
    // line is shorter: bits are ORed, a byte seen twice is fine): every mask.
    let head = n.min(64);
    let mut i = 0;
    loop {
        let at = i.min(head - 16);
        let block: &[u8; 16] = line[at..at + 16].try_into().expect("16 bytes");
        let k = head_masks16(block);
        if k.3 != 0 {
            return None;
        }
        m.term |= u64::from(k.0) << at;
        m.colon |= u64::from(k.1) << at;
        m.at |= u64::from(k.2) << at;
        if at + 16 >= head {
            break;
        }
        i += 16;
    }
    // The rest: `% # [ ]` and whether there is a `:`.
    let mut i = 64;
    while i < n {
        let at = i.min(n - 16);
        let block: &[u8; 16] = line[at..at + 16].try_into().expect("16 bytes");
        let k = head_masks16(block);
        if k.3 != 0 {
            return None;
        }
        // The colons at byte 64 or later (the last block may start before it).
        m.colon_after |= u32::from(k.1) >> (64usize.saturating_sub(at)) != 0;
        i += 16;
    }
    Some(m)
}

/// The twin of [`head_masks`]: one byte at a time.
#[cfg(test)]
pub(crate) fn head_masks_naive(line: &[u8]) -> Option<HeadMasks> {
    let mut m = HeadMasks::default();
    for (i, &b) in line.iter().enumerate() {
        match b {
            b'%' | b'#' | b'[' | b']' => return None,
            b':' if i >= 64 => m.colon_after = true,
            _ if i >= 64 => {}
            b'/' | b'?' => m.term |= 1 << i,
            b':' => m.colon |= 1 << i,
            b'@' => m.at |= 1 << i,
            _ => {}
        }
    }
    Some(m)
}

/// The masks of one block: `/ ?`, `:`, `@`, and `% # [ ]`.
#[inline(always)]
fn head_masks16(b: &[u8; 16]) -> (u16, u16, u16, u16) {
    let [sl, qu, co, at, pc, ha, lb, rb] =
        crate::simd::delims::eq_masks16(b, [b'/', b'?', b':', b'@', b'%', b'#', b'[', b']']);
    let m = |x: u32| x as u16;
    (m(sl | qu), m(co), m(at), m(pc | ha | lb | rb))
}

/// The twin of [`head_masks16`].
#[cfg(test)]
fn head_masks16_naive(b: &[u8; 16]) -> (u16, u16, u16, u16) {
    let mut k = (0u16, 0u16, 0u16, 0u16);
    for (i, &x) in b.iter().enumerate() {
        let bit = 1u16 << i;
        match x {
            b'/' | b'?' => k.0 |= bit,
            b':' => k.1 |= bit,
            b'@' => k.2 |= bit,
            b'%' | b'#' | b'[' | b']' => k.3 |= bit,
            _ => {}
        }
    }
    k
}

/// The obviously-correct twin of [`is_plain`]: split with the real splitter and check.
#[cfg(any(test, feature = "twins"))]
pub fn is_plain_naive(line: &[u8]) -> bool {
    let c = components::split(line);
    if components::check_scheme(line, &c).is_err() {
        return false;
    }
    match c.authority {
        Some(a) => components::split_authority(line, a).is_ok(),
        None => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`crawl_authority`] against its byte-loop twin on every line of
    /// [`shortcut_test_lines`] (every head, every length up to 48 with two of the bytes that
    /// matter at every position, random lines, every data-set line), and on authorities made
    /// of every byte at every position of lengths 1 to 40.
    #[test]
    fn crawl_authority_matches_twin() {
        let answered = std::cell::Cell::new(0usize);
        let wide = std::cell::Cell::new(0usize);
        let check = |l: &[u8]| {
            let got = crawl_authority(l);
            assert_eq!(
                got,
                crawl_authority_naive(l),
                "{:?}",
                String::from_utf8_lossy(l)
            );
            answered.set(answered.get() + usize::from(got.is_some()));
            wide.set(wide.get() + usize::from(got.is_some_and(|g| g.2)));
        };
        shortcut_test_lines(check, check);
        // Up to 70 bytes: past the AVX-512 level's one 64-byte block.
        for len in 1..=70 {
            for pos in 0..len {
                for b in 0..=255u8 {
                    let mut l = b"https://".to_vec();
                    l.extend(std::iter::repeat_n(b'a', len));
                    l[8 + pos] = b;
                    check(&l);
                    l.extend_from_slice(b"/p\xC3\xA9");
                    check(&l);
                }
            }
        }
        assert!(wide.get() > 1_000, "{}", wide.get());
        assert!(answered.get() > 100_000, "{}", answered.get());
    }

    /// The block kernel and the whole-line masks against their byte-loop twins: every length
    /// up to 100 (short lines, whole blocks, an overlapping last block, past 64) × every
    /// position of each byte looked for, over two backgrounds.
    #[test]
    fn head_masks_match_twins() {
        let special = [
            b'/', b'?', b':', b'@', b'%', b'#', b'[', b']', b'a', 0x80, 0,
        ];
        let mut found = 0;
        for bg in [b'a', b'.'] {
            for len in 0..100 {
                for pos in 0..len {
                    for &x in &special {
                        for second in [None, Some(len - 1), Some(len / 2)] {
                            let mut line = vec![bg; len];
                            line[pos] = x;
                            if let Some(q) = second {
                                line[q] = b':';
                            }
                            let want = head_masks_naive(&line);
                            assert_eq!(head_masks(&line), want, "{line:?}");
                            found += want.is_some_and(|m| m.colon_after) as u32;
                        }
                    }
                }
            }
        }
        assert!(found > 1000, "{found}");
        let mut b = [0u8; 16];
        for i in 0..16 {
            for &x in &special {
                b.fill(b'z');
                b[i] = x;
                assert_eq!(head_masks16(&b), head_masks16_naive(&b), "{b:?}");
            }
        }
    }
}

#[cfg(test)]
mod plain_head_tests {
    use super::*;
    use proptest::prelude::*;

    /// [`plain_head`] against the real splitter (RFC 3986 Appendix B, §3.2): wherever it
    /// answers, the scheme, authority and port it found are the splitter's; it answers exactly
    /// when [`is_plain`] and [`is_plain_naive`] do.
    fn head_matches_split(line: &[u8]) {
        let got = plain_head(line);
        assert_eq!(got.is_some(), is_plain_naive(line), "{line:?}");
        assert_eq!(got.is_some(), is_plain(line), "{line:?}");
        let Some(h) = got else {
            return;
        };
        let c = components::split(line);
        assert_eq!(h.rest, c.scheme.map_or(0, |s| s.end + 1), "{line:?}");
        assert_eq!(h.authority, c.authority, "{line:?}");
        assert_eq!(h.path_start(), c.path.start, "{line:?}");
        let port = c
            .authority
            .map(|a| components::split_authority(line, a).expect("is_plain_naive"))
            .and_then(|a| a.port)
            .map(|p| p.start - 1);
        assert_eq!(h.port_colon, port, "{line:?}");
    }

    #[test]
    fn plain_head_matches_the_splitter_at_every_length() {
        for n in 0..=40 {
            let a = "a".repeat(n);
            for line in [
                format!("http://{a}"),
                format!("https://{a}:8080"),
                format!("foo://{a}:/p"),
                format!("x://{a}:8x/p"),
                format!("//{a}?q:1"),
                format!("{a}:b/c"),
                format!("/{a}:b"),
                format!("s{a}://h{a}:{a}/p"),
            ] {
                head_matches_split(line.as_bytes());
            }
        }
    }

    proptest! {
        #[test]
        fn plain_head_matches_the_splitter(s in "(https?:|[a-z1+._:-]{0,4}:)?(//)?[a-z0-9.:/?_!~-]{0,40}") {
            head_matches_split(s.as_bytes());
        }
    }
}
