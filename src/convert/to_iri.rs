//! URI → IRI for display (RFC 3987 §3.2, 3987bis §4.2).
//!
//! Steps, each citing its section:
//! 1. The line is taken as octets (RFC 3987 §3.2 step 1). Raw non-ASCII must be UTF-8 (it is
//!    already an IRI) and raw controls are errors: the output never holds NUL, CR or LF.
//! 2. Every `%HH` is decoded except those for `%`, reserved characters and ASCII not allowed
//!    in URIs (step 2): only unreserved ASCII and non-ASCII octets are decoded.
//! 3. Octets that are not part of a strictly valid UTF-8 sequence (overlongs, surrogates,
//!    truncated sequences) are re-encoded (step 3), as `%HH` with uppercase hex.
//! 4. Characters not appropriate in an IRI are re-encoded (step 4; §2.2, §4.1, §6.1; 3987bis
//!    §5.1): see [`is_displayable`].
//! 5. Hosts whose scheme (or `--host` mode) makes them DNS names are not percent-decoded; their
//!    `xn--` labels go through ToUnicode (3987bis §4.2 step 7) of the same IDNA version as the
//!    host mode, and the result is kept only if ToASCII of it gives back the host, compared
//!    ASCII-case-insensitively (RFC 3490 §5: the ACE prefix is case-insensitive; §4.2: so is
//!    the ASCII form). Labels that were not ACE labels are written as they came.
//!
//! The result maps back to the input with [`crate::ToUri`] (same host mode), except for the
//! case of hex digits and decoded unreserved characters (RFC 3987 §3.2).

use crate::config::HostMode;
use crate::convert::integrity::{self, LineHead};
use crate::convert::Component;
use crate::convert::{Outcome, Written};
use crate::error::{ErrorKind, LineError};
use crate::grammar::classes::{self, is_bidi_format, is_c1, is_iprivate, is_ucschar};
use crate::grammar::components;
use crate::grammar::pct::{decode_utf8, is_pct_triplet};
use crate::host::{self, HostCache, Idna};
use crate::simd::{ByteSet, Classifier};
use unicode_normalization::UnicodeNormalization;

/// Options of URI→IRI conversion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ToIriOptions {
    /// Which hosts are DNS names and which IDNA version decodes their `xn--` labels; the same
    /// meaning as for [`crate::ToUriOptions::host`]. Default [`HostMode::Auto`].
    pub host: HostMode,
}

impl Default for ToIriOptions {
    fn default() -> Self {
        ToIriOptions {
            host: HostMode::Auto,
        }
    }
}

/// True if `c`, decoded from `%HH`, may appear as itself in a displayed IRI (RFC 3987 §3.2
/// step 4). Kept encoded: C1 controls; bidi formatting characters (§4.1); private use outside
/// the query and everything not `ucschar` (§2.2); and, iribulk's documented choice for safe
/// display, characters that render invisibly or as white space (default-ignorable code
/// points, line and paragraph separators, spaces, the BOM, zero-width characters) and
/// compatibility look-alikes of URI delimiters (§6.1 b: NFKC gives `/ ? # @ : [ ] %`, space,
/// or a control).
pub fn is_displayable(c: char, in_query: bool) -> bool {
    let u = c as u32;
    if u < 0x10000 {
        // One bit per BMP code point, computed by the compiler from the rules below.
        let map = &DISPLAYABLE_BMP[in_query as usize];
        return map[(u >> 6) as usize] >> (u & 63) & 1 != 0;
    }
    displayable_by_rules(c, in_query)
}

/// True if `c`, decoded from `%HH` in the query (`in_query`) or elsewhere, is written decoded
/// and as it is by [`ToIri`] whatever surrounds it: displayable ([`is_displayable`], RFC 3987
/// §3.2 step 4) with no delimiter in its UTS #39 skeleton
/// ([`host::display::skeleton_has_delimiter`], issue 16: only such characters are ever put
/// back in `%HH` form by [`ToIri::reencode_lookalikes`]). The rule of [`clean_prefix`], for
/// every character (four-octet ones included).
pub(crate) fn is_clean_char(c: char, in_query: bool) -> bool {
    is_displayable(c, in_query) && !host::display::skeleton_has_delimiter(c)
}

/// [`is_displayable`] evaluated rule by rule.
const fn displayable_by_rules(c: char, in_query: bool) -> bool {
    displayable_without_nfkc(c, in_query) && !nfkc_has_delimiter(c)
}

/// [`displayable_by_rules`] for every BMP code point, as bitmaps (outside the query, in the
/// query); surrogates are not displayable. 16 KiB, evaluated by the compiler: no warm-up of
/// 131,072 rule evaluations per process (issue #11, tenth pass; it was ~12 M instructions).
/// The test `displayable_bitmap_matches_rules_on_every_code_point` compares it with the rules.
/// (~130,000 rule evaluations: a second or two of compile time, hence the `allow`.)
#[allow(long_running_const_eval)]
static DISPLAYABLE_BMP: [[u64; 1024]; 2] = [DISPLAYABLE_OUTSIDE_QUERY, displayable_bmp(true)];

/// The first map of [`DISPLAYABLE_BMP`], evaluated once for it and [`UNFIT_LEAD`].
#[allow(long_running_const_eval)]
const DISPLAYABLE_OUTSIDE_QUERY: [u64; 1024] = displayable_bmp(false);

/// The lead bytes of UTF-8 sequences of which some character is not displayable outside the
/// query ([`is_displayable`]; every four-octet lead, conservatively): a raw character with
/// another lead needs no look ([`first_unfit_raw`]). CJK, Hangul, Cyrillic, Devanagari and
/// most scripts' leads are not among them. The test `unfit_leads_cover_every_unfit_character`
/// checks it against [`is_displayable`] on every code point.
static UNFIT_LEAD: [bool; 256] = unfit_leads(&DISPLAYABLE_OUTSIDE_QUERY);

const fn unfit_leads(m: &[u64; 1024]) -> [bool; 256] {
    let mut t = [false; 256];
    let mut b = 0xC2usize;
    while b <= 0xF4 {
        // The bitmap words of the code points a lead starts (two octets: one 64-code-point
        // word; three: 64 words, less the overlong and surrogate ranges).
        let (first, end) = match b {
            0xC2..=0xDF => (b & 0x1F, (b & 0x1F) + 1),
            0xE0 => (0x0800 >> 6, 0x1000 >> 6),
            0xED => (0xD000 >> 6, 0xD800 >> 6),
            0xE1..=0xEF => ((b & 0x0F) << 6, ((b & 0x0F) + 1) << 6),
            _ => (0, 0),
        };
        if first == end {
            t[b] = true;
        }
        let mut w = first;
        while w < end {
            if m[w] != u64::MAX {
                t[b] = true;
            }
            w += 1;
        }
        b += 1;
    }
    t
}

/// One bitmap of [`DISPLAYABLE_BMP`].
const fn displayable_bmp(in_query: bool) -> [u64; 1024] {
    let mut m = [0u64; 1024];
    let mut u = 0u32;
    while u < 0x10000 {
        if let Some(c) = char::from_u32(u) {
            if displayable_by_rules(c, in_query) {
                m[(u >> 6) as usize] |= 1 << (u & 63);
            }
        }
        u += 1;
    }
    m
}

/// The characters that [`emit_octets`] copies decoded without a decision, one bit per code
/// point below U+10000 (outside the query, in the query): the unreserved ASCII characters
/// (RFC 3987 §3.2 step 2; bits 0–127) and the displayable characters ([`is_displayable`],
/// step 4) whose UTS #39 skeleton holds no delimiter
/// ([`host::display::skeleton_has_delimiter`], issue 16). 16 KiB, evaluated by the compiler
/// from [`DISPLAYABLE_BMP`] and the skeleton bitmap; the test
/// `clean_prefix_matches_twin_on_every_code_point` compares it with the rules.
pub(crate) static CLEAN_BMP: [[u64; 1024]; 2] = {
    let mut m = [[0u64; 1024]; 2];
    let mut q = 0;
    while q < 2 {
        let mut w = 0;
        while w < 1024 {
            m[q][w] = DISPLAYABLE_BMP[q][w] & !host::display::SKELETON_DELIMITER_BMP[w];
            w += 1;
        }
        // unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~" (RFC 3986 §2.3).
        let mut b = 0u8;
        while b < 128 {
            if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
                m[q][(b >> 6) as usize] |= 1 << (b & 63);
            }
            b += 1;
        }
        q += 1;
    }
    m
};

/// The length of the longest prefix of `octets` (decoded from `%HH` triplets) made of
/// characters that [`emit_octets`] copies as they are with nothing else to note: unreserved
/// ASCII, and strictly valid UTF-8 sequences of two or three octets (RFC 3629 §4: no
/// overlong, no surrogate) of displayable characters without a delimiter in their skeleton
/// ([`CLEAN_BMP`]). Everything else (reserved ASCII, four-octet sequences, invalid octets,
/// characters to keep encoded or to flag) ends the prefix and gets its decision from
/// [`emit_octets`]. A few instructions per octet (issue #11, thirteenth pass); the twin is
/// [`clean_prefix_naive`].
#[inline]
pub(crate) fn clean_prefix(octets: &[u8], in_query: bool) -> usize {
    let mut k = 0;
    while k < octets.len() {
        match clean_char_len(&octets[k..], in_query) {
            0 => return k,
            len => k += len,
        }
    }
    k
}

/// The length of the character at the start of `octets` if [`clean_prefix`] takes it
/// (unreserved ASCII, or a strictly valid two- or three-octet UTF-8 sequence of a character
/// of [`CLEAN_BMP`]), else 0: [`clean_prefix`]'s step, also the AVX2 line kernel's test of a
/// character alone (`normalize::clean_avx2`). A few instructions.
#[inline(always)]
pub(crate) fn clean_char_len(octets: &[u8], in_query: bool) -> usize {
    let map = &CLEAN_BMP[in_query as usize];
    // Bit `cp & 63` of word `cp >> 6` of the map (a shift by `bit` uses its low six bits).
    let clean = |word: u32, bit: u32| map[word as usize] >> (bit & 63) & 1 != 0;
    // The character's octets from one little-endian word; past the end, zeros: a zero is no
    // continuation octet, so a character cut by the end matches no pattern.
    let w = match octets.first_chunk::<4>() {
        Some(w) => u32::from_le_bytes(*w),
        None => octets.iter().rev().fold(0, |w, &b| w << 8 | u32::from(b)),
    };
    // Three-octet characters first, then two-octet ones: the usual scripts of
    // percent-encoded text.
    if w & 0xC0_C0F0 == 0x80_80E0 {
        // 1110xxxx 10xxxxxx 10xxxxxx: the word is (b0 & 0x0F) << 6 | (b1 & 0x3F), below
        // 0x20 (U+0000–U+07FF) only for an overlong form; surrogates have no bit.
        let word = (w & 0x0F) << 6 | (w >> 8) & 0x3F;
        if word < 0x20 || !clean(word, w >> 16) {
            return 0;
        }
        3
    } else if w & 0xC0E0 == 0x80C0 {
        // 110xxxxx 10xxxxxx: the code point is (b0 & 0x1F) << 6 | (b1 & 0x3F); its word is
        // b0 & 0x1F, below 2 (U+0000–U+007F) only for the overlong C0 and C1.
        if w & 0x1E == 0 || !clean(w & 0x1F, w >> 8) {
            return 0;
        }
        2
    } else if w & 0x80 == 0 && !octets.is_empty() {
        // ASCII: word 0 or 1.
        usize::from(clean(w >> 6 & 1, w))
    } else {
        0
    }
}

/// The twin of [`clean_prefix`], by the rules of [`emit_octets`]: [`decode_utf8`],
/// [`is_displayable`] and [`host::display::skeleton_has_delimiter`] per character.
#[cfg(any(test, feature = "twins"))]
fn clean_prefix_naive(octets: &[u8], in_query: bool) -> usize {
    let mut k = 0;
    while k < octets.len() {
        let b = octets[k];
        if b < 0x80 {
            if !classes::is(b, classes::UNRESERVED) {
                break;
            }
            k += 1;
            continue;
        }
        match decode_utf8(&octets[k..]) {
            Some((c, len))
                if len < 4
                    && is_displayable(c, in_query)
                    && !host::display::skeleton_has_delimiter(c) =>
            {
                k += len
            }
            _ => break,
        }
    }
    k
}

/// Panics unless [`clean_prefix`] and its twin agree on `octets` and on each of its
/// suffixes (every start, in and out of the query). For the fuzz target `simd_twin`; not
/// part of the API.
#[cfg(any(test, feature = "twins"))]
#[doc(hidden)]
pub fn clean_prefix_twin_check(octets: &[u8]) {
    for k in 0..=octets.len() {
        for q in [false, true] {
            let t = &octets[k..];
            assert_eq!(
                clean_prefix(t, q),
                clean_prefix_naive(t, q),
                "in query {q}: {t:02X?}"
            );
        }
    }
}

/// The naive twin of [`is_displayable`] (full NFKC per character).
fn is_displayable_naive(c: char, in_query: bool) -> bool {
    displayable_without_nfkc(c, in_query) && !nfkc_has_delimiter_naive(c)
}

/// Every rule of [`is_displayable`] except the NFKC one.
#[inline]
const fn displayable_without_nfkc(c: char, in_query: bool) -> bool {
    if is_c1(c) || is_bidi_format(c) || is_invisible_or_space(c) || crate::error::is_format_char(c)
    {
        return false;
    }
    // Every format character (Cf, `error::is_format_char`) stays encoded, also those that
    // are not default-ignorable: the prepended concatenation marks U+0600–U+0605, U+06DD,
    // U+070F, U+0890, U+0891, U+08E2, U+110BD, U+110CD (a number sign drawn around the
    // digits after it) and U+FFF9–U+FFFB, as browsers keep them (Chromium's
    // `ShouldUnescapeCodePoint`; a QA sweep found `/a%D8%80b` shown `/a؀b`). The test
    // `format_characters_are_never_displayed` compares with general category Cf on every
    // code point.
    if is_browser_ui_lookalike(c) {
        return false;
    }
    is_ucschar(c) || (in_query && is_iprivate(c))
}

/// White space and characters that render invisibly (Unicode White_Space and
/// Default_Ignorable_Code_Point, minus the variation selectors, which only modify the character
/// before them, e.g. in emoji sequences), and U+2800 BRAILLE PATTERN BLANK, a symbol drawn as
/// a space (found by a QA sweep), and the zero-width format controls that Unicode does not
/// list as default-ignorable: U+13430–U+1343F EGYPTIAN HIEROGLYPH format controls (Cf,
/// shaping only inside a hieroglyph cluster) and U+16FE4 KHITAN SMALL SCRIPT FILLER (a QA
/// sweep: `pay%F0%93%90%B0pal` was shown `pay𓐰pal`, read `paypal`); and U+1D159 MUSICAL
/// SYMBOL NULL NOTEHEAD, drawn blank (a QA sweep: `ab%F0%9D%85%99c` was shown `abc` with a
/// hidden character, and a combining slash on it as a bare `/`).
const fn is_invisible_or_space(c: char) -> bool {
    matches!(c as u32,
        0x00A0 | 0x00AD | 0x034F | 0x061C | 0x115F | 0x1160 | 0x1680 | 0x17B4 | 0x17B5
        | 0x180E | 0x2000..=0x200F | 0x2028..=0x202F | 0x205F..=0x206F | 0x2800 | 0x3000 | 0x3164
        | 0xFEFF | 0xFFA0 | 0xFFF0..=0xFFF8 | 0x13430..=0x1343F | 0x16FE4 | 0x1BCA0..=0x1BCA3
        | 0x1D159 | 0x1D173..=0x1D17A | 0xE0000..=0xE0FFF)
}

/// The symbols that imitate a browser's own interface: U+1F50F, U+1F510, U+1F512 and
/// U+1F513, the padlocks (a path starting `🔒https:` reads as a secure-connection badge).
/// Browsers never decode them in an address (Chromium's `ShouldUnescapeCodePoint`; found by
/// a QA sweep).
const fn is_browser_ui_lookalike(c: char) -> bool {
    matches!(c as u32, 0x1F50F | 0x1F510 | 0x1F512 | 0x1F513)
}

/// The code points (≥ U+00A0) whose NFKC (UAX #15) holds a URI delimiter `/ ? # @ : [ ] %`,
/// a space or an ASCII control, as inclusive ranges in ascending order. Derived from
/// [`nfkc_has_delimiter_naive`] over every code point (the test
/// `nfkc_delimiter_table_matches_nfkc` recomputes it), for the Unicode version of
/// unicode-normalization 0.1.26.
static NFKC_DELIMITER: [(u32, u32); 49] = [
    (0x00A0, 0x00A0),
    (0x00A8, 0x00A8),
    (0x00AF, 0x00AF),
    (0x00B4, 0x00B4),
    (0x00B8, 0x00B8),
    (0x02D8, 0x02DD),
    (0x037A, 0x037A),
    (0x0384, 0x0385),
    (0x1FBD, 0x1FBD),
    (0x1FBF, 0x1FC1),
    (0x1FCD, 0x1FCF),
    (0x1FDD, 0x1FDF),
    (0x1FED, 0x1FEE),
    (0x1FFD, 0x1FFE),
    (0x2000, 0x200A),
    (0x2017, 0x2017),
    (0x202F, 0x202F),
    (0x203E, 0x203E),
    (0x2047, 0x2049),
    (0x205F, 0x205F),
    (0x2100, 0x2101),
    (0x2105, 0x2106),
    (0x2A74, 0x2A74),
    (0x3000, 0x3000),
    (0x309B, 0x309C),
    (0xFC5E, 0xFC63),
    (0xFDFA, 0xFDFB),
    (0xFE13, 0xFE13),
    (0xFE16, 0xFE16),
    (0xFE47, 0xFE4C),
    (0xFE55, 0xFE56),
    (0xFE5F, 0xFE5F),
    (0xFE6A, 0xFE6B),
    (0xFE70, 0xFE70),
    (0xFE72, 0xFE72),
    (0xFE74, 0xFE74),
    (0xFE76, 0xFE76),
    (0xFE78, 0xFE78),
    (0xFE7A, 0xFE7A),
    (0xFE7C, 0xFE7C),
    (0xFE7E, 0xFE7E),
    (0xFF03, 0xFF03),
    (0xFF05, 0xFF05),
    (0xFF0F, 0xFF0F),
    (0xFF1A, 0xFF1A),
    (0xFF1F, 0xFF20),
    (0xFF3B, 0xFF3B),
    (0xFF3D, 0xFF3D),
    (0xFFE3, 0xFFE3),
];

/// Whether NFKC of `c` holds a URI delimiter, a space or a control (RFC 3987 §6.1 b):
/// a lookup in [`NFKC_DELIMITER`], with the large gaps of the table answered first (a
/// `const fn`, for [`DISPLAYABLE_BMP`]).
#[inline]
const fn nfkc_has_delimiter(c: char) -> bool {
    let u = c as u32;
    if matches!(u, 0..=0x9F | 0x0386..=0x1FBC | 0x309D..=0xFC5D | 0xFFE4..) {
        return false;
    }
    let mut i = 0;
    while i < NFKC_DELIMITER.len() {
        let (lo, hi) = NFKC_DELIMITER[i];
        if u <= hi {
            return lo <= u;
        }
        i += 1;
    }
    false
}

/// The naive twin of [`nfkc_has_delimiter`]: full NFKC of the character.
fn nfkc_has_delimiter_naive(c: char) -> bool {
    if (c as u32) < 0xA0 {
        return false;
    }
    std::iter::once(c).nfkc().any(|d| {
        (d as u32) < 0x80
            && (matches!(d, '/' | '?' | '#' | '@' | ':' | '[' | ']' | '%' | ' ')
                || d.is_ascii_control())
    })
}

/// The URI→IRI converter. One per worker thread.
///
/// ```
/// use iribulk::convert::to_iri::{ToIri, ToIriOptions};
/// let mut c = ToIri::new(ToIriOptions::default());
/// let mut out = Vec::new();
/// c.convert_into(b"http://xn--99zt52a.example.org/D%C3%BCrst/%e2%80%ae", &mut out).unwrap();
/// assert_eq!(String::from_utf8(out).unwrap(), "http://納豆.example.org/Dürst/%E2%80%AE");
/// ```
#[derive(Debug)]
pub struct ToIri {
    opts: ToIriOptions,
    octets: Vec<u8>,
    /// Ranges of the current component's output produced by percent-decoding (display
    /// safety, [`ToIri::reencode_lookalikes`]).
    decoded: Vec<std::ops::Range<usize>>,
    /// A character that [`emit_octets`] decoded into the current component has a delimiter
    /// in its skeleton ([`host::display::skeleton_has_delimiter`]): only then can
    /// [`ToIri::reencode_lookalikes`] find something to re-encode (fast path).
    lookalike: bool,
    /// A decoded run of the current component starts with a combining mark or holds an
    /// ASCII octet ([`run_may_hold_unsafe_mark`]): only then can the mark rule of
    /// [`ToIri::reencode_lookalikes`] find a mark to keep encoded (fast path).
    mark_risk: bool,
    /// Display forms of hosts (3987bis §4.2 step 7), one cache per converter.
    cache: HostCache,
    /// Run the scalar reference path only (the naive twin, for tests).
    naive: bool,
    /// `--strict`: a warning is the line's error (contract item 10) ([`ToIri::with_strict`]).
    strict: bool,
    /// [`ToIri::keep_bidi_encoded`]'s scratch space (RFC 3987 §4.2 components).
    bidi: Vec<std::ops::Range<usize>>,
    /// Apply [`ToIri::keep_bidi_encoded`] (to-iri's display rule; off for normalize's
    /// presenter: [`ToIri::without_bidi_rule`]).
    bidi_rule: bool,
    /// Apply the label rules of display safety to hosts it percent-decodes
    /// ([`ToIri::decode_host`]; off for normalize's presenter:
    /// [`ToIri::without_host_label_rule`]).
    label_rule: bool,
    /// A host label of a DNS scheme that [`ToIri::keep_bidi_encoded`] keeps from display is
    /// written in its ACE form by this IDNA, not as it came ([`ToIri::with_ace_kept_labels`]).
    ace_kept: Option<crate::host::Idna>,
    /// While [`ToIri::convert_unfit_raw`] converts its encoded line: the offsets in it of
    /// the characters that came raw and were encoded there, so that
    /// [`ToIri::keep_bidi_encoded`] encodes a host label holding one whole (empty otherwise).
    encoded_raw: Vec<usize>,
    /// Where the current line's output starts in `out`: the display-safety pass judges a
    /// decoded mark's base within the line, never in what the caller wrote before it (a
    /// batch writes rows back to back: after the row `a`, `%CC%81x` was decoded onto `a`,
    /// found by a QA sweep of the Python package).
    line_start: usize,
}

impl ToIri {
    /// A converter with these options.
    pub fn new(opts: ToIriOptions) -> Self {
        ToIri {
            opts,
            octets: Vec::new(),
            decoded: Vec::new(),
            lookalike: false,
            mark_risk: false,
            cache: HostCache::default(),
            naive: false,
            strict: false,
            bidi: Vec::new(),
            bidi_rule: true,
            label_rule: true,
            ace_kept: None,
            encoded_raw: Vec::new(),
            line_start: 0,
        }
    }

    /// This converter without to-iri's display rule for right-to-left text
    /// ([`ToIri::keep_bidi_encoded`]): for normalize, which writes RFC 3987 §5.3's
    /// comparison form, raw right-to-left text as it came (a rule that encoded some of it
    /// would make two spellings of one IRI compare different).
    pub fn without_bidi_rule(mut self) -> Self {
        self.bidi_rule = false;
        self
    }

    /// This converter without the label rules for the hosts it percent-decodes
    /// ([`ToIri::decode_host`]): for normalize, whose comparison form (RFC 3987 §5.3.2.3)
    /// decodes a reg-name host whatever it looks like; `--idn unicode` judges DNS hosts.
    pub fn without_host_label_rule(mut self) -> Self {
        self.label_rule = false;
        self
    }

    /// This converter writing a DNS host's label that display safety keeps from display
    /// ([`rtl_host_label_before_number`]) in its ACE form by `idna` rather than as it came:
    /// for normalize's `--idn unicode`, whose presenter receives hosts percent-encoded
    /// (README: that form shows a host in Unicode or in `xn--` form).
    pub fn with_ace_kept_labels(mut self, idna: crate::host::Idna) -> Self {
        self.ace_kept = Some(idna);
        self
    }

    /// This converter with `--strict` on or off: on, a warning (`bidi-format`, `private-use`,
    /// `not-ucschar`: a raw character not fit for display, written percent-encoded) is the
    /// line's error instead, with the same code and column, as in to-uri (contract item 10).
    pub fn with_strict(mut self, strict: bool) -> Self {
        self.strict = strict;
        self
    }

    /// The naive twin: the same conversion by the scalar reference loops (per-character
    /// NFKC, byte-wise scans). For tests that compare both; not meant for production use.
    #[cfg(any(test, feature = "twins"))]
    #[doc(hidden)]
    pub fn new_naive(opts: ToIriOptions) -> Self {
        ToIri {
            naive: true,
            ..ToIri::new(opts)
        }
    }

    /// The uncached twin: a converter whose host cache stores nothing, so every host goes
    /// through ToUnicode and the display decision again. For tests that compare cached and
    /// uncached output; not meant for production use.
    #[cfg(any(test, feature = "twins"))]
    #[doc(hidden)]
    pub fn new_uncached(opts: ToIriOptions) -> Self {
        ToIri {
            cache: HostCache::disabled(),
            ..ToIri::new(opts)
        }
    }

    /// Host cache (hits, misses).
    pub fn cache_stats(&self) -> (u64, u64) {
        self.cache.stats()
    }

    /// Converts one line (without terminator), appending the IRI to `out`; when the IRI is
    /// the line itself, nothing is appended ([`Written::Passthrough`], [`crate::convert`]'s
    /// contract). On error nothing is appended.
    pub fn convert_into(&mut self, line: &[u8], out: &mut Vec<u8>) -> Result<Outcome, LineError> {
        self.convert_head(line, None, out)
    }

    /// [`ToIri::convert_into`] of a line whose head the caller (the Guard) has found
    /// ([`LineHead::of`], RFC 3986 Appendix B): the same result, without splitting the head
    /// again nor looking for `\` in a line the head saw none in (issue #11, tenth pass; the
    /// tests `convert_with_head_equals_convert_into_*`). The naive twin does not use the head.
    pub fn convert_with_head(
        &mut self,
        line: &[u8],
        head: &LineHead,
        out: &mut Vec<u8>,
    ) -> Result<Outcome, LineError> {
        let head = if self.naive { None } else { Some(head) };
        self.convert_head(line, head, out)
    }

    /// The whole of the slow path (the engine's line handling, the [`Guard`]'s checks,
    /// [`ToIri::convert_with_head`]) in one call for the common crawl line (issue 11: "one
    /// pass per line where today there are several"): `Some(wrote)` after appending the IRI
    /// of `line` to `out` (`wrote`: it differs from `line`; `false` leaves `out` as it was),
    /// or `None`, with `out` as it was, for every line it does not answer (the caller takes
    /// the slow path, which reports what there is to report). It answers a line of
    /// [`LineHead::crawl`]'s shape (`https://` or `http://`, a non-empty authority of
    /// `reg-name` bytes without `%` or of non-ASCII bytes, the last byte above the space)
    /// that converts without an error and whose result passes the Guard's checks of a
    /// written line ([`integrity::check_written_unmapped`]: a host that is still one and
    /// that a browser does not read as IPv4, WHATWG URL §3.5).
    ///
    /// For such a line the Guard's checks before the converter have nothing to find
    /// ([`LineHead::crawl`]: nothing for a browser to strip, no `\` in the authority, no
    /// file URL, a host), to-iri maps no host for the Guard's mapping check
    /// (`GuardOptions::maps_hosts` is `None`) and reports no repair, warning or fallback, so
    /// the slow path writes what the converter wrote. The test
    /// `crawl_line_shortcut_equals_the_slow_path` compares it with the Guard around this
    /// converter on every line of every data set, their URIs, and made lines, and
    /// `tests/engine.rs` compares the engine with its naive twin.
    ///
    /// [`Guard`]: crate::convert::integrity::Guard
    /// [`integrity::check_written_unmapped`]: crate::convert::integrity::check_written_unmapped
    pub(crate) fn convert_crawl_line(&mut self, line: &[u8], out: &mut Vec<u8>) -> Option<bool> {
        if self.naive {
            return None;
        }
        let head = LineHead::crawl(line)?;
        let mark = out.len();
        // `convert_head` leaves `out` as it was on an error and on a pass-through.
        let o = self.convert_head(line, Some(&head), out).ok()?;
        if o.written != Written::Wrote {
            return Some(false);
        }
        if o.warnings > 0 {
            // A raw character warned of ([`ToIri::convert_unfit_raw`]): the slow path
            // reports it.
            out.truncate(mark);
            return None;
        }
        if integrity::check_written_unmapped(line, &head, &out[mark..]).is_err() {
            out.truncate(mark);
            return None;
        }
        Some(true)
    }

    /// [`ToIri::convert_into`], with the head when the caller found it.
    fn convert_head(
        &mut self,
        line: &[u8],
        head: Option<&LineHead>,
        out: &mut Vec<u8>,
    ) -> Result<Outcome, LineError> {
        let mark = out.len();
        self.line_start = mark;
        let mut r = self.convert_inner(line, head, out);
        if self.strict {
            if let Ok(Outcome {
                first_warning: Some(w),
                ..
            }) = r
            {
                r = Err(w);
            }
        }
        // The conversion writes as it goes: an unchanged line is taken back (passthrough),
        // as is everything on error.
        if !matches!(
            r,
            Ok(Outcome {
                written: Written::Wrote,
                ..
            })
        ) {
            out.truncate(mark);
        }
        r
    }

    fn convert_inner(
        &mut self,
        line: &[u8],
        head: Option<&LineHead>,
        out: &mut Vec<u8>,
    ) -> Result<Outcome, LineError> {
        let mark = out.len();
        // Host confusion (WHATWG URL §4.4 against RFC 3986 §3.2): never passed on. A head
        // that saw no `\` in the line (nor TAB, CR, LF) proves there is none, and so does a
        // plain crawl head (`LineHead::crawl`: `http(s)://`, an authority of reg-name bytes).
        let backslash = match head {
            Some(h) if !h.tab_newline_or_backslash || h.plain_crawl => None,
            _ => components::backslash_in_special_authority(line),
        };
        if let Some(p) = backslash {
            return Err(LineError::new(ErrorKind::BackslashAuthority, p));
        }
        // RFC 3987 §3.2 step 1 reads UTF-8, and raw controls would reach the display (NUL,
        // CR, LF must never be produced): an invalid line is `invalid-utf8`, then a C0 or C1
        // control is `control-char`. An ASCII line (most URIs) is UTF-8 without a C1
        // control: one pass finds its controls ([`ascii_line_control`]).
        let ascii = if self.naive {
            None
        } else {
            ascii_line_control(line)
        };
        let control = match ascii {
            Some(control) => control,
            None => {
                let valid = if self.naive {
                    simdutf8::compat::from_utf8(line)
                        .map(|_| ())
                        .map_err(|e| e.valid_up_to())
                } else {
                    crate::simd::utf8::validate(line)
                };
                if let Err(at) = valid {
                    return Err(LineError::new(ErrorKind::InvalidUtf8, at));
                }
                if self.naive {
                    line.iter()
                        .position(|&b| classes::is(b, classes::CONTROL))
                        .or_else(|| {
                            let s = std::str::from_utf8(line).expect("checked");
                            s.char_indices().find(|&(_, c)| is_c1(c)).map(|(p, _)| p)
                        })
                } else {
                    find_control_or_c1(line)
                }
            }
        };
        if let Some(p) = control {
            return Err(LineError::new(ErrorKind::ControlChar, p));
        }
        // The line is UTF-8 (checked above): a piece of it is a `str` when it starts and ends
        // on character boundaries, which is when `std::str::from_utf8` of it succeeds.
        // SAFETY: `line` passed the UTF-8 validation above (both validators implement
        // RFC 3629 §4 exactly; the naive twin's is `simdutf8::compat::from_utf8`); a
        // `from_utf8` of the host alone cost ~130 instructions per line (issue #11).
        let text = unsafe { std::str::from_utf8_unchecked(line) };
        // A character not fit for display that came raw (the line is an IRI already): written
        // percent-encoded, as it would stay if it had come encoded. An ASCII line has none.
        if ascii.is_none() {
            let first = if self.naive {
                first_unfit_raw_naive(text)
            } else {
                first_unfit_raw(text)
            };
            if let Some(first) = first {
                return self.convert_unfit_raw(text, first, out);
            }
        }
        let mut o = Outcome::default();
        // RFC 3986 Appendix B: the head from the caller (the same split, the test
        // `line_head_checks_match_twins`), then path, query and fragment.
        let c = match head {
            Some(h) => components::split_tail_memchr(
                line,
                components::Components {
                    scheme: h.scheme_len.map(|l| 0..l),
                    authority: h.authority.clone(),
                    path: h.path_start..line.len(),
                    query: None,
                    fragment: None,
                },
            ),
            None => components::split(line),
        };
        let mut pos = 0;
        // The host, when it holds a raw byte that may start a right-to-left character (the
        // number rule on a line written as it came, below).
        let mut rtl_host = None;
        if let Some(ar) = c.authority.clone() {
            let a = match head.and_then(|h| h.split_authority(line)) {
                Some(a) => a,
                None => components::split_authority(line, ar.clone()),
            };
            // A malformed authority (a second `@`, a port that is not digits) is left as it is
            // (to-iri reports only what it must), but a `%` in it that starts no triplet is
            // `bad-percent` as in every other component (RFC 3986 §2.1; found by a QA sweep:
            // `http://ex.com:8%zz0/` and `http://a@b@ex.com%zz/` passed without a report).
            if a.is_err() {
                if let Some(p) = bad_percent(&line[ar.clone()]) {
                    return Err(LineError::new(ErrorKind::BadPercent, ar.start + p));
                }
            }
            if let Ok(a) = a {
                if let Some(ui) = a.userinfo.clone() {
                    out.extend_from_slice(&line[pos..ui.start]);
                    self.decode(line, ui.clone(), Component::Userinfo, out, &mut o)?;
                    pos = ui.end;
                }
                out.extend_from_slice(&line[pos..a.host.start]);
                pos = a.host.start;
                let h = a.host.clone();
                if ascii.is_none() && crate::convert::bidi::may_contain_rtl(&line[h.clone()]) {
                    rtl_host = Some(h.clone());
                }
                if line.get(h.start) != Some(&b'[') {
                    let scheme = c.scheme.clone().map(|r| &line[r]);
                    // The host lies between ASCII delimiters of a valid UTF-8 line.
                    match (self.idna_for(scheme), text.get(h.clone())) {
                        (Some(idna), Some(host)) => {
                            // A DNS host is not decoded (step 5), but a `%` in it that starts
                            // no triplet is `bad-percent` as in every other component
                            // (RFC 3986 §2.1).
                            // (A plain crawl head has no `%` in its authority.)
                            let crawl = head.is_some_and(|h| h.plain_crawl);
                            if let Some(p) =
                                (!crawl).then(|| bad_percent(host.as_bytes())).flatten()
                            {
                                return Err(LineError::new(ErrorKind::BadPercent, h.start + p));
                            }
                            self.host_to_unicode(host, idna, out, &mut o)
                        }
                        _ => {
                            self.decode_host(line, h.clone(), out, &mut o)?;
                        }
                    }
                    pos = h.end;
                } else if let Some(p) = bad_percent(&line[h.clone()]) {
                    // An IP literal is written as it came, but a `%` in it that starts no
                    // triplet (a zone id not written `%25`, RFC 6874 §2) is `bad-percent` as
                    // anywhere else in the authority (a QA sweep: `[fe80::1%eth0]` passed
                    // where the same literal after a second `@` was reported).
                    return Err(LineError::new(ErrorKind::BadPercent, h.start + p));
                }
            }
        }
        out.extend_from_slice(&line[pos..c.path.start]);
        // (normalize's presenter, without the label rule, never asks)
        let blob = if self.label_rule {
            blob_inner_host(line, &c)
        } else {
            None
        };
        match blob {
            // The host of a `blob:` line's inner URL is a host to its reader (W3C File API
            // §8.3: the blob's origin), though RFC 3986 reads it as path: decoded with the
            // host's display rules (issue 16), the rest of the path as a path.
            // When a label of it is kept as it came, so is the whole path segment that holds
            // the inner authority (raw characters encoded, as the bidi rule writes a path
            // segment), so that a second pass writes the same (found by a QA sweep:
            // `blob:https://üser@kapı%2Eمصر/x`, its bidi rule and its label rule took
            // pieces of different sizes).
            Some((a, h)) => {
                let m = out.len();
                self.decode(line, c.path.start..h.start, Component::Path, out, &mut o)?;
                let hs = out.len();
                let kept = self.decode_host(line, h.clone(), out, &mut o)?;
                let he = out.len();
                // The number rule of the host (`rtl_host_before_number`) for the inner host:
                // a right-to-left inner host before a number in the rest of the path keeps
                // the inner authority as it came (a QA sweep: `blob:https://%D7%91…/8.8.8.8/`
                // showed as `blob:https://8.8.8.8/…`).
                let number = !kept && {
                    self.decode(line, h.end..c.path.end, Component::Path, out, &mut o)?;
                    let t = std::str::from_utf8(&out[hs..]).unwrap_or_default();
                    let n = he - hs;
                    t.is_char_boundary(n)
                        && crate::convert::bidi::rtl_host_before_number(&t[..n], &t[n..]).is_some()
                };
                if kept || number {
                    out.truncate(m);
                    self.decode(line, c.path.start..a.start, Component::Path, out, &mut o)?;
                    if push_as_it_came(&line[a.clone()], true, out) {
                        o.written = Written::Wrote;
                    }
                    self.decode(line, a.end..c.path.end, Component::Path, out, &mut o)?;
                }
            }
            None => self.decode(line, c.path.clone(), Component::Path, out, &mut o)?,
        }
        if let Some(q) = c.query.clone() {
            out.push(b'?');
            self.decode(line, q, Component::Query, out, &mut o)?;
        }
        if let Some(f) = c.fragment.clone() {
            out.push(b'#');
            self.decode(line, f, Component::Fragment, out, &mut o)?;
        }
        if o.written == Written::Wrote && (self.bidi_rule || self.label_rule) {
            self.keep_bidi_encoded(line, out, mark, false);
        } else if self.label_rule
            && rtl_host.is_some_and(|h| {
                text.get(h.clone()).is_some_and(|host| {
                    crate::convert::bidi::rtl_host_before_number(host, &text[h.end..]).is_some()
                })
            })
            && out[mark..] == *line
        {
            // A line written as it came that holds raw non-ASCII text: the number rule of
            // the host still applies (a QA sweep: `https://ab.ب/8.8.8.8/x` passed through,
            // shown with `8.8.8.8` in the host's place, while the same line with a `%41`
            // to decode had its label kept in ACE form); the input's own text is otherwise
            // left as it is.
            self.keep_bidi_encoded(line, out, mark, true);
            if out[mark..] != *line {
                o.written = Written::Wrote;
            }
        }
        Ok(o)
    }

    /// RFC 3987 §4.2 on what the conversion wrote (`out[mark..]`, from `line`): a component
    /// whose decoded characters break its rules (a right-to-left component mixed with
    /// left-to-right characters, or not starting and ending with a right-to-left character,
    /// as `check` judges it: [`bidi::check_component`](crate::convert::bidi::check_component))
    /// is written as it came, percent-encoded: "If the above restrictions cannot be satisfied
    /// otherwise, the affected component can always be mapped to URI notation". RFC 3987
    /// §3.2 step 4 re-encodes only for §2.2, §4.1 and §6.1; this is the display-safety choice
    /// of issue 16 (an IRI to-iri writes passes `check`; found by a QA sweep:
    /// `/%D7%90b/` was shown as `/אb/`, which check refuses). What is kept encoded is the
    /// piece [`bidi_units`] puts the component in (a path segment, a query piece, a host
    /// label, the userinfo, the fragment): its characters decide together how it displays.
    /// `number_only`: only the number rule of the host ([`rtl_host_label_before_number`]),
    /// for a line written as it came.
    fn keep_bidi_encoded(
        &mut self,
        line: &[u8],
        out: &mut Vec<u8>,
        mark: usize,
        number_only: bool,
    ) {
        let written = &out[mark..];
        // A byte that may start a right-to-left character, then the exact prefilter: the
        // first is a fold the compiler vectorizes (the exact test alone cost ~200
        // instructions a line on intl_cldr's URIs). to-iri writes no raw U+200F (not fit
        // for display), which `may_lead_rtl` leaves out.
        let lead = crate::convert::bidi::may_lead_rtl;
        let maybe = written
            .chunks(32)
            .any(|c| c.iter().fold(false, |a, &b| a | lead(b)));
        if !maybe || !crate::convert::bidi::may_contain_rtl(written) {
            return;
        }
        if crate::simd::utf8::validate(written).is_err() {
            return; // unreachable: to-iri writes UTF-8
        }
        // SAFETY: validated as UTF-8 just above (RFC 3629 §4, `simd::utf8::validate`).
        let text = unsafe { std::str::from_utf8_unchecked(written) };
        let c = components::split(written);
        self.bidi.clear();
        if self.bidi_rule && !number_only {
            crate::convert::bidi::push_components(text, &c, &mut self.bidi);
        }
        // A component without a byte that may start a right-to-left character passes
        // (`check_component` finds no right-to-left character in it).
        let mut bad: Vec<usize> = self
            .bidi
            .iter()
            .filter(|r| {
                written[(*r).clone()].iter().any(|&b| lead(b))
                    && crate::convert::bidi::check_component(text, (*r).clone()).is_err()
            })
            .map(|r| r.start)
            .collect();
        let number_label = self
            .label_rule
            .then(|| rtl_host_label_before_number(text, &c))
            .flatten();
        bad.extend(number_label);
        if self.label_rule && !number_only {
            bad.extend(rtl_userinfo(text, &c));
        }
        if bad.is_empty() {
            return;
        }
        // Both in the line's order: one merge, not a search of `bad` per piece (found by a
        // QA sweep: 131,072 bad path segments took 7.8 s a megabyte, quadratic).
        bad.sort_unstable();
        let pairs = paired_units(written, line);
        let mut fixed = Vec::with_capacity(line.len());
        let mut prev = 0;
        let mut next_bad = 0;
        for (part, w, l) in pairs {
            while next_bad < bad.len() && bad[next_bad] < w.start {
                next_bad += 1;
            }
            if bad.get(next_bad).is_some_and(|&b| b <= w.end) {
                fixed.extend_from_slice(&written[prev..w.start]);
                // As it came, its `%HH` in uppercase hex as to-iri writes what stays encoded;
                // outside the host, a character that came raw is encoded too (RFC 3987 §3.1
                // step 2, as to-uri writes it): a raw right-to-left letter beside a `%HH`
                // that to-iri itself wrote for an invisible character (`א%E2%80%8Bב`, found
                // by a QA sweep) or beside a left-to-right one (`אb`) would break §4.2 as
                // written. A host label keeps its raw characters (a host is not
                // percent-encoded for display; README "to-iri"), unless to-iri encoded one
                // of them itself ([`ToIri::convert_unfit_raw`]: a raw ZWNJ in the Persian
                // `برمه‌ای.com` written `برمه%E2%80%8Cای`, whose hex letters broke §4.2 as
                // written, found by a QA sweep): then the label is encoded whole, as a path
                // segment is (RFC 3986 §3.2.2 allows a reg-name in `%HH`; a browser decodes
                // it to the same host).
                let encoded_here = self.encoded_raw.iter().any(|e| l.contains(e));
                // A label the number rule keeps that came raw (the input's own Unicode host,
                // or a raw `--base`'s) would be shown as it came, before the number it joins:
                // written in ACE form for a DNS scheme, percent-encoded otherwise (a QA sweep:
                // `https://במי.ישראל/%D9%A8` decoded the digit after a raw host).
                let number = part == UNIT_HOST
                    && number_label.is_some_and(|k| w.contains(&k))
                    && !line[l.clone()].is_ascii();
                if let Some(ace) = (part == UNIT_HOST)
                    .then(|| self.ace_of_kept_label(written, &c, w.clone(), number))
                    .flatten()
                {
                    fixed.extend_from_slice(ace.as_bytes());
                } else {
                    let raw = part != UNIT_HOST || encoded_here || number;
                    push_as_it_came(&line[l], raw, &mut fixed);
                }
                prev = w.end;
            }
        }
        fixed.extend_from_slice(&written[prev..]);
        out.truncate(mark);
        out.extend_from_slice(&fixed);
    }

    /// The ACE form of the written host label `written[w]` of a DNS scheme, in lower case,
    /// where [`ToIri::with_ace_kept_labels`] asks for it, or `came_raw` (a label the number
    /// rule keeps that the input held in Unicode) and to-iri treats the scheme's hosts as
    /// DNS names; and the label is not ASCII.
    fn ace_of_kept_label(
        &self,
        written: &[u8],
        c: &components::Components,
        w: std::ops::Range<usize>,
        came_raw: bool,
    ) -> Option<String> {
        let scheme = &written[c.scheme.clone()?];
        let idna = match self.ace_kept {
            Some(idna) => idna,
            None if came_raw => self.idna_for(Some(scheme))?,
            None => return None,
        };
        let label = std::str::from_utf8(&written[w]).ok()?;
        if label.is_ascii() || !crate::config::is_dns_scheme(scheme) {
            return None;
        }
        crate::host::to_ascii_lower(label, idna)
    }

    fn idna_for(&self, scheme: Option<&[u8]>) -> Option<Idna> {
        crate::host::idna_for(self.opts.host, scheme)
    }

    /// A line whose characters from `first` on include some not fit for display that came
    /// raw ([`first_unfit_raw`]; found by a QA sweep: a raw U+202E went to the display as it
    /// came, reordering the path, while `%E2%80%AE` stays encoded): each such character is
    /// percent-encoded with uppercase hex (RFC 3987 §3.1 step 2, as to-uri writes it), and
    /// the result converted as if it had come so; the characters RFC 3987 §2.2 and §4.1 do
    /// not allow raw (bidi formatting, private use outside the query, non-`ucschar`) are
    /// warned of as to-uri warns of them. An error's offset is mapped back to the line.
    #[cold]
    fn convert_unfit_raw(
        &mut self,
        text: &str,
        first: usize,
        out: &mut Vec<u8>,
    ) -> Result<Outcome, LineError> {
        let line = text.as_bytes();
        let parts = query_and_fragment_starts(line);
        let mut enc = Vec::with_capacity(line.len() + 16);
        enc.extend_from_slice(&line[..first]);
        // (offset in `enc`, offset in `line`, length in `enc`, length in `line`) of each
        // encoded character.
        let mut moved: Vec<(usize, usize, usize, usize)> = Vec::new();
        let mut warned = Outcome::default();
        // Whether the last character was encoded here: combining marks right after one are
        // encoded with it, so that the conversion keeps them encoded as it would had they
        // all come encoded (a mark on a `%HH`, issue 16: [`host::display::mark_base_unsafe`]).
        let mut after_encoded = false;
        for (k, c) in text[first..].char_indices() {
            let p = first + k;
            let in_query = in_query(parts, p);
            let on_encoded = after_encoded && !c.is_ascii() && host::display::COMBINING_MARK.get(c);
            let fit = c.is_ascii() || is_displayable(c, in_query);
            if fit && !on_encoded {
                let mut b = [0u8; 4];
                enc.extend_from_slice(c.encode_utf8(&mut b).as_bytes());
                after_encoded = false;
                continue;
            }
            after_encoded = true;
            if let Some(kind) = (!fit)
                .then(|| classes::raw_char_warning(c, in_query))
                .flatten()
            {
                warned.warnings += 1;
                warned.first_warning.get_or_insert(LineError::new(kind, p));
            }
            let start = enc.len();
            let mut b = [0u8; 4];
            crate::grammar::pct::push_pct_all(&mut enc, c.encode_utf8(&mut b).as_bytes());
            moved.push((start, p, enc.len() - start, c.len_utf8()));
        }
        // An offset in `enc` back to the line: inside an encoded character, its start.
        let back = |at: usize| {
            let mut grown = 0;
            for &(e, l, n, m) in &moved {
                if at < e {
                    break;
                }
                if at < e + n {
                    return l;
                }
                grown += n - m;
            }
            at - grown
        };
        let mark = out.len();
        self.encoded_raw.clear();
        self.encoded_raw.extend(moved.iter().map(|m| m.0));
        let converted = self.convert_head(&enc, None, out);
        let converted = match converted {
            Ok(o) if o.written == Written::Passthrough => {
                out.truncate(mark);
                out.extend_from_slice(&enc);
                // What this encoding wrote (`%E2%80%8B` beside right-to-left letters)
                // is held to RFC 3987 §4.2 as a decoded character is.
                if self.bidi_rule {
                    self.keep_bidi_encoded(&enc, out, mark, false);
                }
                Ok(o)
            }
            other => other,
        };
        self.encoded_raw.clear();
        match converted {
            Ok(mut o) => {
                o.written = Written::Wrote;
                o.warnings += warned.warnings;
                // The first of the two, the converter's mapped back to the line.
                let converted = o
                    .first_warning
                    .map(|e| LineError::new(e.kind, back(e.offset)));
                o.first_warning = match (converted, warned.first_warning) {
                    (Some(e), Some(w)) => Some(if e.offset < w.offset { e } else { w }),
                    (e, w) => e.or(w),
                };
                Ok(o)
            }
            Err(e) => Err(LineError::new(e.kind, back(e.offset))),
        }
    }

    /// 3987bis §4.2 step 7: ToUnicode of `xn--` labels (the prefix in any case), kept only if
    /// ToASCII gives back this host up to ASCII case (RFC 3490 §5, §4.2; so that to-uri maps
    /// the result back to the input, a host being case-insensitive, RFC 3986 §3.2.2) and
    /// every character is displayable. The decision is cached per host
    /// ([`HostCache::to_unicode`]).
    fn host_to_unicode(&mut self, host: &str, idna: Idna, out: &mut Vec<u8>, o: &mut Outcome) {
        let naive = self.naive;
        if self.cache.to_unicode_traced(
            host,
            idna,
            |h, u, fast| present_host(h, u, idna, naive, fast && !naive),
            out,
        ) {
            o.written = Written::Wrote;
        } else {
            out.extend_from_slice(host.as_bytes());
        }
    }

    /// Steps 2–4 on one component (RFC 3987 §3.2): each run of `%HH` triplets decoded into
    /// octets and written by [`emit_octets`] ([`ToIri::decode_fast`], or its naive twin), then
    /// the display-safety pass of [`ToIri::reencode_lookalikes`] (issue 16).
    fn decode(
        &mut self,
        line: &[u8],
        r: std::ops::Range<usize>,
        comp: Component,
        out: &mut Vec<u8>,
        o: &mut Outcome,
    ) -> Result<(), LineError> {
        let mark = out.len();
        self.decoded.clear();
        self.lookalike = false;
        self.mark_risk = false;
        if self.naive {
            self.decode_naive(line, r, comp, out, o)?;
        } else {
            self.decode_fast(line, r, comp, out, o)?;
        }
        let marks = comp != Component::Host || self.label_rule;
        self.reencode_lookalikes(out, mark, marks, o);
        Ok(())
    }

    /// Steps 2–4 on a reg-name host that to-iri percent-decodes (a scheme without DNS hosts,
    /// `--host percent`, a `file:` host, the inner URL's host of a `blob:` line), label by
    /// label at the dots written in the input, with the label rules of display safety
    /// (issue 16; 3987bis §3.4.2: `%D0%B0%D1%80%D1%80%D3%8F%D0%B5.com` is the host
    /// `xn--80ak6aa92e.com`, which is not shown as `аррӏе.com`): a label whose decoded form
    /// has a piece (at a decoded `%2E`) that [`host::display::check_label`] keeps in `xn--`
    /// form is written as it came, its `%HH` in uppercase hex, as the bidi rule writes a
    /// piece ([`ToIri::keep_bidi_encoded`]; so that a second pass writes the same). The TLD is
    /// the last non-empty label, decoded. A host without `%` is decoded as before (nothing).
    /// Returns whether a label was written as it came.
    fn decode_host(
        &mut self,
        line: &[u8],
        h: std::ops::Range<usize>,
        out: &mut Vec<u8>,
        o: &mut Outcome,
    ) -> Result<bool, LineError> {
        let s = &line[h.clone()];
        if !self.label_rule || memchr::memchr(b'%', s).is_none() {
            self.decode(line, h, Component::Host, out, o)?;
            return Ok(false);
        }
        let mut kept = false;
        let last = s
            .split(|&b| b == b'.')
            .rfind(|l| !l.is_empty())
            .unwrap_or_default();
        let last = host::host_octets(last).unwrap_or_else(|| last.to_vec());
        let last = String::from_utf8_lossy(&last);
        let tld = last.rsplit('.').find(|l| !l.is_empty()).unwrap_or_default();
        // A host of one label (at the input's dots and the decoded ones) has no TLD to
        // judge it under ([`host::display::tld_of`]).
        let one_label = s.split(|&b| b == b'.').filter(|l| !l.is_empty()).count() == 1
            && last.split('.').filter(|l| !l.is_empty()).count() == 1;
        let tld = if one_label { "" } else { tld };
        let check = if self.naive {
            host::display::check_label_naive
        } else {
            host::display::check_label
        };
        let mut start = h.start;
        loop {
            let end = memchr::memchr(b'.', &line[start..h.end]).map_or(h.end, |p| start + p);
            let m = out.len();
            self.decode(line, start..end, Component::Host, out, o)?;
            let label = &line[start..end];
            let unsafe_label = label.contains(&b'%')
                && std::str::from_utf8(&out[m..]).is_ok_and(|t| {
                    !t.is_ascii()
                        && t.split('.')
                            .any(|l| host::display::check_decoded_label(l, tld, check).is_err())
                });
            if unsafe_label {
                out.truncate(m);
                if push_as_it_came(label, false, out) {
                    o.written = Written::Wrote;
                }
                kept = true;
            }
            if end == h.end {
                return Ok(kept);
            }
            out.push(b'.');
            start = end + 1;
        }
    }

    /// Display safety (issue 16, UTS #39 skeletons): a character that percent-decoding
    /// produced in `out[mark..]` and that looks like a delimiter (`∕` U+2215 for `/`) goes
    /// back to its `%HH` form, so the IRI does not read as another host or path, and so does
    /// a decoded combining mark on a delimiter or a `%HH` (`?q=%CC%B8` is not shown `?q≠`;
    /// [`host::display::reencode_lookalikes_in`]). Characters written literally in the input
    /// stay as they are.
    /// `marks` is false for a host without the label rule (normalize's comparison form, which
    /// decodes hosts as they are).
    fn reencode_lookalikes(
        &mut self,
        out: &mut Vec<u8>,
        mark: usize,
        marks: bool,
        o: &mut Outcome,
    ) {
        let decoded = std::mem::take(&mut self.decoded);
        // The fast path leaves early when no decoded character looks like a delimiter (no
        // allocation, no UTF-8 pass over the component): [`emit_octets`] noted it while it
        // wrote them (`self.lookalike`). The non-ASCII characters in the decoded ranges are
        // exactly the displayable characters it copied, so this is the exit
        // [`host::display::reencode_lookalikes_in_ranges`] would take, when no decoded mark
        // may sit on an unsafe base either (a look at the characters after ASCII bytes and
        // at the ranges' starts). The naive twin runs the full pass.
        // The line's own output only (`line_start`): a mark's base is never a byte the
        // caller wrote before the line.
        let ls = self.line_start.min(mark);
        let reencoded = !decoded.is_empty()
            && if self.naive {
                host::display::reencode_lookalikes_in(out, ls, mark, marks, |at| {
                    decoded.iter().any(|r| r.contains(&at))
                })
            } else {
                (self.lookalike
                    || (marks
                        && self.mark_risk
                        && host::display::ranges_may_hold_unsafe_mark(
                            &out[ls..],
                            mark - ls,
                            &decoded,
                        )))
                    && host::display::reencode_lookalikes_in_ranges(out, ls, mark, marks, &decoded)
            };
        if reencoded {
            o.written = Written::Wrote;
        }
        self.decoded = decoded;
        self.decoded.clear();
    }

    /// The fast path of [`ToIri::decode`]: `%` found by `memchr`; each run of triplets is
    /// decoded straight into `out` by the block kernel ([`crate::simd::hex::decode_triplets`]),
    /// its characters that need no decision are left there ([`clean_prefix`]) and the rest
    /// goes through [`emit_octets`]; each run's output range is recorded for
    /// [`ToIri::reencode_lookalikes`].
    fn decode_fast(
        &mut self,
        line: &[u8],
        r: std::ops::Range<usize>,
        comp: Component,
        out: &mut Vec<u8>,
        o: &mut Outcome,
    ) -> Result<(), LineError> {
        let mark = out.len();
        let s = &line[r.clone()];
        let n = s.len();
        let mut run = 0;
        let mut i = 0;
        while let Some(p) = find_percent(&s[i..]) {
            i += p;
            out.extend_from_slice(&s[run..i]);
            let at = out.len();
            // The run of triplets, decoded into `out` sixteen at a time (`simd::hex`); a '%'
            // right after it starts no triplet.
            let j = i + crate::simd::hex::decode_triplets(&s[i..], out);
            // A dot segment only once decoded stays as it came ([`encoded_dot_segment_at`]);
            // its first triplet is a `.`, which is what is asked of every run.
            if out.get(at) == Some(&b'.') && comp == Component::Path {
                if let Some(end) = encoded_dot_segment_at(s, i) {
                    out.truncate(at);
                    push_upper(&s[i..end], out, o);
                    (i, run) = (end, end);
                    continue;
                }
            }
            if j < n && s[j] == b'%' {
                return Err(LineError::new(ErrorKind::BadPercent, r.start + j));
            }
            // Mostly the whole run is characters copied as they are ([`clean_prefix`]):
            // then the octets stay where they are. From the first character that needs a
            // decision on, the octets go back to [`emit_octets`].
            let clean = clean_prefix(&out[at..], comp == Component::Query);
            if clean > 0 {
                o.written = Written::Wrote;
            }
            if at + clean < out.len() {
                self.octets.clear();
                self.octets.extend_from_slice(&out[at + clean..]);
                out.truncate(at + clean);
                let text = &s[i + 3 * clean..j];
                self.lookalike |= emit_octets(text, &self.octets, comp, out, o);
            }
            self.mark_risk |= run_may_hold_unsafe_mark(&out[at..]);
            self.decoded.push(at - mark..out.len() - mark);
            i = j;
            run = j;
        }
        out.extend_from_slice(&s[run..]);
        Ok(())
    }

    /// The naive twin of [`ToIri::decode`]: steps 2–4 on one component, byte by byte.
    fn decode_naive(
        &mut self,
        line: &[u8],
        r: std::ops::Range<usize>,
        comp: Component,
        out: &mut Vec<u8>,
        o: &mut Outcome,
    ) -> Result<(), LineError> {
        let s = &line[r.clone()];
        let n = s.len();
        let mark = out.len();
        let mut run = 0;
        let mut i = 0;
        while i < n {
            if s[i] != b'%' {
                i += 1;
                continue;
            }
            if !is_pct_triplet(s, i) {
                return Err(LineError::new(ErrorKind::BadPercent, r.start + i));
            }
            out.extend_from_slice(&s[run..i]);
            if comp == Component::Path {
                if let Some(end) = encoded_dot_segment_at(s, i) {
                    push_upper(&s[i..end], out, o);
                    (i, run) = (end, end);
                    continue;
                }
            }
            let mut j = i;
            self.octets.clear();
            while j < n && s[j] == b'%' {
                if !is_pct_triplet(s, j) {
                    return Err(LineError::new(ErrorKind::BadPercent, r.start + j));
                }
                let hi = classes::hex_value(s[j + 1]).expect("hex");
                let lo = classes::hex_value(s[j + 2]).expect("hex");
                self.octets.push(hi << 4 | lo);
                j += 3;
            }
            let at = out.len() - mark;
            emit_octets_naive(&s[i..j], &self.octets, comp, out, o);
            self.decoded.push(at..out.len() - mark);
            i = j;
            run = j;
        }
        out.extend_from_slice(&s[run..]);
        Ok(())
    }
}

/// False only when no decoded combining mark of the run `run` (what [`ToIri::decode_fast`]
/// wrote for one run of `%HH`) can sit on a base that must not carry one
/// ([`host::display::mark_base_unsafe`]): the run does not start with a mark
/// ([`host::display::starts_with_mark`]; an ASCII first octet answers true) and holds no
/// ASCII octet (a kept `%HH`, a decoded unreserved character). Then every mark in it follows
/// a non-ASCII character of the run, and the first of a chain of marks follows a character
/// that is no mark: a safe base. One lookup and a fold of the run's high bits (runs are
/// ~12 octets on `intl_cldr`'s URIs), where [`host::display::ranges_may_hold_unsafe_mark`]
/// cost ~20 M instructions there on every component.
#[inline]
fn run_may_hold_unsafe_mark(run: &[u8]) -> bool {
    !run.is_empty()
        && (host::display::starts_with_mark(run)
            || run
                .chunks(16)
                .any(|c| c.iter().fold(0x80u8, |a, &b| a & b) & 0x80 == 0))
}

/// The reg-name host of the inner URL of a `blob:` line whose components are `c` (no
/// authority of its own, the scheme `blob` in any case), as a browser reads it, as a range of
/// `line` with the range of the inner authority; `None` otherwise, and for an IP literal or
/// an empty host. Only a line with a `%` in its path asks (the caller's decode of the rest is
/// unchanged).
///
/// * A special inner scheme other than `file` (WHATWG URL §4.4, special authority slashes
///   and ignore slashes states): the authority starts after any run of `/` and `\` (none
///   too: `blob:http:%D0%B0…` has the host `%D0%B0…` to a browser; found by a QA sweep:
///   `blob:http:///%D0%B0%D1%80%D1%80%D3%8F%D0%B5.com/` was shown `аррӏе.com`) and ends at
///   `/ \ ? #`.
/// * Any other inner scheme: the authority of RFC 3986 Appendix B (`scheme://`).
///
/// In the authority the host follows the last `@` and ends at the next `:` (the browser's
/// host state), also where RFC 3986 refuses the authority (a port `:x` or `:%38`, an `@` in
/// the userinfo): its labels get the rules too (found by a QA sweep:
/// `blob:http://%D0%B0%D1%80%D1%80%D3%8F%D0%B5.com:x/` was shown `blob:http://аррӏе.com:x/`).
fn blob_inner_host(
    line: &[u8],
    c: &components::Components,
) -> Option<(std::ops::Range<usize>, std::ops::Range<usize>)> {
    let scheme = c.scheme.clone()?;
    if c.authority.is_some() || !line[scheme].eq_ignore_ascii_case(b"blob") {
        return None;
    }
    let p = &line[c.path.clone()];
    memchr::memchr(b'%', p)?;
    let inner = components::split(p);
    let sr = inner.scheme.clone()?;
    let inner_scheme = &p[sr.clone()];
    let ar = if components::is_special_scheme(inner_scheme)
        && !inner_scheme.eq_ignore_ascii_case(b"file")
    {
        let mut k = sr.end + 1;
        while k < p.len() && matches!(p[k], b'/' | b'\\') {
            k += 1;
        }
        let end = p[k..]
            .iter()
            .position(|&b| matches!(b, b'/' | b'\\' | b'?' | b'#'))
            .map_or(p.len(), |e| k + e);
        k..end
    } else {
        inner.authority?
    };
    let a = &p[ar.clone()];
    let start = ar.start + a.iter().rposition(|&b| b == b'@').map_or(0, |k| k + 1);
    let end = memchr::memchr(b':', &p[start..ar.end]).map_or(ar.end, |k| start + k);
    let at = |r: std::ops::Range<usize>| c.path.start + r.start..c.path.start + r.end;
    (start < end && p[start] != b'[').then(|| (at(ar), at(start..end)))
}

/// Writes `piece` of the line as it came, its `%HH` in uppercase hex (as to-iri writes what
/// stays encoded) and, with `encode_raw`, its raw non-ASCII bytes percent-encoded (RFC 3987
/// §3.1 step 2; a host label keeps them raw). The one writer of a piece kept encoded, for
/// [`ToIri::keep_bidi_encoded`] and [`ToIri::decode_host`]. Returns whether what it wrote
/// differs from `piece`.
fn push_as_it_came(piece: &[u8], encode_raw: bool, out: &mut Vec<u8>) -> bool {
    let mut changed = false;
    for (k, &b) in piece.iter().enumerate() {
        if b >= 0x80 && encode_raw {
            crate::grammar::pct::push_pct(out, b);
            changed = true;
            continue;
        }
        let in_triplet = (1..=2).any(|d| k >= d && piece[k - d] == b'%');
        let u = if in_triplet {
            b.to_ascii_uppercase()
        } else {
            b
        };
        changed |= u != b;
        out.push(u);
    }
    changed
}

/// The lines for the tests of the shortcuts that decode `%HH` (to-iri's and normalize's),
/// each given to `check`: `validate::shortcut_test_lines` (made, random, every data set),
/// the URI that to-uri writes for each data-set line (percent-encoded text, hosts in ACE
/// form), and `validate::made_crawl_lines` of [`PCT_CRAWL_HOSTS`] and [`PCT_CRAWL_PIECES`]
/// from `seed`. Returns whether the data sets were read.
#[cfg(test)]
pub(crate) fn pct_shortcut_test_lines(seed: u64, check: impl Fn(&[u8])) -> bool {
    let mut to_uri = crate::convert::to_uri::ToUri::new(crate::config::ToUriOptions::default());
    let mut uri = Vec::new();
    let read = crate::grammar::validate::shortcut_test_lines(&check, |line| {
        check(line);
        uri.clear();
        if to_uri.convert_into(line, &mut uri).is_ok() && !uri.is_empty() {
            check(&uri);
        }
    });
    crate::grammar::validate::made_crawl_lines(seed, PCT_CRAWL_HOSTS, PCT_CRAWL_PIECES, check);
    read
}

/// Hosts of made crawl lines for [`pct_shortcut_test_lines`]: ASCII, valid ACE labels (one,
/// several, mixed with ASCII labels, upper case, a trailing root dot, right-to-left, CJK),
/// ACE labels that do not decode or decode to something refused, names ending in a number
/// once shown, `--` outside the ACE prefix, an IPv4 address, a capital, a port, userinfo,
/// none, an IP literal, Unicode hosts (one with a zero-width space) and a `%HH` in a host.
#[cfg(test)]
pub(crate) const PCT_CRAWL_HOSTS: &[&str] = &[
    "a.b",
    "xn--p1ai",
    "www.xn--bcher-kva.de",
    "XN--BCHER-KVA.de",
    "xn--80ak6aa92e.com",
    "a.xn--p1ai.123",
    "xn--p1ai.0x1F",
    "xn--bcher-kva.xn--p1ai.",
    "xn--zz.de",
    "xn--a.de",
    "xn--ls8h.la",
    "xn--mgbh0fb.xn--kgbechtv",
    "xn--d1abbgf6aiiy.xn--p1ai",
    "xn--fsqu00a.xn--0zwm56d",
    "xn--80a.xn--e1a",
    "Ex.com",
    "a--b.de",
    "1.2.3.4",
    "ex.com:8080",
    "u@h",
    "",
    "[::1]",
    "bü.de",
    "пример.рф",
    "a%41",
    "a\u{200B}b.de",
];

/// Pieces of made crawl lines (`validate::made_crawl_lines`) for the shortcuts that decode `%HH`
/// (to-iri's, normalize's): delimiters, a letter, dot segments, `%HH` of ASCII (reserved,
/// `%`, unreserved), of clean characters (upper and lower case), of characters kept encoded
/// (a bidi override, a look-alike of `/`, a C1 control, a full-width `/`, a private-use
/// character, a surrogate, a four-octet character), broken triplets, a space, a `\`, raw
/// `é`, encoded NUL and LF, and raw characters that normalize writes percent-encoded (a
/// zero-width space, an ideographic space, a full-width `/`: its crawl pass encodes them)
/// or leaves to steps 0–9 (a right-to-left mark, a look-alike of `/`).
#[cfg(test)]
pub(crate) const PCT_CRAWL_PIECES: &[&str] = &[
    "/",
    "?",
    "#",
    "=",
    "&",
    "a",
    "/./",
    "/../",
    "%41",
    "%2F",
    "%25",
    "%7E",
    "%D0%B6",
    "%d0%b6",
    "%E6%97%A5",
    "%E2%80%AE",
    "%E2%88%95",
    "%C2%85",
    "%EF%BC%8F",
    "%F0%9F%98%80",
    "%EE%80%80",
    "%ED%A0%80",
    "%C3",
    "%4",
    "%zz",
    " ",
    "\\",
    "é",
    "%00",
    "%0A",
    "\u{200B}",
    "\u{3000}",
    "\u{FF0F}",
    "\u{200F}",
    "\u{30CE}",
];

/// The pairs [`crawl_line_compare`] compares: the converter, and the slow path of the engine
/// (the [`Guard`](integrity::Guard) around the converter with the engine's options for
/// to-iri: `maps_hosts: None`, with and without `--trim`), in every host mode.
#[cfg(any(test, feature = "twins"))]
#[doc(hidden)]
pub fn crawl_line_twins() -> Vec<(ToIri, integrity::Guard<ToIri>)> {
    let mut twins = Vec::new();
    for host in [
        HostMode::Auto,
        HostMode::Uts46,
        HostMode::IDNA2003,
        HostMode::Percent,
    ] {
        for trim in [false, true] {
            let g = integrity::GuardOptions {
                trim,
                strict: false,
                maps_hosts: None,
                warnings_unseen: false,
            };
            let o = ToIriOptions { host };
            twins.push((ToIri::new(o), integrity::Guard::new(ToIri::new(o), g)));
        }
    }
    twins
}

/// [`ToIri::convert_crawl_line`] against its twin, the slow path it stands for, with each
/// pair of [`crawl_line_twins`]: wherever the shortcut answers, the Guard around the
/// converter succeeds with the same bytes, no repair, warning or fallback, and `Wrote`
/// exactly when the shortcut wrote; where it declines, `out` is as it was. Returns how many
/// pairs answered and declined. For the tests and the fuzz target `simd_twin`.
#[cfg(any(test, feature = "twins"))]
#[doc(hidden)]
pub fn crawl_line_compare(
    twins: &mut [(ToIri, integrity::Guard<ToIri>)],
    line: &[u8],
) -> (usize, usize) {
    use crate::convert::Converter;
    let (mut answered, mut declined) = (0, 0);
    let show = String::from_utf8_lossy(line);
    for (quick, slow) in twins.iter_mut() {
        let mut a = b"x".to_vec();
        let Some(wrote) = quick.convert_crawl_line(line, &mut a) else {
            assert_eq!(a, b"x", "{show:?}: declined, out untouched");
            declined += 1;
            continue;
        };
        answered += 1;
        let mut b = b"x".to_vec();
        let o = slow
            .convert_into(line, &mut b)
            .unwrap_or_else(|e| panic!("{show:?}: shortcut answered, slow path {e:?}"));
        assert_eq!(a, b, "{show:?} {:?}", quick.opts.host);
        assert_eq!(o, Outcome::quiet(wrote), "{show:?} {:?}", quick.opts.host);
    }
    (answered, declined)
}

/// The offset of the first character of `text` (an IRI that passed the control check) that
/// is not fit for display where it stands ([`is_displayable`]: the query allows private
/// use), or `None`. ASCII is always fit here (controls were refused before). The lead bytes
/// of [`UNFIT_LEAD`] are found by the SIMD classifier, 64 bytes at a time; only their
/// characters are looked at, most of them passed by [`clean_char_len`]'s bitmap test, the
/// rest by [`is_displayable`]. The twin is [`first_unfit_raw_naive`].
fn first_unfit_raw(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let classifier = UNFIT_CLASSIFIER.get_or_init(|| {
        let set = (0..=255u8)
            .filter(|&b| UNFIT_LEAD[b as usize])
            .fold(ByteSet::EMPTY, ByteSet::with);
        Classifier::new(set)
    });
    for (ci, block) in bytes.chunks(64).enumerate() {
        let mut m = classifier.classify(block).flag;
        while m != 0 {
            let k = ci * 64 + m.trailing_zeros() as usize;
            m &= m - 1;
            if clean_char_len(&bytes[k..], false) > 0 {
                continue;
            }
            // A four-octet character, one to flag, or a displayable look-alike of a
            // delimiter (fit here: only decoded ones are re-encoded).
            let c = text[k..]
                .chars()
                .next()
                .expect("a lead byte starts a character");
            if !is_displayable(c, false) && !is_displayable(c, in_query_at(bytes, k)) {
                return Some(k);
            }
        }
    }
    None
}

/// The classifier of [`first_unfit_raw`] (the set of [`UNFIT_LEAD`]), built once.
static UNFIT_CLASSIFIER: std::sync::OnceLock<Classifier> = std::sync::OnceLock::new();

/// [`first_unfit_raw`] character by character, by [`is_displayable`] alone.
fn first_unfit_raw_naive(text: &str) -> Option<usize> {
    text.char_indices()
        .find(|&(k, c)| !c.is_ascii() && !is_displayable(c, in_query_at(text.as_bytes(), k)))
        .map(|(k, _)| k)
}

/// Whether offset `k` of `line` is in its query (RFC 3986 Appendix B): private use is
/// displayable there (RFC 3987 §2.2 `iprivate`).
fn in_query_at(line: &[u8], k: usize) -> bool {
    in_query(query_and_fragment_starts(line), k)
}

/// Whether offset `k` lies in the query, given [`query_and_fragment_starts`] of its line.
fn in_query((query, fragment): (Option<usize>, usize), k: usize) -> bool {
    query.is_some_and(|q| k > q) && k < fragment
}

/// Where the query's `?` and the fragment's `#` are in `line` (RFC 3986 Appendix B: the first
/// `#`, and the first `?` before it); the line's length for no fragment.
fn query_and_fragment_starts(line: &[u8]) -> (Option<usize>, usize) {
    let fragment = memchr::memchr(b'#', line).unwrap_or(line.len());
    (memchr::memchr(b'?', &line[..fragment]), fragment)
}

/// The start of the host label (in `text`, a written IRI split as `c`) that display safety
/// keeps as it came because a number after the host would be shown in the host's place
/// ([`crate::convert::bidi::rtl_host_before_number`]); `None` for an IP literal or a line
/// without the problem.
pub(crate) fn rtl_host_label_before_number(
    text: &str,
    c: &components::Components,
) -> Option<usize> {
    let ar = c.authority.clone()?;
    // Most right-to-left lines hold it outside the authority: one fold, no split.
    let lead = crate::convert::bidi::may_lead_rtl;
    if !text.as_bytes()[ar.clone()]
        .iter()
        .fold(false, |a, &b| a | lead(b))
    {
        return None;
    }
    let a = components::split_authority(text.as_bytes(), ar).ok()?;
    let host = text.get(a.host.clone())?;
    if host.starts_with('[') {
        return None;
    }
    crate::convert::bidi::rtl_host_before_number(host, &text[a.host.end..])
        .map(|k| a.host.start + k)
}

/// The start of the userinfo (in `text`, a written IRI split as `c`) when it holds a
/// right-to-left character: display safety keeps it as it came (issue 16). Across the `@`
/// (a neutral between two right-to-left characters, UAX #9 rule N1) it joins a host that
/// starts right-to-left, or a host of digits (rules W2, I1), in one run displayed from right
/// to left, so the userinfo is shown where the host should be: `https://בנק@ישראל.com/`
/// shows as `https://לארשי@קנב.com/`, read as the host `בנק.com`, and `http://ب@1.2.3.4/`
/// with the digits before the `@` (found by QA sweeps). A userinfo is rare in links and
/// never needed to read one; browsers do not show it at all.
fn rtl_userinfo(text: &str, c: &components::Components) -> Option<usize> {
    let ar = c.authority.clone()?;
    let at = memchr::memrchr(b'@', &text.as_bytes()[ar.clone()])?;
    let ui = &text[ar.start..ar.start + at];
    let rtl = crate::convert::bidi::may_contain_rtl(ui.as_bytes())
        && ui.chars().any(crate::convert::bidi::is_rtl);
    rtl.then_some(ar.start)
}

/// The part [`bidi_units`] gives a host label (0 userinfo, 2 path, 3 query, 4 fragment).
const UNIT_HOST: u8 = 1;

/// The pieces of `line` that [`ToIri::keep_bidi_encoded`] keeps encoded whole, as
/// (part, range): the userinfo (part 0), each host label split at `.` (1; an authority
/// that does not split is one piece), each path segment (2), each query piece split at `&`
/// and `;` (3), the fragment (4). Each holds whole RFC 3987 §4.2 components
/// ([`bidi::push_components`](crate::convert::bidi::push_components)).
fn bidi_units(line: &[u8]) -> Vec<(u8, std::ops::Range<usize>)> {
    let mut out = Vec::new();
    let mut split_at = |part: u8, r: std::ops::Range<usize>, seps: &[u8]| {
        let mut start = r.start;
        for k in r.clone() {
            if seps.contains(&line[k]) {
                out.push((part, start..k));
                start = k + 1;
            }
        }
        out.push((part, start..r.end));
    };
    let c = components::split(line);
    if let Some(ar) = c.authority.clone() {
        match components::split_authority(line, ar.clone()) {
            Ok(a) => {
                if let Some(u) = a.userinfo.clone() {
                    split_at(0, u, b"");
                }
                if line.get(a.host.start) != Some(&b'[') {
                    split_at(UNIT_HOST, a.host.clone(), b".");
                }
            }
            Err(_) => split_at(UNIT_HOST, ar, b""),
        }
    }
    split_at(2, c.path.clone(), b"/");
    if let Some(q) = c.query.clone() {
        split_at(3, q, b"&;");
    }
    if let Some(f) = c.fragment.clone() {
        split_at(4, f, b"");
    }
    out
}

/// The [`bidi_units`] of `written` paired with those of `line` it was converted from, in
/// order. to-iri decodes no delimiter that splits them (`/ & ; @ ? #` are reserved and
/// stay encoded, RFC 3987 §3.2 step 4), so each part has as many pieces on both sides;
/// where a part's counts differ all the same (a `%2E` decoded in a host that is not a DNS
/// name), the whole part is one piece.
fn paired_units(
    written: &[u8],
    line: &[u8],
) -> Vec<(u8, std::ops::Range<usize>, std::ops::Range<usize>)> {
    let (w, l) = (bidi_units(written), bidi_units(line));
    let mut pairs = Vec::new();
    for part in 0..5u8 {
        let wp: Vec<_> = w
            .iter()
            .filter(|u| u.0 == part)
            .map(|u| u.1.clone())
            .collect();
        let lp: Vec<_> = l
            .iter()
            .filter(|u| u.0 == part)
            .map(|u| u.1.clone())
            .collect();
        if wp.len() == lp.len() {
            pairs.extend(wp.into_iter().zip(lp).map(|(w, l)| (part, w, l)));
        } else if let (Some(w0), Some(w1), Some(l0), Some(l1)) =
            (wp.first(), wp.last(), lp.first(), lp.last())
        {
            pairs.push((part, w0.start..w1.end, l0.start..l1.end));
        }
    }
    pairs
}

/// The display decision of [`ToIri::host_to_unicode`] for `host` whose ToUnicode is `u`:
/// the form to show, or `None` to keep `host` as written. Display safety (issue 16, UTS #39):
/// unsafe labels stay in their xn-- form; every character displayable ([`is_displayable`],
/// or its naive twin); ToASCII of the result gives `host` back up to ASCII case (RFC 3490 §5
/// and §4.2: the ACE prefix and the result of ToASCII are ASCII-case-insensitive, so
/// `XN--P1AI` and `Xn--P1ai` decode like `xn--p1ai`); with IDNA2003, UTS #46 ToASCII gives
/// it back too (a browser's reading of the displayed host).
///
/// `round_trips`: the UTS #46 fast ToUnicode answered ([`host::to_unicode_traced`]), so
/// ToASCII of its answer is `host` exactly, and so is ToASCII of the display form (each label
/// is the answer's or `host`'s own, lower case); the round trip is skipped. The naive twin
/// passes `false` and runs it.
fn present_host(
    host: &str,
    u: String,
    idna: Idna,
    naive: bool,
    round_trips: bool,
) -> Option<String> {
    if u == host {
        return None;
    }
    let shown = if naive {
        is_displayable_naive
    } else {
        is_displayable
    };
    // When the fast ToUnicode answered, every label it did not decode is the host's own
    // (it takes lower-case `[a-z0-9-]` labels as they are, and its decoded labels hold no
    // dot), so [`keep_ascii_labels`] would give `u` back (the test
    // `fast_answers_keep_their_ascii_labels`).
    let u = if round_trips {
        u
    } else {
        keep_ascii_labels(host, u)
    };
    let u = host::display::display_host(host, &u)?;
    let displayable = u.chars().all(|c| c.is_ascii() || shown(c, false));
    (displayable && host::display_maps_back(&u, host, idna, round_trips)).then_some(u)
}

/// The display form of a host after ToUnicode `u`: each label that was not an ACE label
/// (`xn--` in any case) is kept as written in `host` (UTS #46 ToUnicode lower-cases ASCII
/// labels; RFC 3490 §4.2 ToUnicode of a label that does not start with the ACE prefix is
/// that label). When the labels do not pair up (only possible with raw non-ASCII label
/// dots), `u` as it is.
fn keep_ascii_labels(host: &str, u: String) -> String {
    if host.split('.').count() != u.split('.').count() {
        return u;
    }
    let mut r = String::with_capacity(u.len());
    for (i, (h, d)) in host.split('.').zip(u.split('.')).enumerate() {
        if i > 0 {
            r.push('.');
        }
        let ace = h.len() >= 4 && h.as_bytes()[..4].eq_ignore_ascii_case(b"xn--");
        r.push_str(if ace { d } else { h });
    }
    r
}

/// Writes the decoded form of a run of `%HH` triplets (`text`, whose octets are `octets`),
/// RFC 3987 §3.2 steps 2–4: runs of displayable characters are copied as octets (one copy
/// per run, not per character), the rest stays encoded with uppercase hex. Returns whether a
/// non-ASCII character it copied has a delimiter in its UTS #39 skeleton
/// ([`host::display::skeleton_has_delimiter`], for [`ToIri::reencode_lookalikes`]).
fn emit_octets(
    text: &[u8],
    octets: &[u8],
    comp: Component,
    out: &mut Vec<u8>,
    o: &mut Outcome,
) -> bool {
    let in_query = comp == Component::Query;
    let mut lookalike = false;
    let mut k = 0;
    // Start of the pending run of octets written as they are.
    let mut span = 0;
    while k < octets.len() {
        // The characters that need no decision, at a few instructions per octet.
        let clean = clean_prefix(&octets[k..], in_query);
        if clean > 0 {
            o.written = Written::Wrote;
            k += clean;
            if k == octets.len() {
                break;
            }
        }
        let b = octets[k];
        if b < 0x80 {
            if classes::is(b, classes::UNRESERVED) {
                o.written = Written::Wrote;
            } else {
                // '%', reserved and disallowed ASCII stay encoded as written (step 2).
                out.extend_from_slice(&octets[span..k]);
                out.extend_from_slice(&text[3 * k..3 * k + 3]);
                span = k + 1;
            }
            k += 1;
            continue;
        }
        match decode_utf8(&octets[k..]) {
            Some((c, len)) if is_displayable(c, in_query) => {
                o.written = Written::Wrote;
                lookalike |= host::display::skeleton_has_delimiter(c);
                k += len;
            }
            Some((_, len)) => {
                out.extend_from_slice(&octets[span..k]);
                push_upper(&text[3 * k..3 * (k + len)], out, o);
                k += len;
                span = k;
            }
            None => {
                out.extend_from_slice(&octets[span..k]);
                push_upper(&text[3 * k..3 * k + 3], out, o);
                k += 1;
                span = k;
            }
        }
    }
    out.extend_from_slice(&octets[span..]);
    lookalike
}

/// The naive twin of [`emit_octets`] (decodes and re-encodes each character, full NFKC).
/// Writes the decoded form of a run of `%HH` triplets (`text`, whose octets are `octets`).
fn emit_octets_naive(
    text: &[u8],
    octets: &[u8],
    comp: Component,
    out: &mut Vec<u8>,
    o: &mut Outcome,
) {
    let mut k = 0;
    while k < octets.len() {
        let b = octets[k];
        if b < 0x80 {
            if classes::is(b, classes::UNRESERVED) {
                out.push(b);
                o.written = Written::Wrote;
            } else {
                // '%', reserved and disallowed ASCII stay encoded as written (step 2).
                out.extend_from_slice(&text[3 * k..3 * k + 3]);
            }
            k += 1;
            continue;
        }
        match decode_utf8(&octets[k..]) {
            Some((c, len)) if is_displayable_naive(c, comp == Component::Query) => {
                let mut buf = [0u8; 4];
                out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                o.written = Written::Wrote;
                k += len;
            }
            Some((_, len)) => {
                push_upper(&text[3 * k..3 * (k + len)], out, o);
                k += len;
            }
            None => {
                push_upper(&text[3 * k..3 * k + 3], out, o);
                k += 1;
            }
        }
    }
}

/// Where the path segment ends (in `s`, a path or a piece of one, whose start is taken for a
/// segment's) when the `%` at `i` is in a segment that is `.` or `..` only once its `%2E` are
/// decoded: such a segment is kept as it came (hex in upper case, RFC 3986 §6.2.2.1) by both
/// twins of [`ToIri::decode`]. RFC 3986 §5.2.4 removes the literal segments alone, so
/// `%2E%2E` is no dot segment to an RFC 3986 reader, and decoding it would make one
/// (`foo:/a/%2E%2E/%2E%2E//evil.com/x` became `foo:/a/../..//evil.com/x`, which such a reader
/// resolves to `foo://evil.com/x`, a host the line did not have; found by a QA sweep).
/// Browsers read both forms as a dot segment (WHATWG URL §4.2: a double-dot segment is `..`
/// or `%2e%2e` in any case), so to them nothing changes. No `/` is decoded (`%2F` is
/// reserved), so the segments are those of the input. One byte test per `%` for every other
/// triplet.
#[inline]
fn encoded_dot_segment_at(s: &[u8], i: usize) -> Option<usize> {
    if s.get(i + 1) != Some(&b'2') || s.get(i + 2).map(|b| b | 0x20) != Some(b'e') {
        return None;
    }
    let start = memchr::memrchr(b'/', &s[..i]).map_or(0, |p| p + 1);
    let end = memchr::memchr(b'/', &s[i..]).map_or(s.len(), |p| i + p);
    is_encoded_dot_segment(&s[start..end]).then_some(end)
}

/// A path segment that is `.` or `..` once decoded and holds a `%2E` (either case): RFC 3986
/// §5.2.4 does not remove it as it is written.
fn is_encoded_dot_segment(seg: &[u8]) -> bool {
    let dot = |p: &[u8]| p == b"." || p.eq_ignore_ascii_case(b"%2E");
    seg.contains(&b'%')
        && match seg.len() {
            3 => dot(seg),
            4 => (dot(&seg[..1]) && dot(&seg[1..])) || (dot(&seg[..3]) && dot(&seg[3..])),
            6 => dot(&seg[..3]) && dot(&seg[3..]),
            _ => false,
        }
}

/// Re-encoded octets use uppercase hex (RFC 3987 §3.2.1, third example).
fn push_upper(text: &[u8], out: &mut Vec<u8>, o: &mut Outcome) {
    for &t in text {
        let u = t.to_ascii_uppercase();
        if u != t {
            o.written = Written::Wrote;
        }
        out.push(u);
    }
}

/// The first `%` of `s` that does not start a `%HH` triplet (RFC 3986 §2.1).
fn bad_percent(s: &[u8]) -> Option<usize> {
    memchr::memchr_iter(b'%', s).find(|&i| !is_pct_triplet(s, i))
}

/// The next `%`: percent-encoded runs are close together in encoded IRIs, so the first 64
/// bytes are looked at 16 at a time by SSE2 comparisons (the last block zero-padded,
/// [`crate::simd::padded`]) before `memchr` (whose set-up costs more than that).
#[inline]
fn find_percent(s: &[u8]) -> Option<usize> {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        use crate::simd::delims::eq_masks16;
        let mut base = 0;
        while base < s.len() {
            let rest = &s[base..];
            if base == 64 {
                return memchr::memchr(b'%', rest).map(|p| p + base);
            }
            let m = match rest.first_chunk::<16>() {
                Some(b) => eq_masks16(b, [b'%'])[0],
                None => eq_masks16(&crate::simd::padded::<16>(rest), [b'%'])[0],
            };
            if m != 0 {
                return Some(base + m.trailing_zeros() as usize);
            }
            base += 16;
        }
        None
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    {
        let head = s.len().min(16);
        if let Some(p) = s[..head].iter().position(|&b| b == b'%') {
            return Some(p);
        }
        memchr::memchr(b'%', &s[head..]).map(|p| p + head)
    }
}

/// Position of the first C0 control or DEL (`%x00-1F / %x7F`), eight bytes at a time: a
/// byte `x` of a word is below 0x20 iff `x - 0x20` borrows into its high bit while `x` has
/// it clear, and is DEL iff `x ^ 0x7F` is zero (the same test against 1). The scan of
/// [`find_control_or_c1`] where SSE2 is missing (and a twin for the tests).
#[cfg(any(test, not(all(target_arch = "x86_64", target_feature = "sse2"))))]
fn find_control(line: &[u8]) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut chunks = line.chunks_exact(8);
    let mut base = 0;
    for c in &mut chunks {
        let x = u64::from_le_bytes(c.try_into().expect("8 bytes"));
        let below = x.wrapping_sub(0x20 * ONES) & !x;
        let d = x ^ (0x7F * ONES);
        let del = d.wrapping_sub(ONES) & !d;
        if (below | del) & HIGH != 0 {
            // The borrow can flag a byte after the first hit, never one before it.
            return c
                .iter()
                .position(|&b| classes::is(b, classes::CONTROL))
                .map(|p| base + p);
        }
        base += 8;
    }
    let rest = chunks.remainder();
    rest.iter()
        .position(|&b| classes::is(b, classes::CONTROL))
        .map(|p| base + p)
}

/// `find_control(line).or_else(|| find_c1(line))`, in one pass of SSE2 comparisons over
/// 16-byte blocks (the last one zero-padded, [`crate::simd::padded`]) that also notes whether
/// the line holds a `C2` byte at all: only then does [`find_c1`] look (URIs are ASCII, so it
/// almost never does). The test `control_scans_match_twins` compares it with the twins.
fn find_control_or_c1(line: &[u8]) -> Option<usize> {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        let mut c2 = 0;
        // 32 bytes per step, then the rest in zero-padded 16-byte blocks.
        let mut chunks = line.chunks_exact(32);
        let mut base = 0;
        for c in &mut chunks {
            let (a, b) = c.split_at(16);
            let (ca, la) = sse2::control_and_c2_masks(a.try_into().expect("16 bytes"));
            let (cb, lb) = sse2::control_and_c2_masks(b.try_into().expect("16 bytes"));
            let control = ca | cb << 16;
            if control != 0 {
                return Some(base + control.trailing_zeros() as usize);
            }
            c2 |= la | lb;
            base += 32;
        }
        for rest in chunks.remainder().chunks(16) {
            let (control, lead) = sse2::control_and_c2_masks(&crate::simd::padded::<16>(rest));
            // The zeros of the padding are C0 controls, and no C2.
            let control = control & ((1u32 << rest.len()) - 1);
            if control != 0 {
                return Some(base + control.trailing_zeros() as usize);
            }
            c2 |= lead;
            base += 16;
        }
        if c2 != 0 {
            find_c1(line)
        } else {
            None
        }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    {
        find_control(line).or_else(|| find_c1(line))
    }
}

/// For a line of ASCII bytes only, `Some` of its first C0 control or DEL (`None` inside when
/// it has none); `None` when the line holds a byte ≥ 0x80. An ASCII line is UTF-8 (RFC 3629
/// §4) and holds no C1 control, so for it this answers both the UTF-8 validation and
/// [`find_control_or_c1`] in one pass (issue 11: "one pass per line where today there are
/// several"; URIs, what to-iri reads, are ASCII). 64-byte masked windows with AVX-512 BW
/// where the CPU has it ([`avx512::ascii_line_control`]: to-iri's URIs average 110 bytes, seven
/// SSE2 blocks but two windows), else 32-byte windows with AVX2 ([`avx2::ascii_line_control`]),
/// else SSE2 over 16-byte blocks, the last window or block zero-padded
/// ([`crate::simd::padded`]); the twin of all three is [`ascii_line_control_naive`] (the tests
/// `control_scans_match_twins` and `ascii_line_control_matches_twin_on_long_lines`).
fn ascii_line_control(line: &[u8]) -> Option<Option<usize>> {
    #[cfg(target_arch = "x86_64")]
    if crate::simd::x86_64::has_avx512_bw() {
        // SAFETY: the CPU has AVX-512 F and BW and BMI2 (checked just above).
        return unsafe { avx512::ascii_line_control(line) };
    }
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2 (checked just above).
        return unsafe { avx2::ascii_line_control(line) };
    }
    ascii_line_control_sse2(line)
}

/// [`ascii_line_control`] by the AVX2 kernel, or `None` when the CPU lacks AVX2 (for the
/// tests, which compare every kernel with the twin).
#[cfg(test)]
fn ascii_line_control_avx2(line: &[u8]) -> Option<Option<Option<usize>>> {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2 (checked just above).
        return Some(unsafe { avx2::ascii_line_control(line) });
    }
    let _ = line;
    None
}

/// [`ascii_line_control`] without AVX-512: SSE2 blocks, or the twin off x86_64.
fn ascii_line_control_sse2(line: &[u8]) -> Option<Option<usize>> {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        let mut first = None;
        let mut base = 0;
        for block in line.chunks(16) {
            // The control mask of `find_control_or_c1`'s compares, the high bits by
            // `simd::delims::high_mask16` (the same loaded block).
            let masks = |b: &[u8; 16]| {
                let (control, _) = sse2::control_and_c2_masks(b);
                (control, crate::simd::delims::high_mask16(b))
            };
            let (control, high) = match block.first_chunk::<16>() {
                Some(b) => masks(b),
                // The zeros of the padding are C0 controls, and not high.
                None => {
                    let (c, h) = masks(&crate::simd::padded::<16>(block));
                    (c & ((1u32 << block.len()) - 1), h)
                }
            };
            if high != 0 {
                return None;
            }
            if control != 0 && first.is_none() {
                first = Some(base + control.trailing_zeros() as usize);
            }
            base += 16;
        }
        Some(first)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    {
        ascii_line_control_naive(line)
    }
}

/// The twin of [`ascii_line_control`].
#[cfg(any(test, not(all(target_arch = "x86_64", target_feature = "sse2"))))]
fn ascii_line_control_naive(line: &[u8]) -> Option<Option<usize>> {
    line.is_ascii()
        .then(|| line.iter().position(|&b| classes::is(b, classes::CONTROL)))
}

/// [`ascii_line_control`] by 64-byte windows (issue 11).
#[cfg(target_arch = "x86_64")]
mod avx512 {
    use core::arch::x86_64::*;

    /// [`super::ascii_line_control`]: each window is one masked load (the lanes past the
    /// line's end read as zero and are left out of the control mask).
    ///
    /// # Safety
    /// The CPU must have AVX-512 F and BW, and BMI2.
    #[target_feature(enable = "avx512f,avx512bw,bmi2")]
    pub(super) unsafe fn ascii_line_control(line: &[u8]) -> Option<Option<usize>> {
        let mut first = None;
        let mut i = 0;
        while i < line.len() {
            let lanes = _bzhi_u64(u64::MAX, (line.len() - i).min(64) as u32);
            // SAFETY: the lanes read are `line[i..i + min(len - i, 64)]`, within `line`
            // (`i < line.len()`); a masked load does not touch the memory of the lanes it
            // leaves out.
            let v = unsafe { _mm512_maskz_loadu_epi8(lanes, line.as_ptr().add(i).cast()) };
            if _mm512_movepi8_mask(v) != 0 {
                return None;
            }
            if first.is_none() {
                let control = (_mm512_cmplt_epu8_mask(v, _mm512_set1_epi8(0x20))
                    | _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(0x7F)))
                    & lanes;
                if control != 0 {
                    first = Some(i + control.trailing_zeros() as usize);
                }
            }
            i += 64;
        }
        Some(first)
    }
}

/// [`ascii_line_control`] by 32-byte windows, for CPUs with AVX2 and without AVX-512 (issue
/// 11: to-iri's URIs average 110 bytes, seven SSE2 blocks but four windows; callgrind, to-iri
/// on `intl_cldr`'s URIs, in docs/performance.md's thirty-second pass).
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use crate::simd::x86_64::{load32, window32};
    use core::arch::x86_64::*;

    /// [`super::ascii_line_control`]: each window read by the AVX2 kernels' helpers
    /// ([`window32`], [`load32`]: in place, or the last one copied into a zeroed buffer;
    /// zeros are not high, and the lanes past the line's end are left out of the control
    /// mask).
    ///
    /// # Safety
    /// The CPU must have AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn ascii_line_control(line: &[u8]) -> Option<Option<usize>> {
        let mut first = None;
        let mut buf = [0u8; 34];
        let mut i = 0;
        while i < line.len() {
            let (w, lanes) = window32(line, i, &mut buf);
            let v = load32(w, 0);
            if _mm256_movemask_epi8(v) != 0 {
                return None;
            }
            if first.is_none() {
                // A C0 control is at most 0x1F (unsigned), DEL is 0x7F.
                let c0 = _mm256_cmpeq_epi8(_mm256_min_epu8(v, _mm256_set1_epi8(0x1F)), v);
                let del = _mm256_cmpeq_epi8(v, _mm256_set1_epi8(0x7F));
                let control = _mm256_movemask_epi8(_mm256_or_si256(c0, del)) as u32 & lanes;
                if control != 0 {
                    first = Some(i + control.trailing_zeros() as usize);
                }
            }
            i += 32;
        }
        Some(first)
    }
}

/// The SSE2 comparisons of [`find_percent`] and [`find_control_or_c1`] (SSE2 is the x86_64
/// baseline: no run-time detection).
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod sse2 {
    use core::arch::x86_64::*;

    /// Bit i of the first mask set iff `b[i]` is a C0 control (at most 0x1F, unsigned) or
    /// DEL; of the second iff `b[i]` is 0xC2.
    #[inline(always)]
    pub(super) fn control_and_c2_masks(b: &[u8; 16]) -> (u32, u32) {
        // SAFETY: SSE2 is enabled at compile time (the cfg of this module); `b` is 16
        // readable bytes and `loadu` has no alignment requirement.
        unsafe {
            let v = _mm_loadu_si128(b.as_ptr().cast());
            let c0 = _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x1F)), v);
            let del = _mm_cmpeq_epi8(v, _mm_set1_epi8(0x7F));
            let c2 = _mm_cmpeq_epi8(v, _mm_set1_epi8(0xC2u8 as i8));
            (
                _mm_movemask_epi8(_mm_or_si128(c0, del)) as u32,
                _mm_movemask_epi8(c2) as u32,
            )
        }
    }
}

/// Position of the first C1 control (U+0080–U+009F, `C2 80`–`C2 9F` in UTF-8) of a valid
/// UTF-8 line, where C2 is always a lead byte.
fn find_c1(line: &[u8]) -> Option<usize> {
    memchr::memchr_iter(0xC2, line).find(|&p| line.get(p + 1).is_some_and(|&b| b < 0xA0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::strategy::Strategy;

    /// [`UNFIT_LEAD`] marks the lead byte of every character [`is_displayable`] refuses
    /// outside the query, and [`first_unfit_raw`] finds each such character after text of
    /// every other lead.
    #[test]
    fn unfit_leads_cover_every_unfit_character() {
        let mut unmarked = 0;
        for c in (0x80..=0x10FFFFu32).filter_map(char::from_u32) {
            let mut b = [0u8; 4];
            let s = c.encode_utf8(&mut b);
            if !is_displayable(c, false) {
                assert!(UNFIT_LEAD[s.as_bytes()[0] as usize], "{c:?}");
                let line = format!("x:/é世{s}");
                assert_eq!(first_unfit_raw(&line), Some(line.len() - s.len()), "{c:?}");
            } else {
                assert_eq!(first_unfit_raw(&format!("x:/{s}ü")), None, "{c:?}");
            }
            unmarked += usize::from(!UNFIT_LEAD[s.as_bytes()[0] as usize]);
        }
        assert!(unmarked > 40_000, "most leads need no look: {unmarked}");
    }

    proptest::proptest! {
        /// [`first_unfit_raw`] and its twin on lines of every length around the classifier's
        /// 64-byte blocks, an unfit character anywhere (and private use on both sides of a
        /// query).
        #[test]
        fn first_unfit_raw_matches_twin(v in proptest::collection::vec(proptest::prop_oneof![
            proptest::strategy::Just('a'), proptest::strategy::Just('/'),
            proptest::strategy::Just('?'), proptest::strategy::Just('#'),
            proptest::strategy::Just('é'), proptest::strategy::Just('世'),
            proptest::strategy::Just('ب'), proptest::strategy::Just('\u{61C}'),
            proptest::strategy::Just('\u{200B}'), proptest::strategy::Just('\u{E000}'),
            proptest::strategy::Just('\u{FF0F}'), proptest::strategy::Just('\u{2215}'),
            proptest::strategy::Just('\u{1F600}'), proptest::strategy::Just('\u{FFFF}'),
            proptest::strategy::Just('\u{A0}'), proptest::strategy::Just('\u{E0041}'),
        ], 0..200)) {
            let s: String = v.into_iter().collect();
            proptest::prop_assert_eq!(first_unfit_raw(&s), first_unfit_raw_naive(&s), "{:?}", s);
        }
    }

    /// `--strict` (contract item 10): the warning of a raw character not fit for display is
    /// the line's error, same code and column, by both twins; a line without a warning
    /// converts as without it.
    #[test]
    fn strict_makes_the_warnings_errors() {
        for c in [
            ToIri::new(ToIriOptions::default()),
            ToIri::new_naive(ToIriOptions::default()),
        ] {
            let mut c = c.with_strict(true);
            let mut out = Vec::new();
            let e = c
                .convert_into("http://ex.com/a\u{202E}b".as_bytes(), &mut out)
                .unwrap_err();
            assert_eq!(e, LineError::new(ErrorKind::BidiFormat, 15));
            assert!(out.is_empty());
            let e = c
                .convert_into(
                    "http://ex.com/%C3%A9/\u{E000}?\u{E000}".as_bytes(),
                    &mut out,
                )
                .unwrap_err();
            assert_eq!(e, LineError::new(ErrorKind::PrivateUse, 21));
            let o = c
                .convert_into(b"http://xn--bcher-kva.de/%C3%BC", &mut out)
                .unwrap();
            assert_eq!((o.written, o.warnings), (Written::Wrote, 0));
            assert_eq!(out, "http://bücher.de/ü".as_bytes());
        }
    }

    /// A `%` that starts no triplet is `bad-percent` in a DNS host too, which to-iri does not
    /// decode (step 5), at its own column, in every host mode, by both twins; a triplet there
    /// stays as it came.
    #[test]
    fn bad_percent_in_a_dns_host_is_reported() {
        for host in [
            HostMode::Auto,
            HostMode::Uts46,
            HostMode::IDNA2003,
            HostMode::Percent,
        ] {
            for mut c in [
                ToIri::new(ToIriOptions { host }),
                ToIri::new_naive(ToIriOptions { host }),
            ] {
                for (line, at) in [
                    ("http://a%zzb.com/x", 8),
                    ("http://u@ex%4.com/", 11),
                    ("https://ex.com%/", 14),
                    ("http://\u{e9}%g0.com/", 9),
                    // A malformed authority, left as it came, is still looked at.
                    ("http://ex.com:8%zz0/", 15),
                    ("http://a@b@ex.com%zz/", 17),
                    ("http://ex.com:x%zz/", 15),
                    ("http://a@b@ex%zz.com/a\u{202E}", 13),
                    ("http://[fe80::1%eth0]/", 15),
                    ("http://u@[::1%zz]:80/", 13),
                ] {
                    let e = c
                        .convert_into(line.as_bytes(), &mut Vec::new())
                        .unwrap_err();
                    assert_eq!(
                        e,
                        LineError::new(ErrorKind::BadPercent, at),
                        "{line} {host:?}"
                    );
                }
                let mut out = Vec::new();
                let o = c.convert_into(b"http://a@b@ex%41.com/", &mut out).unwrap();
                assert_eq!((o.written, &out[..]), (Written::Passthrough, &b""[..]));
                let o = c
                    .convert_into(b"http://[fe80::1%25eth0]/", &mut out)
                    .unwrap();
                assert_eq!((o.written, &out[..]), (Written::Passthrough, &b""[..]));
                let o = c.convert_into(b"http://a%41b.com/", &mut out).unwrap();
                if host == HostMode::Percent {
                    assert_eq!(out, b"http://aAb.com/");
                } else {
                    assert_eq!((o.written, &out[..]), (Written::Passthrough, &b""[..]));
                }
            }
        }
    }

    /// A path segment that only decoding makes `.` or `..` stays as it came, hex in upper
    /// case, by both twins (a QA sweep: `foo:/a/%2E%2E/%2E%2E//evil.com/x` was written with
    /// literal dot segments, which an RFC 3986 reader resolves to the host `evil.com`);
    /// `%2E` elsewhere is decoded as before.
    #[test]
    fn encoded_dot_segments_stay_encoded() {
        for mut c in [
            ToIri::new(ToIriOptions::default()),
            ToIri::new_naive(ToIriOptions::default()),
        ] {
            for (line, want) in [
                (
                    "foo:/a/%2E%2E/%2e%2e//evil.com/x",
                    Some("foo:/a/%2E%2E/%2E%2E//evil.com/x"),
                ),
                ("%2E%2E/%2E%2E//evil.com/x", None),
                (
                    "http://h/a/.%2E/%2E./%2E/x%2E/%2E%2E%2E/%2E%41/y",
                    Some("http://h/a/.%2E/%2E./%2E/x./.../.A/y"),
                ),
                ("http://h/%2e", Some("http://h/%2E")),
                (
                    "http://h/%2E%2E%C3%A9/%2E?%2E%2E#%2E%2E",
                    Some("http://h/..\u{e9}/%2E?..#.."),
                ),
                (
                    "http://h/\u{e9}/%2E%2E/%C3%A9",
                    Some("http://h/\u{e9}/%2E%2E/\u{e9}"),
                ),
            ] {
                let mut out = Vec::new();
                let o = c.convert_into(line.as_bytes(), &mut out).unwrap();
                match want {
                    Some(w) => {
                        assert_eq!(o.written, Written::Wrote, "{line}");
                        assert_eq!(String::from_utf8(out).unwrap(), w, "{line}");
                    }
                    None => assert_eq!(o.written, Written::Passthrough, "{line}"),
                }
            }
        }
    }

    /// Raw characters not fit for display are percent-encoded ([`ToIri::convert_unfit_raw`]),
    /// by both twins: warnings and error offsets point at the input's bytes.
    #[test]
    fn raw_unfit_characters_are_encoded_with_input_offsets() {
        for mut c in [
            ToIri::new(ToIriOptions::default()),
            ToIri::new_naive(ToIriOptions::default()),
        ] {
            let mut out = Vec::new();
            let line = "http://ex.com/a\u{202E}b\u{E000}?\u{E000}".as_bytes();
            let o = c.convert_into(line, &mut out).unwrap();
            assert_eq!(out, b"http://ex.com/a%E2%80%AEb%EE%80%80?\xEE\x80\x80");
            assert_eq!(o.written, Written::Wrote);
            assert_eq!(o.warnings, 2);
            assert_eq!(
                o.first_warning,
                Some(LineError::new(ErrorKind::BidiFormat, 15))
            );
            // A decoded run before the raw character, an error after two of them.
            let line = "http://ex.com/%C3%A9\u{202E}\u{200B}%zz".as_bytes();
            let e = c.convert_into(line, &mut Vec::new()).unwrap_err();
            assert_eq!(e, LineError::new(ErrorKind::BadPercent, 26));
            // Inside an encoded character: its first byte.
            let mut out = Vec::new();
            let o = c.convert_into("x:\u{202E}".as_bytes(), &mut out).unwrap();
            assert_eq!((out.as_slice(), o.warnings), (&b"x:%E2%80%AE"[..], 1));
            // Nothing raw to encode: the line passes through.
            let o = c
                .convert_into("http://ex.com/é".as_bytes(), &mut Vec::new())
                .unwrap();
            assert_eq!(o.written, Written::Passthrough);
        }
    }

    /// Where the UTS #46 fast ToUnicode answers, [`keep_ascii_labels`] gives its answer back
    /// ([`present_host`] skips it then): on made hosts with ASCII labels around A-labels and a
    /// root dot, and on the host of every line of the shared data sets in its to-uri form.
    #[test]
    fn fast_answers_keep_their_ascii_labels() {
        let mut hosts: Vec<String> = Vec::new();
        for u in [
            "bücher",
            "пример",
            "例え",
            "ภาษาไทย",
            "a-b",
            "x1",
            "xn--p1ai",
        ] {
            for shape in ["{}", "www.{}.de", "{}.{}", "a.{}.b-c.", "{}.com."] {
                let mut h = String::new();
                if host::to_ascii(&shape.replace("{}", u), Idna::Uts46, &mut h).is_ok() {
                    hosts.push(h);
                }
            }
        }
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/datasets");
        match std::fs::read_dir(&dir) {
            Ok(rd) => {
                let mut to_uri =
                    crate::convert::to_uri::ToUri::new(crate::config::ToUriOptions::default());
                let mut uri = Vec::new();
                for e in rd.flatten() {
                    if e.path().extension().is_none_or(|x| x != "txt") {
                        continue;
                    }
                    let bytes = std::fs::read(e.path()).expect("dataset");
                    for line in bytes.split(|&b| b == b'\n') {
                        uri.clear();
                        if to_uri.convert_into(line, &mut uri).is_err() {
                            continue;
                        }
                        let l = if uri.is_empty() { line } else { &uri };
                        let Some(ar) = components::split(l).authority else {
                            continue;
                        };
                        if let Ok(a) = components::split_authority(l, ar) {
                            if let Ok(h) = std::str::from_utf8(&l[a.host]) {
                                hosts.push(h.to_owned());
                            }
                        }
                    }
                }
            }
            Err(e) if std::env::var_os("CI").is_none() => {
                eprintln!(
                    "SKIPPED the data sets ({}: {e}): made hosts only",
                    dir.display()
                );
            }
            Err(e) => panic!("{}: {e}", dir.display()),
        }
        let mut fast = 0;
        for h in &hosts {
            if let Some((u, true)) = host::to_unicode_traced(h, Idna::Uts46) {
                assert_eq!(keep_ascii_labels(h, u.clone()), u, "{h}");
                fast += 1;
            }
        }
        assert!(fast >= 20, "{fast}");
    }

    /// The flag [`emit_octets`] returns is the exit [`host::display::reencode_lookalikes_in_ranges`]
    /// takes: on every code point, percent-encoded alone and between letters, in the path and
    /// in the query, the fast converter writes what its naive twin writes, and the flag is set
    /// exactly when the decoded output holds a look-alike of a delimiter.
    #[test]
    fn lookalike_flag_matches_twin_on_every_code_point() {
        let (mut fast, mut naive) = (
            ToIri::new(ToIriOptions::default()),
            ToIri::new_naive(ToIriOptions::default()),
        );
        let mut flagged = 0u32;
        let (mut a, mut b, mut line) = (Vec::new(), Vec::new(), Vec::new());
        for u in 0x80..=0x10FFFFu32 {
            let Some(c) = char::from_u32(u) else { continue };
            let mut pct = String::new();
            for x in c.encode_utf8(&mut [0u8; 4]).bytes() {
                pct.push_str(&format!("%{x:02X}"));
            }
            for shape in ["http://h/{}", "http://h/x{}y?q{}", "http://h/a?{}b{}%41"] {
                line.clear();
                line.extend_from_slice(shape.replace("{}", &pct).as_bytes());
                a.clear();
                b.clear();
                let rf = fast.convert_into(&line, &mut a);
                let flag = fast.lookalike;
                assert_eq!(rf, naive.convert_into(&line, &mut b), "U+{u:04X} {shape}");
                assert_eq!(a, b, "U+{u:04X} {shape}");
                // The flag is that of the last component decoded: the query, except in the
                // first shape.
                let in_query = shape.contains('?');
                let want = is_displayable(c, in_query) && host::display::skeleton_has_delimiter(c);
                assert_eq!(flag, want, "U+{u:04X} {shape}");
                flagged += flag as u32;
            }
        }
        // U+2215, U+FF0F, U+30CE ... are displayable look-alikes of delimiters.
        assert!(flagged > 100, "{flagged}");
    }

    /// Where the UTS #46 fast ToUnicode answers, the display decision without the ToASCII
    /// round trip is the decision with it: on hosts whose labels are shown, kept in xn-- form
    /// for display safety (UTS #39: mixed scripts, lookalikes), not displayable, with marks
    /// and neutral characters, and with ASCII labels around them. Hosts the fast path
    /// declines (upper case, right to left, non-canonical) run the round trip either way.
    #[test]
    fn skipped_round_trip_decides_like_the_round_trip() {
        let unicode = [
            "bücher.de",
            "пример.рф",
            "аррӏе.com",
            "paypal.раураl.com",
            "例え.テスト",
            "ภาษาไทย.ไทย",
            "हिन्दी.भारत",
            "a\u{B7}b.de",
            "\u{1F600}.de",
            "\u{2215}x.de",
            "www.xn--r8jz45g.bücher.de.",
        ];
        let (mut fast_answered, mut shown, mut ace_kept) = (0, 0, 0);
        for u in unicode {
            let mut host = String::new();
            host::to_ascii(u, Idna::Uts46, &mut host).unwrap();
            for h in [host.clone(), host.to_ascii_uppercase()] {
                let Some((d, fast)) = host::to_unicode_traced(&h, Idna::Uts46) else {
                    panic!("{h}: nothing to decode");
                };
                fast_answered += usize::from(fast);
                for naive in [false, true] {
                    let with = present_host(&h, d.clone(), Idna::Uts46, naive, false);
                    let skipped = present_host(&h, d.clone(), Idna::Uts46, naive, fast);
                    assert_eq!(skipped, with, "{h} ({u})");
                    if fast && !naive {
                        shown += usize::from(with.is_some());
                        ace_kept += usize::from(with.as_ref().is_some_and(|w| w.contains("xn--")));
                    }
                }
            }
        }
        // Every lower-case host (U+2215, neutral, is in FAST); some labels stay in xn-- form,
        // so the skipped round trip also covers ToASCII's crate path on kept A-labels.
        assert_eq!(fast_answered, unicode.len());
        assert!(
            shown > 0 && ace_kept > 0,
            "{shown} shown, {ace_kept} with xn--"
        );
    }

    /// [`ToIri::convert_crawl_line`] against the slow path it stands for
    /// ([`crawl_line_compare`] with every pair of [`crawl_line_twins`]) on every line of
    /// `shortcut_test_lines` (made, random, every data set), the URI that to-uri writes for
    /// each data-set line, and made URIs: ACE hosts (valid, refused, ending in a number once
    /// shown, to be kept for display safety) and paths of `%` triplets (clean, to keep
    /// encoded, look-alikes, broken).
    #[test]
    fn crawl_line_shortcut_equals_the_slow_path() {
        let twins = std::cell::RefCell::new(crawl_line_twins());
        let (answered, declined) = (std::cell::Cell::new(0usize), std::cell::Cell::new(0usize));
        let check = |line: &[u8]| {
            let (a, d) = crawl_line_compare(&mut twins.borrow_mut(), line);
            answered.set(answered.get() + a);
            declined.set(declined.get() + d);
        };
        let read = pct_shortcut_test_lines(0x2545_F491_4F6C_DD1D, check);
        let (answered, declined) = (answered.get(), declined.get());
        assert!(
            answered > 50_000 && declined > 50_000,
            "{answered} {declined}"
        );
        assert!(!read || answered > 500_000, "{answered}");
    }

    /// [`clean_prefix`] against its twin: every code point alone, twice, and between ASCII
    /// (unreserved and not); every two-octet sequence with a lead byte of 0x80 or above; and
    /// every three-octet one with a lead of 0xE0–0xEF and a sampled last octet (overlongs,
    /// surrogates, truncations, bad continuations).
    #[test]
    fn clean_prefix_matches_twin_on_every_code_point() {
        let mut clean = 0u32;
        for c in (0..=0x10FFFFu32).filter_map(char::from_u32) {
            let mut b = [0u8; 4];
            let e = c.encode_utf8(&mut b).as_bytes();
            for q in [false, true] {
                let n = clean_prefix(e, q);
                assert_eq!(n, clean_prefix_naive(e, q), "U+{:04X}", c as u32);
                clean += (n > 0) as u32;
            }
            let mut v = e.to_vec();
            v.extend_from_slice(e);
            v.push(b'a');
            v.push(b'/');
            v.extend_from_slice(e);
            clean_prefix_twin_check(&v);
        }
        // The ASCII unreserved, most of the BMP.
        assert!(clean > 2 * 50_000, "{clean}");
        for b0 in 0x80..=0xFFu8 {
            for b1 in 0..=0xFFu8 {
                clean_prefix_twin_check(&[b0, b1]);
                if (0xE0..=0xEF).contains(&b0) {
                    for b2 in [0x00u8, 0x41, 0x7F, 0x80, 0x95, 0xBF, 0xC0, 0xE0, 0xFF] {
                        clean_prefix_twin_check(&[b0, b1, b2, b'~']);
                    }
                }
            }
        }
    }

    /// Length × position for [`clean_prefix`]: each of a few characters (clean, kept
    /// encoded, look-alike, reserved ASCII, four-octet, invalid octets) at every offset of
    /// octet strings of 1–80 octets made of clean characters.
    #[test]
    fn clean_prefix_matches_twin_over_length_and_position() {
        let fills = ["é日ßа", "~a-Z.", "가나다", "\u{FF21}\u{3042}"];
        let odd: [&[u8]; 10] = [
            "/".as_bytes(),
            "\u{2215}".as_bytes(),
            "\u{200F}".as_bytes(),
            "\u{1F600}".as_bytes(),
            "\u{E000}".as_bytes(),
            "\u{85}".as_bytes(),
            &[0xC3],
            &[0xE0, 0x80, 0x80],
            &[0xED, 0xA0, 0x80],
            &[0xFF],
        ];
        for fill in fills {
            let base: Vec<u8> = fill.bytes().cycle().take(80).collect();
            for len in 1..=80 {
                for at in 0..=len {
                    for x in odd {
                        let mut v = base[..at].to_vec();
                        v.extend_from_slice(x);
                        v.extend_from_slice(&base[at..len]);
                        for q in [false, true] {
                            assert_eq!(clean_prefix(&v, q), clean_prefix_naive(&v, q), "{v:02X?}");
                        }
                    }
                }
            }
        }
    }

    proptest::proptest! {
        #[test]
        fn clean_prefix_matches_twin(v in proptest::collection::vec(proptest::prop_oneof![
            4 => proptest::char::any().prop_map(|c| c.to_string().into_bytes()),
            4 => proptest::char::range('\u{80}', '\u{FFFF}')
                .prop_map(|c| c.to_string().into_bytes()),
            1 => proptest::arbitrary::any::<u8>().prop_map(|b| vec![b]),
        ], 0..40)) {
            clean_prefix_twin_check(&v.concat());
        }

        /// The fast converter writes what the naive twin writes on runs of `%HH` triplets
        /// of any characters, valid or not, in every component.
        #[test]
        fn decoded_runs_match_twin(
            parts in proptest::collection::vec(proptest::prop_oneof![
                6 => proptest::char::any().prop_map(|c| {
                    let mut t = String::new();
                    for x in c.to_string().bytes() {
                        t.push_str(&format!("%{x:02x}"));
                    }
                    t
                }),
                1 => proptest::arbitrary::any::<u8>().prop_map(|b| format!("%{b:02X}")),
                1 => proptest::sample::select(vec!["a", "/", "%", "%4", "é", "?", "#", "%zz"])
                    .prop_map(str::to_owned),
                // Combining marks (decoded and raw) on every kind of base: the display
                // rule's fast exits (`run_may_hold_unsafe_mark`) against the full pass.
                3 => proptest::sample::select(vec![
                    "%CC%81", "%cc%b8", "\u{301}", "%E0%A4%BF", "%E0%A4%95", "%EF%B8%8F",
                    "%41", "%2F", "=", "e", "%E2%80%8D", "\u{200D}", "%E2%88%95", "-",
                ])
                .prop_map(str::to_owned),
            ], 0..30),
        ) {
            let tail = parts.concat();
            let line = format!("http://u%41@h/{tail}?{tail}#{tail}");
            let (mut a, mut b) = (Vec::new(), Vec::new());
            let ra = ToIri::new(ToIriOptions::default()).convert_into(line.as_bytes(), &mut a);
            let rb = ToIri::new_naive(ToIriOptions::default())
                .convert_into(line.as_bytes(), &mut b);
            proptest::prop_assert_eq!(ra, rb);
            proptest::prop_assert_eq!(a, b);
        }
    }

    #[test]
    fn nfkc_delimiter_table_matches_nfkc() {
        for c in (0..=0x10FFFFu32).filter_map(char::from_u32) {
            assert_eq!(
                nfkc_has_delimiter(c),
                nfkc_has_delimiter_naive(c),
                "U+{:04X}",
                c as u32
            );
        }
    }

    #[test]
    fn hex_table_and_percent_search_match_twins() {
        for b in 0..=255u8 {
            assert_eq!(
                crate::simd::hex::HEX_VALUE[b as usize],
                classes::hex_value(b).unwrap_or(0xFF),
                "{b:02X}"
            );
        }
        for len in 0..100usize {
            for p in 0..=len {
                let mut v = vec![b'a'; len];
                if p < len {
                    v[p] = b'%';
                    // A second `%` after it is never the answer.
                    if p + 5 < len {
                        v[p + 5] = b'%';
                    }
                }
                assert_eq!(find_percent(&v), v.iter().position(|&b| b == b'%'));
            }
        }
    }

    #[test]
    fn format_characters_are_never_displayed() {
        // Every format character (general category Cf, Unicode data of unicode-properties)
        // stays in `%HH`, in the query too (a QA sweep found twelve decoded).
        use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};
        let mut cf = 0;
        for c in (0..=0x10FFFFu32).filter_map(char::from_u32) {
            if c.general_category() == GeneralCategory::Format {
                cf += 1;
                for q in [false, true] {
                    assert!(!is_displayable(c, q), "U+{:04X} in query {q}", c as u32);
                }
            }
        }
        assert!(cf > 150, "{cf} format characters");
        for c in ['\u{1F50F}', '\u{1F510}', '\u{1F512}', '\u{1F513}'] {
            assert!(!is_displayable(c, false) && !is_displayable(c, true));
        }
        // Their neighbours are shown: the key, the bell, ordinary Arabic letters.
        for c in ['\u{1F511}', '\u{1F514}', '\u{0627}', '\u{06CC}', '\u{0606}'] {
            assert!(is_displayable(c, false), "U+{:04X}", c as u32);
        }
    }

    #[test]
    fn displayable_matches_twin_on_every_code_point() {
        for c in (0..=0x10FFFFu32).filter_map(char::from_u32) {
            for q in [false, true] {
                assert_eq!(
                    is_displayable(c, q),
                    is_displayable_naive(c, q),
                    "U+{:04X}",
                    c as u32
                );
            }
        }
    }

    #[test]
    fn ascii_line_control_matches_twin_on_long_lines() {
        // Lines over several 64-byte windows: a control, DEL, a byte ≥ 0x80 (alone, and
        // one of them before or after a control) at every position of every length to 200.
        for len in 0..=200usize {
            let base: Vec<u8> = b"http://a.example/%C3%A9?q=1"
                .iter()
                .copied()
                .cycle()
                .take(len)
                .collect();
            let check = |v: &[u8]| {
                let want = ascii_line_control_naive(v);
                assert_eq!(ascii_line_control(v), want, "{len} {v:02X?}");
                assert_eq!(ascii_line_control_sse2(v), want, "{len} {v:02X?}");
                if let Some(got) = ascii_line_control_avx2(v) {
                    assert_eq!(got, want, "avx2 {len} {v:02X?}");
                }
            };
            check(&base);
            for p in 0..len {
                for b in [0x00, 0x1F, 0x20, 0x7E, 0x7F, 0x80, 0xC2, 0xFF] {
                    let mut v = base.clone();
                    v[p] = b;
                    check(&v);
                    for q in [p / 2, p + (len - p) / 2] {
                        let mut w = v.clone();
                        w[q] = if b >= 0x80 { 0x01 } else { 0x80 };
                        check(&w);
                    }
                }
            }
        }
    }

    #[test]
    fn control_scans_match_twins() {
        let naive_ctl = |s: &[u8]| s.iter().position(|&b| classes::is(b, classes::CONTROL));
        let naive_c1 = |s: &[u8]| {
            std::str::from_utf8(s)
                .unwrap()
                .char_indices()
                .find(|&(_, c)| is_c1(c))
                .map(|(p, _)| p)
        };
        let fills: [&[u8]; 3] = [b"abc/%20~", "é日ß".as_bytes(), "x~\u{7E}\u{A0}".as_bytes()];
        for len in 0..=70usize {
            for fill in fills {
                let base: Vec<u8> = fill.iter().copied().cycle().take(len).collect();
                for p in 0..len {
                    for b in 0..=0xFFu8 {
                        let mut v = base.clone();
                        v[p] = b;
                        assert_eq!(ascii_line_control(&v), ascii_line_control_naive(&v));
                        assert_eq!(ascii_line_control_sse2(&v), ascii_line_control_naive(&v));
                        if let Some(got) = ascii_line_control_avx2(&v) {
                            assert_eq!(got, ascii_line_control_naive(&v), "{v:02X?}");
                        }
                        // A control too, before or after the byte.
                        for q in [p.saturating_sub(1), (p + 17).min(len - 1)] {
                            let mut w = v.clone();
                            w[q] = 0x1F;
                            assert_eq!(ascii_line_control(&w), ascii_line_control_naive(&w));
                        }
                        if b >= 0x80 {
                            continue;
                        }
                        assert_eq!(find_control(&v), naive_ctl(&v), "{v:02X?}");
                        // The C1 search is for valid UTF-8 lines (checked before it).
                        if std::str::from_utf8(&v).is_ok() {
                            let want = naive_ctl(&v).or_else(|| naive_c1(&v));
                            assert_eq!(find_control_or_c1(&v), want, "{v:02X?}");
                        }
                    }
                    for ins in ['\u{80}', '\u{9F}', '\u{A0}', '\u{85}', 'é'] {
                        let mut v = base[..p].to_vec();
                        v.extend_from_slice(ins.to_string().as_bytes());
                        v.extend_from_slice(&base[p..]);
                        if std::str::from_utf8(&v).is_err() {
                            continue;
                        }
                        assert_eq!(find_c1(&v), naive_c1(&v), "{v:02X?}");
                        let want = naive_ctl(&v).or_else(|| naive_c1(&v));
                        assert_eq!(find_control_or_c1(&v), want, "{v:02X?}");
                        // A control after the C1 control still comes first.
                        v.push(0x1F);
                        let want = naive_ctl(&v).or_else(|| naive_c1(&v));
                        assert_eq!(find_control_or_c1(&v), want, "{v:02X?}");
                    }
                }
            }
        }
    }
}
