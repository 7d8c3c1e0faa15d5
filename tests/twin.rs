//! The per-line converter against its naive twin, and its properties (RFC 3987 §3.1: identity
//! on URIs, idempotent, output is a URI-reference), on random IRIs of many scripts.
//!
//! The twin below is written for obviousness, not speed: it tokenizes into characters first,
//! splits with `split_once`, and formats `%HH` with `format!`.

mod common;
use common::iri_strategy;

use iribulk::config::Repairs;
use iribulk::host::{self, Idna};
use iribulk::Converter as _;
use iribulk::{ErrorKind, HostMode, IdnaReason, InvalidUtf8, ToUri, ToUriOptions};
use proptest::prelude::*;

#[derive(Clone, Copy, Debug)]
enum Tok {
    C(char, usize),
    B(u8, usize),
}

fn tokens(s: &[u8]) -> Vec<Tok> {
    let mut v = Vec::new();
    let mut i = 0;
    while i < s.len() {
        match std::str::from_utf8(&s[i..]) {
            Ok(t) => {
                v.extend(t.char_indices().map(|(j, c)| Tok::C(c, i + j)));
                break;
            }
            Err(e) => {
                let good = std::str::from_utf8(&s[i..i + e.valid_up_to()]).unwrap();
                v.extend(good.char_indices().map(|(j, c)| Tok::C(c, i + j)));
                let bad = i + e.valid_up_to();
                let n = e.error_len().unwrap_or(s.len() - bad);
                for k in 0..n {
                    v.push(Tok::B(s[bad + k], bad + k));
                }
                i = bad + n;
            }
        }
    }
    v
}

type R<T> = Result<T, (ErrorKind, usize)>;

fn is_unreserved(c: char) -> bool {
    c.is_ascii_alphanumeric() || "-._~".contains(c)
}
fn is_sub_delim(c: char) -> bool {
    "!$&'()*+,;=".contains(c)
}

fn off(t: &Tok) -> usize {
    match *t {
        Tok::C(_, o) | Tok::B(_, o) => o,
    }
}

/// Position of the first token equal to `c`.
fn find(t: &[Tok], c: char) -> Option<usize> {
    t.iter().position(|x| matches!(x, Tok::C(y, _) if *y == c))
}

#[derive(PartialEq, Clone, Copy)]
enum Comp {
    Userinfo,
    Host,
    Path,
    Query,
    Fragment,
}

fn encode(t: &[Tok], comp: Comp, o: &ToUriOptions, out: &mut String) -> R<()> {
    let mut i = 0;
    while i < t.len() {
        match t[i] {
            Tok::B(b, at) => {
                if o.invalid_utf8 == InvalidUtf8::Error {
                    return Err((ErrorKind::InvalidUtf8, at));
                }
                out.push_str(&format!("%{b:02X}"));
            }
            Tok::C(c, at) if c.is_ascii() => {
                if is_unreserved(c) || is_sub_delim(c) || ":/?@".contains(c) {
                    out.push(c);
                } else if c == '%' {
                    let hex =
                        |k: usize| matches!(t.get(k), Some(Tok::C(h, _)) if h.is_ascii_hexdigit());
                    if !(hex(i + 1) && hex(i + 2)) {
                        return Err((ErrorKind::BadPercent, at));
                    }
                    out.push('%');
                } else if c == '[' || c == ']' {
                    return Err((ErrorKind::BadBracket, at));
                } else if c == '#' {
                    return Err((ErrorKind::ExtraHash, at));
                } else if " \"<>\\^`{|}".contains(c) {
                    if o.strict {
                        return Err((ErrorKind::DisallowedAscii, at));
                    }
                    out.push_str(&format!("%{:02X}", c as u32));
                } else {
                    if !o.leiri {
                        return Err((ErrorKind::ControlChar, at));
                    }
                    out.push_str(&format!("%{:02X}", c as u32));
                }
            }
            Tok::C(c, at) => {
                let u = c as u32;
                if (0x80..0xA0).contains(&u) {
                    if !o.leiri {
                        return Err((ErrorKind::ControlChar, at));
                    }
                } else if o.leiri && o.strict && matches!(u, 0xFFFE | 0xFFFF) {
                    // 3987bis §6.3: not even allowed in LEIRIs.
                    return Err((ErrorKind::NotUcschar, at));
                } else if !o.leiri && o.strict {
                    let bidi =
                        matches!(u, 0x061C | 0x200E | 0x200F | 0x202A..=0x202E | 0x2066..=0x2069);
                    let private =
                        matches!(u, 0xE000..=0xF8FF | 0xF0000..=0xFFFFD | 0x100000..=0x10FFFD);
                    let ucs = matches!(u, 0xA0..=0xD7FF | 0xF900..=0xFDCF | 0xFDF0..=0xFFEF | 0xE1000..=0xEFFFD)
                        || (0x10000..=0xDFFFF).contains(&u) && (u & 0xFFFF) <= 0xFFFD;
                    if bidi {
                        return Err((ErrorKind::BidiFormat, at));
                    }
                    if private && comp != Comp::Query {
                        return Err((ErrorKind::PrivateUse, at));
                    }
                    if !ucs && !private {
                        return Err((ErrorKind::NotUcschar, at));
                    }
                }
                let mut buf = [0u8; 4];
                for b in c.encode_utf8(&mut buf).bytes() {
                    out.push_str(&format!("%{b:02X}"));
                }
            }
        }
        i += 1;
    }
    Ok(())
}

fn text(t: &[Tok], s: &[u8]) -> String {
    match (t.first(), t.last()) {
        (Some(a), Some(b)) => {
            let end = off(b)
                + match b {
                    Tok::C(c, _) => c.len_utf8(),
                    Tok::B(..) => 1,
                };
            String::from_utf8_lossy(&s[off(a)..end]).into_owned()
        }
        _ => String::new(),
    }
}

fn is_ip_literal_naive(inner: &str) -> bool {
    if let Some(rest) = inner.strip_prefix(['v', 'V']) {
        let Some((hex, tail)) = rest.split_once('.') else {
            return false;
        };
        return !hex.is_empty()
            && hex.chars().all(|c| c.is_ascii_hexdigit())
            && !tail.is_empty()
            && tail
                .chars()
                .all(|c| is_unreserved(c) || is_sub_delim(c) || c == ':');
    }
    inner.parse::<std::net::Ipv6Addr>().is_ok()
}

fn host_naive(
    t: &[Tok],
    s: &[u8],
    scheme: Option<&str>,
    o: &ToUriOptions,
    out: &mut String,
) -> R<()> {
    let idna = match o.host {
        HostMode::Percent => None,
        HostMode::Uts46 => Some(Idna::Uts46),
        HostMode::Idna2003(flags) => Some(Idna::Idna2003(flags)),
        HostMode::Auto => scheme
            .filter(|s| iribulk::config::is_dns_scheme(s.as_bytes()))
            .map(|_| Idna::Uts46),
    };
    let ascii = t.iter().all(|x| matches!(x, Tok::C(c, _) if c.is_ascii()));
    let utf8 = t.iter().all(|x| matches!(x, Tok::C(..)));
    let Some(idna) = idna.filter(|_| !ascii && utf8) else {
        return encode(t, Comp::Host, o, out);
    };
    for (i, x) in t.iter().enumerate() {
        if let Tok::C(c, at) = *x {
            if (c < ' ' || c == '\u{7F}') && !o.leiri {
                return Err((ErrorKind::ControlChar, at));
            }
            if c == '[' || c == ']' {
                return Err((ErrorKind::BadBracket, at));
            }
            if c == '%' {
                let hex =
                    |k: usize| matches!(t.get(k), Some(Tok::C(h, _)) if h.is_ascii_hexdigit());
                if !(hex(i + 1) && hex(i + 2)) {
                    return Err((ErrorKind::BadPercent, at));
                }
            }
        }
    }
    for x in t {
        if let Tok::C(c, at) = *x {
            if ('\u{80}'..='\u{9F}').contains(&c) && !o.leiri {
                return Err((ErrorKind::ControlChar, at));
            }
        }
    }
    let h = text(t, s);
    let mut a = String::new();
    match host::to_ascii(&h, idna, &mut a) {
        Ok(()) => {
            out.push_str(&a);
            Ok(())
        }
        Err(_) if o.host_fallback_percent => encode(t, Comp::Host, o, out),
        Err(r) => {
            // At the fault a UTS #46 rule names, in the host as written (7fb9b1e).
            let at = match r {
                IdnaReason::Uts46(f) => host::uts46_reason::fault_offset(&h, &f).unwrap_or(0),
                _ => 0,
            };
            Err((ErrorKind::Idna(r), off(&t[0]) + at))
        }
    }
}

/// The naive twin of `--repair` (RFC 3987 §3.1's preprocessing): the repaired line, the byte
/// offsets it repaired, and the first repair's kind. The IP literal is the authority's host
/// (after its first `@`) when it starts with `[`, up to the first `]`.
fn naive_repair(s: &[u8], r: Repairs) -> (Vec<u8>, Vec<(usize, ErrorKind)>) {
    // On the bytes, not a lossy text: an invalid byte would become U+FFFD (three bytes) and
    // shift every offset after it (`http://\xFF@[::1]` lost its IP literal that way).
    let delim = |b: &u8| matches!(b, b'/' | b'?' | b'#');
    let colon = s.iter().position(|&b| b == b':').filter(|&c| {
        let sc = &s[..c];
        !sc.is_empty() && !sc.iter().any(delim)
    });
    let after_scheme = colon.map_or(0, |c| c + 1);
    let mut literal = None;
    if s[after_scheme..].starts_with(b"//") {
        let start = after_scheme + 2;
        let end = s[start..]
            .iter()
            .position(delim)
            .map_or(s.len(), |e| start + e);
        let auth = &s[start..end];
        let h = auth.iter().position(|&b| b == b'@').map_or(0, |p| p + 1);
        if auth[h..].starts_with(b"[") {
            if let Some(close) = auth[h..].iter().position(|&b| b == b']') {
                literal = Some(start + h..start + h + close + 1);
            }
        }
    }
    let first_hash = s.iter().position(|&b| b == b'#');
    let mut out = Vec::new();
    let mut at = Vec::new();
    for (i, &b) in s.iter().enumerate() {
        let triplet =
            s.len() > i + 2 && s[i + 1].is_ascii_hexdigit() && s[i + 2].is_ascii_hexdigit();
        let kind = match b {
            b'%' if r.percent && !triplet => Some(ErrorKind::RepairedPercent),
            b'#' if r.hash && first_hash != Some(i) => Some(ErrorKind::RepairedHash),
            b'[' | b']' if r.brackets && !literal.as_ref().is_some_and(|l| l.contains(&i)) => {
                Some(ErrorKind::RepairedBracket)
            }
            _ => None,
        };
        match kind {
            Some(k) => {
                out.extend_from_slice(format!("%{b:02X}").as_bytes());
                at.push((i, k));
            }
            None => out.push(b),
        }
    }
    (out, at)
}

/// The naive twin of `ToUri::convert_into`: the repairs first (unless strict), then the
/// conversion, its error offset mapped back to the line.
fn naive(s: &[u8], o: &ToUriOptions) -> R<String> {
    if !o.repair.any() || o.strict {
        return naive_convert(s, o);
    }
    let (fixed, at) = naive_repair(s, o.repair);
    naive_convert(&fixed, o).map_err(|(k, off)| {
        // Each repair made one byte three.
        let mut line_off = off;
        for (n, &(p, _)) in at.iter().enumerate() {
            let start = p + 2 * n;
            if off >= start && off < start + 3 {
                line_off = p;
                break;
            }
            if off >= start + 3 {
                line_off = off - 2 * (n + 1);
            }
        }
        (k, line_off)
    })
}

/// The conversion of the naive twin.
fn naive_convert(s: &[u8], o: &ToUriOptions) -> R<String> {
    if o.invalid_utf8 == InvalidUtf8::Error {
        if let Err(e) = std::str::from_utf8(s) {
            return Err((ErrorKind::InvalidUtf8, e.valid_up_to()));
        }
    }
    let all = tokens(s);
    let mut t: &[Tok] = &all;
    let mut out = String::new();
    // Scheme: RFC 3986 Appendix B `^(([^:/?#]+):)?`, then §3.1's grammar.
    let first = t
        .iter()
        .position(|x| matches!(x, Tok::C(':' | '/' | '?' | '#', _)));
    let mut scheme = None;
    if let Some(p) = first.filter(|&p| p > 0 && matches!(t[p], Tok::C(':', _))) {
        let sch = &t[..p];
        for (k, x) in sch.iter().enumerate() {
            let ok = match x {
                Tok::C(c, _) if k == 0 => c.is_ascii_alphabetic(),
                Tok::C(c, _) => c.is_ascii_alphanumeric() || "+-.".contains(*c),
                Tok::B(..) => false,
            };
            if !ok {
                return Err((ErrorKind::BadScheme, if k == 0 { 0 } else { off(x) }));
            }
        }
        scheme = Some(text(sch, s));
        out.push_str(scheme.as_deref().unwrap());
        out.push(':');
        t = &t[p + 1..];
    } else if matches!(t.first(), Some(Tok::C(':', _))) {
        return Err((ErrorKind::BadScheme, 0));
    }
    let (rest, frag) = match find(t, '#') {
        Some(p) => (&t[..p], Some(&t[p + 1..])),
        None => (t, None),
    };
    let (rest, query) = match find(rest, '?') {
        Some(p) => (&rest[..p], Some(&rest[p + 1..])),
        None => (rest, None),
    };
    let mut path = rest;
    if matches!(rest, [Tok::C('/', _), Tok::C('/', _), ..]) {
        let a = &rest[2..];
        let (auth, p) = match find(a, '/') {
            Some(k) => (&a[..k], &a[k..]),
            None => (a, &a[a.len()..]),
        };
        path = p;
        out.push_str("//");
        // Host confusion: a `\` in the authority of a scheme that browsers treat as special
        // (WHATWG URL §4.4) is an error, whatever else the line holds.
        let special = scheme.as_deref().is_some_and(|sc| {
            ["http", "https", "ws", "wss", "ftp", "file"]
                .iter()
                .any(|x| x.eq_ignore_ascii_case(sc))
        });
        if let Some(x) = auth
            .iter()
            .find(|x| matches!(x, Tok::C('\\', _)))
            .filter(|_| special)
        {
            return Err((ErrorKind::BackslashAuthority, off(x)));
        }
        let (ui, hp) = match find(auth, '@') {
            Some(k) => {
                if let Some(k2) = find(&auth[k + 1..], '@') {
                    return Err((ErrorKind::ExtraAt, off(&auth[k + 1 + k2])));
                }
                (Some(&auth[..k]), &auth[k + 1..])
            }
            None => (None, auth),
        };
        let (host, port): (&[Tok], Option<&[Tok]>) = if matches!(hp.first(), Some(Tok::C('[', _))) {
            let Some(close) = find(hp, ']') else {
                return Err((ErrorKind::BadIpLiteral, off(&hp[0])));
            };
            match hp.get(close + 1) {
                None => (&hp[..=close], None),
                Some(Tok::C(':', _)) => (&hp[..=close], Some(&hp[close + 2..])),
                Some(x) => return Err((ErrorKind::BadIpLiteral, off(x))),
            }
        } else {
            match find(hp, ':') {
                Some(k) => (&hp[..k], Some(&hp[k + 1..])),
                None => (hp, None),
            }
        };
        if let Some(ui) = ui {
            if let Some(x) = ui.iter().find(|x| matches!(x, Tok::C('[' | ']', _))) {
                return Err((ErrorKind::BadBracket, off(x)));
            }
        }
        if let Some(port) = port {
            if let Some(x) = port
                .iter()
                .find(|x| !matches!(x, Tok::C(c, _) if c.is_ascii_digit()))
            {
                let k = if matches!(x, Tok::C('[' | ']', _)) {
                    ErrorKind::BadBracket
                } else {
                    ErrorKind::BadPort
                };
                return Err((k, off(x)));
            }
        }
        if let Some(ui) = ui {
            encode(ui, Comp::Userinfo, o, &mut out)?;
            out.push('@');
        }
        if matches!(host.first(), Some(Tok::C('[', _))) {
            let h = text(host, s);
            if !is_ip_literal_naive(&h[1..h.len() - 1]) {
                return Err((ErrorKind::BadIpLiteral, off(&host[0])));
            }
            out.push_str(&h);
        } else {
            host_naive(host, s, scheme.as_deref(), o, &mut out)?;
        }
        if let Some(port) = port {
            out.push(':');
            out.push_str(&text(port, s));
        }
    }
    encode(path, Comp::Path, o, &mut out)?;
    if let Some(q) = query {
        out.push('?');
        encode(q, Comp::Query, o, &mut out)?;
    }
    if let Some(f) = frag {
        out.push('#');
        encode(f, Comp::Fragment, o, &mut out)?;
    }
    Ok(out)
}

fn fast(s: &[u8], o: &ToUriOptions) -> R<String> {
    let mut out = Vec::new();
    ToUri::new(*o)
        .convert_or_copy_into(s, &mut out)
        .map(|_| String::from_utf8(out).expect("ASCII output"))
        .map_err(|e| (e.kind, e.offset))
}

fn options_strategy() -> impl Strategy<Value = ToUriOptions> {
    (
        0..4u8,
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        (any::<bool>(), any::<bool>(), any::<bool>()),
    )
        .prop_map(|(h, s, l, u, f, (rb, rp, rh))| {
            ToUriOptions::default()
                .host(
                    [
                        HostMode::Auto,
                        HostMode::Uts46,
                        HostMode::IDNA2003,
                        HostMode::Percent,
                    ][h as usize],
                )
                .strict(s)
                .leiri(l)
                .invalid_utf8(if u {
                    InvalidUtf8::Percent
                } else {
                    InvalidUtf8::Error
                })
                .host_fallback_percent(f)
                .repair(Repairs {
                    brackets: rb,
                    percent: rp,
                    hash: rh,
                })
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, .. ProptestConfig::default() })]

    #[test]
    fn fast_equals_naive(s in iri_strategy(), o in options_strategy()) {
        prop_assert_eq!(fast(&s, &o), naive(&s, &o), "input {:?}", String::from_utf8_lossy(&s));
    }

    #[test]
    fn output_is_an_ascii_uri_reference_and_idempotent(s in iri_strategy(), o in options_strategy()) {
        if let Ok(out) = fast(&s, &o) {
            prop_assert!(out.is_ascii());
            prop_assert!(
                iri_string::types::UriReferenceStr::new(&out).is_ok(),
                "not an RFC 3986 URI-reference: {:?} (from {:?})", out, String::from_utf8_lossy(&s)
            );
            // Idempotent (RFC 3987 §3.1): the second pass passes the URI through, writing
            // nothing.
            let mut again = b"keep".to_vec();
            let oc = ToUri::new(o).convert_into(out.as_bytes(), &mut again).unwrap();
            prop_assert_eq!(oc.written, iribulk::Written::Passthrough);
            prop_assert_eq!(again, b"keep".to_vec());
        }
    }

    #[test]
    fn identity_on_uris(s in iri_strategy(), o in options_strategy()) {
        // Whatever RFC 3986 accepts as a URI-reference, the mapping leaves as it is, and
        // whatever is ASCII and convertible without change is a URI-reference.
        let Ok(text) = std::str::from_utf8(&s) else { return Ok(()) };
        if iri_string::types::UriReferenceStr::new(text).is_ok() {
            let r = fast(&s, &o);
            // Zone identifiers: iri-string accepts none either, so no exception is needed.
            prop_assert_eq!(r, Ok(text.to_string()), "URI changed: {:?}", text);
        }
    }
}

#[test]
fn naive_twin_agrees_on_the_data_file_rows() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/to_uri_examples.tsv");
    for r in common::read_tsv(&path) {
        let o = common::parse_options(&r[2]);
        let input = common::unescape(&r[3]);
        assert_eq!(fast(&input, &o), naive(&input, &o), "row {}", r[0]);
    }
}

#[test]
fn error_offsets_point_at_the_problem() {
    let o = ToUriOptions::default();
    for (input, kind, at) in [
        ("http://a/b%zz", ErrorKind::BadPercent, 10),
        ("http://a/#b#c", ErrorKind::ExtraHash, 11),
        ("http://a@b@c/", ErrorKind::ExtraAt, 10),
        ("http://h:8x/", ErrorKind::BadPort, 10),
        ("/é\u{1}", ErrorKind::ControlChar, 3),
        ("ab_c:d", ErrorKind::BadScheme, 2),
        ("http://[::g]/", ErrorKind::BadIpLiteral, 7),
    ] {
        assert_eq!(fast(input.as_bytes(), &o), Err((kind, at)), "{input}");
    }
    assert_eq!(fast(b"/ab\xFFc", &o), Err((ErrorKind::InvalidUtf8, 3)));
}

/// `--repair`: the converter and the naive twin agree on lines that hold every repaired byte,
/// under every set of repairs, strict or not (strict refuses repairs: the errors stay), and a
/// repaired output is a URI-reference.
#[test]
fn naive_twin_agrees_with_repairs_on() {
    let lines = [
        "http://u[1]@[::1]:8/a[b]%zz?q=%#f#g%",
        "//[v1.x]/[CFA]-franc.html?a[]=1&b[k]=2",
        "a%:b#c#d",
        "http://a[b]/",
        "http://\u{E9}[x/",
        "foo://[::1]]/x",
        "#%#[#]",
        "http://example.org/100%",
        "http://example.org/a#b#c",
        "https://h/p?x=%E9%",
        "http://[::1/",
        "http://h:8[0/",
        "mailto:a[1]@b",
    ];
    let mut repaired = 0;
    for line in lines {
        for bits in 0..8u8 {
            for strict in [false, true] {
                let o = ToUriOptions::default().strict(strict).repair(Repairs {
                    brackets: bits & 1 != 0,
                    percent: bits & 2 != 0,
                    hash: bits & 4 != 0,
                });
                let (f, n) = (fast(line.as_bytes(), &o), naive(line.as_bytes(), &o));
                assert_eq!(f, n, "{line:?} with {o:?}");
                if let Ok(out) = &f {
                    assert!(
                        iri_string::types::UriReferenceStr::new(out).is_ok(),
                        "{out:?} from {line:?}"
                    );
                    if out.contains("%5B") || out.contains("%23") || out.contains("%25") {
                        repaired += 1;
                    }
                }
            }
        }
    }
    assert!(repaired > 20, "{repaired}");
}
