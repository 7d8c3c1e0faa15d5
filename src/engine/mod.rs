//! The engine: the chunk converter (the fast path of iribulk, and its slow twin) and the
//! plumbing around it.
//!
//! This file holds the options and the mode dispatch; [`worker`] walks a chunk, [`chunk`]
//! holds its output pieces and counts, [`lines`] the flagged byte sets and line helpers.
//!
//! A chunk is a run of whole lines. [`Worker::convert_chunk`] classifies it in 64-byte blocks
//! ([`crate::simd`]), walks the LF bits, and decides per line:
//!
//! * no flagged byte and [`is_plain`](crate::grammar::validate::is_plain) (scheme and port well-formed): the line is passed through;
//!   consecutive such lines form one [`Piece::Input`] range of the input, written without copy;
//! * otherwise the exact converter ([`ToUri`](crate::ToUri)) runs on it; an unchanged result extends the
//!   input run as well, a changed one becomes a [`Piece::Output`]. A non-ASCII line that
//!   follows a passed one waits, with the lines after it that need work, until the walk has
//!   read its 64 KiB stretch of masks (the walk's and the converters' branches stay
//!   predicted where such lines are few; the pieces keep the input's order).
//!
//! `Worker::convert_chunk_naive` (with the `twins` feature) splits lines with `memchr` and runs
//! the converter on every line: the obviously-correct twin that tests compare against, byte for
//! byte.
//!
//! Around the worker, the rest of the engine: [`input`] (mapped files, streams, `.gz`/`.zst`
//! with the `compression` feature, chunking), [`pipeline`] (read chunks, convert each on the
//! next free thread, write them in input order, with a [`pipeline::Progress`] callback),
//! [`output`] (atomic output files) and [`report`] (error rows and the summary).

pub mod chunk;
pub mod input;
pub mod lines;
pub mod output;
pub mod pipeline;
pub mod report;
pub mod sigbus;
pub mod worker;

pub use chunk::{write_all_vectored, ChunkOut, LineIssue, Piece, Stats};
pub use lines::{field_range, has_ace_host, LEIRI_FLAGGED, TO_IRI_FLAGGED, TO_URI_FLAGGED};
pub use pipeline::MAX_THREADS;
pub use worker::Worker;

use crate::config::ToUriOptions;
use crate::convert::normalize::Rungs;

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
    /// Legacy-charset input (`--charset`, `--charset-field`, `--query-charset`; issue 12):
    /// records that need decoding go through [`crate::charset::RecordDecoder`] on the slow
    /// path. Default `None`: UTF-8.
    pub charset: Option<crate::charset::LegacyInput>,
}

/// The base IRI each reference (the line, or `field`) is resolved against before the mode
/// applies (RFC 3986 §5.2, RFC 3987 §6.5): held in this one place, by
/// [`pipeline::RunOptions::base`] and [`Worker::set_base`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Base {
    /// No resolution (the default).
    #[default]
    None,
    /// One absolute IRI for every line (`--base`).
    Fixed(std::sync::Arc<[u8]>),
    /// The base is this field (0-based) of the same record (`--base-field`), split at the
    /// `field` delimiter (a tab without `--field`).
    Field(usize),
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
            charset: None,
        }
    }
}
