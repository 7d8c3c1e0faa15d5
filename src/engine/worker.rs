//! The worker: walks a chunk's lines with the classifier's masks and sends only the flagged
//! ones to the mode's converter; `Worker::convert_chunk_naive` is its twin.

use super::{Base, EngineOptions, Filter, Mode, OnError};
use crate::convert::check::{CheckOptions, Checker};
use crate::convert::integrity::{self, Guard, GuardOptions};
use crate::convert::leiri::LeiriToIri;
use crate::convert::normalize::{is_normal_unflagged, NormalizeOptions, Normalizer};
use crate::convert::repair::Repairing;
use crate::convert::to_iri::{ToIri, ToIriOptions};
use crate::convert::to_uri::ToUri;
use crate::convert::Converter;
use crate::convert::{Outcome, Written};
use crate::engine::chunk::{ChunkOut, LineIssue, Piece};
use crate::engine::lines::{field_range, LEIRI_FLAGGED, TO_IRI_FLAGGED, TO_URI_FLAGGED};
use crate::error::{ErrorKind, LineError};
use crate::grammar::components;
use crate::simd::{ByteSet, Classifier};
use std::ops::Range;

pub use crate::convert::integrity::offset_in_reference;

/// The per-line operation of a mode (the worker runs it inside a [`Guard`]).
#[derive(Debug)]
enum Op {
    ToUri(ToUri),
    ToIri(ToIri),
    /// The checker, and whether the engine may pass the lines it proves valid without a
    /// warning ([`Checker::quick_valid`]) unseen: not with `--invalid-only`, which leaves
    /// them out.
    Check(Checker, bool),
    Leiri(Repairing<LeiriToIri>),
    Normalize(Box<Repairing<Normalizer>>),
}

impl Op {
    fn new(opts: &EngineOptions) -> Op {
        let t = opts.to_uri;
        match opts.mode {
            Mode::ToUri => Op::ToUri(ToUri::new(t)),
            Mode::ToIri => {
                Op::ToIri(ToIri::new(ToIriOptions { host: t.host }).with_strict(t.strict))
            }
            Mode::Check { uri_only } => Op::Check(
                Checker::new(CheckOptions {
                    to_uri: t,
                    uri_only,
                }),
                opts.filter != Filter::InvalidOnly,
            ),
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

    /// The guard's options for this mode: `--trim`, `--strict`, and the host mode of the
    /// modes that map hosts (to-uri, normalize).
    fn guard_options(opts: &EngineOptions) -> GuardOptions {
        let t = opts.to_uri;
        GuardOptions {
            trim: t.trim,
            strict: t.strict,
            maps_hosts: matches!(opts.mode, Mode::ToUri | Mode::Normalize { .. }).then_some(t.host),
            warnings_unseen: false,
        }
    }
}

impl Converter for Op {
    #[inline]
    fn convert_into(&mut self, line: &[u8], out: &mut Vec<u8>) -> Result<Outcome, LineError> {
        match self {
            Op::ToUri(c) => c.convert_into(line, out),
            Op::ToIri(c) => c.convert_into(line, out),
            Op::Check(c, _) => c.convert_into(line, out),
            Op::Leiri(c) => c.convert_into(line, out),
            Op::Normalize(c) => c.convert_into(line, out),
        }
    }

    #[inline]
    fn convert_with_head(
        &mut self,
        line: &[u8],
        head: &integrity::LineHead,
        out: &mut Vec<u8>,
    ) -> Result<Outcome, LineError> {
        // Each converter decides whether it uses the head (the trait's default does not).
        match self {
            Op::ToUri(c) => c.convert_with_head(line, head, out),
            Op::ToIri(c) => c.convert_with_head(line, head, out),
            Op::Check(c, _) => c.convert_with_head(line, head, out),
            Op::Leiri(c) => c.convert_with_head(line, head, out),
            Op::Normalize(c) => c.convert_with_head(line, head, out),
        }
    }
}

impl Op {
    /// True if a line without flagged bytes needs nothing in this mode.
    #[inline(always)]
    fn is_clean(&self, line: &[u8]) -> bool {
        self.clean_test().holds(line)
    }

    /// This mode's test of [`Op::is_clean`], detached from the converter (so that the walk
    /// can be compiled once per mode, [`Worker::convert_chunk`]).
    #[inline(always)]
    fn clean_test(&self) -> CleanTest {
        match self {
            Op::ToUri(_) => CleanTest::ToUri,
            Op::ToIri(_) => CleanTest::ToIri,
            Op::Check(c, quick) => CleanTest::Check(quick.then(|| c.host_mode())),
            Op::Leiri(_) => CleanTest::Leiri,
            Op::Normalize(c) => CleanTest::Normalize(*c.inner().options()),
        }
    }
}

/// What [`Op::is_clean`] asks of a line without flagged bytes, per mode.
#[derive(Clone, Copy)]
enum CleanTest {
    ToUri,
    ToIri,
    /// The checker's host mode; `None` where no line passes unseen (`--invalid-only`).
    Check(Option<crate::config::HostMode>),
    Leiri,
    Normalize(NormalizeOptions),
}

impl CleanTest {
    /// True if the line (without flagged bytes) needs nothing in this mode.
    #[inline(always)]
    fn holds(self, line: &[u8]) -> bool {
        // Host integrity (issue 16): lines `quick_ok` refuses (its checks could fail) take the
        // slow path.
        match self {
            // `quick_ok && is_plain`, in one pass for the common lines.
            CleanTest::ToUri => crate::convert::to_uri::is_clean_unflagged(line),
            // `quick_ok && !has_ace_host`, in one pass for the common lines.
            CleanTest::ToIri => crate::engine::lines::is_clean_to_iri(line),
            // check: its quick pass proves what `quick_ok` does itself, in the same walk.
            // Called only on lines without a flagged byte (`flagged_set`: LEIRI_FLAGGED).
            CleanTest::Check(host) => {
                host.is_some_and(|h| crate::convert::check::quick_valid_unflagged(line, h))
            }
            CleanTest::Leiri => integrity::quick_ok(line),
            // Issue #11: a line that is already normal under these options (no flagged byte,
            // so no `%`, `#`, `@`, `[`, `]`): `is_normal_unflagged` is `quick_ok` and
            // `normalize::is_normal_plain`, in one pass for the common lines.
            CleanTest::Normalize(o) => is_normal_unflagged(line, &o),
        }
    }
}

/// A worker: a converter (with its host cache) and a classifier. One per thread.
#[derive(Debug)]
pub struct Worker {
    /// The mode's converter inside its host-integrity [`Guard`] (issue 16).
    conv: Guard<Op>,
    base: Base,
    classifier: Classifier,
    opts: EngineOptions,
    masks: Vec<crate::simd::BlockMasks>,
    /// Charset hook (issue 12): the per-record decoder, and its output buffer.
    legacy: Option<Box<crate::charset::RecordDecoder>>,
    prepared: Vec<u8>,
    /// The base with the charset's query rule applied ([`RecordDecoder::rewrite_base`]).
    ///
    /// [`RecordDecoder::rewrite_base`]: crate::charset::RecordDecoder::rewrite_base
    base_buf: Vec<u8>,
    /// `--base-field`: each record's base goes through to-uri first (in the run's host mode,
    /// with the host checks), whose error is the record's `bad-base`
    /// ([`crate::base_problem_with`]'s rule for `--base`).
    base_check: Option<Box<(Guard<ToUri>, Vec<u8>)>>,
    /// `--repair` on a `--base-field` base ([`Worker::convert_ref`]): the repaired base.
    base_repair: crate::convert::repair::Repairer,
    /// The lines of the current stretch that the walk sends to [`Worker::end_line`]
    /// ([`Worker::flush`]).
    deferred: Vec<Deferred>,
    /// Converted bytes of the last chunk this worker converted (`None` before its first):
    /// how much output room the walk reserves for the next.
    last_out: Option<usize>,
}

/// A line that needs work, kept by the walk for [`Worker::flush`]: `data[start..end]` up to its
/// LF, what the classifier said of it, whether it has a byte ≥ 0x80, and its number in the
/// chunk.
#[derive(Clone, Copy, Debug)]
struct Deferred {
    start: usize,
    end: usize,
    seen: Seen,
    high: bool,
    line_no: u64,
}

/// Bytes the walk classifies before it converts the lines it found not clean in them
/// ([`Worker::flush`], a multiple of [`WINDOW`]).
const STRETCH: usize = 16 * WINDOW;

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
            conv: Guard::new(Op::new(&opts), Op::guard_options(&opts)),
            base: Base::None,
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
            base_buf: Vec::new(),
            base_check: None,
            base_repair: Default::default(),
            deferred: Vec::new(),
            last_out: None,
        }
    }

    /// The flagged set for these options: the mode's set without the field delimiter
    /// (see each arm).
    pub fn flagged_set(opts: &EngineOptions) -> ByteSet {
        let set = match opts.mode {
            Mode::ToUri => TO_URI_FLAGGED,
            Mode::ToIri => TO_IRI_FLAGGED,
            // check: the bytes never allowed in a URI as they are; a line without them is
            // proved valid by `Checker::quick_valid` or sent to the checker.
            Mode::Check { .. } => LEIRI_FLAGGED,
            // Normalize: the lines `normalize::is_normal_plain` can judge have none of the
            // to-uri flagged bytes (`%` among them: decoding and hex case are the converter's).
            Mode::Normalize { .. } => TO_URI_FLAGGED,
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
        // `--repair` applies to the base as to every line (a crawl's page URL holds `?a[]=1`
        // as its links do; a QA sweep found `--base 'http://shop.com/l?f[]=1'` refused with
        // `--repair brackets`), before the legacy rule and resolution see it.
        let base = match base {
            Base::Fixed(b) => {
                let mut rp = crate::convert::repair::Repairer::default();
                match rp.apply(&b, self.opts.to_uri.repair) {
                    Some(fixed) => Base::Fixed(std::sync::Arc::from(fixed)),
                    None => Base::Fixed(b),
                }
            }
            other => other,
        };
        if let Some(l) = self.legacy.as_mut() {
            // The query rule follows the resolved scheme (3987bis §3.5).
            match &base {
                Base::None => l.set_base(None, None),
                Base::Fixed(b) => l.set_base(Some(b), None),
                Base::Field(k) => l.set_base(None, Some(*k)),
            }
        }
        self.base = base;
    }

    /// UTF-16 input (transcoded as a stream, [`crate::charset::Utf16Reader`]) read as records
    /// (`--field`): a malformed sequence there became the byte `FF`, which only the converted
    /// field would report; so any `FF` in the record is `invalid-utf8` at its column, as the
    /// README promises, not written on in another field (found by a QA sweep).
    fn utf16_fields(&self) -> bool {
        self.opts.field.is_some()
            && self
                .opts
                .charset
                .is_some_and(|c| c.stream_charset().is_some())
    }

    fn resolving(&self) -> bool {
        self.base != Base::None
    }

    /// Runs the mode on the reference `record[field]` through its [`Guard`] (the
    /// host-integrity checks of issue 16 and resolution), against the base of this record when
    /// one is set (`--base`, or the record's `--base-field`). Offsets are in `record`: a
    /// problem of the base field (`missing-field` at the record's end, `bad-base` at the
    /// field) is found where that field is, which may be before the reference.
    fn convert_ref(
        &mut self,
        record: &[u8],
        field: Range<usize>,
        out: &mut Vec<u8>,
    ) -> Result<Outcome, LineError> {
        let held = self.base.clone(); // an Arc: the base outlives the borrows of `self`
        let base: Option<&[u8]> = match &held {
            Base::None => None,
            Base::Field(k) => match field_range(record, *k, self.opts.field.map_or(b'\t', |f| f.1))
            {
                Some(r) => {
                    // RFC 3986 §5.1: the base must be absolute. Resolution would say
                    // `bad-scheme`, about the reference's column.
                    let raw = &record[r.clone()];
                    let c = components::split(raw);
                    if c.scheme.is_none() || components::check_scheme(raw, &c).is_err() {
                        return Err(LineError::new(
                            ErrorKind::BadBase(crate::error::BaseFault::NO_SCHEME),
                            r.start,
                        ));
                    }
                    // And one that to-uri converts without an error, as `--base` must be
                    // (`http://a/%zz/c` gave the reference's column, or lost the segment to
                    // `..`; found by a QA sweep): `bad-base` at the base's bad byte.
                    // In the run's host mode and with the host checks around it, as
                    // `iribulk::base_problem_with` does for `--base` (`http://127。1/` and a
                    // ZWJ in the host were the reference's error; found by a QA sweep).
                    // Under `--strict` and with `--repair`, as `--base` is
                    // (`iribulk::base_problem_with`; to-uri maps the offsets of its repairs
                    // back to the base).
                    let t = self.opts.to_uri;
                    let (conv, sink) = &mut **self.base_check.get_or_insert_with(|| {
                        let o = t.for_base();
                        let g = GuardOptions {
                            trim: false,
                            // The host mapping's warnings are errors under `--strict`, of the
                            // base as of the line (a QA sweep: a ZWSP in the base's host was
                            // reported at the reference's column).
                            strict: o.strict,
                            maps_hosts: Some(o.host),
                            warnings_unseen: false,
                        };
                        Box::new((Guard::new(ToUri::new(o), g), Vec::new()))
                    });
                    sink.clear();
                    if let Err(e) = conv.convert_into(raw, sink) {
                        let at = r.start + e.offset.min(raw.len().saturating_sub(1));
                        return Err(LineError::new(
                            ErrorKind::BadBase(crate::error::BaseFault::of(e.kind)),
                            at,
                        ));
                    }
                    // Resolution uses the repaired base ([`Worker::set_base`]).
                    Some(
                        self.base_repair
                            .apply(raw, self.opts.to_uri.repair)
                            .unwrap_or(raw),
                    )
                }
                None => return Err(LineError::new(ErrorKind::MissingField, record.len())),
            },
            Base::Fixed(b) => Some(b),
        };
        // A legacy charset's query rule applies to the base's query too (to-uri only).
        let mut rewritten = std::mem::take(&mut self.base_buf);
        let rewrote = match (base, self.legacy.as_mut()) {
            (Some(b), Some(l)) => l.rewrite_base(record, b, &mut rewritten),
            _ => false,
        };
        let base = if rewrote { Some(&rewritten[..]) } else { base };
        let start = field.start;
        let r = self
            .conv
            .convert_ref(base, &record[field], out)
            .map_err(|e| LineError::new(e.kind, e.offset + start));
        self.base_buf = rewritten;
        r
    }

    /// Converts one value as the slow path converts a line: resolution against a
    /// [`Base::Fixed`] base (RFC 3986 §5.2, RFC 3987 §6.5), the mode, and the host-integrity
    /// checks and `--trim` around it (issue 16, contract item 17). Offsets are in `value`. On
    /// [`Written::Passthrough`] nothing is appended and the result is `value` itself
    /// ([`crate::convert`]'s contract); on `Wrote` the result is appended to `out`. For
    /// callers that take values one at a time (the Python binding): they do the line cap and
    /// the charset decoding first, as the chunk walk does, and never set a [`Base::Field`]
    /// base (a value has no other field).
    pub fn convert_value(&mut self, value: &[u8], out: &mut Vec<u8>) -> Result<Outcome, LineError> {
        self.convert_ref(value, 0..value.len(), out)
    }

    /// Converts a chunk of whole lines (the last one may lack its terminator) into `res`
    /// (cleared first). The fast path.
    ///
    /// The walk is compiled once per mode with that mode's clean-line test
    /// ([`Op::is_clean`], chosen by [`Op::clean_test`]) and the options that decide whether
    /// a clean line may pass inline (no `--field`, no base, the line cap) read once here,
    /// not per line (issue 11: the 10 % non-ASCII set spends half its time in this walk).
    pub fn convert_chunk(&mut self, data: &[u8], res: &mut ChunkOut) {
        let max = self.opts.max_line_bytes;
        // A clean line passes inline only without `--field` and a base (see `walk`).
        let inline = self.opts.field.is_none() && !self.resolving();
        let none = |_: &[u8]| false;
        // The walk with the clean-line test `t`, a variant built in the arm, where the
        // closure sees it, so that `holds` folds to that mode's test (one walk per mode).
        macro_rules! walk_with {
            ($t:expr, $flagged:expr) => {{
                let t = $t;
                self.walk(data, res, |l| l.len() <= max && t.holds(l), $flagged)
            }};
        }
        match self.conv.inner().clean_test() {
            _ if !inline => self.walk(data, res, none, none),
            // `end_line`'s test for a flagged ASCII line, where no charset decodes it first.
            CleanTest::ToUri if self.legacy.is_none() => {
                walk_with!(CleanTest::ToUri, |l: &[u8]| {
                    let l = l.strip_suffix(b"\r").unwrap_or(l);
                    l.len() <= max && crate::convert::to_uri::is_valid_flagged_ascii(l)
                })
            }
            CleanTest::ToUri => walk_with!(CleanTest::ToUri, none),
            CleanTest::ToIri => walk_with!(CleanTest::ToIri, none),
            CleanTest::Check(h) => walk_with!(CleanTest::Check(h), none),
            CleanTest::Leiri => walk_with!(CleanTest::Leiri, none),
            CleanTest::Normalize(o) => walk_with!(CleanTest::Normalize(o), none),
        }
        self.last_out = Some(res.out.len());
    }

    /// [`Worker::convert_chunk`] with `clean`, the mode's [`Op::is_clean`] for lines that may
    /// pass inline (false for every line where none may).
    ///
    /// `flagged_ascii`: the same for an ASCII line with a flagged byte (to-uri's
    /// [`is_valid_flagged_ascii`](crate::convert::to_uri::is_valid_flagged_ascii), which
    /// [`Worker::end_line`] asks otherwise, after a call and its per-line setup: a fifth of the
    /// lines of crawl data hold a `%` or a `#`); its line may end with the CR of a CRLF.
    #[inline(always)]
    fn walk(
        &mut self,
        data: &[u8],
        res: &mut ChunkOut,
        clean: impl Fn(&[u8]) -> bool,
        flagged_ascii: impl Fn(&[u8]) -> bool,
    ) {
        if let Some(l) = &mut self.legacy {
            l.set_naive(false);
        }
        res.clear();
        res.stats.bytes = data.len() as u64;
        // Converted lines grow by up to 3× (every byte as %HH); reserving once keeps the
        // per-line reserve in the converter from reallocating a large buffer mid-chunk. The
        // room is rounded up (to whole MiB, or 64 KiB): chunks end at the first line end
        // after the chunk size, so their lengths differ by a few bytes, and an exact reserve
        // reallocated (a copy, and fresh pages the kernel zeroes: a third of the time of a
        // 50 MB run on this VM, issue 11) whenever a slot met a chunk a line longer than its
        // last. A worker's first chunk gets three times its size; later ones twice what the
        // worker's last chunk wrote (and 64 KiB), up to that: each slot keeps its buffer from
        // chunk to chunk, and on mostly-ASCII data a threefold room per slot (eight slots a
        // thread) was memory never written, yet first touched — a whole 2 MiB page where the
        // allocator's arenas are on transparent huge pages (peak RSS of to-uri on real data
        // ×40 from a pipe on 16 threads: 455 → 221 MiB; on `intl_cldr`, whose chunks write
        // more than their size, unchanged). `check` writes its lines from the input (a valid
        // line is its own output) and reserves nothing (16 threads: 425 → 171 MiB).
        if !matches!(self.conv.inner(), Op::Check(..)) {
            let room = data
                .len()
                .saturating_mul(3)
                .min(64 << 20)
                .next_multiple_of(1 << 20);
            let want = self.last_out.map_or(room, |u| {
                (u.saturating_mul(2) + (64 << 10))
                    .next_multiple_of(64 << 10)
                    .min(room)
            });
            res.out.reserve(want);
        }
        let n = data.len();
        let mut st = Walk::default();
        let mut masks = std::mem::take(&mut self.masks);
        self.deferred.clear();
        // Whether the line before passed inline (a clean one).
        let mut after_clean = false;
        let mut off = 0;
        while off < n {
            // Classify a window of blocks in one call (the SIMD loop runs inside it), then
            // walk their masks.
            if off % WINDOW == 0 {
                if off % STRETCH == 0 && self.flush(data, &mut st, res) {
                    self.finish_counts(data, st.line_start, res);
                    self.masks = masks;
                    return;
                }
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
            let mut hi = m.high;
            let mut lf = m.lf;
            while lf != 0 {
                let bit = lf.trailing_zeros();
                let upto = (1u64 << bit) | ((1u64 << bit) - 1);
                let dirty = st.line_dirty || fl & upto != 0;
                fl &= !upto;
                st.line_high |= hi & upto != 0;
                hi &= !upto;
                lf &= lf - 1;
                let end = off + bit as usize;
                // The common case, inline: a clean line (a trailing CR is harmless to
                // is_plain: at worst it sends a line with a port to the slow path).
                let line = &data[st.line_start..end];
                let pass = if dirty {
                    !st.line_high && flagged_ascii(line)
                } else {
                    clean(line)
                };
                if pass {
                    res.stats.lines += 1;
                    st.next_line(end);
                    after_clean = true;
                    continue;
                }
                let seen = if dirty { Seen::Flagged } else { Seen::Clean };
                if (st.line_high && after_clean) || !self.deferred.is_empty() {
                    // A non-ASCII line right after a clean one, and every line after it in
                    // the stretch that needs work (the input's order), is converted after the
                    // stretch's walk: where such lines are few among clean ones (the 10 %
                    // non-ASCII set), the walk and the converters each keep their branches
                    // predicted (issue 11). Where they follow each other (`intl_cldr`), the
                    // list would only add its cost.
                    self.deferred.push(Deferred {
                        start: st.line_start,
                        end,
                        seen,
                        high: st.line_high,
                        line_no: res.stats.lines,
                    });
                    res.stats.lines += 1;
                    st.next_line(end);
                    continue;
                }
                after_clean = false;
                if self.end_line(data, end, true, seen, &mut st, res) {
                    self.finish_counts(data, st.line_start, res);
                    self.masks = masks;
                    return;
                }
            }
            st.line_dirty |= fl != 0;
            st.line_high |= hi != 0;
            off = end;
        }
        self.masks = masks;
        if self.flush(data, &mut st, res) {
            self.finish_counts(data, st.line_start, res);
            return;
        }
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

    /// Sends the lines the walk deferred to [`Worker::end_line`], in input order, each with
    /// the line number and state it had in the walk; then gives the walk back its own line
    /// state. True when a line stopped the chunk (`--on-error fail`): `st.line_start` is then
    /// the end of that line, and the line count stops there, as without deferral.
    #[inline(never)]
    fn flush(&mut self, data: &[u8], st: &mut Walk, res: &mut ChunkOut) -> bool {
        if self.deferred.is_empty() {
            return false;
        }
        let (start, high, dirty) = (st.line_start, st.line_high, st.line_dirty);
        let lines = res.stats.lines;
        // Taken out while `end_line` borrows the worker; given back cleared (what a stop
        // leaves of it is not converted).
        let mut deferred = std::mem::take(&mut self.deferred);
        let mut stopped = false;
        for d in deferred.drain(..) {
            st.line_start = d.start;
            st.line_high = d.high;
            st.line_dirty = false;
            res.stats.lines = d.line_no;
            if self.end_line(data, d.end, true, d.seen, st, res) {
                stopped = true;
                break;
            }
        }
        self.deferred = deferred;
        if stopped {
            return true;
        }
        res.stats.lines = lines;
        (st.line_start, st.line_high, st.line_dirty) = (start, high, dirty);
        false
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
        // Whether the line has a byte ≥ 0x80, from the classifier's `high` masks (the walk
        // keeps them). Read only by the shortcuts below, which the naive twin
        // (`Seen::Unchecked`, no masks) never takes.
        let line_high = std::mem::take(&mut st.line_high);
        debug_assert!(seen == Seen::Unchecked || line_high != data[start..content_end].is_ascii());
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
            && !(line_high && self.utf16_fields())
        {
            if let Some(f) = field.clone().map(|r| &content[r]) {
                let op = self.conv.inner_mut();
                if seen == Seen::Clean {
                    // A clean line that needs nothing in this mode (`is_clean`, as in the
                    // walk's inline loop: every mode's test includes what `quick_ok` proves).
                    if op.is_clean(f) {
                        return false;
                    }
                } else if let Op::ToUri(c) = op {
                    // `--field`'s part of a line with non-ASCII bytes may be ASCII.
                    let ascii = !line_high || (self.opts.field.is_some() && f.is_ascii());
                    if ascii {
                        // A flagged ASCII line that is already a valid URI and passes
                        // `quick_ok` (`is_valid_flagged`) passes through.
                        if crate::convert::to_uri::is_valid_flagged_ascii(f) {
                            return false;
                        }
                    } else if self.opts.field.is_none() && self.opts.filter == Filter::All {
                        // A whole line of the common non-ASCII crawl shape gets the slow
                        // path's result in one pass (`ToUri::convert_crawl_line`, issue 11),
                        // written as `slow_line` writes a converted line; a line it declines
                        // takes the slow path.
                        let mark = res.out.len();
                        let utf8 = || st.utf8_line(data, start, content_end);
                        match c.convert_crawl_line(content, utf8, &mut res.out) {
                            Some(true) => {
                                write_converted(st, res, data, start, content_end, term_end, mark);
                                return false;
                            }
                            Some(false) => return false,
                            None => {}
                        }
                    }
                } else if let Op::Check(c, _) = op {
                    // A valid crawl line without a warning passes in one call
                    // (`Checker::check_crawl_line`); `--invalid-only` leaves valid lines
                    // out, which the slow path does.
                    // Its UTF-8: an ASCII line's by `core::str::from_utf8` (its word-at-a-time
                    // ASCII loop), a non-ASCII line's from the walk's run validation.
                    let utf8 = || {
                        if line_high {
                            st.utf8_line(data, start, content_end)
                        } else {
                            std::str::from_utf8(content).ok()
                        }
                    };
                    if self.opts.field.is_none()
                        && self.opts.filter != Filter::InvalidOnly
                        && c.check_crawl_line(content, utf8)
                    {
                        return false;
                    }
                } else if let Op::Normalize(c) = op {
                    // A crawl line that steps 0–9 leave as it is, or that needs only step 9's
                    // decoding, in one call (`Normalizer::convert_crawl_line`, issue 11),
                    // when no repair is asked for; `--invalid-only` leaves valid lines out,
                    // which the slow path does. A line it declines takes the slow path.
                    if self.opts.field.is_none() && self.opts.filter != Filter::InvalidOnly {
                        if let Some(n) = c.unrepaired_mut() {
                            let mark = res.out.len();
                            match n.convert_crawl_line(content, &mut res.out) {
                                Some(true) => {
                                    write_converted(
                                        st,
                                        res,
                                        data,
                                        start,
                                        content_end,
                                        term_end,
                                        mark,
                                    );
                                    return false;
                                }
                                Some(false) => return false,
                                None => {}
                            }
                        }
                    }
                } else if let Op::ToIri(c) = op {
                    // The common crawl line in one call (`ToIri::convert_crawl_line`), as
                    // above; a line it declines takes the slow path.
                    if self.opts.field.is_none() && self.opts.filter == Filter::All {
                        let mark = res.out.len();
                        match c.convert_crawl_line(content, &mut res.out) {
                            Some(true) => {
                                write_converted(st, res, data, start, content_end, term_end, mark);
                                return false;
                            }
                            Some(false) => return false,
                            None => {}
                        }
                    }
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
        let bad_utf16 = if self.utf16_fields() {
            memchr::memchr(0xFF, orig)
        } else {
            None
        };
        let result = if let Err(e) = pre {
            Err(e)
        } else if let Some(p) = bad_utf16 {
            Err(LineError::new(ErrorKind::InvalidUtf8, p))
        } else if orig.len() > self.opts.max_line_bytes {
            // The limit is on the line as read (README, `--max-line-bytes`): a legacy line
            // under it whose decoding is longer (Shift_JIS kanji are 2 bytes, 3 in UTF-8; a
            // document-charset query 3 bytes an octet) is converted; it was refused, at
            // a column of no meaning (found by a QA sweep).
            Err(LineError::new(
                ErrorKind::LineTooLong,
                self.opts.max_line_bytes,
            ))
        } else {
            match field {
                None => Err(LineError::new(ErrorKind::MissingField, content.len())),
                Some(fr) => {
                    if fr.start > 0 {
                        res.out.extend_from_slice(&content[..fr.start]);
                    }
                    let at = res.out.len();
                    match self.convert_ref(content, fr.clone(), &mut res.out) {
                        // Passed through: the line is copied from the input (`out` is cut
                        // back below), except a decoded record, written whole.
                        Ok(o) if o.written == Written::Passthrough && !decoded => Ok(o),
                        // A delimiter the conversion wrote into the field (an IDNA2003 host
                        // without STD3 rules maps `，` to `,`) would split the record
                        // differently: `field-delimiter`, at the field's first byte.
                        Ok(o)
                            if o.written == Written::Wrote
                                && self.opts.field.is_some_and(|(_, d)| {
                                    memchr::memchr(d, &res.out[at..]).is_some()
                                }) =>
                        {
                            Err(LineError::new(ErrorKind::FieldDelimiter, fr.start))
                        }
                        Ok(o) => {
                            if o.written == Written::Passthrough {
                                res.out.extend_from_slice(&content[fr.clone()]);
                            }
                            if fr.end < content.len() {
                                res.out.extend_from_slice(&content[fr.end..]);
                            }
                            Ok(o)
                        }
                        Err(e) => Err(e),
                    }
                }
            }
        };
        let result = match (result, &mut self.legacy) {
            (Ok(mut o), Some(l)) if decoded => {
                o.written = Written::Wrote;
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
                if o.changed() {
                    write_converted(st, res, data, start, content_end, term_end, mark);
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

/// Writes the line at `start` as converted: its conversion is `res.out[mark..]`, to which
/// the line's terminator (`data[content_end..term_end]`) is appended; the line is cut out of
/// the run of unchanged input and counted as converted. The slow path and to-uri's one-pass
/// shortcut both end a converted line here.
#[inline]
fn write_converted(
    st: &mut Walk,
    res: &mut ChunkOut,
    data: &[u8],
    start: usize,
    content_end: usize,
    term_end: usize,
    mark: usize,
) {
    res.stats.converted += 1;
    // The terminator (none, LF or CR LF) byte by byte: `extend_from_slice` called `memcpy`
    // for one byte (~35 instructions a converted line, issue 11).
    for &b in &data[content_end..term_end] {
        res.out.push(b);
    }
    cut_line(st, res, start, term_end);
    // Converted lines in a row are one piece: their bytes follow each other in `res.out`, and
    // no input run lies between (`cut_line` would have pushed it). The writer then gets one
    // large slice instead of a slice a line, which its buffer copied one by one (~45
    // instructions a line on the writer thread, issue 11).
    let end = res.out.len();
    match res.pieces.last_mut() {
        Some(Piece::Output(r)) if r.end == mark => r.end = end,
        _ => res.pieces.push(Piece::Output(mark..end)),
    }
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
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Seen {
    Clean,
    Flagged,
    Unchecked,
}

#[derive(Default)]
struct Walk {
    line_start: usize,
    line_dirty: bool,
    /// The current line has a byte ≥ 0x80 (so far, in the blocks walked).
    line_high: bool,
    run_start: usize,
    /// `data[utf8_from..utf8_to]` is known to be UTF-8 ([`Walk::utf8_line`]); `utf8_from` is a
    /// line's start.
    utf8_from: usize,
    utf8_to: usize,
    /// The end of the last line [`Walk::utf8_line`] was asked about.
    utf8_last: usize,
}

/// How many bytes [`Walk::utf8_line`] validates at once for a run of non-ASCII lines.
const UTF8_RUN: usize = 16 << 10;

/// How close to the last line asked about a line must start for [`Walk::utf8_line`] to take
/// it as part of a run of non-ASCII lines (a few lines of crawl data).
const UTF8_NEAR: usize = 256;

impl Walk {
    /// Starts the line after the one that ends at the LF at `end`, which the walk has passed
    /// or deferred.
    #[inline(always)]
    fn next_line(&mut self, end: usize) {
        self.line_start = end + 1;
        self.line_high = false;
        self.line_dirty = false;
    }

    /// The line `data[start..end]` as text, or `None` when it is not UTF-8 (RFC 3987 §3.1 step
    /// 1c), for the to-uri one-pass shortcut (issue 11: "UTF-8 validated once for a whole run
    /// of flagged lines where possible"). A line that starts near the last one asked about
    /// (a run of non-ASCII lines, as in `intl_cldr.txt`) is answered from one validation of
    /// up to [`UTF8_RUN`] bytes of whole lines from its start; a line on its own is validated
    /// alone, as before (a run would cost more than it saves where non-ASCII lines are
    /// sparse). `start` must be the start of a line of `data` (0 or after an LF) and `end` its
    /// content's end (at its CR or LF, or the end of `data`). The twin is
    /// `crate::simd::utf8::validate` of the line alone (the test
    /// `utf8_line_matches_per_line_validation`).
    fn utf8_line<'a>(&mut self, data: &'a [u8], start: usize, end: usize) -> Option<&'a str> {
        if start < self.utf8_from || end > self.utf8_to {
            let near = start <= self.utf8_last + UTF8_NEAR;
            let stop = match (start + UTF8_RUN).min(data.len()) {
                lim if near && lim > end => {
                    if lim == data.len() {
                        lim
                    } else {
                        // Whole lines: a run never ends inside a character it cut.
                        memchr::memrchr(b'\n', &data[end..lim]).map_or(end, |p| end + p)
                    }
                }
                _ => end,
            };
            self.utf8_from = start;
            self.utf8_to = start + crate::simd::utf8::valid_prefix(&data[start..stop]);
        }
        self.utf8_last = end;
        if end > self.utf8_to {
            return None;
        }
        // SAFETY: `data[utf8_from..utf8_to]` is UTF-8 (`valid_prefix`), and `utf8_from <= start
        // <= end <= utf8_to`. `start` is a character boundary of it: `utf8_from` itself, or
        // the byte after an LF (an ASCII byte, a whole character). `end` is one too: the
        // position of a CR or LF, or `utf8_to`, the end of a valid prefix. So the bytes between
        // are whole characters of valid UTF-8.
        Some(unsafe { std::str::from_utf8_unchecked(&data[start..end]) })
    }
}

/// The pairs [`normalize_crawl_line_compare`] compares: the normalizer as the engine builds
/// it (whose `Normalizer::convert_crawl_line` the walk asks, issue 11) and a [`Worker`] with
/// the same options (whose `convert_value` is the engine's slow path for one line), for
/// every level, IDNA version and host mode, with and without `--as-uri`, a Unicode `--idn`,
/// and `--trim` with `--strict`. For the tests and the fuzz target `simd_twin`.
#[cfg(any(test, feature = "twins"))]
#[doc(hidden)]
pub struct NormalizeTwins(Vec<(Op, Worker)>);

#[cfg(any(test, feature = "twins"))]
impl NormalizeTwins {
    /// Every variant.
    #[allow(clippy::new_without_default)]
    pub fn new() -> NormalizeTwins {
        use crate::config::HostMode;
        use crate::convert::normalize::{Idn, Level, Rungs};
        let mut variants = Vec::new();
        for (level, idn) in [
            (Level::Syntax, None),
            (Level::Scheme, None),
            (Level::String, Some(Idn::Unicode)),
        ] {
            for host in [HostMode::Auto, HostMode::IDNA2003, HostMode::Percent] {
                for as_uri in [false, true] {
                    let mut e = EngineOptions {
                        mode: Mode::Normalize {
                            rungs: Rungs {
                                idn: idn.or(Rungs::level(level).idn),
                                ..Rungs::level(level)
                            },
                            as_uri,
                        },
                        ..Default::default()
                    };
                    e.to_uri = e.to_uri.host(host);
                    variants.push(e);
                }
            }
        }
        let mut guarded = variants[0];
        guarded.to_uri = guarded.to_uri.trim(true).strict(true);
        variants.push(guarded);
        NormalizeTwins(
            variants
                .iter()
                .map(|e| (Op::new(e), Worker::new(*e)))
                .collect(),
        )
    }
}

/// `Normalizer::convert_crawl_line` against the engine's slow path for `line`, in every
/// variant of `twins`: where the shortcut answers, the slow path succeeds with the same
/// bytes, nothing counted, and `Wrote` exactly when the shortcut wrote; where it declines,
/// `out` is as it was. Panics on a difference; returns how many variants the shortcut
/// answered with a conversion, with a pass-through, and how many it declined.
#[cfg(any(test, feature = "twins"))]
#[doc(hidden)]
pub fn normalize_crawl_line_compare(twins: &mut NormalizeTwins, line: &[u8]) -> [usize; 3] {
    let show = String::from_utf8_lossy(line);
    let mut counts = [0; 3];
    for (op, slow) in twins.0.iter_mut() {
        let Op::Normalize(c) = op else {
            unreachable!("normalize variants")
        };
        let n = c.unrepaired_mut().expect("no repairs");
        let mut a = b"x".to_vec();
        let Some(w) = n.convert_crawl_line(line, &mut a) else {
            assert_eq!(a, b"x", "{show:?}: declined, out untouched");
            counts[2] += 1;
            continue;
        };
        counts[!w as usize] += 1;
        let mut b = b"x".to_vec();
        let o = slow
            .convert_value(line, &mut b)
            .unwrap_or_else(|e| panic!("{show:?}: shortcut answered, slow path {e:?}"));
        assert_eq!(
            String::from_utf8_lossy(&a),
            String::from_utf8_lossy(&b),
            "{show:?} {:?}",
            slow.opts.mode
        );
        assert_eq!(o, Outcome::quiet(w), "{show:?} {:?}", slow.opts.mode);
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`Walk::utf8_line`] answers every line as `core::str::from_utf8` of the line alone
    /// does, whichever lines it is asked about (runs of neighbours and lone lines), on chunks
    /// of valid and invalid lines, CRLF and LF, lines longer than a run, a last line without
    /// a terminator, and invalid bytes at every kind of position (a run's validation then
    /// ends early, and lines after it start a new one).
    #[test]
    fn utf8_line_matches_per_line_validation() {
        let words: [&[u8]; 10] = [
            "https://bü.de/".as_bytes(),
            "пример/".as_bytes(),
            "日本語".as_bytes(),
            "\u{1F600}".as_bytes(),
            b"ascii-only/",
            b"\xFF",
            b"\xE6\x97",
            b"\xC3",
            b"\x80\x80",
            b"\xED\xA0\x80",
        ];
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut asked = 0usize;
        for round in 0..300 {
            let mut data = Vec::new();
            let lines = 1 + next() % 60;
            for l in 0..lines {
                let long = next() % 40 == 0;
                let n = if long { 3000 } else { next() % 12 };
                for _ in 0..n {
                    // Mostly valid text; invalid pieces in a tenth of the rounds' lines.
                    let r = next();
                    let w = if round % 3 == 0 && r % 10 == 0 {
                        words[5 + (r >> 8) as usize % 5]
                    } else {
                        words[(r >> 8) as usize % 5]
                    };
                    data.extend_from_slice(w);
                }
                if l + 1 < lines || next() % 2 == 0 {
                    data.extend_from_slice(if next() % 3 == 0 { b"\r\n" } else { b"\n" });
                }
            }
            let mut st = Walk::default();
            let mut start = 0;
            while start < data.len() {
                let (end, term_end) = match memchr::memchr(b'\n', &data[start..]) {
                    Some(p) => (start + p, start + p + 1),
                    None => (data.len(), data.len()),
                };
                let content_end = if end > start && data[end - 1] == b'\r' && end < data.len() {
                    end - 1
                } else {
                    end
                };
                // Ask about most lines (runs), skip some (lone lines after a gap).
                if next() % 4 != 0 {
                    let line = &data[start..content_end];
                    let want = std::str::from_utf8(line).ok();
                    assert_eq!(st.utf8_line(&data, start, content_end), want, "{line:02X?}");
                    asked += 1;
                }
                start = term_end;
            }
        }
        assert!(asked > 3000, "{asked}");
    }

    /// `Normalizer::convert_crawl_line` against the engine's slow path on
    /// [`quiet_test_lines`](crate::convert::normalize::quiet_test_lines) (issue 11: the
    /// characters its crawl pass percent-encodes and those it leaves to steps 0–9; the
    /// comparison with steps 0–9 themselves is `tests/normalize_quick.rs`'s). It must answer
    /// many lines and decline many.
    #[test]
    fn normalize_crawl_line_with_quiet_characters_equals_the_slow_path() {
        let mut twins = NormalizeTwins::new();
        let (mut wrote, mut declined) = (0, 0);
        crate::convert::normalize::quiet_test_lines(|line| {
            let [w, _, d] = normalize_crawl_line_compare(&mut twins, line);
            wrote += w;
            declined += d;
        });
        assert!(wrote > 5_000 && declined > 50_000, "{wrote} {declined}");
    }

    /// `Normalizer::convert_crawl_line` against the engine's slow path
    /// ([`normalize_crawl_line_compare`], every variant of [`NormalizeTwins`]) on
    /// `shortcut_test_lines` (made, random, every data set), the URI that to-uri writes for
    /// each data-set line (the lines that need step 9's decoding), and made crawl lines of
    /// `%` triplets (clean, kept encoded, unreserved, lower case, look-alikes, broken) after
    /// hosts of every kind. It must answer many lines both ways and decline many.
    #[test]
    fn normalize_crawl_line_equals_the_slow_path() {
        let twins = std::cell::RefCell::new(NormalizeTwins::new());
        let counts = std::cell::Cell::new([0usize; 3]);
        let check = |line: &[u8]| {
            let c = normalize_crawl_line_compare(&mut twins.borrow_mut(), line);
            let t = counts.get();
            counts.set([t[0] + c[0], t[1] + c[1], t[2] + c[2]]);
        };
        let read = crate::convert::to_iri::pct_shortcut_test_lines(0x9E37_79B9_7F4A_7C15, check);
        let [wrote, passed, declined] = counts.get();
        assert!(
            wrote > 20_000 && passed > 50_000 && declined > 50_000,
            "{wrote} {passed} {declined}"
        );
        assert!(!read || wrote > 100_000, "{wrote}");
    }

    /// `check` writes its lines from the input, so a chunk leaves its slot's output buffer
    /// without the threefold room the converting modes reserve (memory every slot would hold,
    /// eight slots a thread); to-uri on the same chunk reserves it. Both write the same lines:
    /// the chunk is valid IRIs, some non-ASCII (converted by to-uri, passed by check).
    #[test]
    fn check_reserves_no_output_room() {
        let mut data = Vec::new();
        for i in 0..20_000 {
            if i % 3 == 0 {
                data.extend_from_slice(format!("http://example.com/пример/{i}\n").as_bytes());
            } else {
                data.extend_from_slice(format!("http://example.com/a/{i}\n").as_bytes());
            }
        }
        let run = |mode| {
            let mut w = Worker::new(EngineOptions {
                mode,
                ..Default::default()
            });
            let mut res = ChunkOut::default();
            w.convert_chunk(&data, &mut res);
            assert_eq!(res.stats.lines, 20_000);
            assert!(res.issues.is_empty());
            res
        };
        let check = run(Mode::Check { uri_only: false });
        assert_eq!(check.render(&data), data);
        assert!(
            check.out.capacity() < data.len(),
            "check reserved {} bytes for a {}-byte chunk",
            check.out.capacity(),
            data.len()
        );
        let to_uri = run(Mode::ToUri);
        assert!(to_uri
            .render(&data)
            .starts_with(b"http://example.com/%D0%BF"));
        assert!(to_uri.out.capacity() >= 3 * data.len());
    }

    /// A worker's first chunk gets threefold output room; a later chunk twice what the last
    /// one wrote (and 64 KiB), so that slots on mostly-ASCII data do not each hold room
    /// they never write; a chunk that writes more than that still converts whole (the
    /// buffer grows).
    #[test]
    fn output_room_follows_what_the_last_chunk_wrote() {
        let chunk = |every: usize| {
            let mut data = Vec::new();
            for i in 0..20_000 {
                let path = if i % every == 0 { "пример" } else { "a" };
                data.extend_from_slice(format!("http://example.com/{path}/{i}\n").as_bytes());
            }
            data
        };
        let (sparse, dense) = (chunk(1000), chunk(1));
        let mut w = Worker::new(EngineOptions::default());
        let mut convert = |data: &[u8], converted: u64| {
            let mut res = ChunkOut::default();
            w.convert_chunk(data, &mut res);
            assert_eq!(res.stats.lines, 20_000);
            assert_eq!(res.stats.converted, converted);
            res
        };
        let first = convert(&sparse, 20);
        assert!(first.out.capacity() >= 3 * sparse.len());
        let written = first.out.len();
        assert!(written > 0 && written < 4096, "{written}");
        let second = convert(&sparse, 20);
        assert!(
            second.out.capacity() < sparse.len() / 4,
            "{} bytes of room after a chunk that wrote {written}",
            second.out.capacity()
        );
        // Far more than the room: the buffer grows and the output is whole.
        let third = convert(&dense, 20_000);
        assert!(third.out.len() > second.out.capacity());
        let mut naive = ChunkOut::default();
        Worker::new(EngineOptions::default()).convert_chunk_naive(&dense, &mut naive);
        assert_eq!(third.render(&dense), naive.render(&dense));
    }
}
