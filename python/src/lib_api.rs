//! The one place where the Python package touches the iribulk library.
//!
//! Every library path the bindings use is named here, so that a rename in the library is fixed
//! in this file only. The bindings do no conversion of their own: [`Converter`] converts each
//! value with the engine's own per-line operation ([`Worker::convert_value`]: the mode, the
//! opt-in repairs, resolution against the base, and the host-integrity checks and `trim`
//! around them, as the CLI runs them), after the charset step the engine also runs first, and
//! adds the engine's pass-through test for values that need no work.

use std::io::Read;
use std::sync::Arc;

pub use iribulk::charset::{Charset, CharsetSource, LegacyInput, QueryCharset};
use iribulk::charset::{RecordDecoder, Utf16Reader};
pub use iribulk::Written;

pub use iribulk::config::{Idna2003Flags, Repairs};
pub use iribulk::convert::integrity;
pub use iribulk::convert::normalize::{Idn, Level, Rungs};
pub use iribulk::engine::{has_ace_host, Base, EngineOptions, Mode as EngineMode, Worker};
pub use iribulk::grammar::validate::{is_plain, is_valid_ascii_uri};
pub use iribulk::simd::{BlockMasks, Classifier};
pub use iribulk::{ErrorKind, HostMode, InvalidUtf8, LineError, Outcome, ToUriOptions};

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
    /// `--charset`: the charset of the values (issue 12; the modes whose input is an IRI).
    pub charset: Option<Charset>,
    /// `--query-charset` (to-uri): the 3987bis §3.5 query rule, on by default with a legacy
    /// charset.
    pub query_charset: QueryCharset,
}

/// What a value is: characters (a Python `str`, an Arrow string array: UTF-8 by definition) or
/// bytes (Python `bytes`, an Arrow binary array: in the charset of the options, UTF-8 without
/// one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input {
    /// Characters, already decoded: with a legacy charset only NFC and the query rule apply.
    Text,
    /// Bytes in the charset: decoded (RFC 3987 §3.1 step 1b/1c) before anything else.
    Bytes,
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
            // The engine's own decoder is not asked to decode (values are prepared here): it
            // applies the query rule to the base's query (`RecordDecoder::rewrite_base`).
            charset: self.legacy_input(),
            ..EngineOptions::default()
        }
    }

    /// The engine's legacy-charset settings for a fixed charset, when values need the
    /// per-record decoder: a charset that is not UCS-based (UTF-16 is transcoded apart, UTF-8
    /// is the values' own encoding).
    fn legacy_input(&self) -> Option<LegacyInput> {
        let cs = self.charset.filter(|cs| !cs.is_ucs_based())?;
        Some(LegacyInput {
            source: CharsetSource::Fixed(cs),
            query_charset: self.query_charset,
        })
    }

    /// The charset of bytes that are transcoded before conversion: UTF-16LE/BE (RFC 3987 §3.1
    /// step 1c: converted, not normalized), as the CLI transcodes such input.
    fn utf16(&self) -> Option<Charset> {
        self.charset
            .filter(|cs| cs.is_ucs_based() && *cs != Charset::UTF_8)
    }
}

/// How offsets in the converted form of a value map back to the value as given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Prepared {
    /// The value itself was converted.
    No,
    /// The decoded (NFC, query-rewritten) form of bytes in a legacy charset.
    Bytes,
    /// The NFC, query-rewritten form of text said to come from a legacy charset.
    Text,
    /// The UTF-8 transcoding of UTF-16 bytes (columns refer to it, as in the CLI's reports).
    Utf16,
}

/// Converts single values with the library, with the engine's pass-through for clean values.
/// One per thread: the converters own caches and scratch space.
#[derive(Debug)]
pub struct Converter {
    /// The engine's per-line operation for these options (no charset: done here first).
    worker: Worker,
    opts: Options,
    /// `flagged[b]`: byte `b` sends a value to the converter in this mode.
    flagged: [bool; 256],
    /// The same set, for the SIMD scan of a whole range of values ([`Self::scan`]).
    classifier: Classifier,
    /// The engine's per-record decoder for a legacy charset (issue 12).
    legacy: Option<RecordDecoder>,
    /// UTF-16LE/BE: bytes are transcoded to UTF-8 first.
    utf16: Option<Charset>,
    /// The decoded / transcoded value.
    prepared: Vec<u8>,
    /// What the last [`Self::convert_slow`] converted (for [`Self::kept`]).
    last: Prepared,
}

impl Converter {
    /// A converter for these options.
    pub fn new(opts: Options) -> Converter {
        let engine = opts.engine();
        let mut worker = Worker::new(engine);
        if let Some(b) = &opts.base {
            worker.set_base(Base::Fixed(b.clone()));
        }
        let set = Worker::flagged_set(&engine);
        let mut flagged = [false; 256];
        for (b, f) in flagged.iter_mut().enumerate() {
            *f = set.contains(b as u8);
        }
        let legacy = opts.legacy_input().map(|li| {
            let mut d =
                RecordDecoder::new(li, None, opts.to_uri.invalid_utf8, opts.mode == Mode::ToUri);
            // The query rule follows the scheme the base gives a relative value (3987bis §3.5).
            d.set_base(opts.base.as_deref(), None);
            d
        });
        Converter {
            worker,
            utf16: opts.utf16(),
            opts,
            flagged,
            classifier: Classifier::new(set),
            legacy,
            prepared: Vec::new(),
            last: Prepared::No,
        }
    }

    /// Makes the legacy-charset decoding use its slow twins (for the batch functions' naive
    /// mode): the mapped decoder for bytes, NFC without the quick check for text.
    pub fn set_naive(&mut self, naive: bool) {
        if let Some(l) = &mut self.legacy {
            l.set_naive(naive);
        }
    }

    /// The options this converter was built with.
    pub fn options(&self) -> &Options {
        &self.opts
    }

    /// True if `v` needs no work in this mode and is written as it is: no flagged byte and the
    /// mode's own test (the engine's fast path), or, in to-uri, an ASCII value that is already
    /// a valid URI reference; and nothing the host-integrity checks look at. Never true when a base is set (every value is resolved), nor
    /// for a value that its charset must decode, normalize or transcode first.
    #[inline]
    pub fn passes(&self, v: &[u8], input: Input) -> bool {
        let clean = !v.iter().any(|&b| self.flagged[b as usize]);
        self.passes_with(v, clean, input)
    }

    /// [`Self::passes`] when the caller knows whether `v` has a flagged byte (`clean`: none),
    /// from [`Self::scan`].
    #[inline]
    pub fn passes_with(&self, v: &[u8], clean: bool, input: Input) -> bool {
        if self.opts.base.is_some() || v.len() > self.opts.max_line_bytes {
            return false;
        }
        if let Some(cs) = self.opts.charset {
            let as_is = match input {
                // Text: only an all-ASCII value is its own NFC with no query to re-encode.
                Input::Text => cs.is_ucs_based() || v.is_ascii(),
                // Bytes: those the decoder would leave as they are (the engine's test).
                Input::Bytes => self.utf16.is_none() && !cs.needs_decode(v),
            };
            if !as_is {
                return false;
            }
        }
        let mode_ok = match self.opts.mode {
            Mode::ToUri => {
                (clean && is_plain(v)) || (!clean && v.is_ascii() && is_valid_ascii_uri(v))
            }
            Mode::ToIri => clean && !has_ace_host(v),
            Mode::LeiriToIri => clean,
            Mode::Check { .. } | Mode::Normalize { .. } => false,
        };
        // The engine's guard: a value the host-integrity checks (or `trim`) could act on
        // takes the slow path.
        mode_ok && integrity::quick_ok(v)
    }

    /// Classifies `buf` (the values of a range of rows, back to back) in 64-byte blocks with
    /// the library's SIMD classifier; [`any_flagged`] then says whether a row has a flagged
    /// byte.
    pub fn scan(&self, buf: &[u8], masks: &mut Vec<BlockMasks>) {
        masks.clear();
        self.classifier.scan_into(buf, masks);
    }

    /// The converter (the slow path, and the twin of the pass-through of [`Self::passes`]):
    /// the line cap, then the charset (decode + NFC + query rule, or transcode UTF-16), then
    /// resolution against the base, then the mode, in the order of the CLI's engine. Appends
    /// the result to `out` (nothing on error). Error and warning columns refer to `v` as
    /// given (bytes of its charset, or UTF-8 bytes of text), except after a UTF-16 transcoding,
    /// where they refer to the UTF-8 value, as in the CLI's reports.
    pub fn convert_slow(
        &mut self,
        v: &[u8],
        out: &mut Vec<u8>,
        input: Input,
    ) -> Result<Outcome, LineError> {
        let max = self.opts.max_line_bytes;
        self.last = Prepared::No;
        // The cap is on the line the CLI would read: the value's own bytes, except UTF-16
        // bytes, which the CLI transcodes as a stream before it cuts lines, so their cap is on
        // the UTF-8 transcoding, below (found by a QA sweep: 5 MiB of text as UTF-16 was
        // refused as 10 MiB, and kept as UTF-16).
        let utf16 = self.utf16.is_some() && input == Input::Bytes;
        if !utf16 && v.len() > max {
            return Err(LineError::new(ErrorKind::LineTooLong, max));
        }
        let mut prepared = std::mem::take(&mut self.prepared);
        let how = self.prepare(v, input, &mut prepared);
        let r = match how {
            Err(e) => Err(e),
            Ok(Prepared::No) => self.resolve_and_convert(v, out),
            // Only UTF-16's cap is on the transcoding: a legacy charset's decoding may be
            // longer than the bytes as read, which the CLI caps (README `--max-line-bytes`;
            // found by a QA sweep: 29 windows-1252 bytes under `max_line_bytes=30` were
            // refused, and nulled with `on_error="null"`).
            Ok(Prepared::Utf16) if prepared.len() > max => {
                Err(LineError::new(ErrorKind::LineTooLong, max))
            }
            Ok(_) => self.resolve_and_convert(&prepared, out).map(|mut o| {
                o.written = Written::Wrote;
                o
            }),
        };
        self.prepared = prepared;
        let how = how.unwrap_or(Prepared::No);
        self.last = how;
        let map =
            |s: &mut Self, e: LineError| LineError::new(e.kind, s.column_of(v, how, e.offset));
        match r {
            Ok(mut o) => {
                if let Some(w) = o.first_warning {
                    o.first_warning = Some(map(self, w));
                }
                if let (Prepared::Bytes, Some(l)) = (how, &self.legacy) {
                    o.repairs += l.last_repairs();
                }
                Ok(o)
            }
            Err(e) => Err(map(self, e)),
        }
    }

    /// The value that a row with an error keeps (`on_error="keep"`), after [`Self::convert_slow`]
    /// returned the error for `v`: `v` as given (bytes of a legacy charset stay as they were,
    /// as the CLI keeps a line), except UTF-16 bytes, kept as their UTF-8 transcoding (the CLI
    /// transcodes a UTF-16 file as a stream and writes every line in UTF-8).
    pub fn kept<'a>(&'a self, v: &'a [u8]) -> &'a [u8] {
        match self.last {
            Prepared::Utf16 => &self.prepared,
            _ => v,
        }
    }

    /// The charset step of [`Self::convert_slow`]: `prepared` gets the form to convert, unless
    /// the value is converted as it is ([`Prepared::No`]).
    fn prepare(
        &mut self,
        v: &[u8],
        input: Input,
        prepared: &mut Vec<u8>,
    ) -> Result<Prepared, LineError> {
        if let Some(l) = &mut self.legacy {
            return match input {
                Input::Bytes => Ok(if l.prepare(v, prepared)? {
                    Prepared::Bytes
                } else {
                    Prepared::No
                }),
                Input::Text => {
                    // Text input is UTF-8 (a Python str, an Arrow string array).
                    let t = std::str::from_utf8(v)
                        .map_err(|e| LineError::new(ErrorKind::InvalidUtf8, e.valid_up_to()))?;
                    Ok(if l.prepare_decoded(t, prepared)? {
                        Prepared::Text
                    } else {
                        Prepared::No
                    })
                }
            };
        }
        match (self.utf16, input) {
            (Some(cs), Input::Bytes) => {
                // RFC 3987 §3.1 step 1c: transcoded, not normalized; a malformed sequence is
                // one 0xFF byte (never UTF-8), reported invalid-utf8 as by the CLI.
                prepared.clear();
                Utf16Reader::new(v, cs)
                    .read_to_end(prepared)
                    .map_err(|_| LineError::new(ErrorKind::InvalidUtf8, 0))?;
                Ok(Prepared::Utf16)
            }
            _ => Ok(Prepared::No),
        }
    }

    /// The column in `v` of byte `offset` of the form [`Self::prepare`] gave it.
    fn column_of(&mut self, v: &[u8], how: Prepared, offset: usize) -> usize {
        match (how, &mut self.legacy) {
            (Prepared::Bytes, Some(l)) => l.column_of(v, offset),
            (Prepared::Text, Some(l)) => match std::str::from_utf8(v) {
                Ok(t) => l.column_of_decoded(t, offset),
                Err(_) => offset,
            },
            _ => offset,
        }
    }

    /// The engine's per-line operation ([`Worker::convert_value`]): resolution against the
    /// base (when set), the mode with its repairs, the host-integrity checks and `trim`;
    /// offsets are in `reference` (the engine maps a resolved target's back).
    #[inline]
    fn resolve_and_convert(
        &mut self,
        reference: &[u8],
        out: &mut Vec<u8>,
    ) -> Result<Outcome, LineError> {
        let o = self.worker.convert_value(reference, out)?;
        if o.written == Written::Passthrough {
            // The result is the reference itself (issue 9's contract): callers read it in `out`.
            out.extend_from_slice(reference);
        }
        Ok(o)
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

/// The stable code of an error (the CLI's report codes).
pub fn code(e: &LineError) -> &'static str {
    e.kind.code()
}

/// The one-line message of an error as the CLI's report writes it for the line `value`: the
/// kind's message and, for a host-integrity error, `; on this line: ` with the host each
/// reading gives (issue 16, [`iribulk::convert::readings`]; `host` is the options' host mode).
pub fn message(e: &LineError, value: &[u8], host: HostMode) -> String {
    let mut m = e.kind.full_message().to_string();
    if let Some(r) = iribulk::convert::readings::readings(e.kind, value, host) {
        m.push_str("; on this line: ");
        m.push_str(&r);
    }
    m
}

/// [`message`] for the value `v` converted with `opts` (its line as [`Converter::kept`]
/// gives it): without a charset, a value whose first bytes alternate with NUL adds the CLI's
/// UTF-16 hint, spelled as the keyword (found by a QA sweep: Python dropped it).
pub fn message_for(e: &LineError, v: &[u8], opts: &Options) -> String {
    let mut m = message(e, v, opts.to_uri.host);
    if opts.charset.is_none() && iribulk::engine::report::utf16_hint(v).is_some() {
        m.push_str(UTF16_HINT);
    }
    m
}

/// The CLI's UTF-16 hint ([`iribulk::engine::report::UTF16_HINT`]) with the keyword's spelling.
pub const UTF16_HINT: &str =
    " (NUL between the characters: UTF-16 without a BOM? try charset=\"utf-16le\" or \"utf-16be\")";

/// The 1-based byte column of an error, as in the CLI's report.
pub fn column(e: &LineError) -> u64 {
    e.offset as u64 + 1
}
