//! The converters, one file per direction or mode, and their common contract.
//!
//! Each converter ([`to_uri::ToUri`], [`to_iri::ToIri`], [`check::Checker`],
//! [`leiri::LeiriToIri`], [`normalize::Normalizer`]) implements [`Converter`]: it reads one line
//! (without its terminator) and returns an [`Outcome`] or the first [`LineError`].
//!
//! ## The contract: passthrough or wrote
//!
//! Most lines of a crawl dump leave a converter as they came. Like `idna::uts46` in rust-url
//! (its `ProcessingSuccess::Passthrough`, where nothing is written to the sink and the caller
//! uses its input, against `WroteToSink`), a converter says which of two things it did, in
//! [`Outcome::written`]:
//!
//! - [`Written::Passthrough`]: the result is the line itself, byte for byte; `out` is left
//!   exactly as it was. The caller uses its input (the engine copies the line with its
//!   neighbours in one run; the string helpers return it borrowed).
//! - [`Written::Wrote`]: the result, which differs from the line, was appended to `out`.
//!
//! On error, too, `out` is left as it was. A converter that cannot know before writing that a
//! line stays as it is writes it, then takes it back ([`Outcome::settle`] compares the bytes);
//! [`Converter::convert_or_copy_into`] is for callers that need the result in `out` in every
//! case. The counters of an [`Outcome`] (repairs, warnings...) do not depend on either: a line
//! passed through may carry warnings.
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

/// Whether a converter appended its result to `out` ([`Outcome::written`]); the model is
/// `idna::uts46`'s `ProcessingSuccess` (rust-url). See the [module documentation](self).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Written {
    /// The result is the input, byte for byte: nothing was appended, `out` is exactly as it
    /// was, and the caller uses the input.
    #[default]
    Passthrough,
    /// The result, which differs from the input, was appended to `out`.
    Wrote,
}

/// What a successful conversion did to a line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    /// Passed through (nothing written, the result is the input) or wrote (the result, which
    /// differs from the input, was appended to `out`).
    pub written: Written,
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

impl Outcome {
    /// The outcome of a line converted with nothing to count: [`Written::Wrote`] if `wrote`,
    /// else [`Written::Passthrough`]. What the slow path must report where a one-call
    /// shortcut answered (the shortcuts' comparisons with it).
    #[cfg(any(test, feature = "twins"))]
    #[doc(hidden)]
    pub fn quiet(wrote: bool) -> Outcome {
        Outcome {
            written: if wrote {
                Written::Wrote
            } else {
                Written::Passthrough
            },
            ..Outcome::default()
        }
    }

    /// True if the result differs from the input ([`Written::Wrote`]).
    #[inline]
    pub fn changed(&self) -> bool {
        self.written == Written::Wrote
    }

    /// The result of the conversion: `out[mark..]` when the converter wrote, else `line`
    /// (`mark` is the length of `out` before the call).
    #[inline]
    pub fn result<'a>(&self, line: &'a [u8], out: &'a [u8], mark: usize) -> &'a [u8] {
        match self.written {
            Written::Passthrough => line,
            Written::Wrote => &out[mark..],
        }
    }

    /// For a converter that wrote its whole result from `mark` on before knowing whether it
    /// changed anything: [`Written::Wrote`] if `out[mark..]` differs from `line`, else
    /// [`Written::Passthrough`] with `out` truncated back to `mark`.
    #[inline]
    pub fn settle(&mut self, line: &[u8], out: &mut Vec<u8>, mark: usize) {
        if out[mark..] == *line {
            out.truncate(mark);
            self.written = Written::Passthrough;
        } else {
            self.written = Written::Wrote;
        }
    }

    /// For a converter that wrote its whole result from `mark` on and knows whether it
    /// changed anything (`self.written`): on [`Written::Passthrough`], `out` is truncated
    /// back to `mark`.
    #[inline]
    pub(crate) fn take_back_unless_wrote(&self, out: &mut Vec<u8>, mark: usize) {
        if self.written == Written::Passthrough {
            out.truncate(mark);
        }
    }
}

/// The contract every per-line converter keeps, so that the engine, the tests and the bindings
/// can drive any mode the same way.
pub trait Converter {
    /// Converts `line` (one line, no terminator). On [`Written::Wrote`] the result was
    /// appended to `out`; on [`Written::Passthrough`] the result is `line` itself and `out` is
    /// as it was. On error, `out` is left as it was and the error carries the byte offset in
    /// `line`.
    fn convert_into(&mut self, line: &[u8], out: &mut Vec<u8>) -> Result<Outcome, LineError>;

    /// [`Self::convert_into`], then on [`Written::Passthrough`] a copy of `line` appended to
    /// `out`: the result is in `out` in every case (the outcome still says passthrough). For
    /// callers that chain converters through buffers.
    #[inline]
    fn convert_or_copy_into(
        &mut self,
        line: &[u8],
        out: &mut Vec<u8>,
    ) -> Result<Outcome, LineError> {
        let o = self.convert_into(line, out)?;
        if o.written == Written::Passthrough {
            out.extend_from_slice(line);
        }
        Ok(o)
    }

    /// [`Self::convert_into`] for a caller that has found the head of `line` already
    /// ([`integrity::LineHead::of`], as the [`integrity::Guard`] does for every line): a
    /// converter that splits the same head may take it instead of scanning the line again
    /// (issue 11). The same results as [`Self::convert_into`], its twin; by default the head
    /// is not used.
    #[inline]
    fn convert_with_head(
        &mut self,
        line: &[u8],
        head: &integrity::LineHead,
        out: &mut Vec<u8>,
    ) -> Result<Outcome, LineError> {
        let _ = head;
        self.convert_into(line, out)
    }
}

/// [`Converter`] from the converters' own methods: `convert_into`, and for those listed after
/// `head:` (they take the caller's [`integrity::LineHead`]) their own `convert_with_head`, which
/// the Guard calls through the trait; `convert_into` is its twin.
macro_rules! impl_converter {
    (@into $t:ty) => {
        #[inline]
        fn convert_into(&mut self, line: &[u8], out: &mut Vec<u8>) -> Result<Outcome, LineError> {
            <$t>::convert_into(self, line, out)
        }
    };
    (head: $($t:ty),*) => {$(
        impl Converter for $t {
            impl_converter!(@into $t);

            #[inline]
            fn convert_with_head(
                &mut self,
                line: &[u8],
                head: &integrity::LineHead,
                out: &mut Vec<u8>,
            ) -> Result<Outcome, LineError> {
                <$t>::convert_with_head(self, line, head, out)
            }
        }
    )*};
    ($($t:ty),*) => {$(
        impl Converter for $t {
            impl_converter!(@into $t);
        }
    )*};
}

impl_converter!(leiri::LeiriToIri);
impl_converter!(head: to_uri::ToUri, to_iri::ToIri, check::Checker, normalize::Normalizer);

#[cfg(test)]
mod tests {
    use super::*;
    use integrity::{Guard, GuardOptions};

    /// Every converter, alone and inside its [`Guard`], keeps the contract through
    /// `dyn Converter`: a line it leaves as it is passes through with `out` untouched; a line
    /// it changes is appended after what `out` held, and differs from the input; an error
    /// leaves `out` as it was. Through the trait it gives what its own method gives.
    #[test]
    fn every_converter_keeps_the_contract() {
        fn convs() -> Vec<(&'static str, Box<dyn Converter>)> {
            let g = GuardOptions::default;
            vec![
                ("to-uri", Box::new(to_uri::ToUri::new(Default::default()))),
                ("to-iri", Box::new(to_iri::ToIri::new(Default::default()))),
                ("check", Box::new(check::Checker::new(Default::default()))),
                ("leiri", Box::new(leiri::LeiriToIri)),
                (
                    "normalize",
                    Box::new(normalize::Normalizer::new(Default::default())),
                ),
                (
                    "guarded to-uri",
                    Box::new(Guard::new(to_uri::ToUri::new(Default::default()), g())),
                ),
                (
                    "guarded to-iri",
                    Box::new(Guard::new(to_iri::ToIri::new(Default::default()), g())),
                ),
                (
                    "guarded check",
                    Box::new(Guard::new(check::Checker::new(Default::default()), g())),
                ),
                (
                    "guarded leiri",
                    Box::new(Guard::new(leiri::LeiriToIri, g())),
                ),
                (
                    "guarded normalize",
                    Box::new(Guard::new(
                        normalize::Normalizer::new(Default::default()),
                        g(),
                    )),
                ),
            ]
        }
        // Per converter (by name, without "guarded "): a line it leaves as it is, and one it
        // changes (check changes nothing: both of its lines pass through).
        let lines = |name: &str| -> (&'static str, Option<&'static str>) {
            match name.trim_start_matches("guarded ") {
                "to-uri" => (
                    "http://example.org/a%20b?q#f",
                    Some("http://résumé.example.org/ü"),
                ),
                "to-iri" => ("http://résumé.example.org/ü", Some("http://a/%C3%BC")),
                "check" => ("http://résumé.example.org/a%20b", None),
                "leiri" => ("http://a/é?q=ü", Some("http://a/b c")),
                "normalize" => ("http://example.org/a/b", Some("HTTP://Example.org/a/./b")),
                other => unreachable!("{other}"),
            }
        };
        let bad = b"http://a/%zz";
        for (name, mut c) in convs() {
            let (same, changes) = lines(name);
            let mut out = b"keep".to_vec();
            let o = c.convert_into(same.as_bytes(), &mut out);
            assert_eq!(
                o.map(|o| o.written),
                Ok(Written::Passthrough),
                "{name}: {same}"
            );
            assert_eq!(out, b"keep", "{name}: passthrough leaves out untouched");
            let mut copied = b"keep".to_vec();
            c.convert_or_copy_into(same.as_bytes(), &mut copied)
                .unwrap();
            assert_eq!(copied, [&b"keep"[..], same.as_bytes()].concat(), "{name}");
            if let Some(line) = changes {
                let o = c.convert_into(line.as_bytes(), &mut out).unwrap();
                assert_eq!(o.written, Written::Wrote, "{name}: {line}");
                assert!(out.starts_with(b"keep") && out.len() > 4, "{name}");
                assert_ne!(
                    &out[4..],
                    line.as_bytes(),
                    "{name}: wrote bytes that differ"
                );
                assert_eq!(o.result(line.as_bytes(), &out, 4), &out[4..]);
            }
            let mut out = b"keep".to_vec();
            if let Err(e) = c.convert_into(bad, &mut out) {
                assert_eq!(out, b"keep", "{name}: error leaves out as it was");
                assert_eq!((e.code(), e.offset), ("bad-percent", 9), "{name}");
            }
        }
        let mut out = b"keep".to_vec();
        let e = convs()[0].1.convert_into(bad, &mut out).unwrap_err();
        assert_eq!(
            (e.code(), e.offset, &out[..]),
            ("bad-percent", 9, &b"keep"[..])
        );
        for line in ["http://résumé.example.org/a%20b", "http://a/b"] {
            let mut direct = Vec::new();
            let o1 = to_uri::ToUri::new(Default::default())
                .convert_into(line.as_bytes(), &mut direct)
                .unwrap();
            let mut through = Vec::new();
            let o2 = convs()[0]
                .1
                .convert_into(line.as_bytes(), &mut through)
                .unwrap();
            assert_eq!((direct, o1), (through, o2));
        }
    }

    /// [`Outcome::settle`] takes back an unchanged result and keeps a changed one.
    #[test]
    fn settle_takes_back_an_unchanged_result() {
        let mut o = Outcome::default();
        let mut out = b"keepabc".to_vec();
        o.settle(b"abc", &mut out, 4);
        assert_eq!((&out[..], o.written), (&b"keep"[..], Written::Passthrough));
        let mut out = b"keepabd".to_vec();
        o.settle(b"abc", &mut out, 4);
        assert_eq!((&out[..], o.written), (&b"keepabd"[..], Written::Wrote));
        assert!(o.changed());
    }
}
