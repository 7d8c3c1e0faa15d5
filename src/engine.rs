//! The chunk converter: the fast path of iribulk, and its slow twin.
//!
//! A chunk is a run of whole lines. [`Worker::convert_chunk`] classifies it in 64-byte blocks
//! ([`crate::simd`]), walks the LF bits, and decides per line:
//!
//! * no flagged byte and [`is_plain`] (scheme and port well-formed): the line is passed through;
//!   consecutive such lines form one [`Piece::Input`] range of the input, written without copy;
//! * otherwise the exact converter ([`ToUri`]) runs on it; an unchanged result extends the
//!   input run as well, a changed one becomes a [`Piece::Output`].
//!
//! [`Worker::convert_chunk_naive`] splits lines with `memchr` and runs the converter on every
//! line: the obviously-correct twin that tests compare against, byte for byte.

use crate::classes::{self, SCHEME};
use crate::config::ToUriOptions;
use crate::convert::check::{CheckOptions, Checker};
use crate::convert::leiri::LeiriToIri;
use crate::convert::normalize::{NormalizeOptions, Normalizer, Rungs};
use crate::convert::to_iri::{ToIri, ToIriOptions};
use crate::convert::to_uri::{Outcome, ToUri};
use crate::error::{ErrorKind, LineError};
use crate::integrity;
use crate::simd::{ByteSet, Classifier};
use std::io::{self, Write};
use std::ops::Range;

/// What happens to a line that has an error.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OnError {
    /// Write the line unchanged and report it (the default).
    Keep,
    /// Leave the line out of the output and report it.
    Skip,
    /// Stop at the first error with a non-zero exit status.
    Fail,
}

/// What the engine does with each line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// IRI → URI (RFC 3987 §3.1). The default.
    ToUri,
    /// URI → IRI for display (RFC 3987 §3.2, 3987bis §4.2).
    ToIri,
    /// Validation (RFC 3987 §2.2, §4, §6.1): valid lines are written unchanged.
    Check {
        /// Validate RFC 3986 `URI-reference` instead of `IRI-reference`.
        uri_only: bool,
    },
    /// LEIRI → IRI (3987bis §6.2).
    LeiriToIri,
    /// The comparison ladder of RFC 3987 §5.3: these rungs, output as IRI or (`as_uri`) URI.
    Normalize {
        /// The rungs applied.
        rungs: Rungs,
        /// Write URIs instead of IRIs.
        as_uri: bool,
    },
}

/// Which lines `check` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Filter {
    /// Every line, as with the other modes (errors follow [`OnError`]). The default.
    All,
    /// Only valid lines (invalid ones are reported and left out).
    ValidOnly,
    /// Only invalid lines (valid ones are left out; invalid ones are reported).
    InvalidOnly,
}

/// Options of the bulk conversion of chunks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    /// What to do with each line. Default [`Mode::ToUri`].
    pub mode: Mode,
    /// Which lines `check` writes. Default [`Filter::All`].
    pub filter: Filter,
    /// Options of the per-line converter (the host mode and IDNA flags apply to every mode).
    pub to_uri: ToUriOptions,
    /// Error policy. Default [`OnError::Keep`].
    pub on_error: OnError,
    /// Convert only this field (0-based index, delimiter byte). Default `None`: whole lines.
    pub field: Option<(usize, u8)>,
    /// Lines longer than this (without terminator) are the error `line-too-long`, detected
    /// before any other work. Default 8 MiB (contract item 5).
    pub max_line_bytes: usize,
    /// Resolve each reference (the line, or `field`) against the base IRI in this field
    /// (0-based) of the same record before the mode applies (RFC 3986 §5.2, RFC 3987 §6.5).
    /// Default `None`. A fixed base is given to [`Worker::set_base`] instead.
    pub base_field: Option<usize>,
}

impl EngineOptions {
    /// What happens to a line with an error: `check --valid-only` leaves it out,
    /// `--invalid-only` writes it, otherwise [`EngineOptions::on_error`].
    pub fn error_policy(&self) -> OnError {
        match self.filter {
            Filter::ValidOnly => OnError::Skip,
            Filter::InvalidOnly => OnError::Keep,
            Filter::All => self.on_error,
        }
    }
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            mode: Mode::ToUri,
            filter: Filter::All,
            to_uri: ToUriOptions::default(),
            on_error: OnError::Keep,
            field: None,
            max_line_bytes: 8 << 20,
            base_field: None,
        }
    }
}

/// The bytes that send a line to the converter in leiri-to-iri mode: C0 controls and DEL,
/// non-ASCII, and the printable ASCII of 3987bis §6.3 (space `" < > \ ^ ` { | }`). Every mode
/// that writes URIs flags these too.
pub const LEIRI_FLAGGED: ByteSet = ByteSet::EMPTY
    .with_range(0x00, 0x1F)
    .with_range(0x7F, 0xFF)
    .with(b' ')
    .with(b'"')
    .with(b'<')
    .with(b'>')
    .with(b'\\')
    .with(b'^')
    .with(b'`')
    .with(b'{')
    .with(b'|')
    .with(b'}');

/// The bytes that send a line to the exact converter in to-uri mode: C0 controls and DEL
/// (RFC 3987 §2.2), every byte ≥ 0x80 (non-ASCII), printable ASCII not allowed in URIs
/// (RFC 3987 §3.1) — that is [`LEIRI_FLAGGED`] — and the delimiters whose placement must be
/// checked to keep the output a valid URI-reference (contract item 4): `%` (must start `%HH`),
/// `#` (only one), `[` `]` (only around an IP literal), `@` (only one in the authority).
pub const TO_URI_FLAGGED: ByteSet = LEIRI_FLAGGED
    .with(b'%')
    .with(b'#')
    .with(b'[')
    .with(b']')
    .with(b'@');

/// The bytes that send a line to the exact converter in to-iri mode: `%` (a percent-encoding
/// to decode), C0 controls and DEL (errors), and non-ASCII (must be UTF-8; C1 controls are
/// errors). Lines with an `xn--` host label are found by [`has_ace_host`].
pub const TO_IRI_FLAGGED: ByteSet = ByteSet::EMPTY
    .with_range(0x00, 0x1F)
    .with_range(0x7F, 0xFF)
    .with(b'%');

/// The per-line operation of a mode.
#[derive(Debug)]
enum Op {
    ToUri(ToUri),
    ToIri(ToIri),
    Check(Checker),
    Leiri(LeiriToIri),
    Normalize(Box<Normalizer>),
}

impl Op {
    fn new(opts: &EngineOptions) -> Op {
        let t = opts.to_uri;
        match opts.mode {
            Mode::ToUri => Op::ToUri(ToUri::new(t)),
            Mode::ToIri => Op::ToIri(ToIri::new(ToIriOptions {
                host: t.host,
                idna2003_flags: t.idna2003_flags,
            })),
            Mode::Check { uri_only } => Op::Check(Checker::new(CheckOptions {
                to_uri: t,
                uri_only,
            })),
            Mode::LeiriToIri => Op::Leiri(LeiriToIri),
            Mode::Normalize { rungs, as_uri } => {
                Op::Normalize(Box::new(Normalizer::new(NormalizeOptions {
                    rungs,
                    as_uri,
                    idna: match t.host {
                        crate::config::HostMode::Idna2003 => {
                            crate::host::Idna::Idna2003(t.idna2003_flags)
                        }
                        _ => crate::host::Idna::Uts46,
                    },
                })))
            }
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

/// True if the host of `line` may hold an `xn--` label (ASCII case-insensitive), which
/// to-iri decodes. `false` is exact; `true` may be a false alarm (e.g. in the userinfo).
#[inline]
pub fn has_ace_host(line: &[u8]) -> bool {
    // An invalid scheme is still a scheme to the splitter (RFC 3986 Appendix B), and to-iri
    // does not reject it: let the converter decide.
    let Some(rest) = scheme_end(line) else {
        return true;
    };
    if line.get(rest..rest + 2) != Some(b"//") {
        return false;
    }
    let a = &line[rest + 2..];
    let end = a
        .iter()
        .position(|&b| matches!(b, b'/' | b'?' | b'#'))
        .unwrap_or(a.len());
    a[..end].windows(4).any(|w| w.eq_ignore_ascii_case(b"xn--"))
}

/// One piece of a chunk's output: a range of the input chunk or of [`ChunkOut::out`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Piece {
    /// Bytes of the input, unchanged.
    Input(Range<usize>),
    /// Bytes of [`ChunkOut::out`].
    Output(Range<usize>),
}

/// A problem on one line, as the report needs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineIssue {
    /// 0-based index of the line in the chunk.
    pub line: u64,
    /// Offset of the line's first byte in the chunk.
    pub start: usize,
    /// Length of the line without terminator.
    pub len: usize,
    /// The error or warning; its offset is relative to the line start.
    pub err: LineError,
    /// True for a warning (the line was converted).
    pub warning: bool,
}

/// Counters of a chunk (and, summed, of a run).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Lines read.
    pub lines: u64,
    /// Bytes read.
    pub bytes: u64,
    /// Lines written exactly as read.
    pub passthrough: u64,
    /// Lines whose output differs from the input.
    pub converted: u64,
    /// Lines with at least one repair.
    pub repaired_lines: u64,
    /// Repairs (percent-encoded disallowed ASCII, LEIRI controls, invalid bytes).
    pub repairs: u64,
    /// Lines with at least one warning.
    pub warning_lines: u64,
    /// Hosts that fell back to percent-encoding.
    pub host_fallbacks: u64,
    /// Lines with an error.
    pub error_lines: u64,
    /// Lines left out of the output (`--on-error skip`).
    pub skipped: u64,
    /// Lines written (passthrough, converted, or kept with an error).
    pub written: u64,
    /// Errors and warnings by code, indexed like [`ErrorKind::ALL_CODES`].
    pub by_code: [u64; ErrorKind::ALL_CODES.len()],
}

impl Stats {
    /// Adds `o` into `self`.
    pub fn add(&mut self, o: &Stats) {
        self.lines += o.lines;
        self.bytes += o.bytes;
        self.passthrough += o.passthrough;
        self.converted += o.converted;
        self.repaired_lines += o.repaired_lines;
        self.repairs += o.repairs;
        self.warning_lines += o.warning_lines;
        self.host_fallbacks += o.host_fallbacks;
        self.error_lines += o.error_lines;
        self.skipped += o.skipped;
        self.written += o.written;
        for (a, b) in self.by_code.iter_mut().zip(o.by_code.iter()) {
            *a += b;
        }
    }
}

/// The result of converting one chunk.
#[derive(Debug, Default)]
pub struct ChunkOut {
    /// The output, in order.
    pub pieces: Vec<Piece>,
    /// Converted bytes that [`Piece::Output`] ranges point into.
    pub out: Vec<u8>,
    /// Errors and warnings, in line order.
    pub issues: Vec<LineIssue>,
    /// Counters.
    pub stats: Stats,
    /// True if `--on-error fail` stopped the chunk at an error (the last issue).
    pub failed: bool,
}

impl ChunkOut {
    /// Empties it for reuse, keeping the allocations.
    pub fn clear(&mut self) {
        self.pieces.clear();
        self.out.clear();
        self.issues.clear();
        self.stats = Stats::default();
        self.failed = false;
    }

    /// Writes the output of the chunk whose input was `data`, with vectored writes: clean
    /// runs go from the input (a memory map, say) to the writer without being copied here.
    pub fn write_to<W: Write + ?Sized>(&self, data: &[u8], w: &mut W) -> io::Result<()> {
        const MAX_SLICES: usize = 1024; // IOV_MAX on Linux
        let mut slices: Vec<io::IoSlice<'_>> =
            Vec::with_capacity(self.pieces.len().min(MAX_SLICES));
        for group in self.pieces.chunks(MAX_SLICES) {
            slices.clear();
            slices.extend(group.iter().map(|p| match p {
                Piece::Input(r) => io::IoSlice::new(&data[r.clone()]),
                Piece::Output(r) => io::IoSlice::new(&self.out[r.clone()]),
            }));
            write_all_vectored(w, &mut slices)?;
        }
        Ok(())
    }

    /// The output as one vector (tests, convenience).
    pub fn render(&self, data: &[u8]) -> Vec<u8> {
        let mut v = Vec::new();
        self.write_to(data, &mut v).expect("writing to a Vec");
        v
    }
}

/// `Write::write_all_vectored` (unstable in std): writes every slice, resuming after partial
/// writes.
pub fn write_all_vectored<W: Write + ?Sized>(
    w: &mut W,
    mut bufs: &mut [io::IoSlice<'_>],
) -> io::Result<()> {
    io::IoSlice::advance_slices(&mut bufs, 0);
    while !bufs.is_empty() {
        match w.write_vectored(bufs) {
            Ok(0) => return Err(io::Error::from(io::ErrorKind::WriteZero)),
            Ok(n) => io::IoSlice::advance_slices(&mut bufs, n),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// Cheap check of a line with no flagged byte: true if the exact converter would pass it
/// through unchanged. It looks at what flagged bytes cannot reveal: the scheme (RFC 3986 §3.1;
/// a `:` in the first segment of a relative reference) and the port (RFC 3986 §3.2.3).
/// `false` only means "ask the converter". [`is_plain_naive`] is its twin.
#[inline]
pub fn is_plain(line: &[u8]) -> bool {
    // The common schemes first: one compare instead of a byte loop.
    let rest = if line.starts_with(b"https:") {
        6
    } else if line.starts_with(b"http:") {
        5
    } else {
        match scheme_end_fast(line) {
            Some(r) => r,
            None => return false,
        }
    };
    match line.get(rest..rest + 2) {
        Some(b"//") => authority_ok(&line[rest + 2..]),
        _ => true,
    }
}

/// [`scheme_end`] with the first delimiter found by one SSE2 compare when the line is long
/// enough.
#[inline]
fn scheme_end_fast(line: &[u8]) -> Option<usize> {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    if line.len() >= 16 {
        let (t, c) = sse2_delims(line);
        let m = t | c;
        if m != 0 {
            let j = m.trailing_zeros() as usize;
            if c & (1 << j) == 0 {
                return Some(0); // no scheme: a relative reference
            }
            let ok = j > 0
                && line[0].is_ascii_alphabetic()
                && line[1..j].iter().all(|&b| classes::is(b, SCHEME));
            return ok.then_some(j + 1);
        }
    }
    scheme_end(line)
}

/// Where the path part starts: after `scheme:` if the line has a valid scheme, 0 if it has
/// none; `None` if the text before the first `:` is not a scheme.
#[inline]
fn scheme_end(line: &[u8]) -> Option<usize> {
    let j = line
        .iter()
        .position(|&b| matches!(b, b':' | b'/' | b'?' | b'#'))
        .unwrap_or(line.len());
    if j < line.len() && line[j] == b':' {
        if j == 0
            || !line[0].is_ascii_alphabetic()
            || !line[1..j].iter().all(|&b| classes::is(b, SCHEME))
        {
            return None;
        }
        return Some(j + 1);
    }
    Some(0)
}

/// Bit 7 of each byte of `w` that equals `b`, exact for the lowest match (SWAR).
#[inline(always)]
fn has_byte(w: u64, b: u8) -> u64 {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    let y = w ^ (LO * b as u64);
    y.wrapping_sub(LO) & !y & HI
}

/// The authority (after `//`) of a line with no flagged byte has no `@` and no `[`, so its
/// first `:` starts the port, which must be digits up to the first `/`, `?` or `#`.
#[inline]
fn authority_ok(a: &[u8]) -> bool {
    let mut i = 0;
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    while i + 16 <= a.len() {
        let (t, c) = sse2_delims(&a[i..i + 16]);
        // A ':' counts if it comes before the first terminator.
        let before = c & t.wrapping_sub(1) & !t;
        if before != 0 {
            return port_ok(&a[i + before.trailing_zeros() as usize + 1..]);
        }
        if t != 0 {
            return true;
        }
        i += 16;
    }
    while i + 8 <= a.len() {
        let w = u64::from_le_bytes(a[i..i + 8].try_into().expect("8 bytes"));
        let t = has_byte(w, b'/') | has_byte(w, b'?') | has_byte(w, b'#');
        let c = has_byte(w, b':');
        // The lowest set bit of each mask is exact; a ':' counts if it comes before the
        // first terminator.
        let before = if t == 0 {
            c
        } else {
            c & ((1u64 << t.trailing_zeros()) - 1)
        };
        if before != 0 {
            return port_ok(&a[i + before.trailing_zeros() as usize / 8 + 1..]);
        }
        if t != 0 {
            return true;
        }
        i += 8;
    }
    for (k, &b) in a[i..].iter().enumerate() {
        match b {
            b'/' | b'?' | b'#' => return true,
            b':' => return port_ok(&a[i + k + 1..]),
            _ => {}
        }
    }
    true
}

/// Bit masks of `/ ? #` and of `:` in the first 16 bytes of `b` (SSE2).
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(always)]
fn sse2_delims(b: &[u8]) -> (u32, u32) {
    use std::arch::x86_64::*;
    assert!(b.len() >= 16);
    // SAFETY: SSE2 is enabled at compile time (the cfg above; it is part of the x86_64
    // baseline), which is all these intrinsics require. `b` has at least 16 bytes (asserted),
    // so the unaligned 16-byte load stays inside it; `_mm_loadu_si128` needs no alignment.
    unsafe {
        let v = _mm_loadu_si128(b.as_ptr().cast::<__m128i>());
        let slash = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'/' as i8));
        let quest = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'?' as i8));
        let hash = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'#' as i8));
        let colon = _mm_cmpeq_epi8(v, _mm_set1_epi8(b':' as i8));
        let t = _mm_or_si128(_mm_or_si128(slash, quest), hash);
        (_mm_movemask_epi8(t) as u32, _mm_movemask_epi8(colon) as u32)
    }
}

#[cold]
fn port_ok(p: &[u8]) -> bool {
    p.iter()
        .take_while(|&&b| !matches!(b, b'/' | b'?' | b'#'))
        .all(u8::is_ascii_digit)
}

/// Second chance for a flagged line in to-uri mode: true if the line is an ASCII URI
/// reference that the converter would pass through unchanged — only URI characters, a valid
/// scheme and authority, every `%` starting `%HH`, brackets only around an IP literal, one
/// `#` at most (RFC 3986 §2–§4; contract item 4). Lines with `%`, `#` or `@` are common in
/// crawls and cost ~10× more through the converter, which writes them out and compares.
/// `false` only means "ask the converter"; `convert_chunk_naive` is the twin it is tested
/// against.
pub fn is_valid_ascii_uri(line: &[u8]) -> bool {
    use crate::components;
    // One pass: allowed bytes, well-formed %HH, how many '#', whether any bracket.
    let (mut i, n) = (0, line.len());
    let (mut hashes, mut brackets) = (0u32, false);
    loop {
        i += classes::plain_prefix_len(&line[i..]);
        if i >= n {
            break;
        }
        match line[i] {
            b'%' => {
                if !crate::pct::is_pct_triplet(line, i) {
                    return false;
                }
                i += 3;
            }
            b'#' => {
                hashes += 1;
                i += 1;
            }
            b'[' | b']' => {
                brackets = true;
                i += 1;
            }
            _ => return false, // not allowed in a URI as it is
        }
    }
    if hashes > 1 {
        return false;
    }
    let c = components::split(line);
    if components::check_scheme(line, &c).is_err() {
        return false;
    }
    let mut rest = c.path.start;
    if let Some(ar) = c.authority.clone() {
        let Ok(a) = components::split_authority(line, ar) else {
            return false;
        };
        let host = &line[a.host.clone()];
        if host.first() == Some(&b'[') {
            if !components::is_ip_literal(host) {
                return false;
            }
            rest = a.host.end; // the port (digits, checked) and the path follow
        } else {
            rest = a.host.start;
        }
    }
    !brackets || memchr::memchr2(b'[', b']', &line[rest..]).is_none()
}

/// The obviously-correct twin of [`is_plain`]: split with the real splitter and check.
pub fn is_plain_naive(line: &[u8]) -> bool {
    let c = crate::components::split(line);
    if crate::components::check_scheme(line, &c).is_err() {
        return false;
    }
    match c.authority {
        Some(a) => crate::components::split_authority(line, a).is_ok(),
        None => true,
    }
}

/// A worker: a converter (with its host cache) and a classifier. One per thread.
#[derive(Debug)]
pub struct Worker {
    conv: Op,
    base: Option<std::sync::Arc<[u8]>>,
    resolved: Vec<u8>,
    trimmed: Vec<u8>,
    classifier: Classifier,
    opts: EngineOptions,
    masks: Vec<crate::simd::BlockMasks>,
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
            base: None,
            resolved: Vec::new(),
            trimmed: Vec::new(),
            classifier,
            opts,
            masks: Vec::with_capacity(WINDOW / 64),
        }
    }

    /// The flagged set for these options: the mode's set without the field delimiter
    /// (`check` flags every byte: each line goes through the validator).
    pub fn flagged_set(opts: &EngineOptions) -> ByteSet {
        let set = match opts.mode {
            Mode::ToUri => TO_URI_FLAGGED,
            Mode::ToIri => TO_IRI_FLAGGED,
            Mode::Check { .. } | Mode::Normalize { .. } => return ByteSet::FULL,
            Mode::LeiriToIri => LEIRI_FLAGGED,
        };
        if opts.base_field.is_some() {
            return ByteSet::FULL; // every line is resolved
        }
        match opts.field {
            Some((_, d)) => set.without(d),
            None => set,
        }
    }

    /// Resolves every reference against `base` (RFC 3986 §5.2, RFC 3987 §6.5) before the mode
    /// applies. Every line then goes through the slow path.
    pub fn set_base(&mut self, base: Option<std::sync::Arc<[u8]>>) {
        self.base = base;
    }

    fn resolving(&self) -> bool {
        self.base.is_some() || self.opts.base_field.is_some()
    }

    /// Runs the mode on `reference`, resolved first when a base is set, with the host
    /// integrity checks of [`crate::integrity`] around it (issue 16, contract item 17): what
    /// browsers strip (`browser-stripped`, or removed with `--trim`), `\\`-like references
    /// against a special base, a special scheme without a host (`missing-host`, on the
    /// reference as resolved), and the host the mode produced ([`Self::check_output`]).
    fn convert_ref(
        &mut self,
        record: &[u8],
        reference: &[u8],
        out: &mut Vec<u8>,
    ) -> Result<Outcome, LineError> {
        let fixed = self.base.clone(); // an Arc: the base outlives the borrows of `self`
        let base: Option<&[u8]> = if !self.resolving() {
            None
        } else {
            Some(match (&fixed, self.opts.base_field) {
                (_, Some(k)) => {
                    match field_range(record, k, self.opts.field.map_or(b'\t', |f| f.1)) {
                        Some(r) => &record[r],
                        None => return Err(LineError::new(ErrorKind::MissingField, record.len())),
                    }
                }
                (Some(b), None) => b,
                (None, None) => unreachable!("resolving() checked"),
            })
        };
        let mark = out.len();
        let base_special = base
            .and_then(integrity::scheme_of)
            .is_some_and(integrity::is_special);
        let mut trimmed = std::mem::take(&mut self.trimmed);
        trimmed.clear();
        let mut trims = 0;
        let stripped = integrity::browser_stripped(reference, base_special);
        let input: &[u8] = match stripped {
            Some(_) if self.opts.to_uri.trim => {
                integrity::trim_into(reference, &mut trimmed);
                trims = 1;
                &trimmed
            }
            _ => reference,
        };
        let mut r = self.convert_checked(base, base_special, input, out);
        if let (Some(at), Ok(_), 0) = (stripped, &r, trims) {
            // The mode's own error (control-char, bad-scheme...) comes first; a line it would
            // write is `browser-stripped`.
            out.truncate(mark);
            r = Err(LineError::new(ErrorKind::BrowserStripped, at));
        }
        self.trimmed = trimmed;
        r.map(|mut o| {
            o.repairs += trims;
            if trims > 0 || base.is_some() {
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
        if let Some(at) = integrity::file_port(reference) {
            return Err(LineError::new(ErrorKind::BadPort, at));
        }
        // A file URL with a drive-letter segment and dot segments: RFC 3986 §5.2.4 may remove
        // the drive letter that browsers keep, dropping the host (WHATWG URL §4.4 path state).
        let file = |s: &[u8]| s.eq_ignore_ascii_case(b"file");
        let rc = crate::components::split(reference);
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
        crate::resolve::resolve_into(base, reference, &mut self.resolved)?;
        let resolved = std::mem::take(&mut self.resolved);
        if integrity::file_drive_with_host(&resolved) {
            self.resolved = resolved;
            return Err(LineError::new(ErrorKind::DriveLetterReference, 0));
        }
        let r = match integrity::missing_host(&resolved) {
            // The offset is in the reference when it has the scheme, else at its start.
            Some(at) if integrity::scheme_of(reference).is_some() => Err(LineError::new(
                ErrorKind::MissingHost,
                at.min(reference.len()),
            )),
            Some(_) => Err(LineError::new(ErrorKind::MissingHost, 0)),
            None => self.conv.convert_into(&resolved, out).and_then(|mut o| {
                self.check_output(&resolved, mark, out)?;
                self.check_mapping(&resolved, &out[mark..], &mut o)?;
                Ok(o)
            }),
        };
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
            || !integrity::scheme_of(input).is_some_and(integrity::is_special)
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
        let idna2003 = t.host == HostMode::Idna2003;
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
        if idna2003 {
            match integrity::idna2003_differs(&host, t.idna2003_flags) {
                Some(true) => return Err(LineError::new(ErrorKind::Idna2003Differs, start)),
                Some(false) => warn(ErrorKind::Idna2003Differs, start, true)?,
                None => {}
            }
        }
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
            if integrity::scheme_of(written).is_some_and(integrity::is_special)
                && integrity::ends_in_number(h)
                && !crate::components::is_ipv4(h)
                && integrity::host_of(input).is_none_or(|i| !i.eq_ignore_ascii_case(h))
            {
                return Err(LineError::new(ErrorKind::AmbiguousIpv4, 0));
            }
        }
        Ok(())
    }

    /// Converts a chunk of whole lines (the last one may lack its terminator) into `res`
    /// (cleared first). The fast path.
    pub fn convert_chunk(&mut self, data: &[u8], res: &mut ChunkOut) {
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
                    && self.base.is_none()
                    && end - st.line_start <= self.opts.max_line_bytes
                    && self.conv.is_clean(&data[st.line_start..end])
                {
                    res.stats.lines += 1;
                    st.line_start = end + 1;
                    continue;
                }
                let seen = if dirty { Seen::Flagged } else { Seen::Clean };
                if self.end_line(data, end, true, seen, &mut st, res) {
                    self.finish_counts(res);
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
                self.finish_counts(res);
                return;
            }
        }
        if st.run_start < n {
            res.pieces.push(Piece::Input(st.run_start..n));
        }
        self.finish_counts(res);
    }

    /// Derives the per-line counts that the walk does not keep: every line is passed through,
    /// converted, or has an error; every line is written, skipped, or the one that stopped a
    /// `--on-error fail` run.
    fn finish_counts(&self, res: &mut ChunkOut) {
        let st = &mut res.stats;
        st.passthrough = st.lines - st.converted - st.error_lines;
        st.written = st.lines - st.skipped - res.failed as u64;
    }

    /// The slow twin of [`Worker::convert_chunk`]: every line through the converter.
    pub fn convert_chunk_naive(&mut self, data: &[u8], res: &mut ChunkOut) {
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
        self.finish_counts(res);
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
        if seen != Seen::Unchecked && content.len() <= self.opts.max_line_bytes && !self.resolving()
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
        let content = &data[start..content_end];
        let mark = res.out.len();
        let field_start = field.as_ref().map_or(0, |r| r.start);
        let result = if content.len() > self.opts.max_line_bytes {
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
                    let offset = w.offset + field_start;
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
                        cut_line(st, res, start, term_end);
                        res.failed = true;
                        true
                    }
                }
            }
        }
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

/// The byte range of field `k` (0-based) of `line`, fields separated by `delim`.
pub fn field_range(line: &[u8], k: usize, delim: u8) -> Option<Range<usize>> {
    let mut start = 0;
    for _ in 0..k {
        start += memchr::memchr(delim, &line[start..])? + 1;
    }
    let end = memchr::memchr(delim, &line[start..]).map_or(line.len(), |p| start + p);
    Some(start..end)
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
