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
//! * [`engine::input`] opens the input: a mapped file, or a stream (stdin, pipes, and with the
//!   `compression` feature `.gz`/`.zst`), cut into chunks of whole lines.
//! * [`simd`] classifies 64-byte blocks (AVX2/SSE2/scalar) into LF, CR and "flagged" masks.
//! * [`engine::Worker`] walks a chunk's lines with those masks: lines with no flagged byte (and a
//!   well-formed scheme and port, [`grammar::validate`]) are passed through as ranges of the
//!   input; only the others go through the exact per-line converter of the mode ([`convert`]).
//! * [`engine::pipeline`] reads chunks, converts them in parallel (each on the next free thread), and writes them in
//!   order with bounded memory ([`engine::output`]), with the error report and the statistics
//!   ([`engine::report`]); progress goes to an optional [`engine::pipeline::Progress`] callback.
//!
//! ## Layout
//!
//! Dependencies point down only (no module imports one above it):
//!
//! ```text
//! src/bin/iribulk (clap, indicatif, mimalloc; the `cli` feature)
//!   └► engine (input, pipeline, output, report; worker)
//!       └► convert (to_uri, to_iri, check, leiri, normalize; bidi, integrity), charset (legacy input)
//!           └► host (the only path to IDNA), grammar (classes, components, joiner, pct, resolve, validate)
//!               └► simd, config, error
//! ```
//!
//! Features: `cli` (default) builds the command and enables `compression` (gzip and zstd
//! through flate2/zstd) and `signals` (signal-hook cleanup of temporary outputs);
//! `iribulk = { default-features = false }` is the library alone. `twins` exposes the slow
//! reference twins of the fast paths to the tests; it is not API.
//!
//! ## The string API
//!
//! One function per mode, each with a `_with` variant taking that mode's options. They return
//! the input borrowed when nothing changed, or the first [`LineError`]: its stable
//! [`code`](LineError::code), the byte [`offset`](LineError::offset) in the input (0-based) and
//! a static [`message`](LineError::message).
//!
//! ```
//! use iribulk::{HostMode, ToUriOptions};
//! // IRI → URI (RFC 3987 §3.1); IDNA for the host of a DNS scheme.
//! assert_eq!(iribulk::iri_to_uri("http://résumé.example.org/rosé")?,
//!            "http://xn--rsum-bpad.example.org/ros%C3%A9");
//! let pct = ToUriOptions::default().host(HostMode::Percent);
//! assert_eq!(iribulk::iri_to_uri_with("http://é.fr/", pct)?, "http://%C3%A9.fr/");
//! // URI → IRI (§3.2), LEIRI → IRI (3987bis §6).
//! assert_eq!(iribulk::to_iri("http://xn--rsum-bpad.example.org/ros%C3%A9")?,
//!            "http://résumé.example.org/rosé");
//! assert_eq!(iribulk::leiri_to_iri("http://a/b c")?, "http://a/b%20c");
//! // Validation (§2.2, §4): valid, with a count of warnings; or the first error.
//! assert_eq!(iribulk::check("http://bücher.de/ü")?.warnings, 0);
//! let e = iribulk::check("http://a/%zz").unwrap_err();
//! assert_eq!((e.code(), e.offset), ("bad-percent", 9));
//! // Normalization (§5.3.2) and reference resolution (RFC 3986 §5.2).
//! assert_eq!(iribulk::normalize("HTTP://Example.ORG/a/./b/../c")?, "http://example.org/a/c");
//! assert_eq!(iribulk::resolve("http://a/b/c/d;p?q", "../g")?, "http://a/b/g");
//! # Ok::<(), iribulk::LineError>(())
//! ```
//!
//! ## The per-line converters
//!
//! For many lines, keep one converter per thread (it caches hosts) and reuse the output buffer.
//! Every converter implements [`Converter`]: it appends its result to the buffer
//! ([`Written::Wrote`]), or, when the line is its own result, writes nothing and says
//! [`Written::Passthrough`]: the caller uses its input ([`convert`]'s contract).
//!
//! ```
//! use iribulk::{Converter, HostMode, ToUri, ToUriOptions, Written};
//! let mut conv = ToUri::new(ToUriOptions::default().host(HostMode::IDNA2003));
//! let mut out = Vec::new();
//! let outcome = conv.convert_into("http://résumé.example.org/ros%C3%A9#red".as_bytes(), &mut out)?;
//! assert_eq!(out, b"http://xn--rsum-bpad.example.org/ros%C3%A9#red");
//! assert_eq!(outcome.written, Written::Wrote);
//! let outcome = conv.convert_into(b"http://example.org/ros%C3%A9", &mut out)?;
//! assert_eq!(outcome.written, Written::Passthrough); // `out` is as it was
//! assert_eq!(out, b"http://xn--rsum-bpad.example.org/ros%C3%A9#red");
//! # Ok::<(), iribulk::LineError>(())
//! ```
//!
//! A bare converter runs none of the host-integrity checks (issue 16: what browsers strip, a
//! `\` in a special authority, a special scheme without a host, the host IDNA wrote...) and
//! none of [`ToUriOptions::trim`]'s and `strict`'s host rules: they live in the
//! [`Guard`](convert::integrity::Guard) that the helpers and the CLI put around every
//! converter. Keep one around yours for lines from the web:
//!
//! ```
//! use iribulk::convert::integrity::{Guard, GuardOptions};
//! use iribulk::{Converter, HostMode, Normalizer, NormalizeOptions, ToUri, ToUriOptions};
//! let mut bare = Normalizer::new(NormalizeOptions::default());
//! let mut out = Vec::new();
//! bare.convert_or_copy_into(b"http:/good.com/../evil.com/", &mut out)?;
//! assert_eq!(out, b"http:/evil.com/"); // another host for a browser
//! let guard = GuardOptions { maps_hosts: Some(HostMode::Auto), ..Default::default() };
//! let mut conv = Guard::new(ToUri::new(ToUriOptions::default()), guard);
//! let e = conv.convert_into(b"http:/good.com/../evil.com/", &mut out).unwrap_err();
//! assert_eq!(e.code(), "missing-host");
//! # Ok::<(), iribulk::LineError>(())
//! ```
//!
//! Error codes are listed on [`ErrorKind`]; each is reported with the byte offset where the
//! problem starts.

#![warn(missing_docs)]
// The doc comments are written for maintainers too: they name the private helpers, twins and
// kernels an item relies on (`cargo doc --document-private-items` resolves them).
#![allow(rustdoc::private_intra_doc_links)]

pub mod charset;
pub mod config;
pub mod convert;
pub mod engine;
pub mod error;
pub mod grammar;
pub mod host;
pub mod simd;

mod api;

pub use api::{
    base_problem, base_problem_with, check, check_with, iri_to_uri, iri_to_uri_with, leiri_to_iri,
    normalize, normalize_with, resolve, to_iri, to_iri_with, Checked,
};
pub use config::{HostMode, Idna2003Flags, InvalidUtf8, ToUriOptions};
pub use convert::check::{CheckOptions, Checker};
pub use convert::leiri::LeiriToIri;
pub use convert::normalize::{Idn, Level, NormalizeOptions, Normalizer, Rungs};
pub use convert::to_iri::{ToIri, ToIriOptions};
pub use convert::to_uri::ToUri;
pub use convert::{Converter, Outcome, Written};
pub use error::{ErrorKind, IdnaReason, LineError};
