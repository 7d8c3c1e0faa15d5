//! `check`: IRI validation (RFC 3987 §2.2, §4.1, §4.2, §6.1; 3987bis §5.1).
//!
//! A line is valid when:
//! 1. it matches `IRI-reference` (RFC 3987 §2.2) — or `URI-reference` (RFC 3986 §4.1) with
//!    `--uri`: scheme, authority, IP literal, port, well-formed `%HH`, only allowed
//!    characters in each component, `iprivate` only in the query, no bidi formatting
//!    characters (§4.1). This is the strict to-uri conversion run for its errors only
//!    (`ToUri::validate`: the same steps without writing the URI).
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

use crate::config::{HostMode, InvalidUtf8, ToUriOptions};
use crate::convert::bidi;
use crate::convert::integrity::LineHead;
use crate::convert::to_uri::ToUri;
use crate::convert::Outcome;
use crate::error::{ErrorKind, IdnaReason, LineError};
use crate::grammar::charmemo::CharMemo;
use crate::grammar::classes;
use crate::grammar::components::{self, SchemeClass};
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

/// [`Checker::convert_inner`]'s `utf8` for a caller that does not hold the line as text.
const NO_TEXT: Option<fn() -> Option<&'static str>> = None;

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
    /// Run the reference paths only (the naive twin, for tests).
    naive: bool,
    /// Run `check`'s own IDNA (host warnings, `%`-encoded hosts) without the host cache (the
    /// uncached twin, for tests; the naive twin is uncached too).
    uncached: bool,
    /// The mapped host of [`Checker::host_warnings`] (reused: no allocation per line).
    mapped: Vec<u8>,
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
            naive: false,
            uncached: false,
            mapped: Vec::new(),
        }
    }

    /// The naive twin: the same checks by the reference paths (the naive to-uri twin, the
    /// NFKC quick check per character, a second IDNA run per non-ASCII host, the DNS-name
    /// test by `split`). For tests that compare both; not meant for production use.
    #[cfg(any(test, feature = "twins"))]
    #[doc(hidden)]
    pub fn new_naive(opts: CheckOptions) -> Self {
        let mut c = Checker::new(opts);
        c.conv = ToUri::new_naive(*c.conv.options());
        c.naive = true;
        c
    }

    /// The uncached twin: `check`'s own IDNA runs (the host warnings' UTS #46 mapping, ToASCII
    /// of a `%`-encoded host) bypass the host cache of the strict conversion and convert every
    /// host again. For tests that compare cached and uncached reports; not meant for
    /// production use.
    #[cfg(any(test, feature = "twins"))]
    #[doc(hidden)]
    pub fn new_uncached(opts: CheckOptions) -> Self {
        let mut c = Checker::new(opts);
        c.uncached = true;
        c
    }

    /// [`quick_valid`] with this checker's host mode: the engine's shortcut.
    #[inline]
    pub fn quick_valid(&self, line: &[u8]) -> bool {
        quick_valid(line, self.opts.to_uri.host)
    }

    /// This checker's host mode: the engine's clean-line test for the lines its classifier
    /// found no flagged byte in is [`quick_valid_unflagged`] with it (taken once per chunk).
    #[inline]
    pub fn host_mode(&self) -> crate::config::HostMode {
        self.opts.to_uri.host
    }

    /// Host cache of the strict conversion, which `check`'s own IDNA runs share (hits, misses).
    pub fn cache_stats(&self) -> (u64, u64) {
        self.conv.cache_stats()
    }

    /// IDNA ToASCII of `host` (RFC 3987 §3.1; [`host::to_ascii`]) appended to `out`, through
    /// the strict conversion's per-converter host cache ([`host::HostCache`]): that conversion
    /// mapped the same host of the same line a moment ago, so a UTS #46 host is answered
    /// without a second IDNA run. The twins run it uncached. On error `out` is left as it was.
    fn host_to_ascii(
        &mut self,
        host: &str,
        idna: host::Idna,
        out: &mut Vec<u8>,
    ) -> Result<(), IdnaReason> {
        if self.naive || self.uncached {
            let mut s = String::new();
            let r = host::to_ascii(host, idna, &mut s);
            if r.is_ok() {
                out.extend_from_slice(s.as_bytes());
            }
            return r;
        }
        self.conv.host_cache().to_ascii(host, idna, out)
    }

    /// [`Checker::host_to_ascii`] of `name` (the host `host` as written, decoded) into the
    /// checker's scratch buffer, its failure the line's `idna` error at `at` (the host's
    /// first byte): the check of a host that the IDNA of the run maps.
    fn check_host_idna(
        &mut self,
        name: &str,
        idna: host::Idna,
        host: &str,
        at: usize,
    ) -> Result<(), LineError> {
        let mut tmp = std::mem::take(&mut self.mapped);
        tmp.clear();
        let res = self
            .host_to_ascii(name, idna, &mut tmp)
            .map_err(|reason| host::idna_error(reason, name, host.as_bytes(), at));
        self.mapped = tmp;
        res
    }

    /// Validates one line. A valid line is its own output: it passes through
    /// ([`crate::convert::Written::Passthrough`], `out` as it was), with its warnings.
    pub fn convert_into(&mut self, line: &[u8], out: &mut Vec<u8>) -> Result<Outcome, LineError> {
        self.convert_inner(line, NO_TEXT, None, out)
    }

    /// [`Checker::convert_into`] of a line whose head the caller (the
    /// [`Guard`](crate::convert::integrity::Guard)) has found: the strict conversion takes it
    /// ([`ToUri::convert_with_head`]: no second split of the scheme and authority, no search
    /// for `\` where the head proves there is none; issue 11). The same results as
    /// [`Checker::convert_into`], its twin (the test `check_with_head_equals_convert_into` in
    /// `tests/check_head.rs`).
    pub fn convert_with_head(
        &mut self,
        line: &[u8],
        head: &LineHead,
        out: &mut Vec<u8>,
    ) -> Result<Outcome, LineError> {
        self.convert_inner(line, NO_TEXT, Some(head), out)
    }

    /// The whole of the slow path (the engine's line handling, the
    /// [`Guard`](crate::convert::integrity::Guard)'s checks, [`Checker::convert_with_head`])
    /// in one call for the common crawl line (issue 11: "one pass per line where today there
    /// are several"): true when `line` has [`LineHead::crawl`]'s shape (`https://` or
    /// `http://`, a non-empty authority of `reg-name` bytes without `%` or of non-ASCII
    /// bytes, the last byte above the space) and is valid without a warning, so that the
    /// slow path would pass it through with nothing to count or report; false for every
    /// other line (the caller takes the slow path). For such a line the Guard's checks before
    /// the converter have nothing to find (nothing for a browser to strip, no `\` in the
    /// authority, no file URL, a host), and a valid line is its own output (its check of
    /// what was written has nothing to compare). The test `crawl_line_shortcut_equals_the_slow_path`
    /// (this module) compares it with the Guard around the checker, and
    /// `tests/engine.rs` the engine with its naive twin.
    ///
    /// `utf8` is asked for the line as text only where the strict conversion runs (not for
    /// an ASCII line that passes the ASCII grammar): `None` when it is not UTF-8 (the engine
    /// answers it from one validation of a run of lines, `Walk::utf8_line`; the twin test
    /// from `core::str::from_utf8`); the strict conversion then has no UTF-8 to validate
    /// ([`ToUri::validate_text`]), or validates the line itself and reports it.
    pub(crate) fn check_crawl_line<'a>(
        &mut self,
        line: &'a [u8],
        utf8: impl FnOnce() -> Option<&'a str>,
    ) -> bool {
        if self.naive {
            return false;
        }
        let Some(head) = LineHead::crawl(line) else {
            return false;
        };
        let mut scratch = Vec::new();
        self.convert_inner(line, Some(utf8), Some(&head), &mut scratch)
            .is_ok_and(|o| o == Outcome::default())
    }

    /// `utf8`: `line` as a `str`, asked where the strict conversion needs it, when the caller
    /// holds it so (`check_crawl_line`).
    fn convert_inner<'a>(
        &mut self,
        line: &'a [u8],
        utf8: Option<impl FnOnce() -> Option<&'a str>>,
        line_head: Option<&LineHead>,
        out: &mut Vec<u8>,
    ) -> Result<Outcome, LineError> {
        if self.opts.uri_only {
            if let Some(p) = line.iter().position(|&b| b >= 0x80) {
                return Err(LineError::new(ErrorKind::NonAscii, p));
            }
        }
        // The grammar: the strict conversion's errors. An ASCII line that is already a valid
        // URI reference needs no conversion to know it (the engine's twin-tested shortcut).
        let ascii = line.is_ascii();
        let parts = if ascii {
            crate::grammar::validate::valid_ascii_uri_split(line)
        } else {
            None
        };
        // What the strict conversion split (scheme, authority), kept for the split below.
        let mut head = None;
        if parts.is_none() {
            if self.naive {
                // The naive twin runs the whole conversion and discards the URI.
                self.scratch.clear();
                self.conv.convert_into(line, &mut self.scratch)?;
            } else {
                // The same errors without writing the URI (`ToUri::validate`; a line known
                // to be UTF-8, `check_crawl_line`'s, as text: `ToUri::validate_text`).
                head = match utf8.and_then(|f| f()) {
                    Some(t) => self.conv.validate_text(t, line_head, &mut self.scratch)?,
                    None => self.conv.validate(line, line_head, &mut self.scratch)?,
                };
            }
        }
        let s = if self.naive {
            std::str::from_utf8(line).expect("validated by the conversion")
        } else {
            debug_assert!(std::str::from_utf8(line).is_ok());
            // SAFETY: `line` is UTF-8: either it is ASCII (the shortcut above), or the strict
            // conversion returned `Ok`, and with `InvalidUtf8::Error` (set in `new`) it
            // returns an error for any line that is not UTF-8 (RFC 3987 §3.1 step 1c; its
            // first step, `simd::utf8::validate` over the whole line). A third validation
            // here cost 3 % of check's instructions on intl_cldr.
            unsafe { std::str::from_utf8_unchecked(line) }
        };
        // The components: those the ASCII shortcut found, those the strict conversion split
        // with the rest of the line split here, or split again (the grammar passed, so the
        // authority splits).
        let (c, auth) = match (parts, head) {
            (Some(p), _) if !self.naive => p,
            (_, Some((h, a))) if !self.naive => {
                // The rest of the split after the strict run's head; its twin is
                // `components::split` (the naive checker; the debug assertion compares them
                // on every line the tests check).
                let c = components::split_tail_memchr(line, h);
                debug_assert_eq!(c, components::split(line));
                (c, a)
            }
            _ => {
                let c = components::split(line);
                let a = c.authority.clone().map(|ar| {
                    components::split_authority(line, ar).expect("validated by the conversion")
                });
                (c, a)
            }
        };
        let mut o = Outcome::default();
        let mut comps = std::mem::take(&mut self.comps);
        comps.clear();
        let r = self.check_components(s, ascii, &c, auth, &mut comps, &mut o);
        self.comps = comps;
        r?;
        // A valid line is the output as it is: passed through, nothing written.
        let _ = out;
        Ok(o)
    }

    fn check_components(
        &mut self,
        s: &str,
        ascii: bool,
        c: &components::Components,
        auth: Option<components::Authority>,
        comps: &mut Vec<Range<usize>>,
        o: &mut Outcome,
    ) -> Result<(), LineError> {
        let line = s.as_bytes();
        let mut host = None;
        // What the host holds (`%`: 3987bis §3.4.2 decodes it before IDNA; non-ASCII; `xn--`),
        // asked once for all host checks.
        let mut facts = HostFacts::default();
        let mut unicode: Option<String> = None;
        if let Some(a) = auth {
            special_authority(line, c, &a)?;
            if line.get(a.host.start) != Some(&b'[') {
                let dns;
                (facts, dns) = host_scan(&line[a.host.clone()]);
                #[cfg(any(test, feature = "twins"))]
                if self.naive {
                    facts = HostFacts::of_naive(&line[a.host.clone()]);
                }
                let scheme = c.scheme.clone().map(|r| &line[r]);
                self.check_host(s, a.host.clone(), scheme, facts.pct, dns)?;
                // A host written in `%HH` is read decoded (3987bis §3.4.2; a browser decodes
                // it too): its `xn--` labels are checked below, once decoded, and not here as
                // written (`xn--bcher-kva%2Ede` is `xn--bcher-kva.de`, found by a QA sweep).
                let decoded = if facts.pct {
                    crate::host::decode_host_percent(&s[a.host.clone()])
                } else {
                    None
                };
                // Only a host holding `xn--` can have an `xn--` label (one byte pass instead
                // of a split at every `.`); the naive twin splits every host.
                if (self.naive || facts.ace) && decoded.is_none() {
                    // The host's UTS #46 ToUnicode by the fast path, once for `bad-ace` and
                    // for `display-unsafe` (`host_warnings`); the naive twin uses the crate.
                    if !self.naive {
                        unicode = crate::host::fast::to_unicode(&s[a.host.clone()]);
                    }
                    bad_ace(s, a.host.clone(), unicode.as_deref(), self.naive)?;
                }
                // A host written in `%HH` is read decoded (3987bis §3.4.2; a browser decodes
                // it too): an `xn--` label that only decoding spells (`%78n--kkg.com`) is
                // checked like one written as it is, the error at the host's first byte.
                if decoded.as_deref().is_some_and(|d| {
                    crate::host::contains_ace_prefix(d.as_bytes())
                        && crate::host::ace::first_bad_ace_naive(d).is_some()
                }) {
                    return Err(LineError::new(ErrorKind::BadAce, a.host.start));
                }
                // RFC 5893 §1.4, UTS #46 §4.1 criterion 8 (CheckBidi, which browsers set): an
                // `xn--` label that decodes to right-to-left characters makes the host a bidi
                // domain name, every label of which must keep the bidi rule, so labels valid
                // one by one can make a host that is not (`1.xn--4dbrk0ce` is `1.ישראל`,
                // refused in that spelling; found by a QA sweep). An all-ASCII host with an
                // ACE label is judged by that rule as its Unicode spelling is, in the run's
                // UTS #46 (IDNA2003 has no such rule across labels): the fast path's answer
                // (`unicode`) means it holds; otherwise [`host::ace::bidi_domain_fault`]
                // decides, the error at the label's first byte.
                // (`facts.ace`: the host as written holds `xn--`, one pass already made; a
                // split into labels of every host cost check 12 % on `intl_cldr`.)
                if unicode.is_none() && (facts.ace || decoded.is_some()) {
                    let name = decoded.as_deref().unwrap_or(&s[a.host.clone()]);
                    let uts46 =
                        host::idna_for(self.opts.to_uri.host, scheme) == Some(host::Idna::Uts46);
                    if uts46 && name.is_ascii() {
                        if let Some(f) = host::ace::bidi_domain_fault(name) {
                            let h = s[a.host.clone()].as_bytes();
                            return Err(host::idna_error(
                                IdnaReason::Uts46(f),
                                name,
                                h,
                                a.host.start,
                            ));
                        }
                    }
                }
                host = Some(a.host);
            }
        }
        if !ascii {
            // One walk over the line's characters for the warnings and the right-to-left
            // prefilter (the naive twin: none, every step on its own).
            let scan = if self.naive {
                LineScan {
                    warn: None,
                    rtl: None,
                }
            } else {
                scan_line(s)
            };
            // RFC 3987 §4.2 with the components of contract item 13 (see `bidi`): only a
            // component with a right-to-left character can break it.
            match scan.rtl {
                Some(false) => {}
                Some(true) => bidi::check_line_rtl(s, c, comps)?,
                None => bidi::check_line(s, c, comps)?,
            }
            // The walk counted the same warnings without the split; the host warnings below
            // run either way.
            let done = scan.warn.is_some();
            if let Some(w) = scan.warn {
                add_warnings(o, w);
            }
            if !done && comps.is_empty() {
                // `check_line` skipped the split (no right-to-left character): the warnings
                // still need the components.
                bidi::push_components(s, c, comps);
            }
            for r in comps.iter().filter(|_| !done) {
                if self.naive {
                    warn_chars(s, r.clone(), is_compat_naive, o);
                } else {
                    warn_chars(s, r.clone(), is_compat, o);
                }
            }
            // The label dots between the host's components: U+FF0E and U+FF61 are
            // compatibility characters too (NFKC gives '.'), warned in line order.
            if let Some(h) = host.clone().filter(|_| !done) {
                for (i, ch) in s[h.clone()].char_indices() {
                    let compat = |c| {
                        if self.naive {
                            is_compat_naive(c)
                        } else {
                            is_compat(c)
                        }
                    };
                    if !ch.is_ascii() && crate::host::is_label_dot(ch) && compat(ch) {
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
            // Browsers parse IPv4 only in the hosts of special schemes (WHATWG URL §3.5,
            // host parser with isOpaque false); a reference without a scheme may resolve
            // against a special base.
            let special = c
                .scheme
                .clone()
                .is_none_or(|r| components::is_special_scheme(&line[r]));
            self.host_warnings(s, h, facts, special, unicode.as_deref(), o);
        }
        Ok(())
    }

    /// Hosts must pass the chosen IDNA; an all-ASCII host of a DNS scheme must be a DNS name.
    /// `pct`: the host holds a `%`; `dns`: the host as written is a DNS name
    /// ([`is_dns_name`], asked by [`host_scan`]).
    fn check_host(
        &mut self,
        s: &str,
        r: Range<usize>,
        scheme: Option<&[u8]>,
        pct: bool,
        dns: bool,
    ) -> Result<(), LineError> {
        let host = &s[r.clone()];
        if host.is_empty() {
            return Ok(());
        }
        let mode = self.opts.to_uri.host;
        let idna = host::idna_for(mode, scheme);
        if mode == HostMode::Percent {
            return Ok(());
        }
        let err = |reason| LineError::new(ErrorKind::Idna(reason), r.start);
        // Percent-decoded once (3987bis §3.4.2): for the IDNA, and for the mapping check that
        // still runs without one (a `file` host in the auto mode, as `--strict` checks it).
        let decoded;
        let name = if pct {
            match host::decode_host_percent(host) {
                Some(d) => {
                    decoded = d;
                    decoded.as_str()
                }
                None if idna.is_some() => return Err(err(IdnaReason::PercentNotUtf8)),
                None => return Ok(()),
            }
        } else {
            host
        };
        let Some(idna) = idna else {
            return host_mapping_errors(name, mode, scheme, r.start, pct);
        };
        if !name.is_ascii() {
            if !self.naive && name.len() == host.len() {
                // No '%': the strict conversion already ran this IDNA on this host (its
                // `map_host`, same mode and scheme, no fallback) and would have failed the
                // line; a non-ASCII host makes the line non-ASCII, so it did run.
                return host_mapping_errors(name, mode, scheme, r.start, pct);
            }
            self.check_host_idna(name, idna, host, r.start)?;
            return host_mapping_errors(name, mode, scheme, r.start, pct);
        }
        // `--idna2003-no-std3` (UseSTD3ASCIIRules=FALSE, RFC 3490 §4.1 step 3): an ASCII
        // host is not held to STD3 either; its ToASCII decides, as in to-uri (a QA sweep:
        // `my_site.bücher.de` passed and its own ACE form `my_site.xn--bcher-kva.de` did not).
        if matches!(mode, HostMode::Idna2003(f) if !f.use_std3_ascii_rules) {
            return self.check_host_idna(name, idna, host, r.start);
        }
        let dns = if self.naive {
            is_dns_name_naive(name)
        } else if pct {
            is_dns_name(name)
        } else {
            // `name` is the host as written.
            dns
        };
        if dns {
            Ok(())
        } else {
            Err(err(IdnaReason::AsciiHostName))
        }
    }
    /// The host-integrity warnings of `check` (module docs): `ambiguous-ipv4` and
    /// `display-unsafe`. The first of them is the line's reported warning, before any character
    /// warning (a compatibility character in the userinfo, an ignorable in the host): it says
    /// that a browser reads another host, or none (issue 16).
    /// `facts`: what the host holds. `special`: the scheme is special or absent
    /// (`ambiguous-ipv4` is only for hosts a browser parses as IPv4: `foo://0x7f.1/` has the
    /// opaque host `0x7f.1`, WHATWG URL §3.5).
    /// `unicode`: the host's ToUnicode by the UTS #46 fast path, when `check_components` ran
    /// it (an `xn--` host) and it answered: each of its labels is then the U-label that
    /// `check_ace_label` gives for the host's label at the same place.
    fn host_warnings(
        &mut self,
        s: &str,
        r: Range<usize>,
        facts: HostFacts,
        special: bool,
        unicode: Option<&str>,
        o: &mut Outcome,
    ) {
        let pct = facts.pct;
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
        // An ASCII host without `%` maps only by ASCII case (or is refused and kept), which
        // changes neither digits nor dots: it is tested as written, without a UTS #46 run.
        // The UTS #46 run goes through the host cache ([`Checker::host_to_ascii`]).
        let mut mapped = std::mem::take(&mut self.mapped);
        mapped.clear();
        // A host the UTS #46 fast path accepted in the strict conversion a moment ago
        // ([`ToUri::host_accepted`]: no Punycode written) ends in a number exactly when its
        // ACE form does (its labels are split at `.` alone, their characters map to
        // themselves, an `xn--` label is no number: the argument of normalize's `idna_gate`),
        // so it is tested as written (issue 11).
        let accepted = !pct && !facts.ascii && !self.naive && self.conv.host_accepted(&r);
        let m: &[u8] = if (pct || !facts.ascii) && !accepted {
            let decoded = if pct {
                std::borrow::Cow::Owned(
                    crate::host::decode_host_percent(host).unwrap_or_else(|| host.to_string()),
                )
            } else {
                std::borrow::Cow::Borrowed(host)
            };
            if self
                .host_to_ascii(&decoded, crate::host::Idna::Uts46, &mut mapped)
                .is_err()
            {
                mapped.clear();
                mapped
                    .extend_from_slice(decoded.replace(crate::host::is_label_dot, ".").as_bytes());
            }
            &mapped
        } else {
            host.as_bytes()
        };
        if special && ends_in_number(m) && !components::is_ipv4(m) {
            warn(ErrorKind::AmbiguousIpv4, r.start);
        }
        self.mapped = mapped;
        // `display-unsafe` needs an `xn--` label (see `bad_ace` in `check_components`).
        if !self.naive && !facts.ace {
            return;
        }
        // Labels at the four label dots of RFC 3490 §3.1 (`xn--80ak6aa92e。com` has the
        // A-label `xn--80ak6aa92e`); the TLD is the last non-empty one.
        // None for a host of one label ([`crate::host::display::tld_of`]).
        let mut named = crate::host::labels(host)
            .map(|(_, l)| l)
            .filter(|l| !l.is_empty());
        named.next();
        let tld = named.last().unwrap_or_default();
        // The TLD as to-iri judges it: in Unicode (`xn--p1ai` is `рф`, a Cyrillic TLD under
        // which `аррӏе` is shown; `ｔｒ` is `tr`; found by a QA sweep).
        let tld_unicode = (!tld.is_ascii() || crate::host::ace::has_ace_prefix(tld))
            .then(|| crate::host::to_unicode(tld, crate::host::Idna::Uts46))
            .flatten();
        let tld = tld_unicode.as_deref().unwrap_or(tld);
        let mut shown = unicode.map(|u| u.split('.'));
        // The host as to-iri shows it (each label decoded that would be), when a decoded
        // label holds right-to-left text.
        let mut rtl = false;
        for (k, l) in crate::host::labels(host) {
            let at = r.start + k;
            let fast = shown.as_mut().and_then(Iterator::next);
            if crate::host::ace::has_ace_prefix(l) {
                let u = match fast {
                    Some(u) => Some(std::borrow::Cow::Borrowed(u)),
                    None => crate::host::ace::check_ace_label(l).ok().map(Into::into),
                };
                if let Some(u) = u {
                    if crate::host::display::check_label(&u, tld).is_err() {
                        warn(ErrorKind::DisplayUnsafe, at);
                        return;
                    }
                    rtl |= crate::convert::bidi::may_contain_rtl(u.as_bytes());
                }
            }
        }
        // A right-to-left host before a number, which to-iri keeps in `xn--` form
        // (`bidi::rtl_host_before_number`): `http://xn--4dbrk0ce/8.8.8.8/` would be shown
        // with `8.8.8.8` in the host's place.
        if rtl {
            // The fast path's ToUnicode of the whole host when it answered (its labels are
            // the U-labels of the host's labels, in order), else each `xn--` label decoded.
            let built;
            let shown: &str = match unicode {
                Some(u) => u,
                None => {
                    built = crate::host::labels(host)
                        .map(|(_, l)| {
                            let u = crate::host::ace::has_ace_prefix(l)
                                .then(|| crate::host::ace::check_ace_label(l).ok())
                                .flatten();
                            u.map_or(std::borrow::Cow::Borrowed(l), Into::into)
                        })
                        .collect::<Vec<_>>()
                        .join(".");
                    &built
                }
            };
            // What follows the host as to-iri would show it: `%HH` of non-ASCII and
            // unreserved characters decoded, `%2F` kept (QA sweeps: `/%D9%A8`, an
            // Arabic-Indic digit, passed silently; then `/%2F` did, whose `2` shows).
            let after = crate::grammar::pct::decode_shown_lossy(&s.as_bytes()[r.end..]);
            let label = crate::convert::bidi::rtl_host_before_number(shown, &after)
                .and_then(|p| crate::host::labels(host).nth(shown[..p].matches('.').count()));
            if let Some((k, _)) = label.filter(|(_, l)| crate::host::ace::has_ace_prefix(l)) {
                warn(ErrorKind::DisplayUnsafe, r.start + k);
            }
        }
    }
}

/// What a host (not an IP literal) holds, for the host checks of [`Checker`]: one pass over
/// its bytes instead of one per question. [`HostFacts::of_naive`] is its twin.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[doc(hidden)]
pub struct HostFacts {
    /// A `%` (3987bis §3.4.2: the host is percent-decoded before IDNA).
    pub pct: bool,
    /// Only ASCII bytes.
    pub ascii: bool,
    /// [`host::contains_ace_prefix`]: `xn--` somewhere, in any ASCII case (RFC 3490 §5).
    pub ace: bool,
}

impl Default for HostFacts {
    /// An empty host.
    fn default() -> Self {
        HostFacts {
            pct: false,
            ascii: true,
            ace: false,
        }
    }
}

impl HostFacts {
    /// One pass over `h` OR-ing the byte classes of [`HOST_FACT`]; `xn--` is looked for only
    /// when the host has a `-`.
    #[inline]
    pub fn of(h: &[u8]) -> HostFacts {
        let acc = h.iter().fold(0u8, |a, &b| a | HOST_FACT[b as usize]);
        HostFacts {
            pct: acc & FACT_PCT != 0,
            ascii: acc & FACT_HIGH == 0,
            ace: acc & FACT_HYPHEN != 0 && ace_prefix(h),
        }
    }

    /// The twin of [`HostFacts::of`]: each question asked on its own, as the checker did.
    #[cfg(any(test, feature = "twins"))]
    pub fn of_naive(h: &[u8]) -> HostFacts {
        HostFacts {
            pct: h.contains(&b'%'),
            ascii: h.is_ascii(),
            ace: host::contains_ace_prefix(h),
        }
    }
}

/// [`host::contains_ace_prefix`] without a case-folding compare of every 4-byte window: a
/// window is `xn--` in any case when its last two bytes are `-` and its first two are `x`
/// and `n` with the ASCII case bit (0x20) set (only `x`/`X` and `n`/`N` give those).
#[inline]
fn ace_prefix(h: &[u8]) -> bool {
    h.windows(4)
        .any(|w| w[3] == b'-' && w[2] == b'-' && w[1] | 0x20 == b'n' && w[0] | 0x20 == b'x')
}

/// The byte classes of [`HostFacts::of`].
static HOST_FACT: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = if i >= 0x80 {
            FACT_HIGH
        } else if i == b'%' as usize {
            FACT_PCT
        } else if i == b'-' as usize {
            FACT_HYPHEN
        } else {
            0
        };
        i += 1;
    }
    t
};
const FACT_PCT: u8 = 1;
const FACT_HIGH: u8 = 2;
const FACT_HYPHEN: u8 = 4;

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
        if port_too_big(&line[p.clone()]) {
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

/// The engine's shortcut for `check` (issue 11): true when `check` as the engine runs it (the
/// [`Checker`] inside its [`crate::convert::integrity::Guard`], no base, no `--trim` needed)
/// finds `line` valid with no warning, so that it is written as it is without running either.
/// `false` only means "ask the checker"; the tests of `tests/check_shortcut.rs` hold it to
/// that (every line it passes gets `Ok` with no warning from the naive checker in its Guard,
/// and the engine with the shortcut writes and reports what its naive twin does).
///
/// What it proves, each the condition under which the check it names has nothing to say:
/// * the Guard ([`crate::convert::integrity`]): no C0 control or space at either end and no
///   TAB, CR, LF or `\` (`browser-stripped`, `backslash-authority`); a non-empty host for
///   `http https ws wss ftp` (`missing-host`); no port and no `:` in the path of a `file` URI
///   (`bad-port`; a drive-letter segment, RFC 8089 Appendix E.2, needs a `:` or a `|`);
/// * the grammar (RFC 3986 §3, §4.1; `grammar::validate::valid_ascii_uri_split`, the
///   checker's own shortcut for ASCII lines): only URI characters, `%HH`, one `#` at most,
///   brackets only around an IP literal, a valid scheme, a digit port;
/// * the host checks of [`Checker`]: a port ≤ 65535 and no `IPvFuture` in a special scheme;
///   a host without `%` (3987bis §3.4.2 would decode it first); a DNS name where the host mode
///   asks for one (contract item 2); no label starting `xn--` (`bad-ace`, `display-unsafe`);
///   not a name a browser reads as IPv4 (`ambiguous-ipv4`, WHATWG URL §3.5).
///
/// A line without `% # [ ]` (nearly every crawl line) is split by one walk over its scheme
/// and authority (RFC 3986 Appendix B: `^(([^:/?#]+):)?(//([^/?#]*))?`) instead of
/// [`components::split`] and [`components::split_authority`]; one with them, or with a
/// userinfo, by `valid_ascii_uri_split`.
pub fn quick_valid(line: &[u8], host_mode: HostMode) -> bool {
    line.iter().all(|&b| classes::is_uri_char(b)) && quick_valid_unflagged(line, host_mode)
}

/// [`quick_valid`] for a line whose bytes are all URI characters (RFC 3986 §2: unreserved,
/// reserved, `%`), except perhaps the last: the lines in which the engine's classifier found
/// no byte of [`crate::engine::lines::LEIRI_FLAGGED`] (a CR before the line feed is not
/// flagged, and is refused here as the end of a line).
#[inline]
pub fn quick_valid_unflagged(line: &[u8], host_mode: HostMode) -> bool {
    let n = line.len();
    match (line.first(), line.last()) {
        (Some(&f), Some(&l)) if f > b' ' && l > b' ' => {}
        _ => return false,
    }
    debug_assert!(line.iter().all(|&b| classes::is_uri_char(b)), "{line:?}");
    let Some(m) = crate::grammar::validate::head_masks(line) else {
        return quick_general(line, host_mode);
    };
    // No `#`, `[`, `]`, `%`: the scheme ends at the first `:` that comes before every `/` and
    // `?` (RFC 3986 §3.1, Appendix B). The masks hold the first 64 bytes; a head that runs
    // further takes the general path.
    let lim = n.min(64);
    let first = (m.term | m.colon).trailing_zeros() as usize;
    if first >= lim && n > 64 {
        return quick_general(line, host_mode);
    }
    let mut scheme = None;
    let mut rest = 0;
    if first < lim && m.colon & (1 << first) != 0 {
        // `components::check_scheme`: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) (the special
        // schemes are); a line that starts with `:` is no relative reference either.
        let sch = &line[..first];
        if first == 0
            || components::scheme_class(sch) == SchemeClass::Other
                && !(sch[0].is_ascii_alphabetic()
                    && sch[1..].iter().all(|&b| classes::is(b, classes::SCHEME)))
        {
            return false;
        }
        scheme = Some(0..first);
        rest = first + 1;
    }
    // A `:` after `from` (in the path or the query): only `file` asks.
    let colon_from = |from: usize| m.colon_after || (from < 64 && m.colon >> from != 0);
    if !line[rest..].starts_with(b"//") {
        return quick_tail(line, scheme, None, colon_from(rest), host_mode);
    }
    // The authority (RFC 3986 §3.2) up to the first `/` or `?`: `host [ ":" port ]`; a
    // userinfo (`@`) takes the general path.
    let a0 = rest + 2;
    if a0 >= 64 {
        return quick_general(line, host_mode);
    }
    let after = m.term >> a0;
    let end = if after != 0 {
        a0 + after.trailing_zeros() as usize
    } else if n <= 64 {
        n
    } else {
        return quick_general(line, host_mode);
    };
    // The bits of the authority, `a0..end` (`end` ≤ 64).
    let inside = if end == a0 {
        0
    } else {
        (u64::MAX >> (64 - (end - a0))) << a0
    };
    if m.at & inside != 0 {
        return quick_general(line, host_mode);
    }
    let colon = m.colon & inside;
    let hend = if colon != 0 {
        colon.trailing_zeros() as usize
    } else {
        end
    };
    let auth = components::Authority {
        userinfo: None,
        host: a0..hend,
        port: (colon != 0).then(|| hend + 1..end),
    };
    // §3.2.3 `port = *DIGIT` (`split_authority`'s `bad-port`).
    if let Some(p) = auth.port.clone() {
        if !line[p].iter().all(u8::is_ascii_digit) {
            return false;
        }
    }
    quick_tail(line, scheme, Some(auth), colon_from(end), host_mode)
}

/// [`quick_valid`] for a line with `% # [ ]`, a userinfo, or a byte outside the URI
/// characters: split and validated by [`crate::grammar::validate::valid_ascii_uri_split`],
/// exactly as the checker does for an ASCII line.
#[cold]
fn quick_general(line: &[u8], host_mode: HostMode) -> bool {
    let Some((c, auth)) = crate::grammar::validate::valid_ascii_uri_split(line) else {
        return false;
    };
    let colon = memchr::memchr(b':', &line[c.path.clone()]).is_some();
    if auth.as_ref().is_some_and(|a| {
        let h = &line[a.host.clone()];
        h.first() != Some(&b'[') && memchr::memchr(b'%', h).is_some()
    }) {
        // 3987bis §3.4.2: the checker decodes the host first.
        return false;
    }
    quick_tail(line, c.scheme, auth, colon, host_mode)
}

/// The checks of [`quick_valid`] after the split: the Guard's (`missing-host`, a `file`
/// port or drive letter) and the checker's authority and host checks. `path_colon`: the path
/// (or the path and what follows it) holds a `:`, which only matters to a `file` line (a
/// drive letter, RFC 8089 Appendix E.2). The host holds no `%`.
#[inline]
fn quick_tail(
    line: &[u8],
    scheme: Option<Range<usize>>,
    auth: Option<components::Authority>,
    path_colon: bool,
    host_mode: HostMode,
) -> bool {
    let scheme = scheme.map(|r| &line[r]);
    let class = scheme.map_or(SchemeClass::Other, components::scheme_class);
    match class {
        SchemeClass::NetSpecial => {
            if auth.as_ref().is_none_or(|a| a.host.is_empty()) {
                return false;
            }
        }
        SchemeClass::File => {
            if auth.as_ref().is_some_and(|a| a.port.is_some()) || path_colon {
                return false;
            }
        }
        SchemeClass::Other => {}
    }
    let Some(a) = auth else {
        return true;
    };
    let special = class != SchemeClass::Other;
    if special && a.port.is_some_and(|p| port_too_big(&line[p])) {
        return false;
    }
    let h = &line[a.host];
    if h.first() == Some(&b'[') {
        // An IP literal (checked by the grammar): only `IPvFuture` is refused, and only in
        // a special scheme.
        return !(special && matches!(h.get(1), Some(b'v' | b'V')));
    }
    // `host::idna_for(host_mode, scheme).is_some()` without its scheme list for the schemes
    // of the special classes (all but `file` are DNS schemes).
    let dns = match (host_mode, class) {
        (HostMode::Percent, _) => false,
        (HostMode::Auto, SchemeClass::NetSpecial) => true,
        (HostMode::Auto, SchemeClass::File) => false,
        _ => host::idna_for(host_mode, scheme).is_some(),
    };
    host_quick(h, dns)
}

/// One pass over an ASCII host without `%` (not an IP literal): true when the checker has
/// nothing to say of it. With `dns`, it is a DNS name ([`is_dns_name`]); no label starts
/// with `xn--` in any case (RFC 5890 §2.3.1; no `bad-ace`, no `display-unsafe`); and it does
/// not end in a number (WHATWG URL §3.5; `ambiguous-ipv4` unless it is an RFC 3986
/// `IPv4address`). [`host_quick_naive`] is its twin.
#[inline]
fn host_quick(h: &[u8], dns: bool) -> bool {
    let n = h.len();
    if n == 0 {
        return true; // nothing to check: only a missing host, found before
    }
    if dns && n > 254 {
        return false;
    }
    // A label starting at `at` may not start with `xn--` (any case), nor with `-` in a DNS
    // name (STD3).
    let bad_start = |at: usize| {
        h.get(at..at + 4).is_some_and(|w| {
            w[0] | 0x20 == b'x' && w[1] | 0x20 == b'n' && w[2] == b'-' && w[3] == b'-'
        }) || dns && h.get(at) == Some(&b'-')
    };
    if bad_start(0) {
        return false;
    }
    // Start of the current label and of the one before it.
    let (mut label, mut prev) = (0, 0);
    for (i, &x) in h.iter().enumerate() {
        let c = HOST_BYTE[x as usize];
        if c == ALNUM {
            continue;
        }
        if c == DOT {
            if dns && (i == label || i - label > 63 || h[i - 1] == b'-') {
                return false;
            }
            prev = label;
            label = i + 1;
            if bad_start(label) {
                return false;
            }
        } else if dns && c != HYPHEN {
            return false;
        }
    }
    if dns {
        // The last label (none after a root dot); at most 253 octets without the root dot.
        let ok = if label == n {
            (2..=254).contains(&n)
        } else {
            n <= 253 && n - label <= 63 && h[n - 1] != b'-'
        };
        if !ok {
            return false;
        }
    }
    // A name that ends in a number ends in a part that starts with a digit (decimal, `0x`
    // hex, `0` octal): only then is the WHATWG test run.
    let last = if label == n { prev } else { label };
    if h.get(last).is_some_and(u8::is_ascii_digit) {
        return !ambiguous_ipv4(h);
    }
    true
}

/// [`crate::convert::integrity::ends_in_number`] (WHATWG URL §3.5) asked only of a host whose
/// last byte (before one root dot) can end a number: a hex digit, or the `x` of an empty
/// `0x` (the last part is decimal digits, `0x` and hex digits, or `0` and octal digits).
/// Nearly every name ends in a letter of its top-level domain that is none of those. The
/// test `ends_in_number_matches_twin` compares them.
#[inline]
fn ends_in_number(h: &[u8]) -> bool {
    let t = h.strip_suffix(b".").unwrap_or(h);
    t.last()
        .is_some_and(|&b| b.is_ascii_hexdigit() || b | 0x20 == b'x')
        && crate::convert::integrity::ends_in_number(h)
}

/// The classes of host bytes for [`host_quick`]: a letter or digit (RFC 1123 §2.1; one load
/// and compare per byte for nearly every byte), a dot, a hyphen, anything else.
static HOST_BYTE: [u8; 256] = {
    let mut t = [OTHER; 256];
    let mut i = 0;
    while i < 256 {
        let b = i as u8;
        t[i] = if b.is_ascii_alphanumeric() {
            ALNUM
        } else if b == b'.' {
            DOT
        } else if b == b'-' {
            HYPHEN
        } else {
            OTHER
        };
        i += 1;
    }
    t
};
const ALNUM: u8 = 0;
const DOT: u8 = 1;
const HYPHEN: u8 = 2;
const OTHER: u8 = 3;

/// The host-integrity warning `ambiguous-ipv4` of [`Checker`] on an ASCII host without `%`:
/// it ends in a number (WHATWG URL §3.5) and is no RFC 3986 `IPv4address`.
fn ambiguous_ipv4(h: &[u8]) -> bool {
    crate::convert::integrity::ends_in_number(h) && !components::is_ipv4(h)
}

/// The twin of [`host_quick`]: [`is_dns_name_naive`], [`host::has_ace_label`], and the
/// WHATWG and RFC 3986 IPv4 tests, each as the checker runs it.
#[cfg(any(test, feature = "twins"))]
#[doc(hidden)]
pub fn host_quick_naive(h: &[u8], dns: bool) -> bool {
    let s = std::str::from_utf8(h).expect("an ASCII host");
    let dns_ok = !dns || h.is_empty() || is_dns_name_naive(s);
    dns_ok && !host::has_ace_label(s) && !ambiguous_ipv4(h)
}

/// [`host_quick`], public for the tests that compare it with its twin.
#[cfg(any(test, feature = "twins"))]
#[doc(hidden)]
pub fn host_quick_fast(h: &[u8], dns: bool) -> bool {
    host_quick(h, dns)
}

/// A port (its digits) above 65535, leading zeros ignored: [`special_authority`]'s
/// `bad-port`.
fn port_too_big(digits: &[u8]) -> bool {
    digits.iter().skip_while(|&&b| b == b'0').count() > 5
        || std::str::from_utf8(digits)
            .ok()
            .and_then(|d| d.parse::<u32>().ok())
            .is_some_and(|n| n > 65535)
}

/// `bad-ace` (module docs): the first `xn--` label of the host that is not a valid A-label
/// (RFC 5891 §5.4), an error at the label's start; `unicode` is the host's fast-path
/// ToUnicode if it answered ([`crate::host::ace::first_bad_ace_with`]). The naive twin checks
/// every label with the crate ([`crate::host::ace::first_bad_ace_naive`]).
fn bad_ace(s: &str, r: Range<usize>, unicode: Option<&str>, naive: bool) -> Result<(), LineError> {
    let host = &s[r.clone()];
    let bad = if naive {
        crate::host::ace::first_bad_ace_naive(host)
    } else {
        crate::host::ace::first_bad_ace_with(host, unicode)
    };
    if let Some((at, _)) = bad {
        return Err(LineError::new(ErrorKind::BadAce, r.start + at));
    }
    Ok(())
}

/// An ASCII DNS name: labels of letters, digits and hyphens (STD3, RFC 1123 §2.1), not
/// starting or ending with a hyphen, 1–63 octets; ≤ 253 octets without a trailing root dot.
///
/// One pass of [`DNS_DFA`] over the bytes (the label lengths in a second pass, only for a
/// name longer than 63 octets); [`is_dns_name_naive`] is its twin.
pub fn is_dns_name(name: &str) -> bool {
    dns_name_bytes(name.as_bytes()).0
}

/// [`is_dns_name`] of `b`, and whether `b` holds a `-` (for [`host_scan`]): by masks for a
/// name of at most 64 bytes (nearly every host), else by [`DNS_DFA`].
#[inline]
fn dns_name_bytes(b: &[u8]) -> (bool, bool) {
    if (1..=64).contains(&b.len()) {
        dns_name_masks(b)
    } else {
        dns_name_dfa(b)
    }
}

/// [`dns_name_bytes`] of 1 to 64 bytes by 64-bit masks of the letters and digits, hyphens and
/// dots ([`dns_masks16`](crate::simd::delims::dns_masks16)): RFC 1123 §2.1's rules as bit
/// tests, with no chain of dependent loads (the automaton's loop was about half of
/// `convert_with_head`'s samples in check on `intl_cldr`, issue 11). A dot follows a letter
/// or digit (so no label is empty and none ends with a hyphen), a hyphen follows a letter,
/// digit or hyphen (so no label starts with one), and the name ends with a letter or digit
/// or a root dot; 64 bytes without a dot are one label too long. Twins: [`dns_name_dfa`] and
/// [`is_dns_name_naive`] (the test `dns_name_matches_twin`).
#[inline]
fn dns_name_masks(b: &[u8]) -> (bool, bool) {
    use crate::simd::delims::dns_masks16;
    let n = b.len();
    debug_assert!((1..=64).contains(&n));
    let p = crate::simd::padded::<64>(b);
    let (mut alnum, mut hyphen, mut dot) = (0u64, 0u64, 0u64);
    for (k, block) in p.chunks_exact(16).take(n.div_ceil(16)).enumerate() {
        let (a, h, d) = dns_masks16(block.try_into().expect("16 bytes"));
        alnum |= u64::from(a) << (16 * k);
        hyphen |= u64::from(h) << (16 * k);
        dot |= u64::from(d) << (16 * k);
    }
    let all = u64::MAX >> (64 - n);
    let last = 1u64 << (n - 1);
    let ok = alnum | hyphen | dot == all
        && dot & !(alnum << 1) == 0
        && hyphen & !((alnum | hyphen) << 1) == 0
        && (alnum | dot) & last != 0
        && (n < 64 || dot != 0);
    (ok, hyphen != 0)
}

/// [`dns_name_bytes`] by one pass of [`DNS_DFA`] (the label lengths in a second pass, only for
/// a name longer than 63 octets): names longer than 64 bytes, and the twin of
/// [`dns_name_masks`].
fn dns_name_dfa(b: &[u8]) -> (bool, bool) {
    let st = b.iter().fold(D_START, |st, &x| {
        DNS_DFA[usize::from(st & 15)][usize::from(x)]
    });
    let hyphen = st & D_HYPHEN_SEEN != 0;
    if !matches!(st & !D_HYPHEN_SEEN, D_ALNUM | D_DOT) {
        return (false, hyphen);
    }
    // Accepted: only letters, digits, hyphens and dots, and each label starts and ends with
    // a letter or digit. A name of at most 63 octets has no longer label.
    let b = b.strip_suffix(b".").unwrap_or(b);
    let ok = b.len() <= 63 || b.len() <= 253 && b.split(|&x| x == b'.').all(|l| l.len() <= 63);
    (ok, hyphen)
}

/// The states of [`DNS_DFA`]: a label must start (the name's start, or after a dot), after a
/// letter or digit, after a hyphen, refused; plus the bit "a hyphen was seen".
const D_START: u8 = 0;
const D_DOT: u8 = 1;
const D_ALNUM: u8 = 2;
const D_HYPHEN: u8 = 3;
const D_BAD: u8 = 4;
const D_HYPHEN_SEEN: u8 = 8;

/// The automaton of [`is_dns_name`] (RFC 1123 §2.1 labels; one table load per byte): a
/// label starts with a letter or digit, a dot follows a letter or digit, a hyphen follows
/// a letter, digit or hyphen, any other byte refuses. The name is a DNS name (lengths aside)
/// when it ends after a letter or digit, or after a dot (the root dot) that follows one.
/// 16 rows (the state with its hyphen bit) of 256 bytes.
static DNS_DFA: [[u8; 256]; 16] = {
    let mut t = [[D_BAD; 256]; 16];
    let mut st = 0;
    while st < 16 {
        let seen = st as u8 & D_HYPHEN_SEEN;
        let base = st as u8 & !D_HYPHEN_SEEN;
        let mut x = 0;
        while x < 256 {
            let class = HOST_BYTE[x];
            let next = match base {
                D_START | D_DOT => {
                    if class == ALNUM {
                        D_ALNUM
                    } else {
                        D_BAD
                    }
                }
                D_ALNUM => match class {
                    ALNUM => D_ALNUM,
                    DOT => D_DOT,
                    HYPHEN => D_HYPHEN,
                    _ => D_BAD,
                },
                D_HYPHEN => match class {
                    ALNUM => D_ALNUM,
                    HYPHEN => D_HYPHEN,
                    _ => D_BAD,
                },
                _ => D_BAD,
            };
            let hyphen = if x == b'-' as usize { D_HYPHEN_SEEN } else { 0 };
            t[st][x] = next | seen | hyphen;
            x += 1;
        }
        st += 1;
    }
    t
};

/// What a host (not an IP literal) holds and whether it is a DNS name as written
/// ([`is_dns_name`]), in one pass of [`DNS_DFA`] for nearly every host (a DNS name has no
/// `%` and no non-ASCII byte; `xn--` needs a hyphen); any other host is asked
/// [`HostFacts::of`]. Twin: [`HostFacts::of_naive`] and [`is_dns_name_naive`] (the test
/// `host_scan_matches_twins`).
#[inline]
fn host_scan(h: &[u8]) -> (HostFacts, bool) {
    let (dns, hyphen) = dns_name_bytes(h);
    if dns {
        let facts = HostFacts {
            pct: false,
            ascii: true,
            ace: hyphen && ace_prefix(h),
        };
        return (facts, true);
    }
    (HostFacts::of(h), false)
}

/// The twin of [`is_dns_name`], rule by rule.
pub fn is_dns_name_naive(name: &str) -> bool {
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

/// True if NFKC changes `c` (a compatibility character, RFC 3987 §6.1 b; UAX #15 §9).
///
/// Answered by a [`CharMemo`] of [`is_compat_fill`] (the test
/// `compat_memo_matches_twin_on_every_code_point` compares it with [`is_compat_naive`] on
/// every code point): the per-character quick check it replaces cost ~350 instructions; this
/// is an atomic load and a bit test.
#[inline]
pub(crate) fn is_compat(c: char) -> bool {
    static MEMO: CharMemo = CharMemo::new(is_compat_fill);
    MEMO.get(c)
}

/// [`is_compat_naive`] for filling the memos a page at a time, asked only of the characters
/// that decompose. NFKC is the canonical composition of the compatibility decomposition
/// (UAX #15 §1.2): a character that NFKD gives back alone has nothing to compose with and is
/// its own NFKC, and a precomposed Hangul syllable decomposes and recomposes algorithmically
/// (Unicode §3.12, Conjoining Jamo Behavior) to itself. One decomposition lookup instead
/// of the ~350-instruction quick check for nearly every character: the memos' first use cost
/// `check` 12 M instructions on intl_cldr.txt.
fn is_compat_fill(c: char) -> bool {
    if ('\u{AC00}'..='\u{D7A3}').contains(&c) {
        return false;
    }
    let (mut n, mut alone) = (0, true);
    unicode_normalization::char::decompose_compatible(c, |d| {
        n += 1;
        alone &= d == c;
    });
    !(n == 1 && alone) && is_compat_naive(c)
}

/// The obviously correct twin of [`is_compat`]: the quick-check table answers for most
/// characters; only "maybe" computes NFKC.
pub(crate) fn is_compat_naive(c: char) -> bool {
    match unicode_normalization::is_nfkc_quick(std::iter::once(c)) {
        unicode_normalization::IsNormalized::Yes => false,
        unicode_normalization::IsNormalized::No => true,
        unicode_normalization::IsNormalized::Maybe => {
            std::iter::once(c).nfkc().ne(std::iter::once(c))
        }
    }
}

/// What [`scan_line`] found in one walk over a line's characters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct LineScan {
    /// The compatibility-character warnings of the whole line (their number and the offset
    /// of the first), or `None` when some character needs its component (see
    /// [`warn_line_chars`]: the walk stopped there).
    warn: Option<(u32, Option<usize>)>,
    /// Whether the line holds a character under one of the right-to-left prefixes of
    /// [`bidi::may_contain_rtl`] (exactly its answer on a UTF-8 line); `None` when the walk
    /// stopped early.
    rtl: Option<bool>,
}

/// The characters [`scan_line`] must look at one by one: a compatibility character (warned),
/// ZWNJ/ZWJ (they need their component), a label dot (a component may start after it) and
/// U+200F (a right-to-left prefix outside the right-to-left blocks of [`rtl_block`]). Any
/// other character changes nothing but "a component may start here".
fn is_walk_stop(c: char) -> bool {
    is_compat_fill(c)
        || matches!(c, joiner::ZWNJ | joiner::ZWJ | '\u{200F}')
        || crate::host::is_label_dot(c)
}

/// Whether the 128-code-point page `p` (code point >> 7) lies in a right-to-left range of
/// [`bidi::may_contain_rtl`]: U+0580–U+08FF (UTF-8 leads `D6`–`DF`, `E0 A0`–`E0 A3`),
/// U+FB00–U+FEFF (`EF AC`–`EF BB`), U+10000–U+10FFF (`F0 90`), U+1E000–U+1EFFF (`F0 9E`); each
/// range starts and ends on a page boundary. U+200F, the other prefix, is one of
/// [`is_walk_stop`]'s characters.
#[inline]
fn rtl_page(p: u32) -> bool {
    (0x0B..=0x11).contains(&p)
        || (0x1F6..=0x1FD).contains(&p)
        || (0x200..=0x21F).contains(&p)
        || (0x3C0..=0x3DF).contains(&p)
}

/// The warnings of [`warn_chars`] and of the host's label dots over a whole line, without
/// splitting it into components, and whether the line may hold a right-to-left character
/// (so that RFC 3987 §4.2's per-component walk runs only then), in one pass; [`LineScan`]
/// says what it found. Its twin is [`warn_line_chars`] with [`bidi::may_contain_rtl`] (the
/// tests `scan_line_matches_twins_on_every_code_point` and `tests/check_walk.rs`).
///
/// It reads UTF-8 by pages of 128 code points ([`CharMemo::page`]), which are the characters
/// whose forms share every byte but the last and the lowest bit of the one before it
/// (RFC 3629 §3): the page and the bit of a character come from its bytes without decoding
/// it, and the page of a [`CharMemo`] of [`is_walk_stop`], kept while the page stays the
/// same, says by its bit whether the character needs a look of its own. Only those (rare)
/// are decoded; the first character of each non-ASCII run is also looked up in a
/// [`CharMemo`] of the combining marks (one there may start a component). ASCII runs are
/// skipped eight bytes at a time.
// Kept out of `Checker::convert_into`: inlined, the old warning pass cost the ASCII lines of
// real_files_and_shortener 0.4 % more instructions (callgrind), and it runs only on
// non-ASCII lines.
#[inline(never)]
fn scan_line(s: &str) -> LineScan {
    #[cfg(target_arch = "x86_64")]
    {
        let quiet = if scan_avx512::available() {
            // SAFETY: the kernel's features (AVX-512 F, BW, VBMI, BMI2), detected just
            // above; `s` is UTF-8.
            unsafe { scan_avx512::quiet_line(s.as_bytes()) }
        } else if scan_avx2::available() {
            // SAFETY: AVX2, detected just above; `s` is UTF-8.
            unsafe { scan_avx2::quiet_line(s.as_bytes()) }
        } else {
            None
        };
        if let Some(rtl) = quiet {
            return LineScan {
                warn: Some((0, None)),
                rtl: Some(rtl),
            };
        }
    }
    scan_line_scalar(s)
}

/// The characters [`scan_line`] looks at one by one ([`is_walk_stop`]).
static STOP: CharMemo = CharMemo::new(is_walk_stop);
/// The combining marks (a component may not start with one: RFC 3987 §6.1 / 3987bis §5.1);
/// the memo to-iri's display rule uses too.
use crate::host::display::COMBINING_MARK as MARK;

/// [`scan_line`] by its one walk of characters (see there); the twin of the AVX-512
/// pre-pass ([`scan_avx512::quiet_line`]) where that answers.
fn scan_line_scalar(s: &str) -> LineScan {
    const STOPPED: LineScan = LineScan {
        warn: None,
        rtl: None,
    };
    let b = s.as_bytes();
    let n = b.len();
    let (mut count, mut first, mut rtl) = (0, None, false);
    // The page of the last character and its bits of `STOP` and `MARK` (no page is
    // `u32::MAX`).
    let (mut page, mut stop, mut mark) = (u32::MAX, [0u64; 2], [0u64; 2]);
    let mut i = ascii_prefix_len(b);
    while i < n {
        // A run of non-ASCII characters. Its first follows an ASCII byte or the line start,
        // where a component may start: a combining mark there needs the components.
        let mut at_start = true;
        while let Some(&lead) = b.get(i).filter(|&&x| x >= 0x80) {
            // The page (code point >> 7), the half page (bit 6 of the code point), the bit
            // (its six low bits: those of the last byte) and the length.
            let lead32 = u32::from(lead);
            let (p, half, len) = if lead < 0xE0 {
                ((lead32 & 0x1F) >> 1, lead32 & 1, 2)
            } else {
                let c1 = u32::from(b[i + 1]);
                if lead < 0xF0 {
                    ((lead32 & 0x0F) << 5 | (c1 & 0x3F) >> 1, c1 & 1, 3)
                } else {
                    let c2 = u32::from(b[i + 2]);
                    let p = (lead32 & 0x07) << 11 | (c1 & 0x3F) << 5 | (c2 & 0x3F) >> 1;
                    (p, c2 & 1, 4)
                }
            };
            let bit = 1u64 << (b[i + len - 1] & 0x3F);
            if p != page {
                page = p;
                stop = *STOP.page(p << 7);
                mark = *MARK.page(p << 7);
                rtl |= rtl_page(p);
            }
            if at_start && mark[half as usize] & bit != 0 {
                return STOPPED;
            }
            at_start = false;
            if stop[half as usize] & bit != 0 {
                let (c, _) = char_at(b, i);
                if matches!(c, joiner::ZWNJ | joiner::ZWJ) {
                    return STOPPED;
                }
                if is_compat(c) {
                    count += 1;
                    first.get_or_insert(i);
                }
                rtl |= c == '\u{200F}';
                at_start = crate::host::is_label_dot(c);
            }
            i += len;
            if at_start {
                continue;
            }
            // The characters of the same page that follow (the common case: one script):
            // the same lead byte (2-byte forms: but its lowest bit, which is the half page;
            // 3-byte forms: and the same second byte but its lowest bit), so only the bit
            // of `stop` remains to test. A byte equal to a lead byte at a character boundary
            // is that lead byte, starting a form of the same length.
            match len {
                2 => {
                    while let (Some(&x), Some(&y)) = (b.get(i), b.get(i + 1)) {
                        if x & 0xFE != lead & 0xFE
                            || stop[usize::from(x & 1)] >> (y & 0x3F) & 1 != 0
                        {
                            break;
                        }
                        i += 2;
                    }
                }
                3 => {
                    let c1 = b[i - 2] & 0xFE;
                    while let (Some(&x), Some(&y), Some(&z)) =
                        (b.get(i), b.get(i + 1), b.get(i + 2))
                    {
                        if x != lead
                            || y & 0xFE != c1
                            || stop[usize::from(y & 1)] >> (z & 0x3F) & 1 != 0
                        {
                            break;
                        }
                        i += 3;
                    }
                }
                _ => {}
            }
        }
        i += ascii_prefix_len(&b[i..]);
    }
    LineScan {
        warn: Some((count, first)),
        rtl: Some(rtl),
    }
}

/// [`scan_line`]'s common answer in 64-byte windows with AVX-512 (issue 11: "check: grammar
/// classes by SIMD"; the walk was 18 % of check on `intl_cldr`): a line in which no character
/// is one of [`is_walk_stop`]'s (no warning, nothing for the walk to look at) and no
/// non-ASCII run starts with a combining mark is [`scan_line`]'s `warn: Some((0, None))`,
/// and its `rtl` is whether a lead byte starts a right-to-left page of [`rtl_page`]. Each
/// window classifies its lead bytes at once: two-byte characters exactly (bitmaps of
/// U+0080–U+07FF indexed by the lead and the top bits of the next byte, `vpermi2b`),
/// three-byte characters by the 64-code-point blocks of the BMP without a stop character;
/// a character in another block, and the first character of each non-ASCII run (after an
/// ASCII byte or the line's start), is looked up alone in the memos. A four-byte character,
/// a stop character or a mark that starts a run leaves the line to the walk (`None`).
#[cfg(target_arch = "x86_64")]
mod scan_avx512 {
    use super::{char_at, MARK, STOP};
    use crate::simd::x86_64::{lead_table_indices, window64, Window64};
    use core::arch::x86_64::*;
    use std::sync::OnceLock;

    /// Whether the CPU runs [`quiet_line`].
    #[inline]
    pub(super) fn available() -> bool {
        crate::simd::x86_64::has_avx512_vbmi()
    }

    /// The window's lookup tables, each a whole number of 64-byte vectors.
    #[repr(C, align(64))]
    struct Tables {
        /// Bit `cp & 7` of byte `cp >> 3`: `STOP` of U+0000–U+07FF (none below U+0080).
        stop2: [u8; 256],
        /// Bit `b & 7` of byte `b >> 3`: block `b` of 64 code points (U+0800 and up) holds
        /// no character of `STOP` (no bit below U+0800, nor for the surrogates' blocks,
        /// which hold no character).
        quiet3: [u8; 128],
    }

    /// Built on first use from the memo's pages (the BMP's, 512 of them: a few million
    /// instructions, once per process).
    fn tables() -> &'static Tables {
        static T: OnceLock<Tables> = OnceLock::new();
        T.get_or_init(|| {
            let mut t = Tables {
                stop2: [0; 256],
                quiet3: super::quiet_blocks3(),
            };
            for cp in 0x80u32..0x800 {
                if STOP.page(cp)[(cp >> 6 & 1) as usize] >> (cp & 63) & 1 != 0 {
                    t.stop2[(cp >> 3) as usize] |= 1 << (cp & 7);
                }
            }
            t
        })
    }

    /// `Some(rtl)` for a line (UTF-8, as `scan_line`'s `&str`) on which `scan_line` answers
    /// no warning and no stop, `rtl` its right-to-left answer; `None` where the walk must
    /// decide (see the [module documentation](self)).
    ///
    /// # Safety
    /// The CPU must have AVX-512 F, BW and VBMI, and BMI2; `b` must be UTF-8.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,bmi2")]
    pub(super) unsafe fn quiet_line(b: &[u8]) -> Option<bool> {
        let t = tables();
        let n = b.len();
        let set1 = |x: u8| _mm512_set1_epi8(x as i8);
        // SAFETY: the tables are 64-byte aligned (`Tables`) and whole vectors.
        let (s0, s1, s2, s3, q0, q1) = unsafe {
            let tv = |a: *const u8, i: usize| _mm512_load_si512(a.add(64 * i).cast());
            (
                tv(t.stop2.as_ptr(), 0),
                tv(t.stop2.as_ptr(), 1),
                tv(t.stop2.as_ptr(), 2),
                tv(t.stop2.as_ptr(), 3),
                tv(t.quiet3.as_ptr(), 0),
                tv(t.quiet3.as_ptr(), 1),
            )
        };
        let mut rtl = 0u64;
        // Whether the byte before the window is ≥ 0x80 (the line's start counts as ASCII).
        let mut high_before = 0u64;
        let mut i = 0;
        while i < n {
            let Window64 { v, next, .. } = window64(b, i);
            let high = _mm512_movepi8_mask(v);
            let lead2 = _mm512_cmplt_epu8_mask(_mm512_sub_epi8(v, set1(0xC0)), set1(0x20));
            let lead3 = _mm512_cmplt_epu8_mask(_mm512_sub_epi8(v, set1(0xE0)), set1(0x10));
            if _mm512_cmpge_epu8_mask(v, set1(0xF0)) != 0 {
                return None; // four-byte characters: the walk's
            }
            // The first character of each non-ASCII run: a lead after an ASCII byte.
            let starts = (lead2 | lead3) & !(high << 1 | high_before);
            high_before = high >> 63;
            let (bit, i2, i3) = lead_table_indices(v, next);
            let stop2 = _mm512_mask_blend_epi8(
                _mm512_movepi8_mask(i2),
                _mm512_permutex2var_epi8(s0, i2, s1),
                _mm512_permutex2var_epi8(s2, i2, s3),
            );
            if lead2 & _mm512_test_epi8_mask(stop2, bit) != 0 {
                return None;
            }
            let quiet3 = _mm512_permutex2var_epi8(q0, i3, q1);
            // Looked up alone: three-byte characters of blocks with a stop character, and
            // the first character of each run (a combining mark there needs the walk).
            let mut alone = lead3 & !_mm512_test_epi8_mask(quiet3, bit) | starts;
            while alone != 0 {
                let k = i + alone.trailing_zeros() as usize;
                alone &= alone - 1;
                let (c, _) = char_at(b, k);
                if STOP.get(c) || (starts >> (k - i) & 1 != 0 && MARK.get(c)) {
                    return None;
                }
            }
            // Right-to-left pages (`rtl_page`): leads D6–DF (U+0580–U+07FF), E0 A0–A3
            // (U+0800–U+08FF), EF AC–BB (U+FB00–U+FEFF).
            let e0 = _mm512_cmpeq_epi8_mask(v, set1(0xE0))
                & _mm512_cmplt_epu8_mask(_mm512_sub_epi8(next, set1(0xA0)), set1(4));
            let ef = _mm512_cmpeq_epi8_mask(v, set1(0xEF))
                & _mm512_cmplt_epu8_mask(_mm512_sub_epi8(next, set1(0xAC)), set1(0x10));
            rtl |= lead2 & _mm512_cmpge_epu8_mask(v, set1(0xD6)) | e0 | ef;
            i += 64;
        }
        Some(rtl != 0)
    }
}

/// The bitmap of the blocks of 64 code points (U+0800 and up, in
/// [`blocks3_bitmap`](crate::simd::x86_64::blocks3_bitmap)'s layout) that hold no character
/// of `STOP`: both line kernels' table, built from the memo's pages.
#[cfg(target_arch = "x86_64")]
fn quiet_blocks3() -> [u8; 128] {
    crate::simd::x86_64::blocks3_bitmap(|block| STOP.page(block << 6)[(block & 1) as usize] == 0)
}

/// [`scan_avx512::quiet_line`] in 32-byte windows with AVX2, for the CPUs without AVX-512
/// (issue 11: the walk was 18 % of check's instructions on `intl_cldr` there): the same
/// answer, `Some(rtl)` exactly when no character is one of [`is_walk_stop`]'s or above
/// U+FFFF and no non-ASCII run starts with a combining mark (twin: [`quiet_line_naive`]).
/// A two-byte character is looked up by its group of 8 code points (a 32-byte bitmap of
/// the groups of U+0000–U+07FF with a stop character, indexed by the lead's payload and
/// the next byte's bits 3–5: RFC 3629 §3), a three-byte one by its block of 64 (the
/// bitmap of [`quiet_blocks3`]); a character of a group or block with a stop character,
/// and the first of each non-ASCII run, is looked up alone: a bit test in bitmaps of the
/// BMP's `STOP` and `MARK`, copied from the memos' pages once per process.
#[cfg(target_arch = "x86_64")]
mod scan_avx2 {
    use super::{MARK, STOP};
    use crate::simd::x86_64::{load32, pow2_lanes, window32, Blocks3, LeadTable32};
    use core::arch::x86_64::*;
    use std::sync::OnceLock;

    /// Whether the CPU runs [`quiet_line`].
    #[inline]
    pub(super) fn available() -> bool {
        std::arch::is_x86_feature_detected!("avx2")
    }

    struct Tables {
        /// Bit `(cp >> 3) & 7` of byte `cp >> 6`: the 8 code points from `cp & !7` (U+0080
        /// to U+07FF) hold a character of `STOP`.
        stop8: [u8; 32],
        /// [`super::quiet_blocks3`].
        quiet3: [u8; 128],
        /// Bit `cp & 63` of word `cp >> 6`: `STOP` and `MARK` of the BMP from U+0080, for
        /// the characters looked up alone (a bit test instead of a memo's page and a
        /// decoding).
        stop: [u64; 1024],
        mark: [u64; 1024],
    }

    /// Built on first use from the memos' pages.
    fn tables() -> &'static Tables {
        static T: OnceLock<Tables> = OnceLock::new();
        T.get_or_init(|| {
            let mut t = Tables {
                stop8: [0; 32],
                quiet3: super::quiet_blocks3(),
                stop: [0; 1024],
                mark: [0; 1024],
            };
            // Pages of 128 code points, from U+0080 (an ASCII byte is never looked up).
            for cp in (0x80u32..0x10000).step_by(128) {
                let w = (cp >> 6) as usize;
                t.stop[w..w + 2].copy_from_slice(STOP.page(cp));
                t.mark[w..w + 2].copy_from_slice(MARK.page(cp));
            }
            for cp in 0x80u32..0x800 {
                if t.stop[(cp >> 6) as usize] >> (cp & 63) & 1 != 0 {
                    t.stop8[(cp >> 6) as usize] |= 1 << (cp >> 3 & 7);
                }
            }
            t
        })
    }

    /// `Some(rtl)` for a line (UTF-8, as `scan_line`'s `&str`) on which `scan_line` answers
    /// no warning and no stop, `rtl` its right-to-left answer; `None` where the walk must
    /// decide (see the [module documentation](self)).
    ///
    /// # Safety
    /// The CPU must have AVX2; `b` must be UTF-8.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn quiet_line(b: &[u8]) -> Option<bool> {
        let t = tables();
        let n = b.len();
        let stop8 = LeadTable32::new(&t.stop8);
        let quiet3 = Blocks3::new(&t.quiet3);
        let set1 = |x: u8| _mm256_set1_epi8(x as i8);
        let zero = _mm256_setzero_si256();
        // Unsigned `x <= c` per byte.
        let le = |x: __m256i, c: u8| _mm256_cmpeq_epi8(_mm256_min_epu8(x, set1(c)), x);
        let mask = |x: __m256i| _mm256_movemask_epi8(x) as u32;
        let mut last = [0; 34];
        let mut rtl = 0u32;
        // Whether the byte before the window is ≥ 0x80 (the line's start counts as ASCII).
        let mut high_before = 0u32;
        let mut i = 0;
        while i < n {
            // Lanes past the line's end are zero: ASCII.
            let (w, _) = window32(b, i, &mut last);
            let v = load32(w, 0);
            let high = mask(v);
            if high == 0 {
                high_before = 0;
                i += 32;
                continue;
            }
            let next = load32(w, 1);
            if mask(_mm256_cmpeq_epi8(_mm256_max_epu8(v, set1(0xF0)), v)) != 0 {
                return None; // four-byte characters: the walk's
            }
            let lead2 = mask(le(_mm256_sub_epi8(v, set1(0xC0)), 0x1F));
            let lead3 = mask(le(_mm256_sub_epi8(v, set1(0xE0)), 0x0F));
            // The first character of each non-ASCII run: a lead after an ASCII byte.
            let starts = (lead2 | lead3) & !(high << 1 | high_before);
            high_before = high >> 31;
            // Looked up alone: characters of groups or blocks with a stop character, and
            // the first character of each run (a combining mark there needs the walk).
            let mut alone = starts;
            if lead2 != 0 {
                let group = _mm256_and_si256(stop8.get(v), pow2_lanes(_mm256_srli_epi16(next, 3)));
                alone |= lead2 & !mask(_mm256_cmpeq_epi8(group, zero));
                // Right-to-left pages (`rtl_page`): leads D6–DF (U+0580–U+07FF).
                rtl |= lead2 & mask(_mm256_cmpeq_epi8(_mm256_max_epu8(v, set1(0xD6)), v));
            }
            if lead3 != 0 {
                alone |= lead3 & mask(_mm256_cmpeq_epi8(quiet3.bit(v, next), zero));
                // E0 A0–A3 (U+0800–U+08FF), EF AC–BB (U+FB00–U+FEFF).
                let eq = |x: __m256i, c: u8| _mm256_cmpeq_epi8(x, set1(c));
                let e0 = _mm256_and_si256(eq(v, 0xE0), le(_mm256_sub_epi8(next, set1(0xA0)), 3));
                let ef = _mm256_and_si256(eq(v, 0xEF), le(_mm256_sub_epi8(next, set1(0xAC)), 0x0F));
                rtl |= mask(_mm256_or_si256(e0, ef));
            }
            while alone != 0 {
                let lane = alone.trailing_zeros();
                alone &= alone - 1;
                // A lead of two or three bytes inside the line, of a UTF-8 line (RFC 3629 §3),
                // decoded to its code point here: `char_at` (a `char`, checked) cost check
                // 6.5 M more instructions on `intl_cldr` (callgrind, 328.9 → 335.3 M).
                let k = i + lane as usize;
                let c1 = u32::from(b[k + 1] & 0x3F);
                let cp = if b[k] < 0xE0 {
                    u32::from(b[k] & 0x1F) << 6 | c1
                } else {
                    u32::from(b[k] & 0x0F) << 12 | c1 << 6 | u32::from(b[k + 2] & 0x3F)
                };
                let (word, bit) = ((cp >> 6) as usize, cp & 63);
                let mark = t.mark[word] & u64::from(starts >> lane & 1) << bit;
                if t.stop[word] >> bit & 1 != 0 || mark != 0 {
                    return None;
                }
            }
            i += 32;
        }
        Some(rtl != 0)
    }
}

/// The obviously correct twin of both line kernels ([`scan_avx512::quiet_line`],
/// [`scan_avx2::quiet_line`]), character by character: `None` when a character is above
/// U+FFFF or one of [`is_walk_stop`]'s, or a combining mark starts a non-ASCII run (after
/// an ASCII byte or the line's start); else whether the line may hold right-to-left text
/// (`may_contain_rtl_naive`).
#[cfg(any(test, feature = "twins"))]
fn quiet_line_naive(s: &str) -> Option<bool> {
    let mut after_ascii = true;
    for c in s.chars() {
        if !c.is_ascii()
            && (u32::from(c) > 0xFFFF
                || is_walk_stop(c)
                || (after_ascii && unicode_normalization::char::is_combining_mark(c)))
        {
            return None;
        }
        after_ascii = c.is_ascii();
    }
    Some(crate::simd::rtl::may_contain_rtl_naive(s.as_bytes()))
}

/// Adds the warnings [`scan_line`] counted to `o` (the first one unless `o` has one).
fn add_warnings(o: &mut Outcome, (count, first): (u32, Option<usize>)) {
    o.warnings += count;
    if let Some(p) = first {
        o.first_warning
            .get_or_insert(LineError::new(ErrorKind::CompatChar, p));
    }
}

/// The character-by-character twin of [`scan_line`]'s warnings (the warning pass before it):
/// the warnings of [`warn_chars`] and of the host's label dots over a whole line, without
/// splitting it into components, when no character needs the components; returns `false`
/// (and leaves `o` as it was) otherwise. Every non-ASCII character of a line that passed the
/// grammar lies in a component, except the host's label dots (RFC 3490 §3.1), whose
/// compatibility forms are warned too: so a compatibility character is warned wherever it is,
/// once, and the first warning is the first in the line. A ZWJ/ZWNJ needs its component
/// (RFC 5892 Appendix A context), and so does a combining mark right after an ASCII byte, a
/// label dot or the line start (the only places a component can start: all other
/// delimiters are ASCII); a combining mark after any other character cannot start one.
#[cfg(any(test, feature = "twins"))]
fn warn_line_chars(s: &str, o: &mut Outcome) -> bool {
    let mut count = 0;
    let mut first = None;
    let mut after_delimiter = true;
    for (i, c) in s.char_indices() {
        if c.is_ascii() {
            after_delimiter = true;
            continue;
        }
        if matches!(c, joiner::ZWNJ | joiner::ZWJ)
            || (after_delimiter && unicode_normalization::char::is_combining_mark(c))
        {
            return false;
        }
        if is_compat_naive(c) {
            count += 1;
            first.get_or_insert(i);
        }
        after_delimiter = crate::host::is_label_dot(c);
    }
    add_warnings(o, (count, first));
    true
}

/// Panics unless [`scan_line`] agrees with its twins on the UTF-8 line `s`: the warnings of
/// [`warn_line_chars`] when it finishes (and it stops where that one gives up), and the
/// answer of the right-to-left prefilter's naive twin. For the tests that run it on every
/// data set line; not part of the API.
#[cfg(any(test, feature = "twins"))]
#[doc(hidden)]
pub fn scan_twin_check(s: &str) {
    // Each line kernel this CPU runs, by name, against its twin: the walk's answer where it
    // answers, and it answers exactly where the twin does.
    let naive = quiet_line_naive(s);
    #[cfg(target_arch = "x86_64")]
    {
        if scan_avx512::available() {
            // SAFETY: the kernel's features, detected just above; `s` is UTF-8.
            let got = unsafe { scan_avx512::quiet_line(s.as_bytes()) };
            assert_eq!(got, naive, "scan_avx512::quiet_line: {s:?}");
        }
        if scan_avx2::available() {
            // SAFETY: AVX2, detected just above; `s` is UTF-8.
            let got = unsafe { scan_avx2::quiet_line(s.as_bytes()) };
            assert_eq!(got, naive, "scan_avx2::quiet_line: {s:?}");
        }
    }
    if let Some(rtl) = naive {
        let quiet = LineScan {
            warn: Some((0, None)),
            rtl: Some(rtl),
        };
        assert_eq!(
            scan_line_scalar(s),
            quiet,
            "the walk on a quiet line: {s:?}"
        );
    }
    let got = scan_line(s);
    // The line kernels answer only what the walk answers.
    assert_eq!(
        got,
        scan_line_scalar(s),
        "scan_line against its walk: {s:?}"
    );
    let mut o = Outcome::default();
    let done = warn_line_chars(s, &mut o);
    let mut w = Outcome::default();
    if let Some(x) = got.warn {
        add_warnings(&mut w, x);
    }
    assert_eq!(got.warn.is_some(), done, "scan_line stops: {s:?}");
    assert_eq!(got.rtl.is_some(), done, "scan_line rtl known: {s:?}");
    if done {
        assert_eq!(
            (w.warnings, w.first_warning),
            (o.warnings, o.first_warning),
            "scan_line warnings: {s:?}"
        );
        assert_eq!(
            got.rtl,
            Some(crate::simd::rtl::may_contain_rtl_naive(s.as_bytes())),
            "scan_line rtl: {s:?}"
        );
    }
}

/// The length of the ASCII prefix of `b`, eight bytes at a time (a byte is ASCII iff its top
/// bit is clear). Twin: `b.iter().position(|&x| x >= 0x80)` (the test
/// `ascii_prefix_and_char_at_match_twins`).
#[inline]
fn ascii_prefix_len(b: &[u8]) -> usize {
    let mut i = 0;
    while let Some(w) = b.get(i..i + 8) {
        let high = u64::from_le_bytes(w.try_into().expect("8 bytes")) & 0x8080_8080_8080_8080;
        if high != 0 {
            return i + (high.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while i < b.len() && b[i] < 0x80 {
        i += 1;
    }
    i
}

/// The character that starts at byte `i` of the UTF-8 `b` (a lead byte, ≥ 0xC2) and its
/// length (RFC 3629 §3), decoded without the boundary check and iterator of
/// `s[i..].chars()`. Twin: `s[i..].chars().next()` (the test
/// `ascii_prefix_and_char_at_match_twins`, over every scalar value).
#[inline]
fn char_at(b: &[u8], i: usize) -> (char, usize) {
    let b0 = b[i] as u32;
    let cont = |k: usize| (b[i + k] & 0x3F) as u32;
    let (u, len) = if b0 < 0xE0 {
        ((b0 & 0x1F) << 6 | cont(1), 2)
    } else if b0 < 0xF0 {
        ((b0 & 0x0F) << 12 | cont(1) << 6 | cont(2), 3)
    } else {
        (
            (b0 & 0x07) << 18 | cont(1) << 12 | cont(2) << 6 | cont(3),
            4,
        )
    };
    (char::from_u32(u).expect("valid UTF-8"), len)
}

/// RFC 3987 §6.1 / 3987bis §5.1 warnings on one component.
fn warn_chars(s: &str, r: Range<usize>, is_compat: impl Fn(char) -> bool, o: &mut Outcome) {
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

/// The pairs [`crawl_line_compare`] compares: the checker, and the slow path of the engine
/// (the [`Guard`](crate::convert::integrity::Guard) around the checker with the engine's
/// options for check: `maps_hosts: None`), for each option that changes a verdict (host
/// modes, `--strict`, `--uri`, `--trim`, LEIRIs).
#[cfg(any(test, feature = "twins"))]
#[doc(hidden)]
pub fn crawl_line_twins() -> Vec<(Checker, crate::convert::integrity::Guard<Checker>)> {
    use crate::convert::integrity::{Guard, GuardOptions};
    let base = ToUriOptions::default();
    [
        (base, false, false),
        (base, true, false),
        (base, false, true),
        (base.strict(true), false, false),
        (base.host(HostMode::Percent), false, false),
        (base.host(HostMode::Uts46), false, false),
        (base.host(HostMode::IDNA2003), false, false),
        (base.leiri(true), false, false),
    ]
    .into_iter()
    .map(|(to_uri, uri_only, trim)| {
        let o = CheckOptions { to_uri, uri_only };
        let g = GuardOptions {
            trim,
            strict: to_uri.strict,
            maps_hosts: None,
            warnings_unseen: false,
        };
        (Checker::new(o), Guard::new(Checker::new(o), g))
    })
    .collect()
}

/// [`Checker::check_crawl_line`] against its twin, the slow path it stands for, with each
/// pair of [`crawl_line_twins`]: wherever the shortcut passes a line, the Guard around the
/// checker passes it through with nothing to count ([`Outcome::default`]). Returns how many
/// pairs passed and declined. For the tests and the fuzz target `simd_twin`.
#[cfg(any(test, feature = "twins"))]
#[doc(hidden)]
pub fn crawl_line_compare(
    twins: &mut [(Checker, crate::convert::integrity::Guard<Checker>)],
    line: &[u8],
) -> (usize, usize) {
    use crate::convert::Converter;
    let (mut passed, mut declined) = (0, 0);
    for (quick, slow) in twins.iter_mut() {
        if !quick.check_crawl_line(line, || std::str::from_utf8(line).ok()) {
            declined += 1;
            continue;
        }
        passed += 1;
        let mut out = Vec::new();
        let show = String::from_utf8_lossy(line);
        let o = slow.convert_into(line, &mut out);
        assert_eq!(o, Ok(Outcome::default()), "{show:?} {:?}", quick.opts);
        assert!(out.is_empty(), "{show:?}");
    }
    (passed, declined)
}

/// `--strict`'s error of the host mapping that `check` reports too (README: "`check`
/// validates as `--strict` does"): a character the mapping deletes (`host-char-removed`:
/// UTS #46 "ignored", with `--host idna2003` Nameprep table B.1), by the function and at the
/// offset of the to-uri guard's check ([`crate::convert::integrity::removed_char`]), for the
/// special schemes it checks (UTS #46 §4, RFC 3491 §3; issue 16). `idna2003-differs` is not
/// asked: with `--host idna2003`, `check` judges hosts by IDNA2003 (issue #10: RFC 3987
/// §4.4's examples, 10 with its numeric label included, pass under it). `name`: the host,
/// percent-decoded when `pct`; `start`: the host's offset in the line; `mode`:
/// the host mode (not `--host percent`, which [`Checker::check_host`] leaves first).
fn host_mapping_errors(
    name: &str,
    mode: HostMode,
    scheme: Option<&[u8]>,
    start: usize,
    pct: bool,
) -> Result<(), LineError> {
    // (An ASCII name holds no lead byte: `removed_char` answers `None` at once.)
    if !scheme.is_some_and(|s| components::scheme_class(s) != SchemeClass::Other) {
        return Ok(());
    }
    let idna2003 = matches!(mode, HostMode::Idna2003(_));
    match crate::convert::integrity::removed_char(name, idna2003) {
        Some((i, c)) => Err(LineError::new(
            ErrorKind::HostCharRemoved(c),
            if pct { start } else { start + i },
        )),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The page memo gives the quick check's answer on every code point, asked in an order
    /// that fills pages from their middle as well as from their start.
    #[test]
    fn compat_memo_matches_twin_on_every_code_point() {
        let mut compat = 0;
        for u in (0..=0x10FFFFu32).rev().step_by(7).chain(0..=0x10FFFF) {
            let Some(c) = char::from_u32(u) else { continue };
            let want = is_compat_naive(c);
            assert_eq!(is_compat(c), want, "U+{u:04X}");
            compat += want as u32;
        }
        // Latin-1 (U+00A0, U+00B2), full-width forms, CJK compatibility ideographs, ...
        assert!(compat > 5_000, "{compat}");
        assert!(is_compat('\u{FF21}') && is_compat('\u{00B2}') && !is_compat('\u{00E9}'));
    }

    /// The word-at-a-time ASCII prefix and the byte decoder of `warn_line_fast` against their
    /// twins: every length × position of one non-ASCII character in ASCII text, and every
    /// scalar value from U+0080 after an ASCII prefix.
    /// Length × position for [`scan_line`]'s AVX-512 pre-pass: each of a few characters
    /// (a stop character of two and of three bytes, a label dot, a joiner, U+200F, a mark,
    /// four bytes, right-to-left letters, characters of quiet blocks and of blocks with a
    /// stop character) in lines of 1–140 characters made of ASCII or of non-ASCII
    /// characters (up to 420 bytes), at every position up to 16 characters and every fourth
    /// after (so at both sides of the 64-byte windows, first in a run or inside one),
    /// against the walk and the character-by-character twins.
    #[test]
    fn scan_line_matches_twins_over_length_and_position() {
        let fills = ["ab/c", "é日ßа", "가나다", "ж-ж", "עב"];
        let odd = [
            "\u{A8}",
            "\u{FB01}",
            "\u{3002}",
            "\u{200D}",
            "\u{200F}",
            "\u{301}",
            "\u{93E}",
            "\u{1F600}",
            "א",
            "ب",
            "\u{8A0}",
            "\u{FB50}",
            "日",
            "ゆ",
            "ゞ",
            "\u{309B}",
            "é",
        ];
        for fill in fills {
            let base: Vec<char> = fill.chars().cycle().take(140).collect();
            for len in 1..=140 {
                let line: String = base[..len].iter().collect();
                scan_twin_check(&line);
                for at in (0..=len).step_by(if len > 16 { 4 } else { 1 }) {
                    for x in odd {
                        let mut v: String = base[..at].iter().collect();
                        v.push_str(x);
                        v.extend(&base[at..len]);
                        scan_twin_check(&v);
                    }
                }
            }
        }
    }

    /// [`Checker::check_crawl_line`] against the slow path it stands for
    /// ([`crawl_line_compare`] with every pair of [`crawl_line_twins`]) on every line of
    /// `shortcut_test_lines` (made, random, every data set) and on made crawl lines: hosts
    /// in Unicode (valid, refused, with warnings, right-to-left) and paths with characters
    /// that warn (compatibility forms, joiners), break the bidi rules, or are refused.
    #[test]
    fn crawl_line_shortcut_equals_the_slow_path() {
        let twins = std::cell::RefCell::new(crawl_line_twins());
        let (passed, declined) = (std::cell::Cell::new(0usize), std::cell::Cell::new(0usize));
        let check = |line: &[u8]| {
            let (p, d) = crawl_line_compare(&mut twins.borrow_mut(), line);
            passed.set(passed.get() + p);
            declined.set(declined.get() + d);
        };
        let read = crate::grammar::validate::shortcut_test_lines(check, check);
        let hosts = [
            "a.b",
            "xn--p1ai",
            "xn--zz.de",
            "bü.de",
            "Bü.DE",
            "пример.рф",
            "例え.テスト",
            "ｅｘ。ｃｏｍ",
            "ex\u{AD}ämple.de",
            "a\u{200D}ö.de",
            "עברית.ישראל",
            "مثال.إختبار",
            "a1.עברית",
            "bü.123",
            "-bü.de",
            "bü..de",
            "b\u{A0}ü.de",
        ];
        let pieces = [
            "/",
            "?",
            "#",
            "=",
            "&",
            "a",
            "%41",
            "%zz",
            "é",
            "日本",
            "ж",
            "ا",
            "ע",
            "1",
            "\u{FB01}",
            "\u{FF21}",
            "\u{200D}",
            "\u{200F}",
            "\u{301}",
            "\u{85}",
            "\u{E000}",
            "\u{1F600}",
            "\u{3002}",
            " ",
            "\\",
        ];
        crate::grammar::validate::made_crawl_lines(
            0x5851_F42D_4C95_7F2Du64,
            &hosts,
            &pieces,
            check,
        );
        let (passed, declined) = (passed.get(), declined.get());
        assert!(passed > 50_000 && declined > 50_000, "{passed} {declined}");
        assert!(!read || passed > 500_000, "{passed}");
    }

    #[test]
    fn ascii_prefix_and_char_at_match_twins() {
        for len in 0..40 {
            let mut b = vec![b'a'; len];
            assert_eq!(ascii_prefix_len(&b), len);
            for pos in 0..len {
                b[pos] = 0xC3;
                assert_eq!(ascii_prefix_len(&b), pos, "{len} {pos}");
                assert_eq!(ascii_prefix_len(&b[pos..]), 0);
                b[pos] = b'/';
            }
        }
        let mut n = 0;
        for c in (0x80..=0x10FFFFu32).filter_map(char::from_u32) {
            let s = format!("a/{c}b");
            let b = s.as_bytes();
            assert_eq!(ascii_prefix_len(b), 2);
            let want = s[2..].chars().next().map(|c| (c, c.len_utf8()));
            assert_eq!(Some(char_at(b, 2)), want, "U+{:04X}", c as u32);
            n += 1;
        }
        assert!(n > 1_000_000, "{n}");
    }

    /// The one walk of `scan_line` against its twins (the character-by-character warning pass
    /// and the right-to-left prefilter's naive twin) for every scalar value in the places
    /// where the walk decides differently: first in the line, first of a run after ASCII,
    /// inside a run (after `é`, and after `ж` of another block), after a label dot (plain
    /// and compatibility), before a combining mark and before a right-to-left letter.
    #[test]
    fn scan_line_matches_twins_on_every_code_point() {
        let (mut stopped, mut warned, mut rtl) = (0u32, 0u32, 0u32);
        for c in (0x80..=0x10FFFFu32).filter_map(char::from_u32) {
            for s in [
                format!("{c}a"),
                format!("a/{c}"),
                format!("/é{c}b"),
                format!("/ж{c}\u{3002}{c}"),
                format!("h\u{FF0E}{c}\u{301}"),
                format!("ü{c}\u{5D0}"),
            ] {
                scan_twin_check(&s);
            }
            let one = scan_line(&format!("/é{c}"));
            stopped += one.warn.is_none() as u32;
            warned += one.warn.is_some_and(|(n, _)| n > 0) as u32;
            rtl += (one.rtl == Some(true)) as u32;
        }
        // Thousands of compatibility and right-to-left characters, and the two joiners (a
        // combining mark inside a run does not stop the walk).
        assert!(
            warned > 5_000 && rtl > 2_000 && stopped == 2,
            "{warned} {rtl} {stopped}"
        );
    }

    /// The shortcut of `host::idna_for` against the list search (`config::is_dns_scheme`) on every case spelling of the special schemes and of schemes near them, in
    /// every host mode.
    #[test]
    fn dns_scheme_shortcut_matches_twin() {
        let naive = |mode: HostMode, sch: Option<&[u8]>| match mode {
            HostMode::Auto => sch
                .filter(|s| crate::config::is_dns_scheme(s))
                .map(|_| host::Idna::Uts46),
            _ => host::idna_for(mode, sch),
        };
        let modes = [
            HostMode::Auto,
            HostMode::Uts46,
            HostMode::IDNA2003,
            HostMode::Percent,
        ];
        let mut net = 0;
        for name in [
            "http", "https", "ws", "wss", "ftp", "file", "httpx", "htt", "w", "ftps", "mailto",
            "sftp", "wsx", "urn",
        ] {
            let n = name.len();
            for case in 0..1u32 << n {
                let spelled: Vec<u8> = name
                    .bytes()
                    .enumerate()
                    .map(|(i, b)| {
                        if case >> i & 1 == 1 {
                            b.to_ascii_uppercase()
                        } else {
                            b
                        }
                    })
                    .collect();
                for mode in modes {
                    let sch = Some(spelled.as_slice());
                    assert_eq!(
                        host::idna_for(mode, sch),
                        naive(mode, sch),
                        "{mode:?} {spelled:?}"
                    );
                }
                net += (components::scheme_class(&spelled) == SchemeClass::NetSpecial) as u32;
            }
        }
        // http 16 + https 32 + ws 4 + wss 8 + ftp 8 spellings take the shortcut.
        assert_eq!(net, 68);
        for mode in modes {
            assert_eq!(host::idna_for(mode, None), naive(mode, None));
        }
    }

    /// `host_scan` (the DNS automaton with the host facts) and `ends_in_number`'s filter
    /// against their twins on every string of up to 5 bytes over the bytes they decide on,
    /// and on long labels and names around 63 and 253 octets.
    #[test]
    fn host_scan_matches_twins() {
        let alphabet: [&[u8]; 10] = [
            b"x",
            b"N",
            b"0",
            b"-",
            b".",
            b"%",
            b"\xC3\xA9",
            b"_",
            b"a",
            b"F",
        ];
        let mut all = vec![Vec::new()];
        let mut dns = 0;
        for _ in 0..5 {
            let next: Vec<Vec<u8>> = all
                .iter()
                .flat_map(|p| alphabet.iter().map(move |a| [p.as_slice(), a].concat()))
                .collect();
            for h in &next {
                let s = std::str::from_utf8(h).expect("UTF-8");
                let (facts, d) = host_scan(h);
                assert_eq!(facts, HostFacts::of_naive(h), "{s:?}");
                assert_eq!(d, is_dns_name_naive(s), "{s:?}");
                assert_eq!(
                    ends_in_number(h),
                    crate::convert::integrity::ends_in_number(h),
                    "{s:?}"
                );
                dns += d as u32;
            }
            all = next;
        }
        assert!(dns > 10_000, "{dns}");
        for len in [62, 63, 64] {
            for name in [
                "a".repeat(len),
                format!("{}.b", "a".repeat(len)),
                format!("b.{}", "a".repeat(len)),
                format!("b.{}.", "a".repeat(len)),
                format!("b-{}.", "a".repeat(len)),
            ] {
                let (facts, d) = host_scan(name.as_bytes());
                assert_eq!(d, is_dns_name_naive(&name), "{name}");
                assert_eq!(facts, HostFacts::of_naive(name.as_bytes()), "{name}");
            }
        }
        for len in 250..=256 {
            let name: String = (0..len)
                .map(|i| if i % 4 == 3 { '.' } else { 'x' })
                .collect();
            for n in [name.clone(), format!("{name}."), format!("{name}x")] {
                assert_eq!(host_scan(n.as_bytes()).1, is_dns_name_naive(&n), "{n}");
            }
        }
    }

    /// `HostFacts::of` against its twin on every string of up to 5 bytes over the bytes it
    /// decides on (the letters of `xn--` in both cases, `-`, `%`, a non-ASCII byte, `.`).
    #[test]
    fn host_facts_match_twin() {
        let alphabet: [&[u8]; 9] = [b"x", b"X", b"n", b"N", b"-", b"%", b"\xC3", b".", b"a"];
        let mut all = vec![Vec::new()];
        for _ in 0..5 {
            let next: Vec<Vec<u8>> = all
                .iter()
                .flat_map(|p| alphabet.iter().map(move |a| [p.as_slice(), a].concat()))
                .collect();
            for h in &next {
                assert_eq!(HostFacts::of(h), HostFacts::of_naive(h), "{h:?}");
            }
            all = next;
        }
        assert!(HostFacts::of(b"a.Xn--b").ace && !HostFacts::of(b"xn-a").ace);
        assert_eq!(HostFacts::of(b""), HostFacts::default());
    }

    /// The one-pass DNS-name test against its twin on every string of up to 4 bytes over an
    /// alphabet of the bytes it decides on, and on long labels and names around 63 and 253.
    #[test]
    fn dns_name_matches_twin() {
        let alphabet = ["a", "Z", "0", "-", ".", "_", "é"];
        let mut all = vec![String::new()];
        for _ in 0..4 {
            let next: Vec<String> = all
                .iter()
                .flat_map(|p| alphabet.iter().map(move |a| format!("{p}{a}")))
                .collect();
            for n in &next {
                assert_eq!(is_dns_name(n), is_dns_name_naive(n), "{n:?}");
            }
            all = next;
        }
        for len in [62, 63, 64] {
            for name in [
                "a".repeat(len),
                format!("{}.b", "a".repeat(len)),
                format!("b.{}", "a".repeat(len)),
                format!("b.{}.", "a".repeat(len)),
            ] {
                assert_eq!(is_dns_name(&name), is_dns_name_naive(&name), "{name}");
            }
        }
        for len in 250..=256 {
            let name: String = (0..len)
                .map(|i| if i % 4 == 3 { '.' } else { 'x' })
                .collect();
            for n in [name.clone(), format!("{name}."), format!("{name}x")] {
                assert_eq!(is_dns_name(&n), is_dns_name_naive(&n), "{n}");
            }
        }
        assert!(is_dns_name("a-b.example.") && !is_dns_name("a..b") && !is_dns_name("-a"));
        // The masks against the automaton and the rules on names of every length up to 70
        // (past the masks' 64), over the bytes they decide on, with whether a hyphen is in.
        let alphabet = [b'a', b'Z', b'0', b'9', b'-', b'.', b'_', 0xC3, 0x00, b'/'];
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut valid = [0u32; 71];
        for round in 0..40_000u32 {
            let len = 1 + (round as usize % 70);
            let name: Vec<u8> = (0..len)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    // Mostly letters and digits, so that many names are valid.
                    let r = (x >> 20) as usize;
                    if r.is_multiple_of(6) {
                        alphabet[r / 6 % alphabet.len()]
                    } else {
                        b'a' + (r % 26) as u8
                    }
                })
                .collect();
            let want = String::from_utf8(name.clone()).is_ok_and(|s| is_dns_name_naive(&s));
            let got = dns_name_bytes(&name);
            assert_eq!(got.0, want, "{:?}", String::from_utf8_lossy(&name));
            assert_eq!(got.0, dns_name_dfa(&name).0, "{name:?}");
            if got.0 {
                valid[len] += 1;
                assert_eq!(got.1, name.contains(&b'-'), "{name:?}");
                assert_eq!(dns_name_dfa(&name).1, got.1, "{name:?}");
            }
        }
        // Valid names of every length but 64 (one label too long unless a dot is drawn).
        assert!(valid[1..64].iter().all(|&v| v > 0), "{valid:?}");
    }
}
