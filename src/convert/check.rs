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
//! see [`crate::grammar::joiner`]), all on the same components.
//!
//! Host integrity (issue 16): an `xn--` label that is not a valid A-label is the error
//! `bad-ace` (RFC 5891 §5.4: the Punycode decodes to a valid U-label that encodes back to the
//! same label); a port above 65535 or an `IPvFuture` literal in a special scheme is an error
//! (browsers refuse them); a host name browsers read as IPv4 (WHATWG URL §3.5 "ends in a
//! number", not an RFC 3986 `IPv4address`) warns `ambiguous-ipv4`; an `xn--` label that to-iri
//! keeps in ACE form for display safety (UTS #39; [`crate::host::display::check_label`]) warns
//! `display-unsafe`. The engine adds the checks of [`crate::convert::integrity`]
//! (`missing-host`, `browser-stripped`, ...) around every mode, `check` included.

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
            special_authority(line, c, &a)?;
            if line.get(a.host.start) != Some(&b'[') {
                self.check_host(s, a.host.clone(), c.scheme.clone().map(|r| &line[r]))?;
                bad_ace(s, a.host.clone())?;
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
            if let Some(h) = host.clone() {
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
        if let Some(h) = host {
            host_warnings(s, h, o);
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

/// What browsers refuse in the authority of a special scheme (WHATWG URL §4.1) that RFC 3986
/// allows: a port above 65535 (`bad-port`; RFC 3986 §3.2.3 has no bound, WHATWG URL §4.4 port
/// state fails) and an `IPvFuture` literal (`bad-ip-literal`; WHATWG URL §3.5 host parser
/// takes IPv6 only). Issue 16: `check` must not accept a line that browsers refuse.
fn special_authority(
    line: &[u8],
    c: &components::Components,
    a: &components::Authority,
) -> Result<(), LineError> {
    if !c
        .scheme
        .clone()
        .is_some_and(|r| components::is_special_scheme(&line[r]))
    {
        return Ok(());
    }
    if let Some(p) = a.port.clone() {
        let digits = &line[p.clone()];
        let big = digits.iter().skip_while(|&&b| b == b'0').count() > 5
            || std::str::from_utf8(digits)
                .ok()
                .and_then(|d| d.parse::<u32>().ok())
                .is_some_and(|n| n > 65535);
        if big {
            return Err(LineError::new(ErrorKind::BadPort, p.start));
        }
    }
    if matches!(
        line.get(a.host.start..a.host.start + 2),
        Some(b"[v") | Some(b"[V")
    ) {
        return Err(LineError::new(ErrorKind::BadIpLiteral, a.host.start));
    }
    Ok(())
}

/// `bad-ace` (module docs): the first `xn--` label of the host that is not a valid A-label
/// (RFC 5891 §5.4), an error at the label's start.
fn bad_ace(s: &str, r: Range<usize>) -> Result<(), LineError> {
    let host = &s[r.clone()];
    if let Some((i, _)) = crate::host::ace::first_bad_ace(host) {
        let at: usize = host.split('.').take(i).map(|l| l.len() + 1).sum();
        return Err(LineError::new(ErrorKind::BadAce, r.start + at));
    }
    Ok(())
}

/// The host-integrity warnings of `check` (module docs): `ambiguous-ipv4` and
/// `display-unsafe`. The first of them is the line's reported warning, before any character
/// warning (a compatibility character in the userinfo, an ignorable in the host): it says
/// that a browser reads another host, or none (issue 16).
fn host_warnings(s: &str, r: Range<usize>, o: &mut Outcome) {
    let host = &s[r.clone()];
    let mut first = true;
    let mut warn = |k, at| {
        o.warnings += 1;
        if std::mem::take(&mut first) {
            o.first_warning = Some(LineError::new(k, at));
        }
    };
    // What a browser reads: percent-decoded, UTS #46-mapped (or at least with the label
    // separators of RFC 3490 §3.1 as dots) before the IPv4 parser runs (WHATWG URL §3.5).
    let decoded = crate::host::decode_host_percent(host).unwrap_or_else(|| host.to_string());
    let mut mapped = String::new();
    if crate::host::to_ascii(&decoded, crate::host::Idna::Uts46, &mut mapped).is_err() {
        mapped = decoded.replace(crate::host::is_label_dot, ".");
    }
    if crate::convert::integrity::ends_in_number(mapped.as_bytes())
        && !components::is_ipv4(mapped.as_bytes())
    {
        warn(ErrorKind::AmbiguousIpv4, r.start);
    }
    let tld = host
        .trim_end_matches('.')
        .rsplit('.')
        .next()
        .unwrap_or_default();
    let mut at = r.start;
    for l in host.split('.') {
        if crate::host::ace::has_ace_prefix(l) {
            if let Ok(u) = crate::host::ace::check_ace_label(l) {
                if crate::host::display::check_label(&u, tld).is_err() {
                    warn(ErrorKind::DisplayUnsafe, at);
                    break;
                }
            }
        }
        at += l.len() + 1;
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
