//! IRI → URI, the exact per-line converter (RFC 3987 §3.1, 3987bis §3.3–§3.6).
//!
//! The steps, in order, each citing its section (with [`ToUriOptions::repair`], and not
//! strict, the opt-in repairs of [`crate::convert::repair`] run first: RFC 3987 §3.1's
//! preprocessing of `[` `]`, `%` and `#`):
//! 1. The line must be UTF-8 (RFC 3987 §3.1 step 1c; [`InvalidUtf8`] chooses what to do).
//!    No normalization is applied (§3.1 step 1c), existing `%HH` stay as they are.
//! 2. Parse into components (3987bis §3.2; RFC 3986 Appendix B): [`crate::grammar::components`].
//! 3. Map the host (`ireg-name`) by IDNA or percent-encoding (RFC 3987 §3.1, 3987bis §3.4);
//!    IP literals are validated and never changed (RFC 3986 §3.2.2).
//! 4. Percent-encode, as `%HH` of its UTF-8 octets with uppercase hex, every character not
//!    allowed in URIs in every other component (RFC 3987 §3.1 step 2, 3987bis §3.3).
//! 5. Reassemble with the original delimiters (3987bis §3.6).
//!
//! The mapping is the identity on valid URIs and idempotent (RFC 3987 §3.1).

use crate::config::{InvalidUtf8, ToUriOptions};
use crate::convert::integrity::{self, LineHead};
use crate::convert::repair::Repairer;
use crate::convert::{Component, Written};
use crate::error::{ErrorKind, LineError};
use crate::grammar::classes::{self, is_c1, CONTROL, DISALLOWED_ASCII};
use crate::grammar::components::{self, Components};
use crate::grammar::pct::{
    decode_utf8, is_pct_triplet, push_pct, push_pct2, push_pct3, push_pct_all,
};
use crate::host::HostCache;
use crate::simd::pct::PctEncoder;
use std::borrow::Cow;

pub use super::Outcome;

/// What [`ToUri::validate`] gives back of a line that passed: its components as
/// [`components::split_head`] splits them, and its authority's split.
pub(crate) type Head = (Components, Option<components::Authority>);

/// The IRI→URI converter. One per worker thread: it owns a host cache and scratch space.
///
/// ```
/// use iribulk::{ToUri, ToUriOptions};
/// let mut conv = ToUri::new(ToUriOptions::default());
/// let mut out = Vec::new();
/// conv.convert_into("http://bücher.de/straße?q=ü#é".as_bytes(), &mut out).unwrap();
/// assert_eq!(out, b"http://xn--bcher-kva.de/stra%C3%9Fe?q=%C3%BC#%C3%A9");
/// ```
#[derive(Debug)]
pub struct ToUri {
    opts: ToUriOptions,
    cache: HostCache,
    /// The block kernel of step 4 for these options' stop set.
    enc: PctEncoder,
    /// The line being converted is valid UTF-8 (then the kernel may skip quiet characters).
    valid_utf8: bool,
    /// Run the scalar reference path only (the naive twin, for tests).
    naive: bool,
    /// Inside [`ToUri::validate`]: the block kernel only finds the stop bytes, it writes
    /// nothing ([`ToUri::kernel`]).
    scan_only: bool,
    /// Inside [`ToUri::validate_text`]: the line is a `str` (the caller's proof that it is
    /// UTF-8), so step 1 has nothing to validate.
    known_utf8: bool,
    /// Inside [`ToUri::validate`]: the head split of step 2 (scheme, authority, the path's
    /// start) and the authority's split, of a line that passed.
    head: Option<Head>,
    /// Inside [`ToUri::validate`]: the range of the last line's host that the UTS #46 fast
    /// path accepted without its ACE form ([`ToUri::host_accepted`]).
    host_accepted: Option<std::ops::Range<usize>>,
    /// `--repair` ([`crate::convert::repair`]).
    repairer: Repairer,
}

impl ToUri {
    /// A converter with these options.
    pub fn new(opts: ToUriOptions) -> Self {
        ToUri {
            opts,
            cache: HostCache::default(),
            enc: PctEncoder::new(opts.leiri),
            valid_utf8: false,
            naive: false,
            scan_only: false,
            known_utf8: false,
            head: None,
            host_accepted: None,
            repairer: Repairer::default(),
        }
    }

    /// The naive twin: the same conversion by the scalar per-byte reference loops, without
    /// the block kernels. For tests that compare both; not meant for production use.
    #[cfg(any(test, feature = "twins"))]
    #[doc(hidden)]
    pub fn new_naive(opts: ToUriOptions) -> Self {
        ToUri {
            naive: true,
            ..ToUri::new(opts)
        }
    }

    /// The options.
    pub fn options(&self) -> &ToUriOptions {
        &self.opts
    }

    /// Host cache (hits, misses).
    pub fn cache_stats(&self) -> (u64, u64) {
        self.cache.stats()
    }

    /// The per-converter host cache, for a caller that maps the hosts of the lines it
    /// converts once more (`check`'s host warnings): the conversion has left their answers in it.
    pub(crate) fn host_cache(&mut self) -> &mut HostCache {
        &mut self.cache
    }

    /// Converts one line (without its terminator) and appends the URI to `out`, or leaves
    /// `out` as it was and says [`Written::Passthrough`] when the URI is the line itself
    /// ([`crate::convert`]'s contract).
    ///
    /// On error nothing is appended (`out` is truncated back) and the error says what and at
    /// which byte offset. This is the hot path: it allocates nothing unless a host goes through
    /// IDNA for the first time.
    pub fn convert_into(&mut self, line: &[u8], out: &mut Vec<u8>) -> Result<Outcome, LineError> {
        let mark = out.len();
        let r = if self.opts.repair.any() && !self.opts.strict {
            self.convert_repairing(line, out)
        } else {
            self.convert_inner(line, None, out)
        };
        Self::take_back(r, out, mark)
    }

    /// [`ToUri::convert_into`] of a line whose head the caller has found
    /// ([`LineHead::of`], the [`crate::convert::integrity::Guard`]'s): step 2 takes its scheme,
    /// authority and authority split instead of splitting the line again, and a line without
    /// `\` skips the search for one in the authority (issue 11). The same results as
    /// [`ToUri::convert_into`], its twin (the tests
    /// `convert_with_head_equals_convert_into_and_naive_*`); the naive twin and `--repair`
    /// (which converts another line) do not use the head.
    pub fn convert_with_head(
        &mut self,
        line: &[u8],
        head: &LineHead,
        out: &mut Vec<u8>,
    ) -> Result<Outcome, LineError> {
        if self.naive || (self.opts.repair.any() && !self.opts.strict) {
            return self.convert_into(line, out);
        }
        let mark = out.len();
        let r = self.convert_inner(line, Some(head), out);
        Self::take_back(r, out, mark)
    }

    /// The conversion writes as it goes: an unchanged line is taken back (passthrough), as is
    /// everything on error.
    #[inline]
    fn take_back(
        r: Result<Outcome, LineError>,
        out: &mut Vec<u8>,
        mark: usize,
    ) -> Result<Outcome, LineError> {
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

    /// The errors of [`ToUri::convert_into`] without the URI, for `check`, which discards it
    /// ([`crate::convert::check`]): the same steps decide the same first error, but the block
    /// kernel of step 4 only scans for its stop bytes ([`PctEncoder::scan_prefix`]) instead of
    /// writing `%HH` for every non-ASCII byte. `scratch` receives what the other steps still
    /// write (scheme, host, the stop bytes' mappings): it is cleared and holds no URI. The
    /// naive twin converts in full.
    ///
    /// A line that passes gives back what step 2 split on the block path: the components of
    /// [`components::split_head`] (scheme, authority, `path.start..len`: path, query and
    /// fragment unsplit) and the authority's [`components::split_authority`], or `None` (the
    /// naive twin). With the caller's `line_head` (the Guard's [`LineHead`] of `line`) the
    /// steps run as in [`ToUri::convert_with_head`].
    pub(crate) fn validate(
        &mut self,
        line: &[u8],
        line_head: Option<&LineHead>,
        scratch: &mut Vec<u8>,
    ) -> Result<Option<Head>, LineError> {
        self.validate_counted(line, line_head, scratch)
            .map(|(_, head)| head)
    }

    /// Whether the last [`ToUri::validate`] accepted the reg-name host at `r` of its line by
    /// the UTS #46 fast path without writing its ACE form ([`crate::host::fast::accepts`]):
    /// the host as written passed UTS #46 ToASCII (the test `accepts_implies_to_ascii`).
    /// `check`'s `ambiguous-ipv4` test reads it.
    pub(crate) fn host_accepted(&self, r: &std::ops::Range<usize>) -> bool {
        self.host_accepted.as_ref() == Some(r)
    }

    /// [`ToUri::validate`] with the counts of the conversion: the repairs, host fallbacks
    /// and warnings of [`ToUri::convert_into`] (the same steps count them; only the block
    /// kernel's writing is left out, so [`Outcome::written`] means nothing here). For
    /// `normalize`, whose step 0 needs the counts and not the URI.
    pub(crate) fn validate_counted(
        &mut self,
        line: &[u8],
        line_head: Option<&LineHead>,
        scratch: &mut Vec<u8>,
    ) -> Result<(Outcome, Option<Head>), LineError> {
        scratch.clear();
        self.scan_only = !self.naive;
        self.host_accepted = None;
        self.head = None;
        let r = match line_head {
            Some(h) => self.convert_with_head(line, h, scratch),
            None => self.convert_into(line, scratch),
        };
        self.scan_only = false;
        scratch.clear();
        let head = self.head.take();
        r.map(|o| (o, head))
    }

    /// [`ToUri::validate`] of a line the caller holds as text (the engine validated it with
    /// its neighbours, `Walk::utf8_line`; issue 11: "UTF-8 validated once for a whole run of
    /// flagged lines"): step 1 (RFC 3987 §3.1 step 1c) has nothing to find in a `str`, so it
    /// is skipped; every other step is [`ToUri::validate`]'s.
    pub(crate) fn validate_text(
        &mut self,
        text: &str,
        line_head: Option<&LineHead>,
        scratch: &mut Vec<u8>,
    ) -> Result<Option<Head>, LineError> {
        self.known_utf8 = !self.naive;
        let r = self.validate(text.as_bytes(), line_head, scratch);
        self.known_utf8 = false;
        r
    }

    /// [`ToUriOptions::repair`]: the repairs of [`crate::convert::repair`] (RFC 3987 §3.1's
    /// preprocessing step), then the conversion of the repaired line, its offsets mapped back.
    fn convert_repairing(&mut self, line: &[u8], out: &mut Vec<u8>) -> Result<Outcome, LineError> {
        let mut rp = std::mem::take(&mut self.repairer);
        let r = match rp.apply(line, self.opts.repair) {
            None => self.convert_inner(line, None, out),
            Some(fixed) => {
                // `convert_inner` writes every line: an unchanged `fixed` is taken back, and
                // `finish` writes it (it differs from `line`).
                let mark = out.len();
                let r = self.convert_inner(fixed, None, out);
                if let Ok(o) = &r {
                    o.take_back_unless_wrote(out, mark);
                }
                rp.finish(r, out)
            }
        };
        self.repairer = rp;
        r
    }

    /// Converts a string, returning it borrowed when nothing changed.
    pub fn convert<'a>(&mut self, s: &'a str) -> Result<Cow<'a, str>, LineError> {
        let mut out = Vec::new();
        let o = self.convert_into(s.as_bytes(), &mut out)?;
        if o.written == Written::Passthrough {
            return Ok(Cow::Borrowed(s));
        }
        // The output is ASCII by construction (every non-ASCII byte is percent-encoded or
        // replaced by IDNA output); from_utf8 checks it anyway, without unsafe.
        Ok(Cow::Owned(
            String::from_utf8(out).expect("converter output is ASCII"),
        ))
    }

    /// The conversion of `line` (steps 1–5), with its head when the caller found it
    /// ([`ToUri::convert_with_head`]).
    fn convert_inner(
        &mut self,
        line: &[u8],
        head: Option<&LineHead>,
        out: &mut Vec<u8>,
    ) -> Result<Outcome, LineError> {
        let mut o = Outcome::default();
        // Step 1: UTF-8 (RFC 3987 §3.1 step 1c); known for a line the caller holds as a
        // `str` ([`ToUri::validate_text`]).
        let valid = if self.known_utf8 {
            Ok(())
        } else if self.naive {
            simdutf8::compat::from_utf8(line)
                .map(|_| ())
                .map_err(|e| e.valid_up_to())
        } else {
            crate::simd::utf8::validate(line)
        };
        self.valid_utf8 = valid.is_ok();
        if let Err(at) = valid {
            if self.opts.invalid_utf8 == InvalidUtf8::Error {
                return Err(LineError::new(ErrorKind::InvalidUtf8, at));
            }
        }
        // Step 2: components (3987bis §3.2, RFC 3986 Appendix B). On a valid line the block
        // path splits off only the scheme and the authority: path, query and fragment are
        // split while they are encoded, in one pass ([`ToUri::encode_tail`]). A head found by
        // the caller is [`components::split_head`]'s (the test `line_head_checks_match_twins`).
        let fused = self.valid_utf8 && !self.naive;
        let c: Components = match (fused, head) {
            (true, Some(h)) => Components {
                scheme: h.scheme_len.map(|l| 0..l),
                authority: h.authority.clone(),
                path: h.path_start..line.len(),
                query: None,
                fragment: None,
            },
            (true, None) => components::split_head(line),
            (false, _) => components::split(line),
        };
        components::check_scheme(line, &c)?;
        // Host confusion (WHATWG URL §4.4 against RFC 3986 §3.2): never repaired.
        let backslash = if self.naive {
            components::backslash_in_special_authority(line)
        } else if head.is_some_and(|h| !h.tab_newline_or_backslash || h.plain_crawl) {
            None // no `\` in the line, or none in a plain crawl authority
        } else {
            components::backslash_in_authority(line, &c)
        };
        if let Some(p) = backslash {
            return Err(LineError::new(ErrorKind::BackslashAuthority, p));
        }
        // Everything before `pos` has been written; the scheme and its ':' are copied with
        // whatever follows them up to the first component that is mapped.
        let mut pos = 0;
        let mut auth = None;
        // Where step 4's run of the block kernel starts: the path, or on the block path an
        // all-ASCII reg-name host, encoded with the port and the path in one run (below).
        let mut tail = c.path.start;
        if let Some(ar) = c.authority.clone() {
            let a = match head.and_then(|h| h.split_authority(line)) {
                Some(a) => a?,
                None => components::split_authority(line, ar.clone())?,
            };
            if self.scan_only {
                auth = Some(a.clone());
            }
            if let Some(ui) = &a.userinfo {
                out.extend_from_slice(&line[pos..ui.start]);
                self.encode(line, ui.clone(), Component::Userinfo, out, &mut o)?;
                pos = ui.end;
            }
            out.extend_from_slice(&line[pos..a.host.start]);
            let host = &line[a.host.clone()];
            if host.first() == Some(&b'[') {
                // IP literal: validated, never changed (RFC 3986 §3.2.2; RFC 3987 §3.1 MUST
                // NOT convert brackets).
                if !components::is_ip_literal(host) {
                    return Err(LineError::new(ErrorKind::BadIpLiteral, a.host.start));
                }
                out.extend_from_slice(host);
                pos = a.host.end;
            } else if fused && host.is_ascii() {
                // Step 3 for an all-ASCII reg-name is the general percent-encoding of §3.3
                // ([`ToUri::map_host`]'s first case), which the kernel does for the path too:
                // the port is `:` and digits (plain bytes), and no `%HH` triplet spans the
                // host's end (a `:`, `/`, `?`, `#` or the end of the line follows it), so one
                // run of [`ToUri::encode_tail`] from the host's start writes what the host's
                // own run, the copied port and the path's run would (one kernel call less per
                // line, issue 11; the naive twin keeps them apart).
                tail = a.host.start;
                pos = a.host.start;
            } else {
                // Step 3: the host (RFC 3987 §3.1, 3987bis §3.4).
                let scheme = c.scheme.clone().map(|r| &line[r]);
                self.map_host(line, a.host.clone(), scheme, out, &mut o)?;
                pos = a.host.end;
            }
            if tail == c.path.start {
                // The port has been checked to be digits; copy it with its ':'.
                out.extend_from_slice(&line[pos..ar.end]);
                pos = ar.end;
            }
        }
        // Step 4: path, query, fragment (RFC 3987 §3.1 step 2, 3987bis §3.3).
        out.extend_from_slice(&line[pos..tail]);
        if fused {
            self.encode_tail(line, tail, out, &mut o, false)?;
            if self.scan_only {
                self.head = Some((c, auth));
            }
            return Ok(o);
        }
        self.encode(line, c.path.clone(), Component::Path, out, &mut o)?;
        if let Some(q) = c.query.clone() {
            out.push(b'?');
            self.encode(line, q, Component::Query, out, &mut o)?;
        }
        if let Some(f) = c.fragment.clone() {
            out.push(b'#');
            self.encode(line, f, Component::Fragment, out, &mut o)?;
        }
        Ok(o)
    }

    /// The whole of the slow path (the engine's line handling, the [`Guard`]'s checks,
    /// [`ToUri::convert_with_head`]) in one pass for the common non-ASCII crawl line (issue 11:
    /// "one pass per line where today there are several"): `Some(wrote)` after appending the
    /// URI of `line` to `out` (`wrote`: it differs from `line`; `false` leaves `out` as it was),
    /// or `None`, with `out` as it was, for every line it does not answer (the caller takes the
    /// slow path). It answers a line that
    ///
    /// * has [`crawl_head`](crate::grammar::validate::crawl_head)'s shape with `https://` or
    ///   `http://` (RFC 3986 §3.1; not `file`, whose host may be empty and whose path the
    ///   Guard reads);
    /// * has an authority (up to the first `/ ? #`, §3.2) that is not empty and is made of
    ///   `unreserved` and `sub-delims` only (§2.3, §2.2): a `reg-name` without `%`, `:`
    ///   (port), `@` (userinfo), brackets or non-ASCII, which every host mode passes unchanged
    ///   (contract items 2 and 12), and whose host is then not missing (RFC 9110 §4.2.1); with
    ///   `--host percent` the host may also hold non-ASCII characters, percent-encoded like
    ///   the path (3987bis §3.4.1; no IDNA runs), and in the UTS #46 modes (`Auto` and
    ///   `Uts46`: `http` and `https` hosts are DNS names) a Unicode host that the Guard's
    ///   mapping check finds nothing to say about (no character the mapping deletes,
    ///   `host-char-removed`, RFC 3491 §3 / UTS #46 §4; issue 16); in both, a host that
    ///   step 3 ([`ToUri::map_host`], as the slow path calls it: RFC 3987 §3.1 step 1 /
    ///   RFC 3490 §4 ToASCII, or percent-encoding) maps without an error, warning or
    ///   fallback, unless what is written for it ends in a number (the Guard's
    ///   `ambiguous-ipv4`, WHATWG URL §3.5: the slow path decides);
    /// * is valid UTF-8 (RFC 3987 §3.1 step 1c), and
    /// * whose path, query and fragment [`ToUri::encode_tail`] (step 4 of the block path)
    ///   converts without an error, a repair or a warning (§2.2, §4.1).
    ///
    /// For such a line each step of the slow path is silent: [`ToUri::convert_inner`] takes
    /// its block path (the authority and the rest through `encode_tail` in one run, as here);
    /// the Guard finds nothing for a browser to strip (a control or space in step 4 is an
    /// error or a repair, and the line's last byte is above the space), no `\`, no file URL, a host, and
    /// the scheme and authority written byte for byte ([`integrity`]'s `same_head`); no repair,
    /// warning or host fallback is counted. The test
    /// `crawl_line_shortcut_equals_the_slow_path` compares it with the Guard around this
    /// converter on every line of every data set and on made lines, and `tests/engine.rs`
    /// compares the engine with its naive twin.
    ///
    /// `utf8` is asked, once the line has the shape above, for the line as text: `None` when
    /// it is not UTF-8 (the engine answers it from one validation of a run of lines,
    /// `Walk::utf8_line`; the twin test from `core::str::from_utf8`).
    pub(crate) fn convert_crawl_line<'a>(
        &mut self,
        line: &'a [u8],
        utf8: impl FnOnce() -> Option<&'a str>,
        out: &mut Vec<u8>,
    ) -> Option<bool> {
        use crate::config::HostMode;
        if self.naive || self.scan_only || (self.opts.repair.any() && !self.opts.strict) {
            return None;
        }
        let (a0, end, wide) = crate::grammar::validate::crawl_authority(line)?;
        // Under `--host idna2003` the Guard compares two mappings of a host written in Unicode
        // (`check_mapping`): the slow path's.
        if wide && matches!(self.opts.host, HostMode::Idna2003(_)) {
            return None;
        }
        // RFC 3987 §3.1 step 1c: the line is UTF-8. Where the kernel validates as it encodes
        // (`PctEncoder::validates_in_pass`, AVX-512), the tail is validated by step 4's
        // kernel calls and the characters they stop at (`encode_stop` decodes them strictly),
        // and a host written in Unicode here, alone; the head and an ASCII authority are
        // ASCII (`crawl_authority`). The pieces meet at ASCII bytes (`//`, and `/ ? #` or
        // the line's end), so the line is UTF-8 exactly when each piece is. Elsewhere the
        // engine validates a run of lines at once (`utf8`).
        let fused = self.enc.validates_in_pass();
        let text = if fused { None } else { Some(utf8()?) };
        debug_assert!(text.is_none_or(|t| t.as_bytes() == line));
        // The Guard's mapping check in the UTS #46 modes (`check_mapping`, RFC 3491 §3 / UTS
        // #46 §4; issue 16): a host with a character the mapping deletes is
        // `host-char-removed`, the slow path's to report. (The host is cut at `//` and at
        // `/`, `?`, `#` or the line's end: character boundaries of `text`.)
        if wide {
            let host = match text {
                Some(t) => t.get(a0..end)?,
                None => crate::simd::utf8::validate(&line[a0..end])
                    .ok()
                    // SAFETY: just validated.
                    .map(|()| unsafe { std::str::from_utf8_unchecked(&line[a0..end]) })?,
            };
            if self.opts.host != HostMode::Percent && integrity::removed_char(host, false).is_some()
            {
                return None;
            }
        }
        let mark = out.len();
        out.extend_from_slice(&line[..a0]);
        let mut o = Outcome::default();
        let mut tail = a0;
        if wide {
            // Step 3 as `convert_inner` runs it for a host written in Unicode (RFC 3987 §3.1,
            // 3987bis §3.4): `map_host` with the line's scheme (UTS #46 ToASCII through the
            // cache, or percent-encoding with `--host percent`), for a line it now knows to be
            // UTF-8. Then what the Guard asks of a host the conversion changed
            // (`check_output`): a host (never empty here, but checked), and not a name a
            // browser reads as IPv4 (WHATWG URL §3.5), which is the slow path's to report.
            self.valid_utf8 = true;
            let mapped = self
                .map_host(line, a0..end, Some(&line[..a0 - 3]), out, &mut o)
                .is_ok();
            let written = &out[mark + a0..];
            if !mapped || written.is_empty() || integrity::ends_in_number(written) {
                out.truncate(mark);
                return None;
            }
            tail = end;
        }
        // Step 4 as `convert_inner` runs it on the block path (`encode_tail`: the kernel, the
        // fragment's `#`, the bytes it stops at); a line with anything to report or repair
        // is the slow path's.
        let quiet = self.encode_tail(line, tail, out, &mut o, fused).is_ok()
            && o.repairs == 0
            && o.warnings == 0
            && o.first_warning.is_none()
            && o.host_fallbacks == 0;
        let wrote = o.written == Written::Wrote;
        if !quiet || !wrote {
            out.truncate(mark);
        }
        quiet.then_some(wrote)
    }

    /// Maps a reg-name host (RFC 3987 §3.1, 3987bis §3.4). All-ASCII hosts and hosts that are
    /// not UTF-8 go through the general percent-encoding of §3.3 (which leaves a valid ASCII
    /// host unchanged); non-ASCII hosts go through the mode's IDNA, or percent-encoding.
    /// The scheme lookup and the host's UTF-8 check run only for non-ASCII hosts.
    fn map_host(
        &mut self,
        line: &[u8],
        r: std::ops::Range<usize>,
        scheme: Option<&[u8]>,
        out: &mut Vec<u8>,
        o: &mut Outcome,
    ) -> Result<(), LineError> {
        if self.naive {
            return self.map_host_naive(line, r, scheme, out, o);
        }
        let host = &line[r.clone()];
        if host.is_ascii() {
            return self.encode(line, r, Component::Host, out, o);
        }
        let Some(idna) = crate::host::idna_for(self.opts.host, scheme) else {
            return self.encode(line, r, Component::Host, out, o);
        };
        // The line was validated in step 1 (RFC 3987 §3.1 step 1c): its host, cut at ASCII
        // delimiters, is too; the second validation cost ~220 instructions an IDN host
        // (issue 11). A line that is not UTF-8 validates its host here.
        let s = if self.valid_utf8 {
            // SAFETY: `line` is valid UTF-8 (`self.valid_utf8`, set by step 1 for this line;
            // or, in `convert_crawl_line`, the host alone, which is all that is read here),
            // and `r` starts after `//` or `@` and ends at `:`, `/`, `?`, `#` or the line's
            // end (`components::split_authority`): ASCII bytes, which are never inside a
            // multi-byte character, so `host` is whole characters of `line`. The test
            // `host_of_a_valid_line_is_valid` checks it on every data-set line.
            unsafe { std::str::from_utf8_unchecked(host) }
        } else {
            let Ok(s) = std::str::from_utf8(host) else {
                return self.encode(line, r, Component::Host, out, o);
            };
            s
        };
        // What the two checks below look for, in one branch-free pass over the host (the fold
        // is vectorized): nearly every host has none of these bytes and skips both byte loops,
        // which cost ~440 instructions an IDN host (issue 11). The test
        // `host_checks_prefilter_is_exact` compares the result with the loops alone.
        if host_may_fail_checks(host) {
            self.host_syntax(host, r.start)?;
            if !self.opts.leiri {
                // C1 controls are C2 80..C2 9F in UTF-8 (`s` is valid, so C2 is a lead byte).
                if let Some(i) = host.windows(2).position(|w| w[0] == 0xC2 && w[1] < 0xA0) {
                    return Err(LineError::new(ErrorKind::ControlChar, r.start + i));
                }
            }
        }
        self.host_idna(line, r, s, idna, out, o)
    }

    /// The naive twin of [`ToUri::map_host`]: the same answers, checking in the order that
    /// is easiest to read. Maps a reg-name host (RFC 3987 §3.1, 3987bis §3.4). All-ASCII hosts and hosts that are
    /// not UTF-8 go through the general percent-encoding of §3.3 (which leaves a valid ASCII
    /// host unchanged); non-ASCII hosts go through the mode's IDNA, or percent-encoding.
    fn map_host_naive(
        &mut self,
        line: &[u8],
        r: std::ops::Range<usize>,
        scheme: Option<&[u8]>,
        out: &mut Vec<u8>,
        o: &mut Outcome,
    ) -> Result<(), LineError> {
        let host = &line[r.clone()];
        let idna = crate::host::idna_for(self.opts.host, scheme);
        // IDNA for a non-ASCII UTF-8 host; percent-encoding for the rest.
        let (Some(idna), false, Ok(s)) = (idna, host.is_ascii(), std::str::from_utf8(host)) else {
            return self.encode(line, r, Component::Host, out, o);
        };
        self.host_syntax(host, r.start)?;
        if !self.opts.leiri {
            if let Some((i, _)) = s.char_indices().find(|&(_, c)| is_c1(c)) {
                return Err(LineError::new(ErrorKind::ControlChar, r.start + i));
            }
        }
        self.host_idna(line, r, s, idna, out, o)
    }

    /// What in a host is not IDNA's to report (RFC 3987 §3.1, RFC 3986 §3.2.2): a control
    /// (unless `--leiri`), a bracket outside an IP literal, a `%` that starts no triplet.
    /// Shared by [`ToUri::map_host`] and its twin.
    fn host_syntax(&self, host: &[u8], start: usize) -> Result<(), LineError> {
        for (i, &b) in host.iter().enumerate() {
            let at = start + i;
            if classes::is(b, CONTROL) && !self.opts.leiri {
                return Err(LineError::new(ErrorKind::ControlChar, at));
            }
            match b {
                b'[' | b']' => return Err(LineError::new(ErrorKind::BadBracket, at)),
                b'%' if !is_pct_triplet(host, i) => {
                    return Err(LineError::new(ErrorKind::BadPercent, at))
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// The IDNA step of [`ToUri::map_host`] and its twin: ToASCII of the host `s` (at `r` of
    /// `line`) through the per-converter cache, or, with `--host-fallback percent`, the
    /// general percent-encoding when IDNA refuses it (RFC 3987 §3.1 step 2 then applies).
    fn host_idna(
        &mut self,
        line: &[u8],
        r: std::ops::Range<usize>,
        s: &str,
        idna: crate::host::Idna,
        out: &mut Vec<u8>,
        o: &mut Outcome,
    ) -> Result<(), LineError> {
        // [`ToUri::validate`] discards the ACE form: a host the UTS #46 fast path accepts
        // without writing its Punycode ([`crate::host::fast::accepts`]) passes, as in
        // normalize's step 0 (issue 11: Punycode and the cache's hashing were ~6 % of check's
        // instructions on `intl_cldr`). `accepts` true implies ToASCII succeeds (its test
        // `accepts_implies_to_ascii`); false asks the cache as before.
        if self.scan_only && idna == crate::host::Idna::Uts46 && crate::host::fast::accepts(s) {
            o.written = Written::Wrote;
            self.host_accepted = Some(r);
            return Ok(());
        }
        match self.cache.to_ascii(s, idna, out) {
            Ok(()) => {
                o.written = Written::Wrote;
                Ok(())
            }
            Err(_) if self.opts.host_fallback_percent => {
                o.host_fallbacks += 1;
                self.encode(line, r, Component::Host, out, o)
            }
            Err(reason) => Err(crate::host::idna_error(
                reason,
                s,
                &line[r.clone()],
                r.start,
            )),
        }
    }

    /// The general percent-encoding of one component (RFC 3987 §3.1 step 2, 3987bis §3.3),
    /// with the checks of contract item 4 (output must be a valid RFC 3986 URI-reference).
    ///
    /// On a valid UTF-8 line the block kernel ([`PctEncoder::encode_prefix`]) copies plain
    /// ASCII and writes `%HH` for every byte of quiet characters (those the per-character check
    /// has nothing to say about); this loop handles only the bytes it stops at. Other lines
    /// take [`ToUri::encode_naive`], which decides byte by byte.
    fn encode(
        &self,
        line: &[u8],
        r: std::ops::Range<usize>,
        comp: Component,
        out: &mut Vec<u8>,
        o: &mut Outcome,
    ) -> Result<(), LineError> {
        if self.naive || !self.valid_utf8 {
            return self.encode_naive(line, r, comp, out, o);
        }
        let s = &line[r.clone()];
        let n = s.len();
        let mut i = 0;
        loop {
            let before = out.len();
            let k = self.kernel(&s[i..], out);
            // Only non-ASCII bytes grow the output.
            if out.len() - before != k {
                o.written = Written::Wrote;
            }
            i += k;
            if i == n {
                return Ok(());
            }
            i = self.encode_stop(s, r.start, i, comp, out, o)?;
        }
    }

    /// Path, query and fragment (`line[start..]`) in one pass of the block kernel, split
    /// while encoded (RFC 3987 §3.1 step 2, 3987bis §3.3; RFC 3986 §3.3–§3.5): `?` is plain
    /// in the query (§3.4) and cannot occur in the path, so the kernel copies it like any
    /// plain byte; `#` stops the kernel: the first one starts the fragment, another one is an
    /// error (§3.5, `extra-hash`). A `pct-encoded` triplet cannot span `?` or `#` (neither is
    /// a hex digit), so the checks see the same triplets as per component. The component
    /// decides only whether private use is allowed (in the query, §2.2): it is looked up at the
    /// few characters that take the per-character check.
    ///
    /// With `utf8`, the kernel also validates what it maps (`PctEncoder::encode_prefix_utf8`;
    /// the characters it stops at are decoded strictly by `encode_stop`), and a tail that is
    /// not UTF-8 is an `invalid-utf8` error at the start of the kernel call that found it,
    /// not at the byte: only `convert_crawl_line` asks for it, and it hands such a line to
    /// the slow path, which reports the byte.
    fn encode_tail(
        &self,
        line: &[u8],
        start: usize,
        out: &mut Vec<u8>,
        o: &mut Outcome,
        utf8: bool,
    ) -> Result<(), LineError> {
        let s = &line[start..];
        let n = s.len();
        let mut i = 0;
        let mut fragment = false;
        // The first '?' of the tail, searched once when first needed.
        let mut query: Option<Option<usize>> = None;
        loop {
            let before = out.len();
            let k = if utf8 {
                let (k, valid) = self.enc.encode_prefix_utf8(&s[i..], out);
                if !valid {
                    return Err(LineError::new(ErrorKind::InvalidUtf8, start + i));
                }
                k
            } else {
                self.kernel(&s[i..], out)
            };
            if out.len() - before != k {
                o.written = Written::Wrote;
            }
            i += k;
            if i == n {
                return Ok(());
            }
            let b = s[i];
            if b == b'#' && !fragment {
                out.push(b'#');
                fragment = true;
                i += 1;
                continue;
            }
            let comp = if fragment {
                Component::Fragment
            } else if b < 0x80 {
                // ASCII stops are handled alike in path and query.
                Component::Path
            } else {
                // Before the first '#': the query once past the first '?'.
                let q = *query.get_or_insert_with(|| memchr::memchr(b'?', s));
                if q.is_some_and(|q| q < i) {
                    Component::Query
                } else {
                    Component::Path
                }
            };
            i = self.encode_stop(s, start, i, comp, out, o)?;
        }
    }

    /// The block kernel of step 4 (RFC 3987 §3.1 step 2): [`PctEncoder::encode_prefix`], or
    /// in [`ToUri::validate`] [`PctEncoder::scan_prefix`], which consumes the same prefix and
    /// writes nothing. Returns the prefix's length.
    #[inline]
    fn kernel(&self, s: &[u8], out: &mut Vec<u8>) -> usize {
        if self.scan_only {
            self.enc.scan_prefix(s)
        } else {
            self.enc.encode_prefix(s, out)
        }
    }

    /// The byte `s[i]` (at `base + i` in the line) that stopped the block kernel in
    /// component `comp`: checks it (contract item 4; RFC 3987 §2.2, §4.1), writes its
    /// mapping and returns where the kernel resumes.
    #[inline]
    fn encode_stop(
        &self,
        s: &[u8],
        base: usize,
        mut i: usize,
        comp: Component,
        out: &mut Vec<u8>,
        o: &mut Outcome,
    ) -> Result<usize, LineError> {
        let b = s[i];
        let at = base + i;
        if b < 0x80 {
            match b {
                b'%' => {
                    if !is_pct_triplet(s, i) {
                        return Err(LineError::new(ErrorKind::BadPercent, at));
                    }
                    out.extend_from_slice(&s[i..i + 3]);
                    return Ok(i + 3);
                }
                b'[' | b']' => return Err(LineError::new(ErrorKind::BadBracket, at)),
                b'#' => return Err(LineError::new(ErrorKind::ExtraHash, at)),
                _ if classes::is(b, DISALLOWED_ASCII) => {
                    if self.opts.strict {
                        return Err(LineError::new(ErrorKind::DisallowedAscii, at));
                    }
                }
                _ => {
                    // C0 control or DEL.
                    debug_assert!(classes::is(b, CONTROL));
                    if !self.opts.leiri {
                        return Err(LineError::new(ErrorKind::ControlChar, at));
                    }
                }
            }
            push_pct(out, b);
            o.repairs += 1;
            o.written = Written::Wrote;
            return Ok(i + 1);
        }
        // A lead byte whose character needs the per-character check (RFC 3987 §2.2, §4.1).
        o.written = Written::Wrote;
        match decode_utf8(&s[i..]) {
            Some((c, len)) => {
                self.check_char(c, comp, at, o)?;
                push_pct_all(out, &s[i..i + len]);
                i += len;
            }
            None => {
                // Not reached on a valid line; answer as the naive loop would.
                if self.opts.invalid_utf8 == InvalidUtf8::Error {
                    return Err(LineError::new(ErrorKind::InvalidUtf8, at));
                }
                push_pct(out, b);
                o.repairs += 1;
                i += 1;
            }
        }
        Ok(i)
    }

    /// The naive twin of [`ToUri::encode`], and its path for lines that are not valid UTF-8:
    /// the general percent-encoding of one component (RFC 3987 §3.1 step 2, 3987bis §3.3),
    /// byte by byte.
    fn encode_naive(
        &self,
        line: &[u8],
        r: std::ops::Range<usize>,
        comp: Component,
        out: &mut Vec<u8>,
        o: &mut Outcome,
    ) -> Result<(), LineError> {
        let s = &line[r.clone()];
        let n = s.len();
        // Worst case: every byte becomes %HH.
        out.reserve(3 * n);
        let mut run = 0; // start of the pending run of bytes copied as they are
        let mut i = 0;
        loop {
            // The common case: bytes allowed as they are (unreserved, sub-delims, ':' '/' '?'
            // '@'), skipped with one table lookup each.
            i += classes::plain_prefix_len(&s[i..]);
            if i == n {
                break;
            }
            let b = s[i];
            let at = r.start + i;
            if b < 0x80 {
                match b {
                    b'%' => {
                        if !is_pct_triplet(s, i) {
                            return Err(LineError::new(ErrorKind::BadPercent, at));
                        }
                        i += 3;
                        continue;
                    }
                    b'[' | b']' => return Err(LineError::new(ErrorKind::BadBracket, at)),
                    b'#' => return Err(LineError::new(ErrorKind::ExtraHash, at)),
                    _ if classes::is(b, DISALLOWED_ASCII) => {
                        if self.opts.strict {
                            return Err(LineError::new(ErrorKind::DisallowedAscii, at));
                        }
                    }
                    _ => {
                        // C0 control or DEL.
                        debug_assert!(classes::is(b, CONTROL));
                        if !self.opts.leiri {
                            return Err(LineError::new(ErrorKind::ControlChar, at));
                        }
                    }
                }
                out.extend_from_slice(&s[run..i]);
                push_pct(out, b);
                o.repairs += 1;
                o.written = Written::Wrote;
                i += 1;
                run = i;
                continue;
            }
            // Non-ASCII: always percent-encoded (RFC 3987 §3.1 step 2); check what it is.
            out.extend_from_slice(&s[run..i]);
            o.written = Written::Wrote;
            // A run of non-ASCII characters, encoded without leaving this loop.
            while i < n && s[i] >= 0x80 {
                let at = r.start + i;
                let lead = s[i];
                let cont = |k: usize| k < n && s[k] & 0xC0 == 0x80;
                // U+00C0..U+07FF (lead C3..DF) are all ucschar: no check needed, except
                // U+061C ARABIC LETTER MARK (D8 9C), a bidi formatting character since
                // Unicode 6.3 (RFC 3987 §4.1).
                if (0xC3..=0xDF).contains(&lead)
                    && cont(i + 1)
                    && !(lead == 0xD8 && s[i + 1] == 0x9C)
                {
                    push_pct2(out, lead, s[i + 1]);
                    i += 2;
                    continue;
                }
                // U+1000..U+1FFF (lead E1) and U+3000..U+CFFF (E3..EC): ucschar, no bidi
                // formatting, no private use (U+2xxx, U+Dxxx and up take the full check).
                if matches!(lead, 0xE1 | 0xE3..=0xEC) && cont(i + 1) && cont(i + 2) {
                    push_pct3(out, lead, s[i + 1], s[i + 2]);
                    i += 3;
                    continue;
                }
                match decode_utf8(&s[i..]) {
                    Some((c, len)) => {
                        self.check_char(c, comp, at, o)?;
                        push_pct_all(out, &s[i..i + len]);
                        i += len;
                    }
                    None => {
                        if self.opts.invalid_utf8 == InvalidUtf8::Error {
                            return Err(LineError::new(ErrorKind::InvalidUtf8, at));
                        }
                        push_pct(out, lead);
                        o.repairs += 1;
                        i += 1;
                    }
                }
            }
            run = i;
        }
        out.extend_from_slice(&s[run..]);
        Ok(())
    }

    /// Checks a non-ASCII character against RFC 3987 §2.2 and §4.1: C1 controls are errors
    /// (unless LEIRI); bidi formatting characters, private use outside the query and
    /// non-`ucschar` are warnings (errors in strict mode; nothing in LEIRI mode, 3987bis §6.1).
    #[inline]
    fn check_char(
        &self,
        c: char,
        comp: Component,
        at: usize,
        o: &mut Outcome,
    ) -> Result<(), LineError> {
        if (c as u32) < 0xA0 {
            debug_assert!(is_c1(c));
            if self.opts.leiri {
                o.repairs += 1;
                return Ok(());
            }
            return Err(LineError::new(ErrorKind::ControlChar, at));
        }
        // LEIRIs allow what IRIs do not, except U+FFFE and U+FFFF, which keep their warning.
        if self.opts.leiri && !classes::not_even_in_leiris(c) {
            return Ok(());
        }
        if let Some(kind) = classes::raw_char_warning(c, comp == Component::Query) {
            let e = LineError::new(kind, at);
            if self.opts.strict {
                return Err(e);
            }
            o.warnings += 1;
            o.first_warning.get_or_insert(e);
        }
        Ok(())
    }
}

/// The converters [`crawl_line_compare`] compares: for each option set that changes what the
/// converter or the Guard does (strict, LEIRI, each host mode, `--trim`, repairs with
/// `--strict`), a [`ToUri`] for [`ToUri::convert_crawl_line`] and the same converter inside
/// its [`integrity::Guard`] (as the engine's worker wraps it). For the tests and the fuzz
/// target `simd_twin`; not part of the API.
#[cfg(any(test, feature = "twins"))]
#[doc(hidden)]
pub fn crawl_line_twins() -> Vec<(ToUri, integrity::Guard<ToUri>)> {
    use crate::config::HostMode;
    let base = ToUriOptions::default();
    [
        (base, false),
        (base.strict(true), false),
        (base.leiri(true), false),
        (base.host(HostMode::Percent), false),
        (base.host(HostMode::Percent).strict(true), false),
        (base.host(HostMode::Uts46), false),
        (base.host(HostMode::IDNA2003), false),
        (base.host_fallback_percent(true), false),
        (base.host(HostMode::Uts46).leiri(true).strict(true), false),
        (base, true),
        (base.repair(crate::config::Repairs::ALL).strict(true), false),
    ]
    .into_iter()
    .map(|(o, trim)| {
        let g = integrity::GuardOptions {
            trim,
            strict: o.strict,
            maps_hosts: Some(o.host),
            warnings_unseen: false,
        };
        (ToUri::new(o), integrity::Guard::new(ToUri::new(o), g))
    })
    .collect()
}

/// [`ToUri::convert_crawl_line`] against its twin, the slow path it stands for, with each
/// pair of [`crawl_line_twins`]: wherever the shortcut answers, the Guard around the
/// converter succeeds with the same bytes, no repair, warning or host fallback, and `Wrote`
/// exactly when the shortcut wrote; where it declines, `out` is as it was. Returns how many
/// pairs answered and declined. For the tests and the fuzz target `simd_twin`.
#[cfg(any(test, feature = "twins"))]
#[doc(hidden)]
pub fn crawl_line_compare(
    twins: &mut [(ToUri, integrity::Guard<ToUri>)],
    line: &[u8],
) -> (usize, usize) {
    use crate::convert::{Converter, Outcome};
    let (mut answered, mut declined) = (0, 0);
    for (quick, slow) in twins.iter_mut() {
        let mut a = b"x".to_vec();
        let Some(wrote) = quick.convert_crawl_line(line, || std::str::from_utf8(line).ok(), &mut a)
        else {
            assert_eq!(a, b"x", "declined, out untouched");
            declined += 1;
            continue;
        };
        answered += 1;
        let mut b = b"x".to_vec();
        let show = String::from_utf8_lossy(line);
        let o = slow
            .convert_into(line, &mut b)
            .unwrap_or_else(|e| panic!("{show:?}: shortcut answered, slow path {e:?}"));
        assert_eq!(a, b, "{show:?} {:?}", quick.options());
        let want = if wrote {
            Written::Wrote
        } else {
            Written::Passthrough
        };
        let expected = Outcome {
            written: want,
            ..Outcome::default()
        };
        assert_eq!(o, expected, "{show:?} {:?}", quick.options());
    }
    (answered, declined)
}

/// True when `host` holds a byte that [`ToUri::host_syntax`] or the C1 check of
/// [`ToUri::map_host`] could report: a C0 control or DEL (`CONTROL`), `[`, `]`, `%`, or the
/// lead byte `C2` of the C1 controls. False proves both silent. A fold without early exit,
/// which LLVM turns into 16-byte vector compares.
#[inline]
fn host_may_fail_checks(host: &[u8]) -> bool {
    host.iter().fold(false, |a, &b| {
        a | (b < 0x20) | (b == 0x7F) | (b == b'[') | (b == b']') | (b == b'%') | (b == 0xC2)
    })
}

/// [`integrity::quick_ok`] `&&` [`is_plain`](crate::grammar::validate::is_plain), the engine's
/// question for a line without a to-uri flagged byte (`Op::is_clean`): the same answer, for
/// less. [`plain_quick`] answers the common shapes of crawls (`https://`, `http://` and
/// `file://` without a port) in one pass of 16-byte compares; it is true only where both are,
/// and every other line asks them. The test
/// `plain_quick_implies_the_predicates_and_accepts_the_common_shapes` holds it to them on
/// every input, and `tests/engine.rs` compares the engine with its naive twin on every data
/// set.
#[inline]
pub fn is_clean_unflagged(line: &[u8]) -> bool {
    plain_quick(line) || (integrity::quick_ok(line) && crate::grammar::validate::is_plain(line))
}

/// The one-pass shortcut of [`is_clean_unflagged`]: true only for a line of the shape of
/// [`crawl_head`](crate::grammar::validate::crawl_head) that
///
/// * starts with `https://` or `http://` and has an authority (up to the first `/ ? #`,
///   RFC 3986 §3.2) that is not empty and holds neither `:` (a port, §3.2.3, whose digits
///   `is_plain` would read) nor `@` (userinfo, §3.2.1: `quick_ok` looks closer at such a
///   host); the host is then not empty (RFC 9110 §4.2.1: `missing_host` has nothing to find);
///   or
/// * starts with `file://` and has no `:` or `|` after its scheme (no port and no drive
///   letter, RFC 8089 §2 and Appendix E.2: `quick_ok`'s `file` rule, and `is_plain` has no
///   port to read).
///
/// Each 16-byte block gives the masks of the bytes it reads at once
/// ([`eq_masks16`](crate::simd::delims::eq_masks16)); every other line answers false ("ask
/// the predicates").
#[inline(always)]
fn plain_quick(line: &[u8]) -> bool {
    use crate::simd::delims::eq_masks16;
    let Some((a0, file)) = crate::grammar::validate::crawl_head(line) else {
        return false;
    };
    let n = line.len();
    // Blocks of 16 bytes from `i`; the last one is the line's last 16 bytes, whose bits
    // before `i` (`fresh` clears them) were seen in the block before.
    let block = |at: usize| -> &[u8; 16] { line[at..at + 16].try_into().expect("16 bytes") };
    let mut i = a0;
    if file {
        return crate::grammar::validate::no_colon_or_bar_from(line, a0);
    }
    loop {
        let at = i.min(n - 16);
        let [slash, question, hash, colon, at_sign] =
            eq_masks16(block(at), [b'/', b'?', b'#', b':', b'@']);
        let fresh = !0u32 << (i - at);
        let term = (slash | question | hash) & fresh;
        // The authority's bytes in this block: from `i` up to the first terminator.
        let auth = fresh & (term & term.wrapping_neg()).wrapping_sub(1);
        if (colon | at_sign) & auth != 0 {
            return false;
        }
        if term != 0 {
            return at + term.trailing_zeros() as usize > a0;
        }
        if at + 16 >= n {
            return true; // the authority runs to the end: n >= 16 > a0 bytes, not empty
        }
        i = at + 16;
    }
}

/// Whether the engine may pass an ASCII line with a to-uri flagged byte (`%`, `#`, `@`, `[`,
/// `]`, or one not allowed in a URI) through unchanged: it is a valid URI reference that the
/// converter would give back as it is
/// ([`is_valid_ascii_uri`](crate::grammar::validate::is_valid_ascii_uri)) and the
/// host-integrity checks have nothing to say ([`integrity::quick_ok`]). [`flagged_quick`]
/// answers the common shapes of crawls in one pass of 16-byte compares; it is true only where
/// the two are, and every other line asks them (the test
/// `flagged_quick_implies_the_predicates_and_accepts_the_common_shapes`).
#[inline]
pub fn is_valid_flagged(line: &[u8]) -> bool {
    // A word at a time first: non-ASCII lines need the converter anyway.
    line.is_ascii() && is_valid_flagged_ascii(line)
}

/// [`is_valid_flagged`] of a line the caller has found to be ASCII (the engine asks
/// `is_ascii` once to choose between this and [`ToUri::convert_crawl_line`]).
#[inline]
pub(crate) fn is_valid_flagged_ascii(line: &[u8]) -> bool {
    debug_assert!(line.is_ascii());
    flagged_quick(line)
        || (crate::grammar::validate::is_valid_ascii_uri(line) && integrity::quick_ok(line))
}

/// The one-pass shortcut of [`is_valid_flagged`]: true only for a line of the shape of
/// [`crawl_head`](crate::grammar::validate::crawl_head) whose every byte is allowed in a URI
/// (RFC 3986 §2), with no `[` or `]`
/// (IP literals, §3.2.2, ask the predicates), every `%` starting a `pct-encoded` triplet
/// (§2.1), at most one `#` (§3.5), and an authority (up to the first `/ ? #`, §3.2) without `:`
/// (a port), `@` (userinfo) or `%` (a percent-encoded host, 3987bis §3.4.2) that is not empty
/// for `https://` and `http://` (RFC 9110 §4.2.1); a `file://` line has no `:` after its
/// scheme (no port, no drive letter: RFC 8089 Appendix E.2; `|` is no URI character).
/// Such a line is a `scheme "://" reg-name path-abempty [ "?" query ] [ "#" fragment ]` of
/// RFC 3986 §3 and passes `quick_ok` (WHATWG URL §4.4 step 1: its last byte is above the
/// space). [`path_masks16`](crate::simd::delims::path_masks16) finds the bytes not allowed.
#[inline(always)]
fn flagged_quick(line: &[u8]) -> bool {
    use crate::simd::delims::{eq_masks16, path_masks16};
    let Some((a0, file)) = crate::grammar::validate::crawl_head(line) else {
        return false;
    };
    let n = line.len();
    if !file && matches!(line[a0], b'/' | b'?' | b'#') {
        return false; // an empty host
    }
    let block = |at: usize| -> &[u8; 16] { line[at..at + 16].try_into().expect("16 bytes") };
    // Blocks of 16 bytes from `i`; the last one is the line's last 16 bytes, whose bits below
    // `i - at` (`fresh` clears them) were seen in the block before. The authority first.
    let mut i = a0;
    let mut hashes = 0u32;
    // Whether every `%` of the block at `at` (the bits of `p`) starts a triplet.
    let triplets = |mut p: u32, at: usize| -> bool {
        while p != 0 {
            if !crate::grammar::pct::is_pct_triplet(line, at + p.trailing_zeros() as usize) {
                return false;
            }
            p &= p - 1;
        }
        true
    };
    loop {
        let at = i.min(n - 16);
        let b = block(at);
        let fresh = !0u32 << (i - at);
        let (x, percent, hash) = path_masks16(b);
        let [slash, question, colon, at_sign] = eq_masks16(b, [b'/', b'?', b':', b'@']);
        let term = (slash | question | hash) & fresh;
        let auth = fresh & (term & term.wrapping_neg()).wrapping_sub(1);
        if (colon | at_sign | percent) & auth != 0
            || (x | if file { colon } else { 0 }) & fresh != 0
        {
            return false;
        }
        hashes += (hash & fresh).count_ones();
        if !triplets(percent & fresh, at) {
            return false;
        }
        i = at + 16;
        if term != 0 || i >= n {
            break;
        }
    }
    // The rest of the line: only the bytes not allowed, `%`, `#` (and a file line's `:`).
    while i < n {
        let at = i.min(n - 16);
        let b = block(at);
        let fresh = !0u32 << (i - at);
        let (x, percent, hash) = path_masks16(b);
        let colon = if file { eq_masks16(b, [b':'])[0] } else { 0 };
        if (x | colon) & fresh != 0 {
            return false; // a byte not allowed (non-ASCII: the converter's), or a file `:`
        }
        hashes += (hash & fresh).count_ones();
        if !triplets(percent & fresh, at) {
            return false;
        }
        i = at + 16;
    }
    hashes <= 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simd::pct::kernel_stops_at;

    /// The lines [`flagged_quick`] answers itself, by its definition (see its doc).
    fn flagged_shape(line: &[u8]) -> bool {
        use crate::grammar::{classes::is_uri_char, pct::is_pct_triplet};
        let Some((file, rest, auth)) = crate::grammar::validate::crawl_parts(line) else {
            return false;
        };
        let a0 = line.len() - rest.len();
        rest.iter()
            .all(|&b| is_uri_char(b) && b != b'[' && b != b']')
            && (a0..line.len()).all(|k| line[k] != b'%' || is_pct_triplet(line, k))
            && rest.iter().filter(|&&b| b == b'#').count() <= 1
            && !auth.iter().any(|&b| matches!(b, b':' | b'@' | b'%'))
            && (file || !auth.is_empty())
            && !(file && rest.contains(&b':'))
    }

    /// `flagged_quick` against `is_ascii && is_valid_ascii_uri && quick_ok` (its twin): never
    /// true where that is false, on any bytes; the same answer as its definition
    /// (`flagged_shape`) everywhere; and `is_valid_flagged` equal to the twin, on the lines of
    /// `grammar::validate::shortcut_test_lines` (made, random, every data-set line).
    #[test]
    fn flagged_quick_implies_the_predicates_and_accepts_the_common_shapes() {
        use crate::convert::integrity::quick_ok;
        use crate::grammar::validate::is_valid_ascii_uri;
        crate::grammar::validate::assert_shortcut(
            flagged_quick,
            |line| line.is_ascii() && is_valid_ascii_uri(line) && quick_ok(line),
            flagged_shape,
            is_valid_flagged,
        );
    }

    /// The lines [`plain_quick`] answers itself, by their definition (see its doc).
    fn quick_shape(line: &[u8]) -> bool {
        let Some((file, rest, auth)) = crate::grammar::validate::crawl_parts(line) else {
            return false;
        };
        if file {
            return !rest.iter().any(|&b| b == b':' || b == b'|');
        }
        !auth.is_empty() && !auth.iter().any(|&b| b == b':' || b == b'@')
    }

    /// `plain_quick` against `quick_ok && is_plain` (its twin): never true where they are
    /// false, on any bytes; the same answer as its definition (`quick_shape`) everywhere; and
    /// `is_clean_unflagged` equal to the twin, on the lines of
    /// `grammar::validate::shortcut_test_lines` (made, random, every data-set line).
    #[test]
    fn plain_quick_implies_the_predicates_and_accepts_the_common_shapes() {
        use crate::convert::integrity::quick_ok;
        use crate::grammar::validate::is_plain;
        crate::grammar::validate::assert_shortcut(
            plain_quick,
            |line| quick_ok(line) && is_plain(line),
            quick_shape,
            is_clean_unflagged,
        );
    }

    /// [`ToUri::convert_crawl_line`] against its twin, the slow path it stands for
    /// ([`crawl_line_compare`] with every pair of [`crawl_line_twins`]), on every line of
    /// [`shortcut_test_lines`] (and every data set)
    /// and on made non-ASCII lines: crawl heads, then pieces of paths, queries and fragments
    /// with characters the kernel passes and ones it stops at (C1 controls, bidi formatting,
    /// private use, noncharacters, U+061C), `%` triplets whole and broken, spaces, `\`, `#`.
    ///
    /// [`shortcut_test_lines`]: crate::grammar::validate::shortcut_test_lines
    #[test]
    fn crawl_line_shortcut_equals_the_slow_path() {
        let twins = std::cell::RefCell::new(crawl_line_twins());
        let answered = std::cell::Cell::new(0usize);
        let declined = std::cell::Cell::new(0usize);
        let check = |line: &[u8]| {
            let (a, d) = crawl_line_compare(&mut twins.borrow_mut(), line);
            answered.set(answered.get() + a);
            declined.set(declined.get() + d);
        };
        let read = crate::grammar::validate::shortcut_test_lines(check, check);
        let pieces: [&str; 24] = [
            "/",
            "?",
            "#",
            "=",
            "&",
            "a",
            "Z",
            "-",
            "%41",
            "%e2%80",
            "%4",
            "%zz",
            " ",
            "\\",
            "é",
            "日本",
            "ж",
            "\u{1F600}",
            "\u{85}",
            "\u{200E}",
            "\u{E000}",
            "\u{FFFF}",
            "\u{61C}",
            "ا",
        ];
        let hosts = [
            "a.b",
            "xn--p1ai",
            "ex.com:8080",
            "u@h",
            "",
            "[::1]",
            "bü.de",
            "a%41",
            "bü.123",
            "日本",
            "bü.0x1f.",
            "\u{85}h",
            "a\u{200E}b",
            "ß.ς",
            // IDN hosts for the UTS #46 modes' shortcut: mapped (case, width, dots), deleted
            // characters (soft hyphen, ZWJ, variation selector), right-to-left, invalid
            // labels, hosts that end in a number once mapped, C1 and NBSP bytes (C2).
            "Bü.DE",
            "пример.рф",
            "例え.テスト",
            "ｅｘ。ｃｏｍ",
            "bü.de.",
            "ex\u{AD}ämple.de",
            "a\u{200D}ö.de",
            "ö\u{FE0F}.de",
            "עברית.ישראל",
            "مثال.إختبار",
            "a1.עברית",
            "xn--bü.de",
            "bü..de",
            "-bü.de",
            "bü.１２３",
            "bü.0x1F",
            "b\u{A0}ü.de",
            "\u{2488}ö.de",
            "ü_ö.de",
            "\u{301}ö.de",
        ];
        crate::grammar::validate::made_crawl_lines(
            0xD1B5_4A32_D192_ED03u64,
            &hosts,
            &pieces,
            check,
        );
        let (answered, declined) = (answered.get(), declined.get());
        assert!(
            answered > 50_000 && declined > 50_000,
            "{answered} {declined}"
        );
        assert!(!read || answered > 500_000, "{answered}");
        // The UTS #46 shortcut answers a plain IDN host and leaves a deleted character (a
        // `host-char-removed` warning) to the slow path.
        let mut conv = ToUri::new(ToUriOptions::default());
        let mut out = Vec::new();
        let line = "https://bü.de/ä";
        let idn = conv.convert_crawl_line(line.as_bytes(), || Some(line), &mut out);
        assert_eq!(
            (idn, &out[..]),
            (Some(true), &b"https://xn--b-eha.de/%C3%A4"[..])
        );
        out.clear();
        let line = "https://ex\u{AD}ämple.de/";
        let shy = conv.convert_crawl_line(line.as_bytes(), || Some(line), &mut out);
        assert_eq!((shy, out.len()), (None, 0));
    }

    /// [`host_may_fail_checks`] is false only where both host checks of
    /// [`ToUri::map_host`] are silent: every host of one and two bytes, and random hosts of
    /// every length up to 40 over the bytes that matter and some that do not.
    #[test]
    fn host_checks_prefilter_is_exact() {
        let conv = ToUri::new(ToUriOptions::default());
        let loops_silent = |h: &[u8]| {
            conv.host_syntax(h, 0).is_ok() && !h.windows(2).any(|w| w[0] == 0xC2 && w[1] < 0xA0)
        };
        let mut seen = [0usize; 2];
        let mut check = |h: &[u8]| {
            let may = host_may_fail_checks(h);
            assert!(may || loops_silent(h), "{h:02X?}");
            // Exact on the bytes it names: each of them makes it true.
            assert_eq!(
                may,
                h.iter()
                    .any(|&b| classes::is(b, CONTROL) || b"[]%\xC2".contains(&b)),
                "{h:02X?}"
            );
            seen[usize::from(may)] += 1;
        };
        for a in 0..=255u8 {
            check(&[a]);
            for b in 0..=255u8 {
                check(&[a, b]);
            }
        }
        let alphabet = [
            b'a', b'-', b'.', 0xC2, 0x80, 0x9F, 0xA0, 0xD0, 0xBF, b'%', b'4', b'[', b']', 0x00,
            0x1F, 0x7F, b' ',
        ];
        let mut x = 0x853C_49E6_748F_EA9Bu64;
        for len in 0..=40 {
            for _ in 0..2_000 {
                let h: Vec<u8> = (0..len)
                    .map(|_| {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        alphabet[(x >> 40) as usize % alphabet.len()]
                    })
                    .collect();
                check(&h);
            }
        }
        assert!(seen[0] > 1_000 && seen[1] > 1_000, "{seen:?}");
    }

    /// The SAFETY claim of [`ToUri::map_host`]: the host that the authority split finds in a
    /// line that is valid UTF-8 is valid UTF-8 too (it starts and ends at ASCII bytes or the
    /// line's ends), through both splits the converter takes (the caller's [`LineHead`] and
    /// [`components::split_authority`]), on every data-set line and on random lines of
    /// delimiters and multi-byte characters.
    #[test]
    fn host_of_a_valid_line_is_valid() {
        fn check(line: &[u8]) -> bool {
            if std::str::from_utf8(line).is_err() {
                return false;
            }
            let head = LineHead::of(line);
            let by_split = components::split(line)
                .authority
                .and_then(|a| components::split_authority(line, a).ok());
            let by_head = head.split_authority(line).and_then(Result::ok);
            for a in [by_split, by_head].into_iter().flatten() {
                let host = &line[a.host.clone()];
                assert!(
                    std::str::from_utf8(host).is_ok(),
                    "{:?} in {:?}",
                    a.host,
                    String::from_utf8_lossy(line)
                );
            }
            true
        }
        let valid = std::cell::Cell::new(0usize);
        let count = |l: &[u8]| valid.set(valid.get() + usize::from(check(l)));
        let read = crate::grammar::validate::shortcut_test_lines(count, count);
        let mut valid = valid.get();
        // Random lines of delimiters and characters of every UTF-8 length.
        let parts: [&str; 14] = [
            "/",
            "?",
            "#",
            ":",
            "@",
            "[",
            "]",
            "%41",
            ".",
            "a",
            "é",
            "日",
            "\u{1F600}",
            "//",
        ];
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..100_000 {
            let mut line = String::from(["http://", "https://", "//", "x:"][(x % 4) as usize]);
            for _ in 0..(x >> 60) + 2 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                line.push_str(parts[(x >> 32) as usize % parts.len()]);
            }
            valid += usize::from(check(line.as_bytes()));
        }
        assert!(valid > 100_000, "{valid}");
        assert!(!read || valid > 300_000, "{valid}");
    }

    /// The kernel skips the per-character check for every character it does not stop at (its
    /// lead byte is not a stop byte, and it is not a loud byte pair): prove, over every code point, every component and every option that the
    /// check reads, that the check has nothing to say about those characters.
    #[test]
    fn quiet_lead_bytes_start_only_quiet_characters() {
        let comps = [
            Component::Userinfo,
            Component::Host,
            Component::Path,
            Component::Query,
            Component::Fragment,
        ];
        for leiri in [false, true] {
            for strict in [false, true] {
                let conv = ToUri::new(ToUriOptions::default().leiri(leiri).strict(strict));
                let mut checked = 0u32;
                for c in (0x80..=0x10FFFFu32).filter_map(char::from_u32) {
                    let mut buf = [0u8; 4];
                    let bytes = c.encode_utf8(&mut buf).as_bytes();
                    let lead = bytes[0];
                    if kernel_stops_at(leiri, bytes, 0) {
                        continue;
                    }
                    checked += 1;
                    for comp in comps {
                        let mut o = Outcome::default();
                        let r = conv.check_char(c, comp, 7, &mut o);
                        assert!(
                            r.is_ok() && o == Outcome::default(),
                            "U+{:04X} (lead {lead:02X}) in {comp:?}, leiri {leiri}, strict {strict}: \
                             {r:?} {o:?}; make its lead byte a stop byte in src/simd/pct.rs",
                            c as u32
                        );
                    }
                }
                // The block path is not empty: most of the BMP's scripts take it.
                assert!(checked > 40_000, "{checked}");
            }
        }
    }
}
