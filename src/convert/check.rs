//! `check`: IRI validation (RFC 3987 §2.2, §4.1, §4.2, §6.1; 3987bis §5.1).
//!
//! A line is valid when:
//! 1. it matches `IRI-reference` (RFC 3987 §2.2) — or `URI-reference` (RFC 3986 §4.1) with
//!    `--uri`: scheme, authority, IP literal, port, well-formed `%HH`, only allowed
//!    characters in each component, `iprivate` only in the query, no bidi formatting
//!    characters (§4.1). This is the strict to-uri conversion run for its errors only.
//! 2. its host passes the chosen IDNA (RFC 3987 §3.1; 3987bis §3.4.2 decodes `%HH` first);
//!    an all-ASCII host of a DNS scheme must be a DNS name (contract item 2);
//! 3. each component follows RFC 3987 §4.2 (see [`crate::convert::bidi`] for the rules and
//!    the components, contract item 13): the userinfo; each host label; each path segment,
//!    the last one split at its last `.` (a file extension is a component of its own); in the
//!    query each name and each value (split at `&` and `;`, then at the first `=`); the
//!    fragment whole. A component does not mix right-to-left and left-to-right characters,
//!    and one with right-to-left characters starts and ends with one (the RFC says SHOULD,
//!    and §4.4 shows the violations as "not allowed": iribulk reports them as errors).
//!
//! Warnings (the line stays valid): compatibility characters (§6.1 b), a combining mark at
//! the start of a component, ZWJ/ZWNJ outside their RFC 5892 Appendix A context (3987bis §5.1;
//! see [`crate::convert::joiner`]), all on the same components.

use crate::config::{InvalidUtf8, ToUriOptions};
use crate::convert::bidi;
use crate::convert::to_uri::ToUri;
use crate::convert::Outcome;
use crate::error::{ErrorKind, IdnaReason, LineError};
use crate::grammar::components;
use crate::grammar::joiner;
use crate::host;
use std::ops::Range;
use unicode_normalization::UnicodeNormalization;

/// Options of `check`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CheckOptions {
    /// Host mode and IDNA flags (the other fields are set by the checker). Default: the
    /// [`ToUriOptions`] defaults.
    pub to_uri: ToUriOptions,
    /// Validate `URI-reference` (RFC 3986) instead of `IRI-reference`. Default `false`.
    pub uri_only: bool,
}

/// The validator. One per worker thread.
///
/// ```
/// use iribulk::convert::check::{Checker, CheckOptions};
/// let mut c = Checker::new(CheckOptions::default());
/// let mut out = Vec::new();
/// assert!(c.convert_into("http://bücher.de/ü".as_bytes(), &mut out).is_ok());
/// assert!(c.convert_into("http://a/\u{202E}".as_bytes(), &mut out).is_err());
/// ```
#[derive(Debug)]
pub struct Checker {
    opts: CheckOptions,
    conv: ToUri,
    scratch: Vec<u8>,
    /// Component ranges of the current line (reused: no allocation per line).
    comps: Vec<Range<usize>>,
}

impl Checker {
    /// A checker with these options.
    pub fn new(opts: CheckOptions) -> Self {
        let strict = opts
            .to_uri
            .strict(true)
            .leiri(false)
            .invalid_utf8(InvalidUtf8::Error)
            .host_fallback_percent(false);
        Checker {
            opts,
            conv: ToUri::new(strict),
            scratch: Vec::new(),
            comps: Vec::new(),
        }
    }

    /// Validates one line; a valid line is appended to `out` unchanged, with its warnings.
    pub fn convert_into(&mut self, line: &[u8], out: &mut Vec<u8>) -> Result<Outcome, LineError> {
        if self.opts.uri_only {
            if let Some(p) = line.iter().position(|&b| b >= 0x80) {
                return Err(LineError::new(ErrorKind::NonAscii, p));
            }
        }
        // The grammar: the strict conversion's errors. An ASCII line that is already a valid
        // URI reference needs no conversion to know it (the engine's twin-tested shortcut).
        if !(line.is_ascii() && crate::grammar::validate::is_valid_ascii_uri(line)) {
            self.scratch.clear();
            self.conv.convert_into(line, &mut self.scratch)?;
        }
        let s = std::str::from_utf8(line).expect("validated by the conversion");
        let c = components::split(line);
        let mut o = Outcome::default();
        let mut comps = std::mem::take(&mut self.comps);
        comps.clear();
        let r = self.check_components(line, s, &c, &mut comps, &mut o);
        self.comps = comps;
        r?;
        out.extend_from_slice(line);
        Ok(o)
    }

    fn check_components(
        &self,
        line: &[u8],
        s: &str,
        c: &components::Components,
        comps: &mut Vec<Range<usize>>,
        o: &mut Outcome,
    ) -> Result<(), LineError> {
        let mut host = None;
        if let Some(ar) = c.authority.clone() {
            let a = components::split_authority(line, ar).expect("validated by the conversion");
            if line.get(a.host.start) != Some(&b'[') {
                self.check_host(s, a.host.clone(), c.scheme.clone().map(|r| &line[r]))?;
                host = Some(a.host);
            }
        }
        if !line.is_ascii() {
            // RFC 3987 §4.2 with the components of contract item 13 (see `bidi`).
            bidi::check_line(s, c, comps)?;
            if comps.is_empty() {
                // `check_line` skipped the split (no right-to-left character): the warnings
                // still need the components.
                bidi::push_components(s, c, comps);
            }
            for r in comps.iter() {
                warn_chars(s, r.clone(), o);
            }
            // The label dots between the host's components: U+FF0E and U+FF61 are
            // compatibility characters too (NFKC gives '.'), warned in line order.
            if let Some(h) = host {
                for (i, ch) in s[h.clone()].char_indices() {
                    if !ch.is_ascii() && crate::host::is_label_dot(ch) && is_compat(ch) {
                        let w = LineError::new(ErrorKind::CompatChar, h.start + i);
                        o.warnings += 1;
                        if o.first_warning.is_none_or(|f| f.offset > w.offset) {
                            o.first_warning = Some(w);
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// Hosts must pass the chosen IDNA; an all-ASCII host of a DNS scheme must be a DNS name.
    fn check_host(&self, s: &str, r: Range<usize>, scheme: Option<&[u8]>) -> Result<(), LineError> {
        let host = &s[r.clone()];
        if host.is_empty() {
            return Ok(());
        }
        let t = &self.opts.to_uri;
        let Some(idna) = host::idna_for(t.host, scheme) else {
            return Ok(());
        };
        let err = |reason| LineError::new(ErrorKind::Idna(reason), r.start);
        let decoded;
        let name = if host.contains('%') {
            decoded = host::decode_host_percent(host).ok_or(err(IdnaReason::PercentNotUtf8))?;
            decoded.as_str()
        } else {
            host
        };
        if !name.is_ascii() {
            let mut tmp = String::new();
            return host::to_ascii(name, idna, &mut tmp).map_err(err);
        }
        if is_dns_name(name) {
            Ok(())
        } else {
            Err(err(IdnaReason::AsciiHostName))
        }
    }
}

/// An ASCII DNS name: labels of letters, digits and hyphens (STD3, RFC 1123 §2.1), not
/// starting or ending with a hyphen, 1–63 octets; ≤ 253 octets without a trailing root dot.
pub fn is_dns_name(name: &str) -> bool {
    let n = name.strip_suffix('.').unwrap_or(name);
    !n.is_empty()
        && n.len() <= 253
        && n.split('.').all(|l| {
            !l.is_empty()
                && l.len() <= 63
                && !l.starts_with('-')
                && !l.ends_with('-')
                && l.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
        })
}

/// True if NFKC changes `c` (a compatibility character). The quick-check table answers for
/// most characters; only "maybe" computes NFKC.
fn is_compat(c: char) -> bool {
    match unicode_normalization::is_nfkc_quick(std::iter::once(c)) {
        unicode_normalization::IsNormalized::Yes => false,
        unicode_normalization::IsNormalized::No => true,
        unicode_normalization::IsNormalized::Maybe => {
            std::iter::once(c).nfkc().ne(std::iter::once(c))
        }
    }
}

/// RFC 3987 §6.1 / 3987bis §5.1 warnings on one component.
fn warn_chars(s: &str, r: Range<usize>, o: &mut Outcome) {
    let comp = &s[r.clone()];
    for (i, c) in comp.char_indices() {
        if c.is_ascii() {
            continue;
        }
        let kind = if i == 0 && unicode_normalization::char::is_combining_mark(c) {
            Some(ErrorKind::LeadingCombining)
        } else if matches!(c, joiner::ZWNJ | joiner::ZWJ) && !joiner::in_context(comp, i) {
            Some(ErrorKind::JoinerContext)
        } else if is_compat(c) {
            Some(ErrorKind::CompatChar)
        } else {
            None
        };
        if let Some(k) = kind {
            o.warnings += 1;
            o.first_warning
                .get_or_insert(LineError::new(k, r.start + i));
        }
    }
}
