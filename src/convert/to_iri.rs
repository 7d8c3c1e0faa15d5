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
//!    host mode, and the result is kept only if ToASCII of it gives back exactly the host.
//!
//! The result maps back to the input with [`crate::ToUri`] (same host mode), except for the
//! case of hex digits and decoded unreserved characters (RFC 3987 §3.2).

use crate::classes::{self, is_bidi_format, is_c1, is_iprivate, is_ucschar};
use crate::components;
use crate::config::HostMode;
use crate::convert::to_uri::Outcome;
use crate::error::{ErrorKind, LineError};
use crate::host::{self, idna2003, Idna};
use crate::pct::{decode_utf8, is_pct_triplet};
use unicode_normalization::UnicodeNormalization;

/// Options of URI→IRI conversion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ToIriOptions {
    /// Which hosts are DNS names and which IDNA version decodes their `xn--` labels; the same
    /// meaning as for [`crate::ToUriOptions::host`]. Default [`HostMode::Auto`].
    pub host: HostMode,
    /// IDNA2003 flags for [`HostMode::Idna2003`]. Default [`idna2003::Flags::CONVERT`].
    pub idna2003_flags: idna2003::Flags,
}

impl Default for ToIriOptions {
    fn default() -> Self {
        ToIriOptions {
            host: HostMode::Auto,
            idna2003_flags: idna2003::Flags::CONVERT,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Comp {
    Host,
    Query,
    Other,
}

/// True if `c`, decoded from `%HH`, may appear as itself in a displayed IRI (RFC 3987 §3.2
/// step 4). Kept encoded: C1 controls; bidi formatting characters (§4.1); private use outside
/// the query and everything not `ucschar` (§2.2); and, iribulk's documented choice for safe
/// display, characters that render invisibly or as white space (default-ignorable code
/// points, line and paragraph separators, spaces, the BOM, zero-width characters) and
/// compatibility look-alikes of URI delimiters (§6.1 b: NFKC gives `/ ? # @ : [ ] %`, space,
/// or a control).
pub fn is_displayable(c: char, in_query: bool) -> bool {
    if is_c1(c) || is_bidi_format(c) || is_invisible_or_space(c) {
        return false;
    }
    if !(is_ucschar(c) || (in_query && is_iprivate(c))) {
        return false;
    }
    !nfkc_has_delimiter(c)
}

/// White space and characters that render invisibly (Unicode White_Space and
/// Default_Ignorable_Code_Point, minus the variation selectors, which only modify the character
/// before them, e.g. in emoji sequences).
fn is_invisible_or_space(c: char) -> bool {
    matches!(c as u32,
        0x00A0 | 0x00AD | 0x034F | 0x061C | 0x115F | 0x1160 | 0x1680 | 0x17B4 | 0x17B5
        | 0x180E | 0x2000..=0x200F | 0x2028..=0x202F | 0x205F..=0x206F | 0x3000 | 0x3164
        | 0xFEFF | 0xFFA0 | 0xFFF0..=0xFFF8 | 0x1BCA0..=0x1BCA3 | 0x1D173..=0x1D17A
        | 0xE0000..=0xE0FFF)
}

fn nfkc_has_delimiter(c: char) -> bool {
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
    /// Ranges of the current component's output produced by percent-decoding.
    decoded: Vec<std::ops::Range<usize>>,
}

impl ToIri {
    /// A converter with these options.
    pub fn new(opts: ToIriOptions) -> Self {
        ToIri {
            opts,
            octets: Vec::new(),
            decoded: Vec::new(),
        }
    }

    /// Converts one line (without terminator), appending the IRI to `out`. On error nothing
    /// is appended.
    pub fn convert_into(&mut self, line: &[u8], out: &mut Vec<u8>) -> Result<Outcome, LineError> {
        let mark = out.len();
        let r = self.convert_inner(line, out);
        if r.is_err() {
            out.truncate(mark);
        }
        r
    }

    fn convert_inner(&mut self, line: &[u8], out: &mut Vec<u8>) -> Result<Outcome, LineError> {
        if let Err(e) = simdutf8::compat::from_utf8(line) {
            return Err(LineError::new(ErrorKind::InvalidUtf8, e.valid_up_to()));
        }
        // Raw controls would reach the display (and NUL, CR, LF must never be produced).
        if let Some(p) = line.iter().position(|&b| classes::is(b, classes::CONTROL)) {
            return Err(LineError::new(ErrorKind::ControlChar, p));
        }
        let s = std::str::from_utf8(line).expect("checked");
        if let Some((p, _)) = s.char_indices().find(|&(_, c)| is_c1(c)) {
            return Err(LineError::new(ErrorKind::ControlChar, p));
        }
        let mut o = Outcome::default();
        let c = components::split(line);
        let mut pos = 0;
        if let Some(ar) = c.authority.clone() {
            // A malformed authority is left as it is (to-iri reports only what it must).
            if let Ok(a) = components::split_authority(line, ar.clone()) {
                if let Some(ui) = a.userinfo.clone() {
                    out.extend_from_slice(&line[pos..ui.start]);
                    self.decode(line, ui.clone(), Comp::Other, out, &mut o)?;
                    pos = ui.end;
                }
                out.extend_from_slice(&line[pos..a.host.start]);
                pos = a.host.start;
                let h = a.host.clone();
                if line.get(h.start) != Some(&b'[') {
                    let scheme = c.scheme.clone().map(|r| &line[r]);
                    match self.idna_for(scheme) {
                        Some(idna) => self.host_to_unicode(&s[h.clone()], idna, out, &mut o),
                        None => self.decode(line, h.clone(), Comp::Host, out, &mut o)?,
                    }
                    pos = h.end;
                }
            }
        }
        out.extend_from_slice(&line[pos..c.path.start]);
        self.decode(line, c.path.clone(), Comp::Other, out, &mut o)?;
        if let Some(q) = c.query.clone() {
            out.push(b'?');
            self.decode(line, q, Comp::Query, out, &mut o)?;
        }
        if let Some(f) = c.fragment.clone() {
            out.push(b'#');
            self.decode(line, f, Comp::Other, out, &mut o)?;
        }
        Ok(o)
    }

    fn idna_for(&self, scheme: Option<&[u8]>) -> Option<Idna> {
        self.opts.host.idna_for(scheme, self.opts.idna2003_flags)
    }

    /// 3987bis §4.2 step 7: ToUnicode of `xn--` labels, kept only if ToASCII gives back
    /// exactly this host (so that to-uri maps the result back to the input) and every
    /// character is displayable.
    fn host_to_unicode(&self, host: &str, idna: Idna, out: &mut Vec<u8>, o: &mut Outcome) {
        let has_ace = host
            .as_bytes()
            .windows(4)
            .any(|w| w.eq_ignore_ascii_case(b"xn--"));
        if has_ace && host.len() <= host::MAX_RAW_HOST {
            let unicode = match idna {
                Idna::Uts46 => {
                    let (u, r) = idna::uts46::Uts46::new().to_unicode(
                        host.as_bytes(),
                        idna::uts46::AsciiDenyList::STD3,
                        idna::uts46::Hyphens::Check,
                    );
                    r.ok().map(|()| u.into_owned())
                }
                Idna::Idna2003(flags) => {
                    let mut u = String::new();
                    idna2003::domain_to_unicode(host, flags, &mut u);
                    Some(u)
                }
            };
            // Display safety (issue 16, UTS #39): unsafe labels stay in their xn-- form.
            let unicode = unicode.and_then(|u| host::display::display_host(host, &u));
            if let Some(u) = unicode.filter(|u| u != host) {
                let mut back = String::new();
                let displayable = u.chars().all(|c| c.is_ascii() || is_displayable(c, false));
                if displayable && host::to_ascii(&u, idna, &mut back).is_ok() && back == host {
                    out.extend_from_slice(u.as_bytes());
                    o.changed = true;
                    return;
                }
            }
        }
        out.extend_from_slice(host.as_bytes());
    }

    /// Steps 2–4 on one component.
    fn decode(
        &mut self,
        line: &[u8],
        r: std::ops::Range<usize>,
        comp: Comp,
        out: &mut Vec<u8>,
        o: &mut Outcome,
    ) -> Result<(), LineError> {
        let s = &line[r.clone()];
        let n = s.len();
        let mark = out.len();
        self.decoded.clear();
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
            emit_octets(&s[i..j], &self.octets, comp, out, o);
            self.decoded.push(at..out.len() - mark);
            i = j;
            run = j;
        }
        out.extend_from_slice(&s[run..]);
        // Display safety (issue 16, UTS #39 skeletons): a decoded character that looks like a
        // delimiter goes back to its %HH form.
        let decoded = std::mem::take(&mut self.decoded);
        if !decoded.is_empty()
            && host::display::reencode_lookalikes_in(out, mark, |at| {
                decoded.iter().any(|r| r.contains(&at))
            })
        {
            o.changed = true;
        }
        self.decoded = decoded;
        self.decoded.clear();
        Ok(())
    }
}

/// Writes the decoded form of a run of `%HH` triplets (`text`, whose octets are `octets`).
fn emit_octets(text: &[u8], octets: &[u8], comp: Comp, out: &mut Vec<u8>, o: &mut Outcome) {
    let mut k = 0;
    while k < octets.len() {
        let b = octets[k];
        if b < 0x80 {
            if classes::is(b, classes::UNRESERVED) {
                out.push(b);
                o.changed = true;
            } else {
                // '%', reserved and disallowed ASCII stay encoded as written (step 2).
                out.extend_from_slice(&text[3 * k..3 * k + 3]);
            }
            k += 1;
            continue;
        }
        match decode_utf8(&octets[k..]) {
            Some((c, len)) if is_displayable(c, comp == Comp::Query) => {
                let mut buf = [0u8; 4];
                out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                o.changed = true;
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

/// Re-encoded octets use uppercase hex (RFC 3987 §3.2.1, third example).
fn push_upper(text: &[u8], out: &mut Vec<u8>, o: &mut Outcome) {
    for &t in text {
        let u = t.to_ascii_uppercase();
        if u != t {
            o.changed = true;
        }
        out.push(u);
    }
}
