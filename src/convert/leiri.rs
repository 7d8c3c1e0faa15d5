//! LEIRI → IRI (3987bis §6.2): percent-encode exactly the characters that a Legacy Extended
//! IRI allows and an IRI does not (the list of 3987bis §6.3), leaving everything else as it is.

use crate::convert::{Outcome, Written};
use crate::error::{ErrorKind, LineError};
use crate::grammar::classes::{is_bidi_format, not_even_in_leiris};
use crate::grammar::components;
use crate::grammar::pct::push_pct_all;

/// True for the characters of 3987bis §6.3 (allowed in LEIRIs, not in IRIs), with
/// `in_query` telling whether private use is allowed (IRIs allow it only in the query):
/// space, `< > "`, `\ ^ ` { | }`, controls (C0, DEL, C1), the bidi formatting characters
/// U+200E, U+200F, U+202A–U+202E, the specials U+FFF0–U+FFFD, private use, the tags
/// U+E0000–U+E0FFF, and the noncharacters (U+FDD0–U+FDEF and the last two of every plane).
/// The bidi formatting characters are all of [`is_bidi_format`]: also the isolates
/// U+2066–U+2069 and U+061C, which Unicode 6.3 added after the draft's list and which reorder
/// a display as the others do (Trojan Source, CVE-2021-42574); left raw, the output was no
/// IRI by `check` (found by a QA sweep).
pub fn is_leiri_only(c: char, in_query: bool) -> bool {
    let u = c as u32;
    match u {
        0x00..=0x1F | 0x7F..=0x9F => true,
        0x20 | 0x22 | 0x3C | 0x3E | 0x5C | 0x5E | 0x60 | 0x7B | 0x7C | 0x7D => true,
        _ if is_bidi_format(c) => true,
        0xFFF0..=0xFFFD => true,
        0xE000..=0xF8FF | 0xF0000..=0xFFFFD | 0x100000..=0x10FFFD => !in_query,
        0xE0000..=0xE0FFF => true,
        0xFDD0..=0xFDEF => true,
        _ => u & 0xFFFE == 0xFFFE,
    }
}

/// The LEIRI→IRI converter (stateless).
#[derive(Debug, Default)]
pub struct LeiriToIri;

impl LeiriToIri {
    /// Converts one line (without terminator), appending the IRI to `out`, or nothing when
    /// no character needs encoding ([`Written::Passthrough`], [`crate::convert`]'s contract).
    pub fn convert_into(&mut self, line: &[u8], out: &mut Vec<u8>) -> Result<Outcome, LineError> {
        let s = match simdutf8::compat::from_utf8(line) {
            Ok(s) => s,
            Err(e) => return Err(LineError::new(ErrorKind::InvalidUtf8, e.valid_up_to())),
        };
        // Host confusion (WHATWG URL §4.4 against RFC 3986 §3.2): never passed on.
        if let Some(p) = components::backslash_in_special_authority(line) {
            return Err(LineError::new(ErrorKind::BackslashAuthority, p));
        }
        let c = components::split(line);
        let q = c.query.clone().unwrap_or(0..0);
        let mark = out.len();
        let mut o = Outcome::default();
        let mut run = 0;
        for (i, ch) in s.char_indices() {
            if is_leiri_only(ch, q.contains(&i)) {
                // U+FFFE and U+FFFF are not even allowed in LEIRIs (3987bis §6.3, last
                // paragraph): encoded, with to-uri's warning (found by a QA sweep).
                if not_even_in_leiris(ch) {
                    o.warnings += 1;
                    o.first_warning
                        .get_or_insert(LineError::new(ErrorKind::NotUcschar, i));
                }
                out.extend_from_slice(&line[run..i]);
                let mut buf = [0u8; 4];
                push_pct_all(out, ch.encode_utf8(&mut buf).as_bytes());
                run = i + ch.len_utf8();
                o.written = Written::Wrote;
                o.repairs += 1;
            }
        }
        // Nothing written before the first change: an unchanged line passes through.
        if o.written == Written::Wrote {
            // What it wrote must be an IRI reference: a text before the first `:` that is no
            // scheme (` foo:a`, `a b:c`, whose space this encoded) is `bad-scheme`, as in to-uri
            // (RFC 3986 §3.1, §4.2: `%20foo:a` is no reference; found by a QA sweep). An
            // unchanged line passes through as it came (leiri-to-iri validates nothing).
            if let Err(e) = components::check_scheme(line, &c) {
                out.truncate(mark);
                return Err(e);
            }
            out.extend_from_slice(&line[run..]);
        }
        Ok(o)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodes_exactly_the_leiri_only_characters() {
        let mut c = LeiriToIri;
        let mut out = Vec::new();
        let input = "http://a/b c<\u{202E}é\u{E000}?q\u{E000}#\u{FFFE}\u{1FFFF}\u{E0041}|";
        c.convert_into(input.as_bytes(), &mut out).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "http://a/b%20c%3C%E2%80%AEé%EE%80%80?q\u{E000}#%EF%BF%BE%F0%9F%BF%BF%F3%A0%81%81%7C"
        );
    }

    #[test]
    fn nothing_else_changes() {
        for c in ['a', '%', '#', '[', 'é', '\u{2065}', '\u{FFEF}', '\u{10000}'] {
            assert!(!is_leiri_only(c, false), "{c:?}");
        }
        for c in ['\u{61C}', '\u{2066}', '\u{2069}', '\u{202E}'] {
            assert!(is_leiri_only(c, false) && is_leiri_only(c, true), "{c:?}");
        }
    }
}
