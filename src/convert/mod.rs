//! The converters, one file per direction or mode, and their common contract.
//!
//! Each converter ([`to_uri::ToUri`], [`to_iri::ToIri`], [`check::Checker`],
//! [`leiri::LeiriToIri`], [`normalize::Normalizer`]) implements [`Converter`]: it reads one line
//! (without its terminator) and appends its result to `out`, returning an [`Outcome`] or the
//! first [`LineError`]. On error, `out` is left as it was.
//!
//! [`integrity`] holds the host-integrity checks (issue 16) and [`integrity::Guard`], which runs
//! them around a converter (the engine and the crate-root helpers wrap every mode in one), so
//! that no mode moves a link to another host for a browser.

use crate::error::LineError;

/// The component of an IRI reference (RFC 3986 §3, RFC 3987 §2.2) that a run of text belongs
/// to: what may appear raw, what must be percent-encoded and what may be decoded depend on it
/// (`iprivate` only in the query, RFC 3987 §2.2; the host goes through IDNA or 3987bis
/// §3.4.2). One enum for to-uri, to-iri and normalize.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Component {
    /// `iuserinfo` (RFC 3987 §2.2, RFC 3986 §3.2.1).
    Userinfo,
    /// `ihost` (RFC 3986 §3.2.2): a reg-name here (IP literals are handled apart).
    Host,
    /// `ipath` (RFC 3986 §3.3).
    Path,
    /// `iquery` (RFC 3986 §3.4), the only component where `iprivate` is allowed.
    Query,
    /// `ifragment` (RFC 3986 §3.5).
    Fragment,
}

pub mod bidi;
pub mod check;
pub mod integrity;
pub mod leiri;
pub mod normalize;
pub mod readings;
pub mod repair;
pub mod to_iri;
pub mod to_uri;

/// What a successful conversion did to a line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    /// True if the output differs from the input.
    pub changed: bool,
    /// Number of repairs: disallowed printable ASCII (and, in LEIRI mode, controls; with
    /// [`crate::config::InvalidUtf8::Percent`], invalid bytes) that were percent-encoded.
    pub repairs: u32,
    /// Number of hosts that fell back to percent-encoding after IDNA failed.
    pub host_fallbacks: u32,
    /// Number of warnings (bidi formatting, private use outside the query, non-`ucschar`).
    pub warnings: u32,
    /// The first warning, with its byte offset.
    pub first_warning: Option<LineError>,
}

/// The contract every per-line converter keeps, so that the engine, the tests and the bindings
/// can drive any mode the same way.
pub trait Converter {
    /// Converts `line` (one line, no terminator), appending the result to `out`. On error,
    /// `out` is left as it was and the error carries the byte offset in `line`.
    fn convert_into(&mut self, line: &[u8], out: &mut Vec<u8>) -> Result<Outcome, LineError>;
}

macro_rules! impl_converter {
    ($($t:ty),*) => {$(
        impl Converter for $t {
            #[inline]
            fn convert_into(
                &mut self,
                line: &[u8],
                out: &mut Vec<u8>,
            ) -> Result<Outcome, LineError> {
                <$t>::convert_into(self, line, out)
            }
        }
    )*};
}

impl_converter!(
    to_uri::ToUri,
    to_iri::ToIri,
    check::Checker,
    leiri::LeiriToIri,
    normalize::Normalizer
);

#[cfg(test)]
mod tests {
    use super::*;

    /// Every converter is usable as a `dyn Converter`, and through the trait gives what its own
    /// method gives (bytes and outcome), errors leaving `out` as it was.
    #[test]
    fn every_converter_keeps_the_contract() {
        let mut convs: Vec<Box<dyn Converter>> = vec![
            Box::new(to_uri::ToUri::new(Default::default())),
            Box::new(to_iri::ToIri::new(Default::default())),
            Box::new(check::Checker::new(Default::default())),
            Box::new(leiri::LeiriToIri),
            Box::new(normalize::Normalizer::new(Default::default())),
        ];
        let good = "http://résumé.example.org/a%20b".as_bytes();
        let bad = b"http://a/%zz";
        for (i, c) in convs.iter_mut().enumerate() {
            let mut out = b"keep".to_vec();
            let r = c.convert_into(good, &mut out);
            assert!(r.is_ok(), "converter {i}: {r:?}");
            assert!(out.starts_with(b"keep") && out.len() > 4, "converter {i}");
            let mut out = b"keep".to_vec();
            let e = c.convert_into(bad, &mut out);
            if let Err(e) = e {
                assert_eq!(out, b"keep", "converter {i}: error leaves out as it was");
                assert!(e.offset <= bad.len());
            }
        }
        let mut out = Vec::new();
        let e = convs[0].convert_into(bad, &mut out).unwrap_err();
        assert_eq!((e.code(), e.offset, out.len()), ("bad-percent", 9, 0));
        let mut direct = Vec::new();
        let o1 = to_uri::ToUri::new(Default::default())
            .convert_into(good, &mut direct)
            .unwrap();
        let mut through = Vec::new();
        let o2 = convs[0].convert_into(good, &mut through).unwrap();
        assert_eq!((direct, o1), (through, o2));
    }
}
