//! The `&str` helpers at the crate root: one call per mode, for callers (and the Python
//! binding) that convert a string at a time rather than a file.
//!
//! Each builds a fresh converter, so a host's IDNA result is not cached from one call to the
//! next: to convert many lines, keep a converter ([`crate::ToUri`], [`crate::ToIri`],
//! [`crate::Checker`], [`crate::Normalizer`]) and call its `convert_into`, or use the engine.
//!
//! Every helper returns the input borrowed when the result is byte-identical to it, and the
//! first [`LineError`] otherwise: its [`LineError::code`], its byte offset in the input
//! ([`LineError::offset`], 0-based) and its [`LineError::message`].
//!
//! Every helper runs its converter inside the host-integrity [`Guard`] the engine uses (issue
//! 16, README "Host integrity"): a string written without an error keeps, for a browser, the
//! scheme, host, port and userinfo of its input (`http:/good.com/../evil.com/` is
//! `missing-host`, not `http:/evil.com/`). The helpers return no warnings, so the one warning
//! that announces another host for browsers, `idna2003-differs` (`--host idna2003`), is their
//! error; use a converter inside a [`Guard`] to get it as a warning in the [`Outcome`].
//!
//! [`Outcome`]: crate::convert::Outcome

use crate::config::HostMode;
use crate::config::ToUriOptions;
use crate::convert::check::{CheckOptions, Checker};
use crate::convert::integrity::{Guard, GuardOptions, Verbatim};
use crate::convert::leiri::LeiriToIri;
use crate::convert::normalize::{NormalizeOptions, Normalizer};
use crate::convert::to_iri::{ToIri, ToIriOptions};
use crate::convert::to_uri::ToUri;
use crate::convert::{Converter, Outcome, Written};
use crate::error::{ErrorKind, LineError};
use crate::host::Idna;
use std::borrow::Cow;

/// What [`check`] found in a valid line: its warnings (the line stays valid).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Checked {
    /// Number of warnings (compatibility characters, a combining mark at the start of a
    /// component, a joiner outside its context, bidi formatting, private use...).
    pub warnings: u32,
    /// The first warning, with its byte offset in the line.
    pub first_warning: Option<LineError>,
}

/// The guard's options for a helper: what the converter does to hosts (`maps_hosts`), and a
/// caller that sees no warnings.
fn guard(maps_hosts: Option<HostMode>, trim: bool, strict: bool) -> GuardOptions {
    GuardOptions {
        trim,
        strict,
        maps_hosts,
        warnings_unseen: true,
    }
}

/// Runs `conv` on `s` inside its host-integrity [`Guard`] and returns the input borrowed when
/// it passes through.
fn run<C: Converter>(conv: C, opts: GuardOptions, s: &str) -> Result<Cow<'_, str>, LineError> {
    let mut out = Vec::new();
    let o = Guard::new(conv, opts).convert_into(s.as_bytes(), &mut out)?;
    owned_or_borrowed(s, o, out)
}

/// `s` borrowed when the converter passed it through ([`Written::Passthrough`]: nothing was
/// written), else what it wrote to `out`, as a string.
fn owned_or_borrowed(s: &str, o: Outcome, out: Vec<u8>) -> Result<Cow<'_, str>, LineError> {
    if o.written == Written::Passthrough {
        return Ok(Cow::Borrowed(s));
    }
    // Every converter cuts and decodes only at UTF-8 boundaries of a UTF-8 input, so this
    // holds; it is checked anyway (no unsafe), and reported rather than unwrapped.
    String::from_utf8(out)
        .map(Cow::Owned)
        .map_err(|e| LineError::new(ErrorKind::InvalidUtf8, e.utf8_error().valid_up_to()))
}

/// Converts a URI reference to an IRI reference (RFC 3987 §3.2) with the default options:
/// `%HH` sequences that decode to displayable UTF-8 are decoded, `xn--` labels of DNS hosts
/// decoded to Unicode (§3.2.1).
///
/// ```
/// assert_eq!(
///     iribulk::to_iri("http://xn--rsum-bpad.example.org/ros%C3%A9").unwrap(),
///     "http://résumé.example.org/rosé"
/// );
/// ```
pub fn to_iri(s: &str) -> Result<Cow<'_, str>, LineError> {
    to_iri_with(s, ToIriOptions::default())
}

/// [`to_iri`] with the given options.
pub fn to_iri_with(s: &str, opts: ToIriOptions) -> Result<Cow<'_, str>, LineError> {
    run(ToIri::new(opts), guard(None, false, false), s)
}

/// Converts a LEIRI (3987bis §6, the XML/XLink "legacy extended IRI") to an IRI: the
/// characters only LEIRIs allow (controls, spaces, `<>"{}|\^`` ` ``...) are percent-encoded.
///
/// ```
/// assert_eq!(iribulk::leiri_to_iri("http://a/b c").unwrap(), "http://a/b%20c");
/// ```
pub fn leiri_to_iri(s: &str) -> Result<Cow<'_, str>, LineError> {
    run(LeiriToIri, guard(None, false, false), s)
}

/// Validates an IRI reference (RFC 3987 §2.2, §4.1, §4.2) with the default options.
///
/// `Ok` means valid, with the count of warnings and the first of them; `Err` is the first
/// error. See [`crate::convert::check`] for what is checked.
///
/// ```
/// let ok = iribulk::check("http://bücher.de/ü").unwrap();
/// assert_eq!(ok.warnings, 0);
/// let e = iribulk::check("http://a/\u{202E}").unwrap_err();
/// assert_eq!((e.code(), e.offset), ("bidi-format", 9));
/// ```
pub fn check(s: &str) -> Result<Checked, LineError> {
    check_with(s, CheckOptions::default())
}

/// [`check`] with the given options (`uri_only` validates `URI-reference`, RFC 3986 §4.1).
pub fn check_with(s: &str, opts: CheckOptions) -> Result<Checked, LineError> {
    let mut out = Vec::new(); // a valid line passes through: nothing is written
    let g = guard(None, opts.to_uri.trim, opts.to_uri.strict);
    let o = Guard::new(Checker::new(opts), g).convert_into(s.as_bytes(), &mut out)?;
    Ok(Checked {
        warnings: o.warnings,
        first_warning: o.first_warning,
    })
}

/// Normalizes an IRI reference (RFC 3987 §5.3) with the default options (syntax-based
/// normalization, §5.3.2: case, percent-encoding, dot segments).
///
/// ```
/// assert_eq!(
///     iribulk::normalize("HTTP://Example.ORG/a/./b/../c/%7e").unwrap(),
///     "http://example.org/a/c/~"
/// );
/// ```
pub fn normalize(s: &str) -> Result<Cow<'_, str>, LineError> {
    normalize_with(s, NormalizeOptions::default())
}

/// [`normalize`] with the given options (the rungs of the ladder, URI or IRI output).
pub fn normalize_with(s: &str, opts: NormalizeOptions) -> Result<Cow<'_, str>, LineError> {
    let host = match opts.idna {
        Idna::Idna2003(flags) => HostMode::Idna2003(flags),
        Idna::Uts46 => HostMode::Uts46,
    };
    run(Normalizer::new(opts), guard(Some(host), false, false), s)
}

/// Why `base` cannot be the base of a run (`--base`, Python's `base=`), as the end of a
/// sentence that names it; `None` when it can: an absolute IRI (RFC 3986 §5.1: with a
/// scheme) that to-uri converts without an error (RFC 3987 §3.1: what it repairs by default,
/// a space, is repaired as in a reference), its host in the default host mode (UTS #46 for
/// the special schemes, [`HostMode::Auto`]). A base with an error gave each reference that
/// error at column 1, or lost its bad segment to a `..` (found by a QA sweep). A run in
/// another host mode asks [`base_problem_with`].
///
/// ```
/// assert_eq!(iribulk::base_problem("http://a/b/c/d;p?q"), None);
/// assert!(iribulk::base_problem("a/b").unwrap().contains("not an absolute IRI"));
/// assert!(iribulk::base_problem("http://a/%zz/c").unwrap().contains("bad-percent at byte 10"));
/// // A host that UTS #46 refuses (a ZWJ; found by a QA sweep: every relative line was `idna`).
/// assert!(iribulk::base_problem("http://pay\u{200D}pal.com/").unwrap().contains("idna"));
/// ```
pub fn base_problem(base: &str) -> Option<String> {
    base_problem_with(base, ToUriOptions::default())
}

/// [`base_problem`] in the host mode of `opts` (its `host` and `host_fallback_percent`),
/// under its `strict` and with its `repair` (the other options are the line's, not the
/// base's): the run's own conversion of the base's host. `idna2003-differs` is not a
/// problem: the lines of such a run carry it as a warning.
pub fn base_problem_with(base: &str, opts: ToUriOptions) -> Option<String> {
    if !crate::grammar::components::has_scheme(base.as_bytes()) {
        return Some(
            "is not an absolute IRI (it has no scheme such as http:); a base must be \
             absolute (RFC 3986 §5.1)"
                .to_string(),
        );
    }
    // `strict`: a base that `--strict` refuses would fail every line that keeps its path,
    // each at the reference's first byte (a QA sweep: `--strict --base 'http://a/b c/'`).
    // `repair`: it applies to the base as to every line (the engine resolves against the
    // repaired base, `engine::Worker::set_base`); to-uri maps an error back to the base.
    let o = opts.for_base();
    // Warnings seen as warnings: an `idna2003-differs` that is one (`faß.de`) passes, one
    // that is an error (a joiner Nameprep deletes) does not (found by a QA sweep); under
    // `--strict` the host mapping's warnings are errors of the base too, as they would be of
    // every line resolved against it (a later sweep: a ZWSP in the base's host failed each
    // line at its column 1).
    let g = GuardOptions {
        warnings_unseen: false,
        ..guard(Some(o.host), false, o.strict)
    };
    Guard::new(ToUri::new(o), g)
        .convert_into(base.as_bytes(), &mut Vec::new())
        .err()
        .map(|e| {
            format!(
                "is not an IRI: {} at byte {} ({})",
                e.kind.code(),
                e.offset + 1,
                e.kind.message()
            )
        })
}

/// Resolves `reference` against `base`, an absolute IRI (RFC 3986 §5.2, RFC 3987 §6.5;
/// the non-strict branch of §5.2.2 for the special schemes of browsers, as `--base` does).
///
/// Errors: `bad-scheme` (see [`crate::grammar::resolve::resolve_into`]) at offset 0 when the
/// base has no scheme, else at the offset of the bad scheme in the base or the reference; and
/// the host-integrity errors of `--base` (README "Host integrity"): `missing-host`,
/// `backslash-reference`, `drive-letter-reference`, `opaque-base-reference`, `browser-stripped`,
/// `backslash-authority`, `bad-port`, at their offset in the reference. The reference is
/// returned borrowed when it is its own target.
///
/// ```
/// assert_eq!(iribulk::resolve("http://a/b/c/d;p?q", "../g").unwrap(), "http://a/b/g");
/// assert_eq!(iribulk::resolve("nobase", "g").unwrap_err().code(), "bad-scheme");
/// assert_eq!(iribulk::resolve("http://a/b", "/\\evil.com/").unwrap_err().code(), "backslash-reference");
/// ```
pub fn resolve<'a>(base: &str, reference: &'a str) -> Result<Cow<'a, str>, LineError> {
    let mut out = Vec::new();
    let o = Guard::new(Verbatim, guard(None, false, false)).convert_ref(
        Some(base.as_bytes()),
        reference.as_bytes(),
        &mut out,
    )?;
    owned_or_borrowed(reference, o, out)
}

/// Converts an IRI reference to a URI reference (RFC 3987 §3.1) with the default options.
///
/// ```
/// assert_eq!(
///     iribulk::iri_to_uri("http://example.com/𐌀𐌁𐌂").unwrap(),
///     "http://example.com/%F0%90%8C%80%F0%90%8C%81%F0%90%8C%82" // RFC 3987 §3.1
/// );
/// ```
pub fn iri_to_uri(s: &str) -> Result<Cow<'_, str>, LineError> {
    iri_to_uri_with(s, ToUriOptions::default())
}

/// [`iri_to_uri`] with the given options.
pub fn iri_to_uri_with(s: &str, opts: ToUriOptions) -> Result<Cow<'_, str>, LineError> {
    run(
        ToUri::new(opts),
        guard(Some(opts.host), opts.trim, opts.strict),
        s,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::HostMode;
    use crate::convert::normalize::{Level, Rungs};

    /// Borrowed exactly when nothing changed, for every helper.
    #[test]
    fn borrowed_when_unchanged_owned_when_changed() {
        let plain = "http://example.org/a";
        assert!(matches!(iri_to_uri(plain), Ok(Cow::Borrowed(_))));
        assert!(matches!(to_iri(plain), Ok(Cow::Borrowed(_))));
        assert!(matches!(leiri_to_iri(plain), Ok(Cow::Borrowed(_))));
        assert!(matches!(normalize(plain), Ok(Cow::Borrowed(_))));
        assert!(matches!(resolve("http://x/y", plain), Ok(Cow::Borrowed(_))));
        assert!(matches!(iri_to_uri("http://a/é"), Ok(Cow::Owned(s)) if s == "http://a/%C3%A9"));
        assert!(matches!(to_iri("http://a/%C3%A9"), Ok(Cow::Owned(s)) if s == "http://a/é"));
        assert!(matches!(resolve("http://x/y", "z"), Ok(Cow::Owned(s)) if s == "http://x/z"));
    }

    /// Issue 16's cases through the helpers: the same host-integrity errors as the engine
    /// (README "Host integrity"), with offsets in the input.
    #[test]
    fn host_integrity_holds_for_the_helpers() {
        fn code(r: Result<Cow<'_, str>, LineError>) -> Result<String, (&'static str, usize)> {
            r.map(Cow::into_owned).map_err(|e| (e.code(), e.offset))
        }
        assert_eq!(
            code(normalize("http:/good.com/../evil.com/")),
            Err(("missing-host", 5))
        );
        assert_eq!(
            code(normalize("https:///good.com/../evil.com/")),
            Err(("missing-host", 8))
        );
        assert_eq!(
            code(iri_to_uri("http://good.com ")),
            Err(("browser-stripped", 15))
        );
        let trim = ToUriOptions::default().trim(true);
        assert_eq!(
            iri_to_uri_with(" http://good.com/é", trim).unwrap(),
            "http://good.com/%C3%A9"
        );
        assert_eq!(
            code(leiri_to_iri("file:\t//good.com/x")),
            Err(("browser-stripped", 5))
        );
        assert_eq!(check("http:x").unwrap_err().code(), "missing-host");
        assert_eq!(
            code(to_iri("https://good.co\\m/")),
            Err(("backslash-authority", 15))
        );
        // Resolution: non-strict for special schemes, `\\`-like references refused.
        assert_eq!(
            resolve("http://base.example/d/p", "http:evil.com").unwrap(),
            "http://base.example/d/evil.com"
        );
        assert_eq!(
            code(resolve("https://base.example/d/p", "\\\\evil.com/")),
            Err(("backslash-reference", 0))
        );
        assert_eq!(
            code(resolve("foo://a/b", "http:/evil.com")),
            Err(("missing-host", 5))
        );
        assert_eq!(
            code(resolve("file://h/d/p", "C:/x")),
            Err(("drive-letter-reference", 0))
        );
        // Host mapping: ambiguous-ipv4 and, with no way to return a warning, idna2003-differs
        // as the error; a deleted joiner is always one.
        assert_eq!(
            code(iri_to_uri("http://127\u{3002}1/")),
            Err(("ambiguous-ipv4", 7))
        );
        let idna2003 = ToUriOptions::default().host(HostMode::IDNA2003);
        assert_eq!(
            code(iri_to_uri_with("http://faß.de/", idna2003)),
            Err(("idna2003-differs", 7))
        );
        assert_eq!(
            code(iri_to_uri_with("http://pay\u{200D}pal.com/", idna2003)),
            Err(("idna2003-differs", 7))
        );
        assert_eq!(
            iri_to_uri_with("http://bücher.de/", idna2003).unwrap(),
            "http://xn--bcher-kva.de/"
        );
        // host-char-removed stays a warning (browsers delete the character too); strict
        // makes it an error.
        assert_eq!(
            iri_to_uri("http://go\u{AD}od.com/").unwrap(),
            "http://good.com/"
        );
        assert_eq!(
            code(iri_to_uri_with(
                "http://go\u{AD}od.com/",
                ToUriOptions::default().strict(true)
            )),
            Err(("host-char-removed", 9))
        );
    }

    /// The lines of README's "As a library" example, as written there.
    #[test]
    fn readme_library_example() -> Result<(), LineError> {
        assert_eq!(
            iri_to_uri("http://résumé.example.org/rosé")?,
            "http://xn--rsum-bpad.example.org/ros%C3%A9"
        );
        assert_eq!(to_iri("http://a/ros%C3%A9")?, "http://a/rosé");
        assert_eq!(check("http://a/%zz").unwrap_err().code(), "bad-percent");
        assert_eq!(normalize("HTTP://A/./b")?, "http://a/b");
        assert_eq!(resolve("http://a/b/c", "../g")?, "http://a/g");
        Ok(())
    }

    /// Errors carry code, byte offset and a static message; the `_with` variants use their
    /// options.
    #[test]
    fn errors_and_options() {
        let e = iri_to_uri("http://a/%zz").unwrap_err();
        assert_eq!((e.code(), e.offset), ("bad-percent", 9));
        assert!(!e.message().is_empty());
        let e = to_iri("http://a/\u{1}").unwrap_err();
        assert_eq!((e.code(), e.offset), ("control-char", 9));
        assert_eq!(check("http://a/\u{1}").unwrap_err().offset, 9);
        // check --uri refuses what the IRI grammar accepts.
        assert!(check("http://a/é").is_ok());
        let uri_only = CheckOptions {
            uri_only: true,
            ..CheckOptions::default()
        };
        assert!(check_with("http://a/é", uri_only).is_err());
        // A warning keeps the line valid and is reported with its offset.
        let w = check("http://a/\u{FB01}").unwrap();
        assert_eq!(w.warnings, 1);
        assert_eq!(w.first_warning.map(|e| e.offset), Some(9));
        // Options reach the converter.
        let pct = ToUriOptions::default().host(HostMode::Percent);
        assert_eq!(
            iri_to_uri_with("http://é.fr/", pct).unwrap(),
            "http://%C3%A9.fr/"
        );
        let string = NormalizeOptions {
            rungs: Rungs::level(Level::String),
            ..NormalizeOptions::default()
        };
        assert_eq!(
            normalize_with("HTTP://A/./b", string).unwrap(),
            "HTTP://A/./b"
        );
        assert_eq!(normalize("HTTP://A/./b").unwrap(), "http://a/b");
        assert_eq!(
            to_iri_with(
                "http://xn--bcher-kva.de/",
                ToIriOptions {
                    host: HostMode::Percent
                }
            )
            .unwrap(),
            "http://xn--bcher-kva.de/"
        );
    }

    /// The label dots of RFC 3490 §3.1 (U+3002, U+FF0E, U+FF61) separate A-labels for
    /// `check` as for `to-uri` (found by a QA sweep: `xn--bcher-kva。de` was `bad-ace`, and
    /// a look-alike A-label before `。` lost its `display-unsafe`). U+FF0E and U+FF61 are
    /// also compatibility characters (a `compat-char` warning each, RFC 3987 §6.1).
    #[test]
    fn check_splits_a_labels_at_every_label_dot() {
        for (dot, compat) in [("\u{3002}", 0), ("\u{FF0E}", 1), ("\u{FF61}", 1)] {
            let line = format!("http://xn--bcher-kva{dot}de/");
            assert_eq!(check(&line).map(|c| c.warnings), Ok(compat), "{line}");
            assert_eq!(iri_to_uri(&line).unwrap(), "http://xn--bcher-kva.de/");
            // A bad A-label after the dot is still an error (the host's ToASCII, `idna`,
            // finds it first in a non-ASCII host), as in to-uri.
            let line = format!("http://www{dot}xn--zz{dot}de/");
            assert!(check(&line).is_err(), "{line}");
            assert!(iri_to_uri(&line).is_err(), "{line}");
            // A whole-script confusable (аррӏе under .com) warns as with `.`.
            let line = format!("http://xn--80ak6aa92e{dot}com/");
            assert_eq!(check(&line).map(|c| c.warnings), Ok(compat + 1), "{line}");
            let line = format!("http://a{dot}xn--80ak6aa92e{dot}com/");
            assert_eq!(
                check(&line).map(|c| c.warnings),
                Ok(2 * compat + 1),
                "{line}"
            );
        }
        // A label dot written in `%HH`: the host is read decoded (3987bis §3.4.2).
        for dot in ["%2E", "%E3%80%82", "%EF%BC%8E"] {
            let line = format!("http://xn--bcher-kva{dot}de/");
            assert!(check(&line).is_ok(), "{line}");
            let line = format!("http://xn--zz{dot}de/");
            assert!(check(&line).is_err(), "{line}");
        }
        assert_eq!(check("http://xn--zz%2Ede/").unwrap_err().code(), "bad-ace");
        let w = check("http://a\u{3002}xn--80ak6aa92e\u{3002}com/").unwrap();
        let w = w.first_warning.unwrap();
        assert_eq!((w.code(), w.offset), ("display-unsafe", 11));
    }
}
