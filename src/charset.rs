//! Legacy-charset input (issue 12): RFC 3987 §3.1 step 1b/1c and draft-ietf-iri-3987bis §3.5.
//!
//! Labels, decoders and encoders are those of the WHATWG Encoding Standard, from `encoding_rs`
//! (no hand-written tables: the double-byte charsets decode through a lookup table that is
//! filled, at first use, by `encoding_rs`'s own decoder, one entry per byte pair, with the
//! decoder itself taking over at the first byte the table cannot decode). This module is
//! self-contained; the engine calls it per line on its slow path:
//!
//! * [`Charset::for_label`] resolves a label (`--charset`, `--charset-field`).
//! * [`Charset::needs_decode`] says whether a line must be decoded at all: for an
//!   ASCII-compatible charset an all-ASCII line decodes to itself, so the engine's fast path
//!   keeps it and the decoder is never called on it.
//! * [`Charset::decode_line`] turns one line into UTF-8 normalized to NFC (RFC 3987 §3.1 step
//!   1b); [`Charset::decode_line_mapped`] is its slow, obviously-correct twin that also maps
//!   each output byte back to the column of the original input byte (for error reports).
//! * [`Charset::encode_query`] is the 3987bis §3.5 query rule.
//! * [`LegacyConverter`] / [`convert_legacy_line`] glue these to the IRI→URI converter
//!   ([`ToUri`]); errors and warnings come back with columns of the original bytes.
//! * [`Utf16Reader`] transcodes UTF-16LE/BE input (RFC 3987 §3.1 step 1c) to UTF-8 as a
//!   [`Read`] adapter in front of the chunker.
//!
//! ## Bytes not valid in the charset: one knob
//!
//! The same option as UTF-8 input, [`ToUriOptions::invalid_utf8`] (`--invalid-utf8`), decides:
//! with [`InvalidUtf8::Error`] (the default) the line is the error `bad-charset`
//! ([`LegacyError::BadCharset`]) at the column of the first byte of the first malformed
//! sequence; with [`InvalidUtf8::Percent`] each byte of each malformed sequence (as
//! `encoding_rs` delimits it) is written as `%HH` of its original value and counted as a repair
//! — exactly what `--invalid-utf8 percent` does to bytes that are not UTF-8, so the flag means
//! "bytes not valid in the input charset" whatever the charset.

use crate::config::{InvalidUtf8, ToUriOptions};
use crate::convert::integrity::{Guard, GuardOptions};
use crate::convert::to_uri::{Outcome, ToUri};
use crate::convert::{Converter, Written};
use crate::error::{ErrorKind, LineError};
use crate::grammar::{classes, components};
use encoding_rs::{DecoderResult, EncoderResult, Encoding, UTF_16BE, UTF_16LE, UTF_8};
use std::fmt;
use std::io::{self, Read};
use unicode_normalization::char::canonical_combining_class;
use unicode_normalization::{is_nfc_quick, IsNormalized, UnicodeNormalization};

/// A character encoding of the WHATWG Encoding Standard (a thin `Copy` wrapper of
/// `encoding_rs::Encoding`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Charset(&'static Encoding);

impl fmt::Debug for Charset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Charset({})", self.0.name())
    }
}

impl fmt::Display for Charset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0.name())
    }
}

impl Charset {
    /// UTF-8.
    pub const UTF_8: Charset = Charset(UTF_8);

    /// The charset of a label, by the WHATWG Encoding Standard's "get an encoding" (§4.2): ASCII
    /// whitespace around the label is ignored, case is not significant (`Shift_JIS`, `sjis`,
    /// `x-sjis`, `ms932`... all name Shift_JIS; `latin1` and `iso-8859-1` name windows-1252,
    /// `gb2312` names GBK, `utf-16` names UTF-16LE).
    ///
    /// `None` for an unknown label, and for the labels of the "replacement" encoding
    /// (`iso-2022-kr`, `hz-gb-2312`, ...): that encoding decodes every input to one U+FFFD, so
    /// no IRI can be read through it; iribulk treats those labels as unknown.
    pub fn for_label(label: &[u8]) -> Option<Charset> {
        Encoding::for_label_no_replacement(label).map(Charset)
    }

    /// True for a label of the Encoding Standard's "replacement" encoding (`iso-2022-kr`,
    /// `hz-gb-2312`, `replacement`...), which [`Charset::for_label`] refuses: a message can say
    /// why instead of calling it no label (found by a QA sweep).
    pub fn is_replacement_label(label: &[u8]) -> bool {
        Encoding::for_label(label) == Some(encoding_rs::REPLACEMENT)
    }

    /// Why [`Charset::for_label`] refuses `label`, to follow the option and the label in a
    /// message (the CLI's `--charset 'x' …`, the Python package's `charset='x' …`): the
    /// "replacement" encoding's labels are labels, just not readable ones.
    pub fn refused_label_reason(label: &[u8]) -> &'static str {
        if Charset::is_replacement_label(label) {
            "names the Encoding Standard's \"replacement\" encoding, which decodes any input to \
             one U+FFFD: no IRI can be read through it (iso-2022-kr, hz-gb-2312 and the like are \
             not supported)"
        } else {
            "is not a label of the WHATWG Encoding Standard (such as shift_jis, euc-jp, gbk, \
             gb18030, big5, euc-kr, windows-1251, koi8-r, windows-1252, iso-8859-2, \
             windows-874, utf-16le, utf-16be)"
        }
    }

    /// The wrapped `encoding_rs` encoding.
    pub fn encoding(self) -> &'static Encoding {
        self.0
    }

    /// The canonical name (`Shift_JIS`, `windows-1252`, `UTF-16LE`...).
    pub fn name(self) -> &'static str {
        self.0.name()
    }

    /// True if every ASCII byte decodes to the same ASCII character and every ASCII character
    /// encodes to the same byte, whatever surrounds it. All WHATWG encodings are, except
    /// UTF-16LE/BE and ISO-2022-JP (whose escape sequences are ASCII bytes).
    pub fn is_ascii_compatible(self) -> bool {
        self.0.is_ascii_compatible()
    }

    /// True for the Unicode-based encodings (RFC 3987 §3.1 step 1c): UTF-8, UTF-16LE, UTF-16BE.
    /// Their input is not normalized, and the 3987bis §3.5 query rule does not apply to them.
    pub fn is_ucs_based(self) -> bool {
        self.0 == UTF_8 || self.0 == UTF_16LE || self.0 == UTF_16BE
    }

    /// True if `line` must go through [`Charset::decode_line`]; false if it is already the
    /// UTF-8 of its characters and cannot change, so the engine's fast path may keep it as is.
    ///
    /// For an ASCII-compatible charset that is "the line is all ASCII" (never the decoder); for
    /// UTF-8 it is always false (UTF-8 input has its own checks); for UTF-16 always true; for
    /// ISO-2022-JP, all ASCII without ESC, SO and SI.
    #[inline]
    pub fn needs_decode(self, line: &[u8]) -> bool {
        if self.0 == UTF_8 {
            false
        } else if self.is_ascii_compatible() {
            !line.is_ascii()
        } else if self.0 == UTF_16LE || self.0 == UTF_16BE {
            true
        } else {
            line.iter()
                .any(|&b| b >= 0x80 || matches!(b, 0x0E | 0x0F | 0x1B))
        }
    }

    /// Decodes one line (without its terminator) to UTF-8 in `out` (cleared first), then
    /// normalizes it to NFC unless the charset is UCS-based.
    ///
    /// RFC 3987 §3.1 step 1b: "If the IRI is in some digital representation (e.g., an octet
    /// stream) in some known non-Unicode character encoding, convert the IRI to a sequence of
    /// characters from the UCS normalized according to NFC." Step 1c: a Unicode-based encoding
    /// (UTF-16 here) is only converted, not normalized.
    ///
    /// Each line is decoded with a fresh decoder (stateful ISO-2022-JP lines must each start in
    /// ASCII mode, as the standard's encoder writes them). Bytes not valid in the charset follow
    /// `bad` (see the module documentation). This is the fast path: for the double-byte
    /// charsets a table of byte pairs derived from `encoding_rs` (the decoder taking the whole
    /// line over at the first byte the table cannot decode), else one `encoding_rs` call for
    /// the whole line; then an NFC quick check. [`Charset::decode_line_mapped`] is its twin.
    pub fn decode_line(
        self,
        line: &[u8],
        bad: InvalidUtf8,
        out: &mut String,
    ) -> Result<Decoded, BadCharset> {
        out.clear();
        let info = match PairTable::of(self) {
            Some(t) if t.decode(line, out) => Decoded::default(),
            _ => self.decode_with_encoding_rs(line, bad, out)?,
        };
        Ok(self.nfc(out, info))
    }

    /// NFC of the decoded `out` in place (not for UCS-based charsets: step 1c), noting in
    /// `info` whether it changed anything.
    fn nfc(self, out: &mut String, mut info: Decoded) -> Decoded {
        if !self.is_ucs_based()
            && !surely_nfc(out)
            && is_nfc_quick(out.chars()) != IsNormalized::Yes
        {
            let n = nfc_keeping_delimiters(out);
            info.normalized = n != *out;
            *out = n;
        }
        info
    }

    /// [`Charset::decode_line`] without the `PairTable` and without NFC: one `encoding_rs`
    /// decoder for the whole line (`out` cleared first).
    fn decode_with_encoding_rs(
        self,
        line: &[u8],
        bad: InvalidUtf8,
        out: &mut String,
    ) -> Result<Decoded, BadCharset> {
        out.clear();
        let mut info = Decoded::default();
        let mut d = self.0.new_decoder_without_bom_handling();
        let mut pos = 0;
        loop {
            let need = d
                .max_utf8_buffer_length_without_replacement(line.len() - pos)
                .unwrap_or(line.len() - pos)
                .max(4);
            out.reserve(need);
            let (r, read) = d.decode_to_string_without_replacement(&line[pos..], out, true);
            pos += read;
            match r {
                DecoderResult::InputEmpty => break,
                DecoderResult::OutputFull => {}
                DecoderResult::Malformed(len, after) => {
                    let end = pos - after as usize;
                    let start = end - len as usize;
                    if bad == InvalidUtf8::Error {
                        return Err(BadCharset { column: start });
                    }
                    for &b in &line[start..end] {
                        push_pct_str(out, b);
                        info.repairs += 1;
                    }
                }
            }
        }
        Ok(info)
    }

    /// The slow twin of [`Charset::decode_line`]: the same output, and in `map` (cleared first)
    /// for each byte of `out` the column (0-based byte offset) of the original input byte where
    /// the character it belongs to starts, plus one last entry, `line.len()`, for the end.
    ///
    /// It feeds the decoder one byte at a time and attributes the characters a byte completes to
    /// the first byte not yet attributed; after a malformed sequence it restarts a fresh decoder
    /// on the bytes the decoder had read past it (for ISO-2022-JP, whose state a fresh decoder
    /// would lose, it keeps the decoder and the re-read bytes share one column). NFC is applied
    /// per segment between characters that start a normalization segment (canonical combining
    /// class 0 and NFC_Quick_Check Yes: UAX #15 §9); a segment that NFC changes maps all its
    /// bytes to its first column. Allocates; meant for error reports, not the hot path.
    pub fn decode_line_mapped(
        self,
        line: &[u8],
        bad: InvalidUtf8,
        out: &mut String,
        map: &mut Vec<usize>,
    ) -> Result<Decoded, BadCharset> {
        out.clear();
        map.clear();
        let mut info = Decoded::default();
        let mut raw = String::new();
        let mut raw_map: Vec<usize> = Vec::new();
        let stateful = !self.is_ascii_compatible() && !self.is_ucs_based();
        let mut d = self.0.new_decoder_without_bom_handling();
        let mut buf = [0u8; 64];
        let mut i = 0;
        let mut pending = 0;
        'outer: while i <= line.len() {
            let last = i == line.len();
            let mut src: &[u8] = if last { &[] } else { &line[i..i + 1] };
            let base = i;
            let mut consumed = 0;
            loop {
                let (r, read, written) = d.decode_to_utf8_without_replacement(src, &mut buf, last);
                src = &src[read..];
                consumed += read;
                let p = base + consumed;
                let s = std::str::from_utf8(&buf[..written]).expect("decoder output is UTF-8");
                raw.push_str(s);
                raw_map.extend(std::iter::repeat_n(pending, written));
                if written > 0 && matches!(r, DecoderResult::InputEmpty) {
                    pending = p;
                } else if stateful && written == 0 && p >= 3 && line[p - 3] == 0x1B {
                    // An ISO-2022-JP escape sequence (`ESC ( B`, `ESC $ B`...: three bytes, no
                    // output) ends here: the next character starts after it, not at the ESC
                    // (found by a QA sweep: an error after `ESC ( B` had the ESC's column).
                    pending = p;
                }
                match r {
                    DecoderResult::InputEmpty => break,
                    DecoderResult::OutputFull => {}
                    DecoderResult::Malformed(len, after) => {
                        let end = p - after as usize;
                        let start = end - len as usize;
                        if bad == InvalidUtf8::Error {
                            return Err(BadCharset { column: start });
                        }
                        for (k, &b) in line[start..end].iter().enumerate() {
                            push_pct_str(&mut raw, b);
                            raw_map.extend([start + k; 3]);
                            info.repairs += 1;
                        }
                        pending = end;
                        if !stateful {
                            d = self.0.new_decoder_without_bom_handling();
                            i = end;
                            continue 'outer;
                        }
                    }
                }
            }
            i += 1;
        }
        if self.is_ucs_based() {
            *out = raw;
            *map = raw_map;
        } else {
            nfc_mapped(&raw, &raw_map, out, map);
            info.normalized = *out != raw;
        }
        map.push(line.len());
        Ok(info)
    }

    /// Appends the query text `query` for a URI, by the 3987bis §3.5 rule for a document in this
    /// charset: each run of non-ASCII characters is encoded in the charset (its output
    /// encoding: UTF-16 gives UTF-8) and every byte of it written as `%HH`; a character the
    /// charset cannot represent is written as the Encoding Standard's HTML numeric character
    /// reference `&#NNNN;` (decimal) percent-encoded, `%26%23NNNN%3B`, as the WHATWG URL
    /// Standard's "percent-encode after encoding" does. ASCII characters are copied as they are,
    /// for the IRI→URI converter to treat as usual (existing `%HH` stay, disallowed ASCII is
    /// repaired).
    ///
    /// ```
    /// use iribulk::charset::Charset;
    /// let sjis = Charset::for_label(b"shift_jis").unwrap();
    /// let mut out = Vec::new();
    /// sjis.encode_query("q=日本&x=€", &mut out);
    /// assert_eq!(out, b"q=%93%FA%96%7B&x=%26%238364%3B");
    /// ```
    pub fn encode_query(self, query: &str, out: &mut Vec<u8>) {
        self.encode_query_mapped(query, 0, out, None);
    }

    /// [`Charset::encode_query`], also pushing to `map` for each byte written the offset in
    /// `query` (plus `base`) of the character (or run of characters) it comes from.
    fn encode_query_mapped(
        self,
        query: &str,
        base: usize,
        out: &mut Vec<u8>,
        mut map: Option<&mut Vec<usize>>,
    ) {
        let enc = self.0.output_encoding();
        let b = query.as_bytes();
        let mut i = 0;
        while i < b.len() {
            if b[i].is_ascii() {
                let j = b[i..]
                    .iter()
                    .position(|c| !c.is_ascii())
                    .map_or(b.len(), |p| i + p);
                out.extend_from_slice(&b[i..j]);
                if let Some(m) = map.as_deref_mut() {
                    m.extend(base + i..base + j);
                }
                i = j;
                continue;
            }
            let j = b[i..]
                .iter()
                .position(|c| c.is_ascii())
                .map_or(b.len(), |p| i + p);
            // A character to-uri reports (a C1 control: `control-char`; a bidi formatting
            // character or a non-`ucschar`: a warning, an error with `--strict`, RFC 3987
            // §2.2, §4.1) is left raw for it to find and encode in UTF-8; encoded here it was
            // written silently (found by a QA sweep: `?q=` U+202E in gb18030).
            let mut k = i;
            for (p, c) in query[i..j].char_indices() {
                if !(classes::is_c1(c) || classes::raw_char_warning(c, true).is_some()) {
                    continue;
                }
                let at = i + p;
                let mark = out.len();
                encode_run(enc, &query[k..at], out);
                if let Some(m) = map.as_deref_mut() {
                    m.extend(std::iter::repeat_n(base + k, out.len() - mark));
                }
                let end = at + c.len_utf8();
                out.extend_from_slice(&b[at..end]);
                if let Some(m) = map.as_deref_mut() {
                    m.extend(base + at..base + end);
                }
                k = end;
            }
            let mark = out.len();
            encode_run(enc, &query[k..j], out);
            if let Some(m) = map.as_deref_mut() {
                m.extend(std::iter::repeat_n(base + k, out.len() - mark));
            }
            i = j;
        }
    }
}

/// Encodes one run of non-ASCII characters with `enc` (an output encoding), `%HH` each byte,
/// `%26%23NNNN%3B` for each unmappable character (WHATWG URL "percent-encode after encoding").
fn encode_run(enc: &'static Encoding, run: &str, out: &mut Vec<u8>) {
    let mut e = enc.new_encoder();
    let mut buf = [0u8; 256];
    let mut src = run;
    loop {
        let (r, read, written) = e.encode_from_utf8_without_replacement(src, &mut buf, true);
        push_pct_all(out, &buf[..written]);
        src = &src[read..];
        match r {
            EncoderResult::InputEmpty => break,
            EncoderResult::OutputFull => {}
            EncoderResult::Unmappable(c) => {
                out.extend_from_slice(b"%26%23");
                out.extend_from_slice((c as u32).to_string().as_bytes());
                out.extend_from_slice(b"%3B");
            }
        }
    }
}

const HEX: &[u8; 16] = b"0123456789ABCDEF";

/// Appends `%HH` for each byte of `bytes` (one resize, then three stores a byte).
fn push_pct_all(out: &mut Vec<u8>, bytes: &[u8]) {
    let start = out.len();
    out.resize(start + 3 * bytes.len(), 0);
    for (dst, &b) in out[start..].chunks_exact_mut(3).zip(bytes) {
        dst.copy_from_slice(&[b'%', HEX[(b >> 4) as usize], HEX[(b & 15) as usize]]);
    }
}

/// A decoding table of a double-byte charset (Shift_JIS, EUC-JP, EUC-KR, GBK, gb18030, Big5),
/// derived at first use from `encoding_rs` itself (each byte and each two-byte sequence decoded
/// by a fresh `encoding_rs` decoder: no table is written by hand), so that a line of valid
/// one- and two-byte characters decodes with one lookup per character instead of the
/// decoder's searches (Shift_JIS Cyrillic and symbols are found by a linear search of ranges).
///
/// These decoders (WHATWG Encoding Standard §§12–15) return to their initial state after each
/// character, so a line of such characters decodes to the concatenation of the characters'
/// decodings. Anything else — a byte not valid alone, a lead byte whose sequence is not one
/// complete two-byte character (gb18030's four-byte and EUC-JP's three-byte sequences, Big5's
/// pairs that decode to two code points, malformed input) — makes [`PairTable::decode`] give
/// up, and the line goes to the `encoding_rs` decoder from its start.
struct PairTable {
    /// For each byte `0x80 + k`: the character it decodes to alone, [`PairTable::LEAD`] if it
    /// starts a longer sequence, [`PairTable::BAD`] otherwise. A character is stored as its
    /// UTF-8 bytes, little-endian (first byte lowest), zero-padded.
    single: [u32; 128],
    /// For each lead byte `0x80 + k`, at `k * 256 + trail`: the character the two bytes decode
    /// to (as in `single`), or [`PairTable::BAD`].
    pair: Box<[u32]>,
}

impl PairTable {
    /// Entries whose first byte is never the first byte of a UTF-8 sequence.
    const BAD: u32 = 0xFF;
    const LEAD: u32 = 0xFE;

    /// The table of `cs`, built at its first use; `None` for the other charsets (single-byte
    /// ones are `encoding_rs`'s own table lookups, ISO-2022-JP is stateful, UTF-16 and UTF-8
    /// are not decoded here).
    fn of(cs: Charset) -> Option<&'static PairTable> {
        use encoding_rs::{BIG5, EUC_JP, EUC_KR, GB18030, GBK, SHIFT_JIS};
        use std::sync::OnceLock;
        static TABLES: [OnceLock<PairTable>; 6] = [const { OnceLock::new() }; 6];
        let all = [SHIFT_JIS, EUC_JP, EUC_KR, GBK, GB18030, BIG5];
        let k = all.iter().position(|&e| e == cs.0)?;
        Some(TABLES[k].get_or_init(|| PairTable::build(cs.0)))
    }

    fn build(enc: &'static Encoding) -> PairTable {
        let mut single = [Self::BAD; 128];
        let mut pair = vec![Self::BAD; 128 * 256].into_boxed_slice();
        for k in 0..128 {
            let b = 0x80 + k as u8;
            let mut buf = [0u8; 16];
            let mut d = enc.new_decoder_without_bom_handling();
            let (r, read, written) = d.decode_to_utf8_without_replacement(&[b], &mut buf, false);
            if !matches!(r, DecoderResult::InputEmpty) || read != 1 {
                continue;
            }
            if written > 0 {
                single[k] = Self::one_char(enc, &[b]);
                continue;
            }
            single[k] = Self::LEAD;
            for trail in 0..=255u8 {
                pair[k * 256 + trail as usize] = Self::one_char(enc, &[b, trail]);
            }
        }
        PairTable { single, pair }
    }

    /// The one character `bytes` decode to, whole, with nothing pending (as a table entry);
    /// else [`Self::BAD`].
    fn one_char(enc: &'static Encoding, bytes: &[u8]) -> u32 {
        let mut buf = [0u8; 16];
        let mut d = enc.new_decoder_without_bom_handling();
        let (r, read, written) = d.decode_to_utf8_without_replacement(bytes, &mut buf, true);
        if !matches!(r, DecoderResult::InputEmpty) || read != bytes.len() {
            return Self::BAD;
        }
        let mut chars = std::str::from_utf8(&buf[..written])
            .expect("decoder output is UTF-8")
            .chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => {
                let mut utf8 = [0u8; 4];
                c.encode_utf8(&mut utf8);
                u32::from_le_bytes(utf8)
            }
            _ => Self::BAD,
        }
    }

    /// Decodes `line` into `out` (cleared first) and returns true, or returns false (with
    /// `out` holding the characters before it) at the first byte the table cannot decode.
    #[inline]
    fn decode(&self, line: &[u8], out: &mut String) -> bool {
        const HIGH: u64 = 0x8080_8080_8080_8080;
        let mut v = std::mem::take(out).into_bytes();
        v.clear();
        v.reserve(2 * line.len());
        let mut i = 0;
        let ok = loop {
            // ASCII eight bytes at a time.
            if let Some(w) = line.get(i..i + 8) {
                if u64::from_le_bytes(w.try_into().expect("8 bytes")) & HIGH == 0 {
                    v.extend_from_slice(w);
                    i += 8;
                    continue;
                }
            }
            let Some(&b) = line.get(i) else {
                break true;
            };
            if b < 0x80 {
                v.push(b);
                i += 1;
                continue;
            }
            let k = usize::from(b - 0x80);
            let e = match self.single[k] {
                Self::LEAD => match line.get(i + 1) {
                    Some(&t) => {
                        i += 2;
                        self.pair[k * 256 + usize::from(t)]
                    }
                    None => break false,
                },
                e => {
                    i += 1;
                    e
                }
            };
            let utf8 = e.to_le_bytes();
            let n = match utf8[0] {
                0x00..=0x7F => 1,
                0xC0..=0xDF => 2,
                0xE0..=0xEF => 3,
                0xF0..=0xF7 => 4,
                _ => break false, // BAD or LEAD
            };
            // Four bytes (a fixed-size copy), then the padding cut off.
            v.extend_from_slice(&utf8);
            v.truncate(v.len() - 4 + n);
        };
        debug_assert!(std::str::from_utf8(&v).is_ok());
        // SAFETY: `v` holds ASCII bytes of `line` and, for each table entry, the first `n`
        // bytes of a character's UTF-8 (`one_char` stored `char::encode_utf8`, and `n` is that
        // sequence's length, read from its first byte): whole characters only, so UTF-8.
        // Checking it again (`String::from_utf8`) cost 7 % of a Shift_JIS run's instructions
        // (callgrind).
        *out = unsafe { String::from_utf8_unchecked(v) };
        ok
    }
}

fn push_pct_str(out: &mut String, b: u8) {
    out.push('%');
    out.push(HEX[(b >> 4) as usize] as char);
    out.push(HEX[(b & 15) as usize] as char);
}

/// Blocks whose every character has canonical combining class 0 and NFC_Quick_Check = Yes
/// (UAX #15 §9), answered without a table lookup: U+0000–U+02FF (before the combining
/// diacritics), Cyrillic U+0400–U+0482, kana U+3041–U+3096 and U+309B–U+30FF (not the combining
/// voiced marks U+3099/U+309A), CJK Extension A, Yijing hexagrams and CJK U+3400–U+9FFF, Hangul
/// syllables U+AC00–U+D7A3, half- and full-width forms U+FF01–U+FFEF.
/// `tests::surely_nfc_ranges` checks every code point of them against `unicode-normalization`.
const SURELY_NFC: &[(u32, u32)] = &[
    (0x0000, 0x02FF),
    (0x0400, 0x0482),
    (0x3041, 0x3096),
    (0x309B, 0x30FF),
    (0x3400, 0x9FFF),
    (0xAC00, 0xD7A3),
    (0xFF01, 0xFFEF),
];

/// Fast path of the NFC check of [`Charset::decode_line`]: true if every character of `s` has
/// canonical combining class 0 and NFC_Quick_Check = Yes (then `s` is NFC, UAX #15 §9).
///
/// `s` is UTF-8, so each character is checked at its lead byte. A lead byte of a block of
/// [`SURELY_NFC`] that needs no lookup (see [`fast_byte`]), an ASCII byte or a continuation
/// byte passes as it is, sixteen bytes at a time while all of them do (a loop the compiler
/// turns into vector compares); other three-byte characters (kana, Hangul, full-width forms)
/// are checked by their code point, the rest by their properties. False means "ask
/// `is_nfc_quick`" (its slow twin).
#[inline]
fn surely_nfc(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let end = (i + 16).min(b.len());
        if end - i == 16 && b[i..end].iter().fold(true, |ok, &x| ok & fast_byte(x)) {
            i = end;
            continue;
        }
        while i < end {
            let lead = b[i];
            if fast_byte(lead) {
                i += 1;
                continue;
            }
            let ok = if (0xE0..0xF0).contains(&lead) {
                // A three-byte character (`s` is UTF-8).
                in_surely_nfc(
                    (u32::from(lead & 0x0F) << 12)
                        | (u32::from(b[i + 1] & 0x3F) << 6)
                        | u32::from(b[i + 2] & 0x3F),
                )
            } else {
                false
            };
            if !ok {
                let Some(c) = s[i..].chars().next() else {
                    return false;
                };
                if !in_surely_nfc(c as u32)
                    && (canonical_combining_class(c) != 0
                        || is_nfc_quick(std::iter::once(c)) != IsNormalized::Yes)
                {
                    return false;
                }
            }
            // Its continuation bytes pass as fast bytes.
            i += 1;
        }
    }
    true
}

/// True for a byte that needs no check in [`surely_nfc`]: ASCII, a UTF-8 continuation byte
/// (its character is checked at its lead byte), or the lead byte of a character of a block of
/// [`SURELY_NFC`]: `C2`–`CB` (U+0080–U+02FF), `D0`–`D1` (U+0400–U+047F), `E4`–`E9`
/// (U+4000–U+9FFF).
#[inline(always)]
fn fast_byte(x: u8) -> bool {
    (x < 0xCC) | (x.wrapping_sub(0xD0) < 2) | (x.wrapping_sub(0xE4) < 6)
}

/// True if `cp` is in one of the blocks of [`SURELY_NFC`].
#[inline]
fn in_surely_nfc(cp: u32) -> bool {
    SURELY_NFC.iter().any(|&(a, z)| (a..=z).contains(&cp))
}

/// True if a normalization segment may start at `c` (UAX #15 §9: canonical combining class 0
/// and NFC_Quick_Check = Yes, so `c` neither reorders nor composes with what precedes it).
fn starts_segment(c: char) -> bool {
    c.is_ascii()
        || (canonical_combining_class(c) == 0
            && is_nfc_quick(std::iter::once(c)) == IsNormalized::Yes)
}

/// The ASCII characters that a combining mark composes with into another character: `=`,
/// `<` and `>` with U+0338 (`≠`, `≮`, `≯`). `=` is a delimiter of the query (`?a=b`).
fn composes_with_a_mark(c: char) -> bool {
    matches!(c, '=' | '<' | '>')
}

/// NFC (RFC 3987 §3.1 step 1b) of `s`, except that a mark after `=`, `<` or `>` is not
/// composed with it: whole-line NFC made `?a=\u{338}b` (decoded from a legacy charset) the key
/// `a≠b` without a value, where the same text in UTF-8 keeps its `=` (found by a QA sweep).
/// README: NFC never across a delimiter, as normalize's NFC rung works per component
/// (§5.3.2.2). The text is cut after each such character and each piece normalized; no
/// other composition starts with an ASCII character that is not a letter, and a cut before a
/// starter changes nothing else (UAX #15: composition and reordering stop at a starter).
fn nfc_keeping_delimiters(s: &str) -> String {
    let mut n = String::with_capacity(s.len());
    let mut from = 0;
    for (k, c) in s.char_indices() {
        if composes_with_a_mark(c) {
            n.extend(s[from..=k].nfc());
            from = k + 1;
        }
    }
    n.extend(s[from..].nfc());
    n
}

/// NFC of `raw` segment by segment, carrying the column map (see
/// [`Charset::decode_line_mapped`]); a segment also starts after `=`, `<` and `>`
/// ([`nfc_keeping_delimiters`]).
fn nfc_mapped(raw: &str, raw_map: &[usize], out: &mut String, map: &mut Vec<usize>) {
    let mut prev = None;
    let mut starts: Vec<usize> = raw
        .char_indices()
        .filter(|&(k, c)| {
            let after = prev.is_some_and(composes_with_a_mark);
            prev = Some(c);
            k == 0 || after || starts_segment(c)
        })
        .map(|(k, _)| k)
        .collect();
    starts.push(raw.len());
    for w in starts.windows(2) {
        let (a, b) = (w[0], w[1]);
        if a == b {
            continue;
        }
        let seg = &raw[a..b];
        let n: String = seg.nfc().collect();
        if n == seg {
            map.extend_from_slice(&raw_map[a..b]);
        } else {
            map.extend(std::iter::repeat_n(raw_map[a], n.len()));
        }
        out.push_str(&n);
    }
}

/// What [`Charset::decode_line`] did besides decoding.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Decoded {
    /// Bytes not valid in the charset that were percent-encoded ([`InvalidUtf8::Percent`]).
    pub repairs: u32,
    /// True if NFC changed the decoded text.
    pub normalized: bool,
}

/// A line holds bytes that are not valid in its charset: the error `bad-charset`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BadCharset {
    /// 0-based column of the first byte of the first malformed sequence, in the original line.
    pub column: usize,
}

/// An error of [`LegacyConverter`], with columns of the original (undecoded) line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LegacyError {
    /// Bytes not valid in the charset (code `bad-charset`).
    BadCharset(BadCharset),
    /// An error of the IRI→URI converter, its offset mapped back to the original line.
    Convert(LineError),
}

impl LegacyError {
    /// The stable error code: `bad-charset` or the converter's code.
    pub fn code(&self) -> &'static str {
        match self {
            LegacyError::BadCharset(_) => "bad-charset",
            LegacyError::Convert(e) => e.kind.code(),
        }
    }

    /// The 0-based byte column in the original line.
    pub fn column(&self) -> usize {
        match self {
            LegacyError::BadCharset(b) => b.column,
            LegacyError::Convert(e) => e.offset,
        }
    }
}

impl fmt::Display for LegacyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LegacyError::BadCharset(b) => write!(
                f,
                "bad-charset at byte {}: bytes not valid in the declared charset",
                b.column
            ),
            LegacyError::Convert(e) => {
                write!(
                    f,
                    "{} at byte {}: {}",
                    e.kind.code(),
                    e.offset,
                    e.kind.message()
                )
            }
        }
    }
}

impl std::error::Error for LegacyError {}

/// The charset the query of an `http`/`https` IRI is encoded in (`--query-charset`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum QueryCharset {
    /// The document charset when it is not UCS-based (3987bis §3.5). The default.
    #[default]
    Document,
    /// Always UTF-8 (`--query-charset utf-8`): the query is converted like any other component.
    Utf8,
}

/// Options of [`LegacyConverter`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LegacyOptions {
    /// The IRI→URI options; `invalid_utf8` also decides about bytes not valid in the charset.
    pub to_uri: ToUriOptions,
    /// The query rule. Default [`QueryCharset::Document`].
    pub query_charset: QueryCharset,
}

/// The per-line converter of legacy-charset input: decode (+ NFC), the query rule, then
/// [`ToUri`] inside the host-integrity [`Guard`] (issue 16). One per worker thread (it owns
/// the converter's host cache and scratch space).
#[derive(Debug)]
pub struct LegacyConverter {
    charset: Charset,
    query_charset: QueryCharset,
    to_uri: Guard<ToUri>,
    text: String,
    line: Vec<u8>,
}

impl LegacyConverter {
    /// A converter for lines in `charset`.
    pub fn new(charset: Charset, opts: LegacyOptions) -> Self {
        Self::guarded(charset, opts, false)
    }

    /// [`Self::new`]; `warnings_unseen` for a caller that returns no warnings
    /// ([`GuardOptions::warnings_unseen`]).
    fn guarded(charset: Charset, opts: LegacyOptions, warnings_unseen: bool) -> Self {
        let t = opts.to_uri;
        let guard = GuardOptions {
            trim: t.trim,
            strict: t.strict,
            maps_hosts: Some(t.host),
            warnings_unseen,
        };
        LegacyConverter {
            charset,
            query_charset: opts.query_charset,
            to_uri: Guard::new(ToUri::new(t), guard),
            text: String::new(),
            line: Vec::new(),
        }
    }

    /// The charset of the lines.
    pub fn charset(&self) -> Charset {
        self.charset
    }

    /// Changes the charset of the next lines (`--charset-field`: each record names its own);
    /// the host cache and buffers are kept.
    pub fn set_charset(&mut self, charset: Charset) {
        self.charset = charset;
    }

    /// True if the query rule applies to IRIs of this charset with these options.
    fn query_rule(&self) -> bool {
        self.query_charset == QueryCharset::Document && !self.charset.is_ucs_based()
    }

    /// Converts one line (without its terminator) in the converter's charset and appends the
    /// URI to `out`; on error nothing is appended. A line that is not decoded and that
    /// [`ToUri`] leaves as it is passes through ([`Written::Passthrough`], nothing appended,
    /// [`crate::convert`]'s contract); a decoded line is always written.
    ///
    /// Steps: RFC 3987 §3.1 step 1b (decode, NFC; step 1c for UTF-16: decode only), the
    /// 3987bis §3.5 query rule for `http`/`https` ([`Charset::encode_query`]), then RFC 3987
    /// §3.1 step 2 by [`ToUri`]. UTF-8 lines and lines for which [`Charset::needs_decode`] is
    /// false go to [`ToUri`] unchanged. The offsets of errors and of `first_warning` are columns
    /// of `line`. `Outcome::repairs` counts percent-encoded bad bytes too.
    pub fn convert_into(&mut self, line: &[u8], out: &mut Vec<u8>) -> Result<Outcome, LegacyError> {
        if !self.charset.needs_decode(line) {
            return self
                .to_uri
                .convert_into(line, out)
                .map_err(LegacyError::Convert);
        }
        let bad = self.to_uri.inner().options().invalid_utf8;
        let dec = self
            .charset
            .decode_line(line, bad, &mut self.text)
            .map_err(LegacyError::BadCharset)?;
        self.line.clear();
        rewrite(
            &self.text,
            self.charset,
            self.query_rule(),
            || false,
            &mut self.line,
            None,
        );
        match self.to_uri.convert_into(&self.line, out) {
            Ok(mut o) => {
                if o.written == Written::Passthrough {
                    // The decoded line is the URI: it differs from `line`, so it is written.
                    out.extend_from_slice(&self.line);
                }
                o.repairs += dec.repairs;
                o.written = Written::Wrote;
                if let Some(w) = o.first_warning.as_mut() {
                    w.offset = self.column_of(line, w.offset);
                }
                Ok(o)
            }
            Err(mut e) => {
                e.offset = self.column_of(line, e.offset);
                Err(LegacyError::Convert(e))
            }
        }
    }

    /// Maps an offset in the rewritten line (the converter's input) to a column of `line`.
    fn column_of(&self, line: &[u8], offset: usize) -> usize {
        let bad = self.to_uri.inner().options().invalid_utf8;
        let mut text = String::new();
        let mut dmap = Vec::new();
        if self
            .charset
            .decode_line_mapped(line, bad, &mut text, &mut dmap)
            .is_err()
        {
            return 0; // unreachable: decode_line succeeded on the same line
        }
        let mut rewritten = Vec::new();
        let mut rmap = Vec::new();
        rewrite(
            &text,
            self.charset,
            self.query_rule(),
            || false,
            &mut rewritten,
            Some(&mut rmap),
        );
        rmap.push(text.len());
        let t = rmap[offset.min(rmap.len() - 1)];
        dmap[t.min(dmap.len() - 1)]
    }
}

/// Writes `text` with the query rule applied when asked and the IRI is `http`/`https` with a
/// non-ASCII query; `map`, if given, gets for each byte written its offset in `text`.
fn rewrite(
    text: &str,
    cs: Charset,
    query_rule: bool,
    base_http: impl FnOnce() -> bool,
    out: &mut Vec<u8>,
    map: Option<&mut Vec<usize>>,
) {
    let b = text.as_bytes();
    let q = if query_rule && may_have_non_ascii_query(b) {
        let c = components::split(b);
        // A reference without a scheme has its base's once resolved (RFC 3986 §5.2.2).
        let http = match &c.scheme {
            Some(s) => is_http(Some(&b[s.clone()])),
            None => base_http(),
        };
        c.query.filter(|q| http && !b[q.clone()].is_ascii())
    } else {
        None
    };
    match q {
        None => {
            out.extend_from_slice(b);
            if let Some(m) = map {
                m.extend(0..b.len());
            }
        }
        Some(q) => {
            out.extend_from_slice(&b[..q.start]);
            let mut map = map;
            if let Some(m) = map.as_deref_mut() {
                m.extend(0..q.start);
            }
            cs.encode_query_mapped(&text[q.clone()], q.start, out, map.as_deref_mut());
            out.extend_from_slice(&b[q.end..]);
            if let Some(m) = map {
                m.extend(q.end..b.len());
            }
        }
    }
}

/// The base of [`RecordDecoder::set_base`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BaseHint {
    /// No base: a reference without a scheme keeps UTF-8 (its scheme is unknown).
    None,
    /// `--base`, whose scheme is `http`/`https` or not.
    Http(bool),
    /// `--base-field`: the record's field (0-based).
    Field(usize),
}

/// True for the schemes of the 3987bis §3.5 query rule, `http` and `https`.
fn is_http(scheme: Option<&[u8]>) -> bool {
    scheme.is_some_and(|s| s.eq_ignore_ascii_case(b"http") || s.eq_ignore_ascii_case(b"https"))
}

/// False if the IRI `b` surely has no non-ASCII query, so that [`rewrite`] need not split it:
/// the query (RFC 3986 §3.4, Appendix B) starts after the first `?` unless a `#` comes first
/// (no component before it can hold a `?`), so it lies within the bytes after the first `?`;
/// if those are all ASCII, so is the query. True means "split and look" (the twin: always).
#[inline]
fn may_have_non_ascii_query(b: &[u8]) -> bool {
    memchr::memchr(b'?', b).is_some_and(|p| !b[p + 1..].is_ascii())
}

/// Converts one line in `charset` to a URI with a fresh [`LegacyConverter`] (no cache reuse):
/// the glue the engine's per-line slow path calls, in its one-shot form.
///
/// ```
/// use iribulk::charset::{convert_legacy_line, Charset, LegacyOptions};
/// let cs = Charset::for_label(b"windows-1252").unwrap();
/// let uri = convert_legacy_line(b"http://example.org/caf\xE9?q=\xE9", cs, LegacyOptions::default());
/// assert_eq!(uri.unwrap(), "http://example.org/caf%C3%A9?q=%E9");
/// ```
pub fn convert_legacy_line(
    bytes: &[u8],
    charset: Charset,
    opts: LegacyOptions,
) -> Result<String, LegacyError> {
    let mut out = Vec::new();
    let o = LegacyConverter::guarded(charset, opts, true).convert_into(bytes, &mut out)?;
    if o.written == Written::Passthrough {
        out.extend_from_slice(bytes); // the line is its own URI
    }
    // ASCII by construction (the converter's output); checked without unsafe.
    Ok(String::from_utf8(out).expect("converter output is ASCII"))
}

/// Where the charset of each record comes from (`--charset LABEL` or `--charset-field N`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CharsetSource {
    /// Every line is in this charset (`--charset`).
    Fixed(Charset),
    /// The label of each record is in this field (0-based; `--charset-field`, 1-based on the
    /// command line), fields split by the `--field` delimiter.
    Field(usize),
}

/// The legacy-charset settings of a run, as the engine takes them
/// ([`crate::engine::EngineOptions::charset`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LegacyInput {
    /// Where the charset comes from.
    pub source: CharsetSource,
    /// The 3987bis §3.5 query rule (`--query-charset`; to-uri only).
    pub query_charset: QueryCharset,
}

impl LegacyInput {
    /// The charset the whole input stream is transcoded from before it is split into lines:
    /// a fixed UTF-16LE/BE charset ([`Utf16Reader`], RFC 3987 §3.1 step 1c). The engine then
    /// reads UTF-8, as without `--charset`.
    pub fn stream_charset(&self) -> Option<Charset> {
        match self.source {
            CharsetSource::Fixed(cs) if cs.0 == UTF_16LE || cs.0 == UTF_16BE => Some(cs),
            _ => None,
        }
    }

    /// True if a UTF-8 BOM at the start of an input makes it UTF-8 (a fixed charset that is
    /// not UCS-based: the WHATWG Encoding Standard's decode, §6, sniffs the BOM first). A
    /// `--charset-field` input keeps each record's label.
    pub fn bom_decides(&self) -> bool {
        matches!(self.source, CharsetSource::Fixed(cs) if !cs.is_ucs_based())
    }

    /// True if a UTF-16 byte order mark at the start of an input decides its encoding: a
    /// fixed charset other than UTF-16 (whose reader honours the mark itself), UTF-8
    /// included (WHATWG Encoding §6 decode sniffs before any encoding; `--charset utf-8`
    /// read a UTF-16 file as bytes, found by a QA sweep).
    pub fn utf16_bom_decides(&self) -> bool {
        matches!(self.source, CharsetSource::Fixed(cs)
            if cs.0 != encoding_rs::UTF_16LE && cs.0 != encoding_rs::UTF_16BE)
    }

    /// True for `--charset-field`: each record names its own charset.
    pub fn per_record(&self) -> bool {
        matches!(self.source, CharsetSource::Field(_))
    }

    /// True if lines need the per-line decoder at all: not for a fixed UCS-based charset
    /// (UTF-8 is the engine's own input; UTF-16 is transcoded as a stream).
    pub fn decodes_lines(&self) -> bool {
        !matches!(self.source, CharsetSource::Fixed(cs) if cs.is_ucs_based())
    }
}

/// The column of `record`'s first delimiter that decoding moved ([`RecordDecoder`]'s
/// `check_fields`): a delimiter byte that does not decode to one (when `raw_split`, the
/// split of the raw bytes counted), or a decoded delimiter that came from another character.
fn moved_delimiter(cs: Charset, record: &[u8], bad: InvalidUtf8, d: u8, raw_split: bool) -> usize {
    let Some(kept) = decoded_delimiters(cs, record, bad, d) else {
        return 0;
    };
    let lost = raw_split
        .then(|| first_not_kept(record, d, &kept, record.len()))
        .flatten();
    let made = kept.iter().copied().find(|&c| record.get(c) != Some(&d));
    match (lost, made) {
        (Some(a), Some(b)) => a.min(b),
        (a, b) => a.or(b).unwrap_or(0),
    }
}

/// The column in `record` of each delimiter of its decoding by `cs` (the byte that decoded to
/// it); `None` when the record does not decode.
fn decoded_delimiters(cs: Charset, record: &[u8], bad: InvalidUtf8, d: u8) -> Option<Vec<usize>> {
    let mut text = String::new();
    let mut map = Vec::new();
    cs.decode_line_mapped(record, bad, &mut text, &mut map)
        .ok()?;
    Some(
        memchr::memchr_iter(d, text.as_bytes())
            .map(|i| map[i])
            .collect(),
    )
}

/// How many delimiter bytes of `record[..end]` decoding by `cs` does not keep as delimiters
/// (trail bytes of double-byte characters, as `83 7C` is `ポ` in Shift_JIS), counted without
/// a map of offsets (the prefix decoded, its delimiters counted against the raw ones); `None`
/// when it does not decode.
fn lost_delimiter_count(
    cs: Charset,
    record: &[u8],
    bad: InvalidUtf8,
    d: u8,
    end: usize,
) -> Option<usize> {
    let mut text = String::new();
    cs.decode_line(&record[..end], bad, &mut text).ok()?;
    let count = |b: &[u8]| memchr::memchr_iter(d, b).count();
    count(&record[..end]).checked_sub(count(text.as_bytes()))
}

/// The first delimiter byte of `record[..end]` whose column is not in `kept` (ascending, as
/// [`decoded_delimiters`] gives them): one merge of the two ascending lists (a search of
/// `kept` for each delimiter made a record of many fields quadratic; found by a QA sweep).
fn first_not_kept(record: &[u8], d: u8, kept: &[usize], end: usize) -> Option<usize> {
    let mut k = kept.iter().copied().peekable();
    memchr::memchr_iter(d, &record[..end]).find(|&c| {
        while k.next_if(|&x| x < c).is_some() {}
        k.peek() != Some(&c)
    })
}

/// The byte range of field `k` (0-based) of `line`, fields split by `delim`.
fn field_of(line: &[u8], k: usize, delim: u8) -> Option<std::ops::Range<usize>> {
    let mut start = 0;
    for _ in 0..k {
        start += memchr::memchr(delim, &line[start..])? + 1;
    }
    let end = memchr::memchr(delim, &line[start..]).map_or(line.len(), |p| start + p);
    Some(start..end)
}

/// The engine's per-record hook for legacy charsets (one per worker): finds the record's
/// charset, decodes the record (RFC 3987 §3.1 step 1b: decode, then NFC), applies the 3987bis
/// §3.5 query rule to the IRI field in to-uri mode, and maps offsets in the prepared record
/// back to columns of the original bytes.
///
/// The whole record is decoded, not only the converted field, so every line written is UTF-8;
/// a record that needs no decoding ([`Charset::needs_decode`] false: all ASCII in an
/// ASCII-compatible charset) is left to the engine as it is, on its fast path. A record
/// labelled with a UCS-based charset (`utf-8`, `utf-16`...) in `--charset-field` mode is read
/// as UTF-8: a line-oriented file cannot hold UTF-16 records, so the extractor has already
/// transcoded such links.
#[derive(Debug)]
pub struct RecordDecoder {
    input: LegacyInput,
    delim: u8,
    iri_field: Option<usize>,
    bad: InvalidUtf8,
    query_rule: bool,
    /// The base a reference without a scheme is resolved against ([`RecordDecoder::set_base`]).
    base: BaseHint,
    naive: bool,
    repairs: u32,
    text: String,
    last_label: Vec<u8>,
    last: Option<Charset>,
}

impl RecordDecoder {
    /// A decoder for `input`; `field` is the engine's `--field` (index, delimiter), `bad` the
    /// leniency knob (`--invalid-utf8`), `to_uri` true in to-uri mode (the only mode where the
    /// query rule applies: the others write IRIs, or validate).
    pub fn new(
        input: LegacyInput,
        field: Option<(usize, u8)>,
        bad: InvalidUtf8,
        to_uri: bool,
    ) -> Self {
        RecordDecoder {
            input,
            delim: field.map_or(b'\t', |f| f.1),
            iri_field: field.map(|f| f.0),
            bad,
            query_rule: to_uri && input.query_charset == QueryCharset::Document,
            base: BaseHint::None,
            naive: false,
            repairs: 0,
            text: String::new(),
            last_label: Vec::new(),
            last: None,
        }
    }

    /// The base that references are resolved against after this decoding (`--base`: `fixed`;
    /// `--base-field`: the record's field `field`, 0-based). A reference without a scheme then
    /// takes the base's, and the 3987bis §3.5 query rule applies to it when that is `http` or
    /// `https`: `?q=é` against `http://h/` in windows-1252 is `http://h/?q=%E9`, as its
    /// absolute form is (it was `%C3%A9`; found by a QA sweep).
    pub fn set_base(&mut self, fixed: Option<&[u8]>, field: Option<usize>) {
        self.base = match (fixed, field) {
            (_, Some(k)) => BaseHint::Field(k),
            (Some(b), None) => BaseHint::Http(is_http(components::split(b).scheme.map(|r| &b[r]))),
            (None, None) => BaseHint::None,
        };
    }

    /// The base of `record` with the 3987bis §3.5 query rule applied, in `out`, when it
    /// applies and changes something (true): a reference with no path and no query takes the
    /// base's query (RFC 3986 §5.2.2), which is then the document's as much as the
    /// reference's own, so an `http`/`https` base's non-ASCII query is encoded in the
    /// record's charset as the reference's is (`http://h/a?q=ж` as a windows-1251 base gives
    /// `?q=%E6`, not UTF-8's `%D0%B6`; found by a QA sweep). `base` is UTF-8: the decoded
    /// record's field, or `--base`. False (nothing written) for a base it leaves as it is.
    pub fn rewrite_base(&mut self, record: &[u8], base: &[u8], out: &mut Vec<u8>) -> bool {
        if !self.query_rule || !may_have_non_ascii_query(base) {
            return false;
        }
        let Ok(cs) = self.charset_of(record) else {
            return false;
        };
        let Ok(text) = std::str::from_utf8(base) else {
            return false;
        };
        if cs.is_ucs_based() {
            return false;
        }
        out.clear();
        rewrite(text, cs, true, || false, out, None);
        true
    }

    /// Makes [`RecordDecoder::prepare`] use the slow decoding twin
    /// ([`Charset::decode_line_mapped`]), for the engine's naive twin.
    pub fn set_naive(&mut self, naive: bool) {
        self.naive = naive;
    }

    /// The charset of `record`: the fixed one, or the one its label field names. Errors:
    /// `missing-field` (no label field, at the end of the record) and `unknown-charset` (at
    /// the label's first byte).
    pub fn charset_of(&mut self, record: &[u8]) -> Result<Charset, LineError> {
        let k = match self.input.source {
            CharsetSource::Fixed(cs) => return Ok(cs),
            CharsetSource::Field(k) => k,
        };
        let r = field_of(record, k, self.delim)
            .ok_or(LineError::new(ErrorKind::MissingField, record.len()))?;
        let label = &record[r.clone()];
        if let Some(cs) = self.last.filter(|_| self.last_label == label) {
            return Ok(cs);
        }
        let Some(cs) = Charset::for_label(label) else {
            // A delimiter byte inside a character before the label (`83 7C`, `ポ` in
            // Shift_JIS; a byte of an ISO-2022-JP double-byte run) moves the label one field
            // to the right: when the next field names a charset whose decoding of the record
            // loses a delimiter before the label, that delimiter is the error (README; the
            // label came out unknown and the record was `unknown-charset`, found by a QA
            // sweep). Otherwise the label is unknown (a later sweep: `é|bogus` and
            // `\xEF|bogus` were `field-delimiter`, guessed from the byte before the `|`).
            // Two such characters move it two fields, text between the character and the
            // label changes nothing (`/ポ?q=ポ|shift_jis`, found by a third sweep: it was
            // `unknown-charset`): the label is looked for in the fields after it, a field `j`
            // naming a charset that loses exactly `j - k` delimiters before it (decoded with
            // bad bytes percent-encoded, so that a byte the charset refuses elsewhere in the
            // record does not hide the moved label; a fourth sweep). The fields are walked
            // once; at most eight that name a charset have the record before them decoded and
            // its delimiters counted (no map of offsets, a merge for the column of the one
            // that matches), so that a long record of labels stays linear (a fifth sweep: a
            // search of the kept delimiters for each one made it quadratic).
            let d = self.delim;
            let mut at = r.end + 1;
            let moved = record
                .get(at..)
                .into_iter()
                .flat_map(|rest| rest.split(move |&b| b == d))
                .zip(k + 1..)
                .filter_map(|(field, j)| {
                    let start = at;
                    at += field.len() + 1;
                    Some((j, start, Charset::for_label(field)?))
                })
                .take(8)
                .find_map(|(j, at, next)| {
                    let bad = InvalidUtf8::Percent;
                    if lost_delimiter_count(next, record, bad, d, at)? != j - k {
                        return None;
                    }
                    let kept = decoded_delimiters(next, record, bad, d)?;
                    first_not_kept(record, d, &kept, at)
                })
                .filter(|&at| at < r.start);
            return Err(match moved {
                Some(at) => LineError::new(ErrorKind::FieldDelimiter, at),
                None => LineError::new(ErrorKind::UnknownCharset, r.start),
            });
        };
        self.last_label.clear();
        self.last_label.extend_from_slice(label);
        self.last = Some(cs);
        Ok(cs)
    }

    /// True if `record` goes through the engine as it is: its charset is known and it needs no
    /// decoding. The engine's shortcuts ask this first; false sends the record to
    /// [`RecordDecoder::prepare`].
    #[inline]
    pub fn passes(&mut self, record: &[u8]) -> bool {
        match self.charset_of(record) {
            Ok(cs) => cs.is_ucs_based() || !cs.needs_decode(record),
            Err(_) => false,
        }
    }

    /// Prepares `record` for the mode's converter: `Ok(false)` if it needs nothing (use it as
    /// it is); `Ok(true)` with the decoded (NFC) record in `out` (cleared first), its IRI field
    /// with the query rule applied in to-uri mode; `Err` for `bad-charset` (column of the first
    /// bad byte), `unknown-charset` or `missing-field`.
    pub fn prepare(&mut self, record: &[u8], out: &mut Vec<u8>) -> Result<bool, LineError> {
        let cs = self.charset_of(record)?;
        if cs.is_ucs_based() || !cs.needs_decode(record) {
            return Ok(false);
        }
        let r = if self.naive {
            let mut map = Vec::new();
            cs.decode_line_mapped(record, self.bad, &mut self.text, &mut map)
        } else {
            cs.decode_line(record, self.bad, &mut self.text)
        };
        let info = r.map_err(|b| LineError::new(ErrorKind::BadCharset, b.column))?;
        self.repairs = info.repairs;
        if self.iri_field.is_some() {
            self.check_fields(cs, record, info.normalized)?;
        }
        if info.normalized {
            let mut raw = String::new();
            if cs
                .decode_with_encoding_rs(record, self.bad, &mut raw)
                .is_ok()
            {
                self.keep_host_name(&raw);
            }
        }
        out.clear();
        self.assemble(cs, &self.text, out, None);
        Ok(true)
    }

    /// `field-delimiter` (`--field`): the decoded record (in `self.text`) must split into the
    /// fields the engine and the label were found by. With `--charset-field` the label was
    /// found by a split of the raw bytes, so every delimiter byte of the record must decode to
    /// a delimiter (not be the trail byte of a double-byte character: `83 7C` is `ポ` in
    /// Shift_JIS); with either source, NFC (RFC 3987 §3.1 step 1b) must make no delimiter
    /// (U+037E → `;`, U+1FEF → `` ` ``). A fixed `--charset` decodes the whole record before
    /// splitting it, so a trail byte there is only part of its character. The count of
    /// delimiters decides (a trail byte removes one, NFC adds one); the error's column
    /// comes from the mapped twin, on this rare path only.
    fn check_fields(&self, cs: Charset, record: &[u8], normalized: bool) -> Result<(), LineError> {
        let d = self.delim;
        let count = |b: &[u8]| memchr::memchr_iter(d, b).count();
        let decoded = count(self.text.as_bytes());
        let by_field = matches!(self.input.source, CharsetSource::Field(_));
        let mut moved = by_field && count(record) != decoded;
        if !moved && normalized {
            let mut raw = String::new();
            moved = cs
                .decode_with_encoding_rs(record, self.bad, &mut raw)
                .is_ok()
                && count(raw.as_bytes()) != decoded;
        }
        if !moved {
            return Ok(());
        }
        Err(LineError::new(
            ErrorKind::FieldDelimiter,
            moved_delimiter(cs, record, self.bad, d, by_field),
        ))
    }

    /// Bytes not valid in the charset that the last successful [`RecordDecoder::prepare`]
    /// percent-encoded (`--invalid-utf8 percent`): repairs, for the counters.
    pub fn last_repairs(&self) -> u32 {
        self.repairs
    }

    /// Writes the prepared form of the decoded `text` (the IRI field's query rewritten when the
    /// rule applies); `map` gets, for each byte written, its offset in `text`.
    fn assemble(&self, cs: Charset, text: &str, out: &mut Vec<u8>, map: Option<&mut Vec<usize>>) {
        let b = text.as_bytes();
        let r = match self.iri_field {
            None => Some(0..b.len()),
            Some(k) => field_of(b, k, self.delim),
        };
        let r = match r {
            Some(r) if self.query_rule => r,
            _ => {
                out.extend_from_slice(b);
                if let Some(m) = map {
                    m.extend(0..b.len());
                }
                return;
            }
        };
        out.extend_from_slice(&b[..r.start]);
        let mut map = map;
        if let Some(m) = map.as_deref_mut() {
            m.extend(0..r.start);
        }
        let mark = map.as_deref().map_or(0, |m| m.len());
        // Asked only for a reference without a scheme and with a non-ASCII query.
        let base_http = || match self.base {
            BaseHint::None => false,
            BaseHint::Http(h) => h,
            BaseHint::Field(k) => field_of(b, k, self.delim).is_some_and(|f| {
                let base = &b[f];
                is_http(components::split(base).scheme.map(|r| &base[r]))
            }),
        };
        rewrite(
            &text[r.clone()],
            cs,
            true,
            base_http,
            out,
            map.as_deref_mut(),
        );
        if let Some(m) = map.as_deref_mut() {
            for x in &mut m[mark..] {
                *x += r.start;
            }
        }
        out.extend_from_slice(&b[r.end..]);
        if let Some(m) = map {
            m.extend(r.end..b.len());
        }
    }

    /// The column in the original `record` of byte `offset` of its prepared form (as
    /// [`RecordDecoder::prepare`] wrote it): the first byte of the character it comes from.
    /// Recomputes the decoding with the mapped twin: called only for errors and warnings.
    pub fn column_of(&mut self, record: &[u8], offset: usize) -> usize {
        let Ok(cs) = self.charset_of(record) else {
            return 0;
        };
        let mut text = String::new();
        let mut dmap = Vec::new();
        if cs
            .decode_line_mapped(record, self.bad, &mut text, &mut dmap)
            .is_err()
        {
            return 0; // unreachable: prepare decoded the same record
        }
        let mut prepared = Vec::new();
        let mut pmap = Vec::new();
        self.assemble(cs, &text, &mut prepared, Some(&mut pmap));
        pmap.push(text.len());
        let t = pmap[offset.min(pmap.len() - 1)];
        dmap[t.min(dmap.len() - 1)]
    }

    /// [`RecordDecoder::prepare`] for a record whose characters were already decoded from its
    /// charset (the caller holds text, not bytes: a Python `str` taken from a page in that
    /// charset, with the charset given alongside). Decoding is done, but RFC 3987 §3.1 step 1b
    /// still asks for NFC, and the 3987bis §3.5 query rule still applies in to-uri mode: `out`
    /// (cleared first) gets the NFC text with the IRI field's query rewritten, as `prepare`
    /// writes a decoded record. `Ok(false)`: use `record` as it is (a UCS-based charset: step
    /// 1c, no normalization and no query rule; or an all-ASCII record, which neither changes).
    /// Errors: those of [`RecordDecoder::charset_of`].
    ///
    /// Fast path: NFC only when the quick check (UAX #15 §9) says the text may not be NFC;
    /// [`RecordDecoder::prepare_decoded_naive`] is its slow twin.
    pub fn prepare_decoded(&mut self, record: &str, out: &mut Vec<u8>) -> Result<bool, LineError> {
        let cs = self.charset_of(record.as_bytes())?;
        if cs.is_ucs_based() || record.is_ascii() {
            return Ok(false);
        }
        if self.naive {
            return self.prepare_decoded_naive(record, out);
        }
        self.repairs = 0;
        self.text.clear();
        if surely_nfc(record) || is_nfc_quick(record.chars()) == IsNormalized::Yes {
            self.text.push_str(record);
        } else {
            self.text = nfc_keeping_delimiters(record);
            self.keep_host_name(record);
        }
        out.clear();
        self.assemble(cs, &self.text, out, None);
        Ok(true)
    }

    /// The slow, obviously-correct twin of [`RecordDecoder::prepare_decoded`]: NFC of the whole
    /// text without the quick check, then the same assembly.
    pub fn prepare_decoded_naive(
        &mut self,
        record: &str,
        out: &mut Vec<u8>,
    ) -> Result<bool, LineError> {
        let cs = self.charset_of(record.as_bytes())?;
        if cs.is_ucs_based() || record.is_ascii() {
            return Ok(false);
        }
        self.repairs = 0;
        self.text = nfc_keeping_delimiters(record);
        self.keep_host_name(record);
        out.clear();
        self.assemble(cs, &self.text, out, None);
        Ok(true)
    }

    /// Step 1b's NFC (in `self.text`, of the decoded `raw`) must not give the IRI field's host
    /// another name where IDNA reads it ([`crate::host::idna_reads`]): IDNA maps before it
    /// normalizes, so NFC's reordering of U+0345 (ι to IDNA) wrote `a\u{345}\u{300}.com`,
    /// `xn--a-76m.com` to a browser reading the page, as `xn--0ca27l.com` (found by a QA
    /// sweep). Such a host is put back as decoded ([`crate::host::same_idna_name`], UTS #46, as
    /// browsers map); IDNA normalizes it itself.
    fn keep_host_name(&mut self, raw: &str) {
        let host = |t: &str| -> Option<(std::ops::Range<usize>, bool)> {
            let f = match self.iri_field {
                None => 0..t.len(),
                Some(k) => field_of(t.as_bytes(), k, self.delim)?,
            };
            let iri = &t.as_bytes()[f.clone()];
            let c = components::split(iri);
            let a = components::split_authority(iri, c.authority?).ok()?;
            let reads = crate::host::idna_reads(c.scheme.map(|s| &iri[s]));
            Some((f.start + a.host.start..f.start + a.host.end, reads))
        };
        let (Some((at_raw, true)), Some((at, _))) = (host(raw), host(&self.text)) else {
            return;
        };
        let (was, now) = (&raw[at_raw], &self.text[at.clone()]);
        if was != now && !crate::host::same_idna_name(was, now, crate::host::Idna::Uts46) {
            self.text.replace_range(at, was);
        }
    }

    /// The byte offset in `record` (as given to [`RecordDecoder::prepare_decoded`]) of byte
    /// `offset` of its prepared form: the first byte of the character (or NFC segment) it comes
    /// from. Called only for errors and warnings.
    pub fn column_of_decoded(&mut self, record: &str, offset: usize) -> usize {
        let Ok(cs) = self.charset_of(record.as_bytes()) else {
            return 0;
        };
        // Each byte of the text maps to the first byte of its character.
        let starts: Vec<usize> = record
            .char_indices()
            .flat_map(|(k, c)| std::iter::repeat_n(k, c.len_utf8()))
            .collect();
        let mut text = String::new();
        let mut nmap = Vec::new();
        nfc_mapped(record, &starts, &mut text, &mut nmap);
        nmap.push(record.len());
        let mut prepared = Vec::new();
        let mut pmap = Vec::new();
        self.assemble(cs, &text, &mut prepared, Some(&mut pmap));
        pmap.push(text.len());
        let t = pmap[offset.min(pmap.len() - 1)];
        nmap[t.min(nmap.len() - 1)]
    }
}

/// A [`Read`] adapter that transcodes UTF-16LE/BE input to UTF-8 (RFC 3987 §3.1 step 1c: a
/// Unicode-based encoding is converted, not normalized), for the line chunker.
///
/// A byte order mark at the start is honoured and removed: `FF FE` means UTF-16LE, `FE FF`
/// UTF-16BE and `EF BB BF` UTF-8, whatever the declared charset (the Encoding Standard's
/// "decode" with BOM sniffing). A malformed sequence (an unpaired surrogate, an odd last byte)
/// becomes one byte `0xFF`, which is never UTF-8, so that the line is reported `invalid-utf8` at
/// that column (or written as `%FF` under `--invalid-utf8 percent`) instead of vanishing; they
/// are counted by [`Utf16Reader::malformed`]. Columns of errors then refer to the UTF-8 line.
pub struct Utf16Reader<R> {
    inner: R,
    decoder: encoding_rs::Decoder,
    inbuf: Box<[u8]>,
    in_pos: usize,
    in_len: usize,
    outbuf: Box<[u8]>,
    out_pos: usize,
    out_len: usize,
    eof: bool,
    done: bool,
    malformed: u64,
}

impl<R> fmt::Debug for Utf16Reader<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Utf16Reader")
            .field("encoding", &self.decoder.encoding().name())
            .field("malformed", &self.malformed)
            .finish_non_exhaustive()
    }
}

const IN_CAP: usize = 64 * 1024;

impl<R: Read> Utf16Reader<R> {
    /// Reads `inner`, declared to be in `charset` (normally UTF-16LE or UTF-16BE; any charset
    /// works, a BOM overriding it).
    pub fn new(inner: R, charset: Charset) -> Self {
        Utf16Reader {
            inner,
            decoder: charset.0.new_decoder(),
            inbuf: vec![0; IN_CAP].into_boxed_slice(),
            in_pos: 0,
            in_len: 0,
            // Room for the worst case of a full input buffer, plus one marker byte.
            outbuf: vec![0; 3 * IN_CAP + 16].into_boxed_slice(),
            out_pos: 0,
            out_len: 0,
            eof: false,
            done: false,
            malformed: 0,
        }
    }

    /// Malformed sequences met so far (each written as one `0xFF`).
    pub fn malformed(&self) -> u64 {
        self.malformed
    }

    /// The reader it wraps.
    pub fn into_inner(self) -> R {
        self.inner
    }
}

impl<R: Read> Read for Utf16Reader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            if self.out_pos < self.out_len {
                let n = buf.len().min(self.out_len - self.out_pos);
                buf[..n].copy_from_slice(&self.outbuf[self.out_pos..self.out_pos + n]);
                self.out_pos += n;
                return Ok(n);
            }
            if self.done || buf.is_empty() {
                return Ok(0);
            }
            if self.in_pos == self.in_len && !self.eof {
                let n = self.inner.read(&mut self.inbuf)?;
                self.in_pos = 0;
                self.in_len = n;
                self.eof = n == 0;
            }
            let last = self.eof && self.in_pos == self.in_len;
            let cap = self.outbuf.len() - 1;
            self.out_pos = 0;
            self.out_len = 0;
            // The whole input buffer is decoded at once, a malformed sequence marked and the
            // decoding carried on: one `read` per malformed sequence, each returning a few
            // bytes, made the chunker's work per read (proportional to its chunk) quadratic
            // on input full of unpaired surrogates (a QA sweep: 4 MB took 24 s with
            // `--chunk-size 64M`). The marker has the one byte kept free past `cap`.
            while self.out_len < cap {
                let (r, read, written) = self.decoder.decode_to_utf8_without_replacement(
                    &self.inbuf[self.in_pos..self.in_len],
                    &mut self.outbuf[self.out_len..cap],
                    last,
                );
                self.in_pos += read;
                self.out_len += written;
                match r {
                    DecoderResult::InputEmpty => {
                        self.done = last;
                        break;
                    }
                    DecoderResult::OutputFull => break,
                    DecoderResult::Malformed(_, _) => {
                        self.outbuf[self.out_len] = 0xFF;
                        self.out_len += 1;
                        self.malformed += 1;
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cs(l: &str) -> Charset {
        Charset::for_label(l.as_bytes()).unwrap()
    }

    #[test]
    fn labels() {
        assert_eq!(cs(" SJIS\t").name(), "Shift_JIS");
        assert_eq!(cs("latin1").name(), "windows-1252");
        assert_eq!(cs("gb2312").name(), "GBK");
        assert_eq!(cs("utf-16").name(), "UTF-16LE");
        assert!(Charset::for_label(b"iso-2022-kr").is_none());
        assert!(Charset::is_replacement_label(b" HZ-GB-2312"));
        assert!(
            !Charset::is_replacement_label(b"klingon") && !Charset::is_replacement_label(b"sjis")
        );
        assert!(Charset::for_label(b"klingon").is_none());
        assert!(cs("koi8-r").is_ascii_compatible());
        assert!(!cs("iso-2022-jp").is_ascii_compatible());
        assert!(!cs("utf-16be").is_ascii_compatible());
        assert!(cs("utf-16be").is_ucs_based() && cs("utf8").is_ucs_based());
        assert!(!cs("gb18030").is_ucs_based());
    }

    /// NFC never composes a mark with `=`, `<` or `>` (found by a QA sweep: `?a=\u{338}b` in
    /// gb18030 became the key `a≠b`), in the fast path and its mapped twin; other marks
    /// still compose (`e` + U+0301 is `é`, step 1b).
    #[test]
    fn nfc_keeps_an_equals_sign_before_a_mark() {
        let g = cs("gb18030");
        for text in [
            "http://h/?a=\u{338}b&c=d",
            "http://h/e\u{301}?x=\u{338}\u{301}<\u{338}",
        ] {
            let (bytes, _, _) = g.0.encode(text);
            let mut fast = String::new();
            g.decode_line(&bytes, InvalidUtf8::Error, &mut fast)
                .unwrap();
            let (mut slow, mut map) = (String::new(), Vec::new());
            g.decode_line_mapped(&bytes, InvalidUtf8::Error, &mut slow, &mut map)
                .unwrap();
            assert_eq!(fast, slow, "{text}");
            assert_eq!(fast, nfc_keeping_delimiters(text), "{text}");
            assert!(
                !fast.contains('\u{2260}') && !fast.contains('\u{226E}'),
                "{fast}"
            );
        }
        assert_eq!(nfc_keeping_delimiters("e\u{301}=\u{338}"), "\u{e9}=\u{338}");
        assert_eq!(
            nfc_keeping_delimiters("a\u{338}"),
            "a\u{338}".nfc().collect::<String>()
        );
    }

    #[test]
    fn needs_decode_only_for_non_ascii() {
        assert!(!cs("shift_jis").needs_decode(b"http://a/b?c"));
        assert!(cs("shift_jis").needs_decode(b"http://a/\x93\xfa"));
        assert!(!cs("iso-2022-jp").needs_decode(b"http://a/b"));
        assert!(cs("iso-2022-jp").needs_decode(b"http://a/\x1b$B"));
        assert!(cs("utf-16le").needs_decode(b"h\0"));
        assert!(!Charset::UTF_8.needs_decode(b"\xff"));
    }

    #[test]
    fn decode_and_nfc() {
        let mut s = String::new();
        let d = cs("windows-1258")
            .decode_line(b"e\xcc", InvalidUtf8::Error, &mut s)
            .unwrap();
        assert_eq!(s, "\u{e8}"); // e + U+0300 → è
        assert!(d.normalized);
        let mut m = Vec::new();
        cs("windows-1258")
            .decode_line_mapped(b"a/e\xccx", InvalidUtf8::Error, &mut s, &mut m)
            .unwrap();
        assert_eq!(s, "a/\u{e8}x");
        assert_eq!(m, [0, 1, 2, 2, 4, 5]);
    }

    #[test]
    fn bad_bytes() {
        let mut s = String::new();
        let sj = cs("shift_jis");
        assert_eq!(
            sj.decode_line(b"ab\x81 c", InvalidUtf8::Error, &mut s),
            Err(BadCharset { column: 2 })
        );
        let d = sj
            .decode_line(b"ab\x81 c\x82\xa0", InvalidUtf8::Percent, &mut s)
            .unwrap();
        assert_eq!(s, "ab%81 cあ");
        assert_eq!(d.repairs, 1);
        let mut m = Vec::new();
        sj.decode_line_mapped(b"ab\x81 c\x82\xa0", InvalidUtf8::Percent, &mut s, &mut m)
            .unwrap();
        assert_eq!(s, "ab%81 cあ");
        assert_eq!(m, [0, 1, 2, 2, 2, 3, 4, 5, 5, 5, 7]);
    }

    #[test]
    fn query_rule() {
        let mut out = Vec::new();
        cs("windows-1251").encode_query("q=Москва 1", &mut out);
        assert_eq!(out, b"q=%CC%EE%F1%EA%E2%E0 1");
        out.clear();
        cs("windows-1252").encode_query("x=日", &mut out);
        assert_eq!(out, b"x=%26%2326085%3B");
    }

    #[test]
    fn utf16_reader() {
        let mut src = vec![0xFE, 0xFF];
        for c in "a\u{e9}\n\u{1F600}\n".encode_utf16() {
            src.extend_from_slice(&c.to_be_bytes());
        }
        let mut out = String::new();
        Utf16Reader::new(&src[..], cs("utf-16le"))
            .read_to_string(&mut out)
            .unwrap();
        assert_eq!(out, "a\u{e9}\n\u{1F600}\n");
        // It can stand in front of the chunker, which takes a `Box<dyn Read + Send>`.
        let _boxed: Box<dyn Read + Send> = Box::new(Utf16Reader::new(io::empty(), cs("utf-16be")));
    }

    /// Unpaired surrogates are each one `0xFF` between the text around them, and one `read`
    /// returns all that its input buffer decodes to, markers and all (a QA sweep: a `read`
    /// per marker made the chunker quadratic).
    #[test]
    fn utf16_reader_marks_malformed_without_a_read_each() {
        let mut src = Vec::new();
        for _ in 0..1000 {
            src.extend_from_slice(b"a\x00\x00\xd8");
        }
        src.push(b'z');
        let mut r = Utf16Reader::new(&src[..], cs("utf-16le"));
        let mut buf = vec![0u8; 1 << 16];
        let n = r.read(&mut buf).unwrap();
        // All but the last surrogate, which waits for what follows it.
        assert_eq!(n, 1999, "one read for the whole buffer");
        let mut all = buf[..n].to_vec();
        r.read_to_end(&mut all).unwrap();
        // The last surrogate and the odd byte after it are one malformed sequence.
        assert!(all == b"a\xff".repeat(1000), "{} bytes", all.len());
        assert_eq!(r.malformed(), 1000);
    }

    /// The derived table against the `encoding_rs` decoder (its twin): every byte pair after
    /// ASCII, alone and followed by more bytes, in both leniency modes; identical results.
    #[test]
    fn pair_table_equals_encoding_rs() {
        for label in ["shift_jis", "euc-jp", "euc-kr", "gbk", "gb18030", "big5"] {
            let c = cs(label);
            let table = PairTable::of(c).expect("a double-byte charset");
            let (mut fast, mut slow, mut probe) = (String::new(), String::new(), String::new());
            let mut by_table = 0;
            for lead in 0x80..=0xFFu8 {
                for trail in 0..=0xFFu8 {
                    for tail in [&b""[..], b"\xa1\xa1/", b"\x810"] {
                        let mut line = vec![b'x', lead, trail];
                        line.extend_from_slice(tail);
                        probe.clear();
                        by_table += usize::from(table.decode(&line, &mut probe));
                        for bad in [InvalidUtf8::Error, InvalidUtf8::Percent] {
                            let rf = c.decode_line(&line, bad, &mut fast);
                            let rs = c
                                .decode_with_encoding_rs(&line, bad, &mut slow)
                                .map(|i| c.nfc(&mut slow, i));
                            assert_eq!(rf, rs, "{label} {line:02X?} {bad:?}");
                            if rf.is_ok() {
                                assert_eq!(fast, slow, "{label} {line:02X?} {bad:?}");
                            }
                        }
                    }
                }
            }
            assert!(
                by_table > 10_000,
                "{label}: only {by_table} lines by the table"
            );
        }
        for label in ["windows-1252", "koi8-r", "iso-2022-jp", "utf-16le", "utf-8"] {
            assert!(PairTable::of(cs(label)).is_none(), "{label}");
        }
    }

    #[test]
    fn surely_nfc_ranges() {
        for &(a, b) in SURELY_NFC {
            for c in (a..=b).filter_map(char::from_u32) {
                assert_eq!(canonical_combining_class(c), 0, "U+{:04X}", c as u32);
                assert_eq!(
                    is_nfc_quick(std::iter::once(c)),
                    IsNormalized::Yes,
                    "U+{:04X}",
                    c as u32
                );
                assert!(surely_nfc(c.encode_utf8(&mut [0; 4])));
                // Also between and after runs of ASCII (the eight-byte skip).
                assert!(surely_nfc(&format!("http://example.jp/{c}?q={c}{c}")));
            }
        }
        // Outside the blocks, the lookup decides, also for characters that NFC changes alone.
        assert!(surely_nfc("\u{2013}\u{E01}"));
        assert!(!surely_nfc("http://example.org/\u{F929}"));
        assert!(!surely_nfc("http://example.org/\u{415}\u{300}"));
        assert!(!surely_nfc("http://example.org/\u{3000}\u{302A}"));
        assert!(!surely_nfc("\u{2000}"));
        assert!(!surely_nfc("e\u{301}"));
        assert!(!surely_nfc("\u{304B}\u{3099}"));
        assert!(!surely_nfc("\u{F929}"));
    }

    proptest::proptest! {
        /// The fast NFC check never says yes to text that is not NFC (its twin: `is_nfc`).
        #[test]
        fn surely_nfc_implies_nfc(s in "[a-z/:.?\u{e0}-\u{ff}\u{400}-\u{4ff}\u{3000}-\u{3040}\u{ff00}-\u{ffff}\u{300}-\u{36f}\u{3040}-\u{30ff}\u{1100}-\u{11ff}\u{ac00}-\u{ac20}\u{f900}-\u{f910}\u{2000}-\u{2010}\u{4e00}-\u{4e10}]{0,40}") {
            let fast = surely_nfc(&s);
            if fast {
                proptest::prop_assert!(unicode_normalization::is_nfc(&s), "{:?}", s);
            }
            // Its definition, character by character: the same answer.
            let naive = s.chars().all(|c| {
                in_surely_nfc(c as u32)
                    || (canonical_combining_class(c) == 0
                        && is_nfc_quick(std::iter::once(c)) == IsNormalized::Yes)
            });
            proptest::prop_assert_eq!(fast, naive, "{:?}", s);
        }
    }

    #[test]
    fn one_converter_many_charsets() {
        let mut conv = LegacyConverter::new(cs("windows-1251"), LegacyOptions::default());
        let mut out = Vec::new();
        conv.convert_into(b"http://a/?q=\xe9", &mut out).unwrap();
        assert_eq!(out, b"http://a/?q=%E9");
        conv.set_charset(cs("koi8-r"));
        out.clear();
        conv.convert_into(b"http://a/\xe9?q=\xe9", &mut out)
            .unwrap();
        // KOI8-R E9 is И (U+0418): UTF-8 in the path, KOI8-R in the query.
        assert_eq!(out, b"http://a/%D0%98?q=%E9");
    }
}
