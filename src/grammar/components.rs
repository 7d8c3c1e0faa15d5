//! The zero-allocation splitter of a reference into component ranges (RFC 3986 Appendix B,
//! RFC 3987 §2.2 and 3987bis §3.2 "Parse the IRI into IRI components").
//!
//! Appendix B's regular expression `^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?`
//! is applied to bytes; every IRI delimiter is ASCII, so splitting UTF-8 bytes is exact.

use crate::error::{ErrorKind, LineError};
use crate::grammar::classes::{self, SCHEME};
use std::ops::Range;

/// Byte ranges of the five components of a reference (RFC 3986 §3). Ranges exclude the
/// delimiters (`:`, `//`, `?`, `#`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Components {
    /// The scheme, without its `:`.
    pub scheme: Option<Range<usize>>,
    /// The authority, without the leading `//`.
    pub authority: Option<Range<usize>>,
    /// The path (possibly empty).
    pub path: Range<usize>,
    /// The query, without its `?`.
    pub query: Option<Range<usize>>,
    /// The fragment, without its `#`.
    pub fragment: Option<Range<usize>>,
}

/// The schemes whose authority a browser parses with `\` as a path separator: the
/// "special" schemes of the WHATWG URL Standard (§4.1; `ws`, `wss` included) that have a
/// host. Compared ASCII-case-insensitively (RFC 3986 §3.1).
pub const BACKSLASH_SPECIAL_SCHEMES: [&[u8]; 6] =
    [b"http", b"https", b"ws", b"wss", b"ftp", b"file"];

/// What the host-integrity rule (issue 16) needs to know of a scheme: whether it is special
/// for the WHATWG URL Standard (§4.1), and which kind. ASCII case-insensitive (RFC 3986 §3.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SchemeClass {
    /// Not one of [`BACKSLASH_SPECIAL_SCHEMES`].
    Other,
    /// `http https ws wss ftp`: special, and the host may not be empty (RFC 9110 §4.2.1,
    /// RFC 6455 §3, RFC 1738 §3.2).
    NetSpecial,
    /// `file`: special, and the host may be empty (RFC 8089 §2).
    File,
}

/// The [`SchemeClass`] of `scheme` (without its `:`): a match on the length, then on the
/// bytes with the ASCII case bit set, instead of a loop over [`BACKSLASH_SPECIAL_SCHEMES`]
/// (asked several times per line by the host-integrity checks). Every scheme in the list is
/// made of letters, and `b | 0x20` equals a lower-case letter only for that letter and its
/// capital, so the comparison is exactly ASCII case-insensitive; the test
/// `scheme_class_matches_list_twin` checks it on every string of up to 3 bytes and on the
/// list's members and their near misses in every case mix.
#[inline]
pub fn scheme_class(scheme: &[u8]) -> SchemeClass {
    // Little-endian words of the lower-cased names.
    const fn word(s: &[u8]) -> u32 {
        let mut w = 0;
        let mut i = 0;
        while i < s.len() {
            w |= (s[i] as u32) << (8 * i);
            i += 1;
        }
        w
    }
    let lower = |s: &[u8]| -> u32 {
        let mut b = [0u8; 4];
        b[..s.len()].copy_from_slice(s);
        u32::from_le_bytes(b) | word(&[0x20; 4][..s.len()])
    };
    let net = match scheme.len() {
        2 => lower(scheme) == word(b"ws"),
        3 => matches!(lower(scheme), w if w == word(b"wss") || w == word(b"ftp")),
        4 => match lower(scheme) {
            w if w == word(b"http") => true,
            w if w == word(b"file") => return SchemeClass::File,
            _ => false,
        },
        5 => lower(&scheme[..4]) == word(b"http") && scheme[4] | 0x20 == b's',
        _ => false,
    };
    if net {
        SchemeClass::NetSpecial
    } else {
        SchemeClass::Other
    }
}

/// True for a special scheme of the WHATWG URL Standard (§4.1), one of
/// [`BACKSLASH_SPECIAL_SCHEMES`], ASCII case-insensitive: the schemes of the host-integrity
/// rule (issue 16) and of RFC 3986 §5.2.2's non-strict resolution ([`crate::grammar::resolve`]).
/// By [`scheme_class`]; [`is_special_scheme_naive`] is its twin.
#[inline]
pub fn is_special_scheme(scheme: &[u8]) -> bool {
    scheme_class(scheme) != SchemeClass::Other
}

/// The twin of [`is_special_scheme`]: a loop over [`BACKSLASH_SPECIAL_SCHEMES`].
pub fn is_special_scheme_naive(scheme: &[u8]) -> bool {
    BACKSLASH_SPECIAL_SCHEMES
        .iter()
        .any(|s| s.eq_ignore_ascii_case(scheme))
}

/// Host confusion (CVE-2019-9636 class): the offset of the first `\` inside the authority
/// (RFC 3986 §3.2: from `//` to the first `/`, `?` or `#`) of a reference whose scheme is
/// one of [`BACKSLASH_SPECIAL_SCHEMES`], if any. WHATWG URL §4.4 (special authority and host
/// states) treats that `\` as the end of the host, RFC 3986 as data: in
/// `https://good.com\@evil.com/` a browser reads host `good.com` and RFC 3986 reads userinfo
/// `good.com\` and host `evil.com`. No repair keeps both readings, so every mode reports it
/// (`backslash-authority`). Lines without a `\` cost one `memchr`.
///
/// ```
/// use iribulk::grammar::components::backslash_in_special_authority as f;
/// assert_eq!(f(br"https://good.com\@evil.com/"), Some(16));
/// assert_eq!(f(br"foo://good.com\@evil.com/"), None);
/// assert_eq!(f(br"http://a.com/p\q"), None);
/// ```
pub fn backslash_in_special_authority(line: &[u8]) -> Option<usize> {
    memchr::memchr(b'\\', line)?;
    backslash_in_authority(line, &split_head(line))
}

/// [`backslash_in_special_authority`] for a line already split by [`split`] or
/// [`split_head`] into `c`: scans only the authority, and only for the special schemes.
#[inline]
pub fn backslash_in_authority(line: &[u8], c: &Components) -> Option<usize> {
    let a = c.authority.clone()?;
    if !is_special_scheme(&line[c.scheme.clone()?]) {
        return None;
    }
    memchr::memchr(b'\\', &line[a.clone()]).map(|p| a.start + p)
}

/// The head of [`split`]: the scheme and the authority (RFC 3986 Appendix B), and `path` from
/// its start to the **end of the line** (query and fragment not split off, both `None`).
/// For the converter that encodes path, query and fragment in one pass (`?` and `#` are the
/// only delimiters after the authority, RFC 3986 §3.3–§3.5).
///
/// ```
/// use iribulk::grammar::components::split_head;
/// let c = split_head(b"http://h:1/p?q#f");
/// assert_eq!((c.scheme, c.authority, c.path), (Some(0..4), Some(7..10), 10..16));
/// ```
pub fn split_head(s: &[u8]) -> Components {
    // One `memchr3` at most: the block path of `split` measured no faster here.
    split_head_memchr(s)
}

/// Lines of at most 64 bytes (half of real crawl lines): one block of delimiter masks
/// ([`crate::simd::delims::delims64`] on a zero-padded copy; zero is no delimiter) instead of
/// a byte loop and up to three `memchr` calls; each component end is the lowest mask bit at
/// or after its start.
#[inline]
fn split_short(s: &[u8]) -> Components {
    let n = s.len();
    debug_assert!(n <= 64);
    let d = crate::simd::delims::delims64(&crate::simd::padded::<64>(s));
    // The first set bit of `m` at or after `k`, or `n` (no bit is set at or after `n`).
    let next = |m: u64, k: usize| -> usize {
        if k >= 64 {
            return n;
        }
        let x = m >> k;
        if x == 0 {
            n
        } else {
            k + x.trailing_zeros() as usize
        }
    };
    let term = d.slash | d.query | d.hash;
    let mut c = Components::default();
    let mut i = 0;
    // scheme: [^:/?#]+ ":"
    let first = next(term | d.colon, 0);
    if first > 0 && first < n && s[first] == b':' {
        c.scheme = Some(0..first);
        i = first + 1;
    }
    // authority: "//" [^/?#]*
    if s[i..].starts_with(b"//") {
        let start = i + 2;
        let end = next(term, start);
        c.authority = Some(start..end);
        i = end;
    }
    // path: [^?#]*
    let pend = next(d.query | d.hash, i);
    c.path = i..pend;
    i = pend;
    if i < n && s[i] == b'?' {
        let qend = next(d.hash, i + 1);
        c.query = Some(i + 1..qend);
        i = qend;
    }
    if i < n && s[i] == b'#' {
        c.fragment = Some(i + 1..n);
    }
    c
}

/// [`split_head`] by a byte loop and `memchr`.
fn split_head_memchr(s: &[u8]) -> Components {
    let n = s.len();
    let mut c = Components::default();
    let mut i = 0;
    // scheme: [^:/?#]+ ":" (short: a byte loop stops within a few bytes)
    let first = s
        .iter()
        .position(|&b| matches!(b, b':' | b'/' | b'?' | b'#'));
    if let Some(p) = first {
        if p > 0 && s[p] == b':' {
            c.scheme = Some(0..p);
            i = p + 1;
        }
    }
    // authority: "//" [^/?#]*
    if s[i..].starts_with(b"//") {
        let start = i + 2;
        let end = memchr::memchr3(b'/', b'?', b'#', &s[start..]).map_or(n, |p| start + p);
        c.authority = Some(start..end);
        i = end;
    }
    c.path = i..n;
    c
}

/// The head of a reference as the host-integrity checks and the converters ask for it, found
/// in one pass ([`scan_head`]): the scheme and the authority (RFC 3986 Appendix B, as
/// [`split_head`] finds them), the start of the path, what [`split_authority`] decides on in
/// the authority (its first `:`, and whether it holds `@`, `[` or `]`), and whether the line
/// holds a TAB, CR, LF or `\` anywhere (what browsers strip or read as `/`, WHATWG URL §4.4).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Head {
    /// The scheme, without its `:`.
    pub scheme: Option<Range<usize>>,
    /// The authority, without the leading `//`.
    pub authority: Option<Range<usize>>,
    /// Where the path starts.
    pub path_start: usize,
    /// The first `:` of the authority (an offset in the line).
    pub auth_colon: Option<usize>,
    /// The authority holds `@`, `[` or `]` (userinfo or an IP literal, RFC 3986 §3.2.1–§3.2.2).
    pub auth_at_or_bracket: bool,
    /// The line holds TAB, CR, LF or `\` (only when scanned whole; `false` otherwise).
    pub tab_newline_or_backslash: bool,
}

impl Head {
    /// [`split_authority`] of the authority this head found in `s`, from what the scan saw in
    /// it: an authority without `@`, `[` and `]` is `host [ ":" port ]` split at its first
    /// `:` (RFC 3986 §3.2), with the port checked to be digits as [`split_authority`] checks
    /// it; any other goes through [`split_authority`]. `None` without an authority. The test
    /// `head_scan_matches_twin_*` compares it with [`split_authority`].
    #[inline]
    pub fn split_authority(&self, s: &[u8]) -> Option<Result<Authority, LineError>> {
        let r = self.authority.clone()?;
        if self.auth_at_or_bracket {
            return Some(split_authority(s, r));
        }
        let Some(colon) = self.auth_colon else {
            return Some(Ok(Authority {
                host: r,
                ..Authority::default()
            }));
        };
        let pr = colon + 1..r.end;
        // No bracket in the authority: a non-digit is `bad-port`.
        if let Some(p) = s[pr.clone()].iter().position(|b| !b.is_ascii_digit()) {
            return Some(Err(LineError::new(ErrorKind::BadPort, pr.start + p)));
        }
        Some(Ok(Authority {
            userinfo: None,
            host: r.start..colon,
            port: Some(pr),
        }))
    }
}

/// The bytes [`scan_head`] looks for: the delimiters of the head (RFC 3986 Appendix B `: / ?
/// #`), those [`split_authority`] decides on (`@ [ ]`; `:` again), and TAB CR LF `\`.
const HEAD_SET: [u8; 11] = [
    b':', b'/', b'?', b'#', b'@', b'[', b']', b'\t', b'\r', b'\n', b'\\',
];

/// The masks of one 16-byte block of [`scan_head`] (bit i = byte i of the block).
#[derive(Clone, Copy)]
struct HeadMasks {
    colon: u32,
    /// `/ ? #`
    term: u32,
    /// `@ [ ]`
    at_br: u32,
    /// TAB CR LF `\`
    tnb: u32,
}

/// The 16 bytes of `s` from `base` (`base < s.len()`), zero-padded past its end (zero is
/// none of the bytes the scans look for).
#[inline(always)]
fn block_at(s: &[u8], base: usize) -> [u8; 16] {
    match s.get(base..base + 16) {
        Some(c) => c.try_into().expect("16 bytes"),
        None => {
            let mut b = [0u8; 16];
            let rest = &s[base..];
            b[..rest.len()].copy_from_slice(rest);
            b
        }
    }
}

#[inline(always)]
fn head_masks(b: &[u8; 16]) -> HeadMasks {
    let [co, sl, qu, ha, at, lb, rb, tab, cr, lf, bs] =
        crate::simd::delims::eq_masks16(b, HEAD_SET);
    HeadMasks {
        colon: co,
        term: sl | qu | ha,
        at_br: at | lb | rb,
        tnb: tab | cr | lf | bs,
    }
}

/// True when the 16 bytes of `b` hold TAB, CR, LF or `\`.
#[inline(always)]
fn tnb16(b: &[u8; 16]) -> bool {
    let [tab, cr, lf, bs] = crate::simd::delims::eq_masks16(b, [b'\t', b'\r', b'\n', b'\\']);
    tab | cr | lf | bs != 0
}

/// The blocks of [`scan_head`]'s head: the masks of the block at `base`, and whether any
/// block seen so far held TAB, CR, LF or `\`.
struct HeadBlocks<'a> {
    s: &'a [u8],
    base: usize,
    m: HeadMasks,
    tnb: bool,
}

impl<'a> HeadBlocks<'a> {
    #[inline(always)]
    fn new(s: &'a [u8]) -> Self {
        let m = head_masks(&block_at(s, 0));
        HeadBlocks {
            s,
            base: 0,
            tnb: m.tnb != 0,
            m,
        }
    }

    /// On to the next block; `false` (and no move) when the line ends in this one.
    #[inline(always)]
    fn advance(&mut self) -> bool {
        if self.base + 16 >= self.s.len() {
            return false;
        }
        self.base += 16;
        self.m = head_masks(&block_at(self.s, self.base));
        self.tnb |= self.m.tnb != 0;
        true
    }
}

/// The [`Head`] of `s` in one pass of 16-byte blocks ([`crate::simd::delims::eq_masks16`], the
/// project's one compare kernel): the blocks up to the end of the authority are compared with
/// the eleven bytes of the head; with `WHOLE`, the rest of the line only with TAB CR LF `\`.
/// Instead of [`split_head`]'s byte loop and `memchr3`, [`split_authority`]'s byte loop and a
/// separate pass for TAB CR LF `\` (issue 11). A head decided in the first 32 bytes (nearly
/// every one) takes `scan_head_32`, without the loop. Without `WHOLE`,
/// [`Head::tab_newline_or_backslash`] is `false` and the blocks past the head's are not read.
/// [`scan_head_naive`] is its twin (the test `head_scan_matches_twin_*`).
#[inline]
pub fn scan_head<const WHOLE: bool>(s: &[u8]) -> Head {
    if let Some(h) = scan_head_32::<WHOLE>(s) {
        return h;
    }
    let n = s.len();
    let mut h = Head::default();
    if n == 0 {
        return h;
    }
    let mut b = HeadBlocks::new(s);
    // scheme: [^:/?#]+ ":" (RFC 3986 Appendix B): the first of `: / ? #`.
    let first = loop {
        let m = b.m.term | b.m.colon;
        if m != 0 {
            break b.base + m.trailing_zeros() as usize;
        }
        if !b.advance() {
            break n;
        }
    };
    let mut i = 0;
    if first > 0 && first < n && s[first] == b':' {
        h.scheme = Some(0..first);
        i = first + 1;
    }
    // authority: "//" [^/?#]* (`first` is in the current block, so is `i` or the block
    // before the authority's start).
    h.path_start = i;
    if s[i..].starts_with(b"//") {
        let start = i + 2;
        while start >= b.base + 16 && b.advance() {}
        let end = loop {
            // The bits of this block at or after `start`.
            let from = if start > b.base {
                !0u32 << (start - b.base).min(31)
            } else {
                !0
            };
            let term = b.m.term & from;
            let upto = if term != 0 {
                from & ((1u32 << term.trailing_zeros()) - 1)
            } else {
                from
            };
            let colon = b.m.colon & upto;
            if h.auth_colon.is_none() && colon != 0 {
                h.auth_colon = Some(b.base + colon.trailing_zeros() as usize);
            }
            h.auth_at_or_bracket |= b.m.at_br & upto != 0;
            if term != 0 {
                break b.base + term.trailing_zeros() as usize;
            }
            if !b.advance() {
                break n;
            }
        };
        h.authority = Some(start..end);
        h.path_start = end;
    }
    if WHOLE {
        h.tab_newline_or_backslash = b.tnb || tnb_from(s, b.base + 16);
    }
    h
}

/// True when `s[k..]` holds TAB, CR, LF or `\` (`k` a multiple of 16 and at least 16, the
/// blocks before it seen already): 16 bytes at a time, the last block ending with the line
/// (it overlaps the block before it, which held none).
#[inline(always)]
fn tnb_from(s: &[u8], mut k: usize) -> bool {
    let n = s.len();
    while k + 16 <= n {
        if tnb16(s[k..k + 16].try_into().expect("16 bytes")) {
            return true;
        }
        k += 16;
    }
    // `k >= 16`, so a line with bytes left has at least 16 bytes.
    k < n && tnb16(s[n - 16..].try_into().expect("16 bytes"))
}

/// [`scan_head`] of a line of at least 32 bytes whose head is decided in its first 32 bytes
/// (nearly every URL: the scheme and an authority that ends there): both blocks compared,
/// their masks joined into 32 bits, and the scheme, the authority and what is in it found by
/// bit operations without a loop. `None` (nothing decided) for shorter lines and longer heads.
#[inline(always)]
fn scan_head_32<const WHOLE: bool>(s: &[u8]) -> Option<Head> {
    let (b0, b1) = (s.get(..16)?, s.get(16..32)?);
    let (m0, m1) = (
        head_masks(b0.try_into().expect("16 bytes")),
        head_masks(b1.try_into().expect("16 bytes")),
    );
    let join = |a: u32, b: u32| a | b << 16;
    let term = join(m0.term, m1.term);
    let colon = join(m0.colon, m1.colon);
    let first = (term | colon).trailing_zeros() as usize;
    if first >= 32 {
        return None;
    }
    let mut h = Head::default();
    let mut i = 0;
    if first > 0 && colon >> first & 1 == 1 {
        h.scheme = Some(0..first);
        i = first + 1;
    }
    h.path_start = i;
    if s[i..].starts_with(b"//") {
        let start = i + 2;
        if start >= 32 {
            return None;
        }
        let from = !0u32 << start;
        let t = term & from;
        if t == 0 {
            return None;
        }
        let end = t.trailing_zeros() as usize;
        let upto = from & ((1u32 << end) - 1);
        let c = colon & upto;
        h.auth_colon = (c != 0).then(|| c.trailing_zeros() as usize);
        h.auth_at_or_bracket = join(m0.at_br, m1.at_br) & upto != 0;
        h.authority = Some(start..end);
        h.path_start = end;
    }
    if WHOLE {
        h.tab_newline_or_backslash = (m0.tnb | m1.tnb) != 0 || tnb_from(s, 32);
    }
    Some(h)
}

/// The twin of [`scan_head`]: [`split_head`]'s byte loop and `memchr3`, the authority's bytes
/// looked at one by one, and `memchr` for TAB CR LF `\`.
pub fn scan_head_naive<const WHOLE: bool>(s: &[u8]) -> Head {
    let c = split_head_memchr(s);
    let auth = c.authority.clone().map(|a| &s[a]).unwrap_or_default();
    let base = c.authority.as_ref().map_or(0, |a| a.start);
    Head {
        scheme: c.scheme,
        path_start: c.path.start,
        auth_colon: auth.iter().position(|&b| b == b':').map(|p| base + p),
        auth_at_or_bracket: auth.iter().any(|&b| matches!(b, b'@' | b'[' | b']')),
        authority: c.authority,
        tab_newline_or_backslash: WHOLE
            && (memchr::memchr3(b'\t', b'\r', b'\n', s).is_some()
                || memchr::memchr(b'\\', s).is_some()),
    }
}

/// Splits `s` into components per RFC 3986 Appendix B. Never fails: validation is separate.
pub fn split(s: &[u8]) -> Components {
    if s.len() <= 64 {
        return split_short(s);
    }
    split_memchr(s)
}

/// [`split`] by a byte loop and `memchr`, for any length: the twin of its block path.
pub(crate) fn split_memchr(s: &[u8]) -> Components {
    split_tail_memchr(s, split_head_memchr(s))
}

/// The rest of the split of `s` (RFC 3986 Appendix B: path `[^?#]*`, then `?` query `[^#]*`,
/// then `#` fragment) after its head `c` (scheme and authority, with `c.path` running from
/// the path's start to the end of the line, as [`split_head`] leaves it), by `memchr`.
pub(crate) fn split_tail_memchr(s: &[u8], mut c: Components) -> Components {
    let n = s.len();
    let mut i = c.path.start;
    // path: [^?#]*
    let pend = memchr::memchr2(b'?', b'#', &s[i..]).map_or(n, |p| i + p);
    c.path = i..pend;
    i = pend;
    if i < n && s[i] == b'?' {
        let qend = memchr::memchr(b'#', &s[i + 1..]).map_or(n, |p| i + 1 + p);
        c.query = Some(i + 1..qend);
        i = qend;
    }
    if i < n && s[i] == b'#' {
        c.fragment = Some(i + 1..n);
    }
    c
}

/// Whether `s` starts with a scheme and its `:` (`ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )
/// ":"`, RFC 3986 §3.1): what RFC 3986 §5.1 asks of a base, an absolute IRI. The CLI's
/// `--base` and the Python functions' `base=` are refused before any line without one.
pub fn has_scheme(s: &[u8]) -> bool {
    let Some(colon) = memchr::memchr(b':', s) else {
        return false;
    };
    let sc = &s[..colon];
    sc.first().is_some_and(u8::is_ascii_alphabetic) && sc.iter().all(|&b| classes::is(b, SCHEME))
}

/// Validates what [`split`] found before the first `:` (RFC 3986 §3.1 `scheme`, §4.2).
///
/// Appendix B calls any `[^:/?#]+` before a `:` a scheme. If it is not `ALPHA *( ALPHA / DIGIT
/// / "+" / "-" / "." )`, the line is no URI (bad scheme) and no relative reference either (a
/// relative-path reference cannot have `:` in its first segment), so it is an error. A line
/// that starts with `:` is the same case.
pub fn check_scheme(s: &[u8], c: &Components) -> Result<(), LineError> {
    match &c.scheme {
        Some(r) => {
            let sch = &s[r.clone()];
            if !sch[0].is_ascii_alphabetic() {
                return Err(LineError::new(ErrorKind::BadScheme, 0));
            }
            if let Some(p) = sch.iter().position(|&b| !classes::is(b, SCHEME)) {
                return Err(LineError::new(ErrorKind::BadScheme, p));
            }
            Ok(())
        }
        None => {
            // A relative reference: the first segment of a path that does not start with "/"
            // may not contain ':' (ipath-noscheme). split() only leaves a ':' there when the
            // line starts with ':'.
            if c.authority.is_none() && s.first() == Some(&b':') {
                return Err(LineError::new(ErrorKind::BadScheme, 0));
            }
            Ok(())
        }
    }
}

/// Byte ranges inside an authority (RFC 3986 §3.2): `[ userinfo "@" ] host [ ":" port ]`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Authority {
    /// The userinfo, without its `@`.
    pub userinfo: Option<Range<usize>>,
    /// The host, including the brackets of an IP literal.
    pub host: Range<usize>,
    /// The port, without its `:`.
    pub port: Option<Range<usize>>,
}

/// Splits the authority at `r` of `s`. Errors: a second `@` (`extra-at`), a bracket outside an
/// IP literal (`bad-bracket`), text after an IP literal other than a port (`bad-ip-literal`).
///
/// An authority of at most 64 bytes without `@`, `[` or `]` (nearly every one: `host` or
/// `host:port`) is split by one byte loop; the others, and the twin of that loop, by
/// `split_authority_memchr` (up to four `memchr` calls, each with its set-up cost on a
/// string of 10–30 bytes). The test `authority_split_matches_memchr_twin` compares both.
pub fn split_authority(s: &[u8], r: Range<usize>) -> Result<Authority, LineError> {
    let a = &s[r.clone()];
    if a.len() <= 64 {
        let mut colon = None;
        for (i, &b) in a.iter().enumerate() {
            match b {
                b'@' | b'[' | b']' => return split_authority_memchr(s, r),
                b':' if colon.is_none() => colon = Some(i),
                _ => {}
            }
        }
        // RFC 3986 §3.2: no userinfo, `host [ ":" port ]`.
        let hend = colon.unwrap_or(a.len());
        let mut auth = Authority {
            host: r.start..r.start + hend,
            ..Authority::default()
        };
        if hend < a.len() {
            let pr = r.start + hend + 1..r.end;
            // No bracket in the authority: a non-digit is `bad-port`.
            if let Some(p) = s[pr.clone()].iter().position(|b| !b.is_ascii_digit()) {
                return Err(LineError::new(ErrorKind::BadPort, pr.start + p));
            }
            auth.port = Some(pr);
        }
        return Ok(auth);
    }
    split_authority_memchr(s, r)
}

/// [`split_authority`] by `memchr`, for any authority: the twin of its byte loop.
pub(crate) fn split_authority_memchr(s: &[u8], r: Range<usize>) -> Result<Authority, LineError> {
    let a = &s[r.clone()];
    let base = r.start;
    let mut auth = Authority::default();
    let mut hstart = 0;
    if let Some(at) = memchr::memchr(b'@', a) {
        if let Some(p2) = memchr::memchr(b'@', &a[at + 1..]) {
            return Err(LineError::new(ErrorKind::ExtraAt, base + at + 1 + p2));
        }
        auth.userinfo = Some(base..base + at);
        hstart = at + 1;
    }
    let h = &a[hstart..];
    if h.first() == Some(&b'[') {
        let close = match h.iter().position(|&b| b == b']') {
            Some(p) => p,
            None => return Err(LineError::new(ErrorKind::BadIpLiteral, base + hstart)),
        };
        auth.host = base + hstart..base + hstart + close + 1;
        let rest = &h[close + 1..];
        if !rest.is_empty() {
            if rest[0] != b':' {
                return Err(LineError::new(
                    ErrorKind::BadIpLiteral,
                    base + hstart + close + 1,
                ));
            }
            auth.port = Some(base + hstart + close + 2..r.end);
        }
    } else {
        let hend = memchr::memchr(b':', h).unwrap_or(h.len());
        auth.host = base + hstart..base + hstart + hend;
        if hend < h.len() {
            auth.port = Some(base + hstart + hend + 1..r.end);
        }
    }
    if let Some(ui) = &auth.userinfo {
        if let Some(p) = memchr::memchr2(b'[', b']', &s[ui.clone()]) {
            return Err(LineError::new(ErrorKind::BadBracket, ui.start + p));
        }
    }
    if let Some(pr) = &auth.port {
        if let Some(p) = s[pr.clone()].iter().position(|b| !b.is_ascii_digit()) {
            let kind = if matches!(s[pr.start + p], b'[' | b']') {
                ErrorKind::BadBracket
            } else {
                ErrorKind::BadPort
            };
            return Err(LineError::new(kind, pr.start + p));
        }
    }
    Ok(auth)
}

/// Validates an IP literal including its brackets (RFC 3986 §3.2.2): `"[" ( IPv6address /
/// IPvFuture ) "]"`. Zone identifiers (RFC 6874) are not part of the grammar and are rejected.
pub fn is_ip_literal(lit: &[u8]) -> bool {
    if lit.len() < 2 || lit[0] != b'[' || lit[lit.len() - 1] != b']' {
        return false;
    }
    let inner = &lit[1..lit.len() - 1];
    match inner.first() {
        Some(b'v') | Some(b'V') => is_ipvfuture(inner),
        _ => is_ipv6(inner),
    }
}

/// `IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )`.
fn is_ipvfuture(s: &[u8]) -> bool {
    let rest = &s[1..];
    let nhex = rest.iter().take_while(|b| b.is_ascii_hexdigit()).count();
    if nhex == 0 || rest.get(nhex) != Some(&b'.') {
        return false;
    }
    let tail = &rest[nhex + 1..];
    !tail.is_empty()
        && tail
            .iter()
            .all(|&b| b == b':' || classes::is(b, classes::UNRESERVED | classes::SUB_DELIMS))
}

/// `IPv4address = dec-octet "." dec-octet "." dec-octet "." dec-octet` (RFC 3986 §3.2.2).
pub fn is_ipv4(s: &[u8]) -> bool {
    let mut parts = 0;
    for part in s.split(|&b| b == b'.') {
        parts += 1;
        if parts > 4 || part.is_empty() || part.len() > 3 || !part.iter().all(u8::is_ascii_digit) {
            return false;
        }
        if part.len() > 1 && part[0] == b'0' {
            return false; // dec-octet has no leading zeros
        }
        let v: u32 = part.iter().fold(0, |a, &d| a * 10 + (d - b'0') as u32);
        if v > 255 {
            return false;
        }
    }
    parts == 4
}

/// `IPv6address` of RFC 3986 §3.2.2: eight 16-bit pieces, `::` standing for one or more zero
/// pieces at most once, the last two pieces optionally an IPv4address.
fn is_ipv6(s: &[u8]) -> bool {
    if s.is_empty() {
        return false;
    }
    let (head, tail, compressed) = match find_double_colon(s) {
        Some(p) => (&s[..p], &s[p + 2..], true),
        None => (s, &s[..0], false),
    };
    if compressed && find_double_colon(tail).is_some() {
        return false;
    }
    let count = |part: &[u8], allow_v4: bool| -> Option<usize> {
        if part.is_empty() {
            return Some(0);
        }
        let pieces: Vec<&[u8]> = part.split(|&b| b == b':').collect();
        let mut n = 0;
        for (i, p) in pieces.iter().enumerate() {
            let last = i + 1 == pieces.len();
            if last && allow_v4 && p.contains(&b'.') {
                if !is_ipv4(p) {
                    return None;
                }
                n += 2;
            } else if !p.is_empty() && p.len() <= 4 && p.iter().all(u8::is_ascii_hexdigit) {
                n += 1;
            } else {
                return None;
            }
        }
        Some(n)
    };
    let (Some(h), Some(t)) = (count(head, !compressed), count(tail, compressed)) else {
        return false;
    };
    if compressed {
        h + t <= 7
    } else {
        h == 8
    }
}

fn find_double_colon(s: &[u8]) -> Option<usize> {
    s.windows(2).position(|w| w == b"::")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(s: &str) -> [Option<&str>; 5] {
        let c = split(s.as_bytes());
        let g = |r: &Option<Range<usize>>| r.clone().map(|r| &s[r]);
        [
            g(&c.scheme),
            g(&c.authority),
            Some(&s[c.path.clone()]),
            g(&c.query),
            g(&c.fragment),
        ]
    }

    #[test]
    fn appendix_b_example() {
        // RFC 3986 Appendix B.
        assert_eq!(
            parts("http://www.ics.uci.edu/pub/ietf/uri/#Related"),
            [
                Some("http"),
                Some("www.ics.uci.edu"),
                Some("/pub/ietf/uri/"),
                None,
                Some("Related")
            ]
        );
        assert_eq!(parts("?q#f"), [None, None, Some(""), Some("q"), Some("f")]);
        assert_eq!(parts("//h"), [None, Some("h"), Some(""), None, None]);
        assert_eq!(parts("a/b:c"), [None, None, Some("a/b:c"), None, None]);
        assert_eq!(
            parts("mailto:x@y"),
            [Some("mailto"), None, Some("x@y"), None, None]
        );
        assert_eq!(parts(""), [None, None, Some(""), None, None]);
    }

    #[test]
    fn ipv6_grammar() {
        for ok in [
            "[::1]",
            "[::]",
            "[1:2:3:4:5:6:7:8]",
            "[1::8]",
            "[::ffff:192.0.2.1]",
            "[1:2:3:4:5:6:1.2.3.4]",
            "[fe80::]",
            "[v1.x]",
            "[vF.a:b]",
        ] {
            assert!(is_ip_literal(ok.as_bytes()), "{ok}");
        }
        for bad in [
            "[]",
            "[::g]",
            "[1:2:3:4:5:6:7:8:9]",
            "[1::2::3]",
            "[fe80::1%25eth0]",
            "[1:2:3:4:5:6:7]",
            "[12345::]",
            "[::1.2.3.256]",
            "[v.x]",
            "[v1.]",
            "[::ü]",
            "[1:2:3:4:5:6:7::8]",
        ] {
            assert!(!is_ip_literal(bad.as_bytes()), "{bad}");
        }
    }

    #[test]
    fn authority_errors() {
        let s = b"http://a@b@c/";
        let c = split(s);
        assert_eq!(
            split_authority(s, c.authority.unwrap()).unwrap_err().kind,
            ErrorKind::ExtraAt
        );
        let s = b"http://h:8x/";
        let c = split(s);
        let e = split_authority(s, c.authority.unwrap()).unwrap_err();
        assert_eq!((e.kind, e.offset), (ErrorKind::BadPort, 10));
        let s = b"http://u:p@[::1]:80/";
        let c = split(s);
        let a = split_authority(s, c.authority.unwrap()).unwrap();
        assert_eq!(&s[a.host.clone()], b"[::1]");
        assert_eq!(&s[a.port.unwrap()], b"80");
        assert_eq!(&s[a.userinfo.unwrap()], b"u:p");
    }
}

#[cfg(test)]
mod split_twin_tests {
    use super::*;

    fn check(s: &[u8]) {
        let want = split_memchr(s);
        assert_eq!(split(s), want, "{:?}", String::from_utf8_lossy(s));
        let head = split_head(s);
        assert_eq!(split_head_memchr(s), head);
        assert_eq!(
            (head.scheme, head.authority, head.path.start, head.path.end),
            (want.scheme, want.authority, want.path.start, s.len())
        );
    }

    /// The byte loop of `split_authority` against `split_authority_memchr`: every string of
    /// up to 6 bytes over the bytes either decides on (and two others), inside a line at an
    /// offset, and padded to lengths around the 64-byte limit of the loop.
    #[test]
    fn authority_split_matches_memchr_twin() {
        let alphabet = [b'@', b':', b'[', b']', b'1', b'a', 0xC3];
        let mut all: Vec<Vec<u8>> = vec![Vec::new()];
        let mut k = 0;
        let mut compared = 0;
        while k < all.len() {
            let cur = all[k].clone();
            for pad in [0, 57, 58, 59, 60, 64] {
                for front in [false, true] {
                    let mut auth = cur.clone();
                    let fill = std::iter::repeat_n(b'h', pad);
                    if front {
                        auth.splice(0..0, fill);
                    } else {
                        auth.extend(fill);
                    }
                    let line = [&b"http://"[..], &auth, b"/p"].concat();
                    let r = 7..7 + auth.len();
                    assert_eq!(
                        split_authority(&line, r.clone()),
                        split_authority_memchr(&line, r),
                        "{:?}",
                        String::from_utf8_lossy(&line)
                    );
                    compared += 1;
                }
            }
            if cur.len() < 6 {
                for &b in &alphabet {
                    let mut n = cur.clone();
                    n.push(b);
                    all.push(n);
                }
            }
            k += 1;
        }
        assert!(compared > 1_000_000, "{compared}");
    }

    /// [`scan_head`] (whole and head only) against [`scan_head_naive`], and
    /// [`Head::split_authority`] against [`split_authority`], on `s`.
    fn check_head(s: &[u8]) {
        let show = || format!("{:?}", String::from_utf8_lossy(s));
        let h = scan_head::<true>(s);
        assert_eq!(h, scan_head_naive::<true>(s), "{}", show());
        assert_eq!(
            scan_head::<false>(s),
            scan_head_naive::<false>(s),
            "{}",
            show()
        );
        assert_eq!(
            h.split_authority(s),
            h.authority.clone().map(|a| split_authority(s, a)),
            "{}",
            show()
        );
        let c = split_head(s);
        assert_eq!(
            (&h.scheme, &h.authority, h.path_start),
            (&c.scheme, &c.authority, c.path.start)
        );
    }

    /// Every byte [`scan_head`] looks for (and bytes next to them) at every position of lines
    /// of every length up to 80 (every lane of its 16-byte blocks, the zero-padded last block
    /// and the overlapping one), alone and after heads that end at every place.
    #[test]
    fn head_scan_matches_twin_at_every_position() {
        let bytes = [
            b':', b'/', b'?', b'#', b'@', b'[', b']', b'\t', b'\r', b'\n', b'\\', 0, 0x0B, b'a',
            b'1', 0xC3, 0xDC,
        ];
        // Schemes whose `://` straddles the end of the first 32 bytes.
        let long: Vec<Vec<u8>> = (27..=32)
            .map(|k| [&vec![b's'; k][..], b"://h"].concat())
            .collect();
        let mut heads: Vec<&[u8]> = long.iter().map(Vec::as_slice).collect();
        heads.extend_from_slice(&[
            b"",
            b"http://",
            b"//",
            b"s:",
            b"http://h",
            b"http://h:8",
            b"a://u@h:",
            b"x://[::1]",
            b"abcdefghijklmnopq:",
            b"abcdefghijklmnopqrstuvwxyz0123456:",
            b"http://0123456789abcdefghij",
        ]);
        for head in heads {
            for len in 0..=80usize {
                let mut base: Vec<u8> = head.to_vec();
                base.extend(std::iter::repeat_n(b'x', len.saturating_sub(head.len())));
                check_head(&base);
                for pos in 0..base.len() {
                    for &b in &bytes {
                        let mut v = base.clone();
                        v[pos] = b;
                        check_head(&v);
                    }
                }
            }
        }
    }

    /// Every string of up to 5 bytes over the delimiters and two other bytes, after a scheme
    /// and `//` or alone, and padded to end in each lane of a block.
    #[test]
    fn head_scan_matches_twin_on_short_strings() {
        let alphabet = [b':', b'/', b'?', b'#', b'@', b'[', b'\\', b'a', 0xC3];
        let mut all: Vec<Vec<u8>> = vec![Vec::new()];
        let mut k = 0;
        let mut compared = 0;
        while k < all.len() {
            let cur = all[k].clone();
            for prefix in [&b""[..], b"http://", b"//", b"a:"] {
                for pad in [0, 3, 9, 16, 25] {
                    let mut v = prefix.to_vec();
                    v.extend_from_slice(&cur);
                    v.extend(std::iter::repeat_n(b'z', pad));
                    check_head(&v);
                    compared += 1;
                }
            }
            if cur.len() < 5 {
                for &b in &alphabet {
                    let mut n = cur.clone();
                    n.push(b);
                    all.push(n);
                }
            }
            k += 1;
        }
        assert!(compared > 1_000_000, "{compared}");
    }

    /// [`scheme_class`] (and [`is_special_scheme`]) against the list loop: every string of up
    /// to 2 bytes; every string of up to 5 bytes over the letters of the list in both cases and
    /// the bytes next to them; each member of the list in every case mix, with each of its
    /// bytes replaced by every byte, one byte added at every place and one removed.
    #[test]
    fn scheme_class_matches_list_twin() {
        let twin = |s: &[u8]| -> SchemeClass {
            if s.eq_ignore_ascii_case(b"file") {
                SchemeClass::File
            } else if is_special_scheme_naive(s) {
                SchemeClass::NetSpecial
            } else {
                SchemeClass::Other
            }
        };
        let mut compared = 0u64;
        let mut check = |s: &[u8]| {
            assert_eq!(scheme_class(s), twin(s), "{s:?}");
            assert_eq!(is_special_scheme(s), is_special_scheme_naive(s), "{s:?}");
            compared += 1;
        };
        check(b"");
        for a in 0..=255u8 {
            check(&[a]);
            for b in 0..=255u8 {
                check(&[a, b]);
            }
        }
        // The letters of the list in both cases (up to 5 bytes), and with the bytes next to
        // them (up to 3 bytes).
        let letters: Vec<u8> = b"HTPSWFILEhtpswfile".to_vec();
        let mut near = letters.clone();
        for &b in b"htpswfile" {
            near.extend([b - 1, b + 1, b | 0x80, b & !0x40, b ^ 0x60]);
        }
        near.sort_unstable();
        near.dedup();
        for (alphabet, max) in [(&letters, 5u32), (&near, 3)] {
            let base = alphabet.len();
            for len in 1..=max {
                for mut k in 0..base.pow(len) {
                    let s: Vec<u8> = (0..len)
                        .map(|_| {
                            let b = alphabet[k % base];
                            k /= base;
                            b
                        })
                        .collect();
                    check(&s);
                }
            }
        }
        for m in BACKSLASH_SPECIAL_SCHEMES {
            for mix in 0..1u32 << m.len() {
                let cased: Vec<u8> = m
                    .iter()
                    .enumerate()
                    .map(|(i, &b)| if mix >> i & 1 == 1 { b ^ 0x20 } else { b })
                    .collect();
                assert_ne!(scheme_class(&cased), SchemeClass::Other, "{cased:?}");
                check(&cased);
                for i in 0..=cased.len() {
                    for b in 0..=255u8 {
                        let mut v = cased.clone();
                        if i < v.len() {
                            v[i] = b;
                            check(&v);
                            v = cased.clone();
                        }
                        v.insert(i, b);
                        check(&v);
                    }
                    if i < cased.len() {
                        let mut v = cased.clone();
                        v.remove(i);
                        check(&v);
                    }
                }
            }
        }
        assert!(compared > 1_000_000, "{compared}");
    }

    /// Every string of up to 6 bytes over the delimiters and two other bytes, and each of
    /// them at every alignment inside lines of length 0..=70 (across the 64-byte block limit).
    #[test]
    fn block_split_matches_memchr_twin() {
        let alphabet = [b':', b'/', b'?', b'#', b'a', 0xC3];
        let mut all: Vec<Vec<u8>> = vec![Vec::new()];
        let mut k = 0;
        while k < all.len() {
            let cur = all[k].clone();
            check(&cur);
            if cur.len() < 6 {
                for &b in &alphabet {
                    let mut n = cur.clone();
                    n.push(b);
                    all.push(n);
                }
            }
            k += 1;
        }
        for piece in [
            "http://",
            "//",
            "s:",
            "?",
            "#",
            "a:b",
            "//h:1/p?q#f",
            "::",
            "#?/",
        ] {
            for len in 0..=70usize {
                for pos in 0..=len {
                    let mut v = b"ab/c?d#"
                        .iter()
                        .copied()
                        .cycle()
                        .take(len)
                        .collect::<Vec<_>>();
                    v.splice(pos..pos, piece.bytes());
                    check(&v);
                    let mut w = vec![b'x'; len];
                    w.splice(pos..pos, piece.bytes());
                    check(&w);
                }
            }
        }
    }
}
