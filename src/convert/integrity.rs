//! Host integrity (issue 16, contract item 17): the checks every mode runs so that a line
//! written without an error keeps, for a browser, the scheme, host, port and userinfo of its
//! input.
//!
//! Browsers parse URLs with the WHATWG URL Standard; RFC 3986 and the RFCs of the schemes
//! decide what iribulk writes. Where the two readings of a line would name different hosts,
//! the line is an error (or, for the documented IDNA2003 choice, a warning) instead of a
//! silent change. The checks here are syntactic and cheap; [`Guard`] runs them around a
//! converter, and the engine's fast path asks [`quick_ok`] first.
//!
//! * [`missing_host`]: `http https ws wss ftp` need a non-empty host (RFC 9110 §4.2.1,
//!   RFC 6455 §3); a browser would read the first path segment as the host.
//! * [`browser_stripped`]: TAB, CR, LF before the path and C0 controls or spaces at either
//!   end are removed by browsers (WHATWG URL §4.4, basic URL parser steps 1–3); they are
//!   never percent-encoded into a special-scheme URI. [`trim_into`] removes them (`--trim`).
//! * [`backslash_authority`]: a `\` where a browser reads the authority of a special URL
//!   (also among the slashes before it, and in a `blob:` URL's inner URL).
//! * [`backslash_reference`]: `\\x`, `/\x`, `\/x` against a special base are network-path
//!   references for a browser (WHATWG URL §4.4 "special relative or authority state") and
//!   relative paths for RFC 3986 §4.2.
//! * [`ends_in_number`]: a host name a browser reads as IPv4 (WHATWG URL §3.5).
//!
//! [`Guard`] runs them all around any [`Converter`], with resolution against a base: the
//! engine's worker wraps its mode in one, and so does every string helper of the crate root
//! (`iri_to_uri`, `to_iri`, `check`, `leiri_to_iri`, `normalize`, `resolve`), so the rule
//! holds for the library API as for the command.
//!
//! It lives in [`crate::convert`] because two checks ([`removed_char`], [`idna2003_differs`])
//! run the host mappings of [`crate::host`]; the scheme list is
//! [`components::BACKSLASH_SPECIAL_SCHEMES`] ([`components::is_special_scheme`]).

use crate::config::HostMode;
use crate::convert::{Converter, Outcome, Written};
use crate::error::{ErrorKind, LineError};
use crate::grammar::components::{self, is_special_scheme as is_special, SchemeClass};
use std::ops::Range;

/// True for `http https ws wss ftp` (the special schemes of WHATWG URL §4.1 without `file`,
/// whose host may be empty), ASCII case-insensitive.
pub fn is_net_special(scheme: &[u8]) -> bool {
    components::scheme_class(scheme) == SchemeClass::NetSpecial
}

/// What the [`Guard`]'s checks ask of the head of a line, found once per line: its scheme
/// ([`scheme_of`]) and the scheme's [`SchemeClass`], its authority and the start of its path
/// (RFC 3986 Appendix B, as [`components::split`] finds them), what
/// [`components::split_authority`] decides on in the authority, and whether the line holds a
/// TAB, CR, LF or `\` (what [`browser_stripped`] and [`backslash_authority`] look for). The
/// `*_at` functions answer like their namesakes from it instead of each scanning the line again
/// (they were a tenth of to-uri's instructions on `intl_cldr.txt`, issue 11), and the
/// converters that split the same line take it ([`crate::convert::Converter::convert_with_head`]);
/// the test `line_head_checks_match_twins` compares them on every line of every data set, on
/// the unit cases and on random lines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineHead {
    /// The scheme's length ([`scheme_of`]), without its `:`.
    pub scheme_len: Option<usize>,
    /// The class of the scheme ([`SchemeClass::Other`] without one).
    pub class: SchemeClass,
    /// The authority, without the leading `//`.
    pub authority: Option<Range<usize>>,
    /// Where the path starts.
    pub path_start: usize,
    /// True when the line holds a TAB, CR, LF or `\`.
    pub tab_newline_or_backslash: bool,
    /// The first `:` of the authority (an offset in the line).
    pub auth_colon: Option<usize>,
    /// The authority holds `@`, `[` or `]`.
    pub auth_at_or_bracket: bool,
    /// Found by [`LineHead::crawl`]: the line starts with `https://` or `http://`, has a
    /// non-empty authority of `reg-name` bytes without `%` and of non-ASCII bytes
    /// ([`crawl_authority`](crate::grammar::validate::crawl_authority)) and ends above the
    /// space, so [`browser_stripped_at`], [`backslash_authority_at`],
    /// [`missing_host_at`] and [`file_port_at`] have nothing to find and the authority holds
    /// no `\`; the rest of the line was not scanned, so
    /// [`tab_newline_or_backslash`](Self::tab_newline_or_backslash) is `true` ("may"). `false`
    /// from [`LineHead::of`] and [`LineHead::naive`].
    pub plain_crawl: bool,
}

impl LineHead {
    /// The head of `line`: one pass of 16-byte blocks ([`components::scan_head`]) and
    /// [`components::scheme_class`].
    #[inline]
    pub fn of(line: &[u8]) -> LineHead {
        let h = components::scan_head::<true>(line);
        let class = h
            .scheme
            .clone()
            .map_or(SchemeClass::Other, |r| components::scheme_class(&line[r]));
        LineHead {
            scheme_len: h.scheme.map(|r| r.end),
            class,
            authority: h.authority,
            path_start: h.path_start,
            tab_newline_or_backslash: h.tab_newline_or_backslash,
            auth_colon: h.auth_colon,
            auth_at_or_bracket: h.auth_at_or_bracket,
            plain_crawl: false,
        }
    }

    /// The Guard's head of `line`: [`LineHead::crawl`] for the common crawl line (no scan of
    /// the whole line, issue 11), else [`LineHead::of`].
    #[inline]
    pub fn find(line: &[u8]) -> LineHead {
        LineHead::crawl(line).unwrap_or_else(|| LineHead::of(line))
    }

    /// The head of the common crawl line without a scan of the whole line (issue 11):
    /// `Some` for a line of [`crawl_authority`](crate::grammar::validate::crawl_authority)'s
    /// shape (`https://` or `http://`, a non-empty authority of `reg-name` bytes without `%`
    /// and of non-ASCII bytes — a host in Unicode —, the last byte above the space), with [`LineHead::plain_crawl`] set and
    /// [`LineHead::tab_newline_or_backslash`] `true` (the path and the rest were not
    /// looked at); its other fields are [`LineHead::of`]'s. `None` for every other line. The
    /// tests of `tests/guard_head.rs` compare it with [`LineHead::of`] and its `*_at` answers
    /// with the checks' own on every line they try.
    #[inline]
    pub fn crawl(line: &[u8]) -> Option<LineHead> {
        let (a0, end, _) = crate::grammar::validate::crawl_authority(line)?;
        Some(LineHead::of_crawl_authority(a0, end))
    }

    /// [`LineHead::crawl`] of a line whose authority
    /// [`crawl_authority`](crate::grammar::validate::crawl_authority) found at `a0..end`,
    /// for a caller that asked it already.
    #[inline]
    pub(crate) fn of_crawl_authority(a0: usize, end: usize) -> LineHead {
        LineHead {
            scheme_len: Some(a0 - 3),
            class: SchemeClass::NetSpecial,
            authority: Some(a0..end),
            path_start: end,
            tab_newline_or_backslash: true,
            auth_colon: None,
            auth_at_or_bracket: false,
            plain_crawl: true,
        }
    }

    /// The [`components::Head`] this is of `line` (the converters' view of it).
    #[inline]
    pub fn head(&self) -> components::Head {
        components::Head {
            scheme: self.scheme_len.map(|l| 0..l),
            authority: self.authority.clone(),
            path_start: self.path_start,
            auth_colon: self.auth_colon,
            auth_at_or_bracket: self.auth_at_or_bracket,
            tab_newline_or_backslash: self.tab_newline_or_backslash,
        }
    }

    /// [`components::split_authority`] of the authority of `line` (whose head this is), from
    /// what the scan saw in it ([`components::Head::split_authority`]); `None` without one.
    #[inline]
    pub fn split_authority(&self, line: &[u8]) -> Option<Result<components::Authority, LineError>> {
        self.head().split_authority(line)
    }

    /// [`host_of`] `line` (whose head this is): its authority split, without splitting the
    /// head again.
    #[inline]
    pub fn host<'a>(&self, line: &'a [u8]) -> Option<&'a [u8]> {
        let a = self.split_authority(line)?.ok()?;
        Some(&line[a.host])
    }

    /// The twin of [`LineHead::of`]: [`scheme_of`], the list of special schemes,
    /// [`components::split`], the authority's bytes one by one and `memchr`.
    pub fn naive(line: &[u8]) -> LineHead {
        let scheme = scheme_of(line);
        let class = match scheme {
            Some(s) if s.eq_ignore_ascii_case(b"file") => SchemeClass::File,
            Some(s) if components::is_special_scheme_naive(s) => SchemeClass::NetSpecial,
            _ => SchemeClass::Other,
        };
        let c = components::split(line);
        let auth = c.authority.clone().map(|a| &line[a]).unwrap_or_default();
        let at = c.authority.as_ref().map_or(0, |a| a.start);
        LineHead {
            scheme_len: scheme.map(<[u8]>::len),
            class,
            authority: c.authority,
            path_start: c.path.start,
            tab_newline_or_backslash: memchr::memchr3(b'\t', b'\r', b'\n', line).is_some()
                || memchr::memchr(b'\\', line).is_some(),
            auth_colon: auth.iter().position(|&b| b == b':').map(|p| at + p),
            auth_at_or_bracket: auth.iter().any(|&b| matches!(b, b'@' | b'[' | b']')),
            plain_crawl: false,
        }
    }
}

/// True when `line` holds a TAB, CR, LF or `\`. Eight bytes at a time: a word with a byte
/// below 0x0E (TAB 09, LF 0A, CR 0D and the other controls below them) or a `\` is looked at
/// again with `memchr`, so the answer is exact; the test `line_head_checks_match_twins_*`
/// compares it with `memchr` alone.
#[inline]
pub fn has_tab_newline_or_backslash(line: &[u8]) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // Some byte of `x` is below 0x0E, or is `\` (the "has less" and "has zero" tests of
    // SWAR; exact on whether some byte matches, which is all that is asked).
    let maybe = |x: u64| -> bool {
        let below = x.wrapping_sub(ONES * 0x0E) & !x & HIGH;
        let y = x ^ (ONES * u64::from(b'\\'));
        let backslash = y.wrapping_sub(ONES) & !y & HIGH;
        below | backslash != 0
    };
    let mut words = line.chunks_exact(8);
    let mut hit = false;
    for w in &mut words {
        hit |= maybe(u64::from_le_bytes(w.try_into().expect("8 bytes")));
        if hit {
            break;
        }
    }
    if !hit {
        let rest = words.remainder();
        let mut b = [0x20u8; 8];
        b[..rest.len()].copy_from_slice(rest);
        hit = maybe(u64::from_le_bytes(b));
    }
    hit && (memchr::memchr3(b'\t', b'\r', b'\n', line).is_some()
        || memchr::memchr(b'\\', line).is_some())
}

/// The scheme of `line` (the bytes before the first `:` when they come before any `/ ? #`),
/// without its `:`. Not validated.
pub fn scheme_of(line: &[u8]) -> Option<&[u8]> {
    let j = line
        .iter()
        .position(|&b| matches!(b, b':' | b'/' | b'?' | b'#'))?;
    (j > 0 && line[j] == b':').then(|| &line[..j])
}

/// Where a reference of a special scheme (`http https ws wss ftp`) lacks its host: `Some`
/// offset (of the path, or of the empty host) when it has no authority (`http:/x`, `http:x`)
/// or an empty host (`http:///x`, `http://:80/`, `http://u@/`). RFC 9110 §4.2.1: "A sender
/// MUST NOT generate an "http" URI with an empty host identifier. A recipient that processes
/// such a URI reference MUST reject it as invalid"; RFC 6455 §3 for `ws`/`wss`; RFC 1738 §3.2
/// for `ftp`. An authority with another syntax error is left to the converters (`None`).
pub fn missing_host(line: &[u8]) -> Option<usize> {
    let scheme = scheme_of(line)?;
    if !is_net_special(scheme) || has_plain_host(&line[scheme.len() + 1..]) {
        return None;
    }
    let c = components::split(line);
    match c.authority {
        None => Some(c.path.start),
        Some(a) => match components::split_authority(line, a) {
            Ok(au) if au.host.is_empty() => Some(au.host.start),
            _ => None,
        },
    }
}

/// [`missing_host`] from the [`LineHead`] of `line`.
#[inline]
pub fn missing_host_at(line: &[u8], h: &LineHead) -> Option<usize> {
    if h.class != SchemeClass::NetSpecial {
        return None;
    }
    let Some(a) = h.authority.clone() else {
        return Some(h.path_start);
    };
    // `has_plain_host` on the authority already found (no `@`: the scan's flag, which also
    // counts brackets, only sends more authorities to the split).
    if !a.is_empty() && line[a.start] != b':' && !h.auth_at_or_bracket {
        return None;
    }
    match h.split_authority(line)? {
        Ok(au) if au.host.is_empty() => Some(au.host.start),
        _ => None,
    }
}

/// True for what browsers strip at either end of the input: C0 controls and space (WHATWG URL
/// §4.4 basic URL parser step 1, "leading and trailing C0 control or space").
#[inline]
fn is_c0_or_space(b: u8) -> bool {
    b <= b' '
}

/// True for what browsers remove anywhere: ASCII tab or newline (step 3).
#[inline]
fn is_tab_or_newline(b: u8) -> bool {
    matches!(b, b'\t' | b'\r' | b'\n')
}

/// The end of the part of `line` before the path once TAB, CR and LF are ignored: the scheme,
/// and the authority when the scheme is followed by two slashes (or backslashes, as a browser
/// reads a special URL); for a reference without a scheme that starts with two slashes, its
/// authority; else the scheme's end (0 without one).
fn before_path_end(line: &[u8]) -> usize {
    let mut i = 0;
    // Scheme (with tabs and newlines inside, as browsers read it).
    let mut j = 0;
    while j < line.len() {
        let b = line[j];
        if b == b':' {
            i = j + 1;
            break;
        }
        if !(b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.') || is_tab_or_newline(b)) {
            break;
        }
        j += 1;
    }
    // A special scheme: any run of slashes, backslashes, tabs and newlines leads to the
    // authority (WHATWG URL §4.4 special authority slashes and ignore slashes states).
    let special = i > 0 && {
        let s: Vec<u8> = line[..i - 1]
            .iter()
            .copied()
            .filter(|&b| !is_tab_or_newline(b))
            .collect();
        is_special(&s)
    };
    // Else two slashes, tabs and newlines allowed between.
    let mut k = i;
    let mut slashes = 0;
    while k < line.len() && (special || slashes < 2) {
        match line[k] {
            b'/' | b'\\' => slashes += 1,
            b if is_tab_or_newline(b) => {}
            _ => break,
        }
        k += 1;
    }
    if slashes < 2 && !special {
        // No authority: the part before the path is the scheme and the tabs after it.
        return i + line[i..]
            .iter()
            .take_while(|&&b| is_tab_or_newline(b))
            .count();
    }
    k + line[k..]
        .iter()
        .position(|&b| matches!(b, b'/' | b'\\' | b'?' | b'#'))
        .unwrap_or(line.len() - k)
}

/// The effective scheme of `line` as a browser reads it: leading C0 controls and spaces
/// skipped, TAB/CR/LF inside ignored. True when special, or `blob` (whose inner URL the rule
/// covers).
fn browser_scheme_special(line: &[u8]) -> Option<bool> {
    let start = line.iter().position(|&b| !is_c0_or_space(b))?;
    let mut s = Vec::with_capacity(8);
    for &b in &line[start..] {
        if b == b':' {
            return Some(is_special(&s) || s.eq_ignore_ascii_case(b"blob"));
        }
        if is_tab_or_newline(b) {
            continue;
        }
        if !(b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.')) || s.len() > 16 {
            return None;
        }
        s.push(b);
    }
    None
}

/// Where `line` holds what browsers strip before parsing (WHATWG URL §4.4, basic URL parser
/// steps 1–3): a C0 control or space at either end, or TAB, CR or LF before the path. Only
/// for a special scheme, a reference without a scheme when `base_special` (it resolves
/// against a special base), or a line in which a browser reads an authority
/// ([`browser_special`]). Percent-encoding these characters (what RFC 3987 §3.1 step 2 or
/// LEIRI §6.2 would do) gives a URI whose host differs from the browser's reading, so they
/// are an error (`browser-stripped`) unless `--trim` removes them ([`trim_into`]).
pub fn browser_stripped(line: &[u8], base_special: bool) -> Option<usize> {
    let first = *line.first()?;
    let last = *line.last()?;
    // What it can find is one of these bytes: a line without them (nearly every line) needs
    // neither the browser's scheme nor the end of its authority.
    if !holds_strippable(line) && blob_inner_stripped(line).is_none() {
        return None;
    }
    if !browser_special(line, base_special) {
        return None;
    }
    if is_c0_or_space(first) {
        return Some(0);
    }
    if let Some(at) = blob_inner_stripped(line) {
        return Some(at);
    }
    let mut end = before_path_end(line);
    if let Some(inner) = blob_inner(line) {
        // The inner URL's scheme and authority (W3C File API §8.3).
        end = line.len() - inner.len() + before_path_end(inner);
    }
    // In a `file` URL (or inner URL) the path decides the host too: a drive-letter segment
    // drops it for some browsers, and a TAB that a browser removes but RFC 3986 encodes
    // breaks one (`file://h/e:\r/x` is no host to the `url` crate, `file://h/e:%0D/x` is
    // host h; found by fuzzing): anywhere in the line.
    if browser_scheme_is_file(blob_inner(line).unwrap_or(line)) {
        end = line.len();
    }
    if let Some(p) = line[..end].iter().position(|&b| is_tab_or_newline(b)) {
        return Some(p);
    }
    if is_c0_or_space(last) {
        return Some(line.len() - 1);
    }
    None
}

/// The scheme a browser reads in `line` (leading C0 controls and spaces skipped, TAB/CR/LF
/// inside ignored) is `file`.
fn browser_scheme_is_file(line: &[u8]) -> bool {
    let mut scheme = browser_bytes(line);
    b"file:"
        .iter()
        .all(|&f| scheme.next().is_some_and(|b| b.eq_ignore_ascii_case(&f)))
}

/// [`browser_stripped`] from the [`LineHead`] of `line`: a line without a C0 control or space
/// at either end and without TAB, CR or LF (nearly every line) has nothing to find.
#[inline]
pub fn browser_stripped_at(line: &[u8], base_special: bool, h: &LineHead) -> Option<usize> {
    let (&first, &last) = (line.first()?, line.last()?);
    if h.plain_crawl
        || !is_c0_or_space(first)
            && !is_c0_or_space(last)
            && !h.tab_newline_or_backslash
            && blob_inner_stripped(line).is_none()
    {
        return None;
    }
    browser_stripped(line, base_special)
}

/// Where a C0 control or space starts the inner URL of a `blob:` line (after `blob:` and any
/// TAB/CR/LF, which a browser removes from the whole line first): the inner URL's own parse
/// strips it (W3C File API §8.3 origin; WHATWG URL §4.4 step 1), RFC 3986 reads it as path
/// data, percent-encoded, and the inner host is gone (`blob: https://ex.com/` was written
/// `blob:%20https://ex.com/`; found by a QA sweep). The blob URL itself keeps it (its opaque
/// path), so `--trim` cannot remove it: always `browser-stripped`.
pub fn blob_inner_stripped(line: &[u8]) -> Option<usize> {
    let inner = blob_inner(line)?;
    let p = inner.iter().position(|&b| !is_tab_or_newline(b))?;
    is_c0_or_space(inner[p]).then(|| line.len() - inner.len() + p)
}

/// Where the conversion of a `blob:` line `input` into `written` changed what a browser reads
/// as the origin of its inner URL (W3C File API §8.3: the inner URL's scheme, host and port):
/// the inner URL's start in `input`, or `None` (also for a line that is not `blob:`). Compared:
/// the part of each inner URL before its path ([`before_path_end`], as a browser delimits
/// it), ASCII-lower-cased, TAB/CR/LF removed, the userinfo and a reg-name host
/// percent-decoded, as a browser's host parser decodes a host (so `%C3%BC` for `ü`, what
/// to-uri writes, is the same host); the scheme is not decoded, as a browser does not
/// (`%68ttps:` is no scheme: to-iri and normalize decoding it made a host appear; found by a
/// QA sweep), nor an IP literal or the port (`:%38` is no port; `:8` is): an IP literal is
/// compared as its IPv6 address, a port as its number, and an inner URL where either is
/// not one has no origin, the same before and after.
pub fn blob_origin_changed(input: &[u8], written: &[u8]) -> Option<usize> {
    let inner = blob_inner(input)?;
    const NO_ORIGIN: &[u8] = b"\0no origin";
    let key = |line: &[u8]| -> Option<Vec<u8>> {
        let inner = blob_inner(line)?;
        let head: Vec<u8> = inner[..before_path_end(inner)]
            .iter()
            .copied()
            .filter(|&b| !is_tab_or_newline(b))
            .collect();
        // The scheme, when the inner URL has one that a browser reads (letters first).
        let scheme = match head.iter().position(|&b| b == b':') {
            Some(p) if head[0].is_ascii_alphabetic() => p + 1,
            // No scheme: the inner URL parses against no base, so it has no origin before or
            // after (`blob://ü/x` under `--host uts46` was refused for its host written
            // `xn--tda`, which check accepted; found by a QA sweep).
            _ => return Some(NO_ORIGIN.to_vec()),
        };
        let mut k = head[..scheme].to_ascii_lowercase();
        let decoded = |k: &mut Vec<u8>, part: &[u8]| {
            k.extend(crate::host::host_octets(part).unwrap_or_else(|| part.to_vec()))
        };
        // After the slashes: the userinfo up to the last `@` and a reg-name host are decoded;
        // an IP literal and the port are not, as a browser's IPv6 and port parsers do not
        // decode (a decoded `:%38` or `[::%31]` made a parseable origin of one no browser
        // parses; found by a QA sweep).
        let rest = &head[scheme..];
        let slashes = rest
            .iter()
            .take_while(|&&b| b == b'/' || b == b'\\')
            .count();
        // A special scheme other than `file` has an authority even without slashes (WHATWG
        // URL §4.4 special authority ignore slashes state: `http:ex.com:8/` is the host
        // ex.com, port 8), so its port and IP literal are read as after `//` (to-iri decoded
        // `blob:http:0x7f.1:%38/` into the origin `http://127.0.0.1:8`; found by a QA sweep).
        let authority =
            slashes > 0 || components::scheme_class(&head[..scheme - 1]) == SchemeClass::NetSpecial;
        if !authority {
            decoded(&mut k, rest);
        } else {
            k.extend_from_slice(&rest[..slashes]);
            let auth = &rest[slashes..];
            let host_at = auth.iter().rposition(|&b| b == b'@').map_or(0, |p| p + 1);
            decoded(&mut k, &auth[..host_at]);
            let hp = &auth[host_at..];
            // No origin at all (the inner URL does not parse): an IP literal that is no
            // IPv6 address, anything but a port after it, or a port that holds anything but
            // ASCII digits (`８`, which to-uri writes `%EF%BC%98`, is none either way). Two
            // inner URLs without an origin compare equal (found by a QA sweep:
            // `blob:http://[::%31]x/` to `[::1]x` was reported, and neither parses).
            let port_at = if hp.first() == Some(&b'[') {
                // WHATWG URL §3.5 IPv6 parser (the standard library's parser reads the same
                // text forms); compared as the address, not as written.
                let Some(close) = memchr::memchr(b']', hp) else {
                    return Some(NO_ORIGIN.to_vec());
                };
                let Some(addr) = std::str::from_utf8(&hp[1..close])
                    .ok()
                    .and_then(|t| t.parse::<std::net::Ipv6Addr>().ok())
                else {
                    return Some(NO_ORIGIN.to_vec());
                };
                k.extend_from_slice(format!("[{addr}]").as_bytes());
                close + 1
            } else {
                let p = memchr::memchr(b':', hp).unwrap_or(hp.len());
                decoded(&mut k, &hp[..p]);
                p
            };
            // The port as a browser's port state reads it: its number.
            let port = &hp[port_at..];
            if !port.is_empty() {
                match port.strip_prefix(b":") {
                    Some(digits) if digits.iter().all(u8::is_ascii_digit) => {
                        let n = digits
                            .iter()
                            .position(|&b| b != b'0')
                            .unwrap_or(digits.len());
                        k.push(b':');
                        k.extend_from_slice(&digits[n..]);
                    }
                    _ => return Some(NO_ORIGIN.to_vec()),
                }
            }
        }
        k.make_ascii_lowercase();
        // A TAB, CR or LF decoded (`%0D` that LEIRI wrote for a raw CR) is left to
        // `browser-stripped`, which reports the raw one.
        k.retain(|&b| !is_tab_or_newline(b));
        Some(k)
    };
    (key(input) != key(written)).then(|| input.len() - inner.len())
}

/// True when `--trim` changes `line`: it is special (or a reference against a special base,
/// `base_special`) and holds what browsers strip: a C0 control or space at either end, or a
/// TAB, CR or LF anywhere (WHATWG URL §4.4 steps 1–3). [`browser_stripped`] reports only
/// those that move the host; `--trim` removes them all, so that a TAB in the path is removed
/// whether or not the line has another to strip (it was `control-char` alone, removed beside
/// a trailing space; found by a QA sweep).
pub fn browser_trims(line: &[u8], base_special: bool) -> bool {
    holds_strippable(line) && browser_special(line, base_special)
}

/// `line` holds what browsers strip before parsing: a C0 control or space at either end, or a
/// TAB, CR or LF anywhere (WHATWG URL §4.4 steps 1–3). The prefilter of [`browser_stripped`]
/// and [`browser_trims`].
fn holds_strippable(line: &[u8]) -> bool {
    match (line.first(), line.last()) {
        (Some(&first), Some(&last)) => {
            is_c0_or_space(first)
                || is_c0_or_space(last)
                || memchr::memchr3(b'\t', b'\r', b'\n', line).is_some()
        }
        _ => false,
    }
}

/// A browser reads `line` with a special scheme (or `blob`, [`browser_scheme_special`]), or it
/// is a reference without a scheme against a special base (`base_special`), or a browser
/// reads an authority in it ([`browser_authority`]) whatever its scheme: WHATWG URL §4.4
/// strips for every URL, so `foo://example.com ` is the host `example.com` to a browser,
/// which percent-encoding the space made `example.com%20`, and ` //evil.com` against
/// `foo://host/a` the host `evil.com`, which RFC 3986 resolution made a path under `host`
/// (found by a QA sweep). A line of another scheme without an authority (`mailto:a@b.c `)
/// has no host for the space to move and keeps RFC 3987's percent-encoding.
fn browser_special(line: &[u8], base_special: bool) -> bool {
    match browser_scheme_special(line) {
        Some(true) => true,
        Some(false) => browser_authority(line),
        None => base_special && scheme_of(line).is_none() || browser_authority(line),
    }
}

/// The bytes of `line` as a browser's parser meets them (WHATWG URL §4.4 steps 1–3): leading
/// C0 controls and spaces skipped, TAB, CR and LF removed.
fn browser_bytes(line: &[u8]) -> impl Iterator<Item = u8> + Clone + '_ {
    line.iter()
        .copied()
        .skip_while(|&b| is_c0_or_space(b))
        .filter(|&b| !is_tab_or_newline(b))
}

/// A browser reads an authority in `line`: after any leading C0 controls and spaces and the
/// scheme, if any, come two slashes (TAB, CR and LF between them ignored, as WHATWG URL §4.4
/// removes them first).
///
/// Without a scheme, `\\` counts as a slash (`\\evil.com`, `/\\evil.com`): such a reference
/// is resolved against a special base, mostly, where a browser reads it so (special relative
/// slash state; a QA sweep found ` \\evil.com/x` written `%20%5C%5Cevil.com/x`).
fn browser_authority(line: &[u8]) -> bool {
    let mut bytes = browser_bytes(line);
    let mut rest = bytes.clone();
    let mut scheme = false;
    // A scheme: an ASCII letter, then letters, digits, `+`, `-`, `.`, then `:`.
    if bytes.next().is_some_and(|b| b.is_ascii_alphabetic()) {
        for b in bytes.by_ref() {
            if b == b':' {
                rest = bytes;
                scheme = true;
                break;
            }
            if !(b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.')) {
                break;
            }
        }
    }
    let slash = |b: Option<u8>| b == Some(b'/') || (!scheme && b == Some(b'\\'));
    slash(rest.next()) && slash(rest.next())
}

/// The inner URL of a `blob:` line (after `blob:` and any TAB/CR/LF), as a browser reads it.
fn blob_inner(line: &[u8]) -> Option<&[u8]> {
    // Asked of every line the Guard checks: no allocation, at most five bytes looked at
    // (TAB/CR/LF skipped) for a line that is not `blob:`.
    let mut n = 0;
    for (i, &b) in line.iter().enumerate() {
        if is_tab_or_newline(b) {
            continue;
        }
        if b == b':' {
            return (n == 4).then(|| &line[i + 1..]);
        }
        if n >= 4 || !b.eq_ignore_ascii_case(&b"blob"[n]) {
            return None;
        }
        n += 1;
    }
    None
}

/// Where a `\` lies in what a browser reads as the authority of a special-scheme URL, or
/// among the slashes before it (`file:\\host/x`, `https://good.co\m/`), in the line or in the
/// inner URL of a `blob:` line (W3C File API §8.3): a browser reads the `\` as a `/` there
/// (WHATWG URL §4.4 special authority slashes and host states), RFC 3986 as data of a path or
/// an authority, so the two read different hosts (`backslash-authority`). The inner URL and
/// the slashes are what [`components::backslash_in_special_authority`] (the RFC 3986
/// authority) does not see.
pub fn backslash_authority(line: &[u8]) -> Option<usize> {
    memchr::memchr(b'\\', line)?;
    let url = blob_inner(line).unwrap_or(line);
    let scheme = scheme_of(url)?;
    if !is_special(scheme) {
        return None;
    }
    let upto = if scheme.eq_ignore_ascii_case(b"file") {
        // WHATWG URL §4.4 file and file slash states: exactly two `/` or `\`, then the host
        // up to `/ \ ? #` (`file:///x\y` has an empty host: its `\` is in the path).
        let rest = &url[scheme.len() + 1..];
        if !matches!(rest.get(..2), Some([b'/' | b'\\', b'/' | b'\\'])) {
            return None;
        }
        let host = rest[2..]
            .iter()
            .position(|&b| matches!(b, b'/' | b'\\' | b'?' | b'#'))
            .unwrap_or(rest.len() - 2);
        scheme.len() + 1 + 2 + host + 1
    } else {
        // Any run of slashes, then the authority; the `\` that ends it counts too
        // (`https://good.co\m/`).
        before_path_end(url) + 1
    };
    memchr::memchr(b'\\', &url[..upto.min(url.len())]).map(|p| line.len() - url.len() + p)
}

/// [`backslash_authority`] from the [`LineHead`] of `line`: a line without `\\` has none.
#[inline]
pub fn backslash_authority_at(line: &[u8], h: &LineHead) -> Option<usize> {
    if !h.tab_newline_or_backslash || h.plain_crawl {
        return None;
    }
    backslash_authority(line)
}

/// [`file_port`] from the [`LineHead`] of `line`.
#[inline]
pub fn file_port_at(line: &[u8], h: &LineHead) -> Option<usize> {
    if h.class != SchemeClass::File {
        return None;
    }
    let a = h.split_authority(line)?.ok()?;
    a.port.map(|p| p.start - 1)
}

/// Where the authority of a `file` URL is a Windows drive letter (`file://C|/x`,
/// `file://c:/x`): the offset of the authority. Browsers read no host there but the path
/// `/C:/x` (WHATWG URL §4.4 file host state: "if buffer is a Windows drive letter, file-host-
/// to-path validation error", path state), RFC 3986 §3.2 the host `C|` (invalid) or `c` with
/// an empty port, and RFC 8089 Appendix E.2 knows the drive letter only in the path.
/// Percent-encoding the `|` (`file://C%7C/x`, found by a QA sweep) wrote a host browsers
/// refuse for a line they read as a local path, so the Guard refuses the line
/// (`drive-letter-reference`).
#[inline]
pub fn file_drive_host_at(line: &[u8], h: &LineHead) -> Option<usize> {
    if h.class != SchemeClass::File {
        return None;
    }
    let a = h.authority.clone()?;
    is_drive_letter(&line[a.clone()]).then_some(a.start)
}

/// True when the path of a `file` URL starts with a drive letter written with `|`
/// (`/C|/x`, `C|`): browsers read `C:` (WHATWG URL §4.4 path state: "replace the second code
/// point in buffer with U+003A (:)"; RFC 8089 Appendix E.2.2, the RFC 1738 legacy form), while
/// RFC 3986 reads a `|`, which iribulk would percent-encode into the path `/C%7C/x`: another
/// file for a browser (found by a QA sweep). The Guard refuses it (`drive-letter-reference`).
fn bar_drive(path: &[u8]) -> bool {
    let p = path.strip_prefix(b"/").unwrap_or(path);
    p.get(1) == Some(&b'|')
        && is_drive_letter(&p[..2])
        && matches!(p.get(2), None | Some(b'/' | b'\\' | b'?' | b'#'))
}

/// `C:` or `c|` (RFC 8089 Appendix E.2, WHATWG URL §4.3 "Windows drive letter").
fn is_drive_letter(s: &[u8]) -> bool {
    s.len() == 2 && s[0].is_ascii_alphabetic() && matches!(s[1], b':' | b'|')
}

/// Where a `file` URI has a port (even an empty one): RFC 8089 §2 `file-auth = "localhost" /
/// host` has none, and browsers refuse a `:` in a file host (WHATWG URL §4.4 file host
/// state), so dropping an empty port (normalization, RFC 3986 §6.2.3) would turn a refused
/// line into a working one.
pub fn file_port(line: &[u8]) -> Option<usize> {
    if !scheme_of(line)?.eq_ignore_ascii_case(b"file") {
        return None;
    }
    let c = components::split(line);
    let a = components::split_authority(line, c.authority?).ok()?;
    a.port.map(|p| p.start - 1)
}

/// Appends `line` as a browser reads it to `out`: C0 controls and spaces at either end
/// removed, and every TAB, CR and LF (WHATWG URL §4.4 steps 1–3). Returns the number of bytes
/// removed (`--trim`: one repair per line that had any).
pub fn trim_into(line: &[u8], out: &mut Vec<u8>) -> usize {
    let start = line
        .iter()
        .position(|&b| !is_c0_or_space(b))
        .unwrap_or(line.len());
    let end = line
        .iter()
        .rposition(|&b| !is_c0_or_space(b))
        .map_or(start, |p| p + 1);
    let mark = out.len();
    out.extend(
        line[start..end]
            .iter()
            .copied()
            .filter(|&b| !is_tab_or_newline(b)),
    );
    line.len() - (out.len() - mark)
}

/// The byte of `line` that is byte `off` of its [`trim_into`] form (the end of the kept bytes
/// for `off` at or past the end): reports on a `--trim`med line point into the line as read.
pub fn untrimmed_offset(line: &[u8], off: usize) -> usize {
    let start = line
        .iter()
        .position(|&b| !is_c0_or_space(b))
        .unwrap_or(line.len());
    let end = line
        .iter()
        .rposition(|&b| !is_c0_or_space(b))
        .map_or(start, |p| p + 1);
    let mut kept = 0;
    for (i, &b) in line[..end].iter().enumerate().skip(start) {
        if is_tab_or_newline(b) {
            continue;
        }
        if kept == off {
            return i;
        }
        kept += 1;
    }
    end
}

/// True when `reference` starts with a run of two or more `/` and `\` that holds a `\`
/// (`\\`, `/\`, `\/`, `///\`: found by a QA sweep): after a special base, WHATWG URL §4.4
/// (special relative slash, special authority ignore slashes) skips the run and reads a host,
/// RFC 3986 §4.2 a path.
pub fn backslash_reference(reference: &[u8]) -> bool {
    let run = reference
        .iter()
        .take_while(|&&b| b == b'/' || b == b'\\')
        .count();
    run >= 2 && reference[..run].contains(&b'\\')
}

/// Where a `\` lies in the authority of a network-path reference (`//good.com\@evil.com/`,
/// RFC 3986 §4.2: `//` and no scheme): the offset of the first one. Resolved against a
/// special base, a browser reads the `\` as the end of the host (WHATWG URL §4.4 special
/// authority and host states: good.com), RFC 3986 as data of the authority (§3.2: the host
/// after the last `@`, evil.com), and percent-encoding it makes evil.com the host for both.
///
/// A browser skips any run of slashes there (special authority ignore slashes state):
/// `///good.com\@evil.com/` is good.com to it too, and written with `%5C` evil.com (a QA
/// sweep), so after a run of two or more `/` the `\` that ends a browser's host counts.
pub fn backslash_network_path(reference: &[u8]) -> Option<usize> {
    let run = reference.iter().take_while(|&&b| b == b'/').count();
    if run < 2 {
        return None;
    }
    let rest = &reference[run..];
    let end = rest
        .iter()
        .position(|&b| matches!(b, b'/' | b'?' | b'#'))
        .unwrap_or(rest.len());
    memchr::memchr(b'\\', &rest[..end]).map(|p| p + run)
}

/// True when `reference` is relative, not a fragment alone, and `base` is a `blob:` URL whose
/// path is opaque (no authority, the path does not start with `/`: `blob:https://good.com/u`;
/// W3C File API §8.3). Browsers refuse it (WHATWG URL §4.4 no scheme state: "base has an
/// opaque path and c is not U+0023 (#)": failure); RFC 3986 §5.2.3 merges it into the inner
/// URL, whose host `..` segments or an authority can then change (`../../evil.com/x` gives
/// `blob:https://evil.com/x`, `//evil.com/x` gives `blob://evil.com/x`; found by a QA sweep).
/// README's host rule covers the inner URL of `blob:`, so such a line is refused. Other
/// opaque bases (`mailto:`, `urn:`) keep RFC 3986 resolution: the rule does not cover them.
pub fn opaque_base_reference(base: &[u8], reference: &[u8]) -> bool {
    let opaque_blob = scheme_of(base).is_some_and(|s| s.eq_ignore_ascii_case(b"blob"))
        && !base[5..].starts_with(b"/");
    opaque_blob && scheme_of(reference).is_none() && !reference.starts_with(b"#")
}

/// True when the path of `reference` (no scheme, no authority) starts with a Windows drive
/// letter, `/` optional: `c:`, `/C|/x` (WHATWG URL §4.4 "starts with a Windows drive letter";
/// RFC 8089 Appendix E.2). Against a `file` base, browsers then drop the base's host.
pub fn drive_letter_reference(reference: &[u8]) -> bool {
    if scheme_of(reference).is_some() && !reference.starts_with(b"/") {
        // `c:/x` splits as the scheme `c`: it is a drive letter for a file base too.
        if !(reference.len() >= 2 && reference[0].is_ascii_alphabetic() && reference[1] == b':') {
            return false;
        }
    }
    let p = reference.strip_prefix(b"/").unwrap_or(reference);
    if reference.starts_with(b"//") {
        return false;
    }
    p.len() >= 2
        && p[0].is_ascii_alphabetic()
        && matches!(p[1], b':' | b'|')
        && matches!(p.get(2), None | Some(b'/' | b'\\' | b'?' | b'#'))
}

/// True when `url` is a `file` URL with a non-empty host whose first path segment is a Windows
/// drive letter (`file://h/C:/x`): browsers read no host there (WHATWG URL §4.4 path state), so
/// a resolution that produces one from a base with a host moves the link.
pub fn file_drive_with_host(url: &[u8]) -> bool {
    if !scheme_of(url).is_some_and(|s| s.eq_ignore_ascii_case(b"file")) {
        return false;
    }
    let c = components::split(url);
    let Some(a) = c.authority else {
        return false;
    };
    if a.is_empty() {
        return false;
    }
    starts_with_drive(&url[c.path])
}

/// True when the path component `path` starts with a Windows drive letter segment (`/C:`,
/// `/c|`, alone or before `/` or `\\`).
fn starts_with_drive(path: &[u8]) -> bool {
    path.len() >= 3
        && path[0] == b'/'
        && path[1].is_ascii_alphabetic()
        && matches!(path[2], b':' | b'|')
        && matches!(path.get(3), None | Some(b'/' | b'\\'))
}

/// True when the `file` base `base` has a path that starts with a Windows drive letter and
/// RFC 3986 resolution of `reference` (without its `file:` scheme, if it had one) gave
/// `resolved` a `file` path that does not: a reference without an authority keeps the
/// base's drive letter for browsers (WHATWG URL §4.4 file slash state, and "shorten a path"
/// never removes it), while §5.2.2's path-absolute case and §5.2.4's `..` remove it
/// (`/x` or `../../x` against `file:///c:/dir/`: browsers `file:///c:/x`, RFC 3986
/// `file:///x`). README promises `drive-letter-reference` for it (found by a QA sweep).
/// `resolved` is a `file` URL (its caller knows it from the result's [`LineHead`]).
pub fn drive_removed(base: &[u8], reference: &[u8], resolved: &[u8]) -> bool {
    let base_file = scheme_of(base).map(components::scheme_class) == Some(SchemeClass::File);
    if !base_file || reference.starts_with(b"//") {
        return false;
    }
    starts_with_drive(&base[components::split(base).path])
        && !starts_with_drive(&resolved[components::split(resolved).path])
}

/// True when a segment of `path` (split on `/` and `\\`) is a Windows drive letter (`C:`,
/// `c|`): browsers never remove it with `..` and make it the first segment of a `file` URL
/// with no host (WHATWG URL §4.4 path state, "shorten a path"), RFC 3986 §5.2.4 removes it.
pub fn has_drive_segment(path: &[u8]) -> bool {
    path.split(|&b| b == b'/' || b == b'\\')
        .any(is_drive_letter)
}

/// True when a browser reads another file path in `written` than in `reference` (resolved
/// against `base`, if any): the WHATWG URL parser (the `url` crate) on both, the paths
/// compared percent-decoded (to-uri writes `%7C` where the input has `|` in a later segment,
/// the same file). Only for a `file` line (its scheme, or a base's for a reference without
/// one) holding `:` or `|` after the scheme, or against a base that does: the drive-letter
/// rules (WHATWG URL §4.4 file state, path state, "shorten a path") are where RFC 3986 and
/// browsers part. iribulk's own rules ([`dots_remove_drive`], [`drive_removed`],
/// [`bar_drive`]) answer the common cases first; the QA sweep's re-check found dot segments
/// that moved a drive letter past them (`/./C:/x` against `file:///D:/d/e` was written
/// `file:///C:/x`, a browser reads `file:///D:/C:/x`; `file:/./C|/x` was written
/// `file:/./C%7C/x`, another file than `file:///C:/x`). A line the parser refuses is left
/// to the other checks.
pub fn file_path_moved(base: Option<&[u8]>, reference: &[u8], written: &[u8]) -> bool {
    let file = |s: &[u8]| s.eq_ignore_ascii_case(b"file");
    let rest = |s: &[u8]| match scheme_of(s) {
        Some(sc) => {
            s.len() > sc.len() + 1 && memchr::memchr2(b':', b'|', &s[sc.len() + 1..]).is_some()
        }
        None => memchr::memchr2(b':', b'|', s).is_some(),
    };
    let is_file = match scheme_of(reference) {
        Some(s) => file(s),
        None => base.and_then(scheme_of).is_some_and(file),
    };
    if !is_file || !(rest(reference) || base.is_some_and(rest)) {
        return false;
    }
    let (Ok(r), Ok(w)) = (std::str::from_utf8(reference), std::str::from_utf8(written)) else {
        return false;
    };
    let read = match base.map(std::str::from_utf8) {
        Some(Ok(b)) => url::Url::parse(b).and_then(|b| b.join(r)),
        Some(Err(_)) => return false,
        None => url::Url::parse(r),
    };
    let (Ok(read), Ok(wrote)) = (read, url::Url::parse(w)) else {
        return false;
    };
    if read.scheme() != "file" || wrote.scheme() != "file" {
        return false;
    }
    if read.host_str() != wrote.host_str() {
        return true;
    }
    let (rk, wk) = (path_key(read.path()), path_key(wrote.path()));
    rk != wk && !(same_drive(read.path(), wrote.path()) && nfkc_eq(&rk, &wk))
}

/// The drive letter (WHATWG URL §4.4: the first segment of a parsed `file` path, `C:`) of
/// two parsed paths is the same (in either case), or neither has one.
fn same_drive(a: &str, b: &str) -> bool {
    let drive =
        |p: &str| starts_with_drive(p.as_bytes()).then(|| p.as_bytes()[1].to_ascii_lowercase());
    drive(a) == drive(b)
}

/// Two decoded paths are the same text after NFKC: `normalize --nfc/--nfkc` changes the
/// characters of a path by design (RFC 3987 §5.3.2.2), which is no move of the file a link
/// names (`file:///x/a:ｚ` → `file:///x/a:z` was refused as `drive-letter-reference`: a QA
/// sweep). NFKC covers NFC's changes too. The drive letter is compared apart
/// ([`same_drive`]): an NFKC that makes one (`C：` → `C:`) still moves the path.
fn nfkc_eq(a: &[u8], b: &[u8]) -> bool {
    use unicode_normalization::UnicodeNormalization;
    let (Ok(a), Ok(b)) = (std::str::from_utf8(a), std::str::from_utf8(b)) else {
        return false;
    };
    a.nfkc().eq(b.nfkc())
}

/// The path `p` of a parsed `file` URL as [`file_path_moved`] compares it: a first segment
/// `C|` read as the drive `C:` (WHATWG URL §4.4 path state, also when dot segments emptied
/// the path before it, which the `url` crate does not apply; before decoding: `C%7C` is no
/// drive letter), then `%HH` decoded, and `\` read as `/` (README's choice for every scheme:
/// a `\` in the path does not move a link).
fn path_key(p: &str) -> Vec<u8> {
    let b = p.as_bytes();
    let bar_drive = b.len() >= 3
        && b[0] == b'/'
        && b[1].is_ascii_alphabetic()
        && b[2] == b'|'
        && matches!(b.get(3), None | Some(b'/'));
    let mut v = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let x = match next_octet(b, &mut i) {
            (b'|', false) if bar_drive && i == 3 => b':',
            (x, _) => x,
        };
        v.push(if x == b'\\' { b'/' } else { x });
    }
    v
}

/// True when removing the dot segments of the `file` path `path` (RFC 3986 §5.2.4, with the
/// `%2E` forms counted as dots, as normalize decodes them and browsers read them) removes a
/// Windows drive letter that browsers keep: a `..` that meets the path made of the drive
/// letter alone (WHATWG URL §4.4 "shorten a path" never pops it; `/C:/../x` is `/C:/x` to a
/// browser and `/x` to RFC 3986). Segments are split on `/` and `\`. `file:///C:/x/./z` and
/// `file:///C:/x/y/../z` keep their drive letter both ways (they were refused whole, found by
/// a QA sweep).
pub fn dots_remove_drive(path: &[u8]) -> bool {
    let path = match path.first() {
        Some(b'/' | b'\\') => &path[1..],
        _ => path,
    };
    // The segments kept so far, and whether the first of them is a drive letter.
    let mut depth = 0usize;
    let mut drive_first = false;
    for seg in path.split(|&b| b == b'/' || b == b'\\') {
        match dot_segment(seg) {
            Some(1) => {}
            Some(_) => {
                if depth == 1 && drive_first {
                    return true;
                }
                depth = depth.saturating_sub(1);
            }
            None => {
                if depth == 0 {
                    drive_first = is_drive_letter(seg);
                }
                depth += 1;
            }
        }
    }
    false
}

/// `Some(1)` for a `.` segment, `Some(2)` for `..` (`%2E` forms included), else `None`.
fn dot_segment(seg: &[u8]) -> Option<u8> {
    match seg.len() {
        1 | 3 if seg == b"." || seg.eq_ignore_ascii_case(b"%2e") => Some(1),
        2 | 4 | 6
            if seg == b".."
                || seg.eq_ignore_ascii_case(b"%2e%2e")
                || seg.eq_ignore_ascii_case(b".%2e")
                || seg.eq_ignore_ascii_case(b"%2e.") =>
        {
            Some(2)
        }
        _ => None,
    }
}

/// True when `path` has a `.` or `..` segment (RFC 3986 §5.2.4; `%2E` forms included, as
/// browsers read them).
pub fn has_dot_segment(path: &[u8]) -> bool {
    path.split(|&b| b == b'/' || b == b'\\').any(|seg| {
        let l = seg.to_ascii_lowercase();
        matches!(
            &l[..],
            b"." | b".." | b"%2e" | b"%2e%2e" | b".%2e" | b"%2e."
        )
    })
}

/// WHATWG URL §3.5 "ends in a number checker" on an ASCII host: split on `.`, drop one empty
/// last part, and the last part is all ASCII digits or parses as an IPv4 number (`0x…` hex,
/// `0…` octal, decimal). Such a host is parsed as an IPv4 address by browsers (and refused if
/// that fails), whatever DNS holds.
pub fn ends_in_number(host: &[u8]) -> bool {
    if host.is_empty() {
        return false;
    }
    // One trailing dot is dropped (an empty last part); the part before it decides.
    let h = host.strip_suffix(b".").unwrap_or(host);
    let last = h.rsplit(|&b| b == b'.').next().unwrap_or(h);
    (!last.is_empty() && last.iter().all(u8::is_ascii_digit)) || ipv4_number(last)
}

/// For a written host `to` that ends in a number and is no dotted quad, converted from the
/// host `from`: true when the conversion made a host that RFC 3986 reads as a name and
/// browsers as an address (`ambiguous-ipv4`, WHATWG URL §3.5): every label of `to` is an IPv4
/// number (`127。1`, `𝟏27.1` and `0ｘ7f.1` written `127.1` and `0x7f.1`). A host whose last
/// label only is a number (`ü.1` written `xn--tda.1`, `bücher.１` written `xn--bcher-kva.1`)
/// is refused by browsers before and after (they map it first), one host; and a host that
/// only percent-decoding changed (`%31%32%37.1` written `127.1`) is the same one to RFC 3986
/// (§6.2.2.2) and to browsers. QA sweeps found each of these answered the other way.
pub fn made_numeric(from: &[u8], to: &[u8]) -> bool {
    whatwg_ipv4(to) && !pct_decoded_eq(from, to)
}

/// The octet at `b[*i]`, a `%HH` triplet decoded (true) or a byte as it is (false), and `*i`
/// moved past it (`i < b.len()`).
fn next_octet(b: &[u8], i: &mut usize) -> (u8, bool) {
    if crate::grammar::pct::is_pct_triplet(b, *i) {
        let h = |k: usize| crate::grammar::classes::hex_value(b[k]).unwrap_or(0);
        *i += 3;
        (h(*i - 2) << 4 | h(*i - 1), true)
    } else {
        *i += 1;
        (b[*i - 1], false)
    }
}

/// True when `from` with its `%HH` decoded is `to`, ASCII case ignored.
fn pct_decoded_eq(from: &[u8], to: &[u8]) -> bool {
    let mut t = to.iter();
    let mut i = 0;
    while i < from.len() {
        let (b, _) = next_octet(from, &mut i);
        if !t.next().is_some_and(|c| c.eq_ignore_ascii_case(&b)) {
            return false;
        }
    }
    t.next().is_none()
}

/// True when the WHATWG URL §4.3 IPv4 parser reads every part of `host` as a number (one
/// trailing dot dropped; at most four parts): a browser reads it as an address (or refuses it
/// as one out of range), never as a name.
fn whatwg_ipv4(host: &[u8]) -> bool {
    let h = host.strip_suffix(b".").unwrap_or(host);
    !h.is_empty()
        && h.split(|&b| b == b'.')
            .enumerate()
            .all(|(k, part)| k < 4 && ipv4_number(part))
}

/// WHATWG URL §4.3 "IPv4 number parser": success of `0x`/`0X` hex (possibly empty), `0`-led
/// octal, or decimal.
fn ipv4_number(s: &[u8]) -> bool {
    if s.is_empty() {
        return false;
    }
    if s.len() >= 2 && s[0] == b'0' && (s[1] == b'x' || s[1] == b'X') {
        return s[2..].iter().all(u8::is_ascii_hexdigit);
    }
    if s.len() >= 2 && s[0] == b'0' {
        return s[1..].iter().all(|b| (b'0'..=b'7').contains(b));
    }
    s.iter().all(u8::is_ascii_digit)
}

/// The host of an absolute reference with an authority (userinfo and port removed, brackets
/// kept), or `None`.
///
/// Splits only the scheme and authority ([`components::split_head`], whose scheme and
/// authority are [`components::split`]'s: the test `block_split_matches_memchr_twin`): the
/// Guard asks this of every line it checks, twice for the converters that map hosts.
pub fn host_of(line: &[u8]) -> Option<&[u8]> {
    let c = components::split_head(line);
    let a = components::split_authority(line, c.authority?).ok()?;
    Some(&line[a.host])
}

/// What host mapping deletes from `host` (decoded, Unicode): the first character that UTS #46
/// maps to nothing ("ignored", UTS #46 §5; `idna2003 == false`) or that Nameprep maps to
/// nothing (RFC 3491 §3, RFC 3454 table B.1; `idna2003 == true`), with its byte offset.
///
/// Only the characters whose UTF-8 lead byte is one of [`REMOVED_LEADS`] are decoded (the
/// others are never mapped to nothing: the test `removed_char_matches_twin_on_every_code_point`
/// compares it with [`removed_char_naive`] on every code point).
#[inline]
pub fn removed_char(host: &str, idna2003: bool) -> Option<(usize, char)> {
    let b = host.as_bytes();
    let mut base = 0;
    while base < b.len() {
        // 16 bytes at a time ([`crate::simd::delims::eq_masks16`]), the last block
        // zero-padded (zero is no lead byte).
        let block: [u8; 16] = match b.get(base..base + 16) {
            Some(c) => c.try_into().expect("16 bytes"),
            None => {
                let mut z = [0u8; 16];
                z[..b.len() - base].copy_from_slice(&b[base..]);
                z
            }
        };
        let mut leads = crate::simd::delims::eq_masks16(&block, REMOVED_LEADS)
            .iter()
            .fold(0, |m, x| m | x);
        while leads != 0 {
            let at = base + leads.trailing_zeros() as usize;
            leads &= leads - 1;
            // The second byte of the deleted characters under the three-byte leads that
            // most other text shares (Japanese under E3, Georgian and Hangul under E1,
            // full-width forms under EF): the others are not decoded (issue 11: check on
            // `intl_cldr`, the decode and lookup of every kana of a host cost ~1 % of it).
            // `removed_char_matches_twin_on_every_code_point` holds the list to the tables.
            let second = b.get(at + 1).copied().unwrap_or(0);
            let may = match b[at] {
                0xE1 => matches!(second, 0x85 | 0x9E | 0xA0),
                0xE3 => second == 0x85,
                0xEF => matches!(second, 0xB8 | 0xBB | 0xBE),
                _ => true,
            };
            if !may {
                continue;
            }
            // `at` is a lead byte (no continuation byte is in the set), so a char boundary.
            let c = host[at..].chars().next()?;
            if mapped_to_nothing(c, idna2003) {
                return Some((at, c));
            }
        }
        base += 16;
    }
    None
}

/// The UTF-8 lead bytes of every character that UTS #46 or Nameprep maps to nothing (U+00AD,
/// U+034F, U+115F..U+180F, U+200B..U+206F, U+3164, U+FE00..U+FFA0, U+1BCA0.., U+1D173..,
/// U+E0100..): [`removed_char`] looks closer only at characters that start with one of them.
pub const REMOVED_LEADS: [u8; 8] = [0xC2, 0xCD, 0xE1, 0xE2, 0xE3, 0xEF, 0xF0, 0xF3];

/// True when the host mapping deletes `c`: Nameprep (RFC 3454 table B.1) with `idna2003`,
/// else UTS #46 ("ignored").
#[inline]
fn mapped_to_nothing(c: char, idna2003: bool) -> bool {
    if c.is_ascii() {
        return false;
    }
    if idna2003 {
        return stringprep::tables::commonly_mapped_to_nothing(c);
    }
    uts46_ignored(c)
}

/// The twin of [`removed_char`]: every character of `host` in turn.
pub fn removed_char_naive(host: &str, idna2003: bool) -> Option<(usize, char)> {
    host.char_indices().find(|&(_, c)| {
        if c.is_ascii() {
            return false;
        }
        if idna2003 {
            return stringprep::tables::commonly_mapped_to_nothing(c);
        }
        uts46_ignored(c)
    })
}

/// True when UTS #46 maps `c` to nothing (status "ignored" in the IDNA Mapping Table, UTS #46
/// §5): a `match` on the few ranges of that status. It is asked about every non-ASCII
/// character of every mapped host; one UTS #46 run per character cost ~12 % of to-uri's
/// instructions, and a memo of [`uts46_ignored_naive`] still cost its per-page warm-up (128
/// UTS #46 runs for each page of code points a run touches, issue 11). The ranges are those of
/// the `idna` crate's data (Unicode 16); the test `uts46_ignored_matches_twin_on_every_code_point`
/// compares them with [`uts46_ignored_naive`] on every code point, so a new Unicode version
/// that changes the set fails it.
#[inline]
pub fn uts46_ignored(c: char) -> bool {
    matches!(
        c,
        '\u{AD}'
            | '\u{34F}'
            | '\u{115F}'..='\u{1160}'
            | '\u{17B4}'..='\u{17B5}'
            | '\u{180B}'..='\u{180F}'
            | '\u{200B}'
            | '\u{2060}'..='\u{2064}'
            | '\u{206A}'..='\u{206F}'
            | '\u{3164}'
            | '\u{FE00}'..='\u{FE0F}'
            | '\u{FEFF}'
            | '\u{FFA0}'
            | '\u{1BCA0}'..='\u{1BCA3}'
            | '\u{1D173}'..='\u{1D17A}'
            | '\u{E0100}'..='\u{E01EF}'
    )
}

/// The twin of [`uts46_ignored`]: UTS #46 mapping of `c` alone.
pub fn uts46_ignored_naive(c: char) -> bool {
    use idna::uts46::{AsciiDenyList, Hyphens, Uts46};
    let mut b = [0u8; 4];
    let (mapped, _) = Uts46::new().to_unicode(
        c.encode_utf8(&mut b).as_bytes(),
        AsciiDenyList::EMPTY,
        Hyphens::Allow,
    );
    mapped.is_empty()
}

/// How IDNA2003 (RFC 3490 ToASCII, kept by `--host idna2003`) and UTS #46 non-transitional
/// (browsers, WHATWG URL §3.5 "domain to ASCII") differ on `host` (decoded, Unicode), when
/// IDNA2003 succeeds: `None` when they agree; `Some(true)` when UTS #46 refuses a host whose
/// ZWJ/ZWNJ Nameprep deleted (`pay\u{200D}pal`: IDNA2003 reads `paypal`, browsers nothing:
/// always an error); `Some(false)` for other differences (`ß ς`, characters unassigned in
/// Unicode 3.2, normalization changes): the warning `idna2003-differs`.
pub fn idna2003_differs(host: &str, flags: crate::config::Idna2003Flags) -> Option<bool> {
    use crate::host::{to_ascii, Idna};
    let mut a = String::new();
    to_ascii(host, Idna::Idna2003(flags), &mut a).ok()?;
    let mut b = String::new();
    match to_ascii(host, Idna::Uts46, &mut b) {
        Ok(()) if a.eq_ignore_ascii_case(&b) => None,
        Ok(()) => Some(false),
        Err(_) => Some(host.contains(['\u{200C}', '\u{200D}'])),
    }
}

/// What a [`Guard`] needs to know of the converter it wraps and of its caller.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GuardOptions {
    /// `--trim`: what browsers strip is removed ([`trim_into`], counted as a repair) instead
    /// of the error `browser-stripped`.
    pub trim: bool,
    /// `--strict`: the warnings of the host mapping (`idna2003-differs`,
    /// `host-char-removed`) are errors.
    pub strict: bool,
    /// The host mode of a converter that maps hosts with IDNA (to-uri, normalize): the
    /// mapping checks ([`idna2003_differs`], [`removed_char`]) run on what it wrote. `None`
    /// for the converters that never map a host (to-iri, check, leiri-to-iri, resolution).
    pub maps_hosts: Option<HostMode>,
    /// The caller sees the text and no warning (the crate-root string helpers): the one
    /// warning that announces another host for browsers, `idna2003-differs`, is then an
    /// error, as it would otherwise go unseen (issue 16: "where iribulk cannot keep that
    /// promise, the line is an error").
    pub warnings_unseen: bool,
}

/// The identity converter: every line passes through ([`Written::Passthrough`]).
/// [`Guard`]`<Verbatim>` with a base is resolution (RFC 3986 §5.2) with the host-integrity
/// checks alone (the crate's `resolve`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Verbatim;

impl Converter for Verbatim {
    #[inline]
    fn convert_into(&mut self, _line: &[u8], _out: &mut Vec<u8>) -> Result<Outcome, LineError> {
        Ok(Outcome::default())
    }
}

/// A converter with the host-integrity checks of this module around it (issue 16, contract
/// item 17): what browsers strip (`browser-stripped`, or removed with
/// [`GuardOptions::trim`]), a `\` in a special authority (`backslash-authority`), a `file`
/// port, drive letters that resolution or dot-segment removal would move
/// (`drive-letter-reference`), `\\`-like references against a special base
/// (`backslash-reference`), a special scheme without a host (`missing-host`, on the reference
/// as resolved), and the host the converter wrote (`missing-host`, `ambiguous-ipv4`,
/// `idna2003-differs`, `host-char-removed`). With a base, the reference is resolved first
/// (RFC 3986 §5.2; non-strict for special schemes, [`crate::grammar::resolve`]).
///
/// Offsets of errors and warnings are in the reference as written. On error, `out` is left
/// as it was ([`Converter`]'s contract). The checks of what the converter wrote look at the
/// input where it passed the line through. A line that the guard trims or resolves is
/// [`Written::Wrote`] when the result differs from the reference as written, and passes
/// through otherwise.
#[derive(Debug)]
pub struct Guard<C> {
    inner: C,
    opts: GuardOptions,
    /// The resolved reference, reused between lines.
    resolved: Vec<u8>,
    /// The reference as browsers read it (`--trim`), reused between lines.
    trimmed: Vec<u8>,
    /// [`Self::popped_error`]'s scratch space: the ranges, the line made of one, its output.
    popped: (Vec<Range<usize>>, Vec<u8>, Vec<u8>),
}

impl<C: Converter> Converter for Guard<C> {
    #[inline]
    fn convert_into(&mut self, line: &[u8], out: &mut Vec<u8>) -> Result<Outcome, LineError> {
        self.convert_ref(None, line, out)
    }
}

impl<C: Converter> Guard<C> {
    /// `inner` with the checks around it.
    pub fn new(inner: C, opts: GuardOptions) -> Self {
        Guard {
            inner,
            opts,
            resolved: Vec::new(),
            trimmed: Vec::new(),
            popped: Default::default(),
        }
    }

    /// The wrapped converter.
    pub fn inner(&self) -> &C {
        &self.inner
    }

    /// The wrapped converter, for a caller that answers a line in its place (the engine's
    /// one-pass shortcut, `ToUri::convert_crawl_line`, which does what these checks would).
    pub(crate) fn inner_mut(&mut self) -> &mut C {
        &mut self.inner
    }

    /// The options.
    pub fn options(&self) -> GuardOptions {
        self.opts
    }

    /// Runs the converter on `reference`, resolved against `base` first when there is one,
    /// with every check of the [`Guard`] around it, appending the result to `out` (nothing
    /// when the result is `reference` itself: [`Written::Passthrough`]).
    pub fn convert_ref(
        &mut self,
        base: Option<&[u8]>,
        reference: &[u8],
        out: &mut Vec<u8>,
    ) -> Result<Outcome, LineError> {
        let mark = out.len();
        let mut r = self.convert_trimmed(base, reference, out);
        if let Ok(o) = &r {
            let written = match o.written {
                Written::Passthrough => reference,
                _ => &out[mark..],
            };
            if file_path_moved(base, reference, written) {
                r = Err(LineError::new(ErrorKind::DriveLetterReference, 0));
            }
        }
        if r.is_err() {
            out.truncate(mark);
        }
        r
    }

    /// [`Self::convert_ref`] without the final truncation: the strip check and `--trim`.
    fn convert_trimmed(
        &mut self,
        base: Option<&[u8]>,
        reference: &[u8],
        out: &mut Vec<u8>,
    ) -> Result<Outcome, LineError> {
        let mark = out.len();
        let base_special = base
            .and_then(scheme_of)
            .is_some_and(components::is_special_scheme);
        let mut trimmed = std::mem::take(&mut self.trimmed);
        trimmed.clear();
        let mut head = LineHead::find(reference);
        // A reference without a scheme resolves into a line with the base's authority: the
        // strip rule treats a base with an authority (`foo://host/`) as a special one, so that
        // resolving first (`iribulk::resolve`) and converting after gives the same answer.
        // A `blob:` base is special to a browser too (`#x ` against it was written `#x%20`;
        // found by a QA sweep).
        let strip_base =
            base.is_some_and(|b| browser_scheme_special(b) == Some(true) || browser_authority(b));
        let mut stripped = browser_stripped_at(reference, strip_base, &head);
        // Against a `file` base a reference without a scheme is a file URL, whose path decides
        // the host too: a TAB/CR/LF anywhere counts, as in a file line (`g<TAB>h` against
        // `file://host/share/x` was written `g%09h`; found by a QA sweep).
        if stripped.is_none()
            && head.tab_newline_or_backslash
            && base.is_some_and(browser_scheme_is_file)
            && scheme_of(reference).is_none()
        {
            stripped = reference.iter().position(|&b| is_tab_or_newline(b));
        }
        // `--trim` removes what browsers strip anywhere in a special line, except what starts
        // a `blob:` inner URL, which stays `browser-stripped` ([`blob_inner_stripped`]).
        let trim = self.opts.trim
            && (stripped.is_some() || browser_trims(reference, strip_base))
            && blob_inner_stripped(reference).is_none();
        let input: &[u8] = if trim {
            trim_into(reference, &mut trimmed);
            head = LineHead::of(&trimmed);
            &trimmed
        } else {
            reference
        };
        let mut r = self.convert_checked(base, base_special, input, &head, out);
        if let (true, Ok(o)) = (trim, &mut r) {
            if o.written == Written::Passthrough {
                // The result is the trimmed text: written, then compared below.
                out.extend_from_slice(input);
                o.written = Written::Wrote;
            }
        }
        if trim {
            // Offsets in the trimmed text back to the reference as written.
            let at = |off| untrimmed_offset(reference, off);
            r = match r {
                Ok(mut o) => {
                    o.first_warning = o
                        .first_warning
                        .map(|w| LineError::new(w.kind, at(w.offset)));
                    Ok(o)
                }
                Err(e) => Err(LineError::new(e.kind, at(e.offset))),
            };
        }
        if let (Some(at), Ok(_), false) = (stripped, &r, trim) {
            // The mode's own error (control-char, bad-scheme...) comes first; a line it would
            // write is `browser-stripped`.
            out.truncate(mark);
            r = Err(LineError::new(ErrorKind::BrowserStripped, at));
        }
        self.trimmed = trimmed;
        let o = r?;
        if let Some(w) = o.first_warning {
            // `idna2003-differs` is always the first warning (check_mapping); a caller that
            // sees no warnings gets it as the error, after every other error of the line.
            if self.opts.warnings_unseen && w.kind == ErrorKind::Idna2003Differs {
                out.truncate(mark);
                return Err(w);
            }
        }
        let mut o = o;
        if trim {
            o.repairs += 1;
        }
        if trim || base.is_some() {
            // The result was written whole (from the trimmed or the resolved text).
            o.settle(reference, out, mark);
        }
        Ok(o)
    }

    /// [`Self::convert_ref`] after the strip check: resolution, `missing-host`, the mode.
    /// `head` is the [`LineHead`] of `reference`.
    fn convert_checked(
        &mut self,
        base: Option<&[u8]>,
        base_special: bool,
        reference: &[u8],
        head: &LineHead,
        out: &mut Vec<u8>,
    ) -> Result<Outcome, LineError> {
        let mark = out.len();
        if let Some(at) = backslash_authority_at(reference, head) {
            return Err(LineError::new(ErrorKind::BackslashAuthority, at));
        }
        // A reference without a scheme is a crawl's relative link: it is resolved against its
        // page, mostly an `http(s)` one. Without a base, as against a special base, a `\`
        // where a browser reads an authority moves the host (a QA sweep: `//good.com\@evil.com/`
        // was written `//good.com%5C@evil.com/`, host good.com to a browser before, evil.com
        // after; `\\evil.com/x` was written as a path on the page's host).
        if head.tab_newline_or_backslash && (base.is_none() || base_special) {
            if let Some(at) = backslash_network_path(reference) {
                return Err(LineError::new(ErrorKind::BackslashAuthority, at));
            }
            if backslash_reference(reference) {
                return Err(LineError::new(ErrorKind::BackslashReference, 0));
            }
        }
        if let Some(at) = file_drive_host_at(reference, head) {
            return Err(LineError::new(ErrorKind::DriveLetterReference, at));
        }
        if let Some(at) = file_port_at(reference, head) {
            return Err(LineError::new(ErrorKind::BadPort, at));
        }
        // A file URL with a drive-letter segment and dot segments: RFC 3986 §5.2.4 may remove
        // the drive letter that browsers keep, dropping the host (WHATWG URL §4.4 path state).
        let file = |s: &[u8]| s.eq_ignore_ascii_case(b"file");
        let file_ref =
            head.class == SchemeClass::File || base.and_then(scheme_of).is_some_and(file);
        // Only a file reference needs its path (one split less for every other line).
        if file_ref {
            let rc = components::split(reference);
            let rpath = &reference[rc.path.clone()];
            if dots_remove_drive(rpath) || bar_drive(rpath) {
                return Err(LineError::new(
                    ErrorKind::DriveLetterReference,
                    rc.path.start,
                ));
            }
        }
        let Some(base) = base else {
            if let Some(at) = missing_host_at(reference, head) {
                return Err(LineError::new(ErrorKind::MissingHost, at));
            }
            let mut o = self.inner.convert_with_head(reference, head, out)?;
            let written = o.result(reference, out, mark);
            self.check_written(reference, head, written, &mut o)?;
            return Ok(o);
        };
        if opaque_base_reference(base, reference) {
            return Err(LineError::new(ErrorKind::OpaqueBaseReference, 0));
        }
        // `file:e:/` against a file base is the relative `e:/` (§5.2.2 non-strict).
        let rest = match scheme_of(reference) {
            Some(s) if file(s) => &reference[s.len() + 1..],
            _ => reference,
        };
        if scheme_of(base).is_some_and(file) && drive_letter_reference(rest) {
            return Err(LineError::new(ErrorKind::DriveLetterReference, 0));
        }
        if let Some(e) = self.popped_error(reference) {
            return Err(e);
        }
        self.resolved.clear();
        crate::grammar::resolve::resolve_into(base, reference, &mut self.resolved)?;
        let resolved = std::mem::take(&mut self.resolved);
        let rhead = LineHead::find(&resolved);
        // A drive letter and `%2E` dot segments left after resolution (RFC 3986 §5.2.4 removes
        // only literal ones): normalize would decode and remove them later, a browser reads
        // them as `..` now; the reference alone is refused so (found by a QA sweep).
        let drive_and_encoded_dots = || {
            let p = &resolved[components::split(&resolved).path];
            dots_remove_drive(p)
        };
        let r = if backslash_authority_at(&resolved, &rhead).is_some() {
            // Dot-segment removal put a `\` where a browser reads the authority's slashes:
            // `file:/../\evil.com/x` against `http://b.com/` is `file:/\evil.com/x`, the host
            // `evil.com` to a browser (to-iri and `resolve` keep the `\` raw; found by a QA
            // sweep). A browser resolving the reference reads no host.
            Err(LineError::new(ErrorKind::BackslashAuthority, 0))
        } else if file_drive_with_host(&resolved)
            || rhead.class == SchemeClass::File
                && (drive_removed(base, rest, &resolved) || drive_and_encoded_dots())
        {
            Err(LineError::new(ErrorKind::DriveLetterReference, 0))
        } else if file_drive_host_at(&resolved, &rhead).is_some() {
            // `//C|/x` against a file base: the drive letter came as the authority.
            Err(LineError::new(ErrorKind::DriveLetterReference, 0))
        } else if let Some(at) = file_port_at(&resolved, &rhead) {
            // `//h:/x` against a file base: the port came with the reference.
            Err(LineError::new(ErrorKind::BadPort, at))
        } else if let Some(at) = missing_host_at(&resolved, &rhead) {
            Err(LineError::new(ErrorKind::MissingHost, at))
        } else {
            self.inner
                .convert_with_head(&resolved, &rhead, out)
                .and_then(|mut o| {
                    let written = o.result(&resolved, out, mark);
                    self.check_written(&resolved, &rhead, written, &mut o)?;
                    if o.written == Written::Passthrough {
                        // The result is the resolved text: written, then compared with the
                        // reference by the caller.
                        out.extend_from_slice(&resolved);
                        o.written = Written::Wrote;
                    }
                    Ok(o)
                })
        };
        // Offsets in the resolved target back to the reference as written.
        let r = r
            .map(|mut o| {
                o.first_warning = o.first_warning.map(|w| {
                    LineError::new(w.kind, offset_in_reference(&resolved, reference, w.offset))
                });
                o
            })
            .map_err(|e| {
                LineError::new(e.kind, offset_in_reference(&resolved, reference, e.offset))
            });
        if r.is_err() {
            out.truncate(mark);
        }
        self.resolved = resolved;
        r
    }

    /// The first error of the mode in a segment of `reference` that resolution drops: RFC
    /// 3986 §5.2.4 removes each segment a later `..` pops
    /// ([`popped_segments`](crate::grammar::resolve::popped_segments)), so the mode, which
    /// runs on the resolved reference, would never see it, and a bad byte there (`\xFF`, a
    /// control, `%zz`) vanished with no report: `\xFF/../x` against `http://a/b/c` was
    /// written `http://a/b/x` (found by a QA sweep). The reference is not a URI reference
    /// (§4.1), so it has nothing to resolve (§5.2: "a URI reference"). Each popped segment
    /// goes through the mode alone, as the path `/segment` (its characters are checked as
    /// any path's), and an error there is the line's, at its column in `reference`.
    /// Warnings are not: what they warn about is not written.
    fn popped_error(&mut self, reference: &[u8]) -> Option<LineError> {
        // A `..` that pops a segment of the reference follows one, so a `/`: the whole line
        // then has a dot segment too (one `memchr` pass), and a line without (nearly every
        // one) is not split again here.
        if !crate::grammar::resolve::may_pop(reference) {
            return None;
        }
        let path = components::split(reference).path;
        let (ranges, line, out) = &mut self.popped;
        ranges.clear();
        crate::grammar::resolve::popped_segments(&reference[path.clone()], ranges);
        ranges.sort_by_key(|r| r.start);
        for r in ranges.iter().filter(|r| !r.is_empty()) {
            line.clear();
            line.push(b'/');
            line.extend_from_slice(&reference[path.start + r.start..path.start + r.end]);
            out.clear();
            if let Err(e) = self.inner.convert_into(line, out) {
                let at = path.start + r.start + e.offset.saturating_sub(1).min(r.len() - 1);
                return Some(LineError::new(e.kind, at));
            }
        }
        None
    }

    /// The checks of what the converter wrote from `input` ([`Self::check_written_full`]),
    /// skipped when the converter wrote `input` unchanged (`check` always does), or wrote the
    /// scheme and authority of `input` byte for byte ([`same_head`]: to-uri on a line whose
    /// host it left as it was, issue 11): the callers have found no missing host in `input`,
    /// so [`check_output`] finds none in `written` and no changed host, and
    /// [`Self::check_mapping`] finds the host as the mode left it. The tests
    /// `unchanged_lines_pass_check_written` and `same_head_lines_pass_check_written` run the
    /// full checks on such lines.
    fn check_written(
        &self,
        input: &[u8],
        head: &LineHead,
        written: &[u8],
        o: &mut Outcome,
    ) -> Result<(), LineError> {
        // A pass-through is `input` itself: no byte comparison needed.
        if o.written == Written::Passthrough || written == input {
            return Ok(());
        }
        // A `blob:` line keeps its outer head while its inner URL (the path) changes.
        if let Some(at) = blob_origin_changed(input, written) {
            return Err(LineError::new(ErrorKind::BlobOriginChanged, at));
        }
        if same_head(input, head, written) {
            return Ok(());
        }
        self.check_written_full(input, head, written, o)
    }

    /// [`check_output`], then [`Self::check_mapping`], with the written line split once for
    /// both; `head` is the [`LineHead`] of `input`.
    fn check_written_full(
        &self,
        input: &[u8],
        head: &LineHead,
        written: &[u8],
        o: &mut Outcome,
    ) -> Result<(), LineError> {
        let (auth_end, written_host) = check_written_output(input, head, written)?;
        if auth_end.is_some_and(|end| same_authority(input, written, end)) {
            // `input` has the written scheme and authority, so `host_of(input)` is
            // `written_host`: check_mapping finds the host as the mode left it.
            return Ok(());
        }
        self.check_mapping(input, head, written_host, o)
    }

    /// What IDNA mapping does to the host of a special-scheme `input` in the converters that
    /// map hosts (to-uri, normalize): `idna2003-differs` where `--host idna2003` gives another
    /// host than UTS #46 (an error for a deleted joiner UTS #46 refuses, and with `--strict`;
    /// always the first warning, so that [`GuardOptions::warnings_unseen`] finds it), and
    /// `host-char-removed` naming a character the mapping deleted (an error with `--strict`).
    /// RFC 3490 §4, UTS #46 §4, RFC 3491 §3; issue 16.
    fn check_mapping(
        &self,
        input: &[u8],
        head: &LineHead,
        written_host: Option<&[u8]>,
        o: &mut Outcome,
    ) -> Result<(), LineError> {
        let Some(host_mode) = self.opts.maps_hosts else {
            return Ok(());
        };
        if host_mode == HostMode::Percent || head.class == SchemeClass::Other {
            return Ok(());
        }
        let Some(raw) = head.host(input) else {
            return Ok(());
        };
        if raw.is_ascii() && !raw.contains(&b'%')
            || raw.first() == Some(&b'[')
            || written_host == Some(raw)
        {
            return Ok(()); // nothing to map, or the mode left the host as it was
        }
        let start = raw.as_ptr() as usize - input.as_ptr() as usize;
        // The project's block validator ([`crate::simd::utf8::validate`]: one zero-padded
        // 64-byte block for a host) instead of `core::str::from_utf8`'s byte loop, which cost
        // ~220 instructions a mapped host (issue 11).
        if crate::simd::utf8::validate(raw).is_err() {
            return Ok(());
        }
        // SAFETY: `validate` has just found `raw` to be UTF-8 (its test
        // `matches_twin_over_lengths_and_positions` compares it with `core::str::from_utf8`).
        let text = unsafe { std::str::from_utf8_unchecked(raw) };
        let pct = raw.contains(&b'%');
        // Percent-decoded (3987bis §3.4.2); a host without `%` is its own decoding.
        let decoded;
        let host: &str = if pct {
            let Some(d) = crate::host::decode_host_percent(text) else {
                return Ok(());
            };
            decoded = d;
            &decoded
        } else {
            text
        };
        let strict = self.opts.strict;
        let mut warn = |kind, at: usize, first: bool, error: bool| -> Result<(), LineError> {
            let e = LineError::new(kind, at);
            if error {
                return Err(e);
            }
            o.warnings += 1;
            if first {
                o.first_warning = Some(e);
            } else {
                o.first_warning.get_or_insert(e);
            }
            Ok(())
        };
        if let HostMode::Idna2003(flags) = host_mode {
            match idna2003_differs(host, flags) {
                Some(true) => return Err(LineError::new(ErrorKind::Idna2003Differs, start)),
                Some(false) => warn(ErrorKind::Idna2003Differs, start, true, strict)?,
                None => {}
            }
        }
        let idna2003 = matches!(host_mode, HostMode::Idna2003(_));
        if let Some((i, c)) = removed_char(host, idna2003) {
            let at = if pct { start } else { start + i };
            warn(ErrorKind::HostCharRemoved(c), at, false, strict)?;
        }
        Ok(())
    }
}

/// [`check_output`] on `written` (what a converter wrote from `input`, whose [`LineHead`] is
/// `head`), split here: `host_of(written)`, keeping the authority's end, and the written
/// scheme, the head of what was written (never the converter's split of its input). Returns
/// the written authority's end and host.
fn check_written_output<'w>(
    input: &[u8],
    head: &LineHead,
    written: &'w [u8],
) -> Result<(Option<usize>, Option<&'w [u8]>), LineError> {
    let wc = components::scan_head::<false>(written);
    let written_special = wc
        .scheme
        .clone()
        .is_some_and(|r| components::is_special_scheme(&written[r]));
    let auth_end = wc.authority.as_ref().map(|a| a.end);
    // A written `file` authority that is a drive letter ([`file_drive_host_at`]; the input's
    // was not, or the Guard had refused it): decoding made it one (`file://%43|/x` in to-iri
    // gave `file://C|/x`, found by a QA sweep), which browsers read as the path `/C:/x`.
    if let (Some(sr), Some(a)) = (&wc.scheme, &wc.authority) {
        if is_drive_letter(&written[a.clone()]) && written[sr.clone()].eq_ignore_ascii_case(b"file")
        {
            let at = head.authority.as_ref().map_or(0, |a| a.start);
            return Err(LineError::new(ErrorKind::DriveLetterReference, at));
        }
    }
    let written_host = wc
        .split_authority(written)
        .and_then(Result::ok)
        .map(|a| &written[a.host]);
    check_output(input, head, written, written_host, written_special)?;
    Ok((auth_end, written_host))
}

/// What [`Guard`]'s checks of a conversion's result ask of a converter that maps no host
/// (`GuardOptions::maps_hosts` is `None`: to-iri), for its one-pass shortcut
/// (`ToIri::convert_crawl_line`): `written`, the line it wrote from `input` (whose head is
/// `head`), passes exactly when the Guard's `check_written` would let it pass; the error is
/// the Guard's.
pub(crate) fn check_written_unmapped(
    input: &[u8],
    head: &LineHead,
    written: &[u8],
) -> Result<(), LineError> {
    if written == input || same_head(input, head, written) {
        return Ok(());
    }
    check_written_output(input, head, written).map(|_| ())
}

/// The host a converter wrote must still be one (`missing-host`: normalize must not turn
/// `http://:/x` into `http:///x`) and may not have become a name browsers read as IPv4
/// (`ambiguous-ipv4`, WHATWG URL §3.5) when conversion changed it. `input` is what the
/// converter read (`head` its [`LineHead`]), `written` what it wrote, `written_host` its
/// [`host_of`], `written_special` whether its scheme is special.
fn check_output(
    input: &[u8],
    head: &LineHead,
    written: &[u8],
    written_host: Option<&[u8]>,
    written_special: bool,
) -> Result<(), LineError> {
    // A written host that is not empty is no missing host (`missing_host` splits the same
    // authority and finds that host): the split is skipped.
    if written_host.is_none_or(<[u8]>::is_empty) {
        if let Some(at) = missing_host(written) {
            return Err(LineError::new(ErrorKind::MissingHost, at.min(input.len())));
        }
    }
    if !written_special {
        return Ok(());
    }
    let Some(h) = written_host else {
        return Ok(());
    };
    if ends_in_number(h) && !components::is_ipv4(h) {
        let from = head.host(input);
        if from.is_none_or(|i| made_numeric(i, h)) {
            let at = from.map_or(0, |i| i.as_ptr() as usize - input.as_ptr() as usize);
            return Err(LineError::new(ErrorKind::AmbiguousIpv4, at));
        }
    }
    Ok(())
}

/// True when `written` has the scheme and authority of `input` byte for byte (`head` is the
/// [`LineHead`] of `input`): `input` has an authority, and `written` has the bytes of `input`
/// up to the start of its path and ends there or has a `/`, `?` or `#` there. RFC 3986
/// Appendix B decides both by the bytes before the first `/ ? #` after the authority's start,
/// so `written` splits into the same scheme and authority, and its host is the host of
/// `input`. The comparison is of the bytes written (the Guard's own reading of `input`, not
/// the converter's split).
#[inline]
fn same_head(input: &[u8], head: &LineHead, written: &[u8]) -> bool {
    head.authority.is_some() && same_authority(written, input, head.path_start)
}

/// True when `input` has the scheme and authority of `written`, whose authority ends at
/// `end` (RFC 3986 Appendix B: both are decided by the bytes before the first `/ ? #` after
/// the authority's start): the bytes before `end` are the same, and `input` ends there or
/// has a delimiter that ends its authority there too.
pub(crate) fn same_authority(input: &[u8], written: &[u8], end: usize) -> bool {
    input.get(..end) == written.get(..end)
        && matches!(input.get(end), None | Some(b'/' | b'?' | b'#'))
}

/// Maps a byte offset in the resolved reference (RFC 3986 §5.2.2's target) back to the
/// reference as written in the line, so that a report's column is always a byte of the input
/// line. The target's fragment is the reference's; its query, authority and scheme are the
/// reference's when the reference has them (the same bytes); a path segment of the target is
/// found among the reference's segments (remove_dot_segments and the merge of §5.2.3 move
/// segments but never change one). A problem in a part that came from the base points at the
/// start of the reference (offset 0: the column of the field).
pub fn offset_in_reference(resolved: &[u8], reference: &[u8], off: usize) -> usize {
    let t = components::split(resolved);
    let r = components::split(reference);
    let same = |tr: Option<Range<usize>>, rr: Option<Range<usize>>| -> Option<usize> {
        let (tr, rr) = (tr?, rr?);
        (tr.contains(&off) && resolved[tr.clone()] == reference[rr.clone()])
            .then(|| rr.start + (off - tr.start))
    };
    let found = same(t.fragment.clone(), r.fragment.clone())
        .or_else(|| same(t.query.clone(), r.query.clone()))
        .or_else(|| same(t.authority.clone(), r.authority.clone()))
        .or_else(|| same(t.scheme.clone(), r.scheme.clone()))
        .or_else(|| same(Some(t.path.clone()), Some(r.path.clone())));
    if let Some(f) = found {
        return f;
    }
    if t.path.contains(&off) {
        // The segment of the target holding `off`, looked up among the reference's.
        let p = &resolved[t.path.clone()];
        let rel = off - t.path.start;
        let s0 = p[..rel]
            .iter()
            .rposition(|&b| b == b'/')
            .map_or(0, |k| k + 1);
        let s1 = p[rel..]
            .iter()
            .position(|&b| b == b'/')
            .map_or(p.len(), |k| rel + k);
        let seg = &p[s0..s1];
        let rp = &reference[r.path.clone()];
        let mut start = 0;
        for piece in rp.split(|&b| b == b'/') {
            if piece == seg {
                return r.path.start + start + (rel - s0);
            }
            start += piece.len() + 1;
        }
    }
    0
}

/// Fast-path guard: true when none of this module's checks can fire on `line` as it is (no
/// control or space at its ends, a non-empty host after `//` for `http https ws wss ftp`, no
/// port and no drive letter with dot segments in a `file` URL).
/// `false` only means "take the slow path" (an authority with `@` always does).
#[inline]
pub fn quick_ok(line: &[u8]) -> bool {
    match (line.first(), line.last()) {
        (Some(&f), Some(&l)) if is_c0_or_space(f) || is_c0_or_space(l) => return false,
        _ => {}
    }
    let Some(s) = scheme_of(line) else {
        return true;
    };
    match components::scheme_class(s) {
        SchemeClass::File => {
            // Without `:` or `|` after the scheme there is neither a port (RFC 3986 §3.2.3)
            // nor a drive letter (RFC 8089 Appendix E.2): one `memchr2`, no split. A `|` is
            // no URI character, so such a line is never passed through anyway: it takes the
            // slow path, where the Guard asks [`file_drive_host_at`] and [`bar_drive`]
            // (`file://c:/x` has an empty port).
            let rest = &line[s.len() + 1..];
            memchr::memchr2(b':', b'|', rest).is_none()
                || (memchr::memchr(b'|', rest).is_none()
                    && file_port(line).is_none()
                    && !drive_and_dots(rest))
        }
        SchemeClass::NetSpecial => has_plain_host(&line[s.len() + 1..]),
        // A `blob:` line whose inner URL starts with a space or control is
        // `browser-stripped` ([`blob_inner_stripped`]; to-iri passed `blob: https://ex.com/`
        // through on the fast path, found by a QA sweep).
        SchemeClass::Other => blob_inner_stripped(line).is_none(),
    }
}

/// True when `rest` (what follows `file:`) may hold a drive-letter segment and a dot segment
/// (`file:///C:/a/../../b`: `drive-letter-reference`, RFC 8089 Appendix E.2 with RFC 3986
/// §5.2.4; [`Guard`] checks the path): a superset, over the whole rest, of the Guard's test on
/// the path. Asked by [`quick_ok`] only for lines holding a `:` or `|` after the scheme (a
/// drive segment needs one; the others were answered by its `memchr2`).
#[inline]
fn drive_and_dots(rest: &[u8]) -> bool {
    has_drive_segment(rest) && has_dot_segment(rest)
}

/// True when `rest` (what follows a scheme's `:`) starts with `//` and an authority that is
/// not empty, does not start with `:` and has no `@`: its host is then not empty (RFC 3986
/// §3.2), so [`missing_host`] has nothing to find. `false` only means "look closer".
#[inline]
fn has_plain_host(rest: &[u8]) -> bool {
    let Some(a) = rest.strip_prefix(b"//") else {
        return false;
    };
    let a = &a[..memchr::memchr3(b'/', b'?', b'#', a).unwrap_or(a.len())];
    !a.is_empty() && a[0] != b':' && memchr::memchr(b'@', a).is_none()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Appends every line of `../shared/datasets/*.txt` to `lines` and returns how many, or
    /// says why there are none (as tests/common's `skip`: where cargo shows it, and an error
    /// under CI) and returns `None`.
    fn add_dataset_lines(lines: &mut Vec<Vec<u8>>) -> Option<usize> {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/datasets");
        match std::fs::read_dir(&dir) {
            Ok(rd) => {
                let before = lines.len();
                for e in rd.flatten() {
                    if e.path().extension().is_some_and(|x| x == "txt") {
                        let bytes = std::fs::read(e.path()).expect("dataset");
                        lines.extend(bytes.split(|&b| b == b'\n').map(|l| l.to_vec()));
                    }
                }
                Some(lines.len() - before)
            }
            Err(e) if std::env::var_os("CI").is_none() => {
                eprintln!(
                    "SKIPPED the data sets ({}: {e}): made lines only",
                    dir.display()
                );
                None
            }
            Err(e) => panic!("{}: {e}", dir.display()),
        }
    }

    /// The shortcut of `Guard::check_written` (a line written unchanged needs no check):
    /// on every line of every data set and on lines made for each check, whenever the caller
    /// would reach it (no missing host in the input), the full checks pass and add nothing,
    /// for every kind of Guard (host modes that map hosts, and none).
    #[test]
    fn unchanged_lines_pass_check_written() {
        let mut lines: Vec<Vec<u8>> = [
            "http://1.2.3.4/",
            "http://0x7f.1/",
            "http://a.b.123/",
            "http://a.b.0x1f./",
            "https://b\u{FC}cher.de/",
            "http://%31%32.%33/",
            "http://\u{FF11}\u{FF12}/",
            "http://pay\u{200D}pal.com/",
            "http://stra\u{DF}e.de/",
            "http://\u{AD}a.de/",
            "http:///x",
            "http://u@/",
            "http://:80/",
            "ws://h/",
            "file:///c:/x",
            "foo://1.2/",
            "//h/p",
        ]
        .iter()
        .map(|l| l.as_bytes().to_vec())
        .collect();
        if let Some(n) = add_dataset_lines(&mut lines) {
            assert!(
                lines.len() > 100_000,
                "datasets: {n} lines, {} in all",
                lines.len()
            );
        }
        let modes = [
            None,
            Some(HostMode::Auto),
            Some(HostMode::Uts46),
            Some(HostMode::IDNA2003),
            Some(HostMode::Percent),
        ];
        let mut checked = 0;
        for maps_hosts in modes {
            for strict in [false, true] {
                let g = Guard::new(
                    Verbatim,
                    GuardOptions {
                        maps_hosts,
                        strict,
                        ..GuardOptions::default()
                    },
                );
                for l in &lines {
                    if missing_host(l).is_some()
                        || file_drive_host_at(l, &LineHead::of(l)).is_some()
                    {
                        continue; // the caller stops before the converter runs
                    }
                    let mut o = Outcome::default();
                    let r = g.check_written_full(l, &LineHead::of(l), l, &mut o);
                    assert_eq!(
                        (r, o),
                        (Ok(()), Outcome::default()),
                        "{maps_hosts:?}: {:?}",
                        String::from_utf8_lossy(l)
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 100, "{checked}");
    }

    /// The shortcuts of `Guard::check_written_full` against what they skip, on every dataset
    /// line and its to-uri (every host mode) and to-iri output: where `same_authority` holds,
    /// `host_of` of the input is the written host; where the written host is not empty,
    /// `missing_host` finds nothing.
    #[test]
    fn written_host_shortcuts_match_what_they_skip() {
        let mut lines: Vec<Vec<u8>> = [
            "http://a/",
            "http:///x",
            "http://h",
            "http://h?q",
            "http://h:1#f",
        ]
        .iter()
        .map(|l| l.as_bytes().to_vec())
        .collect();
        add_dataset_lines(&mut lines);
        let (mut same, mut hosts) = (0, 0);
        let mut pair = |input: &[u8], written: &[u8]| {
            let auth = components::split_head(written).authority;
            if auth
                .clone()
                .is_some_and(|a| same_authority(input, written, a.end))
            {
                assert_eq!(
                    host_of(input),
                    host_of(written),
                    "{:?}",
                    String::from_utf8_lossy(input)
                );
                same += 1;
            }
            if host_of(written).is_some_and(|h| !h.is_empty()) {
                assert_eq!(
                    missing_host(written),
                    None,
                    "{:?}",
                    String::from_utf8_lossy(written)
                );
                hosts += 1;
            }
        };
        for mode in [HostMode::Auto, HostMode::IDNA2003, HostMode::Percent] {
            let mut to_uri = crate::convert::to_uri::ToUri::new(
                crate::config::ToUriOptions::default().host(mode),
            );
            let mut to_iri =
                crate::convert::to_iri::ToIri::new(crate::convert::to_iri::ToIriOptions {
                    host: mode,
                });
            for l in &lines {
                let (mut u, mut i) = (Vec::new(), Vec::new());
                if let Ok(o) = to_uri.convert_into(l, &mut u) {
                    let u = o.result(l, &u, 0);
                    pair(l, u);
                    if let Ok(o) = to_iri.convert_into(u, &mut i) {
                        pair(u, o.result(u, &i, 0));
                    }
                }
            }
        }
        assert!(same > 1_000 && hosts > 1_000, "{same} {hosts}");
    }

    /// `same_head`'s shortcut of `Guard::check_written` (the written line has the input's
    /// scheme and authority byte for byte): on every line of every data set and on made lines,
    /// against what to-uri (every host mode, LEIRI), to-iri and normalize write of them,
    /// wherever the shortcut is taken and the caller would reach it (no missing host in the
    /// input), the full checks pass and add nothing, for every kind of Guard.
    #[test]
    fn same_head_lines_pass_check_written() {
        use crate::config::ToUriOptions;
        use crate::convert::normalize::{NormalizeOptions, Normalizer};
        use crate::convert::to_iri::{ToIri, ToIriOptions};
        use crate::convert::to_uri::ToUri;
        let mut lines: Vec<Vec<u8>> = [
            "http://1.2.3.4/\u{E9}",
            "http://0x7f.1/\u{E9}",
            "http://a.b.123/\u{E9}?\u{E9}",
            "https://b\u{FC}cher.de/\u{E9}",
            "http://%31%32.%33/\u{E9}",
            "http://u@h:80/\u{E9}",
            "http://[::1]/\u{E9}",
            "http://h#\u{E9}",
            "http://h?\u{E9}",
            "HTTP://H/%7e/./\u{E9}",
            "file://h/c:/x\u{E9}",
            "//h/p\u{E9}",
            "foo://1.2/\u{E9}",
        ]
        .iter()
        .map(|l| l.as_bytes().to_vec())
        .collect();
        add_dataset_lines(&mut lines);
        let mut convs: Vec<Box<dyn Converter>> = Vec::new();
        for host in [HostMode::Auto, HostMode::IDNA2003, HostMode::Percent] {
            for leiri in [false, true] {
                convs.push(Box::new(ToUri::new(
                    ToUriOptions::default().host(host).leiri(leiri),
                )));
            }
            convs.push(Box::new(ToIri::new(ToIriOptions { host })));
        }
        convs.push(Box::new(Normalizer::new(NormalizeOptions::default())));
        let guards: Vec<Guard<Verbatim>> = [
            None,
            Some(HostMode::Auto),
            Some(HostMode::Uts46),
            Some(HostMode::IDNA2003),
            Some(HostMode::Percent),
        ]
        .into_iter()
        .flat_map(|maps_hosts| {
            [false, true].map(|strict| {
                Guard::new(
                    Verbatim,
                    GuardOptions {
                        maps_hosts,
                        strict,
                        ..GuardOptions::default()
                    },
                )
            })
        })
        .collect();
        let mut taken = 0;
        for conv in &mut convs {
            for l in &lines {
                let head = LineHead::of(l);
                if missing_host_at(l, &head).is_some() {
                    continue; // the caller stops before the converter runs
                }
                let mut out = Vec::new();
                let Ok(o) = conv.convert_into(l, &mut out) else {
                    continue;
                };
                let written = o.result(l, &out, 0);
                if written == &l[..] || !same_head(l, &head, written) {
                    continue;
                }
                for g in &guards {
                    let mut o = Outcome::default();
                    let r = g.check_written_full(l, &head, written, &mut o);
                    assert_eq!(
                        (r, o),
                        (Ok(()), Outcome::default()),
                        "{:?} -> {:?}",
                        String::from_utf8_lossy(l),
                        String::from_utf8_lossy(written)
                    );
                }
                taken += 1;
            }
        }
        assert!(taken > 10_000, "{taken}");
    }

    /// [`removed_char`] (only characters with a lead byte of [`REMOVED_LEADS`] decoded)
    /// against [`removed_char_naive`]: every code point alone, between ASCII and non-ASCII
    /// neighbours, before a character that is removed, and across the end of a 16-byte block.
    #[test]
    fn removed_char_matches_twin_on_every_code_point() {
        let mut removed = 0;
        for u in 0..=0x10FFFFu32 {
            let Some(c) = char::from_u32(u) else { continue };
            for idna2003 in [false, true] {
                for s in [
                    c.to_string(),
                    format!("a{c}.\u{E9}b"),
                    format!("\u{4E2D}{c}\u{AD}"),
                    // Across the end of the first 16-byte block.
                    format!("abcdefghijklmn{c}"),
                    format!("abcdefghijklmnop{c}"),
                    format!("\u{4E2D}\u{4E2D}\u{4E2D}\u{4E2D}abc{c}\u{E9}"),
                ] {
                    assert_eq!(
                        removed_char(&s, idna2003),
                        removed_char_naive(&s, idna2003),
                        "U+{u:04X} {idna2003}"
                    );
                }
                removed += removed_char(&c.to_string(), idna2003).is_some() as u32;
            }
        }
        assert!(removed > 200, "{removed}");
    }

    #[test]
    fn uts46_ignored_matches_twin_on_every_code_point() {
        let mut ignored = 0;
        for u in 0..=0x10FFFFu32 {
            let Some(c) = char::from_u32(u) else { continue };
            let want = uts46_ignored_naive(c);
            assert_eq!(uts46_ignored(c), want, "U+{u:04X}");
            ignored += want as u32;
        }
        assert!(ignored > 100, "{ignored}");
        assert!(uts46_ignored('\u{AD}') && !uts46_ignored('\u{E9}'));
    }

    /// The guard keeps [`Converter`]'s contract (an error leaves `out` as it was), resolves
    /// against a base, reports in the reference as written, and trims as browsers do.
    #[test]
    fn guard_contract() {
        let mut g = Guard::new(Verbatim, GuardOptions::default());
        let mut out = b"keep".to_vec();
        let e = g
            .convert_into(b"http:/good.com/../evil.com/", &mut out)
            .unwrap_err();
        assert_eq!(
            (e.code(), e.offset, &out[..]),
            ("missing-host", 5, &b"keep"[..])
        );
        let mut out = b"keep".to_vec();
        let o = g
            .convert_ref(Some(b"http://a/b/c"), b"../g", &mut out)
            .unwrap();
        assert_eq!((&out[..], o.changed()), (&b"keephttp://a/g"[..], true));
        let mut out = b"keep".to_vec();
        let e = g
            .convert_ref(Some(b"https://a/b"), b"x/y ", &mut out)
            .unwrap_err();
        assert_eq!(
            (e.code(), e.offset, &out[..]),
            ("browser-stripped", 3, &b"keep"[..])
        );
        let e = g
            .convert_ref(Some(b"http://a/b"), b"/\\evil.com/", &mut out)
            .unwrap_err();
        assert_eq!(e.code(), "backslash-reference");
        let mut t = Guard::new(
            Verbatim,
            GuardOptions {
                trim: true,
                ..GuardOptions::default()
            },
        );
        let mut out = Vec::new();
        let o = t.convert_into(b" http://a/b\t", &mut out).unwrap();
        assert_eq!(
            (&out[..], o.repairs, o.changed()),
            (&b"http://a/b"[..], 1, true)
        );
    }

    /// Passthrough through the guard: a line the converter passes through, and a reference
    /// that resolves to itself, leave `out` as it was; the checks of the written line run on
    /// the input where nothing was written.
    #[test]
    fn guard_passthrough() {
        let mut g = Guard::new(Verbatim, GuardOptions::default());
        let mut out = b"keep".to_vec();
        let o = g.convert_into(b"http://a/b", &mut out).unwrap();
        assert_eq!((&out[..], o.written), (&b"keep"[..], Written::Passthrough));
        let o = g
            .convert_ref(Some(b"http://x/y"), b"http://a/b", &mut out)
            .unwrap();
        assert_eq!((&out[..], o.written), (&b"keep"[..], Written::Passthrough));
        // The checks of the written line see the input: a host that ends in a number is
        // `ambiguous-ipv4` only where conversion changed it, so this one passes through.
        let o = g.convert_into(b"http://0x7f.1/", &mut out).unwrap();
        assert_eq!((&out[..], o.written), (&b"keep"[..], Written::Passthrough));
        // Trimmed and resolved, then passed through by the mode: written, as it differs.
        let mut t = Guard::new(
            Verbatim,
            GuardOptions {
                trim: true,
                ..GuardOptions::default()
            },
        );
        let o = t.convert_ref(Some(b"http://x/y"), b" z", &mut out).unwrap();
        assert_eq!(
            (&out[..], o.written),
            (&b"keephttp://x/z"[..], Written::Wrote)
        );
    }

    #[test]
    fn missing_host_cases() {
        for s in [
            "http:/x",
            "http:x",
            "http:///x",
            "HTTPS://:80/",
            "ws://u@/p",
            "ftp:",
        ] {
            assert!(missing_host(s.as_bytes()).is_some(), "{s}");
        }
        for s in [
            "http://a/",
            "file:///x",
            "foo:/x",
            "/x",
            "mailto:a@b",
            "http://a:80",
        ] {
            assert_eq!(missing_host(s.as_bytes()), None, "{s}");
        }
        assert_eq!(missing_host(b"http:/x"), Some(5));
        assert_eq!(missing_host(b"http://u@/x"), Some(9));
    }

    #[test]
    fn stripped_cases() {
        assert_eq!(browser_stripped(b" http://a/", false), Some(0));
        assert_eq!(browser_stripped(b"http://a ", false), Some(8));
        assert_eq!(browser_stripped(b"http://a/ ", false), Some(9));
        assert_eq!(browser_stripped(b"http://g\tood.com/", false), Some(8));
        assert_eq!(browser_stripped(b"ht\ttp://a/", false), Some(2));
        assert_eq!(browser_stripped(b"file:\t//good.com/x", false), Some(5));
        // In the path: a browser removes it too, but the host is the same.
        assert_eq!(browser_stripped(b"http://a/b\tc", false), None);
        // Every scheme with an authority (found by a QA sweep); none without one.
        assert_eq!(browser_stripped(b"foo://a b ", false), Some(9));
        assert_eq!(browser_stripped(b"foo:/\t/a/", false), Some(5));
        assert_eq!(browser_stripped(b" //evil.com", false), Some(0));
        assert_eq!(browser_stripped(b"mailto:a@b.c ", false), None);
        assert_eq!(browser_stripped(b"foo:a b ", false), None);
        assert_eq!(browser_stripped(b" x", true), Some(0));
        assert_eq!(browser_stripped(b" x", false), None);
        assert_eq!(browser_stripped(b"\\\\x\t/", true), Some(3));
        assert_eq!(browser_stripped(b"\x01blob:https://a/", false), Some(0));
        assert_eq!(browser_stripped(b"blob:https://g\rood/", false), Some(14));
        assert_eq!(browser_stripped(b"blob:https://good/\r", false), Some(18));
        assert_eq!(browser_stripped(b"blob:https://good/a\tb", false), None);
        // A space or control that starts the inner URL (after TAB/CR/LF), not elsewhere.
        assert_eq!(browser_stripped(b"blob: https://a/", false), Some(5));
        assert_eq!(browser_stripped(b"blob:\t\x01https://a/", false), Some(6));
        assert_eq!(blob_inner_stripped(b"blob:\t https://a/"), Some(6));
        assert_eq!(blob_inner_stripped(b"blob:\thttps://a/"), None);
        assert_eq!(blob_inner_stripped(b"blob:https://a/ b"), None);
        assert_eq!(blob_inner_stripped(b"http: //a/"), None);
        // The origin of a blob: URL's inner URL, before and after a conversion.
        let moved = |a: &[u8], b: &[u8]| blob_origin_changed(a, b);
        assert_eq!(
            moved(b"blob:%68ttps://a.com/u", b"blob:https://a.com/u"),
            Some(5)
        );
        assert_eq!(
            moved(b"blob:https://a.com/u", b"blob:https://b.com/u"),
            Some(5)
        );
        assert_eq!(
            moved(b"blob:https://a.com/u", b"blob:https://a.com:81/u"),
            Some(5)
        );
        assert_eq!(
            moved(b"blob:https://%61.com/u", b"blob:https://a.com/x"),
            None
        );
        assert_eq!(
            moved(
                "blob:https://\u{FC}.de/u".as_bytes(),
                b"blob:https://%C3%BC.de/u"
            ),
            None
        );
        assert_eq!(
            moved(b"blob:HTTPS://A.com/u", b"blob:https://a.com/u"),
            None
        );
        assert_eq!(moved(b"http://a.com/%68", b"http://b.com/h"), None);
        // The port and an IP literal as a browser reads them: not decoded (found by a QA
        // sweep); a port is its number, or none when it holds anything but digits.
        assert_eq!(
            moved(b"blob:http://e.com:%38/", b"blob:http://e.com:8/"),
            Some(5)
        );
        assert_eq!(
            moved(b"blob:http://[::%31]/x", b"blob:http://[::1]/x"),
            Some(5)
        );
        assert_eq!(
            moved(b"blob:http://e.com:08/", b"blob:http://e.com:8/"),
            None
        );
        assert_eq!(
            moved(
                "blob:http://e.com:８/".as_bytes(),
                b"blob:http://e.com:%EF%BC%98/"
            ),
            None
        );
        assert_eq!(
            moved(b"blob:http://e.com:8/", b"blob:http://e.com:9/"),
            Some(5)
        );
        assert_eq!(
            moved(b"blob:http://%75@e.com/", b"blob:http://u@e.com/"),
            None
        );
        assert_eq!(
            moved(b"blob:http://[::1]@e.com/", b"blob:http://[::1]@f.com/"),
            Some(5)
        );
        // No origin before or after: the same (a QA sweep); an address as its value.
        assert_eq!(
            moved(b"blob:http://[::%31]x/", b"blob:http://[::1]x/"),
            None
        );
        assert_eq!(moved(b"blob:http://[::1]/", b"blob:http://[0:0::1]/"), None);
        assert_eq!(
            moved(b"blob:http://a.com:x/", b"blob:http://b.com:x/"),
            None
        );
        assert_eq!(moved(b"blob:http://[::1/", b"blob:http://[::2/"), None);
        // What --trim removes: anywhere in a special line or one with an authority, nothing
        // in another.
        assert!(browser_trims(b"http://a/b\tc", false));
        assert!(browser_trims(b"/b\tc", true));
        assert!(!browser_trims(b"/b\tc", false));
        assert!(browser_trims(b"foo://a/b\tc", false));
        assert!(!browser_trims(b"foo:a/b\tc", false));
        assert!(!browser_trims(b"http://a/b c", false));
        assert_eq!(
            browser_stripped(b"blob:https:/\tgood.com/uuid", false),
            Some(12)
        );
        assert_eq!(browser_stripped(b"http:\tgood.com/", false), Some(5));
        assert_eq!(file_port(b"file://h:/x"), Some(8));
        assert_eq!(file_port(b"file://h/x"), None);
        let mut out = Vec::new();
        assert_eq!(trim_into(b" \x01ht\ttp://a/b\nc \x1f", &mut out), 6);
        assert_eq!(out, b"http://a/bc");
        let line = b" \x01ht\ttp://a/b\nc \x1f";
        for (k, &b) in out.iter().enumerate() {
            assert_eq!(line[untrimmed_offset(line, k)], b, "{k}");
        }
        assert_eq!(untrimmed_offset(line, out.len()), line.len() - 2);
    }

    #[test]
    fn ends_in_number_cases() {
        for h in [
            "127.1",
            "2130706433",
            "0x7f.1",
            "a.0x",
            "a.1.",
            "a.09",
            "0X7F",
        ] {
            assert!(ends_in_number(h.as_bytes()), "{h}");
        }
        for h in ["a.b", "a.0x7g", "1.a", "", ".", "a.b."] {
            assert!(!ends_in_number(h.as_bytes()), "{h}");
        }
    }

    #[test]
    fn quick_ok_never_hides_a_check() {
        for s in [
            "http://a/",
            "http:/a",
            "http://u@/x",
            "http://:1/",
            " http://a",
            "foo:x",
            "x",
            "http://a@b/",
            "HTTP:///",
            "ws:",
            "",
            "http://a\t",
            "http://[::1]/",
            "file://h:80/x",
            "file://h:/x",
            "file://[::1]/x",
            "file:///C:/a/../b",
            "file:///c|/./x",
            "file:///C:/a/b",
            "file:///a/../b",
            "file://h/x?y:z",
            "file:x:y",
            "file://C|/x",
            "file://c|",
            "file://C:/x",
            "file://h/C|/x",
            "file:///C|/x",
            "file:c|",
            "blob: https://ex.com/",
            "BLOB:\x01https://ex.com/",
            "blob:https://ex.com/ x",
            "blob:",
        ] {
            let b = s.as_bytes();
            if quick_ok(b) {
                assert_eq!(missing_host(b), None, "{s}");
                assert_eq!(browser_stripped(b, false), None, "{s}");
                assert_eq!(blob_inner_stripped(b), None, "{s}");
                assert_eq!(file_port(b), None, "{s}");
                assert_eq!(file_drive_host_at(b, &LineHead::of(b)), None, "{s}");
                assert!(!bar_drive(&b[components::split(b).path]), "{s}");
                let path = &b[components::split(b).path];
                assert!(!(has_drive_segment(path) && has_dot_segment(path)), "{s}");
            }
        }
        assert!(quick_ok(b"file:///a/../b") && quick_ok(b"file:///C:/a/b"));
        assert!(!quick_ok(b"file://h:80/x") && !quick_ok(b"file:///C:/a/../b"));
        assert!(quick_ok(b"http://a/b") && quick_ok(b"/rel") && !quick_ok(b"http:/a"));
        assert!(quick_ok(b"blob:https://ex.com/") && !quick_ok(b"blob: https://ex.com/"));
    }

    #[test]
    fn file_drive_hosts() {
        let at = |s: &str| file_drive_host_at(s.as_bytes(), &LineHead::of(s.as_bytes()));
        assert_eq!(at("file://C|/x"), Some(7));
        assert_eq!(at("FILE://c:"), Some(7));
        assert_eq!(at("file://z|?q"), Some(7));
        assert_eq!(at("file://C/x"), None);
        assert_eq!(at("file://CC|/x"), None);
        assert_eq!(at("file:///C|/x"), None);
        assert_eq!(at("http://C|/x"), None);
        assert!(bar_drive(b"/C|/x") && bar_drive(b"c|") && bar_drive(b"/z|?q"));
        assert!(!bar_drive(b"/C:/x") && !bar_drive(b"/a/C|/x") && !bar_drive(b"/CC|/x"));
    }

    #[test]
    fn idna_differences() {
        use crate::config::Idna2003Flags as Flags;
        assert_eq!(idna2003_differs("faß.de", Flags::CONVERT), Some(false));
        assert_eq!(
            idna2003_differs("pay\u{200D}pal.com", Flags::CONVERT),
            Some(true)
        );
        assert_eq!(idna2003_differs("bücher.de", Flags::CONVERT), None);
        assert_eq!(
            removed_char("go\u{3164}od.com", false),
            Some((2, '\u{3164}'))
        );
        assert_eq!(removed_char("a\u{AD}b", true), Some((1, '\u{AD}')));
        assert_eq!(removed_char("bücher.de", false), None);
    }

    #[test]
    fn dots_remove_a_drive_only_where_browsers_keep_it() {
        for p in [
            "/C:/..",
            "/C:/x/../..",
            "/c:/%2e%2e/x",
            "C:/..",
            "/./C:/../x",
            "\\C:\\..\\x",
        ] {
            assert!(dots_remove_drive(p.as_bytes()), "{p}");
        }
        for p in [
            "/C:/x/./z",
            "/C:/x/y/../z",
            "/C:/x/..",
            "/x/C:/../y",
            "/../C:/x",
            "/C:",
            "/Cx/..",
            "/C:x/..",
            "",
        ] {
            assert!(!dots_remove_drive(p.as_bytes()), "{p}");
        }
    }

    #[test]
    fn drive_letters() {
        assert!(file_drive_with_host(b"file://h/C://x"));
        assert!(!file_drive_with_host(b"file:///C:/x"));
        assert!(!file_drive_with_host(b"file://h/Cx/"));
        for r in ["/j:/../", "c:/x", "C|", "/c|/x", "d:"] {
            assert!(drive_letter_reference(r.as_bytes()), "{r}");
        }
        for r in ["//c:/x", "cd:/x", "/cx/", "x", "http:c:"] {
            assert!(!drive_letter_reference(r.as_bytes()), "{r}");
        }
    }

    #[test]
    fn file_paths_compare_decoded_triplets_only() {
        // A decoded unreserved octet is the same file; three hex digits in a row (`caf`, `ab:c`
        // after decoding `%41`) are no `%HH` (the QA sweep: `d%61ta` was refused).
        for (r, w) in [
            ("file:///C:/%61b", "file:///C:/ab"),
            ("file:///ab:c%41", "file:///ab:cA"),
            (
                "file:///C:/Users/bob/d%61ta/x",
                "file:///C:/Users/bob/data/x",
            ),
            ("file:///D:/photos/%31%32.jpg", "file:///D:/photos/12.jpg"),
        ] {
            assert!(!file_path_moved(None, r.as_bytes(), w.as_bytes()), "{r}");
        }
        assert_eq!(path_key("/C:/caf%65"), b"/C:/cafe");
        assert_eq!(path_key("/C%7C/%5cx"), b"/C|//x");
        assert!(file_path_moved(None, b"file:///C:/%61b", b"file:///C:/ac"));
    }

    #[test]
    fn file_paths_compare_after_nfkc_but_not_the_drive() {
        // normalize --nfc/--nfkc: the same file (a QA sweep found the first refused).
        for (r, w) in [
            ("file:///x/a:ｚ", "file:///x/a:z"),
            ("file:///a:ｚ/x", "file:///a:z/x"),
            ("file:///C:/cafe\u{301}|", "file:///C:/caf\u{e9}|"),
            ("file:///c:/ｘ:", "file:///c:/x:"),
        ] {
            assert!(!file_path_moved(None, r.as_bytes(), w.as_bytes()), "{r}");
        }
        // An NFKC that makes a drive letter moves the path: a browser reads the drive `C:`
        // in the written line and a plain segment in the input.
        assert!(file_path_moved(
            None,
            "file:///C：/x:".as_bytes(),
            b"file:///C:/x:"
        ));
        assert!(file_path_moved(
            None,
            b"file:///C:/x:",
            "file:///x:".as_bytes()
        ));
        // Other text stays another file.
        assert!(file_path_moved(None, b"file:///C:/a", b"file:///C:/b"));
    }

    #[test]
    fn backslash_authorities() {
        let f = backslash_authority;
        assert_eq!(f(br"blob:https://good.co\m/uuid"), Some(20));
        assert_eq!(f(br"blob:https:\//good.com/uuid"), Some(11));
        assert_eq!(f(br"blob:https://a.\com/uuid"), Some(15));
        assert_eq!(f(br"blob:https://good.com/a\b"), None);
        assert_eq!(f(br"blob:foo://good.co\m/uuid"), None);
        assert_eq!(f(br"https://good.co\m/uuid"), Some(15));
        assert_eq!(f(br"file:\/h/x"), Some(5));
        assert_eq!(f(br"file:/\h/x"), Some(6));
        assert_eq!(f(br"file:///x\y"), None);
        assert_eq!(f(br"file:///C:\Users\x"), None);
        assert_eq!(f(br"file://h\x"), Some(8));
        assert_eq!(f(br"file://\x"), Some(7));
        assert_eq!(f(br"foo:\\h/x"), None);
        assert_eq!(f(br"\\h/x"), None);
    }

    #[test]
    fn opaque_base_references() {
        let base = b"blob:https://good.com/a/b";
        for r in [
            &b"../../evil.com/x"[..],
            b"//evil.com/x",
            b"x",
            b"?q",
            b"/x",
            b"",
        ] {
            assert!(
                opaque_base_reference(base, r),
                "{}",
                String::from_utf8_lossy(r)
            );
        }
        // A fragment, or an absolute reference, does not use the base's path.
        assert!(!opaque_base_reference(base, b"#f"));
        assert!(!opaque_base_reference(
            base,
            b"blob:https://other.example/u"
        ));
        assert!(!opaque_base_reference(base, b"https://other.example/u"));
        // Bases without an opaque path, and other schemes.
        assert!(!opaque_base_reference(b"BLOB:/p/q", b"x"));
        assert!(!opaque_base_reference(b"blob://h/p", b"//evil.com/x"));
        assert!(!opaque_base_reference(b"mailto:a@b.example", b"x"));
        assert!(!opaque_base_reference(b"https://good.com/", b"x"));
        assert!(opaque_base_reference(b"Blob:", b"x"));
    }

    #[test]
    fn backslash_references() {
        assert!(backslash_reference(b"\\\\evil.com/"));
        assert!(backslash_reference(b"/\\evil.com/"));
        assert!(backslash_reference(b"\\/evil.com/"));
        assert!(!backslash_reference(b"//evil.com/"));
        assert!(!backslash_reference(b"/x\\"));
    }
}
