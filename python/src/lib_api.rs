//! The one place where the Python package touches the iribulk library.
//!
//! Every library path the bindings use is named here, so that a rename in the library is fixed
//! in this file only. The bindings do no conversion of their own: [`Converter`] picks the
//! library's per-line converter for a mode (the same choice as the CLI's engine) and adds the
//! engine's pass-through test for values that need no work.
//!
//! What the library could offer instead of this file: a public per-line operation built from
//! `engine::EngineOptions` (today the private `engine::Op`, with its `convert_into` and
//! `is_clean`), so that the engine, the CLI and these bindings share one dispatch.

use std::sync::Arc;

pub use iribulk::config::Idna2003Flags;
pub use iribulk::convert::check::{CheckOptions, Checker};
pub use iribulk::convert::leiri::LeiriToIri;
pub use iribulk::convert::normalize::{Idn, Level, NormalizeOptions, Normalizer, Rungs};
pub use iribulk::convert::to_iri::{ToIri, ToIriOptions};
pub use iribulk::engine::{has_ace_host, EngineOptions, Mode as EngineMode, Worker};
pub use iribulk::grammar::validate::{is_plain, is_valid_ascii_uri};
pub use iribulk::host::Idna;
pub use iribulk::simd::{BlockMasks, Classifier};
pub use iribulk::{ErrorKind, HostMode, InvalidUtf8, LineError, Outcome, ToUri, ToUriOptions};

/// The CLI's default `--max-line-bytes` (contract item 5): 8 MiB.
pub const DEFAULT_MAX_LINE_BYTES: usize = 8 << 20;

/// What to do with each value: the CLI's `--mode`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// `--mode to-uri` (RFC 3987 §3.1).
    ToUri,
    /// `--mode to-iri` (RFC 3987 §3.2).
    ToIri,
    /// `--mode check` (RFC 3987 §2.2, §4, §6.1); `uri`: `--uri` (RFC 3986 §4.1).
    Check {
        /// Validate URI references instead of IRI references.
        uri: bool,
    },
    /// `--mode leiri-to-iri` (3987bis §6.3).
    LeiriToIri,
    /// `--mode normalize` (RFC 3987 §5.3).
    Normalize {
        /// The rungs of the comparison ladder.
        rungs: Rungs,
        /// `--as-uri`.
        as_uri: bool,
    },
}

/// Everything that decides the result of one value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// The mode.
    pub mode: Mode,
    /// Host mode, IDNA flags, strictness, LEIRI, invalid UTF-8 (the CLI passes these to every
    /// mode's converter, which uses those that mean something to it).
    pub to_uri: ToUriOptions,
    /// `--max-line-bytes`: a longer value is the error `line-too-long`.
    pub max_line_bytes: usize,
    /// `--base`: resolve each value against this IRI first (RFC 3986 §5.2, RFC 3987 §6.5).
    pub base: Option<Arc<[u8]>>,
}

impl Options {
    /// The engine options equivalent to these (for the flagged byte set of the mode).
    fn engine(&self) -> EngineOptions {
        EngineOptions {
            mode: match self.mode {
                Mode::ToUri => EngineMode::ToUri,
                Mode::ToIri => EngineMode::ToIri,
                Mode::Check { uri } => EngineMode::Check { uri_only: uri },
                Mode::LeiriToIri => EngineMode::LeiriToIri,
                Mode::Normalize { rungs, as_uri } => EngineMode::Normalize { rungs, as_uri },
            },
            to_uri: self.to_uri,
            max_line_bytes: self.max_line_bytes,
            ..EngineOptions::default()
        }
    }
}

/// The library's converter of one mode (as `engine::Op` builds it for the CLI).
#[derive(Debug)]
enum Op {
    ToUri(ToUri),
    ToIri(ToIri),
    Check(Checker),
    Leiri(LeiriToIri),
    Normalize(Box<Normalizer>),
}

/// Converts single values with the library, with the engine's pass-through for clean values.
/// One per thread: the converters own caches and scratch space.
#[derive(Debug)]
pub struct Converter {
    op: Op,
    opts: Options,
    /// `flagged[b]`: byte `b` sends a value to the converter in this mode.
    flagged: [bool; 256],
    /// The same set, for the SIMD scan of a whole range of values ([`Self::scan`]).
    classifier: Classifier,
    resolved: Vec<u8>,
}

impl Converter {
    /// A converter for these options.
    pub fn new(opts: Options) -> Converter {
        let t = opts.to_uri;
        let op = match opts.mode {
            Mode::ToUri => Op::ToUri(ToUri::new(t)),
            Mode::ToIri => Op::ToIri(ToIri::new(ToIriOptions { host: t.host })),
            Mode::Check { uri } => Op::Check(Checker::new(CheckOptions {
                to_uri: t,
                uri_only: uri,
            })),
            Mode::LeiriToIri => Op::Leiri(LeiriToIri),
            Mode::Normalize { rungs, as_uri } => {
                Op::Normalize(Box::new(Normalizer::new(NormalizeOptions {
                    rungs,
                    as_uri,
                    idna: match t.host {
                        HostMode::Idna2003(f) => Idna::Idna2003(f),
                        _ => Idna::Uts46,
                    },
                })))
            }
        };
        let set = Worker::flagged_set(&opts.engine());
        let mut flagged = [false; 256];
        for (b, f) in flagged.iter_mut().enumerate() {
            *f = set.contains(b as u8);
        }
        Converter {
            op,
            opts,
            flagged,
            classifier: Classifier::new(set),
            resolved: Vec::new(),
        }
    }

    /// The options this converter was built with.
    pub fn options(&self) -> &Options {
        &self.opts
    }

    /// True if `v` needs no work in this mode and is written as it is: no flagged byte and the
    /// mode's own test (the engine's fast path), or, in to-uri, an ASCII value that is already
    /// a valid URI reference. Never true when a base is set (every value is resolved).
    #[inline]
    pub fn passes(&self, v: &[u8]) -> bool {
        let clean = !v.iter().any(|&b| self.flagged[b as usize]);
        self.passes_with(v, clean)
    }

    /// [`Self::passes`] when the caller knows whether `v` has a flagged byte (`clean`: none),
    /// from [`Self::scan`].
    #[inline]
    pub fn passes_with(&self, v: &[u8], clean: bool) -> bool {
        if self.opts.base.is_some() || v.len() > self.opts.max_line_bytes {
            return false;
        }
        match &self.op {
            Op::ToUri(_) => {
                (clean && is_plain(v)) || (!clean && v.is_ascii() && is_valid_ascii_uri(v))
            }
            Op::ToIri(_) => clean && !has_ace_host(v),
            Op::Leiri(_) => clean,
            Op::Check(_) | Op::Normalize(_) => false,
        }
    }

    /// Classifies `buf` (the values of a range of rows, back to back) in 64-byte blocks with
    /// the library's SIMD classifier; [`any_flagged`] then says whether a row has a flagged
    /// byte.
    pub fn scan(&self, buf: &[u8], masks: &mut Vec<BlockMasks>) {
        masks.clear();
        self.classifier.scan_into(buf, masks);
    }

    /// The converter (the slow path, and the twin of the pass-through of [`Self::passes`]):
    /// the line cap, then resolution against the base, then the mode. Appends the result to
    /// `out` (nothing on error).
    pub fn convert_slow(&mut self, v: &[u8], out: &mut Vec<u8>) -> Result<Outcome, LineError> {
        if v.len() > self.opts.max_line_bytes {
            return Err(LineError::new(
                ErrorKind::LineTooLong,
                self.opts.max_line_bytes,
            ));
        }
        let Some(base) = self.opts.base.clone() else {
            return self.op_convert(v, out);
        };
        self.resolved.clear();
        iribulk::grammar::resolve::resolve_into(&base, v, &mut self.resolved)?;
        let resolved = std::mem::take(&mut self.resolved);
        let mark = out.len();
        let r = self.op_convert(&resolved, out);
        self.resolved = resolved;
        r.map(|mut o| {
            o.changed = out[mark..] != *v;
            o
        })
    }

    #[inline]
    fn op_convert(&mut self, v: &[u8], out: &mut Vec<u8>) -> Result<Outcome, LineError> {
        match &mut self.op {
            Op::ToUri(c) => c.convert_into(v, out),
            Op::ToIri(c) => c.convert_into(v, out),
            Op::Check(c) => c.convert_into(v, out),
            Op::Leiri(c) => c.convert_into(v, out),
            Op::Normalize(c) => c.convert_into(v, out),
        }
    }
}

/// True if a byte in `start..end` of the buffer given to [`Converter::scan`] is in the set
/// (LF and CR, which the classifier reports apart, are in every mode's set).
#[inline]
pub fn any_flagged(masks: &[BlockMasks], start: usize, end: usize) -> bool {
    if start >= end {
        return false;
    }
    let (first, last) = (start / 64, (end - 1) / 64);
    for (k, m) in masks[first..=last].iter().enumerate() {
        let b = first + k;
        let mut bits = m.flag | m.lf | m.cr;
        if b == first {
            bits &= u64::MAX << (start % 64);
        }
        if b == last {
            let hi = end - last * 64; // 1..=64
            if hi < 64 {
                bits &= (1u64 << hi) - 1;
            }
        }
        if bits != 0 {
            return true;
        }
    }
    false
}

/// Resolves `reference` against `base` (RFC 3986 §5.2 with RFC 3987 §6.5), appending the
/// target to `out`.
pub fn resolve_into(base: &[u8], reference: &[u8], out: &mut Vec<u8>) -> Result<(), LineError> {
    iribulk::grammar::resolve::resolve_into(base, reference, out)
}

/// The stable code of an error (the CLI's report codes).
pub fn code(e: &LineError) -> &'static str {
    e.kind.code()
}

/// The one-line message of an error (the CLI's report messages).
pub fn message(e: &LineError) -> String {
    e.kind.full_message().to_string()
}

/// The 1-based byte column of an error, as in the CLI's report.
pub fn column(e: &LineError) -> u64 {
    e.offset as u64 + 1
}
