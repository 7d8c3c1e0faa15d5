//! The worker: walks a chunk's lines with the classifier's masks and sends only the flagged
//! ones to the mode's converter; `Worker::convert_chunk_naive` is its twin.

use super::{Base, EngineOptions, Filter, Mode, OnError};
use crate::convert::check::{CheckOptions, Checker};
use crate::convert::integrity;
use crate::convert::leiri::LeiriToIri;
use crate::convert::normalize::{NormalizeOptions, Normalizer};
use crate::convert::repair::Repairing;
use crate::convert::to_iri::{ToIri, ToIriOptions};
use crate::convert::to_uri::ToUri;
use crate::convert::Converter;
use crate::convert::Outcome;
use crate::engine::chunk::{ChunkOut, LineIssue, Piece};
use crate::engine::lines::{
    field_range, has_ace_host, LEIRI_FLAGGED, TO_IRI_FLAGGED, TO_URI_FLAGGED,
};
use crate::error::{ErrorKind, LineError};
use crate::grammar::components;
use crate::grammar::validate::{is_plain, is_valid_ascii_uri};
use crate::simd::{ByteSet, Classifier};
use std::ops::Range;

/// The per-line operation of a mode.
#[derive(Debug)]
enum Op {
    ToUri(ToUri),
    ToIri(ToIri),
    Check(Checker),
    Leiri(Repairing<LeiriToIri>),
    Normalize(Box<Repairing<Normalizer>>),
}

impl Op {
    fn new(opts: &EngineOptions) -> Op {
        let t = opts.to_uri;
        match opts.mode {
            Mode::ToUri => Op::ToUri(ToUri::new(t)),
            Mode::ToIri => Op::ToIri(ToIri::new(ToIriOptions { host: t.host })),
            Mode::Check { uri_only } => Op::Check(Checker::new(CheckOptions {
                to_uri: t,
                uri_only,
            })),
            Mode::LeiriToIri => Op::Leiri(Repairing::new(LeiriToIri, t.repair)),
            Mode::Normalize { rungs, as_uri } => Op::Normalize(Box::new(Repairing::new(
                Normalizer::new(NormalizeOptions {
                    rungs,
                    as_uri,
                    idna: match t.host {
                        crate::config::HostMode::Idna2003(flags) => {
                            crate::host::Idna::Idna2003(flags)
                        }
                        _ => crate::host::Idna::Uts46,
                    },
                }),
                t.repair,
            ))),
        }
    }

    #[inline]
    fn convert_into(&mut self, line: &[u8], out: &mut Vec<u8>) -> Result<Outcome, LineError> {
        match self {
            Op::ToUri(c) => c.convert_into(line, out),
            Op::ToIri(c) => c.convert_into(line, out),
            Op::Check(c) => c.convert_into(line, out),
            Op::Leiri(c) => c.convert_into(line, out),
            Op::Normalize(c) => c.convert_into(line, out),
        }
    }

    /// True if a line without flagged bytes needs nothing in this mode.
    #[inline]
    fn is_clean(&self, line: &[u8]) -> bool {
        // Host integrity first (issue 16): lines its checks could fail take the slow path.
        if !integrity::quick_ok(line) {
            return false;
        }
        match self {
            Op::ToUri(_) => is_plain(line),
            Op::ToIri(_) => !has_ace_host(line),
            Op::Check(_) => false,
            Op::Leiri(_) => true,
            Op::Normalize(_) => false,
        }
    }
}

/// A worker: a converter (with its host cache) and a classifier. One per thread.
#[derive(Debug)]
pub struct Worker {
    conv: Op,
    base: Base,
    resolved: Vec<u8>,
    /// The reference as browsers read it (`--trim`), reused between lines.
    trimmed: Vec<u8>,
    classifier: Classifier,
    opts: EngineOptions,
    masks: Vec<crate::simd::BlockMasks>,
    /// Charset hook (issue 12): the per-record decoder, and its output buffer.
    legacy: Option<Box<crate::charset::RecordDecoder>>,
    prepared: Vec<u8>,
}

/// Bytes classified per call of the SIMD scan (a multiple of 64).
const WINDOW: usize = 4096;

impl Worker {
    /// A worker for these options, with the best classifier for this CPU.
    pub fn new(opts: EngineOptions) -> Self {
        Self::with_classifier(opts, Classifier::new(Self::flagged_set(&opts)))
    }

    /// A worker with a given classifier (tests force each implementation).
    pub fn with_classifier(opts: EngineOptions, classifier: Classifier) -> Self {
        Worker {
            conv: Op::new(&opts),
            base: Base::None,
            resolved: Vec::new(),
            trimmed: Vec::new(),
            classifier,
            opts,
            masks: Vec::with_capacity(WINDOW / 64),
            legacy: opts.charset.filter(|c| c.decodes_lines()).map(|c| {
                Box::new(crate::charset::RecordDecoder::new(
                    c,
                    opts.field,
                    opts.to_uri.invalid_utf8,
                    opts.mode == Mode::ToUri,
                ))
            }),
            prepared: Vec::new(),
        }
    }

    /// The flagged set for these options: the mode's set without the field delimiter
    /// (`check` flags every byte: each line goes through the validator).
    pub fn flagged_set(opts: &EngineOptions) -> ByteSet {
        let set = match opts.mode {
            Mode::ToUri => TO_URI_FLAGGED,
            Mode::ToIri => TO_IRI_FLAGGED,
            Mode::Check { .. } | Mode::Normalize { .. } => return ByteSet::FULL,
            // `--repair` in leiri-to-iri: the bytes it repairs send the line to the converter.
            Mode::LeiriToIri if opts.to_uri.repair.any() => {
                LEIRI_FLAGGED.with(b'%').with(b'#').with(b'[').with(b']')
            }
            Mode::LeiriToIri => LEIRI_FLAGGED,
        };
        match opts.field {
            Some((_, d)) => set.without(d),
            None => set,
        }
    }

    /// Resolves every reference against `base` (RFC 3986 §5.2, RFC 3987 §6.5) before the mode
    /// applies. Every line then goes through the slow path.
    pub fn set_base(&mut self, base: Base) {
        self.base = base;
    }

    fn resolving(&self) -> bool {
        self.base != Base::None
    }

    /// Converts one value as the slow path converts a line: resolution against a
    /// [`Base::Fixed`] base (RFC 3986 §5.2, RFC 3987 §6.5), the mode, and the host-integrity
    /// checks and `--trim` around it (issue 16, contract item 17). Appends the result to `out`;
    /// offsets are in `value`. For callers that take values one at a time (the Python
    /// binding): they do the line cap and the charset decoding first, as the chunk walk does,
    /// and never set a [`Base::Field`] base (a value has no other field).
    pub fn convert_value(&mut self, value: &[u8], out: &mut Vec<u8>) -> Result<Outcome, LineError> {
        self.convert_ref(value, value, out)
    }

    /// Runs the mode on `reference`, resolved first when a base is set, with the host
    /// integrity checks of [`integrity`] around it (issue 16, contract item 17): what
    /// browsers strip (`browser-stripped`, or removed with `--trim`), `\\`-like references
    /// against a special base, a special scheme without a host (`missing-host`, on the
    /// reference as resolved), and the host the mode produced ([`Self::check_output`],
    /// [`Self::check_mapping`]). Offsets are in `reference` as written.
    fn convert_ref(
        &mut self,
        record: &[u8],
        reference: &[u8],
        out: &mut Vec<u8>,
    ) -> Result<Outcome, LineError> {
        let held = self.base.clone(); // an Arc: the base outlives the borrows of `self`
        let base: Option<&[u8]> = match &held {
            Base::None => None,
            Base::Field(k) => match field_range(record, *k, self.opts.field.map_or(b'\t', |f| f.1))
            {
                Some(r) => Some(&record[r]),
                None => return Err(LineError::new(ErrorKind::MissingField, record.len())),
            },
            Base::Fixed(b) => Some(b),
        };
        let mark = out.len();
        let base_special = base
            .and_then(integrity::scheme_of)
            .is_some_and(components::is_special_scheme);
        let mut trimmed = std::mem::take(&mut self.trimmed);
        trimmed.clear();
        let stripped = integrity::browser_stripped(reference, base_special);
        let trim = stripped.is_some() && self.opts.to_uri.trim;
        let input: &[u8] = if trim {
            integrity::trim_into(reference, &mut trimmed);
            &trimmed
        } else {
            reference
        };
        let mut r = self.convert_checked(base, base_special, input, out);
        if trim {
            // Offsets in the trimmed text back to the reference as written.
            let at = |off| integrity::untrimmed_offset(reference, off);
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
        r.map(|mut o| {
            if trim {
                o.repairs += 1;
            }
            if trim || base.is_some() {
                o.changed = out[mark..] != *reference;
            }
            o
        })
    }

    /// [`Self::convert_ref`] after the strip check: resolution, `missing-host`, the mode.
    fn convert_checked(
        &mut self,
        base: Option<&[u8]>,
        base_special: bool,
        reference: &[u8],
        out: &mut Vec<u8>,
    ) -> Result<Outcome, LineError> {
        let mark = out.len();
        if let Some(at) = integrity::backslash_authority(reference) {
            return Err(LineError::new(ErrorKind::BackslashAuthority, at));
        }
        if let Some(at) = integrity::file_port(reference) {
            return Err(LineError::new(ErrorKind::BadPort, at));
        }
        // A file URL with a drive-letter segment and dot segments: RFC 3986 §5.2.4 may remove
        // the drive letter that browsers keep, dropping the host (WHATWG URL §4.4 path state).
        let file = |s: &[u8]| s.eq_ignore_ascii_case(b"file");
        let rc = components::split(reference);
        let rpath = &reference[rc.path.clone()];
        let file_ref = integrity::scheme_of(reference).is_some_and(file)
            || base.and_then(integrity::scheme_of).is_some_and(file);
        if file_ref
            && integrity::has_drive_segment(rpath)
            && (base.is_some() || integrity::has_dot_segment(rpath))
        {
            return Err(LineError::new(
                ErrorKind::DriveLetterReference,
                rc.path.start,
            ));
        }
        let Some(base) = base else {
            if let Some(at) = integrity::missing_host(reference) {
                return Err(LineError::new(ErrorKind::MissingHost, at));
            }
            let mut o = self.conv.convert_into(reference, out)?;
            self.check_output(reference, mark, out)?;
            self.check_mapping(reference, &out[mark..], &mut o)?;
            return Ok(o);
        };
        if base_special && integrity::backslash_reference(reference) {
            return Err(LineError::new(ErrorKind::BackslashReference, 0));
        }
        // `file:e:/` against a file base is the relative `e:/` (§5.2.2 non-strict).
        let rest = match integrity::scheme_of(reference) {
            Some(s) if file(s) => &reference[s.len() + 1..],
            _ => reference,
        };
        if integrity::scheme_of(base).is_some_and(file) && integrity::drive_letter_reference(rest) {
            return Err(LineError::new(ErrorKind::DriveLetterReference, 0));
        }
        self.resolved.clear();
        crate::grammar::resolve::resolve_into(base, reference, &mut self.resolved)?;
        let resolved = std::mem::take(&mut self.resolved);
        let r = if integrity::file_drive_with_host(&resolved) {
            Err(LineError::new(ErrorKind::DriveLetterReference, 0))
        } else if let Some(at) = integrity::missing_host(&resolved) {
            Err(LineError::new(ErrorKind::MissingHost, at))
        } else {
            self.conv.convert_into(&resolved, out).and_then(|mut o| {
                self.check_output(&resolved, mark, out)?;
                self.check_mapping(&resolved, &out[mark..], &mut o)?;
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

    /// What IDNA mapping does to the host of a special-scheme `input` in the modes that map
    /// hosts (to-uri, normalize): `idna2003-differs` where `--host idna2003` gives another host
    /// than UTS #46 (an error for a deleted joiner UTS #46 refuses, and with `--strict`), and
    /// `host-char-removed` naming a character the mapping deleted (an error with `--strict`).
    /// RFC 3490 §4, UTS #46 §4, RFC 3491 §3; issue 16.
    fn check_mapping(
        &self,
        input: &[u8],
        written: &[u8],
        o: &mut Outcome,
    ) -> Result<(), LineError> {
        use crate::config::HostMode;
        let t = &self.opts.to_uri;
        if !matches!(self.opts.mode, Mode::ToUri | Mode::Normalize { .. })
            || t.host == HostMode::Percent
            || !integrity::scheme_of(input).is_some_and(components::is_special_scheme)
        {
            return Ok(());
        }
        let Some(raw) = integrity::host_of(input) else {
            return Ok(());
        };
        if raw.is_ascii() && !raw.contains(&b'%')
            || raw.first() == Some(&b'[')
            || integrity::host_of(written) == Some(raw)
        {
            return Ok(()); // nothing to map, or the mode left the host as it was
        }
        let start = raw.as_ptr() as usize - input.as_ptr() as usize;
        let Some(host) = std::str::from_utf8(raw)
            .ok()
            .and_then(crate::host::decode_host_percent)
        else {
            return Ok(());
        };
        let mut warn = |kind, at: usize, first: bool| -> Result<(), LineError> {
            let e = LineError::new(kind, at);
            if t.strict {
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
        if let HostMode::Idna2003(flags) = t.host {
            match integrity::idna2003_differs(&host, flags) {
                Some(true) => return Err(LineError::new(ErrorKind::Idna2003Differs, start)),
                Some(false) => warn(ErrorKind::Idna2003Differs, start, true)?,
                None => {}
            }
        }
        let idna2003 = matches!(t.host, HostMode::Idna2003(_));
        if let Some((i, c)) = integrity::removed_char(&host, idna2003) {
            let at = if raw.contains(&b'%') {
                start
            } else {
                start + i
            };
            warn(ErrorKind::HostCharRemoved(c), at, false)?;
        }
        Ok(())
    }

    /// The host the mode wrote must still be one (`missing-host`: normalize must not turn
    /// `http://:/x` into `http:///x`) and may not have become a name browsers read as IPv4
    /// (`ambiguous-ipv4`, WHATWG URL §3.5) when conversion changed it.
    fn check_output(&self, input: &[u8], mark: usize, out: &[u8]) -> Result<(), LineError> {
        let written = &out[mark..];
        if let Some(at) = integrity::missing_host(written) {
            return Err(LineError::new(ErrorKind::MissingHost, at.min(input.len())));
        }
        if let Some(h) = integrity::host_of(written) {
            if integrity::scheme_of(written).is_some_and(components::is_special_scheme)
                && integrity::ends_in_number(h)
                && !components::is_ipv4(h)
                && integrity::host_of(input).is_none_or(|i| !i.eq_ignore_ascii_case(h))
            {
                let at = integrity::host_of(input)
                    .map_or(0, |i| i.as_ptr() as usize - input.as_ptr() as usize);
                return Err(LineError::new(ErrorKind::AmbiguousIpv4, at));
            }
        }
        Ok(())
    }

    /// Converts a chunk of whole lines (the last one may lack its terminator) into `res`
    /// (cleared first). The fast path.
    pub fn convert_chunk(&mut self, data: &[u8], res: &mut ChunkOut) {
        if let Some(l) = &mut self.legacy {
            l.set_naive(false);
        }
        res.clear();
        res.stats.bytes = data.len() as u64;
        // Converted lines grow by up to 3× (every byte as %HH); reserving once keeps the
        // per-line reserve in the converter from reallocating a large buffer mid-chunk.
        res.out.reserve(data.len().saturating_mul(3).min(64 << 20));
        let n = data.len();
        let mut st = Walk::default();
        let mut masks = std::mem::take(&mut self.masks);
        let mut off = 0;
        while off < n {
            // Classify a window of blocks in one call (the SIMD loop runs inside it), then
            // walk their masks.
            if off % WINDOW == 0 {
                masks.clear();
                self.classifier
                    .scan_into(&data[off..(off + WINDOW).min(n)], &mut masks);
            }
            let end = (off + 64).min(n);
            let m = masks[(off % WINDOW) / 64];
            // A CR right before an LF is part of the terminator, any other CR is flagged.
            let mut cr_ok = m.cr & (m.lf >> 1);
            if m.cr >> 63 != 0 && end < n && data[end] == b'\n' {
                cr_ok |= 1 << 63;
            }
            let mut fl = m.flag | (m.cr & !cr_ok);
            let mut lf = m.lf;
            while lf != 0 {
                let bit = lf.trailing_zeros();
                let upto = (1u64 << bit) | ((1u64 << bit) - 1);
                let dirty = st.line_dirty || fl & upto != 0;
                fl &= !upto;
                lf &= lf - 1;
                let end = off + bit as usize;
                // The common case, inline: a clean line (a trailing CR is harmless to
                // is_plain: at worst it sends a line with a port to the slow path).
                if !dirty
                    && self.opts.field.is_none()
                    && !self.resolving()
                    && end - st.line_start <= self.opts.max_line_bytes
                    && self.conv.is_clean(&data[st.line_start..end])
                {
                    res.stats.lines += 1;
                    st.line_start = end + 1;
                    continue;
                }
                let seen = if dirty { Seen::Flagged } else { Seen::Clean };
                if self.end_line(data, end, true, seen, &mut st, res) {
                    self.finish_counts(data, st.line_start, res);
                    self.masks = masks;
                    return;
                }
            }
            st.line_dirty |= fl != 0;
            off = end;
        }
        self.masks = masks;
        if st.line_start < n {
            let dirty = st.line_dirty;
            let seen = if dirty { Seen::Flagged } else { Seen::Clean };
            if self.end_line(data, n, false, seen, &mut st, res) {
                self.finish_counts(data, st.line_start, res);
                return;
            }
        }
        if st.run_start < n {
            res.pieces.push(Piece::Input(st.run_start..n));
        }
        self.finish_counts(data, st.line_start, res);
    }

    /// Derives the per-line counts that the walk does not keep: every line is passed through,
    /// converted, or has an error; every line is written, skipped, or the one that stopped a
    /// `--on-error fail` run.
    /// `--on-error fail`: the lines after the one that stopped the chunk (from `rest`) are
    /// counted as read and not reached.
    fn finish_counts(&self, data: &[u8], rest: usize, res: &mut ChunkOut) {
        let st = &mut res.stats;
        if res.failed && rest < data.len() {
            let tail = &data[rest..];
            let n = memchr::memchr_iter(b'\n', tail).count() as u64
                + u64::from(tail.last() != Some(&b'\n'));
            st.not_reached += n;
            st.lines += n;
        }
        st.passthrough = st.lines - st.not_reached - st.converted - st.error_lines;
        st.written = st.lines - st.skipped - st.not_reached;
    }

    /// The slow twin of [`Worker::convert_chunk`]: every line through the converter.
    #[cfg(any(test, feature = "twins"))]
    pub fn convert_chunk_naive(&mut self, data: &[u8], res: &mut ChunkOut) {
        if let Some(l) = &mut self.legacy {
            l.set_naive(true);
        }
        res.clear();
        res.stats.bytes = data.len() as u64;
        let n = data.len();
        let mut st = Walk::default();
        while st.line_start < n {
            match memchr::memchr(b'\n', &data[st.line_start..]) {
                Some(p) => {
                    let end = st.line_start + p;
                    if self.end_line(data, end, true, Seen::Unchecked, &mut st, res) {
                        break;
                    }
                }
                None => {
                    if self.end_line(data, n, false, Seen::Unchecked, &mut st, res) {
                        break;
                    }
                }
            }
            if res.failed {
                break;
            }
        }
        if !res.failed && st.run_start < n {
            res.pieces.push(Piece::Input(st.run_start..n));
        }
        self.finish_counts(data, st.line_start, res);
    }

    /// Handles the line from `st.line_start` to `end` (the LF's position if `has_lf`, else the
    /// end of the chunk). Returns true if the chunk must stop (`--on-error fail`).
    #[inline]
    fn end_line(
        &mut self,
        data: &[u8],
        end: usize,
        has_lf: bool,
        seen: Seen,
        st: &mut Walk,
        res: &mut ChunkOut,
    ) -> bool {
        let start = st.line_start;
        let content_end = if has_lf && end > start && data[end - 1] == b'\r' {
            end - 1
        } else {
            end
        };
        let term_end = if has_lf { end + 1 } else { end };
        let line_no = res.stats.lines;
        res.stats.lines += 1;
        st.line_start = term_end;
        st.line_dirty = false;
        let content = &data[start..content_end];
        // The part converted: the whole line, or `--field`'s range (None: the field is missing).
        let field = match self.opts.field {
            None => Some(0..content.len()),
            Some((k, d)) => field_range(content, k, d),
        };
        if seen != Seen::Unchecked
            && content.len() <= self.opts.max_line_bytes
            && !self.resolving()
            && self.legacy.as_mut().is_none_or(|l| l.passes(content))
        {
            if let Some(f) = field.clone().map(|r| &content[r]) {
                // A clean line that needs nothing in this mode; or, in to-uri, a flagged ASCII
                // line that is already a valid URI (`is_ascii`, a word at a time, first:
                // non-ASCII lines need the converter anyway).
                let passes = match seen {
                    Seen::Clean => self.conv.is_clean(f),
                    _ => matches!(self.conv, Op::ToUri(_)) && f.is_ascii() && is_valid_ascii_uri(f),
                };
                if passes && integrity::quick_ok(f) {
                    return false;
                }
            }
        }
        self.slow_line(data, start, content_end, term_end, field, line_no, st, res)
    }

    #[cold]
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    fn slow_line(
        &mut self,
        data: &[u8],
        start: usize,
        content_end: usize,
        term_end: usize,
        field: Option<Range<usize>>,
        line_no: u64,
        st: &mut Walk,
        res: &mut ChunkOut,
    ) -> bool {
        let orig = &data[start..content_end];
        // Charset hook (issue 12): a record that needs decoding is converted in its decoded
        // (NFC) form; offsets are mapped back to the original bytes below.
        let mut prepared = std::mem::take(&mut self.prepared);
        let pre = match &mut self.legacy {
            Some(l) if orig.len() <= self.opts.max_line_bytes => l.prepare(orig, &mut prepared),
            _ => Ok(false),
        };
        let decoded = pre == Ok(true);
        let (content, field) = if decoded {
            let f = match self.opts.field {
                None => Some(0..prepared.len()),
                Some((k, d)) => field_range(&prepared, k, d),
            };
            (&prepared[..], f)
        } else {
            (orig, field)
        };
        let mark = res.out.len();
        let field_start = field.as_ref().map_or(0, |r| r.start);
        let result = if let Err(e) = pre {
            Err(e)
        } else if content.len() > self.opts.max_line_bytes {
            Err(LineError::new(
                ErrorKind::LineTooLong,
                self.opts.max_line_bytes,
            ))
        } else {
            match field {
                None => Err(LineError::new(ErrorKind::MissingField, content.len())),
                Some(fr) => {
                    res.out.extend_from_slice(&content[..fr.start]);
                    match self.convert_ref(content, &content[fr.clone()], &mut res.out) {
                        Ok(o) => {
                            res.out.extend_from_slice(&content[fr.end..]);
                            Ok(o)
                        }
                        Err(e) => Err(LineError::new(e.kind, e.offset + fr.start)),
                    }
                }
            }
        };
        let result = match (result, &mut self.legacy) {
            (Ok(mut o), Some(l)) if decoded => {
                o.changed = true;
                o.repairs += l.last_repairs();
                if let Some(w) = o.first_warning.as_mut() {
                    w.offset = l.column_of(orig, w.offset + field_start);
                }
                Ok(o)
            }
            (Err(e), Some(l)) if decoded => {
                Err(LineError::new(e.kind, l.column_of(orig, e.offset)))
            }
            (r, _) => r,
        };
        self.prepared = prepared;
        let content = orig;
        match result {
            Ok(o) => {
                if o.repairs > 0 {
                    res.stats.repaired_lines += 1;
                    res.stats.repairs += o.repairs as u64;
                }
                res.stats.host_fallbacks += o.host_fallbacks as u64;
                if let Some(w) = o.first_warning {
                    res.stats.warning_lines += 1;
                    res.stats.by_code[w.kind.index()] += 1;
                    let offset = if decoded {
                        w.offset
                    } else {
                        w.offset + field_start
                    };
                    res.issues.push(LineIssue {
                        line: line_no,
                        start,
                        len: content.len(),
                        err: LineError::new(w.kind, offset),
                        warning: true,
                    });
                }
                if self.opts.filter == Filter::InvalidOnly {
                    // check --invalid-only: a valid line is left out (counted as passed
                    // through: it was not converted and had no error).
                    res.out.truncate(mark);
                    res.stats.skipped += 1;
                    cut_line(st, res, start, term_end);
                    return false;
                }
                if o.changed {
                    res.stats.converted += 1;
                    res.out.extend_from_slice(&data[content_end..term_end]);
                    cut_line(st, res, start, term_end);
                    res.pieces.push(Piece::Output(mark..res.out.len()));
                } else {
                    res.out.truncate(mark);
                }
                false
            }
            Err(e) => {
                res.out.truncate(mark);
                res.stats.error_lines += 1;
                res.stats.by_code[e.kind.index()] += 1;
                res.issues.push(LineIssue {
                    line: line_no,
                    start,
                    len: content.len(),
                    err: e,
                    warning: false,
                });
                match self.opts.error_policy() {
                    OnError::Keep => false,
                    OnError::Skip => {
                        res.stats.skipped += 1;
                        cut_line(st, res, start, term_end);
                        false
                    }
                    OnError::Fail => {
                        // The line that stops the run is not written: it counts as skipped.
                        res.stats.skipped += 1;
                        cut_line(st, res, start, term_end);
                        res.failed = true;
                        true
                    }
                }
            }
        }
    }
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

/// Ends the run of unchanged input before the line at `start` (a [`Piece::Input`]) and starts
/// the next one after the line: the line itself is written some other way, or not at all.
fn cut_line(st: &mut Walk, res: &mut ChunkOut, start: usize, term_end: usize) {
    if st.run_start < start {
        res.pieces.push(Piece::Input(st.run_start..start));
    }
    st.run_start = term_end;
}

/// What the classifier said of a line: no flagged byte, some, or nothing (the naive twin,
/// which sends every line to the converter without any shortcut).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Seen {
    Clean,
    Flagged,
    Unchecked,
}

#[derive(Default)]
struct Walk {
    line_start: usize,
    line_dirty: bool,
    run_start: usize,
}
