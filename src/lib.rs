//! # iribulk
//!
//! Converts Internationalized Resource Identifiers (IRIs, RFC 3987) to URIs (RFC 3986) in bulk,
//! at the speed of the disk, for web-crawl dumps of billions of lines.
//!
//! ## Data flow
//!
//! ```text
//! input ──► chunker ──► [rayon] chunk converter ──► ordered writer ──► output
//! (mmap |    (cut at      scan 64-byte blocks for       (chunks written     (file | stdout
//!  read |     line         flagged bytes; clean runs     in input order,     | .gz | .zst)
//!  gz/zst)    ends)        pass through untouched;       buffers reused)
//!                          flagged lines converted)
//! ```
//!
//! * [`simd`] classifies 64-byte blocks (AVX2/SSE2/scalar) into LF, CR and "flagged" masks.
//! * [`engine`] walks a chunk's lines with those masks: lines with no flagged byte (and a
//!   well-formed scheme and port) are passed through as ranges of the input; only the others go
//!   through the exact per-line converter [`ToUri`].
//! * [`pipeline`] reads, converts a window of chunks in parallel, and writes them in order with
//!   bounded memory, with the error report and the statistics.
//!
//! ## The per-line converter
//!
//! ```
//! use iribulk::{ToUri, ToUriOptions, HostMode};
//! let mut conv = ToUri::new(ToUriOptions::default().host(HostMode::Idna2003));
//! let mut out = Vec::new();
//! let outcome = conv.convert_into("http://résumé.example.org/ros%C3%A9#red".as_bytes(), &mut out)?;
//! assert_eq!(out, b"http://xn--rsum-bpad.example.org/ros%C3%A9#red");
//! assert!(outcome.changed);
//! # Ok::<(), iribulk::LineError>(())
//! ```
//!
//! Error codes are listed on [`ErrorKind`]; each is reported with the byte offset where the
//! problem starts.

#![warn(missing_docs)]

pub mod benchcmd;
pub mod classes;
pub mod cli;
pub mod components;
pub mod config;
pub mod convert;
pub mod engine;
pub mod error;
pub mod host;
pub mod input;
pub mod integrity;
pub mod output;
pub mod pct;
pub mod pipeline;
pub mod report;
pub mod resolve;
pub mod simd;

pub use config::{HostMode, InvalidUtf8, ToUriOptions};
pub use convert::to_uri::{iri_to_uri, iri_to_uri_with, Outcome, ToUri};
pub use error::{ErrorKind, IdnaReason, LineError};
