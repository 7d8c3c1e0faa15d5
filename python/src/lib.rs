//! `iribulk._iribulk`: the native part of the `iribulk` Python package.
//!
//! Scalar functions convert one `str` (or `bytes`); batch functions convert an Arrow array
//! without the GIL, on rayon's threads. Every conversion is the library's (see [`lib_api`]);
//! option names, defaults and error codes are the CLI's (contract item 16).

mod arrow_in;
mod batch;
mod lib_api;

use arrow_array::ArrayRef;
use arrow_schema::{DataType, Field};
use batch::{OnError, RowIssue};
use lib_api::{
    Charset, HostMode, Idn, Idna2003Flags, Input, InvalidUtf8, Level, LineError, Mode, Options,
    QueryCharset, Repairs, Rungs, ToUriOptions, Written, DEFAULT_MAX_LINE_BYTES,
};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyString, PyTuple};
use pyo3_arrow::{PyArray, PyChunkedArray};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Testing hook: when set, batch functions run the converter on every row (the slow twin of
/// the pass-through of clean rows).
static NAIVE: AtomicBool = AtomicBool::new(false);

static IRI_ERROR: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

/// `iribulk.IriError(code, column, message, row)` for a library error.
fn iri_error(py: Python<'_>, e: &LineError, message: String, row: Option<usize>) -> PyErr {
    let cls = match IRI_ERROR.get_or_try_init(py, || {
        py.import("iribulk._errors")?
            .getattr("IriError")
            .map(Bound::unbind)
    }) {
        Ok(c) => c.bind(py),
        Err(err) => return err,
    };
    match cls.call1((lib_api::code(e), lib_api::column(e), message, row)) {
        Ok(v) => PyErr::from_value(v),
        Err(err) => err,
    }
}

fn choice_error(arg: &str, got: &str, choices: &[&str]) -> PyErr {
    PyValueError::new_err(format!(
        "{arg}={got:?} is not one of {}",
        choices
            .iter()
            .map(|c| format!("{c:?}"))
            .collect::<Vec<_>>()
            .join(", ")
    ))
}

fn host_mode(s: &str) -> PyResult<HostMode> {
    match s {
        "auto" => Ok(HostMode::Auto),
        "uts46" => Ok(HostMode::Uts46),
        "idna2003" => Ok(HostMode::IDNA2003),
        "percent" => Ok(HostMode::Percent),
        _ => Err(choice_error(
            "host",
            s,
            &["auto", "uts46", "idna2003", "percent"],
        )),
    }
}

/// `host=` with the IDNA2003 flags, which go inside the host mode
/// (`HostMode::Idna2003(flags)`) and with `host="idna2003"` only, as the CLI's
/// `--idna2003-no-*` go with `--host idna2003` (contract item 14: no option is silently
/// ignored; found by a QA sweep).
fn host_with_flags(host: &str, no_unassigned: bool, no_std3: bool) -> PyResult<HostMode> {
    match host_mode(host)? {
        HostMode::Idna2003(_) => Ok(HostMode::Idna2003(flags(no_unassigned, no_std3))),
        h if !(no_unassigned || no_std3) => Ok(h),
        _ => {
            let flag = if no_unassigned {
                "idna2003_no_unassigned"
            } else {
                "idna2003_no_std3"
            };
            Err(PyValueError::new_err(format!(
                "{flag}=True goes with host=\"idna2003\" (host={host:?}), as the CLI's \
                 --{} goes with --host idna2003",
                flag.replace('_', "-")
            )))
        }
    }
}

fn flags(no_unassigned: bool, no_std3: bool) -> Idna2003Flags {
    Idna2003Flags {
        allow_unassigned: !no_unassigned,
        use_std3_ascii_rules: !no_std3,
    }
}

fn max_line(n: usize) -> PyResult<usize> {
    if n == 0 {
        return Err(PyValueError::new_err("max_line_bytes must be at least 1"));
    }
    Ok(n)
}

/// `charset=` and `query_charset=` (the CLI's `--charset LABEL` and `--query-charset`): a
/// WHATWG Encoding Standard label; `query_charset` goes with a charset, as on the CLI.
fn charset_of(
    label: Option<&str>,
    query_charset: Option<&str>,
) -> PyResult<(Option<Charset>, QueryCharset)> {
    let cs = match label {
        None => None,
        Some(l) => Some(Charset::for_label(l.as_bytes()).ok_or_else(|| {
            PyValueError::new_err(format!(
                "charset={l:?} {}",
                Charset::refused_label_reason(l.as_bytes())
            ))
        })?),
    };
    let q = match query_charset {
        None | Some("document") => QueryCharset::Document,
        Some("utf-8") => QueryCharset::Utf8,
        Some(s) => return Err(choice_error("query_charset", s, &["document", "utf-8"])),
    };
    if query_charset.is_some() && cs.is_none() {
        return Err(PyValueError::new_err(
            "query_charset goes with charset=LABEL (it says how a legacy charset's queries \
             are encoded)",
        ));
    }
    Ok((cs, q))
}

/// `repair=` (the CLI's `--repair LIST`): a `str` is the CLI's comma list (`"brackets,hash"`,
/// `"all"`); any other iterable holds names (`["brackets", "hash"]`; an empty one: no repair).
/// As on the CLI, it cannot go with `strict=True`, which refuses every repair.
fn repairs_of(repair: Option<&Bound<'_, PyAny>>, strict: bool) -> PyResult<Repairs> {
    let Some(obj) = repair else {
        return Ok(Repairs::NONE);
    };
    if obj.is_none() {
        return Ok(Repairs::NONE);
    }
    let bad = |e: String| PyValueError::new_err(format!("repair: {e}"));
    let r = if let Ok(s) = obj.cast::<PyString>() {
        Repairs::parse(&s.to_cow()?).map_err(bad)?
    } else if obj.is_instance_of::<PyBytes>() {
        return Err(PyTypeError::new_err(
            "repair= takes a str such as \"brackets,percent\" or a sequence of names, not bytes",
        ));
    } else {
        let mut r = Repairs::NONE;
        let items = obj.try_iter().map_err(|_| {
            PyTypeError::new_err(format!(
                "repair= takes a str such as \"brackets,percent\" or a sequence of names, got {}",
                obj.get_type()
                    .name()
                    .map_or_else(|_| "?".to_string(), |n| n.to_string())
            ))
        })?;
        for item in items {
            let item = item?;
            let name = item.cast::<PyString>().map_err(|_| {
                PyTypeError::new_err(
                    "repair= names are str (\"brackets\", \"percent\", \"hash\", \"all\")",
                )
            })?;
            let one = Repairs::parse(&name.to_cow()?).map_err(bad)?;
            r.brackets |= one.brackets;
            r.percent |= one.percent;
            r.hash |= one.hash;
        }
        r
    };
    if strict {
        return Err(PyValueError::new_err(
            "repair= cannot go with strict=True (strict refuses every repair), as the CLI's \
             --repair and --strict",
        ));
    }
    Ok(r)
}

/// `base=`: an absolute IRI (RFC 3986 §5.1: it has a scheme), as the CLI's `--base`
/// requires before any line is read; a base without one is the caller's mistake, not each
/// row's (found by a QA sweep: every row came back unconverted with `bad-scheme`).
fn base_of(base: Option<&str>, to_uri: ToUriOptions) -> PyResult<Option<Arc<[u8]>>> {
    match base {
        None => Ok(None),
        // And an IRI (RFC 3987 §2.2) whose host the call's host mode converts, as the CLI
        // asks (`iribulk::base_problem_with`).
        Some(b) => match iribulk::base_problem_with(b, to_uri) {
            Some(why) => Err(PyValueError::new_err(format!("base={b:?} {why}"))),
            None => Ok(Some(Arc::from(b.as_bytes()))),
        },
    }
}

#[allow(clippy::too_many_arguments)]
fn to_uri_options(
    host: &str,
    strict: bool,
    leiri: bool,
    host_fallback: Option<&str>,
    invalid_utf8: &str,
    idna2003_no_unassigned: bool,
    idna2003_no_std3: bool,
    repair: Option<&Bound<'_, PyAny>>,
    trim: bool,
) -> PyResult<ToUriOptions> {
    let repair = repairs_of(repair, strict)?;
    let fallback = match host_fallback {
        None => false,
        Some("percent") => true,
        Some(s) => return Err(choice_error("host_fallback", s, &["percent"])),
    };
    let utf8 = match invalid_utf8 {
        "error" => InvalidUtf8::Error,
        "percent" => InvalidUtf8::Percent,
        s => return Err(choice_error("invalid_utf8", s, &["error", "percent"])),
    };
    let host_mode = host_with_flags(host, idna2003_no_unassigned, idna2003_no_std3)?;
    if fallback && host_mode == HostMode::Percent {
        return Err(PyValueError::new_err(
            "host_fallback=\"percent\" means nothing with host=\"percent\" (no IDNA runs), as \
             on the CLI",
        ));
    }
    Ok(ToUriOptions::default()
        .host(host_mode)
        .strict(strict)
        .leiri(leiri)
        .host_fallback_percent(fallback)
        .invalid_utf8(utf8)
        .repair(repair)
        .trim(trim))
}

fn host_options(
    host: &str,
    idna2003_no_unassigned: bool,
    idna2003_no_std3: bool,
) -> PyResult<ToUriOptions> {
    Ok(ToUriOptions::default().host(host_with_flags(
        host,
        idna2003_no_unassigned,
        idna2003_no_std3,
    )?))
}

/// `host=` in normalize: it picks the IDNA version of the IDN rung, so it goes with `idn=` or
/// `level="scheme"`, and `"percent"` does not apply (the CLI's rules for `--host` in
/// `--mode normalize`; found by a QA sweep, where both were silently ignored).
///
/// `host=None` (the default) is the CLI without `--host` (`auto`); any `host` given, `"auto"`
/// too, is `--host`, which the CLI refuses without `--idn` or `--level scheme` (found by a QA
/// sweep: the default was the string `"auto"`, so `host="auto"` alone was accepted).
fn normalize_host_options(
    host: Option<&str>,
    level: &str,
    idn: Option<&str>,
    idna2003_no_unassigned: bool,
    idna2003_no_std3: bool,
) -> PyResult<ToUriOptions> {
    let o = host_options(
        host.unwrap_or("auto"),
        idna2003_no_unassigned,
        idna2003_no_std3,
    )?;
    if let Some(host) = host.filter(|_| idn.is_none() && level != "scheme") {
        return Err(PyValueError::new_err(format!(
            "host={host:?} in normalize picks the IDNA version of the IDN rung: give idn= or \
             level=\"scheme\""
        )));
    }
    if o.host == HostMode::Percent {
        return Err(PyValueError::new_err(
            "host=\"percent\" does not apply to normalize (use \"uts46\" or \"idna2003\")",
        ));
    }
    Ok(o)
}

#[allow(clippy::too_many_arguments)]
fn normalize_mode(
    level: &str,
    case: bool,
    percent: bool,
    nfc: bool,
    nfkc: bool,
    path: bool,
    scheme_rules: bool,
    idn: Option<&str>,
    as_uri: bool,
) -> PyResult<Mode> {
    let mut rungs = Rungs::level(match level {
        "string" => Level::String,
        "syntax" => Level::Syntax,
        "scheme" => Level::Scheme,
        s => return Err(choice_error("level", s, &["string", "syntax", "scheme"])),
    });
    rungs.case |= case;
    rungs.percent |= percent;
    rungs.nfc |= nfc;
    rungs.nfkc |= nfkc;
    rungs.path |= path;
    rungs.scheme |= scheme_rules;
    match idn {
        None => {}
        Some("ascii") => rungs.idn = Some(Idn::Ascii),
        Some("unicode") => rungs.idn = Some(Idn::Unicode),
        Some(s) => return Err(choice_error("idn", s, &["ascii", "unicode"])),
    }
    // The CLI's refusal of `--idn unicode --as-uri`: a URI's hosts are ACE, so `idn` would be
    // ignored (found by a QA sweep: accepted, no effect).
    if as_uri && rungs.idn == Some(Idn::Unicode) {
        return Err(PyValueError::new_err(
            "idn=\"unicode\" does not go with as_uri=True (a URI's hosts are ACE: as_uri writes \
             them as idn=\"ascii\" does)",
        ));
    }
    Ok(Mode::Normalize { rungs, as_uri })
}

fn on_error_of(s: &str) -> PyResult<OnError> {
    match s {
        "keep" => Ok(OnError::Keep),
        "null" => Ok(OnError::Null),
        "fail" => Ok(OnError::Fail),
        _ => Err(choice_error("on_error", s, &["keep", "null", "fail"])),
    }
}

// ---------------------------------------------------------------------------------------------
// Scalar functions

/// Converts one `str` or `bytes`. A `str` that needs no work is returned as the same object.
fn scalar(py: Python<'_>, s: &Bound<'_, PyAny>, opts: &Options) -> PyResult<Py<PyAny>> {
    if let Ok(ps) = s.cast::<PyString>() {
        let text = match ps.to_cow() {
            Ok(t) => t,
            Err(_) => return Err(surrogate_error(py, ps, opts)),
        };
        return scalar_bytes(py, text.as_bytes(), Some(s), opts);
    }
    if let Ok(pb) = s.cast::<PyBytes>() {
        return scalar_bytes(py, pb.as_bytes(), None, opts);
    }
    Err(PyTypeError::new_err(format!(
        "expected str or bytes, got {}",
        s.get_type().name()?
    )))
}

/// The error for a `str` that has no UTF-8 form (a lone surrogate, such as `"\\ud800"`):
/// `invalid-utf8`, the CLI's code for a line that is not UTF-8, at the byte column where the
/// surrogate starts in the str encoded with `surrogatepass` (found by a QA sweep: Python's
/// `UnicodeEncodeError` escaped instead of `IriError`).
fn surrogate_error(py: Python<'_>, ps: &Bound<'_, PyString>, opts: &Options) -> PyErr {
    surrogate_error_in(py, ps, opts.to_uri.host)
}

/// [`surrogate_error`] for a host mode.
fn surrogate_error_in(py: Python<'_>, ps: &Bound<'_, PyString>, host: lib_api::HostMode) -> PyErr {
    let encoded = match ps.call_method1("encode", ("utf-8", "surrogatepass")) {
        Ok(b) => b,
        Err(e) => return e,
    };
    let v = encoded.cast::<PyBytes>().map_or(&[][..], |b| b.as_bytes());
    let at = std::str::from_utf8(v).err().map_or(0, |e| e.valid_up_to());
    let e = LineError::new(lib_api::ErrorKind::InvalidUtf8, at);
    iri_error(py, &e, lib_api::message(&e, v, host), None)
}

fn scalar_bytes(
    py: Python<'_>,
    v: &[u8],
    same: Option<&Bound<'_, PyAny>>,
    opts: &Options,
) -> PyResult<Py<PyAny>> {
    // A str is characters (`same`: returned as it is when it needs no work); bytes are in the
    // charset of the options (UTF-8 without one).
    let input = if same.is_some() {
        Input::Text
    } else {
        Input::Bytes
    };
    let r = batch::with_converter(opts, |c| {
        c.set_naive(false);
        if same.is_some() && c.passes(v, input) {
            return Ok(None);
        }
        let mut out = Vec::with_capacity(v.len() + 16);
        // A str the slow path passed through (check, normalize of a normal value: the
        // outcome says so) is returned as the same object too, as README promises (found by
        // a QA sweep).
        // The message's readings are of the line the CLI reports: a UTF-16 value's UTF-8
        // transcoding (found by a QA sweep: they were missing, or named a host of NUL bytes).
        c.convert_slow(v, &mut out, input)
            .map(|o| (same.is_none() || o.written != Written::Passthrough).then_some(out))
            .map_err(|e| (e, lib_api::message_for(&e, c.kept(v), opts)))
    });
    match r {
        Ok(None) => Ok(same.expect("checked").clone().unbind()),
        Ok(Some(out)) => {
            let s = match std::str::from_utf8(&out) {
                Ok(s) => PyString::new(py, s),
                // Every mode writes UTF-8; a kept non-UTF-8 input never reaches here.
                Err(_) => PyString::new(py, &String::from_utf8_lossy(&out)),
            };
            Ok(s.into_any().unbind())
        }
        Err((e, message)) => Err(iri_error(py, &e, message, None)),
    }
}

/// Converts an IRI reference to a URI reference (RFC 3987 §3.1).
///
/// Non-ASCII characters are percent-encoded as UTF-8, hosts of DNS schemes go through IDNA,
/// printable ASCII that URIs do not allow (space, `"`, `<`, `>`, ...) is percent-encoded (a
/// repair). A string that needs no change is returned as it is.
///
/// Options are the CLI's flags (`iribulk --help`) with `_` for `-`:
///
/// * `host`: `"auto"` (IDNA UTS #46 for DNS schemes such as http, percent-encoding otherwise),
///   `"uts46"`, `"idna2003"` (RFC 3490) or `"percent"` (3987bis §3.4.1).
/// * `strict`: every repair and warning is an error with its own code.
/// * `leiri`: LEIRI input (3987bis §6): percent-encode controls instead of failing.
/// * `repair`: opt-in repairs of what RFC 3987 §3.1 says must not be converted, done as its
///   "preprocessing step": a comma list as the CLI's `--repair` (`"brackets,percent"`,
///   `"all"`) or a sequence of names (`["brackets", "hash"]`). `"brackets"`: `[` `]` outside
///   an IP literal to `%5B` `%5D`; `"percent"`: a `%` not followed by two hex digits to `%25`;
///   `"hash"`: every `#` after the first to `%23`. Each is a warning (`repaired-bracket`,
///   `repaired-percent`, `repaired-hash`: the batch errors struct shows it); without it such
///   input is an error (`bad-bracket`, `bad-percent`, `extra-hash`). Not with `strict=True`.
/// * `trim`: remove what browsers strip from a special-scheme IRI (C0 controls and spaces at
///   either end, TAB/CR/LF anywhere, also in the path; WHATWG URL §4.4) instead of failing
///   it with `browser-stripped` (encoding them would change the host a browser sees).
/// * `host_fallback`: `"percent"` to percent-encode a host that IDNA refuses.
/// * `invalid_utf8`: for `bytes` input, `"error"` or `"percent"` (encode each bad byte).
/// * `idna2003_no_unassigned`, `idna2003_no_std3`: IDNA2003 flags.
/// * `base`: resolve `s` against this IRI first (RFC 3986 §5.2, RFC 3987 §6.5).
/// * `charset`: the charset of the page the IRI comes from, a WHATWG Encoding Standard label
///   (`"shift_jis"`, `"gbk"`, `"big5"`, `"euc-kr"`, `"windows-1251"`, `"windows-1252"`,
///   `"utf-16le"`...). `bytes` are in that charset: decoded, then normalized to NFC (RFC 3987
///   §3.1 step 1b; UTF-16 is only decoded, step 1c); bytes not valid in it are the error
///   `bad-charset` (or `%HH` with `invalid_utf8="percent"`). A `str` is already decoded:
///   NFC and the query rule still apply. Without `charset`, input is UTF-8, never normalized.
/// * `query_charset`: with a legacy `charset`, the query of an `http`/`https` IRI is encoded
///   in that charset (`"document"`, the default: what browsers send, 3987bis §3.5; characters
///   it cannot write become `%26%23NNNN%3B`, the Encoding Standard's `&#NNNN;`), or in UTF-8
///   like any other component (`"utf-8"`).
/// * `max_line_bytes`: a longer input is the error `line-too-long` (default 8 MiB).
///
/// Raises `iribulk.IriError` (`.code`, `.column`, `.message`) when the input cannot be
/// converted. `.column` is a 1-based byte column of the input: of the bytes as given, or of
/// the UTF-8 of a `str`.
///
/// >>> import iribulk
/// >>> iribulk.to_uri("http://résumé.example.org/ros%C3%A9#red")
/// 'http://xn--rsum-bpad.example.org/ros%C3%A9#red'
/// >>> iribulk.to_uri("http://bücher.de/straße?q=ü")
/// 'http://xn--bcher-kva.de/stra%C3%9Fe?q=%C3%BC'
/// >>> iribulk.to_uri(b"http://example.jp/\x93\xfa\x96\x7b?q=\x8c\x9f\x8d\xf5", charset="shift_jis")
/// 'http://example.jp/%E6%97%A5%E6%9C%AC?q=%8C%9F%8D%F5'
/// >>> iribulk.to_uri("http://example.jp/日本?q=検索", charset="shift_jis")
/// 'http://example.jp/%E6%97%A5%E6%9C%AC?q=%8C%9F%8D%F5'
/// >>> iribulk.to_uri("http://example.org/[CFA]-franc.html", repair="brackets")
/// 'http://example.org/%5BCFA%5D-franc.html'
/// >>> iribulk.to_uri("http://example.org/a#b#c", repair=["hash"])
/// 'http://example.org/a#b%23c'
/// >>> iribulk.to_uri("http://example.org/ ", trim=True)
/// 'http://example.org/'
/// >>> iribulk.to_uri("http://example.org/a b", strict=True)
/// Traceback (most recent call last):
/// ...
/// iribulk.IriError: disallowed-ascii at column 21: ASCII character not allowed in URIs (strict mode: not repaired)
#[pyfunction]
#[pyo3(signature = (s, *, host="auto", strict=false, leiri=false, repair=None, trim=false, host_fallback=None,
    invalid_utf8="error", idna2003_no_unassigned=false, idna2003_no_std3=false, base=None,
    charset=None, query_charset=None, max_line_bytes=8388608))]
#[allow(clippy::too_many_arguments)]
fn to_uri(
    py: Python<'_>,
    s: &Bound<'_, PyAny>,
    host: &str,
    strict: bool,
    leiri: bool,
    repair: Option<&Bound<'_, PyAny>>,
    trim: bool,
    host_fallback: Option<&str>,
    invalid_utf8: &str,
    idna2003_no_unassigned: bool,
    idna2003_no_std3: bool,
    base: Option<&str>,
    charset: Option<&str>,
    query_charset: Option<&str>,
    max_line_bytes: usize,
) -> PyResult<Py<PyAny>> {
    let (charset, query_charset) = charset_of(charset, query_charset)?;
    let mut opts = Options {
        mode: Mode::ToUri,
        to_uri: to_uri_options(
            host,
            strict,
            leiri,
            host_fallback,
            invalid_utf8,
            idna2003_no_unassigned,
            idna2003_no_std3,
            repair,
            trim,
        )?,
        max_line_bytes: max_line(max_line_bytes)?,
        base: None,
        charset,
        query_charset,
    };
    opts.base = base_of(base, opts.to_uri)?;
    scalar(py, s, &opts)
}

/// Converts a URI reference to an IRI reference for display (RFC 3987 §3.2, 3987bis §4.2).
///
/// Percent-encoded UTF-8 is decoded where the character may appear as itself, `xn--` labels
/// of DNS hosts are decoded to Unicode where that is safe to show; everything else stays
/// encoded. Options as `to_uri` (`host`, the IDNA2003 flags, `trim`, `base`,
/// `max_line_bytes`; `strict`: a raw character not fit for display, which is written
/// percent-encoded with a warning, is an error instead).
///
/// >>> import iribulk
/// >>> iribulk.to_iri("http://xn--rsum-bpad.example.org/ros%C3%A9")
/// 'http://résumé.example.org/rosé'
/// >>> iribulk.to_iri("\thttp://xn--bcher-kva.de/", trim=True)
/// 'http://bücher.de/'
#[pyfunction]
#[pyo3(signature = (s, *, host="auto", idna2003_no_unassigned=false, idna2003_no_std3=false,
    trim=false, strict=false, base=None, max_line_bytes=8388608))]
#[allow(clippy::too_many_arguments)]
fn to_iri(
    py: Python<'_>,
    s: &Bound<'_, PyAny>,
    host: &str,
    idna2003_no_unassigned: bool,
    idna2003_no_std3: bool,
    trim: bool,
    strict: bool,
    base: Option<&str>,
    max_line_bytes: usize,
) -> PyResult<Py<PyAny>> {
    let mut opts = Options {
        mode: Mode::ToIri,
        to_uri: host_options(host, idna2003_no_unassigned, idna2003_no_std3)?
            .trim(trim)
            .strict(strict),
        max_line_bytes: max_line(max_line_bytes)?,
        base: None,
        charset: None,
        query_charset: QueryCharset::Document,
    };
    opts.base = base_of(base, opts.to_uri)?;
    scalar(py, s, &opts)
}

/// Validates an IRI reference (RFC 3987 §2.2, bidi rules of §4.2, §6.1); with `uri=True`, a
/// URI reference (RFC 3986). Returns the input unchanged when it is valid, raises
/// `iribulk.IriError` when it is not. Options: `uri`, `host` and the IDNA2003 flags (which IDNA
/// rules hosts must follow), `base`, `charset` (as `to_uri`: the IRI validated, and returned,
/// is the decoded NFC text), `max_line_bytes`.
///
/// >>> import iribulk
/// >>> iribulk.check("http://bücher.de/ü")
/// 'http://bücher.de/ü'
/// >>> iribulk.check("http://bücher.de/ü", uri=True)
/// Traceback (most recent call last):
/// ...
/// iribulk.IriError: non-ascii at column 9: ...
#[pyfunction]
#[pyo3(signature = (s, *, uri=false, host="auto", idna2003_no_unassigned=false,
    idna2003_no_std3=false, base=None, charset=None, max_line_bytes=8388608))]
#[allow(clippy::too_many_arguments)]
fn check(
    py: Python<'_>,
    s: &Bound<'_, PyAny>,
    uri: bool,
    host: &str,
    idna2003_no_unassigned: bool,
    idna2003_no_std3: bool,
    base: Option<&str>,
    charset: Option<&str>,
    max_line_bytes: usize,
) -> PyResult<Py<PyAny>> {
    let (charset, query_charset) = charset_of(charset, None)?;
    let mut opts = Options {
        mode: Mode::Check { uri },
        to_uri: host_options(host, idna2003_no_unassigned, idna2003_no_std3)?,
        max_line_bytes: max_line(max_line_bytes)?,
        base: None,
        charset,
        query_charset,
    };
    opts.base = base_of(base, opts.to_uri)?;
    scalar(py, s, &opts)
}

/// Normalizes an IRI for comparison (RFC 3987 §5.3).
///
/// `level`: `"string"` (no rung: the value still read as `to_uri` reads it, so a space is
/// written `%20`), `"syntax"` (default: case §5.3.2.1, percent-encoding
/// §5.3.2.3, dot segments §5.3.2.4) or `"scheme"` (syntax + scheme rules + IDN to ACE,
/// §5.3.3). The rung flags add to the level: `case`, `percent`, `nfc`, `nfkc`, `path`,
/// `scheme_rules`, `idn` (`"ascii"` or `"unicode"`); `as_uri` writes a URI. `host="idna2003"`
/// picks IDNA2003 for IDN rungs (UTS #46 otherwise); `host` goes with `idn` or
/// `level="scheme"`, as the CLI's `--host` (default None: the CLI's default, `auto`, without
/// `--host`). `repair` and `trim` as `to_uri` (the
/// repaired, trimmed IRI is normalized). `charset` as `to_uri` (decode and NFC first; the
/// query rule is `to_uri`'s alone).
///
/// >>> import iribulk
/// >>> iribulk.normalize("HTTP://Example.ORG/a/./b/../c/%7euser")
/// 'http://example.org/a/c/~user'
/// >>> iribulk.normalize("HTTP://Example.ORG/p?a[]=1", repair="brackets")
/// 'http://example.org/p?a%5B%5D=1'
/// >>> iribulk.normalize("http://example.org:80", level="scheme")
/// 'http://example.org/'
#[pyfunction]
#[pyo3(signature = (s, *, level="syntax", case=false, percent=false, nfc=false, nfkc=false,
    path=false, scheme_rules=false, idn=None, as_uri=false, host=None,
    idna2003_no_unassigned=false, idna2003_no_std3=false, repair=None, trim=false, base=None,
    charset=None, max_line_bytes=8388608))]
#[allow(clippy::too_many_arguments)]
fn normalize(
    py: Python<'_>,
    s: &Bound<'_, PyAny>,
    level: &str,
    case: bool,
    percent: bool,
    nfc: bool,
    nfkc: bool,
    path: bool,
    scheme_rules: bool,
    idn: Option<&str>,
    as_uri: bool,
    host: Option<&str>,
    idna2003_no_unassigned: bool,
    idna2003_no_std3: bool,
    repair: Option<&Bound<'_, PyAny>>,
    trim: bool,
    base: Option<&str>,
    charset: Option<&str>,
    max_line_bytes: usize,
) -> PyResult<Py<PyAny>> {
    let (charset, query_charset) = charset_of(charset, None)?;
    let mut opts = Options {
        mode: normalize_mode(
            level,
            case,
            percent,
            nfc,
            nfkc,
            path,
            scheme_rules,
            idn,
            as_uri,
        )?,
        to_uri: normalize_host_options(host, level, idn, idna2003_no_unassigned, idna2003_no_std3)?
            .repair(repairs_of(repair, false)?)
            .trim(trim),
        max_line_bytes: max_line(max_line_bytes)?,
        base: None,
        charset,
        query_charset,
    };
    opts.base = base_of(base, opts.to_uri)?;
    scalar(py, s, &opts)
}

/// Converts a LEIRI to an IRI (3987bis §6.3): percent-encodes what LEIRIs allow and IRIs do
/// not (controls, space, `"`, `<`, `>`, ...). Options: `repair`, `trim` (as `to_uri`),
/// `base`, `charset` (as `to_uri`: decode and NFC first), `max_line_bytes`.
///
/// >>> import iribulk
/// >>> iribulk.leiri_to_iri("http://example.org/a b")
/// 'http://example.org/a%20b'
/// >>> iribulk.leiri_to_iri("http://a/b c[1]#x#y%", repair="all")
/// 'http://a/b%20c%5B1%5D#x%23y%25'
#[pyfunction]
#[pyo3(signature = (s, *, repair=None, trim=false, base=None, charset=None,
    max_line_bytes=8388608))]
fn leiri_to_iri(
    py: Python<'_>,
    s: &Bound<'_, PyAny>,
    repair: Option<&Bound<'_, PyAny>>,
    trim: bool,
    base: Option<&str>,
    charset: Option<&str>,
    max_line_bytes: usize,
) -> PyResult<Py<PyAny>> {
    let (charset, query_charset) = charset_of(charset, None)?;
    let mut opts = Options {
        mode: Mode::LeiriToIri,
        to_uri: ToUriOptions::default()
            .repair(repairs_of(repair, false)?)
            .trim(trim),
        max_line_bytes: max_line(max_line_bytes)?,
        base: None,
        charset,
        query_charset,
    };
    opts.base = base_of(base, opts.to_uri)?;
    scalar(py, s, &opts)
}

/// Resolves the reference `ref` against the absolute IRI `base` (RFC 3986 §5.2, RFC 3987
/// §6.5), without converting either, with the host-integrity checks of `--base` (README
/// "Host integrity": `iribulk::resolve`). Raises `iribulk.IriError` when `base` has no scheme,
/// a scheme is invalid, or a browser would read another host than RFC 3986
/// (`backslash-reference`, `missing-host`, `opaque-base-reference`, `drive-letter-reference`,
/// ...).
///
/// >>> import iribulk
/// >>> iribulk.resolve("http://a/b/c/d;p?q", "../g")
/// 'http://a/b/g'
#[pyfunction]
#[pyo3(signature = (base, r#ref))]
fn resolve(
    py: Python<'_>,
    base: &Bound<'_, PyString>,
    r#ref: &Bound<'_, PyString>,
) -> PyResult<String> {
    // A lone surrogate in either is `invalid-utf8`, as in the other scalar functions (found
    // by a QA sweep: Python's `UnicodeEncodeError` escaped instead of `IriError`).
    let base = base
        .to_cow()
        .map_err(|_| surrogate_error_in(py, base, lib_api::HostMode::Auto))?;
    let r#ref = r#ref
        .to_cow()
        .map_err(|_| surrogate_error_in(py, r#ref, lib_api::HostMode::Auto))?;
    let (base, r#ref) = (base.as_ref(), r#ref.as_ref());
    // The library's helper runs the Guard, as the CLI's --base does (found by a QA sweep:
    // the grammar's resolver alone let `/\\evil.com/` through).
    match iribulk::resolve(base, r#ref) {
        Ok(t) => Ok(t.into_owned()),
        Err(e) => {
            let m = lib_api::message(&e, r#ref.as_bytes(), lib_api::HostMode::Auto);
            Err(iri_error(py, &e, m, None))
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Batch functions

fn run_pool<R: Send>(threads: usize, f: impl FnOnce() -> R + Send) -> Result<R, String> {
    // `threads=0` (all cores) gets a kept pool of its own too, not rayon's global pool: a
    // process forked after a call has none of the global pool's workers, and rayon cannot
    // build that pool again, so a child's call waited forever (a QA sweep; `pool_of` keeps
    // its pool with the process id that built it).
    if threads > iribulk::engine::MAX_THREADS {
        // As the CLI's --threads (found by a QA sweep: threads=10**9 never returned).
        return Err(format!(
            "threads={threads}: at most {} (0: all cores)",
            iribulk::engine::MAX_THREADS
        ));
    }
    Ok(pool_of(threads)?.install(f))
}

/// The rayon pool of `threads` workers, kept for the next call: a loop of batches with the
/// same `threads=N` (a Spark task's Arrow batches, a polars `map_batches`) starts its
/// workers once instead of once per batch. One pool is kept, the last one asked for; a
/// call with another count builds its own and keeps it instead. Its threads live until the
/// process ends. A pool is kept per process ([`process_slot`]): a process forked after it
/// has none of its threads (fork copies only the calling one), so the child builds its own
/// (found by a QA sweep: the child waited forever on the parent's workers;
/// `multiprocessing`'s fork start method does this).
fn pool_of(threads: usize) -> Result<std::sync::Arc<rayon::ThreadPool>, String> {
    use std::sync::Arc;
    let slot = process_slot();
    let mut last = slot.last.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((n, pool)) = last.as_ref() {
        if *n == threads {
            return Ok(Arc::clone(pool));
        }
    }
    let pool = Arc::new(
        rayon::ThreadPoolBuilder::new()
            // 0: rayon's default, one worker per core (or RAYON_NUM_THREADS).
            .num_threads(threads)
            // `iribulk-N-k` in top, ps and /proc (a thread's name holds 15 bytes); N is 0
            // for all cores.
            .thread_name(move |k| format!("iribulk-{threads}-{k}"))
            .build()
            .map_err(|e| e.to_string())?,
    );
    *last = Some((threads, Arc::clone(&pool)));
    Ok(pool)
}

/// The kept pool of one process ([`pool_of`]) behind its own lock.
struct ProcessSlot {
    pid: u32,
    last: std::sync::Mutex<Option<(usize, std::sync::Arc<rayon::ThreadPool>)>>,
}

/// This process's [`ProcessSlot`]: a process forked from one that had a slot gets a new one,
/// and never touches the parent's. The parent's lock may have been held by another of its
/// threads at the fork (building a pool, which takes a while), and that thread is not in the
/// child: the child's first batch call waited on it forever (a QA sweep, about one fork in
/// thirty while another thread was in a batch call). The parent's slot is leaked in the
/// child (its pool's workers are not there either, and dropping it would wait for them).
fn process_slot() -> &'static ProcessSlot {
    use std::sync::atomic::{AtomicPtr, Ordering};
    static SLOT: AtomicPtr<ProcessSlot> = AtomicPtr::new(std::ptr::null_mut());
    let pid = std::process::id();
    loop {
        let cur = SLOT.load(Ordering::Acquire);
        // SAFETY: SLOT is null or points to a `ProcessSlot` leaked by `Box::into_raw` below,
        // never freed, so a shared reference to it is valid for the rest of the process.
        if let Some(s) = unsafe { cur.as_ref() } {
            if s.pid == pid {
                return s;
            }
        }
        let new = Box::into_raw(Box::new(ProcessSlot {
            pid,
            last: std::sync::Mutex::new(None),
        }));
        match SLOT.compare_exchange(cur, new, Ordering::AcqRel, Ordering::Acquire) {
            // SAFETY: `new` came from `Box::into_raw` and is now SLOT's, never freed.
            Ok(_) => return unsafe { &*new },
            // Another thread of this process installed one first: ours was never shared.
            // SAFETY: `new` came from `Box::into_raw` above and no one else has seen it.
            Err(_) => drop(unsafe { Box::from_raw(new) }),
        }
    }
}

fn first_error(issues: &[RowIssue]) -> Option<&RowIssue> {
    issues.iter().find(|r| !r.warning)
}

/// Converts each array with `opts` without the GIL; the output chunks share one type.
fn convert_chunks(
    py: Python<'_>,
    chunks: &[ArrayRef],
    opts: &Options,
    on_error: OnError,
    threads: usize,
    want_errors: bool,
) -> PyResult<(Vec<ArrayRef>, Vec<ArrayRef>)> {
    let naive = NAIVE.load(Ordering::Relaxed);
    let res = py.detach(|| {
        run_pool(threads, || {
            let mut out = Vec::with_capacity(chunks.len());
            let mut errs = Vec::with_capacity(chunks.len());
            let mut offset = 0usize;
            for a in chunks {
                let c = batch::convert_array(a, opts, on_error, naive).map_err(Ok)?;
                if on_error == OnError::Fail {
                    if let Some(r) = first_error(&c.issues) {
                        return Err(Err((r.err, r.message.clone(), offset + r.row)));
                    }
                }
                if want_errors {
                    errs.push(batch::errors_array(&c.issues, a.len()));
                }
                out.push(c.array);
                offset += a.len();
            }
            Ok((out, errs))
        })
    });
    let (mut out, errs) = match res {
        Ok(Ok(v)) => v,
        Ok(Err(Ok(msg))) | Err(msg) => return Err(PyValueError::new_err(msg)),
        Ok(Err(Err((e, m, row)))) => return Err(iri_error(py, &e, m, Some(row))),
    };
    // A chunk past 2 GiB of results is large_*: give every chunk that type.
    let large = out
        .iter()
        .any(|a| matches!(a.data_type(), DataType::LargeUtf8 | DataType::LargeBinary));
    if large {
        for a in out.iter_mut() {
            let target = match a.data_type() {
                DataType::Utf8 => DataType::LargeUtf8,
                DataType::Binary => DataType::LargeBinary,
                _ => continue,
            };
            *a = arrow_cast::cast(a, &target).map_err(|e| PyValueError::new_err(e.to_string()))?;
        }
    }
    Ok((out, errs))
}

/// Result type for an input type with no chunk to look at.
fn empty_type(dt: &DataType) -> DataType {
    match dt {
        DataType::LargeUtf8 => DataType::LargeUtf8,
        DataType::Binary | DataType::BinaryView => DataType::Binary,
        DataType::LargeBinary => DataType::LargeBinary,
        _ => DataType::Utf8,
    }
}

fn run_batch(
    py: Python<'_>,
    array: &Bound<'_, PyAny>,
    opts: Options,
    errors: bool,
    on_error: &str,
    threads: usize,
) -> PyResult<Py<PyAny>> {
    let on_error = on_error_of(on_error)?;
    if !arrow_in::has_interface(array)? {
        return Err(PyTypeError::new_err(format!(
            "expected an Arrow array of strings (pyarrow Array or ChunkedArray, polars Series, \
             or an object with __arrow_c_array__ or __arrow_c_stream__), got {}",
            array
                .get_type()
                .name()
                .map_or_else(|_| "?".to_string(), |n| n.to_string())
        )));
    }
    // arrow_in reads a Polars Series of dtype Null, which arrow-rs's importer refuses.
    let arrow_in::Imported {
        chunks,
        field,
        single,
    } = arrow_in::import(array)?;
    batch::check_type(field.data_type()).map_err(PyTypeError::new_err)?;
    let (out, errs) = convert_chunks(py, &chunks, &opts, on_error, threads, errors)?;
    let dt = out
        .first()
        .map_or_else(|| empty_type(field.data_type()), |a| a.data_type().clone());
    let out_field = Arc::new(Field::new(field.name(), dt, true));
    let err_field = Arc::new(Field::new(
        "errors",
        DataType::Struct(batch::error_fields()),
        true,
    ));
    let export = |chunks: Vec<ArrayRef>, field| -> PyResult<Py<PyAny>> {
        Ok(if single {
            let a = chunks.into_iter().next().expect("one chunk");
            PyArray::new(a, field).to_pyarrow(py)?.unbind()
        } else {
            PyChunkedArray::try_new(chunks, field)?
                .into_pyarrow(py)?
                .unbind()
        })
    };
    let result = export(out, out_field)?;
    if !errors {
        return Ok(result);
    }
    let err_obj = export(errs, err_field)?;
    Ok(PyTuple::new(py, [result, err_obj])?.into_any().unbind())
}

/// Converts every string of an Arrow array from IRI to URI (RFC 3987 §3.1): the batch form of
/// `to_uri`, with the same options.
///
/// `array`: a pyarrow `Array` or `ChunkedArray`, a Polars `Series`, or any object with the
/// Arrow PyCapsule interface (`__arrow_c_array__` / `__arrow_c_stream__`), of type string,
/// large_string, string_view, binary, large_binary or binary_view. The buffers are read in
/// place; the GIL is released while rayon converts ranges of rows in parallel (`threads=0`:
/// all cores).
///
/// Returns a pyarrow `Array` (for an array input) or `ChunkedArray` (for a stream, such as a
/// ChunkedArray or a Polars Series) of the same length: strings for string input (`string`,
/// or `large_string` for large input or past 2 GiB), binary for binary input. Null gives null.
///
/// `charset`, `query_charset`: as `to_uri`. String arrays are text (already decoded: NFC and
/// the query rule apply); binary arrays hold bytes in the charset. A binary row converted is
/// UTF-8; a binary row kept with an error (`on_error="keep"`) keeps its original bytes (UTF-16
/// rows: their UTF-8 transcoding, as the CLI writes them), so with `on_error="null"` the
/// result casts to `pa.string()`.
///
/// `on_error`: what a row with an error becomes: `"keep"` (unchanged, the default, as the
/// CLI), `"null"`, or `"fail"` (raise `IriError` for the first one; `.row` is its index).
///
/// `errors=True` returns `(result, errors)`, where `errors` is a struct array
/// `{code, column, message, warning}` with the CLI's codes and 1-based byte columns, null for
/// rows without a problem; warnings (the row was converted) have `warning=True`.
///
/// >>> import pyarrow as pa, iribulk
/// >>> iribulk.to_uri_batch(pa.array(["http://bücher.de/ü", None, "http://a/%zz"])).to_pylist()
/// ['http://xn--bcher-kva.de/%C3%BC', None, 'http://a/%zz']
/// >>> out, err = iribulk.to_uri_batch(pa.array(["http://a/%zz"]), errors=True)
/// >>> err.to_pylist()[0]["code"]
/// 'bad-percent'
/// >>> links = pa.array([b"http://example.ru/?q=\xef\xee\xe8\xf1\xea", b"http://a/%zz"])
/// >>> iribulk.to_uri_batch(links, charset="windows-1251", on_error="null").cast(pa.string()).to_pylist()
/// ['http://example.ru/?q=%EF%EE%E8%F1%EA', None]
/// >>> out, err = iribulk.to_uri_batch(pa.array(["http://a/[1]", " http://a/"]), repair="brackets", trim=True, errors=True)
/// >>> out.to_pylist(), err.to_pylist()[0]["code"]
/// (['http://a/%5B1%5D', 'http://a/'], 'repaired-bracket')
#[pyfunction]
#[pyo3(signature = (array, *, host="auto", strict=false, leiri=false, repair=None, trim=false, host_fallback=None,
    invalid_utf8="error", idna2003_no_unassigned=false, idna2003_no_std3=false, base=None,
    charset=None, query_charset=None, max_line_bytes=8388608, errors=false, on_error="keep", threads=0))]
#[allow(clippy::too_many_arguments)]
fn to_uri_batch(
    py: Python<'_>,
    array: &Bound<'_, PyAny>,
    host: &str,
    strict: bool,
    leiri: bool,
    repair: Option<&Bound<'_, PyAny>>,
    trim: bool,
    host_fallback: Option<&str>,
    invalid_utf8: &str,
    idna2003_no_unassigned: bool,
    idna2003_no_std3: bool,
    base: Option<&str>,
    charset: Option<&str>,
    query_charset: Option<&str>,
    max_line_bytes: usize,
    errors: bool,
    on_error: &str,
    threads: usize,
) -> PyResult<Py<PyAny>> {
    let (charset, query_charset) = charset_of(charset, query_charset)?;
    let mut opts = Options {
        mode: Mode::ToUri,
        to_uri: to_uri_options(
            host,
            strict,
            leiri,
            host_fallback,
            invalid_utf8,
            idna2003_no_unassigned,
            idna2003_no_std3,
            repair,
            trim,
        )?,
        max_line_bytes: max_line(max_line_bytes)?,
        base: None,
        charset,
        query_charset,
    };
    opts.base = base_of(base, opts.to_uri)?;
    run_batch(py, array, opts, errors, on_error, threads)
}

/// The batch form of `to_iri` (URI → IRI, RFC 3987 §3.2), with its options (`trim`...);
/// arrays, results, `errors`, `on_error` and `threads` as `to_uri_batch`.
///
/// >>> import pyarrow as pa, iribulk
/// >>> iribulk.to_iri_batch(pa.array(["http://xn--bcher-kva.de/%C3%BC"])).to_pylist()
/// ['http://bücher.de/ü']
#[pyfunction]
#[pyo3(signature = (array, *, host="auto", idna2003_no_unassigned=false,
    idna2003_no_std3=false, trim=false, strict=false, base=None, max_line_bytes=8388608,
    errors=false, on_error="keep", threads=0))]
#[allow(clippy::too_many_arguments)]
fn to_iri_batch(
    py: Python<'_>,
    array: &Bound<'_, PyAny>,
    host: &str,
    idna2003_no_unassigned: bool,
    idna2003_no_std3: bool,
    trim: bool,
    strict: bool,
    base: Option<&str>,
    max_line_bytes: usize,
    errors: bool,
    on_error: &str,
    threads: usize,
) -> PyResult<Py<PyAny>> {
    let mut opts = Options {
        mode: Mode::ToIri,
        to_uri: host_options(host, idna2003_no_unassigned, idna2003_no_std3)?
            .trim(trim)
            .strict(strict),
        max_line_bytes: max_line(max_line_bytes)?,
        base: None,
        charset: None,
        query_charset: QueryCharset::Document,
    };
    opts.base = base_of(base, opts.to_uri)?;
    run_batch(py, array, opts, errors, on_error, threads)
}

/// The batch form of `check`: valid rows come back unchanged; `errors=True` says which rows
/// are invalid and why (`errors.is_null()` is the mask of valid rows). Arrays, results,
/// `charset`, `on_error` and `threads` as `to_uri_batch`.
///
/// >>> import pyarrow as pa, iribulk
/// >>> _, err = iribulk.check_batch(pa.array(["http://a/b", "http://a/%zz"]), errors=True)
/// >>> err.is_null().to_pylist()
/// [True, False]
#[pyfunction]
#[pyo3(signature = (array, *, uri=false, host="auto", idna2003_no_unassigned=false,
    idna2003_no_std3=false, base=None, charset=None, max_line_bytes=8388608, errors=false,
    on_error="keep", threads=0))]
#[allow(clippy::too_many_arguments)]
fn check_batch(
    py: Python<'_>,
    array: &Bound<'_, PyAny>,
    uri: bool,
    host: &str,
    idna2003_no_unassigned: bool,
    idna2003_no_std3: bool,
    base: Option<&str>,
    charset: Option<&str>,
    max_line_bytes: usize,
    errors: bool,
    on_error: &str,
    threads: usize,
) -> PyResult<Py<PyAny>> {
    let (charset, query_charset) = charset_of(charset, None)?;
    let mut opts = Options {
        mode: Mode::Check { uri },
        to_uri: host_options(host, idna2003_no_unassigned, idna2003_no_std3)?,
        max_line_bytes: max_line(max_line_bytes)?,
        base: None,
        charset,
        query_charset,
    };
    opts.base = base_of(base, opts.to_uri)?;
    run_batch(py, array, opts, errors, on_error, threads)
}

/// The batch form of `normalize` (RFC 3987 §5.3), with its options (`repair`, `trim`...); arrays, results,
/// `charset`, `errors`, `on_error` and `threads` as `to_uri_batch`.
///
/// >>> import pyarrow as pa, iribulk
/// >>> iribulk.normalize_batch(pa.array(["HTTP://A.org/./x"])).to_pylist()
/// ['http://a.org/x']
#[pyfunction]
#[pyo3(signature = (array, *, level="syntax", case=false, percent=false, nfc=false,
    nfkc=false, path=false, scheme_rules=false, idn=None, as_uri=false, host=None,
    idna2003_no_unassigned=false, idna2003_no_std3=false, repair=None, trim=false, base=None,
    charset=None, max_line_bytes=8388608, errors=false, on_error="keep", threads=0))]
#[allow(clippy::too_many_arguments)]
fn normalize_batch(
    py: Python<'_>,
    array: &Bound<'_, PyAny>,
    level: &str,
    case: bool,
    percent: bool,
    nfc: bool,
    nfkc: bool,
    path: bool,
    scheme_rules: bool,
    idn: Option<&str>,
    as_uri: bool,
    host: Option<&str>,
    idna2003_no_unassigned: bool,
    idna2003_no_std3: bool,
    repair: Option<&Bound<'_, PyAny>>,
    trim: bool,
    base: Option<&str>,
    charset: Option<&str>,
    max_line_bytes: usize,
    errors: bool,
    on_error: &str,
    threads: usize,
) -> PyResult<Py<PyAny>> {
    let (charset, query_charset) = charset_of(charset, None)?;
    let mut opts = Options {
        mode: normalize_mode(
            level,
            case,
            percent,
            nfc,
            nfkc,
            path,
            scheme_rules,
            idn,
            as_uri,
        )?,
        to_uri: normalize_host_options(host, level, idn, idna2003_no_unassigned, idna2003_no_std3)?
            .repair(repairs_of(repair, false)?)
            .trim(trim),
        max_line_bytes: max_line(max_line_bytes)?,
        base: None,
        charset,
        query_charset,
    };
    opts.base = base_of(base, opts.to_uri)?;
    run_batch(py, array, opts, errors, on_error, threads)
}

/// The batch form of `leiri_to_iri` (3987bis §6.3); `repair`, `trim` as `to_uri`; arrays,
/// results, `charset`, `errors`, `on_error` and `threads` as `to_uri_batch`.
///
/// >>> import pyarrow as pa, iribulk
/// >>> iribulk.leiri_to_iri_batch(pa.array(["http://a/b c"])).to_pylist()
/// ['http://a/b%20c']
#[pyfunction]
#[pyo3(signature = (array, *, repair=None, trim=false, base=None, charset=None,
    max_line_bytes=8388608, errors=false, on_error="keep", threads=0))]
#[allow(clippy::too_many_arguments)]
fn leiri_to_iri_batch(
    py: Python<'_>,
    array: &Bound<'_, PyAny>,
    repair: Option<&Bound<'_, PyAny>>,
    trim: bool,
    base: Option<&str>,
    charset: Option<&str>,
    max_line_bytes: usize,
    errors: bool,
    on_error: &str,
    threads: usize,
) -> PyResult<Py<PyAny>> {
    let (charset, query_charset) = charset_of(charset, None)?;
    let mut opts = Options {
        mode: Mode::LeiriToIri,
        to_uri: ToUriOptions::default()
            .repair(repairs_of(repair, false)?)
            .trim(trim),
        max_line_bytes: max_line(max_line_bytes)?,
        base: None,
        charset,
        query_charset,
    };
    opts.base = base_of(base, opts.to_uri)?;
    run_batch(py, array, opts, errors, on_error, threads)
}

/// Testing hook: `_set_naive(True)` makes the batch functions run the converter on every row
/// (the slow twin of the pass-through of rows that need no work); returns the previous value.
#[pyfunction]
fn _set_naive(on: bool) -> bool {
    NAIVE.swap(on, Ordering::Relaxed)
}

/// The native module.
#[pymodule]
fn _iribulk(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(to_uri, m)?)?;
    m.add_function(wrap_pyfunction!(to_iri, m)?)?;
    m.add_function(wrap_pyfunction!(check, m)?)?;
    m.add_function(wrap_pyfunction!(normalize, m)?)?;
    m.add_function(wrap_pyfunction!(leiri_to_iri, m)?)?;
    m.add_function(wrap_pyfunction!(resolve, m)?)?;
    m.add_function(wrap_pyfunction!(to_uri_batch, m)?)?;
    m.add_function(wrap_pyfunction!(to_iri_batch, m)?)?;
    m.add_function(wrap_pyfunction!(check_batch, m)?)?;
    m.add_function(wrap_pyfunction!(normalize_batch, m)?)?;
    m.add_function(wrap_pyfunction!(leiri_to_iri_batch, m)?)?;
    m.add_function(wrap_pyfunction!(_set_naive, m)?)?;
    m.add("DEFAULT_MAX_LINE_BYTES", DEFAULT_MAX_LINE_BYTES)?;
    Ok(())
}

// The signatures above write the default of `max_line_bytes` as a literal (so that help()
// shows it); it must stay the library's default.
const _: () = assert!(DEFAULT_MAX_LINE_BYTES == 8388608);
