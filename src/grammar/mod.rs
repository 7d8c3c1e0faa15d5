//! The grammar of URI and IRI references, shared by every mode: character classes
//! ([`classes`], RFC 3986 §2, RFC 3987 §2.2), the split into components ([`components`],
//! RFC 3986 §3, Appendix B), percent-encoding ([`pct`], RFC 3986 §2.1), reference resolution
//! ([`resolve`], RFC 3986 §5.2), the ASCII-URI predicates of the engine's fast paths
//! ([`validate`]) and the ZWJ/ZWNJ contexts of RFC 5892 A.1/A.2 ([`joiner`], used by `check`
//! and by the UTS #46 failure reasons of [`crate::host`]), and [`charmemo`], the per-process
//! memo of per-character properties that the slow paths ask about every character.
//!
//! It depends only on [`crate::error`] and on the SIMD kernels of [`crate::simd`].

pub mod charmemo;
pub mod classes;
pub mod components;
pub mod joiner;
pub mod pct;
pub mod resolve;
pub mod validate;
